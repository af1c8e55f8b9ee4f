/*
 * mutate.c -- the structural mutator protocol of tvm-ffi's extra layer:
 *   - the type ffi.StructuralMutator and its ffi.StructuralMutator* methods;
 *   - the `__s_mutate__` / `__s_maybe_inplace_mutate__` hooks of String/Bytes (leaves) and
 *     Array/List/Map/Dict (copy-on-write, or in place when uniquely owned; Map/Dict
 *     values only, keys are anchors);
 *   - the default mutation (hook, else a POD as itself, else the variable remap and the
 *     reflected fields on a shallow copy);
 *   - the engines behind ffi.StructuralMap (pre/post-order callbacks rewrite nodes) and
 *     ffi.StructuralMutate (callbacks own the descent of what they match).
 *
 * Mutation results follow the raw ABI of <tether/structural.h>: an Unchanged marker, a
 * replacement value, or an Error, always owning.
 */
#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "internal.h"
#include "array.h"
#include "dataclass.h"
#include "error.h"
#include "list.h"
#include "map.h"
#include "object.h"
#include "ptrmap.h"
#include "type.h"
#include "visit.h"

static int32_t tether__mutator_index = -1;

/* ---- container hooks ---------------------------------------------------------------------- */

TVMFFIAny tether_mutator_mutate(tether_mutator* mutator, TVMFFIAny value, bool allow_inplace) {
  if (allow_inplace && value.type_index >= kTVMFFIStaticObjectBegin && value.v_obj != NULL &&
      tether_object_use_count(value.v_obj) == 1) {
    return mutator->vtable->maybe_inplace_mutate(mutator, value);
  }
  return mutator->vtable->mutate(mutator, value);
}

static TVMFFIAny tether__mutate_leaf_hook(tether_mutator* mutator, TVMFFIAny value) {
  (void)mutator;
  (void)value;
  return tether__unchanged();
}

/* Copy-on-write: the first changed element starts a copy of the sequence (same type), in
 * which changed elements are then replaced. */
static TVMFFIAny tether__mutate_seq_hook(tether_mutator* mutator, TVMFFIAny value) {
  TVMFFIObject* src = value.v_obj;
  TVMFFIObject* out = NULL;
  const TVMFFISeqCell* cell = tether__seq_cell(src);
  int64_t n = cell->size;
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* item = (const TVMFFIAny*)cell->data + i;
    TVMFFIAny r = tether_mutator_mutate(mutator, *item, false);
    if (r.type_index == kTVMFFIError) {
      TVMFFIObjectDecRef(out);
      return r;
    }
    if (r.type_index == kTVMFFIUnchanged || tether__same_as(&r, item)) {
      tether_any_release(&r); /* the copy (if any) already holds the item */
      continue;
    }
    if (out == NULL) {
      int rc = src->type_index == kTVMFFIList ? tether__list_new((const TVMFFIAny*)cell->data, n, &out)
                                              : tether__array_new((const TVMFFIAny*)cell->data, n, &out);
      if (rc != 0) {
        tether_any_release(&r);
        return tether__error_any_from_raised();
      }
    }
    TVMFFIAny* slot = &((TVMFFIAny*)tether__seq_cell(out)->data)[i];
    tether_any_release(slot);
    *slot = r;
  }
  return out == NULL ? tether__unchanged() : tether_any_object(out);
}

/* In place: the sequence is uniquely owned, and so may be each element along the way. */
static TVMFFIAny tether__inplace_seq_hook(tether_mutator* mutator, TVMFFIAny value) {
  TVMFFISeqCell* cell = tether__seq_cell(value.v_obj);
  for (int64_t i = 0; i < cell->size; ++i) {
    TVMFFIAny* item = (TVMFFIAny*)cell->data + i;
    TVMFFIAny r = tether_mutator_mutate(mutator, *item, true);
    if (r.type_index == kTVMFFIError) return r;
    if (r.type_index == kTVMFFIUnchanged || tether__same_as(&r, item) || i >= cell->size) {
      tether_any_release(&r);
      continue;
    }
    item = (TVMFFIAny*)cell->data + i;
    TVMFFIAny old = *item;
    *item = r;
    tether_any_release(&old);
  }
  return tether__unchanged();
}

