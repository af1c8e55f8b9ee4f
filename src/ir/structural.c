/*
 * structural.c -- structural equality and hash of IR nodes (relax.md section 7), driven by
 * reflection: objects compare field by field over their type's and ancestors' fields
 * (ancestors first), skipping fields flagged SEqHashIgnore (span, Var.name).
 *
 * Rules:
 * - Vars (ir.Var, relax DataflowVar) and GlobalVars are "free var" kinds.  Inside a
 *   definition region -- a field flagged SEqHashDef* (Function.params, Binding.var,
 *   MatchCast.ty, FuncType.params) and everything below it -- an unmapped lhs var is mapped
 *   one to one onto the rhs var (same kind), then their fields (ty) are compared.  After
 *   that every use must meet its partner.  Outside definitions an unmapped var equals only
 *   itself, unless map_free_vars, which lets it map like a definition.
 * - An IRModule maps its GlobalVars by function name, then compares the functions.
 * - Op compares by name only; Arrays, Maps, Shapes, strings, ints, floats and dtypes by
 *   value; Tensors by dtype, shape and content; other objects without reflected layout by
 *   identity.
 * - The hash follows the same traversal: a var defined (or mapped, under map_free_vars)
 *   hashes by its definition order, any other var by identity; Map entries combine
 *   order-independently; so equal inputs hash equal.
 * The first mismatch is reported as a path: <root>.body.blocks[0].bindings[1].value.args[0];
 * an Array shorter on one side shows `[<missing:i>]` on that side.
 */
#include "structural.h"

#include <math.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/tensor.h>

#include "node.h"
#include "strbuf.h"
#include "table.h"

#define TRX__DEF_FLAGS \
  (kTVMFFIFieldFlagBitMaskSEqHashDefRecursive | kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive)

/* ---- work stacks ------------------------------------------------------------------------ */

/* Room for one more element of `elem` bytes on the stack *v holding n of *cap (grown by
 * doubling); false when out of memory. */
static inline bool trx__stack_room(void** v, size_t* cap, size_t n, size_t elem) {
  if (n < *cap) return true;
  size_t c = *cap ? 2 * *cap : 64;
  void* p = realloc(*v, c * elem);
  if (p == NULL) return false;
  *v = p;
  *cap = c;
  return true;
}

/* ---- paths ------------------------------------------------------------------------------- */




/* The text of a map key inside a path: "name" for strings, I.GlobalVar("f"), 3, ... */
static void trx__key_text(trx__buf_t* b, const TVMFFIAny* k) {
  TVMFFIByteArray s;
  char tmp[64];
  if (tether_any_get_str(k, &s)) {
    trx__buf_puts(b, "\"");
    trx__buf_put(b, s.data, s.size);
    trx__buf_puts(b, "\"");
  } else if (k->type_index == kTVMFFIInt) {
    snprintf(tmp, sizeof(tmp), "%lld", (long long)k->v_int64);
    trx__buf_puts(b, tmp);
  } else if (tether_any_is_object(k) && trx_is(k->v_obj, TRX_GLOBAL_VAR)) {
    TVMFFIByteArray name = trx__str(&((const trx_global_var_t*)k->v_obj)->name_hint);
    trx__buf_puts(b, "I.GlobalVar(\"");
    trx__buf_put(b, name.data, name.size);
    trx__buf_puts(b, "\")");
  } else {
    trx__buf_puts(b, tether_any_type_key(k));
  }
}

/* ---- shared leaf comparisons --------------------------------------------------------------- */


/* Cheap pre-test for tether_any_get_str: only these type indices can hold a string. */
static inline bool trx__maybe_str(const TVMFFIAny* v) {
  return v->type_index == kTVMFFIStr || v->type_index == kTVMFFISmallStr || v->type_index == kTVMFFIRawStr;
}

/* Objects compared field by field: our IR nodes and any reflected tree-node type. */
static bool trx__is_reflected(const TVMFFIObject* o) {
  return o->type_index >= kTVMFFIDynObjectBegin && trx__ftab(o->type_index)->tree_node;
}

static bool trx__is_free_var(const TVMFFIObject* o) {
  uint64_t m = trx__isa_mask(o->type_index);
  return ((m >> TRX_VAR) & 1) || ((m >> TRX_GLOBAL_VAR) & 1);
}

/* Byte size of a compact tensor's data, or -1 if it is not compact (then identity rules).
 * A tensor without elements is compact whatever its strides (numpy gives (0, 3) strides 0). */
static int64_t trx__tensor_nbytes(const DLTensor* t) {
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) return 0;
  }
  int64_t n = 1, stride = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    if (t->strides != NULL && t->shape[i] != 1 && t->strides[i] != stride) return -1;
    stride *= t->shape[i];
    n *= t->shape[i];
  }
  return n * (((int64_t)t->dtype.bits * t->dtype.lanes + 7) / 8);
}

static bool trx__tensor_equal(const TVMFFIObject* a, const TVMFFIObject* b) {
  const DLTensor* x = tether_tensor_dl((TVMFFIObjectHandle)a);
  const DLTensor* y = tether_tensor_dl((TVMFFIObjectHandle)b);
  if (x == NULL || y == NULL) return a == b;
  if (x->ndim != y->ndim || x->dtype.code != y->dtype.code || x->dtype.bits != y->dtype.bits ||
      x->dtype.lanes != y->dtype.lanes) {
    return false;
  }
  for (int32_t i = 0; i < x->ndim; ++i) {
    if (x->shape[i] != y->shape[i]) return false;
  }
  if (a == b) return true;
  int64_t nx = trx__tensor_nbytes(x), ny = trx__tensor_nbytes(y);
  if (nx < 0 || ny < 0 || x->device.device_type != kDLCPU || y->device.device_type != kDLCPU) return false;
  if (nx == 0) return true;
  return memcmp((const char*)x->data + x->byte_offset, (const char*)y->data + y->byte_offset, (size_t)nx) == 0;
}

