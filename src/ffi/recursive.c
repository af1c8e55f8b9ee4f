/*
 * recursive.c -- tvm-ffi's dataclass operations on whole value graphs: ffi.RecursiveEq,
 * ffi.RecursiveLt/Le/Gt/Ge (three-way comparison), ffi.RecursiveHash and ffi.DeepCopy.
 *
 * All four walk the graph on an explicit stack of frames; a frame lists the children of one
 * container or reflected object (Array/List elements, Map/Dict keys and values, the fields
 * not switched off by CompareOff/HashOff).  Types may take over with `__ffi_eq__`,
 * `__ffi_compare__` and `__ffi_hash__` hooks (called with the object(s) and a callback that
 * recurses); DeepCopy copies reflected objects with their `__ffi_shallow_copy__` and
 * shares immutable leaves and enum variants (singletons).  Cycles
 * are detected (hash: the type-key hash stands in; eq: equal; ordering: ValueError) and
 * DeepCopy preserves sharing and cycles.
 */
#include <math.h>

#include <tether/container.h>
#include <tether/enum.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "internal.h"
#include "bigint.h"
#include "any.h"
#include "array.h"
#include "dataclass.h"
#include "list.h"
#include "map.h"
#include "ptrmap.h"
#include "type.h"

/* ---- frames: one container or object with its listed children ---------------------------- */

typedef enum { TETHER_RF_SEQ, TETHER_RF_MAP, TETHER_RF_OBJ } tether_rf_kind;

typedef struct {
  tether_rf_kind kind;
  TVMFFIObject* obj;           /* borrowed (kept alive by `held` or the caller) */
  TVMFFIObject* rhs;           /* comparisons: the other side */
  TVMFFIAny* children;         /* owning; comparisons store lhs/rhs pairs */
  const TVMFFIFieldInfo** fields; /* OBJ: field of each child (copy) */
  int64_t n, idx;
  int64_t lhs_size, rhs_size;
  uint64_t hash;
  uint64_t* entries; /* hash of MAP: entry hashes */
  int64_t num_entries;
  uint64_t key_hash;
  TVMFFIAny copy;     /* deep copy: the copy being filled (owning) */
  TVMFFIAny pending_key;
  TVMFFIObject* built; /* deep copy of Array/Map: elements gathered here */
} tether_rframe;

typedef struct {
  tether_rframe* items;
  size_t n, cap;
} tether_rstack;

static void tether__rframe_free(tether_rframe* f) {
  for (int64_t i = 0; i < f->n; ++i) tether_any_release(&f->children[i]);
  free(f->children);
  free((void*)f->fields);
  free(f->entries);
  tether_any_release(&f->copy);
  tether_any_release(&f->pending_key);
  TVMFFIObjectDecRef(f->built);
}

static tether_rframe* tether__rpush(tether_rstack* st) {
  if (st->n == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 16;
    tether_rframe* items = realloc(st->items, cap * sizeof(*items));
    if (items == NULL) {
      tether_raise("MemoryError", "recursive traversal: out of memory");
      return NULL;
    }
    st->items = items;
    st->cap = cap;
  }
  tether_rframe* f = &st->items[st->n++];
  memset(f, 0, sizeof(*f));
  return f;
}

static void tether__rpop(tether_rstack* st) { tether__rframe_free(&st->items[--st->n]); }

static void tether__rstack_free(tether_rstack* st) {
  while (st->n > 0) tether__rpop(st);
  free(st->items);
}

/* Appends an owned copy of `v` (and its field) to the frame's children. */
static int tether__rchild(tether_rframe* f, int64_t* cap, const TVMFFIAny* v,
                          const TVMFFIFieldInfo* field) {
  if (f->n == *cap) {
    int64_t c = *cap ? *cap * 2 : 8;
    TVMFFIAny* ch = realloc(f->children, (size_t)c * sizeof(*ch));
    if (ch != NULL) f->children = ch;
    const TVMFFIFieldInfo** fl = realloc((void*)f->fields, (size_t)c * sizeof(*fl));
    if (fl != NULL) f->fields = fl;
    if (ch == NULL || fl == NULL) return tether_raise("MemoryError", "recursive traversal: out of memory");
    *cap = c;
  }
  tether_any_copy(v, &f->children[f->n]);
  f->fields[f->n++] = field;
  return 0;
}

/* Lists the children of `obj` into `f`: elements, key/value pairs, or the reflected fields
 * not flagged with `skip`. */
static int tether__rlist(tether_rframe* f, int64_t* cap, TVMFFIObject* obj, int64_t skip) {
  int32_t t = obj->type_index;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    const TVMFFISeqCell* c = tether__seq_cell(obj);
    f->kind = TETHER_RF_SEQ;
    for (int64_t i = 0; i < c->size; ++i) {
      if (tether__rchild(f, cap, (const TVMFFIAny*)c->data + i, NULL) != 0) return -1;
    }
    return 0;
  }
  if (t == kTVMFFIMap || t == kTVMFFIDict) {
    int64_t pos = 0;
    const TVMFFIAny *k, *v;
    f->kind = TETHER_RF_MAP;
    while (tether__map_next(obj, &pos, &k, &v)) {
      if (tether__rchild(f, cap, k, NULL) != 0 || tether__rchild(f, cap, v, NULL) != 0) return -1;
    }
    return 0;
  }
  f->kind = TETHER_RF_OBJ;
  const TVMFFITypeInfo* info = tether__type_info_or_null(t);
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* ti = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < ti->num_fields; ++i) {
      const TVMFFIFieldInfo* field = &ti->fields[i];
      if (field->flags & skip) continue;
      TVMFFIAny v = tether_any_none();
      if (field->getter((char*)obj + field->offset, &v) != 0) return -1;
      int rc = tether__rchild(f, cap, &v, field);
      tether_any_release(&v);
      if (rc != 0) return -1;
    }
  }
  return 0;
}

