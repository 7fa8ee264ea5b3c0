-- modelparts.lua -- the optional parts of a user's model (lib/lua/kapitza/usermodel.lua documents the spec)
-- built into the model: a splitting (flows), holonomic constraints, slow-variable sets, the
-- mechanical split of the variational multirate integrators (vmi), invariants, the initial state,
-- the end time and the period, as the structs of lib/include/kapitza.h the methods take
-- (kz_sys.flow_a/b, kz_constraints, kz_slow, kz_vmi_model); and the derivatives the spec gives
-- checked against central differences. The declarations are checked in lib/lua/kapitza/usermodel/parts_spec.lua,
-- the functions of each way come from lib/lua/kapitza/usermodel/parts_c.lua (C wrappers) and
-- lib/lua/kapitza/usermodel/parts_lua.lua (FFI callbacks).
local kz = require "kapitza"
local Dv = require "kapitza.usermodel.derivatives"
local guard = require "kapitza.usermodel.guard"
local tostring = guard.text -- a user's values worded safely (guard.text)
local Spec = require "kapitza.usermodel.parts_spec"
local Cw = require "kapitza.usermodel.parts_c"
local Lw = require "kapitza.usermodel.parts_lua"
local ffi, C = kz.ffi, kz.C
local resolve, initial_state, cdef_named = Spec.resolve, Spec.initial_state, Cw.cdef_named
local failed, status, value, addr, slow_live = Lw.failed, Lw.status, Lw.value, Lw.addr, Lw.slow_live
local make_callbacks, lua_parts = Lw.make_callbacks, Lw.lua_parts

local P = {}

---------------------------------------------------------------------------------------------------
-- Building the parts into the model
---------------------------------------------------------------------------------------------------

