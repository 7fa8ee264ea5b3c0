/* kz_hmm_dae.c -- the HMM for constrained mechanical systems of Calvo & Sanz-Serna, Sec. 4:
 * M x'' = f(x, theta; omega) + g'(x)^T lambda, g(x) = 0 (4.1)-(4.2), whose averaged motion obeys
 * M X'' = F(X) + g'(X)^T Lambda, g(X) = 0 (4.4)-(4.5). The force F_n is estimated by the general
 * HMM (kz_hmm.c) with the micro data (2.14) v = 0, x = X_n, theta = 0 and a constrained micro
 * stepper whose fused leg averages the TOTAL (active plus constraint) micro force (SHAKE,
 * kz_step_shake.c) with the simple filter (2.16) on the half window. The macro schemes:
 *  - SHAKE (Sec. 4.2):  M V_{n+1/2} = M V_{n-1/2} + H F_n + H g'(X_n)^T Lambda_n,
 *                       X_{n+1} = X_n + H V_{n+1/2},  g(X_{n+1}) = 0,
 *    started by M V_{1/2} = M V_0 + H/2 F_0 + H/2 g'(X_0)^T Lambda_0 (a two-step recursion: one
 *    estimate per step, N in all);
 *  - RATTLE (Sec. 4.3, with g(X_{n+1}) = 0 for the misprinted g'(X_{n+1}) = 0):
 *      M V_{n+1/2} = M V_n + H/2 F_n + H/2 g'(X_n)^T Lambda_{x,n},  X_{n+1} = X_n + H V_{n+1/2},
 *      g(X_{n+1}) = 0,  M V_{n+1} = M V_{n+1/2} + H/2 F_{n+1} + H/2 g'(X_{n+1})^T Lambda_{v,n},
 *      g'(X_{n+1}) V_{n+1} = 0  (a one-step map; F_{n+1} is the next step's F_n with fsal).
 * Forces are mass-normalised here (F stands for M^-1 F); the multipliers are those of the paper.
 * Both schemes are a small table of their own, handed to the driver of kz_hmm_macro.c. */
#include "kz_hmm_ctx.h"
#include "kz_con.h"
#include <stdlib.h>
#include <string.h>

/* cbuf: G0, G1 (nq x nq), lamv (2 nq), a, b, c (nq each), the solve's work */
static int dae_open(kz_hmm_ctx *x, const kz_vib *m, const kz_constraints *con,
                    kz_con_stats *micro, const kz_hmm_params *p, kz_report *r)
{
  if (!con) return kz_bad(r, KZ_ENULL, "con");
  KZ_TRY(kz_hmm_open_con(x, m, con, micro, p, 0, r));
  const size_t nq = (size_t)x->nq;
  x->cbuf = malloc(sizeof(double) * (2 * nq * nq + 5 * nq + kz_con_work(x->nq)));
  if (!x->cbuf) {
    kz_hmm_close(x);
    return kz_bad(r, KZ_ENOMEM, "work");
  }
  x->lamv = x->cbuf + 2 * nq * nq;
  return KZ_OK;
}

/* g(X) within the constraints' own tolerance: a consistent macro state */
static int check_consistent(kz_hmm_ctx *x, const double *X, kz_report *r)
{
  double *g = x->cbuf; /* scratch */
  const int st = x->con->g(x->con->par, X, g, NULL);
  if (st != KZ_OK) return kz_bad(r, st, "g");
  for (int j = 0; j < x->con->m; j++)
    if (!(fabs(g[j]) <= x->con->tol)) return kz_bad(r, KZ_EDOMAIN, "Y0");
  return KZ_OK;
}

static int run_shake(kz_hmm_ctx *x, long long N, double H, double *Y_out, kz_report *r)
{
  const kz_constraints *C = x->con;
  const int nq = x->nq, d = x->dim, m = C->m;
  double *G0 = x->cbuf, *G1 = G0 + (size_t)nq * nq, *lam = x->lamv, *Vh = lam + 2 * nq;
  double *Xt = Vh + nq, *fc = Xt + nq, *cw = fc + nq;
  memcpy(Vh, Y_out + nq, sizeof(double) * (size_t)nq); /* V_0 */
  for (long long k = 0; k < N; k++) {
    const double t = (double)k * H, c = k == 0 ? 0.5 * H : H;
    const double *X = Y_out + k * d;
    int st = kz_hmm_estimate(x, k, t, X, Vh, x->F, NULL, r);
    if (st == KZ_OK) st = kz_con_jacobian(C, X, G0, r);
    if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "F", k, t);
    for (int i = 0; i < nq; i++) Xt[i] = X[i] + H * (Vh[i] + c * x->F[i]);
    double *X1 = Y_out + (k + 1) * d;
    st = kz_con_position(C, nq, Xt, G0, H * c, X1, G1, lam, cw, r);
    if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "newton", k, t + H);
    kz_con_force(C, nq, G0, lam, fc);
    for (int i = 0; i < nq; i++) {
      Vh[i] += c * (x->F[i] + fc[i]);
      X1[nq + i] = Vh[i]; /* V_{k+1/2} */
    }
    if (x->lam_out)
      for (int j = 0; j < m; j++) x->lam_out[k * 2 * m + j] = lam[j], x->lam_out[k * 2 * m + m + j] = NAN;
    if (r) r->macro_steps++;
  }
  return KZ_OK;
}

