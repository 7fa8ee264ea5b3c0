/* kzpeers.h -- peer integrators from other libraries on libkapitza's systems (issue 12, item 1).
 *
 * libkzpeers.so (built by `make peers` only when the libraries are found) integrates a kz_sys of
 * libkapitza with GSL's odeiv2 driver (rk8pd, msadams, rk4imp), SUNDIALS CVODE (Adams, BDF) and
 * ARKODE (ERKStep with the order-8 Verner table, MRIStep for a fast/slow split), each at a given
 * tolerance, and reports the work and the error reached. The right-hand side is the system's own
 * (kz_sys_eval), so every peer integrates exactly the equations the library's methods do.
 * Like kapitza.h this header is read by LuaJIT's ffi.cdef once its '#' lines are dropped
 * (lib/lua/kapitza/peers.lua); it needs kapitza.h (kz_sys) first.
 */
#ifndef KZPEERS_H
#define KZPEERS_H
#include <kapitza.h> /* -Ilib/include (Makefile) */

enum kzp_method {
  KZP_GSL_RK8PD = 0,    /* GSL gsl_odeiv2_step_rk8pd: Prince-Dormand 8(9), explicit */
  KZP_GSL_MSADAMS = 1,  /* GSL msadams: variable-order Adams (1-12), functional iteration */
  KZP_GSL_RK4IMP = 2,   /* GSL rk4imp: implicit Gauss 4th order, Newton with the Jacobian below */
  KZP_CVODE_ADAMS = 3,  /* SUNDIALS CVODE, CV_ADAMS, fixed-point nonlinear solver */
  KZP_CVODE_BDF = 4,    /* SUNDIALS CVODE, CV_BDF, Newton with a dense direct solver */
  KZP_ARK_ERK8 = 5,     /* SUNDIALS ARKODE ERKStep, ARKODE_VERNER_8_5_6 (explicit order 8) */
  KZP_ARK_MRI = 6,      /* SUNDIALS ARKODE MRIStep: slow = s - fast with the fixed slow step H
                         * (MRIStep of SUNDIALS 6 has no slow-step control), fast by an adaptive
                         * explicit ARKStep at the tolerance */
  KZP_METHOD_END = 7
};

typedef struct kzp_result {
  double rtol, atol;     /* the tolerances asked for */
  long long steps;       /* accepted steps (MRI: slow steps) */
  long long fast_steps;  /* MRI: steps of the fast integrator; 0 otherwise */
  long long fails;       /* rejected steps / error-test failures reported by the peer */
  long long rhs_evals;   /* evaluations of the system's field, counted in the wrapper: every call,
                          * including finite-difference Jacobians (MRI: full and fast fields, the
                          * slow part costs one of each) */
  long long jac_evals;   /* Jacobian evaluations, by finite differences (GSL: ours, dim + 1 field
                          * evaluations each; CVODE BDF: its own difference quotients), their
                          * field evaluations counted in rhs_evals */
  double seconds;        /* CPU seconds of the integration (CLOCK_PROCESS_CPUTIME_ID) */
  double error;          /* Euclidean norm of y(t1) - ref over the first nerr components; NaN
                          * without ref */
  int status;            /* 0, or the peer's (negative) flag / KZ_ status */
} kzp_result;

/* 1 if the method was compiled in, 0 if its library was not found at build time. */
int kzp_available(int method);
/* The method's name ("gsl-rk8pd", ...), NULL out of range. */
const char *kzp_name(int method);

/* Integrate s from (t0, y0) to t1 with method at relative/absolute tolerances rtol, atol; yout
 * (dim numbers, may be NULL) receives y(t1); res receives the counts, CPU seconds and, with ref
 * (dim numbers) given, the error over the first nerr components (nerr <= 0: all). fast and H
 * only for KZP_ARK_MRI (fast: the fast part of s's field, same dim; H > 0, (t1 - t0)/H whole).
 * Returns KZ_OK, KZ_EMODEL (method not compiled in), KZ_EDOMAIN for bad arguments or KZ_ENOCONV
 * when the peer fails (its flag in res->status). */
int kzp_integrate(int method, const kz_sys *s, const kz_sys *fast, double H, double t0,
                  const double *y0, double t1, double rtol, double atol, const double *ref,
                  int nerr, double *yout, kzp_result *res);

#endif