/* String and bytes forms compare and hash by content (views included: the globals see
 * arguments as views, where tvm-ffi's see owned values). */
static bool tether__is_str_family(int32_t t) {
  return t == kTVMFFIStr || t == kTVMFFISmallStr || t == kTVMFFIRawStr;
}
static bool tether__is_bytes_family(int32_t t) {
  return t == kTVMFFIBytes || t == kTVMFFISmallBytes || t == kTVMFFIByteArrayPtr;
}

static TVMFFIByteArray tether__family_chars(const TVMFFIAny* v) {
  TVMFFIByteArray b = {"", 0};
  if (!tether_any_get_str(v, &b)) tether_any_get_bytes(v, &b);
  return b;
}

static int tether__memncmp(TVMFFIByteArray a, TVMFFIByteArray b) {
  size_t n = a.size < b.size ? a.size : b.size;
  int c = n ? memcmp(a.data, b.data, n) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size < b.size ? -1 : a.size > b.size;
}

static const TVMFFITypeAttrColumn* _Atomic tether__eq_column;
static const TVMFFITypeAttrColumn* _Atomic tether__cmp_column;
static const TVMFFITypeAttrColumn* _Atomic tether__hash_column;
static const TVMFFITypeAttrColumn* _Atomic tether__copy_column;

/* ==== comparison =========================================================================== */

typedef struct {
  bool eq_only;
  tether_ptrmap on_stack; /* lhs object -> number of frames comparing it */
  tether_rstack* stack;   /* the stack of the current (innermost) run */
  TVMFFIObject* fn_eq;
  TVMFFIObject* fn_cmp;
} tether_cmp_state;

enum { TETHER_CMP_PUSHED = 2, TETHER_CMP_ERR = 3 };

static bool tether__cmp_on_stack(tether_cmp_state* s, TVMFFIObject* l, TVMFFIObject* r) {
  uint64_t* c = tether__ptrmap_find(&s->on_stack, l);
  if (c == NULL || *c == 0) return false;
  for (size_t i = 0; i < s->stack->n; ++i) {
    if (s->stack->items[i].obj == l && s->stack->items[i].rhs == r) return true;
  }
  return false;
}

static int tether__cmp_mark(tether_cmp_state* s, TVMFFIObject* l, int delta) {
  uint64_t* c = tether__ptrmap_find(&s->on_stack, l);
  if (c != NULL) {
    *c += (uint64_t)(int64_t)delta;
    return 0;
  }
  return delta > 0 ? tether__ptrmap_put(&s->on_stack, l, 1) : 0;
}

static int tether__cmp_run(tether_cmp_state* s, const TVMFFIAny* l, const TVMFFIAny* r, int* out);

static int tether__cmp_callback(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result,
                                bool as_bool) {
  tether_cmp_state* s = self;
  int c;
  if (tether_check_nargs(as_bool ? "__ffi_eq__ callback" : "__ffi_compare__ callback",
                         "(0: Any, 1: Any)", n, 2) != 0 ||
      tether__cmp_run(s, &args[0], &args[1], &c) != 0) {
    return -1;
  }
  *result = as_bool ? tether_any_bool(c == 0) : tether_any_int(c);
  return 0;
}

static int tether__cmp_fn_eq(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__cmp_callback(self, args, n, result, true);
}

static int tether__cmp_fn_cmp(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  return tether__cmp_callback(self, args, n, result, false);
}

/* Calls a `__ffi_eq__` (as_bool) or `__ffi_compare__` hook: -1/0/1 in *out. */
static int tether__cmp_hook(tether_cmp_state* s, const TVMFFIAny* hook, TVMFFIObject* l,
                            TVMFFIObject* r, bool as_bool, int* out) {
  TVMFFIObject** fn = as_bool ? &s->fn_eq : &s->fn_cmp;
  if (hook->type_index != kTVMFFIFunction) {
    return tether_raise("TypeError", "%s of `%s` must be an ffi.Function",
                        as_bool ? "__ffi_eq__" : "__ffi_compare__", tether_type_key(l->type_index));
  }
  if (*fn == NULL && TVMFFIFunctionCreate(s, as_bool ? tether__cmp_fn_eq : tether__cmp_fn_cmp,
                                          NULL, (TVMFFIObjectHandle*)fn) != 0) {
    return -1;
  }
  TVMFFIAny args[3] = {tether_any_object(l), tether_any_object(r), tether_any_object(*fn)};
  TVMFFIAny res = tether_any_none();
  if (tether__cmp_mark(s, l, 1) != 0) return -1;
  int rc = TVMFFIFunctionCall(hook->v_obj, args, 3, &res);
  tether__cmp_mark(s, l, -1);
  if (rc != 0) return -1;
  bool ok = res.type_index == kTVMFFIBool || res.type_index == kTVMFFIInt;
  int64_t v = res.v_int64;
  tether_any_release(&res);
  if (!ok) {
    return tether_raise("TypeError", "%s of `%s` must return %s", as_bool ? "__ffi_eq__" :
                        "__ffi_compare__", tether_type_key(l->type_index), as_bool ? "a bool" : "an int");
  }
  *out = as_bool ? (v != 0 ? 0 : 1) : (v < 0 ? -1 : v > 0);
  return 0;
}

static int tether__different_types(const TVMFFIAny* l, const TVMFFIAny* r) {
  return tether_raise("TypeError", "Cannot compare values of different types: %s vs %s",
                      tether_any_type_key(l), tether_any_type_key(r));
}

