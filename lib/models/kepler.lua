-- kepler.lua -- the perturbed Kepler problem of Calvo, Chartier, Murua & Sanz-Serna, "Numerical
-- stroboscopic averaging for ODEs and DAEs" (Appl. Numer. Math. 61, 2011), Sec. 2(iv), (18)-(19),
-- Sec. 5.1, as a model file (lib/lua/kapitza/usermodel.lua's format), in the fictitious time tau of (19),
-- y = (x1, x2, v1, v2). Its field and the two flows of its splitting (Sec. 5.1.2: the
-- perturbation by one implicit-midpoint step, the exact Kepler flow) are in kepler.c (c.file),
-- the model's one source, which the library's C API (kz_kepler_sys, kz_kepler_flow) compiles too;
-- the flows count their iterations (kz_iteration) and name a refusal's cause (kz_refuse).
-- The case of Fig. 3: x(0) = (1, 0), v(0) = (0, 1) (circular unperturbed orbit), eps = 2^-12,
-- tau in [0, (pi/8)/eps] (1/(16 eps) periods).
return {
  name = "kepler", atlas = "kepler", dim = 4, params = { "eps" }, period = 2 * math.pi,
  description = "perturbed Kepler (19) of Calvo, Chartier, Murua & Sanz-Serna, in the fictitious time tau",
  values = { eps = 2 ^ -12 },
  y0 = { 1, 0, 0, 1 }, T = function(p) return p.eps > 0 and math.pi / 8 / p.eps or 2 * math.pi end, -- eps = 0: one period
  c = { rhs = "field", flows = { a = "perturbation", b = "kepler_flow" }, file = "kepler.c" },
}
