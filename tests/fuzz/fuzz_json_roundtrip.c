/*
 * fuzz_json_roundtrip.c -- libFuzzer target for writing then reading JSON graphs: the input
 * bytes are a little program that builds a graph of values (ints including the extremes,
 * floats including -0.0, infinities and NaN, bools, None, strings and bytes with any byte
 * (quotes, backslashes, control characters, non-ASCII), DataType, Device, Shape, Array,
 * List, Map and Dict that refer to earlier values (so values are shared), CPU tensors,
 * BigInts, and Lists / Dicts made to contain themselves).  Then:
 *   - ffi.ToJSONGraphString either fails with an error parked (a cycle: ValueError) or gives
 *     a text, which is also what tether_json_stringify prints for ffi.ToJSONGraph's value;
 *   - ffi.FromJSONGraphString of that text, and tether_from_json_graph of the parsed text,
 *     both succeed, and writing each result again gives the same text (so the sharing is
 *     the same: every node and every reference);
 *   - without NaN, tensors (compared by identity) or container keys (looked up by identity)
 *     in the graph, the value read back is ffi.RecursiveEq to the one written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/container.h>
#include <tether/json.h>
#include <tether/tensor.h>
#include <tether/tether.h>

#define MAX_VALUES 64
#define MAX_ITEMS 8

static void fuzz_fail(const char* what, const char* text) {
  fprintf(stderr, "fuzz_json_roundtrip: %s\n  text: %.2000s\n", what, text != NULL ? text : "");
  abort();
}

/* The input, read front to back; past the end everything reads as 0. */
typedef struct {
  const uint8_t* data;
  size_t size;
  size_t pos;
} reader;

static uint8_t next_byte(reader* r) { return r->pos < r->size ? r->data[r->pos++] : 0; }

static uint64_t next_u64(reader* r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= (uint64_t)next_byte(r) << (8 * i);
  return v;
}

/* A byte string of up to 40 bytes, from the input. */
static size_t next_bytes(reader* r, char* out) {
  size_t n = next_byte(r) % 41;
  for (size_t i = 0; i < n; ++i) out[i] = (char)next_byte(r);
  return n;
}

typedef struct {
  TVMFFIAny values[MAX_VALUES];
  int n;
  bool by_identity; /* RecursiveEq cannot compare the round trip (see below) */
} graph;

static void add(graph* g, TVMFFIAny v) {
  if (g->n < MAX_VALUES) {
    g->values[g->n++] = v;
  } else {
    tether_any_release(&v);
  }
}

/* One of the values made so far (borrowed), or None. */
static TVMFFIAny pick(graph* g, reader* r) {
  if (g->n == 0) return tether_any_none();
  return g->values[next_byte(r) % g->n];
}

