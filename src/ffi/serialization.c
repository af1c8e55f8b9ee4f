/*
 * serialization.c -- tvm-ffi's JSON object graph (see <tether/json.h>): the writer
 * (tether_to_json_graph), the reader (tether_from_json_graph), the globals
 * ffi.ToJSONGraph, ffi.ToJSONGraphString, ffi.FromJSONGraph and ffi.FromJSONGraphString,
 * the `__data_to_json__` / `__data_from_json__` encoding of ffi.Tensor, and enum variants
 * written as their index (an IntEnum's integer index, any other enum's string index) and
 * read back as the registered variant.
 *
 * Node order and sharing follow tvm-ffi's writer exactly, so that the text is the same
 * byte for byte: a depth-first walk that lists a value after everything it refers to,
 * children in order (array items; map keys then values; an object's fields, ancestors'
 * first); a value equal (tether_any_equal) to one already listed reuses its index.
 *
 * The writer first lists the nodes into a table (each node: the value, and its children's
 * indices or inline field values in one shared pool), then writes the table either as
 * text (ffi.ToJSONGraphString, straight into one buffer) or as JSON values
 * (ffi.ToJSONGraph).  The reader decodes a parsed document (json.h's tether_jdoc, made
 * from text or mirrored from JSON values) without making FFI objects for the JSON itself.
 * Per-type facts (field tables, the type key's text, hooks) are looked up once per call.
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
#include <tether/enum.h>
#include <tether/json.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "internal.h"
#include "error.h"
#include "json.h"
#include "map.h"
#include "string.h"
#include "tensor.h"
#include "type.h"

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

/* The entry registered as type attribute `column` for `type_index`, borrowed, or NULL. */
static const TVMFFIAny* tether__graph_attr(const char* column, int32_t type_index) {
  TVMFFIByteArray name = {column, strlen(column)};
  const TVMFFITypeAttrColumn* c = TVMFFIGetTypeAttrColumn(&name);
  if (c == NULL || c->data == NULL) return NULL;
  int32_t offset = type_index - c->begin_index;
  if (offset < 0 || offset >= c->size || c->data[offset].type_index == kTVMFFINone) return NULL;
  return &c->data[offset];
}

/* The Function registered as type attribute `column` for `type_index`, borrowed, or NULL. */
static TVMFFIObject* tether__graph_hook(const char* column, int32_t type_index) {
  const TVMFFIAny* a = tether__graph_attr(column, type_index);
  return a != NULL && a->type_index == kTVMFFIFunction ? a->v_obj : NULL;
}

/* true if objects of the type can be made empty and filled field by field: a native
 * creator, an `__ffi_new__` function, or a reflected layout (tether_object_new_reflected). */
static bool tether__graph_has_creator(const TVMFFITypeInfo* info) {
  if (info->metadata != NULL && info->metadata->creator != NULL) return true;
  if (tether__graph_hook("__ffi_new__", info->type_index) != NULL) return true;
  return tether__type_has_reflected_layout(info);
}

/*
 * What a graph call needs of one type, looked up once per call (the type table and the
 * attribute columns are read under a lock; a graph of 10,000 nodes of a few types would
 * otherwise look the same things up 10,000 times).  Hooks registered while a call runs
 * are not seen by that call.
 *
 * Fields are listed ancestors' first.  Each distinct field name is one slot of the node's
 * field object, in the order the names first occur (a field that repeats an ancestor's
 * name writes to and reads from the ancestor's slot, as a JSON object keeps one value per
 * key).
 */
typedef struct {
  bool ready;
  bool creatable;
  bool custom_equal;              /* has __any_equal__ or __any_hash__: memo by tether_any_hash */
  int8_t enum_kind;               /* tether_enum_kind: variants are written as their index */
  const TVMFFITypeInfo* info;
  TVMFFIAny key;                  /* owned string: the type key */
  char* head;                     /* text `{"type":"<key>"` */
  size_t head_len;
  TVMFFIObject* to_json;          /* borrowed hooks, or NULL */
  TVMFFIObject* from_json;
  TVMFFIObject* ffi_new;
  const TVMFFIFieldInfo** fields; /* ancestors' first */
  int8_t* kind_of;                /* field -> tether_field_kind of its getter, or -1 */
  int32_t* slot_of;               /* field -> slot */
  int32_t num_fields;
  TVMFFIAny* names;               /* owned strings, one per slot */
  TVMFFIByteArray* name_bytes;    /* the same names, borrowed from the field infos */
  char* slot_text;                /* the slots' `"<name>":` texts, one after another */
  size_t* slot_text_end;          /* end of slot s's text in slot_text */
  int32_t num_slots;
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
    for (int32_t k = 0; k < t->num_slots; ++k) tether_any_release(&t->names[k]);
    free(t->head);
    free(t->names);
    free(t->name_bytes);
    free(t->slot_text);
    free(t->slot_text_end);
    free(t->slot_of);
    free(t->kind_of);
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
  t->custom_equal = tether__graph_attr("__any_equal__", info->type_index) != NULL ||
                    tether__graph_attr("__any_hash__", info->type_index) != NULL;
  t->enum_kind = (int8_t)tether_enum_kind_of(info->type_index);
  t->to_json = tether__graph_hook("__data_to_json__", info->type_index);
  t->from_json = tether__graph_hook("__data_from_json__", info->type_index);
  t->ffi_new = tether__graph_hook("__ffi_new__", info->type_index);
  if (tether_any_str(info->type_key.data, info->type_key.size, &t->key) != 0) return -1;
  tether_jbuf text;
  memset(&text, 0, sizeof(text));
  tether__jbuf_put(&text, "{\"type\":", 8);
  tether__json_put_string(&text, info->type_key.data, info->type_key.size);
  t->head = text.data;
  t->head_len = text.len;
  if (text.oom) return tether_raise("MemoryError", "out of memory");
  if (total == 0) return 0;
  t->fields = malloc(sizeof(*t->fields) * (size_t)total);
  t->slot_of = malloc(sizeof(int32_t) * (size_t)total);
  t->kind_of = malloc(sizeof(int8_t) * (size_t)total);
  t->names = malloc(sizeof(TVMFFIAny) * (size_t)total);
  t->name_bytes = malloc(sizeof(TVMFFIByteArray) * (size_t)total);
  t->slot_text_end = malloc(sizeof(size_t) * (size_t)total);
  if (t->fields == NULL || t->slot_of == NULL || t->kind_of == NULL || t->names == NULL ||
      t->name_bytes == NULL ||
      t->slot_text_end == NULL) {
    return tether_raise("MemoryError", "out of memory");
  }
  memset(&text, 0, sizeof(text));
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* a = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < a->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &a->fields[i];
      int32_t slot = 0;
      while (slot < t->num_slots && !(t->name_bytes[slot].size == f->name.size &&
                                      memcmp(t->name_bytes[slot].data, f->name.data,
                                             f->name.size) == 0)) {
        ++slot;
      }
      if (slot == t->num_slots) {
        if (tether_any_str(f->name.data, f->name.size, &t->names[slot]) != 0) {
          free(text.data);
          return -1;
        }
        t->name_bytes[slot] = f->name;
        ++t->num_slots;
        if (slot > 0) tether__jbuf_putc(&text, ',');
        tether__json_put_string(&text, f->name.data, f->name.size);
        tether__jbuf_putc(&text, ':');
        t->slot_text_end[slot] = text.len;
      }
      t->slot_of[t->num_fields] = slot;
      t->kind_of[t->num_fields] =
          (int8_t)(f->getter != NULL ? tether_field_kind_of_getter(f->getter) : -1);
      t->fields[t->num_fields++] = f;
    }
  }
  t->slot_text = text.data;
  if (text.oom) return tether_raise("MemoryError", "out of memory");
  return 0;
}

/* The entry of `type_index` (borrowed from the cache); NULL with an error raised when the
 * type is not registered or out of memory. */
static const tether_gtype* tether__gcache_get(tether_gcache* c, int32_t type_index) {
  if (TETHER_LIKELY(type_index >= 0 && type_index < c->cap && c->types[type_index].ready)) {
    return &c->types[type_index];
  }
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
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == NULL) {
    tether_raise("ValueError", "type index %d is not registered", (int)type_index);
    return NULL;
  }
  /* Marked ready first: the cleanup then releases whatever part was filled (a failed
   * entry is not used again: the call fails). */
  t->ready = true;
  t->key = tether_any_none();
  return tether__gtype_fill(t, info) == 0 ? t : NULL;
}

/* A new empty object of type t, filled field by field next. */
static int tether__graph_create(const tether_gtype* t, TVMFFIObjectHandle* out) {
  const TVMFFITypeInfo* info = t->info;
  if (info->metadata != NULL && info->metadata->creator != NULL) {
    return info->metadata->creator(out);
  }
  TVMFFIObject* ffi_new = t->ffi_new;
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

/* A 64-bit mix of two words (for the hash tables below). */
static uint64_t tether__graph_mix(uint64_t a, uint64_t b) {
  uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  return h;
}

static uint64_t tether__graph_hash_bytes(uint64_t seed, const char* s, size_t n) {
  uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ull);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0x100000001B3ull;
    h ^= h >> 29;
  }
  uint64_t w = 0;
  for (size_t k = 0; i + k < n; ++k) w |= (uint64_t)(unsigned char)s[i + k] << (8 * k);
  return tether__graph_mix(h, w);
}

