/* kz_sam_dae.c -- stroboscopic averaging for index-2 DAEs: Calvo, Chartier, Murua & Sanz-Serna,
 * "Numerical stroboscopic averaging for ODEs and DAEs", Sec. 6.1. The oscillatory system in GGL
 * form (37)-(40) is assumed to have an averaged system (41)-(44) of the same form,
 *     Q' = F_Q(Q, U) + M^-1 G(Q)^T Mu,  U' = F_U(Q, U) + M^-1 G(Q)^T Lambda,  g(Q) = 0,  G(Q) U = 0
 * (signs: kz_constraints), with the same constraints. The macro-solver, a constrained stepper
 * (HERK3, (45)-(48)) with constant steps H, is applied to it; whenever it needs (F_Q, F_U)(Y*),
 * the shared SAM field (kz_sam.c: kz_sam_field) returns the central difference (25) of the
 * positions AND velocities of micro-integrations of the original constrained system with the
 * micro-solver (HERK3), one period forward and one backward, always started at t0 from the
 * (consistent) macro stage value Y*; the micro multipliers are discarded. The macro multipliers
 * are the macro-solver's own (its position and velocity solves with G at the macro stages),
 * written to zout. */
#include "kz_sam_ctx.h"
#include <stdlib.h>
#include <string.h>

static int check_outputs(const kz_sam_params *p, double H, long long nout, const double *tout,
                         const double *yout, kz_report *r)
{
  if (nout < 1) return kz_bad(r, KZ_EDOMAIN, "nout");
  if (!tout) return kz_bad(r, KZ_ENULL, "tout");
  if (!yout) return kz_bad(r, KZ_ENULL, "yout");
  for (long long k = 0; k < nout; k++) {
    if (!isfinite(tout[k])) return kz_bad(r, KZ_ENONFINITE, "tout");
    if (!(tout[k] > (k ? tout[k - 1] : p->t0))) return kz_bad(r, KZ_EDOMAIN, "tout");
    if (kz_ratio_int(tout[k] - p->t0, H) < 1) return kz_bad(r, KZ_EGRID, "tout");
  }
  return KZ_OK;
}

int kz_sam_dae_run(const kz_micro *m, const kz_sam_params *p, const kz_step_type *macro,
                   double H, const double *y0, long long nout, const double *tout,
                   double *yout, double *zout, kz_con_stats *macro_stats, kz_report *r)
{
  KZ_TRY(kz_sam_check_micro(m, r));
  if (!(m->type->needs & KZ_NEEDS_CONSTRAINTS)) return kz_bad(r, KZ_EMODEL, "micro.type");
  KZ_TRY(kz_sam_check_params(p, r));
  if (!macro) return kz_bad(r, KZ_ENULL, "macro");
  if (!(macro->needs & KZ_NEEDS_CONSTRAINTS) || !macro->apply) return kz_bad(r, KZ_EMODEL, "macro");
  KZ_TRY(kz_check_num(r, H, "H", 1));
  const kz_constraints *C = m->sys->con;
  const int d = m->sys->dim, mc = C->m;
  KZ_TRY(kz_check_vec(r, y0, d, "y0"));
  KZ_TRY(check_outputs(p, H, nout, tout, yout, r));
  /* the micro system: the same, without multiplier output (the micro multipliers are discarded) */
  kz_sys msys = *m->sys;
  kz_constraints mcon = *C;
  mcon.lambda = NULL;
  msys.con = &mcon;
  const kz_micro mm = {m->type, &msys};
  /* the averaged system (41)-(44): the recovered field with the macro solver's own constraints */
  kz_sam_ctx x;
  kz_constraints Mcon = *C;
  Mcon.stats = macro_stats;
  kz_sys field = {0};
  field.dim = d;
  field.rhs = kz_sam_rhs;
  field.par = &x;
  field.con = &Mcon;
  if (kz_step_check(macro, &field, NULL) != KZ_OK) return kz_bad(r, KZ_EMODEL, "macro");
  const size_t nw = kz_step_work(macro, d);
  double *buf = malloc(sizeof(double) * (nw + (size_t)d + 2 * (size_t)mc));
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *y = buf + nw, *z = y + d;
  Mcon.lambda = z;
  memcpy(y, y0, sizeof(double) * (size_t)d);
  int st = C->g(C->par, y, z, NULL); /* consistency of y0: g(q0) within the solves' tolerance */
  if (st != KZ_OK) st = kz_bad(r, st, "g");
  for (int j = 0; st == KZ_OK && j < mc; j++)
    if (!(fabs(z[j]) <= C->tol)) st = kz_bad(r, KZ_EDOMAIN, "y0");
  if (st != KZ_OK) {
    free(buf);
    return st;
  }
  st = kz_sam_ctx_open(&x, &mm, p, r);
  if (st != KZ_OK) {
    free(buf);
    return st;
  }
  kz_report mrep;
  kz_report_init(&mrep);
  const long long nsteps = kz_ratio_int(tout[nout - 1] - p->t0, H);
  long long macro_steps = 0, next = 0;
  for (long long k = 0; k < nsteps && st == KZ_OK; k++) {
    const double t = p->t0 + (double)k * H;
    st = macro->apply(&field, t, H, y, NULL, NULL, buf, &mrep);
    if (st != KZ_OK) { mrep.fail_step = k; mrep.fail_time = t; break; }
    if (!kz_all_finite(y, d)) { st = kz_fail(&mrep, KZ_EDIVERGED, "y", k, t + H); break; }
    macro_steps++;
    while (next < nout && kz_ratio_int(tout[next] - p->t0, H) == k + 1) {
      memcpy(yout + d * next, y, sizeof(double) * (size_t)d);
      if (zout) memcpy(zout + 2 * mc * next, z, sizeof(double) * 2 * (size_t)mc);
      next++;
    }
  }
  free(buf);
  if (r) {
    r->newton_iters += mrep.newton_iters; /* the macro solves (the micro ones come with x.rep) */
    r->jac_evals += mrep.jac_evals;
  }
  return kz_sam_ctx_close(&x, st, &mrep, macro_steps, r);
}
