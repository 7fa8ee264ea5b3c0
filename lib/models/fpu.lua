-- fpu.lua -- the Fermi-Pasta-Ulam chain of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
-- multirate integrators" (Sec. 6, after Hairer, Lubich & Wanner, Geometric Numerical Integration,
-- Sec. I.5.1), as a model file (lib/lua/kapitza/usermodel.lua's format, the vmi part), state
-- (qs, qf, ps, pf). Its potentials V (the soft springs) and W (the stiff ones), with their
-- gradients and Hessians adding into the method's arrays (vmi.accumulate), are in fpu.c (c.file),
-- the model's one source, which the library's C API (kz_vmi_fpu_model) compiles too.
-- The case of Sec. 6: l = 3, omega = 50, qs(0) = (1, 0, 0), qf(0) = (1/omega, 0, 0),
-- ps(0) = pf(0) = (1, 0, 0), over [0, 200]. l names the sizes (ns = nf = l: one compiled object
-- per l).
return {
  name = "fpu", atlas = "fpu", params = { "l", "omega" },
  description = "Fermi-Pasta-Ulam (Ober-Bloebaum et al. Sec. 6; HLW I.5.1): slow soft cubic springs, stiff linear ones",
  values = { l = 3, omega = 50 },
  vmi = { ns = "l", nf = "l", mass_s = 1, mass_f = 1, accumulate = true },
  q0 = function(p)
    local q = {}
    for i = 1, 2 * p.l do q[i] = 0 end
    q[1], q[p.l + 1] = 1, 1 / p.omega
    return q
  end,
  p0 = function(p)
    local v = {}
    for i = 1, 2 * p.l do v[i] = 0 end
    v[1], v[p.l + 1] = 1, 1
    return v
  end,
  T = 200, period = function(p) return 2 * math.pi / p.omega end, -- the stiff springs' (uncoupled)
  c = { vmi = { V = "V", V_gradient = "V_gradient", V_hessian = "V_hessian", W = "W", W_gradient = "W_gradient",
                W_hessian = "W_hessian" }, file = "fpu.c" },
}
