/*
 * structural.c -- structural equality and hashing with tvm-ffi's semantics, and
 * ffi.StructuralKey (a key wrapper that Maps compare structurally).
 *
 * Values compare as their kinds say: PODs by bits (every NaN equals every NaN), strings and
 * bytes by content across their small and heap forms, Arrays/Lists element-wise, Maps/Dicts
 * by key lookup (keys mapped through the free-variable mapping), Shapes and Tensors by
 * content, other objects by their reflected fields (or a `__s_equal__` / `__s_hash__` hook)
 * as their structural_eq_hash_kind says: UniqueInstance by identity, ConstTreeNode short-cuts
 * identity, DAGNode and FreeVar are mapped one to one as they are met, and a FreeVar binds
 * only inside a definition region (fields flagged SEqHashDefPattern / SEqHashDefSimple, or
 * everywhere with map_free_vars).
 *
 * Both walks keep an explicit stack of frames (one per container or object being compared),
 * so data of any depth is handled in constant C stack; only a type's own `__s_equal__` /
 * `__s_hash__` hook re-enters through its callback.
 */
#include <math.h>

#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "internal.h"
#include "bigint.h"
#include "access_path.h"
#include "any.h"
#include "array.h"
#include "dataclass.h"
#include "map.h"
#include "ptrmap.h"
#include "tensor.h"
#include "type.h"

/* ---- shared helpers ----------------------------------------------------------------------- */

/* Content of a string- or bytes-like value of the given family; false otherwise. */
static bool tether__chars(const TVMFFIAny* v, bool str, TVMFFIByteArray* out) {
  return str ? tether_any_get_str(v, out) : tether_any_get_bytes(v, out);
}

