/*
 * dataclass.c -- the extra layer's type plumbing: registering C-struct types laid out as
 * tvm-ffi's C++ classes (fields, metadata, `__ffi_shallow_copy__`, `__ffi_type_final__`),
 * generic shallow copies, type-attribute helpers, and moving errors in and out of the
 * TVMFFIAny results that native hooks return.  The type attribute columns the extra layer
 * owns (`__ffi_repr__`, `__ffi_shallow_copy__`, `__s_equal__`, `__s_hash__`, ...) are
 * created here at load, empty until a type fills them.
 */
#include <stdio.h>

#include <tether/reflection.h>

#include "internal.h"
#include "dataclass.h"
#include "error.h"
#include "type.h"

TVMFFIAny tether__error_any_from_raised(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    static const TVMFFIByteArray kind = {"RuntimeError", 12};
    static const TVMFFIByteArray msg = {"a hook failed without raising an error", 38};
    if (TVMFFIErrorCreate(&kind, &msg, NULL, &err) != 0) {
      TVMFFIErrorMoveFromRaised(&err);
    }
  }
  TVMFFIAny out = tether_any_none();
  if (err != NULL) {
    out.type_index = kTVMFFIError;
    out.v_obj = err;
  }
  return out;
}

int tether__raise_error_any(TVMFFIAny* err) {
  if (err->type_index == kTVMFFIError) {
    TVMFFIErrorSetRaised(err->v_obj);
    tether_any_release(err);
    return -1;
  }
  tether_any_release(err);
  return tether_raise("RuntimeError", "a hook failed without an error object");
}

int tether__type_attr_def_func(int32_t type_index, const char* name, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(NULL, fn, NULL, &f) != 0) return -1;
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIAny v = tether_any_object(f);
  int rc = TVMFFITypeRegisterAttr(type_index, &n, &v);
  TVMFFIObjectDecRef(f);
  return rc;
}

int tether__type_attr_def_ptr(int32_t type_index, const char* name, void* fn) {
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIAny v = tether_any_ptr(fn);
  return TVMFFITypeRegisterAttr(type_index, &n, &v);
}

int tether__type_attr_ensure(const char* name) {
  TVMFFIByteArray n = {name, strlen(name)};
  return TVMFFITypeRegisterAttr(kTVMFFINone, &n, NULL);
}

/* ---- globals ------------------------------------------------------------------------------ */

static int tether__extra_global_trampoline(void* self, const TVMFFIAny* args, int32_t n,
                                           TVMFFIAny* result) {
  const tether_extra_global_t* g = self;
  if (g->fn(NULL, args, n, result) == 0) return 0;
  return g->raw_errors ? -1 : tether__error_add_context(g->name);
}

int tether__extra_globals_register(const tether_extra_global_t* table, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    TVMFFIObjectHandle f = NULL;
    TVMFFIByteArray name = {table[i].name, strlen(table[i].name)};
    if (TVMFFIFunctionCreate((void*)&table[i], tether__extra_global_trampoline, NULL, &f) != 0) {
      return -1;
    }
    int rc = TVMFFIFunctionSetGlobal(&name, f, 0);
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  return 0;
}

/* ---- shallow copy ------------------------------------------------------------------------- */

int tether__shallow_copy(TVMFFIObject* obj, TVMFFIObject** out) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  TVMFFIObject* copy = NULL;
  if (info == NULL || info->metadata == NULL) {
    return tether_raise("TypeError", "__ffi_shallow_copy__: type `%s` has no reflection "
                        "metadata", tether_type_key(obj->type_index));
  }
  if (tether_object_new_reflected(obj->type_index, (TVMFFIObjectHandle*)&copy) != 0) return -1;
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      if (tether_field_kind_of_getter(f->getter) < 0) {
        tether_raise("TypeError", "__ffi_shallow_copy__: field `%.*s` of `%s` is not a "
                     "tether field", (int)f->name.size, f->name.data,
                     tether_type_key(obj->type_index));
        goto fail;
      }
      TVMFFIAny v = tether_any_none();
      if (f->getter((char*)obj + f->offset, &v) != 0) goto fail;
      int rc = ((TVMFFIFieldSetter)f->setter)((char*)copy + f->offset, &v);
      tether_any_release(&v);
      if (rc != 0) goto fail;
    }
  }
  *out = copy;
  return 0;
