/*
 * enum.c -- enum types whose values are registered singletons (<tether/enum.h>): the base
 * types ffi.Enum, ffi.IntEnum and ffi.StrEnum, the per-type registry ffi.EnumState kept in
 * the type attribute `__ffi_enum__`, and the C API that defines enum types and variants
 * and looks them up.  The JSON graph writer and reader, the printer and deep copy ask
 * tether_enum_kind_of which of their enum rules apply to a type.
 *
 * Invariant: a variant is in its type's state three times -- once in `entries`, and under
 * its integer and its string index in `indexes` -- or not at all.
 */
#include <inttypes.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/enum.h>
#include <tether/reflection.h>

#include "internal.h"
#include "dataclass.h"
#include "type.h"

/* ffi.EnumState's layout (tvm-ffi's EnumStateObj). */
typedef struct {
  TVMFFIObject header;
  TVMFFIObject* entries; /* List: the variants in registration order */
  TVMFFIObject* indexes; /* Dict: integer and string index -> variant */
  TVMFFIObject* attrs;   /* Dict: attribute name -> Dict {variant: value} */
} tether_enum_state_t;

static int32_t tether__enum_state_index = -1;
static int32_t tether__enum_base_index = -1;
static int32_t tether__int_enum_index = -1;
static int32_t tether__str_enum_index = -1;

static const char tether__state_attr[] = "__ffi_enum__";
static const TVMFFITypeAttrColumn* _Atomic tether__state_column;

/* ---- families ----------------------------------------------------------------------------- */

/* ffi.Enum sits at depth 1 (a child of ffi.Object), ffi.IntEnum / ffi.StrEnum at depth 2. */
tether_enum_kind tether_enum_kind_of(int32_t type_index) {
  if (type_index < kTVMFFIDynObjectBegin || tether__enum_base_index < 0) return TETHER_ENUM_NONE;
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  if (info == NULL) return TETHER_ENUM_NONE;
  if (type_index == tether__enum_base_index) return TETHER_ENUM_PLAIN;
  if (info->type_depth < 2 || info->type_ancestors[1]->type_index != tether__enum_base_index) {
    return TETHER_ENUM_NONE;
  }
  int32_t payload = info->type_depth == 2 ? type_index : info->type_ancestors[2]->type_index;
  if (payload == tether__int_enum_index) return TETHER_ENUM_INT;
  if (payload == tether__str_enum_index) return TETHER_ENUM_STR;
  return TETHER_ENUM_PLAIN;
}

static int tether__require_enum(const char* fname, int32_t type_index, tether_enum_kind* kind) {
  *kind = tether_enum_kind_of(type_index);
  if (*kind == TETHER_ENUM_NONE) {
    return tether_raise("TypeError", "%s: type `%s` (index %d) is not an enum type (derived from "
                        "ffi.Enum)", fname, tether_type_key(type_index), (int)type_index);
  }
  return 0;
}

static int tether__require_variant(const char* fname, TVMFFIObjectHandle variant) {
  if (variant == NULL) {
    return tether_raise("TypeError", "%s: argument `variant` must be an enum object, got NULL",
                        fname);
  }
  int32_t t = ((TVMFFIObject*)variant)->type_index;
  if (tether_enum_kind_of(t) == TETHER_ENUM_NONE) {
    return tether_raise("TypeError", "%s: argument `variant` must be an enum object, got `%s`",
                        fname, tether_type_key(t));
  }
  return 0;
}

/* ---- state -------------------------------------------------------------------------------- */

