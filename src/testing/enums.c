/*
 * enums.c -- the enum fixtures of libtether_testing, defined through <tether/enum.h> as
 * any library would define its enums:
 *   testing.TestEnumVariant  a plain enum with the variants Alpha (0) and Beta (1), each
 *                            with the extensible attribute `code` (10, 20);
 *   testing.TestCxxIntEnum   an IntEnum and
 *   testing.TestCxxStrEnum   a StrEnum, both without variants: bindings add theirs;
 *   testing.TestCxxEnumHolder  an object with one field of each payload enum type;
 *   testing.enum_variant_get(name)  the TestEnumVariant variant named `name`.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/enum.h>
#include <tether/reflection.h>
#include <tether/tether.h>

#include "testing.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* priority; /* testing.TestCxxIntEnum */
  TVMFFIObject* opcode;   /* testing.TestCxxStrEnum */
} testing_enum_holder_t;

static int32_t testing_variant_index = -1;

/* The enum types (all final): key, parent key, where to keep the index (or NULL). */
static const struct {
  const char* key;
  const char* parent;
  int32_t* index;
} testing_enum_types[] = {
    {"testing.TestEnumVariant", "ffi.Enum", &testing_variant_index},
    {"testing.TestCxxIntEnum", "ffi.IntEnum", NULL},
    {"testing.TestCxxStrEnum", "ffi.StrEnum", NULL},
};

/* TestEnumVariant's variants and their `code`. */
static const struct {
  const char* name;
  int64_t code;
} testing_variants[] = {
    {"Alpha", 10},
    {"Beta", 20},
};

static int32_t testing_type_index(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t index = -1;
  return TVMFFITypeKeyToIndex(&k, &index) == 0 ? index : -1;
}

/* testing.enum_variant_get(0: str) -> ffi.Enum */
static int testing_enum_variant_get(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  static const char fname[] = "testing.enum_variant_get";
  TVMFFIByteArray name;
  TVMFFIObjectHandle variant = NULL;
  (void)self;
  if (tether_check_nargs(fname, "(0: str) -> ffi.Enum", n, 1) != 0 ||
      tether_arg_str(fname, args, 0, &name) != 0 ||
      tether_enum_get(testing_variant_index, &args[0], &variant) != 0) {
    return -1;
  }
  *result = tether_any_object(variant);
  return 0;
}

static int testing_define_holder(void) {
  int32_t index = testing__alloc_type("testing.TestCxxEnumHolder", kTVMFFIObject, 0);
  if (index < 0) return -1;
  const struct {
    const char* name;
    int64_t offset;
    const char* type_key;
  } fields[] = {
      {"priority", offsetof(testing_enum_holder_t, priority), "testing.TestCxxIntEnum"},
      {"opcode", offsetof(testing_enum_holder_t, opcode), "testing.TestCxxStrEnum"},
  };
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i) {
    tether_field_def_t def = {fields[i].name, TETHER_FIELD_OBJECT, fields[i].offset,
                              kTVMFFIFieldFlagBitMaskWritable, testing_type_index(fields[i].type_key),
                              NULL, NULL, NULL, NULL};
    if (tether_type_def_field(index, &def) != 0) return -1;
  }
  return tether_type_def_finish(index, sizeof(testing_enum_holder_t), NULL);
}

int testing__register_enums(void) {
  for (size_t i = 0; i < sizeof(testing_enum_types) / sizeof(testing_enum_types[0]); ++i) {
    int32_t index = -1;
    if (tether_enum_type_def(testing_enum_types[i].key,
                             testing_type_index(testing_enum_types[i].parent),
                             sizeof(tether_enum_t), true, &index) != 0) {
      return -1;
    }
    if (testing_enum_types[i].index != NULL) *testing_enum_types[i].index = index;
  }
  for (size_t i = 0; i < sizeof(testing_variants) / sizeof(testing_variants[0]); ++i) {
    TVMFFIObjectHandle variant = NULL;
    TVMFFIAny code = tether_any_int(testing_variants[i].code);
    if (tether_enum_add_variant(testing_variant_index, testing_variants[i].name, NULL,
                                &variant) != 0 ||
        tether_enum_set_attr(variant, "code", &code) != 0) {
      return -1;
    }
  }
  if (testing_define_holder() != 0) return -1;
  char* meta = testing__metadata_json(
      "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":\"ffi.Enum\"}],"
      "\"params\":[{\"type\":\"ffi.String\"}]}}",
      NULL);
  int rc = meta != NULL ? tether_func_register("testing.enum_variant_get",
                                               testing_enum_variant_get, NULL, meta, 1)
                        : -1;
  free(meta);
  return rc;
}
