-- The general HMM (lib/methods/kz_hmm.c, lib/methods/kz_hmm_macro.c) on the vibrated pendulums of Calvo &
-- Sanz-Serna and Sharp, Tsai & Engquist: force estimates against the averaged forces, the
-- symmetric and half windows, every macro scheme's order, the one-step map's geometry, the
-- observable seam, work counts and bad input.
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local E = require "kapitza.experiment"
local ffi, C = kz.ffi, kz.C
local twopi = 2 * math.pi

local function params(t)
  local p = hmm.params { preset = t.preset or "cs2", kernel = t.kernel or "exponential", H = t.H or 0.1,
                         T = t.T or 1, eta = t.eta, h = t.h }
  if t.half == false then p.half_window = 0 end
  for _, k in ipairs { "macro", "phase", "recon" } do if t[k] then p[k] = t[k] end end
  if t.micro then p.micro = kz.stepper(t.micro) end
  return p
end

describe("HMM force estimate #asan", function()
  it("approaches F(Q) of (2.6), more closely as the window eta and eta/h grow (Algorithm 2)", function()
    -- omega = 1e3 is left out on purpose: 40 periods there last 0.25 s, not small against the
    -- slow time scale, and a longer window makes the estimate worse (the scale-separation limit).
    for _, omega in ipairs { 1e4, 1e6 } do
      local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = omega }
      local period = twopi / omega
      for _, Q in ipairs { 0.1, 0.5, 1.2, -0.8 } do
        local exact = pend.averaged_force(Q)
        local errs = {}
        for i, cfg in ipairs { { 10, 40 }, { 20, 160 }, { 40, 640 } } do -- periods, steps per period
          local p = params { eta = cfg[1] * period, h = period / cfg[2] }
          local F, r = kz.vec(1), kz.report()
          kz.call("kz_hmm_force", pend.vib, p, 0, kz.vec(2, { Q, 0 }), F, nil, r)
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
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e6 }
    local period, errs = twopi / 1e6, {}
    for i, m in ipairs { 10, 20, 40, 80 } do
      local p = params { kernel = "uniform", eta = period, h = period / m }
      local F = kz.vec(1)
      kz.call("kz_hmm_force", pend.vib, p, 0, kz.vec(2, { 0.5, 0 }), F, nil, kz.report())
      errs[i] = math.abs(F[0] - pend.averaged_force(0.5))
    end
    for i = 2, 3 do assert.is_near(4, errs[i - 1] / errs[i], 0.5) end -- second order in h
  end)

  it("the symmetric window of Algorithm 2 equals its half window (forces even in theta)", function()
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
    local period = twopi / 1e4
    local F1, F2, r1, r2 = kz.vec(1), kz.vec(1), kz.report(), kz.report()
    kz.call("kz_hmm_force", pend.vib, params { eta = 40 * period, h = period / 10 }, 0,
            kz.vec(2, { 0.7, 0 }), F1, nil, r1)
    kz.call("kz_hmm_force", pend.vib, params { eta = 40 * period, h = period / 10, half = false }, 0,
            kz.vec(2, { 0.7, 0 }), F2, nil, r2)
    assert.is_near(F1[0], F2[0], 1e-9 * math.abs(F1[0]))
    assert.are.equal(2 * tonumber(r1.micro_steps), tonumber(r2.micro_steps))
  end)

  it("with Sharp et al.'s reconstruction matches the averaged force of (3.2) for every micro stepper", function()
    -- eps = 1e-6, eta = 50 eps, h = eps/50 (Table 1 row 2) at (Theta, Omega) = (0.2, 0.1), t = 10;
    -- notes Sec. 7 A-force and the addendum: rk4 within 1e-6, Verlet's bias -1.30e-3 (kick-drift-
    -- kick) and about -1/2 of it with the opposite sign for drift-kick-drift (leapfrog)
    local ste = models.ste { eps = 1e-6, g = 0.1, l = 0.05 }
    local exact = ste.averaged_force(0.2)
    local function err(micro)
      local F, Fv = hmm.force(ste, { preset = "ste", micro = micro, kernel = "exponential", eta = 50e-6, h = 1e-6 / 50 },
                              10, { 0.2, 0.1 })
      return F[1] - exact, Fv[1] - 0.1
    end
    local e_rk4, v_rk4 = err("rk4")
    assert.is_true(math.abs(e_rk4) < 1e-6 and math.abs(v_rk4) < 1e-6, string.format("%g %g", e_rk4, v_rk4))
    local e_v = err("verlet")
    assert.is_near(-1.299e-3, e_v, 0.13e-3)
    local e_lf = err("leapfrog")
    assert.is_true(e_lf > 0 and math.abs(e_lf / e_v + 0.5) < 0.05, string.format("leapfrog %g verlet %g", e_lf, e_v))
  end)
