/* peer_sundials.c -- SUNDIALS 6.4 on a kapitza system (Hindmarsh et al., "SUNDIALS: Suite of
 * nonlinear and differential/algebraic equation solvers", ACM TOMS 31 (2005); user guides of
 * CVODE and ARKODE v6.4):
 *  - CVODE, CV_ADAMS with the fixed-point nonlinear solver (SUNNonlinSol_FixedPoint, the usual
 *    choice for non-stiff problems), CV_BDF with Newton and a dense direct linear solver
 *    (SUNLinSol_Dense; CVODE's own difference-quotient Jacobian, whose field evaluations are
 *    counted by our wrapper);
 *  - ARKODE ERKStep with the Butcher table ARKODE_VERNER_8_5_6 (Verner's 8(5,6) pair);
 *  - ARKODE MRIStep (MRI-GARK, its default explicit table, order 3): the slow field s - fast with
 *    the fixed slow step H (SUNDIALS 6 has no adaptive slow step), the fast field integrated by
 *    an explicit ARKStep inner stepper with adaptive steps at the same tolerances.
 * Every peer uses scalar tolerances (CVodeSStolerances, ...) and no step cap. */
#include "peers_internal.h"
#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <arkode/arkode_mristep.h>
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

/* Field callbacks: 0 on success, a positive value (recoverable: the peer retries with a smaller
 * step) when the model refuses the point. */
static int f_full(realtype t, N_Vector y, N_Vector f, void *par)
{
  kzp_ctx *c = par;
  return kzp_eval(c, c->s, t, N_VGetArrayPointer(y), N_VGetArrayPointer(f)) == KZ_OK ? 0 : 1;
}
static int f_fast(realtype t, N_Vector y, N_Vector f, void *par)
{
  kzp_ctx *c = par;
  return kzp_eval(c, c->fast, t, N_VGetArrayPointer(y), N_VGetArrayPointer(f)) == KZ_OK ? 0 : 1;
}
static int f_slow(realtype t, N_Vector y, N_Vector f, void *par)
{
  return kzp_eval_slow(par, t, N_VGetArrayPointer(y), N_VGetArrayPointer(f)) == KZ_OK ? 0 : 1;
}

int kzp_sundials_run(int method, kzp_ctx *c, double H, double t0, double t1, double *y, double rtol,
                     double atol, kzp_result *res)
{
  SUNContext ctx = NULL;
  if (SUNContext_Create(NULL, &ctx) != 0) return res->status = KZ_ENOMEM;
  N_Vector v = N_VMake_Serial(c->dim, y, ctx); /* integrates in place on y */
  void *mem = NULL, *inner = NULL;
  MRIStepInnerStepper stepper = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver LS = NULL;
  SUNNonlinearSolver NLS = NULL;
  realtype t = t0;
  long int nst = 0, nfail = 0, nfst = 0;
  int flag = v ? 0 : -1;
  if (flag == 0 && (method == KZP_CVODE_ADAMS || method == KZP_CVODE_BDF)) {
    mem = CVodeCreate(method == KZP_CVODE_ADAMS ? CV_ADAMS : CV_BDF, ctx);
    flag = mem ? CVodeInit(mem, f_full, t0, v) : -1;
    if (flag == 0) flag = CVodeSStolerances(mem, rtol, atol);
    if (flag == 0) flag = CVodeSetUserData(mem, c);
    if (flag == 0) flag = CVodeSetMaxNumSteps(mem, -1); /* negative: no limit */
    if (flag == 0 && method == KZP_CVODE_ADAMS) {
      NLS = SUNNonlinSol_FixedPoint(v, 0, ctx);
      flag = NLS ? CVodeSetNonlinearSolver(mem, NLS) : -1;
    } else if (flag == 0) {
      A = SUNDenseMatrix(c->dim, c->dim, ctx);
      LS = A ? SUNLinSol_Dense(v, A, ctx) : NULL;
      flag = LS ? CVodeSetLinearSolver(mem, LS, A) : -1;
    }
    if (flag == 0) flag = CVode(mem, t1, v, &t, CV_NORMAL);
    if (mem) {
      long int nje = 0;
      CVodeGetNumSteps(mem, &nst);
      CVodeGetNumErrTestFails(mem, &nfail);
      if (method == KZP_CVODE_BDF && CVodeGetNumJacEvals(mem, &nje) == 0) c->nj += nje; /* its own DQ Jacobians */
      CVodeFree(&mem);
    }
  } else if (flag == 0 && method == KZP_ARK_ERK8) {
    mem = ERKStepCreate(f_full, t0, v, ctx);
    flag = mem ? ERKStepSetTableNum(mem, ARKODE_VERNER_8_5_6) : -1;
    if (flag == 0) flag = ERKStepSStolerances(mem, rtol, atol);
    if (flag == 0) flag = ERKStepSetUserData(mem, c);
    if (flag == 0) flag = ERKStepSetMaxNumSteps(mem, -1);
    if (flag == 0) flag = ERKStepEvolve(mem, t1, v, &t, ARK_NORMAL);
    if (mem) { ERKStepGetNumSteps(mem, &nst); ERKStepGetNumErrTestFails(mem, &nfail); ERKStepFree(&mem); }
  } else if (flag == 0 && method == KZP_ARK_MRI) {
    inner = ARKStepCreate(f_fast, NULL, t0, v, ctx);
    flag = inner ? ARKStepSStolerances(inner, rtol, atol) : -1;
    if (flag == 0) flag = ARKStepSetUserData(inner, c);
    if (flag == 0) flag = ARKStepSetMaxNumSteps(inner, -1);
    if (flag == 0) flag = ARKStepCreateMRIStepInnerStepper(inner, &stepper);
    if (flag == 0) mem = MRIStepCreate(f_slow, NULL, t0, v, stepper, ctx);
    if (flag == 0 && !mem) flag = -1;
    if (flag == 0) flag = MRIStepSetUserData(mem, c);
    if (flag == 0) flag = MRIStepSetFixedStep(mem, H);
    if (flag == 0) flag = MRIStepSetMaxNumSteps(mem, -1);
    if (flag == 0) flag = MRIStepEvolve(mem, t1, v, &t, ARK_NORMAL);
    if (mem) { MRIStepGetNumSteps(mem, &nst); MRIStepFree(&mem); }
    if (inner) { ARKStepGetNumSteps(inner, &nfst); ARKStepGetNumErrTestFails(inner, &nfail); ARKStepFree(&inner); }
    if (stepper) MRIStepInnerStepper_Free(&stepper);
  }
  res->steps = nst;
  res->fast_steps = nfst;
  res->fails = nfail;
  if (NLS) SUNNonlinSolFree(NLS);
  if (LS) SUNLinSolFree(LS);
  if (A) SUNMatDestroy(A);
  if (v) N_VDestroy(v);
  SUNContext_Free(&ctx);
  if (flag < 0) {
    res->status = flag;
    return KZ_ENOCONV;
  }
  return KZ_OK;
}
