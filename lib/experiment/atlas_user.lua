-- atlas_user.lua -- the atlas on a model of one's own (`kapitza atlas MODEL.lua`): every method
-- family the model's parts allow (lib/lua/capability.lua decides: the HMM on a fast-forced model, the
-- SAM family with RK4 micro-steps and, given flows, with Strang's; with constraints SHAKE,
-- RATTLE, HERK3, the constrained HMM and SAM on the DAE; with slow sets the slow-variable HMM;
-- with a multirate split the variational multirate integrators; the direct steppers the system
-- takes), the others listed with capability's reason; each over ladders of its accuracy parameters cut from the
-- model's two time scales (the fast period 2 pi/omega, or the model's `period`; the slow scale
-- tau from the reference run, lib/experiment/modelfile.lua), the peers when built (lib/lua/peers.lua), against
-- a reference whose own accuracy is estimated and stated; error against force evaluations and
-- against CPU seconds (measured here: lib/experiment/atlas.lua's A.campaign, lib/lua/timing.lua's clock), the
-- figure, and the cheapest configuration meeting each target tolerance as `key=value`, ready to
-- paste after `kapitza solve MODEL.lua`.
--
-- The sweep engine is lib/experiment/atlas.lua's, the same as the eight atlas-<problem> scenarios': a
-- method is { name, family, knob, label, ladder, run(ctx, x, x2) -> error, counts }, its curve
-- the envelope of its ladder (A.mark_fronts), its runs made by A.run_one. What differs: the
-- problem is built from the model file rather than written in lib/experiment/atlas_problems.lua, and the
-- runs are timed. Seconds depend on the machine: they appear only in the outputs of this command,
-- never in the reproducible paper/ outputs (the scenarios write evaluations only).
local kz = require "kapitza"
local S = require "scenario"
local E = require "experiment"
local A = require "atlas"
local AW = require "atlas_write"
local AM = require "atlas_methods"
local MF = require "modelfile"
local hmm = require "hmm"
local sam = require "sam"
local vmi = require "vmi"
local cap = require "capability"

local M = {}

M.default_tol = { 1e-2, 1e-4, 1e-6 }

local function finite(x) return type(x) == "number" and x == x and x < math.huge and x > -math.huge end