/* The key/value pairs of `map` as owning copies, in iteration order; NULL on failure. */
static TVMFFIAny* tether__map_pairs(const TVMFFIObject* map, int64_t n) {
  TVMFFIAny* kvs = calloc(2 * (size_t)(n > 0 ? n : 1), sizeof(TVMFFIAny));
  if (kvs == NULL) {
    tether_raise("MemoryError", "__s_mutate__: out of memory copying a map");
    return NULL;
  }
  int64_t pos = 0, i = 0;
  const TVMFFIAny *k, *v;
  while (i < n && tether__map_next(map, &pos, &k, &v)) {
    tether_any_copy(k, &kvs[2 * i]);
    tether_any_copy(v, &kvs[2 * i + 1]);
    ++i;
  }
  return kvs;
}

/*
 * Map values (keys are anchors, never mutated).  In place, a changed value is stored into
 * its entry.  Copy-on-write, the first change copies the pairs; the copy is laid out as the
 * source is (libtether's layout, or tvm-ffi's C++ small layout for a map C++ code built),
 * so whoever made the map can read the result.
 */
static TVMFFIAny tether__mutate_map_values(tether_mutator* mutator, TVMFFIAny value,
                                           bool inplace) {
  TVMFFIObject* src = value.v_obj;
  int64_t n = tether__map_size(src), pos = 0, index = 0;
  TVMFFIAny* kvs = NULL;
  TVMFFIObject* out = NULL;
  const TVMFFIAny *key, *v;
  TVMFFIAny result = tether__unchanged();
  for (; tether__map_next(src, &pos, &key, &v); ++index) {
    TVMFFIAny r = tether_mutator_mutate(mutator, *v, inplace);
    if (r.type_index == kTVMFFIError) {
      result = r;
      goto done;
    }
    if (r.type_index == kTVMFFIUnchanged || tether__same_as(&r, v)) {
      tether_any_release(&r);
      continue;
    }
    if (inplace) {
      TVMFFIAny* slot = (TVMFFIAny*)v; /* the map is uniquely owned: change its entry */
      TVMFFIAny old = *slot;
      *slot = r;
      tether_any_release(&old);
      continue;
    }
    if (kvs == NULL && (index >= n || (kvs = tether__map_pairs(src, n)) == NULL)) {
      tether_any_release(&r);
      result = tether__error_any_from_raised();
      goto done;
    }
    tether_any_release(&kvs[2 * index + 1]);
    kvs[2 * index + 1] = r;
  }
  if (kvs != NULL) {
    int rc = tether__map_native(src) ? tether__map_new_from_pairs(src->type_index, kvs, n, &out)
                                     : tether__map_new_cxx(src->type_index, kvs, n, &out);
    result = rc == 0 ? tether_any_object(out) : tether__error_any_from_raised();
  }
done:
  for (int64_t i = 0; kvs != NULL && i < 2 * n; ++i) tether_any_release(&kvs[i]);
  free(kvs);
  return result;
}

static TVMFFIAny tether__mutate_map_hook(tether_mutator* mutator, TVMFFIAny value) {
  return tether__mutate_map_values(mutator, value, false);
}

static TVMFFIAny tether__inplace_map_hook(tether_mutator* mutator, TVMFFIAny value) {
  return tether__mutate_map_values(mutator, value, true);
}


/* ---- default mutation --------------------------------------------------------------------- */

static const TVMFFITypeAttrColumn* _Atomic tether__s_mutate_column;
static const TVMFFITypeAttrColumn* _Atomic tether__s_inplace_column;
static const TVMFFITypeAttrColumn* _Atomic tether__shallow_copy_column;

/* Calls a Function hook or callback; its packed result is the raw mutate result. */
static TVMFFIAny tether__mutate_call(TVMFFIObject* fn, TVMFFIAny* args, int32_t n) {
  TVMFFIAny out = tether_any_none();
  if (TVMFFIFunctionCall(fn, args, n, &out) != 0) return tether__error_any_from_raised();
  return out;
}

static const char* tether__mutator_name(const tether_mutator* m);

