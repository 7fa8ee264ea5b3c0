/* kz_hmm_slow.c -- the HMM based on slow variables (Ariel, Engquist & Tsai, Math. Comp. 78 (2009)
 * 929-956), as M. Fredbo, "The Heterogeneous Multiscale Method and the Spinning Top" (MSc thesis,
 * NTNU 2011) writes it in Algorithms 3 and 4:
 *  1. micro-simulation of the full system (19)/(31) from x_n over the centred window
 *     [t_n - eta/2, t_n + eta/2] (forward and backward from t_n, any registry micro stepper);
 *  2. averaging (21), Alg. 4 step 3b: d/dt xi_k ~ (K_{eta/2} * d/dt xi_k)(t_n), with
 *     d/dt xi_k = grad xi_k . f + omega d xi_k / d theta along the micro solution, by the
 *     trapezoidal rule with the (normalised) kernel weights;
 *  3. reconstruction, Alg. 4 step 4a: grad xi(x_n) delta_n = d/dt xi (r equations) solved by least
 *     squares over the components that are not frozen (xi1 = Pi3 is never solved for): the
 *     minimum-norm solution by default, MATLAB's basic solution as an option (kz_lsq.c);
 *  4. macro step: FE x_{n+1} = x_n + H delta_n, or LF x_{n+1} = x_{n-1} + 2 H delta_n started by
 *     one FE step (notes A4; Heun as an option).
 * Readings (notes Sec. 6): the printed right-hand sides xi_k, K * xi_k, "xi2(t_n)" are d/dt xi
 * (A6); the micro data are x_n, the printed predictor x_n + H delta_{n-1} of Alg. 4 step 2 is an
 * option (A3); for slow variables with an explicit time dependence (40) the solve takes the
 * averaged total derivative (A13 a), or, as an option, corrects it by the change of xi's explicit
 * time part over the step (A13 b). The gradient is the set's analytic one, or, as an option,
 * central differences of xi (which is what makes long windows necessary for the set (37): the
 * differences carry round-off of size eps |psi'| / step that grad xi . f multiplies by the
 * O(omega) fast field, and only a long average removes it). The window machinery (micro legs, phase, kernel weights) is
 * the general HMM's (kz_hmm.c, through kz_hmm_ctx.h): this file only adds the observable
 * grad xi . f, the least-squares solve and the macro schemes. */
#include "kz_hmm_ctx.h"
#include <stdlib.h>
#include <string.h>

enum { SLOW_MAXDIM = 64 };

typedef struct slow_ctx {
  kz_hmm_ctx x;        /* the general HMM's window machinery */
  kz_hmm_params hp;    /* its parameters, from the kz_slow_params */
  const kz_slow *s;
  const kz_slow_params *p;
  int d, r, nfree;
  int free_idx[SLOW_MAXDIM];
  double *buf;
  double *oxi, *ograd, *oxit;             /* scratch of the observable */
  double *xi, *grad, *J, *b, *dfree, *lsqw; /* scratch of the solve */
  double *dxi, *delta, *delta1, *y0, *xt, *adj, *fdx, *fda, *fdb;
} slow_ctx;

/* xi, grad xi (and d xi / d theta when xt is not NULL) at (theta, x): the set's own gradient, or
 * central differences with steps fd_step max(1, |x_j|). */
static int slow_eval(slow_ctx *c, double theta, const double *x, double *xi, double *grad,
                     double *xt)
{
  const kz_slow *s = c->s;
  const double e = c->p->fd_step;
  if (!(e > 0)) return s->eval(s->par, theta, x, xi, grad, xt);
  KZ_TRY(s->eval(s->par, theta, x, xi, NULL, xt));
  const int d = c->d, rr = c->r;
  memcpy(c->fdx, x, sizeof(double) * (size_t)d);
  for (int j = 0; j < d; j++) {
    const double dj = e * fmax(1.0, fabs(x[j]));
    c->fdx[j] = x[j] + dj;
    KZ_TRY(s->eval(s->par, theta, c->fdx, c->fda, NULL, NULL));
    c->fdx[j] = x[j] - dj;
    KZ_TRY(s->eval(s->par, theta, c->fdx, c->fdb, NULL, NULL));
    c->fdx[j] = x[j];
    for (int k = 0; k < rr; k++) grad[(size_t)k * d + j] = (c->fda[k] - c->fdb[k]) / (2 * dj);
  }
  return KZ_OK;
}

