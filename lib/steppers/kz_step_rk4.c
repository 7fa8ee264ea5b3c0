/* kz_step_rk4.c -- the classical fourth-order Runge-Kutta method (Kutta 1901; Hairer, Norsett &
 * Wanner I, Table II.1.2) for y' = f(t, y): stages at t, t + h/2, t + h/2, t + h, weights
 * 1/6, 1/3, 1/3, 1/6. Micro- and macro-integrator of SAM (Calvo, Chartier, Murua & Sanz-Serna,
 * Sec. 5), the 'rk4' micro-solver of Sharp, Tsai & Engquist and Fredbo, and the reference
 * integrator of every averaged equation. The fused leg (the HMM's kernel average along n steps)
 * runs the same step, operation for operation, in one loop. */
#include "kz_internal.h"

static const double rk4_c[4] = {0.0, 0.5, 0.5, 1.0};
static const double rk4_b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};

static size_t rk4_work(int dim) { return 4 * (size_t)dim; }

KZ_VECTOR_CLONES static int rk4_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                     double *f_out, double *work, kz_report *r)
{
  const double *c = rk4_c, *b = rk4_b;
  const int n = s->dim;
  double *kbuf = work, *acc = work + n, *tmp = work + 2 * n, *ynew = work + 3 * n;
  for (int i = 0; i < n; i++) tmp[i] = y[i], acc[i] = 0;
  for (int stage = 0; stage < 4; stage++) {
    const double *k = kbuf;
    if (stage == 0 && f_in) k = f_in;
    else KZ_TRY(kz_eval(s, t + c[stage] * h, tmp, kbuf, r));
    for (int i = 0; i < n; i++) acc[i] += b[stage] * k[i];
    if (stage < 3)
      for (int i = 0; i < n; i++) tmp[i] = y[i] + c[stage + 1] * h * k[i];
  }
  for (int i = 0; i < n; i++) ynew[i] = y[i] + h * acc[i];
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  for (int i = 0; i < n; i++) y[i] = ynew[i];
  if (r) r->micro_steps++;
  return KZ_OK;
}

/* The force of the second-order form at one degree of freedom: k = (v, a(t, q)); counts the
 * evaluation and names a failure as kz_eval does. */
static inline int rk4_accel1(const kz_sys *s, double t, double q, double *a, long long *evals,
                             kz_report *r)
{
  ++*evals;
  const int st = s->accel(s->par, t, &q, a);
  return st == KZ_OK ? KZ_OK : kz_fail(r, st, "accel", -1, t);
}

/* One step of rk4_apply at one degree of freedom of the second-order form from (q, v) with
 * f = (fq, fv) = f(tk, y): the same operations, in registers; (q, v) and f advanced on success. */
static inline int rk4_step1(const kz_sys *s, double tk, double h, double *q_, double *v_,
                            double *fq_, double *fv_, long long *evals, kz_report *r)
{
  const double *c = rk4_c, *b = rk4_b;
  const double q = *q_, v = *v_, fq = *fq_, fv = *fv_;
  double aq = 0, av = 0, tq, tv, kq, kv, fn;
  aq += b[0] * fq, av += b[0] * fv;
  tq = q + c[1] * h * fq, tv = v + c[1] * h * fv;
  kq = tv;
  KZ_TRY(rk4_accel1(s, tk + c[1] * h, tq, &kv, evals, r));
  aq += b[1] * kq, av += b[1] * kv;
  tq = q + c[2] * h * kq, tv = v + c[2] * h * kv;
  kq = tv;
  KZ_TRY(rk4_accel1(s, tk + c[2] * h, tq, &kv, evals, r));
  aq += b[2] * kq, av += b[2] * kv;
  tq = q + c[3] * h * kq, tv = v + c[3] * h * kv;
  kq = tv;
  KZ_TRY(rk4_accel1(s, tk + c[3] * h, tq, &kv, evals, r));
  aq += b[3] * kq, av += b[3] * kv;
  const double qn = q + h * aq, vn = v + h * av;
  KZ_TRY(rk4_accel1(s, tk + h, qn, &fn, evals, r));
  *q_ = qn, *v_ = vn, *fq_ = vn, *fv_ = fn;
  return KZ_OK;
}

/* n steps of rk4_apply with f_in = f and f_out chained (f_out = f(t + h, y_new): the next
 * step's first stage), adding w[k+1] f_{k+1}[lo .. lo+cnt) to acc after step k. */
