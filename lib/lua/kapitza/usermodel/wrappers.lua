-- wrappers.lua -- the C a model of one's own is compiled with, around the user's source
-- (lib/lua/kapitza/usermodel.lua's translation unit): the status enum copied from the header, the
-- exported scalar wrappers with kapitza's function types, and the vectorised ensemble wrappers.
local kz = require "kapitza"
local pc = require "kapitza.usermodel.parts_c"

local M = {}

local status_enum -- enum kz_status, copied from the header the binding loaded
local function kz_status_enum()
  if not status_enum then
    status_enum = assert(kz.header_source:match("(enum kz_status%s*{.-};)"),
                         "usermodel: enum kz_status not found in " .. kz.header_path .. " and its modules")
  end
  return status_enum
end

-- The ensemble wrappers (lib/lua/kapitza/ensemble.lua's ens.user; kz_ens_fn of kapitza/ens.h): members m0 ..
-- m0 + M - 1, structure of arrays (component i of member m at y[i M + m]), parameters as one
-- array of M numbers per parameter (kzu_par points to the params' array pointers, in the order of
-- spec.params: an array of structs of 5 doubles defeats GCC 12's vectoriser, per-parameter arrays
-- do not). The member loop carries `#pragma omp simd`; each member's parameters, inputs and
-- outputs are gathered into a kz_par and small arrays on the stack and the user's function is
-- called on them (inlined: flatten), so the vectoriser sees the user's arithmetic across members
-- and calls libmvec for sin, cos, exp (declared simd in the preamble). target_clones compiles the
-- loop for AVX-512, AVX2 and the x86-64 baseline (the portable fallback, picked at load);
-- kzu_ens_width() is the width used here; kzu_ens_inv_<name> evaluates an invariant (time unused).
-- The status is the largest any member returned. Not
-- guarded (lib/lua/kapitza/usermodel/guard.lua guards the scalar wrappers, whose trial calls run first): an
-- output left unset is NaN, which flags the member.
local function ens_wrappers(L, fns)
  local F = fns[L.force]
  local nin = L.nq > 0 and L.nq or L.dim -- accel reads q (nq), rhs reads y (dim)
  local nout = nin
  local w = {}
  local function add(fmt, ...) w[#w + 1] = string.format(fmt, ...) end
  add("#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)")
  add('#define KZU_ENS __attribute__((target_clones("avx512f", "avx2", "default"), flatten, ' ..
      'optimize("tree-loop-vectorize", "vect-cost-model=dynamic")))')
  add("#elif defined(__GNUC__) && !defined(__clang__)")
  add('#define KZU_ENS __attribute__((flatten, optimize("tree-loop-vectorize", "vect-cost-model=dynamic")))')
  add("#else\n#define KZU_ENS\n#endif")
  -- the body of one member loop: arg is the C expression of the time or phase argument
  local function loop(name, argexpr, fn, inn, outn, watch)
    add("KZU_ENS int %s(void *kzu_par, long long kzu_m0, int kzu_M, double kzu_t, const double *restrict kzu_y, " ..
        "double *restrict kzu_f)\n{", name)
    add("  const double *const *kzu_pa = (const double *const *)kzu_par;")
    for i, p in ipairs(L.params) do add("  const double *restrict kzu_p%d = kzu_pa[%d] + kzu_m0; /* %s */", i, i - 1, p) end
    -- the wall-clock limit's record (lib/core/kz_watch.c; the guard's kzu_ens_enter): one call of
    -- the model's code per member loop, so that a hang or a fork inside it is caught
    add("#ifdef KZU_WATCH_%s\n  kzu_ens_enter(KZU_WATCH_%s, kzu_t);\n#endif", watch, watch)
    add("  int kzu_st = 0;\n#pragma omp simd reduction(max : kzu_st)\n  for (int kzu_m = 0; kzu_m < kzu_M; kzu_m++) {")
    local init = {}
    for i = 1, #L.params do init[i] = string.format("kzu_p%d[kzu_m]", i) end
    add("    const kz_par kzu_q = { %s };", table.concat(init, ", "))
    add("    double kzu_x[%d], kzu_o[%d];", inn, outn)
    for i = 0, inn - 1 do add("    kzu_x[%d] = kzu_y[%d * kzu_M + kzu_m];", i, i) end
    for i = 0, outn - 1 do add("    kzu_o[%d] = __builtin_nan(\"\");", i) end
    if argexpr then add("    const int kzu_s = %s(&kzu_q, %s, kzu_x, kzu_o);", fn, argexpr)
    else add("    const int kzu_s = %s(&kzu_q, kzu_x, kzu_o);", fn) end
    add("    kzu_st = kzu_s > kzu_st ? kzu_s : kzu_st;")
    for i = 0, outn - 1 do add("    kzu_f[%d * kzu_M + kzu_m] = kzu_o[%d];", i, i) end
    add("  }\n#ifdef KZU_WATCH_%s\n  kzu_ens_leave();\n#endif\n  return kzu_st;\n}", watch)
  end
  local targ = "kzu_t"
  if L.vibrated then
    targ = fns.phase and string.format("%s(&kzu_q, kzu_t)", fns.phase)
           or ("kzu_q.omega * kzu_t + " .. (L.index.theta0 and "kzu_q.theta0" or "0.0"))
  end
  loop("kzu_ens_" .. L.force, targ, F, nin, nout, "sys_" .. L.force)
  if L.vibrated then
    loop("kzu_ens_phase_" .. L.force, "kzu_t", F, nin, nout, "vib_" .. L.force)
    if fns.reconstruct then loop("kzu_ens_reconstruct", "kzu_t", fns.reconstruct, L.dim, L.dim, "reconstruct") end
  end
  -- the invariants, member by member (kapitza/ens.h's KZ_OBS_FINAL observer): kzu_ens_inv_<name>
  local fp = fns.parts
  for _, name in ipairs(fp and fp.invariants and fp.invariant_names or {}) do
    loop("kzu_ens_inv_" .. name, nil, fp.invariants[name], L.dim, 1)
  end
  add("int kzu_ens_width(void)\n{")
  add("#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)")
  add("  __builtin_cpu_init();\n  if (__builtin_cpu_supports(\"avx512f\")) return 8;")
  add("  if (__builtin_cpu_supports(\"avx2\")) return 4;\n  return 2;\n#elif defined(__x86_64__)\n  return 2;")
  add("#else\n  return 1;\n#endif\n}")
  return table.concat(w, "\n")
end

-- The exported wrappers: kapitza's function types over the user's functions (static inline in
-- the same translation unit, so the compiler inlines them).
local function wrappers(L, fns)
  local w = {}
  local function add(fmt, ...) w[#w + 1] = string.format(fmt, ...) end
  -- parameter names in the kzu_ namespace, which user functions may not use
  local F, decl = fns[L.force], "const double *kzu_x, double *kzu_out"
  if not L.force then -- a vmi model: only its parts
  elseif L.vibrated then
    local theta0 = L.index.theta0 and "((const kz_par *)kzu_par)->theta0" or "0.0"
    add("int kzu_vib_%s(void *kzu_par, double kzu_theta, %s)\n{\n  return %s((const kz_par *)kzu_par, kzu_theta, kzu_x, kzu_out);\n}",
        L.force, decl, F)
    local phase = fns.phase and string.format("%s((const kz_par *)kzu_par, kzu_t)", fns.phase)
                  or string.format("((const kz_par *)kzu_par)->omega * kzu_t + %s", theta0)
    add("int kzu_sys_%s(void *kzu_par, double kzu_t, %s)\n{\n  return %s((const kz_par *)kzu_par, %s, kzu_x, kzu_out);\n}",
        L.force, decl, F, phase)
  else
    add("int kzu_sys_%s(void *kzu_par, double kzu_t, %s)\n{\n  return %s((const kz_par *)kzu_par, kzu_t, kzu_x, kzu_out);\n}",
        L.force, decl, F)
  end
  if fns.reconstruct then
    add("int kzu_reconstruct(void *kzu_par, double kzu_theta, const double *kzu_Y, double *kzu_y)\n{\n" ..
        "  return %s((const kz_par *)kzu_par, kzu_theta, kzu_Y, kzu_y);\n}", fns.reconstruct)
  end
  if fns.averaged then
    add("int kzu_avg_%s(void *kzu_par, double kzu_t, %s)\n{\n  (void)kzu_t;\n  return %s((const kz_par *)kzu_par, kzu_x, kzu_out);\n}",
        L.force, decl, fns.averaged)
  end
  local p = pc.c_source(L, fns.parts)
  if p ~= "" then w[#w + 1] = p end
  if L.force then w[#w + 1] = ens_wrappers(L, fns) end
  return table.concat(w, "\n\n")
end

M.status_enum, M.ensemble, M.scalar = kz_status_enum, ens_wrappers, wrappers

return M