static bool trx__shape_equal(const TVMFFIObject* a, const TVMFFIObject* b) {
  int64_t n = tether_shape_size((TVMFFIObjectHandle)a);
  if (n != tether_shape_size((TVMFFIObjectHandle)b)) return false;
  return n <= 0 || memcmp(tether_shape_data((TVMFFIObjectHandle)a), tether_shape_data((TVMFFIObjectHandle)b),
                          sizeof(int64_t) * (size_t)n) == 0;
}

static bool trx__op_name_equal(const TVMFFIObject* a, const TVMFFIObject* b) {
  TVMFFIByteArray x = trx__str(&((const trx_op_t*)a)->name);
  TVMFFIByteArray y = trx__str(&((const trx_op_t*)b)->name);
  return x.size == y.size && memcmp(x.data, y.data, x.size) == 0;
}


/* ---- equality ------------------------------------------------------------------------------ */

typedef struct {
  bool map_free_vars;
  trx__table_t fwd, bwd; /* lhs var -> rhs var and back */
  trx__buf_t lp, rp;  /* current paths */
  char *ml, *mr;      /* first mismatch paths (owned) */
  bool record;        /* track paths (only when the caller wants the mismatch) */
  bool oom;
  struct trx__eframe* frames; /* the work stack (see trx__eq_drive) */
  size_t nframes, capframes;
} trx__seq;

static bool trx__mismatch(trx__seq* c) {
  if (c->record && c->ml == NULL && !c->lp.oom && !c->rp.oom) {
    c->ml = strdup(c->lp.s);
    c->mr = strdup(c->rp.s);
    if (c->ml == NULL || c->mr == NULL) c->oom = true;
  }
  return false;
}

/* Appends segments (rhs may differ: `[<missing:i>]`); returns the lengths to restore. */
static void trx__push(trx__seq* c, const char* l, const char* r, size_t* ln, size_t* rn) {
  *ln = c->lp.n;
  *rn = c->rp.n;
  if (!c->record) return;
  trx__buf_puts(&c->lp, l);
  trx__buf_puts(&c->rp, r ? r : l);
}

static void trx__pop(trx__seq* c, size_t ln, size_t rn) {
  c->lp.n = ln;
  c->rp.n = rn;
  if (c->lp.s) c->lp.s[ln] = '\0';
  if (c->rp.s) c->rp.s[rn] = '\0';
}

/* Equality runs an explicit work stack, as the hash does: a pair of containers or nodes to
 * compare child by child is a frame; the top frame hands out its next pair of children
 * (after appending the child's path segment), and a pair found unequal ends the whole
 * comparison (every frame above the caller's is dropped, its path restored).  Children come
 * in the order of the recursive definition, so var mappings are made in the same order and
 * the first mismatch reported is the same. */
typedef enum { EF_FIELDS, EF_ARRAY, EF_LIST, EF_MAP } trx__ef_kind;

typedef struct trx__eframe {
  trx__ef_kind kind;
  bool def;
  bool pending;  /* a child pair was handed out: its segment is on the paths */
  bool oa, ob;   /* va / vb are owning values */
  TVMFFIObject *a, *b;
  const trx__ftab_t* tab;
  const TVMFFIAny *xa, *xb; /* EF_ARRAY items */
  int64_t na, nb;
  int64_t i;      /* next field / item; EF_MAP: position in a */
  size_t ln, rn;  /* path lengths before the pending child's segment */
  TVMFFIAny va, vb; /* EF_FIELDS: the pending field values */
} trx__eframe;

static bool trx__eq_any(trx__seq* c, const TVMFFIAny* a, const TVMFFIAny* b, bool def);

static trx__eframe* trx__eq_push(trx__seq* c, trx__ef_kind kind, TVMFFIObject* a, TVMFFIObject* b, bool def) {
  if (!trx__stack_room((void**)&c->frames, &c->capframes, c->nframes, sizeof(*c->frames))) {
    c->oom = true;
    return NULL;
  }
  trx__eframe* f = &c->frames[c->nframes++];
  f->kind = kind;
  f->def = def;
  f->pending = f->oa = f->ob = false;
  f->a = a;
  f->b = b;
  f->i = 0;
  return f;
}

/* The pending child of f is done: release its field values, drop its path segment. */
static inline void trx__eq_after(trx__seq* c, trx__eframe* f) {
  if (!f->pending) return;
  if (f->oa || f->ob) {
    if (f->oa) tether_any_release(&f->va);
    if (f->ob) tether_any_release(&f->vb);
    f->oa = f->ob = false;
  }
  if (c->record) trx__pop(c, f->ln, f->rn);
  f->pending = false;
}

/* Runs the frames from `base` up; whether the pair of the frame at `base` is equal. */
static bool trx__eq_drive(trx__seq* c, size_t base);

static bool trx__eq_fields(trx__seq* c, TVMFFIObject* a, TVMFFIObject* b, bool def) {
  size_t base = c->nframes;
  trx__eframe* f = trx__eq_push(c, EF_FIELDS, a, b, def);
  if (f == NULL) return false;
  f->tab = trx__ftab(a->type_index);
  return trx__eq_drive(c, base);
}

/* The rhs entry matching lhs key k: through the var mapping for var keys, else by value. */
static const TVMFFIAny* trx__rhs_lookup(trx__seq* c, TVMFFIObject* b, const TVMFFIAny* k) {
  if (tether_any_is_object(k) && trx__is_free_var(k->v_obj)) {
    const void* mk = trx__table_get(&c->fwd, k->v_obj);
    TVMFFIAny view = tether_any_object((TVMFFIObject*)(mk ? mk : k->v_obj));
    return tether_map_find(b, &view);
  }
  return tether_map_find(b, k);
}

/* The segment of map key k: "[key]". */
static void trx__push_key(trx__seq* c, const TVMFFIAny* k, size_t* ln, size_t* rn) {
  trx__buf_t seg = {0};
  if (c->record) {
    trx__buf_puts(&seg, "[");
    trx__key_text(&seg, k);
    trx__buf_puts(&seg, "]");
  }
  trx__push(c, seg.s ? seg.s : "[?]", NULL, ln, rn);
  free(seg.s);
}

/* The next child pair of f (its segment appended): 1; f is done and equal: 0; f is done
 * and unequal (the mismatch recorded): -1. */
