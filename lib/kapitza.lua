-- kapitza.lua -- the LuaJIT FFI binding of libkapitza.
--
-- Loads lib/kapitza.h into ffi.cdef (dropping the preprocessor lines) and the shared library by
-- absolute path, derived from this file's own location (KZ_LIB may name another build of it,
-- e.g. the sanitizer one). Every C status is turned into a Lua error naming the C function, the
-- offending parameter and, where known, the step and time of the failure.
local ffi = require "ffi"

local M = {}

local here = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
if here:sub(1, 1) ~= "/" then
  local pwd = os.getenv("PWD") or io.popen("pwd"):read("*l")
  here = pwd .. "/" .. here
end
M.libdir = here
M.root = here:match("^(.*)/lib$") or (here .. "/..")

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- The header without its '#' lines (include guard, extern "C").
local function header_text(path)
  local out = {}
  for line in (read(path) .. "\n"):gmatch("(.-)\n") do
    local skip = line:match("^%s*#") or line:match("^%s*}%s*$") or line:match("^%s*extern \"C\"")
    if not skip then out[#out + 1] = line end
  end
  return table.concat(out, "\n")
end
ffi.cdef(header_text(here .. "/kapitza.h"))

-- Keep the namespace in a module-level local so it is never collected.
local C = ffi.load(os.getenv("KZ_LIB") or (here .. "/libkapitza.so"))
-- KZ_PROFILE=FILE: time every C call and write the totals to FILE at exit (lib/profile.lua).
if os.getenv("KZ_PROFILE") then M.prof = dofile(here .. "/profile.lua"); C = M.prof.wrap(C) end
M.C, M.ffi = C, ffi

--- A fresh, zeroed report.
function M.report()
  local r = ffi.new("kz_report")
  C.kz_report_init(r)
  return r
end

--- Raise a Lua error for a failed status.
function M.fail(fname, status, r)
  local msg = string.format("%s: %s", fname, ffi.string(C.kz_strerror(status)))
  if r ~= nil then
    if r.param ~= nil then msg = msg .. string.format(" (parameter '%s')", ffi.string(r.param)) end
    if r.fail_step >= 0 then msg = msg .. string.format(" at step %d", tonumber(r.fail_step)) end
    if r.fail_time == r.fail_time then msg = msg .. string.format(" at t = %.17g", r.fail_time) end
  end
  error(msg, 3)
end

--- Call C function `fname`; its last argument must be a kz_report. Raises on failure.
function M.call(fname, ...)
  local n = select("#", ...)
  local r = select(n, ...)
  local status = C[fname](...)
  if status ~= 0 then M.fail(fname, status, r) end
  return r
end

--- A double[n] buffer, optionally initialised from a Lua table.
function M.vec(n, init)
  assert(type(n) == "number" and n >= 0 and n == math.floor(n), "vec: n must be a whole number")
  if init then return ffi.new("double[?]", n, init) end
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

---------------------------------------------------------------------------------------------------
-- Integrating a system with a registry stepper (one C call each).
---------------------------------------------------------------------------------------------------

--- nout*sub steps of `stepper` (name or kz_step_type) of size h from (t0, y0) on the kz_sys s,
-- recording every sub steps: returns the (nout+1)*dim cdata buffer (row j at out + j*dim) and
-- the work counts.
function M.trajectory(s, stepper, t0, h, sub, nout, y0)
  local T = type(stepper) == "string" and M.stepper(stepper) or stepper
  local d = s.dim
  local out, r = M.vec((nout + 1) * d), M.report()
  M.call("kz_trajectory", T, s, t0, h, sub, nout, M.vec(d, y0), out, r)
  return out, M.counts(r)
end

--- n steps from (t, y0): the final state as a Lua array and the work counts.
function M.run(s, stepper, t, h, n, y0)
  local T = type(stepper) == "string" and M.stepper(stepper) or stepper
  local y, r = M.vec(s.dim, y0), M.report()
  M.call("kz_run", T, s, t, h, n, y, r)
  local out = {}
  for i = 1, s.dim do out[i] = y[i - 1] end
  return out, M.counts(r)
end

return M
