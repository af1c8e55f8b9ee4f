/*
 * vision.c -- the relax.vision ops: all_class_non_max_suppression and roi_align, with TVM's
 * shape rules and error texts.
 */
#include "../op.h"

#include "../arith.h"

/* ---- attrs types ---------------------------------------------------------------------------- */
#define TRX__NMS_FIELDS(F, T) F(T, output_format, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_nms_attrs_t, TRX__NMS_FIELDS);
TRX_ATTRS_DECL(trx__nms_attrs, "relax.attrs.AllClassNonMaximumSuppressionAttrs", trx_nms_attrs_t,
               TRX__NMS_FIELDS);

#define TRX__ROI_ALIGN_FIELDS(F, T)           \
  F(T, pooled_size, OBJECT, "ffi.Array<int>") \
  F(T, spatial_scale, FLOAT64, "float")       \
  F(T, sample_ratio, INT64, "int")            \
  F(T, aligned, BOOL, "bool")                 \
  F(T, layout, STRING, "ffi.String")          \
  F(T, mode, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_roi_align_attrs_t, TRX__ROI_ALIGN_FIELDS);
TRX_ATTRS_DECL(trx__roi_align_attrs, "relax.attrs.ROIAlignAttrs", trx_roi_align_attrs_t,
               TRX__ROI_ALIGN_FIELDS);

static bool trx__str_is(const TVMFFIAny* v, const char* s) {
  TVMFFIByteArray b = trx__str(v);
  return b.size == strlen(s) && memcmp(b.data, s, b.size) == 0;
}

/* ---- all_class_non_max_suppression ------------------------------------------------------------------
 * boxes (batch, num_boxes, 4), scores (batch, num_classes, num_boxes).  "onnx": (indices
 * (batch * num_classes * num_boxes, 3) int64, count (1,) int64); any other format is
 * TensorFlow's: (indices (batch, num_classes * num_boxes, 2) int64, scores (batch,
 * num_classes * num_boxes) float32, counts (batch,) int64). */