static int trx__eq_next(trx__seq* c, trx__eframe* f, const TVMFFIAny** x, const TVMFFIAny** y, bool* def) {
  char seg[128];
  *def = f->def;
  switch (f->kind) {
    case EF_FIELDS:
      for (; f->i < f->tab->n; ++f->i) {
        const trx__fdesc_t* fd = &f->tab->f[f->i];
        if (fd->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
        f->ln = c->lp.n;
        f->rn = c->rp.n;
        if (c->record) {
          snprintf(seg, sizeof(seg), ".%.*s", (int)fd->info->name.size, fd->info->name.data);
          trx__push(c, seg, NULL, &f->ln, &f->rn);
        }
        f->va = trx__field_read(f->a, fd, &f->oa);
        f->vb = trx__field_read(f->b, fd, &f->ob);
        *def = f->def || (fd->flags & TRX__DEF_FLAGS) != 0;
        f->i++;
        f->pending = true;
        *x = &f->va;
        *y = &f->vb;
        return 1;
      }
      return 0;
    case EF_ARRAY:
    case EF_LIST: {
      int64_t n = f->na < f->nb ? f->na : f->nb;
      if (f->i < n) {
        f->ln = c->lp.n;
        f->rn = c->rp.n;
        if (c->record) {
          snprintf(seg, sizeof(seg), "[%lld]", (long long)f->i);
          trx__push(c, seg, NULL, &f->ln, &f->rn);
        }
        f->pending = true;
        if (f->kind == EF_ARRAY) {
          *x = &f->xa[f->i];
          *y = &f->xb[f->i];
        } else {
          *x = tether_list_at(f->a, f->i);
          *y = tether_list_at(f->b, f->i);
        }
        f->i++;
        return 1;
      }
      if (f->na == f->nb) return 0;
      char miss[64];
      size_t ln, rn;
      snprintf(seg, sizeof(seg), "[%lld]", (long long)n);
      snprintf(miss, sizeof(miss), "[<missing:%lld>]", (long long)n);
      trx__push(c, f->na > f->nb ? seg : miss, f->na > f->nb ? miss : seg, &ln, &rn);
      trx__mismatch(c);
      trx__pop(c, ln, rn);
      return -1;
    }
    case EF_MAP: {
      const TVMFFIAny *k, *v;
      if (!tether_map_next(f->a, &f->i, &k, &v)) return 0;
      trx__push_key(c, k, &f->ln, &f->rn);
      f->pending = true;
      const TVMFFIAny* rv = trx__rhs_lookup(c, f->b, k);
      if (rv == NULL) {
        trx__mismatch(c);
        trx__eq_after(c, f);
        return -1;
      }
      *x = v;
      *y = rv;
      return 1;
    }
  }
  return 0;
}

/* The GlobalVar of `mod`'s functions named `name` (borrowed), or NULL. */
static TVMFFIObject* trx__module_gv(TVMFFIObject* funcs, TVMFFIByteArray name) {
  int64_t pos = 0;
  const TVMFFIAny *k, *v;
  while (tether_map_next(funcs, &pos, &k, &v)) {
    if (!tether_any_is_object(k) || !trx_is(k->v_obj, TRX_GLOBAL_VAR)) continue;
    TVMFFIByteArray s = trx__str(&((const trx_global_var_t*)k->v_obj)->name_hint);
    if (s.size == name.size && memcmp(s.data, name.data, s.size) == 0) return k->v_obj;
  }
  return NULL;
}

/* Two objects (either may be NULL), through a nested run of the work stack. */
static bool trx__eq_objs(trx__seq* c, TVMFFIObject* a, TVMFFIObject* b, bool def) {
  if (a == NULL || b == NULL) return a == b ? true : trx__mismatch(c);
  TVMFFIAny x = tether_any_object(a), y = tether_any_object(b);
  return trx__eq_any(c, &x, &y, def);
}

static bool trx__eq_module(trx__seq* c, TVMFFIObject* a, TVMFFIObject* b) {
  const trx_ir_module_t* ma = (const trx_ir_module_t*)a;
  const trx_ir_module_t* mb = (const trx_ir_module_t*)b;
  size_t ln, rn;
  trx__push(c, ".functions", NULL, &ln, &rn);
  bool ok = true;
  if (tether_map_size(ma->functions) != tether_map_size(mb->functions)) ok = trx__mismatch(c);
  /* GlobalVars are defined by the function names first, so calls between functions match. */
  int64_t pos = 0;
  const TVMFFIAny *k, *v;
  while (ok && tether_map_next(ma->functions, &pos, &k, &v)) {
    if (!tether_any_is_object(k) || !trx_is(k->v_obj, TRX_GLOBAL_VAR)) continue;
    TVMFFIObject* gv = k->v_obj;
    TVMFFIObject* rgv = trx__module_gv(mb->functions, trx__str(&((const trx_global_var_t*)gv)->name_hint));
    const void* mapped = trx__table_get(&c->fwd, gv);
    if (rgv == NULL || (mapped != NULL && mapped != rgv) ||
        (mapped == NULL && trx__table_get(&c->bwd, rgv) != NULL)) {
      size_t l2, r2;
      trx__push_key(c, k, &l2, &r2);
      ok = trx__mismatch(c);
      trx__pop(c, l2, r2);
    } else if (mapped == NULL) {
      if (!trx__table_put(&c->fwd, gv, rgv) || !trx__table_put(&c->bwd, rgv, gv)) c->oom = true;
    }
  }
  if (ok) ok = trx__eq_objs(c, ma->functions, mb->functions, false);
  trx__pop(c, ln, rn);
  if (!ok) return false;
  trx__push(c, ".attrs", NULL, &ln, &rn);
  ok = trx__eq_objs(c, ma->attrs, mb->attrs, false);
  trx__pop(c, ln, rn);
  return ok;
}

static bool trx__eq_var(trx__seq* c, TVMFFIObject* a, TVMFFIObject* b, bool def) {
  const void* mapped = trx__table_get(&c->fwd, a);
  if (mapped != NULL) return mapped == b ? true : trx__mismatch(c);
  if (trx__table_get(&c->bwd, b) != NULL) return trx__mismatch(c);
  if (!def && !c->map_free_vars) return a == b ? true : trx__mismatch(c);
  if (!trx__table_put(&c->fwd, a, b) || !trx__table_put(&c->bwd, b, a)) {
    c->oom = true;
    return false;
  }
  return trx__eq_fields(c, a, b, def);
}

enum { EQ_FALSE = 0, EQ_TRUE = 1, EQ_PUSHED = 2 };

/* Starts comparing objects a and b: EQ_TRUE / EQ_FALSE when decided at once, EQ_PUSHED
 * when a frame now compares their children. */
static int trx__eq_obj_begin(trx__seq* c, TVMFFIObject* a, TVMFFIObject* b, bool def) {
  if (c->oom) return EQ_FALSE;
  if (a == NULL || b == NULL) return a == b ? EQ_TRUE : trx__mismatch(c);
  if (a->type_index != b->type_index) return trx__mismatch(c);
  /* Identical objects are equal unless free vars may still need mapping inside them. */
  if (a == b && c->fwd.n == 0 && !c->map_free_vars) return EQ_TRUE;
  int32_t ti = a->type_index;
  if (ti == kTVMFFIStr || ti == kTVMFFIBytes) {
    TVMFFIAny x = tether_any_object(a), y = tether_any_object(b);
    return tether_any_equal(&x, &y) ? EQ_TRUE : trx__mismatch(c);
  }
  trx__eframe* f = NULL;
  if (ti == kTVMFFIArray) {
    if ((f = trx__eq_push(c, EF_ARRAY, a, b, def)) == NULL) return EQ_FALSE;
    f->xa = trx__arr_items(a, &f->na);
    f->xb = trx__arr_items(b, &f->nb);
    return EQ_PUSHED;
  }
  if (ti == kTVMFFIList) {
    /* Lists read element-wise like arrays, but differ in size without a path. */
    int64_t n = tether_list_size(a);
    if (n != tether_list_size(b)) return trx__mismatch(c);
    if ((f = trx__eq_push(c, EF_LIST, a, b, def)) == NULL) return EQ_FALSE;
    f->na = f->nb = n;
    return EQ_PUSHED;
  }
  if (ti == kTVMFFIMap || ti == kTVMFFIDict) {
    if (tether_map_size(a) != tether_map_size(b)) return trx__mismatch(c);
    return trx__eq_push(c, EF_MAP, a, b, def) != NULL ? EQ_PUSHED : EQ_FALSE;
  }
  if (ti == kTVMFFIShape) return trx__shape_equal(a, b) ? EQ_TRUE : trx__mismatch(c);
  if (ti == kTVMFFITensor) return trx__tensor_equal(a, b) ? EQ_TRUE : trx__mismatch(c);
  if (trx_is(a, TRX_OP)) return trx__op_name_equal(a, b) ? EQ_TRUE : trx__mismatch(c);
  if (trx__is_free_var(a)) return trx__eq_var(c, a, b, def);
  if (trx_is(a, TRX_IR_MODULE)) return trx__eq_module(c, a, b);
  if (trx__is_reflected(a)) {
    if ((f = trx__eq_push(c, EF_FIELDS, a, b, def)) == NULL) return EQ_FALSE;
    f->tab = trx__ftab(ti);
    return EQ_PUSHED;
  }
  return a == b ? EQ_TRUE : trx__mismatch(c);
}

static int trx__eq_begin(trx__seq* c, const TVMFFIAny* a, const TVMFFIAny* b, bool def) {
  TVMFFIByteArray sa, sb;
  bool as = trx__maybe_str(a) && tether_any_get_str(a, &sa);
  bool bs = trx__maybe_str(b) && tether_any_get_str(b, &sb);
  if (as || bs) {
    return as && bs && sa.size == sb.size && memcmp(sa.data, sb.data, sa.size) == 0 ? EQ_TRUE : trx__mismatch(c);
  }
  if (tether_any_is_object(a) && tether_any_is_object(b)) return trx__eq_obj_begin(c, a->v_obj, b->v_obj, def);
  if (a->type_index != b->type_index) return trx__mismatch(c);
  bool eq;
  switch (a->type_index) {
    case kTVMFFINone:
      eq = true;
      break;
    case kTVMFFIFloat:
      eq = a->v_float64 == b->v_float64 || (isnan(a->v_float64) && isnan(b->v_float64));
      break;
    case kTVMFFIDataType:
      eq = a->v_dtype.code == b->v_dtype.code && a->v_dtype.bits == b->v_dtype.bits &&
           a->v_dtype.lanes == b->v_dtype.lanes;
      break;
    case kTVMFFIDevice:
      eq = a->v_device.device_type == b->v_device.device_type && a->v_device.device_id == b->v_device.device_id;
      break;
    default:
      eq = tether_any_equal(a, b);
  }
  return eq ? EQ_TRUE : trx__mismatch(c);
}

static bool trx__eq_drive(trx__seq* c, size_t base) {
  for (;;) {
    trx__eframe* f = &c->frames[c->nframes - 1];
    const TVMFFIAny *x, *y;
    bool def;
    int st = trx__eq_next(c, f, &x, &y, &def);
    if (st == 1) {
      int r = trx__eq_begin(c, x, y, def);
      if (r == EQ_PUSHED) continue;
      f = &c->frames[c->nframes - 1]; /* nested runs may have moved the stack */
      if (r == EQ_FALSE) break;
      trx__eq_after(c, f);
      continue;
    }
    if (st < 0) break;
    c->nframes--;
    if (c->nframes == base) return true;
    trx__eq_after(c, &c->frames[c->nframes - 1]);
  }
  /* unequal: drop the frames above the caller's, restoring the paths */
  while (c->nframes > base) trx__eq_after(c, &c->frames[--c->nframes]);
  return false;
}

static bool trx__eq_any(trx__seq* c, const TVMFFIAny* a, const TVMFFIAny* b, bool def) {
  size_t base = c->nframes;
  int r = trx__eq_begin(c, a, b, def);
  return r == EQ_PUSHED ? trx__eq_drive(c, base) : r == EQ_TRUE;
}

int trx__structural_compare(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars, char** lhs_path,
                            char** rhs_path) {
  trx__seq c;
  memset(&c, 0, sizeof(c));
  c.map_free_vars = map_free_vars;
  c.record = true;
  trx__buf_puts(&c.lp, "<root>");
  trx__buf_puts(&c.rp, "<root>");
  bool eq = trx__eq_any(&c, a, b, false);
  int rc = eq ? 1 : 0;
  if (c.oom || c.lp.oom || c.rp.oom) rc = tether_raise("MemoryError", "structural equality: out of memory");
  if (lhs_path) *lhs_path = rc == 0 ? c.ml : NULL;
  else free(c.ml);
  if (rhs_path) *rhs_path = rc == 0 ? c.mr : NULL;
  else free(c.mr);
  if (rc != 0) {
    if (lhs_path) free(c.ml);
    if (rhs_path) free(c.mr);
  }
  free(c.lp.s);
  free(c.rp.s);
  free(c.frames);
  trx__table_free(&c.fwd);
  trx__table_free(&c.bwd);
  return rc;
}

bool trx_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars) {
  if (a == NULL || b == NULL) return a == b;
  if (tether_any_is_object(a) && tether_any_is_object(b) && a->v_obj == b->v_obj) return true;
  trx__seq c;
  memset(&c, 0, sizeof(c));
  c.map_free_vars = map_free_vars;
  bool eq = trx__eq_any(&c, a, b, false) && !c.oom;
  free(c.ml);
  free(c.mr);
  free(c.lp.s);
  free(c.rp.s);
  free(c.frames);
  trx__table_free(&c.fwd);
  trx__table_free(&c.bwd);
  return eq;
}

