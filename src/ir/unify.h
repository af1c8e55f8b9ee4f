/*
 * unify.h -- type unification for the normalizer (unify.c): the least common type of two
 * types (the type of an If), and erasing symbolic vars that are not defined in a scope (the
 * type of an If, the return type of a function).  Not API: every name is trx__ and the header
 * refuses to compile outside libtether_ir.
 */
#ifndef TETHER_SRC_IR_UNIFY_H_
#define TETHER_SRC_IR_UNIFY_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/unify.h is private to libtether_ir"
#endif

#include "internal.h"

/* A set of symbolic (PrimType-typed) Vars; holds a reference to each.  Zero-initialize;
 * release with trx__var_set_clear. */
typedef struct trx__var_set {
  TVMFFIObject** v;
  size_t n, cap;
} trx__var_set_t;

void trx__var_set_clear(trx__var_set_t* s);
bool trx__var_set_has(const trx__var_set_t* s, const TVMFFIObject* v);
/* Adds `v` (a reference is taken).  0, or -1 with MemoryError raised. */
int trx__var_set_add(trx__var_set_t* s, TVMFFIObject* v);
/* Adds every var of `src` to `dst`.  0, or -1 with MemoryError raised. */
int trx__var_set_add_all(trx__var_set_t* dst, const trx__var_set_t* src);
/* Adds the vars that a value of type `ty` (may be NULL) defines: the bare symbolic dims of its
 * TensorType shape / ShapeType values, through tuples (`n` defines n, `n + 1` defines nothing).
 * 0, or -1 with MemoryError raised. */
int trx__var_set_add_defs(trx__var_set_t* s, TVMFFIObject* ty);

/* `ty` with every symbolic var outside `s` erased, as observed in apache-tvm 0.27: a
 * TensorType keeps its shape only if it is a ShapeExpr whose vars are all in `s` (else just
 * dtype and ndim), a ShapeType likewise keeps its values or only ndim, tuples go field by
 * field, other types are kept.  New reference (`ty` itself when nothing changes); NULL with an
 * error raised, or when ty is NULL. */
TVMFFIObject* trx__type_erase(const trx__var_set_t* s, TVMFFIObject* ty);

/* The type of a call to a function whose params have the types `params` (Array<Type>) and
 * whose return type is `ret`, given the normalized `args` (Array<Expr>), as apache-tvm 0.27
 * derives it: each param type is matched against its argument's type, in order, and a bare
 * symbolic dim of a param (`n`, not `n * 2`) binds the callee's var to the argument's dim the
 * first time it is met (TensorType shapes, ShapeType values, through tuples; a param of
 * FuncType binds nothing).  The bound dims are substituted into `ret` (a changed dim is
 * simplified) and a shape that still holds a var left unbound is erased as trx__type_erase
 * does.  Returns 0 with *out set (new reference; `ret` itself when nothing changes), or 0 with
 * *out NULL and *mismatch the index of the first argument whose type TVM rejects (another
 * kind, AnyType, a different dtype / ndim / arity / constant dim, an unknown dtype or ndim
 * where the param has one), or -1 with an error raised. */
int trx__type_call_ret(TVMFFIObject* params, TVMFFIObject* args, TVMFFIObject* ret, TVMFFIObject** out,
                       int64_t* mismatch);

/* true when no value of type `value_ty` can have type `ty` (TVM's TypeBaseCheck gives
 * kFailL0, match_cast's static check): another kind of type (AnyType on either side matches
 * anything), a different known dtype or ndim, a dim provably different, a tuple of another
 * arity or with such a field.  NULL types are unknown (false).  Borrows both. */
bool trx__type_cast_impossible(TVMFFIObject* value_ty, TVMFFIObject* ty);

/* trx_type_lca (the least common type of two types) is public: include/tether/ir/ir.h. */

#endif /* TETHER_SRC_IR_UNIFY_H_ */
