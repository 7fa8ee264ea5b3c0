-- sam.lua -- Lua side of stroboscopic averaging (Calvo, Chartier, Murua & Sanz-Serna 2011):
-- the Kepler (19) and van der Pol (17) models, micro-solver choice, runs of SAM / LISP /
-- multirevolution / the conventional integration, SAM for constrained models. All stepping happens
-- in C (lib/methods/kz_sam*.c); this module configures and collects. The paper's experiments and
-- claims on it are lib/lua/kapitza/papers/sam.lua.
local kz = require "kapitza"
local models = require "kapitza.models"
local O = require "kapitza.options"
local capab = require "kapitza.capability"
local ffi, C = kz.ffi, kz.C

local M = {}

-- The options each entry point takes (lib/lua/kapitza/options.lua: unknown keys and wrong kinds are errors).
local SPARAM_KEYS = { n = "count", period = "positive", t0 = "number", diff = "string" }
local SAM_KEYS = O.merge(SPARAM_KEYS, { macro = "string", H = "nonneg", rtol = "nonneg", atol = "nonneg", hmax = "nonneg",
                                        y0 = "vector", tout = "list", hist = "boolean", hist_cap = "count" })
local MR_KEYS = O.merge(SPARAM_KEYS, { M = "count", N = "count", y0 = "vector" })
local CONV_KEYS = { n = "count", period = "positive", t0 = "number", every = "count", steps = "whole", y0 = "vector" }
local DAE_KEYS = O.merge(SPARAM_KEYS, { micro = "string", macro = "string", H = "positive", y0 = "vector", tout = "list" })
local DAE_CONV_KEYS = { stepper = "string", n = "count", period = "positive", steps = "whole", y0 = "vector", t0 = "number" }

-- The state option o[key] as a buffer of the micro-solver's dimension (a one-line error naming it
-- when its length is wrong or a component is not finite).
local function state(o, key, d, who)
  return kz.vec(d, O.vector(o[key], d, who, key, string.format("the system has dim = %d", d), 3))
end

-- Constant-step macro-solvers are registry steppers; ode45 is the controller.
M.macros = { rk4 = "rk4", dp5 = "dp5", ode45 = "ode45" }
M.micros = { rk4 = "rk4", strang = "strang" }

--- The perturbed Kepler problem (19) in tau, y = (x1, x2, v1, v2); period 2 pi.
function M.kepler(eps) return models.kepler(eps) end
--- van der Pol (17) in tau, y = (q, p); period 2 pi.
function M.vdp(eps) return models.vdp(eps) end

--- The micro-solver for a model: kind 'rk4' (on the full system) or 'strang' (its splitting:
-- perturbation half-steps outside, the unperturbed flow inside; swapped = true exchanges them).
function M.micro(mod, kind, swapped)
  if not M.micros[kind] then error("sam.micro: kind must be 'rk4' or 'strang' (got " .. tostring(kind) .. ")", 2) end
  capab.require(mod, "sam", { micro = kind, period = true }, "sam.micro")
  local sys = mod.sys
  if swapped then
    sys = ffi.new("kz_sys", mod.sys)
    sys.flow_a, sys.flow_b = mod.sys.flow_b, mod.sys.flow_a
  end
  local m = ffi.new("kz_micro")
  m.type, m.sys = kz.stepper(kind), sys
  return { c = m, model = mod, sys = sys, dim = mod.dim, kind = kind } -- keeps them alive
end

local function tolua(buf, off, d)
  local t = {}
  for i = 1, d do t[i] = buf[off + i - 1] end
  return t
end

local function sparams(o)
  local p = ffi.new("kz_sam_params")
  p.period = o.period or 2 * math.pi
  p.t0 = o.t0 or 0
  p.n = o.n
  local ok, diff = pcall(kz.choose, kz.sam_diffs, o.diff or "central2", "sam difference formula")
  if not ok then error(diff, 3) end
  p.diff = diff
  return p
end

--- SAM (or LISP with diff = 'lisp'). o: n, period (2 pi), t0 (0), diff ('central2'|'central4'|
-- 'lisp'|'forward'), macro ('rk4'|'dp5'|'ode45'), H, rtol, atol, hmax, y0, tout (list),
-- hist (true: record the accepted macro steps), hist_cap.
-- Returns the states at tout (list of arrays), the work counts, and the accepted macro steps
-- {t = {...}, h = {...}} (empty unless o.hist).
function M.sam(mi, o)
  O.check(o, SAM_KEYS, "sam.sam")
  local p = sparams(o)
  local mac = ffi.new("kz_macro")
  local mk = M.macros[o.macro or "rk4"]
  if not mk then error("sam.sam: unknown macro-solver '" .. tostring(o.macro) .. "'", 2) end
  if mk == "ode45" then mac.kind = C.KZ_MACRO_ODE45 else mac.kind, mac.type = C.KZ_MACRO_FIXED, kz.stepper(mk) end
  mac.H = o.H or 0
  mac.rtol, mac.atol, mac.hmax = o.rtol or 0, o.atol or 0, o.hmax or 0
  local d = mi.dim
  local y0 = state(o, "y0", d, "sam.sam")
  if o.tout == nil then error("sam.sam: option 'tout' (the output times) is missing", 2) end
  local nout = #o.tout
  local tout, yout = kz.vec(nout, o.tout), kz.vec(nout * d)
  -- the accepted macro steps are recorded only when asked for (o.hist = true)
  local cap = o.hist and (o.hist_cap or 100000) or 0
  local ht, hh, nh = nil, nil, ffi.new("long long[1]")
  if o.hist then ht, hh = kz.vec(cap), kz.vec(cap) end
  local r = kz.report()
  kz.call("kz_sam_run", mi.c, p, mac, y0, nout, tout, yout, ht, hh, cap, nh, r)
  local ys = {}
  for k = 1, nout do ys[k] = tolua(yout, (k - 1) * d, d) end
  local hist = { t = {}, h = {} }
  if o.hist then
    for k = 1, tonumber(nh[0]) do hist.t[k], hist.h[k] = ht[k - 1], hh[k - 1] end
  end
  return ys, kz.counts(r), hist
