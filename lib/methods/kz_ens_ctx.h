/* kz_ens_ctx.h -- what the ensemble files share (kz_ens.c: chunks, guard, direct runs;
 * kz_ens_methods.c: the HMM, SAM and the slow-variable ensemble; kz_ens_obs.c: observers).
 * Private to the library. */
#ifndef KZ_ENS_CTX_H
#define KZ_ENS_CTX_H
#include "kz_internal.h"
#include "kz_pool.h"

/* failed[m] values (kapitza/ens.h); KZ_ENS_STOPPING marks, during one check, a member that an
 * observer stops there (it still counts as running for the other observers of that check). */
enum { KZ_ENS_FINE = 0, KZ_ENS_BADSTART = 1, KZ_ENS_LEFT = 2, KZ_ENS_STOPPED = 3, KZ_ENS_STOPPING = -1 };

/* One chunk: members m0 .. m0 + M - 1 of the ensemble. */
typedef struct kz_chunk {
  const kz_ens *e;
  long long m0;
  int M;
  int *failed;      /* the M flags of this chunk (a slice of the caller's array) */
  int *frozen;      /* the members (0 .. M - 1) whose force is zeroed: failed or stopped */
  int nfrozen;
  double bound;
  kz_sys sys;       /* the big system (time form) */
  kz_vib vib;       /* the big system (phase form) */
  double *y;        /* M * dim numbers, structure of arrays */
  double *held;     /* M * dim: the states of stopped members (allocated with stop observers) */
  double *tmp;      /* M + dim numbers: scratch of the FINAL observers */
  kz_report rep;
  int status;
} kz_chunk;

/* Set the chunk up for members m0 .. m0 + M - 1 (systems, flags, buffers: y, frozen, tmp, and
 * held when stop is set); KZ_ENOMEM. kz_chunk_close frees what it allocated. */
int kz_chunk_open(kz_chunk *c, const kz_ens *e, long long m0, int M, int *failed, int stop);
void kz_chunk_close(kz_chunk *c);
/* Copy members of y (the whole ensemble's layout, M members) into the chunk, flagging (1) and
 * freezing at the origin those not finite or beyond the bound. */
void kz_chunk_gather(kz_chunk *c, const double *y);
/* Members of the chunk's state src (stride M_chunk) into y (the ensemble's layout): failed
 * members NaN, stopped ones their held state. */
void kz_chunk_scatter(const kz_chunk *c, const double *src, double *y);
/* Freeze member m: its force is zeroed from now on (guard). */
static inline void kz_chunk_freeze(kz_chunk *c, int m) { c->frozen[c->nfrozen++] = m; }
/* Flag (2) and freeze the running members whose state x (stride M_chunk, every component) is
 * not finite or beyond the bound; returns how many. */
int kz_chunk_bound(kz_chunk *c, const double *x);
/* The chunks of an ensemble (kz_ens_chunk), opened (stop: with held states),
 * in *out, their count in *nc (KZ_ENOMEM "work"); kz_chunks_close closes and frees them. */
int kz_chunks_open(const kz_ens *e, int *failed, int stop, kz_chunk **out, long long *nc,
                   kz_report *r);
void kz_chunks_close(kz_chunk *cs, long long nc);
/* The first failing chunk (in member order) gives the status and diagnostics; the counts per
 * member are those of the chunk that did the most work. */
int kz_chunks_finish(kz_chunk *cs, long long nc, kz_report *r);

/* ---- observers (kz_ens_obs.c) ---- */

/* Check nobs observers for an ensemble of dim components and M members over checks of a run of
 * n steps (rows: n = rows - 1); stop allowed or not (KZ_EMODEL "stop"). */
int kz_obs_validate(const kz_obs *obs, int nobs, int dim, long long M, long long n, int stop_ok,
                    kz_report *r);
/* Whether any observer checks at step (row) k; the next step > k at which one does (or n). */
int kz_obs_due(const kz_obs *obs, int nobs, long long k);
long long kz_obs_next(const kz_obs *obs, int nobs, long long k, long long n);
/* Initialise the chunk's slices of the outputs (MAX 0, CROSS NaN). */
void kz_obs_begin(const kz_obs *obs, int nobs, const kz_chunk *c, long long Mtot);
/* The check at step (row) k, time t, on the chunk's state x (stride c->M): MAX, CROSS and
 * SAMPLE for the observers due at k; members that a CROSS observer stops are flagged stopped,
 * their state copied to c->held, their FINAL observers evaluated at t, and frozen (the caller
 * zeroes their state). Returns KZ_OK or a FINAL function's failure. */
int kz_obs_check(const kz_obs *obs, int nobs, kz_chunk *c, long long Mtot, long long k, double t,
                 const double *x);
/* At the end (time t, state x): FINAL for the running members; NaN in MAX, CROSS, FINAL of the
 * failed ones. */
int kz_obs_end(const kz_obs *obs, int nobs, kz_chunk *c, long long Mtot, double t, const double *x);

#endif