/* Decides a pair at once (-1/0/1 in *out, returns 0), pushes a frame (PUSHED) or fails. */
static int tether__cmp_start(tether_cmp_state* s, const TVMFFIAny* l, const TVMFFIAny* r, int* out) {
  int32_t lt = l->type_index, rt = r->type_index;
  if (lt == kTVMFFINone || rt == kTVMFFINone) {
    *out = (lt == kTVMFFINone) == (rt == kTVMFFINone) ? 0 : lt == kTVMFFINone ? -1 : 1;
    return 0;
  }
  if ((tether__is_str_family(lt) && tether__is_str_family(rt)) ||
      (tether__is_bytes_family(lt) && tether__is_bytes_family(rt))) {
    *out = tether__memncmp(tether__family_chars(l), tether__family_chars(r));
    return 0;
  }
  if ((lt == kTVMFFIBigInt || rt == kTVMFFIBigInt) &&
      (lt == kTVMFFIInt || lt == kTVMFFIBigInt) && (rt == kTVMFFIInt || rt == kTVMFFIBigInt) &&
      (lt == kTVMFFIInt || l->v_obj != NULL) && (rt == kTVMFFIInt || r->v_obj != NULL)) {
    *out = tether__bigint_cmp(l, r); /* integers order by value across representations */
    return 0;
  }
  if (lt != rt) {
    if (s->eq_only) {
      *out = 1;
      return 0;
    }
    tether__different_types(l, r);
    return TETHER_CMP_ERR;
  }
  if (lt < kTVMFFIStaticObjectBegin) {
    switch (lt) {
      case kTVMFFIBool:
        *out = (l->v_int64 != 0) - (r->v_int64 != 0);
        return 0;
      case kTVMFFIInt:
        *out = l->v_int64 < r->v_int64 ? -1 : l->v_int64 > r->v_int64;
        return 0;
      case kTVMFFIFloat: {
        double a = l->v_float64, b = r->v_float64;
        if (isnan(a) || isnan(b)) {
          if (s->eq_only) {
            *out = isnan(a) && isnan(b) ? 0 : 1;
            return 0;
          }
          tether_raise("TypeError", "Cannot order NaN values");
          return TETHER_CMP_ERR;
        }
        *out = a < b ? -1 : a > b;
        return 0;
      }
      case kTVMFFIDataType: {
        DLDataType a = l->v_dtype, b = r->v_dtype;
        *out = a.code != b.code ? (a.code < b.code ? -1 : 1)
               : a.bits != b.bits ? (a.bits < b.bits ? -1 : 1)
               : a.lanes != b.lanes ? (a.lanes < b.lanes ? -1 : 1) : 0;
        return 0;
      }
      case kTVMFFIDevice: {
        DLDevice a = l->v_device, b = r->v_device;
        *out = a.device_type != b.device_type ? (a.device_type < b.device_type ? -1 : 1)
               : a.device_id != b.device_id ? (a.device_id < b.device_id ? -1 : 1) : 0;
        return 0;
      }
      default:
        if (l->zero_padding == r->zero_padding && l->v_int64 == r->v_int64) {
          *out = 0;
          return 0;
        }
        if (s->eq_only) {
          *out = 1;
          return 0;
        }
        tether_raise("TypeError", "Cannot order values of type %s", tether_any_type_key(l));
        return TETHER_CMP_ERR;
    }
  }
  TVMFFIObject* lo = l->v_obj;
  TVMFFIObject* ro = r->v_obj;
  if (lo == ro || lo == NULL || ro == NULL) {
    *out = lo == ro ? 0 : lo == NULL ? -1 : 1;
    return 0;
  }
  if (lt == kTVMFFIShape) {
    const TVMFFIShapeCell* a = TETHER_CELL(TVMFFIShapeCell, lo);
    const TVMFFIShapeCell* b = TETHER_CELL(TVMFFIShapeCell, ro);
    size_t n = a->size < b->size ? a->size : b->size;
    *out = 0;
    for (size_t i = 0; i < n && *out == 0; ++i) *out = a->data[i] < b->data[i] ? -1 : a->data[i] > b->data[i];
    if (*out == 0) *out = a->size < b->size ? -1 : a->size > b->size;
    return 0;
  }
  if (tether__cmp_on_stack(s, lo, ro)) {
    if (s->eq_only) {
      *out = 0;
      return 0;
    }
    tether_raise("ValueError", "RecursiveCompare: cyclic reference detected in ordering");
    return TETHER_CMP_ERR;
  }
  if (lt >= kTVMFFIStaticObjectEnd) {
    if (lo->type_index != ro->type_index) {
      if (s->eq_only) {
        *out = 1;
        return 0;
      }
      tether_raise("TypeError", "Cannot compare objects of different types: %s vs %s",
                   tether_type_key(lo->type_index), tether_type_key(ro->type_index));
      return TETHER_CMP_ERR;
    }
    const TVMFFIAny* eq = s->eq_only ? tether__type_attr("__ffi_eq__", &tether__eq_column, lt) : NULL;
    const TVMFFIAny* cmp = tether__type_attr("__ffi_compare__", &tether__cmp_column, lt);
    if (eq != NULL || cmp != NULL) {
      return tether__cmp_hook(s, eq != NULL ? eq : cmp, lo, ro, eq != NULL, out) != 0 ? TETHER_CMP_ERR : 0;
    }
  }
  /* a frame: containers and reflected objects */
  if ((lt == kTVMFFIMap || lt == kTVMFFIDict) && tether__map_size(lo) != tether__map_size(ro)) {
    if (s->eq_only) {
      *out = 1;
      return 0;
    }
    tether_raise("TypeError", "Cannot order Map/Dict values");
    return TETHER_CMP_ERR;
  }
  tether_rframe* f = tether__rpush(s->stack);
  if (f == NULL) return TETHER_CMP_ERR;
  f->obj = lo;
  f->rhs = ro;
  int64_t cap = 0;
  int rc = 0;
  if (lt == kTVMFFIArray || lt == kTVMFFIList) {
    const TVMFFISeqCell* a = tether__seq_cell(lo);
    const TVMFFISeqCell* b = tether__seq_cell(ro);
    f->kind = TETHER_RF_SEQ;
    f->lhs_size = a->size;
    f->rhs_size = b->size;
    for (int64_t i = 0; i < a->size && i < b->size && rc == 0; ++i) {
      rc = tether__rchild(f, &cap, (const TVMFFIAny*)a->data + i, NULL);
      if (rc == 0) rc = tether__rchild(f, &cap, (const TVMFFIAny*)b->data + i, NULL);
    }
  } else if (lt == kTVMFFIMap || lt == kTVMFFIDict) {
    int64_t pos = 0;
    const TVMFFIAny *k, *v;
    f->kind = TETHER_RF_MAP;
    while (rc == 0 && tether__map_next(lo, &pos, &k, &v)) {
      const TVMFFIAny* rv = tether__map_get(ro, k);
      if (rv == NULL) {
        tether__rpop(s->stack);
        if (s->eq_only) {
          *out = 1;
          return 0;
        }
        tether_raise("TypeError", "Cannot order Map/Dict values");
        return TETHER_CMP_ERR;
      }
      rc = tether__rchild(f, &cap, v, NULL);
      if (rc == 0) rc = tether__rchild(f, &cap, rv, NULL);
    }
  } else {
    const TVMFFITypeInfo* info = tether__type_info_or_null(lo->type_index);
    if (lo->type_index != ro->type_index) {
      tether__rpop(s->stack);
      if (s->eq_only) {
        *out = 1;
        return 0;
      }
      tether_raise("TypeError", "Cannot compare objects of different types: %s vs %s",
                   tether_type_key(lo->type_index), tether_type_key(ro->type_index));
      return TETHER_CMP_ERR;
    }
    f->kind = TETHER_RF_OBJ;
    for (int32_t d = 0; info != NULL && d <= info->type_depth && rc == 0; ++d) {
      const TVMFFITypeInfo* ti = d < info->type_depth ? info->type_ancestors[d] : info;
      for (int32_t i = 0; i < ti->num_fields && rc == 0; ++i) {
        const TVMFFIFieldInfo* field = &ti->fields[i];
        if (field->flags & kTVMFFIFieldFlagBitMaskCompareOff) continue;
        TVMFFIAny a = tether_any_none(), b = tether_any_none();
        rc = field->getter((char*)lo + field->offset, &a);
        if (rc == 0) rc = field->getter((char*)ro + field->offset, &b);
        if (rc == 0) rc = tether__rchild(f, &cap, &a, field);
        if (rc == 0) rc = tether__rchild(f, &cap, &b, field);
        tether_any_release(&a);
        tether_any_release(&b);
      }
    }
  }
  if (rc != 0 || tether__cmp_mark(s, lo, 1) != 0) {
    tether__rpop(s->stack);
    return TETHER_CMP_ERR;
  }
  return TETHER_CMP_PUSHED;
}

