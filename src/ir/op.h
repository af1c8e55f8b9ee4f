/*
 * op.h -- internal to libtether_ir: the Relax op table (one X-macro row per op), the attrs
 * types (one X-macro row per type, with their fields in TVM's order), and the helpers the
 * op files share (op.c: registry, constructors' argument readers, error-text rendering,
 * dims/shape utilities; op_nn.c and op_tensor.c: each op's constructor and inference).
 *
 * Ownership: every TVMFFIObject* returned is a NEW reference or NULL with an error raised;
 * arguments are borrowed unless the name ends in _steal.
 */
#ifndef TETHER_SRC_IR_OP_H_
#define TETHER_SRC_IR_OP_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/op.h is private to libtether_ir"
#endif

#include <stddef.h>

#include "internal.h"
#include "node.h"

/* ---- attrs types -------------------------------------------------------------------------
 * X(KIND, "type key", C struct, FIELDS) where FIELDS(F, ctype) lists F(ctype, field, FIELD_KIND,
 * "declared type") in TVM's reflection (= print) order, the declared type as TVM 0.27 declares
 * it (node.c trx__def_field's notation).  Optional<DataType> fields are ANY (None or a dtype);
 * Array<int> fields are OBJECT (an ffi.Array of ints); Optional<Array> are OPT_OBJECT. */
typedef struct {
  trx_attrs_t base;
  TVMFFIObject* strides;
  TVMFFIObject* padding;
  TVMFFIObject* dilation;
  int64_t groups;
  TVMFFIAny data_layout;
  TVMFFIAny kernel_layout;
  TVMFFIAny out_layout;
  TVMFFIAny out_dtype;
} trx_conv_attrs_t;
#define TRX__CONV_FIELDS(F, T) \
  F(T, strides, OBJECT, "ffi.Array<int>")        \
  F(T, padding, OBJECT, "ffi.Array<int>")        \
  F(T, dilation, OBJECT, "ffi.Array<int>")       \
  F(T, groups, INT64, "int")          \
  F(T, data_layout, STRING, "ffi.String")    \
  F(T, kernel_layout, STRING, "ffi.String")  \
  F(T, out_layout, STRING, "ffi.String")     \
  F(T, out_dtype, ANY, "Optional<DataType>")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* strides;
  TVMFFIObject* padding;
  TVMFFIObject* output_padding;
  TVMFFIObject* dilation;
  int64_t groups;
  TVMFFIAny data_layout;
  TVMFFIAny kernel_layout;
  TVMFFIAny out_layout;
  TVMFFIAny out_dtype;
} trx_conv_transpose_attrs_t;
#define TRX__CONV_TRANSPOSE_FIELDS(F, T) \
  F(T, strides, OBJECT, "ffi.Array<int>")                  \
  F(T, padding, OBJECT, "ffi.Array<int>")                  \
  F(T, output_padding, OBJECT, "ffi.Array<int>")           \
  F(T, dilation, OBJECT, "ffi.Array<int>")                 \
  F(T, groups, INT64, "int")                    \
  F(T, data_layout, STRING, "ffi.String")              \
  F(T, kernel_layout, STRING, "ffi.String")            \
  F(T, out_layout, STRING, "ffi.String")               \
  F(T, out_dtype, ANY, "Optional<DataType>")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* pool_size;
  TVMFFIObject* strides;
  TVMFFIObject* dilation;
  TVMFFIObject* padding;
  bool ceil_mode;
  bool count_include_pad;
  TVMFFIAny layout;
  TVMFFIAny out_layout;
} trx_pool2d_attrs_t;
#define TRX__POOL2D_FIELDS(F, T) \
  F(T, pool_size, OBJECT, "ffi.Array<int>")        \
  F(T, strides, OBJECT, "ffi.Array<int>")          \
  F(T, dilation, OBJECT, "ffi.Array<int>")         \
  F(T, padding, OBJECT, "ffi.Array<int>")          \
  F(T, ceil_mode, BOOL, "bool")          \
  F(T, count_include_pad, BOOL, "bool")  \
  F(T, layout, STRING, "ffi.String")           \
  F(T, out_layout, STRING, "ffi.String")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* output_size;
  TVMFFIAny layout;
  TVMFFIAny out_layout;
} trx_adaptive_pool2d_attrs_t;
#define TRX__ADAPTIVE_POOL2D_FIELDS(F, T) \
  F(T, output_size, OPT_OBJECT, "Optional<ffi.Array<int>>")           \
  F(T, layout, STRING, "ffi.String")                    \
  F(T, out_layout, STRING, "ffi.String")

