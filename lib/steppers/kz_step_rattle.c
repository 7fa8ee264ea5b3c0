/* kz_step_rattle.c -- RATTLE (Andersen, J. Comput. Phys. 52 (1983); Hairer, Lubich & Wanner,
 * GNI VII.1.4, (1.26)) for M q'' = f(t, q) + G(q)^T lambda, g(q) = 0, on consistent states
 * (g(q) = 0, G(q) v = 0): the macro-integrator of Calvo & Sanz-Serna's RATTLE-SHAKE (Sec. 4.3),
 *     v_{n+1/2} = v_n + h/2 M^-1 (f_n + G(q_n)^T Lx),   q_{n+1} = q_n + h v_{n+1/2},
 *     g(q_{n+1}) = 0   (the paper prints g'(X_{n+1}) = 0: a typo, the position constraint),
 *     v_{n+1} = v_{n+1/2} + h/2 M^-1 (f_{n+1} + G(q_{n+1})^T Lv),   G(q_{n+1}) v_{n+1} = 0.
 * Second order, symmetric (the step with -h undoes the step with h) and symplectic; its
 * positions are those of SHAKE. One evaluation per step (fsal), one position solve (Newton) and
 * one velocity solve (linear). The multipliers (Lx, Lv) go to con->lambda. */
#include "kz_con.h"
#include <string.h>

/* work: q1, vh, ut, a1, lam (nq each), G0, G1 (nq x nq each), the solve's own work */
static size_t rattle_work(int dim)
{
  const int nq = dim / 2;
  return 6 * (size_t)nq + 2 * (size_t)nq * (size_t)nq + kz_con_work(nq);
}

static int rattle_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                        double *f_out, double *work, kz_report *r)
{
  const kz_constraints *C = s->con;
  const int nq = s->nq, m = C->m;
  double *q1 = work, *vh = q1 + nq, *ut = vh + nq, *a1 = ut + nq, *lx = a1 + nq, *lv = lx + nq;
  double *G0 = lv + nq, *G1 = G0 + (size_t)nq * nq, *cw = G1 + (size_t)nq * nq;
  const double *q = y, *v = y + nq;
  const double *a = f_in ? f_in + nq : a1;
  if (!f_in) KZ_TRY(kz_eval_accel(s, t, q, a1, r));
  int st = kz_con_jacobian(C, q, G0, r);
  if (st == KZ_OK) {
    for (int i = 0; i < nq; i++) ut[i] = q[i] + h * (v[i] + 0.5 * h * a[i]); /* q~ */
    st = kz_con_position(C, nq, ut, G0, 0.5 * h * h, q1, G1, lx, cw, r);
  }
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "newton", -1, t + h);
  kz_con_force(C, nq, G0, lx, ut);
  for (int i = 0; i < nq; i++) vh[i] = v[i] + 0.5 * h * (a[i] + ut[i]);
  double *an = f_out ? f_out + nq : a1;
  KZ_TRY(kz_eval_accel(s, t + h, q1, an, r));
  for (int i = 0; i < nq; i++) ut[i] = vh[i] + 0.5 * h * an[i];
  st = kz_con_velocity(C, nq, G1, ut, G1, 0.5 * h, vh, lv, cw, r); /* vh <- v_{n+1} */
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "G", -1, t + h);
  memcpy(y, q1, sizeof(double) * (size_t)nq);
  memcpy(y + nq, vh, sizeof(double) * (size_t)nq);
  if (f_out) memcpy(f_out, vh, sizeof(double) * (size_t)nq);
  if (C->lambda)
    for (int j = 0; j < m; j++) C->lambda[j] = lx[j], C->lambda[m + j] = lv[j];
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_rattle_type = {
  "rattle", "RATTLE (Andersen 1983; Hairer, Lubich & Wanner, GNI VII.1; Calvo & Sanz-Serna "
  "Sec. 4.3)", 2, 1, KZ_NEEDS_ACCEL | KZ_NEEDS_CONSTRAINTS, 1, 1, rattle_work, rattle_apply, NULL,
};
const kz_step_type *const kz_step_rattle = &kz_step_rattle_type;
