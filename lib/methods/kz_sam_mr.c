/* kz_sam_mr.c -- the multirevolution generalisation of classical RK4, formula (32) of
 * Calvo, Chartier, Murua & Sanz-Serna, "Numerical stroboscopic averaging for ODEs and DAEs",
 * Sec. 4.2, eqs. (30)-(34). With chi = Psi (the one-period map, computed by n forward micro-steps
 * from t0), one macro-step of H = M T approximates Psi^M(z) by
 *   Z_i = z + M sum_j a_ij (Psi(Z_j) - Z_j),   z* = z + M sum_i b_i (Psi(Z_i) - Z_i)     (30)-(31)
 * with the M-dependent coefficients (32); they tend to classical RK4 as M -> infinity. Work:
 * 4 one-period micro-integrations (4n micro-steps) per macro-step, half of SAM's 8n (notes 2.4). */
#include "kz_internal.h"
#include <stdlib.h>
#include <string.h>

int kz_mr_coefficients(long long M, double *b, double *a, kz_report *r)
{
  if (!b || !a) return kz_bad(r, KZ_ENULL, "coefficients");
  if (M <= 4) return kz_bad(r, KZ_EDOMAIN, "M"); /* meaningful only for M > m = 4 */
  const double m = (double)M;
  for (int i = 0; i < 16; i++) a[i] = 0;
  b[0] = b[3] = (m + 1) / (6 * (m - 1));
  b[1] = b[2] = (m - 2) / (3 * (m - 1));
  a[1 * 4 + 0] = (m - 1) / (2 * m);
  a[2 * 4 + 0] = 1 / m;
  a[3 * 4 + 0] = 1 / m;
  a[2 * 4 + 1] = (m - 3) / (2 * m);
  a[3 * 4 + 1] = 2 * (m - 2) / (m * (m + 1));
  a[3 * 4 + 2] = (m - 1) * (m - 2) / (m * (m + 1));
  return KZ_OK;
}

int kz_mr_run(const kz_micro *m, const kz_sam_params *p, long long M, long long nmacro,
              double *y, kz_report *r)
{
  if (!m || !m->type || !m->sys) return kz_bad(r, KZ_ENULL, "micro");
  if (kz_step_check(m->type, m->sys, r) != KZ_OK) return kz_bad(r, KZ_EMODEL, "micro.type");
  const int d = m->sys->dim;
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  KZ_TRY(kz_check_num(r, p->period, "period", 1));
  KZ_TRY(kz_check_num(r, p->t0, "t0", 0));
  if (p->n < 1) return kz_bad(r, KZ_EDOMAIN, "n");
  if (nmacro < 0) return kz_bad(r, KZ_EDOMAIN, "nmacro");
  double b[4], a[16];
  KZ_TRY(kz_mr_coefficients(M, b, a, r));
  KZ_TRY(kz_check_vec(r, y, d, "y"));
  /* one workspace for the whole run: y0, Z, D (4 rows of Psi(Z_i) - Z_i), the micro-solver's */
  double *buf = malloc(sizeof(double) * (6 * (size_t)d + kz_steps_work(m->type, d)));
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *y0 = buf, *Z = buf + d, *D = buf + 2 * d, *work = buf + 6 * d;
  const double h = p->period / (double)p->n, Mf = (double)M;
  memcpy(y0, y, sizeof(double) * (size_t)d);
  int st = KZ_OK;
  for (long long k = 0; k < nmacro && st == KZ_OK; k++) {
    for (int i = 0; i < 4 && st == KZ_OK; i++) {
      for (int c = 0; c < d; c++) {
        double acc = 0;
        for (int j = 0; j < i; j++) acc += a[i * 4 + j] * D[j * d + c];
        Z[c] = y[c] + Mf * acc;
      }
      double *Di = D + i * d;
      memcpy(Di, Z, sizeof(double) * (size_t)d);
      st = kz_check_vec(r, Z, d, "y"); /* the stage may have overflowed */
      if (st == KZ_OK) st = kz_steps(m->type, m->sys, p->t0, h, p->n, Di, work, r); /* Psi(Z_i), from t0 */
      for (int c = 0; c < d; c++) Di[c] -= Z[c];
    }
    if (st != KZ_OK) { if (r) r->fail_step = k; break; } /* the micro-integration's time kept */
    for (int c = 0; c < d; c++) {
      y[c] += Mf * (b[0] * D[c] + b[1] * D[d + c] + b[2] * D[2 * d + c] + b[3] * D[3 * d + c]);
      if (!isfinite(y[c])) st = kz_fail(r, KZ_EDIVERGED, "y", k, p->t0 + (double)(k + 1) * Mf * p->period);
    }
    if (r && st == KZ_OK) r->macro_steps++;
  }
  if (st != KZ_OK) memcpy(y, y0, sizeof(double) * (size_t)d);
  free(buf);
  return st;
}
