-- dpend.lua -- the vertically vibrated double pendulum of Calvo & Sanz-Serna, Sec. 4 (Figure 4.1:
-- the SHAKE-SHAKE and RATTLE-SHAKE HMMs) and of Calvo, Chartier, Murua & Sanz-Serna, Sec. 6
-- (Figure 6: SAM for index-2 DAEs with HERK3): the model from scenario parameters, angles and
-- constraint residuals, the reference solutions in angle coordinates, the runs as rows. All
-- stepping happens in C (lib/methods/kz_hmm_dae.c, lib/methods/kz_sam_dae.c, the registry); this module
-- configures and collects. The claims of the two figures are in lib/lua/kapitza/papers/dpend_claims.lua.
local kz = require "kapitza"
local E = require "kapitza.experiment"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"

local D = {}

--- The physical and solver parameters both scenarios share (Calvo & Sanz-Serna Sec. 4.2 =
-- Calvo et al. Sec. 6.2), in the scenario.lua format.
D.params = {
  { "m1", 0.01, "kg", "mass of the first bob", positive = true },
  { "m2", 0.005, "kg", "mass of the second bob", positive = true },
  { "l1", 0.2, "m", "length of rod 1 (pivot to m1)", positive = true },
  { "l2", 0.1, "m", "length of rod 2 (m1 to m2)", positive = true },
  { "g", 9.8, "m s^-2", "acceleration of gravity" },
  { "vmax", 4, "m s^-1", "amplitude of the pivot velocity: a(t) = vmax omega cos(omega t)" },
  { "q1", 0.5, "rad", "initial angle of rod 1 from the upward vertical (at rest)" },
  { "q2", 0, "rad", "initial angle of rod 2 from the upward vertical (at rest)" },
  { "tol", 1e-15, "", "Newton tolerance of every constraint solve, times max(l1, l2)^2 (tol_scale = common)", positive = true },
  { "tol_scale", "common", "", "the Newton tolerance of rod i: tol max(l1, l2)^2 for both (common), or tol l_i^2, each constraint in its own units (per_rod)",
    choices = { "common", "per_rod" } },
  { "max_iter", 50, "", "Newton updates allowed per constraint solve", positive = true, integer = true },
}

