/*
 * test_serialization.c -- the JSON object graph (src/ffi/serialization.c): the text of
 * every kind of node (compared with what apache-tvm-ffi 0.1.15.post2 writes for the same
 * values), shared references, reflected objects (inline versus referenced fields,
 * defaults, required fields), custom encodings through `__data_to_json__` /
 * `__data_from_json__`, ffi.Tensor's encoding, malformed graphs, deep graphs, and
 * out-of-memory at every allocation.
 */
#include <stddef.h>
#include <stdlib.h>

#include <tether/container.h>
#include <tether/json.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "test.h"

#include "failalloc.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* The graph text of `v` (a view), as a malloc'd C string (NULL after CHECK-failing). */
static char* graph_text(const TVMFFIAny* v, const TVMFFIAny* metadata) {
  TVMFFIAny graph = tether_any_none(), text = tether_any_none();
  TVMFFIByteArray s;
  char* out = NULL;
  int rc = tether_to_json_graph(v, metadata, &graph);
  CHECK_OK(rc);
  if (rc != 0) return NULL;
  CHECK_OK(tether_json_stringify(&graph, 0, &text));
  if (tether_any_get_str(&text, &s)) {
    out = malloc(s.size + 1);
    memcpy(out, s.data, s.size);
    out[s.size] = '\0';
  }
  tether_any_release(&graph);
  tether_any_release(&text);
  return out;
}

static void check_graph(TVMFFIAny v, const char* want) {
  char* got = graph_text(&v, NULL);
  CHECK_EQ_STR(got, want);
  free(got);
  tether_any_release(&v);
}

/* Reads a graph text (through the global, as users do): the value, or None. */
static TVMFFIAny load(const char* text) {
  TVMFFIObjectHandle f = tether_func_get("ffi.FromJSONGraphString");
  TVMFFIAny arg = tether_any_raw_str(text), out = tether_any_none();
  CHECK_OK(tether_func_call(f, &arg, 1, &out));
  TVMFFIObjectDecRef(f);
  return out;
}

/* Reading `text` fails with `kind` and a message containing `needle`. */
static void check_load_fails(const char* text, const char* kind, const char* needle) {
  TVMFFIObjectHandle f = tether_func_get("ffi.FromJSONGraphString");
  TVMFFIAny arg = tether_any_raw_str(text), out = tether_any_none();
  CHECK_RAISED(tether_func_call(f, &arg, 1, &out), kind, needle);
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  TVMFFIObjectDecRef(f);
}

/* write -> text -> read -> write gives the same text; returns the value read. */
static TVMFFIAny round_trip(const TVMFFIAny* v) {
  char* first = graph_text(v, NULL);
  TVMFFIAny back = first != NULL ? load(first) : tether_any_none();
  char* second = graph_text(&back, NULL);
  CHECK_EQ_STR(second, first);
  free(first);
  free(second);
  return back;
}

static TVMFFIAny str(const char* s) {
  TVMFFIAny v = tether_any_none();
  CHECK_OK(tether_any_str(s, strlen(s), &v));
  return v;
}

/* A new Array of copies of the views `items`. */
static TVMFFIAny array_of(const TVMFFIAny* items, int64_t n) {
  TVMFFIObjectHandle h = NULL;
  CHECK_OK(tether_array_new(items, n, &h));
  return h != NULL ? tether_any_object(h) : tether_any_none();
}

static TVMFFIAny array_steal(TVMFFIAny* items, int64_t n) {
  TVMFFIObjectHandle h = NULL;
  CHECK_OK(tether_array_new_steal(items, n, &h));
  return h != NULL ? tether_any_object(h) : tether_any_none();
}

/* ---- reflected test types ------------------------------------------------------------------ */

/* ser.Point: every field kind.  ser.Point3 derives from it (fields: ancestors' first). */
typedef struct {
  TVMFFIObject header;
  int64_t x;
  double y;
  bool flag;
  DLDataType dtype;
  TVMFFIAny name;
  TVMFFIObject* child; /* optional */
  TVMFFIAny payload;
  DLDevice device;
  tether_opt_int64_t axis;
} ser_point_t;

typedef struct {
  ser_point_t base;
  int64_t z;
} ser_point3_t;

/* ser.Counted: written through custom hooks as the string "n=<value>". */
typedef struct {
  TVMFFIObject header;
  int64_t value;
} ser_counted_t;

static int32_t point_index = -1, point3_index = -1, counted_index = -1, bare_index = -1;

static int counted_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  char text[32];
  const ser_counted_t* c = (const ser_counted_t*)args[0].v_obj;
  int len = snprintf(text, sizeof(text), "n=%lld", (long long)c->value);
  return tether_any_str(text, (size_t)len, result);
}

