-- The constrained mechanical systems (lib/steppers/kz_con.c, kz_step_shake.c, kz_step_rattle.c,
-- kz_step_herk3.c, kz_dpend.c) and the methods built on them (kz_hmm_dae.c, kz_sam_dae.c), on the
-- vibrated double pendulum of Calvo & Sanz-Serna Sec. 4 and Calvo, Chartier, Murua & Sanz-Serna
-- Sec. 6: constraint residuals, orders (fitted slopes), symmetry, exact work and solve counts,
-- Newton failures reported with step and time and the state unchanged, the angle-coordinate
-- reference against the Cartesian DAE, SHAKE-SHAKE against RATTLE-SHAKE, the filtered force
-- against the momentum identity, and bad input for every new entry point.
local kz = require "kapitza"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local E = require "kapitza.experiment"
local D = require "kapitza.papers.dpend"
local U = require "testutil"
local ffi, C = kz.ffi, kz.C
local twopi = 2 * math.pi

local paper = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4 }
local function dpend(omega, over)
  local t = { omega = omega }
  for k, v in pairs(paper) do t[k] = v end
  for k, v in pairs(over or {}) do t[k] = v end
  return models.dpend(t)
end

-- A smooth test problem: the rods hanging down, a slow mild vibration, half a second.
local smooth = dpend(20, { vmax = 1 })
local ang_s = { math.pi - 0.5, math.pi + 0.3, 0, 0 }
local y_s = smooth.state(ang_s)
local T_s = 0.5