static bool tether__bytes_eq(TVMFFIByteArray a, TVMFFIByteArray b) {
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

/* Reflection metadata check shared by both walks; *kind out. */
static int tether__seq_kind(const char* fname, const TVMFFIObject* obj, const TVMFFITypeInfo** info,
                            int32_t* kind) {
  *info = tether__type_info_or_null(obj->type_index);
  if (*info == NULL || (*info)->metadata == NULL) {
    return tether_raise("TypeError", "%s: Type metadata is not set for type `%s`, so "
                        "StructuralHash is not supported for this type", fname,
                        tether_type_key(obj->type_index));
  }
  *kind = (*info)->metadata->structural_eq_hash_kind;
  if (*kind == kTVMFFISEqHashKindUnsupported) {
    return tether_raise("TypeError", "%s: _type_s_eq_hash_kind is not set for type `%s`, so "
                        "StructuralHash is not supported for this type", fname,
                        tether_type_key(obj->type_index));
  }
  return 0;
}

/* The flattened field sequence of a type: (depth, index) advances over ancestors first. */
static const TVMFFIFieldInfo* tether__next_field(const TVMFFITypeInfo* info, int32_t* depth,
                                                 int32_t* index) {
  while (*depth <= info->type_depth) {
    const TVMFFITypeInfo* t = *depth < info->type_depth ? info->type_ancestors[*depth] : info;
    if (*index < t->num_fields) return &t->fields[(*index)++];
    (*depth)++;
    *index = 0;
  }
  return NULL;
}

/* The region a field enters (or -1 for none); a pattern region propagates. */
static int32_t tether__field_region(int64_t flags, int32_t current) {
  if (!(flags & (kTVMFFIFieldFlagBitMaskSEqHashDefPattern | kTVMFFIFieldFlagBitMaskSEqHashDefSimple))) {
    return -1;
  }
  if (current == kTVMFFIDefRegionKindPattern) return kTVMFFIDefRegionKindPattern;
  return (flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) ? kTVMFFIDefRegionKindSimple
                                                           : kTVMFFIDefRegionKindPattern;
}

/* Tensor checks shared by both walks. */
static int tether__tensor_bytes(const char* fname, const DLTensor* t, size_t* nbytes) {
  if (t->device.device_type != kDLCPU) {
    return tether_raise("ValueError", "%s: can only compare or hash CPU tensors", fname);
  }
  if (!tether__tensor_is_contiguous(t)) {
    return tether_raise("ValueError", "%s: can only compare or hash contiguous tensors", fname);
  }
  uint64_t numel = 1;
  for (int32_t i = 0; i < t->ndim; ++i) numel *= (uint64_t)t->shape[i];
  *nbytes = (size_t)((numel * t->dtype.bits * t->dtype.lanes + 7) / 8);
  return 0;
}

static const void* tether__tensor_data(const DLTensor* t) {
  return (const char*)t->data + t->byte_offset;
}

/* Strong references a walk keeps on objects it mapped or memoised (released at the end). */
typedef struct {
  TVMFFIObject** items;
  size_t n, cap;
} tether_held;

static int tether__hold(tether_held* h, TVMFFIObject* obj) {
  if (h->n == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 32;
    TVMFFIObject** items = realloc(h->items, cap * sizeof(*items));
    if (items == NULL) return tether_raise("MemoryError", "structural walk: out of memory");
    h->items = items;
    h->cap = cap;
  }
  TVMFFIObjectIncRef(obj);
  h->items[h->n++] = obj;
  return 0;
}

static void tether__held_release(tether_held* h) {
  for (size_t i = 0; i < h->n; ++i) TVMFFIObjectDecRef(h->items[i]);
  free(h->items);
  h->items = NULL;
  h->n = h->cap = 0;
}

/* ==== structural equality ================================================================ */

enum { TETHER_EQ_NE = 0, TETHER_EQ_EQ = 1, TETHER_EQ_PUSHED = 2, TETHER_EQ_ERR = -1 };

typedef enum { TETHER_EQF_SEQ, TETHER_EQF_MAP, TETHER_EQF_OBJ } tether_eqf_kind;

typedef struct {
  tether_eqf_kind kind;
  TVMFFIAny lhs, rhs;      /* owning */
  int64_t pos;             /* SEQ: next index; MAP: iteration position */
  int32_t phase;           /* MAP: 0 = lhs entries, 1 = rhs entries */
  const TVMFFITypeInfo* info;
  int32_t depth, field;    /* OBJ: field cursor */
  int32_t eq_kind;         /* OBJ: structural_eq_hash_kind */
  int32_t saved_region;    /* OBJ (FreeVar): region before the clamp */
  int32_t child_restore;   /* region to restore when the current child is done, or -1 */
  bool has_step;           /* a step (below) leads to the current child */
  int32_t step_kind_l, step_kind_r;
  TVMFFIAny step_key_l, step_key_r; /* owning */
} tether_eq_frame;

typedef struct {
  int32_t region;
  bool skip_tensor;
  bool trace;
  tether_ptrmap l2r, r2l;
  tether_held held;
  /* mismatch path, innermost step first (lhs and rhs side by side) */
  TVMFFIAny* rev_keys;
  int32_t* rev_kinds;
  size_t rev_n, rev_cap;
  TVMFFIObject* callback; /* the `__s_equal__` hooks' callback, made on first use */
} tether_eq_state;

static void tether__eq_frame_clear_step(tether_eq_frame* f) {
  if (f->has_step) {
    tether_any_release(&f->step_key_l);
    tether_any_release(&f->step_key_r);
    f->has_step = false;
  }
}

/* Sets the step leading to the frame's current child (keys are views, copied). */
static void tether__eq_frame_set_step(tether_eq_frame* f, int32_t kl, const TVMFFIAny* keyl,
                                      int32_t kr, const TVMFFIAny* keyr) {
  tether__eq_frame_clear_step(f);
  f->step_kind_l = kl;
  f->step_kind_r = kr;
  tether_any_copy(keyl, &f->step_key_l);
  tether_any_copy(keyr, &f->step_key_r);
  f->has_step = true;
}

static int tether__eq_record(tether_eq_state* s, int32_t kl, TVMFFIAny keyl, int32_t kr,
                             TVMFFIAny keyr) {
  if (s->rev_n + 2 > s->rev_cap) {
    size_t cap = s->rev_cap ? s->rev_cap * 2 : 16;
    TVMFFIAny* keys = realloc(s->rev_keys, cap * sizeof(*keys));
    if (keys != NULL) s->rev_keys = keys;
    int32_t* kinds = realloc(s->rev_kinds, cap * sizeof(*kinds));
    if (kinds != NULL) s->rev_kinds = kinds;
    if (keys == NULL || kinds == NULL) {
      tether_any_release(&keyl);
      tether_any_release(&keyr);
      return tether_raise("MemoryError", "ffi.GetFirstStructuralMismatch: out of memory");
    }
    s->rev_cap = cap;
  }
  s->rev_kinds[s->rev_n] = kl;
  s->rev_keys[s->rev_n++] = keyl;
  s->rev_kinds[s->rev_n] = kr;
  s->rev_keys[s->rev_n++] = keyr;
  return 0;
}

typedef struct {
  tether_eq_frame* items;
  size_t n, cap;
} tether_eq_stack;

static int tether__eq_push(tether_eq_stack* st, tether_eqf_kind kind, const TVMFFIAny* lhs,
                           const TVMFFIAny* rhs, tether_eq_frame** out) {
  if (st->n == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 16;
    tether_eq_frame* items = realloc(st->items, cap * sizeof(*items));
    if (items == NULL) return tether_raise("MemoryError", "ffi.StructuralEqual: out of memory");
    st->items = items;
    st->cap = cap;
  }
  tether_eq_frame* f = &st->items[st->n++];
  memset(f, 0, sizeof(*f));
  f->kind = kind;
  tether_any_copy(lhs, &f->lhs);
  tether_any_copy(rhs, &f->rhs);
  f->child_restore = -1;
  *out = f;
  return 0;
}

static void tether__eq_pop(tether_eq_stack* st) {
  tether_eq_frame* f = &st->items[--st->n];
  tether__eq_frame_clear_step(f);
  tether_any_release(&f->lhs);
  tether_any_release(&f->rhs);
}

static int tether__eq_bind(tether_eq_state* s, TVMFFIObject* l, TVMFFIObject* r) {
  if (tether__ptrmap_find(&s->l2r, l) == NULL && tether__hold(&s->held, l) != 0) return -1;
  if (tether__ptrmap_find(&s->r2l, r) == NULL && tether__hold(&s->held, r) != 0) return -1;
  if (tether__ptrmap_put(&s->l2r, l, (uint64_t)(uintptr_t)r) != 0) return -1;
  return tether__ptrmap_put(&s->r2l, r, (uint64_t)(uintptr_t)l);
}

/* A map key seen from the other side: a mapped object is replaced by its partner. */
static TVMFFIAny tether__eq_map_key(const tether_ptrmap* m, const TVMFFIAny* key) {
  if (key->type_index < kTVMFFIStaticObjectBegin) return *key;
  uint64_t* found = tether__ptrmap_find(m, key->v_obj);
  return found != NULL ? tether_any_object((TVMFFIObject*)(uintptr_t)*found) : *key;
}

static int tether__eq_run(tether_eq_state* s, const TVMFFIAny* lhs, const TVMFFIAny* rhs);

/* Finishes an object whose fields compared equal (or whose hook said equal). */
static int tether__eq_object_done(tether_eq_state* s, TVMFFIObject* l, TVMFFIObject* r,
                                  int32_t kind) {
  if (kind == kTVMFFISEqHashKindDAGNode) {
    return tether__eq_bind(s, l, r) != 0 ? TETHER_EQ_ERR : TETHER_EQ_EQ;
  }
  if (kind != kTVMFFISEqHashKindFreeVar) return TETHER_EQ_EQ;
  if (l == r || s->region != kTVMFFIDefRegionKindNone) {
    return tether__eq_bind(s, l, r) != 0 ? TETHER_EQ_ERR : TETHER_EQ_EQ;
  }
  return TETHER_EQ_NE;
}

/* The `__s_equal__` hooks' callback: (lhs, rhs, def_region_kind, field_name) -> bool. */
static int tether__eq_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_eq_state* s = self;
  int64_t kind;
  if (tether_check_nargs("__s_equal__ callback", "(0: Any, 1: Any, 2: int, 3: Any) -> bool", n,
                         4) != 0 ||
      tether_arg_int("__s_equal__ callback", args, 2, &kind) != 0) {
    return -1;
  }
  int32_t saved = s->region;
  if (kind != kTVMFFIDefRegionKindNone && saved != kTVMFFIDefRegionKindPattern) {
    s->region = (int32_t)kind;
  }
  int rc = tether__eq_run(s, &args[0], &args[1]);
  s->region = saved;
  if (rc < 0) return -1;
  if (rc == 0 && s->trace) {
    TVMFFIAny name_l, name_r;
    tether_any_copy(&args[3], &name_l);
    tether_any_copy(&args[3], &name_r);
    if (tether__eq_record(s, TETHER_ACCESS_ATTR, name_l, TETHER_ACCESS_ATTR, name_r) != 0) return -1;
  }
  *result = tether_any_bool(rc == 1);
  return 0;
}

