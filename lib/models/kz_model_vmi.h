/* kz_model_vmi.h -- a model source's mechanical split (the vmi part of lib/lua/kapitza/usermodel.lua's
 * format: V, V_gradient, V_hessian, W, W_gradient, W_hessian, gradients and Hessians adding into
 * their arrays) as kz_vmi_model's two functions, for the library's adapters (kz_fpu.c,
 * kz_ring.c): included after the model's source. Each output only when asked for; a gradient
 * asked into one array only is formed into it alone (V_gradient leaves out a NULL side), term by
 * term as the model adds them. */
#ifndef KZ_MODEL_VMI_H
#define KZ_MODEL_VMI_H

static int vmi_V(void *par, const double *qs, const double *qf, double *v, double *gs, double *gf, double *hess)
{
  const kz_par *p = par;
  if (v) KZ_TRY(V(p, qs, qf, v));
  if (gs || gf) KZ_TRY(V_gradient(p, qs, qf, gs, gf));
  return hess ? V_hessian(p, qs, qf, hess) : KZ_OK;
}

static int vmi_W(void *par, const double *qf, double *w, double *g, double *hess)
{
  const kz_par *p = par;
  if (w) KZ_TRY(W(p, qf, w));
  if (g) KZ_TRY(W_gradient(p, qf, g));
  return hess ? W_hessian(p, qf, hess) : KZ_OK;
}

#endif
