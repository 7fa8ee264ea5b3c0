-- vdp.lua -- the van der Pol oscillator in the form (17) of Calvo, Chartier, Murua & Sanz-Serna,
-- "Numerical stroboscopic averaging for ODEs and DAEs" (Appl. Numer. Math. 61, 2011), Sec. 2(iii)
-- and 5.2, as a model file (lib/lua/kapitza/usermodel.lua's format), in the fast time tau, y = (q, p):
--   (17)      dq/dtau = p,  dp/dtau = -q + eps (1 - q^2) p;
-- every solution of eps = 0 is 2 pi-periodic (the period SAM strobes). Its splitting (Sec. 5.2):
--   a: the perturbation dp/dtau = eps (1 - q^2) p with q frozen, exact: p exp(eps (1 - q^2) h);
--   b: the harmonic rotation, exact.
-- The case of Fig. 5: eps = 2^-9, y(0) = (0.5, 0.5), tau in [0, 32 pi / eps]. The C functions
-- compute what lib/models/kz_vdp.c computes, operation for operation (lib/lua/kapitza/models.lua's models.vdp is
-- built from this file, with the same numbers to the last bit).
return {
  name = "vdp", atlas = "vdp", dim = 2, params = { "eps" }, period = 2 * math.pi,
  description = "van der Pol (17) of Calvo, Chartier, Murua & Sanz-Serna, in the fast time tau",
  values = { eps = 2 ^ -9 },
  y0 = { 0.5, 0.5 }, T = function(p) return p.eps > 0 and 32 * math.pi / p.eps or 2 * math.pi end, -- eps = 0: one period
  c = { rhs = "field", flows = { a = "perturbation", b = "rotation" }, source = [[
/* (17) */
static int field(const kz_par *p, double t, const double *y, double *dy)
{
  (void)t;
  dy[0] = y[1];
  dy[1] = -y[0] + p->eps * (1 - y[0] * y[0]) * y[1];
  return KZ_OK;
}

/* a: the perturbation, q frozen */
static int perturbation(const kz_par *p, double t, double h, double *y)
{
  (void)t;
  y[1] *= exp(p->eps * (1 - y[0] * y[0]) * h);
  return KZ_OK;
}

/* b: the harmonic rotation */
static int rotation(const kz_par *p, double t, double h, double *y)
{
  (void)p;
  (void)t;
  const double c = cos(h), s = sin(h), q = y[0], v = y[1];
  y[0] = q * c + v * s;
  y[1] = -q * s + v * c;
  return KZ_OK;
}
]] },
}
