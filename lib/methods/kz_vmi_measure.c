/* kz_vmi_measure.c -- measurements on runs of the variational multirate integrator
 * (Ober-Bloebaum, Wenger, Gail & Leyendecker, Sec. 6.2): the errors (6.1)-(6.2) on macro and
 * micro nodes against a reference solution stored on a fine grid, and the energies of every node.
 * One pass over the run's rows in
 * C (the same arithmetic, in the same order, as the Lua loop it replaces in lib/lua/kapitza/vmi.lua, so the
 * numbers are bit for bit those written before). */
#include "kz_internal.h"

/* The reference row at time t: round(t / href), which must be within 1e-9 max(1, t) of t. */
static int grid_row(double t, double href, long long nref, long long *row, kz_report *r)
{
  const double i = floor(t / href + 0.5);
  if (!(fabs(i * href - t) < 1e-9 * fmax(1, t))) return kz_bad(r, KZ_EGRID, "href");
  if (i < 0 || i >= (double)nref) return kz_bad(r, KZ_EBUFFER, "ref");
  *row = (long long)i;
  return KZ_OK;
}

int kz_vmi_errors(int ns, int nf, int p, double dT, long long N, const double *out,
                  const double *micro, const double *ref, long long nref, double href, double *e,
                  kz_report *r)
{
  if (ns < 0 || nf < 0 || ns + nf < 1) return kz_bad(r, KZ_EDOMAIN, "ns");
  if (p < 1) return kz_bad(r, KZ_EDOMAIN, "p");
  if (N < 0) return kz_bad(r, KZ_EDOMAIN, "N");
  KZ_TRY(kz_check_num(r, dT, "dT", 1));
  KZ_TRY(kz_check_num(r, href, "href", 1));
  if (!out) return kz_bad(r, KZ_ENULL, "out");
  if (!ref) return kz_bad(r, KZ_ENULL, "ref");
  if (!e) return kz_bad(r, KZ_ENULL, "e");
  const size_t d = 2 * ((size_t)ns + nf);
  double v[KZ_VMI_E_N] = { 0 };
  for (long long k = 0; k <= N; k++) {
    long long i;
    KZ_TRY(grid_row((double)k * dT, href, nref, &i, r));
    const double *y = out + (size_t)k * d, *z = ref + (size_t)i * d;
    double a[4] = { 0, 0, 0, 0 }; /* squared errors of qs, qf, ps, pf */
    for (size_t c = 0; c < d; c++) {
      const int g = c < (size_t)ns ? 0 : (c < (size_t)ns + nf ? 1 : (c < 2 * (size_t)ns + nf ? 2 : 3));
      const double dy = y[c] - z[c];
      a[g] = a[g] + dy * dy;
    }
    for (int g = 0; g < 4; g++) v[KZ_VMI_E_QS + g] = fmax(v[KZ_VMI_E_QS + g], sqrt(a[g]));
    v[KZ_VMI_E_QMAC] = fmax(v[KZ_VMI_E_QMAC], sqrt(a[0] + a[1]));
    v[KZ_VMI_E_PMAC] = fmax(v[KZ_VMI_E_PMAC], sqrt(a[2] + a[3]));
  }
  if (micro) {
    const double dt = dT / p;
    for (long long k = 0; k < N; k++)
      for (int m = 1; m < p; m++) {
        long long i;
        KZ_TRY(grid_row((double)k * dT + (double)m * dt, href, nref, &i, r));
        const double *u = micro + ((size_t)k * p + m) * 2 * nf, *z = ref + (size_t)i * d;
        double sq = 0, sp = 0;
        for (int c = 0; c < nf; c++) {
          const double dq = u[c] - z[ns + c], dp = u[nf + c] - z[2 * ns + nf + c];
          sq = sq + dq * dq;
          sp = sp + dp * dp;
        }
        v[KZ_VMI_E_QMIC] = fmax(v[KZ_VMI_E_QMIC], sqrt(sq));
        v[KZ_VMI_E_PMIC] = fmax(v[KZ_VMI_E_PMIC], sqrt(sp));
      }
  }
  for (int j = 0; j < KZ_VMI_E_N; j++) e[j] = v[j];
  return KZ_OK;
}

int kz_vmi_energies(const kz_vmi_model *m, long long n, const double *rows, double *e, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  if (n > 0 && !rows) return kz_bad(r, KZ_ENULL, "rows");
  if (n > 0 && !e) return kz_bad(r, KZ_ENULL, "e");
  const size_t d = 2 * ((size_t)m->ns + (size_t)m->nf);
  for (long long k = 0; k < n; k++) {
    int st = kz_vmi_energy(m, rows + (size_t)k * d, e + 3 * (size_t)k, r);
    if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "rows", k, NAN);
  }
  return KZ_OK;
}
