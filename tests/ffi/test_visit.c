/*
 * test_visit.c -- the structural visitor protocol: a C visitor over the container hooks
 * (`__s_visit__`), interrupts, ffi.StructuralWalk / ffi.StructuralVisit with Function
 * callbacks, the error breadcrumb trail (ffi.VisitErrorContext) and
 * ffi.VisitErrorContext.FindAccessPaths, and bad input.
 */
#include "extra_test.h"

static int32_t box_type;

__attribute__((constructor)) static void setup_types(void) {
  box_type = define_box_type("test_visit.Box");
}

static TVMFFIAny new_box(TVMFFIAny a) {
  TVMFFIObject* b = NULL;
  CHECK_OK(tether_object_new_reflected(box_type, (TVMFFIObjectHandle*)&b));
  if (b == NULL) return tether_any_none();
  tether_any_copy(&a, &((box_t*)b)->a);
  return tether_any_object(b);
}

/* [1, [2, 3], {10: 4}] */
static TVMFFIAny make_tree(void) {
  TVMFFIAny inner[2] = {tether_any_int(2), tether_any_int(3)};
  TVMFFIAny kv[2] = {tether_any_int(10), tether_any_int(4)};
  TVMFFIObject *arr = NULL, *map = NULL, *root = NULL;
  CHECK_OK(tether_array_new(inner, 2, (TVMFFIObjectHandle*)&arr));
  CHECK_OK(tether_map_new(kv, 1, (TVMFFIObjectHandle*)&map));
  TVMFFIAny items[3] = {tether_any_int(1), tether_any_object(arr), tether_any_object(map)};
  CHECK_OK(tether_array_new(items, 3, (TVMFFIObjectHandle*)&root));
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(map);
  return tether_any_object(root);
}

/* A C visitor: records the ints it meets, stops at `stop_at` with an interrupt. */
typedef struct {
  tether_visitor base;
  int64_t seen[16];
  int n;
  int64_t stop_at;
} collect_visitor;

static TVMFFIAny collect_visit(tether_visitor* v, TVMFFIAny value) {
  collect_visitor* self = (collect_visitor*)v;
  if (value.type_index == kTVMFFIInt) {
    if (self->n < 16) self->seen[self->n++] = value.v_int64;
    if (value.v_int64 == self->stop_at) {
      TVMFFIAny payload = tether_any_raw_str("stop"), out = tether_any_none();
      if (call_global("ffi.VisitInterrupt", &payload, 1, &out) != 0) TVMFFIErrorMoveFromRaised(NULL);
      return out;
    }
    return tether_any_none();
  }
  return tether_visitor_default_visit(v, value);
}

static const tether_visitor_vtable collect_vtable = {collect_visit};

/* A visitor living on the stack: a static object (no deleter) of type StructuralVisitor. */
static void init_visitor(collect_visitor* v, int64_t stop_at) {
  TVMFFIByteArray key = {"ffi.StructuralVisitor", 21};
  memset(v, 0, sizeof(*v));
  v->base.header.combined_ref_count = 1;
  CHECK_OK(TVMFFITypeKeyToIndex(&key, &v->base.header.type_index));
  v->base.vtable = &collect_vtable;
  v->stop_at = stop_at;
}

static void test_visit_containers(void) {
  TVMFFIAny tree = make_tree();
  collect_visitor v;
  init_visitor(&v, -1);
  TVMFFIAny r = v.base.vtable->visit(&v.base, tree);
  CHECK_EQ_INT(r.type_index, kTVMFFINone);
  /* elements in order; map values but not keys */
  CHECK_EQ_INT(v.n, 4);
  for (int i = 0; i < 4 && i < v.n; ++i) CHECK_EQ_INT(v.seen[i], i + 1);
  tether_any_release(&tree);
}

static void test_interrupt(void) {
  TVMFFIAny tree = make_tree();
  collect_visitor v;
  init_visitor(&v, 3);
  TVMFFIAny r = v.base.vtable->visit(&v.base, tree);
  CHECK_EQ_INT(r.type_index, kTVMFFIVisitInterrupt);
  CHECK_EQ_INT(v.n, 3); /* 4 is never reached */
  if (r.type_index == kTVMFFIVisitInterrupt) {
    const TVMFFIFieldInfo* f = tether_type_find_field(kTVMFFIVisitInterrupt, "value", 5);
    TVMFFIAny payload = tether_any_none();
    TVMFFIByteArray s;
    CHECK(f != NULL);
    if (f != NULL) CHECK_OK(tether_field_get(r.v_obj, f, &payload));
    CHECK(tether_any_get_str(&payload, &s));
    CHECK_BYTES(s, "stop");
    tether_any_release(&payload);
  }
  tether_any_release(&r);
  tether_any_release(&tree);
}

static int64_t walk_calls;

static int count_ints(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)n;
  walk_calls += args[0].v_int64;
  *result = tether_any_none();
  return 0;
}

static int skip_node(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)n;
  *result = tether_any_int(1); /* WalkResult: skip the children */
  return 0;
}

static int fail_on_three(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)n;
  (void)result;
  if (args[0].v_int64 == 3) return tether_raise("ValueError", "three is not allowed");
  return 0;
}

