/*
 * test_any.c -- Any values: release/copy, reading strings, type keys, the view -> owned
 * conversion of spec 1.4 (TVMFFIAnyViewToOwnedAny) for every kind, and the hash/equality
 * of spec 1.12.  The expected hashes were printed by a C++ program compiled against
 * tvm-ffi 0.1.14's headers (tvm::ffi::AnyHash), so they check bit-exact agreement.
 */
#include "test.h"

static uint64_t combine(uint64_t key, uint64_t v) {
  return key ^ (v + UINT64_C(0x9e3779b9) + (key << 6) + (key >> 2));
}

static TVMFFIAny make_str(const char* s, size_t n) {
  TVMFFIAny v = tether_any_none();
  CHECK_OK(tether_any_str(s, n, &v));
  return v;
}

static TVMFFIAny make_bytes(const char* s, size_t n) {
  TVMFFIByteArray in = {s, n};
  TVMFFIAny v = tether_any_none();
  CHECK_OK(TVMFFIBytesFromByteArray(&in, &v));
  return v;
}

/* A heap string made the way C++ code would (header + ByteArray + inline chars), so that a
 * short content can be held in the heap form too.  Static: NULL deleter, never freed. */
typedef struct {
  TVMFFIObject header;
  TVMFFIByteArray cell;
  char chars[8];
} fake_str_t;

static void fake_str_init(fake_str_t* s, int32_t type_index, const char* text) {
  memset(s, 0, sizeof(*s));
  s->header.combined_ref_count = 1 | (UINT64_C(1) << 32);
  s->header.type_index = type_index;
  strcpy(s->chars, text);
  s->cell.data = s->chars;
  s->cell.size = strlen(text);
}

/* ---- hash ------------------------------------------------------------------------------ */

static void test_hash_reference_values(void) {
  static const struct {
    const char* s;
    size_t n;
    uint64_t str_hash, bytes_hash;
  } cases[] = {
      {"", 0, UINT64_C(2654440008), UINT64_C(2654439947)},
      {"a", 1, UINT64_C(2654439979), UINT64_C(2654440168)},
      {"abcdefg", 7, UINT64_C(4352227701), UINT64_C(4352227638)},
      {"abcdefgh", 8, UINT64_C(3546921335), UINT64_C(3546921268)},
      {"hello world, this is long", 25, UINT64_C(3024346752), UINT64_C(3024346947)},
      {"\xff\xff\xff\xff\xff\xff\xff\xff\xff", 9, UINT64_C(2654443104), UINT64_C(2654443043)},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    TVMFFIAny s = make_str(cases[i].s, cases[i].n);
    TVMFFIAny b = make_bytes(cases[i].s, cases[i].n);
    if (tether_any_hash(&s) != cases[i].str_hash || tether_any_hash(&b) != cases[i].bytes_hash) {
      fprintf(stderr, "case %zu: str %" PRIu64 " bytes %" PRIu64 "\n", i, tether_any_hash(&s),
              tether_any_hash(&b));
    }
    CHECK(tether_any_hash(&s) == cases[i].str_hash);
    CHECK(tether_any_hash(&b) == cases[i].bytes_hash);
    tether_any_release(&s);
    tether_any_release(&b);
  }
  TVMFFIAny v = tether_any_int(1);
  CHECK(tether_any_hash(&v) == UINT64_C(2654435835));
  v = tether_any_int(-1);
  CHECK(tether_any_hash(&v) == UINT64_C(2654435833));
  v = tether_any_bool(true);
  CHECK(tether_any_hash(&v) == UINT64_C(2654435896));
  v = tether_any_float(1.0);
  CHECK(tether_any_hash(&v) == UINT64_C(4607182421454453370));
  v = tether_any_none();
  CHECK(tether_any_hash(&v) == UINT64_C(2654435769));
}

