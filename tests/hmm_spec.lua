-- HMM for the vibrated pendulum (Calvo & Sanz-Serna, Sec. 2): force estimates, geometric
-- properties of Algorithm 2, work counts, bad input.
local kz = require "kapitza"
local hmm = require "hmm"
local ffi, C = kz.ffi, kz.C
local twopi = 2 * math.pi

local function params(t)
  local p = ffi.new("kz_hmm_params")
  p.variant = t.variant or C.KZ_HMM_ASYNCHRONOUS
  p.kernel = t.kernel or C.KZ_KERNEL_EXPONENTIAL
  p.H, p.T, p.eta, p.h = t.H or 0.1, t.T or 1, t.eta, t.h
  p.half_window = t.half == false and 0 or 1
  return p
end

describe("HMM force estimate #asan", function()
  it("approaches F(Q) of (2.6), more closely as the window eta and eta/h grow", function()
    -- omega = 1e3 is left out on purpose: 40 periods there last 0.25 s, not small against the
    -- slow time scale, and a longer window makes the estimate worse (the scale-separation limit).
    for _, omega in ipairs { 1e4, 1e6 } do
      local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = omega }
      local period = twopi / omega
      for _, Q in ipairs { 0.1, 0.5, 1.2, -0.8 } do
        local exact = C.kz_pendulum_averaged_force(pend.par, Q)
        local errs = {}
        for i, cfg in ipairs { { 10, 40 }, { 20, 160 }, { 40, 640 } } do -- periods, steps per period
          local p = params { eta = cfg[1] * period, h = period / cfg[2] }
          local F, r = kz.vec(1), kz.report()
          kz.call("kz_hmm_force", pend.vib, p, 0, kz.vec(1, { Q }), nil, F, r)
          errs[i] = math.abs(F[0] - exact)
          assert.are.equal(cfg[1] * cfg[2] / 2, tonumber(r.micro_steps))
        end
        local where = string.format("omega=%g Q=%g: F=%g errors %g %g %g", omega, Q, exact, errs[1], errs[2], errs[3])
        assert.is_true(errs[2] < errs[1] and errs[3] < errs[1] / 10, where)
        -- what remains is the O(1/omega) remainder of the averaged equation (2.5)
        assert.is_true(errs[3] <= 1e-3 * math.abs(exact) + 3000 / omega, where)
      end
    end
  end)

  it("with simple filtering is exact up to O(h^2 omega^2) + O(1/omega)", function()
    local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e6 }
    local period, errs = twopi / 1e6, {}
    for i, m in ipairs { 10, 20, 40, 80 } do
      local p = params { kernel = C.KZ_KERNEL_UNIFORM, eta = period, h = period / m }
      local F = kz.vec(1)
      kz.call("kz_hmm_force", pend.vib, p, 0, kz.vec(1, { 0.5 }), nil, F, kz.report())
      errs[i] = math.abs(F[0] - C.kz_pendulum_averaged_force(pend.par, 0.5))
    end
    for i = 2, 3 do assert.is_near(4, errs[i - 1] / errs[i], 0.5) end -- second order in h
  end)

  it("the symmetric window of Algorithm 2 equals its half window (forces even in theta)", function()
    local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
    local period = twopi / 1e4
    local F1, F2, r1, r2 = kz.vec(1), kz.vec(1), kz.report(), kz.report()
    kz.call("kz_hmm_force", pend.vib, params { eta = 40 * period, h = period / 10 }, 0,
            kz.vec(1, { 0.7 }), nil, F1, r1)
    kz.call("kz_hmm_force", pend.vib, params { eta = 40 * period, h = period / 10, half = false }, 0,
            kz.vec(1, { 0.7 }), nil, F2, r2)
    assert.is_near(F1[0], F2[0], 1e-9 * math.abs(F1[0]))
    assert.are.equal(2 * tonumber(r1.micro_steps), tonumber(r2.micro_steps))
  end)
end)

describe("Algorithm 2 one-step map #asan", function()
  local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
  local period = twopi / 1e4
  local function step(Q, P, H)
    local p = params { H = H, eta = 40 * period, h = period * 0.05 }
    local q, v = kz.vec(1, { Q }), kz.vec(1, { P })
    kz.call("kz_hmm_step", pend.vib, p, q, v, kz.report())
    return q[0], v[0]
  end

  it("is reversible: a step with -H undoes a step with H", function()
    for _, z in ipairs { { 0.5, 0 }, { -0.3, 2.0 }, { 1.1, -1.5 } } do
      local Q1, P1 = step(z[1], z[2], 0.05)
      assert.is_true(math.abs(Q1 - z[1]) + math.abs(P1 - z[2]) > 1e-3)
      local Q0, P0 = step(Q1, P1, -0.05)
      assert.is_near(z[1], Q0, 1e-13)
      assert.is_near(z[2], P0, 1e-12)
    end
  end)

  it("is symplectic: the Jacobian by central differences has determinant 1", function()
    local d = 1e-4 -- truncation O(d^2) and round-off O(eps/d) balance near 1e-9 here
    for _, z in ipairs { { 0.5, 0 }, { -0.3, 2.0 } } do
      local qa, pa = step(z[1] + d, z[2], 0.05)
      local qb, pb = step(z[1] - d, z[2], 0.05)
      local qc, pc = step(z[1], z[2] + d, 0.05)
      local qd, pd = step(z[1], z[2] - d, 0.05)
      local a, b = (qa - qb) / (2 * d), (qc - qd) / (2 * d)
      local c, e = (pa - pb) / (2 * d), (pc - pd) / (2 * d)
      assert.is_near(1, a * e - b * c, 1e-8)
    end
  end)

  it("Algorithm 1 is refused by the one-step map (it is neither symplectic nor reversible)", function()
    local p = params { variant = C.KZ_HMM_SYNCHRONOUS, half = false, eta = 40 * period, h = period / 20 }
    local r = kz.report()
    assert.are.equal(C.KZ_EMODEL, C.kz_hmm_step(pend.vib, p, kz.vec(1, { 0.5 }), kz.vec(1, { 0 }), r))
    assert.are.equal("variant", ffi.string(r.param))
  end)
end)

