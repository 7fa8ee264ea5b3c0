/* kz_vmi.c -- the variational multirate integrator of Ober-Bloebaum, Wenger, Gail & Leyendecker,
 * "Variational multirate integrators", Secs. 3-4.
 *
 * Discrete Lagrangian (3.2)-(3.3) on one macro interval [t_k, t_k + dT], p micro intervals
 * dt = dT/p: kinetic energy of the piecewise linear slow and fast curves (3.18)-(3.19); slow
 * positions at the micro nodes by linear interpolation q_k^{s,m} = q_k^s + (m/p)(q_{k+1}^s - q_k^s)
 * (3.18); V and W by the two-point family (4.8) (Table 1):
 *   Z_d = dt sum_m [ alpha Z(gamma q^m + (1-gamma) q^{m+1}) + (1-alpha) Z((1-gamma) q^m + gamma q^{m+1}) ].
 * gamma = 1/2 is the midpoint rule (Thm 3.3, (3.21)-(3.22)); gamma in {0,1} the alpha-weighted
 * trapezoid (3.32), (3.48) (Thms 3.4, 3.5); alpha = gamma = 1 the left rectangle rule of Sec. 6.
 * The step solves the position-momentum form: the initial-value conditions (3.11) with the
 * momenta of (3.6)-(3.9),
 *   p_k^s + D_{q_k^s} L_d = 0,  p_k^{f,0} + D_{q_k^{f,0}} L_d = 0,  D_{q_k^{f,m}} L_d = 0 (m=1..p-1),
 * for x = (q_k^{f,1..p}, q_{k+1}^s) by Newton's method with the analytic Jacobian (Hessians of V
 * and W), then p_{k+1}^s = D_{q_{k+1}^s} L_d, p_{k+1}^{f,0} = D_{q_k^{f,p}} L_d (momentum matching
 * (3.10)). Micro-node momenta p_k^{f,m} = -D_{q_k^{f,m}} L_d^m (3.8). The linear systems are solved
 * by kz_arrow_solve (kz_vmi_solve.c). The method is symplectic (Thm 3.1) and conserves the
 * momentum maps of symmetries of L_d (Thm 3.2); order 2 for midpoint or alpha = 1/2 in both
 * potentials, 1 otherwise (Lemma 4.5).
 *
 * Work counted in kz_report: force_evals = gradient evaluations, one of V per quadrature point of
 * V and one of W per quadrature point of W, per micro interval, per residual (so (n_V + n_W) p
 * (newton_iters + macro_steps), n = 1 for the midpoint rule and the rectangle rules, 2 for the
 * trapezoid with 0 < alpha < 1); jac_evals = Jacobian assemblies (one per Newton iteration), each
 * of which evaluates the Hessians of V and W at the same points ((n_V + n_W) p Hessian
 * evaluations, not counted in force_evals). The Verlet predictor (the default, predict_verlet)
 * adds its own gradients of V and W (one of each per node and march, 1 to 4 marches) to
 * force_evals; the drift predictor adds none. The Jacobian is the exact derivative of the residual
 * (agrees with central differences to round-off), so Newton converges quadratically;
 * tests/vmi_spec.lua checks the convergence order of the residuals. With a timing buffer the
 * parts of the work are timed separately (enum kz_vmi_timing: predictor, residual passes,
 * Jacobian passes, linear solves); scripts/bench-vmi-timing.lua reports them.
 */
#include "kz_internal.h"
#include <limits.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct qpt { double w, c; } qpt; /* quadrature point: weight, weight of the left node */

typedef struct ws {
  const kz_vmi_model *m;
  const kz_vmi_params *P;
  int ns, nf, p, n, nv, nw;
  double dt, dT, mdt;         /* steps; largest mass / step ratio (residual scale) */
  qpt qv[2], qw[2];
  double *msv, *mfv;          /* masses */
  double *x, *res, *rhs;      /* unknowns (F_1..F_p, Q), residual, Newton right-hand side */
  double *Gf, *Ga, *GQ, *Pm;  /* D_{f_m} L_d (m=0..p), D_a L_d, D_Q L_d, p^{f,m,-} (m=0..p-1) */
  double *argS, *argF, *gs, *gf, *hV, *hW;
  double *pv, *pW, *pS, *pQ;  /* predictor: fast momentum, W force (nf); slow force sum, Q0 (ns) */
  kz_arrow A;
  double *work;
  int *iwork;
  void *mem;
} ws;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int points(double alpha, double gamma, qpt *q)
{
  if (gamma == 0.5) { q[0].w = 1; q[0].c = 0.5; return 1; }
  int k = 0;
  if (alpha != 0) { q[k].w = alpha; q[k].c = gamma; k++; }
  if (alpha != 1) { q[k].w = 1 - alpha; q[k].c = 1 - gamma; k++; }
  return k;
}

