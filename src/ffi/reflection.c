/*
 * reflection.c -- reflected fields and the generic object services built on them:
 * the field kinds' getters/setters (reflection.h), reflected C-struct objects and their
 * destructor, ffi.MakeObjectFromPackedArgs, the auto `__ffi_init__` and
 * ffi.GetRegisteredTypeKeys.
 *
 * Everything here reaches other subsystems through the ABI, tether.h and the global
 * functions (e.g. maps are iterated with ffi.MapForwardIterFunctor), so that the
 * container layout can change without touching this file.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tether/reflection.h>

#include "internal.h"
#include "dataclass.h"
#include "error.h"
#include "object.h"
#include "registry.h"
#include "type.h"

/* ---- field kinds: getters and setters ------------------------------------------------- */

static const char* tether__kind_target_name(tether_field_kind kind);

static int tether__convert_error(const TVMFFIAny* value, tether_field_kind kind) {
  return tether_raise("TypeError", "Cannot convert from type `%s` to `%s`",
                      tether_any_type_key(value), tether__kind_target_name(kind));
}

static bool tether__as_int(const TVMFFIAny* v, int64_t* out) {
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
    *out = v->v_int64;
    return true;
  }
  return false;
}

static bool tether__as_float(const TVMFFIAny* v, double* out) {
  if (v->type_index == kTVMFFIFloat) {
    *out = v->v_float64;
    return true;
  }
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
    *out = (double)v->v_int64;
    return true;
  }
  return false;
}

static int tether__get_INT64(void* field, TVMFFIAny* out) {
  *out = tether_any_int(*(int64_t*)field);
  return 0;
}
static int tether__set_INT64(void* field, const TVMFFIAny* v) {
  int64_t x;
  if (!tether__as_int(v, &x)) return tether__convert_error(v, TETHER_FIELD_INT64);
  *(int64_t*)field = x;
  return 0;
}

static int tether__get_INT32(void* field, TVMFFIAny* out) {
  *out = tether_any_int(*(int32_t*)field);
  return 0;
}
static int tether__set_INT32(void* field, const TVMFFIAny* v) {
  int64_t x;
  if (!tether__as_int(v, &x)) return tether__convert_error(v, TETHER_FIELD_INT32);
  if (x < INT32_MIN || x > INT32_MAX) {
    return tether_raise("OverflowError", "Value %" PRId64 " does not fit in a 32-bit int field", x);
  }
  *(int32_t*)field = (int32_t)x;
  return 0;
}

static int tether__get_FLOAT64(void* field, TVMFFIAny* out) {
  *out = tether_any_float(*(double*)field);
  return 0;
}
static int tether__set_FLOAT64(void* field, const TVMFFIAny* v) {
  double x;
  if (!tether__as_float(v, &x)) return tether__convert_error(v, TETHER_FIELD_FLOAT64);
  *(double*)field = x;
  return 0;
}

static int tether__get_FLOAT32(void* field, TVMFFIAny* out) {
  *out = tether_any_float(*(float*)field);
  return 0;
}
static int tether__set_FLOAT32(void* field, const TVMFFIAny* v) {
  double x;
  if (!tether__as_float(v, &x)) return tether__convert_error(v, TETHER_FIELD_FLOAT32);
  /* Out of float's range the conversion is undefined: such values saturate to infinity. */
  if (x > FLT_MAX) {
    *(float*)field = INFINITY;
  } else if (x < -FLT_MAX) {
    *(float*)field = -INFINITY;
  } else {
    *(float*)field = (float)x;
  }
  return 0;
}

static int tether__get_BOOL(void* field, TVMFFIAny* out) {
  *out = tether_any_bool(*(bool*)field);
  return 0;
}
static int tether__set_BOOL(void* field, const TVMFFIAny* v) {
  int64_t x;
  if (!tether__as_int(v, &x)) return tether__convert_error(v, TETHER_FIELD_BOOL);
  *(bool*)field = x != 0;
  return 0;
}

static int tether__get_DTYPE(void* field, TVMFFIAny* out) {
  *out = tether_any_dtype(*(DLDataType*)field);
  return 0;
}
static int tether__set_DTYPE(void* field, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  if (v->type_index == kTVMFFIDataType) {
    *(DLDataType*)field = v->v_dtype;
    return 0;
  }
  if (tether_any_get_str(v, &s)) return TVMFFIDataTypeFromString(&s, (DLDataType*)field);
  return tether__convert_error(v, TETHER_FIELD_DTYPE);
}

static int tether__get_DEVICE(void* field, TVMFFIAny* out) {
  DLDevice d = *(DLDevice*)field;
  *out = tether_any_device(d.device_type, d.device_id);
  return 0;
}

/* Parses "cuda:1" / "cpu" into a device; -1 with ValueError on bad text. */
static int tether__parse_device(TVMFFIByteArray s, DLDevice* out) {
  size_t colon = 0;
  while (colon < s.size && s.data[colon] != ':') ++colon;
  int32_t type = tether_device_type_from_name(s.data, colon);
  int64_t id = 0;
  if (type >= 0 && colon < s.size) {
    if (colon + 1 == s.size) type = -1;
    for (size_t i = colon + 1; i < s.size && type >= 0; ++i) {
      if (s.data[i] < '0' || s.data[i] > '9' || id > INT32_MAX / 10) {
        type = -1;
      } else {
        id = id * 10 + (s.data[i] - '0');
      }
    }
  }
  if (type < 0) {
    return tether_raise("ValueError", "Cannot parse device from string \"%.*s\"", (int)s.size,
                        s.data);
  }
  out->device_type = (DLDeviceType)type;
  out->device_id = (int32_t)id;
  return 0;
}

