/*
 * test_builder.c -- the normalizer and the BlockBuilder (spec relax.md section 4).  Every
 * expected name, type, error and printed text below was observed with apache-tvm 0.27's
 * relax.BlockBuilder running the same steps.
 */
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>

#include "test.h"

static const DLDataType kF32 = {kDLFloat, 32, 1};
static const DLDataType kI64 = {kDLInt, 64, 1};

/* ---- helpers ------------------------------------------------------------------------------- */

static void unref(TVMFFIObject* o) {
  if (o != NULL) TVMFFIObjectDecRef(o);
}

/* Raised error dropped (for paths a test only wants to survive). */
static void drop_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
}

/* R.Tensor(dims, dtype) (new reference). */
static TVMFFIObject* tensor_ty(const int64_t* dims, int n, DLDataType dtype) {
  TVMFFIAny items[8] = {{0}};
  for (int i = 0; i < n; ++i) items[i] = tether_any_object(trx_int_imm_new(kI64, dims[i]));
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, n, &arr));
  for (int i = 0; i < n; ++i) unref(items[i].v_obj);
  TVMFFIObject* shape = trx_shape_expr_new(arr);
  unref(arr);
  TVMFFIObject* ty = trx_tensor_type_new(shape, dtype, -1);
  unref(shape);
  CHECK(ty != NULL);
  return ty;
}

static TVMFFIObject* var_of(const char* name, const int64_t* dims, int n) {
  TVMFFIObject* ty = tensor_ty(dims, n, kF32);
  TVMFFIObject* v = trx_var_new(name, strlen(name), ty, false);
  unref(ty);
  CHECK(v != NULL);
  return v;
}

/* Calls global `name` with views `args`; the object result as a new reference (NULL on error,
 * which is left raised). */
static TVMFFIObject* call_object(const char* name, const TVMFFIAny* args, int32_t n) {
  TVMFFIObjectHandle f = tether_func_get(name);
  TVMFFIAny r = tether_any_none();
  if (f == NULL) return NULL;
  int rc = tether_func_call(f, args, n, &r);
  TVMFFIObjectDecRef(f);
  if (rc != 0) return NULL;
  if (!tether_any_is_object(&r)) {
    tether_any_release(&r);
    return NULL;
  }
  return r.v_obj;
}

static TVMFFIObject* relu(TVMFFIObject* x) {
  TVMFFIAny a = tether_any_object(x);
  TVMFFIObject* c = call_object("relax.op.nn.relu", &a, 1);
  CHECK(c != NULL);
  return c;
}

static TVMFFIObject* add(TVMFFIObject* x, TVMFFIObject* y) {
  TVMFFIAny a[2] = {tether_any_object(x), tether_any_object(y)};
  TVMFFIObject* c = call_object("relax.op.add", a, 2);
  CHECK(c != NULL);
  return c;
}

static TVMFFIObject* int_array(const int64_t* v, int n) {
  TVMFFIAny items[4] = {{0}};
  for (int i = 0; i < n; ++i) items[i] = tether_any_int(v[i]);
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, n, &arr));
  return arr;
}

/* relax.op.nn.conv2d(data, weight) with the Python wrapper's defaults. */
static TVMFFIObject* conv2d(TVMFFIObject* data, TVMFFIObject* weight) {
  static const int64_t one2[] = {1, 1}, zero4[] = {0, 0, 0, 0};
  TVMFFIObject *strides = int_array(one2, 2), *padding = int_array(zero4, 4), *dilation = int_array(one2, 2);
  TVMFFIAny a[10] = {tether_any_object(data),     tether_any_object(weight),   tether_any_object(strides),
                     tether_any_object(padding),  tether_any_object(dilation), tether_any_int(1),
                     tether_any_raw_str("NCHW"), tether_any_raw_str("OIHW"),  tether_any_none(),
                     tether_any_none()};
  TVMFFIObject* c = call_object("relax.op.nn.conv2d", a, 10);
  CHECK(c != NULL);
  unref(strides);
  unref(padding);
  unref(dilation);
  return c;
}

static TVMFFIObject* array_of(TVMFFIObject* const* objs, int n) {
  TVMFFIAny items[8] = {{0}};
  for (int i = 0; i < n; ++i) items[i] = tether_any_object(objs[i]);
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(items, n, &arr));
  return arr;
}

static TVMFFIObject* tuple_of(TVMFFIObject* const* objs, int n) {
  TVMFFIObject* arr = array_of(objs, n);
  TVMFFIObject* t = trx_tuple_new(arr);
  unref(arr);
  CHECK(t != NULL);
  return t;
}

static TVMFFIObject* ty_of(TVMFFIObject* e) { return ((trx_expr_t*)e)->ty; }

static TVMFFIByteArray str_of(const TVMFFIAny* v) {
  TVMFFIByteArray b = {"", 0};
  tether_any_get_str(v, &b);
  return b;
}

#define CHECK_VAR(v, want, dataflow)                                                     \
  do {                                                                                   \
    TVMFFIObject* test__v = (v);                                                         \
    CHECK(test__v != NULL);                                                              \
    if (test__v != NULL) {                                                               \
      CHECK_BYTES(str_of(&((trx_var_t*)test__v)->name), want);                           \
      CHECK(trx_is(test__v, TRX_DATAFLOW_VAR) == (dataflow));                            \
    }                                                                                    \
  } while (0)

#define CHECK_GVAR(g, want)                                                              \
  do {                                                                                   \
    TVMFFIObject* test__g = (g);                                                         \
    CHECK(trx_is(test__g, TRX_GLOBAL_VAR));                                              \
    if (test__g != NULL) CHECK_BYTES(str_of(&((trx_global_var_t*)test__g)->name_hint), want); \
  } while (0)

static bool struct_eq(TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIAny x = tether_any_object(a), y = tether_any_object(b);
  return a != NULL && b != NULL && trx_structural_equal(&x, &y, false);
}

/* Printed TVMScript of `node` equals `expected` (prints both on mismatch). */
#define CHECK_PRINT(node, expected)                                                          \
  do {                                                                                       \
    TVMFFIAny test__s = tether_any_none();                                                   \
    trx_print_options_t test__o = {false, true, false};                                      \
    CHECK_OK(trx_print((node), &test__o, &test__s));                                         \
    TVMFFIByteArray test__b = str_of(&test__s);                                              \
    if (test__b.size != strlen(expected) || memcmp(test__b.data, expected, test__b.size) != 0) { \
      fprintf(stderr, "%s:%d: printed:\n%.*s\nexpected:\n%s\n", __FILE__, __LINE__,         \
              (int)test__b.size, test__b.data, (expected));                                  \
      test__checks_failed_in_current++;                                                      \
    }                                                                                        \
    tether_any_release(&test__s);                                                            \
  } while (0)

static TVMFFIObject* module_functions(TVMFFIObject* mod) { return ((trx_ir_module_t*)mod)->functions; }

/* mod[name] (borrowed) or NULL. */
static TVMFFIObject* module_get(TVMFFIObject* mod, const char* name) {
  TVMFFIAny k = tether_any_raw_str(name);
  const TVMFFIAny* gv = tether_map_find(((trx_ir_module_t*)mod)->global_var_map_, &k);
  if (gv == NULL) return NULL;
  const TVMFFIAny* f = tether_map_find(module_functions(mod), gv);
  return f != NULL ? f->v_obj : NULL;
}

static const int64_t kS23[] = {2, 3};
static const int64_t kS24[] = {2, 4};

/* bb.function(name, [params...]) */
static void begin_fn(TVMFFIObject* bb, const char* name, TVMFFIObject* const* params, int n) {
  TVMFFIObject* ps = n >= 0 ? array_of(params, n) : NULL;
  CHECK_OK(trx_block_builder_begin_function(bb, name, strlen(name), ps, NULL, true, false));
  unref(ps);
}

/* emit_func_output + leaving the scope; the GlobalVar (new reference). */
static TVMFFIObject* end_fn(TVMFFIObject* bb, TVMFFIObject* output) {
  TVMFFIObject* g = trx_block_builder_emit_func_output(bb, output, NULL);
  CHECK(g != NULL);
  CHECK_OK(trx_block_builder_end_function(bb, true));
  return g;
}

static TVMFFIObject* emit(TVMFFIObject* bb, TVMFFIObject* expr_steal, const char* hint) {
  TVMFFIObject* v = trx_block_builder_emit(bb, expr_steal, hint, hint ? strlen(hint) : 0);
  CHECK(v != NULL);
  unref(expr_steal);
  return v;
}

/* ---- the relax.md section 3 example -------------------------------------------------------- */

