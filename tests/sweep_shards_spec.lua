-- sweep_shards_spec.lua -- an ensemble grid in shards (issue 29, item 3) and the ensemble sweep's
-- edges of issue 25: `ensemble ... --shards N` writes N commands over contiguous ranges of the
-- grid's points; run and merged they give the file and figure of the one call, byte for byte,
-- header included (5 uneven shards of a 3 x 4 grid); a shard that is cut or came from another call
-- is refused; a grid too large for one call names --shards; a point whose C force segfaults costs
-- only that point (failed:crash, the others kept); q0 and q0_1 of a one-degree model together are
-- refused.
local U = require "testutil"
local F = require "kapitza.files"

local q = U.q -- shell quoting
local function read(p) return F.read(p) end
local MODEL = U.root .. "/tests/models/pend2.lua"
local GRID = "--over vmax=2,3,4 --over q0_1=0.1,0.2,0.3,0.4 method=rk4 n=2000 'T=16*pi/1e3' --threads 1"

describe("sweep ensemble --shards", function()
  it("5 shards of a 3 x 4 grid, run and merged: the one call's file and figure, byte for byte", function()
    local base = U.tmpdir()
    local dir, one = base .. "/sw", base .. "/one"
    local st, out, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s --shards 5", q(MODEL), q(dir), GRID))
    assert.are.equal(0, st, err)
    local n = 0
    for line in out:gmatch("[^\n]+") do
      n = n + 1
      assert.matches("sweep%.lua' ensemble '[^']*pend2%.lua' '[^']*/shards/000" .. n .. "' .* %-%-part " .. n .. "/5$", line)
    end
    assert.are.equal(5, n)
    assert.is_nil(read(dir .. "/data/sweep-pend2.tsv")) -- nothing ran
    assert.matches("part 0001 1%-2\npart 0002 3%-4\npart 0003 5%-7\npart 0004 8%-9\npart 0005 10%-12\n", read(dir .. "/sweep.txt"))
    st, out = U.run("luajit scripts/sweep.lua status " .. q(dir))
    assert.are.equal(1, st)
    assert.matches("5 shards of sweep%-pend2: 0 done, 0 failed, 0 unfinished, 5 missing", out)
    assert.matches("shard 0003 %(points 5%-7%): missing: not run", out)
    st, _, err = U.run(string.format("KZ_SWEEP_RUNNER=builtin luajit scripts/sweep.lua run %s -j 2", q(dir)))
    assert.are.equal(0, st, err)
    assert.is_nil(read(dir .. "/shards/0001/figures/sweep-pend2.svg")) -- a shard draws none
    local keep = read(dir .. "/shards/0004/data/sweep-pend2.tsv")
    -- a shard cut short, or written by another call, is refused
    assert(F.write_atomic(dir .. "/shards/0004/data/sweep-pend2.tsv", keep:gsub("[^\n]*\n$", "")))
    st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(2, st)
    assert.matches("^sweep: shard 0004 holds 1 rows for its 2 points 8%-9 %(cut short%? rerun it%)\n$", err)
    assert(F.write_atomic(dir .. "/shards/0004/data/sweep-pend2.tsv", keep:gsub("n=2000", "n=2001")))
    st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(2, st)
    assert.matches("shard 0004 was written by another call %(its header line 2 differs%)", err)
    assert.is_nil(read(dir .. "/data/sweep-pend2.tsv"))
    assert(F.write_atomic(dir .. "/shards/0004/data/sweep-pend2.tsv", keep))
    st, _, err = U.run("luajit scripts/sweep.lua merge " .. q(dir))
    assert.are.equal(0, st, err)
    assert.matches("joined 5 shards of 12 points", err)
    st, _, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s", q(MODEL), q(one), GRID))
    assert.are.equal(0, st, err)
    for _, f in ipairs { "data/sweep-pend2.tsv", "figures/sweep-pend2.svg" } do
      local a, b = read(dir .. "/" .. f), read(one .. "/" .. f)
      assert.is_truthy(a, f)
      assert.is_true(a == b, f .. " differs from the one call's")
    end
    U.rmdir(base)
  end)

  it("a grid too large for one call names --shards; with it, the commands are written", function()
    local base = U.tmpdir()
    local vals = {}
    for i = 1, 1001 do vals[i] = string.format("%.4f", 0.1 + i * 1e-4) end
    local over = string.format("--over q0_1=%s --over q0_2=%s method=rk4 n=10", table.concat(vals, ","), table.concat(vals, ","))
    local st, out, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s", q(MODEL), q(base .. "/a"), over))
    assert.are.equal(2, st)
    assert.are.equal("", out)
    assert.matches("^sweep: the grid has 1%.002e%+06 points %(at most 1e%+06 in one call[^\n]*give %-%-shards 2 %(or more%)", err)
    assert.are.same({}, F.tree(base))
    st, out, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s --shards 3", q(MODEL), q(base .. "/a"), over))
    assert.are.equal(0, st, err)
    local man = read(base .. "/a/sweep.txt")
    assert.is_truthy(man:find("\npart 0001 1-334000\npart 0002 334001-668000\npart 0003 668001-1002001\n", 1, true), "the parts of 3 shards")
    U.rmdir(base)
  end)
end)