/* A small cache of DataType <-> text, for the inline dtype fields (one per tensor type). */
#define TETHER_GRAPH_DTYPES 8
typedef struct {
  DLDataType dtype;
  TVMFFIAny text; /* owned string */
} tether_gdtype;

typedef struct {
  tether_gdtype entries[TETHER_GRAPH_DTYPES];
  int n;
  int next; /* the entry replaced next when full */
} tether_gdtypes;

static bool tether__dtype_eq(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

/* The text of `dtype` into *out (owning). */
static int tether__gdtypes_text(tether_gdtypes* c, DLDataType dtype, TVMFFIAny* out) {
  for (int i = 0; i < c->n; ++i) {
    if (tether__dtype_eq(c->entries[i].dtype, dtype)) {
      tether_any_copy(&c->entries[i].text, out);
      return 0;
    }
  }
  TVMFFIAny text = tether_any_none();
  if (TVMFFIDataTypeToString(&dtype, &text) != 0) return -1;
  int i = c->n < TETHER_GRAPH_DTYPES ? c->n++ : c->next++ % TETHER_GRAPH_DTYPES;
  tether_any_release(&c->entries[i].text);
  c->entries[i].dtype = dtype;
  c->entries[i].text = text;
  tether_any_copy(&text, out);
  return 0;
}

/* The DataType that `text` names, into *out. */
static int tether__gdtypes_parse(tether_gdtypes* c, TVMFFIByteArray text, DLDataType* out) {
  TVMFFIByteArray s;
  for (int i = 0; i < c->n; ++i) {
    if (tether_any_get_str(&c->entries[i].text, &s) && s.size == text.size &&
        memcmp(s.data, text.data, s.size) == 0) {
      *out = c->entries[i].dtype;
      return 0;
    }
  }
  if (TVMFFIDataTypeFromString(&text, out) != 0) return -1;
  TVMFFIAny owned = tether_any_none();
  if (tether_any_str(text.data, text.size, &owned) != 0) {
    TVMFFIErrorMoveFromRaised(NULL); /* only the cache misses out */
    return 0;
  }
  int i = c->n < TETHER_GRAPH_DTYPES ? c->n++ : c->next++ % TETHER_GRAPH_DTYPES;
  tether_any_release(&c->entries[i].text);
  c->entries[i].dtype = *out;
  c->entries[i].text = owned;
  return 0;
}

static void tether__gdtypes_free(tether_gdtypes* c) {
  for (int i = 0; i < c->n; ++i) tether_any_release(&c->entries[i].text);
  c->n = 0;
}

/* ---- the writer ------------------------------------------------------------------------ */

/* ffi.Tensor's own `__data_to_json__` (the Function registered at load; the type attribute
 * column holds it), and the payload it encodes: the text writer encodes that payload
 * straight into the text while the attribute is still this function. */
static TVMFFIObject* tether__tensor_to_json_fn;
static int tether__tensor_payload(const char* fn, TVMFFIObject* obj, uint8_t** out,
                                  size_t* out_size);
/* Likewise `__data_from_json__`: the reader decodes the text it parsed straight away. */
static TVMFFIObject* tether__tensor_from_json_fn;
static int tether__tensor_from_text(TVMFFIByteArray text, TVMFFIAny* result);

enum { TETHER_GRAPH_SEQ, TETHER_GRAPH_MAP, TETHER_GRAPH_OBJ };

/* How a listed node's data is found. */
enum {
  TETHER_GN_LEAF,   /* from the value itself (scalars, strings, bytes, Shape, Device) */
  TETHER_GN_CUSTOM, /* pool[first]: what `__data_to_json__` returned, or an enum's index */
  TETHER_GN_TENSOR, /* ffi.Tensor's own encoding, made when the node is written */
  TETHER_GN_ITEMS,  /* pool[first, first + count): the children's indices (ints) */
  TETHER_GN_FIELDS  /* pool[first, first + count): one JSON scalar per slot */
};

typedef struct {
  TVMFFIAny value; /* owned: the value this node lists */
  int32_t type_index;
  int32_t form;
  int64_t first;
  int64_t count;
} tether_gw_node;

typedef struct {
  TVMFFIAny value; /* owned: the container or object whose children are being listed */
  int kind;
  int64_t pos;      /* next item / map position / field */
  bool at_value;    /* MAP: the current entry's key is listed, its value is next */
  bool checked;     /* its address is in the active set */
  int64_t start;    /* its items (indices, or one value per slot) from pending[start] */
  int32_t type_index; /* OBJ: its entry in the type cache */
  uint64_t hash;    /* its memo hash */
} tether_gw_frame;

/* A memo entry: a listed value's hash and node index + 1 (0: an empty entry). */
typedef struct {
  uint64_t hash;
  int64_t node;
} tether_gw_memo;

typedef struct {
  const char* who;
  tether_gw_node* nodes;
  int64_t num_nodes;
  int64_t cap_nodes;
  TVMFFIAny* pool; /* owned JSON values: the nodes' items */
  int64_t num_pool;
  int64_t cap_pool;
  TVMFFIAny* pending; /* owned: the items of the frames on the stack */
  int64_t num_pending;
  int64_t cap_pending;
  tether_gw_memo* memo; /* value -> node: open addressing */
  uint64_t memo_mask;
  /* Addresses of the values on the stack that could be met again while they are there:
   * every List and Dict (as tvm-ffi checks), and everything deeper than
   * TETHER_GRAPH_CHECK_DEPTH (a cycle through anything else keeps going deeper).  Open
   * addressing, NULL empty, removal by backward shift. */
  const void** active;
  uint64_t active_mask;
  int64_t num_active;
  tether_gcache cache;
  tether_gdtypes dtypes;
  tether_gw_frame* frames;
  int64_t num_frames;
  int64_t cap_frames;
} tether_gwriter;

#define TETHER_GRAPH_CHECK_DEPTH 256

static int tether__gw_oom(tether_gwriter* w) {
  return tether_raise("MemoryError", "%s: out of memory", w->who);
}

/* The memo hash of `v`: equal values (tether_any_equal) hash equally. */
static int tether__gw_hash(tether_gwriter* w, const TVMFFIAny* v, uint64_t* out) {
  int32_t t = v->type_index;
  if (t == kTVMFFISmallStr || t == kTVMFFISmallBytes) {
    *out = tether__graph_hash_bytes(t == kTVMFFISmallStr ? kTVMFFIStr : kTVMFFIBytes, v->v_bytes,
                                    v->small_str_len <= 7 ? v->small_str_len : 7);
    return 0;
  }
  if (t < kTVMFFIStaticObjectBegin || v->v_obj == NULL) {
    *out = tether__graph_mix((uint64_t)(int64_t)t, v->v_uint64);
    return 0;
  }
  int32_t ot = v->v_obj->type_index;
  if (ot == kTVMFFIStr || ot == kTVMFFIBytes) {
    const TVMFFIByteArray* b = TETHER_CELL(TVMFFIByteArray, v->v_obj);
    *out = tether__graph_hash_bytes((uint64_t)ot, b->data, b->size);
    return 0;
  }
  const tether_gtype* gt = tether__gcache_get(&w->cache, ot);
  if (gt == NULL) return -1;
  *out = gt->custom_equal ? tether_any_hash(v)
                          : tether__graph_mix((uint64_t)(int64_t)ot, (uint64_t)(uintptr_t)v->v_obj);
  return 0;
}

/* The node listing a value equal to `v` (whose hash is h), or -1. */
static int64_t tether__gw_memo_find(const tether_gwriter* w, const TVMFFIAny* v, uint64_t h) {
  if (w->memo == NULL) return -1;
  for (uint64_t i = h & w->memo_mask;; i = (i + 1) & w->memo_mask) {
    const tether_gw_memo* e = &w->memo[i];
    if (e->node == 0) return -1;
    if (e->hash == h && tether_any_equal(&w->nodes[e->node - 1].value, v)) return e->node - 1;
  }
}

static void tether__gw_memo_put(tether_gw_memo* memo, uint64_t mask, int64_t node, uint64_t h) {
  uint64_t i = h & mask;
  while (memo[i].node != 0) i = (i + 1) & mask;
  memo[i].node = node + 1;
  memo[i].hash = h;
}

/* Records node `node` (hash h) in the memo, growing it to keep it at most half full. */
static int tether__gw_memo_add(tether_gwriter* w, int64_t node, uint64_t h) {
  uint64_t cap = w->memo == NULL ? 0 : w->memo_mask + 1;
  if ((uint64_t)(node + 1) * 2 > cap) {
    uint64_t ncap = cap ? cap * 2 : 1024;
    tether_gw_memo* memo = calloc(ncap, sizeof(tether_gw_memo));
    if (memo == NULL) return tether__gw_oom(w);
    for (uint64_t i = 0; i < cap; ++i) {
      if (w->memo[i].node != 0) tether__gw_memo_put(memo, ncap - 1, w->memo[i].node - 1, w->memo[i].hash);
    }
    free(w->memo);
    w->memo = memo;
    w->memo_mask = ncap - 1;
  }
  tether__gw_memo_put(w->memo, w->memo_mask, node, h);
  return 0;
}

static uint64_t tether__gw_active_home(const tether_gwriter* w, const void* p) {
  return tether__graph_mix((uint64_t)(uintptr_t)p, 0) & w->active_mask;
}

static bool tether__gw_active_has(const tether_gwriter* w, const void* p) {
  if (w->active == NULL) return false;
  for (uint64_t i = tether__gw_active_home(w, p);; i = (i + 1) & w->active_mask) {
    if (w->active[i] == NULL) return false;
    if (w->active[i] == p) return true;
  }
}

/* Adds `p` (not in the set). */
static int tether__gw_active_add(tether_gwriter* w, const void* p) {
  uint64_t cap = w->active == NULL ? 0 : w->active_mask + 1;
  if ((uint64_t)(w->num_active + 1) * 2 > cap) {
    uint64_t ncap = cap ? cap * 2 : 64;
    const void** slots = calloc(ncap, sizeof(void*));
    if (slots == NULL) return tether__gw_oom(w);
    const void** old = w->active;
    w->active = slots;
    w->active_mask = ncap - 1;
    for (uint64_t i = 0; i < cap; ++i) {
      if (old[i] == NULL) continue;
      uint64_t k = tether__gw_active_home(w, old[i]);
      while (slots[k] != NULL) k = (k + 1) & w->active_mask;
      slots[k] = old[i];
    }
    free(old);
  }
  uint64_t k = tether__gw_active_home(w, p);
  while (w->active[k] != NULL) k = (k + 1) & w->active_mask;
  w->active[k] = p;
  ++w->num_active;
  return 0;
}

/* Removes `p` (in the set), shifting later entries of its run back. */
static void tether__gw_active_remove(tether_gwriter* w, const void* p) {
  uint64_t mask = w->active_mask;
  uint64_t i = tether__gw_active_home(w, p);
  while (w->active[i] != p) i = (i + 1) & mask;
  uint64_t j = i;
  for (;;) {
    w->active[i] = NULL;
    for (;;) {
      j = (j + 1) & mask;
      if (w->active[j] == NULL) {
        --w->num_active;
        return;
      }
      uint64_t home = tether__gw_active_home(w, w->active[j]);
      /* move j back to i unless its home lies cyclically in (i, j] */
      bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) break;
    }
    w->active[i] = w->active[j];
    i = j;
  }
}