static const TVMFFITypeAttrColumn* _Atomic tether__s_equal_column;
static const TVMFFITypeAttrColumn* _Atomic tether__s_hash_column;

/* Runs an object's `__s_equal__` hook: EQ / NE / ERR. */
static int tether__eq_hook(tether_eq_state* s, const TVMFFIAny* hook, TVMFFIObject* l,
                           TVMFFIObject* r) {
  if (hook->type_index != kTVMFFIFunction) {
    tether_raise("TypeError", "ffi.StructuralEqual: __s_equal__ of `%s` must be an ffi.Function",
                 tether_type_key(l->type_index));
    return TETHER_EQ_ERR;
  }
  if (s->callback == NULL &&
      TVMFFIFunctionCreate(s, tether__eq_callback, NULL, (TVMFFIObjectHandle*)&s->callback) != 0) {
    return TETHER_EQ_ERR;
  }
  TVMFFIAny args[3] = {tether_any_object(l), tether_any_object(r), tether_any_object(s->callback)};
  TVMFFIAny out = tether_any_none();
  if (TVMFFIFunctionCall(hook->v_obj, args, 3, &out) != 0) return TETHER_EQ_ERR;
  bool ok = out.type_index == kTVMFFIBool || out.type_index == kTVMFFIInt;
  bool eq = ok && out.v_int64 != 0;
  tether_any_release(&out);
  if (!ok) {
    tether_raise("TypeError", "ffi.StructuralEqual: __s_equal__ of `%s` must return a bool",
                 tether_type_key(l->type_index));
    return TETHER_EQ_ERR;
  }
  return eq ? TETHER_EQ_EQ : TETHER_EQ_NE;
}

/* Compares two values: decided at once (EQ / NE / ERR) or a frame pushed (PUSHED). */
static int tether__eq_start(tether_eq_state* s, tether_eq_stack* st, const TVMFFIAny* l,
                            const TVMFFIAny* r) {
  static const char fname[] = "ffi.StructuralEqual";
  TVMFFIByteArray a, b;
  tether_eq_frame* f;
  if (l->type_index != r->type_index) {
    if (tether__chars(l, true, &a)) return tether__chars(r, true, &b) && tether__bytes_eq(a, b);
    if (tether__chars(l, false, &a)) return tether__chars(r, false, &b) && tether__bytes_eq(a, b);
    return TETHER_EQ_NE;
  }
  int32_t t = l->type_index;
  if (t < kTVMFFIStaticObjectBegin) {
    if (t == kTVMFFIFloat && isnan(l->v_float64)) return isnan(r->v_float64);
    if (t == kTVMFFIRawStr || t == kTVMFFIByteArrayPtr) {
      return tether__chars(l, t == kTVMFFIRawStr, &a) && tether__chars(r, t == kTVMFFIRawStr, &b) &&
             tether__bytes_eq(a, b);
    }
    return l->zero_padding == r->zero_padding && l->v_int64 == r->v_int64;
  }
  if (l->v_obj == NULL || r->v_obj == NULL) return l->v_obj == r->v_obj;
  switch (t) {
    case kTVMFFIBigInt:
      return tether__bigint_cmp(l, r) == 0;
    case kTVMFFIStr:
    case kTVMFFIBytes:
      return tether__bytes_eq(*TETHER_CELL(TVMFFIByteArray, l->v_obj),
                              *TETHER_CELL(TVMFFIByteArray, r->v_obj));
    case kTVMFFIArray:
    case kTVMFFIList:
      if (tether__seq_cell(l->v_obj)->size != tether__seq_cell(r->v_obj)->size && !s->trace) {
        return TETHER_EQ_NE;
      }
      return tether__eq_push(st, TETHER_EQF_SEQ, l, r, &f) != 0 ? TETHER_EQ_ERR : TETHER_EQ_PUSHED;
    case kTVMFFIMap:
    case kTVMFFIDict:
      if (tether__map_size(l->v_obj) != tether__map_size(r->v_obj) && !s->trace) return TETHER_EQ_NE;
      return tether__eq_push(st, TETHER_EQF_MAP, l, r, &f) != 0 ? TETHER_EQ_ERR : TETHER_EQ_PUSHED;
    case kTVMFFIShape: {
      const TVMFFIShapeCell* x = TETHER_CELL(TVMFFIShapeCell, l->v_obj);
      const TVMFFIShapeCell* y = TETHER_CELL(TVMFFIShapeCell, r->v_obj);
      return x->size == y->size &&
             (x->size == 0 || memcmp(x->data, y->data, x->size * sizeof(int64_t)) == 0);
    }
    case kTVMFFITensor: {
      const DLTensor* x = TETHER_CELL(DLTensor, l->v_obj);
      const DLTensor* y = TETHER_CELL(DLTensor, r->v_obj);
      size_t nx, ny;
      if (l->v_obj == r->v_obj) return TETHER_EQ_EQ;
      if (x->ndim != y->ndim) return TETHER_EQ_NE;
      for (int32_t i = 0; i < x->ndim; ++i) {
        if (x->shape[i] != y->shape[i]) return TETHER_EQ_NE;
      }
      if (x->dtype.code != y->dtype.code || x->dtype.bits != y->dtype.bits ||
          x->dtype.lanes != y->dtype.lanes) {
        return TETHER_EQ_NE;
      }
      if (s->skip_tensor) return TETHER_EQ_EQ;
      if (tether__tensor_bytes(fname, x, &nx) != 0 || tether__tensor_bytes(fname, y, &ny) != 0) {
        return TETHER_EQ_ERR;
      }
      return nx == 0 || memcmp(tether__tensor_data(x), tether__tensor_data(y), nx) == 0;
    }
    default:
      break;
  }
  TVMFFIObject* lo = l->v_obj;
  TVMFFIObject* ro = r->v_obj;
  const TVMFFITypeInfo* info;
  int32_t kind;
  if (tether__seq_kind(fname, lo, &info, &kind) != 0) return TETHER_EQ_ERR;
  if (kind == kTVMFFISEqHashKindUniqueInstance) return lo == ro;
  if (kind == kTVMFFISEqHashKindConstTreeNode && lo == ro) return TETHER_EQ_EQ;
  if (kind == kTVMFFISEqHashKindDAGNode || kind == kTVMFFISEqHashKindFreeVar) {
    uint64_t* mapped = tether__ptrmap_find(&s->l2r, lo);
    if (mapped != NULL) return (TVMFFIObject*)(uintptr_t)*mapped == ro;
    if (tether__ptrmap_find(&s->r2l, ro) != NULL) return TETHER_EQ_NE;
  }
  const TVMFFIAny* hook = tether__type_attr("__s_equal__", &tether__s_equal_column, lo->type_index);
  if (hook != NULL) {
    int32_t saved = s->region;
    if (kind == kTVMFFISEqHashKindFreeVar && saved == kTVMFFIDefRegionKindSimple) {
      s->region = kTVMFFIDefRegionKindNone;
    }
    int rc = tether__eq_hook(s, hook, lo, ro);
    s->region = saved;
    return rc == TETHER_EQ_EQ ? tether__eq_object_done(s, lo, ro, kind) : rc;
  }
  if (tether__eq_push(st, TETHER_EQF_OBJ, l, r, &f) != 0) return TETHER_EQ_ERR;
  f->info = info;
  f->eq_kind = kind;
  f->saved_region = s->region;
  if (kind == kTVMFFISEqHashKindFreeVar && s->region == kTVMFFIDefRegionKindSimple) {
    s->region = kTVMFFIDefRegionKindNone;
  }
  return TETHER_EQ_PUSHED;
}

