-- sweep_merge.lua -- `sweep.lua merge DIR` (scripts/sweep.lua documents it): the shards of a sweep
-- into the files of one run.
--
-- First every point's state (kapitza.sweep.manifest): when any is not done, all of those are
-- listed (failed, missing, unfinished, unreadable) with the lines that rerun them, and nothing is
-- merged. Then, for a scenario's sweep:
--  * replay (every swept key is a list parameter of the scenario, and every shard recorded its
--    compute cells): the scenario runs once more, into DIR, with each swept key given the list of
--    its swept values, every compute cell served from the shards' records
--    (lib/lua/kapitza/scenario/cells.lua) instead of being computed. Its data, tables (.tsv and .md),
--    claims and figure are then written by the scenario's own judging code from the very numbers a
--    single run with those lists computes: byte for byte a single run's files.
--  * join (a swept key that is a scalar parameter: no single run holds several of its values; a
--    scenario without cells; or a cell that depends on a swept key as a whole list): the TSV files
--    concatenated in point order (a scalar swept key as a first column), each claim re-judged
--    across the points, each point's verdict and measurement beside it and the premise stated;
--    a file every shard wrote alike copied; the rest (figures and Markdown that combine the
--    points) listed as not merged: each point's own are in its shard.
-- For an ensemble's shards (`ensemble --shards N`): kapitza.sweep.ensemble_shards joins them.
local F = require "kapitza.files"
local Cmp = require "kapitza.compare"
local S = require "kapitza.scenario"
local MAN = require "kapitza.sweep.manifest"
local B = require "kapitza.sweep.batch"
local CJ = require "kapitza.sweep.claims_join"

local M = {}
local q = B.q

-- The lines of a text: a last line without a newline counts.
local function text_lines(t)
  local out = {}
  for l in (t:sub(-1) == "\n" and t or (t .. "\n")):gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

