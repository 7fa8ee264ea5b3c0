-- Hostile input on the kapitza verbs (issue 25, item 3), driven through the real command line
-- (bin/kapitza, scenarios): each probe is handled as the README's contract says -- one line that
-- names the cause, exit status 2, nothing written or removed -- or is one of the documented
-- classes that cannot be caught. Each case failed (hung, crashed, wrote a misleading word or
-- nothing) on the code before.
local U = require "testutil"

local KZ = U.root .. "/bin/kapitza"
local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
local function kz(args, env) return U.run(string.format("%s%s %s", env and (env .. " ") or "", q(KZ), args)) end
local function lines(s)
  local t = {}
  for l in s:gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end
local function write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end
local function now()
  local p = io.popen("date +%s.%N")
  local t = tonumber(p:read("*l"))
  p:close()
  return t
end

-- A one-degree model whose C and Lua accel do `body` (C) / `lbody` (Lua); q0 = 0.1, T = 10.
local function model(dir, name, body, lbody, extra)
  local path = dir .. "/" .. name .. ".lua"
  write(path, string.format([[
return { name = %q, nq = 1, params = { "k" }, values = { k = 1 }, q0 = { 0.1 }, T = 10, %s
  lua = { accel = function(p, t, q, a) %s end },
  c = { accel = "f", source = [==[
static int f(const kz_par *p, double t, const double *q, double *a)
{
  (void)p; (void)t;
  %s
  return KZ_OK;
}
]==] } }
]], name, extra or "", lbody or "a[0] = -q[0]", body))
  return path
end