end)

describe("the observable seam (kz_hmm_average) #asan", function()
  local ste = models.ste { eps = 1e-6, g = 0.1, l = 0.05 }
  local p = hmm.params { preset = "ste", micro = "rk4", kernel = "exp2", eta = 20e-6, h = 1e-6 / 40 }

  it("averages f itself by default, and a callback observable of f equals the force estimate", function()
    local Y = kz.vec(2, { 0.3, -0.2 })
    local F, Fv = kz.vec(1), kz.vec(1)
    kz.call("kz_hmm_force", ste.vib, p, 2.5, Y, F, Fv, kz.report())
    -- the micro state as the force estimate reconstructs it (3.4), phase 0 at t = 2.5 = 2.5e6 eps
    local y0 = kz.vec(2, { 0.3, -0.2 - math.sin(0.3) / (twopi * 0.05) })
    local avg = kz.vec(2)
    kz.call("kz_hmm_average", ste.vib, p, 2.5, y0, nil, nil, 0, avg, kz.report())
    assert.is_near(F[0], avg[1], 1e-12 * math.abs(F[0]))
    assert.is_near(Fv[0], avg[0], 1e-12)
    local calls = 0
    local obs = ffi.cast("kz_observe_fn", function(_, _, _, f, out)
      calls = calls + 1
      out[0] = 3 * f[1]
      return 0
    end)
    local one = kz.vec(1)
    kz.call("kz_hmm_average", ste.vib, p, 2.5, y0, obs, nil, 1, one, kz.report())
    -- the same sum scaled by 3 inside: equal up to the round-off of summing terms of size
    -- sin(theta)/(eps l) ~ 6e6 into an average of size 1 (about 1e-9 relative)
    assert.is_near(3 * F[0], one[0], 1e-8 * math.abs(F[0]))
    assert.are.equal(2 * 400 + 1, calls) -- every node of the symmetric window once
    local bad = ffi.cast("kz_observe_fn", function() return C.KZ_EDOMAIN end)
    local r = kz.report()
    assert.are.equal(C.KZ_EDOMAIN, C.kz_hmm_average(ste.vib, p, 2.5, y0, bad, nil, 1, one, r))
    assert.are.equal("observable", ffi.string(r.param))
    assert.are.equal(C.KZ_EDOMAIN, C.kz_hmm_average(ste.vib, p, 2.5, y0, obs, nil, 0, one, r))
    assert.are.equal("nobs", ffi.string(r.param))
    obs:free(); bad:free()
  end)
end)

