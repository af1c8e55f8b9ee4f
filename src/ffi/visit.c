/*
 * visit.c -- the structural visitor protocol of tvm-ffi's extra layer:
 *   - the types ffi.VisitInterrupt (a stop signal with a payload), ffi.StructuralVisitor
 *     and ffi.VisitErrorContext (the breadcrumb trail an error collects on its way out of
 *     a traversal, visits and mutations alike);
 *   - the `__s_visit__` hooks of Array/List/Map/Dict;
 *   - the default descent (hook, else reflected fields with def regions);
 *   - the globals ffi.VisitInterrupt, ffi.StructuralVisit, ffi.StructuralWalk and the
 *     ffi.StructuralVisitor* methods;
 *   - the helpers mutate.c shares (callback tables, def-region methods).
 *
 * Hooks follow the raw ABI of <tether/structural.h>: they receive a borrowed visitor and
 * value and return an owning TVMFFIAny (None, a VisitInterrupt, or an Error).
 */
#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "internal.h"
#include "array.h"
#include "dataclass.h"
#include "list.h"
#include "map.h"
#include "object.h"
#include "type.h"
#include "visit.h"

int32_t tether__visit_error_context_index = -1;
static int32_t tether__visitor_index = -1;

/* Layouts (tvm-ffi's C++ classes of the same keys). */
typedef struct {
  TVMFFIObject header;
  TVMFFIAny value;
} tether_visit_interrupt_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* reverse_visit_pattern; /* List of objects, innermost first */
  TVMFFIObject* prev_error_context;    /* the error's earlier extra context, or NULL */
} tether_visit_error_context_t;

/* ---- error breadcrumbs ------------------------------------------------------------------- */

void tether__visit_error_context_push(TVMFFIAny* err, TVMFFIAny node) {
  if (err->type_index != kTVMFFIError || node.type_index < kTVMFFIStaticObjectBegin ||
      node.v_obj == NULL || tether__visit_error_context_index < 0) {
    return;
  }
  TVMFFIErrorCell* cell = TETHER_CELL(TVMFFIErrorCell, err->v_obj);
  TVMFFIObject* ctx = cell->extra_context;
  if (ctx != NULL && ctx->type_index == tether__visit_error_context_index) {
    tether_visit_error_context_t* vc = (tether_visit_error_context_t*)ctx;
    if (vc->reverse_visit_pattern != NULL &&
        tether__list_append(vc->reverse_visit_pattern, &node) != 0) {
      TVMFFIErrorMoveFromRaised(NULL);
    }
    return;
  }
  TVMFFIObject* fresh = NULL;
  TVMFFIObject* list = NULL;
  if (tether_object_new_reflected(tether__visit_error_context_index,
                                  (TVMFFIObjectHandle*)&fresh) != 0 ||
      tether__list_new(&node, 1, &list) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    TVMFFIObjectDecRef(fresh);
    return;
  }
  tether_visit_error_context_t* vc = (tether_visit_error_context_t*)fresh;
  vc->reverse_visit_pattern = list;
  vc->prev_error_context = ctx; /* takes over the error's reference */
  cell->extra_context = fresh;
}

/* ---- container hooks ---------------------------------------------------------------------- */

static TVMFFIAny tether__visit_seq_hook(tether_visitor* visitor, TVMFFIAny value) {
  const TVMFFISeqCell* cell = tether__seq_cell(value.v_obj);
  /* re-read the size: a callback may shrink a List while it is visited */
  for (int64_t i = 0; i < cell->size; ++i) {
    TVMFFIAny r = visitor->vtable->visit(visitor, ((const TVMFFIAny*)cell->data)[i]);
    if (r.type_index != kTVMFFINone) return r;
  }
  return tether_any_none();
}

static TVMFFIAny tether__visit_map_hook(tether_visitor* visitor, TVMFFIAny value) {
  int64_t pos = 0;
  const TVMFFIAny* v;
  while (tether__map_next(value.v_obj, &pos, NULL, &v)) {
    TVMFFIAny r = visitor->vtable->visit(visitor, *v);
    if (r.type_index != kTVMFFINone) return r;
  }
  return tether_any_none();
}

