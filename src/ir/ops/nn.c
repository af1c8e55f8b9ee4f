/*
 * nn.c -- the relax.nn.* ops: convolutions, pooling, activations, softmax, batch/layer norm,
 * dropout.  Each is a declaration at the end of the file (its parameters as TVM's Python
 * signature, its attrs type, its inference and its constructor-time check); the shape rules,
 * normalizations and error texts are TVM's (relax.md section 1).
 */
#include "../op.h"

#include "../arith.h"

/* ---- attrs types ---------------------------------------------------------------------------- */
#define TRX__SOFTMAX_FIELDS(F, T) F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_softmax_attrs_t, TRX__SOFTMAX_FIELDS);
TRX_ATTRS_DECL(trx__softmax_attrs, "relax.attrs.SoftmaxAttrs", trx_softmax_attrs_t, TRX__SOFTMAX_FIELDS);

#define TRX__BATCH_NORM_FIELDS(F, T) \
  F(T, axis, INT64, "int")           \
  F(T, epsilon, FLOAT64, "float")    \
  F(T, center, BOOL, "bool")         \
  F(T, scale, BOOL, "bool")          \
  F(T, momentum, FLOAT64, "float")   \
  F(T, training, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_batch_norm_attrs_t, TRX__BATCH_NORM_FIELDS);
TRX_ATTRS_DECL(trx__batch_norm_attrs, "relax.attrs.BatchNormAttrs", trx_batch_norm_attrs_t,
               TRX__BATCH_NORM_FIELDS);

#define TRX__LAYER_NORM_FIELDS(F, T)      \
  F(T, axes, OBJECT, "ffi.Array<int>")    \
  F(T, epsilon, FLOAT64, "float")         \
  F(T, center, BOOL, "bool")              \
  F(T, scale, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_layer_norm_attrs_t, TRX__LAYER_NORM_FIELDS);
TRX_ATTRS_DECL(trx__layer_norm_attrs, "relax.attrs.LayerNormAttrs", trx_layer_norm_attrs_t,
               TRX__LAYER_NORM_FIELDS);

#define TRX__DROPOUT_FIELDS(F, T) F(T, rate, FLOAT64, "float")
TRX_ATTRS_STRUCT(trx_dropout_attrs_t, TRX__DROPOUT_FIELDS);
TRX_ATTRS_DECL(trx__dropout_attrs, "relax.attrs.DropoutAttrs", trx_dropout_attrs_t, TRX__DROPOUT_FIELDS);

#define TRX__PRELU_FIELDS(F, T) F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_prelu_attrs_t, TRX__PRELU_FIELDS);
TRX_ATTRS_DECL(trx__prelu_attrs, "relax.attrs.PReluAttrs", trx_prelu_attrs_t, TRX__PRELU_FIELDS);

#define TRX__LEAKY_RELU_FIELDS(F, T) F(T, alpha, FLOAT64, "float")
TRX_ATTRS_STRUCT(trx_leaky_relu_attrs_t, TRX__LEAKY_RELU_FIELDS);
TRX_ATTRS_DECL(trx__leaky_relu_attrs, "relax.attrs.LeakyReluAttrs", trx_leaky_relu_attrs_t,
               TRX__LEAKY_RELU_FIELDS);

#define TRX__SOFTPLUS_FIELDS(F, T) \
  F(T, beta, FLOAT64, "float")     \
  F(T, threshold, FLOAT64, "float")
TRX_ATTRS_STRUCT(trx_softplus_attrs_t, TRX__SOFTPLUS_FIELDS);
TRX_ATTRS_DECL(trx__softplus_attrs, "relax.attrs.SoftplusAttrs", trx_softplus_attrs_t, TRX__SOFTPLUS_FIELDS);

#define TRX__RMS_NORM_FIELDS(F, T)     \
  F(T, axes, OBJECT, "ffi.Array<int>") \
  F(T, epsilon, FLOAT64, "float")
TRX_ATTRS_STRUCT(trx_rms_norm_attrs_t, TRX__RMS_NORM_FIELDS);
TRX_ATTRS_DECL(trx__rms_norm_attrs, "relax.attrs.RMSNormAttrs", trx_rms_norm_attrs_t, TRX__RMS_NORM_FIELDS);

