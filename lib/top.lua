-- top.lua -- what the scenarios of Fredbo's thesis (seed 004, "The Heterogeneous Multiscale Method
-- and the Spinning Top") share: the parameter keys of the top and of the slow-variable HMM, the
-- model from them, slow variables along reference trajectories, errors on the macro grid, Euler
-- angles, and a few formatting helpers. The numerics are in C (lib/kz_top*.c, kz_hmm_slow.c);
-- the method binding is lib/hmm.lua (slow_run), the shared measurements lib/experiment.lua.
local kz = require "kapitza"
local models = require "models"
local hmm = require "hmm"
local E = require "experiment"
local S = require "scenario"

local M = {}

local function with_defaults(list, d)
  d = d or {}
  local out = {}
  for i, p in ipairs(list) do
    local q = {}
    for k, v in pairs(p) do q[k] = v end
    if d[p[1]] ~= nil then q[2] = d[p[1]] end
    out[i] = q
  end
  return out
end

--- Scenario parameters of the top (Sec. 4.3: the cone M = 5, height 1, radius 0.4 about its tip),
-- with the defaults in d overriding the thesis's.
function M.model_params(d)
  return with_defaults({
    { "M", 5, "kg", "mass of the top", positive = true },
    { "g", 9.81, "m s^-2", "acceleration of gravity" },
    { "l", 0.75, "m", "fixed point to centre of mass (3/4 of the cone's height)" },
    { "I1", 3.12, "kg m^2", "moment of inertia I1 about the tip (cone: 3/5 M (h^2 + r^2/4))", positive = true },
    { "I2", 3.12, "kg m^2", "moment of inertia I2 (= I1: the Lagrange top)", positive = true },
    { "I3", 0.24, "kg m^2", "moment of inertia I3 about the axis (cone: 3/10 M r^2)", positive = true },
    { "theta0", 0.2, "rad", "initial inclination: Gamma0 = (0, sin theta0, cos theta0)" },
  }, d)
end

--- Scenario parameters of the slow-variable HMM (Algorithms 3-4), defaults HMM-LF-rk4 with the
-- notes' readings, overridden by d.
function M.method_params(d)
  return with_defaults({
    { "macro", "LF", "", "macro scheme: forward Euler or leapfrog x_{n+1} = x_{n-1} + 2 H delta_n", choices = kz.slow_macros.names },
    { "micro", "rk4", "", "micro-solver (any registry stepper; 've' is Fredbo's (35))", choices = kz.steppers.names },
    { "kernel", "exp2", "", "averaging kernel (K^exp(2) of (9) for the top)", choices = kz.kernels.names },
    { "weights", "normalised", "", "trapezoid kernel weights normalised to sum 1, or raw K(j/m)/m", choices = { "normalised", "raw" } },
    { "lsq", "minnorm", "", "least-squares solution of grad xi delta = d/dt xi (A7; basic = MATLAB's J\\b)", choices = kz.lsq_kinds.names },
    { "start", "FE", "", "leapfrog start x_1 (A4): one forward Euler step, or Heun", choices = kz.slow_starts.names },
    { "predictor", "none", "", "micro data x_n, or Alg. 4 step 2 as printed, x_n + H delta_{n-1} (A3)", choices = kz.predictors.names },
    { "fd_step", 0, "", "0: analytic gradients of xi; > 0: central differences, steps fd_step max(1, |x_j|)", min = 0 },
  }, d)
end

--- The top of the scenario's parameters P (plus forcing, amp, nu, avg from o).
function M.model(P, o)
  o = o or {}
  return models.top { M = P.M, g = P.g, l = P.l, I1 = P.I1, I2 = P.I2, I3 = P.I3, forcing = o.forcing,
                      amp = o.amp, nu = o.nu, avg = o.avg }
end

--- The HMM options from the scenario's parameters P, completed by o (H, T, eta, h, x0, set, ...).
function M.hmm_opts(P, o)
  local t = { macro = P.macro, micro = P.micro, kernel = P.kernel, lsq = P.lsq, start = P.start,
              predictor = P.predictor, fd_step = P.fd_step }
  if P.weights == "raw" then t.kernel_constant = kz.C.kz_kernel_constant(kz.kernels[P.kernel]) end
  for k, v in pairs(o or {}) do t[k] = v end
  return t
end