/* ---- default descent ---------------------------------------------------------------------- */

static const TVMFFITypeAttrColumn* _Atomic tether__s_visit_column;

/* Converts a Function hook's or callback's packed result to the raw visit convention. */
static TVMFFIAny tether__visit_result(int rc, TVMFFIAny* result, const char* what) {
  if (rc != 0) return tether__error_any_from_raised();
  if (result->type_index == kTVMFFINone || result->type_index == kTVMFFIVisitInterrupt ||
      result->type_index == kTVMFFIError) {
    return *result;
  }
  TVMFFIAny bad = *result;
  TVMFFIAny err = tether__error_any("TypeError", "%s must return None or a VisitInterrupt, "
                                    "got `%s`", what, tether_any_type_key(&bad));
  tether_any_release(&bad);
  return err;
}

/* One field of `obj` under def region `kind` (kept when the visitor is in a pattern). */
static TVMFFIAny tether__visit_in_region(tether_visitor* visitor, int32_t kind, TVMFFIAny v) {
  int32_t old = visitor->def_region_kind;
  if (old != kTVMFFIDefRegionKindPattern) visitor->def_region_kind = kind;
  TVMFFIAny r = visitor->vtable->visit(visitor, v);
  visitor->def_region_kind = old;
  return r;
}

static TVMFFIAny tether__visit_fields(tether_visitor* visitor, TVMFFIObject* obj) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  if (info == NULL) return tether_any_none();
  /* A simple definition is the FreeVar itself; its fields are uses. */
  int32_t saved = visitor->def_region_kind;
  if (saved == kTVMFFIDefRegionKindSimple && info->metadata != NULL &&
      info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar) {
    visitor->def_region_kind = kTVMFFIDefRegionKindNone;
  }
  TVMFFIAny result = tether_any_none();
  for (int32_t d = 0; d <= info->type_depth && result.type_index == kTVMFFINone; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields && result.type_index == kTVMFFINone; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
      TVMFFIAny v = tether_any_none();
      if (f->getter((char*)obj + f->offset, &v) != 0) {
        result = tether__error_any_from_raised();
        break;
      }
      if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
        result = tether__visit_in_region(visitor, kTVMFFIDefRegionKindSimple, v);
      } else if (f->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
        result = tether__visit_in_region(visitor, kTVMFFIDefRegionKindPattern, v);
      } else {
        result = visitor->vtable->visit(visitor, v);
      }
      tether_any_release(&v);
    }
  }
  visitor->def_region_kind = saved;
  return result;
}

TVMFFIAny tether_visitor_default_visit(tether_visitor* visitor, TVMFFIAny value) {
  const TVMFFIAny* hook = tether__type_attr("__s_visit__", &tether__s_visit_column, value.type_index);
  if (hook != NULL && hook->type_index == kTVMFFIOpaquePtr) {
    return ((tether_visit_fn)hook->v_ptr)(visitor, value);
  }
  if (hook != NULL && hook->type_index == kTVMFFIFunction) {
    TVMFFIAny args[2] = {tether_any_object(visitor), value};
    TVMFFIAny out = tether_any_none();
    int rc = TVMFFIFunctionCall(hook->v_obj, args, 2, &out);
    return tether__visit_result(rc, &out, "__s_visit__");
  }
  if (hook != NULL) {
    return tether__error_any("TypeError", "__s_visit__ must be an opaque function pointer or "
                             "ffi.Function");
  }
  if (value.type_index < kTVMFFIStaticObjectBegin || value.v_obj == NULL) return tether_any_none();
  return tether__visit_fields(visitor, value.v_obj);
}

/* ---- engines behind ffi.StructuralVisit / ffi.StructuralWalk ------------------------------ */

typedef enum { TETHER_ENGINE_VISIT, TETHER_ENGINE_WALK_PRE, TETHER_ENGINE_WALK_POST } tether_engine_kind;