#define TRX__GROUP_NORM_FIELDS(F, T)   \
  F(T, num_groups, INT64, "int")       \
  F(T, channel_axis, INT64, "int")     \
  F(T, axes, OBJECT, "ffi.Array<int>") \
  F(T, epsilon, FLOAT64, "float")      \
  F(T, center, BOOL, "bool")           \
  F(T, scale, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_group_norm_attrs_t, TRX__GROUP_NORM_FIELDS);
TRX_ATTRS_DECL(trx__group_norm_attrs, "relax.attrs.GroupNormAttrs", trx_group_norm_attrs_t,
               TRX__GROUP_NORM_FIELDS);

#define TRX__PAD_FIELDS(F, T)               \
  F(T, pad_width, OBJECT, "ffi.Array<int>") \
  F(T, pad_value, FLOAT64, "float")         \
  F(T, pad_mode, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_pad_attrs_t, TRX__PAD_FIELDS);
TRX_ATTRS_DECL(trx__pad_attrs, "relax.attrs.PadAttrs", trx_pad_attrs_t, TRX__PAD_FIELDS);


/* ---- softmax / log_softmax ---------------------------------------------------------------------------- */


static TVMFFIObject* trx__infer_softmax(const trx_op_def_t* def, trx_call_t* call) {
  trx_softmax_attrs_t* attrs = (trx_softmax_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  int64_t axis;
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if (tt[0]->ndim == -1) return trx__ref((TVMFFIObject*)tt[0]);
  if (trx__require_float(def, "Softmax", trx_tensor_dtype(tt[0])) != 0 ||
      trx__normalize_axis(def, tt[0]->ndim, attrs->axis, &axis) != 0)
    return NULL;
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- batch_norm / layer_norm ------------------------------------------------------------------------------ */



/* NormCheckDtypeAndShape: *unknown set when the lengths could not be proved equal. */
static int trx__norm_check(const trx_op_def_t* def, trx_call_t* call, int nin, TVMFFIObject* axes,
                           trx_tensor_type_t** tt, bool* unknown) {
  int64_t* ax = NULL;
  int64_t naxes = trx__iarr_size(axes);
  char name[64];
  *unknown = false;
  if (trx__check_args(def, call, nin, tt) != 0) return -1;
  if (tt[0]->ndim != -1 && trx__normalize_axes(def, tt[0]->ndim, axes, &ax) != 0) return -1;
  trx__sb_t sb = {0};
  if (!trx__dtype_is_void(trx_tensor_dtype(tt[0])) && !trx__dtype_is_float(trx_tensor_dtype(tt[0]))) {
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " requires the input data to have float dtype. However, the given data dtype is ");
    trx__sb_dtype(&sb, trx_tensor_dtype(tt[0]));
    free(ax);
    return trx__sb_raise(&sb, "TypeError");
  }
  for (int i = 1; i < nin; ++i) {
    if (!trx__dtype_equal(trx_tensor_dtype(tt[i]), trx_tensor_dtype(tt[0]))) {
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " requires all the input tensors to have the same dtype. However, the %s has dtype ",
                     trx__arg_name(def, i, name, sizeof(name)));
      trx__sb_dtype(&sb, trx_tensor_dtype(tt[i]));
      trx__sb_printf(&sb, " which is other than the input data's dtype ");
      trx__sb_dtype(&sb, trx_tensor_dtype(tt[0]));
      free(ax);
      return trx__sb_raise(&sb, "TypeError");
    }
    if (tt[i]->ndim != naxes) {
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb,
                     " requires the input %s to have as many dimensions as the length of input "
                     "axes. However, the given one has ndim %lld, which is other than the length "
                     "of axes %lld",
                     trx__arg_name(def, i, name, sizeof(name)), (long long)tt[i]->ndim, (long long)naxes);
      free(ax);
      return trx__sb_raise(&sb, "ValueError");
    }
  }
  /* Every known shape among the data's lengths on the axes, gamma's, beta's, ... must equal the
   * first of them (as TVM: without the data's shape, gamma's is the reference). */
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  bool ref_data = dv != NULL && ax != NULL;
  TVMFFIObject* ref = NULL;
  for (int i = 1; i < nin; ++i) {
    TVMFFIObject* iv = trx__shape_values(tt[i]);
    if (iv == NULL) continue;
    if (!ref_data && ref == NULL) {
      ref = iv;
      continue;
    }
    for (int64_t j = 0; j < naxes; ++j) {
      trx_prove_t p = trx_prove_equal(ref_data ? trx__dim(dv, ax[j]) : trx__dim(ref, j), trx__dim(iv, j));
      if (p == TRX_PROVE_UNKNOWN) *unknown = true;
      if (p != TRX_PROVE_FALSE) continue;
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb,
                     " requires the input gamma, beta, etc., to have size same as the lengths of "
                     "the data on the given axes. However, there exists ");
      if (ref_data) {
        trx__sb_printf(&sb, "(");
        for (int64_t k = 0; k < naxes; ++k) {
          if (k) trx__sb_printf(&sb, ", ");
          trx__sb_node(&sb, trx__dim(dv, ax[k]));
        }
        trx__sb_printf(&sb, "%s)", naxes == 1 ? "," : "");
      } else {
        trx__sb_expr_tuple(&sb, ref);
      }
      trx__sb_printf(&sb, " and ");
      trx__sb_expr_tuple(&sb, iv);
      trx__sb_printf(&sb, " that are unequal.");
      free(ax);
      return trx__sb_raise(&sb, "ValueError");
    }
  }
  free(ax);
  return 0;
}