local function split_tabs(line)
  local c = {}
  for x in (line .. "\t"):gmatch("([^\t]*)\t") do c[#c + 1] = x end
  return c
end

--- The lines that rerun the points ks (a sorted list): on Slurm (one sbatch line per chunk, when
-- the sweep has its slurm.sh) and here (sweep.lua run DIR --points ...).
function M.rerun_lines(root, dir, ks, max_array)
  local out = {}
  if #ks == 0 then return out end
  if F.read(dir .. "/slurm.sh") then
    local size = max_array or tonumber((F.read(dir .. "/submit.sh") or ""):match("arrays of at most (%d+) tasks") or "")
    size = size and size + 1 or B.DEFAULT_MAX_ARRAY
    local arrays, lines = {}, {}
    for _, c in ipairs(B.chunks(ks, size)) do
      arrays[#arrays + 1] = string.format("--array=%s (offset %d)", c.indices, c.offset)
      lines[#lines + 1] = "  " .. B.sbatch_line(dir, c)
    end
    out[#out + 1] = "on Slurm: " .. table.concat(arrays, ", ")
    for _, l in ipairs(lines) do out[#out + 1] = l end
  end
  out[#out + 1] = string.format("here: luajit %s run %s --points %s", q(root .. "/scripts/sweep.lua"), q(dir), MAN.ranges(ks))
  return out
end

--- The points that are not done, in words (one line each), or nil when every point is done.
function M.gaps(root, dir, m, st)
  local bad, state = {}, {}
  for _, s in ipairs { "failed", "unfinished", "missing", "unreadable" } do
    for _, k in ipairs(st[s]) do bad[#bad + 1], state[k] = k, s end
  end
  if #bad == 0 then return nil end
  table.sort(bad)
  local lines = {}
  for _, k in ipairs(bad) do
    lines[#lines + 1] = string.format("  %s: %s: %s", MAN.label(m, k), state[k], st.why[k] or state[k])
  end
  return lines, bad
end

-- Check that no entry of DIR/shards is foreign to this sweep.
local function foreign(dir, m, die)
  local es = F.is_dir(dir .. "/shards") and F.entries(dir .. "/shards") or {}
  for _, e in ipairs(es) do
    local k = e.name:match("^%d%d%d%d+$") and tonumber(e.name)
    if not (k and k >= 1 and k <= m.shards and MAN.shard_name(k) == e.name) then
      die(string.format("%s/shards/%s is not a shard of this sweep (%d shards of %s): left from another sweep? remove it",
                        dir, e.name, m.shards, m.id))
    end
  end
end

---------------------------------------------------------------------------------------------------
-- replay
---------------------------------------------------------------------------------------------------

-- The scenario's parameters (its --params): key -> { list = bool }; nil when it does not answer.
local function params_of(root, script)
  -- (the shell's own word too, "cd: can't cd to ..." for a root that is gone, goes to /dev/null: the
  -- caller says what is missing)
  local p = io.popen(string.format("{ cd %s && LUA_PATH=%s\"${LUA_PATH:-;}\" luajit %s --params; } 2>/dev/null", q(root),
                                   q(root .. "/lib/lua/?.lua;"), q(script)))
  if not p then return nil end
  local text = p:read("*a")
  p:close()
  local out, n = {}, 0
  for line in text:gmatch("[^\n]+") do
    local c = split_tabs(line)
    n = n + 1
    if n == 1 then
      if c[1] ~= "key" or c[2] ~= "list" then return nil end
    else
      out[c[1]] = { list = c[2] == "1" }
    end
  end
  return n > 0 and out or nil
end

-- The replay, or nil and why it does not apply (or, after exit status 3, why it stopped).
local function replay(root, dir, m, die)
  local script = m.script and (m.script:sub(1, 1) == "/" and m.script or (root .. "/" .. m.script))
  if not script or not F.read(script) then return nil, "the scenario file " .. tostring(script) .. " cannot be read" end
  local params = params_of(root, m.script)
  if not params then return nil, "the scenario does not list its parameters (--params)" end
  local scalars = {}
  for _, o in ipairs(m.over) do
    if not params[o.key] then return nil, "the scenario has no parameter '" .. o.key .. "'" end
    if not params[o.key].list then scalars[#scalars + 1] = "'" .. o.key .. "'" end
  end
  if #scalars > 0 then
    return nil, string.format("a sweep over %s, a scalar parameter: no single run holds several of its values", table.concat(scalars, ", "))
  end
  local ncells = 0
  for k = 1, m.shards do
    local path = string.format("%s/shards/%s/cells/%s.cells", dir, MAN.shard_name(k), m.id)
    local text = F.read(path)
    if not text then return nil, string.format("point %s recorded no compute cells (emitted before cells were recorded?)", MAN.shard_name(k)) end
    local id, list = S.cells_parse(text)
    if not id then die(string.format("%s is damaged (%s): rerun that point", path, list)) end
    ncells = ncells + #list
  end
  if ncells == 0 then return nil, string.format("%s has no compute cells to replay", m.id) end
  local args = {}
  for _, o in ipairs(m.over) do args[#args + 1] = q(o.key .. "=" .. table.concat(o.values, ",")) end
  for _, a in ipairs(m.args) do args[#args + 1] = q(a) end
  local log = string.format("%s/.merge-%d.log", dir, require("kapitza.sweep.pool").pid())
  local cmd = string.format("cd %s && LUA_PATH=%s\"${LUA_PATH:-;}\" KZ_QUIET=1 KZ_CELLS_RECORD= KZ_CELLS_REPLAY=%s luajit %s --out %s --force %s 2>%s",
                            q(root), q(root .. "/lib/lua/?.lua;"), q(dir .. "/shards"), q(m.script), q(dir),
                            table.concat(args, " "), q(log))
  -- run by the pool (its own process group, the three signals passed on to it): a SIGTERM to the
  -- merge stops the scenario too (whose staging folder goes), rather than leaving it to write DIR
  -- after the merge has died
  local Pool = require "kapitza.sweep.pool"
  local res, stop = Pool.run({ { "sh", "-c", cmd } }, 1)
  local said = (F.read(log) or "")
  os.remove(log)
  if stop then os.exit(128 + stop) end
  local r = res[1]
  local st = r.status or (r.signal and 128 + r.signal) or 1
  local first = said:match("[^\n]*%S[^\n]*") or ("exit status " .. st)
  if st == 3 then return nil, first end
  if st ~= 0 then die(string.format("the scenario's run over the shards' cells failed: %s", first)) end
  return { args = args }
end

---------------------------------------------------------------------------------------------------
-- join
---------------------------------------------------------------------------------------------------

local CLAIMS_HEAD = table.concat(require("kapitza.claims").COLUMNS, "\t") -- a claims table's header

-- The claim texts of a claims .md beside a claims .tsv (its first column, row by row), or nil.
local function md_texts(text)
  if not text then return nil end
  local t, seen_sep = {}, false
  for _, l in ipairs(text_lines(text)) do
    if l:match("^|%-") or l:match("^|%s*:?%-") then seen_sep = true
    elseif seen_sep and l:match("^| ") then t[#t + 1] = l:match("^| (.-) | ") end
  end
  return t
end

-- The rows of a claims .tsv by its column names.
local function claim_rows(text)
  local rows, head = {}, nil
  for _, l in ipairs(text_lines(text)) do
    if l ~= "" and not l:match("^#") then
      local c = split_tabs(l)
      if not head then head = c
      else
        local r = {}
        for j, name in ipairs(head) do r[name] = c[j] end
        rows[#rows + 1] = r
      end
    end
  end
  return rows
end

-- One claims table from each point's (kapitza.sweep.claims_join: the evidence the union of the
-- judged points' counted items, n/a points left out, each point's premises beside).
local function join_claims(m, texts, mds, premise)
  local points = {}
  for k, t in ipairs(texts) do points[k] = { label = MAN.label(m, k), rows = claim_rows(t), texts = md_texts(mds[k]) } end
  local cols, rows, md = CJ.join(points, premise)
  local tsv = string.format("# %d points of a sweep merged: each claim judged at each point alone (%s)\n", #texts, premise) ..
              S.tsv(cols, rows)
  local mdt = S.md_table({ "claim (paper)", "published", "reproduced, point by point", "premises", "evidence", "holds" }, md) ..
              string.format("\nMerged from %d points of a sweep: each claim judged at each point alone, the points' counted " ..
                            "items joined (n/a points left out); %s.\n", #texts, premise)
  return tsv, mdt
end

-- One TSV from each point's: the comment lines all points share, then those that differ marked
-- with their point, the header (which must agree), a first column for each scalar swept key the
-- header does not have, the rows in point order. nil when the headers differ.
-- A cell a number column may hold: a number, nan, inf, or nothing written ("", "-", "—").
local function numberish(x)
  return tonumber(x) ~= nil or x:match("^[%+%-]?nan$") or x:match("^[%+%-]?inf$") or x == "" or x == "-" or x == "—"
end

-- Check a shard's TSV before it is joined: a last line with its newline (not cut short), every row
-- with the header's number of cells, and in a column of numbers (every cell of the first point's
-- rows numberish, one a number) no text; die naming the shard, file and line otherwise.
local function check_tsv(m, f, texts, die)
  local numeric
  for k, t in ipairs(texts) do
    local where = function(n) return string.format("shard %s's %s, line %d", MAN.shard_name(k), f, n) end
    if t ~= "" and t:sub(-1) ~= "\n" then die(where(#text_lines(t)) .. ": cut short (no newline at its end): rerun that point") end
    local ncols, n = nil, 0
    for _, line in ipairs(text_lines(t)) do
      n = n + 1
      if line ~= "" and not line:match("^#") then
        local c = split_tabs(line)
        if not ncols then
          ncols = #c
        else
          if #c ~= ncols then die(string.format("%s: %d cells under a header of %d", where(n), #c, ncols)) end
          if not numeric then
            numeric = {}
            for j, x in ipairs(c) do numeric[j] = numberish(x) and tonumber(x) ~= nil end
          end
          for j, x in ipairs(c) do
            if numeric[j] and not numberish(x) then die(string.format("%s: '%s' in a column of numbers", where(n), x:sub(1, 40))) end
          end
        end
      end
    end
  end
end

local function join_tsv(m, texts, scalar_keys)
  local heads, bodies, pres = {}, {}, {}
  for k, t in ipairs(texts) do
    local pre, rows, head = {}, {}, nil
    for _, line in ipairs(text_lines(t)) do
      if head then if line ~= "" then rows[#rows + 1] = line end
      elseif line:match("^#") then pre[#pre + 1] = line
      else head = line end
    end
    if not head then return nil end
    heads[k], bodies[k], pres[k] = head, rows, pre
  end
  for k = 2, #heads do if heads[k] ~= heads[1] then return nil end end
  local cols = {}
  for _, c in ipairs(split_tabs(heads[1])) do cols[c] = true end
  local extra = {}
  for _, key in ipairs(scalar_keys) do if not cols[key] then extra[#extra + 1] = key end end
  local inall = {}
  for _, l in ipairs(pres[1]) do
    local all = true
    for k = 2, #pres do
      local found = false
      for _, x in ipairs(pres[k]) do if x == l then found = true break end end
      all = all and found
    end
    if all then inall[l] = true end
  end
  local out = {}
  for _, l in ipairs(pres[1]) do if inall[l] then out[#out + 1] = l end end
  for k = 1, #pres do
    for _, l in ipairs(pres[k]) do
      if not inall[l] then out[#out + 1] = string.format("# [%s] %s", MAN.label(m, k), l:gsub("^#%s?", "")) end
    end
  end
  local head = heads[1]
  if #extra > 0 then head = table.concat(extra, "\t") .. "\t" .. head end
  out[#out + 1] = head
  for k, rows in ipairs(bodies) do
    local lead = ""
    if #extra > 0 then
      local vals = {}
      for w in (m.points[k] or ""):gmatch("%S+") do
        local kk, vv = w:match("^([%w_]+)=(.*)$")
        if kk then vals[kk] = vv end
      end
      local t = {}
      for j, key in ipairs(extra) do t[j] = vals[key] or "" end
      lead = table.concat(t, "\t") .. "\t"
    end
    for _, r in ipairs(rows) do out[#out + 1] = lead .. r end
  end
  return table.concat(out, "\n") .. "\n"
end

local function join(root, dir, m, premise, die)
  local files, seen, have = {}, {}, {}
  for k = 1, m.shards do
    local s = dir .. "/shards/" .. MAN.shard_name(k)
    local list, err = F.tree(s)
    if not list then die(err) end
    have[k] = {}
    for _, f in ipairs(list) do
      if not f:match("^cells/") then
        if not Cmp.owned(m.id, f) then
          die(string.format("shard %s holds %s: not an output of %s (a shard of another sweep?); rerun that point", MAN.shard_name(k), f, m.id))
        end
        have[k][f] = true
        if not seen[f] then seen[f] = true; files[#files + 1] = f end
      end
    end
  end
  table.sort(files)
  local scalar_keys = {}
  local params = m.script and params_of(root, m.script)
  for _, o in ipairs(m.over) do
    if not (params and params[o.key] and params[o.key].list) then scalar_keys[#scalar_keys + 1] = o.key end
  end
  local out, skipped, done_md = {}, {}, {}
  local texts_of = {}
  for _, f in ipairs(files) do
    local texts, all = {}, true
    for k = 1, m.shards do
      if have[k][f] then
        texts[k] = F.read(dir .. "/shards/" .. MAN.shard_name(k) .. "/" .. f)
        if not texts[k] then die(string.format("cannot read %s in shard %s", f, MAN.shard_name(k))) end
      else all = false end
    end
    texts_of[f] = texts
    local mergeable = f:match("^data/") or f:match("^tables/")
    local by = {}
    for k in pairs(texts) do by[#by + 1] = k end
    if #by == 1 and (mergeable or f:match("^figures/")) then out[#out + 1] = { f, texts[by[1]] } -- one point's own file
    elseif not all then skipped[#skipped + 1] = f .. " (written at some points only)"
    elseif mergeable and f:match("%.tsv$") and texts[1]:match("^" .. CLAIMS_HEAD .. "[\t\n]") then
      local mds = {}
      local mdf = f:gsub("%.tsv$", ".md")
      for k = 1, m.shards do mds[k] = F.read(dir .. "/shards/" .. MAN.shard_name(k) .. "/" .. mdf) end
      local tsv, md = join_claims(m, texts, mds, premise)
      out[#out + 1] = { f, tsv }
      out[#out + 1] = { mdf, md }
      done_md[mdf] = true
    elseif mergeable and f:match("%.tsv$") then
      check_tsv(m, f, texts, die)
      local t = join_tsv(m, texts, scalar_keys)
      if t then out[#out + 1] = { f, t } else skipped[#skipped + 1] = f .. " (other column heads at some points)" end
    end
  end
  for _, f in ipairs(files) do
    local texts = texts_of[f]
    local handled = f:match("%.tsv$") and (f:match("^data/") or f:match("^tables/"))
    local n = 0
    for _ in pairs(texts) do n = n + 1 end
    if not handled and not done_md[f] and n == m.shards and m.shards > 1 then
      local same = true
      for k = 2, #texts do same = same and texts[k] == texts[1] end
      if same and (f:match("^data/") or f:match("^tables/")) then out[#out + 1] = { f, texts[1] }
      else skipped[#skipped + 1] = f end
    end
  end
  for _, o in ipairs(out) do
    local ok, err = F.write_atomic(dir .. "/" .. o[1], o[2])
    if not ok then die(err) end
  end
  io.stderr:write(string.format("sweep: joined %d points of %s into %s/data, %s/tables (%d files): %s; each claim judged at each point alone\n",
                                m.shards, m.id, dir, dir, #out, premise))
  if #skipped > 0 then
    io.stderr:write("sweep: not merged (each point's own is in its shard): " .. table.concat(skipped, ", ") .. "\n")
  end
end

--- `sweep.lua merge DIR` with args = the words after `merge`.
function M.main(root, args, die, abs)
  local dir = args[1] and abs(args[1])
  if not dir or args[2] then die("usage: sweep.lua merge DIR (DIR/sweep.txt from emit)") end
  local chk, why = F.check_out(dir, "DIR")
  if not chk then die(why) end
  local m = MAN.read(dir, die, true, "merge")
  root = m.root or root
  foreign(dir, m, die)
  local st = MAN.states(dir, m)
  local lines, bad = M.gaps(root, dir, m, st)
  if lines then
    local t = { string.format("sweep: not done, %d of %d %s; nothing merged:", #bad, m.shards,
                              m.kind == "ensemble" and "shards" or "points") }
    for _, l in ipairs(lines) do t[#t + 1] = l end
    t[#t + 1] = "rerun them when the others have ended (a running point shows as unfinished):"
    for _, l in ipairs(M.rerun_lines(root, dir, bad)) do t[#t + 1] = "  " .. l end
    io.stderr:write(table.concat(t, "\n"), "\n")
    os.exit(2)
  end
  if m.kind == "ensemble" then
    return require("kapitza.sweep.ensemble_shards").merge(root, dir, m, die)
  end
  local done, whynot = replay(root, dir, m, die)
  if done then
    io.stderr:write(string.format("sweep: merged %d points of %s into %s: the scenario judged the shards' cells as one run with %s\n",
                                  m.shards, m.id, dir, table.concat(done.args, " ")))
    return
  end
  join(root, dir, m, whynot, die)
end

return M