static int check_args(const kz_vmi_model *m, const kz_vmi_params *P, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!P) return kz_bad(r, KZ_ENULL, "params");
  if (m->ns < 0 || m->nf < 0 || m->ns + m->nf < 1) return kz_bad(r, KZ_EDOMAIN, "model.ns");
  if (!m->V) return kz_bad(r, KZ_ENULL, "model.V");
  if (!m->ms) KZ_TRY(kz_check_num(r, m->mass_s, "model.mass_s", 1));
  if (!m->mf) KZ_TRY(kz_check_num(r, m->mass_f, "model.mass_f", 1));
  for (int i = 0; m->ms && i < m->ns; i++) KZ_TRY(kz_check_num(r, m->ms[i], "model.ms", 1));
  for (int i = 0; m->mf && i < m->nf; i++) KZ_TRY(kz_check_num(r, m->mf[i], "model.mf", 1));
  const double a[4] = { P->alpha_V, P->gamma_V, P->alpha_W, P->gamma_W };
  const char *nm[4] = { "alpha_V", "gamma_V", "alpha_W", "gamma_W" };
  for (int i = 0; i < 4; i++) {
    KZ_TRY(kz_check_num(r, a[i], nm[i], 0));
    if (a[i] < 0 || a[i] > 1) return kz_bad(r, KZ_EDOMAIN, nm[i]);
  }
  if (P->p < 1 || P->p > 1000000) return kz_bad(r, KZ_EDOMAIN, "p");
  KZ_TRY(kz_check_num(r, P->dT, "dT", 1));
  KZ_TRY(kz_check_num(r, P->tol, "tol", 1));
  if (P->max_iter < 1) return kz_bad(r, KZ_EDOMAIN, "max_iter");
  if (P->solver != KZ_VMI_STRUCTURED && P->solver != KZ_VMI_DENSE) return kz_bad(r, KZ_EDOMAIN, "solver");
  if (P->predictor != KZ_VMI_PREDICT_VERLET && P->predictor != KZ_VMI_PREDICT_DRIFT)
    return kz_bad(r, KZ_EDOMAIN, "predictor");
  return KZ_OK;
}

static int ws_init(ws *w, const kz_vmi_model *m, const kz_vmi_params *P, kz_report *r)
{
  memset(w, 0, sizeof *w);
  KZ_TRY(check_args(m, P, r));
  w->m = m; w->P = P;
  const int ns = m->ns, nf = m->nf, p = P->p, nh = ns + nf;
  long long nwork, niwork; /* also checks that p nf + ns fits an int (and the dense solver's cap) */
  KZ_TRY(kz_arrow_work_size(p, nf, ns, P->solver, &nwork, &niwork, r));
  w->ns = ns; w->nf = nf; w->p = p; w->n = p * nf + ns;
  w->dT = P->dT; w->dt = P->dT / p;
  w->nv = points(P->alpha_V, P->gamma_V, w->qv);
  w->nw = m->W ? points(P->alpha_W, P->gamma_W, w->qw) : 0;
  const size_t P1 = (size_t)p + 1;
  size_t nd = (size_t)ns + nf + 3 * (size_t)w->n + P1 * nf + 2 * (size_t)ns + (size_t)p * nf
              + 2 * (size_t)(ns + nf) + (size_t)nh * nh + (size_t)nf * nf
              + (size_t)p * 3 * nf * nf + 2 * (size_t)p * nf * ns + (size_t)ns * ns + (size_t)nwork
              + 2 * (size_t)nf + 2 * (size_t)ns;
  w->mem = malloc(sizeof(double) * nd + sizeof(int) * ((size_t)niwork + 1));
  if (!w->mem) return kz_bad(r, KZ_ENOMEM, "work");
  double *d = w->mem;
  w->msv = d; d += ns;  w->mfv = d; d += nf;
  w->x = d; d += w->n;  w->res = d; d += w->n;  w->rhs = d; d += w->n;
  w->Gf = d; d += P1 * nf;  w->Ga = d; d += ns;  w->GQ = d; d += ns;  w->Pm = d; d += (size_t)p * nf;
  w->argS = d; d += ns;  w->argF = d; d += nf;  w->gs = d; d += ns;  w->gf = d; d += nf;
  w->hV = d; d += (size_t)nh * nh;  w->hW = d; d += (size_t)nf * nf;
  w->pv = d; d += nf;  w->pW = d; d += nf;  w->pS = d; d += ns;  w->pQ = d; d += ns;
  w->A.p = p; w->A.nb = nf; w->A.na = ns;
  w->A.band = d; d += (size_t)p * 3 * nf * nf;
  w->A.col = d; d += (size_t)p * nf * ns;  w->A.row = d; d += (size_t)p * nf * ns;
  w->A.corner = d; d += (size_t)ns * ns;
  w->work = d; d += nwork;
  w->iwork = (int *)d;
  for (int i = 0; i < ns; i++) w->msv[i] = m->ms ? m->ms[i] : m->mass_s;
  for (int i = 0; i < nf; i++) w->mfv[i] = m->mf ? m->mf[i] : m->mass_f;
  w->mdt = 0;
  for (int i = 0; i < ns; i++) w->mdt = fmax(w->mdt, w->msv[i] / w->dT);
  for (int i = 0; i < nf; i++) w->mdt = fmax(w->mdt, w->mfv[i] / w->dt);
  return KZ_OK;
}

