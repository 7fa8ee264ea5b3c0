/* kz_ens.c -- ensembles: M independent members of one model (initial states and/or parameter
 * values) advanced together by the library's methods, unchanged.
 *
 * The idea: M copies of a system of dimension d are one system of dimension d M. Stored as a
 * structure of arrays -- component i of member m at y[i M + m] -- the q block of the second-order
 * form is still the first nq M numbers, so the big system is an ordinary kz_sys (or kz_vib) and
 * every explicit registry stepper, the HMM (kz_hmm.c, whose macro schemes and kernel average act
 * componentwise) and SAM (kz_sam.c) integrate it with their own code: no stepper or method is
 * written twice. The member loop is innermost in the model (kz_ens_models.c, vectorised), and the
 * steppers' loops over d M numbers vectorise by themselves. Every member sees exactly the scalar
 * arithmetic of its own run (the methods never mix components), so an ensemble member equals its
 * scalar run up to the model's vector math functions (libmvec: a few ulp per call, against libm).
 *
 * A member whose state or force is not finite, or exceeds e->bound in magnitude, is flagged in
 * failed[m] (1 = state at the start, 2 = during the run) and frozen from then on (its force is
 * set to zero), so that the big system stays finite and the other members go on. A frozen
 * member's state is meaningless and is returned as NaN.
 *
 * Chunks and threads: the members are split into contiguous chunks of at most KZ_ENS_BLOCK members
 * (so that a chunk's arrays stay in the first-level cache) and at least one per thread; each chunk
 * is gathered into its own structure of arrays, run, and scattered back; thread k (POSIX threads)
 * runs chunks k, k + nthreads, ... Work counts are
 * per member (every vectorised call is one evaluation of every member). */
#include "kz_internal.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* members per chunk: 256 members of a 2-dimensional model are 4 KiB per array */
enum { KZ_ENS_BLOCK = 256 };

/* One chunk: members m0 .. m0 + M - 1 of the ensemble. */
typedef struct chunk {
  const kz_ens *e;
  long long m0;
  int M;
  int *failed;      /* the M flags of this chunk (a slice of the caller's array) */
  int nfailed;      /* how many of them are set */
  double bound;
  kz_sys sys;       /* the big system (time form) */
  kz_vib vib;       /* the big system (phase form) */
  double *y;        /* M * dim numbers, structure of arrays */
  kz_report rep;
  int status;
} chunk;

/* Flag and freeze the members of y (n components) and f (nf components) that left the finite
 * range; f is zeroed for every flagged member. The common case -- every number in range and no
 * member frozen yet -- is one vectorised pass that counts the numbers out of range. */
KZ_VECTOR_CLONES static void guard(chunk *c, const double *y, int n, double *f, int nf)
{
  const int M = c->M;
  const double bound = c->bound;
  if (!c->nfailed) {
    /* the forces alone: a state can only leave the bound through a force beyond it (every
     * member starts within it, gather), and a non-finite state gives a non-finite force */
    long long out = 0;
    const size_t nff = (size_t)nf * (size_t)M;
#pragma omp simd reduction(+ : out)
    for (size_t k = 0; k < nff; k++) out += !(fabs(f[k]) <= bound);
    if (!out) return;
  }
  for (int m = 0; m < M; m++) {
    int bad = c->failed[m];
    for (int i = 0; !bad && i < n; i++)
      if (!(fabs(y[(size_t)i * M + m]) <= bound)) bad = 2;
    for (int i = 0; !bad && i < nf; i++)
      if (!(fabs(f[(size_t)i * M + m]) <= bound)) bad = 2;
    if (bad) {
      if (!c->failed[m]) c->failed[m] = bad, c->nfailed++;
      for (int i = 0; i < nf; i++) f[(size_t)i * M + m] = 0.0;
    }
  }
}

/* The big system's field: the model's member loop fn over the chunk's members at t (or theta),
 * then the guard over the n components of x and of the result. The four forms below differ only
 * in which loop they call and how many components they carry. */
static int ens_field(chunk *c, kz_ens_fn fn, double t, const double *x, int n, double *out)
{
  KZ_TRY(fn(c->e->par, c->m0, c->M, t, x, out));
  guard(c, x, n, out, n);
  return KZ_OK;
}

static int ens_rhs(void *par, double t, const double *y, double *f)
{
  chunk *c = par;
  return ens_field(c, c->e->rhs, t, y, c->e->dim, f);
}

static int ens_accel(void *par, double t, const double *q, double *a)
{
  chunk *c = par;
  return ens_field(c, c->e->accel, t, q, c->e->nq, a);
}

