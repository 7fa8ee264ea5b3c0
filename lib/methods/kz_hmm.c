/* kz_hmm.c -- force estimation of the heterogeneous multiscale method for systems with a fast
 * periodic forcing, y' = f(theta, y), theta = omega t + theta0:
 *  - reconstruction of the micro state from the macro state (Q, P) by the model (identity; the
 *    velocity lift (2.7) of Calvo & Sanz-Serna; the omega-reconstruction (3.4) of Sharp, Tsai &
 *    Engquist), or p = 0 as in Calvo & Sanz-Serna's Algorithm 2 (2.14);
 *  - micro-integration with any registry stepper from the window centre t_n, forward to
 *    t_n + eta/2 and backward to t_n - eta/2 (Sharp et al. Fig. 2.1 bottom, notes A4); for forces
 *    even in theta with micro data (2.14) the backward half mirrors the forward one and only
 *    0 <= s <= eta/2 is integrated (Calvo & Sanz-Serna Sec. 2.3);
 *  - the fast phase at the window centre computed exactly, 2 pi frac(t_n omega / 2 pi), naively
 *    in floating point (once at t_n, or at every node from the absolute time t_n + s), or reset
 *    to zero (Algorithm 2);
 *  - the kernel average (Calvo & Sanz-Serna (2.11), (2.15); Sharp et al. (3.4); Fredbo (18)) of the
 *    micro force v' (the macro force F~), of the micro velocity (F~_(1)) or of any observable of
 *    the micro solution (the seam of the slow-variable HMM: grad xi . f, Fredbo Alg. 3), by the
 *    trapezoidal rule on the micro grid with the weights of kz_kernel_weights.
 * For constrained systems (kz_hmm_open_con, Calvo & Sanz-Serna Sec. 4) the micro system carries
 * the constraints and the micro stepper's fused leg averages the total (active plus constraint)
 * force on the half window. The macro schemes that use these estimates are in kz_hmm_macro.c. */
#include "kz_hmm_ctx.h"
#include <stdlib.h>
#include <string.h>

/* The micro system in local time s: the model at the phase theta_s + omega s. */
static int micro_rhs(void *par, double s, const double *y, double *f)
{
  const kz_hmm_ctx *x = par;
  return x->m->rhs(x->m->par, x->theta_s + x->m->omega * s, y, f);
}

static int micro_accel(void *par, double s, const double *q, double *a)
{
  const kz_hmm_ctx *x = par;
  return x->m->accel(x->m->par, x->theta_s + x->m->omega * s, q, a);
}

/* KZ_PHASE_TIME: the phase of the absolute time t_n + s */
static int micro_rhs_time(void *par, double s, const double *y, double *f)
{
  const kz_hmm_ctx *x = par;
  return x->m->rhs(x->m->par, x->m->omega * (x->t_n + s) + x->m->theta0, y, f);
}

static int micro_accel_time(void *par, double s, const double *q, double *a)
{
  const kz_hmm_ctx *x = par;
  return x->m->accel(x->m->par, x->m->omega * (x->t_n + s) + x->m->theta0, q, a);
}

