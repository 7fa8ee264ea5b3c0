/* kz_pool.h -- the worker pool's job interface (kz_pool.c), private to the methods that split
 * their work over threads (kz_ens.c, kz_ens_methods.c). The public part (kz_pool_new, _free,
 * _threads) is in kapitza/ens.h. */
#ifndef KZ_POOL_H
#define KZ_POOL_H
#include "kapitza.h"
#include <stdatomic.h>

/* A job: fn(arg, tid) runs once on every thread taking part (tid 0 is the caller); the threads
 * take their work items from a kz_queue in arg, so that a thread that finishes early takes more
 * (a fair share of the work, whatever each item costs). */
typedef void (*kz_pool_fn)(void *arg, int tid);

/* Run the job on the pool's threads and the caller, and return when every thread is done
 * (memory written by the job is then visible to the caller). A NULL pool, a pool of one thread,
 * or a pool in use by another call (or by this one: a job that calls back) runs fn(arg, 0) on the
 * caller alone. Returns the number of threads that ran fn. */
int kz_pool_run(kz_pool *p, kz_pool_fn fn, void *arg);

/* Items 0 .. n - 1 handed out one at a time. */
typedef struct kz_queue {
  atomic_llong next;
  long long n;
} kz_queue;

static inline void kz_queue_init(kz_queue *q, long long n)
{
  atomic_init(&q->next, 0);
  q->n = n;
}

/* The next item, or -1 when none is left. */
static inline long long kz_queue_take(kz_queue *q)
{
  const long long i = atomic_fetch_add_explicit(&q->next, 1, memory_order_relaxed);
  return i < q->n ? i : -1;
}

#endif
