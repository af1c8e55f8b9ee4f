/*
 * internal.h -- declarations shared between libtether's source files.
 *
 * Not API: nothing here is exported.  Every name is `tether__<subsystem>_*`.
 * Common macros and the subsystem list; each subsystem declares its internal functions
 * in its own header (object.h, error.h, ...), included where used.
 */
#ifndef TETHER_SRC_FFI_INTERNAL_H_
#define TETHER_SRC_FFI_INTERNAL_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/internal.h is private to libtether; include <tether/tether.h> instead"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/tether.h>

/* The payload cell that starts right after an object's 24-byte header. */
#define TETHER_CELL(type, handle) ((type*)((char*)(handle) + sizeof(TVMFFIObject)))
/* The handle from a pointer to a cell. */
#define TETHER_HANDLE_OF_CELL(cell) ((TVMFFIObject*)((char*)(cell) - sizeof(TVMFFIObject)))

#define TETHER_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TETHER_LIKELY(x) __builtin_expect(!!(x), 1)

/*
 * Subsystems, in initialisation order (lib.c runs tether__<name>_init in this order at
 * load and tether__<name>_fini in reverse at unload).  An init that registers globals
 * runs after `registry`.  Each returns 0, or -1 after printing why (load cannot fail
 * softly, so lib.c aborts the load with that message).
 */
#define TETHER_SUBSYSTEMS(X) \
  X(object)                  \
  X(type)                    \
  X(error)                   \
  X(registry)                \
  X(string)                  \
  X(bigint)                  \
  X(function)                \
  X(env)                     \
  X(container)               \
  X(tensor)                  \
  X(module)                  \
  X(reflection)              \
  X(dataclass)               \
  X(pyclass)                 \
  X(enum)                    \
  X(visit)                   \
  X(mutate)                  \
  X(access_path)             \
  X(structural)              \
  X(recursive)               \
  X(repr)                   \
  X(json)                    \
  X(serialization)           \
  X(cast)

#define TETHER__DECLARE_SUBSYSTEM(name) \
  int tether__##name##_init(void);      \
  void tether__##name##_fini(void);
TETHER_SUBSYSTEMS(TETHER__DECLARE_SUBSYSTEM)
#undef TETHER__DECLARE_SUBSYSTEM

#endif /* TETHER_SRC_FFI_INTERNAL_H_ */
