-- compare.lua -- compare the outputs of two runs cell by cell (a refactor's before/after check).
--   luajit scripts/compare.lua FRESH KEPT [rtol] [--only ID[,ID...]]      (default rtol 1e-12)
-- Every file under FRESH/data, FRESH/tables, KEPT/data and KEPT/tables (with --only: the files of
-- those scenarios, <id>.* and <id>-*) is compared by lib/lua/kapitza/compare.lua: .tsv files cell by cell
-- (numbers to the relative tolerance; nan, inf and text exactly; rows and columns must agree),
-- other files byte for byte, a file on one side only is a difference. Prints one line per file
-- (the first differences under it) and a summary with the number of files, rows and cells
-- compared. Exit status 0 when everything agrees, 1 when something differs, 2 for a usage error,
-- a directory that does not exist, a file that is not a regular file or cannot be read (named, not
-- opened: a FIFO, a device), or a comparison of nothing. Control bytes of cells and names are
-- printed as \xNN. No shell is involved.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local Cmp = require "kapitza.compare"

local function usage(msg)
  io.stderr:write("compare: " .. msg .. " (usage: luajit scripts/compare.lua FRESH KEPT [rtol] [--only ID,...])\n")
  os.exit(2)
end

local pos, only = {}, nil
local i = 1
while arg[i] do
  local a = arg[i]
  if a == "--only" then
    if not arg[i + 1] or arg[i + 1] == "" then usage("--only needs scenario ids") end
    only = {}
    for id in arg[i + 1]:gmatch("[^,]+") do only[#only + 1] = id end
    i = i + 1
  elseif a:match("^%-%-") then
    usage("unknown option '" .. a .. "'")
  else
    pos[#pos + 1] = a
  end
  i = i + 1
end
if #pos < 2 or #pos > 3 then usage("two directories needed") end
local fresh, kept = pos[1], pos[2]
local rtol = 1e-12
if pos[3] then
  local k, v = Cmp.classify(pos[3])
  if k ~= "num" or v < 0 then usage("rtol '" .. pos[3] .. "' is not a number >= 0") end
  rtol = v
end

local res, err = Cmp.trees(fresh, kept, { rtol = rtol, only = only, names = { fresh, kept },
                                          columns_only = function(n) return n:match("%-timing%.") ~= nil end })
if not res then
  io.stderr:write("compare: " .. err .. "\n")
  os.exit(2)
end
if res.nfiles == 0 then
  io.stderr:write(string.format("compare: nothing to compare: no files under data/ or tables/ of %s or %s%s\n", fresh, kept,
                                only and (" owned by " .. table.concat(only, ", ")) or ""))
  os.exit(2)
end

local SHOW = 5 -- differences printed per file
for _, f in ipairs(res.files) do
  local r = f.result
  if #r.diffs == 0 then
    local what = ({ tsv = string.format("%d rows, %d cells, max rel diff %.2g", r.rows, r.cells, r.worst),
                    columns = "columns (timings: values not compared)", bytes = "identical" })[r.kind]
    print(string.format("ok   %-40s %s", Cmp.printable(f.name), what))
  else
    print(string.format("DIFF %-40s %d difference%s", Cmp.printable(f.name), #r.diffs, #r.diffs == 1 and "" or "s"))
    for k = 1, math.min(#r.diffs, SHOW) do print("       " .. r.diffs[k]) end
    if #r.diffs > SHOW then print(string.format("       ... and %d more", #r.diffs - SHOW)) end
  end
end
print(string.format("compared %d file%s (%d rows, %d cells, relative tolerance %g): %s", res.nfiles,
                    res.nfiles == 1 and "" or "s", res.rows, res.cells, rtol,
                    res.ndiff == 0 and "all agree" or (res.ndiff .. " differ")))
os.exit(res.ndiff == 0 and 0 or 1)
