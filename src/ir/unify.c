/*
 * unify.c -- type unification for the normalizer: the least common type of two types
 * (trx_type_lca, the type of an If) and the erasure of symbolic vars that a scope does not
 * define (trx__type_erase, applied to If branches and function return types).
 *
 * Both follow what apache-tvm 0.27 was observed to do (tests/ir/test_builder.c and
 * tests/python/test_relax_block_builder.py hold the observed cases).
 */
#include "unify.h"

#include "arith.h"
#include "node.h"

static void trx__unref(TVMFFIObject* o) {
  if (o != NULL) TVMFFIObjectDecRef(o);
}

/* ---- var sets ------------------------------------------------------------------------------ */

void trx__var_set_clear(trx__var_set_t* s) {
  for (size_t i = 0; i < s->n; ++i) trx__unref(s->v[i]);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

bool trx__var_set_has(const trx__var_set_t* s, const TVMFFIObject* v) {
  for (size_t i = 0; i < s->n; ++i) {
    if (s->v[i] == v) return true;
  }
  return false;
}

int trx__var_set_add(trx__var_set_t* s, TVMFFIObject* v) {
  if (trx__var_set_has(s, v)) return 0;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 8;
    TVMFFIObject** p = realloc(s->v, cap * sizeof(*p));
    if (p == NULL) return tether_raise("MemoryError", "relax: out of memory while tracking symbolic vars");
    s->v = p;
    s->cap = cap;
  }
  s->v[s->n++] = trx__ref(v);
  return 0;
}

int trx__var_set_add_all(trx__var_set_t* dst, const trx__var_set_t* src) {
  for (size_t i = 0; i < src->n; ++i) {
    if (trx__var_set_add(dst, src->v[i]) != 0) return -1;
  }
  return 0;
}

static bool trx__is_sym_var(const TVMFFIObject* e) {
  return trx__is(e, TRX_VAR) && trx__is(trx__ty(e), TRX_PRIM_TYPE);
}

/* Adds the bare symbolic vars of an Array<Expr> of dims (NULL: none). */
static int trx__defs_dims(trx__var_set_t* s, TVMFFIObject* dims) {
  if (dims == NULL) return 0;
  int64_t n;
  const TVMFFIAny* it = trx__arr_items(dims, &n);
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* d = it[i].type_index >= kTVMFFIStaticObjectBegin ? it[i].v_obj : NULL;
    if (trx__is_sym_var(d) && trx__var_set_add(s, d) != 0) return -1;
  }
  return 0;
}

int trx__var_set_add_defs(trx__var_set_t* s, TVMFFIObject* ty) {
  if (trx__is(ty, TRX_TENSOR_TYPE)) {
    TVMFFIObject* shape = ((trx_tensor_type_t*)ty)->shape;
    return trx__is(shape, TRX_SHAPE_EXPR) ? trx__defs_dims(s, ((trx_shape_expr_t*)shape)->values) : 0;
  }
  if (trx__is(ty, TRX_SHAPE_TYPE)) return trx__defs_dims(s, ((trx_shape_type_t*)ty)->values);
  if (trx__is(ty, TRX_TUPLE_TYPE)) {
    TVMFFIObject* fields = ((trx_tuple_type_t*)ty)->fields;
    int64_t n = tether_array_size(fields);
    for (int64_t i = 0; i < n; ++i) {
      if (trx__var_set_add_defs(s, trx__array_obj(fields, i)) != 0) return -1;
    }
  }
  return 0;
}

/* ---- erasure ------------------------------------------------------------------------------- */

static bool trx__is_prim_binop(const TVMFFIObject* e) {
  for (int k = TRX_PRIM_ADD; k <= TRX_PRIM_MAX; ++k) {
    if (trx__is(e, (trx_kind)k)) return true;
  }
  return false;
}

/* true if every symbolic var in the prim expr `e` is in `s`. */
static bool trx__expr_defined(const trx__var_set_t* s, TVMFFIObject* e) {
  if (trx__is(e, TRX_VAR)) return trx__var_set_has(s, e);
  if (trx__is_prim_binop(e)) {
    trx_binop_t* op = (trx_binop_t*)e;
    return trx__expr_defined(s, op->a) && trx__expr_defined(s, op->b);
  }
  return true;
}