static TVMFFIObject* trx__infer_batch_norm(const trx_op_def_t* def, trx_call_t* call) {
  trx_batch_norm_attrs_t* attrs = (trx_batch_norm_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[5];
  bool unknown;
  TVMFFIObject* axes = trx__iarr_new(&attrs->axis, 1);
  if (axes == NULL) return NULL;
  int rc = trx__norm_check(def, call, 5, axes, tt, &unknown);
  TVMFFIObjectDecRef(axes);
  if (rc != 0) return NULL;
  TVMFFIObject* f[3] = {NULL, NULL, NULL};
  if (unknown) {
    f[0] = trx__tensor_unknown(trx_tensor_dtype(tt[0]), tt[0]->ndim);
    f[1] = trx__tensor_unknown(trx_tensor_dtype(tt[0]), 1);
    f[2] = trx__tensor_unknown(trx_tensor_dtype(tt[0]), 1);
  } else {
    f[0] = trx__ref((TVMFFIObject*)tt[0]);
    f[1] = trx__ref((TVMFFIObject*)tt[3]);
    f[2] = trx__ref((TVMFFIObject*)tt[4]);
  }
  TVMFFIObject* ty = NULL;
  if (f[0] && f[1] && f[2]) {
    TVMFFIObject* arr = trx__array_of(f, 3);
    if (arr) {
      ty = trx_tuple_type_new(arr);
      TVMFFIObjectDecRef(arr);
    }
  }
  trx__release_objects(f, 3);
  return ty;
}

static TVMFFIObject* trx__infer_layer_norm(const trx_op_def_t* def, trx_call_t* call) {
  trx_layer_norm_attrs_t* attrs = (trx_layer_norm_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[3];
  bool unknown;
  if (trx__norm_check(def, call, 3, attrs->axes, tt, &unknown) != 0) return NULL;
  if (unknown) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), tt[0]->ndim);
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- dropout ------------------------------------------------------------------------------------------------ */


static TVMFFIObject* trx__infer_dropout(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  TVMFFIObject* f[2] = {(TVMFFIObject*)tt[0], (TVMFFIObject*)tt[0]};
  TVMFFIObject* arr = trx__array_of(f, 2);
  if (arr == NULL) return NULL;
  TVMFFIObject* ty = trx_tuple_type_new(arr);
  TVMFFIObjectDecRef(arr);
  return ty;
}

/* ---- prelu ------------------------------------------------------------------------------------------- */
/* The data's type; float data and an axis in range (an unknown rank checks nothing). */
static TVMFFIObject* trx__infer_prelu(const trx_op_def_t* def, trx_call_t* call) {
  trx_prelu_attrs_t* attrs = (trx_prelu_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  int64_t axis;
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  if (tt[0]->ndim == -1) return trx__ref((TVMFFIObject*)tt[0]);
  if (trx__require_float(def, "Prelu", trx_tensor_dtype(tt[0])) != 0 ||
      trx__normalize_axis(def, tt[0]->ndim, attrs->axis, &axis) != 0)
    return NULL;
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- group_norm -------------------------------------------------------------------------------------- */
static TVMFFIObject* trx__infer_group_norm(const trx_op_def_t* def, trx_call_t* call) {
  trx_group_norm_attrs_t* attrs = (trx_group_norm_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[3];
  int64_t channel, *ax = NULL;
  trx__sb_t sb = {0};
  if (trx__check_args(def, call, 3, tt) != 0) return NULL;
  if (tt[0]->ndim == -1) return trx__ref((TVMFFIObject*)tt[0]);
  if (trx__normalize_axis(def, tt[0]->ndim, attrs->channel_axis, &channel) != 0 ||
      trx__normalize_axes(def, tt[0]->ndim, attrs->axes, &ax) != 0)
    return NULL;
  for (int64_t i = 0; i < trx__iarr_size(attrs->axes); ++i) {
    if (ax[i] != channel) continue;
    free(ax);
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects that channel_axis must not be in axes, but got channel_axis: %lld, axes: ",
                   (long long)channel);
    trx__sb_iarr(&sb, attrs->axes);
    return trx__sb_raise(&sb, "ValueError"), NULL;
  }
  free(ax);
  DLDataType dt = trx_tensor_dtype(tt[0]);
  if (!trx__dtype_is_void(dt) && !trx__dtype_is_float(dt)) {
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects that data must be float, but got ");
    trx__sb_dtype(&sb, dt);
    return trx__sb_raise(&sb, "TypeError"), NULL;
  }
  for (int i = 1; i < 3; ++i) {
    if (!trx__dtype_equal(trx_tensor_dtype(tt[i]), dt)) {
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " expects that all inputs must have the same dtype, but got ");
      trx__sb_dtype(&sb, trx_tensor_dtype(tt[i]));
      trx__sb_printf(&sb, " and ");
      trx__sb_dtype(&sb, dt);
      return trx__sb_raise(&sb, "TypeError"), NULL;
    }
    if (tt[i]->ndim != 1) {
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " expects that all inputs must have ndim=1, but got %lld", (long long)tt[i]->ndim);
      return trx__sb_raise(&sb, "ValueError"), NULL;
    }
  }
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL) return trx__ref((TVMFFIObject*)tt[0]);
  TVMFFIObject* c = trx__dim(dv, channel);
  if (attrs->num_groups == 0) {
    return tether_raise("InternalError", "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"), NULL;
  }
  TVMFFIObject* g = trx_int64(attrs->num_groups);
  TVMFFIObject* m = g != NULL ? trx_floormod(c, g) : NULL;
  int64_t rem = 0;
  bool bad = m != NULL && trx_as_const_int(m, &rem) && rem != 0;
  if (g != NULL) TVMFFIObjectDecRef(g);
  if (m != NULL) TVMFFIObjectDecRef(m);
  else return NULL;
  if (bad) {
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects that the size of channel_axis must be divisible by %lld, but got ",
                   (long long)attrs->num_groups);
    trx__sb_node(&sb, c);
    return trx__sb_raise(&sb, "ValueError"), NULL;
  }
  for (int i = 1; i < 3; ++i) {
    TVMFFIObject* iv = trx__shape_values(tt[i]);
    if (iv == NULL || trx_prove_equal(trx__dim(iv, 0), c) != TRX_PROVE_FALSE) continue;
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects that the size of input %d must be equal to the size of channel_axis, but got ", i);
    trx__sb_node(&sb, trx__dim(iv, 0));
    trx__sb_printf(&sb, " and ");
    trx__sb_node(&sb, c);
    return trx__sb_raise(&sb, "ValueError"), NULL;
  }
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- rms_norm: NormCheckDtypeAndShape over (data, weight) ----------------------------------------------- */
static TVMFFIObject* trx__infer_rms_norm(const trx_op_def_t* def, trx_call_t* call) {
  trx_rms_norm_attrs_t* attrs = (trx_rms_norm_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  bool unknown;
  if (trx__norm_check(def, call, 2, attrs->axes, tt, &unknown) != 0) return NULL;
  if (unknown) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), tt[0]->ndim);
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- pad ----------------------------------------------------------------------------------------------- */
/* dim i + pad_width[2i] + pad_width[2i+1]; pad_width has 2 values per dim (InternalError
 * otherwise, an unknown rank included). */
