/* kz_lsq.c -- small dense least-squares solves for the reconstruction step of the slow-variable
 * HMM (Fredbo, Alg. 3 step 3a and Alg. 4 step 4a: "solve grad xi . delta_n = d/dt xi with least
 * squares"; Ariel, Engquist & Tsai 2009). The systems there are under-determined (4 equations,
 * 5 free unknowns), so "least squares" must pick one solution (notes A7, addendum 2):
 *  - KZ_LSQ_MINNORM: the minimum-norm least-squares solution J^+ b, by the SVD of J computed with
 *    one-sided Jacobi rotations (Hestenes) on the columns of J^T, i.e. on the rows of J: the
 *    rotations are invariant under row scaling of J, so a tiny but informative gradient row
 *    (grad xi3 = 2 (Pi1, Pi2, 0, ..) ~ 1e-5 at omega = 1e5) keeps its relative accuracy.
 *    Singular values below max(m, n) eps sigma_max are treated as zero (MATLAB's pinv).
 *  - KZ_LSQ_BASIC: the basic solution of Householder QR with column pivoting (Businger & Golub
 *    1965; LAPACK xGEQP3, MATLAB's J\b for a rectangular J): J P = Q R, rank k where
 *    |R_kk| > max(m, n) eps |R_11|, x_P = (R_11^-1 (Q^T b)_1..k, 0). At most k non-zero
 *    components, generally not the minimum-norm solution.
 * Golub & Van Loan, Matrix Computations, 4th ed., Secs. 5.4.2 (QR with column pivoting) and
 * 8.6.3 (one-sided Jacobi). Sizes are limited to 64 x 64 (the slow-variable sets are tiny). */
#include "kz_internal.h"
#include <float.h>
#include <string.h>

enum { LSQ_MAX = 64 };

size_t kz_lsq_work(int m, int n)
{
  if (m < 1 || n < 1 || m > LSQ_MAX || n > LSQ_MAX) return 0;
  /* minimum norm: A = J^T (n x m), V (m x m), sigma (m), c (m); basic: QR (m x n), norms (2 n),
   * qtb (m), perm (n) */
  const size_t a = (size_t)n * m + (size_t)m * m + 2 * (size_t)m;
  const size_t b = (size_t)m * n + 2 * (size_t)n + (size_t)m + (size_t)n;
  return a > b ? a : b;
}

/* x = J^+ b by one-sided Jacobi on A = J^T: A V = U S, J = V S U^T, J^+ = U S^-1 V^T. */
static int minnorm(int m, int n, const double *J, const double *b, double *x, int *rank,
                   double *w)
{
  double *A = w, *V = A + (size_t)n * m, *sig = V + (size_t)m * m, *c = sig + m;
  for (int i = 0; i < m; i++)    /* column i of A (n numbers, stride m) = row i of J */
    for (int j = 0; j < n; j++) A[(size_t)j * m + i] = J[(size_t)i * n + j];
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) V[(size_t)i * m + j] = i == j;
  for (int sweep = 0; sweep < 60; sweep++) {
    int rotated = 0;
    for (int p = 0; p < m - 1; p++)
      for (int q = p + 1; q < m; q++) {
        double al = 0, be = 0, ga = 0;
        for (int k = 0; k < n; k++) {
          const double ap = A[(size_t)k * m + p], aq = A[(size_t)k * m + q];
          al += ap * ap, be += aq * aq, ga += ap * aq;
        }
        if (ga == 0 || fabs(ga) <= DBL_EPSILON * sqrt(al) * sqrt(be)) continue;
        rotated = 1;
        const double zeta = (be - al) / (2 * ga);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1 + zeta * zeta));
        const double cs = 1 / sqrt(1 + t * t), sn = cs * t;
        for (int k = 0; k < n; k++) {
          const double ap = A[(size_t)k * m + p], aq = A[(size_t)k * m + q];
          A[(size_t)k * m + p] = cs * ap - sn * aq;
          A[(size_t)k * m + q] = sn * ap + cs * aq;
        }
        for (int k = 0; k < m; k++) {
          const double vp = V[(size_t)k * m + p], vq = V[(size_t)k * m + q];
          V[(size_t)k * m + p] = cs * vp - sn * vq;
          V[(size_t)k * m + q] = sn * vp + cs * vq;
        }
      }
    if (!rotated) break;
  }
  double smax = 0;
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int k = 0; k < n; k++) s += A[(size_t)k * m + i] * A[(size_t)k * m + i];
    sig[i] = sqrt(s);
    if (sig[i] > smax) smax = sig[i];
  }
  const double tol = (m > n ? m : n) * DBL_EPSILON * smax;
  int k = 0;
  for (int i = 0; i < m; i++) { /* c = S^-2 V^T b on the kept singular values (u_i = a_i / s_i) */
    c[i] = 0;
    if (!(sig[i] > tol)) continue;
    k++;
    double s = 0;
    for (int j = 0; j < m; j++) s += V[(size_t)j * m + i] * b[j];
    c[i] = s / (sig[i] * sig[i]);
  }
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < m; i++) s += A[(size_t)j * m + i] * c[i];
    x[j] = s;
  }
  if (rank) *rank = k;
  return KZ_OK;
}

