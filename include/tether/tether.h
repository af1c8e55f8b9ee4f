/*
 * tether.h -- tether's own C conveniences on top of the stable ABI (<tether/c_api.h>).
 *
 * Everything here carries the `tether_` prefix and is exported by libtether.  The ABI
 * header stays a pure description of tvm-ffi's contract; this header adds what C code
 * needs to use it comfortably: building and reading Any values, raising errors with a
 * location, registering C functions, checking arguments.
 *
 * Ownership vocabulary (as in CPython's C API): "new reference" = the caller owns one
 * strong reference and must release it; "borrowed" = valid while its owner keeps it;
 * "steals" = the callee takes over the caller's reference.
 */
#ifndef TETHER_TETHER_H_
#define TETHER_TETHER_H_

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "c_api.h"

#define TETHER_API __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error kinds (one table; the Python binding maps each to an exception class) ---- */
#define TETHER_ERROR_KINDS(X) \
  X(RuntimeError)             \
  X(TypeError)                \
  X(ValueError)               \
  X(IndexError)               \
  X(KeyError)                 \
  X(AttributeError)           \
  X(NotImplementedError)      \
  X(OverflowError)            \
  X(MemoryError)              \
  X(InternalError)

/* ---- Any construction (views: no reference is taken) ----------------------------------- */
static inline TVMFFIAny tether_any_none(void) {
  TVMFFIAny v;
  v.type_index = kTVMFFINone;
  v.zero_padding = 0;
  v.v_int64 = 0;
  return v;
}
static inline TVMFFIAny tether_any_int(int64_t x) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIInt;
  v.v_int64 = x;
  return v;
}
static inline TVMFFIAny tether_any_bool(bool x) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIBool;
  v.v_int64 = x ? 1 : 0;
  return v;
}
static inline TVMFFIAny tether_any_float(double x) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIFloat;
  v.v_float64 = x;
  return v;
}
static inline TVMFFIAny tether_any_ptr(void* p) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = p;
  return v;
}
static inline TVMFFIAny tether_any_dtype(DLDataType t) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIDataType;
  v.v_dtype = t;
  return v;
}
static inline TVMFFIAny tether_any_device(int32_t device_type, int32_t device_id) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIDevice;
  v.v_device.device_type = (DLDeviceType)device_type;
  v.v_device.device_id = device_id;
  return v;
}
/* A view of a NUL-terminated string (kTVMFFIRawStr); `s` is borrowed. */
static inline TVMFFIAny tether_any_raw_str(const char* s) {
  TVMFFIAny v = tether_any_none();
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}
/* A view of an object (borrowed: no reference taken). */
static inline TVMFFIAny tether_any_object(TVMFFIObjectHandle obj) {
  TVMFFIAny v = tether_any_none();
  v.type_index = ((TVMFFIObject*)obj)->type_index;
  v.v_obj = (TVMFFIObject*)obj;
  return v;
}
static inline bool tether_any_is_object(const TVMFFIAny* v) {
  return v->type_index >= kTVMFFIStaticObjectBegin;
}

/* Releases an owning Any (DecRef if it holds an object) and resets it to None. */
TETHER_API void tether_any_release(TVMFFIAny* v);
/* *out = an owning copy of the owning value *v (IncRef for objects). */
TETHER_API void tether_any_copy(const TVMFFIAny* v, TVMFFIAny* out);
/* Reads any string-like value (RawStr, SmallStr, Str); false if `v` is not a string.
 * The bytes are borrowed from `v`. */
TETHER_API bool tether_any_get_str(const TVMFFIAny* v, TVMFFIByteArray* out);
/* Same for bytes-like values (ByteArrayPtr, SmallBytes, Bytes). */
TETHER_API bool tether_any_get_bytes(const TVMFFIAny* v, TVMFFIByteArray* out);
/* Owning string Any from `n` bytes at `s` (SmallStr when n <= 7, else a new Str object). */
TETHER_API int tether_any_str(const char* s, size_t n, TVMFFIAny* out);
/* Hash and equality of spec 1.12 (the rules Map/Dict keys follow). */
TETHER_API uint64_t tether_any_hash(const TVMFFIAny* v);
TETHER_API bool tether_any_equal(const TVMFFIAny* a, const TVMFFIAny* b);
/* The type key of v's type ("int", "ffi.String", ...), borrowed, never NULL. */
TETHER_API const char* tether_any_type_key(const TVMFFIAny* v);

/* ---- objects ------------------------------------------------------------------------- */
/* Number of objects tether allocated that are still alive (for leak checks in tests). */
TETHER_API int64_t tether_object_live_count(void);
/* Current strong count (relaxed load). */
TETHER_API uint32_t tether_object_use_count(TVMFFIObjectHandle obj);
/* true if type `index` is `base` or derives from it. */
TETHER_API bool tether_type_is_subclass(int32_t index, int32_t base);
/* The key of a registered type index ("<unknown type N>" rendered in a static buffer
 * would be unsafe, so unknown indices give "<unknown>"); borrowed, never NULL. */
