/* kz_hmm.c -- heterogeneous multiscale methods for vibrated systems
 * M. P. Calvo & J. M. Sanz-Serna, "Heterogeneous multiscale methods for mechanical systems with
 * vibrations", SIAM J. Sci. Comput. 32 (2010):
 *  - Algorithm 1 (synchronous, after Sharp, Tsai & Engquist): micro data (2.10), symmetric
 *    window t_n - eta/2 <= t <= t_n + eta/2, kernel average (2.11);
 *  - Algorithm 2 (asynchronous): micro data (2.14) p = 0, q = Q_n, theta = 0, average (2.15);
 *    for forces even in theta only 0 <= t <= eta/2 is integrated (Sec. 2.3);
 *  - simple filtering (2.16): eta = 2 pi / omega with the uniform kernel;
 *  - macro step: Verlet/leap-frog (step 3), one-step form of Sec. 2.5 in kz_hmm_step.
 * The micro-integrator is velocity Verlet (kz_verlet_step); the kernel integral is the
 * trapezoidal rule on the micro grid with weights normalised to unit mass (kz_kernel_weights). */
#include "kz_internal.h"
#include <stdlib.h>
#include <string.h>

/* The vibrated system in micro time tau, theta = theta_s + omega tau. */
typedef struct micro_sys {
  const kz_vib2 *m;
  double theta_s;
} micro_sys;

static int micro_accel(void *par, double tau, const double *q, double *a)
{
  const micro_sys *ms = par;
  return ms->m->force(ms->m->par, ms->theta_s + ms->m->omega * tau, q, a);
}

