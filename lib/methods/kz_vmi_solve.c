/* kz_vmi_solve.c -- the linear solve inside Newton's method for one macro step of the
 * variational multirate integrator (Ober-Bloebaum, Wenger, Gail & Leyendecker, Sec. 3.1 and
 * the computing-time study of Sec. 6.3, Figs. 6.18-6.19).
 *
 * Unknowns (q_k^{f,1..p}, q_{k+1}^s), equations (the fast momentum-matching conditions
 * m = 0..p-1 of (3.10)/(3.11), then the slow one). Fast equation m involves the fast nodes
 * m-1, m, m+1 and the slow end point only, so the Jacobian is an "arrowhead": a block lower
 * triangular band B (two sub-diagonals) bordered by the slow column C, row R and corner D.
 *
 *  STRUCTURED: Y = B^-1 [C | f] by block forward substitution (p small LU factorisations),
 *              S = D - R Y (Schur complement), z = S^-1 (g - R y), x = y - Y z.
 *              Cost O(p nb^3 + p nb^2 na + p nb na^2 + na^3): linear in p.
 *  DENSE:      the whole (p nb + na)^2 matrix, LU with partial pivoting by LAPACK's DGETRF and
 *              DGETRS (kz_lapack.h): cubic in p (what the paper's timing study sees as the
 *              super-linear growth of t_dx), the baseline the structured solve is measured
 *              against, so it uses the standard blocked factorisation rather than a hand-written one.
 * The block elimination pivots only inside the diagonal blocks dR_m/dq^{f,m+1}; these are
 * -Mf/dt - dt gamma (1 - gamma) H_ff (H_ff the fast Hessian of V + W at the quadrature points), hence
 * regular for the rectangle rules and whenever dt^2 gamma (1 - gamma) H_ff > -Mf (always for convex
 * potentials, as in both test problems). Should one be singular, the step fails with parameter
 * "jacobian"; DENSE pivots over the whole matrix.
 */
#include "kz_internal.h"
#include "kz_lapack.h"
#include <string.h>

/* The shape and the size caps. Unknowns and block entries are indexed by int (both solvers); the
 * dense solver's n^2 workspace (3.2 GB at n = 2e4) is capped at n = p nb + na <= 2e4, while the
 * structured solver's workspace is linear in p and has no cap of its own. An unknown solver is
 * left to the caller. */
static int shape_ok(int p, int nb, int na, int solver, kz_report *r)
{
  if (p < 1) return kz_bad(r, KZ_EDOMAIN, "p");
  if (nb < 0) return kz_bad(r, KZ_EDOMAIN, "nb");
  if (na < 0) return kz_bad(r, KZ_EDOMAIN, "na");
  if (nb == 0 && na == 0) return kz_bad(r, KZ_EDOMAIN, "nb"); /* (nb + na could overflow) */
  const double n = (double)p * nb + na;
  const double big = 2147483647.0, nab = nb > na ? nb : na;
  if (nab * (nab + 1) > big) return kz_bad(r, KZ_EDOMAIN, nb > na ? "nb" : "na");
  if (n > big) return kz_bad(r, KZ_EDOMAIN, "p");
  if (solver == KZ_VMI_DENSE && n > 2e4) return kz_bad(r, KZ_EDOMAIN, "p");
  return KZ_OK;
}

int kz_arrow_work_size(int p, int nb, int na, int solver, long long *nwork, long long *niwork,
                       kz_report *r)
{
  KZ_TRY(shape_ok(p, nb, na, solver, r));
  if (!nwork || !niwork) return kz_bad(r, KZ_ENULL, nwork ? "niwork" : "nwork");
  const long long P = p, n = P * nb + na;
  if (solver == KZ_VMI_STRUCTURED) {
    *nwork = P * nb * (na + 1) + (long long)na * na + na + nb;
    *niwork = P * nb + na;
  } else if (solver == KZ_VMI_DENSE) {
    *nwork = n * n;
    *niwork = n;
  } else {
    return kz_bad(r, KZ_EDOMAIN, "solver");
  }
  return KZ_OK;
}

/* z (nb x w) -= a (nb x nb) * y (nb x w); all row-major, y and z with row stride w. */
static void sub_mul(int nb, int w, const double *a, const double *y, double *z)
{
  for (int i = 0; i < nb; i++)
    for (int k = 0; k < nb; k++) {
      const double aik = a[i * nb + k];
      if (aik == 0) continue;
      for (int j = 0; j < w; j++) z[i * w + j] -= aik * y[k * w + j];
    }
}