static int tether__set_DEVICE(void* field, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  if (v->type_index == kTVMFFIDevice) {
    *(DLDevice*)field = v->v_device;
    return 0;
  }
  if (tether_any_get_str(v, &s)) return tether__parse_device(s, (DLDevice*)field);
  return tether__convert_error(v, TETHER_FIELD_DEVICE);
}

static int tether__get_ANY(void* field, TVMFFIAny* out) {
  tether_any_copy((const TVMFFIAny*)field, out);
  return 0;
}

/* Stores an owning copy of view `v` into the TVMFFIAny at `field`, releasing the old. */
static int tether__store_any(void* field, const TVMFFIAny* v) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
  tether_any_release((TVMFFIAny*)field);
  *(TVMFFIAny*)field = owned;
  return 0;
}

static int tether__set_ANY(void* field, const TVMFFIAny* v) { return tether__store_any(field, v); }

static bool tether__is_str(const TVMFFIAny* v) {
  return v->type_index == kTVMFFIRawStr || v->type_index == kTVMFFISmallStr ||
         v->type_index == kTVMFFIStr;
}

static int tether__set_STRING(void* field, const TVMFFIAny* v) {
  if (!tether__is_str(v)) return tether__convert_error(v, TETHER_FIELD_STRING);
  return tether__store_any(field, v);
}

static int tether__set_OPT_STRING(void* field, const TVMFFIAny* v) {
  if (v->type_index != kTVMFFINone && !tether__is_str(v)) {
    return tether__convert_error(v, TETHER_FIELD_OPT_STRING);
  }
  return tether__store_any(field, v);
}

static int tether__get_OBJECT(void* field, TVMFFIAny* out) {
  TVMFFIObject* obj = *(TVMFFIObject**)field;
  if (obj == NULL) {
    *out = tether_any_none();
    return 0;
  }
  TVMFFIObjectIncRef(obj);
  *out = tether_any_object(obj);
  return 0;
}

