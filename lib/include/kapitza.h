/* kapitza.h -- the public header of libkapitza: includes every module header
 * (kapitza/NAME.h, one per module, GSL style; `#include <kapitza.h>` with -I naming this folder).
 *
 * Numerical integrators for highly oscillatory and multirate mechanical systems:
 * heterogeneous multiscale methods (Calvo & Sanz-Serna 2010; Sharp, Tsai & Engquist 2005;
 * Fredbo), stroboscopic averaging (Calvo, Chartier, Murua & Sanz-Serna 2011) and variational
 * multirate integrators (Ober-Bloebaum, Wenger, Gail & Leyendecker).
 *
 * Rules these headers keep, so that LuaJIT's ffi.cdef can read them verbatim (lib/lua/kapitza.lua
 * expands the includes of kapitza/NAME.h in place) once the lines that start with '#' are
 * dropped: constants are enums, never macros; no varargs; no struct is passed or returned by
 * value; every buffer is owned by the caller; every function that can fail returns
 * an int status (enum kz_status) explained by kz_strerror(); nothing here aborts or keeps global
 * mutable state, so two runs in one process never interfere.
 *
 * Layers
 *  1. Systems (kz_sys): y' = f(t, y) with optional structure (second-order form, split flows).
 *  2. The stepper registry (kz_step_type): every one-step method, written once, in one table;
 *     the drivers kz_run / kz_trajectory integrate any system with any registered stepper.
 *  3. Methods composed from steppers: HMM (kz_hmm_*), SAM / LISP / multirevolution (kz_sam_*,
 *     kz_mr_*), the ode45 controller, variational multirate integrators (kz_vmi_*).
 *  4. Models: each fills the system structs its methods need and owns its reconstruction.
 *
 * Conventions
 *  - A "report" (kz_report) is passed to every method: it counts the work done (micro-steps,
 *    force/right-hand-side evaluations, macro steps, Newton iterations, rejected steps) and, when
 *    a call fails, names the offending parameter and the step/time at which it failed.
 *  - Work counters are accumulated, never reset by a method: call kz_report_init() first.
 *  - A failed call leaves the caller's state arrays as they were on entry, unless the function's
 *    comment says otherwise.
 *  - Arguments are checked once per call of a run or leg, never once per step.
 */
#ifndef KAPITZA_H
#define KAPITZA_H

#include <stddef.h>

/* The modules, in the order of their layers (each header includes what it needs). */
#include <kapitza/core.h>
#include <kapitza/step.h>
#include <kapitza/linalg.h>
#include <kapitza/hmm.h>
#include <kapitza/sam.h>
#include <kapitza/vmi.h>
#include <kapitza/con.h>
#include <kapitza/models.h>
#include <kapitza/ens.h>
#include <kapitza/runner.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version: written here and nowhere else. The Makefile reads it for the installed shared
 * library (libkapitza.so.MAJOR.MINOR.PATCH, SONAME libkapitza.so.MAJOR) and kapitza.pc; the Lua
 * binding reads it through ffi.cdef (kz.version); user models compiled from C source include it
 * in their cache key. */
enum kz_version { KZ_VERSION_MAJOR = 0, KZ_VERSION_MINOR = 3, KZ_VERSION_PATCH = 0 };

#ifdef __cplusplus
}
#endif

#endif
