/*
 * nn_spatial.c -- the relax.nn ops that slide a window over the spatial axes of an N-C-<spatial>
 * tensor, for 1, 2 and 3 spatial axes: conv{1,2,3}d, conv{1,2,3}d_transpose,
 * {max,avg}_pool{1,2,3}d and adaptive_avg_pool{1,2,3}d.  One inference per family reads the
 * number of spatial axes from the op's flags; the constructor-time completion (padding,
 * widening of one-value arrays, length checks), the shape formulas and the error texts are
 * TVM's (relax.md section 1).
 *
 * Shape arithmetic: TVM turns every window attribute (padding, dilation, stride, pool size,
 * output padding) into an int32 literal, so a value outside int32 is its ValueError "Literal
 * value v exceeds range of int32".  Where TVM then wraps (a sum of two int32 literals, an
 * int64 dim overflowing) tether raises instead: the same ValueError for an int32 sum, and
 * "... overflows int64" for a dim.  A zero stride divides by zero as in TVM (InternalError).
 */
#include <stdio.h>

#include "../op.h"

#include "../arith.h"

/* ---- attrs types ---------------------------------------------------------------------------- */
/* Conv and ConvTranspose attrs differ by output_padding alone. */
#define TRX__CONV_HEAD_FIELDS(F, T)       \
  F(T, strides, OBJECT, "ffi.Array<int>") \
  F(T, padding, OBJECT, "ffi.Array<int>")
#define TRX__CONV_TAIL_FIELDS(F, T)          \
  F(T, dilation, OBJECT, "ffi.Array<int>")   \
  F(T, groups, INT64, "int")                 \
  F(T, data_layout, STRING, "ffi.String")    \
  F(T, kernel_layout, STRING, "ffi.String")  \
  F(T, out_layout, STRING, "ffi.String")     \
  F(T, out_dtype, ANY, "Optional<DataType>")
