-- steppers_time_spec.lua -- Strang splitting (lib/steppers/kz_step_strang.c) and Fredbo's ve scheme
-- (kz_step_ve.c) on systems whose flows and forces depend on t, and ve on first-order systems
-- other than the spinning top (issue 28, item 5): Strang is exact for flows that depend on t alone
-- and commute; its half steps take A at t and t + h/2 and B over the whole step; it is of order 2
-- on a coupled, forced problem; ve is its formula (35) stage by stage, for any partition size
-- (dim/2 of a first-order system, nq of a second-order one), and leapfrog on (q, v).
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local keep = {} -- the callbacks live as long as the spec

local function sys_of(t)
  local s = ffi.new("kz_sys")
  s.dim, s.nq = t.dim, t.nq or 0
  if t.rhs then
    keep[#keep + 1] = ffi.cast("kz_rhs_fn", function(_, tt, y, f) t.rhs(tt, y, f); return 0 end)
    s.rhs = keep[#keep]
  end
  if t.accel then
    keep[#keep + 1] = ffi.cast("kz_accel_fn", function(_, tt, q, a) t.accel(tt, q, a); return 0 end)
    s.accel = keep[#keep]
  end
  if t.a then
    keep[#keep + 1] = ffi.cast("kz_flow_fn", function(_, tt, h, y) t.a(tt, h, y); return 0 end)
    s.flow_a = keep[#keep]
    keep[#keep + 1] = ffi.cast("kz_flow_fn", function(_, tt, h, y) t.b(tt, h, y); return 0 end)
    s.flow_b = keep[#keep]
  end
  return s
end

local function close(a, b, tol, what)
  assert(math.abs(a - b) <= tol * math.max(1, math.abs(b)), string.format("%s: %.17g against %.17g", what, a, b))
end

describe("Strang splitting on flows that depend on t #asan", function()
  -- A: y1' = cos t, y2' = 0;  B: y1' = 0, y2' = t^2 (each flow exact): they commute, so one
  -- Strang step is exact whatever h, if A's halves cover [t, t + h/2] and [t + h/2, t + h] and B
  -- covers [t, t + h]
  local s = sys_of { dim = 2,
    a = function(t, h, y) y[0] = y[0] + math.sin(t + h) - math.sin(t) end,
    b = function(t, h, y) y[1] = y[1] + ((t + h) ^ 3 - t ^ 3) / 3 end,
    rhs = function(t, _, f) f[0], f[1] = math.cos(t), t * t end }

  it("is exact when the flows depend on t alone, and counts two evaluations a step", function()
    for _, c in ipairs { { 0.3, 0.5 }, { 1.1, 0.25 }, { 2, -0.4 } } do
      local t, h = c[1], c[2]
      local y, r = kz.vec(2, { 0.2, -0.1 }), kz.report()
      kz.call("kz_run", kz.stepper("strang"), s, t, h, 3, y, r)
      close(y[0], 0.2 + math.sin(t + 3 * h) - math.sin(t), 1e-14, "y1")
      close(y[1], -0.1 + ((t + 3 * h) ^ 3 - t ^ 3) / 3, 1e-14, "y2")
      assert.are.equal(6, tonumber(r.force_evals))
      assert.are.equal(3, tonumber(r.micro_steps))
    end
  end)

  it("hands f(t + h, y_new) on when asked", function()
    local T = kz.stepper("strang")
    local y, fo, work = kz.vec(2, { 0.2, -0.1 }), kz.vec(2), kz.vec(tonumber(C.kz_step_work(T, 2)))
    assert.are.equal(0, T.apply(s, 0.3, 0.5, y, nil, fo, work, kz.report()))
    close(fo[0], math.cos(0.8), 1e-15, "f1")
    close(fo[1], 0.64, 1e-15, "f2")
  end)

  it("is of order 2 on a forced, coupled problem (flows that do not commute)", function()
    -- A: the forced rotation-free drift y1' = y2 + sin t (exact), B: y2' = -y1 (exact)
    local f = sys_of { dim = 2,
      a = function(t, h, y) y[0] = y[0] + h * y[1] + math.cos(t) - math.cos(t + h) end,
      b = function(_, h, y) y[1] = y[1] - h * y[0] end }
    local function run(n)
      local y = kz.vec(2, { 1, 0 })
      kz.call("kz_run", kz.stepper("strang"), f, 0.5, 2 / n, n, y, kz.report())
      return y[0], y[1]
    end
    local ra, rb = run(4096)
    local e1 = math.abs(run(32) - ra) + math.abs(select(2, run(32)) - rb)
    local e2 = math.abs(run(64) - ra) + math.abs(select(2, run(64)) - rb)
    local p = math.log(e1 / e2) / math.log(2)
    assert.is_true(p > 1.9 and p < 2.1, "order " .. p)
  end)
end)

describe("Fredbo's ve scheme (35) on forces that depend on t #asan", function()
  -- one step of (35) written out: u = y[0 .. m), w = y[m .. d)
  local function ve_step(F, G, m, d, t, h, y)
    local u, f0 = {}, F(t, y)
    for i = 1, m do u[i] = y[i] + 0.5 * h * f0[i] end
    local mid = {}
    for i = 1, m do mid[i] = u[i] end
    for i = m + 1, d do mid[i] = y[i] end
    local g = G(t + 0.5 * h, mid)
    local new = {}
    for i = 1, m do new[i] = u[i] end
    for i = m + 1, d do new[i] = y[i] + h * g[i] end
    local f1 = F(t + h, new)
    for i = 1, m do new[i] = new[i] + 0.5 * h * f1[i] end
    return new
  end

  -- a first-order system of dimension d: u' = f(t, u, w), w' = g(t, u, w), one function for both
  local function field(d)
    return function(t, y)
      local r = {}
      for i = 1, d do
        local j = i % d + 1
        r[i] = math.cos(t + i) * y[j] - 0.3 * i * y[i] + 0.1 * t
      end
      return r
    end
  end

  for _, d in ipairs { 2, 3, 4, 5 } do
    it(string.format("follows (35) on a first-order system of dimension %d (partition %d + %d)", d, math.floor(d / 2), d - math.floor(d / 2)), function()
      local F = field(d)
      local s = sys_of { dim = d, rhs = function(t, y, f)
        local x = {}
        for i = 1, d do x[i] = y[i - 1] end
        local r = F(t, x)
        for i = 1, d do f[i - 1] = r[i] end
      end }
      local y0 = {}
      for i = 1, d do y0[i] = 0.3 * i - 0.5 end
      local t, h, n = 0.7, 0.05, 4
      local want = y0
      for k = 0, n - 1 do want = ve_step(F, F, math.floor(d / 2), d, t + k * h, h, want) end
      local y, r = kz.vec(d, y0), kz.report()
      kz.call("kz_run", kz.stepper("ve"), s, t, h, n, y, r)
      for i = 1, d do close(y[i - 1], want[i], 1e-15, "component " .. i) end
      assert.are.equal(3 * n, tonumber(r.force_evals))
    end)
  end

  it("splits (q, v) at nq and is leapfrog there, with a force that depends on t", function()
    local acc = function(t, q) return { -math.sin(q[1]) + 0.5 * math.cos(3 * t) * q[2], -q[2] + 0.2 * math.sin(t) * q[1] } end
    local s = sys_of { dim = 4, nq = 2, accel = function(t, q, a)
      local r = acc(t, { q[0], q[1] })
      a[0], a[1] = r[1], r[2]
    end }
    local F = function(_, y) return { y[3], y[4] } end
    local G = function(t, y)
      local a = acc(t, { y[1], y[2] })
      return { 0, 0, a[1], a[2] }
    end
    local y0, t, h = { 0.4, -0.2, 0.1, 0.3 }, 0.2, 0.03
    local want = y0
    for k = 0, 4 do want = ve_step(F, G, 2, 4, t + k * h, h, want) end
    local y = kz.vec(4, y0)
    kz.call("kz_run", kz.stepper("ve"), s, t, h, 5, y, kz.report())
    for i = 1, 4 do close(y[i - 1], want[i], 1e-15, "component " .. i) end
    local y2 = kz.vec(4, y0)
    kz.call("kz_run", kz.stepper("leapfrog"), s, t, h, 5, y2, kz.report())
    for i = 0, 3 do close(y[i], y2[i], 1e-14, "leapfrog component " .. i + 1) end
  end)

  it("hands f(t + h, y_new) on, and an f_in of f(t, y) gives the same step", function()
    local d = 3
    local F = field(d)
    local s = sys_of { dim = d, rhs = function(t, y, f)
      local r = F(t, { y[0], y[1], y[2] })
      for i = 1, d do f[i - 1] = r[i] end
    end }
    local T = kz.stepper("ve")
    local work = kz.vec(tonumber(C.kz_step_work(T, d)))
    local y, fo, r = kz.vec(d, { 0.1, 0.2, 0.3 }), kz.vec(d), kz.report()
    assert.are.equal(0, T.apply(s, 0.4, 0.1, y, nil, fo, work, r))
    assert.are.equal(4, tonumber(r.force_evals))
    local fe = F(0.5, { y[0], y[1], y[2] })
    for i = 1, d do close(fo[i - 1], fe[i], 1e-15, "f_out " .. i) end
    local f0 = F(0.4, { 0.1, 0.2, 0.3 })
    local y2, r2 = kz.vec(d, { 0.1, 0.2, 0.3 }), kz.report()
    assert.are.equal(0, T.apply(s, 0.4, 0.1, y2, kz.vec(d, f0), nil, work, r2))
    assert.are.equal(2, tonumber(r2.force_evals))
    for i = 0, d - 1 do assert.are.equal(y[i], y2[i]) end
  end)
end)

describe("Strang splitting when a flow fails, or f is asked of flows alone #asan", function()
  local name = ffi.new("char[5]", "kick")
  -- flows that fail (flow_a on its second call, the step's last half: it may name itself in the
  -- report, or flow_b), after changing the state
  local function failing(which, named)
    local s = ffi.new("kz_sys")
    s.dim = 2
    local calls = 0
    local function fa(_, t, h, y, r)
      y[0] = y[0] + h * y[1] + math.cos(t) - math.cos(t + h)
      calls = calls + 1
      if which == "a" and calls == 2 then
        if named and r ~= nil then r.param = name end
        return C.KZ_EDOMAIN
      end
      return 0
    end
    local function fb(_, _, h, y) y[1] = y[1] - h * y[0]; return which == "b" and C.KZ_EDOMAIN or 0 end
    keep[#keep + 1] = ffi.cast("kz_flow_fn", fa)
    s.flow_a = keep[#keep]
    keep[#keep + 1] = ffi.cast("kz_flow_fn", fb)
    s.flow_b = keep[#keep]
    return s
  end

  it("leaves the state as it was (bit for bit), names the flow and the step's start", function()
    local T = kz.stepper("strang")
    local work = kz.vec(tonumber(C.kz_step_work(T, 2)))
    for _, c in ipairs { { "b", false, "flow" }, { "a", false, "flow" }, { "a", true, "kick" } } do
      local s = failing(c[1], c[2])
      local y, r = kz.vec(2, { 0.123456789, -0.987654321 }), kz.report()
      assert.are.equal(C.KZ_EDOMAIN, T.apply(s, 0.4, 0.1, y, nil, nil, work, r))
      assert.are.equal(0.123456789, y[0])
      assert.are.equal(-0.987654321, y[1])
      assert.are.equal(c[3], ffi.string(r.param))
      assert.are.equal(-1, tonumber(r.fail_step))
      assert.are.equal(0.4, r.fail_time)
      assert.are.equal(0, tonumber(r.micro_steps))
    end
  end)

  it("refuses f(t + h, y_new) of a system that has only its flows, naming rhs at t + h", function()
    local T = kz.stepper("strang")
    local work = kz.vec(tonumber(C.kz_step_work(T, 2)))
    local s = failing("none")
    local y, r = kz.vec(2, { 0.5, 0.25 }), kz.report()
    assert.are.equal(C.KZ_EMODEL, T.apply(s, 0.4, 0.1, y, nil, kz.vec(2), work, r))
    assert.are.equal("rhs", ffi.string(r.param))
    assert.are.equal(-1, tonumber(r.fail_step))
    assert.is_true(math.abs(r.fail_time - 0.5) < 1e-15)
    assert.are.equal(0.5, y[0])
    assert.are.equal(0.25, y[1])
    -- without f_out the same step succeeds and counts
    assert.are.equal(0, T.apply(s, 0.4, 0.1, y, nil, nil, work, r))
    assert.are.equal(1, tonumber(r.micro_steps))
  end)
end)
