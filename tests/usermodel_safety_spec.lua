-- A user model's code cannot take the process down silently, and the compile cache trusts
-- nobody (lib/lua/kapitza/usermodel.lua, lib/lua/kapitza/usermodel/cache.lua, lib/lua/kapitza/usermodel/guard.lua, lib/core/kz_fs.c; issue 17,
-- items 2 and 3): a source naming a function it does not define, a crash, an exit() and an
-- output left unset, each at the trial calls and during a run of a small scenario; planted links,
-- directories and objects of another user, a compile killed midway, shell words in CC and
-- KZ_CFLAGS.
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local ffi = kz.ffi
local U = require "testutil"
local vmi = require "kapitza.vmi"

pcall(ffi.cdef, "unsigned int getuid(void);")
local root_user = ffi.C.getuid() == 0

local write = U.write

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local function lines(s)
  local n = 0
  for _ in s:gmatch("[^\n]*\n") do n = n + 1 end
  return n
end

local function tmps(dir)
  local t = {}
  for _, f in ipairs(U.files(dir)) do if f:match("%.tmp$") then t[#t + 1] = f end end
  return t
end

-- A one-part model (q'' = accel) whose C function f has the body given.
local function c_spec(name, body)
  return { name = name, nq = 1, params = { "k" }, c = { accel = "f", source =
    "#include <stdlib.h>\nstatic int f(const kz_par *p, double t, const double *q, double *a)\n{\n  (void)p; (void)t;\n  " ..
    body .. "\n  return KZ_OK;\n}\n" } }
end

-- A script that makes the model and prints "ok <compiles> <loads> <path>" or "err <message>".
local MAKE = [[
package.path = %q .. package.path
local um = require "kapitza.usermodel"
local ok, m = pcall(um.model, %s, { k = 1 }, "c")
if ok then print("ok", um.stats.compiles, um.stats.loads, m.lib_path) else print("err", m) end
]]

local function serialize(spec)
  return string.format("{ name = %q, nq = 1, params = { 'k' }, c = { accel = 'f', source = %q } }", spec.name, spec.c.source)
end

local function make_script(dir, spec, libdir)
  local path = dir .. "/make-" .. spec.name .. ".lua"
  libdir = libdir or (U.root .. "/lib")
  write(path, string.format(MAKE, libdir .. "/lua/?.lua;" .. libdir .. "/experiment/?.lua;", serialize(spec)))
  return path
end

describe("a user model's code cannot take the process down silently", function()
  local dir
  before_each(function() dir = U.tmpdir() end)
  after_each(function() U.rmdir(dir) end)

  it("a source that names a function it does not define: one line at load, nothing left in the cache", function()
    local s = make_script(dir, c_spec("undef_fn", "a[0] = kzz_nowhere(q[0]);"))
    local st, out, err = U.run(string.format("KZ_CACHE='%s/cache' luajit %s", dir, s))
    assert.are.equal(0, st, err)
    assert.truthy(out:find("^err\tusermodel 'undef_fn': the C source uses 'kzz_nowhere', which it does not define " ..
                           "%(undef_fn%.c:%d+:%d+; undefined at link time"), out)
    assert.are.equal(1, lines(out), out)
    for _, f in ipairs(U.files(dir .. "/cache")) do
      assert.is_nil(f:match("%.so$"), f)
      assert.is_nil(f:match("%.tmp$"), f)
    end
    -- a second run says the same (nothing broken was cached)
    local _, out2 = U.run(string.format("KZ_CACHE='%s/cache' luajit %s", dir, s))
    assert.are.equal(out, out2)
  end)

  -- A scenario whose model's C function f has the given body, run from q = 1.
  local SCEN = [[
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local sc = S.new { id = "ex-guard", title = "a guarded user model", params = { { "q0", 1, "", "initial q" } } }
local P = sc:parse(arg)
local m = sc:try(um.model, %s, { k = 1 }, "c")
local y = kz.trajectory(m.sys, "rk4", 0, 0.01, 10, 5, { P.q0, 0 })
sc:write_tsv("data/ex-guard.tsv", { "q" }, { { y[0] } })
]]

  it("a crash, an exit() or an unset output: one line, non-zero exit, nothing written (trial calls and the run)", function()
    os.execute(string.format("mkdir -p '%s/scenarios' && ln -sfn '%s/lib' '%s/lib'", dir, U.root, dir))
    local trial = "in a trial call %(t = 0, inputs all 0%) in a child process"
    local cases = {
      -- at the trial calls, in a child process: the scenario's exit 2
      { "probe_segv", "volatile double *z = 0; a[0] = *z;", 2, "crashed with signal 11 %(Segmentation fault%) " .. trial },
      { "probe_exit", "exit(0);", 2, "called exit%(%) " .. trial },
      { "probe_unset", "(void)q;", 2, "left a%[0%] unset " .. trial },
      -- during the run (the trial points have |q| <= 0.5): the process ends, saying why
      { "run_segv", "if (q[0] > 0.9) { volatile double *z = 0; a[0] = *z; } else a[0] = -q[0];", 139,
        "crashed with signal 11 %(SIGSEGV%)\n$", true },
      { "run_exit", "if (q[0] > 0.9) exit(0); a[0] = -q[0];", 70,
        "called exit%(%) while a method was running: stopped, exit status 70\n$", true },
      { "run_unset", "if (q[0] < 0.9) a[0] = -q[0];", 2, "left a%[0%] unset %(at t = 0%)\n$" },
    }
    for _, c in ipairs(cases) do
      local name = "guard_" .. c[1]
      local path = dir .. "/scenarios/ex-" .. c[1] .. ".lua"
      write(path, string.format(SCEN, serialize(c_spec(name, c[2]))))
      local st, _, err = U.run(string.format("KZ_CACHE='%s/cache' KZ_QUIET=1 luajit %s --out %s/out", dir, path, dir))
      err = err:gsub("\n[^\n]*Segmentation fault[^\n]*\n$", "\n") -- a second line: the shell's word on the signal
      assert.are.equal(c[3], st, c[1] .. ": " .. err)
      local who = "usermodel '" .. name .. "': accel %(C function 'f'%) "
      local prefix = c[5] and "^" or "^ex%-guard: .-"
      assert.truthy(err:find(prefix .. who .. c[4]), c[1] .. ": " .. err)
      assert.are.equal(1, lines(err), c[1] .. ": " .. err)
      assert.are.equal(0, #U.files(dir .. "/out"), c[1])
    end
  end)

  it("a function that does not return at a trial call: one line after the alarm", function()
    local W = require "kapitza.usermodel.watch"
    W.set("1", "timeout")
    local ok, err = pcall(um.model, c_spec("guard_hang", "for (volatile int i = 0; ; i++) (void)q; a[0] = 0;"), { k = 1 }, "c")
    W.clear()
    assert.is_false(ok)
    assert.are.equal("usermodel 'guard_hang': accel (C function 'f') did not return within 1 s in a trial call " ..
                     "(t = 0, inputs all 0) in a child process (the limit on one call of the model's code: timeout=1)", err)
  end)

  it("a model behaving at q = 1 runs to the end (the guards cost no result)", function()
    local m = um.model(c_spec("guard_fine", "a[0] = -q[0];"), { k = 1 }, "c")
    local y = kz.run(m.sys, "rk4", 0, 1e-3, 1000, { 1, 0 })
    assert.is_near(math.cos(1), y[1], 1e-10)
  end)

  it("an output left unset during a run, in C or in Lua, and os.exit inside a Lua function: one line", function()
    local mc = um.model(c_spec("guard_half", "if (q[0] < 0.9) a[0] = -q[0];"), { k = 1 }, "c")
    local ok, err = pcall(kz.run, mc.sys, "rk4", 0, 0.01, 10, { 1, 0 })
    assert.is_false(ok)
    assert.are.equal("kz_run: usermodel 'guard_half': accel (C function 'f') left a[0] unset (at t = 0)", err)
    -- the phase form reports the phase; the next call is not blamed for the old record
    local mv = um.model({ name = "guard_vib", nq = 2, params = { "omega" }, c = { accel = "f", source =
      "static int f(const kz_par *p, double th, const double *q, double *a)\n{ (void)p; a[0] = q[0] * cos(th); " ..
      "if (q[1] < 0.9) a[1] = 0; return KZ_OK; }" } }, { omega = 10 }, "c")
    local ok2, err2 = pcall(kz.trajectory, mv.sys, "rk4", 0, 0.01, 1, 2, { 0, 1, 0, 0 })
    assert.is_false(ok2)
    assert.truthy(err2:find("usermodel 'guard_vib': accel (C function 'f') left a[1] unset (at t = 0)", 1, true), err2)
    local ok3, err3 = pcall(kz.run, mc.sys, "rk4", 0 / 0, 0.01, 1, { 0.5, 0 })
    assert.is_false(ok3)
    assert.truthy(err3:find("kz_run: a number is NaN or infinite", 1, true), err3)
    -- Lua functions: the same check; the averaged form (p, q, a) too
    local ml = um.model({ name = "guard_lua", nq = 1, params = { "k" }, lua = {
      accel = function(_, _, q, a) if q[0] < 0.9 then a[0] = -q[0] end end,
      averaged = function(_, q, a) if q[0] > 0.9 then os.exit(0) end a[0] = -q[0] end } }, { k = 1 }, "lua")
    local ok4, err4 = pcall(kz.run, ml.sys, "rk4", 0, 0.01, 10, { 1, 0 })
    assert.is_false(ok4)
    assert.are.equal("kz_run: usermodel 'guard_lua': accel left a[0] unset (at t = 0)", err4)
    assert.is_near(-0.5, ml.averaged_force(0.5), 0)
    local ok5, err5 = pcall(ml.averaged_force, 1)
    assert.is_false(ok5)
    assert.truthy(err5:find("usermodel 'guard_lua': averaged called os.exit(0)", 1, true), err5)
  end)
end)

describe("a model's guards on several threads at once", function()
  -- The guards' record of the function running (kz_watch) is one per model, its calls on every
  -- thread of a pool: when every call has returned it shows none, whatever the interleaving. Before,
  -- each call restored the value it had read from the record on entry (another thread's part), and a
  -- fork(2) after a threaded run (a trial child) was taken for a fork inside the model: the
  -- process ended with "... called fork()" (the #asan pass of make check, at random).
  it("after threaded runs of the top's slow HMM and an ensemble, a fork of the process is allowed", function()
    local dir = U.tmpdir()
    local script = dir .. "/threads.lua"
    write(script, [[
local ffi = require "ffi"
pcall(ffi.cdef, "int fork(void); int waitpid(int, int *, int); void _exit(int);")
local models, ens = require "kapitza.models", require "kapitza.ensemble"
local st = ffi.new("int[1]")
local top = models.top {}
local x0s = {}
for m = 1, 8 do x0s[m] = top.x0(1e3, 1e-3 * m, 0.2 + 0.01 * m) end
for rep = 1, 20 do
  ens.slow(top, { set = "32", H = 0.01 / 40, T = 0.01 / 8, eta = 1e-4, h = 1e-5, x0 = x0s, threads = 3 })
  local pid = ffi.C.fork() -- fork(2) itself (popen spawns without running the fork handlers)
  if pid == 0 then ffi.C._exit(0) end
  assert(pid > 0 and ffi.C.waitpid(pid, st, 0) == pid and st[0] == 0, "fork after run " .. rep)
end
io.write("done\n")
]])
    local st, out, err = U.run(string.format("cd '%s' && LUA_PATH='%s/lib/lua/?.lua;;' luajit '%s'", U.root, U.root, script))
    U.rmdir(dir)
    assert.are.equal(0, st, err)
    assert.are.equal("done\n", out, err)
  end)
end)

describe("the model parts' functions are guarded too (flows, constraints, slow sets, vmi, invariants)", function()
  -- A model q'' = 0 with one part whose C functions are the given source.
  local function part_spec(name, extra, source)
    local s = { name = name, nq = 2, params = { "omega" }, values = { omega = 10 }, q0 = { 0.8, 0.6 }, v0 = { -0.6, 0.8 },
                c = { accel = "acc", source = "#include <stdlib.h>\nstatic int acc(const kz_par *p, double t, const double *q, double *a)\n" ..
                      "{ (void)p; (void)t; (void)q; a[0] = 0; a[1] = 0; return KZ_OK; }\n" .. source } }
    for k, v in pairs(extra) do
      if k == "c" then for kk, vv in pairs(v) do s.c[kk] = vv end else s[k] = v end
    end
    return s
  end
  local function fails(pattern, f, ...)
    local ok, err = pcall(f, ...)
    assert.is_false(ok, "expected: " .. pattern)
    assert.truthy(tostring(err):find(pattern, 1, true), tostring(err))
    assert.is_nil(tostring(err):find("\n"), err)
    return err
  end

  it("C: at the trial calls (an output left unset, a crash, an exit()) and during a run (unset), one line naming the function", function()
    local trial = "in a trial call (inputs all 0) in a child process"
    fails("usermodel 'gp_con_unset': constraints.g (C function 'ring') left g[0] unset " .. trial, um.model,
          part_spec("gp_con_unset", { constraints = { m = 1, mass = 1 }, c = { constraints = { g = "ring" } } },
                    "static int ring(const kz_par *p, const double *q, double *g) { (void)p; (void)q; (void)g; return KZ_OK; }"))
    fails("usermodel 'gp_slow_segv': slow.s.xi (C function 'xi') crashed with signal 11 (Segmentation fault) in a trial call " ..
          "(theta = 0, inputs all 0) in a child process", um.model,
          part_spec("gp_slow_segv", { slow = { s = { r = 1 } }, c = { slow = { s = { xi = "xi" } } } },
                    "static int xi(const kz_par *p, double th, const double *x, double *o)\n" ..
                    "{ volatile double *z = 0; (void)p; (void)th; (void)x; o[0] = *z; return KZ_OK; }"))
    fails("usermodel 'gp_flow_exit': flows.a (C function 'fa') called exit() in a trial call (t = 0, inputs all 0) in a child process",
          um.model, part_spec("gp_flow_exit", { c = { flows = { a = "fa", b = "fb" } } },
                              "static int fa(const kz_par *p, double t, double h, double *y) { (void)p; (void)t; (void)h; (void)y; exit(0); }\n" ..
                              "static int fb(const kz_par *p, double t, double h, double *y) { (void)p; (void)t; (void)h; (void)y; return KZ_OK; }"))
    -- the trial points have inputs 0, 0.5, -0.25: an output left unset only for x > 0.7 is caught in the run
    local m = um.model(part_spec("gp_run", { constraints = { m = 1, mass = 1 }, c = {
        constraints = { g = "ring", jacobian = "ring_G" }, invariants = { r = "radius" } } }, [[
static int ring(const kz_par *p, const double *q, double *g) { (void)p; g[0] = q[0] * q[0] + q[1] * q[1] - 1; return KZ_OK; }
static int ring_G(const kz_par *p, const double *q, double *G) { (void)p; G[0] = 2 * q[0]; if (q[1] < 0.7) G[1] = 2 * q[1]; return KZ_OK; }
static int radius(const kz_par *p, const double *y, double *r) { (void)p; if (y[0] < 0.7) *r = sqrt(y[0] * y[0] + y[1] * y[1]); return KZ_OK; }
]]), nil, "c")
    fails("kz_run: usermodel 'gp_run': constraints.jacobian (C function 'ring_G') left G[1] unset", kz.run, m.sys, "rattle", 0, 0.01, 30,
          { 0.8, 0.6, -0.6, 0.8 })
    fails("usermodel 'gp_run': invariants.r (C function 'radius') left value[0] unset", m.invariants, { 0.8, 0.6, 0, 0 })
    assert.is_near(math.sqrt(0.6 ^ 2 + 0.65 ^ 2), m.invariants({ 0.6, 0.65, 0, 0 }).r, 1e-15)
  end)

  it("Lua: an output left unset and os.exit inside a part function: one line naming it", function()
    local f = dofile(U.root .. "/tests/models/fpu2.lua")
    f.lua.vmi.V_gradient = function(p, qs, qf, gs, gf) -- right at the initial state qs1 = 1; gf[1] left unset once qs1 > 1.005
      local d = { qs[0] - qf[0], qs[1] - qf[1] - qs[0] - qf[0], qs[1] + qf[1] }
      local c = { d[1] ^ 3, d[2] ^ 3, d[3] ^ 3 }
      gs[0], gs[1], gf[0] = c[1] - c[2], c[2] + c[3], -c[1] - c[2]
      if qs[0] <= 1.005 then gf[1] = -c[2] + c[3] end
    end
    local m = um.model(f, nil, "lua")
    fails("kz_vmi_run: usermodel 'fpu2': vmi.V_gradient left gf[1] unset", vmi.run, m, "MM", { p = 2, dT = 0.01, N = 2 })
    f.lua.vmi.V_gradient = function(p, qs, qf, gs, gf) gs[0], gs[1], gf[0] = 0, 0, 0 end -- at the initial state already
    fails("usermodel 'fpu2': vmi.V_gradient failed at the initial state: usermodel 'fpu2': vmi.V_gradient left gf[1] unset",
          um.model, f, nil, "lua")
    local o = dofile(U.root .. "/tests/models/osc2.lua")
    local a = o.lua.flows.a
    o.lua.flows.a = function(p, t, h, y) if y[0] > 0.99 then os.exit(3) end return a(p, t, h, y) end
    local mo = um.model(o, nil, "lua")
    fails("kz_run: usermodel 'osc2': flows.a called os.exit(3)", kz.run, mo.sys, "strang", 0, 0.1, 3, mo.y0)
    local d = dofile(U.root .. "/tests/models/dpend2.lua")
    d.lua.constraints.g = function(p, q, g) g[0] = q[0] * q[0] + q[1] * q[1] - p.l1 * p.l1 end -- g[1] left unset
    fails("usermodel 'dpend2': the constraints' Jacobian failed at the initial state: usermodel 'dpend2': constraints.g left g[1] unset",
          um.model, d, nil, "lua")
  end)
end)

describe("the compile cache trusts nobody", function()
  local dir
  before_each(function() dir = U.tmpdir() end)
  after_each(function() U.rmdir(dir) end)

  local function run_make(env, s)
    local st, out, err = U.run(env .. " luajit " .. s)
    assert.are.equal(0, st, err)
    return out
  end

  it("a cache directory that is a planted link, another user's or writable by others: refused in one line", function()
    os.execute(string.format("mkdir -p '%s/victim' '%s/open' && ln -s '%s/victim' '%s/link' && chmod 777 '%s/open'",
                             dir, dir, dir, dir, dir))
    local s = make_script(dir, c_spec("trust_dir", "a[0] = -q[0];"))
    local out = run_make(string.format("KZ_CACHE='%s/link'", dir), s)
    assert.are.equal(string.format("err\tusermodel 'trust_dir': the cache directory KZ_CACHE=%s/link is a symbolic link " ..
                                   "(not followed): refused\n", dir), out)
    out = run_make(string.format("KZ_CACHE='%s/open'", dir), s)
    assert.truthy(out:find("KZ_CACHE=" .. dir .. "/open is writable by others (mode 0777): refused\n", 1, true), out)
    -- below a directory others may write to (and not sticky): refused, nothing created in it
    out = run_make(string.format("KZ_CACHE='%s/open/sub/cache'", dir), s)
    assert.truthy(out:find("its parent " .. dir .. "/open is writable by others (mode 0777): refused\n", 1, true), out)
    assert.are.equal(0, #U.files(dir .. "/victim"))
    assert.are.equal(0, #U.files(dir .. "/open"))
    if not root_user then return end
    os.execute(string.format("mkdir -p '%s/theirs' && chown 65534 '%s/theirs'", dir, dir))
    out = run_make(string.format("KZ_CACHE='%s/theirs'", dir), s)
    assert.are.equal(string.format("err\tusermodel 'trust_dir': the cache directory KZ_CACHE=%s/theirs is owned by uid 65534, " ..
                                   "not by you (uid 0): refused\n", dir), out)
    assert.are.equal(0, #U.files(dir .. "/theirs"))
  end)

  it("planted links in the default places are not followed: the next place is used", function()
    -- $XDG_CACHE_HOME/kapitza, ~/.cache/kapitza and the tree's build/cache all link to a victim
    os.execute(string.format("mkdir -p '%s/victim' '%s/xdg' '%s/home/.cache' '%s/tree/build' && ln -s '%s/lib' '%s/tree/lib'" ..
                             " && ln -s '%s/victim' '%s/xdg/kapitza' && ln -s '%s/victim' '%s/home/.cache/kapitza'" ..
                             " && ln -s '%s/victim' '%s/tree/build/cache'", dir, dir, dir, dir, U.root, dir, dir, dir, dir, dir, dir, dir))
    local name = "trust_fallback_" .. dir:match("[%w]+$")
    local s = make_script(dir, c_spec(name, "a[0] = -q[0];"), dir .. "/tree/lib")
    local out = run_make(string.format("env -u KZ_CACHE XDG_CACHE_HOME='%s/xdg' HOME='%s/home'", dir, dir), s)
    local tmpdir = "/tmp/kapitza-cache-" .. ffi.C.getuid()
    assert.truthy(out:find("^ok\t1\t0\t" .. tmpdir:gsub("%p", "%%%0") .. "/" .. name .. "%-%x+%.so\n$"), out)
    assert.are.equal(0, #U.files(dir .. "/victim"))
    os.execute(string.format("rm -f '%s/%s'-*", tmpdir, name))
  end)

  it("an object owned by another user, or writable by others, is never loaded: it is compiled again", function()
    local s = make_script(dir, c_spec("trust_so", "a[0] = -q[0];"))
    local env = string.format("KZ_CACHE='%s/cache'", dir)
    local so = run_make(env, s):match("^ok\t1\t0\t(%S+)\n$")
    assert.truthy(so)
    -- an object whose constructor leaves a mark, in its place
    write(dir .. "/evil.c", string.format('#include <stdio.h>\n__attribute__((constructor)) static void evil(void)\n' ..
                                          '{ FILE *f = fopen("%s/MARK", "w"); if (f) fclose(f); }\n', dir))
    local modes = { { "chmod 666", true } }
    if root_user then modes[#modes + 1] = { "chown 65534", true } end
    for _, m in ipairs(modes) do
      assert.are.equal(0, (U.run(string.format("cc -shared -fPIC -o '%s' '%s/evil.c' && %s '%s'", so, dir, m[1], so))))
      local out = run_make(env, s)
      assert.are.equal(string.format("ok\t1\t0\t%s\n", so), out, m[1])
      assert.is_nil(read(dir .. "/MARK"), m[1])
      local _, owner = U.run("stat -c '%u %a' '" .. so .. "'")
      assert.are.equal(ffi.C.getuid() .. " 700\n", owner, m[1])
    end
    assert.are.same({}, tmps(dir .. "/cache"))
  end)

  it("files are created exclusively, never through a link (lib/core/kz_fs.c)", function()
    write(dir .. "/victim", "victim")
    os.execute(string.format("ln -s '%s/victim' '%s/link' && ln -s '%s/nothing' '%s/dangling'", dir, dir, dir, dir))
    local err = ffi.new("int[1]")
    for _, l in ipairs { "link", "dangling" } do
      assert.are.equal(kz.C.KZ_EDOMAIN, kz.C.kz_fs_create(dir .. "/" .. l, "generated", 9, err))
      assert.are.equal(17, err[0]) -- EEXIST
    end
    assert.are.equal("victim", read(dir .. "/victim"))
    assert.is_nil(read(dir .. "/nothing"))
    local st = ffi.new("kz_fs_info")
    assert.are.equal(0, kz.C.kz_fs_stat(dir .. "/link", 0, st, err))
    assert.are.equal(kz.C.KZ_FS_LINK, st.kind)
    assert.are.equal(0, kz.C.kz_fs_create(dir .. "/new", "abc", 3, err))
    assert.are.equal(0, kz.C.kz_fs_stat(dir .. "/new", 0, st, err))
    assert.are.same({ kz.C.KZ_FS_FILE, 384, 3 }, { st.kind, st.mode, tonumber(st.size) })
    assert.are.equal(kz.C.KZ_ENULL, kz.C.kz_fs_create(nil, "abc", 3, err))
  end)

  it("a compile killed midway leaves no temporary file once the next compile has run", function()
    write(dir .. "/slowcc", "#!/bin/sh\nsleep 30\nexec cc \"$@\"\n")
    os.execute("chmod 755 '" .. dir .. "/slowcc'")
    local s = make_script(dir, c_spec("trust_killed", "a[0] = -q[0];"))
    local st, _, err = U.run(string.format(
      "(setsid -w sh -c 'echo $$ > %s/pid; exec env KZ_CACHE=%s/cache CC=%s/slowcc luajit %s' >/dev/null 2>&1 &" ..
      " i=0; while [ $i -lt 100 ] && ! ls %s/cache | grep -q 'tmp$'; do sleep 0.05; i=$((i+1)); done;" ..
      " ls %s/cache > %s/during; kill -9 -$(cat %s/pid); wait)", dir, dir, dir, s, dir, dir, dir, dir))
    assert.are.equal(0, st, err)
    assert.truthy(read(dir .. "/during"):find("%.tmp\n"), read(dir .. "/during")) -- the kill did leave some
    local out = run_make(string.format("KZ_CACHE='%s/cache'", dir), s)
    assert.truthy(out:find("^ok\t1\t0\t"), out)
    assert.are.same({}, tmps(dir .. "/cache"))
  end)

  it("CC and KZ_CFLAGS are words, never shell code", function()
    local s = make_script(dir, c_spec("trust_words", "a[0] = -q[0];"))
    local out = run_make(string.format("KZ_CACHE='%s/cache' CC='cc;touch %s/INJECTED'", dir, dir), s)
    assert.are.equal(string.format("err\tusermodel 'trust_words': C compiler 'cc;touch %s/INJECTED' not found (set CC)\n", dir), out)
    out = run_make(string.format("KZ_CACHE='%s/cache' KZ_CFLAGS='-O2 $(touch %s/INJECTED) `touch %s/INJECTED`'", dir, dir, dir), s)
    assert.truthy(out:find("^err\tusermodel 'trust_words': the C source does not compile: "), out)
    assert.is_nil(read(dir .. "/INJECTED"))
    assert.are.same({}, tmps(dir .. "/cache"))
  end)
end)
