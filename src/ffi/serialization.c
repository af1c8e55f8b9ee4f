/*
 * serialization.c -- tvm-ffi's JSON object graph (see <tether/json.h>): the writer
 * (tether_to_json_graph), the reader (tether_from_json_graph), the globals
 * ffi.ToJSONGraph, ffi.ToJSONGraphString, ffi.FromJSONGraph and ffi.FromJSONGraphString,
 * and the `__data_to_json__` / `__data_from_json__` encoding of ffi.Tensor.
 *
 * Node order and sharing follow tvm-ffi's writer exactly, so that the text is the same
 * byte for byte: a depth-first walk that lists a value after everything it refers to,
 * children in order (array items; map keys then values; an object's fields, ancestors'
 * first); a value equal (tether_any_equal) to one already listed reuses its index.
 *
 * Neither direction recurses.  The writer keeps a stack of containers and objects whose
 * children are being listed (a value met again while still on that stack is a cycle:
 * checked for Lists and Dicts, and for everything past TETHER_GRAPH_CHECK_DEPTH levels);
 * the reader keeps a stack of nodes whose children are being decoded, with a state per
 * node (not started, on the stack, done), so that a reference back to a node on the
 * stack is reported as a cycle.
 */
#include <inttypes.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/json.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "internal.h"
#include "error.h"
#include "json.h"
#include "map.h"
#include "tensor.h"

/* Field kinds written inline (the field's declared type, not its value's). */
static bool tether__graph_inline_field(int32_t static_type_index) {
  switch (static_type_index) {
    case kTVMFFINone:
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
    case kTVMFFIDataType:
      return true;
    default:
      return false;
  }
}

/* The Function registered as type attribute `column` for `type_index`, borrowed, or NULL. */
static TVMFFIObject* tether__graph_hook(const char* column, int32_t type_index) {
  TVMFFIByteArray name = {column, strlen(column)};
  const TVMFFITypeAttrColumn* c = TVMFFIGetTypeAttrColumn(&name);
  if (c == NULL) return NULL;
  int32_t offset = type_index - c->begin_index;
  if (offset < 0 || offset >= c->size || c->data[offset].type_index != kTVMFFIFunction) {
    return NULL;
  }
  return c->data[offset].v_obj;
}

/* true if objects of the type can be made empty and filled field by field: a native
 * creator, an `__ffi_new__` function, or a reflected layout (tether_object_new_reflected). */
static bool tether__graph_has_creator(const TVMFFITypeInfo* info) {
  if (info->metadata != NULL && info->metadata->creator != NULL) return true;
  if (tether__graph_hook("__ffi_new__", info->type_index) != NULL) return true;
  return info->metadata != NULL && info->metadata->total_size >= (int32_t)sizeof(TVMFFIObject);
}

/*
 * What a graph call needs of one type, looked up once per call (the type table and the
 * attribute columns are read under a lock; a graph of 10,000 nodes of a few types would
 * otherwise look the same things up 10,000 times).  Hooks registered while a call runs
 * are not seen by that call.
 */
typedef struct {
  bool ready;
  bool creatable;
  const TVMFFITypeInfo* info;
  TVMFFIAny key;                  /* owned string: the type key */
  TVMFFIObject* to_json;          /* borrowed hooks, or NULL */
  TVMFFIObject* from_json;
  const TVMFFIFieldInfo** fields; /* ancestors' first */
  TVMFFIAny* names;               /* owned strings, one per field */
  int32_t num_fields;
} tether_gtype;

typedef struct {
  tether_gtype* types; /* by type index */
  int64_t cap;
} tether_gcache;

static void tether__gcache_free(tether_gcache* c) {
  for (int64_t i = 0; i < c->cap; ++i) {
    tether_gtype* t = &c->types[i];
    if (!t->ready) continue;
    tether_any_release(&t->key);
    for (int32_t k = 0; k < t->num_fields; ++k) tether_any_release(&t->names[k]);
    free(t->names);
    free(t->fields);
  }
  free(c->types);
  c->types = NULL;
  c->cap = 0;
}

static int tether__gtype_fill(tether_gtype* t, const TVMFFITypeInfo* info) {
  int32_t total = 0;
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* a = d < info->type_depth ? info->type_ancestors[d] : info;
    total += a->num_fields;
  }
  t->info = info;
  t->creatable = tether__graph_has_creator(info);
  t->to_json = tether__graph_hook("__data_to_json__", info->type_index);
  t->from_json = tether__graph_hook("__data_from_json__", info->type_index);
  if (tether_any_str(info->type_key.data, info->type_key.size, &t->key) != 0) return -1;
  if (total == 0) return 0;
  t->fields = malloc(sizeof(*t->fields) * (size_t)total);
  t->names = malloc(sizeof(TVMFFIAny) * (size_t)total);
  if (t->fields == NULL || t->names == NULL) return tether_raise("MemoryError", "out of memory");
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* a = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < a->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &a->fields[i];
      if (tether_any_str(f->name.data, f->name.size, &t->names[t->num_fields]) != 0) return -1;
      t->fields[t->num_fields++] = f;
    }
  }
  return 0;
}

/* The entry of `type_index` (borrowed from the cache); NULL with an error raised when the
 * type is not registered or out of memory. */
static const tether_gtype* tether__gcache_get(tether_gcache* c, int32_t type_index) {
  if (type_index < 0) {
    tether_raise("ValueError", "type index %d is not registered", (int)type_index);
    return NULL;
  }
  if (type_index >= c->cap) {
    int64_t cap = c->cap ? c->cap : 128;
    while (cap <= type_index) cap *= 2;
    tether_gtype* types = realloc(c->types, sizeof(tether_gtype) * (size_t)cap);
    if (types == NULL) {
      tether_raise("MemoryError", "out of memory");
      return NULL;
    }
    memset(types + c->cap, 0, sizeof(tether_gtype) * (size_t)(cap - c->cap));
    c->types = types;
    c->cap = cap;
  }
  tether_gtype* t = &c->types[type_index];
  if (t->ready) return t;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == NULL) {
    tether_raise("ValueError", "type index %d is not registered", (int)type_index);
    return NULL;
  }
  /* Marked ready first: the cleanup then releases whatever part was filled. */
  t->ready = true;
  t->key = tether_any_none();
  return tether__gtype_fill(t, info) == 0 ? t : NULL;
}

static int tether__graph_create(const TVMFFITypeInfo* info, TVMFFIObjectHandle* out) {
  if (info->metadata != NULL && info->metadata->creator != NULL) {
    return info->metadata->creator(out);
  }
  TVMFFIObject* ffi_new = tether__graph_hook("__ffi_new__", info->type_index);
  if (ffi_new != NULL) {
    TVMFFIAny made = tether_any_none();
    if (TVMFFIFunctionCall(ffi_new, NULL, 0, &made) != 0) return -1;
    if (made.type_index < kTVMFFIStaticObjectBegin || made.v_obj->type_index != info->type_index) {
      tether_any_release(&made);
      return tether_raise("TypeError", "`%.*s.__ffi_new__` did not return a `%.*s`",
                          (int)info->type_key.size, info->type_key.data,
                          (int)info->type_key.size, info->type_key.data);
    }
    *out = made.v_obj;
    return 0;
  }
  return tether_object_new_reflected(info->type_index, out);
}

