-- Steppers and kernels: orders of convergence, kernel mass and moments, bad input.
local kz = require "kapitza"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C

describe("kernels #asan", function()
  it("have unit mass, vanishing odd moments, and the exponential constant of (2.13)", function()
    for _, kind in ipairs { C.KZ_KERNEL_UNIFORM, C.KZ_KERNEL_EXPONENTIAL, C.KZ_KERNEL_COSINE } do
      assert.is_near(1, C.kz_kernel_moment(kind, 0), 1e-12)
      assert.is_near(0, C.kz_kernel_moment(kind, 1), 1e-14)
      assert.is_near(0, C.kz_kernel_moment(kind, 3), 1e-14)
      assert.is_true(C.kz_kernel_moment(kind, 2) > 0)
    end
    -- C = 1 / int_{-1}^{1} exp(5/(x^2-1)) dx, checked against an independent Simpson rule in Lua
    local m, s = 20000, 0
    for j = 0, m do
      local x = -1 + 2 * j / m
      local w = (j == 0 or j == m) and 1 or (j % 2 == 1 and 4 or 2)
      if math.abs(x) < 1 then s = s + w * math.exp(5 / (x * x - 1)) end
    end
    s = s * (2 / m) / 3
    assert.is_near(1 / s, C.kz_kernel_constant(C.KZ_KERNEL_EXPONENTIAL), 1e-9 / s)
    assert.is_near(1 / 3, C.kz_kernel_moment(C.KZ_KERNEL_UNIFORM, 2), 1e-15)
    assert.are.equal(0, C.kz_kernel_value(C.KZ_KERNEL_EXPONENTIAL, 1))
    assert.are.equal(0, C.kz_kernel_value(C.KZ_KERNEL_EXPONENTIAL, -1.5))
  end)

  it("discrete weights sum to one, are symmetric, and weigh half-window end points by 1/2", function()
    local r = kz.report()
    for _, half in ipairs { 0, 1 } do
      local n = 10
      local cnt = half == 1 and n + 1 or 2 * n + 1
      local w = kz.vec(cnt)
      kz.call("kz_kernel_weights", C.KZ_KERNEL_UNIFORM, n, half, w, r)
      local s = 0
      for i = 0, cnt - 1 do s = s + w[i] end
      assert.is_near(1, s, 1e-15)
      if half == 1 then
        assert.is_near(w[1] / 2, w[0], 1e-16)
        assert.is_near(w[1] / 2, w[n], 1e-16)
      else
        for i = 0, n do assert.are.equal(w[i], w[cnt - 1 - i]) end
        assert.are.equal(w[n], w[n + 1]) -- centre counted once, with full weight
      end
    end
  end)

  it("reject bad kinds and sizes", function()
    local r = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(7, 10, 0, kz.vec(21), r))
    assert.are.equal("kernel", ffi.string(r.param))
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(0, 0, 0, kz.vec(1), r))
    assert.are.equal(C.KZ_ENULL, C.kz_kernel_weights(0, 5, 0, nil, r))
    assert.is_true(C.kz_kernel_value(9, 0.1) ~= C.kz_kernel_value(9, 0.1)) -- NaN
  end)
end)