static const double *fnode(const ws *w, const double *f0, int j)
{
  return j == 0 ? f0 : w->x + (size_t)(j - 1) * w->nf;
}

/* All first derivatives of L_d at the current x (and the micro momenta Pm). */
static int grad_pass(ws *w, const double *a, const double *f0, kz_report *r)
{
  const int ns = w->ns, nf = w->nf, p = w->p;
  const double dt = w->dt, *Q = w->x + (size_t)p * nf;
  const kz_vmi_model *m = w->m;
  for (int i = 0; i < ns; i++) {
    double mv = w->msv[i] * (Q[i] - a[i]) / w->dT;
    w->Ga[i] = -mv; w->GQ[i] = mv;
  }
  memset(w->Gf, 0, sizeof(double) * (size_t)(p + 1) * nf);
  for (int j = 0; j < p; j++) {
    const double *fl = fnode(w, f0, j), *fr = fnode(w, f0, j + 1);
    double *Gl = w->Gf + (size_t)j * nf, *Gr = Gl + nf, *Pj = w->Pm + (size_t)j * nf;
    for (int i = 0; i < nf; i++) {
      double mv = w->mfv[i] * (fr[i] - fl[i]) / dt;
      Gl[i] -= mv; Gr[i] += mv; Pj[i] = mv;
    }
    for (int q = 0; q < w->nv; q++) {
      const double wt = w->qv[q].w, c = w->qv[q].c, th = (j + 1 - c) / p;
      for (int i = 0; i < ns; i++) { w->argS[i] = (1 - th) * a[i] + th * Q[i]; w->gs[i] = 0; }
      for (int i = 0; i < nf; i++) { w->argF[i] = c * fl[i] + (1 - c) * fr[i]; w->gf[i] = 0; }
      int st = m->V(m->par, w->argS, w->argF, NULL, w->gs, w->gf, NULL);
      if (r) r->force_evals++;
      if (st != KZ_OK) return st;
      for (int i = 0; i < ns; i++) {
        w->Ga[i] -= dt * wt * (1 - th) * w->gs[i];
        w->GQ[i] -= dt * wt * th * w->gs[i];
      }
      for (int i = 0; i < nf; i++) {
        Gl[i] -= dt * wt * c * w->gf[i];
        Gr[i] -= dt * wt * (1 - c) * w->gf[i];
        Pj[i] += dt * wt * c * w->gf[i];
      }
    }
    for (int q = 0; q < w->nw; q++) {
      const double wt = w->qw[q].w, c = w->qw[q].c;
      for (int i = 0; i < nf; i++) { w->argF[i] = c * fl[i] + (1 - c) * fr[i]; w->gf[i] = 0; }
      int st = m->W(m->par, w->argF, NULL, w->gf, NULL);
      if (r) r->force_evals++;
      if (st != KZ_OK) return st;
      for (int i = 0; i < nf; i++) {
        Gl[i] -= dt * wt * c * w->gf[i];
        Gr[i] -= dt * wt * (1 - c) * w->gf[i];
        Pj[i] += dt * wt * c * w->gf[i];
      }
    }
  }
  return KZ_OK;
}

/* Residual (fast equations 0..p-1, then slow) and its max norm. */
static double residual(ws *w, const double *ps, const double *pf)
{
  const int ns = w->ns, nf = w->nf, p = w->p;
  double nr = 0;
  for (size_t i = 0; i < (size_t)p * nf; i++) {
    w->res[i] = w->Gf[i] + (i < (size_t)nf ? pf[i] : 0);
    nr = fmax(nr, fabs(w->res[i]));
  }
  for (int i = 0; i < ns; i++) {
    w->res[(size_t)p * nf + i] = w->Ga[i] + ps[i];
    nr = fmax(nr, fabs(w->res[(size_t)p * nf + i]));
  }
  return isfinite(nr) ? nr : INFINITY;
}

/* Add s * H[(ro+i), (co+j)] (H of leading dimension ld) to the nr x nc block B (ld bnc). */
static void addblk(double *B, int bnc, int nr, int nc, double s, const double *H, int ld, int ro, int co)
{
  if (s == 0) return;
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++) B[i * bnc + j] += s * H[(size_t)(ro + i) * ld + co + j];
}

