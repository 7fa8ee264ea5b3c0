-- pool.lua -- run commands N at a time without letting one failure or a signal lose the others
-- (scripts/sweep.lua run). Each command is spawned (posix_spawnp through the FFI, no shell of
-- ours in between) in a process group of its own; a failing command is recorded and the rest go
-- on. SIGTERM, SIGINT and SIGHUP sent to this process are blocked and taken with sigtimedwait, so
-- they cannot kill it between two commands: it forwards the signal to every running command's
-- process group (the command and its children, e.g. the scenario run by `sh -c`), starts no new
-- one, waits for the running ones, and reports; a second signal sends SIGKILL. Linux (glibc).
local ffi = require "ffi"

local M = {}

pcall(ffi.cdef, [[
typedef struct { unsigned long val[16]; } kzp_sigset;
typedef struct { uint64_t opaque[64]; } kzp_spawnattr;
struct kzp_timespec { long tv_sec; long tv_nsec; };
int kzp_sigemptyset(kzp_sigset *s) __asm__("sigemptyset");
int kzp_sigaddset(kzp_sigset *s, int sig) __asm__("sigaddset");
int kzp_sigprocmask(int how, const kzp_sigset *set, kzp_sigset *old) __asm__("sigprocmask");
int kzp_sigtimedwait(const kzp_sigset *set, void *info, const struct kzp_timespec *timeout) __asm__("sigtimedwait");
void *kzp_signal(int sig, void *handler) __asm__("signal");
int kzp_spawnattr_init(kzp_spawnattr *a) __asm__("posix_spawnattr_init");
int kzp_spawnattr_destroy(kzp_spawnattr *a) __asm__("posix_spawnattr_destroy");
int kzp_spawnattr_setflags(kzp_spawnattr *a, short flags) __asm__("posix_spawnattr_setflags");
int kzp_spawnattr_setsigmask(kzp_spawnattr *a, const kzp_sigset *s) __asm__("posix_spawnattr_setsigmask");
int kzp_spawnattr_setpgroup(kzp_spawnattr *a, int pgroup) __asm__("posix_spawnattr_setpgroup");
int kzp_spawnp(int *pid, const char *file, void *actions, const kzp_spawnattr *attr, char *const argv[],
               char *const envp[]) __asm__("posix_spawnp");
int kzp_waitpid(int pid, int *status, int options) __asm__("waitpid");
int kzp_kill(int pid, int sig) __asm__("kill");
char *kzp_strerror(int errnum) __asm__("strerror");
long kzp_sysconf(int name) __asm__("sysconf");
int kzp_getpid(void) __asm__("getpid");
]])
pcall(ffi.cdef, "extern char **environ;")
local C = ffi.C

-- Linux values (x86-64, arm64; glibc)
local SIGHUP, SIGINT, SIGKILL, SIGTERM, SIGCHLD = 1, 2, 9, 15, 17
local SIG_BLOCK, SIG_SETMASK, WNOHANG = 0, 2, 1
local POSIX_SPAWN_SETPGROUP, POSIX_SPAWN_SETSIGMASK = 0x02, 0x08
local SC_NPROCESSORS_ONLN = 84
M.SIGTERM, M.SIGINT, M.SIGHUP = SIGTERM, SIGINT, SIGHUP

--- The number of online processors (at least 1).
function M.cores()
  local n = tonumber(C.kzp_sysconf(SC_NPROCESSORS_ONLN))
  return (n and n >= 1) and n or 1
end

--- This process's id.
function M.pid() return tonumber(C.kzp_getpid()) end

--- Is `name` an executable in $PATH?
function M.in_path(name)
  for d in ((os.getenv("PATH") or "") .. ":"):gmatch("([^:]*):") do
    local f = io.open((d == "" and "." or d) .. "/" .. name, "rb")
    if f then f:close(); return true end
  end
  return false
end

