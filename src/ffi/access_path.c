/*
 * access_path.c -- paths into a value: ffi.reflection.AccessStep (one attribute, array
 * index or map key) and ffi.reflection.AccessPath (a linked list of steps back to the
 * root), with the methods and `__ffi_repr__` tvm-ffi registers for them, and
 * ffi.VisitErrorContext.FindAccessPaths, which turns the breadcrumb trail an error
 * collected during a traversal into the paths from a root that lead to it.
 */
#include <stdio.h>

#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "internal.h"
#include "access_path.h"
#include "array.h"
#include "dataclass.h"
#include "list.h"
#include "map.h"
#include "type.h"
#include "visit.h"

int32_t tether__access_step_index = -1;
int32_t tether__access_path_index = -1;

static bool tether__is_path(const TVMFFIObject* obj) {
  return obj != NULL && obj->type_index == tether__access_path_index;
}

/* ---- construction ------------------------------------------------------------------------- */

static int tether__access_step_new(int32_t kind, const TVMFFIAny* key, TVMFFIObject** out) {
  TVMFFIObject* step = NULL;
  if (tether_object_new_reflected(tether__access_step_index, (TVMFFIObjectHandle*)&step) != 0) {
    return -1;
  }
  tether_access_step_t* s = (tether_access_step_t*)step;
  s->kind = kind;
  if (TVMFFIAnyViewToOwnedAny(key, &s->key) != 0) {
    TVMFFIObjectDecRef(step);
    return -1;
  }
  *out = step;
  return 0;
}

int tether__access_path_push(TVMFFIObject* parent, int32_t kind, const TVMFFIAny* key,
                             TVMFFIObject** out) {
  TVMFFIObject* path = NULL;
  if (tether_object_new_reflected(tether__access_path_index, (TVMFFIObjectHandle*)&path) != 0) {
    return -1;
  }
  if (parent != NULL) {
    tether_access_path_t* p = (tether_access_path_t*)path;
    if (tether__access_step_new(kind, key, &p->step) != 0) {
      TVMFFIObjectDecRef(path);
      return -1;
    }
    TVMFFIObjectIncRef(parent);
    p->parent = parent;
    p->depth = ((tether_access_path_t*)parent)->depth + 1;
  }
  *out = path;
  return 0;
}

int tether_access_path_root(TVMFFIObjectHandle* out) {
  if (out == NULL) return tether_raise("ValueError", "tether_access_path_root: argument `out` must not be NULL");
  return tether__access_path_push(NULL, 0, NULL, (TVMFFIObject**)out);
}

/* Checks that `key` fits step `kind`: a string for attributes, an int for array items. */
static int tether__check_step_key(const char* fname, int32_t kind, const TVMFFIAny* key) {
  TVMFFIByteArray s;
  switch (kind) {
    case TETHER_ACCESS_ATTR:
    case TETHER_ACCESS_ATTR_MISSING:
      if (tether_any_get_str(key, &s)) return 0;
      return tether_raise("TypeError", "%s: an attribute step needs a str key, got `%s`", fname,
                          tether_any_type_key(key));
    case TETHER_ACCESS_ARRAY_ITEM:
    case TETHER_ACCESS_ARRAY_ITEM_MISSING:
      if (key->type_index == kTVMFFIInt) return 0;
      return tether_raise("TypeError", "%s: an array-item step needs an int key, got `%s`",
                          fname, tether_any_type_key(key));
    case TETHER_ACCESS_MAP_ITEM:
    case TETHER_ACCESS_MAP_ITEM_MISSING:
      return 0;
    default:
      return tether_raise("ValueError", "%s: unknown access kind %d", fname, (int)kind);
  }
}

int tether_access_path_extend(TVMFFIObjectHandle path, tether_access_kind kind,
                              const TVMFFIAny* key, TVMFFIObjectHandle* out) {
  static const char fname[] = "tether_access_path_extend";
  TVMFFIAny none = tether_any_none();
  if (!tether__is_path(path) || out == NULL) {
    return tether_raise("TypeError", "%s: argument `path` must be an ffi.reflection.AccessPath "
                        "and `out` non-NULL", fname);
  }
  if (key == NULL) key = &none;
  if (tether__check_step_key(fname, (int32_t)kind, key) != 0) return -1;
  return tether__access_path_push(path, (int32_t)kind, key, (TVMFFIObject**)out);
}

