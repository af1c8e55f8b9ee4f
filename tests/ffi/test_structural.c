/*
 * test_structural.c -- structural equality and hashing (tether_structural_*, the
 * ffi.StructuralEqual / ffi.StructuralHash / ffi.GetFirstStructuralMismatch globals) and
 * ffi.StructuralKey: values, containers, free variables in definition regions, mismatch
 * paths, 100,000-deep data, and bad input.
 */
#include <math.h>

#include "extra_test.h"

/* test.Var: a free variable (name ignored by structural equality);
 * test.Lam: params (a definition region) and body;  test.Pair: two values. */
typedef struct {
  TVMFFIObject header;
  TVMFFIAny name;
} var_t;
typedef struct {
  TVMFFIObject header;
  TVMFFIObject* params;
  TVMFFIAny body;
} lam_t;
typedef struct {
  TVMFFIObject header;
  TVMFFIAny a;
  TVMFFIAny b;
} pair_t;

static int32_t var_type, lam_type, pair_type;

static int32_t define_type(const char* key, const tether_field_def_t* fields, int n,
                           int32_t size, TVMFFISEqHashKind kind) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t t = TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 0, kTVMFFIObject);
  for (int i = 0; i < n; ++i) tether_type_def_field(t, &fields[i]);
  TVMFFITypeMetadata md = {{"", 0}, NULL, size, kind};
  TVMFFITypeRegisterMetadata(t, &md);
  return t;
}

__attribute__((constructor)) static void setup_types(void) {
  tether_field_def_t var_fields[] = {{"name", TETHER_FIELD_STRING, offsetof(var_t, name),
                                      kTVMFFIFieldFlagBitMaskSEqHashIgnore, 0, NULL, NULL}};
  tether_field_def_t lam_fields[] = {
      {"params", TETHER_FIELD_OBJECT, offsetof(lam_t, params),
       kTVMFFIFieldFlagBitMaskSEqHashDefPattern, kTVMFFIArray, NULL, NULL},
      {"body", TETHER_FIELD_ANY, offsetof(lam_t, body), 0, 0, NULL, NULL}};
  tether_field_def_t pair_fields[] = {
      {"a", TETHER_FIELD_ANY, offsetof(pair_t, a), 0, 0, NULL, NULL},
      {"b", TETHER_FIELD_ANY, offsetof(pair_t, b), 0, 0, NULL, NULL}};
  var_type = define_type("test_structural.Var", var_fields, 1, sizeof(var_t),
                         kTVMFFISEqHashKindFreeVar);
  lam_type = define_type("test_structural.Lam", lam_fields, 2, sizeof(lam_t),
                         kTVMFFISEqHashKindTreeNode);
  pair_type = define_type("test_structural.Pair", pair_fields, 2, sizeof(pair_t),
                          kTVMFFISEqHashKindTreeNode);
}

static TVMFFIObject* new_var(const char* name) {
  TVMFFIObject* v = NULL;
  CHECK_OK(tether_object_new_reflected(var_type, (TVMFFIObjectHandle*)&v));
  CHECK_OK(tether_any_str(name, strlen(name), &((var_t*)v)->name));
  return v;
}

/* lam(params=[param], body=body): takes over nothing; body is a view. */
static TVMFFIObject* new_lam(TVMFFIObject* param, TVMFFIAny body) {
  TVMFFIObject* l = NULL;
  TVMFFIAny p = tether_any_object(param);
  CHECK_OK(tether_object_new_reflected(lam_type, (TVMFFIObjectHandle*)&l));
  CHECK_OK(tether_array_new(&p, 1, (TVMFFIObjectHandle*)&((lam_t*)l)->params));
  tether_any_copy(&body, &((lam_t*)l)->body);
  return l;
}

static TVMFFIObject* new_pair(TVMFFIAny a, TVMFFIAny b) {
  TVMFFIObject* p = NULL;
  CHECK_OK(tether_object_new_reflected(pair_type, (TVMFFIObjectHandle*)&p));
  tether_any_copy(&a, &((pair_t*)p)->a);
  tether_any_copy(&b, &((pair_t*)p)->b);
  return p;
}