KZ_VECTOR_CLONES static int rk4_leg(const kz_sys *s, double t, long long k0, double h, long long n,
                                    double *y, double *f, const double *w, int lo, int cnt,
                                    double *acc, double *work, kz_report *r)
{
  const double *c = rk4_c, *b = rk4_b;
  int st = KZ_OK;
  long long k = 0, evals = 0;
  if (!s->rhs && s->nq == 1 && lo + cnt <= 2 && (cnt == 0 || w)) {
    /* one degree of freedom of the second-order form (the pendulums): y = (q, v), f = (v, a),
     * the stages and the sums in registers */
    double *pv = cnt > 0 && lo == 0 ? acc : NULL, *pa = cnt > 0 && lo + cnt == 2 ? acc + cnt - 1 : NULL;
    double q = y[0], v = y[1], fq = f[0], fv = f[1], sv = pv ? *pv : 0, sa = pa ? *pa : 0;
    for (; k < n; k++) {
      if ((st = rk4_step1(s, t + (double)(k0 + k) * h, h, &q, &v, &fq, &fv, &evals, r)) != KZ_OK) break;
      if (cnt > 0) {
        sv += w[k + 1] * fq;
        sa += w[k + 1] * fv;
      }
    }
    if (pv) *pv = sv;
    if (pa) *pa = sa;
    y[0] = q, y[1] = v, f[0] = fq, f[1] = fv;
  } else {
    /* any system: rk4_apply's loops (kz_eval counts the evaluations), f_out written over f
     * (only the first stage reads f) and y_new in tmp */
    const int d = s->dim;
    double *kbuf = work, *sum = work + d, *tmp = work + 2 * d;
    for (; k < n; k++) {
      const double tk = t + (double)(k0 + k) * h;
      for (int i = 0; i < d; i++) tmp[i] = y[i], sum[i] = 0;
      for (int stage = 0; stage < 4; stage++) {
        const double *ks = f;
        if (stage > 0) {
          if ((st = kz_eval(s, tk + c[stage] * h, tmp, kbuf, r)) != KZ_OK) break;
          ks = kbuf;
        }
        for (int i = 0; i < d; i++) sum[i] += b[stage] * ks[i];
        if (stage < 3)
          for (int i = 0; i < d; i++) tmp[i] = y[i] + c[stage + 1] * h * ks[i];
      }
      if (st != KZ_OK) break;
      for (int i = 0; i < d; i++) tmp[i] = y[i] + h * sum[i];
      if ((st = kz_eval(s, tk + h, tmp, f, r)) != KZ_OK) break;
      for (int i = 0; i < d; i++) y[i] = tmp[i];
      for (int i = 0; i < cnt; i++) acc[i] += w[k + 1] * f[lo + i];
    }
  }
  if (r) {
    if (st != KZ_OK) r->fail_step = k;
    r->micro_steps += k;
    r->force_evals += evals;
  }
  return st;
}

/* The HMM window's two legs at once (kz_internal.h; as kz_verlet_legs2): the forward leg (h)
 * and the backward one (-h) from the same (y0, f0), each exactly as rk4_leg with t = 0, k0 = 0,
 * two independent chains in one loop; the backward terms to bt. */
KZ_VECTOR_CLONES int kz_rk4_legs2(const kz_sys *s, double h, long long n, double *y, double *f,
                                  const double *w, int lo, int cnt, double *acc, double *bt,
                                  kz_report *r)
{
  int st = KZ_OK;
  long long k = 0, evals = 0;
  double *pv = lo == 0 ? acc : NULL, *pa = lo + cnt == 2 ? acc + cnt - 1 : NULL;
  double qA = y[0], vA = y[1], fqA = f[0], fvA = f[1], qB = qA, vB = vA, fqB = fqA, fvB = fvA;
  double sv = pv ? *pv : 0, sa = pa ? *pa : 0;
  const double hB = -h;
  for (; k < n; k++) {
    if ((st = rk4_step1(s, 0.0 + (double)k * h, h, &qA, &vA, &fqA, &fvA, &evals, r)) != KZ_OK) break;
    if ((st = rk4_step1(s, 0.0 + (double)k * hB, hB, &qB, &vB, &fqB, &fvB, &evals, r)) != KZ_OK) break;
    sv += w[k + 1] * fqA;
    sa += w[k + 1] * fvA;
    bt[2 * k] = w[k + 1] * fqB;
    bt[2 * k + 1] = w[k + 1] * fvB;
  }
  if (pv) *pv = sv;
  if (pa) *pa = sa;
  y[0] = qB, y[1] = vB, f[0] = fqB, f[1] = fvB;
  if (r) {
    r->micro_steps += 2 * k;
    r->force_evals += evals;
  }
  return st;
}

const kz_step_type kz_step_rk4_type = {
  "rk4", "classical Runge-Kutta (Kutta 1901; Hairer, Norsett & Wanner I, II.1)", 4, 0,
  KZ_NEEDS_RHS, 0, 4, rk4_work, rk4_apply, rk4_leg,
};
const kz_step_type *const kz_step_rk4 = &kz_step_rk4_type;
