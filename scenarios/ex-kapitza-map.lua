-- ### The stability map of Kapitza's pendulum: an ensemble of 40,000 full-equation runs
--
-- **Question.** The pendulum with a vertically vibrated pivot, q measured from the *upward*
-- vertical (Calvo & Sanz-Serna (2.2) with v_max = aω): q'' = ℓ⁻¹(g + aω² cos ωt) sin q. Kapitza's
-- averaging says the inverted position is stable when a²ω² > 2gℓ; the linearisation about it is
-- Mathieu's equation y'' + (A − 2Q cos 2τ) y = 0 with τ = ωt/2, A = −4g/(ℓω²), Q = 2a/ℓ, stable
-- between the characteristic curves a₀(Q) < A < b₁(Q). The lower curve is the averaged criterion
-- to leading order (a₀ = −Q²/2 + …); the upper one is the onset of parametric resonance, which
-- averaging cannot see (a/ℓ ≈ 0.45 at high frequency). Where does the *full nonlinear* pendulum,
-- started 0.1 rad from the top, stay up?
--
-- **Method.** A grid of n_amp × n_freq (amplitude a/ℓ, frequency ω√(ℓ/g)) pairs, each one run of
-- the full equation by RK4 with `steps_per_period` steps per forcing period over T = `T_slow`
-- √(ℓ/g), from q = `q0`, q' = 0. The runs are ensembles (lib/lua/kapitza/ensemble.lua, lib/methods/kz_ens.c): every
-- frequency is one C call advancing all its amplitudes together, vectorised over the members and
-- shared out over `threads` threads of a worker pool made once; max|q| at the start and at the
-- end of every forcing period is recorded inside that call (an observer, lib/methods/kz_ens_obs.c).
-- A run "stays" when max|q| < `threshold` rad. The reference curves: the averaged criterion
-- a/ℓ = √2/(ω√(ℓ/g)), and a₀, b₁ from their series in Q (Abramowitz & Stegun 20.2.25), solved for
-- a/ℓ by bisection.
--
-- **Readings.** The claims compare the map with the curves away from them (a margin of
-- `margin` in a/ℓ): a finite release angle and a finite T blur the boundaries themselves. The same
-- map from the Lua API takes a few lines:
--
--     local ens = require "kapitza.ensemble"
--     local e = ens.pendulum { l = l, g = g, vmax = vmaxs, omega = omega }   -- one frequency
--     local _, _, failed, _, ob = ens.run(e, { stepper = "rk4", h = h, n = n, q0 = 0.1, threads = 2,
--                                              observe = { every = steps_per_period, max = "q" } })
--     -- ob.max.q[i]: max|q| of amplitude i
--
-- The map shows more than the two
-- curves: a thin band of instability inside the stable region (near a/ℓ ≈ 0.32 at high
-- frequency) is a higher-order resonance of the nonlinear pendulum at the release amplitude,
-- which neither the averaged criterion nor the first Mathieu curves contain. The map's numbers round to four
-- digits in the data file: the vector math library's last bits differ between machines.
--
-- *Since issue 28* (one call per frequency instead of one per forcing period) step k of a run
-- starts at t = k h, as in a scalar `kz_run`, where the loop of calls restarted the clock at
-- every period (t = p T/P + j h): the forcing phase moves in its last bit. The runs that fall are
-- chaotic and amplify that: 5,055 of the 40,000 cells changed their max|q| in the 4th digit
-- (5,042 of them among the 18,269 that fall), and 9 cells flipped, all at a/ℓ = 0.468–0.483 on
-- the fringe of the parametric resonance (b₁ ≈ 0.455), where the map is speckled; 21,732 stay
-- up instead of 21,731, and every claim's verdict and count is as before.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local ens = require "kapitza.ensemble"

local function steps_for(P, w)
  local omega = w * math.sqrt(P.g / P.l)
  local T = P.T_slow * math.sqrt(P.l / P.g)
  local periods = math.ceil(T * omega / (2 * math.pi))
  return periods, periods * P.steps_per_period, periods * 2 * math.pi / omega
end

local function freqs(P)
  local w = {}
  for j = 1, P.n_freq do
    w[j] = P.n_freq == 1 and P.w_min or P.w_min * (P.w_max / P.w_min) ^ ((j - 1) / (P.n_freq - 1))
  end
  return w
end

