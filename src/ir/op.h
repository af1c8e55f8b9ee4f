/*
 * op.h -- internal to libtether_ir: the op registry's view of a registered op
 * (trx_op_def_t, from a trx_op_decl_t of include/tether/ir/op.h), the category files that
 * declare libtether_ir's own ops (src/ir/ops/<category>.c), and the helpers every op
 * shares (op.c: argument readers, error-text rendering, dims/shape utilities, layouts).
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

#include <tether/ir/op.h>

#include "internal.h"
#include "node.h"
#include "strbuf.h"

/* ---- categories ----------------------------------------------------------------------------
 * Each src/ir/ops/<category>.c defines trx__ops_<category>[] and its count; op.c registers
 * them at load in this order (the order of ir.ListOpNames). */
#define TRX_OP_CATEGORIES(X) \
  X(nn)                      \
  X(unary)                   \
  X(binary)                  \
  X(linalg)                  \
  X(manip)                   \
  X(index)                   \
  X(statistical)             \
  X(datatype)                \
  X(search)                  \
  X(create)                  \
  X(shape)                   \
  X(core)                    \
  X(set)                     \
  X(sort)                    \
  X(nn_spatial)              \
  X(image)                   \
  X(vision)                  \
  X(qdq)

#define TRX__CATEGORY_DECL(cat)                \
  extern const trx_op_decl_t trx__ops_##cat[]; \
  extern const size_t trx__ops_##cat##_count;
TRX_OP_CATEGORIES(TRX__CATEGORY_DECL)
#undef TRX__CATEGORY_DECL
/* In a category file: TRX__OPS(cat) { {...}, {...} }; TRX__OPS_END(cat); */
#define TRX__OPS(cat) const trx_op_decl_t trx__ops_##cat[] =
#define TRX__OPS_END(cat) \
  const size_t trx__ops_##cat##_count = sizeof(trx__ops_##cat) / sizeof(trx__ops_##cat[0])

/* ---- a registered op --------------------------------------------------------------------------- */
/* How a parameter is read (the kinds of include/tether/ir/op.h). */
typedef enum {
  TRX__P_EXPR,
  TRX__P_OPT_EXPR,
  TRX__P_TUPLE,
  TRX__P_OPT_TUPLE,
  TRX__P_SHAPE,
  TRX__P_PRIM,
  TRX__P_INT, /* first attribute kind */
  TRX__P_OPT_INT,
  TRX__P_FLOAT,
  TRX__P_BOOL,
  TRX__P_STR,
  TRX__P_OPT_STR,
  TRX__P_DTYPE,
  TRX__P_OPT_DTYPE,
  TRX__P_INTS,
  TRX__P_OPT_INTS,
  TRX__P_ANY,
} trx__param_kind;

typedef struct {
  const char* name; /* NUL-terminated copy (owned by the def) */
  trx__param_kind kind;
  int widen;                  /* ints[N]: N (the Python wrapper widens an int); else 0 */
  bool has_default;
  TVMFFIAny default_value;    /* owned; the declared default (the Python wrapper applies it) */
  const trx_attrs_field_t* field; /* attribute kinds: the attrs field of the same name */
} trx__param_t;

struct trx_op_def {
  const trx_op_decl_t* decl;
  const char* name;      /* "nn.conv2d" (the decl's) */
  char* full_name;       /* "relax.nn.conv2d" */
  char* fname;           /* "relax.op.nn.conv2d(0: ir.Expr, ...) -> ir.Expr" for arg errors */
  char* arguments;       /* ArgumentInfo rows "name|type|description\n..." */
  int num_inputs;        /* the Op's num_inputs: its ArgumentInfo rows */
  int num_params;        /* parameters of the constructor global */
  trx__param_t* params;
  int32_t attrs_index;   /* runtime type index of the attrs type, -1 if none */
  const char* attrs_type_key; /* shown by the Op: "" when none or hidden */
  trx_op_infer_fn infer;
  trx_op_check_fn check;
  trx_op_make_fn make;
  uint32_t flags;
  int32_t id;            /* registration order */
  TVMFFIObject* op;      /* the Op (owned until unload) */
};