static bool trx__dims_defined(const trx__var_set_t* s, TVMFFIObject* dims) {
  if (dims == NULL) return true;
  int64_t n;
  const TVMFFIAny* it = trx__arr_items(dims, &n);
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* d = it[i].type_index >= kTVMFFIStaticObjectBegin ? it[i].v_obj : NULL;
    if (!trx__expr_defined(s, d)) return false;
  }
  return true;
}

/* The tuple type `ty` with each field mapped by `f` (new reference; `ty` itself when no field
 * changes), NULL with an error raised. */
static TVMFFIObject* trx__tuple_type_map(TVMFFIObject* ty, TVMFFIObject* (*f)(const void*, TVMFFIObject*),
                                        const void* ctx) {
  TVMFFIObject* fields = ((trx_tuple_type_t*)ty)->fields;
  int64_t n = tether_array_size(fields);
  TVMFFIObject *out = trx__empty_array(), *node = NULL;
  bool changed = false;
  if (out == NULL) return NULL;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* field = trx__array_obj(fields, i);
    TVMFFIObject* nf = f(ctx, field);
    if (nf == NULL) goto fail;
    changed |= nf != field;
    int rc = trx__array_push_obj(&out, nf);
    trx__unref(nf);
    if (rc != 0) goto fail;
  }
  node = changed ? trx_tuple_type_new(out) : trx__ref(ty);
fail:
  trx__unref(out);
  return node;
}

static TVMFFIObject* trx__erase_field(const void* s, TVMFFIObject* ty) { return trx__type_erase(s, ty); }

TVMFFIObject* trx__type_erase(const trx__var_set_t* s, TVMFFIObject* ty) {
  if (ty == NULL) return NULL;
  if (trx__is(ty, TRX_TENSOR_TYPE)) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)ty;
    bool keep = t->shape == NULL ||
                (trx__is(t->shape, TRX_SHAPE_EXPR) && trx__dims_defined(s, ((trx_shape_expr_t*)t->shape)->values));
    return keep ? trx__ref(ty) : trx_tensor_type_new(NULL, trx_tensor_dtype(t), t->ndim);
  }
  if (trx__is(ty, TRX_SHAPE_TYPE)) {
    trx_shape_type_t* t = (trx_shape_type_t*)ty;
    return trx__dims_defined(s, t->values) ? trx__ref(ty) : trx_shape_type_new(NULL, t->ndim);
  }
  return trx__is(ty, TRX_TUPLE_TYPE) ? trx__tuple_type_map(ty, trx__erase_field, s) : trx__ref(ty);
}

/* ---- call return types ----------------------------------------------------------------------
 * The callee's symbolic vars bound to the argument dims met while matching param types
 * against argument types (trx__type_call_ret). */

typedef struct {
  TVMFFIObject** var; /* the callee's vars (a reference each) */
  TVMFFIObject** val; /* the argument dims they are bound to (a reference each) */
  size_t n, cap;
} trx__var_map_t;

static void trx__var_map_clear(trx__var_map_t* m) {
  for (size_t i = 0; i < m->n; ++i) {
    trx__unref(m->var[i]);
    trx__unref(m->val[i]);
  }
  free(m->var);
  free(m->val);
}

/* The dim bound to `v` (borrowed), or NULL. */
static TVMFFIObject* trx__var_map_get(const trx__var_map_t* m, const TVMFFIObject* v) {
  for (size_t i = 0; i < m->n; ++i) {
    if (m->var[i] == v) return m->val[i];
  }
  return NULL;
}

static int trx__var_map_put(trx__var_map_t* m, TVMFFIObject* var, TVMFFIObject* val) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 8;
    TVMFFIObject** pv = realloc(m->var, cap * sizeof(*pv));
    if (pv == NULL) return tether_raise("MemoryError", "relax: out of memory while binding symbolic vars");
    m->var = pv;
    TVMFFIObject** pw = realloc(m->val, cap * sizeof(*pw));
    if (pw == NULL) return tether_raise("MemoryError", "relax: out of memory while binding symbolic vars");
    m->val = pw;
    m->cap = cap;
  }
  m->var[m->n] = trx__ref(var);
  m->val[m->n++] = trx__ref(val);
  return 0;
}

