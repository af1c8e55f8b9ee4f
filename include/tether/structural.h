/*
 * structural.h -- tvm-ffi's "extra" layer in C: structural visitors and mutators, access
 * paths, structural equality and hashing, recursive comparison and deep copy.
 *
 * The visitor and mutator structs below are the ABI that type hooks registered under the
 * `__s_visit__`, `__s_mutate__` and `__s_maybe_inplace_mutate__` type attributes receive
 * (as tvm-ffi's StructuralVisitorObj / StructuralMutatorObj, byte for byte).  A hook is a
 * plain function stored as an opaque pointer in the column; it returns a TVMFFIAny that
 * owns its content:
 *   visit hooks:  None (go on), a VisitInterrupt object (stop the traversal), or an Error;
 *   mutate hooks: an Unchanged marker (kTVMFFIUnchanged), a replacement value, or an Error.
 * libtether registers the hooks of Array, List, Map and Dict (and String/Bytes for mutate).
 *
 * Functions returning int give 0, or -1 with an error raised (fetch it with
 * TVMFFIErrorMoveFromRaised).  Values passed in are borrowed views.  Every traversal here
 * keeps its own work stack, so data of any depth is handled without deep C recursion
 * (the visitor/mutator protocol itself recurses through the hooks, as in tvm-ffi).
 */
#ifndef TETHER_STRUCTURAL_H_
#define TETHER_STRUCTURAL_H_

#include <stdbool.h>
#include <stdint.h>

#include "c_api.h"
#include "tether.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- visitor protocol ------------------------------------------------------------------- */
typedef struct tether_visitor tether_visitor;
typedef TVMFFIAny (*tether_visit_fn)(tether_visitor* visitor, TVMFFIAny value);
typedef struct {
  tether_visit_fn visit;
} tether_visitor_vtable;
/* An object of type "ffi.StructuralVisitor" (or a subtype); hooks call vtable->visit on
 * every child they descend into. */
struct tether_visitor {
  TVMFFIObject header;
  const tether_visitor_vtable* vtable;
  int32_t def_region_kind; /* TVMFFIDefRegionKind */
};

/* The visitor's default descent into `value`: its type's `__s_visit__` hook, else its
 * reflected fields (SEqHashIgnore skipped, def regions entered as the field flags say).
 * Result as for visit hooks (owning). */
TETHER_API TVMFFIAny tether_visitor_default_visit(tether_visitor* visitor, TVMFFIAny value);

/* ---- mutator protocol ------------------------------------------------------------------- */
typedef struct tether_mutator tether_mutator;
typedef TVMFFIAny (*tether_mutate_fn)(tether_mutator* mutator, TVMFFIAny value);
typedef TVMFFIAny (*tether_var_remap_get_fn)(tether_mutator* mutator, TVMFFIAny var);
typedef TVMFFIAny (*tether_var_remap_set_fn)(tether_mutator* mutator, TVMFFIAny var,
                                             TVMFFIAny mapped);
typedef struct {
  tether_mutate_fn mutate;               /* copy-on-write mutation of a value */
  tether_mutate_fn maybe_inplace_mutate; /* the value is uniquely owned: may change in place */
  tether_var_remap_get_fn var_remap_get;
  tether_var_remap_set_fn var_remap_set;
} tether_mutator_vtable;
/* An object of type "ffi.StructuralMutator". */
struct tether_mutator {
  TVMFFIObject header;
  const tether_mutator_vtable* vtable;
  int32_t def_region_kind;
};

/* Mutates `value` through the mutator: in place (vtable->maybe_inplace_mutate) when
 * `allow_inplace` and the value is an object nobody else holds, else copy-on-write.  The
 * result follows the mutate-hook convention above (owning). */
TETHER_API TVMFFIAny tether_mutator_mutate(tether_mutator* mutator, TVMFFIAny value,
                                           bool allow_inplace);

/* The mutator's default mutation of `value` (tvm-ffi's DefaultMutate): its type's
 * `__s_maybe_inplace_mutate__` (when `allow_inplace`) or `__s_mutate__` hook; else a POD as
 * itself; else an object through its variable remap (FreeVar and DAG nodes) and its
 * reflected fields on a `__ffi_shallow_copy__`.  Result as for mutate hooks (owning). */
TETHER_API TVMFFIAny tether_mutator_default_mutate(tether_mutator* mutator, TVMFFIAny value,
                                                   bool allow_inplace);

/* ---- access paths (ffi.reflection.AccessPath / AccessStep) ------------------------------ */
/* Step kinds, as tvm-ffi's reflection::AccessKind. */
#define TETHER_ACCESS_KINDS(X) \
  X(ATTR, 0)                   \
  X(ARRAY_ITEM, 1)             \
  X(MAP_ITEM, 2)               \
  X(ATTR_MISSING, 3)           \
  X(ARRAY_ITEM_MISSING, 4)     \
  X(MAP_ITEM_MISSING, 5)
typedef enum {
#define TETHER__ACCESS_ENUM(name, value) TETHER_ACCESS_##name = value,
  TETHER_ACCESS_KINDS(TETHER__ACCESS_ENUM)
#undef TETHER__ACCESS_ENUM
} tether_access_kind;

/* New root path (depth 0).  *out: new reference. */
TETHER_API int tether_access_path_root(TVMFFIObjectHandle* out);
/* New path `path` + one step of `kind` with `key` (a field name for ATTR/ATTR_MISSING, an
 * int index for ARRAY_ITEM*, any key for MAP_ITEM*).  *out: new reference.  TypeError if
 * `path` is not an AccessPath or the key does not fit the kind. */
TETHER_API int tether_access_path_extend(TVMFFIObjectHandle path, tether_access_kind kind,
                                         const TVMFFIAny* key, TVMFFIObjectHandle* out);

/* ---- structural equality and hashing ----------------------------------------------------- */
/* Structural equality of tvm-ffi (StructuralEqual::Equal): objects compare field by field
 * as their structural_eq_hash_kind says; free variables are mapped to each other where
 * they are defined (everywhere when `map_free_vars`); tensors compare by content unless
 * `skip_tensor_content`. */
TETHER_API int tether_structural_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                       bool map_free_vars, bool skip_tensor_content, bool* out);
/* The first mismatch of the above: *out (owning) is None when equal, else an Array of two
 * AccessPaths (into lhs, into rhs). */
TETHER_API int tether_structural_first_mismatch(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                                bool map_free_vars, bool skip_tensor_content,
                                                TVMFFIAny* out);
/* Structural hash consistent with tether_structural_equal. */
TETHER_API int tether_structural_hash(const TVMFFIAny* value, bool map_free_vars,
                                      bool skip_tensor_content, uint64_t* out);

/* ---- recursive comparison and copy (tvm-ffi's dataclass semantics) ---------------------- */
/* Recursive field-wise equality / hash / three-way comparison (-1, 0, 1).  TypeError for
 * values that cannot be ordered. */
TETHER_API int tether_recursive_eq(const TVMFFIAny* lhs, const TVMFFIAny* rhs, bool* out);
TETHER_API int tether_recursive_hash(const TVMFFIAny* value, int64_t* out);
TETHER_API int tether_recursive_compare(const TVMFFIAny* lhs, const TVMFFIAny* rhs, int* out);
/* Deep copy: containers and reflected objects are copied, sharing and cycles preserved;
 * strings, functions, tensors and other leaves are shared.  *out: owning. */
TETHER_API int tether_deep_copy(const TVMFFIAny* value, TVMFFIAny* out);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_STRUCTURAL_H_ */