static int tether__store_object(void* field, const TVMFFIAny* v, tether_field_kind kind) {
  bool is_none = v->type_index == kTVMFFINone;
  if (!(v->type_index >= kTVMFFIStaticObjectBegin || v->type_index == kTVMFFIObjectRValueRef ||
        (is_none && kind == TETHER_FIELD_OPT_OBJECT))) {
    return tether__convert_error(v, kind);
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
  TVMFFIObject* old = *(TVMFFIObject**)field;
  *(TVMFFIObject**)field = is_none ? NULL : owned.v_obj;
  TVMFFIObjectDecRef(old);
  return 0;
}

static int tether__set_OBJECT(void* field, const TVMFFIAny* v) {
  return tether__store_object(field, v, TETHER_FIELD_OBJECT);
}
static int tether__set_OPT_OBJECT(void* field, const TVMFFIAny* v) {
  return tether__store_object(field, v, TETHER_FIELD_OPT_OBJECT);
}

static int tether__get_OPT_INT64(void* field, TVMFFIAny* out) {
  const tether_opt_int64_t* f = field;
  *out = f->has_value ? tether_any_int(f->value) : tether_any_none();
  return 0;
}
static int tether__set_OPT_INT64(void* field, const TVMFFIAny* v) {
  tether_opt_int64_t* f = field;
  if (v->type_index == kTVMFFINone) {
    f->has_value = false;
    f->value = 0;
    return 0;
  }
  if (!tether__as_int(v, &f->value)) return tether__convert_error(v, TETHER_FIELD_OPT_INT64);
  f->has_value = true;
  return 0;
}

static int tether__get_OPT_FLOAT64(void* field, TVMFFIAny* out) {
  const tether_opt_float64_t* f = field;
  *out = f->has_value ? tether_any_float(f->value) : tether_any_none();
  return 0;
}
static int tether__set_OPT_FLOAT64(void* field, const TVMFFIAny* v) {
  tether_opt_float64_t* f = field;
  if (v->type_index == kTVMFFINone) {
    f->has_value = false;
    f->value = 0;
    return 0;
  }
  if (!tether__as_float(v, &f->value)) return tether__convert_error(v, TETHER_FIELD_OPT_FLOAT64);
  f->has_value = true;
  return 0;
}

#define tether__get_STRING tether__get_ANY
#define tether__get_OPT_STRING tether__get_ANY
#define tether__get_OPT_OBJECT tether__get_OBJECT

/* How a kind's storage is released when its object dies. */
typedef enum { TETHER_RELEASE_NONE, TETHER_RELEASE_ANY, TETHER_RELEASE_OBJECT } tether_release_t;

typedef struct {
  const char* schema;
  int32_t static_type_index;
  int32_t size;
  int32_t alignment;
  TVMFFIFieldGetter getter;
  TVMFFIFieldSetter setter;
  tether_release_t release;
} tether_field_kind_info_t;

#define TETHER__RELEASE_OF(ctype) \
  _Generic((ctype*)0, TVMFFIAny*: TETHER_RELEASE_ANY, TVMFFIObject**: TETHER_RELEASE_OBJECT, default: TETHER_RELEASE_NONE)

static const tether_field_kind_info_t tether__kinds[TETHER_FIELD_NUM_KINDS] = {
#define TETHER__KIND_ROW(name, ctype, tindex, schema_text)                                   \
  [TETHER_FIELD_##name] = {schema_text,        tindex,                                       \
                           sizeof(ctype),      _Alignof(ctype),                              \
                           tether__get_##name, tether__set_##name,                           \
                           TETHER__RELEASE_OF(ctype)},
    TETHER_FIELD_KINDS(TETHER__KIND_ROW)
#undef TETHER__KIND_ROW
};


static const char* tether__kind_target_name(tether_field_kind kind) {
  switch (kind) {
    case TETHER_FIELD_INT64:
    case TETHER_FIELD_INT32:
    case TETHER_FIELD_OPT_INT64:
      return "int";
    case TETHER_FIELD_FLOAT64:
    case TETHER_FIELD_FLOAT32:
    case TETHER_FIELD_OPT_FLOAT64:
      return "float";
    case TETHER_FIELD_STRING:
    case TETHER_FIELD_OPT_STRING:
      return "str";
    default:
      return tether__kinds[kind].schema;
  }
}

TVMFFIFieldGetter tether_field_getter(tether_field_kind kind) {
  return (unsigned)kind < TETHER_FIELD_NUM_KINDS ? tether__kinds[kind].getter : NULL;
}

TVMFFIFieldSetter tether_field_setter(tether_field_kind kind) {
  return (unsigned)kind < TETHER_FIELD_NUM_KINDS ? tether__kinds[kind].setter : NULL;
}

int tether_field_kind_of_getter(TVMFFIFieldGetter getter) {
  /* Several kinds share a getter (STRING/OPT_STRING/ANY); the first row wins, and those
   * rows agree on how the storage is released, which is all callers need. */
  for (int k = 0; k < TETHER_FIELD_NUM_KINDS; ++k) {
    if (tether__kinds[k].getter == getter) return k;
  }
  return -1;
}

/* ---- defining reflected types --------------------------------------------------------- */

static TVMFFIByteArray tether__bytes(const char* s) {
  return (TVMFFIByteArray){s != NULL ? s : "", s != NULL ? strlen(s) : 0};
}

int tether_type_def_field(int32_t type_index, const tether_field_def_t* def) {
  if (def == NULL || def->name == NULL) {
    return tether_raise("ValueError", "tether_type_def_field: argument `def` must name a field");
  }
  if ((unsigned)def->kind >= TETHER_FIELD_NUM_KINDS) {
    return tether_raise("ValueError", "tether_type_def_field: field `%s` has unknown kind %d",
                        def->name, (int)def->kind);
  }
  /* Offsets count from the header: a field inside it would overwrite the refcount. */
  if (def->offset < (int64_t)sizeof(TVMFFIObject)) {
    return tether_raise("ValueError", "tether_type_def_field: field `%s` has offset %lld, inside "
                        "the %zu-byte object header", def->name, (long long)def->offset,
                        sizeof(TVMFFIObject));
  }
  const tether_field_kind_info_t* k = &tether__kinds[def->kind];
  const char* type_name = k->schema;
  bool is_object = def->kind == TETHER_FIELD_OBJECT || def->kind == TETHER_FIELD_OPT_OBJECT;
  bool is_boxed = def->kind == TETHER_FIELD_STRING || def->kind == TETHER_FIELD_OPT_STRING ||
                  def->kind == TETHER_FIELD_ANY;
  int32_t static_index = k->static_type_index;
  if (is_object && def->object_type_index > 0) {
    static_index = def->object_type_index;
    type_name = tether_type_key(def->object_type_index);
  }
  /* The declared type: the given schema, else the kind's ({"type":X} or Optional<X>). */
  char own[192];
  const char* declared = def->type_schema;
  if (declared == NULL) {
    if (is_object && def->kind == TETHER_FIELD_OPT_OBJECT) {
      snprintf(own, sizeof(own), "{\"type\":\"Optional\",\"args\":[{\"type\":\"%s\"}]}", type_name);
    } else {
      snprintf(own, sizeof(own), "{\"type\":\"%s\"}", type_name);
    }
    declared = own;
  } else if (!is_object && !is_boxed) {
    snprintf(own, sizeof(own), "{\"type\":\"%s\"}", k->schema);
    if (strcmp(own, declared) != 0) static_index = kTVMFFIAny;
  }
  /* metadata = {"type_schema": "<declared, as a JSON string>"[, extra members]} */
  size_t dn = strlen(declared);
  size_t en = def->extra_metadata != NULL ? strlen(def->extra_metadata) : 0;
  char* schema = malloc(dn * 2 + en + 28);
  if (schema == NULL) {
    return tether_raise("MemoryError", "tether_type_def_field: out of memory for field `%s`", def->name);
  }
  static const char head[] = "{\"type_schema\": \"";
  char* w = schema;
  memcpy(w, head, sizeof(head) - 1);
  w += sizeof(head) - 1;
  for (size_t i = 0; i < dn; ++i) {
    if (declared[i] == '"' || declared[i] == '\\') *w++ = '\\';
    *w++ = declared[i];
  }
  *w++ = '"';
  if (en != 0) {
    memcpy(w, ", ", 2);
    memcpy(w + 2, def->extra_metadata, en);
    w += en + 2;
  }
  memcpy(w, "}", 2);
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = tether__bytes(def->name);
  info.doc = tether__bytes(def->doc);
  info.metadata = tether__bytes(schema);
  info.flags = def->flags;
  info.size = k->size;
  info.alignment = k->alignment;
  info.offset = def->offset;
  info.getter = k->getter;
  info.setter = (void*)k->setter;
  info.default_value_or_factory = tether_any_none();
  if (def->default_value != NULL) {
    info.flags |= kTVMFFIFieldFlagBitMaskHasDefault;
    info.default_value_or_factory = *def->default_value;
  }
  info.field_static_type_index = static_index;
  int rc = TVMFFITypeRegisterField(type_index, &info);
  free(schema);
  return rc;
}

int tether_type_def_method(int32_t type_index, const char* name, TVMFFISafeCallType fn,
                           bool is_static, const char* doc) {
  if (fn == NULL) {
    return tether_raise("ValueError", "tether_type_def_method: argument `fn` of method `%s` must "
                        "not be NULL", name != NULL ? name : "");
  }
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(NULL, fn, NULL, &f) != 0) return -1;
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = tether__bytes(name);
  info.doc = tether__bytes(doc);
  info.metadata = tether__bytes("");
  info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  info.method = tether_any_object(f);
  int rc = TVMFFITypeRegisterMethod(type_index, &info);
  TVMFFIObjectDecRef(f);
  return rc;
}

