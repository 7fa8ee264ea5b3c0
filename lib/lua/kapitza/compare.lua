-- compare.lua -- the outputs of two runs compared file by file and cell by cell: the one
-- comparison behind scripts/compare.lua (a refactor's before/after check) and
-- tests/regression_spec.lua (fresh runs against paper/).
--
-- What counts as equal (nothing is skipped silently):
--   * files: a file present on one side only is a difference, in either direction; .tsv files
--     are compared cell by cell, files whose name matches opts.columns_only (timings) by their
--     header only, every other file byte for byte;
--   * a .tsv file: the '#' comment lines are not compared (they describe the run in words); the
--     header must be the same columns in the same order; the number of rows must agree, and
--     every row must have as many cells as the header (a missing or extra cell is a difference);
--   * a cell is a finite number, nan, +inf, -inf or text. Two finite numbers are equal when
--     |x - y| <= rtol max(|x|, |y|); nan equals nan and inf equals inf of the same sign (however
--     spelt: nan, -nan, inf, Infinity); text equals the same text. (Finite numbers within 1e-300
--     of each other, below the normal range, are equal too.) Anything else differs: nan or
--     inf against a number, a number against text. A number is what reads as one in decimal
--     (1, -2.5e-3, .5); 0x10 or "1e5 " with a space are text.
-- The counts (files, rows, cells compared) come back with the differences, so that a caller can
-- refuse a comparison of nothing.
local F = require "kapitza.files"

local M = {}

--- The class of a cell: "num" (and its value), "nan", "+inf", "-inf" or "text".
function M.classify(s)
  if s:match("^[+-]?%d+%.?%d*[eE][+-]?%d+$") or s:match("^[+-]?%.%d+[eE][+-]?%d+$")
     or s:match("^[+-]?%d+%.?%d*$") or s:match("^[+-]?%.%d+$") then
    local v = tonumber(s)
    if v ~= v then return "nan" end
    if v == math.huge then return "+inf" end -- 1e999 reads as inf
    if v == -math.huge then return "-inf" end
    return "num", v
  end
  local l = s:lower()
  if l == "nan" or l == "-nan" or l == "+nan" then return "nan" end
  if l == "inf" or l == "+inf" or l == "infinity" or l == "+infinity" then return "+inf" end
  if l == "-inf" or l == "-infinity" then return "-inf" end
  return "text"
end

--- Compare two cells (strings). Returns equal (boolean) and, for two finite numbers, their
-- relative difference.
function M.cell(a, b, rtol)
  if a == b then return true, 0 end
  local ka, x = M.classify(a)
  local kb, y = M.classify(b)
  if ka ~= kb then return false end
  if ka == "num" then
    if x == y then return true, 0 end
    local d = math.abs(x - y) / math.max(math.abs(x), math.abs(y))
    return math.abs(x - y) <= rtol * math.max(math.abs(x), math.abs(y)) + 1e-300, d
  end
  return ka ~= "text" -- nan = nan, inf = inf; two different texts differ
end

-- The cells of a line split at every tab (empty cells kept).
local function cells(line)
  local t = {}
  for c in (line .. "\t"):gmatch("([^\t]*)\t") do t[#t + 1] = c end
  return t
end

--- A TSV text as { header = cells, rows = { cells, ... } } ('#' lines and blank lines skipped;
-- a last line without a newline counts).
function M.parse_tsv(text)
  local header, rows = nil, {}
  for line in (text:gsub("\r\n", "\n") .. "\n"):gmatch("([^\n]*)\n") do
    if not line:match("^#") and line:match("%S") then
      if not header then header = cells(line) else rows[#rows + 1] = cells(line) end
    end
  end
  return { header = header or {}, rows = rows }
end

--- s with control bytes, DEL and bytes that are not UTF-8 text written as \xNN (a binary cell or
-- file name never reaches the terminal as it is).
function M.printable(s)
  s = tostring(s)
  return (s:gsub("[%z\1-\31\127]", function(c) return string.format("\\x%02x", c:byte()) end)
           :gsub("[\128-\255]+", function(run)
             -- keep well-formed UTF-8 sequences, escape the rest
             local out, i = {}, 1
             while i <= #run do
               local b, n = run:byte(i), 0
               if b >= 0xc2 and b <= 0xdf then n = 1 elseif b >= 0xe0 and b <= 0xef then n = 2 elseif b >= 0xf0 and b <= 0xf4 then n = 3 end
               local seq = run:sub(i, i + n)
               if n > 0 and #seq == n + 1 and not seq:sub(2):find("[^\128-\191]") then
                 out[#out + 1], i = seq, i + n + 1
               else
                 out[#out + 1], i = string.format("\\x%02x", b), i + 1
               end
             end
             return table.concat(out)
           end))
end

local function show(s) return s == "" and "(empty)" or M.printable(s) end

--- Compare two TSV texts. Returns { rows = rows compared, cells = cells compared, worst =
-- largest relative difference between numbers, where = its place, diffs = { messages } }.
function M.tsv(ta, tb, rtol, names)
  names = names or { "fresh", "kept" }
  local a, b = M.parse_tsv(ta), M.parse_tsv(tb)
  local r = { rows = 0, cells = 0, worst = 0, diffs = {} }
  local function diff(msg) r.diffs[#r.diffs + 1] = msg end
  local ha, hb = table.concat(a.header, "\t"), table.concat(b.header, "\t")
  if #a.header == 0 then diff("no header line in " .. names[1]) end
  if #b.header == 0 then diff("no header line in " .. names[2]) end
  if #r.diffs > 0 then return r end
  if ha ~= hb then
    local ina, inb, only_a, only_b = {}, {}, {}, {}
    for _, c in ipairs(a.header) do ina[c] = true end
    for _, c in ipairs(b.header) do inb[c] = true end
    for _, c in ipairs(a.header) do if not inb[c] then only_a[#only_a + 1] = c end end
    for _, c in ipairs(b.header) do if not ina[c] then only_b[#only_b + 1] = c end end
    local what = {}
    if #only_a > 0 then what[#what + 1] = "only in " .. names[1] .. ": " .. table.concat(only_a, " ") end
    if #only_b > 0 then what[#what + 1] = "only in " .. names[2] .. ": " .. table.concat(only_b, " ") end
    if #what == 0 then what[1] = "same columns in another order" end
    diff("columns differ (" .. table.concat(what, "; ") .. ")")
    return r
  end
  if #a.rows ~= #b.rows then diff(string.format("%d rows in %s, %d in %s", #a.rows, names[1], #b.rows, names[2])) end
  local nc = #a.header
  for i = 1, math.min(#a.rows, #b.rows) do
    local ra, rb = a.rows[i], b.rows[i]
    r.rows = r.rows + 1
    for k, row in ipairs { ra, rb } do
      if #row ~= nc then diff(string.format("row %d has %d cells in %s, the header %d", i, #row, names[k], nc)) end
    end
    for j = 1, math.max(#ra, #rb) do
      local x, y = ra[j], rb[j]
      if x and y then
        r.cells = r.cells + 1
        local eq, d = M.cell(x, y, rtol)
        local col = a.header[j] or ("cell " .. j)
        if not eq then
          diff(string.format("row %d column %s: %s %s, %s %s%s", i, col, names[1], show(x), names[2], show(y),
                             d and string.format(" (relative difference %.3g)", d) or ""))
        end
        if d and d > r.worst then r.worst, r.where = d, string.format("row %d column %s", i, col) end
      end
    end
  end
  return r
end

--- Compare one file of two trees (paths pa, pb; name relative, e.g. "data/x.tsv"). Returns a
-- result as M.tsv's plus kind ("tsv", "columns", "bytes"); a side that is missing is a diff;
-- a side that cannot be compared (not a regular file, unreadable) is kind "error" with r.error.
-- One side's file: its text; nil when it does not exist (not even as a link); false and why when
-- it exists but cannot be compared: not a regular file (a FIFO would block the read, a device
-- never end: not opened), a dangling link, unreadable.
local function side(p)
  local st, e = F.stat(p, true)
  if not st then
    local l = F.stat(p, false)
    if not l and e == 2 then return nil end
    if l and l.kind == "link" then return false, string.format("%s is a dangling symbolic link", M.printable(p)) end
    return false, string.format("%s cannot be read (error %d)", M.printable(p), e or 0)
  end
  if st.kind ~= "file" then
    return false, string.format("%s is %s, not a regular file: refused (not opened)", M.printable(p), F.kind_words(st.kind))
  end
  local f, err = io.open(p, "rb")
  if not f then return false, string.format("%s cannot be read: %s", M.printable(p), M.printable(tostring(err):gsub("^.-: ", ""))) end
  local t = f:read("*a")
  f:close()
  if not t then return false, string.format("%s cannot be read", M.printable(p)) end
  return t
end

function M.file(pa, pb, name, opts)
  opts = opts or {}
  local names = opts.names or { "fresh", "kept" }
  local r = { rows = 0, cells = 0, worst = 0, diffs = {} }
  local ta, wa = side(pa)
  local tb, wb = side(pb)
  if ta == false or tb == false then -- not a difference of the runs: the comparison cannot be made
    r.kind, r.error = "error", wa or wb
    return r
  end
  if not ta or not tb then
    r.kind = "missing"
    r.diffs[1] = ta and ("only in " .. names[1]) or (tb and ("only in " .. names[2]) or "on neither side")
    return r
  end
  if name:match("%.tsv$") then
    if opts.columns_only and opts.columns_only(name) then
      local ha, hb = M.parse_tsv(ta).header, M.parse_tsv(tb).header
      r.kind = "columns"
      if table.concat(ha, "\t") ~= table.concat(hb, "\t") then
        r.diffs[1] = string.format("columns differ (%s vs %s)", table.concat(ha, " "), table.concat(hb, " "))
      end
      return r
    end
    local t = M.tsv(ta, tb, opts.rtol or 1e-12, names)
    t.kind = "tsv"
    return t
  end
  r.kind = "bytes"
  if ta ~= tb then r.diffs[1] = "contents differ (compared byte for byte)" end
  return r
end

--- Does scenario `id` own output file `name` (its basename): <id>.<ext> or <id>-<anything>?
function M.owned(id, name)
  local base = name:match("([^/]*)$")
  local stem = base:gsub("%.[^.]*$", "")
  return stem == id or base:sub(1, #id + 1) == id .. "-"
end

--- Compare the trees A and B below the subfolders opts.subdirs (default data, tables): every
-- file on either side (only those some id of opts.only owns, when given). Returns
-- { files = { {name, result} ... }, nfiles, rows, cells, ndiff (files that differ) }, or nil
-- and a one-line reason when A or B is not a directory.
function M.trees(A, B, opts)
  opts = opts or {}
  for _, d in ipairs { A, B } do
    if not F.is_dir(d) then return nil, string.format("%s: not a directory (or not readable)", d) end
  end
  local names, seen = {}, {}
  for _, sub in ipairs(opts.subdirs or { "data", "tables" }) do
    for _, root in ipairs { A, B } do
      if F.is_dir(root .. "/" .. sub) then
        local list, err = F.tree(root .. "/" .. sub)
        if not list then return nil, err end
        for _, f in ipairs(list) do
          local n = sub .. "/" .. f
          local keep = not opts.only
          for _, id in ipairs(opts.only or {}) do keep = keep or M.owned(id, n) end
          if keep and not seen[n] then seen[n] = true; names[#names + 1] = n end
        end
      end
    end
  end
  table.sort(names)
  local out = { files = {}, nfiles = 0, rows = 0, cells = 0, ndiff = 0 }
  for _, n in ipairs(names) do
    local r = M.file(A .. "/" .. n, B .. "/" .. n, n, opts)
    if r.kind == "error" then return nil, r.error end
    out.files[#out.files + 1] = { name = n, result = r }
    out.nfiles, out.rows, out.cells = out.nfiles + 1, out.rows + r.rows, out.cells + r.cells
    if #r.diffs > 0 then out.ndiff = out.ndiff + 1 end
  end
  return out
end

return M
