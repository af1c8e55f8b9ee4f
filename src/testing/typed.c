/*
 * typed.c -- globals and methods with declared types: testing.add_one, testing.schema_* and
 * the methods of testing.SchemaAllTypes.
 *
 * Each function is one row of a table: its name, the declared types of its parameters and
 * result (a small tree of testing_ty_t), and an implementation over converted values.  The
 * row gives both the function's type_schema metadata (JSON, as a binding reads it) and the
 * conversions done on a call: every argument is converted to its declared type the way a
 * typed C++ function converts it (an ffi.List passed for Array<int> becomes an Array, ints
 * become floats, bools ints, ...), and a value that does not fit raises TypeError.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/tether.h>

#include "testing.h"

/* ---- declared types ------------------------------------------------------------------------ */

/* X(kind, schema type name, name in messages) */
#define TESTING_TY_KINDS(X)                   \
  X(ANY, "Any", "Any")                        \
  X(NONE, "None", "None")                     \
  X(INT, "int", "int")                        \
  X(FLOAT, "float", "float")                  \
  X(BOOL, "bool", "bool")                     \
  X(DEVICE, "Device", "Device")               \
  X(DTYPE, "DataType", "DataType")            \
  X(STR, "ffi.String", "str")                 \
  X(BYTES, "ffi.Bytes", "bytes")              \
  X(FUNC, "ffi.Function", "Function")         \
  X(OBJECT, "ffi.Object", "Object")           \
  X(TENSOR, "ffi.Tensor", "Tensor")           \
  X(DLTENSOR, "DLTensor*", "DLTensor*")       \
  X(ARRAY, "ffi.Array", "Array")              \
  X(LIST, "ffi.List", "List")                 \
  X(MAP, "ffi.Map", "Map")                    \
  X(DICT, "ffi.Dict", "Dict")                 \
  X(OPT, "Optional", "Optional")              \
  X(VARIANT, "Variant", "Variant")

typedef enum {
#define TESTING_TY_ENUM(k, schema, shown) TY_##k,
  TESTING_TY_KINDS(TESTING_TY_ENUM)
#undef TESTING_TY_ENUM
} testing_ty_kind;

static const struct {
  const char* schema;
  const char* shown;
} testing_ty_names[] = {
#define TESTING_TY_NAME(k, schema, shown) {schema, shown},
    TESTING_TY_KINDS(TESTING_TY_NAME)
#undef TESTING_TY_NAME
};

enum { TESTING_TY_MAX_ARGS = 4 };

/* A declared type.  ARRAY/LIST/OPT take one argument (none: any element), MAP/DICT two,
 * VARIANT up to four alternatives; a FUNC with arguments is typed: args[0] is its result
 * and args[1..] its parameters.  OBJECT may name the type key it requires. */
typedef struct testing_ty {
  testing_ty_kind kind;
  const char* key;
  int nargs;
  const struct testing_ty* args[TESTING_TY_MAX_ARGS];
} testing_ty_t;

#define TY0(K) {TY_##K, NULL, 0, {NULL}}
static const testing_ty_t ty_any = TY0(ANY), ty_none = TY0(NONE), ty_int = TY0(INT),
                          ty_float = TY0(FLOAT), ty_bool = TY0(BOOL), ty_device = TY0(DEVICE),
                          ty_dtype = TY0(DTYPE), ty_str = TY0(STR), ty_bytes = TY0(BYTES),
                          ty_func = TY0(FUNC), ty_object = TY0(OBJECT), ty_tensor = TY0(TENSOR),
                          ty_dltensor = TY0(DLTENSOR), ty_arr = TY0(ARRAY), ty_map = TY0(MAP);
#undef TY0
static const testing_ty_t ty_opt_int = {TY_OPT, NULL, 1, {&ty_int}};
static const testing_ty_t ty_opt_str = {TY_OPT, NULL, 1, {&ty_str}};
static const testing_ty_t ty_opt_obj = {TY_OPT, NULL, 1, {&ty_object}};
static const testing_ty_t ty_arr_int = {TY_ARRAY, NULL, 1, {&ty_int}};
static const testing_ty_t ty_arr_str = {TY_ARRAY, NULL, 1, {&ty_str}};
static const testing_ty_t ty_arr_obj = {TY_ARRAY, NULL, 1, {&ty_object}};
static const testing_ty_t ty_arr_opt_int = {TY_ARRAY, NULL, 1, {&ty_opt_int}};
static const testing_ty_t ty_list_int = {TY_LIST, NULL, 1, {&ty_int}};
static const testing_ty_t ty_list_str = {TY_LIST, NULL, 1, {&ty_str}};
static const testing_ty_t ty_list_obj = {TY_LIST, NULL, 1, {&ty_object}};
static const testing_ty_t ty_map_str_int = {TY_MAP, NULL, 2, {&ty_str, &ty_int}};
static const testing_ty_t ty_map_str_str = {TY_MAP, NULL, 2, {&ty_str, &ty_str}};
static const testing_ty_t ty_map_str_obj = {TY_MAP, NULL, 2, {&ty_str, &ty_object}};
static const testing_ty_t ty_map_str_arr_int = {TY_MAP, NULL, 2, {&ty_str, &ty_arr_int}};
static const testing_ty_t ty_dict_str_int = {TY_DICT, NULL, 2, {&ty_str, &ty_int}};
static const testing_ty_t ty_dict_str_str = {TY_DICT, NULL, 2, {&ty_str, &ty_str}};
static const testing_ty_t ty_var_int_str = {TY_VARIANT, NULL, 2, {&ty_int, &ty_str}};
static const testing_ty_t ty_var_mix = {TY_VARIANT, NULL, 3, {&ty_int, &ty_str, &ty_arr_int}};
static const testing_ty_t ty_var_field = {TY_VARIANT, NULL, 3,
                                          {&ty_str, &ty_arr_int, &ty_map_str_int}};