typedef struct {
  trx_attrs_t base;
  int64_t axis;
} trx_softmax_attrs_t;
#define TRX__SOFTMAX_FIELDS(F, T) F(T, axis, INT64, "int")

typedef struct {
  trx_attrs_t base;
  int64_t axis;
  double epsilon;
  bool center;
  bool scale;
  double momentum;
  bool training;
} trx_batch_norm_attrs_t;
#define TRX__BATCH_NORM_FIELDS(F, T) \
  F(T, axis, INT64, "int")                  \
  F(T, epsilon, FLOAT64, "float")             \
  F(T, center, BOOL, "bool")                 \
  F(T, scale, BOOL, "bool")                  \
  F(T, momentum, FLOAT64, "float")            \
  F(T, training, BOOL, "bool")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* axes;
  double epsilon;
  bool center;
  bool scale;
} trx_layer_norm_attrs_t;
#define TRX__LAYER_NORM_FIELDS(F, T) \
  F(T, axes, OBJECT, "ffi.Array<int>")                 \
  F(T, epsilon, FLOAT64, "float")             \
  F(T, center, BOOL, "bool")                 \
  F(T, scale, BOOL, "bool")

typedef struct {
  trx_attrs_t base;
  double rate;
} trx_dropout_attrs_t;
#define TRX__DROPOUT_FIELDS(F, T) F(T, rate, FLOAT64, "float")

typedef struct {
  trx_attrs_t base;
  TVMFFIAny out_dtype;
} trx_matmul_attrs_t;
#define TRX__MATMUL_FIELDS(F, T) F(T, out_dtype, ANY, "Optional<DataType>")

/* PermuteDims.axes, Squeeze.axis (Optional<Array<int>>) and ExpandDims.axis (Array<int>). */
typedef struct {
  trx_attrs_t base;
  TVMFFIObject* axes;
} trx_axes_attrs_t;
#define TRX__PERMUTE_DIMS_FIELDS(F, T) F(T, axes, OPT_OBJECT, "Optional<ffi.Array<int>>")
typedef struct {
  trx_attrs_t base;
  TVMFFIObject* axis;
} trx_axis_array_attrs_t;
#define TRX__EXPAND_DIMS_FIELDS(F, T) F(T, axis, OBJECT, "ffi.Array<int>")
#define TRX__SQUEEZE_FIELDS(F, T) F(T, axis, OPT_OBJECT, "Optional<ffi.Array<int>>")

typedef struct {
  trx_attrs_t base;
  tether_opt_int64_t axis;
} trx_concat_attrs_t;
#define TRX__CONCAT_FIELDS(F, T) F(T, axis, OPT_INT64, "Optional<int>")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* indices_or_sections; /* IntImm (sections) or Array<IntImm> (indices) */
  int64_t axis;
} trx_split_attrs_t;
#define TRX__SPLIT_FIELDS(F, T)     \
  F(T, indices_or_sections, OBJECT, "ffi.Object") \
  F(T, axis, INT64, "int")

typedef struct {
  trx_attrs_t base;
  bool assume_inbound;
} trx_strided_slice_attrs_t;
#define TRX__STRIDED_SLICE_FIELDS(F, T) F(T, assume_inbound, BOOL, "bool")

typedef struct {
  trx_attrs_t base;
  tether_opt_int64_t axis;
  TVMFFIAny mode;
} trx_take_attrs_t;
#define TRX__TAKE_FIELDS(F, T) \
  F(T, axis, OPT_INT64, "Optional<int>")        \
  F(T, mode, STRING, "ffi.String")

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* axis; /* Optional<Array<int>> */
  bool keepdims;
} trx_statistical_attrs_t;
#define TRX__STATISTICAL_FIELDS(F, T) \
  F(T, axis, OPT_OBJECT, "Optional<ffi.Array<int>>")              \
  F(T, keepdims, BOOL, "bool")

typedef struct {
  trx_attrs_t base;
  DLDataType dtype;
} trx_astype_attrs_t;
#define TRX__ASTYPE_FIELDS(F, T) F(T, dtype, DTYPE, "DataType")

