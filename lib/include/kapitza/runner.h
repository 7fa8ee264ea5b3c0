/* kapitza/runner.h -- Process support for the scenario runner and the user-model cache: signals,
 * locks, files (kz_runner.c, kz_fs.c). Not numerics. Part of libkapitza's public header: included
 * by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_RUNNER_H
#define KAPITZA_RUNNER_H

#include <kapitza/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================================== */
/* Runner support for the scenario scripts (kz_runner.c; lib/lua/kapitza/scenario.lua): not numerics.     */
/* ========================================================================================== */

/* Remove the folder `stage` (rm -rf, no shell) when SIGINT, SIGTERM or SIGHUP arrives, and the
 * folder `created` (may be NULL) if it is then empty, then die of that signal (default action).
 * Each path's identity (device and inode, by lstat) is recorded here, and the handler removes a
 * path only while it is still that directory: what another process put under the name is left. A
 * signal that was ignored stays ignored. The paths are copied (KZ_EBUFFER from 4096 bytes); a
 * second call replaces them. stage = NULL: nothing to remove, the process just dies of the
 * signal at once, also inside a long C call (a command that writes nothing: kapitza check,
 * solve). Process-wide state (a handler takes no argument), as kz_watch's.
 * KZ_EDOMAIN when the handlers cannot be installed. */
int kz_runner_guard(const char *stage, const char *created);
/* One more folder the run created (a parent of `created`, called for each, deepest first; at most
 * 16): the handler removes it after the ones before it, if it is still that folder and empty.
 * KZ_EDOMAIN when it is not a directory, KZ_EBUFFER when the list is full. */
int kz_runner_guard_created(const char *created);
/* What the signal handler does, for the other exit paths the library sees (a crash or an exit()
 * inside a user model's function, lib/lua/kapitza/usermodel/guard_source.lua): remove the guarded staging folder
 * and the folders the run created, each only while it is the one recorded, and forget them.
 * Async-signal-safe. 1 when something was guarded, 0 when not. */
int kz_runner_cleanup(void);
/* Forget the folder and restore the handlers that were in place before kz_runner_guard. */
int kz_runner_unguard(void);
/* hold != 0: block SIGINT, SIGTERM, SIGHUP (while files are moved into place); 0: unblock them
 * (one that arrived meanwhile is delivered then). */
int kz_runner_hold_signals(int hold);
/* Remove path and everything under it (fork + execve /bin/rm -rf --, no shell): KZ_OK, or
 * KZ_EDOMAIN with *err an errno value (EIO when rm failed). */
int kz_runner_remove(const char *path, int *err);
/* An exclusive lock on the directory dir (flock; waits for another holder): *fd receives the
 * descriptor for kz_runner_unlock. KZ_EDOMAIN with *err = errno when dir cannot be opened. */
int kz_runner_lock(const char *dir, int *fd, int *err);
int kz_runner_unlock(int fd);
/* 1 if a process with this id exists (kill(pid, 0) succeeds or fails with EPERM), 0 if not. */
int kz_runner_alive(long long pid);

/* ---- The user-model compile cache's file calls (lib/core/kz_fs.c, used by lib/lua/kapitza/usermodel.lua) ----
 * POSIX calls FFI cannot make portably. Each returns KZ_OK, KZ_ENULL (a NULL argument), or
 * KZ_EDOMAIN when the system refused, with *err = errno (0 on success). */
enum kz_fs_kind {
  KZ_FS_OTHER = 0, KZ_FS_FILE = 1, KZ_FS_DIR = 2, KZ_FS_LINK = 3,
  KZ_FS_FIFO = 4, KZ_FS_CHAR = 5, KZ_FS_BLOCK = 6, KZ_FS_SOCKET = 7 /* the other kinds, named */
};
typedef struct kz_fs_info {
  int kind;         /* enum kz_fs_kind */
  int mode;         /* permission bits, st_mode & 07777 */
  long long uid;    /* owner */
  long long size;   /* bytes */
  double mtime;     /* last modification, seconds since the epoch */
  long long dev;    /* the identity of the file: device and inode (st_dev, st_ino) */
  long long ino;
} kz_fs_info;
/* lstat (follow = 0: a link is reported as KZ_FS_LINK, never followed) or stat (follow = 1). */
int kz_fs_stat(const char *path, int follow, kz_fs_info *st, int *err);
/* mkdir with mode 0700 (less the umask); an existing path of any kind is EEXIST. */
int kz_fs_mkdir(const char *path, int *err);
/* A new file (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600) holding the n bytes of data: EEXIST when the
 * path exists (a link included); on a failed write the file is removed. */
int kz_fs_create(const char *path, const char *data, size_t n, int *err);
/* The names in dir but . and .., each NUL-terminated, one after another in buf (capacity cap);
 * *len the bytes they take: KZ_EBUFFER when that is more than cap (call again with *len). */
int kz_fs_list(const char *dir, char *buf, size_t cap, size_t *len, int *err);
/* Remove the directory `path` and everything below it, only if it is (lstat, no link followed)
 * the directory with the identity dev, ino that the caller recorded when it created it: *err =
 * ESTALE when the path is now something else (nothing is removed), ENOENT when it is gone. The
 * walk opens each folder with O_NOFOLLOW|O_DIRECTORY relative to its parent (openat), so a link
 * below it is removed as a link, never followed, and nothing outside the tree is touched. */
int kz_fs_remove_tree(const char *path, long long dev, long long ino, int *err);
/* rmdir(path) only if it is the directory dev, ino (and, as rmdir requires, empty): *err =
 * ESTALE when it is something else, ENOTEMPTY when files are in it (both: nothing removed). */
int kz_fs_rmdir_if(const char *path, long long dev, long long ino, int *err);

/* ---- A wall-clock limit on a user model's functions (lib/core/kz_watch.c) ----
 * The record a model's guards keep of the function running (lib/lua/kapitza/usermodel/guard*.lua):
 * in the index of its name in who (-1: none runs), calls a count of calls begun (any count that
 * moves with every call), at its time argument (NaN: none), named arg[in] ("t", "theta", NULL). */
typedef struct kz_watch {
  volatile int in;
  volatile double calls;
  volatile double at;
  const char *const *who; /* e.g. "usermodel 'm': accel (C function 'force')" */
  const char *const *arg;
  int n;                  /* entries of who and arg */
} kz_watch;
/* Watch the record w (kept alive by the caller until kz_watch_remove; at most 64 at once). */
int kz_watch_add(kz_watch *w);
int kz_watch_remove(kz_watch *w);
/* The limit on one call (seconds > 0; 0: no limit) and the words naming where it is set; the
 * first positive limit starts a monitor thread. When a record shows one call running longer than
 * the limit, the monitor writes "<who> did not return within <limit> s (at t = ...): stopped (the
 * limit on one call of the model's code: <where>)" on stderr, removes the run's staging folder
 * (kz_runner_cleanup) and ends the process with exit status `status`. KZ_EDOMAIN for a limit that
 * is negative or not finite; KZ_ENOMEM when the thread cannot be started. */
int kz_watch_limit(double seconds, const char *where, int status);
/* The limit in force (0: none). */
double kz_watch_seconds(void);
/* A model's code that calls fork() inside one of its calls (a record watched shows it running):
 * the copy ends at once with this exit status, and the process writes one line naming the function,
 * removes the run's staging folder (kz_runner_cleanup) and ends with the same status. */
enum { KZ_WATCH_FORK_STATUS = 71 };

#ifdef __cplusplus
}
#endif

#endif