/* Add the contribution of one quadrature point on interval j to the Jacobian blocks. */
static void jac_point(ws *w, int j, double wt, double c, double th, const double *H, int ld, int off, int slow)
{
  const int ns = w->ns, nf = w->nf, p = w->p;
  const size_t bb = (size_t)nf * nf;
  const double dt = w->dt, cf[2] = { c, 1 - c };
  for (int e = 0; e < 2; e++) { /* fast equations: D_{f_j} and D_{f_{j+1}} of this point's term */
    const int eq = j + e;                     /* fast equation = node index */
    if (eq > p - 1) continue;                 /* D_{f_p} is the new momentum, not an equation */
    for (int v = 0; v < 2; v++) {
      const int node = j + v;                 /* unknown fast node (node 0 is given) */
      if (node < 1) continue;
      int d = node - eq + 1;                  /* 0, 1, 2 in the band */
      addblk(w->A.band + ((size_t)eq * 3 + d) * bb, nf, nf, nf, -dt * wt * cf[e] * cf[v], H, ld, off, off);
    }
    if (slow && ns > 0) /* fast equation vs the slow end point Q */
      addblk(w->A.col + (size_t)eq * nf * ns, ns, nf, ns, -dt * wt * cf[e] * th, H, ld, off, 0);
  }
  if (!slow || ns == 0) return;
  /* The slow equations (D_a L_d + p^s = 0): the term -dt wt V(argS, argF) enters them once, with
   * weight (1 - th) on the slow gradient; their derivatives by the fast nodes j, j+1 (weights c,
   * 1 - c) and by Q. */
  for (int v = 0; v < 2; v++) {
    const int node = j + v;
    if (node < 1) continue;
    addblk(w->A.row + (size_t)(node - 1) * ns * nf, nf, ns, nf, -dt * wt * (1 - th) * cf[v], H, ld, 0, off);
  }
  addblk(w->A.corner, ns, ns, ns, -dt * wt * (1 - th) * th, H, ld, 0, 0);
}

static int jac_pass(ws *w, const double *a, const double *f0, kz_report *r)
{
  const int ns = w->ns, nf = w->nf, p = w->p, nh = ns + nf;
  const size_t bb = (size_t)nf * nf;
  const double dt = w->dt, *Q = w->x + (size_t)p * nf;
  const kz_vmi_model *m = w->m;
  memset(w->A.band, 0, sizeof(double) * (size_t)p * 3 * bb);
  memset(w->A.col, 0, sizeof(double) * (size_t)p * nf * ns);
  memset(w->A.row, 0, sizeof(double) * (size_t)p * nf * ns);
  memset(w->A.corner, 0, sizeof(double) * (size_t)ns * ns);
  for (int i = 0; i < ns; i++) w->A.corner[i * ns + i] = -w->msv[i] / w->dT;
  for (int j = 0; j < p; j++) { /* kinetic part of fast equation j: Mf (v_{j-1} - v_j) */
    double *B = w->A.band + (size_t)j * 3 * bb;
    for (int i = 0; i < nf; i++) {
      B[2 * bb + i * nf + i] = -w->mfv[i] / dt;
      if (j >= 1) B[bb + i * nf + i] = 2 * w->mfv[i] / dt;
      if (j >= 2) B[i * nf + i] = -w->mfv[i] / dt;
    }
  }
  for (int j = 0; j < p; j++) {
    const double *fl = fnode(w, f0, j), *fr = fnode(w, f0, j + 1);
    for (int q = 0; q < w->nv; q++) {
      const double wt = w->qv[q].w, c = w->qv[q].c, th = (j + 1 - c) / p;
      for (int i = 0; i < ns; i++) w->argS[i] = (1 - th) * a[i] + th * Q[i];
      for (int i = 0; i < nf; i++) w->argF[i] = c * fl[i] + (1 - c) * fr[i];
      memset(w->hV, 0, sizeof(double) * (size_t)nh * nh);
      int st = m->V(m->par, w->argS, w->argF, NULL, NULL, NULL, w->hV);
      if (st != KZ_OK) return st;
      jac_point(w, j, wt, c, th, w->hV, nh, ns, 1);
    }
    for (int q = 0; q < w->nw; q++) {
      const double wt = w->qw[q].w, c = w->qw[q].c;
      for (int i = 0; i < nf; i++) w->argF[i] = c * fl[i] + (1 - c) * fr[i];
      memset(w->hW, 0, sizeof(double) * bb);
      int st = m->W(m->par, w->argF, NULL, NULL, w->hW);
      if (st != KZ_OK) return st;
      jac_point(w, j, wt, c, 0, w->hW, nf, 0, 0);
    }
  }
  if (r) r->jac_evals++;
  return KZ_OK;
}

