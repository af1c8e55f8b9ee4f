/*
 * nn.c -- the relax.nn.* ops: convolutions, pooling, activations, softmax, batch/layer norm,
 * dropout.  Each is a declaration at the end of the file (its parameters as TVM's Python
 * signature, its attrs type, its inference and its constructor-time check); the shape rules,
 * normalizations and error texts are TVM's (relax.md section 1).
 */
#include "../op.h"

#include "../arith.h"

/* ---- attrs types ---------------------------------------------------------------------------- */
#define TRX__CONV_FIELDS(F, T)               \
  F(T, strides, OBJECT, "ffi.Array<int>")    \
  F(T, padding, OBJECT, "ffi.Array<int>")    \
  F(T, dilation, OBJECT, "ffi.Array<int>")   \
  F(T, groups, INT64, "int")                 \
  F(T, data_layout, STRING, "ffi.String")    \
  F(T, kernel_layout, STRING, "ffi.String")  \
  F(T, out_layout, STRING, "ffi.String")     \
  F(T, out_dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_conv_attrs_t, TRX__CONV_FIELDS);
TRX_ATTRS_DECL(trx__conv1d_attrs, "relax.attrs.Conv1DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS);
TRX_ATTRS_DECL(trx__conv2d_attrs, "relax.attrs.Conv2DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS);

#define TRX__CONV_TRANSPOSE_FIELDS(F, T)      \
  F(T, strides, OBJECT, "ffi.Array<int>")        \
  F(T, padding, OBJECT, "ffi.Array<int>")        \
  F(T, output_padding, OBJECT, "ffi.Array<int>") \
  F(T, dilation, OBJECT, "ffi.Array<int>")       \
  F(T, groups, INT64, "int")                     \
  F(T, data_layout, STRING, "ffi.String")        \
  F(T, kernel_layout, STRING, "ffi.String")      \
  F(T, out_layout, STRING, "ffi.String")         \
  F(T, out_dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);
TRX_ATTRS_DECL(trx__conv2d_transpose_attrs, "relax.attrs.Conv2DTransposeAttrs",
               trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);

#define TRX__POOL2D_FIELDS(F, T)             \
  F(T, pool_size, OBJECT, "ffi.Array<int>")  \
  F(T, strides, OBJECT, "ffi.Array<int>")    \
  F(T, dilation, OBJECT, "ffi.Array<int>")   \
  F(T, padding, OBJECT, "ffi.Array<int>")    \
  F(T, ceil_mode, BOOL, "bool")              \
  F(T, count_include_pad, BOOL, "bool")      \
  F(T, layout, STRING, "ffi.String")         \
  F(T, out_layout, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_pool2d_attrs_t, TRX__POOL2D_FIELDS);
TRX_ATTRS_DECL(trx__pool2d_attrs, "relax.attrs.Pool2DAttrs", trx_pool2d_attrs_t, TRX__POOL2D_FIELDS);

#define TRX__ADAPTIVE_POOL2D_FIELDS(F, T)                      \
  F(T, output_size, OPT_OBJECT, "Optional<ffi.Array<int>>")    \
  F(T, layout, STRING, "ffi.String")                           \
  F(T, out_layout, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_adaptive_pool2d_attrs_t, TRX__ADAPTIVE_POOL2D_FIELDS);
TRX_ATTRS_DECL(trx__adaptive_pool2d_attrs, "relax.attrs.AdaptivePool2DAttrs",
               trx_adaptive_pool2d_attrs_t, TRX__ADAPTIVE_POOL2D_FIELDS);

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

/* ---- shared pieces ------------------------------------------------------------------------- */

/* Duplicates a length-1 int array to length `n`, returning a new Array (or a new reference
 * to `arr` when it needs no change). */
static TVMFFIObject* trx__dup1(TVMFFIObject* arr, int n) {
  if (trx__iarr_size(arr) == 1 && n > 1) {
    int64_t v[4];
    for (int i = 0; i < n; ++i) v[i] = trx__iarr_at(arr, 0);
    return trx__iarr_new(v, n);
  }
  return trx__ref(arr);
}

/* GetCompletePadding{1,2}D: a new Array of 2*spatial values, or NULL with InternalError. */
static TVMFFIObject* trx__complete_padding(TVMFFIObject* pad, int spatial) {
  int64_t n = trx__iarr_size(pad);
  int64_t v[4];
  if (n == 2 * spatial) return trx__ref(pad); /* already complete */
  if (spatial == 1) {
    if (n == 1 || n == 2) {
      v[0] = trx__iarr_at(pad, 0);
      v[1] = trx__iarr_at(pad, n - 1);
      return trx__iarr_new(v, 2);
    }
  } else if (n == 1 || n == 2 || n == 4) {
    for (int i = 0; i < 4; ++i) v[i] = trx__iarr_at(pad, n == 1 ? 0 : (n == 2 ? i % 2 : i));
    return trx__iarr_new(v, 4);
  }
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "The input padding length is expected to be either %s. However, the given padding is ",
                 spatial == 1 ? "1 or 2" : "1, 2 or 4");
  trx__sb_iarr(&sb, pad);
  trx__sb_raise(&sb, "InternalError");
  return NULL;
}

/* Check failed: <what>.size() == n (...) : The input <what> length is expected to be n. */
static int trx__check_len(TVMFFIObject* arr, const char* what, const char* label, int n) {
  int64_t len = trx__iarr_size(arr);
  if (len == n) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb,
                 "Check failed: %s.size() == %d (%lld vs. %d) : The input %s length is expected to "
                 "be %d. However, the given %s is ",
                 what, n, (long long)len, n, label, n, label);
  trx__sb_iarr(&sb, arr);
  return trx__sb_raise(&sb, "InternalError");
}