describe("HMM runs #asan", function()
  local pend = hmm.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
  local period = twopi / 1e4
  it("count exactly T/H force estimates and their micro-steps", function()
    for _, H in ipairs { 1 / 10, 1 / 20, 1 / 40 } do
      local _, work = hmm.run(pend, { variant = "async", kernel = "exponential", half_window = true,
                                      H = H, T = 1, eta = 40 * period, h = period * H, Q0 = 0.5 })
      assert.are.equal((1 / H) * (20 / H), work.micro_steps)
      assert.are.equal(1 / H, work.macro_steps)
      local _, w1 = hmm.run(pend, { variant = "sync", kernel = "exponential", H = H, T = 1,
                                    eta = 40 * period, h = period * H, Q0 = 0.5 })
      assert.are.equal(2 * (1 / H) * (20 / H), w1.micro_steps)
      local _, w3 = hmm.run(pend, { variant = "async", kernel = "uniform", half_window = true, H = H,
                                    T = 1, eta = period, h = period * H, Q0 = 0.5 })
      assert.are.equal((1 / H) / (2 * H), w3.micro_steps)
    end
  end)

  it("reject every class of bad input with a status naming the parameter", function()
    local Q, Q0, P0 = kz.vec(20), kz.vec(1, { 0.5 }), kz.vec(1, { 0 })
    local good = { eta = 40 * period, h = period * 0.1, H = 0.1, T = 1 }
    local function try(over, expect_status, expect_param, q0)
      local t = {}
      for k, v in pairs(good) do t[k] = v end
      for k, v in pairs(over) do t[k] = v end
      local r = kz.report()
      local st = C.kz_hmm_run(pend.vib, params(t), q0 or Q0, P0, Q, nil, 20, r)
      assert.are.equal(expect_status, st, expect_param)
      assert.are.equal(expect_param, ffi.string(r.param))
    end
    try({ H = 0 }, C.KZ_EDOMAIN, "H")
    try({ H = -0.1 }, C.KZ_EDOMAIN, "H")
    try({ H = 0 / 0 }, C.KZ_ENONFINITE, "H")
    try({ h = 0 }, C.KZ_EDOMAIN, "h")
    try({ h = 1 / 0 }, C.KZ_ENONFINITE, "h")
    try({ eta = period * 0.05, h = period * 0.1 }, C.KZ_EDOMAIN, "eta")
    try({ eta = 40 * period, h = period * 0.3 }, C.KZ_EGRID, "eta")
    try({ T = 0.05 }, C.KZ_EDOMAIN, "T")
    try({ T = 1.05 }, C.KZ_EGRID, "T")
    try({ H = 0.01 }, C.KZ_EBUFFER, "Q_out")
    try({ kernel = 17 }, C.KZ_EDOMAIN, "kernel")
    try({ variant = 0 }, C.KZ_EDOMAIN, "variant")
    try({ variant = C.KZ_HMM_SYNCHRONOUS }, C.KZ_EMODEL, "half_window")
    try({}, C.KZ_ENONFINITE, "Q0", kz.vec(1, { 0 / 0 }))
    local r = kz.report()
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(nil, params(good), Q0, P0, Q, nil, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, nil, Q0, P0, Q, nil, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, params(good), Q0, P0, nil, nil, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, params(good), nil, P0, Q, nil, 20, r))
    local bad = ffi.new("kz_pendulum", { 0.2, 9.8, 4, -1, 0 })
    assert.are.equal(C.KZ_EDOMAIN, C.kz_pendulum_vib2(ffi.new("kz_vib2"), bad, r))
    assert.are.equal("omega", ffi.string(r.param))
  end)

  it("the Lua binding turns a status into an error naming the function and parameter", function()
    local ok, err = pcall(hmm.run, pend, { variant = "async", kernel = "exponential", half_window = true,
                                            H = 0.1, T = 1, eta = 40 * period, h = -1, Q0 = 0.5 })
    assert.is_false(ok)
    assert.truthy(err:find("kz_hmm_run", 1, true))
    assert.truthy(err:find("parameter 'h'", 1, true))
    ok, err = pcall(hmm.run, pend, { variant = "nope" })
    assert.is_false(ok)
    assert.truthy(err:find("variant", 1, true))
    ok, err = pcall(hmm.pendulum, { l = 0.2, g = 9.8, vmax = 0 / 0, omega = 1 })
    assert.is_false(ok)
    assert.truthy(err:find("vmax", 1, true))
  end)
end)
