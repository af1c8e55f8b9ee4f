/*
 * test_enum.c -- enum types and their singleton variants (<tether/enum.h>, src/ffi/enum.c):
 * defining types under ffi.Enum / ffi.IntEnum / ffi.StrEnum, variants and their indices,
 * lookups, per-variant attributes, what the reflected `value` field reads, variants in JSON
 * graphs (written as their index, read back as the same object), the printer, deep copy
 * and structural equality (identity), bad input, and out-of-memory while adding variants
 * (no half-registered variant is left behind).
 *
 * Types, variants and attribute columns live as long as the library, so they are made once,
 * before the tests run (their objects are not counted against any test); so is the
 * out-of-memory sweep, whose findings a test then checks.
 */
#include <stdlib.h>

#include <tether/container.h>
#include <tether/enum.h>
#include <tether/json.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "test.h"

#include "failalloc.h"

static int32_t color_type;  /* plain: red (0), green (1) */
static int32_t level_type;  /* IntEnum: low (-5), high (7) */
static int32_t op_type;     /* StrEnum: "+" (0), "*" (1) */
static int32_t oom_type;    /* plain, filled by the out-of-memory test */
static TVMFFIObjectHandle red, green, low, high, plus, times;

static int32_t index_of(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t index = -1;
  CHECK_OK(TVMFFITypeKeyToIndex(&k, &index));
  return index;
}

/* Constructors 101 and 102 run in that order, before main. */
__attribute__((constructor(101))) static void setup_types(void) {
  int64_t lo = -5, hi = 7;
  CHECK_OK(tether_enum_type_def("test_enum.Color", index_of("ffi.Enum"), sizeof(tether_enum_t),
                                true, &color_type));
  CHECK_OK(tether_enum_type_def("test_enum.Level", index_of("ffi.IntEnum"),
                                sizeof(tether_enum_t), true, &level_type));
  CHECK_OK(tether_enum_type_def("test_enum.Op", index_of("ffi.StrEnum"), sizeof(tether_enum_t),
                                true, &op_type));
  CHECK_OK(tether_enum_type_def("test_enum.Oom", index_of("ffi.Enum"), sizeof(tether_enum_t),
                                true, &oom_type));
  CHECK_OK(tether_enum_add_variant(color_type, "red", NULL, &red));
  CHECK_OK(tether_enum_add_variant(color_type, "green", NULL, &green));
  CHECK_OK(tether_enum_add_variant(level_type, "low", &lo, &low));
  CHECK_OK(tether_enum_add_variant(level_type, "high", &hi, &high));
  CHECK_OK(tether_enum_add_variant(op_type, "+", NULL, &plus));
  CHECK_OK(tether_enum_add_variant(op_type, "*", NULL, &times));
  TVMFFIAny warm = tether_any_int(1), cool = tether_any_int(0);
  TVMFFIAny label = tether_any_raw_str("a colour between orange and violet");
  CHECK_OK(tether_enum_set_attr(red, "warm", &warm));
  CHECK_OK(tether_enum_set_attr(green, "warm", &cool));
  CHECK_OK(tether_enum_set_attr(red, "label", &label));
  CHECK_OK(tether_enum_set_attr(green, "rank", &cool));
}

static TVMFFIObjectHandle lookup(int32_t type, TVMFFIAny index) {
  TVMFFIObjectHandle out = NULL;
  CHECK_OK(tether_enum_get(type, &index, &out));
  TVMFFIObjectDecRef(out); /* the state keeps it alive */
  return out;
}

static TVMFFIObjectHandle lookup_name(int32_t type, const char* name) {
  return lookup(type, tether_any_raw_str(name));
}

static void check_indices(TVMFFIObjectHandle v, int64_t i, const char* name) {
  const tether_enum_t* e = v;
  TVMFFIByteArray s = {"", 0};
  CHECK_EQ_INT(e->int_index, i);
  CHECK(tether_any_get_str(&e->str_index, &s));
  CHECK_BYTES(s, name);
}

/* ---- definitions and lookups ------------------------------------------------------------- */

