/* kz_step_shake.c -- SHAKE (Ryckaert, Ciccotti & Berendsen, J. Comput. Phys. 23 (1977); Hairer,
 * Lubich & Wanner, GNI VII.1.4) for M q'' = f(t, q) + G(q)^T lambda, g(q) = 0 (Calvo &
 * Sanz-Serna (4.1)-(4.2)), the micro- and macro-integrator of their Sec. 4.2. The paper's
 * position-velocity form
 *     M v_{k+1/2} = M v_{k-1/2} + h f_k + h G_k^T lambda_k,  x_{k+1} = x_k + h v_{k+1/2},
 *     g(x_{k+1}) = 0,  with  M v_{1/2} = M v_0 + h/2 f_0 + h/2 G_0^T lambda_0,
 * is written as a one-step map on (q_n, v_n): a half kick with the multiplier L, a drift, the
 * position solve g(q_{n+1}) = 0 for L, a half kick with f(t_{n+1}, q_{n+1}) alone. Chained, the
 * two half kicks around node k >= 1 are the full SHAKE kick with lambda_k = L_k / 2; the first
 * half kick is the starting formula with lambda_0 = L_0. f_out = (v_{n+1}, a(t_{n+1}, q_{n+1}))
 * is computed anyway, so a run of n steps costs n + 1 evaluations (fsal), n position solves.
 * The fused leg is the HMM's micro-integration (Sec. 4.2): along the steps it accumulates the
 * kernel quadrature of the TOTAL micro force a_k + M^-1 G_k^T lambda_k at the nodes k = 0..n,
 * the force at node n with one more position solve ("the constraint force at k = K from one
 * more constraint solve", notes on seed 000, addendum to Sec. 5, item 3). */
#include "kz_con.h"
#include <string.h>

/* work: q1, vh, a1 (nq each), G0, Gq (nq x nq each), lam (nq), the solve's own work */
static size_t shake_work(int dim)
{
  const int nq = dim / 2;
  return 4 * (size_t)nq + 2 * (size_t)nq * (size_t)nq + kz_con_work(nq);
}

/* Kick and drift from (t, q, v) with a = a(t, q), then the position solve: q1 = q_{n+1},
 * vh = v_{n+1/2}, G0 = G(q), lam = L. Time t + h is attached to a failure. */
static int kick_drift(const kz_sys *s, double t, double h, const double *q, const double *v,
                      const double *a, double *q1, double *vh, double *G0, double *lam,
                      double *cwork, kz_report *r) /* cwork: nq x nq + kz_con_work(nq) */
{
  const kz_constraints *C = s->con;
  const int nq = s->nq;
  int st = kz_con_jacobian(C, q, G0, r);
  if (st == KZ_OK) {
    for (int i = 0; i < nq; i++) vh[i] = q[i] + h * (v[i] + 0.5 * h * a[i]); /* q~ */
    double *Gq = cwork, *cw = cwork + (size_t)nq * (size_t)nq; /* G(q1): not needed here */
    st = kz_con_position(C, nq, vh, G0, 0.5 * h * h, q1, Gq, lam, cw, r);
  }
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "newton", -1, t + h);
  double *fc = cwork; /* M^-1 G0^T lam */
  kz_con_force(C, nq, G0, lam, fc);
  for (int i = 0; i < nq; i++) vh[i] = v[i] + 0.5 * h * (a[i] + fc[i]);
  return KZ_OK;
}

