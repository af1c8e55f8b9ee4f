/*
 * ir.h -- tether's Relax IR in C (libtether_ir): node and type layouts, the node-kind
 * table, constructors, and the entry points of the IR's subsystems (symbolic arithmetic,
 * op registry and type inference, normalizer/BlockBuilder, TVMScript printer, structural
 * equality).  Prefix: trx_ (tether relax).
 *
 * Every node is an FFI object of a reflected type (include/tether/reflection.h) whose
 * type key is TVM's (ir.Var, ir.Call, relax.TensorType, ...), so bindings read
 * `call.op`, `call.args`, `var.ty` generically through reflection, and C reads the
 * structs below directly.  Object-valued fields hold owned references (NULL = None);
 * string fields are owning TVMFFIAny strings; Array/Map fields hold ffi.Array/ffi.Map.
 *
 * Ownership: functions returning TVMFFIObject* return a NEW reference, or NULL with an
 * error raised (TVMFFIErrorMoveFromRaised).  Arguments are borrowed unless the name
 * ends in _steal.
 */
#ifndef TETHER_IR_IR_H_
#define TETHER_IR_IR_H_

#include <stdbool.h>
#include <stdint.h>

#include "../c_api.h"
#include "../reflection.h"
#include "../tether.h"

#define TRX_API __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* ---- node kinds: one table -> enum, type keys, parents, registration ------------------
 * X(KIND, "type key", PARENT_KIND or NONE, struct type) */
#define TRX_NODE_KINDS(X)                                                      \
  X(EXPR, "ir.Expr", NONE, trx_expr_t)                                         \
  X(TYPE, "ir.Type", NONE, trx_type_t)                                         \
  X(ATTRS, "ir.Attrs", NONE, trx_attrs_t)                                      \
  /* expressions */                                                            \
  X(VAR, "ir.Var", EXPR, trx_var_t)                                            \
  X(DATAFLOW_VAR, "relax.expr.DataflowVar", VAR, trx_var_t)                    \
  X(CONSTANT, "ir.Constant", EXPR, trx_expr_t)                                 \
  X(INT_IMM, "ir.IntImm", CONSTANT, trx_int_imm_t)                             \
  X(FLOAT_IMM, "ir.FloatImm", CONSTANT, trx_float_imm_t)                       \
  X(STRING_IMM, "ir.StringImm", CONSTANT, trx_string_imm_t)                    \
  X(DATATYPE_IMM, "ir.DataTypeImm", CONSTANT, trx_datatype_imm_t)              \
  X(TENSOR_CONST, "ir.GenericConst", CONSTANT, trx_tensor_const_t)             \
  X(PRIM_ADD, "prim.Add", EXPR, trx_binop_t)                                   \
  X(PRIM_SUB, "prim.Sub", EXPR, trx_binop_t)                                   \
  X(PRIM_MUL, "prim.Mul", EXPR, trx_binop_t)                                   \
  X(PRIM_FLOORDIV, "prim.FloorDiv", EXPR, trx_binop_t)                         \
  X(PRIM_FLOORMOD, "prim.FloorMod", EXPR, trx_binop_t)                         \
  X(PRIM_MIN, "prim.Min", EXPR, trx_binop_t)                                   \
  X(PRIM_MAX, "prim.Max", EXPR, trx_binop_t)                                   \
  X(OP, "ir.Op", EXPR, trx_op_t)                                               \
  X(CALL, "ir.Call", EXPR, trx_call_t)                                         \
  X(TUPLE, "ir.Tuple", EXPR, trx_tuple_t)                                      \
  X(TUPLE_GET_ITEM, "ir.TupleGetItem", EXPR, trx_tuple_get_item_t)             \
  X(SHAPE_EXPR, "relax.expr.ShapeExpr", EXPR, trx_shape_expr_t)                \
  X(GLOBAL_VAR, "ir.GlobalVar", EXPR, trx_global_var_t)                        \
  X(BASE_FUNC, "ir.BaseFunc", EXPR, trx_base_func_t)                           \
  X(FUNCTION, "relax.expr.Function", BASE_FUNC, trx_function_t)                \
  X(EXTERN_FUNC, "relax.expr.ExternFunc", BASE_FUNC, trx_extern_func_t)        \
  X(SEQ_EXPR, "relax.expr.SeqExpr", EXPR, trx_seq_expr_t)                      \
  X(IF, "relax.expr.If", EXPR, trx_if_t)                                       \
  /* bindings and blocks (not expressions) */                                  \
  X(BINDING, "relax.expr.Binding", NONE, trx_binding_t)                        \
  X(VAR_BINDING, "relax.expr.VarBinding", BINDING, trx_var_binding_t)          \
  X(MATCH_CAST, "relax.expr.MatchCast", BINDING, trx_match_cast_t)             \
  X(BINDING_BLOCK, "relax.expr.BindingBlock", NONE, trx_binding_block_t)       \
  X(DATAFLOW_BLOCK, "relax.expr.DataflowBlock", BINDING_BLOCK, trx_binding_block_t) \
  X(IR_MODULE, "ir.IRModule", NONE, trx_ir_module_t)                           \
  X(DICT_ATTRS, "ir.DictAttrs", ATTRS, trx_dict_attrs_t)                       \
  /* types */                                                                  \
  X(TENSOR_TYPE, "relax.TensorType", TYPE, trx_tensor_type_t)                  \
  X(SHAPE_TYPE, "relax.ShapeType", TYPE, trx_shape_type_t)                     \
  X(TUPLE_TYPE, "ir.TupleType", TYPE, trx_tuple_type_t)                        \
  X(ANY_TYPE, "relax.AnyType", TYPE, trx_type_t)                               \
  X(PRIM_TYPE, "ir.PrimType", TYPE, trx_prim_type_t)                           \
  X(FUNC_TYPE, "relax.FuncType", TYPE, trx_func_type_t)                        \
  X(PACKED_FUNC_TYPE, "relax.PackedFuncType", TYPE, trx_type_t)

