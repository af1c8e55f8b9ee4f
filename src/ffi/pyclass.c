/*
 * pyclass.c -- objects whose layout a binding defines at run time (tvm-ffi's Python
 * `py_class` dataclasses): ffi.MakeFieldGetter / ffi.MakeFieldSetter give the getter and
 * setter of a field by its static type index, and ffi._PyClassRegisterTypeAttrColumns gives
 * such a type `__ffi_init__`, `__ffi_new__` (a zeroed object whose deleter releases its
 * fields) and `__ffi_shallow_copy__`.
 *
 * Field storage follows the static type index, as in tvm-ffi: int64, double, bool, void*,
 * DLDataType, DLDevice as themselves; Any (or None) as an owning TVMFFIAny, except an
 * 8-byte one, which (like every object type) is an owning object pointer or NULL; an
 * object-typed field of 16 bytes (a C parent's string held as an Any) is an owning Any.
 */
#include <tether/reflection.h>

#include "internal.h"
#include "dataclass.h"
#include "object.h"
#include "registry.h"
#include "type.h"

typedef enum { TETHER_PY_POD, TETHER_PY_ANY, TETHER_PY_OBJECT } tether_py_storage;

static tether_py_storage tether__py_storage(int32_t ti, int64_t size) {
  if (ti == kTVMFFIAny || ti == kTVMFFINone) {
    return size == (int64_t)sizeof(void*) ? TETHER_PY_OBJECT : TETHER_PY_ANY;
  }
  if (ti < kTVMFFIStaticObjectBegin) return TETHER_PY_POD;
  /* an object-typed field of Any's size (a string of a C parent type) is held as an Any */
  return size == (int64_t)sizeof(TVMFFIAny) ? TETHER_PY_ANY : TETHER_PY_OBJECT;
}

/* ---- getters and setters ------------------------------------------------------------------ */

static int tether__py_get_ptr(void* field, TVMFFIAny* out) {
  void* p = *(void**)field;
  *out = p != NULL ? tether_any_ptr(p) : tether_any_none();
  return 0;
}

/* The getter of fields of static type `ti`, or NULL with ValueError raised. */
static TVMFFIFieldGetter tether__py_getter(int32_t ti) {
  switch (ti) {
    case kTVMFFIInt: return tether_field_getter(TETHER_FIELD_INT64);
    case kTVMFFIFloat: return tether_field_getter(TETHER_FIELD_FLOAT64);
    case kTVMFFIBool: return tether_field_getter(TETHER_FIELD_BOOL);
    case kTVMFFIOpaquePtr: return tether__py_get_ptr;
    case kTVMFFIDataType: return tether_field_getter(TETHER_FIELD_DTYPE);
    case kTVMFFIDevice: return tether_field_getter(TETHER_FIELD_DEVICE);
    default: break;
  }
  if (ti == kTVMFFIAny || ti == kTVMFFINone) return tether_field_getter(TETHER_FIELD_ANY);
  if (ti >= kTVMFFIStaticObjectBegin) return tether_field_getter(TETHER_FIELD_OPT_OBJECT);
  tether_raise("ValueError", "Unsupported field type index for getter: %d", (int)ti);
  return NULL;
}

static int tether__make_field_getter(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  int64_t ti;
  (void)self;
  if (tether_check_nargs("ffi.MakeFieldGetter", "(0: int) -> int", n, 1) != 0 ||
      tether_arg_int("ffi.MakeFieldGetter", args, 0, &ti) != 0) {
    return -1;
  }
  TVMFFIFieldGetter g = tether__py_getter(ti < INT32_MIN || ti > INT32_MAX ? 20 : (int32_t)ti);
  if (g == NULL) return -1;
  *result = tether_any_int((int64_t)(intptr_t)g);
  return 0;
}

/* The binding's converter: int f(void* converter, const TVMFFIAny* in, TVMFFIAny* out). */
typedef int (*tether_py_convert_fn)(void*, const TVMFFIAny*, TVMFFIAny*);

typedef struct {
  int32_t type_index;
  void* converter;
  tether_py_convert_fn convert;
} tether_py_setter;

