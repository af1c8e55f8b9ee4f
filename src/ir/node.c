/*
 * node.c -- the IR's node types: registers every kind of TRX_NODE_KINDS as a reflected FFI
 * type (TVM 0.27's type keys, parents, field names/order and declared field types, so that a
 * JSON graph of tether's IR is the one TVM reads and writes), the C constructors of ir.h with
 * TVM's validation and error texts, and the Python-facing constructor globals ("ir.Var",
 * "relax.TensorType", ...) that accept Python-natural arguments.
 *
 * Invariants every constructor keeps (the rest of libtether_ir relies on them):
 * - object fields hold owned references; a missing Expr.ty is NULL;
 * - Array fields are never NULL except where ir.h says "or NULL" (ShapeType.values,
 *   FuncType.params, Call.attrs, BaseFunc.attrs, TensorType.shape/vdevice);
 * - shape values (ShapeExpr.values, ShapeType.values) are int64 prim exprs: IntImm int64
 *   or an Expr whose ty is PrimType(int64).
 */
#include "node.h"
#include "strbuf.h"

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/tensor.h>

int32_t trx__type_index[TRX_NUM_KINDS];

const DLDataType trx__dtype_void = {kDLOpaqueHandle, 0, 0};
const DLDataType trx__dtype_int64 = {kDLInt, 64, 1};

/* ---- the kind table: keys, parents, sizes ------------------------------------------------ */

enum {
  TRX__P_NONE = -1,
#define TRX__P(kind, key, parent, ctype) TRX__P_##kind = TRX_##kind,
  TRX_NODE_KINDS(TRX__P)
#undef TRX__P
};

static const struct {
  const char* key;
  int parent; /* trx_kind, or -1 for ffi.Object */
  int32_t size;
} trx__kinds[TRX_NUM_KINDS] = {
#define TRX__ROW(kind, key, parent, ctype) {key, TRX__P_##parent, (int32_t)sizeof(ctype)},
    TRX_NODE_KINDS(TRX__ROW)
#undef TRX__ROW
};

/* ---- reflected fields, in TVM's order per type ------------------------------------------
 * Each row: owner kind, storage, reflected name, field kind, flags, the value's kind (object
 * fields) and the declared type as TVM 0.27 declares it, in a compact notation that
 * trx__schema_json turns into the type-schema JSON of the field's metadata
 * ("Optional<ffi.Array<ir.Expr>>" -> {"type":"Optional","args":[{"type":"ffi.Array",...}]}).
 * The declared type also fixes how a JSON graph holds the value: scalar storage declared as
 * a boxed type (IntImm.value: ffi.BigInt; ConcatAttrs.axis: Optional<int>) is a node
 * reference, as in TVM. */

#define IGN kTVMFFIFieldFlagBitMaskSEqHashIgnore
#define DEF kTVMFFIFieldFlagBitMaskSEqHashDefRecursive
#define WR kTVMFFIFieldFlagBitMaskWritable

typedef struct {
  trx_kind owner;
  const char* name;
  tether_field_kind kind;
  int64_t offset;
  int64_t flags;
  int target; /* OBJECT/OPT_OBJECT: trx_kind of the value, or -1 with static_index */
  int32_t static_index;
  const char* declared; /* TVM's declared type, compact notation */
} trx__field_t;

#define FLD(owner, ctype, member, name, fkind, flags, target, sindex, decl) \
  {TRX_##owner, name, TETHER_FIELD_##fkind, (int64_t)offsetof(ctype, member), flags, target, sindex, decl}
#define OBJ(owner, ctype, member, name, fkind, flags, target, decl) \
  FLD(owner, ctype, member, name, fkind, flags, TRX_##target, 0, decl)
#define ARR(owner, ctype, member, name, fkind, flags, decl) \
  FLD(owner, ctype, member, name, fkind, flags, -1, kTVMFFIArray, decl)
#define MAP(owner, ctype, member, name, decl) FLD(owner, ctype, member, name, OBJECT, 0, -1, kTVMFFIMap, decl)
#define VAL(owner, ctype, member, name, fkind, flags, decl) FLD(owner, ctype, member, name, fkind, flags, -1, 0, decl)

static const trx__field_t trx__fields[] = {
    VAL(EXPR, trx_expr_t, span, "span", OPT_OBJECT, IGN, "ir.Span"),
    OBJ(EXPR, trx_expr_t, ty, "ty", OPT_OBJECT, WR, TYPE, "ir.Type"),
    VAL(TYPE, trx_type_t, span, "span", OPT_OBJECT, IGN, "ir.Span"),
    VAL(VAR, trx_var_t, name, "name", STRING, IGN, "ffi.String"),
    VAL(INT_IMM, trx_int_imm_t, value, "value", INT64, 0, "ffi.BigInt"),
    VAL(FLOAT_IMM, trx_float_imm_t, value, "value", FLOAT64, 0, "float"),
    VAL(STRING_IMM, trx_string_imm_t, value, "value", STRING, 0, "ffi.String"),
    VAL(DATATYPE_IMM, trx_datatype_imm_t, value, "value", DTYPE, 0, "DataType"),
    VAL(TENSOR_CONST, trx_tensor_const_t, value, "value", ANY, 0, "Any"),
#define TRX__BINOP_FIELDS(K)                                 \
  OBJ(K, trx_binop_t, a, "a", OBJECT, 0, EXPR, "ir.Expr"), \
  OBJ(K, trx_binop_t, b, "b", OBJECT, 0, EXPR, "ir.Expr")
    TRX__BINOP_FIELDS(PRIM_ADD),
    TRX__BINOP_FIELDS(PRIM_SUB),
    TRX__BINOP_FIELDS(PRIM_MUL),
    TRX__BINOP_FIELDS(PRIM_FLOORDIV),
    TRX__BINOP_FIELDS(PRIM_FLOORMOD),
    TRX__BINOP_FIELDS(PRIM_MIN),
    TRX__BINOP_FIELDS(PRIM_MAX),
#undef TRX__BINOP_FIELDS
    VAL(OP, trx_op_t, name, "name", STRING, 0, "ffi.String"),
    VAL(OP, trx_op_t, description, "description", STRING, IGN, "ffi.String"),
    ARR(OP, trx_op_t, arguments, "arguments", OBJECT, IGN, "ffi.Array<ir.ArgumentInfo>"),
    VAL(OP, trx_op_t, attrs_type_key, "attrs_type_key", STRING, IGN, "ffi.String"),
    VAL(OP, trx_op_t, num_inputs, "num_inputs", INT64, IGN, "int"),
    VAL(OP, trx_op_t, support_level, "support_level", INT64, IGN, "int"),
    OBJ(CALL, trx_call_t, op, "op", OBJECT, 0, EXPR, "ir.Expr"),
    ARR(CALL, trx_call_t, args, "args", OBJECT, 0, "ffi.Array<ir.Expr>"),
    OBJ(CALL, trx_call_t, attrs, "attrs", OPT_OBJECT, 0, ATTRS, "ir.Attrs"),
    ARR(CALL, trx_call_t, ty_args, "ty_args", OBJECT, 0, "ffi.Array<ir.Type>"),
    ARR(TUPLE, trx_tuple_t, fields, "fields", OBJECT, 0, "ffi.Array<ir.Expr>"),
    OBJ(TUPLE_GET_ITEM, trx_tuple_get_item_t, tuple_value, "tuple_value", OBJECT, 0, EXPR, "ir.Expr"),
    VAL(TUPLE_GET_ITEM, trx_tuple_get_item_t, index, "index", INT64, 0, "int"),
    ARR(SHAPE_EXPR, trx_shape_expr_t, values, "values", OBJECT, 0, "ffi.Array<ir.Expr>"),
    VAL(GLOBAL_VAR, trx_global_var_t, name_hint, "name_hint", STRING, 0, "ffi.String"),
    OBJ(BASE_FUNC, trx_base_func_t, attrs, "attrs", OBJECT, 0, DICT_ATTRS, "ir.DictAttrs"),
    ARR(FUNCTION, trx_function_t, params, "params", OBJECT, DEF, "ffi.Array<ir.Var>"),
    OBJ(FUNCTION, trx_function_t, body, "body", OBJECT, 0, EXPR, "relax.expr.SeqExpr"),
    OBJ(FUNCTION, trx_function_t, ret_ty, "ret_ty", OBJECT, 0, TYPE, "ir.Type"),
    VAL(FUNCTION, trx_function_t, is_pure, "is_pure", BOOL, 0, "bool"),
    VAL(EXTERN_FUNC, trx_extern_func_t, global_symbol, "global_symbol", STRING, 0, "ffi.String"),
    ARR(SEQ_EXPR, trx_seq_expr_t, blocks, "blocks", OBJECT, 0, "ffi.Array<relax.expr.BindingBlock>"),
    OBJ(SEQ_EXPR, trx_seq_expr_t, body, "body", OBJECT, 0, EXPR, "ir.Expr"),
    OBJ(IF, trx_if_t, cond, "cond", OBJECT, 0, EXPR, "ir.Expr"),
    OBJ(IF, trx_if_t, true_branch, "true_branch", OBJECT, 0, EXPR, "relax.expr.SeqExpr"),
    OBJ(IF, trx_if_t, false_branch, "false_branch", OBJECT, 0, EXPR, "relax.expr.SeqExpr"),
    VAL(BINDING, trx_binding_t, span, "span", OPT_OBJECT, IGN, "ir.Span"),
    OBJ(BINDING, trx_binding_t, var, "var", OBJECT, DEF, VAR, "ir.Var"),
    OBJ(VAR_BINDING, trx_var_binding_t, value, "value", OBJECT, 0, EXPR, "ir.Expr"),
    OBJ(MATCH_CAST, trx_match_cast_t, value, "value", OBJECT, 0, EXPR, "ir.Expr"),
    OBJ(MATCH_CAST, trx_match_cast_t, ty, "ty", OBJECT, DEF, TYPE, "ir.Type"),
    ARR(BINDING_BLOCK, trx_binding_block_t, bindings, "bindings", OBJECT, 0, "ffi.Array<relax.expr.Binding>"),
    VAL(BINDING_BLOCK, trx_binding_block_t, span, "span", OPT_OBJECT, IGN, "ir.Span"),
    MAP(IR_MODULE, trx_ir_module_t, functions, "functions", "ffi.Map<ir.GlobalVar,ir.BaseFunc>"),
    MAP(IR_MODULE, trx_ir_module_t, global_var_map_, "global_var_map_", "ffi.Map<ffi.String,ir.GlobalVar>"),
    OBJ(IR_MODULE, trx_ir_module_t, source_map, "source_map", OBJECT, 0, SOURCE_MAP, "ir.SourceMap"),
    OBJ(IR_MODULE, trx_ir_module_t, attrs, "attrs", OBJECT, 0, DICT_ATTRS, "ir.DictAttrs"),
    MAP(IR_MODULE, trx_ir_module_t, global_infos, "global_infos",
        "ffi.Map<ffi.String,ffi.Array<ir.GlobalInfo>>"),
    MAP(SOURCE_MAP, trx_source_map_t, source_map, "source_map", "ffi.Map<ir.SourceName,ir.Source>"),
    VAL(ENV_FUNC, trx_env_func_t, name, "name", STRING, 0, "ffi.String"),
    FLD(ENV_FUNC, trx_env_func_t, func, "func", OPT_OBJECT, IGN, -1, kTVMFFIFunction, "ffi.Function"),
    MAP(DICT_ATTRS, trx_dict_attrs_t, dict, "__dict__", "ffi.Map<ffi.String,Any>"),
    OBJ(TENSOR_TYPE, trx_tensor_type_t, shape, "shape", OPT_OBJECT, 0, EXPR, "Optional<ir.Expr>"),
    OBJ(TENSOR_TYPE, trx_tensor_type_t, dtype, "dtype", OPT_OBJECT, 0, PRIM_TYPE, "Optional<ir.PrimType>"),
    VAL(TENSOR_TYPE, trx_tensor_type_t, vdevice, "vdevice", OPT_OBJECT, 0, "Optional<relax.VDevice>"),
    VAL(TENSOR_TYPE, trx_tensor_type_t, ndim, "ndim", INT64, 0, "int"),
    ARR(SHAPE_TYPE, trx_shape_type_t, values, "values", OPT_OBJECT, 0, "Optional<ffi.Array<ir.Expr>>"),
    VAL(SHAPE_TYPE, trx_shape_type_t, ndim, "ndim", INT64, 0, "int"),
    ARR(TUPLE_TYPE, trx_tuple_type_t, fields, "fields", OBJECT, 0, "ffi.Array<ir.Type>"),
    VAL(PRIM_TYPE, trx_prim_type_t, dtype, "dtype", DTYPE, 0, "DataType"),
    ARR(FUNC_TYPE, trx_func_type_t, params, "params", OPT_OBJECT, DEF, "Optional<ffi.Array<ir.Type>>"),
    OBJ(FUNC_TYPE, trx_func_type_t, ret, "ret", OBJECT, 0, TYPE, "ir.Type"),
    OBJ(FUNC_TYPE, trx_func_type_t, derive_func, "derive_func", OPT_OBJECT, 0, ENV_FUNC, "Optional<ir.EnvFunc>"),
    VAL(FUNC_TYPE, trx_func_type_t, purity, "purity", BOOL, 0, "bool"),
};

#undef FLD
#undef OBJ
#undef ARR
#undef MAP
#undef VAL
#undef IGN
#undef DEF
#undef WR

/* ---- per-type caches: kind masks and field tables -----------------------------------------
 * Every hot path asks "is this object a <kind>?" and walks objects' fields; both answers
 * depend only on the runtime type, which never changes once allocated (a type's ancestors
 * are fixed when its index is allocated; its fields once its metadata is registered).  So
 * they are computed once per type index and cached here:
 * - trx__isa[ti]: bit k set when type ti is kind k or derives from it, TRX__ISA_KNOWN once
 *   computed (0 = not yet).  Racing threads compute and store the same value.
 * - trx__ftabs[ti]: the flattened field table (ancestors first), published with a CAS and
 *   freed at unload.  Types without metadata are not cached (their fields may still come).
 * Indices past TRX__TYPE_CACHE are computed on each call (correct, only slower). */
#define TRX__ISA_KNOWN (UINT64_C(1) << 63)
_Static_assert(TRX_NUM_KINDS < 63, "the kind mask needs one bit per kind");
_Atomic uint64_t trx__isa[TRX__TYPE_CACHE];
_Atomic(trx__ftab_t*) trx__ftabs[TRX__TYPE_CACHE];
static _Atomic bool trx__types_ready; /* set once every kind has its index */

static uint64_t trx__isa_compute(int32_t ti) {
  uint64_t m = TRX__ISA_KNOWN;
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    if (tether_type_is_subclass(ti, trx__type_index[k])) m |= UINT64_C(1) << k;
  }
  return m;
}

uint64_t trx__isa_mask_slow(int32_t ti) {
  if ((uint32_t)ti >= TRX__TYPE_CACHE || !atomic_load_explicit(&trx__types_ready, memory_order_acquire)) {
    return trx__isa_compute(ti);
  }
  uint64_t m = atomic_load_explicit(&trx__isa[ti], memory_order_relaxed);
  if (m == 0) {
    m = trx__isa_compute(ti);
    atomic_store_explicit(&trx__isa[ti], m, memory_order_relaxed);
  }
  return m;
}

bool(trx_is)(const TVMFFIObject* obj, trx_kind kind) { return trx__is(obj, kind); }

const int32_t* trx_type_index_table(void) { return trx__type_index; }

static trx__ftab_t* trx__ftab_build(int32_t ti, const TVMFFITypeInfo* info) {
  int32_t n = 0;
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    n += (d < info->type_depth ? info->type_ancestors[d] : info)->num_fields;
  }
  trx__ftab_t* t = malloc(sizeof(*t) + sizeof(trx__fdesc_t) * (size_t)n);
  if (t == NULL) return NULL;
  t->n = 0;
  t->info = info;
  t->isa = trx__isa_mask_slow(ti);
  t->tree_node = ti >= kTVMFFIDynObjectBegin && info->metadata != NULL && info->metadata->total_size > 0 &&
                 (info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindTreeNode ||
                  info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindConstTreeNode);
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* a = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < a->num_fields; ++i) {
      trx__fdesc_t* f = &t->f[t->n++];
      f->info = &a->fields[i];
      f->offset = a->fields[i].offset;
      f->flags = a->fields[i].flags;
      f->kind = tether_field_kind_of_getter(a->fields[i].getter);
    }
  }
  /* A SeqExpr's own fields (blocks, body) come before the Expr fields (span, ty): as in TVM's
   * structural equality, its type may name vars its blocks define (a MatchCast's). */
  if (t->isa & (UINT64_C(1) << TRX_SEQ_EXPR)) {
    int32_t nbase = 0; /* the inherited fields */
    for (int32_t d = 0; d < info->type_depth; ++d) nbase += info->type_ancestors[d]->num_fields;
    trx__fdesc_t tmp[4];
    if (nbase > 0 && nbase <= 4 && nbase < t->n) {
      memcpy(tmp, t->f, sizeof(trx__fdesc_t) * (size_t)nbase);
      memmove(t->f, t->f + nbase, sizeof(trx__fdesc_t) * (size_t)(t->n - nbase));
      memcpy(t->f + (t->n - nbase), tmp, sizeof(trx__fdesc_t) * (size_t)nbase);
    }
  }
  return t;
}

