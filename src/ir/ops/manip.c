/*
 * manip.c -- shape manipulation: reshape, permute_dims, expand_dims, squeeze, flatten,
 * concat, split, broadcast_to.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

/* PermuteDims.axes, Squeeze.axis (Optional<Array<int>>) and ExpandDims.axis (Array<int>). */
#define TRX__PERMUTE_DIMS_FIELDS(F, T) F(T, axes, OPT_OBJECT, "Optional<ffi.Array<int>>")
TRX_ATTRS_STRUCT(trx_axes_attrs_t, TRX__PERMUTE_DIMS_FIELDS);
TRX_ATTRS_DECL(trx__permute_dims_attrs, "relax.attrs.PermuteDimsAttrs", trx_axes_attrs_t,
               TRX__PERMUTE_DIMS_FIELDS);
#define TRX__EXPAND_DIMS_FIELDS(F, T) F(T, axis, OBJECT, "ffi.Array<int>")
TRX_ATTRS_STRUCT(trx_axis_array_attrs_t, TRX__EXPAND_DIMS_FIELDS);
TRX_ATTRS_DECL(trx__expand_dims_attrs, "relax.attrs.ExpandDimsAttrs", trx_axis_array_attrs_t,
               TRX__EXPAND_DIMS_FIELDS);
#define TRX__SQUEEZE_FIELDS(F, T) F(T, axis, OPT_OBJECT, "Optional<ffi.Array<int>>")
TRX_ATTRS_DECL(trx__squeeze_attrs, "relax.attrs.SqueezeAttrs", trx_axis_array_attrs_t,
               TRX__SQUEEZE_FIELDS);

#define TRX__CONCAT_FIELDS(F, T) F(T, axis, OPT_INT64, "Optional<int>")
TRX_ATTRS_STRUCT(trx_concat_attrs_t, TRX__CONCAT_FIELDS);
TRX_ATTRS_DECL(trx__concat_attrs, "relax.attrs.ConcatAttrs", trx_concat_attrs_t, TRX__CONCAT_FIELDS);

/* indices_or_sections: an IntImm (sections) or an Array<IntImm> (indices) */
#define TRX__SPLIT_FIELDS(F, T)                         \
  F(T, indices_or_sections, OBJECT, "ffi.Object")       \
  F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_split_attrs_t, TRX__SPLIT_FIELDS);
TRX_ATTRS_DECL(trx__split_attrs, "relax.attrs.SplitAttrs", trx_split_attrs_t, TRX__SPLIT_FIELDS);

/* A one-attrs-object Call (x = arg 0 converted from a[0]). */
static int trx__make_unary_call(const trx_op_def_t* def, const TVMFFIAny* a, TVMFFIObject* attrs,
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


/* ---- reshape ----------------------------------------------------------------------------------------- */

/* Builds the ShapeExpr of a reshape from an Array of ints/PrimExprs, resolving 0 and -1 against
 * x's shape. */
/* TVM's error for a non-integer value in reshape's new shape (a Python float arrives there as a
 * FloatImm float32): the array is shown as TVM shows it. */
static int trx__reshape_not_int(TVMFFIObject* arr) {
  int64_t n = tether_array_size(arr);
  trx__sb_t sb = {0};
  trx__sb_printf(&sb,
                 "Check failed: (len.ty().code() == DLDataTypeCode::kDLInt) is false: Reshape "
                 "requires the new shape values to be all integers. However, the give new shape is (");
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* e = tether_array_at(arr, i);
    if (i) trx__sb_printf(&sb, ", ");
    if (e->type_index == kTVMFFIInt) {
      trx__sb_printf(&sb, "%lld", (long long)e->v_int64);
    } else if (e->type_index == kTVMFFIFloat) {
      DLDataType f32 = {kDLFloat, 32, 1};
      TVMFFIObject* imm = trx_float_imm_new(f32, e->v_float64);
      if (imm == NULL) {
        trx__sb_raise(&sb, "InternalError");
        return -1;
      }
      trx__sb_node(&sb, imm);
      TVMFFIObjectDecRef(imm);
    } else if (tether_any_is_object(e)) {
      trx__sb_node(&sb, e->v_obj);
    }
  }
  trx__sb_printf(&sb, "%s)", n == 1 ? "," : "");
  return trx__sb_raise(&sb, "InternalError");
}

