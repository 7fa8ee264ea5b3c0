/* kapitza/vmi.h -- Variational multirate integrators (kz_vmi.c, kz_vmi_solve.c,
 * kz_vmi_measure.c). Part of libkapitza's public header: included by kapitza.h, whose rules it
 * keeps. */
#ifndef KAPITZA_VMI_H
#define KAPITZA_VMI_H

#include <kapitza/step.h>
#include <kapitza/linalg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================================== */
/* Variational multirate integrators.
 *
 * Variational multirate integrators: S. Ober-Bloebaum, T. Wenger, T. Gail, S. Leyendecker,
 * "Variational multirate integrators" (arXiv). Lagrangian L = 1/2 qdot' M qdot - V(qs, qf) - W(qf)
 * (2.2) with slow positions qs on a macro grid dT and fast positions qf on a micro grid
 * dt = dT / p (Fig. 3.1); slow positions linearly interpolated to the micro nodes (3.18); the
 * potentials integrated with the (alpha, gamma) quadrature family (4.8) / Table 1, one pair for V
 * and one for W. Midpoint-midpoint (Thm 3.3) is gamma_V = gamma_W = 1/2; trapezoidal-midpoint
 * (Thm 3.4) gamma_V in {0, 1}, gamma_W = 1/2; trapezoidal-trapezoidal (Thm 3.5) gamma_V, gamma_W
 * in {0, 1}; the left-rectangle variants run in Sec. 6 are alpha = gamma = 1.
 * Each macro step solves the position-momentum form (3.10)/(3.11) for the unknowns
 * (q_{k+1}^s, q_k^{f,1..p}) by Newton's method with an analytic Jacobian.
 */

/* ---------- Arrowhead block systems (kz_vmi_solve.c) ------------------------------------------- */

/* The Newton matrix of one multirate macro step, ordered (fast nodes 1..p, slow end point):
 *     [ B  C ] [x]   [f]      B: p x p blocks of nb x nb, block lower triangular with two
 *     [ R  D ] [z] = [g]      sub-diagonals; C: p blocks nb x na; R: p blocks na x nb; D: na x na.
 * band holds 3 blocks per block row i (row-major nb x nb each): (i, i-2), (i, i-1), (i, i);
 * blocks outside B are ignored. col holds C_i (nb x na), row R_i (na x nb), corner D. */
typedef struct kz_arrow {
  int p, nb, na;
  double *band, *col, *row, *corner;
} kz_arrow;

/* Work sizes (doubles, ints) that kz_arrow_solve needs for the given shape and solver.
 * p nb + na must fit an int; the DENSE solver is also limited to p nb + na <= 2e4 (its
 * (p nb + na)^2 workspace); otherwise KZ_EDOMAIN with parameter 'p'. */
int kz_arrow_work_size(int p, int nb, int na, int solver, long long *nwork, long long *niwork,
                       kz_report *r);
/* Solve the system: rhs = (f, g), p nb + na numbers, is overwritten by (x, z). solver is an
 * enum kz_vmi_solver: STRUCTURED eliminates B block by block (forward substitution, cost linear
 * in p) and then solves the na x na Schur complement D - R B^-1 C; DENSE copies everything into
 * one dense matrix and factors it (cost cubic in p). The blocks of A are overwritten. A singular
 * pivot gives KZ_EDOMAIN with parameter "jacobian". */
int kz_arrow_solve(kz_arrow *A, int solver, double *rhs, double *work, int *iwork,
                   kz_report *r);

/* ---------- The multirate mechanical system ---------------------------------------------------- */

/* Slow (coupling) potential V(qs, qf). v (if not NULL) receives V; the gradient is ADDED to
 * gs (ns numbers) and gf (nf numbers) and the Hessian is ADDED to hess ((ns+nf)^2 numbers,
 * row-major over the stacked vector (qs, qf)); any of them may be NULL. */
