-- modelfile.lua -- a model file: a Lua file that returns a model spec (lib/lua/kapitza/usermodel.lua's format)
-- with what a run needs besides the functions: default parameter values, an initial state and an
-- end time, each overridable by `key=value` (the command line of bin/kapitza). Also the model's
-- time scales, the two numbers every ladder of the atlas (lib/lua/kapitza/atlas/user.lua) is cut from.
--
--   local MF = require "kapitza.modelfile"
--   local mf = MF.load("scenarios/examples/forced_pendulum2d.lua", { "omega=1e5", "T=2", "q0=0.3,0.1" })
--   -- mf.model (usermodel.model's result), mf.values, mf.y0, mf.T, mf.period, mf.name, mf.spec
--
-- The fields of the file's spec a run needs (lib/lua/kapitza/usermodel.lua documents them and resolves them
-- at the parameter values; this module adds the overrides):
--   values    { name = number, ... }: a default for every parameter (theta0 may be left out: 0)
--   q0, v0    initial positions and velocities (second-order form, nq numbers each; v0 defaults
--             to zeros; a vmi model: q0 and p0, the momenta), or y0: the whole initial state
--             (dim numbers; any form); each a list or a function of the parameters (then the
--             model computes it, lib/lua/kapitza/usermodel.lua); a vmi model's sizes ns, nf may be
--             numbers or names of parameters (y = (qs, qf, ps, pf))
--   T         the default end time (a number or a function of the parameters)
--   period    (optional) the fast period of a model that has no parameter 'omega': a number, a
--             parameter name, or a function of the parameters returning one (e.g.
--             function(p) return p.eps end, or 2*math.pi for a model in the fast time tau)
-- The fast period is named one way throughout: period = 2 pi / omega for a fast-forced model (a
-- parameter 'omega': the phase is theta = omega t + theta0), else the spec's `period` (where a
-- paper writes eps for it), else estimated (see M.scales). (omega = 0 is no forcing: a derived
-- omega = nu of the free top, lib/models/top.lua.) A parameter the spec derives from the others
-- (spec.derived) is not an override.
--
-- Overrides, strictly: a parameter name, T, q0, v0 (p0) or y0 (comma lists); numbers as scenarios take
-- them (1e4, 1/160, 2*pi). An unknown key, an unreadable number, a list of the wrong length, a key
-- given twice: a one-line error naming the key.
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local tostring = require("kapitza.usermodel.guard").text -- a user's values (an error object) worded safely

local M = {}

local function fail(path, msg) error(string.format("model %s: %s", path, msg), 0) end

local function finite(x) return type(x) == "number" and x == x and x < math.huge and x > -math.huge end

--- The spec a model file returns (its chunk run protected; a file that does not return a table
-- with a name is a one-line error).
function M.spec(path)
  if type(path) ~= "string" or path == "" then error("model: give the path of a model file", 0) end
  -- a regular file, checked before it is opened (a FIFO would block, a device never end)
  local okf, why = require("kapitza.files").check_in(path, "model file")
  if not okf then error(why, 0) end
  local f = io.open(path, "rb")
  if not f then fail(path, "cannot open it") end
  f:close()
  local chunk, err = loadfile(path)
  if not chunk then fail(path, "does not load: " .. tostring(err):gsub("\n.*", "")) end
  local ok, spec = require("kapitza.usermodel.watch").pcall(string.format("model file %s (its top-level code)", path), chunk)
  if not ok then fail(path, "raised an error: " .. tostring(spec):gsub("\n.*", "")) end
  if type(spec) ~= "table" then fail(path, "must return the model spec (a table), got " .. type(spec)) end
  if type(spec.name) ~= "string" then fail(path, "the spec has no name") end
  return um.locate(spec, path) -- a relative c.file: from the file's folder
end