static int counted_from_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIByteArray s;
  TVMFFIObjectHandle obj = NULL;
  if (!tether_any_get_str(&args[0], &s) || s.size < 3 || memcmp(s.data, "n=", 2) != 0) {
    return tether_raise("ValueError", "ser.Counted: expected \"n=<int>\"");
  }
  if (tether_object_new_reflected(counted_index, &obj) != 0) return -1;
  ((ser_counted_t*)obj)->value = strtoll(s.data + 2, NULL, 10);
  *result = tether_any_object(obj);
  return 0;
}

static int32_t new_type(const char* key, int32_t parent) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, -1, parent == kTVMFFIObject ? 1 : 2, 0, 1, parent);
}

static void register_hook(int32_t type_index, const char* column, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f = NULL;
  TVMFFIByteArray name = {column, strlen(column)};
  CHECK_OK(TVMFFIFunctionCreate(NULL, fn, NULL, &f));
  TVMFFIAny v = tether_any_object(f);
  CHECK_OK(TVMFFITypeRegisterAttr(type_index, &name, &v));
  TVMFFIObjectDecRef(f);
}

static void define_types(void) {
  point_index = new_type("ser.Point", kTVMFFIObject);
  point3_index = new_type("ser.Point3", point_index);
  counted_index = new_type("ser.Counted", kTVMFFIObject);
  bare_index = new_type("ser.Bare", kTVMFFIObject); /* no layout, no creator */
  TVMFFIAny d_name = tether_any_raw_str("anon"), d_y = tether_any_float(0.5);
  const tether_field_def_t point_fields[] = {
      {"x", TETHER_FIELD_INT64, offsetof(ser_point_t, x), 0, 0, NULL, NULL},
      {"y", TETHER_FIELD_FLOAT64, offsetof(ser_point_t, y), 0, 0, &d_y, NULL},
      {"flag", TETHER_FIELD_BOOL, offsetof(ser_point_t, flag), 0, 0, NULL, NULL},
      {"dtype", TETHER_FIELD_DTYPE, offsetof(ser_point_t, dtype), 0, 0, NULL, NULL},
      {"name", TETHER_FIELD_STRING, offsetof(ser_point_t, name), 0, 0, &d_name, NULL},
      {"child", TETHER_FIELD_OPT_OBJECT, offsetof(ser_point_t, child), 0, kTVMFFIObject, NULL, NULL},
      {"payload", TETHER_FIELD_ANY, offsetof(ser_point_t, payload), 0, 0, NULL, NULL},
      {"device", TETHER_FIELD_DEVICE, offsetof(ser_point_t, device), 0, 0, NULL, NULL},
      {"axis", TETHER_FIELD_OPT_INT64, offsetof(ser_point_t, axis), 0, 0, NULL, NULL},
  };
  for (size_t i = 0; i < sizeof(point_fields) / sizeof(point_fields[0]); ++i) {
    CHECK_OK(tether_type_def_field(point_index, &point_fields[i]));
  }
  CHECK_OK(tether_type_def_finish(point_index, sizeof(ser_point_t), NULL));
  const tether_field_def_t z = {"z", TETHER_FIELD_INT64, offsetof(ser_point3_t, z), 0, 0, NULL, NULL};
  CHECK_OK(tether_type_def_field(point3_index, &z));
  CHECK_OK(tether_type_def_finish(point3_index, sizeof(ser_point3_t), NULL));
  const tether_field_def_t value = {"value", TETHER_FIELD_INT64, offsetof(ser_counted_t, value),
                                    0, 0, NULL, NULL};
  CHECK_OK(tether_type_def_field(counted_index, &value));
  CHECK_OK(tether_type_def_finish(counted_index, sizeof(ser_counted_t), NULL));
  register_hook(counted_index, "__data_to_json__", counted_to_json);
  register_hook(counted_index, "__data_from_json__", counted_from_json);
}

static TVMFFIAny new_point(int32_t type_index, int64_t x, const char* name, TVMFFIObject* child,
                           TVMFFIAny payload) {
  TVMFFIObjectHandle h = NULL;
  CHECK_OK(tether_object_new_reflected(type_index, &h));
  ser_point_t* p = h;
  p->x = x;
  p->y = 1.25;
  p->flag = true;
  p->dtype = (DLDataType){kDLFloat, 16, 4};
  p->name = str(name);
  p->child = child;
  if (child != NULL) TVMFFIObjectIncRef(child);
  p->payload = payload;
  p->device = (DLDevice){kDLCUDA, 3};
  p->axis = (tether_opt_int64_t){0, false};
  return tether_any_object(h);
}

/* ---- tests ---------------------------------------------------------------------------------- */

/* Texts apache-tvm-ffi 0.1.15.post2 writes for the same values (tvm_ffi.serialization.
 * to_json_graph_str). */
