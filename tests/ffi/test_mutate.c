/*
 * test_mutate.c -- the structural mutator protocol: the container hooks
 * (`__s_mutate__` copy-on-write, `__s_maybe_inplace_mutate__` in place), a C mutator on
 * tether_mutator_default_mutate, ffi.StructuralMap (pre/post order) and
 * ffi.StructuralMutate with Function callbacks, reflected objects, errors.
 */
#include "extra_test.h"

static int32_t box_type;

__attribute__((constructor)) static void setup_types(void) {
  box_type = define_box_type("test_mutate.Box");
}

static int64_t int_at(TVMFFIObject* arr, int64_t i) {
  const TVMFFIAny* v = tether_array_at(arr, i);
  return v != NULL && v->type_index == kTVMFFIInt ? v->v_int64 : -999;
}

/* A C mutator: ints +1, everything else by the default mutation. */
typedef struct {
  tether_mutator base;
  int calls;
} inc_mutator;

static TVMFFIAny inc_mutate(tether_mutator* m, TVMFFIAny v, bool inplace) {
  ((inc_mutator*)m)->calls++;
  if (v.type_index == kTVMFFIInt) return tether_any_int(v.v_int64 + 1);
  return tether_mutator_default_mutate(m, v, inplace);
}
static TVMFFIAny inc_cow(tether_mutator* m, TVMFFIAny v) { return inc_mutate(m, v, false); }
static TVMFFIAny inc_inplace(tether_mutator* m, TVMFFIAny v) { return inc_mutate(m, v, true); }
static TVMFFIAny no_remap_get(tether_mutator* m, TVMFFIAny var) {
  (void)m;
  (void)var;
  return tether_any_none();
}
static TVMFFIAny no_remap_set(tether_mutator* m, TVMFFIAny var, TVMFFIAny mapped) {
  (void)m;
  (void)var;
  (void)mapped;
  return tether_any_none();
}
static const tether_mutator_vtable inc_vtable = {inc_cow, inc_inplace, no_remap_get, no_remap_set};

static void init_mutator(inc_mutator* m) {
  TVMFFIByteArray key = {"ffi.StructuralMutator", 21};
  memset(m, 0, sizeof(*m));
  m->base.header.combined_ref_count = 1; /* a static object (no deleter) on the stack */
  CHECK_OK(TVMFFITypeKeyToIndex(&key, &m->base.header.type_index));
  m->base.vtable = &inc_vtable;
}

static void test_copy_on_write(void) {
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_raw_str("a heap-allocated string")};
  TVMFFIObject *arr = NULL, *holder = NULL;
  CHECK_OK(tether_array_new(items, 2, (TVMFFIObjectHandle*)&arr));
  TVMFFIAny av = tether_any_object(arr);
  CHECK_OK(tether_array_new(&av, 1, (TVMFFIObjectHandle*)&holder)); /* arr is shared now */
  inc_mutator m;
  init_mutator(&m);
  TVMFFIAny r = tether_mutator_mutate(&m.base, av, true);
  CHECK_EQ_INT(r.type_index, kTVMFFIArray);
  if (r.type_index == kTVMFFIArray) {
    CHECK(r.v_obj != arr);
    CHECK_EQ_INT(int_at(r.v_obj, 0), 2);
    /* an unchanged element is shared, not copied */
    CHECK_EQ_INT(tether_array_at(arr, 1)->type_index, kTVMFFIStr);
    CHECK(tether_array_at(r.v_obj, 1)->v_obj == tether_array_at(arr, 1)->v_obj);
  }
  CHECK_EQ_INT(int_at(arr, 0), 1);
  tether_any_release(&r);
  TVMFFIObjectDecRef(holder);
  TVMFFIObjectDecRef(arr);
}

static void test_in_place(void) {
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_int(5)};
  TVMFFIObject *arr = NULL, *list = NULL;
  CHECK_OK(tether_array_new(items, 2, (TVMFFIObjectHandle*)&arr)); /* uniquely owned */
  inc_mutator m;
  init_mutator(&m);
  TVMFFIAny r = tether_mutator_mutate(&m.base, tether_any_object(arr), true);
  CHECK_EQ_INT(r.type_index, kTVMFFIUnchanged);
  CHECK_EQ_INT(int_at(arr, 0), 2);
  CHECK_EQ_INT(int_at(arr, 1), 6);
  /* a Dict's values (not its keys) are mutated in place */
  TVMFFIAny kv[2] = {tether_any_int(7), tether_any_int(8)};
  CHECK_OK(tether_dict_new(kv, 1, (TVMFFIObjectHandle*)&list));
  r = tether_mutator_mutate(&m.base, tether_any_object(list), true);
  CHECK_EQ_INT(r.type_index, kTVMFFIUnchanged);
  TVMFFIAny k7 = tether_any_int(7);
  const TVMFFIAny* v = tether_map_find(list, &k7);
  CHECK(v != NULL && v->v_int64 == 9);
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(list);
}

static void test_reflected_object(void) {
  TVMFFIObject* box = NULL;
  CHECK_OK(tether_object_new_reflected(box_type, (TVMFFIObjectHandle*)&box));
  ((box_t*)box)->a = tether_any_int(41);
  inc_mutator m;
  init_mutator(&m);
  TVMFFIAny r = tether_mutator_mutate(&m.base, tether_any_object(box), false);
  CHECK_EQ_INT(r.type_index, box_type);
  if (r.type_index == box_type) {
    CHECK(r.v_obj != box);
    CHECK_EQ_INT(((box_t*)r.v_obj)->a.v_int64, 42);
  }
  CHECK_EQ_INT(((box_t*)box)->a.v_int64, 41);
  tether_any_release(&r);
  TVMFFIObjectDecRef(box);
}