int trx_structural_first_mismatch(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars, TVMFFIAny* out) {
  char *lp = NULL, *rp = NULL;
  *out = tether_any_none();
  int rc = trx__structural_compare(a, b, map_free_vars, &lp, &rp);
  if (rc < 0) return -1;
  int ret = 0;
  if (rc == 0) {
    const char* p = lp ? lp : "<root>";
    ret = tether_any_str(p, strlen(p), out);
  }
  free(lp);
  free(rp);
  return ret;
}

/* ---- hash ---------------------------------------------------------------------------------- */

/* The hash runs an explicit work stack: IR nests without bound (a chain of 100,000 Calls).
 * A container or a node to hash field by field is a frame; the top frame hands out its next
 * child, whose hash is folded into the frame's accumulator when it is known (at once for a
 * leaf, when its own frame finishes otherwise).  Children are visited in the order of the
 * recursive definition: fields in reflection order, array items in order, map entries key
 * then value.  Vars (their type, once, at definition) and modules hash through a nested run
 * of the same loop above the current frames.
 *
 * Types are hashed with a memo: a type object (and everything below it) that reaches no
 * variable hashes the same wherever it appears, so its hash is kept by address for the rest
 * of the run (var.ty and the bound Call's ty are often one object).  nvars counts the
 * variables reached so far, which tells whether a subtree reached one. */
