/*
 * op_nn.c -- constructors and type inference of the relax.nn.* ops of TRX_OPS (op.h):
 * convolutions, pooling, unary activations, softmax, batch/layer norm, dropout.  The shape
 * rules, normalizations and error texts are TVM's (relax.md section 1); registration is
 * op.c's (no init here).
 */
#include "op.h"

#include "arith.h"

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

/*
 * conv1d / conv2d / conv2d_transpose, whose constructors take (data, weight, strides,
 * padding, [output_padding,] dilation, groups, data_layout, kernel_layout, out_layout,
 * out_dtype).  The int arrays are normalized as TVM does (padding completed to 2*spatial
 * values, 2-d strides / output_padding / dilation of one value widened to two), checked,
 * and moved into the attrs; the Call takes the argument references.
 */
static int trx__make_conv_like(const trx__op_def_t* def, const TVMFFIAny* a, int spatial,
                               bool transpose, TVMFFIObject** out) {
  const int k = transpose ? 1 : 0; /* argument positions after padding shift by one */
  TVMFFIObject* args[2] = {NULL, NULL};
  TVMFFIObject *strides = NULL, *padding = NULL, *opad = NULL, *dilation = NULL, *tmp;
  TVMFFIObject* attrs = NULL;
  int64_t groups;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &args[0]) != 0 || trx__arg_expr(def, a, 1, &args[1]) != 0 ||
      trx__arg_int_array(def, a, 2, false, &strides) != 0 ||
      trx__arg_int_array(def, a, 3, false, &padding) != 0 ||
      (transpose && trx__arg_int_array(def, a, 4, false, &opad) != 0) ||
      trx__arg_int_array(def, a, 4 + k, false, &dilation) != 0 ||
      trx__arg_i64(def, a, 5 + k, &groups) != 0)
    goto fail;
  attrs = trx__attrs_new(def->attrs);
  if (attrs == NULL) goto fail;
  trx__conv_fields_t f = trx__conv_fields(attrs, transpose);
  if (trx__arg_string(def, a, 6 + k, false, f.data_layout) != 0 ||
      trx__arg_string(def, a, 7 + k, false, f.kernel_layout) != 0 ||
      trx__arg_string(def, a, 8 + k, true, f.out_layout) != 0 ||
      trx__arg_opt_dtype(def, a, 9 + k, true, f.out_dtype) != 0)
    goto fail;
  tmp = trx__complete_padding(padding, spatial);
  if (tmp == NULL) goto fail;
  TVMFFIObjectDecRef(padding);
  padding = tmp;
  if (spatial == 2 && (trx__widen(&strides, 2) != 0 || trx__widen(&dilation, 2) != 0 ||
                       (opad != NULL && trx__widen(&opad, 2) != 0)))
    goto fail;
  if (trx__check_groups(groups) != 0 ||
      trx__check_len(strides, "strides", "strides", spatial) != 0 ||
      (opad != NULL && trx__check_len(opad, "output_padding", "output_padding", spatial) != 0) ||
      trx__check_len(dilation, "dilation", "dilation", spatial) != 0)
    goto fail;
  trx__default_layout(f.out_layout, f.data_layout);
  *f.strides = strides;
  *f.padding = padding;
  if (f.output_padding != NULL) *f.output_padding = opad;
  *f.dilation = dilation;
  *f.groups = groups;
  return trx__make_call_steal(def, args, 2, attrs, out);
fail:
  trx__release_objects(args, 2);
  TVMFFIObject* arrays[4] = {strides, padding, opad, dilation};
  trx__release_objects(arrays, 4);
  if (attrs) TVMFFIObjectDecRef(attrs);
  return -1;
}

int trx__make_conv1d(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  return trx__make_conv_like(def, a, 1, false, out);
}
int trx__make_conv2d(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  return trx__make_conv_like(def, a, 2, false, out);
}

