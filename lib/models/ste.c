/* ste.c -- the inverted pendulum of Sharp, Tsai & Engquist, "Multiple time scale numerical methods
 * for the inverted pendulum problem" (2005), theta the angle from the upward vertical, the pivot
 * forced with period eps:
 *   (1.1) = (3.1)  l theta'' = (g + eps^-1 sin(2 pi t / eps)) sin theta;
 *   (3.2)          the averaged equation l Theta'' = g sin Theta - sin Theta cos Theta / (8 pi^2 l);
 *   (3.4)          the reconstruction omega_n = Omega_n - sin Theta_n cos(2 pi t_n / eps) / (2 pi l);
 *   Sec. 4         the potential V(x) = g cos x + sin^2 x / (16 pi^2 l), l Theta'' = -V'(Theta).
 * Reading A1 of the notes: the whole right side is divided by l (the printed (3.3)-(3.4) omit the
 * 1/l that the reconstruction, theta_s = 0.23 and "roughly three oscillations in [0, 12]" need).
 * The fast phase is theta = 2 pi t / eps (omega = 2 pi / eps); the time form reduces it to
 * 2 pi frac(t / eps) before the sine (exact at every multiple of eps: the absolute-time phase
 * omega t adds round-off that grows with t, notes A13).
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file ste.lua and
 * compiled into the library's C API (kz_ste.c) and its ensemble (kz_ste_ens.c). */

/* (1.1) at the fast phase theta = 2 pi t / eps: l^-1 (g + eps^-1 sin theta) sin q */
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  a[0] = (p->g + sin(theta) / p->eps) * sin(q[0]) / p->l;
  return KZ_OK;
}

/* The Hamiltonian of (1.1) at the fast phase theta, H = p^2 / 2 + l^-1 (g + eps^-1 sin theta) cos q,
 * whose p' = -dH/dq is (1.1): the ensembles' final-state invariant (kz_ste_ens.c's
 * kz_ste_ens_hamiltonian, at the time form's phase) */
static inline int hamiltonian(const kz_par *p, double theta, const double *y, double *H)
{
  H[0] = 0.5 * y[1] * y[1] + (p->g + sin(theta) / p->eps) * cos(y[0]) / p->l;
  return KZ_OK;
}

/* the phase 2 pi frac(t / eps) of the time form */
static double phase(const kz_par *p, double t)
{
  const double c = t / p->eps;
  return 2 * 3.14159265358979323846 * (c - floor(c));
}

/* (3.4): theta_n = Theta_n, omega_n = Omega_n - sin Theta_n cos(theta) / (2 pi l) */
static int recon(const kz_par *p, double theta, const double *Y, double *y)
{
  y[0] = Y[0];
  y[1] = Y[1] - sin(Y[0]) * cos(theta) / (2 * 3.14159265358979323846 * p->l);
  return KZ_OK;
}

/* (3.2) divided by l */
static int averaged(const kz_par *p, const double *q, double *a)
{
  const double s = sin(q[0]);
  a[0] = (p->g * s - s * cos(q[0]) / (8 * 3.14159265358979323846 * 3.14159265358979323846 * p->l)) / p->l;
  return KZ_OK;
}

/* Sec. 4: V(x) = g cos x + sin^2 x / (16 pi^2 l), whose energy l Omega^2 / 2 + V(Theta) (3.2)
 * conserves (the C API's kz_ste_potential; the model file's helpers potential and energy) */
static inline double potential(const kz_par *p, double x)
{
  const double s = sin(x);
  return p->g * cos(x) + s * s / (16 * 3.14159265358979323846 * 3.14159265358979323846 * p->l);
}