#define TRX__CONV_FIELDS(F, T) TRX__CONV_HEAD_FIELDS(F, T) TRX__CONV_TAIL_FIELDS(F, T)
TRX_ATTRS_STRUCT(trx_conv_attrs_t, TRX__CONV_FIELDS);
TRX_ATTRS_DECL(trx__conv1d_attrs, "relax.attrs.Conv1DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS);
TRX_ATTRS_DECL(trx__conv2d_attrs, "relax.attrs.Conv2DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS);
TRX_ATTRS_DECL(trx__conv3d_attrs, "relax.attrs.Conv3DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS);

#define TRX__CONV_TRANSPOSE_FIELDS(F, T)         \
  TRX__CONV_HEAD_FIELDS(F, T)                    \
  F(T, output_padding, OBJECT, "ffi.Array<int>") \
  TRX__CONV_TAIL_FIELDS(F, T)
TRX_ATTRS_STRUCT(trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);
TRX_ATTRS_DECL(trx__conv1d_transpose_attrs, "relax.attrs.Conv1DTransposeAttrs",
               trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);
TRX_ATTRS_DECL(trx__conv2d_transpose_attrs, "relax.attrs.Conv2DTransposeAttrs",
               trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);
TRX_ATTRS_DECL(trx__conv3d_transpose_attrs, "relax.attrs.Conv3DTransposeAttrs",
               trx_conv_transpose_attrs_t, TRX__CONV_TRANSPOSE_FIELDS);

#define TRX__POOL_FIELDS(F, T)               \
  F(T, pool_size, OBJECT, "ffi.Array<int>")  \
  F(T, strides, OBJECT, "ffi.Array<int>")    \
  F(T, dilation, OBJECT, "ffi.Array<int>")   \
  F(T, padding, OBJECT, "ffi.Array<int>")    \
  F(T, ceil_mode, BOOL, "bool")              \
  F(T, count_include_pad, BOOL, "bool")      \
  F(T, layout, STRING, "ffi.String")         \
  F(T, out_layout, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_pool_attrs_t, TRX__POOL_FIELDS);
TRX_ATTRS_DECL(trx__pool1d_attrs, "relax.attrs.Pool1DAttrs", trx_pool_attrs_t, TRX__POOL_FIELDS);
TRX_ATTRS_DECL(trx__pool2d_attrs, "relax.attrs.Pool2DAttrs", trx_pool_attrs_t, TRX__POOL_FIELDS);
TRX_ATTRS_DECL(trx__pool3d_attrs, "relax.attrs.Pool3DAttrs", trx_pool_attrs_t, TRX__POOL_FIELDS);

#define TRX__ADAPTIVE_POOL_FIELDS(F, T)                     \
  F(T, output_size, OPT_OBJECT, "Optional<ffi.Array<int>>") \
  F(T, layout, STRING, "ffi.String")                        \
  F(T, out_layout, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_adaptive_pool_attrs_t, TRX__ADAPTIVE_POOL_FIELDS);
TRX_ATTRS_DECL(trx__adaptive_pool1d_attrs, "relax.attrs.AdaptivePool1DAttrs",
               trx_adaptive_pool_attrs_t, TRX__ADAPTIVE_POOL_FIELDS);
TRX_ATTRS_DECL(trx__adaptive_pool2d_attrs, "relax.attrs.AdaptivePool2DAttrs",
               trx_adaptive_pool_attrs_t, TRX__ADAPTIVE_POOL_FIELDS);
TRX_ATTRS_DECL(trx__adaptive_pool3d_attrs, "relax.attrs.AdaptivePool3DAttrs",
               trx_adaptive_pool_attrs_t, TRX__ADAPTIVE_POOL_FIELDS);

/* ---- the op's shape: spatial axes and target layouts, from its flags ---------------------------- */
#define TRX__F_SPATIAL(n) ((uint32_t)(n) << (TRX_OP_USER_SHIFT + 4)) /* 1, 2 or 3 */
#define TRX__F_TRANSPOSE (1u << (TRX_OP_USER_SHIFT + 6))
#define TRX__MAX_SPATIAL 3
#define TRX__MAX_DIMS (TRX__MAX_SPATIAL + 2)

static int trx__spatial(const trx_op_def_t* def) {
  return (int)((def->flags >> (TRX_OP_USER_SHIFT + 4)) & 3u);
}
static const char* trx__data_target(int spatial) {
  static const char* const t[] = {"", "NCW", "NCHW", "NCDHW"};
  return t[spatial];
}
static const char* trx__kernel_target(int spatial, bool transpose) {
  static const char* const oi[] = {"", "OIW", "OIHW", "OIDHW"};
  static const char* const io[] = {"", "IOW", "IOHW", "IODHW"};
  return transpose ? io[spatial] : oi[spatial];
}

/* The value of a formula built in scope s: a new reference, the scope's temporaries released. */
static TVMFFIObject* trx__finish(trx__scope_t* s, TVMFFIObject* result) {
  TVMFFIObject* r = trx__scope_keep(s, result);
  trx__scope_end(s);
  return r;
}

/* ---- literals and overflow ---------------------------------------------------------------------- */
static int trx__lit32(int64_t v) {
  if (v >= INT32_MIN && v <= INT32_MAX) return 0;
  return tether_raise("ValueError",
                      "Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << "
                      "(bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value "
                      "%lld exceeds range of int32",
                      (long long)v);
}
/* Every value of an int array as an int32 literal. */
static int trx__lit32_all(TVMFFIObject* arr) {
  for (int64_t i = 0; i < trx__iarr_size(arr); ++i) {
    if (trx__lit32(trx__iarr_at(arr, i)) != 0) return -1;
  }
  return 0;
}
/* a+b / a*b of two int32 literals, which TVM folds in int32. */
static int trx__add32(int64_t a, int64_t b, int64_t* out) {
  *out = a + b; /* both in int32: no int64 overflow */
  return trx__lit32(*out);
}
static int trx__mul32(int64_t a, int64_t b, int64_t* out) {
  *out = a * b;
  return trx__lit32(*out);
}
static int trx__overflow(const trx_op_def_t* def) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "In ");
  trx__sb_op(&sb, def);
  trx__sb_printf(&sb, ", the output shape overflows int64");
  return trx__sb_raise(&sb, "ValueError");
}
static int trx__div_by_zero(void) {
  return tether_raise("InternalError", "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero");
}

/* ---- constructor-time completion ------------------------------------------------------------------ */
/* A length-1 *arr widened to n values (the old reference released); 0 or -1. */
static int trx__widen(TVMFFIObject** arr, int n) {
  if (trx__iarr_size(*arr) != 1 || n <= 1) return 0;
  int64_t v[TRX__MAX_SPATIAL];
  for (int i = 0; i < n; ++i) v[i] = trx__iarr_at(*arr, 0);
  TVMFFIObject* wide = trx__iarr_new(v, n);
  if (wide == NULL) return -1;
  TVMFFIObjectDecRef(*arr);
  *arr = wide;
  return 0;
}

/* GetCompletePadding{1,2,3}D: 1 value -> all 2*spatial; spatial values -> (p..., p...) (for
 * 2 and 3 axes); 2*spatial values kept; else InternalError. */
static int trx__complete_padding(TVMFFIObject** pad, int spatial) {
  static const char* const allowed[] = {"", "1 or 2", "1, 2 or 4", "1, 3 or 6"};
  int64_t n = trx__iarr_size(*pad);
  int64_t v[2 * TRX__MAX_SPATIAL];
  if (n == 2 * spatial) return 0;
  if (n == 1 || (n == spatial && spatial > 1)) {
    for (int i = 0; i < 2 * spatial; ++i) v[i] = trx__iarr_at(*pad, n == 1 ? 0 : i % spatial);
    TVMFFIObject* full = trx__iarr_new(v, 2 * spatial);
    if (full == NULL) return -1;
    TVMFFIObjectDecRef(*pad);
    *pad = full;
    return 0;
  }
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "The input padding length is expected to be either %s. However, the given padding is ",
                 allowed[spatial]);
  trx__sb_iarr(&sb, *pad);
  return trx__sb_raise(&sb, "InternalError");
}