-- The harmonic oscillator q'' = -q (via the averaged pendulum is not linear; use the pendulum
-- at small amplitude? No: test the orders on the averaged pendulum against RK4 with a tiny step).
describe("steppers #asan", function()
  local hmm = require "hmm"
  local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1 }

  it("velocity Verlet is of order 2 and RK4 of order 4 (fitted slopes)", function()
    local exact = hmm.reference(pend.avg, 1, 1, 0.5, 0, 1 / 40960)[2]
    local hs, ev, er = {}, {}, {}
    local s1, ad = ffi.new("kz_sys1"), ffi.new("kz_sys2_as_sys1")
    assert.are.equal(0, C.kz_sys1_from_sys2(s1, ad, pend.avg))
    for k = 6, 10 do
      local n = 2 ^ k
      local q, v, r = kz.vec(1, { 0.5 }), kz.vec(1, { 0 }), kz.report()
      kz.call("kz_verlet_run", pend.avg, 0, 1 / n, n, q, v, r)
      assert.are.equal(n, tonumber(r.micro_steps))
      assert.are.equal(n + 1, tonumber(r.force_evals))
      local y = kz.vec(2, { 0.5, 0 })
      local r2 = kz.report()
      kz.call("kz_rk4_run", s1, 0, 1 / n, n, y, r2)
      assert.are.equal(4 * n, tonumber(r2.force_evals))
      hs[#hs + 1], ev[#ev + 1], er[#er + 1] = 1 / n, math.abs(q[0] - exact), math.abs(y[0] - exact)
    end
    assert.is_near(2, U.slope(hs, ev), 0.1)
    assert.is_near(4, U.slope(hs, er), 0.15)
  end)

  it("Verlet is time-reversible (forward to t = 0.5, then back with -h)", function()
    local vib = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 200 }
    local q, v, r = kz.vec(1, { 0.5 }), kz.vec(1, { 0.3 }), kz.report()
    kz.call("kz_verlet_run", vib.sys, 0, 1e-4, 5000, q, v, r)
    assert.is_true(math.abs(q[0] - 0.5) > 1e-2)
    kz.call("kz_verlet_run", vib.sys, 0.5, -1e-4, 5000, q, v, r)
    assert.is_near(0.5, q[0], 1e-11)
    assert.is_near(0.3, v[0], 1e-9)
  end)

  it("reject bad input with the parameter named and the state untouched", function()
    local q, v, r = kz.vec(1, { 0.5 }), kz.vec(1, { 0 }), kz.report()
    assert.are.equal(C.KZ_ENONFINITE, C.kz_verlet_run(pend.avg, 0, 0 / 0, 10, q, v, r))
    assert.are.equal("h", ffi.string(r.param))
    assert.are.equal(C.KZ_EDOMAIN, C.kz_verlet_run(pend.avg, 0, 0.1, -1, q, v, r))
    assert.are.equal(C.KZ_ENULL, C.kz_verlet_run(nil, 0, 0.1, 1, q, v, r))
    local bad = kz.vec(1, { 1 / 0 })
    assert.are.equal(C.KZ_ENONFINITE, C.kz_verlet_run(pend.avg, 0, 0.1, 1, bad, v, r))
    assert.are.equal("q", ffi.string(r.param))
    assert.are.equal(0.5, q[0])
    -- a solution that blows up is reported, and the state restored
    local q2, v2 = kz.vec(1, { 0.5 }), kz.vec(1, { 1e307 })
    local st = C.kz_verlet_run(pend.avg, 0, 10, 1000, q2, v2, r)
    assert.are.equal(C.KZ_EDIVERGED, st)
    assert.are.equal(0.5, q2[0])
    assert.are.equal(1e307, v2[0])
    assert.is_true(r.fail_time > 0)
  end)

  it("trajectories record every sub-th step and equal step-by-step runs", function()
    local s1, keep = hmm.as_sys1(pend.avg)
    local out, y, r = kz.vec(2 * 5), kz.vec(2, { 0.5, 0 }), kz.report()
    kz.call("kz_rk4_trajectory", s1, 0, 0.01, 3, 4, y, out, r)
    assert.are.equal(12, tonumber(r.micro_steps))
    local z = kz.vec(2, { 0.5, 0 })
    for j = 1, 4 do
      kz.call("kz_rk4_run", s1, 0, 0.01, 3, z, kz.report())
      assert.are.equal(z[0], out[2 * j])
      assert.are.equal(z[1], out[2 * j + 1])
    end
    assert.are.equal(z[0], y[0])
    local qo, vo, q, v = kz.vec(5), kz.vec(5), kz.vec(1, { 0.5 }), kz.vec(1, { 0 })
    kz.call("kz_verlet_trajectory", pend.avg, 0, 0.01, 2, 4, q, v, qo, vo, kz.report())
    local q2, v2 = kz.vec(1, { 0.5 }), kz.vec(1, { 0 })
    kz.call("kz_verlet_run", pend.avg, 0, 0.01, 8, q2, v2, kz.report())
    assert.are.equal(q2[0], qo[4])
    assert.are.equal(v2[0], vo[4])
    assert.are.equal(0.5, qo[0])
    assert.truthy(keep)
  end)

  it("refuse a bad dimension, sub-step count or NULL instead of crashing", function()
    local r = kz.report()
    local bad2 = ffi.new("kz_sys2", { -1, pend.avg.accel, pend.avg.par })
    local q, v, a, w = kz.vec(1, { 0.5 }), kz.vec(1), kz.vec(1), kz.vec(2)
    assert.are.equal(C.KZ_EDOMAIN, C.kz_verlet_step(bad2, 0, 0.1, q, v, a, w, r))
    assert.are.equal("dim", ffi.string(r.param))
    local s1, keep = hmm.as_sys1(pend.avg)
    local bad1 = ffi.new("kz_sys1", { -3, s1.rhs, s1.par })
    assert.are.equal(C.KZ_EDOMAIN, C.kz_rk4_step(bad1, 0, 0.1, kz.vec(2), kz.vec(10), r))
    assert.are.equal(C.KZ_EDOMAIN, C.kz_rk4_trajectory(s1, 0, 0.1, 0, 3, kz.vec(2), kz.vec(8), r))
    assert.are.equal("sub", ffi.string(r.param))
    assert.are.equal(C.KZ_ENULL, C.kz_rk4_trajectory(s1, 0, 0.1, 1, 3, kz.vec(2), nil, r))
    assert.are.equal(C.KZ_ENULL, C.kz_verlet_trajectory(pend.avg, 0, 0.1, 1, 3, q, v, nil, nil, r))
    local F = C.kz_pendulum_averaged_force(nil, 0.5)
    assert.is_true(F ~= F)
    assert.truthy(keep)
  end)

  it("strerror covers every status and unknown ones", function()
    for s = 0, C.KZ_ESTATUS_END - 1 do assert.is_true(#ffi.string(C.kz_strerror(s)) > 5) end
    assert.are.equal("unknown kapitza status", ffi.string(C.kz_strerror(99)))
    assert.are.equal("unknown kapitza status", ffi.string(C.kz_strerror(-1)))
  end)
end)
