/* kz_sam.c -- stroboscopic averaging (SAM) and Kirchgraber's LISP.
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011), Sec. 3.2 and 4.1.
 *
 * The averaged system Y' = F(Y) (21) is integrated by a macro-solver; whenever it asks for
 * F(Y*), F is recovered from micro-integrations of the oscillatory system that ALWAYS start at
 * the stroboscopic origin t0 (whatever the macro time), one period T forward and/or backward:
 *   (25)  F~ = [Psi(Y*) - Psi^-1(Y*)] / (2T)                       (central, O(T^2))
 *   (26)  F~ = [-Psi^2 + 8 Psi - 8 Psi^-1 + Psi^-2](Y*) / (12T)    (5-point, O(T^4))
 *   (29)  F~ = [-3/2 Y* + 1/2 Psi(Y*) + Psi(3/2 Y* - 1/2 Psi(Y*))] / T   (LISP, O(T^2))
 *   forward (Sec. 4.2)  F~ = [Psi(Y*) - Y*] / T                      (O(T))
 * with T = 2 pi eps in t. The field F~ is exposed to the macro-solver as an ordinary kz_sys,
 * so any registry stepper (RK4, DP5, ...) with a constant step, or the ode45 controller, drives
 * it. The micro-solver is any registry stepper the oscillatory system supports (RK4 on the full
 * field, Strang on its split form, HERK3 on a constrained system, ...). The period maps
 * Psi^{+-1} and the difference formulas (kz_sam_field) are shared with SAM for index-2 DAEs
 * (kz_sam_dae.c, Sec. 6), whose macro-solver keeps its own multipliers. Work = micro-steps,
 * counted exactly (2n per F~ for (25) and (29)). */
#include "kz_sam_ctx.h"
#include <stdlib.h>
#include <string.h>

int kz_sam_check_micro(const kz_micro *m, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "micro");
  if (!m->type) return kz_bad(r, KZ_ENULL, "micro.type");
  if (!m->sys) return kz_bad(r, KZ_ENULL, "micro.sys");
  const int st = kz_step_check(m->type, m->sys, r);
  /* the system lacks what the stepper needs (e.g. Strang without sub-flows) */
  return st == KZ_EMODEL ? kz_bad(r, st, "micro.type") : st;
}

int kz_micro_run(const kz_micro *m, double t, double h, long long n, double *y, kz_report *r)
{
  KZ_TRY(kz_sam_check_micro(m, r));
  return kz_run(m->type, m->sys, t, h, n, y, r);
}

/* ---------- the recovered field ---------- */

/* out = Psi^k(Y): |k| periods from t0, forward (k > 0) or backward (k < 0). */
static int psi(kz_sam_ctx *x, int k, const double *Y, double *out)
{
  const double h = (k > 0 ? 1.0 : -1.0) * x->p->period / (double)x->p->n;
  memcpy(out, Y, sizeof(double) * (size_t)x->d);
  return kz_steps(x->m->type, x->m->sys, x->p->t0, h, (long long)abs(k) * x->p->n, out, x->work, &x->rep);
}

int kz_sam_field(kz_sam_ctx *x, const double *Y, double *F)
{
  const int d = x->d;
  const double T = x->p->period;
  double *a = x->a, *b = x->b, *c = x->c, *e = x->e;
  switch (x->p->diff) {
  case KZ_SAM_CENTRAL2:
    KZ_TRY(psi(x, 1, Y, a));
    KZ_TRY(psi(x, -1, Y, b));
    for (int i = 0; i < d; i++) F[i] = (a[i] - b[i]) / (2 * T);
    return KZ_OK;
  case KZ_SAM_CENTRAL4: {
    /* Psi^{+-1} are the mid-points of the two-period runs */
    const double h = T / (double)x->p->n;
    const long long n = x->p->n;
    memcpy(a, Y, sizeof(double) * (size_t)d);
    KZ_TRY(kz_steps(x->m->type, x->m->sys, x->p->t0, h, n, a, x->work, &x->rep));
    memcpy(c, a, sizeof(double) * (size_t)d);
    KZ_TRY(kz_steps(x->m->type, x->m->sys, x->p->t0 + T, h, n, c, x->work, &x->rep));
    memcpy(b, Y, sizeof(double) * (size_t)d);
    KZ_TRY(kz_steps(x->m->type, x->m->sys, x->p->t0, -h, n, b, x->work, &x->rep));
    memcpy(e, b, sizeof(double) * (size_t)d);
    KZ_TRY(kz_steps(x->m->type, x->m->sys, x->p->t0 - T, -h, n, e, x->work, &x->rep));
    for (int i = 0; i < d; i++) F[i] = (-c[i] + 8 * a[i] - 8 * b[i] + e[i]) / (12 * T);
    return KZ_OK;
  }
  case KZ_SAM_LISP2:
    KZ_TRY(psi(x, 1, Y, a));
    for (int i = 0; i < d; i++) b[i] = 1.5 * Y[i] - 0.5 * a[i];
    KZ_TRY(psi(x, 1, b, c));
    for (int i = 0; i < d; i++) F[i] = (-1.5 * Y[i] + 0.5 * a[i] + c[i]) / T;
    return KZ_OK;
  case KZ_SAM_FORWARD:
    KZ_TRY(psi(x, 1, Y, a));
    for (int i = 0; i < d; i++) F[i] = (a[i] - Y[i]) / T;
    return KZ_OK;
  default:
    return kz_bad(&x->rep, KZ_EDOMAIN, "diff");
  }
}

