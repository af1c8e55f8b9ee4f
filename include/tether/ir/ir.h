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
  X(SOURCE_MAP, "ir.SourceMap", NONE, trx_source_map_t)                         \
  X(ENV_FUNC, "ir.EnvFunc", NONE, trx_env_func_t)                               \
  X(DICT_ATTRS, "ir.DictAttrs", ATTRS, trx_dict_attrs_t)                       \
  /* types */                                                                  \
  X(TENSOR_TYPE, "relax.TensorType", TYPE, trx_tensor_type_t)                  \
  X(SHAPE_TYPE, "relax.ShapeType", TYPE, trx_shape_type_t)                     \
  X(TUPLE_TYPE, "ir.TupleType", TYPE, trx_tuple_type_t)                        \
  X(ANY_TYPE, "relax.AnyType", TYPE, trx_type_t)                               \
  X(PRIM_TYPE, "ir.PrimType", TYPE, trx_prim_type_t)                           \
  X(FUNC_TYPE, "relax.FuncType", TYPE, trx_func_type_t)                        \
  X(PACKED_FUNC_TYPE, "relax.PackedFuncType", TYPE, trx_type_t)              \
  X(STRING_TYPE, "ir.StringType", TYPE, trx_type_t)

typedef enum {
#define TRX__KIND_ENUM(kind, key, parent, ctype) TRX_##kind,
  TRX_NODE_KINDS(TRX__KIND_ENUM)
#undef TRX__KIND_ENUM
  TRX_NUM_KINDS
} trx_kind;

/* Runtime type index of each kind (filled when libtether_ir loads), read-only.  Reached
 * through a function: libtether_ir links with -Bsymbolic, so an exported array would be
 * copy-relocated into executables and they would read a copy that the library's
 * initialisation never fills.  `trx_type_index[TRX_CALL]` reads as before. */
TRX_API const int32_t* trx_type_index_table(void);
#define trx_type_index (trx_type_index_table())
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
  int64_t value;   /* reflected as TVM declares it: a boxed integer (ffi.BigInt) */
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
  TVMFFIAny description;    /* "" */
  TVMFFIObject* arguments;  /* Array<ir.ArgumentInfo>, empty */
  TVMFFIAny attrs_type_key; /* "" when the op takes no attrs */
  int64_t num_inputs;
  int64_t support_level;
  const void* def; /* its registered op (trx_op_def_t, include/tether/ir/op.h); not reflected */
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
  TVMFFIObject* attrs; /* DictAttrs (empty when the function has none) */
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
  TVMFFIObject* source_map;      /* SourceMap (empty) */
  TVMFFIObject* attrs;           /* DictAttrs, never NULL */
  TVMFFIObject* global_infos;    /* Map<str, Array<GlobalInfo>> (empty) */
} trx_ir_module_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* source_map; /* Map<SourceName, Source> (empty) */
} trx_source_map_t;

/* A function known by its global name (FuncType.derive_func); written to a JSON graph as the
 * name alone, as TVM does.  `func` is NULL: tether does not run it. */
typedef struct {
  TVMFFIObject header;
  TVMFFIAny name;     /* "tvm.relax.type.infer_by_ty_args" */
  TVMFFIObject* func; /* NULL */
} trx_env_func_t;

typedef struct {
  trx_attrs_t base;
  TVMFFIObject* dict; /* Map<str, Any>; reflected as "__dict__" */
} trx_dict_attrs_t;

typedef struct {
  trx_type_t base;
  DLDataType dtype;
} trx_prim_type_t;

typedef struct {
  trx_type_t base;
  TVMFFIObject* shape;   /* ShapeExpr, Var of ShapeType, or NULL */
  TVMFFIObject* dtype;   /* PrimType, or NULL = unknown (read it with trx_tensor_dtype) */
  TVMFFIObject* vdevice; /* NULL */
  int64_t ndim;          /* -1 = unknown */
} trx_tensor_type_t;

/* The element dtype of a TensorType: its PrimType's, or void ({kDLOpaqueHandle, 0, 0})
 * when unknown. */
static inline DLDataType trx_tensor_dtype(const trx_tensor_type_t* t) {
  if (t->dtype == NULL) return (DLDataType){kDLOpaqueHandle, 0, 0};
  return ((const trx_prim_type_t*)t->dtype)->dtype;
}

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
  TVMFFIObject* params;      /* Array<Type> or NULL (opaque) */
  TVMFFIObject* ret;
  TVMFFIObject* derive_func; /* EnvFunc or NULL */
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

/* ---- ops: include/tether/ir/op.h (declaring, registering and finding ops; inference) --- */

/* ---- normalizer and BlockBuilder (builder.c) ----------------------------------------------- */
TRX_API TVMFFIObject* trx_block_builder_new(TVMFFIObject* mod /* may be NULL */);
TRX_API TVMFFIObject* trx_normalize(TVMFFIObject* builder, TVMFFIObject* expr);