describe("HMM macro schemes #asan", function()
  -- Algorithm 2 micro settings with a fine window, so the force error is far below the macro one
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e6 }
  local period = twopi / 1e6

  it("FE and IFE are first order, Verlet and leapfrog second order in H (against (2.5))", function()
    local want = { FE = 1, IFE = 1, V = 2, leapfrog = 2 }
    for name, order in pairs(want) do
      local Hs, errs = {}, {}
      for i, H in ipairs { 1 / 40, 1 / 80, 1 / 160 } do
        local Q, P = hmm.run(pend, { preset = "cs2", macro = name, kernel = "uniform", H = H, T = 0.5,
                                     eta = period, h = period / 200, Q0 = 0.5, P0 = 0 })
        local ref = E.grid(pend.avg, 0.5, H, { 0.5, 0 }, 1 / 20480)
        Hs[i], errs[i] = H, E.max_norm({ Q, P }, ref)
      end
      local s = E.slope(Hs, errs)
      assert.is_near(order, s, 0.25, string.format("%s: slope %.3f errors %g %g %g", name, s, errs[1], errs[2], errs[3]))
    end
  end)

  it("count exactly the force estimates each scheme takes (T/H, 2T/H for Verlet, T/H + 1 with fsal)", function()
    local o = { preset = "cs2", kernel = "uniform", H = 1 / 10, T = 1, eta = period, h = period / 20, Q0 = 0.5 }
    local per = 10 -- micro-steps per estimate (half window of 20 steps per period)
    for name, est in pairs { FE = 10, IFE = 10, V = 20, leapfrog = 10 } do
      o.macro, o.fsal = name, nil
      local _, _, w = hmm.run(pend, o)
      assert.are.equal(est * per, w.micro_steps, name)
      assert.are.equal(10, w.macro_steps, name)
    end
    o.macro, o.fsal = "V", true
    local _, _, w = hmm.run(pend, o)
    assert.are.equal(11 * per, w.micro_steps)
  end)

  it("the one-step form with Algorithm 2 settings (Sec. 2.5) is reversible and symplectic", function()
    local pd = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
    local per = twopi / 1e4
    local function step(Q, P, H)
      local p = params { H = H, eta = 40 * per, h = per * 0.05, macro = C.KZ_HMM_VERLET }
      local Y = kz.vec(2, { Q, P })
      kz.call("kz_hmm_step", pd.vib, p, 0, Y, kz.report())
      return Y[0], Y[1]
    end
    for _, z in ipairs { { 0.5, 0 }, { -0.3, 2.0 }, { 1.1, -1.5 } } do
      local Q1, P1 = step(z[1], z[2], 0.05)
      assert.is_true(math.abs(Q1 - z[1]) + math.abs(P1 - z[2]) > 1e-3)
      local Q0, P0 = step(Q1, P1, -0.05)
      assert.is_near(z[1], Q0, 1e-13)
      assert.is_near(z[2], P0, 1e-12)
    end
    local d = 1e-4 -- truncation O(d^2) and round-off O(eps/d) balance near 1e-9 here
    for _, z in ipairs { { 0.5, 0 }, { -0.3, 2.0 } } do
      local qa, pa = step(z[1] + d, z[2], 0.05)
      local qb, pb = step(z[1] - d, z[2], 0.05)
      local qc, pc = step(z[1], z[2] + d, 0.05)
      local qd, pd2 = step(z[1], z[2] - d, 0.05)
      local a, b = (qa - qb) / (2 * d), (qc - qd) / (2 * d)
      local c, e = (pa - pb) / (2 * d), (pc - pd2) / (2 * d)
      assert.is_near(1, a * e - b * c, 1e-8)
    end
    -- leapfrog is a two-step recursion: the one-step form refuses it
    local r = kz.report()
    local p = params { H = 0.05, eta = 40 * per, h = per * 0.05 }
    assert.are.equal(C.KZ_EMODEL, C.kz_hmm_step(pd.vib, p, 0, kz.vec(2, { 0.5, 0 }), r))
    assert.are.equal("macro", ffi.string(r.param))
  end)

  it("presets set what the papers specify", function()
    local p, r = ffi.new("kz_hmm_params"), kz.report()
    kz.call("kz_hmm_params_init", p, C.KZ_HMM_PRESET_CS1, r)
    assert.are.equal(C.KZ_HMM_LEAPFROG, p.macro)
    assert.are.equal(C.KZ_PHASE_NAIVE, p.phase)
    assert.are.equal(C.kz_step_verlet, p.micro)
    kz.call("kz_hmm_params_init", p, C.KZ_HMM_PRESET_CS2, r)
    assert.are.equal(C.KZ_RECON_ZERO_V, p.recon)
    assert.are.equal(1, p.half_window)
    kz.call("kz_hmm_params_init", p, C.KZ_HMM_PRESET_STE, r)
    assert.are.equal(C.KZ_HMM_VERLET, p.macro)
    assert.are.equal(C.KZ_PHASE_EXACT, p.phase)
    assert.are.equal(C.KZ_EDOMAIN, C.kz_hmm_params_init(p, 9, r))
  end)
end)

