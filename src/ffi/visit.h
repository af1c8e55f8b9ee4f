/*
 * visit.h -- libtether-internal API of visit.c: the structural visitor protocol (types
 * ffi.VisitInterrupt, ffi.StructuralVisitor, ffi.VisitErrorContext; the container hooks;
 * the ffi.Structural{Visit,Walk} globals) and the helpers mutate.c shares.  Not exported.
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
 * none (an existing other context is kept as prev_error_context).  Never fails: when out
 * of memory the trail is just not extended. */
void tether__visit_error_context_push(TVMFFIAny* err, TVMFFIAny node);

/* The Unchanged marker of mutation results. */
static inline TVMFFIAny tether__unchanged(void) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIUnchanged;
  return v;
}

/* tvm-ffi's same_as: the same bits (the same object for object values). */
static inline bool tether__same_as(const TVMFFIAny* a, const TVMFFIAny* b) {
  return a->type_index == b->type_index && a->zero_padding == b->zero_padding &&
         a->v_int64 == b->v_int64;
}

/* true if a value of type `actual` matches a callback registered for `target` (itself, a
 * subtype, Any, Object for every object, Str/Bytes for their small forms). */
bool tether__type_match(int32_t actual, int32_t target);
/* The first (type_index, Function, ...) entry of the Array `table` (may be NULL) matching
 * `type_index` (a borrowed tuple), or NULL. */
TVMFFIObject* tether__find_callback(TVMFFIObject* table, int32_t type_index);
/* The Function of a callback entry (borrowed). */
static inline TVMFFIObject* tether__callback_fn(TVMFFIObject* entry) {
  return ((const TVMFFIAny*)TETHER_CELL(TVMFFISeqCell, entry)->data)[1].v_obj;
}
/* Checks that argument i is an Array of (int, Function, ...) tuples; *out borrowed. */
int tether__arg_callbacks(const char* fname, const TVMFFIAny* args, int32_t i,
                          TVMFFIObject** out);

/* Checks a method global's argument count and its self (argument 0, of type `type_index`,
 * borrowed into *self). */
int tether__method_self(const char* fname, const char* sig, const TVMFFIAny* args, int32_t n,
                        int32_t nargs, int32_t type_index, TVMFFIObject** self);
/* Hands a raw hook result (owning) to a packed caller: an Error is raised, anything else
 * stored in *result. */
int tether__raw_result(TVMFFIAny r, TVMFFIAny* result);

/* The def-region methods shared by visitors and mutators (the same slot in both): (object
 * of type `base`) -> int, and (object, kind, callback) -> callback() under that kind. */
int tether__def_region_kind(const char* fname, int32_t base, const TVMFFIAny* args, int32_t n,
                            TVMFFIAny* result);
int tether__with_def_region_kind(const char* fname, int32_t base, const TVMFFIAny* args,
                                 int32_t n, TVMFFIAny* result);

#endif /* TETHER_SRC_FFI_VISIT_H_ */