/* Appends a node for `value` (borrowed; the node keeps its own reference), hash h. */
static int tether__gw_add(tether_gwriter* w, const TVMFFIAny* value, uint64_t h, int32_t type_index,
                          int32_t form, int64_t first, int64_t count, int64_t* index) {
  if (TETHER_UNLIKELY(w->num_nodes == w->cap_nodes) &&
      !tether__json_grow((void**)&w->nodes, &w->cap_nodes, w->num_nodes + 1,
                         sizeof(tether_gw_node))) {
    return tether__gw_oom(w);
  }
  if (tether__gw_memo_add(w, w->num_nodes, h) != 0) return -1;
  tether_gw_node* n = &w->nodes[w->num_nodes];
  tether_any_copy(value, &n->value);
  n->type_index = type_index;
  n->form = form;
  n->first = first;
  n->count = count;
  *index = w->num_nodes++;
  return 0;
}

/* Appends the owning value *v (stolen: reset to None, released on failure) to pool or
 * pending. */
static int tether__gw_append(tether_gwriter* w, TVMFFIAny** items, int64_t* num, int64_t* cap,
                             TVMFFIAny* v) {
  if (TETHER_UNLIKELY(*num == *cap) &&
      !tether__json_grow((void**)items, cap, *num + 1, sizeof(TVMFFIAny))) {
    tether_any_release(v);
    return tether__gw_oom(w);
  }
  (*items)[(*num)++] = *v;
  *v = tether_any_none();
  return 0;
}

