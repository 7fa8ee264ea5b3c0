-- userguard.lua -- what a user model's code (lib/lua/kapitza/usermodel.lua) may not do silently.
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
--  * the functions of the model's parts (lib/lua/kapitza/usermodel/parts.lua: flows, constraints, slow sets, the
--    vmi potentials, invariants) are guarded where they are called: a shim with the user
--    function's own signature marks the part, fills each output array (a Jacobian, a gradient,
--    an invariant's value; a flow works in place: only marked) and looks at it after the call,
--    so a message names the very function ("constraints.jacobian (C function 'rods_G') left
--    G[1] unset"); the library's central differences call the user's functions through the
--    same shims.
--  * before the model is returned, each guarded function is called at three trial points
--    (x = 0 at 0, x = 0.5 at 0.3, x = -0.25 at 1: t, or the phase theta; a part function: every
--    input array at those values, a flow's step 0.1) in a forked child process, with an alarm
--    at the limit on one call (watch.lua): a crash, an exit, a hang or an unset output there is
--    a one-line error at load (a scenario's exit 2, nothing written), not a dead process later.
--  * during the run, the record of the function running (kz_watch, written by the shims) lets
--    the library's monitor thread end a call that does not return within that limit, in one
--    line (lib/core/kz_watch.c, watch.lua).
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

pcall(ffi.cdef, [[
int kzu_fault_take(int *part, int *index, double *at);
int kzu_guard_install(int (*cleanup)(void));
void *kzu_watch_record(void);
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
  kzu_vib_accel = { part = "accel", out = "a", nout = "nq", arg = "theta", inp = "q" },
  kzu_sys_accel = { part = "accel", out = "a", nout = "nq", arg = "t", inp = "q" },
  kzu_vib_rhs = { part = "rhs", out = "f", nout = "dim", arg = "theta", inp = "y" },
  kzu_sys_rhs = { part = "rhs", out = "f", nout = "dim", arg = "t", inp = "y" },
  kzu_reconstruct = { part = "reconstruct", out = "y", nout = "dim", arg = "theta", inp = "Y" },
  kzu_avg_accel = { part = "averaged", out = "a", nout = "nq", arg = "t", inp = "q" },
  kzu_avg_rhs = { part = "averaged", out = "f", nout = "dim", arg = "t", inp = "y" },
}

local function who_c(name, p) return string.format("usermodel '%s': %s (C function '%s')", name, p.part, p.cfn) end

-- The part functions of lib/lua/kapitza/usermodel/parts.lua (flows, constraints, slow sets, vmi, invariants), each
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

-- The parts, each in its own module (U: what they share).
local U = { kz = kz, ffi = ffi, C = C, GUARDED = GUARDED, who_c = who_c, part_roles = part_roles }
require("kapitza.usermodel.guard_source")(M, U) -- C models: the generated text (M.wrap)
require("kapitza.usermodel.guard_probe")(M, U)  -- C models after loading (M.install, M.fault_message, M.probe)
require("kapitza.usermodel.guard_lua")(M, U)    -- Lua models (M.lua_fns)

--- Any value as text, never raising: a Lua error object whose __tostring fails (or returns no
-- string) is described instead of its failure escaping (inside a callback it would unwind
-- through C). The modules that word a user's values shadow tostring with it.
function M.text(v)
  if type(v) == "string" then return v end
  local ok, s = pcall(tostring, v)
  if ok and type(s) == "string" then return s end
  return string.format("(a %s whose __tostring %s)", type(v), ok and ("returned a " .. type(s) .. ", not a string")
                       or ("failed" .. (type(s) == "string" and (": " .. s) or "")))
end

--- The message of an error raised by a guarded Lua function (nil for any other error).
function M.lua_fault(err) return type(err) == "table" and err.kz_fault or nil end

return M
