-- cli.lua -- the `kapitza` command (bin/kapitza finds the library and calls M.main(arg)):
--   kapitza run FILE.lua [--out DIR] [key=value ...]     a scenario, anywhere on disk
--   kapitza check MODEL.lua [--lua] [key=value ...]      load a model file, check it, time scales, methods
--   kapitza solve MODEL.lua method=NAME [knob=v ...] [--error] [--lua] [key=value ...]   one run
--   kapitza atlas MODEL.lua --out DIR [--quick] [tol=...] [T=...] [key=value ...]        the atlas
--   kapitza sweep emit|run|merge ...                     sweeps (scripts/sweep.lua)
-- Bad input: one line "kapitza VERB: message" on stderr, exit status 2, nothing written.
local M = {}

local function out(s) io.stdout:write(s, "\n") end

local function die(verb, msg, code)
  io.stderr:write(string.format("kapitza%s: %s\n", verb and (" " .. verb) or "", tostring(msg):gsub("\n.*", "")))
  os.exit(code or 2)
end

M.usage = {
  main = [[
usage: kapitza VERB ... (kapitza VERB --help for each)
  run FILE.lua [--out DIR] [--quick] [key=value ...]   run a scenario file (anywhere on disk)
  check MODEL.lua [--lua] [key=value ...]              load a model file: parts, derivatives, time scales,
                                                       the methods that apply and why the others do not
  solve MODEL.lua method=NAME [knob=value ...]         one run of one method (the atlas's names and knobs)
  atlas MODEL.lua --out DIR [tol=...] [key=value ...]  every applicable method: error against work and
                                                       CPU seconds, the cheapest configuration per tolerance
  sweep emit|run|merge ...                             a sweep as independent commands (scripts/sweep.lua)
A model file is a Lua file returning a model spec (lib/lua/usermodel.lua, lib/experiment/modelfile.lua);
paper/own-model.md takes one through every verb.]],
  run = [[
usage: kapitza run FILE.lua [--out DIR] [--quick] [--force] [--help] [key=value ...]
Runs the scenario FILE.lua (a Lua script using lib/experiment/scenario.lua) from any directory, with the
library's modules on its path; its figure scripts are looked up beside it first, then in the
library's figures/. The arguments go to the scenario (its own --help lists its keys).
The scenarios of the repository run the same way as with luajit scenarios/<id>.lua.]],
  check = [[
usage: kapitza check MODEL.lua [--lua] [key=value ...]
Loads the model file (its values, initial state and T, then the key=value overrides: parameters,
T, q0, v0 (p0 for a vmi model), y0 as comma lists), builds the model (its C functions, compiled
on first use; --lua: its Lua functions), and prints: the form; the parts it declares (flows,
constraints, slow sets, the vmi split, invariants with their values at y0); the derivatives the
parts need, given (checked against central differences at y0) or formed by the library; checks
of its functions at y0 (finite, the C and Lua twins agree, the averaged force against the HMM's
estimate); the fast period (2 pi/omega, the spec's period, or estimated) and the slow scale tau
from a short reference run; the methods by family (lib/lua/capability.lua): yes, or why not in one
line; the names kapitza atlas runs (and kapitza solve takes). A given derivative that disagrees
at y0: exit status 1.]],
  solve = [[
usage: kapitza solve MODEL.lua method=NAME [knob=value ...] [--error] [--lua] [key=value ...]
One run of one method of the atlas on the model, with its knobs (the `params` column of the
atlas, e.g. method=SAM-rk4/rk4 N=16 n=32, method=HMM-V N=64 n=32, method=rk4 n=64): prints the
state at T (rounded to whole fast periods, as in the atlas), the force evaluations and the CPU
seconds. --error also computes the atlas's reference and prints the error against it.
method=list prints the methods and their knobs.]],
  atlas = [[
usage: kapitza atlas MODEL.lua --out DIR [--quick] [--lua] [tol=t1,t2,...] [methods=a,b,...]
                     [refmax=M] [reps=R] [budget=S] [key=value ...]
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
Other keys are the model's (parameters, T, q0, v0, y0).]],
  sweep = [[
usage: kapitza sweep emit SCENARIO DIR --over key=v1,v2 ... [key=value ...]
       kapitza sweep run DIR [-j N]
       kapitza sweep merge DIR
A sweep as independent commands, one per point (scripts/sweep.lua, whose header says more):
emit writes DIR/commands.txt, run runs it here (GNU parallel or xargs -P), merge joins the
shards' data and tables.]],
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
    if a == "--out" and want_out then
      if not argv[i + 1] or argv[i + 1] == "" then die(verb, "--out needs a directory") end
      o.out = argv[i + 1]
      i = i + 1
    elseif a:match("^%-%-out=") and want_out then
      o.out = a:sub(7)
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
  local MF = require "modelfile"
  local ok, mf = pcall(MF.load, path, kv, { how = lua and "lua" or nil })
  if not ok then die(verb, mf) end
  for k in pairs(own or {}) do
    for _, p in ipairs(mf.spec.params) do
      if p == k then die(verb, string.format("the model's parameter '%s' has the name of one of this command's keys; rename it", k)) end
    end
  end
  return mf
end

---------------------------------------------------------------------------------------------------
-- run
---------------------------------------------------------------------------------------------------

function M.run(argv)
  local file = argv[2]
  if not file or file == "--help" or file == "-h" then
    if file then out(M.usage.run); os.exit(0) end
    die("run", "give a scenario file (kapitza run --help)")
  end
  if not exists(file) then die("run", "cannot open " .. file) end
  local chunk, err = loadfile(file)
  if not chunk then die("run", "cannot load " .. tostring(err)) end
  local rest = {}
  for k = 3, #argv do rest[#rest + 1] = argv[k] end
  arg = { [0] = file } -- the scenario's own command line (lib/experiment/scenario.lua reads arg[0])
  for k, v in ipairs(rest) do arg[k] = v end
  local ok, e = pcall(chunk, unpack(rest))
  if not ok then die("run", file .. ": " .. tostring(e), 1) end
end

---------------------------------------------------------------------------------------------------
-- check
---------------------------------------------------------------------------------------------------

local function eval_force(kz, sys, dim, y0, t)
  local y, f, r = kz.vec(dim, y0), kz.vec(dim), kz.report()
  kz.call("kz_sys_eval", sys, t or 0, y, f, r)
  local t2 = {}
  for i = 1, dim do t2[i] = f[i - 1] end
  return t2
end

local function all_finite(t)
  for _, v in ipairs(t) do if not (v == v and v < math.huge and v > -math.huge) then return false end end
  return true
end

-- The parts a model declares, one line each (lib/lua/modelparts.lua built them into the model).
local function parts_lines(mf, m, spec)
  local L = {}
  local fns = spec[mf.how] or {}
  local function cname(f) return mf.how == "c" and string.format(" (C function '%s')", tostring(f)) or "" end
  if mf.vmi then
    L[#L + 1] = string.format("equations of motion: from the potentials (vmi): y = (q_s, q_f, p_s, p_f), the Hamiltonian equations of " ..
                              "K + V + W")
  else
    L[#L + 1] = string.format("equations of motion: %s%s", mf.nq > 0 and "accel" or "rhs", cname(fns[mf.nq > 0 and "accel" or "rhs"]))
  end
  if m.vib then
    L[#L + 1] = string.format("fast phase: theta = omega t + theta0, omega = %.6g, theta0 = %.6g%s", m.vib.omega, m.vib.theta0,
                              spec.even_in_theta and "; even in theta" or "")
    L[#L + 1] = fns.reconstruct and ("reconstruct: given" .. cname(fns.reconstruct)) or
                "reconstruct: none (the HMM takes the identity q = Q, v = P)"
  elseif mf.period then
    L[#L + 1] = string.format("period: %.6g (the model's; no fast phase)", mf.period)
  end
  if fns.averaged then L[#L + 1] = "averaged: given" .. cname(fns.averaged) end
  if m.sys and m.sys.flow_a ~= nil and m.sys.flow_b ~= nil then
    L[#L + 1] = string.format("flows: a and b%s", mf.how == "c" and fns.flows and
                              string.format(" (C functions '%s', '%s')", fns.flows.a, fns.flows.b) or "")
  else
    L[#L + 1] = "flows: none"
  end
  if m.con then
    local nq = m.dim / 2
    local minv = {}
    for i = 0, nq - 1 do minv[#minv + 1] = string.format("%.6g", 1 / m.con.minv[i]) end
    L[#L + 1] = string.format("constraints: m = %d on nq = %d positions, masses (%s), Newton tolerance %.3g on max |g_i|, at most %d iterations",
                              m.con.m, nq, table.concat(minv, ", "), m.con.tol, m.con.max_iter)
  else
    L[#L + 1] = "constraints: none"
  end
  if type(m.slow) == "table" and next(m.slow) then
    local names, t = {}, {}
    for k in pairs(m.slow) do names[#names + 1] = k end
    table.sort(names)
    for _, k in ipairs(names) do
      local fr = {}
      if m.slow[k].frozen ~= nil then for i = 0, m.dim - 1 do if m.slow[k].frozen[i] ~= 0 then fr[#fr + 1] = tostring(i + 1) end end end
      t[#t + 1] = string.format("%s (r = %d slow variables of %d%s)", k, m.slow[k].r, m.slow[k].dim,
                                #fr > 0 and ("; frozen components " .. table.concat(fr, ", ")) or "")
    end
    L[#L + 1] = "slow sets: " .. table.concat(t, ", ")
  else
    L[#L + 1] = "slow sets: none"
  end
  if mf.vmi then
    local vm = m.model
    local ms, mfm = {}, {}
    for i = 0, vm.ns - 1 do ms[#ms + 1] = string.format("%.6g", vm.ms[i]) end
    for i = 0, vm.nf - 1 do mfm[#mfm + 1] = string.format("%.6g", vm.mf[i]) end
    L[#L + 1] = string.format("vmi split: ns = %d slow and nf = %d fast positions, masses (%s) and (%s); potentials V%s",
                              vm.ns, vm.nf, table.concat(ms, ", "), table.concat(mfm, ", "), vm.W ~= nil and " and W" or " (W = 0)")
  else
    L[#L + 1] = "vmi split: none"
  end
  if m.invariants then
    local v = m.invariants(mf.y0)
    local t = {}
    for _, k in ipairs(m.invariant_names) do t[#t + 1] = string.format("%s = %.6g", k, v[k]) end
    L[#L + 1] = "invariants at y0: " .. table.concat(t, ", ")
  else
    L[#L + 1] = "invariants: none"
  end
  return L
end

-- The derivatives the parts need: given or formed, and modelparts.check's verdict at y0. Returns
-- the lines and the first disagreement's message (nil when none).
local function derivative_lines(mf, m)
  local parts, Dv = require "modelparts", require "derivatives"
  local L, bad = {}, nil
  local verdict = {}
  for _, r in ipairs(parts.check(m, mf.y0)) do verdict[r.part] = r end
  for _, d in ipairs(m.derivatives or {}) do
    local r = verdict[d.part]
    if d.how ~= "given" then
      L[#L + 1] = string.format("%s: formed by central differences (step eps^(1/3) max(1, |x|), about 4e-11 relative)", d.part)
    elseif not r then
      L[#L + 1] = string.format("%s: given (not checked: no initial state)", d.part)
    elseif r.ok then
      L[#L + 1] = string.format("%s: given; agrees with central differences at y0 (largest relative difference %.2g, tolerance %g)",
                                d.part, r.rel, Dv.tol)
    else
      L[#L + 1] = string.format("%s: given; DISAGREES at y0: %s", d.part, r.message)
      bad = bad or r.message
    end
  end
  if #L == 0 then L[1] = "none needed (no constraints, slow sets or vmi split)" end
  return L, bad
end

function M.check(argv)
  if help_wanted(argv, 2) then out(M.usage.check); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("check", "give a model file (kapitza check --help)") end
  local o = split_args("check", argv, 3, { ["--lua"] = true })
  local mf = load_model("check", path, o.kv, o.flags["--lua"])
  local kz = require "kapitza"
  local MF = require "modelfile"
  local AU = require "atlas_user"
  local cap = require "capability"
  local m, spec = mf.model, mf.spec
  local disagree
  local ok, e = pcall(function()
    out(string.format("model %s (%s)", mf.name, mf.path))
    local form
    if mf.vmi then
      form = string.format("mechanical split (vmi), ns + nf = %d positions (y = (q, p), dim %d)", mf.npos, mf.dim)
    elseif mf.nq > 0 then
      form = string.format("second order, nq = %d (y = (q, v), dim %d): q'' = a(%s, q)", mf.nq, mf.dim, m.vib and "theta" or "t")
    else
      form = string.format("first order, dim = %d: y' = f(%s, y)", mf.dim, m.vib and "theta" or "t")
    end
    out(string.format("  form: %s; %s functions%s", form, mf.how == "c" and "C" or "Lua",
                      m.lib_path and (" (compiled: " .. m.lib_path .. ")") or ""))
    local vals = {}
    for _, p in ipairs(spec.params) do vals[#vals + 1] = string.format("%s=%s", p, string.format("%.6g", mf.values[p] or 0)) end
    out("  parameters: " .. table.concat(vals, " "))
    if mf.npos > 0 then
      local q, v = {}, {}
      for i = 1, mf.npos do q[i], v[i] = mf.y0[i], mf.y0[mf.npos + i] end
      out(string.format("  initial state: q0 = (%s), %s = (%s); T = %.6g", fmt_list(q), mf.vmi and "p0" or "v0", fmt_list(v), mf.T))
    else
      out(string.format("  initial state: y0 = (%s); T = %.6g", fmt_list(mf.y0), mf.T))
    end
    out("parts:")
    for _, l in ipairs(parts_lines(mf, m, spec)) do out("  " .. l) end
    out("derivatives:")
    local dl
    dl, disagree = derivative_lines(mf, m)
    for _, l in ipairs(dl) do out("  " .. l) end
    -- checks of the functions at the initial state
    out("checks at the initial state:")
    local force = mf.vmi and "field" or (mf.nq > 0 and "accel" or "rhs")
    local f = eval_force(kz, m.sys, mf.dim, mf.y0, 0)
    local off = mf.nq > 0 and mf.nq or 0
    local fa = {}
    for i = off + 1, mf.dim do fa[#fa + 1] = f[i] end
    if not all_finite(f) then error(string.format("the %s at y0, t = 0 is not finite: (%s)", force, fmt_list(fa)), 0) end
    out(string.format("  %s at y0, t = 0: (%s): finite", force, fmt_list(fa)))
    if spec.c and spec.lua then
      local other = mf.how == "c" and "lua" or "c"
      local okt, twin = pcall(MF.load, path, o.kv, { how = other })
      if okt then
        local dmax, scale = 0, 0
        for _, t in ipairs { 0, 0.37 * (mf.period or 1), 0.81 * (mf.period or 1) } do
          local a, b = eval_force(kz, m.sys, mf.dim, mf.y0, t), eval_force(kz, twin.model.sys, mf.dim, mf.y0, t)
          for i = 1, mf.dim do dmax, scale = math.max(dmax, math.abs(a[i] - b[i])), math.max(scale, math.abs(a[i])) end
        end
        -- a derivative one side gives and the other forms (central differences, ~4e-11 relative)
        -- enters a vmi model's field: agreement to 1e-8 relative then, else to round-off
        local formed = {}
        for _, mm in ipairs { m, twin.model } do
          for _, d in ipairs(mm.derivatives or {}) do formed[d.part] = (formed[d.part] or 0) + (d.how == "given" and 0 or 1) end
        end
        local mixed = false
        for _, n in pairs(formed) do mixed = mixed or n == 1 end
        local tol = (mixed and mf.vmi) and 1e-8 or 1e-12
        out(string.format("  the C and Lua functions at three phases: largest difference %.2g (of %.2g)%s%s", dmax, scale,
                          dmax <= tol * math.max(1, scale) and ": they agree" or ": THEY DIFFER",
                          tol > 1e-12 and " (to 1e-8 relative: one side forms derivatives by central differences)" or ""))
      else
        out("  the " .. other .. " twin does not load: " .. tostring(twin))
      end
    end
    if m.vib and m.vib.reconstruct ~= nil and mf.nq > 0 then
      local fn = mf.how == "lua" and spec.lua and spec.lua.reconstruct or nil
      local Y, y = kz.vec(mf.dim, mf.y0), kz.vec(mf.dim)
      local theta0 = mf.values.theta0 or 0
      local st = fn and fn(m.par, theta0 + 1, Y, y) or m.vib.reconstruct(m.par, theta0 + 1, Y, y)
      if st ~= nil and st ~= 0 then error("reconstruct refused the initial state (status " .. tostring(st) .. ")", 0) end
      local t = {}
      for i = 1, mf.dim do t[i] = y[i - 1] end
      if not all_finite(t) then error(string.format("reconstruct at theta0 + 1, Y = y0 is not finite: (%s)", fmt_list(t)), 0) end
      out(string.format("  reconstruct at theta0 + 1 from Y = y0: y = (%s): finite", fmt_list(t)))
    end
    if m.averaged_force and m.vib and mf.nq > 0 and not m.con then
      local hmm = require "hmm"
      local Y = {}
      for i = 1, mf.dim do Y[i] = mf.y0[i] end
      for i = 1, mf.nq do Y[mf.nq + i] = 0 end
      local F = hmm.force(m, { preset = "ste", micro = "rk4", kernel = "uniform", eta = mf.period, h = mf.period / 64 }, 0, Y)
      local A = m.averaged_force(mf.nq == 1 and Y[1] or MF.slow_part(mf, Y))
      if type(A) == "number" then A = { A } end
      local d, s = 0, 0
      for i = 1, mf.nq do d, s = d + (A[i] - F[i]) ^ 2, s + A[i] * A[i] end
      out(string.format("  averaged force at (q0, 0): (%s); the HMM's estimate of it (RK4 micro, 64 steps per period, " ..
                        "uniform kernel over one period): (%s); relative difference %.2g (O(1/omega) expected)",
                        fmt_list(A), fmt_list(F), math.sqrt(d) / math.max(math.sqrt(s), 1e-300)))
    end
    -- time scales
    local sc = MF.scales(mf)
    out("time scales:")
    out(string.format("  fast: period = %.6g (%s)", sc.period, sc.period_source))
    out(string.format("  slow: tau = %.6g%s (half the range of the slow state over its largest rate of change, from %s at " ..
                      "whole periods over %d periods = %.6g)", sc.tau, sc.tau_bound and " or more (nothing moved)" or "",
                      sc.stepper == "herk3" and "HERK3 (the constraints kept)" or "RK4", sc.K, sc.window))
    if sc.avg_omega then
      out(string.format("  averaged equation at q0: slow angular frequency %.6g (1/Omega = %.6g)", sc.avg_omega, 1 / sc.avg_omega))
    end
    out(string.format("  separation: tau/period = %.3g", sc.tau / sc.period))
    -- methods: lib/lua/capability.lua's table, by family
    out("methods (lib/lua/capability.lua: yes, or why not), by family:")
    local rows, fams, byfam = cap.table(m), {}, {}
    for _, r in ipairs(rows) do
      if not byfam[r.family] then byfam[r.family] = {}; fams[#fams + 1] = r.family end
      local t = byfam[r.family]
      t[#t + 1] = r
    end
    local w = 0
    for _, r in ipairs(rows) do w = math.max(w, #r.method) end
    for _, fam in ipairs(fams) do
      out("  " .. fam .. ":")
      for _, r in ipairs(byfam[fam]) do
        out(string.format("    %-3s %-" .. w .. "s  %s", r.ok and "yes" or "no", r.method, r.ok and r.label or r.why))
      end
    end
    -- what the atlas runs (the names `kapitza solve method=` takes)
    local ctx = AU.setup(mf, { reference = false })
    ctx.tau = sc.tau
    local names = {}
    local methods, na = AU.catalogue(ctx, { quick = false })
    for _, mm in ipairs(methods) do names[#names + 1] = mm.name end
    out("kapitza atlas runs: " .. table.concat(names, ", "))
    -- what it leaves out for reasons of its own (capability's are above), grouped by reason
    local reasons, byreason = {}, {}
    for _, n in ipairs(na) do
      if not n.reason:match("^the model ") then
        if not byreason[n.reason] then byreason[n.reason] = {}; reasons[#reasons + 1] = n.reason end
        local t = byreason[n.reason]
        t[#t + 1] = n.name
      end
    end
    for _, r in ipairs(reasons) do out(string.format("  not run: %s: %s", table.concat(byreason[r], ", "), r)) end
    local missing = AU.not_in_atlas(ctx)
    if #missing > 0 then
      local t = {}
      for _, r in ipairs(missing) do t[#t + 1] = r.method end
      out("not in the atlas yet: " .. table.concat(t, ", ") .. " (they apply; run them through the Lua API)")
    end
  end)
  if not ok then die("check", e, 1) end
  if disagree then die("check", disagree, 1) end
end

---------------------------------------------------------------------------------------------------
-- solve
---------------------------------------------------------------------------------------------------

function M.solve(argv)
  if help_wanted(argv, 2) then out(M.usage.solve); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("solve", "give a model file (kapitza solve --help)") end
  local o = split_args("solve", argv, 3, { ["--lua"] = true, ["--error"] = true })
  local method = take("solve", o.kv, { method = true }).method
  if not method then die("solve", "give method=NAME (method=list lists them)") end
  -- the method's knobs are known once the catalogue is built: take every knob name of any method
  local knobs = { N = true, n = true, p = true, tol = true }
  local kn, rest = take("solve", o.kv, { method = true, N = true, n = true, p = true, tol = true })
  local mf = load_model("solve", path, rest, o.flags["--lua"], knobs)
  local AU = require "atlas_user"
  local S = require "scenario"
  local okc, ctx = pcall(AU.setup, mf, { reference = o.flags["--error"] == true })
  if not okc then die("solve", ctx, 1) end
  local methods = AU.catalogue(ctx, {})
  if method == "list" then
    for _, m in ipairs(methods) do out(string.format("%-20s %-8s knobs %s", m.name, m.family, m.knob)) end
    return
  end
  local mm
  for _, m in ipairs(methods) do if m.name == method then mm = m end end
  if not mm then die("solve", string.format("no method '%s' for this model (method=list lists them)", method)) end
  local keys = {}
  for k in (mm.knob .. ","):gmatch("([^,]+),") do keys[#keys + 1] = k end
  local x = {}
  for i, k in ipairs(keys) do
    if not kn[k] then die("solve", string.format("method %s needs %s=...", method, k)) end
    x[i] = S.number(kn[k])
    if not x[i] or x[i] <= 0 then die("solve", string.format("%s: '%s' is not a number > 0", k, kn[k])) end
    if k ~= "tol" and x[i] ~= math.floor(x[i]) then die("solve", string.format("%s: '%s' is not a whole number", k, kn[k])) end
  end
  for k in pairs(kn) do
    if k ~= "method" then
      local used = false
      for _, kk in ipairs(keys) do used = used or kk == k end
      if not used then die("solve", string.format("method %s has no knob '%s' (its knobs: %s)", method, k, mm.knob)) end
    end
  end
  local y
  local run = mm.run
  local t0 = os.clock()
  local okr, err, c = pcall(function()
    -- keep the final state: wrap the context's error functions
    local cx = setmetatable({}, { __index = ctx })
    cx.err = function(s) y = s; return ctx.err(s) end
    cx.err_slow = function(Q) y = type(Q) == "number" and { Q } or Q; return ctx.err_slow(Q) end
    return run(cx, x[1], x[2] or 0)
  end)
  local secs = os.clock() - t0
  if not okr then die("solve", err, 1) end
  if err == nil then die("solve", string.format("this point of %s does not exist for the model (e.g. the multirevolution method needs K/N > 4 whole periods per step)", method)) end
  out(string.format("%s on %s: T = %.17g (%d fast periods)", AU.params_of(mm, x[1], x[2] or 0), mf.name, ctx.T, ctx.K))
  out(string.format("  %s(T) = (%s)", #y == mf.dim and "y" or (mf.nq > 0 and "q" or "y"), fmt_list(y, "%.17g")))
  out(string.format("  evaluations %d, micro steps %d, CPU seconds %.3g", c.force_evals or 0, c.micro_steps or 0, secs))
  if o.flags["--error"] then
    out(string.format("  error %.3g against the reference (%s with %d and %d steps per period, Richardson; its own error ~%.1e)",
                      err, ctx.ref_what, ctx.refm, 2 * ctx.refm, ctx.ref_est))
  end
end

---------------------------------------------------------------------------------------------------
-- atlas
---------------------------------------------------------------------------------------------------

function M.atlas(argv)
  if help_wanted(argv, 2) then out(M.usage.atlas); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("atlas", "give a model file (kapitza atlas --help)") end
  local o = split_args("atlas", argv, 3, { ["--lua"] = true, ["--quick"] = true }, true)
  if not o.out then die("atlas", "give --out DIR") end
  local own = { tol = true, methods = true, refmax = true, reps = true, budget = true }
  local mine, rest = take("atlas", o.kv, own)
  local S = require "scenario"
  local function nums(k, s, whole, lo, hi)
    local t = {}
    for item in (s .. ","):gmatch("([^,]*),") do
      local v = S.number(item)
      if not v then die("atlas", string.format("%s: cannot read '%s' as a number", k, item)) end
      if whole and v ~= math.floor(v) then die("atlas", string.format("%s: '%s' is not a whole number", k, item)) end
      if v < lo or v > hi then die("atlas", string.format("%s: %s is outside [%g, %g]", k, item, lo, hi)) end
      t[#t + 1] = v
    end
    return t
  end
  local quick = o.flags["--quick"]
  local tol = mine.tol and nums("tol", mine.tol, false, 1e-14, 1) or nil
  local refmax = mine.refmax and nums("refmax", mine.refmax, true, 8, 65536)[1] or (quick and 256 or 1024)
  local reps = mine.reps and nums("reps", mine.reps, true, 1, 20)[1] or (quick and 1 or 3)
  local budget = mine.budget and nums("budget", mine.budget, false, 0.01, 600)[1] or 3
  local mf = load_model("atlas", path, rest, o.flags["--lua"], own)
  local kz = require "kapitza"
  local AU = require "atlas_user"
  local AP = require "atlas_problems"
  -- refuse to write over the repository's own atlas outputs
  local function real(p)
    local h = io.popen("cd '" .. p:gsub("'", "'\\''") .. "' 2>/dev/null && pwd -P")
    local r = h:read("*l")
    h:close()
    return r
  end
  if AP[mf.name] and real(o.out) and real(o.out) == real(kz.root .. "/paper") then
    die("atlas", string.format("atlas-%s is a built-in atlas of paper/: rename the model or choose another --out", mf.name))
  end
  -- the method names, checked before anything runs (the catalogue's names do not depend on the
  -- reference: a context without one lists them)
  local keep
  if mine.methods then
    keep = {}
    for n in (mine.methods .. ","):gmatch("([^,]*),") do
      if n == "" then die("atlas", "methods: empty name in '" .. mine.methods .. "'") end
      keep[n] = true
    end
    local okc, c0 = pcall(AU.setup, mf, { reference = false })
    if not okc then die("atlas", c0, 1) end
    local have, all = {}, {}
    for _, m in ipairs(AU.catalogue(c0, { quick = quick })) do have[m.name] = true; all[#all + 1] = m.name end
    local names = {}
    for n in pairs(keep) do names[#names + 1] = n end
    table.sort(names)
    for _, n in ipairs(names) do
      if not have[n] then die("atlas", string.format("methods: no method '%s' for this model (it has %s)", n, table.concat(all, ", "))) end
    end
  end
  local sc = S.new { id = "atlas-" .. mf.name, title = "kapitza atlas " .. mf.path, params = {} }
  sc.P = { out = o.out }
  sc:open_stage()
  local ok, err = pcall(function()
    sc:progress_start(1, sc.id)
    local ctx = AU.setup(mf, { tol = tol, refm = quick and 32 or 64, refmax = refmax })
    local methods, na = AU.catalogue(ctx, { quick = quick, methods = keep })
    local total = 1
    for _, m in ipairs(methods) do total = total + #m.ladder end
    sc:progress_start(total, sc.id)
    sc:progress(string.format("reference (%d steps per period), tau = %.3g", ctx.refm, ctx.tau))
    local rows = AU.sweep(ctx, methods, { reps = reps, budget = budget, progress = function(w) sc:progress(w) end })
    local best = AU.write(sc, ctx, rows, methods, na)
    sc:commit()
    io.stderr:write(string.format("kapitza atlas: %d runs of %d methods; wrote %s/data/%s.tsv, %s/tables/%s-best.{tsv,md}, %s/figures/%s.svg\n",
                                  #rows, #methods, o.out, sc.id, o.out, sc.id, o.out, sc.id))
    for _, b in ipairs(best) do
      if b.by == "evaluations" then
        out(string.format("tol %-8.3g %s", b.tol, b.params ~= "-" and string.format("%s  (error %.2g, %d evaluations, %.3g s)",
            b.params, b.error, b.evaluations, b.seconds) or "none of the runs reaches it"))
      end
    end
  end)
  if not ok then
    sc:discard()
    die("atlas", err, 1)
  end
end

---------------------------------------------------------------------------------------------------
-- sweep
---------------------------------------------------------------------------------------------------

function M.sweep(argv)
  if not argv[2] or help_wanted(argv, 2) then
    if argv[2] then out(M.usage.sweep); os.exit(0) end
    die("sweep", "give emit, run or merge (kapitza sweep --help)")
  end
  local kz = require "kapitza"
  local script = kz.root .. "/scripts/sweep.lua"
  if not exists(script) then die("sweep", "scripts/sweep.lua is not installed beside the library (" .. script .. ")") end
  local chunk, err = loadfile(script)
  if not chunk then die("sweep", err) end
  local rest = {}
  for k = 2, #argv do rest[#rest + 1] = argv[k] end
  arg = { [0] = script }
  for k, v in ipairs(rest) do arg[k] = v end
  local ok, e = pcall(chunk, unpack(rest))
  if not ok then die("sweep", e, 1) end
end

---------------------------------------------------------------------------------------------------

function M.main(argv)
  local verb = argv[1]
  if verb == nil then io.stderr:write(M.usage.main, "\n"); os.exit(2) end
  if verb == "--help" or verb == "-h" or verb == "help" then out(M.usage.main); os.exit(0) end
  local f = ({ run = M.run, check = M.check, solve = M.solve, atlas = M.atlas, sweep = M.sweep })[verb]
  if not f then die(nil, string.format("unknown verb '%s' (run, check, solve, atlas, sweep; kapitza --help)", verb)) end
  -- the library must load before anything else (one line if it is not built)
  local ok, e = pcall(require, "kapitza")
  if not ok then die(verb, e) end
  f(argv)
end

return M
