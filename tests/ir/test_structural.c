/*
 * test_structural.c -- structural equality and hash (relax.md section 7): alpha-equivalent
 * functions, definition points and free vars, map_free_vars, Op by name, tensor contents,
 * IRModules, first-mismatch paths (as apache-tvm 0.27 reports them) and the globals.
 */
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>
#include <tether/tensor.h>

#include "test.h"

static const DLDataType f32 = {kDLFloat, 32, 1};
static const DLDataType i64 = {kDLInt, 64, 1};

static void decref(void* o) {
  if (o) TVMFFIObjectDecRef(o);
}

static TVMFFIObject* arr(TVMFFIObject** v, int n) {
  TVMFFIAny items[8];
  for (int i = 0; i < n; ++i) items[i] = tether_any_object(v[i]);
  TVMFFIObjectHandle a = NULL;
  CHECK_OK(tether_array_new(items, n, &a));
  return a;
}

/* TensorType over dims: each dim an int (>= 0) or the var in syms[-dim-1]. */
static TVMFFIObject* tensor_ty(const int64_t* dims, int n, TVMFFIObject** syms) {
  TVMFFIObject* vals[8];
  for (int i = 0; i < n; ++i) {
    if (dims[i] >= 0) {
      vals[i] = trx_int64(dims[i]);
    } else {
      vals[i] = syms[-dims[i] - 1];
      TVMFFIObjectIncRef(vals[i]);
    }
  }
  TVMFFIObject* a = arr(vals, n);
  TVMFFIObject* shape = trx_shape_expr_new(a);
  TVMFFIObject* t = trx_tensor_type_new(shape, f32, -1);
  for (int i = 0; i < n; ++i) decref(vals[i]);
  decref(a);
  decref(shape);
  return t;
}

static TVMFFIObject* make_op(const char* name) {
  TVMFFIObjectHandle op = NULL;
  CHECK_OK(tether_object_new_reflected(trx_type_index[TRX_OP], &op));
  trx_op_t* o = op;
  tether_any_str(name, strlen(name), &o->name);
  tether_any_str("", 0, &o->attrs_type_key);
  return op;
}

/* A typed call op(args...) whose ty is `ty`. */
static TVMFFIObject* call(TVMFFIObject* op, TVMFFIObject** args, int n, TVMFFIObject* ty) {
  TVMFFIObject* a = arr(args, n);
  TVMFFIObject* c = trx_call_new(op, a, NULL, NULL);
  ((trx_expr_t*)c)->ty = ty;
  TVMFFIObjectIncRef(ty);
  decref(a);
  return c;
}

/*
 * def main(x: T(dims)):
 *   with dataflow: lv = relu(x); lv1 = add(lv, x) (or add(x, lv) if swap); gv = lv1
 *   return gv
 */
static TVMFFIObject* make_func(const int64_t* dims, int nd, TVMFFIObject** syms, const char* xname, bool swap) {
  TVMFFIObject* t = tensor_ty(dims, nd, syms);
  TVMFFIObject* x = trx_var_new(xname, strlen(xname), t, false);
  TVMFFIObject* relu = make_op("relax.nn.relu");
  TVMFFIObject* add = make_op("relax.add");
  TVMFFIObject* c1 = call(relu, &x, 1, t);
  TVMFFIObject* lv = trx_var_new("lv", 2, t, true);
  TVMFFIObject* b1 = trx_var_binding_new(lv, c1);
  TVMFFIObject* args2[] = {swap ? x : lv, swap ? lv : x};
  TVMFFIObject* c2 = call(add, args2, 2, t);
  TVMFFIObject* lv1 = trx_var_new("lv1", 3, t, true);
  TVMFFIObject* b2 = trx_var_binding_new(lv1, c2);
  TVMFFIObject* gv = trx_var_new("gv", 2, t, false);
  TVMFFIObject* b3 = trx_var_binding_new(gv, lv1);
  TVMFFIObject* bs[] = {b1, b2, b3};
  TVMFFIObject* ba = arr(bs, 3);
  TVMFFIObject* blk = trx_binding_block_new(ba, true);
  TVMFFIObject* blocks = arr(&blk, 1);
  TVMFFIObject* seq = trx_seq_expr_new(blocks, gv);
  ((trx_expr_t*)seq)->ty = t;
  TVMFFIObjectIncRef(t);
  TVMFFIObject* params = arr(&x, 1);
  TVMFFIObject* f = trx_function_new(params, seq, NULL, true, NULL);
  TVMFFIObject* objs[] = {t, x, relu, add, c1, lv, b1, c2, lv1, b2, gv, b3, ba, blk, blocks, seq, params};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
  return f;
}