static int trx__check_groups(int64_t groups) {
  if (groups > 0) return 0;
  return tether_raise("InternalError",
                      "Check failed: groups > 0 (%lld vs. 0) : The number of groups in convolution "
                      "is expected to be positive. However, the given number of groups is %lld",
                      (long long)groups, (long long)groups);
}

/* out_layout = out_layout or data_layout (both owning string Anys). */
static int trx__default_layout(TVMFFIAny* out_layout, const TVMFFIAny* layout) {
  if (out_layout->type_index != kTVMFFINone) return 0;
  tether_any_copy(layout, out_layout);
  return 0;
}

static bool trx__has_out_dtype(const TVMFFIAny* v, DLDataType* out) {
  if (v->type_index != kTVMFFIDataType) return false;
  *out = v->v_dtype;
  return true;
}

/* ---- conv1d / conv2d ------------------------------------------------------------------------ */

/* Where the fields of a convolution's attrs live (Conv1D/2D and Conv2DTranspose differ only
 * by output_padding, which Conv has not). */
typedef struct {
  TVMFFIObject **strides, **padding, **output_padding, **dilation;
  int64_t* groups;
  TVMFFIAny *data_layout, *kernel_layout, *out_layout, *out_dtype;
} trx__conv_fields_t;

static trx__conv_fields_t trx__conv_fields(TVMFFIObject* attrs, bool transpose) {
  trx__conv_fields_t f;
  if (transpose) {
    trx_conv_transpose_attrs_t* t = (trx_conv_transpose_attrs_t*)attrs;
    f = (trx__conv_fields_t){&t->strides,  &t->padding,     &t->output_padding, &t->dilation,
                             &t->groups,   &t->data_layout, &t->kernel_layout,  &t->out_layout,
                             &t->out_dtype};
  } else {
    trx_conv_attrs_t* c = (trx_conv_attrs_t*)attrs;
    f = (trx__conv_fields_t){&c->strides, &c->padding,     NULL,           &c->dilation, &c->groups,
                             &c->data_layout, &c->kernel_layout, &c->out_layout, &c->out_dtype};
  }
  return f;
}

/* *arr = the n-item form of a length-1 *arr (stealing the old one); 0 or -1. */
static int trx__widen(TVMFFIObject** arr, int n) {
  TVMFFIObject* wide = trx__dup1(*arr, n);
  TVMFFIObjectDecRef(*arr);
  *arr = wide;
  return wide != NULL ? 0 : -1;
}



