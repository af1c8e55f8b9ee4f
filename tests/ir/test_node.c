/*
 * test_node.c -- the IR's node types: registration (keys, parents, reflected fields),
 * the C constructors with their validation and error texts (as observed in apache-tvm
 * 0.27), and the Python-facing constructor globals.
 */
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "test.h"

static const DLDataType f32 = {kDLFloat, 32, 1};
static const DLDataType i64 = {kDLInt, 64, 1};
static const DLDataType i32 = {kDLInt, 32, 1};

static void decref(void* o) {
  if (o) TVMFFIObjectDecRef(o);
}

/* -1 if obj == NULL (consuming the raised error into CHECK_RAISED's reach). */
static int rc_of(TVMFFIObject* obj) {
  if (obj == NULL) return -1;
  TVMFFIObjectDecRef(obj);
  return 0;
}

static TVMFFIObject* ints_array(const int64_t* v, int n) {
  TVMFFIAny items[8];
  for (int i = 0; i < n; ++i) items[i] = tether_any_int(v[i]);
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, n, &arr));
  return arr;
}

static TVMFFIObject* objs_array(TVMFFIObject** v, int n) {
  TVMFFIAny items[8];
  for (int i = 0; i < n; ++i) items[i] = tether_any_object(v[i]);
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, n, &arr));
  return arr;
}

/* TensorType((dims...), dtype). */
static TVMFFIObject* tensor_type(const int64_t* dims, int n, DLDataType dt) {
  TVMFFIObject* arr = ints_array(dims, n);
  TVMFFIObject* shape = trx_shape_expr_new(arr);
  TVMFFIObject* t = trx_tensor_type_new(shape, dt, -1);
  decref(arr);
  decref(shape);
  return t;
}

/* Calls global `name` with args; returns rc and leaves the owning result in *out. */
static int call(const char* name, const TVMFFIAny* args, int n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  *out = tether_any_none();
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static void test_registration(void) {
  static const struct {
    trx_kind kind;
    const char* key;
  } keys[] = {
      {TRX_EXPR, "ir.Expr"}, {TRX_VAR, "ir.Var"}, {TRX_DATAFLOW_VAR, "relax.expr.DataflowVar"},
      {TRX_CALL, "ir.Call"}, {TRX_TENSOR_TYPE, "relax.TensorType"}, {TRX_FUNCTION, "relax.expr.Function"},
      {TRX_DICT_ATTRS, "ir.DictAttrs"}, {TRX_PRIM_FLOORDIV, "prim.FloorDiv"},
  };
  for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); ++i) {
    int32_t idx = -1;
    TVMFFIByteArray k = {keys[i].key, strlen(keys[i].key)};
    CHECK_OK(TVMFFITypeKeyToIndex(&k, &idx));
    CHECK_EQ_INT(idx, trx_type_index[keys[i].kind]);
  }
  CHECK(tether_type_is_subclass(trx_type_index[TRX_DATAFLOW_VAR], trx_type_index[TRX_VAR]));
  CHECK(tether_type_is_subclass(trx_type_index[TRX_DATAFLOW_VAR], trx_type_index[TRX_EXPR]));
  CHECK(tether_type_is_subclass(trx_type_index[TRX_FUNCTION], trx_type_index[TRX_BASE_FUNC]));
  CHECK(tether_type_is_subclass(trx_type_index[TRX_DATAFLOW_BLOCK], trx_type_index[TRX_BINDING_BLOCK]));
  CHECK(!tether_type_is_subclass(trx_type_index[TRX_BINDING], trx_type_index[TRX_EXPR]));
  /* TVM's own field names and order (ancestors first). */
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(trx_type_index[TRX_TENSOR_TYPE]);
  const char* want[] = {"shape", "dtype", "vdevice", "ndim"};
  CHECK_EQ_INT(info->num_fields, 4);
  for (int i = 0; i < 4 && i < info->num_fields; ++i) {
    CHECK(info->fields[i].name.size == strlen(want[i]) &&
          memcmp(info->fields[i].name.data, want[i], strlen(want[i])) == 0);
  }
  const TVMFFIFieldInfo* ty = tether_type_find_field(trx_type_index[TRX_CALL], "ty", 2);
  /* read-only, as in TVM (Python: "property 'ty' of 'Call' object has no setter") */
  CHECK(ty != NULL && !(ty->flags & kTVMFFIFieldFlagBitMaskWritable));
  const TVMFFIFieldInfo* name = tether_type_find_field(trx_type_index[TRX_VAR], "name", 4);
  CHECK(name != NULL && (name->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore));
  const TVMFFIFieldInfo* span = tether_type_find_field(trx_type_index[TRX_VAR], "span", 4);
  CHECK(span != NULL && (span->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore));
  const TVMFFIFieldInfo* params = tether_type_find_field(trx_type_index[TRX_FUNCTION], "params", 6);
  CHECK(params != NULL && (params->flags & kTVMFFIFieldFlagBitMaskSEqHashDefRecursive));
  CHECK(tether_type_find_field(trx_type_index[TRX_DICT_ATTRS], "__dict__", 8) != NULL);
  CHECK(tether_type_find_field(trx_type_index[TRX_IR_MODULE], "global_var_map_", 15) != NULL);
}

static void test_var(void) {
  TVMFFIObject* pt = trx_prim_type_new(i64);
  TVMFFIObject* v = trx_var_new("n", 1, pt, false);
  CHECK(trx_is(v, TRX_VAR) && !trx_is(v, TRX_DATAFLOW_VAR) && trx_is(v, TRX_EXPR));
  CHECK(((trx_var_t*)v)->base.ty == pt);
  TVMFFIObject* dv = trx_var_new("lv", 2, NULL, true);
  CHECK(trx_is(dv, TRX_DATAFLOW_VAR) && trx_is(dv, TRX_VAR));
  CHECK(((trx_var_t*)dv)->base.ty == NULL);
  CHECK_RAISED(rc_of(trx_var_new("x", 1, v, false)), "TypeError", "ty must be a Type or primitive dtype string");
  CHECK_RAISED(rc_of(trx_var_new("x", 1, v, true)), "TypeError",
               "ty needs to be an instance of Type. If you attempt to pass in shape, use relax.TensorType(shape, dtype).");
  CHECK(!trx_is(NULL, TRX_VAR));
  decref(pt);
  decref(v);
  decref(dv);
}

