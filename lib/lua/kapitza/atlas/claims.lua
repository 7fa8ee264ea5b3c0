-- atlas_claims.lua -- the statements an atlas scenario makes (experiment.claims), each measured on
-- the sweep of lib/lua/kapitza/atlas.lua with its acceptance rule: a work exponent against the
-- stiffness, the cheapest family at a target error, a target no method of a family reaches, a
-- family costlier than another by a factor.
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"

local M = {}

--- The claims table of an atlas scenario (experiment.claims, with the atlas's column heads).
function M.claims(sc)
  return E.claims(sc):headed { "statement (atlas)", "expected", "measured", "holds" }
end

local function rate_word(prob) return prob.stiff.rate_label or prob.stiff.label end

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

--- "The work `method` needs for error e grows like rate^k, k in [lo, hi]", fitted over the
-- stiffness values where the method reaches e by interpolation (an upper bound is not a
-- measurement of the work). n/a (nothing to fit) when the method is not in the run, the run has
-- one stiffness value, or the method's work is interpolated at fewer than two of them.
function M.claim_exponent(cl, key, text, prob, P, rows, method, e, lo, hi)
  local k, pts = A.work_exponent(rows, A.rates(prob, P), method, e)
  local ran = false
  for _, r in ipairs(rows) do if r.method == method then ran = true break end end
  local cells = {}
  for i, p in ipairs(pts) do
    cells[i] = string.format("%s: %s", (prob.stiff.show or tostring)(P[prob.stiff.key][i]), A.cost_str(p[2], p[3]))
  end
  local measured = string.format("%s at %s: work %s; fitted exponent %s (accept %s)", method, S.sci(e, 1),
    table.concat(cells, ", "), k and string.format("%.2f", k) or "not measured (fewer than two interpolated values)",
    hi == math.huge and string.format("≥ %g", lo) or string.format("%g to %g", lo, hi))
  local range = hi == math.huge and string.format("≥ %g", lo) or string.format("[%g, %g]", lo, hi)
  local holds
  if not ran then
    holds = E.na(method .. " is not among this run's methods")
  elseif #P[prob.stiff.key] < 2 then
    holds = E.na(string.format("one %s in this run: no exponent to fit", prob.stiff.label))
  elseif not k then
    holds = E.na(string.format("%s's runs bracket %s at fewer than two %s values: no exponent to fit", method, S.sci(e, 1), prob.stiff.label))
  else
    holds = k >= lo and k <= hi
  end
  return cl:add(key, text, string.format("∝ %s^k, k %s", rate_word(prob), hi == math.huge and range or ("in " .. range)),
                measured, holds)
end

--- "At stiffness index si the cheapest method at error e belongs to one of `families`" (and,
-- with min_ratio, is at least that many times cheaper than the cheapest direct stepper).
function M.claim_cheapest(cl, key, text, prob, P, rows, methods, e, si, families, min_ratio)
  local rk = A.ranking(rows, si, e, methods)
  local best, direct = rk[1], nil
  for _, r in ipairs(rk) do if r.family == "direct" then direct = direct or r end end
  local fam = {}
  for _, f in ipairs(families) do fam[f] = true end
  local ok = best ~= nil and fam[best.family] == true
  local ratio = best and direct and direct.work / best.work
  if min_ratio then ok = ok and ratio ~= nil and ratio >= min_ratio end
  local measured = best and string.format("%s = %s, %s: cheapest %s (%s force evaluations)%s",
    prob.stiff.label, (prob.stiff.show or tostring)(P[prob.stiff.key][si]), S.sci(e, 1), best.method, A.cost_str(best.work, best.bound),
    direct and string.format(", best direct %s (%s), ratio %.3g", direct.method, A.cost_str(direct.work, direct.bound), ratio) or "") or
    "no method reaches it"
  if min_ratio then measured = measured .. string.format(" (accept a family of %s, ratio ≥ %g)", table.concat(families, "/"), min_ratio) end
  -- nothing to rank: no method of the families, or (for a ratio) no direct stepper, in the run
  local fams = families_of(methods)
  if not any_of(fams, families) then
    ok = E.na(string.format("no %s method in this run", table.concat(families, "/")))
  elseif min_ratio and not fams.direct then
    ok = E.na("no direct stepper in this run to compare with")
  elseif not best then
    ok = E.na("no method of this run reaches the target there")
  end
  return cl:add(key, text, table.concat(families, "/"), measured, ok)
end

--- "No method of the families reaches error e at stiffness index si" (the smallest errors).
function M.claim_unreached(cl, key, text, prob, P, rows, methods, e, si, families)
  local fam, worst_best, cells, ok = {}, nil, {}, true
  for _, f in ipairs(families) do fam[f] = true end
  for _, m in ipairs(methods) do
    if fam[m.family] then
      local b = A.best_error(rows, si, m.name)
      cells[#cells + 1] = string.format("%s %s", m.name, b and S.sci(b, 2) or "–")
      if b and b <= e then ok = false end
    end
  end
  if #cells == 0 then ok = E.na(string.format("no %s method in this run", table.concat(families, "/"))) end
  return cl:add(key, text, "> " .. S.sci(e, 1), string.format("%s = %s, smallest errors: %s", prob.stiff.label,
    (prob.stiff.show or tostring)(P[prob.stiff.key][si]), #cells > 0 and table.concat(cells, ", ") or "—"), ok)
end

--- "The cheapest method of `families` needs at least `factor` times the work of the cheapest
-- method of `against` (default: the direct steppers) at every stiffness where both reach e".
function M.claim_costlier(cl, key, text, prob, P, rows, methods, e, families, factor, against)
  against = against or { "direct" }
  local fam, ag, cells, ok, n = {}, {}, {}, true, 0
  for _, f in ipairs(families) do fam[f] = true end
  for _, f in ipairs(against) do ag[f] = true end
  for si, sv in ipairs(P[prob.stiff.key]) do
    local a, d
    for _, r in ipairs(A.ranking(rows, si, e, methods)) do
      if fam[r.family] and not a then a = r end
      if ag[r.family] and not d then d = r end
    end
    if a and d then
      n = n + 1
      cells[#cells + 1] = string.format("%s: %s %s / %s %s = %.3g", (prob.stiff.show or tostring)(sv), a.method,
                                        A.cost_str(a.work, a.bound), d.method, A.cost_str(d.work, d.bound), a.work / d.work)
      ok = ok and a.work >= factor * d.work
    else
      cells[#cells + 1] = string.format("%s: not reached by %s", (prob.stiff.show or tostring)(sv),
                                        table.concat(a and against or families, "/"))
    end
  end
  local fams = families_of(methods)
  local holds = ok
  if not any_of(fams, families) or not any_of(fams, against) then
    holds = E.na(string.format("this run lacks a %s method", table.concat(any_of(fams, families) and against or families, "/")))
  elseif n == 0 then
    holds = E.na("at no stiffness value do both reach the target")
  end
  return cl:add(key, text, "≥ " .. factor, S.sci(e, 1) .. ": " .. table.concat(cells, "; ") ..
                string.format(" (accept ratio ≥ %g wherever both reach the target, at least once)", factor), holds)
end


return M