/* Mutates one field value of the copy under the field's def region. */
static TVMFFIAny tether__mutate_field(tether_mutator* m, const TVMFFIFieldInfo* f, TVMFFIAny v) {
  int32_t region = -1;
  if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) region = kTVMFFIDefRegionKindSimple;
  else if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) region = kTVMFFIDefRegionKindPattern;
  int32_t saved = m->def_region_kind;
  if (region >= 0 && saved != kTVMFFIDefRegionKindPattern) m->def_region_kind = region;
  TVMFFIAny r = tether_mutator_mutate(m, v, false);
  m->def_region_kind = saved;
  return r;
}

/* The reflected fields of `value` mutated on a shallow copy: the copy, or Unchanged. */
static TVMFFIAny tether__mutate_fields(tether_mutator* m, TVMFFIAny value) {
  TVMFFIObject* obj = value.v_obj;
  const TVMFFIAny* copy_fn = tether__type_attr("__ffi_shallow_copy__", &tether__shallow_copy_column,
                                               obj->type_index);
  if (copy_fn == NULL || copy_fn->type_index != kTVMFFIFunction) {
    return tether__error_any("TypeError", "%s: __ffi_shallow_copy__ must be an ffi.Function "
                             "(type `%s` has none)", tether__mutator_name(m),
                             tether_type_key(obj->type_index));
  }
  TVMFFIAny arg = value;
  TVMFFIAny copy = tether__mutate_call(copy_fn->v_obj, &arg, 1);
  if (copy.type_index == kTVMFFIError) return copy;
  if (copy.type_index != value.type_index || copy.v_obj == obj) {
    tether_any_release(&copy);
    return tether__error_any("TypeError", "Shallow copy callback must return a distinct object "
                             "with the same type as its input");
  }
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  int32_t saved = m->def_region_kind;
  if (saved == kTVMFFIDefRegionKindSimple && info->metadata != NULL &&
      info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar) {
    m->def_region_kind = kTVMFFIDefRegionKindNone;
  }
  TVMFFIAny result = tether__unchanged();
  for (int32_t d = 0; d <= info->type_depth && result.type_index != kTVMFFIError; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields && result.type_index != kTVMFFIError; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      TVMFFIAny v = tether_any_none();
      void* addr = (char*)copy.v_obj + f->offset;
      if (f->getter(addr, &v) != 0) {
        result = tether__error_any_from_raised();
        break;
      }
      TVMFFIAny r = tether__mutate_field(m, f, v);
      if (r.type_index == kTVMFFIError) {
        result = r;
      } else if (r.type_index != kTVMFFIUnchanged && !tether__same_as(&r, &v)) {
        if (f->setter == NULL) {
          result = tether__error_any("TypeError", "Cannot structurally mutate field `%.*s` of "
                                     "type `%s` because it does not define a setter",
                                     (int)f->name.size, f->name.data, tether_type_key(obj->type_index));
        } else if (tether_field_set(copy.v_obj, f, &r) != 0) {
          result = tether__error_any_from_raised();
        } else {
          result = tether_any_none(); /* changed */
        }
      }
      tether_any_release(&r);
      tether_any_release(&v);
    }
  }
  m->def_region_kind = saved;
  if (result.type_index == kTVMFFIError || result.type_index == kTVMFFIUnchanged) {
    tether_any_release(&copy);
    return result;
  }
  return copy;
}

/* Runs a mutate hook entry (a native pointer or a Function) into *r; false for neither. */
static bool tether__run_mutate_hook(const TVMFFIAny* hook, tether_mutator* m, TVMFFIAny value,
                                    TVMFFIAny* r) {
  if (hook != NULL && hook->type_index == kTVMFFIOpaquePtr) {
    *r = ((tether_mutate_fn)hook->v_ptr)(m, value);
    return true;
  }
  if (hook != NULL && hook->type_index == kTVMFFIFunction) {
    TVMFFIAny args[2] = {tether_any_object(m), value};
    *r = tether__mutate_call(hook->v_obj, args, 2);
    return true;
  }
  return false;
}

