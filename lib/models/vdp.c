/* vdp.c -- the van der Pol oscillator in the form (17) of Calvo, Chartier, Murua & Sanz-Serna,
 * "Numerical stroboscopic averaging for ODEs and DAEs" (Appl. Numer. Math. 61, 2011), Sec. 2(iii)
 * and 5.2, in the fast time tau, y = (q, p):
 *   (17)      dq/dtau = p,  dp/dtau = -q + eps (1 - q^2) p;
 * every solution of eps = 0 is 2 pi-periodic (the period SAM strobes). Its splitting (Sec. 5.2):
 *   a: the perturbation dp/dtau = eps (1 - q^2) p with q frozen, exact: p exp(eps (1 - q^2) h);
 *   b: the harmonic rotation, exact.
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file vdp.lua and
 * compiled into the library's C API (kz_vdp.c: kz_vdp_sys). */

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
