/* kz_dopri.c -- the Dormand-Prince 5(4) embedded pair (Dormand & Prince 1980; Hairer, Norsett
 * & Wanner I, Table II.5.2), as a generic stepper for y' = f(t, y):
 *  - KZ_DOPRI_CONSTANT: the 5th-order solution with a constant step ("the underlying 5th order
 *    RK method implemented with constant step-size", Calvo, Chartier, Murua & Sanz-Serna, Sec. 5.2);
 *  - KZ_DOPRI_ODE45: variable steps with the controller of MATLAB's ode45 (Shampine & Reichelt,
 *    "The MATLAB ODE suite", 1997): mixed error test with the max norm of the error estimate
 *    scaled by max(|y|, |y_new|, atol/rtol), first failure h *= max(0.1, 0.8 (rtol/err)^(1/5)),
 *    later failures h /= 2, growth by 1/max(0.2, 1.25 (err/rtol)^(1/5)) after a step without
 *    failure, hmax = 0.1 |tfinal - t0|, the initial step from |f0|, the last step stretched by up
 *    to 10 %, and outputs by the continuous extension ntrp45 (notes seed-003 Sec. 6.7).
 *    An attempt whose stage evaluation fails, or whose ynew or f(ynew) is not finite, is
 *    rejected and the step halved; KZ_ENOCONV once the step is down to hmin = 16 ulp(t) (or
 *    DBL_MIN at t = 0). With constant steps such an attempt ends the run with its own status.
 * FSAL: the 7th stage of an accepted step is the first of the next. */
#include "kz_internal.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

static const double C2 = 1.0 / 5, C3 = 3.0 / 10, C4 = 4.0 / 5, C5 = 8.0 / 9;
static const double A21 = 1.0 / 5;
static const double A31 = 3.0 / 40, A32 = 9.0 / 40;
static const double A41 = 44.0 / 45, A42 = -56.0 / 15, A43 = 32.0 / 9;
static const double A51 = 19372.0 / 6561, A52 = -25360.0 / 2187, A53 = 64448.0 / 6561,
                    A54 = -212.0 / 729;
static const double A61 = 9017.0 / 3168, A62 = -355.0 / 33, A63 = 46732.0 / 5247,
                    A64 = 49.0 / 176, A65 = -5103.0 / 18656;
static const double B1 = 35.0 / 384, B3 = 500.0 / 1113, B4 = 125.0 / 192, B5 = -2187.0 / 6784,
                    B6 = 11.0 / 84;
/* E = b - bhat (5th minus 4th order weights) */
static const double E1 = 71.0 / 57600, E3 = -71.0 / 16695, E4 = 71.0 / 1920,
                    E5 = -17253.0 / 339200, E6 = 22.0 / 525, E7 = -1.0 / 40;
/* ntrp45: y(t + s h) = y + h sum_j k_j (BI[j] . (s, s^2, s^3, s^4)) */
static const double BI[7][4] = {
  {1.0, -183.0 / 64, 37.0 / 12, -145.0 / 128},
  {0, 0, 0, 0},
  {0, 1500.0 / 371, -1000.0 / 159, 1000.0 / 371},
  {0, -125.0 / 32, 125.0 / 12, -375.0 / 64},
  {0, 9477.0 / 3392, -729.0 / 106, 25515.0 / 6784},
  {0, -11.0 / 7, 11.0 / 3, -55.0 / 28},
  {0, 3.0 / 2, -4.0, 5.0 / 2},
};

typedef struct dp_ws {
  int n;
  double *k[7];
  double *tmp, *ynew;
} dp_ws;

/* Why an attempted step failed (the report is not written: in ODE45 mode a failed attempt is
 * only a rejected step, and a report's diagnostics are for calls that fail). */
typedef struct dp_why {
  const char *param; /* "rhs" (an evaluation returned an error) or "y" (non-finite ynew) */
  double t;          /* where */
} dp_why;

/* One attempted step from (t, y) with k[0] = f(t, y) given; fills k[1..6] and ynew
 * (k[6] = f(t + h, ynew)). Counts the evaluations done (6 unless a stage fails). */