/* The match functions below return 0 (matched, or nothing provable either way), 1 (a
 * mismatch TVM reports: a different kind, dtype, ndim, arity or constant dim, or an argument
 * of AnyType / unknown dtype / unknown ndim where the param is specific), -1 (error raised). */

/* Binds the bare var dims of `pdims` (a param's) to the dims of `adims` (an argument's) at the
 * same position, the first time each var is met.  Both may not be NULL. */
static int trx__bind_dims(trx__var_map_t* m, TVMFFIObject* pdims, TVMFFIObject* adims) {
  int64_t n = tether_array_size(pdims);
  if (n != tether_array_size(adims)) return 1;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject *p = trx__array_obj(pdims, i), *a = trx__array_obj(adims, i);
    int64_t pv, av;
    if (trx__is_sym_var(p)) {
      if (a != NULL && trx__var_map_get(m, p) == NULL && trx__var_map_put(m, p, a) != 0) return -1;
    } else if (trx__int_imm_value(p, &pv) && trx__int_imm_value(a, &av) && pv != av) {
      return 1;
    }
  }
  return 0;
}

/* Matches the param type `p` against the argument type `a`, binding as it goes. */
static int trx__bind_type(trx__var_map_t* m, TVMFFIObject* p, TVMFFIObject* a) {
  if (trx__is(p, TRX_TENSOR_TYPE)) {
    if (!trx__is(a, TRX_TENSOR_TYPE)) return 1;
    trx_tensor_type_t *pt = (trx_tensor_type_t*)p, *at = (trx_tensor_type_t*)a;
    DLDataType pd = trx_tensor_dtype(pt);
    if (!trx__dtype_is_void(pd) && !trx__dtype_equal(pd, trx_tensor_dtype(at))) return 1;
    if (pt->ndim != -1 && pt->ndim != at->ndim) return 1;
    if (pt->shape == NULL || at->shape == NULL || pt->shape == at->shape) return 0;
    if (!trx__is(pt->shape, TRX_SHAPE_EXPR) || !trx__is(at->shape, TRX_SHAPE_EXPR)) return 0;
    return trx__bind_dims(m, ((trx_shape_expr_t*)pt->shape)->values, ((trx_shape_expr_t*)at->shape)->values);
  }
  if (trx__is(p, TRX_SHAPE_TYPE)) {
    if (!trx__is(a, TRX_SHAPE_TYPE)) return 1;
    trx_shape_type_t *pt = (trx_shape_type_t*)p, *at = (trx_shape_type_t*)a;
    if (pt->ndim != -1 && pt->ndim != at->ndim) return 1;
    if (pt->values == NULL || at->values == NULL) return 0;
    return trx__bind_dims(m, pt->values, at->values);
  }
  if (trx__is(p, TRX_PRIM_TYPE)) {
    if (!trx__is(a, TRX_PRIM_TYPE)) return 1;
    return trx__dtype_equal(((trx_prim_type_t*)p)->dtype, ((trx_prim_type_t*)a)->dtype) ? 0 : 1;
  }
  if (trx__is(p, TRX_TUPLE_TYPE)) {
    if (!trx__is(a, TRX_TUPLE_TYPE)) return 1;
    TVMFFIObject *pf = ((trx_tuple_type_t*)p)->fields, *af = ((trx_tuple_type_t*)a)->fields;
    int64_t n = tether_array_size(pf);
    if (n != tether_array_size(af)) return 1;
    for (int64_t i = 0; i < n; ++i) {
      int rc = trx__bind_type(m, trx__array_obj(pf, i), trx__array_obj(af, i));
      if (rc != 0) return rc;
    }
    return 0;
  }
  /* A FuncType param binds nothing (its param types say nothing about the caller's dims). */
  if (trx__is(p, TRX_FUNC_TYPE)) return trx__is(a, TRX_FUNC_TYPE) ? 0 : 1;
  return 0;
}

/* `e` (a prim expr) with the bound vars replaced; *unbound set when it holds a symbolic var
 * that is not bound.  New reference (`e` itself when nothing changes), NULL with an error. */
