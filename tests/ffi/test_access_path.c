/*
 * test_access_path.c -- ffi.reflection.AccessPath / AccessStep: construction from C, the
 * `__ffi_repr__` text, the reflected fields and methods (_root, _attr, _to_steps,
 * _is_prefix_of, _path_equal, ...), shallow copies, and bad input.
 */
#include "extra_test.h"

static int32_t path_type(void) {
  TVMFFIByteArray key = {"ffi.reflection.AccessPath", 25};
  int32_t t = -1;
  CHECK_OK(TVMFFITypeKeyToIndex(&key, &t));
  return t;
}

/* Extends *path by one step (the old reference is released). */
static void extend(TVMFFIObjectHandle* path, tether_access_kind kind, TVMFFIAny key) {
  TVMFFIObjectHandle next = NULL;
  CHECK_OK(tether_access_path_extend(*path, kind, &key, &next));
  TVMFFIObjectDecRef(*path);
  *path = next;
}

/* <root>.config.layers[0]["name"][<missing:"weights">][<missing:3>][<missing:"bias">] */
static TVMFFIObjectHandle sample_path(void) {
  TVMFFIObjectHandle p = NULL;
  CHECK_OK(tether_access_path_root(&p));
  extend(&p, TETHER_ACCESS_ATTR, tether_any_raw_str("config"));
  extend(&p, TETHER_ACCESS_ATTR, tether_any_raw_str("layers"));
  extend(&p, TETHER_ACCESS_ARRAY_ITEM, tether_any_int(0));
  extend(&p, TETHER_ACCESS_MAP_ITEM, tether_any_raw_str("name"));
  extend(&p, TETHER_ACCESS_ATTR_MISSING, tether_any_raw_str("weights"));
  extend(&p, TETHER_ACCESS_ARRAY_ITEM_MISSING, tether_any_int(3));
  extend(&p, TETHER_ACCESS_MAP_ITEM_MISSING, tether_any_raw_str("bias"));
  return p;
}

static void test_repr(void) {
  TVMFFIObjectHandle p = sample_path(), root = NULL;
  check_repr(tether_any_object(p),
             "<root>.config.layers[0][\"name\"][<missing:\"weights\">][<missing:3>][<missing:\"bias\">]");
  CHECK_OK(tether_access_path_root(&root));
  check_repr(tether_any_object(root), "<root>");
  TVMFFIObjectDecRef(p);
  TVMFFIObjectDecRef(root);
}

static void test_fields(void) {
  TVMFFIObjectHandle p = sample_path();
  int32_t t = path_type();
  const TVMFFIFieldInfo* depth = tether_type_find_field(t, "depth", 5);
  const TVMFFIFieldInfo* step = tether_type_find_field(t, "step", 4);
  const TVMFFIFieldInfo* parent = tether_type_find_field(t, "parent", 6);
  CHECK(depth != NULL && step != NULL && parent != NULL);
  if (depth == NULL || step == NULL || parent == NULL) return;
  TVMFFIAny d = tether_any_none(), s = tether_any_none(), par = tether_any_none();
  CHECK_OK(tether_field_get(p, depth, &d));
  CHECK_EQ_INT(d.v_int64, 7);
  CHECK_OK(tether_field_get(p, step, &s));
  check_repr(s, "[<missing:\"bias\">]");
  const TVMFFIFieldInfo* kind = tether_type_find_field(s.v_obj->type_index, "kind", 4);
  TVMFFIAny k = tether_any_none();
  CHECK(kind != NULL);
  if (kind != NULL) CHECK_OK(tether_field_get(s.v_obj, kind, &k));
  CHECK_EQ_INT(k.v_int64, TETHER_ACCESS_MAP_ITEM_MISSING);
  CHECK_OK(tether_field_get(p, parent, &par));
  check_repr(par, "<root>.config.layers[0][\"name\"][<missing:\"weights\">][<missing:3>]");
  tether_any_release(&s);
  tether_any_release(&par);
  TVMFFIObjectDecRef(p);
}

/* Calls method `name` of AccessPath with `args` (self first). */
static int call_method(const char* name, TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(path_type());
  for (int32_t i = 0; info != NULL && i < info->num_methods; ++i) {
    const TVMFFIMethodInfo* m = &info->methods[i];
    if (m->name.size == strlen(name) && memcmp(m->name.data, name, m->name.size) == 0) {
      *out = tether_any_none();
      return tether_func_call(m->method.v_obj, args, n, out);
    }
  }
  return tether_raise("AttributeError", "no method %s", name);
}

