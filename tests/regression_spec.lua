-- Regression: every scenario is re-run in full into a temporary directory and every file it
-- writes is compared with the checked-in one under paper/ (numbers cell by cell to a relative
-- 1e-9, text exactly, the figures a scenario draws byte for byte: every figure under paper/figures
-- is a scenario's, the benchmark figures aside); paper.md is rewoven and compared. Files named
-- *-timing.* hold wall-clock measurements and are only checked for their columns. Each failing
-- cell is printed with both numbers.
local U = require "testutil"
local S = require "scenario"

local RTOL = 1e-9

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- Compare two data/table files; returns a list of differences (strings).
local function compare(fresh, kept, name)
  local diffs = {}
  if name:match("%.tsv$") then
    local a, ca = S.read_table(fresh)
    local b, cb = S.read_table(kept)
    if not b then return { name .. ": not checked in" } end
    if table.concat(ca, "\t") ~= table.concat(cb, "\t") then
      return { string.format("%s: columns differ (%s vs %s)", name, table.concat(ca, " "), table.concat(cb, " ")) }
    end
    if name:match("%-timing%.") then return diffs end
    if #a ~= #b then return { string.format("%s: %d rows fresh vs %d checked in", name, #a, #b) } end
    for i = 1, #a do
      for _, c in ipairs(ca) do
        local x, y = a[i][c], b[i][c]
        local bad
        if type(x) == "number" and type(y) == "number" then
          bad = math.abs(x - y) > RTOL * math.max(math.abs(x), math.abs(y)) + 1e-300
        else
          bad = x ~= y
        end
        if bad then
          diffs[#diffs + 1] = string.format("%s row %d column %s: fresh %s, checked in %s", name, i, c,
                                            tostring(x), tostring(y))
        end
      end
    end
  elseif not name:match("%-timing%.") then
    if read(fresh) ~= read(kept) then diffs[1] = name .. ": text differs from the checked-in file" end
  end
  return diffs
end

local scenarios = {}
for _, f in ipairs(U.files(U.root .. "/scenarios")) do
  if f:match("%.lua$") then scenarios[#scenarios + 1] = f:gsub("%.lua$", "") end
end

describe("regression", function()
  for _, id in ipairs(scenarios) do
    it(id .. ": a fresh run equals the checked-in outputs", function()
      local dir = U.tmpdir()
      local st, _, err = U.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out %s", id, dir))
      assert.are.equal(0, st, err)
      local fresh = U.files(dir)
      assert.is_true(#fresh > 0, id .. " wrote nothing")
      local diffs = {}
      for _, f in ipairs(fresh) do
        for _, d in ipairs(compare(dir .. "/" .. f, U.root .. "/paper/" .. f, f)) do diffs[#diffs + 1] = d end
      end
      -- every checked-in output of this scenario must still be produced
      local made = {}
      for _, f in ipairs(fresh) do made[f] = true end
      local draws = false -- a scenario that draws its own figures must still draw every one
      for _, f in ipairs(fresh) do if f:match("^figures/") then draws = true end end
      for _, sub in ipairs(draws and { "data", "tables", "figures" } or { "data", "tables" }) do
        for _, f in ipairs(U.files(U.root .. "/paper/" .. sub)) do
          local stem = f:gsub("%.[^.]*$", "")
          if (stem == id or f:sub(1, #id + 1) == id .. "-") and not made[sub .. "/" .. f] then
            diffs[#diffs + 1] = sub .. "/" .. f .. ": checked in but no longer written"
          end
        end
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
    local S = require "scenario"
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