static TVMFFIObject* trx__subst_expr(const trx__var_map_t* m, TVMFFIObject* e, bool* unbound) {
  if (trx__is_sym_var(e)) {
    TVMFFIObject* v = trx__var_map_get(m, e);
    if (v == NULL) *unbound = true;
    return trx__ref(v != NULL ? v : e);
  }
  if (!trx__is_prim_binop(e)) return trx__ref(e);
  trx_binop_t* op = (trx_binop_t*)e;
  TVMFFIObject* a = trx__subst_expr(m, op->a, unbound);
  TVMFFIObject* b = a != NULL ? trx__subst_expr(m, op->b, unbound) : NULL;
  TVMFFIObject* r = NULL;
  if (b != NULL) {
    trx_kind kind = TRX_PRIM_ADD;
    while (kind < TRX_PRIM_MAX && !trx__is(e, kind)) kind = (trx_kind)(kind + 1);
    r = (a == op->a && b == op->b) ? trx__ref(e) : trx_binop_new(kind, a, b);
  }
  trx__unref(a);
  trx__unref(b);
  return r;
}

/* `dims` (Array of prim exprs) with the bound vars replaced, each changed dim simplified.  New
 * reference (`dims` itself when nothing changes); *unbound as trx__subst_expr. */
static TVMFFIObject* trx__subst_dims(const trx__var_map_t* m, TVMFFIObject* dims, bool* unbound) {
  int64_t n = tether_array_size(dims);
  TVMFFIObject *out = trx__empty_array(), *r = NULL;
  bool changed = false;
  if (out == NULL) return NULL;
  for (int64_t i = 0; i < n && !*unbound; ++i) {
    TVMFFIObject* d = trx__array_obj(dims, i);
    TVMFFIObject* nd = trx__subst_expr(m, d, unbound);
    if (nd != NULL && nd != d && !*unbound) {
      TVMFFIObject* s = trx_simplify(nd);
      trx__unref(nd);
      nd = s;
    }
    if (nd == NULL) goto fail;
    changed |= nd != d;
    int rc = trx__array_push_obj(&out, nd);
    trx__unref(nd);
    if (rc != 0) goto fail;
  }
  r = changed && !*unbound ? trx__ref(out) : trx__ref(dims);
fail:
  trx__unref(out);
  return r;
}

static TVMFFIObject* trx__subst_field(const void* m, TVMFFIObject* ty);

/* `ty` with the bound vars substituted (see trx__type_call_ret).  New reference. */
static TVMFFIObject* trx__type_subst(const trx__var_map_t* m, TVMFFIObject* ty) {
  if (trx__is(ty, TRX_TENSOR_TYPE)) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)ty;
    if (t->shape == NULL) return trx__ref(ty);
    bool unbound = !trx__is(t->shape, TRX_SHAPE_EXPR);
    TVMFFIObject* dims = unbound ? NULL : trx__subst_dims(m, ((trx_shape_expr_t*)t->shape)->values, &unbound);
    if (!unbound && dims == NULL) return NULL;
    TVMFFIObject* r = NULL;
    if (unbound) {
      r = trx_tensor_type_new(NULL, trx_tensor_dtype(t), t->ndim);
    } else if (dims == ((trx_shape_expr_t*)t->shape)->values) {
      r = trx__ref(ty);
    } else {
      TVMFFIObject* shape = trx_shape_expr_new(dims);
      r = shape != NULL ? trx_tensor_type_new(shape, trx_tensor_dtype(t), -1) : NULL;
      trx__unref(shape);
    }
    trx__unref(dims);
    return r;
  }
  if (trx__is(ty, TRX_SHAPE_TYPE)) {
    trx_shape_type_t* t = (trx_shape_type_t*)ty;
    if (t->values == NULL) return trx__ref(ty);
    bool unbound = false;
    TVMFFIObject* dims = trx__subst_dims(m, t->values, &unbound);
    if (dims == NULL) return NULL;
    TVMFFIObject* r = unbound ? trx_shape_type_new(NULL, t->ndim)
                              : dims == t->values ? trx__ref(ty) : trx_shape_type_new(dims, -1);
    trx__unref(dims);
    return r;
  }
  return trx__is(ty, TRX_TUPLE_TYPE) ? trx__tuple_type_map(ty, trx__subst_field, m) : trx__ref(ty);
}

static TVMFFIObject* trx__subst_field(const void* m, TVMFFIObject* ty) { return trx__type_subst(m, ty); }

