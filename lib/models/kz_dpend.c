/* kz_dpend.c -- the C API of the vertically vibrated double pendulum with rigid rods (Calvo &
 * Sanz-Serna (4.3); Calvo, Chartier, Murua & Sanz-Serna Sec. 6.2): the model's functions are
 * those of its one source, dpend.c (Cartesian: the applied force, the rods, the state of the
 * angles) and dpend_angles.c (the rod angles: the Euler-Lagrange equations, their Kapitza
 * average), which its model file dpend.lua reads, compiled here on struct kz_dpend; this file
 * checks the parameters and fills the system structs (the inverse masses, the Newton tolerance
 * 1e-15 max(l1, l2)^2 and 50 iterations: the model file's constraints data). */
#include "kz_internal.h"
typedef struct kz_dpend kz_par;
#include "kz_model.h"
#include "dpend.c"
#include "dpend_angles.c"

static int check(const kz_dpend *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "dpend");
  KZ_TRY(kz_check_num(r, p->m1, "m1", 1));
  KZ_TRY(kz_check_num(r, p->m2, "m2", 1));
  KZ_TRY(kz_check_num(r, p->l1, "l1", 1));
  KZ_TRY(kz_check_num(r, p->l2, "l2", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->vmax, "vmax", 0));
  KZ_TRY(kz_check_num(r, p->omega, "omega", 1));
  KZ_TRY(kz_check_num(r, p->theta0, "theta0", 0));
  return KZ_OK;
}

static void fill_minv(kz_dpend *p)
{
  p->minv[0] = p->minv[1] = 1 / p->m1;
  p->minv[2] = p->minv[3] = 1 / p->m2;
}

/* the rods g(q) and their Jacobian G(q), each when asked for */
static int constraints(void *par, const double *q, double *g, double *G)
{
  if (g) KZ_TRY(rods(par, q, g));
  return G ? rods_jacobian(par, q, G) : KZ_OK;
}

/* M^-1 f at the phase theta; in time form at theta = omega t + theta0 */
static int vib_accel(void *par, double theta, const double *q, double *a) { return accel(par, theta, q, a); }

static int time_accel(void *par, double t, const double *q, double *a)
{
  const kz_dpend *p = par;
  return accel(p, p->omega * t + p->theta0, q, a);
}

static int lagrange_rhs(void *par, double t, const double *y, double *dy)
{
  const kz_dpend *p = par;
  return lagrange(p, p->omega * t + p->theta0, y, dy);
}

static int averaged_rhs(void *par, double t, const double *y, double *dy)
{
  (void)t;
  return averaged(par, y, dy);
}

int kz_dpend_constraints(kz_constraints *c, kz_dpend *p, kz_report *r)
{
  if (!c) return kz_bad(r, KZ_ENULL, "con");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const double l = fmax(p->l1, p->l2);
  const kz_constraints v = {2, p->minv, constraints, p, 1e-15 * l * l, 50, NULL, NULL, NULL};
  *c = v;
  return KZ_OK;
}

int kz_dpend_sys(kz_sys *s, kz_dpend *p, const kz_constraints *c, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  if (!c) return kz_bad(r, KZ_ENULL, "con");
  fill_minv(p);
  const kz_sys v = {.dim = 8, .par = p, .nq = 4, .accel = time_accel, .con = c};
  *s = v;
  return KZ_OK;
}

int kz_dpend_vib(kz_vib *m, kz_dpend *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const kz_vib v = {8, 4, p->omega, p->theta0, 1, NULL, vib_accel, NULL, p};
  *m = v;
  return KZ_OK;
}

static int angle_sys(kz_sys *s, kz_dpend *p, kz_rhs_fn f, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const kz_sys v = {.dim = 4, .rhs = f, .par = p};
  *s = v;
  return KZ_OK;
}

int kz_dpend_lagrange_sys(kz_sys *s, kz_dpend *p, kz_report *r) { return angle_sys(s, p, lagrange_rhs, r); }

int kz_dpend_averaged_sys(kz_sys *s, kz_dpend *p, kz_report *r) { return angle_sys(s, p, averaged_rhs, r); }

int kz_dpend_state(const kz_dpend *p, const double *ang, double *y, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, ang, 4, "ang"));
  if (!y) return kz_bad(r, KZ_ENULL, "y");
  state(p, ang, y);
  return KZ_OK;
}