static int ens_phase_rhs(void *par, double theta, const double *y, double *f)
{
  chunk *c = par;
  return ens_field(c, c->e->phase_rhs, theta, y, c->e->dim, f);
}

static int ens_phase_accel(void *par, double theta, const double *q, double *a)
{
  chunk *c = par;
  return ens_field(c, c->e->phase_accel, theta, q, c->e->nq, a);
}

static int ens_recon(void *par, double theta, const double *Y, double *y)
{
  chunk *c = par;
  const kz_ens *e = c->e;
  return e->reconstruct(e->par, c->m0, c->M, theta, Y, y);
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

/* Split the members into nthreads contiguous chunks and set each up (systems, buffers). */
static int open_chunks(const kz_ens *e, int nthreads, chunk **out, int *nchunks, int *failed,
                       kz_report *r)
{
  if (nthreads < 1 || nthreads > 256) return kz_bad(r, KZ_EDOMAIN, "threads");
  long long nc = (e->M + KZ_ENS_BLOCK - 1) / KZ_ENS_BLOCK;
  if (nc < nthreads) nc = nthreads < e->M ? nthreads : e->M;
  chunk *cs = calloc((size_t)nc, sizeof *cs);
  if (!cs) return kz_bad(r, KZ_ENOMEM, "work");
  const long long base = e->M / nc, extra = e->M % nc;
  long long m0 = 0;
  for (long long k = 0; k < nc; k++) {
    chunk *c = &cs[k];
    const long long Mk = base + (k < extra);
    if (Mk > 0x7fffffff) {
      free(cs);
      return kz_bad(r, KZ_EDOMAIN, "M");
    }
    c->e = e, c->m0 = m0, c->M = (int)Mk;
    c->bound = e->bound > 0 ? e->bound : 1e100;
    c->failed = failed + m0;
    c->y = malloc(sizeof(double) * (size_t)Mk * (size_t)e->dim);
    if (!c->y) {
      for (long long j = 0; j < k; j++) free(cs[j].y);
      free(cs);
      return kz_bad(r, KZ_ENOMEM, "work");
    }
    const int D = e->dim * c->M, NQ = e->nq * c->M;
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
    m0 += Mk;
  }
  *out = cs, *nchunks = (int)nc;
  return KZ_OK;
}

static void close_chunks(chunk *cs, int nc)
{
  for (int k = 0; k < nc; k++) free(cs[k].y);
  free(cs);
}

/* member m of chunk c, component i, in the full ensemble's layout (stride M) and the chunk's */
static void gather(chunk *c, const double *y, long long M)
{
  const int d = c->e->dim;
  for (int i = 0; i < d; i++)
    for (int m = 0; m < c->M; m++) {
      double v = y[(size_t)i * M + c->m0 + m];
      if (!(fabs(v) <= c->bound)) c->failed[m] = 1;
      c->y[(size_t)i * c->M + m] = v;
    }
  for (int m = 0; m < c->M; m++)
    if (c->failed[m]) {
      c->nfailed++;
      for (int i = 0; i < d; i++) c->y[(size_t)i * c->M + m] = 0.0; /* frozen at the origin */
    }
}

static void scatter(const chunk *c, const double *src, int stride, double *y, long long M)
{
  const int d = c->e->dim;
  for (int i = 0; i < d; i++)
    for (int m = 0; m < c->M; m++)
      y[(size_t)i * M + c->m0 + m] = c->failed[m] ? NAN : src[(size_t)i * stride + m];
}

/* Run job(c) for every chunk: thread k takes chunks k, k + nthreads, ... */
typedef void (*job_fn)(chunk *c, void *arg);
typedef struct job { job_fn f; chunk *cs; int nc, k, nthreads; void *arg; } job;

static void *thread_main(void *p)
{
  job *j = p;
  for (int i = j->k; i < j->nc; i += j->nthreads) j->f(&j->cs[i], j->arg);
  return NULL;
}

static void run_all(chunk *cs, int nc, int nthreads, job_fn f, void *arg)
{
  if (nthreads > nc) nthreads = nc;
  pthread_t th[256];
  job jobs[256];
  int started[256];
  for (int k = 0; k < nthreads; k++) {
    jobs[k] = (job){f, cs, nc, k, nthreads, arg};
    started[k] = k > 0 && pthread_create(&th[k], NULL, thread_main, &jobs[k]) == 0;
  }
  for (int k = 0; k < nthreads; k++)
    if (!started[k]) thread_main(&jobs[k]); /* thread 0's share, and any thread that did not start */
  for (int k = 1; k < nthreads; k++)
    if (started[k]) pthread_join(th[k], NULL);
}

/* The chunks' status (the first failure) and counts (per member: chunk 0's; every chunk takes
 * the same steps). */
static int finish(chunk *cs, int nc, kz_report *r)
{
  int st = KZ_OK;
  for (int k = 0; k < nc && st == KZ_OK; k++) {
    if (cs[k].status != KZ_OK) {
      st = cs[k].status;
      if (r) {
        r->param = cs[k].rep.param;
        r->fail_step = cs[k].rep.fail_step;
        r->fail_time = cs[k].rep.fail_time;
      }
    }
  }
  if (r) {
    r->micro_steps += cs[0].rep.micro_steps;
    r->force_evals += cs[0].rep.force_evals;
    r->macro_steps += cs[0].rep.macro_steps;
    r->rejected += cs[0].rep.rejected;
    r->newton_iters += cs[0].rep.newton_iters;
    r->jac_evals += cs[0].rep.jac_evals;
  }
  return st;
}

static int check_failed(int *failed, long long M, kz_report *r)
{
  if (!failed) return kz_bad(r, KZ_ENULL, "failed");
  for (long long m = 0; m < M; m++) failed[m] = 0;
  return KZ_OK;
}

/* ---------- direct integration: kz_run on the big system ---------- */

typedef struct run_arg { const kz_step_type *T; double t, h; long long n; } run_arg;

static void run_job(chunk *c, void *p)
{
  const run_arg *a = p;
  c->status = kz_run(a->T, &c->sys, a->t, a->h, a->n, c->y, &c->rep);
}

int kz_ens_run(const kz_step_type *T, const kz_ens *e, double t, double h, long long n, double *y,
               int *failed, int nthreads, kz_report *r)
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
  KZ_TRY(check_failed(failed, e->M, r));
  chunk *cs;
  int nc;
  KZ_TRY(open_chunks(e, nthreads, &cs, &nc, failed, r));
  for (int k = 0; k < nc; k++) gather(&cs[k], y, e->M);
  run_arg a = {T, t, h, n};
  run_all(cs, nc, nthreads, run_job, &a);
  const int st = finish(cs, nc, r);
  if (st == KZ_OK)
    for (int k = 0; k < nc; k++) scatter(&cs[k], cs[k].y, cs[k].M, y, e->M);
  close_chunks(cs, nc);
  return st;
}

