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
-- one stiffness value, or the method's work is interpolated at fewer than two of them.
function M.claim_exponent(cl, key, text, prob, P, rows, method, e, lo, hi)
  local k, pts = A.work_exponent(rows, A.rates(prob, P), method, e)
  local ran, measured = false, 0
  for _, r in ipairs(rows) do if r.method == method then ran = true break end end
  for _, p in ipairs(pts) do if p[2] and not p[3] then measured = measured + 1 end end
  local range = hi == math.huge and E.T("≥ %v", lo) or E.T("in [%v, %v]", lo, hi)
  return cl:claim { key = key, text = text, published = E.T("∝ %s^k, k ", rate_word(prob)) .. range, any = why_scaling,
    premises = { E.premise(ran, "%s among the run's methods", method),
                 E.at_least(#P[prob.stiff.key], 2, prob.stiff.label .. " values (an exponent)"),
                 E.at_least(measured, 2, E.T("%s values where %s's work for %.1e is interpolated, not bounded", prob.stiff.label, method, e)) },
    judge = function()
      local cells = {}
      for i, p in ipairs(pts) do cells[i] = sv(prob, P[prob.stiff.key][i]) .. ": " .. cost(p[2], p[3]) end
      return { measured = E.T("%s at %.1e: work ", method, e) .. E.join(cells, ", ") .. E.T("; fitted exponent %.2f over the interpolated values (accept ", k) ..
                 range .. ")", items = { k >= lo and k <= hi }, what = "exponent", values = { exponent = k } }
    end }
end

--- "At stiffness index si the cheapest method at error e belongs to one of `families`" (and,
-- with min_ratio, is at least that many times cheaper than the cheapest direct stepper). The
-- ranking and the ratio stand on measured works: the cheapest's and the best direct stepper's
-- must be interpolated, not bounds (a ratio to an upper bound is itself only a bound).
function M.claim_cheapest(cl, key, text, prob, P, rows, methods, e, si, families, min_ratio)
  local rk = A.ranking(rows, si, e, methods)
  local best, direct = rk[1], nil
  for _, r in ipairs(rk) do if r.family == "direct" then direct = direct or r end end
  local fam = {}
  for _, f in ipairs(families) do fam[f] = true end
  local fams = families_of(methods)
  local premises = { E.premise(any_of(fams, families), "a %s method in the run", table.concat(families, "/")),
                     E.premise(best ~= nil, "a method of the run reaches %.1e at %s = %s", e, prob.stiff.label, sv(prob, P[prob.stiff.key][si])),
                     E.premise(best ~= nil and not best.bound, "the cheapest work interpolated, not bounded (%s)",
                               best and (E.T("%s ", best.method) .. cost(best.work, best.bound)) or "—") }
  if min_ratio then
    premises[#premises + 1] = E.premise(fams.direct == true, "a direct stepper in the run to compare with")
    premises[#premises + 1] = E.premise(direct ~= nil and not direct.bound, "the best direct stepper's work interpolated, not bounded (%s)",
                                        direct and (E.T("%s ", direct.method) .. cost(direct.work, direct.bound)) or "none reaches the target")
  end
  return cl:claim { key = key, text = text, published = table.concat(families, "/") .. (min_ratio and E.T(", ratio ≥ %v", min_ratio).s or ""),
    any = "a ranking of the methods at one stiffness and target, measured where it is run", premises = premises,
    judge = function()
      local m = E.T("%s = %s, %.1e: cheapest %s (%s force evaluations)", prob.stiff.label, sv(prob, P[prob.stiff.key][si]), e, best.method, cost(best.work, best.bound))
      local items = { { ok = fam[best.family] == true, label = "the cheapest in " .. table.concat(families, "/") } }
      local values = {}
      if direct then m = m .. E.T(", best direct %s (%s)", direct.method, cost(direct.work, direct.bound)) end
      if min_ratio then
        local ratio = direct.work / best.work
        m = m .. E.T(", ratio %.3g (accept ≥ %v)", ratio, min_ratio)
        items[#items + 1] = { ok = ratio >= min_ratio, label = "the ratio" }
        values.ratio = ratio
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
-- stiffness counts where the family's work is measured (a bound on it cannot show that it is
-- larger); a bound on the other side is a bound the other way and may stand.
function M.claim_costlier(cl, key, text, prob, P, rows, methods, e, families, factor, against)
  against = against or { "direct" }
  local fam, ag = {}, {}
  for _, f in ipairs(families) do fam[f] = true end
  for _, f in ipairs(against) do ag[f] = true end
  local cells, items = {}, {}
  for si, sv_ in ipairs(P[prob.stiff.key]) do
    local a, d
    for _, r in ipairs(A.ranking(rows, si, e, methods)) do
      if fam[r.family] and not a then a = r end
      if ag[r.family] and not d then d = r end
    end
    if a and d and not a.bound then
      cells[#cells + 1] = sv(prob, sv_) .. E.T(": %s ", a.method) .. cost(a.work, a.bound) .. E.T(" / %s ", d.method) .. cost(d.work, d.bound) ..
                          E.T(" = %.3g", a.work / d.work)
      items[#items + 1] = { ok = a.work >= factor * d.work, label = (prob.stiff.show or tostring)(sv_) }
    else
      cells[#cells + 1] = sv(prob, sv_) .. ": " .. ((a and d) and E.T("%s's work only bounded (%s)", a.method, cost(a.work, a.bound))
                                                      or E.T("not reached by %s", table.concat(a and against or families, "/")))
    end
  end
  local fams = families_of(methods)
  return cl:claim { key = key, text = text, published = E.T("≥ %v", factor), any = "a comparison of the methods' work, measured where both are run",
    premises = { E.premise(any_of(fams, families) and any_of(fams, against), "a %s and a %s method in the run", table.concat(families, "/"), table.concat(against, "/")) },
    judge = function()
      return { measured = E.T("%.1e: ", e) .. E.join(cells, "; ") .. E.T(" (accept ratio ≥ %v wherever both reach the target with a measured work)", factor),
               items = items, what = prob.stiff.label .. " values", none = "no stiffness where both reach the target with a measured work" }
    end }
end

return M