int trx__type_call_ret(TVMFFIObject* params, TVMFFIObject* args, TVMFFIObject* ret, TVMFFIObject** out,
                       int64_t* mismatch) {
  trx__var_map_t m = {0};
  int rc = 0;
  int64_t n = tether_array_size(params);
  *out = NULL;
  *mismatch = -1;
  if (tether_array_size(args) < n) n = tether_array_size(args);
  for (int64_t i = 0; i < n && rc == 0; ++i) {
    rc = trx__bind_type(&m, trx__array_obj(params, i), trx__ty(trx__array_obj(args, i)));
    if (rc == 1) *mismatch = i;
  }
  if (rc == 0 && (*out = trx__type_subst(&m, ret)) == NULL) rc = -1;
  trx__var_map_clear(&m);
  return rc < 0 ? -1 : 0;
}

/* ---- least common type ----------------------------------------------------------------------
 * The rules, as observed in apache-tvm 0.27 (relax.analysis.type_lca and If):
 * - AnyType on either side, or two different kinds: AnyType.
 * - TensorType: dtype kept if equal (else unknown); ndim kept if equal (else -1, no shape);
 *   the shape kept only if both have one and they are the same shape Var or ShapeExprs whose
 *   dims are provably equal (n * 2 vs n + n: kept; n vs m: dropped).
 * - ShapeType: ndim kept if equal (else -1); values kept if provably equal (else ndim only).
 * - PrimType: the type if the dtypes are equal, else AnyType.
 * - TupleType: field by field when the arities match, else AnyType.
 * - FuncType: purity = both pure.  An opaque left side unifies the returns and stays itself if
 *   that changes nothing; an opaque right side or a different arity gives an opaque function
 *   of the unified return; else params and return unify field by field (params too, not
 *   contravariantly), the left side kept if nothing changed.
 * - PackedFuncType: PackedFuncType with itself, else AnyType.  (TVM 0.27 raises InternalError
 *   "ObjectFunctor calls un-registered function on type relax.PackedFuncType" when the left
 *   side is a PackedFuncType other than the same object; tether gives the total answer.)
 * Whenever the result equals the left operand, the left operand itself is returned, which the
 * function and tuple rules use to tell "unchanged". */

static TVMFFIObject* trx__any(void) { return trx_any_type_new(); }

/* true if two shapes (ShapeExpr or shape Var; may be NULL) are the same shape. */
static bool trx__same_dims(TVMFFIObject* a, TVMFFIObject* b) {
  if (a == b) return true;
  if (a == NULL || b == NULL) return false;
  int64_t na, nb;
  const TVMFFIAny* xa = trx__arr_items(a, &na);
  const TVMFFIAny* xb = trx__arr_items(b, &nb);
  if (na != nb) return false;
  for (int64_t i = 0; i < na; ++i) {
    if (xa[i].type_index < kTVMFFIStaticObjectBegin || xb[i].type_index < kTVMFFIStaticObjectBegin) return false;
    if (xa[i].v_obj != xb[i].v_obj && trx_prove_equal(xa[i].v_obj, xb[i].v_obj) != TRX_PROVE_TRUE) return false;
  }
  return true;
}

static bool trx__same_shape(TVMFFIObject* a, TVMFFIObject* b) {
  if (a == b) return true;
  if (!trx__is(a, TRX_SHAPE_EXPR) || !trx__is(b, TRX_SHAPE_EXPR)) return false;
  return trx__same_dims(((trx_shape_expr_t*)a)->values, ((trx_shape_expr_t*)b)->values);
}

static TVMFFIObject* trx__lca_tensor(trx_tensor_type_t* a, trx_tensor_type_t* b) {
  DLDataType da = trx_tensor_dtype(a);
  DLDataType dt = trx__dtype_equal(da, trx_tensor_dtype(b)) ? da : trx__dtype_void;
  int64_t ndim = a->ndim == b->ndim ? a->ndim : -1;
  TVMFFIObject* shape = ndim != -1 && a->shape != NULL && b->shape != NULL && trx__same_shape(a->shape, b->shape)
                            ? a->shape
                            : NULL;
  if (trx__dtype_equal(dt, da) && ndim == a->ndim && shape == a->shape) return trx__ref((TVMFFIObject*)a);
  return trx_tensor_type_new(shape, dt, shape != NULL ? -1 : ndim);
}