typedef enum {
#define TRX__KIND_ENUM(kind, key, parent, ctype) TRX_##kind,
  TRX_NODE_KINDS(TRX__KIND_ENUM)
#undef TRX__KIND_ENUM
  TRX_NUM_KINDS
} trx_kind;

/* Runtime type index of each kind (filled when libtether_ir loads). */
TRX_API extern int32_t trx_type_index[TRX_NUM_KINDS];
/* true if `obj` (may be NULL -> false) is an instance of `kind` or derives from it. */
TRX_API bool trx_is(const TVMFFIObject* obj, trx_kind kind);

/* ---- layouts ------------------------------------------------------------------------- */
typedef struct {
  TVMFFIObject header;
  TVMFFIObject* span; /* always NULL for now */
  TVMFFIObject* ty;   /* Type, or NULL while unknown ("Missing") */
} trx_expr_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* span;
} trx_type_t;

typedef struct {
  TVMFFIObject header;
} trx_attrs_t;

typedef struct {
  trx_expr_t base;
  TVMFFIAny name; /* string */
} trx_var_t;

typedef struct {
  trx_expr_t base; /* ty = PrimType(dtype) */
  int64_t value;
} trx_int_imm_t;

typedef struct {
  trx_expr_t base;
  double value;
} trx_float_imm_t;

typedef struct {
  trx_expr_t base;
  TVMFFIAny value; /* string */
} trx_string_imm_t;

typedef struct {
  trx_expr_t base;
  DLDataType value;
} trx_datatype_imm_t;

typedef struct {
  trx_expr_t base;
  TVMFFIAny value; /* the ffi.Tensor */
} trx_tensor_const_t;

typedef struct {
  trx_expr_t base; /* ty = PrimType(int64) for shape arithmetic */
  TVMFFIObject* a;
  TVMFFIObject* b;
} trx_binop_t;

typedef struct {
  trx_expr_t base;
  TVMFFIAny name;           /* "relax.nn.conv2d" */
  TVMFFIAny attrs_type_key; /* "" when the op takes no attrs */
  int64_t num_inputs;
  int64_t op_id; /* index into the op table (ops.c); not reflected */
} trx_op_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* op;      /* Op, GlobalVar, Var or other callee Expr */
  TVMFFIObject* args;    /* Array<Expr> */
  TVMFFIObject* attrs;   /* Attrs or NULL */
  TVMFFIObject* ty_args; /* Array<Type> */
} trx_call_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* fields; /* Array<Expr> */
} trx_tuple_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* tuple_value;
  int64_t index;
} trx_tuple_get_item_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* values; /* Array<Expr> of int64 prim exprs */
} trx_shape_expr_t;

