/*
 * test_string.c -- strings and bytes (spec 1.3, section 3): the small/heap split at 7/8
 * bytes, zero padding of the small form, the inline NUL-terminated heap layout, embedded
 * NULs, the argument errors, and the identity globals ffi.String / ffi.Bytes.
 */
#include "test.h"

typedef int (*from_fn_t)(const TVMFFIByteArray*, TVMFFIAny*);

/* A value no constructor would write: every byte of `out` must be overwritten. */
static TVMFFIAny garbage_any(void) {
  TVMFFIAny v;
  memset(&v, 0xAB, sizeof(v));
  return v;
}

/* Checks the representation of `n` bytes at `s` built by `from`. */
static void check_repr(from_fn_t from, int32_t small_index, int32_t heap_index, const char* s,
                       size_t n) {
  TVMFFIByteArray in = {s, n};
  TVMFFIAny v = garbage_any();
  CHECK_OK(from(&in, &v));
  if (n <= 7) {
    CHECK_EQ_INT(v.type_index, small_index);
    CHECK_EQ_INT(v.small_str_len, n);
    CHECK(memcmp(v.v_bytes, s, n) == 0);
    for (size_t i = n; i < 8; ++i) CHECK_EQ_INT(v.v_bytes[i], 0);
  } else {
    CHECK_EQ_INT(v.type_index, heap_index);
    CHECK_EQ_INT(v.zero_padding, 0);
    CHECK_EQ_INT(v.v_obj->type_index, heap_index);
    CHECK_EQ_INT(tether_object_use_count(v.v_obj), 1);
    const TVMFFIByteArray* cell = (const TVMFFIByteArray*)((char*)v.v_obj + 24);
    CHECK_EQ_INT(cell->size, n);
    /* chars stored inline right after the 16-byte cell, NUL-terminated */
    CHECK(cell->data == (const char*)v.v_obj + 40);
    CHECK(cell->data != s);
    CHECK(memcmp(cell->data, s, n) == 0);
    CHECK_EQ_INT(cell->data[n], '\0');
  }
  tether_any_release(&v);
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
}

static void test_small_heap_boundary(void) {
  static const char text[] = "abcdefghijklmnopqrstuvwxyz";
  for (size_t n = 0; n <= 16; ++n) {
    check_repr(TVMFFIStringFromByteArray, kTVMFFISmallStr, kTVMFFIStr, text, n);
    check_repr(TVMFFIBytesFromByteArray, kTVMFFISmallBytes, kTVMFFIBytes, text, n);
  }
}