static int dp_attempt(const kz_sys1 *s, dp_ws *w, double t, double h, const double *y,
                      dp_why *why, kz_report *r)
{
  const int n = w->n;
  double **k = w->k, *tmp = w->tmp;
  int st;
#define DP_STAGE(idx, cc, EXPR)                                                  \
  for (int i = 0; i < n; i++) tmp[i] = y[i] + h * (EXPR);                        \
  st = s->rhs(s->par, t + (cc) * h, tmp, k[idx]);                                \
  if (r) r->force_evals++;                                                       \
  if (st != KZ_OK) { why->param = "rhs"; why->t = t + (cc) * h; return st; }
  DP_STAGE(1, C2, A21 * k[0][i])
  DP_STAGE(2, C3, A31 * k[0][i] + A32 * k[1][i])
  DP_STAGE(3, C4, A41 * k[0][i] + A42 * k[1][i] + A43 * k[2][i])
  DP_STAGE(4, C5, A51 * k[0][i] + A52 * k[1][i] + A53 * k[2][i] + A54 * k[3][i])
  DP_STAGE(5, 1.0, A61 * k[0][i] + A62 * k[1][i] + A63 * k[2][i] + A64 * k[3][i] + A65 * k[4][i])
#undef DP_STAGE
  for (int i = 0; i < n; i++) {
    w->ynew[i] = y[i] + h * (B1 * k[0][i] + B3 * k[2][i] + B4 * k[3][i] + B5 * k[4][i] +
                             B6 * k[5][i]);
    if (!isfinite(w->ynew[i])) { why->param = "y"; why->t = t + h; return KZ_EDIVERGED; }
  }
  st = s->rhs(s->par, t + h, w->ynew, k[6]);
  if (r) r->force_evals++;
  if (st != KZ_OK) { why->param = "rhs"; why->t = t + h; return st; }
  return KZ_OK;
}

/* y(t + s h) by ntrp45 into out. */
static void dp_interp(const dp_ws *w, const double *y, double h, double s, double *out)
{
  const double p[4] = {s, s * s, s * s * s, s * s * s * s};
  for (int i = 0; i < w->n; i++) {
    double acc = 0;
    for (int j = 0; j < 7; j++) {
      if (j == 1) continue;
      acc += w->k[j][i] * (BI[j][0] * p[0] + BI[j][1] * p[1] + BI[j][2] * p[2] + BI[j][3] * p[3]);
    }
    out[i] = y[i] + h * acc;
  }
}

static int check_args(const kz_sys1 *s, const kz_dopri_params *p, double t0, const double *y0,
                      long long nout, const double *tout, double *yout, kz_report *r)
{
  if (!s || !s->rhs) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (p->mode != KZ_DOPRI_CONSTANT && p->mode != KZ_DOPRI_ODE45) return kz_bad(r, KZ_EDOMAIN, "mode");
  KZ_TRY(kz_check_num(r, t0, "t0", 0));
  KZ_TRY(kz_check_vec(r, y0, s->dim, "y0"));
  if (nout < 1) return kz_bad(r, KZ_EDOMAIN, "nout");
  KZ_TRY(kz_check_vec(r, tout, (int)(nout < 1000000000 ? nout : 1000000000), "tout"));
  if (!yout) return kz_bad(r, KZ_ENULL, "yout");
  for (long long k = 0; k < nout; k++)
    if (!(tout[k] > (k ? tout[k - 1] : t0))) return kz_bad(r, KZ_EDOMAIN, "tout");
  if (p->mode == KZ_DOPRI_CONSTANT) {
    KZ_TRY(kz_check_num(r, p->h, "h", 1));
    for (long long k = 0; k < nout; k++)
      if (kz_ratio_int(tout[k] - t0, p->h) < 1) return kz_bad(r, KZ_EGRID, "tout");
  } else {
    KZ_TRY(kz_check_num(r, p->rtol, "rtol", 1));
    KZ_TRY(kz_check_num(r, p->atol, "atol", 1));
    if (!isfinite(p->h) || p->h < 0) return kz_bad(r, KZ_EDOMAIN, "h");
    if (!isfinite(p->hmax) || p->hmax < 0) return kz_bad(r, KZ_EDOMAIN, "hmax");
  }
  return KZ_OK;
}

static int record(double *hist_t, double *hist_h, long long cap, long long *cnt, double t,
                  double h, kz_report *r)
{
  if (hist_t || hist_h) {
    if (*cnt >= cap) return kz_fail(r, KZ_EBUFFER, "hist_cap", *cnt, t);
    if (hist_t) hist_t[*cnt] = t;
    if (hist_h) hist_h[*cnt] = h;
  }
  (*cnt)++;
  return KZ_OK;
}