_Static_assert(sizeof(uintptr_t) >= sizeof(uint64_t), "the memo keeps hashes in pointer slots");

typedef enum { HF_FIELDS, HF_ARRAY, HF_LIST, HF_MAP } trx__hf_kind;

typedef struct {
  trx__hf_kind kind;
  bool def;
  bool memo;       /* HF_FIELDS of a type: memoize the result if no var was reached */
  bool owned;      /* `held` is an owning value read from a field */
  bool key_done;   /* HF_MAP: the current entry's key is hashed (its hash in `aux`) */
  TVMFFIObject* o;
  const trx__ftab_t* tab;
  const TVMFFIAny* items; /* HF_ARRAY */
  const TVMFFIAny* val;   /* HF_MAP: the current entry's value */
  int64_t i, n;           /* next field / item; HF_MAP: map position */
  uint64_t r;             /* accumulator (HF_MAP: the sum of the entries) */
  uint64_t aux;           /* nvars at the start (memo) / the key hash (HF_MAP) */
  TVMFFIAny held;
} trx__hframe;

typedef struct {
  bool map_free_vars;
  trx__table_t defs; /* var -> definition order + 1 */
  trx__table_t memo; /* var-free type -> its hash (never 0) */
  uintptr_t next;
  uint64_t nvars;
  bool oom;
  trx__hframe* frames;
  size_t nframes, capframes;
} trx__shash;

static uint64_t trx__mix(uint64_t h, uint64_t x) {
  h ^= x + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
  return h;
}

static uint64_t trx__bytes_hash(const void* p, size_t n) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  const unsigned char* s = p;
  for (size_t i = 0; i < n; ++i) h = (h ^ s[i]) * UINT64_C(0x100000001b3);
  return h;
}

static uint64_t trx__h_any(trx__shash* h, const TVMFFIAny* v, bool def);

/* A new top frame (zeroed but for kind, object and def); NULL when out of memory. */
static inline trx__hframe* trx__h_push(trx__shash* h, trx__hf_kind kind, TVMFFIObject* o, bool def) {
  if (!trx__stack_room((void**)&h->frames, &h->capframes, h->nframes, sizeof(*h->frames))) {
    h->oom = true;
    return NULL;
  }
  trx__hframe* f = &h->frames[h->nframes++];
  f->kind = kind;
  f->def = def;
  f->memo = f->owned = f->key_done = false;
  f->o = o;
  f->i = f->n = 0;
  f->r = f->aux = 0;
  return f;
}

static inline trx__hframe* trx__h_push_fields(trx__shash* h, TVMFFIObject* o, const trx__ftab_t* tab, bool def) {
  trx__hframe* f = trx__h_push(h, HF_FIELDS, o, def);
  if (f == NULL) return NULL;
  const TVMFFITypeInfo* info = tab->info;
  f->tab = tab;
  f->r = info->type_key_hash ? info->type_key_hash : trx__bytes_hash(info->type_key.data, info->type_key.size);
  return f;
}

/* Runs the frames above `base` (the one at `base` included) to completion; the result of
 * the frame at `base`. */
static uint64_t trx__h_drive(trx__shash* h, size_t base);