describe("sweep ensemble, issue 25's edges", function()
  it("a C force that segfaults at one grid point: that point failed:crash, the others kept", function()
    local base = U.tmpdir()
    assert(F.write_atomic(base .. "/crash.lua", [=[
return {
  name = "crash1", nq = 1, params = { "a", "omega", "theta0" },
  values = { a = 1, omega = 100, theta0 = 0 }, q0 = { 0.1 }, v0 = { 0 }, T = 1,
  c = { accel = "force", source = [[
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  if (p->a == 3 && theta > 2) *(volatile double *)0 = 1; /* a bug at one grid point */
  a[0] = -p->a * q[0] + cos(theta);
  return KZ_OK;
}
]] } }
]=]))
    local st, _, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s --over a=1,2,3,4,5 --over q0=0.1,0.2 n=1000 plot=none",
                                           q(base .. "/crash.lua"), q(base .. "/out")))
    assert.are.equal(0, st, err)
    assert.matches("sweep: point 5 %(a=3 q0=0%.1%): the model's code crashed the process %(signal 11 ", err)
    assert.matches("sweep: point 6 %(a=3 q0=0%.2%)", err)
    local t = read(base .. "/out/data/sweep-crash1.tsv")
    local ok, crash = 0, 0
    for line in t:gmatch("[^\n]+") do
      if line:match("\tok\t4000$") then ok = ok + 1 end
      if line:match("^3\t0%.%d\tnan\tnan\tfailed:crash\t0$") then crash = crash + 1 end
    end
    assert.are.equal(8, ok)
    assert.are.equal(2, crash)
    U.rmdir(base)
  end)

  it("q0 and q0_1 of a one-degree model given together are refused (they are one component)", function()
    local base = U.tmpdir()
    assert(F.write_atomic(base .. "/one.lua", [=[
return { name = "one", nq = 1, params = { "k" }, values = { k = 1 }, q0 = { 0.1 }, v0 = { 0 }, T = 1,
  c = { accel = "f", source = "static int f(const kz_par *p, double t, const double *q, double *a) { (void)t; a[0] = -p->k * q[0]; return KZ_OK; }" } }
]=]))
    for _, args in ipairs { "--over q0=0.1,0.2 --over q0_1=0.3,0.4", "--over q0_1=0.1,0.2 q0=0.3", "--over v0=0,1 v0_1=2" } do
      local st, out, err = U.run(string.format("luajit scripts/sweep.lua ensemble %s %s %s n=100", q(base .. "/one.lua"), q(base .. "/x"), args))
      assert.are.equal(2, st, args)
      assert.are.equal("", out)
      assert.matches("^sweep: '[qv]0[_1]*' and '[qv]0[_1]*' name the same component of the initial state: give one\n$", err)
      assert.is_nil(F.stat(base .. "/x"))
    end
    U.rmdir(base)
  end)
end)