-- A comma list of numbers for key k (n of them when n is given).
local function numbers(path, k, s, n)
  local t = {}
  if type(s) == "number" then
    if not finite(s) then fail(path, string.format("%s must be a finite number (got %s)", k, tostring(s))) end
    s = string.format("%.17g", s)
  end
  for item in (s .. ","):gmatch("([^,]*),") do
    local v = S.number(item)
    if v == nil then fail(path, string.format("%s: cannot read '%s' as a number", k, item)) end
    t[#t + 1] = v
  end
  if n and #t ~= n then fail(path, string.format("%s: %d value%s given, the model needs %d", k, #t, #t == 1 and "" or "s", n)) end
  return t
end

--- Split "key=value" strings (or a table key -> string) into a table; a malformed entry or a key
-- given twice is an error.
function M.parse_overrides(path, list)
  local o, order = {}, {}
  if list == nil then return o, order end
  if #list == 0 and next(list) ~= nil then
    for k, v in pairs(list) do o[k] = type(v) == "number" and v or tostring(v); order[#order + 1] = k end
    table.sort(order)
    return o, order
  end
  for _, a in ipairs(list) do
    local k, v = tostring(a):match("^([%a_][%w_]*)=(.*)$")
    if not k then fail(path, string.format("'%s' is not key=value", tostring(a))) end
    if v == "" then fail(path, string.format("%s has no value", k)) end
    if o[k] then fail(path, string.format("%s is given twice", k)) end
    o[k], order[#order + 1] = v, k
  end
  return o, order
end

--- Load the model file at `path` with overrides (a list of "key=value" strings, or a table key ->
-- value string); o.how = "c" | "lua" chooses the functions (default: C when the spec has them);
-- o.library = true for the papers' model files (lib/models/): built as lib/lua/kapitza/models.lua builds
-- them (no trial calls in a child process; model.library = path). o.probe = false skips the
-- trial calls too; o.build = false builds no model at all: mf.model is usermodel.data's table
-- (values, y0, T, period, omega), what the points of a sweep need once the first point is built.
-- The file's data (values, q0/v0/p0 or y0, T, period: numbers, or functions of the parameters,
-- lib/lua/kapitza/usermodel.lua) are resolved by the model at the overridden parameter values; then the
-- state and T overrides apply. Returns { path, name, spec, model, values (with the derived
-- parameters), y0, T, nq, dim, npos (the positions measured: nq, or ns + nf for a vmi model; 0 for
-- the first-order form), period, period_source, overrides, how }.
function M.load(path, overrides, o)
  o = o or {}
  local spec = M.spec(path)
  local ov, order = M.parse_overrides(path, overrides)
  if type(spec.params) ~= "table" then fail(path, "params must list the parameter names") end
  local isparam, derived = {}, type(spec.derived) == "table" and spec.derived or {}
  for _, p in ipairs(spec.params) do isparam[p] = true end
  for _, k in ipairs(order) do
    if derived[k] ~= nil then fail(path, string.format("parameter '%s' is derived from the others: give them, not it", k)) end
  end
  -- a vmi model (y = (qs, qf, ps, pf)): its sizes may name parameters, known once the values are
  local vmi = type(spec.vmi) == "table" and spec.nq == nil and spec.dim == nil
  local nq = type(spec.nq) == "number" and spec.nq or 0
  local npos = vmi and 1 or nq -- (a vmi model's, once the sizes are known)
  local dim = npos > 0 and 2 * npos or spec.dim
  if type(dim) ~= "number" then fail(path, "give nq (second-order form), dim (first-order form) or vmi = { ns = ..., nf = ... }") end
  local vkey = vmi and "p0" or "v0" -- a vmi model's state holds momenta
  -- the keys an override may name
  local state_keys = npos > 0 and ("q0, " .. vkey .. " or y0") or "y0"
  for _, k in ipairs(order) do
    if not (isparam[k] or k == "T" or k == "y0" or (npos > 0 and (k == "q0" or k == vkey))) then
      fail(path, string.format("unknown key '%s' (the model '%s' takes %s, T, %s)", k, spec.name,
                               table.concat(spec.params, ", "), state_keys))
    end
  end
  -- parameter values: the file's, then the overrides
  local values = {}
  if spec.values ~= nil and type(spec.values) ~= "table" then fail(path, "values must be a table { name = number }") end
  for k, v in pairs(spec.values or {}) do
    if not isparam[k] then fail(path, string.format("values.%s: not a parameter (the model has %s)", tostring(k), table.concat(spec.params, ", "))) end
    if not finite(v) then fail(path, string.format("values.%s must be a finite number (got %s)", k, tostring(v))) end
    values[k] = v
  end
  for _, k in ipairs(order) do
    if isparam[k] then values[k] = numbers(path, k, ov[k], 1)[1] end
  end
  for _, p in ipairs(spec.params) do
    if values[p] == nil and p ~= "theta0" and derived[p] == nil then
      fail(path, string.format("parameter '%s' has no value: give it in values = { ... } or as %s=...", p, p))
    end
  end
  if vmi then -- the sizes: numbers, or names of parameters
    local function size(x) if type(x) == "string" then return values[x] end return x end
    local ns, nf = size(spec.vmi.ns), size(spec.vmi.nf)
    if type(ns) ~= "number" or type(nf) ~= "number" then fail(path, "vmi.ns and vmi.nf must be numbers or parameter names") end
    npos = ns + nf
    dim = 2 * npos
  end
  -- the overrides of the state and of T, read before anything is built
  if ov.y0 and (ov.q0 or ov[vkey]) then fail(path, string.format("give y0 or q0/%s, not both", vkey)) end
  local oy = ov.y0 and numbers(path, "y0", ov.y0, dim)
  local oq = ov.q0 and numbers(path, "q0", ov.q0, npos)
  local ov0 = ov[vkey] and numbers(path, vkey, ov[vkey], npos)
  local oT = ov.T and numbers(path, "T", ov.T, 1)[1]
  if oT and not (finite(oT) and oT > 0) then fail(path, string.format("T must be a finite number > 0 (got %s)", tostring(oT))) end
  -- the model itself, with the file's data resolved at these values
  local how = o.how or (spec.c ~= nil and "c" or "lua")
  if how == "c" and spec.c == nil then fail(path, "the model has no C functions (spec.c); use the Lua ones") end
  if how == "lua" and spec.lua == nil then fail(path, "the model has no Lua functions (spec.lua); use the C ones") end
  -- the functions of the way not chosen are checked too (their keys), so that a typo there
  -- (lua.reconstuct beside a c table) is not left for the day the other way runs
  for _, w in ipairs { "c", "lua" } do
    if w ~= how and type(spec[w]) == "table" then
      local pspec = require "kapitza.usermodel.parts_spec"
      local keys = { "accel", "rhs", "reconstruct", "averaged", "phase" }
      for k in pairs(pspec.FN_KEYS) do keys[#keys + 1] = k end
      if w == "c" then keys[#keys + 1] = "source" end
      local ok_ = {}
      for _, k in ipairs(keys) do ok_[k] = true end
      for k in pairs(spec[w]) do
        if not ok_[k] then
          local near = type(k) == "string" and pspec.nearest(k, keys)
          fail(path, string.format("%s.%s: unknown entry%s", w, tostring(k), near and string.format(" (did you mean '%s'?)", near) or ""))
        end
      end
    end
  end
  local ok, model
  if o.build == false then ok, model = pcall(um.data, spec, values) -- the data alone (a sweep's points)
  else ok, model = pcall(um.model, spec, values, how, (o.library or o.probe == false) and { probe = false } or nil) end
  if not ok then error(tostring(model):gsub("\n.*", ""), 0) end
  if o.library then model.library = path end
  -- a fast-forced model's omega is a frequency: 0 is no forcing, a negative one is refused (its
  -- period would be negative: T would be rounded to whole periods of nothing)
  if model.vib and type(model.omega) == "number" and model.omega < 0 then
    fail(path, string.format("omega = %.6g: the fast frequency must be >= 0 (0: no forcing)", model.omega))
  end
  -- the initial state: the file's (model.y0), then the overrides
  local y0
  if oy then
    y0 = oy
  else
    y0 = {}
    if model.y0 then for i = 1, dim do y0[i] = model.y0[i] end
    elseif oq then for i = 1, dim do y0[i] = 0 end
    else fail(path, string.format("no initial state: give %s in the file or as key=value", state_keys)) end
    if oq then for i = 1, npos do y0[i] = oq[i] end end
    if ov0 then for i = 1, npos do y0[npos + i] = ov0[i] end end
  end
  for i = 1, dim do
    if not finite(y0[i]) then fail(path, string.format("the initial state's component %d is not a finite number (%s)", i, tostring(y0[i]))) end
  end
  -- the end time
  local T = oT or model.T
  if T == nil then fail(path, "no end time: give T in the file or T=...") end
  values = model.values or values -- with the derived parameters
  local mf = { path = path, name = spec.name, spec = spec, model = model, values = values, y0 = y0, T = T,
               nq = nq, npos = npos, dim = dim, how = how, overrides = {}, vmi = vmi or nil }
  for _, k in ipairs(order) do
    mf.overrides[#mf.overrides + 1] = k .. "=" .. (type(ov[k]) == "number" and string.format("%.17g", ov[k]) or ov[k])
  end
  -- the fast period
  if model.omega and model.omega > 0 then -- (omega = 0: not forced, e.g. the free top)
    mf.period, mf.period_source = 2 * math.pi / model.omega, string.format("2 pi/omega, omega = %.6g", model.omega)
  elseif model.period and not model.omega then -- (a fast-forced model's is 2 pi/omega: none at omega = 0)
    mf.period, mf.period_source = model.period, "the model's period"
  end
  return mf
end

---------------------------------------------------------------------------------------------------
-- Time scales
---------------------------------------------------------------------------------------------------

-- The Jacobian of the model's force (second-order form: da/dq, nq x nq; first order: df/dy) at
-- y0 by central differences (steps 1e-6 (1 + |x|)), as rows.
local function jacobian(mf)
  local s, d = mf.model.sys, mf.dim
  local n = mf.nq > 0 and mf.nq or d
  local off = mf.nq > 0 and mf.nq or 0 -- where the force sits in f = (v, a)
  local y, f1, f2, r = kz.vec(d, mf.y0), kz.vec(d), kz.vec(d), kz.report()
  local J = {}
  for i = 1, n do J[i] = {} end
  for j = 1, n do
    local x = mf.y0[j]
    local h = 1e-6 * (1 + math.abs(x))
    y[j - 1] = x + h
    kz.call("kz_sys_eval", s, 0, y, f1, r)
    y[j - 1] = x - h
    kz.call("kz_sys_eval", s, 0, y, f2, r)
    y[j - 1] = x
    for i = 1, n do J[i][j] = (f1[off + i - 1] - f2[off + i - 1]) / (2 * h) end
  end
  return J
end

-- The spectral radius of a small matrix (rows), by power iteration from a fixed start.
local function spectral_radius(J)
  local n = #J
  local v = {}
  for i = 1, n do v[i] = 1 + 0.1 * i end
  local rho = 0
  for _ = 1, 200 do
    local w, nw = {}, 0
    for i = 1, n do
      local sum = 0
      for j = 1, n do sum = sum + J[i][j] * v[j] end
      w[i] = sum
      nw = nw + sum * sum
    end
    nw = math.sqrt(nw)
    local nv = 0
    for i = 1, n do nv = nv + v[i] * v[i] end
    if nw == 0 then return 0 end
    rho = nw / math.sqrt(nv)
    for i = 1, n do v[i] = w[i] / nw end
  end
  return rho
end

--- The fast period when the model names none (no omega, no period): 2 pi over the fastest
-- natural frequency at y0, sqrt of the spectral radius of da/dq; in first-order form (a vmi
-- model's Hamiltonian equations too) the square root of the spectral radius of (df/dy)^2, whose
-- eigenvalues -omega^2 of an oscillation +-i omega are real, where power iteration on df/dy
-- itself would not converge; by central differences and power iteration; nil when the force
-- does not depend on the state there. An estimate: the atlas measures, this only cuts its ladders.
function M.estimate_period(mf)
  local J = jacobian(mf)
  if mf.nq == 0 then
    local n, J2 = #J, {}
    for i = 1, n do
      J2[i] = {}
      for j = 1, n do
        local s = 0
        for k = 1, n do s = s + J[i][k] * J[k][j] end
        J2[i][j] = s
      end
    end
    J = J2
  end
  local rho = spectral_radius(J)
  if not (rho > 0) or rho ~= rho then return nil end
  return 2 * math.pi / math.sqrt(rho)
end

--- The number of components the atlas measures: the positions (nq, or ns + nf of a vmi model),
-- or the whole state of a first-order model.
function M.measured(mf)
  local n = mf.npos or mf.nq
  return n > 0 and n or mf.dim
end

--- The positions (second-order form, vmi) or the state (first-order) of y.
function M.slow_part(mf, y)
  local n, t = M.measured(mf), {}
  for i = 1, n do t[i] = y[i] end
  return t
end

--- The slow time scale from states sampled every `dt` (the reference at whole fast periods, so
-- that the fast oscillation drops out): per component of the slow part, half its range over
-- the run divided by its largest rate of change (1/Omega for a slow oscillation of angular
-- frequency Omega, half the run for a steady drift); the smallest over the components that
-- move. nil when nothing moves.
function M.slow_scale(mf, states, dt)
  local n = M.measured(mf)
  local best
  for i = 1, n do
    local lo, hi, rate = math.huge, -math.huge, 0
    for k, y in ipairs(states) do
      lo, hi = math.min(lo, y[i]), math.max(hi, y[i])
      if k > 1 then rate = math.max(rate, math.abs(y[i] - states[k - 1][i]) / dt) end
    end
    local half = 0.5 * (hi - lo)
    if rate > 0 and half > 1e-9 * (1 + math.max(math.abs(lo), math.abs(hi))) then
      local tau = half / rate
      if not best or tau < best then best = tau end
    end
  end
  return best
end

--- The averaged equation's slow angular frequency at the initial positions, when the model gives
-- the averaged force (second-order form): sqrt of the spectral radius of dF/dQ (central
-- differences). nil otherwise.
function M.averaged_frequency(mf)
  local m = mf.model
  if not (m.averaged_force and mf.nq > 0) then return nil end
  local n, Q = mf.nq, {}
  for i = 1, n do Q[i] = mf.y0[i] end
  local J = {}
  for i = 1, n do J[i] = {} end
  for j = 1, n do
    local x, h = Q[j], 1e-6 * (1 + math.abs(Q[j]))
    Q[j] = x + h
    local a = m.averaged_force(n == 1 and Q[1] or Q)
    Q[j] = x - h
    local b = m.averaged_force(n == 1 and Q[1] or Q)
    Q[j] = x
    if n == 1 then a, b = { a }, { b } end
    for i = 1, n do J[i][j] = (a[i] - b[i]) / (2 * h) end
  end
  local rho = spectral_radius(J)
  return rho > 0 and math.sqrt(rho) or nil
end

--- The model's time scales from a short reference run: the fast period (mf.period, or estimated)
-- and the slow scale (M.slow_scale of RK4 states -- HERK3 on a constrained model -- at whole fast periods, m steps per period, over
-- min(T, o.max_periods periods), default 4096). Returns { period, period_source, K (periods run),
-- window (their length), tau (the slow scale, capped at the window; tau_bound = true when
-- nothing moved within it), avg_omega (the averaged equation's, or nil), evals }.
function M.scales(mf, o)
  o = o or {}
  local period, src = mf.period, mf.period_source
  if not period then
    period = M.estimate_period(mf)
    src = "estimated: 2 pi / (fastest natural frequency at y0, from the Jacobian of the force)"
    if not period then period, src = mf.T / 100, "none found (the force does not vary with the state at y0): T/100" end
  end
  local K = math.max(1, math.min(o.max_periods or 4096, math.floor(mf.T / period + 0.5)))
  local m = o.m or 32
  -- a constrained model's reference keeps its constraints (HERK3: RK4 would ignore them)
  local stepper = mf.model.con ~= nil and "herk3" or "rk4"
  local out, c = kz.trajectory(mf.model.sys, stepper, 0, period / m, m, K, mf.y0)
  local states = {}
  for k = 0, K do
    local y = {}
    for i = 1, mf.dim do y[i] = out[k * mf.dim + i - 1] end
    states[k + 1] = y
  end
  local window = K * period
  local tau = M.slow_scale(mf, states, period)
  local bound = tau == nil or tau > window
  if bound then tau = window end
  return { period = period, period_source = src, K = K, window = window, tau = tau, tau_bound = bound, stepper = stepper,
           avg_omega = M.averaged_frequency(mf), evals = c.force_evals, final = states[K + 1] }
end

M.dist = E.dist

return M
