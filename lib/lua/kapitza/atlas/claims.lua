-- atlas_claims.lua -- the statements an atlas scenario makes (experiment.claims), each measured on
-- the sweep of lib/lua/kapitza/atlas.lua with its acceptance rule: a work exponent against the
-- stiffness, the cheapest family at a target error, a target no method of a family reaches, a
-- family costlier than another by a factor. A work read from the curves is either interpolated
-- between two runs that bracket the target (a measurement) or the cost of the cheapest run already
-- more accurate than the target (an upper bound, "≤"): the true work may be anything below it. A
-- statement that needs a work (an exponent, a ranking, a ratio) takes it only where it is measured;
-- a bound is shown and never divided by.
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"

local M = {}

--- The claims table of an atlas scenario (experiment.claims, with the atlas's column heads).
function M.claims(sc)
  return E.claims(sc):headed { "statement (atlas)", "expected", "measured", "premises", "evidence", "holds" }
end

local function rate_word(prob) return prob.stiff.rate_label or prob.stiff.label end

-- a stiffness value as the problem shows it, a text carrying the value
local function sv(prob, x)
  local t = E.T("%s", (prob.stiff.show or tostring)(x))
  t.values[#t.values + 1] = x
  return t
end

-- "1.2e+04" or "≤ 1.2e+04" as a text carrying the number
local function cost(w, bound)
  if not w then return E.T("–") end
  return E.T("%s%.3g", bound and "≤ " or "", w)
end

-- The families of a list of methods (a set); does the set hold one of a list of families?
local function families_of(methods)
  local t = {}
  for _, m in ipairs(methods) do t[m.family] = true end
  return t
end
local function any_of(fams, list)
  for _, f in ipairs(list) do if fams[f] then return true end end
  return false
end

local why_scaling = "a scaling of the work with the stiffness, at any values in the method's asymptotic range"

--- "The work `method` needs for error e grows like rate^k, k in [lo, hi]", fitted over the
-- stiffness values where the method reaches e by interpolation (an upper bound is not a
-- measurement of the work). n/a (nothing to fit) when the method is not in the run, the run has
-- one stiffness value, or the method's work is interpolated at fewer than two of them. span
-- (optional): span(s), the time span the run integrates at stiffness s, where it is not the same at
-- every s (T rounded to whole multiples of 32 fast periods): a work that grows with the span then
-- moves the fitted exponent by the exponent of the spans themselves, which must stay within
-- SPAN_SLOPE (else n/a: the scaling measured would be the span's, not the stiffness's).
local SPAN_SLOPE = 0.02
M.SPAN_SLOPE = SPAN_SLOPE
function M.claim_exponent(cl, key, text, prob, P, rows, method, e, lo, hi, span)
  local rates = A.rates(prob, P)
  local k, pts = A.work_exponent(rows, rates, method, e)
  local ran, measured = false, 0
  for _, r in ipairs(rows) do if r.method == method then ran = true break end end
  local xs, ts = {}, {}
  for i, p in ipairs(pts) do
    if p[2] and not p[3] then
      measured = measured + 1
      if span then xs[#xs + 1], ts[#ts + 1] = rates[i], span(P[prob.stiff.key][i]) end
    end
  end
  local range = hi == math.huge and E.T("≥ %v", lo) or E.T("in [%v, %v]", lo, hi)
  local premises = { E.premise(ran, "%s among the run's methods", method),
                     E.at_least(#P[prob.stiff.key], 2, prob.stiff.label .. " values (an exponent)"),
                     E.at_least(measured, 2, E.T("%s values where %s's work for %.1e is interpolated, not bounded", prob.stiff.label, method, e)) }
  if span and #xs >= 2 and k then
    local ks = E.slope(xs, ts)
    local tl = {}
    for i, t in ipairs(ts) do tl[i] = E.T("%.4g", t) end
    -- a work in proportion to the span would be fitted at k - ks at equal spans: the spans do not
    -- matter when ks is small or when k - ks gets the same verdict as k
    local function inside(x) return x >= lo and x <= hi end
    premises[#premises + 1] = E.premise(math.abs(ks) <= SPAN_SLOPE or inside(k) == inside(k - ks),
                                        "the spans integrated (T rounded to whole multiples of %v periods) at those %s values (%s s) do not decide the verdict: " ..
                                        "their own exponent %.3f within ±%v, or the exponent less it (%.2f) on the same side of the bounds as %.2f",
                                        32, prob.stiff.label, E.join(tl, ", "), ks, SPAN_SLOPE, k - ks, k)
  end
  return cl:claim { key = key, text = text, published = E.T("∝ %s^k, k ", rate_word(prob)) .. range, any = why_scaling,
    premises = premises,
    judge = function()
      local cells = {}
      for i, p in ipairs(pts) do cells[i] = sv(prob, P[prob.stiff.key][i]) .. ": " .. cost(p[2], p[3]) end
      return { measured = E.T("%s at %.1e: work ", method, e) .. E.join(cells, ", ") .. E.T("; fitted exponent %.2f over the interpolated values (accept ", k) ..
                 range .. ")", items = { k >= lo and k <= hi }, what = "exponent", values = { exponent = k } }
    end }
end

-- The works of a set of ranking entries as an interval [lo, hi] for the set's cheapest true work:
-- hi the smallest work listed (a measured work or an upper bound), lo the smallest lower bound (a
-- measured work is its own; a bound "≤ X" has none: the true work may be anything below X, so 0).
-- Also the entry giving hi and, when lo is 0, the cheapest bounded entry (the witness of "unknown").
local function span_of(entries)
  local hi, lo, at, open = math.huge, math.huge, nil, nil
  for _, r in ipairs(entries) do
    if r.work < hi then hi, at = r.work, r end
    if r.bound then lo = 0; open = open or r else lo = math.min(lo, r.work) end
  end
  return lo, hi, at, open
end
M.span_of = span_of

local function entry(r) return r and (E.T("%s ", r.method) .. cost(r.work, r.bound)) or E.T("none") end

--- "At stiffness index si the cheapest method at error e belongs to one of `families`" (and,
-- with min_ratio, is at least that many times cheaper than the cheapest direct stepper). Each
-- method that reaches e has a work that is measured (interpolated) or only bounded above ("≤ X":
-- its cheapest run already beats e, and the true work may be anything below X). The ranking is
-- decided only where the bounds point the right way: "yes" where some method of `families` is
-- cheaper than every other method's least possible work (no method outside the families only
-- bounded), "no" where some other method is cheaper than every family method's least possible
-- work; otherwise n/a, naming the bound that leaves it open. The ratio likewise: its least value
-- (the direct steppers' least possible work over the family's largest) must reach min_ratio for
-- a check that holds, its largest value must fall short of it for one that fails -- a ratio to an
-- upper bound on the direct stepper's work is itself only an upper bound and is never counted as
-- "at least".
function M.claim_cheapest(cl, key, text, prob, P, rows, methods, e, si, families, min_ratio)
  local rk = A.ranking(rows, si, e, methods)
  local best = rk[1]
  local fam = {}
  for _, f in ipairs(families) do fam[f] = true end
  local F, N, D = {}, {}, {}
  for _, r in ipairs(rk) do
    if fam[r.family] then F[#F + 1] = r else N[#N + 1] = r end
    if r.family == "direct" then D[#D + 1] = r end
  end
  local loF, hiF, atF, openF = span_of(F)
  local loN, hiN, atN, openN = span_of(N)
  local loD, hiD, atD, openD = span_of(D)
  local yes_rank = #F > 0 and hiF < loN           -- a family method below every other's least work
  local no_rank = #N > 0 and hiN < loF            -- another method below every family method's least work
  local fams = families_of(methods)
  local fl = table.concat(families, "/")
  local premises = { E.premise(any_of(fams, families), "a %s method in the run", fl),
                     E.premise(best ~= nil, "a method of the run reaches %.1e at %s = %s", e, prob.stiff.label, sv(prob, P[prob.stiff.key][si])),
                     E.premise(best == nil or yes_rank or no_rank, "the ranking decided by the works, no work only bounded (≤) " ..
                               "where it could be below the other side's (cheapest %s: %s; cheapest other: %s; open: %s)", fl, entry(atF),
                               entry(atN), entry(openN or openF)) }
  local rl, ru -- the ratio's least and largest values
  if min_ratio then
    rl = (#F > 0 and #D > 0) and loD / hiF or nil
    ru = (#F > 0 and #D > 0 and loF > 0) and hiD / loF or math.huge
    premises[#premises + 1] = E.premise(fams.direct == true, "a direct stepper in the run to compare with")
    premises[#premises + 1] = E.premise(#D > 0, "a direct stepper that reaches %.1e", e)
    premises[#premises + 1] = E.premise(#D == 0 or no_rank or (rl and rl >= min_ratio) or ru < min_ratio,
                                        "the ratio decided by the works: the direct steppers' works interpolated, not bounded (%s), " ..
                                        "or the ratio already at least %v to the %s work's bound (%s)", entry(openD or atD), min_ratio, fl, entry(atF))
  end
  return cl:claim { key = key, text = text, published = fl .. (min_ratio and E.T(", ratio ≥ %v", min_ratio).s or ""),
    any = "a ranking of the methods at one stiffness and target, measured where it is run", premises = premises,
    judge = function()
      local m = E.T("%s = %s, %.1e: cheapest %s (%s force evaluations)", prob.stiff.label, sv(prob, P[prob.stiff.key][si]), e, best.method, cost(best.work, best.bound))
      local items = { { ok = yes_rank, label = "the cheapest in " .. fl } }
      local values = {}
      if atD then m = m .. E.T(", best direct %s (%s)", atD.method, cost(atD.work, atD.bound)) end
      if min_ratio and ((rl and rl >= min_ratio) or ru < min_ratio) then
        local ok = rl >= min_ratio
        if rl == ru then
          m = m .. E.T(", ratio %.3g (accept ≥ %v)", rl, min_ratio)
          values.ratio = rl
        elseif ok then
          m = m .. E.T(", ratio ≥ %.3g (the %s work only bounded; accept ≥ %v)", rl, fl, min_ratio)
          values.ratio_min = rl
        else
          m = m .. E.T(", ratio ≤ %.3g (accept ≥ %v)", ru, min_ratio)
          values.ratio_max = ru
        end
        items[#items + 1] = { ok = ok, label = "the ratio" }
      end
      return { measured = m, items = items, what = "checks", values = values }
    end }
end

--- "No method of the families reaches error e at stiffness index si" (the smallest errors).
function M.claim_unreached(cl, key, text, prob, P, rows, methods, e, si, families)
  local fam, mine = {}, {}
  for _, f in ipairs(families) do fam[f] = true end
  for _, m in ipairs(methods) do if fam[m.family] then mine[#mine + 1] = m end end
  return cl:claim { key = key, text = text, published = E.T("> %.1e", e), any = "the smallest errors the methods reach, measured where they are run",
    premises = { E.at_least(#mine, 1, table.concat(families, "/") .. " methods in the run") },
    judge = function()
      local cells, items = {}, {}
      for _, m in ipairs(mine) do
        local b = A.best_error(rows, si, m.name)
        cells[#cells + 1] = b and E.T("%s %.1e", m.name, b) or E.T("%s –", m.name)
        items[#items + 1] = { ok = not (b and b <= e), label = m.name }
      end
      return { measured = E.T("%s = %s, smallest errors: ", prob.stiff.label, sv(prob, P[prob.stiff.key][si])) .. E.join(cells, ", "), items = items,
               what = "methods" }
    end }
end

--- "The cheapest method of `families` needs at least `factor` times the work of the cheapest
-- method of `against` (default: the direct steppers) at every stiffness where both reach e". A
-- stiffness counts where the bounds decide it: the check holds where the family's least possible
-- work (no family method only bounded) is at least factor times the other side's largest (a bound
-- "≤" on the other side may stand: it only makes that side cheaper), and fails where the family's
-- largest is below factor times the other side's least (no method there only bounded); a stiffness
-- left open by a bound is shown and not counted.
function M.claim_costlier(cl, key, text, prob, P, rows, methods, e, families, factor, against)
  against = against or { "direct" }
  local fam, ag = {}, {}
  for _, f in ipairs(families) do fam[f] = true end
  for _, f in ipairs(against) do ag[f] = true end
  local cells, items = {}, {}
  for si, sv_ in ipairs(P[prob.stiff.key]) do
    local Fa, Ga = {}, {}
    for _, r in ipairs(A.ranking(rows, si, e, methods)) do
      if fam[r.family] then Fa[#Fa + 1] = r end
      if ag[r.family] then Ga[#Ga + 1] = r end
    end
    local loA, hiA, a, openA = span_of(Fa)
    local loG, hiG, d, openG = span_of(Ga)
    local head = sv(prob, sv_)
    if a and d then
      local pair = head .. E.T(": %s ", a.method) .. cost(a.work, a.bound) .. E.T(" / %s ", d.method) .. cost(d.work, d.bound)
      if loA >= factor * hiG then
        local r = loA / hiG
        cells[#cells + 1] = pair .. E.T(" %s %.3g", openG and "≥" or "=", r)
        items[#items + 1] = { ok = true, label = (prob.stiff.show or tostring)(sv_) }
      elseif hiA < factor * loG then
        local r = hiA / loG
        cells[#cells + 1] = pair .. E.T(" %s %.3g", openA and "≤" or "=", r)
        items[#items + 1] = { ok = false, label = (prob.stiff.show or tostring)(sv_) }
      else
        cells[#cells + 1] = pair .. E.T(": open, %s's work only bounded (%s)", (openA or openG).method, cost((openA or openG).work, true))
      end
    else
      cells[#cells + 1] = head .. ": " .. E.T("not reached by %s", table.concat(a and against or families, "/"))
    end
  end
  local fams = families_of(methods)
  return cl:claim { key = key, text = text, published = E.T("≥ %v", factor), any = "a comparison of the methods' work, measured where both are run",
    premises = { E.premise(any_of(fams, families) and any_of(fams, against), "a %s and a %s method in the run", table.concat(families, "/"), table.concat(against, "/")) },
    judge = function()
      return { measured = E.T("%.1e: ", e) .. E.join(cells, "; ") .. E.T(" (accept ratio ≥ %v wherever both reach the target and the works decide it)", factor),
               items = items, what = prob.stiff.label .. " values", none = "no stiffness where both reach the target and the works decide the ratio" }
    end }
end

return M
