/*
 * test_recursive.c -- the dataclass operations on whole values: ffi.RecursiveEq / Lt / Le /
 * Gt / Ge / Hash, ffi.DeepCopy and ffi.ReprPrint (with the tether_recursive_*,
 * tether_deep_copy and tether_repr C entry points): results, hashes equal to tvm-ffi's,
 * cycles, sharing, 100,000-deep data, and typed errors.
 */
#include <math.h>

#include "extra_test.h"

/* test.Point {x: int, y: int (CompareOff)} */
typedef struct {
  TVMFFIObject header;
  int64_t x;
  int64_t y;
} point_t;

static int32_t point_type;

__attribute__((constructor)) static void setup_types(void) {
  TVMFFIByteArray key = {"test_recursive.Point", 20};
  point_type = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  tether_field_def_t fields[] = {
      {"x", TETHER_FIELD_INT64, offsetof(point_t, x), kTVMFFIFieldFlagBitMaskWritable, 0, NULL, NULL},
      {"y", TETHER_FIELD_INT64, offsetof(point_t, y),
       kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskCompareOff, 0, NULL, NULL}};
  for (int i = 0; i < 2; ++i) tether_type_def_field(point_type, &fields[i]);
  tether_type_def_finish(point_type, sizeof(point_t), NULL);
}

static TVMFFIAny new_point(int64_t x, int64_t y) {
  TVMFFIObject* p = NULL;
  CHECK_OK(tether_object_new_reflected(point_type, (TVMFFIObjectHandle*)&p));
  if (p == NULL) return tether_any_none();
  ((point_t*)p)->x = x;
  ((point_t*)p)->y = y;
  return tether_any_object(p);
}

static TVMFFIAny array_of(const TVMFFIAny* items, int64_t n) {
  TVMFFIObject* a = NULL;
  CHECK_OK(tether_array_new(items, n, (TVMFFIObjectHandle*)&a));
  return a != NULL ? tether_any_object(a) : tether_any_none();
}

/* The bool result of global `name` on (a, b). */
static bool call_bool(const char* name, TVMFFIAny a, TVMFFIAny b) {
  TVMFFIAny args[2] = {a, b}, out = tether_any_none();
  CHECK_OK(call_global(name, args, 2, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIBool);
  return out.v_int64 != 0;
}

static void test_eq_and_order(void) {
  TVMFFIAny i12[3] = {tether_any_int(1), tether_any_int(2), tether_any_int(0)};
  TVMFFIAny i13[2] = {tether_any_int(1), tether_any_int(3)};
  TVMFFIAny a12 = array_of(i12, 2), b12 = array_of(i12, 2), a13 = array_of(i13, 2);
  TVMFFIAny a120 = array_of(i12, 3);
  CHECK(call_bool("ffi.RecursiveEq", a12, b12));
  CHECK(!call_bool("ffi.RecursiveEq", a12, a13));
  CHECK(call_bool("ffi.RecursiveLt", a12, a13));
  CHECK(call_bool("ffi.RecursiveLt", a12, a120)); /* a prefix is smaller */
  CHECK(call_bool("ffi.RecursiveLe", a12, b12));
  CHECK(!call_bool("ffi.RecursiveGt", a12, b12));
  CHECK(call_bool("ffi.RecursiveGe", a13, a12));
  /* None sorts first; strings compare by content across their forms */
  CHECK(call_bool("ffi.RecursiveLt", tether_any_none(), tether_any_int(0)));
  CHECK(call_bool("ffi.RecursiveLt", tether_any_raw_str("abc"), tether_any_raw_str("abd")));
  /* CompareOff fields are left out */
  TVMFFIAny p1 = new_point(1, 5), p2 = new_point(1, 6), p3 = new_point(2, 0);
  CHECK(call_bool("ffi.RecursiveEq", p1, p2));
  CHECK(call_bool("ffi.RecursiveLt", p2, p3));
  /* equality of different types is false; their order is a TypeError naming both */
  CHECK(!call_bool("ffi.RecursiveEq", tether_any_int(1), tether_any_raw_str("a")));
  TVMFFIAny args[2] = {tether_any_int(1), tether_any_float(1.5)}, out;
  CHECK_RAISED(call_global("ffi.RecursiveLt", args, 2, &out), "TypeError",
               "Cannot compare values of different types: int vs float");
  args[0] = tether_any_float(NAN);
  CHECK(call_bool("ffi.RecursiveEq", args[0], tether_any_float(NAN)));
  CHECK_RAISED(call_global("ffi.RecursiveLt", args, 2, &out), "TypeError", "Cannot order NaN values");
  TVMFFIAny* vals[] = {&a12, &b12, &a13, &a120, &p1, &p2, &p3};
  for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); ++i) tether_any_release(vals[i]);
}