describe("hostile probes: model code that hangs, writes out of bounds or into its inputs", function()
  local tmp, cache
  setup(function()
    tmp = U.tmpdir()
    cache = tmp .. "/cache"
    os.execute("mkdir -m 700 " .. q(cache))
  end)
  teardown(function() U.rmdir(tmp) end)
  local function env() return "KZ_CACHE=" .. q(cache) end

  it("a C accel that loops forever mid-run (not at the trial points): solve stops at the limit, one line naming it", function()
    local m = model(tmp, "hangc", "volatile int k = 1; while (t > 3.3 && k) {} a[0] = -q[0];")
    local t0 = now()
    local st, out, err = kz("solve " .. q(m) .. " method=rk4 n=100 timeout=1", env())
    assert.is_true(now() - t0 < 30, "took " .. (now() - t0) .. " s")
    assert.are.equal(2, st, err)
    assert.are.equal("", out)
    assert.are.equal(1, #lines(err), err)
    assert.truthy(err:find("usermodel 'hangc': accel (C function 'f') did not return within 1 s (at t = 3.3", 1, true), err)
    assert.truthy(err:find("timeout=1", 1, true), err)
    -- the environment's limit, named
    st, out, err = kz("solve " .. q(m) .. " method=rk4 n=100", env() .. " KZ_MODEL_TIMEOUT=1")
    assert.are.equal(2, st, err)
    assert.truthy(err:find("did not return within 1 s", 1, true) and err:find("KZ_MODEL_TIMEOUT=1", 1, true), err)
  end)

  it("check --lua with a Lua accel that loops forever: stopped at the limit, one line", function()
    local m = model(tmp, "hangl", "a[0] = -q[0];", "if t > 3.3 then while true do end end a[0] = -q[0]")
    local t0 = now()
    local st, _, err = kz("check " .. q(m) .. " --lua T=100 timeout=1", env())
    assert.is_true(now() - t0 < 30, "took " .. (now() - t0) .. " s")
    assert.are.equal(2, st, err)
    assert.are.equal(1, #lines(err), err)
    assert.truthy(err:find("usermodel 'hangl': accel did not return within 1 s (at t = ", 1, true), err)
  end)

  it("a hang inside the atlas: stopped at the limit, its staging folder removed, --out left as it was", function()
    local m = model(tmp, "hanga", "volatile int k = 1; while (t > 3.3 && k) {} a[0] = -q[0];")
    local out = tmp .. "/atlas-out"
    os.execute("mkdir " .. q(out))
    local st, _, err = kz("atlas " .. q(m) .. " --out " .. q(out) .. " --quick timeout=1", env())
    assert.are.equal(2, st, err)
    assert.truthy(err:find("did not return within 1 s", 1, true), err)
    assert.are.same({}, U.files(out))
    local p = io.popen("ls -A " .. q(out))
    assert.are.equal("", p:read("*a"))
    p:close()
  end)

  it("timeout= and KZ_MODEL_TIMEOUT are read strictly", function()
    local m = model(tmp, "fine", "a[0] = -q[0];")
    for _, c in ipairs { { "check " .. q(m) .. " timeout=-1", "" }, { "check " .. q(m) .. " timeout=abc", "" },
                         { "check " .. q(m), "KZ_MODEL_TIMEOUT=soon" } } do
      local st, out, err = kz(c[1], env() .. (c[2] ~= "" and (" " .. c[2]) or ""))
      assert.are.equal(2, st, c[1] .. err)
      assert.are.equal("", out)
      assert.are.equal(1, #lines(err), err)
      assert.truthy(err:find("give the limit on one call of the model's code in seconds", 1, true), err)
    end
  end)

  it("writes one past an output, before it, and into a const input: named at the trial calls, not a crash or a timeout", function()
    local cases = {
      { "a[0] = -q[0]; a[1] = 0;", "wrote a[1], past the end of a (1 number)" },
      { "a[0] = -q[0]; a[-1] = 0;", "wrote a[-1], before the start of a (1 number)" },
      { "((double *)q)[0] = 5; a[0] = -q[0];", "changed its input q[0] (to 5; it is const)" },
    }
    for i, c in ipairs(cases) do
      local m = model(tmp, "oob" .. i, c[1])
      local t0 = now()
      local st, out, err = kz("check " .. q(m), env())
      assert.is_true(now() - t0 < 8, c[1])
      assert.are.equal(2, st, c[1] .. ": " .. err)
      assert.are.equal("", out)
      assert.are.equal(1, #lines(err), err)
      assert.truthy(err:find("usermodel 'oob" .. i .. "': accel (C function 'f') " .. c[2], 1, true), err)
    end
    -- a first-order field writing d[2] for dim 2, and a flow writing y[2]
    local path = tmp .. "/oobd.lua"
    write(path, [[
return { name = "oobd", dim = 2, params = { "k" }, values = { k = 1 }, y0 = { 0.1, 0 }, T = 1,
  c = { rhs = "f", flows = { a = "fa", b = "fb" }, source = [==[
static int f(const kz_par *p, double t, const double *y, double *d) { (void)p; (void)t; d[0] = y[1]; d[1] = -y[0]; d[2] = 0; return KZ_OK; }
static int fa(const kz_par *p, double t, double h, double *y) { (void)p; (void)t; y[0] += h * y[1]; return KZ_OK; }
static int fb(const kz_par *p, double t, double h, double *y) { (void)p; (void)t; y[1] -= h * y[0]; y[2] = 0; return KZ_OK; }
]==] } }
]])
    local st, _, err = kz("check " .. q(path), env())
    assert.are.equal(2, st, err)
    assert.truthy(err:find("rhs (C function 'f') wrote f[2], past the end of f (2 numbers)", 1, true), err)
    local src = io.open(path):read("*a"):gsub("d%[2%] = 0; ", "")
    write(path, src)
    st, _, err = kz("check " .. q(path), env())
    assert.are.equal(2, st, err)
    assert.truthy(err:find("flows.b (C function 'fb') wrote y[2], past the end of y (2 numbers)", 1, true), err)
  end)
end)

describe("hostile probes: the compile cache", function()
  local tmp
  setup(function() tmp = U.tmpdir() end)
  teardown(function() U.rmdir(tmp) end)

  local function cache_files(dir)
    local p = io.popen("ls -A " .. q(dir))
    local t = {}
    for l in p:lines() do t[#t + 1] = l end
    p:close()
    return t
  end

  it("an object that does not load (built with -fsanitize=address): one line, not kept in the cache, the process alive", function()
    local cache = tmp .. "/c1"
    os.execute("mkdir -m 700 " .. q(cache))
    local m = model(tmp, "asanobj", "a[0] = -q[0];")
    local st, _, err = kz("check " .. q(m), "KZ_CACHE=" .. q(cache) .. " KZ_CFLAGS=-fsanitize=address")
    assert.are.equal(2, st, err)
    assert.are.equal(1, #lines(err), err)
    assert.truthy(err:find("the compiled object does not load: ", 1, true) and err:find("not kept", 1, true), err)
    for _, f in ipairs(cache_files(cache)) do assert.is_nil(f:match("%.so$") or f:match("%.tmp$"), f) end
  end)

  it("a file size limit (ulimit -f) during the first compile: one line, no temporary left, no SIGXFSZ", function()
    for _, kb in ipairs { 8, 30 } do
      local cache = tmp .. "/f" .. kb
      os.execute("mkdir -m 700 " .. q(cache))
      local m = model(tmp, "bigfile", "a[0] = -q[0];")
      local st, _, err = U.run(string.format("ulimit -f %d; KZ_CACHE=%s %s check %s", kb, q(cache), q(KZ), q(m)))
      assert.are.equal(2, st, err)
      assert.are.equal(1, #lines(err), err)
      assert.truthy(err:find("File too large", 1, true), err)
      for _, f in ipairs(cache_files(cache)) do assert.is_nil(f:match("%.so$") or f:match("%.tmp$"), f) end
    end
  end)

  it("no process for the compiler (a failed fork) is not called 'compiler not found'", function()
    local cache = require "kapitza.usermodel.cache"
    local keep = io.popen
    io.popen = function() return nil, "Resource temporarily unavailable" end -- as popen fails when fork does
    local d = tmp .. "/c3"
    os.execute("mkdir -m 700 " .. q(d))
    local ok, err = pcall(cache.build, "forkless", { { ext = ".c", text = "int kzu_x(void) { return 0; }\n" } })
    io.popen = keep
    assert.is_false(ok)
    assert.is_nil(tostring(err):find("not found", 1, true), err)
    assert.truthy(tostring(err):find("cannot start the C compiler", 1, true), err)
  end)
end)
