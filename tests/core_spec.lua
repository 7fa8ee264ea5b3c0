-- Kernels (mass, moments, constants, discrete weights) and status codes; the steppers are in
-- tests/steppers_spec.lua.
local kz = require "kapitza"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C

describe("kernels #asan", function()
  it("have unit mass, vanishing odd moments, and the exponential constant of (2.13)", function()
    for _, kind in ipairs { C.KZ_KERNEL_UNIFORM, C.KZ_KERNEL_EXPONENTIAL, C.KZ_KERNEL_COSINE, C.KZ_KERNEL_EXP2 } do
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
      kz.call("kz_kernel_weights", C.KZ_KERNEL_UNIFORM, n, half, 0, w, r)
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
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(7, 10, 0, 0, kz.vec(21), r))
    assert.are.equal("kernel", ffi.string(r.param))
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(0, 0, 0, 0, kz.vec(1), r))
    assert.are.equal(C.KZ_ENULL, C.kz_kernel_weights(0, 5, 0, 0, nil, r))
    assert.is_true(C.kz_kernel_value(9, 0.1) ~= C.kz_kernel_value(9, 0.1)) -- NaN
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(1, 5, 0, -1, kz.vec(11), r))
    assert.are.equal("kernel_constant", ffi.string(r.param))
    assert.are.equal(C.KZ_ENONFINITE, C.kz_kernel_weights(1, 5, 0, 0 / 0, kz.vec(11), r))
  end)

  it("K^exp(2) has Fredbo's constant C2 = 3.073919 and peak 0.8807; K^exp(1) peaks at 1.4222", function()
    -- notes seed-004 Sec. 2.2 and K-CONST: C1 = 211.0754, C2 = 3.073919
    assert.is_near(3.073919, C.kz_kernel_constant(C.KZ_KERNEL_EXP2), 1e-5)
    assert.is_near(211.0754, C.kz_kernel_constant(C.KZ_KERNEL_EXPONENTIAL), 1e-3)
    assert.is_near(0.8807, C.kz_kernel_value(C.KZ_KERNEL_EXP2, 0), 1e-4)
    assert.is_near(1.4222, C.kz_kernel_value(C.KZ_KERNEL_EXPONENTIAL, 0), 1e-4)
    -- Sharp, Tsai & Engquist (3.5): K = (422.11/eta) exp(5/(4u^2 - 1)) in u = t/eta is the same
    -- kernel with x = 2u; the exact normaliser is 2 C1 = 422.1508 (notes A2)
    assert.is_near(422.1508, 2 * C.kz_kernel_constant(C.KZ_KERNEL_EXPONENTIAL), 1e-3)
  end)

  it("with a printed constant, weights are the unnormalised trapezoidal rule: 422.11 sums to 0.999903", function()
    local r = kz.report()
    for _, n in ipairs { 25, 1250 } do
      local w = kz.vec(2 * n + 1)
      kz.call("kz_kernel_weights", C.KZ_KERNEL_EXPONENTIAL, n, 0, 422.11 / 2, w, r)
      local s = 0
      for i = 0, 2 * n do s = s + w[i] end
      -- the printed constant is 1 - 9.7e-5 of the exact one (notes A2); the trapezoidal sum is
      -- already exact to 1e-12 at n = 25 (the shape is flat to all orders at the ends)
      assert.is_near(422.11 / 422.150776, s, 2e-7)
    end
    -- half windows: the weights double (they stand for 2 int_0^{eta/2})
    local wh, wf = kz.vec(26), kz.vec(51)
    kz.call("kz_kernel_weights", C.KZ_KERNEL_EXP2, 25, 1, 3.07, wh, r)
    kz.call("kz_kernel_weights", C.KZ_KERNEL_EXP2, 25, 0, 3.07, wf, r)
    assert.is_near(2 * wf[30], wh[5], 1e-15)
    assert.is_near(wf[25], wh[0], 1e-15) -- the centre: 2 x (1/2, the end point of [0, eta/2])
  end)
end)

