/* kapitza/con.h -- Constrained mechanical systems: SHAKE, RATTLE, HERK3 and the HMM and SAM for
 * them (kz_con.c, kz_step_shake.c, kz_step_rattle.c, kz_step_herk3.c, kz_hmm_dae.c,
 * kz_sam_dae.c). Part of libkapitza's public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_CON_H
#define KAPITZA_CON_H

#include <kapitza/hmm.h>
#include <kapitza/sam.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================================== */
/* Constrained mechanical systems (DAEs): SHAKE, RATTLE, HERK3; the HMM and SAM for them.
 *
 * M. P. Calvo, J. M. Sanz-Serna, "Heterogeneous multiscale methods for mechanical systems with
 * vibrations" (seed 000), Sec. 4: the descriptor form (4.1)-(4.2), the
 * vibrated double pendulum (4.3), the SHAKE-SHAKE (Sec. 4.2) and RATTLE-SHAKE (Sec. 4.3)
 * asynchronous HMMs with simple filtering (2.16).
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011), Sec. 6: the GGL index-2 form (37)-(40), half-
 * explicit Runge-Kutta methods (45)-(48), HERK3 (Brasey & Hairer 1993), SAM for DAEs.
 * Files: kz_con.c (solves, checks), kz_step_shake.c, kz_step_rattle.c, kz_step_herk3.c,
 * kz_hmm_dae.c, kz_sam_dae.c, kz_dpend.c.
 * ========================================================================================== */

/* Solve counters (caller-owned, accumulated; zero them before a run). */
typedef struct kz_con_stats {
  long long pos_solves; /* position-constraint solves made (Newton on the multipliers) */
  long long vel_solves; /* velocity-constraint solves made (one linear m x m system each) */
} kz_con_stats;

/* g(q) into g (m numbers) and/or its Jacobian G(q) = dg/dq into G (m x nq, row-major); either
 * output may be NULL. Returns KZ_OK or a status. */
typedef int (*kz_con_fn)(void *par, const double *q, double *g, double *G);

/* The mechanical DAE structure of a kz_sys (its field con). With q the first nq components of
 * the state and v the last nq (dim = 2 nq; nq = the system's nq, or dim/2 in the rhs form):
 *   index 3 (Calvo & Sanz-Serna (4.1)-(4.2); SHAKE, RATTLE):
 *       M q'' = f(t, q) + G(q)^T lambda,   g(q) = 0;
 *   index 2, GGL (Calvo et al. (37)-(40); HERK3):
 *       q' = v + M^-1 G(q)^T mu,   v' = M^-1 f(t, q, v) + M^-1 G(q)^T lambda,
 *       g(q) = 0,   G(q) v = 0.
 * Sign: the constraint force is +G^T lambda, as in (4.1); (37)-(38) print -G^T mu, -G^T lambda,
 * so HERK3's multipliers are the negatives of that paper's. The applied part M^-1 f is the
 * kz_sys's own: accel(t, q) in the second-order form (SHAKE, RATTLE: velocity-independent), or
 * f(t, y) = (v, M^-1 f) through rhs or accel (HERK3; any y' = F(y) with these constraints, such
 * as SAM's averaged field, kz_sam_dae_run). M is constant and diagonal: minv holds M^-1.
 * Every position solve is a Newton iteration on the multipliers started at lambda = 0 (a step
 * depends on (t, h, y) only), with the Jacobian G re-evaluated at every iterate; it stops when
 * max_i |g_i(q)| <= tol (or |g_i(q)| <= tols[i] for every i, when tols is given: constraints of
 * different units or scales) and fails after max_iter updates without that (KZ_ENOCONV, parameter
 * "newton", with the step and time; the state is left unchanged). A velocity solve is linear.
 * Work: newton_iters (updates) and jac_evals (evaluations of g with G) in the kz_report, the
 * solves in *stats.
 * Multipliers: each successful step of a constrained stepper writes its multipliers to lambda
 * (when not NULL; 2 m numbers, the meaning is given with each stepper below). lambda and stats
 * are the only members written through a const kz_constraints *: give concurrent users their
 * own. Validated once per run by kz_step_check (kz_con_check). */
typedef struct kz_constraints {
  int m;               /* number of position constraints, 1 <= m <= nq */
  const double *minv;  /* the diagonal of M^-1: nq numbers, finite and > 0 */
  kz_con_fn g;         /* the constraints and their Jacobian */
  void *par;           /* passed to g */
  double tol;          /* Newton tolerance on max_i |g_i(q)| (units of g), finite and > 0 */
  int max_iter;        /* Newton updates allowed per solve, >= 1 */
  double *lambda;      /* NULL, or 2 m numbers: the multipliers of the last successful step */
  kz_con_stats *stats; /* NULL, or the solve counters */
  const double *tols;  /* NULL, or m numbers, finite and > 0: the Newton tolerance of each
                        * constraint, |g_i(q)| <= tols[i] for every i (then tol is not used) */
} kz_constraints;

