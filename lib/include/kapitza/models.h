/* kapitza/models.h -- The models the papers run: each fills the system structs of its methods and
 * owns its reconstruction (kz_pendulum.c, kz_ste.c, kz_fpu.c, kz_ring.c, kz_harmonic.c,
 * kz_kepler.c, kz_vdp.c, kz_dpend.c, kz_top.c: adapters around each model's one source,
 * lib/models/<name>.c, which its model file <name>.lua reads too; the parameter structs' fields
 * carry the names that source reads). Part of libkapitza's public header: included by
 * kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_MODELS_H
#define KAPITZA_MODELS_H

#include <kapitza/hmm.h>
#include <kapitza/sam.h>
#include <kapitza/vmi.h>
#include <kapitza/con.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Vibrated pendulums                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Vibrated inverted pendulum, Calvo & Sanz-Serna (2.2)-(2.3), q measured from the upward
 * vertical: q'' = l^-1 (g + vmax omega cos(omega t + theta0)) sin q (kz_pendulum.c). */
typedef struct kz_pendulum {
  double l;      /* rod length [m] */
  double g;      /* gravity [m s^-2] */
  double vmax;   /* amplitude of the pivot velocity [m s^-1] */
  double omega;  /* angular frequency of the vibration [s^-1] */
  double theta0; /* phase at t = 0 [rad] */
} kz_pendulum;

/* The fast-forced form (2.9) with the velocity lift (2.7) as its reconstruction:
 * y = (Q, P + l^-1 vmax sin(theta) sin Q). p must outlive m. */
int kz_pendulum_vib(kz_vib *m, kz_pendulum *p, kz_report *r);
/* The same system in time form, q'' = a(t, q), y = (q, v), for direct integration. */
int kz_pendulum_sys(kz_sys *s, kz_pendulum *p, kz_report *r);
/* The averaged equation (2.5)-(2.6): Q'' = F(Q) = (g/l - vmax^2/(2 l^2) cos Q) sin Q. */
int kz_pendulum_averaged_sys(kz_sys *s, kz_pendulum *p, kz_report *r);
/* F(Q) of (2.6), evaluated directly (NaN for a NULL p or a non-finite Q). */
double kz_pendulum_averaged_force(const kz_pendulum *p, double Q);

/* The inverted pendulum of Sharp, Tsai & Engquist (1.1) = (3.1), theta from the upward vertical
 * (kz_ste.c): l theta'' = (g + eps^-1 sin(2 pi t / eps)) sin theta, the whole right side divided
 * by l (notes A1). Phase theta = 2 pi t / eps (omega = 2 pi / eps). */
typedef struct kz_ste {
  double eps; /* period of the forcing [s] */
  double g;   /* [m s^-2] */
  double l;   /* [m] */
} kz_ste;

/* The fast-forced form with the reconstruction (3.4): y = (Theta, Omega - sin(Theta)
 * cos(theta_n) / (2 pi l)). */
int kz_ste_vib(kz_vib *m, kz_ste *p, kz_report *r);
/* The full equation (1.1) in time form, y = (theta, omega); the phase is 2 pi frac(t/eps)
 * (exact for t on the grid of eps). */
int kz_ste_sys(kz_sys *s, kz_ste *p, kz_report *r);
/* The averaged equation (3.2): Theta'' = (g sin Theta - sin Theta cos Theta / (8 pi^2 l)) / l. */
int kz_ste_averaged_sys(kz_sys *s, kz_ste *p, kz_report *r);
/* The averaged force of (3.2) (NaN for a NULL p or a non-finite Theta). */
double kz_ste_averaged_force(const kz_ste *p, double Theta);
/* The effective potential V(x) = g cos x + sin^2 x / (16 pi^2 l) of Sec. 4, whose energy
 * l Omega^2/2 + V(Theta) (3.2) conserves. */
double kz_ste_potential(const kz_ste *p, double Theta);

/* ---------- Models (kz_fpu.c, kz_ring.c, kz_harmonic.c) ----------------------------------------- */

/* Fermi-Pasta-Ulam, Sec. 6 (Hairer, Lubich & Wanner I.5.1): l stiff springs, unit masses,
 * V = 1/4 [(qs_1 - qf_1)^4 + sum_{i<l} (qs_{i+1} - qf_{i+1} - qs_i - qf_i)^4 + (qs_l + qf_l)^4],
 * W = omega^2 / 2 |qf|^2; ns = nf = l. */