static const char kSeedModule[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(data: R.Tensor((1, 3, 224, 224), dtype=\"float32\"), weight: R.Tensor((16, 3, 3, 3), "
    "dtype=\"float32\")) -> R.Tensor((1, 16, 222, 222), dtype=\"float32\"):\n"
    "        with R.dataflow():\n"
    "            lv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.conv2d(data, weight, strides=[1, 1], "
    "padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"OIHW\", "
    "out_layout=\"NCHW\", out_dtype=None)\n"
    "            lv1: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.relu(lv)\n"
    "            gv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = lv1\n"
    "            R.output(gv)\n"
    "        return gv";

static void test_seed_example(void) {
  static const int64_t d[] = {1, 3, 224, 224}, w[] = {16, 3, 3, 3}, o[] = {1, 16, 222, 222};
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* data = var_of("data", d, 4);
  TVMFFIObject* weight = var_of("weight", w, 4);
  TVMFFIObject* params[] = {data, weight};
  TVMFFIObject* out_ty = tensor_ty(o, 4, kF32);
  begin_fn(bb, "main", params, 2);
  bool df = true;
  CHECK_OK(trx_block_builder_is_dataflow(bb, &df));
  CHECK(!df);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  CHECK_OK(trx_block_builder_is_dataflow(bb, &df));
  CHECK(df);
  TVMFFIObject* lv = emit(bb, conv2d(data, weight), NULL);
  TVMFFIObject* lv1 = emit(bb, relu(lv), NULL);
  TVMFFIObject* gv = trx_block_builder_emit_output(bb, lv1, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  CHECK_VAR(lv, "lv", true);
  CHECK_VAR(lv1, "lv1", true);
  CHECK_VAR(gv, "gv", false);
  CHECK(struct_eq(ty_of(lv), out_ty));
  CHECK(struct_eq(ty_of(gv), out_ty));
  TVMFFIObject* value = NULL;
  CHECK_OK(trx_block_builder_lookup_binding(bb, gv, &value));
  CHECK(value == lv1); /* gv = lv1 */
  unref(value);

  TVMFFIObject* gvar = end_fn(bb, gv);
  CHECK_GVAR(gvar, "main");
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK(trx_is(mod, TRX_IR_MODULE));
  CHECK_EQ_INT(tether_map_size(module_functions(mod)), 1);
  TVMFFIObject* fn = module_get(mod, "main");
  CHECK(trx_is(fn, TRX_FUNCTION));
  if (fn != NULL) {
    trx_function_t* f = (trx_function_t*)fn;
    CHECK(ty_of(gvar) == ty_of(fn)); /* GlobalVar.ty is the function's ty */
    CHECK(trx_is(ty_of(fn), TRX_FUNC_TYPE));
    CHECK(struct_eq(f->ret_ty, out_ty));
    CHECK(f->is_pure);
    CHECK_EQ_INT(tether_array_size(f->params), 2);
    trx_seq_expr_t* body = (trx_seq_expr_t*)f->body;
    CHECK(trx_is(f->body, TRX_SEQ_EXPR));
    CHECK(body->body == gv);
    CHECK_EQ_INT(tether_array_size(body->blocks), 1); /* the empty plain blocks are dropped */
    const TVMFFIAny* blk = tether_array_at(body->blocks, 0);
    CHECK(blk != NULL && trx_is(blk->v_obj, TRX_DATAFLOW_BLOCK));
    if (blk != NULL) CHECK_EQ_INT(tether_array_size(((trx_binding_block_t*)blk->v_obj)->bindings), 3);
    /* attrs: {"global_symbol": "main"} */
    trx_dict_attrs_t* attrs = (trx_dict_attrs_t*)f->base.attrs;
    CHECK(attrs != NULL);
    if (attrs != NULL) {
      TVMFFIAny k = tether_any_raw_str("global_symbol");
      const TVMFFIAny* sym = tether_map_find(attrs->dict, &k);
      CHECK(sym != NULL);
      if (sym != NULL) CHECK_BYTES(str_of(sym), "main");
      CHECK_EQ_INT(tether_map_size(attrs->dict), 1);
    }
  }
  CHECK_PRINT(mod, kSeedModule);
  unref(mod);
  unref(gvar);
  unref(gv);
  unref(lv1);
  unref(lv);
  unref(out_ty);
  unref(data);
  unref(weight);
  unref(bb);
}

/* Names continue across functions: after lv, lv1, gv in main, f2 starts at lv2 / gv1. */
static void test_names_across_functions(void) {
  static const int64_t d[] = {1, 3, 224, 224}, w[] = {16, 3, 3, 3};
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* data = var_of("data", d, 4);
  TVMFFIObject* weight = var_of("weight", w, 4);
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* params[] = {data, weight};
  begin_fn(bb, "main", params, 2);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* lv = emit(bb, conv2d(data, weight), NULL);
  TVMFFIObject* lv1 = emit(bb, relu(lv), NULL);
  TVMFFIObject* gv = trx_block_builder_emit_output(bb, lv1, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g1 = end_fn(bb, gv);

  begin_fn(bb, "f2", &x, 1);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* a = emit(bb, relu(x), NULL);
  TVMFFIObject* b = trx_block_builder_emit_output(bb, a, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g2 = end_fn(bb, b);
  CHECK_VAR(a, "lv2", true);
  CHECK_VAR(b, "gv1", false);
  CHECK_GVAR(g2, "f2");
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_EQ_INT(tether_map_size(module_functions(mod)), 2);
  CHECK_PRINT(mod,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def f2(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
              "        with R.dataflow():\n"
              "            lv2: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "            gv1: R.Tensor((2, 3), dtype=\"float32\") = lv2\n"
              "            R.output(gv1)\n"
              "        return gv1\n"
              "\n"
              "    @R.function\n"
              "    def main(data: R.Tensor((1, 3, 224, 224), dtype=\"float32\"), weight: R.Tensor((16, 3, 3, 3), "
              "dtype=\"float32\")) -> R.Tensor((1, 16, 222, 222), dtype=\"float32\"):\n"
              "        with R.dataflow():\n"
              "            lv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.conv2d(data, weight, "
              "strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", "
              "kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)\n"
              "            lv1: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.relu(lv)\n"
              "            gv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = lv1\n"
              "            R.output(gv)\n"
              "        return gv");
  unref(mod);
  TVMFFIObject* all[] = {lv, lv1, gv, g1, a, b, g2, x, data, weight, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* TVM's own test: with one binding per function, the second function's first binding is lv1. */
static void test_second_function_starts_at_lv1(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject *vars[4] = {NULL}, *gvars[2] = {NULL};
  for (int i = 0; i < 2; ++i) {
    begin_fn(bb, i == 0 ? "f" : "g", &x, 1);
    CHECK_OK(trx_block_builder_begin_dataflow(bb));
    vars[2 * i] = emit(bb, relu(x), NULL);
    vars[2 * i + 1] = trx_block_builder_emit_output(bb, vars[2 * i], NULL, 0);
    CHECK_OK(trx_block_builder_end_dataflow(bb));
    gvars[i] = end_fn(bb, vars[2 * i + 1]);
  }
  CHECK_VAR(vars[0], "lv", true);
  CHECK_VAR(vars[1], "gv", false);
  CHECK_VAR(vars[2], "lv1", true);
  CHECK_VAR(vars[3], "gv1", false);
  CHECK_GVAR(gvars[1], "g");
  for (int i = 0; i < 4; ++i) unref(vars[i]);
  unref(gvars[0]);
  unref(gvars[1]);
  unref(x);
  unref(bb);
}

/* Outside a dataflow block: "gv" vars; hints sanitized and made unique; nested calls bound. */
static void test_name_hints(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "f", &x, 1);
  TVMFFIObject* a = emit(bb, relu(x), NULL);
  TVMFFIObject* b = emit(bb, relu(a), "my.name");
  TVMFFIObject* c = emit(bb, relu(b), "my.name");
  TVMFFIObject* d = emit(bb, relu(c), "my_name");
  TVMFFIObject* e = emit(bb, relu(d), "lv");
  TVMFFIObject* f = emit(bb, relu(d), "gv");
  TVMFFIObject* inner = relu(f);
  TVMFFIObject* g = emit(bb, relu(inner), NULL);
  CHECK_VAR(a, "gv", false);
  CHECK_VAR(b, "my_name", false);
  CHECK_VAR(c, "my_name1", false);
  CHECK_VAR(d, "my_name2", false);
  CHECK_VAR(e, "lv", false);
  CHECK_VAR(f, "gv1", false);
  CHECK_VAR(g, "gv3", false); /* the inner relu became gv2 */
  CHECK(trx_block_builder_emit_output(bb, g, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError",
               "Check failed: (cur_frame->is_dataflow) is false: EmitOutput has to be called inside dataflow block.");
  bool df = true;
  CHECK_OK(trx_block_builder_is_dataflow(bb, &df));
  CHECK(!df);
  TVMFFIObjectIncRef(x);
  TVMFFIObject* h = emit(bb, x, NULL);
  CHECK_VAR(h, "gv4", false);
  TVMFFIObject* value = NULL;
  CHECK_OK(trx_block_builder_lookup_binding(bb, h, &value));
  CHECK(value == x);
  unref(value);
  CHECK_OK(trx_block_builder_lookup_binding(bb, x, &value));
  CHECK(value == NULL);
  TVMFFIObject* gvar = end_fn(bb, g);

  /* One supply for names of vars, functions and get_unique_name. */
  static const char* const prefixes[] = {"lv", "gv", "a.b", "a.b", "f", ""};
  static const char* const expected[] = {"lv1", "gv5", "a_b", "a_b1", "f1", "v"};
  for (int i = 0; i < 6; ++i) {
    TVMFFIAny s = tether_any_none();
    CHECK_OK(trx_block_builder_unique_name(bb, prefixes[i], strlen(prefixes[i]), &s));
    CHECK_BYTES(str_of(&s), expected[i]);
    tether_any_release(&s);
  }
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_PRINT(mod,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def f(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
              "        gv: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "        my_name: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(gv)\n"
              "        my_name1: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(my_name)\n"
              "        my_name2: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(my_name1)\n"
              "        lv: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(my_name2)\n"
              "        gv1: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(my_name2)\n"
              "        gv2: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(gv1)\n"
              "        gv3: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(gv2)\n"
              "        gv4: R.Tensor((2, 3), dtype=\"float32\") = x\n"
              "        return gv3");
  unref(mod);
  TVMFFIObject* all[] = {a, b, c, d, e, f, inner, g, h, gvar, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* The supply's counters: a name handed out continues from its own counter. */
static void test_unique_name_sequence(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  static const char* const in[] = {"", "", "a-b", "a b", "1x", "lv", "lv", "lv1", "lv1", "lv", "lv", "x.y.z", "x_y_z"};
  static const char* const out[] = {"v", "v1", "a-b", "a b", "1x", "lv", "lv1", "lv11", "lv12", "lv2", "lv3",
                                    "x_y_z", "x_y_z1"};
  for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); ++i) {
    TVMFFIAny s = tether_any_none();
    CHECK_OK(trx_block_builder_unique_name(bb, in[i], strlen(in[i]), &s));
    CHECK_BYTES(str_of(&s), out[i]);
    tether_any_release(&s);
  }
  /* A function named "" takes the next "v" name. */
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "", &x, 1);
  TVMFFIObject* v = emit(bb, relu(x), "");
  TVMFFIObject* g = end_fn(bb, v);
  CHECK_VAR(v, "gv", false);
  CHECK_GVAR(g, "v2");
  unref(v);
  unref(g);
  unref(x);
  unref(bb);
}

/* Errors outside scopes, with TVM's kinds and texts. */
static void test_scope_errors(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  /* normalize of a flat call works without a scope and types the caller's object */
  TVMFFIObject* c = relu(x);
  CHECK(ty_of(c) == NULL);
  TVMFFIObject* n = trx_normalize(bb, c);
  CHECK(n == c);
  CHECK(ty_of(c) != NULL && struct_eq(ty_of(c), ty_of(x)));
  unref(n);
  TVMFFIObject* inner = relu(x);
  TVMFFIObject* nested = relu(inner);
  CHECK(trx_normalize(bb, nested) == NULL);
  CHECK_RAISED(-1, "InternalError",
               "Check failed: (!block_stack_.empty()) is false: Cannot normalize non-leaf without a scope");
  CHECK(trx_block_builder_emit(bb, c, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError", "Check failed: (!block_stack_.empty()) is false: no block is being built");
  CHECK(trx_block_builder_emit_output(bb, c, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError", "no block is being built");
  TVMFFIObject* ty = tensor_ty(kS23, 2, kF32);
  CHECK(trx_block_builder_match_cast(bb, x, ty, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError", "no block is being built");
  bool df;
  CHECK_RAISED(trx_block_builder_is_dataflow(bb, &df), "InternalError", "no block is being built");
  TVMFFIObject* value = (TVMFFIObject*)bb;
  CHECK_OK(trx_block_builder_lookup_binding(bb, x, &value));
  CHECK(value == NULL);
  CHECK(trx_block_builder_emit_func_output(bb, x, NULL) == NULL);
  CHECK_RAISED(-1, "RuntimeError", "Cannot access BlockBuilder._func when outside a bb._function() block");
  CHECK_RAISED(trx_block_builder_end_function(bb, true), "RuntimeError",
               "Cannot access BlockBuilder._func when outside a bb._function() block");
  /* TVM 0.27: `with bb.dataflow()` outside a function raises this InternalError */
  CHECK_RAISED(trx_block_builder_begin_dataflow(bb), "InternalError",
               "Check failed: (!block_stack_.empty()) is false: no block is being built");
  /* the unnamed-var case: a Var without a type cannot be normalized */
  TVMFFIObject* y = trx_var_new("y", 1, NULL, false);
  CHECK(trx_normalize(bb, y) == NULL);
  CHECK_RAISED(-1, "InternalError", "Check failed: (!var->ty.IsMissing()) is false: Var y does not have type.");
  /* bad arguments */
  CHECK(trx_normalize(x, c) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.BlockBuilderNormalize: expected a relax.BlockBuilder, but got ir.Var");
  CHECK(trx_block_builder_emit(bb, ty, NULL, 0) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.BlockBuilderEmit: argument `expr` must be a relax Expr, but got relax.TensorType");
  CHECK(trx_block_builder_match_cast(bb, x, x, NULL, 0) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.BlockBuilderMatchCast: argument `ty` must be a Type, but got ir.Var");
  CHECK(trx_block_builder_add_function(bb, x, "f", 1) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.BlockBuilderAddFunction: argument `func` must be a BaseFunc, but got ir.Var");
  TVMFFIObject* all[] = {c, inner, nested, ty, y, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* Function-scope errors (TVM's Python-level RuntimeErrors). */
static void test_function_scope_errors(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  /* leaving without emit_func_output */
  begin_fn(bb, "a", &x, 1);
  TVMFFIObject* v = emit(bb, relu(x), NULL);
  CHECK_RAISED(trx_block_builder_end_function(bb, true), "RuntimeError",
               "emit_func_output must be called in a relax function.");
  unref(v);
  /* the scope is gone: emitting fails again */
  CHECK(trx_block_builder_emit(bb, x, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError", "no block is being built");
  /* check_output = false (the with-block raised): closes silently */
  begin_fn(bb, "a", &x, 1);
  CHECK_OK(trx_block_builder_end_function(bb, false));
  /* twice */
  begin_fn(bb, "a", &x, 1);
  v = emit(bb, relu(x), NULL);
  TVMFFIObject* g = trx_block_builder_emit_func_output(bb, v, NULL);
  CHECK(g != NULL);
  CHECK(trx_block_builder_emit_func_output(bb, v, NULL) == NULL);
  CHECK_RAISED(-1, "RuntimeError", "emit_func_output must be called exactly once in a relax function.");
  /* after emit_func_output no block is open until the scope ends */
  CHECK(trx_block_builder_emit(bb, x, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError", "no block is being built");
  CHECK_OK(trx_block_builder_end_function(bb, true));
  unref(v);
  unref(g);
  /* params given twice */
  TVMFFIObject* ps = array_of(&x, 1);
  begin_fn(bb, "a", &x, 1);
  v = emit(bb, relu(x), NULL);
  CHECK(trx_block_builder_emit_func_output(bb, v, ps) == NULL);
  CHECK_RAISED(-1, "RuntimeError", "function parameters have been initialized in the function with scope.");
  CHECK_OK(trx_block_builder_end_function(bb, true)); /* the output counts as attempted */
  unref(v);
  /* no params at all */
  begin_fn(bb, "a", NULL, -1);
  v = emit(bb, relu(x), NULL);
  CHECK(trx_block_builder_emit_func_output(bb, v, NULL) == NULL);
  CHECK_RAISED(-1, "RuntimeError", "Relax function must have parameter.");
  CHECK_OK(trx_block_builder_end_function(bb, true));
  unref(v);
  /* deferred params */
  begin_fn(bb, "a", NULL, -1);
  v = emit(bb, relu(x), NULL);
  g = trx_block_builder_emit_func_output(bb, v, ps);
  CHECK_OK(trx_block_builder_end_function(bb, true));
  CHECK_GVAR(g, "a");
  CHECK_VAR(v, "gv4", false);
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_EQ_INT(tether_map_size(module_functions(mod)), 1); /* equal to the "twice" one */
  CHECK_PRINT(mod,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def a(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
              "        gv1: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "        return gv1");
  unref(mod);
  /* bad params */
  TVMFFIObject* bad = array_of(&ps, 1);
  CHECK_RAISED(trx_block_builder_begin_function(bb, "b", 1, bad, NULL, true, false), "TypeError",
               "each element of function parameters must be of type tvm.relax.Var, but got: ffi.Array");
  CHECK_RAISED(trx_block_builder_begin_function(bb, "b", 1, x, NULL, true, false), "TypeError",
               "relax.BlockBuilderBeginFunction: argument `params` must be an Array of Var or None, but got ir.Var");
  /* end_dataflow without a dataflow block */
  begin_fn(bb, "b", &x, 1);
  CHECK_RAISED(trx_block_builder_end_dataflow(bb), "RuntimeError",
               "relax.BlockBuilderEndDataflow: the current block is not a dataflow block");
  CHECK_OK(trx_block_builder_end_function(bb, false));
  TVMFFIObject* all[] = {bad, v, g, ps, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* emit_func_output inside a dataflow scope: the dataflow block is closed with the function, and
 * leaving the dataflow scope afterwards is harmless.  A DataflowVar may be returned. */
static void test_func_output_inside_dataflow(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "b", &x, 1);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* v = emit(bb, relu(x), NULL);
  TVMFFIObject* g = trx_block_builder_emit_func_output(bb, v, NULL);
  CHECK_GVAR(g, "b");
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  CHECK_OK(trx_block_builder_end_function(bb, true));
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  TVMFFIObject* fn = module_get(mod, "b");
  CHECK(fn != NULL && ((trx_seq_expr_t*)((trx_function_t*)fn)->body)->body == v);
  unref(mod);
  unref(g);
  unref(v);
  unref(x);
  unref(bb);
}

/* Nested calls become bindings; an unchanged Call is typed in place, a changed one is new;
 * an argument object seen before in the same block reuses its var. */
static void test_normalize_nested_and_memo(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* y = var_of("y", kS23, 2);
  TVMFFIObject* params[] = {x, y};
  begin_fn(bb, "f", params, 2);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* inner = add(x, y);
  TVMFFIObject* outer = relu(inner);
  TVMFFIObject* v = trx_block_builder_emit(bb, outer, NULL, 0);
  CHECK_VAR(v, "lv1", true);
  TVMFFIObject* bound = NULL;
  CHECK_OK(trx_block_builder_lookup_binding(bb, v, &bound));
  CHECK(bound != NULL && bound != outer); /* args changed: a new Call */
  CHECK(ty_of(inner) != NULL);            /* typed in place */
  CHECK(ty_of(outer) == NULL);
  if (bound != NULL) {
    const TVMFFIAny* arg0 = tether_array_at(((trx_call_t*)bound)->args, 0);
    CHECK(arg0 != NULL && trx_is(arg0->v_obj, TRX_DATAFLOW_VAR));
    if (arg0 != NULL) CHECK_VAR(arg0->v_obj, "lv", true);
  }
  unref(bound);

  TVMFFIObject* c = relu(x);
  TVMFFIObject* v2 = emit(bb, add(c, c), NULL);   /* lv2 = relu(x); lv3 = add(lv2, lv2) */
  TVMFFIObject* v3 = emit(bb, add(c, c), NULL);   /* lv4 = add(lv2, lv2) */
  TVMFFIObject* v4 = trx_block_builder_emit(bb, c, NULL, 0); /* lv5 = lv2 */
  CHECK_VAR(v2, "lv3", true);
  CHECK_VAR(v3, "lv4", true);
  CHECK_VAR(v4, "lv5", true);
  CHECK_OK(trx_block_builder_lookup_binding(bb, v4, &bound));
  CHECK(trx_is(bound, TRX_DATAFLOW_VAR));
  if (bound != NULL) CHECK_VAR(bound, "lv2", true);
  unref(bound);
  TVMFFIObject* fields[] = {v2, v3};
  TVMFFIObject* tup = tuple_of(fields, 2);
  TVMFFIObject* o = trx_block_builder_emit_output(bb, tup, "out.x", 5);
  CHECK_VAR(o, "out_x", false);
  CHECK(trx_is(ty_of(o), TRX_TUPLE_TYPE));
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g = end_fn(bb, o);
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_PRINT(mod,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def f(x: R.Tensor((2, 3), dtype=\"float32\"), y: R.Tensor((2, 3), dtype=\"float32\")) -> "
              "R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\")):\n"
              "        with R.dataflow():\n"
              "            lv: R.Tensor((2, 3), dtype=\"float32\") = R.add(x, y)\n"
              "            lv1: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(lv)\n"
              "            lv2: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "            lv3: R.Tensor((2, 3), dtype=\"float32\") = R.add(lv2, lv2)\n"
              "            lv4: R.Tensor((2, 3), dtype=\"float32\") = R.add(lv2, lv2)\n"
              "            lv5: R.Tensor((2, 3), dtype=\"float32\") = lv2\n"
              "            out_x: R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\")) = "
              "lv3, lv4\n"
              "            R.output(out_x)\n"
              "        return out_x");
  TVMFFIObject* all[] = {mod, g, o, tup, v4, v3, v2, c, v, outer, inner, x, y, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* Tuples are not bound, but calls inside their fields are; TupleGetItem is. */
static void test_tuples(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* y = var_of("y", kS23, 2);
  TVMFFIObject* params[] = {x, y};
  begin_fn(bb, "f", params, 2);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* r = relu(x);
  TVMFFIObject* f1[] = {r, y};
  TVMFFIObject* t1 = tuple_of(f1, 2);
  TVMFFIObjectIncRef(t1);
  TVMFFIObject* t3 = emit(bb, t1, NULL); /* lv = relu(x); lv1 = lv, y */
  CHECK_VAR(t3, "lv1", true);
  TVMFFIObject* g1 = trx_tuple_get_item_new(t3, 0);
  TVMFFIObject* t4 = emit(bb, g1, NULL); /* lv2 = lv1[0] */
  TVMFFIObject* r2 = relu(x);
  TVMFFIObject* f2[] = {r2, y};
  TVMFFIObject* t2 = tuple_of(f2, 2);
  TVMFFIObject* g2 = trx_tuple_get_item_new(t2, 1);
  TVMFFIObject* t5 = emit(bb, g2, NULL); /* lv3 = relu(x); lv4 = (lv3, y)[1] */
  CHECK_VAR(t4, "lv2", true);
  CHECK_VAR(t5, "lv4", true);
  CHECK(struct_eq(ty_of(t5), ty_of(y)));
  TVMFFIObject* f3[] = {t4, t5};
  TVMFFIObject* t6 = tuple_of(f3, 2);
  TVMFFIObject* o = trx_block_builder_emit_output(bb, t6, NULL, 0);
  CHECK_VAR(o, "gv", false);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g = end_fn(bb, o);
  TVMFFIObject* fn = NULL;
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  fn = module_get(mod, "f");
  CHECK(fn != NULL);
  CHECK_PRINT(fn,
              "# from tvm.script import relax as R\n"
              "\n"
              "@R.function\n"
              "def f(x: R.Tensor((2, 3), dtype=\"float32\"), y: R.Tensor((2, 3), dtype=\"float32\")) -> "
              "R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\")):\n"
              "    with R.dataflow():\n"
              "        lv: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "        lv1: R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\")) = lv, y\n"
              "        lv2: R.Tensor((2, 3), dtype=\"float32\") = lv1[0]\n"
              "        lv3: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "        lv4: R.Tensor((2, 3), dtype=\"float32\") = (lv3, y)[1]\n"
              "        gv: R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\")) = lv2, lv4\n"
              "        R.output(gv)\n"
              "    return gv");
  unref(mod);
  TVMFFIObject* all[] = {r, t1, t3, t4, r2, t2, t5, t6, o, g, x, y, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

static void test_tuple_get_item_errors(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  /* an untyped tuple (one field has no type) gets its index checked on normalization */
  TVMFFIObject* y = trx_var_new("y", 1, NULL, false);
  TVMFFIObject* f[] = {x, y};
  TVMFFIObject* t = tuple_of(f, 2);
  CHECK(ty_of(t) == NULL);
  TVMFFIObject* g = trx_tuple_get_item_new(t, 5);
  CHECK(trx_normalize(bb, g) == NULL);
  CHECK_RAISED(-1, "InternalError", "Var y does not have type.");
  /* TupleGetItem of a non-tuple */
  TVMFFIObject* g2 = trx_tuple_get_item_new(x, 0);
  CHECK(trx_normalize(bb, g2) == NULL);
  CHECK_RAISED(-1, "InternalError",
               "Check failed: (opt) is false: The type of Tuple must be TupleType, but expression x has type "
               "R.Tensor((2, 3), dtype=\"float32\")");
  TVMFFIObject* all[] = {g2, g, t, y, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* Calls to non-Op callees take the callee's FuncType return. */
static void test_call_callee_types(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  static const int64_t k5[] = {5};
  TVMFFIObject* r5 = tensor_ty(k5, 1, kF32);
  TVMFFIObject* pty = array_of((TVMFFIObject*[]){ty_of(x)}, 1);
  TVMFFIObject* fty = trx_func_type_new(pty, r5, true);
  TVMFFIObject* fv = trx_var_new("fv", 2, fty, false);
  TVMFFIObject* args = array_of(&x, 1);
  TVMFFIObject* c = trx_call_new(fv, args, NULL, NULL);
  TVMFFIObject* n = trx_normalize(bb, c);
  CHECK(n == c);
  CHECK(n != NULL && ty_of(n) == r5);
  unref(n);
  /* a callee whose type is not a function */
  TVMFFIObject* c2 = trx_call_new(x, args, NULL, NULL);
  CHECK(trx_normalize(bb, c2) == NULL);
  CHECK_RAISED(-1, "InternalError", "Check failed: (opt) is false: Call->op must contains a function type");
  /* an untyped GlobalVar */
  TVMFFIObject* gv = trx_global_var_new("zz", 2);
  TVMFFIObject* c3 = trx_call_new(gv, args, NULL, NULL);
  CHECK(trx_normalize(bb, c3) == NULL);
  CHECK_RAISED(-1, "InternalError", "Check failed: (!call->op->ty.IsMissing()) is false: ");
  TVMFFIObject* all[] = {c3, gv, c2, c, args, fv, fty, pty, r5, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* If: branches become SeqExprs; the type is the branches' common type. */
static void test_if(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* y = var_of("y", kS24, 2);
  TVMFFIObject* bty = tensor_ty(NULL, 0, (DLDataType){kDLBool, 1, 1});
  TVMFFIObject* c = trx_var_new("c", 1, bty, false);
  TVMFFIObject* r = relu(x);
  TVMFFIObject* i1 = trx_if_new(c, r, x);
  TVMFFIObject* n1 = trx_normalize(bb, i1);
  CHECK(n1 != NULL);
  if (n1 != NULL) {
    trx_if_t* ni = (trx_if_t*)n1;
    CHECK(trx_is(ni->true_branch, TRX_SEQ_EXPR) && trx_is(ni->false_branch, TRX_SEQ_EXPR));
    CHECK(struct_eq(ty_of(n1), ty_of(x)));
    trx_seq_expr_t* tb = (trx_seq_expr_t*)ni->true_branch;
    CHECK_EQ_INT(tether_array_size(tb->blocks), 1);
    CHECK(trx_is(tb->body, TRX_VAR));
    if (trx_is(tb->body, TRX_VAR)) CHECK_VAR(tb->body, "gv", false);
  }
  /* shapes differ -> R.Tensor(dtype="float32", ndim=2) */
  TVMFFIObject* i2 = trx_if_new(c, x, y);
  TVMFFIObject* n2 = trx_normalize(bb, i2);
  TVMFFIObject* want = trx_tensor_type_new(NULL, kF32, 2);
  CHECK(n2 != NULL && struct_eq(ty_of(n2), want));
  TVMFFIObject* all[] = {want, n2, i2, n1, i1, r, c, bty, y, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* A non-leaf output of emit_func_output is bound in a new plain block after the dataflow one. */
static void test_func_output_nonleaf(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "a", &x, 1);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* v = emit(bb, relu(x), NULL);
  TVMFFIObject* o = trx_block_builder_emit_output(bb, v, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* inner = relu(o);
  TVMFFIObject* outer = relu(inner);
  TVMFFIObject* g = end_fn(bb, outer);
  TVMFFIObject* m1 = trx_block_builder_get_module(bb);
  CHECK_PRINT(m1,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def a(x: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tensor((2, 3), dtype=\"float32\"):\n"
              "        with R.dataflow():\n"
              "            lv: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(x)\n"
              "            gv: R.Tensor((2, 3), dtype=\"float32\") = lv\n"
              "            R.output(gv)\n"
              "        gv1: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(gv)\n"
              "        gv2: R.Tensor((2, 3), dtype=\"float32\") = R.nn.relu(gv1)\n"
              "        return gv2");
  /* get() is a snapshot: adding to the builder afterwards leaves it alone */
  begin_fn(bb, "b", &x, 1);
  TVMFFIObject* g2 = end_fn(bb, x);
  TVMFFIObject* m2 = trx_block_builder_get_module(bb);
  CHECK(m1 != m2);
  CHECK_EQ_INT(tether_map_size(module_functions(m1)), 1);
  CHECK_EQ_INT(tether_map_size(module_functions(m2)), 2);
  TVMFFIObject* fb = module_get(m2, "b");
  CHECK(fb != NULL);
  if (fb != NULL) {
    trx_seq_expr_t* body = (trx_seq_expr_t*)((trx_function_t*)fb)->body;
    CHECK_EQ_INT(tether_array_size(body->blocks), 0);
    CHECK(body->body == x);
  }
  TVMFFIObject* all[] = {m2, g2, m1, g, outer, inner, o, v, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* add_func dedup: a structurally equal function (same attrs) is not added twice. */
static void test_dedup_and_call_global(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject *gs[5], *vs[5];
  const char* names[] = {"f", "f", "f", "h", "h"};
  const int64_t* shapes[] = {kS23, kS23, kS24, kS23, kS23};
  bool priv[] = {false, false, false, true, false};
  for (int i = 0; i < 5; ++i) {
    TVMFFIObject* x = var_of("x", shapes[i], 2);
    TVMFFIObject* ps = array_of(&x, 1);
    CHECK_OK(trx_block_builder_begin_function(bb, names[i], 1, ps, NULL, true, priv[i]));
    vs[i] = emit(bb, relu(x), NULL);
    gs[i] = end_fn(bb, vs[i]);
    unref(ps);
    unref(x);
  }
  CHECK(gs[0] == gs[1]);
  CHECK_GVAR(gs[0], "f");
  CHECK_GVAR(gs[2], "f1");
  CHECK_GVAR(gs[3], "h");  /* private: no global_symbol, so not equal to f */
  CHECK_GVAR(gs[4], "h1"); /* global_symbol "h" differs from f's */
  CHECK(gs[3] != gs[0] && gs[4] != gs[0]);
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_EQ_INT(tether_map_size(module_functions(mod)), 4);
  CHECK_EQ_INT(tether_map_size(((trx_ir_module_t*)mod)->global_var_map_), 4);
  TVMFFIObject* h = module_get(mod, "h");
  CHECK(h != NULL && ((trx_base_func_t*)h)->attrs != NULL &&
        tether_map_size(((trx_dict_attrs_t*)((trx_base_func_t*)h)->attrs)->dict) == 0);
  unref(mod);

  /* a Call to a GlobalVar takes the callee's return type, in place; attrs and purity */
  TVMFFIObject* y = var_of("y", kS23, 2);
  TVMFFIObject* ps = array_of(&y, 1);
  TVMFFIAny kv[2] = {tether_any_raw_str("foo"), tether_any_int(1)};
  TVMFFIObjectHandle attrs = NULL;
  CHECK_OK(tether_map_new(kv, 1, &attrs));
  CHECK_OK(trx_block_builder_begin_function(bb, "main", 4, ps, attrs, false, false));
  TVMFFIObject* args = array_of(&y, 1);
  TVMFFIObject* c = trx_call_new(gs[0], args, NULL, NULL);
  TVMFFIObject* v = trx_block_builder_emit(bb, c, NULL, 0);
  CHECK(ty_of(c) != NULL && struct_eq(ty_of(c), ty_of(y)));
  CHECK_VAR(v, "gv5", false);
  TVMFFIObject* w = trx_block_builder_match_cast(bb, v, ty_of(y), "w", 1);
  TVMFFIObject* nd2 = trx_tensor_type_new(NULL, kF32, 2);
  TVMFFIObject* w2 = trx_block_builder_match_cast(bb, v, nd2, NULL, 0);
  CHECK_VAR(w, "w", false);
  CHECK_VAR(w2, "gv6", false);
  CHECK(w2 != NULL && ty_of(w2) == nd2);
  TVMFFIObject* bound = (TVMFFIObject*)bb;
  CHECK_OK(trx_block_builder_lookup_binding(bb, w, &bound));
  CHECK(bound == NULL); /* MatchCast bindings are not in the table */
  TVMFFIObject* outs[] = {w, w2};
  TVMFFIObject* tup = tuple_of(outs, 2);
  TVMFFIObject* gm = end_fn(bb, tup);
  CHECK_GVAR(gm, "main");
  mod = trx_block_builder_get_module(bb);
  TVMFFIObject* fm = module_get(mod, "main");
  CHECK(fm != NULL && !((trx_function_t*)fm)->is_pure);
  CHECK(fm != NULL && !((trx_func_type_t*)ty_of(fm))->purity);
  CHECK_PRINT(fm,
              "# from tvm.script import relax as R\n"
              "\n"
              "@R.function(pure=False)\n"
              "def main(y: R.Tensor((2, 3), dtype=\"float32\")) -> R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), "
              "R.Tensor(dtype=\"float32\", ndim=2)):\n"
              "    R.func_attr({\"foo\": 1})\n"
              "    gv5: R.Tensor((2, 3), dtype=\"float32\") = f(y)\n"
              "    w: R.Tensor((2, 3), dtype=\"float32\") = R.match_cast(gv5, R.Tensor((2, 3), dtype=\"float32\"))\n"
              "    gv6: R.Tensor(dtype=\"float32\", ndim=2) = R.match_cast(gv5, R.Tensor(dtype=\"float32\", ndim=2))\n"
              "    return (w, gv6)");
  unref(mod);
  TVMFFIObject* all[] = {gm, tup, w2, nd2, w, v, c, args, attrs, ps, y};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
  for (int i = 0; i < 5; ++i) {
    unref(gs[i]);
    unref(vs[i]);
  }
  unref(bb);
}

/* A builder over an existing module: its names are reserved, its functions dedup, and the
 * caller's module object is not changed. */
static void test_builder_over_module(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "main", &x, 1);
  TVMFFIObject* v = emit(bb, relu(x), NULL);
  TVMFFIObject* g1 = end_fn(bb, v);
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  unref(bb);

  TVMFFIObject* bb2 = trx_block_builder_new(mod);
  TVMFFIObject* x2 = var_of("x", kS23, 2);
  begin_fn(bb2, "main", &x2, 1);
  TVMFFIObject* v2 = emit(bb2, relu(x2), NULL);
  CHECK_VAR(v2, "gv", false);
  TVMFFIObject* g2 = end_fn(bb2, v2);
  CHECK(g2 == g1);
  TVMFFIObject* x3 = var_of("x", kS24, 2);
  begin_fn(bb2, "main", &x3, 1);
  TVMFFIObject* v3 = emit(bb2, relu(x3), NULL);
  TVMFFIObject* g3 = end_fn(bb2, v3);
  CHECK_GVAR(g3, "main1");
  TVMFFIObject* mod2 = trx_block_builder_get_module(bb2);
  CHECK_EQ_INT(tether_map_size(module_functions(mod2)), 2);
  CHECK_EQ_INT(tether_map_size(module_functions(mod)), 1);
  TVMFFIAny s = tether_any_none();
  CHECK_OK(trx_block_builder_unique_name(bb2, "main", 4, &s));
  CHECK_BYTES(str_of(&s), "main2");
  tether_any_release(&s);
  CHECK(trx_block_builder_new(x) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.BlockBuilderCreate: argument `mod` must be an IRModule or None, but got ir.Var");
  TVMFFIObject* all[] = {mod2, g3, v3, x3, g2, v2, x2, bb2, mod, g1, v, x};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* The FFI face: type key, globals, loose arguments. */
static void test_ffi_globals(void) {
  TVMFFIObject* bb = call_object("relax.BlockBuilderCreate", NULL, 0);
  CHECK(bb != NULL);
  if (bb == NULL) return;
  CHECK_EQ_STR(tether_type_key(bb->type_index), "relax.BlockBuilder");
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* ps = array_of(&x, 1);
  TVMFFIAny a[6] = {tether_any_object(bb), tether_any_raw_str("main"), tether_any_object(ps), tether_any_none(),
                    tether_any_bool(true), tether_any_bool(false)};
  TVMFFIObjectHandle f = tether_func_get("relax.BlockBuilderBeginFunction");
  TVMFFIAny r = tether_any_none();
  CHECK_OK(tether_func_call(f, a, 6, &r));
  TVMFFIObjectDecRef(f);
  CHECK(call_object("relax.BlockBuilderBeginDataflow", a, 1) == NULL); /* returns None */
  drop_error();
  TVMFFIObject* c = relu(x);
  TVMFFIAny e[3] = {tether_any_object(bb), tether_any_object(c), tether_any_raw_str("y.z")};
  TVMFFIObject* v = call_object("relax.BlockBuilderEmit", e, 3);
  CHECK_VAR(v, "y_z", true);
  TVMFFIAny q[1] = {tether_any_object(bb)};
  f = tether_func_get("relax.BlockBuilderCurrentBlockIsDataflow");
  CHECK_OK(tether_func_call(f, q, 1, &r));
  CHECK(r.type_index == kTVMFFIBool && r.v_int64 == 1);
  TVMFFIObjectDecRef(f);
  TVMFFIAny o[2] = {tether_any_object(bb), tether_any_object(v)};
  TVMFFIObject* gv = call_object("relax.BlockBuilderEmitOutput", o, 2);
  CHECK_VAR(gv, "gv", false);
  TVMFFIAny lk[2] = {tether_any_object(bb), tether_any_object(gv)};
  TVMFFIObject* bound = call_object("relax.BlockBuilderLookupBinding", lk, 2);
  CHECK(bound == v);
  unref(bound);
  lk[1] = tether_any_object(x);
  f = tether_func_get("relax.BlockBuilderLookupBinding");
  CHECK_OK(tether_func_call(f, lk, 2, &r));
  CHECK(r.type_index == kTVMFFINone);
  TVMFFIObjectDecRef(f);
  f = tether_func_get("relax.BlockBuilderEndDataflow");
  CHECK_OK(tether_func_call(f, q, 1, &r));
  TVMFFIObjectDecRef(f);
  TVMFFIAny fo[3] = {tether_any_object(bb), tether_any_object(gv), tether_any_none()};
  TVMFFIObject* g = call_object("relax.BlockBuilderEmitFuncOutput", fo, 3);
  CHECK_GVAR(g, "main");
  f = tether_func_get("relax.BlockBuilderEndFunctionWithoutOutput");
  CHECK_OK(tether_func_call(f, q, 1, &r));
  CHECK_RAISED(tether_func_call(f, q, 1, &r), "RuntimeError", "Cannot access BlockBuilder._func");
  TVMFFIObjectDecRef(f);
  TVMFFIObject* mod = call_object("relax.BlockBuilderGetModule", q, 1);
  CHECK(trx_is(mod, TRX_IR_MODULE));
  TVMFFIAny un[2] = {tether_any_object(bb), tether_any_raw_str("main")};
  f = tether_func_get("relax.BlockBuilderGetUniqueName");
  CHECK_OK(tether_func_call(f, un, 2, &r));
  CHECK_BYTES(str_of(&r), "main1");
  tether_any_release(&r);
  TVMFFIObjectDecRef(f);
  TVMFFIAny af[3] = {tether_any_object(bb), tether_any_object(module_get(mod, "main")), tether_any_raw_str("other")};
  TVMFFIObject* g2 = call_object("relax.BlockBuilderAddFunction", af, 3);
  CHECK(g2 == g); /* dedup */
  TVMFFIAny nm[2] = {tether_any_object(bb), tether_any_object(c)};
  TVMFFIObject* n = call_object("relax.BlockBuilderNormalize", nm, 2);
  CHECK(n == c);
  /* a list (ffi.Array) where an Expr is expected is a Tuple, recursively */
  TVMFFIObject* inner_list = array_of(&x, 1);
  TVMFFIObject* items[] = {x, inner_list};
  TVMFFIObject* list = array_of(items, 2);
  TVMFFIAny nl[2] = {tether_any_object(bb), tether_any_object(list)};
  TVMFFIObject* nt = call_object("relax.BlockBuilderNormalize", nl, 2);
  CHECK(trx_is(nt, TRX_TUPLE));
  /* a bare TupleType prints under the TIR dispatch in TVM too */
  CHECK_PRINT(ty_of(nt), "T.Tuple(R.Tensor((T.int64(2), T.int64(3)), dtype=\"float32\"), "
                         "T.Tuple(R.Tensor((T.int64(2), T.int64(3)), dtype=\"float32\")))");
  unref(nt);
  unref(list);
  unref(inner_list);
  TVMFFIAny bad_items[1] = {tether_any_int(1)};
  TVMFFIObjectHandle bad_list = NULL;
  CHECK_OK(tether_array_new(bad_items, 1, &bad_list));
  nl[1] = tether_any_object(bad_list);
  CHECK(call_object("relax.BlockBuilderNormalize", nl, 2) == NULL);
  CHECK_RAISED(-1, "TypeError", "a list used as a Tuple must hold Exprs, but element 0 is int");
  unref(bad_list);
  /* wrong argument types */
  TVMFFIAny bad[2] = {tether_any_int(3), tether_any_object(c)};
  f = tether_func_get("relax.BlockBuilderNormalize");
  CHECK_RAISED(tether_func_call(f, bad, 2, &r), "TypeError",
               "relax.BlockBuilderNormalize: argument #0 must be an object or None, but got int");
  CHECK_RAISED(tether_func_call(f, bad, 1, &r), "TypeError", "relax.BlockBuilderNormalize expects 2 to 2 arguments");
  TVMFFIObjectDecRef(f);
  TVMFFIObject* all[] = {n, g2, mod, g, gv, v, c, ps, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* A long chain (the benchmark's shape) builds and normalizes without trouble. */
static void test_long_chain(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* x = var_of("x", kS23, 2);
  begin_fn(bb, "main", &x, 1);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* cur = x;
  TVMFFIObjectIncRef(cur);
  for (int i = 0; i < 3000; ++i) {
    TVMFFIObject* next = emit(bb, i % 2 ? relu(cur) : add(cur, x), NULL);
    unref(cur);
    cur = next;
  }
  CHECK_VAR(cur, "lv2999", true);
  TVMFFIObject* o = trx_block_builder_emit_output(bb, cur, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g = end_fn(bb, o);
  CHECK_GVAR(g, "main");
  TVMFFIObject* all[] = {g, o, cur, x, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* ---- symbolic vars leaving scope (observed in TVM 0.27) ------------------------------------- */

/* R.Tensor(dims) over prim exprs (borrowed), float32 (new reference). */
static TVMFFIObject* sym_tensor_ty(TVMFFIObject* const* dims, int n) {
  TVMFFIObject* arr = array_of(dims, n);
  TVMFFIObject* shape = trx_shape_expr_new(arr);
  unref(arr);
  TVMFFIObject* ty = trx_tensor_type_new(shape, kF32, -1);
  unref(shape);
  CHECK(ty != NULL);
  return ty;
}

/* The return type of the function the builder made last (borrowed) and its body type. */
static TVMFFIObject* last_ret_ty(TVMFFIObject* bb, const char* name, TVMFFIObject** body_ty) {
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  trx_function_t* f = (trx_function_t*)module_get(mod, name);
  unref(mod); /* the builder keeps the module alive */
  *body_ty = f != NULL ? ty_of(f->body) : NULL;
  return f != NULL ? f->ret_ty : NULL;
}

static void test_func_output_erases_symbolic_vars(void) {
  TVMFFIObject* i64 = trx_prim_type_new(kI64);
  TVMFFIObject* n = trx_var_new("n", 1, i64, false);
  TVMFFIObject* m = trx_var_new("m", 1, i64, false);
  TVMFFIObject *one = trx_int_imm_new(kI64, 1), *two = trx_int_imm_new(kI64, 2), *three = trx_int_imm_new(kI64, 3);
  TVMFFIObject* nd2 = trx_tensor_type_new(NULL, kF32, 2);
  TVMFFIObject* x = trx_var_new("x", 1, nd2, false);

  /* x: R.Tensor(ndim=2) matched to R.Tensor((1, n)) in a dataflow block: n is not defined by
   * the params, so the return type keeps only ndim, and n is declared in the body */
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  begin_fn(bb, "main", &x, 1);
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* d1n[] = {one, n};
  TVMFFIObject* t1n = sym_tensor_ty(d1n, 2);
  TVMFFIObject* y = trx_block_builder_match_cast(bb, x, t1n, NULL, 0);
  TVMFFIObject* z = emit(bb, add(y, y), NULL);
  TVMFFIObject* o = trx_block_builder_emit_output(bb, z, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g = end_fn(bb, o);
  TVMFFIObject* body_ty = NULL;
  TVMFFIObject* ret = last_ret_ty(bb, "main", &body_ty);
  CHECK(struct_eq(ret, nd2) && struct_eq(body_ty, t1n)); /* the body keeps (1, n): n is in scope */
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK_PRINT(mod,
              "# from tvm.script import ir as I\n"
              "# from tvm.script import tirx as T\n"
              "# from tvm.tirx.layout import Axis\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@I.ir_module\n"
              "class Module:\n"
              "    @R.function\n"
              "    def main(x: R.Tensor(dtype=\"float32\", ndim=2)) -> R.Tensor(dtype=\"float32\", ndim=2):\n"
              "        n = T.int64()\n"
              "        with R.dataflow():\n"
              "            lv: R.Tensor((1, n), dtype=\"float32\") = R.match_cast(x, R.Tensor((1, n), dtype=\"float32\"))\n"
              "            lv1: R.Tensor((1, n), dtype=\"float32\") = R.add(lv, lv)\n"
              "            gv: R.Tensor((1, n), dtype=\"float32\") = lv1\n"
              "            R.output(gv)\n"
              "        return gv");
  CHECK_PRINT(module_get(mod, "main"),
              "# from tvm.script import tirx as T\n"
              "# from tvm.tirx.layout import Axis\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@R.function\n"
              "def main(x: R.Tensor(dtype=\"float32\", ndim=2)) -> R.Tensor(dtype=\"float32\", ndim=2):\n"
              "    n = T.int64()\n"
              "    with R.dataflow():\n"
              "        lv: R.Tensor((1, n), dtype=\"float32\") = R.match_cast(x, R.Tensor((1, n), dtype=\"float32\"))\n"
              "        lv1: R.Tensor((1, n), dtype=\"float32\") = R.add(lv, lv)\n"
              "        gv: R.Tensor((1, n), dtype=\"float32\") = lv1\n"
              "        R.output(gv)\n"
              "    return gv");
  unref(mod);
  TVMFFIObject* all1[] = {g, o, z, y, t1n, bb};
  for (size_t i = 0; i < sizeof(all1) / sizeof(all1[0]); ++i) unref(all1[i]);

  /* a bare param dim defines n, a compound one does not: q: (n,) keeps (n * 2, 3) but erases
   * (n * 2, m); p: (n + 1,) erases n, and then the body type too (m * 2 defines nothing) */
  TVMFFIObject* dn[] = {n};
  TVMFFIObject* tn = sym_tensor_ty(dn, 1);
  TVMFFIObject* q = trx_var_new("q", 1, tn, false);
  TVMFFIObject* n2 = trx_binop_new(TRX_PRIM_MUL, n, two);
  TVMFFIObject* m2 = trx_binop_new(TRX_PRIM_MUL, m, two);
  TVMFFIObject* n1 = trx_binop_new(TRX_PRIM_ADD, n, one);
  TVMFFIObject* d_n2_3[] = {n2, three};
  TVMFFIObject* d_n2_m[] = {n2, m};
  TVMFFIObject* d_n_m2[] = {n, m2};
  TVMFFIObject* d_n1[] = {n1};
  TVMFFIObject *t_n2_3 = sym_tensor_ty(d_n2_3, 2), *t_n2_m = sym_tensor_ty(d_n2_m, 2),
               *t_n_m2 = sym_tensor_ty(d_n_m2, 2), *t_n1 = sym_tensor_ty(d_n1, 1);
  TVMFFIObject* p = trx_var_new("p", 1, t_n1, false);
  struct {
    TVMFFIObject* param;
    TVMFFIObject* cast;
    TVMFFIObject* ret;  /* expected */
    TVMFFIObject* body; /* expected */
  } cases[] = {{q, t_n2_3, t_n2_3, t_n2_3}, {q, t_n2_m, nd2, t_n2_m}, {p, t_n_m2, nd2, nd2}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    bb = trx_block_builder_new(NULL);
    TVMFFIObject* ps[] = {cases[i].param, x};
    begin_fn(bb, "main", ps, 2);
    TVMFFIObject* w = trx_block_builder_match_cast(bb, x, cases[i].cast, NULL, 0);
    g = end_fn(bb, w);
    ret = last_ret_ty(bb, "main", &body_ty);
    CHECK(struct_eq(ret, cases[i].ret) && struct_eq(body_ty, cases[i].body));
    unref(g);
    unref(w);
    unref(bb);
  }

  /* tuples erase field by field; a ShapeType keeps only ndim */
  bb = trx_block_builder_new(NULL);
  begin_fn(bb, "main", &x, 1);
  TVMFFIObject* d_nm[] = {n, m};
  TVMFFIObject* t_nm = sym_tensor_ty(d_nm, 2);
  TVMFFIObject* w = trx_block_builder_match_cast(bb, x, t_nm, NULL, 0);
  TVMFFIObject* d_n3[] = {n, three};
  TVMFFIObject* sarr = array_of(d_n3, 2);
  TVMFFIObject* sh = trx_shape_expr_new(sarr);
  TVMFFIObject* fields[] = {w, sh};
  TVMFFIObject* t = emit(bb, tuple_of(fields, 2), NULL);
  g = end_fn(bb, t);
  ret = last_ret_ty(bb, "main", &body_ty);
  mod = trx_block_builder_get_module(bb);
  CHECK_PRINT(module_get(mod, "main"),
              "# from tvm.script import tirx as T\n"
              "# from tvm.tirx.layout import Axis\n"
              "# from tvm.script import relax as R\n"
              "\n"
              "@R.function\n"
              "def main(x: R.Tensor(dtype=\"float32\", ndim=2)) -> R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), "
              "R.Shape(ndim=2)):\n"
              "    n = T.int64()\n"
              "    m = T.int64()\n"
              "    gv: R.Tensor((n, m), dtype=\"float32\") = R.match_cast(x, R.Tensor((n, m), dtype=\"float32\"))\n"
              "    gv1: R.Tuple(R.Tensor((n, m), dtype=\"float32\"), R.Shape([n, 3])) = gv, R.shape([n, 3])\n"
              "    return gv1");
  CHECK(trx_is(body_ty, TRX_TUPLE_TYPE) && body_ty == ty_of(t)); /* the body type is kept */
  unref(mod);
  TVMFFIObject* all[] = {g, t, sh, sarr, w, t_nm, p, t_n1, t_n_m2, t_n2_m, t_n2_3, n1, m2, n2, q, tn,
                         x, nd2, three, two, one, m, n, i64, bb};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* ---- the type of an If: TVM's type LCA, and erasure to the enclosing scope ------------------
 * Expected texts printed by apache-tvm 0.27 (relax.analysis.type_lca, and Ifs emitted through
 * its BlockBuilder); tests/python/test_relax_block_builder.py holds the full table. */

/* The printed text of `ty` (a Type) as a C string into buf. */
static const char* print_ty(TVMFFIObject* ty, char* buf, size_t n) {
  TVMFFIAny s = tether_any_none();
  trx_print_options_t o = {false, true, false};
  snprintf(buf, n, "<print failed>");
  if (ty != NULL && trx_print(ty, &o, &s) == 0) {
    TVMFFIByteArray b = str_of(&s);
    snprintf(buf, n, "%.*s", (int)b.size, b.data);
  } else {
    drop_error();
  }
  tether_any_release(&s);
  return buf;
}

static TVMFFIObject* type_lca(TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIAny args[2] = {tether_any_object(a), tether_any_object(b)};
  return call_object("relax.analysis.TypeLCA", args, 2);
}

static TVMFFIObject* opaque_func(TVMFFIObject* ret, bool pure) { return trx_func_type_new(NULL, ret, pure); }

static TVMFFIObject* func1(TVMFFIObject* param, TVMFFIObject* ret, bool pure) {
  TVMFFIObject* ps = array_of(&param, 1);
  TVMFFIObject* f = trx_func_type_new(ps, ret, pure);
  unref(ps);
  return f;
}

static TVMFFIObject* tuple_ty(TVMFFIObject* const* fields, int n) {
  TVMFFIObject* arr = array_of(fields, n);
  TVMFFIObject* t = trx_tuple_type_new(arr);
  unref(arr);
  return t;
}

static TVMFFIObject* shape_ty(TVMFFIObject* const* dims, int n) {
  TVMFFIObject* arr = array_of(dims, n);
  TVMFFIObject* t = trx_shape_type_new(arr, -1);
  unref(arr);
  return t;
}

/* A call's type is the callee's return type in terms of the arguments (apache-tvm 0.27's
 * texts): a bare dim of a param binds the callee's var to the argument's dim the first time it
 * is met (n <- p from x, then k <- 5; t's q for n is ignored), bound dims are substituted and
 * simplified (k + n -> p + 5), and a shape with a var left unbound (j, only in the return) is
 * erased to its ndim.  An argument without a shape binds nothing, so the tuple's dims bind. */
static void test_call_binds_callee_vars(void) {
  TVMFFIObject* i64 = trx_prim_type_new(kI64);
  TVMFFIObject *n = trx_var_new("n", 1, i64, false), *k = trx_var_new("k", 1, i64, false);
  TVMFFIObject *j = trx_var_new("j", 1, i64, false), *p = trx_var_new("p", 1, i64, false);
  TVMFFIObject* q = trx_var_new("q", 1, i64, false);
  TVMFFIObject *three = trx_int_imm_new(kI64, 3), *five = trx_int_imm_new(kI64, 5);
  TVMFFIObject* nk = trx_binop_new(TRX_PRIM_MUL, n, k);
  TVMFFIObject* kn = trx_binop_new(TRX_PRIM_ADD, k, n);
  /* helper(a: R.Tensor((n, k)), b: R.Tuple(R.Tensor((k,)), R.Shape([n, 3])))
   *   -> R.Tuple(R.Tensor((n * k, j)), R.Tensor((k + n,)), R.Shape([n])) */
  TVMFFIObject* pa = sym_tensor_ty((TVMFFIObject*[]){n, k}, 2);
  TVMFFIObject* pk = sym_tensor_ty(&k, 1);
  TVMFFIObject* vn3 = array_of((TVMFFIObject*[]){n, three}, 2);
  TVMFFIObject* sn3 = trx_shape_type_new(vn3, -1);
  TVMFFIObject* pbf = array_of((TVMFFIObject*[]){pk, sn3}, 2);
  TVMFFIObject* pb = trx_tuple_type_new(pbf);
  TVMFFIObject* r0 = sym_tensor_ty((TVMFFIObject*[]){nk, j}, 2);
  TVMFFIObject* r1 = sym_tensor_ty(&kn, 1);
  TVMFFIObject* vn = array_of(&n, 1);
  TVMFFIObject* r2 = trx_shape_type_new(vn, -1);
  TVMFFIObject* rf = array_of((TVMFFIObject*[]){r0, r1, r2}, 3);
  TVMFFIObject* ret = trx_tuple_type_new(rf);
  TVMFFIObject* pty = array_of((TVMFFIObject*[]){pa, pb}, 2);
  TVMFFIObject* fty = trx_func_type_new(pty, ret, true);
  TVMFFIObject* fv = trx_var_new("helper", 6, fty, false);
  /* x: R.Tensor((p, 5)), t: R.Tuple(R.Tensor((5,)), R.Shape([q, 3])), w: R.Tensor(ndim=2) */
  TVMFFIObject* xty = sym_tensor_ty((TVMFFIObject*[]){p, five}, 2);
  TVMFFIObject* x = trx_var_new("x", 1, xty, false);
  TVMFFIObject* t5 = sym_tensor_ty(&five, 1);
  TVMFFIObject* vq3 = array_of((TVMFFIObject*[]){q, three}, 2);
  TVMFFIObject* sq3 = trx_shape_type_new(vq3, -1);
  TVMFFIObject* tf = array_of((TVMFFIObject*[]){t5, sq3}, 2);
  TVMFFIObject* tty = trx_tuple_type_new(tf);
  TVMFFIObject* t = trx_var_new("t", 1, tty, false);
  TVMFFIObject* nd2 = trx_tensor_type_new(NULL, kF32, 2);
  TVMFFIObject* w = trx_var_new("w", 1, nd2, false);
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  static const struct {
    int arg0; /* 0: x, 1: w */
    const char* want;
  } kCases[] = {
      {0, "T.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor((p + T.int64(5),), dtype=\"float32\"), R.Shape([p]))"},
      {1, "T.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor((q + T.int64(5),), dtype=\"float32\"), R.Shape([q]))"},
  };
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
    TVMFFIObject* args = array_of((TVMFFIObject*[]){kCases[i].arg0 ? w : x, t}, 2);
    TVMFFIObject* c = trx_call_new(fv, args, NULL, NULL);
    TVMFFIObject* r = trx_normalize(bb, c);
    CHECK(r != NULL);
    if (r != NULL) CHECK_PRINT(ty_of(r), kCases[i].want);
    unref(r);
    unref(c);
    unref(args);
  }
  /* an argument TVM rejects (a tensor for the tuple param) */
  TVMFFIObject* bargs = array_of((TVMFFIObject*[]){x, x}, 2);
  TVMFFIObject* bc = trx_call_new(fv, bargs, NULL, NULL);
  CHECK(trx_normalize(bb, bc) == NULL);
  CHECK_RAISED(-1, "ValueError",
               "Argument 1 type mismatch: expected T.Tuple(R.Tensor((k,), dtype=\"float32\"), R.Shape([n, "
               "T.int64(3)])), given R.Tensor((p, 5), dtype=\"float32\")");
  unref(bc);
  unref(bargs);
  /* a return type without symbolic vars is the callee's own object */
  TVMFFIObject* spty = array_of(&pa, 1);
  TVMFFIObject* sfty = trx_func_type_new(spty, nd2, true);
  TVMFFIObject* sf = trx_var_new("g", 1, sfty, false);
  TVMFFIObject* sargs = array_of(&x, 1);
  TVMFFIObject* sc = trx_call_new(sf, sargs, NULL, NULL);
  TVMFFIObject* sr = trx_normalize(bb, sc);
  CHECK(sr != NULL && ty_of(sr) == nd2);
  TVMFFIObject* sall[] = {sr, sc, sargs, sf, sfty, spty};
  for (size_t i = 0; i < sizeof(sall) / sizeof(sall[0]); ++i) unref(sall[i]);
  TVMFFIObject* all[] = {bb, w, nd2, t, tty, tf, sq3, vq3, t5, x, xty, fv, fty, pty, ret, rf, r2, vn,
                         r1, r0, pb, pbf, sn3, vn3, pk, pa, kn, nk, five, three, q, p, j, k, n, i64};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

static void test_type_lca_table(void) {
  static const DLDataType kF16 = {kDLFloat, 16, 1}, kI32 = {kDLInt, 32, 1};
  static const int64_t s2[] = {2}, s3[] = {3}, s234[] = {2, 3, 4};
  TVMFFIObject* i64 = trx_prim_type_new(kI64);
  TVMFFIObject *n = trx_var_new("n", 1, i64, false), *m = trx_var_new("m", 1, i64, false);
  TVMFFIObject *one = trx_int_imm_new(kI64, 1), *two = trx_int_imm_new(kI64, 2), *three = trx_int_imm_new(kI64, 3);
  TVMFFIObject *n2 = trx_binop_new(TRX_PRIM_MUL, n, two), *nn = trx_binop_new(TRX_PRIM_ADD, n, n);
  TVMFFIObject *d_n3[] = {n, three}, *d_m3[] = {m, three}, *d_n2_3[] = {n2, three}, *d_nn_3[] = {nn, three};
  TVMFFIObject *d12[] = {one, two}, *d13[] = {one, three}, *d123[] = {one, two, three};
  TVMFFIObject* t23 = tensor_ty(kS23, 2, kF32);
  TVMFFIObject* t24 = tensor_ty(kS24, 2, kF32);
  TVMFFIObject* t23h = tensor_ty(kS23, 2, kF16);
  TVMFFIObject* t234 = tensor_ty(s234, 3, kF32);
  TVMFFIObject* t2 = tensor_ty(s2, 1, kF32);
  TVMFFIObject* t3 = tensor_ty(s3, 1, kF32);
  TVMFFIObject* t2i = tensor_ty(s2, 1, kI32);
  TVMFFIObject* nd2 = trx_tensor_type_new(NULL, kF32, 2);
  TVMFFIObject* nd1 = trx_tensor_type_new(NULL, kF32, 1);
  TVMFFIObject* nd2_void = trx_tensor_type_new(NULL, (DLDataType){kDLOpaqueHandle, 0, 0}, 2);
  TVMFFIObject *tn3 = sym_tensor_ty(d_n3, 2), *tm3 = sym_tensor_ty(d_m3, 2);
  TVMFFIObject *tn2_3 = sym_tensor_ty(d_n2_3, 2), *tnn_3 = sym_tensor_ty(d_nn_3, 2);
  TVMFFIObject *sh12 = shape_ty(d12, 2), *sh13 = shape_ty(d13, 2), *sh123 = shape_ty(d123, 3);
  TVMFFIObject *shn = shape_ty(d_n3, 2), *shm = shape_ty(d_m3, 2), *shnd2 = trx_shape_type_new(NULL, 2);
  TVMFFIObject *p64 = trx_prim_type_new(kI64), *p32 = trx_prim_type_new(kI32);
  TVMFFIObject *any = trx_any_type_new(), *packed = trx_packed_func_type_new();
  TVMFFIObject *tup_a_f[] = {t2, sh12}, *tup_b_f[] = {t3, sh12};
  TVMFFIObject *tup_a = tuple_ty(tup_a_f, 2), *tup_b = tuple_ty(tup_b_f, 2), *tup_1 = tuple_ty(&t2, 1);
  TVMFFIObject *f22 = func1(t2, t2, true), *f23 = func1(t2, t3, true), *f32 = func1(t3, t2, true);
  TVMFFIObject *f22_impure = func1(t2, t2, false), *f2i = func1(t2, t2i, true), *fsh = func1(sh12, t2, true);
  TVMFFIObject *ft2[] = {t2, t2}, *ps2 = array_of(ft2, 2);
  TVMFFIObject* f2args = trx_func_type_new(ps2, t2, true);
  TVMFFIObject *o2 = opaque_func(t2, false), *o3 = opaque_func(t3, false), *o2p = opaque_func(t2, true);
  TVMFFIObject *o1p = opaque_func(nd1, true), *o3p = opaque_func(t3, true);
  struct {
    TVMFFIObject *a, *b;
    const char* want;
  } cases[] = {
      {t23, t23, "R.Tensor((2, 3), dtype=\"float32\")"},
      {t23, t24, "R.Tensor(dtype=\"float32\", ndim=2)"},
      {t23, t23h, "R.Tensor((2, 3))"},
      {t23, t234, "R.Tensor(dtype=\"float32\")"},
      {t23, nd2, "R.Tensor(dtype=\"float32\", ndim=2)"},
      {t23, nd2_void, "R.Tensor(ndim=2)"},
      {tn3, tn3, "R.Tensor((n, 3), dtype=\"float32\")"},
      {tn3, tm3, "R.Tensor(dtype=\"float32\", ndim=2)"},
      {tn3, t23, "R.Tensor(dtype=\"float32\", ndim=2)"},
      {tn2_3, tnn_3, "R.Tensor((n * 2, 3), dtype=\"float32\")"},
      {sh12, sh12, "R.Shape([1, 2])"},
      {sh12, sh13, "R.Shape(ndim=2)"},
      {sh12, sh123, "R.Shape(ndim=-1)"},
      {sh12, shnd2, "R.Shape(ndim=2)"},
      {shn, shm, "R.Shape(ndim=2)"},
      {p64, p64, "T.int64"},
      {p64, p32, "R.Any"},
      {tup_a, tup_b, "T.Tuple(R.Tensor(dtype=\"float32\", ndim=1), R.Shape([T.int64(1), T.int64(2)]))"},
      {tup_1, tup_a, "R.Any"},
      {tup_1, t2, "R.Any"},
      {any, t2, "R.Any"},
      {t2, any, "R.Any"},
      {t2, sh12, "R.Any"},
      {t2, p64, "R.Any"},
      {t2, packed, "R.Any"},
      {packed, packed, "R.PackedFunc"},
      {f22, f22, "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Tensor((2,), dtype=\"float32\"), True)"},
      {f22, f23, "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Tensor(dtype=\"float32\", ndim=1), True)"},
      {f22, f32, "R.Callable((R.Tensor(dtype=\"float32\", ndim=1),), R.Tensor((2,), dtype=\"float32\"), True)"},
      {f22, f2args, "R.Callable(ret=R.Tensor((2,), dtype=\"float32\"), purity=True)"},
      {f22, f22_impure, "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Tensor((2,), dtype=\"float32\"), True)"},
      {f22_impure, f23, "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Tensor(dtype=\"float32\", ndim=1), False)"},
      {f22, f2i, "R.Callable((R.Tensor((2,), dtype=\"float32\"),), R.Tensor((2,)), True)"},
      {f22, fsh, "R.Callable((R.Any,), R.Tensor((2,), dtype=\"float32\"), True)"},
      {f22, t2, "R.Any"},
      {o2, o3, "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=1))"},
      {o2, f22, "R.Callable(ret=R.Tensor((2,), dtype=\"float32\"))"},
      {o2p, o2, "R.Callable(ret=R.Tensor((2,), dtype=\"float32\"), purity=True)"},
      {o2, o2p, "R.Callable(ret=R.Tensor((2,), dtype=\"float32\"))"},
      {o1p, f22_impure, "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=1), purity=True)"},
      {f22, o3p, "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=1), purity=True)"},
      {f22, o3, "R.Callable(ret=R.Tensor(dtype=\"float32\", ndim=1))"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char ba[256], bb[256], got[512];
    TVMFFIObject* r = type_lca(cases[i].a, cases[i].b);
    print_ty(r, got, sizeof(got));
    if (strcmp(got, cases[i].want) != 0) {
      fprintf(stderr, "%s:%d: case %zu: lca(%s, %s) = %s, expected %s\n", __FILE__, __LINE__, i,
              print_ty(cases[i].a, ba, sizeof(ba)), print_ty(cases[i].b, bb, sizeof(bb)), got, cases[i].want);
      test__checks_failed_in_current++;
    }
    unref(r);
  }
  /* the left operand itself when nothing changes (this is how purity follows the left side) */
  TVMFFIObject* r = type_lca(f22, f22_impure);
  CHECK(r == f22);
  unref(r);
  r = type_lca(tn2_3, tnn_3);
  CHECK(r == tn2_3);
  unref(r);
  /* not a Type: TVM's argument TypeError */
  TVMFFIAny bad[2] = {tether_any_int(1), tether_any_object(t2)};
  CHECK(call_object("relax.analysis.TypeLCA", bad, 2) == NULL);
  CHECK_RAISED(-1, "TypeError", "Expected `ir.Type` but got `int`");
  TVMFFIObject* all[] = {o3p, o1p, o2p, o3, o2, f2args, ps2, fsh, f2i, f22_impure, f32, f23, f22, tup_1, tup_b,
                         tup_a, packed, any, p32, p64, shnd2, shm, shn, sh123, sh13, sh12, tnn_3, tn2_3, tm3, tn3,
                         nd2_void, nd1, nd2, t2i, t3, t2, t234, t23h, t24, t23, nn, n2, three, two, one, m, n, i64};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* Emits If(c, a, b) in the open function; its type (borrowed from the var the builder keeps). */
static TVMFFIObject* emit_if(TVMFFIObject* bb, TVMFFIObject* c, TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIObject* v = emit(bb, trx_if_new(c, a, b), NULL);
  TVMFFIObject* ty = v != NULL ? ty_of(v) : NULL;
  unref(v);
  return ty;
}

static void check_ty_text(TVMFFIObject* ty, const char* want, int line) {
  char got[512];
  print_ty(ty, got, sizeof(got));
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "%s:%d: type %s, expected %s\n", __FILE__, line, got, want);
    test__checks_failed_in_current++;
  }
}
#define CHECK_TY(ty, want) check_ty_text((ty), (want), __LINE__)

/* An If's type keeps only the symbolic vars its scope defines: params' bare dims, earlier
 * MatchCasts (also in SeqExprs); branches inherit the scope, begin_scope does not. */
static void test_if_type_scopes(void) {
  TVMFFIObject* i64 = trx_prim_type_new(kI64);
  TVMFFIObject *n = trx_var_new("n", 1, i64, false), *k = trx_var_new("k", 1, i64, false);
  TVMFFIObject *one = trx_int_imm_new(kI64, 1), *three = trx_int_imm_new(kI64, 3);
  TVMFFIObject* n1 = trx_binop_new(TRX_PRIM_ADD, n, one);
  TVMFFIObject *d_n3[] = {n, three}, *d_n1_3[] = {n1, three}, *d_n[] = {n}, *d_k[] = {k};
  TVMFFIObject *tn3 = sym_tensor_ty(d_n3, 2), *tn1_3 = sym_tensor_ty(d_n1_3, 2), *tn = sym_tensor_ty(d_n, 1),
               *tk = sym_tensor_ty(d_k, 1);
  TVMFFIObject* bty = tensor_ty(NULL, 0, (DLDataType){kDLBool, 1, 1});
  TVMFFIObject* nd1 = trx_tensor_type_new(NULL, kF32, 1);
  TVMFFIObject* c = trx_var_new("c", 1, bty, false);
  TVMFFIObject* x = trx_var_new("x", 1, tn3, false);
  TVMFFIObject* y = trx_var_new("y", 1, tn1_3, false);
  TVMFFIObject* z = trx_var_new("z", 1, nd1, false);
  TVMFFIObject* w = trx_var_new("w", 1, tk, false);

  /* params: x defines n; y's n + 1 defines nothing; a MatchCast defining n then keeps (n + 1, 3) */
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* ps[] = {c, x, y, z};
  begin_fn(bb, "f", ps + 0, 2);
  CHECK_TY(emit_if(bb, c, x, x), "R.Tensor((n, 3), dtype=\"float32\")");
  TVMFFIObject* g = end_fn(bb, x);
  unref(g);
  unref(bb);
  bb = trx_block_builder_new(NULL);
  TVMFFIObject* ps2[] = {c, y, z};
  begin_fn(bb, "f", ps2, 3);
  CHECK_TY(emit_if(bb, c, y, y), "R.Tensor(dtype=\"float32\", ndim=2)");
  TVMFFIObject* mc = trx_block_builder_match_cast(bb, z, tn, NULL, 0);
  CHECK_TY(emit_if(bb, c, y, y), "R.Tensor((n + 1, 3), dtype=\"float32\")");
  g = end_fn(bb, y);
  unref(g);
  unref(mc);
  unref(bb);

  /* deferred params define nothing while the body is built */
  bb = trx_block_builder_new(NULL);
  CHECK_OK(trx_block_builder_begin_function(bb, "f", 1, NULL, NULL, true, false));
  CHECK_TY(emit_if(bb, c, x, x), "R.Tensor(dtype=\"float32\", ndim=2)");
  TVMFFIObject* dps = array_of(ps, 2);
  g = trx_block_builder_emit_func_output(bb, x, dps);
  CHECK(g != NULL);
  CHECK_OK(trx_block_builder_end_function(bb, true));
  unref(g);
  unref(dps);

  /* no scope: everything erased; begin_scope([x]) defines n but not k, and does not inherit */
  TVMFFIObject* r = NULL;
  TVMFFIObject* i1 = trx_if_new(c, x, x);
  TVMFFIObject* i2 = trx_if_new(c, w, w);
  TVMFFIObject* i3 = trx_if_new(c, x, x);
  TVMFFIObject* i4 = trx_if_new(c, w, w);
  TVMFFIObject* i0 = trx_if_new(c, x, x);
  r = trx_normalize(bb, i0);
  CHECK_TY(ty_of(r), "R.Tensor(dtype=\"float32\", ndim=2)");
  unref(r);
  TVMFFIAny sa[2] = {tether_any_object(bb), tether_any_none()};
  TVMFFIObject* px = array_of(&x, 1);
  TVMFFIObject* pw = array_of(&w, 1);
  sa[1] = tether_any_object(px);
  CHECK(call_object("relax.BlockBuilderBeginScope", sa, 2) == NULL); /* None: NULL, no error */
  drop_error();
  r = trx_normalize(bb, i1);
  CHECK_TY(ty_of(r), "R.Tensor((n, 3), dtype=\"float32\")");
  unref(r);
  r = trx_normalize(bb, i2);
  CHECK_TY(ty_of(r), "R.Tensor(dtype=\"float32\", ndim=1)");
  unref(r);
  sa[1] = tether_any_object(pw);
  CHECK(call_object("relax.BlockBuilderBeginScope", sa, 2) == NULL);
  drop_error();
  r = trx_normalize(bb, i3);
  CHECK_TY(ty_of(r), "R.Tensor(dtype=\"float32\", ndim=2)");
  unref(r);
  r = trx_normalize(bb, i4);
  CHECK_TY(ty_of(r), "R.Tensor((k,), dtype=\"float32\")");
  unref(r);
  CHECK(call_object("relax.BlockBuilderEndScope", sa, 1) == NULL);
  drop_error();
  CHECK(call_object("relax.BlockBuilderEndScope", sa, 1) == NULL);
  drop_error();
  CHECK(call_object("relax.BlockBuilderEndScope", sa, 1) == NULL);
  CHECK_RAISED(-1, "RuntimeError", "no scope is open");
  TVMFFIObject* all[] = {pw, px, i0, i4, i3, i2, i1, bb, w, z, y, x, c, nd1, bty, tk, tn, tn1_3, tn3, n1,
                         three, one, k, n, i64};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* update_func and finalize through their globals (TVM's observed behaviour). */
static void test_update_func_and_finalize(void) {
  static const int64_t s4[] = {4};
  TVMFFIObject* x = var_of("x", kS23, 2);
  TVMFFIObject* y = var_of("y", s4, 1);
  TVMFFIObject *px = array_of(&x, 1), *py = array_of(&y, 1);
  TVMFFIObject* f1 = trx_function_new(px, x, ty_of(x), true, NULL);
  TVMFFIObject* f2 = trx_function_new(py, y, ty_of(y), true, NULL);
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* gv = trx_block_builder_add_function(bb, f1, "foo", 3);
  TVMFFIObject* old_ty = ty_of(gv);
  TVMFFIObjectIncRef(old_ty);
  TVMFFIAny a[3] = {tether_any_object(bb), tether_any_object(gv), tether_any_object(f2)};
  CHECK(call_object("relax.BlockBuilderUpdateFunction", a, 3) == NULL);
  drop_error();
  TVMFFIObject* mod = trx_block_builder_get_module(bb);
  CHECK(module_get(mod, "foo") == f2);
  CHECK(ty_of(gv) == old_ty); /* gv keeps its type */
  unref(mod);
  TVMFFIObject* g2 = trx_block_builder_add_function(bb, f2, "bar", 3);
  CHECK(g2 == gv); /* the dedup table follows the update */
  TVMFFIObject* g3 = trx_block_builder_add_function(bb, f1, "baz", 3);
  CHECK_GVAR(g3, "baz");
  a[2] = tether_any_object(x);
  CHECK(call_object("relax.BlockBuilderUpdateFunction", a, 3) == NULL);
  CHECK_RAISED(-1, "TypeError",
               "Mismatched type on argument #2 when calling: `relax.BlockBuilderUpdateFunction(0: "
               "relax.BlockBuilder, 1: ir.GlobalVar, 2: ir.BaseFunc) -> void`. Expected `ir.BaseFunc` but got "
               "`ir.Var`");
  /* finalize: the module itself; private functions need no global_symbol check */
  TVMFFIObject* fm = call_object("relax.BlockBuilderFinalize", a, 1);
  mod = trx_block_builder_get_module(bb);
  CHECK(fm != NULL && fm == mod);
  unref(fm);
  unref(mod);
  unref(bb);
  /* two public "main": TVM's duplicate global symbol error; an open function is no error */
  bb = trx_block_builder_new(NULL);
  a[0] = tether_any_object(bb);
  begin_fn(bb, "main", &x, 1);
  fm = call_object("relax.BlockBuilderFinalize", a, 1);
  CHECK(fm != NULL && tether_map_size(module_functions(fm)) == 0);
  unref(fm);
  TVMFFIObject* m1 = end_fn(bb, x);
  begin_fn(bb, "main", &y, 1);
  TVMFFIObject* m2 = end_fn(bb, y);
  CHECK_GVAR(m2, "main1");
  CHECK(call_object("relax.BlockBuilderFinalize", a, 1) == NULL);
  CHECK_RAISED(-1, "InternalError",
               "Check failed: (!name_supply_->ContainsName(global_symbol_value)) is false: IRModule contains "
               "duplicate global symbol: main");
  TVMFFIObject* all[] = {m2, m1, bb, g3, g2, old_ty, gv, f2, f1, py, px, y, x};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) unref(all[i]);
}

/* The C entry points of update_func / scopes / finalize / type LCA (the globals above call
 * them; C users call them directly). */
static void test_c_api_scopes_finalize_lca(void) {
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  CHECK(bb != NULL);
  CHECK_OK(trx_block_builder_begin_scope(bb, NULL));
  CHECK_OK(trx_block_builder_end_scope(bb));
  CHECK_RAISED(trx_block_builder_end_scope(bb), "RuntimeError", "no scope is open");
  TVMFFIObject* mod = trx_block_builder_finalize(bb);
  TVMFFIObject* got = trx_block_builder_get_module(bb);
  CHECK(mod != NULL && mod == got);
  TVMFFIObjectDecRef(mod);
  TVMFFIObjectDecRef(got);
  CHECK_RAISED(trx_block_builder_update_function(bb, NULL, NULL), "TypeError", "GlobalVar");
  DLDataType f32 = {kDLFloat, 32, 1}, i32 = {kDLInt, 32, 1};
  TVMFFIObject *a = trx_prim_type_new(f32), *b = trx_prim_type_new(f32), *c = trx_prim_type_new(i32);
  TVMFFIObject* same = trx_type_lca(a, b);
  CHECK(same == a); /* equal prim types: the left operand */
  TVMFFIObject* any = trx_type_lca(a, c);
  CHECK(trx_is(any, TRX_ANY_TYPE));
  TVMFFIObject* none = trx_type_lca(NULL, a);
  CHECK(trx_is(none, TRX_ANY_TYPE));
  TVMFFIObject* objs[] = {same, any, none, a, b, c, bb};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) TVMFFIObjectDecRef(objs[i]);
}

/* match_cast's static check and the function attrs checks, as apache-tvm 0.27 makes them. */
static void test_match_cast_and_attrs_checks(void) {
  static const int64_t s28[] = {2, 8}, s33[] = {3, 3};
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* v = var_of("v", s28, 2);
  begin_fn(bb, "main", &v, 1);
  TVMFFIObject* bad = tensor_ty(s33, 2, (DLDataType){kDLInt, 32, 1});
  CHECK(trx_block_builder_match_cast(bb, v, bad, NULL, 0) == NULL);
  CHECK_RAISED(-1, "InternalError",
               "Check failed: (TypeBaseCheck(GetType(value), ty) != BaseCheckResult::kFailL0) is false: It is "
               "impossible to match cast any value into the target ty. But got value type: R.Tensor((2, 8), "
               "dtype=\"float32\"), given type: R.Tensor((3, 3), dtype=\"int32\")");
  TVMFFIObject* nd = trx_tensor_type_new(NULL, kF32, -1); /* unknown shape: possible */
  TVMFFIObject* w = trx_block_builder_match_cast(bb, v, nd, NULL, 0);
  CHECK(w != NULL);
  unref(end_fn(bb, v));
  /* a non-str attrs key */
  TVMFFIAny kv[2] = {tether_any_int(1), tether_any_int(2)};
  TVMFFIObjectHandle attrs = NULL;
  CHECK_OK(tether_map_new(kv, 1, &attrs));
  TVMFFIObject* ps = array_of(&v, 1);
  CHECK_OK(trx_block_builder_begin_function(bb, "f", 1, ps, attrs, true, false));
  CHECK(trx_block_builder_emit_func_output(bb, v, NULL) == NULL);
  CHECK_RAISED(-1, "TypeError",
               "Mismatched type on argument #1 when calling: `ir.BaseFuncWithAttr(0: RValueRef<ir.BaseFunc>, 1: "
               "str, 2: Any) -> ir.BaseFunc`. Expected `str` but got `int`");
  drop_error();
  trx_block_builder_end_function(bb, true);
  drop_error();
  TVMFFIObject* objs[] = {bad, nd, w, (TVMFFIObject*)attrs, ps, v, bb};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) unref(objs[i]);
}

TEST_MAIN(TEST_CASE(test_seed_example), TEST_CASE(test_names_across_functions),
          TEST_CASE(test_second_function_starts_at_lv1), TEST_CASE(test_name_hints),
          TEST_CASE(test_unique_name_sequence), TEST_CASE(test_scope_errors),
          TEST_CASE(test_function_scope_errors), TEST_CASE(test_func_output_inside_dataflow),
          TEST_CASE(test_normalize_nested_and_memo), TEST_CASE(test_tuples),
          TEST_CASE(test_tuple_get_item_errors), TEST_CASE(test_call_callee_types), TEST_CASE(test_if),
          TEST_CASE(test_func_output_nonleaf), TEST_CASE(test_dedup_and_call_global),
          TEST_CASE(test_builder_over_module), TEST_CASE(test_ffi_globals), TEST_CASE(test_long_chain),
          TEST_CASE(test_func_output_erases_symbolic_vars), TEST_CASE(test_call_binds_callee_vars),
          TEST_CASE(test_type_lca_table),
          TEST_CASE(test_if_type_scopes), TEST_CASE(test_update_func_and_finalize),
          TEST_CASE(test_c_api_scopes_finalize_lca), TEST_CASE(test_match_cast_and_attrs_checks))