local sc = S.new {
  id = "ex-kapitza-map",
  title = "The stability map of Kapitza's inverted pendulum: 40,000 full-equation runs as ensembles",
  params = {
    { "l", 0.2, "m", "pendulum length", positive = true, max = 1e3 },
    { "g", 9.8, "m s^-2", "acceleration of gravity", positive = true, max = 1e3 },
    { "n_amp", 200, "", "amplitudes a/l on the map", integer = true, min = 2, max = 5000 },
    { "n_freq", 200, "", "frequencies omega sqrt(l/g) on the map (log-spaced)", integer = true, min = 2, max = 5000 },
    { "a_max", 0.6, "", "largest amplitude a/l (the smallest is a_max/n_amp)", positive = true, max = 10 },
    { "w_min", 2, "", "smallest frequency omega sqrt(l/g)", positive = true, max = 1e4 },
    { "w_max", 100, "", "largest frequency omega sqrt(l/g)", positive = true, max = 1e4 },
    { "q0", 0.1, "rad", "release angle from the upward vertical (at rest)", positive = true, max = 3 },
    { "T_slow", 30, "sqrt(l/g)", "length of every run", positive = true, max = 1e5 },
    { "steps_per_period", 32, "", "RK4 steps per forcing period", integer = true, min = 4, max = 1e5 },
    { "threshold", 1, "rad", "a run stays up when max|q| stays below this", positive = true, max = 3.1 },
    { "margin", 0.1, "", "relative margin in a/l around the reference curves left out of the claims", min = 0, max = 0.9 },
    { "threads", 2, "", "threads of the ensemble runs", integer = true, min = 1, max = 64 },
  },
  quick = { n_amp = 40, n_freq = 30, T_slow = 15 },
  work = function(P)
    local n = 0
    for _, w in ipairs(freqs(P)) do
      local _, steps = steps_for(P, w)
      n = n + 4 * steps * P.n_amp
    end
    return n, "member force evaluations"
  end,
}
local P = sc:parse(arg)
if P.w_max <= P.w_min then sc:fail(string.format("w_max = %g must exceed w_min = %g", P.w_max, P.w_min)) end

-- Mathieu's characteristic values about the inverted position (A&S 20.2.25), Q = 2a/l
local function a0(Q) return -Q ^ 2 / 2 + 7 * Q ^ 4 / 128 - 29 * Q ^ 6 / 2304 + 68687 * Q ^ 8 / 18874368 end
local function b1(Q)
  return 1 - Q - Q ^ 2 / 8 + Q ^ 3 / 64 - Q ^ 4 / 1536 - 11 * Q ^ 5 / 36864 + 49 * Q ^ 6 / 589824 - 55 * Q ^ 7 / 9437184
end
-- a/l where curve(2 a/l) = A = -4 / w^2 (curve decreasing in Q on [0, 2.4]); nil if none below 1.2
local function solve(curve, w)
  local A = -4 / (w * w)
  local lo, hi = 0, 1.2
  if (curve(2 * lo) - A) * (curve(2 * hi) - A) > 0 then return nil end
  for _ = 1, 60 do
    local mid = 0.5 * (lo + hi)
    if (curve(2 * lo) - A) * (curve(2 * mid) - A) <= 0 then hi = mid else lo = mid end
  end
  return 0.5 * (lo + hi)
end

local ws = freqs(P)
local amps = {}
for i = 1, P.n_amp do amps[i] = P.a_max * i / P.n_amp end
local sq = math.sqrt(P.g / P.l)