static int trx__reshape_shape(const trx_op_def_t* def, TVMFFIObject* x, TVMFFIObject* arr,
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
    } else if (e->type_index == kTVMFFIFloat ||
               (tether_any_is_object(e) && trx_is(e->v_obj, TRX_FLOAT_IMM))) {
      return trx__reshape_not_int(arr);
    } else if (!(tether_any_is_object(e) && trx_is(e->v_obj, TRX_EXPR))) {
      /* TVM's FFI cannot convert the list (a str, None, ... in it) to either alternative. */
      return tether_raise("TypeError",
                          "Mismatched type on argument #1 when calling: `%s`. Expected "
                          "`Variant<ir.Expr, Array<ir.Expr>>` but got `ffi.Array`",
                          def->fname);
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
      d[i] = trx__ref(e->v_obj); /* a given dim stays as given (TVM simplifies none) */
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
    if (total != NULL && known != NULL) {
      if (zero) {
        d[infer_at] = trx_int64(0);
      } else { /* the quotient simplified, as TVM's analyzer does */
        TVMFFIObject* q = trx_floordiv(total, known);
        d[infer_at] = q == NULL ? NULL : trx_simplify(q);
        if (q) TVMFFIObjectDecRef(q);
      }
    }
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

static int trx__make_reshape(const trx_op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
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
  } else if (tether_any_is_object(&a[1]) && trx_is(a[1].v_obj, TRX_SHAPE_EXPR)) {
    /* A ShapeExpr's values are read as a given list (as TVM does): 0 and -1 are resolved. */
    if (trx__reshape_shape(def, args[0], ((trx_shape_expr_t*)a[1].v_obj)->values, &args[1]) != 0)
      goto done;
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

/* The TensorType whose shape is the shape argument `arg` (of ShapeType `ty`): the ShapeExpr or
 * shape Var itself, or (values_first: as TVM's reshape, for a Var too) the values its type knows. */
static TVMFFIObject* trx__tensor_of_shape_arg_ex(TVMFFIObject* arg, TVMFFIObject* ty, DLDataType dtype,
                                                 bool values_first) {
  int64_t ndim;
  TVMFFIObject* values = trx__shape_arg_values(ty, &ndim);
  if (trx_is(arg, TRX_SHAPE_EXPR) || (trx_is(arg, TRX_VAR) && !(values_first && values != NULL)))
    return trx__tensor_new(arg, dtype, ndim);
  if (values != NULL) {
    TVMFFIObject* se = trx_shape_expr_new(values);
    if (se == NULL) return NULL;
    TVMFFIObject* t = trx__tensor_new(se, dtype, ndim);
    TVMFFIObjectDecRef(se);
    return t;
  }
  return trx__tensor_unknown(dtype, ndim);
}

static TVMFFIObject* trx__tensor_of_shape_arg(TVMFFIObject* arg, TVMFFIObject* ty, DLDataType dtype) {
  return trx__tensor_of_shape_arg_ex(arg, ty, dtype, false);
}

/* The product of a shape's dims as TVM's reshape forms it for its check and message: 1 * d0 *
 * d1 ... with TVM's operator* (constants fold, a factor 1 or 0 short-cuts, nothing else is
 * simplified: (n, 2, 2) gives n * 2 * 2).  New reference, NULL with an error raised. */
static TVMFFIObject* trx__shape_product(TVMFFIObject* values) {
  TVMFFIObject* p = trx_int64(1);
  int64_t n = tether_array_size(values);
  for (int64_t i = 0; i < n && p != NULL; ++i) {
    TVMFFIObject* d = trx__dim(values, i);
    int64_t a, b;
    bool ca = trx_as_const_int(p, &a), cb = trx_as_const_int(d, &b);
    TVMFFIObject* q;
    if ((ca && cb) || (ca && (a == 0 || a == 1)) || (cb && (b == 0 || b == 1))) {
      q = trx_mul(p, d);
    } else {
      q = trx_binop_new(TRX_PRIM_MUL, p, d);
    }
    TVMFFIObjectDecRef(p);
    p = q;
  }
  return p;
}

static TVMFFIObject* trx__infer_reshape(const trx_op_def_t* def, trx_call_t* call) {
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
    TVMFFIObject* po = trx__shape_product(ov);
    TVMFFIObject* pn = trx__shape_product(nv);
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
  /* (unlike broadcast_to / zeros, a shape Var's known values replace the Var) */
  return trx__tensor_of_shape_arg_ex(s, sty, trx_tensor_dtype(tt), true);
}

/* ---- permute_dims / expand_dims / squeeze --------------------------------------------------------------- */


static TVMFFIObject* trx__infer_permute_dims(const trx_op_def_t* def, trx_call_t* call) {
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

static TVMFFIObject* trx__infer_expand_dims(const trx_op_def_t* def, trx_call_t* call) {
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

static TVMFFIObject* trx__infer_squeeze(const trx_op_def_t* def, trx_call_t* call) {
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

static TVMFFIObject* trx__infer_flatten(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if (tt[0]->ndim == 0) {
    TVMFFIObject* d[1] = {trx_int64(1)};
    return trx__tensor_from_dims_steal(d, 1, trx_tensor_dtype(tt[0]));
  }
  if (tt[0]->ndim == 1) return trx__ref((TVMFFIObject*)tt[0]);
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), 1);
  TVMFFIObject* d[1] = {trx__product_folded(v)};
  return trx__tensor_from_dims_steal(d, 1, trx_tensor_dtype(tt[0]));
}

/* ---- concat ------------------------------------------------------------------------------------------------- */


static TVMFFIObject* trx__infer_concat(const trx_op_def_t* def, trx_call_t* call) {
  trx_concat_attrs_t* attrs = (trx_concat_attrs_t*)call->attrs;
  if (trx__call_nargs(call) != 1) {
    trx_tensor_type_t* tt[1];
    trx__check_args(def, call, 0, tt);
    return NULL;
  }
  TVMFFIObject* fields = trx__tuple_tensor_fields(def, call, "Concat");
  if (fields == NULL) return NULL;
  int64_t n = tether_array_size(fields);
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
      trx__raise_dtype_pair("TypeError",
                            "Concat expects all input tensors to have the same dtype. However, the "
                            "input contains tensors with dtype ",
                            dtype, " and ", trx_tensor_dtype(t));
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

static int trx__make_split(const trx_op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
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
  attrs = (trx_split_attrs_t*)trx__attrs_new(def);
  if (attrs == NULL) goto fail;
  attrs->indices_or_sections = ios;
  attrs->axis = axis;
  return trx__make_unary_call(def, a, (TVMFFIObject*)attrs, out);
fail:
  TVMFFIObjectDecRef(ios);
  return -1;
}

static TVMFFIObject* trx__infer_split(const trx_op_def_t* def, trx_call_t* call) {
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

/* ---- broadcast_to ------------------------------------------------------------------------------------------------- */

static TVMFFIObject* trx__infer_broadcast_to(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 0, NULL) != 0) return NULL;
  TVMFFIObject* xty = trx__ty(trx__call_arg(call, 0));
  if (!trx_is(xty, TRX_TENSOR_TYPE)) {
    tether_raise("TypeError",
                 "broadcast_to requires the input data to be Tensor. However, the given one is %s",
                 xty ? tether_type_key(xty->type_index) : "None");
    return NULL;
  }
  tt[0] = (trx_tensor_type_t*)xty;
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

/* ---- stack / flip / tile / one_hot ------------------------------------------------------------- */

#define TRX__STACK_FIELDS(F, T) F(T, axis, OPT_INT64, "Optional<int>")
TRX_ATTRS_STRUCT(trx_stack_attrs_t, TRX__STACK_FIELDS);
TRX_ATTRS_DECL(trx__stack_attrs, "relax.attrs.StackAttrs", trx_stack_attrs_t, TRX__STACK_FIELDS);
#define TRX__FLIP_FIELDS(F, T) F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_flip_attrs_t, TRX__FLIP_FIELDS);
TRX_ATTRS_DECL(trx__flip_attrs, "relax.attrs.FlipAttrs", trx_flip_attrs_t, TRX__FLIP_FIELDS);
#define TRX__TILE_FIELDS(F, T) F(T, repeats, OBJECT, "ffi.Array<int>")
TRX_ATTRS_STRUCT(trx_tile_attrs_t, TRX__TILE_FIELDS);
TRX_ATTRS_DECL(trx__tile_attrs, "relax.attrs.TileAttrs", trx_tile_attrs_t, TRX__TILE_FIELDS);
#define TRX__ONE_HOT_FIELDS(F, T) \
  F(T, depth, INT64, "int")       \
  F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_one_hot_attrs_t, TRX__ONE_HOT_FIELDS);
TRX_ATTRS_DECL(trx__one_hot_attrs, "relax.attrs.OneHotAttrs", trx_one_hot_attrs_t, TRX__ONE_HOT_FIELDS);

static TVMFFIObject* trx__infer_stack(const trx_op_def_t* def, trx_call_t* call) {
  const tether_opt_int64_t* axis_attr = &((trx_stack_attrs_t*)call->attrs)->axis;
  if (trx__call_nargs(call) != 1) {
    tether_raise("ValueError", "Stack op should have 1 argument");
    return NULL;
  }
  TVMFFIObject* fields = trx__tuple_tensor_fields(def, call, "Stack");
  if (fields == NULL) return NULL;
  int64_t n = tether_array_size(fields);
  trx_tensor_type_t* t0 = (trx_tensor_type_t*)trx__array_obj(fields, 0);
  DLDataType dtype = trx__dtype_void;
  bool dtype_set = false, dtype_unknown = false, shape_unknown = false;
  int64_t ndim = t0->ndim; /* every ndim is compared with the first one's */
  for (int64_t i = 0; i < n; ++i) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)trx__array_obj(fields, i);
    DLDataType dt = trx_tensor_dtype(t);
    if (trx__dtype_is_void(dt)) {
      dtype_unknown = true;
    } else if (!dtype_set) {
      dtype = dt;
      dtype_set = true;
    } else if (!trx__dtype_equal(dtype, dt)) {
      trx__raise_dtype_pair("TypeError", "Stack expects all input tensors to have the same dtype. Found ",
                            dtype, " and ", dt);
      return NULL;
    }
    if (i > 0 && t->ndim != -1 && t->ndim != ndim) {
      tether_raise("ValueError", "Stack expects all input tensors to have same ndim. Found %lld and %lld",
                   (long long)ndim, (long long)t->ndim);
      return NULL;
    }
    if (trx__shape_values(t) == NULL) shape_unknown = true;
  }
  if (dtype_unknown) dtype = trx__dtype_void;
  /* One more dim than the inputs; an unknown first ndim (-1) makes it 0, so every axis is
   * out of range, as in TVM. */
  int64_t out_ndim = ndim + 1, axis = 0;
  if (trx__normalize_axis(def, out_ndim, axis_attr->has_value ? trx__as_int(axis_attr->value) : 0,
                          &axis) != 0)
    return NULL;
  if (shape_unknown) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject* v0 = trx__shape_values(t0);
  bool undecided = false;
  for (int64_t d = 0; d < ndim; ++d) {
    for (int64_t i = 1; i < n; ++i) {
      TVMFFIObject* vi = trx__shape_values((trx_tensor_type_t*)trx__array_obj(fields, i));
      trx_prove_t p = trx_prove_equal(trx__dim(v0, d), trx__dim(vi, d));
      if (p == TRX_PROVE_FALSE) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb,
                       "Stack expects all input tensors to have identical shapes. Dimension %lld "
                       "differs between tensors: ",
                       (long long)d);
        trx__sb_node(&sb, trx__dim(v0, d));
        trx__sb_printf(&sb, " vs ");
        trx__sb_node(&sb, trx__dim(vi, d));
        trx__sb_raise(&sb, "ValueError");
        return NULL;
      }
      if (p != TRX_PROVE_TRUE) undecided = true;
    }
  }
  if (undecided) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i < out_ndim; ++i)
    d[i] = i == axis ? trx_int64(n) : trx__ref(trx__dim(v0, k++));
  return trx__tensor_steal_free(d, out_ndim, dtype);
}

