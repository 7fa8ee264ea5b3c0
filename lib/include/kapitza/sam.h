/* kapitza/sam.h -- Stroboscopic averaging, LISP and multirevolution (kz_sam.c, kz_sam_mr.c). Part
 * of libkapitza's public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_SAM_H
#define KAPITZA_SAM_H

#include <kapitza/step.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================================== */
/* Stroboscopic averaging, LISP and multirevolution.
 *
 * Stroboscopic averaging (SAM), Kirchgraber's LISP and multirevolution Runge-Kutta:
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011) 1077-1095, Secs. 3-5, eqs. (25), (26), (29), (32).
 * Micro- and constant-step macro-solvers are registry steppers (RK4, Strang, DP5, ...); the
 * variable-step macro-solver is the ode45 controller below. The two test problems: perturbed
 * Kepler (19) and van der Pol (17).
 *
 * Time variable: every system here is y' = f(t, y) whose fast oscillation has period `period`
 * in the system's own time (2 pi eps in t, or 2 pi in tau = t/eps, where the Kepler and van der
 * Pol models are written). A micro-step is h = period / n.
 */

/* ---------- SAM, LISP, multirevolution (kz_sam.c, kz_sam_mr.c) ------------------------------- */

/* The micro-solver: a registered stepper on the oscillatory system (e.g. kz_step_rk4 on the
 * full field, kz_step_strang on its split form). */
typedef struct kz_micro {
  const kz_step_type *type;
  const kz_sys *sys;
} kz_micro;

/* n steps of size h of the micro-solver from time t (h < 0 integrates backward): the
 * conventional integration of the oscillatory problem (kz_run). */
int kz_micro_run(const kz_micro *m, double t, double h, long long n, double *y, kz_report *r);

enum kz_sam_diff {
  KZ_SAM_CENTRAL2 = 0, /* (25): [Psi(Y) - Psi^-1(Y)] / (2 T), 2n micro-steps */
  KZ_SAM_CENTRAL4 = 1, /* (26): [-Psi^2 + 8 Psi - 8 Psi^-1 + Psi^-2](Y) / (12 T), 4n */
  KZ_SAM_LISP2 = 2,    /* (29), Kirchgraber's second-order recovery (LISP), 2n, forward only */
  KZ_SAM_FORWARD = 3   /* [Psi(Y) - Y] / T, first order, n */
};

typedef struct kz_sam_params {
  double period; /* T: the period of the oscillation in the system's time (> 0) */
  double t0;     /* origin of the stroboscopic grid: every micro-integration starts here */
  long long n;   /* micro-steps per period (>= 1): h = T / n */
  int diff;      /* enum kz_sam_diff */
} kz_sam_params;

/* The recovered averaged field F~(Y) (dim numbers) from micro-integrations started at t0.
 * Counts the micro-steps; force_evals are those of the micro-solver. */
int kz_sam_force(const kz_micro *m, const kz_sam_params *p, const double *Y, double *F,
                 kz_report *r);

enum kz_macro_kind {
  KZ_MACRO_FIXED = 0, /* a registered stepper with the constant step H (RK4, DP5, ...) */
  KZ_MACRO_ODE45 = 1  /* Dormand-Prince 5(4) with ode45's step control (rtol, atol, hmax) */
};

typedef struct kz_macro {
  int kind;                  /* enum kz_macro_kind */
  const kz_step_type *type;  /* FIXED: the stepper (it must need only f) */
  double H;                  /* FIXED: the macro step (> 0); ODE45: initial step, 0 = automatic */
  double rtol;               /* ODE45 */
  double atol;               /* ODE45 */
  double hmax;               /* ODE45: 0 = 0.1 |tfinal - t0| */
} kz_macro;

/* SAM (Sec. 3.2): integrate the averaged system Y' = F~(Y) with the macro-solver from
 * (p->t0, y0) and write Y at the output times tout[0..nout-1] (increasing, > t0; for constant
 * macro steps each must be a whole number of steps H from t0) into yout (nout*dim). With
 * p->diff = KZ_SAM_LISP2 this is LISP. hist_t/hist_h (may be NULL) get the accepted macro steps
 * (start, length), capacity hist_cap; *nhist their number. Report: micro_steps and force_evals
 * of the micro-solver, macro_steps and rejected of the macro-solver. */
int kz_sam_run(const kz_micro *m, const kz_sam_params *p, const kz_macro *mac, const double *y0,
               long long nout, const double *tout, double *yout, double *hist_t,
               double *hist_h, long long hist_cap, long long *nhist, kz_report *r);

/* Multirevolution RK4 (32) (Sec. 4.2): nmacro steps, each approximating Psi^M (M periods,
 * M > 4) with four forward one-period micro-integrations of p->n steps; y in place
 * (y at t0 + nmacro*M*T on success). p->diff is ignored. */
int kz_mr_run(const kz_micro *m, const kz_sam_params *p, long long M, long long nmacro,
              double *y, kz_report *r);
/* The coefficients of (32) for a given M: b[4] and a[16] (row-major a_ij, i, j = 1..4). */
int kz_mr_coefficients(long long M, double *b, double *a, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
