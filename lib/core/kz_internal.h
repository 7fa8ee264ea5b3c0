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
static inline int kz_check_vec(kz_report *r, const double *x, long long n, const char *param)
{
  if (!x) return kz_bad(r, KZ_ENULL, param);
  for (long long i = 0; i < n; i++)
    if (!isfinite(x[i])) return kz_bad(r, KZ_ENONFINITE, param);
  return KZ_OK;
}
/* 1 if all n numbers are finite. */
static inline int kz_all_finite(const double *x, int n)
{
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}
/* round(x/y) when x/y is within a relative 1e-9 of an integer >= 1, else -1. */
long long kz_ratio_int(double x, double y);

/* f(t, y) of a system that passed kz_step_check: rhs, or (v, accel(t, q)) in the second-order
 * form. Counts one evaluation; returns the function's status without touching the report's
 * diagnostics (for attempts that a controller may reject). */
static inline int kz_eval_quiet(const kz_sys *s, double t, const double *y, double *f,
                                kz_report *r)
{
  if (r) r->force_evals++;
  if (s->rhs) return s->rhs(s->par, t, y, f);
  const int nq = s->nq;
  for (int i = 0; i < nq; i++) f[i] = y[nq + i];
  return s->accel(s->par, t, y, f + nq);
}
/* The same, a failure naming "rhs" or "accel" with the time. */
static inline int kz_eval(const kz_sys *s, double t, const double *y, double *f, kz_report *r)
{
  int st = kz_eval_quiet(s, t, y, f, r);
  return st == KZ_OK ? KZ_OK : kz_fail(r, st, s->rhs ? "rhs" : "accel", -1, t);
}
/* The force a(t, q) of the second-order form; counts one evaluation. */
static inline int kz_eval_accel(const kz_sys *s, double t, const double *q, double *a,
                                kz_report *r)
{
  if (r) r->force_evals++;
  int st = s->accel(s->par, t, q, a);
  return st == KZ_OK ? KZ_OK : kz_fail(r, st, "accel", -1, t);
}

/* kz_step.c: n unchecked steps of T from t on y with caller workspace (kz_step_work doubles
 * plus 2 dim for the FSAL chain when T->fsal); no restore. On failure r->fail_step is the
 * index of the failed step. The loops of every method go through it. */
int kz_steps(const kz_step_type *T, const kz_sys *s, double t, double h, long long n, double *y,
             double *work, kz_report *r);
/* Workspace kz_steps needs. */
size_t kz_steps_work(const kz_step_type *T, int dim);
/* One run of kz_steps taken in pieces (an ensemble stops between pieces to observe its members):
 * steps k0 .. k0 + n - 1 of the run from t, step k at t + k h exactly as one kz_steps call
 * would take them, the FSAL chain (f at the current state when T->fsal) kept in ch across the
 * pieces; zero *ch before the first piece. Workspace as kz_steps. */
typedef struct kz_chain { double *f, *g; int primed; } kz_chain;
int kz_steps_piece(const kz_step_type *T, const kz_sys *s, double t, long long k0, double h,
                   long long n, double *y, double *work, kz_chain *ch, kz_report *r);

/* kz_step_dp5.c: the Dormand-Prince tableau, shared by the registry step and the ode45
 * controller. One attempted step from (t, y) with k[0] = f(t, y) given (k[0] is only read):
 * fills k[1..6] and ynew, with k[6] = f(t + h, ynew). Returns the status of a failed
 * evaluation, or KZ_EDIVERGED for a non-finite ynew, with *why_param ("rhs" or "y") and *why_t
 * (the time); the report's diagnostics are NOT written (in ode45 a failed attempt is only a
 * rejected step). Counts the evaluations done. */
int kz_dp5_attempt(const kz_sys *s, double t, double h, const double *y, double *const k[7],
                   double *tmp, double *ynew, const char **why_param, double *why_t,
                   kz_report *r);
/* The error estimate per unit step of the last attempt: sum_j E_j k_j[i] (5th minus 4th
 * order weights), for i = 0..n-1 into err. */
void kz_dp5_error(int n, double *const k[7], double *err);
/* y(t + s h) by the continuous extension ntrp45. */
void kz_dp5_interp(int n, const double *y, double *const k[7], double h, double s, double *out);

/* kz_step_verlet.c, kz_step_rk4.c: the HMM window's forward and backward legs of one degree of
 * freedom (the second-order form, 1 <= cnt, lo + cnt <= 2) run together, bt 2 n doubles; see
 * there. kz_step_legs2 gives T's, or NULL. */
typedef int (*kz_legs2_fn)(const kz_sys *s, double h, long long n, double *y, double *f,
                           const double *w, int lo, int cnt, double *acc, double *bt, kz_report *r);
int kz_verlet_legs2(const kz_sys *s, double h, long long n, double *y, double *f, const double *w,
                    int lo, int cnt, double *acc, double *bt, kz_report *r);
int kz_rk4_legs2(const kz_sys *s, double h, long long n, double *y, double *f, const double *w,
                 int lo, int cnt, double *acc, double *bt, kz_report *r);
static inline kz_legs2_fn kz_step_legs2(const kz_step_type *T)
{
  return T == kz_step_verlet ? kz_verlet_legs2 : T == kz_step_rk4 ? kz_rk4_legs2 : NULL;
}

#define KZ_TRY(expr) do { int kz_st_ = (expr); if (kz_st_ != KZ_OK) return kz_st_; } while (0)
#define KZ_PI 3.14159265358979323846
/* The hot loops of the explicit steppers and the HMM's window run over all dim numbers -- for an
 * ensemble (kz_ens.c) that is every member's component: they are compiled once per vector ISA
 * (AVX-512, AVX2, the x86-64 baseline) at -O3 and one clone is chosen when the library loads.
 * The arithmetic is the same in every clone (ISO C mode: no contraction into FMA; no reduction is
 * reordered), so results do not depend on the clone, only the speed does. Off under the
 * sanitizers and in unoptimised builds. */
#if defined(__x86_64__) && defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define KZ_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default"), optimize("O3")))
#else
#define KZ_VECTOR_CLONES
#endif

#endif