/* The observable of the window: d/dt xi = grad xi(y) . f + omega d xi / d theta. */
static int observe(void *par, double theta, const double *y, const double *f, double *out)
{
  slow_ctx *c = par;
  const int d = c->d;
  const int st = slow_eval(c, theta, y, c->oxi, c->ograd, c->oxit);
  if (st != KZ_OK) return st;
  for (int k = 0; k < c->r; k++) {
    const double *g = c->ograd + (size_t)k * d;
    double v = c->x.m->omega * c->oxit[k];
    for (int j = 0; j < d; j++) v += g[j] * f[j];
    out[k] = v;
  }
  return KZ_OK;
}

static int check_slow(const kz_slow *s, const kz_vib *m, kz_report *r)
{
  if (!s || !s->eval) return kz_bad(r, KZ_ENULL, "slow");
  if (s->dim != m->dim || s->dim > SLOW_MAXDIM) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (s->r < 1 || s->r > s->dim) return kz_bad(r, KZ_EDOMAIN, "r");
  return KZ_OK;
}

static int check_params(const kz_slow_params *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "params");
  if (p->macro < 0 || p->macro >= KZ_SLOW_MACRO_END) return kz_bad(r, KZ_EDOMAIN, "macro");
  if (p->start != KZ_START_FE && p->start != KZ_START_HEUN) return kz_bad(r, KZ_EDOMAIN, "start");
  if (p->lsq != KZ_LSQ_MINNORM && p->lsq != KZ_LSQ_BASIC) return kz_bad(r, KZ_EDOMAIN, "lsq");
  if (p->predictor != KZ_PREDICT_NONE && p->predictor != KZ_PREDICT_LITERAL)
    return kz_bad(r, KZ_EDOMAIN, "predictor");
  if (p->time_update != KZ_SLOW_TIME_LITERAL && p->time_update != KZ_SLOW_TIME_CONSISTENT)
    return kz_bad(r, KZ_EDOMAIN, "time_update");
  KZ_TRY(kz_check_num(r, p->fd_step, "fd_step", 0));
  if (p->fd_step < 0) return kz_bad(r, KZ_EDOMAIN, "fd_step");
  return KZ_OK;
}

static void slow_close(slow_ctx *c)
{
  kz_hmm_close(&c->x);
  free(c->buf);
  c->buf = NULL;
}

static int slow_open(slow_ctx *c, const kz_vib *m, const kz_slow *s, const kz_slow_params *p,
                     kz_report *r)
{
  memset(c, 0, sizeof *c);
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check_params(p, r));
  KZ_TRY(check_slow(s, m, r));
  c->hp.micro = p->micro, c->hp.kernel = p->kernel, c->hp.kernel_constant = p->kernel_constant;
  c->hp.phase = p->phase, c->hp.recon = KZ_RECON_IDENTITY;
  c->hp.H = p->H, c->hp.T = p->T, c->hp.eta = p->eta, c->hp.h = p->h;
  KZ_TRY(kz_hmm_open(&c->x, m, &c->hp, s->r, r)); /* checks the model, micro, kernel, eta, h */
  c->s = s, c->p = p, c->d = s->dim, c->r = s->r;
  for (int j = 0; j < c->d; j++)
    if (!s->frozen || !s->frozen[j]) c->free_idx[c->nfree++] = j;
  if (c->nfree < 1) {
    kz_hmm_close(&c->x);
    return kz_bad(r, KZ_EDOMAIN, "frozen");
  }
  const size_t d = (size_t)c->d, rr = (size_t)c->r;
  const size_t n = 2 * rr + 2 * rr * d + rr * (size_t)c->nfree + rr + d + kz_lsq_work(c->r, c->nfree) +
                   rr + 4 * d + 2 * rr + d + 2 * rr;
  c->buf = malloc(sizeof(double) * n);
  if (!c->buf) {
    kz_hmm_close(&c->x);
    return kz_bad(r, KZ_ENOMEM, "work");
  }
  double *b = c->buf;
  c->oxi = b, b += rr;
  c->oxit = b, b += rr;
  c->ograd = b, b += rr * d;
  c->grad = b, b += rr * d;
  c->J = b, b += rr * (size_t)c->nfree;
  c->b = b, b += rr;
  c->dfree = b, b += d;
  c->lsqw = b, b += kz_lsq_work(c->r, c->nfree);
  c->dxi = b, b += rr;
  c->delta = b, b += d;
  c->delta1 = b, b += d;
  c->y0 = b, b += d;
  c->xt = b, b += d;
  c->adj = b, b += rr;
  c->xi = b, b += rr;
  c->fdx = b, b += d;
  c->fda = b, b += rr;
  c->fdb = b;
  return KZ_OK;
}