int kz_sam_rhs(void *par, double t, const double *Y, double *F)
{
  (void)t; /* the averaged system is autonomous (Sec. 2) */
  kz_sam_ctx *x = par;
  /* ode45 retries a step whose stage failed, so only the last evaluation's failure counts */
  x->rep.param = NULL;
  return kz_sam_field(x, Y, F);
}

int kz_sam_check_params(const kz_sam_params *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  KZ_TRY(kz_check_num(r, p->period, "period", 1));
  KZ_TRY(kz_check_num(r, p->t0, "t0", 0));
  if (p->n < 1 || p->n > 1000000000LL) return kz_bad(r, KZ_EDOMAIN, "n");
  if (p->diff < KZ_SAM_CENTRAL2 || p->diff > KZ_SAM_FORWARD) return kz_bad(r, KZ_EDOMAIN, "diff");
  return KZ_OK;
}

int kz_sam_ctx_open(kz_sam_ctx *x, const kz_micro *m, const kz_sam_params *p, kz_report *r)
{
  memset(x, 0, sizeof *x);
  x->m = m;
  x->p = p;
  x->d = m->sys->dim;
  kz_report_init(&x->rep);
  const size_t d = (size_t)x->d, nw = kz_steps_work(m->type, x->d);
  x->work = malloc(sizeof(double) * (nw + 4 * d));
  if (!x->work) return kz_bad(r, KZ_ENOMEM, "work");
  x->a = x->work + nw;
  x->b = x->a + d;
  x->c = x->b + d;
  x->e = x->c + d;
  return KZ_OK;
}

int kz_sam_ctx_close(kz_sam_ctx *x, int st, const kz_report *mrep, long long macro, kz_report *r)
{
  if (r) {
    r->micro_steps += x->rep.micro_steps;
    r->force_evals += x->rep.force_evals;
    r->newton_iters += x->rep.newton_iters;
    r->jac_evals += x->rep.jac_evals;
    r->macro_steps += macro;
    if (mrep) r->rejected += mrep->rejected;
  }
  free(x->work);
  if (st == KZ_OK) return KZ_OK;
  const char *param = x->rep.param ? x->rep.param : (mrep && mrep->param ? mrep->param : "micro");
  return kz_fail(r, st, param, mrep ? mrep->fail_step : -1, mrep ? mrep->fail_time : NAN);
}

int kz_sam_force(const kz_micro *m, const kz_sam_params *p, const double *Y, double *F,
                 kz_report *r)
{
  KZ_TRY(kz_sam_check_micro(m, r));
  KZ_TRY(kz_sam_check_params(p, r));
  KZ_TRY(kz_check_vec(r, Y, m->sys->dim, "Y"));
  if (!F) return kz_bad(r, KZ_ENULL, "F");
  kz_sam_ctx x;
  KZ_TRY(kz_sam_ctx_open(&x, m, p, r));
  int st = kz_sam_field(&x, Y, F);
  return kz_sam_ctx_close(&x, st, NULL, 0, r);
}