static void tether__cmp_pop(tether_cmp_state* s) {
  tether__cmp_mark(s, s->stack->items[s->stack->n - 1].obj, -1);
  tether__rpop(s->stack);
}

static int tether__cmp_run(tether_cmp_state* s, const TVMFFIAny* l, const TVMFFIAny* r, int* out) {
  tether_rstack st = {NULL, 0, 0};
  tether_rstack* outer = s->stack;
  s->stack = &st;
  int res = 0;
  int rc = tether__cmp_start(s, l, r, &res);
  while (rc != TETHER_CMP_ERR && st.n > 0) {
    tether_rframe* f = &st.items[st.n - 1];
    if (rc == 0 && res != 0) {
      /* a difference decides the whole comparison; Map/Dict contents cannot be ordered */
      for (size_t i = 0; i < st.n && !s->eq_only; ++i) {
        if (st.items[i].kind == TETHER_RF_MAP) {
          tether_raise("TypeError", "Cannot order Map/Dict values");
          rc = TETHER_CMP_ERR;
          break;
        }
      }
      break;
    }
    if (f->idx + 1 < f->n) {
      int64_t i = f->idx;
      f->idx += 2;
      rc = tether__cmp_start(s, &f->children[i], &f->children[i + 1], &res);
      continue;
    }
    res = f->kind == TETHER_RF_SEQ ? (f->lhs_size < f->rhs_size ? -1 : f->lhs_size > f->rhs_size) : 0;
    tether__cmp_pop(s);
    rc = 0;
  }
  while (st.n > 0) tether__cmp_pop(s);
  free(st.items);
  s->stack = outer;
  if (rc == TETHER_CMP_ERR) return -1;
  *out = res;
  return 0;
}

static int tether__compare(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool eq_only, int* out) {
  tether_cmp_state s;
  memset(&s, 0, sizeof(s));
  s.eq_only = eq_only;
  int rc = tether__cmp_run(&s, lhs, rhs, out);
  tether__ptrmap_free(&s.on_stack);
  TVMFFIObjectDecRef(s.fn_eq);
  TVMFFIObjectDecRef(s.fn_cmp);
  return rc;
}

int tether_recursive_eq(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool* out) {
  int c;
  if (lhs == NULL || rhs == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_recursive_eq: arguments must not be NULL");
  }
  if (tether__compare(lhs, rhs, true, &c) != 0) return -1;
  *out = c == 0;
  return 0;
}

int tether_recursive_compare(const TVMFFIAny* lhs, const TVMFFIAny* rhs, int* out) {
  if (lhs == NULL || rhs == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_recursive_compare: arguments must not be NULL");
  }
  return tether__compare(lhs, rhs, false, out);
}

/* ==== hashing ============================================================================== */

