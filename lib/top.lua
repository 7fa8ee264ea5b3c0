-- top.lua -- what the scenarios of Fredbo's thesis (seed 004, "The Heterogeneous Multiscale Method
-- and the Spinning Top") share: the parameter keys of the top and of the slow-variable HMM, the
-- model from them, slow variables along reference trajectories, errors on the macro grid, Euler
-- angles, and a few formatting helpers. The numerics are in C (lib/kz_top*.c, kz_hmm_slow.c);
-- the method binding is lib/hmm.lua (slow_run), the shared measurements lib/experiment.lua.
local kz = require "kapitza"
local models = require "models"
local hmm = require "hmm"
local E = require "experiment"
local S = require "scenario"

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

--- Number formats: 3 significant digits (the thesis's a(-b) style as a.bc e-b), and a compact
-- string of a number for data files (8 significant digits keep plotting files small).
M.sci = S.sci
function M.short(x) return string.format("%.8g", x) end

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
    out.err[a] = { G1 = maxdiff(full[4], av[4], stride), G3 = maxdiff(full[6], av[6], stride),
                   G1_fine = maxdiff(full[4], av[4], 1), G3_fine = maxdiff(full[6], av[6], 1) }
  end
  local av, MAl = out.avg.corrected, P.M * P.A * l
  local rec, apl, agm = 0, 0, 0
  local lo, hi, ulo, uhi = math.huge, -math.huge, math.huge, -math.huge
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
    lo, hi = math.min(lo, av[6][n]), math.max(hi, av[6][n])
    ulo, uhi = math.min(ulo, out.avg.none[6][n]), math.max(uhi, out.avg.none[6][n])
  end
  out.recon, out.amp_pi, out.amp_gamma_nu = rec, apl, agm
  out.G3_avg, out.G3_free = { lo, hi }, { ulo, uhi }
  out.spin_rate = tops.corrected.constants.spin * P.spin
  out.threshold = tops.corrected.constants.threshold
  out.MAl_sin = MAl * math.sin(P.theta0)
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
-- = {G3, G1, printed_G1} (the notes' acceptance for the corrected and the printed coefficient).
function M.vertical_output(sc, P, r, limits)
  local full, av, pr = r.full, r.avg[P.avg], r.avg.printed
  local every = math.max(1, math.floor(P.plot_dt / P.fine_dt + 0.5))
  local rows = {}
  for n = 1, #full[1], every do
    rows[#rows + 1] = { t = (n - 1) * P.fine_dt, pi1 = M.short(full[1][n]), gamma1 = M.short(full[4][n]), gamma3 = M.short(full[6][n]),
                        P1 = M.short(av[1][n]), G1 = M.short(av[4][n]), G3 = M.short(av[6][n]), G1_printed = M.short(pr[4][n]),
                        G3_printed = M.short(pr[6][n]), G3_free = M.short(r.avg.none[6][n]) }
  end
  sc:write_tsv("data/" .. sc.id .. ".tsv", { "t", "pi1", "gamma1", "gamma3", "P1", "G1", "G3", "G1_printed", "G3_printed", "G3_free" }, rows,
    { string.format("%s: the top (41), A = %g, nu = %g, Pi3 = %g Pi3^, l = %g: pi, gamma by RK4; P, G: averaged (48), coefficient %s; " ..
                    "G*_printed: coefficient M A/2; G3_free: no vibration", sc.id, P.A, r.nu, P.spin, r.l, P.avg) })
  local cl = E.claims(sc)
  local pub = cl.pub
  local c, p = r.err.corrected, r.err.printed
  cl:add("averaged_accurate", string.format("(48) approximates the averaged behaviour accurately (ω = %g), corrected coefficient 2a² = %.3f", r.nu, r.coef.corrected),
         pub.averaged_accurate,
         string.format("max abs ΔΓ₃ = %.4f, max abs ΔΓ₁ = %.4f on the grid %g s (%.4f, %.4f on %g s) (notes: ≤ %g, %g)", c.G3, c.G1,
                       P.check_dt, c.G3_fine, c.G1_fine, P.fine_dt, limits[1], limits[2]),
         c.G3 <= limits[1] and c.G1 <= limits[2])
  cl:add("printed_coefficient", string.format("(48) as printed, coefficient MA/2 = %g", r.coef.printed), pub.printed_coefficient,
         string.format("max abs ΔΓ₃ = %.4f, max abs ΔΓ₁ = %.4f: no better than ignoring the vibration (%.4f, %.4f) (accurate would be ΔΓ₁ < %g)",
                       p.G3, p.G1, r.err.none.G3, r.err.none.G1, limits[3]),
         p.G1 < limits[3])
  cl:add("amplitudes", "Π oscillates with amplitude O(1), Γ with amplitude O(ω⁻¹)", pub.amplitudes,
         string.format("max abs(π − Π) = %.2f (MAl sin θ₀ = %.2f); ω·max abs(γ − Γ) = %.2f", r.amp_pi, r.MAl_sin, r.amp_gamma_nu),
         r.amp_pi >= 1 and r.amp_pi <= 20 and r.amp_gamma_nu >= 0.5 and r.amp_gamma_nu <= 20)
  cl:add("falls_without_vibration", "the slowly spinning top (Π₃ = 10Π̂₃) is no longer prevented from falling down", pub.falls_without_vibration,
         string.format("without vibration Γ₃ ∈ [%.4f, %.4f] over [0, %g]: it does not fall; Ω₃ = %.1f rad/s > %.2f rad/s (Theorem 2); " ..
                       "with vibration the averaged Γ₃ ∈ [%.4f, %.4f]: the vibration raises the top", r.G3_free[1], r.G3_free[2], P.T,
                       r.spin_rate, r.threshold, r.G3_avg[1], r.G3_avg[2]),
         r.G3_free[1] < 0.5)
  return cl
end

--- Write the claims table cl as tables/<id>.tsv, and tables/<id>.md as the Markdown `pre`
-- (the artefact's own table, may be nil) followed by the claims and the note.
function M.write_claims(sc, cl, pre, note)
  sc:write_tsv("tables/" .. sc.id .. ".tsv", cl:tsv_rows())
  sc:write_text("tables/" .. sc.id .. ".md", (pre and (pre .. "\n") or "") .. cl:md(note))
end

--- "yes"/"no" style acceptance: |x - want| <= rel |want|.
function M.within(x, want, rel) return math.abs(x - want) <= rel * math.abs(want) end

return M
