/* kz_ens_models.c -- the built-in pendulum models vectorised over ensemble members (kz_ens.c):
 * Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) and Sharp, Tsai & Engquist's
 * inverted pendulum (1.1), (3.4), with the formulas of kz_models_f.h (the scalar models' own).
 *
 * Speed: the member loop is innermost and carries `#pragma omp simd` (compiled with
 * -fopenmp-simd -fno-math-errno -O3, see the Makefile); sin and cos are declared with GCC's
 * simd("notinbranch") attribute, so the vectoriser calls glibc's vector math library libmvec
 * (_ZGVeN8v_sin on AVX-512, _ZGVdN4v_sin on AVX2, _ZGVbN2v_sin on SSE2). target_clones compiles
 * each loop for AVX-512, AVX2 and the x86-64 baseline and picks one when the library is loaded,
 * so the same library runs on any x86-64 machine. Accuracy: libmvec's sin and cos are within
 * 4 ulp of the exact values (glibc's documented bound), the scalar libm ones within 1 ulp: an
 * ensemble member and its scalar run differ by rounding of that size per evaluation (the
 * ensemble tests measure and bound the difference over whole runs). With one shared phase, the
 * cosine of the phase is computed once per call by libm, exactly as the scalar model does.
 * Each model also gives its Hamiltonian H(t, q, p) as a kz_ens_fn, for the ensembles' FINAL
 * observer (kz_ens_obs.c): the energy whose equations q' = p, p' = -dH/dq are the model's. */
#include "kz_internal.h"
#include "kz_models_f.h"

/* vector variants exist in libmvec; declaring them lets -fopenmp-simd use them without -ffast-math */
__attribute__((simd("notinbranch"))) double sin(double);
__attribute__((simd("notinbranch"))) double cos(double);

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define KZ_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KZ_CLONES
#endif

/* ---------- the vibrated pendulum ---------- */

KZ_CLONES static void pend_time(const kz_pendulum_ens *p, long long m0, int M, double t,
                                const double *restrict q, double *restrict a)
{
  const double *l = p->l + m0, *g = p->g + m0, *vm = p->vmax + m0, *om = p->omega + m0,
               *th = p->theta0 + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) a[m] = kz_pendulum_f(g[m], vm[m], om[m], l[m], cos(om[m] * t + th[m]), sin(q[m]));
}

KZ_CLONES static void pend_phase(const kz_pendulum_ens *p, long long m0, int M, double ct,
                                 const double *restrict q, double *restrict a)
{
  const double *l = p->l + m0, *g = p->g + m0, *vm = p->vmax + m0, *om = p->omega + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) a[m] = kz_pendulum_f(g[m], vm[m], om[m], l[m], ct, sin(q[m]));
}

KZ_CLONES static void pend_lift(const kz_pendulum_ens *p, long long m0, int M, double st,
                                const double *restrict Y, double *restrict y)
{
  const double *l = p->l + m0, *vm = p->vmax + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) {
    y[m] = Y[m];
    y[M + m] = kz_pendulum_lift(Y[M + m], vm[m], l[m], st, sin(Y[m]));
  }
}

static int pend_accel(void *par, long long m0, int M, double t, const double *q, double *a)
{
  pend_time(par, m0, M, t, q, a);
  return KZ_OK;
}

static int pend_phase_accel(void *par, long long m0, int M, double theta, const double *q, double *a)
{
  pend_phase(par, m0, M, cos(theta), q, a);
  return KZ_OK;
}

static int pend_recon(void *par, long long m0, int M, double theta, const double *Y, double *y)
{
  pend_lift(par, m0, M, sin(theta), Y, y);
  return KZ_OK;
}

/* H = p^2 / 2 + l^-1 (g + vmax omega cos(omega t + theta0)) cos q: p' = -dH/dq is (2.9) */
KZ_CLONES static void pend_energy(const kz_pendulum_ens *p, long long m0, int M, double t,
                                  const double *restrict y, double *restrict out)
{
  const double *l = p->l + m0, *g = p->g + m0, *vm = p->vmax + m0, *om = p->omega + m0,
               *th = p->theta0 + m0;
#pragma omp simd
  for (int m = 0; m < M; m++)
    out[m] = 0.5 * y[M + m] * y[M + m] + (g[m] + vm[m] * om[m] * cos(om[m] * t + th[m])) * cos(y[m]) / l[m];
}

int kz_pendulum_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y, double *out)
{
  pend_energy(par, m0, M, t, y, out);
  return KZ_OK;
}