static void test_graph_scalars_and_containers_as_upstream(void) {
  TVMFFIAny pair[2] = {tether_any_int(1), tether_any_int(2)};
  TVMFFIAny kv[2] = {tether_any_raw_str("x"), tether_any_int(1)};
  TVMFFIObjectHandle map = NULL;
  CHECK_OK(tether_map_new(kv, 1, &map));
  TVMFFIAny items[7] = {tether_any_int(1),        tether_any_float(2.0), str("a"),
                        tether_any_none(),        tether_any_bool(true), array_steal(pair, 2),
                        tether_any_object(map)};
  check_graph(array_steal(items, 7),
              "{\"root_index\":9,\"nodes\":[{\"type\":\"int\",\"data\":1},{\"type\":\"float\","
              "\"data\":2.0},{\"type\":\"ffi.String\",\"data\":\"a\"},{\"type\":\"None\"},"
              "{\"type\":\"bool\",\"data\":true},{\"type\":\"int\",\"data\":2},{\"type\":"
              "\"ffi.Array\",\"data\":[0,5]},{\"type\":\"ffi.String\",\"data\":\"x\"},{\"type\":"
              "\"ffi.Map\",\"data\":[7,0]},{\"type\":\"ffi.Array\",\"data\":[0,1,2,3,4,6,8]}]}");
  TVMFFIAny bytes;
  TVMFFIByteArray raw = {"hello\0\xff", 7};
  CHECK_OK(TVMFFIBytesFromByteArray(&raw, &bytes));
  check_graph(bytes, "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Bytes\",\"data\":\"aGVsbG8A\\/w==\"}]}");
  int64_t dims[3] = {1, 2, 3};
  TVMFFIObjectHandle shape = NULL;
  CHECK_OK(tether_shape_new(dims, 3, &shape));
  check_graph(tether_any_object(shape),
              "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Shape\",\"data\":[1,2,3]}]}");
  check_graph(tether_any_dtype((DLDataType){kDLFloat, 32, 1}),
              "{\"root_index\":0,\"nodes\":[{\"type\":\"DataType\",\"data\":\"float32\"}]}");
  check_graph(tether_any_device(kDLCUDA, 1),
              "{\"root_index\":0,\"nodes\":[{\"type\":\"Device\",\"data\":[2,1]}]}");
  check_graph(tether_any_none(), "{\"root_index\":0,\"nodes\":[{\"type\":\"None\"}]}");
  check_graph(tether_any_float(-0.0), "{\"root_index\":0,\"nodes\":[{\"type\":\"float\",\"data\":-0.0}]}");
  /* equal strings share a node (small and heap forms alike); metadata is kept as given */
  TVMFFIAny same[5] = {tether_any_int(1), tether_any_float(1.0), tether_any_bool(true),
                       str("abcdefghij"), str("abcdefghij")};
  TVMFFIAny arr = array_steal(same, 5);
  TVMFFIAny meta_kv[4] = {tether_any_raw_str("a"), tether_any_int(1),
                          tether_any_raw_str("tvm_version"), tether_any_raw_str("x")};
  TVMFFIObjectHandle meta = NULL;
  CHECK_OK(tether_map_new(meta_kv, 2, &meta));
  TVMFFIAny m = tether_any_object(meta);
  char* got = graph_text(&arr, &m);
  CHECK_EQ_STR(got, "{\"root_index\":4,\"nodes\":[{\"type\":\"int\",\"data\":1},{\"type\":"
                    "\"float\",\"data\":1.0},{\"type\":\"bool\",\"data\":true},{\"type\":"
                    "\"ffi.String\",\"data\":\"abcdefghij\"},{\"type\":\"ffi.Array\",\"data\":"
                    "[0,1,2,3,3]}],\"metadata\":{\"a\":1,\"tvm_version\":\"x\"}}");
  free(got);
  tether_any_release(&m);
  tether_any_release(&arr);
}

static void test_graph_shared_references(void) {
  TVMFFIAny one = tether_any_int(1);
  TVMFFIObjectHandle x = NULL, y = NULL;
  CHECK_OK(tether_array_new(&one, 1, &x));
  CHECK_OK(tether_array_new(&one, 1, &y));
  TVMFFIAny items[3] = {tether_any_object(x), tether_any_object(x), tether_any_object(y)};
  TVMFFIAny outer = array_of(items, 3);
  /* the same Array twice: one node; an equal but distinct Array: its own node */
  char* text = graph_text(&outer, NULL);
  CHECK_EQ_STR(text, "{\"root_index\":3,\"nodes\":[{\"type\":\"int\",\"data\":1},{\"type\":"
                     "\"ffi.Array\",\"data\":[0]},{\"type\":\"ffi.Array\",\"data\":[0]},"
                     "{\"type\":\"ffi.Array\",\"data\":[1,1,2]}]}");
  TVMFFIAny back = load(text);
  /* identity survives the round trip */
  CHECK(tether_array_at(back.v_obj, 0)->v_obj == tether_array_at(back.v_obj, 1)->v_obj);
  CHECK(tether_array_at(back.v_obj, 0)->v_obj != tether_array_at(back.v_obj, 2)->v_obj);
  free(text);
  tether_any_release(&back);
  tether_any_release(&outer);
  TVMFFIObjectDecRef(x);
  TVMFFIObjectDecRef(y);
}