static void test_small_and_heap_forms_agree(void) {
  static fake_str_t heap_str, heap_bytes;
  fake_str_init(&heap_str, kTVMFFIStr, "abc");
  fake_str_init(&heap_bytes, kTVMFFIBytes, "abc");
  TVMFFIAny hs = tether_any_object(&heap_str);
  TVMFFIAny hb = tether_any_object(&heap_bytes);
  TVMFFIAny ss = make_str("abc", 3);
  TVMFFIAny sb = make_bytes("abc", 3);
  CHECK(tether_any_hash(&hs) == tether_any_hash(&ss));
  CHECK(tether_any_hash(&hb) == tether_any_hash(&sb));
  CHECK(tether_any_hash(&hs) != tether_any_hash(&hb));
  CHECK(tether_any_equal(&hs, &ss));
  CHECK(tether_any_equal(&ss, &hs));
  CHECK(tether_any_equal(&hb, &sb));
  CHECK(tether_any_equal(&sb, &hb));
  /* Str never equals Bytes, in any form. */
  CHECK(!tether_any_equal(&hs, &hb));
  CHECK(!tether_any_equal(&ss, &sb));
  CHECK(!tether_any_equal(&hs, &sb));
  CHECK(!tether_any_equal(&sb, &hs));
  /* Different content, same length. */
  TVMFFIAny other = make_str("abd", 3);
  CHECK(!tether_any_equal(&hs, &other));
  CHECK(!tether_any_equal(&ss, &other));
  /* An object Any whose index says ffi.Object still hashes and compares as its header type. */
  TVMFFIAny generic = hs;
  generic.type_index = kTVMFFIObject;
  CHECK(tether_any_hash(&generic) == tether_any_hash(&ss));
  CHECK(tether_any_equal(&generic, &ss));
  CHECK_EQ_STR(tether_any_type_key(&generic), "ffi.String");
  /* A raw C string view is not an owned string: it only equals itself. */
  TVMFFIAny raw = tether_any_raw_str("abc");
  CHECK(!tether_any_equal(&raw, &ss));
  CHECK(tether_any_equal(&raw, &raw));
}

static void test_heap_strings_by_content(void) {
  TVMFFIAny a = make_str("a fairly long string", 20);
  TVMFFIAny b = make_str("a fairly long string", 20);
  TVMFFIAny c = make_str("a fairly long strinG", 20);
  TVMFFIAny d = make_bytes("a fairly long string", 20);
  CHECK(a.v_obj != b.v_obj);
  CHECK(tether_any_equal(&a, &b));
  CHECK(tether_any_hash(&a) == tether_any_hash(&b));
  CHECK(!tether_any_equal(&a, &c));
  CHECK(!tether_any_equal(&a, &d));
  CHECK(tether_any_hash(&a) != tether_any_hash(&d));
  tether_any_release(&a);
  tether_any_release(&b);
  tether_any_release(&c);
  tether_any_release(&d);
}

static void test_pod_equality(void) {
  TVMFFIAny i1 = tether_any_int(1), i1b = tether_any_int(1), i2 = tether_any_int(2);
  TVMFFIAny t = tether_any_bool(true), f1 = tether_any_float(1.0), none = tether_any_none();
  CHECK(tether_any_equal(&i1, &i1b));
  CHECK(!tether_any_equal(&i1, &i2));
  /* 1 != True != 1.0 as keys */
  CHECK(!tether_any_equal(&i1, &t));
  CHECK(!tether_any_equal(&t, &i1));
  CHECK(!tether_any_equal(&i1, &f1));
  CHECK(!tether_any_equal(&t, &f1));
  CHECK(tether_any_hash(&i1) != tether_any_hash(&t));
  CHECK(tether_any_hash(&i1) != tether_any_hash(&f1));
  CHECK(!tether_any_equal(&none, &i1));
  TVMFFIAny z = tether_any_int(0);
  CHECK(!tether_any_equal(&none, &z));
  /* Floats compare by bits: NaN equals itself, 0.0 and -0.0 differ. */
  TVMFFIAny nan = tether_any_float(0.0 / 0.0);
  CHECK(tether_any_equal(&nan, &nan));
  TVMFFIAny pz = tether_any_float(0.0), nz = tether_any_float(-0.0);
  CHECK(!tether_any_equal(&pz, &nz));
  DLDataType dt = {kDLFloat, 32, 1};
  TVMFFIAny d1 = tether_any_dtype(dt), d2 = tether_any_dtype(dt);
  CHECK(tether_any_equal(&d1, &d2));
  CHECK(tether_any_hash(&d1) == tether_any_hash(&d2));
  TVMFFIAny dev1 = tether_any_device(kDLCPU, 0), dev2 = tether_any_device(kDLCUDA, 0);
  CHECK(!tether_any_equal(&dev1, &dev2));
  int x;
  TVMFFIAny p1 = tether_any_ptr(&x), p2 = tether_any_ptr(&x), p3 = tether_any_ptr(NULL);
  CHECK(tether_any_equal(&p1, &p2));
  CHECK(!tether_any_equal(&p1, &p3));
  CHECK(tether_any_hash(&p1) == combine(kTVMFFIOpaquePtr, (uint64_t)(uintptr_t)&x));
}