/* Starts listing the children of `v` (borrowed; the frame keeps its own reference). */
static int tether__gw_push(tether_gwriter* w, const TVMFFIAny* v, uint64_t h) {
  bool check = v->type_index == kTVMFFIList || v->type_index == kTVMFFIDict ||
               w->num_frames >= TETHER_GRAPH_CHECK_DEPTH;
  if (check && tether__gw_active_has(w, v->v_obj)) {
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
  f.start = w->num_pending;
  f.hash = h;
  if (f.kind == TETHER_GRAPH_OBJ) {
    const tether_gtype* gt = tether__gcache_get(&w->cache, v->v_obj->type_index);
    if (gt == NULL) return -1;
    if (!gt->creatable) {
      return tether_raise("TypeError", "%s: Type `%s` does not support ToJSONGraph (no native "
                          "creator or __ffi_new__ type attr)", w->who, tether_any_type_key(v));
    }
    f.type_index = v->v_obj->type_index;
    if (!tether__json_grow((void**)&w->pending, &w->cap_pending, w->num_pending + gt->num_slots,
                           sizeof(TVMFFIAny))) {
      return tether__gw_oom(w);
    }
    for (int32_t s = 0; s < gt->num_slots; ++s) w->pending[w->num_pending++] = tether_any_none();
  }
  if (!tether__json_grow((void**)&w->frames, &w->cap_frames, w->num_frames + 1, sizeof(f))) {
    return tether__gw_oom(w);
  }
  if (check) {
    if (tether__gw_active_add(w, v->v_obj) != 0) return -1;
    f.checked = true;
  }
  tether_any_copy(v, &f.value);
  w->frames[w->num_frames++] = f;
  return 0;
}

/* Lists `v` (borrowed): *index is its node's index, or -1 when a frame was pushed and the
 * index follows when that frame is done. */
static int tether__gw_visit(tether_gwriter* w, const TVMFFIAny* v, int64_t* index) {
  uint64_t h;
  if (tether__gw_hash(w, v, &h) != 0) return -1;
  int64_t known = tether__gw_memo_find(w, v, h);
  if (known >= 0) {
    *index = known;
    return 0;
  }
  int32_t t = v->type_index;
  switch (t) {
    case kTVMFFINone:
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
    case kTVMFFIDataType:
    case kTVMFFIDevice:
    case kTVMFFIShape:
      return tether__gw_add(w, v, h, t, TETHER_GN_LEAF, 0, 0, index);
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return tether__gw_add(w, v, h, kTVMFFIStr, TETHER_GN_LEAF, 0, 0, index);
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return tether__gw_add(w, v, h, kTVMFFIBytes, TETHER_GN_LEAF, 0, 0, index);
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap:
    case kTVMFFIDict:
      *index = -1;
      return tether__gw_push(w, v, h);
    default:
      break;
  }
  if (t < kTVMFFIStaticObjectBegin || v->v_obj == NULL) {
    return tether_raise("RuntimeError", "%s: Cannot serialize type `%s`", w->who,
                        tether_any_type_key(v));
  }
  const tether_gtype* gt = tether__gcache_get(&w->cache, v->v_obj->type_index);
  if (gt == NULL) return -1;
  TVMFFIAny data = tether_any_none();
  if (gt->enum_kind != TETHER_ENUM_NONE) {
    const tether_enum_t* e = (const tether_enum_t*)v->v_obj;
    if (gt->enum_kind == TETHER_ENUM_INT) {
      data = tether_any_int(e->int_index);
    } else {
      tether_any_copy(&e->str_index, &data);
    }
    int64_t first = w->num_pool;
    if (tether__gw_append(w, &w->pool, &w->num_pool, &w->cap_pool, &data) != 0) return -1;
    return tether__gw_add(w, v, h, v->v_obj->type_index, TETHER_GN_CUSTOM, first, 1, index);
  }
  if (gt->to_json == NULL) {
    *index = -1;
    return tether__gw_push(w, v, h);
  }
  if (gt->to_json == tether__tensor_to_json_fn && v->v_obj->type_index == kTVMFFITensor) {
    return tether__gw_add(w, v, h, kTVMFFITensor, TETHER_GN_TENSOR, 0, 0, index);
  }
  if (TVMFFIFunctionCall(gt->to_json, (TVMFFIAny*)v, 1, &data) != 0) {
    char context[200];
    snprintf(context, sizeof(context), "%s: `%s.__data_to_json__`", w->who, tether_any_type_key(v));
    return tether__error_add_context(context);
  }
  int64_t first = w->num_pool;
  if (tether__gw_append(w, &w->pool, &w->num_pool, &w->cap_pool, &data) != 0) return -1;
  return tether__gw_add(w, v, h, v->v_obj->type_index, TETHER_GN_CUSTOM, first, 1, index);
}

static void tether__gw_frame_free(tether_gw_frame* f) { tether_any_release(&f->value); }

/* The value of an inline field as JSON: null, a bool, an int, a float or a dtype string. */
static int tether__gw_inline(tether_gwriter* w, TVMFFIAny* v, const TVMFFIFieldInfo* fi,
                             TVMFFIAny* out) {
  switch (v->type_index) {
    case kTVMFFINone:
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      *out = *v;
      return 0;
    case kTVMFFIDataType:
      return tether__gdtypes_text(&w->dtypes, v->v_dtype, out);
    default:
      return tether_raise("TypeError", "%s: field `%.*s` is declared `%s` but holds a `%s`",
                          w->who, (int)fi->name.size, fi->name.data,
                          tether_type_key(fi->field_static_type_index), tether_any_type_key(v));
  }
}

/* Stores the owning *v (stolen) as the pending value of slot `slot` of frame f. */
static void tether__gw_set_slot(tether_gwriter* w, const tether_gw_frame* f, int32_t slot,
                                TVMFFIAny* v) {
  TVMFFIAny* at = &w->pending[f->start + slot];
  tether_any_release(at);
  *at = *v;
  *v = tether_any_none();
}

/* Records a finished child's index in the top frame. */
static int tether__gw_deliver(tether_gwriter* w, int64_t index) {
  tether_gw_frame* f = &w->frames[w->num_frames - 1];
  TVMFFIAny idx = tether_any_int(index);
  if (f->kind == TETHER_GRAPH_OBJ) {
    tether__gw_set_slot(w, f, w->cache.types[f->type_index].slot_of[f->pos - 1], &idx);
    return 0;
  }
  return tether__gw_append(w, &w->pending, &w->num_pending, &w->cap_pending, &idx);
}

/* One step of the top frame: lists its next child, or finishes it.  *done_index is the
 * finished frame's node index, or -1. */
static int tether__gw_step(tether_gwriter* w, int64_t* done_index) {
  tether_gw_frame* f = &w->frames[w->num_frames - 1];
  TVMFFIObject* obj = f->value.v_obj;
  const TVMFFIAny* child = NULL;
  TVMFFIAny owned = tether_any_none(), view;
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
      const TVMFFIFieldInfo* fi = t->fields[f->pos];
      int32_t kind = t->kind_of[f->pos];
      int32_t slot = t->slot_of[f->pos++];
      void* addr = (char*)obj + fi->offset;
      /* Reference fields stored by libtether's own kinds are read in place (the frame holds
       * the object); a node that lists one takes its own reference. */
      if (kind == TETHER_FIELD_ANY || kind == TETHER_FIELD_STRING ||
          kind == TETHER_FIELD_OPT_STRING) {
        child = (const TVMFFIAny*)addr;
        break;
      }
      if (kind == TETHER_FIELD_OBJECT || kind == TETHER_FIELD_OPT_OBJECT) {
        TVMFFIObject* ref = *(TVMFFIObject**)addr;
        view = ref != NULL ? tether_any_object(ref) : tether_any_none();
        child = &view;
        break;
      }
      if (fi->getter == NULL) {
        return tether_raise("TypeError", "%s: field `%.*s` of `%s` has no getter", w->who,
                            (int)fi->name.size, fi->name.data, tether_any_type_key(&f->value));
      }
      tether_any_release(&owned);
      if (fi->getter(addr, &owned) != 0) return -1;
      if (!tether__graph_inline_field(fi->field_static_type_index)) {
        child = &owned;
        break;
      }
      TVMFFIAny value;
      int rc = tether__gw_inline(w, &owned, fi, &value);
      tether_any_release(&owned);
      if (rc != 0) return -1;
      tether__gw_set_slot(w, f, slot, &value);
    }
  }
  if (child != NULL) {
    int64_t index;
    int rc = tether__gw_visit(w, child, &index);
    tether_any_release(&owned);
    if (rc != 0) return -1;
    /* the frame array may have moved when a frame was pushed */
    return index >= 0 ? tether__gw_deliver(w, index) : 0;
  }
  /* every child is listed: the node itself, its items moved from pending to the pool */
  int64_t n = w->num_pending - f->start;
  int64_t first = w->num_pool;
  if (!tether__json_grow((void**)&w->pool, &w->cap_pool, w->num_pool + n, sizeof(TVMFFIAny))) {
    return tether__gw_oom(w);
  }
  if (n > 0) memcpy(w->pool + first, w->pending + f->start, sizeof(TVMFFIAny) * (size_t)n);
  w->num_pool += n;
  w->num_pending = f->start;
  tether_gw_frame done = *f;
  --w->num_frames;
  if (done.checked) tether__gw_active_remove(w, obj);
  int rc = tether__gw_add(w, &done.value, done.hash, obj->type_index,
                          done.kind == TETHER_GRAPH_OBJ ? TETHER_GN_FIELDS : TETHER_GN_ITEMS,
                          first, n, done_index);
  tether__gw_frame_free(&done);
  return rc;
}

static void tether__gw_free(tether_gwriter* w) {
  for (int64_t i = 0; i < w->num_frames; ++i) tether__gw_frame_free(&w->frames[i]);
  for (int64_t i = 0; i < w->num_nodes; ++i) tether_any_release(&w->nodes[i].value);
  for (int64_t i = 0; i < w->num_pool; ++i) tether_any_release(&w->pool[i]);
  for (int64_t i = 0; i < w->num_pending; ++i) tether_any_release(&w->pending[i]);
  free(w->frames);
  free(w->nodes);
  free(w->pool);
  free(w->pending);
  free(w->memo);
  free(w->active);
  tether__gcache_free(&w->cache);
  tether__gdtypes_free(&w->dtypes);
}

/* Lists every node of `value` (a view); the root's node index in *root. */
static int tether__gw_run(tether_gwriter* w, const TVMFFIAny* value, int64_t* root) {
  TVMFFIAny owned = tether_any_none();
  /* the pool exists from the start: nodes point into it even when they have no items */
  if (!tether__json_grow((void**)&w->pool, &w->cap_pool, 16, sizeof(TVMFFIAny))) {
    return tether__gw_oom(w);
  }
  int rc = TVMFFIAnyViewToOwnedAny(value, &owned);
  if (rc == 0) rc = tether__gw_visit(w, &owned, root);
  tether_any_release(&owned);
  while (rc == 0 && w->num_frames > 0) {
    int64_t done;
    rc = tether__gw_step(w, &done);
    if (rc == 0 && done >= 0) {
      if (w->num_frames == 0) {
        *root = done;
      } else {
        rc = tether__gw_deliver(w, done);
      }
    }
  }
  return rc;
}

/* ---- the writer: nodes as JSON values ---------------------------------------------------- */

/* The data of a LEAF node as a JSON value: *data (owning); *has_data false for None. */
static int tether__gw_leaf_json(tether_gwriter* w, const tether_gw_node* n, TVMFFIAny* data,
                                bool* has_data) {
  const TVMFFIAny* v = &n->value;
  TVMFFIByteArray s;
  *data = tether_any_none();
  *has_data = true;
  switch (n->type_index) {
    case kTVMFFINone:
      *has_data = false;
      return 0;
    case kTVMFFIBool:
    case kTVMFFIInt:
    case kTVMFFIFloat:
      *data = *v;
      return 0;
    case kTVMFFIDataType:
      return tether__gdtypes_text(&w->dtypes, v->v_dtype, data);
    case kTVMFFIDevice: {
      TVMFFIAny items[2] = {tether_any_int(v->v_device.device_type),
                            tether_any_int(v->v_device.device_id)};
      TVMFFIObjectHandle arr = NULL;
      if (tether_array_new(items, 2, &arr) != 0) return -1;
      *data = tether_any_object(arr);
      return 0;
    }
    case kTVMFFIStr:
      tether_any_copy(v, data);
      return 0;
    case kTVMFFIBytes: {
      size_t len;
      if (!tether_any_get_bytes(v, &s)) break;
      char* text = tether__base64_encode((const uint8_t*)s.data, s.size, &len);
      if (text == NULL) return tether__gw_oom(w);
      int rc = tether_any_str(text, len, data);
      free(text);
      return rc;
    }
    case kTVMFFIShape: {
      int64_t count = tether_shape_size(v->v_obj);
      const int64_t* dims = tether_shape_data(v->v_obj);
      TVMFFIAny* items = count > 0 ? malloc(sizeof(TVMFFIAny) * (size_t)count) : NULL;
      TVMFFIObjectHandle arr = NULL;
      if (count > 0 && items == NULL) return tether__gw_oom(w);
      for (int64_t i = 0; i < count; ++i) items[i] = tether_any_int(dims[i]);
      int rc = tether_array_new(items, count, &arr);
      free(items);
      if (rc != 0) return -1;
      *data = tether_any_object(arr);
      return 0;
    }
    default:
      break;
  }
  return tether_raise("RuntimeError", "%s: Cannot serialize type `%s`", w->who,
                      tether_any_type_key(v));
}

