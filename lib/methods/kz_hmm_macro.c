/* kz_hmm_macro.c -- the macro schemes of the HMM on the macro state Y = (Q, P), each force
 * estimate F~ from kz_hmm.c:
 *  - FE (Sharp, Tsai & Engquist, Alg. 3.1): Q_{n+1} = Q_n + H P_n (or H K*v, "F~_(1)"),
 *    P_{n+1} = P_n + H F~(Q_n, P_n; t_n);
 *  - IFE (Alg. 3.2, symplectic Euler): P_{n+1} = P_n + H F~(Q_n, P_n; t_n), Q_{n+1} = Q_n + H P_{n+1};
 *  - VERLET (Alg. 3.3, HMM-V): P_{n+1/2} = P_n + H/2 F~(Q_n, P_n; t_n), Q_{n+1} = Q_n + H P_{n+1/2},
 *    P_{n+1} = P_{n+1/2} + H/2 F~(Q_{n+1}, P_{n+1/2}; t_{n+1}) -- "twice the computational effort
 *    per macroscale step" (two estimates; notes A10: P_{n+1/2} in the second reconstruction);
 *    fsal reuses the end estimate as the next step's first. With the Algorithm 2 settings this
 *    is the symplectic, reversible one-step form of Calvo & Sanz-Serna, Sec. 2.5;
 *  - LEAPFROG (Calvo & Sanz-Serna, Algorithms 1-2, steps 3-4): P_{1/2} = P_0 + H/2 F_0,
 *    P_{n+1/2} = P_{n-1/2} + H F_n, Q_{n+1} = Q_n + H P_{n+1/2}, F_n estimated at Q_n with the
 *    velocity P~_n = P_{n-1/2} + H/2 F_{n-1} (step 4): one estimate per step, T/H in all;
 *  - VE (Fredbo, Algorithm 2, HMM-VE-*): P_{n+1/2} = P_n + H/2 F_n, Q_{n+1} = Q_n + H P_{n+1/2},
 *    F_{n+1} estimated at (Q_{n+1}, P^_{n+1}) with the predictor P^_{n+1} = P_n + H F_n (P^_0 =
 *    P_0), P_{n+1} = P_{n+1/2} + H/2 F_{n+1}; F_{n+1} is the next step's F_n (one
 *    microsimulation per step, T/H + 1 in a run);
 *  - SHAKE, RATTLE (Calvo & Sanz-Serna Sec. 4.2-4.3): the constrained schemes, in kz_hmm_dae.c.
 * The macro schemes are a small table; kz_hmm_params_init holds the presets of the papers. */
#include "kz_hmm_ctx.h"
#include <string.h>

/* One macro step from node k (time t) on Y in place (dim numbers). */
typedef int (*macro_step_fn)(kz_hmm_ctx *x, long long k, double t, double H, double *Y,
                             int *have_F, kz_report *r);

/* the node index of t + H, or -1 when the estimate is placed by time */
static long long next_node(long long k) { return k >= 0 ? k + 1 : -1; }

static int step_fe(kz_hmm_ctx *x, long long k, double t, double H, double *Y, int *have_F,
                   kz_report *r)
{
  (void)have_F;
  const int nq = x->nq, avg = x->p->fe_drift_average != 0;
  double *Q = Y, *P = Y + nq;
  KZ_TRY(kz_hmm_estimate(x, k, t, Q, P, x->F, avg ? x->Fv : NULL, r));
  for (int i = 0; i < nq; i++) {
    Q[i] += H * (avg ? x->Fv[i] : P[i]);
    P[i] += H * x->F[i];
  }
  return KZ_OK;
}

static int step_ife(kz_hmm_ctx *x, long long k, double t, double H, double *Y, int *have_F,
                    kz_report *r)
{
  (void)have_F;
  const int nq = x->nq;
  double *Q = Y, *P = Y + nq;
  KZ_TRY(kz_hmm_estimate(x, k, t, Q, P, x->F, NULL, r));
  for (int i = 0; i < nq; i++) {
    P[i] += H * x->F[i];
    Q[i] += H * P[i];
  }
  return KZ_OK;
}

static int step_verlet(kz_hmm_ctx *x, long long k, double t, double H, double *Y, int *have_F,
                       kz_report *r)
{
  const int nq = x->nq;
  double *Q = Y, *P = Y + nq, *Ph = x->Ph, *Q1 = x->Ph + nq;
  if (!*have_F) KZ_TRY(kz_hmm_estimate(x, k, t, Q, P, x->F, NULL, r));
  for (int i = 0; i < nq; i++) {
    Ph[i] = P[i] + 0.5 * H * x->F[i];
    Q1[i] = Q[i] + H * Ph[i];
  }
  KZ_TRY(kz_hmm_estimate(x, next_node(k), t + H, Q1, Ph, x->F1, NULL, r));
  for (int i = 0; i < nq; i++) {
    Q[i] = Q1[i];
    P[i] = Ph[i] + 0.5 * H * x->F1[i];
  }
  if (x->p->fsal) {
    memcpy(x->F, x->F1, sizeof(double) * (size_t)nq);
    *have_F = 1;
  }
  return KZ_OK;
}

