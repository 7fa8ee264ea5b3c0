/* kz_con.h -- the constraint solves shared by the constrained steppers (SHAKE, RATTLE, HERK3)
 * and the constrained macro schemes of the HMM; not part of the public API. kz_con.c. */
#ifndef KZ_CON_H
#define KZ_CON_H
#include "kz_internal.h"

/* Doubles of workspace kz_con_position / kz_con_velocity need (m <= nq). */
static inline size_t kz_con_work(int nq) { return 2 * (size_t)nq * (size_t)nq + 4 * (size_t)nq; }

/* nq of a constrained system (the second-order form's, else dim / 2). */
static inline int kz_con_nq(const kz_sys *s) { return s->nq > 0 ? s->nq : s->dim / 2; }

/* G(q) into G (m x nq); counts one Jacobian evaluation. Failure: parameter "g". */
int kz_con_jacobian(const kz_constraints *C, const double *q, double *G, kz_report *r);

/* The position solve: lam (m) such that q = qt + c M^-1 Gb^T lam satisfies g(q) = 0, by Newton
 * from lam = 0 with G re-evaluated at every iterate; q (nq) gets the solution and Gq (m x nq)
 * G(q) there (the last evaluation). Counts newton_iters (updates), jac_evals, one pos_solve.
 * KZ_ENOCONV "newton" (no convergence in max_iter updates, a non-finite iterate or a singular
 * Newton matrix); a failing g: its status, parameter "g". No time is attached: callers add it.
 * q, Gq and lam are unspecified on failure. */
int kz_con_position(const kz_constraints *C, int nq, const double *qt, const double *Gb,
                    double c, double *q, double *Gq, double *lam, double *work, kz_report *r);

/* The velocity solve: lam (m) such that u = ut + c M^-1 Gb^T lam satisfies Gq u = 0 (linear);
 * u (nq) gets it. Counts one vel_solve. KZ_EDOMAIN "G" for a singular system. */
int kz_con_velocity(const kz_constraints *C, int nq, const double *Gq, const double *ut,
                    const double *Gb, double c, double *u, double *lam, double *work,
                    kz_report *r);

/* out (nq) = M^-1 G^T lam, G m x nq. */
static inline void kz_con_force(const kz_constraints *C, int nq, const double *G,
                                const double *lam, double *out)
{
  const int m = C->m;
  for (int i = 0; i < nq; i++) {
    double s = 0;
    for (int j = 0; j < m; j++) s += G[j * nq + i] * lam[j];
    out[i] = C->minv[i] * s;
  }
}

#endif