/* ---- custom __any_hash__ / __any_equal__ ---------------------------------------------------- */

typedef struct {
  TVMFFIObject header;
  int64_t key;
} keyed_t;

/* Type with C-function entries; type with Function entries; type with no entries. */
static int32_t keyed_c_type, keyed_fn_type, plain_type;

/* Native entries (tvm-ffi 0.1.15 convention): the result comes back in a TVMFFIAny. */
static TVMFFIAny keyed_c_hash(const TVMFFIAny* v) {
  return tether_any_int(((keyed_t*)v->v_obj)->key * 7);
}
static TVMFFIAny keyed_c_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  return tether_any_bool(((keyed_t*)a->v_obj)->key == ((keyed_t*)b->v_obj)->key);
}
static int keyed_fn_hash(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_int(((keyed_t*)args[0].v_obj)->key * 11);
  return 0;
}
static int keyed_fn_equal(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  *result = tether_any_bool(((keyed_t*)args[0].v_obj)->key == ((keyed_t*)args[1].v_obj)->key);
  return 0;
}

static int32_t register_type(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 0, kTVMFFIObject);
}

static void register_attr(int32_t type, const char* name, TVMFFIAny value) {
  TVMFFIByteArray n = {name, strlen(name)};
  if (TVMFFITypeRegisterAttr(type, &n, &value) != 0) {
    fprintf(stderr, "registering %s failed\n", name);
    TVMFFIErrorMoveFromRaised(NULL);
  }
}

static void register_fn_attr(int32_t type, const char* name, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(NULL, fn, NULL, &f) != 0) return;
  register_attr(type, name, tether_any_object(f));
  TVMFFIObjectDecRef(f);
}

/* Runs before main (after libtether's own constructor): the Functions registered here stay
 * alive in the columns for the whole process, outside any test's leak accounting. */
__attribute__((constructor)) static void setup_custom_types(void) {
  keyed_c_type = register_type("test_any.KeyedC");
  keyed_fn_type = register_type("test_any.KeyedFn");
  plain_type = register_type("test_any.Plain");
  register_attr(keyed_c_type, "__any_hash__", tether_any_ptr((void*)(uintptr_t)keyed_c_hash));
  register_attr(keyed_c_type, "__any_equal__", tether_any_ptr((void*)(uintptr_t)keyed_c_equal));
  register_fn_attr(keyed_fn_type, "__any_hash__", keyed_fn_hash);
  register_fn_attr(keyed_fn_type, "__any_equal__", keyed_fn_equal);
}

static keyed_t keyed(int32_t type, int64_t key) {
  keyed_t k;
  memset(&k, 0, sizeof(k));
  k.header.combined_ref_count = 1 | (UINT64_C(1) << 32);
  k.header.type_index = type;
  k.key = key;
  return k;
}