static void test_graph_every_container_round_trips(void) {
  TVMFFIAny inner[3] = {tether_any_int(-5), tether_any_float(0.25), tether_any_raw_str("s")};
  TVMFFIObjectHandle list = NULL, dict = NULL, map = NULL;
  CHECK_OK(tether_list_new(inner, 3, &list));
  TVMFFIAny dkv[4] = {tether_any_int(7), tether_any_object(list), tether_any_raw_str("k"),
                      tether_any_dtype((DLDataType){kDLInt, 8, 1})};
  CHECK_OK(tether_dict_new(dkv, 2, &dict));
  TVMFFIAny mkv[4] = {tether_any_object(dict), tether_any_device(kDLCPU, 0), tether_any_bool(false),
                      tether_any_none()};
  CHECK_OK(tether_map_new(mkv, 2, &map));
  TVMFFIAny m = tether_any_object(map);
  TVMFFIAny back = round_trip(&m);
  CHECK_EQ_INT(back.type_index, kTVMFFIMap);
  CHECK_EQ_INT(tether_map_size(back.v_obj), 2);
  int64_t pos = 0;
  const TVMFFIAny *k = NULL, *v = NULL;
  CHECK(tether_map_next(back.v_obj, &pos, &k, &v));
  CHECK_EQ_INT(k->type_index, kTVMFFIDict);
  CHECK(v->type_index == kTVMFFIDevice && v->v_device.device_type == kDLCPU);
  tether_any_release(&back);
  tether_any_release(&m);
  TVMFFIObjectDecRef(list);
  TVMFFIObjectDecRef(dict);
}

static void test_graph_reflected_objects(void) {
  TVMFFIAny payload_items[2] = {tether_any_int(9), tether_any_raw_str("q")};
  TVMFFIObjectHandle payload = NULL;
  CHECK_OK(tether_list_new(payload_items, 2, &payload));
  TVMFFIAny leaf = new_point(point_index, 1, "leaf", NULL, tether_any_int(4));
  TVMFFIAny top = new_point(point3_index, 2, "top", leaf.v_obj, tether_any_object(payload));
  ((ser_point3_t*)top.v_obj)->z = -3;
  ((ser_point_t*)top.v_obj)->axis = (tether_opt_int64_t){5, true};
  char* text = graph_text(&top, NULL);
  /* inline: int, float, bool, DataType (and Optional<int>, declared int); by reference:
   * strings, objects, Any, Device; a None value is a reference to a None node */
  CHECK_EQ_STR(text,
               "{\"root_index\":9,\"nodes\":[{\"type\":\"ffi.String\",\"data\":\"top\"},"
               "{\"type\":\"ffi.String\",\"data\":\"leaf\"},{\"type\":\"None\"},"
               "{\"type\":\"int\",\"data\":4},{\"type\":\"Device\",\"data\":[2,3]},"
               "{\"type\":\"ser.Point\",\"data\":{\"x\":1,\"y\":1.25,\"flag\":true,\"dtype\":"
               "\"float16x4\",\"name\":1,\"child\":2,\"payload\":3,\"device\":4,\"axis\":null}},"
               "{\"type\":\"int\",\"data\":9},{\"type\":\"ffi.String\",\"data\":\"q\"},"
               "{\"type\":\"ffi.List\",\"data\":[6,7]},{\"type\":\"ser.Point3\",\"data\":{\"x\":2,"
               "\"y\":1.25,\"flag\":true,\"dtype\":\"float16x4\",\"name\":0,\"child\":5,"
               "\"payload\":8,\"device\":4,\"axis\":5,\"z\":-3}}]}");
  free(text);
  TVMFFIAny back = round_trip(&top);
  CHECK_EQ_INT(back.type_index, point3_index);
  if (back.type_index == point3_index) {
    ser_point3_t* p = (ser_point3_t*)back.v_obj;
    CHECK_EQ_INT(p->z, -3);
    CHECK(p->base.axis.has_value && p->base.axis.value == 5);
    CHECK(p->base.dtype.code == kDLFloat && p->base.dtype.bits == 16 && p->base.dtype.lanes == 4);
    CHECK(p->base.child != NULL && p->base.child->type_index == point_index);
    CHECK_EQ_INT(((ser_point_t*)p->base.child)->payload.v_int64, 4);
  }
  tether_any_release(&back);
  tether_any_release(&top);
  tether_any_release(&leaf);
}

