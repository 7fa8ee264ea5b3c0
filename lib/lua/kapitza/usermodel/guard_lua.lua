-- userguard_lua.lua -- the guards of a model written as Lua functions (lib/lua/kapitza/usermodel/guard.lua
-- documents them): its functions' outputs filled and looked at, os.exit inside a model call
-- refused. Installed into userguard by userguard.lua: require("kapitza.usermodel.guard_lua")(M, U).
return function(M, U)
local ffi, C, part_roles = U.ffi, U.C, U.part_roles
local W = require "kapitza.usermodel.watch"
local NAN = 0 / 0

local u64p = ffi.typeof("uint64_t *")
local function addr(p) return tonumber(ffi.cast("uintptr_t", p)) end
local inside -- "usermodel 'm': accel" while one of a Lua model's functions runs

local real_exit
local function guard_exit()
  if real_exit then return end
  real_exit = os.exit
  os.exit = function(code, ...) -- luacheck: ignore (a deliberate replacement, see the header)
    if inside then error({ kz_fault = string.format("%s called os.exit(%s)", inside, tostring(code)) }, 0) end
    return real_exit(code, ...)
  end
end

local LUA_PARTS = { accel = true, rhs = true, reconstruct = true, averaged = true } -- (p, t, x, out); averaged (p, x, out)

-- The function fn of part k of a Lua model, guarded.
local function guard_lua(name, L, k, fn, rec, idx)
  local outname = (k == "reconstruct" and "y") or (L.nq > 0 and "a" or "f")
  local nout = (k == "reconstruct" or L.nq == 0) and L.dim or L.nq
  local nin, who = L.dim, string.format("usermodel '%s': %s", name, k)
  local function call(P, arg, x, out)
    local o, i = addr(out), addr(x)
    local fill = o + 8 * nout <= i or i + 8 * nin <= o
    if fill then
      local u = ffi.cast(u64p, out)
      for j = 0, nout - 1 do u[j] = M.UNSET end
    end
    local prev, wprev = inside, rec["in"]
    inside = who
    rec.at, rec.calls, rec["in"] = arg or NAN, rec.calls + 1, idx -- the wall-clock limit's record (watch.lua)
    local ok, st
    if k == "averaged" then ok, st = pcall(fn, P, x, out) else ok, st = pcall(fn, P, arg, x, out) end
    rec["in"] = wprev
    inside = prev
    if not ok then error(st, 0) end
    if fill and (st == nil or st == 0) then
      local u = ffi.cast(u64p, out)
      for j = 0, nout - 1 do
        if u[j] == M.UNSET then error({ kz_fault = string.format("%s left %s[%d] unset", who, outname, j) }, 0) end
      end
    end
    return st
  end
  if k == "averaged" then return function(P, x, out) return call(P, nil, x, out) end end -- averaged(p, q, a)
  return call
end

