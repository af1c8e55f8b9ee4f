/*
 * op_tensor.c -- constructors and type inference of the tensor ops of TRX_OPS (op.h):
 * matmul, the elementwise binary ops, shape manipulation (reshape, permute_dims,
 * expand_dims, squeeze, flatten, concat, split, strided_slice, take, broadcast_to),
 * reductions (mean/sum/max), astype, clip and where.  Rules and error texts are TVM's
 * (relax.md section 1, and what apache-tvm 0.27 does for the ops the spec leaves out);
 * registration is op.c's (no init here).
 */
#include "op.h"

#include "arith.h"

/* ---- small helpers ------------------------------------------------------------------------- */

/* A zeroed array of n dim slots (n may be 0). */
static TVMFFIObject** trx__dims_new(int64_t n) {
  TVMFFIObject** d = calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIObject*));
  if (d == NULL) tether_raise("MemoryError", "out of memory");
  return d;
}
static void trx__dims_free(TVMFFIObject** d, int64_t n) {
  if (d == NULL) return;
  for (int64_t i = 0; i < n; ++i)
    if (d[i] != NULL) TVMFFIObjectDecRef(d[i]);
  free(d);
}
/* TensorType from n stolen dims; frees the slot array. */
static TVMFFIObject* trx__tensor_steal_free(TVMFFIObject** d, int64_t n, DLDataType dtype) {
  TVMFFIObject* ty = trx__tensor_from_dims_steal(d, n, dtype);
  free(d);
  return ty;
}
/* TensorType copying `tt` with another dtype. */
static TVMFFIObject* trx__with_dtype(const trx_tensor_type_t* tt, DLDataType dtype) {
  return trx__tensor_new(tt->shape, dtype, tt->ndim);
}
static TVMFFIObject* trx__tuple_type_of(TVMFFIObject** fields, int64_t n) {
  TVMFFIObject* arr = trx__array_of(fields, n);
  if (arr == NULL) return NULL;
  TVMFFIObject* ty = trx_tuple_type_new(arr);
  TVMFFIObjectDecRef(arr);
  return ty;
}
static bool trx__const_eq(TVMFFIObject* e, int64_t v) {
  int64_t c;
  return e != NULL && trx_as_const_int(e, &c) && c == v;
}
static void trx__clear_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err) TVMFFIObjectDecRef(err);
}
/* The product of a dims Array (new reference). */
static TVMFFIObject* trx__product(TVMFFIObject* values) {
  TVMFFIObject* p = trx_int64(1);
  int64_t n = tether_array_size(values);
  for (int64_t i = 0; i < n && p != NULL; ++i) {
    TVMFFIObject* q = trx_mul(p, trx__dim(values, i));
    TVMFFIObjectDecRef(p);
    p = q;
  }
  return p;
}
/* A one-attrs-object Call (x = arg 0 converted from a[0]). */
static int trx__make_unary_call(const trx__op_def_t* def, const TVMFFIAny* a, TVMFFIObject* attrs,
                                TVMFFIObject** out) {
  TVMFFIObject* x = NULL;
  if (trx__arg_expr(def, a, 0, &x) != 0) {
    TVMFFIObjectDecRef(attrs);
    return -1;
  }
  int rc = trx__make_call_steal_attrs(def, &x, 1, attrs, out);
  TVMFFIObjectDecRef(x);
  return rc;
}

/* ---- matmul --------------------------------------------------------------------------------- */

int trx__make_matmul(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* args[2] = {NULL, NULL};
  trx_matmul_attrs_t* attrs = NULL;
  int rc = -1;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &args[0]) != 0 || trx__arg_expr(def, a, 1, &args[1]) != 0) goto done;
  attrs = (trx_matmul_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto done;
  if (trx__arg_opt_dtype(def, a, 2, true, &attrs->out_dtype) != 0) {
    TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    goto done;
  }
  rc = trx__make_call_steal_attrs(def, args, 2, (TVMFFIObject*)attrs, out);
done:
  if (args[0]) TVMFFIObjectDecRef(args[0]);
  if (args[1]) TVMFFIObjectDecRef(args[1]);
  return rc;
}

static int trx__matmul_scalar_error(trx_call_t* call, const char* side, TVMFFIObject* arg) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "Matmul operands must not be scalar.  However, the expression ");
  trx__sb_node(&sb, (TVMFFIObject*)call);
  trx__sb_printf(&sb, " has a %s of ", side);
  trx__sb_node(&sb, arg);
  trx__sb_printf(&sb, " with type ");
  trx__sb_node(&sb, trx__ty(arg));
  trx__sb_printf(&sb, ", which is scalar (zero-dimensional) tensor.");
  return trx__sb_raise(&sb, "ValueError");
}

TVMFFIObject* trx__infer_matmul(const trx__op_def_t* def, trx_call_t* call) {
  trx_matmul_attrs_t* attrs = (trx_matmul_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  DLDataType dtype;
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  if (attrs->out_dtype.type_index == kTVMFFIDataType) {
    dtype = attrs->out_dtype.v_dtype;
  } else if (trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], &dtype) != 0) {
    return NULL;
  }
  if (tt[0]->ndim == -1 || tt[1]->ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t n1 = tt[0]->ndim, n2 = tt[1]->ndim;
  if (n1 == 0 && trx__matmul_scalar_error(call, "LHS", trx__call_arg(call, 0))) return NULL;
  if (n2 == 0 && trx__matmul_scalar_error(call, "RHS", trx__call_arg(call, 1))) return NULL;
  bool prepend = n1 == 1, append = n2 == 1;
  int64_t e1 = prepend ? 2 : n1, e2 = append ? 2 : n2;
  int64_t out_ndim = (e1 > e2 ? e1 : e2) - prepend - append;
  TVMFFIObject* v1 = trx__shape_values(tt[0]);
  TVMFFIObject* v2 = trx__shape_values(tt[1]);
  if (v1 == NULL || v2 == NULL) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject *b1 = NULL, *b2 = NULL, *batch = NULL, *ty = NULL;
  TVMFFIObject** d = NULL;
  {
    TVMFFIObject* tmp[64];
    int64_t nb1 = e1 - 2, nb2 = e2 - 2;
    if (nb1 > 64 || nb2 > 64) {
      tether_raise("ValueError", "%s: too many dimensions", def->full_name);
      return NULL;
    }
    for (int64_t i = 0; i < nb1; ++i) tmp[i] = trx__dim(v1, i);
    b1 = trx__array_of(tmp, nb1);
    for (int64_t i = 0; i < nb2; ++i) tmp[i] = trx__dim(v2, i);
    b2 = trx__array_of(tmp, nb2);
  }
  if (b1 == NULL || b2 == NULL || trx__broadcast(def, b1, b2, &batch) != 0) goto done;
  if (batch == NULL) {
    ty = trx__tensor_unknown(dtype, out_ndim);
    goto done;
  }
  {
    TVMFFIObject* r1 = trx__dim(v1, n1 - 1);
    TVMFFIObject* r2 = trx__dim(v2, append ? 0 : n2 - 2);
    if (trx_prove_equal(r1, r2) == TRX_PROVE_FALSE) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Matmul requires the reduction length of the operands to be equal.  However, the LHS ");
      trx__sb_node(&sb, trx__call_arg(call, 0));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[0]->shape);
      trx__sb_printf(&sb, ", while the RHS ");
      trx__sb_node(&sb, trx__call_arg(call, 1));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[1]->shape);
      trx__sb_printf(&sb, ".  The reduction dimensions of ");
      trx__sb_node(&sb, r1);
      trx__sb_printf(&sb, " and ");
      trx__sb_node(&sb, r2);
      trx__sb_printf(&sb, " are not equal.");
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
  }
  {
    int64_t nbatch = tether_array_size(batch), k = 0;
    d = trx__dims_new(out_ndim);
    if (d == NULL) goto done;
    for (int64_t i = 0; i < nbatch; ++i) d[k++] = trx__ref(trx__dim(batch, i));
    if (!prepend) d[k++] = trx__ref(trx__dim(v1, n1 - 2));
    if (!append) d[k++] = trx__ref(trx__dim(v2, n2 - 1));
    ty = trx__tensor_steal_free(d, out_ndim, dtype);
  }