typedef struct {
  tether_ptrmap memo;     /* object -> finished hash */
  tether_ptrmap on_stack; /* object -> 1 while being hashed */
  TVMFFIObject* fn_hash;
} tether_rhash_state;

static int tether__rhash_run(tether_rhash_state* s, const TVMFFIAny* v, uint64_t* out);

static int tether__rhash_fn(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  uint64_t h;
  if (tether_check_nargs("__ffi_hash__ callback", "(0: Any) -> int", n, 1) != 0 ||
      tether__rhash_run(self, &args[0], &h) != 0) {
    return -1;
  }
  *result = tether_any_int((int64_t)h);
  return 0;
}

/* Hashes at once (returns 0) or asks for a frame (returns 1); -1 on error. */
static int tether__rhash_immediate(tether_rhash_state* s, const TVMFFIAny* v, uint64_t* out) {
  int32_t t = v->type_index;
  if (t == kTVMFFINone) {
    *out = tether__hash_combine(0, 0);
    return 0;
  }
  if (tether__is_str_family(t) || tether__is_bytes_family(t)) {
    TVMFFIByteArray b = tether__family_chars(v);
    *out = tether__hash_combine(tether__is_str_family(t) ? kTVMFFIStr : kTVMFFIBytes,
                                tether__hash_bytes(b.data, b.size));
    return 0;
  }
  if (t < kTVMFFIStaticObjectBegin) {
    uint64_t h;
    switch (t) {
      case kTVMFFIBool:
        *out = tether__hash_combine((uint64_t)t, v->v_int64 != 0);
        return 0;
      case kTVMFFIFloat: {
        double x = v->v_float64;
        TVMFFIAny q = tether_any_float(isnan(x) ? NAN : x == 0.0 ? 0.0 : x);
        *out = tether__hash_combine((uint64_t)t, q.v_uint64);
        return 0;
      }
      case kTVMFFIDataType:
        h = tether__hash_combine((uint64_t)t, v->v_dtype.code);
        h = tether__hash_combine(h, v->v_dtype.bits);
        *out = tether__hash_combine(h, v->v_dtype.lanes);
        return 0;
      case kTVMFFIDevice:
        h = tether__hash_combine((uint64_t)t, (uint64_t)(int64_t)v->v_device.device_type);
        *out = tether__hash_combine(h, (uint64_t)(int64_t)v->v_device.device_id);
        return 0;
      default:
        *out = tether__hash_combine((uint64_t)(int64_t)t, v->v_uint64);
        return 0;
    }
  }
  TVMFFIObject* obj = v->v_obj;
  if (obj == NULL) {
    *out = tether__hash_combine(0, 0);
    return 0;
  }
  uint64_t* memo = tether__ptrmap_find(&s->memo, obj);
  if (memo != NULL) {
    *out = *memo;
    return 0;
  }
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  uint64_t* busy = tether__ptrmap_find(&s->on_stack, obj);
  if (busy != NULL && *busy != 0) {
    *out = info != NULL ? (uint64_t)info->type_key_hash : 0;
    return 0;
  }
  if (t == kTVMFFIShape) {
    const TVMFFIShapeCell* c = TETHER_CELL(TVMFFIShapeCell, obj);
    uint64_t h = tether__hash_combine(info != NULL ? (uint64_t)info->type_key_hash : 0, c->size);
    for (size_t i = 0; i < c->size; ++i) h = tether__hash_combine(h, (uint64_t)c->data[i]);
    *out = h;
    return tether__ptrmap_put(&s->memo, obj, h);
  }
  const TVMFFIAny* hook = tether__type_attr("__ffi_hash__", &tether__hash_column, obj->type_index);
  if (hook != NULL) {
    if (hook->type_index != kTVMFFIFunction) {
      return tether_raise("TypeError", "__ffi_hash__ of `%s` must be an ffi.Function",
                          tether_type_key(obj->type_index));
    }
    if (s->fn_hash == NULL &&
        TVMFFIFunctionCreate(s, tether__rhash_fn, NULL, (TVMFFIObjectHandle*)&s->fn_hash) != 0) {
      return -1;
    }
    TVMFFIAny args[2] = {*v, tether_any_object(s->fn_hash)};
    TVMFFIAny res = tether_any_none();
    if (tether__ptrmap_put(&s->on_stack, obj, 1) != 0) return -1;
    int rc = TVMFFIFunctionCall(hook->v_obj, args, 2, &res);
    *tether__ptrmap_find(&s->on_stack, obj) = 0;
    if (rc != 0) return -1;
    if (res.type_index != kTVMFFIInt) {
      tether_any_release(&res);
      return tether_raise("TypeError", "__ffi_hash__ of `%s` must return an int",
                          tether_type_key(obj->type_index));
    }
    *out = (uint64_t)res.v_int64;
    return tether__ptrmap_put(&s->memo, obj, *out);
  }
  if (t >= kTVMFFIStaticObjectEnd &&
      (tether__type_attr("__ffi_eq__", &tether__eq_column, t) != NULL ||
       tether__type_attr("__ffi_compare__", &tether__cmp_column, t) != NULL)) {
    return tether_raise("ValueError", "RecursiveHash: type '%s' defines __ffi_eq__ or "
                        "__ffi_compare__ but not __ffi_hash__. Add a __ffi_hash__ hook to "
                        "maintain the invariant RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b).",
                        tether_type_key(t));
  }
  return 1;
}

