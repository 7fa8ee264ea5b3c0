-- vmi_claims.lua -- the experiments of the variational multirate paper (Ober-Bloebaum, Wenger,
-- Gail & Leyendecker) that the scenarios of one family share: the measured quantities (stiff-spring
-- energies, total energy, angular momentum, positions, windows and drifts, linear stability bounds,
-- work counts) and the drivers of Sec. 6.1 (FPU energy exchange, spring-ring energy): each writes
-- its data, its claims table (experiment.claims) and draws its figure from the data just written
-- (scenario:figure). The method text the scenarios of a family share is stated once, in
-- paper/reference/<first id>-family.md. The binding (schemes, models, runs, references, errors)
-- is lib/lua/kapitza/vmi.lua: every function of it is reached through this module too (M falls back to
-- it); the convergence study (Sec. 6.2-6.3) is lib/lua/kapitza/papers/vmi_convergence.lua.
local kz = require "kapitza"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.vmi"

local M = setmetatable({}, { __index = V })


---------------------------------------------------------------------------------------------------
-- What the drivers share
---------------------------------------------------------------------------------------------------

-- Every stride-th row (all rows when stride is nil).
local function every(rows, stride)
  if not stride or stride == 1 then return rows end
  local kept = {}
  for i = 1, #rows, stride do kept[#kept + 1] = rows[i] end
  return kept
end

-- cells(f): f applied to every summary row (one per p), joined by " / " (texts keep their values).
local function cells_of(summary)
  return function(f)
    local t = {}
    for i, s in ipairs(summary) do t[i] = f(s) end
    return E.join(t, " / ")
  end
end
M.cells_of = cells_of