typedef struct kz_vmi_fpu {
  int l;
  double omega;
} kz_vmi_fpu;
int kz_vmi_fpu_model(kz_vmi_model *m, kz_vmi_fpu *par, kz_report *r);

/* The 3-D spring ring of Sec. 6 (Fig. 6.2): n = 2 l masses (each `mass`) on a ring; odd masses
 * (1, 3, ...) are slow, even ones fast; qs, qf stack their 3-vectors. V = omega1/2 |qs|^2
 * + eps/4 sum_ring |q_{i+1} - q_i|^4 + gravity, W = omega2/2 |qf|^2. Gravity: g_sign = +1
 * gives the physical potential + g sum m_i z_i; g_sign = -1 the sign printed in the paper
 * (+q' M g with g = -g e3). */
typedef struct kz_vmi_ring {
  int l;
  double mass, eps, omega1, omega2, g;
  int g_sign;
} kz_vmi_ring;
int kz_vmi_ring_model(kz_vmi_model *m, kz_vmi_ring *par, kz_report *r);

/* Harmonic oscillator of Sec. 5: ns = 1, V = 1/2 omega_s^2 qs^2 (the 1/2 missing in (5.1));
 * with nf = 1 also a fast W = 1/2 omega_f^2 qf^2 (nf = 0: no fast variable). Unit masses. */
typedef struct kz_vmi_harmonic {
  int nf;
  double omega_s, omega_f;
} kz_vmi_harmonic;
int kz_vmi_harmonic_model(kz_vmi_model *m, kz_vmi_harmonic *par, kz_report *r);

/* ---------- Models (kz_kepler.c, kz_vdp.c) --------------------------------------------------- */

/* Perturbed Kepler problem (Sec. 2(iv), 5.1), in the fictitious time tau of (19):
 * y = (x1, x2, v1, v2), x' = lam v, v' = lam (-x/r^3 + eps G(x)), G = -grad V,
 * V = -1/(2 r^3) + 3 x1^2/(2 r^5), lam = (-2E)^(-3/2), E = |v|^2/2 - 1/r (the printed -2/r and
 * exponent 3/2 corrected). Period 2 pi in tau for eps = 0. */
typedef struct kz_kepler {
  double eps;
} kz_kepler;

/* The full system (19) and its splitting of Sec. 5.1.2 in one kz_sys (par = p, which must
 * outlive s): rhs, and flow_a = the perturbation by one implicit-midpoint step, flow_b = the
 * exact Kepler flow (so Strang = midpoint(h/2) o Kepler(h) o midpoint(h/2)). */
int kz_kepler_sys(kz_sys *s, kz_kepler *p, kz_report *r);
/* The exact unperturbed flow phi^(1)_tau (closed form, Kepler's equation by Newton):
 * yout = phi(tau)(y); needs E(y) < 0. yout may equal y. */
int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r);
/* The unperturbed Kepler energy E = |v|^2/2 - 1/r; NaN if y is NULL or not finite. */
double kz_kepler_energy(const double *y);

/* van der Pol (17), Sec. 5.2: y = (q, p), q' = p, p' = -q + eps (1 - q^2) p (tau time). */
typedef struct kz_vdp {
  double eps;
} kz_vdp;

/* The system and its splitting in one kz_sys: flow_a = the perturbation p' = eps (1 - q^2) p
 * (exact), flow_b = the rotation (exact). */
int kz_vdp_sys(kz_sys *s, kz_vdp *p, kz_report *r);

/* ---------- The vertically vibrated double pendulum (kz_dpend.c) ---------------------------- */

/* Calvo & Sanz-Serna (4.3) = Calvo et al. Sec. 6.2: masses m1, m2 on rigid rods l1 (pivot to
 * m1) and l2 (m1 to m2), y axis up, the pivot vibrating vertically with acceleration
 * a(t) = vmax omega cos(omega t + theta0) ((2.3); Calvo et al.: omega = 1/eps, theta0 = 0).
 * minv is filled by the constructors (the inverse masses (1/m1, 1/m1, 1/m2, 1/m2)). */
