/*
 * test_bigint.c -- ffi.BigInt (kTVMFFIBigInt, src/ffi/bigint.c): the type's place in the
 * table, TVMFFIBigIntFromByteArray's normalisation (values that fit int64 are kTVMFFIInt,
 * redundant sign words dropped, the empty string is 0), TVMFFIBigIntGetContentByteArray
 * for both forms, bad input and out-of-memory as typed errors, BigInts as Map keys
 * (hash and equality by value, hash bit-exact with tvm-ffi's formula), and repr.
 * Semantics observed on apache-tvm-ffi 0.1.15.post2.
 */
#include <stdint.h>

#include <tether/container.h>
#include <tether/reflection.h>

#include "test.h"
#include "failalloc.h"

/* The integer of `n` words given least significant first. */
static int make(const uint64_t* words, size_t n, TVMFFIAny* out) {
  TVMFFIByteArray in = {(const char*)words, n * sizeof(uint64_t)};
  return TVMFFIBigIntFromByteArray(&in, out);
}

/* Expects *v to hold exactly the words w[0..n) (the content TVMFFIBigIntGetContentByteArray
 * gives). */
static void check_words(const TVMFFIAny* v, const uint64_t* w, size_t n) {
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(v);
  CHECK_EQ_INT(c.size, n * sizeof(uint64_t));
  CHECK(c.data != NULL && c.size == n * 8 && memcmp(c.data, w, c.size) == 0);
}

static void check_repr(const TVMFFIAny* v, const char* expected) {
  TVMFFIAny text = tether_any_none();
  CHECK_OK(tether_repr(v, &text));
  TVMFFIByteArray s = {"", 0};
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, expected);
  tether_any_release(&text);
}

static void test_type_registered(void) {
  TVMFFIByteArray key = {"ffi.BigInt", 10};
  int32_t index = -1;
  CHECK_OK(TVMFFITypeKeyToIndex(&key, &index));
  CHECK_EQ_INT(index, kTVMFFIBigInt);
  CHECK_EQ_INT(kTVMFFIBigInt, 78);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(kTVMFFIBigInt);
  CHECK(info != NULL);
  if (info == NULL) return;
  CHECK_BYTES(info->type_key, "ffi.BigInt");
  CHECK_EQ_INT(info->type_depth, 1);
  CHECK_EQ_INT(info->type_ancestors[0]->type_index, kTVMFFIObject);
  CHECK(tether_type_is_subclass(kTVMFFIBigInt, kTVMFFIObject));
}

/* Values that fit int64 never become a BigInt, whatever the number of words given. */
static void test_fits_int64_is_int(void) {
  static const struct {
    uint64_t words[3];
    size_t n;
    int64_t value;
  } rows[] = {
      {{0}, 0, 0},                                              /* empty: zero */
      {{5}, 1, 5},
      {{(uint64_t)-5}, 1, -5},
      {{5, 0, 0}, 3, 5},                                        /* redundant zero words */
      {{(uint64_t)-5, UINT64_MAX}, 2, -5},                      /* redundant sign word */
      {{(uint64_t)INT64_MAX, 0}, 2, INT64_MAX},
      {{(uint64_t)INT64_MIN, UINT64_MAX, UINT64_MAX}, 3, INT64_MIN},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    TVMFFIAny v = {.type_index = 99, .v_int64 = 99};
    CHECK_OK(make(rows[i].words, rows[i].n, &v));
    CHECK_EQ_INT(v.type_index, kTVMFFIInt);
    CHECK_EQ_INT(v.zero_padding, 0);
    CHECK_EQ_INT(v.v_int64, rows[i].value);
  }
}