typedef struct {
  trx_expr_t base;
  TVMFFIAny name_hint;
} trx_global_var_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* attrs; /* DictAttrs or NULL */
} trx_base_func_t;

typedef struct {
  trx_base_func_t base;
  TVMFFIObject* params; /* Array<Var> */
  TVMFFIObject* body;   /* SeqExpr (or Expr before normalization) */
  TVMFFIObject* ret_ty; /* Type */
  bool is_pure;
} trx_function_t;

typedef struct {
  trx_base_func_t base;
  TVMFFIAny global_symbol;
} trx_extern_func_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* blocks; /* Array<BindingBlock> */
  TVMFFIObject* body;
} trx_seq_expr_t;

typedef struct {
  trx_expr_t base;
  TVMFFIObject* cond;
  TVMFFIObject* true_branch;
  TVMFFIObject* false_branch;
} trx_if_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* span;
  TVMFFIObject* var;
} trx_binding_t;

typedef struct {
  trx_binding_t base;
  TVMFFIObject* value;
} trx_var_binding_t;

typedef struct {
  trx_binding_t base;
  TVMFFIObject* value;
  TVMFFIObject* ty;
} trx_match_cast_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* bindings; /* Array<Binding> */
  TVMFFIObject* span;
} trx_binding_block_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* functions;       /* Map<GlobalVar, BaseFunc> */
  TVMFFIObject* global_var_map_; /* Map<str, GlobalVar> */
  TVMFFIObject* attrs;           /* DictAttrs or NULL */
} trx_ir_module_t;

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* dict; /* Map<str, Any>; reflected as "__dict__" */
} trx_dict_attrs_t;

typedef struct {
  trx_type_t base;
  TVMFFIObject* shape;   /* ShapeExpr, Var of ShapeType, or NULL */
  DLDataType dtype;      /* {kDLOpaqueHandle, 0, 0} (void) = unknown */
  TVMFFIObject* vdevice; /* NULL */
  int64_t ndim;          /* -1 = unknown */
} trx_tensor_type_t;

typedef struct {
  trx_type_t base;
  TVMFFIObject* values; /* Array<Expr> or NULL */
  int64_t ndim;
} trx_shape_type_t;

typedef struct {
  trx_type_t base;
  TVMFFIObject* fields; /* Array<Type> */
} trx_tuple_type_t;

typedef struct {
  trx_type_t base;
  DLDataType dtype;
} trx_prim_type_t;

typedef struct {
  trx_type_t base;
  TVMFFIObject* params; /* Array<Type> or NULL (opaque) */
  TVMFFIObject* ret;
  bool purity;
} trx_func_type_t;