/* The forces at (qs, qf): slow -grad_s V into w->gs, fast -grad_f V into w->gf and -grad W into
 * w->pW (one gradient of V and one of W, counted). */
static int forces(ws *w, const double *qs, const double *qf, kz_report *r)
{
  const kz_vmi_model *m = w->m;
  memset(w->gs, 0, sizeof(double) * (size_t)w->ns);
  memset(w->gf, 0, sizeof(double) * (size_t)w->nf);
  memset(w->pW, 0, sizeof(double) * (size_t)w->nf);
  if (r) r->force_evals++;
  KZ_TRY(m->V(m->par, qs, qf, NULL, w->gs, w->gf, NULL));
  if (m->W) {
    if (r) r->force_evals++;
    KZ_TRY(m->W(m->par, qf, NULL, w->pW, NULL));
  }
  for (int i = 0; i < w->ns; i++) w->gs[i] = -w->gs[i];
  for (int i = 0; i < w->nf; i++) { w->gf[i] = -w->gf[i]; w->pW[i] = -w->pW[i]; }
  return KZ_OK;
}

/* The drift guess (KZ_VMI_PREDICT_DRIFT): every position moved by its initial velocity. */
static void predict_drift(ws *w, const double *a, const double *f0, const double *ps, const double *pf)
{
  const int ns = w->ns, nf = w->nf, p = w->p;
  double *Q = w->x + (size_t)p * nf;
  for (int i = 0; i < ns; i++) Q[i] = a[i] + w->dT * ps[i] / w->msv[i];
  for (int j = 1; j <= p; j++)
    for (int i = 0; i < nf; i++) w->x[(size_t)(j - 1) * nf + i] = f0[i] + j * w->dt * pf[i] / w->mfv[i];
}

/* sum over the quadrature points of wt c (the weight on the left node) and of wt c (1 - c) */
static void qsums(const qpt *q, int n, double *c1, double *beta)
{
  *c1 = 0;
  *beta = 0;
  for (int i = 0; i < n; i++) {
    *c1 += q[i].w * q[i].c;
    *beta += q[i].w * q[i].c * (1 - q[i].c);
  }
}

/* The weight of node m in the slow force sum of part 3 of predict_verlet: every quadrature point
 * of V (weight wt, argument c f_j + (1-c) f_{j+1}, slow interpolation th = (j + 1 - c)/p) enters
 * the slow equation with dt wt (1 - th) F_s(point); the force at the point is taken as
 * c F_s(node j) + (1-c) F_s(node j+1). */
static double slow_weight(const ws *w, int m)
{
  const int p = w->p;
  double s = 0;
  for (int q = 0; q < w->nv; q++) {
    const double wt = w->qv[q].w, c = w->qv[q].c;
    if (m < p) s += wt * c * (1 - (m + 1 - c) / p);
    if (m > 0) s += wt * (1 - c) * (1 - (m - c) / p);
  }
  return w->dt * s;
}

/* One march (see predict_verlet) of the fast nodes with the slow positions interpolated from a to
 * Q0, then Q by one Newton step on Q = G(Q) from Q0. The fast mass matrix (LU in Mt, piv) is
 * given; the slow-slow Hessian of V at the middle node is evaluated into w->hV. */
