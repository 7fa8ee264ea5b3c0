-- scripts/sweep.lua: a tiny sweep emitted as independent commands, run here (GNU parallel when
-- installed, and xargs -P), merged: its TSV outputs equal a single run's byte for byte.
local U = require "testutil"

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

describe("sweep: emit, run, merge", function()
  local function sweep(runner)
    local dir, one = U.tmpdir(), U.tmpdir()
    local st, out, err = U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,1e6 " ..
                                             "--over H=1/10,1/20 periods=20", dir))
    assert.are.equal(0, st, err)
    local n = 0
    for line in out:gmatch("[^\n]+") do
      n = n + 1
      assert.matches("scenarios/cs%-table2%.2%.lua %-%-out '[^']*/shards/000" .. n .. "'", line)
    end
    assert.are.equal(4, n) -- omega outermost, then H
    assert.matches("'omega=1e4' 'H=1/20' 'periods=20'", out, 1, true)
    st, _, err = U.run(string.format("%s luajit scripts/sweep.lua run %s -j 2", runner, dir))
    assert.are.equal(0, st, err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua merge %s", dir))
    assert.are.equal(0, st, err)
    assert.matches("not merged.*tables/cs%-table2%.2%.md", err)
    st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/cs-table2.2.lua --out %s omega=1e4,1e6 H=1/10,1/20 periods=20", one))
    assert.are.equal(0, st, err)
    for _, f in ipairs { "data/cs-table2.2-errors.tsv", "tables/cs-table2.2.tsv" } do
      local a, b = read(dir .. "/" .. f), read(one .. "/" .. f)
      assert.is_truthy(a, f .. " not merged")
      assert.is_true(a == b, f .. " differs from the single run")
    end
    U.rmdir(dir)
    U.rmdir(one)
  end

  it("with xargs -P: the merged TSV files equal a single run's", function() sweep("KZ_SWEEP_RUNNER=xargs") end)

  it("with GNU parallel (when installed): the same", function()
    if U.run("command -v parallel") ~= 0 then
      pending("GNU parallel not installed (sudo apt-get install parallel)")
      return
    end
    sweep("")
  end)

  it("a failing point fails the run; merge refuses missing shards; bad arguments are named", function()
    local dir = U.tmpdir()
    assert.are.equal(0, (U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,-1", dir))))
    local st = U.run(string.format("KZ_SWEEP_RUNNER=xargs luajit scripts/sweep.lua run %s -j 2", dir))
    assert.are_not.equal(0, st)
    local err
    st, _, err = U.run(string.format("luajit scripts/sweep.lua merge %s", dir))
    assert.are_not.equal(0, st)
    assert.matches("shard 0002", err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s", dir))
    assert.are_not.equal(0, st)
    assert.matches("nothing to sweep", err)
    U.rmdir(dir)
  end)
end)