/* The phase at macro node k (t = k H) or, for k < 0, at time t. */
static double theta_at(slow_ctx *c, long long k, double t)
{
  kz_hmm_set_phase(&c->x, k, t);
  return c->x.theta_s;
}

/* One estimate at node k / time t from the micro data y0: dxi (r) and, when delta is not NULL,
 * the least-squares delta (d) with the gradient at xj and the right-hand side dxi + adj. */
static int estimate(slow_ctx *c, long long k, double t, const double *y0, const double *xj,
                    const double *adj, double *dxi, double *delta, kz_report *r)
{
  const double theta = theta_at(c, k, t);
  KZ_TRY(kz_hmm_window(&c->x, y0, observe, c, 0, c->r, dxi, r));
  if (!delta) return KZ_OK;
  const int d = c->d, nf = c->nfree;
  int st = slow_eval(c, theta, xj, c->xi, c->grad, NULL);
  if (st != KZ_OK) return kz_fail(r, st, "slow", -1, t);
  for (int i = 0; i < c->r; i++) {
    for (int j = 0; j < nf; j++) c->J[(size_t)i * nf + j] = c->grad[(size_t)i * d + c->free_idx[j]];
    c->b[i] = dxi[i] + (adj ? adj[i] : 0.0);
  }
  if (!kz_all_finite(c->J, c->r * nf)) return kz_fail(r, KZ_EDIVERGED, "slow", -1, t);
  KZ_TRY(kz_lsq_solve(c->p->lsq, c->r, nf, c->J, c->b, c->dfree, NULL, c->lsqw, r));
  if (r) r->jac_evals++; /* one gradient matrix assembled and solved */
  for (int j = 0; j < d; j++) delta[j] = 0;
  for (int j = 0; j < nf; j++) delta[c->free_idx[j]] = c->dfree[j];
  return KZ_OK;
}

int kz_slow_values(const kz_slow *s, double theta, const double *x, double *xi, double *grad,
                   kz_report *r)
{
  if (!s || !s->eval) return kz_bad(r, KZ_ENULL, "slow");
  if (s->dim < 1 || s->r < 1 || s->r > s->dim) return kz_bad(r, KZ_EDOMAIN, "r");
  KZ_TRY(kz_check_num(r, theta, "theta", 0));
  KZ_TRY(kz_check_vec(r, x, s->dim, "x"));
  if (!xi) return kz_bad(r, KZ_ENULL, "xi");
  const int st = s->eval(s->par, theta, x, xi, grad, NULL);
  return st == KZ_OK ? KZ_OK : kz_bad(r, st, "slow");
}

int kz_slow_force(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, double t,
                  const double *x, double *dxi, double *delta, kz_report *r)
{
  slow_ctx c;
  KZ_TRY(slow_open(&c, m, s, p, r));
  int st = KZ_OK;
  if (!isfinite(t)) st = kz_bad(r, KZ_ENONFINITE, "t");
  else if ((st = kz_check_vec(r, x, m->dim, "x")) != KZ_OK) {
  } else if (!dxi) st = kz_bad(r, KZ_ENULL, "dxi");
  else st = estimate(&c, -1, t, x, x, NULL, dxi, delta, r);
  slow_close(&c);
  return st;
}

/* adj = [xi(theta_a, xa) - xi(theta_b, xa)] / span: the explicit time part of xi over the step
 * (A13 b); zero in the literal reading. */
static int time_adjust(slow_ctx *c, long long ka, long long kb, const double *xa, double span,
                       kz_report *r)
{
  const double H = c->p->H;
  for (int i = 0; i < c->r; i++) c->adj[i] = 0;
  if (c->p->time_update != KZ_SLOW_TIME_CONSISTENT) return KZ_OK;
  int st = c->s->eval(c->s->par, theta_at(c, ka, (double)ka * H), xa, c->adj, NULL, NULL);
  if (st == KZ_OK) st = c->s->eval(c->s->par, theta_at(c, kb, (double)kb * H), xa, c->xi, NULL, NULL);
  if (st != KZ_OK) return kz_fail(r, st, "slow", ka, (double)ka * H);
  for (int i = 0; i < c->r; i++) c->adj[i] = (c->adj[i] - c->xi[i]) / span;
  return KZ_OK;
}