/* The op's attrs: a new zeroed attrs object (string fields empty, Any fields None). */
TVMFFIObject* trx__attrs_new(const trx_op_def_t* def);

/* New Call(op of def, args (n borrowed exprs), attrs (stolen; may be NULL)), ty unset. */
int trx__make_call_steal_attrs(const trx_op_def_t* def, TVMFFIObject* const* args, int64_t n,
                               TVMFFIObject* attrs, TVMFFIObject** out);
/* The same, stealing the n argument references too: every args[i] is NULL on return,
 * success or not (the hot constructors use it: no count is touched on the way). */
int trx__make_call_steal(const trx_op_def_t* def, TVMFFIObject** args, int64_t n,
                         TVMFFIObject* attrs, TVMFFIObject** out);
/* DecRefs the non-NULL objs[0..n) and sets them to NULL. */
void trx__release_objects(TVMFFIObject** objs, int64_t n);

/* Per-op switches of libtether_ir's own ops (flags from TRX_OP_USER_SHIFT on). */
#define TRX__F_FLOAT (1u << TRX_OP_USER_SHIFT)        /* unary: requires a float input */
#define TRX__F_COMPARE (1u << (TRX_OP_USER_SHIFT + 1)) /* binary: result dtype bool */

/* ---- argument readers for constructor globals (TypeError texts as tvm-ffi's) ------------ */
/* An ir.Expr argument: an Expr object, or a str/int/float/bool converted to an Imm.
 * *out: new reference. */
int trx__arg_expr(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, TVMFFIObject** out);
/* Optional<ir.Expr>: None -> NULL. */
int trx__arg_opt_expr(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                      TVMFFIObject** out);
/* Array<int> (a list/array of ints; allow_none: Optional -> *out NULL for None).
 * *out: new reference to an Array of int Anys: the caller's own Array when it already
 * holds only ints, else a new one. */
int trx__arg_int_array(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIObject** out);
int trx__arg_i64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, int64_t* out);
int trx__arg_opt_i64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                     tether_opt_int64_t* out);
int trx__arg_f64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, double* out);
int trx__arg_flag(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, bool* out);
/* str (or Optional<str> when allow_none; None leaves *out None).  *out: owning string Any. */
int trx__arg_string(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, bool allow_none,
                    TVMFFIAny* out);