static uint64_t trx__h_var(trx__shash* h, TVMFFIObject* o, bool def) {
  h->nvars++;
  const void* idx = trx__table_get(&h->defs, o);
  uint64_t tag = trx_is(o, TRX_GLOBAL_VAR) ? 0x6776 : (trx_is(o, TRX_DATAFLOW_VAR) ? 0x6476 : 0x7676);
  if (idx != NULL) return trx__mix(tag, (uint64_t)(uintptr_t)idx);
  if (!def && !h->map_free_vars) return trx__mix(tag ^ 0x1d, (uint64_t)(uintptr_t)o);
  idx = (const void*)(++h->next);
  if (!trx__table_put(&h->defs, o, idx)) h->oom = true;
  size_t base = h->nframes;
  uint64_t fields = trx__h_push_fields(h, o, trx__ftab(o->type_index), def) != NULL ? trx__h_drive(h, base) : 0;
  return trx__mix(trx__mix(tag, (uint64_t)(uintptr_t)idx), fields);
}

static int trx__cmp_gv_names(const void* x, const void* y) {
  TVMFFIByteArray a = trx__str(&(*(trx_global_var_t* const*)x)->name_hint);
  TVMFFIByteArray b = trx__str(&(*(trx_global_var_t* const*)y)->name_hint);
  size_t n = a.size < b.size ? a.size : b.size;
  int c = memcmp(a.data, b.data, n);
  return c != 0 ? c : (a.size < b.size ? -1 : a.size > b.size);
}

static uint64_t trx__h_module(trx__shash* h, TVMFFIObject* o) {
  const trx_ir_module_t* m = (const trx_ir_module_t*)o;
  int64_t n = tether_map_size(m->functions), k = 0, pos = 0;
  uint64_t r = trx__mix(0x6d6f64, (uint64_t)n);
  trx_global_var_t** gvs = calloc((size_t)(n > 0 ? n : 1), sizeof(*gvs));
  const TVMFFIAny *key, *val;
  if (gvs == NULL) {
    h->oom = true;
    return r;
  }
  while (tether_map_next(m->functions, &pos, &key, &val)) {
    if (tether_any_is_object(key) && trx_is(key->v_obj, TRX_GLOBAL_VAR)) gvs[k++] = (trx_global_var_t*)key->v_obj;
  }
  qsort(gvs, (size_t)k, sizeof(*gvs), trx__cmp_gv_names);
  for (int64_t i = 0; i < k; ++i) {
    if (trx__table_get(&h->defs, gvs[i]) == NULL &&
        !trx__table_put(&h->defs, gvs[i], (const void*)(++h->next))) {
      h->oom = true;
    }
  }
  for (int64_t i = 0; i < k; ++i) {
    TVMFFIAny kv = tether_any_object(gvs[i]);
    TVMFFIByteArray name = trx__str(&gvs[i]->name_hint);
    r = trx__mix(r, trx__bytes_hash(name.data, name.size));
    const TVMFFIAny* f = tether_map_find(m->functions, &kv);
    if (f != NULL) r = trx__mix(r, trx__h_any(h, f, false));
  }
  free(gvs);
  TVMFFIAny attrs = m->attrs != NULL ? tether_any_object(m->attrs) : tether_any_none();
  return trx__mix(r, m->attrs != NULL ? trx__h_any(h, &attrs, false) : 0x6e6f6e65);
}

/* Starts hashing object `o`: true with *out set when the hash is known at once, false when
 * a frame was pushed (or out of memory: then *out is a placeholder). */
static bool trx__h_obj_begin(trx__shash* h, TVMFFIObject* o, bool def, uint64_t* out) {
  *out = 0;
  if (o == NULL) {
    *out = 0x6e6f6e65;
    return true;
  }
  int32_t ti = o->type_index;
  if (ti >= kTVMFFIDynObjectBegin) {
    /* IR nodes and other dynamic types: one table lookup decides (same order as below). */
    const trx__ftab_t* tab = trx__ftab(ti);
    uint64_t m = tab->info != NULL ? tab->isa : trx__isa_mask(ti);
    if ((m >> TRX_OP) & 1) {
      TVMFFIByteArray name = trx__str(&((const trx_op_t*)o)->name);
      *out = trx__mix(0x6f70, trx__bytes_hash(name.data, name.size));
      return true;
    }
    if (((m >> TRX_VAR) & 1) || ((m >> TRX_GLOBAL_VAR) & 1)) {
      *out = trx__h_var(h, o, def);
      return true;
    }
    if ((m >> TRX_IR_MODULE) & 1) {
      *out = trx__h_module(h, o);
      return true;
    }
    if (!tab->tree_node) {
      *out = trx__mix(0x6964, (uint64_t)(uintptr_t)o);
      return true;
    }
    if (!((m >> TRX_TYPE) & 1)) return trx__h_push_fields(h, o, tab, def) == NULL;
    const void* memo = trx__table_get(&h->memo, o);
    if (memo != NULL) {
      *out = (uint64_t)(uintptr_t)memo;
      return true;
    }
    trx__hframe* f = trx__h_push_fields(h, o, tab, def);
    if (f == NULL) return true;
    f->memo = true;
    f->aux = h->nvars;
    return false;
  }
  if (ti == kTVMFFIStr || ti == kTVMFFIBytes) {
    TVMFFIAny v = tether_any_object(o);
    *out = trx__h_any(h, &v, def);
    return true;
  }
  if (ti == kTVMFFIArray || ti == kTVMFFIList) {
    trx__hframe* f = trx__h_push(h, ti == kTVMFFIArray ? HF_ARRAY : HF_LIST, o, def);
    if (f == NULL) return true;
    if (ti == kTVMFFIArray) {
      f->items = trx__arr_items(o, &f->n);
    } else {
      f->n = tether_list_size(o);
    }
    f->r = trx__mix(ti == kTVMFFIArray ? 0x617272 : 0x6c7374, (uint64_t)f->n);
    return false;
  }
  if (ti == kTVMFFIMap || ti == kTVMFFIDict) return trx__h_push(h, HF_MAP, o, def) == NULL;
  if (ti == kTVMFFIShape) {
    int64_t n = tether_shape_size(o);
    *out = trx__mix(0x736870, trx__bytes_hash(tether_shape_data(o), sizeof(int64_t) * (size_t)(n > 0 ? n : 0)));
    return true;
  }
  if (ti == kTVMFFITensor) {
    const DLTensor* t = tether_tensor_dl(o);
    uint64_t r = trx__mix(0x74656e, (uint64_t)t->ndim);
    r = trx__mix(r, (uint64_t)t->dtype.code << 24 | (uint64_t)t->dtype.bits << 16 | t->dtype.lanes);
    for (int32_t i = 0; i < t->ndim; ++i) r = trx__mix(r, (uint64_t)t->shape[i]);
    int64_t nb = trx__tensor_nbytes(t);
    if (nb > 0 && t->device.device_type == kDLCPU) {
      r = trx__mix(r, trx__bytes_hash((const char*)t->data + t->byte_offset, (size_t)nb));
    }
    *out = r;
    return true;
  }
  if (trx_is(o, TRX_OP)) {
    TVMFFIByteArray name = trx__str(&((const trx_op_t*)o)->name);
    *out = trx__mix(0x6f70, trx__bytes_hash(name.data, name.size));
    return true;
  }
  if (trx__is_free_var(o)) {
    *out = trx__h_var(h, o, def);
    return true;
  }
  if (trx_is(o, TRX_IR_MODULE)) {
    *out = trx__h_module(h, o);
    return true;
  }
  if (trx__is_reflected(o)) return trx__h_push_fields(h, o, trx__ftab(ti), def) == NULL;
  *out = trx__mix(0x6964, (uint64_t)(uintptr_t)o);
  return true;
}