static bool seq_equal(TVMFFIAny a, TVMFFIAny b, bool map_free_vars) {
  bool eq = false;
  CHECK_OK(tether_structural_equal(&a, &b, map_free_vars, false, &eq));
  return eq;
}

static uint64_t shash(TVMFFIAny a, bool map_free_vars) {
  uint64_t h = 0;
  CHECK_OK(tether_structural_hash(&a, map_free_vars, false, &h));
  return h;
}

/* [[...[leaf]...]] nested `depth` deep. */
static TVMFFIObject* make_chain(int depth, int64_t leaf) {
  TVMFFIAny v = tether_any_int(leaf);
  TVMFFIObject* arr = NULL;
  CHECK_OK(tether_array_new(&v, 1, (TVMFFIObjectHandle*)&arr));
  for (int i = 1; i < depth; ++i) {
    TVMFFIObject* outer = NULL;
    v = tether_any_object(arr);
    CHECK_OK(tether_array_new(&v, 1, (TVMFFIObjectHandle*)&outer));
    TVMFFIObjectDecRef(arr);
    arr = outer;
  }
  return arr;
}

static void test_pods_and_strings(void) {
  CHECK(seq_equal(tether_any_int(3), tether_any_int(3), false));
  CHECK(!seq_equal(tether_any_int(3), tether_any_int(4), false));
  CHECK(!seq_equal(tether_any_int(1), tether_any_bool(true), false));
  CHECK(seq_equal(tether_any_float(NAN), tether_any_float(-NAN), false));
  CHECK_EQ_INT(shash(tether_any_float(NAN), false), shash(tether_any_float(-NAN), false));
  /* heap strings compare by content, and equal their RawStr view */
  const char* text = "a string longer than seven bytes";
  TVMFFIAny s1, s2;
  CHECK_OK(tether_any_str(text, strlen(text), &s1));
  CHECK_OK(tether_any_str(text, strlen(text), &s2));
  CHECK(s1.v_obj != s2.v_obj);
  CHECK(seq_equal(s1, s2, false));
  CHECK(seq_equal(s1, tether_any_raw_str(text), false));
  CHECK_EQ_INT(shash(s1, false), shash(s2, false));
  CHECK(!seq_equal(s1, tether_any_raw_str("another"), false));
  tether_any_release(&s1);
  tether_any_release(&s2);
}

static void test_containers(void) {
  TVMFFIAny inner[2] = {tether_any_int(2), tether_any_raw_str("x")};
  TVMFFIObject *i1 = NULL, *i2 = NULL, *a1 = NULL, *a2 = NULL, *m1 = NULL, *m2 = NULL;
  CHECK_OK(tether_array_new(inner, 2, (TVMFFIObjectHandle*)&i1));
  CHECK_OK(tether_list_new(inner, 2, (TVMFFIObjectHandle*)&i2));
  TVMFFIAny outer1[2] = {tether_any_int(1), tether_any_object(i1)};
  TVMFFIAny outer2[2] = {tether_any_int(1), tether_any_object(i1)};
  CHECK_OK(tether_array_new(outer1, 2, (TVMFFIObjectHandle*)&a1));
  CHECK_OK(tether_array_new(outer2, 1, (TVMFFIObjectHandle*)&a2));
  CHECK(!seq_equal(tether_any_object(a1), tether_any_object(a2), false));
  TVMFFIObjectDecRef(a2);
  CHECK_OK(tether_array_new(outer2, 2, (TVMFFIObjectHandle*)&a2));
  CHECK(seq_equal(tether_any_object(a1), tether_any_object(a2), false));
  CHECK_EQ_INT(shash(tether_any_object(a1), false), shash(tether_any_object(a2), false));
  /* an Array never equals a List with the same items */
  CHECK(!seq_equal(tether_any_object(i1), tether_any_object(i2), false));
  /* maps: equal whatever the insertion order, with the same hash */
  TVMFFIAny kv1[4] = {tether_any_raw_str("a"), tether_any_int(1), tether_any_raw_str("b"),
                      tether_any_object(i1)};
  TVMFFIAny kv2[4] = {tether_any_raw_str("b"), tether_any_object(i1), tether_any_raw_str("a"),
                      tether_any_int(1)};
  CHECK_OK(tether_map_new(kv1, 2, (TVMFFIObjectHandle*)&m1));
  CHECK_OK(tether_map_new(kv2, 2, (TVMFFIObjectHandle*)&m2));
  CHECK(seq_equal(tether_any_object(m1), tether_any_object(m2), false));
  CHECK_EQ_INT(shash(tether_any_object(m1), false), shash(tether_any_object(m2), false));
  kv2[3] = tether_any_int(9);
  TVMFFIObjectDecRef(m2);
  CHECK_OK(tether_map_new(kv2, 2, (TVMFFIObjectHandle*)&m2));
  CHECK(!seq_equal(tether_any_object(m1), tether_any_object(m2), false));
  CHECK(shash(tether_any_object(m1), false) != shash(tether_any_object(m2), false));
  TVMFFIObjectDecRef(i1);
  TVMFFIObjectDecRef(i2);
  TVMFFIObjectDecRef(a1);
  TVMFFIObjectDecRef(a2);
  TVMFFIObjectDecRef(m1);
  TVMFFIObjectDecRef(m2);
}