/* Advances the top frame: starts its next child, or finishes the frame (popping it). */
static int tether__eq_next(tether_eq_state* s, tether_eq_stack* st) {
  tether_eq_frame* f = &st->items[st->n - 1];
  if (f->child_restore >= 0) {
    s->region = f->child_restore;
    f->child_restore = -1;
  }
  tether__eq_frame_clear_step(f);
  if (f->kind == TETHER_EQF_SEQ) {
    const TVMFFISeqCell* x = tether__seq_cell(f->lhs.v_obj);
    const TVMFFISeqCell* y = tether__seq_cell(f->rhs.v_obj);
    int64_t n = x->size < y->size ? x->size : y->size;
    if (f->pos < n) {
      int64_t i = f->pos++;
      TVMFFIAny idx = tether_any_int(i);
      tether__eq_frame_set_step(f, TETHER_ACCESS_ARRAY_ITEM, &idx, TETHER_ACCESS_ARRAY_ITEM, &idx);
      TVMFFIAny a = ((const TVMFFIAny*)x->data)[i], b = ((const TVMFFIAny*)y->data)[i];
      return tether__eq_start(s, st, &a, &b);
    }
    if (x->size == y->size) {
      tether__eq_pop(st);
      return TETHER_EQ_EQ;
    }
    TVMFFIAny at = tether_any_int(x->size > y->size ? y->size : x->size);
    tether__eq_frame_set_step(f, x->size > y->size ? TETHER_ACCESS_ARRAY_ITEM : TETHER_ACCESS_ARRAY_ITEM_MISSING,
                              &at, x->size > y->size ? TETHER_ACCESS_ARRAY_ITEM_MISSING : TETHER_ACCESS_ARRAY_ITEM,
                              &at);
    return TETHER_EQ_NE;
  }
  if (f->kind == TETHER_EQF_MAP) {
    const TVMFFIAny *k, *v;
    if (f->phase == 0) {
      if (tether__map_next(f->lhs.v_obj, &f->pos, &k, &v)) {
        TVMFFIAny rk = tether__eq_map_key(&s->l2r, k);
        const TVMFFIAny* rv = tether__map_get(f->rhs.v_obj, &rk);
        if (rv == NULL) {
          tether__eq_frame_set_step(f, TETHER_ACCESS_MAP_ITEM, k, TETHER_ACCESS_MAP_ITEM_MISSING, &rk);
          return TETHER_EQ_NE;
        }
        tether__eq_frame_set_step(f, TETHER_ACCESS_MAP_ITEM, k, TETHER_ACCESS_MAP_ITEM, &rk);
        TVMFFIAny a = *v, b = *rv;
        return tether__eq_start(s, st, &a, &b);
      }
      if (tether__map_size(f->lhs.v_obj) == tether__map_size(f->rhs.v_obj)) {
        tether__eq_pop(st);
        return TETHER_EQ_EQ;
      }
      f->phase = 1;
      f->pos = 0;
    }
    while (tether__map_next(f->rhs.v_obj, &f->pos, &k, &v)) {
      TVMFFIAny lk = tether__eq_map_key(&s->r2l, k);
      if (tether__map_get(f->lhs.v_obj, &lk) == NULL) {
        tether__eq_frame_set_step(f, TETHER_ACCESS_MAP_ITEM_MISSING, &lk, TETHER_ACCESS_MAP_ITEM, k);
        return TETHER_EQ_NE;
      }
    }
    return TETHER_EQ_NE;
  }
  /* object: next field */
  const TVMFFIFieldInfo* field;
  while ((field = tether__next_field(f->info, &f->depth, &f->field)) != NULL) {
    if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
    TVMFFIAny a = tether_any_none(), b = tether_any_none(), name = tether_any_none();
    if (field->getter((char*)f->lhs.v_obj + field->offset, &a) != 0 ||
        field->getter((char*)f->rhs.v_obj + field->offset, &b) != 0 ||
        (s->trace && tether_any_str(field->name.data, field->name.size, &name) != 0)) {
      tether_any_release(&a);
      tether_any_release(&b);
      return TETHER_EQ_ERR;
    }
    if (s->trace) {
      tether__eq_frame_set_step(f, TETHER_ACCESS_ATTR, &name, TETHER_ACCESS_ATTR, &name);
      tether_any_release(&name);
    }
    int32_t region = tether__field_region(field->flags, s->region);
    if (region >= 0) {
      f->child_restore = s->region;
      s->region = region;
    }
    int rc = tether__eq_start(s, st, &a, &b);
    tether_any_release(&a);
    tether_any_release(&b);
    return rc;
  }
  s->region = f->saved_region;
  TVMFFIObject* lo = f->lhs.v_obj;
  TVMFFIObject* ro = f->rhs.v_obj;
  int32_t kind = f->eq_kind;
  int rc = tether__eq_object_done(s, lo, ro, kind);
  if (rc != TETHER_EQ_NE) tether__eq_pop(st);
  return rc;
}

