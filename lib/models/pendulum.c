/* pendulum.c -- the vibrated inverted pendulum of Calvo & Sanz-Serna, "Heterogeneous multiscale
 * methods for mechanical systems with vibrations" (SIAM J. Sci. Comput. 32, 2010), Sec. 2.1: q the
 * angle from the upward vertical, the pivot moved vertically with velocity
 * v(t) = vmax sin(omega t + theta0):
 *   (2.2)-(2.3)  q'' = l^-1 (g + a(t)) sin q,  a(t) = vmax omega cos(omega t + theta0);
 *   (2.9)        the fast-forced form p' = l^-1 (g + vmax omega cos theta) sin q, theta = omega t + theta0;
 *   (2.7)        the reconstruction of Algorithm 1 (micro data (2.10)): p = P + l^-1 vmax sin(theta) sin Q;
 *   (2.5)-(2.6)  the averaged equation Q'' = F(Q) = (g/l - vmax^2 / (2 l^2) cos Q) sin Q.
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file pendulum.lua
 * (parameters, the case of Fig. 2.1) and compiled into the library's C API (kz_pendulum.c:
 * kz_pendulum_sys, _vib, _averaged_sys, _averaged_force) and its ensemble (kz_pendulum_ens.c). */

/* (2.9): p' = l^-1 (g + vmax omega cos theta) sin q */
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  a[0] = (p->g + p->vmax * p->omega * cos(theta)) * sin(q[0]) / p->l;
  return KZ_OK;
}

/* (2.7): the micro velocity p = P + l^-1 vmax sin(theta) sin Q */
static int lift(const kz_par *p, double theta, const double *Y, double *y)
{
  y[0] = Y[0];
  y[1] = Y[1] + p->vmax * sin(theta) * sin(Y[0]) / p->l;
  return KZ_OK;
}

/* The Hamiltonian of (2.2)-(2.3) at the phase theta = omega t + theta0,
 * H = p^2 / 2 + l^-1 (g + vmax omega cos theta) cos q, whose p' = -dH/dq is (2.9): the ensembles'
 * final-state invariant (kz_pendulum_ens.c's kz_pendulum_ens_hamiltonian) */
static inline int hamiltonian(const kz_par *p, double theta, const double *y, double *H)
{
  H[0] = 0.5 * y[1] * y[1] + (p->g + p->vmax * p->omega * cos(theta)) * cos(y[0]) / p->l;
  return KZ_OK;
}

/* (2.6): F(Q) = (g/l - vmax^2 / (2 l^2) cos Q) sin Q */
static int averaged(const kz_par *p, const double *q, double *a)
{
  a[0] = (p->g / p->l - p->vmax * p->vmax / (2 * p->l * p->l) * cos(q[0])) * sin(q[0]);
  return KZ_OK;
}