static void test_small_layout_exact(void) {
  /* "abcdefg": the 8 payload bytes read as one little-endian word (tvm-ffi observed). */
  TVMFFIByteArray in = {"abcdefg", 7};
  TVMFFIAny v = garbage_any();
  CHECK_OK(TVMFFIStringFromByteArray(&in, &v));
  CHECK(v.v_uint64 == UINT64_C(0x67666564636261));
  TVMFFIByteArray one = {"a", 1};
  CHECK_OK(TVMFFIBytesFromByteArray(&one, &v));
  CHECK_EQ_INT(v.type_index, kTVMFFISmallBytes);
  CHECK(v.v_uint64 == 0x61);
  TVMFFIByteArray empty = {NULL, 0};
  CHECK_OK(TVMFFIStringFromByteArray(&empty, &v));
  CHECK_EQ_INT(v.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(v.small_str_len, 0);
  CHECK(v.v_uint64 == 0);
}

static void test_embedded_nuls(void) {
  static const char small[] = {'a', 0, 'b'};
  check_repr(TVMFFIBytesFromByteArray, kTVMFFISmallBytes, kTVMFFIBytes, small, sizeof(small));
  check_repr(TVMFFIStringFromByteArray, kTVMFFISmallStr, kTVMFFIStr, small, sizeof(small));
  static const char big[] = {0, 'x', 0, 0, 'y', 'z', 0, 1, 2, 0, (char)0xff};
  check_repr(TVMFFIBytesFromByteArray, kTVMFFISmallBytes, kTVMFFIBytes, big, sizeof(big));
  /* Reading back keeps every byte. */
  TVMFFIByteArray in = {big, sizeof(big)}, out;
  TVMFFIAny v = tether_any_none();
  CHECK_OK(TVMFFIBytesFromByteArray(&in, &v));
  CHECK(tether_any_get_bytes(&v, &out));
  CHECK_EQ_INT(out.size, sizeof(big));
  CHECK(memcmp(out.data, big, sizeof(big)) == 0);
  CHECK(!tether_any_get_str(&v, &out));
  tether_any_release(&v);
}

static void test_any_str(void) {
  TVMFFIAny v = garbage_any();
  TVMFFIByteArray out;
  CHECK_OK(tether_any_str("hello", 5, &v));
  CHECK_EQ_INT(v.type_index, kTVMFFISmallStr);
  CHECK(tether_any_get_str(&v, &out));
  CHECK_BYTES(out, "hello");
  CHECK_EQ_INT(out.data[out.size], '\0');
  CHECK_OK(tether_any_str("hello, world", 12, &v));
  CHECK_EQ_INT(v.type_index, kTVMFFIStr);
  CHECK(tether_any_get_str(&v, &out));
  CHECK_BYTES(out, "hello, world");
  CHECK(!tether_any_get_bytes(&v, &out));
  tether_any_release(&v);
}

static void test_bad_arguments(void) {
  TVMFFIAny v = tether_any_none();
  TVMFFIByteArray in = {"abc", 3};
  TVMFFIByteArray null_data = {NULL, 3};
  CHECK_RAISED(TVMFFIStringFromByteArray(NULL, &v), "ValueError", "`input` must not be NULL");
  CHECK_RAISED(TVMFFIBytesFromByteArray(NULL, &v), "ValueError", "`input` must not be NULL");
  CHECK_RAISED(TVMFFIStringFromByteArray(&in, NULL), "ValueError", "`out` must not be NULL");
  CHECK_RAISED(TVMFFIBytesFromByteArray(&in, NULL), "ValueError", "`out` must not be NULL");
  CHECK_RAISED(TVMFFIStringFromByteArray(&null_data, &v), "ValueError", "data is NULL");
  CHECK_RAISED(tether_any_str(NULL, 9, &v), "ValueError", "data is NULL");
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
}

/* ---- the globals ------------------------------------------------------------------------ */

static TVMFFIObjectHandle get_global(const char* name) {
  TVMFFIByteArray n = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  CHECK_OK(TVMFFIFunctionGetGlobal(&n, &f));
  CHECK(f != NULL);
  return f;
}

static void test_ffi_string_global(void) {
  TVMFFIObjectHandle f = get_global("ffi.String");
  if (f == NULL) return;
  TVMFFIAny r = tether_any_none();
  TVMFFIByteArray out;
  /* RawStr views are copied, small or heap by length. */
  TVMFFIAny arg = tether_any_raw_str("abc");
  CHECK_OK(TVMFFIFunctionCall(f, &arg, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFISmallStr);
  CHECK(tether_any_get_str(&r, &out));
  CHECK_BYTES(out, "abc");
  tether_any_release(&r);
  arg = tether_any_raw_str("a longer string");
  CHECK_OK(TVMFFIFunctionCall(f, &arg, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIStr);
  CHECK(tether_any_get_str(&r, &out));
  CHECK_BYTES(out, "a longer string");
  /* An owned Str comes back as the same object, one more reference. */
  TVMFFIAny same = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, &r, 1, &same));
  CHECK_EQ_INT(same.type_index, kTVMFFIStr);
  CHECK(same.v_obj == r.v_obj);
  CHECK_EQ_INT(tether_object_use_count(r.v_obj), 2);
  tether_any_release(&same);
  tether_any_release(&r);
  /* SmallStr passes through. */
  CHECK_OK(tether_any_str("xyz", 3, &arg));
  CHECK_OK(TVMFFIFunctionCall(f, &arg, 1, &r));
  CHECK(memcmp(&r, &arg, sizeof(r)) == 0);
  r = tether_any_none();
  /* Wrong kinds and arity (texts observed from tvm-ffi 0.1.14). */
  arg = tether_any_int(1);
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.String(0: str) -> str`. "
               "Expected `str` but got `int`");
  TVMFFIByteArray ab = {"ab", 2};
  CHECK_OK(TVMFFIBytesFromByteArray(&ab, &arg));
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError", "but got `ffi.SmallBytes`");
  arg = (TVMFFIAny){.type_index = kTVMFFIByteArrayPtr, .v_ptr = &ab};
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError", "Expected `str`");
  CHECK_RAISED(TVMFFIFunctionCall(f, NULL, 0, &r), "TypeError",
               "Mismatched number of arguments when calling: `ffi.String(0: str) -> str`. "
               "Expected 1 but got 0 arguments");
  TVMFFIAny two[2] = {tether_any_raw_str("a"), tether_any_raw_str("b")};
  CHECK_RAISED(TVMFFIFunctionCall(f, two, 2, &r), "TypeError", "Expected 1 but got 2 arguments");
  CHECK_EQ_INT(r.type_index, kTVMFFINone);
  TVMFFIObjectDecRef(f);
}

static void test_ffi_bytes_global(void) {
  TVMFFIObjectHandle f = get_global("ffi.Bytes");
  if (f == NULL) return;
  TVMFFIAny r = tether_any_none();
  TVMFFIByteArray out;
  static const char data[] = {'a', 0, 'b', 'c', 0, 'd', 'e', 'f', 'g'};
  TVMFFIByteArray in = {data, sizeof(data)};
  TVMFFIAny arg = {.type_index = kTVMFFIByteArrayPtr, .v_ptr = &in};
  CHECK_OK(TVMFFIFunctionCall(f, &arg, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIBytes);
  CHECK(tether_any_get_bytes(&r, &out));
  CHECK_EQ_INT(out.size, sizeof(data));
  CHECK(memcmp(out.data, data, sizeof(data)) == 0);
  TVMFFIAny same = tether_any_none();
  CHECK_OK(TVMFFIFunctionCall(f, &r, 1, &same));
  CHECK(same.v_obj == r.v_obj);
  tether_any_release(&same);
  tether_any_release(&r);
  in.size = 3;
  CHECK_OK(TVMFFIFunctionCall(f, &arg, 1, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFISmallBytes);
  CHECK_EQ_INT(r.small_str_len, 3);
  CHECK(r.v_uint64 == 0x620061);
  CHECK_OK(TVMFFIFunctionCall(f, &r, 1, &same));
  CHECK(memcmp(&r, &same, sizeof(r)) == 0);
  arg = tether_any_raw_str("ab");
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.Bytes(0: bytes) -> bytes`. "
               "Expected `bytes` but got `const char*`");
  arg = tether_any_float(1.5);
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError", "but got `float`");
  CHECK_OK(tether_any_str("a long string object", 20, &arg));
  CHECK_RAISED(TVMFFIFunctionCall(f, &arg, 1, &r), "TypeError", "but got `ffi.String`");
  tether_any_release(&arg);
  TVMFFIObjectDecRef(f);
}

TEST_MAIN(TEST_CASE(test_small_heap_boundary), TEST_CASE(test_small_layout_exact),
          TEST_CASE(test_embedded_nuls), TEST_CASE(test_any_str), TEST_CASE(test_bad_arguments),
          TEST_CASE(test_ffi_string_global), TEST_CASE(test_ffi_bytes_global))