static int check_model(const kz_vib *m, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (m->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (m->nq < 0 || (m->nq > 0 && 2 * m->nq != m->dim)) return kz_bad(r, KZ_EDOMAIN, "nq");
  if (!m->rhs && !(m->accel && m->nq > 0)) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(kz_check_num(r, m->omega, "omega", 0));
  if (m->omega < 0) return kz_bad(r, KZ_EDOMAIN, "omega");
  KZ_TRY(kz_check_num(r, m->theta0, "theta0", 0));
  return KZ_OK;
}

int kz_hmm_open(kz_hmm_ctx *x, const kz_vib *m, const kz_hmm_params *p, int nobs, kz_report *r)
{
  return kz_hmm_open_con(x, m, NULL, NULL, p, nobs, r);
}

int kz_hmm_open_con(kz_hmm_ctx *x, const kz_vib *m, const kz_constraints *con,
                    kz_con_stats *micro, const kz_hmm_params *p, int nobs, kz_report *r)
{
  memset(x, 0, sizeof *x);
  KZ_TRY(check_model(m, r));
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (p->macro < 0 || p->macro >= KZ_HMM_DAE_MACRO_END) return kz_bad(r, KZ_EDOMAIN, "macro");
  /* the constrained schemes (enum kz_hmm_dae_macro) continue enum kz_hmm_macro */
  if ((p->macro >= KZ_HMM_MACRO_END) != (con != NULL)) return kz_bad(r, KZ_EMODEL, "macro");
  if (p->kernel < 0 || p->kernel >= KZ_KERNEL_END) return kz_bad(r, KZ_EDOMAIN, "kernel");
  if (p->phase < KZ_PHASE_EXACT || p->phase > KZ_PHASE_TIME) return kz_bad(r, KZ_EDOMAIN, "phase");
  if (p->recon < KZ_RECON_MODEL || p->recon > KZ_RECON_ZERO_V) return kz_bad(r, KZ_EDOMAIN, "recon");
  if (p->recon == KZ_RECON_ZERO_V && m->nq == 0) return kz_bad(r, KZ_EMODEL, "recon");
  KZ_TRY(kz_check_num(r, p->eta, "eta", 1));
  KZ_TRY(kz_check_num(r, p->h, "h", 1));
  if (p->eta < p->h) return kz_bad(r, KZ_EDOMAIN, "eta");
  if (p->half_window &&
      (p->phase != KZ_PHASE_ZERO || p->recon != KZ_RECON_ZERO_V || !m->even_in_theta))
    return kz_bad(r, KZ_EMODEL, "half_window");
  const long long n = kz_ratio_int(0.5 * p->eta, p->h);
  if (n < 1) return kz_bad(r, KZ_EGRID, "eta");
  x->m = m;
  x->p = p;
  x->T = p->micro;
  x->dim = m->dim;
  x->nq = m->nq;
  x->half = p->half_window != 0;
  x->n = n;
  x->sys.dim = m->dim;
  x->sys.nq = m->nq;
  const int abs_time = p->phase == KZ_PHASE_TIME;
  x->sys.rhs = m->rhs ? (abs_time ? micro_rhs_time : micro_rhs) : NULL;
  x->sys.accel = (m->accel && m->nq > 0) ? (abs_time ? micro_accel_time : micro_accel) : NULL;
  x->sys.par = x;
  if (!x->T) return kz_bad(r, KZ_ENULL, "micro");
  if (con) { /* the micro system: the same constraints, its own counters, no multiplier output */
    x->con = con;
    x->con_micro = *con;
    x->con_micro.lambda = NULL;
    x->con_micro.stats = micro ? micro : &x->micro_none;
    x->sys.con = &x->con_micro;
    KZ_TRY(kz_con_check(&x->sys, r));
    /* the kernel average of the total force needs the stepper's fused leg (kz_step_shake.c),
     * and the centre node of a symmetric window would need both legs' multipliers */
    if (!(x->T->needs & KZ_NEEDS_CONSTRAINTS) || !x->T->leg || nobs > 0) return kz_bad(r, KZ_EMODEL, "micro");
    if (!p->half_window) return kz_bad(r, KZ_EMODEL, "half_window");
  }
  if (kz_step_check(x->T, &x->sys, r) != KZ_OK) return kz_bad(r, KZ_EMODEL, "micro");
  const size_t d = (size_t)m->dim, nw = (size_t)(x->half ? n + 1 : 2 * n + 1);
  const size_t nwork = kz_step_work(x->T, m->dim);
  const size_t nob = nobs > 0 ? (size_t)nobs : 0;
  /* both legs at once (kz_hmm_window): one degree of freedom, the second-order form, no constraints */
  const int legs2 = !x->half && !con && kz_step_legs2(x->T) && !x->sys.rhs && x->sys.accel && m->nq == 1;
  const size_t nbt = legs2 ? 2 * (size_t)n : 0;
  x->buf = malloc(sizeof(double) * (nw + nwork + 11 * d + nob + nbt));
  if (!x->buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *b = x->buf;
  int st = kz_kernel_weights(p->kernel, n, x->half, p->kernel_constant, b, r);
  if (st != KZ_OK) {
    kz_hmm_close(x);
    return st;
  }
  x->w = b + (x->half ? 0 : n); /* the centre */
  b += nw;
  x->work = b, b += nwork;
  x->y0 = b, b += d;
  x->y = b, b += d;
  x->f0 = b, b += d;
  x->fa = b, b += d;
  x->fb = b, b += d;
  x->Y = b, b += d;
  x->F = b, b += d;
  x->Fv = b, b += d;
  x->F1 = b, b += d;
  x->Ph = b, b += d;
  x->Ysave = b, b += d;
  x->obs = b, b += nob;
  x->legs2 = legs2 ? kz_step_legs2(x->T) : NULL;
  x->bt = legs2 ? b : NULL;
  return KZ_OK;
}

void kz_hmm_close(kz_hmm_ctx *x)
{
  free(x->buf);
  free(x->cbuf);
  x->buf = x->cbuf = NULL;
}

void kz_hmm_set_phase(kz_hmm_ctx *x, long long n, double t)
{
  const kz_vib *m = x->m;
  x->t_n = t;
  switch (x->p->phase) {
  case KZ_PHASE_ZERO: x->theta_s = 0.0; break;
  case KZ_PHASE_NAIVE:
  case KZ_PHASE_TIME: x->theta_s = m->omega * t + m->theta0; break;
  default: { /* EXACT: whole periods dropped before any rounding can creep in */
    double c = n >= 0 ? (double)n * x->cycles_frac : t * m->omega / (2 * KZ_PI);
    x->theta_s = m->theta0 + 2 * KZ_PI * (c - floor(c));
  }
  }
}

KZ_VECTOR_CLONES int kz_hmm_window(kz_hmm_ctx *x, const double *y0, kz_observe_fn obs, void *obs_par, int lo,
                  int cnt, double *avg, kz_report *r)
{
  const int d = x->dim;
  const kz_step_type *T = x->T;
  const double *w = x->w;
  double *o = x->obs;
  int st = kz_eval(&x->sys, 0.0, y0, x->f0, r);
  if (st != KZ_OK) return st;
  if (obs) {
    if ((st = obs(obs_par, x->theta_s, y0, x->f0, o)) != KZ_OK) return kz_fail(r, st, "observable", -1, 0.0);
    for (int i = 0; i < cnt; i++) avg[i] = w[0] * o[i];
  } else {
    for (int i = 0; i < cnt; i++) avg[i] = w[0] * x->f0[lo + i];
  }
  const long long n = x->n;
  if (!obs && x->legs2 && cnt >= 1 && lo + cnt <= 2) {
    /* both legs at once (two independent chains), then the backward terms in their order */
    const kz_report saved = r ? *r : (kz_report){0};
    for (int i = 0; i < d; i++) x->y[i] = y0[i], x->fa[i] = x->f0[i];
    if (x->legs2(&x->sys, x->p->h, n, x->y, x->fa, w, lo, cnt, avg, x->bt, r) == KZ_OK) {
      for (int i = 0; i < cnt; i++) {
        const int j = lo + i;
        double a = avg[i];
        for (long long k = 0; k < n; k++) a += x->bt[2 * k + j];
        avg[i] = a;
      }
      goto done;
    }
    /* a failed evaluation: the legs one after the other, from the same start, say where */
    if (r) *r = saved;
    for (int i = 0; i < cnt; i++) avg[i] = w[0] * x->f0[lo + i];
  }
  for (int leg = 0; leg < (x->half ? 1 : 2); leg++) {
    const double h = leg ? -x->p->h : x->p->h;
    double *f = x->fa, *g = x->fb;
    for (int i = 0; i < d; i++) {
      x->y[i] = y0[i];
      f[i] = x->f0[i];
    }
    if (!obs && T->leg) { /* the stepper's fused loop: the same arithmetic, no call per step */
      KZ_TRY(T->leg(&x->sys, 0.0, 0, h, n, x->y, f, w, lo, cnt, avg, x->work, r));
      continue;
    }
    for (long long k = 0; k < n; k++) {
      KZ_TRY(T->apply(&x->sys, (double)k * h, h, x->y, f, g, x->work, r));
      if (obs) {
        st = obs(obs_par, x->theta_s + x->m->omega * ((double)(k + 1) * h), x->y, g, o);
        if (st != KZ_OK) return kz_fail(r, st, "observable", -1, (double)(k + 1) * h);
        for (int i = 0; i < cnt; i++) avg[i] += w[k + 1] * o[i];
      } else {
        for (int i = 0; i < cnt; i++) avg[i] += w[k + 1] * g[lo + i];
      }
      double *tmp = f;
      f = g;
      g = tmp;
    }
  }
done:
  for (int i = 0; i < cnt; i++)
    if (!isfinite(avg[i])) return kz_fail(r, KZ_EDIVERGED, "F", -1, NAN);
  return KZ_OK;
}

int kz_hmm_estimate(kz_hmm_ctx *x, long long n, double t, const double *Q, const double *P,
                    double *F, double *Fv, kz_report *r)
{
  const int nq = x->nq;
  kz_hmm_set_phase(x, n, t);
  double *y0 = x->y0;
  memcpy(y0, Q, sizeof(double) * (size_t)nq);
  if (x->p->recon == KZ_RECON_ZERO_V) {
    for (int i = 0; i < nq; i++) y0[nq + i] = 0.0; /* (2.14) */
  } else if (x->p->recon == KZ_RECON_MODEL && x->m->reconstruct) {
    memcpy(x->Y, Q, sizeof(double) * (size_t)nq);
    memcpy(x->Y + nq, P, sizeof(double) * (size_t)nq);
    int st = x->m->reconstruct(x->m->par, x->theta_s, x->Y, y0);
    if (st != KZ_OK) return kz_fail(r, st, "reconstruct", -1, t);
  } else {
    memcpy(y0 + nq, P, sizeof(double) * (size_t)nq);
  }
  if (!Fv) return kz_hmm_window(x, y0, NULL, NULL, nq, nq, F, r);
  KZ_TRY(kz_hmm_window(x, y0, NULL, NULL, 0, 2 * nq, x->F1, r));
  memcpy(Fv, x->F1, sizeof(double) * (size_t)nq);
  memcpy(F, x->F1 + nq, sizeof(double) * (size_t)nq);
  return KZ_OK;
}

int kz_hmm_force(const kz_vib *m, const kz_hmm_params *p, double t, const double *Y, double *F,
                 double *Fv, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(kz_hmm_open(&x, m, p, 0, r));
  int st = KZ_OK;
  if (x.nq < 1) st = kz_bad(r, KZ_EMODEL, "nq");
  else if (!isfinite(t)) st = kz_bad(r, KZ_ENONFINITE, "t");
  else if ((st = kz_check_vec(r, Y, m->dim, "Y")) != KZ_OK) {
  } else if (!F) st = kz_bad(r, KZ_ENULL, "F");
  else st = kz_hmm_estimate(&x, -1, t, Y, Y + x.nq, F, Fv, r);
  kz_hmm_close(&x);
  return st;
}

int kz_hmm_average(const kz_vib *m, const kz_hmm_params *p, double t, const double *y0,
                   kz_observe_fn obs, void *obs_par, int nobs, double *avg, kz_report *r)
{
  if (obs && nobs < 1) return kz_bad(r, KZ_EDOMAIN, "nobs");
  kz_hmm_ctx x;
  KZ_TRY(kz_hmm_open(&x, m, p, obs ? nobs : 0, r));
  int st = KZ_OK;
  if (!isfinite(t)) st = kz_bad(r, KZ_ENONFINITE, "t");
  else if ((st = kz_check_vec(r, y0, m->dim, "y0")) != KZ_OK) {
  } else if (!avg) st = kz_bad(r, KZ_ENULL, "avg");
  else {
    kz_hmm_set_phase(&x, -1, t);
    st = kz_hmm_window(&x, y0, obs, obs_par, 0, obs ? nobs : m->dim, avg, r);
  }
  kz_hmm_close(&x);
  return st;
}
