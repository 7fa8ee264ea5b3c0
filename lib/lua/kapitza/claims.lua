-- claims.lua -- the claims table of a scenario: one row per statement of the paper, what the run
-- measured beside it, and a verdict (yes, no, partly, n/a). lib/lua/kapitza/experiment.lua
-- re-exports it (E.claims, E.na, E.off_paper, ...), the names the scenarios use.
--
--   local Cl = require "kapitza.claims"
--   local cl = Cl.claims(sc)                                     -- paper/reference/<id>.tsv
--   cl:add("key", "the paper's claim", "published", "measured", true)
--   cl:add("key2", "a claim about eps = 1e-6", "published", "measured", Cl.na("this run has eps = 1e-4"))
--   cl:write()                                                   -- tables/<id>.{md,tsv}
local S = require "kapitza.scenario"

local M = {}

---------------------------------------------------------------------------------------------------
-- The claims table: one row per claim of the paper, the measured value beside it, a verdict.
---------------------------------------------------------------------------------------------------

local Claims = {}
Claims.__index = Claims

--- A claims table for scenario sc; pub maps claim keys to the published values typed into
-- paper/reference/<id>.tsv (column `claim` and `published`), when that file exists.
function M.claims(sc)
  local pub = {}
  local rows = sc and sc:reference()
  for _, r in ipairs(rows or {}) do if r.claim then pub[r.claim] = r.published end end
  return setmetatable({ sc = sc, rows = {}, pub = pub }, Claims)
end

--- A verdict for a claim whose premise the run does not meet (another eps or omega than the
-- printed case, a published number for other parameters, nothing to compare): "n/a" with the
-- reason, which Claims:add appends to the measured column. Two ways to write it:
--   cl:add(key, text, published, measured, E.na(why))  -- measured evidence, then " — n/a: why"
--   cl:add(key, text, published, E.na(why))            -- nothing measured: "n/a: why"
function M.na(reason)
  assert(type(reason) == "string" and reason ~= "", "experiment.na: a reason is needed")
  return { na = reason }
end

local same = S.same

local function show(v)
  local function one(x) return type(x) == "number" and string.format("%.6g", x) or tostring(x) end
  if type(v) ~= "table" then return one(v) end
  local t = {}
  for i, x in ipairs(v) do t[i] = one(x) end
  return table.concat(t, ",")
end

--- nil when the run's values of `keys` are the scenario's defaults (the paper's parameters),
-- else the text "this run has key = value (paper: default), ..." for an n/a reason.
function M.off_paper(sc, P, keys)
  local t = {}
  for _, k in ipairs(keys) do
    local p = assert(sc.byname[k], "experiment.off_paper: no parameter " .. tostring(k))
    if not same(P[k], p[2]) then t[#t + 1] = string.format("%s = %s (paper: %s)", k, show(P[k]), show(p[2])) end
  end
  if #t == 0 then return nil end
  return "this run has " .. table.concat(t, ", ")
end

--- Refuse (one line, exit status 2, before any computation) a list parameter of `keys` that
-- repeats a value: a repeated run would write duplicate rows.
function M.no_repeats(sc, P, keys)
  for _, k in ipairs(keys) do
    local r = S.repeated(P[k] or {})
    if r ~= nil then sc:fail(S.repeat_message(k, r)) end
  end
end

--- Is holds an n/a verdict (M.na(...) or the string "n/a")?
function M.is_na(holds) return holds == "n/a" or (type(holds) == "table" and holds.na ~= nil) end

--- The verdict column: true -> "yes", false -> "no", "partly" -> "partly", M.na(reason) or
-- "n/a" -> "n/a".
function M.verdict(holds)
  if M.is_na(holds) then return "n/a" end
  if holds == "partly" then return "partly" end
  return holds and "yes" or "no"
end

--- Add a claim: key (machine name), text (the paper's statement), published (what the paper
-- says or prints), measured (what we find, with the acceptance rule), holds (true/false/"partly",
-- or M.na(reason): the reason goes into the measured column; a bare "n/a" needs a measured text).
function Claims:add(key, text, published, measured, holds)
  if holds == nil and type(measured) == "table" and measured.na then measured, holds = "", measured end
  measured = measured ~= nil and tostring(measured) or ""
  if type(holds) == "table" and holds.na then
    measured = (measured == "" or measured == "—") and ("n/a: " .. holds.na) or (measured .. " — n/a: " .. holds.na)
  end
  assert(measured ~= "", "Claims:add: claim '" .. tostring(key) .. "' has no evidence")
  -- A nan in the measured text (or in a reference value computed by the run) is a quantity the
  -- run could not define (a slope through zero errors, a ratio of two zeros, a period without
  -- oscillation): the claim is not measured, and says so instead of printing nan.
  local nan = "%-?%f[%w][Nn]a[Nn]%f[%W]"
  local m, u1 = measured:gsub(nan, "undefined")
  local p, u2 = tostring(published):gsub(nan, "undefined")
  if u1 + u2 > 0 then
    m = m .. " (n/a: a measured quantity is undefined: 0/0, a slope through zero errors, or no oscillation to time)"
    holds = "n/a"
  end
  self.rows[#self.rows + 1] = { key = key, text = text, published = p, measured = m, holds = M.verdict(holds) }
  return holds
end

--- The column heads of the Markdown table (default: claim (paper), published, reproduced,
-- holds); claims that are not a paper's (the atlas's) name theirs.
function Claims:headed(h) self.header = h; return self end

--- The published value typed into the reference file for `key` (nil if none).
function Claims:published(key) return self.pub[key] end

function Claims:md(note)
  local body = {}
  for i, c in ipairs(self.rows) do
    body[i] = { c.text, c.published, c.measured, c.holds == "no" and "**no**" or c.holds }
  end
  return S.md_table(self.header or { "claim (paper)", "published", "reproduced", "holds" }, body) ..
         (note and ("\n" .. note .. "\n") or "")
end

function Claims:tsv_rows()
  local out = {}
  for i, c in ipairs(self.rows) do
    out[i] = { claim = c.key, published = c.published, reproduced = c.measured, holds = c.holds }
  end
  return { "claim", "published", "reproduced", "holds" }, out
end

--- Write tables/<name>.md and tables/<name>.tsv (name defaults to the scenario id).
function Claims:write(note, name)
  name = name or self.sc.id
  local cols, rows = self:tsv_rows()
  self.sc:write_tsv("tables/" .. name .. ".tsv", cols, rows)
  self.sc:write_text("tables/" .. name .. ".md", self:md(note))
end


return M
