-- profile.lua -- where a scenario's time goes: inside the library's C functions, in external
-- programs (gnuplot), or in Lua. Loaded by kapitza.lua only when the environment variable
-- KZ_PROFILE names a file; otherwise nothing here runs and nothing is wrapped.
--
-- Method. Every function of the library's FFI namespace (kz.C) is replaced by a Lua closure
-- that reads CLOCK_MONOTONIC before and after the call and adds the difference to a total (C
-- never calls back into Lua in the package's scenarios, so the intervals do not nest). Enum
-- constants and exported pointers pass through unwrapped. External programs (sc:figure's
-- gnuplot) are timed the same way by scenario.lua. When the Lua state closes (the scenario's
-- main chunk returned), the totals are written to the KZ_PROFILE file as `key value` lines:
--   c_seconds   summed time inside C calls
--   c_calls     number of C calls
--   ext_seconds summed time of external programs
--   lua_start   clock when this module was loaded (first require of kapitza), lua_end at close
--   clock_pair  measured cost of one pair of clock reads (the accounting's resolution)
-- and one line `fn NAME calls seconds` per C function. scripts/bench-lua.lua measures the whole
-- process from outside and turns this into shares. The clock reads themselves sit half inside
-- and half outside the timed intervals; their cost (clock_pair x c_calls) bounds that bias and is
-- reported. The wrapper's own Lua overhead (a closure call per C call) lands outside the
-- intervals, i.e. it is counted as Lua time: the Lua share measured this way is an upper bound.
local ffi = require "ffi"

local now = require("kapitza.timing").now -- CLOCK_MONOTONIC

local M = { now = now }
local acc = { c = 0, calls = 0, ext = 0, start = now(), fn = {} }

-- The cost of one pair of clock reads (median of 101 batches of 100).
do
  local est = {}
  for i = 1, 101 do
    local t0 = now()
    for _ = 1, 100 do local a = now(); local b = now(); if b < a then error("clock went back") end end
    est[i] = (now() - t0) / 100
  end
  table.sort(est)
  acc.pair = est[51]
end

--- A proxy of the namespace C whose functions are timed.
function M.wrap(C)
  local cache = {}
  return setmetatable({}, { __index = function(_, k)
    local w = cache[k]
    if w ~= nil then return w end
    local v = C[k]
    if type(v) == "cdata" and tostring(ffi.typeof(v)):match("%)>$") then
      local f, rec = v, { calls = 0, t = 0 }
      acc.fn[k] = rec
      w = function(...)
        local t0 = now()
        local res = f(...)
        local dt = now() - t0
        acc.c, acc.calls = acc.c + dt, acc.calls + 1
        rec.calls, rec.t = rec.calls + 1, rec.t + dt
        return res
      end
    else
      w = v
    end
    cache[k] = w
    return w
  end })
end

--- Add the time of an external program (seconds).
function M.external(dt) acc.ext = acc.ext + dt end

local function write()
  local path = os.getenv("KZ_PROFILE")
  local f = path and io.open(path, "w")
  if not f then return end
  f:write(string.format("c_seconds %.9f\nc_calls %d\next_seconds %.9f\nlua_start %.9f\nlua_end %.9f\nclock_pair %.3e\n",
                        acc.c, acc.calls, acc.ext, acc.start, now(), acc.pair))
  for k, r in pairs(acc.fn) do
    if r.calls > 0 then f:write(string.format("fn %s %d %.9f\n", k, r.calls, r.t)) end
  end
  f:close()
end

-- Written when the Lua state closes (normal end of the script).
M.sentinel = newproxy(true)
getmetatable(M.sentinel).__gc = write

return M