static const testing_ty_t ty_arr_var_int_str = {TY_ARRAY, NULL, 1, {&ty_var_int_str}};
static const testing_ty_t ty_opt_arr_var = {TY_OPT, NULL, 1, {&ty_arr_var_int_str}};
static const testing_ty_t ty_func_typed = {TY_FUNC, NULL, 4, {&ty_none, &ty_int, &ty_float, &ty_func}};
static const testing_ty_t ty_schema_all = {TY_OBJECT, "testing.SchemaAllTypes", 0, {NULL}};

/* ---- schema text ----------------------------------------------------------------------- */

typedef struct {
  char* data;
  size_t size, cap;
  bool oom;
} testing_buf_t;

static void buf_put(testing_buf_t* b, const char* s) {
  size_t n = strlen(s);
  if (b->oom) return;
  if (b->size + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->size + n + 1) cap *= 2;
    char* d = realloc(b->data, cap);
    if (d == NULL) {
      b->oom = true;
      return;
    }
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->size, s, n + 1);
  b->size += n;
}

/* JSON of a FUNC's signature: {"type":"ffi.Function","named_args":{"return":[R],"params":[P..]}} */
static void ty_json(testing_buf_t* b, const testing_ty_t* t);

static void ty_json_signature(testing_buf_t* b, const testing_ty_t* ret,
                              const testing_ty_t* const* params, int nparams) {
  buf_put(b, "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[");
  ty_json(b, ret);
  buf_put(b, "],\"params\":[");
  for (int i = 0; i < nparams; ++i) {
    if (i > 0) buf_put(b, ",");
    ty_json(b, params[i]);
  }
  buf_put(b, "]}}");
}

static void ty_json(testing_buf_t* b, const testing_ty_t* t) {
  if (t->kind == TY_FUNC && t->nargs > 0) {
    ty_json_signature(b, t->args[0], t->args + 1, t->nargs - 1);
    return;
  }
  buf_put(b, "{\"type\":\"");
  buf_put(b, t->kind == TY_OBJECT && t->key != NULL ? t->key : testing_ty_names[t->kind].schema);
  buf_put(b, "\"");
  if (t->nargs > 0) {
    buf_put(b, ",\"args\":[");
    for (int i = 0; i < t->nargs; ++i) {
      if (i > 0) buf_put(b, ",");
      ty_json(b, t->args[i]);
    }
    buf_put(b, "]");
  }
  buf_put(b, "}");
}

/* The type as error messages show it: Array<int>, Map<str, int>, Optional<str>, ... */
static void ty_text(testing_buf_t* b, const testing_ty_t* t) {
  buf_put(b, t->kind == TY_OBJECT && t->key != NULL ? t->key : testing_ty_names[t->kind].shown);
  if (t->nargs > 0 && t->kind != TY_FUNC) {
    buf_put(b, "<");
    for (int i = 0; i < t->nargs; ++i) {
      if (i > 0) buf_put(b, ", ");
      ty_text(b, t->args[i]);
    }
    buf_put(b, ">");
  }
}

/* ---- conversion -------------------------------------------------------------------------- */

static bool any_is_str(const TVMFFIAny* v) {
  return v->type_index == kTVMFFISmallStr || v->type_index == kTVMFFIStr ||
         v->type_index == kTVMFFIRawStr;
}

static bool any_is_bytes(const TVMFFIAny* v) {
  return v->type_index == kTVMFFISmallBytes || v->type_index == kTVMFFIBytes ||
         v->type_index == kTVMFFIByteArrayPtr;
}

/* An owning copy of `v`; raw strings and byte arrays become String / Bytes values. */
static int any_own(const TVMFFIAny* v, TVMFFIAny* out) { return TVMFFIAnyViewToOwnedAny(v, out); }

static int ty_convert(const testing_ty_t* t, const TVMFFIAny* v, TVMFFIAny* out);

/* A device written "name" or "name:index" ("cpu", "cuda:1"): 0 converted, 1 not a device. */
static int device_from_str(const TVMFFIAny* v, TVMFFIAny* out) {
  TVMFFIByteArray text;
  if (!tether_any_get_str(v, &text)) return 1;
  const char* colon = memchr(text.data, ':', text.size);
  size_t name_len = colon != NULL ? (size_t)(colon - text.data) : text.size;
  int32_t type = tether_device_type_from_name(text.data, name_len);
  int64_t index = 0;
  if (colon != NULL) {
    const char* end = text.data + text.size;
    const char* p = colon + 1;
    if (p == end) return 1;
    for (; p < end; ++p) {
      if (*p < '0' || *p > '9' || index > INT32_MAX / 10) return 1;
      index = index * 10 + (*p - '0');
    }
  }
  if (type < 0) return 1;
  *out = tether_any_device(type, (int32_t)index);
  return 0;
}