/* floordiv(x + pad_a + pad_b - dil*(k-1) - 1, stride) + 1 */
static TVMFFIObject* trx__conv_out_dim(TVMFFIObject* x, int64_t pad_a, int64_t pad_b,
                                       TVMFFIObject* k, int64_t dil, int64_t stride) {
  int64_t xv, kv;
  if (trx__const_i64(x, &xv) && trx__const_i64(k, &kv)) {
    /* Static dims: the same steps in int64, each as the simplifier folds it (any overflow or
     * a zero stride takes the general path below, which leaves that step unfolded). */
    int64_t pads, num, km1, span, q;
    if (!__builtin_add_overflow(pad_a, pad_b, &pads) && !__builtin_add_overflow(xv, pads, &num) &&
        kv != INT64_MIN && !__builtin_sub_overflow(kv, 1, &km1) && !__builtin_mul_overflow(dil, km1, &span) &&
        span != INT64_MIN && !__builtin_sub_overflow(num, span, &num) && !__builtin_sub_overflow(num, 1, &num) &&
        stride != 0 && !(stride == -1 && num == INT64_MIN)) {
      q = num / stride - ((num % stride != 0) && ((num < 0) != (stride < 0)));
      if (q != INT64_MAX) return trx_int64(q + 1);
    }
  }
  trx__scope_t sc = TRX__SCOPE_INIT;
  TVMFFIObject* num = trx__s_sub(&sc, trx__s_add(&sc, x, trx__s_int(&sc, pad_a + pad_b)),
                                 trx__s_mul(&sc, trx__s_int(&sc, dil), trx__s_sub(&sc, k, trx__s_int(&sc, 1))));
  num = trx__s_sub(&sc, num, trx__s_int(&sc, 1));
  TVMFFIObject* r = trx__s_add(&sc, trx__s_floordiv(&sc, num, trx__s_int(&sc, stride)), trx__s_int(&sc, 1));
  r = trx__scope_keep(&sc, r);
  trx__scope_end(&sc);
  return r;
}

/* Provably different / provably nonzero helpers for the conv channel checks. */
static bool trx__provably_ne(TVMFFIObject* a, TVMFFIObject* b) {
  return trx_prove_equal(a, b) == TRX_PROVE_FALSE;
}
static bool trx__provably_indivisible(TVMFFIObject* a, int64_t g) {
  TVMFFIObject* go = trx_int64(g);
  if (go == NULL) return false;
  TVMFFIObject* m = trx_floormod(a, go);
  TVMFFIObjectDecRef(go);
  int64_t v = 0;
  bool r = m != NULL && trx_as_const_int(m, &v) && v != 0;
  if (m) TVMFFIObjectDecRef(m);
  else {
    trx__clear_error();
  }
  return r;
}

/* The out dtype of a conv: out_dtype, or the binary rule over data and weight. */
static int trx__conv_dtype(trx_call_t* call, const TVMFFIAny* out_dtype, trx_tensor_type_t** tt,
                           DLDataType* dt) {
  if (trx__has_out_dtype(out_dtype, dt)) return 0;
  return trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], dt);
}