/* the vector width (doubles) the clones use on this machine */
static int width(void)
{
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 8;
  if (__builtin_cpu_supports("avx2")) return 4;
  return 2;
#else
  return 1;
#endif
}

static int check_array(const double *x, long long M, int positive, const char *name, kz_report *r)
{
  if (!x) return kz_bad(r, KZ_ENULL, name);
  for (long long m = 0; m < M; m++) KZ_TRY(kz_check_num(r, x[m], name, positive));
  return KZ_OK;
}

static int shared(const double *x, long long M)
{
  for (long long m = 1; m < M; m++)
    if (x[m] != x[0]) return 0;
  return 1;
}

int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  KZ_TRY(check_array(p->l, M, 1, "l", r));
  KZ_TRY(check_array(p->g, M, 0, "g", r));
  KZ_TRY(check_array(p->vmax, M, 0, "vmax", r));
  KZ_TRY(check_array(p->omega, M, 1, "omega", r));
  KZ_TRY(check_array(p->theta0, M, 0, "theta0", r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = pend_accel, .par = (void *)p,
                    .width = width(), .even_in_theta = 1};
  *e = v;
  if (shared(p->omega, M) && shared(p->theta0, M)) {
    e->phase_accel = pend_phase_accel, e->reconstruct = pend_recon;
    e->omega = p->omega[0], e->theta0 = p->theta0[0];
  }
  return KZ_OK;
}

/* ---------- the inverted pendulum of Sharp, Tsai & Engquist ---------- */

KZ_CLONES static void ste_time(const kz_ste_ens *p, long long m0, int M, double t,
                               const double *restrict q, double *restrict a)
{
  const double *eps = p->eps + m0, *g = p->g + m0, *l = p->l + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) a[m] = kz_ste_f(g[m], eps[m], l[m], sin(kz_ste_phase(t, eps[m])), sin(q[m]));
}

KZ_CLONES static void ste_phase(const kz_ste_ens *p, long long m0, int M, double st,
                                const double *restrict q, double *restrict a)
{
  const double *eps = p->eps + m0, *g = p->g + m0, *l = p->l + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) a[m] = kz_ste_f(g[m], eps[m], l[m], st, sin(q[m]));
}

KZ_CLONES static void ste_rec(const kz_ste_ens *p, long long m0, int M, double ct,
                              const double *restrict Y, double *restrict y)
{
  const double *l = p->l + m0;
#pragma omp simd
  for (int m = 0; m < M; m++) {
    y[m] = Y[m];
    y[M + m] = kz_ste_recon(Y[M + m], l[m], sin(Y[m]), ct);
  }
}

/* H = p^2 / 2 + l^-1 (g + eps^-1 sin theta) cos q at the phase theta of t: p' = -dH/dq is (1.1) */
KZ_CLONES static void ste_energy(const kz_ste_ens *p, long long m0, int M, double t,
                                 const double *restrict y, double *restrict out)
{
  const double *eps = p->eps + m0, *g = p->g + m0, *l = p->l + m0;
#pragma omp simd
  for (int m = 0; m < M; m++)
    out[m] = 0.5 * y[M + m] * y[M + m] + (g[m] + sin(kz_ste_phase(t, eps[m])) / eps[m]) * cos(y[m]) / l[m];
}

int kz_ste_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y, double *out)
{
  ste_energy(par, m0, M, t, y, out);
  return KZ_OK;
}

static int ste_accel(void *par, long long m0, int M, double t, const double *q, double *a)
{
  ste_time(par, m0, M, t, q, a);
  return KZ_OK;
}

static int ste_phase_accel(void *par, long long m0, int M, double theta, const double *q, double *a)
{
  ste_phase(par, m0, M, sin(theta), q, a);
  return KZ_OK;
}

static int ste_recon(void *par, long long m0, int M, double theta, const double *Y, double *y)
{
  ste_rec(par, m0, M, cos(theta), Y, y);
  return KZ_OK;
}

int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  KZ_TRY(check_array(p->eps, M, 1, "eps", r));
  KZ_TRY(check_array(p->g, M, 0, "g", r));
  KZ_TRY(check_array(p->l, M, 1, "l", r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = ste_accel, .par = (void *)p, .width = width()};
  *e = v;
  if (shared(p->eps, M)) {
    e->phase_accel = ste_phase_accel, e->reconstruct = ste_recon;
    e->omega = 2 * KZ_PI / p->eps[0], e->theta0 = 0.0;
  }
  return KZ_OK;
}
