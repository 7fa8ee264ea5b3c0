/* kz_fs.c -- the few file-system calls the user-model compile cache (lib/lua/usermodel.lua) needs
 * and LuaJIT's FFI cannot make portably: lstat/stat without knowing the platform's struct stat,
 * an exclusive create that never follows a link (open is variadic), mkdir with mode 0700 and a
 * directory listing without struct dirent. No numerics, so no paper to cite: the rules are those
 * of POSIX (lstat, open with O_CREAT|O_EXCL|O_NOFOLLOW, mkdir, readdir). Each function returns a
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
  st->kind = S_ISLNK(s.st_mode) ? KZ_FS_LINK : S_ISDIR(s.st_mode) ? KZ_FS_DIR : S_ISREG(s.st_mode) ? KZ_FS_FILE
                                                                                                    : KZ_FS_OTHER;
  st->mode = (int)(s.st_mode & 07777);
  st->uid = (long long)s.st_uid;
  st->size = (long long)s.st_size;
  st->mtime = (double)s.st_mtime;
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
