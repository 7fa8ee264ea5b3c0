-- kapitza.lua -- the LuaJIT FFI binding of libkapitza.
--
-- Loads lib/include/kapitza.h and the module headers it includes into ffi.cdef (dropping the
-- preprocessor lines) and the shared library by
-- absolute path, derived from this file's own location (KZ_LIB may name another build of it,
-- e.g. the sanitizer one). Every C status is turned into a Lua error naming the C function, the
-- offending parameter and, where known, the step and time of the failure.
local ffi = require "ffi"

local M = {}

-- This file's folder, as the path it was loaded by: absolute, or relative to the process's
-- working directory, which a Lua program cannot change; so it is right wherever the caller
-- started (never $PWD, which a caller may not have updated).
local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
M.libdir = here
-- The source tree: this file is ROOT/lib/lua/kapitza.lua.
M.root = here:match("^(.*)/lib/lua$") or (here == "lib/lua" and ".") or (here .. "/../..")

local function read(path)
  local f, err = io.open(path, "rb")
  if not f then error("kapitza: cannot read " .. path .. " (" .. tostring(err) .. ")", 0) end
  local s = f:read("*a")
  f:close()
  return s
end

-- The declaration stream: kapitza.h with its module headers (#include <kapitza/NAME.h>, found
-- beside kapitza.h, each read once, where it is first included, as include guards do) expanded
-- in place: the text a C compiler sees, before the preprocessor lines are dropped.
local function header_source(path)
  local base, seen, out = path:match("^(.*)/[^/]*$") or ".", {}, {}
  local function expand(p)
    if seen[p] then return end
    seen[p] = true
    for line in (read(p) .. "\n"):gmatch("(.-)\n") do
      local inc = line:match('^%s*#%s*include%s*[<"](kapitza/[%w_]+%.h)[>"]')
      if inc then expand(base .. "/" .. inc) else out[#out + 1] = line end
    end
  end
  expand(path)
  return table.concat(out, "\n")
end
-- The stream without its '#' lines (include guards, extern "C"), for ffi.cdef.
local function header_text(source)
  local out = {}
  for line in (source .. "\n"):gmatch("(.-)\n") do
    local skip = line:match("^%s*#") or line:match("^%s*}%s*$") or line:match("^%s*extern \"C\"")
    if not skip then out[#out + 1] = line end
  end
  return table.concat(out, "\n")
end
-- Where the header and the library are. In the source tree: ROOT/lib/include/kapitza.h and
-- ROOT/lib/libkapitza.so. An installed copy (make install) finds kapitza/config.lua beside it,
-- written by the Makefile, naming the installed header and versioned library relative to this
-- file (so a DESTDIR-staged tree works too); its other modules (kapitza.models, kapitza.hmm, ...)
-- are installed in that kapitza/ folder, where require finds them by their names: package.path is
-- never changed (a user's own module of any name is neither shadowed nor shadowing).
M.header_path, M.lib_path = M.root .. "/lib/include/kapitza.h", M.root .. "/lib/libkapitza.so"
local installed = loadfile(here .. "/kapitza/config.lua")
if installed then
  local cfg = installed()
  local function abs(p)
    p = p:sub(1, 1) == "/" and p or (here .. "/" .. p)
    local n
    repeat p, n = p:gsub("/[^/]+/%.%./", "/", 1) until n == 0
    return p
  end
  M.installed, M.header_path, M.lib_path = true, abs(cfg.header), abs(cfg.lib)
  M.root = here .. "/kapitza" -- its figures/ and scripts/ (make install), as the source tree's
end
M.lib_path = os.getenv("KZ_LIB") or M.lib_path
-- M.header_source: every declaration of the public headers in one text (lib/lua/kapitza/usermodel.lua copies
-- enum kz_status from it).
M.header_source = header_source(M.header_path)
ffi.cdef(header_text(M.header_source))

-- Keep the namespace in a module-level local so it is never collected.
local okload, C = pcall(ffi.load, M.lib_path)
if not okload then
  error(string.format("kapitza: the C library %s is not built (run make in %s): %s", M.lib_path, M.root,
                      tostring(C):gsub("^.-: ", "")), 0)
end
-- a library that loads but is not this one (KZ_LIB naming another): said here, not at its first use
for _, sym in ipairs { "kz_strerror", "kz_step_count", "kz_report_init" } do
  if not pcall(function() return C[sym] end) then
    error(string.format("kapitza: %s%s is not the kapitza library (it has no %s)", os.getenv("KZ_LIB") and "KZ_LIB=" or "",
                        M.lib_path, sym), 0)
  end
end
-- KZ_PROFILE=FILE: time every C call and write the totals to FILE at exit (lib/lua/kapitza/profile.lua).
if os.getenv("KZ_PROFILE") then M.prof = dofile(here .. "/kapitza/profile.lua"); C = M.prof.wrap(C) end
M.C, M.ffi = C, ffi

--- A fresh, zeroed report.
function M.report()
  local r = ffi.new("kz_report")
  C.kz_report_init(r)
  return r
end

--- Raise a Lua error for a failed status.
function M.fail(fname, status, r)
  -- A Lua function of a user's model (lib/lua/kapitza/usermodel.lua) failed inside this call: the callback
  -- stored its message and returned a status through C; report that message, in one line.
  -- A C model's guard (lib/lua/kapitza/usermodel/guard.lua) keeps its own record: M.model_fault reads it.
  local pending = M.callback_error
  if not pending and M.model_fault then pending = M.model_fault(status) end
  if pending then
    M.callback_error = nil
    local where = ""
    if r ~= nil and r.fail_time == r.fail_time then where = string.format(" (at t = %.17g)", r.fail_time) end
    error(string.format("%s: %s%s", fname, pending, where), 0)
  end
  local msg = string.format("%s: %s", fname, ffi.string(C.kz_strerror(status)))
  -- what failed, for a caller that names the cause in its own terms (e.g. a model's right-hand
  -- side that is undefined where the solution went): kz.last_failure
  M.last_failure = { fname = fname, status = status, param = r ~= nil and r.param ~= nil and ffi.string(r.param) or nil,
                     step = r ~= nil and tonumber(r.fail_step) or -1, time = r ~= nil and r.fail_time or 0 / 0 }
  if r ~= nil then
    if r.param ~= nil then msg = msg .. string.format(" (parameter '%s')", ffi.string(r.param)) end
    if r.fail_step >= 0 then msg = msg .. string.format(" at step %d", tonumber(r.fail_step)) end
    if r.fail_time == r.fail_time then msg = msg .. string.format(" at t = %.17g", r.fail_time) end
  end
  error(msg .. M.changed_keys(), 3)
end

--- Inside a scenario (lib/lua/kapitza/scenario.lua loaded, its command line parsed): "; keys changed from
-- the defaults: k = v (default d), ..." -- the likely causes of a failure that the defaults do
-- not have, named as the user typed them; "" otherwise (or when nothing was changed).
function M.changed_keys()
  local S = package.loaded["kapitza.scenario"]
  local sc = type(S) == "table" and S.current
  if type(S) == "table" and (S.in_cell or 0) > 0 then return "" end -- (a compute cell's value: scenario/cells.lua)
  local P = type(sc) == "table" and sc.P
  if type(P) ~= "table" or type(sc.params) ~= "table" then return "" end
  local function str(v)
    if type(v) ~= "table" then return type(v) == "number" and string.format("%.6g", v) or tostring(v) end
    local t = {}
    for i, x in ipairs(v) do t[i] = str(x) end
    return table.concat(t, ",")
  end
  local out = {}
  for _, p in ipairs(sc.params) do
    local k, d = p[1], p[2]
    if P.quick and type(sc.quick) == "table" and sc.quick[k] ~= nil then d = sc.quick[k] end
    if P[k] ~= nil and str(P[k]) ~= str(d) then out[#out + 1] = string.format("%s = %s (default %s)", k, str(P[k]), str(d)) end
  end
  if #out == 0 then return "" end
  return "; keys changed from the defaults: " .. table.concat(out, ", ")
end

--- Call C function `fname`; its last argument must be a kz_report. Raises on failure.
function M.call(fname, ...)
  local n = select("#", ...)
  local r = select(n, ...)
  M.callback_error = nil
  local status = C[fname](...)
  if status ~= 0 then M.fail(fname, status, r) end
  return r
end

--- Call C function `fname` and return its status without raising (for callers that keep a
-- failed run's partial results); like M.call, kept out of compiled traces once a Lua model exists.
function M.status(fname, ...)
  M.callback_error = nil
  return C[fname](...)
end

--- The most numbers one buffer may hold (2^27 doubles, 1 GiB; LuaJIT allocates no cdata of 2 GiB),
-- and a run that needs more is not one to start.
M.max_vec = 2^27

--- A double[n] buffer, optionally initialised from a Lua table.
function M.vec(n, init)
  assert(type(n) == "number" and n >= 0 and n == math.floor(n), "vec: n must be a whole number")
  if n > M.max_vec then
    error(string.format("kz.vec: a buffer of %.3g numbers (%.3g GB) was asked for, more than one run can hold (%.3g): " ..
                        "the span is too long for the step, or a count too large%s", n, n * 8e-9, M.max_vec, M.changed_keys()), 2)
  end
  if init then
    -- ffi.new copies every element of init: more than n would write past the buffer
    if type(init) == "table" and #init > n then
      error(string.format("vec: %d initial values for %d numbers", #init, n), 2)
    end
    return ffi.new("double[?]", n, init)
  end
  return ffi.new("double[?]", n)
end

--- The work counters of a report as a plain table of numbers.
function M.counts(r)
  return {
    micro_steps = tonumber(r.micro_steps), force_evals = tonumber(r.force_evals),
    macro_steps = tonumber(r.macro_steps), rejected = tonumber(r.rejected),
    newton_iters = tonumber(r.newton_iters), jac_evals = tonumber(r.jac_evals),
  }
end

--- Check that a value is a finite number; error naming `what` otherwise.
function M.finite(x, what)
  if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
    error(string.format("%s must be a finite number (got %s)", what, tostring(x)), 3)
  end
  return x
end

---------------------------------------------------------------------------------------------------
-- Enum maps: Lua names of the library's choices, which scenarios reuse as their `choices`.
---------------------------------------------------------------------------------------------------

--- name -> enum value, plus .names: the names in enum order (for --help and choices lists).
local function enum(list)
  local t = { names = {} }
  for _, e in ipairs(list) do t[e[1]] = C[e[2]]; t.names[#t.names + 1] = e[1] end
  return t
end

M.kernels = enum { { "uniform", "KZ_KERNEL_UNIFORM" }, { "exponential", "KZ_KERNEL_EXPONENTIAL" },
                   { "cosine", "KZ_KERNEL_COSINE" }, { "exp2", "KZ_KERNEL_EXP2" } }
M.hmm_macros = enum { { "FE", "KZ_HMM_FE" }, { "IFE", "KZ_HMM_IFE" }, { "V", "KZ_HMM_VERLET" },
                      { "leapfrog", "KZ_HMM_LEAPFROG" } }
M.phases = enum { { "exact", "KZ_PHASE_EXACT" }, { "naive", "KZ_PHASE_NAIVE" }, { "zero", "KZ_PHASE_ZERO" },
                  { "time", "KZ_PHASE_TIME" } }
M.recons = enum { { "model", "KZ_RECON_MODEL" }, { "identity", "KZ_RECON_IDENTITY" },
                  { "zero_v", "KZ_RECON_ZERO_V" } }
M.sam_diffs = enum { { "central2", "KZ_SAM_CENTRAL2" }, { "central4", "KZ_SAM_CENTRAL4" },
                     { "lisp", "KZ_SAM_LISP2" }, { "forward", "KZ_SAM_FORWARD" } }

--- The stepper registry: name -> const kz_step_type *, plus .names in registry order.
M.steppers = { names = {} }
for i = 0, C.kz_step_count() - 1 do
  local T = C.kz_step_at(i)
  local name = ffi.string(T.name)
  M.steppers[name] = T
  M.steppers.names[#M.steppers.names + 1] = name
end

--- The registry entry called `name`; an error listing the choices otherwise.
function M.stepper(name)
  local T = M.steppers[name]
  if not T or name == "names" then
    error(string.format("unknown stepper '%s' (one of %s)", tostring(name), table.concat(M.steppers.names, ", ")), 2)
  end
  return T
end

--- Look `name` up in an enum map; an error naming `what` and the choices otherwise.
function M.choose(map, name, what)
  local v = map[name]
  if v == nil or name == "names" then
    error(string.format("%s must be one of %s (got '%s')", what, table.concat(map.names, ", "), tostring(name)), 2)
  end
  return v
end

-- Fredbo (the spinning top and the slow-variable HMM): Algorithm 2's macro scheme joins the
-- general HMM's map; the slow-variable HMM's choices; the top's forcings, averaged coefficients
-- and slow sets.
M.hmm_macros.VE = C.KZ_HMM_VE
M.hmm_macros.names[#M.hmm_macros.names + 1] = "VE"
M.slow_macros = enum { { "FE", "KZ_SLOW_FE" }, { "LF", "KZ_SLOW_LEAPFROG" } }
M.slow_starts = enum { { "FE", "KZ_START_FE" }, { "heun", "KZ_START_HEUN" } }
M.lsq_kinds = enum { { "minnorm", "KZ_LSQ_MINNORM" }, { "basic", "KZ_LSQ_BASIC" } }
M.predictors = enum { { "none", "KZ_PREDICT_NONE" }, { "literal", "KZ_PREDICT_LITERAL" } }
M.slow_times = enum { { "literal", "KZ_SLOW_TIME_LITERAL" }, { "consistent", "KZ_SLOW_TIME_CONSISTENT" } }
M.top_forcings = enum { { "free", "KZ_TOP_FREE" }, { "transverse", "KZ_TOP_TRANSVERSE" },
                        { "vertical", "KZ_TOP_VERTICAL" } }
M.top_avgs = enum { { "corrected", "KZ_TOP_AVG_CORRECTED" }, { "printed", "KZ_TOP_AVG_PRINTED" },
                    { "none", "KZ_TOP_AVG_NONE" } }
M.top_sets = enum { { "32", "KZ_TOP_XI32" }, { "37", "KZ_TOP_XI37" }, { "40", "KZ_TOP_XI40" } }

---------------------------------------------------------------------------------------------------
-- Integrating a system with a registry stepper (one C call each).
---------------------------------------------------------------------------------------------------

--- nout*sub steps of `stepper` (name or kz_step_type) of size h from (t0, y0) on the kz_sys s,
-- recording every sub steps: returns the (nout+1)*dim cdata buffer (row j at out + j*dim) and
-- the work counts.
-- The part of the system s that stepper T needs and lacks, as a one-line reason (nil if none).
local function lacks(T, s)
  local name = ffi.string(T.name)
  if bit.band(T.needs, C.KZ_NEEDS_FLOWS) ~= 0 and (s.flow_a == nil or s.flow_b == nil) then
    return "the system has no splitting: stepper=" .. name .. " needs flows a and b"
  end
  if bit.band(T.needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0 and s.con == nil then
    return "the system has no constraints: stepper=" .. name .. " needs constraints g(q) and the masses"
  end
  if bit.band(T.needs, C.KZ_NEEDS_ACCEL) ~= 0 and not (s.nq > 0 and s.accel ~= nil) then
    return "the system is in first-order form: stepper=" .. name .. " needs the second-order form (nq, accel)"
  end
end

-- An initial state given as a Lua table must have the system's dimension.
local function check_y0(y0, s, who)
  if type(y0) == "table" and #y0 ~= s.dim then
    error(string.format("%s: y0 must list %d numbers (the system's dim; got %d)", who, s.dim, #y0), 3)
  end
end

function M.trajectory(s, stepper, t0, h, sub, nout, y0)
  local T = type(stepper) == "string" and M.stepper(stepper) or stepper
  local why = lacks(T, s)
  if why then error("kz.trajectory: " .. why, 2) end
  check_y0(y0, s, "kz.trajectory")
  local d = s.dim
  local out, r = M.vec((nout + 1) * d), M.report()
  M.call("kz_trajectory", T, s, t0, h, sub, nout, M.vec(d, y0), out, r)
  return out, M.counts(r)
end

--- n steps from (t, y0): the final state as a Lua array and the work counts.
function M.run(s, stepper, t, h, n, y0)
  local T = type(stepper) == "string" and M.stepper(stepper) or stepper
  local why = lacks(T, s)
  if why then error("kz.run: " .. why, 2) end
  check_y0(y0, s, "kz.run")
  local y, r = M.vec(s.dim, y0), M.report()
  M.call("kz_run", T, s, t, h, n, y, r)
  local out = {}
  for i = 1, s.dim do out[i] = y[i - 1] end
  return out, M.counts(r)
end

---------------------------------------------------------------------------------------------------
-- Constrained mechanical systems (kz_constraints; SHAKE, RATTLE, HERK3).
---------------------------------------------------------------------------------------------------

--- The registered steppers that need constraints (KZ_NEEDS_CONSTRAINTS): name -> type, plus
-- .names in registry order (the `choices` of a constrained scenario's stepper key).
M.constrained = { names = {} }
for _, name in ipairs(M.steppers.names) do
  local T = M.steppers[name]
  if bit.band(T.needs, C.KZ_NEEDS_CONSTRAINTS) ~= 0 then
    M.constrained[name] = T
    M.constrained.names[#M.constrained.names + 1] = name
  end
end

--- Fresh solve counters (kz_con_stats: pos_solves, vel_solves).
function M.con_stats() return ffi.new("kz_con_stats") end

-- Version (enum kz_version of lib/include/kapitza.h, the one place it is written).
---------------------------------------------------------------------------------------------------

M.version = string.format("%d.%d.%d", C.KZ_VERSION_MAJOR, C.KZ_VERSION_MINOR, C.KZ_VERSION_PATCH)

return M
