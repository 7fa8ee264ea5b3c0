/* kz_step_ve.c -- Fredbo's explicit "Stormer-Verlet like" micro-scheme (35) (M. Fredbo, "The
 * Heterogeneous Multiscale Method and the Spinning Top", MSc thesis, NTNU 2011, Sec. 5, micro-
 * solver 've' of HMM-*-ve) for a partitioned system u' = f(t, u, w), w' = g(t, u, w), (33):
 *   u_{n+1/2} = u_n + h/2 f(t_n, u_n, w_n)
 *   w_{n+1}   = w_n + h g(t_n + h/2, u_{n+1/2}, w_n)
 *   u_{n+1}   = u_{n+1/2} + h/2 f(t_n + h, u_{n+1/2}, w_{n+1})
 * The third line is printed "Pi^{n+1} = Pi^n + 1 + h/2 f(...)"; we read Pi^{n+1/2} + h/2 f(...)
 * (notes A5). For the top u = Pi, w = Gamma. Partition: u = y[0 .. m), w = y[m .. dim) with
 * m = nq when the system has nq > 0, else m = dim / 2.
 * Fully explicit; it is NOT the (implicit) partitioned Stormer-Verlet method. Properties:
 *  - order 1 in general: with f depending on u (the top's Pi x Omega), the u-part of one step is
 *    (I + hA/2)^2 = I + hA + h^2 A^2/4, not exp(hA) to O(h^3) (notes A5);
 *  - on a separable second-order system in the form y = (q, v), nq > 0 (f = v, g = a(t, q)) it is
 *    exactly drift-kick-drift leapfrog (GNI I.1.18): order 2, symmetric and symplectic there;
 *  - components with f_i = 0 (the top's Pi3) are left exactly unchanged.
 * Three evaluations of the full right-hand side per step (each stage uses one block of it); an
 * f_in saves the first, an f_out costs one more. */
#include "kz_internal.h"
#include <string.h>

static size_t ve_work(int dim) { return 3 * (size_t)dim; }

static int ve_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                    double *f_out, double *work, kz_report *r)
{
  const int d = s->dim, m = s->nq > 0 ? s->nq : d / 2;
  double *f = work, *ynew = work + d, *g = work + 2 * d;
  const double *f0 = f_in;
  if (!f0) {
    KZ_TRY(kz_eval(s, t, y, f, r));
    f0 = f;
  }
  for (int i = 0; i < m; i++) ynew[i] = y[i] + 0.5 * h * f0[i]; /* u_{n+1/2} */
  for (int i = m; i < d; i++) ynew[i] = y[i];                    /* (u_{n+1/2}, w_n) */
  KZ_TRY(kz_eval(s, t + 0.5 * h, ynew, g, r));
  for (int i = m; i < d; i++) ynew[i] = y[i] + h * g[i];         /* w_{n+1} */
  KZ_TRY(kz_eval(s, t + h, ynew, g, r));
  for (int i = 0; i < m; i++) ynew[i] += 0.5 * h * g[i];         /* u_{n+1} */
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  memcpy(y, ynew, sizeof(double) * (size_t)d);
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_ve_type = {
  "ve", "Fredbo's explicit Stormer-Verlet-like scheme (35) for partitioned u' = f, w' = g "
  "(on y = (q, v): drift-kick-drift leapfrog, not velocity Verlet)", 1, 0,
  KZ_NEEDS_RHS, 0, 3, ve_work, ve_apply, NULL,
};
const kz_step_type *const kz_step_ve = &kz_step_ve_type;
