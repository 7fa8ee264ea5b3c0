-- modelparts.lua -- the optional parts of a user's model (lib/lua/usermodel.lua documents the spec):
-- a splitting (flows), holonomic constraints, slow-variable sets, the mechanical split of the
-- variational multirate integrators (vmi), invariants, plus default parameter values, the
-- initial state, the end time and the period. For each part: the spec's declaration checked,
-- the functions of each way (Lua functions through FFI callbacks, C source through wrappers
-- generated into the model's translation unit), the structs of lib/include/kapitza.h the methods take
-- (kz_sys.flow_a/b, kz_constraints, kz_slow, kz_vmi_model) built into the model, derivatives the
-- spec leaves out formed by central differences (lib/lua/derivatives.lua; the same rule in C), and
-- the derivatives it gives checked against them.
local kz = require "kapitza"
local Dv = require "derivatives"
local guard = require "userguard"
local ffi, C = kz.ffi, kz.C

local P = {}

---------------------------------------------------------------------------------------------------
-- Declarations
---------------------------------------------------------------------------------------------------

-- The spec's top-level keys; a key one or two edits away from one of them is refused as a
-- misspelling, other keys are left to the user.
local KNOWN = { "name", "nq", "dim", "params", "even_in_theta", "lua", "c", "values", "q0", "v0", "p0", "y0", "T",
                "period", "constraints", "slow", "vmi", "description", "derived", "helpers" }
local known = {}
for _, k in ipairs(KNOWN) do known[k] = true end

--- Edit distance of two short strings (Levenshtein), for "did you mean".
function P.distance(a, b)
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local cost = a:byte(i) == b:byte(j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

--- The entry of `list` closest to `word` within two edits (and shorter than the word), or nil.
function P.nearest(word, list)
  local best, bd
  for _, k in ipairs(list) do
    local d = P.distance(word, k)
    if d <= 2 and d < #k and (not bd or d < bd) then best, bd = k, d end
  end
  return best
end

local C_KEYWORDS = {}
for w in ([[auto break case char const continue default do double else enum extern float for goto
  if inline int long register restrict return short signed sizeof static struct switch typedef
  union unsigned void volatile while]]):gmatch("%a+") do C_KEYWORDS[w] = true end
local function is_ident(s) return type(s) == "string" and s:match("^[%a_][%w_]*$") and not C_KEYWORDS[s] and not s:match("^kz") end

local function whole(x, lo) return type(x) == "number" and x == math.floor(x) and x >= lo and x < 2 ^ 31 end

-- A value the spec may give as a number, a parameter name, a list of them (n entries) or a
-- function(p) returning one of those: checked for its shape here, resolved in P.resolve.
local function check_value(spec, L, bad, v, what, n, allow_list)
  local tv = type(v)
  if tv == "number" or tv == "function" then return end
  if tv == "string" then
    if not L.index[v] then bad(spec, string.format("%s: '%s' is not a parameter (the model has %s)", what, v, table.concat(L.params, ", "))) end
    return
  end
  if tv == "table" and allow_list then
    if #v ~= n then bad(spec, string.format("%s must list %d entries (got %d)", what, n, #v)) end
    for i = 1, n do check_value(spec, L, bad, v[i], string.format("%s[%d]", what, i), 1, false) end
    return
  end
  bad(spec, string.format("%s must be %s (got %s)", what, allow_list and ("a number, a parameter name, a list of " .. n ..
      " of them or a function(p)") or "a number, a parameter name or a function(p)", tv))
end

--- The size of a model with a vmi part and no nq/dim: 2 (ns + nf).
function P.vmi_size(spec, bad)
  local v = spec.vmi
  if type(v) ~= "table" then bad(spec, "vmi must be a table { ns = ..., nf = ..., mass_s = ..., mass_f = ... }") end
  if not whole(v.ns, 0) then bad(spec, "vmi.ns (slow positions) must be a whole number >= 0") end
  if not whole(v.nf, 0) then bad(spec, "vmi.nf (fast positions) must be a whole number >= 0") end
  if v.ns + v.nf < 1 then bad(spec, "vmi: ns + nf must be at least 1") end
  return 2 * (v.ns + v.nf)
end

--- Check the spec's parts and data (not their functions) once; fills L.parts.
function P.declare(spec, L, bad)
  for k in pairs(spec) do
    if type(k) == "string" and not known[k] then
      local near = P.nearest(k, KNOWN)
      if near then bad(spec, string.format("unknown entry '%s' (did you mean '%s'?)", k, near)) end
    end
  end
  local parts = {}
  L.parts = parts
  local function keys_of(t, allowed, what)
    for k in pairs(t) do
      if not allowed[k] then
        local list = {}
        for a in pairs(allowed) do list[#list + 1] = a end
        table.sort(list)
        bad(spec, string.format("%s.%s: unknown entry (one of %s)", what, tostring(k), table.concat(list, ", ")))
      end
    end
  end
  if spec.vmi ~= nil then
    P.vmi_size(spec, bad)
    local v = spec.vmi
    keys_of(v, { ns = true, nf = true, mass_s = true, mass_f = true, accumulate = true }, "vmi")
    if v.accumulate ~= nil and type(v.accumulate) ~= "boolean" then bad(spec, "vmi.accumulate must be true or false") end
    if v.mass_s ~= nil then check_value(spec, L, bad, v.mass_s, "vmi.mass_s", v.ns, true) end
    if v.mass_f ~= nil then check_value(spec, L, bad, v.mass_f, "vmi.mass_f", v.nf, true) end
    parts.vmi = { ns = v.ns, nf = v.nf, accumulate = v.accumulate == true }
  end
  if spec.constraints ~= nil then
    local c = spec.constraints
    if type(c) ~= "table" then bad(spec, "constraints must be a table { m = ..., mass = ... }") end
    keys_of(c, { m = true, mass = true, minv = true, tol = true, max_iter = true }, "constraints")
    if L.dim % 2 ~= 0 then bad(spec, "constraints need a mechanical state y = (q, v) (nq, or an even dim)") end
    local nq = L.dim / 2
    if not whole(c.m, 1) or c.m > nq then bad(spec, string.format("constraints.m (the number of constraints) must be a whole number in 1..%d", nq)) end
    if (c.mass == nil) == (c.minv == nil) then bad(spec, "constraints: give the diagonal mass matrix as mass = ... or its inverse as minv = ... (one of them)") end
    check_value(spec, L, bad, c.mass or c.minv, c.mass and "constraints.mass" or "constraints.minv", nq, true)
    if c.tol ~= nil then
      if type(c.tol) == "number" and not (c.tol > 0 and c.tol < math.huge) then bad(spec, "constraints.tol must be a number > 0") end
      check_value(spec, L, bad, c.tol, "constraints.tol", 1, false)
    end
    if c.max_iter ~= nil and not whole(c.max_iter, 1) then bad(spec, "constraints.max_iter must be a whole number >= 1") end
    parts.constraints = { m = c.m, nq = nq }
  end
  if spec.slow ~= nil then
    if type(spec.slow) ~= "table" or next(spec.slow) == nil then bad(spec, "slow must be a table of sets { <name> = { r = ... }, ... }") end
    if not L.vibrated then bad(spec, "slow variables need a fast-forced model (a parameter 'omega'): the slow-variable HMM averages over the fast phase") end
    local sets = { names = {} }
    for name, s in pairs(spec.slow) do
      if not is_ident(name) then bad(spec, string.format("slow set name '%s' must be a C identifier", tostring(name))) end
      if type(s) ~= "table" then bad(spec, "slow." .. name .. " must be a table { r = ..., frozen = ... }") end
      keys_of(s, { r = true, frozen = true }, "slow." .. name)
      if not whole(s.r, 1) or s.r > L.dim then bad(spec, string.format("slow.%s.r (the number of slow variables) must be a whole number in 1..%d", name, L.dim)) end
      if s.frozen ~= nil then
        if type(s.frozen) ~= "table" then bad(spec, "slow." .. name .. ".frozen must list state indices (1-based)") end
        for _, i in ipairs(s.frozen) do
          if not whole(i, 1) or i > L.dim then bad(spec, string.format("slow.%s.frozen: %s is not a state index in 1..%d", name, tostring(i), L.dim)) end
        end
      end
      sets[name] = { r = s.r, frozen = s.frozen }
      sets.names[#sets.names + 1] = name
    end
    table.sort(sets.names)
    parts.slow = sets
  end
  -- data: values, initial state, end time, period
  if spec.values ~= nil then
    if type(spec.values) ~= "table" then bad(spec, "values must be a table of default parameter values") end
    for k, v in pairs(spec.values) do
      if not L.index[k] then bad(spec, string.format("values.%s: not a parameter (the model has %s)", tostring(k), table.concat(L.params, ", "))) end
      if type(v) ~= "number" then bad(spec, string.format("values.%s must be a number", k)) end
    end
  end
  local nq, n = L.nq, L.dim
  if parts.vmi then nq = parts.vmi.ns + parts.vmi.nf end
  local function state(key, len)
    local v = spec[key]
    if v == nil or type(v) == "function" then return end
    if type(v) ~= "table" or #v ~= len then bad(spec, string.format("%s must list %d numbers (or be a function(p))", key, len)) end
    for i = 1, len do
      if type(v[i]) ~= "number" then bad(spec, string.format("%s[%d] must be a number", key, i)) end
    end
  end
  if spec.y0 ~= nil then
    if spec.q0 ~= nil or spec.v0 ~= nil or spec.p0 ~= nil then bad(spec, "give the initial state as y0 or as q0 with v0 (p0), not both") end
    state("y0", n)
  else
    if nq == 0 and (spec.q0 ~= nil or spec.v0 ~= nil) then bad(spec, "a first-order model (dim) takes its initial state as y0") end
    if spec.p0 ~= nil and not parts.vmi then bad(spec, "p0 (initial momenta) belongs to a model with a vmi part; give v0") end
    if spec.v0 ~= nil and parts.vmi then bad(spec, "a vmi model's state holds momenta: give p0, not v0") end
    if (spec.v0 ~= nil or spec.p0 ~= nil) and spec.q0 == nil then bad(spec, "v0 (p0) needs q0") end
    state("q0", nq)
    state(parts.vmi and "p0" or "v0", nq)
  end
  if spec.T ~= nil and type(spec.T) ~= "function" and not (type(spec.T) == "number" and spec.T > 0 and spec.T < math.huge) then
    bad(spec, "T (the default end time) must be a number > 0 or a function(p)")
  end
  if spec.period ~= nil then
    if L.vibrated then bad(spec, "period: a fast-forced model's period is 2 pi / omega (drop period)") end
    check_value(spec, L, bad, spec.period, "period", 1, false)
  end
end

---------------------------------------------------------------------------------------------------
-- The functions of one way (lua or c)
---------------------------------------------------------------------------------------------------

P.FN_KEYS = { flows = true, constraints = true, slow = true, vmi = true, invariants = true }

local ROLES = {
  flows = { req = { "a", "b" }, opt = {} },
  constraints = { req = { "g" }, opt = { "jacobian" } },
  vmi = { req = { "V" }, opt = { "V_gradient", "V_hessian", "W", "W_gradient", "W_hessian" } },
  slow = { req = { "xi" }, opt = { "gradient", "dtheta" } },
}

--- The part functions of spec[how] (t): { flows = {a, b}, constraints = {g, jacobian},
-- slow = { <set> = {xi, gradient, dtheta} }, vmi = {V, ...}, invariants = { <name> = f } }
-- (Lua functions or C function names). Errors are one-line messages naming the entry.
function P.functions(spec, L, how, t, bad)
  local fp = {}
  local function fn(v, path)
    if how == "lua" and type(v) ~= "function" then bad(spec, path .. " must be a function") end
    if how == "c" and not is_ident(v) then bad(spec, path .. " must name a C function (not kz...)") end
  end
  local function roles(x, role, path)
    if type(x) ~= "table" then bad(spec, path .. " must be a table") end
    local out, ok = {}, {}
    for _, k in ipairs(role.req) do
      if x[k] == nil then bad(spec, string.format("%s.%s is missing", path, k)) end
      ok[k] = true
    end
    for _, k in ipairs(role.opt) do ok[k] = true end
    for k, v in pairs(x) do
      if not ok[k] then
        local all = {}
        for _, r in ipairs(role.req) do all[#all + 1] = r end
        for _, r in ipairs(role.opt) do all[#all + 1] = r end
        bad(spec, string.format("%s.%s: unknown entry (one of %s)", path, tostring(k), table.concat(all, ", ")))
      end
      fn(v, path .. "." .. k)
      out[k] = v
    end
    return out
  end
  local parts = L.parts
  if t.flows ~= nil then fp.flows = roles(t.flows, ROLES.flows, how .. ".flows") end
  for _, key in ipairs { "constraints", "vmi" } do
    if t[key] ~= nil then
      if not parts[key] then
        bad(spec, string.format("%s.%s: the spec declares no %s (%s)", how, key, key,
                                key == "vmi" and "vmi = { ns = ..., nf = ... }" or "constraints = { m = ..., mass = ... }"))
      end
      fp[key] = roles(t[key], ROLES[key], how .. "." .. key)
    elseif parts[key] then
      bad(spec, string.format("%s.%s is missing (the spec declares %s)", how, key, key))
    end
  end
  if t.slow ~= nil or parts.slow then
    if t.slow == nil then bad(spec, string.format("%s.slow is missing (the spec declares slow sets)", how)) end
    if not parts.slow then bad(spec, how .. ".slow: the spec declares no slow sets (slow = { <name> = { r = ... } })") end
    if type(t.slow) ~= "table" then bad(spec, how .. ".slow must be a table of sets") end
    fp.slow = {}
    for name in pairs(t.slow) do
      if not parts.slow[name] or name == "names" then bad(spec, string.format("%s.slow.%s: the spec declares no slow set '%s'", how, tostring(name), tostring(name))) end
    end
    for _, name in ipairs(parts.slow.names) do
      if t.slow[name] == nil then bad(spec, string.format("%s.slow.%s is missing (the spec declares the set)", how, name)) end
      fp.slow[name] = roles(t.slow[name], ROLES.slow, how .. ".slow." .. name)
    end
  end
  if t.invariants ~= nil then
    if type(t.invariants) ~= "table" then bad(spec, how .. ".invariants must be a table { <name> = ... }") end
    fp.invariants, fp.invariant_names = {}, {}
    for name, f in pairs(t.invariants) do
      if not is_ident(name) then bad(spec, string.format("invariant name '%s' must be a C identifier", tostring(name))) end
      fn(f, how .. ".invariants." .. name)
      fp.invariants[name] = f
      fp.invariant_names[#fp.invariant_names + 1] = name
    end
    table.sort(fp.invariant_names)
  end
  return fp
end

---------------------------------------------------------------------------------------------------
-- The C wrappers (generated into the translation unit after the user's source)
---------------------------------------------------------------------------------------------------

-- Central differences in C, the rule of lib/lua/derivatives.lua.
local FD_C = [[
#include <stdlib.h>
/* central differences (lib/lua/derivatives.lua): J (m x n, row-major) of f at x, steps
 * eps^(1/3) max(1, |x_j|); xw (n), fp and fm (m) are scratch */
typedef int (*kzu_vec_fn)(const void *kzu_ctx, const double *kzu_x, double *kzu_out);
static int kzu_fd(kzu_vec_fn kzu_f, const void *kzu_ctx, int kzu_n, int kzu_m, const double *kzu_x,
                  double *kzu_J, double *kzu_xw, double *kzu_fp, double *kzu_fm)
{
  int kzu_i, kzu_j, kzu_st = KZ_OK;
  for (kzu_j = 0; kzu_j < kzu_n; kzu_j++) kzu_xw[kzu_j] = kzu_x[kzu_j];
  for (kzu_j = 0; kzu_j < kzu_n; kzu_j++) {
    const double kzu_a = fabs(kzu_x[kzu_j]);
    const double kzu_h = 6.0554544523933395e-06 * (kzu_a > 1.0 ? kzu_a : 1.0);
    const double kzu_xp = kzu_x[kzu_j] + kzu_h, kzu_xm = kzu_x[kzu_j] - kzu_h;
    kzu_xw[kzu_j] = kzu_xp;
    kzu_st = kzu_f(kzu_ctx, kzu_xw, kzu_fp);
    if (kzu_st == KZ_OK) {
      kzu_xw[kzu_j] = kzu_xm;
      kzu_st = kzu_f(kzu_ctx, kzu_xw, kzu_fm);
    }
    kzu_xw[kzu_j] = kzu_x[kzu_j];
    if (kzu_st != KZ_OK) return kzu_st;
    for (kzu_i = 0; kzu_i < kzu_m; kzu_i++)
      kzu_J[(size_t)kzu_i * (size_t)kzu_n + (size_t)kzu_j] = (kzu_fp[kzu_i] - kzu_fm[kzu_i]) / (kzu_xp - kzu_xm);
  }
  return KZ_OK;
}
]]

-- Fill a template: $NAME (capitals and digits) from t (numbers or strings).
local function fill(tpl, t)
  return (tpl:gsub("%$(%u[%u%d]*)", function(k)
    local v = t[k]
    if v == nil then error("modelparts: template key " .. k .. " missing", 2) end
    return tostring(v)
  end))
end

-- (the iterations the flow counts with kz_iteration() are added to the report's newton_iters,
-- and a refusal's cause named with kz_refuse() goes to its param, fail_step (-1) and fail_time:
-- kz_report's fields at their offsets, as kz_internal.h's kz_fail writes them)
local FLOW_C = [[
int kzu_flow_$AB(void *kzu_par, double kzu_t, double kzu_h, double *kzu_y, void *kzu_r)
{
  kzu_iterations = 0;
  kzu_refused = 0;
  const int kzu_st = $F((const kz_par *)kzu_par, kzu_t, kzu_h, kzu_y);
  if (kzu_r) {
    char *kzu_rp = (char *)kzu_r;
    if (kzu_iterations) *(long long *)(kzu_rp + $NEWTON) += kzu_iterations;
    if (kzu_st != KZ_OK && kzu_refused) {
      *(const char **)(kzu_rp + $PARAM) = kzu_refused;
      *(long long *)(kzu_rp + $STEP) = -1;
      *(double *)(kzu_rp + $TIME) = kzu_t;
    }
  }
  return kzu_st;
}
]]

local CON_C = [[
static int kzu_con_values(const void *kzu_ctx, const double *kzu_x, double *kzu_out)
{
  return $G((const kz_par *)kzu_ctx, kzu_x, kzu_out);
}
int kzu_con(void *kzu_par, const double *kzu_q, double *kzu_g, double *kzu_G)
{
  const kz_par *kzu_p = (const kz_par *)kzu_par;
  if (kzu_g) {
    const int kzu_st = $G(kzu_p, kzu_q, kzu_g);
    if (kzu_st != KZ_OK) return kzu_st;
  }
  if (kzu_G) {
$JAC
  }
  return KZ_OK;
}
]]
local CON_JAC_GIVEN = "    return $J(kzu_p, kzu_q, kzu_G);"
local CON_JAC_FD = [[
    double kzu_xw[$NQ], kzu_fp[$M], kzu_fm[$M];
    return kzu_fd(kzu_con_values, kzu_p, $NQ, $M, kzu_q, kzu_G, kzu_xw, kzu_fp, kzu_fm);]]

local SLOW_C = [[
struct kzu_slow_$S_at { const kz_par *p; double theta; const double *x; };
static int kzu_slow_$S_of_x(const void *kzu_c, const double *kzu_x, double *kzu_out)
{
  const struct kzu_slow_$S_at *kzu_a = (const struct kzu_slow_$S_at *)kzu_c;
  return $XI(kzu_a->p, kzu_a->theta, kzu_x, kzu_out);
}
static int kzu_slow_$S_of_theta(const void *kzu_c, const double *kzu_th, double *kzu_out)
{
  const struct kzu_slow_$S_at *kzu_a = (const struct kzu_slow_$S_at *)kzu_c;
  return $XI(kzu_a->p, kzu_th[0], kzu_a->x, kzu_out);
}
int kzu_slow_$S(void *kzu_par, double kzu_theta, const double *kzu_x, double *kzu_xi, double *kzu_grad,
            double *kzu_xit)
{
  const struct kzu_slow_$S_at kzu_a = { (const kz_par *)kzu_par, kzu_theta, kzu_x };
  int kzu_st = KZ_OK;
  (void)kzu_a;
  if (kzu_xi) kzu_st = $XI(kzu_a.p, kzu_theta, kzu_x, kzu_xi);
  if (kzu_st == KZ_OK && kzu_grad) {
$GRAD
  }
  if (kzu_st == KZ_OK && kzu_xit) {
$DT
  }
  return kzu_st;
}
]]
local SLOW_GRAD_GIVEN = "    kzu_st = $GR(kzu_a.p, kzu_theta, kzu_x, kzu_grad);"
local SLOW_GRAD_FD = [[
    double kzu_xw[$D], kzu_fp[$R], kzu_fm[$R];
    kzu_st = kzu_fd(kzu_slow_$S_of_x, &kzu_a, $D, $R, kzu_x, kzu_grad, kzu_xw, kzu_fp, kzu_fm);]]
local SLOW_DT_GIVEN = "    kzu_st = $DTF(kzu_a.p, kzu_theta, kzu_x, kzu_xit);"
local SLOW_DT_FD = [[
    double kzu_tw[1], kzu_fp[$R], kzu_fm[$R];
    kzu_st = kzu_fd(kzu_slow_$S_of_theta, &kzu_a, 1, $R, &kzu_theta, kzu_xit, kzu_tw, kzu_fp, kzu_fm);]]

-- A potential of the stacked positions x (n = $N numbers; V: x = (qs, qf), $ARGS the user's
-- argument list at x), its gradient and Hessian, and the kz_vmi function adding them.
local POT_C = [[
static int kzu_$P_value(const void *kzu_c, const double *kzu_x, double *kzu_v)
{
  return $F((const kz_par *)kzu_c, $ARGSX, kzu_v);
}
static int kzu_$P_gradient(const void *kzu_c, const double *kzu_x, double *kzu_g)
{
$GRAD
}
int kzu_vmi_$P($SIG)
{
  const kz_par *kzu_p = (const kz_par *)kzu_par;
  int kzu_i, kzu_j, kzu_st;
$PACK
  if (kzu_v) {
    kzu_st = $F(kzu_p, $ARGSIN, kzu_v);
    if (kzu_st != KZ_OK) return kzu_st;
  }
$GBLOCK
  if (kzu_hess) {
$HBLOCK
  }
  (void)kzu_i, (void)kzu_j;
  return KZ_OK;
}
]]
-- the gradient and Hessian of a potential written by the user's functions into scratch, added
local GBLOCK_WRITE = [[
  if ($WANTG) {
    double kzu_g[$N1];
    kzu_st = $GCALL;
    if (kzu_st != KZ_OK) return kzu_st;
$ADDG
  }]]
local HBLOCK_WRITE = [[
$HBUF
$HESS
    if (kzu_st == KZ_OK)
      for (kzu_i = 0; kzu_i < $N; kzu_i++)
        for (kzu_j = 0; kzu_j < $N; kzu_j++)
          kzu_hess[kzu_i * $N + kzu_j] += $HIJ;
$HFREE
    return kzu_st;]]
-- vmi.accumulate: the user's given functions add into the method's arrays themselves
local GBLOCK_ACC_V = [[
  if (kzu_gs && kzu_gf) {
    kzu_st = $G(kzu_p, kzu_qs, kzu_qf, kzu_gs, kzu_gf);
    if (kzu_st != KZ_OK) return kzu_st;
  } else if (kzu_gs || kzu_gf) {
    double kzu_g[$N1];
    for (kzu_i = 0; kzu_i < $N1; kzu_i++) kzu_g[kzu_i] = 0;
    kzu_st = $G(kzu_p, kzu_qs, kzu_qf, kzu_g, kzu_g + $NS);
    if (kzu_st != KZ_OK) return kzu_st;
$ADDG
  }]]
local GBLOCK_ACC_W = [[
  if (kzu_gf) {
    kzu_st = $G(kzu_p, kzu_qf, kzu_gf);
    if (kzu_st != KZ_OK) return kzu_st;
  }]]
-- the Hessian's scratch: on the stack up to 4096 entries, else from the heap
local HBUF_STACK, HBUF_HEAP = "    double kzu_H[$NN];", [[
    double *kzu_H = (double *)malloc(sizeof(double) * (size_t)$N * (size_t)$N);
    if (!kzu_H) return KZ_ENOMEM;]]
local POT_GRAD_FD = [[
  double kzu_xw[$N1], kzu_fp[1], kzu_fm[1];
  return kzu_fd(kzu_$P_value, kzu_c, $N, 1, kzu_x, kzu_g, kzu_xw, kzu_fp, kzu_fm);]]
local POT_HESS_FD = [[
    {
      double kzu_xw[$N1], kzu_fp[$N1], kzu_fm[$N1];
      kzu_st = kzu_fd(kzu_$P_gradient, kzu_p, $N, $N, kzu_x, kzu_H, kzu_xw, kzu_fp, kzu_fm);
    }]]

local INV_C = [[
int kzu_inv_$I(void *kzu_par, const double *kzu_y, double *kzu_v)
{
  return $F((const kz_par *)kzu_par, kzu_y, kzu_v);
}
]]

--- The C text of the part wrappers for the functions fp of spec.c ("" when there are none).
function P.c_source(L, fp)
  local out = {}
  local function add(s) out[#out + 1] = s end
  local parts = L.parts
  if fp.flows or fp.constraints or fp.slow or fp.vmi or fp.invariants then add(FD_C) end
  if fp.flows then
    local off = { NEWTON = ffi.offsetof("kz_report", "newton_iters"), PARAM = ffi.offsetof("kz_report", "param"),
                  STEP = ffi.offsetof("kz_report", "fail_step"), TIME = ffi.offsetof("kz_report", "fail_time") }
    for _, ab in ipairs { "a", "b" } do
      add(fill(FLOW_C, { AB = ab, F = fp.flows[ab], NEWTON = off.NEWTON, PARAM = off.PARAM, STEP = off.STEP, TIME = off.TIME }))
    end
  end
  if fp.constraints then
    local c = { G = fp.constraints.g, J = fp.constraints.jacobian, NQ = parts.constraints.nq, M = parts.constraints.m }
    c.JAC = fill(fp.constraints.jacobian and CON_JAC_GIVEN or CON_JAC_FD, c)
    add(fill(CON_C, c))
  end
  if fp.slow then
    for _, name in ipairs(parts.slow.names) do
      local f = fp.slow[name]
      local c = { S = name, XI = f.xi, GR = f.gradient, DTF = f.dtheta, D = L.dim, R = parts.slow[name].r }
      c.GRAD = fill(f.gradient and SLOW_GRAD_GIVEN or SLOW_GRAD_FD, c)
      c.DT = fill(f.dtheta and SLOW_DT_GIVEN or SLOW_DT_FD, c)
      add(fill(SLOW_C, c))
    end
  end
  if fp.vmi then
    local ns, nf = parts.vmi.ns, parts.vmi.nf
    local pots = { { P = "V", F = fp.vmi.V, G = fp.vmi.V_gradient, H = fp.vmi.V_hessian, N = ns + nf } }
    if fp.vmi.W then pots[2] = { P = "W", F = fp.vmi.W, G = fp.vmi.W_gradient, H = fp.vmi.W_hessian, N = nf } end
    for _, p in ipairs(pots) do
      local c = { P = p.P, F = p.F, N = p.N, N1 = math.max(p.N, 1), NS = ns, NN = math.max(p.N * p.N, 1) }
      local stack = p.N * p.N <= 4096
      c.HBUF = fill(stack and HBUF_STACK or HBUF_HEAP, c)
      c.HFREE = stack and "" or "    free(kzu_H);"
      local pack = not (p.G and p.H) -- the stacked positions x: for differences only
      if p.P == "V" then
        c.ARGSX, c.ARGSIN = "kzu_x, kzu_x + " .. ns, "kzu_qs, kzu_qf"
        c.SIG = "void *kzu_par, const double *kzu_qs, const double *kzu_qf, double *kzu_v, double *kzu_gs, double *kzu_gf, double *kzu_hess"
        c.PACK = pack and string.format("  double kzu_x[%d];\n" ..
                                        "  for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_x[kzu_i] = kzu_qs[kzu_i];\n" ..
                                        "  for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_x[%d + kzu_i] = kzu_qf[kzu_i];",
                                        c.N1, ns, nf, ns) or ""
        c.GCALL = p.G and string.format("%s(kzu_p, kzu_qs, kzu_qf, kzu_g, kzu_g + %d)", p.G, ns) or "kzu_V_gradient(kzu_p, kzu_x, kzu_g)"
        c.WANTG = "kzu_gs || kzu_gf"
        c.ADDG = string.format("    if (kzu_gs) for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_gs[kzu_i] += kzu_g[kzu_i];\n" ..
                                "    if (kzu_gf) for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_gf[kzu_i] += kzu_g[%d + kzu_i];", ns, nf, ns)
        c.GRAD = p.G and string.format("  return %s((const kz_par *)kzu_c, kzu_x, kzu_x + %d, kzu_g, kzu_g + %d);", p.G, ns, ns)
                     or fill(POT_GRAD_FD, c)
        c.HESS = p.H and string.format("    kzu_st = %s(kzu_p, kzu_qs, kzu_qf, kzu_H);", p.H) or fill(POT_HESS_FD, c)
      else
        c.ARGSX, c.ARGSIN = "kzu_x", "kzu_qf"
        c.SIG = "void *kzu_par, const double *kzu_qf, double *kzu_v, double *kzu_gf, double *kzu_hess"
        c.PACK = pack and string.format("  double kzu_x[%d];\n  for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_x[kzu_i] = kzu_qf[kzu_i];", c.N1, nf) or ""
        c.GCALL = p.G and string.format("%s(kzu_p, kzu_qf, kzu_g)", p.G) or "kzu_W_gradient(kzu_p, kzu_x, kzu_g)"
        c.WANTG = "kzu_gf"
        c.ADDG = string.format("    for (kzu_i = 0; kzu_i < %d; kzu_i++) kzu_gf[kzu_i] += kzu_g[kzu_i];", nf)
        c.GRAD = p.G and string.format("  return %s((const kz_par *)kzu_c, kzu_x, kzu_g);", p.G) or fill(POT_GRAD_FD, c)
        c.HESS = p.H and string.format("    kzu_st = %s(kzu_p, kzu_qf, kzu_H);", p.H) or fill(POT_HESS_FD, c)
      end
      -- a formed Hessian is symmetrised; a given one is taken as it stands
      c.HIJ = p.H and "kzu_H[kzu_i * " .. p.N .. " + kzu_j]"
                  or string.format("0.5 * (kzu_H[kzu_i * %d + kzu_j] + kzu_H[kzu_j * %d + kzu_i])", p.N, p.N)
      c.G = p.G
      local acc = parts.vmi.accumulate
      c.GBLOCK = fill((acc and p.G) and (p.P == "V" and GBLOCK_ACC_V or GBLOCK_ACC_W) or GBLOCK_WRITE, c)
      c.HBLOCK = (acc and p.H) and (p.P == "V" and string.format("    return %s(kzu_p, kzu_qs, kzu_qf, kzu_hess);", p.H)
                                                 or string.format("    return %s(kzu_p, kzu_qf, kzu_hess);", p.H))
                                or fill(HBLOCK_WRITE, c)
      if acc and p.G then -- the gradient helper of the differences starts from zero
        c.GRAD = string.format("  for (int kzu_k = 0; kzu_k < %d; kzu_k++) kzu_g[kzu_k] = 0;\n", c.N1) .. c.GRAD
      end
      add(fill(POT_C, c))
    end
  end
  if fp.invariants then
    for _, name in ipairs(fp.invariant_names) do add(fill(INV_C, { I = name, F = fp.invariants[name] })) end
  end
  return table.concat(out, "\n")
end

pcall(ffi.cdef, [[
int kzu_flow_a(void *par, double t, double h, double *y, kz_report *r);
int kzu_flow_b(void *par, double t, double h, double *y, kz_report *r);
int kzu_con(void *par, const double *q, double *g, double *G);
int kzu_vmi_V(void *par, const double *qs, const double *qf, double *v, double *gs, double *gf, double *hess);
int kzu_vmi_W(void *par, const double *qf, double *w, double *g, double *hess);
]])
local declared = {}
local function cdef_named(kind, name)
  local key = kind .. name
  if declared[key] then return end
  declared[key] = true
  if kind == "slow" then
    pcall(ffi.cdef, string.format("int kzu_slow_%s(void *par, double theta, const double *x, double *xi, double *grad, double *xi_theta);", name))
  else
    pcall(ffi.cdef, string.format("int kzu_inv_%s(void *par, const double *y, double *v);", name))
  end
end

---------------------------------------------------------------------------------------------------
-- The Lua way: callbacks (created once per process) dispatching on the parameter struct
---------------------------------------------------------------------------------------------------

local function failed(msg)
  kz.callback_error = msg
  return C.KZ_EMODEL
end

-- Status of pcall(f, ...) of a user function that returns nothing or a kz status (a guarded
-- function's fault, lib/lua/userguard.lua: an output left unset, os.exit, is its own message).
local function status(name, what, ok, st)
  if not ok and guard.lua_fault(st) then return failed(guard.lua_fault(st)) end
  if not ok then return failed(string.format("usermodel '%s': %s raised an error: %s", name, what, tostring(st))) end
  if st == nil or st == 0 then return 0 end
  if type(st) == "number" and st == math.floor(st) and st > 0 and st < 2 ^ 31 then
    kz.callback_error = string.format("usermodel '%s': %s returned status %d (%s)", name, what, st, ffi.string(C.kz_strerror(st)))
    return st
  end
  return failed(string.format("usermodel '%s': %s returned %s (expected nothing or a kz status)", name, what, tostring(st)))
end

-- Value of pcall(f, ...) of a user function that returns a number (a potential, an invariant).
local function value(name, what, ok, v)
  if not ok and guard.lua_fault(v) then return nil, failed(guard.lua_fault(v)) end
  if not ok then return nil, failed(string.format("usermodel '%s': %s raised an error: %s", name, what, tostring(v))) end
  if type(v) ~= "number" then
    return nil, failed(string.format("usermodel '%s': %s returned %s (expected a number)", name, what, tostring(v)))
  end
  return v, 0
end

local slow_live = {} -- address of a slow set's anchor -> { fn, P }
local function addr(p) return tonumber(ffi.cast("uintptr_t", ffi.cast("void *", p))) end

local callbacks
local function make_callbacks(um)
  if callbacks then return callbacks end
  jit.off(kz.call) -- see lib/lua/usermodel.lua: compiled code must not call C that calls back into Lua
  jit.off(kz.status)
  jit.flush()
  local function orphan() return failed("usermodel: a callback ran for a model that no longer exists") end
  local cb = {}
  for _, ab in ipairs { "a", "b" } do
    cb["flow_" .. ab] = ffi.cast("kz_flow_fn", function(par, t, h, y, r)
      local e, Pp = um.lua_entry(par)
      if not (e and Pp and e.parts) then return orphan() end
      return e.parts["flow_" .. ab](Pp, t, h, y)
    end)
  end
  cb.con = ffi.cast("kz_con_fn", function(par, q, g, G)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.con(Pp, q, g, G)
  end)
  cb.V = ffi.cast("kz_vmi_slow_fn", function(par, qs, qf, v, gs, gf, hess)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.V(Pp, qs, qf, v, gs, gf, hess)
  end)
  cb.W = ffi.cast("kz_vmi_fast_fn", function(par, qf, w, g, hess)
    local e, Pp = um.lua_entry(par)
    if not (e and Pp and e.parts) then return orphan() end
    return e.parts.W(Pp, qf, w, g, hess)
  end)
  cb.slow = ffi.cast("kz_slow_fn", function(par, theta, x, xi, grad, xit)
    local s = slow_live[addr(par)]
    if not s then return orphan() end
    return s.fn(s.P, theta, x, xi, grad, xit)
  end)
  callbacks = cb
  return cb
end

-- The Lua closures behind the callbacks of one model (they take the parameter struct as their
-- first argument, so that the process-wide tables never hold it).
local function lua_parts(name, L, fp)
  local parts, out = L.parts, {}
  if fp.flows then
    for _, ab in ipairs { "a", "b" } do
      local f = fp.flows[ab]
      out["flow_" .. ab] = function(Pp, t, h, y) return status(name, "flows." .. ab, pcall(f, Pp, t, h, y)) end
    end
  end
  if fp.constraints then
    local g, jac, nq, m = fp.constraints.g, fp.constraints.jacobian, parts.constraints.nq, parts.constraints.m
    local s = Dv.scratch(ffi, nq, m)
    out.con = function(Pp, q, gout, G)
      if gout ~= nil then
        local st = status(name, "constraints.g", pcall(g, Pp, q, gout))
        if st ~= 0 then return st end
      end
      if G ~= nil then
        if jac then return status(name, "constraints.jacobian", pcall(jac, Pp, q, G)) end
        local bad = Dv.jacobian(function(xw, o)
          local st = status(name, "constraints.g", pcall(g, Pp, xw, o))
          if st ~= 0 then return st end
        end, nq, m, q, G, s)
        return bad or 0
      end
      return 0
    end
  end
  if fp.slow then
    out.slow = {}
    for _, set in ipairs(parts.slow.names) do
      local f, r, d = fp.slow[set], parts.slow[set].r, L.dim
      local sx, st1 = Dv.scratch(ffi, d, r), Dv.scratch(ffi, 1, r)
      local th = ffi.new("double[1]")
      local what = "slow." .. set
      out.slow[set] = function(Pp, theta, x, xi, grad, xit)
        if xi ~= nil then
          local st = status(name, what .. ".xi", pcall(f.xi, Pp, theta, x, xi))
          if st ~= 0 then return st end
        end
        if grad ~= nil then
          local st
          if f.gradient then st = status(name, what .. ".gradient", pcall(f.gradient, Pp, theta, x, grad))
          else
            st = Dv.jacobian(function(xw, o)
              local s2 = status(name, what .. ".xi", pcall(f.xi, Pp, theta, xw, o))
              if s2 ~= 0 then return s2 end
            end, d, r, x, grad, sx) or 0
          end
          if st ~= 0 then return st end
        end
        if xit ~= nil then
          if f.dtheta then return status(name, what .. ".dtheta", pcall(f.dtheta, Pp, theta, x, xit)) end
          th[0] = theta
          return Dv.jacobian(function(tw, o)
            local s2 = status(name, what .. ".xi", pcall(f.xi, Pp, tw[0], x, o))
            if s2 ~= 0 then return s2 end
          end, 1, r, th, xit, st1) or 0
        end
        return 0
      end
    end
  end
  if fp.vmi then
    local ns, nf = parts.vmi.ns, parts.vmi.nf
    -- one potential: value(Pp, x) of the stacked positions x, its gradient and Hessian, added
    local function potential(P_, fv, fg, fh, n, split)
      local x, g, H = ffi.new("double[?]", math.max(n, 1)), ffi.new("double[?]", math.max(n, 1)),
                      ffi.new("double[?]", math.max(n * n, 1))
      local s1, s2 = Dv.scratch(ffi, n, 1), Dv.scratch(ffi, n, n)
      local function val(Pp, xx, o)
        local v, st
        if split then v, st = value(name, "vmi." .. P_, pcall(fv, Pp, xx, xx + ns)) else v, st = value(name, "vmi." .. P_, pcall(fv, Pp, xx)) end
        if st ~= 0 then return st end
        o[0] = v
      end
      local function grad(Pp, xx, o)
        if fg then
          for i = 0, n - 1 do o[i] = 0 end
          local st
          if split then st = status(name, "vmi." .. P_ .. "_gradient", pcall(fg, Pp, xx, xx + ns, o, o + ns))
          else st = status(name, "vmi." .. P_ .. "_gradient", pcall(fg, Pp, xx, o)) end
          if st ~= 0 then return st end
          return nil
        end
        return Dv.jacobian(function(xw, oo) return val(Pp, xw, oo) end, n, 1, xx, o, s1)
      end
      local function hess(Pp, xx, o)
        if fh then
          for i = 0, n * n - 1 do o[i] = 0 end
          local st
          if split then st = status(name, "vmi." .. P_ .. "_hessian", pcall(fh, Pp, xx, xx + ns, o))
          else st = status(name, "vmi." .. P_ .. "_hessian", pcall(fh, Pp, xx, o)) end
          if st ~= 0 then return st end
          return nil
        end
        local bad = Dv.jacobian(function(xw, oo) return grad(Pp, xw, oo) end, n, n, xx, o, s2)
        if bad then return bad end
        for i = 0, n - 1 do
          for j = i + 1, n - 1 do
            local a = 0.5 * (o[i * n + j] + o[j * n + i])
            o[i * n + j], o[j * n + i] = a, a
          end
        end
      end
      return { x = x, g = g, H = H, val = val, grad = grad, hess = hess, n = n }
    end
    local V = potential("V", fp.vmi.V, fp.vmi.V_gradient, fp.vmi.V_hessian, ns + nf, true)
    out.V = function(Pp, qs, qf, v, gs, gf, hess)
      local x, n = V.x, V.n
      for i = 0, ns - 1 do x[i] = qs[i] end
      for i = 0, nf - 1 do x[ns + i] = qf[i] end
      if v ~= nil then
        local st = V.val(Pp, x, v)
        if st then return st end
      end
      if gs ~= nil or gf ~= nil then
        local st = V.grad(Pp, x, V.g)
        if st then return st end
        if gs ~= nil then for i = 0, ns - 1 do gs[i] = gs[i] + V.g[i] end end
        if gf ~= nil then for i = 0, nf - 1 do gf[i] = gf[i] + V.g[ns + i] end end
      end
      if hess ~= nil then
        local st = V.hess(Pp, x, V.H)
        if st then return st end
        for i = 0, n * n - 1 do hess[i] = hess[i] + V.H[i] end
      end
      return 0
    end
    if fp.vmi.W then
      local W = potential("W", fp.vmi.W, fp.vmi.W_gradient, fp.vmi.W_hessian, nf, false)
      out.W = function(Pp, qf, w, gf, hess)
        local x, n = W.x, W.n
        for i = 0, nf - 1 do x[i] = qf[i] end
        if w ~= nil then
          local st = W.val(Pp, x, w)
          if st then return st end
        end
        if gf ~= nil then
          local st = W.grad(Pp, x, W.g)
          if st then return st end
          for i = 0, nf - 1 do gf[i] = gf[i] + W.g[i] end
        end
        if hess ~= nil then
          local st = W.hess(Pp, x, W.H)
          if st then return st end
          for i = 0, n * n - 1 do hess[i] = hess[i] + W.H[i] end
        end
        return 0
      end
    end
  end
  return out
end

---------------------------------------------------------------------------------------------------
-- Values, initial state, resolved numbers
---------------------------------------------------------------------------------------------------

--- The parameter values: spec.values overlaid with `values` (either may be nil).
function P.values(spec, values)
  local out = {}
  if type(spec.values) == "table" then for k, v in pairs(spec.values) do out[k] = v end end
  if values ~= nil then
    if type(values) ~= "table" then return values end -- new_par reports it
    for k, v in pairs(values) do out[k] = v end
  end
  return out
end

-- A declared value (number, parameter name, list, function(p)) at the parameter struct Pp:
-- a number (n = nil) or a list of n numbers, each finite (and > 0 when positive).
local function resolve(spec, bad, v, Pp, what, n, positive)
  if type(v) == "function" then
    local ok, r = pcall(v, Pp)
    if not ok then bad(spec, string.format("%s raised an error: %s", what, tostring(r))) end
    v = r
  end
  local function one(x, w)
    if type(x) == "string" then x = Pp[x] end
    if type(x) ~= "number" or x ~= x or x == math.huge or x == -math.huge then
      bad(spec, string.format("%s must be a finite number (got %s)", w, tostring(x)))
    end
    if positive and not (x > 0) then bad(spec, string.format("%s must be > 0 (got %.17g)", w, x)) end
    return x
  end
  if n == nil then return one(v, what) end
  local out = {}
  if type(v) == "table" then
    if #v ~= n then bad(spec, string.format("%s must list %d numbers (got %d)", what, n, #v)) end
    for i = 1, n do out[i] = one(v[i], string.format("%s[%d]", what, i)) end
  else
    local x = one(v, what)
    for i = 1, n do out[i] = x end
  end
  return out
end

--- The initial state of a model (a Lua array, or nil when the spec gives none).
local function initial_state(spec, L, bad, Pp)
  local parts = L.parts
  if spec.y0 ~= nil then return resolve(spec, bad, spec.y0, Pp, "y0", L.dim) end
  if spec.q0 == nil then return nil end
  local nq = parts.vmi and (parts.vmi.ns + parts.vmi.nf) or L.nq
  local q = resolve(spec, bad, spec.q0, Pp, "q0", nq)
  local vk = parts.vmi and "p0" or "v0"
  local v = spec[vk] ~= nil and resolve(spec, bad, spec[vk], Pp, vk, nq) or nil
  local y = {}
  for i = 1, nq do y[i], y[nq + i] = q[i], v and v[i] or 0 end
  return y
end

---------------------------------------------------------------------------------------------------
-- Building the parts into the model
---------------------------------------------------------------------------------------------------

local function cvec(t)
  local v = ffi.new("double[?]", math.max(#t, 1))
  for i = 1, #t do v[i - 1] = t[i] end
  return v
end

--- Attach the parts of spec to the model m (built by usermodel.model): how = "c" with the
-- compiled library namespace lib, or "lua" with the model's callback entry (um.lua_entry).
-- bad(spec, msg) raises. Fills m.sys.flow_a/b, m.con (and m.sys.con), m.slow, m.model / ns /
-- nf / d (vmi), m.invariants, m.invariant_names, m.y0, m.T, m.period, m.derivatives.
function P.attach(m, spec, L, how, fp, bad, lib, entry, um)
  local parts, Pp = L.parts, m.par
  m.keep = m.keep or {}
  local derived = {}
  m.derivatives = derived -- { part = ..., how = "given" | "central differences" }
  local lua
  if how == "lua" then
    lua = make_callbacks(um)
    entry.parts = lua_parts(spec.name, L, fp)
  end
  local function note(part, given) derived[#derived + 1] = { part = part, how = given and "given" or "central differences" } end
  -- vmi (before the initial state: it sets the state's layout)
  if fp.vmi then
    local v, vs = parts.vmi, spec.vmi
    local vm = ffi.new("kz_vmi_model")
    vm.ns, vm.nf = v.ns, v.nf
    local ms = v.ns > 0 and resolve(spec, bad, vs.mass_s or 1, Pp, "vmi.mass_s", v.ns, true) or { 1 }
    local mf = v.nf > 0 and resolve(spec, bad, vs.mass_f or 1, Pp, "vmi.mass_f", v.nf, true) or { 1 }
    local msv, mfv = cvec(ms), cvec(mf)
    m.keep[#m.keep + 1], m.keep[#m.keep + 2] = msv, mfv
    vm.mass_s, vm.mass_f, vm.ms, vm.mf = ms[1], mf[1], msv, mfv
    vm.par = Pp
    if how == "c" then
      vm.V = lib.kzu_vmi_V
      if fp.vmi.W then vm.W = lib.kzu_vmi_W end
    else
      vm.V = lua.V
      if fp.vmi.W then vm.W = lua.W end
    end
    m.model, m.ns, m.nf, m.d = vm, v.ns, v.nf, 2 * (v.ns + v.nf)
    note("vmi.V_gradient", fp.vmi.V_gradient)
    note("vmi.V_hessian", fp.vmi.V_hessian)
    if fp.vmi.W then
      note("vmi.W_gradient", fp.vmi.W_gradient)
      note("vmi.W_hessian", fp.vmi.W_hessian)
    end
    if m.sys == nil then
      m.sys = ffi.new("kz_sys")
      kz.call("kz_vmi_sys", m.sys, vm, kz.report())
    end
  end
  -- flows
  if fp.flows then
    if how == "c" then m.sys.flow_a, m.sys.flow_b = lib.kzu_flow_a, lib.kzu_flow_b
    else m.sys.flow_a, m.sys.flow_b = lua.flow_a, lua.flow_b end
  end
  m.y0 = initial_state(spec, L, bad, Pp)
  if spec.T ~= nil then m.T = resolve(spec, bad, spec.T, Pp, "T", nil, true) end
  if spec.period ~= nil then m.period = resolve(spec, bad, spec.period, Pp, "period", nil, true) end
  -- constraints
  if fp.constraints then
    local c, cs = parts.constraints, spec.constraints
    local con = ffi.new("kz_constraints")
    con.m = c.m
    local minv
    if cs.mass ~= nil then
      local mass = resolve(spec, bad, cs.mass, Pp, "constraints.mass", c.nq, true)
      minv = {}
      for i = 1, c.nq do minv[i] = 1 / mass[i] end
    else
      minv = resolve(spec, bad, cs.minv, Pp, "constraints.minv", c.nq, true)
    end
    local mv = cvec(minv)
    m.keep[#m.keep + 1] = mv
    con.minv, con.par, con.max_iter = mv, Pp, cs.max_iter or 50
    con.g = how == "c" and lib.kzu_con or lua.con
    con.tol = 1 -- provisional, for the scale below
    m.con = con
    m.sys.con = con
    note("constraints.jacobian", fp.constraints.jacobian)
    if cs.tol then con.tol = resolve(spec, bad, cs.tol, Pp, "constraints.tol", nil, true)
    else
      local scale, why = P.constraint_scale(m)
      if why then bad(spec, why) end
      con.tol = 1e-14 * scale
    end
  end
  -- slow sets
  if fp.slow then
    m.slow = {}
    for _, name in ipairs(parts.slow.names) do
      local s = ffi.new("kz_slow")
      s.r, s.dim = parts.slow[name].r, L.dim
      if parts.slow[name].frozen then
        local fr = ffi.new("int[?]", L.dim)
        for _, i in ipairs(parts.slow[name].frozen) do fr[i - 1] = 1 end
        s.frozen = fr
        m.keep[#m.keep + 1] = fr
      end
      if how == "c" then
        cdef_named("slow", name)
        s.eval, s.par = lib["kzu_slow_" .. name], Pp
      else
        local anchor = ffi.new("double[1]")
        local k = addr(anchor)
        local rec = { fn = entry.parts.slow[name], P = Pp }
        slow_live[k] = rec
        ffi.gc(anchor, function() if slow_live[k] == rec then slow_live[k] = nil end end)
        m.keep[#m.keep + 1] = anchor
        s.eval, s.par = lua.slow, anchor
      end
      m.slow[name] = s
      note("slow." .. name .. ".gradient", fp.slow[name].gradient)
      note("slow." .. name .. ".dtheta", fp.slow[name].dtheta)
    end
  end
  -- invariants (plus the constraint residuals of a constrained model)
  local names, fns = {}, {}
  if fp.invariants then
    for _, name in ipairs(fp.invariant_names) do
      names[#names + 1] = name
      if how == "c" then
        cdef_named("inv", name)
        local f, out = lib["kzu_inv_" .. name], ffi.new("double[1]")
        fns[name] = function(y)
          local st = f(Pp, y, out)
          local fault = st == C.KZ_EMODEL and guard.fault_message(st) -- an output left unset (lib/lua/userguard.lua)
          if fault then error(fault, 0) end
          if st ~= 0 then error(string.format("usermodel '%s': invariants.%s returned status %d (%s)", spec.name, name, st, ffi.string(C.kz_strerror(st))), 0) end
          return out[0]
        end
      else
        local f = fp.invariants[name]
        fns[name] = function(y)
          local ok, v = pcall(f, Pp, y)
          if not ok and guard.lua_fault(v) then error(guard.lua_fault(v), 0) end
          if not ok then error(string.format("usermodel '%s': invariants.%s raised an error: %s", spec.name, name, tostring(v)), 0) end
          if type(v) ~= "number" then error(string.format("usermodel '%s': invariants.%s returned %s (expected a number)", spec.name, name, tostring(v)), 0) end
          return v
        end
      end
    end
  end
  if m.con then
    names[#names + 1], names[#names + 2] = "constraint_g", "constraint_Gv"
  end
  if #names > 0 then
    m.invariant_names = names
    local yb = ffi.new("double[?]", L.dim)
    local res = m.con and ffi.new("double[?]", 2 * m.con.m) or nil
    --- The invariants at the state y (a Lua array or a double pointer): name -> value; with
    -- constraints also constraint_g = max_i |g_i(q)| and constraint_Gv = max_i |(G(q) v)_i|.
    function m.invariants(y)
      if type(y) == "table" then for i = 1, L.dim do yb[i - 1] = y[i] end else ffi.copy(yb, y, 8 * L.dim) end
      local out = {}
      for name, f in pairs(fns) do out[name] = f(yb) end
      if res then
        kz.call("kz_con_residual", m.sys, yb, res, kz.report())
        local a, b = 0, 0
        for i = 0, m.con.m - 1 do a, b = math.max(a, math.abs(res[i])), math.max(b, math.abs(res[m.con.m + i])) end
        out.constraint_g, out.constraint_Gv = a, b
      end
      return out
    end
  end
  -- the given derivatives checked against central differences at the initial state
  if m.y0 then
    for _, row in ipairs(P.check(m)) do
      if not row.ok then bad(spec, row.message) end
    end
  end
end

--- The size of the constraint terms at the initial state: max_i sum_j |G_ij q_j| (1 without
-- an initial state or when it is 0); and, when the Jacobian fails there, 1 and the reason.
function P.constraint_scale(m)
  if not m.y0 then return 1 end
  local con, nq = m.con, m.dim / 2
  local q, G = cvec(m.y0), ffi.new("double[?]", con.m * nq)
  local st = con.g(con.par, q, nil, G)
  if st ~= 0 then
    local msg = kz.callback_error or (st == C.KZ_EMODEL and guard.fault_message(st)) or ffi.string(C.kz_strerror(st))
    kz.callback_error = nil
    return 1, "the constraints' Jacobian failed at the initial state: " .. tostring(msg)
  end
  local s = 0
  for i = 0, con.m - 1 do
    local a = 0
    for j = 0, nq - 1 do a = a + math.abs(G[i * nq + j] * q[j]) end
    s = math.max(s, a)
  end
  return s > 0 and s < math.huge and s or 1
end

---------------------------------------------------------------------------------------------------
-- Derivative checks (any model: the structs' function pointers are called)
---------------------------------------------------------------------------------------------------

local function is_given(m, part)
  if not m.derivatives then return true end -- a built-in model: analytic everywhere
  for _, d in ipairs(m.derivatives) do if d.part == part then return d.how == "given" end end
  return false
end

-- Compare the given matrix A (m x n) with central differences of f at x (steps h and h/2).
local function compare(part, f, n, mo, x, A)
  local s = Dv.scratch(ffi, n, mo)
  local F, F2 = ffi.new("double[?]", math.max(mo * n, 1)), ffi.new("double[?]", math.max(mo * n, 1))
  local bad = Dv.jacobian(f, n, mo, x, F, s) or Dv.jacobian(f, n, mo, x, F2, s, Dv.rel / 2)
  if bad then
    local msg = kz.callback_error
    kz.callback_error = nil
    return { part = part, ok = false, message = string.format("%s could not be checked: the function failed at the initial state (%s)", part, tostring(msg or bad)) }
  end
  local w, ok = Dv.compare(A, F, F2, mo, n)
  local row = { part = part, ok = ok, rel = w.rel }
  if not ok then
    row.message = string.format("%s disagrees with central differences at the initial state: entry (%d, %d) is %.6g, the differences give %.6g (relative %.2g > %g)",
                                part, w.i + 1, w.j + 1, w.a, w.f, w.rel, Dv.tol)
  end
  return row
end

--- Check the derivatives a model gives (its constraint Jacobian, slow-set gradients and phase
-- derivatives, vmi gradients and Hessians) against central differences at the state y (a Lua
-- array; default m.y0). Derivatives formed by the library are skipped. Returns rows
-- { part, ok, rel, message }: rel the largest relative difference (ok when within
-- derivatives.tol after the differences' own error).
function P.check(m, y)
  y = y or m.y0
  local rows = {}
  if not y then return rows end
  local d = #y
  local yv = cvec(y)
  local function fail(part, st)
    local msg = kz.callback_error or (st == C.KZ_EMODEL and guard.fault_message(st)) or nil -- a Lua or a C guard's word
    kz.callback_error = nil
    rows[#rows + 1] = { part = part, ok = false, message = string.format("%s failed at the initial state: %s", part, msg or ffi.string(C.kz_strerror(st))) }
  end
  if m.con and is_given(m, "constraints.jacobian") then
    local con, nq = m.con, d / 2
    local G = ffi.new("double[?]", con.m * nq)
    local st = con.g(con.par, yv, nil, G)
    if st ~= 0 then fail("constraints.jacobian", st)
    else
      rows[#rows + 1] = compare("constraints.jacobian", function(xw, o)
        local s2 = con.g(con.par, xw, o, nil)
        if s2 ~= 0 then return s2 end
      end, nq, con.m, yv, G)
    end
  end
  if m.slow and m.vib then
    local names = {}
    for name in pairs(m.slow) do names[#names + 1] = name end
    table.sort(names)
    local theta = m.vib.theta0
    for _, name in ipairs(names) do
      local s = m.slow[name]
      local r = s.r
      local xi, G, xt = ffi.new("double[?]", r), ffi.new("double[?]", r * d), ffi.new("double[?]", r)
      if is_given(m, "slow." .. name .. ".gradient") then
        local st = s.eval(s.par, theta, yv, xi, G, nil)
        if st ~= 0 then fail("slow." .. name .. ".gradient", st)
        else
          rows[#rows + 1] = compare("slow." .. name .. ".gradient", function(xw, o)
            local s2 = s.eval(s.par, theta, xw, o, nil, nil)
            if s2 ~= 0 then return s2 end
          end, d, r, yv, G)
        end
      end
      if is_given(m, "slow." .. name .. ".dtheta") then
        local st = s.eval(s.par, theta, yv, xi, nil, xt)
        if st ~= 0 then fail("slow." .. name .. ".dtheta", st)
        else
          rows[#rows + 1] = compare("slow." .. name .. ".dtheta", function(tw, o)
            local s2 = s.eval(s.par, tw[0], yv, o, nil, nil)
            if s2 ~= 0 then return s2 end
          end, 1, r, cvec { theta }, xt)
        end
      end
    end
  end
  if m.model and ffi.istype("kz_vmi_model", m.model) then
    local vm = m.model
    local ns, nf = vm.ns, vm.nf
    local n = ns + nf
    local x = ffi.new("double[?]", math.max(n, 1))
    for i = 0, n - 1 do x[i] = yv[i] end
    local function Vgrad(xx, o)
      for i = 0, n - 1 do o[i] = 0 end
      local st = vm.V(vm.par, xx, xx + ns, nil, o, o + ns, nil)
      if st ~= 0 then return st end
    end
    local function Wgrad(xx, o)
      for i = 0, nf - 1 do o[i] = 0 end
      local st = vm.W(vm.par, xx, nil, o, nil)
      if st ~= 0 then return st end
    end
    local checks = {
      { "vmi.V_gradient", n, 1, x, function(xx, o) local st = vm.V(vm.par, xx, xx + ns, o, nil, nil, nil) if st ~= 0 then return st end end, Vgrad },
      { "vmi.V_hessian", n, n, x, Vgrad, function(xx, o)
        for i = 0, n * n - 1 do o[i] = 0 end
        local st = vm.V(vm.par, xx, xx + ns, nil, nil, nil, o)
        if st ~= 0 then return st end
      end } }
    if vm.W ~= nil then
      local xf = ffi.new("double[?]", math.max(nf, 1))
      for i = 0, nf - 1 do xf[i] = yv[ns + i] end
      checks[3] = { "vmi.W_gradient", nf, 1, xf, function(xx, o) local st = vm.W(vm.par, xx, o, nil, nil) if st ~= 0 then return st end end, Wgrad }
      checks[4] = { "vmi.W_hessian", nf, nf, xf, Wgrad, function(xx, o)
        for i = 0, nf * nf - 1 do o[i] = 0 end
        local st = vm.W(vm.par, xx, nil, nil, o)
        if st ~= 0 then return st end
      end }
    end
    for _, c in ipairs(checks) do
      local part, nn, mo, xx, f, given = c[1], c[2], c[3], c[4], c[5], c[6]
      if nn > 0 and is_given(m, part) then
        local A = ffi.new("double[?]", math.max(mo * nn, 1))
        local st = given(xx, A)
        if st then fail(part, st) else rows[#rows + 1] = compare(part, f, nn, mo, xx, A) end
      end
    end
  end
  return rows
end
jit.off(P.check, true)
jit.off(P.constraint_scale)

return P