static int solve_structured(kz_arrow *A, double *rhs, double *work, int *iwork, kz_report *r)
{
  const int p = A->p, nb = A->nb, na = A->na, w = na + 1;
  const size_t bb = (size_t)nb * nb, blk = (size_t)nb * w;
  double *Z = work;                               /* p blocks nb x (na+1): B^-1 [C | f] */
  double *S = Z + (size_t)p * blk;                /* na x na Schur complement */
  double *s = S + (size_t)na * na;                /* na: its right-hand side */
  int *pivd = iwork, *pivs = iwork + (size_t)p * nb;
  for (int i = 0; i < p; i++) {
    double *Zi = Z + (size_t)i * blk;
    const double *Ci = A->col + (size_t)i * nb * na;
    for (int a = 0; a < nb; a++) {
      for (int j = 0; j < na; j++) Zi[a * w + j] = Ci[a * na + j];
      Zi[a * w + na] = rhs[(size_t)i * nb + a];
    }
    double *band = A->band + (size_t)i * 3 * bb;
    if (i >= 2) sub_mul(nb, w, band, Z + (size_t)(i - 2) * blk, Zi);
    if (i >= 1) sub_mul(nb, w, band + bb, Z + (size_t)(i - 1) * blk, Zi);
    if (kz_lu_factor(nb, band + 2 * bb, pivd + (size_t)i * nb, NULL) != KZ_OK)
      return kz_bad(r, KZ_EDOMAIN, "jacobian");
    kz_lu_solve_cols(nb, band + 2 * bb, pivd + (size_t)i * nb, w, Zi, NULL);
  }
  const double *g = rhs + (size_t)p * nb;
  memcpy(S, A->corner, sizeof(double) * (size_t)na * na);
  memcpy(s, g, sizeof(double) * (size_t)na);
  for (int i = 0; i < p; i++) { /* S -= R_i Y_i, s -= R_i y_i */
    const double *Ri = A->row + (size_t)i * na * nb, *Zi = Z + (size_t)i * blk;
    for (int a = 0; a < na; a++)
      for (int k = 0; k < nb; k++) {
        const double rak = Ri[a * nb + k];
        if (rak == 0) continue;
        for (int j = 0; j < na; j++) S[a * na + j] -= rak * Zi[k * w + j];
        s[a] -= rak * Zi[k * w + na];
      }
  }
  if (kz_lu_factor(na, S, pivs, NULL) != KZ_OK) return kz_bad(r, KZ_EDOMAIN, "jacobian");
  kz_lu_solve(na, S, pivs, s, NULL);
  for (int i = 0; i < p; i++) {
    const double *Zi = Z + (size_t)i * blk;
    for (int a = 0; a < nb; a++) {
      double x = Zi[a * w + na];
      for (int j = 0; j < na; j++) x -= Zi[a * w + j] * s[j];
      rhs[(size_t)i * nb + a] = x;
    }
  }
  memcpy(rhs + (size_t)p * nb, s, sizeof(double) * (size_t)na);
  return KZ_OK;
}

static int solve_dense(kz_arrow *A, double *rhs, double *work, int *iwork, kz_report *r)
{
  const int p = A->p, nb = A->nb, na = A->na;
  const size_t n = (size_t)p * nb + na, bb = (size_t)nb * nb;
  double *M = work;
  memset(M, 0, sizeof(double) * n * n);
  for (int i = 0; i < p; i++) {
    for (int d = 0; d < 3; d++) {
      int j = i - 2 + d;
      if (j < 0) continue;
      const double *blkp = A->band + ((size_t)i * 3 + d) * bb;
      for (int a = 0; a < nb; a++)
        for (int b = 0; b < nb; b++) M[((size_t)i * nb + a) * n + (size_t)j * nb + b] = blkp[a * nb + b];
    }
    for (int a = 0; a < nb; a++)
      for (int j = 0; j < na; j++)
        M[((size_t)i * nb + a) * n + (size_t)p * nb + j] = A->col[((size_t)i * nb + a) * na + j];
    for (int a = 0; a < na; a++)
      for (int b = 0; b < nb; b++)
        M[((size_t)p * nb + a) * n + (size_t)i * nb + b] = A->row[((size_t)i * na + a) * nb + b];
  }
  for (int a = 0; a < na; a++)
    for (int j = 0; j < na; j++) M[((size_t)p * nb + a) * n + (size_t)p * nb + j] = A->corner[a * na + j];
  /* M is row-major, i.e. LAPACK (column-major) sees M^T: factor M^T = P L U and solve
   * (M^T)^T x = rhs with TRANS = 'T'. */
  const int ni = (int)n, one = 1;
  int info = 0;
  dgetrf_(&ni, &ni, M, &ni, iwork, &info);
  if (info != 0) return kz_bad(r, KZ_EDOMAIN, "jacobian"); /* info > 0: U(info, info) = 0 */
  for (size_t k = 0; k < n; k++) /* LAPACK does not test for NaN or Inf */
    if (!isfinite(M[k * n + k])) return kz_bad(r, KZ_EDOMAIN, "jacobian");
  dgetrs_("T", &ni, &one, M, &ni, iwork, rhs, &ni, &info, 1);
  if (info != 0) return kz_bad(r, KZ_EDOMAIN, "jacobian");
  return KZ_OK;
}

int kz_arrow_solve(kz_arrow *A, int solver, double *rhs, double *work, int *iwork, kz_report *r)
{
  if (!A) return kz_bad(r, KZ_ENULL, "A");
  KZ_TRY(shape_ok(A->p, A->nb, A->na, solver, r));
  if (!A->band || !A->col || !A->row || !A->corner) return kz_bad(r, KZ_ENULL, "A");
  if (!rhs) return kz_bad(r, KZ_ENULL, "rhs");
  if (!work || !iwork) return kz_bad(r, KZ_ENULL, "work");
  if (solver == KZ_VMI_STRUCTURED) return solve_structured(A, rhs, work, iwork, r);
  if (solver == KZ_VMI_DENSE) return solve_dense(A, rhs, work, iwork, r);
  return kz_bad(r, KZ_EDOMAIN, "solver");
}
