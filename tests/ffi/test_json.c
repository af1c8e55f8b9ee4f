/*
 * test_json.c -- the JSON reader and writer (src/ffi/json.c): values, escapes, numbers,
 * error texts and positions, deep nesting, and the globals ffi.json.Parse / Stringify.
 */
#include <math.h>
#include <stdlib.h>

#include <tether/container.h>
#include <tether/json.h>

#include "test.h"

/* Parses `text`; the value, or None after CHECK-failing. */
static TVMFFIAny parse(const char* text) {
  TVMFFIAny v = tether_any_none();
  CHECK_OK(tether_json_parse(text, strlen(text), &v, NULL));
  return v;
}

/* Writes `v` (then releases it) and compares with `want`. */
static void check_text(TVMFFIAny v, int indent, const char* want) {
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray text = {"", 0};
  CHECK_OK(tether_json_stringify(&v, indent, &s));
  CHECK(tether_any_get_str(&s, &text));
  CHECK_BYTES(text, want);
  tether_any_release(&s);
  tether_any_release(&v);
}

/* Parse then write compactly. */
static void check_round(const char* text, const char* want) {
  check_text(parse(text), 0, want);
}

/* The error message the parser reports for `text` (through error_msg). */
static void check_error(const char* text, size_t len, const char* want) {
  TVMFFIAny v = tether_any_int(7), msg = tether_any_none();
  TVMFFIByteArray m = {"", 0};
  CHECK_OK(tether_json_parse(text, len, &v, &msg));
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
  CHECK(tether_any_get_str(&msg, &m));
  CHECK_BYTES(m, want);
  tether_any_release(&msg);
  tether_any_release(&v);
}

static void test_json_literals_and_numbers(void) {
  TVMFFIAny v = parse(" true ");
  CHECK(v.type_index == kTVMFFIBool && v.v_int64 == 1);
  v = parse("false");
  CHECK(v.type_index == kTVMFFIBool && v.v_int64 == 0);
  v = parse("\n null\r\t");
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
  v = parse("-124");
  CHECK(v.type_index == kTVMFFIInt && v.v_int64 == -124);
  v = parse("9223372036854775807");
  CHECK(v.type_index == kTVMFFIInt && v.v_int64 == INT64_MAX);
  v = parse("-9223372036854775808");
  CHECK(v.type_index == kTVMFFIInt && v.v_int64 == INT64_MIN);
  v = parse("9223372036854775808"); /* beyond int64: a float, as tvm-ffi */
  CHECK(v.type_index == kTVMFFIFloat && v.v_float64 == 9223372036854775808.0);
  v = parse("-0");
  CHECK(v.type_index == kTVMFFIInt && v.v_int64 == 0);
  v = parse("-0.0");
  CHECK(v.type_index == kTVMFFIFloat && v.v_float64 == 0 && signbit(v.v_float64));
  v = parse("123.456E+10");
  CHECK(v.type_index == kTVMFFIFloat && v.v_float64 == 123.456E+10);
  v = parse("1e-10");
  CHECK(v.type_index == kTVMFFIFloat && v.v_float64 == 1e-10);
  v = parse("NaN");
  CHECK(v.type_index == kTVMFFIFloat && isnan(v.v_float64));
  v = parse("-Infinity");
  CHECK(v.type_index == kTVMFFIFloat && isinf(v.v_float64) && v.v_float64 < 0);
  v = parse("Infinity");
  CHECK(v.type_index == kTVMFFIFloat && isinf(v.v_float64) && v.v_float64 > 0);
}

static void test_json_strings_and_escapes(void) {
  TVMFFIAny v = parse("\"\\ta\\n\\/\\f\\\"\\\\\\b\\r\"");
  TVMFFIByteArray s;
  CHECK(tether_any_get_str(&v, &s));
  CHECK_BYTES(s, "\ta\n/\f\"\\\b\r");
  tether_any_release(&v);
  v = parse("\"\\u0041\\u00FF\\u4E2D\\uD83D\\uDE04!\"");
  CHECK(tether_any_get_str(&v, &s));
  CHECK_BYTES(s, "A\xC3\xBF\xE4\xB8\xAD\xF0\x9F\x98\x84!");
  tether_any_release(&v);
  v = parse("\"\\u0000x\"");
  CHECK(tether_any_get_str(&v, &s) && s.size == 2 && s.data[0] == '\0' && s.data[1] == 'x');
  tether_any_release(&v);
  v = parse("\"\xE4\xB8\xAD raw utf-8 and \x7f\"");
  CHECK(tether_any_get_str(&v, &s));
  CHECK_BYTES(s, "\xE4\xB8\xAD raw utf-8 and \x7f");
  tether_any_release(&v);
  /* the writer escapes what tvm-ffi escapes, and passes other bytes through */
  TVMFFIAny w;
  CHECK_OK(tether_any_str("q\"b\\s/n\nt\tc\x01\x7f\xC3\xBF", 15, &w));
  check_text(w, 0, "\"q\\\"b\\\\s\\/n\\nt\\tc\\u0001\\u007f\xC3\xBF\"");
  check_round("\"\\b\\f\\r\"", "\"\\b\\f\\r\"");
}

