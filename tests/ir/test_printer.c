/*
 * test_printer.c -- the TVMScript printer (spec relax.md sections 2 and 3).  Every expected
 * text below was printed by apache-tvm 0.27 (`print(x)`, `x.script(verbose_expr=True)`,
 * `mod.script(show_all_ty=False)`) for the same IR built with tvm's Python API; the C code
 * builds that IR with the trx_* constructors and the op globals and compares byte for byte.
 */
#include <stdarg.h>
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>
#include <tether/reflection.h>
#include <tether/tensor.h>

#include "test.h"

static const DLDataType f32 = {kDLFloat, 32, 1};
static const DLDataType f64 = {kDLFloat, 64, 1};
static const DLDataType i64 = {kDLInt, 64, 1};
static const DLDataType i32 = {kDLInt, 32, 1};
static const DLDataType i8 = {kDLInt, 8, 1};
static const DLDataType u8 = {kDLUInt, 8, 1};
static const DLDataType boolean = {kDLBool, 8, 1};
static const DLDataType unknown = {kDLOpaqueHandle, 0, 0};

/* ---- a pool of objects released at the end of each test (builders return borrowed) ---- */
static TVMFFIObject* pool[1024];
static int npool;

static void drop_error(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) {
    TVMFFIByteArray m = tether_error_message(err);
    fprintf(stderr, "unexpected error: %.*s\n", (int)m.size, m.data);
    TVMFFIObjectDecRef(err);
  }
}

static TVMFFIObject* keep(TVMFFIObject* o) {
  CHECK(o != NULL);
  if (o == NULL) {
    drop_error();
  } else if (npool < (int)(sizeof(pool) / sizeof(pool[0]))) {
    pool[npool++] = o;
  }
  return o;
}

static void drain(void) {
  while (npool > 0) TVMFFIObjectDecRef(pool[--npool]);
}

static TVMFFIAny O(TVMFFIObject* o) { return o ? tether_any_object(o) : tether_any_none(); }

/* Array of the n Any views that follow. */
static TVMFFIObject* arr(int n, ...) {
  TVMFFIAny items[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i) items[i] = va_arg(ap, TVMFFIAny);
  va_end(ap);
  TVMFFIObjectHandle a = NULL;
  CHECK_OK(tether_array_new(items, n, &a));
  return keep(a);
}

/* Map<str, Any> of n (const char* key, TVMFFIAny value) pairs. */
static TVMFFIObject* dict(int n, ...) {
  TVMFFIAny kvs[32];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i) {
    kvs[2 * i] = tether_any_raw_str(va_arg(ap, const char*));
    kvs[2 * i + 1] = va_arg(ap, TVMFFIAny);
  }
  va_end(ap);
  TVMFFIObjectHandle m = NULL;
  CHECK_OK(tether_map_new(kvs, n, &m));
  return keep(m);
}

#define I(v) tether_any_int(v)
#define S(s) tether_any_raw_str(s)

static TVMFFIObject* prim(DLDataType dt) { return keep(trx_prim_type_new(dt)); }
static TVMFFIObject* sym(const char* name) { return keep(trx_var_new(name, strlen(name), prim(i64), false)); }
static TVMFFIObject* var(const char* name, TVMFFIObject* ty) {
  return keep(trx_var_new(name, strlen(name), ty, false));
}
static TVMFFIObject* dfvar(const char* name, TVMFFIObject* ty) {
  return keep(trx_var_new(name, strlen(name), ty, true));
}
/* TensorType over a ShapeExpr of `dims` (an Array of ints / int64 exprs). */
static TVMFFIObject* tt(TVMFFIObject* dims, DLDataType dt) {
  return keep(trx_tensor_type_new(keep(trx_shape_expr_new(dims)), dt, -1));
}
static TVMFFIObject* tt_nd(int64_t ndim, DLDataType dt) { return keep(trx_tensor_type_new(NULL, dt, ndim)); }
static TVMFFIObject* imm(DLDataType dt, int64_t v) { return keep(trx_int_imm_new(dt, v)); }
static TVMFFIObject* fimm(DLDataType dt, double v) { return keep(trx_float_imm_new(dt, v)); }
static TVMFFIObject* op(const char* name) { return trx_op_get(name, strlen(name)); }
static TVMFFIObject* call(TVMFFIObject* callee, TVMFFIObject* args) {
  return keep(trx_call_new(callee, args, NULL, NULL));
}
static TVMFFIObject* vb(TVMFFIObject* v, TVMFFIObject* value) { return keep(trx_var_binding_new(v, value)); }
static TVMFFIObject* seq(TVMFFIObject* blocks, TVMFFIObject* body) { return keep(trx_seq_expr_new(blocks, body)); }
static TVMFFIObject* block(bool dataflow, TVMFFIObject* bindings) {
  return keep(trx_binding_block_new(bindings, dataflow));
}
static TVMFFIObject* func(TVMFFIObject* params, TVMFFIObject* body, TVMFFIObject* ret_ty, bool pure,
                          TVMFFIObject* attrs_map) {
  TVMFFIObject* attrs = attrs_map ? keep(trx_dict_attrs_new(attrs_map)) : NULL;
  return keep(trx_function_new(params, body, ret_ty, pure, attrs));
}
static TVMFFIObject* module(int n, ...) {
  trx_ir_module_t* m = (trx_ir_module_t*)keep(trx_ir_module_new());
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i) {
    TVMFFIObject* gv = va_arg(ap, TVMFFIObject*);
    TVMFFIObject* f = va_arg(ap, TVMFFIObject*);
    TVMFFIAny k = O(gv), v = O(f);
    TVMFFIObjectHandle fs = m->functions, names = m->global_var_map_;
    CHECK_OK(tether_map_set(&fs, &k, &v));
    m->functions = fs;
    TVMFFIAny name = tether_any_none();
    tether_any_copy(&((trx_global_var_t*)gv)->name_hint, &name);
    CHECK_OK(tether_map_set(&names, &name, &k));
    m->global_var_map_ = names;
    tether_any_release(&name);
  }
  va_end(ap);
  return (TVMFFIObject*)m;
}
static TVMFFIObject* gvar(const char* name) { return keep(trx_global_var_new(name, strlen(name))); }

/* The result of global `name` called with the n Any views that follow. */
static TVMFFIObject* gcall(const char* name, int n, ...) {
  TVMFFIAny args[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; ++i) args[i] = va_arg(ap, TVMFFIAny);
  va_end(ap);
  TVMFFIObjectHandle f = tether_func_get(name);
  TVMFFIAny out = tether_any_none();
  CHECK(f != NULL);
  if (f == NULL) {
    drop_error();
    return NULL;
  }
  CHECK_OK(tether_func_call(f, args, n, &out));
  TVMFFIObjectDecRef(f);
  return keep(tether_any_is_object(&out) ? out.v_obj : NULL);
}

/* Scalar tensor constant of dtype `dt` holding `bits` (the raw little-endian bytes). */
static TVMFFIObject* scalar_const(DLDataType dt, const void* bits, size_t size) {
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(NULL, 0, dt, (DLDevice){kDLCPU, 0}, &t));
  if (t == NULL) return NULL;
  memcpy(tether_tensor_dl(t)->data, bits, size);
  TVMFFIObject* c = trx_tensor_const_new(t, NULL);
  TVMFFIObjectDecRef(t);
  return keep(c);
}