done:
  if (b1) TVMFFIObjectDecRef(b1);
  if (b2) TVMFFIObjectDecRef(b2);
  if (batch) TVMFFIObjectDecRef(batch);
  return ty;
}

/* ---- elementwise binary ------------------------------------------------------------------------- */

static int trx__binary_operand_error(trx_call_t* call, const char* side, TVMFFIObject* arg) {
  trx__sb_t sb = {0};
  bool lhs = side[0] == 'L';
  trx__sb_printf(&sb,
                 "Check failed: (%s_ty.as<PrimTypeNode>() || %s_ty.as<TensorTypeNode>()) is false: "
                 "Arguments to binary operators must be either R.Tensor or R.Prim types, but "
                 "expression ",
                 lhs ? "lhs" : "rhs", lhs ? "lhs" : "rhs");
  trx__sb_node(&sb, (TVMFFIObject*)call);
  trx__sb_printf(&sb, " has %s ", side);
  trx__sb_node(&sb, arg);
  trx__sb_printf(&sb, ", which has Type ");
  trx__sb_node(&sb, trx__ty(arg));
  return trx__sb_raise(&sb, "TypeError");
}

TVMFFIObject* trx__infer_binary(const trx__op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) != 2) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " op should have 2 arguments");
    trx__sb_raise(&sb, "ValueError");
    return NULL;
  }
  TVMFFIObject* arg[2] = {trx__call_arg(call, 0), trx__call_arg(call, 1)};
  TVMFFIObject* ty[2] = {trx__ty(arg[0]), trx__ty(arg[1])};
  for (int i = 0; i < 2; ++i) {
    if (!trx_is(ty[i], TRX_TENSOR_TYPE) && !trx_is(ty[i], TRX_PRIM_TYPE)) {
      trx__binary_operand_error(call, i == 0 ? "LHS" : "RHS", arg[i]);
      return NULL;
    }
  }
  DLDataType dtype;
  if (def->flags & TRX__F_COMPARE) {
    dtype = trx__dtype_bool;
  } else if (trx__binary_dtype(call, ty[0], ty[1], &dtype) != 0) {
    return NULL;
  }
  if (trx_is(ty[0], TRX_PRIM_TYPE) && trx_is(ty[1], TRX_PRIM_TYPE)) return trx__prim_type_shared(dtype);
  /* a PrimType operand broadcasts as shape [1] */
  TVMFFIObject* one = trx_int64(1);
  TVMFFIObject* unit = one ? trx__array_of(&one, 1) : NULL;
  if (one) TVMFFIObjectDecRef(one);
  if (unit == NULL) return NULL;
  TVMFFIObject* vals[2];
  int64_t nd[2];
  TVMFFIObject* shp[2];
  for (int i = 0; i < 2; ++i) {
    if (trx_is(ty[i], TRX_PRIM_TYPE)) {
      vals[i] = unit;
      nd[i] = 1;
      shp[i] = NULL;
    } else {
      trx_tensor_type_t* t = (trx_tensor_type_t*)ty[i];
      vals[i] = trx__shape_type_values(t);
      nd[i] = t->ndim;
      shp[i] = t->shape;
    }
  }
  TVMFFIObject* result = NULL;
  if (nd[0] == -1 || nd[1] == -1) {
    result = trx__tensor_unknown(dtype, -1);
  } else if (vals[0] != NULL && vals[1] != NULL) {
    TVMFFIObject* out = NULL;
    if (trx__broadcast(def, vals[0], vals[1], &out) == 0) {
      if (out == NULL) {
        result = trx__tensor_unknown(dtype, nd[0] > nd[1] ? nd[0] : nd[1]);
      } else {
        TVMFFIObject* se = trx_shape_expr_new(out);
        if (se) {
          result = trx__tensor_new(se, dtype, tether_array_size(out));
          TVMFFIObjectDecRef(se);
        }
        TVMFFIObjectDecRef(out);
      }
    }
  } else if (shp[0] != NULL && shp[0] == shp[1]) {
    result = trx__tensor_new(shp[0], dtype, nd[0]);
  } else {
    result = trx__tensor_unknown(dtype, nd[0] > nd[1] ? nd[0] : nd[1]);
  }
  TVMFFIObjectDecRef(unit);
  return result;
}

/* ---- reshape ----------------------------------------------------------------------------------------- */

/* Builds the ShapeExpr of a reshape from an Array of ints/PrimExprs, resolving 0 and -1 against
 * x's shape. */
static int trx__reshape_shape(const trx__op_def_t* def, TVMFFIObject* x, TVMFFIObject* arr,
                              TVMFFIObject** out) {
  int64_t n = tether_array_size(arr);
  int64_t infer_at = -1;
  bool copy = false;
  TVMFFIObject** d = NULL;
  TVMFFIObject* values = NULL;
  *out = NULL;
  /* validate first (the texts show the array as given) */
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* e = tether_array_at(arr, i);
    int64_t v;
    bool is_int = e->type_index == kTVMFFIInt;
    if (is_int) v = e->v_int64;
    else if (tether_any_is_object(e) && trx_is(e->v_obj, TRX_INT_IMM)) {
      is_int = true;
      v = ((trx_int_imm_t*)e->v_obj)->value;
    } else if (!(tether_any_is_object(e) && trx_is(e->v_obj, TRX_EXPR))) {
      return tether_raise("TypeError", "%s: the new shape must hold ints or PrimExprs, got %s",
                          def->fname, tether_any_type_key(e));
    }
    if (!is_int) continue;
    if (v == -1) {
      if (infer_at != -1) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb,
                       "Check failed: dim_to_infer == -1 (%lld vs. -1) : Reshape accepts at most one "
                       "\"-1\" in the new shape. However, there are multiple \"-1\" in the given new "
                       "shape  ",
                       (long long)infer_at);
        trx__sb_iarr(&sb, arr);
        return trx__sb_raise(&sb, "InternalError");
      }
      infer_at = i;
    } else if (v == 0) {
      copy = true;
    } else if (v < 0) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: (int_len == nullptr || int_len->value > 0) is false: Reshape "
                     "requires all values in the new shape to be positive except a single \"-1\". "
                     "However, the given new shape is ");
      trx__sb_iarr(&sb, arr);
      return trx__sb_raise(&sb, "InternalError");
    }
  }
  TVMFFIObject* xv = NULL;
  if (infer_at != -1 || copy) {
    TVMFFIObject* xty = trx__ty(x);
    trx_tensor_type_t* tt = trx_is(xty, TRX_TENSOR_TYPE) ? (trx_tensor_type_t*)xty : NULL;
    if (tt == NULL || tt->shape == NULL) {
      return tether_raise("InternalError",
                          "Check failed: (data_ty->shape.has_value()) is false: Reshape expects the "
                          "input tensor to have known shape when there is some dimension length to "
                          "infer. However, the given input has no shape.");
    }
    xv = trx__shape_values(tt);
    if (xv == NULL) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: (shape_ty != nullptr && shape_ty->values.has_value()) is false: "
                     "Reshape expects the input tensor to have known shape when there is some "
                     "dimension length to infer. However, the given input shape is ");
      trx__sb_node(&sb, tt->shape);
      trx__sb_printf(&sb, " whose shape value is unknown.");
      return trx__sb_raise(&sb, "InternalError");
    }
  }
  d = trx__dims_new(n);
  if (d == NULL) return -1;
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* e = tether_array_at(arr, i);
    if (e->type_index == kTVMFFIInt) {
      if (e->v_int64 == 0) d[i] = trx__ref(trx__dim(xv, i));
      else if (e->v_int64 != -1) d[i] = trx_int64(e->v_int64);
      else continue;
    } else if (trx_is(e->v_obj, TRX_INT_IMM) && ((trx_int_imm_t*)e->v_obj)->value <= 0) {
      if (((trx_int_imm_t*)e->v_obj)->value == 0) d[i] = trx__ref(trx__dim(xv, i));
      else continue;
    } else {
      d[i] = trx_simplify(e->v_obj);
    }
    if (d[i] == NULL) goto fail;
  }
  if (infer_at != -1) {
    TVMFFIObject* total = trx__product(xv);
    TVMFFIObject* known = trx_int64(1);
    for (int64_t i = 0; i < n && known != NULL; ++i) {
      if (i == infer_at) continue;
      TVMFFIObject* q = trx_mul(known, d[i]);
      TVMFFIObjectDecRef(known);
      known = q;
    }
    /* The other dims multiply to 0 (a copied 0 dim, so the input is empty too): the inferred
     * dim is 0, as in TVM (never the division 0 // 0). */
    bool zero = known != NULL && trx_is(known, TRX_INT_IMM) && ((trx_int_imm_t*)known)->value == 0;
    if (total != NULL && known != NULL) d[infer_at] = zero ? trx_int64(0) : trx_floordiv(total, known);
    if (total) TVMFFIObjectDecRef(total);
    if (known) TVMFFIObjectDecRef(known);
    if (d[infer_at] == NULL) goto fail;
  }
  /* Nothing resolved or simplified: the ShapeExpr of the given Array itself (as TVM, whose
   * ShapeExpr converts plain ints once for itself and once for its ShapeType). */
  bool as_given = infer_at == -1 && !copy;
  for (int64_t i = 0; i < n && as_given; ++i) {
    const TVMFFIAny* e = tether_array_at(arr, i);
    as_given = e->type_index == kTVMFFIInt || d[i] == e->v_obj;
  }
  values = as_given ? trx__ref(arr) : trx__array_of(d, n);
  trx__dims_free(d, n);
  d = NULL;
  if (values == NULL) return -1;
  *out = trx_shape_expr_new(values);
  TVMFFIObjectDecRef(values);
  return *out == NULL ? -1 : 0;