-- Spawn argv (a list of strings) in a process group of its own, with an empty signal mask.
local function spawn(argv)
  local n = #argv
  local cargv = ffi.new("char *[?]", n + 1)
  local keep = {}
  for i, a in ipairs(argv) do
    keep[i] = ffi.new("char[?]", #a + 1, a)
    cargv[i - 1] = keep[i]
  end
  cargv[n] = nil
  local attr = ffi.new("kzp_spawnattr")
  local empty = ffi.new("kzp_sigset")
  C.kzp_sigemptyset(empty)
  C.kzp_spawnattr_init(attr)
  C.kzp_spawnattr_setflags(attr, bit.bor(POSIX_SPAWN_SETPGROUP, POSIX_SPAWN_SETSIGMASK))
  C.kzp_spawnattr_setpgroup(attr, 0)
  C.kzp_spawnattr_setsigmask(attr, empty)
  local pid = ffi.new("int[1]")
  local rc = C.kzp_spawnp(pid, argv[1], nil, attr, cargv, C.environ)
  C.kzp_spawnattr_destroy(attr)
  if rc ~= 0 then return nil, ffi.string(C.kzp_strerror(rc)) end
  return pid[0]
end

--- Run the commands (each a list of strings: program and arguments) at most `jobs` at a time.
-- on_done(k, result) is called as each finishes. Returns the results, one per command:
-- { status = exit status } or { signal = n } (ended by a signal) or { error = why it could not
-- start } or { not_run = true } (a signal stopped the pool first), and the signal that stopped
-- the pool (nil when every command ran).
function M.run(cmds, jobs, on_done)
  local set, old = ffi.new("kzp_sigset"), ffi.new("kzp_sigset")
  C.kzp_sigemptyset(set)
  for _, s in ipairs { SIGCHLD, SIGTERM, SIGINT, SIGHUP } do C.kzp_sigaddset(set, s) end
  C.kzp_signal(SIGCHLD, nil) -- SIG_DFL: an ignored SIGCHLD inherited from the parent would reap for us
  C.kzp_sigprocmask(SIG_BLOCK, set, old)
  local results, running, nrun, nxt, stop = {}, {}, 0, 1, nil
  local status = ffi.new("int[1]")
  local wait = ffi.new("struct kzp_timespec", { 1, 0 })
  local function finish(k, r)
    results[k] = r
    if on_done then on_done(k, r) end
  end
  while true do
    while not stop and nxt <= #cmds and nrun < jobs do
      local pid, err = spawn(cmds[nxt])
      if pid then running[pid], nrun = nxt, nrun + 1 else finish(nxt, { error = err }) end
      nxt = nxt + 1
    end
    if nrun == 0 and (stop or nxt > #cmds) then break end
    local sig = C.kzp_sigtimedwait(set, nil, wait)
    if sig == SIGTERM or sig == SIGINT or sig == SIGHUP then
      local send = stop and SIGKILL or sig
      stop = stop or sig
      for pid in pairs(running) do C.kzp_kill(-pid, send) end
    end
    while nrun > 0 do
      local pid = C.kzp_waitpid(-1, status, WNOHANG)
      if pid <= 0 then break end
      local k = running[pid]
      if k then
        running[pid], nrun = nil, nrun - 1
        local st = status[0]
        local termsig = bit.band(st, 0x7f)
        finish(k, termsig == 0 and { status = bit.band(bit.rshift(st, 8), 0xff) } or { signal = termsig })
      end
    end
  end
  for k = 1, #cmds do if not results[k] then results[k] = { not_run = true } end end
  -- the mask stays as it is after a signal (the caller reports and exits; a signal arriving now
  -- must not kill it before that)
  if not stop then C.kzp_sigprocmask(SIG_SETMASK, old, nil) end
  return results, stop
end

--- A result in words.
function M.describe(r)
  if r.status then return "exit status " .. r.status end
  if r.signal then return "ended by signal " .. r.signal end
  if r.error then return "could not start: " .. r.error end
  return "not run"
end

return M