fail:
  TVMFFIObjectDecRef(copy);
  return -1;
}

static int tether__shallow_copy_attr(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* obj = NULL;
  TVMFFIObject* copy = NULL;
  if (tether_check_nargs("__ffi_shallow_copy__", "(0: Object) -> Object", n, 1) != 0) return -1;
  if (tether_arg_object("__ffi_shallow_copy__", args, 0, kTVMFFIObject, &obj) != 0) return -1;
  if (tether__shallow_copy(obj, &copy) != 0) return -1;
  *result = tether_any_object(copy);
  return 0;
}

static const TVMFFITypeAttrColumn* _Atomic tether__copy_attr_column;

int tether__shallow_copy_register(int32_t type_index) {
  if (tether__type_attr("__ffi_shallow_copy__", &tether__copy_attr_column, type_index) != NULL) {
    return 0;
  }
  return tether__type_attr_def_func(type_index, "__ffi_shallow_copy__", tether__shallow_copy_attr);
}

/* `__ffi_new__` of an extra type: a zeroed object (self carries the type index). */
static int tether__extra_new(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle obj = NULL;
  (void)args;
  if (tether_check_nargs("__ffi_new__", "() -> Object", n, 0) != 0 ||
      tether_object_new_reflected((int32_t)(intptr_t)self, &obj) != 0) {
    return -1;
  }
  *result = tether_any_object(obj);
  return 0;
}

/* ---- registering extra types -------------------------------------------------------------- */

int tether__extra_type_register(const tether_extra_type_t* t, int32_t* out_index) {
  return tether__extra_type_register_under(t, kTVMFFIObject, out_index);
}

int tether__extra_type_register_under(const tether_extra_type_t* t, int32_t parent,
                                      int32_t* out_index) {
  int32_t index;
  if (t->static_index >= 0) {
    index = tether__type_register_static(t->key, t->static_index);
  } else {
    const TVMFFITypeInfo* p = tether__type_info_or_null(parent);
    if (p == NULL) {
      return tether_raise("TypeError", "registering `%s`: parent type index %d is not "
                          "registered", t->key, (int)parent);
    }
    TVMFFIByteArray key = {t->key, strlen(t->key)};
    index = TVMFFITypeGetOrAllocIndex(&key, -1, p->type_depth + 1, 0, t->final ? 0 : 1, parent);
  }
  if (index < 0) return -1;
  for (int32_t i = 0; i < t->num_fields; ++i) {
    if (tether_type_def_field(index, &t->fields[i]) != 0) return -1;
  }
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.doc = (TVMFFIByteArray){"", 0};
  md.total_size = t->total_size;
  md.structural_eq_hash_kind = t->seq_hash_kind;
  if (TVMFFITypeRegisterMetadata(index, &md) != 0) return -1;
  if (t->copyable && tether__shallow_copy_register(index) != 0) {
    return -1;
  }
  if (t->copyable) {
    TVMFFIObjectHandle f = NULL;
    TVMFFIByteArray new_name = {"__ffi_new__", 11};
    if (TVMFFIFunctionCreate((void*)(intptr_t)index, tether__extra_new, NULL, &f) != 0) return -1;
    TVMFFIAny fv = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr(index, &new_name, &fv);
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  if (tether_type_def_final(index) != 0) return -1;
  *out_index = index;
  return 0;
}

/* The columns of the extra layer, present (maybe empty) from load on, as in tvm-ffi. */
static const char* const tether__extra_columns[] = {
    "__ffi_shallow_copy__", "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__",
    "__ffi_new__",          "__s_equal__",  "__s_hash__",   "__s_visit__", "__s_mutate__",
    "__s_maybe_inplace_mutate__",
};

int tether__dataclass_init(void) {
  for (size_t i = 0; i < sizeof(tether__extra_columns) / sizeof(tether__extra_columns[0]); ++i) {
    if (tether__type_attr_ensure(tether__extra_columns[i]) != 0) return -1;
  }
  return 0;
}

void tether__dataclass_fini(void) {}