static const trx__ftab_t trx__ftab_empty = {0, false, 0, NULL};

const trx__ftab_t* trx__ftab_slow(int32_t ti) {
  bool cacheable = (uint32_t)ti < TRX__TYPE_CACHE;
  if (cacheable) {
    trx__ftab_t* t = atomic_load_explicit(&trx__ftabs[ti], memory_order_acquire);
    if (t != NULL) return t;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(ti);
  if (info == NULL || info->metadata == NULL || !cacheable ||
      !atomic_load_explicit(&trx__types_ready, memory_order_acquire)) {
    /* Uncached (rare: a type still being defined, or past the cache): an empty table,
     * which callers treat as "not a tree node". */
    return &trx__ftab_empty;
  }
  trx__ftab_t* t = trx__ftab_build(ti, info);
  if (t == NULL) return &trx__ftab_empty;
  trx__ftab_t* expected = NULL;
  if (!atomic_compare_exchange_strong_explicit(&trx__ftabs[ti], &expected, t, memory_order_acq_rel,
                                               memory_order_acquire)) {
    free(t);
    return expected;
  }
  return t;
}

TVMFFIAny trx__field_read(TVMFFIObject* o, const trx__fdesc_t* f, bool* owned) {
  const char* p = (const char*)o + f->offset;
  *owned = false;
  switch (f->kind) {
    case TETHER_FIELD_INT64:
      return tether_any_int(*(const int64_t*)p);
    case TETHER_FIELD_INT32:
      return tether_any_int(*(const int32_t*)p);
    case TETHER_FIELD_FLOAT64:
      return tether_any_float(*(const double*)p);
    case TETHER_FIELD_BOOL:
      return tether_any_bool(*(const bool*)p);
    case TETHER_FIELD_DTYPE:
      return tether_any_dtype(*(const DLDataType*)p);
    case TETHER_FIELD_DEVICE: {
      const DLDevice* d = (const DLDevice*)p;
      return tether_any_device(d->device_type, d->device_id);
    }
    case TETHER_FIELD_STRING:
    case TETHER_FIELD_OPT_STRING:
    case TETHER_FIELD_ANY:
      return *(const TVMFFIAny*)p;
    case TETHER_FIELD_OBJECT:
    case TETHER_FIELD_OPT_OBJECT: {
      TVMFFIObject* obj = *(TVMFFIObject* const*)p;
      return obj != NULL ? tether_any_object(obj) : tether_any_none();
    }
    case TETHER_FIELD_OPT_INT64: {
      const tether_opt_int64_t* v = (const tether_opt_int64_t*)p;
      return v->has_value ? tether_any_int(v->value) : tether_any_none();
    }
    case TETHER_FIELD_OPT_FLOAT64: {
      const tether_opt_float64_t* v = (const tether_opt_float64_t*)p;
      return v->has_value ? tether_any_float(v->value) : tether_any_none();
    }
    default:
      break;
  }
  /* Not one of tether's kinds: through the field's own getter (an owning value). */
  TVMFFIAny v = tether_any_none();
  if (tether_field_get(o, f->info, &v) != 0) {
    trx__clear_error();
    v = tether_any_none();
  }
  *owned = true;
  return v;
}

static TVMFFIByteArray trx__cstr_bytes(const char* s) {
  TVMFFIByteArray b = {s, strlen(s)};
  return b;
}

/* ---- small helpers ------------------------------------------------------------------------ */

void trx__clear_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

bool trx__dtype_is_void(DLDataType t) {
  return t.code == kDLOpaqueHandle && t.bits == 0 && t.lanes == 0;
}

bool trx__dtype_equal(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

void trx__dtype_str(DLDataType t, char* buf, size_t n) {
  if (trx__dtype_is_void(t)) {
    snprintf(buf, n, "void");
    return;
  }
  /* The common scalar dtypes, spelled as TVMFFIDataTypeToString spells them. */
  static const char* const prefix[] = {[kDLInt] = "int", [kDLUInt] = "uint", [kDLFloat] = "float"};
  if (t.lanes == 1 && (t.code == kDLInt || t.code == kDLUInt || t.code == kDLFloat) &&
      (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64) && !(t.code == kDLFloat && t.bits == 8) &&
      n >= 8) {
    size_t k = strlen(prefix[t.code]);
    memcpy(buf, prefix[t.code], k);
    if (t.bits >= 10) buf[k++] = (char)('0' + t.bits / 10);
    buf[k++] = (char)('0' + t.bits % 10);
    buf[k] = '\0';
    return;
  }
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray b;
  if (TVMFFIDataTypeToString(&t, &s) != 0 || !tether_any_get_str(&s, &b)) {
    trx__clear_error();
    snprintf(buf, n, "<dtype %d:%d:%d>", (int)t.code, (int)t.bits, (int)t.lanes);
  } else {
    snprintf(buf, n, "%.*s", (int)b.size, b.data);
  }
  tether_any_release(&s);
}

TVMFFIByteArray trx__str(const TVMFFIAny* v) {
  TVMFFIByteArray b = {"", 0};
  if (v == NULL || !tether_any_get_str(v, &b)) b = (TVMFFIByteArray){"", 0};
  return b;
}

/* The type key of an object for error texts ("None" for NULL). */
static const char* trx__key(const TVMFFIObject* obj) {
  return obj == NULL ? "None" : tether_type_key(obj->type_index);
}

/*
 * Node deleter.  Nodes are reflected objects; libtether's reflected deleter finds each
 * field's kind from its getter on every destruction, which dominated the cost of dropping
 * small nodes.  trx__node_deleter releases the owning fields through the cached field table
 * (same rules: Any-held kinds are released, object kinds DecRef'd, scalars left) and hands
 * the memory back through the reflected deleter (weak part only, which frees it).  Without a
 * cached table (the library is unloading) the reflected deleter does everything.
 */
static void (*trx__reflected_deleter)(void* self, int flags); /* libtether's; set at first alloc */

static void trx__node_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    const trx__ftab_t* tab = trx__ftab(((TVMFFIObject*)self)->type_index);
    if (tab->info == NULL) {
      trx__reflected_deleter(self, flags);
      return;
    }
    for (int32_t i = 0; i < tab->n; ++i) {
      char* p = (char*)self + tab->f[i].offset;
      switch (tab->f[i].kind) {
        case TETHER_FIELD_STRING:
        case TETHER_FIELD_OPT_STRING:
        case TETHER_FIELD_ANY:
          if (((TVMFFIAny*)p)->type_index >= kTVMFFIStaticObjectBegin) tether_any_release((TVMFFIAny*)p);
          break;
        case TETHER_FIELD_OBJECT:
        case TETHER_FIELD_OPT_OBJECT: {
          TVMFFIObject* o = *(TVMFFIObject**)p;
          *(TVMFFIObject**)p = NULL;
          if (o != NULL) TVMFFIObjectDecRef(o);
          break;
        }
        default:
          break;
      }
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) trx__reflected_deleter(self, kTVMFFIObjectDeleterFlagBitMaskWeak);
}

TVMFFIObject* trx__node_new(int32_t type_index) {
  TVMFFIObjectHandle h = NULL;
  if (tether_object_new_reflected(type_index, &h) != 0) return NULL;
  TVMFFIObject* o = (TVMFFIObject*)h;
  if (trx__reflected_deleter == NULL) trx__reflected_deleter = o->deleter; /* racing writers agree */
  if (o->deleter == trx__reflected_deleter) o->deleter = trx__node_deleter;
  return o;
}

static TVMFFIObject* trx__alloc(trx_kind kind) { return trx__node_new(trx_type_index[kind]); }

int trx__array_push_obj(TVMFFIObject** arr, TVMFFIObject* item) {
  TVMFFIObjectHandle h = *arr;
  TVMFFIAny v = tether_any_object(item);
  int rc = tether_array_append(&h, &v);
  *arr = (TVMFFIObject*)h;
  return rc;
}

TVMFFIObject* trx__array_of(TVMFFIObject* const* items, int64_t n) {
  TVMFFIAny small[16];
  TVMFFIAny* views = n <= 16 ? small : malloc(sizeof(TVMFFIAny) * (size_t)n);
  if (views == NULL) {
    tether_raise("MemoryError", "out of memory building an Array of %lld items", (long long)n);
    return NULL;
  }
  for (int64_t i = 0; i < n; ++i) {
    views[i] = items[i] ? tether_any_object(items[i]) : tether_any_none();
  }
  TVMFFIObjectHandle out = NULL;
  int rc = tether_array_new(n > 0 ? views : NULL, n, &out);
  if (views != small) free(views);
  return rc == 0 ? (TVMFFIObject*)out : NULL;
}

/* ---- shared immutable objects -------------------------------------------------------------
 * Made once at load (so they are part of every test's baseline object count) and shared, as
 * TVM shares them: the PrimType of the common dtypes (the ty of every IntImm / FloatImm,
 * TensorType.dtype).  PrimType has no writable field. */
static const DLDataType trx__shared_dtypes[] = {
    {kDLInt, 64, 1}, {kDLInt, 32, 1}, {kDLInt, 16, 1}, {kDLInt, 8, 1}, {kDLUInt, 1, 1},
    {kDLUInt, 8, 1}, {kDLFloat, 32, 1}, {kDLFloat, 64, 1}, {kDLFloat, 16, 1}, {kDLBool, 8, 1}};
enum { TRX__NUM_SHARED_DTYPES = sizeof(trx__shared_dtypes) / sizeof(trx__shared_dtypes[0]) };
static TVMFFIObject* trx__shared_prim_types[TRX__NUM_SHARED_DTYPES];

static int trx__shared_init(void) {
  for (int i = 0; i < TRX__NUM_SHARED_DTYPES; ++i) {
    trx__shared_prim_types[i] = trx_prim_type_new(trx__shared_dtypes[i]);
    if (trx__shared_prim_types[i] == NULL) return -1;
  }
  return 0;
}

static void trx__shared_fini(void) {
  for (int i = 0; i < TRX__NUM_SHARED_DTYPES; ++i) {
    if (trx__shared_prim_types[i] != NULL) TVMFFIObjectDecRef(trx__shared_prim_types[i]);
    trx__shared_prim_types[i] = NULL;
  }
}

TVMFFIObject* trx__prim_type_shared(DLDataType dtype) {
  for (int i = 0; i < TRX__NUM_SHARED_DTYPES; ++i) {
    if (trx__shared_prim_types[i] != NULL && trx__dtype_equal(trx__shared_dtypes[i], dtype)) {
      return trx__ref(trx__shared_prim_types[i]);
    }
  }
  return trx_prim_type_new(dtype);
}

/* A new empty Array each time: TVM's nodes do not share their empty Arrays (Call.ty_args,
 * ...), which a JSON graph shows as one node per Array. */
TVMFFIObject* trx__empty_array(void) { return trx__array_of(NULL, 0); }

TVMFFIObject* trx__array_obj(TVMFFIObject* arr, int64_t i) {
  const TVMFFIAny* a = tether_array_at(arr, i);
  return a != NULL && tether_any_is_object(a) ? a->v_obj : NULL;
}

static bool trx__is_array(const TVMFFIObject* obj) {
  return obj != NULL && obj->type_index == kTVMFFIArray;
}

/* Checks that `arr` is an Array whose elements are all objects of `kind` (TypeError in
 * tvm-ffi's words otherwise). */
static int trx__check_array(const char* fname, const char* argname, TVMFFIObject* arr,
                            trx_kind kind) {
  const char* want = trx__kinds[kind].key;
  if (!trx__is_array(arr)) {
    return tether_raise("TypeError", "%s: argument `%s` expected `Array<%s>` but got `%s`", fname,
                        argname, want, trx__key(arr));
  }
  int64_t n = tether_array_size(arr);
  for (int64_t i = 0; i < n; ++i) {
    const TVMFFIAny* v = tether_array_at(arr, i);
    if (!tether_any_is_object(v) || !trx_is(v->v_obj, kind)) {
      return tether_raise("TypeError", "%s: argument `%s` expected `Array<%s>` but got `Array[index %lld: %s]`",
                          fname, argname, want, (long long)i, tether_any_type_key(v));
    }
  }
  return 0;
}

/* NULL -> new empty Array; otherwise the checked `arr` with a new reference. */
static TVMFFIObject* trx__array_arg(const char* fname, const char* argname, TVMFFIObject* arr,
                                    trx_kind kind) {
  if (arr == NULL) return trx__empty_array();
  if (trx__check_array(fname, argname, arr, kind) != 0) return NULL;
  return trx__ref(arr);
}

static int trx__check_kind(const char* fname, const char* argname, TVMFFIObject* obj,
                           trx_kind kind, bool optional) {
  if (obj == NULL && optional) return 0;
  if (!trx_is(obj, kind)) {
    return tether_raise("TypeError", "%s: argument `%s` must be %s %s, but got %s", fname, argname,
                        optional ? "None or" : "a", trx__kinds[kind].key, trx__key(obj));
  }
  return 0;
}

/* The repr of a node for error texts, into buf (type key if printing fails). */
static void trx__repr(TVMFFIObject* obj, char* buf, size_t n) {
  TVMFFIAny view = tether_any_object(obj);
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray b;
  if (tether_repr(&view, &out) == 0 && tether_any_get_str(&out, &b)) {
    snprintf(buf, n, "%.*s", (int)b.size, b.data);
  } else {
    trx__clear_error();
    snprintf(buf, n, "%s", trx__key(obj));
  }
  tether_any_release(&out);
}

/* ---- types ------------------------------------------------------------------------------ */

TVMFFIObject* trx_prim_type_new(DLDataType dtype) {
  trx_prim_type_t* t = (trx_prim_type_t*)trx__alloc(TRX_PRIM_TYPE);
  if (t != NULL) t->dtype = dtype;
  return (TVMFFIObject*)t;
}

TVMFFIObject* trx_any_type_new(void) { return trx__alloc(TRX_ANY_TYPE); }

TVMFFIObject* trx_packed_func_type_new(void) { return trx__alloc(TRX_PACKED_FUNC_TYPE); }

TVMFFIObject* trx_string_type_new(void) { return trx__alloc(TRX_STRING_TYPE); }

TVMFFIObject* trx_tuple_type_new(TVMFFIObject* fields) {
  TVMFFIObject* arr = trx__array_arg("ir.TupleType", "fields", fields, TRX_TYPE);
  if (arr == NULL) return NULL;
  trx_tuple_type_t* t = (trx_tuple_type_t*)trx__alloc(TRX_TUPLE_TYPE);
  if (t == NULL) {
    TVMFFIObjectDecRef(arr);
    return NULL;
  }
  t->fields = arr;
  return (TVMFFIObject*)t;
}

TVMFFIObject* trx_func_type_new(TVMFFIObject* params, TVMFFIObject* ret, bool purity) {
  static const char fn[] = "relax.FuncType";
  if (params != NULL && trx__check_array(fn, "params", params, TRX_TYPE) != 0) return NULL;
  if (trx__check_kind(fn, "ret", ret, TRX_TYPE, false) != 0) return NULL;
  trx_func_type_t* t = (trx_func_type_t*)trx__alloc(TRX_FUNC_TYPE);
  if (t == NULL) return NULL;
  t->params = trx__ref(params);
  t->ret = trx__ref(ret);
  t->purity = purity;
  return (TVMFFIObject*)t;
}

/*
 * Normalizes shape values into a new Array of int64 prim exprs: a plain int becomes an
 * int64 IntImm, an integer IntImm of another width is re-made as int64, any other Expr must
 * already have ty PrimType(int64).
 */
static TVMFFIObject* trx__shape_values(const char* fname, const char* argname, TVMFFIObject* values) {
  TVMFFIObject** items = NULL;
  TVMFFIObject* out = NULL;
  int64_t n = 0, done = 0;
  if (!trx__is_array(values)) {
    tether_raise("TypeError", "%s: argument `%s` expected `Array<ir.Expr>` but got `%s`", fname,
                 argname, trx__key(values));
    return NULL;
  }
  n = tether_array_size(values);
  items = calloc((size_t)(n > 0 ? n : 1), sizeof(*items));
  if (items == NULL) {
    tether_raise("MemoryError", "%s: out of memory", fname);
    return NULL;
  }
  for (; done < n; ++done) {
    const TVMFFIAny* v = tether_array_at(values, done);
    if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
      items[done] = trx_int_imm_new(trx__dtype_int64, v->v_int64);
      if (items[done] == NULL) goto fail;
      continue;
    }
    if (!tether_any_is_object(v) || !trx_is(v->v_obj, TRX_EXPR)) {
      tether_raise("TypeError", "%s: argument `%s` expected `Array<ir.Expr>` but got `Array[index %lld: %s]`",
                   fname, argname, (long long)done, tether_any_type_key(v));
      goto fail;
    }
    TVMFFIObject* e = v->v_obj;
    if (trx_is(e, TRX_INT_IMM)) {
      const trx_int_imm_t* imm = (const trx_int_imm_t*)e;
      const trx_prim_type_t* pt = (const trx_prim_type_t*)imm->base.ty;
      if (pt != NULL && (pt->dtype.code == kDLInt || pt->dtype.code == kDLUInt) &&
          !trx__dtype_equal(pt->dtype, trx__dtype_int64)) {
        items[done] = trx_int_imm_new(trx__dtype_int64, imm->value);
        if (items[done] == NULL) goto fail;
        continue;
      }
    }
    TVMFFIObject* ty = trx__ty(e);
    if (!trx_is(ty, TRX_PRIM_TYPE) ||
        !trx__dtype_equal(((trx_prim_type_t*)ty)->dtype, trx__dtype_int64)) {
      tether_raise("InternalError", "the value in ShapeType can only have dtype of int64");
      goto fail;
    }
    items[done] = trx__ref(e);
  }
  /* Nothing converted: the Array itself (as TVM keeps it). */
  bool same = true;
  for (int64_t i = 0; i < n && same; ++i) same = tether_array_at(values, i)->v_obj == items[i];
  out = same ? trx__ref(values) : trx__array_of(items, n);
fail:
  for (int64_t i = 0; i < done; ++i) TVMFFIObjectDecRef(items[i]);
  free(items);
  return out;
}