typedef struct {
  tether_visitor base;
  TVMFFIObject* callbacks;      /* Array of (type_index, Function); owned */
  TVMFFIObject* callbacks_kind; /* walks: callbacks that also take the region kind; or NULL */
  tether_engine_kind kind;
} tether_dyn_visitor;

bool tether__type_match(int32_t actual, int32_t target) {
  if (actual == target || target == kTVMFFIAny) return true;
  if (target == kTVMFFIStr) return actual == kTVMFFISmallStr;
  if (target == kTVMFFIBytes) return actual == kTVMFFISmallBytes;
  if (target == kTVMFFIObject) return actual >= kTVMFFIStaticObjectBegin;
  if (actual < kTVMFFIStaticObjectBegin || target < kTVMFFIStaticObjectBegin) return false;
  return tether_type_is_subclass(actual, target);
}

TVMFFIObject* tether__find_callback(TVMFFIObject* table, int32_t ti) {
  if (table == NULL) return NULL;
  int64_t n = tether__array_size(table);
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* entry = tether__array_get(table, i);
    const TVMFFIAny* t = tether__array_get(entry->v_obj, 0);
    if (tether__type_match(ti, (int32_t)t->v_int64)) return entry->v_obj;
  }
  return NULL;
}

/* Runs a walk callback: 0 = advance, 1 = skip, 2 = stop with *stop (an owning
 * VisitInterrupt or Error). */
static int tether__walk_callback(tether_dyn_visitor* self, TVMFFIAny value, TVMFFIAny* stop) {
  TVMFFIObject* fn = tether__find_callback(self->callbacks, value.type_index);
  int32_t nargs = 1;
  if (fn == NULL) {
    fn = tether__find_callback(self->callbacks_kind, value.type_index);
    nargs = 2;
  }
  if (fn == NULL) return 0;
  fn = tether__callback_fn(fn);
  TVMFFIAny args[2] = {value, tether_any_int(self->base.def_region_kind)};
  TVMFFIAny out = tether_any_none();
  if (TVMFFIFunctionCall(fn, args, nargs, &out) != 0) {
    *stop = tether__error_any_from_raised();
    return 2;
  }
  if (out.type_index == kTVMFFINone) return 0;
  if (out.type_index == kTVMFFIInt && (out.v_int64 == 0 || out.v_int64 == 1)) return (int)out.v_int64;
  if (out.type_index == kTVMFFIVisitInterrupt || out.type_index == kTVMFFIError) {
    *stop = out;
    return 2;
  }
  *stop = tether__error_any("TypeError", "ffi.StructuralWalk: a callback must return a "
                            "WalkResult (None, 0 = advance, 1 = skip, or a VisitInterrupt), got `%s`",
                            tether_any_type_key(&out));
  tether_any_release(&out);
  return 2;
}

static TVMFFIAny tether__dyn_visit(tether_visitor* visitor, TVMFFIAny value) {
  tether_dyn_visitor* self = (tether_dyn_visitor*)visitor;
  TVMFFIAny r = tether_any_none();
  if (value.type_index == kTVMFFINone) return r;
  if (self->kind == TETHER_ENGINE_VISIT) {
    TVMFFIObject* fn = tether__find_callback(self->callbacks, value.type_index);
    if (fn != NULL) {
      fn = tether__callback_fn(fn);
      TVMFFIAny args[2] = {value, tether_any_object(visitor)};
      TVMFFIAny out = tether_any_none();
      int rc = TVMFFIFunctionCall(fn, args, 2, &out);
      r = tether__visit_result(rc, &out, "ffi.StructuralVisit callback");
    } else {
      r = tether_visitor_default_visit(visitor, value);
    }
  } else {
    if (self->kind == TETHER_ENGINE_WALK_PRE) {
      int c = tether__walk_callback(self, value, &r);
      if (c == 1) return tether_any_none();
      if (c == 2) goto done;
    }
    r = tether_visitor_default_visit(visitor, value);
    if (r.type_index != kTVMFFINone) goto done;
    if (self->kind == TETHER_ENGINE_WALK_POST) tether__walk_callback(self, value, &r);
  }
done:
  if (r.type_index == kTVMFFIError) tether__visit_error_context_push(&r, value);
  return r;
}