-- the distinct values of a list, in order
local function uniq(t)
  local seen, out = {}, {}
  for _, v in ipairs(t) do if not seen[v] then seen[v] = true; out[#out + 1] = v end end
  return out
end

local function min_of(t)
  local m = math.huge
  for _, v in ipairs(t) do m = math.min(m, v) end
  return m
end

---------------------------------------------------------------------------------------------------
-- The run: time grid, reference, time scales
---------------------------------------------------------------------------------------------------

--- Does the model carry holonomic constraints (lib/lua/capability.lua's part: model.con, the
-- kz_constraints the constrained methods take, as lib/lua/models.lua's dpend and a user model's
-- constraints part)? Its reference is then HERK3, which keeps them.
function M.constrained(model) return cap.parts(model).constraints end

--- Reference states by a registry stepper of order p with m and 2m steps per output interval L,
-- Richardson-extrapolated: experiment.richardson (the constrained models' reference is HERK3,
-- which keeps the constraints). Returns the states at L, 2L, ..., nout L, the largest estimate
-- |y_2m - y_m|/(2^p - 1) at the end and the estimates by component.
function M.richardson(s, stepper, p, y0, L, nout, m)
  return E.richardson(s, y0, L, nout, m, stepper, p)
end

--- The context of the atlas on the loaded model file mf (lib/experiment/modelfile.lua): the end time
-- rounded to K whole fast periods (a multiple of 32 when there are at least 64, so that the
-- macro grids of SAM and the multirevolution method divide it), the reference at T (RK4 with m
-- and 2m steps per period, Richardson extrapolation; m doubled from o.refm until its estimated
-- error is below min(tol)/100, or m = o.refmax), the slow scale tau from the reference's states
-- at whole periods, and the error: the Euclidean norm of the positions' error at T (the whole
-- state for a first-order model). A problem of the atlas scenarios (lib/experiment/atlas_problems.lua) sets
-- up its model file the same way, with o.period (its own fast period, e.g. eps), o.multiple (K a
-- multiple of it) or o.K and o.T (its own grid), o.refm = o.refmax (a fixed reference) or
-- o.reference = false (its own, set by the problem), and o.note(ctx) (its words for the data
-- files' headers); ctx.ref_est_state is the reference's estimate over the whole state.
function M.setup(mf, o)
  o = o or {}
  local tol = o.tol or M.default_tol
  local period, psrc = mf.period, mf.period_source
  if o.period then period, psrc = o.period, o.period_source or "given" end -- a problem's own (lib/experiment/atlas_problems.lua)
  if not period then
    period = MF.estimate_period(mf)
    psrc = "estimated: 2 pi / (fastest natural frequency at y0, from the Jacobian of the force)"
    if not period then period, psrc = mf.T / 100, "none found (the force does not vary with the state at y0): T/100" end
  end
  local K0 = mf.T / period
  local K = o.K or AM.whole_periods(mf.T, period, o.multiple or (K0 >= 64 and 32 or 1))
  local T = o.T or K * period
  local model, y0 = mf.model, mf.y0
  local n = MF.measured(mf)
  local refm, refmax = o.refm or 64, o.refmax or 1024
  local st, est, ests
  local goal = min_of(tol) / 100
  local evals = 0
  local constrained = M.constrained(model)
  while o.reference ~= false do
    if constrained then st, est, ests = M.richardson(model.sys, "herk3", 3, y0, period, K, refm)
    else st, est, ests = E.richardson(model.sys, y0, period, K, refm) end
    evals = evals + K * 3 * refm * 4
    ests.all = est -- the largest over the whole state (E.richardson's)
    local s = 0
    for i = 1, n do s = s + ests[i] * ests[i] end
    est = math.sqrt(s)
    if est <= goal or refm >= refmax then break end
    refm = 2 * refm
    if o.progress then o.progress(string.format("reference: %d steps per period", refm)) end
  end
  local ref, tau = st and st[K], nil
  if st then
    local states = { y0 }
    for k = 1, K do states[k + 1] = st[k] end
    tau = MF.slow_scale(mf, states, period)
  end
  local tau_bound = tau == nil or tau > T
  if tau_bound then tau = T end
  local qref = ref and MF.slow_part(mf, ref) or MF.slow_part(mf, y0)
  local ctx = { mf = mf, model = model, sys = model.sys, y0 = y0, T = T, K = K, period = period, period_source = psrc,
                ref = ref, ref_est = est, refm = refm, tau = tau, tau_bound = tau_bound, tol = tol, ref_evals = evals,
                ref_est_state = ests and ests.all }
  function ctx.err(y) return E.dist(MF.slow_part(mf, y), qref) end
  function ctx.err_slow(Q)
    if type(Q) == "number" then Q = { Q } end
    return E.dist(Q, qref)
  end
  -- the HMM's macro start (Q0, P0): Q0 = q0, and P0 = v0 less the velocity the model's
  -- reconstruction adds at the initial phase (its lift at P = 0); without a reconstruction P0 = v0
  if model.vib and mf.nq > 0 then
    local nq, Y0 = mf.nq, {}
    for i = 1, 2 * nq do Y0[i] = y0[i] end
    local theta0 = mf.values.theta0 or 0
    local fn = mf.how == "lua" and mf.spec.lua and mf.spec.lua.reconstruct or nil
    local has = fn ~= nil or (mf.how == "c" and mf.spec.c and mf.spec.c.reconstruct ~= nil)
    if has then
      local Y, y = kz.vec(2 * nq), kz.vec(2 * nq)
      for i = 1, nq do Y[i - 1] = y0[i] end
      local st2 = fn and fn(model.par, theta0, Y, y) or model.vib.reconstruct(model.par, theta0, Y, y)
      if st2 ~= nil and st2 ~= 0 then error("the model's reconstruct refused the initial state", 0) end
      for i = 1, nq do Y0[nq + i] = y0[nq + i] - y[nq + i - 1] end
    end
    ctx.Y0 = Y0
  end
  if not ref then est, refm = 0 / 0, 0 end
  ctx.constrained = constrained
  ctx.ref_what = constrained and "HERK3 (the constraints kept)" or "RK4"
  ctx.note = string.format("T = %d fast periods = %.17g (the model's T = %.17g rounded to whole periods); period %.6g (%s); " ..
    "slow scale tau = %.6g%s; reference y(T): %s with %d and %d steps per period, Richardson, its error in the measured " ..
    "components estimated at %.1e (|y_2m - y_m|/(2^p - 1), a bound on the extrapolated value's)",
    K, T, mf.T, period, psrc, tau, tau_bound and " (nothing moved: the run's length)" or "", ctx.ref_what, refm, 2 * refm, est)
  if o.note then ctx.note = o.note(ctx) end -- a problem's own words
  return ctx
end

---------------------------------------------------------------------------------------------------
-- The methods, with ladders cut from the time scales
---------------------------------------------------------------------------------------------------

-- Macro step counts N = ceil(T/H) for macro steps H = tau * f (f in `fracs`), at least lo and
-- at most hi, distinct, increasing.
local function macro_counts(ctx, fracs, lo, hi)
  local t = {}
  for _, f in ipairs(fracs) do
    local N = math.ceil(ctx.T / (ctx.tau * f) - 1e-9)
    t[#t + 1] = math.max(lo, math.min(hi, N))
  end
  table.sort(t)
  return uniq(t)
end

-- The divisors d of K with K/d >= minM (whole macro steps of K/d periods; the multirevolution
-- method needs K/d > 4) nearest (in log) to each wanted count.
local function divisor_counts(K, wanted, minM)
  local divs = {}
  for d = 1, K do if K % d == 0 and K / d >= minM then divs[#divs + 1] = d end end
  local t = {}
  for _, w in ipairs(wanted) do
    local best, bd
    for _, d in ipairs(divs) do
      local dist = math.abs(math.log(d / w))
      if not bd or dist < bd then best, bd = d, dist end
    end
    if best then t[#t + 1] = best end
  end
  table.sort(t)
  return uniq(t)
end

local function grid(a, b)
  local t = {}
  for _, x in ipairs(a) do for _, y in ipairs(b) do t[#t + 1] = { x, y } end end
  return t
end

-- The reason lib/lua/capability.lua gives for refusing `method` on the context's model (nil: it
-- applies). Every family below asks it: the atlas runs what the model's parts allow.
local function refuses(ctx, method, opts)
  local ok, why = cap.check(ctx.model, method, opts)
  if ok then return nil end
  return why
end

-- Macro step counts of whole periods (divisors of K) from the slow scale: H = tau f.
local function whole_macro_counts(ctx, o)
  return divisor_counts(ctx.K, macro_counts(ctx, o.quick and { 1 / 4, 1 / 16 } or
                                            { 1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64 }, 2, ctx.K), 1)
end

--- The HMM variants for a fast-forced model in second-order form (capability 'hmm'): the
-- micro-solver RK4 with n steps per period (the Verlet default puts a large error on the force
-- at coarse n), a uniform kernel over one period (simple filtering), N macro steps of H = T/N.
--   HMM-V: velocity Verlet macro scheme, exact phase, the model's reconstruction (Sharp, Tsai &
--          Engquist's preset): the general one.
--   HMM-A2: Calvo & Sanz-Serna's Algorithm 2 (leapfrog macro, micro data at theta = 0 with zero
--          velocity, half window): only for a force even in theta (spec.even_in_theta), and
--          right only when the averaged force does not depend on the velocity.
local function hmm_family(ctx, o, methods, na)
  local why = refuses(ctx, "hmm")
  if why then
    na[#na + 1] = { name = "HMM-V, HMM-A2", family = "HMM", reason = why }
    return
  end
  -- macro steps of whole periods: every force estimate starts at the phase theta0, where a
  -- uniform kernel over one period is exact for the periodic part (at other phases its window
  -- edge leaves an O(1) term proportional to the velocity: measured, 5e-2 instead of 3e-3)
  local Ns = whole_macro_counts(ctx, o)
  local ns = o.quick and { 16, 32 } or { 16, 32, 64 }
  local function variant(name, label, opts)
    methods[#methods + 1] = {
      name = name, family = "HMM", cap = "hmm", knob = "N,n", ladder = grid(Ns, ns),
      label = label .. "; RK4 micro-solver with n steps per period, uniform kernel over one period, N macro steps (H = T/N whole periods)",
      run = function(c, N, n)
        local op = opts()
        op.micro, op.kernel, op.eta, op.h = "rk4", "uniform", c.period, c.period / n
        op.H, op.T, op.Y0 = c.T / N, c.T, c.Y0
        local Q, _, cnt = hmm.run(c.model, op)
        return c.err_slow(Q[#Q]), cnt
      end }
  end
  variant("HMM-V", "HMM: velocity Verlet macro scheme, exact phase, the model's reconstruction" ..
          (ctx.model.vib.reconstruct ~= nil and "" or " (none given: the identity)"),
          function() return { preset = "ste", macro = "V" } end)
  if ctx.model.vib.even_in_theta ~= 0 then
    variant("HMM-A2", "HMM, Algorithm 2 (Calvo & Sanz-Serna): leapfrog macro, micro data at theta = 0 with zero velocity, half window",
            function() return { preset = "cs2", half_window = true } end)
  else
    na[#na + 1] = { name = "HMM-A2 (Algorithm 2)", family = "HMM", reason = "needs a force even in theta (even_in_theta = true)" }
  end
end

--- The constrained HMM (capability 'hmm-shake', 'hmm-rattle'; Calvo & Sanz-Serna Sec. 4.2-4.3):
-- SHAKE micro-steps, n per period, simple filtering over one period, N macro steps of whole
-- periods.
local function constrained_hmm_family(ctx, o, methods, na)
  for _, pre in ipairs { "shake-shake", "rattle-shake" } do
    local why = refuses(ctx, "hmm-" .. pre:match("^%a+"))
    if why then
      if pre == "rattle-shake" then na[#na + 1] = { name = "HMM-shake-shake, HMM-rattle-shake", family = "constrained HMM", reason = why } end
    elseif not (o.quick and pre == "shake-shake") then -- quick: one of the two
      methods[#methods + 1] = {
        name = "HMM-" .. pre, family = "HMM", cap = "hmm-" .. pre:match("^%a+"), knob = "N,n",
        ladder = grid(whole_macro_counts(ctx, o), o.quick and { 16, 32 } or { 16, 32, 64 }),
        label = "constrained HMM " .. pre .. " (Calvo & Sanz-Serna Sec. 4.2-4.3): SHAKE micro-steps, n per period, simple " ..
                "filtering over one period, N macro steps (H = T/N whole periods)",
        run = function(c, N, n)
          local Y, _, cnt = hmm.dae_run(c.model, { preset = pre, H = c.T / N, T = c.T, eta = c.period, h = c.period / n }, c.y0)
          return c.err(Y[#Y]), cnt
        end }
    end
  end
end

--- The slow-variable HMM (capability 'hmm-slow'; Fredbo Algorithms 3-4) with each slow set of
-- the model: RK4 micro-steps, n per period, the kernel K^exp(2) over a window of ten periods,
-- N macro steps of whole periods; leapfrog macro scheme (order 2; full mode: forward Euler
-- too). The state at T is the micro state the method carries (its positions measured). The
-- window: on tests/models/pend2.lua (omega = 1e4, T = 1, N = 25..800) ten periods give the
-- leapfrog's second order down to 1.5e-4, four periods stop at 5e-3 and two at 3e-2.
local function slow_hmm_family(ctx, o, methods, na)
  local why = refuses(ctx, "hmm-slow")
  if why then
    na[#na + 1] = { name = "HMM-slow (Fredbo)", family = "slow-variable HMM", reason = why }
    return
  end
  local sets = {}
  for name in pairs(ctx.model.slow) do sets[#sets + 1] = name end
  table.sort(sets)
  local Ns = whole_macro_counts(ctx, o)
  for _, set in ipairs(sets) do
    for _, mac in ipairs(o.quick and { "LF" } or { "LF", "FE" }) do
      methods[#methods + 1] = {
        name = string.format("HMM-slow-%s/%s", mac, set), family = "HMM", cap = "hmm-slow", knob = "N,n",
        ladder = grid(Ns, o.quick and { 16 } or { 16, 32 }),
        label = string.format("slow-variable HMM (Fredbo Algorithms 3-4) with the slow set '%s': %s macro scheme, RK4 " ..
                              "micro-steps (n per period), kernel K^exp(2) over ten periods, N macro steps (H = T/N whole periods)",
                              set, mac == "LF" and "leapfrog" or "forward Euler"),
        run = function(c, N, n)
          local x, _, cnt = hmm.slow_run(c.model, { set = set, macro = mac, micro = "rk4", H = c.T / N, T = c.T,
                                                    eta = 10 * c.period, h = c.period / n, x0 = c.y0, final = true })
          local y = {}
          for i = 1, #x do y[i] = x[i][1] end
          return c.err(y), cnt
        end }
    end
  end
end

--- SAM, LISP and the multirevolution method (lib/experiment/atlas_methods.lua's builders; capability
-- 'sam', 'lisp', 'mr' with micro=rk4, and with micro=strang on a model with flows): macro steps
-- H = T/N from tau, n micro-steps per period.
local function sam_family(ctx, o, methods, na)
  local micros = {}
  for _, kind in ipairs { "rk4", "strang" } do
    local why = refuses(ctx, "sam", { micro = kind })
    if why then
      na[#na + 1] = { name = kind == "rk4" and "SAM, LISP, multirevolution" or "SAM, LISP, multirevolution with micro=strang",
                      family = "SAM", reason = why }
      if kind == "rk4" then return end
    else
      micros[#micros + 1] = kind
    end
  end
  local hi = math.max(1, math.floor(ctx.K / 2))
  local N = macro_counts(ctx, o.quick and { 1, 1 / 4 } or { 2, 1, 1 / 2, 1 / 4, 1 / 8 }, 1, hi)
  local first = #methods
  AM.sam_methods({ macros = o.quick and { "rk4" } or { "rk4", "dp5", "ode45" }, micros = micros, N = N,
                   n = o.quick and { 16, 32 } or { 16, 32, 64 },
                   tols = o.quick and { 1e-4, 1e-7 } or { 1e-4, 1e-6, 1e-8, 1e-10 }, N_mr = divisor_counts(ctx.K, N, 5) },
                 methods, na, ctx.sys)
  for i = first + 1, #methods do
    local m = methods[i]
    local base = ({ SAM = "sam", LISP = "lisp", MR = "mr" })[m.family]
    local strang = m.name:match("/strang$") or m.name == "MR-strang"
    m.cap = strang and (base .. "-strang") or base
  end
end

--- SAM on the index-2 DAE (capability 'sam-dae'; Calvo et al. Sec. 6): HERK3 macro-steps (N)
-- and micro-steps (n per period).
local function sam_dae_family(ctx, o, methods, na)
  local why = refuses(ctx, "sam-dae")
  if why then
    na[#na + 1] = { name = "SAM-herk3/herk3 (SAM on the DAE)", family = "SAM on the DAE", reason = why }
    return
  end
  local hi = math.max(1, math.floor(ctx.K / 2))
  local N = macro_counts(ctx, o.quick and { 1, 1 / 4 } or { 2, 1, 1 / 2, 1 / 4, 1 / 8 }, 1, hi)
  methods[#methods + 1] = {
    name = "SAM-herk3/herk3", family = "SAM", cap = "sam-dae", knob = "N,n", ladder = grid(N, o.quick and { 16, 32 } or { 16, 32, 64 }),
    label = "SAM for index-2 DAEs (Calvo et al. Sec. 6): HERK3 macro (N steps) and micro (n per period), central differences (25)",
    run = function(c, Nm, n)
      local ys, _, cnt = sam.dae(c.model, { n = n, period = c.period, H = c.T / Nm, y0 = c.y0, tout = { c.T },
                                            diff = "central2", micro = "herk3", macro = "herk3" })
      return c.err(ys[1]), cnt
    end }
end

--- The variational multirate integrators (capability 'vmi'; Ober-Bloebaum et al.): N macro
-- steps dT = T/N, from one per slow scale tau up by factors of 4, p micro-steps per macro step
-- chosen so that the micro step dT/p resolves the fast period (a quarter down to a
-- sixty-fourth of it: inside every scheme's linear stability bound omega dT/p < 2), Newton to
-- 1e-12 (the structured solver).
local function vmi_family(ctx, o, methods, na)
  local why = refuses(ctx, "vmi")
  if why then
    na[#na + 1] = { name = "VMI-MM, VMI-TM, VMI-TT", family = "VMI", reason = why }
    return
  end
  local N0 = math.max(1, math.ceil(ctx.T / ctx.tau - 1e-9))
  local Ns = {}
  for _, f in ipairs(o.quick and { 1, 4 } or { 1, 4, 16, 64 }) do Ns[#Ns + 1] = N0 * f end
  local lad = {}
  for _, N in ipairs(Ns) do
    local ps = {}
    for _, f in ipairs(o.quick and { 1 / 8, 1 / 32 } or { 1 / 4, 1 / 16, 1 / 64 }) do
      ps[#ps + 1] = math.max(1, math.ceil(ctx.T / N / (ctx.period * f) - 1e-9))
    end
    for _, p in ipairs(uniq(ps)) do lad[#lad + 1] = { N, p } end
  end
  for _, sch in ipairs(o.quick and { "MM", "TT" } or { "MM", "TM", "TT" }) do
    methods[#methods + 1] = {
      name = "VMI-" .. sch, family = "VMI", cap = "vmi", knob = "N,p", ladder = lad,
      label = string.format("variational multirate %s (%s): N macro steps dT = T/N, p micro steps per macro step, Newton " ..
                            "to 1e-12 (structured solver)", sch, vmi.scheme_names[sch]),
      run = function(c, N, p)
        local res = vmi.run(c.model, sch, { p = p, dT = c.T / N, N = N, tol = 1e-12, y0 = c.y0, reuse = true })
        local y, row = {}, res.row(res.N)
        for i = 1, c.model.d do y[i] = row[i - 1] end
        return c.err(y), res.counts
      end }
  end
end

--- Every registry stepper the model's system takes (capability: each stepper's needs; on a
-- constrained model only the constrained ones), n steps per fast period.
local function direct_family(ctx, o, methods, na)
  local lad = o.quick and { [1] = { 8 }, [2] = { 16, 64 }, [3] = { 16, 64 }, default = { 8, 32 } } or
              { [1] = { 8, 32, 128 }, [2] = { 16, 32, 64, 128, 256 }, default = { 8, 16, 32, 64, 128 } }
  local skip = {}
  for _, name in ipairs(kz.steppers.names) do skip[name] = refuses(ctx, name) end
  local first = #methods
  AM.add_direct(methods, na, ctx.sys, { ladders = lad, skip = skip })
  for i = first + 1, #methods do methods[i].cap = methods[i].name end
end

--- The peers built into build/libkzpeers.so (lib/lua/peers.lua) at a ladder of tolerances: ODE
-- integrators, for a model whose system every ODE stepper takes (not a constrained one).
local peers_ok, peers_mod -- the first attempt's result (a second require would only say "loop or previous error")
local function peer_family(ctx, o, methods, na)
  local why = refuses(ctx, "rk4")
  if why then
    na[#na + 1] = { name = "peers (GSL, SUNDIALS)", family = "peer", reason = why:gsub("stepper=rk4", "an ODE integrator") }
    return
  end
  if peers_ok == nil then peers_ok, peers_mod = pcall(require, "peers") end
  local ok, peers = peers_ok, peers_mod
  if not ok then
    na[#na + 1] = { name = "peers (GSL, SUNDIALS)", family = "peer", reason = "lib/lua/peers.lua cannot load here: " .. tostring(peers):gsub("\n.*", "") }
    return
  end
  local tols = o.quick and { 1e-4, 1e-7 } or { 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10 }
  for _, name in ipairs(peers.names) do
    if name == "arkode-mri" then
      na[#na + 1] = { name = name, family = "peer", reason = "needs the fast part of the field as a system of its own" }
    elseif not peers.available(name) then
      na[#na + 1] = { name = name, family = "peer", reason = "not built: " .. peers.why(name) }
    else
      methods[#methods + 1] = { name = name, family = "peer", knob = "tol", ladder = tols,
        label = name .. " (peer) at rtol = atol = tol",
        run = function(c, tol)
          local r, msg = peers.integrate(name, c.sys, 0, c.y0, c.T, tol)
          if not r then error(msg, 0) end
          return c.err(r.y), { force_evals = r.rhs_evals, micro_steps = r.steps, newton_iters = r.jac_evals }
        end }
    end
  end
end

--- The methods the atlas runs on ctx and the n/a entries {name, family, reason}: every family
-- lib/lua/capability.lua allows on the model (each method carries `cap`, the capability method it
-- runs), the others n/a with capability's reason. o.quick: short ladders and fewer variants;
-- o.methods: a set of names to keep.
function M.catalogue(ctx, o)
  o = o or {}
  local methods, na = {}, {}
  hmm_family(ctx, o, methods, na)
  constrained_hmm_family(ctx, o, methods, na)
  slow_hmm_family(ctx, o, methods, na)
  sam_family(ctx, o, methods, na)
  sam_dae_family(ctx, o, methods, na)
  vmi_family(ctx, o, methods, na)
  direct_family(ctx, o, methods, na)
  if not o.no_peers then peer_family(ctx, o, methods, na) end
  if o.methods then
    local keep = {}
    for _, m in ipairs(methods) do if o.methods[m.name] then keep[#keep + 1] = m end end
    methods = keep
  end
  return methods, na
end

--- The capability methods (lib/lua/capability.lua's names) that apply to the model but that no
-- method of the atlas's catalogue runs: a list of { method, label } (empty when the atlas covers
-- every one).
function M.not_in_atlas(ctx)
  local methods = M.catalogue(ctx, { quick = false, no_peers = true })
  local covered = {}
  for _, m in ipairs(methods) do if m.cap then covered[m.cap] = true end end
  local t = {}
  for _, r in ipairs(cap.table(ctx.model)) do
    if r.ok and not covered[r.method] then t[#t + 1] = { method = r.method, label = r.label } end
  end
  return t
end

---------------------------------------------------------------------------------------------------
-- Running and reading
---------------------------------------------------------------------------------------------------

--- "method=NAME N=16 n=32": a run's configuration as key=value (the method's knobs).
function M.params_of(m, x, x2)
  local keys = {}
  for k in (m.knob .. ","):gmatch("([^,]+),") do keys[#keys + 1] = k end
  local vals = { x, x2 }
  local t = { "method=" .. m.name }
  for i, k in ipairs(keys) do
    local v = vals[i]
    t[#t + 1] = k .. "=" .. (v == math.floor(v) and string.format("%d", v) or string.format("%.6g", v))
  end
  return table.concat(t, " ")
end

--- Run every method over its ladder on ctx, timed (A.campaign: o.reps interleaved repetitions,
-- medians; a run under 2 ms timed in batches; a ladder stops after a run over o.budget
-- seconds). Returns the rows (each with params, evaluations, seconds, and the curve marks
-- front_evals/env_evals, front_seconds/env_seconds) in file order.
function M.sweep(ctx, methods, o)
  o = o or {}
  local entries = A.entries(ctx, methods, { keep_failed = true })
  local byname = {}
  for _, m in ipairs(methods) do byname[m.name] = m end
  if o.progress then -- once per entry and repetition (A.clock may call a short run many times)
    for _, e in ipairs(entries) do
      local run, calls = e.run, 0
      e.run = function()
        calls = calls + 1
        if calls == 1 then o.progress(e.group) end
        return run()
      end
    end
  end
  local rows = A.campaign(entries, { reps = o.reps or 3, budget = o.budget or 3 })
  for _, r in ipairs(rows) do
    r.si, r.stiffness = 1, 0
    r.params = M.params_of(byname[r.method], r.x, r.x2)
    r.evaluations = r.force_evals
  end
  A.mark_fronts(rows, "force_evals")
  for _, r in ipairs(rows) do r.front_evals, r.env_evals = r.front, r.env end
  rows = A.order(rows, methods)
  A.mark_fronts(rows, "seconds")
  for _, r in ipairs(rows) do r.front_seconds, r.env_seconds = r.front, r.env end
  return rows
end

--- The cheapest run meeting tolerance tol by `key` ("evaluations" or "seconds"): among the
-- finished runs whose error and the errors of every costlier run of the same ladder are within
-- tol (the envelope: a coarse run that is accurate by luck does not count), the one with the
-- least cost. nil when none.
function M.best(rows, tol, key)
  local env = key == "seconds" and "env_seconds" or "env_evals"
  local b
  for _, r in ipairs(rows) do
    if r.status == "ok" and finite(r[env]) and r[env] <= tol then
      if not b or r[key] < b[key] or (r[key] == b[key] and r.error < b.error) then b = r end
    end
  end
  return b
end

---------------------------------------------------------------------------------------------------
-- Outputs
---------------------------------------------------------------------------------------------------

M.columns = { "method", "family", "params", "status", "error", "evaluations", "micro_steps", "newton_iters", "seconds",
              "front_evals", "front_seconds" }
M.best_columns = { "tol", "by", "method", "params", "error", "evaluations", "seconds" }

local function g(x) return string.format("%.3g", x) end

--- Write data/atlas-<name>.tsv, tables/atlas-<name>-best.{tsv,md} and figures/atlas-<name>.svg
-- through the scenario object sc (staged, atomic). Returns the best rows.
function M.write(sc, ctx, rows, methods, na, o)
  o = o or {}
  local mf = ctx.mf
  local id = "atlas-" .. mf.name
  local vals = {}
  for _, p in ipairs(mf.spec.params) do vals[#vals + 1] = string.format("%s=%.10g", p, mf.values[p] or 0) end
  local y0 = {}
  for i, v in ipairs(mf.y0) do y0[i] = string.format("%.10g", v) end
  local what = mf.vmi and "the Euclidean norm of the positions' error (q_s, q_f)(T) - (q_s, q_f)_ref(T)" or
               mf.nq > 0 and "the Euclidean norm of the positions' error q(T) - q_ref(T)" or
               "the Euclidean norm of the state's error y(T) - y_ref(T)"
  local head = { string.format("kapitza atlas %s: model '%s' (%s functions), %s; y0 = (%s)", mf.path, mf.name, mf.how,
                               table.concat(vals, " "), table.concat(y0, ", ")),
                 ctx.note, "error: " .. what .. "; evaluations: force/field evaluations as each method counts them; " ..
                 "seconds: CPU seconds of this run on this machine (median of interleaved repetitions)",
                 "status: ok, diverged (non-finite error) or failed; front_evals/front_seconds: on the method's curve by that cost" }
  -- a run without a finite error: '-' in its error (its status says why), so that a nan is a real one
  local out = {}
  for i, r in ipairs(rows) do
    if r.status ~= "ok" then
      local c = {}
      for k, v in pairs(r) do c[k] = v end
      c.error = "-"
      r = c
    end
    out[i] = r
  end
  sc:write_tsv("data/" .. id .. ".tsv", M.columns, out, head)
  -- the best configuration at each tolerance, by evaluations and by seconds
  local best, body = {}, {}
  local paste = "kapitza solve " .. mf.path .. (#mf.overrides > 0 and (" " .. table.concat(mf.overrides, " ")) or "")
  for _, tol in ipairs(ctx.tol) do
    for _, key in ipairs { "evaluations", "seconds" } do
      local b = M.best(rows, tol, key)
      best[#best + 1] = { tol = tol, by = key, method = b and b.method or "-", params = b and b.params or "-",
                          error = b and b.error or 0 / 0, evaluations = b and b.evaluations or 0, seconds = b and b.seconds or 0 / 0 }
      body[#body + 1] = { g(tol), key, b and ("**" .. b.method .. "**") or "none reaches it", b and ("`" .. b.params .. "`") or "–",
                          b and g(b.error) or "–", b and string.format("%d", b.evaluations) or "–", b and g(b.seconds) or "–" }
    end
  end
  sc:write_tsv("tables/" .. id .. "-best.tsv", M.best_columns, best,
               { id .. ": the cheapest configuration meeting each tolerance (by evaluations, by CPU seconds of this run)",
                 "paste its params after: " .. paste })
  local md = { string.format("#### The atlas of %s (`%s`)\n", mf.name, mf.path),
    string.format("Model: %s; y0 = (%s). Error: %s, against the reference. %s.\n", table.concat(vals, ", "),
                  table.concat(y0, ", "), what, ctx.note),
    "The cheapest configuration whose error, and that of every costlier run of its ladder, is within the tolerance " ..
    "(by force evaluations, and by CPU seconds measured in this run on this machine). Paste its parameters after `" ..
    paste .. "`:\n",
    S.md_table(M.best_columns, body) }
  local low = {}
  for _, tol in ipairs(ctx.tol) do if tol < 10 * ctx.ref_est then low[#low + 1] = g(tol) end end
  if #low > 0 then
    md[#md + 1] = string.format("\n**The reference is not accurate enough for tolerance %s** (its estimated error %.1e; " ..
                                "raise refmax=).\n", table.concat(low, ", "), ctx.ref_est)
  end
  local mt = {}
  for _, m in ipairs(methods) do
    local lad = {}
    for i, x in ipairs(m.ladder) do lad[i] = type(x) == "table" and ("(" .. g(x[1]) .. ", " .. g(x[2]) .. ")") or g(x) end
    mt[#mt + 1] = { m.name, m.family, m.label, m.knob .. " = " .. table.concat(lad, ", ") }
  end
  md[#md + 1] = "\nThe methods run (ladders from the fast period and the slow scale tau):\n"
  md[#md + 1] = S.md_table({ "method", "family", "what", "ladder" }, mt)
  if #na > 0 then
    local t = {}
    for _, n in ipairs(na) do t[#t + 1] = { n.name, n.family, n.reason } end
    md[#md + 1] = "\nNot run on this model:\n"
    md[#md + 1] = S.md_table({ "method", "family", "why" }, t)
  end
  local failed = {}
  for _, r in ipairs(rows) do
    if r.status ~= "ok" then failed[#failed + 1] = string.format("%s (%s%s)", r.params, r.status, r.msg and (": " .. r.msg) or "") end
  end
  if #failed > 0 then
    md[#md + 1] = "\nRuns without a finite error (left out of the curves): " .. table.concat(failed, "; ") .. ".\n"
  end
  md[#md + 1] = string.format("\nEvery run: `data/%s.tsv`; the figure: `figures/%s.svg`.\n", id, id)
  sc:write_text("tables/" .. id .. "-best.md", table.concat(md, "\n"))
  -- the figure
  local cols, pts, dts = AW.styles(methods)
  local names, plotted = {}, {}
  for _, r in ipairs(rows) do if r.status == "ok" then plotted[r.method] = true end end
  local keep = {}
  for _, m in ipairs(methods) do if plotted[m.name] then keep[#keep + 1] = m end end
  cols, pts, dts = AW.styles(keep)
  for i, m in ipairs(keep) do names[i] = m.name end
  local x1lo, x1hi = AW.range(rows, "evaluations")
  local x2lo, x2hi = AW.range(rows, "seconds")
  local ylo, yhi = AW.error_range(rows, ctx.tol)
  local vars = { datafile = sc:path("data/" .. id .. ".tsv"), methods = names, colours = table.concat(cols, " "),
                 pts = pts, dts = dts, ntargets = #ctx.tol, title = "Atlas: " .. mf.name:gsub("_", "\\_"),
                 ylabel = (mf.nq > 0 or mf.vmi) and "error in q(T)" or "error in y(T)",
                 xmin1 = x1lo, xmax1 = x1hi, xmin2 = x2lo, xmax2 = x2hi, ymin = ylo, ymax = yhi }
  for k, e in ipairs(ctx.tol) do vars["target" .. k] = e end
  if #names > 0 then sc:figure(id, vars, kz.root .. "/figures/atlas-model.gp") end
  return best
end

return M