/* One comparison on its own stack: 1 equal, 0 not, -1 error.  The region is restored. */
static int tether__eq_run(tether_eq_state* s, const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
  tether_eq_stack st = {NULL, 0, 0};
  int32_t saved = s->region;
  int rc = tether__eq_start(s, &st, lhs, rhs);
  while (st.n > 0 && rc != TETHER_EQ_ERR) {
    if (rc == TETHER_EQ_NE) {
      /* unwind, recording the step each frame was taking */
      while (st.n > 0) {
        tether_eq_frame* f = &st.items[st.n - 1];
        if (f->has_step && s->trace) {
          if (tether__eq_record(s, f->step_kind_l, f->step_key_l, f->step_kind_r, f->step_key_r) != 0) {
            rc = TETHER_EQ_ERR;
          }
          f->step_key_l = f->step_key_r = tether_any_none();
          f->has_step = false;
        }
        tether__eq_pop(&st);
      }
      break;
    }
    rc = tether__eq_next(s, &st);
  }
  while (st.n > 0) tether__eq_pop(&st);
  free(st.items);
  s->region = saved;
  return rc == TETHER_EQ_ERR ? -1 : rc == TETHER_EQ_EQ ? 1 : 0;
}

static void tether__eq_state_init(tether_eq_state* s, bool map_free_vars, bool skip, bool trace) {
  memset(s, 0, sizeof(*s));
  s->region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  s->skip_tensor = skip;
  s->trace = trace;
}

static void tether__eq_state_free(tether_eq_state* s) {
  tether__ptrmap_free(&s->l2r);
  tether__ptrmap_free(&s->r2l);
  tether__held_release(&s->held);
  for (size_t i = 0; i < s->rev_n; ++i) tether_any_release(&s->rev_keys[i]);
  free(s->rev_keys);
  free(s->rev_kinds);
  TVMFFIObjectDecRef(s->callback);
}

static int tether__check_views(const char* fname, const TVMFFIAny* a, const TVMFFIAny* b, void* out) {
  if (a == NULL || b == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: arguments must not be NULL", fname);
  }
  return 0;
}

int tether_structural_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool map_free_vars,
                            bool skip_tensor_content, bool* out) {
  if (tether__check_views("tether_structural_equal", lhs, rhs, out) != 0) return -1;
  tether_eq_state s;
  tether__eq_state_init(&s, map_free_vars, skip_tensor_content, false);
  int rc = tether__eq_run(&s, lhs, rhs);
  tether__eq_state_free(&s);
  if (rc < 0) return -1;
  *out = rc == 1;
  return 0;
}

int tether_structural_first_mismatch(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                     bool map_free_vars, bool skip_tensor_content,
                                     TVMFFIAny* out) {
  if (tether__check_views("tether_structural_first_mismatch", lhs, rhs, out) != 0) return -1;
  tether_eq_state s;
  TVMFFIObject *pl = NULL, *pr = NULL;
  tether__eq_state_init(&s, map_free_vars, skip_tensor_content, true);
  int rc = tether__eq_run(&s, lhs, rhs);
  if (rc != 0) {
    if (rc == 1) *out = tether_any_none();
    tether__eq_state_free(&s);
    return rc < 0 ? -1 : 0;
  }
  rc = -1;
  if (tether__access_path_push(NULL, 0, NULL, &pl) != 0 ||
      tether__access_path_push(NULL, 0, NULL, &pr) != 0) {
    goto done;
  }
  for (size_t i = s.rev_n; i >= 2; i -= 2) {
    TVMFFIObject *nl = NULL, *nr = NULL;
    if (tether__access_path_push(pl, s.rev_kinds[i - 2], &s.rev_keys[i - 2], &nl) != 0) goto done;
    TVMFFIObjectDecRef(pl);
    pl = nl;
    if (tether__access_path_push(pr, s.rev_kinds[i - 1], &s.rev_keys[i - 1], &nr) != 0) goto done;
    TVMFFIObjectDecRef(pr);
    pr = nr;
  }
  TVMFFIAny pair[2] = {tether_any_object(pl), tether_any_object(pr)};
  TVMFFIObject* arr = NULL;
  if (tether__array_new(pair, 2, &arr) != 0) goto done;
  *out = tether_any_object(arr);
  rc = 0;
done:
  TVMFFIObjectDecRef(pl);
  TVMFFIObjectDecRef(pr);
  tether__eq_state_free(&s);
  return rc;
}

/* ==== structural hashing ================================================================= */

typedef enum { TETHER_HF_SEQ, TETHER_HF_MAP, TETHER_HF_OBJ } tether_hf_kind;

typedef struct {
  uint64_t key;
  TVMFFIAny value; /* borrowed from the map */
} tether_hash_item;

typedef struct {
  tether_hf_kind kind;
  TVMFFIAny value; /* owning */
  uint64_t hash;
  int64_t pos;
  /* MAP: order-independent key hashes, sorted, and their values */
  tether_hash_item* items;
  int64_t num_items;
  const TVMFFITypeInfo* info;
  int32_t depth, field;
  int32_t eq_kind, saved_region;
  int32_t child_restore;
} tether_hash_frame;

typedef struct {
  int32_t region;
  bool skip_tensor;
  uint32_t free_var_counter;
  uint32_t graph_node_counter;
  tether_ptrmap memo;
  tether_held held;
  TVMFFIObject* callback;
} tether_hash_state;

typedef struct {
  tether_hash_frame* items;
  size_t n, cap;
} tether_hash_stack;

static int tether__hash_run(tether_hash_state* s, const TVMFFIAny* v, uint64_t* out);

static uint64_t tether__type_key_hash(int32_t type_index) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(type_index);
  return info != NULL ? (uint64_t)info->type_key_hash : 0;
}

static uint64_t tether__str_hash(int32_t family, TVMFFIByteArray b) {
  return tether__hash_combine((uint64_t)family, tether__hash_bytes(b.data, b.size));
}

/* The hash of a map key that does not depend on the order of the walk, if it has one. */
static bool tether__order_free_hash(tether_hash_state* s, const TVMFFIAny* k, uint64_t* out) {
  TVMFFIByteArray b;
  if (k->type_index < kTVMFFIStaticObjectBegin) {
    if (k->type_index == kTVMFFISmallStr && tether_any_get_str(k, &b)) {
      *out = tether__str_hash(kTVMFFIStr, b);
    } else {
      *out = tether__hash_combine((uint64_t)(int64_t)k->type_index, k->v_uint64);
    }
    return true;
  }
  if (k->type_index == kTVMFFIStr || k->type_index == kTVMFFIBytes) {
    *out = tether__str_hash(k->type_index, *TETHER_CELL(TVMFFIByteArray, k->v_obj));
    return true;
  }
  uint64_t* memo = tether__ptrmap_find(&s->memo, k->v_obj);
  if (memo == NULL) return false;
  *out = *memo;
  return true;
}

static int tether__hash_item_cmp(const void* a, const void* b) {
  uint64_t x = ((const tether_hash_item*)a)->key, y = ((const tether_hash_item*)b)->key;
  return x < y ? -1 : x > y;
}

