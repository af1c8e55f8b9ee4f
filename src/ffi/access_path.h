/*
 * access_path.h -- libtether-internal API of access_path.c: ffi.reflection.AccessStep
 * and ffi.reflection.AccessPath (laid out as tvm-ffi's C++ classes), their methods and
 * `__ffi_repr__`, and ffi.VisitErrorContext.FindAccessPaths.  Not exported.
 */
#ifndef TETHER_SRC_FFI_ACCESS_PATH_H_
#define TETHER_SRC_FFI_ACCESS_PATH_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/access_path.h is private to libtether; include <tether/structural.h> instead"
#endif

#include <tether/structural.h>

#include "internal.h"

typedef struct {
  TVMFFIObject header;
  int32_t kind; /* tether_access_kind */
  TVMFFIAny key;
} tether_access_step_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* parent; /* AccessPath, NULL at the root */
  TVMFFIObject* step;   /* AccessStep, NULL at the root */
  int32_t depth;
} tether_access_path_t;

/* Type indices (valid after init). */
extern int32_t tether__access_step_index;
extern int32_t tether__access_path_index;

/* New path `parent` + step (kind, key view); parent NULL means the root.  New reference. */
int tether__access_path_push(TVMFFIObject* parent, int32_t kind, const TVMFFIAny* key,
                             TVMFFIObject** out);

#endif /* TETHER_SRC_FFI_ACCESS_PATH_H_ */