static TVMFFIAny tether__default_mutate(tether_mutator* m, TVMFFIAny value) {
  const TVMFFIAny* hook = tether__type_attr("__s_mutate__", &tether__s_mutate_column, value.type_index);
  TVMFFIAny r;
  if (tether__run_mutate_hook(hook, m, value, &r)) {
    /* the hook's result */
  } else if (hook != NULL) {
    r = tether__error_any("TypeError", "__s_mutate__ must be a direct hook pointer or ffi.Function");
  } else if (value.type_index < kTVMFFIStaticObjectBegin || value.v_obj == NULL) {
    if (TVMFFIAnyViewToOwnedAny(&value, &r) != 0) r = tether__error_any_from_raised();
  } else {
    const TVMFFITypeInfo* info = tether__type_info_or_null(value.v_obj->type_index);
    int32_t kind = info != NULL && info->metadata != NULL ? info->metadata->structural_eq_hash_kind
                                                          : kTVMFFISEqHashKindUnsupported;
    bool var = kind == kTVMFFISEqHashKindFreeVar, dag = kind == kTVMFFISEqHashKindDAGNode;
    if (var || dag) {
      TVMFFIAny mapped = m->vtable->var_remap_get(m, value);
      if (mapped.type_index != kTVMFFINone) {
        r = mapped;
        goto done;
      }
    }
    if (var && m->def_region_kind == kTVMFFIDefRegionKindNone) return tether__unchanged();
    r = tether__mutate_fields(m, value);
    if (r.type_index != kTVMFFIError && (var || dag) &&
        (dag || m->def_region_kind == kTVMFFIDefRegionKindPattern || r.type_index != kTVMFFIUnchanged)) {
      TVMFFIAny set = m->vtable->var_remap_set(m, value, r);
      if (set.type_index == kTVMFFIError) {
        tether_any_release(&r);
        r = set;
      } else {
        tether_any_release(&set);
      }
    }
  }
done:
  if (r.type_index == kTVMFFIError) tether__visit_error_context_push(&r, value);
  return r;
}

static TVMFFIAny tether__default_inplace(tether_mutator* m, TVMFFIAny value) {
  const TVMFFIAny* hook = tether__type_attr("__s_maybe_inplace_mutate__", &tether__s_inplace_column,
                                            value.type_index);
  TVMFFIAny r;
  if (!tether__run_mutate_hook(hook, m, value, &r)) return tether__default_mutate(m, value);
  if (r.type_index == kTVMFFIError) tether__visit_error_context_push(&r, value);
  return r;
}

TVMFFIAny tether_mutator_default_mutate(tether_mutator* mutator, TVMFFIAny value,
                                        bool allow_inplace) {
  return allow_inplace ? tether__default_inplace(mutator, value)
                       : tether__default_mutate(mutator, value);
}

/* ---- engines behind ffi.StructuralMap / ffi.StructuralMutate ------------------------------ */

typedef enum { TETHER_MAP_PRE, TETHER_MAP_POST, TETHER_MUTATE } tether_mut_engine_kind;

typedef struct {
  tether_mutator base;
  tether_mut_engine_kind kind;
  TVMFFIObject* callbacks;      /* owned Array of (type_index, Function[, bool]) */
  TVMFFIObject* callbacks_kind; /* StructuralMap: callbacks that also take the region kind */
  tether_ptrmap remap;          /* object -> index into `remap_values` */
  TVMFFIAny* remap_values;      /* owning */
  TVMFFIObject** remap_keys;    /* owned references on the keys */
  size_t num_remap, cap_remap;
} tether_dyn_mutator;

static TVMFFIAny tether__dyn_remap_get(tether_mutator* m, TVMFFIAny var) {
  tether_dyn_mutator* self = (tether_dyn_mutator*)m;
  if (var.type_index < kTVMFFIStaticObjectBegin || var.v_obj == NULL) {
    return tether__error_any("TypeError", "Variable-remap key must be an object-backed value");
  }
  uint64_t* i = tether__ptrmap_find(&self->remap, var.v_obj);
  TVMFFIAny out = tether_any_none();
  if (i != NULL) tether_any_copy(&self->remap_values[*i], &out);
  return out;
}

