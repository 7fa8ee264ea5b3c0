-- Claims honest at any parameters, by construction (issue 27): the claims machinery
-- (lib/lua/kapitza/claims.lua) evaluates a claim's published parameters, its premises, its
-- evidence and its text in a fixed order, and every claims table carries what was decided and on
-- what (evidence, premises, at, values). This spec checks that structure (tests/claimcheck.lua):
--   * the machinery itself (#fast);
--   * every checked-in claims table, at the paper's parameters;
--   * every scenario at --quick and at parameter sets derived from its own --params, in the
--     manner of a property test with a fixed seed: an end time (T, t_end) halved, and a numeric key
--     moved within its range (x 0.75, else x 1.25; a whole number down a quarter, else up one; 0
--     to 0.25). `make check` runs --quick, the end time and one moved key per scenario (drawn with
--     the seed 27); KZ_CLAIMS_FULL=1 runs every moved key, and every list key with one value (moved
--     too) and two. (tests/lists_spec.lua runs every list key with one value and two, and checks
--     the same structure, in every `make check`.) A run may be refused (exit 2, one line): that
--     set is not a run. KZ_CLAIMS_ONLY=<id> runs one scenario.
local Cl = require "kapitza.claims"
local E = require "kapitza.experiment"
local S = require "kapitza.scenario"
local U = require "testutil"
local CC = require "claimcheck"

describe("the claims machinery #fast", function()
  it("shows numbers as given, never rounded", function()
    assert.are.same({ "5e-5", "1e-4", "0.00625", "1e6", "256000", "0.2", "-3" },
                    { Cl.show(5e-5), Cl.show(1e-4), Cl.show(0.00625), Cl.show(1e6), Cl.show(256000), Cl.show(0.2), Cl.show(-3) })
    for _, x in ipairs { 5e-5, 8e-5, math.pi / 625, 1 / 3, 2 ^ -14, 1e-300, 123456789.125 } do
      assert.are.equal(x, tonumber(Cl.show(x)))
    end
  end)

  it("formats texts that keep their values; finds the numbers a text shows and those typed into it", function()
    local t = E.T("slope %.2f at ε = %v over H = %v; %d of %d", 1.987, 5e-5, { 0.1, 0.05 }, 3, 4)
    assert.are.equal("slope 1.99 at ε = 5e-5 over H = 0.1,0.05; 3 of 4", t.s)
    assert.are.equal(0, #Cl.typed(t.s, t.values))
    local u = t .. "; within 1 % of the printed 260000"
    assert.are.same({ "1", "260000" }, Cl.typed(u.s, u.values))
    assert.are.equal(#t.values, #u.values)
    -- names are not numbers; powers, fractions and superscripts are
    assert.are.same({}, Cl.typed("rk4 q1 HMM-A2s Π₃ ω₂ dp5", {}))
    assert.are.same({ "2.1·10^-3", "10^-4", "1/40", "π/625" }, Cl.typed("2.1·10⁻³, ε = 10⁻⁴, H = 1/40, H = π/625", {}))
    assert.are.same({}, Cl.typed("2.1·10⁻³, ε = 10⁻⁴, H = 1/40, H = π/625", { 2.1e-3, 1e-4, 1 / 40, math.pi / 625 }))
  end)

  it("evaluates at, premises, then the judgement; counts the evidence", function()
    local sc = { id = "x", P = { eps = { 1e-4, 1e-6 }, T = 50 }, reference = function() return {} end }
    local cl = E.claims(sc)
    local judged = 0
    local function judge() judged = judged + 1; return { measured = E.T("%g", 1), items = { true }, what = "values" } end
    assert.are.equal("n/a", cl:claim { key = "a", text = "t", published = "150", at = { T = 200 }, judge = judge })
    assert.are.equal("n/a", cl:claim { key = "b", text = "t", premises = { E.inside(150, 50, "the return") }, judge = judge })
    assert.are.equal(0, judged)
    assert.truthy(cl.rows[1].measured:find("T = 50 (printed at 200)", 1, true), cl.rows[1].measured)
    assert.truthy(cl.rows[2].measured:find("n/a: not met: the return at t = 150 inside the run's span [0, T], T = 50", 1, true), cl.rows[2].measured)
    assert.are.equal("yes", cl:claim { key = "c", text = "t", published = "1e-4", at = { eps = 1e-4 }, judge = judge })
    assert.are.equal("partly", cl:claim { key = "d", text = "t", any = "why", measured = "m", items = { true, false, { ok = false, label = "H = 1/40" } }, what = "cells" })
    assert.are.equal("no", cl:claim { key = "e", text = "t", any = "why", measured = "m", items = { false } })
    assert.are.equal("n/a", cl:claim { key = "f", text = "t", any = "why", measured = "m", items = {}, what = "cells" })
    assert.are.equal("1 of 3 cells (not: H = 1/40)", cl.rows[4].evidence)
    assert.truthy(cl.rows[6].measured:find("n/a: no cells to check", 1, true))
    assert.is_false(pcall(cl.claim, cl, { key = "c", text = "t", any = "why", measured = "m", items = { true } })) -- twice
    assert.is_false(pcall(cl.claim, cl, { key = "g", text = "t", measured = "m", items = { true } }))             -- no premise, no any
    assert.is_false(pcall(cl.claim, cl, { key = "h", text = "t", any = "why", measured = "m" }))                 -- no evidence
    local _, rows = cl:tsv_rows()
    local problems = CC.rows(rows, "x", { eps = { 1e-4, 1e-6 }, T = { 50 } })
    assert.are.equal(0, #problems, (CC.report(problems)))
  end)

  it("the checker finds each kind of defect", function()
    local P = { eps = { 5e-5 }, T = { 50 } }
    local rows = {
      { claim = "a", holds = "yes", reproduced = "slope 2.0", evidence = "—", premises = "x", at = "—", values = "2" },
      { claim = "a", holds = "no", reproduced = "1 of 2", evidence = "1 of 2 x", premises = "x", at = "—", values = "1 2" },
      { claim = "b", holds = "n/a", reproduced = "—", evidence = "—", premises = "—", at = "—", values = "" },
      { claim = "c", holds = "yes", reproduced = "t = 148 (within 20 of 150)", evidence = "1 of 1 x", premises = "x", at = "T = 200", values = "148" },
      { claim = "d_eps_1e-4", holds = "yes", reproduced = "4776n at ε = 10⁻⁴", evidence = "1 of 1 x", premises = "x", at = "—",
        published = "≈ 20", values = "4776" },
    }
    local _, kinds = CC.report(CC.rows(rows, "t", P))
    assert.are.same({ evidence = 1, key = 1, reason = 1, premise = 1, at = 2, typed = 2, label = 2 }, kinds)
  end)

  it("a sweep's points joined (kapitza.sweep.claims_join): the judged points' items counted, n/a points left out", function()
    local CJ = require "kapitza.sweep.claims_join"
    local function r(key, holds, evidence, m) return { claim = key, holds = holds, evidence = evidence, reproduced = m, premises = "✓ p", at = "—",
                                                          values = (m:gsub("[^%d]+", " ")) } end
    local points = {
      { label = "point 0001 (T=10)", rows = { r("a", "yes", "2 of 2 cells", "2 of 2"), r("b", "no", "0 of 1 cells", "0 of 1"), r("c", "n/a", "not judged", "n/a: short") } },
      { label = "point 0002 (T=20)", rows = { r("a", "no", "0 of 3 cells", "0 of 3"), r("b", "no", "0 of 2 cells", "0 of 2"), r("c", "n/a", "not judged", "n/a: short") } },
    }
    local _, rows = CJ.join(points, "a scalar key")
    assert.are.same({ "partly", "no", "n/a" }, { rows[1].holds, rows[2].holds, rows[3].holds })
    assert.are.equal("2 of 5 cells (2 of 2 points judged); not every item at: point 0002 (T=20)", rows[1].evidence)
    assert.are.equal("0 of 3 cells (2 of 2 points judged); not every item at: point 0001 (T=10), point 0002 (T=20)", rows[2].evidence)
    assert.are.same({}, CC.rows(rows, "joined", nil))
  end)
end)

-- The conclusions of paper.md are woven from the claims tables (scripts/weave.lua): a template's
-- measured numbers are placeholders {{...}}. Outside them only references (Table 2.1, (2.5), §6),
-- names (rk4, q₁), the papers' parameter values as powers of ten (ω = 10⁴), fractions 1/N and small
-- whole numbers (a count in words is better) may stand: a decimal number, or a whole one of 100
-- or more that is no power of ten, is a typed measurement.
describe("the conclusions are woven, not typed", function()
  for _, f in ipairs(U.files(U.root .. "/paper/reference")) do
    if f:match("^conclusion%-.*%.md$") then
      it(f, function()
        local h = assert(io.open(U.root .. "/paper/reference/" .. f, "rb"))
        local text = h:read("*a"):gsub("{{.-}}", " ")
        h:close()
        local bad = {}
        for _, tok in ipairs(Cl.numbers(text)) do
          local t = tok.text
          local pow10 = t:match("^10%^%-?%d+$") or t:match("^10^{%-?%d+}$")
          local frac = t:match("^1/%d+$")
          local small = t:match("^%d+$") and tonumber(t) < 100
          local round = t:match("^10*$")
          if not (pow10 or frac or small or round) then bad[#bad + 1] = t end
        end
        assert.are.equal("", table.concat(bad, " "))
      end)
    end
  end
end)

-- The checked-in tables, at the parameters their scenarios ran at (the defaults).
describe("the checked-in claims tables", function()
  for _, c in ipairs(U.claims_tables(U.root .. "/paper")) do
    it(c.file .. ": the structure of every claim", function()
      local id = c.id:gsub("%-claims$", "")
      local P = io.open(U.root .. "/scenarios/" .. id .. ".lua") and CC.effective(U.params(id), false, {}) or nil
      local text = CC.report(CC.table(c, P))
      assert.are.equal("", text)
    end)
  end
end)

-- the parameter sets of a scenario: {args, kind}
local function cases(id, full)
  local params = U.params(id)
  local t, moved = { { args = {}, kind = "--quick" } }, {}
  local function num(x) return Cl.show(x) end
  for _, p in ipairs(params) do
    local raw = p.quick ~= "" and p.quick or p.default
    local lo, hi = tonumber(p.min), tonumber(p.max)
    local function ok(w, v) return w ~= v and w == w and not (lo and w < lo) and not (hi and w > hi) end
    local function move(v)
      local cands = v == 0 and { 0.25, -0.25 } or p.integer and { math.floor(v * 0.75), v + 1 } or { v * 0.75, v * 1.25 }
      for _, c in ipairs(cands) do if ok(c, v) then return c end end
    end
    if not p.list then
      local v = tonumber(raw)
      if v and math.abs(v) < math.huge then
        if p.key == "T" or p.key == "t_end" then
          local w = p.integer and math.floor(v / 2) or v / 2
          if ok(w, v) then t[#t + 1] = { args = { p.key .. "=" .. num(w) }, kind = "end time" } end
        else
          local w = move(v)
          if w then moved[#moved + 1] = { args = { p.key .. "=" .. num(w) }, kind = "moved" } end
        end
      end
    elseif full and raw ~= "" then
      local vals = {}
      for x in (raw .. ","):gmatch("([^,]*),") do vals[#vals + 1] = x end
      if #vals < 2 then
        for x in (p.default .. ","):gmatch("([^,]*),") do if x ~= vals[1] and x ~= "" then vals[2] = x break end end
      end
      t[#t + 1] = { args = { p.key .. "=" .. vals[1] }, kind = "one value" }
      if vals[2] then t[#t + 1] = { args = { p.key .. "=" .. vals[1] .. "," .. vals[2] }, kind = "two values" } end
      local v = tonumber(vals[1])
      local w = v and move(v)
      if w then t[#t + 1] = { args = { p.key .. "=" .. num(w) }, kind = "one value moved" } end
    end
  end
  if full then
    for _, m in ipairs(moved) do t[#t + 1] = m end
  elseif #moved > 0 then -- one, drawn with a fixed seed from the scenario's name
    local h = 27
    for i = 1, #id do h = (h * 31 + id:byte(i)) % 2147483647 end
    t[#t + 1] = moved[h % #moved + 1]
  end
  return t, params
end

local q = U.q -- shell quoting

local full = os.getenv("KZ_CLAIMS_FULL") == "1"
local only = os.getenv("KZ_CLAIMS_ONLY")
local tally = { runs = 0, refused = 0 }

describe("every scenario off the paper's parameters: the structure of its claims", function()
  for _, id in ipairs(U.scenarios()) do
    if not only or only == id then
      it(id, function()
        local list, params = cases(id, full)
        local bad = {}
        for _, c in ipairs(list) do
          local dir = U.tmpdir()
          local args = {}
          for i, a in ipairs(c.args) do args[i] = q(a) end
          local st, _, err = U.run(string.format("KZ_QUIET=1 timeout 120 luajit scenarios/%s.lua --quick --out %s %s", id, q(dir .. "/out"),
                                                 table.concat(args, " ")))
          local what = string.format("%s --quick %s (%s)", id, table.concat(c.args, " "), c.kind)
          if st == 0 then
            tally.runs = tally.runs + 1
            local problems = CC.run(dir .. "/out", CC.effective(params, true, c.args))
            for _, p in ipairs(problems) do bad[#bad + 1] = what .. ": [" .. p.kind .. "] " .. p.what end
          elseif st == 2 and select(2, err:gsub("\n", "")) == 1 and not err:find("%.lua:%d+:") then
            tally.refused = tally.refused + 1
          else
            bad[#bad + 1] = what .. ": exit status " .. st .. ": " .. err
          end
          U.rmdir(dir)
        end
        assert.are.equal(0, #bad, table.concat(bad, "\n"))
      end)
    end
  end
  it("ran and checked (the counts)", function()
    io.stderr:write(string.format("claims structure: %d runs checked, %d refused%s\n", tally.runs, tally.refused, full and " (full set)" or ""))
    assert.is_true(tally.runs > 0 or only ~= nil)
  end)
end)