/* The JSON value (a Map {"type", "data"}) of node i. */
static int tether__gw_node_json(tether_gwriter* w, int64_t i, TVMFFIAny* out) {
  const tether_gw_node* n = &w->nodes[i];
  const tether_gtype* t = tether__gcache_get(&w->cache, n->type_index);
  if (t == NULL) return -1;
  TVMFFIAny data = tether_any_none();
  bool has_data = true;
  const TVMFFIAny* items = w->pool + n->first;
  if (n->form == TETHER_GN_LEAF) {
    if (tether__gw_leaf_json(w, n, &data, &has_data) != 0) return -1;
  } else if (n->form == TETHER_GN_CUSTOM) {
    tether_any_copy(&items[0], &data);
  } else if (n->form == TETHER_GN_TENSOR) {
    if (TVMFFIFunctionCall(t->to_json, (TVMFFIAny*)&n->value, 1, &data) != 0) {
      return tether__error_add_context(w->who);
    }
  } else if (n->form == TETHER_GN_ITEMS) {
    TVMFFIObjectHandle arr = NULL;
    if (tether_array_new(items, n->count, &arr) != 0) return -1;
    data = tether_any_object(arr);
  } else {
    TVMFFIObject* map = NULL;
    if (tether__map_new(kTVMFFIMap, n->count, &map) != 0) return -1;
    for (int64_t s = 0; s < n->count; ++s) {
      if (tether__map_set(map, &t->names[s], &items[s]) != 0) {
        TVMFFIObjectDecRef(map);
        return -1;
      }
    }
    data = tether_any_object(map);
  }
  return tether__graph_node(&t->key, has_data ? &data : NULL, out);
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
  TVMFFIAny key = tether_any_none(), item = tether_any_none();
  TVMFFIAny* nodes = NULL;
  TVMFFIObject* doc = NULL;
  TVMFFIObjectHandle arr = NULL;
  int64_t root_index = -1, made = 0;
  int rc = tether__gw_run(&w, value, &root_index);
  if (rc == 0) {
    nodes = malloc(sizeof(TVMFFIAny) * (size_t)(w.num_nodes > 0 ? w.num_nodes : 1));
    if (nodes == NULL) rc = tether__gw_oom(&w);
  }
  while (rc == 0 && made < w.num_nodes) {
    rc = tether__gw_node_json(&w, made, &nodes[made]);
    if (rc == 0) ++made;
  }
  if (rc == 0) {
    rc = tether_array_new_steal(nodes, made, &arr);
    made = 0;
  }
  if (rc == 0) rc = tether__map_new(kTVMFFIMap, 3, &doc);
  if (rc == 0) rc = tether_any_str("root_index", 10, &key);
  if (rc == 0) {
    item = tether_any_int(root_index);
    rc = tether__map_set_steal(doc, &key, &item);
  }
  if (rc == 0) rc = tether_any_str("nodes", 5, &key);
  if (rc == 0) {
    item = tether_any_object(arr);
    arr = NULL;
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
  for (int64_t i = 0; i < made; ++i) tether_any_release(&nodes[i]);
  free(nodes);
  tether__gw_free(&w);
  if (doc != NULL) TVMFFIObjectDecRef(doc);
  if (arr != NULL) TVMFFIObjectDecRef(arr);
  tether_any_release(&key);
  tether_any_release(&item);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

int tether_to_json_graph(const TVMFFIAny* value, const TVMFFIAny* metadata, TVMFFIAny* out) {
  return tether__to_json_graph("ffi.ToJSONGraph", value, metadata, out);
}

/* ---- the writer: nodes as text ----------------------------------------------------------- */

/* A JSON scalar of the pool (an index, or an inline field's value) as text. */
static void tether__gw_put_scalar(tether_jbuf* b, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  switch (v->type_index) {
    case kTVMFFIInt:
      tether__json_put_int(b, v->v_int64);
      return;
    case kTVMFFIBool:
      tether__jbuf_put(b, v->v_int64 ? "true" : "false", v->v_int64 ? 4 : 5);
      return;
    case kTVMFFIFloat:
      tether__json_put_float(b, v->v_float64);
      return;
    default:
      if (tether_any_get_str(v, &s)) {
        tether__json_put_string(b, s.data, s.size);
      } else {
        tether__jbuf_put(b, "null", 4);
      }
      return;
  }
}

/* Appends node i's text. */
static int tether__gw_node_text(tether_gwriter* w, int64_t i, tether_jbuf* b) {
  const tether_gw_node* n = &w->nodes[i];
  const tether_gtype* t = tether__gcache_get(&w->cache, n->type_index);
  if (t == NULL) return -1;
  const TVMFFIAny* items = w->pool + n->first;
  tether__jbuf_put(b, t->head, t->head_len);
  if (n->form == TETHER_GN_FIELDS) {
    tether__jbuf_put(b, ",\"data\":{", 9);
    size_t from = 0;
    for (int64_t s = 0; s < n->count; ++s) {
      tether__jbuf_put(b, t->slot_text + from, t->slot_text_end[s] - from);
      from = t->slot_text_end[s];
      tether__gw_put_scalar(b, &items[s]);
    }
    tether__jbuf_put(b, "}}", 2);
    return 0;
  }
  if (n->form == TETHER_GN_ITEMS) {
    tether__jbuf_put(b, ",\"data\":[", 9);
    for (int64_t k = 0; k < n->count; ++k) {
      if (k != 0) tether__jbuf_putc(b, ',');
      tether__json_put_int(b, items[k].v_int64);
    }
    tether__jbuf_put(b, "]}", 2);
    return 0;
  }
  const TVMFFIAny* v = &n->value;
  TVMFFIByteArray s;
  if (n->type_index == kTVMFFINone) {
    tether__jbuf_putc(b, '}');
    return 0;
  }
  tether__jbuf_put(b, ",\"data\":", 8);
  if (n->form == TETHER_GN_CUSTOM) {
    if (tether__json_write(w->who, b, &items[0], 0) != 0) return -1;
  } else if (n->form == TETHER_GN_TENSOR) {
    uint8_t* payload = NULL;
    size_t size = 0;
    if (tether__tensor_payload("ffi.Tensor.__data_to_json__", v->v_obj, &payload, &size) != 0) {
      return tether__error_add_context(w->who);
    }
    tether__json_put_base64(b, payload, size);
    free(payload);
  } else if (n->type_index == kTVMFFIInt || n->type_index == kTVMFFIBool ||
             n->type_index == kTVMFFIFloat) {
    tether__gw_put_scalar(b, v);
  } else if (n->type_index == kTVMFFIStr && tether_any_get_str(v, &s)) {
    tether__json_put_string(b, s.data, s.size);
  } else if (n->type_index == kTVMFFIShape) {
    int64_t count = tether_shape_size(v->v_obj);
    const int64_t* dims = tether_shape_data(v->v_obj);
    tether__jbuf_putc(b, '[');
    for (int64_t k = 0; k < count; ++k) {
      if (k != 0) tether__jbuf_putc(b, ',');
      tether__json_put_int(b, dims[k]);
    }
    tether__jbuf_putc(b, ']');
  } else {
    /* the rest as their JSON values (bytes as base64, a Device as a pair, dtype text) */
    TVMFFIAny data = tether_any_none();
    bool has_data;
    if (tether__gw_leaf_json(w, n, &data, &has_data) != 0) return -1;
    int rc = tether__json_write(w->who, b, &data, 0);
    tether_any_release(&data);
    if (rc != 0) return -1;
  }
  tether__jbuf_putc(b, '}');
  return 0;
}

/* ffi.ToJSONGraphString: the graph of `value` written straight to text (the text
 * tether_json_stringify writes for tether_to_json_graph's result). */
static int tether__to_json_graph_string(const char* who, const TVMFFIAny* value,
                                        const TVMFFIAny* metadata, TVMFFIAny* out) {
  *out = tether_any_none();
  tether_gwriter w;
  memset(&w, 0, sizeof(w));
  w.who = who;
  tether_jbuf b;
  memset(&b, 0, sizeof(b));
  int64_t root_index = -1;
  int rc = tether__gw_run(&w, value, &root_index);
  /* room for typical nodes up front: the buffer then rarely moves */
  if (rc == 0 && w.num_nodes < (int64_t)(SIZE_MAX / 128)) {
    tether__jbuf_reserve(&b, (size_t)w.num_nodes * 64 + 64);
  }
  if (rc == 0) {
    tether__jbuf_put(&b, "{\"root_index\":", 14);
    tether__json_put_int(&b, root_index);
    tether__jbuf_put(&b, ",\"nodes\":[", 10);
  }
  for (int64_t i = 0; rc == 0 && i < w.num_nodes && !b.oom; ++i) {
    if (i != 0) tether__jbuf_putc(&b, ',');
    rc = tether__gw_node_text(&w, i, &b);
  }
  if (rc == 0) tether__jbuf_putc(&b, ']');
  if (rc == 0 && metadata != NULL && metadata->type_index != kTVMFFINone) {
    tether__jbuf_put(&b, ",\"metadata\":", 12);
    rc = tether__json_write(who, &b, metadata, 0);
  }
  tether__gw_free(&w);
  if (rc == 0) {
    tether__jbuf_putc(&b, '}');
    tether__jbuf_reserve(&b, 1); /* the string's '\0' */
  }
  if (rc == 0 && b.oom) rc = tether_raise("MemoryError", "%s: out of memory", who);
  if (rc == 0) {
    /* the text becomes the string as it is, without a copy (it is never small) */
    TVMFFIObject* str = tether__str_adopt(kTVMFFIStr, b.data, b.len);
    b.data = NULL;
    if (str == NULL) {
      rc = -1;
    } else {
      *out = tether_any_object(str);
    }
  }
  free(b.data);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

/* ---- the reader ------------------------------------------------------------------------ */

enum { TETHER_NODE_NEW = 0, TETHER_NODE_ACTIVE = 1, TETHER_NODE_DONE = 2 };

/* A node's parts: its type key, type index and data (NULL when absent). */
typedef struct {
  TVMFFIByteArray type_key;
  int32_t type_index;
  const tether_jval* data;
} tether_gr_node;

typedef struct {
  int64_t node;
  tether_gr_node n;
  int64_t kids; /* its children's node indices, from kids[kids], in order */
  int64_t num_kids;
  int64_t next;
  int64_t slots; /* OBJ: each slot's JSON value (or NULL), from slots[slots] */
} tether_gr_frame;

/* A type key seen in this document, and its type index. */
typedef struct {
  TVMFFIByteArray key;
  int32_t type_index;
} tether_gr_key;

typedef struct {
  const char* who;
  const tether_jdoc* doc;
  const tether_jval* nodes; /* the document's "nodes" items */
  int64_t num_nodes;
  TVMFFIAny* decoded;
  uint8_t* state;
  tether_gr_frame* frames;
  int64_t num_frames;
  int64_t cap_frames;
  int64_t* kids;
  int64_t num_kids;
  int64_t cap_kids;
  const tether_jval** slots;
  int64_t num_slots;
  int64_t cap_slots;
  tether_gr_key* keys; /* open addressing by the key's text, key.data NULL: empty */
  uint64_t keys_mask;
  int64_t num_keys;
  tether_gcache cache;
  tether_gdtypes dtypes;
} tether_greader;

static int tether__gr_oom(tether_greader* r) {
  return tether_raise("MemoryError", "%s: out of memory", r->who);
}

static bool tether__gr_str(const tether_jval* v, TVMFFIByteArray* out) {
  if (v == NULL || v->kind != TETHER_JV_STR) return false;
  *out = v->u.s;
  return true;
}

static bool tether__key_eq(TVMFFIByteArray a, TVMFFIByteArray b) {
  if (a.size != b.size) return false;
  if (a.size > 16) return memcmp(a.data, b.data, a.size) == 0;
  for (size_t i = 0; i < a.size; ++i) { /* field names and type keys: short */
    if (a.data[i] != b.data[i]) return false;
  }
  return true;
}

/* The type index of type key `key` (remembered per document); -1 when unknown (nothing
 * raised), -2 out of memory (raised). */
static int32_t tether__gr_type_index(tether_greader* r, TVMFFIByteArray key) {
  uint64_t h = tether__graph_hash_bytes(0, key.data, key.size);
  if (r->keys != NULL) {
    for (uint64_t i = h & r->keys_mask; r->keys[i].key.data != NULL; i = (i + 1) & r->keys_mask) {
      if (tether__key_eq(r->keys[i].key, key)) return r->keys[i].type_index;
    }
  }
  int32_t index;
  if (TVMFFITypeKeyToIndex(&key, &index) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    return -1;
  }
  uint64_t cap = r->keys == NULL ? 0 : r->keys_mask + 1;
  if ((uint64_t)(r->num_keys + 1) * 2 > cap) {
    uint64_t ncap = cap ? cap * 2 : 64;
    tether_gr_key* keys = calloc(ncap, sizeof(tether_gr_key));
    if (keys == NULL) {
      tether__gr_oom(r);
      return -2;
    }
    for (uint64_t i = 0; i < cap; ++i) {
      if (r->keys[i].key.data == NULL) continue;
      uint64_t k = tether__graph_hash_bytes(0, r->keys[i].key.data, r->keys[i].key.size) & (ncap - 1);
      while (keys[k].key.data != NULL) k = (k + 1) & (ncap - 1);
      keys[k] = r->keys[i];
    }
    free(r->keys);
    r->keys = keys;
    r->keys_mask = ncap - 1;
  }
  uint64_t k = h & r->keys_mask;
  while (r->keys[k].key.data != NULL) k = (k + 1) & r->keys_mask;
  r->keys[k].key = key;
  r->keys[k].type_index = index;
  ++r->num_keys;
  return index;
}

static int tether__gr_node(tether_greader* r, int64_t i, tether_gr_node* out) {
  const tether_jval* node = &r->nodes[i];
  if (node->kind != TETHER_JV_OBJECT) {
    return tether_raise("ValueError", "%s: node %" PRId64 " must be a JSON object, got `%s`",
                        r->who, i, tether__jval_type_key(node));
  }
  const tether_jval* type = tether__jdoc_get(r->doc, node, "type", 4);
  if (!tether__gr_str(type, &out->type_key)) {
    return tether_raise("ValueError", "%s: node %" PRId64 " has no string field `type`", r->who, i);
  }
  out->type_index = tether__gr_type_index(r, out->type_key);
  if (out->type_index == -2) return -1;
  if (out->type_index < 0) {
    return tether_raise("ValueError", "%s: node %" PRId64 " has unknown type `%.*s`", r->who, i,
                        (int)out->type_key.size, out->type_key.data);
  }
  out->data = tether__jdoc_get(r->doc, node, "data", 4);
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
                      tether__jval_type_key(n->data));
}

/* Checks that the data of node i is an array of ints; its items in *items, *count. */
static int tether__gr_ints(tether_greader* r, int64_t i, const tether_gr_node* n,
                           const tether_jval** items, int64_t* count) {
  if (n->data == NULL || n->data->kind != TETHER_JV_ARRAY) {
    return tether__gr_expect(r, i, n, "an array");
  }
  *items = r->doc->items + n->data->u.c.first;
  *count = n->data->u.c.count;
  for (int64_t k = 0; k < *count; ++k) {
    if ((*items)[k].kind != TETHER_JV_INT) {
      return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): item %" PRId64
                          " must be an int, got `%s`", r->who, i, (int)n->type_key.size,
                          n->type_key.data, k, tether__jval_type_key(&(*items)[k]));
    }
  }
  return 0;
}

