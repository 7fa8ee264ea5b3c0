-- usermodel.lua -- a model of your own, written in one Lua file, in the shape of lib/lua/kapitza/models.lua
-- ({ name, dim, nq, par, sys, vib, avg, ... }), so that hmm.run, the SAM binding, kz.trajectory
-- and kz.run take it unchanged. Two ways to write its functions:
--
--  (a) Lua functions, called from C through FFI callbacks: the slow path (make bench measures
--      it), fine for trying an idea. A Lua error inside one of them never unwinds through C: the
--      callback catches it (pcall), stores the message, returns KZ_EMODEL through C, and the
--      binding (kz.fail) raises that message as a one-line error. (LuaJIT aborts the process
--      when compiled code calls C that calls back into Lua: kz.call, through which every binding
--      calls C, is kept out of compiled traces once a Lua-function model exists.)
--  (b) C source text in the Lua file: written with a small generated preamble to a cache
--      directory, compiled once with the system C compiler into a shared object named by a hash
--      of (preamble + source + compiler command + kapitza version), loaded with ffi.load; later
--      runs load the cached object. Full speed: the same machine code as a built-in model. A
--      source that does not compile is a one-line error with the compiler's first error line
--      (<name>.c:LINE:COL, lines counted from the first line of the source text). The cache
--      trusts nobody (lib/lua/kapitza/usermodel/cache.lua: owned, unshared directories and objects, links never
--      followed, linked with -z defs), and the code is guarded (lib/lua/kapitza/usermodel/guard.lua: a crash, an
--      exit() or an output left unset is reported in one line, first in trial calls in a
--      child process, then during the run; the parts' functions too).
--
--   local um = require "kapitza.usermodel"
--   local spec = {
--     name = "pendulum", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" },
--     even_in_theta = true,
--     lua = { accel = function(p, theta, q, a) a[0] = (p.g + p.vmax * p.omega * math.cos(theta)) * math.sin(q[0]) / p.l end },
--     c = { accel = "force", source = [[
--       static int force(const kz_par *p, double theta, const double *q, double *a)
--       { a[0] = (p->g + p->vmax * p->omega * cos(theta)) * sin(q[0]) / p->l; return KZ_OK; } ]] },
--   }
--   local m = um.model(spec, { l = 0.2, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0 }, "c")  -- or "lua"
--
-- The spec (for its users: paper/model-format.md, the reference with one example per family):
--   name           letters, digits, '_' (names the cache files and the error messages)
--   nq | dim       second-order form y = (q, v), dim = 2 nq, v' = accel (nq); or first order y' = rhs (dim)
--   params         parameter names (C identifiers), all doubles; in C a struct kz_par with these
--                  fields in this order, in Lua a cdata of the same struct. With a parameter
--                  'omega' the model is fast-forced: its functions take the fast phase
--                  theta = omega t + theta0 ('theta0' optional, else 0) and it gets a kz_vib for
--                  the HMM (and sys in time form); without 'omega' they take the time t.
--   even_in_theta  f(-theta, .) = f(theta, .) (lets Algorithm 2 halve its windows)
--   lua, c         the functions: accel(p, theta, q, a) | rhs(p, theta, y, f) (one of them),
--                  reconstruct(p, theta, Y, y) (optional: micro state from the macro state),
--                  averaged(p, q, a) | averaged(p, y, f) (optional: the averaged equation, avg).
--                  phase(p, t) -> theta (optional, fast-forced models: the phase of the time
--                  form, default omega t + theta0; e.g. reduced modulo 2 pi before the sine
--                  for long runs; C: double phase(const kz_par *p, double t)).
--                  Arrays are double pointers, 0-based, in both languages. Return nothing (Lua) /
--                  KZ_OK (C), or a kz status to refuse. In `c`, each key names the C function;
--                  c.source is the C text, or c.file the path of a C file holding it (relative:
--                  to the model file's folder when the file is loaded by modelfile.spec or
--                  models.spec, see M.locate; the papers' lib/models/<name>.lua name theirs so).
--                  The text is compiled after lib/models/kz_model.h, the preamble (math.h, the
--                  status codes, kz_par; do not include kapitza.h). A C
--                  function that iterates (a flow solving an implicit step) may call
--                  kz_iteration() once per iteration: the methods count them (newton_iters);
--                  a flow that fails may return kz_refuse(KZ_ENOCONV, "what") to name the
--                  cause in the method's error message (a string constant).
--
-- Data (all optional; functions of the parameters take the parameter struct p):
--   values         default parameter values { name = number }; um.model's `values` override them
--   q0, v0 | y0    the initial state: positions and velocities (nq form; v0 default 0), or y0
--                  (dim numbers); a vmi model gives q0 and p0 (momenta), or y0 = (qs, qf, ps, pf).
--                  Each a list of numbers or a function(p) returning one. The model gets m.y0.
--   T              default end time (number or function(p)): m.T
--   period         the period of the oscillation for SAM/LISP/multirevolution when the model has
--                  no 'omega' (number, parameter name or function(p)): m.period (with 'omega':
--                  2 pi / omega, and period is refused)
--   derived        parameters computed from the others: { <name> = function(v) return ... end },
--                  v the other values by name; each name listed in params (a field of kz_par
--                  like any other) and never given a value (e.g. omega = 2 pi / eps for a
--                  model whose paper writes the forcing period eps)
--   helpers        Lua functions of the model attached to it: helpers = { <name> = function(p, ...) },
--                  p the parameter struct: m.<name>(...) calls it (a potential, an energy, a
--                  state from other coordinates)
--   atlas          honoured in the papers' model files lib/models/ only: the problem whose paper atlas
--                  `kapitza atlas` runs (lib/lua/kapitza/atlas/run.lua); elsewhere ignored, with a note
--   description    free text; other unknown top-level keys are left alone, except one or two
--                  letters away from a known key (refused as a misspelling)
--
-- Parts (each optional; its numbers at the top level, its functions under lua / c like accel):
--   flows          a splitting y' = A + B for Strang and SAM's splitting micro-stepper:
--                    lua.flows = { a = fa, b = fb }, c.flows = { a = "fa", b = "fb" }
--                    Lua  fa(p, t, h, y)                        C  int fa(const kz_par *p, double t, double h, double *y)
--                  the flow of A (of B) over h from time t, y in place (h may be negative).
--   constraints    holonomic constraints g(q) = 0 on y = (q, v) (nq form, or an even dim):
--                    constraints = { m = <number of constraints>, mass = <diagonal of M> | minv = <of M^-1>,
--                                    tol = <Newton tolerance on max |g_i|: a number, a parameter
--                                           name or function(p)>, max_iter = <50> }
--                  mass/minv: a number, a parameter name, a list of nq of them, or function(p).
--                  Default tol: 1e-14 times the size of the constraint terms at q0,
--                  max_i sum_j |dg_i/dq_j q_j| (1e-14 without q0). accel is then M^-1 f, the
--                  mass-normalised applied force (SHAKE, RATTLE: independent of v).
--                    lua.constraints = { g = fg, jacobian = fG }   c.constraints = { g = "fg", jacobian = "fG" }
--                    Lua  fg(p, q, g) (m numbers)                C  int fg(const kz_par *p, const double *q, double *g)
--                         fG(p, q, G) (m x nq, row-major)           int fG(const kz_par *p, const double *q, double *G)
--                  Gives m.con (kz_constraints, also m.sys.con) and the invariants constraint_g and
--                  constraint_Gv (max |g_i|, max |(G v)_i|).
--   slow           slow-variable sets for the slow-variable HMM (fast-forced models):
--                    slow = { <set> = { r = <number of slow variables>, frozen = { <state indices, 1-based> } } }
--                    lua.slow = { <set> = { xi = fx, gradient = fgr, dtheta = fdt } }   (c: names)
--                    Lua  fx(p, theta, x, xi) (r numbers)        C  int fx(const kz_par *p, double theta, const double *x, double *xi)
--                         fgr(p, theta, x, G) (r x dim)             int fgr(const kz_par *p, double theta, const double *x, double *G)
--                         fdt(p, theta, x, d) (d xi / d theta)      int fdt(const kz_par *p, double theta, const double *x, double *d)
--                  Gives m.slow[<set>] (kz_slow).
--   vmi            the mechanical split of the variational multirate integrators, state
--                  y = (qs, qf, ps, pf), dim = 2 (ns + nf); no nq/dim and no accel/rhs: the
--                  equations of motion come from the potentials (m.sys = the Hamiltonian equations)
--                  and a parameter 'omega' is a plain number:
--                    vmi = { ns = ..., nf = ..., mass_s = <1>, mass_f = <1> }   (masses as constraints.mass)
--                  ns and nf: numbers, or the name of a parameter holding the size (a chain of
--                  l springs: ns = "l"; one compiled object per size)
--                    lua.vmi = { V = fV, V_gradient = fVg, V_hessian = fVh, W = fW, W_gradient = fWg, W_hessian = fWh }
--                    Lua  fV(p, qs, qf) -> number                C  int fV(const kz_par *p, const double *qs, const double *qf, double *v)
--                         fVg(p, qs, qf, gs, gf)                    int fVg(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
--                         fVh(p, qs, qf, H) ((ns+nf)^2)             int fVh(const kz_par *p, const double *qs, const double *qf, double *H)
--                         fW(p, qf) -> number                       int fW(const kz_par *p, const double *qf, double *w)
--                         fWg(p, qf, g)                             int fWg(const kz_par *p, const double *qf, double *g)
--                         fWh(p, qf, H) (nf^2)                      int fWh(const kz_par *p, const double *qf, double *H)
--                  V required, W optional (0). Gradients and Hessians are written (the library
--                  adds them where kz_vmi_model asks); with vmi.accumulate = true the C ones add
--                  into their arrays themselves, as kz_vmi_model's own functions do (no scratch
--                  copy: faster for a cheap potential; the Lua ones get zeroed arrays either way). Gives m.model (kz_vmi_model), m.ns, m.nf,
--                  m.d: vmi.run(m, scheme, ...) takes the model.
--   invariants     quantities to monitor: lua.invariants = { <name> = fI }, c.invariants = { <name> = "fI" }
--                    Lua  fI(p, y) -> number                     C  int fI(const kz_par *p, const double *y, double *value)
--                  m.invariants(y) -> { <name> = value, ... } (m.invariant_names lists them).
-- Derivatives left out (constraints.jacobian, a slow set's gradient and dtheta, the vmi
-- gradients and Hessians) are formed by central differences (lib/lua/kapitza/usermodel/derivatives.lua: step
-- eps^(1/3) max(1, |x_j|), about 4e-11 relative for a model of order-one scales; 2 n
-- evaluations per Jacobian of n inputs; the same rule generated in C for the C way). Given ones
-- are checked against the differences at the initial state when the spec has one: a
-- disagreement beyond 1e-5 relative (per row, the differences' own error allowed for) is a
-- one-line error naming the part. m.derivatives lists each with how = "given" | "central
-- differences"; modelparts.check(m, y) repeats the check at any state (any model).
-- Which methods a model can use, and why not the others: lib/lua/kapitza/capability.lua.
--
-- Environment: CC (default cc) and KZ_CFLAGS (default -O2) choose the compiler, each split at
-- white space into words (no shell quoting); KZ_CACHE the cache directory (default
-- $XDG_CACHE_HOME/kapitza, ~/.cache/kapitza, the source tree's build/cache,
-- /tmp/kapitza-cache-<uid>: the first that is, or can be made, a directory of this user's that
-- nobody else can write to).
local kz = require "kapitza"
local parts = require "kapitza.usermodel.parts"
local pspec = require "kapitza.usermodel.parts_spec"
local pc = require "kapitza.usermodel.parts_c"
local ffi, C = kz.ffi, kz.C
local cache = require "kapitza.usermodel.cache"
local source = require "kapitza.usermodel.source"
local guard = require "kapitza.usermodel.guard"; local tostring = guard.text -- a user's values worded safely
local UL = require "kapitza.usermodel.callbacks"

local M = {}

--- The folder of the papers' model files and of the preamble lib/models/kz_model.h; mark a spec
-- loaded from a model file, so that its relative c.file is taken from the file's folder
-- (lib/lua/kapitza/usermodel/source.lua).
M.models_dir, M.locate = source.models_dir, source.locate

--- Work done by this process: C sources compiled, cached objects loaded (counters for tests).
M.stats = cache.stats

--- The FNV-1a 64 hash of a string, as 16 hex digits (the cache key).
M.hash = cache.hash

---------------------------------------------------------------------------------------------------
-- The spec
---------------------------------------------------------------------------------------------------

local C_KEYWORDS = {}
for w in ([[auto break case char const continue default do double else enum extern float for goto
  if inline int long register restrict return short signed sizeof static struct switch typedef
  union unsigned void volatile while]]):gmatch("%a+") do C_KEYWORDS[w] = true end

local function bad(spec, msg)
  error(string.format("usermodel '%s': %s", tostring(type(spec) == "table" and spec.name or "?"), msg), 0)
end

local function is_ident(s) return type(s) == "string" and s:match("^[%a_][%w_]*$") and not C_KEYWORDS[s] end

-- Check the spec once; returns the derived layout {dim, nq, vibrated, first, fns = {...}}.
local function layout(spec)
  if type(spec) ~= "table" then error("usermodel: the spec must be a table", 0) end
  if type(spec.name) ~= "string" or not spec.name:match("^[%w_]+$") then
    bad(spec, "name must be letters, digits or '_'")
  end
  local L = { vibrated = false, params = {}, index = {} }
  if spec.nq ~= nil then
    if type(spec.nq) ~= "number" or spec.nq < 1 or spec.nq ~= math.floor(spec.nq) then bad(spec, "nq must be a whole number >= 1") end
    L.nq, L.dim = spec.nq, 2 * spec.nq
  elseif spec.dim ~= nil then
    if type(spec.dim) ~= "number" or spec.dim < 1 or spec.dim ~= math.floor(spec.dim) then bad(spec, "dim must be a whole number >= 1") end
    L.nq, L.dim = 0, spec.dim
  elseif spec.vmi ~= nil then -- the mechanical split sets the size: y = (qs, qf, ps, pf)
    L.nq, L.dim = 0, pspec.vmi_size(spec, bad)
  else
    bad(spec, "give nq (second-order form) or dim (first-order form)")
  end
  if type(spec.params) ~= "table" or #spec.params < 1 then bad(spec, "params must list the parameter names") end
  for i, p in ipairs(spec.params) do
    if not is_ident(p) or p:match("^kz") then bad(spec, string.format("parameter name '%s' is not a usable C identifier", tostring(p))) end
    if L.index[p] then bad(spec, "parameter '" .. p .. "' listed twice") end
    L.params[i], L.index[p] = p, i
  end
  L.derived = {}
  if spec.derived ~= nil then
    if type(spec.derived) ~= "table" then bad(spec, "derived must be a table { <parameter> = function(values) ... }") end
    for k, f in pairs(spec.derived) do
      if not L.index[k] then bad(spec, string.format("derived.%s: not a parameter (list it in params)", tostring(k))) end
      if type(f) ~= "function" then bad(spec, string.format("derived.%s must be a function(values) returning a number", k)) end
      L.derived[#L.derived + 1] = k
    end
    table.sort(L.derived, function(a, b) return L.index[a] < L.index[b] end)
  end
  if spec.helpers ~= nil then
    if type(spec.helpers) ~= "table" then bad(spec, "helpers must be a table { <name> = function(p, ...) ... }") end
    for k, f in pairs(spec.helpers) do
      if not is_ident(k) then bad(spec, string.format("helpers: '%s' is not a usable name", tostring(k))) end
      if type(f) ~= "function" then bad(spec, string.format("helpers.%s must be a function(p, ...)", k)) end
    end
  end
  if spec.vmi ~= nil and (spec.nq ~= nil or spec.dim ~= nil) then
    bad(spec, "a model with a vmi part takes its size from vmi.ns and vmi.nf (drop nq/dim)")
  end
  -- a vmi model's equations of motion come from its potentials: 'omega' is then a plain number
  L.vibrated = L.index.omega ~= nil and spec.vmi == nil
  L.force = spec.vmi == nil and (L.nq > 0 and "accel" or "rhs") or nil
  pspec.declare(spec, L, bad)
  return L
end

-- The functions one way (lua or c) defines; checks their kinds.
local function functions(spec, L, how)
  local t = spec[how]
  if how == "c" and type(t) ~= "table" then bad(spec, "c must be a table { source = [[...]], " .. L.force .. " = 'name', ... }") end
  if how == "lua" and type(t) ~= "table" then bad(spec, "lua must be a table of functions { " .. L.force .. " = function ... }") end
  if not L.force then
    for _, k in ipairs { "accel", "rhs", "averaged", "reconstruct" } do
      if t[k] ~= nil then bad(spec, string.format("%s.%s: a model with a vmi part gets its equations of motion from V and W", how, k)) end
    end
  end
  local other = L.force == "accel" and "rhs" or "accel"
  if L.force and t[other] ~= nil then
    bad(spec, string.format("%s: '%s' belongs to the %s form (this model has %s)", how, other,
                            other == "accel" and "second-order (nq)" or "first-order (dim)", L.nq > 0 and "nq" or "dim"))
  end
  if L.force and t[L.force] == nil then bad(spec, string.format("%s.%s is missing (the model's force)", how, L.force)) end
  if not L.vibrated and t.reconstruct ~= nil then bad(spec, "reconstruct needs a fast-forced model (a parameter 'omega')") end
  if not L.vibrated and t.phase ~= nil then bad(spec, "phase needs a fast-forced model (a parameter 'omega')") end
  local fns = {}
  for _, k in ipairs { L.force or "accel", "reconstruct", "averaged", "phase" } do
    local f = t[k]
    if f ~= nil then
      if how == "lua" and type(f) ~= "function" then bad(spec, "lua." .. k .. " must be a function") end
      if how == "c" and (not is_ident(f) or f:match("^kz")) then bad(spec, "c." .. k .. " must name a C function (not kz...)") end
      fns[k] = f
    end
  end
  for k in pairs(t) do
    if not (fns[k] or (how == "c" and (k == "source" or k == "file")) or pspec.FN_KEYS[k]) then
      bad(spec, string.format("%s.%s: unknown entry", how, tostring(k)))
    end
  end
  if how == "c" and t.file ~= nil then
    if t.source ~= nil then bad(spec, "give c.source or c.file, not both") end
    if type(t.file) ~= "string" or t.file == "" then bad(spec, "c.file must be the path of the C source file") end
  elseif how == "c" and type(t.source) ~= "string" then
    bad(spec, "c.source must be the C source text (or c.file the path of a C file)")
  end
  fns.parts = pspec.functions(spec, L, how, t, bad)
  return fns
end

-- The parameter struct's body, the same in Lua (ffi) and C.
local function struct_body(L)
  local f = {}
  for i, p in ipairs(L.params) do f[i] = "  double " .. p .. ";" end
  return "{\n" .. table.concat(f, "\n") .. "\n}"
end

local ptypes = {} -- struct body -> ctype (anonymous structs: no name to collide)
local function par_type(L)
  local body = struct_body(L)
  ptypes[body] = ptypes[body] or ffi.typeof("struct " .. body)
  return ptypes[body]
end

local function new_par(spec, L, values)
  if type(values) ~= "table" then bad(spec, "the parameter values must be a table") end
  for _, k in ipairs(L.derived) do
    if values[k] ~= nil then bad(spec, string.format("parameter '%s' is derived from the others: give them, not it", k)) end
  end
  if #L.derived > 0 then
    local v = {}
    for k, x in pairs(values) do v[k] = x end
    if L.index.theta0 and v.theta0 == nil then v.theta0 = 0 end
    for _, k in ipairs(L.derived) do
      local ok, x = require("kapitza.usermodel.watch").pcall(string.format("usermodel '%s': derived.%s", spec.name, k), spec.derived[k], v)
      if not ok then bad(spec, string.format("derived.%s raised an error: %s", k, tostring(x))) end
      if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
        bad(spec, string.format("derived parameter '%s' must be a finite number (got %s)", k, tostring(x)))
      end
      v[k] = x
    end
    values = v
  end
  local P = ffi.new(par_type(L))
  for _, p in ipairs(L.params) do
    local v = values[p]
    if v == nil and p == "theta0" then v = 0 end
    if type(v) ~= "number" or v ~= v or v == math.huge or v == -math.huge then
      bad(spec, string.format("parameter '%s' must be a finite number (got %s)", p, tostring(v)))
    end
    P[p] = v
  end
  for k in pairs(values) do
    if not L.index[k] then bad(spec, string.format("unknown parameter '%s' (the model has %s)", tostring(k), table.concat(L.params, ", "))) end
  end
  return P, values
end

---------------------------------------------------------------------------------------------------
-- (b) C source: generated translation unit, cache, compiler
---------------------------------------------------------------------------------------------------

local W = require "kapitza.usermodel.wrappers"
local kz_status_enum, wrappers = W.status_enum, W.scalar

-- A spec whose vmi sizes name parameters, with the sizes at these values (a copy; else spec).
local function sized(spec, values)
  local v = type(spec) == "table" and spec.vmi
  if type(v) ~= "table" or (type(v.ns) ~= "string" and type(v.nf) ~= "string") then return spec end
  local vals = pspec.values(spec, values)
  local out, vmi = {}, {}
  for k, x in pairs(spec) do out[k] = x end
  for k, x in pairs(v) do vmi[k] = x end
  for _, k in ipairs { "ns", "nf" } do
    if type(v[k]) == "string" then
      local n = type(vals) == "table" and vals[v[k]]
      if type(n) ~= "number" or n < 0 or n ~= math.floor(n) or n >= 2 ^ 20 then
        bad(spec, string.format("vmi.%s = '%s': the parameter must be a whole number >= 0 (got %s)", k, v[k], tostring(n)))
      end
      vmi[k] = n
    end
  end
  out.vmi = vmi
  return out
end

--- The translation unit compiled for a spec: generated preamble, the user's source, wrappers.
function M.translation_unit(spec)
  local L = layout(spec)
  local fns = functions(spec, L, "c")
  local src, srcname = source.text(spec, bad)
  -- the part functions are called through their guards' shims (lib/lua/kapitza/usermodel/guard.lua)
  local guarded, guard_tu, parts = guard.wrap(spec.name, L, fns, function(gparts)
    local g = {}
    for k, v in pairs(fns) do g[k] = v end
    g.parts = gparts
    return wrappers(L, g)
  end)
  return table.concat({
    string.format("/* Generated by kapitza %s (lib/lua/kapitza/usermodel.lua) for the model '%s'. The cache key is a\n" ..
                  " * hash of this text and the compiler command: do not edit. */", kz.version, spec.name),
    "#include <math.h>", "#include <stddef.h>", "",
    "/* vector variants in glibc's libmvec: the ensemble wrappers' member loops call them */",
    "#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)",
    "__attribute__((simd(\"notinbranch\"))) double sin(double);",
    "__attribute__((simd(\"notinbranch\"))) double cos(double);",
    "__attribute__((simd(\"notinbranch\"))) double exp(double);",
    "#endif", "",
    "/* from kapitza.h */", kz_status_enum(), "",
    "/* the model's parameters */", "typedef struct kz_par " .. struct_body(L) .. " kz_par;", "",
    '#line 1 "kz_model.h"', source.preamble(),
    string.format('#line 1 "%s"', (srcname:gsub("[%c\\\"]", "_"))), src, "", guarded, "" }, "\n"), L, fns, guard_tu, parts
end

--- The cache directories, in order of preference (lib/lua/kapitza/usermodel/cache.lua).
M.cache_dirs = cache.dirs

--- Compile (or find in the cache) the C source of spec; returns the library namespace, the path
-- of the shared object, whether this call compiled it, and the guarded parts. Errors are
-- one-line messages.
function M.compile(spec)
  local tu, _, _, guard_tu, parts = M.translation_unit(spec)
  local ok, ns, path, compiled = pcall(cache.build, spec.name, { { ext = ".c", text = tu }, { ext = ".guard.c", text = guard_tu } })
  if not ok then bad(spec, ns) end
  guard.install(ns, path, spec.name, parts)
  return ns, path, compiled, parts
end

-- The exported wrappers' prototypes (the same names in every compiled model: each is looked up
-- in its own library's namespace).
pcall(ffi.cdef, [[
int kzu_vib_accel(void *par, double theta, const double *q, double *a);
int kzu_vib_rhs(void *par, double theta, const double *y, double *f);
int kzu_sys_accel(void *par, double t, const double *q, double *a);
int kzu_sys_rhs(void *par, double t, const double *y, double *f);
int kzu_reconstruct(void *par, double theta, const double *Y, double *y);
int kzu_avg_accel(void *par, double t, const double *q, double *a);
int kzu_avg_rhs(void *par, double t, const double *y, double *f);
int kzu_ens_accel(void *par, long long m0, int M, double t, const double *q, double *a);
int kzu_ens_rhs(void *par, long long m0, int M, double t, const double *y, double *f);
int kzu_ens_phase_accel(void *par, long long m0, int M, double theta, const double *q, double *a);
int kzu_ens_phase_rhs(void *par, long long m0, int M, double theta, const double *y, double *f);
int kzu_ens_reconstruct(void *par, long long m0, int M, double theta, const double *Y, double *y);
int kzu_ens_width(void);
]])

---------------------------------------------------------------------------------------------------
-- The model
---------------------------------------------------------------------------------------------------

--- The model of `spec` with parameter values `values` (a table by name; theta0 defaults to 0),
-- its functions taken from spec.c (how = "c", the default when spec.c is given) or spec.lua
-- (how = "lua"). Returns the shape of lib/lua/kapitza/models.lua: { name, dim, nq, par, sys, vib (fast-forced
-- models), avg (when `averaged` is given), how, averaged_force(Q) (nq = 1: a number) }, which
-- keeps everything C points to alive. Errors are one-line messages naming the model.
-- o.probe = false skips the trial calls in a child process (lib/lua/kapitza/usermodel/guard.lua; the guards in the
-- process stay): lib/lua/kapitza/models.lua's models, whose C is tested by make check, built by the dozen.
function M.model(spec, values, how, o)
  spec = sized(spec, values)
  local L = layout(spec)
  how = how or (spec.c ~= nil and "c" or "lua")
  if how ~= "c" and how ~= "lua" then bad(spec, "how must be 'c' or 'lua' (got " .. tostring(how) .. ")") end
  local fns = functions(spec, L, how)
  values = pspec.values(spec, values)
  local P
  P, values = new_par(spec, L, values)
  if how == "lua" then fns = guard.lua_fns(spec.name, L, fns) end
  local m = { name = spec.name, dim = L.dim, nq = L.nq, par = P, how = how, spec = spec, values = values }
  local f = {} -- the C function pointers
  local lib, entry
  if how == "c" then
    local ns, path, _, parts = M.compile(spec)
    if not (o and o.probe == false) then
      local okp, perr = pcall(guard.probe, spec.name, ns, parts, P, L)
      if not okp then error(perr, 0) end -- the message names the model
    end
    m.lib, m.lib_path, lib = ns, path, ns
    if L.force then f.sys = ns["kzu_sys_" .. L.force] end
    if L.vibrated then f.vib = ns["kzu_vib_" .. L.force] end
    if fns.reconstruct then f.reconstruct = ns.kzu_reconstruct end
    if fns.averaged then f.avg = ns["kzu_avg_" .. L.force] end
  else
    local cb = UL.make_callbacks()
    local e = { name = spec.name, fns = fns, vibrated = L.vibrated, omega = L.vibrated and P.omega or nil,
                theta0 = L.index.theta0 and P.theta0 or 0 }
    UL.register(P, e)
    entry = e
    if L.force then f.sys = cb["sys_" .. L.force] end
    if L.vibrated then f.vib = cb["vib_" .. L.force] end
    f.reconstruct = fns.reconstruct and cb.reconstruct or nil
    f.avg = fns.averaged and cb["avg_" .. L.force] or nil
  end
  local function system(fn)
    local s = ffi.new("kz_sys")
    s.dim, s.nq, s.par = L.dim, L.nq, P
    if L.nq > 0 then s.accel = fn else s.rhs = fn end
    return s
  end
  if f.sys then m.sys = system(f.sys) end
  if f.avg then m.avg = system(f.avg) end
  if L.vibrated then
    local v = ffi.new("kz_vib")
    v.dim, v.nq, v.omega, v.theta0 = L.dim, L.nq, P.omega, L.index.theta0 and P.theta0 or 0
    v.even_in_theta = spec.even_in_theta and 1 or 0
    if L.nq > 0 then v.accel = f.vib else v.rhs = f.vib end
    if f.reconstruct then v.reconstruct = f.reconstruct end
    v.par = P
    m.vib = v
    m.omega, m.period = P.omega, 2 * math.pi / P.omega
  end
  if m.avg then
    local n = L.nq > 0 and L.nq or L.dim
    local out, r = kz.vec(L.dim), kz.report()
    --- The averaged force (second-order form) or field at Q: a number when there is one
    -- component, else a Lua array.
    function m.averaged_force(Q)
      local y = kz.vec(L.dim)
      if type(Q) == "number" then y[0] = Q else for i = 1, n do y[i - 1] = Q[i] end end
      kz.call("kz_sys_eval", m.avg, 0, y, out, r)
      local off = L.nq > 0 and L.nq or 0
      if n == 1 then return out[off] end
      local t = {}
      for i = 1, n do t[i] = out[off + i - 1] end
      return t
    end
  end
  parts.attach(m, spec, L, how, fns.parts, bad, lib, entry, M)
  for name, f in pairs(spec.helpers or {}) do
    if m[name] ~= nil then bad(spec, string.format("helpers.%s: the model already has a field '%s'", name, name)) end
    m[name] = function(...) return f(P, ...) end
  end
  return m
end

--- The file's data at these values without building the model (the points of a sweep, which
-- one ensemble call runs): { values (with the derived parameters), y0, T, period, omega } as
-- M.model would give them (m.values, m.y0, m.T, m.period, m.omega), the same checks.
function M.data(spec, values)
  spec = sized(spec, values)
  local L = layout(spec)
  local P, v = new_par(spec, L, pspec.values(spec, values))
  local d = { values = v, y0 = pspec.initial_state(spec, L, bad, P) }
  if L.vibrated then d.omega, d.period = P.omega, 2 * math.pi / P.omega end
  if spec.T ~= nil then d.T = pspec.resolve(spec, bad, spec.T, P, "T", nil, true) end
  if spec.period ~= nil then d.period = pspec.resolve(spec, bad, spec.period, P, "period", nil, true) end
  return d
end

--- For an ensemble of the C model of spec (lib/lua/kapitza/ensemble.lua's ens.user): the compiled library
-- (its kzu_ens_* wrappers), the layout { dim, nq, params, vibrated, force, ... } and a function
-- par(values) -> the checked parameter struct of one member (defaults, theta0 = 0, derived
-- parameters computed). Refuses a model without C source or with a vmi part.
function M.ensemble(spec, values)
  spec = sized(spec, values)
  local L = layout(spec)
  if type(spec.c) ~= "table" then
    bad(spec, "Lua-function models run member by member: use a loop of kz.run (or give the model's C source)")
  end
  if not L.force then bad(spec, "an ensemble needs accel or rhs (a vmi model has neither)") end
  local fns = functions(spec, L, "c")
  local ns = M.compile(spec)
  local function par(v) return (new_par(spec, L, pspec.values(spec, v))) end
  return ns, L, fns, par
end

-- (a) Lua functions: lib/lua/kapitza/usermodel/callbacks.lua's callbacks; the model behind a parameter struct
-- (the dispatch of lib/lua/kapitza/usermodel/parts.lua's callbacks) and the number still alive (for tests).
M.lua_entry, M.live_models = UL.lua_entry, UL.live_models

return M
