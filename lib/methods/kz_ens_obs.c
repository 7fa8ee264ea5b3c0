/* kz_ens_obs.c -- observers: what a stability map or a sweep needs along a run, recorded per
 * member inside the one ensemble call (issue 28, item 2): the running max of |y_i|, the time of
 * the first check at which y_i (or |y_i|) is beyond a level, with an optional stop of the member
 * there, samples of the state every k steps into a caller-owned buffer, and an invariant (a
 * vectorised kz_ens_fn such as kz_pendulum_ens_hamiltonian) at the member's last state.
 *
 * The checks are the start and every `every`-th step (kz_ens_run: kz_ens.c takes the steps in
 * pieces between them, at the times one kz_run would use), or every `every`-th output row of the
 * HMM, SAM and the slow-variable ensemble (kz_ens_methods.c). Each member's record depends on
 * its own state alone, so observers keep the results bit-identical for any thread count; a
 * member that fails has NaN in its MAX, CROSS and FINAL records and in the samples taken after. */
#include "kz_ens_ctx.h"
#include <string.h>

long long kz_obs_checks(long long n, long long every)
{
  if (every < 1 || n < 0) return -1;
  return n / every + 1;
}

int kz_obs_validate(const kz_obs *obs, int nobs, int dim, long long M, long long n, int stop_ok,
                    kz_report *r)
{
  if (nobs < 0) return kz_bad(r, KZ_EDOMAIN, "observers");
  if (nobs > 0 && !obs) return kz_bad(r, KZ_ENULL, "observers");
  for (int k = 0; k < nobs; k++) {
    const kz_obs *o = &obs[k];
    if (o->kind < KZ_OBS_MAX || o->kind > KZ_OBS_FINAL) return kz_bad(r, KZ_EDOMAIN, "kind");
    if (o->every < 1) return kz_bad(r, KZ_EDOMAIN, "every");
    const int lo = o->kind == KZ_OBS_SAMPLE ? -1 : 0;
    if (o->kind != KZ_OBS_FINAL && (o->comp < lo || o->comp >= dim)) return kz_bad(r, KZ_EDOMAIN, "comp");
    if (o->kind == KZ_OBS_CROSS) {
      KZ_TRY(kz_check_num(r, o->level, "level", 0));
      if (o->stop && !stop_ok) return kz_bad(r, KZ_EMODEL, "stop");
    }
    if (o->kind == KZ_OBS_FINAL && !o->fn) return kz_bad(r, KZ_ENULL, "fn");
    if (!o->out) return kz_bad(r, KZ_ENULL, "out");
    long long need = M;
    if (o->kind == KZ_OBS_SAMPLE) {
      const long long rows = kz_obs_checks(n, o->every), nc = o->comp < 0 ? dim : 1;
      if (rows > (1LL << 50) / (nc * M)) return kz_bad(r, KZ_EDOMAIN, "every"); /* too many samples */
      need = rows * nc * M;
    }
    if (o->nout < need) return kz_bad(r, KZ_EBUFFER, "out");
  }
  return KZ_OK;
}

int kz_obs_due(const kz_obs *obs, int nobs, long long k)
{
  for (int j = 0; j < nobs; j++)
    if (k % obs[j].every == 0) return 1;
  return 0;
}

long long kz_obs_next(const kz_obs *obs, int nobs, long long k, long long n)
{
  long long next = n;
  for (int j = 0; j < nobs; j++) {
    const long long e = obs[j].every, b = (k / e + 1) * e;
    if (b < next) next = b;
  }
  return next;
}

void kz_obs_begin(const kz_obs *obs, int nobs, const kz_chunk *c, long long Mtot)
{
  (void)Mtot;
  for (int j = 0; j < nobs; j++) {
    const kz_obs *o = &obs[j];
    if (o->kind == KZ_OBS_SAMPLE) continue;
    for (int m = 0; m < c->M; m++) o->out[c->m0 + m] = o->kind == KZ_OBS_MAX ? 0.0 : NAN;
  }
}

