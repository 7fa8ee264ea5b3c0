/* kz_ens_methods.c -- the HMM, SAM and the slow-variable HMM on ensembles (kz_ens.c has the
 * chunks, the guard and the direct runs; observers: kz_ens_obs.c), the work handed out to a
 * kz_pool's threads one chunk (one member for the slow-variable HMM) at a time.
 *
 * The HMM (kz_hmm_run, Calvo & Sanz-Serna Algorithms 1-2; Sharp, Tsai & Engquist) and SAM
 * (kz_sam_run, Calvo, Chartier, Murua & Sanz-Serna) run on each chunk's big system unchanged; the
 * observers look at their output rows. The slow-variable HMM (kz_slow_run, Fredbo's Algorithm 4)
 * solves a least-squares problem that couples a member's components, so each member is its own
 * scalar run, bit-identical to it. */
#include "kz_ens_ctx.h"
#include <stdlib.h>
#include <string.h>

/* ---------- the HMM and SAM: the method on each chunk's big system, then the rows observed ---------- */

typedef struct rows_job {
  int sam;                  /* 0: the HMM, 1: SAM */
  const kz_hmm_params *hp;
  const kz_step_type *micro;
  const kz_sam_params *sp;
  const kz_macro *mac;
  const double *tout;
  double H;                 /* the HMM's macro step (row j at j H) */
  long long rows;
  const double *y0;
  double *scratch;          /* rows * dim * M: chunk k's rows at rows * dim * m0 */
  const kz_obs *obs;
  int nobs;
  kz_chunk *cs;
} rows_job;

static int rows_chunk(rows_job *J, kz_chunk *c)
{
  const kz_ens *e = c->e;
  double *Y = J->scratch + (size_t)J->rows * (size_t)e->dim * (size_t)c->m0;
  int st;
  if (J->sam) {
    const kz_micro mi = {J->micro, &c->sys};
    st = kz_sam_run(&mi, J->sp, J->mac, c->y, J->rows, J->tout, Y, NULL, NULL, 0, NULL, &c->rep);
  } else {
    st = kz_hmm_run(&c->vib, J->hp, c->y, Y, J->rows, &c->rep);
  }
  if (st != KZ_OK) return st;
  const size_t row = (size_t)e->dim * (size_t)c->M;
  for (long long j = 0; j < J->rows; j++) kz_chunk_bound(c, Y + (size_t)j * row); /* every component */
  if (J->nobs == 0) return KZ_OK;
  kz_obs_begin(J->obs, J->nobs, c, e->M);
  for (long long j = 0; j < J->rows; j++) {
    const double t = J->sam ? J->tout[j] : (double)j * J->H;
    if (kz_obs_due(J->obs, J->nobs, j)) KZ_TRY(kz_obs_check(J->obs, J->nobs, c, e->M, j, t, Y + (size_t)j * row));
  }
  const double tN = J->sam ? J->tout[J->rows - 1] : (double)(J->rows - 1) * J->H;
  return kz_obs_end(J->obs, J->nobs, c, e->M, tN, Y + (size_t)(J->rows - 1) * row);
}

static void rows_item(void *arg, long long i, int tid)
{
  (void)tid;
  rows_job *J = arg;
  kz_chunk *c = &J->cs[i];
  kz_chunk_gather(c, J->y0);
  c->status = rows_chunk(J, c);
}

/* Run J on the ensemble's chunks and scatter the rows into out (rows of dim * M). */
static int rows_run(rows_job *J, const kz_ens *e, double *out, int *failed, kz_pool *pool,
                    kz_report *r)
{
  KZ_TRY(kz_obs_validate(J->obs, J->nobs, e->dim, e->M, J->rows - 1, 0, r));
  memset(failed, 0, sizeof(int) * (size_t)e->M);
  const size_t per_row = (size_t)e->dim * (size_t)e->M;
  J->scratch = malloc(sizeof(double) * per_row * (size_t)J->rows);
  if (!J->scratch) return kz_bad(r, KZ_ENOMEM, "work");
  long long nc;
  int st = kz_chunks_open(e, failed, 0, &J->cs, &nc, r);
  if (st != KZ_OK) {
    free(J->scratch);
    return st;
  }
  kz_pool_run(pool, nc, rows_item, J);
  st = kz_chunks_finish(J->cs, nc, r);
  if (st == KZ_OK)
    for (long long row = 0; row < J->rows; row++)
      for (long long k = 0; k < nc; k++) {
        const kz_chunk *c = &J->cs[k];
        const double *src = J->scratch + (size_t)J->rows * (size_t)e->dim * (size_t)c->m0 +
                            (size_t)row * (size_t)e->dim * (size_t)c->M;
        kz_chunk_scatter(c, src, out + (size_t)row * per_row);
      }
  kz_chunks_close(J->cs, nc);
  free(J->scratch);
  return st;
}