fail:
  trx__dims_free(d, n);
  return -1;
}

int trx__make_reshape(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* args[2] = {NULL, NULL};
  int rc = -1;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &args[0]) != 0) goto done;
  if (a[1].type_index == kTVMFFIArray || a[1].type_index == kTVMFFIList) {
    TVMFFIObject* arr = NULL;
    if (a[1].type_index == kTVMFFIList) {
      int64_t len = tether_list_size(a[1].v_obj);
      TVMFFIAny* items = malloc(sizeof(TVMFFIAny) * (size_t)(len > 0 ? len : 1));
      if (items == NULL) goto done;
      for (int64_t i = 0; i < len; ++i) items[i] = *tether_list_at(a[1].v_obj, i);
      TVMFFIObjectHandle h = NULL;
      int r = tether_array_new(items, len, &h);
      free(items);
      if (r != 0) goto done;
      arr = (TVMFFIObject*)h;
    } else {
      arr = trx__ref(a[1].v_obj);
    }
    int r = trx__reshape_shape(def, args[0], arr, &args[1]);
    TVMFFIObjectDecRef(arr);
    if (r != 0) goto done;
  } else if (trx__arg_expr(def, a, 1, &args[1]) != 0) {
    goto done;
  }
  rc = trx__make_call_steal_attrs(def, args, 2, NULL, out);
done:
  if (args[0]) TVMFFIObjectDecRef(args[0]);
  if (args[1]) TVMFFIObjectDecRef(args[1]);
  return rc;
}

/* A shape-typed argument's dims: ShapeType.values (borrowed) or NULL; *ndim its ndim. */
static TVMFFIObject* trx__shape_arg_values(TVMFFIObject* ty, int64_t* ndim) {
  trx_shape_type_t* st = (trx_shape_type_t*)ty;
  *ndim = st->ndim;
  return st->values;
}

/* The TensorType whose shape is the shape argument `arg` (of ShapeType `ty`). */
static TVMFFIObject* trx__tensor_of_shape_arg(TVMFFIObject* arg, TVMFFIObject* ty, DLDataType dtype) {
  int64_t ndim;
  TVMFFIObject* values = trx__shape_arg_values(ty, &ndim);
  if (trx_is(arg, TRX_SHAPE_EXPR) || trx_is(arg, TRX_VAR)) return trx__tensor_new(arg, dtype, ndim);
  if (values != NULL) {
    TVMFFIObject* se = trx_shape_expr_new(values);
    if (se == NULL) return NULL;
    TVMFFIObject* t = trx__tensor_new(se, dtype, ndim);
    TVMFFIObjectDecRef(se);
    return t;
  }
  return trx__tensor_unknown(dtype, ndim);
}

TVMFFIObject* trx__infer_reshape(const trx__op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) != 2) {
    trx_tensor_type_t* tt[1];
    trx__check_args(def, call, 0, tt);
    return NULL;
  }
  TVMFFIObject* x = trx__call_arg(call, 0);
  TVMFFIObject* s = trx__call_arg(call, 1);
  TVMFFIObject* xty = trx__ty(x);
  TVMFFIObject* sty = trx__ty(s);
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    tether_raise("TypeError", "Reshape requires the input data to be Tensor. However, the given one is %s",
                 xty ? tether_type_key(xty->type_index) : "None");
    return NULL;
  }
  if (!trx_is(sty, TRX_SHAPE_TYPE)) {
    tether_raise("TypeError", "Reshape requires the input new shape to be Shape. However, the given one is %s",
                 sty ? tether_type_key(sty->type_index) : "None");
    return NULL;
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)xty;
  int64_t ndim;
  TVMFFIObject* nv = trx__shape_arg_values(sty, &ndim);
  TVMFFIObject* ov = trx__shape_values(tt);
  if (nv != NULL && ov != NULL) {
    TVMFFIObject* po = trx__product(ov);
    TVMFFIObject* pn = trx__product(nv);
    bool bad = po != NULL && pn != NULL && trx_prove_equal(po, pn) == TRX_PROVE_FALSE;
    if (bad) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Reshape expects the new shape to be convertible from the old shape. However, "
                     "the old shape is ");
      trx__sb_node(&sb, tt->shape);
      trx__sb_printf(&sb, ", with product ");
      trx__sb_node(&sb, po);
      trx__sb_printf(&sb, ", while the new shape is ");
      trx__sb_node(&sb, s);
      trx__sb_printf(&sb, ", with product ");
      trx__sb_node(&sb, pn);
      trx__sb_raise(&sb, "ValueError");
    }
    if (po) TVMFFIObjectDecRef(po);
    if (pn) TVMFFIObjectDecRef(pn);
    if (bad || po == NULL || pn == NULL) return NULL;
  }
  return trx__tensor_of_shape_arg(s, sty, trx_tensor_dtype(tt));
}

/* ---- permute_dims / expand_dims / squeeze --------------------------------------------------------------- */

int trx__make_axes(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* axes = NULL;
  *out = NULL;
  bool optional = def->id != TRX_OP_EXPAND_DIMS;
  if (trx__arg_int_array(def, a, 1, optional, &axes) != 0) return -1;
  trx_axes_attrs_t* attrs = (trx_axes_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) {
    if (axes) TVMFFIObjectDecRef(axes);
    return -1;
  }
  attrs->axes = axes; /* the one field of all three layouts */
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
}