static int march(ws *w, const double *a, const double *f0, const double *ps, const double *pf,
                 const double *Q0, const double *Mt, const int *piv, double c1V, double c1W, kz_report *r)
{
  const int ns = w->ns, nf = w->nf, p = w->p, nh = ns + nf, jh = p / 2;
  const double dt = w->dt, dT = w->dT;
  double *Q = w->x + (size_t)p * nf, *u = w->pv, *S = w->pS;
  const kz_vmi_model *m = w->m;
  memset(w->hV, 0, sizeof(double) * (size_t)nh * nh);
  if (ns > 0 && jh == 0) KZ_TRY(m->V(m->par, a, f0, NULL, NULL, NULL, w->hV));
  KZ_TRY(forces(w, a, f0, r));
  double ws0 = slow_weight(w, 0);
  for (int i = 0; i < ns; i++) S[i] = ws0 * w->gs[i];
  for (int i = 0; i < nf; i++) u[i] = pf[i] + dt * (c1V * w->gf[i] + c1W * w->pW[i]);
  const double *fm = f0;
  for (int j = 1; j <= p; j++) {
    double *fn = w->x + (size_t)(j - 1) * nf;
    for (int i = 0; i < nf; i++) fn[i] = dt * u[i];
    if (nf > 0) kz_lu_solve(nf, Mt, piv, fn, NULL);
    for (int i = 0; i < nf; i++) fn[i] += fm[i];
    const double th = (double)j / p, wsj = slow_weight(w, j);
    if (j == p && (ns == 0 || wsj == 0)) break; /* no equation of the step needs node p's forces */
    for (int i = 0; i < ns; i++) w->argS[i] = (1 - th) * a[i] + th * Q0[i];
    if (ns > 0 && j == jh) KZ_TRY(m->V(m->par, w->argS, fn, NULL, NULL, NULL, w->hV));
    KZ_TRY(forces(w, w->argS, fn, r));
    for (int i = 0; i < nf; i++) u[i] += dt * (w->gf[i] + w->pW[i]);
    for (int i = 0; i < ns; i++) S[i] += wsj * w->gs[i];
    fm = fn;
  }
  if (ns > 0) { /* the corner block and iwork[nf..] are free until Newton's first solve */
    double c = 0; /* dt sum over the quadrature points of wt (1 - th) th */
    for (int j = 0; j < p; j++)
      for (int q = 0; q < w->nv; q++) {
        const double th = (j + 1 - w->qv[q].c) / p;
        c += w->qv[q].w * (1 - th) * th;
      }
    c *= dt;
    double *M = w->A.corner, *dQ = w->pS;
    int *pv = w->iwork + nf;
    for (int i = 0; i < ns; i++) {
      for (int j = 0; j < ns; j++) M[i * ns + j] = (i == j) + dT * c / w->msv[i] * w->hV[(size_t)i * nh + j];
      dQ[i] = a[i] + dT / w->msv[i] * (ps[i] + S[i]) - Q0[i]; /* G(Q0) - Q0 */
    }
    /* a singular matrix leaves dQ as it is: then Q = G(Q0), the plain fixed-point step */
    if (kz_lu_factor(ns, M, pv, NULL) == KZ_OK) kz_lu_solve(ns, M, pv, dQ, NULL);
    for (int i = 0; i < ns; i++) Q[i] = Q0[i] + dQ[i];
  }
  return KZ_OK;
}

/* The Verlet guess (KZ_VMI_PREDICT_VERLET), in three parts.
 * 1. The slow end point by one Stormer-Verlet step of size dT: Q0 = a + dT/ms (ps + dT/2 F_s(a, f_0)).
 * 2. The fast nodes by a Stormer-Verlet march through the p micro steps, the slow positions
 *    interpolated linearly from a to Q0 as in (3.18), written so that it reproduces the scheme's
 *    own fast equations (3.10)-(3.11) for a quadratic potential. With a quadrature point (weight
 *    wt, argument c f_m + (1-c) f_{m+1}) and a force -K f, fast equation m reads
 *      (M + dt^2 beta K) (f_{m+1} - 2 f_m + f_{m-1}) / dt^2 = -K f_m,   beta = sum wt c (1 - c),
 *    and equation 0:  (M + dt^2 beta K) (f_1 - f_0) / dt = p^f + dt c1 F(f_0),   c1 = sum wt c.
 *    The march uses the actual (nonlinear) forces at the nodes and the modified mass
 *    Mt = Mf + dt^2 (beta_V K_V + beta_W K_W) with the fast Hessians at the first node (beta = 1/4
 *    for the midpoint rule, 0 for the rectangle and trapezoid rules, where the march is exactly the
 *    scheme's explicit recursion). It follows the fast oscillation through the macro step with the
 *    scheme's own phase, where the drift guess leaves it after a fraction of a period.
 * 3. The slow end point from the scheme's slow equation p^s + D_a L_d = 0 with the slow forces
 *    met along the march: Q = G(Q) := a + dT/ms (ps + sum_m dt (1 - th_m) F_s(node m)), th_m = m/p
 *    (trapezoid weights). G depends on Q through the interpolation, G'(Q) ~ -(dT c / ms) H_ss with
 *    c = dt sum_m (1 - th_m) th_m = dT (p^2 - 1) / (6 p^2) and H_ss the slow-slow Hessian of V at
 *    the middle node; one Newton step on Q = G(Q) from Q0 gives Q. Parts 2-3 run twice, the second
 *    time from the Q of the first (at dT = 1, p = 1000 in Fig. 6.19 the slow motion is not small).
 * Costs 2 p gradients of V and of W (counted in force_evals), three Hessians (two of V, one of W;
 * not counted, as the Jacobian's Hessians are not) and one nf x nf LU. Newton iterations per step
 * then stay near one up to p = 200 and grow slowly after (scripts/bench-vmi.lua). Returns the
 * model's status, or KZ_EDIVERGED for a non-finite guess (the caller then uses the drift guess). */