int kz_ens_hmm_run(const kz_ens *e, const kz_hmm_params *p, const double *Y0, double *Y_out,
                   long long nout, int *failed, const kz_obs *obs, int nobs, kz_pool *pool,
                   kz_report *r)
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
  if (!failed) return kz_bad(r, KZ_ENULL, "failed");
  rows_job J = {.hp = p, .H = p->H, .rows = N + 1, .y0 = Y0, .obs = obs, .nobs = nobs};
  return rows_run(&J, e, Y_out, failed, pool, r);
}

int kz_ens_sam_run(const kz_step_type *micro, const kz_ens *e, const kz_sam_params *p,
                   const kz_macro *mac, const double *y0, long long nout, const double *tout,
                   double *yout, int *failed, const kz_obs *obs, int nobs, kz_pool *pool,
                   kz_report *r)
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
  if (!tout) return kz_bad(r, KZ_ENULL, "tout");
  if (!failed) return kz_bad(r, KZ_ENULL, "failed");
  rows_job J = {.sam = 1, .micro = micro, .sp = p, .mac = mac, .tout = tout, .rows = nout,
                .y0 = y0, .obs = obs, .nobs = nobs};
  return rows_run(&J, e, yout, failed, pool, r);
}

/* ---------- the slow-variable HMM: members that differ in their initial states ---------- */

typedef struct slow_job {
  const kz_vib *m;
  const kz_slow *s;
  const kz_slow_params *p;
  long long M, rows;
  const double *x0;
  double *x_out;
  int *failed;
  const kz_obs *obs;
  int nobs;
  kz_ens view;          /* dim and M of the ensemble, the model's par: what the observers read */
  int *status;          /* per thread: KZ_OK, or an observer's failure (or KZ_ENOMEM) */
  long long *first_ok;  /* per thread: the lowest member that ran fine, and its counts */
  kz_report *rep;
} slow_job;

/* Member m: its scalar run (*ok: it ran fine; r: its counts), its rows into x_out, its
 * observers (their failure is returned, r naming it). */
static int slow_member(slow_job *a, long long m, double *x0, double *X, double *tmp, kz_report *r,
                       int *ok)
{
  const int d = a->s->dim;
  int bad = 0;
  for (int i = 0; i < d; i++) {
    x0[i] = a->x0[(size_t)i * (size_t)a->M + (size_t)m];
    if (!isfinite(x0[i])) bad = 1;
  }
  kz_report_init(r);
  const int st = bad ? KZ_ENONFINITE : kz_slow_run(a->m, a->s, a->p, x0, X, a->rows, NULL, r);
  *ok = st == KZ_OK;
  a->failed[m] = st == KZ_OK ? KZ_ENS_FINE : bad ? KZ_ENS_BADSTART : KZ_ENS_LEFT;
  for (long long row = 0; row < a->rows; row++)
    for (int i = 0; i < d; i++)
      a->x_out[((size_t)row * (size_t)d + (size_t)i) * (size_t)a->M + (size_t)m] =
        st == KZ_OK ? X[(size_t)row * (size_t)d + (size_t)i] : NAN;
  if (a->nobs == 0) return KZ_OK;
  /* the observers on the member as a chunk of one */
  int frozen;
  kz_chunk c = {.e = &a->view, .m0 = m, .M = 1, .failed = a->failed + m, .frozen = &frozen, .tmp = tmp};
  kz_report_init(&c.rep);
  int so = KZ_OK;
  kz_obs_begin(a->obs, a->nobs, &c, a->M);
  for (long long row = 0; so == KZ_OK && row < a->rows; row++)
    if (kz_obs_due(a->obs, a->nobs, row))
      so = kz_obs_check(a->obs, a->nobs, &c, a->M, row, (double)row * a->p->H, X + (size_t)row * (size_t)d);
  if (so == KZ_OK)
    so = kz_obs_end(a->obs, a->nobs, &c, a->M, (double)(a->rows - 1) * a->p->H, X + (size_t)(a->rows - 1) * (size_t)d);
  if (so != KZ_OK) *r = c.rep;
  return so;
}