static TVMFFIObject* vector_const(DLDataType dt, int64_t n) {
  TVMFFIObjectHandle t = NULL;
  CHECK_OK(tether_tensor_empty(&n, 1, dt, (DLDevice){kDLCPU, 0}, &t));
  if (t == NULL) return NULL;
  TVMFFIObject* c = trx_tensor_const_new(t, NULL);
  TVMFFIObjectDecRef(t);
  return keep(c);
}

/* Checks trx_print(node, verbose, show_all) == expected. */
#define EXPECT_PRINT(node, verbose, show_all, expected) \
  expect_print(__FILE__, __LINE__, (node), (verbose), (show_all), (expected))
static void expect_print(const char* file, int line, TVMFFIObject* node, bool verbose, bool show_all,
                         const char* expected) {
  trx_print_options_t opts = {verbose, show_all, false};
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text = {"", 0};
  if (node == NULL || trx_print(node, &opts, &out) != 0 || !tether_any_get_str(&out, &text)) {
    fprintf(stderr, "%s:%d: printing failed\n", file, line);
    drop_error();
    test__checks_failed_in_current++;
  } else if (text.size != strlen(expected) || memcmp(text.data, expected, text.size) != 0) {
    fprintf(stderr, "%s:%d: printed\n----\n%.*s\n----\nexpected\n----\n%s\n----\n", file, line,
            (int)text.size, text.data, expected);
    test__checks_failed_in_current++;
  }
  tether_any_release(&out);
}
#define EXPECT(node, expected) EXPECT_PRINT(node, false, true, expected)

/* The blog's data and weight vars and conv2d(data, weight) with the Python defaults. */
static TVMFFIObject* blog_conv(TVMFFIObject** data, TVMFFIObject** weight) {
  *data = var("data", tt(arr(4, I(1), I(3), I(224), I(224)), f32));
  *weight = var("weight", tt(arr(4, I(16), I(3), I(3), I(3)), f32));
  return gcall("relax.op.nn.conv2d", 10, O(*data), O(*weight), O(arr(2, I(1), I(1))),
               O(arr(4, I(0), I(0), I(0), I(0))), O(arr(2, I(1), I(1))), I(1), S("NCHW"), S("OIHW"),
               tether_any_none(), tether_any_none());
}

