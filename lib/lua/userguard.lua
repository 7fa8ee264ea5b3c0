-- userguard.lua -- what a user model's code (lib/lua/usermodel.lua) may not do silently.
--
-- Its functions run inside kapitza's C loops, so a crash or an exit() there would end the
-- process with no word about the cause, and an output array left unwritten would feed stale
-- memory into the results. For a model written as C source:
--  * every exported wrapper (kzu_sys_accel, ...) is guarded: before the call it fills the output
--    array with one particular NaN (UNSET below: a payload no arithmetic produces), after a call
--    that returned KZ_OK it looks for that pattern; one left there (never written, or only
--    read) makes the call return KZ_EMODEL, and the binding (kz.fail, through kz.model_fault)
--    reports "usermodel 'm': accel (C function 'force') left a[1] unset" in one line. (An output
--    that overlaps the input is not filled.)
--  * the wrapper marks which part is running; a second translation unit compiled into the same
--    object (no header of it can clash with the user's names) installs, when the object is
--    loaded, handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT that, inside a model call,
--    write "usermodel 'm': accel (C function 'force') crashed with signal 11 (SIGSEGV)" before
--    the process dies of the signal as it would have (the previous handler is restored and the
--    signal raised again; an alternate signal stack lets a stack overflow be reported), and an
--    atexit/at_quick_exit handler that turns an exit() from inside a model call into that
--    message and exit status 70, so it never looks like a success.
--  * before the model is returned, each guarded function is called at three trial points
--    (x = 0 at 0, x = 0.5 at 0.3, x = -0.25 at 1: t, or the phase theta) in a forked child
--    process, with a 10 s alarm: a crash, an exit, a hang or an unset output there is a
--    one-line error at load (a scenario's exit 2, nothing written), not a dead process later.
-- For a model written as Lua functions, the same fill-and-check is done in Lua, and os.exit
-- called from inside one of its functions is an error ("accel called os.exit(0)") instead of an
-- exit. Not caught: _exit() or a raw exit syscall from C, a signal sent by another process,
-- damage that does not fault (a write past an array into other memory), a crash of a Lua
-- function through FFI misuse (Lua-function models get no trial calls), and models run by
-- several threads at once (the running-part marker is per object, not per thread).
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

M.UNSET = 0x7ff86b7a756e7365ULL -- a quiet NaN whose payload spells "kzunse"
M.EXIT_STATUS = 70               -- an exit() from inside a C model call (EX_SOFTWARE)
M.PROBE_SECONDS = 10

pcall(ffi.cdef, [[
int kzu_fault_take(int *part, int *index, double *at);
int kzu_guard_install(void);
]])
for _, d in ipairs { "int fork(void);", "int pipe(int fd[2]);", "intptr_t read(int fd, void *buf, size_t n);",
                     "intptr_t write(int fd, const void *buf, size_t n);", "int close(int fd);",
                     "int waitpid(int pid, int *status, int options);", "void _exit(int status);",
                     "unsigned int alarm(unsigned int seconds);", "int dup2(int oldfd, int newfd);",
                     "int open(const char *path, int flags, ...);", "char *strsignal(int sig);",
                     "void (*signal(int sig, void (*handler)(int)))(int);" } do
  pcall(ffi.cdef, d)
end

-- The guarded wrappers: exported symbol -> the part, its output array's name and length.
local GUARDED = {
  kzu_vib_accel = { part = "accel", out = "a", nout = "nq", arg = "theta" },
  kzu_sys_accel = { part = "accel", out = "a", nout = "nq", arg = "t" },
  kzu_vib_rhs = { part = "rhs", out = "f", nout = "dim", arg = "theta" },
  kzu_sys_rhs = { part = "rhs", out = "f", nout = "dim", arg = "t" },
  kzu_reconstruct = { part = "reconstruct", out = "y", nout = "dim", arg = "theta" },
  kzu_avg_accel = { part = "averaged", out = "a", nout = "nq", arg = "t" },
  kzu_avg_rhs = { part = "averaged", out = "f", nout = "dim", arg = "t" },
}

local function who_c(name, p) return string.format("usermodel '%s': %s (C function '%s')", name, p.part, p.cfn) end

---------------------------------------------------------------------------------------------------
-- C models: the generated text
---------------------------------------------------------------------------------------------------

local GUARD_HEAD = [[
extern volatile int kzu_in __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_part __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_index __attribute__((visibility("hidden")));
extern _Thread_local double kzu_fault_at __attribute__((visibility("hidden")));

static inline int kzu_guard(int kzu_part, int (*kzu_fn)(void *, double, const double *, double *), void *kzu_par,
                            double kzu_at, const double *kzu_x, double *kzu_out, int kzu_nout, int kzu_nin)
{
  const __UINTPTR_TYPE__ kzu_o = (__UINTPTR_TYPE__)kzu_out, kzu_i = (__UINTPTR_TYPE__)kzu_x;
  const int kzu_fill = kzu_o + (__UINTPTR_TYPE__)kzu_nout * sizeof(double) <= kzu_i ||
                       kzu_i + (__UINTPTR_TYPE__)kzu_nin * sizeof(double) <= kzu_o;
  const unsigned long long kzu_unset = 0x7ff86b7a756e7365ULL;
  if (kzu_fill)
    for (int kzu_k = 0; kzu_k < kzu_nout; kzu_k++) __builtin_memcpy(kzu_out + kzu_k, &kzu_unset, sizeof kzu_unset);
  const int kzu_prev = kzu_in;
  kzu_in = kzu_part;
  __asm__ __volatile__("" ::: "memory"); /* the user's loads and stores stay inside the mark */
  const int kzu_st = kzu_fn(kzu_par, kzu_at, kzu_x, kzu_out);
  __asm__ __volatile__("" ::: "memory");
  kzu_in = kzu_prev;
  if (kzu_fill && kzu_st == KZ_OK)
    for (int kzu_k = 0; kzu_k < kzu_nout; kzu_k++) {
      unsigned long long kzu_b;
      __builtin_memcpy(&kzu_b, kzu_out + kzu_k, sizeof kzu_b);
      if (kzu_b == kzu_unset) {
        kzu_fault_part = kzu_part;
        kzu_fault_index = kzu_k;
        kzu_fault_at = kzu_at;
        return KZ_EMODEL;
      }
    }
  return kzu_st;
}
]]

local GUARD_TU = [[
/* Generated by kapitza (lib/lua/userguard.lua) for the model '%s': reports a crash or an exit()
 * inside its functions in one line. Its own translation unit: these headers cannot clash with
 * the names of the model's source. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KZU_HIDDEN __attribute__((visibility("hidden")))
KZU_HIDDEN volatile int kzu_in = -1; /* the part running now, -1: none (one thread at a time) */
KZU_HIDDEN _Thread_local int kzu_fault_part = -1;
KZU_HIDDEN _Thread_local int kzu_fault_index;
KZU_HIDDEN _Thread_local double kzu_fault_at;

static const char *const kzu_who[] = {
%s
};
static const int kzu_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const char *const kzu_signames[] = { "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT" };
static struct sigaction kzu_old[5];

static void kzu_say(const char *s)
{
  size_t n = strlen(s);
  while (n > 0) {
    const ssize_t w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

int kzu_fault_take(int *part, int *index, double *at)
{
  if (kzu_fault_part < 0) return 0;
  *part = kzu_fault_part;
  *index = kzu_fault_index;
  *at = kzu_fault_at;
  kzu_fault_part = -1;
  return 1;
}

static void kzu_on_signal(int sig, siginfo_t *info, void *ctx)
{
  (void)ctx;
  int k = 0;
  while (k < 4 && kzu_sigs[k] != sig) k++;
  sigaction(sig, &kzu_old[k], NULL); /* the next delivery goes where it went before */
  const int part = kzu_in;
  if (part >= 0) {
    char num[12];
    int i = (int)sizeof num - 1;
    num[i] = '\0';
    for (int v = sig; i > 0 && (v > 0 || i == (int)sizeof num - 1); v /= 10) num[--i] = (char)('0' + v %% 10);
    kzu_in = -1;
    kzu_say(kzu_who[part]);
    kzu_say(" crashed with signal ");
    kzu_say(num + i);
    kzu_say(" (");
    kzu_say(kzu_signames[k]);
    kzu_say(")\n");
  }
  if (!info || info->si_code <= 0) raise(sig); /* sent, not a fault: send it again */
}

static void kzu_on_exit(void)
{
  if (kzu_in >= 0) {
    kzu_say(kzu_who[kzu_in]);
    kzu_say(" called exit() while a method was running: stopped, exit status %d\n");
    _exit(%d);
  }
}

int kzu_guard_install(void)
{
  static int done;
  if (done) return 0;
  done = 1;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = kzu_on_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int k = 0; k < 5; k++) sigaction(kzu_sigs[k], &sa, &kzu_old[k]);
  stack_t ss;
  if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_DISABLE)) {
    static char stack[1 << 16];
    ss.ss_sp = stack;
    ss.ss_size = sizeof stack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
  }
  atexit(kzu_on_exit);
  at_quick_exit(kzu_on_exit);
  return 1;
}
]]

--- Guard the generated wrappers of a C model: `wrappers` is their text (functions
-- "int kzu_...(" at the start of a line). Returns the text that replaces it (the wrappers made
-- static, kzu_raw_..., and guarded exported ones), the guard translation unit, and the parts
-- (in the order of their index: { sym, part, cfn, out, nout, nin, arg }).
function M.wrap(name, L, fns, wrappers)
  local parts = {}
  local raw = ("\n" .. wrappers):gsub("\nint (kzu_[%w_]+)%(", function(sym)
    local g = GUARDED[sym]
    if not g then return nil end
    parts[#parts + 1] = { sym = sym, part = g.part, cfn = fns[g.part], out = g.out, arg = g.arg,
                          nout = g.nout == "nq" and L.nq or L.dim, nin = L.dim }
    return "\nstatic inline int kzu_raw_" .. sym:sub(5) .. "("
  end):sub(2)
  local out = { raw, "", string.format('#line 1 "%s (generated guards)"', name), GUARD_HEAD }
  local who = {}
  for i, p in ipairs(parts) do
    out[#out + 1] = string.format("int %s(void *kzu_par, double kzu_at, const double *kzu_x, double *kzu_out)\n{\n" ..
                                  "  return kzu_guard(%d, kzu_raw_%s, kzu_par, kzu_at, kzu_x, kzu_out, %d, %d);\n}\n",
                                  p.sym, i - 1, p.sym:sub(5), p.nout, p.nin)
    who[i] = string.format('  "%s",', who_c(name, p))
  end
  if #who == 0 then who[1] = '  ""' end
  return table.concat(out, "\n"), string.format(GUARD_TU, name, table.concat(who, "\n"), M.EXIT_STATUS, M.EXIT_STATUS), parts
end

---------------------------------------------------------------------------------------------------
-- C models: after loading
---------------------------------------------------------------------------------------------------

local registry, by_path = {}, {} -- loaded guarded objects: { ns, name, parts }

--- Install the guards of a loaded object (once per object).
function M.install(ns, path, name, parts)
  if by_path[path] then return end
  ns.kzu_guard_install()
  local e = { ns = ns, name = name, parts = parts }
  by_path[path] = e
  registry[#registry + 1] = e
end

--- The message for a failed C call whose status is KZ_EMODEL because a guarded wrapper found an
-- output unset (nil otherwise); reads and clears every object's record. Installed as
-- kz.model_fault, which kz.fail consults.
function M.fault_message(status)
  local part, index, at = ffi.new("int[1]"), ffi.new("int[1]"), ffi.new("double[1]")
  local msg
  for _, e in ipairs(registry) do
    if e.ns.kzu_fault_take(part, index, at) ~= 0 and not msg and status == C.KZ_EMODEL then
      local p = e.parts[part[0] + 1]
      msg = string.format("%s left %s[%d] unset", who_c(e.name, p), p.out, index[0])
      if p.arg == "theta" then msg = msg .. string.format(" at theta = %.17g", at[0]) end
    end
  end
  return msg
end
kz.model_fault = M.fault_message

local POINTS = { { 0, 0 }, { 0.3, 0.5 }, { 1, -0.25 } } -- (t or theta, every component of x)

local function wait_status(st)
  local low = st % 128
  if low == 0 then return "exit", math.floor(st / 256) % 256 end
  return "signal", low
end

--- Call each guarded function of a loaded C model at the trial points in a forked child; raise
-- a one-line message when one crashes, exits, hangs or leaves an output unset there.
function M.probe(name, ns, parts, par, L)
  if #parts == 0 then return end
  local fds = ffi.new("int[2]")
  if ffi.C.pipe(fds) ~= 0 then return end -- no probe: the guards in the process still hold
  local gc = collectgarbage("isrunning")
  collectgarbage("stop") -- no finalizer may run in the child
  local pid = ffi.C.fork()
  if pid == 0 then
    local ok, res = pcall(function()
      ffi.C.close(fds[0])
      local null = ffi.C.open("/dev/null", 1)
      if null >= 0 then ffi.C.dup2(null, 1); ffi.C.dup2(null, 2) end
      ffi.C.signal(14, nil) -- SIGALRM: the default action (the process may have ignored it)
      ffi.C.alarm(M.PROBE_SECONDS)
      local x, out = ffi.new("double[?]", L.dim), ffi.new("double[?]", L.dim)
      local fp, fi, fa = ffi.new("int[1]"), ffi.new("int[1]"), ffi.new("double[1]")
      for k, p in ipairs(parts) do
        for j, pt in ipairs(POINTS) do
          for i = 0, L.dim - 1 do x[i] = pt[2] end
          local at = string.format("at %d %d\n", k, j) -- what runs, should it never return
          ffi.C.write(fds[1], at, #at)
          local st = ns[p.sym](par, pt[1], x, out)
          if st == C.KZ_EMODEL and ns.kzu_fault_take(fp, fi, fa) ~= 0 then
            return string.format("unset %d %d %d", k, j, fi[0])
          end
        end
      end
      return "ok"
    end)
    local msg = (ok and res or "error") .. "\n"
    ffi.C.write(fds[1], msg, #msg)
    ffi.C._exit(0)
  end
  if gc then collectgarbage("restart") end
  ffi.C.close(fds[1])
  if pid < 0 then ffi.C.close(fds[0]); return end
  local chunks, buf = {}, ffi.new("char[256]")
  while true do
    local n = tonumber(ffi.C.read(fds[0], buf, 256))
    if n > 0 then chunks[#chunks + 1] = ffi.string(buf, n)
    elseif n == 0 or ffi.errno() ~= 4 then break end -- 4: EINTR
  end
  ffi.C.close(fds[0])
  local status = ffi.new("int[1]")
  local waited
  repeat waited = ffi.C.waitpid(pid, status, 0) until waited >= 0 or ffi.errno() ~= 4
  local said = table.concat(chunks)
  local last = said:match("([^\n]*)\n$") or ""
  if last == "ok" or last == "error" then return end
  local k, j, idx = last:match("^unset (%d+) (%d+) (%d+)$")
  if not k then k, j = last:match("^at (%d+) (%d+)$") end
  local p, pt = parts[tonumber(k) or 1], POINTS[tonumber(j) or 1]
  local what, trial = who_c(name, p), string.format("in a trial call (%s = %g, inputs all %g) in a child process", p.arg, pt[1], pt[2])
  if idx then error(string.format("%s left %s[%s] unset %s", what, p.out, idx, trial), 0) end
  if waited < 0 then error(string.format("%s did not finish %s", what, trial), 0) end
  local how, n = wait_status(status[0])
  if how == "signal" and n == 14 then
    error(string.format("%s did not return within %d s %s", what, M.PROBE_SECONDS, trial), 0)
  elseif how == "signal" then
    error(string.format("%s crashed with signal %d (%s) %s", what, n, ffi.string(ffi.C.strsignal(n)), trial), 0)
  elseif n == M.EXIT_STATUS then
    error(string.format("%s called exit() %s", what, trial), 0)
  end
  error(string.format("%s ended the process (exit status %d) %s", what, n, trial), 0)
end

---------------------------------------------------------------------------------------------------
-- Lua models
---------------------------------------------------------------------------------------------------

local u64p = ffi.typeof("uint64_t *")
local function addr(p) return tonumber(ffi.cast("uintptr_t", p)) end
local inside -- "usermodel 'm': accel" while one of a Lua model's functions runs

local real_exit
local function guard_exit()
  if real_exit then return end
  real_exit = os.exit
  os.exit = function(code, ...) -- luacheck: ignore (a deliberate replacement, see the header)
    if inside then error({ kz_fault = string.format("%s called os.exit(%s)", inside, tostring(code)) }, 0) end
    return real_exit(code, ...)
  end
end

local LUA_PARTS = { accel = true, rhs = true, reconstruct = true, averaged = true } -- (p, t, x, out); averaged (p, x, out)

-- The function fn of part k of a Lua model, guarded.
local function guard_lua(name, L, k, fn)
  local outname = (k == "reconstruct" and "y") or (L.nq > 0 and "a" or "f")
  local nout = (k == "reconstruct" or L.nq == 0) and L.dim or L.nq
  local nin, who = L.dim, string.format("usermodel '%s': %s", name, k)
  local function call(P, arg, x, out)
    local o, i = addr(out), addr(x)
    local fill = o + 8 * nout <= i or i + 8 * nin <= o
    if fill then
      local u = ffi.cast(u64p, out)
      for j = 0, nout - 1 do u[j] = M.UNSET end
    end
    local prev = inside
    inside = who
    local ok, st
    if k == "averaged" then ok, st = pcall(fn, P, x, out) else ok, st = pcall(fn, P, arg, x, out) end
    inside = prev
    if not ok then error(st, 0) end
    if fill and (st == nil or st == 0) then
      local u = ffi.cast(u64p, out)
      for j = 0, nout - 1 do
        if u[j] == M.UNSET then error({ kz_fault = string.format("%s left %s[%d] unset", who, outname, j) }, 0) end
      end
    end
    return st
  end
  if k == "averaged" then return function(P, x, out) return call(P, nil, x, out) end end -- averaged(p, q, a)
  return call
end

--- A Lua model's functions, guarded: the output array filled with UNSET before each call and
-- checked after it; os.exit inside one of them is an error. An error is raised with a table
-- { kz_fault = message } (M.lua_fault reads it).
function M.lua_fns(name, L, fns)
  guard_exit()
  local g = {}
  for k, fn in pairs(fns) do g[k] = LUA_PARTS[k] and guard_lua(name, L, k, fn) or fn end -- others: unguarded
  return g
end

--- The message of an error raised by a guarded Lua function (nil for any other error).
function M.lua_fault(err) return type(err) == "table" and err.kz_fault or nil end

return M
