-- The stepper registry (lib/steppers/kz_step*.c): every registered one-step method has the order,
-- reversibility and evaluation count it declares; f_in/f_out chaining is exact; a failed step
-- leaves the state alone; the drivers kz_run/kz_trajectory agree with single steps; bad input is
-- refused with the parameter named.
local kz = require "kapitza"
local models = require "kapitza.models"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C

local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 200 }
local vdp = models.vdp(0.3)
local top = models.top {}

-- The test problem for each stepper: the averaged pendulum (second-order form, no rhs) for all
-- but Strang, which needs sub-flows (van der Pol and its splitting), and Fredbo's 've', which is
-- the leapfrog on separable second-order systems and shows its own order only on a partitioned,
-- non-separable one (a slow spinning top, Pi3 = Pi3^/4: (35) moves Gamma by an explicit Euler
-- step of its rotation, so a fast top needs Omega3^2 h << 1 before the first order shows).
local function problem(name)
  if name == "strang" then return vdp.sys, { 0.5, 0.5 }, 2 * math.pi end
  if name == "ve" then return top.sys, top.x0(0.25, 0.05), 1 end
  return pend.avg, { 0.5, 0 }, 1
end

local function final(T, s, y0, h, n, t0)
  local y, r = kz.vec(s.dim, y0), kz.report()
  kz.call("kz_run", T, s, t0 or 0, h, n, y, r)
  local out = {}
  for i = 1, s.dim do out[i] = y[i - 1] end
  return out, r
end

local function dist(a, b)
  local s = 0
  for i = 1, #a do s = s + (a[i] - b[i]) * (a[i] - b[i]) end
  return math.sqrt(s)
end

