/*
 * image.c -- the relax.image ops: resize2d, resize3d, grid_sample, affine_grid.  Their
 * inferences check the argument kinds themselves with TVM's texts ("Resize2D expects ..."),
 * not the generic "Operator ... requires argument i" of the other ops.  The resizes and
 * affine_grid take a size that TVM's wrappers widen (an int or PrimExpr n to (n, n) or
 * (n, n, n); a resize also a one-item list): their constructors do it (trx__make_resize,
 * trx__make_affine_grid).
 */
#include "../op.h"

/* ---- attrs types ---------------------------------------------------------------------------- */
#define TRX__RESIZE2D_FIELDS(F, T)                         \
  F(T, roi, ANY, "ffi.Array<ir.FloatImm>")                 \
  F(T, layout, STRING, "ffi.String")                       \
  F(T, method, STRING, "ffi.String")                       \
  F(T, coordinate_transformation_mode, STRING, "ffi.String") \
  F(T, rounding_method, STRING, "ffi.String")              \
  F(T, cubic_alpha, FLOAT64, "float")                      \
  F(T, cubic_exclude, INT64, "int")                        \
  F(T, extrapolation_value, FLOAT64, "float")              \
  F(T, out_dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_resize2d_attrs_t, TRX__RESIZE2D_FIELDS);
TRX_ATTRS_DECL(trx__resize2d_attrs, "relax.attrs.Resize2DAttrs", trx_resize2d_attrs_t,
               TRX__RESIZE2D_FIELDS);
TRX_ATTRS_DECL(trx__resize3d_attrs, "relax.attrs.Resize3DAttrs", trx_resize2d_attrs_t,
               TRX__RESIZE2D_FIELDS);

/* resize3d's rows carry this flag (resize2d's not). */
#define TRX__F_3D (1u << (TRX_OP_USER_SHIFT + 4))

#define TRX__GRID_SAMPLE_FIELDS(F, T)      \
  F(T, method, STRING, "ffi.String")       \
  F(T, layout, STRING, "ffi.String")       \
  F(T, padding_mode, STRING, "ffi.String") \
  F(T, align_corners, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_grid_sample_attrs_t, TRX__GRID_SAMPLE_FIELDS);
TRX_ATTRS_DECL(trx__grid_sample_attrs, "relax.attrs.GridSampleAttrs", trx_grid_sample_attrs_t,
               TRX__GRID_SAMPLE_FIELDS);

#define TRX__AFFINE_GRID_FIELDS(F, T) F(T, align_corners, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_affine_grid_attrs_t, TRX__AFFINE_GRID_FIELDS);
TRX_ATTRS_DECL(trx__affine_grid_attrs, "relax.attrs.AffineGridAttrs", trx_affine_grid_attrs_t,
               TRX__AFFINE_GRID_FIELDS);

/* ---- argument kinds, as these inferences check them ----------------------------------------------- */
/* "<who> expects <what> to be a <kind>, while the given <noun> is <type key>" unless arg i's
 * type is of `kind`; *ty: the borrowed type. */
static int trx__expect_kind(trx_call_t* call, int64_t i, trx_kind kind, const char* who,
                            const char* what, const char* kind_name, const char* noun,
                            TVMFFIObject** ty) {
  TVMFFIObject* arg = trx__call_arg(call, i);
  *ty = trx__ty(arg);
  if (*ty != NULL && trx_is(*ty, kind)) return 0;
  return tether_raise("TypeError", "%s expects %s to be a %s, while the given %s is %s", who, what,
                      kind_name, noun, tether_type_key(arg->type_index));
}
static int trx__expect_nargs(trx_call_t* call, const char* who, const char* count) {
  int64_t n = trx__call_nargs(call);
  if (n == 2) return 0;
  return tether_raise("ValueError", "%s expects %s arguments, while the given number of arguments is %lld",
                      who, count, (long long)n);
}
/* The values of a size argument that is a ShapeExpr (borrowed), else NULL. */
static TVMFFIObject* trx__size_values(trx_call_t* call, int64_t i) {
  TVMFFIObject* arg = trx__call_arg(call, i);
  return trx_is(arg, TRX_SHAPE_EXPR) ? ((trx_shape_expr_t*)arg)->values : NULL;
}