static int inc_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)n;
  *result = tether_any_int(args[0].v_int64 + 1);
  return 0;
}

static int fail_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)n;
  (void)result;
  return tether_raise("ValueError", "callback failed");
}

/* An Array of one (type_index, Function[, flag]) entry. */
static TVMFFIAny table_of(int32_t type_index, TVMFFISafeCallType fn, int flag) {
  TVMFFIObjectHandle f = NULL, entry = NULL, table = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, fn, NULL, &f));
  TVMFFIAny e[3] = {tether_any_int(type_index), tether_any_object(f), tether_any_bool(flag == 1)};
  CHECK_OK(tether_array_new(e, flag < 0 ? 2 : 3, &entry));
  TVMFFIAny ev = tether_any_object(entry);
  CHECK_OK(tether_array_new(&ev, 1, &table));
  TVMFFIObjectDecRef(f);
  TVMFFIObjectDecRef(entry);
  return tether_any_object(table);
}

static void test_structural_map_global(void) {
  TVMFFIAny inner[2] = {tether_any_int(2), tether_any_int(3)};
  TVMFFIObject *in = NULL, *root = NULL, *none = NULL;
  CHECK_OK(tether_array_new(inner, 2, (TVMFFIObjectHandle*)&in));
  TVMFFIAny items[2] = {tether_any_int(1), tether_any_object(in)};
  CHECK_OK(tether_array_new(items, 2, (TVMFFIObjectHandle*)&root));
  CHECK_OK(tether_array_new(NULL, 0, (TVMFFIObjectHandle*)&none));
  TVMFFIAny cbs = table_of(kTVMFFIInt, inc_callback, -1), out = tether_any_none();
  for (int order = 0; order < 2; ++order) {
    TVMFFIAny args[4] = {tether_any_object(root), cbs, tether_any_object(none),
                         tether_any_int(order)};
    CHECK_OK(call_global("ffi.StructuralMap", args, 4, &out));
    CHECK_EQ_INT(out.type_index, kTVMFFIArray);
    if (out.type_index == kTVMFFIArray) {
      CHECK(out.v_obj != root);
      CHECK_EQ_INT(int_at(out.v_obj, 0), 2);
      const TVMFFIAny* sub = tether_array_at(out.v_obj, 1);
      CHECK(sub != NULL && int_at(sub->v_obj, 0) == 3 && int_at(sub->v_obj, 1) == 4);
    }
    tether_any_release(&out);
  }
  CHECK_EQ_INT(int_at(root, 0), 1); /* the caller's value is never changed in place */
  CHECK_EQ_INT(int_at(in, 1), 3);
  /* StructuralMutate: a callback entry flagged true also receives the in-place mode */
  TVMFFIAny mut = table_of(kTVMFFIInt, inc_callback, 1);
  TVMFFIAny margs[2] = {tether_any_object(root), mut};
  CHECK_OK(call_global("ffi.StructuralMutate", margs, 2, &out));
  CHECK(out.type_index == kTVMFFIArray && int_at(out.v_obj, 0) == 2);
  tether_any_release(&out);
  /* a failing callback's error comes out as raised, untouched */
  TVMFFIAny bad = table_of(kTVMFFIInt, fail_callback, -1);
  TVMFFIAny bargs[4] = {tether_any_object(root), bad, tether_any_object(none), tether_any_int(1)};
  CHECK_RAISED(call_global("ffi.StructuralMap", bargs, 4, &out), "ValueError", "callback failed");
  bargs[3] = tether_any_int(2);
  CHECK_RAISED(call_global("ffi.StructuralMap", bargs, 4, &out), "ValueError", "ffi.StructuralMap");
  bargs[1] = tether_any_int(0);
  CHECK_RAISED(call_global("ffi.StructuralMap", bargs, 4, &out), "TypeError", "ffi.StructuralMap");
  tether_any_release(&bad);
  tether_any_release(&mut);
  tether_any_release(&cbs);
  TVMFFIObjectDecRef(in);
  TVMFFIObjectDecRef(root);
  TVMFFIObjectDecRef(none);
}

static void test_bad_input(void) {
  TVMFFIAny out = tether_any_none(), args[2] = {tether_any_int(1), tether_any_int(2)};
  CHECK_RAISED(call_global("ffi.StructuralMutate", args, 1, &out), "TypeError", "ffi.StructuralMutate");
  CHECK_RAISED(call_global("ffi.StructuralMutatorMutate", args, 2, &out), "TypeError",
               "ffi.StructuralMutatorMutate");
  /* an object without reflection metadata cannot be mutated field by field */
  TVMFFIObjectHandle fn = tether_func_get("ffi.StructuralMutate");
  TVMFFIObject* none = NULL;
  CHECK_OK(tether_array_new(NULL, 0, (TVMFFIObjectHandle*)&none));
  TVMFFIAny fargs[2] = {tether_any_object(fn), tether_any_object(none)};
  CHECK_RAISED(call_global("ffi.StructuralMutate", fargs, 2, &out), "TypeError", "__ffi_shallow_copy__");
  TVMFFIObjectDecRef(fn);
  TVMFFIObjectDecRef(none);
}

TEST_MAIN(TEST_CASE(test_copy_on_write), TEST_CASE(test_in_place), TEST_CASE(test_reflected_object),
          TEST_CASE(test_structural_map_global), TEST_CASE(test_bad_input))
