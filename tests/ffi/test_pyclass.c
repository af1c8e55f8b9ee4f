/*
 * test_pyclass.c -- binding-defined object layouts (tvm-ffi's py_class protocol): a type
 * whose fields use the getters of ffi.MakeFieldGetter and the setters of
 * ffi.MakeFieldSetter, completed by ffi._PyClassRegisterTypeAttrColumns (__ffi_new__,
 * __ffi_shallow_copy__, __ffi_init__), then created, written, copied, printed and freed.
 */
#include "extra_test.h"

/* Layout the binding chose: header, int64 n (offset 24), Any tag (32), object child (48). */
enum { kOffN = 24, kOffTag = 32, kOffChild = 48, kSize = 56 };

/* The binding's converter: accepts anything as is (an owning copy). */
static int identity_convert(void* converter, const TVMFFIAny* in, TVMFFIAny* out) {
  (void)converter;
  return TVMFFIAnyViewToOwnedAny(in, out);
}

static int32_t node_type;

static void add_field(const char* name, int64_t offset, int64_t size, int32_t ti) {
  TVMFFIAny tiv = tether_any_int(ti), getter = tether_any_none(), setter = tether_any_none();
  CHECK_OK(call_global("ffi.MakeFieldGetter", &tiv, 1, &getter));
  TVMFFIAny sargs[3] = {tiv, tether_any_int(0), tether_any_int((int64_t)(intptr_t)identity_convert)};
  CHECK_OK(call_global("ffi.MakeFieldSetter", sargs, 3, &setter));
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = (TVMFFIByteArray){name, strlen(name)};
  info.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  info.size = size;
  info.alignment = 8;
  info.offset = offset;
  info.getter = (TVMFFIFieldGetter)(intptr_t)getter.v_int64;
  info.setter = setter.v_obj;
  info.field_static_type_index = ti;
  CHECK_OK(TVMFFITypeRegisterField(node_type, &info));
  tether_any_release(&setter);
}

__attribute__((constructor)) static void setup_types(void) {
  TVMFFIByteArray key = {"test_pyclass.Node", 17};
  node_type = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 0, kTVMFFIObject);
  add_field("n", kOffN, 8, kTVMFFIInt);
  add_field("tag", kOffTag, 16, kTVMFFIAny);
  add_field("child", kOffChild, 8, kTVMFFIObject);
  TVMFFITypeMetadata md = {{"", 0}, NULL, kSize, kTVMFFISEqHashKindTreeNode};
  CHECK_OK(TVMFFITypeRegisterMetadata(node_type, &md));
  TVMFFIAny args[2] = {tether_any_int(node_type), tether_any_int(kSize)}, out;
  CHECK_OK(call_global("ffi._PyClassRegisterTypeAttrColumns", args, 2, &out));
}

static TVMFFIAny type_attr(const char* name) {
  TVMFFIByteArray n = {name, strlen(name)};
  const TVMFFITypeAttrColumn* c = TVMFFIGetTypeAttrColumn(&n);
  if (c == NULL || node_type - c->begin_index >= c->size) return tether_any_none();
  return c->data[node_type - c->begin_index];
}

static void set_field(TVMFFIObjectHandle obj, const char* name, TVMFFIAny v) {
  const TVMFFIFieldInfo* f = tether_type_find_field(node_type, name, strlen(name));
  CHECK(f != NULL);
  if (f != NULL) CHECK_OK(tether_field_set(obj, f, &v));
}

static void test_new_set_copy(void) {
  TVMFFIAny new_fn = type_attr("__ffi_new__"), copy_fn = type_attr("__ffi_shallow_copy__");
  CHECK_EQ_INT(new_fn.type_index, kTVMFFIFunction);
  CHECK_EQ_INT(copy_fn.type_index, kTVMFFIFunction);
  CHECK_EQ_INT(type_attr("__ffi_init__").type_index, kTVMFFIFunction);
  TVMFFIAny a = tether_any_none(), b = tether_any_none(), copy = tether_any_none();
  CHECK_OK(tether_func_call(new_fn.v_obj, NULL, 0, &a));
  CHECK_OK(tether_func_call(new_fn.v_obj, NULL, 0, &b));
  CHECK_EQ_INT(a.type_index, node_type);
  check_repr(a, "test_pyclass.Node(n=0, tag=None, child=None)");
  set_field(a.v_obj, "n", tether_any_int(7));
  set_field(a.v_obj, "tag", tether_any_raw_str("a string held by the Any field"));
  set_field(a.v_obj, "child", b);
  check_repr(a, "test_pyclass.Node(n=7, tag=\"a string held by the Any field\", "
                "child=test_pyclass.Node(n=0, tag=None, child=None))");
  /* a shallow copy shares the child; a deep copy copies it */
  CHECK_OK(tether_func_call(copy_fn.v_obj, &a, 1, &copy));
  CHECK(copy.v_obj != a.v_obj);
  CHECK(*(TVMFFIObject**)((char*)copy.v_obj + kOffChild) == b.v_obj);
  tether_any_release(&copy);
  CHECK_OK(tether_deep_copy(&a, &copy));
  CHECK(*(TVMFFIObject**)((char*)copy.v_obj + kOffChild) != b.v_obj);
  bool eq = false;
  CHECK_OK(tether_recursive_eq(&a, &copy, &eq));
  CHECK(eq);
  tether_any_release(&copy);
  tether_any_release(&a);
  tether_any_release(&b);
}

static void test_bad_input(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[3] = {tether_any_int(kTVMFFIInt), tether_any_int(kSize), tether_any_int(0)};
  CHECK_RAISED(call_global("ffi._PyClassRegisterTypeAttrColumns", args, 2, &out), "ValueError",
               "ffi._PyClassRegisterTypeAttrColumns");
  args[0] = tether_any_int(node_type);
  args[1] = tether_any_int(40); /* cannot hold the child field at 48 */
  CHECK_RAISED(call_global("ffi._PyClassRegisterTypeAttrColumns", args, 2, &out), "ValueError",
               "cannot hold its fields");
  args[0] = tether_any_int(20);
  CHECK_RAISED(call_global("ffi.MakeFieldGetter", args, 1, &out), "ValueError",
               "Unsupported field type index");
  args[0] = tether_any_int(kTVMFFIInt);
  CHECK_RAISED(call_global("ffi.MakeFieldSetter", args, 3, &out), "ValueError", "must not be NULL");
  /* the setter checks the value it stores */
  TVMFFIAny new_fn = type_attr("__ffi_new__"), obj = tether_any_none();
  CHECK_OK(tether_func_call(new_fn.v_obj, NULL, 0, &obj));
  const TVMFFIFieldInfo* n = tether_type_find_field(node_type, "n", 1);
  TVMFFIAny text = tether_any_raw_str("not an int");
  if (n != NULL) CHECK_RAISED(tether_field_set(obj.v_obj, n, &text), "TypeError", "int");
  tether_any_release(&obj);
}

TEST_MAIN(TEST_CASE(test_new_set_copy), TEST_CASE(test_bad_input))