static int tether__register_auto_init(int32_t type_index);
static int tether__for_each_field(const TVMFFITypeInfo* info,
                                  int (*fn)(const TVMFFIFieldInfo* f, void* ctx), void* ctx);

/* Raises if field `f` (ctx: the int32 total size) does not fit in objects of that size. */
static int tether__check_field_fits(const TVMFFIFieldInfo* f, void* ctx) {
  int32_t total_size = *(const int32_t*)ctx;
  if (f->offset < 0 || f->size < 0 || f->offset + f->size > total_size) {
    return tether_raise("ValueError", "tether_type_def_finish: total_size %d cannot hold field "
                        "`%.*s` (offset %lld, size %lld)", (int)total_size, (int)f->name.size,
                        f->name.data, (long long)f->offset, (long long)f->size);
  }
  return 0;
}

int tether_type_def_finish(int32_t type_index, int32_t total_size, const char* doc) {
  tether_type_finish_t def = {total_size, NULL, false, doc};
  return tether_type_def_finish_ex(type_index, &def);
}

int tether_type_def_finish_ex(int32_t type_index, const tether_type_finish_t* def) {
  if (def == NULL) {
    return tether_raise("ValueError", "tether_type_def_finish_ex: argument `def` must not be NULL");
  }
  /* Objects are allocated with total_size bytes (tether_object_new_reflected): too small,
   * and the field setters would write past their end. */
  int32_t total_size = def->total_size;
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  if (info != NULL && total_size < (int32_t)sizeof(TVMFFIObject)) {
    return tether_raise("ValueError", "tether_type_def_finish: total_size %d of `%s` is smaller "
                        "than the object header", (int)total_size, tether_type_key(type_index));
  }
  if (info != NULL && tether__for_each_field(info, tether__check_field_fits, &total_size) != 0) {
    return -1;
  }
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.doc = tether__bytes(def->doc);
  md.creator = def->creator;
  md.total_size = total_size;
  md.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  if (TVMFFITypeRegisterMetadata(type_index, &md) != 0) return -1;
  if (tether_type_def_final(type_index) != 0) return -1;
  /* every field is of a tether kind, so the generic copy works (as tvm-ffi's ObjectDef
   * registers a copy for copy-constructible classes) */
  if (tether__shallow_copy_register(type_index) != 0) return -1;
  return def->no_init ? 0 : tether__register_auto_init(type_index);
}

int tether_type_def_final(int32_t type_index) {
  if (tether__type_info_or_null(type_index) == NULL) {
    return tether_raise("ValueError", "tether_type_def_final: argument `type_index` %d is not "
                        "a registered type", (int)type_index);
  }
  static const TVMFFIByteArray name = {"__ffi_type_final__", 18};
  TVMFFIAny value = tether_any_bool(tether__type_is_final(type_index));
  return TVMFFITypeRegisterAttr(type_index, &name, &value);
}

/* Calls fn(field, ctx) for every field of the type, ancestors' first; stops on non-zero. */
static int tether__for_each_field(const TVMFFITypeInfo* info,
                                  int (*fn)(const TVMFFIFieldInfo* f, void* ctx), void* ctx) {
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      int rc = fn(&t->fields[i], ctx);
      if (rc != 0) return rc;
    }
  }
  return 0;
}

typedef struct {
  const char* name;
  size_t len;
  const TVMFFIFieldInfo* found;
} tether_find_field_ctx;

static int tether__find_field_cb(const TVMFFIFieldInfo* f, void* ctx) {
  tether_find_field_ctx* c = ctx;
  if (f->name.size == c->len && memcmp(f->name.data, c->name, c->len) == 0) c->found = f;
  return 0; /* keep going: a derived type's field shadows its ancestor's */
}

const TVMFFIFieldInfo* tether_type_find_field(int32_t type_index, const char* name, size_t len) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  if (info == NULL || name == NULL) return NULL;
  tether_find_field_ctx ctx = {name, len, NULL};
  tether__for_each_field(info, tether__find_field_cb, &ctx);
  return ctx.found;
}

/*
 * true if `field` describes a field of obj's type or one of its ancestors: the same entry,
 * or a copy of it (bindings keep copies, since a type's field array moves as it grows).
 * Without this a field of another type would read or write foreign memory at its offset.
 */
static bool tether__field_of(const TVMFFIObject* obj, const TVMFFIFieldInfo* field) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  /* The type's own field infos (the common case) are found by address first. */
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    if (t->num_fields > 0 && field >= t->fields && field < t->fields + t->num_fields) return true;
  }
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      if (f == field || (f->offset == field->offset && f->getter == field->getter &&
                         f->setter == field->setter && f->name.size == field->name.size &&
                         (f->name.size == 0 ||
                          memcmp(f->name.data, field->name.data, f->name.size) == 0))) {
        return true;
      }
    }
  }
  return false;
}

static int tether__field_mismatch(const char* fname, const TVMFFIObject* obj,
                                  const TVMFFIFieldInfo* field) {
  return tether_raise("TypeError", "%s: `%.*s` is not a field of type `%s`", fname,
                      (int)field->name.size, field->name.data != NULL ? field->name.data : "",
                      tether_type_key(obj->type_index));
}

int tether_field_get(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* field, TVMFFIAny* out) {
  if (obj == NULL || field == NULL || out == NULL || field->getter == NULL) {
    return tether_raise("ValueError", "tether_field_get: object, field (with a getter) and out must not be NULL");
  }
  if (!tether__field_of(obj, field)) return tether__field_mismatch("tether_field_get", obj, field);
  *out = tether_any_none();
  return field->getter((char*)obj + field->offset, out);
}