--- The premise of a claim that compares the runs of several p ("decreases as p grows").
function M.two_p(P) return E.at_least(#P.p, 2, "values of p (a comparison)") end

--- The summary rows sorted by p (a comparison "as p grows" never depends on the order of the list).
function M.by_p(summary)
  local t = {}
  for i, s in ipairs(summary) do t[i] = s end
  table.sort(t, function(a, b) return a.p < b.p end)
  return t
end

--- Items of "f(previous, next) between consecutive p" (sorted by p), labelled "p = a → b".
function M.pair_items(summary, f)
  local sorted, items = M.by_p(summary), {}
  for i = 2, #sorted do
    items[#items + 1] = { ok = f(sorted[i - 1], sorted[i]) and true or false, label = string.format("p = %d → %d", sorted[i - 1].p, sorted[i].p) }
  end
  return items
end

--- Items of "f(s) at every p", labelled "p = k".
function M.p_items(summary, f)
  local items = {}
  for i, s in ipairs(summary) do items[i] = { ok = f(s) and true or false, label = "p = " .. s.p } end
  return items
end

-- "p = 1 / 5 / 10: " as a text with its values
local function plist(ps)
  local t = {}
  for i, p in ipairs(ps) do t[i] = E.T("%d", p) end
  return E.T("p = ") .. E.join(t, " / ") .. ": "
end
M.plist = plist

--- min, max and mean of column col over t in [a, b].
function M.stats(rows, col, a, b)
  local lo, hi, s, n = math.huge, -math.huge, 0, 0
  for _, r in ipairs(rows) do
    if r.t >= a - 1e-9 and r.t <= b + 1e-9 then
      lo, hi, s, n = math.min(lo, r[col]), math.max(hi, r[col]), s + r[col], n + 1
    end
  end
  return lo, hi, s / n
end

--- The largest |col - col(t = 0)| / |col(t = 0)| over t <= t_half and over t > t_half (an
-- invariant's error in the first and the second half of a run).
function M.drift_halves(rows, col, t_half)
  local c0, a, b = rows[1][col], 0, 0
  for _, r in ipairs(rows) do
    local e = math.abs(r[col] - c0) / math.abs(c0)
    if r.t <= t_half then a = math.max(a, e) else b = math.max(b, e) end
  end
  return a, b
end

--- A drift is a trend, not a larger excursion: the means of an error over the first and the last
-- quarter of [0, tN] (M.trend) differ by at most drift_share of its range over the run (a drift linear
-- in t: 3/4 of it; an oscillation around a constant value: little). I_around_1 bounds I's drift so.
M.drift_share = 0.25

--- err(row) over rows (fields t): its means over [0, tN/4] and [3 tN/4, tN], its max - min.
function M.trend(rows, err, tN)
  local lo, hi, s1, n1, s4, n4 = math.huge, -math.huge, 0, 0, 0, 0
  for _, r in ipairs(rows) do
    local e = err(r)
    lo, hi = math.min(lo, e), math.max(hi, e)
    if r.t <= tN / 4 + 1e-9 then s1, n1 = s1 + e, n1 + 1 end
    if r.t >= 3 * tN / 4 - 1e-9 then s4, n4 = s4 + e, n4 + 1 end
  end
  return s1 / n1, s4 / n4, hi - lo
end

--- The item "no drift" of a summary row s with the trend's fields q1, q4, range (names given).
function M.no_drift_item(s, q1, q4, range)
  return { ok = math.abs(s[q4] - s[q1]) <= M.drift_share * s[range], label = string.format("p = %d without drift", s.p) }
end

--- Windows [t0, t0 + w) of column col: {t0, mean, min, max} (the last one may be partial).
function M.windows(rows, col, w)
  local out = {}
  for _, r in ipairs(rows) do
    local i = math.floor(r.t / w + 1e-9) + 1
    local o = out[i] or { t0 = (i - 1) * w, s = 0, n = 0, min = math.huge, max = -math.huge }
    o.s, o.n, o.min, o.max = o.s + r[col], o.n + 1, math.min(o.min, r[col]), math.max(o.max, r[col])
    out[i] = o
  end
  local t = {}
  for i = 1, table.maxn(out) do
    local o = out[i]
    if o then t[#t + 1] = { t0 = o.t0, mean = o.s / o.n, min = o.min, max = o.max } end
  end
  return t
end

--- Windowed maxima of column col over [t0, t0 + w), t0 = 0, w, 2w, ...: list of {t0, max}.
function M.window_max(rows, col, w)
  local out = {}
  for _, r in ipairs(rows) do
    local i = math.floor(r.t / w + 1e-9) + 1
    out[i] = out[i] or { t0 = (i - 1) * w, max = -math.huge }
    out[i].max = math.max(out[i].max, r[col])
  end
  return out
end

--- "The energy in the second spring returns to zero" (notes 8.8): after the first window whose
-- max of col exceeds `peak`, the window with the smallest max. Returns its start and value
-- (the last window, which may be partial, is ignored).
function M.envelope_return(rows, col, w, peak)
  local win = M.window_max(rows, col, w)
  local first
  for i, e in ipairs(win) do if e.max > peak then first = i break end end
  if not first then return nil end
  local best
  for i = first + 1, #win - 1 do
    if not best or win[i].max < best.max then best = win[i] end
  end
  return best and best.t0, best and best.max
end

--- First time at which column col exceeds level.
function M.first_above(rows, col, level)
  for _, r in ipairs(rows) do if r[col] > level then return r.t end end
  return nil
end

---------------------------------------------------------------------------------------------------
-- FPU energy exchange (Sec. 6.1, Figs. 6.3-6.5)
---------------------------------------------------------------------------------------------------

--- The premise of a statement the paper makes of some schemes only ("for the midpoint-midpoint
-- scheme", "for both trapezoidal schemes", "Fig. 6.8"): the run's scheme is one of `set` (a list),
-- `what` naming them in words.
function M.scheme_in(P, set, what)
  local ok = false
  for _, s in ipairs(set) do if P.scheme == s then ok = true end end
  return E.premise(ok, "a statement about %s: this run's scheme is %s (one of %s)", what, P.scheme, table.concat(set, ", "))
end

--- The premise of the FPU statements: a stiff spring, omega >= 10 (the paper's 50).
function M.stiff(P) return E.premise(P.omega >= 10, "a stiff spring, ω = %v at least %v (adiabatic regime)", P.omega, 10) end

--- The premise of a statement about the energy exchange: the run spans its time scale omega
-- (HLW XIII: the exchange between the stiff springs takes times of order omega) at least twice.
function M.spans_exchange(P)
  return E.premise(P.T >= 2 * P.omega, "the run spans the exchange's time scale ω twice: T = %v at least %v ω (%v)", P.T, 2, 2 * P.omega)
end

--- The premise of a printed return time of I2 (Figs. 6.4, 6.5), located on its envelope over
-- windows of P.window (M.envelope_return): the located time is a window's start, off the return by
-- up to a window, so the window must be small against the accepted distance `tol` from the printed
-- time (at most half of it: windowing alone cannot carry a return across the band).
function M.return_window(P, tol)
  return E.resolves(P.window, tol, 0.5, "the envelope's window against the accepted distance from the printed return time")
end

--- "The amplitude of the oscillations of I decreases as p grows (smaller Δt)": what §6.1 says of
-- both trapezoidal schemes (Figs. 6.4, 6.5), on the range of I over the run at every p.
function M.amplitude_decreases(cl, summary, cells, P)
  cl:claim { key = "amplitude_decreases", text = "the amplitude of the oscillations of I decreases as p grows (smaller Δt)", published = "decreases",
    any = "a smaller micro step Δt = ΔT/p, at any parameters",
    premises = { M.two_p(P), M.scheme_in(P, { "TM", "TT", "TMh", "TTh" }, "the trapezoidal-midpoint and trapezoidal-trapezoidal schemes") },
    judge = function()
      return { measured = plist(P.p) .. cells(function(s) return E.T("[%.3f, %.3f]", s.I_min, s.I_max) end) .. " (range of I; accept: strictly shrinking in p)",
               items = M.pair_items(summary, function(a, b) return b.I_spread < a.I_spread end), what = "steps in p" }
    end }
end

--- The stiff-spring energies and the total energy H = K + V + W at every macro node of a run of
-- the FPU `model`: rows {t, I1..Il, I, H}. o: p, dT, T, tol. Returns rows and the run (its out
-- buffer is reused by the next such run).
function M.fpu_energies(model, scheme, o)
  local res = M.run(model, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-9, reuse = true })
  local H = M.total_energy(model, res.out, res.N + 1)
  local rows = {}
  for k = 0, res.N do
    local I, s = M.fpu_I(model, res.row(k))
    local r = { t = k * o.dT, I = s, H = H[k + 1] }
    for j, v in ipairs(I) do r["I" .. j] = v end
    rows[k + 1] = r
  end
  return rows, res
end

-- What fpu_exchange measures on the stiff-spring energies besides the range of I.
local fpu_measures = {
  exchange = { -- Fig. 6.3: no drift of I, the exchange speeding up with p
    columns = { "I_mean_late", "I1_mean_end", "t_I2_first" },
    comments = { "I over all macro nodes; I_mean_late over [0.75 T, T]; I1_mean_end over [0.95 T, T];",
                 "t_I2_first: first time I2 > 0.3 (-1: never)" },
    measure = function(s, rows, P)
      local _, _, mean_late = M.stats(rows, "I", 0.75 * P.T, P.T)
      local _, _, I1_end = M.stats(rows, "I1", 0.95 * P.T, P.T)
      s.I_mean_late, s.I1_mean_end, s.t_I2_first = mean_late, I1_end, M.first_above(rows, "I2", 0.3) or -1
    end,
  },
  ["return"] = { -- Figs. 6.4, 6.5: when I2 returns to zero (on its envelope over windows of P.window)
    columns = { "t_I2_return", "E2_return" },
    comments = { "t_I2_return: start of the window (length `window`) with the smallest max of I2 after the first",
                 "window whose max exceeds 0.3 (-1: none); E2_return: that max" },
    measure = function(s, rows, P)
      local t_ret, E_ret = M.envelope_return(rows, "I2", P.window, 0.3)
      s.t_I2_return, s.E2_return = t_ret or -1, E_ret or -1
    end,
  },
}

--- FPU energy exchange (Figs. 6.3-6.5). For each p in P.p: the stiff-spring energies and the total
-- energy of P.scheme (P.dT, P.T, P.tol; the model from the keys P.omega, P.l) ->
-- data/<id>-p<p>.tsv (every P.stride-th node when P has a stride). Per p: N, the range and the mean
-- of I, the Newton total, the quantities of `measure` ("exchange": mean of I over [0.75 T, T], of
-- I1 over [0.95 T, T], first time I2 > 0.3; "return": the return of I2 to zero on its envelope),
-- H(0), the largest |H - H(0)|/H(0) over each half of the run and the largest I2, I3 ->
-- tables/<id>.tsv. The claims -> tables/<id>-claims.{tsv,md}: the three Sec. 6.1 states for all
-- three figures (I oscillates around I(0) = 1; no numerical dissipation; the energy moves on to the
-- second and third springs), then specific(cl, summary, cells, P) adds the figure's own (cells(f):
-- f of every summary row, " / "). Draws figures/<id>.svg from the data. Returns the summary.
function M.fpu_exchange(sc, P, measure, specific)
  local m = fpu_measures[measure]
  if not m then error("vmi.fpu_exchange: measure must be 'exchange' or 'return' (got " .. tostring(measure) .. ")", 2) end
  M.check_nodes(sc, math.ceil(P.T / P.dT), M.max_rows, "parameters 'T', 'dT'", "macro nodes T/dT")
  if math.ceil(P.T / P.dT) < 20 then -- means over [0.95 T, T] and over quarters need nodes in them
    sc:fail(string.format("parameters 'T', 'dT': T/dT = %d macro steps; the means over the last 5 %% of [0, T] need at least 20", math.ceil(P.T / P.dT)))
  end
  local model = M.model("FPU", P)
  local l = model.par.l
  local cols = { "t" }
  for j = 1, l do cols[#cols + 1] = "I" .. j end
  cols[#cols + 1], cols[#cols + 2] = "I", "H"
  local far = {} -- the springs the energy moves on to (2 and 3)
  for j = 2, math.min(3, l) do far[#far + 1] = j end
  local summary, tmax = {}, 0
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    -- one p's run, a compute cell (lib/lua/kapitza/scenario/cells.lua: a sweep's merge replays it)
    local rows, res = sc:cell("energies", { p = p }, function()
      local rows, res = M.fpu_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
      return rows, { N = res.N, counts = { newton_iters = res.counts.newton_iters } }
    end)
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), cols, every(rows, P.stride),
                 { string.format("%s, %s, dT = %g, p = %d, %d macro steps (t_N = %.17g), Newton tol %g",
                                 M.describe(model), P.scheme, P.dT, p, res.N, res.N * P.dT, P.tol) ..
                   (P.stride and string.format(", every %d-th node", P.stride) or ""),
                   "I_j = ((p_j^f)^2 + omega^2 (q_j^f)^2)/2 (HLW I.5.1), I = sum I_j, H = K + V + W (total energy)" })
    local lo, hi, mean = M.stats(rows, "I", 0, math.huge)
    local tN = res.N * P.dT
    local _, _, q1 = M.stats(rows, "I", 0, tN / 4)
    local _, _, q4 = M.stats(rows, "I", 3 * tN / 4, tN)
    local s = { p = p, N = res.N, I_min = lo, I_max = hi, I_spread = hi - lo, newton = res.counts.newton_iters,
                I_mean = mean, I_mean_q1 = q1, I_mean_q4 = q4, H0 = rows[1].H }
    m.measure(s, rows, P)
    s.H_err_first, s.H_err_second = M.drift_halves(rows, "H", res.N * P.dT / 2)
    local H0 = rows[1].H
    s.H_dev_q1, s.H_dev_q4, s.H_dev_range = M.trend(rows, function(r) return (r.H - H0) / H0 end, tN)
    for _, j in ipairs(far) do
      local _, top = M.stats(rows, "I" .. j, 0, math.huge)
      s["I" .. j .. "_max"] = top
    end
    summary[#summary + 1] = s
    tmax = math.max(tmax, res.N * P.dT)
    sc:progress(string.format("p = %d", p))
  end
  local columns = { "p", "N", "I_min", "I_max", "I_spread" }
  for _, c in ipairs(m.columns) do columns[#columns + 1] = c end
  for _, c in ipairs { "newton", "I_mean", "I_mean_q1", "I_mean_q4", "H0", "H_err_first", "H_err_second", "H_dev_q1", "H_dev_q4", "H_dev_range" } do
    columns[#columns + 1] = c
  end
  for _, j in ipairs(far) do columns[#columns + 1] = "I" .. j .. "_max" end
  local comments = {}
  for i, c in ipairs(m.comments) do comments[i] = c end
  comments[#comments + 1] = "I_mean over all macro nodes, I_mean_q1/q4 over the first/last quarter of [0, t_N]; H_err_first/second:"
  comments[#comments + 1] = "max |H - H0|/H0 over the first and the second half of [0, t_N]; H_dev_q1/q4: mean of (H - H0)/H0 over the first/last"
  comments[#comments + 1] = "quarter of [0, t_N], H_dev_range: its max - min over the run;"
  comments[#comments + 1] = "Ij_max: largest energy of spring j over the run"
  sc:write_tsv("tables/" .. sc.id .. ".tsv", columns, summary, comments)

  -- What Sec. 6.1 says of all three figures, then the figure's own claims. The energy moves
  -- between the stiff springs on the time scale omega (HLW XIII): a statement about the exchange
  -- needs a run that spans it (M.spans_exchange).
  local cells = cells_of(summary)
  local cl = E.claims(sc)
  local why_I = "the adiabatic invariant of a stiff spring, at any ω ≫ 1 in the scheme's stability region"
  cl:claim { key = "I_around_1", text = "the sum I of the stiff-spring energies is an adiabatic invariant, oscillating around I(0) = 1",
    published = "I(0) = 1", any = why_I, premises = { M.stiff(P) },
    judge = function()
      local items = {}
      for _, s in ipairs(summary) do
        items[#items + 1] = { ok = math.abs(s.I_mean - 1) <= 0.02, label = string.format("p = %d around 1", s.p) }
        items[#items + 1] = { ok = math.abs(s.I_mean_q4 - s.I_mean_q1) <= M.drift_share * s.I_spread, label = string.format("p = %d without drift", s.p) }
      end
      return { measured = plist(P.p) .. cells(function(s) return E.T("mean %.4f in [%.3f, %.3f] (quarters %.4f, %.4f)",
                 s.I_mean, s.I_min, s.I_max, s.I_mean_q1, s.I_mean_q4) end) ..
               E.T(" (accept at every p: the mean of I over [%v, t_N] within %v of %v, and the means over the first and the last quarter within %v of the range of I)",
                   0, 0.02, 1, M.drift_share), items = items, what = "checks (two per p)" }
    end }
  cl:claim { key = "no_dissipation", text = "good energy behaviour, no numerical dissipation (total energy H)", published = "no dissipation",
    any = "a symplectic scheme in its stability region, at any parameters",
    judge = function()
      local items = {}
      for _, s in ipairs(summary) do
        items[#items + 1] = M.no_drift_item(s, "H_dev_q1", "H_dev_q4", "H_dev_range")
        items[#items + 1] = { ok = math.max(s.H_err_first, s.H_err_second) <= 0.1, label = string.format("p = %d small", s.p) }
      end
      return { measured = plist(P.p) .. cells(function(s) return E.T("max %.2e, quarters %+.2e, %+.2e, range %.2e",
                 math.max(s.H_err_first, s.H_err_second), s.H_dev_q1, s.H_dev_q4, s.H_dev_range) end) ..
               E.T(" ((H − H₀)/H₀, H₀ = %.4f: the largest abs value, the means over the first and the last quarter of [%v, t_N], the range; accept at every p: the quarters' means within %v of the range (no drift) and the largest ≤ %v (good energy behaviour))",
                   summary[1].H0, 0, M.drift_share, 0.1), items = items, what = "checks (two per p)" }
    end }
  if #far > 0 then
    local names = {}
    for i, j in ipairs(far) do names[i] = "I" .. j end
    local last = M.by_p(summary)[#summary]
    cl:claim { key = "exchange", text = "the energy of the first stiff spring moves on to the second and the third",
      published = "visible", any = "the FPU chain's energy exchange, on the time scale ω, at any ω ≫ 1",
      premises = { M.stiff(P), M.spans_exchange(P) },
      judge = function()
        local items = {}
        for _, j in ipairs(far) do items[#items + 1] = { ok = last["I" .. j .. "_max"] > 0.3, label = "I" .. j } end
        return { measured = plist(P.p) .. cells(function(s)
                   local t = {}
                   for i, j in ipairs(far) do t[i] = E.T("%.3f", s["I" .. j .. "_max"]) end
                   return E.join(t, ", ")
                 end) .. E.T(" (largest %s over [%v, t_N]; accept: each > %v at the largest p, %d)", table.concat(names, ", "), 0, 0.3, last.p),
                 items = items, what = "springs" }
      end }
  end
  specific(cl, summary, cells, P)
  cl:write(nil, sc.id .. "-claims")
  local ref = kz.root .. "/paper/reference/" .. sc.id .. ".tsv" -- the printed return times of I2 (Figs. 6.4, 6.5)
  local fh = io.open(ref)
  if fh then fh:close() else ref = "" end
  sc:figure(sc.id, { id = sc.id, ps = P.p, springs = l, tmax = tmax, ref = ref,
                     title = string.format("%s, %s, ΔT = %g", M.describe(model), M.scheme_names[P.scheme] or P.scheme, P.dT) })
  return summary
end

---------------------------------------------------------------------------------------------------
-- Spring ring (Sec. 6.1, Figs. 6.6-6.9)
---------------------------------------------------------------------------------------------------

--- Spring-ring energies and angular momentum at every macro node of a run of the ring `model`:
-- rows {t, kinetic, potential, total, relerr} and {t, L1, L2, L3, dL3} (dL3 = L3(t) - L3(0)).
-- o: p, dT, T, tol. Returns both and the run (its out buffer is reused by the next such run).
function M.ring_energies(model, scheme, o)
  local res = M.run(model, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-8, reuse = true })
  local rows, Lrows, E0 = {}, {}, nil
  local en = kz.vec(3 * (res.N + 1))
  kz.call("kz_vmi_energies", model.model, res.N + 1, res.out, en, kz.report())
  for k = 0, res.N do
    local y = res.row(k)
    local K, V, W = en[3 * k], en[3 * k + 1], en[3 * k + 2]
    local E = K + V + W
    E0 = E0 or E
    rows[k + 1] = { t = k * o.dT, kinetic = K, potential = V + W, total = E, relerr = (E - E0) / E0 }
    local L1, L2, L3 = M.ring_L(y)
    Lrows[k + 1] = { t = k * o.dT, L1 = L1, L2 = L2, L3 = L3, dL3 = L3 - (k == 0 and L3 or Lrows[1].L3) }
  end
  return rows, Lrows, res
end

--- The positions of the slow bodies 1, 3, 5 (x, y, z each) at every stride-th macro node of a ring
-- run: rows {t, x1, y1, z1, x3, ..., z5}.
M.ring_position_columns = { "t", "x1", "y1", "z1", "x3", "y3", "z3", "x5", "y5", "z5" }
function M.ring_positions(res, stride)
  local rows = {}
  for k = 0, res.N, stride do
    local y, r = res.row(k), { t = k * res.dT }
    for j = 2, #M.ring_position_columns do r[M.ring_position_columns[j]] = y[j - 2] end
    rows[#rows + 1] = r
  end
  return rows
end

--- The largest |relerr| of ring_energies rows over t <= t_half and over t > t_half (the energy
-- error in the first and the second half of a run).
function M.relerr_halves(rows, t_half)
  local a, b = 0, 0
  for _, r in ipairs(rows) do
    if r.t <= t_half then a = math.max(a, math.abs(r.relerr)) else b = math.max(b, math.abs(r.relerr)) end
  end
  return a, b
end

--- The round-off floor of the Newton residual of (3.11) (momentum units) for a run with macro
-- step dT and p micro steps, from the model's initial state: a position known to one unit in the
-- last place, ulp(q) = 2^(e - 53) for |q| in [2^(e-1), 2^e), moves the residual by m ulp(q)/h (h = dT
-- for a slow body, dT/p for a fast one); the largest over the bodies. No tolerance below it can be
-- reached (the Newton loop of lib/methods/kz_vmi.c then stops on the update's round-off).
function M.residual_floor(model, dT, p)
  local mm, floor = model.model, 0
  for i = 1, model.ns + model.nf do
    local slow = i <= model.ns
    local arr = slow and mm.ms or mm.mf
    local m = arr ~= nil and arr[slow and i - 1 or i - 1 - model.ns] or (slow and mm.mass_s or mm.mass_f)
    local q = math.abs(model.y0[i])
    if q > 0 then
      local _, e = math.frexp(q)
      floor = math.max(floor, m * 2 ^ (e - 53) / (slow and dT or dT / p))
    end
  end
  return floor
end

--- Angular momentum of ring_energies rows {t, L1, L2, L3}: max_t |L3(t) - L3(0)| and the ranges
-- (max - min over t) of L1 and L2.
function M.L_drift(L)
  local d, r1, r2 = 0, { math.huge, -math.huge }, { math.huge, -math.huge }
  for _, r in ipairs(L) do
    d = math.max(d, math.abs(r.L3 - L[1].L3))
    r1 = { math.min(r1[1], r.L1), math.max(r1[2], r.L1) }
    r2 = { math.min(r2[1], r.L2), math.max(r2[2], r.L2) }
  end
  return d, r1[2] - r1[1], r2[2] - r2[1]
end

--- The keys of the spring-ring energy scenarios (Figs. 6.6-6.8), scheme as given: ΔT = 0.01,
-- p ∈ {1, 5, 10}, t_N = 50, Newton tolerance 1e-8 (Sec. 6.1).
function M.spring_ring_params(scheme)
  return M.keys({
    M.scheme_param(scheme),
    { "dT", 0.01, "", "macro step", positive = true, max = 1 },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 50, "", "final time t_N", positive = true, max = 1e4 },
    { "tol", 1e-8, "", "Newton tolerance (max-norm residual, momentum units)", positive = true, max = 1 },
    { "stride", 2, "", "write every stride-th macro node of the energies", integer = true, min = 1, max = 1e6 },
    { "pos_stride", 20, "", "write the slow bodies' positions at every pos_stride-th macro node", integer = true, min = 1, max = 1e6 },
    { "window", 1, "", "window length of the energy-error means (drift panel)", positive = true, max = 1e4 },
  }, M.ring_params())
end

--- The work estimate of a ring or FPU scenario: gradient evaluations of a run, about
-- 2 p (iterations + 1) per macro step with two iterations, summed over p.
function M.work(P, steps_of)
  local n = 0
  for _, p in ipairs(P.p) do n = n + 6 * p * steps_of(P.T, P.dT) end
  return n, "force evaluations"
end

--- Spring-ring energy (Figs. 6.6-6.8). For each p in P.p: the energies of P.scheme (P.dT, P.T,
-- P.tol; the model from the ring keys) -> data/<id>-p<p>.tsv (every P.stride-th node), the slow
-- bodies' positions -> data/<id>-p<p>-positions.tsv (every P.pos_stride-th node), the relative
-- energy error's mean and extremes over windows of P.window -> data/<id>-drift.tsv; E0, K0, the max
-- relative energy error over the first and the second half of [0, T] and the Newton total ->
-- tables/<id>.tsv; the claims of Sec. 6.1 (bounded without drift, amplitude decreasing with p, for
-- MM several orders of magnitude below E) -> tables/<id>-claims.{tsv,md}. compare (optional list
-- of schemes): also run them at each p and check that the max error grows along compare...,
-- P.scheme (Fig. 6.8: MM < TM < TT). Draws figures/<id>.svg.
function M.spring_ring_energy(sc, P, compare)
  M.check_nodes(sc, math.ceil(P.T / P.dT), M.max_rows, "parameters 'T', 'dT'", "macro nodes T/dT")
  local model = M.model("SR", P)
  local summary, drift = {}, {}
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    -- one p's run, a compute cell (lib/lua/kapitza/scenario/cells.lua: a sweep's merge replays it)
    local rows, positions, newton = sc:cell("energies", { p = p }, function()
      local rows, _, res = M.ring_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
      return rows, M.ring_positions(res, P.pos_stride), res.counts.newton_iters
    end)
    local head = string.format("%s, %s, dT = %g, p = %d, Newton tol %g", M.describe(model), P.scheme, P.dT, p, P.tol)
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), { "t", "kinetic", "potential", "total", "relerr" },
                 every(rows, P.stride), { head .. string.format(", every %d-th node", P.stride) })
    sc:write_tsv(string.format("data/%s-p%d-positions.tsv", sc.id, p), M.ring_position_columns,
                 positions,
                 { head .. string.format(", every %d-th node: positions of the slow bodies 1, 3, 5", P.pos_stride) })
    for _, w in ipairs(M.windows(rows, "relerr", P.window)) do
      drift[#drift + 1] = { p = p, t0 = w.t0, mean = w.mean, min = w.min, max = w.max }
    end
    local a, b = M.relerr_halves(rows, P.T / 2)
    local q1, q4, range = M.trend(rows, function(r) return r.relerr end, rows[#rows].t)
    summary[#summary + 1] = { p = p, E0 = rows[1].total, K0 = rows[1].kinetic, relerr_first = a,
                              relerr_second = b, relerr_q1 = q1, relerr_q4 = q4, relerr_range = range, newton = newton }
    sc:progress(string.format("p = %d", p))
  end
  sc:write_tsv("data/" .. sc.id .. "-drift.tsv", { "p", "t0", "mean", "min", "max" }, drift,
               { string.format("(E - E0)/E0 over windows [t0, t0 + %g): mean, min, max", P.window) })
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "E0", "K0", "relerr_first", "relerr_second", "relerr_q1", "relerr_q4", "relerr_range", "newton" },
               summary, { "max |E - E0|/|E0| over the first and the second half of [0, T]; relerr_q1/q4: mean of (E - E0)/E0 over the first/last",
                          "quarter of [0, t_N], relerr_range: its max - min over the run" })

  local cells = cells_of(summary)
  local cl = E.claims(sc)
  local why = "a symplectic scheme in its stability region, at any parameters"
  cl:claim { key = "no_drift", text = "the energy error oscillates around a constant value for the whole run: no energy gained or lost",
    published = "no drift", any = why,
    judge = function()
      local items = {}
      for i, s in ipairs(summary) do items[i] = M.no_drift_item(s, "relerr_q1", "relerr_q4", "relerr_range") end
      return { measured = plist(P.p) .. cells(function(s) return E.T("%+.2e, %+.2e, range %.2e", s.relerr_q1, s.relerr_q4, s.relerr_range) end) ..
                 E.T(" ((E − E₀)/E₀: the means over the first and the last quarter of [%v, t_N], the range over the run; accept: the means within %v of the range at every p)",
                     0, M.drift_share),
               items = items, what = "values of p" }
    end }
  if P.scheme == "MM" then
    cl:claim { key = "small_oscillations", text = "the oscillations of the total energy are several orders of magnitude smaller than E",
      published = "several orders", any = why,
      judge = function()
        return { measured = plist(P.p) .. cells(function(s) return E.T("%.2e", math.max(s.relerr_first, s.relerr_second)) end) ..
                   E.T(" (max abs(E − E₀)/E₀; accept < %v at every p)", 1e-2),
                 items = M.p_items(summary, function(s) return math.max(s.relerr_first, s.relerr_second) < 1e-2 end), what = "values of p" }
      end }
  end
  cl:claim { key = "amplitude_decreases", text = "the amplitude of the energy oscillations decreases as p grows (smaller Δt)",
    published = "decreases", any = "a smaller micro step Δt = ΔT/p, at any parameters", premises = { M.two_p(P) },
    judge = function()
      return { measured = plist(P.p) .. cells(function(s) return E.T("%.2e", s.relerr_first) end) ..
                 " (max abs(E − E₀)/E₀ over the first half; accept: strictly decreasing in p)",
               items = M.pair_items(summary, function(a, b) return b.relerr_first < a.relerr_first end), what = "steps in p" }
    end }
  if compare then
    local schemes = {}
    for j, sch in ipairs(compare) do schemes[j] = sch end
    schemes[#schemes + 1] = P.scheme
    -- the compared schemes' runs (made only where the claim's premise holds: in its judge)
    local function compared()
      local errs = {}
      for i, s in ipairs(summary) do
        local e = {}
        for j, sch in ipairs(compare) do
          e[j] = sc:cell("compare", { p = s.p, compare = sch }, function()
            local rows, m = M.ring_energies(model, sch, { p = s.p, dT = P.dT, T = P.T, tol = P.tol }), 0
            for _, r in ipairs(rows) do m = math.max(m, math.abs(r.relerr)) end
            return m
          end)
        end
        e[#schemes] = math.max(s.relerr_first, s.relerr_second)
        errs[i] = e
      end
      return errs
    end
    cl:claim { key = "ordering", text = "the energy error grows from Fig. 6.6 to 6.8: " .. table.concat(schemes, " < ") .. " at each p",
      published = table.concat(schemes, " < "), any = "a comparison of the schemes at equal steps, at any parameters",
      premises = { M.scheme_in(P, { "TT" }, "the scheme of Fig. 6.8 (trapezoidal-trapezoidal, compared with " .. table.concat(compare, " and ") .. ")") },
      judge = function()
        local parts, items, errs = {}, {}, compared()
        for i, s in ipairs(summary) do
          local e, f = errs[i], {}
          for j = 1, #e do
            if j > 1 then items[#items + 1] = { ok = e[j - 1] < e[j], label = string.format("p = %d %s < %s", s.p, schemes[j - 1], schemes[j]) } end
            f[j] = E.T("%.2e", e[j])
          end
          parts[#parts + 1] = E.T("p = %d: ", s.p) .. E.join(f, " / ")
        end
        return { measured = E.join(parts, "; ") .. " (max abs(E − E₀)/E₀, " .. table.concat(schemes, " / ") .. ")", items = items,
                 what = "comparisons" }
      end }
  end
  cl:write(nil, sc.id .. "-claims")
  sc:figure(sc.id, { id = sc.id, ps = P.p, tmax = P.T, window = P.window,
                     title = string.format("%s, %s, ΔT = %g", M.describe(model), M.scheme_names[P.scheme] or P.scheme, P.dT) })
  return summary
end

--- Refuse, before any computation, a run that would keep more than `limit` nodes (its rows are kept
-- in memory: the states in C buffers, the measured rows as Lua tables): n nodes of `what`, set by
-- `keys` (text naming the parameters).
function M.check_nodes(sc, n, limit, keys, what)
  if n > limit then
    sc:fail(string.format("%s: %.3g %s would be kept in memory (at most %.3g): reduce them", keys, n, what, limit))
  end
end

--- The node limits of the scenarios: 2e6 macro nodes where every node becomes a Lua row (energies,
-- angular momentum), 1e7 stored states (about 1 GB for the spring ring) elsewhere.
M.max_rows, M.max_states = 2e6, 1e7

--- Gradient evaluations of runs with every p of ps and every dT of dTs to T: about 6 per micro
-- step (two potentials, about two Newton iterations), the `work` estimate of the scenarios.
function M.work_runs(ps, T, dTs)
  local n = 0
  for _, p in ipairs(ps) do
    for _, dT in ipairs(type(dTs) == "table" and dTs or { dTs }) do n = n + 6 * p * math.ceil(T / dT) end
  end
  return n
end

return M
