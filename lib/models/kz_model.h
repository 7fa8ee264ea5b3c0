/* kz_model.h -- the preamble of a model's C source: what the C of a model file may use besides
 * <math.h> (lib/lua/kapitza/usermodel.lua documents the format). One text with two readers:
 *  - lib/lua/kapitza/usermodel.lua embeds it in the translation unit it compiles for a model file (a
 *    user's, or one of the papers' lib/models/<name>.lua), after enum kz_status (copied from
 *    kapitza.h) and the struct kz_par it generates from the spec's params (doubles, in their
 *    order), before the model's source (c.file or c.source);
 *  - the library's adapters (lib/models/kz_pendulum.c, ...) include it after kapitza.h and
 *    `typedef struct kz_pendulum kz_par;` (the public parameter struct, whose fields the source
 *    reads by name: a field the source uses and the struct lacks does not compile), then
 *    #include the model's source (lib/models/pendulum.c) and wrap its functions in the C API.
 * A model's source therefore sees: the status codes (KZ_OK, KZ_EDOMAIN, ...), `const kz_par *p`
 * (p->name), the math library, and the two helpers below. It includes no kapitza header itself. */
#ifndef KZ_MODEL_H
#define KZ_MODEL_H
#include <math.h>
#include <stddef.h>

/* kz_iteration(): one Newton or fixed-point iteration of the running function, counted in the
 * method's work (newton_iters) when a flow calls it; return kz_refuse(KZ_ENOCONV, "what"): a
 * flow's refusal, naming its cause (a string constant) in the method's error message. Whoever
 * calls a flow (the wrapper usermodel.lua generates, a library adapter) sets both to zero before
 * the call and reads them after it, in the calling thread: the scratch of one call, as errno is,
 * never state that outlives it (two runs, or two threads, never see each other's). */
static _Thread_local long long kzu_iterations;
static _Thread_local const char *kzu_refused;
static inline void kz_iteration(void) { kzu_iterations++; }
static inline int kz_refuse(int status, const char *what) { kzu_refused = what; return status; }

#endif