/* ---- comparisons -------------------------------------------------------------------------- */

static bool tether__step_equal(const TVMFFIObject* a, const TVMFFIObject* b) {
  const tether_access_step_t* x = (const tether_access_step_t*)a;
  const tether_access_step_t* y = (const tether_access_step_t*)b;
  return x->kind == y->kind && tether_any_equal(&x->key, &y->key);
}

static bool tether__path_equal(const tether_access_path_t* a, const tether_access_path_t* b) {
  if (a->depth != b->depth) return false;
  while (a != b && a->parent != NULL && b->parent != NULL) {
    if (!tether__step_equal(a->step, b->step)) return false;
    a = (const tether_access_path_t*)a->parent;
    b = (const tether_access_path_t*)b->parent;
  }
  return true;
}

static bool tether__path_is_prefix(const tether_access_path_t* a, const tether_access_path_t* b) {
  if (a->depth > b->depth) return false;
  while (b->depth > a->depth && b->parent != NULL) b = (const tether_access_path_t*)b->parent;
  return tether__path_equal(a, b);
}

/* ---- methods ------------------------------------------------------------------------------ */

static int tether__arg_path(const char* fname, const TVMFFIAny* args, int32_t i,
                            tether_access_path_t** out) {
  TVMFFIObject* obj;
  if (tether_arg_object(fname, args, i, tether__access_path_index, &obj) != 0) return -1;
  *out = (tether_access_path_t*)obj;
  return 0;
}

static int tether__path_root_method(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* path;
  (void)s;
  (void)args;
  if (tether_check_nargs("AccessPath._root", "() -> AccessPath", n, 0) != 0) return -1;
  if (tether__access_path_push(NULL, 0, NULL, &path) != 0) return -1;
  *result = tether_any_object(path);
  return 0;
}

static int tether__path_extend_method(void* s, const TVMFFIAny* args, int32_t n,
                                      TVMFFIAny* result) {
  static const char fname[] = "AccessPath._extend";
  tether_access_path_t* self;
  TVMFFIObject* step;
  TVMFFIObject* path;
  (void)s;
  if (tether_check_nargs(fname, "(0: AccessPath, 1: AccessStep) -> AccessPath", n, 2) != 0 ||
      tether__arg_path(fname, args, 0, &self) != 0 ||
      tether_arg_object(fname, args, 1, tether__access_step_index, &step) != 0) {
    return -1;
  }
  const tether_access_step_t* st = (const tether_access_step_t*)step;
  if (tether__access_path_push(&self->header, st->kind, &st->key, &path) != 0) return -1;
  *result = tether_any_object(path);
  return 0;
}

/* One row per single-step extension method: name and step kind. */
#define TETHER_PATH_STEP_METHODS(X)             \
  X(_attr, TETHER_ACCESS_ATTR)                  \
  X(_array_item, TETHER_ACCESS_ARRAY_ITEM)      \
  X(_map_item, TETHER_ACCESS_MAP_ITEM)          \
  X(_attr_missing, TETHER_ACCESS_ATTR_MISSING)  \
  X(_array_item_missing, TETHER_ACCESS_ARRAY_ITEM_MISSING) \
  X(_map_item_missing, TETHER_ACCESS_MAP_ITEM_MISSING)

static int tether__path_step_method(const char* fname, int32_t kind, const TVMFFIAny* args,
                                    int32_t n, TVMFFIAny* result) {
  tether_access_path_t* self;
  TVMFFIObject* path;
  if (tether_check_nargs(fname, "(0: AccessPath, 1: Any) -> AccessPath", n, 2) != 0 ||
      tether__arg_path(fname, args, 0, &self) != 0 ||
      tether__check_step_key(fname, kind, &args[1]) != 0 ||
      tether__access_path_push(&self->header, kind, &args[1], &path) != 0) {
    return -1;
  }
  *result = tether_any_object(path);
  return 0;
}

#define TETHER__STEP_METHOD_FN(name, kind)                                                   \
  static int tether__path##name(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) { \
    (void)s;                                                                                 \
    return tether__path_step_method("AccessPath." #name, kind, args, n, r);                 \
  }
TETHER_PATH_STEP_METHODS(TETHER__STEP_METHOD_FN)
#undef TETHER__STEP_METHOD_FN

