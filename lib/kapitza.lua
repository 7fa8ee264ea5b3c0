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

return M