/* ---------- the HMM: kz_hmm_run on the big fast-forced system ---------- */

typedef struct hmm_arg { const kz_hmm_params *p; long long rows; double *out; } hmm_arg;

static void hmm_job(chunk *c, void *p)
{
  hmm_arg *a = p;
  /* the chunk's rows: rows * dim * M_chunk numbers, at the chunk's slot of the scratch */
  double *Y = a->out + (size_t)a->rows * (size_t)c->e->dim * (size_t)c->m0;
  c->status = kz_hmm_run(&c->vib, a->p, c->y, Y, a->rows, &c->rep);
}

int kz_ens_hmm_run(const kz_ens *e, const kz_hmm_params *p, const double *Y0, double *Y_out,
                   long long nout, int *failed, int nthreads, kz_report *r)
{
  KZ_TRY(kz_ens_check(e, r));
  if (e->nq > 0 ? !e->phase_accel : !e->phase_rhs)
    return kz_bad(r, KZ_EMODEL, e->nq > 0 ? "phase_accel" : "phase_rhs");
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  KZ_TRY(kz_check_num(r, p->H, "H", 1));
  KZ_TRY(kz_check_num(r, p->T, "T", 1));
  const long long N = kz_steps_in(p->T, p->H);
  if (N < 1) return kz_bad(r, KZ_EGRID, "T");
  if (!Y0) return kz_bad(r, KZ_ENULL, "Y0");
  if (!Y_out) return kz_bad(r, KZ_ENULL, "Y_out");
  if (nout < N + 1) return kz_bad(r, KZ_EBUFFER, "Y_out");
  KZ_TRY(check_failed(failed, e->M, r));
  const size_t per_row = (size_t)e->dim * (size_t)e->M;
  double *scratch = malloc(sizeof(double) * per_row * (size_t)(N + 1));
  if (!scratch) return kz_bad(r, KZ_ENOMEM, "work");
  chunk *cs;
  int nc;
  int st = open_chunks(e, nthreads, &cs, &nc, failed, r);
  if (st != KZ_OK) {
    free(scratch);
    return st;
  }
  for (int k = 0; k < nc; k++) gather(&cs[k], Y0, e->M);
  hmm_arg a = {p, N + 1, scratch};
  run_all(cs, nc, nthreads, hmm_job, &a);
  st = finish(cs, nc, r);
  if (st == KZ_OK)
    for (long long row = 0; row <= N; row++)
      for (int k = 0; k < nc; k++) {
        const double *src = scratch + (size_t)(N + 1) * (size_t)e->dim * (size_t)cs[k].m0 +
                            (size_t)row * (size_t)e->dim * (size_t)cs[k].M;
        scatter(&cs[k], src, cs[k].M, Y_out + (size_t)row * per_row, e->M);
      }
  close_chunks(cs, nc);
  free(scratch);
  return st;
}

