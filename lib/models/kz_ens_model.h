/* kz_ens_model.h -- the library's vectorised ensembles built from a model's one source (the
 * adapters kz_pendulum_ens.c, kz_ste_ens.c; kz_ens.c runs them): KZ_ENS_LOOP calls the model's
 * scalar function (pendulum.c's force, ...) member by member inside a member loop that the
 * compiler vectorises, the way the member loops lib/lua/kapitza/usermodel.lua generates for a user's C
 * model do (ensemble.lua's ens.user), so that a member computes what its scalar run computes,
 * operation for operation (only the sines and cosines may come from the vector math library).
 *
 * Speed: the member loop is innermost and carries `#pragma omp simd` (the adapters are compiled
 * with -fopenmp-simd -fno-math-errno -O3, see the Makefile); sin and cos are declared with GCC's
 * simd("notinbranch") attribute, so the vectoriser calls glibc's vector math library libmvec
 * (_ZGVeN8v_sin on AVX-512, _ZGVdN4v_sin on AVX2, _ZGVbN2v_sin on SSE2). target_clones compiles
 * each loop for AVX-512, AVX2 and the x86-64 baseline and picks one when the library is loaded,
 * so the same library runs on any x86-64 machine. Accuracy: libmvec's sin and cos are within
 * 4 ulp of the exact values (glibc's documented bound), the scalar libm ones within 1 ulp: an
 * ensemble member and its scalar run differ by rounding of that size per evaluation (the
 * ensemble tests measure and bound the difference over whole runs). A function of the shared
 * phase alone (the cosine of the phase in the phase form) does not depend on the member: -O3
 * computes it once per call, by libm, exactly as the scalar model does.
 * Include after kz_internal.h, the kz_par typedef, kz_model.h and the model's source. */
#ifndef KZ_ENS_MODEL_H
#define KZ_ENS_MODEL_H

/* vector variants exist in libmvec; declaring them lets -fopenmp-simd use them without -ffast-math */
__attribute__((simd("notinbranch"))) double sin(double);
__attribute__((simd("notinbranch"))) double cos(double);

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define KZ_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KZ_CLONES
#endif

/* One member m of an ensemble function: its parameters p, its nin inputs gathered from y (stride
 * M), the model's F(&p, arg, x, o), its nout outputs scattered into f; NaN where F leaves one
 * unset or refuses (kz_ens flags and freezes that member, the others go on). Inlined into the
 * member loop, so that the loop's body declares no variable of its own (the vectoriser then
 * treats the loop as the hand-written member loops it replaces: 8, then 4, then one member at a
 * time on AVX-512; an invariant of the shared phase computed once, by libm). */
typedef int (*kz_ens_member_fn)(const kz_par *p, double arg, const double *x, double *o);
static inline __attribute__((always_inline)) void kz_ens_member(kz_ens_member_fn F, const kz_par p, double arg,
                                                                const double *y, double *f, int M, int m, int nin,
                                                                int nout)
{
  double x[4], o[4];
  for (int i = 0; i < nin; i++) x[i] = y[i * M + m];
  for (int i = 0; i < nout; i++) o[i] = NAN;
  const int st = F(&p, arg, x, o);
  for (int i = 0; i < nout; i++) f[i * M + m] = st == KZ_OK ? o[i] : NAN;
}

/* The body of a kz_ens_fn (members m0 .. m0 + M - 1; y and f with stride M, restrict): the member
 * loop calling the model's F (NIN inputs, NOUT outputs, at most 4 each) with ARG (the time or phase
 * argument: an expression of t or theta and the member's parameters) on the member's parameters
 * kz_par { __VA_ARGS__ } (its entries of the parameter arrays, index m). */
#define KZ_ENS_LOOP(F, ARG, NIN, NOUT, ...)                                                         \
  _Pragma("omp simd")                                                                               \
  for (int m = 0; m < M; m++) kz_ens_member(F, (kz_par){__VA_ARGS__}, ARG, y, f, M, m, NIN, NOUT); \
  return KZ_OK

/* The kz_ens_fn NAME (t: the time, or the shared phase of the phase form) looping over F with
 * KZ_ENS_LOOP, after the adapter's PARAMS (its parameter arrays from member m0 on, as pointers)
 * on the member's MEMBER (its kz_par initialiser, index m), both macros of the adapter. */
#define KZ_ENS_FN(NAME, F, ARG, NIN, NOUT)                                                          \
  KZ_CLONES static int NAME(void *par, long long m0, int M, double t, const double *restrict y,      \
                            double *restrict f)                                                     \
  {                                                                                                 \
    PARAMS;                                                                                         \
    KZ_ENS_LOOP(F, ARG, NIN, NOUT, MEMBER);                                                         \
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

/* An ensemble's arguments: e and the parameters p (named what) given, M >= 1, and the n parameter
 * arrays a[i] of M values each given and finite, > 0 where positive[i] is set (named names[i]) */
static int check_args(const kz_ens *e, const void *p, const char *what, long long M, const double *const *a,
                      const char *const *names, const int *positive, int n, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (!p) return kz_bad(r, KZ_ENULL, what);
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  for (int i = 0; i < n; i++) {
    if (!a[i]) return kz_bad(r, KZ_ENULL, names[i]);
    for (long long m = 0; m < M; m++) KZ_TRY(kz_check_num(r, a[i][m], names[i], positive[i]));
  }
  return KZ_OK;
}

/* 1 if the M values are all the same */
static int shared(const double *x, long long M)
{
  for (long long m = 1; m < M; m++)
    if (x[m] != x[0]) return 0;
  return 1;
}

#endif