/* Key of a set of objects held by address (an opaque pointer hashes and compares by
 * its bits). */
static TVMFFIAny tether__graph_addr(const void* p) {
  TVMFFIAny k = tether_any_none();
  k.type_index = kTVMFFIOpaquePtr;
  k.v_ptr = (void*)p;
  return k;
}

/* A new Map {"type": *type_key, "data": *data} (or without data when data is NULL),
 * stealing *data. */
static int tether__graph_node(const TVMFFIAny* type_key, TVMFFIAny* data, TVMFFIAny* out) {
  TVMFFIObject* node = NULL;
  TVMFFIAny k = tether_any_none(), v = tether_any_none();
  int rc = tether__map_new(kTVMFFIMap, 2, &node);
  if (rc == 0) rc = tether_any_str("type", 4, &k);
  if (rc == 0) {
    tether_any_copy(type_key, &v);
    rc = tether__map_set_steal(node, &k, &v);
  }
  if (rc == 0 && data != NULL) {
    rc = tether_any_str("data", 4, &k);
    if (rc == 0) rc = tether__map_set_steal(node, &k, data);
  }
  if (data != NULL) tether_any_release(data);
  tether_any_release(&k);
  tether_any_release(&v);
  if (rc != 0) {
    TVMFFIObjectDecRef(node);
    return -1;
  }
  *out = tether_any_object(node);
  return 0;
}

/* ---- the writer ------------------------------------------------------------------------ */

enum { TETHER_GRAPH_SEQ, TETHER_GRAPH_MAP, TETHER_GRAPH_OBJ };

typedef struct {
  TVMFFIAny value; /* owned: the container or object whose children are being listed */
  int kind;
  int64_t pos;  /* next item / map position / field */
  bool at_value;    /* MAP: the current entry's key is listed, its value is next */
  TVMFFIAny* indices; /* SEQ/MAP: the children's node indices (ints) so far */
  int64_t num_indices;
  int64_t cap_indices;
  TVMFFIObject* fields_data; /* OBJ: the Map of field name -> inline value or index */
  int32_t type_index;        /* OBJ: its entry in the type cache */
} tether_gw_frame;

typedef struct {
  const char* who;
  TVMFFIAny* nodes;
  int64_t num_nodes;
  int64_t cap_nodes;
  TVMFFIObject* memo;   /* value -> node index */
  /* Addresses of the values on the stack that could be met again while they are there:
   * every List and Dict (as tvm-ffi checks), and everything deeper than
   * TETHER_GRAPH_CHECK_DEPTH (a cycle through anything else keeps going deeper). */
  TVMFFIObject* active;
  tether_gcache cache;
  tether_gw_frame* frames;
  int64_t num_frames;
  int64_t cap_frames;
} tether_gwriter;

#define TETHER_GRAPH_CHECK_DEPTH 256

static int tether__gw_oom(tether_gwriter* w) {
  return tether_raise("MemoryError", "%s: out of memory", w->who);
}

/* Appends a node of type `type_index` with *data (stolen) for `value`; its index in
 * *index. */
static int tether__gw_add(tether_gwriter* w, const TVMFFIAny* value, int32_t type_index,
                          TVMFFIAny* data, int64_t* index) {
  TVMFFIAny node;
  const tether_gtype* t = tether__gcache_get(&w->cache, type_index);
  if (t == NULL ||
      !tether__json_grow((void**)&w->nodes, &w->cap_nodes, w->num_nodes + 1, sizeof(TVMFFIAny))) {
    if (data != NULL) tether_any_release(data);
    return t == NULL ? -1 : tether__gw_oom(w);
  }
  if (tether__graph_node(&t->key, data, &node) != 0) return -1;
  TVMFFIAny idx = tether_any_int(w->num_nodes);
  if (tether__map_set(w->memo, value, &idx) != 0) {
    tether_any_release(&node);
    return -1;
  }
  *index = w->num_nodes;
  w->nodes[w->num_nodes++] = node;
  return 0;
}

/* The data of a value that has no children: *data (owning), or None when the node has no
 * data (None).  1 if `v` has children (a frame is needed), -1 on error. */
static int tether__gw_leaf_data(tether_gwriter* w, const TVMFFIAny* v, int32_t* type_index,
                                TVMFFIAny* data) {
  TVMFFIByteArray s;
  *data = tether_any_none();
  switch (v->type_index) {
    case kTVMFFINone:
      *type_index = kTVMFFINone;
      return 0;
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      *type_index = v->type_index;
      *data = *v;
      return 0;
    case kTVMFFIDataType:
      *type_index = kTVMFFIDataType;
      return TVMFFIDataTypeToString(&v->v_dtype, data);
    case kTVMFFIDevice: {
      TVMFFIAny items[2] = {tether_any_int(v->v_device.device_type),
                            tether_any_int(v->v_device.device_id)};
      TVMFFIObjectHandle arr = NULL;
      *type_index = kTVMFFIDevice;
      if (tether_array_new(items, 2, &arr) != 0) return -1;
      *data = tether_any_object(arr);
      return 0;
    }
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      *type_index = kTVMFFIStr;
      if (!tether_any_get_str(v, &s)) break;
      return tether_any_str(s.data, s.size, data);
    case kTVMFFIByteArrayPtr:
    case kTVMFFISmallBytes:
    case kTVMFFIBytes: {
      size_t n;
      *type_index = kTVMFFIBytes;
      if (!tether_any_get_bytes(v, &s)) break;
      char* text = tether__base64_encode((const uint8_t*)s.data, s.size, &n);
      if (text == NULL) return tether__gw_oom(w);
      int rc = tether_any_str(text, n, data);
      free(text);
      return rc;
    }
    case kTVMFFIShape: {
      int64_t n = tether_shape_size(v->v_obj);
      const int64_t* dims = tether_shape_data(v->v_obj);
      TVMFFIAny* items = n > 0 ? malloc(sizeof(TVMFFIAny) * (size_t)n) : NULL;
      TVMFFIObjectHandle arr = NULL;
      if (n > 0 && items == NULL) return tether__gw_oom(w);
      for (int64_t i = 0; i < n; ++i) items[i] = tether_any_int(dims[i]);
      int rc = tether_array_new(items, n, &arr);
      free(items);
      if (rc != 0) return -1;
      *type_index = kTVMFFIShape;
      *data = tether_any_object(arr);
      return 0;
    }
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap:
    case kTVMFFIDict:
      return 1;
    default:
      break;
  }
  if (v->type_index < kTVMFFIStaticObjectBegin || v->v_obj == NULL) {
    return tether_raise("RuntimeError", "%s: Cannot serialize type `%s`", w->who,
                        tether_any_type_key(v));
  }
  *type_index = v->v_obj->type_index;
  const tether_gtype* t = tether__gcache_get(&w->cache, *type_index);
  if (t == NULL) return -1;
  if (t->to_json != NULL) {
    if (TVMFFIFunctionCall(t->to_json, (TVMFFIAny*)v, 1, data) != 0) {
      char context[200];
      snprintf(context, sizeof(context), "%s: `%s.__data_to_json__`", w->who,
               tether_any_type_key(v));
      return tether__error_add_context(context);
    }
    return 0;
  }
  return 1;
}

