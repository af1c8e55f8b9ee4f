/*
 * fuzz_json_graph.c -- libFuzzer target for the JSON graph reader
 * (ffi.FromJSONGraphString): any text either fails with an error parked (never a crash),
 * or gives a value whose graph text reads back to a value with the same graph text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/json.h>
#include <tether/tether.h>

static void fuzz_graph_fail(const char* what, const uint8_t* data, size_t size) {
  fprintf(stderr, "fuzz_json_graph: %s for input \"%.*s\" (%zu bytes)\n", what, (int)size,
          (const char*)data, size);
  abort();
}

/* The graph text of v, or None when v cannot be written (parked error consumed). */
static TVMFFIAny graph_text(const TVMFFIAny* v) {
  TVMFFIAny graph = tether_any_none(), text = tether_any_none();
  if (tether_to_json_graph(v, NULL, &graph) != 0 || tether_json_stringify(&graph, 0, &text) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
  }
  tether_any_release(&graph);
  return text;
}

/* Reads graph text; 0 or -1 with the error consumed (must exist). */
static int read_graph(const char* text, size_t n, TVMFFIAny* out, const uint8_t* data,
                      size_t size) {
  TVMFFIAny doc = tether_any_none();
  int rc = tether_json_parse(text, n, &doc, NULL);
  if (rc == 0) rc = tether_from_json_graph(&doc, out);
  tether_any_release(&doc);
  if (rc != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err == NULL) fuzz_graph_fail("failure without an error", data, size);
    TVMFFIObjectDecRef(err);
  }
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TVMFFIAny v = tether_any_none();
  if (read_graph((const char*)data, size, &v, data, size) != 0) return 0;
  TVMFFIAny text = graph_text(&v);
  TVMFFIByteArray a, b;
  if (!tether_any_get_str(&text, &a)) fuzz_graph_fail("a value read does not write", data, size);
  TVMFFIAny again = tether_any_none();
  if (read_graph(a.data, a.size, &again, data, size) != 0) {
    fuzz_graph_fail("written graph does not read", data, size);
  }
  TVMFFIAny text2 = graph_text(&again);
  if (!tether_any_get_str(&text2, &b) || a.size != b.size || memcmp(a.data, b.data, a.size) != 0) {
    fuzz_graph_fail("no round trip", data, size);
  }
  tether_any_release(&text);
  tether_any_release(&text2);
  tether_any_release(&again);
  tether_any_release(&v);
  return 0;
}