describe("HMM runs #asan", function()
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
  local period = twopi / 1e4
  it("count exactly T/H force estimates and their micro-steps (Calvo & Sanz-Serna's tables)", function()
    for _, H in ipairs { 1 / 10, 1 / 20, 1 / 40 } do
      local _, _, work = hmm.run(pend, { preset = "cs2", kernel = "exponential", H = H, T = 1,
                                         eta = 40 * period, h = period * H, Q0 = 0.5 })
      assert.are.equal((1 / H) * (20 / H), work.micro_steps)
      assert.are.equal(1 / H, work.macro_steps)
      local _, _, w1 = hmm.run(pend, { preset = "cs1", kernel = "exponential", H = H, T = 1,
                                       eta = 40 * period, h = period * H, Q0 = 0.5 })
      assert.are.equal(2 * (1 / H) * (20 / H), w1.micro_steps)
      local _, _, w3 = hmm.run(pend, { preset = "cs2", kernel = "uniform", H = H, T = 1, eta = period,
                                       h = period * H, Q0 = 0.5 })
      assert.are.equal((1 / H) / (2 * H), w3.micro_steps)
    end
  end)

  it("reject every class of bad input with a status naming the parameter", function()
    local Y, Y0 = kz.vec(40), kz.vec(2, { 0.5, 0 })
    local good = { eta = 40 * period, h = period * 0.1, H = 0.1, T = 1 }
    local function try(over, expect_status, expect_param, y0)
      local t = {}
      for k, v in pairs(good) do t[k] = v end
      for k, v in pairs(over) do t[k] = v end
      local p = params(t)
      if over.kernel_n then p.kernel = over.kernel_n end
      if over.kconst then p.kernel_constant = over.kconst end
      if over.nomicro then p.micro = nil end
      local r = kz.report()
      local st = C.kz_hmm_run(pend.vib, p, y0 or Y0, Y, 20, r)
      assert.are.equal(expect_status, st, expect_param)
      if expect_param then assert.are.equal(expect_param, ffi.string(r.param)) else assert.is_true(r.param == nil) end
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
    try({ H = 0.01 }, C.KZ_EBUFFER, "Y_out")
    try({ kernel_n = 17 }, C.KZ_EDOMAIN, "kernel")
    try({ kconst = -1 }, C.KZ_EDOMAIN, "kernel_constant")
    try({ macro = 9 }, C.KZ_EDOMAIN, "macro")
    try({ phase = 7 }, C.KZ_EDOMAIN, "phase")
    try({ recon = 7 }, C.KZ_EDOMAIN, "recon")
    try({ nomicro = true }, C.KZ_ENULL, "micro")
    try({ micro = "strang" }, C.KZ_EMODEL, "micro") -- the pendulum has no sub-flows
    try({ preset = "cs1" }, C.KZ_OK, nil)
    try({ phase = C.KZ_PHASE_NAIVE }, C.KZ_EMODEL, "half_window")
    try({}, C.KZ_ENONFINITE, "Y0", kz.vec(2, { 0 / 0, 0 }))
    local r = kz.report()
    local p = params(good)
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(nil, p, Y0, Y, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, nil, Y0, Y, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, p, Y0, nil, 20, r))
    assert.are.equal(C.KZ_ENULL, C.kz_hmm_run(pend.vib, p, nil, Y, 20, r))
    local bad = ffi.new("kz_pendulum", { 0.2, 9.8, 4, -1, 0 })
    assert.are.equal(C.KZ_EDOMAIN, C.kz_pendulum_vib(ffi.new("kz_vib"), bad, r))
    assert.are.equal("omega", ffi.string(r.param))
    local bads = ffi.new("kz_ste", { 0, 0.1, 0.05 })
    assert.are.equal(C.KZ_EDOMAIN, C.kz_ste_vib(ffi.new("kz_vib"), bads, r))
    assert.are.equal("eps", ffi.string(r.param))
  end)

  it("the Lua binding turns a status into an error naming the function and parameter", function()
    local ok, err = pcall(hmm.run, pend, { preset = "cs2", kernel = "exponential", H = 0.1, T = 1,
                                            eta = 40 * period, h = -1, Q0 = 0.5 })
    assert.is_false(ok)
    assert.truthy(err:find("kz_hmm_run", 1, true))
    assert.truthy(err:find("parameter 'h'", 1, true))
    ok, err = pcall(hmm.run, pend, { preset = "nope" })
    assert.is_false(ok)
    assert.truthy(err:find("preset", 1, true))
    ok, err = pcall(hmm.run, pend, { macro = "RK9" })
    assert.is_false(ok)
    assert.truthy(err:find("FE, IFE, V, leapfrog", 1, true), err)
    ok, err = pcall(models.pendulum, { l = 0.2, g = 9.8, vmax = 0 / 0, omega = 1 })
    assert.is_false(ok)
    assert.truthy(err:find("vmax", 1, true))
  end)
end)
