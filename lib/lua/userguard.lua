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
--  * the functions of the model's parts (lib/lua/modelparts.lua: flows, constraints, slow sets, the
--    vmi potentials, invariants) are guarded where they are called: a shim with the user
--    function's own signature marks the part, fills each output array (a Jacobian, a gradient,
--    an invariant's value; a flow works in place: only marked) and looks at it after the call,
--    so a message names the very function ("constraints.jacobian (C function 'rods_G') left
--    G[1] unset"); the library's central differences call the user's functions through the
--    same shims.
--  * before the model is returned, each guarded function is called at three trial points
--    (x = 0 at 0, x = 0.5 at 0.3, x = -0.25 at 1: t, or the phase theta; a part function: every
--    input array at those values, a flow's step 0.1) in a forked child process, with a 10 s
--    alarm: a crash, an exit, a hang or an unset output there is a one-line error at load (a
--    scenario's exit 2, nothing written), not a dead process later.
-- For a model written as Lua functions, the same fill-and-check is done in Lua (its part
-- functions too), and os.exit called from inside one of its functions is an error ("accel
-- called os.exit(0)", "flows.a called os.exit(3)") instead of an exit. Not caught: _exit() or
-- a raw exit syscall from C, a signal sent by another process, damage that does not fault (a
-- write past an array into other memory), a crash of a Lua function through FFI misuse
-- (Lua-function models get no trial calls), an output a flow or a function returning its
-- status leaves wrong rather than unset. (The running-part marker is per thread: an ensemble's
-- threads run one model at once, and a crash or exit() is reported for the thread it happens in.)
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
extern _Thread_local volatile int kzu_in __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_part __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_index __attribute__((visibility("hidden")));
extern _Thread_local double kzu_fault_at __attribute__((visibility("hidden")));

/* for the part functions' shims (part_roles): outputs filled before the call, looked at after it */
static inline int kzu_apart(const double *kzu_o, int kzu_no, const double *kzu_i, int kzu_ni)
{
  const __UINTPTR_TYPE__ kzu_a = (__UINTPTR_TYPE__)kzu_o, kzu_b = (__UINTPTR_TYPE__)kzu_i;
  return kzu_o != 0 && (kzu_a + (__UINTPTR_TYPE__)kzu_no * sizeof(double) <= kzu_b ||
                        kzu_b + (__UINTPTR_TYPE__)kzu_ni * sizeof(double) <= kzu_a);
}
static inline void kzu_unset_fill(double *kzu_o, int kzu_n)
{
  const unsigned long long kzu_unset = 0x7ff86b7a756e7365ULL;
  for (int kzu_k = 0; kzu_k < kzu_n; kzu_k++) __builtin_memcpy(kzu_o + kzu_k, &kzu_unset, sizeof kzu_unset);
}
static inline int kzu_unset_find(const double *kzu_o, int kzu_n, int kzu_part, int kzu_base, double kzu_at)
{
  const unsigned long long kzu_unset = 0x7ff86b7a756e7365ULL;
  for (int kzu_k = 0; kzu_k < kzu_n; kzu_k++) {
    unsigned long long kzu_b;
    __builtin_memcpy(&kzu_b, kzu_o + kzu_k, sizeof kzu_b);
    if (kzu_b == kzu_unset) {
      kzu_fault_part = kzu_part;
      kzu_fault_index = kzu_base + kzu_k;
      kzu_fault_at = kzu_at;
      return 1;
    }
  }
  return 0;
}

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
KZU_HIDDEN _Thread_local volatile int kzu_in = -1; /* the part running in this thread, -1: none (per thread:
                                                       an ensemble runs one model on several threads) */
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

-- The part functions of lib/lua/modelparts.lua (flows, constraints, slow sets, vmi, invariants), each
-- guarded where the user's function is called (a shim with its signature), so that a message
-- names the very function: its role's C parameters after the parameter struct, its inputs and
-- outputs { name, length } (outputs are filled and looked at; a flow works in place: only
-- marked), the argument a message reports (theta, t), and the output an invariant or a
-- potential returns in Lua. In the order modelparts declares them.
-- For C (c = true) with vmi.accumulate, the given gradients and Hessians add into the method's
-- arrays: those are not filled (they hold the sum so far), only marked, as a flow is.
local function part_roles(L, fp, c)
  local P, t = L.parts, {}
  local function add(part, cfn, id, params, ins, outs, arg, lua_value)
    t[#t + 1] = { part = part, cfn = cfn, id = id, params = params, ins = ins, outs = outs, arg = arg, value = lua_value }
  end
  local dim = L.dim
  if fp.flows then
    for _, ab in ipairs { "a", "b" } do
      add("flows." .. ab, fp.flows[ab], "flows_" .. ab, { { "double", "t" }, { "double", "h" }, { "double *", "y" } }, {}, {}, "t")
      t[#t].inplace = dim
    end
  end
  if fp.constraints then
    local m, nq = P.constraints.m, P.constraints.nq
    local par = { { "const double *", "q" }, { "double *", "g" } }
    add("constraints.g", fp.constraints.g, "constraints_g", par, { { 2, nq } }, { { 3, "g", m } })
    if fp.constraints.jacobian then
      add("constraints.jacobian", fp.constraints.jacobian, "constraints_jacobian",
          { { "const double *", "q" }, { "double *", "G" } }, { { 2, nq } }, { { 3, "G", m * nq } })
    end
  end
  if fp.slow then
    for _, set in ipairs(P.slow.names) do
      local f, r = fp.slow[set], P.slow[set].r
      for _, role in ipairs { { "xi", "xi", r }, { "gradient", "G", r * dim }, { "dtheta", "d", r } } do
        if f[role[1]] then
          add("slow." .. set .. "." .. role[1], f[role[1]], "slow_" .. set .. "_" .. role[1],
              { { "double", "theta" }, { "const double *", "x" }, { "double *", role[2] } }, { { 3, dim } }, { { 4, role[2], role[3] } },
              "theta")
        end
      end
    end
  end
  if fp.vmi then
    local ns, nf = P.vmi.ns, P.vmi.nf
    local qq = { { "const double *", "qs" }, { "const double *", "qf" } }
    local function with(extra)
      local x = { qq[1], qq[2] }
      for _, e in ipairs(extra) do x[#x + 1] = e end
      return x
    end
    local ins = { { 2, ns }, { 3, nf } }
    local v = fp.vmi
    add("vmi.V", v.V, "vmi_V", with { { "double *", "v" } }, ins, { { 4, "v", 1 } }, nil, true)
    if v.V_gradient then
      add("vmi.V_gradient", v.V_gradient, "vmi_V_gradient", with { { "double *", "gs" }, { "double *", "gf" } }, ins,
          { { 4, "gs", ns }, { 5, "gf", nf } })
    end
    if v.V_hessian then
      add("vmi.V_hessian", v.V_hessian, "vmi_V_hessian", with { { "double *", "H" } }, ins, { { 4, "H", (ns + nf) ^ 2 } })
    end
    local wq = { { "const double *", "qf" } }
    if v.W then add("vmi.W", v.W, "vmi_W", { wq[1], { "double *", "w" } }, { { 2, nf } }, { { 3, "w", 1 } }, nil, true) end
    if v.W_gradient then add("vmi.W_gradient", v.W_gradient, "vmi_W_gradient", { wq[1], { "double *", "g" } }, { { 2, nf } }, { { 3, "g", nf } }) end
    if v.W_hessian then add("vmi.W_hessian", v.W_hessian, "vmi_W_hessian", { wq[1], { "double *", "H" } }, { { 2, nf } }, { { 3, "H", nf * nf } }) end
    if c and P.vmi.accumulate then
      for _, r in ipairs(t) do
        if r.part:match("^vmi%.[VW]_") then
          local n = 1
          for _, o in ipairs(r.outs) do n = math.max(n, o[3]) end
          r.outs, r.inplace = {}, n
        end
      end
    end
  end
  if fp.invariants then
    for _, inv in ipairs(fp.invariant_names) do
      add("invariants." .. inv, fp.invariants[inv], "invariants_" .. inv, { { "const double *", "y" }, { "double *", "value" } },
          { { 2, dim } }, { { 3, "value", 1 } }, nil, true)
    end
  end
  return t
end

-- fp (the C names of the part functions) with each name replaced by its shim's.
local function renamed(fp, roles)
  if not fp then return fp end
  local by = {}
  for _, r in ipairs(roles) do by[r.part] = "kzu_g_" .. r.id end
  local g = {}
  for k, v in pairs(fp) do g[k] = v end
  local function map(t, prefix)
    local o = {}
    for k, v in pairs(t) do o[k] = by[prefix .. k] or v end
    return o
  end
  if fp.flows then g.flows = map(fp.flows, "flows.") end
  if fp.constraints then g.constraints = map(fp.constraints, "constraints.") end
  if fp.vmi then g.vmi = map(fp.vmi, "vmi.") end
  if fp.invariants then g.invariants = map(fp.invariants, "invariants.") end
  if fp.slow then
    g.slow = {}
    for set, f in pairs(fp.slow) do g.slow[set] = map(f, "slow." .. set .. ".") end
  end
  return g
end

-- The C text of a role's shim (index k of the parts): static inline, called by the part wrappers,
-- and kzu_p_<id>, exported for the trial calls.
local function shim_c(r, k)
  local decl, args = {}, {}
  for _, p in ipairs(r.params) do
    decl[#decl + 1] = p[1] .. " kzu_" .. p[2]
    args[#args + 1] = "kzu_" .. p[2]
  end
  local decls, argl = table.concat(decl, ", "), table.concat(args, ", ")
  local fill, check = {}, {}
  local base = 0
  for _, o in ipairs(r.outs) do
    local apart = { string.format("kzu_%s != 0", o[2]) }
    for _, i in ipairs(r.ins) do
      apart[#apart + 1] = string.format("kzu_apart(kzu_%s, %d, kzu_%s, %d)", o[2], o[3], r.params[i[1] - 1][2], i[2])
    end
    fill[#fill + 1] = string.format("  const int kzu_f_%s = %s;\n  if (kzu_f_%s) kzu_unset_fill(kzu_%s, %d);",
                                    o[2], table.concat(apart, " && "), o[2], o[2], o[3])
    check[#check + 1] = string.format("    if (kzu_f_%s && kzu_unset_find(kzu_%s, %d, %d, %d, %s)) return KZ_EMODEL;",
                                      o[2], o[2], o[3], k, base, r.arg and ("kzu_" .. r.arg) or "0.0")
    base = base + o[3]
  end
  return string.format([[
static inline int kzu_g_%s(const kz_par *kzu_p, %s)
{
%s
  const int kzu_prev = kzu_in;
  kzu_in = %d;
  __asm__ __volatile__("" ::: "memory");
  const int kzu_st = %s(kzu_p, %s);
  __asm__ __volatile__("" ::: "memory");
  kzu_in = kzu_prev;
  if (kzu_st == KZ_OK) {
%s
  }
  return kzu_st;
}
int kzu_p_%s(const void *kzu_par, %s)
{
  return kzu_g_%s((const kz_par *)kzu_par, %s);
}
]], r.id, decls, #fill > 0 and table.concat(fill, "\n") or "", k, r.cfn, argl, #check > 0 and table.concat(check, "\n") or "    ;",
    r.id, decls, r.id, argl)
end

--- Guard the generated wrappers of a C model. build(fp) returns their text (functions
-- "int kzu_...(" at the start of a line) for the part functions' names fp (fns.parts with each
-- name replaced by its guarded shim's). Returns the text that replaces it (the guard's helpers,
-- the part functions' shims, the wrappers made static, kzu_raw_..., and guarded exported ones),
-- the guard translation unit, and the parts (in the order of their index: force parts
-- { sym, part, cfn, outs, nin, arg }; part functions { sym = kzu_p_<id>, part, cfn, outs, ins,
-- params, arg }).
function M.wrap(name, L, fns, build)
  local roles = part_roles(L, fns.parts or {}, true)
  local wrappers = build(renamed(fns.parts, roles))
  local parts = {}
  local raw = ("\n" .. wrappers):gsub("\nint (kzu_[%w_]+)%(", function(sym)
    local g = GUARDED[sym]
    if not g then return nil end
    parts[#parts + 1] = { sym = sym, part = g.part, cfn = fns[g.part], arg = g.arg,
                          outs = { { 0, g.out, g.nout == "nq" and L.nq or L.dim } }, nin = L.dim }
    return "\nstatic inline int kzu_raw_" .. sym:sub(5) .. "("
  end):sub(2)
  local shims = {}
  for _, r in ipairs(roles) do
    parts[#parts + 1] = { sym = "kzu_p_" .. r.id, part = r.part, cfn = r.cfn, outs = r.outs, ins = r.ins, params = r.params,
                          arg = r.arg, inplace = r.inplace, role = true }
    shims[#shims + 1] = shim_c(r, #parts - 1)
  end
  local out = { string.format('#line 1 "%s (generated guards)"', name), GUARD_HEAD, table.concat(shims, "\n"),
                string.format('#line 1 "%s (generated wrappers)"', name), raw, "" }
  local who = {}
  for i, p in ipairs(parts) do
    if not p.role then
      out[#out + 1] = string.format("int %s(void *kzu_par, double kzu_at, const double *kzu_x, double *kzu_out)\n{\n" ..
                                    "  return kzu_guard(%d, kzu_raw_%s, kzu_par, kzu_at, kzu_x, kzu_out, %d, %d);\n}\n",
                                    p.sym, i - 1, p.sym:sub(5), p.outs[1][3], p.nin)
    end
    who[i] = string.format('  "%s",', who_c(name, p))
  end
  if #who == 0 then who[1] = '  ""' end
  return table.concat(out, "\n"), string.format(GUARD_TU, name, table.concat(who, "\n"), M.EXIT_STATUS, M.EXIT_STATUS), parts
end

---------------------------------------------------------------------------------------------------
-- C models: after loading
---------------------------------------------------------------------------------------------------

local registry, by_path = {}, {} -- loaded guarded objects: { ns, name, parts }

-- A part function's trial call: its exported shim kzu_p_<id> with every input array all
-- pt[2], its phase or time pt[1] (a flow's step 0.1), fresh output arrays.
local function role_caller(p)
  local decl = { "const void *par" }
  for _, q in ipairs(p.params) do decl[#decl + 1] = q[1] .. " " .. q[2] end
  pcall(ffi.cdef, string.format("int %s(%s);", p.sym, table.concat(decl, ", ")))
  return function(ns, par, pt)
    local args = {}
    for i, q in ipairs(p.params) do
      if q[1] == "double" then
        args[i] = q[2] == "h" and 0.1 or pt[1]
      else
        local n = p.inplace or 1
        for _, o in ipairs(p.outs) do if o[2] == q[2] then n = o[3] end end
        for _, o in ipairs(p.ins) do if o[1] == i + 1 then n = o[2] end end
        n = math.max(1, n)
        local b = ffi.new("double[?]", n)
        if q[1] == "const double *" or p.inplace then for k = 0, n - 1 do b[k] = pt[2] end end
        args[i] = b
      end
    end
    return ns[p.sym](par, unpack(args, 1, #p.params))
  end
end

--- Install the guards of a loaded object (once per object).
function M.install(ns, path, name, parts)
  for _, p in ipairs(parts) do if p.role and not p.call then p.call = role_caller(p) end end
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
      local k, out = index[0], p.outs[1]
      for _, o in ipairs(p.outs) do
        out = o
        if k < o[3] then break end
        k = k - o[3]
      end
      msg = string.format("%s left %s[%d] unset", who_c(e.name, p), out[2], k)
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
          local st
          if p.role then st = p.call(ns, par, pt) else st = ns[p.sym](par, pt[1], x, out) end
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
  local what = who_c(name, p)
  local trial = p.arg and string.format("in a trial call (%s = %g, inputs all %g) in a child process", p.arg, pt[1], pt[2])
                or string.format("in a trial call (inputs all %g) in a child process", pt[2])
  if idx then
    local i, o = tonumber(idx), p.outs[1]
    for _, oo in ipairs(p.outs) do
      o = oo
      if i < oo[3] then break end
      i = i - oo[3]
    end
    error(string.format("%s left %s[%d] unset %s", what, o[2], i, trial), 0)
  end
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

-- A part function of a Lua model (role r of part_roles), guarded: its output arrays (argument
-- positions r.outs) filled with UNSET before the call and looked at after it, os.exit inside it
-- an error; its result returned (a status, or a potential's or an invariant's value). Every
-- role takes at most five arguments (no table is made per call: these run in the methods' loops).
local function guard_lua_part(name, r, fn)
  local who = string.format("usermodel '%s': %s", name, r.part)
  local ins, outs, value = r.ins, r.outs, r.value
  local function at(k, a1, a2, a3, a4, a5)
    if k == 1 then return a1 elseif k == 2 then return a2 elseif k == 3 then return a3 elseif k == 4 then return a4 end
    return a5
  end
  if #outs == 0 then -- a flow (in place), a potential, an invariant: os.exit guarded only
    return function(a1, a2, a3, a4, a5)
      local prev = inside
      inside = who
      local ok, st = pcall(fn, a1, a2, a3, a4, a5)
      inside = prev
      if not ok then error(st, 0) end
      return st
    end
  end
  local fill = {}
  return function(a1, a2, a3, a4, a5)
    for k, o in ipairs(outs) do
      local out, n = at(o[1], a1, a2, a3, a4, a5), o[3]
      local ok = type(out) == "cdata"
      for _, i in ipairs(ins) do
        local x = at(i[1], a1, a2, a3, a4, a5)
        if ok and type(x) == "cdata" then
          local po, px = addr(out), addr(x)
          ok = po + 8 * n <= px or px + 8 * i[2] <= po
        end
      end
      if ok then
        local u = ffi.cast(u64p, out)
        for j = 0, n - 1 do u[j] = M.UNSET end
      end
      fill[k] = ok
    end
    local prev = inside
    inside = who
    local ok, st = pcall(fn, a1, a2, a3, a4, a5)
    inside = prev
    if not ok then error(st, 0) end
    if not value and st ~= nil and st ~= 0 then return st end -- the user's own status: outputs not looked at
    for k, o in ipairs(outs) do
      if fill[k] then
        local u = ffi.cast(u64p, at(o[1], a1, a2, a3, a4, a5))
        for j = 0, o[3] - 1 do
          if u[j] == M.UNSET then error({ kz_fault = string.format("%s left %s[%d] unset", who, o[2], j) }, 0) end
        end
      end
    end
    return st
  end
end

-- The part functions fp of a Lua model (lib/lua/modelparts.lua's structure), guarded.
local function lua_part_fns(name, L, fp)
  if not fp then return fp end
  local by = {}
  for _, r in ipairs(part_roles(L, fp)) do
    -- a Lua potential or invariant returns its value: no output array
    if r.value then r.outs = {} end
    by[r.part] = r
  end
  local function map(t, prefix)
    local o = {}
    for k, v in pairs(t) do
      local r = by[prefix .. k]
      o[k] = (r and type(v) == "function") and guard_lua_part(name, r, v) or v
    end
    return o
  end
  local g = {}
  for k, v in pairs(fp) do g[k] = v end
  if fp.flows then g.flows = map(fp.flows, "flows.") end
  if fp.constraints then g.constraints = map(fp.constraints, "constraints.") end
  if fp.vmi then g.vmi = map(fp.vmi, "vmi.") end
  if fp.invariants then g.invariants = map(fp.invariants, "invariants.") end
  if fp.slow then
    g.slow = {}
    for set, f in pairs(fp.slow) do g.slow[set] = map(f, "slow." .. set .. ".") end
  end
  return g
end

--- A Lua model's functions, guarded: the output arrays filled with UNSET before each call and
-- checked after it; os.exit inside one of them is an error. The part functions (flows,
-- constraints, slow sets, vmi, invariants) too: their outputs by role (part_roles; a flow works
-- in place, a potential and an invariant return a value: only os.exit guarded). An error is
-- raised with a table { kz_fault = message } (M.lua_fault reads it).
function M.lua_fns(name, L, fns)
  guard_exit()
  local g = {}
  for k, fn in pairs(fns) do g[k] = LUA_PARTS[k] and guard_lua(name, L, k, fn) or fn end
  g.parts = lua_part_fns(name, L, fns.parts)
  return g
end

--- The message of an error raised by a guarded Lua function (nil for any other error).
function M.lua_fault(err) return type(err) == "table" and err.kz_fault or nil end

return M