static int predict_verlet(ws *w, const double *a, const double *f0, const double *ps, const double *pf,
                          kz_report *r)
{
  const int ns = w->ns, nf = w->nf, p = w->p, nh = ns + nf;
  const kz_vmi_model *m = w->m;
  double *Q = w->x + (size_t)p * nf, *Q0 = w->pQ, *Mt = w->A.band; /* band: free until Newton */
  double c1V, bV, c1W = 0, bW = 0;
  qsums(w->qv, w->nv, &c1V, &bV);
  if (m->W) qsums(w->qw, w->nw, &c1W, &bW);
  if (nf > 0) {
    memset(w->hV, 0, sizeof(double) * (size_t)nh * nh);
    memset(w->hW, 0, sizeof(double) * (size_t)nf * nf);
    if (bV != 0) KZ_TRY(m->V(m->par, a, f0, NULL, NULL, NULL, w->hV));
    if (bW != 0) KZ_TRY(m->W(m->par, f0, NULL, NULL, w->hW));
    const double h2 = w->dt * w->dt;
    for (int i = 0; i < nf; i++)
      for (int j = 0; j < nf; j++)
        Mt[i * nf + j] = (i == j ? w->mfv[i] : 0) + h2 * (bV * w->hV[(size_t)(ns + i) * nh + ns + j]
                                                           + bW * w->hW[(size_t)i * nf + j]);
    KZ_TRY(kz_lu_factor(nf, Mt, w->iwork, NULL));
  }
  KZ_TRY(forces(w, a, f0, r));
  for (int i = 0; i < ns; i++) Q0[i] = a[i] + w->dT / w->msv[i] * (ps[i] + 0.5 * w->dT * w->gs[i]);
  for (int pass = 0; pass < 4; pass++) {
    if (pass > 0) memcpy(Q0, Q, sizeof(double) * (size_t)ns);
    KZ_TRY(march(w, a, f0, ps, pf, Q0, Mt, w->iwork, c1V, c1W, r));
    double dq = 0, qn = 0;
    for (int i = 0; i < ns; i++) { dq = fmax(dq, fabs(Q[i] - Q0[i])); qn = fmax(qn, fabs(Q[i])); }
    if (dq <= 1e-7 * (1 + qn)) break;
  }
  return kz_all_finite(w->x, w->n) ? KZ_OK : KZ_EDIVERGED;
}

/* One macro step on y from time t (macro index k); see kz_vmi_step. */
static int step(ws *w, long long k, double t, double *y, double *micro, double *timing, kz_report *r)
{
  const int ns = w->ns, nf = w->nf, p = w->p, nn = ns + nf;
  const double *a = y, *f0 = y + ns, *ps = y + nn, *pf = y + nn + ns;
  double *Q = w->x + (size_t)p * nf;
  /* A predictor that fails (the model refuses a predicted point) falls back to the drift guess. */
  double tp = timing ? now() : 0;
  if (w->P->predictor == KZ_VMI_PREDICT_DRIFT || predict_verlet(w, a, f0, ps, pf, r) != KZ_OK)
    predict_drift(w, a, f0, ps, pf);
  double tg = timing ? now() : 0;
  int st = grad_pass(w, a, f0, r);
  if (st != KZ_OK) return kz_fail(r, st, "model", k, t);
  double nr = residual(w, ps, pf);
  if (timing) { double te = now(); timing[KZ_VMI_T_PREDICT] += tg - tp; timing[KZ_VMI_T_GRAD] += te - tg; }
  int it = 0;
  while (nr > w->P->tol) {
    if (it >= w->P->max_iter || !isfinite(nr)) return kz_fail(r, KZ_ENOCONV, "newton", k, t);
    double t0 = timing ? now() : 0;
    st = jac_pass(w, a, f0, r);
    if (st != KZ_OK) return kz_fail(r, st, "model", k, t);
    double t1 = timing ? now() : 0;
    memcpy(w->rhs, w->res, sizeof(double) * (size_t)w->n);
    st = kz_arrow_solve(&w->A, w->P->solver, w->rhs, w->work, w->iwork, r);
    if (timing) { double t2 = now(); timing[KZ_VMI_T_JAC] += t1 - t0; timing[KZ_VMI_T_SOLVE] += t2 - t1; }
    if (st != KZ_OK) return kz_fail(r, KZ_ENOCONV, "jacobian", k, t);
    double dxn = 0, xn = 0;
    for (int i = 0; i < w->n; i++) {
      w->x[i] -= w->rhs[i];
      dxn = fmax(dxn, fabs(w->rhs[i]));
      xn = fmax(xn, fabs(w->x[i]));
    }
    it++;
    if (r) r->newton_iters++;
    if (!isfinite(dxn)) return kz_fail(r, KZ_ENOCONV, "newton", k, t);
    double t3 = timing ? now() : 0;
    st = grad_pass(w, a, f0, r);
    if (st != KZ_OK) return kz_fail(r, st, "model", k, t);
    nr = residual(w, ps, pf);
    if (timing) timing[KZ_VMI_T_GRAD] += now() - t3;
    /* At the round-off floor (notes, addendum 2): the update is a few ulp and the residual is what
     * a perturbation of x by ~1000 ulp produces through the largest mass/step ratio. */
    if (dxn <= 8 * DBL_EPSILON * xn && nr <= 1e3 * DBL_EPSILON * w->mdt * xn) break;
  }
  /* Everything the step writes (x = fast nodes 1..p and Q, the momenta GQ, Gf_p and the inner
   * micro momenta Pm_1..p-1) is checked before anything is written, so that a failed step leaves
   * y and micro as they were. */
  const double *fp = w->x + (size_t)(p - 1) * nf, *pfp = w->Gf + (size_t)p * nf;
  int finite = 1;
  for (int i = 0; i < w->n; i++) finite &= isfinite(w->x[i]) != 0;
  for (int i = 0; i < ns; i++) finite &= isfinite(w->GQ[i]) != 0;
  for (int i = 0; i < nf; i++) finite &= isfinite(pfp[i]) != 0;
  for (size_t i = nf; micro && i < (size_t)p * nf; i++) finite &= isfinite(w->Pm[i]) != 0;
  if (!finite) return kz_fail(r, KZ_EDIVERGED, "y", k, t);
  if (micro) { /* rows m = 0..p of (q^{f,m}, p^{f,m}); row 0 is the given state (f0, pf) */
    for (int j = 0; j <= p; j++) {
      const double *fj = fnode(w, f0, j);
      double *row = micro + (size_t)j * 2 * nf;
      for (int i = 0; i < nf; i++) {
        row[i] = fj[i];
        row[nf + i] = j == 0 ? pf[i] : (j == p ? pfp[i] : w->Pm[(size_t)j * nf + i]);
      }
    }
  }
  double *yq = y, *yp = y + nn;
  for (int i = 0; i < ns; i++) { yq[i] = Q[i]; yp[i] = w->GQ[i]; }
  for (int i = 0; i < nf; i++) { yq[ns + i] = fp[i]; yp[ns + i] = pfp[i]; }
  if (r) { r->macro_steps++; r->micro_steps += p; }
  return KZ_OK;
}