/* ---- additions (irbuild: builder.c) -----------------------------------------------------------
 * A BlockBuilder is an FFI object of type "relax.BlockBuilder" (no public fields) holding the
 * IRModule being built, a stack of function scopes, each with its open binding block (plain
 * or dataflow), one name supply ("lv", "lv1", ...; "gv", "gv1", ...; "." -> "_"; "" -> "v";
 * explicit hints are made unique too; counters never reset), the table var -> bound value,
 * and a structural dedup table of the functions added.  Behaviour and error texts follow
 * apache-tvm's relax.BlockBuilder (InternalError where TVM ICHECKs, RuntimeError where its
 * Python layer raises).
 *
 * trx_block_builder_new: `mod` (borrowed, may be NULL) is the module to extend; it is copied
 * on the first write if anyone else holds it.  Its names are reserved in the name supply and
 * its functions seed the dedup table.
 * trx_normalize: fills in types and binds non-leaf arguments (Calls, TupleGetItems, ...; not
 * Tuples) to fresh vars in the innermost open block.  A Call whose arguments did not change
 * gets its inferred ty written into the caller's own object.  New reference.
 *
 * Arguments are borrowed; objects returned are new references; int functions return 0, or -1
 * with the error raised.  name_hint/len: NULL or "" means the default ("lv" inside a dataflow
 * block, "gv" outside).  Not thread-safe: one builder per thread. */
/* Opens a function scope and its first (plain) binding block.  params: Array<Var>, or NULL to
 * defer them to emit_func_output; attrs: Map/Dict<str, Any> or NULL.  Unless is_private,
 * attrs["global_symbol"] = name. */
TRX_API int trx_block_builder_begin_function(TVMFFIObject* bb, const char* name, size_t len,
                                             TVMFFIObject* params, TVMFFIObject* attrs,
                                             bool is_pure, bool is_private);
/* Closes the innermost function scope.  If emit_func_output was not called on it and
 * check_output, raises RuntimeError "emit_func_output must be called in a relax function."
 * (after the scope is closed). */
TRX_API int trx_block_builder_end_function(TVMFFIObject* bb, bool check_output);
/* Closes the current block (kept if non-empty) and opens a DataflowBlock / closes the
 * DataflowBlock and reopens a plain block. */
TRX_API int trx_block_builder_begin_dataflow(TVMFFIObject* bb);
TRX_API int trx_block_builder_end_dataflow(TVMFFIObject* bb);
/* Normalizes `expr` and binds it to a fresh var (a DataflowVar inside a dataflow block). */
TRX_API TVMFFIObject* trx_block_builder_emit(TVMFFIObject* bb, TVMFFIObject* expr,
                                             const char* name_hint, size_t len);
/* The same, inside a dataflow block only, binding a non-dataflow Var ("gv"). */
TRX_API TVMFFIObject* trx_block_builder_emit_output(TVMFFIObject* bb, TVMFFIObject* expr,
                                                    const char* name_hint, size_t len);
/* Appends MatchCast(var, normalize(value), ty); the new var has type `ty`. */
TRX_API TVMFFIObject* trx_block_builder_match_cast(TVMFFIObject* bb, TVMFFIObject* value,
                                                   TVMFFIObject* ty, const char* name_hint,
                                                   size_t len);
/* Closes the function's blocks, builds Function(params, normalize(SeqExpr(blocks, output)))
 * with its attrs and adds it (trx_block_builder_add_function).  params: Array<Var> when the
 * scope was opened without them, else NULL.  Returns the GlobalVar. */
TRX_API TVMFFIObject* trx_block_builder_emit_func_output(TVMFFIObject* bb, TVMFFIObject* output,
                                                         TVMFFIObject* params);
/* Adds `func` under a fresh name from the name supply, unless a structurally equal function
 * was added before: then that function's GlobalVar is returned.  GlobalVar.ty = func.ty. */
TRX_API TVMFFIObject* trx_block_builder_add_function(TVMFFIObject* bb, TVMFFIObject* func,
                                                     const char* name, size_t len);
/* The module built so far. */
TRX_API TVMFFIObject* trx_block_builder_get_module(TVMFFIObject* bb);
/* A fresh name from the builder's supply, as an owning string Any in *out. */
TRX_API int trx_block_builder_unique_name(TVMFFIObject* bb, const char* prefix, size_t len,
                                          TVMFFIAny* out);
/* *out = whether the innermost open block is a DataflowBlock. */
TRX_API int trx_block_builder_is_dataflow(TVMFFIObject* bb, bool* out);
/* *out = the value bound to `var` by a VarBinding of this builder (new reference), or NULL. */
TRX_API int trx_block_builder_lookup_binding(TVMFFIObject* bb, TVMFFIObject* var,
                                             TVMFFIObject** out);