/* Stores the owning converted value *v (consumed) into a field of static type `ti`. */
static int tether__py_store(void* field, int32_t ti, TVMFFIAny* v) {
  tether_field_kind kind;
  switch (ti) {
    case kTVMFFIInt: kind = TETHER_FIELD_INT64; break;
    case kTVMFFIFloat: kind = TETHER_FIELD_FLOAT64; break;
    case kTVMFFIBool: kind = TETHER_FIELD_BOOL; break;
    case kTVMFFIDataType: kind = TETHER_FIELD_DTYPE; break;
    case kTVMFFIDevice: kind = TETHER_FIELD_DEVICE; break;
    case kTVMFFIOpaquePtr:
      if (v->type_index != kTVMFFIOpaquePtr && v->type_index != kTVMFFINone) {
        int rc = tether_raise("TypeError", "Cannot convert from type `%s` to `void*`",
                              tether_any_type_key(v));
        tether_any_release(v);
        return rc;
      }
      *(void**)field = v->type_index == kTVMFFINone ? NULL : v->v_ptr;
      return 0;
    default:
      kind = ti == kTVMFFIAny || ti == kTVMFFINone ? TETHER_FIELD_ANY : TETHER_FIELD_OPT_OBJECT;
      break;
  }
  int rc = tether_field_setter(kind)(field, v);
  tether_any_release(v);
  return rc;
}

static int tether__py_setter_impl(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const tether_py_setter* s = self;
  void* field;
  if (tether_check_nargs("field setter", "(0: void*, 1: Any) -> None", n, 2) != 0) return -1;
  if (args[0].type_index != kTVMFFIOpaquePtr || args[0].v_ptr == NULL) {
    return tether_raise("TypeError", "field setter: argument 0 must be the field's address");
  }
  field = args[0].v_ptr;
  TVMFFIAny converted = tether_any_none();
  if (s->convert(s->converter, &args[1], &converted) != 0) return -1;
  *result = tether_any_none();
  return tether__py_store(field, s->type_index, &converted);
}

static void tether__py_setter_free(void* self) { free(self); }

static int tether__make_field_setter(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  static const char fname[] = "ffi.MakeFieldSetter";
  int64_t ti, converter, convert;
  (void)self;
  if (tether_check_nargs(fname, "(0: int, 1: int, 2: int) -> Function", n, 3) != 0 ||
      tether_arg_int(fname, args, 0, &ti) != 0 || tether_arg_int(fname, args, 1, &converter) != 0 ||
      tether_arg_int(fname, args, 2, &convert) != 0) {
    return -1;
  }
  if (ti < INT32_MIN || ti > INT32_MAX || tether__py_getter((int32_t)ti) == NULL) {
    if (ti < INT32_MIN || ti > INT32_MAX) TVMFFIErrorMoveFromRaised(NULL);
    return tether_raise("ValueError", "%s: unsupported field type index %lld", fname, (long long)ti);
  }
  if (convert == 0) {
    return tether_raise("ValueError", "%s: argument 2 (the converter function) must not be NULL",
                        fname);
  }
  tether_py_setter* s = malloc(sizeof(*s));
  if (s == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
  s->type_index = (int32_t)ti;
  s->converter = (void*)(intptr_t)converter;
  s->convert = (tether_py_convert_fn)(intptr_t)convert;
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(s, tether__py_setter_impl, tether__py_setter_free, &f) != 0) {
    free(s);
    return -1;
  }
  *result = tether_any_object(f);
  return 0;
}

/* ---- objects of binding-defined types ------------------------------------------------------- */

typedef struct {
  int32_t type_index;
  int32_t total_size;
} tether_py_type;

/* Calls fn(field, ctx) for every field of the type, ancestors first. */
static void tether__py_fields(const TVMFFITypeInfo* info, void (*fn)(const TVMFFIFieldInfo*, void*),
                              void* ctx) {
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) fn(&t->fields[i], ctx);
  }
}

static void tether__py_release_field(const TVMFFIFieldInfo* f, void* obj) {
  void* addr = (char*)obj + f->offset;
  switch (tether__py_storage(f->field_static_type_index, f->size)) {
    case TETHER_PY_ANY:
      tether_any_release((TVMFFIAny*)addr);
      break;
    case TETHER_PY_OBJECT:
      TVMFFIObjectDecRef(*(TVMFFIObject**)addr);
      *(TVMFFIObject**)addr = NULL;
      break;
    case TETHER_PY_POD:
      break;
  }
}

static void tether__py_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    tether__py_fields(tether__type_info_or_null(((TVMFFIObject*)self)->type_index),
                      tether__py_release_field, self);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

typedef struct {
  const char* src;
  char* dst;
} tether_py_copy_ctx;

static void tether__py_copy_field(const TVMFFIFieldInfo* f, void* ctx) {
  tether_py_copy_ctx* c = ctx;
  const void* from = c->src + f->offset;
  void* to = c->dst + f->offset;
  switch (tether__py_storage(f->field_static_type_index, f->size)) {
    case TETHER_PY_ANY:
      tether_any_copy((const TVMFFIAny*)from, (TVMFFIAny*)to);
      break;
    case TETHER_PY_OBJECT:
      *(TVMFFIObject**)to = *(TVMFFIObject* const*)from;
      if (*(TVMFFIObject**)to != NULL) TVMFFIObjectIncRef(*(TVMFFIObject**)to);
      break;
    case TETHER_PY_POD:
      memcpy(to, from, (size_t)f->size);
      break;
  }
}

