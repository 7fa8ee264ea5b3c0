/* kz_con.c -- constrained mechanical systems: the check of the DAE structure (kz_constraints),
 * the constraint residuals, and the two solves every constrained method makes:
 *  - position: find the multipliers L with g(q~ + c M^-1 Gb^T L) = 0 (SHAKE and RATTLE, Calvo &
 *    Sanz-Serna Sec. 4.2-4.3, c = h^2/2 or H^2; HERK (45)-(48) of Calvo, Chartier, Murua &
 *    Sanz-Serna, c = h a_{i,i-1}): Newton's method from L = 0, the Jacobian G re-evaluated at
 *    every iterate (quadratic convergence), stopped when max |g| <= tol (or each |g_i| <= tols[i]);
 *  - velocity: find L with G(q) (u~ + c M^-1 Gb^T L) = 0 (RATTLE, HERK), one linear system.
 * The m x m systems are solved by Gaussian elimination with partial pivoting in caller work. */
#include "kz_con.h"
#include <stdlib.h>
#include <string.h>

int kz_con_check(const kz_sys *s, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  const kz_constraints *C = s->con;
  if (!C) return kz_bad(r, KZ_ENULL, "con");
  if (s->dim < 2 || s->dim % 2) return kz_bad(r, KZ_EDOMAIN, "dim");
  const int nq = kz_con_nq(s);
  if (C->m < 1 || C->m > nq) return kz_bad(r, KZ_EDOMAIN, "con.m");
  if (!C->g) return kz_bad(r, KZ_ENULL, "con.g");
  if (!C->minv) return kz_bad(r, KZ_ENULL, "con.minv");
  for (int i = 0; i < nq; i++) {
    if (!isfinite(C->minv[i])) return kz_bad(r, KZ_ENONFINITE, "con.minv");
    if (!(C->minv[i] > 0)) return kz_bad(r, KZ_EDOMAIN, "con.minv");
  }
  KZ_TRY(kz_check_num(r, C->tol, "con.tol", 1));
  if (C->tols)
    for (int j = 0; j < C->m; j++) KZ_TRY(kz_check_num(r, C->tols[j], "con.tols", 1));
  if (C->max_iter < 1) return kz_bad(r, KZ_EDOMAIN, "con.max_iter");
  return KZ_OK;
}

int kz_con_residual(const kz_sys *s, const double *y, double *res, kz_report *r)
{
  KZ_TRY(kz_con_check(s, r));
  const int nq = kz_con_nq(s), m = s->con->m;
  KZ_TRY(kz_check_vec(r, y, s->dim, "y"));
  if (!res) return kz_bad(r, KZ_ENULL, "res");
  double *G = malloc(sizeof(double) * (size_t)m * (size_t)nq);
  if (!G) return kz_bad(r, KZ_ENOMEM, "work");
  const int st = s->con->g(s->con->par, y, res, G);
  for (int j = 0; st == KZ_OK && j < m; j++) {
    double d = 0;
    for (int i = 0; i < nq; i++) d += G[j * nq + i] * y[nq + i];
    res[m + j] = d;
  }
  free(G);
  return st == KZ_OK ? KZ_OK : kz_bad(r, st, "g");
}

int kz_con_jacobian(const kz_constraints *C, const double *q, double *G, kz_report *r)
{
  if (r) r->jac_evals++;
  const int st = C->g(C->par, q, NULL, G);
  return st == KZ_OK ? KZ_OK : kz_bad(r, st, "g");
}

/* Solve A x = b (A m x m row-major, both overwritten; x in b) by Gaussian elimination with
 * partial pivoting. 0, or -1 for a zero or non-finite pivot. */