TETHER_API const char* tether_type_key(int32_t type_index);
/* Weak references: a weak count keeps the memory, not the object. */
TETHER_API void tether_object_inc_weak(TVMFFIObjectHandle obj);
TETHER_API void tether_object_dec_weak(TVMFFIObjectHandle obj);
/* Promotes a weak reference: new strong reference, or NULL if the object is dead. */
TETHER_API TVMFFIObjectHandle tether_object_lock_weak(TVMFFIObjectHandle obj);

/* ---- errors ---------------------------------------------------------------------------- */
/* Raises an error of `kind` with a printf-formatted message, recording (file, line, func)
 * as the first backtrace frame.  Always returns -1, so `return tether_raise(...)` works. */
TETHER_API int tether_error_raisef_at(const char* file, int line, const char* func,
                                      const char* kind, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));
#define tether_raise(kind, ...) tether_error_raisef_at(__FILE__, __LINE__, __func__, kind, __VA_ARGS__)

/* Reads the kind/message of an Error object (borrowed from the object). */
TETHER_API TVMFFIByteArray tether_error_kind(TVMFFIObjectHandle err);
TETHER_API TVMFFIByteArray tether_error_message(TVMFFIObjectHandle err);
TETHER_API TVMFFIByteArray tether_error_backtrace(TVMFFIObjectHandle err);

/* ---- functions ------------------------------------------------------------------------- */
/* What a C function declares about itself when it is created (bits of `flags` below).  The
 * flags are fixed at creation, stored with the function object, and readable from any
 * thread (tether_func_flags).
 *   TETHER_FUNC_KEEPS_GIL  the function returns promptly, never blocks (no I/O, no waiting
 *                          on locks or other threads) and never calls a function it was
 *                          given from a thread of its own: a Python binding may call it
 *                          holding the GIL.  tether's Python Function reads it once, when it
 *                          wraps the function, and then keeps the GIL (release_gil False)
 *                          instead of releasing it; tvm-ffi kernels and functions made by
 *                          TVMFFIFunctionCreate carry no flags and run with the GIL
 *                          released. */
typedef enum {
  TETHER_FUNC_KEEPS_GIL = 1u << 0,
  TETHER_FUNC_FLAGS_ALL = TETHER_FUNC_KEEPS_GIL
} tether_func_flag_t;

/* TVMFFIFunctionCreate with `flags` (tether_func_flag_t bits): *out = new reference to a
 * Function calling fn(self, ...), or fn(function object, ...) when self and self_deleter are
 * both NULL; self_deleter(self) runs once, when the last strong reference dies.
 * Errors: ValueError for NULL out or fn, or unknown bits in `flags`.  Thread-safe. */
TETHER_API int tether_func_create(void* self, TVMFFISafeCallType fn, void (*self_deleter)(void* self),
                                  uint32_t flags, TVMFFIObjectHandle* out);
/* The tether_func_flag_t bits `func` (borrowed) was created with; 0 for a NULL handle, a
 * non-Function, or a Function that libtether did not create (one another library laid out
 * itself).  Never fails; safe from any thread while the caller holds a reference. */
TETHER_API uint32_t tether_func_flags(TVMFFIObjectHandle func);
/* Registers a C function as global `name` (no self; the handle it receives is the function
 * object).  metadata_json may be NULL.  Fails if the name exists and !allow_override. */
TETHER_API int tether_func_register(const char* name, TVMFFISafeCallType fn, const char* doc,
                                    const char* metadata_json, int allow_override);
/* tether_func_register with tether_func_flag_t `flags` stored in the function it creates.
 * Errors: those of tether_func_register, ValueError for unknown bits in `flags`. */
TETHER_API int tether_func_register_flags(const char* name, TVMFFISafeCallType fn, const char* doc,
                                          const char* metadata_json, uint32_t flags,
                                          int allow_override);
/* New reference to global `name`, or NULL with a RuntimeError raised if it does not exist. */
TETHER_API TVMFFIObjectHandle tether_func_get(const char* name);
/* Calls f with views `args`; *result is overwritten with an owning value (None first). */
TETHER_API int tether_func_call(TVMFFIObjectHandle f, const TVMFFIAny* args, int32_t n,
                                TVMFFIAny* result);

/* ---- argument checking for C functions (TypeError naming function and argument) ---- */
/* `fname` is the function's name as users call it; `sig` the rest of its signature,
 * "(0: int, 1: str) -> bool" (error texts print the two joined, as tvm-ffi does). */
TETHER_API int tether_check_nargs(const char* fname, const char* sig, int32_t num_args,
                                  int32_t expected);
TETHER_API int tether_arg_int(const char* fname, const TVMFFIAny* args, int32_t i, int64_t* out);
TETHER_API int tether_arg_float(const char* fname, const TVMFFIAny* args, int32_t i, double* out);
TETHER_API int tether_arg_bool(const char* fname, const TVMFFIAny* args, int32_t i, bool* out);
/* Borrowed bytes of a string argument. */
TETHER_API int tether_arg_str(const char* fname, const TVMFFIAny* args, int32_t i,
                              TVMFFIByteArray* out);
/* Borrowed object argument that is an instance of `type_index` (kTVMFFIObject = any object). */
TETHER_API int tether_arg_object(const char* fname, const TVMFFIAny* args, int32_t i,
                                 int32_t type_index, TVMFFIObject** out);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_TETHER_H_ */
