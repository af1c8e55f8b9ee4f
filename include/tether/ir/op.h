/*
 * op.h -- declaring Relax ops (libtether_ir).  An op is one declaration: its name, its
 * parameters written as TVM's Python signature, its attrs type, its type inference and an
 * optional constructor-time check.  Registering the declaration creates, from that one row:
 *
 *   - the Op "relax.<name>" (ir.Op.get / trx_op_get find it by name through a hash table),
 *   - the constructor global "relax.op.<name>" (every parameter, positional, as TVM's) with
 *     its FFI signature text,
 *   - the attrs type, reflected with its fields in TVM's order (declared once, below),
 *   - what tether.relax.op.<name> is made of: the Python wrapper reads the parameter list and
 *     doc back through the global "relax.op.Schema" and becomes a C SignatureFunction.
 *
 * Every op of libtether_ir is declared this way (src/ir/ops/<category>.c); another library
 * (a frontend, a plugin, a test) registers its own with trx_op_register at any time.
 *
 * Parameters ("name: kind = default", comma separated; the default a Python literal):
 *   inputs, in order, become the Call's args:
 *     Expr    an ir.Expr (an int / float / bool / str becomes an IntImm int64 / FloatImm
 *             float32 / IntImm bool / StringImm)
 *     Expr?   an Expr, or None (then no arg is added)
 *     Tuple   a relax.Tuple of a list/tuple of Exprs (ints become IntImm int64), or an Expr
 *     Tuple?  a Tuple, or None (then no arg is added)
 *     Shape   a relax.ShapeExpr of a list/tuple of ints / PrimExprs, or an Expr
 *     Prim    a PrimExpr: an int becomes an IntImm int64, a float a FloatImm float64
 *   attributes are stored into the attrs field OF THE SAME NAME:
 *     int int? float bool str str? dtype dtype? ints ints? Any
 *     ints[N]: the Python wrapper widens an int v to the N-tuple (v, ..., v) (TVM's
 *     `(v,) * N`); the global itself, as TVM's, takes only the Array
 * Type rules of the attribute kinds are tvm-ffi's (Mismatched type on argument #i ...).
 */
#ifndef TETHER_IR_OP_H_
#define TETHER_IR_OP_H_

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- attrs types -----------------------------------------------------------------------------
 * One field list declares the C struct and the reflection:
 *
 *   #define MY_FIELDS(F, T) F(T, axis, INT64, "int") F(T, keepdims, BOOL, "bool")
 *   TRX_ATTRS_STRUCT(my_attrs_t, MY_FIELDS);
 *   TRX_ATTRS_DECL(my_attrs, "relax.attrs.MyAttrs", my_attrs_t, MY_FIELDS);
 *
 * KIND is a reflection field kind (TETHER_FIELD_KINDS: INT64, FLOAT64, BOOL, DTYPE, STRING,
 * OBJECT, OPT_OBJECT, ANY, OPT_INT64, ...); the declared type is TVM's ("ffi.Array<int>",
 * "Optional<DataType>") as reflection reports it. */
typedef struct {
  const char* name;
  tether_field_kind kind;
  int64_t offset;       /* offsetof(struct, field) */
  const char* declared; /* the field's declared type */
} trx_attrs_field_t;

typedef struct {
  const char* type_key;            /* "relax.attrs.Conv2DAttrs" */
  int32_t size;                    /* sizeof the struct; it starts with trx_attrs_t */
  const trx_attrs_field_t* fields; /* in TVM's order */
  int32_t num_fields;
} trx_attrs_decl_t;

