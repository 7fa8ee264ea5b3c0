-- compare.lua -- compare the outputs of two runs cell by cell (a refactor's before/after check).
--   luajit scripts/compare.lua FRESH KEPT [rtol]      (default rtol 1e-12)
-- For every data/ and tables/ file under FRESH: .tsv files are compared cell by cell (numbers to
-- the relative tolerance, text exactly), other files byte for byte. Prints the largest relative
-- difference per file and every file that differs; exit status 1 if any does.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"

local fresh, kept, rtol = arg[1], arg[2], tonumber(arg[3] or "1e-12")
if not fresh or not kept then
  io.stderr:write("usage: luajit scripts/compare.lua FRESH KEPT [rtol]\n")
  os.exit(2)
end

local function files(dir)
  local p = io.popen(string.format("cd '%s' 2>/dev/null && find data tables -type f 2>/dev/null | sort", dir))
  local t = {}
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local bad = 0
for _, f in ipairs(files(fresh)) do
  local a, b = fresh .. "/" .. f, kept .. "/" .. f
  local msg
  if f:match("%.tsv$") then
    local ra, ca = S.read_table(a)
    local rb, cb = S.read_table(b)
    if not rb then msg = "missing in " .. kept
    elseif table.concat(ca, " ") ~= table.concat(cb, " ") then msg = "columns differ"
    elseif #ra ~= #rb then msg = string.format("%d rows vs %d", #ra, #rb)
    else
      local worst, where, text = 0, nil, nil
      for i = 1, #ra do
        for _, c in ipairs(ca) do
          local x, y = ra[i][c], rb[i][c]
          if type(x) == "number" and type(y) == "number" then
            local d = math.abs(x - y) / math.max(math.abs(x), math.abs(y), 1e-300)
            if x == y then d = 0 end
            if d > worst then worst, where = d, string.format("row %d %s: %.17g vs %.17g", i, c, x, y) end
          elseif x ~= y then
            text = text or string.format("row %d %s: '%s' vs '%s'", i, c, tostring(x), tostring(y))
          end
        end
      end
      if text then msg = "text cell differs, " .. text
      elseif worst > rtol then msg = string.format("max relative difference %.3g at %s", worst, where)
      else print(string.format("ok   %-40s max rel diff %.2g", f, worst)) end
    end
  else
    local x, y = slurp(a), slurp(b)
    if y == nil then msg = "missing in " .. kept
    elseif x ~= y then msg = "text differs"
    else print(string.format("ok   %-40s identical", f)) end
  end
  if msg then
    bad = bad + 1
    print(string.format("DIFF %-40s %s", f, msg))
  end
end
os.exit(bad == 0 and 0 or 1)