static const tether_visitor_vtable tether__dyn_visitor_vtable = {tether__dyn_visit};

static void tether__dyn_visitor_deleter(void* obj, int flags) {
  tether_dyn_visitor* self = obj;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIObjectDecRef(self->callbacks);
    TVMFFIObjectDecRef(self->callbacks_kind);
    self->callbacks = self->callbacks_kind = NULL;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(obj);
}

/* Checks that argument i is an Array of (int, Function) pairs; *out borrowed. */
int tether__arg_callbacks(const char* fname, const TVMFFIAny* args, int32_t i,
                          TVMFFIObject** out) {
  if (tether_arg_object(fname, args, i, kTVMFFIArray, out) != 0) return -1;
  int64_t n = tether__array_size(*out);
  for (int64_t k = 0; k < n; ++k) {
    const TVMFFIAny* e = tether__array_get(*out, k);
    const TVMFFIAny* t = e->type_index == kTVMFFIArray ? tether__array_get(e->v_obj, 0) : NULL;
    const TVMFFIAny* f = e->type_index == kTVMFFIArray ? tether__array_get(e->v_obj, 1) : NULL;
    if (t == NULL || f == NULL || t->type_index != kTVMFFIInt || f->type_index != kTVMFFIFunction) {
      return tether_raise("TypeError", "%s: argument %d, entry %lld must be a (type_index: int, "
                          "callback: Function) tuple", fname, (int)i, (long long)k);
    }
  }
  return 0;
}

static int tether__run_engine(const char* fname, TVMFFIAny root, TVMFFIObject* callbacks,
                              TVMFFIObject* callbacks_kind, tether_engine_kind kind,
                              TVMFFIAny* result) {
  tether_dyn_visitor* self = tether__object_alloc(sizeof(*self), tether__visitor_index,
                                                  tether__dyn_visitor_deleter);
  if (self == NULL) return -1;
  self->base.vtable = &tether__dyn_visitor_vtable;
  self->base.def_region_kind = kTVMFFIDefRegionKindNone;
  TVMFFIObjectIncRef(callbacks);
  self->callbacks = callbacks;
  if (callbacks_kind != NULL) TVMFFIObjectIncRef(callbacks_kind);
  self->callbacks_kind = callbacks_kind;
  self->kind = kind;
  TVMFFIAny r = tether__dyn_visit(&self->base, root);
  TVMFFIObjectDecRef(self);
  (void)fname;
  return tether__raw_result(r, result);
}

static int tether__structural_visit_global(void* s, const TVMFFIAny* args, int32_t n,
                                           TVMFFIAny* result) {
  static const char fname[] = "ffi.StructuralVisit";
  TVMFFIObject* callbacks;
  (void)s;
  if (tether_check_nargs(fname, "(0: Any, 1: Array) -> Optional[VisitInterrupt]", n, 2) != 0 ||
      tether__arg_callbacks(fname, args, 1, &callbacks) != 0) {
    return -1;
  }
  return tether__run_engine(fname, args[0], callbacks, NULL, TETHER_ENGINE_VISIT, result);
}

static int tether__structural_walk_global(void* s, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  static const char fname[] = "ffi.StructuralWalk";
  TVMFFIObject *callbacks, *callbacks_kind;
  int64_t order;
  (void)s;
  if (tether_check_nargs(fname, "(0: Any, 1: Array, 2: Array, 3: int) -> "
                         "Optional[VisitInterrupt]", n, 4) != 0 ||
      tether__arg_callbacks(fname, args, 1, &callbacks) != 0 ||
      tether__arg_callbacks(fname, args, 2, &callbacks_kind) != 0 ||
      tether_arg_int(fname, args, 3, &order) != 0) {
    return -1;
  }
  if (order != 0 && order != 1) {
    return tether_raise("ValueError", "%s: argument 3 (order) must be 0 (pre-order) or 1 "
                        "(post-order), got %lld", fname, (long long)order);
  }
  return tether__run_engine(fname, args[0], callbacks, callbacks_kind,
                            order == 0 ? TETHER_ENGINE_WALK_PRE : TETHER_ENGINE_WALK_POST, result);
}

