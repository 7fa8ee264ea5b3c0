/* kz_linalg.c -- dense LU factorisation with partial pivoting (Golub & Van Loan, Algorithm
 * 3.4.1, row-major, right-looking) and the triangular solves. Generic: used by the variational
 * multirate integrator (kz_vmi_solve.c) for its dense option, its small diagonal blocks and its
 * Schur complement; others may reuse it. */
#include "kz_internal.h"
#include <stddef.h>

int kz_lu_factor(int n, double *a, int *piv, kz_report *r)
{
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  if (n > 0 && (!a || !piv)) return kz_bad(r, KZ_ENULL, a ? "piv" : "matrix");
  const size_t N = (size_t)n;
  for (size_t k = 0; k < N; k++) {
    size_t pr = k;
    double best = fabs(a[k * N + k]);
    for (size_t i = k + 1; i < N; i++) {
      double v = fabs(a[i * N + k]);
      if (v > best) { best = v; pr = i; }
    }
    piv[k] = (int)pr;
    if (!(best > 0) || !isfinite(best)) return kz_bad(r, KZ_EDOMAIN, "matrix");
    if (pr != k) {
      double *x = a + k * N, *y = a + pr * N;
      for (size_t j = 0; j < N; j++) { double t = x[j]; x[j] = y[j]; y[j] = t; }
    }
    const double *rowk = a + k * N;
    const double inv = 1.0 / rowk[k];
    for (size_t i = k + 1; i < N; i++) {
      double *rowi = a + i * N;
      const double l = rowi[k] * inv;
      rowi[k] = l;
      for (size_t j = k + 1; j < N; j++) rowi[j] -= l * rowk[j];
    }
  }
  return KZ_OK;
}

int kz_lu_solve_cols(int n, const double *lu, const int *piv, int nrhs, double *b, kz_report *r)
{
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  if (nrhs < 0) return kz_bad(r, KZ_EDOMAIN, "nrhs");
  if (n == 0 || nrhs == 0) return KZ_OK;
  if (!lu || !piv || !b) return kz_bad(r, KZ_ENULL, !lu ? "lu" : (!piv ? "piv" : "b"));
  for (int k = 0; k < n; k++) /* a row index outside k..n-1 would swap outside b */
    if (piv[k] < k || piv[k] >= n) return kz_bad(r, KZ_EDOMAIN, "piv");
  const size_t N = (size_t)n, R = (size_t)nrhs;
  for (size_t k = 0; k < N; k++) { /* row interchanges, in order */
    size_t pr = (size_t)piv[k];
    if (pr != k) {
      double *x = b + k * R, *y = b + pr * R;
      for (size_t j = 0; j < R; j++) { double t = x[j]; x[j] = y[j]; y[j] = t; }
    }
  }
  for (size_t i = 1; i < N; i++) { /* L y = b, unit diagonal */
    double *bi = b + i * R;
    for (size_t k = 0; k < i; k++) {
      const double l = lu[i * N + k];
      if (l == 0) continue;
      const double *bk = b + k * R;
      for (size_t j = 0; j < R; j++) bi[j] -= l * bk[j];
    }
  }
  for (size_t ii = N; ii-- > 0;) { /* U x = y */
    double *bi = b + ii * R;
    for (size_t k = ii + 1; k < N; k++) {
      const double u = lu[ii * N + k];
      if (u == 0) continue;
      const double *bk = b + k * R;
      for (size_t j = 0; j < R; j++) bi[j] -= u * bk[j];
    }
    const double d = 1.0 / lu[ii * N + ii];
    for (size_t j = 0; j < R; j++) bi[j] *= d;
  }
  return KZ_OK;
}

int kz_lu_solve(int n, const double *lu, const int *piv, double *b, kz_report *r)
{
  return kz_lu_solve_cols(n, lu, piv, 1, b, r);
}
