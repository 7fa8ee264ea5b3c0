-- hmm.lua -- the Lua binding of the general HMM (lib/methods/kz_hmm.c, lib/methods/kz_hmm_macro.c): parameters
-- from option tables with the library's names, runs, force estimates and window averages. All
-- stepping happens in C; this module configures and collects.
--
--   local hmm = require "kapitza.hmm"
--   local Q, P, work = hmm.run(model, { preset = "cs2", kernel = "uniform", H = 1/10, T = 1,
--                                       eta = 2*math.pi/omega, h = ..., Q0 = 0.5, P0 = 0 })
--
-- Every entry point checks its options first (lib/lua/kapitza/options.lua: an unknown key, a value of the
-- wrong kind, a state of the wrong length or not finite is a one-line error naming it) and the
-- model's parts (lib/lua/kapitza/capability.lua: e.g. the HMM needs the fast-forced second-order form, the
-- constrained HMM constraints, the slow-variable HMM a slow set). On a user's model run with the
-- preset's micro-stepper (no `micro` given) hmm.run compares one force estimate with RK4's and
-- says on stderr when they differ by more than 1e-2 relative (check_micro = false skips it).
local kz = require "kapitza"
local O = require "kapitza.options"
local cap = require "kapitza.capability"
local ffi, C = kz.ffi, kz.C

local M = {}

-- The options each entry point takes (lib/lua/kapitza/options.lua: unknown keys and wrong kinds are errors).
local PARAM_KEYS = { preset = "string", macro = "string", micro = "string", kernel = "string", phase = "string",
                     recon = "string", half_window = "boolean", fe_drift_average = "boolean", fsal = "boolean",
                     kernel_constant = "nonneg", H = "real", T = "real", eta = "real", h = "real" }
local RUN_KEYS = O.merge(PARAM_KEYS, { Q0 = "vector", P0 = "vector", Y0 = "vector", check_micro = "boolean" })
local DAE_KEYS = { preset = "string", macro = "string", micro = "string", kernel = "string", fsal = "boolean",
                   half_window = "boolean", H = "real", T = "real", eta = "real", h = "real" }
local SLOW_KEYS = { macro = "string", start = "string", lsq = "string", predictor = "string", time = "string",
                    micro = "string", kernel = "string", kernel_constant = "nonneg", phase = "string", H = "real",
                    T = "real", eta = "real", h = "real", fd_step = "nonneg" }
local SLOW_RUN_KEYS = O.merge(SLOW_KEYS, { set = "string", x0 = "vector", final = "boolean", allow_fail = "boolean" })

--- The presets: Calvo & Sanz-Serna's Algorithms 1 and 2, Sharp, Tsai & Engquist's HMM-V-v.
M.presets = { cs1 = C.KZ_HMM_PRESET_CS1, cs2 = C.KZ_HMM_PRESET_CS2, ste = C.KZ_HMM_PRESET_STE,
              names = { "cs1", "cs2", "ste" } }

--- A kz_hmm_params from options: preset (optional, applied first), then macro ('FE', 'IFE',
-- 'V', 'leapfrog'), micro (a stepper name), kernel, kernel_constant (0 = normalised weights),
-- phase ('exact', 'naive', 'zero'), recon ('model', 'identity', 'zero_v'), half_window,
-- fe_drift_average, fsal (booleans), H, T, eta, h.
local function params(o)
  local p = ffi.new("kz_hmm_params")
  if o.preset then
    kz.call("kz_hmm_params_init", p, kz.choose(M.presets, o.preset, "hmm preset"), kz.report())
  end
  if o.macro then p.macro = kz.choose(kz.hmm_macros, o.macro, "hmm macro scheme") end
  if o.micro then p.micro = kz.stepper(o.micro) end
  if o.kernel then p.kernel = kz.choose(kz.kernels, o.kernel, "hmm kernel") end
  if o.phase then p.phase = kz.choose(kz.phases, o.phase, "hmm phase") end
  if o.recon then p.recon = kz.choose(kz.recons, o.recon, "hmm reconstruction") end
  for _, k in ipairs { "half_window", "fe_drift_average", "fsal" } do
    if o[k] ~= nil then p[k] = o[k] and 1 or 0 end
  end
  p.kernel_constant = o.kernel_constant or 0
  p.H, p.T, p.eta, p.h = o.H or 0, o.T or 0, o.eta or 0, o.h or 0
  return p
end
function M.params(o)
  O.check(o, PARAM_KEYS, "hmm.params")
  return params(o)
end