static int tether__u64_cmp(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

static int tether__rhash_push(tether_rhash_state* s, tether_rstack* st, TVMFFIObject* obj) {
  tether_rframe* f = tether__rpush(st);
  if (f == NULL) return -1;
  int64_t cap = 0;
  f->obj = obj;
  if (tether__rlist(f, &cap, obj, kTVMFFIFieldFlagBitMaskHashOff | kTVMFFIFieldFlagBitMaskCompareOff) != 0 ||
      tether__ptrmap_put(&s->on_stack, obj, 1) != 0) {
    tether__rpop(st);
    return -1;
  }
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  uint64_t key_hash = info != NULL ? (uint64_t)info->type_key_hash : 0;
  if (f->kind == TETHER_RF_OBJ) {
    f->hash = key_hash;
  } else {
    f->hash = tether__hash_combine(key_hash, (uint64_t)(f->kind == TETHER_RF_MAP ? f->n / 2 : f->n));
  }
  if (f->kind == TETHER_RF_MAP) {
    f->entries = malloc(sizeof(uint64_t) * (size_t)(f->n / 2 + 1));
    if (f->entries == NULL) {
      tether__rpop(st);
      return tether_raise("MemoryError", "ffi.RecursiveHash: out of memory");
    }
  }
  return 0;
}

static void tether__rhash_feed(tether_rframe* f, uint64_t h) {
  int64_t i = f->idx - 1;
  switch (f->kind) {
    case TETHER_RF_SEQ:
      f->hash = tether__hash_combine(f->hash, tether__hash_combine(h, (uint64_t)i));
      break;
    case TETHER_RF_MAP:
      if (i % 2 == 0) {
        f->key_hash = h;
      } else {
        f->entries[f->num_entries++] = tether__hash_combine(f->key_hash, h);
      }
      break;
    case TETHER_RF_OBJ:
      f->hash = tether__hash_combine(f->hash, h);
      break;
  }
}

static int tether__rhash_run(tether_rhash_state* s, const TVMFFIAny* v, uint64_t* out) {
  tether_rstack st = {NULL, 0, 0};
  int rc = tether__rhash_immediate(s, v, out);
  if (rc == 1) rc = tether__rhash_push(s, &st, v->v_obj);
  while (rc == 0 && st.n > 0) {
    tether_rframe* f = &st.items[st.n - 1];
    if (f->idx < f->n) {
      uint64_t h;
      const TVMFFIAny* child = &f->children[f->idx++];
      rc = tether__rhash_immediate(s, child, &h);
      if (rc == 0) tether__rhash_feed(f, h);
      if (rc == 1) rc = tether__rhash_push(s, &st, child->v_obj);
      continue;
    }
    if (f->kind == TETHER_RF_MAP) {
      qsort(f->entries, (size_t)f->num_entries, sizeof(uint64_t), tether__u64_cmp);
      for (int64_t i = 0; i < f->num_entries; ++i) f->hash = tether__hash_combine(f->hash, f->entries[i]);
    }
    uint64_t h = f->hash;
    TVMFFIObject* obj = f->obj;
    *tether__ptrmap_find(&s->on_stack, obj) = 0;
    rc = tether__ptrmap_put(&s->memo, obj, h);
    tether__rpop(&st);
    if (st.n == 0) {
      *out = h;
    } else {
      tether__rhash_feed(&st.items[st.n - 1], h);
    }
  }
  while (st.n > 0) {
    *tether__ptrmap_find(&s->on_stack, st.items[st.n - 1].obj) = 0;
    tether__rpop(&st);
  }
  free(st.items);
  return rc == 0 ? 0 : -1;
}

int tether_recursive_hash(const TVMFFIAny* value, int64_t* out) {
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_recursive_hash: arguments must not be NULL");
  }
  tether_rhash_state s;
  uint64_t h = 0;
  memset(&s, 0, sizeof(s));
  int rc = tether__rhash_run(&s, value, &h);
  tether__ptrmap_free(&s.memo);
  tether__ptrmap_free(&s.on_stack);
  TVMFFIObjectDecRef(s.fn_hash);
  if (rc == 0) *out = (int64_t)h;
  return rc;
}

/* ==== deep copy ============================================================================ */

/*
 * Mutable containers (List, Dict) and reflected objects are registered in `copies` before
 * their children are copied, so back references resolve to the copy.  Arrays and Maps are
 * built from their copied children when complete; a reference to one still being built is
 * left pointing at the original and fixed up in a last pass over the copies.
 */
typedef struct {
  tether_ptrmap copies;      /* original object -> index into `held` of its copy */
  tether_ptrmap in_progress; /* Array/Map being built -> 1 */
  TVMFFIAny* held;           /* owning copies */
  size_t num_held, cap_held;
  bool deferred;
} tether_copy_state;

static int tether__copy_register(tether_copy_state* s, TVMFFIObject* orig, const TVMFFIAny* copy) {
  if (s->num_held == s->cap_held) {
    size_t cap = s->cap_held ? s->cap_held * 2 : 16;
    TVMFFIAny* h = realloc(s->held, cap * sizeof(*h));
    if (h == NULL) return tether_raise("MemoryError", "ffi.DeepCopy: out of memory");
    s->held = h;
    s->cap_held = cap;
  }
  tether_any_copy(copy, &s->held[s->num_held]);
  return tether__ptrmap_put(&s->copies, orig, (uint64_t)s->num_held++);
}

static const TVMFFIAny* tether__copy_of(tether_copy_state* s, const TVMFFIAny* v) {
  if (v->type_index < kTVMFFIStaticObjectBegin || v->v_obj == NULL) return NULL;
  uint64_t* i = tether__ptrmap_find(&s->copies, v->v_obj);
  return i != NULL ? &s->held[*i] : NULL;
}