static bool tether__gr_container(int32_t t) {
  return t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
}

static int tether__gr_push_kid(tether_greader* r, int64_t kid) {
  if (TETHER_UNLIKELY(r->num_kids == r->cap_kids) &&
      !tether__json_grow((void**)&r->kids, &r->cap_kids, r->num_kids + 1, sizeof(int64_t))) {
    return tether__gr_oom(r);
  }
  r->kids[r->num_kids++] = kid;
  return 0;
}

/* Matches the members of an object node's data to the type's slots (pushed on the slot
 * stack from f->slots; a repeated key: the last one counts; unknown keys are ignored). */
static int tether__gr_match_slots(tether_greader* r, const tether_gtype* gt, tether_gr_frame* f) {
  f->slots = r->num_slots;
  if (!tether__json_grow((void**)&r->slots, &r->cap_slots, r->num_slots + gt->num_slots,
                         sizeof(*r->slots))) {
    return tether__gr_oom(r);
  }
  const tether_jval** slots = r->slots + r->num_slots;
  for (int32_t s = 0; s < gt->num_slots; ++s) slots[s] = NULL;
  r->num_slots += gt->num_slots;
  const tether_jval* items = r->doc->items + f->n.data->u.c.first;
  for (int64_t m = 0; m < f->n.data->u.c.count; ++m) {
    const tether_jval* name = &items[2 * m];
    if (name->kind != TETHER_JV_STR) continue;
    /* the writer's order first: member m is usually slot m */
    int32_t s = m < gt->num_slots ? (int32_t)m : 0;
    for (int32_t tried = 0; tried < gt->num_slots; ++tried, s = s + 1 == gt->num_slots ? 0 : s + 1) {
      if (tether__key_eq(gt->name_bytes[s], name->u.s)) {
        slots[s] = &items[2 * m + 1];
        break;
      }
    }
  }
  return 0;
}