/* ---- visitor methods ------------------------------------------------------------- */

int tether__method_self(const char* fname, const char* sig, const TVMFFIAny* args, int32_t n,
                        int32_t nargs, int32_t type_index, TVMFFIObject** self) {
  if (tether_check_nargs(fname, sig, n, nargs) != 0) return -1;
  return tether_arg_object(fname, args, 0, type_index, self);
}

int tether__raw_result(TVMFFIAny r, TVMFFIAny* result) {
  if (r.type_index == kTVMFFIError) return tether__raise_error_any(&r);
  *result = r;
  return 0;
}

static int tether__visitor_visit_global(void* s, const TVMFFIAny* args, int32_t n,
                                        TVMFFIAny* result) {
  TVMFFIObject* v;
  (void)s;
  if (tether__method_self("ffi.StructuralVisitorVisit", "(0: StructuralVisitor, 1: Any) -> "
                          "Optional[VisitInterrupt]", args, n, 2, tether__visitor_index, &v) != 0) {
    return -1;
  }
  tether_visitor* visitor = (tether_visitor*)v;
  return tether__raw_result(visitor->vtable->visit(visitor, args[1]), result);
}

static int tether__visitor_default_visit_global(void* s, const TVMFFIAny* args, int32_t n,
                                                TVMFFIAny* result) {
  TVMFFIObject* v;
  (void)s;
  if (tether__method_self("ffi.StructuralVisitorDefaultVisit", "(0: StructuralVisitor, 1: Any) "
                          "-> Optional[VisitInterrupt]", args, n, 2, tether__visitor_index, &v) != 0) {
    return -1;
  }
  return tether__raw_result(tether_visitor_default_visit((tether_visitor*)v, args[1]), result);
}

/* The def-region field sits at the same offset in visitors and mutators. */
_Static_assert(offsetof(tether_visitor, def_region_kind) == offsetof(tether_mutator, def_region_kind),
               "visitor and mutator share the def-region slot");

static int32_t* tether__region_slot(TVMFFIObject* obj) {
  return &((tether_visitor*)obj)->def_region_kind;
}

int tether__def_region_kind(const char* fname, int32_t base, const TVMFFIAny* args,
                                   int32_t n, TVMFFIAny* result) {
  TVMFFIObject* v;
  if (tether__method_self(fname, "(0: Object) -> int", args, n, 1, base, &v) != 0) {
    return -1;
  }
  *result = tether_any_int(*tether__region_slot(v));
  return 0;
}

int tether__with_def_region_kind(const char* fname, int32_t base, const TVMFFIAny* args,
                                        int32_t n, TVMFFIAny* result) {
  TVMFFIObject *v, *fn;
  int64_t kind;
  if (tether__method_self(fname, "(0: Object, 1: int, 2: Function) -> Any", args, n, 3, base,
                          &v) != 0 ||
      tether_arg_int(fname, args, 1, &kind) != 0 ||
      tether_arg_object(fname, args, 2, kTVMFFIFunction, &fn) != 0) {
    return -1;
  }
  if (kind < kTVMFFIDefRegionKindNone || kind > kTVMFFIDefRegionKindSimple) {
    return tether_raise("ValueError", "%s: argument 1 (kind) must be a TVMFFIDefRegionKind "
                        "(0, 1 or 2), got %lld", fname, (long long)kind);
  }
  int32_t* slot = tether__region_slot(v);
  int32_t old = *slot;
  if (old != kTVMFFIDefRegionKindPattern) *slot = (int32_t)kind;
  int rc = TVMFFIFunctionCall(fn, NULL, 0, result);
  *slot = old;
  return rc;
}

