-- ring.lua -- the 3-D spring ring of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
-- multirate integrators" (Sec. 6, Fig. 6.2), as a model file (lib/lua/kapitza/usermodel.lua's format, the
-- vmi part): six bodies of mass `mass` on a ring, each joined to its neighbours by a quartic
-- spring (eps/4)|q_{i+1} - q_i|^4 and to the origin by a linear one, stiffness omega1 for the
-- odd bodies (slow, in V) and omega2 for the even ones (fast, W), under gravity along -e3:
--   V = omega1/2 sum_odd |q_i|^2 + eps/4 sum_i |q_{i+1} - q_i|^4 + g_sign g mass sum_i (q_i)_3,
--   W = omega2/2 sum_even |q_i|^2,
-- state (qs, qf, ps, pf): qs the odd bodies 1, 3, 5, qf the even ones 2, 4, 6 (three coordinates
-- each). g_sign = 1 is the physical sign; -1 the printed "+ q' M g" with g along -e3 (an upward
-- force, kept as an option).
-- The case of Sec. 6: mass = 2, eps = 5, omega1 = 2, omega2 = 4000, g = 9.81, the bodies on the
-- circle of radius 2 at height -2, bodies 2, 3, 4, 5 moved by the paper's offsets, velocities
-- along the directions u12, u36 of the unperturbed circle (helper initial_state), over [0, 10].
-- The C functions compute what lib/models/kz_vmi_models.c computes, term for term in the same order
-- (the built-in adds V's value, gradient and Hessian in one pass; here each has its own
-- function, which sums its terms in that pass's order, adding into the method's arrays as the
-- built-in does: vmi.accumulate), so that the models built from this file give the same numbers
-- to the last bit.

-- the initial state of Sec. 6: radius r, height h, velocity directions from the circle
-- ("unperturbed") or from the moved positions ("repositioned")
local function initial_state(p, o)
  o = o or {}
  local r, h = o.r or 2, o.h or 2
  local q = {}
  for i = 1, 6 do q[i] = { r * math.sin((i - 1) * math.pi / 3), -r * math.cos((i - 1) * math.pi / 3), -h } end
  local shift = { [3] = { 0.3, 0.3, 0 }, [5] = { 0.2, -0.3, -0.3 }, [2] = { 0.2, -0.2, 0 }, [4] = { -0.3, 0.4, 0 } }
  local q0 = {}
  for i = 1, 6 do
    local s = shift[i] or { 0, 0, 0 }
    q0[i] = { q[i][1] + s[1], q[i][2] + s[2], q[i][3] + s[3] }
  end
  local base = (o.directions or "unperturbed") == "unperturbed" and q or q0
  local function unit(a, b)
    local d = { a[1] - b[1], a[2] - b[2], a[3] - b[3] }
    local n = math.sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3])
    return { d[1] / n, d[2] / n, d[3] / n }
  end
  local u12, u36 = unit(base[1], base[2]), unit(base[3], base[6])
  local v = { { 5 * u12[1], 5 * u12[2], 5 * u12[3] }, { -30 * u12[1], -30 * u12[2], -30 * u12[3] },
              { -5 * u36[1], -5 * u36[2], -5 * u36[3] }, { 50, 40, -10 }, { 0, 0, 0 }, { 50, 40, 10 } }
  local y0 = {}
  for i = 1, 6 do -- odd bodies slow (offset 0), even fast (offset 9); momenta after 18
    local off = (i % 2 == 1) and 3 * ((i - 1) / 2) or 9 + 3 * (i / 2 - 1)
    for c = 1, 3 do
      y0[off + c] = q0[i][c]
      y0[18 + off + c] = p.mass * v[i][c]
    end
  end
  return y0
end