static void test_json_containers_keep_order(void) {
  check_round(" [ 1 , 2 ,\n\t\"a\" , [ ] , { } ] ", "[1,2,\"a\",[],{}]");
  check_round("{\"c\": 1, \"a\": 2, \"b\": [true, null, 1.5]}",
              "{\"c\":1,\"a\":2,\"b\":[true,null,1.5]}");
  /* a repeated key keeps its first place and its last value */
  check_round("{\"k\": 1, \"j\": 2, \"k\": 3}", "{\"k\":3,\"j\":2}");
  TVMFFIAny v = parse("{\"zebra\": \"last\", \"alpha\": \"first\", \"beta\": \"middle\", "
                      "\"gamma\": 123, \"delta\": true}");
  CHECK_EQ_INT(v.type_index, kTVMFFIMap);
  CHECK_EQ_INT(tether_map_size(v.v_obj), 5);
  check_text(v, 2,
             "{\n  \"zebra\": \"last\",\n  \"alpha\": \"first\",\n  \"beta\": \"middle\",\n"
             "  \"gamma\": 123,\n  \"delta\": true\n}");
  check_text(parse("[1,[],{},{\"a\":[2,{\"b\":null}]}]"), 2,
             "[\n  1,\n  [\n  ],\n  {\n  },\n  {\n    \"a\": [\n      2,\n      {\n"
             "        \"b\": null\n      }\n    ]\n  }\n]");
  check_text(parse("[]"), 0, "[]");
  check_text(parse("{}"), 0, "{}");
}

static void test_json_writer_numbers(void) {
  check_text(tether_any_int(INT64_MIN), 0, "-9223372036854775808");
  check_text(tether_any_float(5.0), 0, "5.0");
  check_text(tether_any_float(-10.0), 0, "-10.0");
  check_text(tether_any_float(-0.0), 0, "-0.0");
  check_text(tether_any_float(2.5), 0, "2.5");
  check_text(tether_any_float(0.1), 0, "0.10000000000000001");
  check_text(tether_any_float(-7.89e-15), 0, "-7.89e-15");
  check_text(tether_any_float(2e-8), 0, "2e-08");
  check_text(tether_any_float(1e300), 0, "1.0000000000000001e+300");
  check_text(tether_any_float(9007199254740992.0), 0, "9007199254740992");
  check_text(tether_any_float(NAN), 0, "NaN");
  check_text(tether_any_float(-INFINITY), 0, "-Infinity");
  check_text(tether_any_bool(false), 0, "false");
  check_text(tether_any_none(), 0, "null");
  /* every double the writer prints reads back to the same bits */
  const double samples[] = {0.1, 1.0 / 3, -2.5e-300, 1.7976931348623157e308, 123456789.125, 1e22};
  for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); ++i) {
    TVMFFIAny f = tether_any_float(samples[i]), s, back = tether_any_none();
    TVMFFIByteArray text;
    CHECK_OK(tether_json_stringify(&f, 0, &s));
    CHECK(tether_any_get_str(&s, &text));
    CHECK_OK(tether_json_parse(text.data, text.size, &back, NULL));
    CHECK(back.type_index == kTVMFFIFloat && back.v_float64 == samples[i]);
    tether_any_release(&s);
  }
}