static int solve_small(int m, double *A, double *b)
{
  for (int k = 0; k < m; k++) {
    int p = k;
    for (int i = k + 1; i < m; i++)
      if (fabs(A[i * m + k]) > fabs(A[p * m + k])) p = i;
    const double piv = A[p * m + k];
    if (piv == 0 || !isfinite(piv)) return -1;
    if (p != k) {
      for (int j = 0; j < m; j++) {
        const double t = A[k * m + j];
        A[k * m + j] = A[p * m + j];
        A[p * m + j] = t;
      }
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    for (int i = k + 1; i < m; i++) {
      const double l = A[i * m + k] / piv;
      for (int j = k; j < m; j++) A[i * m + j] -= l * A[k * m + j];
      b[i] -= l * b[k];
    }
  }
  for (int k = m - 1; k >= 0; k--) {
    double s = b[k];
    for (int j = k + 1; j < m; j++) s -= A[k * m + j] * b[j];
    b[k] = s / A[k * m + k];
  }
  return 0;
}

/* B = M^-1 Gb^T (nq x m) */
static void mgt(const kz_constraints *C, int nq, const double *Gb, double *B)
{
  const int m = C->m;
  for (int i = 0; i < nq; i++)
    for (int j = 0; j < m; j++) B[i * m + j] = C->minv[i] * Gb[j * nq + i];
}

/* A = c Gq B (m x m) */
static void newton_matrix(int m, int nq, double c, const double *Gq, const double *B, double *A)
{
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) {
      double s = 0;
      for (int i = 0; i < nq; i++) s += Gq[a * nq + i] * B[i * m + b];
      A[a * m + b] = c * s;
    }
}

int kz_con_position(const kz_constraints *C, int nq, const double *qt, const double *Gb,
                    double c, double *q, double *Gq, double *lam, double *work, kz_report *r)
{
  const int m = C->m;
  double *B = work, *A = B + (size_t)nq * m, *g = A + (size_t)m * m, *d = g + m;
  if (C->stats) C->stats->pos_solves++;
  mgt(C, nq, Gb, B);
  for (int j = 0; j < m; j++) lam[j] = 0;
  memcpy(q, qt, sizeof(double) * (size_t)nq);
  for (int it = 0;; it++) {
    if (r) r->jac_evals++;
    const int st = C->g(C->par, q, g, Gq);
    if (st != KZ_OK) return kz_bad(r, st, "g");
    double res = 0;
    int within = 1; /* every |g_j| within its own tolerance (tols) */
    for (int j = 0; j < m; j++) {
      res = fmax(res, fabs(g[j]));
      if (C->tols && !(fabs(g[j]) <= C->tols[j])) within = 0;
    }
    if (!isfinite(res)) return kz_bad(r, KZ_ENOCONV, "newton");
    if (C->tols ? within : res <= C->tol) return KZ_OK;
    if (it == C->max_iter) return kz_bad(r, KZ_ENOCONV, "newton");
    newton_matrix(m, nq, c, Gq, B, A);
    for (int j = 0; j < m; j++) d[j] = -g[j];
    if (solve_small(m, A, d) != 0) return kz_bad(r, KZ_ENOCONV, "newton");
    for (int j = 0; j < m; j++) lam[j] += d[j];
    for (int i = 0; i < nq; i++) {
      double s = 0;
      for (int j = 0; j < m; j++) s += B[i * m + j] * lam[j];
      q[i] = qt[i] + c * s;
    }
    if (r) r->newton_iters++;
  }
}

int kz_con_velocity(const kz_constraints *C, int nq, const double *Gq, const double *ut,
                    const double *Gb, double c, double *u, double *lam, double *work,
                    kz_report *r)
{
  const int m = C->m;
  double *B = work, *A = B + (size_t)nq * m;
  if (C->stats) C->stats->vel_solves++;
  mgt(C, nq, Gb, B);
  newton_matrix(m, nq, c, Gq, B, A);
  for (int j = 0; j < m; j++) {
    double s = 0;
    for (int i = 0; i < nq; i++) s += Gq[j * nq + i] * ut[i];
    lam[j] = -s;
  }
  if (solve_small(m, A, lam) != 0) return kz_bad(r, KZ_EDOMAIN, "G");
  for (int i = 0; i < nq; i++) {
    double s = 0;
    for (int j = 0; j < m; j++) s += B[i * m + j] * lam[j];
    u[i] = ut[i] + c * s;
  }
  return KZ_OK;
}
