-- cli_common.lua -- what the verbs of the `kapitza` command (lib/lua/kapitza/cli.lua) share: the
-- usage texts, the one-line error and exit, and reading a verb's arguments and model file.
local M = {}

local function out(s) io.stdout:write(s, "\n") end

-- Any value as text, never raising (an error object whose __tostring fails: described).
local function text(v)
  if type(v) == "string" then return v end
  local ok, s = pcall(tostring, v)
  if ok and type(s) == "string" then return s end
  return string.format("(a %s whose __tostring %s)", type(v), ok and "returned no string" or "failed")
end

local function die(verb, msg, code)
  io.stderr:write(string.format("kapitza%s: %s\n", verb and (" " .. verb) or "", (text(msg):gsub("\n.*", ""))))
  os.exit(code or 2)
end

--- Stop on an error raised by the library or a setup: one line "kapitza VERB: ...". A refusal --
-- the library's (a C status through a binding, "kz_...: ...", or a binding's own "hmm.run: ...")
-- or a deliberate one-line error (raised without a position) -- is the answer to this input: exit
-- 2, the message without the Lua position. Anything else (a position: a bug) exits 1 as it is.
function M.fail(verb, err)
  local msg = text(err):gsub("\n.*", "")
  local lib = msg:match("^[^:]*%.lua:%d+: (kz_.*)$") or msg:match("^(kz_.*)$")
              or msg:match("^[^:]*/lib/[%w_/]+%.lua:%d+: ([%w_]+%.[%w_]+: .*)$")
  if lib then die(verb, lib, 2) end
  die(verb, msg, msg:match("^[^:]*%.lua:%d+: ") and 1 or 2)
end

