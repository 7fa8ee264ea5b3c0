-- Regression: every scenario is re-run in full into a temporary directory and every file it
-- writes, and every checked-in file it owns under paper/, is compared by lib/lua/kapitza/compare.lua (the
-- comparison scripts/compare.lua makes): numbers cell by cell to a relative 1e-9; nan, inf and
-- text exactly; rows and columns must agree; a file on one side only is a difference; the figures
-- a scenario draws byte for byte (every figure under paper/figures is a scenario's, the benchmark
-- figures aside). paper.md is rewoven and compared. Files named *-timing.* hold wall-clock
-- measurements and are only checked for their columns. Each failing cell is printed with both
-- values.
local U = require "testutil"
local S = require "kapitza.scenario"

local Cmp = require "kapitza.compare"
local F = require "kapitza.files"

local RTOL = 1e-9

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local scenarios = U.scenarios() -- scenarios/*.lua, not scenarios/examples/

describe("regression", function()
  for _, id in ipairs(scenarios) do
    it(id .. ": a fresh run equals the checked-in outputs", function()
      local dir = U.tmpdir()
      local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s", id, dir))
      assert.are.equal(0, st, err)
      -- every file the run wrote, and every checked-in file of this scenario, on both sides
      -- (lib/lua/kapitza/compare.lua: a file on one side only, nan, inf, a missing row or cell all differ)
      -- (the figures only when the run drew some: without gnuplot they are neither compared nor
      -- required); a file written outside a folder is compared with paper/'s file of that name
      local subs, top = { "data", "tables" }, {}
      for _, e in ipairs(F.entries(dir)) do
        if e.kind == "dir" and e.name ~= "data" and e.name ~= "tables" then subs[#subs + 1] = e.name end
        if e.kind ~= "dir" then top[#top + 1] = e.name end
      end
      local res, err = Cmp.trees(dir, U.root .. "/paper", { subdirs = subs, only = { id }, rtol = RTOL,
        names = { "fresh", "checked in" }, columns_only = function(n) return n:match("%-timing%.") ~= nil end })
      assert.truthy(res, err)
      assert.is_true(res.nfiles > 0, id .. " wrote nothing and has no checked-in outputs")
      for _, n in ipairs(top) do
        res.files[#res.files + 1] = { name = n, result = Cmp.file(dir .. "/" .. n, U.root .. "/paper/" .. n, n,
                                                                 { rtol = RTOL, names = { "fresh", "checked in" } }) }
      end
      local diffs = {}
      for _, f in ipairs(res.files) do
        for _, d in ipairs(f.result.diffs) do diffs[#diffs + 1] = f.name .. ": " .. d end
      end
      U.rmdir(dir)
      local shown = {}
      for i = 1, math.min(#diffs, 25) do shown[i] = diffs[i] end
      assert.are.equal(0, #diffs, table.concat(shown, "\n") .. (#diffs > 25 and "\n..." or ""))
    end)
  end

  it("every figure under paper/figures is a scenario's (drawn by it) or a benchmark's", function()
    local ids, stray = {}, {}
    for _, id in ipairs(scenarios) do ids[#ids + 1] = id end
    for _, f in ipairs(U.files(U.root .. "/paper/figures")) do
      local stem, owner = f:gsub("%.svg$", ""), f:match("^bench%-")
      for _, id in ipairs(ids) do owner = owner or stem == id or stem:sub(1, #id + 1) == id .. "-" end
      if not owner then stray[#stray + 1] = f end
    end
    assert.are.equal(0, #stray, "figures no scenario draws: " .. table.concat(stray, ", "))
  end)

  -- the environment block records the machine the outputs were made on; it is not compared
  local function without_env(s)
    return (s or ""):gsub("<!%-%- environment %-%->.-<!%-%- /environment %-%->", "")
  end

  it("paper.md is woven from the current scenarios and outputs", function()
    local st, out, err = U.run("luajit scripts/weave.lua paper")
    assert.are.equal(0, st, err)
    assert.is_true(without_env(out) == without_env(read(U.root .. "/paper/paper.md")), "paper/paper.md is stale: run make paper")
  end)

  it("paper.html renders the report with every artefact and every figure inline", function()
    local dir = U.tmpdir()
    assert.truthy(os.execute(string.format("cp -r '%s/paper/.' '%s/'", U.root, dir)))
    local st, _, err = U.run("luajit scripts/html.lua " .. dir)
    assert.are.equal(0, st, err)
    local html = read(dir .. "/paper.html")
    assert.truthy(html:match("^<!DOCTYPE html>"))
    assert.is_nil(html:find("missing figure", 1, true))
    local S = require "kapitza.scenario"
    local arts = S.read_table(U.root .. "/paper/reference/artefacts.tsv")
    local missing = {}
    for _, a in ipairs(arts) do
      local name = a.paper .. " " .. a.artefact
      if not html:find(">" .. a.paper .. "</td>", 1, true) or not html:find(a.artefact, 1, true) then missing[#missing + 1] = name end
      if a.scenario ~= "-" and io.open(U.root .. "/scenarios/" .. a.scenario .. ".lua") then
        if not html:find('id="' .. a.scenario .. '"', 1, true) then missing[#missing + 1] = a.scenario .. " (section)" end
      end
    end
    local nfig, nsvg = 0, 0
    for _ in read(U.root .. "/paper/paper.md"):gmatch("\n!%[") do nfig = nfig + 1 end
    for _ in html:gmatch("<svg") do nsvg = nsvg + 1 end
    U.rmdir(dir)
    assert.are.equal(0, #missing, table.concat(missing, ", "))
    assert.are.equal(nfig, nsvg, "every figure of paper.md inline")
    -- the checked-in page is the rendering of the checked-in paper.md (up to the environment)
    local kept = read(U.root .. "/paper/paper.html")
    assert.truthy(kept and kept:match("^<!DOCTYPE html>"), "paper/paper.html is missing: run make paper")
  end)
end)