/* ShapeType over already-normalized values (borrowed) or ndim. */
static TVMFFIObject* trx__shape_type_raw(TVMFFIObject* values, int64_t ndim) {
  trx_shape_type_t* t = (trx_shape_type_t*)trx__alloc(TRX_SHAPE_TYPE);
  if (t == NULL) return NULL;
  t->values = trx__ref(values);
  t->ndim = values != NULL ? tether_array_size(values) : ndim;
  return (TVMFFIObject*)t;
}

TVMFFIObject* trx_shape_type_new(TVMFFIObject* values, int64_t ndim) {
  if (values != NULL && ndim != -1) {
    tether_raise("ValueError", "Check failed: ndim == kUnknownNDim (%lld vs. -1) : Cannot both specify values and ndim",
                 (long long)ndim);
    return NULL;
  }
  if (ndim < -1) {
    tether_raise("InternalError", "Check failed: (ndim >= -1) is false: ndim of ShapeType must be >= -1, but got %lld", (long long)ndim);
    return NULL;
  }
  if (values == NULL) return trx__shape_type_raw(NULL, ndim);
  TVMFFIObject* vals = trx__shape_values("relax.ShapeType", "values", values);
  if (vals == NULL) return NULL;
  TVMFFIObject* t = trx__shape_type_raw(vals, -1);
  TVMFFIObjectDecRef(vals);
  return t;
}

TVMFFIObject* trx_tensor_type_new(TVMFFIObject* shape, DLDataType dtype, int64_t ndim) {
  if (shape != NULL && ndim != -1) {
    tether_raise("ValueError", "Check failed: ndim == kUnknownNDim (%lld vs. -1) : Cannot both specify shape and ndim",
                 (long long)ndim);
    return NULL;
  }
  if (ndim < -1) {
    tether_raise("InternalError", "Check failed: (ndim >= -1) is false: ndim of TensorType must be >= -1, but got %lld", (long long)ndim);
    return NULL;
  }
  if (shape != NULL) {
    TVMFFIObject* sty = trx__ty(shape);
    if (!trx_is(sty, TRX_SHAPE_TYPE)) {
      tether_raise("InternalError", "Check failed: (shape_ty) is false: We expect shape to contain pre-set shape type");
      return NULL;
    }
    ndim = ((trx_shape_type_t*)sty)->ndim;
  }
  trx_tensor_type_t* t = (trx_tensor_type_t*)trx__alloc(TRX_TENSOR_TYPE);
  if (t == NULL) return NULL;
  t->shape = trx__ref(shape);
  if (!trx__dtype_is_void(dtype) && (t->dtype = trx__prim_type_shared(dtype)) == NULL) {
    TVMFFIObjectDecRef(t);
    return NULL;
  }
  t->vdevice = NULL;
  t->ndim = ndim;
  return (TVMFFIObject*)t;
}

/* ---- expressions ------------------------------------------------------------------------ */

TVMFFIObject* trx_var_new(const char* name, size_t name_len, TVMFFIObject* ty, bool dataflow) {
  if (ty != NULL && !trx_is(ty, TRX_TYPE)) {
    tether_raise("TypeError", "%s",
                 dataflow ? "ty needs to be an instance of Type. If you attempt to pass in shape, "
                            "use relax.TensorType(shape, dtype)."
                          : "ty must be a Type or primitive dtype string");
    return NULL;
  }
  trx_var_t* v = (trx_var_t*)trx__alloc(dataflow ? TRX_DATAFLOW_VAR : TRX_VAR);
  if (v == NULL) return NULL;
  if (tether_any_str(name ? name : "", name ? name_len : 0, &v->name) != 0) {
    TVMFFIObjectDecRef(v);
    return NULL;
  }
  v->base.ty = trx__ref(ty);
  return (TVMFFIObject*)v;
}

/* An Expr node of `kind` whose ty is PrimType(dtype) (the shared one for common dtypes);
 * NULL on failure. */
static TVMFFIObject* trx__prim_expr_alloc(trx_kind kind, DLDataType dtype) {
  trx_expr_t* e = (trx_expr_t*)trx__alloc(kind);
  if (e == NULL) return NULL;
  e->ty = trx__prim_type_shared(dtype);
  if (e->ty == NULL) {
    TVMFFIObjectDecRef(e);
    return NULL;
  }
  return (TVMFFIObject*)e;
}

TVMFFIObject* trx_int_imm_new(DLDataType dtype, int64_t value) {
  char ds[64];
  if (dtype.code == kDLInt && dtype.bits == 64 && dtype.lanes == 1) { /* the common case: no checks */
    trx_int_imm_t* imm = (trx_int_imm_t*)trx__prim_expr_alloc(TRX_INT_IMM, dtype);
    if (imm != NULL) imm->value = value;
    return (TVMFFIObject*)imm;
  }
  trx__dtype_str(dtype, ds, sizeof(ds)); /* for the error texts below */
  if (dtype.lanes != 1) {
    tether_raise("ValueError", "IntImm can only take scalar, but %s was supplied.", ds);
    return NULL;
  }
  if (dtype.code != kDLInt && dtype.code != kDLUInt && dtype.code != kDLBool) {
    tether_raise("ValueError", "IntImm supports only int or uint or bool type, but %s was supplied.", ds);
    return NULL;
  }
  if (dtype.code == kDLBool) {
    if (value != 0 && value != 1) {
      tether_raise("ValueError", "%lld exceeds range of bool", (long long)value);
      return NULL;
    }
  } else if (dtype.code == kDLUInt) {
    if (value < 0) {
      tether_raise("ValueError", "Literal value %lld is negative for unsigned integer type %s",
                   (long long)value, ds);
      return NULL;
    }
    if (dtype.bits < 64 && (uint64_t)value >= (UINT64_C(1) << dtype.bits)) {
      tether_raise("ValueError", "Literal value %lld exceeds maximum of %s", (long long)value, ds);
      return NULL;
    }
  } else if (dtype.bits > 0 && dtype.bits < 64) {
    int64_t lim = INT64_C(1) << (dtype.bits - 1);
    if (value < -lim || value >= lim) {
      tether_raise("ValueError", "Literal value %lld exceeds range of %s", (long long)value, ds);
      return NULL;
    }
  }
  trx_int_imm_t* imm = (trx_int_imm_t*)trx__prim_expr_alloc(TRX_INT_IMM, dtype);
  if (imm != NULL) imm->value = value;
  return (TVMFFIObject*)imm;
}