--- Run the slow-variable HMM (hmm.slow_run) with the scenario's method parameters.
function M.run(model, P, o) return hmm.slow_run(model, M.hmm_opts(P, o)) end

--- The slow variables of model.slow[set] along trajectory columns cols (cols[i][n]); the phase
-- of row n is nu * (n - 1) * dt (nu = 0 for the autonomous sets). Returns xi[k][n].
function M.xi(model, set, cols, dt, nu)
  local s = model.slow[set]
  local xb, xr, r = kz.vec(s.r), kz.vec(s.dim), kz.report()
  local out = {}
  for k = 1, s.r do out[k] = {} end
  for n = 1, #cols[1] do
    for i = 1, s.dim do xr[i - 1] = cols[i][n] end
    kz.call("kz_slow_values", s, (nu or 0) * (n - 1) * (dt or 0), xr, xb, nil, r)
    for k = 1, s.r do out[k][n] = xb[k - 1] end
  end
  return out
end

--- A reference solution on the grid t_n = n dt by RK4 with steps <= hmax (E.grid), with its
-- check by step halving: delta[k], the largest change of slow variable k of `set` on the grid
-- when the step is halved (when `check` is set; nil otherwise). Returns cols, xi, delta, counts.
function M.reference(model, set, T, dt, x0, hmax, check, nu)
  local cols, counts = E.grid(model.sys, T, dt, x0, hmax)
  local xi = M.xi(model, set, cols, dt, nu)
  local delta
  if check then
    local xi2 = M.xi(model, set, E.grid(model.sys, T, dt, x0, hmax / 2), dt, nu)
    delta = {}
    for k = 1, #xi do delta[k] = E.maxdiff(xi[k], xi2[k]) end
  end
  return cols, xi, delta, counts
end

--- max_n |a[n] - b[(n - 1) stride + 1]|: an HMM column on its macro grid against a reference
-- sampled `stride` times finer.
function M.maxerr(a, b, stride)
  stride = stride or 1
  local e = 0
  for n = 1, #a do e = math.max(e, math.abs(a[n] - b[(n - 1) * stride + 1])) end
  return e
end

--- Largest absolute value of a column.
function M.maxabs(a)
  local m = 0
  for _, v in ipairs(a) do m = math.max(m, math.abs(v)) end
  return m
end

--- The cone of Sec. 4.3 (Fig. 10; moments about the tip): I1 = I2 = 3/5 M (h^2 + r^2/4),
-- I3 = 3/10 M r^2, centre of mass at l = 3/4 h.
function M.cone(Mass, height, radius)
  return 0.6 * Mass * (height * height + radius * radius / 4), 0.3 * Mass * radius * radius, 0.75 * height
end

--- The Euler angles from slow variables of (32) with I1 = I2: theta = arccos xi2, phi' = xi5 /
-- (I1 xi4) (the inversion of (29)); phi = integral of phi' by the trapezoidal rule on a grid of
-- spacing dt, phi(0) = 0.
function M.euler(xi, I1, dt)
  local th, ph = {}, { 0 }
  for n = 1, #xi[1] do
    th[n] = math.acos(math.max(-1, math.min(1, xi[1][n])))
    if n > 1 then
      local a, b = xi[4][n - 1] / (I1 * xi[3][n - 1]), xi[4][n] / (I1 * xi[3][n])
      ph[n] = ph[n - 1] + 0.5 * dt * (a + b)
    end
  end
  return th, ph
end

--- Number formats: 3 significant digits (the thesis's a(-b) style as a.bc e-b), and a compact
-- string of a number for data files (8 significant digits keep plotting files small).
M.sci = S.sci
function M.short(x) return string.format("%.8g", x) end

--- "x_lo–x_hi" of a list.
M.range = E.range

--- Write the claims table cl as tables/<id>.tsv, and tables/<id>.md as the Markdown `pre`
-- (the artefact's own table, may be nil) followed by the claims and the note.
function M.write_claims(sc, cl, pre, note)
  sc:write_tsv("tables/" .. sc.id .. ".tsv", cl:tsv_rows())
  sc:write_text("tables/" .. sc.id .. ".md", (pre and (pre .. "\n") or "") .. cl:md(note))
end

--- "yes"/"no" style acceptance: |x - want| <= rel |want|.
function M.within(x, want, rel) return math.abs(x - want) <= rel * math.abs(want) end

return M