/* Fredbo's VE: the Verlet step with the Euler predictor P_n + H F_n as the velocity of the end
 * estimate (its reconstruction (17)); x->Fv (unused by this scheme) holds the predictor. */
static int step_ve(kz_hmm_ctx *x, long long k, double t, double H, double *Y, int *have_F,
                   kz_report *r)
{
  const int nq = x->nq;
  double *Q = Y, *P = Y + nq, *Ph = x->Ph, *Q1 = x->Ph + nq, *Phat = x->Fv;
  if (!*have_F) KZ_TRY(kz_hmm_estimate(x, k, t, Q, P, x->F, NULL, r));
  for (int i = 0; i < nq; i++) {
    Ph[i] = P[i] + 0.5 * H * x->F[i];
    Q1[i] = Q[i] + H * Ph[i];
    Phat[i] = P[i] + H * x->F[i];
  }
  KZ_TRY(kz_hmm_estimate(x, next_node(k), t + H, Q1, Phat, x->F1, NULL, r));
  for (int i = 0; i < nq; i++) {
    Q[i] = Q1[i];
    P[i] = Ph[i] + 0.5 * H * x->F1[i];
  }
  memcpy(x->F, x->F1, sizeof(double) * (size_t)nq);
  *have_F = 1;
  return KZ_OK;
}


/* Calvo & Sanz-Serna steps 3-4 over N steps; rows k = 0..N of Y_out, P_n = P~_n. */
static int run_leapfrog(kz_hmm_ctx *x, long long N, double H, double *Y_out, kz_report *r)
{
  const int nq = x->nq, d = x->dim;
  double *Ph = x->Ph, *F = x->F;
  const double *P0 = Y_out + nq;
  for (long long k = 0; k < N; k++) {
    const double t = (double)k * H;
    const double *Q = Y_out + k * d, *Phat = Y_out + k * d + nq;
    int st = kz_hmm_estimate(x, k, t, Q, Phat, F, NULL, r);
    if (st != KZ_OK) return kz_fail(r, st, r ? r->param : "F", k, t);
    double *Y1 = Y_out + (k + 1) * d;
    for (int i = 0; i < nq; i++) {
      Ph[i] = (k == 0) ? P0[i] + 0.5 * H * F[i] : Ph[i] + H * F[i];
      Y1[i] = Q[i] + H * Ph[i];
      Y1[nq + i] = Ph[i] + 0.5 * H * F[i]; /* step 4: P~_{k+1} */
    }
    if (r) r->macro_steps++;
  }
  return KZ_OK;
}

/* The macro table: one-step schemes (step) and two-step recursions (run); the constrained
 * schemes of Calvo & Sanz-Serna Sec. 4 keep their own table in kz_hmm_dae.c. */
static const kz_hmm_scheme schemes[KZ_HMM_MACRO_END] = {
  [KZ_HMM_FE] = {step_fe, NULL},
  [KZ_HMM_IFE] = {step_ife, NULL},
  [KZ_HMM_VERLET] = {step_verlet, NULL},
  [KZ_HMM_LEAPFROG] = {NULL, run_leapfrog},
  [KZ_HMM_VE] = {step_ve, NULL},
};

static int check_H(double H, kz_report *r)
{
  KZ_TRY(kz_check_num(r, H, "H", 0));
  if (H == 0) return kz_bad(r, KZ_EDOMAIN, "H");
  return KZ_OK;
}

int kz_hmm_run_check(kz_hmm_ctx *x, const double *Y0, double *Y_out, long long nout,
                     long long *N, kz_report *r)
{
  const kz_hmm_params *p = x->p;
  *N = -1;
  if (x->nq < 1) return kz_bad(r, KZ_EMODEL, "nq");
  KZ_TRY(kz_check_num(r, p->H, "H", 1));
  KZ_TRY(kz_check_num(r, p->T, "T", 1));
  if (p->T < p->H) return kz_bad(r, KZ_EDOMAIN, "T");
  if ((*N = kz_steps_in(p->T, p->H)) < 1) return kz_bad(r, KZ_EGRID, "T");
  KZ_TRY(kz_check_vec(r, Y0, x->dim, "Y0"));
  if (!Y_out) return kz_bad(r, KZ_ENULL, "Y_out");
  if (nout < *N + 1) return kz_bad(r, KZ_EBUFFER, "Y_out");
  return KZ_OK;
}