static void test_families(void) {
  CHECK_EQ_INT(tether_enum_kind_of(index_of("ffi.Enum")), TETHER_ENUM_PLAIN);
  CHECK_EQ_INT(tether_enum_kind_of(index_of("ffi.IntEnum")), TETHER_ENUM_INT);
  CHECK_EQ_INT(tether_enum_kind_of(index_of("ffi.StrEnum")), TETHER_ENUM_STR);
  CHECK_EQ_INT(tether_enum_kind_of(color_type), TETHER_ENUM_PLAIN);
  CHECK_EQ_INT(tether_enum_kind_of(level_type), TETHER_ENUM_INT);
  CHECK_EQ_INT(tether_enum_kind_of(op_type), TETHER_ENUM_STR);
  CHECK_EQ_INT(tether_enum_kind_of(kTVMFFIArray), TETHER_ENUM_NONE);
  CHECK_EQ_INT(tether_enum_kind_of(index_of("ffi.EnumState")), TETHER_ENUM_NONE);
  CHECK_EQ_INT(tether_enum_kind_of(-7), TETHER_ENUM_NONE);
  CHECK_EQ_INT(tether_enum_kind_of(1 << 20), TETHER_ENUM_NONE);
}

static void test_indices_and_lookup(void) {
  check_indices(red, 0, "red");
  check_indices(green, 1, "green");
  check_indices(low, -5, "low");
  check_indices(high, 7, "high");
  check_indices(plus, 0, "+");
  check_indices(times, 1, "*");
  CHECK(lookup(color_type, tether_any_int(1)) == green);
  CHECK(lookup_name(color_type, "green") == green);
  CHECK(lookup(level_type, tether_any_int(-5)) == low);
  CHECK(lookup_name(level_type, "high") == high);
  CHECK(lookup_name(op_type, "*") == times);
  /* a String object finds the same variant as the C string */
  TVMFFIAny s = tether_any_none();
  CHECK_OK(tether_any_str("a longer name", 13, &s));
  TVMFFIObjectHandle out = NULL;
  CHECK_RAISED(tether_enum_get(op_type, &s, &out), "ValueError",
               "Enum `test_enum.Op` has no instance with index a longer name");
  tether_any_release(&s);
  CHECK_OK(tether_any_str("red", 3, &s));
  CHECK(lookup(color_type, s) == red);
  /* registration order */
  CHECK_EQ_INT(tether_enum_count(color_type), 2);
  CHECK(tether_enum_at(color_type, 0) == red);
  CHECK(tether_enum_at(color_type, 1) == green);
  CHECK(tether_enum_at(color_type, 2) == NULL);
  CHECK(tether_enum_at(color_type, -1) == NULL);
  CHECK_EQ_INT(tether_enum_count(index_of("ffi.IntEnum")), 0);
}

static void test_value_field_reads_the_index(void) {
  TVMFFIAny v = tether_any_none();
  const TVMFFIFieldInfo* f = tether_type_find_field(level_type, "value", 5);
  CHECK(f != NULL);
  if (f != NULL) {
    CHECK_OK(tether_field_get(high, f, &v));
    CHECK_EQ_INT(v.type_index, kTVMFFIInt);
    CHECK_EQ_INT(v.v_int64, 7);
  }
  f = tether_type_find_field(op_type, "value", 5);
  CHECK(f != NULL);
  if (f != NULL) {
    TVMFFIByteArray s = {"", 0};
    CHECK_OK(tether_field_get(times, f, &v));
    CHECK(tether_any_get_str(&v, &s));
    CHECK_BYTES(s, "*");
    tether_any_release(&v);
  }
}