static int tether__path_compare_method(const char* fname, const TVMFFIAny* args, int32_t n,
                                       bool prefix, TVMFFIAny* result) {
  tether_access_path_t *a, *b;
  if (tether_check_nargs(fname, "(0: AccessPath, 1: AccessPath) -> bool", n, 2) != 0 ||
      tether__arg_path(fname, args, 0, &a) != 0 || tether__arg_path(fname, args, 1, &b) != 0) {
    return -1;
  }
  *result = tether_any_bool(prefix ? tether__path_is_prefix(a, b) : tether__path_equal(a, b));
  return 0;
}

static int tether__path_is_prefix_of(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)s;
  return tether__path_compare_method("AccessPath._is_prefix_of", args, n, true, r);
}

static int tether__path_path_equal(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)s;
  return tether__path_compare_method("AccessPath._path_equal", args, n, false, r);
}

/* The steps of `path` from the root, as a new Array. */
static int tether__path_steps(const tether_access_path_t* path, TVMFFIObject** out) {
  int64_t n = path->depth;
  TVMFFIAny* steps = calloc(n > 0 ? (size_t)n : 1, sizeof(TVMFFIAny));
  if (steps == NULL) return tether_raise("MemoryError", "AccessPath._to_steps: out of memory");
  int64_t i = n;
  for (const tether_access_path_t* p = path; p->parent != NULL && i > 0;
       p = (const tether_access_path_t*)p->parent) {
    steps[--i] = tether_any_object(p->step);
  }
  int rc = tether__array_new(steps + i, n - i, out);
  free(steps);
  return rc;
}

static int tether__path_to_steps(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "AccessPath._to_steps";
  tether_access_path_t* self;
  TVMFFIObject* arr;
  (void)s;
  if (tether_check_nargs(fname, "(0: AccessPath) -> Array", n, 1) != 0 ||
      tether__arg_path(fname, args, 0, &self) != 0 || tether__path_steps(self, &arr) != 0) {
    return -1;
  }
  *result = tether_any_object(arr);
  return 0;
}

/* ---- __ffi_repr__ ------------------------------------------------------------------------- */

/* Appends the text of repr(v) (through the printer `fn_repr`) to buf/len/cap. */
typedef struct {
  char* data;
  size_t size;
  size_t cap;
} tether_path_buf;

static int tether__buf_put(tether_path_buf* b, const char* s, size_t n) {
  if (b->size + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->size + n + 1) cap *= 2;
    char* data = realloc(b->data, cap);
    if (data == NULL) return tether_raise("MemoryError", "__ffi_repr__: out of memory");
    b->data = data;
    b->cap = cap;
  }
  memcpy(b->data + b->size, s, n);
  b->size += n;
  b->data[b->size] = '\0';
  return 0;
}

static int tether__buf_repr(tether_path_buf* b, TVMFFIObject* fn_repr, const TVMFFIAny* v) {
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text;
  TVMFFIAny arg = *v;
  int rc = fn_repr != NULL ? TVMFFIFunctionCall(fn_repr, &arg, 1, &out) : tether_repr(v, &out);
  if (rc == 0 && !tether_any_get_str(&out, &text)) {
    rc = tether_raise("TypeError", "__ffi_repr__: the printer returned `%s`, not a str",
                      tether_any_type_key(&out));
  }
  if (rc == 0) rc = tether__buf_put(b, text.data, text.size);
  tether_any_release(&out);
  return rc;
}

