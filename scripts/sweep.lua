-- sweep.lua -- a sweep as independent commands, one per point: emit them, run them here (the
-- built-in runner, or GNU parallel), on a Slurm cluster or over ssh, then merge the shards into
-- the files a single run writes.
--
--   luajit scripts/sweep.lua emit ID DIR --over key=v1,v2,... [--over key2=...] [key=value ...] [--quick] [--force] [--max-array N]
--       one command per point of the product of the --over lists (the first --over outermost),
--       each `cd ROOT && LUA_PATH=ROOT/lib/lua/?.lua;... KZ_QUIET=1 KZ_CELLS_RECORD=1 luajit
--       scenarios/ID.lua --out DIR/shards/NNNN key=v ...` with absolute paths and every argument
--       single-quoted; printed, and written to DIR/commands.txt with a manifest DIR/sweep.txt
--       (lib/lua/kapitza/sweep/manifest.lua), the Slurm batch script DIR/slurm.sh and its
--       submission DIR/submit.sh (job arrays of at most MaxArraySize - 1 tasks: the cluster's, from
--       `scontrol show config`, else --max-array N, else Slurm's default 1001;
--       lib/lua/kapitza/sweep/batch.lua), and the folder DIR/logs. ID is the id of a scenario
--       (scenarios/ID.lua) or a path to a .lua scenario file anywhere (LUA_PATH finds the library
--       for it). Every point is checked before anything is written, by the scenario's own parser
--       (keys, values, ranges, the work estimate): a bad key or value, a key or value given twice,
--       or a DIR that holds an earlier sweep's shards is one line on stderr, exit status 2, nothing
--       written. KZ_CELLS_RECORD=1 makes each point also record its compute cells
--       (lib/lua/kapitza/scenario/cells.lua) in DIR/shards/NNNN/cells/, for merge.
--   luajit scripts/sweep.lua run DIR [-j N] [--points 2,5,7-9]
--       runs DIR/commands.txt here (or only the points listed), N at a time (default: the number
--       of cores): with GNU parallel when it is installed (`parallel -j N --joblog ...`, no --halt),
--       otherwise with the built-in runner (lib/lua/kapitza/sweep/pool.lua); KZ_SWEEP_RUNNER=builtin
--       or =parallel chooses. A point that fails does not stop the others: every point runs, the
--       failed ones (and any that did not run) are listed at the end, and the exit status is 1 if
--       any failed or did not run. SIGTERM, SIGINT or SIGHUP stops the sweep: the running points
--       get the signal (their process groups), no new point starts, the exit status is 128 + the
--       signal number.
--   luajit scripts/sweep.lua task DIR K
--       what a Slurm array task runs (DIR/slurm.sh): line K of DIR/commands.txt, its output in
--       DIR/logs/NNNN.log ending with its exit status; a line that is missing or empty, or a
--       command that exits 0 without leaving its point done, fails with a line saying so.
--   luajit scripts/sweep.lua status DIR
--       every point done, failed, unfinished (running, or killed: cancelled, out of time), missing
--       (not run) or unreadable, from DIR/shards and DIR/logs; for the gaps, the `--array=` lists
--       and sbatch lines that rerun them, and the `run --points` line that reruns them here. Exit
--       status 0 when every point is done, 1 otherwise.
--   luajit scripts/sweep.lua merge DIR
--       the shards into DIR/data, DIR/tables, DIR/figures (lib/lua/kapitza/sweep/merge.lua): when a
--       point is not done, every such point is listed with the lines that rerun it and nothing is
--       merged (exit status 2). A sweep over list parameters of a scenario that records compute
--       cells is merged by running the scenario once with each swept key given its swept values
--       as a list, every cell served from the shards: data, tables (.tsv, .md), claims and
--       figure are byte for byte a single run's. Otherwise (a scalar key swept: no single run has
--       several of its values; a scenario without cells) the TSV files are joined in point order
--       and every claim re-judged across the points, with the premise stated; figures and Markdown
--       that combine the points are listed as not merged (each point's own stay in its shard). A
--       shard that holds files of another scenario, a shard directory that is not part of this
--       sweep, or a damaged sweep.txt is refused in one line.
--   luajit scripts/sweep.lua ensemble MODEL.lua DIR --over key=v1,v2,... [--over key2=...] [method=NAME]
--                                 [knobs] [observers] [key=value ...] [plot=NAME|none] [--lua] [--threads N] [--force]
--                                 [--shards N [--max-array N]]
--       not a scenario but a model file (lib/lua/kapitza/modelfile.lua): the product of the --over
--       lists (the first outermost, the point order of emit) over its parameters and initial state
--       (q0, v0 for one degree of freedom; q0_<i>, v0_<i>, y0_<i> one component for more) runs as
--       ONE ensemble call (lib/lua/kapitza/ensemble.lua), vectorised over the points and split over N
--       threads (default: the cores), into DIR/data/sweep-<model>.tsv: per point the swept values,
--       the state at T, a status (ok, failed:start, failed:bound, failed:crash, stopped) and the
--       evaluations per member; comments say the model, method, knobs, vector width and threads.
--       method=rk4 (default) or another explicit stepper with n=steps to T or h=step; method=hmm
--       (HMM-V, omega not swept) or method=sam with N macro steps and n micro-steps per fast
--       period. The other key=value are the model's overrides, except the observers recorded in
--       the call per point, a column each (max=q1,v2; cross=q1:LEVEL[:abs][:down][:stop];
--       final=INVARIANT; samples=all|q1,... into DIR/data/sweep-<model>-samples.tsv, one call
--       only; every=K steps between checks; the C path only; plot=max_q1 draws one). A model run
--       with its Lua functions (--lua, or no C source) cannot be vectorised: its points run one by
--       one in this process through the scalar API (said on stderr), into the same file. Then,
--       from that file, gnuplot draws
--       DIR/figures/sweep-<model>.svg (lib/lua/kapitza/sweep/figure.lua): for one swept key the
--       state at T against it (figures/sweep-line.gp), for two a heat map of one component
--       (figures/sweep-grid.gp; plot=NAME chooses the state column, default q, q1 or y1), for
--       three or more none (said on stderr); plot=none draws none. Without gnuplot the figure is
--       skipped (said); a gnuplot that fails is one line and exit status 1, the data kept.
--       The call runs in a child process: a point whose model code crashes the process (SIGSEGV)
--       is found by halving and gets failed:crash, the other points their states.
--       With --shards N nothing runs: the grid's points are cut into N contiguous ranges and N
--       commands written into DIR as by emit (commands.txt, sweep.txt, slurm.sh, submit.sh),
--       each the same call over its range into DIR/shards/NNNN; `merge DIR` joins them into the
--       file and figure the one call writes, byte for byte, header included
--       (lib/lua/kapitza/sweep/ensemble_shards.lua).
--       Bad input: one line on stderr, exit 2, nothing written; so is a grid of more than 1e6
--       points in one call (--shards names how many it needs), or a run whose estimated work
--       (points x each member's force evaluations, plus reading each point) is beyond KZ_MAX_WORK
--       (the scenarios' limit, default 2e10) unless --force. lib/lua/kapitza/sweep/ensemble.lua has
--       the details. Measured on 2 cores: a 20 x 20 grid of a 1-dof vibrated pendulum, RK4 with
--       4000 steps each: ensemble 0.04 s wall (the call itself 0.011 s; the first point's model is
--       built, the others' data read without building one), emit + run -j 2 + merge 8.1-8.6 s (one
--       luajit process per point); a 200 x 200 grid as one call 3.0 s (1.3 s in the call; 110 s
--       when every point built its model with its trial calls in a child process).
--   emit, given a model file, refuses in one line and names `ensemble`. A scenario that takes a
--   list for a key may already run it as one ensemble: scenarios/ex-kapitza-map.lua takes its
--   grid as n_amp x n_freq (a_max, w_min, w_max) and runs every frequency as one ensemble call over
--   the amplitudes, split over threads=N; give it the whole grid in one run rather than sweeping
--   shards over its keys.
--
-- The same commands.txt runs
--   * on a Slurm cluster through the written batch script (this checkout, built, at the same path
--     on every node, luajit on the PATH, DIR on a file system the nodes share):
--       sh DIR/submit.sh                 # the job ids; sbatch options as arguments
--       squeue -h -j ID1,ID2             # nothing printed: every task has ended
--       luajit scripts/sweep.lua status DIR; luajit scripts/sweep.lua merge DIR
--   * over ssh hosts with GNU parallel (the repository, built, at the same path on every host, and
--     DIR shared, e.g. NFS):
--       parallel --sshlogin 8/host1,8/host2 :::: DIR/commands.txt
--     without a shared DIR, add --return and --cleanup per shard, or rsync DIR/shards back.
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
if root:sub(1, 1) ~= "/" then root = (os.getenv("PWD") or ".") .. "/" .. root end
root = root:gsub("/%./", "/"):gsub("/%.$", "")
package.path = root .. "/lib/lua/?.lua;" .. package.path
local F = require "kapitza.files"
local Pool = require "kapitza.sweep.pool"
local MAN = require "kapitza.sweep.manifest"

local function oneline(s) return (tostring(s):gsub("%c", "?")) end
local function die(msg) io.stderr:write("sweep: " .. oneline(msg) .. "\n"); os.exit(2) end
local function abs(p)
  if p:sub(1, 1) == "/" then return p end
  return (os.getenv("PWD") or ".") .. "/" .. p
end
local shard_name = MAN.shard_name

---------------------------------------------------------------------------------------------------
-- run
---------------------------------------------------------------------------------------------------

local function run()
  local dir = arg[2] and not arg[2]:match("^%-") and abs(arg[2])
  local jobs = Pool.cores()
  local only
  local i = 3
  while arg[i] do
    if arg[i] == "-j" and arg[i + 1] and arg[i + 1]:match("^%d+$") and tonumber(arg[i + 1]) >= 1 then
      jobs = tonumber(arg[i + 1])
      i = i + 2
    elseif arg[i] == "--points" and arg[i + 1] and not only then
      only = arg[i + 1]
      i = i + 2
    else
      die("usage: sweep.lua run DIR [-j N] [--points 2,5,7-9] (N a whole number >= 1; unknown argument '" .. arg[i] .. "')")
    end
  end
  local text = dir and F.read(dir .. "/commands.txt")
  if not text then die("usage: sweep.lua run DIR [-j N] (DIR/commands.txt from emit)") end
  local all = {}
  for l in text:gmatch("[^\n]+") do all[#all + 1] = l end
  if #all == 0 then die(dir .. "/commands.txt holds no commands") end
  local m = MAN.read(dir, die, false)
  local function label(k)
    return m and MAN.label(m, k) or ("point " .. shard_name(k))
  end
  -- the points to run: all, or those of --points (k: the index into lines, ids[k] the point)
  local ids, lines = {}, {}
  if only then
    local ks, why = MAN.parse_ranges(only, #all)
    if not ks then die("--points: " .. why) end
    for _, k in ipairs(ks) do ids[#ids + 1] = k; lines[#lines + 1] = all[k] end
  else
    for k, l in ipairs(all) do ids[k] = k; lines[k] = l end
  end
  local label_at = label
  label = function(k) return label_at(ids[k]) end
  local runner = os.getenv("KZ_SWEEP_RUNNER") or ""
  if runner == "xargs" then runner = "builtin" end -- (the former name of the fallback)
  if runner == "" then runner = Pool.in_path("parallel") and "parallel" or "builtin" end
  if runner ~= "builtin" and runner ~= "parallel" then die("KZ_SWEEP_RUNNER='" .. runner .. "': use builtin or parallel") end
  io.stderr:write(string.format("sweep: %d points, %d at a time (%s)\n", #lines, jobs,
                                runner == "parallel" and "GNU parallel" or "built-in runner"))
  local function on_done(k, r)
    if not (r.status == 0) then io.stderr:write(string.format("sweep: %s failed: %s\n", label(k), Pool.describe(r))) end
  end
  local results, stop
  if runner == "builtin" then
    local cmds = {}
    for k, l in ipairs(lines) do cmds[k] = { "sh", "-c", l } end
    results, stop = Pool.run(cmds, jobs, on_done)
  else
    -- no --halt: a failing point does not stop the others; the job log says which failed; a
    -- signal gives the running points 2 s to clean up (their staging folders) before SIGKILL
    local log = string.format("%s/.sweep-joblog-%d", dir, Pool.pid())
    os.remove(log)
    local input = dir .. "/commands.txt"
    if only then
      input = string.format("%s/.sweep-points-%d", dir, Pool.pid())
      local okw, werr = F.write_atomic(input, table.concat(lines, "\n") .. "\n")
      if not okw then die(werr) end
    end
    local r
    r, stop = Pool.run({ { "parallel", "--will-cite", "-j", tostring(jobs), "--termseq", "TERM,2000,KILL,25",
                          "--joblog", log, "::::", input } }, 1)
    if only then os.remove(input) end
    results = {}
    local jl = F.read(log)
    os.remove(log)
    if not jl then die("GNU parallel did not run (" .. Pool.describe(r[1]) .. "); KZ_SWEEP_RUNNER=builtin avoids it") end
    if not stop and r[1] and r[1].status ~= 0 then
      io.stderr:write(string.format("sweep: GNU parallel ended with %s\n", Pool.describe(r[1])))
    end
    for line in jl:gmatch("[^\n]+") do
      local c = {}
      for x in (line .. "\t"):gmatch("([^\t]*)\t") do c[#c + 1] = x end
      local seq, ev, sig = tonumber(c[1]), tonumber(c[7]), tonumber(c[8])
      if seq and ev and sig then
        results[seq] = sig ~= 0 and { signal = sig } or { status = ev }
        on_done(seq, results[seq])
      end
    end
    for k = 1, #lines do results[k] = results[k] or { not_run = true } end
  end
  local done, failed, notrun = 0, {}, 0
  for k, r in ipairs(results) do
    if r.status == 0 then done = done + 1
    elseif r.not_run then notrun = notrun + 1
    else failed[#failed + 1] = shard_name(ids[k]) end
  end
  io.stderr:write(string.format("sweep: %d points: %d done, %d failed%s, %d %s%s\n", #lines, done, #failed,
                                #failed > 0 and (" (" .. table.concat(failed, ", ") .. ")") or "", notrun,
                                (stop and runner == "parallel") and "stopped or not run" or "not run",
                                stop and string.format(" (stopped by signal %d)", stop) or ""))
  if stop then os.exit(128 + stop) end
  -- a point that did not run (GNU parallel could not start it: a full disk, no shell) is no success
  os.exit((#failed > 0 or notrun > 0) and 1 or 0)
end

---------------------------------------------------------------------------------------------------
-- status
---------------------------------------------------------------------------------------------------

local function status()
  local dir = arg[2] and not arg[2]:match("^%-") and abs(arg[2])
  if not dir or arg[3] then die("usage: sweep.lua status DIR") end
  local m = MAN.read(dir, die, true, "status")
  local MG = require "kapitza.sweep.merge"
  local st = MAN.states(dir, m)
  local what = m.kind == "ensemble" and "shards" or "points"
  io.stdout:write(string.format("%s: %d %s of %s: %d done, %d failed, %d unfinished, %d missing, %d unreadable\n", dir, m.shards,
                                what, m.id, #st.done, #st.failed, #st.unfinished, #st.missing, #st.unreadable))
  local lines, bad = MG.gaps(m.root or root, dir, m, st)
  if not lines then
    io.stdout:write("every " .. (m.kind == "ensemble" and "shard" or "point") .. " is done: luajit " ..
                    require("kapitza.sweep.batch").q(root .. "/scripts/sweep.lua") .. " merge " .. require("kapitza.sweep.batch").q(dir) .. "\n")
    os.exit(0)
  end
  for _, l in ipairs(lines) do io.stdout:write(l, "\n") end
  io.stdout:write("rerun the gaps (once the running ones have ended: unfinished may still be running):\n")
  for _, l in ipairs(MG.rerun_lines(m.root or root, dir, bad)) do io.stdout:write("  ", l, "\n") end
  os.exit(1)
end

-- a file size limit: an error in one line, not a death by SIGXFSZ half-way through writing
F.no_sigxfsz()
-- SIGINT, SIGTERM and SIGHUP end the command at once and quietly (status 128 + n), inside a long C
-- call too, not with LuaJIT's "interrupted!" and a traceback; run and merge block them while their
-- commands run and pass them on (lib/lua/kapitza/sweep/pool.lua)
pcall(function() require("kapitza").C.kz_runner_guard(nil, nil) end)

local verb = arg[1]
local rest = { select(2, unpack(arg)) }
if verb == "emit" then require("kapitza.sweep.emit").main(root, rest, die, abs)
elseif verb == "run" then run()
elseif verb == "status" then status()
elseif verb == "task" then
  if not arg[2] or not arg[3] or arg[4] then die("usage: sweep.lua task DIR K (what DIR/slurm.sh runs for point K)") end
  require("kapitza.sweep.batch").task(abs(arg[2]), arg[3], die)
elseif verb == "merge" then require("kapitza.sweep.merge").main(root, rest, die, abs)
elseif verb == "ensemble" then require("kapitza.sweep.ensemble").main(rest, die, abs, root)
else die("usage: sweep.lua emit|run|status|merge|task|ensemble ... (see the comment at the top of scripts/sweep.lua)") end
