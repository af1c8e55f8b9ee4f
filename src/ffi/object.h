/*
 * object.h -- libtether-internal declarations of object.c (not API, not exported).
 */
#ifndef TETHER_SRC_FFI_OBJECT_H_
#define TETHER_SRC_FFI_OBJECT_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/object.h is private to libtether; include <tether/tether.h> instead"
#endif

#include "internal.h"

/* Allocates `size` zeroed bytes (size includes the 24-byte header) and initialises the
 * header: counts 1|1<<32, `type_index`, `deleter`.  New reference; NULL with a
 * MemoryError raised when out of memory.  Free the memory with tether__object_free. */
void* tether__object_alloc(size_t size, int32_t type_index, void (*deleter)(void* self, int flags));
/* Releases memory from tether__object_alloc (poisoned first in debug builds). */
void tether__object_free(void* self);
/* Deleter for objects without owned fields: frees on the Weak flag. */
void tether__object_deleter_plain(void* self, int flags);

#endif /* TETHER_SRC_FFI_OBJECT_H_ */
