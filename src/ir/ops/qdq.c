/*
 * qdq.c -- quantize and dequantize: data with a per-axis (or scalar) scale and zero point,
 * TVM's dtype rules, axis and size checks and error texts.
 */
#include "../op.h"

#include "../arith.h"

/* ---- attrs type ------------------------------------------------------------------------------- */
#define TRX__QUANTIZE_FIELDS(F, T)   \
  F(T, out_dtype, DTYPE, "DataType") \
  F(T, axis, INT64, "int")
TRX_ATTRS_STRUCT(trx_quantize_attrs_t, TRX__QUANTIZE_FIELDS);
TRX_ATTRS_DECL(trx__quantize_attrs, "relax.attrs.QuantizeAttrs", trx_quantize_attrs_t,
               TRX__QUANTIZE_FIELDS);

#define TRX__F_DEQUANTIZE (1u << (TRX_OP_USER_SHIFT + 4))

/* ---- dtype sets ------------------------------------------------------------------------------- */
typedef struct {
  uint8_t code, bits;
} trx__dt_t;
static bool trx__dt_in(DLDataType t, const trx__dt_t* set, size_t n) {
  for (size_t i = 0; i < n && t.lanes == 1; ++i) {
    if (t.code == set[i].code && t.bits == set[i].bits) return true;
  }
  return false;
}
#define TRX__DT_IN(t, set) trx__dt_in(t, set, sizeof(set) / sizeof(set[0]))
static const trx__dt_t trx__quantized[] = {{kDLInt, 8},  {kDLUInt, 8},           {kDLInt, 16},
                                           {kDLUInt, 16}, {kDLFloat8_e4m3fn, 8}, {kDLFloat8_e5m2, 8}};
static const trx__dt_t trx__dequantized[] = {{kDLFloat, 16}, {kDLFloat, 32}};
static const trx__dt_t trx__dequantize_inputs[] = {
    {kDLInt, 8}, {kDLUInt, 8}, {kDLInt, 16}, {kDLUInt, 16}, {kDLInt, 32},
    {kDLFloat, 16}, {kDLFloat, 32}, {kDLFloat8_e4m3fn, 8}, {kDLFloat8_e5m2, 8}};
static const trx__dt_t trx__scales[] = {{kDLFloat, 16}, {kDLFloat, 32}};
static const trx__dt_t trx__zero_points[] = {{kDLInt, 8},   {kDLUInt, 8},  {kDLInt, 16}, {kDLUInt, 16},
                                             {kDLInt, 32},  {kDLUInt, 32}, {kDLFloat, 16}};

/* ---- scale / zero_point against the data ------------------------------------------------------------ */
/* Every dim of a values Array is the constant 1 (a 0-d shape included). */
static bool trx__all_ones(TVMFFIObject* values) {
  for (int64_t i = 0; i < tether_array_size(values); ++i) {
    if (!trx__const_eq(trx__dim(values, i), 1)) return false;
  }
  return true;
}
static int trx__back_optional(void) { return tether_raise("RuntimeError", "Back optional access"); }

/* A scale or zero point of more than one element has as many as the data on the axis. */
static int trx__check_param_size(const trx_op_def_t* def, const trx_tensor_type_t* p, const char* what,
                                 TVMFFIObject* dim, int64_t axis) {
  TVMFFIObject* pv = trx__shape_values(p);
  if (pv == NULL) return trx__back_optional();
  if (trx__all_ones(pv)) return 0;
  TVMFFIObject* size = trx__dim(pv, 0);
  if (trx_prove_equal(dim, size) == TRX_PROVE_TRUE) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "Size mismatch: ");
  trx__sb_op(&sb, def);
  trx__sb_printf(&sb, ": the input shape at dim %lld is '", (long long)axis);
  trx__sb_node(&sb, dim);
  trx__sb_printf(&sb, "', but size of %s param is '", what);
  trx__sb_node(&sb, size);
  trx__sb_printf(&sb, "'");
  return trx__sb_raise(&sb, "ValueError");
}