static void test_free_vars(void) {
  TVMFFIObject* x = new_var("x");
  TVMFFIObject* y = new_var("y");
  /* lam x. x  ==  lam y. y: the params are a definition region */
  TVMFFIObject* lx = new_lam(x, tether_any_object(x));
  TVMFFIObject* ly = new_lam(y, tether_any_object(y));
  TVMFFIObject* lyx = new_lam(y, tether_any_object(x));
  CHECK(seq_equal(tether_any_object(lx), tether_any_object(ly), false));
  CHECK_EQ_INT(shash(tether_any_object(lx), false), shash(tether_any_object(ly), false));
  CHECK(!seq_equal(tether_any_object(lx), tether_any_object(lyx), false));
  /* free occurrences: only identical vars match, unless mapped */
  CHECK(seq_equal(tether_any_object(x), tether_any_object(x), false));
  CHECK(!seq_equal(tether_any_object(x), tether_any_object(y), false));
  CHECK(seq_equal(tether_any_object(x), tether_any_object(y), true));
  CHECK(shash(tether_any_object(x), false) != shash(tether_any_object(y), false));
  CHECK_EQ_INT(shash(tether_any_object(x), true), shash(tether_any_object(y), true));
  /* the mapping is one to one: (x, x) vs (x, y) cannot map x to both */
  TVMFFIObject* pxx = new_pair(tether_any_object(x), tether_any_object(x));
  TVMFFIObject* pxy = new_pair(tether_any_object(x), tether_any_object(y));
  CHECK(!seq_equal(tether_any_object(pxx), tether_any_object(pxy), true));
  TVMFFIObject* objs[] = {x, y, lx, ly, lyx, pxx, pxy};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) TVMFFIObjectDecRef(objs[i]);
}

/* The repr of element i of the mismatch pair `pair`. */
static void check_path(TVMFFIAny pair, int64_t i, const char* expected) {
  TVMFFIAny text = tether_any_none();
  TVMFFIByteArray s;
  CHECK_EQ_INT(pair.type_index, kTVMFFIArray);
  if (pair.type_index != kTVMFFIArray) return;
  CHECK_OK(tether_repr(tether_array_at(pair.v_obj, i), &text));
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, expected);
  tether_any_release(&text);
}

