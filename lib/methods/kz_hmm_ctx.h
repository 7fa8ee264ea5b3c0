/* kz_hmm_ctx.h -- the HMM's working state and its seams; not part of the public API. The files
 * form layers, each using only those below it (tests/layout_spec.lua checks that no file uses one
 * that uses it back):
 *   kz_hmm.c        the window: micro system, phase, kernel average, force estimate;
 *   kz_hmm_macro.c  the unconstrained macro schemes and the driver of any scheme (kz_hmm_drive);
 *   kz_hmm_dae.c    the constrained schemes (SHAKE, RATTLE), handed to the driver as a scheme;
 *   kz_hmm_slow.c   the slow-variable HMM, an observable averaged by the window. */
#ifndef KZ_HMM_CTX_H
#define KZ_HMM_CTX_H
#include "kz_internal.h"

typedef struct kz_hmm_ctx {
  const kz_vib *m;
  const kz_hmm_params *p;
  const kz_step_type *T; /* the micro stepper */
  int dim, nq, half;
  long long n;           /* micro-steps per half window: eta/2 = n h */
  const double *w;       /* kernel weights, w[0] at the window centre, w[j] for |j| = 1..n */
  kz_sys sys;            /* the micro system in local time s = t - t_n */
  double theta_s;        /* phase at the window centre (set per estimate) */
  double t_n;            /* time of the window centre (KZ_PHASE_TIME) */
  double cycles_frac;    /* EXACT phase: fractional periods per macro step (0 when whole) */
  double *buf;           /* one allocation: weights, stepper work, state buffers */
  double *work, *y0, *y, *f0, *fa, *fb, *Y, *obs;
  double *F, *Fv, *F1, *Ph; /* macro buffers, dim numbers each */
  double *Ysave;            /* kz_hmm_step: the entry state */
  kz_legs2_fn legs2;        /* both legs at once (kz_hmm_window), or NULL */
  double *bt;               /* 2 n: the backward leg's terms for legs2 */
  /* constrained systems (kz_hmm_dae.c); con == NULL otherwise */
  const kz_constraints *con; /* the macro constraints */
  kz_constraints con_micro;  /* the same for the micro system: no lambda, the micro counters */
  kz_con_stats micro_none;   /* the micro counters when the caller keeps none */
  double *cbuf;              /* G0, G1 (nq x nq), the solve's work */
  double *lamv;              /* 2 m: the multipliers of the last macro step */
  double *lam_out;           /* kz_hmm_dae_run: N rows of 2 m, or NULL */
} kz_hmm_ctx;

/* A macro scheme: a one-step map (step) or a whole run of a two-step recursion (run). Each
 * family keeps its own table (kz_hmm_macro.c: enum kz_hmm_macro; kz_hmm_dae.c: enum
 * kz_hmm_dae_macro) and hands the driver the scheme it chose. */
typedef int (*kz_hmm_step_fn)(kz_hmm_ctx *x, long long k, double t, double H, double *Y,
                              int *have_F, kz_report *r);
typedef int (*kz_hmm_run_fn)(kz_hmm_ctx *x, long long N, double H, double *Y_out, kz_report *r);
typedef struct kz_hmm_scheme {
  kz_hmm_step_fn step;
  kz_hmm_run_fn run;
} kz_hmm_scheme;
/* Validate H, T, Y0, Y_out and its capacity nout for a run; *N = T / H (kz_hmm_macro.c). */
int kz_hmm_run_check(kz_hmm_ctx *x, const double *Y0, double *Y_out, long long nout,
                     long long *N, kz_report *r);
/* N macro steps of the scheme sc from Y_out's first row (validated context; EXACT-phase set-up);
 * a one-step scheme writes x->lamv to the rows of x->lam_out when it is set (kz_hmm_macro.c). */
int kz_hmm_drive(kz_hmm_ctx *x, const kz_hmm_scheme *sc, long long N, double *Y_out, kz_report *r);

/* Validate m and p (not H and T), build the micro system and the weights, allocate. nobs: the
 * size of a callback observable (0 if none). */
int kz_hmm_open(kz_hmm_ctx *x, const kz_vib *m, const kz_hmm_params *p, int nobs, kz_report *r);
/* The same for a constrained system: con (macro and micro constraints), micro (the micro solve
 * counters, may be NULL). */
int kz_hmm_open_con(kz_hmm_ctx *x, const kz_vib *m, const kz_constraints *con,
                    kz_con_stats *micro, const kz_hmm_params *p, int nobs, kz_report *r);
void kz_hmm_close(kz_hmm_ctx *x);
/* Set the phase at the window centre: macro node n (n >= 0, t = n H) or time t (n < 0). */
void kz_hmm_set_phase(kz_hmm_ctx *x, long long n, double t);
/* The force estimate at (Q, P) at macro node n / time t: F (nq), Fv (nq, may be NULL). */
int kz_hmm_estimate(kz_hmm_ctx *x, long long n, double t, const double *Q, const double *P,
                    double *F, double *Fv, kz_report *r);
/* The kernel average over the window from y0 (phase already set): the callback observable
 * (obs != NULL, cnt numbers) or f[lo .. lo + cnt). */
int kz_hmm_window(kz_hmm_ctx *x, const double *y0, kz_observe_fn obs, void *obs_par, int lo,
                  int cnt, double *avg, kz_report *r);

#endif
