/* kz_core.c -- status codes, reports, system evaluation and small shared utilities. */
#include "kz_internal.h"

static const char *const kz_messages[] = {
  "success",
  "a required pointer is NULL",
  "a number is NaN or infinite",
  "a parameter is outside its domain",
  "a window or interval is not an integer number of steps",
  "memory allocation failed",
  "an iteration did not converge",
  "the solution became non-finite",
  "a caller buffer is too small",
  "the model cannot be used with this method",
};

const char *kz_strerror(int status)
{
  if (status < 0 || status >= KZ_ESTATUS_END) return "unknown kapitza status";
  return kz_messages[status];
}

void kz_report_init(kz_report *r)
{
  if (!r) return;
  r->micro_steps = r->force_evals = r->macro_steps = 0;
  r->rejected = r->newton_iters = r->jac_evals = 0;
  r->param = NULL;
  r->fail_step = -1;
  r->fail_time = NAN;
}

long long kz_ratio_int(double x, double y)
{
  if (!isfinite(x) || !isfinite(y) || y == 0) return -1;
  double q = x / y;
  if (!(q >= 0.5) || q > 9e15) return -1;
  double n = nearbyint(q);
  if (fabs(q - n) > 1e-9 * n) return -1;
  return (long long)n;
}

long long kz_steps_in(double T, double H) { return kz_ratio_int(T, H); }

int kz_sys_eval(const kz_sys *s, double t, const double *y, double *f, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (!s->rhs && !(s->accel && s->nq > 0 && 2 * s->nq == s->dim)) return kz_bad(r, KZ_EMODEL, "rhs");
  if (!y) return kz_bad(r, KZ_ENULL, "y");
  if (!f) return kz_bad(r, KZ_ENULL, "f");
  KZ_TRY(kz_check_num(r, t, "t", 0));
  return kz_eval(s, t, y, f, r);
}