sc:progress_start(#ws, "frequencies")
local maxq = {}
local evals, t_ens = 0, 0
local now = require("kapitza.timing").now
for j, w in ipairs(ws) do
  local omega = w * sq
  local periods, steps, T = steps_for(P, w)
  local vmax = {}
  for i, a in ipairs(amps) do vmax[i] = a * P.l * omega end
  local e = ens.pendulum { l = P.l, g = P.g, vmax = vmax, omega = omega }
  local h = T / periods / P.steps_per_period
  -- one call: every member's max|q| over the start and the end of every forcing period, in C
  local t0 = now()
  local _, _, failed, work, ob = ens.run(e, { stepper = "rk4", h = h, n = steps, q0 = P.q0, v0 = 0, threads = P.threads,
                                               observe = { every = P.steps_per_period, max = "q" } })
  t_ens = t_ens + (now() - t0)
  local mq = ob.max.q
  for i = 1, e.M do
    if failed[i] ~= 0 or mq[i] ~= mq[i] then mq[i] = math.huge end
  end
  evals = evals + work.force_evals * e.M
  maxq[j] = mq
  sc:progress(string.format("omega sqrt(l/g) = %.3g", w))
end
io.stderr:write(string.format("ex-kapitza-map: %d x %d runs in %d ensemble calls, %.3g s in the calls on %d thread%s\n",
                              P.n_amp, P.n_freq, #ws, t_ens, P.threads, P.threads == 1 and "" or "s"))

-- data: one row per cell, frequencies in blocks (gnuplot's grid format)
local rows, comments = {}, {}
local lower, upper, avgc = {}, {}, {}
for j, w in ipairs(ws) do
  avgc[j] = math.sqrt(2) / w
  lower[j] = solve(a0, w)
  upper[j] = solve(b1, w)
  for i, a in ipairs(amps) do
    local m = maxq[j][i]
    rows[#rows + 1] = { lw = string.format("%.6f", math.log10(w)), w = string.format("%.6g", w), a = string.format("%.6g", a),
                        stays = m < P.threshold and 1 or 0, maxq = m == math.huge and "inf" or string.format("%.4g", math.min(m, 1e6)) }
  end
end
local ccols = {}
for j, w in ipairs(ws) do
  ccols[j] = { w = w, averaged = avgc[j], mathieu_a0 = lower[j] or "-", mathieu_b1 = upper[j] or "-" }
end
comments[1] = string.format("ex-kapitza-map: q'' = l^-1 (g + a omega^2 cos omega t) sin q from q = %g at rest, RK4 %d steps per period, T = %g sqrt(l/g), l = %g, g = %g",
                            P.q0, P.steps_per_period, P.T_slow, P.l, P.g)
comments[2] = "lw = log10(omega sqrt(l/g)); w = omega sqrt(l/g); a = a/l; stays: max|q| < threshold; maxq rounded to 4 digits (machine-dependent last bits)"

-- claims ---------------------------------------------------------------------------------------
local cl = E.claims(sc):headed { "claim", "reference", "measured", "premises", "evidence", "holds" }
local mg = P.margin
-- The growth rate (per unit of sqrt(l/g)) of the linearisation about the top, y'' = (1 + a w^2
-- cos w t) y (Mathieu's equation), from its monodromy matrix over one period (RK4, 64 steps):
-- a run that falls needs about ln(2 threshold / q0) / rate to leave the threshold (longer: sin q <
-- q slows it), and a cell whose run is shorter than twice that says nothing about falling.
local function growth(a, w)
  local n, per = 64, 2 * math.pi / w
  local h = per / n
  local function f(t, y, v) return v, (1 + a * w * w * math.cos(w * t)) * y end
  local M = {}
  for c = 1, 2 do
    local y, v, t = c == 1 and 1 or 0, c == 2 and 1 or 0, 0
    for _ = 1, n do
      local k1y, k1v = f(t, y, v)
      local k2y, k2v = f(t + h / 2, y + h / 2 * k1y, v + h / 2 * k1v)
      local k3y, k3v = f(t + h / 2, y + h / 2 * k2y, v + h / 2 * k2v)
      local k4y, k4v = f(t + h, y + h * k3y, v + h * k3v)
      y, v, t = y + h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v), t + h
    end
    M[c] = { y, v }
  end
  local tr, det = M[1][1] + M[2][2], M[1][1] * M[2][2] - M[2][1] * M[1][2]
  local disc = tr * tr / 4 - det
  local mu = disc > 0 and (math.abs(tr) / 2 + math.sqrt(disc)) or math.sqrt(math.abs(det))
  return math.log(mu) / per
end
local function fall_time(a, w)
  local r = growth(a, w)
  return r > 0 and math.log(2 * P.threshold / P.q0) / r or math.huge
end
local function run_length(w) return select(3, steps_for(P, w)) * math.sqrt(P.g / P.l) end -- whole periods, >= T_slow
-- a run can stay only when it starts below the threshold (the start of the run is recorded)
local can_stay = E.premise(P.threshold > P.q0, "the threshold %v rad above the release angle q0 = %v rad (a run can stay)", P.threshold, P.q0)
local function below(j, a) if a < (1 - mg) * math.min(avgc[j], lower[j] or math.huge) then return false end end
-- "stays up" tells something only where the runs are long enough for a run below the criterion to fall
local nbelow, nfall = 0, 0
for j = 1, #ws do
  for i, a in ipairs(amps) do
    if below(j, a) == false then
      nbelow = nbelow + 1
      if maxq[j][i] >= P.threshold then nfall = nfall + 1 end
    end
  end
end
-- every cell of the map where a statement applies (outside the margin around the reference
-- curves) is an item: the statement holds on the map when it holds in every such cell; a cell
-- that should fall counts only where its run is long enough for the linear growth to reach the
-- threshold
local function frac_claim(key, text, ref, pred, premises)
  cl:claim { key = key, text = text, published = ref, any = "a map of the full equation, judged cell by cell against the stability criteria",
    premises = premises,
    judge = function()
      local items, short, worst = {}, 0, 0
      for j = 1, #ws do
        for i, a in ipairs(amps) do
          local want = pred(j, a)
          if want == false and 2 * fall_time(a, ws[j]) > run_length(ws[j]) then
            short, worst = short + 1, math.max(worst, fall_time(a, ws[j]))
          elseif want ~= nil then
            items[#items + 1] = { ok = (maxq[j][i] < P.threshold) == want }
          end
        end
      end
      local k, n = E.count(items)
      local m = E.T("%d of %d cells (%.1f %%)", k, n, n > 0 and 100 * k / n or 0)
      if short > 0 then
        m = m .. E.T("; %d cells left out, twice their linear growth time from q0 to the threshold (up to %.3g) longer than their run (T_slow = %v in whole periods)",
                     short, worst, P.T_slow)
      end
      return { measured = m, items = items, what = "cells",
               none = "no cell of the map meets the premise at these parameters" }
    end }
end
frac_claim("stable_between", "between the averaged criterion and the resonance boundary the inverted pendulum stays up",
           "a²ω² > 2gℓ and A < b₁(Q)",
           function(j, a)
             if a > (1 + mg) * math.max(avgc[j], lower[j] or 0) and upper[j] and a < (1 - mg) * upper[j] then return true end
           end, { can_stay, E.premise(nfall > 0, "some run below the averaged criterion falls within T_slow (%d of %d): the runs are long enough to tell staying from falling",
                                      nfall, nbelow) })
frac_claim("unstable_below", "below the averaged criterion it falls", "a²ω² < 2gℓ",
           below, { can_stay })
frac_claim("unstable_above", "above the resonance boundary it falls (parametric resonance, invisible to averaging)",
           "A > b₁(Q)", function(j, a) if upper[j] and a > (1 + mg) * upper[j] then return false end end, { can_stay })
-- the simulated lower boundary against the averaged criterion at high frequency: only at the
-- frequencies where the map's amplitude step resolves it (a step at most 10 % of the criterion)
local step = P.a_max / P.n_amp
local devs = {}
for j, w in ipairs(ws) do
  -- (and where a run just below the accepted band, at (1 - 0.1 - step/criterion) of the
  -- criterion, grows to the threshold within half its run: a shorter run would stay there too)
  if w >= 10 and step <= 0.1 * avgc[j] and 2 * fall_time((0.9 - step / avgc[j]) * avgc[j], w) <= run_length(w) then
    local first
    for i, a in ipairs(amps) do
      if maxq[j][i] < P.threshold then first = a; break end
    end
    if first then devs[#devs + 1] = { w = w, d = math.abs(first / avgc[j] - 1), tol = 0.1 + step / avgc[j] } end
  end
end
cl:claim { key = "lower_boundary", text = "at high frequency (ω√(ℓ/g) ≥ 10) the lowest amplitude that keeps it up is the averaged criterion's",
  published = "a/ℓ = √2/(ω√(ℓ/g))", any = "averaging, at any frequency high against the slow motion",
  premises = { can_stay, E.at_least(#devs, 1, E.T("frequencies ω√(ℓ/g) ≥ %v with a stable cell, where the amplitude step %.3g is at most %v of the criterion and a run below the accepted band falls within T_slow", 10, step, 0.1)) },
  judge = function()
    local items, worst, lo, hi = {}, devs[1], math.huge, 0
    for _, d in ipairs(devs) do
      items[#items + 1] = { ok = d.d <= d.tol, label = E.T("ω√(ℓ/g) = %.3g", d.w).s }
      if d.d > worst.d then worst = d end
      lo, hi = math.min(lo, d.tol), math.max(hi, d.tol)
    end
    return { measured = E.T("largest relative difference %.3g at ω√(ℓ/g) = %.3g (its tolerance %.3g) over %d frequencies (accept ≤ %v plus the amplitude step relative to the criterion: tolerances %.3g to %.3g)",
                            worst.d, worst.w, worst.tol, #devs, 0.1, lo, hi), items = items, what = "frequencies" }
  end }

sc:write_tsv("data/ex-kapitza-map.tsv", { "lw", "w", "a", "stays", "maxq" }, rows, comments)
sc:write_tsv("data/ex-kapitza-map-curves.tsv", { "w", "averaged", "mathieu_a0", "mathieu_b1" }, ccols,
  { "ex-kapitza-map: reference curves a/l of omega sqrt(l/g): the averaged criterion sqrt(2)/w, Mathieu's a0 and b1 (A&S 20.2.25; - where none below a/l = 1.2)" })
local nst = 0
for j = 1, #ws do for i = 1, #amps do if maxq[j][i] < P.threshold then nst = nst + 1 end end end
cl:write(string.format("%d × %d = %d runs (%d stay up), %.3g member force evaluations in all, on %d thread%s.",
                       P.n_amp, P.n_freq, P.n_amp * P.n_freq, nst, evals, P.threads, P.threads == 1 and "" or "s"))
sc:figure("ex-kapitza-map", { lwmin = math.log10(P.w_min), lwmax = math.log10(P.w_max), amax = P.a_max, q0 = P.q0,
                               Tslow = P.T_slow, threshold = P.threshold })