static TVMFFIObject* trx__lca_shape(trx_shape_type_t* a, trx_shape_type_t* b) {
  int64_t ndim = a->ndim == b->ndim ? a->ndim : -1;
  TVMFFIObject* values =
      ndim != -1 && a->values != NULL && b->values != NULL && trx__same_dims(a->values, b->values) ? a->values : NULL;
  if (ndim == a->ndim && values == a->values) return trx__ref((TVMFFIObject*)a);
  return trx_shape_type_new(values, values != NULL ? -1 : ndim);
}

/* Field-wise LCA of two Arrays of Types of one length.  *out: new Array, or NULL when every
 * field unified to a's own (unchanged).  0, or -1 with an error raised. */
static int trx__lca_fields(TVMFFIObject* a, TVMFFIObject* b, TVMFFIObject** out) {
  int64_t n = tether_array_size(a);
  TVMFFIObject* arr = trx__array_of(NULL, 0);
  bool changed = false;
  *out = NULL;
  if (arr == NULL) return -1;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* fa = trx__array_obj(a, i);
    TVMFFIObject* f = trx_type_lca(fa, trx__array_obj(b, i));
    if (f == NULL) goto fail;
    changed |= f != fa;
    int rc = trx__array_push_obj(&arr, f);
    trx__unref(f);
    if (rc != 0) goto fail;
  }
  if (changed) {
    *out = arr;
  } else {
    trx__unref(arr);
  }
  return 0;
fail:
  trx__unref(arr);
  return -1;
}

static TVMFFIObject* trx__lca_tuple(trx_tuple_type_t* a, trx_tuple_type_t* b) {
  if (tether_array_size(a->fields) != tether_array_size(b->fields)) return trx__any();
  TVMFFIObject* fields = NULL;
  if (trx__lca_fields(a->fields, b->fields, &fields) != 0) return NULL;
  if (fields == NULL) return trx__ref((TVMFFIObject*)a);
  TVMFFIObject* t = trx_tuple_type_new(fields);
  trx__unref(fields);
  return t;
}

static TVMFFIObject* trx__lca_func(trx_func_type_t* a, trx_func_type_t* b) {
  bool purity = a->purity && b->purity;
  TVMFFIObject* ret = trx_type_lca(a->ret, b->ret);
  TVMFFIObject *params = NULL, *t = NULL;
  if (ret == NULL) return NULL;
  if (a->params == NULL) {
    t = ret == a->ret ? trx__ref((TVMFFIObject*)a) : trx_func_type_new(NULL, ret, purity);
  } else if (b->params == NULL || tether_array_size(a->params) != tether_array_size(b->params)) {
    t = trx_func_type_new(NULL, ret, purity);
  } else if (trx__lca_fields(a->params, b->params, &params) == 0) {
    if (params == NULL && ret == a->ret) {
      t = trx__ref((TVMFFIObject*)a);
    } else {
      t = trx_func_type_new(params != NULL ? params : a->params, ret, purity);
    }
  }
  trx__unref(params);
  trx__unref(ret);
  return t;
}