int kz_hmm_drive(kz_hmm_ctx *x, const kz_hmm_scheme *sc, long long N, double *Y_out, kz_report *r)
{
  const kz_hmm_params *p = x->p;
  const kz_vib *m = x->m;
  /* EXACT phase on the macro grid: t_n omega / 2 pi = n c, c = H omega / 2 pi; whole periods
   * per step (to 1e-9) leave the phase at theta0, otherwise only frac(c) is carried */
  const double c = p->H * m->omega / (2 * KZ_PI), cw = nearbyint(c);
  x->cycles_frac = fabs(c - cw) <= 1e-9 * fmax(1.0, fabs(c)) ? 0.0 : c - cw;
  const int d = m->dim;
  const double H = p->H;
  if (sc->run) return sc->run(x, N, H, Y_out, r);
  int st = KZ_OK, have_F = 0;
  for (long long k = 0; k < N && st == KZ_OK; k++) {
    const double t = (double)k * H;
    double *Y1 = Y_out + (k + 1) * d;
    memcpy(Y1, Y_out + k * d, sizeof(double) * (size_t)d);
    st = sc->step(x, k, t, H, Y1, &have_F, r);
    if (st != KZ_OK) st = kz_fail(r, st, r ? r->param : "F", k, t);
    else {
      if (x->lam_out) memcpy(x->lam_out + k * 2 * x->con->m, x->lamv, sizeof(double) * 2 * (size_t)x->con->m);
      if (r) r->macro_steps++;
    }
  }
  return st;
}

int kz_hmm_run(const kz_vib *m, const kz_hmm_params *p, const double *Y0, double *Y_out,
               long long nout, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(kz_hmm_open(&x, m, p, 0, r));
  long long N;
  int st = kz_hmm_run_check(&x, Y0, Y_out, nout, &N, r);
  if (st == KZ_OK) {
    memcpy(Y_out, Y0, sizeof(double) * (size_t)m->dim);
    st = kz_hmm_drive(&x, &schemes[p->macro], N, Y_out, r);
  }
  kz_hmm_close(&x);
  return st;
}

int kz_hmm_step(const kz_vib *m, const kz_hmm_params *p, double t, double *Y, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(kz_hmm_open(&x, m, p, 0, r));
  int st = KZ_OK;
  if (x.nq < 1) st = kz_bad(r, KZ_EMODEL, "nq");
  else if (!schemes[p->macro].step) st = kz_bad(r, KZ_EMODEL, "macro");
  else if ((st = check_H(p->H, r)) != KZ_OK || (st = kz_check_num(r, t, "t", 0)) != KZ_OK) {
  } else if ((st = kz_check_vec(r, Y, m->dim, "Y")) != KZ_OK) {
  } else {
    const size_t d = (size_t)m->dim;
    memcpy(x.Ysave, Y, sizeof(double) * d);
    int have_F = 0;
    st = schemes[p->macro].step(&x, -1, t, p->H, Y, &have_F, r);
    if (st != KZ_OK) memcpy(Y, x.Ysave, sizeof(double) * d);
    else if (r) r->macro_steps++;
  }
  kz_hmm_close(&x);
  return st;
}

int kz_hmm_params_init(kz_hmm_params *p, int preset, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  memset(p, 0, sizeof *p);
  p->kernel = KZ_KERNEL_EXPONENTIAL;
  switch (preset) {
  case KZ_HMM_PRESET_CS1:
    p->macro = KZ_HMM_LEAPFROG, p->micro = kz_step_verlet;
    p->phase = KZ_PHASE_NAIVE, p->recon = KZ_RECON_MODEL;
    return KZ_OK;
  case KZ_HMM_PRESET_CS2:
    p->macro = KZ_HMM_LEAPFROG, p->micro = kz_step_verlet;
    p->phase = KZ_PHASE_ZERO, p->recon = KZ_RECON_ZERO_V, p->half_window = 1;
    return KZ_OK;
  case KZ_HMM_PRESET_STE:
    p->macro = KZ_HMM_VERLET, p->micro = kz_step_verlet;
    p->phase = KZ_PHASE_EXACT, p->recon = KZ_RECON_MODEL;
    return KZ_OK;
  case KZ_HMM_PRESET_SHAKE_SHAKE:
  case KZ_HMM_PRESET_RATTLE_SHAKE: /* Calvo & Sanz-Serna Sec. 4.2-4.3: simple filtering (2.16) */
    p->macro = preset == KZ_HMM_PRESET_SHAKE_SHAKE ? KZ_HMM_SHAKE : KZ_HMM_RATTLE;
    p->micro = kz_step_shake, p->kernel = KZ_KERNEL_UNIFORM;
    p->phase = KZ_PHASE_ZERO, p->recon = KZ_RECON_ZERO_V, p->half_window = 1, p->fsal = 1;
    return KZ_OK;
  default:
    return kz_bad(r, KZ_EDOMAIN, "preset");
  }
}