/* ---------- SAM: kz_sam_run on the big system (fixed macro steps) ---------- */

typedef struct sam_arg {
  const kz_step_type *micro;
  const kz_sam_params *p;
  const kz_macro *mac;
  long long nout;
  const double *tout;
  double *out;
} sam_arg;

static void sam_job(chunk *c, void *p)
{
  sam_arg *a = p;
  const kz_micro mi = {a->micro, &c->sys};
  double *Y = a->out + (size_t)a->nout * (size_t)c->e->dim * (size_t)c->m0;
  c->status = kz_sam_run(&mi, a->p, a->mac, c->y, a->nout, a->tout, Y, NULL, NULL, 0, NULL, &c->rep);
}

int kz_ens_sam_run(const kz_step_type *micro, const kz_ens *e, const kz_sam_params *p,
                   const kz_macro *mac, const double *y0, long long nout, const double *tout,
                   double *yout, int *failed, int nthreads, kz_report *r)
{
  KZ_TRY(kz_ens_check(e, r));
  if (!micro) return kz_bad(r, KZ_ENULL, "micro");
  if (!(micro->needs == KZ_NEEDS_RHS || micro->needs == KZ_NEEDS_ACCEL))
    return kz_bad(r, KZ_EMODEL, "micro");
  if (e->nq > 0 ? !e->accel : !e->rhs) return kz_bad(r, KZ_EMODEL, e->nq > 0 ? "accel" : "rhs");
  if (!mac) return kz_bad(r, KZ_ENULL, "macro");
  if (mac->kind != KZ_MACRO_FIXED) return kz_bad(r, KZ_EMODEL, "macro"); /* ode45's norm mixes members */
  if (!y0) return kz_bad(r, KZ_ENULL, "y0");
  if (!yout) return kz_bad(r, KZ_ENULL, "yout");
  if (nout < 1) return kz_bad(r, KZ_EDOMAIN, "nout");
  KZ_TRY(check_failed(failed, e->M, r));
  const size_t per_row = (size_t)e->dim * (size_t)e->M;
  double *scratch = malloc(sizeof(double) * per_row * (size_t)nout);
  if (!scratch) return kz_bad(r, KZ_ENOMEM, "work");
  chunk *cs;
  int nc;
  int st = open_chunks(e, nthreads, &cs, &nc, failed, r);
  if (st != KZ_OK) {
    free(scratch);
    return st;
  }
  for (int k = 0; k < nc; k++) gather(&cs[k], y0, e->M);
  sam_arg a = {micro, p, mac, nout, tout, scratch};
  run_all(cs, nc, nthreads, sam_job, &a);
  st = finish(cs, nc, r);
  if (st == KZ_OK)
    for (long long row = 0; row < nout; row++)
      for (int k = 0; k < nc; k++) {
        const double *src = scratch + (size_t)nout * (size_t)e->dim * (size_t)cs[k].m0 +
                            (size_t)row * (size_t)e->dim * (size_t)cs[k].M;
        scatter(&cs[k], src, cs[k].M, yout + (size_t)row * per_row, e->M);
      }
  close_chunks(cs, nc);
  free(scratch);
  return st;
}

/* ---------- the slow-variable HMM: members that differ in their initial states ---------- */

/* The least-squares solve of Algorithm 4 couples the components of one member, so the big-system
 * form does not apply: every member is its own kz_slow_run (bit-identical to the scalar run),
 * and the members are split over the threads. */
typedef struct slow_arg {
  const kz_vib *m;
  const kz_slow *s;
  const kz_slow_params *p;
  long long M, rows;
  const double *x0;
  double *x_out;
  int *failed;
  int nthreads;
  int status;
  kz_report rep;
} slow_arg;