TVMFFIObject* trx__infer_permute_dims(const trx__op_def_t* def, trx_call_t* call) {
  trx_axes_attrs_t* attrs = (trx_axes_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim;
  if (ndim == -1) {
    if (attrs->axes == NULL) return trx__ref((TVMFFIObject*)tt[0]);
    tether_raise("InternalError",
                 "Check failed: ndim != kUnknownNDim (-1 vs. -1) : The ndim is required to be known "
                 "for this function.");
    return NULL;
  }
  int64_t* perm = NULL;
  if (attrs->axes != NULL) {
    int64_t na = trx__iarr_size(attrs->axes);
    if (na != ndim) {
      tether_raise("ValueError",
                   "PermuteDims expects the number of input axes to equal the ndim of the input "
                   "tensor. However, the tensor ndim is %lld while the given number of axes is %lld",
                   (long long)ndim, (long long)na);
      return NULL;
    }
    if (trx__normalize_axes(def, ndim, attrs->axes, &perm) != 0) return NULL;
  } else {
    perm = malloc(sizeof(int64_t) * (size_t)(ndim > 0 ? ndim : 1));
    if (perm == NULL) return NULL;
    for (int64_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  }
  bool identity = true;
  for (int64_t i = 0; i < ndim; ++i) identity = identity && perm[i] == i;
  TVMFFIObject* ty = NULL;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (identity) {
    ty = trx__ref((TVMFFIObject*)tt[0]);
  } else if (v == NULL) {
    ty = trx__tensor_unknown(trx_tensor_dtype(tt[0]), ndim);
  } else {
    TVMFFIObject** d = trx__dims_new(ndim);
    if (d != NULL) {
      for (int64_t i = 0; i < ndim; ++i) d[i] = trx__ref(trx__dim(v, perm[i]));
      ty = trx__tensor_steal_free(d, ndim, trx_tensor_dtype(tt[0]));
    }
  }
  free(perm);
  return ty;
}

TVMFFIObject* trx__infer_expand_dims(const trx__op_def_t* def, trx_call_t* call) {
  trx_axis_array_attrs_t* attrs = (trx_axis_array_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if (tt[0]->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1);
  int64_t nout = tt[0]->ndim + trx__iarr_size(attrs->axis);
  int64_t* ax = NULL;
  if (trx__normalize_axes(def, nout, attrs->axis, &ax) != 0) return NULL;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  TVMFFIObject* ty = NULL;
  if (v == NULL) {
    ty = trx__tensor_unknown(trx_tensor_dtype(tt[0]), nout);
  } else {
    TVMFFIObject** d = trx__dims_new(nout);
    if (d != NULL) {
      int64_t na = trx__iarr_size(attrs->axis), k = 0;
      bool ok = true;
      for (int64_t i = 0; i < na; ++i) {
        d[ax[i]] = trx_int64(1);
        ok = ok && d[ax[i]] != NULL;
      }
      for (int64_t i = 0; i < nout && ok; ++i) {
        if (d[i] == NULL) d[i] = trx__ref(trx__dim(v, k++));
      }
      if (ok) ty = trx__tensor_steal_free(d, nout, trx_tensor_dtype(tt[0]));
      else trx__dims_free(d, nout);
    }
  }
  free(ax);
  return ty;
}

TVMFFIObject* trx__infer_squeeze(const trx__op_def_t* def, trx_call_t* call) {
  trx_axis_array_attrs_t* attrs = (trx_axis_array_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim;
  if (ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1);
  TVMFFIObject* v = trx__shape_type_values(tt[0]);
  bool* drop = calloc((size_t)(ndim > 0 ? ndim : 1), sizeof(bool));
  if (drop == NULL) return NULL;
  TVMFFIObject* ty = NULL;
  int64_t ndrop = 0;
  if (attrs->axis == NULL) {
    if (v == NULL) {
      ty = trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1);
      goto done;
    }
    for (int64_t i = 0; i < ndim; ++i) {
      int64_t c;
      if (!trx_as_const_int(trx__dim(v, i), &c)) {
        ty = trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1); /* a symbolic dim may be 1 */
        goto done;
      }
      if (c == 1) {
        drop[i] = true;
        ndrop++;
      }
    }
  } else {
    int64_t* ax = NULL;
    if (trx__normalize_axes(def, ndim, attrs->axis, &ax) != 0) goto done;
    int64_t na = trx__iarr_size(attrs->axis);
    if (v == NULL) {
      free(ax);
      ty = trx__tensor_unknown(trx_tensor_dtype(tt[0]), ndim - na);
      goto done;
    }
    for (int64_t i = 0; i < na; ++i) {
      int64_t c;
      if (trx_as_const_int(trx__dim(v, ax[i]), &c) && c != 1) continue; /* kept: not 1 */
      drop[ax[i]] = true;
      ndrop++;
    }
    free(ax);
  }
  {
    TVMFFIObject** d = trx__dims_new(ndim - ndrop);
    if (d == NULL) goto done;
    int64_t k = 0;
    for (int64_t i = 0; i < ndim; ++i) {
      if (!drop[i]) d[k++] = trx__ref(trx__dim(v, i));
    }
    ty = trx__tensor_steal_free(d, k, trx_tensor_dtype(tt[0]));
  }
done:
  free(drop);
  return ty;
}

/* ---- flatten ------------------------------------------------------------------------------------------------ */

TVMFFIObject* trx__infer_flatten(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if (tt[0]->ndim == 0) {
    TVMFFIObject* d[1] = {trx_int64(1)};
    return trx__tensor_from_dims_steal(d, 1, trx_tensor_dtype(tt[0]));
  }
  if (tt[0]->ndim == 1) return trx__ref((TVMFFIObject*)tt[0]);
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), 1);
  /* As TVM: the product with constant folding only, not simplified (`n * 16 * m`). */
  TVMFFIObject* p = trx_int64(1);
  for (int64_t i = 0, n = tether_array_size(v); i < n && p != NULL; ++i) {
    TVMFFIObject* q = trx__mul_fold(p, trx__dim(v, i));
    TVMFFIObjectDecRef(p);
    p = q;
  }
  TVMFFIObject* d[1] = {p};
  return trx__tensor_from_dims_steal(d, 1, trx_tensor_dtype(tt[0]));
}

/* ---- concat ------------------------------------------------------------------------------------------------- */

int trx__make_concat(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  trx_concat_attrs_t* attrs = (trx_concat_attrs_t*)trx__attrs_new(def->attrs);
  *out = NULL;
  if (attrs == NULL) return -1;
  if (trx__arg_opt_i64(def, a, 1, &attrs->axis) != 0) {
    TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    return -1;
  }
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
}

