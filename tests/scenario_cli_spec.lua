-- The scenario command line (GUIDE Sec. 3) for every scenario: --help, unknown keys and bad
-- values are errors that name them, and a failed run writes nothing.
local U = require "testutil"
local S = require "kapitza.scenario"

local scenarios = U.scenarios() -- scenarios/*.lua, not scenarios/examples/

describe("scenario command line", function()
  it("finds the scenarios", function() assert.is_true(#scenarios >= 4) end)
  for _, id in ipairs(scenarios) do
    it(id .. ": --help lists every parameter; unknown keys and bad values fail and write nothing", function()
      local st, out = U.run("luajit scenarios/" .. id .. ".lua --help")
      assert.are.equal(0, st)
      assert.truthy(out:find("usage:", 1, true))
      assert.truthy(out:find("default:", 1, true))
      local dir = U.tmpdir()
      local st2, _, err2 = U.run(string.format("luajit scenarios/%s.lua --out %s no_such_key=1", id, dir))
      assert.are_not.equal(0, st2)
      assert.truthy(err2:find("unknown parameter 'no_such_key'", 1, true), err2)
      local st3, _, err3 = U.run(string.format("luajit scenarios/%s.lua --out %s --bogus", id, dir))
      assert.are_not.equal(0, st3)
      assert.truthy(err3:find("--bogus", 1, true), err3)
      assert.are.equal(0, #U.files(dir))
      U.rmdir(dir)
    end)
  end

  it("cs-table2.2 rejects an unparsable number, naming the key", function()
    local dir = U.tmpdir()
    local st, _, err = U.run("luajit scenarios/cs-table2.2.lua --out " .. dir .. " omega=1e4,abc")
    assert.are_not.equal(0, st)
    assert.truthy(err:find("parameter 'omega'", 1, true), err)
    assert.truthy(err:find("abc", 1, true), err)
    local st2, _, err2 = U.run("luajit scenarios/cs-table2.2.lua --out " .. dir .. " H=-0.1")
    assert.are_not.equal(0, st2)
    assert.truthy(err2:find("parameter 'H'", 1, true), err2)
    assert.are.equal(0, #U.files(dir))
    U.rmdir(dir)
  end)

  it("cs-table2.3 accepts 1e5 and 1/160 forms and writes atomically", function()
    local dir = U.tmpdir()
    local st, _, err = U.run("KZ_QUIET=1 luajit scenarios/cs-table2.3.lua --out " .. dir
                             .. " omega=1e5 H=1/10,1/20")
    assert.are.equal(0, st, err)
    local rows, cols = S.read_table(dir .. "/tables/cs-table2.3.tsv")
    assert.are.same({ "H", "omega", "microsteps", "error", "averaged_error" }, cols)
    assert.are.equal(2, #rows)
    assert.are.equal(1e5, rows[1].omega)
    assert.are.equal(0.05, rows[2].H)
    for _, f in ipairs(U.files(dir)) do assert.is_nil(f:match("%.tmp$")) end
    U.rmdir(dir)
  end)

  it("number parser: decimals, exponents, fractions, powers, pi; rejects code", function()
    assert.are.equal(1e5, S.number("1e5"))
    assert.are.equal(1 / 160, S.number("1/160"))
    assert.are.equal(2 ^ -10, S.number("2^-10"))
    assert.are.equal(math.pi / 4, S.number("pi/4"))
    assert.is_nil(S.number("os.exit(1)"))
    assert.is_nil(S.number("1/0"))
    assert.is_nil(S.number(""))
  end)

  it("every benchmark refuses an unknown argument in one line, exit 2, before any timing", function()
    for _, b in ipairs { "atlas", "dpend", "headline", "lua", "peers", "sam", "vmi", "vmi-timing" } do
      local st, _, err = U.run("luajit scripts/bench-" .. b .. ".lua --bogus")
      assert.are.equal(2, st, b)
      assert.are.equal("bench-" .. b .. ": unknown argument '--bogus' (or a missing value)\n", err)
    end
    -- what bench_args accepts is what the script says it accepts
    local st, _, err = U.run("luajit scripts/bench-sam.lua --quick")
    assert.are.equal(2, st)
    assert.matches("unknown argument '%-%-quick'", err)
  end)
end)

-- The parameter table of a scenario, read without running it (its parse raises the spec).
local function spec_of(id)
  local saved_parse, saved_arg = S.parse, arg
  S.parse = function(self) error({ spec = self }, 0) end
  arg = { [0] = U.root .. "/scenarios/" .. id .. ".lua" }
  local chunk = assert(loadfile(arg[0]))
  local ok, e = pcall(chunk)
  S.parse, arg = saved_parse, saved_arg
  S.current = nil
  assert(not ok and type(e) == "table" and e.spec, id .. ": could not read its parameters: " .. tostring(e))
  return e.spec
end

-- Run with args into a fresh directory: the status, stderr, and the files left behind.
local function attempt(id, args)
  local dir = U.tmpdir() .. "/out"
  local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out '%s' %s", id, dir, args))
  local left = U.files(dir)
  U.rmdir(dir:match("^(.*)/out$"))
  return st, err, left
end

describe("bad input never reaches a traceback", function()
  for _, id in ipairs(scenarios) do
    it(id .. ": every class of bad value is one line naming the key, exit status 2, nothing written", function()
      local spec = spec_of(id)
      local tried, bad = {}, {}
      local function try(key, value, what)
        local st, err, left = attempt(id, string.format("'%s=%s'", key, value))
        tried[#tried + 1] = what
        local lines = 0
        for _ in err:gmatch("[^\n]+") do lines = lines + 1 end
        if st ~= 2 or lines ~= 1 or not err:find("'" .. key .. "'", 1, true) or err:find("traceback", 1, true) or #left > 0 then
          bad[#bad + 1] = string.format("%s=%s (%s): status %d, %d files, stderr: %s", key, value, what, st, #left, err)
        end
      end
      local seen = {}
      for _, p in ipairs(spec.params) do
        local d = type(p[2]) == "table" and p[2][1] or p[2]
        local list = type(p[2]) == "table"
        if type(d) == "number" then
          if not seen.num then seen.num = true
            for _, v in ipairs { "nan", "inf", "-inf", "abc", "1e400", "2*", "os.exit(0)" } do try(p[1], v, "not a finite number") end
          end
          if p.max and not seen[p[1] .. "max"] and p.max < 1e300 then seen[p[1] .. "max"] = true; try(p[1], string.format("%.17g", p.max * 10 + 1), "above the range") end
          if p.min and p.min > -1e300 then try(p[1], string.format("%.17g", p.min >= 0 and (p.min > 0 and p.min / 10 or -1) or p.min * 10 - 1), "below the range") end
          if p.integer and not seen.int then seen.int = true; try(p[1], "2.5", "not a whole number") end
          if list and not seen.list then seen.list = true; try(p[1], tostring(d) .. ",," .. tostring(d), "an empty list item") end
        elseif type(d) == "string" and p.choices and not seen.choice then
          seen.choice = true
          try(p[1], "no-such-choice", "not one of the choices")
        end
      end
      -- an empty value and a key given twice
      local p1 = spec.params[1][1]
      local st, err = attempt(id, p1 .. "=")
      if st ~= 2 or not err:find("no value", 1, true) then bad[#bad + 1] = "empty value: " .. err end
      local d1 = spec.params[1][2]
      d1 = type(d1) == "table" and d1[1] or d1
      st, err = attempt(id, string.format("'%s=%s' '%s=%s'", p1, tostring(d1), p1, tostring(d1)))
      if st ~= 2 or not err:find("given twice", 1, true) then bad[#bad + 1] = "duplicated key: " .. err end
      assert.are.equal(0, #bad, table.concat(bad, "\n"))
      assert.is_true(#tried >= 3, "too few classes tried")
    end)
  end

  it("--out is checked before any computation: empty, or a place that cannot be written", function()
    for _, a in ipairs { "--out=", "--out /proc/kapitza-nope" } do
      local st, _, err = U.run("luajit scenarios/ste-constants.lua " .. a)
      assert.are.equal(2, st, err)
      assert.truthy(err:find("--out", 1, true), err)
    end
  end)

  it("an error raised in the C library during the run is one line, exit 2, and nothing is written", function()
    -- a script in the scenario form whose run hits a status of the library after parse
    local dir = U.tmpdir()
    local script = dir .. "/bad-run.lua"
    local f = assert(io.open(script, "w"))
    f:write(string.format([[
package.path = %q .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local kz = require "kapitza"
local sc = S.new { id = "bad-run", params = { { "h", 0.1, "s", "a step" } } }
local P = sc:parse(arg)
sc:write_text("data/bad-run.tsv", "x\n1\n")
kz.run(require("kapitza.models").vdp(0.1).sys, "rk4", 0, P.h, -3, { 1, 0 })
]], U.root, U.root))
    f:close()
    local st, _, err = U.run(string.format("luajit '%s' --out '%s/out'", script, dir))
    assert.are.equal(2, st, err)
    assert.truthy(err:match("^bad%-run: kz_run: .*parameter 'n'"), err)
    assert.are.equal(0, #U.files(dir .. "/out"))
    -- a Lua error is one line too (exit 1), with the traceback only under KZ_DEBUG
    f = assert(io.open(script, "w"))
    f:write(string.format([[
package.path = %q .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local sc = S.new { id = "bad-run", params = { { "h", 0.1, "s", "a step" } } }
local P = sc:parse(arg)
local t = nil
print(t.x)
]], U.root, U.root))
    f:close()
    st, _, err = U.run(string.format("luajit '%s' --out '%s/out'", script, dir))
    assert.are.equal(1, st, err)
    assert.truthy(err:find("attempt to index", 1, true) and not err:find("traceback", 1, true), err)
    st, _, err = U.run(string.format("KZ_DEBUG=1 luajit '%s' --out '%s/out'", script, dir))
    assert.truthy(err:find("traceback", 1, true), err)
    U.rmdir(dir)
  end)

  it("a run into a used directory replaces this scenario's files and leaves no stale ones", function()
    local dir = U.tmpdir()
    local st = U.run("KZ_QUIET=1 luajit scenarios/ste-force.lua --quick --out " .. dir)
    assert.are.equal(0, st)
    local stale, other = dir .. "/data/ste-force-old.tsv", dir .. "/data/ste-forces.tsv"
    for _, p in ipairs { stale, other } do local f = io.open(p, "w"); f:write("x\n"); f:close() end
    st = U.run("KZ_QUIET=1 luajit scenarios/ste-force.lua --quick --out " .. dir)
    assert.are.equal(0, st)
    assert.is_nil(io.open(stale), "stale file of the scenario removed")
    assert.truthy(io.open(other), "another scenario's file kept")
    for _, f in ipairs(U.files(dir)) do assert.is_nil(f:match("kz%-stage"), f) end
    U.rmdir(dir)
  end)

  it("runs from anywhere: another working directory, an absolute path, make -C", function()
    local dir = U.tmpdir()
    local cmds = {
      string.format("cd '%s/scenarios' && KZ_QUIET=1 luajit ste-constants.lua --quick --out '%s/a'", U.root, dir),
      string.format("cd / && KZ_QUIET=1 PWD=/nonexistent luajit '%s/scenarios/ste-constants.lua' --quick --out '%s/b'", U.root, dir),
    }
    for _, c in ipairs(cmds) do
      local ok = os.execute(c .. " >/dev/null 2>&1")
      assert.truthy(ok == 0 or ok == true, c)
    end
    assert.truthy(io.open(dir .. "/a/tables/ste-constants.md"))
    assert.truthy(io.open(dir .. "/b/figures/ste-constants.svg"))
    U.rmdir(dir)
  end)

  it("before the library is built, the message says to run make", function()
    local st, _, err = U.run("KZ_LIB=/nonexistent/libkapitza.so luajit scenarios/ste-constants.lua --quick --out /tmp/kz-nolib")
    assert.are_not.equal(0, st)
    assert.truthy(err:find("run make", 1, true), err)
    assert.is_nil(err:find("traceback", 1, true), err)
  end)
end)