static int tether__step_repr_into(tether_path_buf* b, const tether_access_step_t* st,
                                  TVMFFIObject* fn_repr) {
  char num[32];
  TVMFFIByteArray s;
  bool missing = st->kind == TETHER_ACCESS_ATTR_MISSING ||
                 st->kind == TETHER_ACCESS_ARRAY_ITEM_MISSING ||
                 st->kind == TETHER_ACCESS_MAP_ITEM_MISSING;
  int rc = 0;
  if (st->kind == TETHER_ACCESS_ATTR) {
    if (!tether_any_get_str(&st->key, &s)) {
      return tether_raise("TypeError", "__ffi_repr__: attribute step key is `%s`, not a str",
                          tether_any_type_key(&st->key));
    }
    rc = tether__buf_put(b, ".", 1);
    return rc != 0 ? rc : tether__buf_put(b, s.data, s.size);
  }
  rc = tether__buf_put(b, missing ? "[<missing:" : "[", missing ? 10 : 1);
  if (rc == 0 && (st->kind == TETHER_ACCESS_ARRAY_ITEM || st->kind == TETHER_ACCESS_ARRAY_ITEM_MISSING)) {
    if (st->key.type_index != kTVMFFIInt) {
      return tether_raise("TypeError", "__ffi_repr__: array step key is `%s`, not an int",
                          tether_any_type_key(&st->key));
    }
    int len = snprintf(num, sizeof(num), "%lld", (long long)st->key.v_int64);
    rc = tether__buf_put(b, num, (size_t)len);
  } else if (rc == 0) {
    rc = tether__buf_repr(b, fn_repr, &st->key);
  }
  if (rc == 0) rc = tether__buf_put(b, missing ? ">]" : "]", missing ? 2 : 1);
  return rc;
}

/* Reads __ffi_repr__ arguments (self of type `index`, optional printer). */
static int tether__repr_args(const char* fname, int32_t index, const TVMFFIAny* args, int32_t n,
                             TVMFFIObject** self, TVMFFIObject** fn_repr) {
  if (n != 1 && tether_check_nargs(fname, "(0: Object, 1: Function) -> str", n, 2) != 0) return -1;
  if (tether_arg_object(fname, args, 0, index, self) != 0) return -1;
  *fn_repr = NULL;
  if (n == 2 && args[1].type_index != kTVMFFINone &&
      tether_arg_object(fname, args, 1, kTVMFFIFunction, fn_repr) != 0) {
    return -1;
  }
  return 0;
}

static int tether__repr_finish(tether_path_buf* b, int rc, TVMFFIAny* result) {
  if (rc == 0) rc = tether_any_str(b->data != NULL ? b->data : "", b->size, result);
  free(b->data);
  return rc;
}

static int tether__step_repr(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject *self, *fn_repr;
  tether_path_buf b = {NULL, 0, 0};
  (void)s;
  if (tether__repr_args("AccessStep.__ffi_repr__", tether__access_step_index, args, n, &self,
                        &fn_repr) != 0) {
    return -1;
  }
  return tether__repr_finish(&b, tether__step_repr_into(&b, (tether_access_step_t*)self, fn_repr),
                             result);
}

static int tether__path_repr(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject *self, *fn_repr, *steps = NULL;
  tether_path_buf b = {NULL, 0, 0};
  (void)s;
  if (tether__repr_args("AccessPath.__ffi_repr__", tether__access_path_index, args, n, &self,
                        &fn_repr) != 0 ||
      tether__path_steps((tether_access_path_t*)self, &steps) != 0) {
    return -1;
  }
  int rc = tether__buf_put(&b, "<root>", 6);
  for (int64_t i = 0; rc == 0 && i < tether__array_size(steps); ++i) {
    const TVMFFIAny* st = tether__array_get(steps, i);
    rc = fn_repr != NULL ? tether__buf_repr(&b, fn_repr, st)
                         : tether__step_repr_into(&b, (tether_access_step_t*)st->v_obj, NULL);
  }
  TVMFFIObjectDecRef(steps);
  return tether__repr_finish(&b, rc, result);
}

/* ---- ffi.VisitErrorContext.FindAccessPaths ------------------------------------------------ */

/*
 * Walks the value tree under `root` depth first and records every path whose objects, from
 * the root down, match the breadcrumb trail (outermost first, consecutive duplicates and
 * NULLs dropped).  With allow_prefix, a node that matched part of the trail and under which
 * nothing more matched is recorded too.  The walk keeps an explicit stack of frames.
 */
typedef enum { TETHER_FRAME_OBJECT, TETHER_FRAME_SEQ, TETHER_FRAME_MAP } tether_frame_kind;

typedef struct {
  TVMFFIObject* obj; /* borrowed: held by its parent frame's value or by the caller */
  tether_frame_kind kind;
  int32_t depth, field;  /* OBJECT: ancestor depth and field index being read */
  int64_t pos;           /* SEQ: next index; MAP: iteration position */
  bool matched;          /* OBJECT: this node matched a trail entry */
  int64_t results_before;
  TVMFFIAny held;        /* the owning child value this frame walks (None for the root) */
  bool has_step;         /* a step leads to this frame (all but the root) */
} tether_find_frame;

