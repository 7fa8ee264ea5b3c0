/* kz_ens.c -- ensembles: M independent members of one model (initial states and/or parameter
 * values) advanced together by the library's methods, unchanged; the chunks, the guard and the
 * direct runs (the HMM, SAM and the slow-variable ensemble: kz_ens_methods.c; observers:
 * kz_ens_obs.c; the worker pool: kz_pool.c).
 *
 * The idea: M copies of a system of dimension d are one system of dimension d M. Stored as a
 * structure of arrays -- component i of member m at y[i M + m] -- the q block of the second-order
 * form is still the first nq M numbers, so the big system is an ordinary kz_sys (or kz_vib) and
 * every explicit registry stepper, the HMM (kz_hmm.c, whose macro schemes and kernel average act
 * componentwise) and SAM (kz_sam.c) integrate it with their own code: no stepper or method is
 * written twice. The member loop is innermost in the model (lib/models/kz_ens_model.h, vectorised), and the
 * steppers' loops over d M numbers vectorise by themselves. Every member sees exactly the scalar
 * arithmetic of its own run (the methods never mix components), so an ensemble member equals its
 * scalar run up to the model's vector math functions (libmvec: a few ulp per call, against libm).
 *
 * A member whose state or force is not finite, or exceeds e->bound in magnitude, is flagged in
 * failed[m] (1 = state at the start, 2 = during the run) and frozen from then on (its force is
 * set to zero, and in a direct run its state to the origin at the next check: the model is still
 * evaluated there, its force discarded), so that the big system stays finite and the other
 * members go on. The guard sees the forces and the state it is
 * given (q alone in the second-order form); every component of the state is checked again at
 * each check of a direct run (the end at least) and at each output row of the other methods. A frozen member's state is meaningless and is
 * returned as NaN. A member an observer stops (3) is frozen the same way, its state kept aside
 * and the member parked where it stopped, at rest (clear_frozen).
 *
 * Chunks and threads (issue 28): the members are split into the chunks of kz_ens_chunk (a layout
 * that depends on M alone: a member's lane in the vector loops, hence its last bits, does not
 * depend on the thread count); each chunk is gathered into its own structure of arrays, run, and
 * scattered back. The chunks are handed out one at a time to the threads of a kz_pool (a thread
 * that finishes early takes the next), so the work, not the member count, is shared. Work
 * counts are per member (every vectorised call is one evaluation of every member). */
#include "kz_ens_ctx.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The chunks: nc = ceil(M / B) with B = ceil(M / 64) rounded up to a multiple of 8 and clamped
 * to 64 .. 256 members (at least about 64 chunks to share on many threads; at most 256 members,
 * whose arrays stay in the first-level cache; at least 64, below which the per-chunk calls cost
 * more than 5 % of the work); the V = ceil(M / 8) vectors of 8 members shared out evenly over
 * the nc chunks (chunk k gets V / nc vectors, one more for k < V % nc), so that the shares
 * differ by at most 8 members; the last chunk ends at member M. */
static long long chunk_count(long long M)
{
  long long b = (M + 63) / 64;
  b = (b + 7) / 8 * 8;
  b = b < 64 ? 64 : b > 256 ? 256 : b;
  return (M + b - 1) / b;
}

int kz_ens_chunk(long long M, long long k, long long *m0)
{
  if (M < 1 || k < 0) return 0;
  const long long nc = chunk_count(M), V = (M + 7) / 8, base = V / nc, extra = V % nc;
  if (k >= nc) return 0;
  const long long first = 8 * (k * base + (k < extra ? k : extra));
  const long long vk = base + (k < extra), end = first + 8 * vk < M ? first + 8 * vk : M;
  if (m0) *m0 = first;
  return (int)(end - first);
}

/* Zero the force of the frozen members, then flag and freeze those whose state (n components)
 * or force (nf components) left the finite range. The common case -- every force in range -- is
 * one vectorised pass that counts the numbers out of range. */
KZ_VECTOR_CLONES static void guard(kz_chunk *c, const double *y, int n, double *f, int nf)
{
  const int M = c->M;
  const double bound = c->bound;
  for (int k = 0; k < c->nfrozen; k++)
    for (int i = 0; i < nf; i++) f[(size_t)i * M + c->frozen[k]] = 0.0;
  /* the forces alone: a state can only leave the bound through a force beyond it (every member
   * starts within it, gather), and a non-finite state gives a non-finite force */
  long long out = 0;
  const size_t nff = (size_t)nf * (size_t)M;
#pragma omp simd reduction(+ : out)
  for (size_t k = 0; k < nff; k++) out += !(fabs(f[k]) <= bound);
  if (!out) return;
  for (int m = 0; m < M; m++) {
    if (c->failed[m] != KZ_ENS_FINE) continue;
    int bad = 0;
    for (int i = 0; !bad && i < n; i++) bad = !(fabs(y[(size_t)i * M + m]) <= bound);
    for (int i = 0; !bad && i < nf; i++) bad = !(fabs(f[(size_t)i * M + m]) <= bound);
    if (bad) {
      c->failed[m] = KZ_ENS_LEFT;
      kz_chunk_freeze(c, m);
      for (int i = 0; i < nf; i++) f[(size_t)i * M + m] = 0.0;
    }
  }
}