local function cvec(t)
  local v = ffi.new("double[?]", math.max(#t, 1))
  for i = 1, #t do v[i - 1] = t[i] end
  return v
end

--- Attach the parts of spec to the model m (built by usermodel.model): how = "c" with the
-- compiled library namespace lib, or "lua" with the model's callback entry (um.lua_entry).
-- bad(spec, msg) raises. Fills m.sys.flow_a/b, m.con (and m.sys.con), m.slow, m.model / ns /
-- nf / d (vmi), m.invariants, m.invariant_names, m.y0, m.T, m.period, m.derivatives.
function P.attach(m, spec, L, how, fp, bad, lib, entry, um)
  local parts, Pp = L.parts, m.par
  m.keep = m.keep or {}
  local derived = {}
  m.derivatives = derived -- { part = ..., how = "given" | "central differences" }
  local lua
  if how == "lua" then
    lua = make_callbacks(um)
    entry.parts = lua_parts(spec.name, L, fp)
  end
  local function note(part, given) derived[#derived + 1] = { part = part, how = given and "given" or "central differences" } end
  -- vmi (before the initial state: it sets the state's layout)
  if fp.vmi then
    local v, vs = parts.vmi, spec.vmi
    local vm = ffi.new("kz_vmi_model")
    vm.ns, vm.nf = v.ns, v.nf
    local ms = v.ns > 0 and resolve(spec, bad, vs.mass_s or 1, Pp, "vmi.mass_s", v.ns, true) or { 1 }
    local mf = v.nf > 0 and resolve(spec, bad, vs.mass_f or 1, Pp, "vmi.mass_f", v.nf, true) or { 1 }
    local msv, mfv = cvec(ms), cvec(mf)
    m.keep[#m.keep + 1], m.keep[#m.keep + 2] = msv, mfv
    vm.mass_s, vm.mass_f, vm.ms, vm.mf = ms[1], mf[1], msv, mfv
    vm.par = Pp
    if how == "c" then
      vm.V = lib.kzu_vmi_V
      if fp.vmi.W then vm.W = lib.kzu_vmi_W end
    else
      vm.V = lua.V
      if fp.vmi.W then vm.W = lua.W end
    end
    m.model, m.ns, m.nf, m.d = vm, v.ns, v.nf, 2 * (v.ns + v.nf)
    note("vmi.V_gradient", fp.vmi.V_gradient)
    note("vmi.V_hessian", fp.vmi.V_hessian)
    if fp.vmi.W then
      note("vmi.W_gradient", fp.vmi.W_gradient)
      note("vmi.W_hessian", fp.vmi.W_hessian)
    end
    if m.sys == nil then
      m.sys = ffi.new("kz_sys")
      kz.call("kz_vmi_sys", m.sys, vm, kz.report())
    end
  end
  -- flows
  if fp.flows then
    if how == "c" then m.sys.flow_a, m.sys.flow_b = lib.kzu_flow_a, lib.kzu_flow_b
    else m.sys.flow_a, m.sys.flow_b = lua.flow_a, lua.flow_b end
    -- the flows' own parameters: a vmi model's sys.par is its kz_vmi_model (kz_vmi_sys), not Pp
    m.sys.flow_par = Pp
  end
  m.y0 = initial_state(spec, L, bad, Pp)
  if spec.T ~= nil then m.T = resolve(spec, bad, spec.T, Pp, "T", nil, true) end
  if spec.period ~= nil then m.period = resolve(spec, bad, spec.period, Pp, "period", nil, true) end
  -- constraints
  if fp.constraints then
    local c, cs = parts.constraints, spec.constraints
    local con = ffi.new("kz_constraints")
    con.m = c.m
    local minv
    if cs.mass ~= nil then
      local mass = resolve(spec, bad, cs.mass, Pp, "constraints.mass", c.nq, true)
      minv = {}
      for i = 1, c.nq do minv[i] = 1 / mass[i] end
    else
      minv = resolve(spec, bad, cs.minv, Pp, "constraints.minv", c.nq, true)
    end
    local mv = cvec(minv)
    m.keep[#m.keep + 1] = mv
    con.minv, con.par, con.max_iter = mv, Pp, cs.max_iter or 50
    con.g = how == "c" and lib.kzu_con or lua.con
    con.tol = 1 -- provisional, for the scale below
    m.con = con
    m.sys.con = con
    note("constraints.jacobian", fp.constraints.jacobian)
    if cs.tol then con.tol = resolve(spec, bad, cs.tol, Pp, "constraints.tol", nil, true)
    else
      local scale, why = P.constraint_scale(m)
      if why then bad(spec, why) end
      con.tol = 1e-14 * scale
    end
  end
  -- slow sets
  if fp.slow then
    m.slow = {}
    for _, name in ipairs(parts.slow.names) do
      local s = ffi.new("kz_slow")
      s.r, s.dim = parts.slow[name].r, L.dim
      if parts.slow[name].frozen then
        local fr = ffi.new("int[?]", L.dim)
        for _, i in ipairs(parts.slow[name].frozen) do fr[i - 1] = 1 end
        s.frozen = fr
        m.keep[#m.keep + 1] = fr
      end
      if how == "c" then
        cdef_named("slow", name)
        s.eval, s.par = lib["kzu_slow_" .. name], Pp
      else
        local anchor = ffi.new("double[1]")
        local k = addr(anchor)
        local rec = { fn = entry.parts.slow[name], P = Pp }
        slow_live[k] = rec
        ffi.gc(anchor, function() if slow_live[k] == rec then slow_live[k] = nil end end)
        m.keep[#m.keep + 1] = anchor
        s.eval, s.par = lua.slow, anchor
      end
      m.slow[name] = s
      note("slow." .. name .. ".gradient", fp.slow[name].gradient)
      note("slow." .. name .. ".dtheta", fp.slow[name].dtheta)
    end
  end
  -- invariants (plus the constraint residuals of a constrained model)
  local names, fns = {}, {}
  if fp.invariants then
    for _, name in ipairs(fp.invariant_names) do
      names[#names + 1] = name
      if how == "c" then
        cdef_named("inv", name)
        local f, out = lib["kzu_inv_" .. name], ffi.new("double[1]")
        fns[name] = function(y)
          local st = f(Pp, y, out)
          local fault = st == C.KZ_EMODEL and guard.fault_message(st) -- an output left unset (lib/lua/kapitza/usermodel/guard.lua)
          if fault then error(fault, 0) end
          if st ~= 0 then error(string.format("usermodel '%s': invariants.%s returned status %d (%s)", spec.name, name, st, ffi.string(C.kz_strerror(st))), 0) end
          return out[0]
        end
      else
        local f = fp.invariants[name]
        fns[name] = function(y)
          local ok, v = pcall(f, Pp, y)
          if not ok and guard.lua_fault(v) then error(guard.lua_fault(v), 0) end
          if not ok then error(string.format("usermodel '%s': invariants.%s raised an error: %s", spec.name, name, tostring(v)), 0) end
          if type(v) ~= "number" then error(string.format("usermodel '%s': invariants.%s returned %s (expected a number)", spec.name, name, tostring(v)), 0) end
          return v
        end
      end
    end
  end
  if m.con then
    names[#names + 1], names[#names + 2] = "constraint_g", "constraint_Gv"
  end
  if #names > 0 then
    m.invariant_names = names
    local yb = ffi.new("double[?]", L.dim)
    local res = m.con and ffi.new("double[?]", 2 * m.con.m) or nil
    --- The invariants at the state y (a Lua array or a double pointer): name -> value; with
    -- constraints also constraint_g = max_i |g_i(q)| and constraint_Gv = max_i |(G(q) v)_i|.
    function m.invariants(y)
      if type(y) == "table" then for i = 1, L.dim do yb[i - 1] = y[i] end else ffi.copy(yb, y, 8 * L.dim) end
      local out = {}
      for name, f in pairs(fns) do out[name] = f(yb) end
      if res then
        kz.call("kz_con_residual", m.sys, yb, res, kz.report())
        local a, b = 0, 0
        for i = 0, m.con.m - 1 do a, b = math.max(a, math.abs(res[i])), math.max(b, math.abs(res[m.con.m + i])) end
        out.constraint_g, out.constraint_Gv = a, b
      end
      return out
    end
  end
  -- the given derivatives checked against central differences at the initial state
  if m.y0 then
    for _, row in ipairs(P.check(m)) do
      if not row.ok then bad(spec, row.message) end
    end
  end
end

--- The size of the constraint terms at the initial state: max_i sum_j |G_ij q_j| (1 without
-- an initial state or when it is 0); and, when the Jacobian fails there, 1 and the reason.
function P.constraint_scale(m)
  if not m.y0 then return 1 end
  local con, nq = m.con, m.dim / 2
  local q, G = cvec(m.y0), ffi.new("double[?]", con.m * nq)
  local st = con.g(con.par, q, nil, G)
  if st ~= 0 then
    local msg = kz.callback_error or (st == C.KZ_EMODEL and guard.fault_message(st)) or ffi.string(C.kz_strerror(st))
    kz.callback_error = nil
    return 1, "the constraints' Jacobian failed at the initial state: " .. tostring(msg)
  end
  local s = 0
  for i = 0, con.m - 1 do
    local a = 0
    for j = 0, nq - 1 do a = a + math.abs(G[i * nq + j] * q[j]) end
    s = math.max(s, a)
  end
  return s > 0 and s < math.huge and s or 1
end

---------------------------------------------------------------------------------------------------
-- Derivative checks (any model: the structs' function pointers are called)
---------------------------------------------------------------------------------------------------

local function is_given(m, part)
  if not m.derivatives then return true end -- a built-in model: analytic everywhere
  for _, d in ipairs(m.derivatives) do if d.part == part then return d.how == "given" end end
  return false
end

-- Compare the given matrix A (m x n) with central differences of f at x (steps h and h/2).
local function compare(part, f, n, mo, x, A)
  local s = Dv.scratch(ffi, n, mo)
  local F, F2 = ffi.new("double[?]", math.max(mo * n, 1)), ffi.new("double[?]", math.max(mo * n, 1))
  local bad = Dv.jacobian(f, n, mo, x, F, s) or Dv.jacobian(f, n, mo, x, F2, s, Dv.rel / 2)
  if bad then
    local msg = kz.callback_error
    kz.callback_error = nil
    return { part = part, ok = false, message = string.format("%s could not be checked: the function failed at the initial state (%s)", part, tostring(msg or bad)) }
  end
  local w, ok = Dv.compare(A, F, F2, mo, n)
  local row = { part = part, ok = ok, rel = w.rel }
  if not ok then
    row.message = string.format("%s disagrees with central differences at the initial state: entry (%d, %d) is %.6g, the differences give %.6g (relative %.2g > %g)",
                                part, w.i + 1, w.j + 1, w.a, w.f, w.rel, Dv.tol)
  end
  return row
end

--- Check the derivatives a model gives (its constraint Jacobian, slow-set gradients and phase
-- derivatives, vmi gradients and Hessians) against central differences at the state y (a Lua
-- array; default m.y0). Derivatives formed by the library are skipped. Returns rows
-- { part, ok, rel, message }: rel the largest relative difference (ok when within
-- derivatives.tol after the differences' own error).
function P.check(m, y)
  y = y or m.y0
  local rows = {}
  if not y then return rows end
  local d = #y
  local yv = cvec(y)
  local function fail(part, st)
    local msg = kz.callback_error or (st == C.KZ_EMODEL and guard.fault_message(st)) or nil -- a Lua or a C guard's word
    kz.callback_error = nil
    rows[#rows + 1] = { part = part, ok = false, message = string.format("%s failed at the initial state: %s", part, msg or ffi.string(C.kz_strerror(st))) }
  end
  if m.con and is_given(m, "constraints.jacobian") then
    local con, nq = m.con, d / 2
    local G = ffi.new("double[?]", con.m * nq)
    local st = con.g(con.par, yv, nil, G)
    if st ~= 0 then fail("constraints.jacobian", st)
    else
      rows[#rows + 1] = compare("constraints.jacobian", function(xw, o)
        local s2 = con.g(con.par, xw, o, nil)
        if s2 ~= 0 then return s2 end
      end, nq, con.m, yv, G)
    end
  end
  if m.slow and m.vib then
    local names = {}
    for name in pairs(m.slow) do names[#names + 1] = name end
    table.sort(names)
    local theta = m.vib.theta0
    for _, name in ipairs(names) do
      local s = m.slow[name]
      local r = s.r
      local xi, G, xt = ffi.new("double[?]", r), ffi.new("double[?]", r * d), ffi.new("double[?]", r)
      if is_given(m, "slow." .. name .. ".gradient") then
        local st = s.eval(s.par, theta, yv, xi, G, nil)
        if st ~= 0 then fail("slow." .. name .. ".gradient", st)
        else
          rows[#rows + 1] = compare("slow." .. name .. ".gradient", function(xw, o)
            local s2 = s.eval(s.par, theta, xw, o, nil, nil)
            if s2 ~= 0 then return s2 end
          end, d, r, yv, G)
        end
      end
      if is_given(m, "slow." .. name .. ".dtheta") then
        local st = s.eval(s.par, theta, yv, xi, nil, xt)
        if st ~= 0 then fail("slow." .. name .. ".dtheta", st)
        else
          rows[#rows + 1] = compare("slow." .. name .. ".dtheta", function(tw, o)
            local s2 = s.eval(s.par, tw[0], yv, o, nil, nil)
            if s2 ~= 0 then return s2 end
          end, 1, r, cvec { theta }, xt)
        end
      end
    end
  end
  if m.model and ffi.istype("kz_vmi_model", m.model) then
    local vm = m.model
    local ns, nf = vm.ns, vm.nf
    local n = ns + nf
    local x = ffi.new("double[?]", math.max(n, 1))
    for i = 0, n - 1 do x[i] = yv[i] end
    local function Vgrad(xx, o)
      for i = 0, n - 1 do o[i] = 0 end
      local st = vm.V(vm.par, xx, xx + ns, nil, o, o + ns, nil)
      if st ~= 0 then return st end
    end
    local function Wgrad(xx, o)
      for i = 0, nf - 1 do o[i] = 0 end
      local st = vm.W(vm.par, xx, nil, o, nil)
      if st ~= 0 then return st end
    end
    local checks = {
      { "vmi.V_gradient", n, 1, x, function(xx, o) local st = vm.V(vm.par, xx, xx + ns, o, nil, nil, nil) if st ~= 0 then return st end end, Vgrad },
      { "vmi.V_hessian", n, n, x, Vgrad, function(xx, o)
        for i = 0, n * n - 1 do o[i] = 0 end
        local st = vm.V(vm.par, xx, xx + ns, nil, nil, nil, o)
        if st ~= 0 then return st end
      end } }
    if vm.W ~= nil then
      local xf = ffi.new("double[?]", math.max(nf, 1))
      for i = 0, nf - 1 do xf[i] = yv[ns + i] end
      checks[3] = { "vmi.W_gradient", nf, 1, xf, function(xx, o) local st = vm.W(vm.par, xx, o, nil, nil) if st ~= 0 then return st end end, Wgrad }
      checks[4] = { "vmi.W_hessian", nf, nf, xf, Wgrad, function(xx, o)
        for i = 0, nf * nf - 1 do o[i] = 0 end
        local st = vm.W(vm.par, xx, nil, nil, o)
        if st ~= 0 then return st end
      end }
    end
    for _, c in ipairs(checks) do
      local part, nn, mo, xx, f, given = c[1], c[2], c[3], c[4], c[5], c[6]
      if nn > 0 and is_given(m, part) then
        local A = ffi.new("double[?]", math.max(mo * nn, 1))
        local st = given(xx, A)
        if st then fail(part, st) else rows[#rows + 1] = compare(part, f, nn, mo, xx, A) end
      end
    end
  end
  return rows
end
jit.off(P.check, true)
jit.off(P.constraint_scale)

return P
