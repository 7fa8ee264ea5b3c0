/* kz_watch.c -- a wall-clock limit on the functions of a user's model (issue 25, item 3), not
 * numerics.
 *
 * A model of one's own runs inside the library's loops; a function of it that never returns (an
 * endless loop, a wait on something that never comes) would hang a run with no word. The guards
 * of a model (lib/lua/kapitza/usermodel/guard*.lua: the generated C shims of a compiled model, the Lua
 * wrappers of a Lua-function model) keep a record, kz_watch, of the function running: its index,
 * a count of calls begun and its time argument. A monitor thread started here looks at every
 * record a few times a second: when one shows the same call running (the same count, a function
 * marked) for more than the limit, it writes one line on stderr naming the function, the time and
 * the limit, removes the run's staging folder (kz_runner_cleanup) and ends the process with the
 * given status. (A function cannot be stopped and unwound safely from outside; ending the process
 * is the only exit that leaves nothing half-done.) The thread only reads the records; the model's
 * code pays a few stores per call.
 *
 * A fork() inside a model's call (a C function calling fork, a Lua one through the FFI) would copy
 * the whole run: the copy returns into the method's loop and goes on with it (and forks again at
 * the next call: a fork bomb). Fork handlers registered here look at the records: the copy made
 * inside a model's call ends at once (_exit(KZ_WATCH_FORK_STATUS)), and the parent writes one line
 * naming the function, removes the run's staging folder and ends with the same status. The
 * library's own forks (a trial child, the sweep's isolation, kz_runner's rm, which forks by the
 * raw system call and runs no handler) are never inside a model's call.
 *
 * State: the records watched, the limit and the thread are process-wide (one monitor for the
 * process), kept here under a mutex; the numerics have none. */