static int tether__enum_state_new(TVMFFIObject** out) {
  TVMFFIObject* obj = NULL;
  if (tether_object_new_reflected(tether__enum_state_index, (TVMFFIObjectHandle*)&obj) != 0) {
    return -1;
  }
  tether_enum_state_t* s = (tether_enum_state_t*)obj;
  if (tether_list_new(NULL, 0, (TVMFFIObjectHandle*)&s->entries) != 0 ||
      tether_dict_new(NULL, 0, (TVMFFIObjectHandle*)&s->indexes) != 0 ||
      tether_dict_new(NULL, 0, (TVMFFIObjectHandle*)&s->attrs) != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  *out = obj;
  return 0;
}

/* The state of enum type `type_index`, borrowed from the type attribute, into *out: NULL
 * when there is none and !create; made and stored when there is none and `create`.
 * TypeError when the attribute holds something other than a complete EnumState. */
static int tether__enum_state(const char* fname, int32_t type_index, bool create,
                              tether_enum_state_t** out) {
  const TVMFFIAny* v = tether__type_attr(tether__state_attr, &tether__state_column, type_index);
  *out = NULL;
  if (v == NULL) {
    if (!create) return 0;
    TVMFFIObject* state = NULL;
    if (tether__enum_state_new(&state) != 0) return -1;
    TVMFFIByteArray name = {tether__state_attr, sizeof(tether__state_attr) - 1};
    TVMFFIAny value = tether_any_object(state);
    int rc = TVMFFITypeRegisterAttr(type_index, &name, &value);
    TVMFFIObjectDecRef(state); /* the column holds its own reference */
    if (rc != 0) return -1;
    v = tether__type_attr(tether__state_attr, &tether__state_column, type_index);
    if (v == NULL) {
      return tether_raise("RuntimeError", "%s: the enum state of `%s` was not stored", fname,
                          tether_type_key(type_index));
    }
  }
  const tether_enum_state_t* s = (const tether_enum_state_t*)v->v_obj;
  if (v->type_index != tether__enum_state_index || s->entries == NULL || s->indexes == NULL ||
      s->attrs == NULL) {
    return tether_raise("TypeError", "%s: the `%s` attribute of `%s` must be a complete "
                        "ffi.EnumState, got `%s`", fname, tether__state_attr,
                        tether_type_key(type_index), tether_any_type_key(v));
  }
  *out = (tether_enum_state_t*)v->v_obj;
  return 0;
}

/* ---- defining ----------------------------------------------------------------------------- */

int tether_enum_type_def(const char* type_key, int32_t parent_index, int32_t total_size,
                         bool final, int32_t* out_index) {
  static const char fname[] = "tether_enum_type_def";
  tether_enum_kind kind;
  if (type_key == NULL || out_index == NULL) {
    return tether_raise("ValueError", "%s: arguments `type_key` and `out_index` must not be NULL",
                        fname);
  }
  if (tether__require_enum(fname, parent_index, &kind) != 0) return -1;
  if (total_size < (int32_t)sizeof(tether_enum_t)) {
    return tether_raise("ValueError", "%s: `%s` needs total_size >= %zu (the ffi.Enum layout), "
                        "got %d", fname, type_key, sizeof(tether_enum_t), (int)total_size);
  }
  const tether_extra_type_t t = {type_key, -1, total_size, kTVMFFISEqHashKindUniqueInstance,
                                 final, true, NULL, 0};
  int32_t index = -1;
  if (tether__extra_type_register_under(&t, parent_index, &index) != 0 ||
      tether_type_def_convert(index) != 0) {
    return -1;
  }
  *out_index = index;
  return 0;
}

int tether_enum_add_variant(int32_t type_index, const char* name, const int64_t* int_index,
                            TVMFFIObjectHandle* out) {
  static const char fname[] = "tether_enum_add_variant";
  tether_enum_kind kind;
  tether_enum_state_t* state = NULL;
  TVMFFIObject* obj = NULL;
  if (name == NULL) return tether_raise("ValueError", "%s: argument `name` must not be NULL", fname);
  if (tether__require_enum(fname, type_index, &kind) != 0) return -1;
  if (kind == TETHER_ENUM_INT && int_index == NULL) {
    return tether_raise("TypeError", "%s: `%s.%s` needs an integer index (an IntEnum's value)",
                        fname, tether_type_key(type_index), name);
  }
  if (kind != TETHER_ENUM_INT && int_index != NULL) {
    return tether_raise("TypeError", "%s: `%s.%s`: explicit integer indices are for IntEnum "
                        "types only", fname, tether_type_key(type_index), name);
  }
  if (tether__enum_state(fname, type_index, true, &state) != 0) return -1;
  TVMFFIAny int_key = tether_any_int(int_index != NULL ? *int_index
                                                       : tether_list_size(state->entries));
  TVMFFIAny str_key = tether_any_raw_str(name);
  if (tether_map_find(state->indexes, &int_key) != NULL ||
      tether_map_find(state->indexes, &str_key) != NULL) {
    return tether_raise("ValueError", "%s: enum `%s` already has a variant with index %" PRId64
                        " or `%s`", fname, tether_type_key(type_index), int_key.v_int64, name);
  }
  if (tether_object_new_reflected(type_index, (TVMFFIObjectHandle*)&obj) != 0) return -1;
  tether_enum_t* e = (tether_enum_t*)obj;
  e->int_index = int_key.v_int64;
  if (tether_any_str(name, strlen(name), &e->str_index) != 0) goto fail;
  TVMFFIAny item = tether_any_object(obj);
  if (tether_dict_set(state->indexes, &int_key, &item) != 0 ||
      tether_dict_set(state->indexes, &e->str_index, &item) != 0 ||
      tether_list_append(state->entries, &item) != 0) {
    goto fail;
  }
  TVMFFIObjectDecRef(obj); /* the state holds the variant */
  if (out != NULL) *out = obj;
  return 0;
fail:
  if (state != NULL && obj != NULL) { /* keep the invariant: no partial registration */
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    tether_dict_erase(state->indexes, &int_key);
    tether_dict_erase(state->indexes, &e->str_index);
    TVMFFIErrorSetRaised(err);
    TVMFFIObjectDecRef(err);
  }
  TVMFFIObjectDecRef(obj);
  return -1;
}

/* ---- looking up --------------------------------------------------------------------------- */

int tether_enum_get(int32_t type_index, const TVMFFIAny* index, TVMFFIObjectHandle* out) {
  static const char fname[] = "tether_enum_get";
  tether_enum_kind kind;
  tether_enum_state_t* state = NULL;
  TVMFFIByteArray name;
  if (index == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: arguments `index` and `out` must not be NULL", fname);
  }
  if (tether__require_enum(fname, type_index, &kind) != 0) return -1;
  bool is_int = index->type_index == kTVMFFIInt;
  if (!is_int && !tether_any_get_str(index, &name)) {
    return tether_raise("TypeError", "%s: an enum index must be an int or a str, got `%s`", fname,
                        tether_any_type_key(index));
  }
  if (tether__enum_state(fname, type_index, false, &state) != 0) return -1;
  const TVMFFIAny* found = state != NULL ? tether_map_find(state->indexes, index) : NULL;
  if (found == NULL || found->type_index < kTVMFFIStaticObjectBegin) {
    if (is_int) {
      return tether_raise("ValueError", "%s: Enum `%s` has no instance with index %" PRId64,
                          fname, tether_type_key(type_index), index->v_int64);
    }
    return tether_raise("ValueError", "%s: Enum `%s` has no instance with index %.*s", fname,
                        tether_type_key(type_index), (int)name.size, name.data);
  }
  TVMFFIObjectIncRef(found->v_obj);
  *out = found->v_obj;
  return 0;
}

int64_t tether_enum_count(int32_t type_index) {
  tether_enum_kind kind;
  tether_enum_state_t* state = NULL;
  if (tether__require_enum("tether_enum_count", type_index, &kind) != 0 ||
      tether__enum_state("tether_enum_count", type_index, false, &state) != 0) {
    return -1;
  }
  return state != NULL ? tether_list_size(state->entries) : 0;
}

TVMFFIObjectHandle tether_enum_at(int32_t type_index, int64_t i) {
  if (tether_enum_kind_of(type_index) == TETHER_ENUM_NONE) return NULL;
  const TVMFFIAny* v = tether__type_attr(tether__state_attr, &tether__state_column, type_index);
  if (v == NULL || v->type_index != tether__enum_state_index) return NULL;
  const tether_enum_state_t* s = (const tether_enum_state_t*)v->v_obj;
  const TVMFFIAny* item = s->entries != NULL ? tether_list_at(s->entries, i) : NULL;
  return item != NULL && item->type_index >= kTVMFFIStaticObjectBegin ? item->v_obj : NULL;
}

/* ---- attributes --------------------------------------------------------------------------- */

int tether_enum_set_attr(TVMFFIObjectHandle variant, const char* name, const TVMFFIAny* value) {
  static const char fname[] = "tether_enum_set_attr";
  tether_enum_state_t* state = NULL;
  TVMFFIObjectHandle column = NULL;
  if (name == NULL || value == NULL) {
    return tether_raise("ValueError", "%s: arguments `name` and `value` must not be NULL", fname);
  }
  if (tether__require_variant(fname, variant) != 0 ||
      tether__enum_state(fname, ((TVMFFIObject*)variant)->type_index, true, &state) != 0) {
    return -1;
  }
  TVMFFIAny key = tether_any_raw_str(name);
  const TVMFFIAny* found = tether_map_find(state->attrs, &key);
  if (found != NULL && found->type_index != kTVMFFIDict) {
    return tether_raise("TypeError", "%s: attribute column `%s` of `%s` must be a Dict, got `%s`",
                        fname, name, tether_type_key(((TVMFFIObject*)variant)->type_index),
                        tether_any_type_key(found));
  }
  if (found == NULL) {
    if (tether_dict_new(NULL, 0, &column) != 0) return -1;
    TVMFFIAny col = tether_any_object(column);
    int rc = tether_dict_set(state->attrs, &key, &col);
    TVMFFIObjectDecRef(column); /* attrs holds it */
    if (rc != 0) return -1;
  } else {
    column = found->v_obj;
  }
  TVMFFIAny self = tether_any_object(variant);
  return tether_dict_set(column, &self, value);
}

int tether_enum_get_attr(TVMFFIObjectHandle variant, const char* name, TVMFFIAny* out) {
  static const char fname[] = "tether_enum_get_attr";
  tether_enum_state_t* state = NULL;
  if (name == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: arguments `name` and `out` must not be NULL", fname);
  }
  if (tether__require_variant(fname, variant) != 0) return -1;
  int32_t t = ((TVMFFIObject*)variant)->type_index;
  if (tether__enum_state(fname, t, false, &state) != 0) return -1;
  TVMFFIAny key = tether_any_raw_str(name);
  TVMFFIAny self = tether_any_object(variant);
  const TVMFFIAny* column = state != NULL ? tether_map_find(state->attrs, &key) : NULL;
  const TVMFFIAny* found = column != NULL && column->type_index == kTVMFFIDict
                               ? tether_map_find(column->v_obj, &self)
                               : NULL;
  if (found == NULL) {
    TVMFFIByteArray s = {"", 0};
    tether_any_get_str(&((tether_enum_t*)variant)->str_index, &s);
    return tether_raise("KeyError", "%s: `%s.%.*s` has no attribute `%s`", fname,
                        tether_type_key(t), (int)s.size, s.data, name);
  }
  tether_any_copy(found, out);
  return 0;
}

/* ---- subsystem ---------------------------------------------------------------------------- */

/* ffi.EnumState's `__ffi_init__()`: a state with no variants. */
static int tether__enum_state_init(void* self, const TVMFFIAny* args, int32_t n,
                                   TVMFFIAny* result) {
  TVMFFIObject* state = NULL;
  (void)self;
  (void)args;
  if (tether_check_nargs("ffi.EnumState.__ffi_init__", "() -> ffi.EnumState", n, 0) != 0 ||
      tether__enum_state_new(&state) != 0) {
    return -1;
  }
  *result = tether_any_object(state);
  return 0;
}

enum {
  FROZEN_NO_INIT = kTVMFFIFieldFlagBitMaskInitOff,
  INDEX_ALIAS = kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore,
};

int tether__enum_init(void) {
  const tether_field_def_t state_fields[] = {
      {"entries", TETHER_FIELD_OBJECT, offsetof(tether_enum_state_t, entries), FROZEN_NO_INIT,
       kTVMFFIList, NULL, "the variants in registration order",
       "{\"type\":\"ffi.List\",\"args\":[{\"type\":\"ffi.Object\"}]}", NULL},
      {"indexes", TETHER_FIELD_OBJECT, offsetof(tether_enum_state_t, indexes), FROZEN_NO_INIT,
       kTVMFFIDict, NULL, "integer and string index -> variant",
       "{\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"Any\"},{\"type\":\"ffi.Object\"}]}", NULL},
      {"attrs", TETHER_FIELD_OBJECT, offsetof(tether_enum_state_t, attrs), FROZEN_NO_INIT,
       kTVMFFIDict, NULL, "attribute name -> {variant: value}",
       "{\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"ffi.String\"},{\"type\":\"ffi.Dict\","
       "\"args\":[{\"type\":\"ffi.Object\"},{\"type\":\"Any\"}]}]}",
       NULL},
  };
  const tether_field_def_t enum_fields[] = {
      {"_int_index", TETHER_FIELD_INT64, offsetof(tether_enum_t, int_index),
       kTVMFFIFieldFlagBitMaskSEqHashIgnore, 0, NULL, "the canonical integer index", NULL, NULL},
      {"_str_index", TETHER_FIELD_STRING, offsetof(tether_enum_t, str_index), 0, 0, NULL,
       "the canonical string index", NULL, NULL},
  };
  const tether_field_def_t int_fields[] = {
      {"value", TETHER_FIELD_INT64, offsetof(tether_enum_t, int_index), INDEX_ALIAS, 0, NULL,
       "the integer index", NULL, NULL},
  };
  const tether_field_def_t str_fields[] = {
      {"value", TETHER_FIELD_STRING, offsetof(tether_enum_t, str_index), INDEX_ALIAS, 0, NULL,
       "the string index", NULL, NULL},
  };
  const tether_extra_type_t state_type = {"ffi.EnumState", -1, sizeof(tether_enum_state_t),
                                          kTVMFFISEqHashKindUnsupported, true, true,
                                          state_fields, 3};
  const tether_extra_type_t enum_type = {"ffi.Enum", -1, sizeof(tether_enum_t),
                                         kTVMFFISEqHashKindUniqueInstance, false, true,
                                         enum_fields, 2};
  const tether_extra_type_t int_type = {"ffi.IntEnum", -1, sizeof(tether_enum_t),
                                        kTVMFFISEqHashKindUniqueInstance, false, true,
                                        int_fields, 1};
  const tether_extra_type_t str_type = {"ffi.StrEnum", -1, sizeof(tether_enum_t),
                                        kTVMFFISEqHashKindUniqueInstance, false, true,
                                        str_fields, 1};
  if (tether__extra_type_register(&state_type, &tether__enum_state_index) != 0 ||
      tether_type_def_method(tether__enum_state_index, "__ffi_init__", tether__enum_state_init,
                             true, "A state with no variants.") != 0 ||
      tether__type_attr_def_func(tether__enum_state_index, "__ffi_init__",
                                 tether__enum_state_init) != 0 ||
      tether__extra_type_register(&enum_type, &tether__enum_base_index) != 0 ||
      tether__extra_type_register_under(&int_type, tether__enum_base_index,
                                        &tether__int_enum_index) != 0 ||
      tether__extra_type_register_under(&str_type, tether__enum_base_index,
                                        &tether__str_enum_index) != 0 ||
      tether_type_def_convert(tether__int_enum_index) != 0 ||
      tether_type_def_convert(tether__str_enum_index) != 0 ||
      tether__type_attr_ensure(tether__state_attr) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    TVMFFIByteArray msg = err != NULL ? tether_error_message(err) : (TVMFFIByteArray){"", 0};
    fprintf(stderr, "libtether: cannot register the enum types: %.*s\n", (int)msg.size, msg.data);
    TVMFFIObjectDecRef(err);
    return -1;
  }
  return 0;
}

/* The type table releases the states with the other attribute values in its own fini. */
void tether__enum_fini(void) {}
