/* kz_top.c -- the C API of the heavy Lagrange top of Fredbo's thesis ((23)/(31), (38)-(39), (41),
 * (48), (24), Sec. 4.3 and Theorem 2; the slow-variable sets (32), (37), (40)): the model's
 * functions are those of its one source, top.c (its model file top.lua reads the same text),
 * compiled here on struct kz_top; this file checks the parameters, fills the system structs and
 * joins each slow set's value, gradient and phase derivative into one kz_slow_fn. */
#include "kz_internal.h"
typedef struct kz_top kz_par;
#include "kz_model.h"
#include "top.c"

/* top.c writes the constants, the invariants and their drift in the order of these enums */
_Static_assert(KZ_TOP_PI3HAT == 0 && KZ_TOP_MGL == 1 && KZ_TOP_THRESHOLD == 2 && KZ_TOP_LAMBDA == 3 &&
               KZ_TOP_SPIN == 4 && KZ_TOP_NUTATION == 5 && KZ_TOP_AVGCOEF == 6 && KZ_TOP_CONSTANT_N == 7,
               "kz_top_constant: the order of top.c's constants()");
_Static_assert(KZ_TOP_ENERGY == 0 && KZ_TOP_PIGAMMA == 1 && KZ_TOP_GAMMA2 == 2 && KZ_TOP_PI3 == 3 &&
               KZ_TOP_INVARIANT_N == 4, "kz_top_invariant: the order of top.c's drift()");
_Static_assert((int)KZ_TOP_FREE == FREE && (int)KZ_TOP_TRANSVERSE == TRANSVERSE && (int)KZ_TOP_VERTICAL == VERTICAL &&
               (int)KZ_TOP_AVG_CORRECTED == CORRECTED && (int)KZ_TOP_AVG_PRINTED == PRINTED,
               "kz_top_forcing, kz_top_avg: top.c's numbers for them");

static int check(const kz_top *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "top");
  KZ_TRY(kz_check_num(r, p->M, "M", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->l, "l", 0));
  KZ_TRY(kz_check_num(r, p->I1, "I1", 1));
  KZ_TRY(kz_check_num(r, p->I2, "I2", 1));
  KZ_TRY(kz_check_num(r, p->I3, "I3", 1));
  if (p->forcing < KZ_TOP_FREE || p->forcing > KZ_TOP_VERTICAL) return kz_bad(r, KZ_EDOMAIN, "forcing");
  KZ_TRY(kz_check_num(r, p->amp, "amp", 0));
  KZ_TRY(kz_check_num(r, p->nu, "nu", 0));
  if (p->nu < 0 || (p->forcing != KZ_TOP_FREE && p->nu == 0)) return kz_bad(r, KZ_EDOMAIN, "nu");
  if (p->avg < KZ_TOP_AVG_CORRECTED || p->avg > KZ_TOP_AVG_NONE) return kz_bad(r, KZ_EDOMAIN, "avg");
  return KZ_OK;
}

/* the top at the phase theta = nu t; in time form; the averaged equation (48) */
static int vib_rhs(void *par, double theta, const double *x, double *f) { return phase_rhs(par, theta, x, f); }

static int time_rhs(void *par, double t, const double *x, double *f)
{
  const kz_top *p = par;
  return phase_rhs(p, p->nu * t, x, f);
}

static int averaged_rhs(void *par, double t, const double *x, double *f)
{
  (void)t;
  return averaged(par, x, f);
}

static int fill(kz_sys *s, kz_top *p, kz_rhs_fn rhs, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 6, .rhs = rhs, .par = p};
  *s = v;
  return KZ_OK;
}

int kz_top_sys(kz_sys *s, kz_top *p, kz_report *r) { return fill(s, p, time_rhs, r); }

int kz_top_averaged_sys(kz_sys *s, kz_top *p, kz_report *r) { return fill(s, p, averaged_rhs, r); }

int kz_top_vib(kz_vib *m, kz_top *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {6, 0, p->nu, 0.0, 0, vib_rhs, NULL, NULL, p};
  *m = v;
  return KZ_OK;
}

int kz_top_constants(const kz_top *p, double *c, kz_report *r)
{
  KZ_TRY(check(p, r));
  if (!c) return kz_bad(r, KZ_ENULL, "c");
  double k[KZ_TOP_CONSTANT_N];
  if (constants(p, k) != KZ_OK) return kz_bad(r, KZ_EDOMAIN, "l"); /* Pi3^ needs M g l > 0 */
  for (int i = 0; i < KZ_TOP_CONSTANT_N; i++) c[i] = k[i];
  return KZ_OK;
}

int kz_top_invariants(const kz_top *p, const double *x, double *inv, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, x, 6, "x"));
  if (!inv) return kz_bad(r, KZ_ENULL, "inv");
  energy(p, x, inv + KZ_TOP_ENERGY);
  pi_gamma(p, x, inv + KZ_TOP_PIGAMMA);
  gamma2(p, x, inv + KZ_TOP_GAMMA2);
  pi3(p, x, inv + KZ_TOP_PI3);
  return KZ_OK;
}

int kz_top_drift(const kz_top *p, const double *x, const double *x0, double *d, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, x, 6, "x"));
  KZ_TRY(kz_check_vec(r, x0, 6, "x0"));
  if (!d) return kz_bad(r, KZ_ENULL, "d");
  drift(p, x, x0, d);
  return KZ_OK;
}

/* A slow set as a kz_slow_fn: its values xi, then (each when asked for) the gradient g and the
 * derivative xt along the phase; the first refusal stops it. */
typedef int (*part_fn)(const kz_par *p, double theta, const double *x, double *out);
static int slow_set(part_fn fxi, part_fn fg, part_fn fxt, const kz_par *p, double theta, const double *x,
                    double *xi, double *g, double *xt)
{
  int st = xi ? fxi(p, theta, x, xi) : KZ_OK;
  if (st == KZ_OK && g) st = fg(p, theta, x, g);
  if (st == KZ_OK && xt) st = fxt(p, theta, x, xt);
  return st;
}

static int set32(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  return slow_set(xi32, xi32_gradient, no_dtheta, par, theta, x, xi, g, xt);
}

static int set37(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  return slow_set(xi37, xi37_gradient, no_dtheta, par, theta, x, xi, g, xt);
}

static int set40(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  return slow_set(xi40, xi40_gradient, xi40_dtheta, par, theta, x, xi, g, xt);
}

static const int frozen_pi3[6] = {0, 0, 1, 0, 0, 0};

int kz_top_slow(kz_slow *s, kz_top *p, int set, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "slow");
  if (!p) return kz_bad(r, KZ_ENULL, "top");
  static const kz_slow_fn fns[KZ_TOP_SET_END] = {set32, set37, set40};
  if (set < 0 || set >= KZ_TOP_SET_END) return kz_bad(r, KZ_EDOMAIN, "set");
  if (set == KZ_TOP_XI37 && !(p->I1 > 0 && p->I2 > 0 && p->I3 > 0)) return kz_bad(r, KZ_EDOMAIN, "I");
  if (set == KZ_TOP_XI40 && (p->forcing != KZ_TOP_TRANSVERSE || !(p->nu > 0)))
    return kz_bad(r, KZ_EMODEL, "set"); /* (40) belongs to the transverse vibration (38) */
  const kz_slow v = {4, 6, fns[set], frozen_pi3, p};
  *s = v;
  return KZ_OK;
}