static void test_custom_hash_equal(void) {
  CHECK(keyed_c_type >= kTVMFFIDynObjectBegin);
  keyed_t a = keyed(keyed_c_type, 5), b = keyed(keyed_c_type, 5), c = keyed(keyed_c_type, 6);
  TVMFFIAny va = tether_any_object(&a), vb = tether_any_object(&b), vc = tether_any_object(&c);
  CHECK(tether_any_hash(&va) == combine((uint64_t)keyed_c_type, 35));
  CHECK(tether_any_hash(&va) == tether_any_hash(&vb));
  CHECK(tether_any_equal(&va, &vb));
  CHECK(!tether_any_equal(&va, &vc));

  keyed_t fa = keyed(keyed_fn_type, 5), fb = keyed(keyed_fn_type, 5), fc = keyed(keyed_fn_type, 6);
  TVMFFIAny wa = tether_any_object(&fa), wb = tether_any_object(&fb), wc = tether_any_object(&fc);
  CHECK(tether_any_hash(&wa) == combine((uint64_t)keyed_fn_type, 55));
  CHECK(tether_any_equal(&wa, &wb));
  CHECK(!tether_any_equal(&wa, &wc));
  /* Same key, different types: never equal (the custom equality is not consulted). */
  CHECK(!tether_any_equal(&va, &wa));

  /* No entries: pointer identity. */
  keyed_t pa = keyed(plain_type, 5), pb = keyed(plain_type, 5);
  TVMFFIAny ua = tether_any_object(&pa), ub = tether_any_object(&pb);
  CHECK(tether_any_hash(&ua) == combine((uint64_t)plain_type, (uint64_t)(uintptr_t)&pa));
  CHECK(!tether_any_equal(&ua, &ub));
  CHECK(tether_any_equal(&ua, &ua));
}

/* ---- release, copy, strings, type keys -------------------------------------------------- */

static void test_release_copy(void) {
  TVMFFIAny s = make_str("not a small string", 18);
  TVMFFIAny c = tether_any_none();
  tether_any_copy(&s, &c);
  CHECK(c.v_obj == s.v_obj);
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 2);
  tether_any_release(&c);
  CHECK_EQ_INT(c.type_index, kTVMFFINone);
  CHECK(c.v_int64 == 0);
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 1);
  tether_any_copy(&s, &s); /* aliasing is allowed */
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 2);
  TVMFFIObjectDecRef(s.v_obj);
  tether_any_release(&s);
  TVMFFIAny i = tether_any_int(42);
  tether_any_copy(&i, &c);
  CHECK(c.v_int64 == 42);
  tether_any_release(&i);
  CHECK_EQ_INT(i.type_index, kTVMFFINone);
}

static void test_get_str_bytes(void) {
  TVMFFIByteArray out;
  TVMFFIAny raw = tether_any_raw_str("raw text");
  CHECK(tether_any_get_str(&raw, &out));
  CHECK_BYTES(out, "raw text");
  CHECK(!tether_any_get_bytes(&raw, &out));
  TVMFFIAny null_raw = tether_any_raw_str(NULL);
  CHECK(!tether_any_get_str(&null_raw, &out));
  TVMFFIByteArray ba = {"by\0tes", 6};
  TVMFFIAny bav = {.type_index = kTVMFFIByteArrayPtr, .v_ptr = &ba};
  CHECK(tether_any_get_bytes(&bav, &out));
  CHECK(out.size == 6 && out.data == ba.data);
  CHECK(!tether_any_get_str(&bav, &out));
  TVMFFIAny null_obj = {.type_index = kTVMFFIStr, .v_obj = NULL};
  CHECK(!tether_any_get_str(&null_obj, &out));
  TVMFFIAny other = {.type_index = kTVMFFIStr, .v_obj = NULL};
  CHECK(tether_any_equal(&null_obj, &other));
  TVMFFIAny small = make_str("ab", 2);
  CHECK(!tether_any_equal(&null_obj, &small));
  CHECK(!tether_any_equal(&small, &null_obj));
  CHECK(tether_any_hash(&null_obj) == combine(kTVMFFIStr, 0));
  TVMFFIAny i = tether_any_int(3);
  CHECK(!tether_any_get_str(&i, &out));
  CHECK(!tether_any_get_bytes(&i, &out));
}

