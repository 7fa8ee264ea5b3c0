-- claims_join.lua -- the claims tables of a sweep's points that no single run holds (a scalar key
-- swept: kapitza.sweep.merge's join) as one table, by the rules of kapitza.claims: a verdict from
-- counted items, every non-yes with its reason, the premises and `at` of each point beside it.
local Cl = require "kapitza.claims"

local M = {}

--- The claims tables of the points of a sweep that no single run holds (a scalar key swept), as
-- one table: each claim judged at each point alone, its evidence the union of the judged points'
-- counted items (n/a points left out; the rule of M.verdict_of on the sums: every item of every
-- judged point -> yes, none -> no, some -> partly, no judged point -> n/a), the points' premises
-- and `at` beside it. points: list of { label = "point 0001 (periods=20)", rows = <rows read from
-- a claims .tsv (named columns)>, texts = <claim texts by row, or nil> }; premise: why the points
-- are judged alone. Returns the TSV's column names and rows, and the Markdown table's rows.
function M.join(points, premise)
  local order, by = {}, {}
  for pi, pt in ipairs(points) do
    for ri, r in ipairs(pt.rows) do
      local e = by[r.claim]
      if not e then
        e = { key = r.claim, text = pt.texts and pt.texts[ri] or r.claim, pts = {} }
        by[r.claim], order[#order + 1] = e, e
      end
      e.pts[#e.pts + 1] = { i = pi, label = pt.label, r = r }
    end
  end
  local function nz(x) x = tostring(x or ""); return (x == "" or x == "—") and nil or x end
  local function distinct(list, sep)
    local out, seen = {}, {}
    for _, x in ipairs(list) do if x and not seen[x] then seen[x] = true; out[#out + 1] = x end end
    return #out > 0 and table.concat(out, sep) or "—"
  end
  local rows, md = {}, {}
  for _, e in ipairs(order) do
    local pubs, ats, prems, parts, vals, not_yes = {}, {}, {}, {}, {}, {}
    local K, N, judged, what, counted = 0, 0, 0, nil, true
    for _, p in ipairs(e.pts) do
      local r, h = p.r, tostring(p.r.holds)
      pubs[#pubs + 1], ats[#ats + 1] = nz(r.published), nz(r.at)
      prems[#prems + 1] = nz(r.premises) and (p.label .. ": " .. r.premises)
      parts[#parts + 1] = string.format("%s: %s [%s]", p.label, tostring(r.reproduced or "—"), h)
      vals[#vals + 1] = "point=" .. p.i
      for kv in p.label:gmatch("[%w_]+=[^%s,)]+") do vals[#vals + 1] = kv end
      for tok in tostring(r.values or ""):gmatch("%S+") do if tok ~= "—" then vals[#vals + 1] = tok end end
      if h == "yes" or h == "no" or h == "partly" then
        judged = judged + 1
        local k, n, w = tostring(r.evidence or ""):match("^(%d+) of (%d+) ?([^(]*)")
        if k then K, N, what = K + tonumber(k), N + tonumber(n), what or (w ~= "" and w:gsub("%s+$", "") or nil)
        else counted = false end
        if h ~= "yes" then not_yes[#not_yes + 1] = p.label end
      end
    end
    if not counted then -- a point without counted items: the points are the items
      K, N, what = judged - #not_yes, judged, "points"
    end
    local v = judged == 0 and "n/a" or Cl.verdict_of(K, N)
    local measured = string.format("each point judged alone, %d of %d with a verdict: %s", judged, #e.pts, table.concat(parts, "; "))
    if #e.pts < #points then measured = measured .. string.format(" (a claim of %d of the %d points)", #e.pts, #points) end
    vals[#vals + 1] = "judged=" .. judged
    vals[#vals + 1] = "points=" .. #e.pts
    vals[#vals + 1] = "of=" .. #points
    local evidence = judged == 0 and "not judged" or
      string.format("%d of %d %s (%d of %d points judged)", K, N, what or "checks", judged, #e.pts) ..
      (#not_yes > 0 and ("; not every item at: " .. table.concat(not_yes, ", ")) or "")
    local premises = premise .. "; " .. distinct(prems, "; ")
    local row = { claim = e.key, published = distinct(pubs, " / "), reproduced = measured, holds = v, evidence = evidence,
                  premises = premises, at = distinct(ats, " / "), values = distinct(vals, " ") }
    rows[#rows + 1] = row
    md[#md + 1] = { e.text, row.published, measured, premises, evidence, v == "no" and "**no**" or v }
  end
  return require("kapitza.claims").COLUMNS, rows, md
end

return M