TVMFFIObject* trx__infer_concat(const trx__op_def_t* def, trx_call_t* call) {
  trx_concat_attrs_t* attrs = (trx_concat_attrs_t*)call->attrs;
  if (trx__call_nargs(call) != 1) {
    trx_tensor_type_t* tt[1];
    trx__check_args(def, call, 0, tt);
    return NULL;
  }
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  bool ok = trx_is(ty, TRX_TUPLE_TYPE);
  int64_t n = ok ? tether_array_size(((trx_tuple_type_t*)ty)->fields) : 0;
  for (int64_t i = 0; ok && i < n; ++i)
    ok = trx_is(trx__array_obj(((trx_tuple_type_t*)ty)->fields, i), TRX_TENSOR_TYPE);
  if (!ok) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects the input to be a Tuple of Tensors. However, the given input is ");
    if (trx_is(ty, TRX_TUPLE_TYPE)) trx__sb_node(&sb, ty);
    else trx__sb_printf(&sb, "%s", ty ? tether_type_key(ty->type_index) : "None");
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  if (n == 0) {
    tether_raise("ValueError",
                 "Concat op expects at least one tensor in the input Tuple. However, the given input "
                 "Tuple is empty.");
    return NULL;
  }
  TVMFFIObject* fields = ((trx_tuple_type_t*)ty)->fields;
  trx_tensor_type_t* t0 = (trx_tensor_type_t*)trx__array_obj(fields, 0);
  DLDataType dtype = trx__dtype_void;
  bool dtype_set = false, dtype_unknown = false;
  int64_t ndim = attrs->axis.has_value ? -1 : 1;
  bool shape_unknown = false;
  for (int64_t i = 0; i < n; ++i) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)trx__array_obj(fields, i);
    if (trx__dtype_is_void(trx_tensor_dtype(t))) {
      dtype_unknown = true;
    } else if (!dtype_set) {
      dtype = trx_tensor_dtype(t);
      dtype_set = true;
    } else if (!trx__dtype_equal(dtype, trx_tensor_dtype(t))) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Concat expects all input tensors to have the same dtype. However, the input contains tensors with dtype ");
      trx__sb_dtype(&sb, dtype);
      trx__sb_printf(&sb, " and ");
      trx__sb_dtype(&sb, trx_tensor_dtype(t));
      trx__sb_raise(&sb, "TypeError");
      return NULL;
    }
    if (t->ndim != -1) {
      if (ndim == -1) {
        ndim = t->ndim;
      } else if (ndim != t->ndim) {
        tether_raise("ValueError",
                     "Concat expects all input tensors to have same ndim. However, the input "
                     "contains tensors with ndim %lld and %lld",
                     (long long)ndim, (long long)t->ndim);
        return NULL;
      }
    }
    if (trx__shape_values(t) == NULL) shape_unknown = true;
  }
  if (dtype_unknown) dtype = trx__dtype_void;
  if (ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t axis = 0;
  if (attrs->axis.has_value && trx__normalize_axis(def, ndim, attrs->axis.value, &axis) != 0) return NULL;
  if (n == 1) return trx__ref((TVMFFIObject*)t0);
  if (shape_unknown) return trx__tensor_unknown(dtype, ndim);
  TVMFFIObject* v0 = trx__shape_values(t0);
  bool undecided = false;
  for (int64_t dim = 0; dim < ndim; ++dim) {
    if (dim == axis) continue;
    for (int64_t i = 1; i < n; ++i) {
      TVMFFIObject* vi = trx__shape_values((trx_tensor_type_t*)trx__array_obj(fields, i));
      trx_prove_t p = trx_prove_equal(trx__dim(v0, dim), trx__dim(vi, dim));
      if (p == TRX_PROVE_UNKNOWN) undecided = true;
      if (p == TRX_PROVE_FALSE) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb,
                       "Concat expects the input tensors to have the same shape on every dimension "
                       "except the one indicated by the input axis. However, the input contains "
                       "tensors whose shapes on dimension %lld is ",
                       (long long)dim);
        trx__sb_node(&sb, trx__dim(v0, dim));
        trx__sb_printf(&sb, " and ");
        trx__sb_node(&sb, trx__dim(vi, dim));
        trx__sb_raise(&sb, "ValueError");
        return NULL;
      }
    }
  }
  if (undecided) return trx__tensor_unknown(dtype, ndim);
  TVMFFIObject** d = trx__dims_new(ndim);
  if (d == NULL) return NULL;
  for (int64_t dim = 0; dim < ndim; ++dim) {
    if (dim != axis) d[dim] = trx__ref(trx__dim(v0, dim));
  }
  bool all_same = true;
  for (int64_t i = 1; i < n && all_same; ++i) {
    TVMFFIObject* vi = trx__shape_values((trx_tensor_type_t*)trx__array_obj(fields, i));
    all_same = trx_prove_equal(trx__dim(v0, axis), trx__dim(vi, axis)) == TRX_PROVE_TRUE;
  }
  if (all_same) {
    TVMFFIObject* cnt = trx_int64(n);
    d[axis] = cnt ? trx__mul_fold(trx__dim(v0, axis), cnt) : NULL; /* as TVM: not simplified */
    if (cnt) TVMFFIObjectDecRef(cnt);
  } else {
    d[axis] = trx__ref(trx__dim(v0, axis));
    for (int64_t i = 1; i < n && d[axis] != NULL; ++i) {
      TVMFFIObject* vi = trx__shape_values((trx_tensor_type_t*)trx__array_obj(fields, i));
      TVMFFIObject* s = trx__add_fold(d[axis], trx__dim(vi, axis));
      TVMFFIObjectDecRef(d[axis]);
      d[axis] = s;
    }
  }
  return trx__tensor_steal_free(d, ndim, dtype);
}

/* ---- split --------------------------------------------------------------------------------------------------- */

int trx__make_split(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* ios = NULL;
  trx_split_attrs_t* attrs = NULL;
  int64_t axis;
  *out = NULL;
  const TVMFFIAny* v = &a[1];
  if (v->type_index == kTVMFFIInt) {
    ios = trx_int_imm_new(trx__dtype_int64, v->v_int64);
  } else if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_INT_IMM)) {
    ios = trx__ref(v->v_obj);
  } else if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    TVMFFIObject* ints = NULL;
    if (trx__arg_int_array(def, a, 1, false, &ints) != 0) return -1;
    int64_t len = trx__iarr_size(ints);
    TVMFFIObject** d = trx__dims_new(len);
    bool ok = d != NULL;
    for (int64_t i = 0; ok && i < len; ++i) ok = (d[i] = trx_int64(trx__iarr_at(ints, i))) != NULL;
    if (ok) ios = trx__array_of(d, len);
    trx__dims_free(d, len);
    TVMFFIObjectDecRef(ints);
  } else {
    return tether_raise("TypeError",
                        "Mismatched type on argument #1 when calling: `%s`. Expected "
                        "`Variant<ir.IntImm, Array<ir.IntImm>>` but got `%s`",
                        def->fname, tether_any_type_key(v));
  }
  if (ios == NULL) return -1;
  if (trx_is(ios, TRX_INT_IMM) && ((trx_int_imm_t*)ios)->value <= 0) {
    int64_t s = ((trx_int_imm_t*)ios)->value;
    TVMFFIObjectDecRef(ios);
    return tether_raise("InternalError",
                        "Check failed: n_section->value > 0 (%lld vs. 0) : Split op expects the "
                        "input number of sections to be a positive integer. However, the given "
                        "number of sections is %lld",
                        (long long)s, (long long)s);
  }
  if (trx__arg_i64(def, a, 2, &axis) != 0) goto fail;
  attrs = (trx_split_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto fail;
  attrs->indices_or_sections = ios;
  attrs->axis = axis;
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
fail:
  TVMFFIObjectDecRef(ios);
  return -1;
}

