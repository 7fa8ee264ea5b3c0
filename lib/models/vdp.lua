-- vdp.lua -- the van der Pol oscillator in the form (17) of Calvo, Chartier, Murua & Sanz-Serna,
-- "Numerical stroboscopic averaging for ODEs and DAEs" (Appl. Numer. Math. 61, 2011), Sec. 2(iii)
-- and 5.2, as a model file (lib/lua/kapitza/usermodel.lua's format), in the fast time tau, y = (q, p):
-- every solution of eps = 0 is 2 pi-periodic (the period SAM strobes). Its field and the two exact
-- flows of its splitting are in vdp.c (c.file), the model's one source, which the library's C API
-- (kz_vdp_sys) compiles too.
-- The case of Fig. 5: eps = 2^-9, y(0) = (0.5, 0.5), tau in [0, 32 pi / eps].
return {
  name = "vdp", atlas = "vdp", dim = 2, params = { "eps" }, period = 2 * math.pi,
  description = "van der Pol (17) of Calvo, Chartier, Murua & Sanz-Serna, in the fast time tau",
  values = { eps = 2 ^ -9 },
  y0 = { 0.5, 0.5 }, T = function(p) return p.eps > 0 and 32 * math.pi / p.eps or 2 * math.pi end, -- eps = 0: one period
  c = { rhs = "field", flows = { a = "perturbation", b = "rotation" }, file = "vdp.c" },
}