/* ---- resize2d / resize3d ----------------------------------------------------------------------------- */
/* The spatial axes (H, W or D, H, W) of data become the size's values. */
static TVMFFIObject* trx__infer_resize(const trx_op_def_t* def, trx_call_t* call) {
  trx_resize2d_attrs_t* attrs = (trx_resize2d_attrs_t*)call->attrs;
  const bool is3d = (def->flags & TRX__F_3D) != 0;
  const int spatial = is3d ? 3 : 2;
  const char* who = is3d ? "Resize3D" : "Resize2D";
  const char* tgt = is3d ? "NCDHW" : "NCHW";
  TVMFFIObject *dty, *sty;
  trx__layout_t l;
  if (trx__expect_nargs(call, who, "2") != 0 ||
      trx__expect_kind(call, 0, TRX_TENSOR_TYPE, who, "the input data", "Tensor", "data", &dty) != 0 ||
      trx__expect_kind(call, 1, TRX_SHAPE_TYPE, who, "the given output image size", "Shape", "one", &sty) != 0)
    return NULL;
  trx_tensor_type_t* data = (trx_tensor_type_t*)dty;
  int64_t size_ndim = ((trx_shape_type_t*)sty)->ndim;
  if (size_ndim != spatial) {
    return tether_raise("ValueError",
                        "%s expects the given output image size to be a %d-dim shape, while the "
                        "given one has ndim %lld",
                        who, spatial, (long long)size_ndim),
           NULL;
  }
  if (trx__check_layout(def, &attrs->layout, tgt, "data", &l) != 0 ||
      trx__check_layout_ndim(def, &l, data->ndim) != 0)
    return NULL;
  DLDataType dtype = attrs->out_dtype.type_index == kTVMFFIDataType ? attrs->out_dtype.v_dtype
                                                                     : trx_tensor_dtype(data);
  TVMFFIObject* dv = trx__shape_values(data);
  TVMFFIObject* sv = trx__size_values(call, 1);
  if (dv == NULL || sv == NULL) return trx__on_vdevice(trx__tensor_unknown(dtype, l.ndim), data);
  TVMFFIObject* d[5] = {NULL};
  TVMFFIObject* res[16] = {NULL};
  if (trx__layout_to(&l, dv, tgt, d) != 0) return NULL;
  for (int i = 0; i < spatial; ++i) {
    TVMFFIObjectDecRef(d[2 + i]);
    d[2 + i] = trx__ref(trx__dim(sv, i));
  }
  TVMFFIObject* ty = NULL;
  if (trx__layout_from(&l, d, tgt, res) == 0) ty = trx__tensor_from_dims_steal(res, l.ndim, dtype);
  trx__release_objects(d, 5);
  return trx__on_vdevice(ty, data);
}

/* ---- grid_sample ------------------------------------------------------------------------------------- */
/* The output takes N and C from the data and its spatial sizes from the grid's dims 2.. (as
 * TVM reads them: grid[2], grid[3] for NCHW; grid[2..4] for NCDHW). */