/* Starts listing the children of `v` (borrowed; the frame keeps its own reference). */
static int tether__gw_push(tether_gwriter* w, const TVMFFIAny* v) {
  TVMFFIAny addr = tether__graph_addr(v->v_obj);
  bool check = v->type_index == kTVMFFIList || v->type_index == kTVMFFIDict ||
               w->num_frames >= TETHER_GRAPH_CHECK_DEPTH;
  if (check && tether__map_get(w->active, &addr) != NULL) {
    if (v->type_index == kTVMFFIList || v->type_index == kTVMFFIDict) {
      return tether_raise("ValueError", "%s: Cycle detected during serialization: a %s contains "
                          "itself", w->who, v->type_index == kTVMFFIList ? "List" : "Dict");
    }
    return tether_raise("ValueError", "%s: Cycle detected during serialization: a `%s` refers "
                        "back to itself", w->who, tether_any_type_key(v));
  }
  tether_gw_frame f;
  memset(&f, 0, sizeof(f));
  int32_t t = v->type_index;
  f.kind = (t == kTVMFFIArray || t == kTVMFFIList) ? TETHER_GRAPH_SEQ
           : (t == kTVMFFIMap || t == kTVMFFIDict) ? TETHER_GRAPH_MAP
                                                   : TETHER_GRAPH_OBJ;
  if (f.kind == TETHER_GRAPH_OBJ) {
    const tether_gtype* gt = tether__gcache_get(&w->cache, v->v_obj->type_index);
    if (gt == NULL) return -1;
    if (!gt->creatable) {
      return tether_raise("TypeError", "%s: Type `%s` does not support ToJSONGraph (no native "
                          "creator or __ffi_new__ type attr)", w->who, tether_any_type_key(v));
    }
    f.type_index = v->v_obj->type_index;
    if (tether__map_new(kTVMFFIMap, gt->num_fields, &f.fields_data) != 0) return -1;
  }
  TVMFFIAny yes = tether_any_bool(true);
  if (!tether__json_grow((void**)&w->frames, &w->cap_frames, w->num_frames + 1, sizeof(f)) ||
      (check && tether__map_set(w->active, &addr, &yes) != 0)) {
    TVMFFIObjectDecRef(f.fields_data);
    TVMFFIErrorMoveFromRaised(NULL);
    return tether__gw_oom(w);
  }
  tether_any_copy(v, &f.value);
  w->frames[w->num_frames++] = f;
  return 0;
}

/* Lists `v` (borrowed): *index is its node's index, or -1 when a frame was pushed and the
 * index follows when that frame is done. */
static int tether__gw_visit(tether_gwriter* w, const TVMFFIAny* v, int64_t* index) {
  const TVMFFIAny* known = tether__map_get(w->memo, v);
  if (known != NULL) {
    *index = known->v_int64;
    return 0;
  }
  int32_t type_index = kTVMFFINone;
  TVMFFIAny data;
  int rc = tether__gw_leaf_data(w, v, &type_index, &data);
  if (rc < 0) return -1;
  if (rc == 1) {
    *index = -1;
    return tether__gw_push(w, v);
  }
  return tether__gw_add(w, v, type_index, v->type_index == kTVMFFINone ? NULL : &data, index);
}

static void tether__gw_frame_free(tether_gw_frame* f) {
  tether_any_release(&f->value);
  for (int64_t i = 0; i < f->num_indices; ++i) tether_any_release(&f->indices[i]);
  free(f->indices);
  TVMFFIObjectDecRef(f->fields_data);
}

/* The value of an inline field as JSON: null, a bool, an int, a float or a dtype string. */
static int tether__gw_inline(tether_gwriter* w, const TVMFFIAny* v, const TVMFFIFieldInfo* fi,
                             TVMFFIAny* out) {
  switch (v->type_index) {
    case kTVMFFINone:
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      *out = *v;
      return 0;
    case kTVMFFIDataType:
      return TVMFFIDataTypeToString(&v->v_dtype, out);
    default:
      return tether_raise("TypeError", "%s: field `%.*s` is declared `%s` but holds a `%s`",
                          w->who, (int)fi->name.size, fi->name.data,
                          tether_type_key(fi->field_static_type_index), tether_any_type_key(v));
  }
}

/* Records a finished child's index in the frame. */
static int tether__gw_deliver(tether_gwriter* w, tether_gw_frame* f, int64_t index) {
  if (f->kind == TETHER_GRAPH_OBJ) {
    TVMFFIAny name, idx = tether_any_int(index);
    tether_any_copy(&w->cache.types[f->type_index].names[f->pos - 1], &name);
    return tether__map_set_steal(f->fields_data, &name, &idx);
  }
  if (!tether__json_grow((void**)&f->indices, &f->cap_indices, f->num_indices + 1,
                          sizeof(TVMFFIAny))) {
    return tether__gw_oom(w);
  }
  f->indices[f->num_indices++] = tether_any_int(index);
  return 0;
}

/* One step of the top frame: lists its next child, or finishes it.  *done_index is the
 * finished frame's node index, or -1. */
static int tether__gw_step(tether_gwriter* w, int64_t* done_index) {
  tether_gw_frame* f = &w->frames[w->num_frames - 1];
  TVMFFIObject* obj = f->value.v_obj;
  const TVMFFIAny* child = NULL;
  TVMFFIAny owned = tether_any_none();
  *done_index = -1;
  if (f->kind == TETHER_GRAPH_SEQ) {
    child = obj->type_index == kTVMFFIArray ? tether_array_at(obj, f->pos) : tether_list_at(obj, f->pos);
    if (child != NULL) ++f->pos;
  } else if (f->kind == TETHER_GRAPH_MAP) {
    const TVMFFIAny *k = NULL, *v = NULL;
    int64_t pos = f->pos;
    if (tether__map_next(obj, &pos, &k, &v)) {
      child = f->at_value ? v : k;
      if (f->at_value) f->pos = pos;
      f->at_value = !f->at_value;
    }
  } else {
    const tether_gtype* t = &w->cache.types[f->type_index];
    while (child == NULL && f->pos < t->num_fields) {
      const TVMFFIAny* field_name = &t->names[f->pos];
      const TVMFFIFieldInfo* fi = t->fields[f->pos++];
      tether_any_release(&owned);
      if (tether_field_get(obj, fi, &owned) != 0) return -1;
      if (!tether__graph_inline_field(fi->field_static_type_index)) {
        child = &owned;
        break;
      }
      TVMFFIAny name, value;
      if (tether__gw_inline(w, &owned, fi, &value) != 0) {
        tether_any_release(&owned);
        return -1;
      }
      tether_any_release(&owned);
      tether_any_copy(field_name, &name);
      if (tether__map_set_steal(f->fields_data, &name, &value) != 0) {
        tether_any_release(&value);
        return -1;
      }
    }
  }
  if (child != NULL) {
    int64_t index;
    int rc = tether__gw_visit(w, child, &index);
    tether_any_release(&owned);
    if (rc != 0) return -1;
    /* the frame array may have moved when a frame was pushed */
    if (index >= 0) return tether__gw_deliver(w, &w->frames[w->num_frames - 1], index);
    return 0;
  }
  /* every child is listed: the node itself */
  TVMFFIAny data = tether_any_none();
  if (f->kind == TETHER_GRAPH_OBJ) {
    data = tether_any_object(f->fields_data);
    f->fields_data = NULL;
  } else {
    TVMFFIObjectHandle arr = NULL;
    if (tether_array_new_steal(f->indices, f->num_indices, &arr) != 0) return -1;
    f->num_indices = 0;
    data = tether_any_object(arr);
  }
  tether_gw_frame done = *f;
  --w->num_frames;
  TVMFFIAny addr = tether__graph_addr(obj);
  tether__map_erase(w->active, &addr);
  int rc = tether__gw_add(w, &done.value, obj->type_index, &data, done_index);
  tether__gw_frame_free(&done);
  return rc;
}