#define TRX_ATTRS_TYPES(X)                                                                   \
  X(CONV1D, "relax.attrs.Conv1DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS)                   \
  X(CONV2D, "relax.attrs.Conv2DAttrs", trx_conv_attrs_t, TRX__CONV_FIELDS)                   \
  X(CONV2D_TRANSPOSE, "relax.attrs.Conv2DTransposeAttrs", trx_conv_transpose_attrs_t,        \
    TRX__CONV_TRANSPOSE_FIELDS)                                                              \
  X(POOL2D, "relax.attrs.Pool2DAttrs", trx_pool2d_attrs_t, TRX__POOL2D_FIELDS)               \
  X(ADAPTIVE_POOL2D, "relax.attrs.AdaptivePool2DAttrs", trx_adaptive_pool2d_attrs_t,         \
    TRX__ADAPTIVE_POOL2D_FIELDS)                                                             \
  X(SOFTMAX, "relax.attrs.SoftmaxAttrs", trx_softmax_attrs_t, TRX__SOFTMAX_FIELDS)           \
  X(BATCH_NORM, "relax.attrs.BatchNormAttrs", trx_batch_norm_attrs_t, TRX__BATCH_NORM_FIELDS) \
  X(LAYER_NORM, "relax.attrs.LayerNormAttrs", trx_layer_norm_attrs_t, TRX__LAYER_NORM_FIELDS) \
  X(DROPOUT, "relax.attrs.DropoutAttrs", trx_dropout_attrs_t, TRX__DROPOUT_FIELDS)           \
  X(MATMUL, "relax.attrs.MatmulAttrs", trx_matmul_attrs_t, TRX__MATMUL_FIELDS)               \
  X(PERMUTE_DIMS, "relax.attrs.PermuteDimsAttrs", trx_axes_attrs_t, TRX__PERMUTE_DIMS_FIELDS) \
  X(EXPAND_DIMS, "relax.attrs.ExpandDimsAttrs", trx_axis_array_attrs_t,                      \
    TRX__EXPAND_DIMS_FIELDS)                                                                 \
  X(SQUEEZE, "relax.attrs.SqueezeAttrs", trx_axis_array_attrs_t, TRX__SQUEEZE_FIELDS)        \
  X(CONCAT, "relax.attrs.ConcatAttrs", trx_concat_attrs_t, TRX__CONCAT_FIELDS)               \
  X(SPLIT, "relax.attrs.SplitAttrs", trx_split_attrs_t, TRX__SPLIT_FIELDS)                   \
  X(STRIDED_SLICE, "relax.attrs.StridedSliceAttrs", trx_strided_slice_attrs_t,               \
    TRX__STRIDED_SLICE_FIELDS)                                                               \
  X(TAKE, "relax.attrs.TakeAttrs", trx_take_attrs_t, TRX__TAKE_FIELDS)                       \
  X(STATISTICAL, "relax.attrs.StatisticalAttrs", trx_statistical_attrs_t,                    \
    TRX__STATISTICAL_FIELDS)                                                                 \
  X(ASTYPE, "relax.attrs.AstypeAttrs", trx_astype_attrs_t, TRX__ASTYPE_FIELDS)

typedef enum {
  TRX_ATTRS_NONE = -1,
#define TRX__ATTRS_ENUM(kind, key, ctype, fields) TRX_ATTRS_##kind,
  TRX_ATTRS_TYPES(TRX__ATTRS_ENUM)
#undef TRX__ATTRS_ENUM
  TRX_NUM_ATTRS
} trx_attrs_kind;

/* Runtime type index of each attrs type (filled by trx__op_init). */
extern int32_t trx__attrs_type_index[TRX_NUM_ATTRS];
/* New zeroed attrs object of `kind` (string fields empty, Any fields None). */
TVMFFIObject* trx__attrs_new(trx_attrs_kind kind);

/* ---- the op table -------------------------------------------------------------------------
 * X(ID, "name" (registry "relax.<name>", global "relax.op.<name>"), number of inputs,
 *   attrs kind, attrs_type_key shown by the Op, arguments, FFI signature, constructor,
 *   inference, flags).
 * arguments: "name|type_info|description" rows separated by '\n' (the Op's ArgumentInfo,
 * shown in error texts as TVM renders an Op).  flags: per-op switches read by shared
 * constructors/inference (TRX__F_*). */
#define TRX__F_FLOAT 1   /* unary: requires a float input */
#define TRX__F_COMPARE 2 /* binary: result dtype bool */

#define TRX__SIG_E1 "(0: ir.Expr) -> ir.Expr"
#define TRX__SIG_E2 "(0: ir.Expr, 1: ir.Expr) -> ir.Expr"
#define TRX__SIG_E3 "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr) -> ir.Expr"
#define TRX__SIG_CONV                                                                          \
  "(0: ir.Expr, 1: ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: int, 6: str, 7: " \
  "str, 8: Optional<str>, 9: Optional<DataType>) -> ir.Expr"
#define TRX__SIG_POOL                                                                       \
  "(0: ir.Expr, 1: Array<int>, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: bool, 6: " \
  "bool, 7: str, 8: Optional<str>) -> ir.Expr"
#define TRX__SIG_STAT "(0: ir.Expr, 1: Optional<Array<int>>, 2: bool) -> ir.Expr"

#define TRX__A_X "x|Tensor|The input tensor."
#define TRX__A_DATA "data|Tensor|The input tensor."
#define TRX__A_DATA_NODOT "data|Tensor|The input tensor"
#define TRX__A_CONV TRX__A_DATA "\nweight|Tensor|The weight tensor."
#define TRX__A_BIN "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor."
#define TRX__A_STAT "x|Tensor|The input data tensor"

#define TRX_OPS(X)                                                                               \
  X(NN_CONV1D, "nn.conv1d", 2, CONV1D, "relax.attrs.Conv1DAttrs", TRX__A_CONV, TRX__SIG_CONV,   \
    trx__make_conv1d, trx__infer_conv1d, 0)                                                      \
  X(NN_CONV2D, "nn.conv2d", 2, CONV2D, "relax.attrs.Conv2DAttrs", TRX__A_CONV, TRX__SIG_CONV,   \
    trx__make_conv2d, trx__infer_conv2d, 0)                                                      \
  X(NN_CONV2D_TRANSPOSE, "nn.conv2d_transpose", 2, CONV2D_TRANSPOSE,                            \
    "relax.attrs.Conv2DTransposeAttrs", TRX__A_CONV,                                             \
    "(0: ir.Expr, 1: ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: Array<int>, 6: "   \
    "int, 7: str, 8: str, 9: Optional<str>, 10: Optional<DataType>) -> ir.Expr",                 \
    trx__make_conv2d_transpose, trx__infer_conv2d_transpose, 0)                                  \
  X(NN_MAX_POOL2D, "nn.max_pool2d", 1, POOL2D, "relax.attrs.Pool2DAttrs", TRX__A_DATA_NODOT,    \
    TRX__SIG_POOL, trx__make_pool2d, trx__infer_pool2d, 0)                                       \
  X(NN_AVG_POOL2D, "nn.avg_pool2d", 1, POOL2D, "relax.attrs.Pool2DAttrs", TRX__A_DATA_NODOT,    \
    TRX__SIG_POOL, trx__make_pool2d, trx__infer_pool2d, 0)                                       \
  X(NN_ADAPTIVE_AVG_POOL2D, "nn.adaptive_avg_pool2d", 1, ADAPTIVE_POOL2D,                       \
    "relax.attrs.AdaptivePool2DAttrs", TRX__A_DATA_NODOT,                                        \
    "(0: ir.Expr, 1: Optional<Array<int>>, 2: str, 3: Optional<str>) -> ir.Expr",                \
    trx__make_adaptive_pool2d, trx__infer_adaptive_pool2d, 0)                                    \
  X(NN_RELU, "nn.relu", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary, 0) \
  X(NN_GELU, "nn.gelu", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,  \
    TRX__F_FLOAT)                                                                                \
  X(NN_GELU_TANH, "nn.gelu_tanh", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain,          \
    trx__infer_unary, TRX__F_FLOAT)                                                              \
  X(NN_SILU, "nn.silu", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,  \
    TRX__F_FLOAT)                                                                                \
  X(NN_SELU, "nn.selu", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,  \
    TRX__F_FLOAT)                                                                                \
  X(NN_SOFTMAX, "nn.softmax", 1, SOFTMAX, "relax.attrs.SoftmaxAttrs", TRX__A_DATA,              \
    "(0: ir.Expr, 1: int) -> ir.Expr", trx__make_softmax, trx__infer_softmax, 0)                 \
  X(NN_LOG_SOFTMAX, "nn.log_softmax", 1, SOFTMAX, "relax.attrs.SoftmaxAttrs", TRX__A_DATA,      \
    "(0: ir.Expr, 1: int) -> ir.Expr", trx__make_softmax, trx__infer_softmax, 0)                 \
  X(NN_BATCH_NORM, "nn.batch_norm", 5, BATCH_NORM, "relax.attrs.BatchNormAttrs",                \
    "data|Tensor|Input to which batch_norm will be applied.\ngamma|Tensor|The gamma scale "       \
    "factor.\nbeta|Tensor|The beta offset factor.\nmoving_mean|Tensor|Running mean of "           \
    "input.\nmoving_var|Tensor|Running variance of input.",                                       \
    "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: int, 6: float, 7: bool, "  \
    "8: bool, 9: float, 10: bool) -> ir.Expr",                                                   \
    trx__make_batch_norm, trx__infer_batch_norm, 0)                                              \
  X(NN_LAYER_NORM, "nn.layer_norm", 3, LAYER_NORM, "relax.attrs.LayerNormAttrs",                \
    "data|Tensor|Input to which layer_norm will be applied.\ngamma|Tensor|The gamma scale "       \
    "factor.\nbeta|Tensor|The beta offset factor.",                                               \
    "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: Array<int>, 4: float, 5: bool, 6: bool) -> "       \
    "ir.Expr",                                                                                   \
    trx__make_layer_norm, trx__infer_layer_norm, 0)                                              \
  X(NN_DROPOUT, "nn.dropout", 1, DROPOUT, "relax.attrs.DropoutAttrs",                           \
    "data|Tensor|Input to which dropout will be applied.", "(0: ir.Expr, 1: float) -> ir.Expr",  \
    trx__make_dropout, trx__infer_dropout, 0)                                                    \
  X(SIGMOID, "sigmoid", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,  \
    TRX__F_FLOAT)                                                                                \
  X(TANH, "tanh", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,        \
    TRX__F_FLOAT)                                                                                \
  X(EXP, "exp", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,          \
    TRX__F_FLOAT)                                                                                \
  X(SQRT, "sqrt", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary,        \
    TRX__F_FLOAT)                                                                                \
  X(NEGATIVE, "negative", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_unary, \
    0)                                                                                           \
  X(MATMUL, "matmul", 2, MATMUL, "", TRX__A_BIN, "(0: ir.Expr, 1: ir.Expr, 2: Optional<DataType>) -> ir.Expr", \
    trx__make_matmul, trx__infer_matmul, 0)                                                      \
  X(ADD, "add", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain, trx__infer_binary, 0)    \
  X(SUBTRACT, "subtract", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain,                \
    trx__infer_binary, 0)                                                                        \
  X(MULTIPLY, "multiply", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain,                \
    trx__infer_binary, 0)                                                                        \
  X(DIVIDE, "divide", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain, trx__infer_binary, \
    0)                                                                                           \
  X(POWER, "power", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain, trx__infer_binary, 0) \
  X(MAXIMUM, "maximum", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain,                  \
    trx__infer_binary, 0)                                                                        \
  X(MINIMUM, "minimum", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain,                  \
    trx__infer_binary, 0)                                                                        \
  X(EQUAL, "equal", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain, trx__infer_binary,   \
    TRX__F_COMPARE)                                                                              \
  X(LESS, "less", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain, trx__infer_binary,     \
    TRX__F_COMPARE)                                                                              \
  X(GREATER, "greater", 2, NONE, "", TRX__A_BIN, TRX__SIG_E2, trx__make_plain,                  \
    trx__infer_binary, TRX__F_COMPARE)                                                           \
  X(RESHAPE, "reshape", 2, NONE, "", TRX__A_X "\nshape|Shape|The input new shape.",              \
    "(0: ir.Expr, 1: Variant<ir.Expr, Array<ir.Expr>>) -> ir.Expr", trx__make_reshape,           \
    trx__infer_reshape, 0)                                                                       \
  X(PERMUTE_DIMS, "permute_dims", 1, PERMUTE_DIMS, "relax.attrs.PermuteDimsAttrs", TRX__A_X,    \
    "(0: ir.Expr, 1: Optional<Array<int>>) -> ir.Expr", trx__make_axes, trx__infer_permute_dims, \
    0)                                                                                           \
  X(EXPAND_DIMS, "expand_dims", 1, EXPAND_DIMS, "relax.attrs.ExpandDimsAttrs", TRX__A_X,        \
    "(0: ir.Expr, 1: Array<int>) -> ir.Expr", trx__make_axes, trx__infer_expand_dims, 0)         \
  X(SQUEEZE, "squeeze", 1, SQUEEZE, "relax.attrs.SqueezeAttrs", TRX__A_X,                       \
    "(0: ir.Expr, 1: Optional<Array<int>>) -> ir.Expr", trx__make_axes, trx__infer_squeeze, 0)   \
  X(FLATTEN, "flatten", 1, NONE, "", TRX__A_X, TRX__SIG_E1, trx__make_plain, trx__infer_flatten, \
    0)                                                                                           \
  X(CONCAT, "concat", 1, CONCAT, "relax.attrs.ConcatAttrs",                                     \
    "tensors|Tuple of Tensors|The input list of tensors.",                                       \
    "(0: ir.Expr, 1: Optional<int>) -> ir.Expr", trx__make_concat, trx__infer_concat, 0)         \
  X(SPLIT, "split", 1, SPLIT, "relax.attrs.SplitAttrs", TRX__A_X,                               \
    "(0: ir.Expr, 1: Variant<ir.IntImm, Array<ir.IntImm>>, 2: int) -> ir.Expr", trx__make_split, \
    trx__infer_split, 0)                                                                         \
  X(STRIDED_SLICE, "strided_slice", 1, STRIDED_SLICE, "relax.attrs.StridedSliceAttrs",          \
    "x|Tensor|The source tensor to be sliced.",                                                  \
    "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: Optional<ir.Expr>, 5: bool) -> "        \
    "ir.Expr",                                                                                   \
    trx__make_strided_slice, trx__infer_strided_slice, 0)                                        \
  X(TAKE, "take", 2, TAKE, "relax.attrs.TakeAttrs",                                             \
    "x|Tensor|The source tensor.\nindices|Tensor|The indices of the values to extract.",         \
    "(0: ir.Expr, 1: ir.Expr, 2: Optional<int>, 3: str) -> ir.Expr", trx__make_take,            \
    trx__infer_take, 0)                                                                          \
  X(MEAN, "mean", 1, STATISTICAL, "", TRX__A_STAT, TRX__SIG_STAT, trx__make_statistical,        \
    trx__infer_statistical, 0)                                                                   \
  X(SUM, "sum", 1, STATISTICAL, "", TRX__A_STAT, TRX__SIG_STAT, trx__make_statistical,          \
    trx__infer_statistical, 0)                                                                   \
  X(MAX, "max", 1, STATISTICAL, "", TRX__A_STAT, TRX__SIG_STAT, trx__make_statistical,          \
    trx__infer_statistical, 0)                                                                   \
  X(ASTYPE, "astype", 1, ASTYPE, "relax.attrs.AstypeAttrs", "x|Tensor|The input tensor",        \
    "(0: ir.Expr, 1: DataType) -> ir.Expr", trx__make_astype, trx__infer_astype, 0)             \
  X(BROADCAST_TO, "broadcast_to", 2, NONE, "", TRX__A_X "\nshape|Shape|The target shape.",       \
    TRX__SIG_E2, trx__make_plain, trx__infer_broadcast_to, 0)                                    \
  X(CLIP, "clip", 3, NONE, "",                                                                  \
    TRX__A_X "\nmin|PrimExpr|The lower-bound of the range to be clipped to\nmax|PrimExpr|The "    \
             "upper-bound of the range to be clipped to",                                        \
    TRX__SIG_E3, trx__make_clip, trx__infer_clip, 0)                                             \
  X(WHERE, "where", 3, NONE, "",                                                                \
    "condition|Tensor|When True, yield `x1`; otherwise, yield `x2`.\n" TRX__A_BIN, TRX__SIG_E3,  \
    trx__make_plain, trx__infer_where, 0)

typedef enum {
#define TRX__OP_ENUM(id, ...) TRX_OP_##id,
  TRX_OPS(TRX__OP_ENUM)
#undef TRX__OP_ENUM
  TRX_NUM_OPS
} trx_op_id;

typedef struct trx__op_def trx__op_def_t;
/* Builds the Call from the global's FFI arguments (count already checked); *out: new ref. */
typedef int (*trx__make_fn)(const trx__op_def_t* def, const TVMFFIAny* args, int32_t n,
                            TVMFFIObject** out);
/* Infers the Call's type: new reference, or NULL with the error raised. */
typedef TVMFFIObject* (*trx__infer_fn)(const trx__op_def_t* def, trx_call_t* call);

struct trx__op_def {
  trx_op_id id;
  const char* name;      /* "nn.conv2d" */
  const char* full_name; /* "relax.nn.conv2d" */
  const char* fname;     /* "relax.op.nn.conv2d(0: ir.Expr, ...) -> ir.Expr" for arg errors */
  int num_inputs;
  int num_params; /* number of FFI arguments of the constructor global */
  trx_attrs_kind attrs;
  const char* attrs_type_key;
  const char* arguments;
  trx__make_fn make;
  trx__infer_fn infer;
  int flags;
};

#define TRX__OP_DECL(id, name, nin, attrs, key, args, sig, make, infer, flags) \
  int make(const trx__op_def_t* def, const TVMFFIAny* a, int32_t n, TVMFFIObject** out); \
  TVMFFIObject* infer(const trx__op_def_t* def, trx_call_t* call);
TRX_OPS(TRX__OP_DECL)
#undef TRX__OP_DECL

/* The definition of an Op object's op (NULL if `op` is not an Op). */
const trx__op_def_t* trx__op_def_of(const TVMFFIObject* op);
/* The registered Op of `id` (borrowed; lives until unload). */
TVMFFIObject* trx__op_by_id(trx_op_id id);
/* New Call(op of def, args (n borrowed exprs), attrs (stolen; may be NULL)), ty unset. */
int trx__make_call_steal_attrs(const trx__op_def_t* def, TVMFFIObject* const* args, int64_t n,
                               TVMFFIObject* attrs, TVMFFIObject** out);
/* The same, stealing the n argument references too: every args[i] is NULL on return,
 * success or not (the hot constructors use it: no count is touched on the way). */
int trx__make_call_steal(const trx__op_def_t* def, TVMFFIObject** args, int64_t n,
                         TVMFFIObject* attrs, TVMFFIObject** out);
/* DecRefs the non-NULL objs[0..n) and sets them to NULL. */
void trx__release_objects(TVMFFIObject** objs, int64_t n);

/* ---- argument readers for constructor globals (TypeError texts as tvm-ffi's) ------------ */
/* An ir.Expr argument: an Expr object, or a str/int/float/bool converted to an Imm.
 * *out: new reference. */
int trx__arg_expr(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, TVMFFIObject** out);
/* Optional<ir.Expr>: None -> NULL. */
int trx__arg_opt_expr(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                      TVMFFIObject** out);
/* Array<int> (a list/array of ints; allow_none: Optional -> *out NULL for None).
 * *out: new reference to an Array of int Anys: the caller's own Array when it already
 * holds only ints, else a new one. */
int trx__arg_int_array(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIObject** out);
int trx__arg_i64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, int64_t* out);
int trx__arg_opt_i64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                     tether_opt_int64_t* out);
int trx__arg_f64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, double* out);
int trx__arg_flag(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, bool* out);
/* str (or Optional<str> when allow_none; None leaves *out None).  *out: owning string Any. */
int trx__arg_string(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, bool allow_none,
                    TVMFFIAny* out);