/* floordiv(x + pad_a + pad_b - dil*(k-1) - 1, stride) + 1 */
static TVMFFIObject* trx__conv_out_dim(TVMFFIObject* x, int64_t pad_a, int64_t pad_b,
                                       TVMFFIObject* k, int64_t dil, int64_t stride) {
  TVMFFIObject *c = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL, *r = NULL;
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
  c = trx_int64(pad_a + pad_b);
  if (c == NULL) goto done;
  t1 = trx_add(x, c); /* x + pads */
  TVMFFIObjectDecRef(c);
  c = trx_int64(1);
  if (t1 == NULL || c == NULL) goto done;
  t2 = trx_sub(k, c); /* k - 1 */
  TVMFFIObjectDecRef(c);
  c = trx_int64(dil);
  if (t2 == NULL || c == NULL) goto done;
  t3 = trx_mul(c, t2); /* dil*(k-1) */
  TVMFFIObjectDecRef(t2);
  t2 = NULL;
  if (t3 == NULL) goto done;
  t2 = trx_sub(t1, t3);
  TVMFFIObjectDecRef(t1);
  TVMFFIObjectDecRef(t3);
  t1 = t3 = NULL;
  TVMFFIObjectDecRef(c);
  c = trx_int64(1);
  if (t2 == NULL || c == NULL) goto done;
  t1 = trx_sub(t2, c); /* numerator */
  TVMFFIObjectDecRef(t2);
  t2 = NULL;
  TVMFFIObjectDecRef(c);
  c = trx_int64(stride);
  if (t1 == NULL || c == NULL) goto done;
  t2 = trx_floordiv(t1, c);
  TVMFFIObjectDecRef(c);
  c = trx_int64(1);
  if (t2 == NULL || c == NULL) goto done;
  r = trx_add(t2, c);
done:
  if (c) TVMFFIObjectDecRef(c);
  if (t1) TVMFFIObjectDecRef(t1);
  if (t2) TVMFFIObjectDecRef(t2);
  if (t3) TVMFFIObjectDecRef(t3);
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
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err) TVMFFIObjectDecRef(err);
  }
  return r;
}

/* The out dtype of a conv: out_dtype, or the binary rule over data and weight. */
static int trx__conv_dtype(trx_call_t* call, const TVMFFIAny* out_dtype, trx_tensor_type_t** tt,
                           DLDataType* dt) {
  if (trx__has_out_dtype(out_dtype, dt)) return 0;
  return trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], dt);
}

static TVMFFIObject* trx__infer_conv(const trx__op_def_t* def, trx_call_t* call, int spatial) {
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

TVMFFIObject* trx__infer_conv1d(const trx__op_def_t* def, trx_call_t* call) {
  return trx__infer_conv(def, call, 1);
}
TVMFFIObject* trx__infer_conv2d(const trx__op_def_t* def, trx_call_t* call) {
  return trx__infer_conv(def, call, 2);
}

/* ---- conv2d_transpose -------------------------------------------------------------------------- */

int trx__make_conv2d_transpose(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                               TVMFFIObject** out) {
  (void)n;
  return trx__make_conv_like(def, a, 2, true, out);
}

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

TVMFFIObject* trx__infer_conv2d_transpose(const trx__op_def_t* def, trx_call_t* call) {
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

int trx__make_pool2d(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* x = NULL;
  TVMFFIObject *pool = NULL, *strides = NULL, *padding = NULL, *dilation = NULL, *tmp = NULL;
  trx_pool2d_attrs_t* attrs = NULL;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &x) != 0 || trx__arg_int_array(def, a, 1, false, &pool) != 0 ||
      trx__arg_int_array(def, a, 2, false, &strides) != 0 ||
      trx__arg_int_array(def, a, 3, false, &padding) != 0 ||
      trx__arg_int_array(def, a, 4, false, &dilation) != 0)
    goto fail;
  attrs = (trx_pool2d_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto fail;
  if (trx__arg_flag(def, a, 5, &attrs->ceil_mode) != 0 ||
      trx__arg_flag(def, a, 6, &attrs->count_include_pad) != 0 ||
      trx__arg_string(def, a, 7, false, &attrs->layout) != 0 ||
      trx__arg_string(def, a, 8, true, &attrs->out_layout) != 0)
    goto fail;
  tmp = trx__dup1(pool, 2);
  TVMFFIObjectDecRef(pool);
  pool = tmp;
  tmp = trx__dup1(strides, 2);
  TVMFFIObjectDecRef(strides);
  strides = tmp;
  tmp = trx__dup1(dilation, 2);
  TVMFFIObjectDecRef(dilation);
  dilation = tmp;
  if (pool == NULL || strides == NULL || dilation == NULL) goto fail;
  tmp = trx__complete_padding(padding, 2);
  if (tmp == NULL) goto fail;
  TVMFFIObjectDecRef(padding);
  padding = tmp;
  if (trx__check_len(pool, "pool_size", "pool_size", 2) != 0 ||
      trx__check_len(strides, "strides", "strides", 2) != 0 ||
      trx__check_len(dilation, "dilation", "dilation", 2) != 0)
    goto fail;
  trx__default_layout(&attrs->out_layout, &attrs->layout);
  attrs->pool_size = pool;
  attrs->strides = strides;
  attrs->dilation = dilation;
  attrs->padding = padding;
  pool = strides = dilation = padding = NULL;
  int rc = trx__make_call_steal_attrs(def, &x, 1, (TVMFFIObject*)attrs, out);
  TVMFFIObjectDecRef(x);
  return rc;
fail:
  if (x) TVMFFIObjectDecRef(x);
  if (pool) TVMFFIObjectDecRef(pool);
  if (strides) TVMFFIObjectDecRef(strides);
  if (padding) TVMFFIObjectDecRef(padding);
  if (dilation) TVMFFIObjectDecRef(dilation);
  if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
  return -1;
}

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

TVMFFIObject* trx__infer_pool2d(const trx__op_def_t* def, trx_call_t* call) {
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

int trx__make_adaptive_pool2d(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                              TVMFFIObject** out) {
  (void)n;
  TVMFFIObject *x = NULL, *size = NULL, *tmp = NULL;
  trx_adaptive_pool2d_attrs_t* attrs = NULL;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &x) != 0 || trx__arg_int_array(def, a, 1, true, &size) != 0)
    goto fail;
  attrs = (trx_adaptive_pool2d_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto fail;
  if (trx__arg_string(def, a, 2, false, &attrs->layout) != 0 ||
      trx__arg_string(def, a, 3, true, &attrs->out_layout) != 0)
    goto fail;
  if (size != NULL) {
    tmp = trx__dup1(size, 2);
    TVMFFIObjectDecRef(size);
    size = tmp;
    if (size == NULL) goto fail;
    int64_t len = trx__iarr_size(size);
    if (len != 2) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: _output_size.size() == 2 (%lld vs. 2) : The output_size length "
                     "is expected to be 2. However, the given output_size is ",
                     (long long)len);
      trx__sb_iarr(&sb, size);
      trx__sb_raise(&sb, "InternalError");
      goto fail;
    }
  }
  trx__default_layout(&attrs->out_layout, &attrs->layout);
  attrs->output_size = size;
  size = NULL;
  int rc = trx__make_call_steal_attrs(def, &x, 1, (TVMFFIObject*)attrs, out);
  TVMFFIObjectDecRef(x);
  return rc;