/* tether_to_json_graph; errors name `who` (the function the user called). */
static int tether__to_json_graph(const char* who, const TVMFFIAny* value, const TVMFFIAny* metadata,
                                 TVMFFIAny* out) {
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        value == NULL ? "value" : "out");
  }
  *out = tether_any_none();
  tether_gwriter w;
  memset(&w, 0, sizeof(w));
  w.who = who;
  TVMFFIAny root = tether_any_none(), key = tether_any_none(), item = tether_any_none();
  TVMFFIObject* doc = NULL;
  TVMFFIObjectHandle nodes = NULL;
  int64_t root_index = -1;
  int rc = TVMFFIAnyViewToOwnedAny(value, &root);
  if (rc == 0) rc = tether__map_new(kTVMFFIMap, 0, &w.memo);
  if (rc == 0) rc = tether__map_new(kTVMFFIMap, 0, &w.active);
  if (rc == 0) rc = tether__gw_visit(&w, &root, &root_index);
  while (rc == 0 && w.num_frames > 0) {
    int64_t done;
    rc = tether__gw_step(&w, &done);
    if (rc == 0 && done >= 0) {
      if (w.num_frames == 0) {
        root_index = done;
      } else {
        rc = tether__gw_deliver(&w, &w.frames[w.num_frames - 1], done);
      }
    }
  }
  if (rc == 0) rc = tether_array_new_steal(w.nodes, w.num_nodes, &nodes);
  if (rc == 0) w.num_nodes = 0;
  if (rc == 0) rc = tether__map_new(kTVMFFIMap, 3, &doc);
  if (rc == 0) rc = tether_any_str("root_index", 10, &key);
  if (rc == 0) {
    item = tether_any_int(root_index);
    rc = tether__map_set_steal(doc, &key, &item);
  }
  if (rc == 0) rc = tether_any_str("nodes", 5, &key);
  if (rc == 0) {
    item = tether_any_object(nodes);
    nodes = NULL;
    rc = tether__map_set_steal(doc, &key, &item);
  }
  if (rc == 0 && metadata != NULL && metadata->type_index != kTVMFFINone) {
    rc = tether_any_str("metadata", 8, &key);
    if (rc == 0) rc = tether__map_set(doc, &key, metadata);
  }
  if (rc == 0) {
    *out = tether_any_object(doc);
    doc = NULL;
  }
  for (int64_t i = 0; i < w.num_frames; ++i) tether__gw_frame_free(&w.frames[i]);
  for (int64_t i = 0; i < w.num_nodes; ++i) tether_any_release(&w.nodes[i]);
  free(w.frames);
  free(w.nodes);
  TVMFFIObjectDecRef(w.memo);
  TVMFFIObjectDecRef(w.active);
  tether__gcache_free(&w.cache);
  TVMFFIObjectDecRef(doc);
  TVMFFIObjectDecRef(nodes);
  tether_any_release(&root);
  tether_any_release(&key);
  tether_any_release(&item);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

int tether_to_json_graph(const TVMFFIAny* value, const TVMFFIAny* metadata, TVMFFIAny* out) {
  return tether__to_json_graph("ffi.ToJSONGraph", value, metadata, out);
}

/* ---- the reader ------------------------------------------------------------------------ */

enum { TETHER_NODE_NEW = 0, TETHER_NODE_ACTIVE = 1, TETHER_NODE_DONE = 2 };

typedef struct {
  int64_t node;
  int64_t* kids; /* the node indices this node refers to, in order */
  int64_t num_kids;
  int64_t next;
} tether_gr_frame;

typedef struct {
  const char* who;
  TVMFFIObject* nodes; /* the document's "nodes" Array (borrowed) */
  int64_t num_nodes;
  TVMFFIAny* decoded;
  uint8_t* state;
  tether_gr_frame* frames;
  int64_t num_frames;
  int64_t cap_frames;
  tether_gcache cache;
} tether_greader;

/* The value under `key` in the JSON object `map`, borrowed, or NULL. */
static const TVMFFIAny* tether__gr_get(TVMFFIObject* map, const char* key, size_t n) {
  TVMFFIAny k;
  if (tether_any_str(key, n, &k) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    return NULL;
  }
  const TVMFFIAny* v = tether__map_get(map, &k);
  tether_any_release(&k);
  return v;
}

static bool tether__gr_is(const TVMFFIAny* v, int32_t type_index) {
  return v != NULL && v->type_index == type_index && v->v_obj != NULL;
}

/* A node's parts: its JSON object, type key, type index and data (NULL when absent). */
typedef struct {
  TVMFFIObject* node;
  TVMFFIByteArray type_key;
  int32_t type_index;
  const TVMFFIAny* data;
} tether_gr_node;