static void test_big_values_are_shortest_form(void) {
  static const struct {
    uint64_t words[4];
    size_t n;
    uint64_t want[4];
    size_t want_n;
  } rows[] = {
      {{(uint64_t)INT64_MIN, 0}, 2, {(uint64_t)INT64_MIN, 0}, 2},           /* 2**63: keeps its guard word */
      {{(uint64_t)INT64_MIN, 0, 0, 0}, 4, {(uint64_t)INT64_MIN, 0}, 2},
      {{(uint64_t)INT64_MAX, UINT64_MAX}, 2, {(uint64_t)INT64_MAX, UINT64_MAX}, 2}, /* -2**63-1 */
      {{0, 1, 0}, 3, {0, 1}, 2},                                             /* 2**64 */
      /* negative, and the -1 top word is no mere sign extension of the positive 3 */
      {{1, 2, 3, UINT64_MAX}, 4, {1, 2, 3, UINT64_MAX}, 4},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    TVMFFIAny v = tether_any_none();
    CHECK_OK(make(rows[i].words, rows[i].n, &v));
    CHECK_EQ_INT(v.type_index, kTVMFFIBigInt);
    CHECK_EQ_INT(v.zero_padding, 0);
    CHECK(v.v_obj != NULL && v.v_obj->type_index == kTVMFFIBigInt);
    CHECK_EQ_STR(tether_any_type_key(&v), "ffi.BigInt");
    check_words(&v, rows[i].want, rows[i].want_n);
    /* The object layout C++ code reads: header, size_t count, the words. */
    const char* base = (const char*)v.v_obj;
    size_t count;
    memcpy(&count, base + sizeof(TVMFFIObject), sizeof(count));
    CHECK_EQ_INT(count, rows[i].want_n);
    CHECK(memcmp(base + sizeof(TVMFFIObject) + sizeof(size_t), rows[i].want,
                 rows[i].want_n * 8) == 0);
    tether_any_release(&v);
  }
  /* A negative value whose top word is only a sign extension loses it. */
  uint64_t neg[3] = {0, (uint64_t)-2, UINT64_MAX};
  TVMFFIAny v = tether_any_none();
  CHECK_OK(make(neg, 3, &v));
  check_words(&v, neg, 2);
  tether_any_release(&v);
}

/* The input need not be aligned, and is copied. */
static void test_unaligned_input_is_copied(void) {
  _Alignas(8) char buf[1 + 16];
  uint64_t w[2] = {7, 1};
  memcpy(buf + 1, w, 16);
  TVMFFIByteArray in = {buf + 1, 16};
  TVMFFIAny v = tether_any_none();
  CHECK_OK(TVMFFIBigIntFromByteArray(&in, &v));
  memset(buf, 0, sizeof(buf));
  check_words(&v, w, 2);
  tether_any_release(&v);
}

static void test_content_of_int_borrows_the_cell(void) {
  TVMFFIAny v = tether_any_int(-42);
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(c.data == (const char*)&v.v_int64);
  CHECK_EQ_INT(c.size, 8);
}

static void test_bad_input(void) {
  uint64_t w[2] = {1, 2};
  TVMFFIByteArray odd = {(const char*)w, 12};
  TVMFFIAny v = tether_any_int(3);
  CHECK_RAISED(TVMFFIBigIntFromByteArray(&odd, &v), "ValueError",
               "TVMFFIBigIntFromByteArray: argument `input` must hold whole 64-bit words, got 12 bytes");
  CHECK_EQ_INT(v.type_index, kTVMFFINone); /* reset first, as tvm-ffi does */
  CHECK_RAISED(TVMFFIBigIntFromByteArray(NULL, &v), "ValueError",
               "TVMFFIBigIntFromByteArray: argument `input` must not be NULL");
  TVMFFIByteArray in = {(const char*)w, 16};
  CHECK_RAISED(TVMFFIBigIntFromByteArray(&in, NULL), "ValueError",
               "TVMFFIBigIntFromByteArray: argument `out` must not be NULL");
  TVMFFIByteArray null_data = {NULL, 8};
  CHECK_RAISED(TVMFFIBigIntFromByteArray(&null_data, &v), "ValueError",
               "argument `input` has NULL data but size 8");
  TVMFFIByteArray empty = {NULL, 0};
  CHECK_OK(TVMFFIBigIntFromByteArray(&empty, &v));
  CHECK(v.type_index == kTVMFFIInt && v.v_int64 == 0);

  /* GetContent has no return code: {NULL, 0} and a parked error. */
  TVMFFIAny none = tether_any_none();
  TVMFFIByteArray c = TVMFFIBigIntGetContentByteArray(&none);
  CHECK(c.data == NULL && c.size == 0);
  CHECK_RAISED(-1, "TypeError",
               "TVMFFIBigIntGetContentByteArray: argument `value` must be an int or an "
               "ffi.BigInt, got `None`");
  TVMFFIAny str = tether_any_none();
  CHECK_OK(tether_any_str("a long string", 13, &str));
  c = TVMFFIBigIntGetContentByteArray(&str);
  CHECK(c.data == NULL && c.size == 0);
  CHECK_RAISED(-1, "TypeError", "got `ffi.String`");
  tether_any_release(&str);
  c = TVMFFIBigIntGetContentByteArray(NULL);
  CHECK(c.data == NULL && c.size == 0);
  CHECK_RAISED(-1, "ValueError", "argument `value` must not be NULL");
}