static int tether__hash_push(tether_hash_stack* st, tether_hf_kind kind, const TVMFFIAny* v,
                             tether_hash_frame** out) {
  if (st->n == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 16;
    tether_hash_frame* items = realloc(st->items, cap * sizeof(*items));
    if (items == NULL) return tether_raise("MemoryError", "ffi.StructuralHash: out of memory");
    st->items = items;
    st->cap = cap;
  }
  tether_hash_frame* f = &st->items[st->n++];
  memset(f, 0, sizeof(*f));
  f->kind = kind;
  tether_any_copy(v, &f->value);
  f->child_restore = -1;
  *out = f;
  return 0;
}

static void tether__hash_pop(tether_hash_stack* st) {
  tether_hash_frame* f = &st->items[--st->n];
  free(f->items);
  tether_any_release(&f->value);
}

/* The `__s_hash__` hooks' callback: (value, init_hash, def_region_kind) -> int. */
static int tether__hash_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_hash_state* s = self;
  int64_t init, kind;
  uint64_t h;
  if (tether_check_nargs("__s_hash__ callback", "(0: Any, 1: int, 2: int) -> int", n, 3) != 0 ||
      tether_arg_int("__s_hash__ callback", args, 1, &init) != 0 ||
      tether_arg_int("__s_hash__ callback", args, 2, &kind) != 0) {
    return -1;
  }
  int32_t saved = s->region;
  if (kind != kTVMFFIDefRegionKindNone && saved != kTVMFFIDefRegionKindPattern) {
    s->region = (int32_t)kind;
  }
  int rc = tether__hash_run(s, &args[0], &h);
  s->region = saved;
  if (rc != 0) return -1;
  *result = tether_any_int((int64_t)tether__hash_combine((uint64_t)init, h));
  return 0;
}

/* Finishes an object's hash from its field hash `h`. */
static int tether__hash_object_done(tether_hash_state* s, TVMFFIObject* obj, int32_t kind,
                                    uint64_t h, uint64_t* out) {
  if (kind == kTVMFFISEqHashKindFreeVar) {
    h = s->region != kTVMFFIDefRegionKindNone ? tether__hash_combine(h, s->free_var_counter++)
                                              : (uint64_t)(uintptr_t)obj;
  }
  if (kind == kTVMFFISEqHashKindDAGNode) h = tether__hash_combine(h, s->graph_node_counter++);
  if (tether__ptrmap_find(&s->memo, obj) == NULL && tether__hold(&s->held, obj) != 0) return -1;
  if (tether__ptrmap_put(&s->memo, obj, h) != 0) return -1;
  *out = h;
  return 0;
}

