/* kz_fs.c -- the few file-system calls the user-model compile cache (lib/lua/kapitza/usermodel.lua) needs
 * and LuaJIT's FFI cannot make portably: lstat/stat without knowing the platform's struct stat,
 * an exclusive create that never follows a link (open is variadic), mkdir with mode 0700 and a
 * directory listing without struct dirent. No numerics, so no paper to cite: the rules are those
 * of POSIX (lstat, open with O_CREAT|O_EXCL|O_NOFOLLOW, mkdir, readdir). The scenario runner's
 * removals (a staging folder, an output folder the run created) check the identity the caller
 * recorded (device and inode) and never follow a link (openat with O_NOFOLLOW, unlinkat), so a
 * path that now names something else is left alone (issue 25, item 1). Each function returns a
 * kz status (KZ_ENULL for a NULL argument, KZ_EDOMAIN when the system refused: *err is errno). */
#include "kz_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kz_fs_stat(const char *path, int follow, kz_fs_info *st, int *err)
{
  if (!path || !st || !err) return KZ_ENULL;
  struct stat s;
  memset(st, 0, sizeof *st);
  *err = 0;
  if ((follow ? stat(path, &s) : lstat(path, &s)) != 0) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  st->kind = S_ISLNK(s.st_mode)    ? KZ_FS_LINK
             : S_ISDIR(s.st_mode)  ? KZ_FS_DIR
             : S_ISREG(s.st_mode)  ? KZ_FS_FILE
             : S_ISFIFO(s.st_mode) ? KZ_FS_FIFO
             : S_ISCHR(s.st_mode)  ? KZ_FS_CHAR
             : S_ISBLK(s.st_mode)  ? KZ_FS_BLOCK
             : S_ISSOCK(s.st_mode) ? KZ_FS_SOCKET
                                   : KZ_FS_OTHER;
  st->mode = (int)(s.st_mode & 07777);
  st->uid = (long long)s.st_uid;
  st->size = (long long)s.st_size;
  st->mtime = (double)s.st_mtime;
  st->dev = (long long)s.st_dev;
  st->ino = (long long)s.st_ino;
  return KZ_OK;
}

int kz_fs_mkdir(const char *path, int *err)
{
  if (!path || !err) return KZ_ENULL;
  *err = 0;
  if (mkdir(path, 0700) != 0) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  return KZ_OK;
}

int kz_fs_create(const char *path, const char *data, size_t n, int *err)
{
  if (!path || (!data && n > 0) || !err) return KZ_ENULL;
  *err = 0;
  const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  size_t done = 0;
  while (done < n) {
    const ssize_t w = write(fd, data + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      *err = w < 0 ? errno : EIO;
      break;
    }
    done += (size_t)w;
  }
  if (close(fd) != 0 && !*err) *err = errno;
  if (*err) {
    unlink(path); /* nothing half-written stays behind */
    return KZ_EDOMAIN;
  }
  return KZ_OK;
}

int kz_fs_list(const char *dir, char *buf, size_t cap, size_t *len, int *err)
{
  if (!dir || !len || !err || (!buf && cap > 0)) return KZ_ENULL;
  *err = 0;
  *len = 0;
  DIR *d = opendir(dir);
  if (!d) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  size_t need = 0;
  const struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    const size_t k = strlen(e->d_name) + 1;
    if (need + k <= cap) memcpy(buf + need, e->d_name, k);
    need += k;
  }
  closedir(d);
  *len = need;
  return need <= cap ? KZ_OK : KZ_EBUFFER;
}

/* The directory fd (opened without following a link) is the directory dev, ino? */
static int same_dir(int fd, long long dev, long long ino)
{
  struct stat s;
  return fstat(fd, &s) == 0 && S_ISDIR(s.st_mode) && (long long)s.st_dev == dev && (long long)s.st_ino == ino;
}

/* Empty the directory open as fd: entries removed with unlinkat, sub-folders opened relative to
 * it with O_NOFOLLOW (a link is an entry, never followed) and emptied first. depth bounds the
 * recursion (a staging folder is two levels deep). 0 or an errno value. */
static int empty_dir(int fd, int depth)
{
  if (depth > 64) return ELOOP;
  const int dfd = dup(fd);
  if (dfd < 0) return errno;
  DIR *d = fdopendir(dfd);
  if (!d) {
    const int e = errno;
    close(dfd);
    return e;
  }
  int status = 0;
  const struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (unlinkat(fd, e->d_name, 0) == 0) continue;
    if (errno != EISDIR && errno != EPERM) {
      if (!status) status = errno;
      continue;
    }
    const int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) {
      if (!status) status = errno;
      continue;
    }
    const int r = empty_dir(sub, depth + 1);
    close(sub);
    if (r) {
      if (!status) status = r;
      continue;
    }
    if (unlinkat(fd, e->d_name, AT_REMOVEDIR) != 0 && !status) status = errno;
  }
  closedir(d);
  return status;
}

int kz_fs_remove_tree(const char *path, long long dev, long long ino, int *err)
{
  if (!path || !err) return KZ_ENULL;
  *err = 0;
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    *err = errno == ELOOP || errno == ENOTDIR ? ESTALE : errno;
    return KZ_EDOMAIN;
  }
  if (!same_dir(fd, dev, ino)) {
    close(fd);
    *err = ESTALE;
    return KZ_EDOMAIN;
  }
  *err = empty_dir(fd, 0);
  close(fd);
  if (*err) return KZ_EDOMAIN;
  return kz_fs_rmdir_if(path, dev, ino, err);
}

int kz_fs_rmdir_if(const char *path, long long dev, long long ino, int *err)
{
  if (!path || !err) return KZ_ENULL;
  *err = 0;
  struct stat s;
  if (lstat(path, &s) != 0) {
    *err = errno;
    return KZ_EDOMAIN;
  }
  if (!S_ISDIR(s.st_mode) || (long long)s.st_dev != dev || (long long)s.st_ino != ino) {
    *err = ESTALE;
    return KZ_EDOMAIN;
  }
  if (rmdir(path) != 0) {
    *err = errno == EEXIST ? ENOTEMPTY : errno;
    return KZ_EDOMAIN;
  }
  return KZ_OK;
}