TVMFFIObject* trx__infer_split(const trx__op_def_t* def, trx_call_t* call) {
  trx_split_attrs_t* attrs = (trx_split_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim, axis = 0;
  if (ndim != -1 && trx__normalize_axis(def, ndim, attrs->axis, &axis) != 0) return NULL;
  bool sections = trx_is(attrs->indices_or_sections, TRX_INT_IMM);
  int64_t nout = sections ? ((trx_int_imm_t*)attrs->indices_or_sections)->value
                          : tether_array_size(attrs->indices_or_sections) + 1;
  if (nout == 1) return trx__ref((TVMFFIObject*)tt[0]);
  TVMFFIObject** fields = trx__dims_new(nout);
  if (fields == NULL) return NULL;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  TVMFFIObject* ty = NULL;
  TVMFFIObject* len = v ? trx__dim(v, axis) : NULL;
  for (int64_t k = 0; k < nout; ++k) {
    if (v == NULL) {
      fields[k] = trx__tensor_unknown(trx_tensor_dtype(tt[0]), ndim);
      if (fields[k] == NULL) goto done;
      continue;
    }
    TVMFFIObject* size = NULL;
    if (sections) {
      TVMFFIObject* sv = trx_int64(nout);
      TVMFFIObject* sm1 = trx_int64(nout - 1);
      TVMFFIObject* num = sm1 ? trx_add(len, sm1) : NULL;
      TVMFFIObject* chunk = num && sv ? trx_floordiv(num, sv) : NULL;
      if (k < nout - 1) {
        size = trx__ref(chunk);
      } else if (chunk != NULL) {
        TVMFFIObject* used = trx_mul(chunk, sm1);
        size = used ? trx_sub(len, used) : NULL;
        if (used) TVMFFIObjectDecRef(used);
      }
      TVMFFIObject* all[] = {sv, sm1, num, chunk};
      for (size_t i = 0; i < 4; ++i)
        if (all[i]) TVMFFIObjectDecRef(all[i]);
    } else {
      TVMFFIObject* arr = attrs->indices_or_sections;
      TVMFFIObject* l = k == 0 ? trx_int64(0) : trx__ref(trx__array_obj(arr, k - 1));
      TVMFFIObject* zero = trx_int64(0);
      /* the last piece is max(len - l, 0): the same value as max(len - min(l, len), 0) */
      TVMFFIObject* lo = l == NULL ? NULL : (k == nout - 1 ? trx__ref(l) : trx__min(l, len));
      TVMFFIObject* hi = k == nout - 1 ? trx__ref(len) : trx__min(trx__array_obj(arr, k), len);
      TVMFFIObject* diff = lo && hi ? trx_sub(hi, lo) : NULL;
      size = diff && zero ? trx__max(diff, zero) : NULL;
      TVMFFIObject* all[] = {l, zero, lo, hi, diff};
      for (size_t i = 0; i < 5; ++i)
        if (all[i]) TVMFFIObjectDecRef(all[i]);
    }
    if (size == NULL) goto done;
    TVMFFIObject** d = trx__dims_new(ndim);
    if (d == NULL) {
      TVMFFIObjectDecRef(size);
      goto done;
    }
    for (int64_t i = 0; i < ndim; ++i) d[i] = i == axis ? size : trx__ref(trx__dim(v, i));
    fields[k] = trx__tensor_steal_free(d, ndim, trx_tensor_dtype(tt[0]));
    if (fields[k] == NULL) goto done;
  }
  ty = trx__tuple_type_of(fields, nout);
done:
  trx__dims_free(fields, nout);
  return ty;
}

/* ---- strided_slice ---------------------------------------------------------------------------------------------- */

/* The number of elements of a Tuple expr argument, or -1 if it is not a Tuple. */
static int64_t trx__tuple_len(TVMFFIObject* e) {
  return trx_is(e, TRX_TUPLE) ? tether_array_size(((trx_tuple_t*)e)->fields) : -1;
}

int trx__make_strided_slice(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                            TVMFFIObject** out) {
  (void)n;
  static const char* const names[] = {"x", "axes", "begin", "end", "strides"};
  TVMFFIObject* args[5] = {NULL, NULL, NULL, NULL, NULL};
  trx_strided_slice_attrs_t* attrs = NULL;
  int rc = -1;
  *out = NULL;
  for (int i = 0; i < 4; ++i) {
    if (trx__arg_expr(def, a, i, &args[i]) != 0) goto done;
  }
  if (trx__arg_opt_expr(def, a, 4, &args[4]) != 0) goto done;
  int nargs = args[4] ? 5 : 4;
  int prev = -1;
  for (int i = 1; i < nargs; ++i) {
    int64_t len = trx__tuple_len(args[i]);
    if (len < 0) continue;
    if (prev >= 0 && len != trx__tuple_len(args[prev])) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: length == std::get<size_t>(prev) (%lld vs. %lld) : The "
                     "strided_slice operator requires that the axes, begin, end, and strides tuples "
                     "are all the same length.  However, the %s argument (",
                     (long long)len, (long long)trx__tuple_len(args[prev]), names[prev]);
      trx__sb_node(&sb, args[prev]);
      trx__sb_printf(&sb, ") has %lld elements, while the %s argument (",
                     (long long)trx__tuple_len(args[prev]), names[i]);
      trx__sb_node(&sb, args[i]);
      trx__sb_printf(&sb, ") has %lld elements.", (long long)len);
      trx__sb_raise(&sb, "InternalError");
      goto done;
    }
    if (prev < 0) prev = i;
  }
  attrs = (trx_strided_slice_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL || trx__arg_flag(def, a, 5, &attrs->assume_inbound) != 0) {
    if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    goto done;
  }
  rc = trx__make_call_steal_attrs(def, args, nargs, (TVMFFIObject*)attrs, out);
done:
  for (int i = 0; i < 5; ++i)
    if (args[i]) TVMFFIObjectDecRef(args[i]);
  return rc;
}

static bool trx__is_int64_tuple_type(TVMFFIObject* ty) {
  if (!trx_is(ty, TRX_TUPLE_TYPE)) return false;
  TVMFFIObject* f = ((trx_tuple_type_t*)ty)->fields;
  for (int64_t i = 0, n = tether_array_size(f); i < n; ++i) {
    TVMFFIObject* t = trx__array_obj(f, i);
    if (!trx_is(t, TRX_PRIM_TYPE) || !trx__dtype_equal(((trx_prim_type_t*)t)->dtype, trx__dtype_int64))
      return false;
  }
  return true;
}

/* Length of the slice [b:e:s] of an axis of length `len` (new reference). */
static TVMFFIObject* trx__slice_len(TVMFFIObject* len, int64_t b, int64_t e, int64_t s, bool inbound) {
  int64_t n;
  bool known = trx_as_const_int(len, &n);
  if (inbound) {
    int64_t num = s > 0 ? e - b + s - 1 : b - e - s - 1;
    int64_t st = s > 0 ? s : -s;
    return trx_int64(num / st > 0 ? num / st : 0);
  }
  if (known) {
    int64_t lo, hi, count;
    if (s > 0) {
      lo = b < 0 ? (b + n < 0 ? 0 : b + n) : (b > n ? n : b);
      hi = e < 0 ? (e + n < 0 ? 0 : e + n) : (e > n ? n : e);
      count = hi > lo ? (hi - lo + s - 1) / s : 0;
    } else {
      lo = b < 0 ? (b + n < -1 ? -1 : b + n) : (b > n - 1 ? n - 1 : b);
      hi = e < 0 ? (e + n < -1 ? -1 : e + n) : (e > n - 1 ? n - 1 : e);
      count = lo > hi ? (lo - hi + (-s) - 1) / (-s) : 0;
    }
    return trx_int64(count);
  }
  if (s <= 0 || b < 0 || e < 0) return NULL; /* left symbolic-unknown */
  TVMFFIObject *bv = trx_int64(b), *ev = trx_int64(e), *lo = NULL, *hi = NULL, *d = NULL, *r = NULL;
  if (bv && ev) {
    lo = trx__min(bv, len);
    hi = trx__min(ev, len);
  }
  if (lo && hi) d = trx_sub(hi, lo);
  if (d && s == 1) {
    r = trx__ref(d);
  } else if (d) {
    TVMFFIObject *sm1 = trx_int64(s - 1), *sv = trx_int64(s);
    TVMFFIObject* num = sm1 ? trx_add(d, sm1) : NULL;
    if (num && sv) r = trx_floordiv(num, sv);
    if (sm1) TVMFFIObjectDecRef(sm1);
    if (sv) TVMFFIObjectDecRef(sv);
    if (num) TVMFFIObjectDecRef(num);
  }
  TVMFFIObject* all[] = {bv, ev, lo, hi, d};
  for (size_t i = 0; i < 5; ++i)
    if (all[i]) TVMFFIObjectDecRef(all[i]);
  return r;
}