fail:
  if (x) TVMFFIObjectDecRef(x);
  if (size) TVMFFIObjectDecRef(size);
  if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
  return -1;
}

TVMFFIObject* trx__infer_adaptive_pool2d(const trx__op_def_t* def, trx_call_t* call) {
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

/* ---- unary activations and math (also used by op_tensor.c's rows) ---------------------------------- */

int trx__make_plain(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  TVMFFIObject* args[4] = {NULL, NULL, NULL, NULL};
  int rc = -1;
  *out = NULL;
  for (int32_t i = 0; i < n; ++i) {
    if (trx__arg_expr(def, a, i, &args[i]) != 0) goto done;
  }
  rc = trx__make_call_steal_attrs(def, args, n, NULL, out);
done:
  trx__release_objects(args, n);
  return rc;
}

/* "<op> requires the input tensor to have float dtype. However, the given input dtype is T.x" */
static int trx__require_float(const trx__op_def_t* def, const char* who, DLDataType t) {
  if (trx__dtype_is_void(t) || trx__dtype_is_float(t)) return 0;
  trx__sb_t sb = {0};
  if (who != NULL) trx__sb_printf(&sb, "%s", who);
  else trx__sb_op(&sb, def);
  trx__sb_printf(&sb, " requires the input tensor to have float dtype. However, the given input dtype is ");
  trx__sb_dtype(&sb, t);
  return trx__sb_raise(&sb, "TypeError");
}

TVMFFIObject* trx__infer_unary(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if ((def->flags & TRX__F_FLOAT) && trx__require_float(def, NULL, trx_tensor_dtype(tt[0])) != 0) return NULL;
  /* As TVM: a new TensorType over the input's shape and dtype (not the input's type). */
  TVMFFIObject* ty = trx__tensor_new(tt[0]->shape, trx_tensor_dtype(tt[0]), tt[0]->ndim);
  if (ty != NULL) ((trx_tensor_type_t*)ty)->vdevice = trx__ref(tt[0]->vdevice);
  return ty;
}

/* ---- softmax / log_softmax ---------------------------------------------------------------------------- */

int trx__make_softmax(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* x = NULL;
  trx_softmax_attrs_t* attrs = NULL;
  int64_t axis;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &x) != 0 || trx__arg_i64(def, a, 1, &axis) != 0) goto fail;
  attrs = (trx_softmax_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL) goto fail;
  attrs->axis = axis;
  int rc = trx__make_call_steal_attrs(def, &x, 1, (TVMFFIObject*)attrs, out);
  TVMFFIObjectDecRef(x);
  return rc;
