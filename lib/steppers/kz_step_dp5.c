/* kz_step_dp5.c -- the Dormand-Prince 5(4) embedded pair (Dormand & Prince 1980; Hairer, Norsett
 * & Wanner I, Table II.5.2). The registry step advances with the 5th-order solution (the
 * constant-step macro-solver "DP5" of Calvo, Chartier, Murua & Sanz-Serna, Sec. 5.2: "the
 * underlying 5th order RK method implemented with constant step-size"); its 7th stage is the
 * next step's first (fsal). The tableau, the attempt, the error estimate and the continuous
 * extension ntrp45 are shared with the ode45 controller (kz_ode45.c). */
#include "kz_internal.h"
#include <string.h>

static const double C2 = 1.0 / 5, C3 = 3.0 / 10, C4 = 4.0 / 5, C5 = 8.0 / 9;
static const double A21 = 1.0 / 5;
static const double A31 = 3.0 / 40, A32 = 9.0 / 40;
static const double A41 = 44.0 / 45, A42 = -56.0 / 15, A43 = 32.0 / 9;
static const double A51 = 19372.0 / 6561, A52 = -25360.0 / 2187, A53 = 64448.0 / 6561,
                    A54 = -212.0 / 729;
static const double A61 = 9017.0 / 3168, A62 = -355.0 / 33, A63 = 46732.0 / 5247,
                    A64 = 49.0 / 176, A65 = -5103.0 / 18656;
static const double B1 = 35.0 / 384, B3 = 500.0 / 1113, B4 = 125.0 / 192, B5 = -2187.0 / 6784,
                    B6 = 11.0 / 84;
/* E = b - bhat (5th minus 4th order weights) */
static const double E1 = 71.0 / 57600, E3 = -71.0 / 16695, E4 = 71.0 / 1920,
                    E5 = -17253.0 / 339200, E6 = 22.0 / 525, E7 = -1.0 / 40;
/* ntrp45: y(t + s h) = y + h sum_j k_j (BI[j] . (s, s^2, s^3, s^4)) */
static const double BI[7][4] = {
  {1.0, -183.0 / 64, 37.0 / 12, -145.0 / 128},
  {0, 0, 0, 0},
  {0, 1500.0 / 371, -1000.0 / 159, 1000.0 / 371},
  {0, -125.0 / 32, 125.0 / 12, -375.0 / 64},
  {0, 9477.0 / 3392, -729.0 / 106, 25515.0 / 6784},
  {0, -11.0 / 7, 11.0 / 3, -55.0 / 28},
  {0, 3.0 / 2, -4.0, 5.0 / 2},
};

int kz_dp5_attempt(const kz_sys *s, double t, double h, const double *y, double *const k[7],
                   double *tmp, double *ynew, const char **why_param, double *why_t,
                   kz_report *r)
{
  const int n = s->dim;
  int st;
#define DP_STAGE(idx, cc, EXPR)                                                  \
  for (int i = 0; i < n; i++) tmp[i] = y[i] + h * (EXPR);                        \
  st = kz_eval_quiet(s, t + (cc) * h, tmp, k[idx], r);                           \
  if (st != KZ_OK) { *why_param = "rhs"; *why_t = t + (cc) * h; return st; }
  DP_STAGE(1, C2, A21 * k[0][i])
  DP_STAGE(2, C3, A31 * k[0][i] + A32 * k[1][i])
  DP_STAGE(3, C4, A41 * k[0][i] + A42 * k[1][i] + A43 * k[2][i])
  DP_STAGE(4, C5, A51 * k[0][i] + A52 * k[1][i] + A53 * k[2][i] + A54 * k[3][i])
  DP_STAGE(5, 1.0, A61 * k[0][i] + A62 * k[1][i] + A63 * k[2][i] + A64 * k[3][i] + A65 * k[4][i])
#undef DP_STAGE
  for (int i = 0; i < n; i++) {
    ynew[i] = y[i] + h * (B1 * k[0][i] + B3 * k[2][i] + B4 * k[3][i] + B5 * k[4][i] +
                          B6 * k[5][i]);
    if (!isfinite(ynew[i])) { *why_param = "y"; *why_t = t + h; return KZ_EDIVERGED; }
  }
  st = kz_eval_quiet(s, t + h, ynew, k[6], r);
  if (st != KZ_OK) { *why_param = "rhs"; *why_t = t + h; return st; }
  return KZ_OK;
}

void kz_dp5_error(int n, double *const k[7], double *err)
{
  for (int i = 0; i < n; i++)
    err[i] = E1 * k[0][i] + E3 * k[2][i] + E4 * k[3][i] + E5 * k[4][i] + E6 * k[5][i] +
             E7 * k[6][i];
}

void kz_dp5_interp(int n, const double *y, double *const k[7], double h, double s, double *out)
{
  const double p[4] = {s, s * s, s * s * s, s * s * s * s};
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int j = 0; j < 7; j++) {
      if (j == 1) continue;
      acc += k[j][i] * (BI[j][0] * p[0] + BI[j][1] * p[1] + BI[j][2] * p[2] + BI[j][3] * p[3]);
    }
    out[i] = y[i] + h * acc;
  }
}

/* work: k[0..6], tmp, ynew */
static size_t dp5_work(int dim) { return 9 * (size_t)dim; }

static int dp5_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                     double *f_out, double *work, kz_report *r)
{
  const int n = s->dim;
  double *k[7];
  for (int j = 0; j < 7; j++) k[j] = work + (size_t)j * n;
  if (f_in) k[0] = (double *)f_in; /* only read by the attempt */
  else KZ_TRY(kz_eval(s, t, y, k[0], r));
  if (f_out) k[6] = f_out;
  double *tmp = work + 7 * (size_t)n, *ynew = work + 8 * (size_t)n;
  const char *why = NULL;
  double wt = t;
  int st = kz_dp5_attempt(s, t, h, y, k, tmp, ynew, &why, &wt, r);
  if (st != KZ_OK) return kz_fail(r, st, why, -1, wt);
  memcpy(y, ynew, sizeof(double) * (size_t)n);
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_dp5_type = {
  "dp5", "Dormand-Prince 5(4), the 5th-order solution (Hairer, Norsett & Wanner I, II.5)", 5, 0,
  KZ_NEEDS_RHS, 1, 6, dp5_work, dp5_apply, NULL,
};
const kz_step_type *const kz_step_dp5 = &kz_step_dp5_type;
