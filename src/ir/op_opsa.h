/*
 * op_opsa.h -- internal to libtether_ir: the inference rules of the unary predicates
 * (isnan/isinf/isfinite), the creation ops (zeros, ones, full, *_like, eye, eye_like,
 * arange, tril, triu), the shape ops (shape_of, shape_to_tensor, tensor_to_shape, size)
 * and call_tir / call_dps_packed, with InitAttrs, the attrs type of the creation ops.
 *
 * Ownership: every TVMFFIObject* returned is a NEW reference or NULL with an error raised.
 */
#ifndef TETHER_SRC_IR_OP_OPSA_H_
#define TETHER_SRC_IR_OP_OPSA_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/op_opsa.h is private to libtether_ir"
#endif

#include "op.h"

/* relax.attrs.InitAttrs: the dtype of the created tensor (None: the input's). */
typedef struct {
  trx_attrs_t base;
  TVMFFIAny dtype;
} trx_init_attrs_t;
#define TRX__INIT_FIELDS(F, T) F(T, dtype, ANY, "Optional<DataType>")

#define TRX__OPSA_INFER(X)         \
  X(trx__infer_unary_predicate)    \
  X(trx__infer_zeros)              \
  X(trx__infer_full)               \
  X(trx__infer_like)               \
  X(trx__infer_full_like)          \
  X(trx__infer_eye)                \
  X(trx__infer_eye_like)           \
  X(trx__infer_arange)             \
  X(trx__infer_tri)                \
  X(trx__infer_shape_of)           \
  X(trx__infer_shape_to_tensor)    \
  X(trx__infer_tensor_to_shape)    \
  X(trx__infer_size)               \
  X(trx__infer_call_tir)           \
  X(trx__infer_call_dps_packed)

#define TRX__OPSA_DECL(fn) TVMFFIObject* fn(const trx__op_def_t* def, trx_call_t* call);
TRX__OPSA_INFER(TRX__OPSA_DECL)
#undef TRX__OPSA_DECL

#endif /* TETHER_SRC_IR_OP_OPSA_H_ */
