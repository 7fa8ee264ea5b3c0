/* kz_lapack.h -- the two LAPACK routines the library calls (private; no LAPACKE needed).
 * Reference: E. Anderson et al., LAPACK Users' Guide, 3rd ed. (SIAM 1999): DGETRF (LU with
 * partial pivoting, blocked, right-looking) and DGETRS (solve with its factors). Fortran calling
 * convention: every argument by reference, column-major arrays, 1-based pivot indices, and (the
 * gfortran ABI) one hidden length argument per CHARACTER argument, passed by value at the end.
 * Linked with -llapack (Debian liblapack-dev: the reference implementation, or OpenBLAS through
 * the liblapack.so.3 alternative). */
#ifndef KZ_LAPACK_H
#define KZ_LAPACK_H
#include <stddef.h>

void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, size_t trans_len);

#endif
