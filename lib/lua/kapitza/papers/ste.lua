-- ste.lua -- what the scenarios of Sharp, Tsai & Engquist, "Multiple time scale numerical methods
-- for the inverted pendulum problem" (2005) share: Table 1's parameters as scenario keys, one
-- HMM-X-y run on the general HMM, the averaged reference (3.2), the error (3.6), the scaling of
-- row 3 (reading A7), error-curve sweeps with their data file and figure, and the derived
-- constants of Sec. 2-4. Everything that steps runs in C (lib/kz_hmm*.c, kz_trajectory).
local kz = require "kapitza"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"

local M = {}

-- Micro-solver names of the paper -> registry steppers ('v' = velocity Verlet, kick-drift-kick,
-- notes A5 and addendum 1; 'lf' = drift-kick-drift, only to show that it is not the same).
M.micros = { v = "verlet", rk4 = "rk4", lf = "leapfrog", names = { "v", "rk4", "lf" } }
M.macros = { "FE", "IFE", "V" }
-- Classical orders used by the scaling rule of row 3 (s = macro, r = micro; notes A6).
M.macro_order = { FE = 1, IFE = 1, V = 2 }
M.micro_order = { v = 2, rk4 = 4, lf = 2 }

--- The parameters of Table 1 the scenarios share (model, initial data, kernel, readings); omit: a
-- set of those a scenario does not use (a key must act: ste-constants runs no HMM, so the
-- estimator's keys kernel, kernel_constant, phase, recon and drift are not its keys; ste-force
-- makes single estimates, with no macro scheme, trajectory or reference: not drift, Theta0,
-- Omega0, ref_dt).
function M.params(extra, omit)
  local p = {
    { "eps", 1e-6, "s", "period of the pivot forcing sin(2 pi t/eps) (Table 1)", positive = true, max = 1e-2 },
    { "g", 0.1, "m s^-2", "gravitational acceleration (Table 1)", min = 0, max = 1e3 },
    { "l", 0.05, "m", "length of the pendulum arm (Table 1)", positive = true, max = 1e3 },
    { "Theta0", 0, "rad", "initial averaged angle from the upward vertical (Table 1)", min = -math.pi, max = math.pi },
    { "Omega0", -0.4, "rad s^-1", "initial averaged angular velocity (Table 1)", min = -1e3, max = 1e3 },
    { "kernel", "exponential", "", "averaging kernel: (3.5) = exponential", choices = kz.kernels.names },
    { "kernel_constant", 0, "", "0: weights normalised to sum 1 (reading A2); 422.11: the constant of (3.5) as printed", min = 0, max = 1e6 },
    { "phase", "exact", "", "fast phase: exact 2 pi frac(t_n/eps) (A13); time: naive sin(2 pi t/eps) at every node t_n + s; naive: rounded once at t_n", choices = { "exact", "time", "naive" } },
    { "recon", "model", "", "micro initial data: the omega-reconstruction (3.4), or identity (off)", choices = { "model", "identity" } },
    { "drift", "Omega", "", "FE only: Theta' taken as Omega_n (A8, 'done in practice') or K*omega", choices = { "Omega", "Komega" } },
    { "ref_dt", 5e-4, "s", "largest RK4 step of the averaged reference (3.2) (A11)", positive = true, max = 1e-2 },
  }
  if omit then
    local kept = {}
    for _, e in ipairs(p) do if not omit[e[1]] then kept[#kept + 1] = e end end
    p = kept
  end
  for _, e in ipairs(extra or {}) do p[#p + 1] = e end
  return p
end

--- The model of (1.1) with its reconstruction (3.4) and the averaged equation (3.2).
function M.model(P) return models.ste { eps = P.eps, g = P.g, l = P.l } end

--- The literal constant of (3.5) is written in u = (t - t_n)/eta on (-1/2, 1/2); the library's
-- kernels live on x = 2u in (-1, 1), where the same kernel has half the constant.
local function kernel_constant(P) return (P.kernel_constant or 0) / 2 end

--- One HMM-X-y run: o = {macro ('FE'|'IFE'|'V'), micro ('v'|'rk4'|'lf'), H, T, eta, h}. Returns
-- Theta, Omega (Lua arrays at t_n = n H) and the work counts.
function M.run(model, P, o)
  return hmm.run(model, {
    preset = "ste", macro = o.macro, micro = M.micros[o.micro], kernel = P.kernel,
    kernel_constant = kernel_constant(P), phase = P.phase, recon = P.recon,
    fe_drift_average = P.drift == "Komega", H = o.H, T = o.T, eta = o.eta, h = o.h,
    Q0 = P.Theta0, P0 = P.Omega0 })
end

--- One force estimate (F~_(2), F~_(1)) at (Theta, Omega) and time t.
function M.force(model, P, o, t, Theta, Omega)
  local F, Fv, c = hmm.force(model, { preset = "ste", micro = M.micros[o.micro], kernel = P.kernel,
    kernel_constant = kernel_constant(P), phase = o.phase or P.phase, recon = o.recon or P.recon,
    eta = o.eta, h = o.h }, t, { Theta, Omega })
  return F[1], Fv[1], c
end

--- The solution of the averaged equation (3.2) on the grid t_n = n H of [0, T] (RK4, steps of at
-- most ref_dt): {Theta, Omega} as Lua arrays.
function M.reference(model, P, T, H)
  return (E.grid(model.avg, T, H, { P.Theta0, P.Omega0 }, P.ref_dt))
end

--- The error (3.6): max over t_n in [0, T] of the Euclidean (Theta, Omega) error (n = 0 adds 0).
function M.error(Th, Om, ref) return E.max_norm({ Th, Om }, ref) end

--- Row 3 of Table 1 as read in notes A6-A7: s = macro order, r = micro order, q = smoothness of
-- the kernel (infinite for (3.5), so eta = alpha_eta eps stays fixed); h scaled like
-- (H / H_a)^(s/r) from h_a at the anchors H_a = 1 (for H > 0.1) and H_a = 0.1 (H <= 0.1), where
-- scaled and fixed runs coincide ("reset at these values of H"). h is rounded so that eta/2 is a
-- whole number of micro-steps. With finite q, eta = eta_a (H_a/H)^(s/q).
function M.scaled(o)
  local s, r = M.macro_order[o.macro], M.micro_order[o.micro]
  local Ha = o.H > 0.1 * (1 + 1e-12) and 1 or 0.1
  if math.abs(o.H - Ha) <= 1e-12 * Ha then return o.eta, o.h end -- the anchors: the fixed run itself
  local eta = o.eta
  if o.q and o.q ~= math.huge then eta = eta * (Ha / o.H) ^ (s / o.q) end
  local h = o.h * (o.H / Ha) ^ (s / r) * (eta / o.eta) ^ (-1 / r)
  local n = math.max(1, math.floor(0.5 * eta / h + 0.5))
  return eta, 0.5 * eta / n
end

--- Work a direct integration of (1.1) with the micro-step h needs over [0, T]: T/h force
-- evaluations (a first-order method, the paper's comparison, A12).
function M.direct_evals(T, h) return math.floor(T / h + 0.5) end

--- "10^{-6}" (gnuplot enhanced text) for powers of ten, else %g
function M.pow10_str(x)
  local k = math.floor(math.log10(x) + 0.5)
  if math.abs(x - S.pow10(k)) <= 1e-12 * x then return string.format("10^{%d}", k) end
  return E.show(x)
end

-- "1/20" for whole reciprocals, else %g
function M.frac(H)
  local d = 1 / H
  if math.abs(d - math.floor(d + 0.5)) < 1e-9 * d then return string.format("1/%d", math.floor(d + 0.5)) end
  return E.show(H)
end

---------------------------------------------------------------------------------------------------
-- Error curves (Figures 3.2-3.5)
---------------------------------------------------------------------------------------------------

--- The curves of an error figure from their names "HMM-X-y" or "HMM-X-y-scaled" (X in FE, IFE,
-- V; y in v, rk4, lf): the `curves` key of the scenarios, so that the macro scheme, the
-- micro-solver and fixed or scaled micro parameters are a user's choice. A bad name ends the
-- scenario with a one-line message.
function M.curves(sc, names)
  local out = {}
  for _, name in ipairs(names) do
    local X, y, scaled = name:match("^HMM%-(%u+)%-(%w+)(.*)$")
    if not X or not M.macro_order[X] or not M.micros[y] or y == "names" or (scaled ~= "" and scaled ~= "-scaled") then
      sc:fail(string.format("parameter 'curves': '%s' is not HMM-X-y or HMM-X-y-scaled with X in FE, IFE, V and y in v, rk4, lf", name))
    end
    out[#out + 1] = { name = name, base = "HMM-" .. X .. "-" .. y, macro = X, micro = y,
                      mode = scaled == "" and "fixed" or "scaled" }
  end
  return out
end

--- Check the grids before anything runs: every H divides T (and keeps t_n on the eps-grid, A9),
-- and eta/2 is a whole number of micro-steps. A bad combination ends the scenario with a one-line
-- message (exit status 2).
function M.check_grid(sc, P, Hs)
  -- Sec. 4: the vibration holds the pendulum upright only for 8 pi^2 g l < 1 (V(x) = g cos x +
  -- sin^2 x/(16 pi^2 l) has its minimum at 0); beyond, it falls and the angles grow without bound
  if not (8 * math.pi * math.pi * P.g * P.l < 1) then
    sc:fail(string.format("parameters 'g', 'l': 8 pi^2 g l = %.4g >= 1: the vibration no longer holds the pendulum upright (Sec. 4)",
                          8 * math.pi * math.pi * P.g * P.l))
  end
  -- at an equilibrium of (3.2) nothing moves: every error is 0 and no order can be measured
  -- (a scenario without initial data, ste-force, has no trajectory to check)
  if P.Theta0 ~= nil and math.sin(P.Theta0) == 0 and P.Omega0 == 0 then
    sc:fail(string.format("parameters 'Theta0', 'Omega0': (%g, 0) is an equilibrium of the averaged equation (3.2): nothing moves, " ..
                          "every error is 0 and no order can be measured", P.Theta0))
  end
  for _, H in ipairs(Hs) do
    if tonumber(kz.C.kz_steps_in(P.T, H)) < 1 then
      sc:fail(string.format("parameter 'H': %g does not divide T = %g into whole steps", H, P.T))
    end
    E.check_points(sc, P.T / H + 1, string.format("parameters 'T', 'H': T/H (H = %g)", H))
  end
  local m = 0.5 * P.eta_eps * P.h_per_eps
  if math.abs(m - math.floor(m + 0.5)) > 1e-9 * m or m < 1 then
    sc:fail(string.format("parameters 'eta_eps', 'h_per_eps': eta/2 = %g eps is not a whole number of micro-steps h = eps/%g", 0.5 * P.eta_eps, P.h_per_eps))
  end
  for _, H in ipairs(Hs) do -- notes only once nothing is refused (a refusal is one line)
    do
      local c = H / P.eps
      if math.abs(c - math.floor(c + 0.5)) > 1e-9 * c then
        io.stderr:write(string.format("%s: note: H = %g is not a multiple of eps; the phase at t_n is not 0 (A9)\n", sc.id, H))
      end
    end
  end
end

--- Run every curve at every H of P.H: curves = list of {name (the legend, e.g. 'HMM-V-v'), macro, micro, mode ('fixed' |
-- 'scaled'), H = optional own list}. eta and h from P.eta_eps, P.h_per_eps (row 2) or the scaling
-- rule. Returns rows {curve, macro, micro, mode, H, eta_eps, h_per_eps, error, estimates, micro_steps,
-- force_evals} in run order, with progress on stderr.
function M.sweep(sc, P, curves)
  E.no_repeats(sc, P, { "H", "curves" })
  M.check_grid(sc, P, P.H)
  local model = M.model(P)
  local total = 0
  for _, c in ipairs(curves) do total = total + #(c.H or P.H) end
  sc:progress_start(total)
  local refs, rows = {}, {}
  for _, c in ipairs(curves) do
    for _, H in ipairs(c.H or P.H) do
      local o = { macro = c.macro, micro = c.micro, H = H, T = P.T, eta = P.eta_eps * P.eps, h = P.eps / P.h_per_eps, q = P.q }
      if c.mode == "scaled" then o.eta, o.h = M.scaled(o) end
      -- one run, a compute cell (lib/lua/kapitza/scenario/cells.lua: a sweep's shards record it, its
      -- merge judges the cells as one run)
      local err, w = sc:cell("run", { curves = c.name, H = H }, function()
        refs[H] = refs[H] or M.reference(model, P, P.T, H)
        local Th, Om, w = M.run(model, P, o)
        return M.error(Th, Om, refs[H]), { macro_steps = w.macro_steps, micro_steps = w.micro_steps, force_evals = w.force_evals }
      end)
      rows[#rows + 1] = { curve = c.name, macro = c.macro, micro = c.micro, mode = c.mode, H = H,
                          eta_eps = o.eta / P.eps, h_per_eps = P.eps / o.h, error = err,
                          estimates = w.macro_steps * (c.macro == "V" and 2 or 1),
                          micro_steps = w.micro_steps, force_evals = w.force_evals }
      sc:progress(string.format("%s H=%s", c.name, M.frac(H)))
    end
  end
  return rows
end

M.curve_columns = { "curve", "macro", "micro", "mode", "H", "eta_eps", "h_per_eps", "error", "estimates",
                    "micro_steps", "force_evals" }

--- The rows of one curve, sorted by decreasing H.
function M.curve(rows, name)
  local t = {}
  for _, r in ipairs(rows) do if r.curve == name then t[#t + 1] = r end end
  table.sort(t, function(a, b) return a.H > b.H end)
  return t
end

--- The error of curve `name` at H (nil if not run).
function M.at(rows, name, H)
  for _, r in ipairs(rows) do
    if r.curve == name and math.abs(r.H - H) <= 1e-12 * H then return r.error end
  end
end

--- Least-squares slope of log E against log H over lo <= H <= hi, and the points used.
function M.fit(rows, name, lo, hi)
  local xs, ys = {}, {}
  for _, r in ipairs(M.curve(rows, name)) do xs[#xs + 1], ys[#ys + 1] = r.H, r.error end
  return E.slope_in(xs, ys, lo, hi)
end

--- Write data/<id>.tsv (every run) and draw figures/<id>.gp with the curves and a slope guide.
function M.write_curves(sc, P, rows, curves, guide)
  sc:write_tsv("data/" .. sc.id .. ".tsv", M.curve_columns, rows, {
    string.format("%s: error (3.6) over [0, %g] against the averaged equation (3.2); eps = %g, (Theta0, Omega0) = (%g, %g);",
                  sc.id, P.T, P.eps, P.Theta0, P.Omega0),
    string.format("kernel %s%s, phase %s, reconstruction %s; eta_eps = eta/eps, h_per_eps = eps/h (as the keys); estimates = force estimates (micro windows)",
                  P.kernel, P.kernel_constant > 0 and (" with the printed constant " .. P.kernel_constant) or " (normalised)", P.phase, P.recon) })
  local names = {}
  for i, c in ipairs(curves) do names[i] = c.name end
  -- the guide: a line of the given slope through the middle H of the first curve
  local first = M.curve(rows, curves[1].name)
  local mid = first[math.max(1, math.floor(#first / 2))]
  local Hs = {}
  for _, r in ipairs(rows) do Hs[#Hs + 1] = r.H end
  local _, hlo, hhi = E.range(Hs)
  -- the y range of the log axis from the positive errors; none (every error 0: an initial state at
  -- the equilibrium, Omega0 = 1e-300) draws the axes alone, from round-off to 1
  local errs = {}
  for _, r in ipairs(rows) do if r.error > 0 and r.error < math.huge then errs[#errs + 1] = r.error end end
  local elo, ehi = 3e-17, 1 / 3
  if #errs > 0 then _, elo, ehi = E.range(errs) end
  sc:figure(sc.id, { curves = table.concat(names, " "),
                     guide_slope = guide, guide_H = mid.H, guide_E = mid.error,
                     xmin = 0.5 / hhi, xmax = 2 / hlo, ymin = elo / 3, ymax = ehi * 3,
                     caption = string.format("ε = %s, η = %sε, h = ε/%s (row 2), error over [0, %s]",
                                             M.pow10_str(P.eps), E.show(P.eta_eps), E.show(P.h_per_eps), E.show(P.T)) })
end

--- The parameters of the error-curve scenarios (rows 2 and 3 of Table 1); defaults (optional)
-- replaces the default of any of them by name.
function M.curve_params(extra, defaults)
  local t = M.params {
    { "T", 12, "s", "end of the error window [0, T] of (3.6) (Table 1, rows 2-3)", positive = true, max = 1e3 },
    { "H", { 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001 }, "s", "macro steps (list; each must divide T) (A9)", positive = true, max = 10 },
    { "eta_eps", 50, "", "window width eta in units of eps (row 2: 50)", positive = true, max = 1e4 },
    { "h_per_eps", 50, "", "micro-steps per forcing period: h = eps/h_per_eps (row 2: 50)", positive = true, max = 1e5 },
    { "q", math.huge, "", "kernel smoothness q in the scaling of eta (row 3; (3.5): infinite, eta fixed)", positive = true },
    { "curves", { "HMM-FE-v" }, "", "the HMM-X-y curves (X: FE, IFE, V; y: v, rk4, lf; suffix -scaled: row 3) (list)" },
  }
  for _, e in ipairs(extra or {}) do t[#t + 1] = e end
  for _, e in ipairs(t) do if defaults and defaults[e[1]] ~= nil then e[2] = defaults[e[1]] end end
  return t
end

--- The claim "the same errors as the notes' prototype" of an error-curve scenario: its values are
-- for the scenario's defaults (the paper's Table 1 settings), so elsewhere the verdict is n/a, as
-- it is when no prototype value matches a run. Returns the Markdown of M.error_table.
function M.prototype_claim(cl, sc, P, rows, curves, rtol)
  local md, ncell, nok, worst, items = M.error_table(rows, curves, rtol, false)
  cl:claim { key = "prototype", text = "the same errors as the notes' independent prototype (no values are printed in the paper)",
    published = "— (the notes' prototype)", at = E.paper_at(sc),
    judge = function()
      return { measured = E.T("%d of %d cells within %v %% (largest relative difference %.2g %%)", nok, ncell, 100 * rtol, 100 * worst),
               items = items, what = "cells with a prototype value", none = "no prototype value for the curves and H run" }
    end }
  local off = E.off_paper(sc, P, (function() local t = {} for k in pairs(E.paper_at(sc)) do t[#t + 1] = k end table.sort(t) return t end)())
  if off then md = M.error_table(rows, curves, rtol, true) end
  return md
end

--- Why this run's force estimator is less accurate than row 2's (nil when it is at least as
-- accurate): the notes place the windows of the order claims in the asymptotic regime of row 2
-- (the kernel (3.5) with normalised weights, exact phase, h <= eps/50, eta >= 50 eps); a coarser
-- estimator lifts its floor (the micro-solver's bias, the kernel's residue, A2's mass defect)
-- into the window, where the local slopes measure the floor, not the macro scheme's order.
-- `rows`: the runs of the window (their eta/eps and eps/h, scaled ones included). Returns a Text.
function M.coarser_than_row2(P, rows)
  local why = {}
  if P.kernel ~= "exponential" then why[#why + 1] = E.T("kernel = %s (row 2: the exponential kernel (3.5))", P.kernel) end
  if (P.kernel_constant or 0) ~= 0 then why[#why + 1] = E.T("kernel_constant = %v (row 2: normalised weights; A2)", P.kernel_constant) end
  if P.phase == "time" then why[#why + 1] = E.T("phase = time (row 2: exact; A13)") end
  local hmin, emin = math.huge, math.huge
  for _, r in ipairs(rows) do hmin, emin = math.min(hmin, r.h_per_eps), math.min(emin, r.eta_eps) end
  if hmin < 50 * (1 - 1e-9) then why[#why + 1] = E.T("h = ε/%v coarser than row 2's ε/%v", hmin, 50) end
  if emin < 50 * (1 - 1e-9) then why[#why + 1] = E.T("η = %vε narrower than row 2's %vε", emin, 50) end
  if #why == 0 then return nil end
  return E.T("the window is the asymptotic regime of row 2's force estimator; this run's is coarser (") .. E.join(why, ", ") ..
         E.T("), which lifts the estimator's error floor into the window")
end

--- Why the fixed curve of a Verlet micro-solver need not level off inside the H of a check (nil
-- when its bias is at least row 2's): the bias falls like (h/eps)^2 (ste-force), so with h finer
-- than row 2's eps/50 the floor lies below the errors where the notes see it. Returns a Text.
function M.floor_finer_than_row2(P)
  if P.h_per_eps <= 50 * (1 + 1e-9) then return nil end
  return E.T("h = ε/%v is finer than row 2's ε/%v: the Verlet bias, ∝ (h/ε)², is %.3g times smaller, and its floor need not lie above the macro error at the H of the check",
             P.h_per_eps, 50, (P.h_per_eps / 50) ^ 2)
end

--- A macro step or an H window shown as the keys' defaults and the notes write it (0.001, 0.005,
-- not 1e-3): the decimal form where it has at most four decimals, else the number as given (E.show).
-- Returns a Text that keeps the value.
function M.Hs(x)
  for d = 0, 4 do
    local f = "%." .. d .. "f"
    if tonumber(string.format(f, x)) == x then return E.T(f, x) end
  end
  return E.T("%v", x)
end

--- The premise of a claim whose window the notes place in the asymptotic regime of row 2's force
-- estimator (M.coarser_than_row2): met or not, it names this run's settings; `rows` the runs of
-- the window.
function M.row2_premise(P, rows)
  local hmin, emin = math.huge, math.huge
  for _, r in ipairs(rows) do hmin, emin = math.min(hmin, r.h_per_eps), math.min(emin, r.eta_eps) end
  local coarse = M.coarser_than_row2(P, rows)
  local this = E.T("kernel = %s, kernel_constant = %v, phase = %s", P.kernel, P.kernel_constant or 0, P.phase) ..
    (hmin < math.huge and E.T(", h down to ε/%v, η down to %vε", hmin, emin) or "")
  return E.premise(coarse == nil, "%s", E.T("a force estimator as fine as row 2's (the exponential kernel (3.5) normalised, exact phase, h ≤ ε/%v, η ≥ %vε), " ..
                   "in whose asymptotic regime the notes place the window: this run has ", 50, 50) .. this .. (coarse and (E.T("; ") .. coarse) or ""))
end

--- The premise of a check that the Verlet floor levels a curve off at the H of the check
-- (M.floor_finer_than_row2): h no finer than row 2's.
function M.floor_premise(P)
  local finer = M.floor_finer_than_row2(P)
  return E.premise(finer == nil, "%s", E.T("a Verlet floor at least row 2's: h = ε/%v no finer than row 2's ε/%v", P.h_per_eps, 50) ..
                   (finer and (E.T(" (") .. finer .. ")") or ""))
end

--- The premise of a claim on the pair `fixed`, `scaled`: both curves run (M.not_both names those not).
function M.both_premise(rows, fixed, scaled)
  local missing = M.not_both(rows, fixed, scaled)
  return E.premise(missing == nil, "%s", E.T("both %s and %s run", fixed, scaled) .. (missing and (E.T(" (") .. missing .. ")") or ""))
end

--- An order of one curve over the H window [lo, hi] (the window where the notes place its
-- asymptotic regime), accepted in [alo, ahi]. An order is what the local slopes settle to as H
-- decreases, so the evidence is the local slopes of the smaller-H half of the window (in log H:
-- the steps whose smaller H is at most sqrt(lo hi)), each in [alo, ahi]; a least-squares slope
-- over the whole window (shown) would average a pre-asymptotic start or a floor away. Premise:
-- two such local slopes.
function M.order_claim(cl, rows, o)
  local xs, ys = {}, {}
  for _, r in ipairs(M.curve(rows, o.name)) do
    -- an error of 0 (a run at rest at the equilibrium) has no logarithm: no slope is taken through it
    if r.H >= o.lo * (1 - 1e-9) and r.H <= o.hi * (1 + 1e-9) and r.error > 0 then xs[#xs + 1], ys[#ys + 1] = r.H, r.error end
  end
  local mid = math.sqrt(o.lo * o.hi)
  local sl, idx = #xs >= 2 and E.local_slopes(xs, ys) or {}, {}
  for i = 1, #sl do if xs[i + 1] <= mid * (1 + 1e-9) then idx[#idx + 1] = i end end
  local window = {}
  for _, r in ipairs(M.curve(rows, o.name)) do
    if r.H >= o.lo * (1 - 1e-9) and r.H <= o.hi * (1 + 1e-9) then window[#window + 1] = r end
  end
  local lo, hi = M.Hs(o.lo), M.Hs(o.hi)
  local premises = { E.at_least(#idx, 2, E.T("local slopes of %s in the smaller-H half of [%s, %s] (H down to %.3g)", o.name, lo, hi, mid)) }
  if o.P then premises[#premises + 1] = M.row2_premise(o.P, window) end
  -- the local slopes are shown whatever the premises say (an n/a still shows what was measured)
  local shown
  if #xs >= 2 then
    local txt = {}
    for i, v in ipairs(sl) do txt[i] = E.T("%.2f", v) end
    shown = E.T("local slopes ") .. E.join(txt, " ") .. E.T(" over %d H in [%s, %s] (least-squares slope %.3f)", #xs, lo, hi, E.slope(xs, ys))
  end
  cl:claim { key = o.key, text = o.text, published = o.published or "O(H)", any = "an order of convergence, a property of the method in its asymptotic regime",
    premises = premises, shown = shown,
    judge = function()
      local items = {}
      for _, i in ipairs(idx) do
        items[#items + 1] = { ok = sl[i] >= o.alo and sl[i] <= o.ahi, label = string.format("H = %s → %s", M.frac(xs[i]), M.frac(xs[i + 1])) }
      end
      return { measured = E.T("accept each of the last %d in %v–%v", #idx, o.alo, o.ahi), items = items, what = "local slopes at small H",
               values = { slope = E.slope(xs, ys) } }
    end }
end

--- The notes' independent prototype values (paper/reference/ste-prototype.tsv; the paper
-- prints none), keyed "curve|mode|H".
function M.prototype()
  local kz_root = kz.root
  local rows = assert(S.read_table(kz_root .. "/paper/reference/ste-prototype.tsv"))
  local t = {}
  for _, r in ipairs(rows) do t[string.format("%s|%s|%.12g", r.curve, r.mode, r.H)] = r.error end
  return t
end

--- Markdown: the error of every curve at every H, each beside the prototype's value where the
-- notes give one (none when `none` is true: a run off the prototype's parameters); and the
-- agreement (cells, within rtol, the largest relative difference).
function M.error_table(rows, curves, rtol, none)
  local proto = none and {} or M.prototype()
  local Hs, seen = {}, {}
  for _, r in ipairs(rows) do if not seen[r.H] then seen[r.H] = true; Hs[#Hs + 1] = r.H end end
  table.sort(Hs, function(a, b) return a > b end)
  local head = { "H [s]" }
  for _, c in ipairs(curves) do head[#head + 1] = c.name .. (c.mode == "scaled" and " (scaled)" or "") end
  local body, n, ok, worst, items = {}, 0, 0, 0, {}
  for _, H in ipairs(Hs) do
    local line = { M.frac(H) }
    for _, c in ipairs(curves) do
      local e = M.at(rows, c.name, H)
      local p = proto[string.format("%s|%s|%.12g", c.base or c.name, c.mode, H)]
      if not e then line[#line + 1] = ""
      elseif p then
        local d = (e - p) / p
        n = n + 1
        if math.abs(d) <= rtol then ok = ok + 1 end
        items[#items + 1] = { ok = math.abs(d) <= rtol, label = string.format("%s H = %s", c.name, M.frac(H)) }
        worst = math.max(worst, math.abs(d))
        line[#line + 1] = string.format("%.4e (%s)", e, S.sci(p, 4))
      else
        line[#line + 1] = string.format("%.4e", e)
      end
    end
    body[#body + 1] = line
  end
  return S.md_table(head, body), n, ok, worst, items
end

---------------------------------------------------------------------------------------------------
-- Derived quantities of Sec. 2-4
---------------------------------------------------------------------------------------------------

--- Upward zero crossings of Theta (linear interpolation) on the grid t_n = n dt.
function M.crossings(Th, dt)
  local t = {}
  for n = 2, #Th do
    if Th[n - 1] < 0 and Th[n] >= 0 then
      t[#t + 1] = (n - 2) * dt + dt * Th[n - 1] / (Th[n - 1] - Th[n])
    end
  end
  return t
end

--- Mean period from upward zero crossings (nil with fewer than two).
function M.period(Th, dt)
  local c = M.crossings(Th, dt)
  if #c < 2 then return nil, c end
  return (c[#c] - c[1]) / (#c - 1), c
end

--- max |Theta| over t in [a, b] on the grid t_n = n dt.
function M.amplitude(Th, dt, a, b)
  local m = 0
  for n = 1, #Th do
    local t = (n - 1) * dt
    if t >= a - 1e-9 and t <= b + 1e-9 then m = math.max(m, math.abs(Th[n])) end
  end
  return m
end

---------------------------------------------------------------------------------------------------
-- Figures 3.4 and 3.5: a fixed curve beside its scaled version (eta and h scaled with H, M.scaled)
---------------------------------------------------------------------------------------------------

--- The parameters of Figures 3.4-3.5: the curve `fixed` and `fixed`-scaled over the H of the figures.
function M.scaled_params(fixed)
  return M.curve_params(nil, { H = { 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005 }, curves = { fixed, fixed .. "-scaled" } })
end

--- Figures 3.4-3.5: the sweep of the curves P.curves and their data files and figure. Returns the
-- rows and the curves.
function M.scaled_sweep(sc, P)
  local curves = M.curves(sc, P.curves)
  local rows = M.sweep(sc, P, curves)
  M.write_curves(sc, P, rows, curves, 2)
  return rows, curves
end

--- The two claims Figures 3.4-3.5 share, added to cl: the scaled curve's least-squares order over
-- H in [max(0.001, min H), 0.1] (o.text, accepted in [o.lo, o.hi]; o.accept the bounds as text),
-- and the scaled and fixed runs being the same run at the anchors H = 1 and H = 0.1.
function M.scaled_claims(cl, P, rows, fixed, o)
  local scaled = fixed .. "-scaled"
  local lo = math.max(0.001, math.min(unpack(P.H))) -- the addendum's window [0.001, 0.1], as far as run
  M.order_claim(cl, rows, { key = "scaled_order2", text = o.text, published = "O(H²)", name = scaled, lo = lo, hi = 0.1,
                            alo = o.lo, ahi = o.hi, P = P })
  local where, items = {}, {}
  for _, H in ipairs { 1, 0.1 } do
    local a, b = M.at(rows, fixed, H), M.at(rows, scaled, H)
    if a and b then
      items[#items + 1] = { ok = a == b, label = "H = " .. E.show(H) }
      where[#where + 1] = E.T("H = %v: %.4e / %.4e", H, a, b)
    end
  end
  cl:claim { key = "anchors", text = "scaled and fixed match at H = 0.1 and H = 1", published = "match",
    any = "the scaling of η and h is the identity at the anchors, by construction",
    premises = { M.both_premise(rows, fixed, scaled),
                 E.premise(#items > 0, "an anchor (H of %v or %v) run in both curves", 1, 0.1) },
    judge = function()
      return { measured = E.join(where, "; ") .. " (fixed / scaled: the same run there)", items = items, what = "anchors run" }
    end }
end

--- The reason a claim on the pair `fixed`, `scaled` has nothing to compare when the run lacks one
-- of the curves (the `curves` key is the user's): nil when both were run.
function M.not_both(rows, fixed, scaled)
  local missing = {}
  for _, name in ipairs { fixed, scaled } do if #M.curve(rows, name) == 0 then missing[#missing + 1] = name end end
  if #missing == 0 then return nil end
  local run, seen = {}, {}
  for _, r in ipairs(rows) do if not seen[r.curve] then seen[r.curve] = true; run[#run + 1] = r.curve end end
  return string.format("%s not run (curves = %s)", table.concat(missing, " and "), table.concat(run, ", "))
end

--- Figures 3.4-3.5, after their own claims: the prototype claim, the claims file with the scaled
-- micro-steps, and the error table.
function M.scaled_finish(cl, sc, P, rows, curves, fixed)
  local md = M.prototype_claim(cl, sc, P, rows, curves, 0.005)
  local hs = {}
  for _, r in ipairs(M.curve(rows, fixed .. "-scaled")) do hs[#hs + 1] = string.format("H = %s: h = ε/%s", M.frac(r.H), E.show(r.h_per_eps)) end
  cl:write("Scaled micro-steps: " .. table.concat(hs, ", ") .. ".")
  sc:write_text("tables/" .. sc.id .. "-errors.md", "Error (3.6) on [0, " .. P.T .. "] (in parentheses: the notes' prototype).\n\n" .. md)
end

return M