typedef struct {
  TVMFFIObject** records; /* the normalised trail, outermost first (borrowed) */
  int64_t num_records;
  int64_t num_matched;
  bool allow_prefix;
  tether_find_frame* frames;
  int64_t num_frames, cap_frames;
  TVMFFIAny* step_keys; /* path steps: kind in type_index-free form below */
  int32_t* step_kinds;
  int64_t num_steps, cap_steps;
  TVMFFIObject* results; /* Array being built */
} tether_finder;

static int tether__finder_grow(void** data, int64_t* cap, int64_t need, size_t elem) {
  if (need <= *cap) return 0;
  int64_t c = *cap ? *cap * 2 : 16;
  while (c < need) c *= 2;
  void* p = realloc(*data, (size_t)c * elem);
  if (p == NULL) return tether_raise("MemoryError", "ffi.VisitErrorContext.FindAccessPaths: out of memory");
  *data = p;
  *cap = c;
  return 0;
}

static int tether__finder_push_step(tether_finder* f, int32_t kind, TVMFFIAny key_owned) {
  int64_t cap = f->cap_steps;
  if (tether__finder_grow((void**)&f->step_keys, &cap, f->num_steps + 1, sizeof(TVMFFIAny)) != 0 ||
      tether__finder_grow((void**)&f->step_kinds, &f->cap_steps, f->num_steps + 1, sizeof(int32_t)) != 0) {
    tether_any_release(&key_owned);
    return -1;
  }
  f->step_keys[f->num_steps] = key_owned;
  f->step_kinds[f->num_steps++] = kind;
  return 0;
}

static void tether__finder_pop_step(tether_finder* f) {
  tether_any_release(&f->step_keys[--f->num_steps]);
}

static int tether__finder_record(tether_finder* f) {
  TVMFFIObject* path = NULL;
  if (tether__access_path_push(NULL, 0, NULL, &path) != 0) return -1;
  for (int64_t i = 0; i < f->num_steps; ++i) {
    TVMFFIObject* next = NULL;
    int rc = tether__access_path_push(path, f->step_kinds[i], &f->step_keys[i], &next);
    TVMFFIObjectDecRef(path);
    if (rc != 0) return -1;
    path = next;
  }
  TVMFFIAny item = tether_any_object(path);
  int rc = tether__array_push_steal(&f->results, &item);
  return rc;
}

/* Starts on `value` (owned, consumed): pushes a frame for it or handles it at once.  The
 * root (no step) is always read as an object, containers included, as tvm-ffi does. */
static int tether__finder_enter(tether_finder* f, TVMFFIAny value, bool has_step) {
  if (value.type_index < kTVMFFIStaticObjectBegin || value.v_obj == NULL) goto leaf;
  TVMFFIObject* obj = value.v_obj;
  tether_find_frame fr;
  memset(&fr, 0, sizeof(fr));
  fr.obj = obj;
  fr.held = value;
  fr.has_step = has_step;
  int32_t t = obj->type_index;
  if (has_step && (t == kTVMFFIArray || t == kTVMFFIList)) {
    fr.kind = TETHER_FRAME_SEQ;
  } else if (has_step && (t == kTVMFFIMap || t == kTVMFFIDict)) {
    fr.kind = TETHER_FRAME_MAP;
  } else {
    const TVMFFITypeInfo* info = tether__type_info_or_null(t);
    if (info == NULL || info->metadata == NULL) goto leaf;
    fr.kind = TETHER_FRAME_OBJECT;
    fr.matched = f->num_matched < f->num_records &&
                 obj == f->records[f->num_records - 1 - f->num_matched];
    if (fr.matched && ++f->num_matched == f->num_records) {
      --f->num_matched;
      int rc = tether__finder_record(f);
      tether_any_release(&value);
      if (has_step) tether__finder_pop_step(f);
      return rc;
    }
    fr.results_before = tether__array_size(f->results);
  }
  if (tether__finder_grow((void**)&f->frames, &f->cap_frames, f->num_frames + 1, sizeof(fr)) != 0) {
    if (fr.matched) --f->num_matched;
    goto leaf;
  }
  f->frames[f->num_frames++] = fr;
  return 0;
leaf:
  tether_any_release(&value);
  if (has_step) tether__finder_pop_step(f);
  return 0;
}