typedef struct slow_job { slow_arg *a; int k; int status; kz_report rep; } slow_job;

static void *slow_main(void *p)
{
  slow_job *j = p;
  slow_arg *a = j->a;
  const int d = a->s->dim;
  double *x0 = malloc(sizeof(double) * (size_t)d);
  double *X = malloc(sizeof(double) * (size_t)d * (size_t)a->rows);
  j->status = KZ_OK;
  kz_report_init(&j->rep);
  if (!x0 || !X) j->status = KZ_ENOMEM;
  for (long long m = j->k; j->status == KZ_OK && m < a->M; m += a->nthreads) {
    int bad = 0;
    for (int i = 0; i < d; i++) {
      x0[i] = a->x0[(size_t)i * a->M + m];
      if (!isfinite(x0[i])) bad = 1;
    }
    kz_report r;
    kz_report_init(&r);
    const int st = bad ? KZ_ENONFINITE : kz_slow_run(a->m, a->s, a->p, x0, X, a->rows, NULL, &r);
    if (st != KZ_OK) a->failed[m] = bad ? 1 : 2;
    else if (m == 0 || j->rep.force_evals == 0) j->rep = r; /* counts per member: one member's */
    for (long long row = 0; row < a->rows; row++)
      for (int i = 0; i < d; i++)
        a->x_out[((size_t)row * (size_t)d + (size_t)i) * (size_t)a->M + m] =
          st == KZ_OK ? X[(size_t)row * (size_t)d + (size_t)i] : NAN;
  }
  free(x0);
  free(X);
  return NULL;
}

int kz_ens_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, long long M,
                    const double *x0, double *x_out, long long nout, int *failed, int nthreads,
                    kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!s) return kz_bad(r, KZ_ENULL, "slow");
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  if (nthreads < 1 || nthreads > 256) return kz_bad(r, KZ_EDOMAIN, "threads");
  KZ_TRY(kz_check_num(r, p->H, "H", 1));
  KZ_TRY(kz_check_num(r, p->T, "T", 1));
  const long long N = kz_steps_in(p->T, p->H);
  if (N < 1) return kz_bad(r, KZ_EGRID, "T");
  if (!x0) return kz_bad(r, KZ_ENULL, "x0");
  if (!x_out) return kz_bad(r, KZ_ENULL, "x_out");
  if (nout < N + 1) return kz_bad(r, KZ_EBUFFER, "x_out");
  KZ_TRY(check_failed(failed, M, r));
  slow_arg a = {m, s, p, M, N + 1, x0, x_out, failed, nthreads < M ? nthreads : (int)M, KZ_OK, {0}};
  pthread_t th[256];
  slow_job jobs[256];
  int started[256];
  for (int k = 0; k < a.nthreads; k++) {
    jobs[k] = (slow_job){&a, k, KZ_OK, {0}};
    started[k] = k > 0 && pthread_create(&th[k], NULL, slow_main, &jobs[k]) == 0;
  }
  for (int k = 0; k < a.nthreads; k++)
    if (!started[k]) slow_main(&jobs[k]);
  for (int k = 1; k < a.nthreads; k++)
    if (started[k]) pthread_join(th[k], NULL);
  int st = KZ_OK;
  for (int k = 0; k < a.nthreads && st == KZ_OK; k++) st = jobs[k].status;
  if (st != KZ_OK) return kz_bad(r, st, "work");
  /* a set-up error (bad parameters) fails every member the same way: report it as the call's */
  int all = 1;
  for (long long i = 0; i < M && all; i++) all = failed[i] == 2;
  if (all) {
    double *x = malloc(sizeof(double) * (size_t)s->dim * (size_t)(N + 1));
    double *x0m = malloc(sizeof(double) * (size_t)s->dim);
    if (!x || !x0m) {
      free(x);
      free(x0m);
      return kz_bad(r, KZ_ENOMEM, "work");
    }
    for (int i = 0; i < s->dim; i++) x0m[i] = x0[(size_t)i * M];
    st = kz_slow_run(m, s, p, x0m, x, N + 1, NULL, r);
    free(x);
    free(x0m);
    if (st != KZ_OK) return st;
  }
  if (r) {
    for (int k = 0; k < a.nthreads; k++)
      if (jobs[k].rep.force_evals) {
        r->micro_steps += jobs[k].rep.micro_steps;
        r->force_evals += jobs[k].rep.force_evals;
        r->macro_steps += jobs[k].rep.macro_steps;
        r->jac_evals += jobs[k].rep.jac_evals;
        break;
      }
  }
  return KZ_OK;
}