TVMFFIObject* trx_float_imm_new(DLDataType dtype, double value) {
  char ds[64];
  if (dtype.code == kDLFloat && (dtype.bits == 32 || dtype.bits == 64) && dtype.lanes == 1) {
    trx_float_imm_t* imm = (trx_float_imm_t*)trx__prim_expr_alloc(TRX_FLOAT_IMM, dtype);
    if (imm != NULL) imm->value = value;
    return (TVMFFIObject*)imm;
  }
  trx__dtype_str(dtype, ds, sizeof(ds)); /* for the error texts below */
  bool is_float = dtype.code == kDLFloat || dtype.code == kDLBfloat ||
                  (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
  if (dtype.lanes != 1) {
    tether_raise("ValueError", "FloatImm can only take scalar, but %s was supplied.", ds);
    return NULL;
  }
  if (!is_float) {
    tether_raise("ValueError", "FloatImm supports only float, but %s was supplied.", ds);
    return NULL;
  }
  if (dtype.code == kDLFloat && dtype.bits == 16 && isfinite(value)) {
    if (value < -65504.0) {
      tether_raise("ValueError", "Literal value %g exceeds minimum of %s", value, ds);
      return NULL;
    }
    if (value > 65504.0) {
      tether_raise("ValueError", "Literal value %g exceeds maximum of %s", value, ds);
      return NULL;
    }
  }
  trx_float_imm_t* imm = (trx_float_imm_t*)trx__prim_expr_alloc(TRX_FLOAT_IMM, dtype);
  if (imm != NULL) imm->value = value;
  return (TVMFFIObject*)imm;
}

/* As in TVM, a StringImm's type is a StringType of its own. */
TVMFFIObject* trx_string_imm_new(const char* s, size_t n) {
  trx_string_imm_t* imm = (trx_string_imm_t*)trx__alloc(TRX_STRING_IMM);
  if (imm == NULL) return NULL;
  imm->base.ty = trx_string_type_new();
  if (imm->base.ty == NULL || tether_any_str(s ? s : "", s ? n : 0, &imm->value) != 0) {
    TVMFFIObjectDecRef(imm);
    return NULL;
  }
  return (TVMFFIObject*)imm;
}

TVMFFIObject* trx_datatype_imm_new(DLDataType value) {
  trx_datatype_imm_t* imm = (trx_datatype_imm_t*)trx__alloc(TRX_DATATYPE_IMM);
  if (imm != NULL) imm->value = value;
  return (TVMFFIObject*)imm;
}

/* TensorType(ShapeExpr(dims), dtype) of a tensor's DLTensor. */
static TVMFFIObject* trx__tensor_type_of(const DLTensor* dl) {
  TVMFFIObject** dims = calloc((size_t)(dl->ndim > 0 ? dl->ndim : 1), sizeof(*dims));
  TVMFFIObject *arr = NULL, *shape = NULL, *ty = NULL;
  int32_t made = 0;
  if (dims == NULL) {
    tether_raise("MemoryError", "ir.GenericConst: out of memory");
    return NULL;
  }
  for (; made < dl->ndim; ++made) {
    dims[made] = trx_int_imm_new(trx__dtype_int64, dl->shape[made]);
    if (dims[made] == NULL) goto fail;
  }
  arr = trx__array_of(dims, dl->ndim);
  if (arr == NULL) goto fail;
  shape = trx_shape_expr_new(arr);
  if (shape == NULL) goto fail;
  ty = trx_tensor_type_new(shape, dl->dtype, -1);
fail:
  for (int32_t i = 0; i < made; ++i) TVMFFIObjectDecRef(dims[i]);
  free(dims);
  if (arr) TVMFFIObjectDecRef(arr);
  if (shape) TVMFFIObjectDecRef(shape);
  return ty;
}

TVMFFIObject* trx_tensor_const_new(TVMFFIObject* tensor, TVMFFIObject* ty) {
  static const char fn[] = "ir.GenericConst";
  const DLTensor* dl = tether_tensor_dl(tensor);
  if (dl == NULL) {
    tether_raise("TypeError", "%s: argument `data` must be a Tensor, but got %s", fn, trx__key(tensor));
    return NULL;
  }
  if (trx__check_kind(fn, "ty", ty, TRX_TYPE, true) != 0) return NULL;
  TVMFFIObject* own_ty = ty != NULL ? trx__ref(ty) : trx__tensor_type_of(dl);
  if (own_ty == NULL) return NULL;
  trx_tensor_const_t* c = (trx_tensor_const_t*)trx__alloc(TRX_TENSOR_CONST);
  if (c == NULL) {
    TVMFFIObjectDecRef(own_ty);
    return NULL;
  }
  TVMFFIAny view = tether_any_object(tensor);
  tether_any_copy(&view, &c->value);
  c->base.ty = own_ty;
  return (TVMFFIObject*)c;
}

TVMFFIObject* trx_binop_new(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b) {
  if (kind < TRX_PRIM_ADD || kind > TRX_PRIM_MAX) {
    tether_raise("ValueError", "trx_binop_new: kind %d is not a prim binop", (int)kind);
    return NULL;
  }
  const char* fn = trx__kinds[kind].key;
  TVMFFIObject* at = trx__ty(a);
  TVMFFIObject* bt = trx__ty(b);
  if (!trx_is(at, TRX_PRIM_TYPE) || !trx_is(bt, TRX_PRIM_TYPE)) {
    tether_raise("TypeError", "%s: operands must be primitive expressions (an Expr with a PrimType ty), but got %s and %s",
                 fn, trx__key(a), trx__key(b));
    return NULL;
  }
  DLDataType ad = ((trx_prim_type_t*)at)->dtype, bd = ((trx_prim_type_t*)bt)->dtype;
  if (!trx__dtype_equal(ad, bd)) {
    char as[64], bs[64];
    trx__dtype_str(ad, as, sizeof(as));
    trx__dtype_str(bd, bs, sizeof(bs));
    tether_raise("TypeError", "mismatched types. %s vs. %s", as, bs);
    return NULL;
  }
  trx_binop_t* e = (trx_binop_t*)trx__alloc(kind);
  if (e == NULL) return NULL;
  e->a = trx__ref(a);
  e->b = trx__ref(b);
  e->base.ty = trx__ref(at);
  return (TVMFFIObject*)e;
}

TVMFFIObject* trx__call_new_steal(TVMFFIObject* op, TVMFFIObject* args, TVMFFIObject* attrs,
                                  TVMFFIObject* ty_args) {
  trx_call_t* c = (trx_call_t*)trx__alloc(TRX_CALL);
  if (c == NULL) {
    TVMFFIObjectDecRef(args);
    TVMFFIObjectDecRef(ty_args);
    if (attrs) TVMFFIObjectDecRef(attrs);
    return NULL;
  }
  c->op = trx__ref(op);
  c->args = args;
  c->attrs = attrs;
  c->ty_args = ty_args;
  return (TVMFFIObject*)c;
}

TVMFFIObject* trx_call_new(TVMFFIObject* op, TVMFFIObject* args, TVMFFIObject* attrs,
                           TVMFFIObject* ty_args) {
  static const char fn[] = "ir.Call";
  if (trx__check_kind(fn, "op", op, TRX_EXPR, false) != 0) return NULL;
  if (trx__check_kind(fn, "attrs", attrs, TRX_ATTRS, true) != 0) return NULL;
  TVMFFIObject* a = trx__array_arg(fn, "args", args, TRX_EXPR);
  if (a == NULL) return NULL;
  TVMFFIObject* t = trx__array_arg(fn, "ty_args", ty_args, TRX_TYPE);
  trx_call_t* c = t != NULL ? (trx_call_t*)trx__alloc(TRX_CALL) : NULL;
  if (c == NULL) {
    TVMFFIObjectDecRef(a);
    if (t) TVMFFIObjectDecRef(t);
    return NULL;
  }
  c->op = trx__ref(op);
  c->args = a;
  c->attrs = trx__ref(attrs);
  c->ty_args = t;
  return (TVMFFIObject*)c;
}

TVMFFIObject* trx_tuple_new(TVMFFIObject* fields) {
  TVMFFIObject* arr = trx__array_arg("ir.Tuple", "fields", fields, TRX_EXPR);
  TVMFFIObject** tys = NULL;
  trx_tuple_t* t = NULL;
  if (arr == NULL) return NULL;
  int64_t n = tether_array_size(arr);
  bool all_typed = true;
  tys = calloc((size_t)(n > 0 ? n : 1), sizeof(*tys));
  if (tys == NULL) {
    tether_raise("MemoryError", "ir.Tuple: out of memory");
    goto fail;
  }
  for (int64_t i = 0; i < n; ++i) {
    tys[i] = trx__ty(trx__array_obj(arr, i));
    if (tys[i] == NULL) all_typed = false;
  }
  t = (trx_tuple_t*)trx__alloc(TRX_TUPLE);
  if (t == NULL) goto fail;
  t->fields = trx__ref(arr);
  if (all_typed) {
    TVMFFIObject* ty_arr = trx__array_of(tys, n);
    if (ty_arr != NULL) {
      t->base.ty = trx_tuple_type_new(ty_arr);
      TVMFFIObjectDecRef(ty_arr);
    }
    if (t->base.ty == NULL) {
      TVMFFIObjectDecRef(t);
      t = NULL;
    }
  }
fail:
  free(tys);
  TVMFFIObjectDecRef(arr);
  return (TVMFFIObject*)t;
}

TVMFFIObject* trx_tuple_get_item_new(TVMFFIObject* tuple_value, int64_t index) {
  static const char fn[] = "ir.TupleGetItem";
  if (trx__check_kind(fn, "tuple_value", tuple_value, TRX_EXPR, false) != 0) return NULL;
  TVMFFIObject* tty = trx__ty(tuple_value);
  TVMFFIObject* field_ty = NULL;
  if (index < 0 || trx_is(tty, TRX_TUPLE_TYPE)) {
    int64_t n = index < 0 ? 0 : tether_array_size(((trx_tuple_type_t*)tty)->fields);
    if (index < 0 || index >= n) {
      char repr[512];
      trx__repr(tuple_value, repr, sizeof(repr));
      if (index < 0) {
        tether_raise("IndexError", "Index out of bounds: Tuple %s cannot be accessed with negative index %lld",
                     repr, (long long)index);
      } else {
        tether_raise("IndexError", "Index out of bounds: Tuple %s is of size %lld, and cannot be accessed with index %lld",
                     repr, (long long)n, (long long)index);
      }
      return NULL;
    }
    field_ty = trx__array_obj(((trx_tuple_type_t*)tty)->fields, index);
  }
  trx_tuple_get_item_t* g = (trx_tuple_get_item_t*)trx__alloc(TRX_TUPLE_GET_ITEM);
  if (g == NULL) return NULL;
  g->tuple_value = trx__ref(tuple_value);
  g->index = index;
  g->base.ty = trx__ref(field_ty);
  return (TVMFFIObject*)g;
}

/* As in TVM, values given as plain integers are converted to IntImm once for the ShapeExpr
 * and once more for its ShapeType: equal values, distinct objects (what a JSON graph shows). */
TVMFFIObject* trx_shape_expr_new(TVMFFIObject* values) {
  static const char fn[] = "relax.ShapeExpr";
  TVMFFIObject* vals = values != NULL ? trx__shape_values(fn, "values", values) : trx__empty_array();
  if (vals == NULL) return NULL;
  bool plain = false;
  for (int64_t i = 0, n = values != NULL ? tether_array_size(values) : 0; i < n && !plain; ++i) {
    plain = !tether_any_is_object(tether_array_at(values, i));
  }
  TVMFFIObject* ty_vals = plain ? trx__shape_values(fn, "values", values) : trx__ref(vals);
  trx_shape_expr_t* s = ty_vals != NULL ? (trx_shape_expr_t*)trx__alloc(TRX_SHAPE_EXPR) : NULL;
  if (s != NULL) {
    s->values = trx__ref(vals);
    s->base.ty = trx__shape_type_raw(ty_vals, -1);
    if (s->base.ty == NULL) {
      TVMFFIObjectDecRef(s);
      s = NULL;
    }
  }
  TVMFFIObjectDecRef(vals);
  if (ty_vals != NULL) TVMFFIObjectDecRef(ty_vals);
  return (TVMFFIObject*)s;
}

TVMFFIObject* trx_global_var_new(const char* name, size_t len) {
  trx_global_var_t* g = (trx_global_var_t*)trx__alloc(TRX_GLOBAL_VAR);
  if (g == NULL) return NULL;
  if (tether_any_str(name ? name : "", name ? len : 0, &g->name_hint) != 0) {
    TVMFFIObjectDecRef(g);
    return NULL;
  }
  return (TVMFFIObject*)g;
}

TVMFFIObject* trx_seq_expr_new(TVMFFIObject* blocks, TVMFFIObject* body) {
  static const char fn[] = "relax.SeqExpr";
  if (trx__check_kind(fn, "body", body, TRX_EXPR, false) != 0) return NULL;
  TVMFFIObject* arr = trx__array_arg(fn, "blocks", blocks, TRX_BINDING_BLOCK);
  if (arr == NULL) return NULL;
  trx_seq_expr_t* s = (trx_seq_expr_t*)trx__alloc(TRX_SEQ_EXPR);
  if (s == NULL) {
    TVMFFIObjectDecRef(arr);
    return NULL;
  }
  s->blocks = arr;
  s->body = trx__ref(body);
  return (TVMFFIObject*)s;
}

/* `e` itself (new reference) if it is a SeqExpr, else SeqExpr([], e). */
static TVMFFIObject* trx__as_seq(TVMFFIObject* e) {
  if (trx_is(e, TRX_SEQ_EXPR)) return trx__ref(e);
  return trx_seq_expr_new(NULL, e);
}

/*
 * A function's default return type is the body's type with the symbolic vars that the
 * params do not define erased (TVM's EraseToWellDefined): a TensorType whose shape uses
 * an undefined var keeps only dtype and ndim, a ShapeType keeps only ndim, a TupleType
 * erases field by field.  Params define the vars that are whole dims of their types
 * (n in (n, 3), not in (n * 2, 3)), and the params themselves (a shape Var used as a
 * tensor's shape).
 */
typedef struct {
  const TVMFFIObject** v;
  size_t n, cap;
  bool oom;
} trx__vset;

static bool trx__vset_has(const trx__vset* s, const TVMFFIObject* v) {
  for (size_t i = 0; i < s->n; ++i) {
    if (s->v[i] == v) return true;
  }
  return false;
}

static void trx__vset_add(trx__vset* s, const TVMFFIObject* v) {
  if (trx__vset_has(s, v)) return;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 8;
    const TVMFFIObject** p = realloc(s->v, cap * sizeof(*p));
    if (p == NULL) {
      s->oom = true;
      return;
    }
    s->v = p;
    s->cap = cap;
  }
  s->v[s->n++] = v;
}