/* Converts the elements of a sequence `v` (an Array or List) into a new container of kind
 * t->kind, or hands `v` back when it is of that kind already and no element changes.
 * 0 converted, 1 does not fit, -1 error. */
static int ty_convert_seq(const testing_ty_t* t, const TVMFFIAny* v, TVMFFIAny* out) {
  bool is_array = v->type_index == kTVMFFIArray;
  TVMFFIObjectHandle seq = v->v_obj;
  int64_t n = is_array ? tether_array_size(seq) : tether_list_size(seq);
  bool same_kind = (t->kind == TY_ARRAY) == is_array;
  if (t->nargs == 0 && same_kind) return any_own(v, out) == 0 ? 0 : -1;
  TVMFFIAny* items = calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIAny));
  if (items == NULL) return tether_raise("MemoryError", "testing: out of memory converting a sequence");
  int rc = 0;
  bool changed = !same_kind;
  int64_t done = 0;
  for (; done < n; ++done) {
    const TVMFFIAny* item = is_array ? tether_array_at(seq, done) : tether_list_at(seq, done);
    rc = t->nargs == 0 ? any_own(item, &items[done]) : ty_convert(t->args[0], item, &items[done]);
    if (rc != 0) break;
    if (items[done].type_index != item->type_index ||
        (items[done].type_index >= kTVMFFIStaticObjectBegin && items[done].v_obj != item->v_obj)) {
      changed = true;
    }
  }
  if (rc == 0) {
    TVMFFIObjectHandle made = NULL;
    if (!changed) {
      rc = any_own(v, out);
    } else if (t->kind == TY_ARRAY) {
      rc = tether_array_new(items, n, &made);
    } else {
      rc = tether_list_new(items, n, &made);
    }
    if (made != NULL) *out = tether_any_object(made);
  }
  for (int64_t i = 0; i < done; ++i) tether_any_release(&items[i]);
  free(items);
  return rc;
}

/* The same for a mapping (a Map or Dict) into a Map or Dict. */
static int ty_convert_map(const testing_ty_t* t, const TVMFFIAny* v, TVMFFIAny* out) {
  TVMFFIObjectHandle m = v->v_obj;
  bool same_kind = (t->kind == TY_MAP) == (v->type_index == kTVMFFIMap);
  if (t->nargs == 0 && same_kind) return any_own(v, out) == 0 ? 0 : -1;
  int64_t n = tether_map_size(m);
  TVMFFIAny* kvs = calloc((size_t)(n > 0 ? 2 * n : 1), sizeof(TVMFFIAny));
  if (kvs == NULL) return tether_raise("MemoryError", "testing: out of memory converting a map");
  int rc = 0;
  bool changed = !same_kind;
  int64_t filled = 0, pos = 0;
  const TVMFFIAny *key = NULL, *value = NULL;
  while (rc == 0 && filled < 2 * n && tether_map_next(m, &pos, &key, &value)) {
    for (int side = 0; side < 2 && rc == 0; ++side) {
      const TVMFFIAny* src = side == 0 ? key : value;
      rc = t->nargs == 0 ? any_own(src, &kvs[filled]) : ty_convert(t->args[side], src, &kvs[filled]);
      if (rc != 0) break;
      if (kvs[filled].type_index != src->type_index ||
          (kvs[filled].type_index >= kTVMFFIStaticObjectBegin && kvs[filled].v_obj != src->v_obj)) {
        changed = true;
      }
      ++filled;
    }
  }
  if (rc == 0) {
    TVMFFIObjectHandle made = NULL;
    if (!changed) {
      rc = any_own(v, out);
    } else if (t->kind == TY_MAP) {
      rc = tether_map_new(kvs, filled / 2, &made);
    } else {
      rc = tether_dict_new(kvs, filled / 2, &made);
    }
    if (made != NULL) *out = tether_any_object(made);
  }
  for (int64_t i = 0; i < filled; ++i) tether_any_release(&kvs[i]);
  free(kvs);
  return rc;
}

/* Converts view `v` to type `t` into the owning *out: 0 converted, 1 `v` does not fit (no
 * error raised, *out None), -1 error raised. */