/* DataType or str (Optional: None -> *out None Any).  *out: None or a dtype Any. */
int trx__arg_opt_dtype(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIAny* out);

/* ---- int arrays ------------------------------------------------------------------------------ */
/* Size / item i of an int Array (0 for NULL, a non-Array or an index out of range); items
 * are ints or IntImms.  Inline: the constructors read attrs arrays item by item. */
static inline int64_t trx__iarr_size(TVMFFIObject* arr) {
  int64_t n = 0;
  if (arr != NULL && arr->type_index == kTVMFFIArray) trx__arr_items(arr, &n);
  return n;
}
static inline int64_t trx__iarr_at(TVMFFIObject* arr, int64_t i) {
  int64_t n = 0;
  const TVMFFIAny* v = arr != NULL && arr->type_index == kTVMFFIArray ? trx__arr_items(arr, &n) : NULL;
  if (i < 0 || i >= n) return 0;
  v += i;
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_INT_IMM)) return ((trx_int_imm_t*)v->v_obj)->value;
  return v->v_int64;
}
/* A new Array of the ints v[0..n) (new reference), NULL with an error raised. */
TVMFFIObject* trx__iarr_new(const int64_t* v, int64_t n);
#define TRX__IARR_INLINE 16

/* ---- error-text rendering ---------------------------------------------------------------------
 * A growable NUL-terminated buffer; appenders never fail visibly (on OOM the text is cut). */