static TVMFFIObject* trx__infer_flip(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim;
  int64_t axis = trx__as_int(((trx_flip_attrs_t*)call->attrs)->axis);
  if (ndim != -1 && (axis < -ndim || axis >= ndim)) {
    tether_raise("ValueError",
                 "Flip requires the input axis belongs range [-ndim, ndim - 1]. However, the "
                 "input axis is %lld, while ndim is %lld",
                 (long long)axis, (long long)ndim);
    return NULL;
  }
  return trx__ref((TVMFFIObject*)tt[0]);
}

static TVMFFIObject* trx__infer_tile(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  TVMFFIObject* reps = ((trx_tile_attrs_t*)call->attrs)->repeats;
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  int64_t ndim = tt[0]->ndim, l = trx__iarr_size(reps);
  if (ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t out_ndim = ndim > l ? ndim : l;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(dtype, out_ndim);
  /* Both sides padded with leading 1s to out_ndim; each dim is dim * repeat, simplified. */
  TVMFFIObject** d = trx__dims_new(out_ndim);
  if (d == NULL) return NULL;
  for (int64_t i = 0; i < out_ndim; ++i) {
    int64_t di = i - (out_ndim - ndim), ri = i - (out_ndim - l);
    TVMFFIObject* r = trx_int64(ri >= 0 ? trx__iarr_at(reps, ri) : 1);
    if (r != NULL && di >= 0) {
      d[i] = trx_mul(trx__dim(v, di), r);
      TVMFFIObjectDecRef(r);
    } else {
      d[i] = r;
    }
    if (d[i] == NULL) {
      trx__dims_free(d, out_ndim);
      return NULL;
    }
  }
  return trx__tensor_steal_free(d, out_ndim, dtype);
}

/* The dtype of a PrimExpr-valued input (its PrimType), void when it has none. */
static DLDataType trx__prim_dtype(TVMFFIObject* e) {
  TVMFFIObject* ty = trx__ty(e);
  return trx_is(ty, TRX_PRIM_TYPE) ? ((trx_prim_type_t*)ty)->dtype : trx__dtype_void;
}

/* relax.op.one_hot's own checks: on_value and off_value of one dtype, a positive depth. */
static int trx__check_one_hot(const trx_op_def_t* def, TVMFFIObject** inputs, int64_t n,
                              TVMFFIObject* attrs) {
  trx__check_int_attrs(def, inputs, n, attrs); /* depth and axis are C++ ints */
  DLDataType on = n > 1 ? trx__prim_dtype(inputs[1]) : trx__dtype_void;
  DLDataType off = n > 2 ? trx__prim_dtype(inputs[2]) : trx__dtype_void;
  if (!trx__dtype_equal(on, off)) {
    return trx__raise_dtype_pair("InternalError",
                                 "Check failed: (on_dtype == off_dtype) is false: one_hot: on_value "
                                 "and off_value must have the same dtype, but got ",
                                 on, " and ", off);
  }
  int64_t depth = ((trx_one_hot_attrs_t*)attrs)->depth;
  if (depth <= 0) {
    return tether_raise("InternalError",
                        "Check failed: (depth > 0) is false: one_hot: depth must be positive, but got %lld",
                        (long long)depth);
  }
  return 0;
}

static TVMFFIObject* trx__infer_one_hot(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_one_hot_attrs_t* attrs = (trx_one_hot_attrs_t*)call->attrs;
  DLDataType dtype = trx__prim_dtype(trx__call_arg(call, 1));
  DLDataType it = trx_tensor_dtype(tt[0]);
  if (!trx__dtype_is_void(it) && !trx__dtype_is_int(it)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "one_hot op requires the input indices to have integer dtype. However, the "
                        "given indices dtype is ");
    trx__sb_dtype(&sb, it);
    trx__sb_raise(&sb, "TypeError");
    return NULL;
  }
  int64_t ndim = tt[0]->ndim;
  if (ndim == -1) return trx__tensor_unknown(dtype, -1);
  TVMFFIObject* v = trx__shape_values(tt[0]);
  if (v == NULL) return trx__tensor_unknown(dtype, ndim + 1);
  int64_t axis = trx__as_int(attrs->axis);
  if (axis < 0) axis += ndim + 1;
  if (axis < 0 || axis > ndim) {
    tether_raise("InternalError",
                 "Check failed: (0 <= axis && axis <= static_cast<int>(output_shape.size())) is "
                 "false: one_hot: axis must be in the range of [0, %lld], but got %lld",
                 (long long)ndim, (long long)axis);
    return NULL;
  }
  TVMFFIObject** d = trx__dims_new(ndim + 1);
  if (d == NULL) return NULL;
  for (int64_t i = 0, k = 0; i <= ndim; ++i)
    d[i] = i == axis ? trx_int64(trx__as_int(attrs->depth)) : trx__ref(trx__dim(v, k++));
  return trx__tensor_steal_free(d, ndim + 1, dtype);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_X "x|Tensor|The input tensor."

TRX__OPS(manip){
    {.name = "reshape", .params = "x: Expr, shape: Any",
     .arguments = TRX__A_X "\nshape|Shape|The input new shape.", .infer = trx__infer_reshape,
     .make = trx__make_reshape,
     .signature = "(0: ir.Expr, 1: Variant<ir.Expr, Array<ir.Expr>>) -> ir.Expr",
     .doc = "x with a new shape (one dim may be -1: inferred)."},
    {.name = "permute_dims", .params = "x: Expr, axes: ints? = None", .arguments = TRX__A_X,
     .attrs = &trx__permute_dims_attrs, .infer = trx__infer_permute_dims,
     .doc = "Permutes the dims of x (None reverses them)."},
    {.name = "expand_dims", .params = "x: Expr, axis: ints[1]", .arguments = TRX__A_X,
     .attrs = &trx__expand_dims_attrs, .infer = trx__infer_expand_dims,
     .doc = "Inserts unit dims at the given positions of the output."},
    {.name = "squeeze", .params = "x: Expr, axis: ints?[1] = None", .arguments = TRX__A_X,
     .attrs = &trx__squeeze_attrs, .infer = trx__infer_squeeze,
     .doc = "Removes unit dims (all of them when axis is None)."},
    {.name = "flatten", .params = "x: Expr", .arguments = TRX__A_X, .infer = trx__infer_flatten,
     .doc = "x as a 1-D tensor."},
    {.name = "concat", .params = "tensors: Tuple, axis: int? = 0",
     .arguments = "tensors|Tuple of Tensors|The input list of tensors.", .attrs = &trx__concat_attrs,
     .infer = trx__infer_concat, .doc = "Joins tensors along axis (None flattens them first)."},
    {.name = "split", .params = "x: Expr, indices_or_sections: Any, axis: int = 0",
     .arguments = TRX__A_X, .attrs = &trx__split_attrs, .infer = trx__infer_split,
     .make = trx__make_split,
     .signature = "(0: ir.Expr, 1: Variant<ir.IntImm, Array<ir.IntImm>>, 2: int) -> ir.Expr",
     .doc = "Splits x along axis into sections (an int) or at indices (a list): a tuple."},
    {.name = "broadcast_to", .params = "x: Expr, shape: Shape",
     .arguments = TRX__A_X "\nshape|Shape|The target shape.", .infer = trx__infer_broadcast_to,
     .doc = "x broadcast to shape."},
    {.name = "stack", .params = "tensors: Tuple, axis: int? = 0",
     .arguments = "tensors|Tuple of Tensors|The input list of tensors to stack",
     .attrs = &trx__stack_attrs, .infer = trx__infer_stack,
     .doc = "Joins tensors of one shape along a new axis."},
    {.name = "flip", .params = "data: Expr, axis: int", .arguments = "data|Tensor|The input tensor.",
     .attrs = &trx__flip_attrs, .infer = trx__infer_flip, .doc = "Reverses data along axis."},
    {.name = "tile", .params = "data: Expr, repeats: ints[1]",
     .arguments = "data|Tensor|The input tensor.", .attrs = &trx__tile_attrs,
     .infer = trx__infer_tile, .doc = "Repeats data `repeats` times along each dim."},
    {.name = "one_hot",
     .params = "indices: Expr, on_value: Prim, off_value: Prim, depth: int, axis: int = -1",
     .arguments = "indices|Tensor|The indices tensor.\n"
                  "on_value|PrimExpr|The value to fill at specified indices.\n"
                  "off_value|PrimExpr|The value to fill at other indices.",
     .attrs = &trx__one_hot_attrs, .infer = trx__infer_one_hot, .check = trx__check_one_hot,
     .doc = "One-hot encoding of indices: depth values on a new axis."},
};
TRX__OPS_END(manip);