static bool eq(TVMFFIObject* a, TVMFFIObject* b, bool mfv) {
  TVMFFIAny x = a ? tether_any_object(a) : tether_any_none();
  TVMFFIAny y = b ? tether_any_object(b) : tether_any_none();
  return trx_structural_equal(&x, &y, mfv);
}

static uint64_t hash(TVMFFIObject* a, bool mfv) {
  TVMFFIAny x = tether_any_object(a);
  return trx_structural_hash(&x, mfv);
}

/* Checks the first mismatch path of a vs b ("" = equal). */
static void check_path(TVMFFIObject* a, TVMFFIObject* b, bool mfv, const char* want, int line) {
  TVMFFIAny x = tether_any_object(a), y = tether_any_object(b), out;
  CHECK_OK(trx_structural_first_mismatch(&x, &y, mfv, &out));
  TVMFFIByteArray s = {"", 0};
  if (out.type_index != kTVMFFINone) tether_any_get_str(&out, &s);
  if (s.size != strlen(want) || memcmp(s.data, want, s.size) != 0) {
    fprintf(stderr, "%s:%d: first mismatch `%.*s`, expected `%s`\n", __FILE__, line, (int)s.size, s.data, want);
    test__checks_failed_in_current++;
  }
  tether_any_release(&out);
}
#define CHECK_PATH(a, b, mfv, want) check_path(a, b, mfv, want, __LINE__)

static void test_alpha_equivalent_functions(void) {
  int64_t d23[] = {2, 3}, d24[] = {2, 4};
  TVMFFIObject* f1 = make_func(d23, 2, NULL, "x", false);
  TVMFFIObject* f2 = make_func(d23, 2, NULL, "y", false);
  TVMFFIObject* f3 = make_func(d24, 2, NULL, "x", false);
  TVMFFIObject* f4 = make_func(d23, 2, NULL, "x", true);
  CHECK(eq(f1, f2, false));
  CHECK(eq(f1, f1, false));
  CHECK(hash(f1, false) == hash(f2, false));
  CHECK(!eq(f1, f3, false));
  CHECK(hash(f1, false) != hash(f3, false));
  /* the path apache-tvm reports for the same pair */
  CHECK_PATH(f1, f3, false, "<root>.ty.params[0].shape.ty.values[1].value");
  CHECK(!eq(f1, f4, false));
  CHECK_PATH(f1, f4, false, "<root>.body.blocks[0].bindings[1].value.args[0]");
  CHECK_PATH(f1, f2, false, "");
  decref(f1);
  decref(f2);
  decref(f3);
  decref(f4);
}