static void test_graph_reading_fields(void) {
  /* field order does not matter, unknown keys are ignored, defaults fill missing fields */
  TVMFFIAny p = load("{\"root_index\":3,\"nodes\":[{\"type\":\"None\"},{\"type\":\"int\","
                     "\"data\":3},{\"type\":\"Device\",\"data\":[1,0]},{\"type\":\"ser.Point\","
                     "\"data\":{\"payload\":1,\"device\":2,"
                     "\"unknown\":99,\"child\":0,\"axis\":null,\"dtype\":\"int8\",\"flag\":1,"
                     "\"x\":-7}}]}");
  CHECK_EQ_INT(p.type_index, point_index);
  if (p.type_index == point_index) {
    ser_point_t* pt = (ser_point_t*)p.v_obj;
    TVMFFIByteArray s;
    CHECK_EQ_INT(pt->x, -7);
    CHECK(pt->y == 0.5 && pt->flag && pt->child == NULL && !pt->axis.has_value);
    CHECK(tether_any_get_str(&pt->name, &s));
    CHECK_BYTES(s, "anon");
  }
  tether_any_release(&p);
  check_load_fails("{\"root_index\":0,\"nodes\":[{\"type\":\"ser.Point\",\"data\":{\"x\":1}}]}",
                   "TypeError", "Required field `flag` not set in type `ser.Point`");
  check_load_fails("{\"root_index\":1,\"nodes\":[{\"type\":\"None\"},{\"type\":\"ser.Point\","
                   "\"data\":{\"x\":1.5,\"flag\":true,\"dtype\":\"int8\",\"child\":0,"
                   "\"payload\":0,\"device\":0}}]}",
                   "TypeError", "node 1 (`ser.Point`), field `x`: Cannot convert from type `float` to `int`");
  check_load_fails("{\"root_index\":1,\"nodes\":[{\"type\":\"int\",\"data\":1},{\"type\":"
                   "\"ser.Point\",\"data\":{\"x\":1,\"flag\":true,\"dtype\":\"int8\",\"child\":0,"
                   "\"payload\":0,\"device\":0}}]}",
                   "TypeError", "field `child`");
  check_load_fails("{\"root_index\":0,\"nodes\":[{\"type\":\"ser.Point\",\"data\":{\"x\":1,"
                   "\"flag\":true,\"dtype\":\"int8\",\"child\":\"no\"}}]}",
                   "ValueError", "field `child` must be a node index");
  check_load_fails("{\"root_index\":0,\"nodes\":[{\"type\":\"ser.Point\",\"data\":{\"x\":1,"
                   "\"flag\":true,\"dtype\":\"not-a-dtype\"}}]}", "ValueError", "not-a-dtype");
  check_load_fails("{\"root_index\":0,\"nodes\":[{\"type\":\"ser.Bare\",\"data\":{}}]}",
                   "TypeError", "cannot be created");
}

static void test_graph_custom_encoding(void) {
  TVMFFIObjectHandle c = NULL;
  CHECK_OK(tether_object_new_reflected(counted_index, &c));
  ((ser_counted_t*)c)->value = 42;
  TVMFFIAny items[2] = {tether_any_object(c), tether_any_object(c)};
  TVMFFIAny arr = array_of(items, 2);
  char* text = graph_text(&arr, NULL);
  CHECK_EQ_STR(text, "{\"root_index\":1,\"nodes\":[{\"type\":\"ser.Counted\",\"data\":\"n=42\"},"
                     "{\"type\":\"ffi.Array\",\"data\":[0,0]}]}");
  free(text);
  TVMFFIAny back = round_trip(&arr);
  const TVMFFIAny* first = tether_array_at(back.v_obj, 0);
  CHECK(first != NULL && first->type_index == counted_index &&
        ((ser_counted_t*)first->v_obj)->value == 42);
  tether_any_release(&back);
  check_load_fails("{\"root_index\":0,\"nodes\":[{\"type\":\"ser.Counted\",\"data\":\"m\"}]}",
                   "ValueError", "node 0 (`ser.Counted.__data_from_json__`): ser.Counted: expected");
  tether_any_release(&arr);
  TVMFFIObjectDecRef(c);
}

