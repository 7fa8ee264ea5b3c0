/* kz_internal.h -- helpers shared by the library's sources; not part of the public API. */
#ifndef KZ_INTERNAL_H
#define KZ_INTERNAL_H
#include "kapitza.h"
#include <math.h>
#include <stddef.h>

/* Record a failure in the report (if any) and return the status. */
static inline int kz_fail(kz_report *r, int status, const char *param, long long step, double t)
{
  if (r) {
    r->param = param;
    r->fail_step = step;
    r->fail_time = t;
  }
  return status;
}
/* Shorthand for a bad argument with no step/time attached. */
static inline int kz_bad(kz_report *r, int status, const char *param)
{
  return kz_fail(r, status, param, -1, NAN);
}
/* Validate one scalar: finite, and > 0 when positive is set. */
static inline int kz_check_num(kz_report *r, double x, const char *param, int positive)
{
  if (!isfinite(x)) return kz_bad(r, KZ_ENONFINITE, param);
  if (positive && !(x > 0)) return kz_bad(r, KZ_EDOMAIN, param);
  return KZ_OK;
}
/* Validate n numbers: all finite. */
static inline int kz_check_vec(kz_report *r, const double *x, int n, const char *param)
{
  if (!x) return kz_bad(r, KZ_ENULL, param);
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return kz_bad(r, KZ_ENONFINITE, param);
  return KZ_OK;
}
/* round(x/y) when x/y is within a relative 1e-9 of an integer >= 1, else -1. */
long long kz_ratio_int(double x, double y);

/* kz_sam.c: the micro-solver table's stepping, shared with kz_sam_mr.c and kz_split.c (m valid). */
size_t kz_micro_work(const kz_micro *m);
int kz_micro_steps(const kz_micro *m, double t, double h, long long nsteps, double *y,
                   double *work, kz_report *r);
int kz_micro_run_restore(const kz_micro *m, double t, double h, long long nsteps, double *y,
                         kz_report *r);

#define KZ_TRY(expr) do { int kz_st_ = (expr); if (kz_st_ != KZ_OK) return kz_st_; } while (0)
#define KZ_PI 3.14159265358979323846

#endif