typedef struct {
  char* data;
  size_t len, cap;
} trx__sb_t;
void trx__sb_printf(trx__sb_t* sb, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* TVMScript text of a node (trx_print; a minimal local rendering if the printer fails). */
void trx__sb_node(trx__sb_t* sb, TVMFFIObject* node);
/* A dtype as TVMScript prints it inside messages: "T.float32". */
void trx__sb_dtype(trx__sb_t* sb, DLDataType t);
/* An Op as TVM renders one in messages: ir.Op(span=None, ..., support_level=10). */
void trx__sb_op(trx__sb_t* sb, const trx__op_def_t* def);
/* An int array as "(1, 2)" / "(1,)". */
void trx__sb_iarr(trx__sb_t* sb, TVMFFIObject* arr);
/* An Array of Exprs rendered "(a, b)" (each element via trx__sb_node). */
void trx__sb_expr_tuple(trx__sb_t* sb, TVMFFIObject* arr);
void trx__sb_free(trx__sb_t* sb);
/* Raises `kind` with the buffer's text and frees it; returns -1. */
int trx__sb_raise(trx__sb_t* sb, const char* kind);

/* ---- dtypes -------------------------------------------------------------------------------------- */
extern DLDataType trx__dtype_bool;
bool trx__dtype_is_float(DLDataType t); /* float, bfloat and the small float formats */
bool trx__dtype_is_int(DLDataType t);   /* int or uint (bool excluded) */
bool trx__dtype_is_bool(DLDataType t);

/* ---- common checks and inference pieces (op.c) ------------------------------------------------ */
/* Checks the argument count and that each of the first `ntensors` args is a typed Tensor
 * ("Operator <op> requires argument i (<name>) to be a tensor. ..."); fills tt[i] with the
 * borrowed TensorTypes. */
int trx__check_args(const trx__op_def_t* def, trx_call_t* call, int ntensors,
                    trx_tensor_type_t** tt);
/* Arg i of the call (borrowed). */
TVMFFIObject* trx__call_arg(trx_call_t* call, int64_t i);
int64_t trx__call_nargs(trx_call_t* call);
/* The dims of a TensorType whose shape is a ShapeExpr (borrowed Array), or NULL. */
TVMFFIObject* trx__shape_values(const trx_tensor_type_t* tt);
/* The same dims as TVM's TensorType GetShape reads them: the values of the ShapeExpr's
 * ShapeType (equal to the ShapeExpr's own; the objects may differ, which a JSON graph shows).
 * Borrowed, or NULL. */
TVMFFIObject* trx__shape_type_values(const trx_tensor_type_t* tt);
/* Dim i of a values Array (borrowed). */
TVMFFIObject* trx__dim(TVMFFIObject* values, int64_t i);
/* Normalizes an axis against ndim (ValueError texts of TVM); *out in [0, ndim). */
int trx__normalize_axis(const trx__op_def_t* def, int64_t ndim, int64_t axis, int64_t* out);
/* Normalizes an Array<int> of axes, checking ranges and duplicates.  *out: malloc'd array
 * the caller frees (n = size of axes). */
int trx__normalize_axes(const trx__op_def_t* def, int64_t ndim, TVMFFIObject* axes,
                        int64_t** out);
/* InferBinaryArithOpOutDtype: *out = the result dtype, or TypeError. lhs/rhs are the arg
 * types (TensorType or PrimType). */
int trx__binary_dtype(trx_call_t* call, TVMFFIObject* lhs_ty, TVMFFIObject* rhs_ty,
                      DLDataType* out);
/* Right-aligned broadcast of two dim Arrays; *out new Array, or NULL (no error) when a
 * pair can be neither proved equal nor shown different; -1 with ValueError when two
 * constants differ. */
int trx__broadcast(const trx__op_def_t* def, TVMFFIObject* a, TVMFFIObject* b,
                   TVMFFIObject** out);

/* New TensorType from `n` stolen dims (each entry consumed even on failure). */
TVMFFIObject* trx__tensor_from_dims_steal(TVMFFIObject** dims, int64_t n, DLDataType dtype);
/* New TensorType: with a shape, ndim is derived from it (the `ndim` given is ignored). */
TVMFFIObject* trx__tensor_new(TVMFFIObject* shape, DLDataType dtype, int64_t ndim);
/* New TensorType(ndim, dtype) without a shape. */
TVMFFIObject* trx__tensor_unknown(DLDataType dtype, int64_t ndim);
/* New prim min/max (simplified). */
TVMFFIObject* trx__min(TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__max(TVMFFIObject* a, TVMFFIObject* b);

/* ---- layouts (CheckTensorLayout) ---------------------------------------------------------------
 * A parsed layout: its primal axes in order (upper-case letters) and, for each primal,
 * the factor of its sub-axis (0 if none).  Conversion to the target layout maps dims by
 * primal letter. */
typedef struct {
  char axes[16];   /* as written: 'N', 'C', 'c' (sub-axis), ... */
  int64_t factor[16];
  int ndim;
  char text[32];
} trx__layout_t;
/* Parses `layout` and checks it is convertible from `target` (ValueError of TVM naming
 * which = "data" | "kernel" | "output"). */
int trx__check_layout(const trx__op_def_t* def, const TVMFFIAny* layout, const char* target,
                      const char* which, trx__layout_t* out);
/* ValueError if ndim is known and differs from the layout's. */
int trx__check_layout_ndim(const trx__op_def_t* def, const trx__layout_t* l, int64_t ndim);
/* dims (in layout l) -> dims in `target` order; out[k] new references (n = strlen(target)). */
int trx__layout_to(const trx__layout_t* l, TVMFFIObject* values, const char* target,
                   TVMFFIObject** out);
/* dims in `src` order -> layout l's order (sub-axes split by factor). out: l->ndim new refs. */
int trx__layout_from(const trx__layout_t* l, TVMFFIObject* const* dims, const char* src,
                     TVMFFIObject** out);

#endif /* TETHER_SRC_IR_OP_H_ */