static void test_attributes(void) {
  TVMFFIAny v = tether_any_none();
  TVMFFIByteArray s = {"", 0};
  CHECK_OK(tether_enum_get_attr(red, "warm", &v));
  CHECK_EQ_INT(v.v_int64, 1);
  CHECK_OK(tether_enum_get_attr(green, "warm", &v));
  CHECK_EQ_INT(v.v_int64, 0);
  CHECK_OK(tether_enum_get_attr(red, "label", &v));
  CHECK(tether_any_get_str(&v, &s));
  CHECK_BYTES(s, "a colour between orange and violet");
  tether_any_release(&v);
  TVMFFIAny three = tether_any_int(3), four = tether_any_int(4);
  CHECK_OK(tether_enum_set_attr(green, "rank", &three));
  CHECK_OK(tether_enum_get_attr(green, "rank", &v));
  CHECK_EQ_INT(v.v_int64, 3);
  CHECK_OK(tether_enum_set_attr(green, "rank", &four)); /* replaces */
  CHECK_OK(tether_enum_get_attr(green, "rank", &v));
  CHECK_EQ_INT(v.v_int64, 4);
  CHECK_RAISED(tether_enum_get_attr(green, "label", &v), "KeyError",
               "`test_enum.Color.green` has no attribute `label`");
  CHECK_RAISED(tether_enum_get_attr(low, "warm", &v), "KeyError", "no attribute `warm`");
  CHECK_EQ_INT(v.v_int64, 4); /* untouched by the failures */
}

/* ---- bad input --------------------------------------------------------------------------- */

static void test_bad_input(void) {
  int64_t nine = 9;
  int32_t index = -1;
  TVMFFIObjectHandle out = NULL;
  TVMFFIAny v = tether_any_none();
  CHECK_RAISED(tether_enum_type_def("test_enum.NotEnum", kTVMFFIArray, 48, true, &index),
               "TypeError", "tether_enum_type_def: type `ffi.Array`");
  CHECK_RAISED(tether_enum_type_def("test_enum.Small", index_of("ffi.Enum"), 40, true, &index),
               "ValueError", "total_size >= 48");
  CHECK_RAISED(tether_enum_type_def(NULL, index_of("ffi.Enum"), 48, true, &index), "ValueError",
               "must not be NULL");
  CHECK_RAISED(tether_enum_add_variant(kTVMFFIMap, "x", NULL, &out), "TypeError",
               "tether_enum_add_variant: type `ffi.Map`");
  CHECK_RAISED(tether_enum_add_variant(level_type, "mid", NULL, &out), "TypeError",
               "`test_enum.Level.mid` needs an integer index");
  CHECK_RAISED(tether_enum_add_variant(color_type, "blue", &nine, &out), "TypeError",
               "explicit integer indices are for IntEnum types only");
  CHECK_RAISED(tether_enum_add_variant(color_type, NULL, NULL, &out), "ValueError",
               "argument `name`");
  /* a taken index, by name or by number, changes nothing */
  int64_t taken = 7;
  CHECK_RAISED(tether_enum_add_variant(color_type, "red", NULL, &out), "ValueError",
               "already has a variant");
  CHECK_RAISED(tether_enum_add_variant(level_type, "seven", &taken, &out), "ValueError",
               "already has a variant with index 7");
  CHECK_EQ_INT(tether_enum_count(color_type), 2);
  CHECK_EQ_INT(tether_enum_count(level_type), 2);
  TVMFFIAny seven = tether_any_raw_str("seven");
  CHECK_RAISED(tether_enum_get(level_type, &seven, &out), "ValueError",
               "Enum `test_enum.Level` has no instance with index seven");
  TVMFFIAny eight = tether_any_int(8);
  CHECK_RAISED(tether_enum_get(level_type, &eight, &out), "ValueError",
               "has no instance with index 8");
  TVMFFIAny half = tether_any_float(0.5);
  CHECK_RAISED(tether_enum_get(level_type, &half, &out), "TypeError",
               "an enum index must be an int or a str, got `float`");
  CHECK_RAISED(tether_enum_get(kTVMFFIArray, &eight, &out), "TypeError", "not an enum type");
  CHECK_EQ_INT(tether_enum_count(kTVMFFIArray), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  TVMFFIObjectDecRef(err);
  CHECK(tether_enum_at(kTVMFFIArray, 0) == NULL);
  /* attributes belong to enum objects only */
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(NULL, 0, &arr));
  CHECK_RAISED(tether_enum_set_attr(arr, "x", &eight), "TypeError",
               "argument `variant` must be an enum object, got `ffi.Array`");
  CHECK_RAISED(tether_enum_get_attr(arr, "x", &v), "TypeError", "got `ffi.Array`");
  CHECK_RAISED(tether_enum_set_attr(NULL, "x", &eight), "TypeError", "got NULL");
  TVMFFIObjectDecRef(arr);
  CHECK(out == NULL);
}