int kz_chunk_bound(kz_chunk *c, const double *x)
{
  const int M = c->M, d = c->e->dim, before = c->nfrozen;
  for (int m = 0; m < M; m++) {
    if (c->failed[m] != KZ_ENS_FINE) continue;
    int bad = 0;
    for (int i = 0; !bad && i < d; i++) bad = !(fabs(x[(size_t)i * M + m]) <= c->bound);
    if (bad) c->failed[m] = KZ_ENS_LEFT, kz_chunk_freeze(c, m);
  }
  return c->nfrozen - before;
}

/* The big system's field: the model's member loop fn over the chunk's members at t (or theta),
 * then the guard over the n components of x and of the result. */
static int ens_field(kz_chunk *c, kz_ens_fn fn, double t, const double *x, int n, double *out)
{
  KZ_TRY(fn(c->e->par, c->m0, c->M, t, x, out));
  guard(c, x, n, out, n);
  return KZ_OK;
}

static int ens_rhs(void *par, double t, const double *y, double *f)
{
  kz_chunk *c = par;
  return ens_field(c, c->e->rhs, t, y, c->e->dim, f);
}

static int ens_accel(void *par, double t, const double *q, double *a)
{
  kz_chunk *c = par;
  return ens_field(c, c->e->accel, t, q, c->e->nq, a);
}

static int ens_phase_rhs(void *par, double theta, const double *y, double *f)
{
  kz_chunk *c = par;
  return ens_field(c, c->e->phase_rhs, theta, y, c->e->dim, f);
}

static int ens_phase_accel(void *par, double theta, const double *q, double *a)
{
  kz_chunk *c = par;
  return ens_field(c, c->e->phase_accel, theta, q, c->e->nq, a);
}

static int ens_recon(void *par, double theta, const double *Y, double *y)
{
  kz_chunk *c = par;
  return c->e->reconstruct(c->e->par, c->m0, c->M, theta, Y, y);
}