int kz_sam_run(const kz_micro *m, const kz_sam_params *p, const kz_macro *mac, const double *y0,
               long long nout, const double *tout, double *yout, double *hist_t,
               double *hist_h, long long hist_cap, long long *nhist, kz_report *r)
{
  KZ_TRY(kz_sam_check_micro(m, r));
  KZ_TRY(kz_sam_check_params(p, r));
  if (!mac) return kz_bad(r, KZ_ENULL, "macro");
  if (mac->kind != KZ_MACRO_FIXED && mac->kind != KZ_MACRO_ODE45) return kz_bad(r, KZ_EDOMAIN, "macro.kind");
  const int d = m->sys->dim;
  KZ_TRY(kz_check_vec(r, y0, d, "y0"));
  if (nout < 1) return kz_bad(r, KZ_EDOMAIN, "nout");
  if (!tout) return kz_bad(r, KZ_ENULL, "tout");
  if (!yout) return kz_bad(r, KZ_ENULL, "yout");
  for (long long k = 0; k < nout; k++) {
    if (!isfinite(tout[k])) return kz_bad(r, KZ_ENONFINITE, "tout");
    if (!(tout[k] > (k ? tout[k - 1] : p->t0))) return kz_bad(r, KZ_EDOMAIN, "tout");
  }
  kz_sam_ctx x;
  kz_sys field = {0};
  field.dim = d;
  field.rhs = kz_sam_rhs;
  field.par = &x;
  if (mac->kind == KZ_MACRO_FIXED) {
    if (!mac->type) return kz_bad(r, KZ_ENULL, "macro.type");
    if (kz_step_check(mac->type, &field, NULL) != KZ_OK) return kz_bad(r, KZ_EMODEL, "macro.type");
    KZ_TRY(kz_check_num(r, mac->H, "macro.H", 1));
    for (long long k = 0; k < nout; k++)
      if (kz_ratio_int(tout[k] - p->t0, mac->H) < 1) return kz_bad(r, KZ_EGRID, "tout");
  } else {
    KZ_TRY(kz_check_num(r, mac->rtol, "macro.rtol", 1));
    KZ_TRY(kz_check_num(r, mac->atol, "macro.atol", 1));
    if (!isfinite(mac->H) || mac->H < 0) return kz_bad(r, KZ_EDOMAIN, "macro.H");
    if (!isfinite(mac->hmax) || mac->hmax < 0) return kz_bad(r, KZ_EDOMAIN, "macro.hmax");
  }
  KZ_TRY(kz_sam_ctx_open(&x, m, p, r));
  kz_report mrep;
  kz_report_init(&mrep);
  int st = KZ_OK;
  long long macro = 0;
  if (mac->kind == KZ_MACRO_FIXED) {
    /* constant steps H of a registry stepper from t0, FSAL-chained when the stepper is */
    const kz_step_type *T = mac->type;
    const size_t nw = kz_step_work(T, d);
    double *buf = malloc(sizeof(double) * (nw + 3 * (size_t)d));
    if (!buf) { free(x.work); return kz_bad(r, KZ_ENOMEM, "work"); }
    double *y = buf + nw, *f = y + d, *g = f + d;
    memcpy(y, y0, sizeof(double) * (size_t)d);
    const long long nsteps = kz_ratio_int(tout[nout - 1] - p->t0, mac->H);
    if (T->fsal) st = kz_eval(&field, p->t0, y, f, &mrep);
    if (st != KZ_OK) mrep.fail_step = 0;
    long long next = 0;
    for (long long k = 0; k < nsteps && st == KZ_OK; k++) {
      const double t = p->t0 + (double)k * mac->H;
      if (hist_t || hist_h) {
        if (k >= hist_cap) { st = kz_fail(&mrep, KZ_EBUFFER, "hist_cap", k, t); break; }
        if (hist_t) hist_t[k] = t;
        if (hist_h) hist_h[k] = mac->H;
      }
      st = T->apply(&field, t, mac->H, y, T->fsal ? f : NULL, T->fsal ? g : NULL, buf, &mrep);
      if (st != KZ_OK) { mrep.fail_step = k; mrep.fail_time = t; break; }
      if (!kz_all_finite(y, d)) { st = kz_fail(&mrep, KZ_EDIVERGED, "y", k, t + mac->H); break; }
      if (T->fsal) { double *tmp = f; f = g; g = tmp; }
      macro++;
      while (next < nout && kz_ratio_int(tout[next] - p->t0, mac->H) == k + 1)
        memcpy(yout + d * next++, y, sizeof(double) * (size_t)d);
    }
    free(buf);
    if (nhist) *nhist = macro;
  } else {
    const kz_ode45_params op = {mac->H, mac->rtol, mac->atol, mac->hmax};
    st = kz_ode45_run(&field, &op, p->t0, y0, nout, tout, yout, hist_t, hist_h, hist_cap, nhist,
                      &mrep);
    macro = mrep.macro_steps;
  }
  return kz_sam_ctx_close(&x, st, &mrep, macro, r);
}