/* ---- variants in JSON graphs, the printer, copies and comparisons ------------------------- */

static char* to_text(TVMFFIAny v) {
  TVMFFIObjectHandle f = tether_func_get("ffi.ToJSONGraphString");
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray s = {"", 0};
  char* text = NULL;
  TVMFFIAny args[2] = {v, tether_any_none()};
  CHECK_OK(tether_func_call(f, args, 2, &out));
  if (tether_any_get_str(&out, &s)) {
    text = malloc(s.size + 1);
    memcpy(text, s.data, s.size);
    text[s.size] = '\0';
  }
  tether_any_release(&out);
  TVMFFIObjectDecRef(f);
  return text;
}

static int from_text(const char* text, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get("ffi.FromJSONGraphString");
  TVMFFIAny arg = tether_any_raw_str(text);
  *out = tether_any_none();
  int rc = tether_func_call(f, &arg, 1, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static void check_json(TVMFFIObjectHandle variant, const char* want) {
  char* text = to_text(tether_any_object(variant));
  CHECK_EQ_STR(text, want);
  TVMFFIAny back = tether_any_none();
  if (text != NULL) CHECK_OK(from_text(text, &back));
  CHECK(back.v_obj == variant);
  tether_any_release(&back);
  free(text);
}

static void test_json_graph(void) {
  check_json(red, "{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Color\",\"data\":\"red\"}]}");
  check_json(low, "{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Level\",\"data\":-5}]}");
  check_json(times, "{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Op\",\"data\":\"*\"}]}");
  /* shared within a container, read back as the same singletons */
  TVMFFIAny items[4] = {tether_any_object(green), tether_any_object(high),
                        tether_any_object(green), tether_any_object(plus)};
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, 4, &arr));
  char* text = to_text(tether_any_object(arr));
  TVMFFIAny back = tether_any_none();
  if (text != NULL) CHECK_OK(from_text(text, &back));
  CHECK_EQ_INT(tether_array_size(back.v_obj), 4);
  for (int64_t i = 0; i < 4 && back.type_index == kTVMFFIArray; ++i) {
    CHECK(tether_array_at(back.v_obj, i)->v_obj == items[i].v_obj);
  }
  tether_any_release(&back);
  TVMFFIObjectDecRef(arr);
  free(text);
  /* an index the type does not have, or of the wrong kind */
  CHECK_RAISED(from_text("{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Color\","
                         "\"data\":\"blue\"}]}", &back),
               "ValueError", "Enum `test_enum.Color` has no instance with index blue");
  CHECK_RAISED(from_text("{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Level\","
                         "\"data\":\"low\"}]}", &back),
               "ValueError", "data must be an int (the enum's index)");
  CHECK_RAISED(from_text("{\"root_index\":0,\"nodes\":[{\"type\":\"test_enum.Op\","
                         "\"data\":0}]}", &back),
               "ValueError", "data must be a string (the enum's index)");
}

static void check_repr(TVMFFIObjectHandle v, const char* want) {
  TVMFFIAny any = tether_any_object(v), out = tether_any_none();
  TVMFFIByteArray s = {"", 0};
  CHECK_OK(tether_repr(&any, &out));
  CHECK(tether_any_get_str(&out, &s));
  CHECK_BYTES(s, want);
  tether_any_release(&out);
}

static void test_repr(void) {
  check_repr(red, "test_enum.Color.red");
  check_repr(high, "test_enum.Level.high");
  check_repr(times, "test_enum.Op.*");
}