static void test_out_of_memory(void) {
  if (!injection_works()) return; /* valgrind/ASan own the allocator */
  uint64_t w[3] = {1, 2, 3};
  TVMFFIAny v = tether_any_int(9);
  fail_nth(1);
  int rc = make(w, 3, &v);
  CHECK(disarm());
  CHECK_RAISED(rc, "MemoryError", "");
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
  CHECK_OK(make(w, 3, &v));
  check_words(&v, w, 3);
  /* Printing allocates twice; each failure is a MemoryError, never a crash. */
  for (long n = 1; n <= 8; ++n) {
    TVMFFIAny text = tether_any_none();
    fail_nth(n);
    rc = tether_repr(&v, &text);
    int injected = disarm();
    if (rc == 0) {
      tether_any_release(&text);
      if (!injected) break;
      continue;
    }
    CHECK_RAISED(rc, "MemoryError", "");
  }
  tether_any_release(&v);
}

/* The reference's AnyHash of an object with an `__any_hash__` hook. */
static uint64_t hash_combine(uint64_t key, uint64_t value) {
  return key ^ (value + UINT64_C(0x9e3779b9) + (key << 6) + (key >> 2));
}

static uint64_t stable_hash_words(const uint64_t* w, size_t n) {
  uint64_t r = 0;
  for (size_t i = 0; i < n; ++i) r = (r * UINT64_C(1099511628211) + w[i]) % UINT64_C(2147483647);
  return r;
}

static void test_hash_equal_and_map_keys(void) {
  uint64_t w[2] = {0, 1}; /* 2**64 */
  uint64_t other[2] = {1, 1};
  TVMFFIAny a = tether_any_none(), b = tether_any_none(), c = tether_any_none();
  CHECK_OK(make(w, 2, &a));
  CHECK_OK(make((uint64_t[]){0, 1, 0}, 3, &b)); /* equal value, separate object */
  CHECK_OK(make(other, 2, &c));
  CHECK(a.v_obj != b.v_obj);
  CHECK(tether_any_equal(&a, &b));
  CHECK(!tether_any_equal(&a, &c));
  TVMFFIAny one = tether_any_int(1);
  CHECK(!tether_any_equal(&a, &one));
  CHECK(tether_any_hash(&a) == tether_any_hash(&b));
  CHECK(tether_any_hash(&a) == hash_combine(kTVMFFIBigInt, stable_hash_words(w, 2)));

  TVMFFIAny kvs[4] = {a, tether_any_int(10), c, tether_any_int(20)};
  TVMFFIObjectHandle map = NULL;
  CHECK_OK(tether_map_new(kvs, 2, &map));
  const TVMFFIAny* found = tether_map_find(map, &b);
  CHECK(found != NULL && found->type_index == kTVMFFIInt && found->v_int64 == 10);
  CHECK(tether_map_find(map, &one) == NULL);
  TVMFFIObjectDecRef(map);
  tether_any_release(&a);
  tether_any_release(&b);
  tether_any_release(&c);
}