static int tether__visitor_region_global(void* s, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)s;
  return tether__def_region_kind("ffi.StructuralVisitorDefRegionKind", tether__visitor_index,
                                 args, n, r);
}
static int tether__visitor_with_region_global(void* s, const TVMFFIAny* args, int32_t n,
                                              TVMFFIAny* r) {
  (void)s;
  return tether__with_def_region_kind("ffi.StructuralVisitorWithDefRegionKind",
                                      tether__visitor_index, args, n, r);
}
static int tether__visit_interrupt_global(void* s, const TVMFFIAny* args, int32_t n,
                                          TVMFFIAny* result) {
  TVMFFIObject* obj = NULL;
  (void)s;
  if (tether_check_nargs("ffi.VisitInterrupt", "(0: Any) -> VisitInterrupt", n, 1) != 0) return -1;
  if (tether_object_new_reflected(kTVMFFIVisitInterrupt, (TVMFFIObjectHandle*)&obj) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &((tether_visit_interrupt_t*)obj)->value) != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  *result = tether_any_object(obj);
  return 0;
}

/* ---- subsystem ----------------------------------------------------------------------------- */

/* The native hooks, one row per (type, column). */
static const struct {
  int32_t type_index;
  const char* column;
  void* fn;
} tether__hooks[] = {
    {kTVMFFIArray, "__s_visit__", (void*)tether__visit_seq_hook},
    {kTVMFFIList, "__s_visit__", (void*)tether__visit_seq_hook},
    {kTVMFFIMap, "__s_visit__", (void*)tether__visit_map_hook},
    {kTVMFFIDict, "__s_visit__", (void*)tether__visit_map_hook},
};

int tether__visit_init(void) {
  TVMFFIAny none = tether_any_none();
  const tether_field_def_t interrupt_fields[] = {
      {"value", TETHER_FIELD_ANY, offsetof(tether_visit_interrupt_t, value), 0, 0, &none,
       "payload returned with the interrupt"},
  };
  const tether_field_def_t context_fields[] = {
      {"reverse_visit_pattern", TETHER_FIELD_OBJECT,
       offsetof(tether_visit_error_context_t, reverse_visit_pattern), 0, kTVMFFIList, NULL,
       "objects the error passed through, innermost first"},
      {"prev_error_context", TETHER_FIELD_OPT_OBJECT,
       offsetof(tether_visit_error_context_t, prev_error_context), 0, 0, NULL,
       "the error's extra context before the visit added its own"},
  };
  const tether_extra_type_t types[] = {
      {"ffi.VisitInterrupt", kTVMFFIVisitInterrupt, sizeof(tether_visit_interrupt_t),
       kTVMFFISEqHashKindUnsupported, true, true, interrupt_fields, 1},
      {"ffi.StructuralVisitor", -1, sizeof(tether_visitor), kTVMFFISEqHashKindUnsupported, false,
       false, NULL, 0},
      {"ffi.VisitErrorContext", -1, sizeof(tether_visit_error_context_t),
       kTVMFFISEqHashKindUnsupported, true, true, context_fields, 2},
  };
  int32_t* indices[] = {NULL, &tether__visitor_index, &tether__visit_error_context_index};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    int32_t index;
    if (tether__extra_type_register(&types[i], &index) != 0) return -1;
    if (indices[i] != NULL) *indices[i] = index;
  }
  for (size_t i = 0; i < sizeof(tether__hooks) / sizeof(tether__hooks[0]); ++i) {
    if (tether__type_attr_def_ptr(tether__hooks[i].type_index, tether__hooks[i].column,
                                  tether__hooks[i].fn) != 0) {
      return -1;
    }
  }
  static const tether_extra_global_t globals[] = {
      {"ffi.VisitInterrupt", tether__visit_interrupt_global},
      {"ffi.StructuralVisit", tether__structural_visit_global, true},
      {"ffi.StructuralWalk", tether__structural_walk_global, true},
      {"ffi.StructuralVisitorVisit", tether__visitor_visit_global, true},
      {"ffi.StructuralVisitorDefaultVisit", tether__visitor_default_visit_global, true},
      {"ffi.StructuralVisitorDefRegionKind", tether__visitor_region_global, true},
      {"ffi.StructuralVisitorWithDefRegionKind", tether__visitor_with_region_global, true},
  };
  return tether__extra_globals_register(globals, sizeof(globals) / sizeof(globals[0]));
}

void tether__visit_fini(void) {
  tether__s_visit_column = NULL;
}
