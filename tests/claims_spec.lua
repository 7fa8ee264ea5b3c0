-- Every claim is a test that can fail: each claims table under paper/tables (a .tsv with the
-- columns claim and holds, written by a scenario and kept equal to a fresh run by the regression
-- spec) is checked against the register of known deviations, paper/reference/deviations.tsv. A
-- verdict other than "yes" must be registered with that verdict and a reason; a registered
-- deviation must still be found with its verdict. So a claim that stops holding, a known
-- deviation that silently changes, and a stale register entry all fail. An n/a at the paper's
-- parameters is allowed only as the kind "not measurable" (the run cannot measure the claim, and
-- the register says why), and that kind only for an n/a.
--
-- The structure of every claims table away from the paper's parameters (evidence, premises,
-- published parameters, texts from values, labels) is tests/claims_structure_spec.lua's.
local S = require "kapitza.scenario"
local U = require "testutil"

local register = assert(S.read_table(U.root .. "/paper/reference/deviations.tsv"))

local tables = {}
for _, f in ipairs(U.files(U.root .. "/paper/tables")) do
  if f:match("%.tsv$") then
    local rows, cols = S.read_table(U.root .. "/paper/tables/" .. f)
    local has = {}
    for _, c in ipairs(cols or {}) do has[c] = true end
    -- the scenario's id: tables/<id>.tsv or tables/<id>-claims.tsv
    if has.claim and has.holds then tables[(f:gsub("%.tsv$", ""):gsub("%-claims$", ""))] = rows end
  end
end

describe("claims", function()
  it("the register is well formed: known verdicts, a reason, one line per claim", function()
    local seen = {}
    for _, d in ipairs(register) do
      assert.truthy(d.holds == "no" or d.holds == "partly" or d.holds == "n/a", d.id .. " " .. d.claim .. ": verdict " .. tostring(d.holds))
      assert.truthy(type(d.reason) == "string" and #d.reason > 20, d.id .. " " .. d.claim .. ": no reason given")
      local kinds = { erratum = true, notes = true, limit = true, unexplained = true, claim = true, ["not measurable"] = true }
      assert.truthy(kinds[d.kind], d.id .. " " .. d.claim .. ": kind '" .. tostring(d.kind) .. "' is not erratum, notes, limit, unexplained, claim or not measurable")
      -- n/a is the verdict of the kind "not measurable", and only of it
      assert.are.equal(d.kind == "not measurable", d.holds == "n/a", d.id .. " " .. d.claim .. ": verdict " .. tostring(d.holds) .. " with kind " .. tostring(d.kind))
      local key = d.id .. "/" .. d.claim
      assert.is_nil(seen[key], key .. " listed twice")
      seen[key] = true
    end
  end)

  local ids = {}
  for id in pairs(tables) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    it(id .. ": every verdict is 'yes' or a registered deviation with that verdict", function()
      local known = {}
      for _, d in ipairs(register) do if d.id == id then known[d.claim] = d end end
      local bad = {}
      for _, row in ipairs(tables[id]) do
        local holds = tostring(row.holds)
        -- the four verdicts; n/a (premise not met) at the paper's parameters only as a registered
        -- "not measurable"; always evidence
        assert.truthy(holds == "yes" or holds == "no" or holds == "partly" or holds == "n/a", id .. " " .. row.claim .. ": verdict " .. holds)
        assert.truthy(tostring(row.reproduced or ""):match("%S"), id .. " " .. row.claim .. ": a verdict without evidence")
        local d = known[row.claim]
        if holds ~= "yes" and not d then
          bad[#bad + 1] = string.format("%s: holds = %s, not in paper/reference/deviations.tsv (measured: %s)", row.claim, holds, tostring(row.reproduced))
        elseif d and d.holds ~= holds then
          bad[#bad + 1] = string.format("%s: registered as '%s', now '%s' (measured: %s)", row.claim, d.holds, holds, tostring(row.reproduced))
        end
        known[row.claim] = nil
      end
      for claim in pairs(known) do bad[#bad + 1] = claim .. ": registered, but the claims table has no such claim" end
      assert.are.equal(0, #bad, table.concat(bad, "\n"))
    end)
  end

  it("every registered deviation belongs to a claims table", function()
    for _, d in ipairs(register) do assert.truthy(tables[d.id], d.id .. " has no claims table") end
  end)
end)
