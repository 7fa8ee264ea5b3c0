-- atlas_problems.lua -- the problems of the efficiency atlas (lib/lua/kapitza/atlas.lua) and, for each, the
-- catalogue of the library's methods that apply to it (and why the others do not). Each problem
-- builds its models through lib/lua/kapitza/models.lua (lib/lua/kapitza/vmi.lua for FPU and the ring), its reference
-- through lib/lua/kapitza/experiment.lua, and runs the methods through their bindings (lib/lua/kapitza/hmm.lua,
-- lib/lua/kapitza/sam.lua, lib/lua/kapitza/vmi.lua, lib/lua/kapitza/papers/dpend.lua, lib/lua/kapitza/papers/top.lua, the registry): no numerics here.
-- The method families several problems share: lib/lua/kapitza/atlas/methods.lua. What each problem
-- states about its sweep (prob.claims): lib/lua/kapitza/atlas/problem_claims.lua. A problem's model
-- is its papers' model file lib/models/<key>.lua, which names the problem (atlas = "<key>"), so
-- that `kapitza atlas lib/models/<key>.lua` and scenarios/atlas-<key>.lua run the same
-- (lib/lua/kapitza/atlas/run.lua).
local kz = require "kapitza"
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local SX = require "kapitza.papers.sam"
local ste = require "kapitza.papers.ste"
local vmi = require "kapitza.vmi"
local top = require "kapitza.papers.top"
local D = require "kapitza.papers.dpend"

local AM = require "kapitza.atlas.methods"
local gp_pow, md_pow10, whole_periods = AM.gp_pow, AM.md_pow10, AM.whole_periods
local hmm_method, add_direct, sam_methods = AM.hmm_method, AM.add_direct, AM.sam_methods
local model_file_setup = AM.model_file_setup

local M = {}
---------------------------------------------------------------------------------------------------
-- The vibrated pendulum of Calvo & Sanz-Serna (2.2)
---------------------------------------------------------------------------------------------------

M.pendulum = {
  key = "pendulum", id = "atlas-pendulum",
  title = "Atlas: the vibrated inverted pendulum (Calvo and Sanz-Serna (2.2))",
  error_what = "abs(q(T) - q_ref(T)) [rad], the angle at T against the true solution",
  error_label = "error in q(T) [rad]",
  stiff = { key = "omega", label = "ω", gplabel = "ω", unit = "s^-1", help = "vibration frequencies (list)",
            default = { 1e3, 1e4, 1e5 }, min = 10, max = 1e9, show = md_pow10,
            gp = function(s) return "ω = " .. gp_pow(s, 10) .. " s^{-1}" end },
  targets = { 1e-3, 1e-5 },
  params = {
    { "T", 1, "s", "nominal final time: T = K 2 pi/omega, K the multiple of 32 periods nearest", positive = true, min = 0.05, max = 100 },
    { "l", 0.2, "m", "pendulum length", positive = true },
    { "g", 9.8, "m s^-2", "acceleration of gravity" },
    { "vmax", 4, "m s^-1", "amplitude of the pivot velocity" },
    { "q0", 0.5, "rad", "initial angle (from the upward vertical), dq/dt(0) = 0" },
    { "refm", 64, "", "reference: RK4 steps per period (and twice that, Richardson)", integer = true, min = 16, max = 4096 },
  },
  quick = { omega = { 1e3, 1e4 } },
}

--- The averaging premise of the fast-forced pendulum (Calvo & Sanz-Serna (2.4)): a fast oscillation
-- vmax/(l omega) of less than a radian; beyond it no averaged method applies (and the ladders of
-- the direct steppers grow without bound). Refused before any computation.
function M.pendulum.check(sc, P)
  for _, om in ipairs(P.omega) do
    if P.vmax / (P.l * om) >= 1 then
      sc:fail(string.format("parameters 'vmax', 'l', 'omega': the fast oscillation vmax/(l omega) = %.3g rad at omega = %g " ..
                            "is not small (averaging needs < 1)", P.vmax / (P.l * om), om))
    end
  end
end

function M.pendulum.setup(P, omega)
  local ctx = model_file_setup("pendulum", { omega = omega, l = P.l, g = P.g, vmax = P.vmax, q0 = P.q0, T = P.T },
                               { refm = P.refm, refmax = P.refm, multiple = 32, note = function(c)
    return string.format("T = %d periods = %.17g s; reference q(T) = %.17g (RK4 with %d and %d steps per period, " ..
                         "Richardson; RK4 error estimate %.1e)", c.K, c.T, c.ref[1], P.refm, 2 * P.refm, c.ref_est_state) end })
  ctx.ref_est = ctx.ref_est_state
  ctx.peer = { sys = ctx.sys, y0 = ctx.y0, t1 = ctx.T, err = ctx.err }
  return ctx
end

local pend_sample = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e4 }

