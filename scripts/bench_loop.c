/* bench_loop.c -- the practical limit for `make bench`: velocity Verlet on the vibrated pendulum
 * (Calvo & Sanz-Serna (2.2)) as one plain C loop, the same arithmetic as kz_run with the
 * registry's velocity Verlet calling the pendulum force through kz_sys. Prints nanoseconds per
 * step and the final state.
 *   bench_loop NSTEPS OMEGA H */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: bench_loop NSTEPS OMEGA H\n");
    return 2;
  }
  const long n = atol(argv[1]);
  const double omega = atof(argv[2]), h = atof(argv[3]);
  const double l = 0.2, g = 9.8, vmax = 4;
  double q = 0.5, v = 0, a = (g + vmax * omega) * sin(q) / l;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long k = 0; k < n; k++) {
    double qn = q + h * (v + 0.5 * h * a);
    double an = (g + vmax * omega * cos(omega * ((double)(k + 1) * h))) * sin(qn) / l;
    v += 0.5 * h * (a + an);
    q = qn;
    a = an;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)n;
  printf("%.6f %.17g %.17g\n", ns, q, v);
  return 0;
}
