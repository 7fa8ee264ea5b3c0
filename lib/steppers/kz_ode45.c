/* kz_ode45.c -- variable steps with the controller of MATLAB's ode45 (Shampine & Reichelt, "The
 * MATLAB ODE suite", 1997) on the Dormand-Prince 5(4) pair of the registry (kz_step_dp5.c): mixed
 * error test with the max norm of the error estimate scaled by max(|y|, |y_new|, atol/rtol),
 * first failure h *= max(0.1, 0.8 (rtol/err)^(1/5)), later failures h /= 2, growth by
 * 1/max(0.2, 1.25 (err/rtol)^(1/5)) after a step without failure, hmax = 0.1 |tfinal - t0|, the
 * initial step from |f0|, the last step stretched by up to 10 %, and outputs by the continuous
 * extension ntrp45 (notes seed-003 Sec. 6.7). The macro-solver "ode45" of Calvo, Chartier, Murua
 * & Sanz-Serna, Sec. 5.2. An attempt whose stage evaluation fails, or whose ynew or f(ynew) is
 * not finite, is rejected and the step halved; KZ_ENOCONV once the step is down to
 * hmin = 16 ulp(t) (or DBL_MIN at t = 0). FSAL: the 7th stage of an accepted step is the first
 * of the next. */
#include "kz_internal.h"
#include <float.h>
#include <stdlib.h>
#include <string.h>

static int check_args(const kz_sys *s, const kz_ode45_params *p, double t0, const double *y0,
                      long long nout, const double *tout, double *yout, kz_report *r)
{
  KZ_TRY(kz_step_check(kz_step_dp5, s, r));
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  KZ_TRY(kz_check_num(r, t0, "t0", 0));
  KZ_TRY(kz_check_vec(r, y0, s->dim, "y0"));
  if (nout < 1) return kz_bad(r, KZ_EDOMAIN, "nout");
  KZ_TRY(kz_check_vec(r, tout, nout, "tout"));
  if (!yout) return kz_bad(r, KZ_ENULL, "yout");
  for (long long k = 0; k < nout; k++)
    if (!(tout[k] > (k ? tout[k - 1] : t0))) return kz_bad(r, KZ_EDOMAIN, "tout");
  KZ_TRY(kz_check_num(r, p->rtol, "rtol", 1));
  KZ_TRY(kz_check_num(r, p->atol, "atol", 1));
  if (!isfinite(p->h) || p->h < 0) return kz_bad(r, KZ_EDOMAIN, "h");
  if (!isfinite(p->hmax) || p->hmax < 0) return kz_bad(r, KZ_EDOMAIN, "hmax");
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

int kz_ode45_run(const kz_sys *s, const kz_ode45_params *p, double t0, const double *y0,
                 long long nout, const double *tout, double *yout, double *hist_t,
                 double *hist_h, long long hist_cap, long long *nhist, kz_report *r)
{
  KZ_TRY(check_args(s, p, t0, y0, nout, tout, yout, r));
  const int n = s->dim;
  double *buf = malloc(sizeof(double) * 11 * (size_t)n);
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *k[7];
  for (int j = 0; j < 7; j++) k[j] = buf + j * n;
  double *tmp = buf + 7 * n, *ynew = buf + 8 * n, *y = buf + 9 * n, *e = buf + 10 * n;
  memcpy(y, y0, sizeof(double) * (size_t)n);
  long long cnt = 0, next = 0;
  int st = kz_eval(s, t0, y, k[0], r);
  if (st != KZ_OK) { if (r) r->fail_step = 0; goto out; }

  const double tfinal = tout[nout - 1];
  const double rtol = p->rtol, thresh = p->atol / p->rtol, pw = 1.0 / 5;
  const double hmax = p->hmax > 0 ? p->hmax : 0.1 * fabs(tfinal - t0);
  double t = t0, absh;
  if (p->h > 0) {
    absh = fmin(hmax, p->h);
  } else {
    absh = fmin(hmax, tfinal - t0);
    double rh = 0;
    for (int i = 0; i < n; i++) rh = fmax(rh, fabs(k[0][i]) / fmax(fabs(y[i]), thresh));
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
      const char *why = NULL;
      double why_t = t;
      st = kz_dp5_attempt(s, t, h, y, k, tmp, ynew, &why, &why_t, r);
      err = 0;
      if (st == KZ_OK) {
        kz_dp5_error(n, k, e);
        for (int i = 0; st == KZ_OK && i < n; i++) {
          const double sc = fmax(fmax(fabs(y[i]), fabs(ynew[i])), thresh);
          if (!isfinite(e[i])) { st = KZ_EDIVERGED; why = "rhs"; why_t = t + h; }
          err = fmax(err, fabs(e[i]) / sc);
        }
      }
      if (st != KZ_OK) {
        /* a trial stage failed, or ynew or f(ynew) is not finite: the step was too large, so
         * reject it and halve it (ode45's rule after a failure); fail at the smallest step */
        if (r) r->rejected++;
        if (absh <= fmax(hmin, DBL_MIN)) {
          st = kz_fail(r, KZ_ENOCONV, why, step, t);
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
      if (tout[next] == tnew) memcpy(yout + next * n, ynew, sizeof(double) * (size_t)n);
      else kz_dp5_interp(n, y, k, h, (tout[next] - t) / h, yout + next * n);
      next++;
    }
    if (done) break;
    if (nofailed) {
      const double temp = 1.25 * pow(err / rtol, pw);
      absh = temp > 0.2 ? absh / temp : 5.0 * absh;
    }
    t = tnew;
    memcpy(y, ynew, sizeof(double) * (size_t)n);
    double *f = k[0]; k[0] = k[6]; k[6] = f;
  }
out:
  if (nhist) *nhist = cnt;
  free(buf);
  return st;
}