/* Adds (collect) or checks (s is read-only: returns false at the first var not in s). */
static bool trx__expr_vars(const TVMFFIObject* e, trx__vset* s, bool collect) {
  if (trx_is(e, TRX_VAR)) {
    if (collect) trx__vset_add(s, e);
    return collect || trx__vset_has(s, e);
  }
  if (collect) return true; /* only a dim that is itself a var defines it (not n in n * 2) */
  for (int k = TRX_PRIM_ADD; k <= TRX_PRIM_MAX; ++k) {
    if (trx_is(e, (trx_kind)k)) {
      const trx_binop_t* b = (const trx_binop_t*)e;
      return trx__expr_vars(b->a, s, collect) && trx__expr_vars(b->b, s, collect);
    }
  }
  return true;
}

static bool trx__values_vars(TVMFFIObject* values, trx__vset* s, bool collect) {
  int64_t n = values ? tether_array_size(values) : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!trx__expr_vars(trx__array_obj(values, i), s, collect)) return false;
  }
  return true;
}

static void trx__collect_type_vars(const TVMFFIObject* t, trx__vset* s) {
  if (trx_is(t, TRX_TENSOR_TYPE)) {
    const TVMFFIObject* shape = ((const trx_tensor_type_t*)t)->shape;
    if (trx_is(shape, TRX_SHAPE_EXPR)) trx__values_vars(((const trx_shape_expr_t*)shape)->values, s, true);
    else if (shape != NULL) trx__expr_vars(shape, s, true);
  } else if (trx_is(t, TRX_SHAPE_TYPE)) {
    trx__values_vars(((const trx_shape_type_t*)t)->values, s, true);
  } else if (trx_is(t, TRX_TUPLE_TYPE)) {
    TVMFFIObject* fields = ((const trx_tuple_type_t*)t)->fields;
    for (int64_t i = 0; i < tether_array_size(fields); ++i) trx__collect_type_vars(trx__array_obj(fields, i), s);
  }
}

/* New reference to `t` with undefined vars erased. */
static TVMFFIObject* trx__erase_type(TVMFFIObject* t, trx__vset* s) {
  if (trx_is(t, TRX_TENSOR_TYPE)) {
    const trx_tensor_type_t* tt = (const trx_tensor_type_t*)t;
    bool ok = tt->shape == NULL ||
              (trx_is(tt->shape, TRX_SHAPE_EXPR) ? trx__values_vars(((trx_shape_expr_t*)tt->shape)->values, s, false)
                                                  : trx__expr_vars(tt->shape, s, false));
    if (ok) return trx__ref(t);
    TVMFFIObject* r = trx_tensor_type_new(NULL, trx_tensor_dtype(tt), tt->ndim);
    if (r != NULL) ((trx_tensor_type_t*)r)->vdevice = trx__ref(tt->vdevice);
    return r;
  }
  if (trx_is(t, TRX_SHAPE_TYPE)) {
    const trx_shape_type_t* st = (const trx_shape_type_t*)t;
    if (st->values == NULL || trx__values_vars(st->values, s, false)) return trx__ref(t);
    return trx__shape_type_raw(NULL, st->ndim);
  }
  if (trx_is(t, TRX_TUPLE_TYPE)) {
    TVMFFIObject* fields = ((const trx_tuple_type_t*)t)->fields;
    int64_t n = tether_array_size(fields);
    TVMFFIObject** items = calloc((size_t)(n > 0 ? n : 1), sizeof(*items));
    TVMFFIObject* r = NULL;
    bool changed = false;
    int64_t done = 0;
    if (items == NULL) {
      tether_raise("MemoryError", "relax.Function: out of memory");
      return NULL;
    }
    for (; done < n; ++done) {
      items[done] = trx__erase_type(trx__array_obj(fields, done), s);
      if (items[done] == NULL) goto done;
      if (items[done] != trx__array_obj(fields, done)) changed = true;
    }
    if (!changed) {
      r = trx__ref(t);
    } else {
      TVMFFIObject* a = trx__array_of(items, n);
      if (a != NULL) {
        r = trx_tuple_type_new(a);
        TVMFFIObjectDecRef(a);
      }
    }
  done:
    for (int64_t i = 0; i < done; ++i) TVMFFIObjectDecRef(items[i]);
    free(items);
    return r;
  }
  return trx__ref(t);
}

TVMFFIObject* trx_function_new(TVMFFIObject* params, TVMFFIObject* body, TVMFFIObject* ret_ty,
                               bool is_pure, TVMFFIObject* attrs) {
  static const char fn[] = "relax.Function";
  TVMFFIObject *ps = NULL, *seq = NULL, *ptys = NULL, *fty = NULL, *ret = NULL, *own_attrs = NULL;
  TVMFFIObject** tys = NULL;
  trx_function_t* f = NULL;
  if (trx__check_kind(fn, "body", body, TRX_EXPR, false) != 0) return NULL;
  if (trx__check_kind(fn, "ret_ty", ret_ty, TRX_TYPE, true) != 0) return NULL;
  if (trx__check_kind(fn, "attrs", attrs, TRX_DICT_ATTRS, true) != 0) return NULL;
  ps = trx__array_arg(fn, "params", params, TRX_VAR);
  if (ps == NULL) return NULL;
  int64_t n = tether_array_size(ps);
  tys = calloc((size_t)(n > 0 ? n : 1), sizeof(*tys));
  if (tys == NULL) {
    tether_raise("MemoryError", "%s: out of memory", fn);
    goto fail;
  }
  for (int64_t i = 0; i < n; ++i) {
    tys[i] = trx__ty(trx__array_obj(ps, i));
    if (tys[i] == NULL) {
      tether_raise("InternalError", "relax.Function requires params to contain ty");
      goto fail;
    }
  }
  if (ret_ty == NULL && trx__ty(body) == NULL) {
    tether_raise("InternalError",
                 "Function must be constructed with either an explicit type for the return type, "
                 "or a normalized body with type.");
    goto fail;
  }
  if (ret_ty != NULL) {
    ret = trx__ref(ret_ty);
  } else {
    trx__vset defined = {0};
    for (int64_t i = 0; i < n; ++i) {
      trx__vset_add(&defined, trx__array_obj(ps, i));
      trx__collect_type_vars(tys[i], &defined);
    }
    ret = defined.oom ? NULL : trx__erase_type(trx__ty(body), &defined);
    if (defined.oom) tether_raise("MemoryError", "%s: out of memory", fn);
    free(defined.v);
    if (ret == NULL) goto fail;
  }
  seq = trx__as_seq(body);
  if (seq == NULL) goto fail;
  ptys = trx__array_of(tys, n);
  if (ptys == NULL) goto fail;
  fty = trx_func_type_new(ptys, ret, is_pure);
  if (fty == NULL) goto fail;
  own_attrs = attrs != NULL ? trx__ref(attrs) : trx_dict_attrs_new(NULL);
  if (own_attrs == NULL) goto fail;
  f = (trx_function_t*)trx__alloc(TRX_FUNCTION);
  if (f == NULL) goto fail;
  f->params = ps;
  f->body = seq;
  f->ret_ty = ret;
  f->is_pure = is_pure;
  f->base.attrs = own_attrs;
  f->base.base.ty = fty;
  ps = seq = fty = ret = own_attrs = NULL;
fail:
  free(tys);
  if (ret) TVMFFIObjectDecRef(ret);
  if (ps) TVMFFIObjectDecRef(ps);
  if (seq) TVMFFIObjectDecRef(seq);
  if (ptys) TVMFFIObjectDecRef(ptys);
  if (fty) TVMFFIObjectDecRef(fty);
  if (own_attrs) TVMFFIObjectDecRef(own_attrs);
  return (TVMFFIObject*)f;
}

/* ir.EnvFunc named `name` (new reference), NULL with an error raised. */
static TVMFFIObject* trx__env_func_new(const char* name, size_t len) {
  trx_env_func_t* e = (trx_env_func_t*)trx__alloc(TRX_ENV_FUNC);
  if (e != NULL && tether_any_str(name, len, &e->name) != 0) {
    TVMFFIObjectDecRef(e);
    e = NULL;
  }
  return (TVMFFIObject*)e;
}

/* ir.EnvFunc's JSON graph encoding (type attributes __data_to_json__ / __data_from_json__):
 * its name as a JSON string. */
static int trx__env_func_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.EnvFunc.__data_to_json__";
  (void)self;
  if (tether_check_nargs(fn, "(0: ir.EnvFunc) -> str", n, 1) != 0) return -1;
  if (!tether_any_is_object(&args[0]) || !trx_is(args[0].v_obj, TRX_ENV_FUNC)) {
    return tether_raise("TypeError", "%s: argument 0 must be an ir.EnvFunc, but got `%s`", fn,
                        tether_any_type_key(&args[0]));
  }
  TVMFFIByteArray name = trx__str(&((const trx_env_func_t*)args[0].v_obj)->name);
  return tether_any_str(name.data, name.size, rv);
}

static int trx__env_func_from_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.EnvFunc.__data_from_json__";
  (void)self;
  TVMFFIByteArray name;
  if (tether_check_nargs(fn, "(0: str) -> ir.EnvFunc", n, 1) != 0) return -1;
  if (!tether_any_get_str(&args[0], &name)) {
    return tether_raise("TypeError", "%s: an ir.EnvFunc is written as its name (a JSON string), but got `%s`",
                        fn, tether_any_type_key(&args[0]));
  }
  TVMFFIObject* e = trx__env_func_new(name.data, name.size);
  if (e == NULL) return -1;
  *rv = tether_any_object(e); /* the Any takes over the new reference */
  return 0;
}

int trx__register_json_hooks(int32_t type_index, TVMFFISafeCallType to_json, TVMFFISafeCallType from_json) {
  const struct {
    const char* column;
    TVMFFISafeCallType fn;
  } hooks[] = {{"__data_to_json__", to_json}, {"__data_from_json__", from_json}};
  for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); ++i) {
    TVMFFIObjectHandle f = NULL;
    TVMFFIByteArray column = {hooks[i].column, strlen(hooks[i].column)};
    if (TVMFFIFunctionCreate(NULL, hooks[i].fn, NULL, &f) != 0) return -1;
    TVMFFIAny v = tether_any_object(f);
    int rc = TVMFFITypeRegisterAttr(type_index, &column, &v);
    TVMFFIObjectDecRef(f);
    if (rc != 0) return -1;
  }
  return 0;
}

/* The derive_func TVM gives an ExternFunc's default type. */
static const char trx__infer_by_ty_args[] = "tvm.relax.type.infer_by_ty_args";

TVMFFIObject* trx_extern_func_new(const char* global_symbol, size_t len, TVMFFIObject* ty) {
  if (trx__check_kind("relax.ExternFunc", "ty", ty, TRX_TYPE, true) != 0) return NULL;
  TVMFFIObject* own_ty = NULL;
  if (ty != NULL) {
    own_ty = trx__ref(ty);
  } else {
    TVMFFIObject* any = trx_any_type_new();
    if (any == NULL) return NULL;
    own_ty = trx_func_type_new(NULL, any, false);
    TVMFFIObjectDecRef(any);
    if (own_ty == NULL) return NULL;
    TVMFFIObject* derive = trx__env_func_new(trx__infer_by_ty_args, sizeof(trx__infer_by_ty_args) - 1);
    if (derive == NULL) {
      TVMFFIObjectDecRef(own_ty);
      return NULL;
    }
    ((trx_func_type_t*)own_ty)->derive_func = derive;
  }
  trx_extern_func_t* f = (trx_extern_func_t*)trx__alloc(TRX_EXTERN_FUNC);
  if (f == NULL || tether_any_str(global_symbol ? global_symbol : "", global_symbol ? len : 0,
                                  &f->global_symbol) != 0 ||
      (f->base.attrs = trx_dict_attrs_new(NULL)) == NULL) {
    if (f) TVMFFIObjectDecRef(f);
    TVMFFIObjectDecRef(own_ty);
    return NULL;
  }
  f->base.base.ty = own_ty;
  return (TVMFFIObject*)f;
}

TVMFFIObject* trx_if_new(TVMFFIObject* cond, TVMFFIObject* t, TVMFFIObject* f) {
  static const char fn[] = "relax.If";
  if (trx__check_kind(fn, "cond", cond, TRX_EXPR, false) != 0 ||
      trx__check_kind(fn, "true_branch", t, TRX_EXPR, false) != 0 ||
      trx__check_kind(fn, "false_branch", f, TRX_EXPR, false) != 0) {
    return NULL;
  }
  TVMFFIObject* ts = trx__as_seq(t);
  TVMFFIObject* fs = ts != NULL ? trx__as_seq(f) : NULL;
  trx_if_t* node = fs != NULL ? (trx_if_t*)trx__alloc(TRX_IF) : NULL;
  if (node == NULL) {
    if (ts) TVMFFIObjectDecRef(ts);
    if (fs) TVMFFIObjectDecRef(fs);
    return NULL;
  }
  node->cond = trx__ref(cond);
  node->true_branch = ts;
  node->false_branch = fs;
  return (TVMFFIObject*)node;
}