static TVMFFIAny tether__dyn_remap_set(tether_mutator* m, TVMFFIAny var, TVMFFIAny mapped) {
  tether_dyn_mutator* self = (tether_dyn_mutator*)m;
  if (var.type_index < kTVMFFIStaticObjectBegin || var.v_obj == NULL) {
    return tether__error_any("TypeError", "Variable-remap key must be an object-backed value");
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(&mapped, &owned) != 0) return tether__error_any_from_raised();
  uint64_t* i = tether__ptrmap_find(&self->remap, var.v_obj);
  if (i != NULL) {
    tether_any_release(&self->remap_values[*i]);
    self->remap_values[*i] = owned;
    return tether_any_none();
  }
  if (self->num_remap == self->cap_remap) {
    size_t cap = self->cap_remap ? self->cap_remap * 2 : 16;
    TVMFFIAny* vals = realloc(self->remap_values, cap * sizeof(*vals));
    if (vals != NULL) self->remap_values = vals;
    TVMFFIObject** keys = realloc(self->remap_keys, cap * sizeof(*keys));
    if (keys != NULL) self->remap_keys = keys;
    if (vals == NULL || keys == NULL) {
      tether_any_release(&owned);
      return tether__error_any("MemoryError", "structural mutate: out of memory");
    }
    self->cap_remap = cap;
  }
  if (tether__ptrmap_put(&self->remap, var.v_obj, self->num_remap) != 0) {
    tether_any_release(&owned);
    return tether__error_any_from_raised();
  }
  TVMFFIObjectIncRef(var.v_obj);
  self->remap_keys[self->num_remap] = var.v_obj;
  self->remap_values[self->num_remap++] = owned;
  return tether_any_none();
}

static bool tether__is_text(int32_t type_index) {
  return type_index == kTVMFFIStr || type_index == kTVMFFISmallStr ||
         type_index == kTVMFFIBytes || type_index == kTVMFFISmallBytes;
}

/* StructuralMap: runs the first matching callback on `value`; false when none matches. */
static bool tether__map_link(tether_dyn_mutator* self, TVMFFIAny value, TVMFFIAny* out) {
  TVMFFIObject* entry = tether__find_callback(self->callbacks, value.type_index);
  int32_t nargs = 1;
  if (entry == NULL) {
    entry = tether__find_callback(self->callbacks_kind, value.type_index);
    nargs = 2;
  }
  if (entry == NULL) return false;
  TVMFFIAny args[2] = {value, tether_any_int(self->base.def_region_kind)};
  *out = tether__mutate_call(tether__callback_fn(entry), args, nargs);
  if (out->type_index == kTVMFFIError) tether__visit_error_context_push(out, value);
  /* Strings and bytes are values: a callback that hands back equal contents (a binding may
   * not give back the very object it received) left the value unchanged. */
  if (tether__is_text(value.type_index) && tether__is_text(out->type_index) &&
      tether_any_equal(&value, out)) {
    tether_any_release(out);
    *out = tether__unchanged();
  }
  return true;
}