TVMFFIObject* trx__infer_strided_slice(const trx__op_def_t* def, trx_call_t* call) {
  trx_strided_slice_attrs_t* attrs = (trx_strided_slice_attrs_t*)call->attrs;
  static const char* const names[] = {"x", "axes", "begin", "end", "strides"};
  int64_t nargs = trx__call_nargs(call);
  if (nargs != 4 && nargs != 5) {
    tether_raise("ValueError", "%s expects 4 or 5 arguments, but was called with %lld arguments",
                 def->full_name, (long long)nargs);
    return NULL;
  }
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Operator ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " requires argument 0 (x) to be a tensor.  However, the argument ");
    trx__sb_node(&sb, trx__call_arg(call, 0));
    trx__sb_printf(&sb, " is instead of type ");
    trx__sb_node(&sb, xty);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  for (int64_t i = 1; i < nargs; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (!trx__is_int64_tuple_type(ty)) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Check failed: (is_base_of_tuple_of_int64(ty)) is false: Operator ");
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " requires the %s argument to be a tuple of int64 PrimExpr values.  However, in expression ",
                     names[i]);
      trx__sb_node(&sb, (TVMFFIObject*)call);
      trx__sb_printf(&sb, ", the %s argument ", names[i]);
      trx__sb_node(&sb, arg);
      trx__sb_printf(&sb, " has type ");
      trx__sb_node(&sb, ty);
      trx__sb_raise(&sb, "InternalError");
      return NULL;
    }
  }
  trx_tensor_type_t* tt = (trx_tensor_type_t*)xty;
  if (tt->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt), -1);
  /* As TVM: without a known shape the axes are not even range-checked (observed in 0.27). */
  if (tt->shape == NULL || !trx_is(tt->shape, TRX_SHAPE_EXPR)) return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
  TVMFFIObject* axes = trx__call_arg(call, 1);
  if (!trx_is(axes, TRX_TUPLE)) return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
  TVMFFIObject* af = ((trx_tuple_t*)axes)->fields;
  int64_t na = tether_array_size(af);
  int64_t* ax = malloc(sizeof(int64_t) * (size_t)(na > 0 ? na : 1));
  if (ax == NULL) return NULL;
  for (int64_t i = 0; i < na; ++i) {
    int64_t c = 0;
    if (!trx_as_const_int(trx__array_obj(af, i), &c)) {
      free(ax);
      return trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
    }
    if (trx__normalize_axis(def, tt->ndim, c, &ax[i]) != 0) {
      free(ax);
      return NULL;
    }
  }
  TVMFFIObject* v = trx__shape_type_values(tt);
  TVMFFIObject* ty = NULL;
  TVMFFIObject** d = NULL;
  if (v == NULL) {
    ty = trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
    goto done;
  }
  d = trx__dims_new(tt->ndim);
  if (d == NULL) goto done;
  for (int64_t i = 0; i < tt->ndim; ++i) d[i] = trx__ref(trx__dim(v, i));
  for (int64_t i = 0; i < na; ++i) {
    int64_t b, e, s = 1;
    TVMFFIObject* bt = trx__call_arg(call, 2);
    TVMFFIObject* et = trx__call_arg(call, 3);
    TVMFFIObject* st = nargs == 5 ? trx__call_arg(call, 4) : NULL;
    bool consts = trx_is(bt, TRX_TUPLE) && trx_is(et, TRX_TUPLE) && (st == NULL || trx_is(st, TRX_TUPLE)) &&
                  trx_as_const_int(trx__array_obj(((trx_tuple_t*)bt)->fields, i), &b) &&
                  trx_as_const_int(trx__array_obj(((trx_tuple_t*)et)->fields, i), &e) &&
                  (st == NULL || trx_as_const_int(trx__array_obj(((trx_tuple_t*)st)->fields, i), &s));
    if (consts && s == 0) {
      tether_raise("InternalError", "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero");
      goto done;
    }
    TVMFFIObject* len = consts ? trx__slice_len(d[ax[i]], b, e, s, attrs->assume_inbound) : NULL;
    if (len == NULL) {
      trx__clear_error();
      trx__dims_free(d, tt->ndim);
      d = NULL;
      ty = trx__tensor_unknown(trx_tensor_dtype(tt), tt->ndim);
      goto done;
    }
    TVMFFIObjectDecRef(d[ax[i]]);
    d[ax[i]] = len;
  }
  ty = trx__tensor_steal_free(d, tt->ndim, trx_tensor_dtype(tt));
  d = NULL;
done:
  trx__dims_free(d, tt->ndim);
  free(ax);
  return ty;
}

/* ---- take --------------------------------------------------------------------------------------------------------- */

int trx__make_take(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* args[2] = {NULL, NULL};
  trx_take_attrs_t* attrs = NULL;
  int rc = -1;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &args[0]) != 0 || trx__arg_expr(def, a, 1, &args[1]) != 0) goto done;
  attrs = (trx_take_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto done;
  if (trx__arg_opt_i64(def, a, 2, &attrs->axis) != 0 ||
      trx__arg_string(def, a, 3, false, &attrs->mode) != 0) {
    TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    goto done;
  }
  rc = trx__make_call_steal_attrs(def, args, 2, (TVMFFIObject*)attrs, out);
done:
  if (args[0]) TVMFFIObjectDecRef(args[0]);
  if (args[1]) TVMFFIObjectDecRef(args[1]);
  return rc;
}

TVMFFIObject* trx__infer_take(const trx__op_def_t* def, trx_call_t* call) {
  trx_take_attrs_t* attrs = (trx_take_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  DLDataType idt = trx_tensor_dtype(tt[1]);
  if (!trx__dtype_is_void(idt) && !trx__dtype_is_int(idt)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Take op requires the input indices to have integer dtype. However, the given indices dtype is ");
    trx__sb_dtype(&sb, idt);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  int64_t axis = 0;
  if (!attrs->axis.has_value && tt[0]->ndim != -1 && tt[0]->ndim != 1) {
    tether_raise("ValueError",
                 "Take op expects the input data to be 1-dimensional tensor when the axis is not "
                 "specified. However, the given data tensor has ndim %lld",
                 (long long)tt[0]->ndim);
    return NULL;
  }
  if (tt[0]->ndim == -1 || tt[1]->ndim == -1) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), -1);
  if (attrs->axis.has_value && trx__normalize_axis(def, tt[0]->ndim, attrs->axis.value, &axis) != 0)
    return NULL;
  int64_t out_ndim = tt[0]->ndim - 1 + tt[1]->ndim;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* iv = trx__shape_values(tt[1]);
  if (dv == NULL || iv == NULL) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), out_ndim);
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  int64_t k = 0;
  for (int64_t i = 0; i < axis; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  for (int64_t i = 0; i < tt[1]->ndim; ++i) d[k++] = trx__ref(trx__dim(iv, i));
  for (int64_t i = axis + 1; i < tt[0]->ndim; ++i) d[k++] = trx__ref(trx__dim(dv, i));
  return trx__tensor_steal_free(d, out_ndim, trx_tensor_dtype(tt[0]));
}

/* ---- mean / sum / max -------------------------------------------------------------------------------------------- */

int trx__make_statistical(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                          TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* axis = NULL;
  *out = NULL;
  if (trx__arg_int_array(def, a, 1, true, &axis) != 0) return -1;
  trx_statistical_attrs_t* attrs = (trx_statistical_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) {
    if (axis) TVMFFIObjectDecRef(axis);
    return -1;
  }
  attrs->axis = axis;
  if (trx__arg_flag(def, a, 2, &attrs->keepdims) != 0) {
    TVMFFIObjectDecRef((TVMFFIObject*)attrs);
    return -1;
  }
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
}