return {
  name = "ring", atlas = "ring", params = { "mass", "eps", "omega1", "omega2", "g", "g_sign" },
  description = "the spring ring of Ober-Bloebaum et al. Sec. 6: quartic ring springs, slow and stiff anchors",
  values = { mass = 2, eps = 5, omega1 = 2, omega2 = 4000, g = 9.81, g_sign = 1 },
  vmi = { ns = 9, nf = 9, mass_s = "mass", mass_f = "mass", accumulate = true },
  y0 = function(p) return initial_state(p) end,
  T = 10, period = function(p) return 2 * math.pi / math.sqrt(p.omega2 / p.mass) end, -- the fast bodies' springs
  helpers = { initial_state = initial_state },
  c = { vmi = { V = "V", V_gradient = "V_gradient", V_hessian = "V_hessian", W = "W", W_gradient = "W_gradient",
                W_hessian = "W_hessian" }, source = [[
enum { L = 3, N = 2 * L, NS = 3 * L, NH = 6 * L };

/* body i (0-based, ring order): even i = the paper's odd bodies (slow), odd i = fast */
static const double *position(int i, const double *qs, const double *qf, int *off)
{
  if (i % 2 == 0) { *off = 3 * (i / 2); return qs + 3 * (i / 2); }
  *off = NS + 3 * (i / 2);
  return qf + 3 * (i / 2);
}

static int V(const kz_par *p, const double *qs, const double *qf, double *v)
{
  double val = 0;
  for (int i = 0; i < NS; i++) val += 0.5 * p->omega1 * qs[i] * qs[i];
  for (int i = 0; i < N; i++) { /* quartic ring spring between bodies i and i+1 */
    int oa, ob;
    const double *qa = position(i, qs, qf, &oa), *qb = position((i + 1) % N, qs, qf, &ob);
    double d2 = 0;
    for (int c = 0; c < 3; c++) { const double d = qb[c] - qa[c]; d2 += d * d; }
    val += 0.25 * p->eps * d2 * d2;
  }
  const double gz = p->g_sign * p->g * p->mass; /* potential gz * z per body */
  for (int i = 0; i < N; i++) {
    int o;
    val += gz * position(i, qs, qf, &o)[2];
  }
  *v = val;
  return KZ_OK;
}

static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  for (int i = 0; i < NS; i++) gs[i] += p->omega1 * qs[i];
  for (int i = 0; i < N; i++) {
    int oa, ob;
    const double *qa = position(i, qs, qf, &oa), *qb = position((i + 1) % N, qs, qf, &ob);
    double d[3], d2 = 0;
    for (int c = 0; c < 3; c++) { d[c] = qb[c] - qa[c]; d2 += d[c] * d[c]; }
    for (int c = 0; c < 3; c++) {
      const double g = p->eps * d2 * d[c]; /* dV/d(qb); dV/d(qa) = -g */
      if (ob < NS) gs[ob + c] += g; else gf[ob - NS + c] += g;
      if (oa < NS) gs[oa + c] -= g; else gf[oa - NS + c] -= g;
    }
  }
  const double gz = p->g_sign * p->g * p->mass;
  for (int i = 0; i < N; i++) {
    int o;
    (void)position(i, qs, qf, &o);
    if (o < NS) gs[o + 2] += gz; else gf[o - NS + 2] += gz;
  }
  return KZ_OK;
}

static int V_hessian(const kz_par *p, const double *qs, const double *qf, double *hess)
{
  for (int i = 0; i < NS; i++) hess[i * NH + i] += p->omega1;
  for (int i = 0; i < N; i++) {
    int oa, ob;
    const double *qa = position(i, qs, qf, &oa), *qb = position((i + 1) % N, qs, qf, &ob);
    double d[3], d2 = 0;
    for (int c = 0; c < 3; c++) { d[c] = qb[c] - qa[c]; d2 += d[c] * d[c]; }
    for (int c = 0; c < 3; c++)
      for (int e = 0; e < 3; e++) {
        const double h = p->eps * ((c == e ? d2 : 0) + 2 * d[c] * d[e]);
        hess[(ob + c) * NH + ob + e] += h;
        hess[(oa + c) * NH + oa + e] += h;
        hess[(ob + c) * NH + oa + e] -= h;
        hess[(oa + c) * NH + ob + e] -= h;
      }
  }
  return KZ_OK;
}

static int W(const kz_par *p, const double *qf, double *w)
{
  double val = 0;
  for (int i = 0; i < NS; i++) val += 0.5 * p->omega2 * qf[i] * qf[i];
  *w = val;
  return KZ_OK;
}

static int W_gradient(const kz_par *p, const double *qf, double *g)
{
  for (int i = 0; i < NS; i++) g[i] += p->omega2 * qf[i];
  return KZ_OK;
}

static int W_hessian(const kz_par *p, const double *qf, double *hess)
{
  (void)qf;
  for (int i = 0; i < NS; i++) hess[i * NS + i] += p->omega2;
  return KZ_OK;
}
]] },
}