static TVMFFIObject* trx__infer_grid_sample(const trx_op_def_t* def, trx_call_t* call) {
  trx_grid_sample_attrs_t* attrs = (trx_grid_sample_attrs_t*)call->attrs;
  TVMFFIObject *dty, *gty;
  trx__layout_t l;
  if (trx__expect_nargs(call, "GridSample", "two") != 0 ||
      trx__expect_kind(call, 0, TRX_TENSOR_TYPE, "GridSample", "the input data", "Tensor", "data", &dty) != 0 ||
      trx__expect_kind(call, 1, TRX_TENSOR_TYPE, "GridSample", "the grid", "Tensor", "grid", &gty) != 0)
    return NULL;
  trx_tensor_type_t* data = (trx_tensor_type_t*)dty;
  TVMFFIByteArray ls = trx__str(&attrs->layout);
  const char* tgt = ls.size == 5 && memcmp(ls.data, "NCDHW", 5) == 0 ? "NCDHW" : "NCHW";
  int spatial = (int)strlen(tgt) - 2;
  if (trx__check_layout(def, &attrs->layout, tgt, "data", &l) != 0 ||
      trx__check_layout_ndim(def, &l, data->ndim) != 0)
    return NULL;
  DLDataType dtype = trx_tensor_dtype(data);
  TVMFFIObject* dv = trx__shape_values(data);
  TVMFFIObject* gv = trx__shape_values((trx_tensor_type_t*)gty);
  if (dv == NULL || gv == NULL) return trx__on_vdevice(trx__tensor_unknown(dtype, l.ndim), data);
  int64_t gn = tether_array_size(gv);
  if (gn < 2 + spatial) {
    return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)(gn < 2 ? 2 : gn),
                        (long long)gn),
           NULL;
  }
  TVMFFIObject* d[5] = {NULL};
  TVMFFIObject* res[16] = {NULL};
  if (trx__layout_to(&l, dv, tgt, d) != 0) return NULL;
  for (int i = 0; i < spatial; ++i) {
    TVMFFIObjectDecRef(d[2 + i]);
    d[2 + i] = trx__ref(trx__dim(gv, 2 + i));
  }
  TVMFFIObject* ty = NULL;
  if (trx__layout_from(&l, d, tgt, res) == 0) ty = trx__tensor_from_dims_steal(res, l.ndim, dtype);
  trx__release_objects(d, 5);
  return trx__on_vdevice(ty, data);
}

/* ---- affine_grid ------------------------------------------------------------------------------------- */
/* data (batch, s, s + 1) and size (H, W) or (D, H, W), s = len(size): (batch, s, *size). */
static TVMFFIObject* trx__infer_affine_grid(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  TVMFFIObject *dty, *sty;
  if (trx__expect_nargs(call, "AffineGrid", "two") != 0 ||
      trx__expect_kind(call, 0, TRX_TENSOR_TYPE, "AffineGrid", "the input data", "Tensor", "data", &dty) != 0 ||
      trx__expect_kind(call, 1, TRX_SHAPE_TYPE, "AffineGrid", "the target size", "Shape", "one", &sty) != 0)
    return NULL;
  trx_tensor_type_t* data = (trx_tensor_type_t*)dty;
  int64_t s = ((trx_shape_type_t*)sty)->ndim;
  if (s != 2 && s != 3) {
    return tether_raise("ValueError",
                        "AffineGrid expects the target size to be a 2-dim or 3-dim shape, while the "
                        "given one has ndim %lld",
                        (long long)s),
           NULL;
  }
  if (data->ndim != -1 && data->ndim != 3) {
    return tether_raise("ValueError",
                        "AffineGrid expects the input data to be 3-D (batch, spatial, spatial + 1), "
                        "but got ndim %lld",
                        (long long)data->ndim),
           NULL;
  }
  DLDataType dtype = trx_tensor_dtype(data);
  TVMFFIObject* dv = trx__shape_values(data);
  static const char* const which[] = {"second", "third"};
  for (int i = 0; dv != NULL && i < 2; ++i) {
    int64_t got;
    if (trx_as_const_int(trx__dim(dv, 1 + i), &got) && got != s + i) {
      return tether_raise("ValueError", "AffineGrid expects the %s dimension of input to be %lld, but got %lld",
                          which[i], (long long)(s + i), (long long)got),
             NULL;
    }
  }
  TVMFFIObject* sv = trx__size_values(call, 1);
  if (dv == NULL || sv == NULL) return trx__on_vdevice(trx__tensor_unknown(dtype, s + 2), data);
  TVMFFIObject* d[5] = {trx__ref(trx__dim(dv, 0)), trx_int64(s), NULL, NULL, NULL};
  for (int64_t i = 0; i < s; ++i) d[2 + i] = trx__ref(trx__dim(sv, i));
  return trx__on_vdevice(trx__tensor_from_dims_steal(d, s + 2, dtype), data);
}

