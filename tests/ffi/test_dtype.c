/*
 * test_dtype.c -- TVMFFIDataTypeFromString / TVMFFIDataTypeToString (spec section 2, the
 * dtype grammar).  Table-driven: every valid form with its code/bits/lanes and printed
 * form (each must round-trip), every malformed form with its error kind and text, and
 * printing of DLDataTypes no string produces.  Values and error texts were observed from
 * tvm-ffi 0.1.14; the rows marked "tether" are deliberate differences (see dtype.c).
 */
#include <stdlib.h>

#include "test.h"

typedef struct {
  const char* text;
  uint8_t code, bits;
  uint16_t lanes;
  const char* printed;
} valid_case_t;

static const valid_case_t valid_cases[] = {
    {"", 3, 0, 0, ""},
    {"void", 3, 0, 0, ""},
    {"bool", 6, 8, 1, "bool"},
    {"bool8", 6, 8, 1, "bool"},
    {"bool0", 6, 8, 1, "bool"},
    {"bool1", 6, 1, 1, "bool1"},
    {"bool32", 6, 32, 1, "bool32"},
    {"boolx4", 6, 8, 4, "boolx4"},
    {"bool8x4", 6, 8, 4, "boolx4"},
    {"handle", 3, 64, 1, "handle"},
    {"handle0", 3, 64, 1, "handle"},
    {"handle64x1", 3, 64, 1, "handle"},
    {"handle32", 3, 32, 1, "handle32"},     /* tether: tvm-ffi prints "handle" */
    {"handlex4", 3, 64, 4, "handlex4"},     /* tether: tvm-ffi prints "handle" */
    {"handle32x4", 3, 32, 4, "handle32x4"}, /* tether: tvm-ffi prints "handle" */
    {"int", 0, 32, 1, "int32"},
    {"uint", 1, 32, 1, "uint32"},
    {"float", 2, 32, 1, "float32"},
    {"bfloat", 4, 16, 1, "bfloat16"},
    {"int8", 0, 8, 1, "int8"},
    {"int64", 0, 64, 1, "int64"},
    {"uint1", 1, 1, 1, "uint1"},
    {"int1", 0, 1, 1, "int1"},
    {"int255", 0, 255, 1, "int255"},
    {"int0", 0, 32, 1, "int32"},
    {"uint0", 1, 32, 1, "uint32"},
    {"float0", 2, 32, 1, "float32"},
    {"bfloat0", 4, 16, 1, "bfloat16"},
    {"bfloat32", 4, 32, 1, "bfloat32"},
    {"bfloat16x2", 4, 16, 2, "bfloat16x2"},
    {"int032", 0, 32, 1, "int32"},
    {"int32x04", 0, 32, 4, "int32x4"},
    {"float32x4", 2, 32, 4, "float32x4"},
    {"float16x1", 2, 16, 1, "float16"},
    {"int64x1", 0, 64, 1, "int64"},
    {"uint1x8", 1, 1, 8, "uint1x8"},
    {"intx4", 0, 32, 4, "int32x4"},
    {"floatx4", 2, 32, 4, "float32x4"},
    {"float8", 2, 8, 1, "float8"},
    {"float8x4", 2, 8, 4, "float8x4"},
    {"float6", 2, 6, 1, "float6"},
    {"float4", 2, 4, 1, "float4"},
    {"int32x65535", 0, 32, 65535, "int32xvscalex1"}, /* tether: tvm-ffi prints "int32" */
    /* aliases */
    {"i8", 0, 8, 1, "int8"},
    {"i0", 0, 32, 1, "int32"},
    {"u8", 1, 8, 1, "uint8"},
    {"u0", 1, 32, 1, "uint32"},
    {"f16", 2, 16, 1, "float16"},
    {"f8", 2, 8, 1, "float8"},
    {"f8x4", 2, 8, 4, "float8x4"},
    {"i8x4", 0, 8, 4, "int8x4"},
    {"bf16", 4, 16, 1, "bfloat16"},
    {"bf32", 4, 32, 1, "bfloat32"},
    {"bf0", 4, 16, 1, "bfloat16"},
    /* scalable vectors: -N stored as a uint16 */
    {"int32xvscalex4", 0, 32, 65532, "int32xvscalex4"},
    {"float32xvscalex8", 2, 32, 65528, "float32xvscalex8"},
    {"uint8xvscalex2", 1, 8, 65534, "uint8xvscalex2"},
    {"boolxvscalex4", 6, 8, 65532, "boolxvscalex4"},
    {"int32xvscalex1", 0, 32, 65535, "int32xvscalex1"}, /* tether: tvm-ffi prints "int32" */
    {"int64xvscalex1", 0, 64, 65535, "int64xvscalex1"},
    {"int32xvscalex32768", 0, 32, 32768, "int32xvscalex32768"},
    {"int32xvscalex40000", 0, 32, 25536, "int32x25536"},
    {"int32xvscalex65535", 0, 32, 1, "int32"},
    /* float8 / float6 / float4 families: bits fixed, never printed */
    {"float8_e3m4", 7, 8, 1, "float8_e3m4"},
    {"float8_e4m3", 8, 8, 1, "float8_e4m3"},
    {"float8_e4m3b11fnuz", 9, 8, 1, "float8_e4m3b11fnuz"},
    {"float8_e4m3fn", 10, 8, 1, "float8_e4m3fn"},
    {"float8_e4m3fnuz", 11, 8, 1, "float8_e4m3fnuz"},
    {"float8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"float8_e5m2fnuz", 13, 8, 1, "float8_e5m2fnuz"},
    {"float8_e8m0fnu", 14, 8, 1, "float8_e8m0fnu"},
    {"float8_e4m3fnx4", 10, 8, 4, "float8_e4m3fnx4"},
    {"float8_e4m3x4", 8, 8, 4, "float8_e4m3x4"},
    {"float8_e4m3fnuzx2", 11, 8, 2, "float8_e4m3fnuzx2"},
    {"float8_e5m2x2", 12, 8, 2, "float8_e5m2x2"},
    {"fp8_e4m3fn", 10, 8, 1, "float8_e4m3fn"},
    {"fp8_e4m3fnx2", 10, 8, 2, "float8_e4m3fnx2"},
    {"fp8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"f8_e5m2", 12, 8, 1, "float8_e5m2"},
    {"f8_e8m0fnu", 14, 8, 1, "float8_e8m0fnu"},
    {"float6_e2m3fn", 15, 6, 1, "float6_e2m3fn"},
    {"float6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"float6_e2m3fnx2", 15, 6, 2, "float6_e2m3fnx2"},
    {"fp6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"f6_e2m3fn", 15, 6, 1, "float6_e2m3fn"},
    {"f6_e3m2fn", 16, 6, 1, "float6_e3m2fn"},
    {"float4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"fp4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"f4_e2m1fn", 17, 4, 1, "float4_e2m1fn"},
    {"float4_e2m1fn_x2", 17, 4, 2, "float4_e2m1fnx2"},
    {"float4_e2m1fnx2", 17, 4, 2, "float4_e2m1fnx2"},
    {"float4_e2m1fn_x4", 17, 4, 4, "float4_e2m1fnx4"},
    {"float4_e2m1fnx4", 17, 4, 4, "float4_e2m1fnx4"},
    {"fp4_e2m1fn_x2", 17, 4, 2, "float4_e2m1fnx2"},
    {"f4_e2m1fnx2", 17, 4, 2, "float4_e2m1fnx2"},
    /* Lane counts >= 32768 of a fixed-width family (no scalable form) print unsigned; found
     * by fuzz_dtype. */
    {"float4_e2m1fn_x000058102", 17, 4, 58102, "float4_e2m1fnx58102"},
    {"float8_e4m3fnx40000", 10, 8, 40000, "float8_e4m3fnx40000"},
    {"int32x40000", 0, 32, 40000, "int32xvscalex25536"},
};

typedef struct {
  const char* text;
  const char* kind;
  const char* needle;
} bad_case_t;

static const bad_case_t bad_cases[] = {
    {"bf", "ValueError", "unknown dtype `bf`"},
    {"i", "ValueError", "unknown dtype `i`"},
    {"u", "ValueError", "unknown dtype `u`"},
    {"f", "ValueError", "unknown dtype `f`"},
    {"b", "ValueError", "unknown dtype `b`"},
    {"ix4", "ValueError", "unknown dtype `ix4`"},
    {"fx4", "ValueError", "unknown dtype `fx4`"},
    {"bfx4", "ValueError", "unknown dtype `bfx4`"},
    {"fp8", "ValueError", "unknown dtype `fp8`"},
    {"fp6", "ValueError", "unknown dtype `fp6`"},
    {"fp4", "ValueError", "unknown dtype `fp4`"},
    {"fp16", "ValueError", "unknown dtype `fp16`"},
    {"fp8x4", "ValueError", "unknown dtype `fp8x4`"},
    {"abc", "ValueError", "unknown dtype `abc`"},
    {"complex64", "ValueError", "unknown dtype `complex64`"},
    {"complex", "ValueError", "unknown dtype `complex`"},
    {"INT8", "ValueError", "unknown dtype `INT8`"},
    {"Float32", "ValueError", "unknown dtype `Float32`"},
    {" int32", "ValueError", "unknown dtype ` int32`"},
    {"int32 ", "ValueError", "unknown dtype `int32 `"},
    {"int8x4 ", "ValueError", "int8x4 "},
    {"int 8", "ValueError", "unknown dtype `int 8`"},
    {"int+32", "ValueError", "unknown dtype `int+32`"},
    {"int-1", "ValueError", "unknown dtype `int-1`"},
    {"int8abc", "ValueError", "unknown dtype `int8abc`"},
    {"intabc", "ValueError", "unknown dtype `intabc`"},
    {"int32_x4", "ValueError", "unknown dtype `int32_x4`"},
    {"e4m3fn", "ValueError", "unknown dtype `e4m3fn`"},
    {"voidx4", "ValueError", "unknown dtype `voidx4`"},
    {"void32", "ValueError", "unknown dtype `void32`"},
    {"handlle", "ValueError", "unknown dtype `handlle`"},
    {"x4", "ValueError", "unknown dtype `x4`"},
    {"int32x0", "ValueError",
     "Invalid lanes specification in dtype 'int32x0'. Lanes must be a positive integer."},
    {"int32x", "ValueError", "Invalid lanes specification in dtype 'int32x'"},
    {"int32x-1", "ValueError", "Invalid lanes specification in dtype 'int32x-1'"},
    {"int32x+4", "ValueError", "Invalid lanes specification in dtype 'int32x+4'"},
    {"int32xx4", "ValueError", "Invalid lanes specification in dtype 'int32xx4'"},
    {"int32xv", "ValueError", "Invalid lanes specification in dtype 'int32xv'"},
    {"int32xvscalex", "ValueError", "Invalid lanes specification in dtype 'int32xvscalex'"},
    {"int32xvscalexx", "ValueError", "Invalid lanes specification in dtype 'int32xvscalexx'"},
    {"int32xvscalex0", "ValueError", "Invalid lanes specification in dtype 'int32xvscalex0'"},
    {"int32xvscale", "ValueError", "Invalid lanes specification"}, /* tether: tvm-ffi: lanes 1 */
    {"int32x4x4", "ValueError", "'int32x4x4'"},
    {"int32x4abc", "ValueError", "'int32x4abc'"},
    {"float4_e2m1fnx2x4", "ValueError", "float4_e2m1fnx2x4"},
    {"float4_e2m1fn_x2x4", "ValueError", "float4_e2m1fn_x2x4"},
    {"float4_e2m1fn_x", "ValueError", "Invalid lanes specification in dtype 'float4_e2m1fn_x'"},
    {"float4_e2m1fn_x0", "ValueError", "Invalid lanes specification in dtype 'float4_e2m1fn_x0'"},
    {"float4_e2m1fnx", "ValueError", "Invalid lanes specification in dtype 'float4_e2m1fnx'"},
    {"float4_e2m1fnxvscalex2", "ValueError",
     "Invalid lanes specification in dtype 'float4_e2m1fnxvscalex2'"},
    {"float4_e2m1fn_xvscalex2", "ValueError", "Invalid lanes specification"},
    {"fp8_e4m3xvscalex4", "ValueError", "Invalid lanes specification in dtype 'fp8_e4m3xvscalex4'"},
    {"float6_e2m3fnxvscalex2", "ValueError", "Invalid lanes specification"},
    {"int32x65536", "ValueError",
     "Lanes value 65536 is out of range for uint16_t in dtype 'int32x65536'"},
    {"int32xvscalex65536", "ValueError",
     "Lanes value 65536 is out of range for uint16_t in dtype 'int32xvscalex65536'"},
    {"int32x4294967295", "ValueError",
     "Lanes value 4294967295 is out of range for uint16_t in dtype 'int32x4294967295'"},
    {"int32x4294967296", "ValueError",
     "Integer value in dtype string '4294967296' is out of range for uint32_t"},
    {"float32x99999999999999999999", "ValueError",
     "Integer value in dtype string '99999999999999999999' is out of range for uint32_t"},
    {"int99999999999999999", "ValueError",
     "Integer value in dtype string '99999999999999999' is out of range for uint32_t"},
    {"int4294967296", "ValueError",
     "Integer value in dtype string '4294967296' is out of range for uint32_t"},
    {"int256", "ValueError", "Bits value 256 is out of range for uint8_t in dtype 'int256'"},
    {"int4294967295", "ValueError",
     "Bits value 4294967295 is out of range for uint8_t in dtype 'int4294967295'"},
    {"float8_e4m3fn32", "ValueError", "unknown float8 type `float8_e4m3fn32`"},
    {"float8_e4m3fn8", "ValueError", "unknown float8 type `float8_e4m3fn8`"},
    {"float8_", "ValueError", "unknown float8 type `float8_`"},
    {"f8_", "ValueError", "unknown float8 type `f8_`"},
    {"fp8_e9m9", "ValueError", "unknown float8 type `fp8_e9m9`"},
    {"float8_e4m3fn_x2", "ValueError", "unknown float8 type `float8_e4m3fn_x2`"},
    {"float8_e4m3fnabc", "ValueError", "unknown float8 type `float8_e4m3fnabc`"},
    {"float6_e2m3fn_x2", "ValueError", "unknown float6 type `float6_e2m3fn_x2`"},
    {"float6_e2m1fn", "ValueError", "unknown float6 type `float6_e2m1fn`"},
    {"float4_", "ValueError", "unknown float4 type `float4_`"},
    {"float4_e2m1fn_", "ValueError", "unknown float4 type `float4_e2m1fn_`"}, /* tether */
    {"float4_e4m3fn", "ValueError", "unknown float4 type `float4_e4m3fn`"},
    {"customfoo", "ValueError", "expected opening brace after 'custom' type in customfoo"},
    {"custom", "ValueError", "expected opening brace after 'custom' type in custom"},
    {"custom[", "ValueError", "expected closing brace after 'custom' type in custom["},
    {"custom[foo", "ValueError", "expected closing brace after 'custom' type in custom[foo"},
};

static int parse(const char* text, size_t n, DLDataType* out) {
  TVMFFIByteArray s = {text, n};
  return TVMFFIDataTypeFromString(&s, out);
}

/* Prints t; returns a malloc'd copy of the text, or NULL after checking the call failed. */
static char* print(DLDataType t) {
  TVMFFIAny s = tether_any_none();
  if (TVMFFIDataTypeToString(&t, &s) != 0) return NULL;
  TVMFFIByteArray chars;
  CHECK(tether_any_get_str(&s, &chars));
  char* copy = malloc(chars.size + 1);
  memcpy(copy, chars.data, chars.size);
  copy[chars.size] = '\0';
  tether_any_release(&s);
  return copy;
}

static bool same_dtype(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/* Parses `text`, checks the expected value and printed form, and that it round-trips. */
static void check_valid(const valid_case_t* c) {
  DLDataType t = {0xee, 0xee, 0xeeee};
  int rc = parse(c->text, strlen(c->text), &t);
  CHECK_OK(rc);
  if (rc != 0) {
    fprintf(stderr, "  while parsing \"%s\"\n", c->text);
    return;
  }
  if (t.code != c->code || t.bits != c->bits || t.lanes != c->lanes) {
    fprintf(stderr, "\"%s\" parsed to {%u, %u, %u}, expected {%u, %u, %u}\n", c->text, t.code,
            t.bits, t.lanes, c->code, c->bits, c->lanes);
    CHECK(false);
  }
  char* printed = print(t);
  CHECK_OK(printed == NULL ? -1 : 0);
  if (printed == NULL) return;
  CHECK_EQ_STR(printed, c->printed);
  DLDataType again = {0, 0, 0};
  CHECK_OK(parse(printed, strlen(printed), &again));
  if (!same_dtype(t, again)) {
    fprintf(stderr, "\"%s\" -> \"%s\" does not round-trip\n", c->text, printed);
    CHECK(false);
  }
  free(printed);
}

static void test_valid_forms(void) {
  for (size_t i = 0; i < sizeof(valid_cases) / sizeof(valid_cases[0]); ++i) {
    check_valid(&valid_cases[i]);
  }
}

static void check_bad(const char* text, size_t n, const char* kind, const char* needle) {
  DLDataType t = {1, 2, 3};
  int rc = parse(text, n, &t);
  if (rc == 0) fprintf(stderr, "\"%.*s\" unexpectedly parsed\n", (int)n, text);
  CHECK_RAISED(rc, kind, needle);
  CHECK(t.code == 1 && t.bits == 2 && t.lanes == 3); /* untouched on failure */
}

static void test_malformed_forms(void) {
  for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); ++i) {
    check_bad(bad_cases[i].text, strlen(bad_cases[i].text), bad_cases[i].kind,
              bad_cases[i].needle);
  }
  /* Embedded NULs and non-ASCII bytes are ordinary characters: no match. */
  check_bad("int8\0", 5, "ValueError", "unknown dtype");
  check_bad("int\08", 5, "ValueError", "unknown dtype");
  check_bad("\0", 1, "ValueError", "unknown dtype");
  check_bad("\xff\xfe", 2, "ValueError", "unknown dtype");
  check_bad("void\0", 5, "ValueError", "unknown dtype");
  /* Length is taken from the byte array, not from a NUL. */
  check_bad("int8x4", 5, "ValueError", "Invalid lanes specification in dtype 'int8x'");
  DLDataType t;
  CHECK_OK(parse("int8x4garbage", 6, &t));
  CHECK(t.code == 0 && t.bits == 8 && t.lanes == 4);
}

static void test_bad_arguments(void) {
  DLDataType t;
  TVMFFIByteArray s = {"int8", 4};
  TVMFFIByteArray null_data = {NULL, 4};
  TVMFFIByteArray empty = {NULL, 0};
  TVMFFIAny out = tether_any_none();
  CHECK_RAISED(TVMFFIDataTypeFromString(NULL, &t), "ValueError", "`str` must not be NULL");
  CHECK_RAISED(TVMFFIDataTypeFromString(&s, NULL), "ValueError", "`out` must not be NULL");
  CHECK_RAISED(TVMFFIDataTypeFromString(&null_data, &t), "ValueError", "`str`");
  CHECK_OK(TVMFFIDataTypeFromString(&empty, &t));
  CHECK(t.code == 3 && t.bits == 0 && t.lanes == 0);
  CHECK_RAISED(TVMFFIDataTypeToString(NULL, &out), "ValueError", "`dtype` must not be NULL");
  CHECK_RAISED(TVMFFIDataTypeToString(&t, NULL), "ValueError", "`out` must not be NULL");
}

static void test_print_any_dtype(void) {
  static const struct {
    DLDataType t;
    const char* printed; /* NULL: ValueError naming the code */
  } cases[] = {
      {{3, 0, 0}, ""},
      {{3, 0, 1}, "handle0"},  /* tether: tvm-ffi prints "handle" */
      {{6, 0, 1}, "bool0"},
      {{6, 0, 4}, "bool0x4"},
      {{3, 64, 0}, "handle"},
      {{0, 32, 0}, "int32"},
      {{2, 32, 0}, "float32"},
      {{0, 0, 0}, "int0"},
      {{2, 0, 1}, "float0"},
      {{1, 0, 1}, "uint0"},
      {{4, 0, 1}, "bfloat0"},
      {{6, 1, 1}, "bool1"},
      {{10, 16, 1}, "float8_e4m3fn"},
      {{10, 8, 4}, "float8_e4m3fnx4"},
      {{17, 8, 2}, "float4_e2m1fnx2"},
      {{0, 32, 40000}, "int32xvscalex25536"},
      {{0, 32, 32768}, "int32xvscalex32768"},
      {{0, 32, 65534}, "int32xvscalex2"},
      {{0, 32, 65535}, "int32xvscalex1"},
      {{6, 8, 65535}, "boolxvscalex1"},
      {{3, 32, 4}, "handle32x4"},
      {{2, 16, 65535 - 1}, "float16xvscalex2"},
      {{5, 64, 1}, NULL},
      {{5, 128, 2}, NULL},
      {{18, 8, 1}, NULL},
      {{128, 32, 1}, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char* printed = print(cases[i].t);
    if (cases[i].printed == NULL) {
      char needle[64];
      snprintf(needle, sizeof(needle), "DLDataType contains unknown type_code=%u", cases[i].t.code);
      CHECK(printed == NULL);
      CHECK_RAISED(-1, "ValueError", needle);
    } else {
      CHECK_EQ_STR(printed, cases[i].printed);
    }
    free(printed);
  }
}

/* ---- custom[name] ------------------------------------------------------------------------ */

static int custom_code(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray name;
  if (n != 1 || !tether_any_get_str(&args[0], &name)) {
    return tether_raise("TypeError", "custom_code: expected one str");
  }
  static const struct {
    const char* name;
    int64_t code;
  } codes[] = {{"foo", 130}, {"fooxbar", 131}, {"", 132}, {"big", 300}, {"low", 5}};
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); ++i) {
    if (name.size == strlen(codes[i].name) && memcmp(name.data, codes[i].name, name.size) == 0) {
      *result = tether_any_int(codes[i].code);
      return 0;
    }
  }
  if (name.size == 3 && memcmp(name.data, "str", 3) == 0) return tether_any_str("s", 1, result);
  return tether_raise("KeyError", "custom_code: no custom type `%.*s`", (int)name.size, name.data);
}

static int custom_name(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (n != 1 || args[0].type_index != kTVMFFIInt) {
    return tether_raise("TypeError", "custom_name: expected one int");
  }
  switch (args[0].v_int64) {
    case 129: return tether_any_str("other", 5, result);
    case 130: return tether_any_str("foo", 3, result);
    case 131: return tether_any_str("fooxbar", 7, result);
    case 132: return tether_any_str("", 0, result);
    case 133: return tether_any_str("a rather long custom type name", 30, result);
    case 140: *result = tether_any_int(1); return 0;
    default: return tether_raise("KeyError", "custom_name: no code %" PRId64, args[0].v_int64);
  }
}

/* Registers (on) or removes (off) the two custom-dtype globals. */
static void set_custom_globals(bool on) {
  static const char* const names[] = {"dtype.get_custom_type_code", "dtype.get_custom_type_name"};
  static const TVMFFISafeCallType fns[] = {custom_code, custom_name};
  TVMFFIObjectHandle remove = NULL;
  if (!on) {
    TVMFFIByteArray remove_name = {"ffi.FunctionRemoveGlobal", 24};
    CHECK_OK(TVMFFIFunctionGetGlobal(&remove_name, &remove));
    if (remove == NULL) return;
  }
  for (size_t i = 0; i < 2; ++i) {
    if (on) {
      CHECK_OK(tether_func_register(names[i], fns[i], NULL, NULL, 0));
    } else {
      TVMFFIAny arg = tether_any_raw_str(names[i]), r = tether_any_none();
      CHECK_OK(TVMFFIFunctionCall(remove, &arg, 1, &r));
      CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
    }
  }
  TVMFFIObjectDecRef(remove);
}

static void check_custom_missing(void) {
  check_bad("custom[foo]", 11, "ValueError", "Function dtype.get_custom_type_code not found");
  CHECK(print((DLDataType){130, 32, 1}) == NULL);
  CHECK_RAISED(-1, "ValueError", "Function dtype.get_custom_type_name not found");
}

static void test_custom(void) {
  check_custom_missing();
  set_custom_globals(true);
  static const valid_case_t custom_valid[] = {
      {"custom[foo]", 130, 32, 1, "custom[foo]"},
      {"custom[foo]32", 130, 32, 1, "custom[foo]"},
      {"custom[foo]0", 130, 32, 1, "custom[foo]"},
      {"custom[foo]x4", 130, 32, 4, "custom[foo]x4"},
      {"custom[foo]16x4", 130, 16, 4, "custom[foo]16x4"}, /* tether: tvm-ffi drops the 16 */
      {"custom[fooxbar]x2", 131, 32, 2, "custom[fooxbar]x2"},
      {"custom[]", 132, 32, 1, "custom[]"},
      {"custom[foo]xvscalex2", 130, 32, 65534, "custom[foo]xvscalex2"},
  };
  for (size_t i = 0; i < sizeof(custom_valid) / sizeof(custom_valid[0]); ++i) {
    check_valid(&custom_valid[i]);
  }
  check_bad("custom[a]b]", 11, "KeyError", "no custom type `a`");
  check_bad("custom[foo]b]", 13, "ValueError", "unknown dtype `custom[foo]b]`");
  check_bad("custom[foo]256", 14, "ValueError", "Bits value 256");
  check_bad("custom[foo]x0", 13, "ValueError", "Invalid lanes specification");
  check_bad("custom[big]", 11, "ValueError", "returned 300");
  check_bad("custom[low]", 11, "ValueError", "returned 5");
  check_bad("custom[str]", 11, "TypeError", "must return an int");
  char* printed = print((DLDataType){129, 8, 4});
  CHECK_EQ_STR(printed, "custom[other]8x4");
  free(printed);
  printed = print((DLDataType){133, 32, 1});
  CHECK_EQ_STR(printed, "custom[a rather long custom type name]");
  free(printed);
  CHECK(print((DLDataType){140, 8, 1}) == NULL);
  CHECK_RAISED(-1, "TypeError", "must return a str");
  CHECK(print((DLDataType){255, 8, 1}) == NULL);
  CHECK_RAISED(-1, "KeyError", "no code 255");
  set_custom_globals(false);
  check_custom_missing();
}

TEST_MAIN(TEST_CASE(test_valid_forms), TEST_CASE(test_malformed_forms),
          TEST_CASE(test_bad_arguments), TEST_CASE(test_print_any_dtype), TEST_CASE(test_custom))