/* __ffi_new__ (no argument) and __ffi_shallow_copy__ (one object) of a binding-defined type. */
static int tether__py_new_or_copy(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const tether_py_type* t = self;
  const char* what = n == 0 ? "__ffi_new__" : "__ffi_shallow_copy__";
  TVMFFIObject* src = NULL;
  if (n != 0 && (tether_check_nargs(what, "(0: Object) -> Object", n, 1) != 0 ||
                 tether_arg_object(what, args, 0, t->type_index, &src) != 0)) {
    return -1;
  }
  TVMFFIObject* obj = tether__object_alloc((size_t)t->total_size, t->type_index, tether__py_deleter);
  if (obj == NULL) return -1;
  if (src != NULL) {
    tether_py_copy_ctx ctx = {(const char*)src, (char*)obj};
    tether__py_fields(tether__type_info_or_null(t->type_index), tether__py_copy_field, &ctx);
  }
  *result = tether_any_object(obj);
  return 0;
}

static void tether__py_type_free(void* self) { free(self); }

/* Checks that every field of the type fits in `total_size` bytes. */
typedef struct {
  int32_t total_size;
  bool ok;
} tether_py_fit_ctx;

static void tether__py_check_fit(const TVMFFIFieldInfo* f, void* ctx) {
  tether_py_fit_ctx* c = ctx;
  if (f->offset < (int64_t)sizeof(TVMFFIObject) || f->size < 0 || f->offset + f->size > c->total_size) {
    c->ok = false;
  }
}

static int tether__py_register_columns(void* self, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* result) {
  static const char fname[] = "ffi._PyClassRegisterTypeAttrColumns";
  int64_t ti, size;
  (void)self;
  if (tether_check_nargs(fname, "(0: int, 1: int) -> None", n, 2) != 0 ||
      tether_arg_int(fname, args, 0, &ti) != 0 || tether_arg_int(fname, args, 1, &size) != 0) {
    return -1;
  }
  const TVMFFITypeInfo* info =
      ti >= kTVMFFIDynObjectBegin && ti <= INT32_MAX ? tether__type_info_or_null((int32_t)ti) : NULL;
  if (info == NULL) {
    return tether_raise("ValueError", "%s: argument 0 (%lld) must be a registered type index of "
                        "a binding-defined type (>= %d)", fname, (long long)ti, kTVMFFIDynObjectBegin);
  }
  tether_py_fit_ctx fit = {(int32_t)size, size >= (int64_t)sizeof(TVMFFIObject) && size <= INT32_MAX};
  if (fit.ok) tether__py_fields(info, tether__py_check_fit, &fit);
  if (!fit.ok) {
    return tether_raise("ValueError", "%s: total size %lld of `%s` cannot hold its fields", fname,
                        (long long)size, tether_type_key((int32_t)ti));
  }
  TVMFFIObject* register_init = tether__registry_lookup("ffi._RegisterFFIInit", 20);
  TVMFFIAny arg = tether_any_int(ti), none = tether_any_none();
  if (register_init == NULL || TVMFFIFunctionCall(register_init, &arg, 1, &none) != 0) return -1;
  tether_any_release(&none);
  static const char* const attrs[] = {"__ffi_new__", "__ffi_shallow_copy__"};
  for (int i = 0; i < 2; ++i) {
    tether_py_type* t = malloc(sizeof(*t));
    TVMFFIObjectHandle f = NULL;
    if (t == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
    t->type_index = (int32_t)ti;
    t->total_size = (int32_t)size;
    if (TVMFFIFunctionCreate(t, tether__py_new_or_copy, tether__py_type_free, &f) != 0) {
      free(t);
      return -1;
    }
    TVMFFIByteArray name = {attrs[i], strlen(attrs[i])};
    TVMFFIAny value = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr((int32_t)ti, &name, &value);
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  *result = tether_any_none();
  return 0;
}

int tether__pyclass_init(void) {
  static const tether_extra_global_t globals[] = {
      {"ffi.MakeFieldGetter", tether__make_field_getter, false},
      {"ffi.MakeFieldSetter", tether__make_field_setter, false},
      {"ffi._PyClassRegisterTypeAttrColumns", tether__py_register_columns, false},
  };
  return tether__extra_globals_register(globals, sizeof(globals) / sizeof(globals[0]));
}

void tether__pyclass_fini(void) {}