static void test_type_keys(void) {
  static const struct {
    TVMFFIAny v;
    const char* key;
  } cases[] = {
      {{.type_index = kTVMFFINone}, "None"},
      {{.type_index = kTVMFFIInt}, "int"},
      {{.type_index = kTVMFFIBool}, "bool"},
      {{.type_index = kTVMFFIFloat}, "float"},
      {{.type_index = kTVMFFIOpaquePtr}, "void*"},
      {{.type_index = kTVMFFIDataType}, "DataType"},
      {{.type_index = kTVMFFIDevice}, "Device"},
      {{.type_index = kTVMFFIDLTensorPtr}, "DLTensor*"},
      {{.type_index = kTVMFFIRawStr}, "const char*"},
      {{.type_index = kTVMFFIByteArrayPtr}, "TVMFFIByteArray*"},
      {{.type_index = kTVMFFIObjectRValueRef}, "ObjectRValueRef"},
      {{.type_index = kTVMFFISmallStr}, "ffi.SmallStr"},
      {{.type_index = kTVMFFISmallBytes}, "ffi.SmallBytes"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    CHECK_EQ_STR(tether_any_type_key(&cases[i].v), cases[i].key);
  }
  TVMFFIAny s = make_str("long enough string", 18);
  CHECK_EQ_STR(tether_any_type_key(&s), "ffi.String");
  tether_any_release(&s);
  keyed_t k = keyed(keyed_c_type, 1);
  TVMFFIAny kv = tether_any_object(&k);
  CHECK_EQ_STR(tether_any_type_key(&kv), "test_any.KeyedC");
}

/* ---- view -> owned ----------------------------------------------------------------------- */

/* A view of kind `type_index` whose padding is garbage: the owned copy must zero it. */
static TVMFFIAny dirty_view(int32_t type_index, uint64_t payload) {
  TVMFFIAny v;
  v.type_index = type_index;
  v.zero_padding = 0xdeadbeef;
  v.v_uint64 = payload;
  return v;
}

static void test_view_to_owned_pod(void) {
  static const int32_t kinds[] = {kTVMFFIInt, kTVMFFIBool, kTVMFFIFloat, kTVMFFIOpaquePtr,
                                  kTVMFFIDevice, kTVMFFIDLTensorPtr};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    TVMFFIAny view = dirty_view(kinds[i], UINT64_C(0x0123456789abcdef));
    TVMFFIAny out;
    memset(&out, 0x5a, sizeof(out));
    CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
    CHECK_EQ_INT(out.type_index, kinds[i]);
    CHECK_EQ_INT(out.zero_padding, 0);
    CHECK(out.v_uint64 == UINT64_C(0x0123456789abcdef));
  }
  TVMFFIAny none = dirty_view(kTVMFFINone, 77), out;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&none, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  CHECK(out.v_uint64 == 0 && out.zero_padding == 0);
  /* DataType: only 4 payload bytes are meaningful; the other 4 become zero. */
  TVMFFIAny dt = dirty_view(kTVMFFIDataType, UINT64_C(0xffffffff00000000));
  dt.v_dtype = (DLDataType){kDLFloat, 16, 4};
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&dt, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIDataType);
  CHECK_EQ_INT(out.zero_padding, 0);
  CHECK(out.v_uint64 == (UINT64_C(4) << 16 | 16 << 8 | kDLFloat));
  /* SmallStr: bytes past the length become zero. */
  TVMFFIAny small = dirty_view(kTVMFFISmallStr, UINT64_C(0xffffffffff636261));
  small.small_str_len = 3;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&small, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(out.small_str_len, 3);
  CHECK(out.v_uint64 == 0x636261);
  small.type_index = kTVMFFISmallBytes;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&small, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallBytes);
  CHECK(out.v_uint64 == 0x636261);
}

