/* kz_hmm_ctx.h -- the HMM's working state, shared by kz_hmm.c (force estimation) and
 * kz_hmm_macro.c (macro schemes); not part of the public API. */
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
} kz_hmm_ctx;

/* Validate m and p (not H and T), build the micro system and the weights, allocate. nobs: the
 * size of a callback observable (0 if none). */
int kz_hmm_open(kz_hmm_ctx *x, const kz_vib *m, const kz_hmm_params *p, int nobs, kz_report *r);
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
