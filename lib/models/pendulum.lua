-- pendulum.lua -- the vibrated inverted pendulum of Calvo & Sanz-Serna, "Heterogeneous multiscale
-- methods for mechanical systems with vibrations" (SIAM J. Sci. Comput. 32, 2010), Sec. 2.1, as a
-- model file (lib/lua/kapitza/usermodel.lua's format). Its functions -- (2.9) the fast-forced force,
-- (2.7) the reconstruction, (2.6) the averaged force -- are in pendulum.c (c.file), the model's
-- one source, which the library's C API (kz_pendulum_sys, ...) and ensemble compile too.
-- The case of Fig. 2.1: l = 0.2 m, g = 9.8 m s^-2, vmax = 4 m s^-1, omega = 200 s^-1, q(0) = 0.5,
-- q'(0) = 0, over [0, 1].
return {
  name = "pendulum", atlas = "pendulum", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" }, even_in_theta = true,
  description = "Calvo & Sanz-Serna (2.2): the vibrated inverted pendulum",
  values = { l = 0.2, g = 9.8, vmax = 4, omega = 200, theta0 = 0 },
  q0 = { 0.5 }, v0 = { 0 }, T = 1,
  c = { accel = "force", reconstruct = "lift", averaged = "averaged", file = "pendulum.c" },
}