/* Hashes a value at once (returns 0 with *out) or pushes a frame (returns 1); -1 on error. */
static int tether__hash_start(tether_hash_state* s, tether_hash_stack* st, const TVMFFIAny* v,
                              uint64_t* out) {
  static const char fname[] = "ffi.StructuralHash";
  TVMFFIByteArray b;
  tether_hash_frame* f;
  int32_t t = v->type_index;
  if (t < kTVMFFIStaticObjectBegin) {
    if (t == kTVMFFIFloat && isnan(v->v_float64)) {
      TVMFFIAny q = *v;
      q.v_float64 = NAN;
      *out = tether__hash_combine((uint64_t)(int64_t)t, q.v_uint64);
    } else if ((t == kTVMFFISmallStr || t == kTVMFFIRawStr) && tether_any_get_str(v, &b)) {
      *out = tether__str_hash(kTVMFFIStr, b);
    } else if (t == kTVMFFIByteArrayPtr && tether_any_get_bytes(v, &b)) {
      *out = tether__str_hash(kTVMFFIBytes, b);
    } else {
      /* other PODs hash their bits (SmallBytes included, as tvm-ffi does) */
      *out = tether__hash_combine((uint64_t)(int64_t)t, v->v_uint64);
    }
    return 0;
  }
  TVMFFIObject* obj = v->v_obj;
  if (obj == NULL) {
    *out = tether__hash_combine((uint64_t)(int64_t)t, 0);
    return 0;
  }
  switch (t) {
    case kTVMFFIBigInt: {
      const tether_bigint_t* big = (const tether_bigint_t*)obj;
      TVMFFIByteArray words = {(const char*)big->words, big->num_words * sizeof(int64_t)};
      *out = tether__str_hash(t, words); /* the type, then the words' bytes, as tvm-ffi */
      return 0;
    }
    case kTVMFFIStr:
    case kTVMFFIBytes:
      *out = tether__str_hash(t, *TETHER_CELL(TVMFFIByteArray, obj));
      return 0;
    case kTVMFFIArray:
    case kTVMFFIList:
      if (tether__hash_push(st, TETHER_HF_SEQ, v, &f) != 0) return -1;
      f->hash = tether__hash_combine(tether__type_key_hash(t), (uint64_t)tether__seq_cell(obj)->size);
      return 1;
    case kTVMFFIMap:
    case kTVMFFIDict: {
      int64_t n = tether__map_size(obj), pos = 0, m = 0;
      const TVMFFIAny *k, *val;
      if (tether__hash_push(st, TETHER_HF_MAP, v, &f) != 0) return -1;
      f->hash = tether__hash_combine(tether__type_key_hash(t), (uint64_t)n);
      f->items = malloc(sizeof(tether_hash_item) * (size_t)(n > 0 ? n : 1));
      if (f->items == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
      while (tether__map_next(obj, &pos, &k, &val) && m < n) {
        uint64_t kh;
        if (tether__order_free_hash(s, k, &kh)) f->items[m++] = (tether_hash_item){kh, *val};
      }
      f->num_items = m;
      qsort(f->items, (size_t)m, sizeof(tether_hash_item), tether__hash_item_cmp);
      return 1;
    }
    case kTVMFFIShape: {
      const TVMFFIShapeCell* c = TETHER_CELL(TVMFFIShapeCell, obj);
      uint64_t h = tether__hash_combine(tether__type_key_hash(t), c->size);
      for (size_t i = 0; i < c->size; ++i) h = tether__hash_combine(h, (uint64_t)c->data[i]);
      *out = h;
      return 0;
    }
    case kTVMFFITensor: {
      const DLTensor* x = TETHER_CELL(DLTensor, obj);
      uint64_t h = tether__hash_combine(tether__type_key_hash(t), (uint64_t)(int64_t)x->ndim);
      for (int32_t i = 0; i < x->ndim; ++i) h = tether__hash_combine(h, (uint64_t)x->shape[i]);
      TVMFFIAny d = tether_any_none();
      d.v_dtype = x->dtype;
      h = tether__hash_combine(h, d.v_uint64);
      if (!s->skip_tensor) {
        size_t nbytes;
        if (tether__tensor_bytes(fname, x, &nbytes) != 0) return -1;
        h = tether__hash_combine(h, tether__hash_bytes(tether__tensor_data(x), nbytes));
      }
      *out = h;
      return 0;
    }
    default:
      break;
  }
  const TVMFFITypeInfo* info;
  int32_t kind;
  if (tether__seq_kind(fname, obj, &info, &kind) != 0) return -1;
  uint64_t* memo = tether__ptrmap_find(&s->memo, obj);
  if (memo != NULL) {
    *out = *memo;
    return 0;
  }
  int32_t saved = s->region;
  if (kind == kTVMFFISEqHashKindFreeVar && saved == kTVMFFIDefRegionKindSimple) {
    s->region = kTVMFFIDefRegionKindNone;
  }
  const TVMFFIAny* hook = tether__type_attr("__s_hash__", &tether__s_hash_column, t);
  if (hook != NULL) {
    TVMFFIAny res = tether_any_none();
    int rc = -1;
    if (hook->type_index != kTVMFFIFunction) {
      tether_raise("TypeError", "%s: __s_hash__ of `%s` must be an ffi.Function", fname,
                   tether_type_key(t));
    } else if (s->callback != NULL ||
               TVMFFIFunctionCreate(s, tether__hash_callback, NULL,
                                    (TVMFFIObjectHandle*)&s->callback) == 0) {
      TVMFFIAny args[3] = {*v, tether_any_int((int64_t)tether__type_key_hash(t)),
                           tether_any_object(s->callback)};
      rc = TVMFFIFunctionCall(hook->v_obj, args, 3, &res);
      if (rc == 0 && res.type_index != kTVMFFIInt) {
        rc = tether_raise("TypeError", "%s: __s_hash__ of `%s` must return an int", fname,
                          tether_type_key(t));
      }
    }
    s->region = saved;
    uint64_t h = (uint64_t)res.v_int64;
    tether_any_release(&res);
    if (rc != 0) return -1;
    return tether__hash_object_done(s, obj, kind, h, out);
  }
  if (tether__hash_push(st, TETHER_HF_OBJ, v, &f) != 0) {
    s->region = saved;
    return -1;
  }
  f->hash = tether__type_key_hash(t);
  f->info = info;
  f->eq_kind = kind;
  f->saved_region = saved;
  return 1;
}

/* Feeds a finished child hash into the top frame. */
static void tether__hash_feed(tether_hash_state* s, tether_hash_frame* f, uint64_t h) {
  f->hash = tether__hash_combine(f->hash, h);
  if (f->child_restore >= 0) {
    s->region = f->child_restore;
    f->child_restore = -1;
  }
}

/* Advances the top frame: 1 = a child frame was pushed, 0 = the frame finished (popped,
 * hash in *out) or a child finished at once (fed), -1 = error.  *done tells which. */
static int tether__hash_next(tether_hash_state* s, tether_hash_stack* st, bool* done,
                             uint64_t* out) {
  tether_hash_frame* f = &st->items[st->n - 1];
  TVMFFIAny child = tether_any_none();
  bool owned = false;
  *done = false;
  if (f->kind == TETHER_HF_SEQ) {
    const TVMFFISeqCell* c = tether__seq_cell(f->value.v_obj);
    if (f->pos < c->size) child = ((const TVMFFIAny*)c->data)[f->pos++];
    else goto finish;
  } else if (f->kind == TETHER_HF_MAP) {
    while (f->pos < f->num_items) {
      int64_t i = f->pos, k = i + 1;
      while (k < f->num_items && f->items[k].key == f->items[i].key) ++k;
      f->hash = tether__hash_combine(f->hash, f->items[i].key);
      f->pos = k;
      if (k == i + 1) {
        child = f->items[i].value;
        goto start;
      }
    }
    goto finish;
  } else {
    const TVMFFIFieldInfo* field;
    while ((field = tether__next_field(f->info, &f->depth, &f->field)) != NULL) {
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      if (field->getter((char*)f->value.v_obj + field->offset, &child) != 0) return -1;
      owned = true;
      int32_t region = tether__field_region(field->flags, s->region);
      if (region >= 0) {
        f->child_restore = s->region;
        s->region = region;
      }
      goto start;
    }
    goto finish;
  }
start: {
  uint64_t h;
  int rc = tether__hash_start(s, st, &child, &h);
  if (owned) tether_any_release(&child);
  if (rc == 0) tether__hash_feed(s, &st->items[st->n - (size_t)1], h);
  return rc;
}
finish:
  if (f->kind == TETHER_HF_OBJ) {
    s->region = f->saved_region;
    if (tether__hash_object_done(s, f->value.v_obj, f->eq_kind, f->hash, out) != 0) return -1;
  } else {
    *out = f->hash;
  }
  tether__hash_pop(st);
  *done = true;
  return 0;
}

static int tether__hash_run(tether_hash_state* s, const TVMFFIAny* v, uint64_t* out) {
  tether_hash_stack st = {NULL, 0, 0};
  int32_t saved = s->region;
  int rc = tether__hash_start(s, &st, v, out);
  while (rc >= 0 && st.n > 0) {
    bool done;
    uint64_t h;
    rc = tether__hash_next(s, &st, &done, &h);
    if (rc >= 0 && done) {
      if (st.n == 0) {
        *out = h;
      } else {
        tether__hash_feed(s, &st.items[st.n - 1], h);
      }
    }
  }
  while (st.n > 0) tether__hash_pop(&st);
  free(st.items);
  s->region = saved;
  return rc < 0 ? -1 : 0;
}

int tether_structural_hash(const TVMFFIAny* value, bool map_free_vars, bool skip_tensor_content,
                           uint64_t* out) {
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_structural_hash: arguments must not be NULL");
  }
  tether_hash_state s;
  memset(&s, 0, sizeof(s));
  s.region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  s.skip_tensor = skip_tensor_content;
  int rc = tether__hash_run(&s, value, out);
  tether__ptrmap_free(&s.memo);
  tether__held_release(&s.held);
  TVMFFIObjectDecRef(s.callback);
  return rc;
}

/* ==== globals ============================================================================ */