static int record(slow_ctx *c, long long k, const double *x, double *xi_out, kz_report *r)
{
  const double t = (double)k * c->p->H;
  if (!kz_all_finite(x, c->d)) return kz_fail(r, KZ_EDIVERGED, "x", k, t);
  if (!xi_out) return KZ_OK;
  const int st = c->s->eval(c->s->par, theta_at(c, k, t), x, xi_out + (size_t)k * c->r, NULL, NULL);
  return st == KZ_OK ? KZ_OK : kz_fail(r, st, "slow", k, t);
}

int kz_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, const double *x0,
                double *x_out, long long nout, double *xi_out, kz_report *r)
{
  slow_ctx c;
  KZ_TRY(slow_open(&c, m, s, p, r));
  int st = KZ_OK;
  long long N = -1;
  if ((st = kz_check_num(r, p->H, "H", 1)) != KZ_OK || (st = kz_check_num(r, p->T, "T", 1)) != KZ_OK) {
  } else if (p->T < p->H) st = kz_bad(r, KZ_EDOMAIN, "T");
  else if ((N = kz_steps_in(p->T, p->H)) < 1) st = kz_bad(r, KZ_EGRID, "T");
  else if ((st = kz_check_vec(r, x0, m->dim, "x0")) != KZ_OK) {
  } else if (!x_out) st = kz_bad(r, KZ_ENULL, "x_out");
  else if (nout < N + 1) st = kz_bad(r, KZ_EBUFFER, "x_out");
  if (st != KZ_OK) {
    slow_close(&c);
    return st;
  }
  /* the EXACT phase on the macro grid, as kz_hmm_run: frac(n c), c = H omega / 2 pi */
  const double cyc = p->H * m->omega / (2 * KZ_PI), cw = nearbyint(cyc);
  c.x.cycles_frac = fabs(cyc - cw) <= 1e-9 * fmax(1.0, fabs(cyc)) ? 0.0 : cyc - cw;
  const int d = c.d;
  const double H = p->H;
  const int lf = p->macro == KZ_SLOW_LEAPFROG;
  memcpy(x_out, x0, sizeof(double) * (size_t)d);
  st = record(&c, 0, x_out, xi_out, r);
  for (long long n = 0; n < N && st == KZ_OK; n++) {
    const double t = (double)n * H;
    const double *xn = x_out + (size_t)n * d;
    double *x1 = x_out + (size_t)(n + 1) * d;
    const int two = lf && n > 0; /* the two-step leapfrog from x_{n-1} */
    const double *xa = two ? xn - d : xn;
    memcpy(c.y0, xn, sizeof(double) * (size_t)d);
    if (p->predictor == KZ_PREDICT_LITERAL && n > 0)
      for (int j = 0; j < d; j++) c.y0[j] += H * c.delta[j]; /* delta_{n-1} */
    if ((st = time_adjust(&c, two ? n - 1 : n, n + 1, xa, two ? 2 * H : H, r)) != KZ_OK) break;
    if ((st = estimate(&c, n, t, c.y0, xn, c.adj, c.dxi, c.delta, r)) != KZ_OK) {
      st = kz_fail(r, st, r ? r->param : "F", n, t);
      break;
    }
    if (two) {
      for (int j = 0; j < d; j++) x1[j] = xa[j] + 2 * H * c.delta[j];
    } else if (lf && p->start == KZ_START_HEUN) { /* n = 0 */
      for (int j = 0; j < d; j++) c.xt[j] = xn[j] + H * c.delta[j];
      st = estimate(&c, 1, H, c.xt, c.xt, c.adj, c.dxi, c.delta1, r);
      if (st != KZ_OK) {
        st = kz_fail(r, st, r ? r->param : "F", n, t);
        break;
      }
      for (int j = 0; j < d; j++) x1[j] = xn[j] + 0.5 * H * (c.delta[j] + c.delta1[j]);
    } else {
      for (int j = 0; j < d; j++) x1[j] = xn[j] + H * c.delta[j];
    }
    if ((st = record(&c, n + 1, x1, xi_out, r)) == KZ_OK && r) r->macro_steps++;
  }
  slow_close(&c);
  return st;
}