int tether_field_set(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* field, const TVMFFIAny* value) {
  if (obj == NULL || field == NULL || value == NULL || field->setter == NULL) {
    return tether_raise("ValueError", "tether_field_set: object, field (with a setter) and value must not be NULL");
  }
  if (!tether__field_of(obj, field)) return tether__field_mismatch("tether_field_set", obj, field);
  if (value->type_index >= kTVMFFIStaticObjectBegin && value->v_obj == NULL) {
    return tether_raise("ValueError", "tether_field_set: the value of field `%.*s` is an object "
                        "view (type index %d) holding NULL", (int)field->name.size,
                        field->name.data, (int)value->type_index);
  }
  int32_t want = field->field_static_type_index;
  int32_t got = value->type_index;
  if (want > kTVMFFIStaticObjectBegin && got >= kTVMFFIStaticObjectBegin &&
      !tether_type_is_subclass(value->v_obj->type_index, want)) {
    return tether_raise("TypeError", "Cannot convert from type `%s` to `%s`",
                        tether_any_type_key(value), tether_type_key(want));
  }
  /* A value that is no object at all, for a field of a particular object type: the error
   * names that type (the kind's setter only knows ffi.Object). */
  if (want > kTVMFFIStaticObjectBegin && got < kTVMFFIStaticObjectBegin &&
      got != kTVMFFIObjectRValueRef && !(field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj)) {
    TVMFFIFieldSetter setter = (TVMFFIFieldSetter)field->setter;
    if (setter == tether__set_OBJECT || (setter == tether__set_OPT_OBJECT && got != kTVMFFINone)) {
      return tether_raise("TypeError", "Cannot convert from type `%s` to `%s`",
                          tether_any_type_key(value), tether_type_key(want));
    }
  }
  void* addr = (char*)obj + field->offset;
  if (field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny args[2] = {tether_any_ptr(addr), *value};
    TVMFFIAny result = tether_any_none();
    int rc = TVMFFIFunctionCall(field->setter, args, 2, &result);
    tether_any_release(&result);
    return rc;
  }
  return ((TVMFFIFieldSetter)field->setter)(addr, value);
}

/* ---- reflected objects ------------------------------------------------------------------ */

static int tether__release_field_cb(const TVMFFIFieldInfo* f, void* obj) {
  int kind = tether_field_kind_of_getter(f->getter);
  if (kind < 0) return 0;
  void* addr = (char*)obj + f->offset;
  switch (tether__kinds[kind].release) {
    case TETHER_RELEASE_ANY:
      tether_any_release((TVMFFIAny*)addr);
      break;
    case TETHER_RELEASE_OBJECT:
      TVMFFIObjectDecRef(*(TVMFFIObject**)addr);
      *(TVMFFIObject**)addr = NULL;
      break;
    case TETHER_RELEASE_NONE:
      break;
  }
  return 0;
}

static void tether__reflected_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    const TVMFFITypeInfo* info = tether__type_info_or_null(((TVMFFIObject*)self)->type_index);
    if (info != NULL) tether__for_each_field(info, tether__release_field_cb, self);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

int tether_object_new_reflected(int32_t type_index, TVMFFIObjectHandle* out) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  if (out == NULL) {
    return tether_raise("ValueError", "tether_object_new_reflected: argument `out` must not be NULL");
  }
  if (info == NULL || !tether__type_has_reflected_layout(info)) {
    return tether_raise("TypeError", "tether_object_new_reflected: type `%s` (index %d) has no "
                        "reflected layout to create objects from",
                        tether_type_key(type_index), (int)type_index);
  }
  void* obj = tether__object_alloc((size_t)info->metadata->total_size, type_index,
                                   tether__reflected_deleter);
  if (obj == NULL) return -1;
  *out = obj;
  return 0;
}

/* Creates a default object of the type: its creator, else a reflected object.  A creator
 * that breaks its contract (no object, or one of another type, whose memory the field
 * setters would then misread) raises instead of being trusted. */
static int tether__create_default(const TVMFFITypeInfo* info, TVMFFIObjectHandle* out) {
  if (info->metadata == NULL || info->metadata->creator == NULL) {
    return tether_object_new_reflected(info->type_index, out);
  }
  TVMFFIObjectHandle obj = NULL;
  if (info->metadata->creator(&obj) != 0) return -1;
  if (obj == NULL || ((TVMFFIObject*)obj)->type_index != info->type_index) {
    int32_t got = obj != NULL ? ((TVMFFIObject*)obj)->type_index : kTVMFFINone;
    TVMFFIObjectDecRef(obj);
    return tether_raise("TypeError", "the creator of type `%.*s` returned `%s`, not an object "
                        "of that type", (int)info->type_key.size, info->type_key.data,
                        tether_type_key(got));
  }
  *out = obj;
  return 0;
}

/* Fields in construction order (ancestors first), into a malloc'd array. */
typedef struct {
  const TVMFFIFieldInfo** items;
  int32_t n;
  int32_t cap;
} tether_field_list;

static int tether__collect_cb(const TVMFFIFieldInfo* f, void* ctx) {
  tether_field_list* l = ctx;
  if (l->n == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 8;
    const TVMFFIFieldInfo** items = realloc(l->items, sizeof(*items) * (size_t)cap);
    if (items == NULL) return tether_raise("MemoryError", "out of memory collecting fields");
    l->items = items;
    l->cap = cap;
  }
  l->items[l->n++] = f;
  return 0;
}

