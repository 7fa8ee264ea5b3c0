-- sweep_batch.lua -- a sweep on a Slurm cluster (scripts/sweep.lua): the batch script DIR/slurm.sh
-- and the submission DIR/submit.sh that `emit` and `ensemble --shards` write, the array chunks
-- (no larger than the cluster's MaxArraySize), the lines that rerun some points, and `task`, what
-- each array task runs.
--
-- DIR/slurm.sh is a batch script for job arrays: task i of a submission with offset OFF
-- (`sbatch --array=1-1000 DIR/slurm.sh 0`) runs point OFF + i through
-- `luajit ROOT/scripts/sweep.lua task DIR K`, its Slurm output in DIR/logs/slurm-<job>_<task>.out.
-- DIR/submit.sh holds one such sbatch line per chunk of at most MaxArraySize - 1 points (array
-- indices must stay below MaxArraySize), printing the job ids; its arguments go to every sbatch
-- (--time=, --partition=, ...).
local F = require "kapitza.files"
local MAN = require "kapitza.sweep.manifest"

local M = {}

M.DEFAULT_MAX_ARRAY = 1001 -- Slurm's default MaxArraySize

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
M.q = q

--- The cluster's MaxArraySize: `given` (the --max-array key) when given, else what
-- `scontrol show config` says when scontrol runs, else Slurm's default. Returns the size and
-- where it came from, in words.
function M.max_array(given)
  if given then return given, "--max-array" end
  local p = io.popen("scontrol show config 2>/dev/null")
  local text = p and p:read("*a") or ""
  if p then p:close() end
  local v = tonumber(text:match("\nMaxArraySize%s*=%s*(%d+)") or "")
  if v and v >= 2 then return v, "scontrol show config" end
  return M.DEFAULT_MAX_ARRAY, "Slurm's default; scontrol did not answer (--max-array N sets it)"
end

--- The submissions of `points` (a sorted list) in chunks of at most max_array - 1 array tasks:
-- { offset, indices ("1-1000" or "2,5") } each; a chunk covers points offset+1 .. offset+size.
function M.chunks(points, max_array)
  local size = max_array - 1
  local by, order = {}, {}
  for _, k in ipairs(points) do
    local c = math.floor((k - 1) / size)
    if not by[c] then by[c] = {}; order[#order + 1] = c end
    table.insert(by[c], k - c * size)
  end
  local out = {}
  for _, c in ipairs(order) do out[#out + 1] = { offset = c * size, indices = MAN.ranges(by[c]) } end
  return out
end

--- The sbatch line of a chunk.
function M.sbatch_line(dir, c, extra)
  return string.format("sbatch --array=%s%s %s %d", c.indices, extra or "", q(dir .. "/slurm.sh"), c.offset)
end

--- The text of DIR/slurm.sh.
function M.script(root, dir, m, max_array, from)
  return table.concat({
    "#!/bin/sh",
    string.format("#SBATCH --job-name=kz-%s", m.id),
    string.format("#SBATCH --output=%s", q(dir .. "/logs/slurm-%A_%a.out")),
    "#SBATCH --ntasks=1",
    string.format("# kapitza sweep of %s: %d %s, written by scripts/sweep.lua.", m.id, m.shards,
                  m.kind == "ensemble" and "shards of an ensemble grid" or "points"),
    "# A batch script for Slurm job arrays: array task i of a submission with offset OFF runs",
    "# point OFF + i (sbatch --array=1-N slurm.sh OFF). Submit every point with: sh " .. q(dir .. "/submit.sh"),
    string.format("# (arrays of at most %d tasks: MaxArraySize %d, from %s). Each task runs", max_array - 1, max_array, from),
    "# luajit scripts/sweep.lua task, which logs to DIR/logs/NNNN.log and fails (exit status not 0)",
    "# when its point is missing, fails, or writes nothing. Needs on every node: this checkout, built,",
    "# at the same path, luajit on the PATH, and DIR on a shared file system.",
    "if [ -z \"${SLURM_ARRAY_TASK_ID:-}\" ] || [ -z \"${1:-}\" ]; then",
    "  echo \"slurm.sh: run by Slurm as a job array: sbatch --array=1-N slurm.sh OFFSET (see submit.sh)\" >&2",
    "  exit 2",
    "fi",
    string.format("exec luajit %s task %s \"$(( $1 + SLURM_ARRAY_TASK_ID ))\"", q(root .. "/scripts/sweep.lua"), q(dir)),
    "",
  }, "\n")
end

--- The text of DIR/submit.sh: every point, chunked.
function M.submit(root, dir, m, max_array)
  local all = {}
  for k = 1, m.shards do all[k] = k end
  local lines = {
    "#!/bin/sh",
    string.format("# Submits the %d %s of the sweep %s as Slurm job arrays of at most %d tasks", m.shards,
                  m.kind == "ensemble" and "shards" or "points", m.id, max_array - 1),
    "# (written by scripts/sweep.lua). Arguments go to every sbatch (e.g. --time=1:00:00 --partition=NAME).",
    "# When every job has ended (squeue -h -j IDS prints nothing), check and merge:",
    string.format("#   luajit %s status %s", q(root .. "/scripts/sweep.lua"), q(dir)),
    string.format("#   luajit %s merge %s", q(root .. "/scripts/sweep.lua"), q(dir)),
    "set -e",
    "ids=",
  }
  for _, c in ipairs(M.chunks(all, max_array)) do
    lines[#lines + 1] = string.format("id=$(sbatch --parsable --array=%s \"$@\" %s %d)", c.indices, q(dir .. "/slurm.sh"), c.offset)
    lines[#lines + 1] = "ids=\"${ids:+$ids,}${id%%;*}\""
  end
  lines[#lines + 1] = "echo \"$ids\""
  return table.concat(lines, "\n") .. "\n"
end

--- Write slurm.sh, submit.sh and the logs folder into dir. Returns nil and the reason on failure.
function M.write(root, dir, m, max_array, from)
  local ok, err = F.write_atomic(dir .. "/slurm.sh", M.script(root, dir, m, max_array, from))
  if ok then ok, err = F.write_atomic(dir .. "/submit.sh", M.submit(root, dir, m, max_array)) end
  if ok then ok, err = F.mkdir_p(dir .. "/logs") end
  return ok, err
end

-- a shell's exit status from os.execute (LuaJIT: the raw wait status)
local function status_of(a, b, c)
  if type(a) == "number" then
    if a % 256 ~= 0 then return 128 + a % 128 end
    return math.floor(a / 256)
  end
  if b == "signal" then return 128 + (c or 0) end
  return c or (a and 0 or 1)
end

--- `sweep.lua task DIR K`: run point K's command (line K of DIR/commands.txt) with its output in
-- DIR/logs/NNNN.log, and end with its exit status; a missing or empty line, or a command that
-- exits 0 without leaving the point done, fails (exit status 1) with a line saying so.
function M.task(dir, kword, die)
  local m = MAN.read(dir, die, true, "task")
  local k = kword and kword:match("^%d+$") and tonumber(kword)
  if not k or k < 1 or k > m.shards then
    die(string.format("task: no point '%s' in this sweep (1-%d): the array index plus the offset is beyond it", tostring(kword), m.shards))
  end
  local text = F.read(dir .. "/commands.txt")
  if not text then die("task: cannot read " .. dir .. "/commands.txt") end
  local n, line = 0, nil
  for l in text:gmatch("([^\n]*)\n") do
    n = n + 1
    if n == k then line = l; break end
  end
  if not line or not line:match("%S") then
    die(string.format("task: %s/commands.txt has no command for point %d (%d lines): emit the sweep again", dir, k, n))
  end
  local okd, derr = F.mkdir_p(dir .. "/logs")
  if not okd then die("task: " .. derr) end
  local log = dir .. "/logs/" .. MAN.shard_name(k) .. ".log"
  local host = (F.read("/proc/sys/kernel/hostname") or "?"):gsub("%s+$", "")
  local job = os.getenv("SLURM_ARRAY_JOB_ID") and string.format(", Slurm job %s_%s", os.getenv("SLURM_ARRAY_JOB_ID"),
                                                                   os.getenv("SLURM_ARRAY_TASK_ID") or "?") or ""
  local ok, err = F.write_atomic(log, string.format("# sweep task: %s on %s%s, started %s\n# %s\n", MAN.label(m, k), host, job,
                                                    os.date("!%Y-%m-%dT%H:%M:%SZ"), line))
  if not ok then die("task: " .. err) end
  local st = status_of(os.execute(string.format("sh -c %s >>%s 2>&1 </dev/null", q(line), q(log))))
  local note
  if st == 0 then
    local s, why = MAN.state(dir, m, k, true)
    if s ~= "done" then st, note = 1, string.format("exited 0 but the point is not done (%s)", why or s) end
  end
  local f = io.open(log, "ab")
  if f then
    if note then f:write("# sweep task: " .. note .. "\n") end
    f:write(MAN.log_end(k, st))
    f:close()
  end
  io.stderr:write(string.format("sweep task: %s: %s (%s)\n", MAN.label(m, k), st == 0 and "done" or
                                ("failed: " .. (note or ("exit status " .. st))), log))
  os.exit(st)
end

return M
