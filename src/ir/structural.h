/*
 * structural.h -- internal declarations of structural.c (structural equality and hash of
 * IR nodes).  The public entry points are trx_structural_equal, trx_structural_hash and
 * trx_structural_first_mismatch in <tether/ir/ir.h>.
 */
#ifndef TETHER_SRC_IR_STRUCTURAL_H_
#define TETHER_SRC_IR_STRUCTURAL_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/structural.h is private to libtether_ir"
#endif

#include "internal.h"

/*
 * Compares a and b; on a mismatch, *lhs_path / *rhs_path (either may be NULL) receive
 * malloc'd paths of the first mismatch ("<root>.body.blocks[0]...") that the caller frees;
 * they stay NULL when a and b are equal.  Returns 1 if equal, 0 if not, -1 (MemoryError
 * raised) if memory ran out.
 */
int trx__structural_compare(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars,
                            char** lhs_path, char** rhs_path);

#endif /* TETHER_SRC_IR_STRUCTURAL_H_ */
