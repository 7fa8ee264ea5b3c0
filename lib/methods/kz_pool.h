/* kz_pool.h -- the worker pool's job interface (kz_pool.c), private to the methods that split
 * their work over threads (kz_ens.c, kz_ens_methods.c). The public part (kz_pool_new, _free,
 * _threads) is in kapitza/ens.h. */
#ifndef KZ_POOL_H
#define KZ_POOL_H
#include "kapitza.h"

/* One work item of a job: fn(arg, item, tid) with tid the thread running it (0 = the caller;
 * tid < kz_pool_threads of the pool). */
typedef void (*kz_pool_fn)(void *arg, long long item, int tid);

/* Run fn on the items 0 .. nitems - 1 (at most 2^40), each once, handed out one at a time to the
 * caller and the pool's threads as they come (a thread that finishes early takes more: a fair
 * share of the work, whatever each item costs), and return when every item is done (memory
 * written by fn is then visible to the caller). A thread that wakes after the last item was taken
 * takes no part and is not waited for. A NULL pool, a pool of one thread, or a pool in use by
 * another call (or by this one: an item that calls back) runs every item on the caller. */
void kz_pool_run(kz_pool *p, long long nitems, kz_pool_fn fn, void *arg);

#endif
