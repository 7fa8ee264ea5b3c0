-- scripts/sweep.lua: a tiny sweep emitted as independent commands, run here (the built-in runner,
-- and GNU parallel when installed), merged: its TSV outputs equal a single run's byte for byte.
-- And what must not happen: a shell command through the scenario id or a directory name, a
-- point checked only when it runs, one failing point or a SIGTERM losing the others' work or
-- leaving workers behind, a merge of another sweep's leftovers, a traceback on a damaged
-- manifest, a temporary file left by a full disk.
local U = require "testutil"
local F = require "kapitza.files"

local function read(path) return F.read(path) end
local q = U.q -- shell quoting
local function lines(s)
  local n = 0
  for _ in s:gmatch("[^\n]+") do n = n + 1 end
  return n
end
local has_parallel = U.run("command -v parallel") == 0
local runners = { "builtin", has_parallel and "parallel" or nil }

describe("sweep: emit, run, merge", function()
  local function sweep(runner)
    local dir, one = U.tmpdir(), U.tmpdir()
    local st, out, err = U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,1e6 " ..
                                             "--over H=1/10,1/20 periods=20", dir))
    assert.are.equal(0, st, err)
    local n = 0
    for line in out:gmatch("[^\n]+") do
      n = n + 1
      assert.matches("luajit 'scenarios/cs%-table2%.2%.lua' %-%-out '[^']*/shards/000" .. n .. "'", line)
    end
    assert.are.equal(4, n) -- omega outermost, then H
    assert.matches("'omega=1e4' 'H=1/20' 'periods=20'", out, 1, true)
    st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=%s luajit scripts/sweep.lua run %s -j 2", runner, dir))
    assert.are.equal(0, st, err)
    assert.matches("4 points: 4 done, 0 failed", err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua merge %s", dir))
    assert.are.equal(0, st, err)
    assert.matches("judged the shards' cells as one run with 'omega=1e4,1e6' 'H=1/10,1/20' 'periods=20'", err, 1, true)
    st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/cs-table2.2.lua --out %s omega=1e4,1e6 H=1/10,1/20 periods=20", one))
    assert.are.equal(0, st, err)
    -- every file of the single run, byte for byte: data, tables (.tsv, .md), claims, figure
    local files = {}
    for _, sub in ipairs { "data", "tables", "figures" } do
      for _, f in ipairs(F.tree(one .. "/" .. sub)) do files[#files + 1] = sub .. "/" .. f end
    end
    assert.are.equal(6, #files)
    for _, f in ipairs(files) do
      local a, b = read(dir .. "/" .. f), read(one .. "/" .. f)
      assert.is_truthy(a, f .. " not merged")
      assert.is_true(a == b, f .. " differs from the single run")
    end
    U.rmdir(dir)
    U.rmdir(one)
  end

  it("with the built-in runner: the merged TSV files equal a single run's", function() sweep("builtin") end)

  it("with GNU parallel (when installed): the same", function()
    if not has_parallel then
      pending("GNU parallel not installed (sudo apt-get install parallel)")
      return
    end
    sweep("parallel")
  end)
end)

describe("sweep run: one bad point, and SIGTERM", function()
  for _, runner in ipairs(runners) do
    it(runner .. ": a failing point neither stops the others nor hides; exit status 1, merge refuses the gap", function()
      local dir = U.tmpdir()
      assert.are.equal(0, (U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,1e6,1e8 periods=20", dir))))
      assert(F.write_atomic(dir .. "/shards/0001", "a file where the point's output folder should be\n"))
      local st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=%s luajit scripts/sweep.lua run %s -j 2", runner, dir))
      assert.are.equal(1, st, err)
      assert.matches("sweep: point 0001 %(omega=1e4%) failed: exit status 2\n", err)
      assert.matches("3 points: 2 done, 1 failed %(0001%), 0 not run\n$", err)
      for _, k in ipairs { "0002", "0003" } do assert.truthy(read(dir .. "/shards/" .. k .. "/tables/cs-table2.2.tsv"), k) end
      st, _, err = U.run(string.format("luajit scripts/sweep.lua merge %s", dir))
      assert.are.equal(2, st)
      assert.matches("^sweep: not done, 1 of 3 points; nothing merged:\n  point 0001 %(omega=1e4%): failed: [^\n]*is a regular file", err)
      assert.matches("sbatch %-%-array=1 '[^']*/slurm%.sh' 0\n", err)
      U.rmdir(dir)
    end)

    it(runner .. ": SIGTERM stops the running points' whole process groups and starts no other", function()
      local dir = U.tmpdir()
      local cmds = {}
      for k = 1, 3 do cmds[k] = string.format("sleep 39 & echo $! > %s/p%d; wait", dir, k) end
      assert(F.write_atomic(dir .. "/commands.txt", table.concat(cmds, "\n") .. "\n"))
      assert(F.write_atomic(dir .. "/t.sh", string.format([[
KZ_SWEEP_RUNNER=%s luajit scripts/sweep.lua run %s -j 2 2>%s/err & P=$!
n=0; until [ -s %s/p1 ] && [ -s %s/p2 ] || [ $n -gt 400 ]; do sleep 0.05; n=$((n+1)); done
kill -TERM $P; wait $P; echo $?
]], runner, q(dir), q(dir), q(dir), q(dir))))
      local st, out = U.run("sh " .. q(dir .. "/t.sh"))
      assert.are.equal(0, st)
      assert.are.equal("143\n", out, read(dir .. "/err"))
      assert.matches("stopped by signal 15", read(dir .. "/err"))
      for k = 1, 2 do -- the sleeps, children of the points' shells, are gone (or zombies no one reaps)
        local pid = read(dir .. "/p" .. k):match("%d+")
        local state
        for _ = 1, 40 do
          local s = read("/proc/" .. pid .. "/stat")
          state = s and s:match("^%d+ %b() (%a)") or "gone"
          if state == "gone" or state == "Z" then break end
          U.run("sleep 0.05")
        end
        assert.truthy(state == "gone" or state == "Z", "point " .. k .. " still running: " .. state)
      end
      assert.is_nil(read(dir .. "/p3"), "a point started after the signal")
      U.rmdir(dir)
    end)
  end
end)

describe("sweep emit refuses before writing anything", function()
  local function refused(args, pattern)
    local base = U.tmpdir()
    local dir = base .. "/sw"
    local st, out, err = U.run(string.format("cd %s && luajit %s/scripts/sweep.lua emit %s", q(base), q(U.root),
                                             args:gsub("DIR", q(dir))))
    assert.are.equal(2, st, args)
    assert.are.equal("", out)
    assert.are.equal(1, lines(err), err)
    assert.matches("^sweep: .*" .. pattern, err)
    assert.are.equal(0, #F.tree(base), args .. ": wrote " .. table.concat(F.tree(base), " "))
    U.rmdir(base)
  end

  it("a scenario id that is a shell command (and nothing is created, even by run)", function()
    -- the attack of issue 17: an id that leads from scenarios/ to a planted file x;touch INJECTED;#.lua
    local plant = U.tmpdir()
    assert(F.write_atomic(plant .. "/x;touch INJECTED;#.lua", "print('planted')\n"))
    local up = ("../"):rep(select(2, (U.root .. "/scenarios"):gsub("/[^/]+", "")))
    local id = up .. plant:sub(2) .. "/x;touch INJECTED;#"
    assert.truthy(read(U.root .. "/scenarios/" .. id .. ".lua"), "the planted file is reachable by that id")
    local base = U.tmpdir()
    local st, _, err = U.run(string.format("(cd %s && luajit %s/scripts/sweep.lua emit %s sw --over omega=1e4 && " ..
                                           "luajit %s/scripts/sweep.lua run sw)", q(base), q(U.root), q(id), q(U.root)))
    assert.are.equal(2, st)
    assert.matches("^sweep: no scenario '[^\n]*x;touch INJECTED;#' %(the id of a file scenarios/<id>%.lua", err)
    assert.are.equal(0, #F.tree(base))
    assert.is_nil(read(U.root .. "/INJECTED"))
    U.rmdir(base)
    U.rmdir(plant)
    refused("'cs-table2.2;touch INJECTED' DIR --over omega=1e4", "no scenario")
    refused("'$(touch INJECTED)' DIR --over omega=1e4", "no scenario")
    refused("'scenarios/nosuch.lua' DIR --over omega=1e4", "no scenario")
  end)

  it("unknown keys, values that are not numbers or out of range, keys or values twice, empty values", function()
    refused("cs-table2.2 DIR --over omgea=1e4,1e6", "point 0001 %(omgea=1e4%): cs%-table2%.2: unknown parameter 'omgea'")
    refused("cs-table2.2 DIR --over omega=1e4,banana", "point 0002 %(omega=banana%): .*parameter 'omega'.*banana")
    refused("cs-table2.2 DIR --over omega=1e4 H=-1", "parameter 'H'")
    refused("cs-table2.2 DIR --over omega=1e4 omegaa=2", "unknown parameter 'omegaa'")
    refused("cs-table2.2 DIR --over omega=1e4,1e99", "parameter 'omega'")
    refused("cs-table2.2 DIR --over omega=1e4,10000", "the value '10000' is given twice %(as '1e4'%)")
    refused("cs-table2.2 DIR --over omega=1e4 --over omega=1e5", "key 'omega' is given twice")
    refused("cs-table2.2 DIR --over omega=1e4 omega=1e5", "key 'omega' is given twice")
    refused("cs-table2.2 DIR --over omega=1e4,,1e5", "key 'omega': empty value")
    refused("cs-table2.2 DIR --over omega", "%-%-over needs key=v1,v2")
    refused("cs-table2.2 DIR omega=1e4", "nothing to sweep")
    refused("cs-table2.2 DIR --over omega=1e4 --bogus", "unknown argument '%-%-bogus'")
  end)

  it("a full disk: one line naming the file, no commands.txt.tmp or any other file left", function()
    local args = "cs-table2.2 %s --over omega=1e4,1e5,1e6,1e7 --over H=1/10,1/20,1/40"
    -- a file size limit of 512 bytes (SIGXFSZ ignored: the write fails with EFBIG), as any user
    local base = U.tmpdir()
    local st, _, err = U.run(string.format("sh -c \"trap '' XFSZ; ulimit -f 1; luajit scripts/sweep.lua emit %s\"",
                                           string.format(args, q(base .. "/sw"))))
    assert.are.equal(2, st)
    assert.matches("^sweep: cannot write [^\n]*/sw/commands%.txt: [^\n]+\n$", err)
    assert.are.same({}, F.tree(base))
    U.rmdir(base)
    -- a real ENOSPC on a 4 kB tmpfs, where mounting one is allowed (root in CI)
    local mnt = U.tmpdir()
    if U.run(string.format("mount -t tmpfs -o size=4k tmpfs %s", q(mnt))) ~= 0 then
      U.rmdir(mnt)
      return
    end
    local ok, e = pcall(function()
      local st2, _, err2 = U.run("luajit scripts/sweep.lua emit " .. string.format(args, q(mnt .. "/sw")))
      assert.are.equal(2, st2)
      assert.matches("^sweep: cannot write [^\n]*: No space left on device\n$", err2)
      assert.are.same({}, F.tree(mnt))
    end)
    U.run(string.format("umount %s", q(mnt)))
    U.rmdir(mnt)
    assert(ok, e)
  end)
end)

describe("sweep emit quotes every argument", function()
  it("a directory named like a shell command, and a scenario given as a path, run as they are named", function()
    local base = U.tmpdir()
    local dir = base .. "/a'b;touch INJECTED;#$(touch INJECTED2)"
    local st, out, err = U.run(string.format("cd %s && luajit %s/scripts/sweep.lua emit %s %s --over omega=1e4 periods=20",
                                             q(base), q(U.root), q(U.root .. "/scenarios/cs-table2.2.lua"), q(dir)))
    assert.are.equal(0, st, err)
    assert.matches("luajit '" .. U.root:gsub("%p", "%%%0") .. "/scenarios/cs%-table2%.2%.lua'", out)
    st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s", q(dir)))
    assert.are.equal(0, st, err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua merge %s", q(dir)))
    assert.are.equal(0, st, err)
    assert.truthy(read(dir .. "/tables/cs-table2.2.tsv"))
    assert.is_nil(read(base .. "/INJECTED"))
    assert.is_nil(read(base .. "/INJECTED2"))
    assert.is_nil(read(U.root .. "/INJECTED"))
    U.rmdir(base)
  end)
end)

describe("sweep merge refuses what is not this sweep's", function()
  local H = "# c\nx\ty\n"
  -- a sweep of 2 points of scenario 's' made by hand (its second TSV without a final newline)
  local function fake(extra)
    local dir = U.tmpdir()
    assert(F.write_atomic(dir .. "/sweep.txt", "id s\nscript scenarios/s.lua\nshards 2\nover x 1,2\npoint 0001 x=1\npoint 0002 x=2\n"))
    assert(F.write_atomic(dir .. "/shards/0001/data/s.tsv", H .. "1\t10\n"))
    assert(F.write_atomic(dir .. "/shards/0002/data/s.tsv", H .. "2\t20")) -- no final newline
    for f, t in pairs(extra or {}) do assert(F.write_atomic(dir .. "/" .. f, t)) end
    return dir
  end
  local function merge(dir) return U.run("luajit scripts/sweep.lua merge " .. q(dir)) end

  it("joins the points' rows (a scenario it cannot run: no cells to replay)", function()
    local dir = fake { ["shards/0002/data/s.tsv"] = H .. "2\t20\n" }
    local st, _, err = merge(dir)
    assert.are.equal(0, st, err)
    assert.matches("sweep: joined 2 points of s", err, 1, true)
    assert.are.equal(H .. "1\t10\n2\t20\n", read(dir .. "/data/s.tsv"))
    U.rmdir(dir)
  end)

  for what, c in pairs {
    ["another scenario's file in a shard"] = { { ["shards/0002/data/t.tsv"] = H }, "shard 0002 holds data/t%.tsv: not an output of s" },
    ["a shard directory beyond the sweep"] = { { ["shards/0003/data/s.tsv"] = H }, "shards/0003 is not a shard of this sweep" },
    ["a row cut short (no newline: a copy cut mid-number)"] = { {}, "shard 0002's data/s%.tsv, line 3: cut short" },
    ["a row with too few cells"] = { { ["shards/0002/data/s.tsv"] = H .. "2\n" }, "shard 0002's data/s%.tsv, line 3: 1 cells under a header of 2" },
    ["a text row in a table of numbers"] = { { ["shards/0002/data/s.tsv"] = H .. "2\tabc\n" }, "line 3: 'abc' in a column of numbers" },
    ["a sweep.txt claiming 99,999,999,999 shards"] = { { ["sweep.txt"] = "id s\nshards 99999999999\npoint 0001 x=1\n" },
                                                       "sweep%.txt is damaged %(line 2: 'shards 99999999999'%)" },
    ["a sweep.txt whose shards are not its points"] = { { ["sweep.txt"] = "id s\nshards 3\npoint 0001 x=1\npoint 0002 x=2\n" },
                                                       "sweep%.txt is damaged %('shards 3' but 2 point lines%)" },
    ["a damaged sweep.txt"] = { { ["sweep.txt"] = "id s\nshards two\n" }, "sweep%.txt is damaged %(line 2: 'shards two'%)" },
    ["a sweep.txt without shards"] = { { ["sweep.txt"] = "id s\n" }, "sweep%.txt is damaged %(no 'shards' line%)" },
    ["binary garbage for sweep.txt"] = { { ["sweep.txt"] = "\0\1\2garbage" }, "sweep%.txt is damaged" },
  } do
    it(what .. ": one line, exit status 2, nothing merged", function()
      local dir = fake(c[1])
      local st, _, err = merge(dir)
      assert.are.equal(2, st, err)
      assert.are.equal(1, lines(err), err)
      assert.matches("^sweep: [^\n]*" .. c[2], err)
      assert.is_nil(read(dir .. "/data/s.tsv"))
      U.rmdir(dir)
    end)
  end
end)