/* Prints the parked error, if any (consuming it). */
static void print_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return;
  TVMFFIErrorCell* cell = (TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
  fprintf(stderr, "%.*s: %.*s\n", (int)cell->kind.size, cell->kind.data,
          (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
}

static void check_ok(int rc, const char* what) {
  if (rc != 0) {
    print_error();
    fprintf(stderr, "fuzz_json_roundtrip: %s failed\n", what);
    abort();
  }
}

static void make_value(graph* g, reader* r) {
  static const int64_t ints[] = {0, 1, -1, INT64_MAX, INT64_MIN, 9007199254740992LL,
                                 -9007199254740993LL, 1000000000000000000LL};
  static const DLDataType dtypes[] = {{kDLFloat, 32, 1}, {kDLInt, 8, 1},  {kDLUInt, 1, 1},
                                      {kDLInt, 4, 1},    {kDLFloat, 16, 4}, {kDLBfloat, 16, 1},
                                      {kDLInt, 64, 1},   {kDLUInt, 8, 2}};
  char buf[48];
  TVMFFIAny v = tether_any_none();
  TVMFFIObjectHandle obj = NULL;
  uint8_t op = next_byte(r) % 17;
  switch (op) {
    case 0:
      break; /* None */
    case 1: {
      uint8_t k = next_byte(r);
      v = tether_any_int(k < 8 ? ints[k] : (int64_t)next_u64(r));
      break;
    }
    case 2: {
      static const double floats[] = {0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, 0.1, 9007199254740992.0};
      uint8_t k = next_byte(r);
      double d;
      if (k < 8) {
        d = floats[k];
      } else if (k < 12) {
        d = k == 8 ? INFINITY : k == 9 ? -INFINITY : NAN;
      } else {
        uint64_t bits = next_u64(r);
        memcpy(&d, &bits, 8);
      }
      if (isnan(d)) { /* the text has one NaN: payloads and signs of NaN do not survive */
        d = NAN;
        g->by_identity = true;
      }
      v = tether_any_float(d);
      break;
    }
    case 3:
      v = tether_any_bool(next_byte(r) & 1);
      break;
    case 4: {
      size_t n = next_bytes(r, buf);
      check_ok(tether_any_str(buf, n, &v), "making a string");
      break;
    }
    case 5: {
      TVMFFIByteArray b = {buf, next_bytes(r, buf)};
      check_ok(TVMFFIBytesFromByteArray(&b, &v), "making bytes");
      break;
    }
    case 6:
      v = tether_any_dtype(dtypes[next_byte(r) % 8]);
      break;
    case 7:
      v = tether_any_device(next_byte(r) % 16, (int32_t)(int8_t)next_byte(r));
      break;
    case 8: {
      int64_t dims[MAX_ITEMS];
      int n = next_byte(r) % MAX_ITEMS;
      for (int i = 0; i < n; ++i) dims[i] = (int64_t)next_u64(r) >> (next_byte(r) % 64);
      check_ok(tether_shape_new(dims, n, &obj), "making a Shape");
      v = tether_any_object(obj);
      break;
    }
    case 9:
    case 10:
    case 11:
    case 12: {
      TVMFFIAny items[2 * MAX_ITEMS];
      int n = next_byte(r) % MAX_ITEMS;
      bool is_map = op >= 11;
      for (int i = 0; i < (is_map ? 2 * n : n); ++i) {
        items[i] = pick(g, r);
        int32_t t = items[i].type_index;
        if (is_map && i % 2 == 0 && t >= kTVMFFIStaticObjectBegin && t != kTVMFFIStr &&
            t != kTVMFFIBytes && t != kTVMFFIBigInt) {
          g->by_identity = true;
        }
      }
      int rc = op == 9    ? tether_array_new(items, n, &obj)
               : op == 10 ? tether_list_new(items, n, &obj)
               : op == 11 ? tether_map_new(items, n, &obj)
                          : tether_dict_new(items, n, &obj);
      check_ok(rc, "making a container");
      v = tether_any_object(obj);
      break;
    }
    case 13: {
      DLDataType dtype = dtypes[next_byte(r) % 8];
      int64_t shape[3];
      int ndim = next_byte(r) % 4;
      for (int i = 0; i < ndim; ++i) shape[i] = next_byte(r) % 4;
      check_ok(tether_tensor_empty(shape, ndim, dtype, (DLDevice){kDLCPU, 0}, &obj),
               "making a tensor");
      DLTensor* t = tether_tensor_dl(obj);
      int64_t numel = 1;
      for (int i = 0; i < ndim; ++i) numel *= shape[i];
      size_t nbytes = (size_t)((numel * dtype.bits * dtype.lanes + 7) / 8);
      for (size_t i = 0; i < nbytes; ++i) ((uint8_t*)t->data)[i] = next_byte(r);
      g->by_identity = true;
      v = tether_any_object(obj);
      break;
    }
    case 14: {
      char words[32];
      size_t n = 8 * (1 + next_byte(r) % 4);
      for (size_t i = 0; i < n; ++i) words[i] = (char)next_byte(r);
      TVMFFIByteArray b = {words, n};
      check_ok(TVMFFIBigIntFromByteArray(&b, &v), "making a BigInt");
      break;
    }
    default: { /* a List or Dict made so far gets another value: perhaps itself */
      if (g->n == 0) break;
      TVMFFIAny target = pick(g, r), item = pick(g, r);
      if (target.type_index == kTVMFFIList) {
        check_ok(tether_list_append(target.v_obj, &item), "appending to a List");
      } else if (target.type_index == kTVMFFIDict) {
        TVMFFIAny key = pick(g, r);
        if (key.type_index >= kTVMFFIStaticObjectBegin && key.type_index != kTVMFFIStr &&
            key.type_index != kTVMFFIBytes && key.type_index != kTVMFFIBigInt) {
          g->by_identity = true;
        }
        check_ok(tether_dict_set(target.v_obj, &key, &item), "setting a Dict item");
      }
      return;
    }
  }
  add(g, v);
}

/* The text of ffi.ToJSONGraphString(v), or None after a failure (whose error must be a
 * ValueError, for a cycle). */
static TVMFFIAny write_text(TVMFFIObjectHandle to_string, const TVMFFIAny* v, bool may_fail) {
  TVMFFIAny args[2] = {*v, tether_any_none()}, text = tether_any_none();
  if (TVMFFIFunctionCall(to_string, args, 2, &text) == 0) return text;
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) fuzz_fail("ToJSONGraphString failed without an error", NULL);
  TVMFFIErrorCell* cell = (TVMFFIErrorCell*)((char*)err + sizeof(TVMFFIObject));
  bool value_error = cell->kind.size == 10 && memcmp(cell->kind.data, "ValueError", 10) == 0;
  if (!may_fail || !value_error) {
    fprintf(stderr, "%.*s: %.*s\n", (int)cell->kind.size, cell->kind.data,
            (int)cell->message.size, cell->message.data);
    fuzz_fail(may_fail ? "ToJSONGraphString failed, not with a ValueError"
                       : "a value read back does not write", NULL);
  }
  TVMFFIObjectDecRef(err);
  return tether_any_none();
}

static void expect_same(const TVMFFIAny* a, const TVMFFIAny* b, const char* what) {
  TVMFFIByteArray x, y;
  if (!tether_any_get_str(a, &x) || !tether_any_get_str(b, &y)) fuzz_fail(what, NULL);
  if (x.size != y.size || memcmp(x.data, y.data, x.size) != 0) {
    fprintf(stderr, "  other: %.2000s\n", y.data);
    fuzz_fail(what, x.data);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static TVMFFIObjectHandle to_string, from_string, recursive_eq;
  if (to_string == NULL) {
    to_string = tether_func_get("ffi.ToJSONGraphString");
    from_string = tether_func_get("ffi.FromJSONGraphString");
    recursive_eq = tether_func_get("ffi.RecursiveEq");
    if (to_string == NULL || from_string == NULL || recursive_eq == NULL) {
      fuzz_fail("the JSON graph globals are missing", NULL);
    }
  }
  reader r = {data, size, 0};
  graph g;
  memset(&g, 0, sizeof(g));
  while (r.pos < r.size) make_value(&g, &r);
  /* the root: every value made, in one Array */
  TVMFFIObjectHandle root_obj = NULL;
  check_ok(tether_array_new(g.values, g.n, &root_obj), "making the root");
  TVMFFIAny root = tether_any_object(root_obj);

  TVMFFIAny text = write_text(to_string, &root, true);
  if (text.type_index != kTVMFFINone) {
    TVMFFIByteArray s;
    if (!tether_any_get_str(&text, &s)) fuzz_fail("ToJSONGraphString gave no string", NULL);
    /* the JSON value writer prints the same text */
    TVMFFIAny graph_value = tether_any_none(), text2 = tether_any_none();
    check_ok(tether_to_json_graph(&root, NULL, &graph_value), "ToJSONGraph");
    check_ok(tether_json_stringify(&graph_value, 0, &text2), "Stringify");
    expect_same(&text, &text2, "ToJSONGraph + Stringify differs from ToJSONGraphString");
    tether_any_release(&graph_value);
    tether_any_release(&text2);
    /* read back through the text reader and through the JSON value reader */
    TVMFFIAny back = tether_any_none(), parsed = tether_any_none(), back2 = tether_any_none();
    if (TVMFFIFunctionCall(from_string, &text, 1, &back) != 0) {
      print_error();
      fuzz_fail("FromJSONGraphString rejects what was written", s.data);
    }
    check_ok(tether_json_parse(s.data, s.size, &parsed, NULL), "parsing the written text");
    if (tether_from_json_graph(&parsed, &back2) != 0) {
      print_error();
      fuzz_fail("FromJSONGraph rejects what was written", s.data);
    }
    TVMFFIAny again = write_text(to_string, &back, false);
    expect_same(&text, &again, "written again after FromJSONGraphString: another text");
    TVMFFIAny again2 = write_text(to_string, &back2, false);
    expect_same(&text, &again2, "written again after FromJSONGraph: another text");
    if (!g.by_identity) {
      TVMFFIAny args[2] = {root, back}, eq = tether_any_none();
      check_ok(TVMFFIFunctionCall(recursive_eq, args, 2, &eq), "RecursiveEq");
      if (eq.type_index != kTVMFFIBool || eq.v_int64 == 0) {
        fuzz_fail("the value read back is not RecursiveEq to the value written", s.data);
      }
    }
    tether_any_release(&again);
    tether_any_release(&again2);
    tether_any_release(&back);
    tether_any_release(&back2);
    tether_any_release(&parsed);
    tether_any_release(&text);
  }
  /* break the cycles the program may have made, then release everything */
  for (int i = 0; i < g.n; ++i) {
    if (g.values[i].type_index == kTVMFFIList) tether_list_clear(g.values[i].v_obj);
    if (g.values[i].type_index == kTVMFFIDict) tether_dict_clear(g.values[i].v_obj);
  }
  tether_any_release(&root);
  for (int i = 0; i < g.n; ++i) tether_any_release(&g.values[i]);
  return 0;
}
