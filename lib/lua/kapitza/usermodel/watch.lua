-- watch.lua -- the wall-clock limit on one call of a user model's code (issue 25, item 3): the
-- Lua side of lib/core/kz_watch.c. A model's guards (guard_source.lua for C, guard_lua.lua for Lua
-- functions) keep a record (kz_watch) of the function running; the library's monitor thread ends
-- the process with one line and exit status 2 when one call runs longer than the limit, after
-- removing the run's staging folder:
--   usermodel 'm': accel (C function 'force') did not return within 60 s (at t = 0.25): stopped
--   (the limit on one call of the model's code: KZ_MODEL_TIMEOUT=60)
-- The limit: a command's key (timeout=SECONDS of kapitza check/solve/atlas: W.set), else the
-- environment's KZ_MODEL_TIMEOUT (seconds; 0: no limit), else W.DEFAULT. The trial calls at load
-- (guard_probe.lua) take the same limit.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local W = {}

W.DEFAULT = 60     -- seconds: far beyond one evaluation of any model a method can integrate
W.EXIT_STATUS = 2  -- the model's fault, as its other faults are (a refusal: exit 2)

local chosen -- { seconds, where }: a command's key

local function parse(s)
  local x = tonumber(s)
  if x and x == x and x >= 0 and x < math.huge then return x end
  return nil
end

local WHAT = "give the limit on one call of the model's code in seconds (a number > 0; 0: no limit)"

--- Set the limit from a command's key (the text as typed): nil and a message when it is not
-- seconds >= 0 (0: no limit).
function W.set(text, key)
  local x = parse(text)
  if not x then return nil, string.format("%s=%s: %s", key, tostring(text), WHAT) end
  chosen = { x, string.format("%s=%g", key, x) }
  if C.kz_watch_seconds() > 0 or x > 0 then W.arm() end
  return x
end

--- Forget a command's key: the limit is the environment's or the default again.
function W.clear()
  chosen = nil
  if C.kz_watch_seconds() > 0 then W.arm() end
end

--- The limit in force: seconds (0: none) and the words naming where it is set; raises a one-line
-- error for an unreadable KZ_MODEL_TIMEOUT.
function W.limit()
  if chosen then return chosen[1], chosen[2] end
  local env = os.getenv("KZ_MODEL_TIMEOUT")
  if env and env ~= "" then
    local x = parse(env)
    if not x then error(string.format("KZ_MODEL_TIMEOUT=%s: %s", env, WHAT), 0) end
    return x, string.format("KZ_MODEL_TIMEOUT=%g", x)
  end
  return W.DEFAULT, string.format("%g s by default; timeout=SECONDS or KZ_MODEL_TIMEOUT sets it", W.DEFAULT)
end

--- Start (or update) the monitor with the limit in force; returns the limit.
function W.arm()
  local s, where = W.limit()
  C.kz_watch_limit(s, where, W.EXIT_STATUS)
  return s
end

--- Watch a compiled model's record (its object's kzu_watch_record()).
function W.add_c(rec)
  C.kz_watch_add(ffi.cast("kz_watch *", rec))
  W.arm()
end

--- Watch the record rec (a kz_watch cdata) of a Lua-function model's functions: whos and args
-- name each index from 0 (a string, or false). The record leaves the watch when it is
-- collected; the returned table holds the names' C strings and must live as long as it.
function W.watch_lua(rec, whos, args)
  local n = #whos
  local keep, who, arg = {}, ffi.new("const char *[?]", n + 1), ffi.new("const char *[?]", n + 1)
  for i = 1, n do
    local s = ffi.new("char[?]", #whos[i] + 1, whos[i])
    keep[#keep + 1], who[i - 1] = s, s
    if args[i] then
      local a = ffi.new("char[?]", #args[i] + 1, args[i])
      keep[#keep + 1], arg[i - 1] = a, a
    end
  end
  rec.who, rec.arg, rec.n = who, arg, n
  ffi.gc(rec, C.kz_watch_remove)
  C.kz_watch_add(rec)
  W.arm()
  return { rec = rec, keep, who, arg }
end

-- One record for the Lua code of model files run outside the methods (a file's top-level code,
-- its data functions: q0 = function(p) ..., T, period, masses): W.pcall names what runs.
local MAXN = 16
local data -- { rec, who (const char *[MAXN]), names = { Lua strings }, keep = { C strings } }
--- pcall(f, ...) with the wall-clock limit on it, `who` naming it in the message ("model file
-- x.lua (its top-level code)"). Nested calls keep the outer name.
function W.pcall(who, f, ...)
  if not data then
    local rec = ffi.new("kz_watch")
    local names = ffi.new("const char *[?]", MAXN)
    rec["in"], rec.calls, rec.at, rec.who, rec.arg, rec.n = -1, 0, 0 / 0, names, nil, MAXN
    ffi.gc(rec, C.kz_watch_remove)
    data = { rec = rec, who = names, names = {}, keep = {} }
    C.kz_watch_add(rec)
    W.arm()
  end
  local rec = data.rec
  if rec["in"] >= 0 then return pcall(f, ...) end
  local k
  for i, n in ipairs(data.names) do if n == who then k = i end end
  if not k then -- a slot for this name (the last one is reused when all are taken)
    k = math.min(#data.names + 1, MAXN)
    local str = ffi.new("char[?]", #who + 1, who)
    data.names[k], data.keep[k], data.who[k - 1] = who, str, str
  end
  rec.calls, rec["in"] = rec.calls + 1, k - 1
  -- os.exit inside the model file's own code is an error naming it, as inside its functions
  -- (guard_lua.lua): a file whose top-level code or q0 = function(p) exits must not end the
  -- command with status 0 and no word
  local exit = os.exit
  os.exit = function(code) error(string.format("%s called os.exit(%s)", who, tostring(code)), 0) end -- luacheck: ignore
  local function finish(ok, ...)
    os.exit = exit -- luacheck: ignore
    rec["in"] = -1
    -- code that ran out of memory: what it allocated is garbage now, collected before anything
    -- else is allocated (LuaJIT has no emergency collection: the error message would fail too)
    if not ok and ... == "not enough memory" then collectgarbage() end
    return ok, ...
  end
  return finish(pcall(f, ...))
end

return W