/* ---- bindings, blocks, module, attrs ------------------------------------------------------ */

TVMFFIObject* trx_var_binding_new(TVMFFIObject* var, TVMFFIObject* value) {
  static const char fn[] = "relax.VarBinding";
  if (trx__check_kind(fn, "var", var, TRX_VAR, false) != 0 ||
      trx__check_kind(fn, "value", value, TRX_EXPR, false) != 0) {
    return NULL;
  }
  trx_var_binding_t* b = (trx_var_binding_t*)trx__alloc(TRX_VAR_BINDING);
  if (b == NULL) return NULL;
  b->base.var = trx__ref(var);
  b->value = trx__ref(value);
  return (TVMFFIObject*)b;
}

TVMFFIObject* trx_match_cast_new(TVMFFIObject* var, TVMFFIObject* value, TVMFFIObject* ty) {
  static const char fn[] = "relax.MatchCast";
  if (trx__check_kind(fn, "var", var, TRX_VAR, false) != 0 ||
      trx__check_kind(fn, "value", value, TRX_EXPR, false) != 0 ||
      trx__check_kind(fn, "ty", ty, TRX_TYPE, false) != 0) {
    return NULL;
  }
  trx_match_cast_t* b = (trx_match_cast_t*)trx__alloc(TRX_MATCH_CAST);
  if (b == NULL) return NULL;
  b->base.var = trx__ref(var);
  b->value = trx__ref(value);
  b->ty = trx__ref(ty);
  return (TVMFFIObject*)b;
}

TVMFFIObject* trx_binding_block_new(TVMFFIObject* bindings, bool dataflow) {
  const char* fn = dataflow ? "relax.DataflowBlock" : "relax.BindingBlock";
  TVMFFIObject* arr = trx__array_arg(fn, "bindings", bindings, TRX_BINDING);
  if (arr == NULL) return NULL;
  trx_binding_block_t* b =
      (trx_binding_block_t*)trx__alloc(dataflow ? TRX_DATAFLOW_BLOCK : TRX_BINDING_BLOCK);
  if (b == NULL) {
    TVMFFIObjectDecRef(arr);
    return NULL;
  }
  b->bindings = arr;
  return (TVMFFIObject*)b;
}

static TVMFFIObject* trx__empty_map(void) {
  TVMFFIObjectHandle m = NULL;
  return tether_map_new(NULL, 0, &m) == 0 ? (TVMFFIObject*)m : NULL;
}

/* An empty ir.SourceMap (new reference), NULL with an error raised. */
static TVMFFIObject* trx__source_map_new(void) {
  TVMFFIObject* map = trx__empty_map();
  if (map == NULL) return NULL;
  trx_source_map_t* sm = (trx_source_map_t*)trx__alloc(TRX_SOURCE_MAP);
  if (sm == NULL) {
    TVMFFIObjectDecRef(map);
    return NULL;
  }
  sm->source_map = map;
  return (TVMFFIObject*)sm;
}

/* As TVM makes them: every member a distinct empty object (functions, global_var_map_, the
 * SourceMap, empty DictAttrs, global_infos). */
TVMFFIObject* trx_ir_module_new(void) {
  trx_ir_module_t* m = (trx_ir_module_t*)trx__alloc(TRX_IR_MODULE);
  if (m == NULL) return NULL;
  if ((m->functions = trx__empty_map()) == NULL || (m->global_var_map_ = trx__empty_map()) == NULL ||
      (m->source_map = trx__source_map_new()) == NULL || (m->attrs = trx_dict_attrs_new(NULL)) == NULL ||
      (m->global_infos = trx__empty_map()) == NULL) {
    TVMFFIObjectDecRef(m);
    return NULL;
  }
  return (TVMFFIObject*)m;
}

TVMFFIObject* trx_dict_attrs_new(TVMFFIObject* map) {
  if (map != NULL && map->type_index != kTVMFFIMap) {
    tether_raise("TypeError", "ir.DictAttrs: argument `dict` must be a Map, but got %s", trx__key(map));
    return NULL;
  }
  TVMFFIObject* own = map != NULL ? trx__ref(map) : trx__empty_map();
  if (own == NULL) return NULL;
  trx_dict_attrs_t* a = (trx_dict_attrs_t*)trx__alloc(TRX_DICT_ATTRS);
  if (a == NULL) {
    TVMFFIObjectDecRef(own);
    return NULL;
  }
  a->dict = own;
  return (TVMFFIObject*)a;
}

/* ---- argument readers for the globals ------------------------------------------------------ */

static TVMFFIAny trx__none_any; /* zero = None */

/* Argument i, or None when the caller passed fewer. */
static const TVMFFIAny* trx__arg(const TVMFFIAny* args, int32_t n, int32_t i) {
  return i < n ? &args[i] : &trx__none_any;
}

static int trx__max_args(const char* fname, int32_t n, int32_t max) {
  if (n > max) {
    return tether_raise("TypeError", "%s expects at most %d arguments, but %d were given", fname,
                        (int)max, (int)n);
  }
  return 0;
}

int trx__arg_dtype(const char* fname, const TVMFFIAny* v, DLDataType* out) {
  TVMFFIByteArray s;
  if (v->type_index == kTVMFFINone) {
    *out = trx__dtype_void;
    return 0;
  }
  if (v->type_index == kTVMFFIDataType) {
    *out = v->v_dtype;
    return 0;
  }
  if (tether_any_get_str(v, &s)) {
    if (s.size == 0 || (s.size == 4 && memcmp(s.data, "void", 4) == 0)) {
      *out = trx__dtype_void;
      return 0;
    }
    return TVMFFIDataTypeFromString(&s, out);
  }
  return tether_raise("TypeError", "%s: expected a dtype (str, DataType or None), but got %s", fname,
                      tether_any_type_key(v));
}

int trx__arg_array(const char* fname, const char* argname, const TVMFFIAny* v, TVMFFIObject** out) {
  *out = NULL;
  if (v->type_index == kTVMFFINone) {
    *out = trx__empty_array();
    return *out ? 0 : -1;
  }
  if (v->type_index == kTVMFFIArray) {
    *out = trx__ref(v->v_obj);
    return 0;
  }
  if (v->type_index == kTVMFFIList) {
    int64_t n = tether_list_size(v->v_obj);
    TVMFFIObjectHandle arr = NULL;
    if (tether_array_new(n > 0 ? tether_list_at(v->v_obj, 0) : NULL, n, &arr) != 0) return -1;
    *out = (TVMFFIObject*)arr;
    return 0;
  }
  return tether_raise("TypeError", "%s: argument `%s` must be a list, but got %s", fname, argname,
                      tether_any_type_key(v));
}

int trx__arg_opt_object(const char* fname, const char* argname, const TVMFFIAny* v, int kind,
                        TVMFFIObject** out) {
  *out = NULL;
  if (v->type_index == kTVMFFINone) return 0;
  if (!tether_any_is_object(v) || (kind >= 0 && !trx_is(v->v_obj, (trx_kind)kind))) {
    return tether_raise("TypeError", "%s: argument `%s` must be None or %s, but got %s", fname,
                        argname, kind >= 0 ? trx__kinds[kind].key : "an object",
                        tether_any_type_key(v));
  }
  *out = v->v_obj;
  return 0;
}

/* A required object argument of `kind` (borrowed). */
static int trx__arg_node(const char* fname, const char* argname, const TVMFFIAny* v, trx_kind kind,
                         TVMFFIObject** out) {
  *out = NULL;
  if (!tether_any_is_object(v) || !trx_is(v->v_obj, kind)) {
    return tether_raise("TypeError", "%s: argument `%s` must be %s, but got %s", fname, argname,
                        trx__kinds[kind].key, tether_any_type_key(v));
  }
  *out = v->v_obj;
  return 0;
}

static int trx__arg_name(const char* fname, const char* argname, const TVMFFIAny* v,
                         TVMFFIByteArray* out) {
  if (v->type_index == kTVMFFINone) {
    *out = (TVMFFIByteArray){"", 0};
    return 0;
  }
  if (!tether_any_get_str(v, out)) {
    return tether_raise("TypeError", "%s: argument `%s` must be a str, but got %s", fname, argname,
                        tether_any_type_key(v));
  }
  return 0;
}

/* None -> NULL; DictAttrs -> itself; Map/Dict -> new DictAttrs.  *out: new reference. */
static int trx__arg_attrs(const char* fname, const TVMFFIAny* v, bool any_attrs, TVMFFIObject** out) {
  *out = NULL;
  if (v->type_index == kTVMFFINone) return 0;
  if (tether_any_is_object(v) && trx_is(v->v_obj, any_attrs ? TRX_ATTRS : TRX_DICT_ATTRS)) {
    *out = trx__ref(v->v_obj);
    return 0;
  }
  if (v->type_index == kTVMFFIMap) {
    *out = trx_dict_attrs_new(v->v_obj);
    return *out ? 0 : -1;
  }
  if (v->type_index == kTVMFFIDict) {
    int64_t n = tether_map_size(v->v_obj), i = 0, pos = 0;
    TVMFFIAny* kvs = malloc(sizeof(TVMFFIAny) * (size_t)(2 * n + 1));
    const TVMFFIAny *k, *val;
    if (kvs == NULL) return tether_raise("MemoryError", "%s: out of memory", fname);
    while (tether_map_next(v->v_obj, &pos, &k, &val)) {
      kvs[2 * i] = *k;
      kvs[2 * i + 1] = *val;
      ++i;
    }
    TVMFFIObjectHandle map = NULL;
    int rc = tether_map_new(kvs, i, &map);
    free(kvs);
    if (rc != 0) return -1;
    *out = trx_dict_attrs_new(map);
    TVMFFIObjectDecRef(map);
    return *out ? 0 : -1;
  }
  return tether_raise("TypeError", "%s: argument `attrs` must be None, a dict or %s, but got %s", fname,
                      any_attrs ? "Attrs" : "DictAttrs", tether_any_type_key(v));
}

static int trx__return(TVMFFIObject* obj, TVMFFIAny* rv) {
  if (obj == NULL) return -1;
  *rv = tether_any_object(obj); /* the Any takes over the new reference */
  return 0;
}

int trx__register_global(const char* name, TVMFFISafeCallType fn, const char* doc) {
  return tether_func_register(name, fn, doc, NULL, 1);
}

/* ---- the Python-facing constructor globals ----------------------------------------------- */

#define TRX__GLOBAL(cname) \
  static int cname(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv)

TRX__GLOBAL(trx__g_var) {
  static const char fn[] = "ir.Var";
  (void)self;
  TVMFFIByteArray name;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_name(fn, "name", trx__arg(args, n, 0), &name) != 0) {
    return -1;
  }
  const TVMFFIAny* ty = trx__arg(args, n, 1);
  if (ty->type_index == kTVMFFINone) return trx__return(trx_var_new(name.data, name.size, NULL, false), rv);
  if (tether_any_is_object(ty) && trx_is(ty->v_obj, TRX_TYPE)) {
    return trx__return(trx_var_new(name.data, name.size, ty->v_obj, false), rv);
  }
  TVMFFIByteArray s;
  if (ty->type_index == kTVMFFIDataType || tether_any_get_str(ty, &s)) {
    DLDataType dt;
    if (trx__arg_dtype(fn, ty, &dt) != 0) return -1;
    TVMFFIObject* pt = trx__prim_type_shared(dt);
    if (pt == NULL) return -1;
    TVMFFIObject* v = trx_var_new(name.data, name.size, pt, false);
    TVMFFIObjectDecRef(pt);
    return trx__return(v, rv);
  }
  return tether_raise("TypeError", "ty must be a Type or primitive dtype string");
}

TRX__GLOBAL(trx__g_dataflow_var) {
  static const char fn[] = "relax.DataflowVar";
  (void)self;
  TVMFFIByteArray name;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_name(fn, "name", trx__arg(args, n, 0), &name) != 0) {
    return -1;
  }
  const TVMFFIAny* ty = trx__arg(args, n, 1);
  TVMFFIObject* t = NULL;
  if (ty->type_index != kTVMFFINone) {
    if (!tether_any_is_object(ty) || !trx_is(ty->v_obj, TRX_TYPE)) {
      return tether_raise("TypeError", "ty needs to be an instance of Type. If you attempt to pass in "
                                       "shape, use relax.TensorType(shape, dtype).");
    }
    t = ty->v_obj;
  }
  return trx__return(trx_var_new(name.data, name.size, t, true), rv);
}

TRX__GLOBAL(trx__g_int_imm) {
  static const char fn[] = "ir.IntImm";
  (void)self;
  DLDataType dt;
  int64_t value;
  if (trx__max_args(fn, n, 2) != 0 || tether_check_nargs(fn, "(0: DataType, 1: int) -> ir.IntImm", n, 2) != 0 ||
      trx__arg_dtype(fn, &args[0], &dt) != 0 || tether_arg_int(fn, args, 1, &value) != 0) {
    return -1;
  }
  return trx__return(trx_int_imm_new(dt, value), rv);
}

TRX__GLOBAL(trx__g_float_imm) {
  static const char fn[] = "ir.FloatImm";
  (void)self;
  DLDataType dt;
  double value;
  if (tether_check_nargs(fn, "(0: DataType, 1: float) -> ir.FloatImm", n, 2) != 0 ||
      trx__arg_dtype(fn, &args[0], &dt) != 0 || tether_arg_float(fn, args, 1, &value) != 0) {
    return -1;
  }
  return trx__return(trx_float_imm_new(dt, value), rv);
}

TRX__GLOBAL(trx__g_string_imm) {
  static const char fn[] = "ir.StringImm";
  (void)self;
  TVMFFIByteArray s;
  if (tether_check_nargs(fn, "(0: str) -> ir.StringImm", n, 1) != 0 || tether_arg_str(fn, args, 0, &s) != 0) {
    return -1;
  }
  return trx__return(trx_string_imm_new(s.data, s.size), rv);
}