static int ty_convert(const testing_ty_t* t, const TVMFFIAny* v, TVMFFIAny* out) {
  int32_t ti = v->type_index;
  *out = tether_any_none();
  switch (t->kind) {
    case TY_ANY:
      return any_own(v, out) == 0 ? 0 : -1;
    case TY_NONE:
      return ti == kTVMFFINone ? 0 : 1;
    case TY_INT:
      if (ti != kTVMFFIInt && ti != kTVMFFIBool) return 1;
      *out = tether_any_int(v->v_int64);
      return 0;
    case TY_FLOAT:
      if (ti == kTVMFFIFloat) {
        *out = tether_any_float(v->v_float64);
      } else if (ti == kTVMFFIInt || ti == kTVMFFIBool) {
        *out = tether_any_float((double)v->v_int64);
      } else {
        return 1;
      }
      return 0;
    case TY_BOOL:
      if (ti != kTVMFFIInt && ti != kTVMFFIBool) return 1;
      *out = tether_any_bool(v->v_int64 != 0);
      return 0;
    case TY_DEVICE:
      if (ti == kTVMFFIDevice) {
        *out = *v;
        return 0;
      }
      return any_is_str(v) ? device_from_str(v, out) : 1;
    case TY_DTYPE:
      if (ti == kTVMFFIDataType) {
        *out = *v;
        return 0;
      }
      if (any_is_str(v)) {
        TVMFFIByteArray text;
        DLDataType dt;
        if (!tether_any_get_str(v, &text)) return 1;
        if (TVMFFIDataTypeFromString(&text, &dt) != 0) return -1;
        *out = tether_any_dtype(dt);
        return 0;
      }
      return 1;
    case TY_STR:
      return any_is_str(v) ? (any_own(v, out) == 0 ? 0 : -1) : 1;
    case TY_BYTES:
      return any_is_bytes(v) ? (any_own(v, out) == 0 ? 0 : -1) : 1;
    case TY_FUNC:
      return ti == kTVMFFIFunction ? (any_own(v, out) == 0 ? 0 : -1) : 1;
    case TY_OBJECT: {
      if (ti < kTVMFFIStaticObjectBegin) return 1;
      if (t->key != NULL) {
        TVMFFIByteArray k = {t->key, strlen(t->key)};
        int32_t want = -1;
        if (TVMFFITypeKeyToIndex(&k, &want) != 0) return -1;
        if (!tether_type_is_subclass(ti, want)) return 1;
      }
      return any_own(v, out) == 0 ? 0 : -1;
    }
    case TY_TENSOR:
      return ti == kTVMFFITensor ? (any_own(v, out) == 0 ? 0 : -1) : 1;
    case TY_DLTENSOR:
      if (ti == kTVMFFITensor) return any_own(v, out) == 0 ? 0 : -1;
      if (ti != kTVMFFIDLTensorPtr) return 1;
      *out = *v;
      return 0;
    case TY_ARRAY:
    case TY_LIST:
      return ti == kTVMFFIArray || ti == kTVMFFIList ? ty_convert_seq(t, v, out) : 1;
    case TY_MAP:
    case TY_DICT:
      return ti == kTVMFFIMap || ti == kTVMFFIDict ? ty_convert_map(t, v, out) : 1;
    case TY_OPT:
      return ti == kTVMFFINone ? 0 : ty_convert(t->args[0], v, out);
    case TY_VARIANT:
      for (int i = 0; i < t->nargs; ++i) {
        int rc = ty_convert(t->args[i], v, out);
        if (rc != 1) return rc;
      }
      return 1;
  }
  return 1;
}

/* ---- typed functions ---------------------------------------------------------------------- */

enum { TESTING_MAX_PARAMS = 4 };

struct testing_typed;
/* Computes *result (owning) from the converted arguments args[0..n). */
typedef int (*testing_impl_t)(const struct testing_typed* fn, TVMFFIAny* args, int32_t n,
                              TVMFFIAny* result);

/* One typed function.  impl NULL: returns its only argument (converted to `ret`). */
typedef struct testing_typed {
  const char* name;
  const testing_ty_t* ret;
  int nparams;
  const testing_ty_t* params[TESTING_MAX_PARAMS];
  testing_impl_t impl;
  const char* doc;
  const char* extra_metadata; /* JSON members appended to the metadata, or NULL */
} testing_typed_t;

/* "name(0: T0, 1: T1) -> R" into *b. */
static void typed_signature_text(testing_buf_t* b, const testing_typed_t* fn) {
  char num[16];
  buf_put(b, fn->name);
  buf_put(b, "(");
  for (int i = 0; i < fn->nparams; ++i) {
    snprintf(num, sizeof(num), "%s%d: ", i > 0 ? ", " : "", i);
    buf_put(b, num);
    ty_text(b, fn->params[i]);
  }
  buf_put(b, ") -> ");
  ty_text(b, fn->ret);
}

static int typed_mismatch(const testing_typed_t* fn, int i, const TVMFFIAny* got) {
  testing_buf_t sig = {0}, want = {0};
  typed_signature_text(&sig, fn);
  ty_text(&want, fn->params[i]);
  int rc = sig.oom || want.oom
               ? tether_raise("MemoryError", "%s: out of memory", fn->name)
               : tether_raise("TypeError", "Mismatched type on argument #%d when calling: `%s`. "
                              "Expected `%s` but got `%s`", i, sig.data, want.data,
                              tether_any_type_key(got));
  free(sig.data);
  free(want.data);
  return rc;
}

static int testing_typed_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const testing_typed_t* fn = self;
  TVMFFIAny conv[TESTING_MAX_PARAMS];
  int32_t done = 0;
  int rc = 0;
  if (n != fn->nparams) {
    testing_buf_t sig = {0};
    typed_signature_text(&sig, fn);
    rc = tether_raise("TypeError", "Mismatched number of arguments when calling: `%s`. Expected %d "
                      "but got %d arguments", sig.oom ? fn->name : sig.data, fn->nparams, (int)n);
    free(sig.data);
    return rc;
  }
  for (; done < n; ++done) {
    rc = ty_convert(fn->params[done], &args[done], &conv[done]);
    if (rc == 1) rc = typed_mismatch(fn, done, &args[done]);
    if (rc != 0) goto done;
  }
  if (fn->impl != NULL) {
    rc = fn->impl(fn, conv, n, result);
  } else {
    *result = conv[0];
    conv[0] = tether_any_none();
  }