/* Check failed: <what>.size() == n (...) : The input <what> length is expected to be n. */
static int trx__check_len(TVMFFIObject* arr, const char* what, int n) {
  int64_t len = trx__iarr_size(arr);
  if (len == n) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb,
                 "Check failed: %s.size() == %d (%lld vs. %d) : The input %s length is expected to "
                 "be %d. However, the given %s is ",
                 what, n, (long long)len, n, what, n, what);
  trx__sb_iarr(&sb, arr);
  return trx__sb_raise(&sb, "InternalError");
}

/* out_layout = out_layout or layout (both owning string Anys). */
static void trx__default_layout(TVMFFIAny* out_layout, const TVMFFIAny* layout) {
  if (out_layout->type_index == kTVMFFINone) tether_any_copy(layout, out_layout);
}

/* Where the fields of a convolution's attrs live (Conv and ConvTranspose differ only by
 * output_padding). */
typedef struct {
  TVMFFIObject **strides, **padding, **output_padding, **dilation;
  int64_t* groups;
  TVMFFIAny *data_layout, *kernel_layout, *out_layout, *out_dtype;
} trx__conv_fields_t;

static trx__conv_fields_t trx__conv_fields(TVMFFIObject* attrs, bool transpose) {
  if (transpose) {
    trx_conv_transpose_attrs_t* t = (trx_conv_transpose_attrs_t*)attrs;
    return (trx__conv_fields_t){&t->strides,     &t->padding,       &t->output_padding,
                                &t->dilation,    &t->groups,        &t->data_layout,
                                &t->kernel_layout, &t->out_layout, &t->out_dtype};
  }
  trx_conv_attrs_t* c = (trx_conv_attrs_t*)attrs;
  return (trx__conv_fields_t){&c->strides,       &c->padding,    NULL,
                              &c->dilation,      &c->groups,     &c->data_layout,
                              &c->kernel_layout, &c->out_layout, &c->out_dtype};
}

/* TVM's constructors: padding completed, one-value strides / output_padding / dilation
 * widened (2 and 3 axes), groups and lengths checked, out_layout defaulting to data_layout. */
static int trx__check_conv(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)in, (void)n;
  int spatial = trx__spatial(def);
  bool transpose = (def->flags & TRX__F_TRANSPOSE) != 0;
  trx__conv_fields_t f = trx__conv_fields(attrs, transpose);
  if (trx__complete_padding(f.padding, spatial) != 0) return -1;
  if (spatial > 1 && (trx__widen(f.strides, spatial) != 0 || trx__widen(f.dilation, spatial) != 0 ||
                      (transpose && trx__widen(f.output_padding, spatial) != 0)))
    return -1;
  if (*f.groups <= 0) {
    return tether_raise("InternalError",
                        "Check failed: groups > 0 (%lld vs. 0) : The number of groups in convolution "
                        "is expected to be positive. However, the given number of groups is %lld",
                        (long long)*f.groups, (long long)*f.groups);
  }
  if (trx__check_len(*f.strides, "strides", spatial) != 0 ||
      (transpose && trx__check_len(*f.output_padding, "output_padding", spatial) != 0) ||
      trx__check_len(*f.dilation, "dilation", spatial) != 0)
    return -1;
  trx__default_layout(f.out_layout, f.data_layout);
  return 0;
}

static int trx__check_pool(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)in, (void)n;
  int spatial = trx__spatial(def);
  trx_pool_attrs_t* a = (trx_pool_attrs_t*)attrs;
  if (spatial > 1 && (trx__widen(&a->pool_size, spatial) != 0 || trx__widen(&a->strides, spatial) != 0 ||
                      trx__widen(&a->dilation, spatial) != 0))
    return -1;
  if (trx__complete_padding(&a->padding, spatial) != 0 ||
      trx__check_len(a->pool_size, "pool_size", spatial) != 0 ||
      trx__check_len(a->strides, "strides", spatial) != 0 ||
      trx__check_len(a->dilation, "dilation", spatial) != 0)
    return -1;
  trx__default_layout(&a->out_layout, &a->layout);
  return 0;
}

/* A one-value output_size is duplicated to two values for 2 and 3 axes alike (TVM's 3-d
 * constructor then fails its length check, as TVM's does). */
static int trx__check_adaptive_pool(const trx_op_def_t* def, TVMFFIObject** in, int64_t n,
                                    TVMFFIObject* attrs) {
  (void)in, (void)n;
  int spatial = trx__spatial(def);
  trx_adaptive_pool_attrs_t* a = (trx_adaptive_pool_attrs_t*)attrs;
  if (a->output_size != NULL) {
    if (spatial > 1 && trx__widen(&a->output_size, 2) != 0) return -1;
    int64_t len = trx__iarr_size(a->output_size);
    if (len != spatial) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb,
                     "Check failed: _output_size.size() == %d (%lld vs. %d) : The output_size length "
                     "is expected to be %d. However, the given output_size is ",
                     spatial, (long long)len, spatial, spatial);
      trx__sb_iarr(&sb, a->output_size);
      return trx__sb_raise(&sb, "InternalError");
    }
  }
  trx__default_layout(&a->out_layout, &a->layout);
  return 0;
}

