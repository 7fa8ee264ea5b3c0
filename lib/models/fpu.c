/* fpu.c -- the Fermi-Pasta-Ulam chain of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
 * multirate integrators" (Sec. 6, after Hairer, Lubich & Wanner, Geometric Numerical Integration,
 * Sec. I.5.1): 2l unit masses joined alternately by l stiff linear springs and l + 1 soft cubic
 * ones, in the variables of HLW: slow positions qs_j (scaled centre displacements of the stiff
 * springs) and fast ones qf_j (their scaled expansions), j = 1..l:
 *   V = 1/4 [(qs1 - qf1)^4 + sum_{j=1}^{l-1} (qs_{j+1} - qf_{j+1} - qs_j - qf_j)^4 + (qs_l + qf_l)^4],
 *   W = omega^2/2 |qf|^2.
 * The value, gradient and Hessian of each potential are their own functions; the gradients and
 * Hessians add their terms into the arrays they are given (the model file's vmi.accumulate, as
 * kz_vmi_model's functions do), spring by spring.
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file fpu.lua and
 * compiled into the library's C API (kz_fpu.c: kz_vmi_fpu_model). */

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

/* gs or gf may be NULL (kz_vmi_model's V asked for one side only): its terms are left out */
static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  const int l = (int)p->l;
  for (int j = 0; j <= l; j++) {
    int idx[4], c;
    double cf[4];
    const double d = spring(l, j, qs, qf, idx, cf, &c), d2 = d * d;
    for (int k = 0; k < c; k++) {
      const double g = d2 * d * cf[k];
      if (idx[k] < l) { if (gs) gs[idx[k]] += g; }
      else if (gf) gf[idx[k] - l] += g;
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
