-- fpu2.lua -- a user model for the variational multirate integrators (tests/usermodel_parts_spec.lua):
-- the Fermi-Pasta-Ulam chain of Ober-Bloebaum et al. Sec. 6 (Hairer, Lubich & Wanner I.5.1) with
-- l = 2 stiff springs, written in the user format: slow positions qs (centre displacements), fast
-- qf (expansions), unit masses,
--   V = 1/4 [(qs1 - qf1)^4 + (qs2 - qf2 - qs1 - qf1)^4 + (qs2 + qf2)^4],   W = omega^2/2 |qf|^2.
-- State (qs, qf, ps, pf); initial data as the paper's (qs1 = 1, qf1 = 1/omega, ps1 = pf1 = 1).
-- The C way gives V's gradient and W's gradient and Hessian (V's Hessian by differences); the
-- Lua way gives only the potentials.
local function d(qs, qf)
  return qs[0] - qf[0], qs[1] - qf[1] - qs[0] - qf[0], qs[1] + qf[1]
end
return {
  name = "fpu2", params = { "omega" }, values = { omega = 50 },
  vmi = { ns = 2, nf = 2, mass_s = 1, mass_f = 1 },
  q0 = function(p) return { 1, 0, 1 / p.omega, 0 } end, p0 = { 1, 0, 1, 0 }, T = 1,
  lua = {
    vmi = {
      V = function(p, qs, qf)
        local a, b, c = d(qs, qf)
        return 0.25 * (a ^ 4 + b ^ 4 + c ^ 4)
      end,
      W = function(p, qf) return 0.5 * p.omega ^ 2 * (qf[0] * qf[0] + qf[1] * qf[1]) end,
    },
    invariants = { I = function(p, y) return 0.5 * (y[6] ^ 2 + y[7] ^ 2) + 0.5 * p.omega ^ 2 * (y[2] ^ 2 + y[3] ^ 2) end },
  },
  c = { vmi = { V = "V", V_gradient = "V_gradient", W = "W", W_gradient = "W_gradient", W_hessian = "W_hessian" },
        invariants = { I = "stiff_energy" }, source = [[
static void springs(const double *qs, const double *qf, double *d)
{
  d[0] = qs[0] - qf[0]; d[1] = qs[1] - qf[1] - qs[0] - qf[0]; d[2] = qs[1] + qf[1];
}
static int V(const kz_par *p, const double *qs, const double *qf, double *v)
{
  double d[3];
  (void)p;
  springs(qs, qf, d);
  *v = 0.25 * (d[0] * d[0] * d[0] * d[0] + d[1] * d[1] * d[1] * d[1] + d[2] * d[2] * d[2] * d[2]);
  return KZ_OK;
}
static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  double d[3], c[3];
  (void)p;
  springs(qs, qf, d);
  for (int i = 0; i < 3; i++) c[i] = d[i] * d[i] * d[i];
  gs[0] = c[0] - c[1]; gs[1] = c[1] + c[2];
  gf[0] = -c[0] - c[1]; gf[1] = -c[1] + c[2];
  return KZ_OK;
}
static int W(const kz_par *p, const double *qf, double *w)
{
  *w = 0.5 * p->omega * p->omega * (qf[0] * qf[0] + qf[1] * qf[1]);
  return KZ_OK;
}
static int W_gradient(const kz_par *p, const double *qf, double *g)
{
  g[0] = p->omega * p->omega * qf[0]; g[1] = p->omega * p->omega * qf[1];
  return KZ_OK;
}
static int W_hessian(const kz_par *p, const double *qf, double *H)
{
  (void)qf;
  H[0] = p->omega * p->omega; H[1] = 0; H[2] = 0; H[3] = p->omega * p->omega;
  return KZ_OK;
}
static int stiff_energy(const kz_par *p, const double *y, double *e)
{
  *e = 0.5 * (y[6] * y[6] + y[7] * y[7]) + 0.5 * p->omega * p->omega * (y[2] * y[2] + y[3] * y[3]);
  return KZ_OK;
}
]] },
}