/* The basic solution by Householder QR with column pivoting. */
static int basic(int m, int n, const double *J, const double *b, double *x, int *rank, double *w)
{
  double *R = w, *nrm = R + (size_t)m * n, *nrm0 = nrm + n, *qtb = nrm0 + n, *pf = qtb + m;
  memcpy(R, J, sizeof(double) * (size_t)m * n);
  memcpy(qtb, b, sizeof(double) * (size_t)m);
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < m; i++) s += R[(size_t)i * n + j] * R[(size_t)i * n + j];
    nrm[j] = nrm0[j] = sqrt(s);
    pf[j] = j;
  }
  const int kmax = m < n ? m : n;
  double r11 = 0;
  int k = 0;
  for (; k < kmax; k++) {
    int piv = k; /* the remaining column of largest norm (the first of equals, as xGEQP3) */
    for (int j = k + 1; j < n; j++)
      if (nrm[j] > nrm[piv]) piv = j;
    if (piv != k) {
      for (int i = 0; i < m; i++) {
        double t = R[(size_t)i * n + k];
        R[(size_t)i * n + k] = R[(size_t)i * n + piv];
        R[(size_t)i * n + piv] = t;
      }
      double t = nrm[k]; nrm[k] = nrm[piv]; nrm[piv] = t;
      t = nrm0[k]; nrm0[k] = nrm0[piv]; nrm0[piv] = t;
      t = pf[k]; pf[k] = pf[piv]; pf[piv] = t;
    }
    double s = 0; /* the Householder reflector of column k, rows k..m-1 */
    for (int i = k; i < m; i++) s += R[(size_t)i * n + k] * R[(size_t)i * n + k];
    const double alpha = sqrt(s);
    if (k == 0) r11 = alpha;
    if (!(alpha > (m > n ? m : n) * DBL_EPSILON * r11) || alpha == 0) break;
    const double akk = R[(size_t)k * n + k], beta = akk >= 0 ? -alpha : alpha;
    const double v0 = akk - beta; /* v = (v0, R[k+1..m-1][k]), H = I - v v^T / (v0 * -beta)... */
    const double tau = -v0 / beta; /* H = I - tau u u^T with u = v / v0 */
    for (int i = k + 1; i < m; i++) R[(size_t)i * n + k] /= v0;
    R[(size_t)k * n + k] = beta;
    for (int j = k + 1; j < n; j++) { /* apply H to the remaining columns */
      double d = R[(size_t)k * n + j];
      for (int i = k + 1; i < m; i++) d += R[(size_t)i * n + k] * R[(size_t)i * n + j];
      d *= tau;
      R[(size_t)k * n + j] -= d;
      for (int i = k + 1; i < m; i++) R[(size_t)i * n + j] -= d * R[(size_t)i * n + k];
    }
    double d = qtb[k]; /* and to b */
    for (int i = k + 1; i < m; i++) d += R[(size_t)i * n + k] * qtb[i];
    d *= tau;
    qtb[k] -= d;
    for (int i = k + 1; i < m; i++) qtb[i] -= d * R[(size_t)i * n + k];
    for (int j = k + 1; j < n; j++) { /* downdate the column norms (recompute when inaccurate) */
      if (nrm[j] == 0) continue;
      const double rk = R[(size_t)k * n + j] / nrm[j];
      double f = 1 - rk * rk;
      if (f < 0) f = 0;
      const double ratio = nrm[j] / nrm0[j];
      if (f * ratio * ratio <= sqrt(DBL_EPSILON)) {
        double s2 = 0;
        for (int i = k + 1; i < m; i++) s2 += R[(size_t)i * n + j] * R[(size_t)i * n + j];
        nrm[j] = nrm0[j] = sqrt(s2);
      } else {
        nrm[j] *= sqrt(f);
      }
    }
  }
  /* back substitution R_11 z = (Q^T b)_1..k; x_perm = (z, 0) */
  for (int j = 0; j < n; j++) x[j] = 0;
  for (int i = k - 1; i >= 0; i--) {
    double s = qtb[i];
    for (int j = i + 1; j < k; j++) s -= R[(size_t)i * n + j] * qtb[j];
    qtb[i] = s / R[(size_t)i * n + i];
  }
  for (int i = 0; i < k; i++) x[(int)pf[i]] = qtb[i];
  if (rank) *rank = k;
  return KZ_OK;
}

int kz_lsq_solve(int kind, int m, int n, const double *J, const double *b, double *x, int *rank,
                 double *work, kz_report *r)
{
  if (kind != KZ_LSQ_MINNORM && kind != KZ_LSQ_BASIC) return kz_bad(r, KZ_EDOMAIN, "kind");
  if (m < 1 || m > LSQ_MAX) return kz_bad(r, KZ_EDOMAIN, "m");
  if (n < 1 || n > LSQ_MAX) return kz_bad(r, KZ_EDOMAIN, "n");
  KZ_TRY(kz_check_vec(r, J, (long long)m * n, "J"));
  KZ_TRY(kz_check_vec(r, b, m, "b"));
  if (!x) return kz_bad(r, KZ_ENULL, "x");
  if (!work) return kz_bad(r, KZ_ENULL, "work");
  return kind == KZ_LSQ_MINNORM ? minnorm(m, n, J, b, x, rank, work) : basic(m, n, J, b, x, rank, work);
}
