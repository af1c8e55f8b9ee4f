/*
 * visit.h -- libtether-internal API of visit.c: the structural visitor and mutator
 * protocol (types ffi.VisitInterrupt, ffi.StructuralVisitor, ffi.StructuralMutator,
 * ffi.VisitErrorContext; the container hooks; the ffi.Structural{Visit,Walk,...} globals).
 * Not exported.
 */
#ifndef TETHER_SRC_FFI_VISIT_H_
#define TETHER_SRC_FFI_VISIT_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/visit.h is private to libtether; include <tether/structural.h> instead"
#endif

#include <tether/structural.h>

#include "internal.h"

/* Type index of ffi.VisitErrorContext (valid after init). */
extern int32_t tether__visit_error_context_index;

/* Records `node` (an object view; PODs are ignored) in the VisitErrorContext breadcrumb
 * trail of the Error held by the owning Any *err, creating the context when the error has
 * none (an existing other context is kept as prev_error_context). Never fails: when out
 * of memory the trail is just not extended. */
void tether__visit_error_context_push(TVMFFIAny* err, TVMFFIAny node);

/* The visitor's default descent into `value`: its `__s_visit__` hook, else its reflected
 * fields (skipping SEqHashIgnore, entering def regions as the field flags say). */
TVMFFIAny tether__visit_default(tether_visitor* visitor, TVMFFIAny value);

#endif /* TETHER_SRC_FFI_VISIT_H_ */