typedef int (*kz_vmi_slow_fn)(void *par, const double *qs, const double *qf, double *v,
                              double *gs, double *gf, double *hess);
/* Fast potential W(qf): value to w, gradient ADDED to g (nf), Hessian ADDED to hess (nf^2). */
typedef int (*kz_vmi_fast_fn)(void *par, const double *qf, double *w, double *g, double *hess);

/* The system. Masses are diagonal: ms/mf (arrays of ns/nf numbers) or, when NULL, the uniform
 * values mass_s/mass_f. W may be NULL (W = 0). ns >= 0, nf >= 0, ns + nf >= 1. */
typedef struct kz_vmi_model {
  int ns, nf;
  double mass_s, mass_f;
  const double *ms, *mf;
  kz_vmi_slow_fn V;
  kz_vmi_fast_fn W;
  void *par;
} kz_vmi_model;

/* ---------- The integrator (kz_vmi.c, kz_vmi_solve.c) ------------------------------------------ */

enum kz_vmi_solver {
  KZ_VMI_STRUCTURED = 0, /* block elimination of the arrowhead Jacobian: cost linear in p */
  KZ_VMI_DENSE = 1       /* the whole Jacobian as a dense matrix, LU with partial pivoting */
};

typedef struct kz_vmi_params {
  double alpha_V, gamma_V; /* quadrature (4.8) of the slow potential V, both in [0, 1] */
  double alpha_W, gamma_W; /* quadrature (4.8) of the fast potential W, both in [0, 1] */
  int p;                   /* micro steps per macro step (>= 1) */
  double dT;               /* macro step (> 0); the micro step is dT / p */
  double tol;              /* Newton: stop when max |residual| <= tol (momentum units, > 0) */
  int max_iter;            /* Newton: iteration cap (>= 1) */
  int solver;              /* enum kz_vmi_solver */
  int predictor;           /* Newton's initial guess: enum kz_vmi_predictor (0 = Verlet) */
} kz_vmi_params;

/* State layout (macro node): y = (qs[ns], qf[nf], ps[ns], pf[nf]), 2 (ns + nf) numbers, where
 * qf = q_k^{f,0} and pf = p_k^{f,0} (3.6)-(3.10). */

/* Timing (optional, caller-owned, KZ_VMI_T_N numbers, accumulated, seconds on a monotonic clock):
 * the Jacobian passes (Hessian evaluations and block assembly: t_Jacobi), the linear solves incl.
 * matrix set-up (t_dx), the whole call, the residual passes (the gradient, i.e. force,
 * evaluations of V and W and the residual) and Newton's initial guess (the predictor). What the
 * call spends elsewhere (loop bookkeeping, copying, the clock itself) is the total minus the parts. */
enum kz_vmi_timing { KZ_VMI_T_JAC = 0, KZ_VMI_T_SOLVE = 1, KZ_VMI_T_TOTAL = 2, KZ_VMI_T_GRAD = 3,
                     KZ_VMI_T_PREDICT = 4, KZ_VMI_T_N = 5 };

/* One macro step from t on the state y (updated in place on success, unchanged on failure).
 * micro (may be NULL) receives the fast micro-node values of this interval, (p+1) rows of
 * (qf, pf) = 2 nf numbers, m = 0..p. Counts 1 macro step, p micro steps, Newton iterations,
 * Jacobian assemblies (jac_evals, one per Newton iteration) and force evaluations (force_evals:
 * one gradient of V per quadrature point of V and one of W per quadrature point of W, per micro
 * interval, per residual evaluation, i.e. (n_V + n_W) p (iterations + 1) per step; n = 1 for the
 * midpoint and rectangle rules, 2 for the trapezoid with 0 < alpha < 1; plus, with the Verlet
 * predictor, one gradient of V and one of W per node and march of the predictor). Each Jacobian
 * assembly also evaluates the Hessians of V and W at the same points; these are not counted
 * separately. */