/* ---- constructors: the size widening of TVM's wrappers -------------------------------------------- */
/* A size item: an int becomes an IntImm int64; an Expr is kept.  New reference or NULL (no
 * error raised) when it is neither. */
static TVMFFIObject* trx__size_item(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIInt) return trx_int_imm_new(trx__dtype_int64, v->v_int64);
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) return trx__ref(v->v_obj);
  return NULL;
}
/* An int or a PrimExpr (an Expr of PrimType) stands for (v, v). */
static bool trx__is_scalar_size(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIInt) return true;
  if (!tether_any_is_object(v) || !trx_is(v->v_obj, TRX_EXPR)) return false;
  TVMFFIObject* ty = trx__ty(v->v_obj);
  return ty != NULL && trx_is(ty, TRX_PRIM_TYPE);
}
/* The size argument as a ShapeExpr (or the Expr given): an int or PrimExpr v is `wide` copies
 * of v; with dup1, so is a one-item list. */
static int trx__read_size(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, int wide, bool dup1,
                          TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  TVMFFIObject* items[8] = {NULL};
  int64_t n = 0;
  *out = NULL;
  if (trx__is_scalar_size(v)) {
    if ((items[0] = trx__size_item(v)) == NULL) return -1; /* an int: IntImm failed to allocate */
    for (n = 1; n < wide; ++n) items[n] = trx__ref(items[0]);
  } else if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    bool is_list = v->type_index == kTVMFFIList;
    int64_t len = is_list ? tether_list_size(v->v_obj) : tether_array_size(v->v_obj);
    if (len > 8) return tether_raise("ValueError", "%s: size has %lld values", def->fname, (long long)len);
    for (n = 0; n < len; ++n) {
      const TVMFFIAny* e = is_list ? tether_list_at(v->v_obj, n) : tether_array_at(v->v_obj, n);
      items[n] = trx__size_item(e);
      if (items[n] == NULL) {
        trx__release_objects(items, n);
        return tether_raise("TypeError",
                            "Mismatched type on argument #%d when calling: `%s`. Expected "
                            "`Array<ir.PrimExpr>` but got `Array[index %lld: %s]`",
                            (int)i, def->fname, (long long)n, tether_any_type_key(e));
      }
    }
    if (dup1 && n == 1) {
      while (n < wide) items[n++] = trx__ref(items[0]);
    }
  } else {
    return trx__arg_expr(def, args, i, out); /* an Expr as it is; a str / float as an Imm */
  }
  TVMFFIObject* arr = trx__array_of(items, n);
  trx__release_objects(items, n);
  if (arr == NULL) return -1;
  *out = trx_shape_expr_new(arr);
  TVMFFIObjectDecRef(arr);
  return *out != NULL ? 0 : -1;
}

/* A roi item as Python's float() reads it: a number, a bool, a FloatImm, or a str holding a
 * number.  0, or -1 with TVM's wrapper's ValueError for a str that is not one; 1: none of those. */
static int trx__roi_item(const TVMFFIAny* e, double* x) {
  TVMFFIByteArray str;
  if (e->type_index == kTVMFFIFloat) *x = e->v_float64;
  else if (e->type_index == kTVMFFIInt || e->type_index == kTVMFFIBool) *x = (double)e->v_int64;
  else if (tether_any_is_object(e) && trx_is(e->v_obj, TRX_FLOAT_IMM)) *x = ((trx_float_imm_t*)e->v_obj)->value;
  else if (tether_any_get_str(e, &str)) {
    char buf[64], *end = NULL;
    int len = str.size < sizeof(buf) ? (int)str.size : (int)sizeof(buf) - 1;
    memcpy(buf, str.data, (size_t)len);
    buf[len] = '\0';
    *x = strtod(buf, &end);
    if (len == 0 || (size_t)len != str.size || *end != '\0') {
      return tether_raise("ValueError", "could not convert string to float: '%.*s'", (int)str.size, str.data);
    }
  } else {
    return 1;
  }
  return 0;
}