/* ---- expected texts of whole functions and modules (apache-tvm 0.27) ------------------------ */
static const char k_blog_module[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(data: R.Tensor((1, 3, 224, 224), dtype=\"float32\"), weight: R.Tensor((16, 3, 3, 3), dtype=\"float32\")) -> R.Tensor((1, 16, 222, 222), dtype=\"float32\"):\n"
    "        with R.dataflow():\n"
    "            lv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)\n"
    "            lv1: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.relu(lv)\n"
    "            gv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = lv1\n"
    "            R.output(gv)\n"
    "        return gv";

static const char k_blog_func[] =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(data: R.Tensor((1, 3, 224, 224), dtype=\"float32\"), weight: R.Tensor((16, 3, 3, 3), dtype=\"float32\")) -> R.Tensor((1, 16, 222, 222), dtype=\"float32\"):\n"
    "    with R.dataflow():\n"
    "        lv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)\n"
    "        lv1: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = R.nn.relu(lv)\n"
    "        gv: R.Tensor((1, 16, 222, 222), dtype=\"float32\") = lv1\n"
    "        R.output(gv)\n"
    "    return gv";

static const char k_blog_module_noty[] =
    "# from tvm.script import ir as I\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    @R.function\n"
    "    def main(data: R.Tensor((1, 3, 224, 224), dtype=\"float32\"), weight: R.Tensor((16, 3, 3, 3), dtype=\"float32\")) -> R.Tensor((1, 16, 222, 222), dtype=\"float32\"):\n"
    "        with R.dataflow():\n"
    "            lv = R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)\n"
    "            lv1 = R.nn.relu(lv)\n"
    "            gv = lv1\n"
    "            R.output(gv)\n"
    "        return gv";

static const char k_private_impure[] =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function(pure=False, private=True)\n"
    "def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "    return x";

static const char k_gs_foo_attrs[] =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def foo(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "    R.func_attr({\"a\": \"s\", \"b\": 1, \"c\": 0.5, \"d\": True, \"e\": [1, 2]})\n"
    "    return x";

static const char k_typevar_sig[] =
    "# from typing import TypeVar\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "m = TypeVar(\"m\")\n"
    "n = TypeVar(\"n\")\n"
    "@R.function\n"
    "def main(x: R.Tensor((n, 4), dtype=\"float32\"), s: R.Shape([m, n])) -> R.Tensor((n, 4), dtype=\"float32\"):\n"
    "    return x";

static const char k_typevar_str_dim[] =
    "# from typing import TypeVar\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "n = TypeVar(\"n\")\n"
    "@R.function\n"
    "def main(x: R.Tensor((\"n * 2\", n), dtype=\"float32\")) -> R.Tensor((\"n * 2\", n), dtype=\"float32\"):\n"
    "    return x";

static const char k_prim_param[] =
    "# from tvm.script import tirx as T\n"
    "# from tvm.tirx.layout import Axis\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(p: T.int64, x: R.Tensor((p, 4), dtype=\"float32\")) -> T.int64:\n"
    "    return p";

static const char k_module_full[] =
    "# from typing import TypeVar\n"
    "# from tvm.script import ir as I\n"
    "# from tvm.script import tirx as T\n"
    "# from tvm.tirx.layout import Axis\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "k = TypeVar(\"k\")\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    zext = R.ExternFunc(\"ext_sym\")\n"
    "    @R.function\n"
    "    def helper(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "        return x\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), dtype=\"float32\"), y: R.Tensor(dtype=\"float32\", ndim=1), c: T.bool) -> R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Tuple(R.Tensor((2,), dtype=\"float32\")), R.Tensor((k,), dtype=\"float32\")):\n"
    "        R.func_attr({\"num_input\": 2})\n"
    "        cls = Module\n"
    "        m1: R.Tensor((k,), dtype=\"float32\") = R.match_cast(y, R.Tensor((k,), dtype=\"float32\"))\n"
    "        if c:\n"
    "            y1: R.Tensor((2,), dtype=\"float32\") = cls.helper(x)\n"
    "            r: R.Tensor((2,), dtype=\"float32\") = y1\n"
    "        else:\n"
    "            r: R.Tensor((2,), dtype=\"float32\") = x\n"
    "        R.tuple()\n"
    "        with R.dataflow():\n"
    "            lv: R.Tensor((2,), dtype=\"float32\") = R.add(x, r)\n"
    "            R.output()\n"
    "        with R.dataflow():\n"
    "            lv_1: R.Tensor((2,), dtype=\"float32\") = R.add(x, x)\n"
    "            g: R.Tensor((2,), dtype=\"float32\") = lv_1\n"
    "            R.output(g)\n"
    "        return (r, (g,), m1)";

static const char k_module_full_noty[] =
    "# from typing import TypeVar\n"
    "# from tvm.script import ir as I\n"
    "# from tvm.script import tirx as T\n"
    "# from tvm.tirx.layout import Axis\n"
    "# from tvm.script import relax as R\n"
    "\n"
    "k = TypeVar(\"k\")\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    zext = R.ExternFunc(\"ext_sym\")\n"
    "    @R.function\n"
    "    def helper(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "        return x\n"
    "\n"
    "    @R.function\n"
    "    def main(x: R.Tensor((2,), dtype=\"float32\"), y: R.Tensor(dtype=\"float32\", ndim=1), c: T.bool) -> R.Tuple(R.Tensor((2,), dtype=\"float32\"), R.Tuple(R.Tensor((2,), dtype=\"float32\")), R.Tensor((k,), dtype=\"float32\")):\n"
    "        R.func_attr({\"num_input\": 2})\n"
    "        cls = Module\n"
    "        m1 = R.match_cast(y, R.Tensor((k,), dtype=\"float32\"))\n"
    "        if c:\n"
    "            y1: R.Tensor((2,), dtype=\"float32\") = cls.helper(x)\n"
    "            r: R.Tensor((2,), dtype=\"float32\") = y1\n"
    "        else:\n"
    "            r: R.Tensor((2,), dtype=\"float32\") = x\n"
    "        R.tuple()\n"
    "        with R.dataflow():\n"
    "            lv = R.add(x, r)\n"
    "            R.output()\n"
    "        with R.dataflow():\n"
    "            lv_1 = R.add(x, x)\n"
    "            g = lv_1\n"
    "            R.output(g)\n"
    "        return (r, (g,), m1)";

static const char k_local_fn[] =
    "# from tvm.script import relax as R\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "    # from tvm.script import relax as R\n"
    "    \n"
    "    @R.function\n"
    "    def inner_fn(x_1: R.Tensor((2,), dtype=\"float32\")) -> R.Tensor((2,), dtype=\"float32\"):\n"
    "        return x_1\n"
    "\n"
    "    y: R.Tensor((2,), dtype=\"float32\") = inner_fn(x)\n"
    "    return y";

static const char k_empty_module[] =
    "# from tvm.script import ir as I\n"
    "\n"
    "@I.ir_module\n"
    "class Module:\n"
    "    pass";

static const char k_binding_root[] =
    "x: R.Tensor((2, 3), dtype=\"float32\")\n"
    "y: R.Tensor((2, 3), dtype=\"float32\") = R.add(x, x)";

static const char k_block_root[] =
    "x: R.Tensor((2, 3), dtype=\"float32\")\n"
    "y: R.Tensor((2, 3), dtype=\"float32\")\n"
    "with R.dataflow():\n"
    "    lv: R.Tensor((2, 3), dtype=\"float32\") = R.add(x, y)\n"
    "    R.output()";

static const char k_if_root[] =
    "cond = T.bool()\n"
    "if cond:\n"
    "    xa: R.Tensor((2,), dtype=\"float32\")\n"
    "    z1: R.Tensor((2,), dtype=\"float32\") = R.nn.relu(xa)\n"
    "    z1\n"
    "else:\n"
    "    xa: R.Tensor((2,), dtype=\"float32\")\n"
    "    xa";

static const char k_seq_root[] =
    "xa: R.Tensor((2,), dtype=\"float32\")\n"
    "z1: R.Tensor((2,), dtype=\"float32\") = R.nn.relu(xa)\n"
    "z1";


static TVMFFIObject* ty_of(TVMFFIObject* e) { return ((trx_expr_t*)e)->ty; }

static const char k_seed[] =
    "R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, "
    "data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)";

static void test_call_seed(void) {
  TVMFFIObject *data, *weight;
  TVMFFIObject* c = blog_conv(&data, &weight);
  EXPECT(c, k_seed);
  char verbose[1024];
  snprintf(verbose, sizeof(verbose),
           "data: R.Tensor((1, 3, 224, 224), dtype=\"float32\")\n"
           "weight: R.Tensor((16, 3, 3, 3), dtype=\"float32\")\n%s", k_seed);
  EXPECT_PRINT(c, true, true, verbose);
  EXPECT(call(op("relax.nn.relu"), arr(1, O(data))), "R.nn.relu(data)");
  /* the same text through ir.Print and ffi.ReprPrint (Python's repr) */
  TVMFFIAny args[3] = {O(c), tether_any_bool(true), tether_any_bool(true)};
  TVMFFIObject* f = keep(tether_func_get("ir.Print"));
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text;
  CHECK_OK(tether_func_call(f, args, 3, &out));
  CHECK(tether_any_get_str(&out, &text) && text.size == strlen(verbose) &&
        memcmp(text.data, verbose, text.size) == 0);
  tether_any_release(&out);
  CHECK_OK(tether_func_call(f, args, 1, &out));
  CHECK(tether_any_get_str(&out, &text) && text.size == strlen(k_seed));
  tether_any_release(&out);
  CHECK_OK(tether_repr(&args[0], &out));
  CHECK(tether_any_get_str(&out, &text) && text.size == strlen(k_seed) &&
        memcmp(text.data, k_seed, text.size) == 0);
  tether_any_release(&out);
  drain();
}

static void test_print_errors(void) {
  TVMFFIObject* f = keep(tether_func_get("ir.Print"));
  TVMFFIObject* a = arr(1, I(1));
  TVMFFIAny out = tether_any_none();
  TVMFFIAny args[4] = {O(a), tether_any_bool(false), tether_any_bool(true), tether_any_none()};
  CHECK_RAISED(tether_func_call(f, args, 1, &out), "TypeError",
               "ir.Print: argument `node` must be an IR node, but got ffi.Array");
  CHECK_RAISED(tether_func_call(f, args, 0, &out), "TypeError", "ir.Print");
  CHECK_RAISED(tether_func_call(f, args, 4, &out), "TypeError", "ir.Print");
  args[0] = tether_any_int(3);
  CHECK_RAISED(tether_func_call(f, args, 1, &out), "TypeError", "ir.Print");
  CHECK_RAISED(trx_print(NULL, NULL, &out), "TypeError", "got None");
  drain();
}

static void test_vars(void) {
  TVMFFIObject* data = var("data", tt(arr(4, I(1), I(3), I(224), I(224)), f32));
  EXPECT(data, "data");
  EXPECT_PRINT(data, true, true, "data: R.Tensor((1, 3, 224, 224), dtype=\"float32\")\ndata");
  TVMFFIObject* lv = dfvar("lv", tt(arr(1, I(2)), f32));
  EXPECT(lv, "lv");
  EXPECT_PRINT(lv, true, true, "lv: R.Tensor((2,), dtype=\"float32\")\nlv");
  TVMFFIObject* n = sym("n");
  EXPECT(n, "n");
  EXPECT_PRINT(n, true, true, "n = T.int64()\nn");
  EXPECT_PRINT(var("b", prim(boolean)), true, true, "b = T.bool()\nb");
  EXPECT_PRINT(var("b", prim(f32)), true, true, "b = T.float32()\nb");
  TVMFFIObject* x = var("x", tt(arr(2, O(n), I(784)), f32));
  EXPECT_PRINT(x, true, true, "n = T.int64()\nx: R.Tensor((n, 784), dtype=\"float32\")\nx");
  EXPECT_PRINT(call(op("relax.nn.relu"), arr(1, O(x))), true, true,
               "n = T.int64()\nx: R.Tensor((n, 784), dtype=\"float32\")\nR.nn.relu(x)");
  EXPECT_PRINT(var("t", keep(trx_tuple_type_new(arr(0)))), true, true, "t: R.Tuple\nt");
  /* a shape var inside a tensor type is defined first */
  TVMFFIObject* sv = var("sv", keep(trx_shape_type_new(NULL, 2)));
  EXPECT_PRINT(var("b", keep(trx_tensor_type_new(sv, f32, -1))), true, true,
               "sv: R.Shape(ndim=2)\nb: R.Tensor(sv, dtype=\"float32\")\nb");
  drain();
}

static void test_types(void) {
  TVMFFIObject* t1 = tt(arr(1, I(1)), f32);
  static const struct {
    int which;
    const char* text;
  } cases[] = {
      {0, "R.Tensor((1, 3, 224, 224), dtype=\"float32\")"},
      {1, "R.Tensor(dtype=\"float32\", ndim=4)"},
      {2, "R.Tensor(ndim=4)"},
      {3, "R.Tensor"},
      {4, "R.Tensor(dtype=\"float32\")"},
      {5, "R.Tensor((), dtype=\"bool\")"},
      {6, "R.Tensor((10,), dtype=\"int32\")"},
      {7, "R.Tensor((1, 2))"},
      {8, "R.Shape([1, 2, 3])"},
      {9, "R.Shape(ndim=3)"},
      {10, "R.Shape(ndim=-1)"},
      {11, "R.Any"},
      {12, "T.float32"},
      {13, "T.int64"},
      {14, "R.Callable((R.Tensor((1,), dtype=\"float32\"),), R.Tensor((2,), dtype=\"float32\"), True)"},
      {15, "R.Callable((), R.Any, False)"},
      {16, "R.Callable"},
      {17, "R.Callable(ret=R.Tensor((2,), dtype=\"float32\"), purity=True)"},
      {18, "R.PackedFunc"},
      /* a TupleType root prints in the TIR style */
      {19, "T.Tuple(R.Tensor((T.int64(1),), dtype=\"float32\"), R.Shape(ndim=2))"},
      {20, "None"},
      {21, "T.Tuple(R.Shape([T.int64(1), T.int64(2)]), T.int64)"},
  };
  TVMFFIObject* t2 = tt(arr(1, I(2)), f32);
  TVMFFIObject* types[] = {
      tt(arr(4, I(1), I(3), I(224), I(224)), f32),
      tt_nd(4, f32),
      tt_nd(4, unknown),
      tt_nd(-1, unknown),
      tt_nd(-1, f32),
      tt(arr(0), boolean),
      tt(arr(1, I(10)), i32),
      tt(arr(2, I(1), I(2)), unknown),
      keep(trx_shape_type_new(arr(3, I(1), I(2), I(3)), -1)),
      keep(trx_shape_type_new(NULL, 3)),
      keep(trx_shape_type_new(NULL, -1)),
      keep(trx_any_type_new()),
      prim(f32),
      prim(i64),
      keep(trx_func_type_new(arr(1, O(t1)), t2, true)),
      keep(trx_func_type_new(arr(0), keep(trx_any_type_new()), false)),
      keep(trx_func_type_new(NULL, keep(trx_any_type_new()), false)),
      keep(trx_func_type_new(NULL, t2, true)),
      keep(trx_packed_func_type_new()),
      keep(trx_tuple_type_new(arr(2, O(t1), O(keep(trx_shape_type_new(NULL, 2)))))),
      keep(trx_tuple_type_new(arr(0))),
      keep(trx_tuple_type_new(arr(2, O(keep(trx_shape_type_new(arr(2, I(1), I(2)), -1))), O(prim(i64))))),
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    EXPECT(types[cases[i].which], cases[i].text);
  }
  /* inside Relax annotations: R.Tuple, bare R.Tuple when empty, T.<dtype> */
  TVMFFIObject* tup = keep(trx_tuple_type_new(arr(3, O(t1), O(keep(trx_tuple_type_new(arr(0)))), O(prim(f32)))));
  EXPECT_PRINT(var("t", tup), true, true,
               "t: R.Tuple(R.Tensor((1,), dtype=\"float32\"), R.Tuple, T.float32)\nt");
  EXPECT_PRINT(var("f", keep(trx_func_type_new(arr(1, O(t1)), keep(trx_tuple_type_new(arr(0))), true))),
               true, true, "f: R.Callable((R.Tensor((1,), dtype=\"float32\"),), R.Tuple, True)\nf");
  drain();
}

static void test_imms(void) {
  EXPECT(imm(i64, 1), "T.int64(1)");
  EXPECT(imm(i64, -7), "T.int64(-7)");
  EXPECT(imm(i32, 5), "5");
  EXPECT(imm(boolean, 1), "T.bool(True)");
  EXPECT(imm(boolean, 0), "T.bool(False)");
  EXPECT(imm(i8, 3), "T.int8(3)");
  EXPECT(imm((DLDataType){kDLUInt, 32, 1}, 3), "T.uint32(3)");
  EXPECT(fimm(f32, 1.0), "T.float32(1.0)");
  EXPECT(fimm(f64, 0.5), "T.float64(0.5)");
  EXPECT(fimm(f32, 0.1), "T.float32(0.10000000000000001)");
  EXPECT(fimm(f64, 1e20), "T.float64(100000000000000000000.0)");
  EXPECT(fimm(f64, 1e-7), "T.float64(9.9999999999999995e-08)");
  EXPECT(fimm(f32, 1.0 / 0.0), "T.float32(\"inf\")");
  EXPECT(fimm(f32, -1.0 / 0.0), "T.float32(\"-inf\")");
  EXPECT(fimm(f32, 0.0 / 0.0), "T.float32(\"nan\")");
  EXPECT(fimm(f32, -0.0), "T.float32(-0.0)");
  EXPECT(fimm((DLDataType){kDLFloat, 16, 1}, 2.5), "T.float16(2.5)");
  /* inside a Relax call: ints print plain, bools as True/False, floats keep T. */
  TVMFFIObject* x = var("x", tt(arr(2, I(2), I(3)), f32));
  TVMFFIObject* add = op("relax.add");
  EXPECT(call(add, arr(2, O(x), O(imm(i64, 1)))), "R.add(x, 1)");
  EXPECT(call(add, arr(2, O(x), O(imm(i32, 1)))), "R.add(x, 1)");
  EXPECT(call(add, arr(2, O(x), O(imm(i8, 1)))), "R.add(x, 1)");
  EXPECT(call(add, arr(2, O(x), O(imm(u8, 3)))), "R.add(x, 3)");
  EXPECT(call(add, arr(2, O(x), O(imm(boolean, 1)))), "R.add(x, True)");
  EXPECT(call(add, arr(2, O(x), O(fimm(f32, 1.0)))), "R.add(x, T.float32(1.0))");
  EXPECT(call(add, arr(2, O(x), O(fimm(f64, 2.0)))), "R.add(x, T.float64(2.0))");
  EXPECT(call(add, arr(2, O(x), O(fimm(f32, 1e-5)))), "R.add(x, T.float32(1.0000000000000001e-05))");
  EXPECT(call(add, arr(2, O(x), O(fimm(f32, -3.0)))), "R.add(x, T.float32(-3.0))");
  /* strings: escaped, double-quoted; R.str in Relax, bare at the root */
  static const struct {
    const char* s;
    size_t n;
    const char* text;
  } strs[] = {
      {"hi", 2, "R.add(x, R.str(\"hi\"))"},
      {"a\"b", 3, "R.add(x, R.str(\"a\\\"b\"))"},
      {"a\\b", 3, "R.add(x, R.str(\"a\\\\b\"))"},
      {"a\nb", 3, "R.add(x, R.str(\"a\\nb\"))"},
      {"tab\there", 8, "R.add(x, R.str(\"tab\\there\"))"},
      {"\r", 1, "R.add(x, R.str(\"\\r\"))"},
      {"\x01", 1, "R.add(x, R.str(\"\\x01\"))"},
      {"\x7f", 1, "R.add(x, R.str(\"\\x7F\"))"},
      {"\0a", 2, "R.add(x, R.str(\"\\x00a\"))"},
      {"\v\f\b\a", 4, "R.add(x, R.str(\"\\x0B\\x0C\\x08\\x07\"))"},
      {"\xc3\xa9", 2, "R.add(x, R.str(\"\\xC3\\xA9\"))"},
      {"it's", 4, "R.add(x, R.str(\"it's\"))"},
      {"", 0, "R.add(x, R.str(\"\"))"},
  };
  for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); ++i) {
    EXPECT(call(add, arr(2, O(x), O(keep(trx_string_imm_new(strs[i].s, strs[i].n))))), strs[i].text);
  }
  EXPECT(keep(trx_string_imm_new("hi", 2)), "\"hi\"");
  EXPECT(keep(trx_string_imm_new("a\"b", 3)), "\"a\\\"b\"");
  EXPECT(keep(trx_string_imm_new("\xc3\xa9", 2)), "\"\\xC3\\xA9\"");
  EXPECT(keep(trx_string_imm_new("a\nb", 3)),
         "metadata[\"ir.StringImm\"][0]\n"
         "# Metadata omitted. Use show_meta=True in script() method to show it.");
  /* DataTypeImm does not exist in apache-tvm 0.27; the form is the spec's (classic TVM). */
  EXPECT(keep(trx_datatype_imm_new(f32)), "R.dtype(\"float32\")");
  drain();
}

static void test_consts(void) {
  float one = 1.0f, half = 0.5f, tenth = 0.1f, small = 1e-5f, big = 1e20f, neg = -2.0f;
  float inf = 1.0f / 0.0f, nan = 0.0f / 0.0f;
  double one64 = 1.0, tenth64 = 0.1;
  int64_t three = 3;
  int32_t three32 = 3;
  int8_t three8 = 3;
  uint8_t yes = 1, three_u = 3;
  uint16_t h15 = 0x3E00; /* 1.5 in IEEE half */
  EXPECT(scalar_const(f32, &one, 4), "R.const(1.0, \"float32\")");
  EXPECT(scalar_const(f32, &half, 4), "R.const(0.5, \"float32\")");
  EXPECT(scalar_const(f32, &tenth, 4), "R.const(0.10000000149011612, \"float32\")");
  EXPECT(scalar_const(f32, &small, 4), "R.const(9.9999997473787516e-06, \"float32\")");
  EXPECT(scalar_const(f32, &big, 4), "R.const(100000002004087734272.0, \"float32\")");
  EXPECT(scalar_const(f32, &neg, 4), "R.const(-2.0, \"float32\")");
  EXPECT(scalar_const(f32, &inf, 4), "R.const(\"inf\", \"float32\")");
  EXPECT(scalar_const(f32, &nan, 4), "R.const(\"nan\", \"float32\")");
  EXPECT(scalar_const(f64, &one64, 8), "R.const(1.0, \"float64\")");
  EXPECT(scalar_const(f64, &tenth64, 8), "R.const(0.10000000000000001, \"float64\")");
  EXPECT(scalar_const((DLDataType){kDLFloat, 16, 1}, &h15, 2), "R.const(1.5, \"float16\")");
  EXPECT(scalar_const(i64, &three, 8), "R.const(3, \"int64\")");
  EXPECT(scalar_const(i32, &three32, 4), "R.const(3, \"int32\")");
  EXPECT(scalar_const(i8, &three8, 1), "R.const(3, \"int8\")");
  EXPECT(scalar_const(boolean, &yes, 1), "R.const(True, \"bool\")");
  EXPECT(scalar_const(u8, &three_u, 1),
         "metadata[\"ir.GenericConst\"][0]\n"
         "# Metadata omitted. Use show_meta=True in script() method to show it.");
  EXPECT(vector_const(f32, 2),
         "metadata[\"ir.GenericConst\"][0]\n"
         "# Metadata omitted. Use show_meta=True in script() method to show it.");
  /* each constant gets its own index; the same object keeps its index */
  TVMFFIObject* a = vector_const(f32, 2);
  TVMFFIObject* b = vector_const(f32, 2);
  EXPECT(call(op("relax.add"), arr(2, O(a), O(b))),
         "R.add(metadata[\"ir.GenericConst\"][0], metadata[\"ir.GenericConst\"][1])\n"
         "# Metadata omitted. Use show_meta=True in script() method to show it.");
  EXPECT(call(op("relax.add"), arr(2, O(a), O(a))),
         "R.add(metadata[\"ir.GenericConst\"][0], metadata[\"ir.GenericConst\"][0])\n"
         "# Metadata omitted. Use show_meta=True in script() method to show it.");
  drain();
}

/* The escaping of TVM's metadata header: printable ASCII as it is but '"' and '\\', tab / CR /
 * LF as they are, any other byte as \xHH (malloc'd, NUL-terminated). */
static char* meta_escape(const char* s, size_t n) {
  char* out = malloc(4 * n + 1);
  size_t k = 0;
  for (size_t i = 0; out != NULL && i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      out[k++] = '\\';
      out[k++] = (char)c;
    } else if ((c >= ' ' && c <= '~') || c == '\t' || c == '\r' || c == '\n') {
      out[k++] = (char)c;
    } else {
      k += (size_t)snprintf(out + k, 5, "\\x%02X", c);
    }
  }
  if (out != NULL) out[k] = '\0';
  return out;
}

/* trx_print with show_meta into a malloc'd string (NULL when it fails; the error stays raised). */
static char* print_meta(TVMFFIObject* node) {
  trx_print_options_t opts = {false, true, true};
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text;
  if (trx_print(node, &opts, &out) != 0 || !tether_any_get_str(&out, &text)) return NULL;
  char* r = malloc(text.size + 1);
  if (r != NULL) {
    memcpy(r, text.data, text.size);
    r[text.size] = '\0';
  }
  tether_any_release(&out);
  return r;
}

static void test_show_meta(void) {
  TVMFFIObject* a = vector_const(f32, 2);
  TVMFFIObject* b = vector_const(i8, 3);
  TVMFFIObject* c = call(op("relax.add"), arr(2, O(a), O(b)));
  TVMFFIObject* c2 = call(op("relax.add"), arr(2, O(c), O(a)));
  /* the header: the JSON graph of {"ir.GenericConst": [a, b]} with TVM's metadata, indented
   * by 2, escaped; then the text as without show_meta, less the trailing comment */
  TVMFFIAny kv[2] = {tether_any_raw_str("ir.GenericConst"), O(arr(2, O(a), O(b)))};
  TVMFFIObjectHandle map = NULL;
  CHECK_OK(tether_map_new(kv, 1, &map));
  TVMFFIAny root = O(map), json = tether_any_none();
  TVMFFIByteArray doc = {"", 0};
  CHECK_OK(trx_save_json(&root, 2, &json));
  CHECK(tether_any_get_str(&json, &doc));
  CHECK(strstr(doc.data, "\n  \"metadata\": {\n    \"tvm_version\": \"" TRX_TVM_JSON_VERSION "\"\n  }\n}") != NULL);
  char* escaped = meta_escape(doc.data, doc.size);
  char* expected = malloc(strlen(escaped) + 256);
  sprintf(expected, "metadata = tvm.ir.load_json(\"\"\"%s\"\"\")\n"
          "R.add(R.add(metadata[\"ir.GenericConst\"][0], metadata[\"ir.GenericConst\"][1]), "
          "metadata[\"ir.GenericConst\"][0])", escaped);
  char* got = print_meta(c2);
  CHECK(got != NULL && strcmp(got, expected) == 0);
  if (got != NULL && strcmp(got, expected) != 0) fprintf(stderr, "got\n%s\nexpected\n%s\n", got, expected);
  free(got);
  free(escaped);
  free(expected);
  tether_any_release(&json);
  TVMFFIObjectDecRef(map);

  /* no metadata: show_meta changes nothing */
  TVMFFIObject* x = var("x", tt(arr(1, I(2)), f32));
  got = print_meta(call(op("relax.add"), arr(2, O(x), O(x))));
  CHECK(got != NULL && strcmp(got, "R.add(x, x)") == 0);
  free(got);

  /* every kind of byte in a string node, escaped as TVM does */
  static const char text[] = "q\"\\\n\x01\xc3\xa9";
  got = print_meta(keep(trx_string_imm_new(text, sizeof(text) - 1)));
  CHECK(got != NULL && strstr(got, "      \\\"data\\\": \\\"q\\\\\\\"\\\\\\\\\\\\n\\\\u0001\\xC3\\xA9\\\"\n") != NULL);
  CHECK(got != NULL && strstr(got, "\"\"\")\nmetadata[\"ir.StringImm\"][0]") != NULL);
  free(got);

  /* a constant whose tensor has no JSON form (not on the CPU): the writer's error */
  static float data[2];
  static int64_t shape[1] = {2};
  DLManagedTensor mt = {{data, {kDLCUDA, 0}, 1, {kDLFloat, 32, 1}, shape, NULL, 0}, NULL, NULL};
  TVMFFIObjectHandle gpu = NULL;
  CHECK_OK(TVMFFITensorFromDLPack(&mt, 0, 0, &gpu));
  TVMFFIObject* gc = keep(trx_tensor_const_new(gpu, NULL));
  TVMFFIObjectDecRef(gpu);
  trx_print_options_t opts = {false, true, true};
  TVMFFIAny out = tether_any_none();
  CHECK_RAISED(trx_print(gc, &opts, &out), "ValueError", "only CPU tensors");
  EXPECT(gc, "metadata[\"ir.GenericConst\"][0]\n"
             "# Metadata omitted. Use show_meta=True in script() method to show it.");

  /* ir.SaveJSON is the compact form; bad arguments */
  TVMFFIObjectHandle save = tether_func_get("ir.SaveJSON");
  TVMFFIAny arg = O(a), via_global = tether_any_none(), direct = tether_any_none();
  TVMFFIByteArray g = {"", 0}, d = {"", 1};
  CHECK(save != NULL);
  CHECK_OK(tether_func_call(save, &arg, 1, &via_global));
  CHECK_OK(trx_save_json(&arg, 0, &direct));
  CHECK(tether_any_get_str(&via_global, &g) && tether_any_get_str(&direct, &d));
  CHECK(g.size == d.size && memcmp(g.data, d.data, g.size) == 0);
  CHECK(g.size > 0 && strstr(g.data, ",\"metadata\":{\"tvm_version\":\"" TRX_TVM_JSON_VERSION "\"}}") != NULL);
  tether_any_release(&via_global);
  tether_any_release(&direct);
  TVMFFIObjectDecRef(save);
  CHECK_RAISED(trx_save_json(NULL, 0, &out), "ValueError", "ir.SaveJSON");
  drain();
}

static void test_shapes_tuples(void) {
  TVMFFIObject* x = var("x", tt(arr(2, I(2), I(3)), f32));
  EXPECT(keep(trx_shape_expr_new(arr(3, I(1), I(2), I(3)))), "R.shape([1, 2, 3])");
  EXPECT(keep(trx_shape_expr_new(arr(0))), "R.shape([])");
  EXPECT(keep(trx_tuple_new(arr(2, O(x), O(x)))), "(x, x)");
  EXPECT(keep(trx_tuple_new(arr(1, O(x)))), "(x,)");
  EXPECT(keep(trx_tuple_new(arr(0))), "R.tuple()");
  EXPECT(keep(trx_tuple_new(arr(2, O(imm(i64, 1)), O(x)))), "(1, x)");
  EXPECT(keep(trx_tuple_new(arr(1, O(fimm(f32, 1.0))))), "(T.float32(1.0),)");
  EXPECT(keep(trx_tuple_get_item_new(keep(trx_tuple_new(arr(2, O(x), O(x)))), 0)), "(x, x)[0]");
  TVMFFIObject* t = var("t", keep(trx_tuple_type_new(arr(2, O(ty_of(x)), O(ty_of(x))))));
  EXPECT(keep(trx_tuple_get_item_new(t, 1)), "t[1]");
  TVMFFIObject* tgi = keep(trx_tuple_get_item_new(
      keep(trx_tuple_new(arr(2, O(x), O(keep(trx_shape_expr_new(arr(1, I(1)))))))), 1));
  EXPECT(call(op("relax.nn.relu"), arr(2, O(tgi), O(x))), "R.nn.relu((x, R.shape([1]))[1], x)");
  drain();
}

static void test_prim_exprs(void) {
  TVMFFIObject* n = sym("n");
  TVMFFIObject* m = sym("m");
#define B(kind, a, b) keep(trx_binop_new(TRX_##kind, (a), (b)))
  TVMFFIObject* one = imm(i64, 1);
  TVMFFIObject* two = imm(i64, 2);
  TVMFFIObject* e = B(PRIM_ADD, B(PRIM_MUL, n, two), one);
  EXPECT(e, "n * T.int64(2) + T.int64(1)");
  EXPECT_PRINT(e, true, true, "n = T.int64()\nn * T.int64(2) + T.int64(1)");
  TVMFFIObject* dims = arr(9, O(B(PRIM_MUL, B(PRIM_ADD, n, one), two)), O(B(PRIM_SUB, n, B(PRIM_SUB, m, one))),
                           O(B(PRIM_MUL, n, B(PRIM_MUL, m, two))), O(B(PRIM_MUL, B(PRIM_FLOORDIV, n, two), imm(i64, 3))),
                           O(B(PRIM_ADD, B(PRIM_SUB, n, m), one)),
                           O(B(PRIM_FLOORDIV, B(PRIM_ADD, n, m), B(PRIM_ADD, m, one))),
                           O(B(PRIM_FLOORMOD, n, B(PRIM_MUL, m, two))), O(B(PRIM_MUL, B(PRIM_MIN, B(PRIM_ADD, n, one), m), two)),
                           O(n));
  EXPECT(keep(trx_shape_expr_new(dims)),
         "R.shape([(n + 1) * 2, n - (m - 1), n * (m * 2), n // 2 * 3, n - m + 1, (n + m) // (m + 1), n % (m * 2), "
         "T.min(n + 1, m) * 2, n])");
  EXPECT(keep(trx_shape_expr_new(arr(2, O(B(PRIM_MAX, n, imm(i64, 5))), O(B(PRIM_SUB, n, one))))),
         "R.shape([T.max(n, 5), n - 1])");
  EXPECT(tt(arr(2, O(B(PRIM_ADD, B(PRIM_MUL, n, two), one)), I(784)), f32),
         "R.Tensor((n * 2 + 1, 784), dtype=\"float32\")");
  EXPECT_PRINT(keep(trx_shape_expr_new(arr(2, I(5), O(n)))), true, true, "n = T.int64()\nR.shape([5, n])");
  TVMFFIObject* x = var("x", tt(arr(2, I(2), I(3)), f32));
  EXPECT(call(op("relax.add"), arr(2, O(x), O(B(PRIM_ADD, n, one)))), "R.add(x, n + 1)");
  EXPECT_PRINT(call(op("relax.add"), arr(2, O(x), O(n))), true, true,
               "x: R.Tensor((2, 3), dtype=\"float32\")\nn = T.int64()\nR.add(x, n)");
#undef B
  drain();
}

static void test_names(void) {
  TVMFFIObject* ty = tt(arr(1, I(2)), f32);
  TVMFFIObject* add = op("relax.add");
  TVMFFIObject* a = var("x", ty);
  TVMFFIObject* b = var("x", ty);
  EXPECT(call(add, arr(2, O(a), O(b))), "R.add(x, x_1)");
  EXPECT_PRINT(call(add, arr(2, O(a), O(b))), true, true,
               "x: R.Tensor((2,), dtype=\"float32\")\nx_1: R.Tensor((2,), dtype=\"float32\")\nR.add(x, x_1)");
  static const struct {
    const char* name;
    const char* text;
  } cases[] = {
      {"R", "R.add(R_1, R_2)"},        {"T", "R.add(T_1, T_2)"},
      {"I", "R.add(I_1, I_2)"},        {"cls", "R.add(cls_1, cls_2)"},
      {"a.b", "R.add(a_b, a_b_1)"},    {"1abc", "R.add(1abc, 1abc_1)"},
      {"", "R.add(v, v_1)"},           {"x-y", "R.add(x_y, x_y_1)"},
      {"\xc3\xa9", "R.add(__, ___1)"}, {"None", "R.add(None, None_1)"},
      {"x_1", "R.add(x_1, x_1_1)"},    {"metadata", "R.add(metadata, metadata_1)"},
      {"_", "R.add(_, __1)"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    EXPECT(call(add, arr(2, O(var(cases[i].name, ty)), O(var(cases[i].name, ty)))), cases[i].text);
  }
  TVMFFIObject* c = var("x_1", ty);
  TVMFFIObject* concat = op("relax.concat");
  EXPECT(call(concat, arr(1, O(keep(trx_tuple_new(arr(3, O(a), O(b), O(c))))))), "R.concat((x, x_1, x_1_1))");
  EXPECT(call(concat, arr(1, O(keep(trx_tuple_new(arr(3, O(c), O(a), O(b))))))), "R.concat((x_1, x, x_2))");
  drain();
}

static void test_callees_and_attrs(void) {
  TVMFFIObject* x = var("x", tt(arr(1, I(2)), f32));
  TVMFFIObject* gv = gvar("foo");
  EXPECT(gv, "I.GlobalVar(\"foo\")");
  EXPECT(call(gv, arr(1, O(x))), "foo(x)");
  EXPECT(call(x, arr(1, O(x))), "x(x)");
  TVMFFIObject* ext = keep(trx_extern_func_new("my_ext", 6, NULL));
  EXPECT(ext, "R.ExternFunc(\"my_ext\")");
  EXPECT(call(ext, arr(1, O(x))), "R.call_packed(\"my_ext\", x)");
  /* DictAttrs kwargs are sorted; ty_args follow the attrs */
  TVMFFIObject* dattrs = keep(trx_dict_attrs_new(dict(3, "b", I(1), "a", S("s"), "c",
                                                      O(arr(2, tether_any_float(1.5), tether_any_float(2.0))))));
  EXPECT(keep(trx_call_new(op("relax.add"), arr(2, O(x), O(x)), dattrs, NULL)),
         "R.add(x, x, a=\"s\", b=1, c=[1.5, 2.0])");
  EXPECT(keep(trx_call_new(op("relax.add"), arr(2, O(x), O(x)), NULL,
                           arr(2, O(tt(arr(1, I(2)), f32)), O(keep(trx_any_type_new()))))),
         "R.add(x, x, ty_args=(R.Tensor((2,), dtype=\"float32\"), R.Any))");
  EXPECT(keep(trx_dict_attrs_new(dict(1, "a", I(1)))), "{\"a\": 1}");
  /* op attrs: reflected fields in declaration order */
  TVMFFIObject *data, *weight;
  TVMFFIObject* conv = blog_conv(&data, &weight);
  EXPECT(((trx_call_t*)conv)->attrs,
         "relax.attrs.Conv2DAttrs(strides=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1, "
         "data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None)");
  TVMFFIObject* c16 = gcall("relax.op.nn.conv2d", 10, O(data), O(weight), O(arr(2, I(1), I(1))),
                            O(arr(4, I(0), I(0), I(0), I(0))), O(arr(2, I(1), I(1))), I(1), S("NCHW"),
                            S("OIHW"), tether_any_none(), tether_any_dtype((DLDataType){kDLFloat, 16, 1}));
  EXPECT(c16,
         "R.nn.conv2d(data, weight, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, "
         "data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=\"float16\")");
  TVMFFIObject* y = var("x", tt(arr(2, I(2), I(3)), f32));
  TVMFFIObject* bn = gcall("relax.op.nn.batch_norm", 11, O(y), O(y), O(y), O(y), O(y), I(1), tether_any_float(1e-5),
                           tether_any_bool(true), tether_any_bool(true), tether_any_float(0.1), tether_any_bool(true));
  static const char bn_text[] =
      "R.nn.batch_norm(x, x, x, x, x, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, "
      "momentum=0.10000000000000001, training=True)";
  EXPECT(bn, bn_text);
  char tgi[512];
  snprintf(tgi, sizeof(tgi), "%s[0]", bn_text);
  EXPECT(keep(trx_tuple_get_item_new(bn, 0)), tgi);
  EXPECT(gcall("relax.op.nn.softmax", 2, O(y), I(-1)), "R.nn.softmax(x, axis=-1)");
  EXPECT(gcall("relax.op.matmul", 3, O(y), O(y), tether_any_none()), "R.matmul(x, x, out_dtype=None)");
  EXPECT(gcall("relax.op.permute_dims", 2, O(y), tether_any_none()), "R.permute_dims(x, axes=None)");
  EXPECT(gcall("relax.op.nn.avg_pool2d", 9, O(y), O(arr(2, I(1), I(1))), O(arr(2, I(1), I(1))),
               O(arr(2, I(0), I(0))), O(arr(2, I(1), I(1))), tether_any_bool(false), tether_any_bool(false),
               S("NCHW"), tether_any_none()),
         "R.nn.avg_pool2d(x, pool_size=[1, 1], strides=[1, 1], dilation=[1, 1], padding=[0, 0, 0, 0], "
         "ceil_mode=False, count_include_pad=False, layout=\"NCHW\", out_layout=\"NCHW\")");
  drain();
}


/* The module of spec section 3 (BlockBuilder example), built by hand. */
static TVMFFIObject* blog_main(void) {
  TVMFFIObject *data, *weight;
  TVMFFIObject* conv = blog_conv(&data, &weight);
  TVMFFIObject* o = tt(arr(4, I(1), I(16), I(222), I(222)), f32);
  TVMFFIObject* lv = dfvar("lv", o);
  TVMFFIObject* lv1 = dfvar("lv1", o);
  TVMFFIObject* gv = var("gv", o);
  TVMFFIObject* blk = block(true, arr(3, O(vb(lv, conv)), O(vb(lv1, call(op("relax.nn.relu"), arr(1, O(lv))))),
                                      O(vb(gv, lv1))));
  return func(arr(2, O(data), O(weight)), seq(arr(1, O(blk)), gv), o, true, dict(1, "global_symbol", S("main")));
}

static void test_blog_module(void) {
  TVMFFIObject* main_fn = blog_main();
  TVMFFIObject* mod = module(1, gvar("main"), main_fn);
  EXPECT(mod, k_blog_module);
  EXPECT(main_fn, k_blog_func);
  EXPECT_PRINT(mod, false, false, k_blog_module_noty);
  /* ffi.ReprPrint of the module is the same text */
  TVMFFIAny v = O(mod), out = tether_any_none();
  TVMFFIByteArray text;
  CHECK_OK(tether_repr(&v, &out));
  CHECK(tether_any_get_str(&out, &text) && text.size == strlen(k_blog_module) &&
        memcmp(text.data, k_blog_module, text.size) == 0);
  tether_any_release(&out);
  EXPECT(keep(trx_ir_module_new()), k_empty_module);
  drain();
}

static void test_function_forms(void) {
  TVMFFIObject* t2 = tt(arr(1, I(2)), f32);
  TVMFFIObject* x = var("x", t2);
  EXPECT(func(arr(1, O(x)), seq(arr(0), x), t2, false, NULL), k_private_impure);
  EXPECT(func(arr(1, O(x)), seq(arr(0), x), t2, true,
              dict(6, "global_symbol", S("foo"), "b", I(1), "a", S("s"), "c", tether_any_float(0.5), "d",
                   tether_any_bool(true), "e", O(arr(2, I(1), I(2))))),
         k_gs_foo_attrs);
  TVMFFIObject* n = sym("n");
  TVMFFIObject* m = sym("m");
  TVMFFIObject* xs = var("x", tt(arr(2, O(n), I(4)), f32));
  TVMFFIObject* ss = var("s", keep(trx_shape_type_new(arr(2, O(m), O(n)), -1)));
  EXPECT(func(arr(2, O(xs), O(ss)), seq(arr(0), xs), ty_of(xs), true, dict(1, "global_symbol", S("main"))),
         k_typevar_sig);
  TVMFFIObject* x2 = var("x", tt(arr(2, O(keep(trx_binop_new(TRX_PRIM_MUL, n, imm(i64, 2)))), O(n)), f32));
  EXPECT(func(arr(1, O(x2)), seq(arr(0), x2), ty_of(x2), true, dict(1, "global_symbol", S("main"))),
         k_typevar_str_dim);
  TVMFFIObject* p = sym("p");
  TVMFFIObject* xp = var("x", tt(arr(2, O(p), I(4)), f32));
  EXPECT(func(arr(2, O(p), O(xp)), seq(arr(0), p), prim(i64), true, dict(1, "global_symbol", S("main"))),
         k_prim_param);
  /* a local function: its own header, named after its var; x is taken -> x_1 */
  TVMFFIObject* lx = var("x", t2);
  TVMFFIObject* inner = func(arr(1, O(lx)), seq(arr(0), lx), t2, true, NULL);
  TVMFFIObject* fv = var("inner_fn", ty_of(inner));
  TVMFFIObject* ly = var("y", t2);
  TVMFFIObject* ox = var("x", t2);
  TVMFFIObject* outer = func(arr(1, O(ox)),
                             seq(arr(1, O(block(false, arr(2, O(vb(fv, inner)), O(vb(ly, call(fv, arr(1, O(ox))))))))), ly),
                             t2, true, dict(1, "global_symbol", S("main")));
  EXPECT(outer, k_local_fn);
  drain();
}

static void test_module_full(void) {
  TVMFFIObject* t2 = tt(arr(1, I(2)), f32);
  TVMFFIObject* h = var("x", t2);
  TVMFFIObject* helper = func(arr(1, O(h)), seq(arr(0), h), t2, true, dict(1, "global_symbol", S("helper")));
  TVMFFIObject* hgv = gvar("helper");
  TVMFFIObject* mx = var("x", t2);
  TVMFFIObject* my = var("y", tt_nd(1, f32));
  TVMFFIObject* mc = var("c", prim(boolean));
  TVMFFIObject* k = sym("k");
  TVMFFIObject* tk = tt(arr(1, O(k)), f32);
  TVMFFIObject* m1 = var("m1", tk);
  TVMFFIObject* r = var("r", t2);
  TVMFFIObject* y1 = var("y1", t2);
  TVMFFIObject* tb = seq(arr(1, O(block(false, arr(1, O(vb(y1, call(hgv, arr(1, O(mx))))))))), y1);
  TVMFFIObject* iff = keep(trx_if_new(mc, tb, seq(arr(0), mx)));
  TVMFFIObject* e = var("e", keep(trx_tuple_type_new(arr(0))));
  TVMFFIObject* d1 = dfvar("lv", t2);
  TVMFFIObject* d2 = dfvar("lv", t2);
  TVMFFIObject* g2 = var("g", t2);
  TVMFFIObject* add = op("relax.add");
  TVMFFIObject* b1 = block(false, arr(3, O(keep(trx_match_cast_new(m1, my, tk))), O(vb(r, iff)),
                                      O(vb(e, keep(trx_tuple_new(arr(0)))))));
  TVMFFIObject* b2 = block(true, arr(1, O(vb(d1, call(add, arr(2, O(mx), O(r)))))));
  TVMFFIObject* b3 = block(true, arr(2, O(vb(d2, call(add, arr(2, O(mx), O(mx))))), O(vb(g2, d2))));
  TVMFFIObject* ret = keep(trx_tuple_new(arr(3, O(r), O(keep(trx_tuple_new(arr(1, O(g2))))), O(m1))));
  TVMFFIObject* fmain = func(arr(3, O(mx), O(my), O(mc)), seq(arr(3, O(b1), O(b2), O(b3)), ret), ty_of(ret), true,
                             dict(2, "global_symbol", S("main"), "num_input", I(2)));
  TVMFFIObject* ext = keep(trx_extern_func_new("ext_sym", 7, NULL));
  TVMFFIObject* mod = module(3, hgv, helper, gvar("main"), fmain, gvar("zext"), ext);
  EXPECT(mod, k_module_full);
  EXPECT_PRINT(mod, false, false, k_module_full_noty);
  drain();
}

static void test_roots(void) {
  TVMFFIObject* t23 = tt(arr(2, I(2), I(3)), f32);
  TVMFFIObject* bx = var("x", t23);
  TVMFFIObject* by = var("y", t23);
  TVMFFIObject* add = op("relax.add");
  EXPECT(vb(by, call(add, arr(2, O(bx), O(bx)))), k_binding_root);
  EXPECT(block(true, arr(1, O(vb(dfvar("lv", t23), call(add, arr(2, O(bx), O(by))))))), k_block_root);
  TVMFFIObject* t2 = tt(arr(1, I(2)), f32);
  TVMFFIObject* cond = var("cond", prim(boolean));
  TVMFFIObject* xa = var("xa", t2);
  TVMFFIObject* z1 = var("z1", t2);
  TVMFFIObject* s1 = seq(arr(1, O(block(false, arr(1, O(vb(z1, call(op("relax.nn.relu"), arr(1, O(xa))))))))), z1);
  EXPECT(keep(trx_if_new(cond, s1, seq(arr(0), xa))), k_if_root);
  EXPECT(s1, k_seq_root);
  drain();
}

TEST_MAIN(TEST_CASE(test_call_seed), TEST_CASE(test_print_errors), TEST_CASE(test_vars), TEST_CASE(test_types),
          TEST_CASE(test_imms), TEST_CASE(test_consts), TEST_CASE(test_show_meta),
          TEST_CASE(test_shapes_tuples), TEST_CASE(test_prim_exprs),
          TEST_CASE(test_names), TEST_CASE(test_callees_and_attrs), TEST_CASE(test_blog_module),
          TEST_CASE(test_function_forms), TEST_CASE(test_module_full), TEST_CASE(test_roots))