TRX__GLOBAL(trx__g_datatype_imm) {
  static const char fn[] = "ir.DataTypeImm";
  (void)self;
  DLDataType dt;
  if (tether_check_nargs(fn, "(0: DataType) -> ir.DataTypeImm", n, 1) != 0 ||
      trx__arg_dtype(fn, &args[0], &dt) != 0) {
    return -1;
  }
  return trx__return(trx_datatype_imm_new(dt), rv);
}

TRX__GLOBAL(trx__g_generic_const) {
  static const char fn[] = "ir.GenericConst";
  (void)self;
  TVMFFIObject* ty = NULL;
  const TVMFFIAny* data = trx__arg(args, n, 0);
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_opt_object(fn, "ty", trx__arg(args, n, 1), TRX_TYPE, &ty) != 0) {
    return -1;
  }
  return trx__return(trx_tensor_const_new(tether_any_is_object(data) ? data->v_obj : NULL, ty), rv);
}

/* A prim operand: an Expr (new reference), or an int/float made into an Imm of the other
 * operand's dtype (int64 / float32 when the other side has none). */
static TVMFFIObject* trx__prim_operand(const char* fname, const TVMFFIAny* v, const TVMFFIAny* other) {
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) return trx__ref(v->v_obj);
  TVMFFIObject* oty = tether_any_is_object(other) ? trx__ty(other->v_obj) : NULL;
  bool has = trx_is(oty, TRX_PRIM_TYPE);
  DLDataType odt = has ? ((trx_prim_type_t*)oty)->dtype : trx__dtype_void;
  if (v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool) {
    bool int_like = has && (odt.code == kDLInt || odt.code == kDLUInt);
    if (has && !int_like && odt.code != kDLBool) return trx_float_imm_new(odt, (double)v->v_int64);
    return trx_int_imm_new(int_like ? odt : trx__dtype_int64, v->v_int64);
  }
  if (v->type_index == kTVMFFIFloat) {
    bool float_like = has && odt.code != kDLInt && odt.code != kDLUInt && odt.code != kDLBool;
    DLDataType f32 = {kDLFloat, 32, 1};
    return trx_float_imm_new(float_like ? odt : f32, v->v_float64);
  }
  tether_raise("TypeError", "%s: operands must be prim exprs or numbers, but got %s", fname,
               tether_any_type_key(v));
  return NULL;
}

static int trx__g_binop(trx_kind kind, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  const char* fn = trx__kinds[kind].key;
  if (tether_check_nargs(fn, "(0: ir.Expr, 1: ir.Expr) -> ir.Expr", n, 2) != 0) return -1;
  TVMFFIObject* a = trx__prim_operand(fn, &args[0], &args[1]);
  TVMFFIObject* b = a ? trx__prim_operand(fn, &args[1], &args[0]) : NULL;
  TVMFFIObject* e = b ? trx_binop_new(kind, a, b) : NULL;
  if (a) TVMFFIObjectDecRef(a);
  if (b) TVMFFIObjectDecRef(b);
  return trx__return(e, rv);
}

#define TRX__BINOP_GLOBAL(K)                                                                  \
  TRX__GLOBAL(trx__g_##K) {                                                                   \
    (void)self;                                                                               \
    return trx__g_binop(TRX_##K, args, n, rv);                                                \
  }
TRX__BINOP_GLOBAL(PRIM_ADD)
TRX__BINOP_GLOBAL(PRIM_SUB)
TRX__BINOP_GLOBAL(PRIM_MUL)
TRX__BINOP_GLOBAL(PRIM_FLOORDIV)
TRX__BINOP_GLOBAL(PRIM_FLOORMOD)
TRX__BINOP_GLOBAL(PRIM_MIN)
TRX__BINOP_GLOBAL(PRIM_MAX)
#undef TRX__BINOP_GLOBAL

/* Op by name through the ops subsystem's global "ir.Op.get" (new reference). */
static TVMFFIObject* trx__op_by_name(const TVMFFIAny* name) {
  TVMFFIObjectHandle f = tether_func_get("ir.Op.get");
  if (f == NULL) return NULL;
  TVMFFIAny out = tether_any_none();
  int rc = tether_func_call(f, name, 1, &out);
  TVMFFIObjectDecRef(f);
  if (rc != 0) return NULL;
  if (!tether_any_is_object(&out) || !trx_is(out.v_obj, TRX_EXPR)) {
    tether_any_release(&out);
    tether_raise("TypeError", "ir.Call: ir.Op.get did not return an Op");
    return NULL;
  }
  return out.v_obj;
}

TRX__GLOBAL(trx__g_call) {
  static const char fn[] = "ir.Call";
  (void)self;
  TVMFFIObject *op = NULL, *a = NULL, *attrs = NULL, *t = NULL, *call = NULL;
  TVMFFIByteArray s;
  const TVMFFIAny* opv = trx__arg(args, n, 0);
  if (trx__max_args(fn, n, 4) != 0) return -1;
  if (tether_any_get_str(opv, &s)) {
    op = trx__op_by_name(opv);
  } else if (trx__arg_node(fn, "op", opv, TRX_EXPR, &op) == 0) {
    trx__ref(op);
  }
  if (op == NULL) return -1;
  if (trx__arg_array(fn, "args", trx__arg(args, n, 1), &a) != 0) goto fail;
  if (trx__arg_attrs(fn, trx__arg(args, n, 2), true, &attrs) != 0) goto fail;
  if (trx__arg_array(fn, "ty_args", trx__arg(args, n, 3), &t) != 0) goto fail;
  call = trx_call_new(op, a, attrs, t);
fail:
  TVMFFIObjectDecRef(op);
  if (a) TVMFFIObjectDecRef(a);
  if (attrs) TVMFFIObjectDecRef(attrs);
  if (t) TVMFFIObjectDecRef(t);
  return trx__return(call, rv);
}

/* Calls ctor(array) for a global taking one list argument. */
static int trx__g_one_array(const char* fn, const char* argname, TVMFFIObject* (*ctor)(TVMFFIObject*),
                            const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  TVMFFIObject* arr = NULL;
  if (trx__max_args(fn, n, 1) != 0 || trx__arg_array(fn, argname, trx__arg(args, n, 0), &arr) != 0) {
    return -1;
  }
  TVMFFIObject* out = ctor(arr);
  TVMFFIObjectDecRef(arr);
  return trx__return(out, rv);
}

TRX__GLOBAL(trx__g_tuple) {
  (void)self;
  return trx__g_one_array("ir.Tuple", "fields", trx_tuple_new, args, n, rv);
}

TRX__GLOBAL(trx__g_tuple_type) {
  (void)self;
  return trx__g_one_array("ir.TupleType", "fields", trx_tuple_type_new, args, n, rv);
}

TRX__GLOBAL(trx__g_shape_expr) {
  (void)self;
  return trx__g_one_array("relax.ShapeExpr", "values", trx_shape_expr_new, args, n, rv);
}

TRX__GLOBAL(trx__g_tuple_get_item) {
  static const char fn[] = "ir.TupleGetItem";
  (void)self;
  TVMFFIObject* t = NULL;
  int64_t i;
  if (tether_check_nargs(fn, "(0: ir.Expr, 1: int) -> ir.TupleGetItem", n, 2) != 0 ||
      trx__arg_node(fn, "tuple_value", &args[0], TRX_EXPR, &t) != 0 ||
      tether_arg_int(fn, args, 1, &i) != 0) {
    return -1;
  }
  return trx__return(trx_tuple_get_item_new(t, i), rv);
}

TRX__GLOBAL(trx__g_global_var) {
  static const char fn[] = "ir.GlobalVar";
  (void)self;
  TVMFFIByteArray name;
  if (trx__max_args(fn, n, 1) != 0 || trx__arg_name(fn, "name_hint", trx__arg(args, n, 0), &name) != 0) {
    return -1;
  }
  return trx__return(trx_global_var_new(name.data, name.size), rv);
}

/* An optional bool argument (None -> dflt). */
static int trx__arg_opt_bool(const char* fname, const TVMFFIAny* args, int32_t n, int32_t i, bool dflt,
                             bool* out) {
  if (trx__arg(args, n, i)->type_index == kTVMFFINone) {
    *out = dflt;
    return 0;
  }
  return tether_arg_bool(fname, args, i, out);
}

static int trx__arg_opt_int(const char* fname, const TVMFFIAny* args, int32_t n, int32_t i, int64_t dflt,
                            int64_t* out) {
  if (trx__arg(args, n, i)->type_index == kTVMFFINone) {
    *out = dflt;
    return 0;
  }
  return tether_arg_int(fname, args, i, out);
}

TRX__GLOBAL(trx__g_function) {
  static const char fn[] = "relax.Function";
  (void)self;
  TVMFFIObject *params = NULL, *body = NULL, *ret_ty = NULL, *attrs = NULL, *f = NULL;
  bool is_pure;
  if (trx__max_args(fn, n, 5) != 0 || trx__arg_array(fn, "params", trx__arg(args, n, 0), &params) != 0) {
    return -1;
  }
  if (trx__arg_node(fn, "body", trx__arg(args, n, 1), TRX_EXPR, &body) != 0 ||
      trx__arg_opt_object(fn, "ret_ty", trx__arg(args, n, 2), TRX_TYPE, &ret_ty) != 0 ||
      trx__arg_opt_bool(fn, args, n, 3, true, &is_pure) != 0 ||
      trx__arg_attrs(fn, trx__arg(args, n, 4), false, &attrs) != 0) {
    goto fail;
  }
  f = trx_function_new(params, body, ret_ty, is_pure, attrs);
fail:
  TVMFFIObjectDecRef(params);
  if (attrs) TVMFFIObjectDecRef(attrs);
  return trx__return(f, rv);
}

TRX__GLOBAL(trx__g_extern_func) {
  static const char fn[] = "relax.ExternFunc";
  (void)self;
  TVMFFIByteArray sym;
  TVMFFIObject* ty = NULL;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_name(fn, "global_symbol", trx__arg(args, n, 0), &sym) != 0 ||
      trx__arg_opt_object(fn, "ty", trx__arg(args, n, 1), TRX_TYPE, &ty) != 0) {
    return -1;
  }
  return trx__return(trx_extern_func_new(sym.data, sym.size, ty), rv);
}

TRX__GLOBAL(trx__g_seq_expr) {
  static const char fn[] = "relax.SeqExpr";
  (void)self;
  TVMFFIObject *blocks = NULL, *body = NULL;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_array(fn, "blocks", trx__arg(args, n, 0), &blocks) != 0) {
    return -1;
  }
  TVMFFIObject* s = NULL;
  if (trx__arg_node(fn, "body", trx__arg(args, n, 1), TRX_EXPR, &body) == 0) s = trx_seq_expr_new(blocks, body);
  TVMFFIObjectDecRef(blocks);
  return trx__return(s, rv);
}

TRX__GLOBAL(trx__g_if) {
  static const char fn[] = "relax.If";
  (void)self;
  TVMFFIObject *c, *t, *f;
  if (tether_check_nargs(fn, "(0: ir.Expr, 1: ir.Expr, 2: ir.Expr) -> relax.If", n, 3) != 0 ||
      trx__arg_node(fn, "cond", &args[0], TRX_EXPR, &c) != 0 ||
      trx__arg_node(fn, "true_branch", &args[1], TRX_EXPR, &t) != 0 ||
      trx__arg_node(fn, "false_branch", &args[2], TRX_EXPR, &f) != 0) {
    return -1;
  }
  return trx__return(trx_if_new(c, t, f), rv);
}

TRX__GLOBAL(trx__g_var_binding) {
  static const char fn[] = "relax.VarBinding";
  (void)self;
  TVMFFIObject *var, *value;
  if (tether_check_nargs(fn, "(0: ir.Var, 1: ir.Expr) -> relax.VarBinding", n, 2) != 0 ||
      trx__arg_node(fn, "var", &args[0], TRX_VAR, &var) != 0 ||
      trx__arg_node(fn, "value", &args[1], TRX_EXPR, &value) != 0) {
    return -1;
  }
  return trx__return(trx_var_binding_new(var, value), rv);
}

TRX__GLOBAL(trx__g_match_cast) {
  static const char fn[] = "relax.MatchCast";
  (void)self;
  TVMFFIObject *var, *value, *ty;
  if (tether_check_nargs(fn, "(0: ir.Var, 1: ir.Expr, 2: ir.Type) -> relax.MatchCast", n, 3) != 0 ||
      trx__arg_node(fn, "var", &args[0], TRX_VAR, &var) != 0 ||
      trx__arg_node(fn, "value", &args[1], TRX_EXPR, &value) != 0 ||
      trx__arg_node(fn, "ty", &args[2], TRX_TYPE, &ty) != 0) {
    return -1;
  }
  return trx__return(trx_match_cast_new(var, value, ty), rv);
}

static TVMFFIObject* trx__block_ctor(TVMFFIObject* b) { return trx_binding_block_new(b, false); }
static TVMFFIObject* trx__dataflow_block_ctor(TVMFFIObject* b) { return trx_binding_block_new(b, true); }

TRX__GLOBAL(trx__g_binding_block) {
  (void)self;
  return trx__g_one_array("relax.BindingBlock", "bindings", trx__block_ctor, args, n, rv);
}

TRX__GLOBAL(trx__g_dataflow_block) {
  (void)self;
  return trx__g_one_array("relax.DataflowBlock", "bindings", trx__dataflow_block_ctor, args, n, rv);
}

