-- vmi_convergence.lua -- the convergence study of the variational multirate paper (Sec. 6.2,
-- (6.1)-(6.2), Figs. 6.10-6.17, Table 2) and the computing-time runs of Sec. 6.3: runs over p and
-- dT against a reference, fitted orders and local slopes, the verdicts, and the scenario drivers.
-- Every function of lib/lua/kapitza/papers/vmi_claims.lua (and through it of the binding lib/lua/kapitza/vmi.lua)
-- is reached through this module too (M falls back to it).
local kz = require "kapitza"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local C = kz.C

local M = setmetatable({}, { __index = require "kapitza.papers.vmi_claims" })

---------------------------------------------------------------------------------------------------
-- Convergence (Sec. 6.2, Figs. 6.10-6.17, Table 2)
---------------------------------------------------------------------------------------------------

--- Convergence study (Sec. 6.2, (6.1)-(6.2)) of `model` (or a problem name, "FPU" or "SR", built
-- with the keys in o): for each p and dT, run to T and measure the errors against a reference on
-- the grid href. ref = "rk4" (RK4 with `sub` steps per grid interval) or "vi" (the paper's choice:
-- the same scheme with p = 1 and step href/sub). Returns rows {p, dT, q_mac, p_mac, q_mic, p_mic,
-- qs, qf, ps, pf, newton}.
function M.convergence(model, scheme, o)
  if type(model) == "string" then model = M.model(model, o) end
  local n = math.floor(o.T / o.href + 0.5)
  local ref
  local function reference() -- (made when a run needs it: a sweep's merge replays the runs)
    if ref then return ref end
    if o.ref == "vi" then
      ref = M.reference_vi(model, scheme, o.href, n, o.sub, o.tol)
    else
      ref = M.reference(model, o.href, n, o.sub)
    end
    return ref
  end
  -- o.cell(name, point, fn): the scenario's compute cell (lib/lua/kapitza/scenario/cells.lua)
  local cell = o.cell or function(_, _, f) return f() end
  local rows = {}
  for _, p in ipairs(o.p) do
    for _, dT in ipairs(o.dT) do
      local e = cell("run", { p = p, dT = dT, scheme = scheme }, function()
        local res = M.run(model, scheme, { p = p, dT = dT, T = o.T, tol = o.tol, micro = true, reuse = true })
        local e = M.errors(model, res, reference(), o.href, n + 1)
        e.p, e.dT, e.newton = p, dT, res.counts.newton_iters
        return e
      end)
      rows[#rows + 1] = e
      if o.progress then o.progress() end
    end
  end
  return rows
end

-- The rows of one p, from the largest dT to the smallest.
local function rows_of(rows, p)
  local sel = {}
  for _, r in ipairs(rows) do if r.p == p then sel[#sel + 1] = r end end
  table.sort(sel, function(a, b) return a.dT > b.dT end)
  return sel
end

--- Fitted order of column col for one p over the `count` smallest dT (which = "smallest", the
-- default) or the `count` largest (which = "largest").
function M.fit_order(rows, p, col, count, which)
  which = which or "smallest"
  if which ~= "smallest" and which ~= "largest" then
    error("vmi.fit_order: which must be 'smallest' or 'largest' (got " .. tostring(which) .. ")", 2)
  end
  local sel = rows_of(rows, p)
  local from, to = math.max(1, #sel - count + 1), #sel
  if which == "largest" then from, to = 1, math.min(count, #sel) end
  local xs, ys = {}, {}
  for i = from, to do xs[#xs + 1] = sel[i].dT; ys[#ys + 1] = sel[i][col] end
  return E.slope(xs, ys)
end

--- The local slopes of column col for one p, between consecutive dT from the largest to the
-- smallest (experiment.local_slopes), and the dT (largest first).
function M.local_slopes(rows, p, col)
  local xs, ys = {}, {}
  for i, r in ipairs(rows_of(rows, p)) do xs[i], ys[i] = r.dT, r[col] end
  return E.local_slopes(xs, ys), xs
end

M.error_columns = { "q_mac", "p_mac", "q_mic", "p_mic", "qs", "qf", "ps", "pf" }

--- Is error column col measured at p? The inner micro nodes m = 1..p-1 exist only for p >= 2
-- (kz_vmi_errors writes 0 for them otherwise, whose slopes would be 0/0).
function M.measured(p, col) return p >= 2 or (col ~= "q_mic" and col ~= "p_mic") end

--- Tolerances of the convergence claims (slopes): a fitted order within `order` of the claimed
-- integer (the correct code is within 0.05 of it at every p of Figs. 6.10-6.17); a transition
-- "from a to b": the largest local slope over the larger-dT half of the range within `start` of a,
-- the last one within `finish` of b; "between" additionally asks for two consecutive local slopes
-- strictly inside (b + mid, a - mid), which neither a first- nor a second-order curve has.
-- `settled`: the premise that a curve is in its asymptotic regime where the claim reads it: the
-- local slopes there (over the fitted dT of an order; the last two of a transition) differ by at
-- most this much (a curve still bending gives no order).
M.tol = { order = 0.1, start = 0.25, finish = 0.15, mid = 0.2, settled = 0.1 }

-- A difference d shown against its tolerance `tol`: two decimals, or as many more as it takes for
-- the text to show on which side of the tolerance it lies (0.1008 is not "0.10, at most 0.1").
local function against(d, tol)
  for digits = 2, 6 do
    local s = string.format("%." .. digits .. "f", d)
    if (tonumber(s) > tol) == (d > tol) then return digits end
  end
  return 17
end
M.against = against

-- The largest ratio of consecutive dT of the list dTs (largest first) from the first to the upto-th
-- (all when upto is nil), and the factor a transition from a to b needs: for an error
-- A ΔT^a + B ΔT^b the local slope lies in the intermediate regime (b + mid, a - mid) over a factor
-- ((a - b - mid)/mid)² in ΔT (16 for (2, 1)); a list resolves the transition (two local slopes in
-- that regime, a start not averaged across the crossover) only with consecutive ΔT within the square
-- root of it (4).
local function spacing(dTs, upto, c)
  local worst = 1
  for i = 2, math.min(upto or #dTs, #dTs) do worst = math.max(worst, dTs[i - 1] / dTs[i]) end
  return worst, ((c.from - c.to - M.tol.mid) / M.tol.mid) ^ 2
end

--- The premises of one convergence claim c (see convergence_scenario) at p: a list of premises
-- (experiment.premise): errors measured at p (inner micro nodes exist for p >= 2), enough dT (an
-- order or a ratio needs three in the fit, a transition three: two local slopes), the asymptotic
-- regime reached (an order, a ratio: the local slopes of its errors over the fitted dT settled; a
-- transition: the last two), and for a transition a ΔT list that reaches the paper's smallest step
-- `tiny` and a start that is seen or could have been (the paper's largest step `big`, resolved).
function M.premises(rows, p, c, fit, tiny, big)
  local measured = M.measured(p, c.col) and (not c.over or M.measured(p, c.over))
  local t = { E.premise(measured, "errors at the inner micro nodes measured (p = %d; they exist for p ≥ %d)", p, 2) }
  if not measured then return t end
  local ndT = #rows_of(rows, p)
  fit = math.min(fit, ndT)
  if c.kind == "order" or c.kind == "ratio" then
    -- a ratio of two errors is a constant of the scheme only where both have settled on their order
    t[#t + 1] = E.at_least(fit, 3, "ΔT in the fit (a slope and whether it is settled)")
    if fit >= 3 then
      for _, col in ipairs(c.kind == "ratio" and { c.col, c.over } or { c.col }) do
        local sl = M.local_slopes(rows, p, col)
        local lo, hi = math.huge, -math.huge
        for i = #sl - fit + 2, #sl do lo, hi = math.min(lo, sl[i]), math.max(hi, sl[i]) end
        t[#t + 1] = E.premise(hi - lo <= M.tol.settled, "the %d smallest ΔT in the asymptotic regime%s: their local slopes differ by %." ..
                              against(hi - lo, M.tol.settled) .. "f, at most %v", fit, c.kind == "ratio" and (" (" .. col .. ")") or "",
                              hi - lo, M.tol.settled)
      end
    end
  else
    local sl, dTs = M.local_slopes(rows, p, c.col)
    t[#t + 1] = E.at_least(#sl, 2, "local slopes (a transition)")
    -- "for tiny steps": the list reaches the smallest step the paper ran
    t[#t + 1] = E.premise(dTs[#dTs] <= tiny * (1 + 1e-9), "the ΔT list reaches the paper's tiny steps: smallest ΔT %v at most %v", dTs[#dTs], tiny)
    if #sl >= 2 and big then
      -- "starts with order a": read as the largest local slope over the larger-ΔT half (M.decide). A
      -- local slope is a mean of the curve's slope over its interval, so a start seen there (within
      -- a ± start) is seen; one not seen is evidence against only where the list reaches the paper's
      -- largest step and resolves the crossover there (spacing), else the slope is averaged across it
      local half, start = math.floor(#sl / 2), -math.huge
      for i = 1, half do start = math.max(start, sl[i]) end
      local worst, span = spacing(dTs, half + 1, c)
      local seen = math.abs(start - c.from) <= M.tol.start
      t[#t + 1] = E.premise(seen or (dTs[1] >= big * (1 - 1e-9) and worst <= span ^ 0.5 * (1 + 1e-9)),
                            "the start resolved: seen (largest local slope over the larger-ΔT half %." .. against(math.abs(start - c.from), M.tol.start) ..
                            "f, within %v ± %v), or the ΔT list reaches the paper's largest step (this run: %v, at least %v) with consecutive ΔT there within a factor %.3g (this run: up to %.3g)",
                            start, c.from, M.tol.start, dTs[1], big, span ^ 0.5, worst)
    end
    if #sl >= 2 then
      local d = math.abs(sl[#sl] - sl[#sl - 1])
      t[#t + 1] = E.premise(d <= M.tol.settled,
                            "the smallest ΔT reach the final regime: the last two local slopes differ by %." .. against(d, M.tol.settled) .. "f, at most %v",
                            d, M.tol.settled)
    end
    if c.kind == "between" then
      -- "rates between a and b" needs two local slopes inside the intermediate regime, anywhere in
      -- the list (spacing)
      local worst, span = spacing(dTs, nil, c)
      t[#t + 1] = E.premise(worst <= span ^ 0.5 * (1 + 1e-9),
                            "the ΔT list resolves the intermediate regime: consecutive ΔT within a factor %.3g (this run: up to %.3g)",
                            span ^ 0.5, worst)
    end
  end
  return t
end

--- Decide one convergence claim c (see convergence_scenario) for one p, where its premises hold
-- (M.premises): whether it holds, the measured value (a text) and the rule (a text). fit: the
-- number of smallest dT of the fitted orders (at most the dT given).
function M.decide(rows, p, c, fit)
  local ndT = #rows_of(rows, p)
  fit = math.min(fit, ndT)
  if c.kind == "order" then
    local s = M.fit_order(rows, p, c.col, fit)
    return math.abs(s - c.order) <= M.tol.order, E.T("%.3f", s),
           E.T("least-squares slope over the %d smallest ΔT within %v ± %v", fit, c.order, M.tol.order)
  end
  if c.kind == "ratio" then
    local sel, lo, hi = rows_of(rows, p), math.huge, -math.huge
    for i = math.max(1, #sel - fit + 1), #sel do
      local x = sel[i][c.col] / sel[i][c.over]
      lo, hi = math.min(lo, x), math.max(hi, x)
    end
    return lo >= c.lo and hi <= c.hi, E.T("%.3f–%.3f", lo, hi), E.T("%s/%s over the %d smallest ΔT within [%v, %v]", c.col, c.over, fit, c.lo, c.hi)
  end
  local sl = M.local_slopes(rows, p, c.col)
  local txt = {}
  for i, v in ipairs(sl) do txt[i] = E.T("%.2f", v) end
  local rule = E.T("local slopes: the largest over the larger-ΔT half within %v ± %v, the last within %v ± %v", c.from, M.tol.start, c.to, M.tol.finish)
  if c.kind == "between" then
    rule = rule .. E.T(", and two consecutive ones in (%v, %v)", c.to + M.tol.mid, c.from - M.tol.mid)
  elseif c.kind ~= "transition" then
    error("vmi.decide: unknown claim kind '" .. tostring(c.kind) .. "'", 2)
  end
  local start = -math.huge
  for i = 1, math.max(1, math.floor(#sl / 2)) do start = math.max(start, sl[i]) end
  local ok = math.abs(start - c.from) <= M.tol.start and math.abs(sl[#sl] - c.to) <= M.tol.finish
  if c.kind == "between" then
    local run, best = 0, 0
    for _, v in ipairs(sl) do
      if v > c.to + M.tol.mid and v < c.from - M.tol.mid then run = run + 1 else run = 0 end
      best = math.max(best, run)
    end
    ok = ok and best >= 2
  end
  return ok, E.join(txt, " "), rule
end

--- The keys every convergence scenario (Figs. 6.10-6.17, Table 2) shares, then those of the
-- model(s) ("FPU", "SR" or "both") and `extra`.
function M.convergence_params(problem, extra)
  local t = {
    { "p", { 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 1000 },
    { "dT", { 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005 }, "", "macro steps (list; every micro node on the reference grid)",
      positive = true, max = 0.5 },
    { "T", 0.5, "", "final time t_N (as the paper's reference runs)", positive = true, max = 10 },
    { "tol", 1e-12, "", "Newton tolerance (max-norm residual)", positive = true, max = 1e-3 },
    { "ref", "rk4", "", "reference: RK4 on (2.4), or the paper's tiny-step single-rate VI", choices = { "rk4", "vi" } },
    { "href", 5e-6, "", "spacing of the stored reference grid (every micro node lies on it)", positive = true, min = 1e-8, max = 1e-2 },
    { "sub", 1, "", "reference steps per grid spacing (RK4: 1 -> h = 5e-6; vi: 10 / 5 -> the paper's 5e-7 (FPU) / 1e-6 (SR))",
      integer = true, min = 1, max = 1000 },
    { "fit", 4, "", "number of smallest dT used for the fitted orders", integer = true, min = 2, max = 100 },
  }
  local models = problem == "FPU" and M.fpu_params() or problem == "SR" and M.ring_params() or M.keys(M.fpu_params(), M.ring_params())
  return M.keys(t, models, extra or {})
end

--- The work of a convergence scenario: its runs and the reference (RK4: 4 evaluations per step).
function M.convergence_work(P, problems)
  local n = M.work_runs(P.p, P.T, P.dT) + 4 * P.sub * P.T / P.href
  return n * (problems or 1), "force evaluations"
end

--- Check the grid of a convergence scenario before running: every dT must divide T and put every
-- micro node on the reference grid.
function M.convergence_check(sc, P)
  E.check_list(sc, P, "p")
  E.check_list(sc, P, "dT")
  for _, dT in ipairs(P.dT) do
    if tonumber(C.kz_steps_in(P.T, dT)) < 1 then
      sc:fail(string.format("parameters 'dT', 'T': T = %g is not a whole number of macro steps dT = %g", P.T, dT))
    end
    for _, p in ipairs(P.p) do
      if tonumber(C.kz_steps_in(dT / p, P.href)) < 1 then
        sc:fail(string.format("parameters 'dT', 'p', 'href': the micro step dT/p = %g/%d is not a whole number of reference spacings href = %g",
                              dT, p, P.href))
      end
    end
  end
  E.no_repeats(sc, P, { "dT", "p" })
  local dmin, pmax = math.huge, 0
  for _, dT in ipairs(P.dT) do dmin = math.min(dmin, dT) end
  for _, p in ipairs(P.p) do pmax = math.max(pmax, p) end
  M.check_nodes(sc, P.T / P.href * 36, M.max_states * 36, "parameters 'T', 'href'", "reference numbers (T/href rows of up to 36)")
  M.check_nodes(sc, P.T / dmin * pmax, M.max_states, "parameters 'T', 'dT', 'p'", "micro nodes T p/dT")
end

--- Run a convergence scenario: problem ("FPU", "SR"), scheme, claims and the figure's kind
-- ("errors": q and p on macro and micro nodes; "split": macro-node errors split slow/fast). Writes
-- data/<id>.tsv (the errors), data/<id>-slopes.tsv (the local slopes of every error between
-- consecutive dT), tables/<id>.tsv (per p and error: the fitted order over the `fit` smallest dT,
-- the largest local slope over the larger-dT half, the last local slope), tables/<id>-claims.{tsv,md}
-- and figures/<id>.svg. claims: list of {key, text, col, kind, ...}: kind "order" (order = k),
-- "transition" or "between" (from = a, to = b), "ratio" (over = column, lo, hi); each is decided at
-- every p of the run (M.decide).
function M.convergence_scenario(sc, P, problem, scheme, claims, figkind)
  local model = M.model(problem, P)
  sc:progress_start(#P.p * #P.dT)
  local rows = M.convergence(model, scheme, { p = P.p, dT = P.dT, T = P.T, tol = P.tol, ref = P.ref,
                                              href = P.href, sub = P.sub, progress = function() sc:progress() end,
                                              cell = function(...) return sc:cell(...) end })
  local cols = { "p", "dT", "q_mac", "p_mac", "q_mic", "p_mic", "qs", "qf", "ps", "pf", "newton" }
  sc:write_tsv("data/" .. sc.id .. ".tsv", cols, rows,
    { string.format("%s, scheme %s, t_N = %g, Newton tol %g, reference %s (grid %g, %d steps per grid interval)",
                    M.describe(model), scheme, P.T, P.tol, P.ref, P.href, P.sub),
      "errors (6.1)-(6.2): sup over nodes of the Euclidean norm; q_mac, p_mac on macro nodes (q = (q^s, q^f)),",
      "q_mic, p_mic on the inner micro nodes (fast variables); qs, qf, ps, pf: macro-node errors split slow/fast" })
  local slopes, fits = {}, {}
  for _, p in ipairs(P.p) do
    local sel = rows_of(rows, p)
    for i = 2, #sel do slopes[#slopes + 1] = { p = p, dT_hi = sel[i - 1].dT, dT_lo = sel[i].dT } end
    local base = #slopes - (#sel - 1)
    local fit = math.min(P.fit, #sel) -- the fitted order over at most the dT given; none from one dT
    for _, c in ipairs(M.error_columns) do
      if M.measured(p, c) then
        local sl = M.local_slopes(rows, p, c)
        for i, v in ipairs(sl) do slopes[base + i][c] = v end
        local start = #sl > 0 and -math.huge or "—"
        for i = 1, #sl > 0 and math.max(1, math.floor(#sl / 2)) or 0 do start = math.max(start, sl[i]) end
        fits[#fits + 1] = { p = p, column = c, order = fit >= 2 and M.fit_order(rows, p, c, fit) or "—", start = start,
                            last = sl[#sl] or "—" }
      else -- "-": not measured (no inner micro nodes)
        for i = 1, #sel - 1 do slopes[base + i][c] = "-" end
        fits[#fits + 1] = { p = p, column = c, order = "-", start = "-", last = "-" }
      end
    end
  end
  local scols = { "p", "dT_hi", "dT_lo" }
  for _, c in ipairs(M.error_columns) do scols[#scols + 1] = c end
  sc:write_tsv("data/" .. sc.id .. "-slopes.tsv", scols, slopes,
               { "local slopes log(e(dT_hi)/e(dT_lo)) / log(dT_hi/dT_lo) of every error between consecutive dT" })
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "column", "order", "start", "last" }, fits,
               { string.format("order: least-squares slope of log(error) against log(dT) over the %d smallest dT;", math.min(P.fit, #P.dT)),
                 "start: largest local slope over the larger-dT half of the range; last: the local slope at the smallest dT" })

  -- each claim is decided at every p where its premises hold; it is n/a only where they hold at
  -- none (the premises column says which failed where)
  local cl = E.claims(sc)
  local tiny, big = math.huge, 0 -- the smallest and the largest dT of the paper's list (the default)
  for _, dT in ipairs(sc.byname.dT[2]) do tiny, big = math.min(tiny, dT), math.max(big, dT) end
  for _, c in ipairs(claims) do
    local ok_p, first_fail = {}, nil
    for _, p in ipairs(P.p) do
      local good = true
      for _, pr in ipairs(M.premises(rows, p, c, P.fit, tiny, big)) do
        if not pr.ok then good = false; first_fail = first_fail or (E.T("p = %d: ", p) .. pr.text) end
      end
      if good then ok_p[#ok_p + 1] = p end
    end
    cl:claim { key = c[1], text = c[2], published = c.published or (c.kind == "order" and ("order " .. c.order) or
               c.kind == "ratio" and "equal" or string.format("%g → %g", c.from, c.to)),
      any = "an order of convergence, a property of the scheme in its asymptotic regime",
      premises = { E.premise(#ok_p > 0, "enough ΔT, in the asymptotic regime, at %d of %d values of p%s", #ok_p, #P.p,
                             first_fail and (E.T(" (") .. first_fail .. ")") or E.T("")) },
      judge = function()
        local cells, items, rule = {}, {}, nil
        for _, p in ipairs(ok_p) do
          local h, txt, r = M.decide(rows, p, c, P.fit)
          rule = r
          items[#items + 1] = { ok = h, label = "p = " .. p }
          cells[#cells + 1] = E.T("p = %d: ", p) .. txt
        end
        local skipped = #P.p - #ok_p
        return { measured = E.join(cells, "; ") .. " (" .. rule .. ")" ..
                   (skipped > 0 and (E.T("; not judged at %d p: ", skipped) .. (first_fail or "")) or ""),
                 items = items, what = "values of p" }
      end }
  end
  cl:write(nil, sc.id .. "-claims")
  local lo, hi = math.huge, -math.huge
  local series = figkind == "split" and { "qs", "qf", "ps", "pf" } or { "q_mac", "q_mic", "p_mac", "p_mic" }
  for _, r in ipairs(rows) do
    for _, c in ipairs(series) do
      if r[c] > 0 then lo, hi = math.min(lo, r[c]), math.max(hi, r[c]) end
    end
  end
  local dTs = {}
  for i, v in ipairs(P.dT) do dTs[i] = v end
  table.sort(dTs)
  sc:figure(sc.id, { id = sc.id, ps = P.p, kind = figkind or "errors", ymin = lo, ymax = hi, dTmin = dTs[1], dTmax = dTs[#dTs],
                     title = string.format("%s, %s: errors versus ΔT", M.describe(model), M.scheme_names[scheme] or scheme) })
  return rows
end

--- The --quick run every convergence scenario shares.
M.convergence_quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 }

--- A convergence figure of one problem (Figs. 6.10-6.17), in two calls around the scenario's own
-- sc:parse(arg) (the runner protects the script that parses): fig = { id, title, problem ("FPU",
-- "SR"), scheme, kind, claims } as M.convergence_scenario takes them. The keys, the --quick run,
-- the work estimate and the grid check are the shared ones. The figures that differ only in what
-- they show of the same runs (6.12 and 6.13: "errors" and "split"; 6.14 and 6.15) differ only in
-- their fig.
--   local sc = V.convergence_new(fig)
--   V.convergence_run(sc, sc:parse(arg), fig)
function M.convergence_new(fig)
  return S.new { id = fig.id, title = fig.title, params = M.convergence_params(fig.problem), quick = M.convergence_quick,
                 work = M.convergence_work }
end

function M.convergence_run(sc, P, fig)
  M.convergence_check(sc, P)
  return M.convergence_scenario(sc, P, fig.problem, fig.scheme, fig.claims, fig.kind)
end

---------------------------------------------------------------------------------------------------
-- Computing time (Sec. 6.3, Figs. 6.18, 6.19): work counts here; the times are measured by
-- scripts/bench-vmi-timing.lua (make bench), never by a scenario
---------------------------------------------------------------------------------------------------

--- The keys of the computing-time study: FPU, micro step dt fixed, dT = p dt, to T.
function M.study_params(extra)
  return M.keys({
    { "p", { 1, 5, 10, 20, 50, 100, 200, 500, 1000 }, "", "micro steps per macro step (list)", integer = true, min = 1, max = 100000 },
    { "dt", 0.001, "s", "micro step (fixed; the single-rate step of p = 1)", positive = true, max = 1 },
    { "T", 10, "s", "final time t_N (N = T/(p dt) macro steps)", positive = true, max = 1e4 },
    { "schemes", { "MM", "TM", "TT" }, "", "Q1, Q2, Q3 (list)", choices = M.scheme_choices },
    { "tol", 1e-9, "", "Newton tolerance (max-norm residual)", positive = true, max = 1 },
  }, extra or {}, M.fpu_params())
end

--- Check the study's runs before any computation: at most max_states macro nodes per run.
function M.study_check(sc, P, T, key)
  local pmin = math.huge
  for _, p in ipairs(P.p) do pmin = math.min(pmin, p) end
  M.check_nodes(sc, T / (pmin * P.dt), M.max_states, string.format("parameters '%s', 'dt', 'p'", key or "T"),
                "macro nodes T/(p dt)")
end

--- The work of a whole run of the study at every p and scheme.
function M.study_work(P)
  local n = 0
  for _, p in ipairs(P.p) do n = n + 6 * p * math.ceil(P.T / (p * P.dt)) * 3 end -- ~3 Newton iterations per step
  return n * #P.schemes, "force evaluations"
end

--- One run of the computing-time study: the FPU `model` with micro step o.dt and dT = p dt to o.T
-- (N = T/dT macro steps), Newton tolerance o.tol, o.predictor, structured solver; the work counts
-- of kz_vmi_run and the Hessians the Jacobian passes evaluate ((n_V + n_W) p per assembly, quad_points;
-- the few of the Verlet predictor are not included). Returns {scheme, predictor, p, N, unknowns,
-- newton, jac_evals, force_evals, hess_evals}.
function M.study_run(model, scheme, p, o)
  local dT = p * o.dt
  local N = M.steps(o.T, dT)
  local res = M.run(model, scheme, { p = p, dT = dT, N = N, tol = o.tol, predictor = o.predictor, reuse = true })
  local c = res.counts
  return { scheme = scheme, predictor = o.predictor or "verlet", p = p, N = N, unknowns = p * model.nf + model.ns,
           newton = c.newton_iters, jac_evals = c.jac_evals, force_evals = c.force_evals,
           hess_evals = c.jac_evals * M.quad_points(scheme) * p }
end

--- A long run at a large macro step (the stability statement of Sec. 7): `model`, scheme, p micro
-- steps of dt (dT = p dt) to T, Newton tolerance tol, predictor. Returns {ok, t_end, t_fail,
-- message, rows = {t, H, relerr} at every macro node reached, max_relerr (over them), t_10 (first
-- time |H - H0|/H0 > 0.1, or -1)}.
function M.long_run(model, scheme, p, o)
  local dT = p * o.dt
  local res = M.run_until(model, scheme, { p = p, dT = dT, N = M.steps(o.T, dT), tol = o.tol, predictor = o.predictor,
                                          reuse = true })
  local H = M.total_energy(model, res.out, res.steps + 1)
  local rows, mx, t10 = {}, 0, -1
  for k = 0, res.steps do
    local e = (H[k + 1] - H[1]) / H[1]
    rows[k + 1] = { t = k * dT, H = H[k + 1], relerr = e }
    mx = math.max(mx, math.abs(e))
    if t10 < 0 and math.abs(e) > 0.1 then t10 = k * dT end
  end
  return { ok = res.ok, t_end = res.steps * dT, t_fail = res.t_fail, message = res.message, rows = rows,
           max_relerr = mx, t_10 = t10, dT = dT, newton = res.counts.newton_iters }
end

--- Timing of one run for the benchmarks (scripts/bench-vmi*.lua): FPU, micro step o.dt, dT = p dt,
-- o.steps macro steps (default all N = T/dT), solver, o.predictor, with the library's timers of the
-- parts (enum kz_vmi_timing). Returns the counts and the times of the run: {N, steps, newton, jac,
-- force_evals, t_cpu, t_jac, t_dx, t_grad, t_predict} (seconds over the run).
function M.timing(scheme, solver, p, o)
  local fpu = o.model or M.fpu()
  local dT = p * o.dt
  local N = M.steps(o.T, dT)
  local steps = math.min(N, o.max_steps or N)
  local r = M.run(fpu, scheme, { p = p, dT = dT, N = steps, tol = o.tol or 1e-9, timing = true, solver = solver,
                                 predictor = o.predictor, reuse = true })
  return { N = N, steps = steps, newton = r.counts.newton_iters, jac = r.counts.jac_evals, force_evals = r.counts.force_evals,
           t_cpu = r.timing.total, t_jac = r.timing.jac, t_dx = r.timing.solve, t_grad = r.timing.grad,
           t_predict = r.timing.predict,
           -- per macro step and per Newton iteration (as the earlier scenarios reported them)
           t_dx_step = r.timing.solve / steps, t_jac_step = r.timing.jac / steps,
           t_dx_iter = r.timing.solve / math.max(1, r.counts.newton_iters),
           t_jac_iter = r.timing.jac / math.max(1, r.counts.jac_evals) }
end

return M
