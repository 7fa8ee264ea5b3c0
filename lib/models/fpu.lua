-- fpu.lua -- the Fermi-Pasta-Ulam chain of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
-- multirate integrators" (Sec. 6, after Hairer, Lubich & Wanner, Geometric Numerical Integration,
-- Sec. I.5.1), as a model file (lib/lua/kapitza/usermodel.lua's format, the vmi part): 2l unit masses joined
-- alternately by l stiff linear springs and l + 1 soft cubic ones, in the variables of HLW:
-- slow positions qs_j (scaled centre displacements of the stiff springs) and fast ones qf_j
-- (their scaled expansions), j = 1..l, state (qs, qf, ps, pf):
--   V = 1/4 [(qs1 - qf1)^4 + sum_{j=1}^{l-1} (qs_{j+1} - qf_{j+1} - qs_j - qf_j)^4 + (qs_l + qf_l)^4],
--   W = omega^2/2 |qf|^2.
-- The case of Sec. 6: l = 3, omega = 50, qs(0) = (1, 0, 0), qf(0) = (1/omega, 0, 0),
-- ps(0) = pf(0) = (1, 0, 0), over [0, 200]. l names the sizes (ns = nf = l: one compiled object
-- per l). The C functions compute what lib/models/kz_vmi_models.c computes, term for term in the same
-- order (the built-in adds V's value, gradient and Hessian in one pass; here each has its own
-- function, which sums its terms in that pass's order, adding into the method's arrays as the
-- built-in does: vmi.accumulate), so that the models built from this file give the same numbers
-- to the last bit.
return {
  name = "fpu", atlas = "fpu", params = { "l", "omega" },
  description = "Fermi-Pasta-Ulam (Ober-Bloebaum et al. Sec. 6; HLW I.5.1): slow soft cubic springs, stiff linear ones",
  values = { l = 3, omega = 50 },
  vmi = { ns = "l", nf = "l", mass_s = 1, mass_f = 1, accumulate = true },
  q0 = function(p)
    local q = {}
    for i = 1, 2 * p.l do q[i] = 0 end
    q[1], q[p.l + 1] = 1, 1 / p.omega
    return q
  end,
  p0 = function(p)
    local v = {}
    for i = 1, 2 * p.l do v[i] = 0 end
    v[1], v[p.l + 1] = 1, 1
    return v
  end,
  T = 200, period = function(p) return 2 * math.pi / p.omega end, -- the stiff springs' (uncoupled)
  c = { vmi = { V = "V", V_gradient = "V_gradient", V_hessian = "V_hessian", W = "W", W_gradient = "W_gradient",
                W_hessian = "W_hessian" }, source = [==[
/* The soft spring j = 0..l: d_j = sum cf[k] z[idx[k]] over the stacked z = (qs, qf). */
static int term(int l, int j, int *idx, double *cf)
{
  if (j == 0) { idx[0] = 0; cf[0] = 1; idx[1] = l; cf[1] = -1; return 2; }
  if (j == l) { idx[0] = l - 1; cf[0] = 1; idx[1] = 2 * l - 1; cf[1] = 1; return 2; }
  idx[0] = j; cf[0] = 1; idx[1] = l + j; cf[1] = -1;
  idx[2] = j - 1; cf[2] = -1; idx[3] = l + j - 1; cf[3] = -1;
  return 4;
}

/* the elongation d of soft spring j and its terms */
static double spring(int l, int j, const double *qs, const double *qf, int *idx, double *cf, int *c)
{
  double d = 0;
  *c = term(l, j, idx, cf);
  for (int k = 0; k < *c; k++) d += cf[k] * (idx[k] < l ? qs[idx[k]] : qf[idx[k] - l]);
  return d;
}

static int V(const kz_par *p, const double *qs, const double *qf, double *v)
{
  const int l = (int)p->l;
  double val = 0;
  for (int j = 0; j <= l; j++) {
    int idx[4], c;
    double cf[4];
    const double d = spring(l, j, qs, qf, idx, cf, &c), d2 = d * d;
    val += 0.25 * d2 * d2;
  }
  *v = val;
  return KZ_OK;
}

static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  const int l = (int)p->l;
  for (int j = 0; j <= l; j++) {
    int idx[4], c;
    double cf[4];
    const double d = spring(l, j, qs, qf, idx, cf, &c), d2 = d * d;
    for (int k = 0; k < c; k++) {
      const double g = d2 * d * cf[k];
      if (idx[k] < l) gs[idx[k]] += g;
      else gf[idx[k] - l] += g;
    }
  }
  return KZ_OK;
}

static int V_hessian(const kz_par *p, const double *qs, const double *qf, double *hess)
{
  const int l = (int)p->l, n = 2 * l;
  for (int j = 0; j <= l; j++) {
    int idx[4], c;
    double cf[4];
    const double d = spring(l, j, qs, qf, idx, cf, &c), d2 = d * d;
    for (int k = 0; k < c; k++)
      for (int kk = 0; kk < c; kk++) hess[idx[k] * n + idx[kk]] += 3 * d2 * cf[k] * cf[kk];
  }
  return KZ_OK;
}

static int W(const kz_par *p, const double *qf, double *w)
{
  const double o2 = p->omega * p->omega;
  double val = 0;
  for (int i = 0; i < (int)p->l; i++) val += 0.5 * o2 * qf[i] * qf[i];
  *w = val;
  return KZ_OK;
}

static int W_gradient(const kz_par *p, const double *qf, double *g)
{
  const double o2 = p->omega * p->omega;
  for (int i = 0; i < (int)p->l; i++) g[i] += o2 * qf[i];
  return KZ_OK;
}

static int W_hessian(const kz_par *p, const double *qf, double *hess)
{
  (void)qf;
  const int l = (int)p->l;
  const double o2 = p->omega * p->omega;
  for (int i = 0; i < l; i++) hess[i * l + i] += o2;
  return KZ_OK;
}
]==] },
}
