-- sweep_ensemble_shards.lua -- an ensemble sweep in shards (`sweep.lua ensemble ... --shards N`,
-- lib/lua/kapitza/sweep/ensemble.lua): the grid's points cut into N contiguous ranges, one command
-- per range (the same ensemble call over its points, `--part K/N`, into DIR/shards/NNNN), written
-- as `emit` writes a scenario's sweep (commands.txt, sweep.txt, slurm.sh, submit.sh, logs/); and
-- the join `merge` does: the shards' rows after the header the one call writes (checked line by
-- line against the header this process computes from the same arguments), then the figure from
-- the joined file, so that DIR holds what the one call writes, byte for byte.
local F = require "kapitza.files"
local MAN = require "kapitza.sweep.manifest"
local B = require "kapitza.sweep.batch"

local M = {}
local q = B.q

--- The values of point k (1-based, the first --over outermost) of the product of the over lists.
function M.point(over, k)
  local idx, p = k - 1, {}
  for j = #over, 1, -1 do
    local n = #over[j].values
    p[j] = over[j].values[idx % n + 1]
    idx = math.floor(idx / n)
  end
  return p
end

--- The points a..b of the product, each the list of its values.
function M.points(over, a, b)
  local out = {}
  for k = a, b do out[#out + 1] = M.point(over, k) end
  return out
end

--- Part k of n of a grid of `count` points: its first and last point.
function M.part(count, n, k)
  return math.floor((k - 1) * count / n) + 1, math.floor(k * count / n)
end

--- Read `--part K/N` (K in 1..N); die otherwise.
function M.part_arg(v, die)
  local k, n = tostring(v):match("^(%d+)/(%d+)$")
  k, n = tonumber(k), tonumber(n)
  if not k or n < 1 or k < 1 or k > n then die("--part needs K/N with 1 <= K <= N (one shard of a sweep written by --shards N)") end
  return k, n
end

--- Write the N commands and the sweep's files into c.dir (nothing runs). args: the command's
-- words after `ensemble`; count: the grid's points.
function M.emit(root, c, args, count, spec_name, die, abs)
  local n = c.shards
  if n > count then die(string.format("--shards %d: more shards than the grid's %d points", n, count)) end
  local dir = abs(c.dir)
  local keep = {} -- the arguments of every shard's command: the call's own, without --shards, --max-array
  local i = 3
  while args[i] do
    if args[i] == "--shards" or args[i] == "--max-array" then i = i + 2
    else keep[#keep + 1] = args[i]; i = i + 1 end
  end
  -- the model as it was given (its path is in the file's header): a relative one from the
  -- directory it was given in
  local cwd = c.path:sub(1, 1) ~= "/" and (os.getenv("PWD") or ".") or nil
  local cmds, parts = {}, {}
  local E = require "kapitza.sweep.emit"
  local prefix = E.prefix(root, cwd)
  for k = 1, n do
    local a, b = M.part(count, n, k)
    parts[k] = { a, b }
    local w = {}
    for _, x in ipairs(keep) do w[#w + 1] = q(x) end
    cmds[k] = string.format("%s luajit %s ensemble %s %s %s --part %d/%d", prefix, q(root .. "/scripts/sweep.lua"),
                            q(c.path), q(dir .. "/shards/" .. MAN.shard_name(k)), table.concat(w, " "), k, n)
  end
  local m = { id = "sweep-" .. spec_name, kind = "ensemble", model = c.path, cwd = cwd, root = root, shards = n, count = count,
              over = c.over, args = keep, parts = parts }
  local size, from = B.max_array(c.max_array)
  E.write(root, dir, m, cmds, size, from, die)
  io.stdout:write(table.concat(cmds, "\n"), "\n")
  io.stderr:write(string.format("sweep: %d points of %s in %d shards of %d-%d points in %s: run them here (sweep.lua run DIR), " ..
                                "with GNU parallel, or on Slurm (sh DIR/submit.sh: arrays of at most %d, MaxArraySize %d from %s); " ..
                                "then sweep.lua merge DIR\n", count, spec_name, n, math.floor(count / n), math.ceil(count / n), dir,
                                size - 1, size, from))
end

-- The lines of a file, streamed: calls each(line) for every line; nil and the reason when it
-- cannot be read.
local function each_line(path, each)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  for line in f:lines() do each(line) end
  f:close()
  return true
end

--- The join (c: the parsed call, head: the header lines 1, 2, 4, 5 this call writes, keyed by line
-- number; count; path: DIR/data/sweep-<model>.tsv). Streams each shard's rows after the header
-- into path (atomically); returns the statuses of the points (nil beyond 1e6 points) and the
-- third header line (vector width and threads, which must agree across shards).
function M.join(c, head, count, npoints_over, path, die)
  local m = c.join
  local dir = c.dir
  local tmp = string.format("%s.%d.tmp", path, require("kapitza.sweep.pool").pid())
  if F.stat(tmp, false) then die("a file " .. tmp .. " is in the way") end
  F.mkdir_p(path:match("^(.*)/[^/]*$"))
  local out, oerr = io.open(tmp, "wb")
  if not out then die("cannot write " .. path .. ": " .. tostring(oerr)) end
  local status = count <= 1e6 and {} or nil
  local third
  local ok, err = pcall(function()
    local bodies = {}
    for k = 1, m.shards do
      local a, b = m.parts[k][1], m.parts[k][2]
      local f = string.format("%s/shards/%s/data/%s.tsv", dir, MAN.shard_name(k), m.id)
      local n, rows = 0, 0
      local okr, rerr = each_line(f, function(line)
        n = n + 1
        if n <= 5 then
          if n == 3 then
            if third and line ~= third then
              error(string.format("shard %s ran with another vector width or thread count (%s; shard 0001: %s): " ..
                                  "give --threads N, and run the shards on one kind of node", MAN.shard_name(k), line, third), 0)
            end
            third = third or line
            if k == 1 then head[3] = line; out:write(table.concat(head, "\n", 1, 5), "\n") end
          elseif line ~= head[n] then
            error(string.format("shard %s was written by another call (its header line %d differs): emit the sweep again", MAN.shard_name(k), n), 0)
          end
          return
        end
        rows = rows + 1
        local pt = a + rows - 1
        if pt > b then error(string.format("shard %s holds more rows than its points %d-%d", MAN.shard_name(k), a, b), 0) end
        if rows == 1 or pt == b then -- the first and last rows name their points
          local want = table.concat(npoints_over(pt), "\t")
          if line:sub(1, #want + 1) ~= want .. "\t" then
            error(string.format("shard %s: its row %d is not point %d (%s)", MAN.shard_name(k), rows, pt, want), 0)
          end
        end
        if status then status[pt] = line:match("\t([^\t]*)\t[^\t]*$") end
        out:write(line, "\n")
      end)
      if not okr then error(string.format("cannot read shard %s's %s: %s", MAN.shard_name(k), f, tostring(rerr)), 0) end
      if n < 5 or rows ~= b - a + 1 then
        error(string.format("shard %s holds %d rows for its %d points %d-%d (cut short? rerun it)", MAN.shard_name(k),
                            rows, b - a + 1, a, b), 0)
      end
      bodies[k] = rows
    end
  end)
  local cok = out:close()
  if not ok or not cok then
    os.remove(tmp)
    die(ok and ("cannot write " .. path) or err)
  end
  local rok, rerr = os.rename(tmp, path)
  if not rok then os.remove(tmp); die("cannot write " .. path .. ": " .. tostring(rerr)) end
  return status, third
end

--- The join mode of the ensemble call (M.merge): the rows under the header lines L (1, 2, 4, 5;
-- the third from the shards), then the figure by draw(status) when the grid is small enough.
function M.join_call(c, join, L, count, path, draw, fmt, die)
  c.join = join
  local status = M.join(c, L, count, function(k)
    local p = M.point(c.over, k)
    for j, v in ipairs(p) do p[j] = fmt(v) end
    return p
  end, path, die)
  local fig = status and draw(status)
  if not status then io.stderr:write(string.format("sweep: no figure: %d points (the data are written)\n", count)) end
  io.stderr:write(string.format("sweep: joined %d shards of %d points into %s%s\n", join.shards, count, path, fig and (" and " .. fig) or ""))
  return path
end

--- `merge DIR` of an ensemble sweep: the call again, in join mode (lib/lua/kapitza/sweep/ensemble.lua).
function M.merge(root, dir, m, die)
  local SE = require "kapitza.sweep.ensemble"
  if m.cwd then -- a model path relative to where the sweep was written
    local ffi = require "ffi"
    pcall(ffi.cdef, "int chdir(const char *path);")
    if ffi.C.chdir(m.cwd) ~= 0 then die("cannot enter " .. m.cwd .. ", where the model's path " .. m.model .. " starts") end
  end
  local args = { m.model, dir }
  for _, a in ipairs(m.args) do args[#args + 1] = a end
  local c = SE.main(args, die, function(p) return p end, root, m)
  return c
end

return M