static void test_graph_tensor_encoding(void) {
  int64_t shape[1] = {3};
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(shape, 1, (DLDataType){kDLFloat, 32, 1}, (DLDevice){kDLCPU, 0}, &t));
  float* data = tether_tensor_dl(t)->data;
  data[0] = 0;
  data[1] = 1;
  data[2] = 2;
  /* apache-tvm 0.27 writes this text for tvm.runtime.tensor(np.arange(3, dtype="float32")) */
  check_graph(tether_any_object(t),
              "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Tensor\",\"data\":\"P6G0lvBAXt0AAAAA"
              "AAAAAAEAAAAAAAAAAQAAAAIgAQADAAAAAAAAAAwAAAAAAAAAAAAAAAAAgD8AAABA\"}]}");
  /* a 0-d bool, and a strided (transposed) view written in row-major order */
  TVMFFIObjectHandle b = NULL;
  CHECK_OK(tether_tensor_empty(NULL, 0, (DLDataType){kDLBool, 8, 1}, (DLDevice){kDLCPU, 0}, &b));
  *(uint8_t*)tether_tensor_dl(b)->data = 1;
  check_graph(tether_any_object(b),
              "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Tensor\",\"data\":\"P6G0lvBAXt0AAAAA"
              "AAAAAAEAAAAAAAAAAAAAAAYIAQABAAAAAAAAAAE=\"}]}");
  int64_t shape2[2] = {2, 3};
  CHECK_OK(tether_tensor_empty(shape2, 2, (DLDataType){kDLInt, 16, 1}, (DLDevice){kDLCPU, 0}, &t));
  int16_t* d = tether_tensor_dl(t)->data;
  for (int i = 0; i < 6; ++i) d[i] = (int16_t)(i * 100 - 250);
  TVMFFIAny tv = tether_any_object(t);
  TVMFFIAny back = round_trip(&tv);
  CHECK_EQ_INT(back.type_index, kTVMFFITensor);
  DLTensor* bt = tether_tensor_dl(back.v_obj);
  CHECK(bt != NULL && bt->ndim == 2 && bt->shape[0] == 2 && bt->shape[1] == 3 &&
        bt->dtype.code == kDLInt && bt->dtype.bits == 16);
  CHECK(bt != NULL && memcmp(bt->data, d, 12) == 0);
  tether_any_release(&back);
  /* a transposed view of the same data reads back as the transposed values */
  int64_t tshape[2] = {3, 2}, tstrides[2] = {1, 3};
  DLTensor* dl = tether_tensor_dl(t);
  DLTensor view = *dl;
  view.shape = tshape;
  view.strides = tstrides;
  TVMFFIObjectHandle vt = NULL;
  CHECK_OK(TVMFFITensorCreateUnsafeView(t, &view, &vt));
  if (vt != NULL) {
    TVMFFIAny vv = tether_any_object(vt);
    back = round_trip(&vv);
    const int16_t* got = back.type_index == kTVMFFITensor ? tether_tensor_dl(back.v_obj)->data : NULL;
    const int16_t want[6] = {d[0], d[3], d[1], d[4], d[2], d[5]};
    CHECK(got != NULL && memcmp(got, want, sizeof(want)) == 0);
    tether_any_release(&back);
    tether_any_release(&vv);
  }
  tether_any_release(&tv);
  /* bad payloads */
  static const char* const bad[] = {
      "\"\"",                                    /* empty */
      "\"P6G0lvBAXt0=\"",                        /* only the magic */
      "\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"", /* wrong magic */
      "\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQADAAAAAAAAAAwAAAAAAAAAAAAAAAAAgD8AAAA=\"", /* short */
      "\"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAA/////wIgAQADAAAAAAAAAAwAAAAAAAAA\"", /* ndim -1 */
      "\"***\"",                                 /* not base64 */
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    char text[256];
    snprintf(text, sizeof(text), "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Tensor\",\"data\":%s}]}",
             bad[i]);
    check_load_fails(text, "ValueError", "ffi.Tensor.__data_from_json__");
  }
}