/* Resolves a value without a frame (into an owning *out, returns 0) or asks for one (1). */
static int tether__copy_immediate(tether_copy_state* s, const TVMFFIAny* v, TVMFFIAny* out) {
  const TVMFFIAny* done = tether__copy_of(s, v);
  if (v->type_index < kTVMFFIStaticObjectBegin || v->v_obj == NULL) {
    /* a view (RawStr, ByteArrayPtr) becomes an owning value */
    return TVMFFIAnyViewToOwnedAny(v, out) != 0 ? -1 : 0;
  }
  if (done != NULL) {
    tether_any_copy(done, out);
    return 0;
  }
  uint64_t* busy = tether__ptrmap_find(&s->in_progress, v->v_obj);
  if (busy != NULL && *busy != 0) {
    s->deferred = true;
    tether_any_copy(v, out);
    return 0;
  }
  int32_t t = v->type_index;
  if (t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIShape || t == kTVMFFIBigInt ||
      tether_enum_kind_of(t) != TETHER_ENUM_NONE) {
    tether_any_copy(v, out); /* immutable or an enum variant (a singleton): shared */
    return 0;
  }
  return 1;
}

static int tether__copy_push(tether_copy_state* s, tether_rstack* st, TVMFFIObject* obj) {
  tether_rframe* f = tether__rpush(st);
  int32_t t = obj->type_index;
  int64_t cap = 0;
  if (f == NULL) return -1;
  f->obj = obj;
  if (t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict) {
    if (tether__rlist(f, &cap, obj, 0) != 0) goto fail;
  } else {
    const TVMFFIAny* copy_fn = tether__type_attr("__ffi_shallow_copy__", &tether__copy_column, t);
    if (copy_fn == NULL || copy_fn->type_index != kTVMFFIFunction) {
      tether_raise("RuntimeError", "Cannot deep copy object of type \"%s\" because it is not "
                   "copy-constructible", tether_type_key(t));
      goto fail;
    }
    TVMFFIAny arg = tether_any_object(obj);
    if (TVMFFIFunctionCall(copy_fn->v_obj, &arg, 1, &f->copy) != 0) goto fail;
    if (f->copy.type_index < kTVMFFIStaticObjectBegin) {
      tether_raise("TypeError", "__ffi_shallow_copy__ of `%s` returned `%s`", tether_type_key(t),
                   tether_any_type_key(&f->copy));
      goto fail;
    }
    if (tether__rlist(f, &cap, obj, 0) != 0) goto fail;
  }
  if (t == kTVMFFIList) {
    TVMFFIObject* list = NULL;
    if (tether__list_new(NULL, 0, &list) != 0) goto fail;
    f->copy = tether_any_object(list);
  } else if (t == kTVMFFIDict) {
    TVMFFIObject* dict = NULL;
    if (tether__map_new(kTVMFFIDict, f->n / 2, &dict) != 0) goto fail;
    f->copy = tether_any_object(dict);
  } else if (t == kTVMFFIArray || t == kTVMFFIMap) {
    if (tether__ptrmap_put(&s->in_progress, obj, 1) != 0) goto fail;
    if (t == kTVMFFIArray ? tether__array_new_empty(f->n, &f->built) != 0
                          : tether__map_new(kTVMFFIMap, f->n / 2, &f->built) != 0) {
      goto fail;
    }
    return 0;
  }
  if (tether__copy_register(s, obj, &f->copy) != 0) goto fail;
  return 0;
fail:
  tether__rpop(st);
  return -1;
}

/* Stores a resolved child (owning, consumed) into the frame's copy. */
static int tether__copy_feed(tether_rframe* f, TVMFFIAny* v) {
  int32_t t = f->obj->type_index;
  int64_t i = f->idx - 1;
  int rc = 0;
  if (t == kTVMFFIArray) {
    rc = tether__array_push_steal(&f->built, v);
  } else if (t == kTVMFFIList) {
    rc = tether__list_append_steal(f->copy.v_obj, v);
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    if (i % 2 == 0) {
      f->pending_key = *v;
      *v = tether_any_none();
      return 0;
    }
    rc = tether__map_set_steal(t == kTVMFFIMap ? f->built : f->copy.v_obj, &f->pending_key, v);
  } else {
    const TVMFFIAny* orig = &f->children[i];
    if (!(orig->type_index == v->type_index && orig->v_int64 == v->v_int64)) {
      rc = tether_field_set(f->copy.v_obj, f->fields[i], v);
    }
  }
  tether_any_release(v);
  return rc;
}

/* Replaces references to originals that were still being built by their copies. */
static int tether__copy_fixup(tether_copy_state* s) {
  for (size_t h = 0; h < s->num_held; ++h) {
    TVMFFIObject* obj = s->held[h].v_obj;
    int32_t t = obj->type_index;
    if (t == kTVMFFIList) {
      TVMFFISeqCell* c = tether__seq_cell(obj);
      for (int64_t i = 0; i < c->size; ++i) {
        const TVMFFIAny* cp = tether__copy_of(s, (TVMFFIAny*)c->data + i);
        if (cp != NULL && tether__list_set(obj, i, cp) != 0) return -1;
      }
    } else if (t == kTVMFFIDict) {
      int64_t pos = 0;
      const TVMFFIAny *k, *v;
      while (tether__map_next(obj, &pos, &k, &v)) {
        const TVMFFIAny* ck = tether__copy_of(s, k);
        const TVMFFIAny* cv = tether__copy_of(s, v);
        if (ck == NULL && cv == NULL) continue;
        TVMFFIAny nk, nv;
        tether_any_copy(ck != NULL ? ck : k, &nk);
        tether_any_copy(cv != NULL ? cv : v, &nv);
        if (ck != NULL) tether__map_erase(obj, k);
        if (tether__map_set_steal(obj, &nk, &nv) != 0) return -1;
        if (ck != NULL) pos = 0; /* the order changed: start over (fixed keys are copies now) */
      }
    } else if (t >= kTVMFFIStaticObjectEnd) {
      const TVMFFITypeInfo* info = tether__type_info_or_null(t);
      for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
        const TVMFFITypeInfo* ti = d < info->type_depth ? info->type_ancestors[d] : info;
        for (int32_t i = 0; i < ti->num_fields; ++i) {
          TVMFFIAny v = tether_any_none();
          if (ti->fields[i].getter((char*)obj + ti->fields[i].offset, &v) != 0) return -1;
          const TVMFFIAny* cp = tether__copy_of(s, &v);
          int rc = cp != NULL && cp->v_obj != v.v_obj ? tether_field_set(obj, &ti->fields[i], cp) : 0;
          tether_any_release(&v);
          if (rc != 0) return -1;
        }
      }
    }
  }
  return 0;
}

