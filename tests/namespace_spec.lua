-- namespace_spec.lua -- issue 26, items 2 and 4: one Lua namespace, nothing stray.
--  * every module of the package is `kapitza` or `kapitza.<...>`, its file at the path the name says
--    (lib/lua/kapitza/atlas/run.lua is kapitza.atlas.run), and loads by that name;
--  * no file of the repository requires one of the package's modules by a bare name;
--  * `require "kapitza"` leaves package.path as it was;
--  * from an installed tree, a user's own options.lua, files.lua and models.lua beside their script
--    are what `require "kapitza.options"` etc. give, while kapitza.options, kapitza.files, kapitza.models and
--    a scenario module load ours: neither shadows the other;
--  * no merge leftover or backup (*.orig, *.rej, *~, *.bak) is tracked.
local U = require "testutil"
local F = require "kapitza.files"

local root = U.root
local MAKE = "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u KZ_LIB make --no-print-directory -C " .. root

-- every .lua below lib/lua, as module names
local function modules()
  local out = {}
  for _, f in ipairs(F.tree(root .. "/lib/lua")) do
    if f:match("%.lua$") then out[#out + 1] = { file = f, name = f:gsub("%.lua$", ""):gsub("/", ".") } end
  end
  return out
end

describe("one Lua namespace", function()
  it("every module is kapitza or kapitza.*, at the path its name says, and loads by that name", function()
    local mods = modules()
    assert.truthy(#mods >= 50, "modules: " .. #mods)
    for _, m in ipairs(mods) do
      assert.truthy(m.name == "kapitza" or m.name:match("^kapitza%.[%w_.]+$"), m.file .. " is outside the namespace")
      local path = package.searchpath(m.name, root .. "/lib/lua/?.lua")
      assert.are.equal(root .. "/lib/lua/" .. m.file, path, m.name)
    end
    -- each loads (in a fresh process: some modules install a scenario's state when required)
    local names = {}
    for _, m in ipairs(mods) do names[#names + 1] = string.format("%q", m.name) end
    local st, _, err = U.run(string.format("luajit -e 'package.path = %q .. package.path; for _, n in ipairs { %s } do require(n) end'",
                                           root .. "/lib/lua/?.lua;", table.concat(names, ", "):gsub("'", "")))
    assert.are.equal(0, st, err)
  end)

  it("no file requires a module of the package by a bare name", function()
    local bare = {}
    for _, m in ipairs(modules()) do
      local short = m.name:match("([%w_]+)$")
      if m.name ~= "kapitza" then bare[short] = m.name end
    end
    local _, listing = U.run("git ls-files '*.lua' bin/kapitza")
    local found = {}
    for f in listing:gmatch("[^\n]+") do
      -- (this spec names bare modules on purpose: a user's)
      local text = f == "tests/namespace_spec.lua" and "" or F.read(root .. "/" .. f) or ""
      for q, name in text:gmatch("require%s*%(?%s*([\"'])([%w_.]+)%1") do
        local _ = q
        if bare[name] and not f:match("^tests/") then found[#found + 1] = f .. ": require '" .. name .. "'" end
        if bare[name] and f:match("^tests/") and name ~= "testutil" and name ~= "fuzz" and name ~= "work_count" then
          found[#found + 1] = f .. ": require '" .. name .. "'"
        end
      end
    end
    assert.are.same({}, found)
  end)

  it("require 'kapitza' leaves package.path as it was", function()
    local st, out, err = U.run(string.format(
      "luajit -e 'package.path = %q .. package.path; local before = package.path; require \"kapitza\"; require \"kapitza.scenario\"; print(before == package.path)'",
      root .. "/lib/lua/?.lua;"))
    assert.are.equal(0, st, err)
    assert.are.equal("true\n", out)
  end)

  it("from an installed tree, a user's options, files and models beside their script are theirs, and ours are ours", function()
    local dir = U.tmpdir()
    local prefix = dir .. "/usr"
    local st, _, err = U.run(string.format("%s install PREFIX='%s' >/dev/null", MAKE, prefix))
    assert.are.equal(0, st, err)
    local work = dir .. "/work"
    assert(os.execute("mkdir " .. work) == 0)
    for _, n in ipairs { "options", "files", "models", "scenario", "hmm" } do
      local f = io.open(work .. "/" .. n .. ".lua", "w")
      f:write(string.format("return { mine = %q }\n", n))
      f:close()
    end
    local f = io.open(work .. "/prog.lua", "w")
    f:write([[
local before = package.path
local kz = require "kapitza"
local ours = { require "kapitza.options", require "kapitza.files", require "kapitza.models", require "kapitza.hmm" }
local S = require "kapitza.scenario"
for _, m in ipairs(ours) do assert(m.mine == nil, "ours shadowed") end
assert(type(S.new) == "function", "kapitza.scenario shadowed")
assert(package.path == before, "package.path changed")
local theirs = {}
for _, n in ipairs { "options", "files", "models", "scenario", "hmm" } do theirs[#theirs + 1] = require(n).mine end
print(table.concat(theirs, " "))
-- and ours still work after theirs were loaded
local m = require("kapitza.models").pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 100, theta0 = 0 }
print(kz.installed and "installed" or "source", m and "model" or "none")
]])
    f:close()
    local st2, out, err2 = U.run(string.format("cd %s && env -u KZ_LIB KZ_CACHE=%s/cache LUA_PATH='./?.lua;%s/share/lua/5.1/?.lua;;' luajit prog.lua",
                                               work, dir, prefix))
    assert.are.equal(0, st2, err2)
    assert.are.equal("options files models scenario hmm\ninstalled\tmodel\n", out)
    -- the other order on the path (ours first): the same
    local st3, out3, err3 = U.run(string.format("cd %s && env -u KZ_LIB KZ_CACHE=%s/cache LUA_PATH='%s/share/lua/5.1/?.lua;./?.lua;;' luajit prog.lua",
                                                work, dir, prefix))
    assert.are.equal(0, st3, err3)
    assert.are.equal("options files models scenario hmm\ninstalled\tmodel\n", out3)
    U.rmdir(dir)
  end)
end)

describe("nothing stray is tracked", function()
  it("no merge leftover or backup (*.orig, *.rej, *~, *.bak) in git ls-files", function()
    local st, listing = U.run("git ls-files")
    if st ~= 0 then
      pending("not a git checkout: nothing to list")
      return
    end
    local stray = {}
    for f in listing:gmatch("[^\n]+") do
      if f:match("%.orig$") or f:match("%.rej$") or f:match("~$") or f:match("%.bak$") then stray[#stray + 1] = f end
    end
    assert.are.same({}, stray)
  end)

  it("no Lua module of the package is over 620 lines (split by job instead)", function()
    local long = {}
    for _, m in ipairs(modules()) do
      local n = select(2, (F.read(root .. "/lib/lua/" .. m.file) or ""):gsub("\n", ""))
      if n > 620 then long[#long + 1] = string.format("%s: %d lines", m.file, n) end
    end
    assert.are.same({}, long)
  end)
end)