int kz_ens_check(const kz_ens *e, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (e->M < 1 || e->M > (1LL << 40)) return kz_bad(r, KZ_EDOMAIN, "M");
  if (e->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (e->nq < 0 || (e->nq > 0 && 2 * e->nq != e->dim)) return kz_bad(r, KZ_EDOMAIN, "nq");
  if (e->nq == 0 && (e->accel || e->phase_accel)) return kz_bad(r, KZ_EDOMAIN, "nq");
  if (e->nq > 0 && (e->rhs || e->phase_rhs)) return kz_bad(r, KZ_EDOMAIN, "nq");
  if (!(e->bound >= 0) || isnan(e->bound)) return kz_bad(r, KZ_EDOMAIN, "bound");
  return KZ_OK;
}

int kz_chunk_open(kz_chunk *c, const kz_ens *e, long long m0, int M, int *failed, int stop)
{
  memset(c, 0, sizeof *c);
  c->e = e, c->m0 = m0, c->M = M;
  c->bound = e->bound > 0 ? e->bound : 1e100;
  c->failed = failed + m0;
  const size_t n = (size_t)M * (size_t)e->dim;
  c->y = malloc(sizeof(double) * n);
  c->tmp = malloc(sizeof(double) * ((size_t)M + (size_t)e->dim));
  c->frozen = malloc(sizeof(int) * (size_t)M);
  if (stop) c->held = malloc(sizeof(double) * n);
  if (!c->y || !c->tmp || !c->frozen || (stop && !c->held)) {
    kz_chunk_close(c);
    return KZ_ENOMEM;
  }
  const int D = e->dim * M, NQ = e->nq * M;
  kz_sys s = {.dim = D, .nq = NQ, .par = c};
  if (e->nq > 0) s.accel = e->accel ? ens_accel : NULL;
  else s.rhs = e->rhs ? ens_rhs : NULL;
  c->sys = s;
  kz_vib v = {D, NQ, e->omega, e->theta0, e->even_in_theta, NULL, NULL, NULL, c};
  if (e->nq > 0) v.accel = e->phase_accel ? ens_phase_accel : NULL;
  else v.rhs = e->phase_rhs ? ens_phase_rhs : NULL;
  v.reconstruct = e->reconstruct ? ens_recon : NULL;
  c->vib = v;
  kz_report_init(&c->rep);
  return KZ_OK;
}

void kz_chunk_close(kz_chunk *c)
{
  free(c->y);
  free(c->held);
  free(c->tmp);
  free(c->frozen);
  c->y = c->held = c->tmp = NULL;
  c->frozen = NULL;
}

void kz_chunk_gather(kz_chunk *c, const double *y)
{
  const int d = c->e->dim;
  const long long Mt = c->e->M;
  for (int m = 0; m < c->M; m++) c->failed[m] = KZ_ENS_FINE;
  for (int i = 0; i < d; i++)
    for (int m = 0; m < c->M; m++) {
      const double v = y[(size_t)i * (size_t)Mt + (size_t)(c->m0 + m)];
      if (!(fabs(v) <= c->bound)) c->failed[m] = KZ_ENS_BADSTART;
      c->y[(size_t)i * c->M + m] = v;
    }
  for (int m = 0; m < c->M; m++)
    if (c->failed[m] != KZ_ENS_FINE) {
      kz_chunk_freeze(c, m);
      for (int i = 0; i < d; i++) c->y[(size_t)i * c->M + m] = 0.0; /* frozen at the origin */
    }
}

void kz_chunk_scatter(const kz_chunk *c, const double *src, double *y)
{
  const int d = c->e->dim;
  const long long Mt = c->e->M;
  for (int i = 0; i < d; i++)
    for (int m = 0; m < c->M; m++) {
      const size_t k = (size_t)i * c->M + m;
      const int f = c->failed[m];
      y[(size_t)i * (size_t)Mt + (size_t)(c->m0 + m)] =
        f == KZ_ENS_FINE ? src[k] : f == KZ_ENS_STOPPED ? c->held[k] : NAN;
    }
}

int kz_chunks_finish(kz_chunk *cs, long long nc, kz_report *r)
{
  long long most = 0;
  for (long long k = 1; k < nc; k++)
    if (cs[k].rep.force_evals > cs[most].rep.force_evals) most = k;
  for (long long k = 0; k < nc; k++)
    if (cs[k].status != KZ_OK) {
      if (r) r->param = cs[k].rep.param, r->fail_step = cs[k].rep.fail_step, r->fail_time = cs[k].rep.fail_time;
      return cs[k].status;
    }
  if (r) {
    const kz_report *w = &cs[most].rep;
    r->micro_steps += w->micro_steps;
    r->force_evals += w->force_evals;
    r->macro_steps += w->macro_steps;
    r->rejected += w->rejected;
    r->newton_iters += w->newton_iters;
    r->jac_evals += w->jac_evals;
  }
  return KZ_OK;
}

/* ---------- direct integration: pieces of kz_steps on the big system, checks between ---------- */

typedef struct run_job {
  const kz_step_type *T;
  double t, h;
  long long n;
  const double *y;
  const kz_obs *obs;
  int nobs, stop;
  kz_chunk *cs;
  atomic_llong first_fail; /* the lowest failing chunk: later ones need not run */
} run_job;

/* Park the frozen members from index k0 of the frozen list where their zeroed force keeps them:
 * a failed member at the origin, a stopped one where it stopped, at rest (its velocities zeroed
 * in the second-order form), so that the model is evaluated there; the FSAL force zeroed too. */
static void clear_frozen(kz_chunk *c, int k0, const kz_chain *ch, int fsal)
{
  const int d = c->e->dim, nq = c->e->nq;
  for (int k = k0; k < c->nfrozen; k++) {
    const int m = c->frozen[k], from = c->failed[m] == KZ_ENS_STOPPED ? nq : 0;
    for (int i = from; i < d; i++) c->y[(size_t)i * c->M + m] = 0.0;
    for (int i = 0; fsal && ch->primed && i < d; i++) ch->f[(size_t)i * c->M + m] = 0.0;
  }
}

static int run_chunk(run_job *J, kz_chunk *c)
{
  const long long Mt = c->e->M, n = J->n;
  const int D = c->sys.dim;
  double *work = malloc(sizeof(double) * kz_steps_work(J->T, D));
  if (!work) return kz_fail(&c->rep, KZ_ENOMEM, "work", -1, NAN);
  kz_chain ch = {0};
  int st = KZ_OK;
  kz_obs_begin(J->obs, J->nobs, c, Mt);
  if (kz_obs_due(J->obs, J->nobs, 0)) st = kz_obs_check(J->obs, J->nobs, c, Mt, 0, J->t, c->y);
  clear_frozen(c, 0, &ch, 0); /* members stopped at the start (those that start bad are at 0) */
  int cleared = c->nfrozen;
  for (long long k = 0; st == KZ_OK && k < n;) {
    const long long next = kz_obs_next(J->obs, J->nobs, k, n);
    if (c->nfrozen < c->M) /* a chunk whose members all stopped or failed takes no more steps */
      st = kz_steps_piece(J->T, &c->sys, J->t, k, J->h, next - k, c->y, work, &ch, &c->rep);
    k = next;
    if (st != KZ_OK) break;
    kz_chunk_bound(c, c->y); /* a velocity can leave the bound with every force within it */
    clear_frozen(c, cleared, &ch, J->T->fsal); /* members that failed during the piece */
    cleared = c->nfrozen;
    if (kz_obs_due(J->obs, J->nobs, k)) st = kz_obs_check(J->obs, J->nobs, c, Mt, k, J->t + (double)k * J->h, c->y);
    clear_frozen(c, cleared, &ch, J->T->fsal); /* members stopped there */
    cleared = c->nfrozen;
  }
  if (st == KZ_OK) st = kz_obs_end(J->obs, J->nobs, c, Mt, J->t + (double)n * J->h, c->y);
  free(work);
  return st;
}

/* Chunk i (one item of the pool's job). */
static void run_item(void *arg, long long i, int tid)
{
  (void)tid;
  run_job *J = arg;
  kz_chunk *c = &J->cs[i];
  if (i > atomic_load_explicit(&J->first_fail, memory_order_relaxed)) return;
  kz_chunk_gather(c, J->y);
  c->status = run_chunk(J, c);
  if (c->status != KZ_OK) {
    long long f = atomic_load_explicit(&J->first_fail, memory_order_relaxed);
    while (i < f && !atomic_compare_exchange_weak(&J->first_fail, &f, i)) {}
  }
}

int kz_chunks_open(const kz_ens *e, int *failed, int stop, kz_chunk **out, long long *nc, kz_report *r)
{
  const long long n = chunk_count(e->M);
  kz_chunk *cs = calloc((size_t)n, sizeof *cs);
  if (!cs) return kz_bad(r, KZ_ENOMEM, "work");
  for (long long k = 0; k < n; k++) {
    long long m0;
    const int Mk = kz_ens_chunk(e->M, k, &m0);
    if (kz_chunk_open(&cs[k], e, m0, Mk, failed, stop) != KZ_OK) {
      for (long long j = 0; j < k; j++) kz_chunk_close(&cs[j]);
      free(cs);
      return kz_bad(r, KZ_ENOMEM, "work");
    }
  }
  *out = cs, *nc = n;
  return KZ_OK;
}

void kz_chunks_close(kz_chunk *cs, long long nc)
{
  for (long long k = 0; k < nc; k++) kz_chunk_close(&cs[k]);
  free(cs);
}

int kz_ens_run(const kz_step_type *T, const kz_ens *e, double t, double h, long long n, double *y,
               int *failed, const kz_obs *obs, int nobs, kz_pool *pool, kz_report *r)
{
  KZ_TRY(kz_ens_check(e, r));
  if (!T) return kz_bad(r, KZ_ENULL, "stepper");
  if (!(T->needs == KZ_NEEDS_RHS || T->needs == KZ_NEEDS_ACCEL))
    return kz_bad(r, KZ_EMODEL, "stepper"); /* explicit steppers on f or a only */
  if (e->nq > 0 ? !e->accel : !e->rhs) return kz_bad(r, KZ_EMODEL, e->nq > 0 ? "accel" : "rhs");
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  if (h == 0) return kz_bad(r, KZ_EDOMAIN, "h");
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  if (!y) return kz_bad(r, KZ_ENULL, "y");
  if (!failed) return kz_bad(r, KZ_ENULL, "failed");
  KZ_TRY(kz_obs_validate(obs, nobs, e->dim, e->M, n, 1, r));
  memset(failed, 0, sizeof(int) * (size_t)e->M);
  int stop = 0;
  for (int k = 0; k < nobs; k++) stop |= obs[k].kind == KZ_OBS_CROSS && obs[k].stop;
  run_job J = {.T = T, .t = t, .h = h, .n = n, .y = y, .obs = obs, .nobs = nobs, .stop = stop};
  long long nc;
  KZ_TRY(kz_chunks_open(e, failed, stop, &J.cs, &nc, r));
  atomic_init(&J.first_fail, nc);
  kz_pool_run(pool, nc, run_item, &J);
  const int st = kz_chunks_finish(J.cs, nc, r);
  if (st == KZ_OK)
    for (long long k = 0; k < nc; k++) kz_chunk_scatter(&J.cs[k], J.cs[k].y, y);
  kz_chunks_close(J.cs, nc);
  return st;
}
