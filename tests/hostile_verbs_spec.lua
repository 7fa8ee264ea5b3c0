-- Probes by a tester who did not write the verbs (issue 25, item 4), each driven through the real
-- command line (bin/kapitza, scenarios, scripts/sweep.lua), each failing on the code before the
-- fix it names: an exit, a fork or a hang in a model's own code where nothing watched it, output
-- paths gnuplot read as commands, a figure cut short and kept, deaths by SIGXFSZ, a merge whose
-- scenario outlived a SIGTERM, numbers that crashed the parser or rounded to 0, options and knobs
-- given twice that the last or first silently won.
local U = require "testutil"

local KZ = U.root .. "/bin/kapitza"
local SWEEP = U.root .. "/scripts/sweep.lua"
local q = U.q -- shell quoting
local function kz(args, env) return U.run(string.format("%s%s %s", env and (env .. " ") or "", q(KZ), args)) end
local lines = U.lines
local write = U.write
local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end
local function listing(dir)
  local p = io.popen("cd " .. q(dir) .. " 2>/dev/null && find . | sort")
  local s = p:read("*a")
  p:close()
  return s
end
local function one_line(st, out, err, code, find, what)
  assert.are.equal(code, st, (what or "") .. ": " .. out .. err)
  assert.are.equal(1, #lines(err), (what or "") .. ": " .. err)
  assert.is_nil(err:find("luajit:", 1, true), err)
  assert.is_nil(err:find("traceback", 1, true), err)
  if find then assert.truthy(err:find(find, 1, true), (what or "") .. ": " .. err) end
end

-- A one-degree C model whose accel runs `body` before a[0] = -q[0] (T = 20, period 2 pi by check's estimate).
local function cmodel(dir, name, body, top)
  local path = dir .. "/" .. name .. ".lua"
  write(path, string.format([[
return { name = %q, nq = 1, params = { "k" }, values = { k = 1 }, q0 = { 1 }, T = 20,
  c = { accel = "f", source = [==[
%s
static int f(const kz_par *p, double t, const double *q, double *a)
{
  (void)p; (void)t;
  %s
  a[0] = -q[0];
  return KZ_OK;
}
]==] } }
]], name, top or "", body))
  return path
end

describe("hostile verbs: exits, forks and hangs in a model's own code", function()
  local tmp, cache
  setup(function()
    tmp = U.tmpdir()
    cache = tmp .. "/cache"
    os.execute("mkdir -m 700 " .. q(cache))
  end)
  teardown(function() U.rmdir(tmp) end)
  local function env() return "KZ_CACHE=" .. q(cache) end

  it("os.exit in a model file's top-level code or in q0 = function(p): one line, exit 2 (it ended check with status 0 or 3)", function()
    local base = 'name = "ex", nq = 1, params = { "k" }, values = { k = 1 }, T = 20, ' ..
                 'lua = { accel = function(p, t, q, a) a[0] = -q[0] end }'
    write(tmp .. "/top0.lua", "os.exit(0)\n")
    write(tmp .. "/top3.lua", "os.exit(3)\n")
    write(tmp .. "/q0.lua", "return { " .. base .. ", q0 = function(p) os.exit(0) end }\n")
    write(tmp .. "/period.lua", "return { " .. base .. ", q0 = { 1 }, period = function(p) os.exit(5) end }\n")
    for _, c in ipairs { { "top0", "(its top-level code) called os.exit(0)" }, { "top3", "called os.exit(3)" },
                         { "q0", "q0 (a function of the parameters) called os.exit(0)" },
                         { "period", "period (a function of the parameters) called os.exit(5)" } } do
      local st, out, err = kz("check " .. q(tmp .. "/" .. c[1] .. ".lua"), env())
      one_line(st, out, err, 2, c[2], c[1])
    end
  end)

  it("a constructor that calls exit(0) or never returns: the object does not load, one line, not kept (check exited 0; hung)", function()
    local ex = cmodel(tmp, "ctorexit", "", "#include <stdlib.h>\n__attribute__((constructor)) static void kzt_c(void) { exit(0); }")
    local st, out, err = kz("check " .. q(ex), env())
    one_line(st, out, err, 2, "the compiled object does not load: the loading process ended: exit status 0 before the load returned")
    local lp = cmodel(tmp, "ctorloop", "", "__attribute__((constructor)) static void kzt_c(void) { for (;;) {} }")
    st, out, err = U.run(string.format("timeout 60 env %s %s check %s timeout=2", env(), q(KZ), q(lp)))
    one_line(st, out, err, 2, "it did not finish loading within 2 s")
    local p = io.popen("ls -A " .. q(cache))
    for f in p:lines() do assert.is_nil(f:match("^ctor.*%.so$"), f) end
    p:close()
  end)

  it("fork() in accel mid-run: the copy ends at once, the run stops with one line, exit 71 (it ran on, twice)", function()
    local m = cmodel(tmp, "forkrun", "static int done; if (t > 3 && !done) { done = 1; fork(); }", "#include <unistd.h>")
    for _, lim in ipairs { "", " timeout=0" } do
      local st, out, err = U.run(string.format("timeout 60 env %s %s solve %s method=rk4 n=16%s", env(), q(KZ), q(m), lim))
      one_line(st, out, err, 71, "usermodel 'forkrun': accel (C function 'f') called fork() (at t = ", lim)
      assert.are.equal("", out, lim)
    end
    -- in the atlas: the same line, its --out left as it was (not made)
    local st, out, err = U.run(string.format("timeout 60 env %s %s atlas %s --out %s --quick methods=rk4", env(), q(KZ), q(m),
                                             q(tmp .. "/atl")))
    assert.are.equal(71, st, out .. err)
    assert.truthy(err:find("called fork()", 1, true), err)
    assert.is_false(exists(tmp .. "/atl"))
    -- at the trial calls, in their child process: named there
    local t = cmodel(tmp, "forktrial", "static int n; if (n++ < 2) fork();", "#include <unistd.h>")
    st, out, err = U.run(string.format("timeout 60 env %s %s check %s", env(), q(KZ), q(t)))
    one_line(st, out, err, 2, "accel (C function 'f') called fork() in a trial call")
  end)

  it("the ensemble sweep: a hang in its member loop is stopped at the limit, a fork there too (it hung; ran on)", function()
    local hang = cmodel(tmp, "enshang", "volatile int k = 1; while (t > 3 && k) {}")
    local st, out, err = U.run(string.format("timeout 90 env %s KZ_MODEL_TIMEOUT=1 luajit %s ensemble %s %s --over k=1,2 n=16",
                                             env(), q(SWEEP), q(hang), q(tmp .. "/eh")))
    one_line(st, out, err, 2, "usermodel 'enshang': accel (C function 'f') did not return within 1 s")
    assert.is_false(exists(tmp .. "/eh"))
    local fk = cmodel(tmp, "ensfork", "static int done; if (t > 3 && !done) { done = 1; fork(); }", "#include <unistd.h>")
    st, out, err = U.run(string.format("timeout 90 env %s luajit %s ensemble %s %s --over k=1,2 n=16", env(), q(SWEEP), q(fk),
                                       q(tmp .. "/ef")))
    one_line(st, out, err, 71, "usermodel 'ensfork': accel (C function 'f') called fork()")
    assert.is_false(exists(tmp .. "/ef"))
  end)
end)

describe("hostile verbs: output paths, full files, signals", function()
  local tmp
  local SCEN = U.root .. "/scenarios/cs-table2.2.lua"
  local MODEL = U.root .. "/scenarios/examples/forced_pendulum2d.lua"
  setup(function()
    tmp = U.tmpdir()
    -- the models compiled (and cached) before any limit is set
    assert.are.equal(0, (U.run(string.format("KZ_QUIET=1 luajit %s --quick --out %s", q(SCEN), q(tmp .. "/warm")))))
    assert.are.equal(0, (kz("check " .. q(MODEL) .. " >/dev/null")))
  end)
  teardown(function() U.rmdir(tmp) end)

  it("a relative --out beginning with '<', '|' or '$': the figure drawn, nothing of it run as a command (it ran; failed)", function()
    local touched = tmp .. "/touched"
    for _, d in ipairs { "<touch " .. touched .. ";echo ", "|x", "$HOME" } do
      local st, out, err = U.run(string.format("cd %s && KZ_QUIET=1 luajit %s --quick --out %s", q(tmp), q(SCEN), q(d)))
      assert.are.equal(0, st, d .. ": " .. out .. err)
      assert.is_true(exists(tmp .. "/" .. d .. "/figures/cs-table2.2.svg"), d)
      st, out, err = U.run(string.format("cd %s && KZ_QUIET=1 %s atlas %s --quick methods=rk4 --out %s", q(tmp), q(KZ), q(MODEL), q(d)))
      assert.are.equal(0, st, d .. ": " .. out .. err)
      assert.is_true(exists(tmp .. "/" .. d .. "/figures/atlas-forced_pendulum2d.svg"), d)
    end
    assert.is_false(exists(touched), "gnuplot ran the --out as a command")
  end)

  it("a file size limit: a figure cut short is an error, not kept; a scenario or an ensemble says File too large, leaves nothing (SIGXFSZ)", function()
    -- the data (6 kB) fit in 12 kB, the figure (20 kB) does not: gnuplot exits 0 with half an SVG
    -- (bash: its ulimit -f counts kB, dash's half-kB)
    local st, out, err = U.run(string.format("cd %s && KZ_QUIET=1 bash -c %s", q(tmp),
                                             q(string.format("ulimit -f 12; exec luajit %s --quick --out f8", q(SCEN)))))
    one_line(st, out, err, 1, "figures/cs-table2.2.svg cut short (no closing tag")
    assert.is_false(exists(tmp .. "/f8"))
    -- nothing fits: one line, no staging folder left, --out not made
    st, out, err = U.run(string.format("ulimit -f 1; cd %s && KZ_QUIET=1 %s run %s --quick --out f1", q(tmp), q(KZ), q(SCEN)))
    one_line(st, out, err, 1, "File too large")
    assert.is_false(exists(tmp .. "/f1"))
    -- the ensemble sweep: its folders are removed again when its table cannot be written
    st, out, err = U.run(string.format("ulimit -f 1; KZ_QUIET=1 luajit %s ensemble %s %s --over vmax=2,3,4,5,6,7,8,9 --over k=1,2,3 n=16 omega=1e3 --threads 1",
                                       q(SWEEP), q(MODEL), q(tmp .. "/e1")))
    assert.are.equal(2, st, out .. err)
    assert.truthy(err:find("File too large", 1, true), err)
    assert.is_false(exists(tmp .. "/e1"))
  end)

  it("SIGTERM or SIGINT to a merge while its scenario runs: passed on, DIR left as it was, no log left (it wrote DIR after dying); a moved checkout: no shell line", function()
    local scen = tmp .. "/slowmerge.lua"
    write(scen, [[
local S = require "kapitza.scenario"
local sc = S.new { id = "slowmerge", title = "a slow merge", params = { { "x", { 1, 2 }, "", "values (list)", min = 0, max = 10 } } }
local P = sc:parse(arg)
local rows = {}
for _, x in ipairs(P.x) do rows[#rows + 1] = { x = x, y = sc:cell("sq", { x = x }, function() return x * x end) } end
local ffi = require "ffi"
ffi.cdef "int usleep(unsigned int usec);"
if os.getenv("KZ_CELLS_REPLAY") then for _ = 1, 40 do ffi.C.usleep(100000) end end -- 4 s, in C calls
sc:write_tsv("data/slowmerge.tsv", { "x", "y" }, rows, { "slowmerge" })
]])
    local dir = tmp .. "/sw"
    local st, out, err = U.run(string.format("luajit %s emit %s %s --over x=1,2 >/dev/null 2>&1 && KZ_SWEEP_RUNNER=builtin luajit %s run %s -j 1",
                                             q(SWEEP), q(scen), q(dir), q(SWEEP), q(dir)))
    assert.are.equal(0, st, out .. err)
    local before = listing(dir)
    for _, sig in ipairs { { "TERM", 143 }, { "INT", 130 } } do
      st, out, err = U.run(string.format("luajit %s merge %s & pid=$!; sleep 1.5; kill -%s $pid; wait $pid", q(SWEEP), q(dir), sig[1]))
      assert.are.equal(sig[2], st, sig[1] .. ": " .. out .. err)
      assert.is_nil(err:find("traceback", 1, true), err)
      os.execute("sleep 5") -- the scenario would have ended its sleep and written by now
      assert.are.equal(before, listing(dir), sig[1])
    end
    -- undisturbed, it merges
    st, out, err = U.run(string.format("luajit %s merge %s", q(SWEEP), q(dir)))
    assert.are.equal(0, st, out .. err)
    assert.is_true(exists(dir .. "/data/slowmerge.tsv"))
    -- a checkout no longer where sweep.txt says: the merge says so, without the shell's own line
    -- ("sh: 1: cd: can't cd to ...")
    os.execute("rm -rf " .. q(dir .. "/data") .. " " .. q(dir .. "/tables"))
    os.execute("sed -i 's|^root .*|root /nonexistent/kz-checkout|' " .. q(dir .. "/sweep.txt"))
    st, out, err = U.run(string.format("luajit %s merge %s", q(SWEEP), q(dir)))
    assert.are.equal(0, st, out .. err)
    assert.truthy(err:find("sweep: joined 2 points of slowmerge", 1, true), err)
    assert.is_nil(err:find("sh:", 1, true), err)
  end)
end)

describe("hostile verbs: numbers, options and knobs", function()
  local tmp
  local SCEN = U.root .. "/scenarios/cs-table2.2.lua"
  local MODEL = U.root .. "/scenarios/examples/forced_pendulum2d.lua"
  setup(function() tmp = U.tmpdir() end)
  teardown(function() U.rmdir(tmp) end)

  it("a number nested 10000 parentheses deep: refused in one line (a SIGSEGV); 1e-400 refused (read as 0)", function()
    local deep = ("("):rep(10000) .. "1/20" .. (")"):rep(10000)
    local st, out, err = U.run(string.format("cd %s && luajit %s --quick --out o H=%s", q(tmp), q(SCEN), q(deep)))
    one_line(st, out, err, 2, "parameter 'H': cannot read")
    st, out, err = U.run(string.format("cd %s && luajit %s --quick --out o omega=1e-400", q(tmp), q(SCEN)))
    one_line(st, out, err, 2, "parameter 'omega': cannot read '1e-400' as a number")
    st, out, err = kz("check " .. q(MODEL) .. " omega=1e-400")
    one_line(st, out, err, 2, "omega: cannot read '1e-400' as a number")
    assert.are.equal("", out)
    assert.is_false(exists(tmp .. "/o"))
  end)

  it("--out given twice, a list for one number (reps, refmax, budget): refused (the last or the first won silently)", function()
    for _, c in ipairs {
      { string.format("cd %s && luajit %s --quick --out a --out b", q(tmp), q(SCEN)), "--out is given twice" },
      { string.format("cd %s && luajit %s --quick --out=a --out b", q(tmp), q(SCEN)), "--out is given twice" },
      { string.format("cd %s && %s atlas %s --quick --out a --out=b", q(tmp), q(KZ), q(MODEL)), "--out is given twice" },
      { string.format("cd %s && %s atlas %s --quick --out a reps=1,2", q(tmp), q(KZ), q(MODEL)), "reps: one number, not a list" },
      { string.format("cd %s && %s atlas %s --quick --out a refmax=64,128", q(tmp), q(KZ), q(MODEL)), "refmax: one number, not a list" },
      { string.format("cd %s && %s atlas %s --quick --out a budget=1,2", q(tmp), q(KZ), q(MODEL)), "budget: one number, not a list" },
    } do
      local st, out, err = U.run(c[1])
      one_line(st, out, err, 2, c[2], c[1])
    end
    assert.is_false(exists(tmp .. "/a"))
    assert.is_false(exists(tmp .. "/b"))
  end)

  it("q0 = function(p) returning a word that is no parameter: one line naming it (an internal file:line)", function()
    write(tmp .. "/q0word.lua", 'return { name = "w", nq = 1, params = { "k" }, values = { k = 1 }, T = 20, q0 = function(p) return "x" end, ' ..
                                'lua = { accel = function(p, t, q, a) a[0] = -q[0] end } }\n')
    local st, out, err = kz("check " .. q(tmp .. "/q0word.lua"))
    one_line(st, out, err, 2, "q0: 'x' is not a number nor a parameter of the model")
    assert.is_nil(err:find("%.lua:%d+:"), err)
  end)

  it("a Lua accel that runs out of memory: one line, exit 2 (luajit: not enough memory, exit 1)", function()
    write(tmp .. "/oom.lua", 'return { name = "oom", nq = 1, params = { "k" }, values = { k = 1 }, q0 = { 1 }, T = 20, ' ..
                             'lua = { accel = function(p, t, q, a) local t = {} while true do t[#t + 1] = {} end end } }\n')
    write(tmp .. "/oomtop.lua", "local t = {} while true do t[#t + 1] = {} end\n")
    for _, c in ipairs { { "check " .. q(tmp .. "/oom.lua") .. " --lua", "accel raised an error: not enough memory" },
                         { "solve " .. q(tmp .. "/oom.lua") .. " --lua method=rk4 n=16", "accel raised an error: not enough memory" },
                         { "check " .. q(tmp .. "/oomtop.lua"), "raised an error: not enough memory" } } do
      local st, out, err = U.run(string.format("ulimit -v 600000; %s %s timeout=60 >/dev/null", q(KZ), c[1]))
      one_line(st, out, err, 2, c[2], c[1])
    end
  end)
end)