/* ---- constructors (node.c / type.c) ---------------------------------------------------- */
TRX_API TVMFFIObject* trx_var_new(const char* name, size_t name_len, TVMFFIObject* ty, bool dataflow);
TRX_API TVMFFIObject* trx_int_imm_new(DLDataType dtype, int64_t value);
TRX_API TVMFFIObject* trx_float_imm_new(DLDataType dtype, double value);
TRX_API TVMFFIObject* trx_string_imm_new(const char* s, size_t n);
TRX_API TVMFFIObject* trx_datatype_imm_new(DLDataType value);
TRX_API TVMFFIObject* trx_tensor_const_new(TVMFFIObject* tensor, TVMFFIObject* ty);
TRX_API TVMFFIObject* trx_binop_new(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_call_new(TVMFFIObject* op, TVMFFIObject* args, TVMFFIObject* attrs,
                                   TVMFFIObject* ty_args);
TRX_API TVMFFIObject* trx_tuple_new(TVMFFIObject* fields);
TRX_API TVMFFIObject* trx_tuple_get_item_new(TVMFFIObject* tuple_value, int64_t index);
TRX_API TVMFFIObject* trx_shape_expr_new(TVMFFIObject* values);
TRX_API TVMFFIObject* trx_global_var_new(const char* name, size_t len);
TRX_API TVMFFIObject* trx_function_new(TVMFFIObject* params, TVMFFIObject* body, TVMFFIObject* ret_ty,
                                       bool is_pure, TVMFFIObject* attrs);
TRX_API TVMFFIObject* trx_seq_expr_new(TVMFFIObject* blocks, TVMFFIObject* body);
TRX_API TVMFFIObject* trx_if_new(TVMFFIObject* cond, TVMFFIObject* t, TVMFFIObject* f);
TRX_API TVMFFIObject* trx_var_binding_new(TVMFFIObject* var, TVMFFIObject* value);
TRX_API TVMFFIObject* trx_match_cast_new(TVMFFIObject* var, TVMFFIObject* value, TVMFFIObject* ty);
TRX_API TVMFFIObject* trx_binding_block_new(TVMFFIObject* bindings, bool dataflow);
TRX_API TVMFFIObject* trx_ir_module_new(void);
TRX_API TVMFFIObject* trx_tensor_type_new(TVMFFIObject* shape, DLDataType dtype, int64_t ndim);
TRX_API TVMFFIObject* trx_shape_type_new(TVMFFIObject* values, int64_t ndim);
TRX_API TVMFFIObject* trx_tuple_type_new(TVMFFIObject* fields);
TRX_API TVMFFIObject* trx_any_type_new(void);
TRX_API TVMFFIObject* trx_prim_type_new(DLDataType dtype);
TRX_API TVMFFIObject* trx_func_type_new(TVMFFIObject* params, TVMFFIObject* ret, bool purity);

/* ---- symbolic arithmetic (arith.c) -------------------------------------------------------
 * Shape dims are int64 prim exprs: IntImm, Var with PrimType ty, and prim.* binops. */
typedef enum { TRX_PROVE_FALSE = 0, TRX_PROVE_TRUE = 1, TRX_PROVE_UNKNOWN = 2 } trx_prove_t;
/* Canonical simplified form (new reference). */
TRX_API TVMFFIObject* trx_simplify(TVMFFIObject* e);
TRX_API trx_prove_t trx_prove_equal(TVMFFIObject* a, TVMFFIObject* b);
/* true and *out set if `e` simplifies to a constant. */
TRX_API bool trx_as_const_int(TVMFFIObject* e, int64_t* out);
/* Builders that simplify as they go (new references). */
TRX_API TVMFFIObject* trx_int64(int64_t v);
TRX_API TVMFFIObject* trx_add(TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_sub(TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_mul(TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_floordiv(TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_floormod(TVMFFIObject* a, TVMFFIObject* b);

/* ---- ops (op.c, op_*.c) -------------------------------------------------------------------
 * trx_op_get: the Op named `name` ("relax.nn.conv2d"), borrowed (ops live forever), or
 * NULL with ValueError.  trx_infer_type: runs the op's FInferType for a Call whose callee
 * is an Op; new reference to the inferred Type. */
TRX_API TVMFFIObject* trx_op_get(const char* name, size_t len);
TRX_API TVMFFIObject* trx_infer_type(TVMFFIObject* call);

/* ---- normalizer and BlockBuilder (builder.c) ----------------------------------------------- */
TRX_API TVMFFIObject* trx_block_builder_new(TVMFFIObject* mod /* may be NULL */);
TRX_API TVMFFIObject* trx_normalize(TVMFFIObject* builder, TVMFFIObject* expr);

/* ---- printer (printer.c) -------------------------------------------------------------------- */
typedef struct {
  bool verbose_expr;
  bool show_all_ty; /* default true */
} trx_print_options_t;
/* The TVMScript text of `node` as an owning string Any. */
TRX_API int trx_print(TVMFFIObject* node, const trx_print_options_t* opts, TVMFFIAny* out);

/* ---- structural equality and hash (structural.c) -------------------------------------------- */
TRX_API bool trx_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars);
TRX_API uint64_t trx_structural_hash(const TVMFFIAny* v, bool map_free_vars);

#ifdef __cplusplus
}
#endif
#endif /* TETHER_IR_IR_H_ */