--- A scenario's own parameters followed by the shared ones.
function D.with_params(own)
  local t = {}
  for _, p in ipairs(own) do t[#t + 1] = p end
  for _, p in ipairs(D.params) do t[#t + 1] = p end
  return t
end

--- The model at angular frequency omega (omega = 1/eps in Calvo et al.).
function D.model(P, omega)
  local l = math.max(P.l1, P.l2)
  return models.dpend { m1 = P.m1, m2 = P.m2, l1 = P.l1, l2 = P.l2, g = P.g, vmax = P.vmax, omega = omega,
                        tol = P.tol * l * l, max_iter = P.max_iter,
                        tols = P.tol_scale == "per_rod" and { P.tol * P.l1 * P.l1, P.tol * P.l2 * P.l2 } or nil }
end

--- The initial angles and angular velocities (at rest).
function D.start(P) return { P.q1, P.q2, 0, 0 } end

--- q1 and q2 of a Cartesian state: q2 the absolute angle of rod 2 (reading 'text', Calvo &
-- Sanz-Serna Sec. 4.2: q2 = arctan((x2 - x1)/(y2 - y1))) or the angle between the rods
-- (reading 'caption' of Fig. 4.1: q2 - q1).
function D.angles(model, y, reading)
  local a, b = model.angles(y)
  if reading == "caption" then b = b - a elseif reading ~= nil and reading ~= "text" then
    error("dpend.angles: reading must be 'text' or 'caption' (got " .. tostring(reading) .. ")", 2)
  end
  return a, b
end

--- The angular velocities q1', q2' of a Cartesian state y = (x1, y1, x2, y2, u1, v1, u2, v2):
-- the time derivatives of q1 = atan2(x1, y1) and q2 = atan2(x2 - x1, y2 - y1) (the rod angles
-- of model.angles), or of q2 - q1 in the reading 'caption'.
function D.rates(y, reading)
  local x1, y1, dx, dy = y[1], y[2], y[3] - y[1], y[4] - y[2]
  local a = (y1 * y[5] - x1 * y[6]) / (x1 * x1 + y1 * y1)
  local b = (dy * (y[7] - y[5]) - dx * (y[8] - y[6])) / (dx * dx + dy * dy)
  if reading == "caption" then b = b - a end
  return a, b
end

--- Relative constraint residuals of a Cartesian state: max_i |g_i| / l_i^2 and
-- max_i |(G v)_i| / (2 (l1 + l2) max |v|).
function D.residual(model, y)
  local g1, g2, v1, v2 = model.residual(y)
  local l1, l2 = model.par.l1, model.par.l2
  local vm = 1e-300
  for i = 5, 8 do vm = math.max(vm, math.abs(y[i])) end
  return math.max(math.abs(g1) / (l1 * l1), math.abs(g2) / (l2 * l2)),
         math.max(math.abs(v1), math.abs(v2)) / (2 * (l1 + l2) * vm)
end

--- n = x / unit as a whole number (relative 1e-9), else nil.
function D.whole(x, unit)
  local r = x / unit
  local k = math.floor(r + 0.5)
  if k >= 1 and math.abs(r - k) <= 1e-9 * k then return k end
  return nil
end

---------------------------------------------------------------------------------------------------
-- Figure 4.1: the constrained HMM
---------------------------------------------------------------------------------------------------

D.schemes = { ["shake-shake"] = "SHAKE-SHAKE", ["rattle-shake"] = "RATTLE-SHAKE", names = { "shake-shake", "rattle-shake" } }

--- One run of the constrained HMM (scheme 'shake-shake' | 'rattle-shake') with macro step H to
-- P.T, micro step h = (2 pi/omega)(H/P.Tmacro), the kernel P.filter (default 'uniform': the simple
-- filter (2.16)) on the half window of P.periods (default 1) vibration periods. Returns
-- { method, H, omega, N, K, t, q1, q2, dq1, dq2 (per node n = 0..N; dq = the angular velocities of
-- the macro velocities: SHAKE's V_{n-1/2}, RATTLE's V_n), L1, L2 (per step n = 0..N-1: the
-- SHAKE multiplier Lambda_n; for RATTLE the SHAKE-equivalent (Lambda_v,n-1 + Lambda_x,n)/2,
-- Lambda_x,0 at n = 0), rg, rv (largest relative residuals over the nodes), c (counts) }.
function D.hmm(model, scheme, H, P)
  local omega = model.par.omega
  local period = 2 * math.pi / omega
  local eta, h = (P.periods or 1) * period, period * H / P.Tmacro
  local Y, L, c = hmm.dae_run(model, { preset = scheme, H = H, T = P.T, eta = eta, h = h, kernel = P.filter },
                              model.state(D.start(P)))
  local run = { method = D.schemes[scheme], H = H, omega = omega, N = #Y - 1, K = D.whole(0.5 * eta, h),
                t = {}, q1 = {}, q2 = {}, dq1 = {}, dq2 = {}, L1 = {}, L2 = {}, rg = 0, rv = 0, c = c }
  for n = 1, #Y do
    run.t[n] = (n - 1) * H
    run.q1[n], run.q2[n] = D.angles(model, Y[n], P.q2_reading)
    run.dq1[n], run.dq2[n] = D.rates(Y[n], P.q2_reading)
    local rg, rv = D.residual(model, Y[n])
    run.rg = math.max(run.rg, rg)
    if scheme == "rattle-shake" then run.rv = math.max(run.rv, rv) end
  end
  for n = 1, #L do
    if scheme == "rattle-shake" then
      local a1, a2 = L[n][1], L[n][2] -- Lambda_x,n
      if n > 1 then a1, a2 = 0.5 * (a1 + L[n - 1][3]), 0.5 * (a2 + L[n - 1][4]) end
      run.L1[n], run.L2[n] = a1, a2
    else
      run.L1[n], run.L2[n] = L[n][1], L[n][2]
    end
  end
  return run
end

--- A reference solution in angle coordinates on the grid t_j = j dt, j = 0..T/dt: kind 'direct'
-- (the Lagrangian ODE at the model's omega by RK4 with at most 2 pi/(omega steps) per step: the
-- true oscillatory motion) or 'averaged' (the omega -> infinity equations by RK4 with steps of
-- at most hmax). Returns { t, q1, q2, dq1, dq2 } (q2 in the reading P.q2_reading, dq the angular
-- velocities) and the counts.
function D.reference_grid(model, kind, T, dt, P, steps, hmax)
  local s, h
  if kind == "direct" then s, h = model.lagrange, 2 * math.pi / model.par.omega / steps
  elseif kind == "averaged" then s, h = model.avg, hmax
  else error("dpend.reference_grid: kind must be 'direct' or 'averaged'", 2) end
  local cols, c = E.grid(s, T, dt, D.start(P), h)
  local ref = { t = {}, q1 = cols[1], q2 = {}, dq1 = cols[3], dq2 = {} }
  for j = 1, #cols[1] do
    ref.t[j] = (j - 1) * dt
    ref.q2[j] = P.q2_reading == "caption" and cols[2][j] - cols[1][j] or cols[2][j]
    ref.dq2[j] = P.q2_reading == "caption" and cols[4][j] - cols[3][j] or cols[4][j]
  end
  return ref, c
end

--- max_n |run[key][n] - ref[key][stride (n - 1) + 1]| over the run's nodes.
function D.maxerr(run, ref, key, stride)
  local e = 0
  for n = 1, #run[key] do e = math.max(e, math.abs(run[key][n] - ref[key][stride * (n - 1) + 1])) end
  return e
end

---------------------------------------------------------------------------------------------------
-- Figure 6: SAM and conventional HERK3
---------------------------------------------------------------------------------------------------

--- The reference q1, q2 at t_end (a stroboscopic time) for the model's eps = 1/omega: kind
-- 'direct' (the Lagrangian ODE, Dormand-Prince 5 with m and 2m fixed steps per period,
-- Richardson, m doubled until the estimate for q1, q2 is below P.ref_tol (1e-9). It replaced RK4
-- with 64/128 steps (issue 20: the long pole of make figures): at eps = 1e-6 DP5 with m = 24 costs
-- 46 % of that and lands 2.5e-11 from the notes' independent value, RK4's 5e-10; at eps = 1e-4
-- RK4/64 was 1.0e-9 from the converged value 0.1017049850977 (DP5 with 192/384 steps), DP5 with
-- m = 48 is 5e-11 from it) or 'averaged'
-- (the omega -> infinity equations, RK4 with m and 2m steps per t_end / 1000, Richardson; its
-- distance to the true stroboscopic values is O(eps)). Returns { q1, q2, est1, est2, kind }.
function D.reference_end(model, t_end, P, kind, m)
  local states, _, ests
  if kind == "direct" then
    local per = D.whole(t_end, 2 * math.pi / model.par.omega)
    if not per then error("dpend.reference_end: t_end is not a whole number of periods", 2) end
    -- m doubled (at most 4 times) until the Richardson estimate of q1 and q2 is below P.ref_tol;
    -- the run with 2m steps of one pass is the coarse run of the next (computed once)
    local tol, fine = P.ref_tol or 1e-9, nil
    for _ = 0, 4 do
      states, _, ests, fine = E.richardson(model.lagrange, D.start(P), t_end, 1, per * m, "dp5", 5, fine)
      if math.max(ests[1], ests[2]) <= tol then break end
      m = 2 * m
    end
  elseif kind == "averaged" then
    states, _, ests = E.richardson(model.avg, D.start(P), t_end, 1, 1000 * m)
  else
    error("dpend.reference_end: kind must be 'direct' or 'averaged'", 2)
  end
  return { q1 = states[1][1], q2 = states[1][2], est1 = ests[1], est2 = ests[2], kind = kind, m = m }
end

local function row(method, eps, N, n, model, y, ref, c)
  local q1, q2 = model.angles(y)
  local dq1, dq2 = D.rates(y)
  local rg, rv = D.residual(model, y)
  return { method = method, eps = eps, N = N, n = n, work = c.micro_steps, error = math.abs(q1 - ref.q1),
           error_q2 = math.abs(q2 - ref.q2), q1 = q1, q2 = q2, dq1 = dq1, dq2 = dq2, res_g = rg, res_v = rv,
           newton = c.newton_iters, solves = (c.micro_pos_solves or c.pos_solves) + (c.macro_pos_solves or 0), c = c }
end

--- SAM (P.macro, default HERK3, as macro-solver; P.stepper, default HERK3, as micro-solver;
-- central differences (25)) with N macro steps of H = t_end / N and n micro-steps per period
-- 2 pi eps, from t0 = 0. A row of the efficiency table (plus q1, q2, dq1, dq2 at t_end,
-- error_q2, res_g, res_v, newton, solves and the counts c). With nodes = true the row also
-- carries nodes = {t, q1, q2, dq1, dq2} at every macro node t_k = k H, k = 0..N.
function D.sam_row(model, P, N, n, ref, nodes)
  local eps = 1 / model.par.omega
  local H = P.t_end / N
  local tout = { P.t_end }
  if nodes then for k = 1, N do tout[k] = k < N and k * H or P.t_end end end
  local y0 = model.state(D.start(P))
  local ys, _, c = sam.dae(model, { n = n, period = 2 * math.pi * eps, H = H, y0 = y0,
                                    tout = tout, diff = P.diff, micro = P.stepper, macro = P.macro or "herk3" })
  local r = row("SAM", eps, N, n, model, ys[#ys], ref, c)
  if nodes then
    r.nodes = {}
    for k = 0, N do
      local y = k == 0 and y0 or ys[k]
      local q1, q2 = model.angles(y)
      local dq1, dq2 = D.rates(y)
      r.nodes[k + 1] = { t = k == N and P.t_end or k * H, q1 = q1, q2 = q2, dq1 = dq1, dq2 = dq2 }
    end
  end
  return r
end

--- The conventional integration with P.stepper (HERK3) and h = 2 pi eps / n to t_end (N = 0).
function D.conv_row(model, P, n, ref)
  local eps = 1 / model.par.omega
  local per = D.whole(P.t_end, 2 * math.pi * eps)
  if not per then error(string.format("t_end is not a whole number of periods 2 pi eps (eps = %g)", eps), 2) end
  local y, c = sam.dae_conventional(model, { stepper = P.stepper, n = n, period = 2 * math.pi * eps, steps = per * n,
                                             y0 = model.state(D.start(P)) })
  return row("conventional", eps, 0, n, model, y, ref, c)
end

return D