static void test_imms(void) {
  TVMFFIObject* a = trx_int_imm_new(i64, 3);
  CHECK(trx_is(a, TRX_INT_IMM) && trx_is(a, TRX_CONSTANT));
  CHECK(trx_is(((trx_expr_t*)a)->ty, TRX_PRIM_TYPE));
  CHECK_EQ_INT(((trx_int_imm_t*)a)->value, 3);
  decref(a);
  const DLDataType i8 = {kDLInt, 8, 1}, u8 = {kDLUInt, 8, 1}, b1 = {kDLBool, 8, 1};
  const DLDataType i64x4 = {kDLInt, 64, 4}, f16 = {kDLFloat, 16, 1};
  CHECK_RAISED(rc_of(trx_int_imm_new(i32, INT64_C(1) << 40)), "ValueError",
               "Literal value 1099511627776 exceeds range of int32");
  CHECK_RAISED(rc_of(trx_int_imm_new(i8, 128)), "ValueError", "Literal value 128 exceeds range of int8");
  CHECK_RAISED(rc_of(trx_int_imm_new(u8, -1)), "ValueError",
               "Literal value -1 is negative for unsigned integer type uint8");
  CHECK_RAISED(rc_of(trx_int_imm_new(u8, 256)), "ValueError", "Literal value 256 exceeds maximum of uint8");
  CHECK_RAISED(rc_of(trx_int_imm_new(b1, 2)), "ValueError", "2 exceeds range of bool");
  CHECK_RAISED(rc_of(trx_int_imm_new(f32, 1)), "ValueError",
               "IntImm supports only int or uint or bool type, but float32 was supplied.");
  CHECK_RAISED(rc_of(trx_int_imm_new(i64x4, 1)), "ValueError", "IntImm can only take scalar, but int64x4 was supplied.");
  CHECK_OK(rc_of(trx_int_imm_new(i8, -128)));
  CHECK_OK(rc_of(trx_int_imm_new(b1, 1)));
  TVMFFIObject* f = trx_float_imm_new(f32, 1.5);
  CHECK(trx_is(f, TRX_FLOAT_IMM) && ((trx_float_imm_t*)f)->value == 1.5);
  decref(f);
  CHECK_RAISED(rc_of(trx_float_imm_new(i32, 1.5)), "ValueError", "FloatImm supports only float, but int32 was supplied.");
  CHECK_RAISED(rc_of(trx_float_imm_new(f16, 1e10)), "ValueError", "Literal value 1e+10 exceeds maximum of float16");
  TVMFFIObject* s = trx_string_imm_new("hello world", 11);
  TVMFFIByteArray sb;
  CHECK(tether_any_get_str(&((trx_string_imm_t*)s)->value, &sb) && sb.size == 11);
  decref(s);
  TVMFFIObject* d = trx_datatype_imm_new(f32);
  CHECK(trx_is(d, TRX_DATATYPE_IMM) && ((trx_datatype_imm_t*)d)->value.bits == 32);
  decref(d);
}