#include "kapitza.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { KZ_WATCH_MAX = 64, KZ_WATCH_HOW = 200 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static kz_watch *records[KZ_WATCH_MAX];
static double seen_calls[KZ_WATCH_MAX], since[KZ_WATCH_MAX]; /* the call last seen running, from when */
static int seen_in[KZ_WATCH_MAX];
static double limit = 0;        /* seconds; 0: not watching */
static char how[KZ_WATCH_HOW];  /* where the limit is set, for the message */
static int exit_status = 2;
static int started = 0;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;
/* a fork inside a model's call: the record and function seen by the prepare handler */
static const kz_watch *volatile pending_w = NULL;
static volatile int pending_in = -1;
static volatile double pending_at = NAN;
static volatile sig_atomic_t stopping = 0;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void say(const char *s)
{
  size_t n = strlen(s);
  while (n > 0) {
    const ssize_t w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

/* The record i shows one call running for longer than the limit: the line, the cleanup, the end. */
static void stop(const kz_watch *w, int in, double secs)
{
  char line[1024];
  const char *who = (w->who && in < w->n && w->who[in]) ? w->who[in] : "a function of the model";
  const char *arg = (w->arg && in < w->n) ? w->arg[in] : NULL;
  const double at = w->at;
  char where[96] = "";
  if (arg && isfinite(at)) snprintf(where, sizeof where, " (at %s = %.17g)", arg, at);
  snprintf(line, sizeof line, "%s did not return within %g s%s: stopped (the limit on one call of the model's code: %s)\n",
           who, secs, where, how[0] ? how : "KZ_MODEL_TIMEOUT");
  say(line);
  stopping = 1;
  kz_runner_cleanup(); /* the run's staging folder, as a crash inside the model removes it */
  _exit(exit_status);
}

/* The name of function `in` of record w and the words " (at t = ...)" for time `at`. */
static void name_of(const kz_watch *w, int in, double at, const char **who, char *where, size_t n)
{
  *who = (w && w->who && in >= 0 && in < w->n && w->who[in]) ? w->who[in] : "a function of the model";
  const char *arg = (w && w->arg && in >= 0 && in < w->n) ? w->arg[in] : NULL;
  where[0] = '\0';
  if (arg && isfinite(at)) snprintf(where, n, " (at %s = %.17g)", arg, at);
}

static void *monitor(void *unused)
{
  (void)unused;
  for (;;) {
    pthread_mutex_lock(&lock);
    const double lim = limit, t = now();
    for (int i = 0; lim > 0 && i < KZ_WATCH_MAX; i++) {
      const kz_watch *w = records[i];
      if (!w) continue;
      const int in = w->in;
      const double calls = w->calls;
      if (in < 0 || in != seen_in[i] || calls != seen_calls[i]) {
        seen_in[i] = in, seen_calls[i] = calls, since[i] = t; /* idle, or another call since */
        continue;
      }
      if (t - since[i] > lim) stop(w, in, lim); /* does not return */
    }
    pthread_mutex_unlock(&lock);
    /* a tenth of the limit, between 10 ms and 250 ms: found within 10 % of it (or 0.25 s) */
    double tick = lim > 0 ? lim / 10 : 0.25;
    if (tick < 0.01) tick = 0.01;
    if (tick > 0.25) tick = 0.25;
    struct timespec ts = { 0, (long)(tick * 1e9) };
    nanosleep(&ts, NULL);
  }
  return NULL;
}

/* Fork handlers. prepare: is a model's call running (a record showing a function)? It takes no
 * lock (a fork may come from a signal handler that interrupted a holder of it). */
static void fork_prepare(void)
{
  pending_w = NULL;
  if (stopping) return;
  for (int i = 0; i < KZ_WATCH_MAX; i++) {
    const kz_watch *w = records[i];
    if (w && w->in >= 0) {
      pending_in = w->in;
      pending_at = w->at;
      pending_w = w;
      return;
    }
  }
}

/* the parent of a fork made inside a model's call: the line, the cleanup (its rm runs no fork
 * handler), the end */
static void fork_parent(void)
{
  if (!pending_w) return;
  char line[1024], where[96];
  const char *who;
  name_of(pending_w, pending_in, pending_at, &who, where, sizeof where);
  snprintf(line, sizeof line, "%s called fork()%s: stopped (a model's code must not start processes: the copy would "
           "run the method on; it was ended at once)\n", who, where);
  say(line);
  stopping = 1;
  kz_runner_cleanup();
  _exit(KZ_WATCH_FORK_STATUS);
}

static void fork_child(void)
{
  if (pending_w) _exit(KZ_WATCH_FORK_STATUS); /* the copy made inside a model's call runs nothing */
  /* a child of the library's own: one thread (no monitor: kz_watch_limit starts one), no lock held */
  pthread_mutex_init(&lock, NULL);
  started = 0;
}

static void install_handlers(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

int kz_watch_limit(double seconds, const char *where, int status)
{
  pthread_once(&handlers_once, install_handlers);
  if (!(seconds >= 0) || !isfinite(seconds)) return KZ_EDOMAIN;
  pthread_mutex_lock(&lock);
  limit = seconds;
  exit_status = status;
  how[0] = '\0';
  if (where) snprintf(how, sizeof how, "%s", where);
  int st = KZ_OK;
  if (seconds > 0 && !started) {
    pthread_t th;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    /* the monitor must not take the signals the runner and the guards handle in the main thread */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    if (pthread_create(&th, &at, monitor, NULL) == 0) started = 1;
    else st = KZ_ENOMEM;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&at);
  }
  pthread_mutex_unlock(&lock);
  return st;
}

double kz_watch_seconds(void)
{
  pthread_mutex_lock(&lock);
  const double s = limit;
  pthread_mutex_unlock(&lock);
  return s;
}

int kz_watch_add(kz_watch *w)
{
  if (!w) return KZ_ENULL;
  pthread_once(&handlers_once, install_handlers);
  pthread_mutex_lock(&lock);
  int st = KZ_EBUFFER, free_slot = -1;
  for (int i = 0; i < KZ_WATCH_MAX; i++) {
    if (records[i] == w) { st = KZ_OK; free_slot = -1; break; }
    if (!records[i] && free_slot < 0) free_slot = i;
  }
  if (free_slot >= 0) {
    records[free_slot] = w;
    seen_in[free_slot] = -1;
    st = KZ_OK;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

int kz_watch_remove(kz_watch *w)
{
  pthread_mutex_lock(&lock);
  for (int i = 0; i < KZ_WATCH_MAX; i++)
    if (records[i] == w) records[i] = NULL;
  pthread_mutex_unlock(&lock);
  return KZ_OK;
}