/* FINAL observers for member m alone (an ensemble of one) at time t, state x (stride c->M). */
static int final_one(const kz_obs *obs, int nobs, kz_chunk *c, int m, double t, const double *x)
{
  const int d = c->e->dim;
  for (int i = 0; i < d; i++) c->tmp[i] = x[(size_t)i * c->M + m];
  for (int j = 0; j < nobs; j++) {
    const kz_obs *o = &obs[j];
    if (o->kind != KZ_OBS_FINAL) continue;
    const int st = o->fn(o->par ? o->par : c->e->par, c->m0 + m, 1, t, c->tmp, c->tmp + d);
    if (st != KZ_OK) return kz_fail(&c->rep, st, "fn", -1, t);
    o->out[c->m0 + m] = c->tmp[d];
  }
  return KZ_OK;
}

int kz_obs_check(const kz_obs *obs, int nobs, kz_chunk *c, long long Mtot, long long k, double t,
                 const double *x)
{
  const int M = c->M, d = c->e->dim, first = c->nfrozen;
  int *f = c->failed;
  for (int j = 0; j < nobs; j++) {
    const kz_obs *o = &obs[j];
    if (k % o->every != 0) continue;
    double *out = o->out + c->m0;
    const double *xc = x + (size_t)(o->comp > 0 ? o->comp : 0) * M;
    if (o->kind == KZ_OBS_MAX) {
      for (int m = 0; m < M; m++)
        if (f[m] <= KZ_ENS_FINE && fabs(xc[m]) > out[m]) out[m] = fabs(xc[m]);
    } else if (o->kind == KZ_OBS_CROSS) {
      for (int m = 0; m < M; m++) {
        if (f[m] > KZ_ENS_FINE || !isnan(out[m])) continue;
        const double v = o->absolute ? fabs(xc[m]) : xc[m];
        if (o->dir >= 0 ? v >= o->level : v <= o->level) {
          out[m] = t;
          if (o->stop && f[m] == KZ_ENS_FINE) f[m] = KZ_ENS_STOPPING, kz_chunk_freeze(c, m);
        }
      }
    } else if (o->kind == KZ_OBS_SAMPLE) {
      const int nc = o->comp < 0 ? d : 1, c0 = o->comp < 0 ? 0 : o->comp;
      const long long row = k / o->every;
      for (int i = 0; i < nc; i++) {
        double *dst = o->out + (size_t)(row * nc + i) * (size_t)Mtot + (size_t)c->m0;
        const size_t off = (size_t)(c0 + i) * M;
        for (int m = 0; m < M; m++)
          dst[m] = f[m] <= KZ_ENS_FINE ? x[off + m] : f[m] == KZ_ENS_STOPPED ? c->held[off + m] : NAN;
      }
    }
  }
  /* the members stopped at this check: their state kept, their invariants taken now */
  for (int k2 = first; k2 < c->nfrozen; k2++) {
    const int m = c->frozen[k2];
    f[m] = KZ_ENS_STOPPED;
    for (int i = 0; i < d; i++) c->held[(size_t)i * M + m] = x[(size_t)i * M + m];
    KZ_TRY(final_one(obs, nobs, c, m, t, x));
  }
  return KZ_OK;
}

int kz_obs_end(const kz_obs *obs, int nobs, kz_chunk *c, long long Mtot, double t, const double *x)
{
  (void)Mtot;
  const int M = c->M;
  const int *f = c->failed;
  int running = 0;
  for (int m = 0; m < M; m++) running += f[m] == KZ_ENS_FINE;
  for (int j = 0; j < nobs; j++) {
    const kz_obs *o = &obs[j];
    if (o->kind == KZ_OBS_SAMPLE) continue;
    double *out = o->out + c->m0;
    if (o->kind == KZ_OBS_FINAL && running) {
      const int st = o->fn(o->par ? o->par : c->e->par, c->m0, M, t, x, c->tmp);
      if (st != KZ_OK) return kz_fail(&c->rep, st, "fn", -1, t);
      for (int m = 0; m < M; m++)
        if (f[m] == KZ_ENS_FINE) out[m] = c->tmp[m];
    }
    for (int m = 0; m < M; m++)
      if (f[m] == KZ_ENS_BADSTART || f[m] == KZ_ENS_LEFT) out[m] = NAN;
  }
  return KZ_OK;
}
