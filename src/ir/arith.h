/*
 * arith.h -- internal helpers of arith.c (symbolic int64 shape arithmetic) for the other
 * files of libtether_ir.  The public entry points (trx_simplify, trx_prove_equal, trx_add,
 * ...) are in <tether/ir/ir.h>.
 */
#ifndef TETHER_SRC_IR_ARITH_H_
#define TETHER_SRC_IR_ARITH_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/arith.h is private to libtether_ir"
#endif

#include "internal.h"

/* true if `e` is an Expr whose ty is PrimType(int64) (the shape-dim domain). */
bool trx__is_int64_expr(const TVMFFIObject* e);
/* true and *out set if `e` is literally an IntImm (no simplification). */
bool trx__int_imm_value(const TVMFFIObject* e, int64_t* out);
/* true and *out set if `e` is an IntImm of dtype int64 (no simplification). */
bool trx__const_i64(const TVMFFIObject* e, int64_t* out);

/* a <kind> b (an int64 binop kind) as tir's Python operators build it: constant folding only
 * (both int64 constants fold; x + 0, x - 0, x * 1, x // 1 are x; x * 0, 0 // x, 0 % x are
 * the 0; x % 1 is 0; min(x, x) is x), else the binop unsimplified.  Errors as the builders
 * (ValueError on int64 overflow, InternalError "Divide by zero"); mismatched dtypes raise
 * trx_binop_new's TypeError.  The comparisons and bitwise kinds (TRX_PRIM_EQ..TRX_PRIM_SHR)
 * fold two integer constants too (a comparison to a bool IntImm), x << 0 / x >> 0 is x, and a
 * constant shift amount outside [0, bits) raises TVM's InternalError.  Borrows a and b; new
 * reference, NULL with an error raised. */
TVMFFIObject* trx__op_fold(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b);
/* true when trx__op_fold(kind, a, b) would not give the binop of a and b as they are (two
 * integer constants, or one of its identity cases; a divisor 0 raises there).  The printer
 * writes such a binop as T.<Name>(a, b), as TVM's does, so that it reads back unfolded. */
bool trx__op_folds(trx_kind kind, const TVMFFIObject* a, const TVMFFIObject* b);
/* a * b with constant folding only (both constant, or a factor 1 or 0), as tir's operator*
 * does -- no canonical form: TVM's flatten builds its product this way and prints
 * `n * 16 * m` where the simplifier would give `n * m * 16`.  Borrows a and b; new
 * reference, NULL with an error raised. */
TVMFFIObject* trx__mul_fold(TVMFFIObject* a, TVMFFIObject* b);
/* a + b with constant folding only (both constant, or a term 0), as tir's operator+ -- TVM's
 * concat sums its axis lengths this way (`8 + m`).  Borrows; new reference or NULL. */
TVMFFIObject* trx__add_fold(TVMFFIObject* a, TVMFFIObject* b);

/* The symbolic vars known to be non-negative while the calling thread simplifies (NULL: none).
 * A BlockBuilder sets its own set around type inference -- the bare dims of its functions'
 * params and of its match_casts, as relax's analyzer marks them (min(0, n) then folds to 0).
 * Returns the previous set, to restore. */
struct trx__var_set;
const struct trx__var_set* trx__set_nonneg_vars(const struct trx__var_set* vars);

#endif /* TETHER_SRC_IR_ARITH_H_ */