/* Advances the top frame: enters its next child, or finishes it. */
static int tether__finder_step(tether_finder* f) {
  tether_find_frame* fr = &f->frames[f->num_frames - 1];
  if (fr->kind == TETHER_FRAME_SEQ) {
    const TVMFFISeqCell* cell = tether__seq_cell(fr->obj);
    while (fr->pos < cell->size) {
      int64_t i = fr->pos++;
      const TVMFFIAny* item = (const TVMFFIAny*)cell->data + i;
      if (item->type_index == kTVMFFINone) continue;
      TVMFFIAny owned;
      tether_any_copy(item, &owned);
      if (tether__finder_push_step(f, TETHER_ACCESS_ARRAY_ITEM, tether_any_int(i)) != 0) {
        tether_any_release(&owned);
        return -1;
      }
      return tether__finder_enter(f, owned, true);
    }
  } else if (fr->kind == TETHER_FRAME_MAP) {
    const TVMFFIAny *k, *v;
    while (tether__map_next(fr->obj, &fr->pos, &k, &v)) {
      if (k->type_index == kTVMFFINone || v->type_index == kTVMFFINone) continue;
      TVMFFIAny key, owned;
      tether_any_copy(k, &key);
      tether_any_copy(v, &owned);
      if (tether__finder_push_step(f, TETHER_ACCESS_MAP_ITEM, key) != 0) {
        tether_any_release(&owned);
        return -1;
      }
      return tether__finder_enter(f, owned, true);
    }
  } else {
    const TVMFFITypeInfo* info = tether__type_info_or_null(fr->obj->type_index);
    while (fr->depth <= info->type_depth) {
      const TVMFFITypeInfo* t = fr->depth < info->type_depth ? info->type_ancestors[fr->depth] : info;
      if (fr->field >= t->num_fields) {
        fr->depth++;
        fr->field = 0;
        continue;
      }
      const TVMFFIFieldInfo* field = &t->fields[fr->field++];
      TVMFFIAny child = tether_any_none(), name = tether_any_none();
      if (field->getter((char*)fr->obj + field->offset, &child) != 0) {
        TVMFFIErrorMoveFromRaised(NULL); /* error path helper: skip unreadable fields */
        continue;
      }
      if (tether_any_str(field->name.data, field->name.size, &name) != 0 ||
          tether__finder_push_step(f, TETHER_ACCESS_ATTR, name) != 0) {
        tether_any_release(&child);
        return -1;
      }
      return tether__finder_enter(f, child, true);
    }
    if (f->allow_prefix && f->num_matched > 0 && f->num_matched < f->num_records &&
        f->num_steps > 0 && tether__array_size(f->results) == fr->results_before &&
        tether__finder_record(f) != 0) {
      return -1;
    }
    if (fr->matched) --f->num_matched;
  }
  /* frame done */
  bool has_step = fr->has_step;
  tether_any_release(&fr->held);
  f->num_frames--;
  if (has_step) tether__finder_pop_step(f);
  return 0;
}

