/* kz_kernel.c -- averaging kernels K on (-1, 1), even, unit mass, and their discrete weights on a
 * micro grid: uniform and exponential (Calvo & Sanz-Serna (2.12)-(2.13); Engquist & Tsai 2005,
 * Sec. 2), the same exponential as (3.5) of Sharp, Tsai & Engquist in the variable u = x/2 on
 * (-1/2, 1/2) (their printed constant 422.11 is 2 C1 to four digits: 2 C1 = 422.1508), cosine,
 * and Fredbo's K^exp(1) (= the exponential) and K^exp(2) (Fig. 3). The exponential constants are
 * computed numerically: the shapes are C-infinity with every derivative zero at +-1, so the
 * trapezoidal rule converges faster than any power of the grid size; 2^14 panels give C to
 * round-off. */
#include "kz_internal.h"
#include <limits.h>

static double kernel_shape(int kind, double x)
{
  double ax = fabs(x);
  if (ax >= 1) return kind == KZ_KERNEL_UNIFORM && ax == 1 ? 1.0 : 0.0;
  switch (kind) {
  case KZ_KERNEL_UNIFORM: return 1.0;
  case KZ_KERNEL_EXPONENTIAL: return exp(5.0 / (x * x - 1.0));
  case KZ_KERNEL_COSINE: return 0.5 * (1.0 + cos(KZ_PI * x));
  case KZ_KERNEL_EXP2: return exp(5.0 / (4.0 * (x * x - 1.0)));
  default: return NAN;
  }
}

/* int_{-1}^{1} x^k shape(x) dx by the trapezoidal rule on 2^14 panels (exact to round-off for
 * the smooth compactly supported shapes, exact for the uniform one, which is a polynomial:
 * there the end points enter with weight 1/2 as the rule requires). */
static double shape_moment(int kind, int k)
{
  const int m = 1 << 14;
  const double dx = 2.0 / m;
  double s = 0;
  for (int j = 0; j <= m; j++) {
    double x = -1.0 + j * dx;
    double w = (j == 0 || j == m) ? 0.5 : 1.0;
    s += w * pow(x, k) * kernel_shape(kind, x);
  }
  return s * dx;
}

double kz_kernel_constant(int kind)
{
  if (kind < 0 || kind >= KZ_KERNEL_END) return NAN;
  if (kind == KZ_KERNEL_UNIFORM) return 0.5;
  if (kind == KZ_KERNEL_COSINE) return 1.0;
  return 1.0 / shape_moment(kind, 0);
}

double kz_kernel_value(int kind, double x)
{
  if (kind < 0 || kind >= KZ_KERNEL_END || !isfinite(x)) return NAN;
  if (fabs(x) > 1 || (fabs(x) == 1 && kind != KZ_KERNEL_UNIFORM)) return 0.0;
  return kz_kernel_constant(kind) * kernel_shape(kind, x);
}

double kz_kernel_moment(int kind, int k)
{
  if (kind < 0 || kind >= KZ_KERNEL_END || k < 0) return NAN;
  if (kind == KZ_KERNEL_UNIFORM) return (k % 2) ? 0.0 : 1.0 / (k + 1);
  return kz_kernel_constant(kind) * shape_moment(kind, k);
}

int kz_kernel_weights(int kind, long long n, int half, double constant, double *w,
                      kz_report *r)
{
  if (!w) return kz_bad(r, KZ_ENULL, "w");
  if (kind < 0 || kind >= KZ_KERNEL_END) return kz_bad(r, KZ_EDOMAIN, "kernel");
  if (n < 1 || n > (LLONG_MAX - 1) / 2) return kz_bad(r, KZ_EDOMAIN, "n"); /* 2n + 1 weights */
  KZ_TRY(kz_check_num(r, constant, "kernel_constant", 0));
  if (constant < 0) return kz_bad(r, KZ_EDOMAIN, "kernel_constant");
  const long long lo = half ? 0 : -n, count = half ? n + 1 : 2 * n + 1;
  double sum = 0;
  for (long long i = 0; i < count; i++) {
    long long j = lo + i;
    double x = (double)j / (double)n;
    double v = (fabs(x) == 1.0) ? 0.5 * kernel_shape(kind, x) : kernel_shape(kind, x);
    if (half && j == 0) v *= 0.5; /* end point of [0, eta/2] */
    w[i] = v;
    sum += v;
  }
  if (!(sum > 0)) return kz_bad(r, KZ_EDOMAIN, "n");
  if (constant > 0) { /* K = constant * shape as printed: w_j = K(x_j) / n, doubled on a half */
    const double c = (half ? 2.0 : 1.0) * constant / (double)n;
    for (long long i = 0; i < count; i++) w[i] *= c;
    return KZ_OK;
  }
  for (long long i = 0; i < count; i++) w[i] /= sum;
  return KZ_OK;
}