/* ---- shared inference pieces ------------------------------------------------------------------------ */
/* A provably different pair / a provably nonzero floormod(a, g) (g != 0). */
static bool trx__provably_ne(TVMFFIObject* a, TVMFFIObject* b) {
  return trx_prove_equal(a, b) == TRX_PROVE_FALSE;
}
static bool trx__provably_indivisible(TVMFFIObject* a, int64_t g) {
  trx__scope_t s = TRX__SCOPE_INIT;
  TVMFFIObject* m = trx__s_floormod(&s, a, trx__s_int(&s, g));
  int64_t v = 0;
  bool r = m != NULL && trx_as_const_int(m, &v) && v != 0;
  if (m == NULL) trx__clear_error(); /* no proof: no error */
  trx__scope_end(&s);
  return r;
}

/* ValueError "<who> expects the number of <which> channels to be divisible by the number of
 * groups. ..." when channels % groups is provably nonzero. */
static int trx__check_divisible(const char* who, const char* which, TVMFFIObject* channels,
                                int64_t groups) {
  if (!trx__provably_indivisible(channels, groups)) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb,
                 "%s expects the number of %s channels to be divisible by the number of groups. "
                 "However, the number of %s channels is ",
                 who, which, which);
  trx__sb_node(&sb, channels);
  trx__sb_printf(&sb, " while the number of groups is %lld", (long long)groups);
  return trx__sb_raise(&sb, "ValueError");
}

/* The TensorType of `n` stolen dims in layout `ol` (converted from the `src` order), with
 * data's vdevice. */
static TVMFFIObject* trx__result(const trx__layout_t* ol, TVMFFIObject** dims, const char* src,
                                 DLDataType dtype, const trx_tensor_type_t* data) {
  TVMFFIObject* res[16] = {NULL};
  TVMFFIObject* ty = NULL;
  int n = (int)strlen(src);
  if (trx__layout_from(ol, dims, src, res) == 0) ty = trx__tensor_from_dims_steal(res, ol->ndim, dtype);
  trx__release_objects(dims, n);
  return trx__on_vdevice(ty, data);
}
static TVMFFIObject* trx__unknown_like(DLDataType dtype, int64_t ndim, const trx_tensor_type_t* data) {
  return trx__on_vdevice(trx__tensor_unknown(dtype, ndim), data);
}

/* ---- convolution ------------------------------------------------------------------------------------ */
/* floordiv(x + pads - dil*(k-1) - 1, stride) + 1, pads = pad_a + pad_b (attrs already checked
 * as int32 literals; stride != 0).  New reference or NULL. */
static TVMFFIObject* trx__conv_out_dim(const trx_op_def_t* def, TVMFFIObject* x, int64_t pads,
                                       TVMFFIObject* k, int64_t dil, int64_t stride) {
  int64_t xv, kv;
  if (trx__const_i64(x, &xv) && trx__const_i64(k, &kv)) {
    /* exact (128-bit) steps: a dim that fits in int64 is computed whatever the steps pass through */
    __extension__ __int128 num = (__int128)xv + pads - (__int128)dil * ((__int128)kv - 1) - 1;
    __extension__ __int128 q = num / stride - ((num % stride != 0) && ((num < 0) != (stride < 0))) + 1;
    if (q > INT64_MAX || q < INT64_MIN) {
      trx__overflow(def);
      return NULL;
    }
    return trx_int64((int64_t)q);
  }
  trx__scope_t s = TRX__SCOPE_INIT;
  TVMFFIObject* span = trx__s_mul(&s, trx__s_int(&s, dil), trx__s_sub(&s, k, trx__s_int(&s, 1)));
  TVMFFIObject* num_e = trx__s_sub(&s, trx__s_add(&s, x, trx__s_int(&s, pads)), span);
  num_e = trx__s_sub(&s, num_e, trx__s_int(&s, 1));
  TVMFFIObject* r = trx__s_add(&s, trx__s_floordiv(&s, num_e, trx__s_int(&s, stride)), trx__s_int(&s, 1));
  return trx__finish(&s, r);
}

/* (x-1)*s - pads + dil*(k-1) + opad + 1. */
static TVMFFIObject* trx__convt_out_dim(const trx_op_def_t* def, TVMFFIObject* x, int64_t stride,
                                        int64_t pads, TVMFFIObject* k, int64_t dil, int64_t opad) {
  int64_t xv, kv, a, b, r;
  if (trx__const_i64(x, &xv) && trx__const_i64(k, &kv)) {
    if (__builtin_sub_overflow(xv, 1, &a) || __builtin_mul_overflow(a, stride, &a) ||
        __builtin_sub_overflow(a, pads, &a) || __builtin_sub_overflow(kv, 1, &b) ||
        __builtin_mul_overflow(dil, b, &b) || __builtin_add_overflow(a, b, &r) ||
        __builtin_add_overflow(r, opad, &r) || __builtin_add_overflow(r, 1, &r)) {
      trx__overflow(def);
      return NULL;
    }
    return trx_int64(r);
  }
  trx__scope_t s = TRX__SCOPE_INIT;
  TVMFFIObject* one = trx__s_int(&s, 1);
  TVMFFIObject* head = trx__s_mul(&s, trx__s_sub(&s, x, one), trx__s_int(&s, stride));
  TVMFFIObject* span = trx__s_mul(&s, trx__s_int(&s, dil), trx__s_sub(&s, k, one));
  TVMFFIObject* sum = trx__s_add(&s, head, span);
  TVMFFIObject* res = trx__s_add(&s, sum, trx__s_int(&s, opad + 1 - pads));
  return trx__finish(&s, res);
}

