-- top.lua -- what the scenarios of Fredbo's thesis (seed 004, "The Heterogeneous Multiscale Method
-- and the Spinning Top") share: the parameter keys of the top and of the slow-variable HMM, the
-- model from them, slow variables along reference trajectories, errors on the macro grid, Euler
-- angles, a few formatting helpers, and the common parts of Figures 20-21 (xi40_*) and 22-23
-- (vertical*). The numerics are in C (lib/kz_top*.c, kz_hmm_slow.c);
-- the method binding is lib/lua/kapitza/hmm.lua (slow_run), the shared measurements lib/lua/kapitza/experiment.lua.
local kz = require "kapitza"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local E = require "kapitza.experiment"
local S = require "kapitza.scenario"

local M = {}

local function with_defaults(list, d)
  d = d or {}
  local out = {}
  for i, p in ipairs(list) do
    local q = {}
    for k, v in pairs(p) do q[k] = v end
    if d[p[1]] ~= nil then q[2] = d[p[1]] end
    out[i] = q
  end
  return out
end

--- Scenario parameters of the top (Sec. 4.3: the cone M = 5, height 1, radius 0.4 about its tip),
-- with the defaults in d overriding the thesis's.
function M.model_params(d)
  return with_defaults({
    { "M", 5, "kg", "mass of the top", positive = true },
    { "g", 9.81, "m s^-2", "acceleration of gravity" },
    { "l", 0.75, "m", "fixed point to centre of mass (3/4 of the cone's height)" },
    { "I1", 3.12, "kg m^2", "moment of inertia I1 about the tip (cone: 3/5 M (h^2 + r^2/4))", positive = true },
    { "I2", 3.12, "kg m^2", "moment of inertia I2 (= I1: the Lagrange top)", positive = true },
    { "I3", 0.24, "kg m^2", "moment of inertia I3 about the axis (cone: 3/10 M r^2)", positive = true },
    { "theta0", 0.2, "rad", "initial inclination: Gamma0 = (0, sin theta0, cos theta0)" },
  }, d)
end