done:
  for (int32_t i = 0; i < done; ++i) tether_any_release(&conv[i]);
  return rc;
}

char* testing__metadata_json(const char* schema, const char* extra) {
  testing_buf_t meta = {0};
  buf_put(&meta, "{\"type_schema\": \"");
  for (const char* p = schema; *p != '\0'; ++p) {
    char c[3] = {'\\', *p, 0};
    buf_put(&meta, *p == '"' || *p == '\\' ? c : c + 1);
  }
  buf_put(&meta, "\"");
  if (extra != NULL) {
    buf_put(&meta, ", ");
    buf_put(&meta, extra);
  }
  buf_put(&meta, "}");
  if (meta.oom) {
    free(meta.data);
    tether_raise("MemoryError", "testing: out of memory building metadata");
    return NULL;
  }
  return meta.data;
}

/* The metadata JSON of `fn`: its signature as the type schema, and its extra members. */
static char* typed_metadata(const testing_typed_t* fn) {
  testing_buf_t sig = {0};
  ty_json_signature(&sig, fn->ret, fn->params, fn->nparams);
  char* meta = sig.oom ? NULL : testing__metadata_json(sig.data, fn->extra_metadata);
  if (sig.oom) tether_raise("MemoryError", "%s: out of memory building its metadata", fn->name);
  free(sig.data);
  return meta;
}

static int typed_make_function(const testing_typed_t* fn, TVMFFIObjectHandle* out) {
  return tether_func_create((void*)fn, testing_typed_call, NULL, 0, out);
}

/* ---- implementations ------------------------------------------------------------------------ */

static int impl_none(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return 0;
}

static int impl_add_one(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(args[0].v_int64 + 1);
  return 0;
}

static int impl_one(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(1);
  return 0;
}

/* Appends `item` (view) to the Array `*arr` (owning Any, replaced by the new Array). */
static int array_push(TVMFFIAny* arr, const TVMFFIAny* item) {
  TVMFFIObjectHandle h = arr->v_obj;
  TVMFFIObjectIncRef(h);
  int rc = tether_array_append(&h, item);
  tether_any_release(arr);
  *arr = tether_any_object(h);
  return rc;
}

/* schema_arr_map_opt(arr: Array<Optional<int>>, mp: Map<str, Array<int>>, os: Optional<str>):
 * with `os`, mp[os] = the present ints of `arr`; returns mp. */
static int impl_arr_map_opt(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (args[2].type_index == kTVMFFINone) {
    *result = args[1];
    args[1] = tether_any_none();
    return 0;
  }
  TVMFFIObjectHandle extra = NULL;
  if (tether_array_new(NULL, 0, &extra) != 0) return -1;
  TVMFFIAny extra_any = tether_any_object(extra);
  int rc = 0;
  for (int64_t i = 0; rc == 0 && i < tether_array_size(args[0].v_obj); ++i) {
    const TVMFFIAny* item = tether_array_at(args[0].v_obj, i);
    if (item->type_index != kTVMFFINone) rc = array_push(&extra_any, item);
  }
  TVMFFIObjectHandle mp = args[1].v_obj;
  if (rc == 0) {
    args[1] = tether_any_none();
    rc = tether_map_set(&mp, &args[2], &extra_any);
    *result = tether_any_object(mp);
  }
  tether_any_release(&extra_any);
  return rc;
}

/* The SchemaAllTypes object (its C layout is below). */
typedef struct {
  TVMFFIObject header;
  bool v_bool;
  int64_t v_int;
  double v_float;
  DLDevice v_device;
  DLDataType v_dtype;
  TVMFFIAny v_string;
  TVMFFIAny v_bytes;
  tether_opt_int64_t v_opt_int;
  TVMFFIAny v_opt_str;
  TVMFFIObject* v_arr_int;
  TVMFFIObject* v_arr_str;
  TVMFFIObject* v_map_str_int;
  TVMFFIObject* v_map_str_arr_int;
  TVMFFIAny v_variant;
  TVMFFIObject* v_opt_arr_variant;
} testing_schema_all_t;

static int32_t testing_schema_all_index;

static int impl_add_int(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(((testing_schema_all_t*)args[0].v_obj)->v_int + args[1].v_int64);
  return 0;
}

static int impl_append_int(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (array_push(&args[1], &args[2]) != 0) return -1;
  *result = args[1];
  args[1] = tether_any_none();
  return 0;
}

static int impl_maybe_concat(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray a, b;
  bool has_a = tether_any_get_str(&args[1], &a), has_b = tether_any_get_str(&args[2], &b);
  if (has_a && has_b) {
    char* joined = malloc(a.size + b.size + 1);
    if (joined == NULL) return tether_raise("MemoryError", "%s: out of memory", fn->name);
    memcpy(joined, a.data, a.size);
    memcpy(joined + a.size, b.data, b.size);
    int rc = tether_any_str(joined, a.size + b.size, result);
    free(joined);
    return rc;
  }
  TVMFFIAny* pick = has_a ? &args[1] : &args[2];
  *result = *pick;
  *pick = tether_any_none();
  return 0;
}