static void test_maps(void) {
  TVMFFIAny kv1[2] = {tether_any_raw_str("a"), tether_any_int(1)};
  TVMFFIAny kv2[2] = {tether_any_raw_str("a"), tether_any_int(2)};
  TVMFFIObject *m1 = NULL, *m1b = NULL, *m2 = NULL;
  CHECK_OK(tether_map_new(kv1, 1, (TVMFFIObjectHandle*)&m1));
  CHECK_OK(tether_map_new(kv1, 1, (TVMFFIObjectHandle*)&m1b));
  CHECK_OK(tether_map_new(kv2, 1, (TVMFFIObjectHandle*)&m2));
  CHECK(call_bool("ffi.RecursiveEq", tether_any_object(m1), tether_any_object(m1b)));
  CHECK(!call_bool("ffi.RecursiveEq", tether_any_object(m1), tether_any_object(m2)));
  TVMFFIAny args[2] = {tether_any_object(m1), tether_any_object(m2)}, out;
  CHECK_RAISED(call_global("ffi.RecursiveLt", args, 2, &out), "TypeError", "Cannot order Map/Dict values");
  TVMFFIObjectDecRef(m1);
  TVMFFIObjectDecRef(m1b);
  TVMFFIObjectDecRef(m2);
}

/* Figures printed by apache-tvm-ffi 0.1.15.post2 for the same values. */
static void test_hash_values(void) {
  TVMFFIAny i12[2] = {tether_any_int(1), tether_any_int(2)};
  TVMFFIAny a = array_of(i12, 2);
  int64_t h;
  CHECK_OK(tether_recursive_hash(&a, &h));
  CHECK_EQ_INT(h, INT64_C(2823377144815479104));
  struct {
    TVMFFIAny v;
    int64_t expected;
  } rows[] = {
      {tether_any_int(1), INT64_C(2654435835)},
      {tether_any_raw_str("abc"), INT64_C(2660953131)},
      {tether_any_float(1.5), INT64_C(4609434221268138618)},
      {tether_any_none(), INT64_C(2654435769)},
      {tether_any_bool(true), INT64_C(2654435896)},
  };
  for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i) {
    CHECK_OK(tether_recursive_hash(&rows[i].v, &h));
    CHECK_EQ_INT(h, rows[i].expected);
  }
  /* equal values hash equal; CompareOff fields do not count */
  TVMFFIAny p1 = new_point(1, 5), p2 = new_point(1, 6);
  int64_t h1, h2;
  CHECK_OK(tether_recursive_hash(&p1, &h1));
  CHECK_OK(tether_recursive_hash(&p2, &h2));
  CHECK_EQ_INT(h1, h2);
  tether_any_release(&a);
  tether_any_release(&p1);
  tether_any_release(&p2);
}

static void test_deep_copy(void) {
  /* sharing is kept: {"x": a, "y": a} copies to {"x": a', "y": a'} */
  TVMFFIAny items[1] = {tether_any_int(1)};
  TVMFFIAny a = array_of(items, 1);
  TVMFFIAny kv[4] = {tether_any_raw_str("x"), a, tether_any_raw_str("y"), a};
  TVMFFIObject* m = NULL;
  CHECK_OK(tether_map_new(kv, 2, (TVMFFIObjectHandle*)&m));
  TVMFFIAny mv = tether_any_object(m), copy = tether_any_none();
  CHECK_OK(tether_deep_copy(&mv, &copy));
  CHECK(copy.v_obj != m);
  TVMFFIAny kx = tether_any_raw_str("x"), ky = tether_any_raw_str("y");
  const TVMFFIAny* cx = tether_map_find(copy.v_obj, &kx);
  const TVMFFIAny* cy = tether_map_find(copy.v_obj, &ky);
  CHECK(cx != NULL && cy != NULL && cx->v_obj == cy->v_obj && cx->v_obj != a.v_obj);
  tether_any_release(&copy);
  /* a cycle through a List is copied as a cycle */
  TVMFFIObject* list = NULL;
  CHECK_OK(tether_list_new(items, 1, (TVMFFIObjectHandle*)&list));
  TVMFFIAny lv = tether_any_object(list);
  CHECK_OK(tether_list_append(list, &lv));
  CHECK_OK(tether_deep_copy(&lv, &copy));
  CHECK(copy.v_obj != list);
  const TVMFFIAny* back = tether_list_at(copy.v_obj, 1);
  CHECK(back != NULL && back->v_obj == copy.v_obj);
  check_repr(lv, "[1, ...]");
  CHECK_OK(tether_list_clear(copy.v_obj)); /* break the cycles to free them */
  CHECK_OK(tether_list_clear(list));
  tether_any_release(&copy);
  TVMFFIObjectDecRef(list);
  /* reflected objects are copied field by field */
  TVMFFIAny p = new_point(3, 4);
  CHECK_OK(tether_deep_copy(&p, &copy));
  CHECK_EQ_INT(copy.type_index, point_type);
  if (copy.type_index == point_type) {
    CHECK(copy.v_obj != p.v_obj && ((point_t*)copy.v_obj)->x == 3 && ((point_t*)copy.v_obj)->y == 4);
  }
  tether_any_release(&copy);
  tether_any_release(&p);
  /* a Function cannot be copied */
  TVMFFIObjectHandle fn = tether_func_get("ffi.DeepCopy");
  TVMFFIAny fv = tether_any_object(fn), out;
  CHECK_RAISED(call_global("ffi.DeepCopy", &fv, 1, &out), "RuntimeError", "not copy-constructible");
  TVMFFIObjectDecRef(fn);
  tether_any_release(&a);
  TVMFFIObjectDecRef(m);
}