/* The hash of a non-object value, or false for objects. */
static inline bool trx__h_leaf(const TVMFFIAny* v, uint64_t* out) {
  TVMFFIByteArray s;
  if (trx__maybe_str(v) && tether_any_get_str(v, &s)) {
    *out = trx__mix(0x737472, trx__bytes_hash(s.data, s.size));
    return true;
  }
  if (tether_any_is_object(v)) return false;
  uint64_t payload;
  switch (v->type_index) {
    case kTVMFFINone:
      payload = 0;
      break;
    case kTVMFFIFloat: {
      double d = v->v_float64;
      if (d == 0.0) d = 0.0; /* -0.0 == 0.0 */
      if (isnan(d)) d = NAN;
      memcpy(&payload, &d, sizeof(payload));
      break;
    }
    case kTVMFFIDataType:
      payload = (uint64_t)v->v_dtype.code << 24 | (uint64_t)v->v_dtype.bits << 16 | v->v_dtype.lanes;
      break;
    case kTVMFFIDevice:
      payload = (uint64_t)(uint32_t)v->v_device.device_type << 32 | (uint32_t)v->v_device.device_id;
      break;
    case kTVMFFIInt:
    case kTVMFFIBool:
      payload = v->v_uint64;
      break;
    default:
      payload = tether_any_hash(v);
  }
  *out = trx__mix((uint64_t)(int64_t)v->type_index, payload);
  return true;
}

static inline bool trx__h_begin(trx__shash* h, const TVMFFIAny* v, bool def, uint64_t* out) {
  return trx__h_leaf(v, out) || trx__h_obj_begin(h, v->v_obj, def, out);
}

/* Folds the hash of the child f handed out last into f. */
static inline void trx__h_absorb(trx__hframe* f, uint64_t x) {
  switch (f->kind) {
    case HF_FIELDS:
      if (f->owned) tether_any_release(&f->held);
      f->owned = false;
      f->r = trx__mix(f->r, x);
      break;
    case HF_ARRAY:
    case HF_LIST:
      f->r = trx__mix(f->r, x);
      break;
    case HF_MAP:
      if (!f->key_done) {
        f->aux = x;
        f->key_done = true;
      } else {
        f->r += trx__mix(f->aux, x);
        f->key_done = false;
      }
      break;
  }
}

static inline uint64_t trx__h_finish(trx__shash* h, const trx__hframe* f) {
  if (f->kind == HF_MAP) return trx__mix(trx__mix(0x6d6170, (uint64_t)tether_map_size(f->o)), f->r);
  uint64_t r = f->r;
  if (f->memo) {
    if (r == 0) r = 1; /* memo values are never 0 (whether memoized or not, for consistency) */
    if (h->nvars == f->aux) (void)trx__table_put(&h->memo, f->o, (const void*)(uintptr_t)r); /* best effort */
  }
  return r;
}

/* Advances the top frame: folds in its children until one needs a frame of its own (pushed
 * on top: true) or it has none left (false).  The frame is addressed by index, since a child
 * may grow (move) the stack. */
