/* kz_step.c -- the stepper registry and the drivers every method integrates with.
 *
 * In the manner of GSL's odeiv2 (gsl_odeiv2_step_type): each one-step method is a const
 * kz_step_type in its own file kz_step_<name>.c, exported as a pointer; this file holds the one
 * table of them, the capability check (kz_step_check), and the loops: kz_steps (unchecked,
 * shared by the methods), kz_run and kz_trajectory (checked, restoring the state on failure).
 * Steppers with fsal = 1 (velocity Verlet, Dormand-Prince) hand f(t + h, y_new) to the next
 * step as its f(t, y), so a run of n steps costs n + 1 evaluations (Verlet) or 6 n + 1 (DP5). */
#include "kz_internal.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

extern const kz_step_type kz_step_euler_type, kz_step_symeuler_type, kz_step_verlet_type,
    kz_step_leapfrog_type, kz_step_rk4_type, kz_step_strang_type, kz_step_dp5_type;
extern const kz_step_type kz_step_shake_type, kz_step_rattle_type, kz_step_herk3_type;
extern const kz_step_type kz_step_ve_type; /* Fredbo (35) */

static const kz_step_type *const registry[] = {
  &kz_step_euler_type,    &kz_step_symeuler_type, &kz_step_verlet_type, &kz_step_leapfrog_type,
  &kz_step_rk4_type,      &kz_step_strang_type,   &kz_step_dp5_type,
  &kz_step_shake_type,    &kz_step_rattle_type,   &kz_step_herk3_type,
  &kz_step_ve_type,
};
static const int n_registry = (int)(sizeof registry / sizeof registry[0]);

int kz_step_count(void) { return n_registry; }

const kz_step_type *kz_step_at(int i) { return (i >= 0 && i < n_registry) ? registry[i] : NULL; }

const kz_step_type *kz_step_find(const char *name)
{
  if (!name) return NULL;
  for (int i = 0; i < n_registry; i++)
    if (strcmp(registry[i]->name, name) == 0) return registry[i];
  return NULL;
}

size_t kz_step_work(const kz_step_type *T, int dim)
{
  if (!T || !T->work || dim < 1) return 0;
  return T->work(dim);
}

int kz_step_check(const kz_step_type *T, const kz_sys *s, kz_report *r)
{
  if (!T || !T->apply || !T->work) return kz_bad(r, KZ_ENULL, "stepper");
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  const int second = s->accel && s->nq > 0;
  if (s->nq < 0 || (s->nq > 0 && 2 * s->nq != s->dim)) return kz_bad(r, KZ_EDOMAIN, "nq");
  if ((T->needs & KZ_NEEDS_RHS) && !s->rhs && !second) return kz_bad(r, KZ_EMODEL, "stepper");
  if ((T->needs & KZ_NEEDS_ACCEL) && !second) return kz_bad(r, KZ_EMODEL, "stepper");
  if ((T->needs & KZ_NEEDS_FLOWS) && !(s->flow_a && s->flow_b)) return kz_bad(r, KZ_EMODEL, "stepper");
  if (T->needs & KZ_NEEDS_CONSTRAINTS) KZ_TRY(s->con ? kz_con_check(s, r) : kz_bad(r, KZ_EMODEL, "stepper"));
  return KZ_OK;
}

size_t kz_steps_work(const kz_step_type *T, int dim)
{
  return T->work(dim) + (T->fsal ? 2 * (size_t)dim : 0);
}

/* n steps, step k starting at t + (k0 + k) h, the FSAL chain in (*f, *g) when T->fsal (*f holds
 * f at the start and, on return, at the end): the stepper's fused leg when it has one, else one
 * apply per step. On failure r->fail_step is k0 + the failed step's index. */
static int interval(const kz_step_type *T, const kz_sys *s, double t, long long k0, double h,
                    long long n, double *y, double **f, double **g, double *work, kz_report *r)
{
  int st = KZ_OK;
  if (T->fsal && T->leg) {
    st = T->leg(s, t, k0, h, n, y, *f, NULL, 0, 0, NULL, work, r);
    if (st != KZ_OK && r) r->fail_step += k0;
    return st;
  }
  for (long long k = 0; k < n; k++) {
    st = T->apply(s, t + (double)(k0 + k) * h, h, y, T->fsal ? *f : NULL, T->fsal ? *g : NULL,
                  work, r);
    if (st != KZ_OK) {
      if (r) r->fail_step = k0 + k;
      return st;
    }
    if (T->fsal) {
      double *tmp = *f;
      *f = *g;
      *g = tmp;
    }
  }
  return KZ_OK;
}

int kz_steps(const kz_step_type *T, const kz_sys *s, double t, double h, long long n, double *y,
             double *work, kz_report *r)
{
  if (n <= 0) return KZ_OK;
  double *f = work + T->work(s->dim), *g = f + s->dim;
  if (T->fsal) {
    const int st = kz_eval(s, t, y, f, r);
    if (st != KZ_OK) {
      if (r) r->fail_step = 0;
      return st;
    }
  }
  return interval(T, s, t, 0, h, n, y, &f, &g, work, r);
}

int kz_steps_piece(const kz_step_type *T, const kz_sys *s, double t, long long k0, double h,
                   long long n, double *y, double *work, kz_chain *ch, kz_report *r)
{
  if (n <= 0) return KZ_OK;
  if (!ch->f) ch->f = work + T->work(s->dim), ch->g = ch->f + s->dim;
  if (T->fsal && !ch->primed) {
    const int st = kz_eval(s, t + (double)k0 * h, y, ch->f, r);
    if (st != KZ_OK) {
      if (r) r->fail_step = k0;
      return st;
    }
    ch->primed = 1;
  }
  return interval(T, s, t, k0, h, n, y, &ch->f, &ch->g, work, r);
}