typedef struct kz_dpend {
  double m1, m2; /* masses [kg] */
  double l1, l2; /* rod lengths [m] */
  double g;      /* gravity [m s^-2] */
  double vmax;   /* amplitude of the pivot velocity [m s^-1] */
  double omega;  /* angular frequency of the vibration [s^-1] */
  double theta0; /* phase at t = 0 [rad] */
  double minv[4];
} kz_dpend;

/* The constraints x1^2 + y1^2 - l1^2 = 0, (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0 on
 * q = (x1, y1, x2, y2): m = 2, minv, tol = 1e-15 max(l1, l2)^2 (a few ulps of l^2),
 * max_iter = 50, lambda and stats NULL (set them after the call). p must outlive c. */
int kz_dpend_constraints(kz_constraints *c, kz_dpend *p, kz_report *r);
/* The Cartesian system in time form, y = (x1, y1, x2, y2, u1, v1, u2, v2), the applied
 * acceleration M^-1 f = (0, -(g + a(t)), 0, -(g + a(t))), con = c: SHAKE and RATTLE integrate
 * it as (4.1)-(4.3), HERK3 as the GGL form (37)-(40). p and c must outlive s. */
int kz_dpend_sys(kz_sys *s, kz_dpend *p, const kz_constraints *c, kz_report *r);
/* The same in the fast-forced form of the HMM (phase theta = omega t + theta0; even in theta). */
int kz_dpend_vib(kz_vib *m, kz_dpend *p, kz_report *r);
/* The angle-coordinate (Lagrangian) ODE, y = (q1, q2, q1', q2'), q1, q2 the absolute angles of
 * the rods from the upward vertical (x1 = l1 sin q1, y1 = l1 cos q1, x2 = x1 + l2 sin q2,
 * y2 = y1 + l2 cos q2), g_e = g + a(t):
 *   (m1+m2) l1^2 q1'' + m2 l1 l2 cos(q1-q2) q2'' = g_e (m1+m2) l1 sin q1 - m2 l1 l2 sin(q1-q2) q2'^2,
 *   m2 l1 l2 cos(q1-q2) q1'' + m2 l2^2 q2''        = g_e m2 l2 sin q2 + m2 l1 l2 sin(q1-q2) q1'^2.
 * The reference "in Lagrangian coordinates" of Calvo et al. Sec. 6.2. */
int kz_dpend_lagrange_sys(kz_sys *s, kz_dpend *p, kz_report *r);
/* The averaged (omega -> infinity) angle equations (Kapitza): the same mass matrix and
 * velocity terms with g_e = g and the effective potential V + (vmax^2/4) W(q),
 * W = grad Y' M(q)^-1 grad Y, Y = (m1+m2) l1 cos q1 + m2 l2 cos q2 (derived in kz_dpend.c;
 * for one rod it is (2.5)-(2.6)). Its solution is the slow motion up to O(1/omega). */
int kz_dpend_averaged_sys(kz_sys *s, kz_dpend *p, kz_report *r);
/* The Cartesian state (8 numbers, consistent: g = 0 and G v = 0) of the angles and angular
 * velocities ang = (q1, q2, q1', q2'). */
int kz_dpend_state(const kz_dpend *p, const double *ang, double *y, kz_report *r);

/* ---------- The heavy Lagrange top (kz_top.c) ------------------------------------------------ */

enum kz_top_forcing {
  KZ_TOP_FREE = 0,       /* (23) = (31) with Pi3 = omega Pi3^ */
  KZ_TOP_TRANSVERSE = 1, /* (38): a(t) = amp cos(nu t) added to dPi1/dt ((39): amp = nu = omega) */
  KZ_TOP_VERTICAL = 2    /* (41): g replaced by g + a(t), a(t) = amp nu cos(nu t) (amp = A) */
};
enum kz_top_avg {
  KZ_TOP_AVG_CORRECTED = 0, /* (48) with the coefficient 2 a^2 = M^2 A^2 l^2 / 2 (notes A14 ii) */
  KZ_TOP_AVG_PRINTED = 1,   /* the coefficient as printed in (48): M A / 2 */
  KZ_TOP_AVG_NONE = 2       /* no vibration term: the unforced top (23) */
};