/* mod[gvar] = func (gvar is added under its name if the module lacks it; ValueError if a
 * different GlobalVar has that name).  As in TVM 0.27, gvar keeps its ty, and add_function
 * of `func` returns gvar from then on. */
TRX_API int trx_block_builder_update_function(TVMFFIObject* bb, TVMFFIObject* gvar,
                                              TVMFFIObject* func);
/* Opens / closes a scope in which the symbolic vars that `params` (Array<Var> or NULL)
 * define are known; If types built inside keep them.  end_scope raises RuntimeError when
 * the innermost scope was not opened by begin_scope. */
TRX_API int trx_block_builder_begin_scope(TVMFFIObject* bb, TVMFFIObject* params);
TRX_API int trx_block_builder_end_scope(TVMFFIObject* bb);
/* The module built (the object get_module returns) after TVM's global-symbol checks
 * (InternalError on duplicate global_symbols).  New reference. */
TRX_API TVMFFIObject* trx_block_builder_finalize(TVMFFIObject* bb);
/* The least common type of `a` and `b` (TVM's StructInfoLCA as observed in apache-tvm 0.27;
 * the type of an If).  NULL operands give AnyType.  New reference, or NULL with an error. */
TRX_API TVMFFIObject* trx_type_lca(TVMFFIObject* a, TVMFFIObject* b);

/* ---- printer (printer.c) -------------------------------------------------------------------- */
typedef struct {
  bool verbose_expr;
  bool show_all_ty; /* default true */
  /* false: a text that refers to metadata["..."][i] ends with the comment "# Metadata
   * omitted. ..."; true: it starts with the line `metadata = tvm.ir.load_json("""...""")`
   * holding those objects (the JSON graph of a Map {type key: [objects]}, 2-space indented,
   * with TRX_TVM_JSON_VERSION as metadata), escaped as TVM does. */
  bool show_meta;
} trx_print_options_t;
/* The TVMScript text of `node` as an owning string Any.  Errors: TypeError (not an IR node),
 * MemoryError, and with show_meta any error of writing the metadata's JSON graph. */
TRX_API int trx_print(TVMFFIObject* node, const trx_print_options_t* opts, TVMFFIAny* out);

/* The "tvm_version" that ir.SaveJSON and show_meta record under the JSON graph's "metadata":
 * the apache-tvm release whose node schema tether writes (its loader reads no metadata), so
 * that the text is byte for byte what that release writes for the same IR. */
#define TRX_TVM_JSON_VERSION "0.27.0.post1"
/* The JSON graph text of `value` (a view) with {"tvm_version": TRX_TVM_JSON_VERSION} as its
 * metadata, compact (indent 0) or indented by `indent` spaces, into *out (an owning string).
 * The global "ir.SaveJSON"(value) is the compact form.  Errors: those of ffi.ToJSONGraph
 * (TypeError for a value with no JSON form, e.g. a Function), MemoryError. */
TRX_API int trx_save_json(const TVMFFIAny* value, int indent, TVMFFIAny* out);

/* ---- structural equality and hash (structural.c) -------------------------------------------- */
TRX_API bool trx_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool map_free_vars);
TRX_API uint64_t trx_structural_hash(const TVMFFIAny* v, bool map_free_vars);

/* ---- additions (ircore: node.c, arith.c, structural.c) ---------------------------------------
 * trx_dict_attrs_new: DictAttrs over `map` (a Map<str, Any>; NULL = empty).
 * trx_extern_func_new: ExternFunc(global_symbol) with ty = `ty` (NULL -> opaque FuncType(ret=Any,
 * purity=False)).  trx_packed_func_type_new: PackedFuncType().  All new references. */
TRX_API TVMFFIObject* trx_dict_attrs_new(TVMFFIObject* map);
TRX_API TVMFFIObject* trx_extern_func_new(const char* global_symbol, size_t len, TVMFFIObject* ty);
TRX_API TVMFFIObject* trx_packed_func_type_new(void);
/* StringType(): the type of a StringImm (prints I.StringType()).  New reference. */
TRX_API TVMFFIObject* trx_string_type_new(void);
/* Symbolic min/max builders (simplify as they go; new references). */
TRX_API TVMFFIObject* trx_min(TVMFFIObject* a, TVMFFIObject* b);
TRX_API TVMFFIObject* trx_max(TVMFFIObject* a, TVMFFIObject* b);
/* The first mismatching path of a vs b ("<root>.body.blocks[0]..."), as an owning string
 * Any in *out, or None when they are structurally equal.  0, or -1 with an error raised. */
TRX_API int trx_structural_first_mismatch(const TVMFFIAny* a, const TVMFFIAny* b,
                                          bool map_free_vars, TVMFFIAny* out);

#ifdef __cplusplus
}
#endif
#include "op.h" /* the op registry, which builds on the declarations above */

#endif /* TETHER_IR_IR_H_ */