/* Reads the optional (map_free_vars, skip_tensor_content) flags after `n_fixed` arguments. */
static int tether__flags(const char* fname, const TVMFFIAny* args, int32_t n, int32_t n_fixed,
                         bool* map_free_vars, bool* skip) {
  *map_free_vars = *skip = false;
  if (n < n_fixed || n > n_fixed + 2) {
    return tether_raise("TypeError", "%s expects %d to %d arguments, but %d were provided", fname,
                        (int)n_fixed, (int)n_fixed + 2, (int)n);
  }
  if (n > n_fixed && tether_arg_bool(fname, args, n_fixed, map_free_vars) != 0) return -1;
  if (n > n_fixed + 1 && tether_arg_bool(fname, args, n_fixed + 1, skip) != 0) return -1;
  return 0;
}

static int tether__structural_equal_global(void* self, const TVMFFIAny* args, int32_t n,
                                           TVMFFIAny* result) {
  bool m, sk, eq;
  (void)self;
  if (tether__flags("ffi.StructuralEqual", args, n, 2, &m, &sk) != 0 ||
      tether_structural_equal(&args[0], &args[1], m, sk, &eq) != 0) {
    return -1;
  }
  *result = tether_any_bool(eq);
  return 0;
}

static int tether__first_mismatch_global(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  bool m, sk;
  (void)self;
  if (tether__flags("ffi.GetFirstStructuralMismatch", args, n, 2, &m, &sk) != 0) return -1;
  return tether_structural_first_mismatch(&args[0], &args[1], m, sk, result);
}

static int tether__structural_hash_global(void* self, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  bool m, sk;
  uint64_t h;
  (void)self;
  if (tether__flags("ffi.StructuralHash", args, n, 1, &m, &sk) != 0 ||
      tether_structural_hash(&args[0], m, sk, &h) != 0) {
    return -1;
  }
  *result = tether_any_int((int64_t)h);
  return 0;
}

/* ==== ffi.StructuralKey ================================================================== */

typedef struct {
  TVMFFIObject header;
  TVMFFIAny key;
  int64_t hash_i64;
} tether_structural_key_t;

static int32_t tether__structural_key_index = -1;

static int tether__structural_key_new(const TVMFFIAny* key, TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  uint64_t h;
  if (tether_structural_hash(key, false, false, &h) != 0 ||
      tether_object_new_reflected(tether__structural_key_index, (TVMFFIObjectHandle*)&obj) != 0) {
    return -1;
  }
  tether_structural_key_t* k = (tether_structural_key_t*)obj;
  if (TVMFFIAnyViewToOwnedAny(key, &k->key) != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  k->hash_i64 = (int64_t)h;
  *result = tether_any_object(obj);
  return 0;
}

static int tether__structural_key_global(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  (void)self;
  if (tether_check_nargs("ffi.StructuralKey", "(0: Any) -> StructuralKey", n, 1) != 0) return -1;
  return tether__structural_key_new(&args[0], result);
}

/* 1 equal, 0 not, -1 error (a or b not a StructuralKey). */
static int tether__structural_key_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  if (a->type_index == b->type_index && a->v_obj == b->v_obj) return 1;
  if (a->type_index != tether__structural_key_index || b->type_index != tether__structural_key_index) {
    return tether_raise("TypeError", "ffi.StructuralKeyEqual: both arguments must be "
                        "ffi.StructuralKey, got `%s` and `%s`", tether_any_type_key(a),
                        tether_any_type_key(b));
  }
  const tether_structural_key_t* x = (const tether_structural_key_t*)a->v_obj;
  const tether_structural_key_t* y = (const tether_structural_key_t*)b->v_obj;
  if (x->hash_i64 != y->hash_i64) return 0;
  bool eq;
  if (tether_structural_equal(&x->key, &y->key, false, false, &eq) != 0) return -1;
  return eq;
}

static int tether__structural_key_equal_global(void* self, const TVMFFIAny* args, int32_t n,
                                               TVMFFIAny* result) {
  (void)self;
  if (tether_check_nargs("ffi.StructuralKeyEqual", "(0: Any, 1: Any) -> bool", n, 2) != 0) return -1;
  int rc = tether__structural_key_equal(&args[0], &args[1]);
  if (rc < 0) return -1;
  *result = tether_any_bool(rc == 1);
  return 0;
}

/* `__any_hash__` / `__any_equal__` native entries (tvm-ffi 0.1.15 hook convention). */
static TVMFFIAny tether__structural_key_any_hash(const TVMFFIAny* v) {
  if (v->type_index != tether__structural_key_index) {
    return tether__error_any("TypeError", "StructuralKey.__any_hash__: got `%s`",
                             tether_any_type_key(v));
  }
  return tether_any_int(((const tether_structural_key_t*)v->v_obj)->hash_i64);
}

static TVMFFIAny tether__structural_key_any_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  int rc = tether__structural_key_equal(a, b);
  return rc < 0 ? tether__error_any_from_raised() : tether_any_bool(rc == 1);
}

/* ==== subsystem ========================================================================== */

int tether__structural_init(void) {
  const tether_field_def_t key_fields[] = {
      {"key", TETHER_FIELD_ANY, offsetof(tether_structural_key_t, key), 0, 0, NULL,
       "the wrapped key"},
      {"hash_i64", TETHER_FIELD_INT64, offsetof(tether_structural_key_t, hash_i64), 0, 0, NULL,
       "structural hash of the key"},
  };
  const tether_extra_type_t key_type = {"ffi.StructuralKey", -1, sizeof(tether_structural_key_t),
                                        kTVMFFISEqHashKindTreeNode, true, true, key_fields, 2};
  if (tether__extra_type_register(&key_type, &tether__structural_key_index) != 0 ||
      tether__type_attr_def_ptr(tether__structural_key_index, "__any_hash__",
                                (void*)tether__structural_key_any_hash) != 0 ||
      tether__type_attr_def_ptr(tether__structural_key_index, "__any_equal__",
                                (void*)tether__structural_key_any_equal) != 0 ||
      tether__type_attr_def_func(tether__structural_key_index, "__ffi_init__",
                                 tether__structural_key_global) != 0) {
    return -1;
  }
  static const tether_extra_global_t globals[] = {
      {"ffi.StructuralEqual", tether__structural_equal_global},
      {"ffi.GetFirstStructuralMismatch", tether__first_mismatch_global},
      {"ffi.StructuralHash", tether__structural_hash_global},
      {"ffi.StructuralKey", tether__structural_key_global},
      {"ffi.StructuralKeyEqual", tether__structural_key_equal_global},
  };
  return tether__extra_globals_register(globals, sizeof(globals) / sizeof(globals[0]));
}

void tether__structural_fini(void) {
  tether__s_equal_column = NULL;
  tether__s_hash_column = NULL;
}