static void test_view_to_owned_strings(void) {
  TVMFFIAny view = tether_any_raw_str("abc"), out;
  TVMFFIByteArray chars;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(out.small_str_len, 3);
  view = tether_any_raw_str("abcdefghij");
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(tether_object_use_count(out.v_obj), 1);
  CHECK(tether_any_get_str(&out, &chars));
  CHECK_BYTES(chars, "abcdefghij");
  CHECK(chars.data != view.v_c_str);
  tether_any_release(&out);
  /* In place: the view slot itself becomes the owned value. */
  view = tether_any_raw_str("in place conversion");
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &view));
  CHECK_EQ_INT(view.type_index, kTVMFFIStr);
  tether_any_release(&view);
  TVMFFIByteArray ba = {"xy\0z", 4};
  view = (TVMFFIAny){.type_index = kTVMFFIByteArrayPtr, .v_ptr = &ba};
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallBytes);
  CHECK_EQ_INT(out.small_str_len, 4);
  CHECK(out.v_uint64 == UINT64_C(0x7a007978)); /* observed from tvm-ffi */
  ba.size = 0;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFISmallBytes);
  CHECK_EQ_INT(out.small_str_len, 0);
  TVMFFIByteArray long_ba = {"0123456789", 10};
  view.v_ptr = &long_ba;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&view, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIBytes);
  tether_any_release(&out);
}

static void test_view_to_owned_objects(void) {
  TVMFFIAny s = make_str("an owned heap string", 20), out;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&s, &out));
  CHECK(out.v_obj == s.v_obj);
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 2);
  tether_any_release(&out);
  /* The owned index is the object's own (authoritative) one. */
  TVMFFIAny generic = s;
  generic.type_index = kTVMFFIObject;
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&generic, &out));
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  tether_any_release(&out);
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 1);

  /* RValueRef: the object moves out of the slot; a second move fails. */
  TVMFFIObject* slot = s.v_obj;
  TVMFFIAny ref = {.type_index = kTVMFFIObjectRValueRef, .v_ptr = &slot};
  CHECK_OK(TVMFFIAnyViewToOwnedAny(&ref, &out));
  CHECK(slot == NULL);
  CHECK(out.v_obj == s.v_obj);
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(tether_object_use_count(out.v_obj), 1);
  TVMFFIAny untouched = tether_any_int(9);
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&ref, &untouched), "InternalError",
               "RValueRef already moved");
  CHECK_EQ_INT(untouched.type_index, kTVMFFIInt);
  tether_any_release(&out); /* the reference the slot held */
}

static void test_view_to_owned_errors(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIAny view = tether_any_int(1);
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, NULL), "ValueError", "`out` must not be NULL");
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(NULL, &out), "ValueError", "`any_view` must not be NULL");
  view = tether_any_raw_str(NULL);
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, &out), "ValueError", "holds NULL");
  view = (TVMFFIAny){.type_index = kTVMFFIByteArrayPtr, .v_ptr = NULL};
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, &out), "ValueError", "holds NULL");
  view = (TVMFFIAny){.type_index = kTVMFFIObjectRValueRef, .v_ptr = NULL};
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, &out), "ValueError", "no slot address");
  view = (TVMFFIAny){.type_index = kTVMFFIStr, .v_obj = NULL};
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, &out), "ValueError", "holds NULL");
  view = (TVMFFIAny){.type_index = kTVMFFISmallStr, .small_str_len = 8};
  CHECK_RAISED(TVMFFIAnyViewToOwnedAny(&view, &out), "ValueError", "at most 7");
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
}

TEST_MAIN(TEST_CASE(test_hash_reference_values), TEST_CASE(test_small_and_heap_forms_agree),
          TEST_CASE(test_heap_strings_by_content), TEST_CASE(test_pod_equality),
          TEST_CASE(test_custom_hash_equal), TEST_CASE(test_release_copy),
          TEST_CASE(test_get_str_bytes), TEST_CASE(test_type_keys),
          TEST_CASE(test_view_to_owned_pod), TEST_CASE(test_view_to_owned_strings),
          TEST_CASE(test_view_to_owned_objects), TEST_CASE(test_view_to_owned_errors))
