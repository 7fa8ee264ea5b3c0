/* kz_pool.c -- a worker pool paid for once: nthreads - 1 POSIX threads created by kz_pool_new
 * and reused by every call (kz_pool_run), as the OpenMP runtimes (libgomp's team and its
 * GOMP_SPINCOUNT) and threaded BLAS keep theirs (issue 28, item 1).
 *
 * Protocol. A call stores its job (fn, arg, nitems), sets the ticket to (generation, item 0),
 * and raises the generation (release) under the mutex, broadcasting to the sleepers. Every thread
 * of the pool, the caller included, then takes items by a compare-and-swap on the ticket that
 * succeeds only while the ticket still carries the generation it joined, and counts each item
 * done; the caller returns when the count reaches nitems (acquire: the items' writes are
 * visible). A thread that wakes late finds the ticket exhausted or of a newer generation, and
 * neither runs nor reads anything of the old job: so the caller never waits for a thread that is
 * asleep or descheduled, and a short call costs the caller no more than doing it alone. Between
 * calls a worker spins for KZ_POOL_SPIN_NS on the generation (a pause instruction per turn, a
 * sched_yield every 64 turns, so that on a loaded machine it gives its core to whoever waits
 * for one), then sleeps on the condition variable, so that back-to-back short calls find it
 * awake and an idle pool costs nothing; the caller likewise spins (and yields) before sleeping
 * on the count. A second caller that finds the pool busy (trylock) runs its job on its own
 * thread: no deadlock, and the results do not depend on which thread ran an item. No global
 * state: all is in the kz_pool. */
#include "kz_internal.h"
#include "kz_pool.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { KZ_POOL_MAX = 256, KZ_POOL_SPIN_NS = 100000, KZ_POOL_ITEM_BITS = 40 };
#define KZ_POOL_ITEMS ((1ULL << KZ_POOL_ITEM_BITS) - 1)

typedef struct worker { kz_pool *pool; int tid; } worker;