static TVMFFIObject* trx__infer_qdq(const trx_op_def_t* def, trx_call_t* call) {
  trx_quantize_attrs_t* attrs = (trx_quantize_attrs_t*)call->attrs;
  const bool dq = (def->flags & TRX__F_DEQUANTIZE) != 0;
  trx_tensor_type_t* tt[3];
  char buf[64];
  if (trx__check_args(def, call, 3, tt) != 0) return NULL;
  DLDataType out = attrs->out_dtype;
  if (!(dq ? TRX__DT_IN(out, trx__dequantized) : TRX__DT_IN(out, trx__quantized))) {
    trx__dtype_str(out, buf, sizeof(buf));
    return tether_raise("TypeError", "Unsupported output datatype attribute for operation: %s%s", dq ? "" : "'", buf),
           NULL;
  }
  /* an unknown dtype among the inputs: the data's shape, dtype unknown */
  for (int i = 0; i < 3; ++i) {
    if (trx__dtype_is_void(trx_tensor_dtype(tt[i]))) return trx__with_dtype(tt[0], trx__dtype_void);
  }
  DLDataType in = trx_tensor_dtype(tt[0]);
  if (!(dq ? TRX__DT_IN(in, trx__dequantize_inputs) : TRX__DT_IN(in, trx__dequantized))) {
    /* dequantize names the output dtype here, as TVM does */
    trx__dtype_str(dq ? out : in, buf, sizeof(buf));
    return tether_raise("TypeError", "Unsupported input datatype for operation: %s%s", dq ? "" : "T.", buf), NULL;
  }
  trx__sb_t sb = {0};
  if (!TRX__DT_IN(trx_tensor_dtype(tt[1]), trx__scales)) {
    trx__sb_printf(&sb, "scale param datatype should be one of [float16, float32], but got ");
    trx__sb_dtype(&sb, trx_tensor_dtype(tt[1]));
    return trx__sb_raise(&sb, "TypeError"), NULL;
  }
  if (!TRX__DT_IN(trx_tensor_dtype(tt[2]), trx__zero_points)) {
    trx__sb_printf(&sb,
                   "zero_point param datatype should be one of ['int8', 'uint8', 'int16', 'uint16', "
                   "'int32', 'uint32', 'float16'], but got ");
    trx__sb_dtype(&sb, trx_tensor_dtype(tt[2]));
    return trx__sb_raise(&sb, "TypeError"), NULL;
  }
  int64_t ndim = tt[0]->ndim, axis = attrs->axis;
  if (ndim != 0 && !(ndim > 0 && axis >= -ndim && axis < ndim)) {
    return tether_raise("ValueError", "%s: axis param is out of range (%lld)", def->full_name, (long long)axis),
           NULL;
  }
  if (ndim == 0) {
    for (int i = 1; i < 3; ++i) {
      TVMFFIObject* pv = trx__shape_values(tt[i]);
      if (pv != NULL && trx__all_ones(pv)) continue;
      return tether_raise("ValueError",
                          "%s: scale and zero_point must be scalar or singleton tensors for rank-0 input",
                          def->full_name),
             NULL;
    }
  } else {
    TVMFFIObject* dv = trx__shape_values(tt[0]);
    if (dv == NULL) return trx__back_optional(), NULL;
    TVMFFIObject* dim = trx__dim(dv, axis < 0 ? axis + ndim : axis);
    if (trx__check_param_size(def, tt[1], "scale", dim, axis) != 0 ||
        trx__check_param_size(def, tt[2], "zero_point", dim, axis) != 0)
      return NULL;
  }
  TVMFFIObject* ty = trx__with_dtype(tt[0], out);
  return trx__on_vdevice(ty, tt[0]);
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(qdq){
    {.name = "quantize",
     .params = "data: Expr, scale: Expr, zero_point: Expr, axis: int = -1, out_dtype: dtype = "
               "\"int8\"",
     .arguments = "data|Tensor|The input tensor.\nscale|Tensor|The quantization scale of the output "
                  "tensor.\nzero_point|Tensor|The quantization zero_point of the output tensor.",
     .attrs = &trx__quantize_attrs, .infer = trx__infer_qdq,
     .doc = "clamp(round(data / scale) + zero_point) in out_dtype (int8, uint8, int16, uint16, "
            "float8_e4m3fn, float8_e5m2)."},
    {.name = "dequantize",
     .params = "data: Expr, scale: Expr, zero_point: Expr, axis: int = -1, out_dtype: dtype = "
               "\"float32\"",
     .arguments = "data|Tensor|The input tensor.\nscale|Tensor|The quantization scale of the input "
                  "tensor.\nzero_point|Tensor|The quantization zero_point of the input tensor.",
     .attrs = &trx__quantize_attrs, .infer = trx__infer_qdq, .flags = TRX__F_DEQUANTIZE,
     .doc = "scale * (data - zero_point) in out_dtype (float16 or float32)."},
};
TRX__OPS_END(qdq);