static void test_types(void) {
  int64_t dims[] = {1, 3, 224, 224};
  TVMFFIObject* t = tensor_type(dims, 4, f32);
  trx_tensor_type_t* tt = (trx_tensor_type_t*)t;
  CHECK(t != NULL && tt->ndim == 4 && trx_is(tt->shape, TRX_SHAPE_EXPR));
  trx_shape_expr_t* se = (trx_shape_expr_t*)tt->shape;
  CHECK(trx_is(se->base.ty, TRX_SHAPE_TYPE) && ((trx_shape_type_t*)se->base.ty)->ndim == 4);
  /* shape values are int64 IntImms */
  const TVMFFIAny* v0 = tether_array_at(se->values, 1);
  CHECK(trx_is(v0->v_obj, TRX_INT_IMM) && ((trx_int_imm_t*)v0->v_obj)->value == 3);
  CHECK_RAISED(rc_of(trx_tensor_type_new(tt->shape, f32, 4)), "ValueError",
               "Check failed: ndim == kUnknownNDim (4 vs. -1) : Cannot both specify shape and ndim");
  CHECK_RAISED(rc_of(trx_tensor_type_new(NULL, f32, -2)), "InternalError",
               "Check failed: (ndim >= -1) is false: ndim of TensorType must be >= -1, but got -2");
  TVMFFIObject* notshape = trx_int_imm_new(i64, 3);
  CHECK_RAISED(rc_of(trx_tensor_type_new(notshape, f32, -1)), "InternalError",
               "Check failed: (shape_ty) is false: We expect shape to contain pre-set shape type");
  TVMFFIObject* u = trx_tensor_type_new(NULL, f32, 3);
  CHECK(u && ((trx_tensor_type_t*)u)->ndim == 3 && ((trx_tensor_type_t*)u)->shape == NULL);
  /* shape var */
  TVMFFIObject* st = trx_shape_type_new(NULL, 2);
  TVMFFIObject* sv = trx_var_new("s", 1, st, false);
  TVMFFIObject* ts = trx_tensor_type_new(sv, f32, -1);
  CHECK(ts && ((trx_tensor_type_t*)ts)->ndim == 2);
  /* ShapeType */
  TVMFFIObject* arr = ints_array(dims, 2);
  CHECK_RAISED(rc_of(trx_shape_type_new(arr, 2)), "ValueError",
               "Check failed: ndim == kUnknownNDim (2 vs. -1) : Cannot both specify values and ndim");
  CHECK_RAISED(rc_of(trx_shape_type_new(NULL, -2)), "InternalError",
               "Check failed: (ndim >= -1) is false: ndim of ShapeType must be >= -1, but got -2");
  TVMFFIObject* st2 = trx_shape_type_new(arr, -1);
  CHECK(st2 && ((trx_shape_type_t*)st2)->ndim == 2);
  TVMFFIObject* fimm = trx_float_imm_new(f32, 1.0);
  TVMFFIObject* bad = objs_array(&fimm, 1);
  CHECK_RAISED(rc_of(trx_shape_type_new(bad, -1)), "InternalError", "the value in ShapeType can only have dtype of int64");
  CHECK_RAISED(rc_of(trx_shape_expr_new(bad)), "InternalError", "the value in ShapeType can only have dtype of int64");
  /* int32 IntImms become int64 */
  TVMFFIObject* i32imm = trx_int_imm_new(i32, 7);
  TVMFFIObject* arr32 = objs_array(&i32imm, 1);
  TVMFFIObject* se32 = trx_shape_expr_new(arr32);
  TVMFFIObject* v = tether_array_at(((trx_shape_expr_t*)se32)->values, 0)->v_obj;
  CHECK(v != i32imm && trx_is(v, TRX_INT_IMM));
  CHECK(((trx_prim_type_t*)((trx_expr_t*)v)->ty)->dtype.bits == 64);
  /* others */
  TVMFFIObject* any = trx_any_type_new();
  TVMFFIObject* tup = objs_array(&any, 1);
  TVMFFIObject* tt2 = trx_tuple_type_new(tup);
  CHECK(trx_is(tt2, TRX_TUPLE_TYPE));
  TVMFFIObject* ft = trx_func_type_new(tup, any, true);
  CHECK(ft && ((trx_func_type_t*)ft)->purity && ((trx_func_type_t*)ft)->params == tup);
  TVMFFIObject* opaque = trx_func_type_new(NULL, any, false);
  CHECK(opaque && ((trx_func_type_t*)opaque)->params == NULL);
  CHECK_RAISED(rc_of(trx_func_type_new(NULL, NULL, false)), "TypeError", "argument `ret`");
  CHECK_RAISED(rc_of(trx_tuple_type_new(arr)), "TypeError", "Array<ir.Type>");
  TVMFFIObject* pf = trx_packed_func_type_new();
  CHECK(trx_is(pf, TRX_PACKED_FUNC_TYPE));
  TVMFFIObject* objs[] = {t, u, notshape, st, sv, ts, arr, st2, fimm, bad, i32imm, arr32, se32,
                          any, tup, tt2, ft, opaque, pf};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static void test_exprs(void) {
  int64_t dims[] = {2, 3};
  TVMFFIObject* t = tensor_type(dims, 2, f32);
  TVMFFIObject* x = trx_var_new("x", 1, t, false);
  TVMFFIObject* y = trx_var_new("y", 1, NULL, false);
  /* Tuple: typed when every field is typed */
  TVMFFIObject* xx[] = {x, x};
  TVMFFIObject* fx = objs_array(xx, 2);
  TVMFFIObject* tup = trx_tuple_new(fx);
  CHECK(trx_is(((trx_expr_t*)tup)->ty, TRX_TUPLE_TYPE));
  TVMFFIObject* xy[] = {x, y};
  TVMFFIObject* fxy = objs_array(xy, 2);
  TVMFFIObject* tup2 = trx_tuple_new(fxy);
  CHECK(((trx_expr_t*)tup2)->ty == NULL);
  TVMFFIObject* empty = trx_tuple_new(NULL);
  CHECK(trx_is(((trx_expr_t*)empty)->ty, TRX_TUPLE_TYPE));
  CHECK_RAISED(rc_of(trx_tuple_new(t)), "TypeError", "expected `Array<ir.Expr>`");
  /* TupleGetItem */
  TVMFFIObject* g = trx_tuple_get_item_new(tup, 1);
  CHECK(g && ((trx_expr_t*)g)->ty == t);
  CHECK_RAISED(rc_of(trx_tuple_get_item_new(tup, -1)), "IndexError", "cannot be accessed with negative index -1");
  CHECK_RAISED(rc_of(trx_tuple_get_item_new(tup, 2)), "IndexError", "is of size 2, and cannot be accessed with index 2");
  TVMFFIObject* g2 = trx_tuple_get_item_new(y, 5);
  CHECK(g2 && ((trx_expr_t*)g2)->ty == NULL);
  /* Call */
  TVMFFIObject* gv = trx_global_var_new("f", 1);
  TVMFFIObject* c = trx_call_new(gv, fx, NULL, NULL);
  CHECK(c && tether_array_size(((trx_call_t*)c)->ty_args) == 0 && ((trx_call_t*)c)->attrs == NULL);
  CHECK(((trx_expr_t*)c)->ty == NULL);
  CHECK_RAISED(rc_of(trx_call_new(t, fx, NULL, NULL)), "TypeError", "argument `op`");
  /* binops */
  TVMFFIObject* pt = trx_prim_type_new(i64);
  TVMFFIObject* n = trx_var_new("n", 1, pt, false);
  TVMFFIObject* one = trx_int_imm_new(i64, 1);
  TVMFFIObject* one32 = trx_int_imm_new(i32, 1);
  TVMFFIObject* add = trx_binop_new(TRX_PRIM_ADD, n, one);
  CHECK(trx_is(add, TRX_PRIM_ADD) && trx_is(((trx_expr_t*)add)->ty, TRX_PRIM_TYPE));
  CHECK_RAISED(rc_of(trx_binop_new(TRX_PRIM_ADD, n, one32)), "TypeError", "mismatched types. int64 vs. int32");
  CHECK_RAISED(rc_of(trx_binop_new(TRX_PRIM_MUL, y, one)), "TypeError", "operands must be primitive");
  CHECK_RAISED(rc_of(trx_binop_new(TRX_CALL, n, one)), "ValueError", "not a prim binop");
  /* ShapeExpr with a symbolic dim */
  TVMFFIObject* nv[] = {n, one};
  TVMFFIObject* na = objs_array(nv, 2);
  TVMFFIObject* se = trx_shape_expr_new(na);
  CHECK(se && ((trx_shape_type_t*)((trx_expr_t*)se)->ty)->ndim == 2);
  TVMFFIObject* n32t = trx_prim_type_new(i32);
  TVMFFIObject* m32 = trx_var_new("m", 1, n32t, false);
  TVMFFIObject* m32a = objs_array(&m32, 1);
  CHECK_RAISED(rc_of(trx_shape_expr_new(m32a)), "InternalError", "the value in ShapeType can only have dtype of int64");
  /* Function */
  TVMFFIObject* px = objs_array(&x, 1);
  TVMFFIObject* seq = trx_seq_expr_new(NULL, x);
  CHECK_RAISED(rc_of(trx_function_new(px, seq, NULL, true, NULL)), "InternalError",
               "Function must be constructed with either an explicit type for the return type, or a normalized body with type.");
  TVMFFIObject* py = objs_array(&y, 1);
  CHECK_RAISED(rc_of(trx_function_new(py, x, NULL, true, NULL)), "InternalError",
               "relax.Function requires params to contain ty");
  TVMFFIObject* fn = trx_function_new(px, x, NULL, true, NULL); /* non-seq body is wrapped */
  trx_function_t* f = (trx_function_t*)fn;
  CHECK(fn && trx_is(f->body, TRX_SEQ_EXPR) && f->ret_ty == t && f->is_pure);
  CHECK(trx_is(f->base.base.ty, TRX_FUNC_TYPE) && ((trx_func_type_t*)f->base.base.ty)->ret == t);
  CHECK(((trx_seq_expr_t*)f->body)->body == x && ((trx_expr_t*)f->body)->ty == NULL);
  TVMFFIObject* any = trx_any_type_new();
  TVMFFIObject* fn2 = trx_function_new(px, seq, any, false, NULL);
  CHECK(fn2 && ((trx_function_t*)fn2)->body == seq && !((trx_func_type_t*)((trx_expr_t*)fn2)->ty)->purity);
  /* If wraps branches */
  TVMFFIObject* iff = trx_if_new(x, x, seq);
  CHECK(iff && trx_is(((trx_if_t*)iff)->true_branch, TRX_SEQ_EXPR) && ((trx_if_t*)iff)->false_branch == seq);
  /* bindings and blocks */
  TVMFFIObject* z = trx_var_new("z", 1, NULL, true);
  TVMFFIObject* vb = trx_var_binding_new(z, x);
  TVMFFIObject* mc = trx_match_cast_new(z, x, t);
  CHECK_RAISED(rc_of(trx_match_cast_new(z, x, NULL)), "TypeError", "argument `ty`");
  CHECK_RAISED(rc_of(trx_var_binding_new(x, t)), "TypeError", "argument `value`");
  TVMFFIObject* bs[] = {vb, mc};
  TVMFFIObject* ba = objs_array(bs, 2);
  TVMFFIObject* blk = trx_binding_block_new(ba, true);
  CHECK(trx_is(blk, TRX_DATAFLOW_BLOCK) && trx_is(blk, TRX_BINDING_BLOCK));
  CHECK_RAISED(rc_of(trx_binding_block_new(px, false)), "TypeError", "Array<relax.expr.Binding>");
  TVMFFIObject* mod = trx_ir_module_new();
  CHECK(mod && tether_map_size(((trx_ir_module_t*)mod)->functions) == 0);
  TVMFFIObject* attrs = trx_dict_attrs_new(NULL);
  CHECK(attrs && tether_map_size(((trx_dict_attrs_t*)attrs)->dict) == 0);
  TVMFFIObject* ext = trx_extern_func_new("foo", 3, NULL);
  CHECK(trx_is(ext, TRX_EXTERN_FUNC) && trx_is(((trx_expr_t*)ext)->ty, TRX_FUNC_TYPE));
  TVMFFIObject* objs[] = {t, x, y, fx, tup, fxy, tup2, empty, g, g2, gv, c, pt, n, one, one32, add, na, se,
                          n32t, m32, m32a, px, seq, py, fn, any, fn2, iff, z, vb, mc, ba, blk, mod, attrs, ext};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static void test_tensor_const(void) {
  int64_t shape[] = {2, 2};
  DLDevice cpu = {kDLCPU, 0};
  TVMFFIObjectHandle tensor = NULL;
  CHECK_OK(tether_tensor_empty(shape, 2, i32, cpu, &tensor));
  TVMFFIObject* c = trx_tensor_const_new(tensor, NULL);
  trx_tensor_type_t* ty = (trx_tensor_type_t*)((trx_expr_t*)c)->ty;
  CHECK(trx_is((TVMFFIObject*)ty, TRX_TENSOR_TYPE) && ty->ndim == 2 && trx_tensor_dtype(ty).bits == 32);
  CHECK(((trx_tensor_const_t*)c)->value.v_obj == tensor);
  CHECK_RAISED(rc_of(trx_tensor_const_new(c, NULL)), "TypeError", "must be a Tensor");
  decref(c);
  decref(tensor);
}

/* tether_field_get on every reflected field of a few nodes. */
static void test_reflection_round_trip(void) {
  int64_t dims[] = {4};
  TVMFFIObject* t = tensor_type(dims, 1, f32);
  TVMFFIObject* x = trx_var_new("x", 1, t, false);
  const TVMFFIFieldInfo* f;
  TVMFFIAny out = tether_any_none();
  f = tether_type_find_field(trx_type_index[TRX_VAR], "name", 4);
  CHECK_OK(tether_field_get(x, f, &out));
  TVMFFIByteArray s;
  CHECK(tether_any_get_str(&out, &s) && s.size == 1 && s.data[0] == 'x');
  tether_any_release(&out);
  f = tether_type_find_field(trx_type_index[TRX_VAR], "ty", 2);
  CHECK_OK(tether_field_get(x, f, &out));
  CHECK(out.v_obj == t);
  tether_any_release(&out);
  /* ty is writable through reflection */
  TVMFFIAny none = tether_any_none();
  CHECK_OK(tether_field_set(x, f, &none));
  CHECK(((trx_expr_t*)x)->ty == NULL);
  TVMFFIAny tv = tether_any_object(t);
  CHECK_OK(tether_field_set(x, f, &tv));
  CHECK(((trx_expr_t*)x)->ty == t);
  static const char* tfields[] = {"span", "shape", "dtype", "vdevice", "ndim"};
  for (size_t i = 0; i < 5; ++i) {
    f = tether_type_find_field(trx_type_index[TRX_TENSOR_TYPE], tfields[i], strlen(tfields[i]));
    CHECK(f != NULL);
    if (f) {
      CHECK_OK(tether_field_get(t, f, &out));
      tether_any_release(&out);
    }
  }
  f = tether_type_find_field(trx_type_index[TRX_TENSOR_TYPE], "ndim", 4);
  CHECK_OK(tether_field_get(t, f, &out));
  CHECK(out.type_index == kTVMFFIInt && out.v_int64 == 1);
  f = tether_type_find_field(trx_type_index[TRX_TENSOR_TYPE], "dtype", 5);
  CHECK_OK(tether_field_get(t, f, &out));
  /* TVM's schema: the dtype is a PrimType */
  CHECK(out.type_index == trx_type_index[TRX_PRIM_TYPE] &&
        ((trx_prim_type_t*)out.v_obj)->dtype.code == kDLFloat);
  tether_any_release(&out);
  /* every field of every kind is readable on a default node */
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    TVMFFIObjectHandle obj = NULL;
    CHECK_OK(tether_object_new_reflected(trx_type_index[k], &obj));
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(trx_type_index[k]);
    for (int32_t d = 0; d <= info->type_depth; ++d) {
      const TVMFFITypeInfo* ti = d < info->type_depth ? info->type_ancestors[d] : info;
      for (int32_t i = 0; i < ti->num_fields; ++i) {
        out = tether_any_none();
        if (ti->fields[i].getter((char*)obj + ti->fields[i].offset, &out) == 0) tether_any_release(&out);
      }
    }
    decref(obj);
  }
  decref(x);
  decref(t);
}

static void test_globals(void) {
  TVMFFIAny out, args[4];
  /* relax.TensorType([1, 3], "float32") */
  int64_t dims[] = {1, 3};
  TVMFFIObject* arr = ints_array(dims, 2);
  args[0] = tether_any_object(arr);
  args[1] = tether_any_raw_str("float32");
  args[2] = tether_any_none();
  args[3] = tether_any_int(-1);
  CHECK_OK(call("relax.TensorType", args, 4, &out));
  trx_tensor_type_t* tt = (trx_tensor_type_t*)out.v_obj;
  CHECK(trx_is(out.v_obj, TRX_TENSOR_TYPE) && tt->ndim == 2 && trx_tensor_dtype(tt).code == kDLFloat);
  TVMFFIAny tensor_ty = out;
  args[3] = tether_any_int(2);
  CHECK_RAISED(call("relax.TensorType", args, 4, &out), "ValueError",
               "Check failed: ndim == kUnknownNDim (2 vs. -1) : Cannot both specify shape and ndim");
  /* dtype None / "" = unknown */
  args[0] = tether_any_none();
  args[1] = tether_any_raw_str("");
  args[3] = tether_any_int(4);
  CHECK_OK(call("relax.TensorType", args, 4, &out));
  CHECK(((trx_tensor_type_t*)out.v_obj)->dtype == NULL && ((trx_tensor_type_t*)out.v_obj)->ndim == 4);
  tether_any_release(&out);
  args[0] = tether_any_int(3);
  CHECK_RAISED(call("relax.TensorType", args, 2, &out), "InternalError",
               "Check failed: (shape_ty) is false: We expect shape to contain pre-set shape type");
  /* ir.Var(name, ty) with a Type, None, or a dtype string */
  args[0] = tether_any_raw_str("x");
  args[1] = tensor_ty;
  CHECK_OK(call("ir.Var", args, 2, &out));
  CHECK(trx_is(out.v_obj, TRX_VAR) && ((trx_expr_t*)out.v_obj)->ty == tensor_ty.v_obj);
  TVMFFIAny x = out;
  args[1] = tether_any_raw_str("int64");
  CHECK_OK(call("ir.Var", args, 2, &out));
  CHECK(trx_is(((trx_expr_t*)out.v_obj)->ty, TRX_PRIM_TYPE));
  TVMFFIAny n = out;
  args[1] = tether_any_none();
  CHECK_OK(call("ir.Var", args, 2, &out));
  CHECK(((trx_expr_t*)out.v_obj)->ty == NULL);
  tether_any_release(&out);
  args[1] = tether_any_int(3);
  CHECK_RAISED(call("ir.Var", args, 2, &out), "TypeError", "ty must be a Type or primitive dtype string");
  CHECK_RAISED(call("relax.DataflowVar", args, 2, &out), "TypeError", "ty needs to be an instance of Type.");
  /* prim.Add(n, 1): the int takes n's dtype */
  args[0] = n;
  args[1] = tether_any_int(1);
  CHECK_OK(call("prim.Add", args, 2, &out));
  CHECK(trx_is(out.v_obj, TRX_PRIM_ADD));
  tether_any_release(&out);
  /* ir.IntImm / FloatImm */
  args[0] = tether_any_raw_str("int32");
  args[1] = tether_any_int(1LL << 40);
  CHECK_RAISED(call("ir.IntImm", args, 2, &out), "ValueError", "exceeds range of int32");
  args[1] = tether_any_int(5);
  CHECK_OK(call("ir.IntImm", args, 2, &out));
  CHECK(((trx_int_imm_t*)out.v_obj)->value == 5);
  tether_any_release(&out);
  /* relax.ShapeExpr([n, 4]) and a TensorType over it */
  TVMFFIAny items[2] = {n, tether_any_int(4)};
  TVMFFIObjectHandle vals = NULL;
  CHECK_OK(tether_array_new(items, 2, &vals));
  args[0] = tether_any_object(vals);
  CHECK_OK(call("relax.ShapeExpr", args, 1, &out));
  CHECK(trx_is(out.v_obj, TRX_SHAPE_EXPR));
  TVMFFIAny se = out;
  args[0] = se;
  args[1] = tether_any_raw_str("float16");
  CHECK_OK(call("relax.TensorType", args, 2, &out));
  CHECK(((trx_tensor_type_t*)out.v_obj)->shape == se.v_obj && ((trx_tensor_type_t*)out.v_obj)->ndim == 2);
  tether_any_release(&out);
  /* ir.Call with a dict for attrs */
  TVMFFIObjectHandle dict = NULL;
  TVMFFIAny kv[2] = {tether_any_raw_str("a"), tether_any_int(1)};
  CHECK_OK(tether_dict_new(kv, 1, &dict));
  TVMFFIObject* gv = trx_global_var_new("f", 1);
  TVMFFIObject* xargs = objs_array(&x.v_obj, 1);
  args[0] = tether_any_object(gv);
  args[1] = tether_any_object(xargs);
  args[2] = tether_any_object(dict);
  args[3] = tether_any_none();
  CHECK_OK(call("ir.Call", args, 4, &out));
  trx_call_t* c = (trx_call_t*)out.v_obj;
  CHECK(trx_is(c->attrs, TRX_DICT_ATTRS) && tether_map_size(((trx_dict_attrs_t*)c->attrs)->dict) == 1);
  tether_any_release(&out);
  /* relax.Function(params, body) and ir.IRModule({"main": f}) */
  args[0] = tether_any_object(xargs);
  args[1] = x;
  CHECK_OK(call("relax.Function", args, 2, &out));
  TVMFFIAny fn = out;
  CHECK(trx_is(fn.v_obj, TRX_FUNCTION) && ((trx_function_t*)fn.v_obj)->is_pure);
  TVMFFIObjectHandle fmap = NULL;
  TVMFFIAny fkv[2] = {tether_any_raw_str("main"), fn};
  CHECK_OK(tether_map_new(fkv, 1, &fmap));
  args[0] = tether_any_object(fmap);
  CHECK_OK(call("ir.IRModule", args, 1, &out));
  trx_ir_module_t* m = (trx_ir_module_t*)out.v_obj;
  CHECK(tether_map_size(m->functions) == 1 && tether_map_size(m->global_var_map_) == 1);
  tether_any_release(&out);
  /* types */
  args[0] = tether_any_raw_str("int64");
  CHECK_OK(call("ir.PrimType", args, 1, &out));
  CHECK(((trx_prim_type_t*)out.v_obj)->dtype.bits == 64);
  tether_any_release(&out);
  CHECK_OK(call("relax.AnyType", args, 0, &out));
  CHECK(trx_is(out.v_obj, TRX_ANY_TYPE));
  TVMFFIAny any = out;
  args[0] = tether_any_none();
  args[1] = any;
  CHECK_OK(call("relax.FuncType", args, 2, &out));
  CHECK(((trx_func_type_t*)out.v_obj)->params == NULL && ((trx_func_type_t*)out.v_obj)->purity);
  tether_any_release(&out);
  args[0] = tether_any_none();
  args[1] = tether_any_int(3);
  CHECK_OK(call("relax.ShapeType", args, 2, &out));
  CHECK(((trx_shape_type_t*)out.v_obj)->ndim == 3);
  tether_any_release(&out);
  tether_any_release(&any);
  tether_any_release(&fn);
  tether_any_release(&se);
  tether_any_release(&x);
  tether_any_release(&n);
  tether_any_release(&tensor_ty);
  decref(arr);
  decref(vals);
  decref(dict);
  decref(gv);
  decref(xargs);
  decref(fmap);
}

/* The default ret_ty erases symbolic vars the params do not define (observed in TVM:
 * f(x: (n, 3)) returning (m, 3) gives R.Tensor(dtype="float32", ndim=2)). */
static void test_function_ret_erasure(void) {
  TVMFFIObject* pt = trx_prim_type_new(i64);
  TVMFFIObject* n = trx_var_new("n", 1, pt, false);
  TVMFFIObject* m = trx_var_new("m", 1, pt, false);
  TVMFFIObject* three = trx_int64(3);
  TVMFFIObject* two = trx_int64(2);
  TVMFFIObject* n2 = trx_mul(n, two);
  TVMFFIObject *vn[] = {n, three}, *vm[] = {m, three}, *vn2[] = {n2, three};
  TVMFFIObject *an = objs_array(vn, 2), *am = objs_array(vm, 2), *an2 = objs_array(vn2, 2);
  TVMFFIObject *sn = trx_shape_expr_new(an), *sm = trx_shape_expr_new(am), *sn2 = trx_shape_expr_new(an2);
  TVMFFIObject* tn = trx_tensor_type_new(sn, f32, -1);
  TVMFFIObject* tm = trx_tensor_type_new(sm, f32, -1);
  TVMFFIObject* tn2 = trx_tensor_type_new(sn2, f32, -1);
  TVMFFIObject* x = trx_var_new("x", 1, tn, false);
  TVMFFIObject* x2 = trx_var_new("x", 1, tn2, false);
  TVMFFIObject* ym = trx_var_new("y", 1, tm, false);
  TVMFFIObject* yn = trx_var_new("y", 1, tn, false);
  TVMFFIObject* yn2 = trx_var_new("y", 1, tn2, false);
  TVMFFIObject *px = objs_array(&x, 1), *px2 = objs_array(&x2, 1);
  TVMFFIObject* f1 = trx_function_new(px, ym, NULL, true, NULL);
  trx_tensor_type_t* r1 = (trx_tensor_type_t*)((trx_function_t*)f1)->ret_ty;
  CHECK(r1->shape == NULL && r1->ndim == 2 && trx_tensor_dtype(r1).code == kDLFloat);
  TVMFFIObject* f2 = trx_function_new(px, yn2, NULL, true, NULL);
  CHECK(((trx_function_t*)f2)->ret_ty == tn2); /* (n * 2, 3) is well defined under (n, 3) */
  TVMFFIObject* f3 = trx_function_new(px2, yn, NULL, true, NULL);
  CHECK(((trx_tensor_type_t*)((trx_function_t*)f3)->ret_ty)->shape == NULL); /* n * 2 defines nothing */
  TVMFFIObject* tys[] = {tm, tn};
  TVMFFIObject* ta = objs_array(tys, 2);
  TVMFFIObject* tt = trx_tuple_type_new(ta);
  TVMFFIObject* z = trx_var_new("z", 1, tt, false);
  TVMFFIObject* f4 = trx_function_new(px, z, NULL, true, NULL);
  trx_tuple_type_t* r4 = (trx_tuple_type_t*)((trx_function_t*)f4)->ret_ty;
  CHECK(trx_is((TVMFFIObject*)r4, TRX_TUPLE_TYPE) && (TVMFFIObject*)r4 != tt);
  CHECK(((trx_tensor_type_t*)tether_array_at(r4->fields, 0)->v_obj)->shape == NULL);
  CHECK(tether_array_at(r4->fields, 1)->v_obj == tn);
  TVMFFIObject* st = trx_shape_type_new(am, -1);
  TVMFFIObject* w = trx_var_new("w", 1, st, false);
  TVMFFIObject* f5 = trx_function_new(px, w, NULL, true, NULL);
  trx_shape_type_t* r5 = (trx_shape_type_t*)((trx_function_t*)f5)->ret_ty;
  CHECK(r5->values == NULL && r5->ndim == 2);
  TVMFFIObject* objs[] = {pt, n, m, three, two, n2, an, am, an2, sn, sm, sn2, tn, tm, tn2, x, x2, ym, yn, yn2,
                          px, px2, f1, f2, f3, ta, tt, z, f4, st, w, f5};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

/* true if the bytes contain `needle`. */
static bool bytes_have(TVMFFIByteArray b, const char* needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= b.size; ++i) {
    if (memcmp(b.data + i, needle, k) == 0) return true;
  }
  return false;
}

/* The text of ffi.ToJSONGraphString(v) compared with `want`; the result released. */
static void check_json(TVMFFIAny v, const char* want) {
  TVMFFIAny out, args[2] = {v, tether_any_none()}; /* no metadata */
  CHECK_OK(call("ffi.ToJSONGraphString", args, 2, &out));
  TVMFFIByteArray s = {"", 0};
  CHECK(tether_any_get_str(&out, &s));
  CHECK_BYTES(s, want);
  tether_any_release(&out);
}

/* TVM 0.27's schema as a JSON graph shows it (texts written by apache-tvm's save_json). */
static void test_tvm_schema_json(void) {
  /* declared types: IntImm.value and ConcatAttrs.axis are boxed (node references) */
  const TVMFFIFieldInfo* f = tether_type_find_field(trx_type_index[TRX_INT_IMM], "value", 5);
  CHECK(f != NULL && f->field_static_type_index == kTVMFFIAny);
  CHECK(f != NULL && bytes_have(f->metadata, "ffi.BigInt"));
  f = tether_type_find_field(trx_type_index[TRX_TENSOR_TYPE], "dtype", 5);
  CHECK(f != NULL && bytes_have(f->metadata, "{\\\"type\\\":\\\"ir.PrimType\\\"}"));
  TVMFFIByteArray concat_key = {"relax.attrs.ConcatAttrs", 23};
  int32_t concat_index = -1;
  CHECK_OK(TVMFFITypeKeyToIndex(&concat_key, &concat_index));
  f = tether_type_find_field(concat_index, "axis", 4);
  CHECK(f != NULL && f->field_static_type_index == kTVMFFIAny);

  /* TensorType((2, 3), "float32"): the dtype a PrimType node, IntImm values int nodes, the
   * ShapeType's IntImms distinct from the ShapeExpr's (as TVM converts plain ints twice) */
  const int64_t dims[] = {2, 3};
  TVMFFIObject* t = tensor_type(dims, 2, f32);
  check_json(tether_any_object(t),
             "{\"root_index\":13,\"nodes\":[{\"type\":\"None\"},{\"type\":\"ir.PrimType\",\"data\":{\"span\":0,"
             "\"dtype\":\"int64\"}},{\"type\":\"int\",\"data\":2},{\"type\":\"ir.IntImm\",\"data\":{\"span\":0,"
             "\"ty\":1,\"value\":2}},{\"type\":\"int\",\"data\":3},{\"type\":\"ir.IntImm\",\"data\":{\"span\":0,"
             "\"ty\":1,\"value\":4}},{\"type\":\"ffi.Array\",\"data\":[3,5]},{\"type\":\"relax.ShapeType\",\"data\":"
             "{\"span\":0,\"values\":6,\"ndim\":2}},{\"type\":\"ir.IntImm\",\"data\":{\"span\":0,\"ty\":1,"
             "\"value\":2}},{\"type\":\"ir.IntImm\",\"data\":{\"span\":0,\"ty\":1,\"value\":4}},{\"type\":"
             "\"ffi.Array\",\"data\":[8,9]},{\"type\":\"relax.expr.ShapeExpr\",\"data\":{\"span\":0,\"ty\":7,"
             "\"values\":10}},{\"type\":\"ir.PrimType\",\"data\":{\"span\":0,\"dtype\":\"float32\"}},{\"type\":"
             "\"relax.TensorType\",\"data\":{\"span\":0,\"shape\":11,\"dtype\":12,\"vdevice\":0,\"ndim\":2}}]}");

  /* ir.Op: its name as a JSON string; read back by name to the registered Op */
  TVMFFIObject* add = trx_op_get("relax.add", 9);
  CHECK(add != NULL);
  check_json(tether_any_object(add), "{\"root_index\":0,\"nodes\":[{\"type\":\"ir.Op\",\"data\":\"relax.add\"}]}");
  TVMFFIAny text = tether_any_raw_str("{\"root_index\":0,\"nodes\":[{\"type\":\"ir.Op\",\"data\":\"relax.add\"}]}");
  TVMFFIAny back;
  CHECK_OK(call("ffi.FromJSONGraphString", &text, 1, &back));
  CHECK(tether_any_is_object(&back) && back.v_obj == add);
  tether_any_release(&back);
  text = tether_any_raw_str("{\"root_index\":0,\"nodes\":[{\"type\":\"ir.Op\",\"data\":\"relax.nope\"}]}");
  CHECK_RAISED(call("ffi.FromJSONGraphString", &text, 1, &back), "ValueError", "unknown op `relax.nope`");
  text = tether_any_raw_str("{\"root_index\":0,\"nodes\":[{\"type\":\"ir.Op\",\"data\":[1]}]}");
  CHECK_RAISED(call("ffi.FromJSONGraphString", &text, 1, &back), "TypeError", "node 0");

  /* ConcatAttrs.axis: an int node, or the None node */
  TVMFFIObject* x = trx_var_new("x", 1, t, false);
  TVMFFIObject* xs[] = {x, x};
  TVMFFIObject* arr = objs_array(xs, 2);
  TVMFFIObject* tup = trx_tuple_new(arr);
  TVMFFIAny cargs[2] = {tether_any_object(tup), tether_any_int(1)};
  TVMFFIAny c1, c2;
  CHECK_OK(call("relax.op.concat", cargs, 2, &c1));
  cargs[1] = tether_any_none();
  CHECK_OK(call("relax.op.concat", cargs, 2, &c2));
  check_json(tether_any_object(((trx_call_t*)c1.v_obj)->attrs),
             "{\"root_index\":1,\"nodes\":[{\"type\":\"int\",\"data\":1},"
             "{\"type\":\"relax.attrs.ConcatAttrs\",\"data\":{\"axis\":0}}]}");
  check_json(tether_any_object(((trx_call_t*)c2.v_obj)->attrs),
             "{\"root_index\":1,\"nodes\":[{\"type\":\"None\"},"
             "{\"type\":\"relax.attrs.ConcatAttrs\",\"data\":{\"axis\":0}}]}");
  tether_any_release(&c1);
  tether_any_release(&c2);
  decref(tup);
  decref(arr);
  decref(x);

  /* an ExternFunc's default type: derive_func an ir.EnvFunc, written as its name; read back
   * by name (func stays None) */
  TVMFFIObject* ext = trx_extern_func_new("k", 1, NULL);
  TVMFFIObject* fty = ((trx_expr_t*)ext)->ty;
  check_json(tether_any_object(((trx_func_type_t*)fty)->derive_func),
             "{\"root_index\":0,\"nodes\":[{\"type\":\"ir.EnvFunc\",\"data\":\"tvm.relax.type.infer_by_ty_args\"}]}");
  text = tether_any_raw_str("{\"root_index\":0,\"nodes\":[{\"type\":\"ir.EnvFunc\",\"data\":\"f\"}]}");
  CHECK_OK(call("ffi.FromJSONGraphString", &text, 1, &back));
  CHECK(tether_any_is_object(&back) && trx_is(back.v_obj, TRX_ENV_FUNC));
  if (tether_any_is_object(&back) && trx_is(back.v_obj, TRX_ENV_FUNC)) {
    TVMFFIByteArray name = {"", 0};
    CHECK(tether_any_get_str(&((trx_env_func_t*)back.v_obj)->name, &name));
    CHECK_BYTES(name, "f");
    CHECK(((trx_env_func_t*)back.v_obj)->func == NULL);
  }
  tether_any_release(&back);
  decref(ext);

  /* an IRModule: source_map, attrs and global_infos, each a distinct empty object */
  TVMFFIObject* mod = trx_ir_module_new();
  check_json(tether_any_object(mod),
             "{\"root_index\":7,\"nodes\":[{\"type\":\"ffi.Map\",\"data\":[]},{\"type\":\"ffi.Map\",\"data\":[]},"
             "{\"type\":\"ffi.Map\",\"data\":[]},{\"type\":\"ir.SourceMap\",\"data\":{\"source_map\":2}},"
             "{\"type\":\"ffi.Map\",\"data\":[]},{\"type\":\"ir.DictAttrs\",\"data\":{\"__dict__\":4}},"
             "{\"type\":\"ffi.Map\",\"data\":[]},{\"type\":\"ir.IRModule\",\"data\":{\"functions\":0,"
             "\"global_var_map_\":1,\"source_map\":3,\"attrs\":5,\"global_infos\":6}}]}");
  decref(mod);
  decref(t);
}

TEST_MAIN(TEST_CASE(test_registration), TEST_CASE(test_var), TEST_CASE(test_imms), TEST_CASE(test_types),
          TEST_CASE(test_exprs), TEST_CASE(test_function_ret_erasure), TEST_CASE(test_tensor_const), TEST_CASE(test_reflection_round_trip),
          TEST_CASE(test_globals), TEST_CASE(test_tvm_schema_json))