static void test_methods(void) {
  TVMFFIAny root = tether_any_none(), a = tether_any_none(), ab = tether_any_none();
  TVMFFIAny out = tether_any_none();
  CHECK_OK(call_method("_root", NULL, 0, &root));
  TVMFFIAny args[2] = {root, tether_any_raw_str("a")};
  CHECK_OK(call_method("_attr", args, 2, &a));
  args[0] = a;
  args[1] = tether_any_int(2);
  CHECK_OK(call_method("_array_item", args, 2, &ab));
  check_repr(ab, "<root>.a[2]");
  args[0] = a;
  args[1] = ab;
  CHECK_OK(call_method("_is_prefix_of", args, 2, &out));
  CHECK(out.type_index == kTVMFFIBool && out.v_int64 == 1);
  args[0] = ab;
  args[1] = a;
  CHECK_OK(call_method("_is_prefix_of", args, 2, &out));
  CHECK(out.type_index == kTVMFFIBool && out.v_int64 == 0);
  /* an equal path built separately */
  TVMFFIObjectHandle other = NULL;
  CHECK_OK(tether_access_path_root(&other));
  extend(&other, TETHER_ACCESS_ATTR, tether_any_raw_str("a"));
  extend(&other, TETHER_ACCESS_ARRAY_ITEM, tether_any_int(2));
  args[1] = tether_any_object(other);
  CHECK_OK(call_method("_path_equal", args, 2, &out));
  CHECK(out.type_index == kTVMFFIBool && out.v_int64 == 1);
  CHECK_OK(call_method("_to_steps", args, 1, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIArray);
  if (out.type_index == kTVMFFIArray) {
    CHECK_EQ_INT(tether_array_size(out.v_obj), 2);
    check_repr(*tether_array_at(out.v_obj, 0), ".a");
    check_repr(*tether_array_at(out.v_obj, 1), "[2]");
  }
  tether_any_release(&out);
  /* a shallow copy is a distinct, equal path */
  TVMFFIObjectHandle copy_fn = NULL;
  TVMFFIByteArray col = {"__ffi_shallow_copy__", 20};
  const TVMFFITypeAttrColumn* c = TVMFFIGetTypeAttrColumn(&col);
  CHECK(c != NULL);
  if (c != NULL) {
    copy_fn = c->data[path_type() - c->begin_index].v_obj;
    CHECK_OK(tether_func_call(copy_fn, &ab, 1, &out));
    CHECK(out.v_obj != ab.v_obj);
    check_repr(out, "<root>.a[2]");
    tether_any_release(&out);
  }
  /* __ffi_new__ makes a zeroed path: the root */
  TVMFFIByteArray new_col = {"__ffi_new__", 11};
  const TVMFFITypeAttrColumn* nc = TVMFFIGetTypeAttrColumn(&new_col);
  CHECK(nc != NULL);
  if (nc != NULL) {
    CHECK_OK(tether_func_call(nc->data[path_type() - nc->begin_index].v_obj, NULL, 0, &out));
    check_repr(out, "<root>");
    tether_any_release(&out);
  }
  TVMFFIObjectDecRef(other);
  tether_any_release(&root);
  tether_any_release(&a);
  tether_any_release(&ab);
}

static void test_bad_input(void) {
  TVMFFIObjectHandle root = NULL, out = NULL;
  TVMFFIAny key = tether_any_int(1), res = tether_any_none();
  CHECK_OK(tether_access_path_root(&root));
  CHECK_RAISED(tether_access_path_extend(root, TETHER_ACCESS_ATTR, &key, &out), "TypeError",
               "str key");
  key = tether_any_raw_str("x");
  CHECK_RAISED(tether_access_path_extend(root, TETHER_ACCESS_ARRAY_ITEM, &key, &out), "TypeError",
               "int key");
  CHECK_RAISED(tether_access_path_extend(root, (tether_access_kind)42, &key, &out), "ValueError",
               "unknown access kind");
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(NULL, 0, &arr));
  CHECK_RAISED(tether_access_path_extend(arr, TETHER_ACCESS_ATTR, &key, &out), "TypeError",
               "AccessPath");
  TVMFFIAny args[2] = {tether_any_object(root), tether_any_object(arr)};
  CHECK_RAISED(call_method("_path_equal", args, 2, &res), "TypeError", "AccessPath._path_equal");
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(root);
}

TEST_MAIN(TEST_CASE(test_repr), TEST_CASE(test_fields), TEST_CASE(test_methods),
          TEST_CASE(test_bad_input))
