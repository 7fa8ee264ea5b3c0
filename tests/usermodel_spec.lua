-- A user's model (lib/lua/kapitza/usermodel.lua), both ways: Calvo & Sanz-Serna's pendulum written as C source
-- and as Lua functions (tests/usermodel_pendulum.lua) against the built-in model -- trajectories
-- by registry steppers, HMM runs and force estimates, SAM, the averaged system -- the first-order
-- and the plain (not fast-forced) forms, the compile cache (key, reuse, concurrent first use), and
-- the error paths: a C source that does not compile, a Lua error inside a callback, a refused
-- status, a bad spec; and the example scenario's command line.
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local U = require "testutil"
local S = require "kapitza.scenario"

local spec = dofile(U.root .. "/tests/usermodel_pendulum.lua")
local values = { l = 0.2, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0.3 }
local period = 2 * math.pi / values.omega

local function cdata_rows(buf, n) local t = {} for i = 0, n - 1 do t[i + 1] = buf[i] end return t end
local function maxdiff(a, b)
  assert.are.equal(#a, #b)
  local d = 0
  for i = 1, #a do d = math.max(d, math.abs(a[i] - b[i])) end
  return d
end

-- A Lua script run by luajit in a subprocess (for what needs its own environment or process).
local function script(dir, name, text)
  local path = dir .. "/" .. name
  local f = assert(io.open(path, "wb"))
  f:write("package.path = " .. string.format("%q", U.root .. "/lib/lua/?.lua;") .. " .. package.path\n", text)
  f:close()
  return path
end

describe("a user model, both ways #asan", function()
  local mb = models.pendulum(values)
  local mc, ml = um.model(spec, values, "c"), um.model(spec, values, "lua")

  it("has the shape of lib/lua/kapitza/models.lua", function()
    for _, m in ipairs { mc, ml } do
      assert.are.equal(2, m.dim)
      assert.are.equal(1, m.nq)
      assert.are.equal("cs_pendulum", m.name)
      assert.are.equal(values.omega, m.vib.omega)
      assert.are.equal(0.3, m.vib.theta0)
      assert.are.equal(1, m.vib.even_in_theta)
      assert.is_true(m.sys ~= nil and m.avg ~= nil and m.vib.reconstruct ~= nil)
      assert.are.equal(0.2, m.par.l)
    end
    assert.are.equal("c", mc.how)
    assert.are.equal("lua", ml.how)
  end)

  it("integrates like the built-in model with every stepper that fits (C: bit-identical; Lua: to round-off)", function()
    for _, st in ipairs { "euler", "symeuler", "verlet", "leapfrog", "rk4", "dp5" } do
      for _, sys in ipairs { "sys", "avg" } do
        local ob, cb = kz.trajectory(mb[sys], st, 0, period / 37, 50, 20, { 0.5, 0.1 })
        local oc, cc = kz.trajectory(mc[sys], st, 0, period / 37, 50, 20, { 0.5, 0.1 })
        local ol, cl = kz.trajectory(ml[sys], st, 0, period / 37, 50, 20, { 0.5, 0.1 })
        local b, c, l = cdata_rows(ob, 42), cdata_rows(oc, 42), cdata_rows(ol, 42)
        assert.are.same(b, c, st .. " " .. sys)
        assert.is_true(maxdiff(b, l) <= 1e-13 * 50, st .. " " .. sys)
        assert.are.same(cb, cc)
        assert.are.same(cb, cl)
      end
    end
  end)

  it("runs the HMM like the built-in model: Algorithm 1 (the model's lift) and 2, force estimates", function()
    for _, o in ipairs {
      { preset = "cs1", kernel = "exponential", H = 0.02, T = 0.4, eta = 10 * period, h = period / 40, Q0 = 0.5, P0 = 0.2 },
      { preset = "cs2", kernel = "uniform", H = 0.02, T = 0.4, eta = period, h = period / 64, Q0 = 0.5, P0 = 0 },
      { preset = "ste", kernel = "exponential", H = 0.02, T = 0.4, eta = 10 * period, h = period / 40, Q0 = 0.5, P0 = 0.2 } } do
      local Qb, Pb, wb = hmm.run(mb, o)
      local Qc, Pc, wc = hmm.run(mc, o)
      local Ql, Pl, wl = hmm.run(ml, o)
      assert.are.same(Qb, Qc)
      assert.are.same(Pb, Pc)
      assert.is_true(maxdiff(Qb, Ql) <= 1e-12 and maxdiff(Pb, Pl) <= 1e-11, o.preset)
      assert.are.same(wb, wc)
      assert.are.same(wb, wl)
      local Fb, Fvb = hmm.force(mb, o, 0.123, { 0.7, -0.4 })
      local Fc, Fvc = hmm.force(mc, o, 0.123, { 0.7, -0.4 })
      local Fl = hmm.force(ml, o, 0.123, { 0.7, -0.4 })
      assert.are.same(Fb, Fc)
      assert.are.same(Fvb, Fvc)
      assert.is_near(Fb[1], Fl[1], 1e-12 * math.abs(Fb[1]))
    end
  end)

  it("runs SAM like the built-in model, and the averaged force is (2.6)", function()
    local o = { n = 32, period = period, H = 8 * period, y0 = { 0.5, 0 }, tout = { 64 * period }, macro = "rk4" }
    local yb, cb = sam.sam(sam.micro(mb, "rk4"), o)
    local yc, cc = sam.sam(sam.micro(mc, "rk4"), o)
    local yl, cl = sam.sam(sam.micro(ml, "rk4"), o)
    assert.are.same(yb, yc)
    assert.is_true(maxdiff(yb[1], yl[1]) <= 1e-12)
    assert.are.same(cb, cc)
    assert.are.same(cb, cl)
    for _, Q in ipairs { -1, 0.3, 2 } do
      assert.are.equal(mb.averaged_force(Q), mc.averaged_force(Q))
      assert.is_near(mb.averaged_force(Q), ml.averaged_force(Q), 1e-13 * math.abs(mb.averaged_force(Q)))
    end
  end)

  it("first-order form (dim, rhs) and a plain system without a fast phase", function()
    local first = {
      name = "cs_pendulum_rhs", dim = 2, params = { "l", "g", "vmax", "omega", "theta0" },
      lua = { rhs = function(p, theta, y, f)
        f[0] = y[1]
        f[1] = (p.g + p.vmax * p.omega * math.cos(theta)) * math.sin(y[0]) / p.l
      end },
      c = { rhs = "f", source = [[
static int f(const kz_par *p, double theta, const double *y, double *dy)
{
  dy[0] = y[1];
  dy[1] = (p->g + p->vmax * p->omega * cos(theta)) * sin(y[0]) / p->l;
  return KZ_OK;
} ]] } }
    local ref = cdata_rows(kz.trajectory(mb.sys, "rk4", 0, period / 50, 10, 10, { 0.5, 0 }), 22)
    for _, how in ipairs { "c", "lua" } do
      local m = um.model(first, values, how)
      assert.are.equal(0, m.nq)
      assert.is_true(m.vib.rhs ~= nil and m.vib.accel == nil and m.sys.rhs ~= nil)
      assert.are.same(ref, cdata_rows(kz.trajectory(m.sys, "rk4", 0, period / 50, 10, 10, { 0.5, 0 }), 22))
    end
    local osc = { name = "oscillator", nq = 1, params = { "k" },
                  lua = { accel = function(p, t, q, a) a[0] = -p.k * q[0] end },
                  c = { accel = "f", source = "static int f(const kz_par *p, double t, const double *q, double *a)\n" ..
                                             "{ (void)t; a[0] = -p->k * q[0]; return KZ_OK; }" } }
    for _, how in ipairs { "c", "lua" } do
      local m = um.model(osc, { k = 4 }, how)
      assert.is_nil(m.vib)
      local y = kz.run(m.sys, "rk4", 0, 1e-3, 1000, { 1, 0 })
      assert.is_near(math.cos(2), y[1], 1e-10)
      assert.is_near(-2 * math.sin(2), y[2], 1e-10)
    end
  end)

  it("a Lua error inside a callback comes back as a one-line message, through every binding", function()
    local bad = { name = "broken", nq = 1, params = { "omega" },
                  lua = { accel = function(p, theta, q, a) a[0] = q[0] + p.no_such_field end } }
    local m = um.model(bad, { omega = 10 })
    local calls = {
      { "kz_trajectory", function() return kz.trajectory(m.sys, "rk4", 0, 0.1, 1, 3, { 1, 0 }) end },
      { "kz_hmm_run", function() return hmm.run(m, { preset = "cs2", half_window = false, kernel = "uniform", H = 0.1, T = 1,
                                                     eta = 2 * math.pi / 10, h = 2 * math.pi / 100, Q0 = 0.5 }) end },
      { "kz_sam_run", function() return sam.sam(sam.micro(m, "rk4"), { n = 8, period = 2 * math.pi / 10, H = 0.1,
                                                                       y0 = { 1, 0 }, tout = { 0.1 } }) end } }
    for _, c in ipairs(calls) do
      local ok, err = pcall(c[2])
      assert.is_false(ok)
      assert.are.equal("string", type(err))
      assert.truthy(err:find("^" .. c[1] .. ": usermodel 'broken': accel raised an error: "), err)
      assert.truthy(err:find("no_such_field", 1, true), err)
      assert.is_nil(err:find("\n"), err)
      assert.is_nil(err:find("traceback", 1, true), err)
    end
    assert.is_nil(kz.callback_error)
    -- the process goes on: the next runs are unaffected
    assert.are.same(cdata_rows(kz.trajectory(mb.sys, "rk4", 0, period, 1, 2, { 0.5, 0 }), 6),
                    cdata_rows(kz.trajectory(ml.sys, "rk4", 0, period, 1, 2, { 0.5, 0 }), 6))
  end)

  it("a status returned by a user function is reported with the model's name", function()
    local m = um.model({ name = "refuses", nq = 1, params = { "omega" },
                         lua = { accel = function(p, t, q, a) if q[0] > 2 then return kz.C.KZ_EDOMAIN end a[0] = 1 end } },
                       { omega = 1 })
    local ok, err = pcall(kz.run, m.sys, "euler", 0, 1, 5, { 0, 3 })
    assert.is_false(ok)
    assert.truthy(err:find("kz_run: usermodel 'refuses': accel returned status 3 (a parameter is outside its domain)", 1, true), err)
    local m2 = um.model({ name = "wrongtype", nq = 1, params = { "omega" },
                          lua = { accel = function() return "no" end } }, { omega = 1 })
    local ok2, err2 = pcall(kz.run, m2.sys, "euler", 0, 1, 1, { 0, 0 })
    assert.is_false(ok2)
    assert.truthy(err2:find("accel returned no (expected nothing or a kz status)", 1, true), err2)
  end)

  it("a C source that does not compile: a one-line message with the compiler's first error", function()
    local broken = { name = "typo", nq = 1, params = { "omega" }, c = { accel = "f", source =
      "static int f(const kz_par *p, double th, const double *q, double *a)\n{\n  a[0] = q[0] * p->omega\n  return KZ_OK;\n}\n" } }
    local ok, err = pcall(um.model, broken, { omega = 1 }, "c")
    assert.is_false(ok)
    assert.truthy(err:find("^usermodel 'typo': the C source does not compile: typo%.c:%d+:%d+: error: "), err)
    assert.is_nil(err:find("\n"), err)
  end)

  it("c.file: the C in a file beside the model file (from the file's folder), its errors counted in it", function()
    local dir = U.tmpdir()
    local sub = dir .. "/my models"
    assert.are.equal(0, U.run("mkdir '" .. sub .. "'"))
    local function put(name, text)
      local f = assert(io.open(sub .. "/" .. name, "wb"))
      f:write(text)
      f:close()
    end
    local good = "static int f(const kz_par *p, double t, const double *q, double *a)\n{\n  (void)t;\n  a[0] = -p->k * q[0];\n" ..
                 "  return KZ_OK;\n}\n"
    put("osc.c", good)
    put("osc.lua", 'return { name = "osc_file", nq = 1, params = { "k" }, values = { k = 4 }, q0 = { 1 }, T = 1, ' ..
                           'c = { accel = "f", file = "osc.c" } }')
    local MF = require "kapitza.modelfile"
    local mf = MF.load(sub .. "/osc.lua")
    local y = kz.run(mf.model.sys, "rk4", 0, 1e-3, 1000, { 1, 0 })
    assert.is_near(math.cos(2), y[1], 1e-10) -- q'' = -4 q
    put("osc.c", (good:gsub("q%[0%];", "q[0]")))
    local ok, err = pcall(MF.load, sub .. "/osc.lua")
    assert.is_false(ok)
    assert.truthy(err:find("the C source does not compile: " .. sub .. "/osc.c:%d+:%d+: error: "), err)
    for _, c in ipairs { { { accel = "f", file = "osc.c" }, "c.file 'osc.c' is relative to the model file's folder" },
                         { { accel = "f", file = sub .. "/none.c" }, "c.file: cannot read " .. sub .. "/none.c" },
                         { { accel = "f", file = sub .. "/osc.c", source = good }, "give c.source or c.file, not both" },
                         { { accel = "f", file = 3 }, "c.file must be the path of the C source file" } } do
      local ok2, err2 = pcall(um.model, { name = "osc_bad", nq = 1, params = { "k" }, c = c[1] }, { k = 1 }, "c")
      assert.is_false(ok2)
      assert.truthy(tostring(err2):find(c[2], 1, true), tostring(err2))
    end
    U.rmdir(dir)
  end)

  it("refuses bad specs and values with messages that name them", function()
    local cases = {
      { { name = "x y", nq = 1, params = { "a" }, lua = {} }, {}, "name must be letters" },
      { { name = "x", params = { "a" }, lua = {} }, {}, "give nq" },
      { { name = "x", nq = 1, params = { "int" }, lua = { accel = print } }, { int = 1 }, "parameter name 'int'" },
      { { name = "x", nq = 1, params = { "a" }, lua = {} }, { a = 1 }, "lua.accel is missing" },
      { { name = "x", nq = 1, params = { "a" }, lua = { rhs = print } }, { a = 1 }, "'rhs' belongs to the first-order (dim) form" },
      { { name = "x", nq = 1, params = { "a" }, lua = { accel = print, reconstruct = print } }, { a = 1 }, "reconstruct needs a fast-forced model" },
      { { name = "x", nq = 1, params = { "a" }, lua = { accel = print } }, { a = 0 / 0 }, "parameter 'a' must be a finite number" },
      { { name = "x", nq = 1, params = { "a" }, lua = { accel = print } }, { a = 1, b = 2 }, "unknown parameter 'b'" },
      { { name = "x", nq = 1, params = { "a" }, c = { accel = "f" } }, { a = 1 }, "c.source must be the C source text" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(um.model, c[1], c[2])
      assert.is_false(ok)
      assert.truthy(tostring(err):find(c[3], 1, true), tostring(err))
    end
  end)

  it("FNV-1a 64 hashes the published test vectors", function()
    assert.are.equal("cbf29ce484222325", um.hash(""))
    assert.are.equal("af63dc4c8601ec8c", um.hash("a"))
    assert.are.equal("85944171f73967e8", um.hash("foobar"))
  end)

  it("Lua models' registry entries go with their parameters (callbacks are created once)", function()
    collectgarbage()
    local before = um.live_models()
    for _ = 1, 200 do um.model(spec, values, "lua") end
    assert.is_true(um.live_models() >= before + 1)
    collectgarbage()
    collectgarbage()
    assert.is_true(um.live_models() <= before + 1, tostring(um.live_models()) .. " live after collection")
  end)
end)

describe("the compile cache", function()
  local dir

  before_each(function() dir = U.tmpdir() end)
  after_each(function() U.rmdir(dir) end)

  local probe = [[
local um = require "kapitza.usermodel"
local spec = dofile(%q)
local m = um.model(spec, { l = 0.2, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0 }, "c")
local m2 = um.model(spec, { l = 0.3, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0 }, "c")
assert(m2.lib_path == m.lib_path)
print(um.stats.compiles, um.stats.loads, m.lib_path, m.averaged_force(0.5))
]]

  it("compiles once, then loads the cached object (no recompilation, same file)", function()
    local s = script(dir, "probe.lua", string.format(probe, U.root .. "/tests/usermodel_pendulum.lua"))
    local env = string.format("KZ_CACHE='%s/cache'", dir)
    local st1, out1, err1 = U.run(env .. " luajit " .. s)
    assert.are.equal(0, st1, err1)
    local c1, l1, so1, f1 = out1:match("^(%d+)%s+(%d+)%s+(%S+)%s+(%S+)")
    assert.are.same({ "1", "0" }, { c1, l1 })
    assert.truthy(so1:find(dir .. "/cache/cs_pendulum-", 1, true))
    local _, stat1 = U.run("stat -c '%Y %i' " .. so1)
    local st2, out2, err2 = U.run(env .. " luajit " .. s)
    assert.are.equal(0, st2, err2)
    local c2, l2, so2, f2 = out2:match("^(%d+)%s+(%d+)%s+(%S+)%s+(%S+)")
    assert.are.same({ "0", "1", so1, f1 }, { c2, l2, so2, f2 })
    local _, stat2 = U.run("stat -c '%Y %i' " .. so1)
    assert.are.equal(stat1, stat2)
    -- another compiler flag is another object
    local st3, out3, err3 = U.run(env .. " KZ_CFLAGS='-O1' luajit " .. s)
    assert.are.equal(0, st3, err3)
    local c3, _, so3 = out3:match("^(%d+)%s+(%d+)%s+(%S+)")
    assert.are.equal("1", c3)
    assert.are_not.equal(so1, so3)
    -- nothing temporary is left behind
    for _, f in ipairs(U.files(dir .. "/cache")) do assert.is_nil(f:match("%.tmp$"), f) end
  end)

  it("two processes compiling the same source at once both succeed", function()
    local s = script(dir, "probe.lua", string.format(probe, U.root .. "/tests/usermodel_pendulum.lua"))
    local env = string.format("KZ_CACHE='%s/cache'", dir)
    local st, out, err = U.run(string.format("(%s luajit %s > %s/a.out 2>&1 & %s luajit %s > %s/b.out 2>&1; wait) && cat %s/a.out %s/b.out",
                                             env, s, dir, env, s, dir, dir, dir))
    assert.are.equal(0, st, err)
    local lines = {}
    for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
    assert.are.equal(2, #lines, out)
    assert.are.equal(lines[1]:match("%S+%s+%S+$"), lines[2]:match("%S+%s+%S+$"))
    local sos = 0
    for _, f in ipairs(U.files(dir .. "/cache")) do
      assert.is_nil(f:match("%.tmp$"), f)
      if f:match("%.so$") then sos = sos + 1 end
    end
    assert.are.equal(1, sos)
  end)

  it("no compiler: a one-line message naming it", function()
    local s = script(dir, "nocc.lua", string.format([[
local um = require "kapitza.usermodel"
local ok, err = pcall(um.model, dofile(%q), { l = 1, g = 1, vmax = 1, omega = 1, theta0 = 0 }, "c")
print(ok, err)
]], U.root .. "/tests/usermodel_pendulum.lua"))
    local st, out, err = U.run(string.format("KZ_CACHE='%s/cache' CC=/nonexistent/cc luajit %s", dir, s))
    assert.are.equal(0, st, err)
    assert.truthy(out:find("false\tusermodel 'cs_pendulum': C compiler '/nonexistent/cc' not found (set CC)", 1, true), out)
  end)

  it("a compiled trace never calls C code that calls back into Lua (no 'bad callback' abort)", function()
    -- a loop compiled while running the C model, then run with a Lua model created afterwards
    local s = script(dir, "jit.lua", string.format([[
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local spec = dofile(%q)
local v = { l = 0.2, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0 }
local y, r, T = kz.vec(2), kz.report(), kz.stepper("rk4")
local function loop(m, n) for _ = 1, n do y[0], y[1] = 0.1, 0; kz.call("kz_run", T, m.sys, 0, 1e-5, 10, y, r) end end
loop(um.model(spec, v, "c"), 2000)
loop(um.model(spec, v, "lua"), 50)
print("done", y[0])
]], U.root .. "/tests/usermodel_pendulum.lua"))
    local st, out, err = U.run(string.format("KZ_CACHE='%s/cache' luajit %s", dir, s))
    assert.are.equal(0, st, err)
    assert.truthy(out:find("^done"), out .. err)
  end)
end)

describe("the example scenario ex-hpendulum", function()
  it("a C source that does not compile, or a Lua error inside a callback: exit 2, one line, nothing written", function()
    local dir = U.tmpdir()
    local text = assert(io.open(U.root .. "/scenarios/ex-hpendulum.lua")):read("*a")
    local cases = {
      { text:gsub("return KZ_OK;", "return KZ_OK", 1), "does not compile: hpendulum%.c:%d+:%d+: error:" },
      { text:gsub("a%[0%] = %(p%.vmax %* p%.omega", "a[0] = (p.no_such * p.omega", 1), "usermodel 'hpendulum': accel raised an error: .*no_such" },
    }
    for i, c in ipairs(cases) do
      -- a copy of the scenario in a tree whose lib/ is the repository's
      local path = dir .. "/scenarios/ex-case" .. i .. ".lua"
      os.execute(string.format("mkdir -p '%s/scenarios' && ln -sfn '%s/lib' '%s/lib'", dir, U.root, dir))
      local f = assert(io.open(path, "wb"))
      f:write(c[1])
      f:close()
      local st, out, err = U.run(string.format("KZ_CACHE='%s/cache' KZ_QUIET=1 luajit %s --out %s/out T=0.1", dir, path, dir))
      assert.are.equal(2, st, err)
      assert.truthy(err:find("^ex%-hpendulum: ") and err:find(c[2]), err)
      assert.are.equal(1, select(2, err:gsub("\n", "")), err)
      assert.are.equal(0, #U.files(dir .. "/out"))
    end
    U.rmdir(dir)
  end)

  it("a run at new parameters writes its own data, claims and figure", function()
    local dir = U.tmpdir()
    local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/ex-hpendulum.lua --out %s omega=2e4 vmax=3 T=0.5", dir))
    assert.are.equal(0, st, err)
    local rows = S.read_table(dir .. "/tables/ex-hpendulum.tsv")
    local by = {}
    for _, r in ipairs(rows) do by[r.claim] = r end
    assert.are.equal("yes", by.same_numbers.holds)
    assert.truthy(by.tilted_equilibrium.published:find("1.120141", 1, true), by.tilted_equilibrium.published) -- acos(2gl/vmax^2)
    local files = U.files(dir)
    assert.truthy(table.concat(files, " "):find("figures/ex-hpendulum.svg", 1, true))
    U.rmdir(dir)
  end)
end)
