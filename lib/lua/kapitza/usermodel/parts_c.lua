-- modelparts_c.lua -- the C way of a user's model's optional parts: the wrappers generated into the
-- model's translation unit after the user's source (flows, constraints with their Jacobian given or
-- by central differences, slow-variable sets, the vmi potentials' gradient and Hessian blocks,
-- invariants; the same difference rule as lib/lua/kapitza/usermodel/derivatives.lua), and the FFI declarations of the
-- wrapped functions. Used by lib/lua/kapitza/usermodel.lua (the source) and lib/lua/kapitza/usermodel/parts.lua.
local kz = require "kapitza"
local ffi = kz.ffi

local P = {}

---------------------------------------------------------------------------------------------------
-- The C wrappers (generated into the translation unit after the user's source)
---------------------------------------------------------------------------------------------------

-- Central differences in C, the rule of lib/lua/kapitza/usermodel/derivatives.lua.
local FD_C = [[
#include <stdlib.h>
/* central differences (lib/lua/kapitza/usermodel/derivatives.lua): J (m x n, row-major) of f at x, steps
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

P.cdef_named = cdef_named

return P
