/* kapitza/linalg.h -- Small dense linear algebra: LU (kz_linalg.c) and least squares (kz_lsq.c).
 * Part of libkapitza's public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_LINALG_H
#define KAPITZA_LINALG_H

#include <kapitza/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------- Dense linear algebra (kz_linalg.c), generic and reusable ------------------------- */

/* LU factorisation with partial pivoting of the row-major n x n matrix a, in place; piv gets n
 * row indices. KZ_EDOMAIN (parameter "matrix") if a pivot is exactly zero or not finite. */
int kz_lu_factor(int n, double *a, int *piv, kz_report *r);
/* Solve A x = b with the factors of kz_lu_factor; b (n numbers) is overwritten by x. The pivots
 * are checked first: each piv[k] must lie in k..n-1, as kz_lu_factor writes them (else
 * KZ_EDOMAIN, parameter "piv", and b is unchanged). */
int kz_lu_solve(int n, const double *lu, const int *piv, double *b, kz_report *r);
/* The same for nrhs right-hand sides stored as the columns of the row-major n x nrhs matrix b. */
int kz_lu_solve_cols(int n, const double *lu, const int *piv, int nrhs, double *b, kz_report *r);

/* ---------- Least squares (kz_lsq.c) ------------------------------------------------------- */

enum kz_lsq_kind {
  KZ_LSQ_MINNORM = 0, /* the minimum-norm least-squares solution J^+ b (SVD by one-sided Jacobi;
                       * singular values below max(m, n) eps sigma_max count as zero) */
  KZ_LSQ_BASIC = 1    /* the basic solution of QR with column pivoting (MATLAB's J\b): at most
                       * rank J non-zero components (rank: |R_kk| > max(m, n) eps |R_11|) */
};

/* Doubles of workspace kz_lsq_solve needs for an m x n matrix (0 for bad sizes). */
size_t kz_lsq_work(int m, int n);
/* Least-squares solution x (n numbers) of J x = b, J row-major m x n, b m numbers, of the kind
 * asked (enum kz_lsq_kind). *rank (may be NULL) receives the numerical rank. J and b are not
 * modified. KZ_EDOMAIN for m, n outside 1..64 ("m", "n") or a bad kind ("kind"), KZ_ENONFINITE
 * for a non-finite J or b. */
int kz_lsq_solve(int kind, int m, int n, const double *J, const double *b, double *x, int *rank,
                 double *work, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