/* Is s a well-formed constrained system? KZ_ENULL ("con", "con.minv", "con.g"), KZ_EDOMAIN
 * ("dim", "con.m", "con.max_iter", "con.tol", "con.tols", "con.minv") or KZ_ENONFINITE ("con.tol",
 * "con.tols", "con.minv"). kz_step_check calls it for every stepper that needs KZ_NEEDS_CONSTRAINTS. */
int kz_con_check(const kz_sys *s, kz_report *r);
/* The constraint residuals of the state y = (q, v): res[0..m) = g(q), res[m..2m) = G(q) v.
 * A measurement: counts nothing. */
int kz_con_residual(const kz_sys *s, const double *y, double *res, kz_report *r);

/* Constrained steppers (registry members, kz_step_find "shake", "rattle", "herk3"). */
/* SHAKE (Ryckaert, Ciccotti & Berendsen 1977; Calvo & Sanz-Serna Sec. 4.2, "position-velocity
 * form"), written as a one-step map on (q_n, v_n):
 *     v_{n+1/2} = v_n + h/2 (a(t_n, q_n) + M^-1 G(q_n)^T L),  q_{n+1} = q_n + h v_{n+1/2},
 *     g(q_{n+1}) = 0 (Newton for L),   v_{n+1} = v_{n+1/2} + h/2 a(t_{n+1}, q_{n+1}).
 * Chained, these are exactly the paper's SHAKE steps M v_{k+1/2} = M v_{k-1/2} + h f_k
 * + h G_k^T lambda_k with its starting formula v_{1/2} = v_0 + h/2 M^-1 (f_0 + G_0^T lambda_0):
 * the paper's lambda_0 = L of the first step (from a consistent v_0), lambda_k = L / 2 of step
 * k >= 1 (v_n is the unprojected SHAKE velocity: its normal part is O(h); RATTLE projects it).
 * Positions of order 2; not symmetric as a one-step map (the two-step SHAKE is). lambda gets
 * (L, NaN x m). The fused leg is the HMM's micro-integrator: its kernel quadrature averages
 * the total force a + M^-1 G^T lambda_k at every node k = 0..n (node 0 with lambda_0 = L of the
 * first step, nodes k >= 1 with L_k / 2, node n from one more position solve, not a step). */
extern const kz_step_type *const kz_step_shake;
/* RATTLE (Andersen 1983; Calvo & Sanz-Serna Sec. 4.3 with the erratum g(X_{n+1}) = 0 for the
 * printed g'(X_{n+1}) = 0): on consistent (q_n, v_n),
 *     v_{n+1/2} = v_n + h/2 (a_n + M^-1 G(q_n)^T Lx),  q_{n+1} = q_n + h v_{n+1/2},  g(q_{n+1}) = 0,
 *     v_{n+1} = v_{n+1/2} + h/2 (a_{n+1} + M^-1 G(q_{n+1})^T Lv),  G(q_{n+1}) v_{n+1} = 0.
 * Order 2, symmetric (the step with -h inverts the step with h), symplectic. lambda gets
 * (Lx, Lv); the SHAKE multiplier of node n is (Lv_{n-1} + Lx_n) / 2. */
extern const kz_step_type *const kz_step_rattle;
/* HERK3: the half-explicit Runge-Kutta method (45)-(48) of order 3 with 3 stages of Brasey &
 * Hairer (SIAM J. Numer. Anal. 30 (1993)), c = (0, 1/3, 1), a21 = 1/3, a31 = -1, a32 = 2,
 * b = (0, 3/4, 1/4), for the GGL index-2 form. Stage i >= 2 and the end point: a position solve
 * (Newton for mu) and a velocity solve (linear for lambda) with G at the previous stage; from a
 * consistent y (g = 0 and G v = 0), initial multipliers are not needed. 3 evaluations of the
 * unconstrained f per step, 3 position and 3 velocity solves. Not symmetric. lambda gets
 * (mu, lambda) of the last solve, Z_3. */
extern const kz_step_type *const kz_step_herk3;

/* ---------- The HMM for constrained systems (kz_hmm_dae.c) ---------------------------------- */

