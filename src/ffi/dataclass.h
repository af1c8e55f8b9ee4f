/*
 * dataclass.h -- libtether-internal API of dataclass.c: registering the extra layer's
 * C-struct types (fields, metadata, `__ffi_shallow_copy__`, `__ffi_type_final__`), generic
 * shallow copies, and the hook-result helpers shared by the extra layer's files.
 * Not exported.
 */
#ifndef TETHER_SRC_FFI_DATACLASS_H_
#define TETHER_SRC_FFI_DATACLASS_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/dataclass.h is private to libtether; include <tether/structural.h> instead"
#endif

#include <tether/reflection.h>

#include "internal.h"

/* A type of the extra layer: a C struct that starts with the object header, laid out as
 * tvm-ffi's C++ class of the same key, so objects made on either side read the same. */
typedef struct {
  const char* key;
  int32_t static_index; /* a fixed index (kTVMFFIVisitInterrupt), or -1 for a dynamic one */
  int32_t total_size;
  TVMFFISEqHashKind seq_hash_kind;
  bool final;    /* no subtypes (tvm-ffi's _type_final) */
  bool copyable; /* gets `__ffi_shallow_copy__` and `__ffi_new__` (tether field kinds only) */
  const tether_field_def_t* fields;
  int32_t num_fields;
} tether_extra_type_t;

/* Registers the type as a child of ffi.Object with its fields, metadata (creator NULL),
 * `__ffi_shallow_copy__` and `__ffi_new__` (when copyable) and `__ffi_type_final__`.  *out_index: its type index. */
int tether__extra_type_register(const tether_extra_type_t* t, int32_t* out_index);
/* The same with the type derived from `parent` (a registered object type) instead. */
int tether__extra_type_register_under(const tether_extra_type_t* t, int32_t parent,
                                      int32_t* out_index);

/* New object of obj's (reflected) type whose fields are owned copies of obj's.  *out: new
 * reference.  TypeError for types without metadata or with fields tether cannot copy. */
int tether__shallow_copy(TVMFFIObject* obj, TVMFFIObject** out);

/* Registers the generic `__ffi_shallow_copy__` (tether__shallow_copy) for `type_index`
 * unless the type already has one. */
int tether__shallow_copy_register(int32_t type_index);

/* The error raised on this thread, moved into an owning Error Any (a RuntimeError when
 * none was raised).  Hooks return it. */
TVMFFIAny tether__error_any_from_raised(void);
/* Parks the Error held by the owning Any *err as this thread's raised error (consumes it);
 * returns -1. */
int tether__raise_error_any(TVMFFIAny* err);
/* tether_raise into an owning Error Any, for hook results. */
#define tether__error_any(kind, ...) \
  (tether_raise(kind, __VA_ARGS__), tether__error_any_from_raised())

/* Registers a C function as the type attribute `name` of `type_index` (a Function). */
int tether__type_attr_def_func(int32_t type_index, const char* name, TVMFFISafeCallType fn);
/* Registers a native hook pointer as the type attribute `name` of `type_index`. */
int tether__type_attr_def_ptr(int32_t type_index, const char* name, void* fn);
/* A global function of the extra layer. */
typedef struct {
  const char* name;
  TVMFFISafeCallType fn;
  /* true for globals that run user callbacks: their errors pass through untouched (the
   * function names itself in the errors it raises) */
  bool raw_errors;
} tether_extra_global_t;
/* Registers the `n` globals of `table` (which must outlive the library: a static table).
 * Each is called with self NULL; unless raw_errors, an error it raises is prefixed with
 * its global name when the message does not already name it. */
int tether__extra_globals_register(const tether_extra_global_t* table, size_t n);

/* Makes sure the column `name` exists (possibly empty). */
int tether__type_attr_ensure(const char* name);

#endif /* TETHER_SRC_FFI_DATACLASS_H_ */
