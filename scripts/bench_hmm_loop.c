/* bench_hmm_loop.c -- the practical limit for `make bench`: two whole HMM runs written as plain C
 * loops, with the models' forces inlined, doing exactly the force evaluations and arithmetic of
 * the library's general HMM (lib/methods/kz_hmm.c) for the same settings. Compiled into a shared object
 * that scripts/bench-hmm.lua loads next to libkapitza, so both are timed in one process.
 *
 *  cs_alg2: Calvo & Sanz-Serna Algorithm 2 with simple filtering (Table 2.3): leapfrog macro,
 *           velocity Verlet micro-steps over the half window 0..eta/2 from (Q_n, 0) at phase 0.
 *  ste_v:   Sharp, Tsai & Engquist HMM-V-v: Verlet macro with two estimates per step, velocity
 *           Verlet micro-steps forward and backward over the symmetric window from the
 *           reconstruction (3.4); t_n on the grid of eps, so the phase at every window centre
 *           is 0 (the library's exact phase).
 * Both return Q_N; *evals receives the force evaluations made. */
#include <math.h>

static const double PI = 3.14159265358979323846;

double cs_alg2(long long N, double H, double omega, long long n, const double *w, double l,
               double g, double vmax, double Q0, double P0, long long *evals)
{
  const double h = 2 * PI / omega * H; /* the micro-step of Table 2.3: (2 pi/omega) H */
  double Q = Q0, Ph = 0;
  long long ev = 0;
  for (long long k = 0; k < N; k++) {
    double q = Q, v = 0, a = (g + vmax * omega * cos(0.0)) * sin(q) / l;
    double F = w[0] * a;
    ev++;
    for (long long j = 0; j < n; j++) {
      const double qn = q + h * (v + 0.5 * h * a);
      const double an = (g + vmax * omega * cos(omega * ((double)j * h + h))) * sin(qn) / l;
      v += 0.5 * h * (a + an);
      q = qn;
      a = an;
      F += w[j + 1] * a;
    }
    ev += n;
    Ph = (k == 0) ? P0 + 0.5 * H * F : Ph + H * F;
    Q = Q + H * Ph;
  }
  *evals = ev;
  return Q;
}

/* one force estimate of HMM-V-v at (Theta, Omega), phase 0 at the window centre */
static double ste_estimate(double Th, double Om, double eps, double g, double l, long long n,
                           double h, const double *w, long long *ev)
{
  const double omega = 2 * PI / eps;
  const double q0 = Th, v0 = Om - sin(Th) * cos(0.0) / (2 * PI * l);
  const double a0 = (g + sin(0.0) / eps) * sin(q0) / l;
  double F = w[0] * a0;
  (*ev)++;
  for (int leg = 0; leg < 2; leg++) {
    const double hh = leg ? -h : h;
    double q = q0, v = v0, a = a0;
    for (long long j = 0; j < n; j++) {
      const double qn = q + hh * (v + 0.5 * hh * a);
      const double an = (g + sin(0.0 + omega * ((double)j * hh + hh)) / eps) * sin(qn) / l;
      v += 0.5 * hh * (a + an);
      q = qn;
      a = an;
      F += w[j + 1] * a;
    }
    *ev += n;
  }
  return F;
}

double ste_v(long long N, double H, double eps, double g, double l, long long n, double h,
             const double *w, double Th0, double Om0, long long *evals)
{
  double Th = Th0, Om = Om0;
  long long ev = 0;
  for (long long k = 0; k < N; k++) {
    const double F0 = ste_estimate(Th, Om, eps, g, l, n, h, w, &ev);
    const double Ph = Om + 0.5 * H * F0;
    Th = Th + H * Ph;
    const double F1 = ste_estimate(Th, Ph, eps, g, l, n, h, w, &ev);
    Om = Ph + 0.5 * H * F1;
  }
  *evals = ev;
  return Th;
}

/* The same HMM-V-v loop calling the model's force through a function pointer (the library's own
 * kz_ste model function, passed in from Lua): the floor of any design with pluggable models. */
typedef int (*force_fn)(void *par, double theta, const double *q, double *a);

static double ste_estimate_fp(force_fn f, void *par, double Th, double Om, double eps, double l,
                              long long n, double h, const double *w, long long *ev)
{
  const double omega = 2 * PI / eps;
  const double q0 = Th, v0 = Om - sin(Th) * cos(0.0) / (2 * PI * l);
  double a0;
  f(par, 0.0, &q0, &a0);
  double F = w[0] * a0;
  (*ev)++;
  for (int leg = 0; leg < 2; leg++) {
    const double hh = leg ? -h : h;
    double q = q0, v = v0, a = a0;
    for (long long j = 0; j < n; j++) {
      const double qn = q + hh * (v + 0.5 * hh * a);
      double an;
      f(par, 0.0 + omega * ((double)j * hh + hh), &qn, &an);
      v += 0.5 * hh * (a + an);
      q = qn;
      a = an;
      F += w[j + 1] * a;
    }
    *ev += n;
  }
  return F;
}

double ste_v_fp(force_fn f, void *par, long long N, double H, double eps, double l, long long n,
                double h, const double *w, double Th0, double Om0, long long *evals)
{
  double Th = Th0, Om = Om0;
  long long ev = 0;
  for (long long k = 0; k < N; k++) {
    const double F0 = ste_estimate_fp(f, par, Th, Om, eps, l, n, h, w, &ev);
    const double Ph = Om + 0.5 * H * F0;
    Th = Th + H * Ph;
    const double F1 = ste_estimate_fp(f, par, Th, Ph, eps, l, n, h, w, &ev);
    Om = Ph + 0.5 * H * F1;
  }
  *evals = ev;
  return Th;
}

/* Table 2.3's loop calling the pendulum's own force function through a pointer. */
double cs_alg2_fp(force_fn f, void *par, long long N, double H, double omega, long long n,
                  const double *w, double Q0, double P0, long long *evals)
{
  const double h = 2 * PI / omega * H;
  double Q = Q0, Ph = 0;
  long long ev = 0;
  for (long long k = 0; k < N; k++) {
    double q = Q, v = 0, a;
    f(par, 0.0, &q, &a);
    double F = w[0] * a;
    ev++;
    for (long long j = 0; j < n; j++) {
      const double qn = q + h * (v + 0.5 * h * a);
      double an;
      f(par, 0.0 + omega * ((double)j * h + h), &qn, &an);
      v += 0.5 * h * (a + an);
      q = qn;
      a = an;
      F += w[j + 1] * a;
    }
    ev += n;
    Ph = (k == 0) ? P0 + 0.5 * H * F : Ph + H * F;
    Q = Q + H * Ph;
  }
  *evals = ev;
  return Q;
}