static void test_json_syntax_errors(void) {
  static const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"", "Expecting value: line 1 column 1 (char 0)"},
      {"   \t\n    ", "Expecting value: line 2 column 5 (char 9)"},
      {"nul", "Expecting value: line 1 column 1 (char 0)"},
      {"\n\nfx", "Expecting value: line 3 column 1 (char 2)"},
      {"t1", "Expecting value: line 1 column 1 (char 0)"},
      {"123.456.789", "Expecting value: line 1 column 1 (char 0)"},
      {"123e+", "Expecting value: line 1 column 1 (char 0)"},
      {"1e400", "Expecting value: line 1 column 1 (char 0)"},
      {"-Inf", "Expecting value: line 1 column 1 (char 0)"},
      {"\"hello", "Unterminated string starting at: line 1 column 1 (char 0)"},
      {"\"hello\\", "Invalid \\escape: line 1 column 8 (char 7)"},
      {"\"hello\x01\"", "Invalid control character at: line 1 column 7 (char 6)"},
      {"\"hello\\uxx\"", "Invalid \\uXXXX escape: line 1 column 8 (char 7)"},
      {"\"hello\\u12", "Invalid \\uXXXX escape: line 1 column 8 (char 7)"},
      {"\"hello\\uDC00\\uDE04\"", "Invalid surrogate pair of \\uXXXX escapes: line 1 column 8 (char 7)"},
      {"\"hello\\uD800\"", "Invalid surrogate pair of \\uXXXX escapes: line 1 column 8 (char 7)"},
      {"\"hello\\uD800\\uxx\"", "Invalid \\uXXXX escape: line 1 column 15 (char 14)"},
      {"\"hello\\uD800\\u0041\"", "Invalid surrogate pair of \\uXXXX escapes: line 1 column 15 (char 14)"},
      {"\"hello\\a\"", "Invalid \\escape: line 1 column 8 (char 7)"},
      {"]", "Expecting value: line 1 column 1 (char 0)"},
      {"[1,]", "Expecting value: line 1 column 4 (char 3)"},
      {"[", "Expecting value: line 1 column 2 (char 1)"},
      {"[1a", "Expecting ',' delimiter: line 1 column 3 (char 2)"},
      {"[1,2,3", "Expecting ',' delimiter: line 1 column 7 (char 6)"},
      {"[1,", "Syntax error near: line 1 column 4 (char 3)"},
      {"[1]  a", "Extra data: line 1 column 6 (char 5)"},
      {"{\"a\":", "Expecting value: line 1 column 6 (char 5)"},
      {"{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
      {"{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
      {"{\"a\":1,}", "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"},
      {"{\"incomplete\"", "Expecting ':' delimiter: line 1 column 14 (char 13)"},
      {"{\"a\":\n\n[1]", "Expecting ',' delimiter: line 3 column 4 (char 10)"},
      {"{\"a\":\n\n[abc]}", "Expecting value: line 3 column 2 (char 8)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_error(cases[i].text, strlen(cases[i].text), cases[i].message);
  }
  /* an embedded NUL byte is data, not the end */
  check_error("[1]\0", 4, "Extra data: line 1 column 4 (char 3)");
  /* without error_msg: a ValueError naming the function and the position */
  TVMFFIAny v = tether_any_none();
  CHECK_RAISED(tether_json_parse("[1,]", 4, &v, NULL), "ValueError",
               "ffi.json.Parse: Expecting value: line 1 column 4 (char 3)");
  CHECK_EQ_INT(v.type_index, kTVMFFINone);
}

static void test_json_deep_nesting(void) {
  /* Levels of arrays, then of objects: neither the reader nor the writer recurses.  (The
   * depth is bounded by what releasing the nested containers takes, not by json.c.) */
  const int depth = 20000;
  char* text = malloc((size_t)depth * 6 + 16);
  size_t n = 0;
  for (int i = 0; i < depth; ++i) text[n++] = '[';
  text[n++] = '7';
  for (int i = 0; i < depth; ++i) text[n++] = ']';
  TVMFFIAny v = tether_any_none(), out = tether_any_none();
  CHECK_OK(tether_json_parse(text, n, &v, NULL));
  CHECK_OK(tether_json_stringify(&v, 0, &out));
  TVMFFIByteArray s = {"", 0};
  CHECK(tether_any_get_str(&out, &s) && s.size == n && memcmp(s.data, text, n) == 0);
  tether_any_release(&out);
  tether_any_release(&v);
  n = 0;
  for (int i = 0; i < depth; ++i) {
    memcpy(text + n, "{\"k\":", 5);
    n += 5;
  }
  text[n++] = '1';
  for (int i = 0; i < depth; ++i) text[n++] = '}';
  CHECK_OK(tether_json_parse(text, n, &v, NULL));
  CHECK_OK(tether_json_stringify(&v, 1, &out));
  tether_any_release(&out);
  tether_any_release(&v);
  /* unclosed at depth: an error, and everything built so far is released */
  TVMFFIAny msg = tether_any_none();
  CHECK_OK(tether_json_parse(text, n - 1, &v, &msg));
  CHECK(tether_any_get_str(&msg, &s) && strstr(s.data, "Expecting ',' delimiter") != NULL);
  tether_any_release(&msg);
  free(text);
}

static void test_json_writer_errors(void) {
  TVMFFIAny out = tether_any_none();
  TVMFFIObjectHandle dict = NULL, list = NULL, map = NULL;
  TVMFFIAny k = tether_any_int(1), v = tether_any_int(2);
  TVMFFIAny kv[2] = {k, v};
  CHECK_OK(tether_dict_new(kv, 1, &dict));
  TVMFFIAny d = tether_any_object(dict);
  CHECK_RAISED(tether_json_stringify(&d, 0, &out), "ValueError", "Unsupported type: `ffi.Dict`");
  CHECK_OK(tether_map_new(kv, 1, &map));
  TVMFFIAny m = tether_any_object(map);
  CHECK_RAISED(tether_json_stringify(&m, 0, &out), "ValueError",
               "Expect key to be string, got `int`");
  CHECK_OK(tether_list_new(NULL, 0, &list));
  TVMFFIAny l = tether_any_object(list);
  CHECK_OK(tether_list_append(list, &l)); /* the list contains itself */
  CHECK_RAISED(tether_json_stringify(&l, 0, &out), "ValueError",
               "Cycle detected: ffi.List contains itself");
  CHECK_OK(tether_list_clear(list));
  TVMFFIAny p = tether_any_ptr(&out);
  CHECK_RAISED(tether_json_stringify(&p, 0, &out), "ValueError", "Unsupported type: `void*`");
  CHECK_RAISED(tether_json_stringify(&p, -1, &out), "ValueError", "indent");
  TVMFFIObjectDecRef(dict);
  TVMFFIObjectDecRef(map);
  TVMFFIObjectDecRef(list);
}

static void test_json_globals(void) {
  TVMFFIObjectHandle parse_fn = tether_func_get("ffi.json.Parse");
  TVMFFIObjectHandle stringify_fn = tether_func_get("ffi.json.Stringify");
  CHECK(parse_fn != NULL && stringify_fn != NULL);
  TVMFFIAny arg = tether_any_raw_str("{\"a\": [1, 2.0, \"x\"]}"), value = tether_any_none();
  CHECK_OK(tether_func_call(parse_fn, &arg, 1, &value));
  TVMFFIAny args[2] = {value, tether_any_none()}, text = tether_any_none();
  CHECK_OK(tether_func_call(stringify_fn, args, 2, &text));
  TVMFFIByteArray s = {"", 0};
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, "{\"a\":[1,2.0,\"x\"]}");
  tether_any_release(&text);
  args[1] = tether_any_int(4);
  CHECK_OK(tether_func_call(stringify_fn, args, 2, &text));
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, "{\n    \"a\": [\n        1,\n        2.0,\n        \"x\"\n    ]\n}");
  tether_any_release(&text);
  CHECK_RAISED(tether_func_call(stringify_fn, args, 1, &text), "TypeError", "ffi.json.Stringify");
  arg = tether_any_raw_str("[1,");
  CHECK_RAISED(tether_func_call(parse_fn, &arg, 1, &text), "ValueError",
               "ffi.json.Parse: Syntax error near: line 1 column 4 (char 3)");
  arg = tether_any_int(3);
  CHECK_RAISED(tether_func_call(parse_fn, &arg, 1, &text), "TypeError", "ffi.json.Parse");
  tether_any_release(&value);
  TVMFFIObjectDecRef(parse_fn);
  TVMFFIObjectDecRef(stringify_fn);
}

TEST_MAIN(TEST_CASE(test_json_literals_and_numbers), TEST_CASE(test_json_strings_and_escapes),
          TEST_CASE(test_json_containers_keep_order), TEST_CASE(test_json_writer_numbers),
          TEST_CASE(test_json_syntax_errors), TEST_CASE(test_json_deep_nesting),
          TEST_CASE(test_json_writer_errors), TEST_CASE(test_json_globals))
