-- userguard_source.lua -- the generated C text of a guarded C model (lib/lua/kapitza/usermodel/guard.lua documents
-- what is guarded): the guarded wrappers, the second translation unit with the signal and exit
-- handlers, and the shims of the parts' functions. Installed into userguard by userguard.lua:
-- require("kapitza.usermodel.guard_source")(M, U), U the helpers the parts share.
return function(M, U)
local GUARDED, who_c, part_roles = U.GUARDED, U.who_c, U.part_roles

-- The record of the function running, for the library's wall-clock limit (kz_watch of
-- kapitza/runner.h, the same layout: this text is generated with the library it runs against).
local WATCH_STRUCT = [[
struct kzu_watch {
  volatile int in;
  volatile double calls;
  volatile double at;
  const char *const *who;
  const char *const *arg;
  int n;
};
]]

local GUARD_HEAD = WATCH_STRUCT .. [[
extern struct kzu_watch kzu_watch __attribute__((visibility("hidden")));
extern _Thread_local volatile int kzu_in __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_part __attribute__((visibility("hidden")));
extern _Thread_local int kzu_fault_index __attribute__((visibility("hidden")));
extern _Thread_local double kzu_fault_at __attribute__((visibility("hidden")));

/* the ensemble wrappers' member loops (lib/lua/kapitza/usermodel/wrappers.lua), on several threads at
 * once: the record shows the force running from the first loop begun to the last one ended */
static int kzu_ens_active;
static inline void kzu_ens_enter(int kzu_part, double kzu_at)
{
  if (__atomic_fetch_add(&kzu_ens_active, 1, __ATOMIC_SEQ_CST) == 0) {
    kzu_watch.at = kzu_at;
    kzu_watch.in = kzu_part;
  }
  kzu_watch.calls += 1;
  __asm__ __volatile__("" ::: "memory");
}
static inline void kzu_ens_leave(void)
{
  __asm__ __volatile__("" ::: "memory");
  kzu_watch.calls += 1;
  if (__atomic_sub_fetch(&kzu_ens_active, 1, __ATOMIC_SEQ_CST) == 0) kzu_watch.in = -1;
}

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

/* On return the record shows this thread's own previous part (-1 outside a call), never a value
 * read from the record when the call began: with several threads in calls at once (a pool running a
 * method's members) that value could be another thread's part, restored after every call had ended,
 * and the next fork(2) of the process (a trial child) was taken for a fork inside the model. */
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
  kzu_watch.at = kzu_at;
  kzu_watch.calls += 1;
  kzu_watch.in = kzu_part;
  __asm__ __volatile__("" ::: "memory"); /* the user's loads and stores stay inside the mark */
  const int kzu_st = kzu_fn(kzu_par, kzu_at, kzu_x, kzu_out);
  __asm__ __volatile__("" ::: "memory");
  kzu_watch.in = kzu_prev; /* this thread's own: the record's may be another thread's */
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
/* Generated by kapitza (lib/lua/kapitza/usermodel/guard.lua) for the model '%s': reports a crash or an exit()
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
static const char *const kzu_args[] = {
%s
};
%s
/* the record of the function running, which the library's monitor reads (kz_watch_add) */
KZU_HIDDEN struct kzu_watch kzu_watch = { -1, 0, 0, kzu_who, kzu_args, %d };
void *kzu_watch_record(void) { return &kzu_watch; }
static const int kzu_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const char *const kzu_signames[] = { "SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT" };
static struct sigaction kzu_old[5];
static int (*kzu_cleanup)(void); /* removes the run's staging folder: the library's kz_runner_cleanup */

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
    if (kzu_cleanup) kzu_cleanup(); /* the run's staging folder (lib/core/kz_runner.c) */
  }
  if (!info || info->si_code <= 0) raise(sig); /* sent, not a fault: send it again */
}

static void kzu_on_exit(void)
{
  if (kzu_in >= 0) {
    kzu_say(kzu_who[kzu_in]);
    kzu_say(" called exit() while a method was running: stopped, exit status %d\n");
    if (kzu_cleanup) kzu_cleanup();
    _exit(%d);
  }
}

int kzu_guard_install(int (*cleanup)(void))
{
  static int done;
  if (done) return 0;
  done = 1;
  kzu_cleanup = cleanup;
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
  kzu_watch.at = %s;
  kzu_watch.calls += 1;
  kzu_watch.in = kzu_in;
  __asm__ __volatile__("" ::: "memory");
  const int kzu_st = %s(kzu_p, %s);
  __asm__ __volatile__("" ::: "memory");
  kzu_watch.in = kzu_prev; /* this thread's own: the record's may be another thread's */
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
]], r.id, decls, #fill > 0 and table.concat(fill, "\n") or "", k, r.arg and ("kzu_" .. r.arg) or "__builtin_nan(\"\")", r.cfn, argl, #check > 0 and table.concat(check, "\n") or "    ;",
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
    parts[#parts + 1] = { sym = sym, part = g.part, cfn = fns[g.part], arg = g.arg, inp = g.inp,
                          outs = { { 0, g.out, g.nout == "nq" and L.nq or L.dim } }, nin = L.dim }
    return "\nstatic inline int kzu_raw_" .. sym:sub(5) .. "("
  end):sub(2)
  local shims = {}
  for _, r in ipairs(roles) do
    parts[#parts + 1] = { sym = "kzu_p_" .. r.id, part = r.part, cfn = r.cfn, outs = r.outs, ins = r.ins, params = r.params,
                          arg = r.arg, inplace = r.inplace, role = true }
    shims[#shims + 1] = shim_c(r, #parts - 1)
  end
  local defs = {} -- the index of each guarded wrapper's part, for the ensemble wrappers' record
  for i, p in ipairs(parts) do
    if not p.role then defs[#defs + 1] = string.format("#define KZU_WATCH_%s %d", p.sym:sub(5), i - 1) end
  end
  local out = { string.format('#line 1 "%s (generated guards)"', name), GUARD_HEAD, table.concat(defs, "\n"), table.concat(shims, "\n"),
                string.format('#line 1 "%s (generated wrappers)"', name), raw, "" }
  local who, args = {}, {}
  for i, p in ipairs(parts) do
    if not p.role then
      out[#out + 1] = string.format("int %s(void *kzu_par, double kzu_at, const double *kzu_x, double *kzu_out)\n{\n" ..
                                    "  return kzu_guard(%d, kzu_raw_%s, kzu_par, kzu_at, kzu_x, kzu_out, %d, %d);\n}\n",
                                    p.sym, i - 1, p.sym:sub(5), p.outs[1][3], p.nin)
    end
    who[i] = string.format('  "%s",', who_c(name, p))
    args[i] = p.arg and string.format('  "%s",', p.arg) or "  0,"
  end
  if #who == 0 then who[1], args[1] = '  ""', "  0" end
  return table.concat(out, "\n"), string.format(GUARD_TU, name, table.concat(who, "\n"), table.concat(args, "\n"),
                                                WATCH_STRUCT, #parts, M.EXIT_STATUS, M.EXIT_STATUS), parts
end
end
