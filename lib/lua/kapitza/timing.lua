-- timing.lua -- the measuring pieces every benchmark (scripts/bench-*.lua, lib/lua/kapitza/atlas.lua) shares:
-- a monotonic wall clock, the median and range of repeated samples, and the seconds per call of a
-- function repeated until a sample lasts long enough. Machine-dependent by nature: used only by
-- `make bench`, never by a scenario's deterministic outputs.
local ffi = require "ffi"

-- Our own name for clock_gettime (an asm label), so that no other ffi.cdef of it can clash.
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } kz_timing_ts;
int kz_timing_clock_gettime(int clk, kz_timing_ts *tp) __asm__("clock_gettime");
]]
local CLOCK_MONOTONIC = 1
local ts = ffi.new("kz_timing_ts")

local M = {}

--- Seconds on the monotonic clock.
function M.now()
  ffi.C.kz_timing_clock_gettime(CLOCK_MONOTONIC, ts)
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end

--- The median of a list of numbers (the list is not reordered).
function M.median(t)
  local s = {}
  for i, v in ipairs(t) do s[i] = v end
  table.sort(s)
  local n = #s
  return n % 2 == 1 and s[(n + 1) / 2] or 0.5 * (s[n / 2] + s[n / 2 + 1])
end

--- The smallest and largest of a list of numbers.
function M.minmax(t)
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs(t) do lo, hi = math.min(lo, v), math.max(hi, v) end
  return lo, hi
end

--- Wall seconds per call of f, calling it repeatedly until at least `sample` seconds have passed.
function M.per_call(f, sample)
  local reps, t0 = 0, M.now()
  repeat f(); reps = reps + 1 until M.now() - t0 >= sample
  return (M.now() - t0) / reps
end

return M
