/* kapitza/ens.h -- Ensembles: M members of one model integrated as one structure of arrays
 * (kz_ens.c, kz_pendulum_ens.c, kz_ste_ens.c). Part of libkapitza's public header: included by kapitza.h, whose
 * rules it keeps. */
#ifndef KAPITZA_ENS_H
#define KAPITZA_ENS_H

#include <kapitza/hmm.h>
#include <kapitza/sam.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------- Ensembles (kz_ens.c, kz_pendulum_ens.c, kz_ste_ens.c) -------------------------- */

/* M independent members of one model, stored as a structure of arrays: component i of member m
 * at y[i * M + m] (for the second-order form, q is the first nq * M numbers, v the next). A
 * vectorised model function evaluates members m0 .. m0 + M - 1 of its parameters (M is the chunk
 * size; y and f have stride M): t is the time (time form) or the shared fast phase theta
 * (phase form); reconstruct maps macro states Y to micro states y (phase form). */
typedef int (*kz_ens_fn)(void *par, long long m0, int M, double t, const double *y, double *f);

typedef struct kz_ens {
  long long M;              /* members (>= 1) */
  int dim, nq;              /* of one member: nq > 0 second order (dim = 2 nq, accel), 0 first */
  kz_ens_fn rhs, accel;     /* time form (direct integration, SAM) */
  kz_ens_fn phase_rhs, phase_accel, reconstruct; /* phase form (the HMM); NULL when the members
                             * do not share one phase theta = omega t + theta0 */
  double omega, theta0;     /* the shared phase of the phase form */
  int even_in_theta;        /* as kz_vib */
  double bound;             /* members with a |state| or |force| above it (0: 1e100) or not
                             * finite are flagged and frozen */
  int width;                /* doubles per vector the model's member loop uses here (reported) */
  void *par;
} kz_ens;

/* Check the shape of an ensemble (KZ_EDOMAIN "M", "dim", "nq", "bound"). */
int kz_ens_check(const kz_ens *e, kz_report *r);

/* Each run below takes the M states of y (or Y0, y0) in the ensemble's layout, integrates them
 * with the library's own method on the big system of dimension dim * M, split over nthreads
 * POSIX threads (contiguous chunks of members), and writes failed[m] (M ints, caller-owned):
 * 0 = fine, 1 = non-finite or out-of-bound initial state, 2 = left the bound during the run
 * (frozen: its outputs are NaN). Counts in r are per member. Every member equals its scalar run
 * up to the vector math library's rounding (see lib/models/kz_ens_model.h). */

/* n steps of the explicit registry stepper T (one that needs f or a only) from t, in place. */
int kz_ens_run(const kz_step_type *T, const kz_ens *e, double t, double h, long long n, double *y,
               int *failed, int nthreads, kz_report *r);
/* The HMM (kz_hmm_run) on the phase form: Y_out gets (N+1) rows of dim * M numbers. */
int kz_ens_hmm_run(const kz_ens *e, const kz_hmm_params *p, const double *Y0, double *Y_out,
                   long long nout, int *failed, int nthreads, kz_report *r);
/* SAM (kz_sam_run) with the micro stepper on the time form and a fixed-step macro solver (ode45's
 * step control would couple the members through its error norm: KZ_EMODEL "macro"); yout gets
 * nout rows of dim * M numbers. */
int kz_ens_sam_run(const kz_step_type *micro, const kz_ens *e, const kz_sam_params *p,
                   const kz_macro *mac, const double *y0, long long nout, const double *tout,
                   double *yout, int *failed, int nthreads, kz_report *r);

/* The slow-variable HMM (kz_slow_run) for M members that differ in their initial states x0
 * (structure of arrays, s->dim * M): the least-squares solve couples a member's components, so
 * every member is its own scalar run (bit-identical to it), split over the threads. x_out gets
 * (N+1) rows of dim * M numbers; a member whose run fails is flagged 2 (its rows are NaN), one
 * with a non-finite start 1; a failure of every member is the call's failure. */
int kz_ens_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, long long M,
                    const double *x0, double *x_out, long long nout, int *failed, int nthreads,
                    kz_report *r);

/* Vectorised built-in models: parameter arrays of M numbers (the whole ensemble). */
typedef struct kz_pendulum_ens {
  const double *l, *g, *vmax, *omega, *theta0; /* (2.2) per member */
} kz_pendulum_ens;
/* Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) for M members; the phase form (the
 * HMM) when every member has the same omega and theta0. */
int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r);

typedef struct kz_ste_ens {
  const double *eps, *g, *l; /* (1.1) per member */
} kz_ste_ens;
/* Sharp, Tsai & Engquist's inverted pendulum (1.1), (3.4) for M members; the phase form when
 * every member has the same eps. */
int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