/* Member m (one item of the pool's job), in buffers of its own. */
static void slow_item(void *arg, long long m, int tid)
{
  slow_job *a = arg;
  if (a->status[tid] != KZ_OK) return;
  const int d = a->s->dim;
  double *x0 = malloc(sizeof(double) * (size_t)d);
  double *X = malloc(sizeof(double) * (size_t)d * (size_t)a->rows);
  double *tmp = malloc(sizeof(double) * ((size_t)d + 1));
  if (x0 && X && tmp) {
    kz_report r;
    int ok;
    const int so = slow_member(a, m, x0, X, tmp, &r, &ok);
    if (so != KZ_OK) a->status[tid] = so, a->rep[tid] = r;
    else if (ok && m < a->first_ok[tid]) a->first_ok[tid] = m, a->rep[tid] = r;
  } else {
    a->status[tid] = KZ_ENOMEM, a->rep[tid].param = "work";
  }
  free(x0);
  free(X);
  free(tmp);
}

int kz_ens_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, long long M,
                    const double *x0, double *x_out, long long nout, int *failed,
                    const kz_obs *obs, int nobs, kz_pool *pool, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!s) return kz_bad(r, KZ_ENULL, "slow");
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (M < 1 || M > (1LL << 40)) return kz_bad(r, KZ_EDOMAIN, "M");
  KZ_TRY(kz_check_num(r, p->H, "H", 1));
  KZ_TRY(kz_check_num(r, p->T, "T", 1));
  const long long N = kz_steps_in(p->T, p->H);
  if (N < 1) return kz_bad(r, KZ_EGRID, "T");
  if (!x0) return kz_bad(r, KZ_ENULL, "x0");
  if (!x_out) return kz_bad(r, KZ_ENULL, "x_out");
  if (nout < N + 1) return kz_bad(r, KZ_EBUFFER, "x_out");
  if (!failed) return kz_bad(r, KZ_ENULL, "failed");
  KZ_TRY(kz_obs_validate(obs, nobs, s->dim, M, N, 0, r));
  const int nt = kz_pool_threads(pool);
  slow_job a = {m, s, p, M, N + 1, x0, x_out, failed, obs, nobs, {.M = M, .dim = s->dim, .par = m->par},
                NULL, NULL, NULL};
  a.status = calloc((size_t)nt, sizeof *a.status);
  a.first_ok = calloc((size_t)nt, sizeof *a.first_ok);
  a.rep = calloc((size_t)nt, sizeof *a.rep);
  int st = (a.status && a.first_ok && a.rep) ? KZ_OK : KZ_ENOMEM;
  if (st == KZ_OK) {
    for (int k = 0; k < nt; k++) a.first_ok[k] = M;
    kz_pool_run(pool, M, slow_item, &a);
    for (int k = 0; k < nt && st == KZ_OK; k++)
      if ((st = a.status[k]) != KZ_OK) kz_fail(r, st, a.rep[k].param, -1, a.rep[k].fail_time);
    /* the counts of the lowest member that ran fine (every member takes the same steps) */
    int best = -1;
    for (int k = 0; k < nt; k++)
      if (a.first_ok[k] < M && (best < 0 || a.first_ok[k] < a.first_ok[best])) best = k;
    if (st == KZ_OK && best >= 0 && r) {
      r->micro_steps += a.rep[best].micro_steps;
      r->force_evals += a.rep[best].force_evals;
      r->macro_steps += a.rep[best].macro_steps;
      r->jac_evals += a.rep[best].jac_evals;
    }
  }
  free(a.status);
  free(a.first_ok);
  free(a.rep);
  if (st == KZ_ENOMEM && !(a.status && a.first_ok && a.rep)) return kz_bad(r, st, "work");
  if (st != KZ_OK) return st;
  /* a set-up error (bad parameters) fails every member that started well the same way: report
   * it as the call's, from the first of them run again */
  long long first = -1;
  int all = 1;
  for (long long i = 0; i < M && all; i++) {
    if (failed[i] == KZ_ENS_BADSTART) continue;
    all = failed[i] == KZ_ENS_LEFT;
    if (first < 0) first = i;
  }
  if (all && first >= 0) {
    double *x = malloc(sizeof(double) * (size_t)s->dim * (size_t)(N + 1));
    double *x0m = malloc(sizeof(double) * (size_t)s->dim);
    if (!x || !x0m) {
      free(x);
      free(x0m);
      return kz_bad(r, KZ_ENOMEM, "work");
    }
    for (int i = 0; i < s->dim; i++) x0m[i] = x0[(size_t)i * (size_t)M + (size_t)first];
    st = kz_slow_run(m, s, p, x0m, x, N + 1, NULL, r);
    free(x);
    free(x0m);
    if (st != KZ_OK) return st;
  }
  return KZ_OK;
}