static void test_view_to_owned_shares(void) {
  TVMFFIAny a = tether_any_none(), owned = tether_any_none();
  CHECK_OK(make((uint64_t[]){5, 5}, 2, &a));
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&a, &owned));
  CHECK(owned.type_index == kTVMFFIBigInt && owned.v_obj == a.v_obj);
  CHECK_EQ_INT(tether_object_use_count(a.v_obj), 2);
  tether_any_release(&owned);
  tether_any_release(&a);
}

static void test_repr_is_decimal(void) {
  static const struct {
    uint64_t words[3];
    size_t n;
    const char* text;
  } rows[] = {
      {{(uint64_t)INT64_MIN, 0}, 2, "9223372036854775808"},
      {{0, 1}, 2, "18446744073709551616"},
      {{0, UINT64_MAX}, 2, "-18446744073709551616"},
      {{0x4674edea40000000u, 0xc9f2c9cd0u}, 2, "1000000000000000000000000000000"},
      {{0xb98b1215c0000000u, 0xfffffff360d3632fu}, 2, "-1000000000000000000000000000000"},
      {{0x098a224000003039u, 0x4b3b4ca85a86c47au}, 2, "100000000000000000000000000000000012345"},
      {{0, 0x8000000000000000u}, 2, "-170141183460469231731687303715884105728"},
      {{0xd6947d55cf3813d1u, 0x673768565b41f775u, 0x5a4653cau}, 3,
       "515377520732011331036461129765621272702107522001"},
      {{0x296b82aa30c7ec2fu, 0x98c897a9a4be088au, 0xffffffffa5b9ac35u}, 3,
       "-515377520732011331036461129765621272702107522001"},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    TVMFFIAny v = tether_any_none();
    CHECK_OK(make(rows[i].words, rows[i].n, &v));
    CHECK_EQ_INT(v.type_index, kTVMFFIBigInt);
    check_repr(&v, rows[i].text);
    tether_any_release(&v);
  }
  /* Inside a container. */
  TVMFFIAny items[2] = {tether_any_none(), tether_any_int(1)};
  CHECK_OK(make((uint64_t[]){0, 1}, 2, &items[0]));
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, 2, &arr));
  TVMFFIAny av = tether_any_object(arr);
  check_repr(&av, "(18446744073709551616, 1)");
  TVMFFIObjectDecRef(arr);
  tether_any_release(&items[0]);
}


/* The extra layer treats a BigInt as a number: RecursiveEq/Lt order Int and BigInt by
 * value, StructuralEqual/Hash look at the words, DeepCopy shares, the JSON graph writes
 * the decimal text and reads back the canonical representation. */