/* DataType or str (Optional: None -> *out None Any).  *out: None or a dtype Any. */
int trx__arg_opt_dtype(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
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
 * Error texts are built in the IR's one text buffer (strbuf.h); the renderers below append
 * nodes, dtypes and Ops the way TVM's messages show them. */
typedef trx__buf_t trx__sb_t;
#define trx__sb_printf trx__buf_printf
#define trx__sb_free trx__buf_free
/* TVMScript text of a node (trx_print; a minimal local rendering if the printer fails). */
void trx__sb_node(trx__sb_t* sb, TVMFFIObject* node);
/* A dtype as TVMScript prints it inside messages: "T.float32". */
void trx__sb_dtype(trx__sb_t* sb, DLDataType t);
/* An Op as TVM renders one in messages: ir.Op(span=None, ..., support_level=10). */
void trx__sb_op(trx__sb_t* sb, const trx_op_def_t* def);
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
int trx__check_args(const trx_op_def_t* def, trx_call_t* call, int ntensors,
                    trx_tensor_type_t** tt);
/* The name of the op's argument i ("data", "weight", ...) in buf; returns buf. */
const char* trx__arg_name(const trx_op_def_t* def, int i, char* buf, size_t n);
/* Arg i of the call (borrowed). */
TVMFFIObject* trx__call_arg(trx_call_t* call, int64_t i);
int64_t trx__call_nargs(trx_call_t* call);
/* The dims of a TensorType whose shape is a ShapeExpr (borrowed Array), or NULL. */
TVMFFIObject* trx__shape_values(const trx_tensor_type_t* tt);
/* The same dims as TVM's TensorType GetShape reads them: the values of the ShapeExpr's
 * ShapeType (equal to the ShapeExpr's own; the objects may differ, which a JSON graph shows),
 * or of a shape Var's ShapeType when it has values.  Borrowed, or NULL. */
TVMFFIObject* trx__shape_type_values(const trx_tensor_type_t* tt);
/* Dim i of a values Array (borrowed). */
TVMFFIObject* trx__dim(TVMFFIObject* values, int64_t i);
/* Normalizes an axis against ndim (ValueError texts of TVM); *out in [0, ndim). */
int trx__normalize_axis(const trx_op_def_t* def, int64_t ndim, int64_t axis, int64_t* out);
/* Normalizes an Array<int> of axes, checking ranges and duplicates.  *out: malloc'd array
 * the caller frees (n = size of axes). */
int trx__normalize_axes(const trx_op_def_t* def, int64_t ndim, TVMFFIObject* axes,
                        int64_t** out);
/* InferBinaryArithOpOutDtype: *out = the result dtype, or TypeError. lhs/rhs are the arg
 * types (TensorType or PrimType). */
int trx__binary_dtype(trx_call_t* call, TVMFFIObject* lhs_ty, TVMFFIObject* rhs_ty,
                      DLDataType* out);
/* Right-aligned broadcast of two dim Arrays; *out new Array, or NULL (no error) when a
 * pair can be neither proved equal nor shown different; -1 with ValueError when two
 * constants differ. */
int trx__broadcast(const trx_op_def_t* def, TVMFFIObject* a, TVMFFIObject* b,
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
int trx__check_layout(const trx_op_def_t* def, const TVMFFIAny* layout, const char* target,
                      const char* which, trx__layout_t* out);
/* ValueError if ndim is known and differs from the layout's. */
int trx__check_layout_ndim(const trx_op_def_t* def, const trx__layout_t* l, int64_t ndim);
/* dims (in layout l) -> dims in `target` order; out[k] new references (n = strlen(target)). */
int trx__layout_to(const trx__layout_t* l, TVMFFIObject* values, const char* target,
                   TVMFFIObject** out);
/* dims in `src` order -> layout l's order (sub-axes split by factor). out: l->ndim new refs. */
int trx__layout_from(const trx__layout_t* l, TVMFFIObject* const* dims, const char* src,
                     TVMFFIObject** out);

/* ---- shape arithmetic in a scope -----------------------------------------------------------------
 * An inference rule's temporaries belong to a scope, so a formula reads like TVM's:
 *
 *   trx__scope_t s = TRX__SCOPE_INIT;
 *   TVMFFIObject* num = trx__s_sub(&s, trx__s_add(&s, x, trx__s_int(&s, pads)), k);
 *   TVMFFIObject* out = trx__scope_keep(&s, trx__s_floordiv(&s, num, trx__s_int(&s, stride)));
 *   trx__scope_end(&s);
 *
 * Every trx__s_* result is borrowed from the scope (it lives until trx__scope_end); a NULL
 * operand (a failed step, its error raised) makes the result NULL, so a formula is checked
 * once, at the end.  trx__scope_keep hands out a new reference that outlives the scope. */
typedef struct {
  TVMFFIObject* inline_objs[16];
  TVMFFIObject** objs; /* inline_objs, or a malloc'd array once it is full */
  int32_t n, cap;
} trx__scope_t;
#define TRX__SCOPE_INIT {{NULL}, NULL, 0, 0}
/* Adopts a new reference (or NULL, passed through); the scope releases it at the end. */
TVMFFIObject* trx__s_own(trx__scope_t* s, TVMFFIObject* obj);
TVMFFIObject* trx__s_int(trx__scope_t* s, int64_t v);
TVMFFIObject* trx__s_add(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_sub(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_mul(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_floordiv(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_floormod(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_min(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
TVMFFIObject* trx__s_max(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b);
/* A new reference to `obj` (NULL passes through). */
TVMFFIObject* trx__scope_keep(trx__scope_t* s, TVMFFIObject* obj);
/* Releases everything the scope owns. */
void trx__scope_end(trx__scope_t* s);

/* ---- pieces the op files share (op.c) ------------------------------------------------------------ */
/* A zeroed array of n dim slots (n may be 0), or NULL with MemoryError; trx__dims_free
 * releases the non-NULL slots and the array. */
TVMFFIObject** trx__dims_new(int64_t n);
void trx__dims_free(TVMFFIObject** d, int64_t n);
/* TensorType from n stolen dims; frees the slot array too. */
TVMFFIObject* trx__tensor_steal_free(TVMFFIObject** d, int64_t n, DLDataType dtype);
/* TensorType copying `tt` with another dtype. */
TVMFFIObject* trx__with_dtype(const trx_tensor_type_t* tt, DLDataType dtype);
/* `ty` (a new TensorType, or NULL passed through) placed on `like`'s vdevice; returns ty. */
TVMFFIObject* trx__on_vdevice(TVMFFIObject* ty, const trx_tensor_type_t* like);
/* TupleType of n borrowed field types. */
TVMFFIObject* trx__tuple_type_of(TVMFFIObject** fields, int64_t n);
/* `e` is the constant v. */
bool trx__const_eq(TVMFFIObject* e, int64_t v);
/* The product of a dims Array (new reference). */
TVMFFIObject* trx__product(TVMFFIObject* values);
/* TypeError "<who or op> requires the input tensor to have float dtype. ..." unless t is a
 * float (or unknown). */
int trx__require_float(const trx_op_def_t* def, const char* who, DLDataType t);
/* The elementwise unary rule: the input's shape and dtype (float required with
 * TRX__F_FLOAT). */
TVMFFIObject* trx__infer_unary(const trx_op_def_t* def, trx_call_t* call);

/* ---- pieces of the manipulation / index / search / set / sort / linalg ops (op.c) -------------- */
/* The C++ `int` TVM reads an int64 attribute into (axes): 2**32 + 1 is 1. */
static inline int64_t trx__as_int(int64_t v) { return (int64_t)(int32_t)(uint32_t)(uint64_t)v; }
/* A check (trx_op_check_fn) for ops whose TVM constructor takes C++ `int` parameters: every
 * INT64 attrs field is cut to 32 bits as that conversion does (axis=2**32 + 1 is stored as 1). */
int trx__check_int_attrs(const trx_op_def_t* def, TVMFFIObject** inputs, int64_t n,
                         TVMFFIObject* attrs);
/* IndexError "Index <i> out of bounds <n>" (an out-of-range ffi::Array access in TVM).
 * Returns -1. */
int trx__index_error(int64_t i, int64_t n);
/* A dtype as trx__sb_dtype, or None when unknown (void). */
void trx__sb_dtype_or_none(trx__sb_t* sb, DLDataType t);
/* The field types (borrowed Array, not empty) of arg 0's TupleType when every field is a
 * TensorType; otherwise NULL with TVM's TypeError "<op> expects the input to be a Tuple of
 * Tensors. ...", or ValueError "<who> op expects at least one tensor in the input Tuple. ..."
 * for an empty tuple (who: "Concat", "Stack", ...). */
TVMFFIObject* trx__tuple_tensor_fields(const trx_op_def_t* def, trx_call_t* call, const char* who);
/* Raises `kind` with "<before><a><between><b>", the dtypes as trx__sb_dtype_or_none writes
 * them (the two-dtype mismatch texts).  Returns -1. */
int trx__raise_dtype_pair(const char* kind, const char* before, DLDataType a, const char* between,
                          DLDataType b);
/* The product of a dims Array with constant folding only, as tir's operator* builds it (TVM's
 * flattened lengths print `n * 16 * m`, not simplified).  New reference. */
TVMFFIObject* trx__product_folded(TVMFFIObject* values);
/* The IntImm value of dim i of a values Array (false for a symbolic dim). */
bool trx__dim_const(TVMFFIObject* values, int64_t i, int64_t* out);

#endif /* TETHER_SRC_IR_OP_H_ */
