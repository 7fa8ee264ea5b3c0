/* kz_models_f.h -- the force formulas of the built-in pendulum models, written once and used by
 * their scalar form (kz_pendulum.c, kz_ste.c) and their vectorised ensemble form
 * (kz_ens_models.c), so that an ensemble member computes what its scalar run computes, operation
 * for operation (only the sines and cosines may come from the vector math library). Not part of
 * the public API. */
#ifndef KZ_MODELS_F_H
#define KZ_MODELS_F_H

/* Calvo & Sanz-Serna (2.9): p' = l^-1 (g + vmax omega cos theta) sin q */
static inline double kz_pendulum_f(double g, double vmax, double omega, double l, double cos_theta,
                                   double sin_q)
{
  return (g + vmax * omega * cos_theta) * sin_q / l;
}

/* (2.7): the micro velocity p = P + l^-1 vmax sin(theta) sin Q */
static inline double kz_pendulum_lift(double P, double vmax, double l, double sin_theta, double sin_Q)
{
  return P + vmax * sin_theta * sin_Q / l;
}

/* Sharp, Tsai & Engquist (1.1) at the fast phase theta = 2 pi t / eps: l^-1 (g + eps^-1 sin theta) sin q */
static inline double kz_ste_f(double g, double eps, double l, double sin_theta, double sin_q)
{
  return (g + sin_theta / eps) * sin_q / l;
}

/* (3.4): omega_n = Omega_n - sin Theta_n cos(theta) / (2 pi l) */
static inline double kz_ste_recon(double Omega, double l, double sin_Theta, double cos_theta)
{
  return Omega - sin_Theta * cos_theta / (2 * KZ_PI * l);
}

/* the phase 2 pi frac(t / eps) of the time form */
static inline double kz_ste_phase(double t, double eps)
{
  const double c = t / eps;
  return 2 * KZ_PI * (c - floor(c));
}

#endif