/* Starts decoding node i: checks its shape and lists the nodes it refers to. */
static int tether__gr_push(tether_greader* r, int64_t i) {
  tether_gr_frame f;
  memset(&f, 0, sizeof(f));
  f.node = i;
  f.kids = r->num_kids;
  f.slots = r->num_slots;
  if (tether__gr_node(r, i, &f.n) != 0) return -1;
  int32_t t = f.n.type_index;
  if (tether__gr_container(t)) {
    const tether_jval* items;
    int64_t count;
    if (tether__gr_ints(r, i, &f.n, &items, &count) != 0) return -1;
    if ((t == kTVMFFIMap || t == kTVMFFIDict) && count % 2 != 0) {
      return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): Map/Dict data must "
                          "contain an even number of [key, value] entries, got %" PRId64,
                          r->who, i, (int)f.n.type_key.size, f.n.type_key.data, count);
    }
    for (int64_t k = 0; k < count; ++k) {
      if (tether__gr_push_kid(r, items[k].u.i) != 0) return -1;
    }
  } else if (t >= kTVMFFIStaticObjectBegin && t != kTVMFFIStr && t != kTVMFFIBytes &&
             t != kTVMFFIShape) {
    const tether_gtype* gt = tether__gcache_get(&r->cache, t);
    if (gt == NULL) return -1;
    if (gt->from_json == NULL && gt->enum_kind == TETHER_ENUM_NONE) {
      if (f.n.data->kind != TETHER_JV_OBJECT) return tether__gr_expect(r, i, &f.n, "an object");
      if (tether__gr_match_slots(r, gt, &f) != 0) return -1;
      const tether_jval** slots = r->slots + f.slots;
      for (int32_t k = 0; k < gt->num_fields; ++k) {
        const TVMFFIFieldInfo* fi = gt->fields[k];
        if (tether__graph_inline_field(fi->field_static_type_index)) continue;
        const tether_jval* ref = slots[gt->slot_of[k]];
        if (ref == NULL) continue;
        if (ref->kind != TETHER_JV_INT) {
          return tether_raise("ValueError", "%s: node %" PRId64 " (`%.*s`): field `%.*s` must be "
                              "a node index, got `%s`", r->who, i, (int)f.n.type_key.size,
                              f.n.type_key.data, (int)fi->name.size, fi->name.data,
                              tether__jval_type_key(ref));
        }
        if (tether__gr_push_kid(r, ref->u.i) != 0) return -1;
      }
    }
  }
  f.num_kids = r->num_kids - f.kids;
  if (!tether__json_grow((void**)&r->frames, &r->cap_frames, r->num_frames + 1, sizeof(f))) {
    return tether__gr_oom(r);
  }
  r->frames[r->num_frames++] = f;
  r->state[i] = TETHER_NODE_ACTIVE;
  return 0;
}

/* Sets field `fi` of `obj` from its JSON value `v` (inline, or a node index). */
static int tether__gr_field(tether_greader* r, TVMFFIObject* obj, const TVMFFIFieldInfo* fi,
                            const tether_jval* v) {
  TVMFFIAny value = tether_any_none();
  TVMFFIByteArray s;
  int32_t want = fi->field_static_type_index;
  if (!tether__graph_inline_field(want)) return tether_field_set(obj, fi, &r->decoded[v->u.i]);
  if (want == kTVMFFIDataType && tether__gr_str(v, &s)) {
    DLDataType dtype;
    if (tether__gdtypes_parse(&r->dtypes, s, &dtype) != 0) return -1;
    value = tether_any_dtype(dtype);
  } else if (want != kTVMFFINone) {
    if (tether__jdoc_to_any(r->doc, v, &value) != 0) return -1;
  }
  int rc = tether_field_set(obj, fi, &value);
  tether_any_release(&value);
  return rc;
}

/* An object from its fields' JSON. */
static int tether__gr_object(tether_greader* r, const tether_gr_frame* f, TVMFFIAny* out) {
  const tether_gr_node* n = &f->n;
  int64_t i = f->node;
  const tether_gtype* gt = tether__gcache_get(&r->cache, n->type_index);
  if (gt == NULL) return -1;
  if (!gt->creatable) {
    return tether_raise("TypeError", "%s: node %" PRId64 ": type `%.*s` cannot be created from "
                        "a JSON graph (no creator, __ffi_new__ or __data_from_json__)", r->who, i,
                        (int)n->type_key.size, n->type_key.data);
  }
  TVMFFIObjectHandle obj = NULL;
  int rc = tether__graph_create(gt, &obj);
  const tether_jval** slots = r->slots + f->slots;
  for (int32_t k = 0; rc == 0 && k < gt->num_fields; ++k) {
    const TVMFFIFieldInfo* fi = gt->fields[k];
    const tether_jval* v = slots[gt->slot_of[k]];
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
    if (obj != NULL) TVMFFIObjectDecRef(obj);
    return -1;
  }
  *out = tether_any_object(obj);
  return 0;
}

/* The registered variant whose index is the node's data (an int for IntEnum types, a
 * string for the others). */
static int tether__gr_enum(tether_greader* r, int64_t i, const tether_gr_node* n, int kind,
                           TVMFFIAny* out) {
  const tether_jval* d = n->data;
  TVMFFIAny index = tether_any_none();
  TVMFFIByteArray s;
  TVMFFIObjectHandle variant = NULL;
  if (kind == TETHER_ENUM_INT) {
    if (d->kind != TETHER_JV_INT) return tether__gr_expect(r, i, n, "an int (the enum's index)");
    index = tether_any_int(d->u.i);
  } else {
    if (!tether__gr_str(d, &s)) return tether__gr_expect(r, i, n, "a string (the enum's index)");
    if (tether_any_str(s.data, s.size, &index) != 0) return -1;
  }
  int rc = tether_enum_get(n->type_index, &index, &variant);
  tether_any_release(&index);
  if (rc != 0) {
    char context[200];
    snprintf(context, sizeof(context), "%s: node %" PRId64 " (`%.*s`)", r->who, i,
             (int)n->type_key.size, n->type_key.data);
    return tether__error_add_context(context);
  }
  *out = tether_any_object(variant);
  return 0;
}

