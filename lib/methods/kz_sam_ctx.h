/* kz_sam_ctx.h -- the recovered averaged field of SAM (kz_sam.c), shared by SAM for ODEs
 * (kz_sam.c) and for index-2 DAEs (kz_sam_dae.c); not part of the public API. */
#ifndef KZ_SAM_CTX_H
#define KZ_SAM_CTX_H
#include "kz_internal.h"

typedef struct kz_sam_ctx {
  const kz_micro *m;
  const kz_sam_params *p;
  int d;
  double *work, *a, *b, *c, *e; /* micro workspace and four state buffers */
  kz_report rep;                /* micro-solver counts (the macro-solver has its own) */
} kz_sam_ctx;

/* Validation of the micro-solver and of the parameters (once per run). */
int kz_sam_check_micro(const kz_micro *m, kz_report *r);
int kz_sam_check_params(const kz_sam_params *p, kz_report *r);
/* Allocate the micro workspace (x->rep zeroed). */
int kz_sam_ctx_open(kz_sam_ctx *x, const kz_micro *m, const kz_sam_params *p, kz_report *r);
/* Add the micro counts and `macro` macro steps (and mrep's rejected) to r, free; on failure
 * (st != KZ_OK) name the micro-solver's parameter, else mrep's, with mrep's step and time. */
int kz_sam_ctx_close(kz_sam_ctx *x, int st, const kz_report *mrep, long long macro, kz_report *r);
/* F~(Y) by p->diff from micro-integrations that start at p->t0 (Psi^{+-1}, Psi^{+-2}). */
int kz_sam_field(kz_sam_ctx *x, const double *Y, double *F);
/* The same as a kz_rhs_fn (par = the context; t ignored: the averaged system is autonomous). */
int kz_sam_rhs(void *par, double t, const double *Y, double *F);

#endif