--- Refuse (one line "kapitza VERB: ...", exit 2, before anything runs) a run whose estimated work w
-- (force evaluations; `what` says how it is counted) is beyond the work limit (KZ_MAX_WORK, the
-- scenarios' default), unless force (--force).
function M.check_work(verb, w, what, force)
  local S = require "kapitza.scenario"
  local limit, err = S.work_limit()
  if not limit then die(verb, err) end
  if not (w <= limit) and not force then
    die(verb, string.format("the run would take about %.2g force evaluations (%s; limit %.2g, KZ_MAX_WORK; about %.2g min " ..
                            "at 20 ns each): shorten T, lower the fast frequency or the knobs, or pass --force", w, what, limit,
                            w * 20e-9 / 60))
  end
end

M.usage = {
  main = [[
usage: kapitza VERB ... (kapitza VERB --help for each)
  run FILE.lua [--out DIR] [--quick] [key=value ...]   run a scenario file (anywhere on disk)
  check MODEL.lua [--lua] [key=value ...]              load a model file: parts, derivatives, time scales,
                                                       the methods that apply and why the others do not
  solve MODEL.lua method=NAME [knob=value ...]         one run of one method (the atlas's names and knobs)
  atlas MODEL.lua --out DIR [tol=...] [key=value ...]  every applicable method: error against work and
                                                       CPU seconds, the cheapest configuration per tolerance;
                                                       key=v1,v2,...: over a parameter, the work's growth
                                                       (lib/models/<name>.lua: the paper's atlas)
  sweep emit|run|status|merge ...                      a sweep as independent commands (scripts/sweep.lua)
  sweep ensemble MODEL.lua DIR --over key=v1,v2 ...    a model's grid as one ensemble call
A model file is a Lua file returning a model spec (lib/lua/kapitza/usermodel.lua, lib/lua/kapitza/modelfile.lua);
paper/own-model.md takes one through every verb.]],
  run = [[
usage: kapitza run FILE.lua [--out DIR] [--quick] [--force] [--help] [key=value ...]
Runs the scenario FILE.lua (a Lua script using lib/lua/kapitza/scenario.lua) from any directory, with the
library's modules on its path; its figure scripts are looked up beside it first, then in the
library's figures/. The arguments go to the scenario (its own --help lists its keys).
The scenarios of the repository run the same way as with luajit scenarios/<id>.lua.]],
  check = [[
usage: kapitza check MODEL.lua [--lua] [timeout=SECONDS] [key=value ...]
Loads the model file (its values, initial state and T, then the key=value overrides: parameters,
T, q0, v0 (p0 for a vmi model), y0 as comma lists), builds the model (its C functions, compiled
on first use; --lua: its Lua functions), and prints: the form; the parts it declares (flows,
constraints, slow sets, the vmi split, invariants with their values at y0); the derivatives the
parts need, given (checked against central differences at y0) or formed by the library; checks
of its functions at y0 (finite, the C and Lua twins agree, the averaged force against the HMM's
estimate); the fast period (2 pi/omega, the spec's period, or estimated) and the slow scale tau
from a short reference run; the methods by family (lib/lua/kapitza/capability.lua): yes, or why not in one
line (one set of family names: direct, HMM, SAM, LISP, MR, VMI, as in the atlas and method=list);
the names kapitza atlas runs (and kapitza solve takes). Exit status: 0; 2 when the model does
not load (a given derivative that disagrees with central differences at the file's own initial
state is such a refusal); 1 when it loads but a given derivative disagrees at an initial state
given on the command line, or its C and Lua functions differ.
  timeout=SECONDS  the limit on one call of the model's code (default 60, or KZ_MODEL_TIMEOUT;
                   0: none): a call that does not return within it ends the command, exit 2]],
  solve = [[
usage: kapitza solve MODEL.lua method=NAME [knob=value ...] [--error] [--lua] [--force] [timeout=SECONDS] [key=value ...]
One run of one method of the atlas on the model, with its knobs (the `params` column of the
atlas, e.g. method=SAM-rk4/rk4 N=16 n=32, method=HMM-V N=64 n=32, method=rk4 n=64): prints the
state at T (rounded to whole fast periods, as in the atlas), the force evaluations and the CPU
seconds. --error also computes the atlas's reference and prints the error against it.
method=list prints the methods, their knobs in words and what each is. A method that does not
apply to the model is refused with the reason (the part the model lacks). A run whose estimated
work is beyond the limit (KZ_MAX_WORK, default 2e10 force evaluations) is refused before it
starts; --force runs it. T is rounded to K whole fast periods. The knobs, by family:
  direct  n   steps per fast period (h = period/n; n K steps to T)
  HMM     N   macro steps over T (H = T/N, whole periods)
          n   micro-steps per fast period in each force estimate
  SAM     N   macro steps over T (H = T/N);  n  micro-steps per fast period
          tol (SAM-ode45/...) the macro controller's tolerance, rtol = atol, instead of N
  LISP    N   macro steps over T (H = T/N);  n  micro-steps per fast period
  MR      N   macro steps over T, each of K/N > 4 whole periods;  n  micro-steps per fast period
  VMI     N   macro steps over T (dT = T/N)
          p   micro-steps of the fast part per macro step (dT/p should resolve the fast period)
  peers   tol the integrator's tolerance (rtol = atol)
Counts are whole numbers up to 2147483647. timeout=SECONDS: the limit on one call of the
model's code (default 60, or KZ_MODEL_TIMEOUT; 0: none).]],
  atlas = [[
usage: kapitza atlas MODEL.lua --out DIR [--quick] [--lua] [tol=t1,t2,...] [methods=a,b,...]
                     [refmax=M] [reps=R] [budget=S] [timeout=SECONDS] [--force] [key=value ...]
Every method family the model allows, over ladders cut from its fast period and slow scale, the
peers when built, against a reference whose accuracy is estimated (RK4, Richardson): error
against force evaluations and against CPU seconds. Writes DIR/data/atlas-<model>.tsv (every
run), DIR/tables/atlas-<model>-best.{tsv,md} (the cheapest configuration per tolerance, by
evaluations and by seconds, as key=value to paste after `kapitza solve`), and
DIR/figures/atlas-<model>.svg. Progress on stderr.
  tol      target tolerances (default 1e-2,1e-4,1e-6): error = norm of the positions' error at T
  methods  only these methods (names as in the table)
  refmax   the reference's largest number of RK4 steps per period (default 1024)
  reps     timed repetitions per run (default 3; --quick: 1); budget: a ladder stops after a run
           over this many seconds (default 3)
  --quick  short ladders and fewer variants (seconds, for tests)
  --force  run even when the estimated work (the reference and the direct steppers, like the
           number of fast periods T/period) is beyond the limit (KZ_MAX_WORK, default 2e10)
  timeout  the limit on one call of the model's code in seconds (default 60, or KZ_MODEL_TIMEOUT;
           0: none): a call that does not return within it ends the run, exit 2, nothing written
The knobs of each method are those of kapitza solve (its --help, method=list). The runs that do
not finish are summed up on stderr by method and cause; when no run of a family finishes, the
outputs are written and the exit status is 1.
Other keys are the model's (parameters, T, q0, v0, y0).
A comma list for one model parameter (omega=1e3,1e4,1e5) sweeps it: the atlas at each value (its
own reference, period and ladders; the methods keep their names), the runs value by value (data:
leading columns key, value), the cheapest configuration per value and tolerance, and
DIR/tables/atlas-<model>-scaling.{tsv,md}: each method's work to reach each tolerance at each
value and the exponent p of work ~ value^p (p ~ 0: flat, p ~ 1: like the value); figures: one
panel per value, and DIR/figures/atlas-<model>-scaling.svg. One list at a time, no value twice.
A papers' model file of the library (lib/models/<name>.lua, which names its problem: atlas = "<name>")
runs its paper atlas instead, exactly scenarios/atlas-<name>.lua (its stiffness list, target=,
methods=, its own keys, its claims; force evaluations only, the same bytes): kapitza atlas
lib/models/pendulum.lua --help lists them. A copy elsewhere gets the atlas above.]],
  sweep = [[
usage: kapitza sweep emit SCENARIO DIR --over key=v1,v2 ... [key=value ...] [--max-array N]
       kapitza sweep run DIR [-j N] [--points 2,5,7-9]
       kapitza sweep status DIR
       kapitza sweep merge DIR
       kapitza sweep task DIR K
       kapitza sweep ensemble MODEL.lua DIR --over key=v1,v2 ... [method=NAME] [knobs] [key=value ...]
                              [observers] [plot=NAME|none] [--lua] [--threads N] [--force] [--shards N]
A sweep of a scenario as independent commands, one per point (scripts/sweep.lua, whose header
says more): emit writes DIR/commands.txt and, for Slurm, DIR/slurm.sh (a job-array batch script)
and DIR/submit.sh (arrays below the cluster's MaxArraySize); run runs the commands here (GNU
parallel or the built-in runner); status lists the points done, failed, unfinished and missing
and the lines that rerun the gaps; task K is what an array task runs (point K, logged in
DIR/logs); merge gives the files of one run with the swept lists (the scenario replays the
points' compute cells), or joins the points' files where no single run exists.
ensemble runs the grid of a model file (the product of the --over lists, the first outermost,
over its parameters and initial state: q0, v0 for one degree of freedom, q0_<i>, v0_<i>, y0_<i>
for more) as ONE ensemble call, vectorised and split over --threads (default: the cores), and
writes DIR/data/sweep-<model>.tsv: per point the swept values, the state at T, status, evaluations.
  method=rk4 (or euler, symeuler, verlet, leapfrog, dp5, ve)  n=steps to T, or h=step
  method=hmm   N macro steps (H = T/N), n micro-steps per fast period (HMM-V; omega not swept)
  method=sam   N RK4 macro steps, n RK4 micro-steps per fast period (one fast period for all)
Observers, recorded in the call per point (a column each; C source only):
  max=q1[,v2]  the largest |component|     cross=q1:LEVEL[:abs][:down][:stop]  the first time beyond
  final=NAME   the model's invariant at the end   samples=all|q1,..  DIR/data/sweep-<model>-samples.tsv
  every=K      check every K steps (macro nodes for hmm, macro steps for sam), default 1
Other keys are the model's (parameters, T, q0, v0, y0). A model run with its Lua functions
(--lua, or no C source) does not vectorise: its points run one by one, said on stderr.
The figure DIR/figures/sweep-<model>.svg (gnuplot, after the data): one swept key, the state at T
against it; two, a heat map of one column (plot=NAME: a state or observer column, default q, q1 or y1);
three or more, none. plot=none draws none; without gnuplot it is skipped, said on stderr.
A grid of more than 1e6 points, or a run beyond the work limit (KZ_MAX_WORK, default 2e10 force
evaluations) is refused in one line before anything runs; --force runs past the work limit.
--shards N runs nothing: it writes N commands over contiguous ranges of the grid, as emit does;
merge joins their files into the one call's file and figure.]],
}

local function help_wanted(argv, i)
  for k = i, #argv do if argv[k] == "--help" or argv[k] == "-h" then return true end end
  return false
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function fmt_list(t, f)
  local s = {}
  for i, v in ipairs(t) do s[i] = string.format(f or "%.6g", v) end
  return table.concat(s, ", ")
end

-- Split argv[i..] into flags (a set), --out DIR, model/atlas key=value strings; anything else is
-- an error. `flags` lists the flags the verb accepts.
local function split_args(verb, argv, i, flags, want_out)
  local o = { flags = {}, kv = {} }
  while argv[i] do
    local a = argv[i]
    if (a == "--out" or a:match("^%-%-out=")) and want_out then
      if o.out then die(verb, "--out is given twice") end -- one output directory, as a key once
      if a == "--out" then
        if not argv[i + 1] or argv[i + 1] == "" then die(verb, "--out needs a directory") end
        o.out = argv[i + 1]
        i = i + 1
      else
        o.out = a:sub(7)
      end
    elseif flags[a] then
      o.flags[a] = true
    elseif a:match("^[%a_][%w_]*=") then
      o.kv[#o.kv + 1] = a
    else
      die(verb, string.format("unknown argument '%s' (see kapitza %s --help)", a, verb))
    end
    i = i + 1
  end
  return o
end

-- Take the keys in `own` out of a key=value list: returns own values (strings) and the rest.
local function take(verb, kv, own)
  local mine, rest = {}, {}
  for _, a in ipairs(kv) do
    local k, v = a:match("^([%a_][%w_]*)=(.*)$")
    if own[k] then
      if mine[k] then die(verb, string.format("%s is given twice", k)) end
      if v == "" then die(verb, string.format("%s has no value", k)) end
      mine[k] = v
    else
      rest[#rest + 1] = a
    end
  end
  return mine, rest
end

local function load_model(verb, path, kv, lua, own)
  local MF = require "kapitza.modelfile"
  local ok, mf = pcall(MF.load, path, kv, { how = lua and "lua" or nil })
  if not ok then die(verb, mf) end
  for k in pairs(own or {}) do
    for _, p in ipairs(mf.spec.params) do
      if p == k then die(verb, string.format("the model's parameter '%s' has the name of one of this command's keys; rename it", k)) end
    end
  end
  return mf
end

--- Take timeout=SECONDS out of a key=value list and set the wall-clock limit on one call of the
-- model's code (lib/lua/kapitza/usermodel/watch.lua; before the model loads: its trial calls take it
-- too). Returns the rest of the list.
local function timeout(verb, kv)
  local mine, rest = take(verb, kv, { timeout = true })
  if mine.timeout then
    local ok, err = require("kapitza.usermodel.watch").set(mine.timeout, "timeout")
    if not ok then die(verb, err) end
  end
  return rest
end

M.out, M.die, M.help_wanted, M.exists, M.fmt_list, M.timeout, M.text = out, die, help_wanted, exists, fmt_list, timeout, text
M.split_args, M.take, M.load_model = split_args, take, load_model

return M