end

--- The recovered averaged field F~(Y).
function M.force(mi, o, Y)
  O.check(o, SPARAM_KEYS, "sam.force")
  local F, r = kz.vec(mi.dim), kz.report()
  local Yb = kz.vec(mi.dim, O.vector(Y, mi.dim, "sam.force", "Y", string.format("the system has dim = %d", mi.dim)))
  kz.call("kz_sam_force", mi.c, sparams(o), Yb, F, r)
  return tolua(F, 0, mi.dim), kz.counts(r)
end

--- Multirevolution RK4 (32): o.N macro steps of o.M periods, n micro-steps per period.
function M.mr(mi, o)
  O.check(o, MR_KEYS, "sam.mr")
  local y, r = state(o, "y0", mi.dim, "sam.mr"), kz.report()
  kz.call("kz_mr_run", mi.c, sparams(o), o.M, o.N, y, r)
  return tolua(y, 0, mi.dim), kz.counts(r)
end

--- The conventional integration: o.steps micro-steps of h = period/n from t0, the state
-- recorded after every o.every steps (default: only at the end). Returns the list of states.
function M.conventional(mi, o)
  O.check(o, CONV_KEYS, "sam.conventional")
  local period = o.period or 2 * math.pi
  local h = period / o.n
  local every = o.every or o.steps
  local y, r = state(o, "y0", mi.dim, "sam.conventional"), kz.report()
  local out, done = {}, 0
  while done < o.steps do
    local k = math.min(every, o.steps - done)
    kz.call("kz_micro_run", mi.c, (o.t0 or 0) + done * h, h, k, y, r)
    done = done + k
    out[#out + 1] = tolua(y, 0, mi.dim)
  end
  return out, kz.counts(r)
end

M.kepler_y0 = { 1, 0, 0, 1 } -- circular unperturbed orbit: E = -1/2, lam = 1

---------------------------------------------------------------------------------------------------
-- SAM for index-2 DAEs (lib/methods/kz_sam_dae.c, Sec. 6): a constrained model (sys with con,
-- models.dpend), HERK3 as micro- and macro-solver.
---------------------------------------------------------------------------------------------------

-- The model's system with its own constraints and solve counters (kept alive by the caller).
local function counted_sys(mod)
  local con, st = ffi.new("kz_constraints", mod.con), ffi.new("kz_con_stats")
  con.stats, con.lambda = st, nil
  local sys = ffi.new("kz_sys", mod.sys)
  sys.con = con
  return sys, con, st
end

--- SAM on a constrained model: o.n micro-steps per period o.period (2 pi eps), o.t0 (0), o.diff
-- ('central2'), o.micro and o.macro (stepper names, 'herk3'), o.H, o.y0 (consistent), o.tout.
-- Returns the states at tout, the macro multipliers there (rows of 2 m: (mu, lambda) of the
-- last step) and the counts (with micro_pos_solves, micro_vel_solves, macro_pos_solves,
-- macro_vel_solves).
function M.dae(mod, o)
  O.check(o, DAE_KEYS, "sam.dae")
  capab.require(mod, "sam-dae", { period = true }, "sam.dae")
  local sys, con, mst = counted_sys(mod)
  local mi = ffi.new("kz_micro")
  mi.type, mi.sys = kz.stepper(o.micro or "herk3"), sys
  local d, m, nout = mod.dim, mod.con.m, #o.tout
  local tout, yout, zout = kz.vec(nout, o.tout), kz.vec(nout * d), kz.vec(nout * 2 * m)
  local Mst, r = ffi.new("kz_con_stats"), kz.report()
  kz.call("kz_sam_dae_run", mi, sparams(o), kz.stepper(o.macro or "herk3"), o.H, state(o, "y0", d, "sam.dae"), nout, tout,
          yout, zout, Mst, r)
  local ys, zs = {}, {}
  for k = 1, nout do ys[k], zs[k] = tolua(yout, (k - 1) * d, d), tolua(zout, (k - 1) * 2 * m, 2 * m) end
  local c = kz.counts(r)
  c.micro_pos_solves, c.micro_vel_solves = tonumber(mst.pos_solves), tonumber(mst.vel_solves)
  c.macro_pos_solves, c.macro_vel_solves = tonumber(Mst.pos_solves), tonumber(Mst.vel_solves)
  local _ = con -- kept alive until here
  return ys, zs, c
end

--- The conventional integration of a constrained model: o.steps steps of o.stepper ('herk3')
-- with h = o.period / o.n from o.t0 (0). Returns the final state and the counts (with the solves).
function M.dae_conventional(mod, o)
  O.check(o, DAE_CONV_KEYS, "sam.dae_conventional")
  capab.require(mod, o.stepper or "herk3", nil, "sam.dae_conventional")
  local sys, con, st = counted_sys(mod)
  local y, r = state(o, "y0", mod.dim, "sam.dae_conventional"), kz.report()
  kz.call("kz_run", kz.stepper(o.stepper or "herk3"), sys, o.t0 or 0, o.period / o.n, o.steps, y, r)
  local c = kz.counts(r)
  c.pos_solves, c.vel_solves = tonumber(st.pos_solves), tonumber(st.vel_solves)
  local _ = con
  return tolua(y, 0, mod.dim), c
end

return M
