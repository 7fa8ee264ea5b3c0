-- The scenario command line (GUIDE Sec. 3) for every scenario: --help, unknown keys and bad
-- values are errors that name them, and a failed run writes nothing.
local U = require "testutil"
local S = require "scenario"

local scenarios = {}
for _, f in ipairs(U.files(U.root .. "/scenarios")) do
  if f:match("%.lua$") then scenarios[#scenarios + 1] = f:gsub("%.lua$", "") end
end

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
end)