static void test_free_vars(void) {
  int64_t d2[] = {2};
  TVMFFIObject* t = tensor_ty(d2, 1, NULL);
  TVMFFIObject* x = trx_var_new("x", 1, t, false);
  TVMFFIObject* y = trx_var_new("y", 1, t, false);
  TVMFFIObject* u = trx_var_new("u", 1, NULL, false);
  TVMFFIObject* dx = trx_var_new("x", 1, t, true);
  CHECK(!eq(x, y, false));
  CHECK(eq(x, y, true));
  CHECK(hash(x, false) != hash(y, false));
  CHECK(hash(x, true) == hash(y, true));
  CHECK_PATH(x, y, false, "<root>");
  CHECK_PATH(u, y, true, "<root>.ty");
  CHECK(!eq(x, dx, true)); /* Var vs DataflowVar */
  /* add(x, x) vs add(x, y): x maps to itself, then y has no partner */
  TVMFFIObject* op = make_op("relax.add");
  TVMFFIObject* xx[] = {x, x}, *xy[] = {x, y}, *yx[] = {y, x};
  TVMFFIObject* c1 = call(op, xx, 2, t);
  TVMFFIObject* c2 = call(op, xy, 2, t);
  TVMFFIObject* c3 = call(op, yx, 2, t);
  CHECK_PATH(c1, c2, false, "<root>.args[1]");
  CHECK_PATH(c1, c2, true, "<root>.args[1]");
  CHECK(eq(c2, c3, true)); /* x<->y, y<->x is one to one */
  CHECK(!eq(c1, c3, true));
  /* a parameter vs a free var: f(x) = x, g(y) = x */
  TVMFFIObject* px = arr(&x, 1), *py = arr(&y, 1);
  TVMFFIObject* f = trx_function_new(px, x, NULL, true, NULL);
  TVMFFIObject* g = trx_function_new(py, x, NULL, true, NULL);
  TVMFFIObject* h = trx_function_new(py, y, NULL, true, NULL);
  CHECK(!eq(f, g, false));
  CHECK_PATH(f, g, false, "<root>.body.body");
  CHECK(eq(f, h, false));
  CHECK(hash(f, false) == hash(h, false));
  TVMFFIObject* objs[] = {t, x, y, u, dx, op, c1, c2, c3, px, py, f, g, h};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static void test_symbolic_dims(void) {
  TVMFFIObject* pt = trx_prim_type_new(i64);
  TVMFFIObject* n = trx_var_new("n", 1, pt, false);
  TVMFFIObject* m = trx_var_new("m", 1, pt, false);
  int64_t dims[] = {-1, 3};
  TVMFFIObject* f1 = make_func(dims, 2, &n, "x", false);
  TVMFFIObject* f2 = make_func(dims, 2, &m, "x", false);
  CHECK(eq(f1, f2, false)); /* n and m are defined by the params' types */
  CHECK(hash(f1, false) == hash(f2, false));
  TVMFFIObject* t1 = tensor_ty(dims, 2, &n);
  TVMFFIObject* t2 = tensor_ty(dims, 2, &m);
  CHECK(!eq(t1, t2, false));
  CHECK(eq(t1, t2, true));
  CHECK(eq(t1, t1, false));
  CHECK_PATH(t1, t2, false, "<root>.shape.ty.values[0]");
  TVMFFIObject* objs[] = {pt, n, m, f1, f2, t1, t2};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static void test_values(void) {
  DLDataType i32 = {kDLInt, 32, 1};
  TVMFFIObject* a = trx_int64(3), *b = trx_int64(3), *c = trx_int_imm_new(i32, 3), *d = trx_int64(4);
  CHECK(eq(a, b, false) && hash(a, false) == hash(b, false));
  CHECK(!eq(a, c, false));
  CHECK_PATH(a, d, false, "<root>.value");
  TVMFFIObject* op1 = make_op("relax.nn.relu"), *op2 = make_op("relax.nn.relu"), *op3 = make_op("relax.nn.gelu");
  CHECK(eq(op1, op2, false) && hash(op1, false) == hash(op2, false));
  CHECK(!eq(op1, op3, false));
  TVMFFIObject* x = trx_var_new("x", 1, NULL, false);
  TVMFFIObject* c1 = trx_call_new(op1, NULL, NULL, NULL), *c3 = trx_call_new(op3, NULL, NULL, NULL);
  CHECK_PATH(c1, c3, false, "<root>.op");
  /* ty is compared: a typed call differs from the untyped one */
  TVMFFIObject* any = trx_any_type_new();
  TVMFFIObject* c1t = call(op1, NULL, 0, any);
  CHECK_PATH(c1, c1t, false, "<root>.ty");
  /* tuple lengths */
  TVMFFIObject* y = trx_var_new("y", 1, any, false);
  TVMFFIObject* yy[] = {y, y};
  TVMFFIObject* a1 = arr(yy, 1), *a2 = arr(yy, 2);
  TVMFFIObject* t1 = trx_tuple_new(a1), *t2 = trx_tuple_new(a2);
  CHECK_PATH(t2, t1, false, "<root>.ty.fields[1]");
  CHECK_PATH(t1, t2, false, "<root>.ty.fields[<missing:1>]");
  /* DictAttrs by value */
  TVMFFIAny kv1[] = {tether_any_raw_str("global_symbol"), tether_any_raw_str("main")};
  TVMFFIAny kv2[] = {tether_any_raw_str("global_symbol"), tether_any_raw_str("other")};
  TVMFFIObjectHandle m1 = NULL, m2 = NULL, m3 = NULL;
  CHECK_OK(tether_map_new(kv1, 1, &m1));
  CHECK_OK(tether_map_new(kv1, 1, &m2));
  CHECK_OK(tether_map_new(kv2, 1, &m3));
  TVMFFIObject* d1 = trx_dict_attrs_new(m1), *d2 = trx_dict_attrs_new(m2), *d3 = trx_dict_attrs_new(m3);
  CHECK(eq(d1, d2, false) && hash(d1, false) == hash(d2, false));
  CHECK_PATH(d1, d3, false, "<root>.__dict__[\"global_symbol\"]");
  /* plain values through Any */
  TVMFFIAny s1 = tether_any_raw_str("abc"), s2, f1 = tether_any_float(1.5), f2 = tether_any_float(1.5);
  CHECK_OK(tether_any_str("abc", 3, &s2));
  CHECK(trx_structural_equal(&s1, &s2, false) && trx_structural_hash(&s1, false) == trx_structural_hash(&s2, false));
  CHECK(trx_structural_equal(&f1, &f2, false));
  tether_any_release(&s2);
  TVMFFIObject* objs[] = {a, b, c, d, op1, op2, op3, x, c1, c3, any, c1t, y, a1, a2, t1, t2, m1, m2, m3, d1, d2, d3};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static void test_tensor_constants(void) {
  int64_t shape[] = {2};
  DLDevice cpu = {kDLCPU, 0};
  TVMFFIObjectHandle ta = NULL, tb = NULL, tc = NULL;
  CHECK_OK(tether_tensor_empty(shape, 1, f32, cpu, &ta));
  CHECK_OK(tether_tensor_empty(shape, 1, f32, cpu, &tb));
  CHECK_OK(tether_tensor_empty(shape, 1, f32, cpu, &tc));
  ((float*)tether_tensor_dl(ta)->data)[1] = 1.0f;
  ((float*)tether_tensor_dl(tb)->data)[1] = 1.0f;
  ((float*)tether_tensor_dl(tc)->data)[1] = 2.0f;
  TVMFFIObject* ca = trx_tensor_const_new(ta, NULL), *cb = trx_tensor_const_new(tb, NULL),
               *cc = trx_tensor_const_new(tc, NULL);
  CHECK(eq(ca, cb, false) && hash(ca, false) == hash(cb, false));
  CHECK(!eq(ca, cc, false));
  CHECK_PATH(ca, cc, false, "<root>.value");
  TVMFFIObject* objs[] = {ta, tb, tc, ca, cb, cc};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

/* Tensors without elements are equal whatever their strides (numpy gives a (0, 3) array
 * strides (0, 0); a tensor read back from JSON has none). */
static void test_empty_tensor_constants(void) {
  int64_t shape[] = {0, 3}, odd_strides[] = {0, 0}, other[] = {0, 4};
  DLDevice cpu = {kDLCPU, 0};
  TVMFFIObjectHandle ta = NULL, tb = NULL, tc = NULL;
  CHECK_OK(tether_tensor_empty(shape, 2, f32, cpu, &ta));
  CHECK_OK(tether_tensor_empty(shape, 2, f32, cpu, &tb));
  CHECK_OK(tether_tensor_empty(other, 2, f32, cpu, &tc));
  int64_t* saved = tether_tensor_dl(tb)->strides;
  tether_tensor_dl(tb)->strides = odd_strides;
  TVMFFIObject* ca = trx_tensor_const_new(ta, NULL), *cb = trx_tensor_const_new(tb, NULL),
               *cc = trx_tensor_const_new(tc, NULL);
  CHECK(eq(ca, cb, false) && hash(ca, false) == hash(cb, false));
  CHECK(!eq(ca, cc, false));
  tether_tensor_dl(tb)->strides = saved;
  TVMFFIObject* objs[] = {ta, tb, tc, ca, cb, cc};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static TVMFFIObject* make_module(const int64_t* dims) {
  TVMFFIObject* f = make_func(dims, 2, NULL, "x", false);
  TVMFFIObject* gv = trx_global_var_new("main", 4);
  TVMFFIObject* mod = trx_ir_module_new();
  trx_ir_module_t* m = (trx_ir_module_t*)mod;
  TVMFFIAny k = tether_any_object(gv), v = tether_any_object(f), name = tether_any_raw_str("main");
  TVMFFIObjectHandle funcs = m->functions, names = m->global_var_map_;
  CHECK_OK(tether_map_set(&funcs, &k, &v));
  CHECK_OK(tether_map_set(&names, &name, &k));
  m->functions = funcs;
  m->global_var_map_ = names;
  decref(f);
  decref(gv);
  return mod;
}

static void test_modules(void) {
  int64_t d23[] = {2, 3}, d24[] = {2, 4};
  TVMFFIObject* m1 = make_module(d23), *m2 = make_module(d23), *m3 = make_module(d24);
  CHECK(eq(m1, m2, false));
  CHECK(hash(m1, false) == hash(m2, false));
  CHECK(!eq(m1, m3, false));
  CHECK_PATH(m1, m3, false, "<root>.functions[I.GlobalVar(\"main\")].ty.params[0].shape.ty.values[1].value");
  /* GlobalVars outside a module: equal only under map_free_vars */
  TVMFFIObject* g1 = trx_global_var_new("f", 1), *g2 = trx_global_var_new("f", 1);
  CHECK(!eq(g1, g2, false) && eq(g1, g2, true));
  TVMFFIObject* objs[] = {m1, m2, m3, g1, g2};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

static int gcall(const char* name, const TVMFFIAny* args, int n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  *out = tether_any_none();
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static void test_globals(void) {
  int64_t d2[] = {2};
  TVMFFIObject* t = tensor_ty(d2, 1, NULL);
  TVMFFIObject* x = trx_var_new("x", 1, t, false);
  TVMFFIObject* y = trx_var_new("y", 1, t, false);
  TVMFFIObject* op = make_op("relax.add");
  TVMFFIObject* xx[] = {x, x}, *xy[] = {x, y};
  TVMFFIObject* c1 = call(op, xx, 2, t), *c2 = call(op, xy, 2, t);
  TVMFFIAny out, args[3] = {tether_any_object(x), tether_any_object(y), tether_any_bool(false)};
  CHECK_OK(gcall("ir.StructuralEqual", args, 3, &out));
  CHECK(out.type_index == kTVMFFIBool && out.v_int64 == 0);
  args[2] = tether_any_bool(true);
  CHECK_OK(gcall("ir.StructuralEqual", args, 3, &out));
  CHECK(out.v_int64 == 1);
  CHECK_OK(gcall("ir.StructuralHash", args, 1, &out));
  CHECK(out.type_index == kTVMFFIInt && (uint64_t)out.v_int64 == hash(x, false));
  args[0] = tether_any_object(c1);
  args[1] = tether_any_object(c2);
  args[2] = tether_any_bool(false);
  CHECK_OK(gcall("ir.GetFirstStructuralMismatch", args, 3, &out));
  TVMFFIByteArray s;
  CHECK(tether_any_get_str(&out, &s) && s.size == 14 && memcmp(s.data, "<root>.args[1]", 14) == 0);
  tether_any_release(&out);
  CHECK_RAISED(gcall("ir.AssertStructuralEqual", args, 3, &out), "ValueError",
               "StructuralEqual check failed, caused by lhs at <root>.args[1]:\nAccess path: <root>.args[1]\n");
  args[1] = args[0];
  CHECK_OK(gcall("ir.GetFirstStructuralMismatch", args, 2, &out));
  CHECK(out.type_index == kTVMFFINone);
  CHECK_OK(gcall("ir.AssertStructuralEqual", args, 2, &out));
  CHECK_RAISED(gcall("ir.StructuralEqual", args, 1, &out), "TypeError", "expects 2 or 3 arguments");
  TVMFFIObject* objs[] = {t, x, y, op, c1, c2};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) decref(objs[i]);
}

TEST_MAIN(TEST_CASE(test_alpha_equivalent_functions), TEST_CASE(test_free_vars), TEST_CASE(test_symbolic_dims),
          TEST_CASE(test_values), TEST_CASE(test_tensor_constants), TEST_CASE(test_empty_tensor_constants),
          TEST_CASE(test_modules),
          TEST_CASE(test_globals))