static int check_params(const kz_vib2 *m, const kz_hmm_params *p, long long *nmicro,
                        kz_report *r)
{
  if (!m || !m->force) return kz_bad(r, KZ_ENULL, "model");
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (m->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  KZ_TRY(kz_check_num(r, m->omega, "omega", 1));
  KZ_TRY(kz_check_num(r, m->theta0, "theta0", 0));
  if (p->variant != KZ_HMM_SYNCHRONOUS && p->variant != KZ_HMM_ASYNCHRONOUS)
    return kz_bad(r, KZ_EDOMAIN, "variant");
  if (p->kernel < 0 || p->kernel >= KZ_KERNEL_END) return kz_bad(r, KZ_EDOMAIN, "kernel");
  KZ_TRY(kz_check_num(r, p->eta, "eta", 1));
  KZ_TRY(kz_check_num(r, p->h, "h", 1));
  if (p->eta < p->h) return kz_bad(r, KZ_EDOMAIN, "eta");
  if (p->half_window) {
    if (p->variant != KZ_HMM_ASYNCHRONOUS) return kz_bad(r, KZ_EMODEL, "half_window");
    if (!m->even_in_theta) return kz_bad(r, KZ_EMODEL, "half_window");
  }
  long long n = kz_ratio_int(0.5 * p->eta, p->h);
  if (n < 1) return kz_bad(r, KZ_EGRID, "eta");
  *nmicro = n;
  return KZ_OK;
}

/* Integrate n Verlet steps of size h (sign included) from (q, v), adding w[j] * f_j to F for
 * the nodes j = 1..n (node 0 is added by the caller). */
static int micro_leg(const kz_sys2 *s, long long n, double h, double *q, double *v, double *a,
                     double *work, const double *w, double *F, kz_report *r)
{
  const int d = s->dim;
  for (long long k = 0; k < n; k++) {
    KZ_TRY(kz_verlet_step(s, (double)k * h, h, q, v, a, work, r));
    for (int i = 0; i < d; i++) F[i] += w[k + 1] * a[i];
  }
  return KZ_OK;
}

/* The force estimate of step 2, with a scratch buffer of 8*dim doubles. */
static int force_estimate(const kz_vib2 *m, const kz_hmm_params *p, long long n, const double *wt,
                          double t, const double *Q, const double *Phat, double *F,
                          double *scratch, kz_report *r)
{
  const int d = m->dim;
  double *q = scratch, *v = scratch + d, *a = scratch + 2 * d, *work = scratch + 3 * d;
  double *q0 = scratch + 5 * d, *v0 = scratch + 6 * d;
  micro_sys ms = {m, 0.0};
  const int sync = p->variant == KZ_HMM_SYNCHRONOUS;
  if (sync) {
    ms.theta_s = m->omega * t + m->theta0; /* (2.10) */
    for (int i = 0; i < d; i++) v0[i] = Phat ? Phat[i] : 0.0;
    if (p->lift) {
      KZ_TRY(p->lift(p->lift_par, ms.theta_s, Q, work));
      for (int i = 0; i < d; i++) v0[i] += work[i];
    }
  } else {
    for (int i = 0; i < d; i++) v0[i] = 0.0; /* (2.14) */
  }
  memcpy(q0, Q, sizeof(double) * d);
  kz_sys2 s = {d, micro_accel, &ms};
  int st = micro_accel(&ms, 0.0, q0, a);
  if (r) r->force_evals++;
  if (st != KZ_OK) return kz_fail(r, st, "force", -1, t);
  const int half = p->half_window != 0;
  /* the weights are stored j = lo..n; the centre node is wt[centre] */
  const long long centre = half ? 0 : n;
  for (int i = 0; i < d; i++) F[i] = wt[centre] * a[i];
  /* forward leg: nodes 1..n */
  memcpy(q, q0, sizeof(double) * d);
  memcpy(v, v0, sizeof(double) * d);
  double *a_keep = scratch + 7 * d; /* a at the centre, for the backward leg */
  memcpy(a_keep, a, sizeof(double) * d);
  KZ_TRY(micro_leg(&s, n, p->h, q, v, a, work, wt + centre, F, r));
  if (!half) { /* backward leg: nodes -1..-n, weights are symmetric */
    memcpy(q, q0, sizeof(double) * d);
    memcpy(v, v0, sizeof(double) * d);
    memcpy(a, a_keep, sizeof(double) * d);
    KZ_TRY(micro_leg(&s, n, -p->h, q, v, a, work, wt + centre, F, r));
  }
  for (int i = 0; i < d; i++)
    if (!isfinite(F[i])) return kz_fail(r, KZ_EDIVERGED, "F", -1, t);
  return KZ_OK;
}

/* Weights and scratch for a run; freed by the caller with free(ws). */
static int setup(const kz_vib2 *m, const kz_hmm_params *p, long long n, double **ws,
                 kz_report *r)
{
  const int half = p->half_window != 0;
  size_t nw = (size_t)(half ? n + 1 : 2 * n + 1);
  double *buf = malloc(sizeof(double) * (nw + 12 * (size_t)m->dim));
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  int st = kz_kernel_weights(p->kernel, n, half, buf, r);
  if (st != KZ_OK) { free(buf); return st; }
  *ws = buf;
  return KZ_OK;
}

int kz_hmm_force(const kz_vib2 *m, const kz_hmm_params *p, double t, const double *Q,
                 const double *Phat, double *F, kz_report *r)
{
  long long n;
  KZ_TRY(check_params(m, p, &n, r));
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(kz_check_vec(r, Q, m->dim, "Q"));
  if (!F) return kz_bad(r, KZ_ENULL, "F");
  if (Phat) KZ_TRY(kz_check_vec(r, Phat, m->dim, "Phat"));
  double *ws;
  KZ_TRY(setup(m, p, n, &ws, r));
  size_t nw = (size_t)(p->half_window ? n + 1 : 2 * n + 1);
  int st = force_estimate(m, p, n, ws, t, Q, Phat, F, ws + nw, r);
  free(ws);
  return st;
}

int kz_hmm_run(const kz_vib2 *m, const kz_hmm_params *p, const double *Q0, const double *P0,
               double *Q_out, double *P_out, long long nout, kz_report *r)
{
  long long n;
  KZ_TRY(check_params(m, p, &n, r));
  KZ_TRY(kz_check_num(r, p->H, "H", 1));
  KZ_TRY(kz_check_num(r, p->T, "T", 1));
  if (p->T < p->H) return kz_bad(r, KZ_EDOMAIN, "T");
  const long long N = kz_steps_in(p->T, p->H);
  if (N < 1) return kz_bad(r, KZ_EGRID, "T");
  KZ_TRY(kz_check_vec(r, Q0, m->dim, "Q0"));
  KZ_TRY(kz_check_vec(r, P0, m->dim, "P0"));
  if (!Q_out) return kz_bad(r, KZ_ENULL, "Q_out");
  if (nout < N + 1) return kz_bad(r, KZ_EBUFFER, "Q_out");
  const int d = m->dim;
  const double H = p->H;
  double *ws;
  KZ_TRY(setup(m, p, n, &ws, r));
  size_t nw = (size_t)(p->half_window ? n + 1 : 2 * n + 1);
  double *scratch = ws + nw, *F = scratch + 8 * d, *Ph = F + d, *Phat = Ph + d;
  memcpy(Q_out, Q0, sizeof(double) * d);
  memcpy(Phat, P0, sizeof(double) * d);
  int st = KZ_OK;
  for (long long k = 0; k < N; k++) {
    const double t = (double)k * H;
    const double *Q = Q_out + k * d;
    st = force_estimate(m, p, n, ws, t, Q, Phat, F, scratch, r);
    if (st != KZ_OK) {
      if (r) r->fail_step = k, r->fail_time = t;
      break;
    }
    for (int i = 0; i < d; i++) {
      /* P_{k+1/2} = P_{k-1/2} + H F_k, with P_{1/2} = P_0 + H/2 F_0 */
      Ph[i] = (k == 0) ? P0[i] + 0.5 * H * F[i] : Ph[i] + H * F[i];
      Q_out[(k + 1) * d + i] = Q[i] + H * Ph[i];
      Phat[i] = Ph[i] + 0.5 * H * F[i]; /* step 4: Phat_{k+1} */
      if (P_out) P_out[k * d + i] = Ph[i];
    }
    if (r) r->macro_steps++;
  }
  free(ws);
  return st;
}

int kz_hmm_step(const kz_vib2 *m, const kz_hmm_params *p, double *Q, double *P, kz_report *r)
{
  long long n;
  KZ_TRY(check_params(m, p, &n, r));
  if (p->variant != KZ_HMM_ASYNCHRONOUS) return kz_bad(r, KZ_EMODEL, "variant");
  KZ_TRY(kz_check_num(r, p->H, "H", 0));
  if (p->H == 0) return kz_bad(r, KZ_EDOMAIN, "H");
  KZ_TRY(kz_check_vec(r, Q, m->dim, "Q"));
  KZ_TRY(kz_check_vec(r, P, m->dim, "P"));
  const int d = m->dim;
  const double H = p->H;
  double *ws;
  KZ_TRY(setup(m, p, n, &ws, r));
  size_t nw = (size_t)(p->half_window ? n + 1 : 2 * n + 1);
  double *scratch = ws + nw, *F = scratch + 8 * d, *Qn = F + d, *Pn = Qn + d;
  int st = force_estimate(m, p, n, ws, 0.0, Q, NULL, F, scratch, r);
  if (st == KZ_OK) {
    for (int i = 0; i < d; i++) {
      Pn[i] = P[i] + 0.5 * H * F[i];
      Qn[i] = Q[i] + H * Pn[i];
    }
    st = force_estimate(m, p, n, ws, 0.0, Qn, NULL, F, scratch, r);
  }
  if (st == KZ_OK) {
    for (int i = 0; i < d; i++) {
      Q[i] = Qn[i];
      P[i] = Pn[i] + 0.5 * H * F[i];
    }
    if (r) r->macro_steps++;
  }
  free(ws);
  return st;
}
