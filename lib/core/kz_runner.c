/* kz_runner.c -- process support for the scenario runner (lib/lua/kapitza/scenario.lua), not numerics.
 *
 * A scenario writes into a staging folder DIR/.kz-stage-<id>-<pid> and moves its files into DIR
 * only when the whole run succeeded (issue 17, item 5). What Lua cannot do for that is here:
 *  - a signal handler for SIGINT, SIGTERM and SIGHUP that removes the staging folder and then lets
 *    the process die of the signal (default action). LuaJIT runs no Lua code in a signal handler,
 *    and its own SIGINT handler only acts between Lua instructions, so a long C call could not be
 *    interrupted before (issue 17, item 6). The handler uses only async-signal-safe calls: fork (the
 *    raw clone system call, which runs no fork handler),
 *    execve("/bin/rm", {"rm", "-rf", "--", stage}), waitpid, sigaction, sigprocmask, raise.
 *  - removing a folder without a shell (the same fork + execve), a lock on the output directory
 *    for the commit (flock on the directory itself, so no lock file is ever left behind), whether
 *    a process id is alive (for staging folders left by a killed run), and holding the three
 *    signals while the files are moved into place.
 *
 * State: a handler cannot be given an argument, so the path it removes is kept in this file (one
 * static buffer and a flag, written only while the signals are blocked). This is the library's
 * only process-wide mutable state; the numerics have none. */
#include "kapitza.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

enum { KZ_RUNNER_PATH_MAX = 4096, KZ_RUNNER_NSIG = 3, KZ_RUNNER_MADE_MAX = 16 };

static const int guarded[KZ_RUNNER_NSIG] = { SIGINT, SIGTERM, SIGHUP };
static char stage_path[KZ_RUNNER_PATH_MAX];
static char created_path[KZ_RUNNER_MADE_MAX][KZ_RUNNER_PATH_MAX]; /* folders the run created, deepest first */
static struct stat stage_id, created_id[KZ_RUNNER_MADE_MAX];      /* their identities (lstat) when guarded */
static volatile sig_atomic_t ncreated = 0;
static volatile sig_atomic_t armed = 0;     /* stage_path is set and must be removed */
static volatile sig_atomic_t installed = 0; /* our handlers are in place; saved[] holds the old */
static struct sigaction saved[KZ_RUNNER_NSIG];

static void signal_set(sigset_t *s)
{
  sigemptyset(s);
  for (int i = 0; i < KZ_RUNNER_NSIG; i++) sigaddset(s, guarded[i]);
}

/* rm -rf -- path in a child process; 0 when rm exited 0, else an errno value (async-signal-safe). */
static int remove_tree(const char *path)
{
  char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };
  char *envp[] = { NULL };
  /* the raw system call, not fork(3): no fork handler runs (kz_watch.c's would take this for a
   * fork of the model's code when a signal interrupted one of its calls), and it may be called
   * from a fork handler, where fork(3) would wait on its own lock */
  pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (pid < 0) return errno;
  if (pid == 0) {
    /* the child must not run our handler, nor die of a signal meant for the parent half-way */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int i = 0; i < KZ_RUNNER_NSIG; i++) sigaction(guarded[i], &dfl, NULL);
    execve("/bin/rm", argv, envp);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) return errno;
  }
  return (WIFEXITED(st) && WEXITSTATUS(st) == 0) ? 0 : EIO;
}

/* Is path (not followed) the directory recorded in id? */
static int still(const char *path, const struct stat *id)
{
  struct stat s;
  return lstat(path, &s) == 0 && S_ISDIR(s.st_mode) && s.st_dev == id->st_dev && s.st_ino == id->st_ino;
}

int kz_runner_cleanup(void)
{
  const int saved_errno = errno;
  if (!armed) return 0;
  armed = 0;
  /* only while each path is still the directory it was when guarded (lstat is async-signal-safe) */
  if (still(stage_path, &stage_id)) remove_tree(stage_path);
  for (int i = 0; i < ncreated; i++) /* deepest first, each only if still ours and empty */
    if (!still(created_path[i], &created_id[i]) || rmdir(created_path[i]) != 0) break;
  errno = saved_errno;
  return 1;
}

static void on_signal(int sig)
{
  int saved_errno = errno;
  kz_runner_cleanup();
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, sig);
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  raise(sig); /* the default action: the process ends as killed by sig */
  errno = saved_errno;
}

