/*
 * builder.h -- internal declarations of builder.c (the normalizer and the BlockBuilder) for
 * libtether_ir's other files.  Not API: every name is trx__ and the header refuses to
 * compile outside libtether_ir.  The public entry points are in <tether/ir/ir.h>.
 */
#ifndef TETHER_SRC_IR_BUILDER_H_
#define TETHER_SRC_IR_BUILDER_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/builder.h is private to libtether_ir"
#endif

#include "internal.h"

/* Runtime type index of "relax.BlockBuilder" (valid after trx__builder_init). */
extern int32_t trx__block_builder_type_index;

/* true if `e` may appear as a Call argument without being bound to a var: Vars, constants,
 * prim exprs, Ops, GlobalVars, ShapeExprs, ExternFuncs, and Tuples (whose fields are
 * normalized in turn).  NULL -> false. */
bool trx__is_leaf_or_tuple(const TVMFFIObject* e);

#endif /* TETHER_SRC_IR_BUILDER_H_ */
