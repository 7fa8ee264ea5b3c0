/* kz_step_verlet.c -- velocity Verlet (Stormer-Verlet, kick-drift-kick) for q' = v, v' = a(t, q):
 *   q_{n+1} = q_n + h (v_n + h/2 a(t_n, q_n)),  v_{n+1} = v_n + h/2 (a(t_n, q_n) + a(t_{n+1}, q_{n+1})).
 * Hairer, Lubich & Wanner, GNI (I.1.17). Symmetric, symplectic, order 2; the force at the end of a
 * step is the next step's first (fsal), so n steps cost n + 1 evaluations. The micro- and
 * macro-integrator of Calvo & Sanz-Serna (Sec. 2.2) and the 'v' micro-solver of Sharp, Tsai &
 * Engquist (notes A5 and addendum 1: kick-drift-kick with the force at the grid points). The
 * fused leg (the HMM's kernel average along n steps) runs the same step in one loop. */
#include "kz_internal.h"

/* One step from (q, v) with a = a(t, q): an receives a(t + h, q_new); q and v are updated only
 * when the evaluation succeeds (qn: nq doubles of scratch). nq is a parameter so that the leg's
 * one-degree-of-freedom instance compiles to scalar code. */
static inline int kdk(const kz_sys *s, int nq, double t, double h, double *q, double *v,
                      const double *a, double *an, double *qn, kz_report *r)
{
  for (int i = 0; i < nq; i++) qn[i] = q[i] + h * (v[i] + 0.5 * h * a[i]);
  const int st = s->accel(s->par, t + h, qn, an); /* counted by the callers */
  if (st != KZ_OK) return kz_fail(r, st, "accel", -1, t + h);
  for (int i = 0; i < nq; i++) {
    v[i] += 0.5 * h * (a[i] + an[i]);
    q[i] = qn[i];
  }
  return KZ_OK;
}

static size_t verlet_work(int dim) { return 2 * (size_t)dim; }

KZ_VECTOR_CLONES static int verlet_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                        double *f_out, double *work, kz_report *r)
{
  const int nq = s->nq;
  double *qn = work, *a0 = work + nq, *an = f_out ? f_out + nq : work + 2 * nq;
  const double *a = a0;
  if (f_in) a = f_in + nq;
  else KZ_TRY(kz_eval_accel(s, t, y, a0, r));
  if (r) r->force_evals++;
  KZ_TRY(kdk(s, nq, t, h, y, y + nq, a, an, qn, r));
  if (f_out)
    for (int i = 0; i < nq; i++) f_out[i] = y[nq + i];
  if (r) r->micro_steps++;
  return KZ_OK;
}

KZ_VECTOR_CLONES static int verlet_leg(const kz_sys *s, double t, long long k0, double h, long long n, double *y,
                      double *f, const double *w, int lo, int cnt, double *acc, double *work,
                      kz_report *r)
{
  const int nq = s->nq;
  int st = KZ_OK;
  long long k = 0;
  if (nq == 1 && lo + cnt <= 2 && (cnt == 0 || w)) {
    /* one degree of freedom (the pendulums): q, v, a and the sums stay in registers */
    double *pv = cnt > 0 && lo == 0 ? acc : NULL, *pa = cnt > 0 && lo + cnt == 2 ? acc + cnt - 1 : NULL;
    double q = y[0], v = y[1], a = f[1], an, qn, sv = pv ? *pv : 0, sa = pa ? *pa : 0;
    for (; k < n; k++) {
      if ((st = kdk(s, 1, t + (double)(k0 + k) * h, h, &q, &v, &a, &an, &qn, r)) != KZ_OK) break;
      a = an;
      if (cnt > 0) {
        sv += w[k + 1] * v;
        sa += w[k + 1] * a;
      }
    }
    if (pv) *pv = sv;
    if (pa) *pa = sa;
    y[0] = q, y[1] = v, f[0] = v, f[1] = a;
  } else {
    double *q = y, *v = y + nq, *qn = work, *a = work + nq, *an = work + 2 * nq;
    for (int i = 0; i < nq; i++) a[i] = f[nq + i];
    for (; k < n; k++) {
      if ((st = kdk(s, nq, t + (double)(k0 + k) * h, h, q, v, a, an, qn, r)) != KZ_OK) break;
      double *tmp = a;
      a = an;
      an = tmp;
      /* f_{k+1} = (v, a): the weighted derivative without copying it */
      for (int i = 0; i < cnt; i++) {
        const int j = lo + i;
        acc[i] += w[k + 1] * (j < nq ? v[j] : a[j - nq]);
      }
    }
    for (int i = 0; i < nq; i++) f[i] = v[i], f[nq + i] = a[i];
  }
  if (r) {
    if (st != KZ_OK) r->fail_step = k;
    r->micro_steps += k;
    r->force_evals += k + (st != KZ_OK); /* the failed step's evaluation was made too */
  }
  return st;
}

/* The HMM window's two legs at once (kz_internal.h): one degree of freedom of the second-order
 * form, the forward leg (h) and the backward one (-h) from the same (y0, f0), each exactly as
 * verlet_leg with t = 0, k0 = 0; two independent chains in one loop, so that one's force
 * evaluation overlaps the other's. The forward terms w[k+1] f_{k+1} go into acc as they come,
 * the backward ones to bt[2k], bt[2k+1] (v, a); the caller adds those after, in the order of the
 * sequential legs. The end states are the backward leg's. */
KZ_VECTOR_CLONES int kz_verlet_legs2(const kz_sys *s, double h, long long n, double *y, double *f,
                                     const double *w, int lo, int cnt, double *acc, double *bt,
                                     kz_report *r)
{
  int st = KZ_OK;
  long long k = 0;
  double *pv = lo == 0 ? acc : NULL, *pa = lo + cnt == 2 ? acc + cnt - 1 : NULL;
  double qA = y[0], vA = y[1], aA = f[1], qB = qA, vB = vA, aB = aA, an, qn;
  double sv = pv ? *pv : 0, sa = pa ? *pa : 0;
  const double hB = -h;
  for (; k < n; k++) {
    if ((st = kdk(s, 1, 0.0 + (double)k * h, h, &qA, &vA, &aA, &an, &qn, r)) != KZ_OK) break;
    aA = an;
    if ((st = kdk(s, 1, 0.0 + (double)k * hB, hB, &qB, &vB, &aB, &an, &qn, r)) != KZ_OK) break;
    aB = an;
    sv += w[k + 1] * vA;
    sa += w[k + 1] * aA;
    bt[2 * k] = w[k + 1] * vB;
    bt[2 * k + 1] = w[k + 1] * aB;
  }
  if (pv) *pv = sv;
  if (pa) *pa = sa;
  y[0] = qB, y[1] = vB, f[0] = vB, f[1] = aB;
  if (r) {
    r->micro_steps += 2 * k;
    r->force_evals += 2 * k;
  }
  return st;
}

const kz_step_type kz_step_verlet_type = {
  "verlet", "velocity Verlet, kick-drift-kick (Hairer, Lubich & Wanner, GNI I.1.17)", 2, 1,
  KZ_NEEDS_ACCEL, 1, 1, verlet_work, verlet_apply, verlet_leg,
};
const kz_step_type *const kz_step_verlet = &kz_step_verlet_type;