static TVMFFIObject* trx__infer_conv(const trx_op_def_t* def, trx_call_t* call, int spatial) {
  trx_conv_attrs_t* attrs = (trx_conv_attrs_t*)call->attrs;
  const char* dtgt = spatial == 1 ? "NCW" : "NCHW";
  const char* ktgt = spatial == 1 ? "OIW" : "OIHW";
  trx_tensor_type_t* tt[2];
  trx__layout_t dl, kl, ol;
  DLDataType dtype;
  TVMFFIObject* d[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* k[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* o[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* res[16] = {NULL};
  TVMFFIObject* ty = NULL;
  int nd = spatial + 2;
  if (trx__check_args(def, call, 2, tt) != 0 ||
      trx__check_layout(def, &attrs->data_layout, dtgt, "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->kernel_layout, ktgt, "kernel", &kl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, dtgt, "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0 ||
      trx__check_layout_ndim(def, &kl, tt[1]->ndim) != 0 ||
      trx__conv_dtype(call, &attrs->out_dtype, tt, &dtype) != 0)
    return NULL;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* kv = trx__shape_values(tt[1]);
  if (dv == NULL || kv == NULL) return trx__tensor_unknown(dtype, ol.ndim);
  if (trx__layout_to(&dl, dv, dtgt, d) != 0 || trx__layout_to(&kl, kv, ktgt, k) != 0) goto done;
  {
    TVMFFIObject* g = trx_int64(attrs->groups);
    TVMFFIObject* ig = g ? trx_mul(k[1], g) : NULL;
    bool bad = ig != NULL && trx__provably_ne(d[1], ig);
    if (g) TVMFFIObjectDecRef(g);
    if (ig) TVMFFIObjectDecRef(ig);
    if (bad) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "The channel size of the data should equal to the product of input channel "
                     "size of the weight and the number of groups. However, the data channel size "
                     "is ");
      trx__sb_node(&sb, d[1]);
      trx__sb_printf(&sb, " while the weight input channel size and number of groups are ");
      trx__sb_node(&sb, k[1]);
      trx__sb_printf(&sb, " and %lld", (long long)attrs->groups);
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
  }
  if (trx__provably_indivisible(k[0], attrs->groups)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "%s expects the number of output channels to be divisible by the number of "
                   "groups. However, the number of output channels is ",
                   spatial == 1 ? "Conv1d" : "Conv2d");
    trx__sb_node(&sb, k[0]);
    trx__sb_printf(&sb, " while the number of groups is %lld", (long long)attrs->groups);
    trx__sb_raise(&sb, "ValueError");
    goto done;
  }
  o[0] = trx__ref(d[0]);
  o[1] = trx__ref(k[0]);
  for (int s = 0; s < spatial; ++s) {
    o[2 + s] = trx__conv_out_dim(d[2 + s], trx__iarr_at(attrs->padding, s),
                                 trx__iarr_at(attrs->padding, s + spatial), k[2 + s],
                                 trx__iarr_at(attrs->dilation, s), trx__iarr_at(attrs->strides, s));
    if (o[2 + s] == NULL) goto done;
  }
  if (trx__layout_from(&ol, o, dtgt, res) != 0) goto done;
  ty = trx__tensor_from_dims_steal(res, ol.ndim, dtype);
done:
  trx__release_objects(d, nd);
  trx__release_objects(k, nd);
  trx__release_objects(o, nd);
  return ty;
}

static TVMFFIObject* trx__infer_conv1d(const trx_op_def_t* def, trx_call_t* call) {
  return trx__infer_conv(def, call, 1);
}
static TVMFFIObject* trx__infer_conv2d(const trx_op_def_t* def, trx_call_t* call) {
  return trx__infer_conv(def, call, 2);
}

/* ---- conv2d_transpose -------------------------------------------------------------------------- */


/* (x-1)*s - (pa+pb) + d*(k-1) + op + 1 */
static TVMFFIObject* trx__convt_out_dim(TVMFFIObject* x, int64_t s, int64_t pads, TVMFFIObject* k,
                                        int64_t dil, int64_t opad) {
  TVMFFIObject *one = trx_int64(1), *sv = trx_int64(s), *dv = trx_int64(dil),
               *tail = trx_int64(opad + 1 - pads);
  TVMFFIObject *a = NULL, *b = NULL, *c = NULL, *r = NULL;
  if (one == NULL || sv == NULL || dv == NULL || tail == NULL) goto done;
  a = trx_sub(x, one);
  if (a == NULL) goto done;
  b = trx_mul(a, sv);
  TVMFFIObjectDecRef(a);
  a = trx_sub(k, one);
  if (b == NULL || a == NULL) goto done;
  c = trx_mul(dv, a);
  TVMFFIObjectDecRef(a);
  a = NULL;
  if (c == NULL) goto done;
  a = trx_add(b, c);
  if (a == NULL) goto done;
  r = trx_add(a, tail);
done:;
  TVMFFIObject* all[] = {one, sv, dv, tail, a, b, c};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    if (all[i]) TVMFFIObjectDecRef(all[i]);
  return r;
}

static TVMFFIObject* trx__infer_conv2d_transpose(const trx_op_def_t* def, trx_call_t* call) {
  trx_conv_transpose_attrs_t* attrs = (trx_conv_transpose_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  trx__layout_t dl, kl, ol;
  DLDataType dtype;
  TVMFFIObject* d[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* k[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* o[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* res[16] = {NULL};
  TVMFFIObject* ty = NULL;
  if (trx__check_args(def, call, 2, tt) != 0 ||
      trx__check_layout(def, &attrs->data_layout, "NCHW", "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->kernel_layout, "IOHW", "kernel", &kl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, "NCHW", "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0 ||
      trx__check_layout_ndim(def, &kl, tt[1]->ndim) != 0 ||
      trx__conv_dtype(call, &attrs->out_dtype, tt, &dtype) != 0)
    return NULL;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* kv = trx__shape_values(tt[1]);
  if (dv == NULL || kv == NULL) return trx__tensor_unknown(dtype, ol.ndim);
  if (trx__layout_to(&dl, dv, "NCHW", d) != 0 || trx__layout_to(&kl, kv, "IOHW", k) != 0) goto done;
  if (trx__provably_ne(d[1], k[0])) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Conv2dTranspose expects the channel size of the data should equal to the input "
                   "channel size of the weight. However, the data channel size is ");
    trx__sb_node(&sb, d[1]);
    trx__sb_printf(&sb, " while the weight input channel size is ");
    trx__sb_node(&sb, k[0]);
    trx__sb_raise(&sb, "ValueError");
    goto done;
  }
  if (trx__provably_indivisible(k[0], attrs->groups)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Conv2dTranspose expects the number of input channels to be divisible by the "
                   "number of groups. However, the number of input channels is ");
    trx__sb_node(&sb, k[0]);
    trx__sb_printf(&sb, " while the number of groups is %lld", (long long)attrs->groups);
    trx__sb_raise(&sb, "ValueError");
    goto done;
  }
  if (trx__iarr_at(attrs->output_padding, 0) >= trx__iarr_at(attrs->strides, 0) ||
      trx__iarr_at(attrs->output_padding, 1) >= trx__iarr_at(attrs->strides, 1)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Conv2dTranspose expects the output padding less than the strides, but the "
                   "output padding is");
    trx__sb_iarr(&sb, attrs->output_padding);
    trx__sb_printf(&sb, " while the strides are");
    trx__sb_iarr(&sb, attrs->strides);
    trx__sb_raise(&sb, "ValueError");
    goto done;
  }
  {
    TVMFFIObject* g = trx_int64(attrs->groups);
    o[0] = trx__ref(d[0]);
    o[1] = g ? trx_mul(k[1], g) : NULL;
    if (g) TVMFFIObjectDecRef(g);
    if (o[1] == NULL) goto done;
  }
  for (int s = 0; s < 2; ++s) {
    int64_t pads = trx__iarr_at(attrs->padding, s) + trx__iarr_at(attrs->padding, s + 2);
    o[2 + s] = trx__convt_out_dim(d[2 + s], trx__iarr_at(attrs->strides, s), pads, k[2 + s],
                                  trx__iarr_at(attrs->dilation, s),
                                  trx__iarr_at(attrs->output_padding, s));
    if (o[2 + s] == NULL) goto done;
  }
  if (trx__layout_from(&ol, o, "NCHW", res) != 0) goto done;
  ty = trx__tensor_from_dims_steal(res, ol.ndim, dtype);
done:
  trx__release_objects(d, 4);
  trx__release_objects(k, 4);
  trx__release_objects(o, 4);
  return ty;
}

/* ---- pooling ---------------------------------------------------------------------------------------- */


static TVMFFIObject* trx__pool_out_dim(TVMFFIObject* x, int64_t pa, int64_t pb, int64_t k,
                                       int64_t dil, int64_t s, bool ceil_mode) {
  /* num = x + pa + pb - dil*(k-1) - 1 (+ s - 1 when ceil) */
  int64_t c = pa + pb - dil * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  TVMFFIObject *cv = trx_int64(c), *sv = trx_int64(s), *one = trx_int64(1);
  TVMFFIObject *num = NULL, *q = NULL, *r = NULL;
  if (cv == NULL || sv == NULL || one == NULL) goto done;
  num = trx_add(x, cv);
  if (num == NULL) goto done;
  q = trx_floordiv(num, sv);
  if (q == NULL) goto done;
  r = trx_add(q, one);
  int64_t xv, rv;
  if (r != NULL && ceil_mode && trx_as_const_int(x, &xv) && trx_as_const_int(r, &rv) &&
      (rv - 1) * s >= xv + pa) {
    TVMFFIObjectDecRef(r);
    r = trx_int64(rv - 1);
  }
done:;
  TVMFFIObject* all[] = {cv, sv, one, num, q};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    if (all[i]) TVMFFIObjectDecRef(all[i]);
  return r;
}

static TVMFFIObject* trx__infer_pool2d(const trx_op_def_t* def, trx_call_t* call) {
  trx_pool2d_attrs_t* attrs = (trx_pool2d_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  trx__layout_t dl, ol;
  TVMFFIObject* d[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* o[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* res[16] = {NULL};
  TVMFFIObject* ty = NULL;
  if (trx__check_args(def, call, 1, tt) != 0 ||
      trx__check_layout(def, &attrs->layout, "NCHW", "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, "NCHW", "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0)
    return NULL;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), ol.ndim);
  if (trx__layout_to(&dl, dv, "NCHW", d) != 0) goto done;
  o[0] = trx__ref(d[0]);
  o[1] = trx__ref(d[1]);
  for (int s = 0; s < 2; ++s) {
    o[2 + s] = trx__pool_out_dim(d[2 + s], trx__iarr_at(attrs->padding, s),
                                 trx__iarr_at(attrs->padding, s + 2),
                                 trx__iarr_at(attrs->pool_size, s), trx__iarr_at(attrs->dilation, s),
                                 trx__iarr_at(attrs->strides, s), attrs->ceil_mode);
    if (o[2 + s] == NULL) goto done;
  }
  if (trx__layout_from(&ol, o, "NCHW", res) != 0) goto done;
  ty = trx__tensor_from_dims_steal(res, ol.ndim, trx_tensor_dtype(tt[0]));
done:
  trx__release_objects(d, 4);
  trx__release_objects(o, 4);
  return ty;
}


static TVMFFIObject* trx__infer_adaptive_pool2d(const trx_op_def_t* def, trx_call_t* call) {
  trx_adaptive_pool2d_attrs_t* attrs = (trx_adaptive_pool2d_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  trx__layout_t dl, ol;
  TVMFFIObject* d[4] = {NULL, NULL, NULL, NULL};
  TVMFFIObject* res[16] = {NULL};
  TVMFFIObject* ty = NULL;
  if (trx__check_args(def, call, 1, tt) != 0 ||
      trx__check_layout(def, &attrs->layout, "NCHW", "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, "NCHW", "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0)
    return NULL;
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL) {
    TVMFFIByteArray l1 = trx__str(&attrs->layout), l2 = trx__str(&attrs->out_layout);
    bool same = l1.size == l2.size && memcmp(l1.data, l2.data, l1.size) == 0;
    if (tt[0]->shape != NULL && same && attrs->output_size == NULL) return trx__ref((TVMFFIObject*)tt[0]);
    return trx__tensor_unknown(trx_tensor_dtype(tt[0]), ol.ndim);
  }
  if (trx__layout_to(&dl, dv, "NCHW", d) != 0) goto done;
  if (attrs->output_size != NULL) {
    for (int s = 0; s < 2; ++s) {
      TVMFFIObjectDecRef(d[2 + s]);
      d[2 + s] = trx_int64(trx__iarr_at(attrs->output_size, s));
      if (d[2 + s] == NULL) goto done;
    }
  }
  if (trx__layout_from(&ol, d, "NCHW", res) != 0) goto done;
  ty = trx__tensor_from_dims_steal(res, ol.ndim, trx_tensor_dtype(tt[0]));
done:
  trx__release_objects(d, 4);
  return ty;
}





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
  static const char* const names[] = {"data", "gamma", "beta", "moving_mean", "moving_var"};
  int64_t* ax = NULL;
  int64_t naxes = trx__iarr_size(axes);
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
                     names[i]);
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
                     names[i], (long long)tt[i]->ndim, (long long)naxes);
      free(ax);
      return trx__sb_raise(&sb, "ValueError");
    }
  }
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  for (int i = 1; i < nin && dv != NULL && ax != NULL; ++i) {
    TVMFFIObject* iv = trx__shape_values(tt[i]);
    if (iv == NULL) continue;
    for (int64_t j = 0; j < naxes; ++j) {
      trx_prove_t p = trx_prove_equal(trx__dim(dv, ax[j]), trx__dim(iv, j));
      if (p == TRX_PROVE_UNKNOWN) *unknown = true;
      if (p != TRX_PROVE_FALSE) continue;
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb,
                     " requires the input gamma, beta, etc., to have size same as the lengths of "
                     "the data on the given axes. However, there exists (");
      for (int64_t k = 0; k < naxes; ++k) {
        if (k) trx__sb_printf(&sb, ", ");
        trx__sb_node(&sb, trx__dim(dv, ax[k]));
      }
      trx__sb_printf(&sb, "%s) and ", naxes == 1 ? "," : "");
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

/* ---- constructor-time checks ---------------------------------------------------------------------- */

/* conv1d / conv2d / conv2d_transpose: padding completed to 2*spatial values, 2-d strides /
 * output_padding / dilation of one value widened to two, lengths and groups checked, and
 * out_layout defaulting to data_layout -- TVM's constructors. */
static int trx__check_conv_like(TVMFFIObject* attrs, int spatial, bool transpose) {
  trx__conv_fields_t f = trx__conv_fields(attrs, transpose);
  TVMFFIObject* pad = trx__complete_padding(*f.padding, spatial);
  if (pad == NULL) return -1;
  TVMFFIObjectDecRef(*f.padding);
  *f.padding = pad;
  if (spatial == 2 && (trx__widen(f.strides, 2) != 0 || trx__widen(f.dilation, 2) != 0 ||
                       (transpose && trx__widen(f.output_padding, 2) != 0)))
    return -1;
  if (trx__check_groups(*f.groups) != 0 || trx__check_len(*f.strides, "strides", "strides", spatial) != 0 ||
      (transpose && trx__check_len(*f.output_padding, "output_padding", "output_padding", spatial) != 0) ||
      trx__check_len(*f.dilation, "dilation", "dilation", spatial) != 0)
    return -1;
  return trx__default_layout(f.out_layout, f.data_layout);
}
static int trx__check_conv1d(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  return trx__check_conv_like(attrs, 1, false);
}
static int trx__check_conv2d(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  return trx__check_conv_like(attrs, 2, false);
}
static int trx__check_conv2d_transpose(const trx_op_def_t* def, TVMFFIObject** in, int64_t n,
                                       TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  return trx__check_conv_like(attrs, 2, true);
}

static int trx__check_pool2d(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  trx_pool2d_attrs_t* a = (trx_pool2d_attrs_t*)attrs;
  if (trx__widen(&a->pool_size, 2) != 0 || trx__widen(&a->strides, 2) != 0 ||
      trx__widen(&a->dilation, 2) != 0)
    return -1;
  TVMFFIObject* pad = trx__complete_padding(a->padding, 2);
  if (pad == NULL) return -1;
  TVMFFIObjectDecRef(a->padding);
  a->padding = pad;
  if (trx__check_len(a->pool_size, "pool_size", "pool_size", 2) != 0 ||
      trx__check_len(a->strides, "strides", "strides", 2) != 0 ||
      trx__check_len(a->dilation, "dilation", "dilation", 2) != 0)
    return -1;
  return trx__default_layout(&a->out_layout, &a->layout);
}

static int trx__check_adaptive_pool2d(const trx_op_def_t* def, TVMFFIObject** in, int64_t n,
                                      TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  trx_adaptive_pool2d_attrs_t* a = (trx_adaptive_pool2d_attrs_t*)attrs;
  if (a->output_size != NULL) {
    if (trx__widen(&a->output_size, 2) != 0) return -1;
    int64_t len = trx__iarr_size(a->output_size);
    if (len != 2) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: _output_size.size() == 2 (%lld vs. 2) : The output_size length "
                     "is expected to be 2. However, the given output_size is ",
                     (long long)len);
      trx__sb_iarr(&sb, a->output_size);
      return trx__sb_raise(&sb, "InternalError");
    }
  }
  return trx__default_layout(&a->out_layout, &a->layout);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_X "x|Tensor|The input tensor."
#define TRX__A_DATA "data|Tensor|The input tensor."
#define TRX__A_DATA_NODOT "data|Tensor|The input tensor"
#define TRX__A_CONV TRX__A_DATA "\nweight|Tensor|The weight tensor."
#define TRX__P_POOL2D                                                                          \
  "data: Expr, pool_size: ints[2] = (1, 1), strides: ints[2] = (1, 1), padding: ints[4] = "    \
  "(0, 0), dilation: ints[2] = (1, 1), ceil_mode: bool = False, count_include_pad: bool = "    \
  "False, layout: str = \"NCHW\", out_layout: str? = None"

TRX__OPS(nn){
    {.name = "nn.conv1d",
     .params = "data: Expr, weight: Expr, strides: ints[1] = 1, padding: ints[2] = 0, dilation: "
               "ints[1] = 1, groups: int = 1, data_layout: str = \"NCW\", kernel_layout: str = "
               "\"OIW\", out_layout: str? = None, out_dtype: dtype? = None",
     .arguments = TRX__A_CONV, .attrs = &trx__conv1d_attrs, .infer = trx__infer_conv1d,
     .check = trx__check_conv1d, .doc = "1-D convolution. padding: 1 or 2 values (left, right)."},
    {.name = "nn.conv2d",
     .params = "data: Expr, weight: Expr, strides: ints[2] = (1, 1), padding: ints[4] = (0, 0), "
               "dilation: ints[2] = (1, 1), groups: int = 1, data_layout: str = \"NCHW\", "
               "kernel_layout: str = \"OIHW\", out_layout: str? = None, out_dtype: dtype? = None",
     .arguments = TRX__A_CONV, .attrs = &trx__conv2d_attrs, .infer = trx__infer_conv2d,
     .check = trx__check_conv2d,
     .doc = "2-D convolution. padding: 1, 2 or 4 values (top, left, bottom, right); out_layout "
            "defaults to data_layout."},
    {.name = "nn.conv2d_transpose",
     .params = "data: Expr, weight: Expr, strides: ints[2] = (1, 1), padding: ints[4] = (0, 0), "
               "output_padding: ints[2] = (0, 0), dilation: ints[2] = (1, 1), groups: int = 1, "
               "data_layout: str = \"NCHW\", kernel_layout: str = \"IOHW\", out_layout: str? = "
               "None, out_dtype: dtype? = None",
     .arguments = TRX__A_CONV, .attrs = &trx__conv2d_transpose_attrs,
     .infer = trx__infer_conv2d_transpose, .check = trx__check_conv2d_transpose,
     .doc = "2-D transposed convolution."},
    {.name = "nn.max_pool2d", .params = TRX__P_POOL2D, .arguments = TRX__A_DATA_NODOT,
     .attrs = &trx__pool2d_attrs, .infer = trx__infer_pool2d, .check = trx__check_pool2d,
     .doc = "2-D max pooling."},
    {.name = "nn.avg_pool2d", .params = TRX__P_POOL2D, .arguments = TRX__A_DATA_NODOT,
     .attrs = &trx__pool2d_attrs, .infer = trx__infer_pool2d, .check = trx__check_pool2d,
     .doc = "2-D average pooling."},
    {.name = "nn.adaptive_avg_pool2d",
     .params = "data: Expr, output_size: ints?[2] = None, layout: str = \"NCHW\", out_layout: "
               "str? = None",
     .arguments = TRX__A_DATA_NODOT, .attrs = &trx__adaptive_pool2d_attrs,
     .infer = trx__infer_adaptive_pool2d, .check = trx__check_adaptive_pool2d,
     .doc = "2-D adaptive average pooling to output_size (None keeps H and W)."},
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
};
TRX__OPS_END(nn);