static void test_repr(void) {
  TVMFFIAny items[4] = {tether_any_int(1), tether_any_raw_str("a"), tether_any_none(),
                        tether_any_bool(true)};
  TVMFFIAny a = array_of(items, 4), one = array_of(items, 1);
  check_repr(a, "(1, \"a\", None, True)");
  check_repr(one, "(1,)");
  TVMFFIAny kv[2] = {tether_any_raw_str("k"), one};
  TVMFFIObject* d = NULL;
  CHECK_OK(tether_dict_new(kv, 1, (TVMFFIObjectHandle*)&d));
  check_repr(tether_any_object(d), "{\"k\": (1,)}");
  TVMFFIAny p = new_point(3, 4);
  check_repr(p, "test_recursive.Point(x=3, y=4)");
  check_repr(tether_any_raw_str("h\xc3\xa9\n"), "\"h\\u00e9\\n\"");
  check_repr(tether_any_float(1e20), "1e+20");
  tether_any_release(&a);
  tether_any_release(&one);
  tether_any_release(&p);
  TVMFFIObjectDecRef(d);
}

static void test_deep_data(void) {
  enum { kDepth = 100000 };
  TVMFFIAny leaf = tether_any_int(7);
  TVMFFIObject *a = NULL, *b = NULL;
  CHECK_OK(tether_array_new(&leaf, 1, (TVMFFIObjectHandle*)&a));
  for (int i = 1; i < kDepth; ++i) {
    TVMFFIAny inner = tether_any_object(a);
    TVMFFIObject* outer = NULL;
    CHECK_OK(tether_array_new(&inner, 1, (TVMFFIObjectHandle*)&outer));
    TVMFFIObjectDecRef(a);
    a = outer;
  }
  TVMFFIAny av = tether_any_object(a), copy = tether_any_none(), text = tether_any_none();
  CHECK_OK(tether_deep_copy(&av, &copy));
  b = copy.v_obj;
  CHECK(b != a);
  bool eq = false;
  int cmp = 1;
  int64_t ha = 0, hb = 1;
  CHECK_OK(tether_recursive_eq(&av, &copy, &eq));
  CHECK(eq);
  CHECK_OK(tether_recursive_compare(&av, &copy, &cmp));
  CHECK_EQ_INT(cmp, 0);
  CHECK_OK(tether_recursive_hash(&av, &ha));
  CHECK_OK(tether_recursive_hash(&copy, &hb));
  CHECK_EQ_INT(ha, hb);
  /* "((...(7,),...),)": kDepth opening parentheses, the leaf, kDepth ",)" */
  TVMFFIByteArray s = {"", 0};
  CHECK_OK(tether_repr(&av, &text));
  CHECK(tether_any_get_str(&text, &s));
  CHECK_EQ_INT(s.size, 3 * kDepth + 1);
  CHECK(s.size > 4 && s.data[0] == '(' && s.data[kDepth - 1] == '(' && s.data[kDepth] == '7' &&
        memcmp(s.data + s.size - 2, ",)", 2) == 0);
  tether_any_release(&text);
  release_chain(a);
  release_chain(b);
}

static void test_bad_input(void) {
  TVMFFIAny out = tether_any_none(), one = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.RecursiveEq", &one, 1, &out), "TypeError", "ffi.RecursiveEq");
  CHECK_RAISED(call_global("ffi.RecursiveHash", NULL, 0, &out), "TypeError", "ffi.RecursiveHash");
  TVMFFIAny bad = tether_any_none();
  bad.type_index = kTVMFFIRawStr; /* a NULL `const char*` view */
  CHECK_RAISED(call_global("ffi.DeepCopy", &bad, 1, &out), "ValueError", "ffi.DeepCopy");
  CHECK_RAISED(call_global("ffi.ReprPrint", &bad, 1, &out), "ValueError", "ffi.ReprPrint");
  CHECK_RAISED(tether_recursive_eq(&one, NULL, NULL), "ValueError", "NULL");
  CHECK_RAISED(tether_deep_copy(NULL, &out), "ValueError", "NULL");
}

TEST_MAIN(TEST_CASE(test_eq_and_order), TEST_CASE(test_maps), TEST_CASE(test_hash_values),
          TEST_CASE(test_deep_copy), TEST_CASE(test_repr), TEST_CASE(test_deep_data),
          TEST_CASE(test_bad_input))