/* A step size: finite and not zero (negative integrates backward). A zero step would "succeed"
 * without advancing, which a caller never means. */
static int check_h(double h, kz_report *r)
{
  KZ_TRY(kz_check_num(r, h, "h", 0));
  return h != 0 ? KZ_OK : kz_bad(r, KZ_EDOMAIN, "h");
}

int kz_step_apply(const kz_step_type *T, const kz_sys *s, double t, double h, double *y,
                  kz_report *r)
{
  KZ_TRY(kz_step_check(T, s, r));
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(check_h(h, r));
  KZ_TRY(kz_check_vec(r, y, s->dim, "y"));
  const size_t d = (size_t)s->dim;
  double *buf = malloc(sizeof(double) * (T->work(s->dim) + d));
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *y0 = buf + T->work(s->dim);
  memcpy(y0, y, sizeof(double) * d);
  int st = T->apply(s, t, h, y, NULL, NULL, buf, r);
  if (st == KZ_OK && !kz_all_finite(y, s->dim)) {
    if (r) r->micro_steps--; /* the step did not succeed after all */
    st = kz_fail(r, KZ_EDIVERGED, "y", -1, t + h);
  }
  if (st != KZ_OK) memcpy(y, y0, sizeof(double) * d);
  free(buf);
  return st;
}

/* The n steps of an interval from y0 (step k starting at t + (k0 + k) h) gave a state that is not
 * finite: replay them one at a time from y0 (into y) to name the first step whose result is not
 * finite (or that failed on the way there), so the report says where the solution left the finite numbers, not where the interval
 * ended (kz_run is one interval of all its steps). The replay's work is not counted (the report's
 * counters are put back); when it does not find the step (a model that does not repeat itself),
 * the interval's end is reported as before. */
static int first_nonfinite(const kz_step_type *T, const kz_sys *s, double t, long long k0, double h,
                           long long n, const double *y0, double *y, double *work, kz_report *r)
{
  const int d = s->dim;
  kz_report keep;
  if (r) keep = *r;
  memcpy(y, y0, sizeof(double) * (size_t)d);
  double *f = work + T->work(d), *g = f + d;
  long long bad = -1;
  int st = T->fsal ? kz_eval(s, t + (double)k0 * h, y, f, r) : KZ_OK;
  for (long long k = 0; k < n && bad < 0; k++) {
    if (st == KZ_OK) st = interval(T, s, t, k0 + k, h, 1, y, &f, &g, work, r);
    if (st != KZ_OK || !kz_all_finite(y, d)) bad = k0 + k; /* a model may refuse NaN itself */
  }
  if (r) *r = keep;
  if (bad < 0) bad = k0 + n - 1;
  /* as a failing step is reported (interval, a fused leg): its index from 0, and the time where
   * the state was found not finite, its end */
  return kz_fail(r, KZ_EDIVERGED, "y", bad, t + (double)(bad + 1) * h);
}

int kz_trajectory(const kz_step_type *T, const kz_sys *s, double t0, double h, long long sub,
                  long long nout, double *y, double *out, kz_report *r)
{
  KZ_TRY(kz_step_check(T, s, r));
  if (sub < 1) return kz_bad(r, KZ_EDOMAIN, "sub");
  if (nout < 0 || nout > LLONG_MAX / sub) return kz_bad(r, KZ_EDOMAIN, "nout"); /* nout*sub steps */
  if (!out) return kz_bad(r, KZ_ENULL, "out");
  KZ_TRY(kz_check_num(r, t0, "t0", 0));
  KZ_TRY(check_h(h, r));
  KZ_TRY(kz_check_vec(r, y, s->dim, "y"));
  const int d = s->dim;
  const size_t nw = kz_steps_work(T, d);
  double *buf = malloc(sizeof(double) * (nw + (size_t)d));
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *y0 = buf + nw;
  memcpy(y0, y, sizeof(double) * (size_t)d);
  memcpy(out, y, sizeof(double) * (size_t)d);
  /* one chain over the whole run (step k starts at t0 + k h): a Verlet run costs n + 1
   * evaluations, not n + nout */
  double *f = buf + T->work(d), *g = f + d;
  int st = T->fsal ? kz_eval(s, t0, y, f, r) : KZ_OK;
  if (st != KZ_OK && r) r->fail_step = 0;
  for (long long j = 1; st == KZ_OK && j <= nout; j++) {
    const long long k = j * sub; /* steps done at the end of this interval */
    st = interval(T, s, t0, k - sub, h, sub, y, &f, &g, buf, r);
    if (st == KZ_OK && !kz_all_finite(y, d))
      st = sub == 1 ? kz_fail(r, KZ_EDIVERGED, "y", k - 1, t0 + (double)k * h)
                    : first_nonfinite(T, s, t0, k - sub, h, sub, out + (j - 1) * d, y, buf, r);
    if (st == KZ_OK) memcpy(out + j * d, y, sizeof(double) * (size_t)d);
  }
  if (st != KZ_OK) memcpy(y, y0, sizeof(double) * (size_t)d);
  free(buf);
  return st;
}

int kz_run(const kz_step_type *T, const kz_sys *s, double t, double h, long long n, double *y,
           kz_report *r)
{
  KZ_TRY(kz_step_check(T, s, r));
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  double *out = malloc(sizeof(double) * 2 * (size_t)s->dim);
  if (!out) return kz_bad(r, KZ_ENOMEM, "work");
  int st = kz_trajectory(T, s, t, h, n > 0 ? n : 1, n > 0 ? 1 : 0, y, out, r);
  free(out);
  return st;
}