-- A part function of a Lua model (role r of part_roles), guarded: its output arrays (argument
-- positions r.outs) filled with UNSET before the call and looked at after it, os.exit inside it
-- an error; its result returned (a status, or a potential's or an invariant's value). Every
-- role takes at most five arguments (no table is made per call: these run in the methods' loops).
local function guard_lua_part(name, r, fn, rec, idx)
  local who = string.format("usermodel '%s': %s", name, r.part)
  local ins, outs, value = r.ins, r.outs, r.value
  local argk -- the position of its time or phase argument (a1 is the parameter struct)
  for i, q in ipairs(r.params) do if r.arg and q[2] == r.arg then argk = i + 1 end end
  local function at(k, a1, a2, a3, a4, a5)
    if k == 1 then return a1 elseif k == 2 then return a2 elseif k == 3 then return a3 elseif k == 4 then return a4 end
    return a5
  end
  if #outs == 0 then -- a flow (in place), a potential, an invariant: os.exit guarded only
    return function(a1, a2, a3, a4, a5)
      local prev, wprev = inside, rec["in"]
      inside = who
      rec.at, rec.calls, rec["in"] = argk and at(argk, a1, a2, a3, a4, a5) or NAN, rec.calls + 1, idx
      local ok, st = pcall(fn, a1, a2, a3, a4, a5)
      rec["in"] = wprev
      inside = prev
      if not ok then error(st, 0) end
      return st
    end
  end
  local fill = {}
  return function(a1, a2, a3, a4, a5)
    for k, o in ipairs(outs) do
      local out, n = at(o[1], a1, a2, a3, a4, a5), o[3]
      local ok = type(out) == "cdata"
      for _, i in ipairs(ins) do
        local x = at(i[1], a1, a2, a3, a4, a5)
        if ok and type(x) == "cdata" then
          local po, px = addr(out), addr(x)
          ok = po + 8 * n <= px or px + 8 * i[2] <= po
        end
      end
      if ok then
        local u = ffi.cast(u64p, out)
        for j = 0, n - 1 do u[j] = M.UNSET end
      end
      fill[k] = ok
    end
    local prev, wprev = inside, rec["in"]
    inside = who
    rec.at, rec.calls, rec["in"] = argk and at(argk, a1, a2, a3, a4, a5) or NAN, rec.calls + 1, idx
    local ok, st = pcall(fn, a1, a2, a3, a4, a5)
    rec["in"] = wprev
    inside = prev
    if not ok then error(st, 0) end
    if not value and st ~= nil and st ~= 0 then return st end -- the user's own status: outputs not looked at
    for k, o in ipairs(outs) do
      if fill[k] then
        local u = ffi.cast(u64p, at(o[1], a1, a2, a3, a4, a5))
        for j = 0, o[3] - 1 do
          if u[j] == M.UNSET then error({ kz_fault = string.format("%s left %s[%d] unset", who, o[2], j) }, 0) end
        end
      end
    end
    return st
  end
end

-- The part functions fp of a Lua model (lib/lua/kapitza/usermodel/parts.lua's structure), guarded.
local function lua_part_fns(name, L, fp, rec, index)
  if not fp then return fp end
  local by = {}
  for _, r in ipairs(part_roles(L, fp)) do
    -- a Lua potential or invariant returns its value: no output array
    if r.value then r.outs = {} end
    by[r.part] = r
  end
  local function map(t, prefix)
    local o = {}
    for k, v in pairs(t) do
      local r = by[prefix .. k]
      o[k] = (r and type(v) == "function") and guard_lua_part(name, r, v, rec, index(string.format("usermodel '%s': %s", name, r.part), r.arg)) or v
    end
    return o
  end
  local g = {}
  for k, v in pairs(fp) do g[k] = v end
  if fp.flows then g.flows = map(fp.flows, "flows.") end
  if fp.constraints then g.constraints = map(fp.constraints, "constraints.") end
  if fp.vmi then g.vmi = map(fp.vmi, "vmi.") end
  if fp.invariants then g.invariants = map(fp.invariants, "invariants.") end
  if fp.slow then
    g.slow = {}
    for set, f in pairs(fp.slow) do g.slow[set] = map(f, "slow." .. set .. ".") end
  end
  return g
end

--- A Lua model's functions, guarded: the output arrays filled with UNSET before each call and
-- checked after it; os.exit inside one of them is an error. The part functions (flows,
-- constraints, slow sets, vmi, invariants) too: their outputs by role (part_roles; a flow works
-- in place, a potential and an invariant return a value: only os.exit guarded). An error is
-- raised with a table { kz_fault = message } (M.lua_fault reads it).
function M.lua_fns(name, L, fns)
  guard_exit()
  -- the record of the function running, for the wall-clock limit (watch.lua): one per model,
  -- an entry (from 0) for each function as it is guarded, its time argument's name
  local whos, args = {}, {}
  local rec = ffi.new("kz_watch")
  rec["in"], rec.calls, rec.at = -1, 0, NAN
  local function index(who, arg)
    whos[#whos + 1], args[#args + 1] = who, arg or false
    return #whos - 1
  end
  local g = {}
  for k, fn in pairs(fns) do
    if LUA_PARTS[k] then
      local arg = k ~= "averaged" and ((L.vibrated or k == "reconstruct") and "theta" or "t") or nil
      g[k] = guard_lua(name, L, k, fn, rec, index(string.format("usermodel '%s': %s", name, k), arg))
    else
      g[k] = fn
    end
  end
  g.parts = lua_part_fns(name, L, fns.parts, rec, index)
  g.watch = W.watch_lua(rec, whos, args) -- kept with the functions (the model's callback entry holds them)
  return g
end
end