static int tether__find_access_paths(void* s, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  static const char fname[] = "ffi.VisitErrorContext.FindAccessPaths";
  TVMFFIObject *root, *ctx;
  bool allow_prefix = false;
  tether_finder f;
  (void)s;
  memset(&f, 0, sizeof(f));
  if ((n != 2 && tether_check_nargs(fname, "(0: Object, 1: VisitErrorContext, 2: bool) -> Array",
                                    n, 3) != 0) ||
      tether_arg_object(fname, args, 0, kTVMFFIObject, &root) != 0 ||
      tether_arg_object(fname, args, 1, tether__visit_error_context_index, &ctx) != 0 ||
      (n == 3 && tether_arg_bool(fname, args, 2, &allow_prefix) != 0)) {
    return -1;
  }
  /* The context's layout: header, reverse_visit_pattern (List), prev_error_context. */
  TVMFFIObject* pattern = *(TVMFFIObject**)((char*)ctx + sizeof(TVMFFIObject));
  int64_t np = pattern != NULL ? tether__list_size(pattern) : 0;
  int rc = -1;
  f.allow_prefix = allow_prefix;
  f.records = malloc(sizeof(TVMFFIObject*) * (size_t)(np > 0 ? np : 1));
  if (f.records == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
  /* kept innermost first, as the trail is */
  for (int64_t i = 0; i < np; ++i) {
    const TVMFFIAny* e = tether__list_get(pattern, i);
    if (e->type_index < kTVMFFIStaticObjectBegin || e->v_obj == NULL) continue;
    if (f.num_records > 0 && f.records[f.num_records - 1] == e->v_obj) continue;
    f.records[f.num_records++] = e->v_obj;
  }
  /* matching reads records[size - 1 - matched]: the outermost entry is compared first */
  if (tether__array_new_empty(4, &f.results) != 0) goto done;
  TVMFFIAny start;
  tether_any_copy(&args[0], &start);
  if (tether__finder_enter(&f, start, false) != 0) goto done;
  while (f.num_frames > 0) {
    if (tether__finder_step(&f) != 0) goto done;
  }
  *result = tether_any_object(f.results);
  f.results = NULL;
  rc = 0;
done:
  while (f.num_frames > 0) tether_any_release(&f.frames[--f.num_frames].held);
  while (f.num_steps > 0) tether__finder_pop_step(&f);
  free(f.frames);
  free(f.step_keys);
  free(f.step_kinds);
  free(f.records);
  TVMFFIObjectDecRef(f.results);
  return rc;
}

/* ---- subsystem ---------------------------------------------------------------------------- */

int tether__access_path_init(void) {
  const tether_field_def_t step_fields[] = {
      {"kind", TETHER_FIELD_INT32, offsetof(tether_access_step_t, kind), 0, 0, NULL,
       "the kind of access (attribute, array item, map item, or their missing forms)"},
      {"key", TETHER_FIELD_ANY, offsetof(tether_access_step_t, key), 0, 0, NULL,
       "field name, array index or map key"},
  };
  const tether_extra_type_t step_type = {"ffi.reflection.AccessStep", -1,
                                         sizeof(tether_access_step_t),
                                         kTVMFFISEqHashKindConstTreeNode, true, true,
                                         step_fields, 2};
  if (tether__extra_type_register(&step_type, &tether__access_step_index) != 0) return -1;
  const tether_field_def_t path_fields[] = {
      {"parent", TETHER_FIELD_OPT_OBJECT, offsetof(tether_access_path_t, parent), 0, 0, NULL,
       "the path without its last step (None at the root)"},
      {"step", TETHER_FIELD_OPT_OBJECT, offsetof(tether_access_path_t, step), 0,
       tether__access_step_index, NULL, "the last step (None at the root)"},
      {"depth", TETHER_FIELD_INT32, offsetof(tether_access_path_t, depth), 0, 0, NULL,
       "number of steps from the root"},
  };
  const tether_extra_type_t path_type = {"ffi.reflection.AccessPath", -1,
                                         sizeof(tether_access_path_t),
                                         kTVMFFISEqHashKindConstTreeNode, true, true,
                                         path_fields, 3};
  if (tether__extra_type_register(&path_type, &tether__access_path_index) != 0) return -1;
  static const struct {
    const char* name;
    TVMFFISafeCallType fn;
    bool is_static;
  } methods[] = {
      {"_root", tether__path_root_method, true},
      {"_extend", tether__path_extend_method, false},
#define TETHER__STEP_METHOD_ROW(name, kind) {#name, tether__path##name, false},
      TETHER_PATH_STEP_METHODS(TETHER__STEP_METHOD_ROW)
#undef TETHER__STEP_METHOD_ROW
      {"_is_prefix_of", tether__path_is_prefix_of, false},
      {"_to_steps", tether__path_to_steps, false},
      {"_path_equal", tether__path_path_equal, false},
  };
  for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); ++i) {
    if (tether_type_def_method(tether__access_path_index, methods[i].name, methods[i].fn,
                               methods[i].is_static, NULL) != 0) {
      return -1;
    }
  }
  if (tether__type_attr_def_func(tether__access_step_index, "__ffi_repr__", tether__step_repr) != 0 ||
      tether__type_attr_def_func(tether__access_path_index, "__ffi_repr__", tether__path_repr) != 0) {
    return -1;
  }
  static const tether_extra_global_t globals[] = {
      {"ffi.VisitErrorContext.FindAccessPaths", tether__find_access_paths},
  };
  return tether__extra_globals_register(globals, 1);
}

void tether__access_path_fini(void) {}
