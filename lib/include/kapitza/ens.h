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

/* ---------- A worker pool (kz_pool.c) ---------------------------------------------------------- */

/* nthreads - 1 POSIX threads that wait for work, created once and reused by every ensemble call
 * given the pool (the calling thread is the nth), as OpenMP runtimes and BLAS keep theirs: a call
 * wakes them (they spin a little after each call, then sleep) instead of starting and joining
 * threads. Owned by the caller (no hidden global pool): one per process or per ensemble object.
 * A call that finds the pool busy with another thread's call runs on its own thread alone (the
 * results do not depend on the thread count). */
typedef struct kz_pool kz_pool;

/* A pool of nthreads threads (1 .. 256; 1 = the caller alone, no thread started) in *out
 * (KZ_EDOMAIN "threads", KZ_ENOMEM "pool"). */
int kz_pool_new(int nthreads, kz_pool **out, kz_report *r);
/* Stop and join the pool's threads and free it (NULL is fine). Not while a call uses it. */
void kz_pool_free(kz_pool *p);
/* Threads of the pool (the caller included); 1 for NULL. */
int kz_pool_threads(const kz_pool *p);

/* ---------- Observers: per-member quantities recorded inside one call (kz_ens_obs.c) ---------- */

/* What an observer records for every member m, at the checks: the start and every `every`-th
 * step (kz_ens_run: the states after k = 0, every, 2 every, ... <= n steps, at t + k h), or every
 * `every`-th output row (the HMM, SAM, the slow-variable ensemble: rows 0, every, ...; stop is
 * refused there, KZ_EMODEL "stop"). A member that fails (failed[m] 1 or 2) has NaN in its MAX,
 * CROSS and FINAL outputs and in its samples from the first check after the failure. */
enum kz_obs_kind {
  KZ_OBS_MAX = 0,    /* out[m]: the largest |y_comp| over the checks */
  KZ_OBS_CROSS = 1,  /* out[m]: the time of the first check at which y_comp (|y_comp| when
                      * absolute) is >= level (dir >= 0) or <= level (dir < 0); NaN if none. With
                      * stop, the member stops there: failed[m] = 3, its state held as it was */
  KZ_OBS_SAMPLE = 2, /* out[(j * nc + c) * M + m]: the state at check j (component comp, nc = 1;
                      * comp = -1: every component, nc = dim); a stopped member's held state */
  KZ_OBS_FINAL = 3   /* out[m]: fn (an invariant, e.g. kz_pendulum_ens_hamiltonian) at the
                      * member's last state: the end, or where it stopped (at that time) */
};

typedef struct kz_obs {
  int kind;         /* enum kz_obs_kind */
  int comp;         /* the component, 0 .. dim - 1 (KZ_OBS_SAMPLE: -1 for all) */
  long long every;  /* steps (rows) between checks, >= 1 */
  double level;     /* KZ_OBS_CROSS: the threshold */
  int dir;          /* KZ_OBS_CROSS: >= 0 upward (x >= level), < 0 downward (x <= level) */
  int absolute;     /* KZ_OBS_CROSS: compare |y_comp| */
  int stop;         /* KZ_OBS_CROSS: stop the member at the crossing (kz_ens_run only) */
  kz_ens_fn fn;     /* KZ_OBS_FINAL: fn(par, m0, M, t, y, out) writes out[0 .. M) */
  void *par;        /* fn's parameters (NULL: the ensemble's par) */
  double *out;      /* caller-owned */
  long long nout;   /* doubles in out: M, or (checks) * nc * M for KZ_OBS_SAMPLE */
} kz_obs;

/* Checks of a run of n steps (or n rows) every `every`: n / every + 1 (kz_ens_run: n steps;
 * rows: (rows - 1) / every + 1 with n = rows - 1); -1 for every < 1 or n < 0. */
long long kz_obs_checks(long long n, long long every);

/* ---------- Runs ------------------------------------------------------------------------------ */