/* roi: None -> `count` 0.0; a float -> `count` of it; a list of numbers -> each; FloatImm float32.
 * Another int, bool or str is TVM's wrapper's NotImplementedError. */
static int trx__read_roi(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, int count,
                         TVMFFIAny* out) {
  const TVMFFIAny* v = &args[i];
  static const DLDataType f32 = {kDLFloat, 32, 1};
  TVMFFIObject* items[16] = {NULL};
  int64_t n = 0;
  double x;
  TVMFFIByteArray str;
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool || tether_any_get_str(v, &str)) {
    return tether_raise("NotImplementedError", "Unsupported roi type <class '%s'>",
                        v->type_index == kTVMFFIInt ? "int" : v->type_index == kTVMFFIBool ? "bool" : "str");
  }
  if (v->type_index == kTVMFFINone || v->type_index == kTVMFFIFloat) {
    x = v->type_index == kTVMFFIFloat ? v->v_float64 : 0.0;
    for (n = 0; n < count; ++n) {
      if ((items[n] = trx_float_imm_new(f32, x)) == NULL) goto fail;
    }
  } else if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    bool is_list = v->type_index == kTVMFFIList;
    int64_t len = is_list ? tether_list_size(v->v_obj) : tether_array_size(v->v_obj);
    if (len > 16) return tether_raise("ValueError", "%s: roi has %lld values", def->fname, (long long)len);
    for (n = 0; n < len; ++n) {
      const TVMFFIAny* e = is_list ? tether_list_at(v->v_obj, n) : tether_array_at(v->v_obj, n);
      int rc = trx__roi_item(e, &x);
      if (rc != 0) {
        trx__release_objects(items, n);
        if (rc < 0) return -1;
        return tether_raise("TypeError",
                            "Mismatched type on argument #%d when calling: `%s`. Expected "
                            "`Array<ir.FloatImm>` but got `Array[index %lld: %s]`",
                            (int)i, def->fname, (long long)n, tether_any_type_key(e));
      }
      if ((items[n] = trx_float_imm_new(f32, x)) == NULL) goto fail;
    }
  } else {
    return tether_raise("TypeError", "Mismatched type on argument #%d when calling: `%s`. Expected `Array<ir.FloatImm>` but got `%s`",
                        (int)i, def->fname, tether_any_type_key(v));
  }
  TVMFFIObject* arr = trx__array_of(items, n);
  trx__release_objects(items, n);
  if (arr == NULL) return -1;
  *out = tether_any_object(arr);
  return 0;
fail:
  trx__release_objects(items, n);
  return -1;
}

static int trx__make_resize(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n, TVMFFIObject** out) {
  (void)n;
  const int spatial = (def->flags & TRX__F_3D) != 0 ? 3 : 2;
  TVMFFIObject* in[2] = {NULL, NULL};
  trx_resize2d_attrs_t* a = (trx_resize2d_attrs_t*)trx__attrs_new(def);
  *out = NULL;
  if (a == NULL || trx__arg_expr(def, args, 0, &in[0]) != 0 || trx__read_size(def, args, 1, spatial, true, &in[1]) != 0 ||
      trx__read_roi(def, args, 2, 2 * spatial, &a->roi) != 0 || trx__arg_string(def, args, 3, false, &a->layout) != 0 ||
      trx__arg_string(def, args, 4, false, &a->method) != 0 ||
      trx__arg_string(def, args, 5, false, &a->coordinate_transformation_mode) != 0 ||
      trx__arg_string(def, args, 6, false, &a->rounding_method) != 0 ||
      trx__arg_f64(def, args, 7, &a->cubic_alpha) != 0 || trx__arg_i64(def, args, 8, &a->cubic_exclude) != 0 ||
      trx__arg_f64(def, args, 9, &a->extrapolation_value) != 0 ||
      trx__arg_opt_dtype(def, args, 10, true, &a->out_dtype) != 0) {
    trx__release_objects(in, 2);
    if (a != NULL) TVMFFIObjectDecRef((TVMFFIObject*)a);
    return -1;
  }
  return trx__make_call_steal(def, in, 2, (TVMFFIObject*)a, out);
}