static int shake_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                       double *f_out, double *work, kz_report *r)
{
  const int nq = s->nq, m = s->con->m;
  double *q1 = work, *vh = q1 + nq, *a1 = vh + nq, *G0 = a1 + nq, *lam = G0 + (size_t)nq * nq;
  double *cwork = lam + nq;
  const double *a = f_in ? f_in + nq : NULL;
  if (!a) {
    KZ_TRY(kz_eval_accel(s, t, y, a1, r));
    a = a1; /* consumed by kick_drift before a1 is overwritten */
  }
  KZ_TRY(kick_drift(s, t, h, y, y + nq, a, q1, vh, G0, lam, cwork, r));
  double *an = f_out ? f_out + nq : a1;
  KZ_TRY(kz_eval_accel(s, t + h, q1, an, r));
  for (int i = 0; i < nq; i++) {
    y[i] = q1[i];
    y[nq + i] = vh[i] + 0.5 * h * an[i];
  }
  if (f_out)
    for (int i = 0; i < nq; i++) f_out[i] = y[nq + i];
  if (s->con->lambda)
    for (int j = 0; j < m; j++) s->con->lambda[j] = lam[j], s->con->lambda[m + j] = NAN;
  if (r) r->micro_steps++;
  return KZ_OK;
}

/* acc[i] += wk * (M^-1 G^T lam)[lo + i - nq] for the force components lo + i >= nq */
static void add_constraint_force(const kz_constraints *C, int nq, const double *G,
                                 const double *lam, double wk, int lo, int cnt, double *acc,
                                 double *fc)
{
  kz_con_force(C, nq, G, lam, fc);
  for (int i = 0; i < cnt; i++)
    if (lo + i >= nq) acc[i] += wk * fc[lo + i - nq];
}

static int shake_leg(const kz_sys *s, double t, long long k0, double h, long long n, double *y,
                     double *f, const double *w, int lo, int cnt, double *acc, double *work,
                     kz_report *r)
{
  const int nq = s->nq;
  const kz_constraints *C = s->con;
  double *q1 = work, *vh = q1 + nq, *a1 = vh + nq, *G0 = a1 + nq, *lam = G0 + (size_t)nq * nq;
  double *cwork = lam + nq;
  double *q = y, *v = y + nq, *a = f + nq;
  int st = KZ_OK;
  long long k = 0;
  for (; k < n; k++) {
    const double tk = t + (double)(k0 + k) * h;
    if ((st = kick_drift(s, tk, h, q, v, a, q1, vh, G0, lam, cwork, r)) != KZ_OK) break;
    if (cnt > 0) /* node k: lambda_0 = L_0 (starting formula), lambda_k = L_k / 2 */
      add_constraint_force(C, nq, G0, lam, (k == 0 ? 1.0 : 0.5) * w[k], lo, cnt, acc, cwork);
    if (r) r->force_evals++;
    if ((st = s->accel(s->par, tk + h, q1, a1)) != KZ_OK) {
      st = kz_fail(r, st, "accel", -1, tk + h);
      break;
    }
    for (int i = 0; i < nq; i++) {
      q[i] = q1[i];
      v[i] = vh[i] + 0.5 * h * a1[i];
      a[i] = a1[i];
    }
    for (int i = 0; i < cnt; i++) {
      const int j = lo + i;
      acc[i] += w[k + 1] * (j < nq ? v[j] : a[j - nq]);
    }
    if (C->lambda)
      for (int j = 0; j < C->m; j++) C->lambda[j] = lam[j], C->lambda[C->m + j] = NAN;
    if (r) r->micro_steps++;
  }
  if (st == KZ_OK && cnt > 0 && n > 0) {
    /* the constraint force at node n: one more position solve (not a step) */
    const double tn = t + (double)(k0 + n) * h;
    st = kick_drift(s, tn, h, q, v, a, q1, vh, G0, lam, cwork, r);
    if (st == KZ_OK) add_constraint_force(C, nq, G0, lam, 0.5 * w[n], lo, cnt, acc, cwork);
  }
  for (int i = 0; i < nq; i++) f[i] = v[i];
  if (st != KZ_OK && r) r->fail_step = k;
  return st;
}

const kz_step_type kz_step_shake_type = {
  "shake", "SHAKE, one-step position-velocity form (Ryckaert, Ciccotti & Berendsen 1977; "
  "Calvo & Sanz-Serna Sec. 4.2)", 2, 0, KZ_NEEDS_ACCEL | KZ_NEEDS_CONSTRAINTS, 1, 1, shake_work,
  shake_apply, shake_leg,
};
const kz_step_type *const kz_step_shake = &kz_step_shake_type;
