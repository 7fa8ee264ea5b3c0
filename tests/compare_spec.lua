-- scripts/compare.lua (and lib/lua/kapitza/compare.lua, which tests/regression_spec.lua uses): every way two
-- output trees can differ is a difference, comparing nothing is an error, no shell is involved;
-- and the atlas data files say in words what their non-numbers mean, so that a nan is a real one.
local U = require "testutil"
local F = require "kapitza.files"
local Cmp = require "kapitza.compare"

-- Two trees under a fresh temporary directory: fresh/ and kept/, each { ["data/x.tsv"] = text }.
local function trees(fresh, kept)
  local base = U.tmpdir()
  for side, files in pairs { fresh = fresh, kept = kept } do
    assert(F.mkdir_p(base .. "/" .. side))
    for name, text in pairs(files) do assert(F.write_atomic(base .. "/" .. side .. "/" .. name, text)) end
  end
  return base
end

local function compare(base, extra)
  return U.run(string.format("luajit scripts/compare.lua '%s/fresh' '%s/kept' %s", base, base, extra or ""))
end

local H = "# a comment, not compared\nx\ty\n"

describe("compare.lua", function()
  it("equal trees: exit 0 and a summary counting files, rows and cells", function()
    local base = trees({ ["data/a.tsv"] = H .. "1\t2\n3\tnan\n", ["tables/a.md"] = "| x |\n" },
                       { ["data/a.tsv"] = "# another comment\nx\ty\n1\t2.0000000000000001\n3\tnan", ["tables/a.md"] = "| x |\n" })
    local st, out, err = compare(base)
    assert.are.equal(0, st, out .. err)
    assert.matches("compared 2 files %(2 rows, 4 cells, relative tolerance 1e%-12%): all agree", out)
    U.rmdir(base)
  end)

  local cases = {
    { "nan against a number", H .. "1\tnan\n", H .. "1\t2\n", "row 1 column y: .*nan.*2" },
    { "a number against nan", H .. "1\t2\n", H .. "1\tnan\n", "row 1 column y" },
    { "inf against a number", H .. "1\tinf\n", H .. "1\t1e308\n", "row 1 column y" },
    { "-inf against inf", H .. "1\t-inf\n", H .. "1\tinf\n", "row 1 column y" },
    { "a number beyond the tolerance", H .. "1\t1.000001\n", H .. "1\t1\n", "relative difference 1e%-06" },
    { "text", H .. "1\tok\n", H .. "1\tfailed\n", "row 1 column y" },
    { "a number against text", H .. "1\t0\n", H .. "1\t-\n", "row 1 column y" },
    { "a missing row", H .. "1\t2\n", H .. "1\t2\n3\t4\n", "1 rows in .*, 2 in" },
    { "an extra row (no final newline)", H .. "1\t2\n3\t4", H .. "1\t2\n", "2 rows in .*, 1 in" },
    { "an extra column", "x\ty\tz\n1\t2\t3\n", H .. "1\t2\n", "columns differ %(only in [^:]*: z%)" },
    { "columns in another order", "y\tx\n2\t1\n", H .. "1\t2\n", "another order" },
    { "a row with a missing cell", H .. "1\n", H .. "1\t2\n", "row 1 has 1 cells" },
    { "a row with an extra cell", H .. "1\t2\t3\n", H .. "1\t2\n", "row 1 has 3 cells" },
    { "an empty cell", H .. "1\t\n", H .. "1\t2\n", "row 1 column y: .*%(empty%)" },
  }
  for _, c in ipairs(cases) do
    it("a difference: " .. c[1], function()
      local base = trees({ ["data/a.tsv"] = c[2] }, { ["data/a.tsv"] = c[3] })
      local st, out = compare(base)
      assert.are.equal(1, st, out)
      assert.matches("DIFF data/a%.tsv", out)
      assert.matches(c[4], out)
      assert.matches("compared 1 file .*: 1 differ\n$", out)
      U.rmdir(base)
    end)
  end

  it("a file on one side only is a difference, in either direction; --only restricts both sides", function()
    local base = trees({ ["data/s.tsv"] = H, ["tables/s-new.md"] = "x" }, { ["data/s.tsv"] = H, ["data/s-old.tsv"] = H, ["data/t.tsv"] = H })
    local st, out = compare(base)
    assert.are.equal(1, st, out)
    assert.matches("DIFF data/s%-old%.tsv +1 difference\n +only in [^\n]*/kept\n", out)
    assert.matches("DIFF tables/s%-new%.md +1 difference\n +only in [^\n]*/fresh\n", out)
    assert.matches("compared 4 files .*: 3 differ", out)
    st, out = compare(base, "--only t")
    assert.are.equal(1, st, out)
    assert.matches("compared 1 file ", out)
    U.rmdir(base)
  end)

  it("a nonexistent directory, comparing nothing and bad arguments: one line, exit 2", function()
    local base = trees({}, {})
    for _, args in ipairs {
      { string.format("'%s/fresh' '%s/nosuch'", base, base), "nosuch: not a directory" },
      { string.format("'%s/nosuch' '%s/kept'", base, base), "nosuch: not a directory" },
      { string.format("'%s/fresh' '%s/kept'", base, base), "nothing to compare" },
      { "paper paper --only no-such-scenario", "nothing to compare" },
      { "paper paper 1e-3x", "rtol '1e%-3x'" },
      { "paper", "two directories" },
      { "paper paper --bogus", "unknown option '%-%-bogus'" },
    } do
      local st, out, err = U.run("luajit scripts/compare.lua " .. args[1])
      assert.are.equal(2, st, args[1])
      assert.are.equal("", out)
      assert.matches("^compare: [^\n]*" .. args[2] .. "[^\n]*\n$", err)
    end
    U.rmdir(base)
  end)

  it("no shell: directory names with quotes and semicolons are just names", function()
    local base = U.tmpdir()
    local a, b = base .. "/a'b;touch INJECTED;#", base .. "/$(touch INJECTED2)"
    assert(F.write_atomic(a .. "/data/x.tsv", H .. "1\t2\n"))
    assert(F.write_atomic(b .. "/data/x.tsv", H .. "1\t2\n"))
    local cmd = string.format("cd '%s' && luajit '%s/scripts/compare.lua' %s %s", base, U.root,
                              "'" .. a:gsub("'", "'\\''") .. "'", "'" .. b:gsub("'", "'\\''") .. "'")
    local st, out = U.run(cmd)
    assert.are.equal(0, st, out)
    assert.matches("compared 1 file ", out)
    assert.is_nil(io.open(base .. "/INJECTED"))
    assert.is_nil(io.open(base .. "/INJECTED2"))
    for _, f in ipairs { "scripts/compare.lua", "lib/lua/kapitza/compare.lua", "lib/lua/kapitza/files.lua" } do
      local src = F.read(U.root .. "/" .. f)
      assert.is_nil(src:find("popen", 1, true), f)
      assert.is_nil(src:find("os.execute", 1, true), f)
    end
    U.rmdir(base)
  end)

  it("cells: nan = nan in any spelling, inf by sign, numbers to the tolerance, text exactly", function()
    assert.is_true((Cmp.cell("nan", "-nan", 0)))
    assert.is_true((Cmp.cell("inf", "Infinity", 0)))
    assert.is_false((Cmp.cell("inf", "-inf", 1)))
    assert.is_false((Cmp.cell("nan", "0", 1)))
    assert.is_true((Cmp.cell("1e5", "100000.0", 0)))
    assert.is_true((Cmp.cell("1", "1.0000000001", 1e-9)))
    assert.is_false((Cmp.cell("0x10", "16", 1)))
    assert.is_false((Cmp.cell("0", "1e-200", 1e-9)))
    assert.is_true((Cmp.cell("0", "1e-310", 1e-9)))
    assert.are.equal("text", Cmp.classify("1 "))
  end)
end)

describe("atlas data files", function()
  it("a run without a finite error says so in words (- or diverged), never nan", function()
    local AW = require "kapitza.atlas.write"
    local rows = AW.cells { { status = "ok", error = 1e-3, env = 2e-3 }, { status = "failed", error = 0 / 0, env = 0 / 0 },
                           { status = "diverged", error = 0 / 0, env = 0 / 0 } }
    assert.are.same({ 1e-3, 2e-3 }, { rows[1].error, rows[1].env })
    assert.are.same({ "-", "-" }, { rows[2].error, rows[2].env })
    assert.are.same({ "diverged", "-" }, { rows[3].error, rows[3].env })
    local n = 0
    for _, f in ipairs(F.tree(U.root .. "/paper/data")) do
      if f:match("^atlas%-.*%.tsv$") then
        local t = Cmp.parse_tsv(F.read(U.root .. "/paper/data/" .. f))
        for i, r in ipairs(t.rows) do
          for j, c in ipairs(r) do
            assert.are_not.equal("nan", Cmp.classify(c), string.format("%s row %d column %s", f, i, t.header[j]))
          end
          n = n + 1
        end
      end
    end
    assert.is_true(n > 1000)
  end)
end)