/* Each run below takes the M states of y (or Y0, y0) in the ensemble's layout, integrates them
 * with the library's own method on the big system of dimension dim * M, and writes failed[m]
 * (M ints, caller-owned): 0 = fine, 1 = non-finite or out-of-bound initial state, 2 = left the
 * bound during the run (frozen: its outputs are NaN), 3 = stopped by an observer (its state held
 * where it stopped). The model is still evaluated for a frozen member, its force discarded: in a
 * direct run at the origin (failed), or where it stopped, at rest (stopped). Work is split into the chunks of consecutive members of kz_ens_chunk,
 * handed out to the pool's threads one at a time (pool NULL: the calling thread),
 * so that every thread gets a fair share of the work (a chunk whose members all stopped ends
 * early) and the results are bit-identical for any thread count. obs: nobs observers (may be
 * NULL with nobs = 0). Counts in r are per member (the chunk that did the most work). On failure
 * the states are left as they were, r names the first failing chunk's parameter, step and time,
 * and the observers' outputs are unspecified. Every member equals its scalar run up to the vector
 * math library's rounding (see lib/models/kz_ens_model.h). */

/* Chunk k (0, 1, ...) of an ensemble of M members: its member count (0 when there is no chunk
 * k), its first member in *m0 (may be NULL). About max(64, M / 64) members each, at most 256,
 * shared out in whole vectors of 8 members (the last chunk ends at M): a layout that depends on
 * M alone. */
int kz_ens_chunk(long long M, long long k, long long *m0);

/* n steps of the explicit registry stepper T (one that needs f or a only) from t, in place; step
 * k starts at t + k h, as in kz_run. */
int kz_ens_run(const kz_step_type *T, const kz_ens *e, double t, double h, long long n, double *y,
               int *failed, const kz_obs *obs, int nobs, kz_pool *pool, kz_report *r);
/* The HMM (kz_hmm_run) on the phase form: Y_out gets (N+1) rows of dim * M numbers. */
int kz_ens_hmm_run(const kz_ens *e, const kz_hmm_params *p, const double *Y0, double *Y_out,
                   long long nout, int *failed, const kz_obs *obs, int nobs, kz_pool *pool,
                   kz_report *r);
/* SAM (kz_sam_run) with the micro stepper on the time form and a fixed-step macro solver (ode45's
 * step control would couple the members through its error norm: KZ_EMODEL "macro"); yout gets
 * nout rows of dim * M numbers. */
int kz_ens_sam_run(const kz_step_type *micro, const kz_ens *e, const kz_sam_params *p,
                   const kz_macro *mac, const double *y0, long long nout, const double *tout,
                   double *yout, int *failed, const kz_obs *obs, int nobs, kz_pool *pool,
                   kz_report *r);

/* The slow-variable HMM (kz_slow_run) for M members that differ in their initial states x0
 * (structure of arrays, s->dim * M): the least-squares solve couples a member's components, so
 * every member is its own scalar run (bit-identical to it), handed out to the threads one member
 * at a time. x_out gets (N+1) rows of dim * M numbers; a member whose run fails is flagged 2 (its
 * rows are NaN), one with a non-finite start 1; a failure of every member that started well is
 * the call's failure.
 * Observers as above over the rows (FINAL's fn: NULL par means the model's m->par). */
int kz_ens_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, long long M,
                    const double *x0, double *x_out, long long nout, int *failed,
                    const kz_obs *obs, int nobs, kz_pool *pool, kz_report *r);

/* Vectorised built-in models: parameter arrays of M numbers (the whole ensemble). */
typedef struct kz_pendulum_ens {
  const double *l, *g, *vmax, *omega, *theta0; /* (2.2) per member */
} kz_pendulum_ens;
/* Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) for M members; the phase form (the
 * HMM) when every member has the same omega and theta0. */
int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r);
/* Its Hamiltonian at time t (a kz_ens_fn for KZ_OBS_FINAL, par a kz_pendulum_ens):
 * H = p^2 / 2 + l^-1 (g + vmax omega cos(omega t + theta0)) cos q, whose equations are (2.9). */
int kz_pendulum_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y,
                                double *out);

typedef struct kz_ste_ens {
  const double *eps, *g, *l; /* (1.1) per member */
} kz_ste_ens;
/* Sharp, Tsai & Engquist's inverted pendulum (1.1), (3.4) for M members; the phase form when
 * every member has the same eps. */
int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r);
/* Its Hamiltonian at time t (KZ_OBS_FINAL, par a kz_ste_ens):
 * H = p^2 / 2 + l^-1 (g + eps^-1 sin(2 pi t / eps)) cos q, whose equations are (1.1). */
int kz_ste_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y, double *out);

#ifdef __cplusplus
}
#endif

#endif
