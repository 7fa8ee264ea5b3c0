-- hmm.lua -- Lua side of the HMM for vibrated systems (Calvo & Sanz-Serna, Sec. 2): the pendulum
-- model, runs of Algorithms 1 and 2, and the averaged-equation references the tables measure
-- against. All stepping happens in C; this module only configures and collects.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

M.variants = { sync = C.KZ_HMM_SYNCHRONOUS, async = C.KZ_HMM_ASYNCHRONOUS }
M.kernels = { uniform = C.KZ_KERNEL_UNIFORM, exponential = C.KZ_KERNEL_EXPONENTIAL,
              cosine = C.KZ_KERNEL_COSINE }

--- The vibrated pendulum (2.2) with parameters {l, g, vmax, omega, theta0}; the returned object
-- keeps every cdata it hands to C alive.
function M.pendulum(t)
  local obj = { par = ffi.new("kz_pendulum"), vib = ffi.new("kz_vib2"), sys = ffi.new("kz_sys2"),
                avg = ffi.new("kz_sys2") }
  for _, k in ipairs { "l", "g", "vmax", "omega" } do obj.par[k] = kz.finite(t[k], "pendulum." .. k) end
  obj.par.theta0 = kz.finite(t.theta0 or 0, "pendulum.theta0")
  local r = kz.report()
  kz.call("kz_pendulum_vib2", obj.vib, obj.par, r)
  kz.call("kz_pendulum_sys2", obj.sys, obj.par, r)
  kz.call("kz_pendulum_averaged_sys2", obj.avg, obj.par, r)
  return obj
end

--- Run the HMM. o: variant ('sync'|'async'), kernel, H, T, eta, h, half_window, Q0, P0.
-- Returns Q (Lua array, Q[1] = Q_0 ... Q[N+1] = Q_N) and the work counts.
function M.run(pend, o)
  local variant = M.variants[o.variant]
  if not variant then error("hmm.run: variant must be 'sync' or 'async' (got " .. tostring(o.variant) .. ")", 2) end
  local kernel = M.kernels[o.kernel]
  if not kernel then error("hmm.run: unknown kernel '" .. tostring(o.kernel) .. "'", 2) end
  local p = ffi.new("kz_hmm_params")
  p.variant, p.kernel = variant, kernel
  p.H, p.T, p.eta, p.h = o.H, o.T, o.eta, o.h
  p.half_window = o.half_window and 1 or 0
  if o.variant == "sync" then
    p.lift = C.kz_pendulum_lift
    p.lift_par = pend.par
  end
  local N = tonumber(C.kz_steps_in(o.T, o.H))
  if N < 1 then N = 1 end -- let C report the bad grid
  local Q = kz.vec(N + 1)
  local r = kz.report()
  kz.call("kz_hmm_run", pend.vib, p, kz.vec(1, { o.Q0 }), kz.vec(1, { o.P0 or 0 }), Q, nil, N + 1, r)
  local out = {}
  for i = 0, tonumber(N) do out[i + 1] = Q[i] end
  return out, kz.counts(r)
end

--- A second-order system integrated with Verlet, step H, from (Q0, P0) to T: the "Averaged"
-- column when sys is the averaged equation (2.5). Returns Q_0..Q_N (one C call).
function M.verlet(sys, T, H, Q0, P0)
  local N = tonumber(C.kz_steps_in(T, H))
  if N < 1 then error(string.format("hmm.verlet: T = %g is not a whole number of steps H = %g", T, H), 2) end
  local out = kz.vec(N + 1)
  kz.call("kz_verlet_trajectory", sys, 0, H, 1, N, kz.vec(1, { Q0 }), kz.vec(1, { P0 }), out, nil, kz.report())
  local Q = {}
  for n = 0, N do Q[n + 1] = out[n] end
  return Q
end

--- A first-order view of a second-order system (the adaptor must stay referenced with it).
function M.as_sys1(sys2)
  local s1, ad = ffi.new("kz_sys1"), ffi.new("kz_sys2_as_sys1")
  assert(C.kz_sys1_from_sys2(s1, ad, sys2) == 0)
  return s1, ad
end

--- The solution of a second-order system by classical RK4 on a grid: (q, v) at t_n = n dt,
-- n = 0..N (T = N dt), with steps dt/m, m chosen so that the step is at most hmax. Returns the
-- arrays q and v (1-based) from one C call.
function M.rk4_grid(sys, T, dt, q0, v0, hmax)
  local N = tonumber(C.kz_steps_in(T, dt))
  if N < 1 then error(string.format("hmm.rk4_grid: T = %g is not a whole number of dt = %g", T, dt), 2) end
  local m = math.ceil(dt / hmax)
  local s1, keep = M.as_sys1(sys)
  local out = kz.vec(2 * (N + 1))
  kz.call("kz_rk4_trajectory", s1, 0, dt / m, m, N, kz.vec(2, { q0, v0 }), out, kz.report())
  assert(keep)
  local q, v = {}, {}
  for n = 0, N do q[n + 1], v[n + 1] = out[2 * n], out[2 * n + 1] end
  return q, v
end

--- The exact solution of a second-order system at t_n = n H, n = 0..N, by classical RK4 with
-- steps H/m, m chosen so that the step is at most hmax (RK4's error is then far below the
-- three digits the tables print).
function M.reference(sys, T, H, Q0, P0, hmax)
  return (M.rk4_grid(sys, T, H, Q0, P0, hmax or 1 / 20480))
end

--- max_n |a_n - b_n|
function M.maxdiff(a, b)
  assert(#a == #b, "maxdiff: lengths differ")
  local e = 0
  for i = 1, #a do e = math.max(e, math.abs(a[i] - b[i])) end
  return e
end

return M