/* merge_map(lhs, rhs): lhs with each rhs[k] appended to lhs[k] (or set when absent). */
static int impl_merge_map(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle lhs = args[1].v_obj;
  args[1] = tether_any_none();
  int64_t pos = 0;
  const TVMFFIAny *key = NULL, *value = NULL;
  int rc = 0;
  while (rc == 0 && tether_map_next(args[2].v_obj, &pos, &key, &value)) {
    const TVMFFIAny* have = tether_map_find(lhs, key);
    if (have == NULL) {
      rc = tether_map_set(&lhs, key, value);
      continue;
    }
    TVMFFIAny merged;
    if (any_own(have, &merged) != 0) {
      rc = -1;
      break;
    }
    for (int64_t i = 0; rc == 0 && i < tether_array_size(value->v_obj); ++i) {
      rc = array_push(&merged, tether_array_at(value->v_obj, i));
    }
    if (rc == 0) rc = tether_map_set(&lhs, key, &merged);
    tether_any_release(&merged);
  }
  *result = tether_any_object(lhs);
  return rc;
}

static int impl_make_with(const testing_typed_t* fn, TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObjectHandle obj = NULL, arr_int = NULL, arr_str = NULL, map_a = NULL, map_b = NULL;
  if (tether_object_new_reflected(testing_schema_all_index, &obj) != 0) return -1;
  testing_schema_all_t* s = (testing_schema_all_t*)obj;
  *result = tether_any_object(obj); /* released by the caller on failure */
  s->v_bool = true;
  s->v_int = args[0].v_int64;
  s->v_float = args[1].v_float64;
  s->v_device = (DLDevice){kDLCPU, 0};
  s->v_dtype = (DLDataType){kDLFloat, 32, 1};
  s->v_string = args[2];
  args[2] = tether_any_none();
  s->v_bytes = tether_any_none(); /* empty bytes: a SmallBytes of length 0 */
  s->v_bytes.type_index = kTVMFFISmallBytes;
  s->v_opt_str = tether_any_none();
  if (tether_array_new(NULL, 0, &arr_int) != 0) return -1;
  s->v_arr_int = arr_int;
  if (tether_array_new(NULL, 0, &arr_str) != 0) return -1;
  s->v_arr_str = arr_str;
  if (tether_map_new(NULL, 0, &map_a) != 0) return -1;
  s->v_map_str_int = map_a;
  if (tether_map_new(NULL, 0, &map_b) != 0) return -1;
  s->v_map_str_arr_int = map_b;
  return tether_any_str("v", 1, &s->v_variant);
}

/* ---- the tables ------------------------------------------------------------------------------ */

#define TESTING_META_ATTRS "\"bool_attr\": true, \"int_attr\": 1, \"str_attr\": \"hello\""

