-- cli/twins.lua -- `kapitza check`: a model file's C and Lua functions compared part by part at
-- the initial state (issue 25, item 5): the force at three phases, and every other part both
-- ways give -- reconstruct, averaged, the flows, the constraints and their Jacobian, each slow
-- set's xi, gradient and phase derivative, the vmi potentials and their gradients, the
-- invariants. Each is called through the structs the methods use (m.sys, m.vib, m.avg, m.con,
-- m.slow, m.model), so what is compared is what the methods run.
local T = {}

local function fill(ffi, n, t, off)
  local v = ffi.new("double[?]", math.max(n, 1))
  for i = 0, n - 1 do v[i] = t[(off or 0) + i + 1] or 0 end
  return v
end

-- Compare the outputs of one part: call(model) -> status, a cdata array and its length.
local function compare(kz, name, m1, m2, call, rows)
  local s1, a, n = call(m1)
  local s2, b = call(m2)
  kz.callback_error = nil
  if s1 ~= 0 or s2 ~= 0 then
    rows[#rows + 1] = { part = name, failed = string.format("status %s (C) and %s (Lua)", tostring(s1), tostring(s2)) }
    return
  end
  local d, scale = 0, 0
  for i = 0, n - 1 do
    local x, y = a[i], b[i]
    if x ~= y and not (x ~= x and y ~= y) then -- equal (an infinity both ways too), or NaN both ways: agree
      d = math.max(d, (x ~= x or y ~= y) and math.huge or math.abs(x - y))
    end
    if x == x and math.abs(x) < math.huge then scale = math.max(scale, math.abs(x)) end
  end
  rows[#rows + 1] = { part = name, diff = d, scale = scale }
end

--- The rows { part, diff, scale } (or { part, failed }) comparing the models c (C functions) and
-- l (Lua functions) of the model file mf at its initial state; periods: the phases or times at
-- which the force is compared.
function T.compare(mf, c, l, times)
  local kz = require "kapitza"
  local ffi = kz.ffi
  local rows, dim, y0 = {}, mf.dim, mf.y0
  -- the force (field) at three phases
  compare(kz, "the force (" .. (mf.vmi and "field" or (mf.nq > 0 and "accel" or "rhs")) .. ", three phases)", c, l, function(m)
    local out = ffi.new("double[?]", 3 * dim)
    for k, t in ipairs(times) do
      local y, f = fill(ffi, dim, y0), ffi.new("double[?]", dim)
      local st = pcall(kz.call, "kz_sys_eval", m.sys, t, y, f, kz.report()) and 0 or 1
      if st ~= 0 then return st end
      for i = 0, dim - 1 do out[(k - 1) * dim + i] = f[i] end
    end
    return 0, out, 3 * dim
  end, rows)
  if c.avg and l.avg then
    compare(kz, "averaged", c, l, function(m)
      local y, f = fill(ffi, dim, y0), ffi.new("double[?]", dim)
      return pcall(kz.call, "kz_sys_eval", m.avg, 0, y, f, kz.report()) and 0 or 1, f, dim
    end, rows)
  end
  if c.vib and l.vib and c.vib.reconstruct ~= nil and l.vib.reconstruct ~= nil then
    compare(kz, "reconstruct", c, l, function(m)
      local Y, y = fill(ffi, dim, y0), ffi.new("double[?]", dim)
      return m.vib.reconstruct(m.vib.par, m.vib.theta0 + 1, Y, y), y, dim
    end, rows)
  end
  if c.sys and l.sys and c.sys.flow_a ~= nil and l.sys.flow_a ~= nil then
    local h = 0.1 * (mf.period or mf.T / 100)
    for _, ab in ipairs { "a", "b" } do
      compare(kz, "flows." .. ab, c, l, function(m)
        local y = fill(ffi, dim, y0)
        local par = m.sys.flow_par ~= nil and m.sys.flow_par or m.sys.par
        return m.sys["flow_" .. ab](par, 0, h, y, kz.report()), y, dim
      end, rows)
    end
  end
  if c.con and l.con then
    local mm, nq = c.con.m, dim / 2
    compare(kz, "constraints.g and jacobian", c, l, function(m)
      local q, out = fill(ffi, nq, y0), ffi.new("double[?]", mm + mm * nq)
      return m.con.g(m.con.par, q, out, out + mm), out, mm + mm * nq
    end, rows)
  end
  if type(c.slow) == "table" and type(l.slow) == "table" then
    local names = {}
    for k in pairs(c.slow) do names[#names + 1] = k end
    table.sort(names)
    for _, name in ipairs(names) do
      if l.slow[name] then
        local r = c.slow[name].r
        local theta = c.vib and c.vib.theta0 or 0
        compare(kz, "slow." .. name .. " (xi, gradient, dtheta)", c, l, function(m)
          local s = m.slow[name]
          local x, out = fill(ffi, dim, y0), ffi.new("double[?]", r + r * dim + r)
          return s.eval(s.par, theta + 1, x, out, out + r, out + r + r * dim), out, r + r * dim + r
        end, rows)
      end
    end
  end
  if c.model and l.model and ffi.istype("kz_vmi_model", c.model) and ffi.istype("kz_vmi_model", l.model) then
    local ns, nf = c.model.ns, c.model.nf
    compare(kz, "vmi.V and its gradient", c, l, function(m)
      local vm, out = m.model, ffi.new("double[?]", 1 + ns + nf)
      local q = fill(ffi, ns + nf, y0)
      return vm.V(vm.par, q, q + ns, out, out + 1, out + 1 + ns, nil), out, 1 + ns + nf
    end, rows)
    if c.model.W ~= nil and l.model.W ~= nil then
      compare(kz, "vmi.W and its gradient", c, l, function(m)
        local vm, out = m.model, ffi.new("double[?]", 1 + nf)
        local qf = fill(ffi, nf, y0, ns)
        return vm.W(vm.par, qf, out, out + 1, nil), out, 1 + nf
      end, rows)
    end
  end
  if c.invariants and l.invariants then
    compare(kz, "invariants", c, l, function(m)
      local ok, v = pcall(m.invariants, y0)
      if not ok then return 1 end
      local out = ffi.new("double[?]", #m.invariant_names)
      for i, k in ipairs(m.invariant_names) do out[i - 1] = v[k] end
      return 0, out, #m.invariant_names
    end, rows)
  end
  return rows
end
jit.off(T.compare, true)

return T