static TVMFFIAny tether__dyn_mutate_impl(tether_mutator* m, TVMFFIAny value, bool inplace) {
  tether_dyn_mutator* self = (tether_dyn_mutator*)m;
  TVMFFIAny out, cb;
  if (self->kind == TETHER_MUTATE) {
    TVMFFIObject* entry = tether__find_callback(self->callbacks, value.type_index);
    if (entry == NULL) return tether_mutator_default_mutate(m, value, inplace);
    const TVMFFIAny* with_mode = tether__array_get(entry, 2);
    bool pass_mode = with_mode != NULL && with_mode->v_int64 != 0;
    TVMFFIAny args[3] = {value, tether_any_object(m), tether_any_int(inplace ? 1 : 0)};
    out = tether__mutate_call(tether__callback_fn(entry), args, pass_mode ? 3 : 2);
    if (out.type_index == kTVMFFIError) tether__visit_error_context_push(&out, value);
    return out;
  }
  if (self->kind == TETHER_MAP_POST) {
    out = tether_mutator_default_mutate(m, value, inplace);
    if (out.type_index == kTVMFFIError) return out;
    TVMFFIAny mapped = out.type_index == kTVMFFIUnchanged ? value : out;
    if (tether__map_link(self, mapped, &cb)) {
      if (cb.type_index == kTVMFFIError || cb.type_index != kTVMFFIUnchanged) {
        tether_any_release(&out);
        return cb;
      }
    }
    return out;
  }
  /* pre-order: the callback rewrites the node, then descent runs over what it made */
  if (!tether__map_link(self, value, &cb)) return tether_mutator_default_mutate(m, value, inplace);
  if (cb.type_index == kTVMFFIError) return cb;
  TVMFFIAny view = cb.type_index == kTVMFFIUnchanged ? value : cb;
  bool allow = inplace;
  if (inplace && !tether__same_as(&view, &value)) {
    allow = view.type_index >= kTVMFFIStaticObjectBegin && view.v_obj != NULL &&
            tether_object_use_count(view.v_obj) == 1;
  }
  out = tether_mutator_default_mutate(m, view, allow);
  if (out.type_index == kTVMFFIError) {
    tether_any_release(&cb);
    return out;
  }
  if (out.type_index == kTVMFFIUnchanged) return cb;
  tether_any_release(&cb);
  return out;
}

static TVMFFIAny tether__dyn_mutate(tether_mutator* m, TVMFFIAny value) {
  return tether__dyn_mutate_impl(m, value, false);
}

static TVMFFIAny tether__dyn_inplace(tether_mutator* m, TVMFFIAny value) {
  return tether__dyn_mutate_impl(m, value, true);
}

static const tether_mutator_vtable tether__dyn_mutator_vtable = {
    tether__dyn_mutate, tether__dyn_inplace, tether__dyn_remap_get, tether__dyn_remap_set};

/* The global a mutator runs for (error messages name it). */
static const char* tether__mutator_name(const tether_mutator* m) {
  if (m->vtable != &tether__dyn_mutator_vtable) return "structural mutate";
  return ((const tether_dyn_mutator*)m)->kind == TETHER_MUTATE ? "ffi.StructuralMutate"
                                                               : "ffi.StructuralMap";
}

static void tether__dyn_mutator_deleter(void* obj, int flags) {
  tether_dyn_mutator* self = obj;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIObjectDecRef(self->callbacks);
    TVMFFIObjectDecRef(self->callbacks_kind);
    for (size_t i = 0; i < self->num_remap; ++i) {
      tether_any_release(&self->remap_values[i]);
      TVMFFIObjectDecRef(self->remap_keys[i]);
    }
    free(self->remap_values);
    free(self->remap_keys);
    tether__ptrmap_free(&self->remap);
    self->callbacks = self->callbacks_kind = NULL;
    self->num_remap = 0;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(obj);
}

/* Runs an engine over an owned copy of the root (so the caller's reference keeps the root
 * from being changed in place); Unchanged gives the root back. */
static int tether__run_mutator(TVMFFIAny root_view, TVMFFIObject* callbacks,
                               TVMFFIObject* callbacks_kind, tether_mut_engine_kind kind,
                               TVMFFIAny* result) {
  TVMFFIAny root;
  if (TVMFFIAnyViewToOwnedAny(&root_view, &root) != 0) {
    return tether__error_add_context(kind == TETHER_MUTATE ? "ffi.StructuralMutate" : "ffi.StructuralMap");
  }
  tether_dyn_mutator* self = tether__object_alloc(sizeof(*self), tether__mutator_index,
                                                  tether__dyn_mutator_deleter);
  if (self == NULL) {
    tether_any_release(&root);
    return -1;
  }
  memset((char*)self + sizeof(TVMFFIObject), 0, sizeof(*self) - sizeof(TVMFFIObject));
  self->base.vtable = &tether__dyn_mutator_vtable;
  self->base.def_region_kind = kTVMFFIDefRegionKindNone;
  self->kind = kind;
  TVMFFIObjectIncRef(callbacks);
  self->callbacks = callbacks;
  if (callbacks_kind != NULL) TVMFFIObjectIncRef(callbacks_kind);
  self->callbacks_kind = callbacks_kind;
  TVMFFIAny r = tether_mutator_mutate(&self->base, root, true);
  TVMFFIObjectDecRef(self);
  if (r.type_index == kTVMFFIError) {
    tether_any_release(&root);
    return tether__raise_error_any(&r);
  }
  if (r.type_index == kTVMFFIUnchanged) {
    *result = root;
  } else {
    tether_any_release(&root);
    *result = r;
  }
  return 0;
}

