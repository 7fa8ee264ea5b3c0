-- hmm.lua -- the Lua binding of the general HMM (lib/kz_hmm.c, lib/kz_hmm_macro.c): parameters
-- from option tables with the library's names, runs, force estimates and window averages. All
-- stepping happens in C; this module configures and collects.
--
--   local hmm = require "hmm"
--   local Q, P, work = hmm.run(model, { preset = "cs2", kernel = "uniform", H = 1/10, T = 1,
--                                       eta = 2*math.pi/omega, h = ..., Q0 = 0.5, P0 = 0 })
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

--- The presets: Calvo & Sanz-Serna's Algorithms 1 and 2, Sharp, Tsai & Engquist's HMM-V-v.
M.presets = { cs1 = C.KZ_HMM_PRESET_CS1, cs2 = C.KZ_HMM_PRESET_CS2, ste = C.KZ_HMM_PRESET_STE,
              names = { "cs1", "cs2", "ste" } }

--- A kz_hmm_params from options: preset (optional, applied first), then macro ('FE', 'IFE',
-- 'V', 'leapfrog'), micro (a stepper name), kernel, kernel_constant (0 = normalised weights),
-- phase ('exact', 'naive', 'zero'), recon ('model', 'identity', 'zero_v'), half_window,
-- fe_drift_average, fsal (booleans), H, T, eta, h.
function M.params(o)
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

local function initial(model, o)
  if o.Y0 then return kz.vec(model.dim, o.Y0) end
  return kz.vec(2, { o.Q0, o.P0 or 0 })
end

--- Run the HMM on model.vib from (Q0, P0) (or Y0) to T. Returns Q and P (Lua arrays, Q[n + 1]
-- at t_n = n H, n = 0..N; for one degree of freedom the numbers, else rows) and the work counts.
function M.run(model, o)
  local p = M.params(o)
  local N = tonumber(C.kz_steps_in(o.T, o.H))
  if N < 1 then N = 1 end -- let C report the bad grid
  local d, nq = model.dim, model.nq
  local Y = kz.vec((N + 1) * d)
  local r = kz.report()
  kz.call("kz_hmm_run", model.vib, p, initial(model, o), Y, N + 1, r)
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
  local nq = model.nq
  local F, Fv, r = kz.vec(nq), kz.vec(nq), kz.report()
  kz.call("kz_hmm_force", model.vib, M.params(o), t, kz.vec(model.dim, Y), F, Fv, r)
  local f, fv = {}, {}
  for i = 1, nq do f[i], fv[i] = F[i - 1], Fv[i - 1] end
  return f, fv, kz.counts(r)
end

return M