-- The M-orthogonal projection of the velocity of y onto the tangent space: v - M^-1 G^T mu with
-- G M^-1 G^T mu = G v (for SHAKE's unprojected step-point velocity).
local function project(model, y)
  local p = model.par
  local minv = { 1 / p.m1, 1 / p.m1, 1 / p.m2, 1 / p.m2 }
  local G = { { 2 * y[1], 2 * y[2], 0, 0 }, { 2 * (y[1] - y[3]), 2 * (y[2] - y[4]), 2 * (y[3] - y[1]), 2 * (y[4] - y[2]) } }
  local A, b = { { 0, 0 }, { 0, 0 } }, { 0, 0 }
  for i = 1, 2 do
    for j = 1, 2 do for k = 1, 4 do A[i][j] = A[i][j] + G[i][k] * minv[k] * G[j][k] end end
    for k = 1, 4 do b[i] = b[i] + G[i][k] * y[4 + k] end
  end
  local det = A[1][1] * A[2][2] - A[1][2] * A[2][1]
  local mu = { (b[1] * A[2][2] - b[2] * A[1][2]) / det, (A[1][1] * b[2] - A[2][1] * b[1]) / det }
  local out = {}
  for k = 1, 4 do out[k] = y[k] end
  for k = 1, 4 do out[4 + k] = y[4 + k] - minv[k] * (G[1][k] * mu[1] + G[2][k] * mu[2]) end
  return out
end

local function maxabs(a, b, i0, i1)
  local e = 0
  for i = i0, i1 do e = math.max(e, math.abs(a[i] - b[i])) end
  return e
end

-- A constrained system with its own constraint struct (lambda buffer, counters), kept alive.
local function rig(model)
  local con, st, lam = ffi.new("kz_constraints", model.con), ffi.new("kz_con_stats"), kz.vec(4)
  con.stats, con.lambda = st, lam
  local sys = ffi.new("kz_sys", model.sys)
  sys.con = con
  return { sys = sys, con = con, st = st, lam = lam }
end

local function run(rg, name, t, h, n, y0)
  local y, r = kz.vec(8, y0), kz.report()
  local status = C.kz_run(kz.stepper(name), rg.sys, t, h, n, y, r)
  local out = {}
  for i = 1, 8 do out[i] = y[i - 1] end
  return status, out, r
end

describe("constrained steppers #asan", function()
  local ref = dpend(20, { vmax = 1 }).state(kz.run(smooth.lagrange, "rk4", 0, T_s / 65536, 65536, ang_s))

  it("are registered with their order, symmetry, evaluation count and need of constraints", function()
    local want = { shake = { 2, 0, 1, 1 }, rattle = { 2, 1, 1, 1 }, herk3 = { 3, 0, 0, 3 } }
    for name, w in pairs(want) do
      local T = kz.stepper(name)
      assert.are.same(w, { T.order, T.reversible, T.fsal, T.evals }, name)
      assert.is_true(bit.band(T.needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0, name)
      assert.are.equal(T, kz.constrained[name])
    end
    assert.are.same({ "shake", "rattle", "herk3" }, kz.constrained.names)
  end)

  for _, name in ipairs { "shake", "rattle", "herk3" } do
    local T = kz.stepper(name)
    it(name .. ": positions converge with the declared order (fitted slope), on the constraints to round-off", function()
      local hs, ep, ev = {}, {}, {}
      for k = 6, 9 do
        local n = 2 ^ k
        local rg = rig(smooth)
        local st, y = run(rg, name, 0, T_s / n, n, y_s)
        assert.are.equal(0, st)
        -- SHAKE's step-point velocity is unprojected (an O(h) normal part): its projection is RATTLE's
        local yp = name == "shake" and project(smooth, y) or y
        hs[#hs + 1], ep[#ep + 1], ev[#ev + 1] = T_s / n, maxabs(y, ref, 1, 4), maxabs(yp, ref, 5, 8)
        local g1, g2, v1, v2 = smooth.residual(y)
        assert.is_true(math.abs(g1) <= smooth.con.tol and math.abs(g2) <= smooth.con.tol, string.format("%s n=%d g %g %g", name, n, g1, g2))
        if name ~= "shake" then assert.is_true(math.abs(v1) + math.abs(v2) < 1e-15, string.format("%s: G v = %g %g", name, v1, v2)) end
      end
      local sp, sv = U.slope(hs, ep), U.slope(hs, ev)
      assert.is_near(T.order, sp, 0.2, string.format("%s: position slope %.3f", name, sp))
      assert.is_near(T.order, sv, 0.2, string.format("%s: velocity slope %.3f", name, sv))
    end)

    it(name .. ": is symmetric exactly when it says so (a step with -h undoes a step with h)", function()
      local h, n = T_s / 100, 40
      local _, mid = run(rig(smooth), name, 0, h, n, y_s)
      local _, back = run(rig(smooth), name, n * h, -h, n, mid)
      local e = maxabs(back, y_s, 1, 8)
      if T.reversible == 1 then assert.is_true(e < 1e-12, string.format("%s: back within %.2e", name, e))
      else assert.is_true(e > 1e-9, string.format("%s: not symmetric, yet back within %.2e", name, e)) end
    end)

    it(name .. ": counts every evaluation, solve, Newton update and Jacobian exactly", function()
      for _, n in ipairs { 1, 9 } do
        local rg = rig(smooth)
        local _, _, r = run(rg, name, 0, 0.01, n, y_s)
        local stages = name == "herk3" and 3 or 1
        assert.are.equal(n, tonumber(r.micro_steps))
        assert.are.equal(n * T.evals + T.fsal, tonumber(r.force_evals))
        assert.are.equal(stages * n, tonumber(rg.st.pos_solves))
        assert.are.equal(name == "shake" and 0 or stages * n, tonumber(rg.st.vel_solves))
        -- one G at the start of every step, one (g, G) per Newton iterate (updates + 1) per solve
        assert.are.equal(n + tonumber(r.newton_iters) + tonumber(rg.st.pos_solves), tonumber(r.jac_evals))
        assert.is_true(tonumber(r.newton_iters) >= stages * n) -- at least one update per solve here
      end
    end)

    it(name .. ": f_out is f(t + h, y_new); f_in = f(t, y) gives the same step; the multipliers are written", function()
      local rg = rig(smooth)
      local work = kz.vec(tonumber(C.kz_step_work(T, 8)))
      local y, y2, f0, fo, fe, r = kz.vec(8, y_s), kz.vec(8, y_s), kz.vec(8), kz.vec(8), kz.vec(8), kz.report()
      kz.call("kz_sys_eval", rg.sys, 0.1, y, f0, r)
      assert.are.equal(0, T.apply(rg.sys, 0.1, 0.01, y, nil, fo, work, r))
      local lam1 = { rg.lam[0], rg.lam[1], rg.lam[2], rg.lam[3] }
      assert.are.equal(0, T.apply(rg.sys, 0.1, 0.01, y2, f0, nil, work, r))
      kz.call("kz_sys_eval", rg.sys, 0.11, y, fe, r)
      for i = 0, 7 do
        assert.are.equal(fe[i], fo[i])
        assert.are.equal(y[i], y2[i])
      end
      assert.is_true(lam1[1] ~= 0 and lam1[2] ~= 0)
      if name == "shake" then assert.is_true(lam1[3] ~= lam1[3] and lam1[4] ~= lam1[4]) -- NaN: no velocity multiplier
      else assert.is_true(lam1[3] == lam1[3] and lam1[3] ~= 0) end
    end)

    it(name .. ": Newton non-convergence is KZ_ENOCONV naming 'newton', the step and time; the state is unchanged", function()
      local rg = rig(smooth)
      rg.con.max_iter = 1
      local y0 = smooth.state { math.pi - 0.5, math.pi + 0.3, 30, -40 } -- fast rotation: a curved step
      local st, y, r = run(rg, name, 0.2, 0.02, 5, y0)
      assert.are.equal(C.KZ_ENOCONV, st)
      assert.are.equal("newton", ffi.string(r.param))
      assert.are.equal(0, tonumber(r.fail_step))
      assert.is_true(r.fail_time > 0.2 and r.fail_time <= 0.22 + 1e-12, tostring(r.fail_time))
      for i = 1, 8 do assert.are.equal(y0[i], y[i]) end
      -- the step itself, not only the driver, leaves y alone
      local yv, work = kz.vec(8, y0), kz.vec(tonumber(C.kz_step_work(T, 8)))
      assert.are.equal(C.KZ_ENOCONV, T.apply(rg.sys, 0.2, 0.02, yv, nil, nil, work, kz.report()))
      for i = 1, 8 do assert.are.equal(y0[i], yv[i - 1]) end
    end)
  end

  it("SHAKE and RATTLE: the same positions, SHAKE's projected velocity is RATTLE's, the same first multiplier", function()
    local a, b = rig(smooth), rig(smooth)
    local _, ya = run(a, "shake", 0, 0.01, 1, y_s)
    local _, yb = run(b, "rattle", 0, 0.01, 1, y_s)
    for i = 1, 4 do assert.are.equal(ya[i], yb[i]) end
    assert.are.equal(a.lam[0], b.lam[0])
    assert.are.equal(a.lam[1], b.lam[1])
    local _, yc = run(rig(smooth), "shake", 0, 0.01, 30, y_s)
    local _, yd = run(rig(smooth), "rattle", 0, 0.01, 30, y_s)
    local yp = project(smooth, yc)
    assert.is_true(maxabs(yc, yd, 1, 4) < 1e-13 and maxabs(yp, yd, 5, 8) < 1e-12, tostring(maxabs(yp, yd, 5, 8)))
    assert.is_true(maxabs(yc, yd, 5, 8) > 1e-3) -- the unprojected one is not
    -- RATTLE's first half: q1 = q + h v + h^2/2 (a + M^-1 G(q)^T Lx)
    local h, q, p = 0.01, y_s, smooth.par
    local G = { { 2 * q[1], 2 * q[2], 0, 0 }, { 2 * (q[1] - q[3]), 2 * (q[2] - q[4]), 2 * (q[3] - q[1]), 2 * (q[4] - q[2]) } }
    local minv = { 1 / p.m1, 1 / p.m1, 1 / p.m2, 1 / p.m2 }
    local acc = { 0, -(p.g + p.vmax * p.omega), 0, -(p.g + p.vmax * p.omega) }
    for i = 1, 4 do
      local x = q[i] + h * q[4 + i] + 0.5 * h * h * (acc[i] + minv[i] * (G[1][i] * b.lam[0] + G[2][i] * b.lam[1]))
      assert.is_near(x, yb[i], 1e-15)
    end
  end)

  it("a failing constraint function is reported with its status, parameter 'g' and the state unchanged", function()
    local rg = rig(smooth)
    local cb = ffi.cast("kz_con_fn", function(par, q, g, G)
      if q[0] > 0 then return C.KZ_EDOMAIN end
      return smooth.con.g(par, q, g, G)
    end)
    rg.con.g = cb
    local y0 = smooth.state { math.pi + 0.01, math.pi, -3, 0 } -- x1 < 0, crossing to x1 > 0
    local st, y, r = run(rg, "rattle", 0, 0.01, 10, y0)
    assert.are.equal(C.KZ_EDOMAIN, st)
    assert.are.equal("g", ffi.string(r.param))
    assert.is_true(tonumber(r.fail_step) >= 0)
    for i = 1, 8 do assert.are.equal(y0[i], y[i]) end
    cb:free()
  end)
end)

describe("the double pendulum model #asan", function()
  it("kz_dpend_state gives consistent states whose angles round-trip", function()
    local m = dpend(1e4)
    local y = m.state { 0.5, -0.3, 2, -1 }
    local g1, g2, v1, v2 = m.residual(y)
    assert.is_true(math.abs(g1) < 1e-17 and math.abs(g2) < 1e-17 and math.abs(v1) < 1e-16 and math.abs(v2) < 1e-16)
    local a, b = m.angles(y)
    assert.is_near(0.5, a, 1e-15)
    assert.is_near(-0.3, b, 1e-15)
    assert.is_near(-0.8, select(2, D.angles(m, y, "caption")), 1e-15)
  end)

  it("the averaged (Kapitza) equations reduce to (2.5)-(2.6) for one rod", function()
    local m = dpend(1e4, { m2 = 1e-12 })
    local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }
    for _, q in ipairs { 0.1, 0.5, 1.2, -0.8 } do
      local f, y = kz.vec(4), kz.vec(4, { q, q, 0, 0 }) -- rod 2 aligned: no effect of the tiny mass
      kz.call("kz_sys_eval", m.avg, 0, y, f, kz.report())
      assert.is_near(pend.averaged_force(q), f[2], 1e-8 * math.abs(pend.averaged_force(q)) + 1e-12)
    end
  end)

  it("the Cartesian DAE (HERK3, paper parameters, 1592 periods) converges at third order to the angle ODE", function()
    local m = dpend(1e4)
    local per, ang = twopi / 1e4, { 0.5, 0, 0, 0 }
    local ref = E.richardson(m.lagrange, ang, 1592 * per, 1, 1592 * 64)[1]
    local errs = {}
    for i, n in ipairs { 64, 128 } do
      local y = kz.run(m.sys, "herk3", 0, per / n, 1592 * n, m.state(ang))
      local q1, q2 = m.angles(y)
      errs[i] = math.max(math.abs(q1 - ref[1]), math.abs(q2 - ref[2]))
    end
    assert.is_true(errs[2] < 2e-5, tostring(errs[2]))
    assert.is_near(8, errs[1] / errs[2], 2)
  end)

  it("the averaged angle equations are the omega -> infinity limit: SAM-RK4 on the angle ODE differs by O(1/omega)", function()
    local d = {}
    for i, w in ipairs { 1e5, 1e6 } do
      local m = dpend(w)
      local per = twopi / w
      local Tn = math.floor(0.5 / per) * per
      local ys = sam.sam(sam.micro({ sys = m.lagrange, dim = 4 }, "rk4"), { n = 64, period = per, H = Tn / 200,
                         y0 = { 0.5, 0, 0, 0 }, tout = { Tn }, macro = "rk4" })
      local a = kz.run(m.avg, "rk4", 0, Tn / 20000, 20000, { 0.5, 0, 0, 0 })
      d[i] = math.max(math.abs(ys[1][1] - a[1]), math.abs(ys[1][2] - a[2]))
    end
    assert.is_true(d[2] < 2e-3, tostring(d[2]))
    assert.is_near(10, d[1] / d[2], 3)
  end)
end)

describe("the constrained HMM (SHAKE-SHAKE, RATTLE-SHAKE) #asan", function()
  local omega = 1e4
  local m = dpend(omega)
  local y0 = m.state { 0.5, 0, 0, 0 }
  local eta = twopi / omega
  local function opts(preset, H) return { preset = preset, H = H, T = 1, eta = eta, h = eta * H / 0.4 } end

  it("counts 1,280 and 5,120 micro-steps, N(K+1) micro and N macro solves, N(K+1) evaluations", function()
    for _, c in ipairs { { 1 / 80, 80, 16 }, { 1 / 160, 160, 32 } } do
      local H, N, K = c[1], c[2], c[3]
      local _, _, s = hmm.dae_run(m, opts("shake-shake", H), y0)
      assert.are.equal(N * K, s.micro_steps)
      assert.are.equal(N * (K + 1), s.micro_pos_solves)
      assert.are.equal(N * (K + 1), s.force_evals)
      assert.are.same({ N, 0, 0, N }, { s.macro_pos_solves, s.macro_vel_solves, s.micro_vel_solves, s.macro_steps })
      local _, _, t = hmm.dae_run(m, opts("rattle-shake", H), y0)
      assert.are.equal((N + 1) * K, t.micro_steps) -- F_N gives V_N
      assert.are.equal((N + 1) * (K + 1), t.micro_pos_solves)
      assert.are.same({ N, N }, { t.macro_pos_solves, t.macro_vel_solves })
    end
  end)

  it("SHAKE-SHAKE and RATTLE-SHAKE give the same angles and the same SHAKE multipliers", function()
    local Y1, L1 = hmm.dae_run(m, opts("shake-shake", 1 / 80), y0)
    local Y2, L2 = hmm.dae_run(m, opts("rattle-shake", 1 / 80), y0)
    local dq, dl, lmax = 0, 0, 0
    for n = 1, #Y1 do
      local a1, b1 = m.angles(Y1[n])
      local a2, b2 = m.angles(Y2[n])
      dq = math.max(dq, math.abs(a1 - a2), math.abs(b1 - b2))
    end
    for n = 1, #L1 do
      for j = 1, 2 do
        local s = n == 1 and L2[n][j] or 0.5 * (L2[n][j] + L2[n - 1][j + 2])
        dl, lmax = math.max(dl, math.abs(L1[n][j] - s)), math.max(lmax, math.abs(L1[n][j]))
      end
    end
    assert.is_true(dq < 1e-9, tostring(dq))
    assert.is_true(dl < 1e-7 * lmax, string.format("%g of %g", dl, lmax))
    assert.are.equal(L1[1][1], L2[1][1]) -- the same first half step
    assert.is_true(L1[1][3] ~= L1[1][3]) -- SHAKE has no velocity multiplier
  end)

  it("the trapezoidal filter of the total micro force is the momentum identity M(vbar_K - v_0)/(K h)", function()
    local H = 1 / 80
    local h, K = eta * H / 0.4, 16
    local X = m.state { 0.3, -0.4, 0, 0 }
    local F = hmm.dae_force(m, opts("shake-shake", H), 0, X)
    -- the micro SHAKE from (X, 0) at phase 0 = the time-form system at t = 0 (theta0 = 0)
    local rg = rig(m)
    local _, yK = run(rg, "shake", 0, h, K, X)
    local yv, work = kz.vec(8, yK), kz.vec(tonumber(C.kz_step_work(kz.stepper("shake"), 8)))
    assert.are.equal(0, kz.stepper("shake").apply(rg.sys, K * h, h, yv, nil, nil, work, kz.report()))
    local p = m.par
    local G = { { 2 * yK[1], 2 * yK[2], 0, 0 }, { 2 * (yK[1] - yK[3]), 2 * (yK[2] - yK[4]), 2 * (yK[3] - yK[1]), 2 * (yK[4] - yK[2]) } }
    local minv = { 1 / p.m1, 1 / p.m1, 1 / p.m2, 1 / p.m2 }
    for i = 1, 4 do
      -- vbar_K = (v_{K-1/2} + v_{K+1/2})/2 = v_K + h/4 M^-1 G_K^T L_K (v_K: SHAKE's one-step velocity)
      local vbar = yK[4 + i] + 0.25 * h * minv[i] * (G[1][i] * rg.lam[0] + G[2][i] * rg.lam[1])
      assert.is_near(vbar / (K * h), F[i], 1e-9 * (math.abs(F[i]) + 1))
    end
  end)

  it("the RATTLE-SHAKE macro map is reversible (Sec. 4.3)", function()
    local o = opts("rattle-shake", 1 / 80)
    local y1 = hmm.dae_step(m, o, 0, y0)
    local y2 = hmm.dae_step(m, o, 0, y1)
    o.H = -o.H
    local b1 = hmm.dae_step(m, o, 0, y2)
    local b0 = hmm.dae_step(m, o, 0, b1)
    assert.is_true(maxabs(b1, y1, 1, 8) < 1e-12 and maxabs(b0, y0, 1, 8) < 1e-12, tostring(maxabs(b0, y0, 1, 8)))
    assert.is_true(maxabs(y2, y0, 1, 4) > 1e-3) -- it did move
  end)

  it("a Newton failure (macro or micro) names 'newton', the macro step and time", function()
    local bad = dpend(omega, { max_iter = 1 })
    local ok, err = pcall(hmm.dae_run, bad, opts("shake-shake", 1 / 80), y0)
    assert.is_false(ok)
    assert.truthy(err:find("kz_hmm_dae_run", 1, true), err)
    assert.truthy(err:find("parameter 'newton'", 1, true), err)
    assert.truthy(err:find("at step %d+ at t = "), err)
  end)
end)

describe("SAM for the index-2 DAE #asan", function()
  local eps = 1e-4
  local m = dpend(1 / eps)
  local y0 = m.state { 0.5, 0, 0, 0 }
  local tend = 199 * math.pi / 625

  it("costs 6Nn micro-steps, 3 micro position and velocity solves per step, 3N macro solves; the result is consistent", function()
    local ys, zs, c = sam.dae(m, { n = 4, period = twopi * eps, H = tend / 200, y0 = y0, tout = { tend / 2, tend } })
    assert.are.equal(6 * 200 * 4, c.micro_steps)
    assert.are.same({ 3 * c.micro_steps, 3 * c.micro_steps, 3 * 200, 3 * 200, 200 },
                    { c.micro_pos_solves, c.micro_vel_solves, c.macro_pos_solves, c.macro_vel_solves, c.macro_steps })
    assert.are.equal(3 * c.micro_steps, c.force_evals) -- the micro-solver's (3 per HERK3 step)
    for k = 1, 2 do
      local rg, rv = D.residual(m, ys[k])
      assert.is_true(rg <= 4e-15 and rv < 1e-14, string.format("%g %g", rg, rv))
      assert.is_true(zs[k][1] == zs[k][1] and zs[k][1] ~= 0) -- the macro multipliers of the last step
    end
  end)

  it("reproduces the independent implementation's errors (notes, PILOT) at eps = 1e-4, n = 8 and 32", function()
    local ref = D.reference_end(m, tend, { q1 = 0.5, q2 = 0 }, "direct", 64)
    -- the converged q1(t_end) (DP5 with 192/384 steps per period, Richardson estimate 2.5e-14;
    -- RK4 with 256/512 agrees to 3e-12); the notes' 0.101704986099 is 1.0e-9 above it, the
    -- truncation error of its RK4 64/128 recipe (paper/reference/deviations.tsv)
    assert.is_near(0.1017049850977, ref.q1, 1e-10)
    assert.is_near(0.101704986099, ref.q1, 1.1e-9)
    for _, c in ipairs { { 8, 6.86e-2 }, { 32, 1.63e-3 } } do
      local ys = sam.dae(m, { n = c[1], period = twopi * eps, H = math.pi / 2500, y0 = y0, tout = { tend } })
      assert.is_near(c[2], math.abs(m.angles(ys[1]) - ref.q1), 0.01 * c[2])
    end
  end)

  it("a micro Newton failure is reported with the macro step and time", function()
    local bad = dpend(1 / eps, { max_iter = 1 })
    local ok, err = pcall(sam.dae, bad, { n = 4, period = twopi * eps, H = tend / 199, y0 = y0, tout = { tend } })
    assert.is_false(ok)
    assert.truthy(err:find("kz_sam_dae_run", 1, true) and err:find("'newton'", 1, true) and err:find("at step 0 at t = 0", 1, true), err)
  end)
end)

describe("bad input is refused with the parameter named #asan", function()
  local m = dpend(1e4)
  local y0 = m.state { 0.5, 0, 0, 0 }
  local function is(status, param, st, r)
    assert.are.equal(status, st, param)
    assert.are.equal(param, ffi.string(r.param))
  end

  it("kz_con_check through kz_step_check, and kz_con_residual", function()
    local RATTLE = kz.stepper("rattle")
    local function with(f, T)
      local con = ffi.new("kz_constraints", m.con)
      local sys = ffi.new("kz_sys", m.sys)
      sys.con = con
      f(con, sys)
      local r = kz.report()
      return C.kz_step_check(T or RATTLE, sys, r), r
    end
    local noc = ffi.new("kz_sys", m.sys)
    noc.con = nil
    local r = kz.report()
    is(C.KZ_EMODEL, "stepper", C.kz_step_check(RATTLE, noc, r), r)
    local st
    st, r = with(function(c) c.m = 0 end); is(C.KZ_EDOMAIN, "con.m", st, r)
    st, r = with(function(c) c.m = 5 end); is(C.KZ_EDOMAIN, "con.m", st, r)
    st, r = with(function(c) c.g = nil end); is(C.KZ_ENULL, "con.g", st, r)
    st, r = with(function(c) c.minv = nil end); is(C.KZ_ENULL, "con.minv", st, r)
    local neg = kz.vec(4, { 100, -1, 200, 200 })
    st, r = with(function(c) c.minv = neg end); is(C.KZ_EDOMAIN, "con.minv", st, r)
    local nan = kz.vec(4, { 100, 0 / 0, 200, 200 })
    st, r = with(function(c) c.minv = nan end); is(C.KZ_ENONFINITE, "con.minv", st, r)
    st, r = with(function(c) c.tol = 0 end); is(C.KZ_EDOMAIN, "con.tol", st, r)
    st, r = with(function(c) c.tol = 0 / 0 end); is(C.KZ_ENONFINITE, "con.tol", st, r)
    st, r = with(function(c) c.max_iter = 0 end); is(C.KZ_EDOMAIN, "con.max_iter", st, r)
    st, r = with(function(c, s) s.dim, s.nq = 7, 0; s.rhs = m.lagrange.rhs end, kz.stepper("herk3")); is(C.KZ_EDOMAIN, "dim", st, r)
    r = kz.report()
    is(C.KZ_ENONFINITE, "y", C.kz_con_residual(m.sys, kz.vec(8, { 0 / 0, 0, 0, 0, 0, 0, 0, 0 }), kz.vec(4), r), r)
    is(C.KZ_ENULL, "res", C.kz_con_residual(m.sys, kz.vec(8, y0), nil, r), r)
    is(C.KZ_ENULL, "con", C.kz_con_residual(noc, kz.vec(8, y0), kz.vec(4), r), r)
  end)

  it("the double pendulum constructors", function()
    local r = kz.report()
    local function par(over)
      local p = ffi.new("kz_dpend", { 0.01, 0.005, 0.2, 0.1, 9.8, 4, 1e4, 0 })
      for k, v in pairs(over) do p[k] = v end
      return p
    end
    is(C.KZ_EDOMAIN, "m1", C.kz_dpend_constraints(ffi.new("kz_constraints"), par { m1 = -1 }, r), r)
    is(C.KZ_EDOMAIN, "l2", C.kz_dpend_vib(ffi.new("kz_vib"), par { l2 = 0 }, r), r)
    is(C.KZ_ENONFINITE, "omega", C.kz_dpend_lagrange_sys(ffi.new("kz_sys"), par { omega = 0 / 0 }, r), r)
    is(C.KZ_ENONFINITE, "vmax", C.kz_dpend_averaged_sys(ffi.new("kz_sys"), par { vmax = 1 / 0 }, r), r)
    is(C.KZ_ENULL, "con", C.kz_dpend_sys(ffi.new("kz_sys"), par {}, nil, r), r)
    is(C.KZ_ENULL, "dpend", C.kz_dpend_sys(ffi.new("kz_sys"), nil, m.con, r), r)
    is(C.KZ_ENULL, "system", C.kz_dpend_sys(nil, par {}, m.con, r), r)
    is(C.KZ_ENONFINITE, "ang", C.kz_dpend_state(par {}, kz.vec(4, { 0 / 0, 0, 0, 0 }), kz.vec(8), r), r)
    is(C.KZ_ENULL, "y", C.kz_dpend_state(par {}, kz.vec(4), nil, r), r)
    local ok, err = pcall(models.dpend, { m1 = 0 / 0, m2 = 1, l1 = 1, l2 = 1, g = 1, vmax = 1, omega = 1 })
    assert.is_false(ok)
    assert.truthy(err:find("dpend.m1", 1, true), err)
    ok, err = pcall(models.dpend, { m1 = 1, m2 = 1, l1 = 1, l2 = 1, g = 1, vmax = 1, omega = 1, max_iter = 0 })
    assert.is_false(ok)
    assert.truthy(err:find("con.max_iter", 1, true), err)
  end)

  it("kz_hmm_dae_run, kz_hmm_dae_step, kz_hmm_dae_force and kz_hmm_run with a constrained scheme", function()
    local eta = twopi / 1e4
    local function p(over)
      local q = hmm.dae_params { preset = "shake-shake", H = 1 / 80, T = 1, eta = eta, h = eta / 32 }
      for k, v in pairs(over or {}) do q[k] = v end
      return q
    end
    local Y, L, r = kz.vec(81 * 8), kz.vec(80 * 4), kz.report()
    local Y0 = kz.vec(8, y0)
    local function go(q, con, y)
      r = kz.report()
      if con == false then con = nil else con = con or m.con end
      return C.kz_hmm_dae_run(m.vib, con, q, y or Y0, Y, L, 81, nil, r)
    end
    is(C.KZ_ENULL, "con", go(p(), false), r)
    is(C.KZ_EMODEL, "macro", go(p { macro = C.KZ_HMM_VERLET }), r)
    is(C.KZ_EMODEL, "micro", go(p { micro = kz.stepper("verlet") }), r)
    is(C.KZ_EMODEL, "micro", go(p { micro = kz.stepper("rattle") }), r) -- no fused leg
    is(C.KZ_EMODEL, "half_window", go(p { half_window = 0 }), r)
    is(C.KZ_EGRID, "eta", go(p { h = eta / 31.5 }), r)
    is(C.KZ_EDOMAIN, "Y0", go(p(), nil, kz.vec(8, { 0.2, 0.2, 0, 0, 0, 0, 0, 0 })), r)
    is(C.KZ_ENONFINITE, "Y0", go(p(), nil, kz.vec(8, { 0 / 0, 0, 0, 0, 0, 0, 0, 0 })), r)
    is(C.KZ_EBUFFER, "Y_out", C.kz_hmm_dae_run(m.vib, m.con, p(), Y0, Y, L, 80, nil, r), r)
    r = kz.report()
    is(C.KZ_EMODEL, "macro", C.kz_hmm_run(m.vib, p(), Y0, Y, 81, r), r) -- SHAKE needs the constraints
    r = kz.report()
    is(C.KZ_EMODEL, "macro", C.kz_hmm_dae_step(m.vib, m.con, p(), 0, kz.vec(8, y0), nil, nil, r), r)
    r = kz.report()
    is(C.KZ_EDOMAIN, "H", C.kz_hmm_dae_step(m.vib, m.con, p { macro = C.KZ_HMM_RATTLE, H = 0 }, 0, kz.vec(8, y0), nil, nil, r), r)
    r = kz.report()
    is(C.KZ_ENULL, "F", C.kz_hmm_dae_force(m.vib, m.con, p(), 0, Y0, nil, nil, r), r)
    local ok, err = pcall(hmm.dae_params, { preset = "nope" })
    assert.is_false(ok)
    assert.truthy(err:find("constrained hmm preset", 1, true), err)
    ok, err = pcall(hmm.dae_run, m, { preset = "shake-shake", H = 1 / 80, T = 1, eta = eta, h = -1 }, y0)
    assert.is_false(ok)
    assert.truthy(err:find("kz_hmm_dae_run", 1, true) and err:find("parameter 'h'", 1, true), err)
  end)

  it("kz_sam_dae_run", function()
    local eps = 1e-4
    local d = dpend(1 / eps)
    local mi = ffi.new("kz_micro")
    mi.type, mi.sys = kz.stepper("herk3"), d.sys
    local sp = ffi.new("kz_sam_params", { twopi * eps, 0, 4, C.KZ_SAM_CENTRAL2 })
    local tout, yout = kz.vec(1, { math.pi / 2500 * 2 }), kz.vec(8)
    local HERK3 = kz.stepper("herk3")
    local function go(over)
      local a = { mi = mi, p = sp, T = HERK3, H = math.pi / 2500, y = kz.vec(8, y0), n = 1, tout = tout }
      for k, v in pairs(over or {}) do a[k] = v end
      if a.T == false then a.T = nil end
      local r = kz.report()
      return C.kz_sam_dae_run(a.mi, a.p, a.T, a.H, a.y, a.n, a.tout, yout, nil, nil, r), r
    end
    assert.are.equal(0, (go()))
    local rk = ffi.new("kz_micro")
    rk.type, rk.sys = kz.stepper("rk4"), d.sys
    local st, r = go { mi = rk }; is(C.KZ_EMODEL, "micro.type", st, r)
    st, r = go { T = kz.stepper("rk4") }; is(C.KZ_EMODEL, "macro", st, r)
    st, r = go { T = false }; is(C.KZ_ENULL, "macro", st, r)
    st, r = go { H = -1 }; is(C.KZ_EDOMAIN, "H", st, r)
    st, r = go { n = 0 }; is(C.KZ_EDOMAIN, "nout", st, r)
    st, r = go { tout = kz.vec(1, { math.pi / 2500 * 1.5 }) }; is(C.KZ_EGRID, "tout", st, r)
    st, r = go { y = kz.vec(8, { 0.2, 0.2, 0, 0, 0, 0, 0, 0 }) }; is(C.KZ_EDOMAIN, "y0", st, r)
    local ok, err = pcall(sam.dae, d, { n = 4, period = twopi * eps, H = 1, y0 = y0, tout = { 1 }, macro = "rk4" })
    assert.is_false(ok)
    assert.truthy(err:find("parameter 'macro'", 1, true), err)
  end)

  it("the Lua helpers of lib/lua/kapitza/papers/dpend.lua", function()
    local ok, err = pcall(D.angles, m, y0, "nope")
    assert.is_false(ok)
    assert.truthy(err:find("reading", 1, true), err)
    ok, err = pcall(D.reference_grid, m, "nope", 1, 0.1, { q1 = 0.5, q2 = 0 })
    assert.is_false(ok)
    assert.truthy(err:find("kind", 1, true), err)
    ok, err = pcall(D.reference_end, m, 1, { q1 = 0.5, q2 = 0 }, "direct", 8) -- t_end = 1: not stroboscopic
    assert.is_false(ok)
    assert.truthy(err:find("whole number of periods", 1, true), err)
    ok, err = pcall(D.conv_row, m, { t_end = 1, q1 = 0.5, q2 = 0, stepper = "herk3" }, 4, { q1 = 0, q2 = 0 })
    assert.is_false(ok)
    assert.truthy(err:find("whole number of periods", 1, true), err)
  end)
end)

describe("per-constraint Newton tolerances (kz_constraints.tols) #asan", function()
  it("each constraint meets its own tolerance; a bad one is refused naming con.tols", function()
    local D = require "kapitza.papers.dpend"
    local P = {}
    for _, p in ipairs(D.params) do P[p[1]] = p[2] end
    P.tol, P.tol_scale = 1e-14, "per_rod"
    local m = D.model(P, 1e3)
    assert.are.equal(P.tol * P.l1 * P.l1, m.con.tols[0])
    assert.are.equal(P.tol * P.l2 * P.l2, m.con.tols[1])
    -- a SHAKE step from a consistent state: both residuals within their own tolerance
    local y = kz.vec(8, m.state(D.start(P)))
    kz.call("kz_step_apply", kz.stepper("shake"), m.sys, 0, 1e-5, y, kz.report())
    local res = kz.vec(4)
    kz.call("kz_con_residual", m.sys, y, res, kz.report())
    assert.is_true(math.abs(res[0]) <= m.con.tols[0] and math.abs(res[1]) <= m.con.tols[1],
                   string.format("%g %g", res[0], res[1]))
    -- a tolerance that is not positive is refused at the check
    local bad = kz.vec(2, { 1e-14, 0 })
    m.con.tols = bad
    local r = kz.report()
    assert.are.equal(kz.C.KZ_EDOMAIN, kz.C.kz_con_check(m.sys, r))
    assert.are.equal("con.tols", kz.ffi.string(r.param))
    m.con.tols = m.tols
  end)
end)