-- The macro state Y0 = (Q0, P0) of the options: Y0 (dim numbers), or Q0 and P0 (nq numbers
-- each, a number when nq = 1; P0 defaults to 0), every component finite.
local function initial(model, o, who)
  local nq, d = model.nq, model.dim
  local size = string.format("the model '%s' has nq = %d", tostring(model.name), nq)
  if o.Y0 ~= nil then
    if o.Q0 ~= nil or o.P0 ~= nil then error(who .. ": give Y0 or Q0 (with P0), not both", 3) end
    return kz.vec(d, O.vector(o.Y0, d, who, "Y0", size, 3))
  end
  if o.Q0 == nil then error(who .. ": option 'Q0' (or Y0) is missing: the initial macro state", 3) end
  local Q = O.vector(o.Q0, nq, who, "Q0", size, 3)
  local P = o.P0 ~= nil and O.vector(o.P0, nq, who, "P0", size, 3) or nil
  local y = kz.vec(d)
  for i = 1, nq do y[i - 1], y[nq + i - 1] = Q[i], P and P[i] or 0 end
  return y
end

-- Safe defaults (issue 18, item 7): a user's model (lib/lua/kapitza/usermodel.lua) run with the micro-stepper
-- a preset chose (o.micro not given) gets one force estimate at the initial state compared with
-- RK4's at the same micro step; when they differ by more than 1e-2 relative, the run says so on
-- stderr (once per model and step), naming the cure. Separate counters: the run's work is its own.
local warned = {}
M.micro_warn_tol = 1e-2
local function check_micro(model, o, p, Y0)
  -- (not the papers' models, lib/lua/kapitza/models.lua: each scenario states its micro-stepper)
  if o.micro ~= nil or o.check_micro == false or model.spec == nil or model.library or model.vib == nil or p.micro == nil then return end
  local name = ffi.string(p.micro.name)
  if name == "rk4" or name == "dp5" then return end
  local period = 2 * math.pi / model.vib.omega
  local key = table.concat({ tostring(model.name), name, o.h or 0, o.eta or 0, o.kernel or "" }, "/")
  if warned[key] then return end
  warned[key] = true
  local q = ffi.new("kz_hmm_params", p)
  q.micro = kz.stepper("rk4")
  local nq = model.nq
  local F1, F2 = kz.vec(nq), kz.vec(nq)
  local ok = pcall(kz.call, "kz_hmm_force", model.vib, p, 0, Y0, F1, nil, kz.report())
  ok = ok and pcall(kz.call, "kz_hmm_force", model.vib, q, 0, Y0, F2, nil, kz.report())
  if not ok then return end -- the run itself reports what is wrong
  local d, s = 0, 0
  for i = 0, nq - 1 do d, s = math.max(d, math.abs(F1[i] - F2[i])), math.max(s, math.abs(F2[i])) end
  local rel = d / math.max(s, 1e-300)
  if rel > M.micro_warn_tol then
    io.stderr:write(string.format("hmm.run: the preset's micro-stepper %s at h = period/%.4g moves the force estimate at the " ..
      "initial state by %.2g relative to rk4 (above %g): pass micro = \"rk4\" or a smaller h (micro = \"%s\" keeps it " ..
      "and silences this)\n", name, period / p.h, rel, M.micro_warn_tol, name))
  end
  return rel
end
M.check_micro = check_micro

--- Run the HMM on model.vib from (Q0, P0) (nq numbers each, a number when nq = 1; or Y0, dim
-- numbers) to T. Returns Q and P (Lua arrays, Q[n + 1] at t_n = n H, n = 0..N; for one degree of
-- freedom the numbers, else rows) and the work counts.
function M.run(model, o)
  O.check(o, RUN_KEYS, "hmm.run")
  cap.require(model, "hmm", o, "hmm.run")
  local p = params(o)
  local N = tonumber(C.kz_steps_in(o.T or 0, o.H or 0))
  if N < 1 then N = 1 end -- let C report the bad grid
  local d, nq = model.dim, model.nq
  local Y0 = initial(model, o, "hmm.run")
  check_micro(model, o, p, Y0)
  local Y = kz.vec((N + 1) * d)
  local r = kz.report()
  kz.call("kz_hmm_run", model.vib, p, Y0, Y, N + 1, r)
  local Q, P = {}, {}
  for n = 0, N do
    if nq == 1 then
      Q[n + 1], P[n + 1] = Y[n * d], Y[n * d + 1]
    else
      Q[n + 1], P[n + 1] = {}, {}
      for i = 1, nq do Q[n + 1][i], P[n + 1][i] = Y[n * d + i - 1], Y[n * d + nq + i - 1] end
    end
  end
  return Q, P, kz.counts(r)
end

--- One force estimate at the macro state Y = (Q, P) (Lua array) and time t: F~ and the kernel
-- average of the micro velocity F~_(1) (Lua arrays) and the work counts.
function M.force(model, o, t, Y)
  O.check(o, RUN_KEYS, "hmm.force") -- the options of a run are accepted (Q0, P0, Y0 unused)
  cap.require(model, "hmm", o, "hmm.force")
  local nq = model.nq
  local F, Fv, r = kz.vec(nq), kz.vec(nq), kz.report()
  Y = O.vector(Y, model.dim, "hmm.force", "Y", string.format("the model has dim = %d", model.dim))
  kz.call("kz_hmm_force", model.vib, params(o), t, kz.vec(model.dim, Y), F, Fv, r)
  local f, fv = {}, {}
  for i = 1, nq do f[i], fv[i] = F[i - 1], Fv[i - 1] end
  return f, fv, kz.counts(r)
end

---------------------------------------------------------------------------------------------------
-- The HMM for constrained systems (lib/methods/kz_hmm_dae.c): Calvo & Sanz-Serna's SHAKE-SHAKE and
-- RATTLE-SHAKE asynchronous algorithms (Sec. 4.2-4.3). The model needs vib and con (the
-- constraints, models.dpend).
---------------------------------------------------------------------------------------------------

M.dae_presets = { ["shake-shake"] = C.KZ_HMM_PRESET_SHAKE_SHAKE, ["rattle-shake"] = C.KZ_HMM_PRESET_RATTLE_SHAKE,
                  names = { "shake-shake", "rattle-shake" } }
M.dae_macros = { SHAKE = C.KZ_HMM_SHAKE, RATTLE = C.KZ_HMM_RATTLE, names = { "SHAKE", "RATTLE" } }

--- A kz_hmm_params for the constrained HMM: o.preset ('shake-shake' | 'rattle-shake'), then
-- any field of M.params (macro 'SHAKE' | 'RATTLE' here), H, T, eta, h.
function M.dae_params(o)
  O.check(o, DAE_KEYS, "hmm.dae_params")
  local p = ffi.new("kz_hmm_params")
  kz.call("kz_hmm_params_init", p, kz.choose(M.dae_presets, o.preset or "shake-shake", "constrained hmm preset"), kz.report())
  if o.macro then p.macro = kz.choose(M.dae_macros, o.macro, "constrained hmm macro scheme") end
  if o.micro then p.micro = kz.stepper(o.micro) end
  if o.kernel then p.kernel = kz.choose(kz.kernels, o.kernel, "hmm kernel") end
  if o.fsal ~= nil then p.fsal = o.fsal and 1 or 0 end
  if o.half_window ~= nil then p.half_window = o.half_window and 1 or 0 end
  p.H, p.T, p.eta, p.h = o.H or 0, o.T or 0, o.eta or 0, o.h or 0
  return p
end

local function rows(buf, n, w)
  local t = {}
  for k = 0, n - 1 do
    local row = {}
    for i = 1, w do row[i] = buf[k * w + i - 1] end
    t[k + 1] = row
  end
  return t
end

local function dae_counts(r, micro, con_stats)
  local c = kz.counts(r)
  c.micro_pos_solves, c.micro_vel_solves = tonumber(micro.pos_solves), tonumber(micro.vel_solves)
  c.macro_pos_solves, c.macro_vel_solves = tonumber(con_stats.pos_solves), tonumber(con_stats.vel_solves)
  return c
end

-- The model's constraints with fresh solve counters (the macro ones); kept alive by the caller.
local function counted(model)
  local con, st = ffi.new("kz_constraints", model.con), ffi.new("kz_con_stats")
  con.stats, con.lambda = st, nil
  return con, st
end

--- Run the constrained HMM from Y0 (Lua array, dim numbers, consistent) to o.T. Returns the
-- macro states Y[n + 1] (rows of dim numbers at t_n = n H, n = 0..N; SHAKE: the velocity part is
-- V_{n-1/2}), the multipliers L[n + 1] (rows of 2 m for the steps n = 0..N-1: SHAKE (Lambda_n,
-- NaN...), RATTLE (Lambda_x, Lambda_v)) and the work counts (with the micro and macro solves).
function M.dae_run(model, o, Y0)
  O.check(o, DAE_KEYS, "hmm.dae_run")
  local macro = o.macro or ((o.preset or "shake-shake") == "rattle-shake" and "RATTLE" or "SHAKE")
  cap.require(model, macro == "RATTLE" and "hmm-rattle" or "hmm-shake", nil, "hmm.dae_run")
  Y0 = O.vector(Y0, model.dim, "hmm.dae_run", "Y0", string.format("the model has dim = %d", model.dim))
  local p = M.dae_params(o)
  local N = tonumber(C.kz_steps_in(o.T, o.H))
  if N < 1 then N = 1 end -- let C report the bad grid
  local d, m = model.dim, model.con.m
  local Y, L = kz.vec((N + 1) * d), kz.vec(N * 2 * m)
  local con, st = counted(model)
  local micro, r = ffi.new("kz_con_stats"), kz.report()
  kz.call("kz_hmm_dae_run", model.vib, con, p, kz.vec(d, Y0), Y, L, N + 1, micro, r)
  return rows(Y, N + 1, d), rows(L, N, 2 * m), dae_counts(r, micro, st)
end

--- One RATTLE macro step from (t, Y): the new state, the multipliers (Lambda_x, Lambda_v), counts.
function M.dae_step(model, o, t, Y)
  cap.require(model, "hmm-rattle", nil, "hmm.dae_step")
  Y = O.vector(Y, model.dim, "hmm.dae_step", "Y", string.format("the model has dim = %d", model.dim))
  local p = M.dae_params(o)
  local d, m = model.dim, model.con.m
  local y, lam = kz.vec(d, Y), kz.vec(2 * m)
  local con, st = counted(model)
  local micro, r = ffi.new("kz_con_stats"), kz.report()
  kz.call("kz_hmm_dae_step", model.vib, con, p, t, y, lam, micro, r)
  return rows(y, 1, d)[1], rows(lam, 1, 2 * m)[1], dae_counts(r, micro, st)
end

--- The filtered total force (mass-normalised, nq numbers) at the macro state Y, and counts.
function M.dae_force(model, o, t, Y)
  cap.require(model, "hmm-shake", nil, "hmm.dae_force")
  Y = O.vector(Y, model.dim, "hmm.dae_force", "Y", string.format("the model has dim = %d", model.dim))
  local p = M.dae_params(o)
  local F, micro, r = kz.vec(model.nq), ffi.new("kz_con_stats"), kz.report()
  local con, st = counted(model)
  kz.call("kz_hmm_dae_force", model.vib, con, p, t, kz.vec(model.dim, Y), F, micro, r)
  return rows(F, 1, model.nq)[1], dae_counts(r, micro, st)
end

---------------------------------------------------------------------------------------------------
-- The slow-variable HMM (lib/methods/kz_hmm_slow.c; Fredbo, Algorithms 3-4)
---------------------------------------------------------------------------------------------------

--- A kz_slow_params from options (defaults: Fredbo's HMM-LF-rk4 with the notes' readings):
-- macro ('FE', 'LF'), start ('FE', 'heun'), lsq ('minnorm', 'basic'), predictor ('none',
-- 'literal'), time ('literal', 'consistent'), micro (a stepper name, 'rk4'), kernel ('exp2'),
-- kernel_constant (0 = normalised weights), phase ('exact'), H, T, eta, h, fd_step (0 = analytic
-- gradients; > 0: central differences).
local function slow_params(o)
  local p = ffi.new("kz_slow_params")
  p.macro = kz.choose(kz.slow_macros, o.macro or "LF", "slow HMM macro scheme")
  p.start = kz.choose(kz.slow_starts, o.start or "FE", "leapfrog start")
  p.lsq = kz.choose(kz.lsq_kinds, o.lsq or "minnorm", "least-squares solution")
  p.predictor = kz.choose(kz.predictors, o.predictor or "none", "predictor")
  p.time_update = kz.choose(kz.slow_times, o.time or "literal", "time update")
  p.micro = kz.stepper(o.micro or "rk4")
  p.kernel = kz.choose(kz.kernels, o.kernel or "exp2", "kernel")
  p.kernel_constant = o.kernel_constant or 0
  p.phase = kz.choose(kz.phases, o.phase or "exact", "phase")
  p.H, p.T, p.eta, p.h = o.H or 0, o.T or 0, o.eta or 0, o.h or 0
  p.fd_step = o.fd_step or 0
  return p
end
function M.slow_params(o)
  O.check(o, SLOW_KEYS, "hmm.slow_params")
  return slow_params(o)
end

-- The slow set o.set (default: "32" for the top, else the model's only set).
local function slow_set(model, o, who)
  cap.require(model, "hmm-slow", nil, who, 2)
  local name = o.set
  if name == nil then
    local names = {}
    for k in pairs(model.slow) do names[#names + 1] = k end
    table.sort(names)
    name = model.slow["32"] and "32" or (#names == 1 and names[1] or nil)
    if not name then error(string.format("%s: the model '%s' has several slow sets (%s): choose one with set = ...", who,
                                         tostring(model.name), table.concat(names, ", ")), 3) end
  end
  local s = model.slow[name]
  if not s then
    local names = {}
    for k in pairs(model.slow) do names[#names + 1] = k end
    table.sort(names)
    error(string.format("%s: the model '%s' has no slow set '%s' (it has %s)", who, tostring(model.name), tostring(name),
                        table.concat(names, ", ")), 3)
  end
  return s
end

--- Run Algorithms 3-4 on model.vib with the slow set model.slow[o.set] (default "32") from the
-- state o.x0 (Lua array) to o.T. Returns x (x[i][n + 1] = component i at t_n; with o.final only
-- the last valid node, x[i][1]), xi (xi[k][n + 1], likewise),
-- the work counts, and the number of valid macro nodes. A failed run raises, unless o.allow_fail:
-- then the rows before the failure are returned with the error message as a fifth value.
function M.slow_run(model, o)
  O.check(o, SLOW_RUN_KEYS, "hmm.slow_run")
  local p, s = slow_params(o), slow_set(model, o, "hmm.slow_run")
  local N = tonumber(C.kz_steps_in(o.T, o.H))
  if N < 1 then N = 1 end -- let C report the bad grid
  local d, rr = s.dim, s.r
  local X, XI, r = kz.vec((N + 1) * d), kz.vec((N + 1) * rr), kz.report()
  local x0 = O.vector(o.x0, d, "hmm.slow_run", "x0", string.format("the model has dim = %d", d))
  local st = kz.status("kz_slow_run", model.vib, s, p, kz.vec(d, x0), X, N + 1, XI, r)
  local nvalid, msg = N + 1, nil
  if st ~= 0 then
    if not o.allow_fail or r.fail_step < 0 then kz.fail("kz_slow_run", st, r) end
    nvalid = tonumber(r.fail_step) + (r.param ~= nil and ffi.string(r.param) == "x" and 0 or 1)
    msg = string.format("%s%s at step %d, t = %.6g", ffi.string(C.kz_strerror(st)),
                        r.param ~= nil and string.format(" (parameter '%s')", ffi.string(r.param)) or "", tonumber(r.fail_step), r.fail_time)
  end
  local x, xi = {}, {}
  for i = 1, d do x[i] = {} end
  for k = 1, rr do xi[k] = {} end
  local first = o.final and math.max(nvalid - 1, 0) or 0 -- o.final: only the last valid node
  for n = first, nvalid - 1 do
    for i = 1, d do x[i][n - first + 1] = X[n * d + i - 1] end
    for k = 1, rr do xi[k][n - first + 1] = XI[n * rr + k - 1] end
  end
  return x, xi, kz.counts(r), nvalid, msg
end

--- One force estimate of Algorithm 3 at time t from the state x (Lua array): the averaged
-- d/dt xi (Lua array of r), the least-squares delta (Lua array of dim) and the work counts.
function M.slow_force(model, o, t, x)
  O.check(o, O.merge(SLOW_KEYS, { set = "string" }), "hmm.slow_force")
  local p, s = slow_params(o), slow_set(model, o, "hmm.slow_force")
  x = O.vector(x, s.dim, "hmm.slow_force", "x", string.format("the model has dim = %d", s.dim))
  local dxi, delta, r = kz.vec(s.r), kz.vec(s.dim), kz.report()
  kz.call("kz_slow_force", model.vib, s, p, t, kz.vec(s.dim, x), dxi, delta, r)
  local a, b = {}, {}
  for k = 1, s.r do a[k] = dxi[k - 1] end
  for j = 1, s.dim do b[j] = delta[j - 1] end
  return a, b, kz.counts(r)
end

--- The least-squares solution of J x = b (J: rows of Lua arrays), kind 'minnorm' or 'basic':
-- x (Lua array) and the numerical rank.
function M.lsq(J, b, kind)
  local m, n = #J, #J[1]
  local Jc = kz.vec(m * n)
  for i = 1, m do for j = 1, n do Jc[(i - 1) * n + j - 1] = J[i][j] end end
  local x, rank = kz.vec(n), ffi.new("int[1]")
  local w = kz.vec(math.max(1, tonumber(C.kz_lsq_work(m, n))))
  kz.call("kz_lsq_solve", kz.choose(kz.lsq_kinds, kind or "minnorm", "least-squares solution"), m, n, Jc,
          kz.vec(m, b), x, rank, w, kz.report())
  local out = {}
  for j = 1, n do out[j] = x[j - 1] end
  return out, rank[0]
end

return M
