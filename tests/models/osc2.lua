-- osc2.lua -- a user model with a splitting (tests/usermodel_parts_spec.lua): two unit harmonic
-- oscillators with a weak quartic coupling, q'' = -q - eps grad U(q), U = q1^4/4 + q1^2 q2^2/2,
-- in the time of their common period 2 pi (a Kepler-like perturbed problem: the unperturbed flow
-- is a rotation, solved exactly). Flows: a = the coupling kick (positions fixed, exact), b = the
-- rotation (exact). Invariant: the energy |v|^2/2 + |q|^2/2 + eps U(q).
return {
  name = "osc2", nq = 2, params = { "eps" }, values = { eps = 0.01 }, period = 2 * math.pi,
  q0 = { 1, 0 }, v0 = { 0, 1 }, T = 16 * math.pi,
  lua = {
    accel = function(p, t, q, a)
      a[0] = -q[0] - p.eps * (q[0] * q[0] * q[0] + q[0] * q[1] * q[1])
      a[1] = -q[1] - p.eps * q[0] * q[0] * q[1]
    end,
    flows = {
      a = function(p, t, h, y)
        local q1, q2 = y[0], y[1]
        y[2] = y[2] - h * p.eps * (q1 * q1 * q1 + q1 * q2 * q2)
        y[3] = y[3] - h * p.eps * q1 * q1 * q2
      end,
      b = function(p, t, h, y)
        local c, s = math.cos(h), math.sin(h)
        for i = 0, 1 do
          local q, v = y[i], y[2 + i]
          y[i], y[2 + i] = c * q + s * v, -s * q + c * v
        end
      end,
    },
    invariants = {
      energy = function(p, y)
        local q1, q2 = y[0], y[1]
        return 0.5 * (y[2] * y[2] + y[3] * y[3] + q1 * q1 + q2 * q2) + p.eps * (0.25 * q1 ^ 4 + 0.5 * q1 * q1 * q2 * q2)
      end,
    },
  },
  c = { accel = "accel", flows = { a = "kick", b = "rotate" }, invariants = { energy = "energy" }, source = [[
static int accel(const kz_par *p, double t, const double *q, double *a)
{
  (void)t;
  a[0] = -q[0] - p->eps * (q[0] * q[0] * q[0] + q[0] * q[1] * q[1]);
  a[1] = -q[1] - p->eps * q[0] * q[0] * q[1];
  return KZ_OK;
}
static int kick(const kz_par *p, double t, double h, double *y)
{
  const double q1 = y[0], q2 = y[1];
  (void)t;
  y[2] -= h * p->eps * (q1 * q1 * q1 + q1 * q2 * q2);
  y[3] -= h * p->eps * q1 * q1 * q2;
  return KZ_OK;
}
static int rotate(const kz_par *p, double t, double h, double *y)
{
  const double c = cos(h), s = sin(h);
  (void)p; (void)t;
  for (int i = 0; i < 2; i++) {
    const double q = y[i], v = y[2 + i];
    y[i] = c * q + s * v;
    y[2 + i] = -s * q + c * v;
  }
  return KZ_OK;
}
static int energy(const kz_par *p, const double *y, double *e)
{
  const double q1 = y[0], q2 = y[1];
  *e = 0.5 * (y[2] * y[2] + y[3] * y[3] + q1 * q1 + q2 * q2) + p->eps * (0.25 * q1 * q1 * q1 * q1 + 0.5 * q1 * q1 * q2 * q2);
  return KZ_OK;
}
]] },
}