static int tether__structural_map_global(void* s, const TVMFFIAny* args, int32_t n,
                                         TVMFFIAny* result) {
  static const char fname[] = "ffi.StructuralMap";
  TVMFFIObject *callbacks, *callbacks_kind;
  int64_t order;
  (void)s;
  if (tether_check_nargs(fname, "(0: Any, 1: Array, 2: Array, 3: int) -> Any", n, 4) != 0 ||
      tether__arg_callbacks(fname, args, 1, &callbacks) != 0 ||
      tether__arg_callbacks(fname, args, 2, &callbacks_kind) != 0 ||
      tether_arg_int(fname, args, 3, &order) != 0) {
    return -1;
  }
  if (order != 0 && order != 1) {
    return tether_raise("ValueError", "%s: argument 3 (order) must be 0 (pre-order) or 1 "
                        "(post-order), got %lld", fname, (long long)order);
  }
  return tether__run_mutator(args[0], callbacks, callbacks_kind,
                             order == 0 ? TETHER_MAP_PRE : TETHER_MAP_POST, result);
}

static int tether__structural_mutate_global(void* s, const TVMFFIAny* args, int32_t n,
                                            TVMFFIAny* result) {
  static const char fname[] = "ffi.StructuralMutate";
  TVMFFIObject* callbacks;
  (void)s;
  if (tether_check_nargs(fname, "(0: Any, 1: Array) -> Any", n, 2) != 0 ||
      tether__arg_callbacks(fname, args, 1, &callbacks) != 0) {
    return -1;
  }
  return tether__run_mutator(args[0], callbacks, NULL, TETHER_MUTATE, result);
}

/* ---- mutator methods ---------------------------------------------------------------------- */

/* Converts a raw mutate result for a packed caller: Unchanged -> the original value. */
static int tether__mutate_packed_result(TVMFFIAny r, const TVMFFIAny* original, TVMFFIAny* result) {
  if (r.type_index == kTVMFFIUnchanged) return TVMFFIAnyViewToOwnedAny(original, result);
  return tether__raw_result(r, result);
}

/* The mutator methods (self, value[, mapped]): one row each. */
typedef enum { TETHER_M_MUTATE, TETHER_M_DEFAULT, TETHER_M_REMAP_GET, TETHER_M_REMAP_SET } tether_m_op;

static int tether__mutator_method(const char* fname, tether_m_op op, const TVMFFIAny* args,
                                  int32_t n, TVMFFIAny* result) {
  TVMFFIObject* m;
  int32_t nargs = op == TETHER_M_REMAP_SET ? 3 : 2;
  if (tether__method_self(fname, nargs == 3 ? "(0: StructuralMutator, 1: Any, 2: Any) -> None"
                                            : "(0: StructuralMutator, 1: Any) -> Any",
                          args, n, nargs, tether__mutator_index, &m) != 0) {
    return -1;
  }
  tether_mutator* mutator = (tether_mutator*)m;
  switch (op) {
    case TETHER_M_MUTATE:
      return tether__mutate_packed_result(mutator->vtable->mutate(mutator, args[1]), &args[1], result);
    case TETHER_M_DEFAULT:
      return tether__mutate_packed_result(tether__default_mutate(mutator, args[1]), &args[1], result);
    case TETHER_M_REMAP_GET:
      return tether__raw_result(mutator->vtable->var_remap_get(mutator, args[1]), result);
    default: {
      TVMFFIAny r = mutator->vtable->var_remap_set(mutator, args[1], args[2]);
      if (tether__raw_result(r, result) != 0) return -1;
      tether_any_release(result); /* returns None */
      return 0;
    }
  }
}