function M.pendulum.catalogue(P)
  local hw = 40 -- Algorithm 1 and 2's window: 40 periods, the tables' value
  local m = {
    hmm_method("HMM-A1", "Algorithm 1 (exact phase lift (2.10), exponential kernel (2.13), eta = 40 periods, " ..
               "leapfrog macro, Verlet micro, h = period/N)", { 10, 20, 40, 80 }, function(ctx, N)
      return { preset = "cs1", kernel = "exponential", eta = hw * ctx.period, h = ctx.period / N } end),
    hmm_method("HMM-A2", "Algorithm 2 (micro data at theta = 0, p = 0, half window, exponential kernel, " ..
               "eta = 40 periods, leapfrog macro, h = period/N)", { 10, 20, 40, 80 }, function(ctx, N)
      return { preset = "cs2", kernel = "exponential", eta = hw * ctx.period, h = ctx.period / N, half_window = true } end),
    hmm_method("HMM-A2s", "Algorithm 2 with simple filtering (2.16): uniform kernel over one period, leapfrog macro, " ..
               "h = period/N", { 10, 20, 40, 80, 160, 320 }, function(ctx, N)
      return { preset = "cs2", kernel = "uniform", eta = ctx.period, h = ctx.period / N, half_window = true } end),
    hmm_method("HMM-A2s-V", "as HMM-A2s with the velocity Verlet macro scheme", { 10, 20, 40, 80, 160, 320 }, function(ctx, N)
      return { preset = "cs2", kernel = "uniform", eta = ctx.period, h = ctx.period / N, half_window = true, macro = "V" } end),
    hmm_method("HMM-A2s-IFE", "as HMM-A2s with the symplectic Euler (IFE) macro scheme", { 10, 20, 40, 80, 160, 320 }, function(ctx, N)
      return { preset = "cs2", kernel = "uniform", eta = ctx.period, h = ctx.period / N, half_window = true, macro = "IFE" } end),
  }
  local na = {}
  sam_methods({ macros = { "rk4", "dp5", "ode45" }, micros = { "rk4", "strang" }, N = { 8, 16, 32, 64 }, n = { 16, 32, 64 },
                tols = { 1e-4, 1e-6, 1e-8 } }, m, na, pend_sample.sys)
  add_direct(m, na, pend_sample.sys)
  na[#na + 1] = { name = "slow-variable HMM (Fredbo)", family = "HMM", reason = "built for an autonomous fast rotation with " ..
                  "known slow variables; here the fast scale is an explicit forcing, which Algorithms 1-2 treat" }
  na[#na + 1] = { name = "variational multirate (MM, TM, TT)", family = "VMI", reason = "needs a potential split into " ..
                  "slow and stiff parts; the fast scale here is a time-periodic forcing" }
  return m, na
end

--- Estimated force evaluations of a run: the reference and the direct steppers (both like
-- omega T), the rest does not grow with omega.
function M.pendulum.est(P)
  local w = 0
  for _, om in ipairs(P.omega) do
    local periods = P.T * om / (2 * math.pi)
    w = w + periods * (12 * P.refm + 6000) + 2e7
  end
  return w, "force evaluations (references and direct integrations, both like omega T)"
end

---------------------------------------------------------------------------------------------------
-- Sharp, Tsai & Engquist's inverted pendulum (1.1)
---------------------------------------------------------------------------------------------------

M.ste = {
  key = "ste", id = "atlas-ste",
  title = "Atlas: the inverted pendulum of Sharp, Tsai and Engquist (1.1)",
  error_what = "abs(theta(T) - theta_ref(T)) [rad], the angle at T against the true solution",
  error_label = "error in θ(T) [rad]",
  stiff = { key = "eps", label = "ε", unit = "s", help = "periods of the pivot forcing sin(2 pi t/eps) (list)",
            default = { 1e-2, 1e-3, 1e-4 }, min = 1e-8, max = 0.1, show = md_pow10,
            rate = function(e) return 1 / e end, rate_label = "1/ε",
            gp = function(s) return "ε = " .. gp_pow(s, 10) .. " s" end },
  targets = { 1e-3, 1e-5 },
  params = {
    { "T", 1, "s", "nominal final time: T = K eps, K the multiple of 32 periods nearest", positive = true, min = 0.05, max = 100 },
    { "g", 0.1, "m s^-2", "gravitational acceleration (Table 1)", min = 0, max = 1e3 },
    { "l", 0.05, "m", "length of the pendulum arm (Table 1)", positive = true, max = 1e3 },
    { "Theta0", 0, "rad", "initial angle from the upward vertical (Table 1)", min = -math.pi, max = math.pi },
    { "Omega0", -0.4, "rad s^-1", "initial angular velocity (Table 1; the reconstruction (3.4) adds 0 at Theta0 = 0)", min = -1e3, max = 1e3 },
    { "eta_eps", 50, "", "HMM window eta = eta_eps eps (Table 1, row 2)", positive = true, integer = true, max = 1e4 },
    { "h_eps", 50, "", "HMM micro step h = eps / h_eps (Table 1, row 2)", positive = true, integer = true, max = 1e4 },
    { "refm", 64, "", "reference: RK4 steps per period (and twice that, Richardson)", integer = true, min = 16, max = 4096 },
  },
  quick = { eps = { 1e-2, 1e-3 } },
}

