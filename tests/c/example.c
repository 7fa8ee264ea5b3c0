/* example.c -- libkapitza from C, as an installed library: built by `make check`
 * (tests/install_spec.lua) against a staged `make install` with
 *     cc -std=c11 $(pkg-config --cflags kapitza) example.c $(pkg-config --libs kapitza)
 * and once statically, then run and its output compared with the Lua binding's numbers.
 *
 * Calvo & Sanz-Serna's vibrated inverted pendulum (2.2) at omega = 1e4: (1) the stepper registry
 * and a direct integration of the full equation by RK4; (2) the HMM of Algorithm 2 (leapfrog
 * macro-steps, Verlet micro-steps, simple filtering over one period); (3) the averaged equation
 * (2.5) by RK4, the HMM's reference. Prints one "key value" line per result; exit status 0 when
 * every call succeeded and the HMM follows the averaged solution, 1 otherwise. */
#include <kapitza.h>
#include <stdio.h>

static int failed(const char *what, int status, const kz_report *r)
{
  fprintf(stderr, "example: %s: %s (parameter '%s')\n", what, kz_strerror(status),
          r->param ? r->param : "-");
  return 1;
}

int main(void)
{
  const double pi = 3.14159265358979323846, omega = 1e4, period = 2 * pi / omega;
  kz_pendulum pend = {0.2, 9.8, 4.0, omega, 0.0}; /* l, g, vmax, omega, theta0 */
  kz_sys sys, avg;
  kz_vib vib;
  kz_report r;
  int st;

  kz_report_init(&r);
  if ((st = kz_pendulum_sys(&sys, &pend, &r)) != KZ_OK) return failed("kz_pendulum_sys", st, &r);
  if ((st = kz_pendulum_vib(&vib, &pend, &r)) != KZ_OK) return failed("kz_pendulum_vib", st, &r);
  if ((st = kz_pendulum_averaged_sys(&avg, &pend, &r)) != KZ_OK) return failed("kz_pendulum_averaged_sys", st, &r);
  printf("version %d.%d.%d\n", KZ_VERSION_MAJOR, KZ_VERSION_MINOR, KZ_VERSION_PATCH);

  /* (1) the registry, and 0.2 s of the full equation by RK4, 100 steps per period */
  printf("steppers");
  for (int i = 0; i < kz_step_count(); i++) printf(" %s", kz_step_at(i)->name);
  printf("\n");
  const kz_step_type *rk4 = kz_step_find("rk4");
  if (!rk4) return failed("kz_step_find", KZ_ENULL, &r);
  double y[2] = {0.5, 0.0};
  const long long nsteps = (long long)(0.2 / period * 100 + 0.5);
  kz_report_init(&r);
  if ((st = kz_run(rk4, &sys, 0.0, period / 100, nsteps, y, &r)) != KZ_OK) return failed("kz_run", st, &r);
  printf("direct_steps %lld\ndirect_q %.17g\ndirect_p %.17g\n", r.micro_steps, y[0], y[1]);

  /* (2) the HMM, Algorithm 2: T = 1 s, H = 1/100 s, one period sampled by 64 micro-steps */
  kz_hmm_params hp;
  if ((st = kz_hmm_params_init(&hp, KZ_HMM_PRESET_CS2, &r)) != KZ_OK) return failed("kz_hmm_params_init", st, &r);
  hp.kernel = KZ_KERNEL_UNIFORM;
  hp.H = 0.01;
  hp.T = 1.0;
  hp.eta = period;
  hp.h = period / 64;
  enum { N = 100 };
  double Y0[2] = {0.5, 0.0}, Y[2 * (N + 1)];
  kz_report_init(&r);
  if ((st = kz_hmm_run(&vib, &hp, Y0, Y, N + 1, &r)) != KZ_OK) return failed("kz_hmm_run", st, &r);
  printf("hmm_evals %lld\nhmm_Q %.17g\nhmm_P %.17g\n", r.force_evals, Y[2 * N], Y[2 * N + 1]);

  /* (3) the averaged equation by RK4 on the same grid (steps of 1/2000 s) */
  double Ya[2 * (N + 1)], ya[2] = {0.5, 0.0};
  kz_report_init(&r);
  if ((st = kz_trajectory(rk4, &avg, 0.0, 0.01 / 20, 20, N, ya, Ya, &r)) != KZ_OK)
    return failed("kz_trajectory", st, &r);
  double err = 0;
  for (int n = 0; n <= N; n++) { /* no libm needed here: pkg-config --libs suffices */
    const double d = Y[2 * n] > Ya[2 * n] ? Y[2 * n] - Ya[2 * n] : Ya[2 * n] - Y[2 * n];
    if (d > err) err = d;
  }
  printf("averaged_Q %.17g\nhmm_error %.17g\n", Ya[2 * N], err);

  /* a refused call: a macro step that does not divide T, reported through the status */
  hp.H = 0.3;
  kz_report_init(&r);
  st = kz_hmm_run(&vib, &hp, Y0, Y, N + 1, &r);
  printf("bad_H %s %s\n", st == KZ_EGRID ? "KZ_EGRID" : "unexpected", r.param ? r.param : "-");

  return err < 0.01 && st == KZ_EGRID ? 0 : 1;
}
