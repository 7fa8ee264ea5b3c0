-- The scenario contract under random and extreme values (issue 17 item 11): for every scenario,
-- a fixed-seed subset of its keys gets huge, tiny, negative, zero, nan, inf, garbage, empty and
-- wrong-length values, or an allowed extreme, in --quick (tests/fuzz.lua makes and checks the
-- cases). Each must end in exit 0 with every output of the scenario and no nan, or exit 2 with
-- one line naming the key and nothing written; nothing else (a traceback, a signal, a run that
-- does not end within the time limit). On failure the message lists every broken case by class,
-- with the command that reproduces it.
--   KZ_FUZZ_SEED=n   another deterministic subset (default 17)
--   KZ_FUZZ_PER=n    cases per scenario (default 5)
local U = require "testutil"
local F = require "fuzz"

local seed = tonumber(os.getenv("KZ_FUZZ_SEED") or "") or 17
local per = tonumber(os.getenv("KZ_FUZZ_PER") or "") or 5
local limit = 20 -- seconds per run: a --quick run that takes longer should have been refused

-- No output may hold nan or inf (the atlas writes its "not run" and "diverged" cells as words:
-- lib/lua/kapitza/atlas/write.lua, AW.cells)
local allow_nan = nil

describe("scenario contract under random and extreme values", function()
  local figures = U.run("command -v gnuplot >/dev/null") == 0
  local cases = F.pick(F.all_cases(F.scenarios(), seed), per, seed)

  it(string.format("reads the keys of every scenario from --help (%d cases, seed %d)", #cases, seed), function()
    local ids, keys = {}, 0
    for _, c in ipairs(cases) do ids[c.id] = true end
    for _, id in ipairs(F.scenarios()) do assert.truthy(ids[id], id .. ": no key read from --help") end
    local _, help = U.run("luajit scenarios/cs-table2.3.lua --help")
    for _, k in ipairs(F.keys(help)) do
      keys = keys + 1
      if k.name == "omega" then
        assert.is_true(k.list and k.numeric)
        assert.are.equal(1e14, k.max)
      elseif k.name == "micro" then
        assert.are.same({ "verlet", "leapfrog", "symeuler", "euler", "rk4", "dp5" }, k.choices)
      end
    end
    assert.are.equal(12, keys)
  end)

  it("every case keeps the contract", function()
    local bad, by = 0, {}
    for _, c in ipairs(cases) do
      local r = F.run(c, { timeout = limit, figures = figures, allow_nan = allow_nan })
      if r then
        bad = bad + 1
        by[r.class] = by[r.class] or {}
        table.insert(by[r.class], string.format("  luajit scenarios/%s.lua --quick '%s=%s'  -> %s", c.id, c.key, c.value, r.detail))
      end
    end
    local classes, lines = {}, {}
    for class in pairs(by) do classes[#classes + 1] = class end
    table.sort(classes)
    for _, class in ipairs(classes) do
      lines[#lines + 1] = string.format("%s (%d):", class, #by[class])
      for _, l in ipairs(by[class]) do lines[#lines + 1] = l end
    end
    assert.are.equal(0, bad, string.format("%d of %d cases break the contract:\n%s", bad, #cases, table.concat(lines, "\n")))
  end)
end)