typedef struct kz_top {
  double M, g, l;    /* mass [kg], gravity [m s^-2], fixed point to centre of mass [m] */
  double I1, I2, I3; /* principal moments of inertia about the fixed point [kg m^2] */
  int forcing;       /* enum kz_top_forcing */
  double amp;        /* forcing amplitude (TRANSVERSE: [kg m^2 s^-2]; VERTICAL: A [m s^-1]) */
  double nu;         /* forcing angular frequency [s^-1] (>= 0; > 0 when forced) */
  int avg;           /* enum kz_top_avg: the coefficient of kz_top_averaged_sys */
} kz_top;

/* The top as y' = f(t, y), y = x = (Pi1, Pi2, Pi3, Gamma1, Gamma2, Gamma3), chi = (0, 0, 1):
 * Pi' = Pi x Omega + M (g + a_V(t)) l Gamma x chi + (a_T(t), 0, 0), Gamma' = Gamma x Omega,
 * Omega = I^-1 Pi. p must outlive s. */
int kz_top_sys(kz_sys *s, kz_top *p, kz_report *r);
/* The same in phase form (theta = nu t) for the HMMs (omega = nu, theta0 = 0, identity
 * reconstruction). */
int kz_top_vib(kz_vib *m, kz_top *p, kz_report *r);
/* The averaged equation (48) (Pi x I^-1 Pi for the printed Gamma x I^-1 Pi, A14 i):
 * Pi' = Pi x Omega + M g l Gamma x chi + c (-Gamma2 Gamma3 / I1, Gamma1 Gamma3 / I2, 0),
 * Gamma' = Gamma x Omega, c by p->avg from amp = A (whatever p->forcing). */
int kz_top_averaged_sys(kz_sys *s, kz_top *p, kz_report *r);

enum kz_top_constant {
  KZ_TOP_PI3HAT = 0,    /* Pi3^ = sqrt(2 M g l I3) (Sec. 4.3) */
  KZ_TOP_MGL = 1,       /* M g l */
  KZ_TOP_THRESHOLD = 2, /* Theorem 2: 2 sqrt(M g l I1) / I3 [rad/s] */
  KZ_TOP_LAMBDA = 3,    /* body rotation rate of (Pi1, Pi2) per unit omega: Pi3^ (1/I3 - 1/I1) */
  KZ_TOP_SPIN = 4,      /* Omega3 per unit omega: Pi3^ / I3 */
  KZ_TOP_NUTATION = 5,  /* nutation rate per unit omega: Pi3^ / I1 */
  KZ_TOP_AVGCOEF = 6,   /* the coefficient c of kz_top_averaged_sys */
  KZ_TOP_CONSTANT_N = 7
};
/* The derived constants c[KZ_TOP_CONSTANT_N]. */
int kz_top_constants(const kz_top *p, double *c, kz_report *r);

enum kz_top_invariant {
  KZ_TOP_ENERGY = 0,  /* H (24) = 1/2 Pi . Omega + M g l Gamma3 */
  KZ_TOP_PIGAMMA = 1, /* Pi . Gamma */
  KZ_TOP_GAMMA2 = 2,  /* |Gamma|^2 */
  KZ_TOP_PI3 = 3,     /* Pi3 */
  KZ_TOP_INVARIANT_N = 4
};
/* The invariants at x (inv, KZ_TOP_INVARIANT_N numbers). */
int kz_top_invariants(const kz_top *p, const double *x, double *inv, kz_report *r);
/* Their changes I(x) - I(x0), computed without cancellation (differences of the components
 * first; addendum 9). */
int kz_top_drift(const kz_top *p, const double *x, const double *x0, double *d, kz_report *r);

enum kz_top_set {
  KZ_TOP_XI32 = 0, /* (32): Gamma3, Pi1^2 + Pi2^2, Gamma1^2 + Gamma2^2, Pi1 Gamma1 + Pi2 Gamma2 */
  KZ_TOP_XI37 = 1, /* (37): Pi1^2 + Pi2^2, phi', theta', psi' (the inversion of (29)) */
  KZ_TOP_XI40 = 2, /* (40): Pi1 - (amp/nu) sin theta, Pi2 + (amp/nu) cos theta,
                    * Gamma1^2 + Gamma2^2, arccos Gamma3 (theta = nu t) */
  KZ_TOP_SET_END = 3
};
/* The slow set (xi2 .. xi5 of the thesis, r = 4; xi1 = Pi3 is frozen) on the top p (which must
 * outlive s). */
int kz_top_slow(kz_slow *s, kz_top *p, int set, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