static TVMFFIObject* trx__infer_nms(const trx_op_def_t* def, trx_call_t* call) {
  trx_nms_attrs_t* attrs = (trx_nms_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[5];
  static const DLDataType f32 = {kDLFloat, 32, 1};
  if (trx__check_args(def, call, 5, tt) != 0) return NULL;
  if (tt[0]->ndim == -1) {
    return tether_raise("InternalError",
                        "Check failed: (!boxes_ty->IsUnknownNdim()) is false: Only support known ndim"),
           NULL;
  }
  if (tt[1]->ndim == -1) {
    return tether_raise("InternalError",
                        "Check failed: (!scores_ty->IsUnknownNdim()) is false: Only support known ndim"),
           NULL;
  }
  if (tt[0]->ndim != 3) {
    return tether_raise("InternalError",
                        "Check failed: boxes_ty->ndim == 3 (%lld vs. 3) : AllClassNMS input boxes "
                        "should be 3-D.",
                        (long long)tt[0]->ndim),
           NULL;
  }
  if (tt[1]->ndim != 3) {
    return tether_raise("InternalError",
                        "Check failed: scores_ty->ndim == 3 (%lld vs. 3) : AllClassNMS input scores "
                        "count should be 3-D.",
                        (long long)tt[1]->ndim),
           NULL;
  }
  bool onnx = trx__str_is(&attrs->output_format, "onnx");
  TVMFFIObject* bv = trx__shape_values(tt[0]);
  TVMFFIObject* sv = trx__shape_values(tt[1]);
  TVMFFIObject* f[3] = {NULL, NULL, NULL};
  int nf = onnx ? 2 : 3;
  if (bv == NULL || sv == NULL) {
    /* dims unknown (TVM 0.27 does not handle this case): the ranks and dtypes alone */
    if (onnx) {
      TVMFFIObject* c[1] = {trx_int64(1)};
      f[0] = trx__tensor_unknown(trx__dtype_int64, 2);
      f[1] = trx__tensor_from_dims_steal(c, 1, trx__dtype_int64);
    } else {
      f[0] = trx__tensor_unknown(trx__dtype_int64, 3);
      f[1] = trx__tensor_unknown(f32, 2);
      f[2] = trx__tensor_unknown(trx__dtype_int64, 1);
    }
  } else {
    /* products as tir's operator* builds them: (batch * classes) * boxes, classes * boxes */
    TVMFFIObject* batch = trx__dim(bv, 0);
    TVMFFIObject* per_batch = trx__mul_fold(trx__dim(sv, 1), trx__dim(bv, 1));
    TVMFFIObject* bc = trx__mul_fold(batch, trx__dim(sv, 1));
    if (per_batch == NULL || bc == NULL) {
      if (per_batch != NULL) TVMFFIObjectDecRef(per_batch);
      if (bc != NULL) TVMFFIObjectDecRef(bc);
      return NULL;
    }
    if (onnx) {
      TVMFFIObject* d[2] = {trx__mul_fold(bc, trx__dim(bv, 1)), trx_int64(3)};
      TVMFFIObject* c[1] = {trx_int64(1)};
      f[0] = trx__tensor_from_dims_steal(d, 2, trx__dtype_int64);
      f[1] = trx__tensor_from_dims_steal(c, 1, trx__dtype_int64);
    } else {
      TVMFFIObject* d0[3] = {trx__ref(batch), trx__ref(per_batch), trx_int64(2)};
      TVMFFIObject* d1[2] = {trx__ref(batch), trx__ref(per_batch)};
      TVMFFIObject* d2[1] = {trx__ref(batch)};
      f[0] = trx__tensor_from_dims_steal(d0, 3, trx__dtype_int64);
      f[1] = trx__tensor_from_dims_steal(d1, 2, f32);
      f[2] = trx__tensor_from_dims_steal(d2, 1, trx__dtype_int64);
    }
    TVMFFIObjectDecRef(per_batch);
    TVMFFIObjectDecRef(bc);
  }
  TVMFFIObject* ty = NULL;
  bool ok = true;
  for (int i = 0; i < nf; ++i) ok &= f[i] != NULL;
  if (ok) ty = trx__tuple_type_of(f, nf);
  trx__release_objects(f, nf);
  return ty;
}

/* ---- roi_align ------------------------------------------------------------------------------------------
 * data (N, C, H, W) or (N, H, W, C), rois (num_roi, 5): (num_roi, C, ph, pw) in data's layout. */
static TVMFFIObject* trx__infer_roi_align(const trx_op_def_t* def, trx_call_t* call) {
  (void)def;
  trx_roi_align_attrs_t* attrs = (trx_roi_align_attrs_t*)call->attrs;
  int64_t n = trx__call_nargs(call);
  if (n != 2) {
    return tether_raise("ValueError", "ROIAlign expects two arguments, while the given number of arguments is %lld",
                        (long long)n),
           NULL;
  }
  static const char* const noun[] = {"the input data", "the rois"};
  static const char* const given[] = {"data", "rois"};
  trx_tensor_type_t* tt[2];
  for (int i = 0; i < 2; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (ty == NULL || !trx_is(ty, TRX_TENSOR_TYPE)) {
      return tether_raise("TypeError", "ROIAlign expects %s to be a Tensor, while the given %s is %s", noun[i],
                          given[i], tether_type_key(arg->type_index)),
             NULL;
    }
    tt[i] = (trx_tensor_type_t*)ty;
  }
  if (tt[0]->ndim != -1 && tt[0]->ndim != 4) {
    return tether_raise("ValueError", "ROIAlign expects the input data to be 4-D, while the given data has ndim %lld",
                        (long long)tt[0]->ndim),
           NULL;
  }
  if (tt[1]->ndim != -1 && tt[1]->ndim != 2) {
    return tether_raise("ValueError", "ROIAlign expects the rois tensor to be 2-D, while the given rois has ndim %lld",
                        (long long)tt[1]->ndim),
           NULL;
  }
  bool nchw = trx__str_is(&attrs->layout, "NCHW");
  if (!nchw && !trx__str_is(&attrs->layout, "NHWC")) {
    TVMFFIByteArray l = trx__str(&attrs->layout);
    return tether_raise("ValueError", "ROIAlign only supports NCHW and NHWC layout, but got %.*s", (int)l.size,
                        l.data),
           NULL;
  }
  if (!trx__str_is(&attrs->mode, "avg") && !trx__str_is(&attrs->mode, "max")) {
    TVMFFIByteArray m = trx__str(&attrs->mode);
    return tether_raise("ValueError", "ROIAlign only supports avg and max mode, but got %.*s", (int)m.size, m.data),
           NULL;
  }
  TVMFFIObject* dv = trx__shape_values(tt[0]);
  TVMFFIObject* rv = trx__shape_values(tt[1]);
  int64_t last;
  if (rv != NULL && trx_as_const_int(trx__dim(rv, 1), &last) && last != 5) {
    return tether_raise("ValueError", "ROIAlign expects rois to have shape (num_roi, 5), but got last dimension %lld",
                        (long long)last),
           NULL;
  }
  DLDataType dtype = trx_tensor_dtype(tt[0]);
  TVMFFIObject* ty;
  if (dv == NULL || rv == NULL) {
    ty = trx__tensor_unknown(dtype, 4);
  } else {
    TVMFFIObject* ph = trx_int64(trx__iarr_at(attrs->pooled_size, 0));
    TVMFFIObject* pw = trx_int64(trx__iarr_at(attrs->pooled_size, 1));
    TVMFFIObject* c = trx__ref(trx__dim(dv, nchw ? 1 : 3));
    TVMFFIObject* d[4] = {trx__ref(trx__dim(rv, 0)), nchw ? c : ph, nchw ? ph : pw, nchw ? pw : c};
    ty = trx__tensor_from_dims_steal(d, 4, dtype);
  }
  return trx__on_vdevice(ty, tt[0]);
}

/* pooled_size: one value widened to two, then exactly two. */
static int trx__check_roi_align(const trx_op_def_t* def, TVMFFIObject** in, int64_t n, TVMFFIObject* attrs) {
  (void)def, (void)in, (void)n;
  trx_roi_align_attrs_t* a = (trx_roi_align_attrs_t*)attrs;
  int64_t len = trx__iarr_size(a->pooled_size);
  if (len == 1) {
    int64_t v[2] = {trx__iarr_at(a->pooled_size, 0), trx__iarr_at(a->pooled_size, 0)};
    TVMFFIObject* wide = trx__iarr_new(v, 2);
    if (wide == NULL) return -1;
    TVMFFIObjectDecRef(a->pooled_size);
    a->pooled_size = wide;
    len = 2;
  }
  if (len == 2) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb,
                 "Check failed: pooled_size.size() == 2 (%lld vs. 2) : The input pooled_size length "
                 "is expected to be 2. However, the given pooled_size is ",
                 (long long)len);
  trx__sb_iarr(&sb, a->pooled_size);
  return trx__sb_raise(&sb, "InternalError");
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(vision){
    {.name = "vision.all_class_non_max_suppression",
     .params = "boxes: Expr, scores: Expr, max_output_boxes_per_class: Expr, iou_threshold: Expr, "
               "score_threshold: Expr, output_format: str = \"onnx\"",
     .arguments = "boxes|Tensor|The input boxes in the format [batch, num_boxes, 4].\n"
                  "scores|Tensor|Scores for each box and class in the format [batch, num_classes, "
                  "num_boxes].\n"
                  "max_output_boxes_per_class|Tensor|The maximum number of output boxes per class.\n"
                  "iou_threshold|Tensor|The IoU threshold for box the overlap test.\n"
                  "score_threshold|Tensor|The score threshold to filter out low score boxes early.",
     .attrs = &trx__nms_attrs, .infer = trx__infer_nms,
     .doc = "Non-maximum suppression over every class (ONNX NonMaxSuppression)."},
    {.name = "vision.roi_align",
     .params = "data: Expr, rois: Expr, pooled_size: ints[2], spatial_scale: float, sample_ratio: "
               "int = -1, aligned: bool = False, layout: str = \"NCHW\", mode: str = \"avg\"",
     .arguments = "data|Tensor|The input tensor.\nrois|Tensor|The input rois with shape (num_roi, 5) "
                  "in [batch_idx, x1, y1, x2, y2] format.",
     .attrs = &trx__roi_align_attrs, .infer = trx__infer_roi_align, .check = trx__check_roi_align,
     .doc = "ROI Align: pooled_size features per region of interest."},
};
TRX__OPS_END(vision);