/* An Array of (type_index, Function) pairs. */
static TVMFFIAny callbacks(int32_t type_index, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f = NULL, pair = NULL, table = NULL;
  CHECK_OK(TVMFFIFunctionCreate(NULL, fn, NULL, &f));
  TVMFFIAny entry[2] = {tether_any_int(type_index), tether_any_object(f)};
  CHECK_OK(tether_array_new(entry, 2, &pair));
  TVMFFIAny p = tether_any_object(pair);
  CHECK_OK(tether_array_new(&p, 1, &table));
  TVMFFIObjectDecRef(f);
  TVMFFIObjectDecRef(pair);
  return tether_any_object(table);
}

static TVMFFIAny empty_array(void) {
  TVMFFIObjectHandle a = NULL;
  CHECK_OK(tether_array_new(NULL, 0, &a));
  return tether_any_object(a);
}

static void test_walk_global(void) {
  TVMFFIAny tree = make_tree(), none = empty_array(), out = tether_any_none();
  TVMFFIAny ints = callbacks(kTVMFFIInt, count_ints);
  for (int order = 0; order < 2; ++order) {
    walk_calls = 0;
    TVMFFIAny args[4] = {tree, ints, none, tether_any_int(order)};
    CHECK_OK(call_global("ffi.StructuralWalk", args, 4, &out));
    CHECK_EQ_INT(out.type_index, kTVMFFINone);
    CHECK_EQ_INT(walk_calls, 1 + 2 + 3 + 4);
  }
  /* a pre-order callback that skips the root's children */
  TVMFFIAny skip = callbacks(kTVMFFIArray, skip_node);
  walk_calls = 0;
  TVMFFIAny args[4] = {tree, skip, ints, tether_any_int(0)};
  CHECK_OK(call_global("ffi.StructuralWalk", args, 4, &out));
  CHECK_EQ_INT(walk_calls, 0);
  args[3] = tether_any_int(5);
  CHECK_RAISED(call_global("ffi.StructuralWalk", args, 4, &out), "ValueError", "ffi.StructuralWalk");
  args[1] = tether_any_int(1);
  CHECK_RAISED(call_global("ffi.StructuralWalk", args, 4, &out), "TypeError", "ffi.StructuralWalk");
  tether_any_release(&skip);
  tether_any_release(&ints);
  tether_any_release(&none);
  tether_any_release(&tree);
}

static void test_error_trail(void) {
  /* Box(a=Box(a=3)): the callback fails on 3; the trail holds both boxes (the objects the
   * error passed through) and leads back from the root along field `a` */
  TVMFFIAny leaf_box = new_box(tether_any_int(3));
  TVMFFIAny root = new_box(leaf_box);
  TVMFFIAny cbs = callbacks(kTVMFFIInt, fail_on_three), none = empty_array();
  TVMFFIAny args[4] = {root, cbs, none, tether_any_int(0)}, out = tether_any_none();
  CHECK_EQ_INT(call_global("ffi.StructuralWalk", args, 4, &out), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  if (err != NULL) {
    /* the user's error passes through untouched, with the trail as its extra context */
    CHECK_BYTES(tether_error_kind(err), "ValueError");
    CHECK_BYTES(tether_error_message(err), "three is not allowed");
    TVMFFIObject* ctx = ((TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject)))->extra_context;
    CHECK(ctx != NULL);
    if (ctx != NULL) {
      CHECK_BYTES(TVMFFIGetTypeInfo(ctx->type_index)->type_key, "ffi.VisitErrorContext");
      TVMFFIAny find_args[2] = {root, tether_any_object(ctx)};
      CHECK_OK(call_global("ffi.VisitErrorContext.FindAccessPaths", find_args, 2, &out));
      CHECK_EQ_INT(tether_array_size(out.v_obj), 1);
      TVMFFIAny text = tether_any_none();
      TVMFFIByteArray s;
      if (tether_array_size(out.v_obj) == 1) {
        CHECK_OK(tether_repr(tether_array_at(out.v_obj, 0), &text));
        CHECK(tether_any_get_str(&text, &s));
        CHECK_BYTES(s, "<root>.a");
      }
      tether_any_release(&text);
      tether_any_release(&out);
    }
    TVMFFIObjectDecRef(err);
  }
  tether_any_release(&leaf_box);
  tether_any_release(&root);
  tether_any_release(&cbs);
  tether_any_release(&none);
}

static void test_bad_input(void) {
  TVMFFIAny out = tether_any_none(), one = tether_any_int(1);
  TVMFFIAny args[2] = {one, one};
  CHECK_RAISED(call_global("ffi.StructuralVisit", args, 2, &out), "TypeError", "ffi.StructuralVisit");
  CHECK_RAISED(call_global("ffi.StructuralVisitorVisit", args, 2, &out), "TypeError",
               "ffi.StructuralVisitorVisit");
  CHECK_RAISED(call_global("ffi.VisitInterrupt", NULL, 0, &out), "TypeError", "ffi.VisitInterrupt");
  CHECK_RAISED(call_global("ffi.VisitErrorContext.FindAccessPaths", args, 2, &out), "TypeError",
               "ffi.VisitErrorContext.FindAccessPaths");
}

TEST_MAIN(TEST_CASE(test_visit_containers), TEST_CASE(test_interrupt),
          TEST_CASE(test_walk_global), TEST_CASE(test_error_trail), TEST_CASE(test_bad_input))