/* The int32 literals of a conv's window attributes, in the order TVM builds them. */
static int trx__conv_literals(const trx__conv_fields_t* f, int spatial, int64_t* pads) {
  if (trx__lit32_all(*f->padding) != 0) return -1;
  for (int i = 0; i < spatial; ++i) {
    if (trx__add32(trx__iarr_at(*f->padding, i), trx__iarr_at(*f->padding, i + spatial), &pads[i]) != 0)
      return -1;
  }
  if ((f->output_padding != NULL && trx__lit32_all(*f->output_padding) != 0) ||
      trx__lit32_all(*f->dilation) != 0 || trx__lit32_all(*f->strides) != 0)
    return -1;
  return 0;
}

static TVMFFIObject* trx__infer_conv(const trx_op_def_t* def, trx_call_t* call) {
  const int spatial = trx__spatial(def);
  const bool transpose = (def->flags & TRX__F_TRANSPOSE) != 0;
  const char* dtgt = trx__data_target(spatial);
  const char* ktgt = trx__kernel_target(spatial, transpose);
  const char* title = def->name + 3; /* "conv3d_transpose" -> "Conv3dTranspose" below */
  char who[24];
  snprintf(who, sizeof(who), "Conv%cd%s", title[4], transpose ? "Transpose" : "");
  trx__conv_fields_t f = trx__conv_fields(call->attrs, transpose);
  trx_tensor_type_t* tt[2];
  trx__layout_t dl, kl, ol;
  DLDataType dtype;
  TVMFFIObject* d[TRX__MAX_DIMS] = {NULL};
  TVMFFIObject* k[TRX__MAX_DIMS] = {NULL};
  TVMFFIObject* o[TRX__MAX_DIMS] = {NULL};
  TVMFFIObject* ty = NULL;
  const int nd = spatial + 2;
  trx__sb_t sb = {0};
  if (trx__check_args(def, call, 2, tt) != 0 ||
      trx__check_layout(def, f.data_layout, dtgt, "data", &dl) != 0 ||
      trx__check_layout(def, f.kernel_layout, ktgt, "kernel", &kl) != 0 ||
      trx__check_layout(def, f.out_layout, dtgt, "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0 ||
      trx__check_layout_ndim(def, &kl, tt[1]->ndim) != 0)
    return NULL;
  if (f.out_dtype->type_index == kTVMFFIDataType) {
    dtype = f.out_dtype->v_dtype;
  } else if (trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], &dtype) != 0) {
    return NULL;
  }
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* kv = trx__shape_values(tt[1]);
  if (dv == NULL || kv == NULL) return trx__unknown_like(dtype, ol.ndim, tt[0]);
  if (trx__layout_to(&dl, dv, dtgt, d) != 0 || trx__layout_to(&kl, kv, ktgt, k) != 0) goto done;
  /* channels: data C against the weight's input channels (times groups for conv) */
  int64_t groups = *f.groups;
  if (transpose) {
    if (trx__provably_ne(d[1], k[0])) {
      trx__sb_printf(&sb,
                     "%s expects the channel size of the data should equal to the input channel size "
                     "of the weight. However, the data channel size is ",
                     who);
      trx__sb_node(&sb, d[1]);
      trx__sb_printf(&sb, " while the weight input channel size is ");
      trx__sb_node(&sb, k[0]);
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
    if (trx__check_divisible(who, "input", k[0], groups) != 0) goto done;
    for (int i = 0; i < spatial; ++i) {
      if (trx__iarr_at(*f.output_padding, i) < trx__iarr_at(*f.strides, i)) continue;
      trx__sb_printf(&sb, "%s expects the output padding less than the strides, but the output padding is",
                     who);
      trx__sb_iarr(&sb, *f.output_padding);
      trx__sb_printf(&sb, " while the strides are");
      trx__sb_iarr(&sb, *f.strides);
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
  } else {
    trx__scope_t s = TRX__SCOPE_INIT;
    TVMFFIObject* ig = trx__s_mul(&s, k[1], trx__s_int(&s, groups));
    bool bad = ig != NULL && trx__provably_ne(d[1], ig);
    trx__scope_end(&s);
    if (ig == NULL) goto done;
    if (bad) {
      trx__sb_printf(&sb,
                     "The channel size of the data should equal to the product of input channel "
                     "size of the weight and the number of groups. However, the data channel size "
                     "is ");
      trx__sb_node(&sb, d[1]);
      trx__sb_printf(&sb, " while the weight input channel size and number of groups are ");
      trx__sb_node(&sb, k[1]);
      trx__sb_printf(&sb, " and %lld", (long long)groups);
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
    if (trx__check_divisible(who, "output", k[0], groups) != 0) goto done;
  }
  int64_t pads[TRX__MAX_SPATIAL];
  if (trx__conv_literals(&f, spatial, pads) != 0) goto done;
  o[0] = trx__ref(d[0]);
  if (transpose) {
    trx__scope_t s = TRX__SCOPE_INIT;
    o[1] = trx__finish(&s, trx__s_mul(&s, k[1], trx__s_int(&s, groups)));
  } else {
    o[1] = trx__ref(k[0]);
  }
  if (o[1] == NULL) goto done;
  for (int i = 0; i < spatial; ++i) {
    int64_t dil = trx__iarr_at(*f.dilation, i), stride = trx__iarr_at(*f.strides, i);
    if (transpose) {
      o[2 + i] = trx__convt_out_dim(def, d[2 + i], stride, pads[i], k[2 + i], dil,
                                    trx__iarr_at(*f.output_padding, i));
    } else if (stride == 0) {
      trx__div_by_zero();
    } else {
      o[2 + i] = trx__conv_out_dim(def, d[2 + i], pads[i], k[2 + i], dil, stride);
    }
    if (o[2 + i] == NULL) goto done;
  }
  ty = trx__result(&ol, o, dtgt, dtype, tt[0]);
done:
  trx__release_objects(d, nd);
  trx__release_objects(k, nd);
  trx__release_objects(o, nd);
  return ty;
}

/* ---- pooling ---------------------------------------------------------------------------------------- */
/* num = x + pads - dil*(k-1) - 1 (+ s - 1 with ceil_mode); out = floordiv(num, s) + 1, less
 * one with ceil_mode when the last window starts past x + pad_a (static dims only, as TVM). */
static TVMFFIObject* trx__pool_out_dim(const trx_op_def_t* def, TVMFFIObject* x, int64_t pad_a,
                                       int64_t pad_b, int64_t k, int64_t dil, int64_t s,
                                       bool ceil_mode) {
  int64_t pads, km1, span, c, xv;
  /* TVM folds the literal part in int32 */
  if (trx__add32(pad_a, pad_b, &pads) != 0 || trx__add32(k, -1, &km1) != 0 ||
      trx__mul32(dil, km1, &span) != 0 || trx__add32(pads, -span, &c) != 0 || trx__add32(c, -1, &c) != 0 ||
      (ceil_mode && (trx__add32(c, s, &c) != 0 || trx__add32(c, -1, &c) != 0)))
    return NULL;
  if (s == 0) {
    trx__div_by_zero();
    return NULL;
  }
  if (trx__const_i64(x, &xv)) {
    __extension__ __int128 num = (__int128)xv + c;
    __extension__ __int128 q = num / s - ((num % s != 0) && ((num < 0) != (s < 0))) + 1;
    if (ceil_mode && (q - 1) * s >= (__int128)xv + pad_a) q -= 1;
    if (q > INT64_MAX || q < INT64_MIN) {
      trx__overflow(def);
      return NULL;
    }
    return trx_int64((int64_t)q);
  }
  trx__scope_t sc = TRX__SCOPE_INIT;
  TVMFFIObject* num = trx__s_add(&sc, x, trx__s_int(&sc, c));
  TVMFFIObject* r = trx__s_add(&sc, trx__s_floordiv(&sc, num, trx__s_int(&sc, s)), trx__s_int(&sc, 1));
  return trx__finish(&sc, r);
}

static TVMFFIObject* trx__infer_pool(const trx_op_def_t* def, trx_call_t* call) {
  const int spatial = trx__spatial(def);
  const char* tgt = trx__data_target(spatial);
  trx_pool_attrs_t* attrs = (trx_pool_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  trx__layout_t dl, ol;
  TVMFFIObject* d[TRX__MAX_DIMS] = {NULL};
  TVMFFIObject* o[TRX__MAX_DIMS] = {NULL};
  TVMFFIObject* ty = NULL;
  if (trx__check_args(def, call, 1, tt) != 0 ||
      trx__check_layout(def, &attrs->layout, tgt, "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, tgt, "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0)
    return NULL;
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL) return trx__unknown_like(dtype, ol.ndim, tt[0]);
  if (trx__layout_to(&dl, dv, tgt, d) != 0) goto done;
  if (trx__lit32_all(attrs->padding) != 0 || trx__lit32_all(attrs->pool_size) != 0 ||
      trx__lit32_all(attrs->dilation) != 0 || trx__lit32_all(attrs->strides) != 0)
    goto done;
  o[0] = trx__ref(d[0]);
  o[1] = trx__ref(d[1]);
  for (int i = 0; i < spatial; ++i) {
    o[2 + i] = trx__pool_out_dim(def, d[2 + i], trx__iarr_at(attrs->padding, i),
                                 trx__iarr_at(attrs->padding, i + spatial),
                                 trx__iarr_at(attrs->pool_size, i), trx__iarr_at(attrs->dilation, i),
                                 trx__iarr_at(attrs->strides, i), attrs->ceil_mode);
    if (o[2 + i] == NULL) goto done;
  }
  ty = trx__result(&ol, o, tgt, dtype, tt[0]);
done:
  trx__release_objects(d, spatial + 2);
  trx__release_objects(o, spatial + 2);
  return ty;
}

static TVMFFIObject* trx__infer_adaptive_pool(const trx_op_def_t* def, trx_call_t* call) {
  const int spatial = trx__spatial(def);
  const char* tgt = trx__data_target(spatial);
  trx_adaptive_pool_attrs_t* attrs = (trx_adaptive_pool_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[1];
  trx__layout_t dl, ol;
  TVMFFIObject* d[TRX__MAX_DIMS] = {NULL};
  if (trx__check_args(def, call, 1, tt) != 0 ||
      trx__check_layout(def, &attrs->layout, tgt, "data", &dl) != 0 ||
      trx__check_layout(def, &attrs->out_layout, tgt, "output", &ol) != 0 ||
      trx__check_layout_ndim(def, &dl, tt[0]->ndim) != 0)
    return NULL;
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  if (dv == NULL) {
    /* a shape Var, unchanged layout and no output_size: the input's type as it is */
    TVMFFIByteArray l1 = trx__str(&attrs->layout), l2 = trx__str(&attrs->out_layout);
    bool same = l1.size == l2.size && memcmp(l1.data, l2.data, l1.size) == 0;
    if (tt[0]->shape != NULL && same && attrs->output_size == NULL) return trx__ref((TVMFFIObject*)tt[0]);
    return trx__unknown_like(dtype, ol.ndim, tt[0]);
  }
  if (trx__layout_to(&dl, dv, tgt, d) != 0) goto fail;
  for (int i = 0; attrs->output_size != NULL && i < spatial; ++i) {
    TVMFFIObjectDecRef(d[2 + i]);
    d[2 + i] = trx_int64(trx__iarr_at(attrs->output_size, i));
    if (d[2 + i] == NULL) goto fail;
  }
  return trx__result(&ol, d, tgt, dtype, tt[0]);
fail:
  trx__release_objects(d, spatial + 2);
  return NULL;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_DATA_NODOT "data|Tensor|The input tensor"
#define TRX__A_CONV "data|Tensor|The input tensor.\nweight|Tensor|The weight tensor."
#define TRX__P_POOL(N, ONE, PAD, ZERO, LAYOUT, INCLUDE)                                       \
  "data: Expr, pool_size: ints[" #N "] = " ONE ", strides: ints[" #N "] = " ONE               \
  ", padding: ints[" #PAD "] = " ZERO ", dilation: ints[" #N "] = " ONE                        \
  ", ceil_mode: bool = False, count_include_pad: bool = " INCLUDE ", layout: str = \"" LAYOUT \
  "\", out_layout: str? = None"
#define TRX__CONV_ROW(NAME, PARAMS, ATTRS, FLAGS, DOC)                                          \
  {.name = NAME, .params = PARAMS, .arguments = TRX__A_CONV, .attrs = &ATTRS,                 \
   .infer = trx__infer_conv, .check = trx__check_conv, .flags = FLAGS, .doc = DOC}
#define TRX__POOL_ROW(NAME, PARAMS, ATTRS, N, DOC)                                                   \
  {.name = NAME, .params = PARAMS, .arguments = TRX__A_DATA_NODOT, .attrs = &ATTRS,                 \
   .infer = trx__infer_pool, .check = trx__check_pool, .flags = TRX__F_SPATIAL(N), .doc = DOC}
#define TRX__ADAPTIVE_ROW(NAME, N, LAYOUT, ATTRS)                                                  \
  {.name = NAME,                                                                                   \
   .params = "data: Expr, output_size: ints?[" #N "] = None, layout: str = \"" LAYOUT             \
             "\", out_layout: str? = None",                                                       \
   .arguments = TRX__A_DATA_NODOT, .attrs = &ATTRS, .infer = trx__infer_adaptive_pool,             \
   .check = trx__check_adaptive_pool, .flags = TRX__F_SPATIAL(N),                                 \
   .doc = "Adaptive average pooling to output_size (None keeps the spatial sizes)."}

TRX__OPS(nn_spatial){
    TRX__CONV_ROW("nn.conv1d",
                  "data: Expr, weight: Expr, strides: ints[1] = 1, padding: ints[2] = 0, dilation: "
                  "ints[1] = 1, groups: int = 1, data_layout: str = \"NCW\", kernel_layout: str = "
                  "\"OIW\", out_layout: str? = None, out_dtype: dtype? = None",
                  trx__conv1d_attrs, TRX__F_SPATIAL(1),
                  "1-D convolution. padding: 1 or 2 values (left, right)."),
    TRX__CONV_ROW("nn.conv2d",
                  "data: Expr, weight: Expr, strides: ints[2] = (1, 1), padding: ints[4] = (0, 0), "
                  "dilation: ints[2] = (1, 1), groups: int = 1, data_layout: str = \"NCHW\", "
                  "kernel_layout: str = \"OIHW\", out_layout: str? = None, out_dtype: dtype? = None",
                  trx__conv2d_attrs, TRX__F_SPATIAL(2),
                  "2-D convolution. padding: 1, 2 or 4 values (top, left, bottom, right); "
                  "out_layout defaults to data_layout."),
    TRX__CONV_ROW("nn.conv3d",
                  "data: Expr, weight: Expr, strides: ints[3] = (1, 1, 1), padding: ints[6] = (0, "
                  "0, 0), dilation: ints[3] = (1, 1, 1), groups: int = 1, data_layout: str = "
                  "\"NCDHW\", kernel_layout: str = \"OIDHW\", out_layout: str? = None, out_dtype: "
                  "dtype? = None",
                  trx__conv3d_attrs, TRX__F_SPATIAL(3),
                  "3-D convolution. padding: 1, 3 or 6 values (front, top, left, back, bottom, "
                  "right); out_layout defaults to data_layout."),
    TRX__CONV_ROW("nn.conv1d_transpose",
                  "data: Expr, weight: Expr, strides: ints[1] = 1, padding: ints[2] = 0, "
                  "output_padding: ints[1] = 0, dilation: ints[1] = 1, groups: int = 1, "
                  "data_layout: str = \"NCW\", kernel_layout: str = \"IOW\", out_layout: str? = "
                  "None, out_dtype: dtype? = None",
                  trx__conv1d_transpose_attrs, TRX__F_SPATIAL(1) | TRX__F_TRANSPOSE,
                  "1-D transposed convolution."),
    TRX__CONV_ROW("nn.conv2d_transpose",
                  "data: Expr, weight: Expr, strides: ints[2] = (1, 1), padding: ints[4] = (0, 0), "
                  "output_padding: ints[2] = (0, 0), dilation: ints[2] = (1, 1), groups: int = 1, "
                  "data_layout: str = \"NCHW\", kernel_layout: str = \"IOHW\", out_layout: str? = "
                  "None, out_dtype: dtype? = None",
                  trx__conv2d_transpose_attrs, TRX__F_SPATIAL(2) | TRX__F_TRANSPOSE,
                  "2-D transposed convolution."),
    TRX__CONV_ROW("nn.conv3d_transpose",
                  "data: Expr, weight: Expr, strides: ints[3] = (1, 1, 1), padding: ints[6] = (0, "
                  "0, 0), output_padding: ints[3] = (0, 0, 0), dilation: ints[3] = (1, 1, 1), "
                  "groups: int = 1, data_layout: str = \"NCDHW\", kernel_layout: str = \"IODHW\", "
                  "out_layout: str? = None, out_dtype: dtype? = None",
                  trx__conv3d_transpose_attrs, TRX__F_SPATIAL(3) | TRX__F_TRANSPOSE,
                  "3-D transposed convolution."),
    TRX__POOL_ROW("nn.max_pool1d", TRX__P_POOL(1, "(1,)", 2, "(0, 0)", "NCW", "False"), trx__pool1d_attrs, 1,
                  "1-D max pooling."),
    TRX__POOL_ROW("nn.max_pool2d", TRX__P_POOL(2, "(1, 1)", 4, "(0, 0)", "NCHW", "False"), trx__pool2d_attrs, 2,
                  "2-D max pooling."),
    TRX__POOL_ROW("nn.max_pool3d", TRX__P_POOL(3, "(1, 1, 1)", 6, "(0, 0, 0)", "NCDHW", "False"), trx__pool3d_attrs,
                  3, "3-D max pooling."),
    TRX__POOL_ROW("nn.avg_pool1d", TRX__P_POOL(1, "(1,)", 2, "(0, 0)", "NCW", "True"), trx__pool1d_attrs, 1,
                  "1-D average pooling."),
    TRX__POOL_ROW("nn.avg_pool2d", TRX__P_POOL(2, "(1, 1)", 4, "(0, 0)", "NCHW", "False"), trx__pool2d_attrs, 2,
                  "2-D average pooling."),
    TRX__POOL_ROW("nn.avg_pool3d", TRX__P_POOL(3, "(1, 1, 1)", 6, "(0, 0, 0)", "NCDHW", "True"), trx__pool3d_attrs,
                  3, "3-D average pooling."),
    TRX__ADAPTIVE_ROW("nn.adaptive_avg_pool1d", 1, "NCW", trx__adaptive_pool1d_attrs),
    TRX__ADAPTIVE_ROW("nn.adaptive_avg_pool2d", 2, "NCHW", trx__adaptive_pool2d_attrs),
    TRX__ADAPTIVE_ROW("nn.adaptive_avg_pool3d", 3, "NCDHW", trx__adaptive_pool3d_attrs),
};
TRX__OPS_END(nn_spatial);