int tether_field_set_default(TVMFFIObjectHandle obj, const TVMFFIFieldInfo* f) {
  if (!(f->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
    return tether_field_set(obj, f, &f->default_value_or_factory);
  }
  TVMFFIAny value = tether_any_none();
  if (TVMFFIFunctionCall(f->default_value_or_factory.v_obj, NULL, 0, &value) != 0) return -1;
  int rc = tether_field_set(obj, f, &value);
  tether_any_release(&value);
  return rc;
}

static int tether__resolve_type(const char* fname, const TVMFFIAny* arg, const TVMFFITypeInfo** out) {
  TVMFFIByteArray key;
  int32_t index = -1;
  if (tether_any_get_str(arg, &key)) {
    if (TVMFFITypeKeyToIndex(&key, &index) != 0) return -1;
  } else if (arg->type_index == kTVMFFIInt) {
    /* Checked before narrowing: 2^32 + 1 must not silently name type 1. */
    if (arg->v_int64 < 0 || arg->v_int64 > INT32_MAX) {
      return tether_raise("ValueError", "%s: unknown type index %" PRId64, fname, arg->v_int64);
    }
    index = (int32_t)arg->v_int64;
  } else {
    return tether_raise("TypeError", "%s: argument #0 must be a type key (str) or type index (int), got `%s`",
                        fname, tether_any_type_key(arg));
  }
  *out = tether__type_info_or_null(index);
  if (*out == NULL) return tether_raise("ValueError", "%s: unknown type index %d", fname, (int)index);
  return 0;
}

/* ffi.MakeObjectFromPackedArgs(type_key_or_index, name0, value0, name1, value1, ...) */
static int tether__make_object_from_packed_args(void* self, const TVMFFIAny* args, int32_t n,
                                                TVMFFIAny* result) {
  static const char* fname = "ffi.MakeObjectFromPackedArgs";
  const TVMFFITypeInfo* info = NULL;
  TVMFFIObjectHandle obj = NULL;
  tether_field_list fields = {NULL, 0, 0};
  bool* is_set = NULL;
  if (n < 1 || n % 2 != 1) {
    return tether_raise("TypeError", "%s: expects a type key followed by name/value pairs, got %d arguments",
                        fname, (int)n);
  }
  if (tether__resolve_type(fname, &args[0], &info) != 0) goto fail;
  if (tether__for_each_field(info, tether__collect_cb, &fields) != 0) goto fail;
  is_set = calloc((size_t)fields.n + 1, sizeof(bool));
  if (is_set == NULL) {
    tether_raise("MemoryError", "%s: out of memory", fname);
    goto fail;
  }
  if (tether__create_default(info, &obj) != 0) {
    /* e.g. "tether_object_new_reflected: type `int` has no reflected layout": say who was
     * called. */
    tether__error_add_context(fname);
    goto fail;
  }
  for (int32_t i = 1; i < n; i += 2) {
    TVMFFIByteArray name;
    if (!tether_any_get_str(&args[i], &name)) {
      tether_raise("TypeError", "%s: argument #%d must be a field name (str), got `%s`", fname, (int)i,
                   tether_any_type_key(&args[i]));
      goto fail;
    }
    int32_t j = fields.n - 1; /* search backwards: derived fields shadow ancestors' */
    while (j >= 0 && !(fields.items[j]->name.size == name.size &&
                       memcmp(fields.items[j]->name.data, name.data, name.size) == 0)) {
      --j;
    }
    if (j < 0) {
      tether_raise("TypeError", "%s: Type `%.*s` does not have field `%.*s`", fname,
                   (int)info->type_key.size, info->type_key.data, (int)name.size, name.data);
      goto fail;
    }
    if (tether_field_set(obj, fields.items[j], &args[i + 1]) != 0) {
      /* "Cannot convert from type `X` to `int`" alone names neither the call nor the field. */
      char context[256];
      snprintf(context, sizeof(context), "%s: field `%.*s` of `%.*s`", fname, (int)name.size,
               name.data, (int)info->type_key.size, info->type_key.data);
      tether__error_add_context(context);
      goto fail;
    }
    is_set[j] = true;
  }
  for (int32_t j = 0; j < fields.n; ++j) {
    if (is_set[j]) continue;
    const TVMFFIFieldInfo* f = fields.items[j];
    if (!(f->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
      tether_raise("TypeError", "%s: Required field `%.*s` not set in type `%.*s`", fname, (int)f->name.size,
                   f->name.data, (int)info->type_key.size, info->type_key.data);
      goto fail;
    }
    if (tether_field_set_default(obj, f) != 0) goto fail;
  }
  free(fields.items);
  free(is_set);
  *result = tether_any_object(obj);
  return 0;
fail:
  TVMFFIObjectDecRef(obj);
  free(fields.items);
  free(is_set);
  return -1;
}

/* ---- the auto __ffi_init__ ------------------------------------------------------------------- */

static TVMFFIObject* tether__kwargs_marker;  /* borrowed from the registry's singleton */

/* __ffi_init__(pos..., [KWARGS, k0, v0, ...]) for the type whose index is `self`. */
/* Raises the error of a field that __ffi_init__ could not set: "<key>.__ffi_init__() <what>
 * '<name>':" over the cause's message, every line of which is indented by two spaces; `what`
 * is "field" for a value passed, "default for field" for the field's default.  Keeps the
 * cause's kind when `kind` is NULL.  Takes over the parked cause.  Returns -1. */
static int tether__raise_init_field_error(const char* kind, const char* what, int key_len,
                                          const char* key, TVMFFIByteArray name) {
  TVMFFIObjectHandle cause = NULL;
  TVMFFIErrorMoveFromRaised(&cause);
  TVMFFIByteArray m = cause ? tether_error_message(cause) : (TVMFFIByteArray){"", 0};
  char kind_buf[64];
  if (kind == NULL) {
    TVMFFIByteArray k = cause ? tether_error_kind(cause) : (TVMFFIByteArray){"TypeError", 9};
    snprintf(kind_buf, sizeof(kind_buf), "%.*s", (int)k.size, k.data);
    kind = kind_buf;
  }
  size_t lines = 0;
  for (size_t i = 0; i < m.size; ++i) lines += m.data[i] == '\n';
  char* text = malloc(m.size + 2 * lines + 1);
  size_t n = 0;
  for (size_t i = 0; text != NULL && i < m.size; ++i) {
    text[n++] = m.data[i];
    if (m.data[i] == '\n') {
      text[n++] = ' ';
      text[n++] = ' ';
    }
  }
  if (text == NULL) {
    tether_raise("MemoryError", "%.*s.__ffi_init__(): out of memory", key_len, key);
  } else {
    tether_raise(kind, "%.*s.__ffi_init__() %s '%.*s':\n  %.*s", key_len, key, what,
                 (int)name.size, name.data, (int)n, text);
  }
  free(text);
  if (cause != NULL) TVMFFIObjectDecRef(cause);
  return -1;
}

static int tether__auto_init_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  int32_t type_index = (int32_t)(intptr_t)self;
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  TVMFFIObjectHandle obj = NULL;
  tether_field_list all = {NULL, 0, 0};
  bool* is_set = NULL;
  int key_len = info ? (int)info->type_key.size : 0;
  const char* key = info ? info->type_key.data : "";
  if (info == NULL) return tether_raise("RuntimeError", "__ffi_init__: type %d vanished", (int)type_index);
  if (tether__for_each_field(info, tether__collect_cb, &all) != 0) goto fail;
  is_set = calloc((size_t)all.n + 1, sizeof(bool));
  if (is_set == NULL) {
    tether_raise("MemoryError", "%.*s.__ffi_init__(): out of memory", key_len, key);
    goto fail;
  }
  if (tether__create_default(info, &obj) != 0) goto fail;
  int32_t num_pos = n;
  for (int32_t i = 0; i < n; ++i) {
    if (args[i].type_index >= kTVMFFIStaticObjectBegin && args[i].v_obj == tether__kwargs_marker) {
      num_pos = i;
      break;
    }
  }
  if ((n - num_pos) % 2 == 0 && num_pos != n) {
    tether_raise("TypeError", "%.*s.__ffi_init__(): keyword arguments must come in name/value pairs",
                 key_len, key);
    goto fail;
  }
  /* positional arguments fill the init fields (not InitOff, not KwOnly): those without a
   * default first, then those with one, each group in declaration order (ancestors first) --
   * the order of a dataclass signature */
  int32_t pos = 0;
  for (int32_t step = 0; step < 2 * all.n && pos < num_pos; ++step) {
    int32_t j = step % all.n;
    const TVMFFIFieldInfo* f = all.items[j];
    bool defaulted = (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
    if (defaulted != (step >= all.n)) continue;
    if (f->flags & (kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskKwOnly)) continue;
    if (tether_field_set(obj, f, &args[pos]) != 0) {
      tether__raise_init_field_error(NULL, "field", key_len, key, f->name);
      goto fail;
    }
    is_set[j] = true;
    ++pos;
  }
  if (pos < num_pos) {
    int32_t max_pos = pos;
    tether_raise("TypeError", "%.*s.__ffi_init__() takes %d positional arguments but %d were given",
                 key_len, key, (int)max_pos, (int)num_pos);
    goto fail;
  }
  for (int32_t i = num_pos + 1; i + 1 < n; i += 2) {
    TVMFFIByteArray name;
    if (!tether_any_get_str(&args[i], &name)) {
      tether_raise("TypeError", "%.*s.__ffi_init__(): keyword names must be str", key_len, key);
      goto fail;
    }
    int32_t j = all.n - 1;
    while (j >= 0 && !(all.items[j]->name.size == name.size &&
                       memcmp(all.items[j]->name.data, name.data, name.size) == 0 &&
                       !(all.items[j]->flags & kTVMFFIFieldFlagBitMaskInitOff))) {
      --j;
    }
    if (j < 0) {
      tether_raise("TypeError", "%.*s.__ffi_init__() got an unexpected keyword argument '%.*s'",
                   key_len, key, (int)name.size, name.data);
      goto fail;
    }
    if (is_set[j]) {
      tether_raise("TypeError", "%.*s.__ffi_init__() got multiple values for argument '%.*s'",
                   key_len, key, (int)name.size, name.data);
      goto fail;
    }
    if (tether_field_set(obj, all.items[j], &args[i + 1]) != 0) {
      tether__raise_init_field_error("TypeError", "field", key_len, key, name);
      goto fail;
    }
    is_set[j] = true;
  }
  for (int32_t j = 0; j < all.n; ++j) {
    const TVMFFIFieldInfo* f = all.items[j];
    if (is_set[j]) continue;
    if (!(f->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
      if (f->flags & kTVMFFIFieldFlagBitMaskInitOff) continue; /* keeps its creator value */
      tether_raise("TypeError", "%.*s.__ffi_init__() missing required %sargument: '%.*s'",
                   key_len, key, (f->flags & kTVMFFIFieldFlagBitMaskKwOnly) ? "keyword-only " : "",
                   (int)f->name.size, f->name.data);
      goto fail;
    }
    if (tether_field_set_default(obj, f) != 0) {
      tether__raise_init_field_error(NULL, "default for field", key_len, key, f->name);
      goto fail;
    }
  }
  free(all.items);
  free(is_set);
  *result = tether_any_object(obj);
  return 0;
fail:
  TVMFFIObjectDecRef(obj);
  free(all.items);
  free(is_set);
  return -1;
}

static int tether__register_auto_init(int32_t type_index) {
  static const TVMFFIByteArray name = {"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col != NULL && type_index - col->begin_index < col->size && type_index >= col->begin_index &&
      col->data[type_index - col->begin_index].type_index != kTVMFFINone) {
    return 0; /* the type brought its own */
  }
  TVMFFIObjectHandle f = NULL;
  /* It only fills fields: it may keep the GIL. */
  if (tether_func_create((void*)(intptr_t)type_index, tether__auto_init_call, NULL,
                         TETHER_FUNC_KEEPS_GIL, &f) != 0) {
    return -1;
  }
  TVMFFIAny value = tether_any_object(f);
  int rc = TVMFFITypeRegisterAttr(type_index, &name, &value);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* ffi._RegisterFFIInit(type_index) */
static int tether__register_ffi_init_global(void* self, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  int64_t index;
  if (tether_check_nargs("ffi._RegisterFFIInit", "(0: int) -> None", n, 1) != 0 ||
      tether_arg_int("ffi._RegisterFFIInit", args, 0, &index) != 0) {
    return -1;
  }
  /* Range-checked before narrowing (2^32 + 1 must not register type 1), and only object
   * types: an `__ffi_init__` for "int" or "None" would make no sense and, for index 0,
   * is the column-creation sentinel of TVMFFITypeRegisterAttr. */
  if (index < 0 || index > INT32_MAX || tether__type_info_or_null((int32_t)index) == NULL) {
    return tether_raise("ValueError", "ffi._RegisterFFIInit: unknown type index %" PRId64, index);
  }
  if (index < kTVMFFIStaticObjectBegin) {
    return tether_raise("TypeError", "ffi._RegisterFFIInit: type `%s` (index %" PRId64 ") is not "
                        "an object type", tether_type_key((int32_t)index), index);
  }
  *result = tether_any_none();
  return tether__register_auto_init((int32_t)index);
}

/* ---- device names -------------------------------------------------------------------------- */

static const struct {
  int32_t type;
  const char* name;
} tether__device_names[] = {
    {kDLCPU, "cpu"},         {kDLCUDA, "cuda"},           {kDLCUDAHost, "cuda_host"},
    {kDLOpenCL, "opencl"},   {kDLVulkan, "vulkan"},       {kDLMetal, "metal"},
    {kDLVPI, "vpi"},         {kDLROCM, "rocm"},           {kDLROCMHost, "rocm_host"},
    {kDLExtDev, "ext_dev"},  {kDLCUDAManaged, "cuda_managed"}, {kDLOneAPI, "oneapi"},
    {kDLWebGPU, "webgpu"},   {kDLHexagon, "hexagon"},     {kDLMAIA, "maia"},
    {kDLTrn, "trn"},
};

const char* tether_device_type_name(int32_t device_type) {
  for (size_t i = 0; i < sizeof(tether__device_names) / sizeof(tether__device_names[0]); ++i) {
    if (tether__device_names[i].type == device_type) return tether__device_names[i].name;
  }
  return NULL;
}

int32_t tether_device_type_from_name(const char* name, size_t len) {
  if (name == NULL) return -1;
  for (size_t i = 0; i < sizeof(tether__device_names) / sizeof(tether__device_names[0]); ++i) {
    const char* cand = tether__device_names[i].name;
    if (strlen(cand) == len && memcmp(cand, name, len) == 0) return tether__device_names[i].type;
  }
  return -1;
}

/* ---- ffi.GetRegisteredTypeKeys ----------------------------------------------------------------- */

typedef struct {
  TVMFFIAny* items;
  int32_t n;
  int32_t cap;
  bool oom;
} tether_key_list;

static void tether__collect_key_cb(const TVMFFITypeInfo* info, void* ctx) {
  tether_key_list* l = ctx;
  if (l->oom) return;
  if (l->n == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 64;
    TVMFFIAny* items = realloc(l->items, sizeof(*items) * (size_t)cap);
    if (items == NULL) {
      l->oom = true;
      return;
    }
    l->items = items;
    l->cap = cap;
  }
  /* type keys are NUL-terminated and live as long as the type table */
  l->items[l->n++] = tether_any_raw_str(info->type_key.data);
}

static int tether__get_registered_type_keys(void* self, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  tether_key_list keys = {NULL, 0, 0, false};
  TVMFFIObject* make_array = tether__registry_lookup("ffi.Array", strlen("ffi.Array"));
  if (make_array == NULL) return tether_raise("RuntimeError", "ffi.GetRegisteredTypeKeys: ffi.Array is not registered");
  tether__type_for_each(tether__collect_key_cb, &keys);
  int rc = keys.oom ? tether_raise("MemoryError", "ffi.GetRegisteredTypeKeys: out of memory")
                    : TVMFFIFunctionCall(make_array, keys.items, keys.n, result);
  free(keys.items);
  return rc;
}

/* ---- subsystem ------------------------------------------------------------------------------------ */

int tether__reflection_init(void) {
  /* `flags`: the ones that run no function of a type (no __ffi_init__, no __ffi_repr__,
   * which may be anyone's code) keep the GIL. */
  static const struct {
    const char* name;
    TVMFFISafeCallType fn;
    uint32_t flags;
  } globals[] = {
      {"ffi.MakeObjectFromPackedArgs", tether__make_object_from_packed_args, 0},
      {"ffi._RegisterFFIInit", tether__register_ffi_init_global, TETHER_FUNC_KEEPS_GIL},
      {"ffi.GetRegisteredTypeKeys", tether__get_registered_type_keys, TETHER_FUNC_KEEPS_GIL},
  };
  for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); ++i) {
    if (tether_func_register_flags(globals[i].name, globals[i].fn, NULL, NULL, globals[i].flags,
                                   0) != 0) {
      return -1;
    }
  }
  tether__kwargs_marker = tether__registry_singleton("ffi.GetKwargsObject");
  return 0;
}

void tether__reflection_fini(void) {
  tether__kwargs_marker = NULL;
}