struct kz_pool {
  int n;                         /* threads, the caller included */
  pthread_t *th;                 /* n - 1 workers */
  worker *w;
  pthread_mutex_t mu;            /* guards the sleeps on wake and done */
  pthread_cond_t wake, done;
  pthread_mutex_t busy;          /* held by the call using the pool */
  atomic_ulong gen;              /* raised by each call (and by kz_pool_free) */
  atomic_int quit;
  atomic_ullong ticket;          /* (generation mod 2^24) << 40 | the next item */
  atomic_llong completed;        /* items done in the current job */
  _Atomic(kz_pool_fn) fn;        /* the current job (relaxed: the ticket's generation vouches) */
  _Atomic(void *) arg;
  atomic_llong nitems;
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static long long now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spin until gen differs from seen (at most KZ_POOL_SPIN_NS), then sleep until it does. */
static unsigned long wait_gen(kz_pool *P, unsigned long seen)
{
  unsigned long g = atomic_load_explicit(&P->gen, memory_order_acquire);
  const long long end = now_ns() + KZ_POOL_SPIN_NS;
  for (int k = 1; g == seen; k++) {
    relax();
    g = atomic_load_explicit(&P->gen, memory_order_acquire);
    if ((k & 63) == 0) {
      if (now_ns() > end) break;
      sched_yield(); /* a loaded machine: the core to whoever needs it (at once back when idle) */
    }
  }
  if (g == seen) {
    pthread_mutex_lock(&P->mu);
    while ((g = atomic_load_explicit(&P->gen, memory_order_acquire)) == seen) pthread_cond_wait(&P->wake, &P->mu);
    pthread_mutex_unlock(&P->mu);
  }
  return g;
}

/* Take and run the items of the job of generation g until none is left (or the job is gone). */
static void work(kz_pool *P, unsigned long g, int tid)
{
  const kz_pool_fn fn = atomic_load_explicit(&P->fn, memory_order_relaxed);
  void *const arg = atomic_load_explicit(&P->arg, memory_order_relaxed);
  const unsigned long long n = (unsigned long long)atomic_load_explicit(&P->nitems, memory_order_relaxed);
  const unsigned long long tag = (unsigned long long)(g & 0xffffffUL) << KZ_POOL_ITEM_BITS;
  unsigned long long t = atomic_load_explicit(&P->ticket, memory_order_acquire);
  for (;;) {
    if ((t & ~KZ_POOL_ITEMS) != tag || (t & KZ_POOL_ITEMS) >= n) return;
    if (!atomic_compare_exchange_weak_explicit(&P->ticket, &t, t + 1, memory_order_acq_rel, memory_order_acquire))
      continue;
    fn(arg, (long long)(t & KZ_POOL_ITEMS), tid);
    if ((unsigned long long)atomic_fetch_add_explicit(&P->completed, 1, memory_order_acq_rel) + 1 == n) {
      pthread_mutex_lock(&P->mu);
      pthread_cond_signal(&P->done);
      pthread_mutex_unlock(&P->mu);
    }
    t = atomic_load_explicit(&P->ticket, memory_order_acquire);
  }
}

static void *worker_main(void *p)
{
  worker *w = p;
  kz_pool *P = w->pool;
  unsigned long seen = 0;
  for (;;) {
    seen = wait_gen(P, seen);
    if (atomic_load_explicit(&P->quit, memory_order_acquire)) return NULL;
    work(P, seen, w->tid);
  }
}

/* Raise the generation (the workers' signal to take part, or to quit). */
static void raise_gen(kz_pool *P)
{
  pthread_mutex_lock(&P->mu);
  atomic_fetch_add_explicit(&P->gen, 1, memory_order_release);
  pthread_cond_broadcast(&P->wake);
  pthread_mutex_unlock(&P->mu);
}

static void stop_workers(kz_pool *P, int started)
{
  atomic_store_explicit(&P->quit, 1, memory_order_release);
  raise_gen(P);
  for (int k = 0; k < started; k++) pthread_join(P->th[k], NULL);
}

static void destroy(kz_pool *P)
{
  pthread_mutex_destroy(&P->mu);
  pthread_mutex_destroy(&P->busy);
  pthread_cond_destroy(&P->wake);
  pthread_cond_destroy(&P->done);
  free(P->th);
  free(P->w);
  free(P);
}

int kz_pool_new(int nthreads, kz_pool **out, kz_report *r)
{
  if (!out) return kz_bad(r, KZ_ENULL, "pool");
  *out = NULL;
  if (nthreads < 1 || nthreads > KZ_POOL_MAX) return kz_bad(r, KZ_EDOMAIN, "threads");
  kz_pool *P = calloc(1, sizeof *P);
  if (!P) return kz_bad(r, KZ_ENOMEM, "pool");
  P->n = nthreads;
  P->th = calloc((size_t)nthreads, sizeof *P->th);
  P->w = calloc((size_t)nthreads, sizeof *P->w);
  if (!P->th || !P->w) {
    free(P->th);
    free(P->w);
    free(P);
    return kz_bad(r, KZ_ENOMEM, "pool");
  }
  pthread_mutex_init(&P->mu, NULL);
  pthread_mutex_init(&P->busy, NULL);
  pthread_cond_init(&P->wake, NULL);
  pthread_cond_init(&P->done, NULL);
  atomic_init(&P->gen, 0);
  atomic_init(&P->quit, 0);
  atomic_init(&P->ticket, 0);
  atomic_init(&P->completed, 0);
  atomic_init(&P->fn, NULL);
  atomic_init(&P->arg, NULL);
  atomic_init(&P->nitems, 0);
  for (int k = 0; k < nthreads - 1; k++) {
    P->w[k] = (worker){P, k + 1};
    if (pthread_create(&P->th[k], NULL, worker_main, &P->w[k]) != 0) {
      stop_workers(P, k);
      destroy(P);
      return kz_bad(r, KZ_ENOMEM, "threads");
    }
  }
  *out = P;
  return KZ_OK;
}

void kz_pool_free(kz_pool *P)
{
  if (!P) return;
  stop_workers(P, P->n - 1);
  destroy(P);
}

int kz_pool_threads(const kz_pool *P) { return P ? P->n : 1; }

void kz_pool_run(kz_pool *P, long long nitems, kz_pool_fn fn, void *arg)
{
  if (nitems <= 0) return;
  if (!P || P->n < 2 || nitems > (long long)KZ_POOL_ITEMS || pthread_mutex_trylock(&P->busy) != 0) {
    for (long long i = 0; i < nitems; i++) fn(arg, i, 0);
    return;
  }
  const unsigned long g = atomic_load_explicit(&P->gen, memory_order_relaxed) + 1;
  atomic_store_explicit(&P->fn, fn, memory_order_relaxed);
  atomic_store_explicit(&P->arg, arg, memory_order_relaxed);
  atomic_store_explicit(&P->nitems, nitems, memory_order_relaxed);
  atomic_store_explicit(&P->completed, 0, memory_order_relaxed);
  atomic_store_explicit(&P->ticket, (unsigned long long)(g & 0xffffffUL) << KZ_POOL_ITEM_BITS, memory_order_relaxed);
  raise_gen(P); /* release: the job above is visible to whoever sees generation g */
  work(P, g, 0);
  const long long end = now_ns() + KZ_POOL_SPIN_NS;
  for (int k = 1; atomic_load_explicit(&P->completed, memory_order_acquire) < nitems; k++) {
    relax();
    if ((k & 63) == 0) {
      if (now_ns() > end) break;
      sched_yield(); /* let a descheduled worker finish its item */
    }
  }
  if (atomic_load_explicit(&P->completed, memory_order_acquire) < nitems) {
    pthread_mutex_lock(&P->mu);
    while (atomic_load_explicit(&P->completed, memory_order_acquire) < nitems) pthread_cond_wait(&P->done, &P->mu);
    pthread_mutex_unlock(&P->mu);
  }
  pthread_mutex_unlock(&P->busy);
}