/* The value of the node of frame f, whose children are all decoded. */
static int tether__gr_build(tether_greader* r, const tether_gr_frame* f, TVMFFIAny* out) {
  int64_t i = f->node;
  const tether_gr_node* n = &f->n;
  TVMFFIByteArray s;
  TVMFFIObjectHandle obj = NULL;
  int rc = 0;
  const tether_jval* d = n->data;
  switch (n->type_index) {
    case kTVMFFINone:
      *out = tether_any_none();
      return 0;
    case kTVMFFIBool:
      if (d->kind != TETHER_JV_BOOL && d->kind != TETHER_JV_INT) {
        return tether__gr_expect(r, i, n, "a bool");
      }
      *out = tether_any_bool(d->u.i != 0);
      return 0;
    case kTVMFFIInt:
      if (d->kind != TETHER_JV_INT && d->kind != TETHER_JV_BOOL) {
        return tether__gr_expect(r, i, n, "an int");
      }
      *out = tether_any_int(d->u.i);
      return 0;
    case kTVMFFIFloat:
      if (d->kind == TETHER_JV_FLOAT) {
        *out = tether_any_float(d->u.f);
      } else if (d->kind == TETHER_JV_INT || d->kind == TETHER_JV_BOOL) {
        *out = tether_any_float((double)d->u.i);
      } else {
        return tether__gr_expect(r, i, n, "a number");
      }
      return 0;
    case kTVMFFIDataType: {
      DLDataType dtype;
      if (!tether__gr_str(d, &s)) return tether__gr_expect(r, i, n, "a string");
      if (tether__gdtypes_parse(&r->dtypes, s, &dtype) != 0) return -1;
      *out = tether_any_dtype(dtype);
      return 0;
    }
    case kTVMFFIDevice: {
      const tether_jval* items;
      int64_t count;
      if (tether__gr_ints(r, i, n, &items, &count) != 0) return -1;
      bool ok = count == 2 && items[0].u.i >= INT32_MIN && items[0].u.i <= INT32_MAX &&
                items[1].u.i >= INT32_MIN && items[1].u.i <= INT32_MAX;
      if (!ok) return tether__gr_expect(r, i, n, "[device_type, device_id] (two int32)");
      *out = tether_any_device((int32_t)items[0].u.i, (int32_t)items[1].u.i);
      return 0;
    }
    case kTVMFFIStr:
      if (!tether__gr_str(d, &s)) return tether__gr_expect(r, i, n, "a string");
      return tether_any_str(s.data, s.size, out);
    case kTVMFFIBytes: {
      uint8_t* bytes = NULL;
      size_t len = 0;
      if (!tether__gr_str(d, &s)) return tether__gr_expect(r, i, n, "a base64 string");
      rc = tether__base64_decode(s.data, s.size, &bytes, &len);
      if (rc > 0) {
        return tether_raise("ValueError", "%s: node %" PRId64 " (`ffi.Bytes`): invalid base64 "
                            "encoding", r->who, i);
      }
      if (rc < 0) return tether__gr_oom(r);
      TVMFFIByteArray b = {(const char*)bytes, len};
      rc = TVMFFIBytesFromByteArray(&b, out);
      free(bytes);
      return rc;
    }
    case kTVMFFIShape: {
      const tether_jval* items;
      int64_t count;
      if (tether__gr_ints(r, i, n, &items, &count) != 0) return -1;
      int64_t* ints = malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
      if (ints == NULL) return tether__gr_oom(r);
      for (int64_t k = 0; k < count; ++k) ints[k] = items[k].u.i;
      rc = tether_shape_new(ints, count, &obj);
      free(ints);
      if (rc == 0) *out = tether_any_object(obj);
      return rc;
    }
    default:
      break;
  }
  if (tether__gr_container(n->type_index)) {
    TVMFFIAny* items = malloc(sizeof(TVMFFIAny) * (size_t)(f->num_kids > 0 ? f->num_kids : 1));
    if (items == NULL) return tether__gr_oom(r);
    const int64_t* kids = r->kids + f->kids;
    for (int64_t k = 0; k < f->num_kids; ++k) items[k] = r->decoded[kids[k]];
    switch (n->type_index) {
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
  if (n->type_index < kTVMFFIStaticObjectBegin) {
    return tether_raise("ValueError", "%s: node %" PRId64 ": type `%.*s` cannot be read from a "
                        "JSON graph", r->who, i, (int)n->type_key.size, n->type_key.data);
  }
  const tether_gtype* gt = tether__gcache_get(&r->cache, n->type_index);
  if (gt == NULL) return -1;
  if (gt->enum_kind != TETHER_ENUM_NONE) return tether__gr_enum(r, i, n, gt->enum_kind, out);
  if (gt->from_json != NULL) {
    if (gt->from_json == tether__tensor_from_json_fn && n->type_index == kTVMFFITensor &&
        tether__gr_str(d, &s)) {
      rc = tether__tensor_from_text(s, out);
    } else {
      TVMFFIAny arg = tether_any_none();
      if (tether__jdoc_to_any(r->doc, d, &arg) != 0) return -1;
      rc = TVMFFIFunctionCall(gt->from_json, &arg, 1, out);
      tether_any_release(&arg);
    }
    if (rc != 0) {
      char context[200];
      snprintf(context, sizeof(context), "%s: node %" PRId64 " (`%.*s.__data_from_json__`)",
               r->who, i, (int)n->type_key.size, n->type_key.data);
      return tether__error_add_context(context);
    }
    return 0;
  }
  return tether__gr_object(r, f, out);
}

/* The value the graph document `doc` describes, into *out (owning); errors name `who`. */
static int tether__from_json_doc(const char* who, const tether_jdoc* doc, TVMFFIAny* out) {
  const tether_jval* graph = &doc->root;
  if (graph->kind != TETHER_JV_OBJECT) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected an object, got `%s`",
                        who, tether__jval_type_key(graph));
  }
  const tether_jval* root = tether__jdoc_get(doc, graph, "root_index", 10);
  const tether_jval* nodes = tether__jdoc_get(doc, graph, "nodes", 5);
  if (root == NULL || root->kind != TETHER_JV_INT) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected `root_index` "
                        "integer field", who);
  }
  if (nodes == NULL || nodes->kind != TETHER_JV_ARRAY) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph, expected `nodes` array "
                        "field", who);
  }
  tether_greader r;
  memset(&r, 0, sizeof(r));
  r.who = who;
  r.doc = doc;
  r.nodes = doc->items + nodes->u.c.first;
  r.num_nodes = nodes->u.c.count;
  int64_t root_index = root->u.i;
  if (root_index < 0 || root_index >= r.num_nodes) {
    return tether_raise("ValueError", "%s: Invalid JSON Object Graph: invalid node index %" PRId64
                        " (root_index; %" PRId64 " nodes)", who, root_index, r.num_nodes);
  }
  int rc = 0;
  r.decoded = calloc((size_t)r.num_nodes, sizeof(TVMFFIAny));
  r.state = calloc((size_t)r.num_nodes, 1);
  /* the stacks exist from the start: frames point into them even when they hold nothing */
  if (r.decoded == NULL || r.state == NULL ||
      !tether__json_grow((void**)&r.kids, &r.cap_kids, 16, sizeof(int64_t)) ||
      !tether__json_grow((void**)&r.slots, &r.cap_slots, 16, sizeof(*r.slots))) {
    rc = tether__gr_oom(&r);
  }
  for (int64_t i = 0; rc == 0 && i < r.num_nodes; ++i) r.decoded[i] = tether_any_none();
  if (rc == 0) rc = tether__gr_push(&r, root_index);
  while (rc == 0 && r.num_frames > 0) {
    tether_gr_frame* f = &r.frames[r.num_frames - 1];
    if (f->next < f->num_kids) {
      int64_t k = r.kids[f->kids + f->next];
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
    r.num_kids = f->kids;
    r.num_slots = f->slots;
    --r.num_frames;
  }
  if (rc == 0) tether_any_copy(&r.decoded[root_index], out);
  free(r.frames);
  free(r.kids);
  free(r.slots);
  free(r.keys);
  for (int64_t i = 0; r.decoded != NULL && i < r.num_nodes; ++i) tether_any_release(&r.decoded[i]);
  free(r.decoded);
  free(r.state);
  tether__gcache_free(&r.cache);
  tether__gdtypes_free(&r.dtypes);
  return rc;
}

/* tether_from_json_graph; errors name `who`. */
static int tether__from_json_graph(const char* who, const TVMFFIAny* graph, TVMFFIAny* out) {
  if (graph == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        graph == NULL ? "graph" : "out");
  }
  *out = tether_any_none();
  tether_jdoc doc;
  int rc = tether__jdoc_from_any(who, graph, &doc);
  if (rc == 0) rc = tether__from_json_doc(who, &doc, out);
  tether__jdoc_free(&doc);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

int tether_from_json_graph(const TVMFFIAny* graph, TVMFFIAny* out) {
  return tether__from_json_graph("ffi.FromJSONGraph", graph, out);
}

/* ffi.FromJSONGraphString: the text parsed into a document (no FFI values for the JSON
 * itself), then decoded. */
static int tether__from_json_graph_string(const char* who, const char* text, size_t len,
                                          TVMFFIAny* out) {
  *out = tether_any_none();
  tether_jdoc doc;
  memset(&doc, 0, sizeof(doc));
  int rc = tether__jdoc_parse(who, text, len, &doc, NULL);
  if (rc == 0) {
    rc = tether__from_json_doc(who, &doc, out);
    if (rc != 0) tether__error_add_context(who);
  }
  tether__jdoc_free(&doc);
  return rc;
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
  /* Packed: elements of fewer than 8 bits share bytes (the tensor library's layout). */
  int64_t bits = (int64_t)dtype.bits * dtype.lanes;
  if (bits != 0 && numel > (INT64_MAX - 7) / bits) return -1;
  return (numel * bits + 7) / 8;
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

/* The binary payload (above) of the tensor `obj`: a new malloc'd buffer of *out_size bytes. */
static int tether__tensor_payload(const char* fn, TVMFFIObject* obj, uint8_t** out,
                                  size_t* out_size) {
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
  *out = buf;
  *out_size = size;
  return 0;
}

static int tether__tensor_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "ffi.Tensor.__data_to_json__";
  TVMFFIObject* obj = NULL;
  uint8_t* buf = NULL;
  size_t size = 0, len = 0;
  if (tether_check_nargs(fn, "(0: ffi.Tensor) -> str", n, 1) != 0) return -1;
  if (tether_arg_object(fn, args, 0, kTVMFFITensor, &obj) != 0) return -1;
  if (tether__tensor_payload(fn, obj, &buf, &size) != 0) return -1;
  char* text = tether__base64_encode(buf, size, &len);
  free(buf);
  if (text == NULL) return tether_raise("MemoryError", "%s: out of memory", fn);
  int rc = tether_any_str(text, len, result);
  free(text);
  return rc;
}

/* The tensor of base64 `text` (the encoding above), into *result (owning). */
static int tether__tensor_from_text(TVMFFIByteArray text, TVMFFIAny* result) {
  static const char fn[] = "ffi.Tensor.__data_from_json__";
  uint8_t* buf = NULL;
  size_t size = 0;
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

static int tether__tensor_from_json(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  static const char fn[] = "ffi.Tensor.__data_from_json__";
  TVMFFIByteArray text;
  if (tether_check_nargs(fn, "(0: str) -> ffi.Tensor", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  return tether__tensor_from_text(text, result);
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
  return tether__to_json_graph_string(fn, &args[0], &args[1], result);
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
  if (tether_check_nargs(fn, "(0: str) -> Any", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  return tether__from_json_graph_string(fn, text.data, text.size, result);
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
    if (tensor_hooks[i].fn == tether__tensor_to_json) tether__tensor_to_json_fn = f;
    if (tensor_hooks[i].fn == tether__tensor_from_json) tether__tensor_from_json_fn = f;
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  return 0;
}

void tether__serialization_fini(void) {}