static void test_first_mismatch(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny i1[2] = {tether_any_int(2), tether_any_int(3)};
  TVMFFIAny i2[2] = {tether_any_int(2), tether_any_int(4)};
  TVMFFIObject *a = NULL, *b = NULL, *la = NULL, *lb = NULL;
  CHECK_OK(tether_array_new(i1, 2, (TVMFFIObjectHandle*)&a));
  CHECK_OK(tether_array_new(i2, 2, (TVMFFIObjectHandle*)&b));
  TVMFFIObject* pa = new_pair(tether_any_int(1), tether_any_object(a));
  TVMFFIObject* pb = new_pair(tether_any_int(1), tether_any_object(b));
  TVMFFIAny args[2] = {tether_any_object(pa), tether_any_object(pb)};
  CHECK_OK(call_global("ffi.GetFirstStructuralMismatch", args, 2, &out));
  check_path(out, 0, "<root>.b[1]");
  check_path(out, 1, "<root>.b[1]");
  tether_any_release(&out);
  /* lengths differ: the longer side names the element the other one lacks */
  CHECK_OK(tether_array_new(i1, 1, (TVMFFIObjectHandle*)&la));
  CHECK_OK(tether_array_new(i1, 2, (TVMFFIObjectHandle*)&lb));
  args[0] = tether_any_object(la);
  args[1] = tether_any_object(lb);
  CHECK_OK(call_global("ffi.GetFirstStructuralMismatch", args, 2, &out));
  check_path(out, 0, "<root>[<missing:1>]");
  check_path(out, 1, "<root>[1]");
  tether_any_release(&out);
  /* equal values: None */
  args[1] = tether_any_object(la);
  CHECK_OK(call_global("ffi.GetFirstStructuralMismatch", args, 2, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  TVMFFIObject* objs[] = {a, b, la, lb, pa, pb};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) TVMFFIObjectDecRef(objs[i]);
}

static void test_deep_data(void) {
  enum { kDepth = 100000 };
  TVMFFIObject* a = make_chain(kDepth, 7);
  TVMFFIObject* b = make_chain(kDepth, 7);
  TVMFFIObject* c = make_chain(kDepth, 8);
  CHECK(seq_equal(tether_any_object(a), tether_any_object(b), false));
  CHECK(!seq_equal(tether_any_object(a), tether_any_object(c), false));
  CHECK_EQ_INT(shash(tether_any_object(a), false), shash(tether_any_object(b), false));
  CHECK(shash(tether_any_object(a), false) != shash(tether_any_object(c), false));
  TVMFFIAny out = tether_any_none();
  TVMFFIAny va = tether_any_object(a), vc = tether_any_object(c);
  CHECK_OK(tether_structural_first_mismatch(&va, &vc, false, false, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIArray);
  if (out.type_index == kTVMFFIArray) {
    const TVMFFIAny* path = tether_array_at(out.v_obj, 0);
    const TVMFFIFieldInfo* depth = tether_type_find_field(path->v_obj->type_index, "depth", 5);
    TVMFFIAny d = tether_any_none();
    CHECK(depth != NULL);
    if (depth != NULL) CHECK_OK(tether_field_get(path->v_obj, depth, &d));
    CHECK_EQ_INT(d.v_int64, kDepth);
  }
  /* the path is a chain as deep as the data; release it from the outside in */
  if (out.type_index == kTVMFFIArray) {
    TVMFFIObject* paths[2];
    for (int i = 0; i < 2; ++i) {
      paths[i] = tether_array_at(out.v_obj, i)->v_obj;
      TVMFFIObjectIncRef(paths[i]);
    }
    tether_any_release(&out);
    for (int i = 0; i < 2; ++i) {
      TVMFFIObject* p = paths[i];
      while (p != NULL) {
        TVMFFIObject* parent = *(TVMFFIObject**)((char*)p + sizeof(TVMFFIObject));
        if (parent != NULL) TVMFFIObjectIncRef(parent);
        TVMFFIObjectDecRef(p);
        p = parent;
      }
    }
  }
  release_chain(a);
  release_chain(b);
  release_chain(c);
}

static void test_structural_key(void) {
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_raw_str("k")};
  TVMFFIObject *a1 = NULL, *a2 = NULL, *map = NULL;
  CHECK_OK(tether_array_new(items, 2, (TVMFFIObjectHandle*)&a1));
  CHECK_OK(tether_array_new(items, 2, (TVMFFIObjectHandle*)&a2));
  TVMFFIAny k1 = tether_any_none(), k2 = tether_any_none(), eq = tether_any_none();
  TVMFFIAny arg = tether_any_object(a1);
  CHECK_OK(call_global("ffi.StructuralKey", &arg, 1, &k1));
  arg = tether_any_object(a2);
  CHECK_OK(call_global("ffi.StructuralKey", &arg, 1, &k2));
  CHECK(k1.v_obj != k2.v_obj);
  /* Map keys compare structurally through `__any_hash__` / `__any_equal__` */
  CHECK(tether_any_equal(&k1, &k2));
  CHECK_EQ_INT(tether_any_hash(&k1), tether_any_hash(&k2));
  TVMFFIAny kv[2] = {k1, tether_any_raw_str("found")};
  CHECK_OK(tether_map_new(kv, 1, (TVMFFIObjectHandle*)&map));
  const TVMFFIAny* v = tether_map_find(map, &k2);
  TVMFFIByteArray s;
  CHECK(v != NULL && tether_any_get_str(v, &s));
  if (v != NULL) CHECK_BYTES(s, "found");
  TVMFFIAny pair[2] = {k1, k2};
  CHECK_OK(call_global("ffi.StructuralKeyEqual", pair, 2, &eq));
  CHECK(eq.type_index == kTVMFFIBool && eq.v_int64 == 1);
  /* its hash field is the structural hash of its key */
  const TVMFFIFieldInfo* hf = tether_type_find_field(k1.v_obj->type_index, "hash_i64", 8);
  TVMFFIAny h = tether_any_none();
  CHECK(hf != NULL);
  if (hf != NULL) CHECK_OK(tether_field_get(k1.v_obj, hf, &h));
  CHECK_EQ_INT(h.v_int64, (int64_t)shash(tether_any_object(a1), false));
  pair[1] = tether_any_int(3);
  CHECK_RAISED(call_global("ffi.StructuralKeyEqual", pair, 2, &eq), "TypeError", "ffi.StructuralKey");
  tether_any_release(&k1);
  tether_any_release(&k2);
  TVMFFIObjectDecRef(a1);
  TVMFFIObjectDecRef(a2);
  TVMFFIObjectDecRef(map);
}

static void test_bad_input(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny one = tether_any_int(1);
  bool eq;
  uint64_t h;
  CHECK_RAISED(call_global("ffi.StructuralEqual", &one, 1, &out), "TypeError", "ffi.StructuralEqual");
  TVMFFIAny three[4] = {one, one, tether_any_raw_str("x"), one};
  CHECK_RAISED(call_global("ffi.StructuralEqual", three, 3, &out), "TypeError", "ffi.StructuralEqual");
  /* a type without structural metadata cannot be hashed or compared */
  TVMFFIObjectHandle fn = tether_func_get("ffi.StructuralHash");
  TVMFFIAny f = tether_any_object(fn);
  CHECK_RAISED(call_global("ffi.StructuralHash", &f, 1, &out), "TypeError", "ffi.StructuralHash");
  TVMFFIAny ff[2] = {f, f};
  CHECK_RAISED(call_global("ffi.StructuralEqual", ff, 2, &out), "TypeError", "not supported");
  TVMFFIObjectDecRef(fn);
  CHECK_RAISED(tether_structural_equal(NULL, &one, false, false, &eq), "ValueError", "NULL");
  CHECK_RAISED(tether_structural_hash(&one, false, false, NULL), "ValueError", "NULL");
  (void)h;
}

TEST_MAIN(TEST_CASE(test_pods_and_strings), TEST_CASE(test_containers), TEST_CASE(test_free_vars),
          TEST_CASE(test_first_mismatch), TEST_CASE(test_deep_data),
          TEST_CASE(test_structural_key), TEST_CASE(test_bad_input))
