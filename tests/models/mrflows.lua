-- mrflows.lua -- a multirate model with every part a multirate method takes (issue 25, item 2;
-- tests/mrflows_spec.lua): the Fermi-Pasta-Ulam chain of Ober-Bloebaum et al. Sec. 6 (Hairer,
-- Lubich & Wanner I.5.1) with one stiff spring (l = 1), written three ways at once:
--   the vmi split    V = 1/4 [(qs - qf)^4 + (qs + qf)^4],  W = omega^2/2 qf^2  (unit masses),
--   the flows        a: the stiff part and the free motion, H_a = (ps^2 + pf^2)/2 + W (exact:
--                       qs drifts, (qf, pf) rotates at omega), b: the soft springs' kick by
--                       -grad V (exact, positions fixed); Strang of the two is the impulse method,
--   the period       2 pi / omega of the stiff spring.
-- State y = (qs, qf, ps, pf); omega a plain parameter (no fast phase: the equations are
-- autonomous). Initial data after the paper: qs = 1, qf = 1/omega, ps = pf = 1.
local function dV(qs, qf)
  local a, b = qs - qf, qs + qf
  local a3, b3 = a * a * a, b * b * b
  return a3 + b3, -a3 + b3 -- dV/dqs, dV/dqf
end
return {
  name = "mrflows", params = { "omega", "c" }, values = { omega = 50, c = 1 },
  vmi = { ns = 1, nf = 1, mass_s = 1, mass_f = 1 },
  q0 = function(p) return { 1, 1 / p.omega } end, p0 = { 1, 1 }, T = 2,
  period = function(p) return 2 * math.pi / p.omega end,
  lua = {
    vmi = {
      V = function(p, qs, qf)
        local a, b = qs[0] - qf[0], qs[0] + qf[0]
        return 0.25 * p.c * (a ^ 4 + b ^ 4)
      end,
      V_gradient = function(p, qs, qf, gs, gf)
        local s, f = dV(qs[0], qf[0])
        gs[0], gf[0] = p.c * s, p.c * f
      end,
      W = function(p, qf) return 0.5 * p.omega ^ 2 * qf[0] * qf[0] end,
    },
    flows = {
      a = function(p, t, h, y)
        local w = p.omega
        local c, s = math.cos(w * h), math.sin(w * h)
        y[0] = y[0] + h * y[2]
        y[1], y[3] = c * y[1] + s / w * y[3], -w * s * y[1] + c * y[3]
      end,
      b = function(p, t, h, y)
        local s, f = dV(y[0], y[1])
        y[2], y[3] = y[2] - h * p.c * s, y[3] - h * p.c * f
      end,
    },
  },
  c = { vmi = { V = "V", V_gradient = "V_gradient", W = "W" }, flows = { a = "stiff", b = "kick" }, source = [[
static void dV(double qs, double qf, double *s, double *f)
{
  const double a = qs - qf, b = qs + qf, a3 = a * a * a, b3 = b * b * b;
  *s = a3 + b3; *f = -a3 + b3;
}
static int V(const kz_par *p, const double *qs, const double *qf, double *v)
{
  const double a = qs[0] - qf[0], b = qs[0] + qf[0];
  *v = 0.25 * p->c * (a * a * a * a + b * b * b * b);
  return KZ_OK;
}
static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  double s, f;
  dV(qs[0], qf[0], &s, &f);
  gs[0] = p->c * s; gf[0] = p->c * f;
  return KZ_OK;
}
static int W(const kz_par *p, const double *qf, double *w)
{
  *w = 0.5 * p->omega * p->omega * qf[0] * qf[0];
  return KZ_OK;
}
static int stiff(const kz_par *p, double t, double h, double *y)
{
  (void)t;
  const double w = p->omega, c = cos(w * h), s = sin(w * h), qf = y[1], pf = y[3];
  y[0] += h * y[2];
  y[1] = c * qf + s / w * pf; y[3] = -w * s * qf + c * pf;
  return KZ_OK;
}
static int kick(const kz_par *p, double t, double h, double *y)
{
  (void)t;
  double s, f;
  dV(y[0], y[1], &s, &f);
  y[2] -= h * p->c * s; y[3] -= h * p->c * f;
  return KZ_OK;
}
]] },
}