static int step_rattle(kz_hmm_ctx *x, long long k, double t, double H, double *Y, int *have_F,
                       kz_report *r)
{
  const kz_constraints *C = x->con;
  const int nq = x->nq, m = C->m;
  double *G0 = x->cbuf, *G1 = G0 + (size_t)nq * nq, *lam = x->lamv, *X1 = lam + 2 * nq;
  double *Vh = X1 + nq, *Ut = Vh + nq, *cw = Ut + nq;
  const double *X = Y, *V = Y + nq;
  if (!*have_F) KZ_TRY(kz_hmm_estimate(x, k, t, X, V, x->F, NULL, r));
  KZ_TRY(kz_con_jacobian(C, X, G0, r));
  for (int i = 0; i < nq; i++) Ut[i] = X[i] + H * (V[i] + 0.5 * H * x->F[i]);
  int st = kz_con_position(C, nq, Ut, G0, 0.5 * H * H, X1, G1, lam, cw, r);
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "newton", -1, t + H);
  kz_con_force(C, nq, G0, lam, Ut);
  for (int i = 0; i < nq; i++) Vh[i] = V[i] + 0.5 * H * (x->F[i] + Ut[i]);
  KZ_TRY(kz_hmm_estimate(x, k >= 0 ? k + 1 : -1, t + H, X1, Vh, x->F1, NULL, r));
  for (int i = 0; i < nq; i++) Ut[i] = Vh[i] + 0.5 * H * x->F1[i];
  st = kz_con_velocity(C, nq, G1, Ut, G1, 0.5 * H, Vh, lam + m, cw, r);
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "G", -1, t + H);
  memcpy(Y, X1, sizeof(double) * (size_t)nq);
  memcpy(Y + nq, Vh, sizeof(double) * (size_t)nq);
  if (x->p->fsal) {
    memcpy(x->F, x->F1, sizeof(double) * (size_t)nq);
    *have_F = 1;
  }
  return KZ_OK;
}

/* The constrained macro table, indexed by kz_hmm_params.macro - KZ_HMM_SHAKE (kz_hmm_open_con
 * accepts only these values of macro with constraints). */
static const kz_hmm_scheme schemes[KZ_HMM_DAE_MACRO_END - KZ_HMM_SHAKE] = {
  [KZ_HMM_SHAKE - KZ_HMM_SHAKE] = {NULL, run_shake},
  [KZ_HMM_RATTLE - KZ_HMM_SHAKE] = {step_rattle, NULL},
};

int kz_hmm_dae_run(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                   const double *Y0, double *Y_out, double *lam_out, long long nout,
                   kz_con_stats *micro, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(dae_open(&x, m, con, micro, p, r));
  long long N;
  int st = kz_hmm_run_check(&x, Y0, Y_out, nout, &N, r);
  if (st == KZ_OK) st = check_consistent(&x, Y0, r);
  if (st == KZ_OK) {
    memcpy(Y_out, Y0, sizeof(double) * (size_t)m->dim);
    x.lam_out = lam_out;
    st = kz_hmm_drive(&x, &schemes[p->macro - KZ_HMM_SHAKE], N, Y_out, r);
  }
  kz_hmm_close(&x);
  return st;
}

int kz_hmm_dae_step(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p, double t,
                    double *Y, double *lam, kz_con_stats *micro, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(dae_open(&x, m, con, micro, p, r));
  int st = KZ_OK;
  const kz_hmm_scheme *sc = &schemes[p->macro - KZ_HMM_SHAKE];
  if (!sc->step) st = kz_bad(r, KZ_EMODEL, "macro");
  else if ((st = kz_check_num(r, p->H, "H", 0)) != KZ_OK || (st = kz_check_num(r, t, "t", 0)) != KZ_OK) {
  } else if (p->H == 0) st = kz_bad(r, KZ_EDOMAIN, "H");
  else if ((st = kz_check_vec(r, Y, m->dim, "Y")) != KZ_OK) {
  } else if ((st = check_consistent(&x, Y, r)) != KZ_OK) {
    if (r && r->param && strcmp(r->param, "Y0") == 0) r->param = "Y";
  } else {
    const size_t d = (size_t)m->dim;
    memcpy(x.Ysave, Y, sizeof(double) * d);
    int have_F = 0;
    st = sc->step(&x, -1, t, p->H, Y, &have_F, r);
    if (st != KZ_OK) memcpy(Y, x.Ysave, sizeof(double) * d);
    else {
      if (lam) memcpy(lam, x.lamv, sizeof(double) * 2 * (size_t)con->m);
      if (r) r->macro_steps++;
    }
  }
  kz_hmm_close(&x);
  return st;
}

int kz_hmm_dae_force(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                     double t, const double *Y, double *F, kz_con_stats *micro, kz_report *r)
{
  kz_hmm_ctx x;
  KZ_TRY(dae_open(&x, m, con, micro, p, r));
  int st = KZ_OK;
  if (!isfinite(t)) st = kz_bad(r, KZ_ENONFINITE, "t");
  else if ((st = kz_check_vec(r, Y, m->dim, "Y")) != KZ_OK) {
  } else if (!F) st = kz_bad(r, KZ_ENULL, "F");
  else st = kz_hmm_estimate(&x, -1, t, Y, Y + x.nq, F, NULL, r);
  kz_hmm_close(&x);
  return st;
}