int kz_dopri_run(const kz_sys1 *s, const kz_dopri_params *p, double t0, const double *y0,
                 long long nout, const double *tout, double *yout, double *hist_t,
                 double *hist_h, long long hist_cap, long long *nhist, kz_report *r)
{
  KZ_TRY(check_args(s, p, t0, y0, nout, tout, yout, r));
  const int n = s->dim;
  double *buf = malloc(sizeof(double) * 10 * (size_t)n);
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  dp_ws w;
  w.n = n;
  for (int j = 0; j < 7; j++) w.k[j] = buf + j * n;
  w.tmp = buf + 7 * n;
  w.ynew = buf + 8 * n;
  double *y = buf + 9 * n;
  memcpy(y, y0, sizeof(double) * (size_t)n);
  long long cnt = 0, next = 0;
  int st = s->rhs(s->par, t0, y, w.k[0]);
  if (r) r->force_evals++;
  if (st != KZ_OK) { st = kz_fail(r, st, "rhs", 0, t0); goto out; }

  if (p->mode == KZ_DOPRI_CONSTANT) {
    const long long nsteps = kz_ratio_int(tout[nout - 1] - t0, p->h);
    for (long long k = 0; k < nsteps; k++) {
      const double t = t0 + (double)k * p->h;
      dp_why why;
      st = dp_attempt(s, &w, t, p->h, y, &why, r);
      if (st != KZ_OK) { st = kz_fail(r, st, why.param, k, why.t); goto out; }
      st = record(hist_t, hist_h, hist_cap, &cnt, t, p->h, r);
      if (st != KZ_OK) { if (r) r->fail_step = k; goto out; }
      memcpy(y, w.ynew, sizeof(double) * (size_t)n);
      double *f = w.k[0]; w.k[0] = w.k[6]; w.k[6] = f; /* FSAL */
      if (r) r->macro_steps++;
      while (next < nout && kz_ratio_int(tout[next] - t0, p->h) == k + 1) {
        memcpy(yout + next * n, y, sizeof(double) * (size_t)n);
        next++;
      }
    }
    goto out;
  }

  /* ode45 */
  const double tfinal = tout[nout - 1];
  const double rtol = p->rtol, thresh = p->atol / p->rtol, pw = 1.0 / 5;
  const double hmax = p->hmax > 0 ? p->hmax : 0.1 * fabs(tfinal - t0);
  double t = t0, absh;
  if (p->h > 0) {
    absh = fmin(hmax, p->h);
  } else {
    absh = fmin(hmax, tfinal - t0);
    double rh = 0;
    for (int i = 0; i < n; i++) rh = fmax(rh, fabs(w.k[0][i]) / fmax(fabs(y[i]), thresh));
    rh /= 0.8 * pow(rtol, pw);
    if (absh * rh > 1) absh = 1 / rh;
  }
  const long long maxsteps = 10000000;
  for (long long step = 0;; step++) {
    if (step >= maxsteps) { st = kz_fail(r, KZ_ENOCONV, "steps", step, t); goto out; }
    const double hmin = 16 * 2.220446049250313e-16 * fabs(t);
    absh = fmin(hmax, fmax(hmin, absh));
    double h = absh;
    int done = 0, nofailed = 1;
    if (1.1 * absh >= fabs(tfinal - t)) { h = tfinal - t; absh = fabs(h); done = 1; }
    double err;
    for (;;) {
      dp_why why;
      st = dp_attempt(s, &w, t, h, y, &why, r);
      err = 0;
      for (int i = 0; st == KZ_OK && i < n; i++) {
        const double e = E1 * w.k[0][i] + E3 * w.k[2][i] + E4 * w.k[3][i] + E5 * w.k[4][i] +
                         E6 * w.k[5][i] + E7 * w.k[6][i];
        const double sc = fmax(fmax(fabs(y[i]), fabs(w.ynew[i])), thresh);
        if (!isfinite(e)) { st = KZ_EDIVERGED; why.param = "rhs"; why.t = t + h; }
        err = fmax(err, fabs(e) / sc);
      }
      if (st != KZ_OK) {
        /* a trial stage failed, or ynew or f(ynew) is not finite: the step was too large, so
         * reject it and halve it (ode45's rule after a failure); fail at the smallest step */
        if (r) r->rejected++;
        if (absh <= fmax(hmin, DBL_MIN)) {
          st = kz_fail(r, KZ_ENOCONV, why.param, step, t);
          goto out;
        }
        nofailed = 0;
        absh = fmax(hmin, 0.5 * absh);
        h = absh;
        done = 0;
        continue;
      }
      err *= absh;
      if (err <= rtol) break;
      if (r) r->rejected++;
      if (absh <= hmin) { st = kz_fail(r, KZ_ENOCONV, "rtol", step, t); goto out; }
      if (nofailed) {
        nofailed = 0;
        absh = fmax(hmin, absh * fmax(0.1, 0.8 * pow(rtol / err, pw)));
      } else {
        absh = fmax(hmin, 0.5 * absh);
      }
      h = absh;
      done = 0;
    }
    const double tnew = done ? tfinal : t + h;
    st = record(hist_t, hist_h, hist_cap, &cnt, t, h, r);
    if (st != KZ_OK) goto out;
    if (r) r->macro_steps++;
    while (next < nout && tout[next] <= tnew) {
      if (tout[next] == tnew) memcpy(yout + next * n, w.ynew, sizeof(double) * (size_t)n);
      else dp_interp(&w, y, h, (tout[next] - t) / h, yout + next * n);
      next++;
    }
    if (done) break;
    if (nofailed) {
      const double temp = 1.25 * pow(err / rtol, pw);
      absh = temp > 0.2 ? absh / temp : 5.0 * absh;
    }
    t = tnew;
    memcpy(y, w.ynew, sizeof(double) * (size_t)n);
    double *f = w.k[0]; w.k[0] = w.k[6]; w.k[6] = f;
  }
out:
  if (nhist) *nhist = cnt;
  free(buf);
  return st;
}