fail:
  if (x) TVMFFIObjectDecRef(x);
  return -1;
}

TVMFFIObject* trx__infer_softmax(const trx__op_def_t* def, trx_call_t* call) {
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

int trx__make_batch_norm(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                         TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* args[5] = {NULL, NULL, NULL, NULL, NULL};
  trx_batch_norm_attrs_t* attrs = NULL;
  *out = NULL;
  for (int i = 0; i < 5; ++i) {
    if (trx__arg_expr(def, a, i, &args[i]) != 0) goto fail;
  }
  attrs = (trx_batch_norm_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL || trx__arg_i64(def, a, 5, &attrs->axis) != 0 ||
      trx__arg_f64(def, a, 6, &attrs->epsilon) != 0 || trx__arg_flag(def, a, 7, &attrs->center) != 0 ||
      trx__arg_flag(def, a, 8, &attrs->scale) != 0 || trx__arg_f64(def, a, 9, &attrs->momentum) != 0 ||
      trx__arg_flag(def, a, 10, &attrs->training) != 0)
    goto fail;
  int rc = trx__make_call_steal_attrs(def, args, 5, (TVMFFIObject*)attrs, out);
  trx__release_objects(args, 5);
  return rc;
fail:
  trx__release_objects(args, 5);
  if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
  return -1;
}

int trx__make_layer_norm(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n,
                         TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* args[3] = {NULL, NULL, NULL};
  TVMFFIObject* axes = NULL;
  trx_layer_norm_attrs_t* attrs = NULL;
  *out = NULL;
  for (int i = 0; i < 3; ++i) {
    if (trx__arg_expr(def, a, i, &args[i]) != 0) goto fail;
  }
  if (trx__arg_int_array(def, a, 3, false, &axes) != 0) goto fail;
  attrs = (trx_layer_norm_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL || trx__arg_f64(def, a, 4, &attrs->epsilon) != 0 ||
      trx__arg_flag(def, a, 5, &attrs->center) != 0 || trx__arg_flag(def, a, 6, &attrs->scale) != 0)
    goto fail;
  attrs->axes = axes;
  axes = NULL;
  int rc = trx__make_call_steal_attrs(def, args, 3, (TVMFFIObject*)attrs, out);
  trx__release_objects(args, 3);
  return rc;
fail:
  trx__release_objects(args, 3);
  if (axes) TVMFFIObjectDecRef(axes);
  if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
  return -1;
}

/* NormCheckDtypeAndShape: *unknown set when the lengths could not be proved equal. */
static int trx__norm_check(const trx__op_def_t* def, trx_call_t* call, int nin, TVMFFIObject* axes,
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

TVMFFIObject* trx__infer_batch_norm(const trx__op_def_t* def, trx_call_t* call) {
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

TVMFFIObject* trx__infer_layer_norm(const trx__op_def_t* def, trx_call_t* call) {
  trx_layer_norm_attrs_t* attrs = (trx_layer_norm_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[3];
  bool unknown;
  if (trx__norm_check(def, call, 3, attrs->axes, tt, &unknown) != 0) return NULL;
  if (unknown) return trx__tensor_unknown(trx_tensor_dtype(tt[0]), tt[0]->ndim);
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* ---- dropout ------------------------------------------------------------------------------------------------ */

int trx__make_dropout(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out) {
  (void)n;
  TVMFFIObject* x = NULL;
  trx_dropout_attrs_t* attrs = NULL;
  *out = NULL;
  if (trx__arg_expr(def, a, 0, &x) != 0) goto fail;
  attrs = (trx_dropout_attrs_t*)trx__attrs_new(def->attrs);
  if (attrs == NULL || trx__arg_f64(def, a, 1, &attrs->rate) != 0) goto fail;
  int rc = trx__make_call_steal_attrs(def, &x, 1, (TVMFFIObject*)attrs, out);
  TVMFFIObjectDecRef(x);
  return rc;
fail:
  if (x) TVMFFIObjectDecRef(x);
  if (attrs) TVMFFIObjectDecRef((TVMFFIObject*)attrs);
  return -1;
}

TVMFFIObject* trx__infer_dropout(const trx__op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  TVMFFIObject* f[2] = {(TVMFFIObject*)tt[0], (TVMFFIObject*)tt[0]};
  TVMFFIObject* arr = trx__array_of(f, 2);
  if (arr == NULL) return NULL;
  TVMFFIObject* ty = trx_tuple_type_new(arr);
  TVMFFIObjectDecRef(arr);
  return ty;
}
