/* kz_step_herk3.c -- the half-explicit Runge-Kutta method of order 3 with 3 stages (HERK3) of
 * Brasey & Hairer (SIAM J. Numer. Anal. 30 (1993) 538-552), as used by Calvo, Chartier, Murua &
 * Sanz-Serna, Sec. 6.1, (45)-(48), for index-2 systems y' = F(y, z), 0 = Gc(y) in the GGL form
 * (37)-(40): y = (q, v), F(y, z) = f(t, y) + (M^-1 G(q)^T mu, M^-1 G(q)^T lambda), z = (mu,
 * lambda), Gc(y) = (g(q), G(q) v) (signs: see kz_constraints). Tableau
 *       0  |
 *      1/3 | 1/3
 *       1  | -1    2
 *      ----+----------------
 *          |  0   3/4   1/4
 * Y_1 = y_0; for i = 2, 3: Y_i = y_0 + h sum_{j<i} a_ij F(Y_j, Z_j) with Gc(Y_i) = 0, which fixes
 * Z_{i-1} (the position constraint g(q_i) = 0 by Newton for mu, then G(q_i) v_i = 0, linear for
 * lambda); y_1 = y_0 + h sum_i b_i F(Y_i, Z_i) with Gc(y_1) = 0 fixes Z_3. Z enters linearly
 * through M^-1 G(Q_j)^T, G at the stage it belongs to. Non-autonomous f is evaluated at t + c_i h.
 * From a consistent y_0 no initial multipliers are needed. Cost: 3 evaluations of f, 3 position
 * and 3 velocity solves per step; f_out is one more evaluation (fsal = 0). */
#include "kz_con.h"
#include <string.h>

static const double A21 = 1.0 / 3, A31 = -1.0, A32 = 2.0, B2 = 0.75, B3 = 0.25;
static const double C2 = 1.0 / 3, C3 = 1.0;

/* work: K1, D1, K2, D2, K3, Yt, Y (dim each), Ga, Gb (nq x nq), mu, la (nq), the solves' */
static size_t herk3_work(int dim)
{
  const int nq = dim / 2;
  return 7 * (size_t)dim + 2 * (size_t)nq * (size_t)nq + 2 * (size_t)nq + kz_con_work(nq);
}

/* The stage solve: Y (2 nq) from Yt = y0 + h sum (explicit part) by Z with coefficient c
 * (= h a_{i,i-1} or h b_3) and G(Q_prev) = Gp; Gn receives G(q) at the new stage; D (may be
 * NULL) gets K + (M^-1 Gp^T mu, M^-1 Gp^T lambda), the full derivative at the previous stage. */
static int stage(const kz_constraints *C, int nq, const double *Yt, const double *Gp, double c,
                 double *Y, double *Gn, double *mu, double *la, const double *K, double *D,
                 double *cw, double t, kz_report *r)
{
  int st = kz_con_position(C, nq, Yt, Gp, c, Y, Gn, mu, cw, r);
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "newton", -1, t);
  st = kz_con_velocity(C, nq, Gn, Yt + nq, Gp, c, Y + nq, la, cw, r);
  if (st != KZ_OK) return kz_fail(r, st, r && r->param ? r->param : "G", -1, t);
  if (D) {
    kz_con_force(C, nq, Gp, mu, D);
    kz_con_force(C, nq, Gp, la, D + nq);
    for (int i = 0; i < 2 * nq; i++) D[i] += K[i];
  }
  return KZ_OK;
}

static int herk3_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                       double *f_out, double *work, kz_report *r)
{
  const kz_constraints *C = s->con;
  const int d = s->dim, nq = d / 2, m = C->m;
  double *K1 = work, *D1 = K1 + d, *K2 = D1 + d, *D2 = K2 + d, *K3 = D2 + d, *Yt = K3 + d;
  double *Y = Yt + d, *Ga = Y + d, *Gb = Ga + (size_t)nq * nq, *mu = Gb + (size_t)nq * nq;
  double *la = mu + nq, *cw = la + nq;
  /* stage 1: Y_1 = y_0 */
  if (f_in) memcpy(K1, f_in, sizeof(double) * (size_t)d);
  else KZ_TRY(kz_eval(s, t, y, K1, r));
  KZ_TRY(kz_con_jacobian(C, y, Ga, r)); /* G(q_0) */
  /* stage 2: Y_2 = y_0 + h a21 F(Y_1, Z_1) */
  for (int i = 0; i < d; i++) Yt[i] = y[i] + h * A21 * K1[i];
  KZ_TRY(stage(C, nq, Yt, Ga, h * A21, Y, Gb, mu, la, K1, D1, cw, t + C2 * h, r));
  KZ_TRY(kz_eval(s, t + C2 * h, Y, K2, r));
  /* stage 3: Y_3 = y_0 + h (a31 F(Y_1, Z_1) + a32 F(Y_2, Z_2)) */
  for (int i = 0; i < d; i++) Yt[i] = y[i] + h * (A31 * D1[i] + A32 * K2[i]);
  KZ_TRY(stage(C, nq, Yt, Gb, h * A32, Y, Ga, mu, la, K2, D2, cw, t + C3 * h, r));
  KZ_TRY(kz_eval(s, t + C3 * h, Y, K3, r));
  /* end point: y_1 = y_0 + h (b2 F(Y_2, Z_2) + b3 F(Y_3, Z_3)), b1 = 0 */
  for (int i = 0; i < d; i++) Yt[i] = y[i] + h * (B2 * D2[i] + B3 * K3[i]);
  KZ_TRY(stage(C, nq, Yt, Ga, h * B3, Y, Gb, mu, la, NULL, NULL, cw, t + h, r));
  if (f_out) KZ_TRY(kz_eval(s, t + h, Y, f_out, r));
  memcpy(y, Y, sizeof(double) * (size_t)d);
  if (C->lambda)
    for (int j = 0; j < m; j++) C->lambda[j] = mu[j], C->lambda[m + j] = la[j];
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_herk3_type = {
  "herk3", "half-explicit Runge-Kutta of order 3, index-2 GGL form (Brasey & Hairer 1993; "
  "Calvo, Chartier, Murua & Sanz-Serna Sec. 6)", 3, 0, KZ_NEEDS_RHS | KZ_NEEDS_CONSTRAINTS, 0, 3,
  herk3_work, herk3_apply, NULL,
};
const kz_step_type *const kz_step_herk3 = &kz_step_herk3_type;