static void test_extra_layer(void) {
  static const uint64_t two64[] = {0, 1};                      /* 2^64 */
  static const uint64_t above_max[] = {0x8000000000000000u, 0}; /* INT64_MAX + 1 */
  static const uint64_t below_min[] = {0x7fffffffffffffffu, ~(uint64_t)0}; /* INT64_MIN - 1 */
  TVMFFIAny a = tether_any_none(), b = tether_any_none(), hi = tether_any_none();
  TVMFFIAny lo = tether_any_none(), r = tether_any_none(), r2 = tether_any_none();
  CHECK_OK(make(two64, 2, &a));
  CHECK_OK(make(two64, 2, &b));
  CHECK_OK(make(above_max, 2, &hi));
  CHECK_OK(make(below_min, 2, &lo));
  TVMFFIAny max = tether_any_int(INT64_MAX), min = tether_any_int(INT64_MIN);

  TVMFFIAny ab[2] = {a, b};
  CHECK_OK(call_global("ffi.RecursiveEq", ab, 2, &r));
  CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
  TVMFFIAny order[][2] = {{max, hi}, {lo, min}, {lo, max}, {max, a}, {hi, a}};
  for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i) {
    CHECK_OK(call_global("ffi.RecursiveLt", order[i], 2, &r));
    CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
    TVMFFIAny swapped[2] = {order[i][1], order[i][0]};
    CHECK_OK(call_global("ffi.RecursiveLt", swapped, 2, &r));
    CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 0);
  }
  TVMFFIAny mixed[2] = {tether_any_float(1.0), hi};
  CHECK_RAISED(call_global("ffi.RecursiveLt", mixed, 2, &r), "TypeError", "different types");

  CHECK_OK(call_global("ffi.StructuralEqual", ab, 2, &r));
  CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
  TVMFFIAny a_hi[2] = {a, hi};
  CHECK_OK(call_global("ffi.StructuralEqual", a_hi, 2, &r));
  CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 0);
  CHECK_OK(call_global("ffi.StructuralHash", &a, 1, &r));
  CHECK_OK(call_global("ffi.StructuralHash", &b, 1, &r2));
  CHECK(r.type_index == kTVMFFIInt && r.v_int64 == r2.v_int64);

  CHECK_OK(call_global("ffi.DeepCopy", &a, 1, &r));
  CHECK(r.type_index == kTVMFFIBigInt && r.v_obj == a.v_obj);
  tether_any_release(&r);

  /* The graph: a node {"type": "ffi.BigInt", "data": decimal}, read back by value. */
  TVMFFIAny args[2] = {lo, tether_any_none()};
  CHECK_OK(call_global("ffi.ToJSONGraphString", args, 2, &r));
  TVMFFIByteArray text = {"", 0};
  CHECK(tether_any_get_str(&r, &text));
  CHECK(text.size > 0 && strstr(text.data, "\"-9223372036854775809\"") != NULL);
  CHECK_OK(call_global("ffi.FromJSONGraphString", &r, 1, &r2));
  TVMFFIAny back[2] = {r2, lo};
  TVMFFIAny eq = tether_any_none();
  CHECK_OK(call_global("ffi.RecursiveEq", back, 2, &eq));
  CHECK(r2.type_index == kTVMFFIBigInt && eq.v_int64 == 1);
  tether_any_release(&r);
  tether_any_release(&r2);

  /* Decimal text that fits int64 reads back as an Int; bad text is a ValueError. */
  TVMFFIObjectHandle from_json = NULL;
  TVMFFIByteArray column = {"__data_from_json__", 18};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&column);
  CHECK(col != NULL && col->size > kTVMFFIBigInt);
  if (col != NULL && col->size > kTVMFFIBigInt) from_json = col->data[kTVMFFIBigInt].v_obj;
  static const struct {
    const char* text;
    int64_t value;
  } canonical[] = {{"0", 0}, {"-0", 0}, {"+0007", 7}, {"-9223372036854775808", INT64_MIN}};
  for (size_t i = 0; from_json != NULL && i < sizeof(canonical) / sizeof(canonical[0]); ++i) {
    TVMFFIAny in = tether_any_none();
    CHECK_OK(tether_any_str(canonical[i].text, strlen(canonical[i].text), &in));
    CHECK_OK(tether_func_call(from_json, &in, 1, &r));
    CHECK(r.type_index == kTVMFFIInt && r.v_int64 == canonical[i].value);
    tether_any_release(&in);
  }
  static const char* const bad[] = {"", "+", "-", "x", "12x", " 1", "1 ", "1.0"};
  for (size_t i = 0; from_json != NULL && i < sizeof(bad) / sizeof(bad[0]); ++i) {
    TVMFFIAny in = tether_any_none();
    CHECK_OK(tether_any_str(bad[i], strlen(bad[i]), &in));
    CHECK_RAISED(tether_func_call(from_json, &in, 1, &r), "ValueError", "invalid decimal");
    tether_any_release(&in);
  }
  tether_any_release(&a);
  tether_any_release(&b);
  tether_any_release(&hi);
  tether_any_release(&lo);
}

TEST_MAIN(TEST_CASE(test_type_registered), TEST_CASE(test_fits_int64_is_int),
          TEST_CASE(test_big_values_are_shortest_form), TEST_CASE(test_unaligned_input_is_copied),
          TEST_CASE(test_content_of_int_borrows_the_cell), TEST_CASE(test_bad_input),
          TEST_CASE(test_out_of_memory), TEST_CASE(test_hash_equal_and_map_keys),
          TEST_CASE(test_view_to_owned_shares), TEST_CASE(test_repr_is_decimal),
          TEST_CASE(test_extra_layer))
