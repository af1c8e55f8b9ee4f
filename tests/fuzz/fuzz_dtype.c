/*
 * fuzz_dtype.c -- libFuzzer target for the dtype string parser: any byte string either
 * fails with an error parked (never a crash), or parses to a DLDataType that prints to a
 * string which parses back to the same DLDataType.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tether/c_api.h>
#include <tether/tether.h>

static void fuzz_dtype_fail(const char* what, const uint8_t* data, size_t size) {
  fprintf(stderr, "fuzz_dtype: %s for input \"%.*s\" (%zu bytes)\n", what, (int)size,
          (const char*)data, size);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TVMFFIByteArray in = {(const char*)data, size};
  DLDataType t;
  if (TVMFFIDataTypeFromString(&in, &t) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err == NULL) fuzz_dtype_fail("failure without an error", data, size);
    TVMFFIObjectDecRef(err);
    return 0;
  }
  TVMFFIAny printed = tether_any_none();
  if (TVMFFIDataTypeToString(&t, &printed) != 0) fuzz_dtype_fail("printing failed", data, size);
  TVMFFIByteArray text;
  if (!tether_any_get_str(&printed, &text)) fuzz_dtype_fail("printed a non-string", data, size);
  DLDataType again;
  if (TVMFFIDataTypeFromString(&text, &again) != 0) {
    fuzz_dtype_fail("the printed form does not parse", data, size);
  }
  if (again.code != t.code || again.bits != t.bits || again.lanes != t.lanes) {
    fuzz_dtype_fail("no round trip", data, size);
  }
  tether_any_release(&printed);
  return 0;
}