int kz_vmi_step(const kz_vmi_model *m, const kz_vmi_params *P, double t, double *y,
                double *micro, double *timing, kz_report *r);

/* N macro steps from y0 at t = 0. out receives the macro nodes k = 0..N, (N+1) rows of
 * 2 (ns + nf) numbers (capacity nout rows); micro (may be NULL) receives every micro node
 * j = k p + m = 0..N p, rows (qf, pf) (capacity nmicro rows). On a Newton failure the report
 * names "newton" with the macro step and time; the rows before it are valid. */
int kz_vmi_run(const kz_vmi_model *m, const kz_vmi_params *P, long long N, const double *y0,
               double *out, long long nout, double *micro, long long nmicro, double *timing,
               kz_report *r);

/* Energies at a state y: e[0] kinetic 1/2 p' M^-1 p, e[1] V, e[2] W. A measurement: counts
 * nothing in r (r only receives failure diagnostics). */
int kz_vmi_energy(const kz_vmi_model *m, const double *y, double *e, kz_report *r);

/* The Hamiltonian equations (2.4) on y = (qs, qf, ps, pf) as a kz_sys (par = m, which must
 * outlive s): the reference solutions are computed from it with RK4. When every mass is 1 (the
 * momenta are the velocities) it is also in second-order form, nq = ns + nf and accel =
 * -(grad V + grad W), for the steppers that take it (Verlet, symplectic Euler, leapfrog). */
int kz_vmi_sys(kz_sys *s, const kz_vmi_model *m, kz_report *r);


/* Newton's initial guess for the unknowns of a macro step (kz_vmi_params.predictor). */
enum kz_vmi_predictor {
  KZ_VMI_PREDICT_VERLET = 0, /* velocity Verlet through the micro nodes (kz_vmi.c): iterations per
                              * step flat in p; p more gradients of V and of W per step */
  KZ_VMI_PREDICT_DRIFT = 1   /* every position moved by its initial velocity (the earlier guess) */
};

/* The errors (6.1)-(6.2) of a kz_vmi_run (ns, nf, p, dT, N macro steps; out: N+1 rows of
 * d = 2 (ns + nf) numbers; micro: N p + 1 rows of (qf, pf), or NULL) against a reference on the
 * grid t_i = i href (ref: nref rows of d numbers). Every node time k dT and k dT + m dT/p must lie
 * on the grid within 1e-9 max(1, t) (else KZ_EGRID, parameter "href"; beyond the last row:
 * KZ_EBUFFER, "ref"). e receives enum kz_vmi_err numbers: sup over the nodes of Euclidean norms.
 * A measurement: counts nothing. */
enum kz_vmi_err {
  KZ_VMI_E_QMAC = 0, /* macro nodes, q = (qs, qf) */
  KZ_VMI_E_PMAC = 1, /* macro nodes, p = (ps, pf) */
  KZ_VMI_E_QMIC = 2, /* inner micro nodes m = 1..p-1, qf (0 without micro) */
  KZ_VMI_E_PMIC = 3, /* inner micro nodes, pf */
  KZ_VMI_E_QS = 4,   /* macro nodes, each part alone: qs, qf, ps, pf */
  KZ_VMI_E_QF = 5,
  KZ_VMI_E_PS = 6,
  KZ_VMI_E_PF = 7,
  KZ_VMI_E_N = 8
};
int kz_vmi_errors(int ns, int nf, int p, double dT, long long N, const double *out,
                  const double *micro, const double *ref, long long nref, double href, double *e,
                  kz_report *r);
/* kz_vmi_energy at each of the n states of rows (n rows of 2 (ns + nf) numbers, e.g. the out of
 * kz_vmi_run): e receives 3 numbers per row (kinetic, V, W). One call per run instead of one per
 * node. A measurement: counts nothing. */
int kz_vmi_energies(const kz_vmi_model *m, long long n, const double *rows, double *e, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