/* ir.IRModule(functions, attrs): functions maps GlobalVar or str to BaseFunc. */
TRX__GLOBAL(trx__g_ir_module) {
  static const char fn[] = "ir.IRModule";
  (void)self;
  const TVMFFIAny* fv = trx__arg(args, n, 0);
  trx_ir_module_t* m = NULL;
  TVMFFIObject *attrs = NULL, *gv = NULL;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_attrs(fn, trx__arg(args, n, 1), false, &attrs) != 0) return -1;
  if (fv->type_index != kTVMFFINone && fv->type_index != kTVMFFIMap && fv->type_index != kTVMFFIDict) {
    tether_raise("TypeError", "%s: argument `functions` must be None or a dict, but got %s", fn,
                 tether_any_type_key(fv));
    goto fail;
  }
  m = (trx_ir_module_t*)trx_ir_module_new();
  if (m == NULL) goto fail;
  if (attrs != NULL) {
    TVMFFIObjectDecRef(m->attrs);
    m->attrs = attrs;
    attrs = NULL;
  }
  if (fv->type_index != kTVMFFINone) {
    int64_t pos = 0;
    const TVMFFIAny *k, *v;
    while (tether_map_next(fv->v_obj, &pos, &k, &v)) {
      TVMFFIByteArray name;
      if (tether_any_get_str(k, &name)) {
        gv = trx_global_var_new(name.data, name.size);
        if (gv == NULL) goto fail;
      } else if (tether_any_is_object(k) && trx_is(k->v_obj, TRX_GLOBAL_VAR)) {
        gv = trx__ref(k->v_obj);
      } else {
        tether_raise("TypeError", "%s: keys of `functions` must be GlobalVar or str, but got %s", fn,
                     tether_any_type_key(k));
        goto fail;
      }
      if (!tether_any_is_object(v) || !trx_is(v->v_obj, TRX_BASE_FUNC)) {
        tether_raise("TypeError", "%s: values of `functions` must be functions, but got %s", fn,
                     tether_any_type_key(v));
        goto fail;
      }
      TVMFFIAny gva = tether_any_object(gv);
      TVMFFIAny namev = ((trx_global_var_t*)gv)->name_hint;
      TVMFFIObjectHandle funcs = m->functions, names = m->global_var_map_;
      int rc1 = tether_map_set(&funcs, &gva, v);
      m->functions = funcs;
      int rc2 = rc1 == 0 ? tether_map_set(&names, &namev, &gva) : -1;
      m->global_var_map_ = names;
      if (rc2 != 0) goto fail;
      TVMFFIObjectDecRef(gv);
      gv = NULL;
    }
  }
  return trx__return((TVMFFIObject*)m, rv);
fail:
  if (gv) TVMFFIObjectDecRef(gv);
  if (attrs) TVMFFIObjectDecRef(attrs);
  if (m) TVMFFIObjectDecRef(m);
  return -1;
}

TRX__GLOBAL(trx__g_dict_attrs) {
  static const char fn[] = "ir.DictAttrs";
  (void)self;
  TVMFFIObject* attrs = NULL;
  if (trx__max_args(fn, n, 1) != 0) return -1;
  if (trx__arg(args, n, 0)->type_index == kTVMFFINone) return trx__return(trx_dict_attrs_new(NULL), rv);
  if (trx__arg_attrs(fn, trx__arg(args, n, 0), false, &attrs) != 0) return -1;
  return trx__return(attrs, rv);
}

/* relax.TensorType(shape, dtype, vdevice, ndim).  shape: None, a list of ints / int64
 * exprs (wrapped in a ShapeExpr), or an Expr with a ShapeType ty. */
TRX__GLOBAL(trx__g_tensor_type) {
  static const char fn[] = "relax.TensorType";
  (void)self;
  const TVMFFIAny* sv = trx__arg(args, n, 0);
  TVMFFIObject *shape = NULL, *vdev = NULL, *t = NULL;
  DLDataType dt;
  int64_t ndim;
  if (trx__max_args(fn, n, 4) != 0 || trx__arg_dtype(fn, trx__arg(args, n, 1), &dt) != 0 ||
      trx__arg_opt_object(fn, "vdevice", trx__arg(args, n, 2), -1, &vdev) != 0 ||
      trx__arg_opt_int(fn, args, n, 3, -1, &ndim) != 0) {
    return -1;
  }
  if (sv->type_index == kTVMFFIArray || sv->type_index == kTVMFFIList) {
    TVMFFIObject* arr = NULL;
    if (trx__arg_array(fn, "shape", sv, &arr) != 0) return -1;
    shape = trx_shape_expr_new(arr);
    TVMFFIObjectDecRef(arr);
    if (shape == NULL) return -1;
  } else if (tether_any_is_object(sv)) {
    shape = trx__ref(sv->v_obj);
  } else if (sv->type_index != kTVMFFINone) {
    return tether_raise("InternalError", "Check failed: (shape_ty) is false: We expect shape to contain pre-set shape type");
  }
  if (shape != NULL && !trx_is(shape, TRX_EXPR)) {
    tether_raise("InternalError", "Check failed: (shape_ty) is false: We expect shape to contain pre-set shape type");
  } else {
    t = trx_tensor_type_new(shape, dt, ndim);
    if (t != NULL) ((trx_tensor_type_t*)t)->vdevice = trx__ref(vdev);
  }
  if (shape) TVMFFIObjectDecRef(shape);
  return trx__return(t, rv);
}

TRX__GLOBAL(trx__g_shape_type) {
  static const char fn[] = "relax.ShapeType";
  (void)self;
  TVMFFIObject* values = NULL;
  int64_t ndim;
  if (trx__max_args(fn, n, 2) != 0 || trx__arg_opt_int(fn, args, n, 1, -1, &ndim) != 0) return -1;
  if (trx__arg(args, n, 0)->type_index != kTVMFFINone &&
      trx__arg_array(fn, "values", trx__arg(args, n, 0), &values) != 0) {
    return -1;
  }
  TVMFFIObject* t = trx_shape_type_new(values, ndim);
  if (values) TVMFFIObjectDecRef(values);
  return trx__return(t, rv);
}

TRX__GLOBAL(trx__g_any_type) {
  (void)self;
  (void)args;
  if (trx__max_args("relax.AnyType", n, 0) != 0) return -1;
  return trx__return(trx_any_type_new(), rv);
}

TRX__GLOBAL(trx__g_packed_func_type) {
  (void)self;
  (void)args;
  if (trx__max_args("relax.PackedFuncType", n, 0) != 0) return -1;
  return trx__return(trx_packed_func_type_new(), rv);
}

TRX__GLOBAL(trx__g_string_type) {
  (void)self;
  (void)args;
  if (trx__max_args("ir.StringType", n, 0) != 0) return -1;
  return trx__return(trx_string_type_new(), rv);
}

TRX__GLOBAL(trx__g_prim_type) {
  static const char fn[] = "ir.PrimType";
  (void)self;
  DLDataType dt;
  if (tether_check_nargs(fn, "(0: DataType) -> ir.PrimType", n, 1) != 0 || trx__arg_dtype(fn, &args[0], &dt) != 0) {
    return -1;
  }
  return trx__return(trx__prim_type_shared(dt), rv);
}

TRX__GLOBAL(trx__g_func_type) {
  static const char fn[] = "relax.FuncType";
  (void)self;
  TVMFFIObject *params = NULL, *ret = NULL;
  bool purity;
  if (trx__max_args(fn, n, 3) != 0 || trx__arg_node(fn, "ret", trx__arg(args, n, 1), TRX_TYPE, &ret) != 0 ||
      trx__arg_opt_bool(fn, args, n, 2, true, &purity) != 0) {
    return -1;
  }
  if (trx__arg(args, n, 0)->type_index != kTVMFFINone &&
      trx__arg_array(fn, "params", trx__arg(args, n, 0), &params) != 0) {
    return -1;
  }
  TVMFFIObject* t = trx_func_type_new(params, ret, purity);
  if (params) TVMFFIObjectDecRef(params);
  return trx__return(t, rv);
}

#undef TRX__GLOBAL

static const struct {
  const char* name;
  TVMFFISafeCallType fn;
} trx__globals[] = {
    {"ir.Var", trx__g_var},
    {"relax.DataflowVar", trx__g_dataflow_var},
    {"ir.IntImm", trx__g_int_imm},
    {"ir.FloatImm", trx__g_float_imm},
    {"ir.StringImm", trx__g_string_imm},
    {"ir.DataTypeImm", trx__g_datatype_imm},
    {"ir.GenericConst", trx__g_generic_const},
    {"prim.Add", trx__g_PRIM_ADD},
    {"prim.Sub", trx__g_PRIM_SUB},
    {"prim.Mul", trx__g_PRIM_MUL},
    {"prim.FloorDiv", trx__g_PRIM_FLOORDIV},
    {"prim.FloorMod", trx__g_PRIM_FLOORMOD},
    {"prim.Min", trx__g_PRIM_MIN},
    {"prim.Max", trx__g_PRIM_MAX},
    {"ir.Call", trx__g_call},
    {"ir.Tuple", trx__g_tuple},
    {"ir.TupleGetItem", trx__g_tuple_get_item},
    {"relax.ShapeExpr", trx__g_shape_expr},
    {"ir.GlobalVar", trx__g_global_var},
    {"relax.Function", trx__g_function},
    {"relax.ExternFunc", trx__g_extern_func},
    {"relax.SeqExpr", trx__g_seq_expr},
    {"relax.If", trx__g_if},
    {"relax.VarBinding", trx__g_var_binding},
    {"relax.MatchCast", trx__g_match_cast},
    {"relax.BindingBlock", trx__g_binding_block},
    {"relax.DataflowBlock", trx__g_dataflow_block},
    {"ir.IRModule", trx__g_ir_module},
    {"ir.DictAttrs", trx__g_dict_attrs},
    {"relax.TensorType", trx__g_tensor_type},
    {"relax.ShapeType", trx__g_shape_type},
    {"ir.TupleType", trx__g_tuple_type},
    {"relax.AnyType", trx__g_any_type},
    {"relax.PackedFuncType", trx__g_packed_func_type},
    {"ir.StringType", trx__g_string_type},
    {"ir.PrimType", trx__g_prim_type},
    {"relax.FuncType", trx__g_func_type},
};

/* The constructors neither block nor call back: they keep the GIL. */
static int trx__node_register_globals(void) {
  for (size_t i = 0; i < sizeof(trx__globals) / sizeof(trx__globals[0]); ++i) {
    if (tether_func_register_flags(trx__globals[i].name, trx__globals[i].fn, NULL, NULL,
                                   TETHER_FUNC_KEEPS_GIL, 1) != 0) {
      return -1;
    }
  }
  return 0;
}

/* Writes the type-schema JSON of the compact declared type at *p ("ffi.Map<K,V>") into b
 * and advances *p past it; false if it does not fit or is malformed (a table error). */
static bool trx__schema_json(const char** p, trx__buf_t* b) {
  const char* s = *p;
  size_t n = strcspn(s, "<>,");
  if (n == 0) return false;
  trx__buf_printf(b, "{\"type\":\"%.*s\"", (int)n, s);
  s += n;
  if (*s == '<') {
    trx__buf_puts(b, ",\"args\":[");
    do {
      ++s;
      if (!trx__schema_json(&s, b)) return false;
      if (*s == ',') trx__buf_puts(b, ",");
    } while (*s == ',');
    if (*s++ != '>') return false;
    trx__buf_puts(b, "]");
  }
  trx__buf_puts(b, "}");
  *p = s;
  return true;
}

/* Registers field `f` of a libtether_ir type with its declared type (compact notation). */
int trx__def_field(int32_t owner, const char* name, tether_field_kind kind, int64_t offset, int64_t flags,
                   int32_t object_type_index, const char* declared) {
  trx__buf_t sb = {0};
  const char* p = declared;
  if (!trx__schema_json(&p, &sb) || *p != '\0' || sb.oom) {
    trx__buf_free(&sb);
    return tether_raise("ValueError", "libtether_ir: field `%s` has a malformed declared type `%s`", name,
                        declared);
  }
  tether_field_def_t def;
  memset(&def, 0, sizeof(def));
  def.name = name;
  def.kind = kind;
  def.offset = offset;
  def.flags = flags;
  def.object_type_index = object_type_index;
  def.type_schema = sb.s;
  int rc = tether_type_def_field(owner, &def);
  trx__buf_free(&sb);
  return rc;
}

int trx__node_init(void) {
  int32_t depth[TRX_NUM_KINDS];
  /* Parents precede children in TRX_NODE_KINDS, so one pass allocates every index. */
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    int parent = trx__kinds[k].parent;
    int32_t parent_index = parent < 0 ? kTVMFFIObject : trx_type_index[parent];
    depth[k] = parent < 0 ? 1 : depth[parent] + 1;
    TVMFFIByteArray key = trx__cstr_bytes(trx__kinds[k].key);
    int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, depth[k], 0, 1, parent_index);
    if (index < 0) return -1;
    trx__type_index[k] = index;
  }
  for (size_t i = 0; i < sizeof(trx__fields) / sizeof(trx__fields[0]); ++i) {
    const trx__field_t* f = &trx__fields[i];
    if (trx__def_field(trx_type_index[f->owner], f->name, f->kind, f->offset, f->flags,
                       f->target >= 0 ? trx_type_index[f->target] : f->static_index, f->declared) != 0) {
      return -1;
    }
  }
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    if (tether_type_def_finish(trx_type_index[k], trx__kinds[k].size, NULL) != 0) return -1;
  }
  atomic_store_explicit(&trx__types_ready, true, memory_order_release);
  if (trx__shared_init() != 0) return -1;
  if (trx__register_json_hooks(trx_type_index[TRX_ENV_FUNC], trx__env_func_to_json, trx__env_func_from_json) != 0) {
    return -1;
  }
  return trx__node_register_globals();
}

void trx__node_fini(void) {
  trx__shared_fini();
  atomic_store_explicit(&trx__types_ready, false, memory_order_release);
  for (int32_t i = 0; i < TRX__TYPE_CACHE; ++i) {
    free(atomic_exchange_explicit(&trx__ftabs[i], NULL, memory_order_acq_rel));
    atomic_store_explicit(&trx__isa[i], 0, memory_order_relaxed);
  }
}