int kz_runner_guard(const char *stage, const char *created)
{
  size_t n = stage ? strlen(stage) : 1, m = created ? strlen(created) : 0;
  if (n == 0 || n >= KZ_RUNNER_PATH_MAX || m >= KZ_RUNNER_PATH_MAX) return KZ_EBUFFER;
  struct stat sid, cid;
  if (stage && (lstat(stage, &sid) != 0 || !S_ISDIR(sid.st_mode))) return KZ_EDOMAIN;
  if (!stage) created = NULL; /* nothing to remove: the signals alone (a command that writes nothing) */
  if (created && (lstat(created, &cid) != 0 || !S_ISDIR(cid.st_mode))) created = NULL;
  sigset_t block, old;
  signal_set(&block);
  sigprocmask(SIG_BLOCK, &block, &old);
  ncreated = 0;
  if (stage) {
    memcpy(stage_path, stage, n + 1);
    stage_id = sid;
    if (created) {
      memcpy(created_path[0], created, m + 1);
      created_id[0] = cid;
      ncreated = 1;
    }
  }
  armed = stage != NULL;
  int status = KZ_OK;
  if (!installed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask); /* nothing else runs while the folder is removed */
    for (int i = 0; i < KZ_RUNNER_NSIG; i++) {
      /* a signal the process was started to ignore (nohup, a background job) stays ignored */
      struct sigaction cur;
      if (sigaction(guarded[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN) {
        saved[i] = cur;
        continue;
      }
      if (sigaction(guarded[i], &sa, &saved[i]) != 0) {
        status = KZ_EDOMAIN;
        for (int j = 0; j < i; j++) sigaction(guarded[j], &saved[j], NULL);
        armed = 0;
        break;
      }
    }
    if (status == KZ_OK) installed = 1;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return status;
}

int kz_runner_guard_created(const char *created)
{
  if (!created) return KZ_ENULL;
  const size_t m = strlen(created);
  if (m == 0 || m >= KZ_RUNNER_PATH_MAX) return KZ_EBUFFER;
  struct stat cid;
  if (lstat(created, &cid) != 0 || !S_ISDIR(cid.st_mode)) return KZ_EDOMAIN;
  sigset_t block, old;
  signal_set(&block);
  sigprocmask(SIG_BLOCK, &block, &old);
  int status = KZ_EBUFFER;
  if (ncreated < KZ_RUNNER_MADE_MAX) {
    memcpy(created_path[ncreated], created, m + 1);
    created_id[ncreated] = cid;
    ncreated = ncreated + 1;
    status = KZ_OK;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return status;
}

int kz_runner_unguard(void)
{
  sigset_t block, old;
  signal_set(&block);
  sigprocmask(SIG_BLOCK, &block, &old);
  armed = 0;
  stage_path[0] = '\0';
  ncreated = 0;
  if (installed) {
    for (int i = 0; i < KZ_RUNNER_NSIG; i++) sigaction(guarded[i], &saved[i], NULL);
    installed = 0;
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return KZ_OK;
}

int kz_runner_hold_signals(int hold)
{
  sigset_t s;
  signal_set(&s);
  return sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &s, NULL) == 0 ? KZ_OK : KZ_EDOMAIN;
}

int kz_runner_remove(const char *path, int *err)
{
  if (!path || !err) return KZ_ENULL;
  *err = 0;
  if (path[0] == '\0') return KZ_EDOMAIN;
  *err = remove_tree(path);
  return *err == 0 ? KZ_OK : KZ_EDOMAIN;
}

int kz_runner_lock(const char *dir, int *fd, int *err)
{
  if (!dir || !fd || !err) return KZ_ENULL;
  *fd = -1;
  *err = 0;
  int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d < 0) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  while (flock(d, LOCK_EX) != 0) {
    if (errno != EINTR) {
      *err = errno;
      close(d);
      return KZ_EDOMAIN;
    }
  }
  *fd = d;
  return KZ_OK;
}

int kz_runner_unlock(int fd)
{
  if (fd < 0) return KZ_EDOMAIN;
  flock(fd, LOCK_UN);
  return close(fd) == 0 ? KZ_OK : KZ_EDOMAIN;
}

int kz_runner_alive(long long pid)
{
  if (pid <= 0 || (long long)(pid_t)pid != pid) return 0;
  if (kill((pid_t)pid, 0) == 0) return 1;
  return errno == ESRCH ? 0 : 1; /* EPERM: it exists, it is another user's */
}