static int trx__make_affine_grid(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n,
                                 TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* in[2] = {NULL, NULL};
  trx_affine_grid_attrs_t* a = (trx_affine_grid_attrs_t*)trx__attrs_new(def);
  *out = NULL;
  if (a == NULL || trx__arg_expr(def, args, 0, &in[0]) != 0 || trx__read_size(def, args, 1, 2, false, &in[1]) != 0 ||
      trx__arg_flag(def, args, 2, &a->align_corners) != 0) {
    trx__release_objects(in, 2);
    if (a != NULL) TVMFFIObjectDecRef((TVMFFIObject*)a);
    return -1;
  }
  return trx__make_call_steal(def, in, 2, (TVMFFIObject*)a, out);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__RESIZE_ROW(NAME, LAYOUT, ROUNDING, ATTRS, FLAGS, DOC)                                   \
  {.name = NAME,                                                                                     \
   .params = "data: Expr, size: Shape, roi: Any = None, layout: str = \"" LAYOUT "\", method: str = " \
             "\"linear\", coordinate_transformation_mode: str = \"half_pixel\", rounding_method: "   \
             "str = \"" ROUNDING "\", cubic_alpha: float = -0.75, cubic_exclude: int = 0, "            \
             "extrapolation_value: float = 0.0, out_dtype: dtype? = None",                            \
   .arguments = "data|Tensor|The input tensor.\nsize|Shape|The output image shape.",                \
   .attrs = &ATTRS, .infer = trx__infer_resize, .make = trx__make_resize,                            \
   .signature = "(0: ir.Expr, 1: ir.Expr, 2: Array<ir.FloatImm>, 3: str, 4: str, 5: str, 6: str, "  \
                "7: float, 8: int, 9: float, 10: Optional<DataType>) -> ir.Expr",                   \
   .flags = FLAGS, .doc = DOC}

TRX__OPS(image){
    TRX__RESIZE_ROW("image.resize2d", "NCHW", "round", trx__resize2d_attrs, 0,
                    "Resizes the H and W axes of an image to size (an int n is (n, n))."),
    TRX__RESIZE_ROW("image.resize3d", "NCDHW", "", trx__resize3d_attrs, TRX__F_3D,
                    "Resizes the D, H and W axes of a volume to size (an int n is (n, n, n))."),
    {.name = "image.grid_sample",
     .params = "data: Expr, grid: Expr, method: str = \"bilinear\", layout: str = \"NCHW\", "
               "padding_mode: str = \"zeros\", align_corners: bool = False",
     .arguments = "data|Tensor|The input tensor.\ngrid|Tensor|The grid tensor for sampling.",
     .attrs = &trx__grid_sample_attrs, .infer = trx__infer_grid_sample,
     .doc = "Samples data at the normalized grid coordinates."},
    {.name = "image.affine_grid",
     .params = "data: Expr, size: Shape, align_corners: bool = True",
     .arguments = "data|Tensor|The input affine matrix tensor.\nsize|Shape|The target output shape "
                  "(H, W).",
     .attrs = &trx__affine_grid_attrs, .infer = trx__infer_affine_grid, .make = trx__make_affine_grid,
     .doc = "A 2-D or 3-D sampling grid from batched affine matrices."},
};
TRX__OPS_END(image);
