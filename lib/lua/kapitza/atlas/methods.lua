-- atlas_methods.lua -- what the problems of the efficiency atlas (lib/lua/kapitza/atlas/problems.lua)
-- and `kapitza atlas` on a model of one's own (lib/lua/kapitza/atlas/user.lua) share: the labels of
-- powers, the whole number of fast periods of a run, the method families several problems take
-- (the HMM, SAM / LISP / multirevolution with their micro- and macro-solvers, the registry's direct
-- steppers) and a problem's model loaded from its model file. No numerics here.
local kz = require "kapitza"
local S = require "kapitza.scenario"
local A = require "kapitza.atlas"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"

local M = {}

-- "10^{3}" (gnuplot enhanced) for a power of ten, else the value as given (never rounded);
-- "2^{-10}" for a power of two.
local show = require("kapitza.claims").show
local function gp_pow(x, base)
  local k = math.log(x) / math.log(base)
  local r = math.floor(k + 0.5)
  if math.abs(k - r) < 1e-9 then return string.format("%d^{%d}", base, r) end
  return show(x)
end
local function md_pow10(x)
  local k = math.floor(math.log10(x) + 0.5)
  if math.abs(x - S.pow10(k)) <= 1e-9 * x then return "10^" .. k end
  return show(x)
end
M.gp_pow, M.md_pow10 = gp_pow, md_pow10

-- K, the whole number of fast periods in [0, T]: the nearest multiple of `mult` to T0/period
-- (at least mult), so that T = K period is a stroboscopic time close to T0 that the macro grids
-- of SAM and the multirevolution method divide.
local function whole_periods(T0, period, mult)
  return mult * math.max(1, math.floor(T0 / period / mult + 0.5))
end
M.whole_periods = whole_periods

---------------------------------------------------------------------------------------------------
-- Method families shared by several problems
---------------------------------------------------------------------------------------------------

--- The HMM of Calvo & Sanz-Serna / Sharp, Tsai & Engquist (kz_hmm_run) on ctx.model.vib from
-- ctx.Y0 over [0, ctx.T], H = T/N; o(ctx, N) returns the options (preset, kernel, eta, h, ...).
-- Error ctx.err_slow(Q(T)) (the slow angle against the true solution).
local function hmm_method(name, label, ladder, opts)
  return { name = name, family = "HMM", knob = "N", label = label .. "; N macro steps", ladder = ladder,
           run = function(ctx, N)
             local o = opts(ctx, N)
             o.H, o.T, o.Q0, o.P0 = ctx.T / N, ctx.T, ctx.y0[1], ctx.y0[2]
             local Q, _, c = hmm.run(ctx.model, o)
             return ctx.err_slow(Q[#Q]), c
           end }
end

--- Every registry stepper that takes sys as a curve of m, and those that do not as n/a rows of na.
local function add_direct(m, na, sys, opts)
  local d, dna = A.direct(sys, opts)
  for _, x in ipairs(d) do m[#m + 1] = x end
  for _, x in ipairs(dna) do na[#na + 1] = x end
end

--- SAM, LISP and the multirevolution method (lib/lua/kapitza/sam.lua) on a system with a fast period
-- ctx.period, from ctx.y0 to ctx.T = ctx.K periods: the pairs macro/micro of o.macros x
-- o.micros ("rk4", "dp5", "ode45" x "rk4", "strang"), each on the grid N x n (N macro steps, n
-- micro-steps per period; ode45: tolerance x n), LISP and MR with each micro-solver. Micro-solvers
-- the model cannot take go to the n/a list (reason given).
local function sam_methods(o, methods, na, sample)
  local function micro(ctx, kind)
    ctx.micro = ctx.micro or {}
    if not ctx.micro[kind] then ctx.micro[kind] = sam.micro(ctx.model, kind) end
    return ctx.micro[kind]
  end
  local micros = {}
  for _, kind in ipairs(o.micros) do
    local T = kz.stepper(kind)
    if kz.C.kz_step_check(T, sample, kz.report()) == 0 then micros[#micros + 1] = kind
    else
      na[#na + 1] = { name = "SAM/LISP/MR with " .. kind .. " micro-steps", family = "SAM",
                      reason = "needs a splitting of the field into two exact flows, which this model does not offer" }
    end
  end
  local function grid(a, b)
    local t = {}
    for _, x in ipairs(a) do for _, y in ipairs(b) do t[#t + 1] = { x, y } end end
    return t
  end
  for _, mi in ipairs(micros) do
    for _, ma in ipairs(o.macros) do
      local ode = ma == "ode45"
      methods[#methods + 1] = {
        name = string.format("SAM-%s/%s", ma, mi), family = "SAM", knob = ode and "tol,n" or "N,n",
        label = string.format("SAM (25), %s macro-solver%s, %s micro-steps, n per period", ma,
                              ode and " (rtol = atol = tol)" or " with N constant steps", mi),
        ladder = grid(ode and o.tols or o.N, o.n),
        run = function(ctx, x, n)
          local so = { n = n, period = ctx.period, y0 = ctx.y0, tout = { ctx.T }, macro = ma }
          if ode then so.rtol, so.atol = x, x else so.H = ctx.T / x end
          local ys, c = sam.sam(micro(ctx, mi), so)
          return ctx.err(ys[1]), c
        end }
    end
    methods[#methods + 1] = {
      name = "LISP-rk4/" .. mi, family = "LISP", knob = "N,n",
      label = string.format("LISP (29) (two forward periods), rk4 macro-solver with N steps, %s micro-steps", mi),
      ladder = grid(o.N, o.n),
      run = function(ctx, N, n)
        local ys, c = sam.sam(micro(ctx, mi), { n = n, period = ctx.period, y0 = ctx.y0, tout = { ctx.T }, macro = "rk4",
                                                 diff = "lisp", H = ctx.T / N })
        return ctx.err(ys[1]), c
      end }
    methods[#methods + 1] = {
      name = "MR-" .. mi, family = "MR", knob = "N,n",
      label = string.format("multirevolution RK4 (32), N macro steps of K/N > 4 periods, %s micro-steps", mi),
      ladder = grid(o.N_mr or o.N, o.n),
      run = function(ctx, N, n)
        local Mp = ctx.K / N
        if Mp ~= math.floor(Mp) or Mp <= 4 then return nil end -- (32) needs M > 4 periods per step
        local y, c = sam.mr(micro(ctx, mi), { n = n, period = ctx.period, M = Mp, N = N, y0 = ctx.y0 })
        return ctx.err(y), c
      end }
  end
end
M.sam_methods, M.add_direct = sam_methods, add_direct

-- The atlas's model of a problem: the model file lib/models/<name>.lua loaded with the overrides
-- as `kapitza atlas` loads a user's (lib/lua/kapitza/modelfile.lua), and its context (the time grid of whole
-- periods, the Richardson reference, the error) set up by the command's own lib/lua/kapitza/atlas/user.lua,
-- with the problem's fixed reference (o.refm), period and words (o: AU.setup's options).
-- (o may be a function of the loaded model file mf returning them; shape: models.shape's.)
local function model_file_setup(name, overrides, o, shape)
  local AU, MF = require "kapitza.atlas.user", require "kapitza.modelfile" -- (atlas_user requires this module)
  local mf = MF.load(models.path(name), overrides, { library = true })
  if shape then shape(mf.model) end
  if type(o) == "function" then o = o(mf) end
  return AU.setup(mf, o), mf
end
M.model_file_setup = model_file_setup
M.hmm_method = hmm_method

return M