describe("status codes #asan", function()
  it("strerror covers every status and unknown ones", function()
    for s = 0, C.KZ_ESTATUS_END - 1 do assert.is_true(#ffi.string(C.kz_strerror(s)) > 5) end
    assert.are.equal("unknown kapitza status", ffi.string(C.kz_strerror(99)))
    assert.are.equal("unknown kapitza status", ffi.string(C.kz_strerror(-1)))
  end)
end)

-- Bad arguments at the C API (issue 17 item 9): every one is a status naming the parameter,
-- before anything is computed or written; on the sanitizer build too (a read or write outside a
-- buffer would abort there).
describe("argument checks #asan", function()
  local models = require "kapitza.models"
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e3 }
  local rk4 = kz.steppers.rk4
  local function param(r) return r.param ~= nil and ffi.string(r.param) or nil end

  it("kz_sys_eval names the NULL buffer: 'y' for the state, 'f' for the output", function()
    local r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_sys_eval(pend.sys, 0, kz.vec(2), nil, r))
    assert.are.equal("f", param(r))
    r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_sys_eval(pend.sys, 0, nil, kz.vec(2), r))
    assert.are.equal("y", param(r))
    r = kz.report()
    assert.are.equal(C.KZ_OK, C.kz_sys_eval(pend.sys, 0, kz.vec(2, { 0.1, 0 }), kz.vec(2), r))
  end)

  it("a zero, NaN or infinite step h is refused by kz_run, kz_step_apply, kz_trajectory, kz_micro_run; y unchanged", function()
    local mi = ffi.new("kz_micro")
    mi.type, mi.sys = rk4, pend.sys
    local calls = {
      run = function(h, y, r) return C.kz_run(rk4, pend.sys, 0, h, 10, y, r) end,
      apply = function(h, y, r) return C.kz_step_apply(rk4, pend.sys, 0, h, y, r) end,
      trajectory = function(h, y, r) return C.kz_trajectory(rk4, pend.sys, 0, h, 2, 3, y, kz.vec(8), r) end,
      micro_run = function(h, y, r) return C.kz_micro_run(mi, 0, h, 10, y, r) end,
    }
    for name, call in pairs(calls) do
      for _, c in ipairs { { 0, C.KZ_EDOMAIN }, { -0.0, C.KZ_EDOMAIN }, { 0 / 0, C.KZ_ENONFINITE },
                           { math.huge, C.KZ_ENONFINITE }, { -math.huge, C.KZ_ENONFINITE } } do
        local y, r = kz.vec(2, { 0.1, 0.2 }), kz.report()
        assert.are.equal(c[2], call(c[1], y, r), name .. " h=" .. tostring(c[1]))
        assert.are.equal("h", param(r), name)
        assert.are.same({ 0.1, 0.2 }, { y[0], y[1] }, name)
        assert.are.equal(0, tonumber(r.force_evals), name)
      end
      local y, r = kz.vec(2, { 0.1, 0 }), kz.report()
      assert.are.equal(C.KZ_OK, call(-1e-3, y, r), name .. " backward")
      assert.is_true(y[0] ~= 0.1, name)
    end
  end)

  it("kz_trajectory refuses nout*sub steps beyond a long long, and kz_kernel_weights 2n+1 weights, before writing", function()
    local y, r = kz.vec(2, { 0.1, 0 }), kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_trajectory(rk4, pend.sys, 0, 1e-3, 2^62, 4, y, kz.vec(10), r))
    assert.are.equal("nout", param(r))
    assert.are.equal(0, tonumber(r.force_evals))
    r = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_kernel_weights(C.KZ_KERNEL_UNIFORM, 2^62, 0, 0, kz.vec(3), r))
    assert.are.equal("n", param(r))
  end)

  it("kz_lu_solve refuses a pivot array outside k..n-1 (it overflowed b before) and leaves b alone", function()
    local a, piv = kz.vec(9, { 4, 1, 2, 1, 5, 1, 2, 1, 6 }), ffi.new("int[3]")
    kz.call("kz_lu_factor", 3, a, piv, kz.report())
    for _, bad in ipairs { { 0, 1, 5 }, { 0, 1, -1 }, { 1, 0, 2 }, { 0, 1, 3 }, { 0, 1, 2^30 }, { 0, 1, -2^31 } } do
      local pv, b, r = ffi.new("int[3]", bad), kz.vec(3, { 1, 2, 3 }), kz.report()
      assert.are.equal(C.KZ_EDOMAIN, C.kz_lu_solve(3, a, pv, b, r), table.concat(bad, ","))
      assert.are.equal("piv", param(r))
      assert.are.same({ 1, 2, 3 }, { b[0], b[1], b[2] })
      r = kz.report()
      assert.are.equal(C.KZ_EDOMAIN, C.kz_lu_solve_cols(3, a, pv, 2, kz.vec(6), r))
      assert.are.equal("piv", param(r))
    end
    -- the factors' own pivots solve A x = b: A (1, 1, 1) = (7, 7, 9)
    local b = kz.vec(3, { 7, 7, 9 })
    kz.call("kz_lu_solve", 3, a, piv, b, kz.report())
    for i = 0, 2 do assert.is_near(1, b[i], 1e-14) end
  end)

  it("kz_vmi_run refuses a micro capacity check N*p that would overflow", function()
    local m, par = ffi.new("kz_vmi_model"), ffi.new("kz_vmi_harmonic")
    par.nf, par.omega_s, par.omega_f = 1, 1, 10
    kz.call("kz_vmi_harmonic_model", m, par, kz.report())
    local P = ffi.new("kz_vmi_params")
    P.alpha_V, P.gamma_V, P.alpha_W, P.gamma_W, P.p, P.dT, P.tol, P.max_iter = 0.5, 0.5, 0.5, 0.5, 4, 0.01, 1e-12, 20
    local r = kz.report()
    assert.are.equal(C.KZ_EBUFFER, C.kz_vmi_run(m, P, 2^61, kz.vec(4, { 1, 0.1, 0, 0 }), kz.vec(8), 2^62, kz.vec(8), 20, nil, r))
    assert.are.equal("micro", param(r))
  end)
end)