int kz_vmi_step(const kz_vmi_model *m, const kz_vmi_params *P, double t, double *y,
                double *micro, double *timing, kz_report *r)
{
  double t0 = now();
  ws w;
  KZ_TRY(ws_init(&w, m, P, r));
  int st = kz_check_vec(r, y, 2 * (m->ns + m->nf), "y");
  if (st == KZ_OK) st = kz_check_num(r, t, "t", 0);
  double *y1 = NULL;
  if (st == KZ_OK) {
    y1 = malloc(sizeof(double) * 2 * (size_t)(m->ns + m->nf));
    if (!y1) st = kz_bad(r, KZ_ENOMEM, "work");
  }
  if (st == KZ_OK) {
    memcpy(y1, y, sizeof(double) * 2 * (size_t)(m->ns + m->nf));
    st = step(&w, 0, t, y1, micro, timing, r);
    if (st == KZ_OK) memcpy(y, y1, sizeof(double) * 2 * (size_t)(m->ns + m->nf));
  }
  free(y1);
  free(w.mem);
  if (timing) timing[KZ_VMI_T_TOTAL] += now() - t0;
  return st;
}

int kz_vmi_run(const kz_vmi_model *m, const kz_vmi_params *P, long long N, const double *y0,
               double *out, long long nout, double *micro, long long nmicro, double *timing,
               kz_report *r)
{
  double t0 = now();
  KZ_TRY(check_args(m, P, r));
  if (N < 0) return kz_bad(r, KZ_EDOMAIN, "N");
  const int d = 2 * (m->ns + m->nf);
  KZ_TRY(kz_check_vec(r, y0, d, "y0"));
  if (!out) return kz_bad(r, KZ_ENULL, "out");
  if (nout < N + 1) return kz_bad(r, KZ_EBUFFER, "out");
  if (micro && (N > (LLONG_MAX - 1) / P->p || nmicro < N * P->p + 1)) return kz_bad(r, KZ_EBUFFER, "micro");
  ws w;
  KZ_TRY(ws_init(&w, m, P, r));
  memcpy(out, y0, sizeof(double) * (size_t)d);
  int st = KZ_OK;
  for (long long k = 0; k < N && st == KZ_OK; k++) {
    double *yk = out + (size_t)(k + 1) * d;
    memcpy(yk, out + (size_t)k * d, sizeof(double) * (size_t)d);
    st = step(&w, k, (double)k * P->dT, yk,
              micro ? micro + (size_t)k * P->p * 2 * m->nf : NULL, timing, r);
  }
  if (st == KZ_OK && micro && N == 0)
    for (int i = 0; i < m->nf; i++) { micro[i] = y0[m->ns + i]; micro[m->nf + i] = y0[2 * m->ns + m->nf + i]; }
  free(w.mem);
  if (timing) timing[KZ_VMI_T_TOTAL] += now() - t0;
  return st;
}
