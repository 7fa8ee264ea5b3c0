-- Every claim is a test that can fail: each claims table under paper/tables (a .tsv with the
-- columns claim and holds, written by a scenario and kept equal to a fresh run by the regression
-- spec) is checked against the register of known deviations, paper/reference/deviations.tsv. A
-- verdict other than "yes" must be registered with that verdict and a reason; a registered
-- deviation must still be found with its verdict. So a claim that stops holding, a known
-- deviation that silently changes, and a stale register entry all fail.
--
-- And away from the paper's parameters (issue 21, item 1): every scenario with a claims table is
-- run once more, in --quick, with one key changed — generated, not chosen by hand: the scalar
-- numeric keys of its --params listing that are not whole numbers and not 0, in their order, each
-- doubled and then halved (within its range; a factor 2 keeps grids of powers of two whole). The
-- first of these runs that completes is checked; one that stops on the way (a macro step that no
-- longer divides T, a Newton iteration that fails at a doubled step) must do so in one line, exit
-- status 2, and at most six are tried. Every claims row of the accepted run must have a verdict
-- among yes/no/partly/n/a and evidence, an n/a its reason, and no yes/no/partly on nothing ('0 of
-- 0', an empty range, nan).
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
      assert.truthy(d.holds == "no" or d.holds == "partly", d.id .. " " .. d.claim .. ": verdict " .. tostring(d.holds))
      assert.truthy(type(d.reason) == "string" and #d.reason > 20, d.id .. " " .. d.claim .. ": no reason given")
      local kinds = { erratum = true, notes = true, limit = true, unexplained = true, claim = true }
      assert.truthy(kinds[d.kind], d.id .. " " .. d.claim .. ": kind '" .. tostring(d.kind) .. "' is not erratum, notes, limit, unexplained or claim")
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
        -- the four verdicts; n/a (premise not met) never at the paper's parameters; always evidence
        assert.truthy(holds ~= "n/a", id .. " " .. row.claim .. ": n/a at the paper's parameters: " .. tostring(row.reproduced))
        assert.truthy(holds == "yes" or holds == "no" or holds == "partly", id .. " " .. row.claim .. ": verdict " .. holds)
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

-- the other parameter sets of a scenario, in the order they are tried (see the head of this file)
local function others(id)
  local t = {}
  for _, p in ipairs(U.params(id)) do
    local v = not p.list and not p.integer and tonumber(p.quick ~= "" and p.quick or p.default)
    if v and v ~= 0 and math.abs(v) < math.huge then
      local lo, hi = tonumber(p.min), tonumber(p.max)
      for _, w in ipairs { 2 * v, v / 2 } do
        if not ((hi and w > hi) or (lo and w < lo)) then t[#t + 1] = { key = p.key, kv = p.key .. "=" .. string.format("%.17g", w) } end
      end
    end
  end
  return t
end

describe("claims at another parameter set", function()
  local ids = {}
  for id in pairs(tables) do
    if io.open(U.root .. "/scenarios/" .. id .. ".lua") then ids[#ids + 1] = id end
  end
  table.sort(ids)
  for _, id in ipairs(ids) do
    it(id .. " --quick, one key doubled: a verdict with evidence for every claim", function()
      local st, err, found, kv, refused = nil, nil, nil, nil, {}
      for _, o in ipairs(others(id)) do
        local dir = U.tmpdir()
        st, _, err = U.run(string.format("KZ_QUIET=1 timeout 60 luajit scenarios/%s.lua --quick --out '%s/out' '%s'", id, dir, o.kv))
        found = U.claims_tables(dir .. "/out")
        U.rmdir(dir)
        kv = o.kv
        if st ~= 2 then break end
        -- refused (a grid that no longer fits, another key's condition) or stopped by the library
        -- (a Newton iteration that fails at a large step): one line, no Lua error; then the next
        assert.truthy(select(2, err:gsub("\n", "")) == 1 and not err:find("%.lua:%d+:") and not err:find("attempt to", 1, true),
                      id .. " " .. o.kv .. ": exit status 2 without a one-line message: " .. err)
        refused[#refused + 1] = o.kv
        if #refused == 6 then break end
      end
      assert.truthy(kv, id .. ": no scalar numeric key to change")
      assert.are.equal(0, st, id .. " " .. kv .. " (refused before: " .. table.concat(refused, " ") .. "): " .. tostring(err))
      assert.truthy(#found > 0, id .. " " .. kv .. ": no claims table written")
      for _, c in ipairs(found) do
        for _, r in ipairs(c.rows) do
          local h, t = tostring(r.holds), tostring(r.reproduced or "")
          local what = string.format("%s %s: %s %s: ", id, kv, c.file, tostring(r.claim))
          assert.truthy(h == "yes" or h == "no" or h == "partly" or h == "n/a", what .. "verdict " .. h)
          assert.truthy(t:match("[^%s—]"), what .. "a verdict without evidence")
          if h == "n/a" then assert.truthy(t:find("n/a: %S"), what .. "n/a without its reason: " .. t) end
          if h ~= "n/a" then
            assert.is_nil(t:find("0 of 0", 1, true) or t:find("inf–", 1, true) or t:lower():find("%f[%w]nan%f[%W]"),
                          what .. h .. " on nothing: " .. t)
          end
        end
      end
    end)
  end
end)
