/*
 * fuzz_json.c -- libFuzzer target for the JSON reader and writer (src/ffi/json.c): any
 * byte string either fails with a ValueError parked (never a crash), or parses to a value
 * whose text (compact and indented) parses back to a value with the same text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/json.h>
#include <tether/tether.h>

static void fuzz_json_fail(const char* what, const uint8_t* data, size_t size) {
  fprintf(stderr, "fuzz_json: %s for input \"%.*s\" (%zu bytes)\n", what, (int)size,
          (const char*)data, size);
  abort();
}

/* Writes v with `indent`, reads it back and writes again: both texts must be equal. */
static void fuzz_json_round(const TVMFFIAny* v, int indent, const uint8_t* data, size_t size) {
  TVMFFIAny text = tether_any_none(), again = tether_any_none(), text2 = tether_any_none();
  TVMFFIByteArray a, b;
  if (tether_json_stringify(v, indent, &text) != 0) fuzz_json_fail("a parsed value does not write", data, size);
  if (!tether_any_get_str(&text, &a)) fuzz_json_fail("the writer gave a non-string", data, size);
  if (tether_json_parse(a.data, a.size, &again, NULL) != 0) {
    fuzz_json_fail("written text does not parse", data, size);
  }
  if (tether_json_stringify(&again, indent, &text2) != 0 || !tether_any_get_str(&text2, &b) ||
      a.size != b.size || memcmp(a.data, b.data, a.size) != 0) {
    fuzz_json_fail("no round trip", data, size);
  }
  tether_any_release(&text);
  tether_any_release(&text2);
  tether_any_release(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TVMFFIAny v = tether_any_none(), msg = tether_any_none();
  if (tether_json_parse((const char*)data, size, &v, NULL) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err == NULL) fuzz_json_fail("failure without an error", data, size);
    TVMFFIByteArray kind = tether_error_kind(err);
    if (kind.size != 10 || memcmp(kind.data, "ValueError", 10) != 0) {
      fuzz_json_fail("failure that is not a ValueError", data, size);
    }
    TVMFFIObjectDecRef(err);
    /* the error_msg form reports the same failure without raising */
    TVMFFIAny none = tether_any_none();
    if (tether_json_parse((const char*)data, size, &none, &msg) != 0 ||
        none.type_index != kTVMFFINone || msg.type_index == kTVMFFINone) {
      fuzz_json_fail("error_msg form disagrees", data, size);
    }
    tether_any_release(&msg);
    return 0;
  }
  fuzz_json_round(&v, 0, data, size);
  fuzz_json_round(&v, 2, data, size);
  tether_any_release(&v);
  return 0;
}