static TVMFFIObject* trx__infer_pad(const trx_op_def_t* def, trx_call_t* call) {
  trx_pad_attrs_t* attrs = (trx_pad_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  int64_t ndim = tt[0]->ndim;
  if (trx__iarr_size(attrs->pad_width) != 2 * ndim) {
    return tether_raise("InternalError",
                        "Check failed: (static_cast<int>(pad_width.size()) == 2 * ndim) is false: "
                        "Illegal pad_width"),
           NULL;
  }
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* ty;
  if (dv == NULL) {
    ty = trx__tensor_unknown(dtype, ndim);
  } else {
    TVMFFIObject** d = trx__dims_new(ndim);
    if (d == NULL) return NULL;
    for (int64_t i = 0; i < ndim; ++i) {
      int64_t before = trx__iarr_at(attrs->pad_width, 2 * i), after = trx__iarr_at(attrs->pad_width, 2 * i + 1);
      int64_t xv, pads, r;
      TVMFFIObject* x = trx__dim(dv, i);
      bool const_x = trx__const_i64(x, &xv);
      if (__builtin_add_overflow(before, after, &pads) || (const_x && __builtin_add_overflow(xv, pads, &r))) {
        trx__dims_free(d, ndim);
        trx__sb_t sb = {0};
        trx__sb_printf(&sb, "In ");
        trx__sb_op(&sb, def);
        trx__sb_printf(&sb, ", the output shape overflows int64");
        return trx__sb_raise(&sb, "ValueError"), NULL;
      }
      if (const_x) {
        d[i] = trx_int64(r);
      } else {
        TVMFFIObject* p = trx_int64(pads);
        d[i] = p != NULL ? trx_add(x, p) : NULL;
        if (p != NULL) TVMFFIObjectDecRef(p);
      }
      if (d[i] == NULL) {
        trx__dims_free(d, ndim);
        return NULL;
      }
    }
    ty = trx__tensor_steal_free(d, ndim, dtype);
  }
  return trx__on_vdevice(ty, tt[0]);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_X "x|Tensor|The input tensor."
#define TRX__A_DATA "data|Tensor|The input tensor."
#define TRX__A_DATA_NODOT "data|Tensor|The input tensor"
TRX__OPS(nn){
    {.name = "nn.relu", .params = "data: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary,
     .doc = "max(x, 0)."},
    {.name = "nn.gelu", .params = "data: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary,
     .flags = TRX__F_FLOAT, .doc = "GELU; float input."},
    {.name = "nn.gelu_tanh", .params = "data: Expr", .arguments = TRX__A_X,
     .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "GELU, tanh approximation; float input."},
    {.name = "nn.silu", .params = "data: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary,
     .flags = TRX__F_FLOAT, .doc = "x * sigmoid(x); float input."},
    {.name = "nn.selu", .params = "data: Expr", .arguments = TRX__A_X, .infer = trx__infer_unary,
     .flags = TRX__F_FLOAT, .doc = "SELU; float input."},
    {.name = "nn.softmax", .params = "data: Expr, axis: int = -1", .arguments = TRX__A_DATA,
     .attrs = &trx__softmax_attrs, .infer = trx__infer_softmax,
     .doc = "Softmax over axis; float input."},
    {.name = "nn.log_softmax", .params = "data: Expr, axis: int = -1", .arguments = TRX__A_DATA,
     .attrs = &trx__softmax_attrs, .infer = trx__infer_softmax,
     .doc = "log(softmax(x)) over axis; float input."},
    {.name = "nn.batch_norm",
     .params = "data: Expr, gamma: Expr, beta: Expr, moving_mean: Expr, moving_var: Expr, axis: "
               "int, epsilon: float = 1e-05, center: bool = True, scale: bool = True, momentum: "
               "float = 0.1, training: bool = True",
     .arguments = "data|Tensor|Input to which batch_norm will be applied.\ngamma|Tensor|The gamma "
                  "scale factor.\nbeta|Tensor|The beta offset factor.\nmoving_mean|Tensor|Running "
                  "mean of input.\nmoving_var|Tensor|Running variance of input.",
     .attrs = &trx__batch_norm_attrs, .infer = trx__infer_batch_norm,
     .doc = "Batch normalization: a tuple (out, new_mean, new_var)."},
    {.name = "nn.layer_norm",
     .params = "data: Expr, gamma: Expr, beta: Expr, axes: ints[1], epsilon: float = 1e-05, "
               "center: bool = True, scale: bool = True",
     .arguments = "data|Tensor|Input to which layer_norm will be applied.\ngamma|Tensor|The "
                  "gamma scale factor.\nbeta|Tensor|The beta offset factor.",
     .attrs = &trx__layer_norm_attrs, .infer = trx__infer_layer_norm,
     .doc = "Layer normalization over axes."},
    {.name = "nn.dropout", .params = "data: Expr, rate: float = 0.5",
     .arguments = "data|Tensor|Input to which dropout will be applied.",
     .attrs = &trx__dropout_attrs, .infer = trx__infer_dropout,
     .doc = "Dropout: a tuple (out, mask)."},

    {.name = "nn.leakyrelu", .params = "data: Expr, alpha: float = 0.01", .arguments = TRX__A_DATA,
     .attrs = &trx__leaky_relu_attrs, .infer = trx__infer_unary, .flags = TRX__F_FLOAT,
     .doc = "max(x, 0) + alpha * min(x, 0); float input."},
    {.name = "nn.softplus", .params = "data: Expr, beta: float = 1.0, threshold: float = 20.0",
     .arguments = TRX__A_DATA, .attrs = &trx__softplus_attrs, .infer = trx__infer_unary,
     .flags = TRX__F_FLOAT, .doc = "log(1 + exp(beta * x)) / beta (x beyond threshold kept); float input."},
    {.name = "nn.prelu", .params = "data: Expr, alpha: Expr, axis: int = 1",
     .arguments = TRX__A_DATA "\nalpha|Tensor|The channel-wise learnable slope.",
     .attrs = &trx__prelu_attrs, .infer = trx__infer_prelu,
     .doc = "x if x > 0 else alpha * x, alpha along axis; float input."},
    {.name = "nn.group_norm",
     .params = "data: Expr, gamma: Expr, beta: Expr, num_groups: int, channel_axis: int, axes: "
               "ints[1], epsilon: float = 1e-05, center: bool = True, scale: bool = True",
     .arguments = "data|Tensor|Input to which group_norm will be applied.\ngamma|Tensor|The gamma "
                  "scale factor.\nbeta|Tensor|The beta offset factor.",
     .attrs = &trx__group_norm_attrs, .infer = trx__infer_group_norm,
     .doc = "Group normalization: channels split into num_groups, normalized over axes."},
    {.name = "nn.rms_norm", .params = "data: Expr, weight: Expr, axes: ints[1] = -1, epsilon: float = 1e-05",
     .arguments = "data|Tensor|Input to which rms_norm will be applied.\nweight|Tensor|The scale factor.",
     .attrs = &trx__rms_norm_attrs, .infer = trx__infer_rms_norm,
     .doc = "data / sqrt(mean(data^2, axes) + epsilon) * weight."},
    {.name = "nn.pad",
     .params = "data: Expr, pad_width: ints, pad_mode: str = \"constant\", pad_value: float = 0.0",
     .arguments = TRX__A_DATA, .attrs = &trx__pad_attrs, .infer = trx__infer_pad,
     .doc = "Pads each axis by (before, after) widths: constant, reflect, replicate, circular, ..."},
};
TRX__OPS_END(nn);