static void test_graph_malformed(void) {
  static const struct {
    const char* text;
    const char* kind;
    const char* needle;
  } cases[] = {
      {"[]", "ValueError", "expected an object"},
      {"{\"root_index\":0}", "ValueError", "expected `nodes` array field"},
      {"{\"nodes\":[]}", "ValueError", "expected `root_index` integer field"},
      {"{\"root_index\":1,\"nodes\":[]}", "ValueError", "invalid node index 1"},
      {"{\"root_index\":-1,\"nodes\":[{\"type\":\"None\"}]}", "ValueError", "invalid node index -1"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"nope\"}]}", "ValueError", "unknown type `nope`"},
      {"{\"root_index\":0,\"nodes\":[{\"data\":1}]}", "ValueError", "no string field `type`"},
      {"{\"root_index\":0,\"nodes\":[7]}", "ValueError", "node 0 must be a JSON object"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"int\"}]}", "ValueError", "has no field `data`"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"int\",\"data\":\"x\"}]}", "ValueError", "must be an int"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"float\",\"data\":null}]}", "ValueError", "a number"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Array\",\"data\":[0]}]}", "ValueError", "a cycle"},
      {"{\"root_index\":1,\"nodes\":[{\"type\":\"ffi.List\",\"data\":[1]},{\"type\":\"ffi.Array\","
       "\"data\":[0]}]}", "ValueError", "node 0 refers back to node 1"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Array\",\"data\":[5]}]}", "ValueError",
       "invalid node index 5 (referenced by node 0"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Array\",\"data\":[0.5]}]}", "ValueError",
       "item 0 must be an int"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Map\",\"data\":[0]}]}", "ValueError",
       "even number"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Bytes\",\"data\":\"@@\"}]}", "ValueError",
       "invalid base64"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Bytes\",\"data\":\"QQ=A\"}]}", "ValueError",
       "invalid base64"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"Device\",\"data\":[1]}]}", "ValueError",
       "[device_type, device_id]"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"DataType\",\"data\":\"float3x\"}]}", "ValueError",
       "float3x"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"void*\",\"data\":0}]}", "ValueError",
       "cannot be read from a JSON graph"},
      {"{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.Function\",\"data\":{}}]}", "TypeError",
       "cannot be created"},
      {"{\"root_index\":0,\"nodes\":[", "ValueError",
       "ffi.FromJSONGraphString: Expecting value: line 1 column 26 (char 25)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    check_load_fails(cases[i].text, cases[i].kind, cases[i].needle);
  }
  /* values with no JSON form */
  TVMFFIAny p = tether_any_ptr(&p), out = tether_any_none();
  CHECK_RAISED(tether_to_json_graph(&p, NULL, &out), "RuntimeError", "Cannot serialize type `void*`");
  TVMFFIObjectHandle f = tether_func_get("ffi.json.Parse");
  TVMFFIAny fv = tether_any_object(f);
  CHECK_RAISED(tether_to_json_graph(&fv, NULL, &out), "TypeError",
               "Type `ffi.Function` does not support ToJSONGraph");
  TVMFFIObjectDecRef(f);
  TVMFFIObjectHandle list = NULL;
  CHECK_OK(tether_list_new(NULL, 0, &list));
  TVMFFIAny lv = tether_any_object(list);
  CHECK_OK(tether_list_append(list, &lv));
  CHECK_RAISED(tether_to_json_graph(&lv, NULL, &out), "ValueError",
               "Cycle detected during serialization: a List contains itself");
  CHECK_OK(tether_list_clear(list));
  TVMFFIObjectDecRef(list);
}

static void test_graph_object_cycle(void) {
  /* an object whose field refers back to it (through an Any field): found, not followed
   * forever */
  TVMFFIAny p = new_point(point_index, 1, "self", NULL, tether_any_none());
  ser_point_t* pt = (ser_point_t*)p.v_obj;
  tether_any_copy(&p, &pt->payload);
  TVMFFIAny out = tether_any_none();
  CHECK_RAISED(tether_to_json_graph(&p, NULL, &out), "ValueError",
               "a `ser.Point` refers back to itself");
  CHECK_EQ_INT(out.type_index, kTVMFFINone);
  tether_any_release(&pt->payload);
  tether_any_release(&p);
}

static void test_graph_deep(void) {
  /* A chain of Arrays and of objects, 20,000 deep, both ways (nothing recurses). */
  const int depth = 20000;
  TVMFFIAny v = tether_any_int(0);
  for (int i = 0; i < depth; ++i) {
    TVMFFIAny wrapped = array_steal(&v, 1);
    v = new_point(point_index, i, "n", NULL, wrapped);
  }
  TVMFFIAny back = round_trip(&v);
  CHECK_EQ_INT(back.type_index, point_index);
  tether_any_release(&back);
  tether_any_release(&v);
}

/* ---- out of memory --------------------------------------------------------------------- */

static TVMFFIAny oom_value;

static int oom_round_trip(void) {
  TVMFFIAny graph = tether_any_none(), text = tether_any_none(), again = tether_any_none();
  TVMFFIAny back = tether_any_none();
  TVMFFIByteArray s;
  int rc = tether_to_json_graph(&oom_value, NULL, &graph);
  if (rc == 0) rc = tether_json_stringify(&graph, 2, &text);
  tether_any_release(&graph);
  if (rc == 0 && !tether_any_get_str(&text, &s)) rc = -2;
  if (rc == 0) rc = tether_json_parse(s.data, s.size, &again, NULL);
  if (rc == 0) rc = tether_from_json_graph(&again, &back);
  tether_any_release(&again);
  tether_any_release(&text);
  tether_any_release(&back);
  return rc;
}

/* The same through the text globals (the direct text writer and reader). */
static int oom_round_trip_text(void) {
  TVMFFIObjectHandle to = tether_func_get("ffi.ToJSONGraphString");
  TVMFFIObjectHandle from = tether_func_get("ffi.FromJSONGraphString");
  TVMFFIAny args[2] = {oom_value, tether_any_none()};
  TVMFFIAny text = tether_any_none(), back = tether_any_none(), again = tether_any_none();
  int rc = to != NULL && from != NULL ? 0 : -2;
  if (rc == 0) rc = tether_func_call(to, args, 2, &text);
  if (rc == 0) rc = tether_func_call(from, &text, 1, &back);
  if (rc == 0) {
    args[0] = back;
    rc = tether_func_call(to, args, 2, &again);
  }
  if (rc == 0) {
    TVMFFIByteArray a, b;
    if (!tether_any_get_str(&text, &a) || !tether_any_get_str(&again, &b) || a.size != b.size ||
        memcmp(a.data, b.data, a.size) != 0) {
      rc = -2;
    }
  }
  tether_any_release(&text);
  tether_any_release(&back);
  tether_any_release(&again);
  if (to != NULL) TVMFFIObjectDecRef(to);
  if (from != NULL) TVMFFIObjectDecRef(from);
  return rc;
}

/* Fails allocation 1, 2, ... of `round_trip` until it succeeds: each failure raises and
 * leaks nothing. */
static void check_out_of_memory(int (*attempt_round_trip)(void)) {
  int attempt;
  for (attempt = 1; attempt < 5000; ++attempt) {
    int64_t live = tether_object_live_count();
    fail_nth(attempt);
    int rc = attempt_round_trip();
    int injected = disarm();
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (rc == 0) {
      CHECK(err == NULL);
      break;
    }
    CHECK(injected);
    CHECK(rc == -1 && err != NULL);
    if (err != NULL) TVMFFIObjectDecRef(err);
    if (tether_object_live_count() != live) {
      fprintf(stderr, "allocation %d failing leaks %lld object(s)\n", attempt,
              (long long)(tether_object_live_count() - live));
      CHECK(false);
      break;
    }
  }
  CHECK(attempt > 20 && attempt < 5000);
  CHECK_OK(attempt_round_trip());
}

static void test_graph_out_of_memory(void) {
  TVMFFIAny items[4] = {tether_any_raw_str("a string longer than seven"), tether_any_float(2.5),
                        tether_any_none(), tether_any_dtype((DLDataType){kDLInt, 32, 1})};
  TVMFFIObjectHandle list = NULL;
  CHECK_OK(tether_list_new(items, 4, &list));
  int64_t shape[1] = {4};
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(shape, 1, (DLDataType){kDLInt, 8, 1}, (DLDevice){kDLCPU, 0}, &t));
  TVMFFIAny leaf = new_point(point_index, 3, "leaf-name-long", NULL, tether_any_object(t));
  TVMFFIAny top = new_point(point3_index, 4, "t", leaf.v_obj, tether_any_object(list));
  oom_value = top;
  if (!injection_works()) {
    printf("     out of memory: skipped, allocation failures cannot be injected here\n");
  } else {
    check_out_of_memory(oom_round_trip);
    check_out_of_memory(oom_round_trip_text);
  }
  tether_any_release(&top);
  tether_any_release(&leaf);
}