static int tether__copy_run(tether_copy_state* s, const TVMFFIAny* v, TVMFFIAny* out) {
  tether_rstack st = {NULL, 0, 0};
  TVMFFIAny result = tether_any_none();
  int rc = tether__copy_immediate(s, v, &result);
  if (rc == 1) rc = tether__copy_push(s, &st, v->v_obj);
  while (rc == 0 && st.n > 0) {
    tether_rframe* f = &st.items[st.n - 1];
    if (f->idx < f->n) {
      TVMFFIAny r = tether_any_none();
      const TVMFFIAny* child = &f->children[f->idx++];
      rc = tether__copy_immediate(s, child, &r);
      if (rc == 0) rc = tether__copy_feed(f, &r);
      if (rc == 1) rc = tether__copy_push(s, &st, child->v_obj);
      continue;
    }
    TVMFFIAny done = tether_any_none();
    int32_t t = f->obj->type_index;
    if (t == kTVMFFIArray || t == kTVMFFIMap) {
      done = tether_any_object(f->built);
      f->built = NULL;
      *tether__ptrmap_find(&s->in_progress, f->obj) = 0;
      rc = tether__copy_register(s, f->obj, &done);
    } else {
      done = f->copy;
      f->copy = tether_any_none();
    }
    tether__rpop(&st);
    if (rc != 0) {
      tether_any_release(&done);
      break;
    }
    if (st.n == 0) {
      result = done;
    } else {
      rc = tether__copy_feed(&st.items[st.n - 1], &done);
    }
  }
  tether__rstack_free(&st);
  if (rc == 0 && s->deferred) rc = tether__copy_fixup(s);
  if (rc != 0) {
    tether_any_release(&result);
    return -1;
  }
  *out = result;
  return 0;
}

int tether_deep_copy(const TVMFFIAny* value, TVMFFIAny* out) {
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_deep_copy: arguments must not be NULL");
  }
  tether_copy_state s;
  memset(&s, 0, sizeof(s));
  int rc = tether__copy_run(&s, value, out);
  for (size_t i = 0; i < s.num_held; ++i) tether_any_release(&s.held[i]);
  free(s.held);
  tether__ptrmap_free(&s.copies);
  tether__ptrmap_free(&s.in_progress);
  return rc;
}

/* ==== globals ============================================================================== */

/* One row per comparison global: name and the results of cmp < 0, == 0, > 0. */
#define TETHER_RECURSIVE_COMPARISONS(X) \
  X(RecursiveLt, 1, 0, 0)               \
  X(RecursiveLe, 1, 1, 0)               \
  X(RecursiveGt, 0, 0, 1)               \
  X(RecursiveGe, 0, 1, 1)

static int tether__compare_global(const char* fname, const TVMFFIAny* args, int32_t n,
                                  const bool table[3], TVMFFIAny* result) {
  int c;
  if (tether_check_nargs(fname, "(0: Any, 1: Any) -> bool", n, 2) != 0 ||
      tether_recursive_compare(&args[0], &args[1], &c) != 0) {
    return -1;
  }
  *result = tether_any_bool(table[c + 1]);
  return 0;
}

#define TETHER__COMPARE_FN(name, lt, eq, gt)                                                  \
  static int tether__##name(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {    \
    static const bool table[3] = {lt, eq, gt};                                               \
    (void)self;                                                                               \
    return tether__compare_global("ffi." #name, args, n, table, r);                           \
  }
TETHER_RECURSIVE_COMPARISONS(TETHER__COMPARE_FN)
#undef TETHER__COMPARE_FN

static int tether__recursive_eq_global(void* self, const TVMFFIAny* args, int32_t n,
                                       TVMFFIAny* result) {
  bool eq;
  (void)self;
  if (tether_check_nargs("ffi.RecursiveEq", "(0: Any, 1: Any) -> bool", n, 2) != 0 ||
      tether_recursive_eq(&args[0], &args[1], &eq) != 0) {
    return -1;
  }
  *result = tether_any_bool(eq);
  return 0;
}

static int tether__recursive_hash_global(void* self, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  int64_t h;
  (void)self;
  if (tether_check_nargs("ffi.RecursiveHash", "(0: Any) -> int", n, 1) != 0 ||
      tether_recursive_hash(&args[0], &h) != 0) {
    return -1;
  }
  *result = tether_any_int(h);
  return 0;
}

static int tether__deep_copy_global(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  (void)self;
  if (tether_check_nargs("ffi.DeepCopy", "(0: Any) -> Any", n, 1) != 0) return -1;
  return tether_deep_copy(&args[0], result);
}

int tether__recursive_init(void) {
  static const tether_extra_global_t globals[] = {
      {"ffi.RecursiveEq", tether__recursive_eq_global},
#define TETHER__COMPARE_ROW(name, lt, eq, gt) {"ffi." #name, tether__##name},
      TETHER_RECURSIVE_COMPARISONS(TETHER__COMPARE_ROW)
#undef TETHER__COMPARE_ROW
      {"ffi.RecursiveHash", tether__recursive_hash_global},
      {"ffi.DeepCopy", tether__deep_copy_global},
  };
  return tether__extra_globals_register(globals, sizeof(globals) / sizeof(globals[0]));
}

void tether__recursive_fini(void) {
  tether__eq_column = tether__cmp_column = tether__hash_column = tether__copy_column = NULL;
}
