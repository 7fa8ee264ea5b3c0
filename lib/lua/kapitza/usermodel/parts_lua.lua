-- modelparts_lua.lua -- the Lua way of a user's model's optional parts: the FFI callbacks (created
-- once per process) that dispatch on the parameter struct to the closures of one model, each
-- guarded (lib/lua/kapitza/usermodel/guard.lua) and its status or value checked, derivatives the spec leaves out
-- by central differences (lib/lua/kapitza/usermodel/derivatives.lua). Used by lib/lua/kapitza/usermodel/parts.lua.
local kz = require "kapitza"
local Dv = require "kapitza.usermodel.derivatives"
local guard = require "kapitza.usermodel.guard"
local tostring = guard.text -- a user's error value never raises here (guard.text)
local ffi, C = kz.ffi, kz.C

local P = {}

---------------------------------------------------------------------------------------------------
-- The Lua way: callbacks (created once per process) dispatching on the parameter struct
---------------------------------------------------------------------------------------------------

local function failed(msg)
  kz.callback_error = msg
  return C.KZ_EMODEL
end

-- Status of pcall(f, ...) of a user function that returns nothing or a kz status (a guarded
-- function's fault, lib/lua/kapitza/usermodel/guard.lua: an output left unset, os.exit, is its own message).
local function status(name, what, ok, st)
  if not ok and guard.lua_fault(st) then return failed(guard.lua_fault(st)) end
  if not ok then return failed(string.format("usermodel '%s': %s raised an error: %s", name, what, tostring(st))) end
  if st == nil or st == 0 then return 0 end
  if type(st) == "number" and st == math.floor(st) and st > 0 and st < 2 ^ 31 then
    kz.callback_error = string.format("usermodel '%s': %s returned status %d (%s)", name, what, st, ffi.string(C.kz_strerror(st)))
    return st
  end
  return failed(string.format("usermodel '%s': %s returned %s (expected nothing or a kz status)", name, what, tostring(st)))
end

-- Value of pcall(f, ...) of a user function that returns a number (a potential, an invariant).
local function value(name, what, ok, v)
  if not ok and guard.lua_fault(v) then return nil, failed(guard.lua_fault(v)) end
  if not ok then return nil, failed(string.format("usermodel '%s': %s raised an error: %s", name, what, tostring(v))) end
  if type(v) ~= "number" then
    return nil, failed(string.format("usermodel '%s': %s returned %s (expected a number)", name, what, tostring(v)))
  end
  return v, 0
end

local slow_live = {} -- address of a slow set's anchor -> { fn, P }
local function addr(p) return tonumber(ffi.cast("uintptr_t", ffi.cast("void *", p))) end

local callbacks
local function make_callbacks(um)
  if callbacks then return callbacks end
  jit.off(kz.call) -- see lib/lua/kapitza/usermodel.lua: compiled code must not call C that calls back into Lua
  jit.off(kz.status)
  jit.flush()
  local function orphan() return failed("usermodel: a callback ran for a model that no longer exists") end
  local cb = {}
  for _, ab in ipairs { "a", "b" } do
    cb["flow_" .. ab] = ffi.cast("kz_flow_fn", function(par, t, h, y, r)
      local e, Pp = um.lua_entry(par)
      if not (e and Pp and e.parts) then return orphan() end
      return e.parts["flow_" .. ab](Pp, t, h, y)
    end)
  end
  cb.con = ffi.cast("kz_con_fn", function(par, q, g, G)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.con(Pp, q, g, G)
  end)
  cb.V = ffi.cast("kz_vmi_slow_fn", function(par, qs, qf, v, gs, gf, hess)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.V(Pp, qs, qf, v, gs, gf, hess)
  end)
  cb.W = ffi.cast("kz_vmi_fast_fn", function(par, qf, w, g, hess)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.W(Pp, qf, w, g, hess)
  end)
  cb.slow = ffi.cast("kz_slow_fn", function(par, theta, x, xi, grad, xit)
    local s = slow_live[addr(par)]
    if not s then return orphan() end
    return s.fn(s.P, theta, x, xi, grad, xit)
  end)
  callbacks = cb
  return cb
end

-- The Lua closures behind the callbacks of one model (they take the parameter struct as their
-- first argument, so that the process-wide tables never hold it).
local function lua_parts(name, L, fp)
  local parts, out = L.parts, {}
  if fp.flows then
    for _, ab in ipairs { "a", "b" } do
      local f = fp.flows[ab]
      out["flow_" .. ab] = function(Pp, t, h, y) return status(name, "flows." .. ab, pcall(f, Pp, t, h, y)) end
    end
  end
  if fp.constraints then
    local g, jac, nq, m = fp.constraints.g, fp.constraints.jacobian, parts.constraints.nq, parts.constraints.m
    local s = Dv.scratch(ffi, nq, m)
    out.con = function(Pp, q, gout, G)
      if gout ~= nil then
        local st = status(name, "constraints.g", pcall(g, Pp, q, gout))
        if st ~= 0 then return st end
      end
      if G ~= nil then
        if jac then return status(name, "constraints.jacobian", pcall(jac, Pp, q, G)) end
        local bad = Dv.jacobian(function(xw, o)
          local st = status(name, "constraints.g", pcall(g, Pp, xw, o))
          if st ~= 0 then return st end
        end, nq, m, q, G, s)
        return bad or 0
      end
      return 0
    end
  end
  if fp.slow then
    out.slow = {}
    for _, set in ipairs(parts.slow.names) do
      local f, r, d = fp.slow[set], parts.slow[set].r, L.dim
      local sx, st1 = Dv.scratch(ffi, d, r), Dv.scratch(ffi, 1, r)
      local th = ffi.new("double[1]")
      local what = "slow." .. set
      out.slow[set] = function(Pp, theta, x, xi, grad, xit)
        if xi ~= nil then
          local st = status(name, what .. ".xi", pcall(f.xi, Pp, theta, x, xi))
          if st ~= 0 then return st end
        end
        if grad ~= nil then
          local st
          if f.gradient then st = status(name, what .. ".gradient", pcall(f.gradient, Pp, theta, x, grad))
          else
            st = Dv.jacobian(function(xw, o)
              local s2 = status(name, what .. ".xi", pcall(f.xi, Pp, theta, xw, o))
              if s2 ~= 0 then return s2 end
            end, d, r, x, grad, sx) or 0
          end
          if st ~= 0 then return st end
        end
        if xit ~= nil then
          if f.dtheta then return status(name, what .. ".dtheta", pcall(f.dtheta, Pp, theta, x, xit)) end
          th[0] = theta
          return Dv.jacobian(function(tw, o)
            local s2 = status(name, what .. ".xi", pcall(f.xi, Pp, tw[0], x, o))
            if s2 ~= 0 then return s2 end
          end, 1, r, th, xit, st1) or 0
        end
        return 0
      end
    end
  end
  if fp.vmi then
    local ns, nf = parts.vmi.ns, parts.vmi.nf
    -- one potential: value(Pp, x) of the stacked positions x, its gradient and Hessian, added
    local function potential(P_, fv, fg, fh, n, split)
      local x, g, H = ffi.new("double[?]", math.max(n, 1)), ffi.new("double[?]", math.max(n, 1)),
                      ffi.new("double[?]", math.max(n * n, 1))
      local s1, s2 = Dv.scratch(ffi, n, 1), Dv.scratch(ffi, n, n)
      local function val(Pp, xx, o)
        local v, st
        if split then v, st = value(name, "vmi." .. P_, pcall(fv, Pp, xx, xx + ns)) else v, st = value(name, "vmi." .. P_, pcall(fv, Pp, xx)) end
        if st ~= 0 then return st end
        o[0] = v
      end
      local function grad(Pp, xx, o)
        if fg then
          for i = 0, n - 1 do o[i] = 0 end
          local st
          if split then st = status(name, "vmi." .. P_ .. "_gradient", pcall(fg, Pp, xx, xx + ns, o, o + ns))
          else st = status(name, "vmi." .. P_ .. "_gradient", pcall(fg, Pp, xx, o)) end
          if st ~= 0 then return st end
          return nil
        end
        return Dv.jacobian(function(xw, oo) return val(Pp, xw, oo) end, n, 1, xx, o, s1)
      end
      local function hess(Pp, xx, o)
        if fh then
          for i = 0, n * n - 1 do o[i] = 0 end
          local st
          if split then st = status(name, "vmi." .. P_ .. "_hessian", pcall(fh, Pp, xx, xx + ns, o))
          else st = status(name, "vmi." .. P_ .. "_hessian", pcall(fh, Pp, xx, o)) end
          if st ~= 0 then return st end
          return nil
        end
        local bad = Dv.jacobian(function(xw, oo) return grad(Pp, xw, oo) end, n, n, xx, o, s2)
        if bad then return bad end
        for i = 0, n - 1 do
          for j = i + 1, n - 1 do
            local a = 0.5 * (o[i * n + j] + o[j * n + i])
            o[i * n + j], o[j * n + i] = a, a
          end
        end
      end
      return { x = x, g = g, H = H, val = val, grad = grad, hess = hess, n = n }
    end
    local V = potential("V", fp.vmi.V, fp.vmi.V_gradient, fp.vmi.V_hessian, ns + nf, true)
    out.V = function(Pp, qs, qf, v, gs, gf, hess)
      local x, n = V.x, V.n
      for i = 0, ns - 1 do x[i] = qs[i] end
      for i = 0, nf - 1 do x[ns + i] = qf[i] end
      if v ~= nil then
        local st = V.val(Pp, x, v)
        if st then return st end
      end
      if gs ~= nil or gf ~= nil then
        local st = V.grad(Pp, x, V.g)
        if st then return st end
        if gs ~= nil then for i = 0, ns - 1 do gs[i] = gs[i] + V.g[i] end end
        if gf ~= nil then for i = 0, nf - 1 do gf[i] = gf[i] + V.g[ns + i] end end
      end
      if hess ~= nil then
        local st = V.hess(Pp, x, V.H)
        if st then return st end
        for i = 0, n * n - 1 do hess[i] = hess[i] + V.H[i] end
      end
      return 0
    end
    if fp.vmi.W then
      local W = potential("W", fp.vmi.W, fp.vmi.W_gradient, fp.vmi.W_hessian, nf, false)
      out.W = function(Pp, qf, w, gf, hess)
        local x, n = W.x, W.n
        for i = 0, nf - 1 do x[i] = qf[i] end
        if w ~= nil then
          local st = W.val(Pp, x, w)
          if st then return st end
        end
        if gf ~= nil then
          local st = W.grad(Pp, x, W.g)
          if st then return st end
          for i = 0, nf - 1 do gf[i] = gf[i] + W.g[i] end
        end
        if hess ~= nil then
          local st = W.hess(Pp, x, W.H)
          if st then return st end
          for i = 0, n * n - 1 do hess[i] = hess[i] + W.H[i] end
        end
        return 0
      end
    end
  end
  return out
end

P.failed, P.status, P.value, P.addr, P.slow_live = failed, status, value, addr, slow_live
P.make_callbacks, P.lua_parts = make_callbacks, lua_parts

return P