static void test_graph_globals(void) {
  TVMFFIObjectHandle to = tether_func_get("ffi.ToJSONGraph");
  TVMFFIObjectHandle to_s = tether_func_get("ffi.ToJSONGraphString");
  TVMFFIObjectHandle from = tether_func_get("ffi.FromJSONGraph");
  TVMFFIAny args[2] = {tether_any_raw_str("hello world"), tether_any_none()};
  TVMFFIAny graph = tether_any_none(), text = tether_any_none(), back = tether_any_none();
  CHECK_OK(tether_func_call(to, args, 2, &graph));
  CHECK_OK(tether_func_call(to_s, args, 2, &text));
  TVMFFIByteArray s;
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, "{\"root_index\":0,\"nodes\":[{\"type\":\"ffi.String\",\"data\":\"hello world\"}]}");
  CHECK_OK(tether_func_call(from, &graph, 1, &back));
  CHECK(tether_any_get_str(&back, &s));
  CHECK_BYTES(s, "hello world");
  tether_any_release(&text);
  CHECK_RAISED(tether_func_call(to, args, 1, &text), "TypeError", "ffi.ToJSONGraph");
  tether_any_release(&graph);
  tether_any_release(&back);
  TVMFFIObjectDecRef(to);
  TVMFFIObjectDecRef(to_s);
  TVMFFIObjectDecRef(from);
}

/* The types live as long as the type table, so they are defined before the tests (whose
 * leak checks count live objects) run. */
__attribute__((constructor)) static void define_types_at_start(void) { define_types(); }

TEST_MAIN(TEST_CASE(test_graph_scalars_and_containers_as_upstream),
          TEST_CASE(test_graph_shared_references), TEST_CASE(test_graph_every_container_round_trips),
          TEST_CASE(test_graph_reflected_objects), TEST_CASE(test_graph_reading_fields),
          TEST_CASE(test_graph_custom_encoding), TEST_CASE(test_graph_tensor_encoding),
          TEST_CASE(test_graph_malformed), TEST_CASE(test_graph_object_cycle),
          TEST_CASE(test_graph_deep),
          TEST_CASE(test_graph_out_of_memory), TEST_CASE(test_graph_globals))
