-- usermodel_lua.lua -- a user's model written as Lua functions (lib/lua/kapitza/usermodel.lua documents the
-- spec): a few process-wide FFI callbacks dispatching on the parameter struct's address to the
-- model's functions, each call's status or error checked (lib/lua/kapitza/usermodel/guard.lua guards them).
local kz = require "kapitza"
local guard = require "kapitza.usermodel.guard"
local tostring = guard.text -- a user's error value never raises here (guard.text)
local W = require "kapitza.usermodel.watch"
local ffi, C = kz.ffi, kz.C

local M = {}

-- Address of a Lua model's parameter struct -> { name, fns, vibrated, omega, theta0 }, and (weakly)
-- -> the struct itself, handed to the user's functions. A model's entry goes when its parameter
-- struct is collected (ffi.gc). The callbacks are created once per process (LuaJIT has a limited
-- number of callback slots and never frees them by itself). (Casting the void * back to the
-- model's struct type in the callback would be wrong: a compiled trace keeps the first ctype.)
local live, pars = {}, setmetatable({}, { __mode = "v" })
local function addr(p) return tonumber(ffi.cast("uintptr_t", ffi.cast("void *", p))) end

local function failed(msg)
  kz.callback_error = msg
  return C.KZ_EMODEL
end

-- The callback's result from pcall(user function, ...): nothing or 0 is KZ_OK, another number is
-- the user's own status; an error is stored for the binding and reported as KZ_EMODEL.
local function result(e, what, ok, st)
  -- a function that ran out of memory (LuaJIT has no emergency collection): what it allocated is
  -- garbage now, collected before this message is made (else making it fails too, and that error
  -- would leave the callback)
  if not ok and st == "not enough memory" then collectgarbage() end
  if not ok and guard.lua_fault(st) then return failed(guard.lua_fault(st)) end
  if not ok then return failed(string.format("usermodel '%s': %s raised an error: %s", e.name, what, tostring(st))) end
  if st == nil then return 0 end
  if type(st) == "number" and st == math.floor(st) and st >= 0 and st < 2 ^ 31 then
    if st ~= 0 then kz.callback_error = string.format("usermodel '%s': %s returned status %d (%s)", e.name, what, st,
                                                      ffi.string(C.kz_strerror(st))) end
    return st
  end
  return failed(string.format("usermodel '%s': %s returned %s (expected nothing or a kz status)", e.name, what, tostring(st)))
end

local function orphan() return failed("usermodel: a callback ran for a model that no longer exists") end

--- The number of Lua-function models whose parameter structs are still alive (for tests).
function M.live_models()
  local n = 0
  for _ in pairs(live) do n = n + 1 end
  return n
end

local callbacks
function M.make_callbacks()
  if callbacks then return callbacks end
  -- A compiled trace must never call into C code that calls back into Lua (LuaJIT stops the
  -- process: "bad callback"): kz.call, through which every binding calls C, stays interpreted,
  -- and traces compiled before the first Lua model are flushed.
  jit.off(kz.call)
  jit.off(kz.status)
  jit.flush()
  local cb = {}
  local function phase(kind, ctype)
    cb["vib_" .. kind] = ffi.cast(ctype, function(par, theta, x, out)
      local k = addr(par)
      local e, P = live[k], pars[k]
      if not (e and P) then return orphan() end
      return result(e, kind, pcall(e.fns[kind], P, theta, x, out))
    end)
  end
  local function time(kind, ctype)
    cb["sys_" .. kind] = ffi.cast(ctype, function(par, t, x, out)
      local k = addr(par)
      local e, P = live[k], pars[k]
      if not (e and P) then return orphan() end
      local arg = t
      if e.vibrated then
        if e.fns.phase then
          local okp, th = W.pcall(e.phase_who, e.fns.phase, P, t) -- under the wall-clock limit (watch.lua)
          if not okp or type(th) ~= "number" then
            return failed(string.format("usermodel '%s': phase %s", e.name, okp and "returned " .. tostring(th) .. " (expected a number)"
                                                                                 or "raised an error: " .. tostring(th)))
          end
          arg = th
        else
          arg = e.omega * t + e.theta0
        end
      end
      return result(e, kind, pcall(e.fns[kind], P, arg, x, out))
    end)
  end
  local function avg(kind, ctype)
    cb["avg_" .. kind] = ffi.cast(ctype, function(par, t, x, out)
      local k = addr(par)
      local e, P = live[k], pars[k]
      if not (e and P) then return orphan() end
      return result(e, "averaged", pcall(e.fns.averaged, P, x, out))
    end)
  end
  phase("accel", "kz_phase_accel_fn"); phase("rhs", "kz_phase_rhs_fn")
  time("accel", "kz_accel_fn"); time("rhs", "kz_rhs_fn")
  avg("accel", "kz_accel_fn"); avg("rhs", "kz_rhs_fn")
  cb.reconstruct = ffi.cast("kz_recon_fn", function(par, theta, Y, y)
    local k = addr(par)
    local e, P = live[k], pars[k]
    if not (e and P) then return orphan() end
    return result(e, "reconstruct", pcall(e.fns.reconstruct, P, theta, Y, y))
  end)
  callbacks = cb
  return cb
end

--- Register the Lua-function model entry e under its parameter struct P (until P is collected).
function M.register(P, e)
  e.phase_who = string.format("usermodel '%s': phase", tostring(e.name))
  local k = addr(P)
  live[k], pars[k] = e, P
  ffi.gc(P, function() if live[k] == e then live[k] = nil end end)
end

--- The Lua-function model behind a parameter struct pointer: its callback entry and parameter
-- struct (nil when none): the dispatch of lib/lua/kapitza/usermodel/parts.lua's callbacks.
function M.lua_entry(par)
  local k = addr(par)
  return live[k], pars[k]
end

return M