static bool trx__h_step(trx__shash* h) {
  size_t idx = h->nframes - 1;
  trx__hframe* f = &h->frames[idx];
  uint64_t x;
  switch (f->kind) {
    case HF_FIELDS: {
      const trx__ftab_t* tab = f->tab;
      TVMFFIObject* o = f->o;
      uint64_t r = f->r;
      for (int64_t i = f->i; i < tab->n; ++i) {
        const trx__fdesc_t* fd = &tab->f[i];
        if (fd->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
        bool owned;
        TVMFFIAny v = trx__field_read(o, fd, &owned);
        if (!trx__h_leaf(&v, &x)) {
          bool def = f->def || (fd->flags & TRX__DEF_FLAGS) != 0;
          f->i = i + 1;
          f->r = r;
          f->held = v; /* a view of the field, or the owning value released by absorb */
          f->owned = owned;
          if (!trx__h_obj_begin(h, v.v_obj, def, &x)) return true;
          f = &h->frames[idx];
          f->owned = false;
        }
        r = trx__mix(r, x);
        if (owned) tether_any_release(&v);
      }
      f->i = tab->n;
      f->r = r;
      return false;
    }
    case HF_ARRAY: {
      const TVMFFIAny* items = f->items;
      int64_t n = f->n;
      uint64_t r = f->r;
      for (int64_t i = f->i; i < n; ++i) {
        if (!trx__h_leaf(&items[i], &x)) {
          f->i = i + 1;
          f->r = r;
          if (!trx__h_obj_begin(h, items[i].v_obj, f->def, &x)) return true;
          f = &h->frames[idx];
        }
        r = trx__mix(r, x);
      }
      f->i = n;
      f->r = r;
      return false;
    }
    default:
      break;
  }
  for (;;) {
    const TVMFFIAny* v;
    if (f->kind == HF_LIST) {
      if (f->i >= f->n) return false;
      v = tether_list_at(f->o, f->i++);
    } else if (f->key_done) { /* HF_MAP */
      v = f->val;
    } else if (!tether_map_next(f->o, &f->n, &v, &f->val)) {
      return false;
    }
    if (!trx__h_leaf(v, &x)) {
      if (!trx__h_obj_begin(h, v->v_obj, f->def, &x)) return true;
      f = &h->frames[idx];
    }
    trx__h_absorb(f, x);
  }
}

static uint64_t trx__h_drive(trx__shash* h, size_t base) {
  for (;;) {
    if (trx__h_step(h)) continue;
    uint64_t x = trx__h_finish(h, &h->frames[h->nframes - 1]);
    h->nframes--;
    if (h->nframes == base) return x;
    trx__h_absorb(&h->frames[h->nframes - 1], x);
  }
}

static uint64_t trx__h_any(trx__shash* h, const TVMFFIAny* v, bool def) {
  size_t base = h->nframes;
  uint64_t x;
  if (trx__h_begin(h, v, def, &x)) return x;
  return trx__h_drive(h, base);
}

uint64_t trx_structural_hash(const TVMFFIAny* v, bool map_free_vars) {
  if (v == NULL) return 0;
  trx__shash h;
  memset(&h, 0, sizeof(h));
  h.map_free_vars = map_free_vars;
  uint64_t r = trx__h_any(&h, v, false);
  trx__table_free(&h.defs);
  trx__table_free(&h.memo);
  free(h.frames);
  return r;
}

/* ---- globals ------------------------------------------------------------------------------- */

/* The arguments of the structural globals: `nvalues` values (named in `params`), then an
 * optional map_free_vars flag (None or absent: false). */
static int trx__structural_args(const char* fn, const char* params, int32_t nvalues,
                                const TVMFFIAny* args, int32_t n, bool* map_free_vars) {
  *map_free_vars = false;
  if (n < nvalues || n > nvalues + 1) {
    return tether_raise("TypeError", "%s expects %d or %d arguments (%s), but %d were given", fn,
                        (int)nvalues, (int)nvalues + 1, params, (int)n);
  }
  if (n == nvalues || args[nvalues].type_index == kTVMFFINone) return 0;
  return tether_arg_bool(fn, args, nvalues, map_free_vars);
}

static int trx__g_structural_equal(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.StructuralEqual";
  bool mfv;
  (void)self;
  if (trx__structural_args(fn, "lhs, rhs, map_free_vars", 2, args, n, &mfv) != 0) return -1;
  *rv = tether_any_bool(trx_structural_equal(&args[0], &args[1], mfv));
  return 0;
}

static int trx__g_structural_hash(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.StructuralHash";
  bool mfv;
  (void)self;
  if (trx__structural_args(fn, "value, map_free_vars", 1, args, n, &mfv) != 0) return -1;
  *rv = tether_any_int((int64_t)trx_structural_hash(&args[0], mfv));
  return 0;
}

static int trx__g_first_mismatch(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.GetFirstStructuralMismatch";
  bool mfv;
  (void)self;
  if (trx__structural_args(fn, "lhs, rhs, map_free_vars", 2, args, n, &mfv) != 0) return -1;
  return trx_structural_first_mismatch(&args[0], &args[1], mfv, rv);
}

/* Appends the repr of v (or its type key when it cannot be printed). */
static void trx__put_repr(trx__buf_t* b, const TVMFFIAny* v) {
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray s;
  if (tether_repr(v, &out) == 0 && tether_any_get_str(&out, &s)) {
    trx__buf_put(b, s.data, s.size);
  } else {
    trx__clear_error();
    trx__buf_puts(b, tether_any_type_key(v));
  }
  tether_any_release(&out);
}

static int trx__g_assert_equal(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.AssertStructuralEqual";
  bool mfv;
  char *lp = NULL, *rp = NULL;
  (void)self;
  (void)rv;
  if (trx__structural_args(fn, "lhs, rhs, map_free_vars", 2, args, n, &mfv) != 0) return -1;
  int rc = trx__structural_compare(&args[0], &args[1], mfv, &lp, &rp);
  if (rc < 0) return -1;
  if (rc == 1) return 0;
  /* The shape of tvm.ir.assert_structural_equal's message (without the underlining). */
  trx__buf_t msg = {0};
  const char* l = lp ? lp : "<root>";
  const char* r = rp ? rp : "<root>";
  trx__buf_puts(&msg, "StructuralEqual check failed, caused by lhs at ");
  trx__buf_puts(&msg, l);
  trx__buf_puts(&msg, ":\nAccess path: ");
  trx__buf_puts(&msg, l);
  trx__buf_puts(&msg, "\n\n");
  trx__put_repr(&msg, &args[0]);
  trx__buf_puts(&msg, "\nand rhs at ");
  trx__buf_puts(&msg, r);
  trx__buf_puts(&msg, ":\nAccess path: ");
  trx__buf_puts(&msg, r);
  trx__buf_puts(&msg, "\n\n");
  trx__put_repr(&msg, &args[1]);
  free(lp);
  free(rp);
  if (msg.oom || msg.s == NULL) {
    free(msg.s);
    return tether_raise("ValueError", "StructuralEqual check failed");
  }
  rc = tether_raise("ValueError", "%s", msg.s);
  free(msg.s);
  return rc;
}

int trx__structural_init(void) {
  if (trx__register_global("ir.StructuralEqual", trx__g_structural_equal, NULL) != 0 ||
      trx__register_global("ir.StructuralHash", trx__g_structural_hash, NULL) != 0 ||
      trx__register_global("ir.GetFirstStructuralMismatch", trx__g_first_mismatch, NULL) != 0 ||
      trx__register_global("ir.AssertStructuralEqual", trx__g_assert_equal, NULL) != 0) {
    return -1;
  }
  return 0;
}

void trx__structural_fini(void) {}
