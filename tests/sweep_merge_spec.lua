-- sweep_merge_spec.lua -- a sweep's merge equals one run (issue 29, item 1), and what a cluster user
-- meets around it (items 2, issue 25's sweep edges):
--  * compute cells (lib/lua/kapitza/scenario/cells.lua) recorded exactly: every double by its bits;
--  * scenarios swept over list keys and merged: every file of a single run with those lists,
--    byte for byte (data, tables .tsv and .md, claims, figure);
--  * no single run (a scalar key; cells that depend on a swept list as a whole): the TSVs joined,
--    each claim re-judged across the points with the premise stated;
--  * every point that is not done named by status and merge (failed, missing, unfinished,
--    unreadable) with the lines that rerun it, in arrays below MaxArraySize;
--  * what an array task runs fails loudly; GNU parallel that runs nothing is no success; a
--    scenario file kept elsewhere runs; shards that disagree on a cell are refused.
local U = require "testutil"
local F = require "kapitza.files"
local S = require "kapitza.scenario"

local q = U.q -- shell quoting
local function read(p) return F.read(p) end

-- emit (with args), run here, merge; returns the sweep's folder, merge's status and stderr
local function sweep(id, args, o)
  o = o or {}
  local dir = U.tmpdir() .. "/sw"
  local st, _, err = U.run(string.format("luajit scripts/sweep.lua emit %s %s %s", id, q(dir), args))
  assert.are.equal(0, st, err)
  st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s -j 2", q(dir)))
  assert.are.equal(0, st, err)
  st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
  return dir, st, err
end

local function one_run(id, args)
  local one = U.tmpdir()
  local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s %s", id, q(one), args))
  assert.are.equal(0, st, err)
  return one
end

-- every file of b's data, tables and figures is in a, byte for byte, and a has no other
local function same_files(a, b)
  local n = 0
  for _, sub in ipairs { "data", "tables", "figures" } do
    for _, f in ipairs(F.tree(b .. "/" .. sub) or {}) do
      local x, y = read(a .. "/" .. sub .. "/" .. f), read(b .. "/" .. sub .. "/" .. f)
      assert.is_truthy(x, sub .. "/" .. f .. " not merged")
      assert.is_true(x == y, sub .. "/" .. f .. " differs from the single run")
      n = n + 1
    end
    for _, f in ipairs(F.tree(a .. "/" .. sub) or {}) do
      assert.is_truthy(read(b .. "/" .. sub .. "/" .. f), sub .. "/" .. f .. " is not a file of the single run")
    end
  end
  return n
end

local function rm(dir) U.rmdir(dir:match("^(/tmp/[^/]+)")) end

describe("compute cells", function()
  it("encode every value exactly and decode it back", function()
    local ffi = require "ffi"
    local v = { 0.1, -0.0, 1 / 0, -1 / 0, 5e-324, 2 ^ 53 + 2, "a\0b\n\255", true, false,
                { x = { 1, 2, { "deep" } }, [3] = 4 }, ffi.new("int64_t", -9007199254740993LL), ffi.new("uint64_t", 18446744073709551615ULL) }
    local ok, back = S.cell_decode(S.cell_encode(v))
    assert.is_true(ok)
    for i = 1, 9 do
      assert.are.equal(v[i], back[i], "item " .. i)
      if type(v[i]) == "number" then assert.are.equal(1 / v[i], 1 / back[i], "item " .. i .. " (its sign)") end
    end
    assert.are.same(v[10], back[10])
    assert.are.equal(tostring(v[11]), tostring(back[11]))
    assert.are.equal(tostring(v[12]), tostring(back[12]))
    local ok2, nan = S.cell_decode(S.cell_encode(0 / 0))
    assert.is_true(ok2 and nan ~= nan)
    assert.are.equal(S.cell_encode(0 / 0), S.cell_encode(nan)) -- its bits, sign included
    for _, bad in ipairs { "n123", "s5:abc", "t1{n3ff0000000000000}", "x", "n3ff0000000000000junk" } do
      assert.is_nil((S.cell_decode(bad)), bad)
    end
    assert.has_error(function() S.cell_encode({ f = print }) end)
    assert.has_error(function() S.cell_encode(setmetatable({}, {})) end)
  end)
end)

describe("sweep merge: the files of one run", function()
  for _, c in ipairs {
    { "top-table1", "--over omega=1e3,1e4 --quick", "omega=1e3,1e4 --quick" },
    { "atlas-pendulum", "--over omega=1e3,1e4 --over methods=HMM-A2,SAM-rk4/rk4,rk4 --quick",
      "omega=1e3,1e4 methods=HMM-A2,SAM-rk4/rk4,rk4 --quick" },
    { "vmi-fig6.10", "--over p=5,10 --quick", "p=5,10 --quick" },
    { "ste-fig3.2", "--over curves=HMM-FE-v,HMM-IFE-v --quick", "curves=HMM-FE-v,HMM-IFE-v --quick" },
  } do
    it(c[1] .. " over its list keys: every file byte for byte", function()
      local dir, st, err = sweep(c[1], c[2])
      assert.are.equal(0, st, err)
      assert.matches("judged the shards' cells as one run", err, 1, true)
      local one = one_run(c[1], c[3])
      assert.is_true(same_files(dir, one) >= 4)
      rm(dir)
      U.rmdir(one)
    end)
  end

  it("a scalar key swept: the TSVs joined (the key a first column), each claim re-judged, the premise stated", function()
    local dir, st, err = sweep("cs-table2.2", "--over periods=20,40 omega=1e4 H=1/10,1/20")
    assert.are.equal(0, st, err)
    assert.matches("joined 2 points of cs%-table2%.2 .*a sweep over 'periods', a scalar parameter: no single run", err)
    assert.matches("not merged %(each point's own is in its shard%): figures/cs%-table2%.2%.svg, tables/cs%-table2%.2%.md", err)
    local t = read(dir .. "/tables/cs-table2.2.tsv")
    assert.matches("^periods\tH\tomega\tmicrosteps", t)
    assert.matches("\n20\t0%.1[^\n]*\n20\t0%.05[^\n]*\n40\t0%.1[^\n]*\n40\t0%.05", t)
    local cl = read(dir .. "/tables/cs-table2.2-claims.tsv")
    local n, keys = 0, {}
    for line in cl:gmatch("[^\n]+") do
      if not line:match("^#") and not line:match("^claim\t") then n = n + 1; keys[#keys + 1] = line:match("^[^\t]+") end
    end
    assert.are.same({ "column_omega_1e4", "averaged", "microsteps", "three_digits" }, keys) -- one row each, not one per point
    assert.matches("^# 2 points of a sweep merged: each claim judged at each point alone %(a sweep over 'periods'", cl)
    -- the evidence is the judged points' counted items joined (the n/a point left out), each point's premises beside
    assert.matches("column_omega_1e4\t2 printed cells\teach point judged alone, 1 of 2 with a verdict: point 0001 %(periods=20%): n/a: [^\t]*; " ..
                   "point 0002 %(periods=40%): 2 of 2 within one unit of the third printed digit [^\t]*%[yes%]\t" ..
                   "2 of 2 printed cells %(1 of 2 points judged%)\ta sweep over 'periods'[^\t]*; point 0001 %(periods=20%): ✗ at the printed parameters; " ..
                   "point 0002 %(periods=40%): ✓ at the printed parameters\t[^\t]*\t[^\t]*\tyes\n", cl)
    local md = read(dir .. "/tables/cs-table2.2-claims.md")
    assert.matches("| the printed errors of the column ω = 10⁴ | 2 printed cells | each point judged alone", md, 1, true)
    assert.matches("Merged from 2 points of a sweep", md, 1, true)
    -- and the merged table has the structure of every claims table (tests/claimcheck.lua)
    local problems = require("claimcheck").rows(S.read_table(dir .. "/tables/cs-table2.2-claims.tsv"), "cs-table2.2-claims.tsv")
    assert.are.same({}, problems)
    rm(dir)
  end)

  it("cells that depend on more of a swept list than their point (top-fig13: the largest N fixes the reference grid): joined, saying which", function()
    local dir, st, err = sweep("top-fig13", "--over N=30,60 schemes=LF-rk4 eta_h=10 --quick")
    assert.are.equal(0, st, err)
    assert.matches("joined 2 points of top%-fig13[^\n]*no shard recorded cell 'run' at N = 30, Nmax = 60, [^\n]*: the shards' cells " ..
                   "of that name differ from this run in N or Nmax", err)
    rm(dir)
  end)

  it("two shards that recorded one cell differently are refused", function()
    local dir = U.tmpdir() .. "/sw"
    assert.are.equal(0, (U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over H=1/10,1/20 omega=1e4 periods=20", q(dir)))))
    assert.are.equal(0, (U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s", q(dir)))))
    -- shard 0002 also claims shard 0001's cell, with another value
    local f1, f2 = dir .. "/shards/0001/cells/cs-table2.2.cells", dir .. "/shards/0002/cells/cs-table2.2.cells"
    local _, list = S.cells_parse(read(f1))
    local v = S.cell_encode({ n = 2, { 1, 2 }, 1000 })
    assert(F.write_atomic(f2, read(f2) .. string.format("cell %d %d\n", #list[1][1], #v) .. list[1][1] .. v .. "\n"))
    local st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(2, st)
    assert.matches("cs%-table2%.2: the shards 0001 and 0002 recorded cell 'hmm' at H = 0%.1, omega = 10000 differently", err)
    assert.is_nil(read(dir .. "/tables/cs-table2.2.tsv"))
    -- and a cells file cut short is named
    assert(F.write_atomic(f2, read(f1):sub(1, -20)))
    st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(2, st)
    assert.matches("cells/cs%-table2%.2%.cells is damaged %(cut short%)", err)
    rm(dir)
  end)
end)

describe("sweep status and merge name every point not done", function()
  local function emitted(args)
    local dir = U.tmpdir() .. "/sw"
    local st, _, err = U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s %s", q(dir), args))
    assert.are.equal(0, st, err)
    return dir
  end

  it("failed, missing, unfinished, partial: every one, with the arrays (below MaxArraySize) and run --points that rerun them", function()
    local dir = emitted("--over H=1/10,1/20,1/40,1/80 --over omega=1e4,1e6 periods=20 --max-array 4")
    -- arrays of at most 3 points: 8 points in three submissions
    local submit = read(dir .. "/submit.sh")
    assert.matches("%-%-array=1%-3 \"%$@\" '[^']*/slurm%.sh' 0%)", submit)
    assert.matches("%-%-array=1%-3 \"%$@\" '[^']*/slurm%.sh' 3%)", submit)
    assert.matches("%-%-array=1%-2 \"%$@\" '[^']*/slurm%.sh' 6%)", submit)
    assert.are.equal(0, (U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s --points 1-3,6,8", q(dir)))))
    assert(F.write_atomic(dir .. "/shards/0002/data/cs-table2.2-errors.tsv.tmp", "partial"))
    assert(F.write_atomic(dir .. "/shards/0006/.kz-stage-cs-table2.2-1/x", "killed"))
    assert(F.write_atomic(dir .. "/logs/0007.log", "# sweep task: point 0007\n" .. "# sweep task: 0007 ended with exit status 1\n"))
    local st, out = U.run("luajit scripts/sweep.lua status " .. q(dir))
    assert.are.equal(1, st)
    assert.matches("8 points of cs%-table2%.2: 3 done, 1 failed, 2 unfinished, 2 missing, 0 unreadable\n", out) -- (1, 3, 8 done)
    assert.matches("point 0002 %(H=1/10 omega=1e6%): unfinished: a partial write data/cs%-table2%.2%-errors%.tsv%.tmp", out)
    assert.matches("point 0004 %(H=1/20 omega=1e6%): missing: not run", out)
    assert.matches("point 0006 %(H=1/40 omega=1e6%): unfinished: a run's staging folder", out)
    assert.matches("point 0007 %(H=1/80 omega=1e4%): failed: exit status 1, no outputs %([^)]*/logs/0007%.log%)", out)
    assert.matches("point 0005 %(H=1/40 omega=1e4%): missing: not run", out)
    assert.matches("on Slurm: %-%-array=2 %(offset 0%), %-%-array=1%-3 %(offset 3%), %-%-array=1 %(offset 6%)\n", out)
    assert.matches("sbatch %-%-array=1%-3 '[^']*/slurm%.sh' 3\n", out)
    assert.matches("run '[^']*' %-%-points 2,4%-7\n", out)
    local st2, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(2, st2)
    for _, k in ipairs { "0002", "0004", "0005", "0006", "0007" } do assert.matches("point " .. k, err) end
    assert.is_nil(err:find("point 0008", 1, true))
    assert.is_nil(read(dir .. "/tables/cs-table2.2.tsv"))
    rm(dir)
  end)

  it("an unreadable shard is called unreadable, not missing", function()
    local dir = emitted("--over omega=1e4,1e6 periods=20")
    assert.are.equal(0, (U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s", q(dir)))))
    local prefix = ""
    if U.run("test \"$(id -u)\" = 0") == 0 then -- root reads everything: ask as nobody
      if U.run("command -v setpriv >/dev/null") ~= 0 then pending("root without setpriv: cannot make a shard unreadable"); return end
      prefix = "setpriv --reuid=65534 --regid=65534 --clear-groups "
      U.run("chmod -R a+rX " .. q(dir:match("^(/tmp/[^/]+)")))
      if U.run(prefix .. "test -r " .. q(U.root .. "/scripts/sweep.lua")) ~= 0 then pending("the checkout is not readable by nobody"); return end
    end
    U.run("chmod 000 " .. q(dir .. "/shards/0002"))
    local st, out = U.run(prefix .. "luajit scripts/sweep.lua status " .. q(dir))
    U.run("chmod 755 " .. q(dir .. "/shards/0002"))
    assert.are.equal(1, st, out)
    assert.matches("point 0002 %(omega=1e6%): unreadable: cannot read [^\n]*shards/0002: Permission denied", out)
    rm(dir)
  end)
end)

describe("sweep task (what slurm.sh runs) fails loudly", function()
  it("a point beyond commands.txt, an empty line, a command that writes nothing; slurm.sh outside Slurm", function()
    local dir = U.tmpdir() .. "/sw"
    assert.are.equal(0, (U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,1e6,1e8 periods=20", q(dir)))))
    local st, _, err = U.run(string.format("luajit scripts/sweep.lua task %s 4", q(dir)))
    assert.are.equal(2, st)
    assert.matches("no point '4' in this sweep %(1%-3%)", err)
    local lines = {}
    for l in read(dir .. "/commands.txt"):gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert(F.write_atomic(dir .. "/commands.txt", lines[1] .. "\n\ntrue\n")) -- point 2 empty, point 3 does nothing
    st, _, err = U.run(string.format("luajit scripts/sweep.lua task %s 2", q(dir)))
    assert.are.equal(2, st)
    assert.matches("has no command for point 2", err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua task %s 3", q(dir)))
    assert.are.equal(1, st)
    assert.matches("point 0003 %(omega=1e8%): failed: exited 0 but the point is not done %(not run%)", err)
    assert.matches("ended with exit status 1\n$", read(dir .. "/logs/0003.log"))
    st, _, err = U.run(string.format("luajit scripts/sweep.lua task %s 1", q(dir)))
    assert.are.equal(0, st, err)
    assert.matches("ended with exit status 0\n$", read(dir .. "/logs/0001.log"))
    st, _, err = U.run(string.format("sh %s 0", q(dir .. "/slurm.sh")))
    assert.are.equal(2, st)
    assert.matches("run by Slurm as a job array", err)
    rm(dir)
  end)
end)

describe("sweep run and emit, issue 25's edges", function()
  it("GNU parallel that runs none of the points: not a success", function()
    local dir = U.tmpdir() .. "/sw"
    assert.are.equal(0, (U.run(string.format("luajit scripts/sweep.lua emit cs-table2.2 %s --over omega=1e4,1e6 periods=20", q(dir)))))
    -- a parallel that writes its job log's head and nothing else (as on a full disk)
    local bin = U.tmpdir()
    assert(F.write_atomic(bin .. "/parallel", "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --joblog ] && printf 'Seq\\tHost\\tStarttime\\tJobRuntime\\tSend\\tReceive\\tExitval\\tSignal\\tCommand\\n' > \"$2\"; shift; done\nexit 0\n"))
    U.run("chmod 755 " .. q(bin .. "/parallel"))
    local st, _, err = U.run(string.format("PATH=%s:$PATH KZ_SWEEP_RUNNER=parallel luajit scripts/sweep.lua run %s", q(bin), q(dir)))
    assert.are.equal(1, st, err)
    assert.matches("2 points: 0 done, 0 failed, 2 not run\n$", err)
    U.rmdir(bin)
    rm(dir)
  end)

  it("a scenario file kept elsewhere (a copy): its commands find the library", function()
    local base = U.tmpdir()
    assert(F.write_atomic(base .. "/my copy.lua", read(U.root .. "/scenarios/cs-table2.2.lua")))
    local dir = base .. "/sw"
    local st, out, err = U.run(string.format("cd %s && luajit %s/scripts/sweep.lua emit %s sw --over omega=1e4,1e6 periods=20",
                                             q(base), q(U.root), q(base .. "/my copy.lua")))
    assert.are.equal(0, st, err)
    assert.matches("LUA_PATH='" .. U.root:gsub("%p", "%%%0") .. "/lib/lua/%?%.lua;'", out)
    st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s", q(dir)))
    assert.are.equal(0, st, err)
    st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(0, st, err)
    assert.truthy(read(dir .. "/tables/cs-table2.2.tsv"))
    U.rmdir(base)
  end)
end)