describe("the stepper registry #asan", function()
  it("lists every method once, finds them by name, and exports the same pointers", function()
    local want = { euler = 1, symeuler = 1, verlet = 2, leapfrog = 2, rk4 = 4, strang = 2, dp5 = 5,
                   shake = 2, rattle = 2, herk3 = 3, ve = 1 }
    local seen = 0
    for i = 0, C.kz_step_count() - 1 do
      local T = C.kz_step_at(i)
      local name = ffi.string(T.name)
      assert.are.equal(want[name], T.order, name)
      assert.are.equal(T, C.kz_step_find(name))
      assert.is_true(#ffi.string(T.description) > 10)
      seen = seen + 1
    end
    assert.are.equal(11, seen)
    assert.are.equal(C.kz_step_rk4, C.kz_step_find("rk4"))
    assert.are.equal(C.kz_step_verlet, kz.stepper("verlet"))
    assert.is_true(C.kz_step_find("nope") == nil)
    assert.is_true(C.kz_step_at(99) == nil and C.kz_step_at(-1) == nil)
    assert.is_false(pcall(kz.stepper, "nope"))
  end)

  for _, name in ipairs(kz.steppers.names) do
    local T = kz.stepper(name)
    -- the constrained steppers need a constrained system: the same checks in tests/dpend_spec.lua
    if bit.band(T.needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0 then goto continue end
    local s, y0, tend = problem(name)

    it(name .. ": converges with its declared order (fitted slope)", function()
      local exact = final(kz.stepper("rk4"), s, y0, tend / 65536, 65536)
      -- steps from the asymptotic range down to well above round-off (the averaged pendulum's
      -- frequency is about 14 s^-1)
      local base = T.order == 4 and 128 or (T.order > 4 and 64 or 32)
      local hs, es = {}, {}
      for k = 0, 3 do
        local n = base * 2 ^ k
        hs[#hs + 1], es[#es + 1] = tend / n, dist(final(T, s, y0, tend / n, n), exact)
      end
      local slope = U.slope(hs, es)
      assert.is_near(T.order, slope, 0.2, string.format("%s: slope %.3f", name, slope))
    end)

    it(name .. ": is reversible exactly when it says so", function()
      local n, h = 25, tend / 50
      local mid = final(T, s, y0, h, n)
      local back = final(T, s, mid, -h, n, n * h)
      local e = dist(back, y0)
      if T.reversible == 1 then
        assert.is_true(e < 1e-12, string.format("%s: back to start within %.2e", name, e))
      else
        assert.is_true(e > 1e-9, string.format("%s: not symmetric, yet back within %.2e", name, e))
      end
    end)

    it(name .. ": a run of n steps costs n times its evaluations per step (+1 to start a FSAL chain)", function()
      for _, n in ipairs { 1, 7 } do
        local _, r = final(T, s, y0, 0.01, n)
        assert.are.equal(n, tonumber(r.micro_steps))
        assert.are.equal(n * T.evals + T.fsal, tonumber(r.force_evals), name)
      end
    end)

    it(name .. ": f_out is f(t + h, y_new), and f_in = f(t, y) gives the same step", function()
      local d = s.dim
      local work = kz.vec(tonumber(C.kz_step_work(T, d)))
      local y, f0, fo, r = kz.vec(d, y0), kz.vec(d), kz.vec(d), kz.report()
      kz.call("kz_sys_eval", s, 0.3, y, f0, r)
      local y2 = kz.vec(d, y0)
      assert.are.equal(0, T.apply(s, 0.3, 0.05, y, nil, fo, work, r))
      assert.are.equal(0, T.apply(s, 0.3, 0.05, y2, f0, nil, work, r))
      local fe = kz.vec(d)
      kz.call("kz_sys_eval", s, 0.35, y, fe, r)
      for i = 0, d - 1 do
        assert.are.equal(fe[i], fo[i])
        if name ~= "strang" and name ~= "leapfrog" then assert.are.equal(y[i], y2[i]) end -- they ignore f_in
      end
    end)

    it(name .. ": a failed evaluation leaves the state as it was and names the time", function()
      -- the same system, failing for t > 0.12 (a Lua callback wrapping the C model)
      local fail, cb = ffi.new("kz_sys", s), nil
      if name == "strang" then
        cb = ffi.cast("kz_flow_fn", function(par, t, h, y, r)
          if t > 0.12 then return C.KZ_EDOMAIN end
          return s.flow_a(par, t, h, y, r)
        end)
        fail.flow_a = cb
      elseif s.rhs ~= nil then
        cb = ffi.cast("kz_rhs_fn", function(par, t, y, f)
          if t > 0.12 then return C.KZ_EDOMAIN end
          return s.rhs(par, t, y, f)
        end)
        fail.rhs = cb
      else
        cb = ffi.cast("kz_accel_fn", function(par, t, q, a)
          if t > 0.12 then return C.KZ_EDOMAIN end
          return s.accel(par, t, q, a)
        end)
        fail.accel = cb
      end
      local y, r = kz.vec(s.dim, y0), kz.report()
      local st = C.kz_run(T, fail, 0, 0.05, 5, y, r)
      assert.are.equal(C.KZ_EDOMAIN, st)
      for i = 1, s.dim do assert.are.equal(y0[i], y[i - 1]) end
      assert.is_true(r.fail_time >= 0.1 - 1e-12 and r.fail_time <= 0.15 + 1e-12, tostring(r.fail_time))
      assert.is_true(tonumber(r.fail_step) >= 2, tostring(r.fail_step))
      cb:free()
    end)
    ::continue::
  end
end)

describe("the drivers #asan", function()
  local RK4, VERLET = kz.stepper("rk4"), kz.stepper("verlet")

  it("kz_trajectory records every sub-th step and equals consecutive runs, bit for bit", function()
    for _, T in ipairs { RK4, VERLET } do
      local out, y, r = kz.vec(2 * 5), kz.vec(2, { 0.5, 0 }), kz.report()
      kz.call("kz_trajectory", T, pend.sys, 0, 0.01, 3, 4, y, out, r)
      assert.are.equal(12, tonumber(r.micro_steps))
      local z = kz.vec(2, { 0.5, 0 })
      kz.call("kz_run", T, pend.sys, 0, 0.01, 12, z, kz.report())
      assert.are.equal(z[0], out[8])
      assert.are.equal(z[1], out[9])
      assert.are.equal(z[0], y[0])
      assert.are.equal(0.5, out[0])
    end
  end)

  it("Verlet on the time-dependent pendulum runs back to its start (reversible in t)", function()
    local y, r = kz.vec(2, { 0.5, 0.3 }), kz.report()
    kz.call("kz_run", VERLET, pend.sys, 0, 1e-4, 5000, y, r)
    assert.is_true(math.abs(y[0] - 0.5) > 1e-2)
    kz.call("kz_run", VERLET, pend.sys, 0.5, -1e-4, 5000, y, r)
    assert.is_near(0.5, y[0], 1e-11)
    assert.is_near(0.3, y[1], 1e-9)
  end)

  it("a solution that blows up is KZ_EDIVERGED, the state restored, the time named", function()
    local y, r = kz.vec(2, { 0.5, 1e307 }), kz.report()
    assert.are.equal(C.KZ_EDIVERGED, C.kz_run(VERLET, pend.avg, 0, 10, 1000, y, r))
    assert.are.equal(0.5, y[0])
    assert.are.equal(1e307, y[1])
    assert.is_true(r.fail_time > 0)
    local z = kz.vec(2, { 0.5, 1e308 })
    assert.are.equal(C.KZ_EDIVERGED, C.kz_step_apply(RK4, pend.avg, 0, 1e10, z, r))
    assert.are.equal(1e308, z[1])
  end)

  it("refuse bad input with the parameter named and the state untouched", function()
    local r = kz.report()
    local y = kz.vec(2, { 0.5, 0 })
    local function bad(status, param, st)
      assert.are.equal(status, st, param)
      assert.are.equal(param, ffi.string(r.param))
      assert.are.equal(0.5, y[0])
    end
    bad(C.KZ_ENONFINITE, "h", C.kz_run(RK4, pend.avg, 0, 0 / 0, 10, y, r))
    bad(C.KZ_ENONFINITE, "t0", C.kz_run(RK4, pend.avg, 1 / 0, 0.1, 10, y, r))
    bad(C.KZ_EDOMAIN, "n", C.kz_run(RK4, pend.avg, 0, 0.1, -1, y, r))
    bad(C.KZ_ENULL, "system", C.kz_run(RK4, nil, 0, 0.1, 1, y, r))
    bad(C.KZ_ENULL, "stepper", C.kz_run(nil, pend.avg, 0, 0.1, 1, y, r))
    bad(C.KZ_EDOMAIN, "sub", C.kz_trajectory(RK4, pend.avg, 0, 0.1, 0, 3, y, kz.vec(8), r))
    bad(C.KZ_ENULL, "out", C.kz_trajectory(RK4, pend.avg, 0, 0.1, 1, 3, y, nil, r))
    bad(C.KZ_ENONFINITE, "y", C.kz_run(RK4, pend.avg, 0, 0.1, 1, kz.vec(2, { 0 / 0, 0 }), r))
    local d3 = ffi.new("kz_sys", { dim = -3, accel = pend.avg.accel, nq = 1 })
    bad(C.KZ_EDOMAIN, "dim", C.kz_run(RK4, d3, 0, 0.1, 1, y, r))
    local odd = ffi.new("kz_sys", { dim = 3, accel = pend.avg.accel, nq = 1 })
    bad(C.KZ_EDOMAIN, "nq", C.kz_run(VERLET, odd, 0, 0.1, 1, y, r))
    -- what a stepper needs and the system lacks
    bad(C.KZ_EMODEL, "stepper", C.kz_run(kz.stepper("strang"), pend.avg, 0, 0.1, 1, y, r))
    local rhs_only = ffi.new("kz_sys", { dim = 2, rhs = vdp.sys.rhs, par = vdp.sys.par })
    bad(C.KZ_EMODEL, "stepper", C.kz_run(VERLET, rhs_only, 0, 0.1, 1, y, r))
    bad(C.KZ_EMODEL, "rhs", C.kz_sys_eval(ffi.new("kz_sys", { dim = 2 }), 0, y, kz.vec(2), r))
    assert.are.equal(0, tonumber(C.kz_step_work(nil, 3)))
    assert.are.equal(0, tonumber(C.kz_step_work(RK4, 0)))
  end)
end)