/* Constrained macro schemes: values of kz_hmm_params.macro continuing enum kz_hmm_macro, with
 * F_n the filtered total micro force (active plus constraint, mass-normalised) at X_n:
 *  SHAKE  (Sec. 4.2): V_{n+1/2} = V_{n-1/2} + H (F_n + M^-1 G(X_n)^T L_n) (V_{1/2} with H/2 from
 *         V_0), X_{n+1} = X_n + H V_{n+1/2}, g(X_{n+1}) = 0: one estimate per step, N in all;
 *  RATTLE (Sec. 4.3): the RATTLE step of kz_step_rattle with F_n, F_{n+1} in place of a: two
 *         estimates per step, one with fsal = 1 (N + 1 in all: F_N gives V_N). */
enum kz_hmm_dae_macro {
  KZ_HMM_SHAKE = 5,
  KZ_HMM_RATTLE = 6,
  KZ_HMM_DAE_MACRO_END = 7
};

/* Presets for kz_hmm_params_init (continuing enum kz_hmm_preset): macro SHAKE or RATTLE, micro
 * SHAKE, simple filtering (uniform kernel; eta = 2 pi / omega is left to the caller), phase 0,
 * micro data (2.14) v = 0, x = X_n, the half window 0 <= t <= eta/2, fsal. */
enum kz_hmm_dae_preset {
  KZ_HMM_PRESET_SHAKE_SHAKE = 4,
  KZ_HMM_PRESET_RATTLE_SHAKE = 5
};

/* The HMM of Calvo & Sanz-Serna Sec. 4 on a fast-forced system m (second-order form) with the
 * constraints con (the same for the macro state X and the micro states x): macro p->macro =
 * KZ_HMM_SHAKE or KZ_HMM_RATTLE, micro p->micro a constrained stepper with a fused leg (SHAKE),
 * half window (p->half_window, phase 0, v = 0: the symmetric window is refused, KZ_EMODEL
 * "half_window"). Y_out receives the macro states at t_n = n H, n = 0..N (capacity nout rows
 * of dim = 2 nq): X_n and V_n (RATTLE; SHAKE: V_{n-1/2} for n >= 1). lam_out (may be NULL,
 * N rows of 2 m): SHAKE (L_n, NaN x m), RATTLE (Lx_n, Lv_n) of step n = 0..N-1. Report:
 * micro_steps, force_evals, newton_iters, jac_evals of micro and macro, macro_steps = N. Solves:
 * the macro ones in con->stats, the micro ones in *micro (may be NULL). */
int kz_hmm_dae_run(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                   const double *Y0, double *Y_out, double *lam_out, long long nout,
                   kz_con_stats *micro, kz_report *r);
/* One RATTLE macro step (H of either sign) from Y at time t, in place (unchanged on failure);
 * lam (may be NULL, 2 m) gets (Lx, Lv). The macro map of Sec. 4.3, "clearly reversible".
 * SHAKE is a two-step recursion and is refused (KZ_EMODEL, parameter "macro"). */
int kz_hmm_dae_step(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p, double t,
                    double *Y, double *lam, kz_con_stats *micro, kz_report *r);
/* The filtered total force F (nq numbers, mass-normalised) at the macro state Y and time t. */
int kz_hmm_dae_force(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                     double t, const double *Y, double *F, kz_con_stats *micro, kz_report *r);

/* ---------- SAM for index-2 DAEs (kz_sam_dae.c) --------------------------------------------- */

/* SAM of Calvo et al. Sec. 6.1: the macro stepper (a constrained one: HERK3) with constant steps
 * H from (p->t0, y0) on the averaged GGL system (41)-(44), whose unconstrained field (F_Q, F_U)
 * is recovered by p->diff ((25): central differences of positions and velocities) from micro-
 * integrations of the constrained system m->sys with m->type (HERK3), always from p->t0. The
 * macro multipliers are its own (the micro ones are discarded); the constraints of (43)-(44)
 * are those of m->sys. y0 must be consistent. tout: increasing, each a whole number of steps H
 * from t0; yout (nout x dim) gets Y there, zout (may be NULL, nout x 2 m) the macro
 * multipliers of the step ending there. Report: micro_steps (6 N n for HERK3 and (25)),
 * force_evals, newton_iters, jac_evals of both levels, macro_steps = N. Solves: the micro ones
 * in m->sys->con->stats, the macro ones in *macro_stats (may be NULL). */
int kz_sam_dae_run(const kz_micro *m, const kz_sam_params *p, const kz_step_type *macro,
                   double H, const double *y0, long long nout, const double *tout,
                   double *yout, double *zout, kz_con_stats *macro_stats, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