#define TETHER_MUTATOR_METHODS(X)                                    \
  X(mutator_mutate, "ffi.StructuralMutatorMutate", TETHER_M_MUTATE)  \
  X(mutator_default_mutate, "ffi.StructuralMutatorDefaultMutate", TETHER_M_DEFAULT) \
  X(mutator_remap_get, "ffi.StructuralMutatorVarRemapGet", TETHER_M_REMAP_GET) \
  X(mutator_remap_set, "ffi.StructuralMutatorVarRemapSet", TETHER_M_REMAP_SET)

#define TETHER__MUTATOR_METHOD_FN(id, name, op)                                                \
  static int tether__##id##_global(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) { \
    (void)s;                                                                                   \
    return tether__mutator_method(name, op, args, n, r);                                       \
  }
TETHER_MUTATOR_METHODS(TETHER__MUTATOR_METHOD_FN)
#undef TETHER__MUTATOR_METHOD_FN

static int tether__mutator_region_global(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)s;
  return tether__def_region_kind("ffi.StructuralMutatorDefRegionKind", tether__mutator_index,
                                 args, n, r);
}

static int tether__mutator_with_region_global(void* s, const TVMFFIAny* args, int32_t n,
                                              TVMFFIAny* r) {
  (void)s;
  return tether__with_def_region_kind("ffi.StructuralMutatorWithDefRegionKind",
                                      tether__mutator_index, args, n, r);
}

/* ---- subsystem ---------------------------------------------------------------------------- */

/* The native hooks, one row per (type, column). */
static const struct {
  int32_t type_index;
  const char* column;
  tether_mutate_fn fn;
} tether__mutate_hooks[] = {
    {kTVMFFIBigInt, "__s_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIBigInt, "__s_maybe_inplace_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIStr, "__s_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIStr, "__s_maybe_inplace_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIBytes, "__s_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIBytes, "__s_maybe_inplace_mutate__", tether__mutate_leaf_hook},
    {kTVMFFIArray, "__s_mutate__", tether__mutate_seq_hook},
    {kTVMFFIArray, "__s_maybe_inplace_mutate__", tether__inplace_seq_hook},
    {kTVMFFIList, "__s_mutate__", tether__mutate_seq_hook},
    {kTVMFFIList, "__s_maybe_inplace_mutate__", tether__inplace_seq_hook},
    {kTVMFFIMap, "__s_mutate__", tether__mutate_map_hook},
    {kTVMFFIMap, "__s_maybe_inplace_mutate__", tether__inplace_map_hook},
    {kTVMFFIDict, "__s_mutate__", tether__mutate_map_hook},
    {kTVMFFIDict, "__s_maybe_inplace_mutate__", tether__inplace_map_hook},
};

int tether__mutate_init(void) {
  const tether_extra_type_t type = {"ffi.StructuralMutator", -1, sizeof(tether_mutator),
                                    kTVMFFISEqHashKindUnsupported, false, false, NULL, 0};
  if (tether__extra_type_register(&type, &tether__mutator_index) != 0) return -1;
  for (size_t i = 0; i < sizeof(tether__mutate_hooks) / sizeof(tether__mutate_hooks[0]); ++i) {
    if (tether__type_attr_def_ptr(tether__mutate_hooks[i].type_index, tether__mutate_hooks[i].column,
                                  (void*)tether__mutate_hooks[i].fn) != 0) {
      return -1;
    }
  }
  static const tether_extra_global_t globals[] = {
      {"ffi.StructuralMap", tether__structural_map_global, true},
      {"ffi.StructuralMutate", tether__structural_mutate_global, true},
#define TETHER__MUTATOR_METHOD_ROW(id, name, op) {name, tether__##id##_global, true},
      TETHER_MUTATOR_METHODS(TETHER__MUTATOR_METHOD_ROW)
#undef TETHER__MUTATOR_METHOD_ROW
      {"ffi.StructuralMutatorDefRegionKind", tether__mutator_region_global, true},
      {"ffi.StructuralMutatorWithDefRegionKind", tether__mutator_with_region_global, true},
  };
  return tether__extra_globals_register(globals, sizeof(globals) / sizeof(globals[0]));
}

void tether__mutate_fini(void) {
  tether__s_mutate_column = tether__s_inplace_column = tether__shallow_copy_column = NULL;
}