--- The registry steppers that can integrate the top (its time form y' = f(t, y), dimension 6:
-- those that need only f; kz_step_check decides), in registry order: the choices of a micro key.
M.micros = {}
do
  local sys, r = models.top {}.sys, kz.report()
  for _, name in ipairs(kz.steppers.names) do
    if kz.C.kz_step_check(kz.steppers[name], sys, r) == 0 then M.micros[#M.micros + 1] = name end
  end
end

--- The HMM-<macro>-<micro> scheme names (FE-rk4, LF-ve, ...): the choices of a scheme list.
M.schemes = {}
for _, mac in ipairs(kz.slow_macros.names) do
  for _, mic in ipairs(M.micros) do M.schemes[#M.schemes + 1] = mac .. "-" .. mic end
end

--- Refuse a list parameter with repeated items, and the like (experiment.check_list).
M.check_list = E.check_list

--- Scenario parameters of the slow-variable HMM (Algorithms 3-4), defaults HMM-LF-rk4 with the
-- notes' readings, overridden by d.
function M.method_params(d)
  return with_defaults({
    { "macro", "LF", "", "macro scheme: forward Euler or leapfrog x_{n+1} = x_{n-1} + 2 H delta_n", choices = kz.slow_macros.names },
    { "micro", "rk4", "", "micro-solver (a registry stepper that needs only f; 've' is Fredbo's (35))", choices = M.micros },
    { "kernel", "exp2", "", "averaging kernel (K^exp(2) of (9) for the top)", choices = kz.kernels.names },
    { "weights", "normalised", "", "trapezoid kernel weights normalised to sum 1, or raw K(j/m)/m", choices = { "normalised", "raw" } },
    { "lsq", "minnorm", "", "least-squares solution of grad xi delta = d/dt xi (A7; basic = MATLAB's J\\b)", choices = kz.lsq_kinds.names },
    { "start", "FE", "", "leapfrog start x_1 (A4): one forward Euler step, or Heun", choices = kz.slow_starts.names },
    { "predictor", "none", "", "micro data x_n, or Alg. 4 step 2 as printed, x_n + H delta_{n-1} (A3)", choices = kz.predictors.names },
    { "fd_step", 0, "", "0: analytic gradients of xi; > 0: central differences, steps fd_step max(1, |x_j|)", min = 0 },
  }, d)
end

--- The top of the scenario's parameters P (plus forcing, amp, nu, avg from o).
function M.model(P, o)
  o = o or {}
  if not (P.M * P.g * P.l > 0) and S.current then -- (31): Pi3^ = sqrt(2 M g l I3)
    S.current:fail(string.format("parameters 'g', 'l': the heavy top needs M g l > 0 (Pi3^ = sqrt(2 M g l I3), (31)); got M g l = %g", P.M * P.g * P.l))
  end
  return models.top { M = P.M, g = P.g, l = P.l, I1 = P.I1, I2 = P.I2, I3 = P.I3, forcing = o.forcing,
                      amp = o.amp, nu = o.nu, avg = o.avg }
end

--- The HMM options from the scenario's parameters P, completed by o (H, T, eta, h, x0, set, ...).
function M.hmm_opts(P, o)
  local t = { macro = P.macro, micro = P.micro, kernel = P.kernel, lsq = P.lsq, start = P.start,
              predictor = P.predictor, fd_step = P.fd_step }
  if P.weights == "raw" then t.kernel_constant = kz.C.kz_kernel_constant(kz.kernels[P.kernel]) end
  for k, v in pairs(o or {}) do t[k] = v end
  return t
end

--- Run the slow-variable HMM (hmm.slow_run) with the scenario's method parameters.
function M.run(model, P, o) return hmm.slow_run(model, M.hmm_opts(P, o)) end

--- The slow variables of model.slow[set] along trajectory columns cols (cols[i][n]); the phase
-- of row n is nu * (n - 1) * dt (nu = 0 for the autonomous sets). Returns xi[k][n].
function M.xi(model, set, cols, dt, nu)
  local s = model.slow and model.slow[set]
  if not s then error(string.format("top.xi: the model has no slow set '%s'", tostring(set)), 2) end
  if type(cols) ~= "table" or #cols < s.dim then error("top.xi: cols must hold the " .. s.dim .. " state components", 2) end
  local xb, xr, r = kz.vec(s.r), kz.vec(s.dim), kz.report()
  local out = {}
  for k = 1, s.r do out[k] = {} end
  for n = 1, #cols[1] do
    for i = 1, s.dim do xr[i - 1] = cols[i][n] end
    kz.call("kz_slow_values", s, (nu or 0) * (n - 1) * (dt or 0), xr, xb, nil, r)
    for k = 1, s.r do out[k][n] = xb[k - 1] end
  end
  return out
end

--- A reference solution on the grid t_n = n dt by RK4 with steps <= hmax (E.grid), with its
-- check by step halving: delta[k], the largest change of slow variable k of `set` on the grid
-- when the step is halved (when `check` is set; nil otherwise). Returns cols, xi, delta, counts.
function M.reference(model, set, T, dt, x0, hmax, check, nu)
  local cols, counts = E.grid(model.sys, T, dt, x0, hmax)
  local xi = M.xi(model, set, cols, dt, nu)
  local delta
  if check then
    local xi2 = M.xi(model, set, E.grid(model.sys, T, dt, x0, hmax / 2), dt, nu)
    delta = {}
    for k = 1, #xi do delta[k] = E.maxdiff(xi[k], xi2[k]) end
  end
  return cols, xi, delta, counts
end

--- max_n |a[n] - b[(n - 1) stride + 1]|: an HMM column on its macro grid against a reference
-- sampled `stride` times finer.
function M.maxerr(a, b, stride)
  stride = stride or 1
  if stride < 1 or stride ~= math.floor(stride) then error("top.maxerr: stride must be a whole number >= 1", 2) end
  if #b < (#a - 1) * stride + 1 then
    error(string.format("top.maxerr: the reference has %d rows, %d needed (stride %d)", #b, (#a - 1) * stride + 1, stride), 2)
  end
  local e = 0
  for n = 1, #a do e = math.max(e, math.abs(a[n] - b[(n - 1) * stride + 1])) end
  return e
end

--- Largest absolute value of a column.
function M.maxabs(a)
  local m = 0
  for _, v in ipairs(a) do m = math.max(m, math.abs(v)) end
  return m
end

--- The cone of Sec. 4.3 (Fig. 10; moments about the tip): I1 = I2 = 3/5 M (h^2 + r^2/4),
-- I3 = 3/10 M r^2, centre of mass at l = 3/4 h.
function M.cone(Mass, height, radius)
  for name, v in pairs { Mass = Mass, height = height, radius = radius } do
    if type(v) ~= "number" or not (v > 0) or v == math.huge then error("top.cone: " .. name .. " must be a positive number", 2) end
  end
  return 0.6 * Mass * (height * height + radius * radius / 4), 0.3 * Mass * radius * radius, 0.75 * height
end

--- The Euler angles from slow variables of (32) with I1 = I2: theta = arccos xi2, phi' = xi5 /
-- (I1 xi4) (the inversion of (29)); phi = integral of phi' by the trapezoidal rule on a grid of
-- spacing dt, phi(0) = 0.
function M.euler(xi, I1, dt)
  if type(I1) ~= "number" or not (I1 > 0) then error("top.euler: I1 must be a positive number", 2) end
  if type(dt) ~= "number" or not (dt > 0) then error("top.euler: dt must be a positive number", 2) end
  local th, ph = {}, { 0 }
  for n = 1, #xi[1] do
    th[n] = math.acos(math.max(-1, math.min(1, xi[1][n])))
    if n > 1 then
      local a, b = xi[4][n - 1] / (I1 * xi[3][n - 1]), xi[4][n] / (I1 * xi[3][n])
      ph[n] = ph[n - 1] + 0.5 * dt * (a + b)
    end
  end
  return th, ph
end

--- Number format: 3 significant digits (the thesis's a(-b) style as a.bc e-b). Data files hold
-- full precision (%.17g, scenario.fmt): every value a claim or figure uses (issue 21 item 5).
M.sci = S.sci

--- "x_lo–x_hi" of a list.
M.range = E.range

--- Refuse a run that would store more grid points than fit in memory (experiment.check_points).
M.check_points = E.check_points

--- Figures 22-23: the vertically vibrated top (41) against its averaged equation (48). For the
-- forcing frequency nu and the rod length l: the full top by RK4 (steps <= P.full_h / nu) and the
-- averaged one for each coefficient (corrected, printed, none; steps <= P.avg_h), sampled every
-- fine_dt; errors in Gamma1, Gamma3 as maxima over the check grid (every check_dt) and over the
-- fine grid; the leading-order reconstruction pi ~ Pi + M A l sin(nu t) (Gamma2, -Gamma1, 0)
-- checked on the check grid; the oscillation amplitudes max abs(pi - Pi), nu max abs(gamma - Gamma)
-- on the fine grid; the range of the averaged Gamma3 with (corrected (48)) and without vibration.
--- Check the grids of Figures 22-23 before anything runs (sc:fail, exit 2): fine_dt divides T,
-- check_dt and plot_dt are whole multiples of fine_dt, and the fine grid fits in memory.
function M.vertical_check(sc, P)
  E.check_grid(sc, P.T, P.fine_dt, "parameters 'T', 'fine_dt'")
  for _, k in ipairs { "check_dt", "plot_dt" } do
    local m = P[k] / P.fine_dt
    if math.abs(m - math.floor(m + 0.5)) > 1e-9 * m or m < 0.5 then
      sc:fail(string.format("parameters '%s', 'fine_dt': %s = %g is not a whole multiple of fine_dt = %g", k, k, P[k], P.fine_dt))
    end
  end
end

function M.vertical(P, nu, l, fine_dt, check_dt)
  local q = {}
  for k, v in pairs(P) do q[k] = v end
  q.l = l
  local tops = {}
  for _, a in ipairs(kz.top_avgs.names) do tops[a] = M.model(q, { forcing = "vertical", amp = P.A, nu = nu, avg = a }) end
  local x0 = tops.corrected.x0(P.spin, 0, P.theta0)
  local full = E.grid(tops.corrected.sys, P.T, fine_dt, x0, P.full_h / nu)
  local stride = math.floor(check_dt / fine_dt + 0.5)
  local out = { nu = nu, l = l, full = full, avg = {}, err = {}, x0 = x0, coef = {} }
  local function maxdiff(a, b, step)
    local e = 0
    for n = 1, #a, step do e = math.max(e, math.abs(a[n] - b[n])) end
    return e
  end
  for _, a in ipairs(kz.top_avgs.names) do
    local av = E.grid(tops[a].avg, P.T, fine_dt, x0, P.avg_h)
    out.avg[a] = av
    out.coef[a] = tops[a].constants.avgcoef
    local lo, hi, nlo = math.huge, -math.huge, 1
    for n = 1, #av[6] do
      if av[6][n] < lo then lo, nlo = av[6][n], n end
      hi = math.max(hi, av[6][n])
    end
    out.err[a] = { G1 = maxdiff(full[4], av[4], stride), G3 = maxdiff(full[6], av[6], stride),
                   G1_fine = maxdiff(full[4], av[4], 1), G3_fine = maxdiff(full[6], av[6], 1), G3_min = lo, G3_max = hi,
                   G3_tmin = (nlo - 1) * fine_dt, G3_min_last = nlo == #av[6] }
  end
  local av, MAl = out.avg.corrected, P.M * P.A * l
  -- the leading oscillations of (45)-(47) along the averaged solution: π − Π = MAl sin(ωt)(Γ₂, −Γ₁, 0),
  -- amplitude MAl |(Γ₁, Γ₂)|; ω(γ − Γ) = 2ω x⁽¹⁾ cos(ωt) with (46)'s third component read with "+"
  -- (notes A14 iv; only then Γ·x⁽¹⁾ = 0): amplitude MAl |(Γ₁Γ₃/I₂, Γ₂Γ₃/I₁, Γ₁²/I₂ + Γ₂²/I₁)|
  local lead_pi, lead_gamma = 0, 0
  for n = 1, #av[4] do
    local G1, G2, G3 = av[4][n], av[5][n], av[6][n]
    lead_pi = math.max(lead_pi, MAl * math.sqrt(G1 * G1 + G2 * G2))
    local x1, x2, x3 = G1 * G3 / P.I2, G2 * G3 / P.I1, G1 * G1 / P.I2 + G2 * G2 / P.I1
    lead_gamma = math.max(lead_gamma, MAl * math.sqrt(x1 * x1 + x2 * x2 + x3 * x3))
  end
  out.lead_pi, out.lead_gamma = lead_pi, lead_gamma
  local rec, apl, agm = 0, 0, 0
  for n = 1, #full[1] do
    local t = (n - 1) * fine_dt
    local s = math.sin(nu * t)
    if (n - 1) % stride == 0 then
      rec = math.max(rec, math.abs(full[1][n] - (av[1][n] + MAl * s * av[5][n])), math.abs(full[2][n] - (av[2][n] - MAl * s * av[4][n])))
    end
    for i = 1, 3 do
      apl = math.max(apl, math.abs(full[i][n] - av[i][n]))
      agm = math.max(agm, nu * math.abs(full[3 + i][n] - av[3 + i][n]))
    end
  end
  out.recon, out.amp_pi, out.amp_gamma_nu = rec, apl, agm
  out.G3_avg = { out.err.corrected.G3_min, out.err.corrected.G3_max }
  out.G3_free = { out.err.none.G3_min, out.err.none.G3_max }
  out.G3_free_tmin, out.G3_free_min_last = out.err.none.G3_tmin, out.err.none.G3_min_last
  out.spin_rate = tops.corrected.constants.spin * P.spin
  out.threshold = tops.corrected.constants.threshold
  return out
end

--- The scenario parameters of Figures 22-23 (defaults d).
function M.vertical_params(d)
  local params = M.model_params(d)
  for _, p in ipairs(with_defaults({
    { "omega", 1e2, "s^-1", "vibration frequency nu of (41) (a(t) = A nu cos(nu t))", positive = true },
    { "A", 10, "m s^-1", "vibration amplitude A", min = 0 },
    { "spin", 10, "", "spin multiplier: Pi3 = spin Pi3^ (the 'slowly spinning top')", positive = true },
    { "l_alt", { 0.74 }, "m", "other rod lengths compared (the caption's l = 0.74; list)", positive = true },
    { "avg", "corrected", "", "coefficient of (48) drawn: M^2 A^2 l^2 / 2, the printed M A / 2, or none", choices = kz.top_avgs.names },
    { "T", 2, "s", "span", positive = true },
    { "check_dt", 0.01, "s", "grid of the max-over-time checks (addendum 3)", positive = true },
    { "fine_dt", 1e-4, "s", "fine sampling grid (also reported)", positive = true },
    { "plot_dt", 2e-3, "s", "sampling of the data file", positive = true },
    { "full_h", 2e-3, "1/nu", "RK4 steps of (41) <= full_h / nu", positive = true },
    { "avg_h", 1e-4, "s", "RK4 steps of (48) <= avg_h", positive = true },
  }, d)) do params[#params + 1] = p end
  return params
end

--- Data file and the claims common to Figures 22-23 for the run r of M.vertical; limits
-- = {G3, G1}: the notes' acceptance of the corrected coefficient, applied only when the run is the
-- printed case (off: the reason it is not, from M.off_print).
function M.vertical_output(sc, P, r, limits, off)
  local full, av, pr = r.full, r.avg[P.avg], r.avg.printed
  local every = math.max(1, math.floor(P.plot_dt / P.fine_dt + 0.5))
  local rows = {}
  for n = 1, #full[1], every do
    rows[#rows + 1] = { t = (n - 1) * P.fine_dt, pi1 = full[1][n], gamma1 = full[4][n], gamma3 = full[6][n], P1 = av[1][n], G1 = av[4][n],
                        G3 = av[6][n], G1_printed = pr[4][n], G3_printed = pr[6][n], G3_free = r.avg.none[6][n] }
  end
  sc:write_tsv("data/" .. sc.id .. ".tsv", { "t", "pi1", "gamma1", "gamma3", "P1", "G1", "G3", "G1_printed", "G3_printed", "G3_free" }, rows,
    { string.format("%s: the top (41), A = %g, nu = %g, Pi3 = %g Pi3^, l = %g: pi, gamma by RK4; P, G: averaged (48), coefficient %s; " ..
                    "G*_printed: coefficient M A/2; G3_free: no vibration", sc.id, P.A, r.nu, P.spin, r.l, P.avg) })
  local cl = E.claims(sc)
  local pub = cl.pub
  local c, p, none = r.err.corrected, r.err.printed, r.err.none
  -- against the trivial baseline of ignoring the vibration: meaningful only where the vibration
  -- changes the motion (A = 0 leaves nothing to approximate)
  local vib = E.premise(P.A > 0 and none.G3 >= 1e-6 and none.G1 >= 1e-6,
                        "the vibration changes the motion: ignoring it errs by %.2g, %.2g in Γ₃, Γ₁ (at least %v each; A = %v)", none.G3, none.G1, 1e-6, P.A)
  local function against(e)
    local q3, q1 = e.G3 / none.G3, e.G1 / none.G1
    return q3, q1, { { ok = q3 <= 0.5, label = "Γ₃" }, { ok = q1 <= 0.5, label = "Γ₁" } }
  end
  local why = "the averaging of the vibrated top (41) into (48), at any ω large enough"
  cl:claim { key = "averaged_accurate", text = string.format("(48) approximates the averaged behaviour accurately (ω = %g), corrected coefficient 2a² = %.3f", r.nu, r.coef.corrected),
    published = pub.averaged_accurate, any = why, premises = { vib },
    judge = function()
      local q3, q1, items = against(c)
      return { measured = E.T("max abs ΔΓ₃ = %.3e, max abs ΔΓ₁ = %.3e on the grid %v s (%.3e, %.3e on %v s); %.2f, %.2f of the errors of ignoring the " ..
                              "vibration (%.3e, %.3e; accept ≤ %v each)", c.G3, c.G1, P.check_dt, c.G3_fine, c.G1_fine, P.fine_dt, q3, q1, none.G3, none.G1, 0.5),
               items = items, what = "components" }
    end }
  if not off then -- the notes' limits are the printed case's
    cl:claim { key = "averaged_accurate_notes", text = "the corrected (48) within the notes' limits", published = E.T("— (notes: ≤ %v, %v)", limits[1], limits[2]),
      at = M.print_at(sc, nil, { "l_alt", "avg", "plot_dt", "fine_dt", "full_h", "avg_h" }),
      judge = function()
        return { measured = E.T("%.3e, %.3e", c.G3, c.G1), items = { c.G3 <= limits[1], c.G1 <= limits[2] }, what = "components" }
      end }
  else
    cl:claim { key = "averaged_accurate_notes", text = "the corrected (48) within the notes' limits", published = E.T("— (notes: ≤ %v, %v)", limits[1], limits[2]),
      at = M.print_at(sc, nil, { "l_alt", "avg", "plot_dt", "fine_dt", "full_h", "avg_h" }) }
  end
  cl:claim { key = "printed_coefficient", text = string.format("(48) as printed, coefficient MA/2 = %g", r.coef.printed), published = pub.printed_coefficient,
    any = why, premises = { vib },
    judge = function()
      local q3, q1, items = against(p)
      return { measured = E.T("max abs ΔΓ₃ = %.3e, max abs ΔΓ₁ = %.3e: %.2f, %.2f of the errors of ignoring the vibration (%.3e, %.3e; accept ≤ %v each)",
                              p.G3, p.G1, q3, q1, none.G3, none.G1, 0.5), items = items, what = "components" }
    end }
  -- "O(1)" and "O(ω⁻¹)" are judged against the leading terms of (47) at the run's M, A, l and
  -- inertia (fixed bands said no below A ≈ 1.3): within a factor 2 of MAl|(Γ₁, Γ₂)| for π, and for
  -- ω(γ − Γ) between half the amplitude and twice the peak-to-peak (the averaged Γ starts at γ(0),
  -- not at the oscillation's mean)
  cl:claim { key = "amplitudes", text = "Π oscillates with amplitude O(1), Γ with amplitude O(ω⁻¹)", published = pub.amplitudes, any = why, premises = { vib },
    judge = function()
      local qp, qg = r.amp_pi / r.lead_pi, r.amp_gamma_nu / r.lead_gamma
      return { measured = E.T("max abs(π − Π) = %.3g, %.2f × the leading term of (47) MAl max |(Γ₁, Γ₂)| = %.3g; ω·max abs(γ − Γ) = %.3g, %.2f × its %.3g " ..
                              "(accept [%v, %v], [%v, %v])", r.amp_pi, qp, r.lead_pi, r.amp_gamma_nu, qg, r.lead_gamma, 0.5, 2, 0.5, 4),
               items = { { ok = qp >= 0.5 and qp <= 2, label = "Π" }, { ok = qg >= 0.5 and qg <= 4, label = "Γ" } }, what = "amplitudes" }
    end }
  cl:claim { key = "falls_without_vibration", text = string.format("the slowly spinning top (Π₃ = %gΠ̂₃) is no longer prevented from falling down", P.spin),
    published = pub.falls_without_vibration, any = "the top without vibration at the run's spin, judged against Theorem 2's threshold",
    -- without vibration the top nutates periodically: a fall not seen in [0, T] may come later,
    -- unless Γ₃ has passed its lowest point (its minimum before T) or fallen already
    premises = { E.premise(r.G3_free[1] < 0.5 or not r.G3_free_min_last,
                           "the free top's lowest point inside [%v, T]: Γ₃ below %v, or its minimum before T (this run: min Γ₃ = %.6f at t = %v, T = %v)", 0, 0.5,
                           r.G3_free[1], r.G3_free_tmin, P.T) },
    judge = function()
      return { measured = E.T("without vibration Γ₃ ∈ [%.6f, %.6f] over [%v, %v]: %s; Ω₃ = %.1f rad/s %s %.2f rad/s (Theorem 2); " ..
                              "with vibration the averaged Γ₃ ∈ [%.6f, %.6f] (a fall: Γ₃ below %v)", r.G3_free[1], r.G3_free[2], 0, P.T,
                              r.G3_free[1] < 0.5 and "it falls" or "it does not fall", r.spin_rate, r.spin_rate > r.threshold and ">" or "≤",
                              r.threshold, r.G3_avg[1], r.G3_avg[2], 0.5),
               items = { r.G3_free[1] < 0.5 }, what = "fall" }
    end }
  return cl
end

--- The errors of (48) for the runs rr of M.vertical, written at full precision to
-- tables/<id>-errors.tsv (one row per frequency, rod length and coefficient, with the run's
-- reconstruction error and amplitudes); returns the Markdown table.
function M.vertical_errors(sc, rr)
  local rows, body = {}, {}
  for _, r in ipairs(rr) do
    for _, a in ipairs(kz.top_avgs.names) do
      local e = r.err[a]
      rows[#rows + 1] = { omega = r.nu, l = r.l, coefficient = a, value = r.coef[a], dG3 = e.G3, dG1 = e.G1, dG3_fine = e.G3_fine,
                          dG1_fine = e.G1_fine, G3_min = e.G3_min, G3_max = e.G3_max, recon = r.recon, amp_pi = r.amp_pi,
                          amp_gamma_nu = r.amp_gamma_nu }
      body[#body + 1] = { string.format("%g", r.nu), string.format("%g", r.l), a, string.format("%.3f", r.coef[a]), string.format("%.3e", e.G3),
                          string.format("%.3e", e.G1), string.format("%.3e", e.G3_fine), string.format("%.3e", e.G1_fine),
                          string.format("[%.6f, %.6f]", e.G3_min, e.G3_max) }
    end
  end
  sc:write_tsv("tables/" .. sc.id .. "-errors.tsv", { "omega", "l", "coefficient", "value", "dG3", "dG1", "dG3_fine", "dG1_fine", "G3_min",
                                                      "G3_max", "recon", "amp_pi", "amp_gamma_nu" }, rows,
    { sc.id .. ": max abs errors of the averaged (48) against (41) in Gamma3, Gamma1 on the check grid and the fine grid; G3_min, G3_max: " ..
      "the averaged Gamma3's range; recon, amp_pi, amp_gamma_nu: the run's reconstruction error of pi1, pi2 (corrected coefficient), " ..
      "max abs(pi - Pi), omega max abs(gamma - Gamma)" })
  return S.md_table({ "ω", "l", "coefficient", "value", "ΔΓ₃", "ΔΓ₁", "ΔΓ₃ (fine)", "ΔΓ₁ (fine)", "averaged Γ₃" }, body)
end

--- Write the claims table cl as tables/<id>.tsv, and tables/<id>.md as the Markdown `pre`
-- (the artefact's own table, may be nil) followed by the claims and the note.
function M.write_claims(sc, cl, pre, note)
  sc:write_tsv("tables/" .. sc.id .. ".tsv", cl:tsv_rows())
  sc:write_text("tables/" .. sc.id .. ".md", (pre and (pre .. "\n") or "") .. cl:md(note))
end

--- The scenario parameters of Figures 20-21 (the forced top (38) with the slow variables (40),
-- Algorithm 4 against an RK4 reference): the top's, then those below with the defaults d, then
-- the entry ref_sub (the figures sample the reference differently), then the method's.
function M.xi40_params(d, ref_sub)
  local params = M.model_params()
  for _, p in ipairs(with_defaults({
    { "omega", 1e3, "", "spin multiplier: Pi3 = omega Pi3^", positive = true },
    { "amp_w", 1, "", "forcing amplitude amp = amp_w omega (39: 1)" },
    { "nu_w", 1, "", "forcing frequency nu = nu_w omega (39: 1)", positive = true },
    { "Pi1w", 1, "", "initial Pi1 = Pi1w / omega" },
    { "T", 0.02, "s", "final time", positive = true },
    { "N_printed", 300, "", "the thesis's macro steps H = T/N (reported; diverges)", integer = true, min = 2 },
    { "N", 600, "", "macro steps of the figure", integer = true, min = 2 },
    { "h", 1e-7, "s", "micro step", positive = true },
    { "eta_h", 6, "", "window eta = eta_h h (even; the thesis's 5 is not centred)", integer = true, min = 2 },
    { "time", "literal", "", "explicit time dependence of xi in the solve (A13)", choices = kz.slow_times.names },
    { "ref_h", 1e-7, "s", "reference RK4 step (the thesis's)", positive = true },
  }, d)) do params[#params + 1] = p end
  params[#params + 1] = ref_sub
  for _, p in ipairs(M.method_params()) do params[#params + 1] = p end
  return params
end

--- Figures 20-21: the forced top (38) of the parameters P (the transverse torque a(t) = amp_w
-- omega cos(nu t), nu = nu_w omega), its initial state, and the reference (40) variables by RK4
-- (steps <= ref_h) on the grid dt = T / Nref, Nref = N ref_sub; check: with the step-halving
-- check (M.reference's delta). Returns { nu, model, x0, Nref, dt, rxi, delta }.
function M.xi40_setup(P, check)
  local X = { nu = P.nu_w * P.omega }
  X.model = M.model(P, { forcing = "transverse", amp = P.amp_w * P.omega, nu = X.nu })
  X.x0 = X.model.x0(P.omega, P.Pi1w / P.omega, P.theta0)
  X.Nref = P.N * P.ref_sub
  X.dt = P.T / X.Nref
  local _
  _, X.rxi, X.delta = M.reference(X.model, "40", P.T, X.dt, X.x0, P.ref_h, check, X.nu)
  return X
end

--- One HMM run of Figures 20-21 (set (40), allowed to fail) of the set-up X with H = T/N and the
-- parameters P, overridden by o (e.g. h, eta_h, time). Returns xi, the work, the failure message
-- (nil when it ran through) and the number of valid rows.
function M.xi40_run(X, P, N, o)
  local q = {}
  for k, v in pairs(P) do q[k] = v end
  for k, v in pairs(o or {}) do q[k] = v end
  local _, xi, w, nvalid, msg = M.run(X.model, q, { set = "40", H = P.T / N, T = P.T, eta = q.eta_h * q.h, h = q.h, x0 = X.x0,
                                                    time = q.time, allow_fail = true })
  return xi, w, msg, nvalid
end

--- data/<id>-ref.tsv of Figures 20-21: the reference xi2, xi3 (8 digits; with all, also xi4, xi5
-- to 10 digits) and the trivial baseline Pi1 = Pi2 = 0 on the reference grid; what: the comment's
-- name of the reference.
function M.xi40_write_ref(sc, X, P, all, what)
  local rxi, rows = X.rxi, {}
  for n = 1, #rxi[1] do
    local t = (n - 1) * X.dt
    rows[n] = { t = t, xi2 = (rxi[1][n]), xi3 = (rxi[2][n]), xi2_pi0 = (-math.sin(X.nu * t)),
                xi3_pi0 = (math.cos(X.nu * t)) }
    if all then rows[n].xi4, rows[n].xi5 = string.format("%.10g", rxi[3][n]), string.format("%.10g", rxi[4][n]) end
  end
  local cols = all and { "t", "xi2", "xi3", "xi4", "xi5", "xi2_pi0", "xi3_pi0" } or { "t", "xi2", "xi3", "xi2_pi0", "xi3_pi0" }
  sc:write_tsv("data/" .. sc.id .. "-ref.tsv", cols, rows,
    { sc.id .. ": " .. what .. " by RK4, h = " .. P.ref_h .. "; xi2_pi0, xi3_pi0: the trivial baseline Pi1 = Pi2 = 0 (-sin nu t, cos nu t)" })
end

--- Figures 20-21: the HMM's xi2 = Pi1 - sin(nu t), xi3 = Pi2 + cos(nu t) of (40) (xi[1], xi[2] on
-- the macro nodes t_n = n H; msg: the run's failure, if any) against the reference rxi sampled
-- `stride` times finer, and against the trivial baseline Pi1 = Pi2 = 0, i.e. xi2 = -sin(nu t),
-- xi3 = cos(nu t). Returns the claim's evidence: items (each of xi2, xi3 at most half the baseline's
-- error, and at most 2 % of its amplitude) and the measured text (E.T), with the numbers: e
-- (errors), base (the baseline's errors), amp (max abs of the reference), pi_hmm and pi_ref (max
-- abs of Pi1, Pi2 recovered from the HMM's and the reference's xi2, xi3).
function M.xi40_baseline(xi, rxi, stride, nu, H, msg)
  if msg then return { text = E.T("the HMM run fails: %s", E.quote(msg)), items = { { ok = false, label = "the run completes" } } } end
  local r = { e = { 0, 0 }, base = { 0, 0 }, amp = { 0, 0 }, pi_hmm = { 0, 0 }, pi_ref = { 0, 0 } }
  for n = 1, #xi[1] do
    local t = (n - 1) * H
    local b = { -math.sin(nu * t), math.cos(nu * t) }
    for k = 1, 2 do
      local ref = rxi[k][(n - 1) * stride + 1]
      r.e[k] = math.max(r.e[k], math.abs(xi[k][n] - ref))
      r.base[k] = math.max(r.base[k], math.abs(b[k] - ref))
      r.pi_hmm[k] = math.max(r.pi_hmm[k], math.abs(xi[k][n] - b[k]))
      r.pi_ref[k] = math.max(r.pi_ref[k], math.abs(ref - b[k]))
    end
  end
  for k = 1, 2 do r.amp[k] = M.maxabs(rxi[k]) end
  local q = { r.e[1] / r.base[1], r.e[2] / r.base[2] }
  local beats = q[1] <= 0.5 and q[2] <= 0.5
  r.items = { { ok = q[1] <= 0.5, label = "ξ₂ against the baseline" }, { ok = q[2] <= 0.5, label = "ξ₃ against the baseline" },
              { ok = r.e[1] <= 0.02 * r.amp[1], label = "ξ₂ within 2 % of its amplitude" }, { ok = r.e[2] <= 0.02 * r.amp[2], label = "ξ₃ within 2 % of its amplitude" } }
  r.text = E.T("max errors on t_n = nH: ξ₂ %.3f, ξ₃ %.3f (%.0f %%, %.0f %% of their amplitudes %.2f, %.2f); the trivial baseline " ..
               "Π₁ = Π₂ = %v (ξ₂ = −sin νt, ξ₃ = cos νt) errs by %.3f, %.3f: the HMM's errors are %.2f, %.2f of it (accept ≤ %v " ..
               "and ≤ %v %% of the amplitude); the HMM's Π₁, Π₂ reach max abs %.3f, %.3f against %.3f, %.3f in the reference%s",
               r.e[1], r.e[2], 100 * r.e[1] / r.amp[1], 100 * r.e[2] / r.amp[2], r.amp[1], r.amp[2], 0,
               r.base[1], r.base[2], q[1], q[2], 0.5, 2, r.pi_hmm[1], r.pi_hmm[2], r.pi_ref[1], r.pi_ref[2],
               beats and "" or ": ξ₂, ξ₃ look right through their explicit −sin νt, cos νt, not through the HMM")
  return r
end

--- Whether the run is the printed case for the parameters `keys` (names of the scenario's
-- parameters; default: every parameter of the scenario but those in `free`, the keys that only
-- select which cells are run or set the accuracy of references and plots). The printed case is
-- the scenario's defaults (its reading of the paper). Returns nil when every key has its default,
-- else the reason a claim about the printed case does not apply to this run, naming each key
-- that differs ("not the printed case: omega = 2000 (printed 1000)"), for E.na.
function M.off_print(sc, P, keys, free)
  local skip = {}
  for _, k in ipairs(free or {}) do skip[k] = true end
  if not keys then
    keys = {}
    for _, p in ipairs(sc.params) do if not skip[p[1]] then keys[#keys + 1] = p[1] end end
  end
  local function show(v)
    if type(v) ~= "table" then return type(v) == "number" and string.format("%g", v) or tostring(v) end
    local t = {}
    for i, x in ipairs(v) do t[i] = show(x) end
    return table.concat(t, ",")
  end
  local function same(a, b)
    if type(a) ~= "table" or type(b) ~= "table" then return a == b end
    if #a ~= #b then return false end
    for i = 1, #a do if a[i] ~= b[i] then return false end end
    return true
  end
  local diff = {}
  for _, k in ipairs(keys) do
    local p = sc.byname[k]
    if not p then error("top.off_print: the scenario has no parameter '" .. tostring(k) .. "'", 2) end
    if not same(P[k], p[2]) then diff[#diff + 1] = string.format("%s = %s (printed %s)", k, show(P[k]), show(p[2])) end
  end
  if #diff == 0 then return nil end
  return "not the printed case: " .. table.concat(diff, ", ")
end

--- The printed case of the keys `keys` (default: every parameter but those in `free`), as the
-- `at` of a claim (experiment.paper_at): compared only where the run has these values.
function M.print_at(sc, keys, free)
  local skip = {}
  for _, k in ipairs(free or {}) do skip[k] = true end
  if not keys then
    keys = {}
    for _, p in ipairs(sc.params) do if not skip[p[1]] then keys[#keys + 1] = p[1] end end
  end
  return E.paper_at(sc, keys)
end

--- "yes"/"no" style acceptance: |x - want| <= rel |want|.
function M.within(x, want, rel) return math.abs(x - want) <= rel * math.abs(want) end

return M