TVMFFIObject* trx__infer_statistical(const trx__op_def_t* def, trx_call_t* call) {
  trx_statistical_attrs_t* attrs = (trx_statistical_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  DLDataType dt = trx_tensor_dtype(tt[0]);
  int64_t ndim = tt[0]->ndim;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (attrs->axis == NULL && !attrs->keepdims) return trx__tensor_from_dims_steal(NULL, 0, dt);
  if (ndim == -1) return trx__tensor_unknown(dt, -1);
  bool* red = calloc((size_t)(ndim > 0 ? ndim : 1), sizeof(bool));
  if (red == NULL) return NULL;
  TVMFFIObject* ty = NULL;
  int64_t nred = 0;
  if (attrs->axis == NULL) {
    for (int64_t i = 0; i < ndim; ++i) red[i] = true;
    nred = ndim;
  } else {
    int64_t* ax = NULL;
    if (trx__normalize_axes(def, ndim, attrs->axis, &ax) != 0) goto done;
    nred = trx__iarr_size(attrs->axis);
    for (int64_t i = 0; i < nred; ++i) red[ax[i]] = true;
    free(ax);
  }
  {
    int64_t out_ndim = attrs->keepdims ? ndim : ndim - nred;
    if (v == NULL) {
      /* As TVM: when every axis is reduced the result's shape is known even though the
       * input's is not -- () without keepdims, all ones with it. */
      if (nred == ndim) {
        TVMFFIObject** ones = trx__dims_new(out_ndim);
        for (int64_t i = 0; ones != NULL && i < out_ndim; ++i) ones[i] = trx_int64(1);
        ty = ones != NULL ? trx__tensor_steal_free(ones, out_ndim, dt) : NULL;
      } else {
        ty = trx__tensor_unknown(dt, out_ndim);
      }
      goto done;
    }
    TVMFFIObject** d = trx__dims_new(out_ndim);
    if (d == NULL) goto done;
    int64_t k = 0;
    for (int64_t i = 0; i < ndim; ++i) {
      if (!red[i]) d[k++] = trx__ref(trx__dim(v, i));
      else if (attrs->keepdims) d[k++] = trx_int64(1);
    }
    ty = trx__tensor_steal_free(d, out_ndim, dt);
  }
done:
  free(red);
  return ty;
}

/* ---- astype ------------------------------------------------------------------------------------------------------- */

int trx__make_astype(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIAny dt;
  *out = NULL;
  if (trx__arg_opt_dtype(def, a, 1, false, &dt) != 0) return -1;
  trx_astype_attrs_t* attrs = (trx_astype_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) return -1;
  attrs->dtype = dt.v_dtype;
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
}

TVMFFIObject* trx__infer_astype(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__with_dtype(tt[0], ((trx_astype_attrs_t*)call->attrs)->dtype);
}

/* ---- broadcast_to ------------------------------------------------------------------------------------------------- */

TVMFFIObject* trx__infer_broadcast_to(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  TVMFFIObject* s = trx__call_arg(call, 1);
  TVMFFIObject* sty = trx__ty(s);
  if (!trx_is(sty, TRX_SHAPE_TYPE)) {
    tether_raise("TypeError",
                 "broadcast_to requires the input new shape to be Shape. However, the given one is %s",
                 sty ? tether_type_key(sty->type_index) : "None");
    return NULL;
  }
  int64_t tndim;
  TVMFFIObject* tv = trx__shape_arg_values(sty, &tndim);
  int64_t xndim = tt[0]->ndim;
  if (xndim != -1 && tndim != -1 && xndim > tndim) {
    tether_raise("ValueError",
                 "broadcast_to expects the input shape to have the number of ndim at least as the "
                 "input tensor's. However, the given tensor has ndim %lld while the target shape has "
                 "ndim %lld",
                 (long long)xndim, (long long)tndim);
    return NULL;
  }
  TVMFFIObject* xv = trx__shape_values(tt[0]);
  if (xv != NULL && tv != NULL) {
    for (int64_t i = 1; i <= xndim; ++i) {
      TVMFFIObject* xd = trx__dim(xv, xndim - i);
      TVMFFIObject* td = trx__dim(tv, tndim - i);
      /* As TVM: an input dim of 1 broadcasts; any other must not be provably different. */
      if (trx__const_eq(xd, 1) || trx_prove_equal(xd, td) != TRX_PROVE_FALSE) continue;
      {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb,
                       "broadcast_to expects the input tensor shape is broadcastable to the target "
                       "shape. The target shape at dim %lld is ",
                       (long long)(tndim - i));
        trx__sb_node(&sb, td);
        trx__sb_printf(&sb, " while the input tensor shape at dim %lld is ", (long long)(xndim - i));
        trx__sb_node(&sb, xd);
        trx__sb_printf(&sb, ", which are not equal.");
        trx__sb_raise(&sb, "ValueError");
        return NULL;
      }
    }
  }
  return trx__tensor_of_shape_arg(s, sty, trx_tensor_dtype(tt[0]));
}

/* ---- clip ----------------------------------------------------------------------------------------------------------- */

static bool trx__is_prim_expr(TVMFFIObject* e) {
  if (trx_is(e, TRX_INT_IMM) || trx_is(e, TRX_FLOAT_IMM)) return true;
  for (int k = TRX_PRIM_ADD; k <= TRX_PRIM_MAX; ++k)
    if (trx_is(e, (trx_kind)k)) return true;
  return trx_is(e, TRX_VAR) && trx_is(trx__ty(e), TRX_PRIM_TYPE);
}

int trx__make_clip(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  static const char* const names[] = {"x", "min", "max"};
  TVMFFIObject* args[3] = {NULL, NULL, NULL};
  int rc = -1;
  *out = NULL;
  for (int i = 0; i < 3; ++i) {
    if (trx__arg_expr(def, a, i, &args[i]) != 0) goto done;
    if (i > 0 && !trx__is_prim_expr(args[i])) {
      tether_raise("InternalError",
                   "Check failed: (%s.as<PrimExpr>()) is false: The argument `%s` of relax.clip is "
                   "expected to be a PrimExpr, but got %s",
                   names[i], names[i], tether_type_key(args[i]->type_index));
      goto done;
    }
  }
  rc = trx__make_call_steal_attrs(def, args, 3, NULL, out);
done:
  for (int i = 0; i < 3; ++i)
    if (args[i]) TVMFFIObjectDecRef(args[i]);
  return rc;
}

TVMFFIObject* trx__infer_clip(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- where ------------------------------------------------------------------------------------------------------------ */

TVMFFIObject* trx__infer_where(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[3];
  if (trx__check_args(def, call, 3, tt) != 0) return NULL;
  if (!trx__dtype_is_void(trx_tensor_dtype(tt[0])) && !trx__dtype_is_bool(trx_tensor_dtype(tt[0]))) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Where requires the input condition tensor to have boolean dtype. However, the given condition dtype is ");
    trx__sb_dtype(&sb, trx_tensor_dtype(tt[0]));
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  DLDataType dtype;
  if (trx__binary_dtype(call, (TVMFFIObject*)tt[1], (TVMFFIObject*)tt[2], &dtype) != 0) return NULL;
  int64_t ndim = 0;
  for (int i = 0; i < 3; ++i) {
    if (tt[i]->ndim == -1) return trx__tensor_unknown(dtype, -1);
    if (tt[i]->ndim > ndim) ndim = tt[i]->ndim;
  }
  TVMFFIObject* v[3] = {trx__shape_values(tt[0]), trx__shape_values(tt[1]), trx__shape_values(tt[2])};
  if (v[0] == NULL || v[1] == NULL || v[2] == NULL) return trx__tensor_unknown(dtype, ndim);
  TVMFFIObject *b01 = NULL, *b = NULL;
  if (trx__broadcast(def, v[0], v[1], &b01) != 0) return NULL;
  if (b01 == NULL) return trx__tensor_unknown(dtype, ndim);
  int rc = trx__broadcast(def, b01, v[2], &b);
  TVMFFIObjectDecRef(b01);
  if (rc != 0) return NULL;
  if (b == NULL) return trx__tensor_unknown(dtype, ndim);
  TVMFFIObject* se = trx_shape_expr_new(b);
  TVMFFIObject* ty = se ? trx__tensor_new(se, dtype, tether_array_size(b)) : NULL;
  if (se) TVMFFIObjectDecRef(se);
  TVMFFIObjectDecRef(b);
  return ty;
}