static void test_copies_and_comparisons(void) {
  TVMFFIAny items[2] = {tether_any_object(red), tether_any_object(low)};
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, 2, &arr));
  TVMFFIAny src = tether_any_object(arr), copy = tether_any_none();
  CHECK_OK(tether_deep_copy(&src, &copy));
  CHECK(copy.v_obj != arr);
  CHECK(tether_array_at(copy.v_obj, 0)->v_obj == red); /* shared, not copied */
  CHECK(tether_array_at(copy.v_obj, 1)->v_obj == low);
  bool eq = false;
  CHECK_OK(tether_structural_equal(&src, &copy, false, false, &eq));
  CHECK(eq);
  tether_any_release(&copy);
  TVMFFIObjectDecRef(arr);
  /* a second object with the same indices is not the variant (identity, not fields) */
  TVMFFIObjectHandle fresh = NULL;
  CHECK_OK(tether_object_new_reflected(color_type, &fresh));
  ((tether_enum_t*)fresh)->int_index = 0;
  CHECK_OK(tether_any_str("red", 3, &((tether_enum_t*)fresh)->str_index));
  TVMFFIAny a = tether_any_object(red), b = tether_any_object(fresh);
  CHECK_OK(tether_structural_equal(&a, &a, false, false, &eq));
  CHECK(eq);
  CHECK_OK(tether_structural_equal(&a, &b, false, false, &eq));
  CHECK(!eq);
  TVMFFIObjectDecRef(fresh);
}

/* ---- out of memory ----------------------------------------------------------------------- */

/* What the sweep below found (it runs before the tests: the variants it adds stay). */
static struct {
  int ran;             /* injection works here (not under valgrind or ASan) */
  int failures;        /* attempts that failed */
  int bad_failures;    /* ... without a MemoryError, or leaving part of a variant behind */
  int completed;       /* names registered in the end */
  int misplaced;       /* ... not where a lookup finds them */
} oom;

/* Every allocation of tether_enum_add_variant fails once in turn: each failure must raise
 * a MemoryError and leave the state as it was (no entry, no index), and a later attempt
 * must register the variant completely. */
/* Whether looking `index` up in the sweep's type finds a variant (the lookup's error, if
 * any, is cleared). */
static int oom_finds(TVMFFIAny index) {
  TVMFFIObjectHandle found = NULL, err = NULL;
  int rc = tether_enum_get(oom_type, &index, &found);
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIObjectDecRef(err);
  TVMFFIObjectDecRef(found);
  return rc == 0;
}

__attribute__((constructor(102))) static void sweep_add_variant_out_of_memory(void) {
  static const char* names[] = {"first", "second_with_a_long_name"};
  if (!injection_works()) return;
  oom.ran = 1;
  for (int k = 0; k < 2; ++k) {
    int64_t count = tether_enum_count(oom_type);
    for (long attempt = 1; attempt < 200; ++attempt) {
      TVMFFIObjectHandle v = NULL, err = NULL;
      fail_nth(attempt);
      int rc = tether_enum_add_variant(oom_type, names[k], NULL, &v);
      int injected = disarm();
      TVMFFIErrorMoveFromRaised(&err);
      TVMFFIAny name = tether_any_raw_str(names[k]), number = tether_any_int(count);
      if (rc == 0) {
        oom.completed += err == NULL;
        oom.misplaced += tether_enum_at(oom_type, count) != v || !oom_finds(name);
        TVMFFIObjectDecRef(err);
        break;
      }
      oom.failures++;
      TVMFFIByteArray kind = err != NULL ? tether_error_kind(err) : (TVMFFIByteArray){"", 0};
      int memory_error = kind.size == 11 && memcmp(kind.data, "MemoryError", 11) == 0;
      TVMFFIObjectDecRef(err);
      int half = tether_enum_count(oom_type) != count || oom_finds(name) || oom_finds(number);
      oom.bad_failures += !injected || !memory_error || half;
    }
  }
}

static void test_add_variant_out_of_memory(void) {
  if (!oom.ran) return;
  CHECK(oom.failures > 2);
  CHECK_EQ_INT(oom.bad_failures, 0);
  CHECK_EQ_INT(oom.completed, 2);
  CHECK_EQ_INT(oom.misplaced, 0);
  CHECK_EQ_INT(tether_enum_count(oom_type), 2);
}

TEST_MAIN(TEST_CASE(test_families), TEST_CASE(test_indices_and_lookup),
          TEST_CASE(test_value_field_reads_the_index), TEST_CASE(test_attributes),
          TEST_CASE(test_bad_input), TEST_CASE(test_json_graph), TEST_CASE(test_repr),
          TEST_CASE(test_copies_and_comparisons), TEST_CASE(test_add_variant_out_of_memory))
