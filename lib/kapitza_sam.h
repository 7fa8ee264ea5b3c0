/* kapitza_sam.h -- section of kapitza.h (included by it; not included on its own).
 *
 * Stroboscopic averaging (SAM), Kirchgraber's LISP and multirevolution Runge-Kutta:
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011) 1077-1095, Secs. 3-5, eqs. (25), (26), (29), (32).
 * With the steppers they are composed from: Strang splitting of two sub-flows and the
 * Dormand-Prince 5(4) pair with an ode45-like step controller; and the two test problems
 * (perturbed Kepler (19) and van der Pol (17)).
 *
 * Time variable: every system here is y' = f(t, y) whose fast oscillation has period `period`
 * in the system's own time (2 pi eps in t, or 2 pi in tau = t/eps, where the Kepler and van der
 * Pol models are written). A micro-step is h = period / n.
 */

/* ---------- Strang splitting (kz_split.c) ---------------------------------------------------- */

/* A sub-flow: advance y (in place) by a step h (h may be negative) from time t. A failed flow
 * may leave y modified: the caller (kz_strang_step) restores it. */
typedef int (*kz_flow_fn)(void *par, double t, double h, double *y, kz_report *r);

/* y' = A(t, y) + B(t, y) with (approximate) flows of A and B. Strang's symmetric step is
 * phi_A(h/2) o phi_B(h) o phi_A(h/2): flow_a is applied first and last. */
typedef struct kz_split {
  int dim;
  kz_flow_fn flow_a; /* the outer half-steps */
  kz_flow_fn flow_b; /* the inner full step */
  void *par;
} kz_split;

/* One Strang step of size h (h < 0 allowed; the step is symmetric, so the step with -h is its
 * exact inverse when the sub-flows are symmetric). work needs dim doubles (the state on entry,
 * restored on failure). Counts one micro-step and two force evaluations (the two A half-steps). */
int kz_strang_step(const kz_split *s, double t, double h, double *y, double *work, kz_report *r);
/* n Strang steps of size h from t. */
int kz_strang_run(const kz_split *s, double t, double h, long long n, double *y, kz_report *r);

/* ---------- Dormand-Prince 5(4) (kz_dopri.c) ------------------------------------------------- */

enum kz_dopri_mode {
  KZ_DOPRI_CONSTANT = 0, /* the 5th-order solution with a constant step h */
  KZ_DOPRI_ODE45 = 1     /* variable steps with MATLAB ode45's controller (Shampine & Reichelt) */
};

typedef struct kz_dopri_params {
  int mode;    /* enum kz_dopri_mode */
  double h;    /* CONSTANT: the step (> 0); ODE45: initial step, 0 = automatic (ode45's rule) */
  double rtol; /* ODE45: relative tolerance (> 0) */
  double atol; /* ODE45: absolute tolerance (> 0) */
  double hmax; /* ODE45: largest step; 0 = 0.1 |tfinal - t0| (ode45's default) */
} kz_dopri_params;

/* Integrate y' = f(t, y) from (t0, y0) through the increasing output times tout[0..nout-1]
 * (all > t0), writing y(tout[k]) to yout + k*dim. CONSTANT: every tout[k] - t0 must be a whole
 * number of steps h. ODE45: the last output time is tfinal, outputs inside a step use ode45's
 * continuous extension (ntrp45) and do not change the steps. If hist_t/hist_h are not NULL they
 * receive the start time and length of every accepted step (capacity hist_cap, else
 * KZ_EBUFFER); *nhist (if not NULL) gets their number. Counts accepted steps in macro_steps,
 * rejected ones in rejected, evaluations in force_evals (FSAL: 1 + 6 per attempted step). */
int kz_dopri_run(const kz_sys1 *s, const kz_dopri_params *p, double t0, const double *y0,
                 long long nout, const double *tout, double *yout, double *hist_t,
                 double *hist_h, long long hist_cap, long long *nhist, kz_report *r);

/* ---------- Pluggable micro-integrators (kz_sam.c) ------------------------------------------- */

enum kz_micro_kind {
  KZ_MICRO_RK4 = 0,   /* classical RK4 on sys */
  KZ_MICRO_STRANG = 1 /* Strang splitting of split */
};

/* What the micro-solver integrates and how: kind selects a stepper from an internal const
 * table; sys or split is the problem it needs (the other may be NULL). */
typedef struct kz_micro {
  int kind;              /* enum kz_micro_kind */
  const kz_sys1 *sys;    /* KZ_MICRO_RK4 */
  const kz_split *split; /* KZ_MICRO_STRANG */
} kz_micro;

/* Dimension of the micro problem (or -1 if m is not valid). */
int kz_micro_dim(const kz_micro *m);
/* n steps of size h of the micro-integrator from time t (h < 0 integrates backward): the
 * conventional integration of the oscillatory problem. */
int kz_micro_run(const kz_micro *m, double t, double h, long long n, double *y, kz_report *r);

/* ---------- SAM, LISP, multirevolution (kz_sam.c, kz_sam_mr.c) ------------------------------- */

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
  KZ_MACRO_RK4 = 0,  /* classical RK4, constant step H */
  KZ_MACRO_DP5 = 1,  /* Dormand-Prince 5th-order solution, constant step H */
  KZ_MACRO_ODE45 = 2 /* Dormand-Prince 5(4) with ode45's step control (rtol, atol, hmax) */
};

typedef struct kz_macro {
  int kind;    /* enum kz_macro_kind */
  double H;    /* RK4, DP5: the macro step (> 0); ODE45: initial step, 0 = automatic */
  double rtol; /* ODE45 */
  double atol; /* ODE45 */
  double hmax; /* ODE45: 0 = 0.1 |tfinal - t0| */
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

/* ---------- Models (kz_kepler.c, kz_vdp.c) --------------------------------------------------- */

/* Perturbed Kepler problem (Sec. 2(iv), 5.1), in the fictitious time tau of (19):
 * y = (x1, x2, v1, v2), x' = lam v, v' = lam (-x/r^3 + eps G(x)), G = -grad V,
 * V = -1/(2 r^3) + 3 x1^2/(2 r^5), lam = (-2E)^(-3/2), E = |v|^2/2 - 1/r (the printed -2/r and
 * exponent 3/2 corrected). Period 2 pi in tau for eps = 0. */
typedef struct kz_kepler {
  double eps;
} kz_kepler;

/* The full system (19) as a kz_sys1 (par = p, which must outlive s). */
int kz_kepler_sys1(kz_sys1 *s, kz_kepler *p, kz_report *r);
/* The splitting of Sec. 5.1.2: A = perturbation by one implicit-midpoint step, B = the exact
 * Kepler flow (so Strang = midpoint(h/2) o Kepler(h) o midpoint(h/2)). */
int kz_kepler_split(kz_split *s, kz_kepler *p, kz_report *r);
/* The exact unperturbed flow phi^(1)_tau (closed form, Kepler's equation by Newton):
 * yout = phi(tau)(y); needs E(y) < 0. yout may equal y. */
int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r);
/* The unperturbed Kepler energy E = |v|^2/2 - 1/r. */
double kz_kepler_energy(const double *y);

/* van der Pol (17), Sec. 5.2: y = (q, p), q' = p, p' = -q + eps (1 - q^2) p (tau time). */
typedef struct kz_vdp {
  double eps;
} kz_vdp;

int kz_vdp_sys1(kz_sys1 *s, kz_vdp *p, kz_report *r);
/* A = the perturbation p' = eps (1 - q^2) p (exact), B = the rotation (exact). */
int kz_vdp_split(kz_split *s, kz_vdp *p, kz_report *r);