static const testing_typed_t testing_typed_globals[] = {
    {"testing.add_one", &ty_int, 1, {&ty_int}, impl_add_one, NULL, NULL},
    {"testing.schema_id_int", &ty_int, 1, {&ty_int}, NULL, NULL, TESTING_META_ATTRS},
    {"testing.schema_id_float", &ty_float, 1, {&ty_float}, NULL, NULL, NULL},
    {"testing.schema_id_bool", &ty_bool, 1, {&ty_bool}, NULL, NULL, NULL},
    {"testing.schema_id_device", &ty_device, 1, {&ty_device}, NULL, NULL, NULL},
    {"testing.schema_id_dtype", &ty_dtype, 1, {&ty_dtype}, NULL, NULL, NULL},
    {"testing.schema_id_string", &ty_str, 1, {&ty_str}, NULL, NULL, NULL},
    {"testing.schema_id_bytes", &ty_bytes, 1, {&ty_bytes}, NULL, NULL, NULL},
    {"testing.schema_id_func", &ty_func, 1, {&ty_func}, NULL, NULL, NULL},
    {"testing.schema_id_func_typed", &ty_func_typed, 1, {&ty_func_typed}, NULL, NULL, NULL},
    {"testing.schema_id_any", &ty_any, 1, {&ty_any}, NULL, NULL, NULL},
    {"testing.schema_id_object", &ty_object, 1, {&ty_object}, NULL, NULL, NULL},
    {"testing.schema_id_dltensor", &ty_dltensor, 1, {&ty_dltensor}, NULL, NULL, NULL},
    {"testing.schema_id_tensor", &ty_tensor, 1, {&ty_tensor}, NULL, NULL, NULL},
    {"testing.schema_tensor_view_input", &ty_none, 1, {&ty_dltensor}, impl_none, NULL, NULL},
    {"testing.schema_id_opt_int", &ty_opt_int, 1, {&ty_opt_int}, NULL, NULL, NULL},
    {"testing.schema_id_opt_str", &ty_opt_str, 1, {&ty_opt_str}, NULL, NULL, NULL},
    {"testing.schema_id_opt_obj", &ty_opt_obj, 1, {&ty_opt_obj}, NULL, NULL, NULL},
    {"testing.schema_id_arr_int", &ty_arr_int, 1, {&ty_arr_int}, NULL, NULL, NULL},
    {"testing.schema_id_arr_str", &ty_arr_str, 1, {&ty_arr_str}, NULL, NULL, NULL},
    {"testing.schema_id_arr_obj", &ty_arr_obj, 1, {&ty_arr_obj}, NULL, NULL, NULL},
    {"testing.schema_id_arr", &ty_arr, 1, {&ty_arr}, NULL, NULL, NULL},
    {"testing.schema_id_list_int", &ty_list_int, 1, {&ty_list_int}, NULL, NULL, NULL},
    {"testing.schema_id_list_str", &ty_list_str, 1, {&ty_list_str}, NULL, NULL, NULL},
    {"testing.schema_id_list_obj", &ty_list_obj, 1, {&ty_list_obj}, NULL, NULL, NULL},
    {"testing.schema_id_map_str_int", &ty_map_str_int, 1, {&ty_map_str_int}, NULL, NULL, NULL},
    {"testing.schema_id_map_str_str", &ty_map_str_str, 1, {&ty_map_str_str}, NULL, NULL, NULL},
    {"testing.schema_id_map_str_obj", &ty_map_str_obj, 1, {&ty_map_str_obj}, NULL, NULL, NULL},
    {"testing.schema_id_map", &ty_map, 1, {&ty_map}, NULL, NULL, NULL},
    {"testing.schema_id_dict_str_int", &ty_dict_str_int, 1, {&ty_dict_str_int}, NULL, NULL, NULL},
    {"testing.schema_id_dict_str_str", &ty_dict_str_str, 1, {&ty_dict_str_str}, NULL, NULL, NULL},
    {"testing.schema_id_variant_int_str", &ty_var_int_str, 1, {&ty_var_int_str}, NULL, NULL, NULL},
    {"testing.schema_arr_map_opt", &ty_map_str_arr_int, 3,
     {&ty_arr_opt_int, &ty_map_str_arr_int, &ty_opt_str}, impl_arr_map_opt, NULL, NULL},
    {"testing.schema_variant_mix", &ty_var_mix, 1, {&ty_var_mix}, NULL, "variant passthrough", NULL},
    {"testing.schema_no_args", &ty_int, 0, {NULL}, impl_one, NULL, NULL},
    {"testing.schema_no_return", &ty_none, 1, {&ty_int}, impl_none, NULL, NULL},
    {"testing.schema_no_args_no_return", &ty_none, 0, {NULL}, impl_none, NULL, NULL},
};

static const testing_typed_t testing_schema_all_methods[] = {
    {"add_int", &ty_int, 2, {&ty_schema_all, &ty_int}, impl_add_int, "add int method",
     TESTING_META_ATTRS},
    {"append_int", &ty_arr_int, 3, {&ty_schema_all, &ty_arr_int, &ty_int}, impl_append_int,
     "append int to array", NULL},
    {"maybe_concat", &ty_opt_str, 3, {&ty_schema_all, &ty_opt_str, &ty_opt_str}, impl_maybe_concat,
     "optional concat", NULL},
    {"merge_map", &ty_map_str_arr_int, 3, {&ty_schema_all, &ty_map_str_arr_int, &ty_map_str_arr_int},
     impl_merge_map, "merge maps", NULL},
};

static const testing_typed_t testing_schema_all_make_with = {
    "make_with", &ty_schema_all, 3, {&ty_int, &ty_float, &ty_str}, impl_make_with,
    "Constructor with subset of fields", NULL};

/* testing.schema_packed: untyped, does nothing. */
static int testing_schema_packed(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return 0;
}

/* ---- registration ------------------------------------------------------------------------- */

/* Registers `fn` as global fn->name (type_index < 0) or as a method of type_index. */
static int register_typed(const testing_typed_t* fn, int32_t type_index, bool is_static) {
  TVMFFIObjectHandle f = NULL;
  char* meta = typed_metadata(fn);
  if (meta == NULL || typed_make_function(fn, &f) != 0) {
    free(meta);
    return -1;
  }
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = (TVMFFIByteArray){fn->name, strlen(fn->name)};
  info.doc = (TVMFFIByteArray){fn->doc ? fn->doc : "", fn->doc ? strlen(fn->doc) : 0};
  info.metadata = (TVMFFIByteArray){meta, strlen(meta)};
  info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  info.method = tether_any_object(f);
  int rc = type_index < 0 ? TVMFFIFunctionSetGlobalFromMethodInfo(&info, 1)
                          : TVMFFITypeRegisterMethod(type_index, &info);
  TVMFFIObjectDecRef(f);
  free(meta);
  return rc;
}

/* The type_schema JSON text of `t` (static storage per call site: `buf`). */
static const char* schema_of(const testing_ty_t* t, char* buf, size_t cap) {
  testing_buf_t b = {0};
  ty_json(&b, t);
  if (b.oom || b.size + 1 > cap) {
    free(b.data);
    return NULL;
  }
  memcpy(buf, b.data, b.size + 1);
  free(b.data);
  return buf;
}