#define TRX__ATTRS_CTYPE_INT64 int64_t
#define TRX__ATTRS_CTYPE_INT32 int32_t
#define TRX__ATTRS_CTYPE_FLOAT64 double
#define TRX__ATTRS_CTYPE_BOOL bool
#define TRX__ATTRS_CTYPE_DTYPE DLDataType
#define TRX__ATTRS_CTYPE_DEVICE DLDevice
#define TRX__ATTRS_CTYPE_STRING TVMFFIAny
#define TRX__ATTRS_CTYPE_OPT_STRING TVMFFIAny
#define TRX__ATTRS_CTYPE_OBJECT TVMFFIObject*
#define TRX__ATTRS_CTYPE_OPT_OBJECT TVMFFIObject*
#define TRX__ATTRS_CTYPE_ANY TVMFFIAny
#define TRX__ATTRS_CTYPE_OPT_INT64 tether_opt_int64_t
#define TRX__ATTRS_CTYPE_OPT_FLOAT64 tether_opt_float64_t
#define TRX__ATTRS_MEMBER(T, field, KIND, DECL) TRX__ATTRS_CTYPE_##KIND field;
#define TRX__ATTRS_ROW(T, field, KIND, DECL) \
  {#field, TETHER_FIELD_##KIND, (int64_t)offsetof(T, field), DECL},

/* typedef struct { trx_attrs_t base; <fields> } T; */
#define TRX_ATTRS_STRUCT(T, FIELDS) \
  typedef struct {                  \
    trx_attrs_t base;               \
    FIELDS(TRX__ATTRS_MEMBER, T)    \
  } T
/* static const trx_attrs_decl_t var (and its field table var##_fields). */
#define TRX_ATTRS_DECL(var, key, T, FIELDS)                                        \
  static const trx_attrs_field_t var##_fields[] = {FIELDS(TRX__ATTRS_ROW, T)};     \
  static const trx_attrs_decl_t var = {key, (int32_t)sizeof(T), var##_fields,      \
                                       (int32_t)(sizeof(var##_fields) / sizeof(var##_fields[0]))}

/* Registers an attrs type (idempotent: a key already registered returns its index).
 * Returns the runtime type index, or -1 with the error raised (TypeError for a bad decl).
 * `decl` and the strings it points to must outlive the library (static storage).
 * Thread-safe. */
TRX_API int32_t trx_attrs_register(const trx_attrs_decl_t* decl);
/* A new attrs object of a registered type (every field zero, strings/Anys None), or NULL
 * with the error raised.  New reference. */
TRX_API TVMFFIObject* trx_attrs_new(int32_t type_index);

/* ---- op declarations ---------------------------------------------------------------------------- */
typedef struct trx_op_def trx_op_def_t; /* a registered op; lives until unload */

/* The Call's type: a new reference, or NULL with TVM's error raised.  `call->op` is the
 * def's Op and `call->attrs` (when the op has attrs) is of its attrs type. */
typedef TVMFFIObject* (*trx_op_infer_fn)(const trx_op_def_t* def, trx_call_t* call);
/* Constructor-time completion and checks, run after the arguments are read:
 * inputs[0..num_inputs) (owned by the caller; the function may replace an entry, releasing
 * the old reference) and attrs (NULL if none; fields may be rewritten).  0, or -1 with
 * the error raised. */
typedef int (*trx_op_check_fn)(const trx_op_def_t* def, TVMFFIObject** inputs, int64_t num_inputs,
                               TVMFFIObject* attrs);
/* A constructor that does not fit the parameter kinds (reads args[0..n) itself, n already
 * checked against the parameter count, trailing defaults filled in); *out: new Call. */
typedef int (*trx_op_make_fn)(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n,
                              TVMFFIObject** out);

enum {
  TRX_OP_IMPURE = 1u << 0,        /* the op has side effects (FPurity false) */
  TRX_OP_HIDE_ATTRS_KEY = 1u << 1, /* the Op shows attrs_type_key "" although it has attrs */
  TRX_OP_USER_SHIFT = 8,          /* bits from here on are the op's own (read by its infer) */
};

typedef struct {
  const char* name;      /* "nn.conv2d": Op "relax.nn.conv2d", global "relax.op.nn.conv2d" */
  const char* params;    /* "data: Expr, weight: Expr, strides: ints[2] = (1, 1), ..." */
  const char* arguments; /* the Op's ArgumentInfo rows "name|type_info|description\n..." as
                          * TVM shows them in error texts; NULL: "name|Tensor|" per input */
  const trx_attrs_decl_t* attrs; /* NULL: the op takes no attrs */
  trx_op_infer_fn infer;
  trx_op_check_fn check; /* NULL: none */
  trx_op_make_fn make;   /* NULL: the generic constructor over `params` */
  const char* signature; /* the global's FFI signature text "(0: ir.Expr, ...) -> ir.Expr"
                          * where TVM's differs from the one derived from `params`; NULL */
  uint32_t flags;        /* TRX_OP_* */
  const char* doc;       /* one paragraph for the Python wrapper's docstring */
} trx_op_decl_t;

/* Registers an op.  Returns its Op (borrowed: ops live until unload), or NULL with the
 * error raised: ValueError naming the declaration when `params` does not parse or an
 * attribute parameter has no field of its name, KeyError when the name is taken.
 * `decl` and everything it points to must outlive the library (static storage).
 * Thread-safe. */
TRX_API TVMFFIObject* trx_op_register(const trx_op_decl_t* decl);

/* The Op named `name` ("relax.nn.conv2d"), borrowed, or NULL with AttributeError
 * "Operator <name> is not registered" (TVM's kind).  Thread-safe. */
TRX_API TVMFFIObject* trx_op_get(const char* name, size_t len);
/* The registered op of an Op object (NULL if `op` is not an Op).  Borrowed. */
TRX_API const trx_op_def_t* trx_op_def_of(const TVMFFIObject* op);
/* The declaration / full name ("relax.nn.conv2d") / Op of a registered op (borrowed). */
TRX_API const trx_op_decl_t* trx_op_def_decl(const trx_op_def_t* def);
TRX_API const char* trx_op_def_name(const trx_op_def_t* def);
TRX_API TVMFFIObject* trx_op_def_op(const trx_op_def_t* def);

/* Runs the op's inference for a Call whose callee is an Op.  New reference to the
 * inferred Type, or NULL with the error raised. */
TRX_API TVMFFIObject* trx_infer_type(TVMFFIObject* call);

#ifdef __cplusplus
}
#endif

#endif /* TETHER_IR_OP_H_ */