TVMFFIObject* trx_type_lca(TVMFFIObject* a, TVMFFIObject* b) {
  if (a == NULL || b == NULL) return trx__any();
  if (a == b) return trx__ref(a);
  if (trx__is(a, TRX_ANY_TYPE)) return trx__ref(a);
  if (trx__is(a, TRX_TENSOR_TYPE)) {
    return trx__is(b, TRX_TENSOR_TYPE) ? trx__lca_tensor((trx_tensor_type_t*)a, (trx_tensor_type_t*)b) : trx__any();
  }
  if (trx__is(a, TRX_SHAPE_TYPE)) {
    return trx__is(b, TRX_SHAPE_TYPE) ? trx__lca_shape((trx_shape_type_t*)a, (trx_shape_type_t*)b) : trx__any();
  }
  if (trx__is(a, TRX_PRIM_TYPE)) {
    bool same = trx__is(b, TRX_PRIM_TYPE) &&
                trx__dtype_equal(((trx_prim_type_t*)a)->dtype, ((trx_prim_type_t*)b)->dtype);
    return same ? trx__ref(a) : trx__any();
  }
  if (trx__is(a, TRX_TUPLE_TYPE)) {
    return trx__is(b, TRX_TUPLE_TYPE) ? trx__lca_tuple((trx_tuple_type_t*)a, (trx_tuple_type_t*)b) : trx__any();
  }
  if (trx__is(a, TRX_FUNC_TYPE)) {
    return trx__is(b, TRX_FUNC_TYPE) ? trx__lca_func((trx_func_type_t*)a, (trx_func_type_t*)b) : trx__any();
  }
  if (trx__is(a, TRX_PACKED_FUNC_TYPE)) return trx__is(b, TRX_PACKED_FUNC_TYPE) ? trx__ref(a) : trx__any();
  if (trx__is(a, TRX_STRING_TYPE)) return trx__is(b, TRX_STRING_TYPE) ? trx__ref(a) : trx__any();
  TVMFFIAny av = tether_any_object(a), bv = tether_any_object(b);
  return trx_structural_equal(&av, &bv, false) ? trx__ref(a) : trx__any();
}

/* ---- match_cast's static check -------------------------------------------------------------- */

/* true when the dims `a` and `b` (Arrays of int64 Exprs) provably differ somewhere (their
 * lengths are equal). */
static bool trx__dims_differ(TVMFFIObject* a, TVMFFIObject* b) {
  int64_t na, nb;
  const TVMFFIAny* da = trx__arr_items(a, &na);
  const TVMFFIAny* db = trx__arr_items(b, &nb);
  for (int64_t i = 0; i < na && i < nb; ++i) {
    if (trx_prove_equal(da[i].v_obj, db[i].v_obj) == TRX_PROVE_FALSE) return true;
  }
  return false;
}

bool trx__type_cast_impossible(TVMFFIObject* value_ty, TVMFFIObject* ty) {
  if (value_ty == NULL || ty == NULL || trx__is(value_ty, TRX_ANY_TYPE) || trx__is(ty, TRX_ANY_TYPE)) return false;
  if (value_ty->type_index != ty->type_index) return true;
  if (trx__is(ty, TRX_TENSOR_TYPE)) {
    const trx_tensor_type_t *v = (const trx_tensor_type_t*)value_ty, *t = (const trx_tensor_type_t*)ty;
    DLDataType vd = trx_tensor_dtype(v), td = trx_tensor_dtype(t);
    if (!trx__dtype_is_void(vd) && !trx__dtype_is_void(td) && !trx__dtype_equal(vd, td)) return true;
    if (v->ndim != -1 && t->ndim != -1 && v->ndim != t->ndim) return true;
    TVMFFIObject* vs = trx__is(v->shape, TRX_SHAPE_EXPR) ? ((trx_shape_expr_t*)v->shape)->values : NULL;
    TVMFFIObject* ts = trx__is(t->shape, TRX_SHAPE_EXPR) ? ((trx_shape_expr_t*)t->shape)->values : NULL;
    return vs != NULL && ts != NULL && trx__dims_differ(vs, ts);
  }
  if (trx__is(ty, TRX_SHAPE_TYPE)) {
    const trx_shape_type_t *v = (const trx_shape_type_t*)value_ty, *t = (const trx_shape_type_t*)ty;
    if (v->ndim != -1 && t->ndim != -1 && v->ndim != t->ndim) return true;
    return v->values != NULL && t->values != NULL && trx__dims_differ(v->values, t->values);
  }
  if (trx__is(ty, TRX_PRIM_TYPE)) {
    return !trx__dtype_equal(((const trx_prim_type_t*)value_ty)->dtype, ((const trx_prim_type_t*)ty)->dtype);
  }
  if (trx__is(ty, TRX_TUPLE_TYPE)) {
    int64_t nv, nt;
    const TVMFFIAny* fv = trx__arr_items(((const trx_tuple_type_t*)value_ty)->fields, &nv);
    const TVMFFIAny* ft = trx__arr_items(((const trx_tuple_type_t*)ty)->fields, &nt);
    if (nv != nt) return true;
    for (int64_t i = 0; i < nt; ++i) {
      if (trx__type_cast_impossible(fv[i].v_obj, ft[i].v_obj)) return true;
    }
  }
  return false;
}