static int tether__gr_node(tether_greader* r, int64_t i, tether_gr_node* out) {
  const TVMFFIAny* node = tether_array_at(r->nodes, i);
  if (!tether__gr_is(node, kTVMFFIMap)) {
    return tether_raise("ValueError", "%s: node %" PRId64 " must be a JSON object, got `%s`",
                        r->who, i, tether_any_type_key(node));
  }
  out->node = node->v_obj;
  const TVMFFIAny* type = tether__gr_get(out->node, "type", 4);
  if (type == NULL || !tether_any_get_str(type, &out->type_key)) {
    return tether_raise("ValueError", "%s: node %" PRId64 " has no string field `type`", r->who, i);
  }
  if (TVMFFITypeKeyToIndex(&out->type_key, &out->type_index) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    return tether_raise("ValueError", "%s: node %" PRId64 " has unknown type `%.*s`", r->who, i,
                        (int)out->type_key.size, out->type_key.data);
  }
  out->data = tether__gr_get(out->node, "data", 4);
  if (out->data == NULL && out->type_index != kTVMFFINone) {
    return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`) has no field `data`", r->who,
                        i, (int)out->type_key.size, out->type_key.data);
  }
  return 0;
}

static int tether__gr_expect(tether_greader* r, int64_t i, const tether_gr_node* n,
                             const char* what) {
  return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): data must be %s, got `%s`",
                      r->who, i, (int)n->type_key.size, n->type_key.data, what,
                      tether_any_type_key(n->data));
}

/* The ints of a JSON array (data of Shape, Device and container nodes): a new malloc'd
 * array of *n values. */
static int tether__gr_ints(tether_greader* r, int64_t i, const tether_gr_node* n, int64_t** out,
                           int64_t* count) {
  *out = NULL;
  *count = 0;
  if (!tether__gr_is(n->data, kTVMFFIArray)) return tether__gr_expect(r, i, n, "an array");
  int64_t size = tether_array_size(n->data->v_obj);
  int64_t* ints = malloc(sizeof(int64_t) * (size_t)(size > 0 ? size : 1));
  if (ints == NULL) return tether_raise("MemoryError", "%s: out of memory", r->who);
  for (int64_t k = 0; k < size; ++k) {
    const TVMFFIAny* item = tether_array_at(n->data->v_obj, k);
    if (item->type_index != kTVMFFIInt) {
      free(ints);
      return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): item %" PRId64
                          " must be an int, got `%s`", r->who, i, (int)n->type_key.size,
                          n->type_key.data, k, tether_any_type_key(item));
    }
    ints[k] = item->v_int64;
  }
  *out = ints;
  *count = size;
  return 0;
}

static bool tether__gr_container(int32_t t) {
  return t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
}

/* The node indices node i refers to (a new malloc'd array, NULL when none). */
static int tether__gr_kids(tether_greader* r, int64_t i, int64_t** kids, int64_t* n) {
  tether_gr_node node;
  *kids = NULL;
  *n = 0;
  if (tether__gr_node(r, i, &node) != 0) return -1;
  int32_t t = node.type_index;
  if (tether__gr_container(t)) {
    if (tether__gr_ints(r, i, &node, kids, n) != 0) return -1;
    if ((t == kTVMFFIMap || t == kTVMFFIDict) && *n % 2 != 0) {
      free(*kids);
      *kids = NULL;
      return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): Map/Dict data must "
                          "contain an even number of [key, value] entries, got %" PRId64,
                          r->who, i, (int)node.type_key.size, node.type_key.data, *n);
    }
    return 0;
  }
  if (t < kTVMFFIStaticObjectBegin || t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIShape) {
    return 0;
  }
  const tether_gtype* gt = tether__gcache_get(&r->cache, t);
  if (gt == NULL) return -1;
  if (gt->from_json != NULL) return 0;
  if (!tether__gr_is(node.data, kTVMFFIMap)) return tether__gr_expect(r, i, &node, "an object");
  int64_t* out = malloc(sizeof(int64_t) * (size_t)(gt->num_fields > 0 ? gt->num_fields : 1));
  int rc = out == NULL ? tether_raise("MemoryError", "%s: out of memory", r->who) : 0;
  for (int32_t k = 0; rc == 0 && k < gt->num_fields; ++k) {
    const TVMFFIFieldInfo* fi = gt->fields[k];
    if (tether__graph_inline_field(fi->field_static_type_index)) continue;
    const TVMFFIAny* ref = tether__map_get(node.data->v_obj, &gt->names[k]);
    if (ref == NULL) continue;
    if (ref->type_index != kTVMFFIInt) {
      rc = tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): field `%.*s` must be a "
                        "node index, got `%s`", r->who, i, (int)node.type_key.size,
                        node.type_key.data, (int)fi->name.size, fi->name.data,
                        tether_any_type_key(ref));
      break;
    }
    out[(*n)++] = ref->v_int64;
  }
  if (rc != 0) {
    free(out);
    *n = 0;
    return -1;
  }
  *kids = out;
  return 0;
}

/* Starts decoding node i. */
static int tether__gr_push(tether_greader* r, int64_t i) {
  tether_gr_frame f;
  memset(&f, 0, sizeof(f));
  f.node = i;
  if (tether__gr_kids(r, i, &f.kids, &f.num_kids) != 0) return -1;
  if (!tether__json_grow((void**)&r->frames, &r->cap_frames, r->num_frames + 1, sizeof(f))) {
    free(f.kids);
    return tether_raise("MemoryError", "%s: out of memory", r->who);
  }
  r->frames[r->num_frames++] = f;
  r->state[i] = TETHER_NODE_ACTIVE;
  return 0;
}

/* Sets field `fi` of `obj` from its JSON value `v` (inline, or a node index). */
static int tether__gr_field(tether_greader* r, TVMFFIObject* obj, const TVMFFIFieldInfo* fi,
                            const TVMFFIAny* v) {
  TVMFFIAny value = tether_any_none();
  TVMFFIByteArray s;
  if (!tether__graph_inline_field(fi->field_static_type_index)) {
    value = r->decoded[v->v_int64];
  } else if (fi->field_static_type_index == kTVMFFIDataType && tether_any_get_str(v, &s)) {
    DLDataType dtype;
    if (TVMFFIDataTypeFromString(&s, &dtype) != 0) return -1;
    value = tether_any_dtype(dtype);
  } else if (fi->field_static_type_index != kTVMFFINone) {
    value = *v;
  }
  return tether_field_set(obj, fi, &value);
}

/* An object from its fields' JSON. */
static int tether__gr_object(tether_greader* r, int64_t i, const tether_gr_node* n,
                             TVMFFIAny* out) {
  const tether_gtype* gt = tether__gcache_get(&r->cache, n->type_index);
  if (gt == NULL) return -1;
  if (!gt->creatable) {
    return tether_raise("TypeError", "%s: node %" PRId64 ": type `%.*s` cannot be created from "
                        "a JSON graph (no creator, __ffi_new__ or __data_from_json__)", r->who, i,
                        (int)n->type_key.size, n->type_key.data);
  }
  TVMFFIObjectHandle obj = NULL;
  int rc = tether__graph_create(gt->info, &obj);
  for (int32_t k = 0; rc == 0 && k < gt->num_fields; ++k) {
    const TVMFFIFieldInfo* fi = gt->fields[k];
    const TVMFFIAny* v = tether__map_get(n->data->v_obj, &gt->names[k]);
    if (v != NULL) {
      rc = tether__gr_field(r, obj, fi, v);
    } else if (fi->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      rc = tether_field_set_default(obj, fi);
    } else {
      rc = tether_raise("TypeError", "%s: node %" PRId64 ": Required field `%.*s` not set in "
                        "type `%.*s`", r->who, i, (int)fi->name.size, fi->name.data,
                        (int)n->type_key.size, n->type_key.data);
      break;
    }
    if (rc != 0) {
      char context[256];
      snprintf(context, sizeof(context), "%s: node %" PRId64 " (`%.*s`), field `%.*s`", r->who,
               i, (int)n->type_key.size, n->type_key.data, (int)fi->name.size, fi->name.data);
      tether__error_add_context(context);
    }
  }
  if (rc != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  *out = tether_any_object(obj);
  return 0;
}

/* The value of node i, whose children are all decoded. */
static int tether__gr_build(tether_greader* r, const tether_gr_frame* f, TVMFFIAny* out) {
  int64_t i = f->node;
  tether_gr_node n;
  TVMFFIByteArray s;
  TVMFFIObjectHandle obj = NULL;
  int rc = 0;
  if (tether__gr_node(r, i, &n) != 0) return -1;
  const TVMFFIAny* d = n.data;
  switch (n.type_index) {
    case kTVMFFINone:
      *out = tether_any_none();
      return 0;
    case kTVMFFIBool:
      if (d->type_index != kTVMFFIBool && d->type_index != kTVMFFIInt) {
        return tether__gr_expect(r, i, &n, "a bool");
      }
      *out = tether_any_bool(d->v_int64 != 0);
      return 0;
    case kTVMFFIInt:
      if (d->type_index != kTVMFFIInt && d->type_index != kTVMFFIBool) {
        return tether__gr_expect(r, i, &n, "an int");
      }
      *out = tether_any_int(d->v_int64);
      return 0;
    case kTVMFFIFloat:
      if (d->type_index == kTVMFFIFloat) {
        *out = *d;
      } else if (d->type_index == kTVMFFIInt || d->type_index == kTVMFFIBool) {
        *out = tether_any_float((double)d->v_int64);
      } else {
        return tether__gr_expect(r, i, &n, "a number");
      }
      return 0;
    case kTVMFFIDataType: {
      DLDataType dtype;
      if (!tether_any_get_str(d, &s)) return tether__gr_expect(r, i, &n, "a string");
      if (TVMFFIDataTypeFromString(&s, &dtype) != 0) return -1;
      *out = tether_any_dtype(dtype);
      return 0;
    }
    case kTVMFFIDevice: {
      int64_t* ints = NULL;
      int64_t count = 0;
      if (tether__gr_ints(r, i, &n, &ints, &count) != 0) return -1;
      bool ok = count == 2 && ints[0] >= INT32_MIN && ints[0] <= INT32_MAX &&
                ints[1] >= INT32_MIN && ints[1] <= INT32_MAX;
      if (ok) *out = tether_any_device((int32_t)ints[0], (int32_t)ints[1]);
      free(ints);
      if (!ok) return tether__gr_expect(r, i, &n, "[device_type, device_id] (two int32)");
      return 0;
    }
    case kTVMFFIStr:
      if (!tether_any_get_str(d, &s)) return tether__gr_expect(r, i, &n, "a string");
      return tether_any_str(s.data, s.size, out);
    case kTVMFFIBytes: {
      uint8_t* bytes = NULL;
      size_t len = 0;
      if (!tether_any_get_str(d, &s)) return tether__gr_expect(r, i, &n, "a base64 string");
      rc = tether__base64_decode(s.data, s.size, &bytes, &len);
      if (rc > 0) {
        return tether_raise("ValueError", "%s: node %" PRId64 " (`ffi.Bytes`): invalid base64 "
                            "encoding", r->who, i);
      }
      if (rc < 0) return tether_raise("MemoryError", "%s: out of memory", r->who);
      TVMFFIByteArray b = {(const char*)bytes, len};
      rc = TVMFFIBytesFromByteArray(&b, out);
      free(bytes);
      return rc;
    }
    case kTVMFFIShape: {
      int64_t* ints = NULL;
      int64_t count = 0;
      if (tether__gr_ints(r, i, &n, &ints, &count) != 0) return -1;
      rc = tether_shape_new(ints, count, &obj);
      free(ints);
      if (rc == 0) *out = tether_any_object(obj);
      return rc;
    }
    default:
      break;
  }
  if (tether__gr_container(n.type_index)) {
    TVMFFIAny* items = malloc(sizeof(TVMFFIAny) * (size_t)(f->num_kids > 0 ? f->num_kids : 1));
    if (items == NULL) return tether_raise("MemoryError", "%s: out of memory", r->who);
    for (int64_t k = 0; k < f->num_kids; ++k) items[k] = r->decoded[f->kids[k]];
    switch (n.type_index) {
      case kTVMFFIArray:
        rc = tether_array_new(items, f->num_kids, &obj);
        break;
      case kTVMFFIList:
        rc = tether_list_new(items, f->num_kids, &obj);
        break;
      case kTVMFFIMap:
        rc = tether_map_new(items, f->num_kids / 2, &obj);
        break;
      default:
        rc = tether_dict_new(items, f->num_kids / 2, &obj);
        break;
    }
    free(items);
    if (rc == 0) *out = tether_any_object(obj);
    return rc;
  }
  if (n.type_index < kTVMFFIStaticObjectBegin) {
    return tether_raise("ValueError", "%s: node %" PRId64 ": type `%.*s` cannot be read from a "
                        "JSON graph", r->who, i, (int)n.type_key.size, n.type_key.data);
  }
  const tether_gtype* gt = tether__gcache_get(&r->cache, n.type_index);
  if (gt == NULL) return -1;
  if (gt->from_json != NULL) {
    if (TVMFFIFunctionCall(gt->from_json, (TVMFFIAny*)d, 1, out) != 0) {
      char context[200];
      snprintf(context, sizeof(context), "%s: node %" PRId64 " (`%.*s.__data_from_json__`)",
               r->who, i, (int)n.type_key.size, n.type_key.data);
      return tether__error_add_context(context);
    }
    return 0;
  }
  return tether__gr_object(r, i, &n, out);
}

/* tether_from_json_graph; errors name `who`. */
static int tether__from_json_graph(const char* who, const TVMFFIAny* graph, TVMFFIAny* out) {
  if (graph == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        graph == NULL ? "graph" : "out");
  }
  *out = tether_any_none();
  if (!tether__gr_is(graph, kTVMFFIMap)) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected an object, got `%s`",
                        who, tether_any_type_key(graph));
  }
  const TVMFFIAny* root = tether__gr_get(graph->v_obj, "root_index", 10);
  const TVMFFIAny* nodes = tether__gr_get(graph->v_obj, "nodes", 5);
  if (root == NULL || root->type_index != kTVMFFIInt) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected `root_index` "
                        "integer field", who);
  }
  if (!tether__gr_is(nodes, kTVMFFIArray)) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected `nodes` array "
                        "field", who);
  }
  tether_greader r;
  memset(&r, 0, sizeof(r));
  r.who = who;
  r.nodes = nodes->v_obj;
  r.num_nodes = tether_array_size(r.nodes);
  int rc = 0;
  if (root->v_int64 < 0 || root->v_int64 >= r.num_nodes) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph: invalid node index %" PRId64
                        " (root_index; %" PRId64 " nodes)", who, root->v_int64, r.num_nodes);
  }
  r.decoded = calloc((size_t)r.num_nodes, sizeof(TVMFFIAny));
  r.state = calloc((size_t)r.num_nodes, 1);
  if (r.decoded == NULL || r.state == NULL) rc = tether_raise("MemoryError", "%s: out of memory", who);
  for (int64_t i = 0; rc == 0 && i < r.num_nodes; ++i) r.decoded[i] = tether_any_none();
  if (rc == 0) rc = tether__gr_push(&r, root->v_int64);
  while (rc == 0 && r.num_frames > 0) {
    tether_gr_frame* f = &r.frames[r.num_frames - 1];
    if (f->next < f->num_kids) {
      int64_t k = f->kids[f->next];
      if (k < 0 || k >= r.num_nodes) {
        rc = tether_raise("ValueError", "%s: Invalid JSON Object Graph: invalid node index %"
                          PRId64 " (referenced by node %" PRId64 "; %" PRId64 " nodes)", who, k,
                          f->node, r.num_nodes);
      } else if (r.state[k] == TETHER_NODE_ACTIVE) {
        rc = tether_raise("ValueError", "%s: Invalid JSON Object Graph: node %" PRId64
                          " refers back to node %" PRId64 " (a cycle)", who, f->node, k);
      } else if (r.state[k] == TETHER_NODE_DONE) {
        ++f->next;
      } else {
        rc = tether__gr_push(&r, k);
      }
      continue;
    }
    TVMFFIAny value = tether_any_none();
    rc = tether__gr_build(&r, f, &value);
    if (rc != 0) break;
    r.decoded[f->node] = value;
    r.state[f->node] = TETHER_NODE_DONE;
    free(f->kids);
    --r.num_frames;
  }
  if (rc == 0) tether_any_copy(&r.decoded[root->v_int64], out);
  for (int64_t i = 0; i < r.num_frames; ++i) free(r.frames[i].kids);
  free(r.frames);
  for (int64_t i = 0; r.decoded != NULL && i < r.num_nodes; ++i) tether_any_release(&r.decoded[i]);
  free(r.decoded);
  free(r.state);
  tether__gcache_free(&r.cache);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

int tether_from_json_graph(const TVMFFIAny* graph, TVMFFIAny* out) {
  return tether__from_json_graph("ffi.FromJSONGraph", graph, out);
}

/* ---- ffi.Tensor's encoding -------------------------------------------------------------- */

/*
 * A CPU Tensor is written as base64 of, all little-endian:
 *   u64 magic 0xDD5E40F096B4A13F, u64 reserved 0, i32 device_type 1 (CPU), i32 device_id 0,
 *   i32 ndim, u8 dtype code, u8 bits, u16 lanes, ndim x i64 shape, i64 data size in bytes,
 *   then the elements in row-major order.
 * (apache-tvm's layout for tensors in JSON graphs.)  Read back, it is a new compact CPU
 * Tensor.
 */
#define TETHER_TENSOR_MAGIC UINT64_C(0xDD5E40F096B4A13F)
#define TETHER_TENSOR_HEADER 32 /* bytes before the shape */

static void tether__le_put(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t tether__le_get(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Bytes of the elements of a tensor of `dtype` with `n` elements, or -1 on overflow. */
static int64_t tether__tensor_nbytes(DLDataType dtype, int64_t numel) {
  int64_t elem = ((int64_t)dtype.bits * dtype.lanes + 7) / 8;
  if (elem != 0 && numel > INT64_MAX / elem) return -1;
  return numel * elem;
}

/* Copies the elements of `t` in row-major order to `dst` (`elem` bytes each). */
static void tether__tensor_gather(const DLTensor* t, int64_t elem, uint8_t* dst, int64_t numel) {
  const uint8_t* base = (const uint8_t*)t->data + t->byte_offset;
  bool compact = true;
  int64_t expect = 1;
  for (int32_t d = t->ndim - 1; d >= 0 && t->strides != NULL; --d) {
    if (t->shape[d] != 1 && t->strides[d] != expect) compact = false;
    expect *= t->shape[d];
  }
  if (compact) {
    if (numel > 0) memcpy(dst, base, (size_t)(numel * elem));
    return;
  }
  int64_t index[64] = {0};
  for (int64_t k = 0; k < numel; ++k) {
    int64_t offset = 0;
    for (int32_t d = 0; d < t->ndim; ++d) offset += index[d] * t->strides[d];
    memcpy(dst + k * elem, base + offset * elem, (size_t)elem);
    for (int32_t d = t->ndim - 1; d >= 0; --d) {
      if (++index[d] < t->shape[d]) break;
      index[d] = 0;
    }
  }
}

static int tether__tensor_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "ffi.Tensor.__data_to_json__";
  TVMFFIObject* obj = NULL;
  if (tether_check_nargs(fn, "(0: ffi.Tensor) -> str", n, 1) != 0) return -1;
  if (tether_arg_object(fn, args, 0, kTVMFFITensor, &obj) != 0) return -1;
  const DLTensor* t = tether_tensor_dl(obj);
  if (t->device.device_type != kDLCPU) {
    return tether_raise("ValueError", "%s: only CPU tensors can be written, this one is on "
                        "device type %d", fn, (int)t->device.device_type);
  }
  if (t->ndim < 0 || t->ndim > 64) {
    return tether_raise("ValueError", "%s: cannot write a tensor of %d dimensions", fn, (int)t->ndim);
  }
  int64_t numel = 1;
  for (int32_t d = 0; d < t->ndim; ++d) {
    if (t->shape[d] < 0 || (t->shape[d] != 0 && numel > INT64_MAX / t->shape[d])) {
      return tether_raise("ValueError", "%s: bad shape", fn);
    }
    numel *= t->shape[d];
  }
  int64_t elem = ((int64_t)t->dtype.bits * t->dtype.lanes + 7) / 8;
  int64_t nbytes = tether__tensor_nbytes(t->dtype, numel);
  if (nbytes < 0) return tether_raise("ValueError", "%s: the tensor's size overflows", fn);
  if (t->dtype.bits % 8 != 0 && t->strides != NULL && numel > 1) {
    for (int32_t d = t->ndim - 1, expect = 1; d >= 0; expect *= (int32_t)t->shape[d], --d) {
      if (t->shape[d] != 1 && t->strides[d] != expect) {
        return tether_raise("ValueError", "%s: a strided tensor of %d-bit elements cannot be "
                            "written", fn, (int)t->dtype.bits);
      }
    }
  }
  size_t size = TETHER_TENSOR_HEADER + 8 * (size_t)t->ndim + 8 + (size_t)nbytes;
  uint8_t* buf = malloc(size);
  if (buf == NULL) return tether_raise("MemoryError", "%s: out of memory", fn);
  uint8_t* p = buf;
  tether__le_put(p, TETHER_TENSOR_MAGIC, 8);
  tether__le_put(p + 8, 0, 8);
  tether__le_put(p + 16, kDLCPU, 4);
  tether__le_put(p + 20, 0, 4);
  tether__le_put(p + 24, (uint32_t)t->ndim, 4);
  p[28] = t->dtype.code;
  p[29] = t->dtype.bits;
  tether__le_put(p + 30, t->dtype.lanes, 2);
  p += TETHER_TENSOR_HEADER;
  for (int32_t d = 0; d < t->ndim; ++d, p += 8) tether__le_put(p, (uint64_t)t->shape[d], 8);
  tether__le_put(p, (uint64_t)nbytes, 8);
  p += 8;
  if (t->dtype.bits % 8 != 0) elem = nbytes; /* packed sub-byte data: copied whole */
  tether__tensor_gather(t, elem, p, elem == nbytes ? (nbytes > 0 ? 1 : 0) : numel);
  size_t len = 0;
  char* text = tether__base64_encode(buf, size, &len);
  free(buf);
  if (text == NULL) return tether_raise("MemoryError", "%s: out of memory", fn);
  int rc = tether_any_str(text, len, result);
  free(text);
  return rc;
}

static int tether__tensor_from_json(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  static const char fn[] = "ffi.Tensor.__data_from_json__";
  TVMFFIByteArray text;
  uint8_t* buf = NULL;
  size_t size = 0;
  if (tether_check_nargs(fn, "(0: str) -> ffi.Tensor", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  int rc = tether__base64_decode(text.data, text.size, &buf, &size);
  if (rc < 0) return tether_raise("MemoryError", "%s: out of memory", fn);
  if (rc > 0) return tether_raise("ValueError", "%s: invalid base64 encoding", fn);
  const char* bad = NULL;
  int64_t shape[64];
  int32_t ndim = 0;
  DLDataType dtype = {0, 0, 0};
  int64_t nbytes = 0, numel = 1;
  const uint8_t* p = buf;
  if (size < TETHER_TENSOR_HEADER + 8) {
    bad = "the payload is shorter than the tensor header";
  } else if (tether__le_get(p, 8) != TETHER_TENSOR_MAGIC) {
    bad = "the payload does not start with the tensor magic number";
  } else {
    ndim = (int32_t)tether__le_get(p + 24, 4);
    dtype.code = p[28];
    dtype.bits = p[29];
    dtype.lanes = (uint16_t)tether__le_get(p + 30, 2);
    if (ndim < 0 || ndim > 64) {
      bad = "ndim is out of range [0, 64]";
    } else if (size < TETHER_TENSOR_HEADER + 8 * (size_t)ndim + 8) {
      bad = "the payload ends inside the shape";
    } else if (dtype.bits == 0 || dtype.lanes == 0) {
      bad = "the dtype has 0 bits or 0 lanes";
    }
  }
  for (int32_t d = 0; bad == NULL && d < ndim; ++d) {
    shape[d] = (int64_t)tether__le_get(buf + TETHER_TENSOR_HEADER + 8 * d, 8);
    if (shape[d] < 0 || (shape[d] != 0 && numel > INT64_MAX / shape[d])) {
      bad = "a dimension is negative or the shape overflows";
    } else {
      numel *= shape[d];
    }
  }
  if (bad == NULL) {
    const uint8_t* q = buf + TETHER_TENSOR_HEADER + 8 * (size_t)ndim;
    nbytes = (int64_t)tether__le_get(q, 8);
    int64_t want = tether__tensor_nbytes(dtype, numel);
    size_t rest = size - (size_t)(q + 8 - buf);
    if (want < 0 || nbytes != want) {
      bad = "the data size does not match the shape and dtype";
    } else if ((uint64_t)nbytes != rest) {
      bad = "the data is truncated or followed by extra bytes";
    }
  }
  if (bad != NULL) {
    free(buf);
    return tether_raise("ValueError", "%s: %s", fn, bad);
  }
  /* The tensor library's own size for this shape and dtype (packed sub-byte types: fewer
   * bytes than whole elements) must be what the payload carries. */
  DLDevice cpu = {kDLCPU, 0};
  DLTensor proto = {NULL, cpu, ndim, dtype, shape, NULL, 0};
  int64_t alloc = 0;
  if (tether__tensor_check(fn, &proto, &alloc) != 0) {
    free(buf);
    return -1;
  }
  if (alloc != nbytes) {
    free(buf);
    return tether_raise("ValueError", "%s: the data size does not match the shape and dtype", fn);
  }
  TVMFFIObjectHandle t = NULL;
  rc = tether_tensor_empty(shape, ndim, dtype, cpu, &t);
  if (rc == 0 && nbytes > 0) {
    memcpy(tether_tensor_dl(t)->data, buf + size - (size_t)nbytes, (size_t)nbytes);
  }
  free(buf);
  if (rc == 0) *result = tether_any_object(t);
  return rc;
}

/* ---- globals --------------------------------------------------------------------------- */

static int tether__g_to_json_graph(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  if (tether_check_nargs("ffi.ToJSONGraph", "(0: Any, 1: Any) -> Any", n, 2) != 0) return -1;
  return tether_to_json_graph(&args[0], &args[1], result);
}

static int tether__g_to_json_graph_string(void* self, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  static const char fn[] = "ffi.ToJSONGraphString";
  if (tether_check_nargs(fn, "(0: Any, 1: Any) -> str", n, 2) != 0) return -1;
  TVMFFIAny graph;
  if (tether__to_json_graph(fn, &args[0], &args[1], &graph) != 0) return -1;
  int rc = tether__json_stringify(fn, &graph, 0, result);
  tether_any_release(&graph);
  return rc;
}

static int tether__g_from_json_graph(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  if (tether_check_nargs("ffi.FromJSONGraph", "(0: Any) -> Any", n, 1) != 0) return -1;
  return tether_from_json_graph(&args[0], result);
}

static int tether__g_from_json_graph_string(void* self, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  static const char fn[] = "ffi.FromJSONGraphString";
  TVMFFIByteArray text;
  TVMFFIAny graph;
  if (tether_check_nargs(fn, "(0: str) -> Any", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  if (tether__json_parse(fn, text.data, text.size, &graph, NULL) != 0) return -1;
  int rc = tether__from_json_graph(fn, &graph, result);
  tether_any_release(&graph);
  return rc;
}

int tether__serialization_init(void) {
  static const struct {
    const char* name;
    TVMFFISafeCallType fn;
    const char* doc;
  } globals[] = {
      {"ffi.ToJSONGraph", tether__g_to_json_graph,
       "The JSON graph (a JSON value) of a value, with optional metadata."},
      {"ffi.ToJSONGraphString", tether__g_to_json_graph_string,
       "The JSON graph of a value as compact text."},
      {"ffi.FromJSONGraph", tether__g_from_json_graph, "The value a JSON graph describes."},
      {"ffi.FromJSONGraphString", tether__g_from_json_graph_string,
       "The value a JSON graph text describes."},
  };
  for (size_t i = 0; i < sizeof(globals) / sizeof(globals[0]); ++i) {
    if (tether_func_register(globals[i].name, globals[i].fn, globals[i].doc, NULL, 0) != 0) {
      return -1;
    }
  }
  static const struct {
    const char* column;
    TVMFFISafeCallType fn;
  } tensor_hooks[] = {
      {"__data_to_json__", tether__tensor_to_json},
      {"__data_from_json__", tether__tensor_from_json},
  };
  for (size_t i = 0; i < sizeof(tensor_hooks) / sizeof(tensor_hooks[0]); ++i) {
    TVMFFIObjectHandle f = NULL;
    TVMFFIByteArray name = {tensor_hooks[i].column, strlen(tensor_hooks[i].column)};
    if (TVMFFIFunctionCreate(NULL, tensor_hooks[i].fn, NULL, &f) != 0) return -1;
    TVMFFIAny v = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr(kTVMFFITensor, &name, &v);
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  return 0;
}

void tether__serialization_fini(void) {}
