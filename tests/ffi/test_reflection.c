/*
 * test_reflection.c -- what reflection tells about a C-struct type defined with
 * tether_type_def_*: the byte facts of its fields (size, alignment, offset from the header)
 * and of the type (total_size), the finality it publishes as `__ffi_type_final__`, and the
 * FLOAT32 field kind (a C float read and written as a float).
 */
#include <math.h>
#include <stddef.h>

#include <tether/reflection.h>

#include "test.h"

typedef struct {
  TVMFFIObject header;
  double wide;
  float narrow;
} pair_t;

static int32_t alloc_type(const char* key, int32_t parent, int32_t slots, int32_t overflow) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, -1, TVMFFIGetTypeInfo(parent)->type_depth + 1, slots,
                                   overflow, parent);
}

/* The `__ffi_type_final__` attribute of `index`: 1, 0, or -1 when it has none. */
static int final_attr(int32_t index) {
  TVMFFIByteArray name = {"__ffi_type_final__", 18};
  const TVMFFITypeAttrColumn* c = TVMFFIGetTypeAttrColumn(&name);
  if (c == NULL || index < c->begin_index || index - c->begin_index >= c->size) return -1;
  const TVMFFIAny* v = &c->data[index - c->begin_index];
  if (v->type_index != kTVMFFIBool) return -1;
  return v->v_int64 != 0;
}

static int32_t define_pair(const char* key, int32_t slots, int32_t overflow) {
  int32_t index = alloc_type(key, kTVMFFIObject, slots, overflow);
  tether_field_def_t wide = {"wide", TETHER_FIELD_FLOAT64, offsetof(pair_t, wide), 0, 0, NULL,
                             NULL};
  tether_field_def_t narrow = {"narrow", TETHER_FIELD_FLOAT32, offsetof(pair_t, narrow),
                               kTVMFFIFieldFlagBitMaskWritable, 0, NULL, NULL};
  CHECK(index >= 0);
  CHECK_OK(tether_type_def_field(index, &wide));
  CHECK_OK(tether_type_def_field(index, &narrow));
  CHECK_OK(tether_type_def_finish(index, sizeof(pair_t), NULL));
  return index;
}

/* Defined once before the tests run: a definition's functions (__ffi_init__, ...) live as
 * long as the type table.  Final; open; with child slots that may not overflow. */
static int32_t final_type, open_type, slotted_type;

__attribute__((constructor)) static void setup_types(void) {
  final_type = define_pair("test_reflection.Final", 0, 0);
  open_type = define_pair("test_reflection.Open", 0, 1);
  slotted_type = define_pair("test_reflection.Slotted", 2, 0);
}

static void test_fields_report_their_bytes(void) {
  int32_t index = open_type;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  CHECK(info->metadata != NULL);
  if (info->metadata != NULL) CHECK_EQ_INT(info->metadata->total_size, 40);
  CHECK_EQ_INT(info->num_fields, 2);
  const TVMFFIFieldInfo* wide = &info->fields[0];
  const TVMFFIFieldInfo* narrow = &info->fields[1];
  CHECK_EQ_INT(wide->size, 8);
  CHECK_EQ_INT(wide->alignment, 8);
  CHECK_EQ_INT(wide->offset, 24);
  CHECK_EQ_INT(narrow->size, 4);
  CHECK_EQ_INT(narrow->alignment, 4);
  CHECK_EQ_INT(narrow->offset, 32);
  CHECK_EQ_INT(narrow->field_static_type_index, kTVMFFIFloat);
  CHECK(strstr(narrow->metadata.data, "\\\"float\\\"") != NULL);
}

static void test_float32_field_reads_and_writes(void) {
  const TVMFFIFieldInfo* f = tether_type_find_field(open_type, "narrow", 6);
  TVMFFIObjectHandle obj = NULL;
  CHECK(f != NULL);
  CHECK_OK(tether_object_new_reflected(open_type, &obj));
  if (f == NULL || obj == NULL) return;
  static const struct {
    double in, out;
  } rows[] = {
      {0.5, 0.5},           {-2.25, -2.25},       {0.1, (double)0.1f},
      {1e300, INFINITY},    {-1e300, -INFINITY},  {3.4e38, (double)3.4e38f},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    TVMFFIAny in = tether_any_float(rows[i].in), out = tether_any_none();
    CHECK_OK(tether_field_set(obj, f, &in));
    CHECK_OK(tether_field_get(obj, f, &out));
    CHECK_EQ_INT(out.type_index, kTVMFFIFloat);
    CHECK(out.v_float64 == rows[i].out);
  }
  /* ints convert; NaN stays NaN; a string is refused and leaves the value as it was */
  TVMFFIAny three = tether_any_int(3), nan_in = tether_any_float(NAN), out = tether_any_none();
  CHECK_OK(tether_field_set(obj, f, &three));
  CHECK_OK(tether_field_get(obj, f, &out));
  CHECK(out.v_float64 == 3.0);
  CHECK_OK(tether_field_set(obj, f, &nan_in));
  CHECK_OK(tether_field_get(obj, f, &out));
  CHECK(isnan(out.v_float64));
  CHECK_OK(tether_field_set(obj, f, &three));
  TVMFFIAny text = tether_any_raw_str("x");
  CHECK_RAISED(tether_field_set(obj, f, &text), "TypeError", "to `float`");
  CHECK_OK(tether_field_get(obj, f, &out));
  CHECK(out.v_float64 == 3.0);
  CHECK_EQ_INT(((pair_t*)obj)->narrow == 3.0f, 1);
  TVMFFIObjectDecRef(obj);
}

static void test_finality_follows_the_allocation(void) {
  CHECK_EQ_INT(final_attr(final_type), 1);
  CHECK_EQ_INT(final_attr(open_type), 0);
  CHECK_EQ_INT(final_attr(slotted_type), 0);
  /* a final type has no subtypes */
  CHECK_RAISED(alloc_type("test_reflection.Final.Child", final_type, 0, 1), "RuntimeError",
               "test_reflection.Final");
  CHECK(alloc_type("test_reflection.Open.Child", open_type, 0, 1) >= 0);
  /* ffi.Object is registered without a definition: it publishes nothing */
  CHECK_EQ_INT(final_attr(kTVMFFIObject), -1);
}

static void test_final_bad_input(void) {
  CHECK_RAISED(tether_type_def_final(final_type), "RuntimeError", "__ffi_type_final__");
  CHECK_EQ_INT(final_attr(final_type), 1);
  CHECK_RAISED(tether_type_def_final(-1), "ValueError", "tether_type_def_final");
  CHECK_RAISED(tether_type_def_final(200000), "ValueError", "type_index");
}

TEST_MAIN(TEST_CASE(test_fields_report_their_bytes), TEST_CASE(test_float32_field_reads_and_writes),
          TEST_CASE(test_finality_follows_the_allocation), TEST_CASE(test_final_bad_input))