static int register_schema_all_types(void) {
  int32_t index = testing__alloc_type("testing.SchemaAllTypes", kTVMFFIObject, 0);
  if (index < 0) return -1;
  testing_schema_all_index = index;
  const int64_t rw = kTVMFFIFieldFlagBitMaskWritable;
  TVMFFIAny d_int = tether_any_int(0), d_float = tether_any_float(0.0),
            d_str = tether_any_raw_str("s");
  static const struct {
    const char* name;
    tether_field_kind kind;
    int64_t offset;
    int32_t object_index;
    const testing_ty_t* declared; /* NULL: the kind's own type */
    int default_slot;             /* 0 none, 1 int, 2 float, 3 str */
    const char* doc;
    const char* extra;
  } fields[] = {
      {"v_bool", TETHER_FIELD_BOOL, offsetof(testing_schema_all_t, v_bool), 0, NULL, 0, "bool field",
       TESTING_META_ATTRS},
      {"v_int", TETHER_FIELD_INT64, offsetof(testing_schema_all_t, v_int), 0, NULL, 1, "int field", NULL},
      {"v_float", TETHER_FIELD_FLOAT64, offsetof(testing_schema_all_t, v_float), 0, NULL, 2,
       "float field", NULL},
      {"v_device", TETHER_FIELD_DEVICE, offsetof(testing_schema_all_t, v_device), 0, NULL, 0,
       "device field", NULL},
      {"v_dtype", TETHER_FIELD_DTYPE, offsetof(testing_schema_all_t, v_dtype), 0, NULL, 0,
       "dtype field", NULL},
      {"v_string", TETHER_FIELD_STRING, offsetof(testing_schema_all_t, v_string), 0, NULL, 3,
       "string field", NULL},
      {"v_bytes", TETHER_FIELD_ANY, offsetof(testing_schema_all_t, v_bytes), 0, &ty_bytes, 0,
       "bytes field", NULL},
      {"v_opt_int", TETHER_FIELD_OPT_INT64, offsetof(testing_schema_all_t, v_opt_int), 0, &ty_opt_int,
       0, "optional int", NULL},
      {"v_opt_str", TETHER_FIELD_OPT_STRING, offsetof(testing_schema_all_t, v_opt_str), 0, &ty_opt_str,
       0, "optional str", NULL},
      {"v_arr_int", TETHER_FIELD_OBJECT, offsetof(testing_schema_all_t, v_arr_int), kTVMFFIArray,
       &ty_arr_int, 0, "array<int>", NULL},
      {"v_arr_str", TETHER_FIELD_OBJECT, offsetof(testing_schema_all_t, v_arr_str), kTVMFFIArray,
       &ty_arr_str, 0, "array<str>", NULL},
      {"v_map_str_int", TETHER_FIELD_OBJECT, offsetof(testing_schema_all_t, v_map_str_int), kTVMFFIMap,
       &ty_map_str_int, 0, "map<str,int>", NULL},
      {"v_map_str_arr_int", TETHER_FIELD_OBJECT, offsetof(testing_schema_all_t, v_map_str_arr_int),
       kTVMFFIMap, &ty_map_str_arr_int, 0, "map<str,array<int>>", NULL},
      {"v_variant", TETHER_FIELD_ANY, offsetof(testing_schema_all_t, v_variant), 0, &ty_var_field, 0,
       "variant<str,array<int>,map<str,int>>", NULL},
      {"v_opt_arr_variant", TETHER_FIELD_OPT_OBJECT, offsetof(testing_schema_all_t, v_opt_arr_variant),
       kTVMFFIArray, &ty_opt_arr_var, 0, "optional<array<variant<int,str>>>", NULL},
  };
  const TVMFFIAny* defaults[] = {NULL, &d_int, &d_float, &d_str};
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i) {
    char schema[512];
    tether_field_def_t def = {fields[i].name, fields[i].kind, fields[i].offset, rw,
                              fields[i].object_index, defaults[fields[i].default_slot],
                              fields[i].doc, NULL, fields[i].extra};
    if (fields[i].declared != NULL) {
      def.type_schema = schema_of(fields[i].declared, schema, sizeof(schema));
      if (def.type_schema == NULL) return tether_raise("MemoryError", "testing: schema too long");
    }
    if (tether_type_def_field(index, &def) != 0) return -1;
  }
  if (tether_type_def_finish(index, sizeof(testing_schema_all_t), NULL) != 0) return -1;
  for (size_t i = 0; i < sizeof(testing_schema_all_methods) / sizeof(testing_schema_all_methods[0]); ++i) {
    if (register_typed(&testing_schema_all_methods[i], index, false) != 0) return -1;
  }
  return register_typed(&testing_schema_all_make_with, index, true);
}

int testing__register_typed(void) {
  for (size_t i = 0; i < sizeof(testing_typed_globals) / sizeof(testing_typed_globals[0]); ++i) {
    if (register_typed(&testing_typed_globals[i], -1, false) != 0) return -1;
  }
  char* meta = testing__metadata_json("{\"type\":\"ffi.Function\"}", NULL);
  int rc = meta != NULL ? tether_func_register("testing.schema_packed", testing_schema_packed,
                                               NULL, meta, 1)
                        : -1;
  free(meta);
  if (rc != 0) return -1;
  return register_schema_all_types();
}