function M.ste.setup(P, eps)
  -- the true solution starts from the reconstruction (3.4) of the averaged data at t = 0
  local v0 = P.Omega0 - math.sin(P.Theta0) / (2 * math.pi * P.l)
  local ctx = model_file_setup("ste", { eps = eps, g = P.g, l = P.l, q0 = P.Theta0, v0 = v0, T = P.T },
                               { period = eps, period_source = "eps", multiple = 32, refm = P.refm, refmax = P.refm,
                                 note = function(c)
    return string.format("T = %d periods = %.17g s; reference theta(T) = %.17g (RK4 with %d and %d steps per period, " ..
                         "Richardson; RK4 error estimate %.1e)", c.K, c.T, c.ref[1], P.refm, 2 * P.refm, c.ref_est_state) end })
  ctx.ref_est, ctx.hmm_y0 = ctx.ref_est_state, { P.Theta0, P.Omega0 }
  ctx.peer = { sys = ctx.sys, y0 = ctx.y0, t1 = ctx.T, err = ctx.err }
  return ctx
end

local ste_sample = models.ste { eps = 1e-3, g = 0.1, l = 0.05 }

function M.ste.catalogue(P)
  P = P or {}
  local eta_eps, h_eps = P.eta_eps or 50, P.h_eps or 50
  local m = {}
  -- HMM-X-y (lib/lua/kapitza/papers/ste.lua, the STE preset: exact phase, reconstruction (3.4), kernel (3.5) normalised)
  for _, c in ipairs { { "FE", "v" }, { "IFE", "v" }, { "V", "v" }, { "V", "rk4" } } do
    m[#m + 1] = { name = "HMM-" .. c[1] .. "-" .. c[2], family = "HMM", knob = "N",
      label = string.format("HMM-%s-%s: %s macro scheme, %s micro-solver, eta = %d eps, h = eps/%d, kernel (3.5); N macro steps",
                            c[1], c[2], c[1], ste.micros[c[2]], eta_eps, h_eps),
      ladder = { 4, 8, 16, 32, 64, 128 },
      run = function(ctx, N)
        local Pste = { kernel = "exponential", kernel_constant = 0, phase = "exact", recon = "model", drift = "Omega",
                       Theta0 = ctx.hmm_y0[1], Omega0 = ctx.hmm_y0[2] }
        local Th, _, c2 = ste.run(ctx.model, Pste, { macro = c[1], micro = c[2], H = ctx.T / N, T = ctx.T,
                                                     eta = eta_eps * ctx.period, h = ctx.period / h_eps })
        return ctx.err_slow(Th[#Th]), c2
      end }
  end
  local na = {}
  sam_methods({ macros = { "rk4", "dp5", "ode45" }, micros = { "rk4", "strang" }, N = { 8, 16, 32, 64 }, n = { 16, 32, 64 },
                tols = { 1e-4, 1e-6, 1e-8 } }, m, na, ste_sample.sys)
  add_direct(m, na, ste_sample.sys)
  na[#na + 1] = { name = "slow-variable HMM (Fredbo)", family = "HMM", reason = "built for an autonomous fast rotation " ..
                  "with known slow variables; the fast scale here is an explicit forcing (HMM-X-y above)" }
  na[#na + 1] = { name = "variational multirate (MM, TM, TT)", family = "VMI", reason = "needs a potential split into " ..
                  "slow and stiff parts; the fast scale here is a time-periodic forcing" }
  return m, na
end

function M.ste.est(P)
  local w = 0
  for _, e in ipairs(P.eps) do w = w + P.T / e * (12 * P.refm + 6000) + 2e7 * (P.eta_eps * P.h_eps / 2500) end
  return w, "force evaluations (references and direct integrations, both like T/eps)"
end

---------------------------------------------------------------------------------------------------
-- Perturbed Kepler and van der Pol (Calvo, Chartier, Murua & Sanz-Serna (19), (17))
---------------------------------------------------------------------------------------------------

local function sam_problem(t)
  local prob = {
    key = t.key, id = "atlas-" .. t.key, title = t.title, error_what = t.error_what, error_label = t.error_label,
    stiff = { key = "eps", label = "ε", unit = "", help = t.eps_help, default = t.eps, min = 2^-24, max = 2^-2,
              rate = function(e) return 1 / e end, rate_label = "1/ε",
              show = function(e) return SX.eps_str(e) end, gp = function(e) return "ε = " .. gp_pow(e, 2) end },
    targets = t.targets,
    params = {
      { "periods", t.periods, "", "interval: tau_end = 2 pi periods / (16 eps)... see the scenario; periods per 1/eps (tau_end = 2 pi periods/eps)",
        positive = true, min = 1 / 64, max = 64 },
      { "refm", t.refm, "", "reference: RK4 steps per period 2 pi (and twice that, Richardson)", integer = true, min = 16, max = 8192 },
    },
    quick = { eps = t.quick },
  }
  prob.params[1][4] = "the interval in periods 2 pi per 1/eps: tau_end = 2 pi periods/eps (a whole number of periods)"
  --- Refuse (before any computation) an eps whose interval is not a whole number of periods.
  function prob.check(sc, P)
    for _, e in ipairs(P.eps) do
      local K = P.periods / e
      if K < 1 or math.abs(K - math.floor(K + 0.5)) > 1e-9 * K then
        sc:fail(string.format("parameter 'eps': periods/eps = %g is not a whole number of periods (use powers of 2, " ..
                              "or change 'periods')", K))
      end
    end
  end
  function prob.setup(P, eps)
    local K = math.floor(P.periods / eps + 0.5)
    if K < 1 or math.abs(K - P.periods / eps) > 1e-9 * K then
      error(string.format("periods/eps = %g is not a whole number of periods", P.periods / eps), 0)
    end
    local y0 = {}
    for i, v in ipairs(t.y0) do y0[i] = string.format("%.17g", v) end
    local ctx = model_file_setup(t.key, { eps = eps, T = K * 2 * math.pi, y0 = table.concat(y0, ",") },
                                 { multiple = 1, refm = P.refm, refmax = P.refm, note = function(c)
      local r = {}
      for i, v in ipairs(c.ref) do r[i] = string.format("%.17g", v) end
      return string.format("tau_end = %d periods = %.17g; reference y(tau_end) = (%s) (RK4 with %d and %d steps per " ..
                           "period, Richardson; RK4 error estimate %.1e)", c.K, c.T, table.concat(r, ", "), P.refm,
                           2 * P.refm, c.ref_est_state) end })
    ctx.ref_est = ctx.ref_est_state
    ctx.peer = { sys = ctx.sys, y0 = ctx.y0, t1 = ctx.T, err = ctx.err, fast = t.fast.sys }
    return ctx
  end
  local sample = t.model(2^-10)
  function prob.catalogue()
    local m, na = {}, {}
    sam_methods({ macros = { "rk4", "dp5", "ode45" }, micros = { "rk4", "strang" }, N = t.N,
                  n = { 16, 32, 64, 128 }, tols = { 1e-4, 1e-6, 1e-8 }, N_mr = { 1, 2, 4, 8, 16 } },
                m, na, sample.sys)
    add_direct(m, na, sample.sys)
    na[#na + 1] = { name = "HMM (Algorithms 1-2, HMM-X-y)", family = "HMM", reason = "needs a second-order system " ..
                    "driven by an explicit fast phase, y'' = f(omega t, y); here the oscillation is the system's own " ..
                    "(" .. t.fast_what .. ")" }
    na[#na + 1] = { name = "slow-variable HMM (Fredbo)", family = "HMM", reason = "needs the slow variables and their " ..
                    "gradients as a kz_slow set; the library defines them for the top only" }
    na[#na + 1] = { name = "variational multirate (MM, TM, TT)", family = "VMI", reason = "needs a Lagrangian with a " ..
                    "potential split into slow and stiff parts; " .. t.vmi_why }
    return m, na
  end
  function prob.est(P)
    local w = 0
    for _, e in ipairs(P.eps) do w = w + P.periods / e * (12 * P.refm + 3000) + 2e7 end
    return w, "force evaluations (references and conventional integrations, both like 1/eps)"
  end
  return prob
end

M.kepler = sam_problem {
  key = "kepler", title = "Atlas: perturbed Kepler (Calvo, Chartier, Murua and Sanz-Serna (19))",
  error_what = "Euclidean norm of y(tau_end) - y_ref(tau_end), y = (x1, x2, v1, v2)",
  error_label = "error in y(τ_{end})",
  eps_help = "perturbation sizes (list; periods/eps whole)", eps = { 2^-8, 2^-10, 2^-12 }, quick = { 2^-8, 2^-10 },
  periods = 1 / 16, refm = 1024, targets = { 1e-4, 1e-6 }, N = { 2, 4, 8, 16 },
  model = function(eps) return models.kepler(eps) end, fast = models.kepler(0), y0 = sam.kepler_y0,
  fast_what = "the Kepler rotation", vmi_why = "the Kepler field is not split so",
}

M.vdp = sam_problem {
  key = "vdp", title = "Atlas: van der Pol (Calvo, Chartier, Murua and Sanz-Serna (17))",
  error_what = "Euclidean norm of (q, p)(tau_end) - (q, p)_ref(tau_end)",
  error_label = "error in (q, p)(τ_{end})",
  eps_help = "perturbation sizes (list; periods/eps whole)", eps = { 2^-6, 2^-8, 2^-10 }, quick = { 2^-6, 2^-8 },
  periods = 2, refm = 256, targets = { 1e-3, 1e-5 }, N = { 4, 8, 16, 32, 64 },
  model = function(eps) return models.vdp(eps) end, fast = models.vdp(0), y0 = { 0.5, 0.5 },
  fast_what = "the harmonic rotation", vmi_why = "van der Pol is not Lagrangian (the perturbation is dissipative)",
}
M.kepler.params[1][2], M.vdp.params[1][2] = 1 / 16, 2

---------------------------------------------------------------------------------------------------
-- FPU and the spring ring (Ober-Bloebaum, Wenger, Gail & Leyendecker, Sec. 6)
---------------------------------------------------------------------------------------------------

local function vmi_problem(t)
  local prob = {
    key = t.key, id = "atlas-" .. t.key, title = t.title,
    error_what = "relative error norm(y(T) - y_ref(T)) / norm(y_ref(T)), y = (q^s, q^f, p^s, p^f) (every position and momentum)",
    error_label = "relative error in y(T)",
    stiff = t.stiff, targets = t.targets,
    params = {
      { "T", t.T, "", "final time", positive = true, min = 1e-3, max = 100 },
      { "tol", 1e-12, "", "Newton tolerance of the variational schemes (max-norm residual)", positive = true, min = 1e-15, max = 1e-3 },
      { "refm", 128, "", "reference: RK4 steps per fast period (and twice that, Richardson)", integer = true, min = 16, max = 8192 },
    },
    quick = t.quick,
  }
  function prob.setup(P, s)
    local K
    local ctx = model_file_setup(t.key, { [t.stiff.key] = s, T = P.T }, function(mf)
      local period = t.period(mf.model)
      K = math.max(1, math.ceil(P.T / period - 1e-9))
      return { period = period, period_source = "the stiff springs'", K = K, T = P.T, reference = false }
    end, vmi.shape[t.key])
    local model, period = ctx.model, ctx.period
    local st, est = E.richardson(model.sys, model.y0, P.T / K, K, P.refm)
    local ref = st[K]
    ctx.y0, ctx.ref, ctx.ref_est, ctx.tol = model.y0, ref, est, P.tol
    local zero = {}
    for i = 1, #ref do zero[i] = 0 end
    local size = E.dist(ref, zero)
    function ctx.err(y) return E.dist(y, ref) / size end
    ctx.note = string.format("fast period %.6g, T = %g; reference y(T): RK4 with %d and %d steps per T/%d, Richardson " ..
                             "(RK4 error estimate %.1e)", period, P.T, P.refm, 2 * P.refm, K, est)
    ctx.peer = { sys = model.sys, y0 = model.y0, t1 = P.T, err = ctx.err }
    return ctx
  end
  local sample = t.model(t.stiff.default[1])
  function prob.catalogue()
    local m, na = {}, {}
    local grid = {}
    for _, dT in ipairs(t.dT) do for _, p in ipairs(t.p) do grid[#grid + 1] = { dT, p } end end
    for _, sch in ipairs(t.schemes) do
      m[#m + 1] = { name = "VMI-" .. sch, family = "VMI", knob = "dT,p",
        label = string.format("variational multirate %s (%s), macro step dT, p micro steps per macro step, Newton " ..
                              "(structured solver)", sch, vmi.scheme_names[sch] or
                              (sch == "TMh" and "alpha = 1/2 trapezoid in V, midpoint in W, order 2" or
                               "alpha = 1/2 trapezoid in V and W, order 2")),
        ladder = grid,
        run = function(ctx, dT, p)
          if tonumber(kz.C.kz_steps_in(ctx.T, dT)) < 1 then return nil end
          local res = vmi.run(ctx.model, sch, { p = p, dT = dT, T = ctx.T, tol = ctx.tol, reuse = true })
          local y, row = {}, res.row(res.N)
          for i = 1, ctx.model.d do y[i] = row[i - 1] end
          return ctx.err(y), res.counts
        end }
    end
    add_direct(m, na, sample.sys)
    na[#na + 1] = { name = "HMM (Algorithms 1-2, HMM-X-y)", family = "HMM", reason = "needs an explicit fast phase " ..
                    "omega t driving the force; here the fast motion is the stiff springs' own oscillation" }
    na[#na + 1] = { name = "SAM, LISP, multirevolution", family = "SAM", reason = "need a fast motion that is periodic " ..
                    "with a known period for every state; " .. t.sam_why }
    na[#na + 1] = { name = "slow-variable HMM (Fredbo)", family = "HMM", reason = "needs slow variables and their " ..
                    "gradients as a kz_slow set; the library defines them for the top only" }
    return m, na
  end
  function prob.est(P)
    local w = 0
    for _, s in ipairs(P[t.stiff.key]) do
      local periods = math.ceil(P.T / t.period(t.model(s)))
      w = w + periods * (12 * P.refm + 3000) + 5e6
    end
    return w, "force evaluations (references and direct integrations, both like the stiff frequency)"
  end
  return prob
end

M.fpu = vmi_problem {
  key = "fpu", title = "Atlas: the Fermi-Pasta-Ulam chain (Ober-Bloebaum et al., Sec. 6)",
  stiff = { key = "omega", label = "ω", unit = "", help = "frequencies of the stiff springs (list)",
            default = { 50, 200, 800 }, min = 1, max = 1e5,
            show = function(s) return require("kapitza.claims").show(s) end, gp = function(s) return "ω = " .. require("kapitza.claims").show(s) end },
  targets = { 1e-3, 1e-5 }, T = 1, quick = { omega = { 50, 200 } },
  dT = { 0.04, 0.01, 0.0025 }, p = { 1, 4, 16, 64, 256 }, schemes = { "MM", "TM", "TT", "TMh", "TTh" },
  model = function(om) return vmi.fpu { omega = om } end,
  period = function(model) return 2 * math.pi / model.omega end,
  sam_why = "the stiff springs' periods are exact only without the coupling, and the library has no stroboscopic form of FPU",
}

M.ring = vmi_problem {
  key = "ring", title = "Atlas: the spring ring (Ober-Bloebaum et al., Sec. 6)",
  stiff = { key = "omega2", label = "ω₂", unit = "N m^-1", help = "stiffnesses of the fast springs to the origin (list; frequency sqrt(omega2/mass))",
            default = { 4e3, 6.4e4, 1.024e6 }, min = 1, max = 1e9,
            rate = function(w2) return math.sqrt(w2 / 2) end, rate_label = "√(ω₂/m)",
            show = function(s) return require("kapitza.claims").show(s) end, gp = function(s) return "ω_2 = " .. require("kapitza.claims").show(s) end },
  targets = { 1e-3, 1e-5 }, T = 0.5, quick = { omega2 = { 4e3, 6.4e4 } },
  dT = { 0.02, 0.005, 0.00125 }, p = { 1, 4, 16, 64 }, schemes = { "MM", "TM", "TT" },
  model = function(w2) return vmi.ring { omega2 = w2 } end,
  period = function(model) return 2 * math.pi / math.sqrt(model.par.omega2 / model.par.mass) end,
  sam_why = "the ring's fast motion is not periodic (the masses exchange energy through the quartic springs)",
}
M.ring.params[3][2] = 256

---------------------------------------------------------------------------------------------------
-- Fredbo's fast spinning top (31)
---------------------------------------------------------------------------------------------------

M.top = {
  key = "top", id = "atlas-top",
  title = "Atlas: the fast spinning top (Fredbo (31))",
  error_what = "abs(xi3(T) - xi3_ref(T)) / max_t xi3_ref, xi3 = Pi1^2 + Pi2^2 (the thesis's Table 1 quantity, relative)",
  error_label = "relative error in ξ_3(T)",
  stiff = { key = "omega", label = "ω", unit = "", help = "spin multipliers: Pi3 = omega Pi3^ (31) (list)",
            default = { 1e3, 1e4, 1e5 }, min = 10, max = 1e7, show = md_pow10,
            gp = function(s) return "ω = " .. gp_pow(s, 10) end },
  targets = { 1e-2, 1e-4 },
  params = {
    { "T", 0.01, "s", "final time (Table 1)", positive = true, min = 1e-5, max = 10 },
    { "Pi1w", 1, "", "initial Pi1 = Pi1w / omega (Table 1)" },
    { "theta0", 0.2, "rad", "initial inclination: Gamma0 = (0, sin theta0, cos theta0)" },
    { "h_c", 10, "", "HMM micro step h = h_c / omega^2 (Table 1)", positive = true, max = 1e4 },
    { "eta_h", 10, "", "HMM window eta = eta_h h (Table 1; even)", integer = true, min = 2, max = 1e4 },
    { "refm", 256, "", "reference: RK4 steps per fast period 2 pi I3/Pi3 (and twice that, Richardson)", integer = true, min = 16, max = 4096 },
  },
  quick = { omega = { 1e3, 1e4 } },
}

function M.top.setup(P, omega)
  local K
  local ctx, mf = model_file_setup("top", { spin = omega, Pi1 = P.Pi1w / omega, tilt = P.theta0, T = P.T }, function(mf)
    local period = 2 * math.pi * mf.model.par.I3 / (omega * mf.model.constants.Pi3hat) -- the spin Pi3/I3
    K = math.max(1, math.ceil(P.T / period - 1e-9))
    return { period = period, period_source = "the spin Pi3/I3", K = K, T = P.T, reference = false }
  end, function(m) models.shape.top(m, false) end)
  local model, y0 = ctx.model, ctx.y0
  local st, est = E.richardson(model.sys, y0, P.T / K, K, P.refm)
  local mx = 0
  for _, x in ipairs(st) do mx = math.max(mx, x[1] * x[1] + x[2] * x[2]) end
  local ref = st[K]
  local xi3 = ref[1] * ref[1] + ref[2] * ref[2]
  ctx.ref, ctx.ref_est, ctx.scale, ctx.h, ctx.eta_h = ref, est, omega / 1e3, P.h_c / (omega * omega), P.eta_h
  function ctx.err(y) return math.abs(y[1] * y[1] + y[2] * y[2] - xi3) / mx end
  ctx.note = string.format("T = %g s = %d spin periods; reference xi3(T) = %.17g, max xi3 = %.17g over the grid T/%d " ..
                           "(RK4 with %d and %d steps per grid interval, Richardson; RK4 error estimate %.1e)",
                           P.T, K, xi3, mx, K, P.refm, 2 * P.refm, est)
  ctx.peer = { sys = model.sys, y0 = y0, t1 = P.T, err = ctx.err }
  return ctx
end

local top_sample = models.top {}

function M.top.catalogue()
  local m, na = {}, {}
  for _, c in ipairs { { "LF", "rk4" }, { "FE", "rk4" }, { "LF", "ve" } } do
    m[#m + 1] = { name = "HMM-" .. c[1] .. "-" .. c[2], family = "HMM", knob = "N",
      label = string.format("slow-variable HMM (Algorithms 3-4, set (32)), %s macro scheme, %s micro-solver, h = h_c/omega^2, " ..
                            "eta = eta_h h, kernel K^exp(2); N = x omega/10^3 macro steps (Table 1's scaling)", c[1], c[2]),
      ladder = { 40, 80, 160, 320 },
      run = function(ctx, x)
        local N = math.floor(x * ctx.scale + 0.5)
        if N < 2 then return nil end
        local xs, _, c2 = hmm.slow_run(ctx.model, { set = "32", macro = c[1], micro = c[2], H = ctx.T / N, T = ctx.T,
                                                    eta = ctx.eta_h * ctx.h, h = ctx.h, x0 = ctx.y0,
                                                    final = true })
        local y = {}
        for i = 1, 6 do y[i] = xs[i][#xs[i]] end
        return ctx.err(y), c2
      end }
  end
  add_direct(m, na, top_sample.sys)
  na[#na + 1] = { name = "HMM (Algorithms 1-2, HMM-X-y)", family = "HMM", reason = "needs a second-order system driven " ..
                  "by an explicit fast phase; the free top's fast scale is its own spin (the slow-variable HMM above)" }
  na[#na + 1] = { name = "SAM, LISP, multirevolution", family = "SAM", reason = "need a time-periodic fast forcing of known " ..
                  "period; the free top's fast rotation is autonomous (its period depends on the state)" }
  na[#na + 1] = { name = "variational multirate (MM, TM, TT)", family = "VMI", reason = "need positions with a potential " ..
                  "split into slow and stiff parts; the top is written in body coordinates (Pi, Gamma) on a Lie-Poisson manifold" }
  return m, na
end

function M.top.est(P)
  local w = 0
  for _, om in ipairs(P.omega) do w = w + P.T * 17.6 * om / (2 * math.pi) * (12 * P.refm + 3000) + 2e6 * om / 1e3 end
  return w, "force evaluations (references, direct integrations and the HMM, all like omega)"
end

---------------------------------------------------------------------------------------------------
-- The vibrated double pendulum (Calvo & Sanz-Serna (4.3); Calvo et al. Sec. 6.2)
---------------------------------------------------------------------------------------------------

M.dpend = {
  key = "dpend", id = "atlas-dpend",
  title = "Atlas: the vibrated double pendulum (Calvo and Sanz-Serna (4.3))",
  error_what = "abs(q1(T) - q1_ref(T)) [rad], the angle of rod 1 at T against the true solution",
  error_label = "error in q_1(T) [rad]",
  stiff = { key = "omega", label = "ω", unit = "s^-1", help = "vibration frequencies (list)",
            default = { 1e3, 1e4, 1e5 }, min = 10, max = 1e9, show = md_pow10,
            gp = function(s) return "ω = " .. gp_pow(s, 10) .. " s^{-1}" end },
  targets = { 1e-2, 1e-4 },
  params = {
    { "T", 1, "s", "nominal final time: T = K 2 pi/omega, K the multiple of 32 periods nearest", positive = true, min = 0.05, max = 100 },
    { "refm", 64, "", "reference: RK4 steps per period on the angle ODE (and twice that, Richardson)", integer = true, min = 16, max = 4096 },
  },
  quick = { omega = { 1e3, 1e4 } },
}
for _, p in ipairs(D.params) do M.dpend.params[#M.dpend.params + 1] = p end

local function dpend_defaults(P)
  local t = {}
  for _, p in ipairs(D.params) do t[p[1]] = (P and P[p[1]] ~= nil) and P[p[1]] or p[2] end
  return t
end

function M.dpend.setup(P, omega)
  local Pd = dpend_defaults(P)
  local l = math.max(Pd.l1, Pd.l2)
  local ctx = model_file_setup("dpend", { m1 = Pd.m1, m2 = Pd.m2, l1 = Pd.l1, l2 = Pd.l2, g = Pd.g, vmax = Pd.vmax,
                                          omega = omega, a1 = Pd.q1, a2 = Pd.q2, T = P.T },
                               { multiple = 32, reference = false },
                               function(m) models.shape.dpend(m, { tol = Pd.tol * l * l, max_iter = Pd.max_iter }) end)
  local model, K, period, T = ctx.model, ctx.K, ctx.period, ctx.T
  local ang0 = D.start(Pd)
  local st, est = E.richardson(model.lagrange, ang0, period, K, P.refm)
  local ref = st[K]
  ctx.y0, ctx.ref, ctx.ref_est, ctx.lagrange, ctx.lagrange_y0, ctx.Pd = model.state(ang0), ref, est, model.lagrange, ang0, Pd
  function ctx.err(y) return math.abs(model.angles(y) - ref[1]) end          -- a Cartesian state
  function ctx.err_angles(y) return math.abs(y[1] - ref[1]) end              -- a state of the angle ODE
  ctx.note = string.format("T = %d periods = %.17g s; reference q1(T) = %.17g (the angle ODE, RK4 with %d and %d steps " ..
                           "per period, Richardson; RK4 error estimate %.1e)", K, T, ref[1], P.refm, 2 * P.refm, est)
  ctx.peer = { sys = model.lagrange, y0 = ang0, t1 = T, err = ctx.err_angles }
  return ctx
end

local dp_sample = D.model(dpend_defaults(), 1e4)

function M.dpend.catalogue()
  local m, na = {}, {}
  for _, sch in ipairs(D.schemes.names) do
    m[#m + 1] = { name = "HMM-" .. D.schemes[sch], family = "HMM", knob = "N",
      label = string.format("constrained HMM %s (Sec. 4.2-4.3): simple filtering over half a period, h = period/N; N macro steps",
                            D.schemes[sch]),
      ladder = { 10, 20, 40, 80, 160, 320 },
      run = function(ctx, N)
        local Y, _, c = hmm.dae_run(ctx.model, { preset = sch, H = ctx.T / N, T = ctx.T, eta = ctx.period, h = ctx.period / N },
                                    ctx.y0)
        return ctx.err(Y[#Y]), c
      end }
  end
  local grid = {}
  for _, N in ipairs { 100, 200, 400, 800 } do for _, n in ipairs { 16, 32 } do grid[#grid + 1] = { N, n } end end
  m[#m + 1] = { name = "SAM-herk3/herk3", family = "SAM", knob = "N,n",
    label = "SAM for index-2 DAEs (Calvo et al. Sec. 6): HERK3 macro (N steps) and micro (n per period), central differences (25)",
    ladder = grid,
    run = function(ctx, N, n)
      local ys, _, c = sam.dae(ctx.model, { n = n, period = ctx.period, H = ctx.T / N, y0 = ctx.y0, tout = { ctx.T },
                                            diff = "central2", micro = "herk3", macro = "herk3" })
      return ctx.err(ys[1]), c
    end }
  local skip = {}
  for _, name in ipairs(kz.steppers.names) do
    if bit.band(tonumber(kz.steppers[name].needs), kz.C.KZ_NEEDS_CONSTRAINTS) == 0 then
      skip[name] = "on the Cartesian form it ignores the constraints g(q) = 0 (it runs on the angle ODE instead, below)"
    end
  end
  add_direct(m, na, dp_sample.sys, { skip = skip, ladders = { [2] = { 16, 32, 64 }, default = { 8, 16, 32 } } })
  local da, dana = A.direct(dp_sample.lagrange, { label = "(angles)", sysname = "lagrange", err = "err_angles",
                                                   ladders = { [1] = { 8, 32 }, [2] = { 16, 32, 64 }, default = { 8, 16, 32 } } })
  for _, x in ipairs(da) do x.label = x.label .. ", on the Lagrangian ODE in the angles"; m[#m + 1] = x end
  for _, x in ipairs(dana) do na[#na + 1] = x end
  na[#na + 1] = { name = "HMM (Algorithms 1-2) and SAM with explicit micro-steps", family = "HMM",
                  reason = "unconstrained methods; on the constrained form the library runs their DAE versions above" }
  na[#na + 1] = { name = "variational multirate (MM, TM, TT)", family = "VMI", reason = "no constrained variant in the library" }
  return m, na
end

function M.dpend.est(P)
  local w = 0
  for _, om in ipairs(P.omega) do w = w + P.T * om / (2 * math.pi) * (12 * P.refm + 3000) + 5e6 end
  return w, "force evaluations (references and direct integrations, both like omega T)"
end

-- what each problem states about its sweep (prob.claims(cl, prob, P, rows, methods))
for key, claims in pairs(require "kapitza.atlas.problem_claims") do M[key].claims = claims end

return M
