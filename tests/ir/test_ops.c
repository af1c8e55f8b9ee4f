/*
 * test_ops.c -- the op registry (trx_op_get, "ir.Op.get"), the attrs types (keys and field
 * order as apache-tvm 0.27 reflects them), and what the constructor globals store in the
 * Call they build (normalized attrs, ty unset, argument type errors).  Inference of every
 * op is covered table-driven in test_op_infer.c.
 */
#include <tether/container.h>
#include <stddef.h>

#include <tether/ir/ir.h>
#include <tether/ir/op.h>
#include <tether/reflection.h>

#include "test.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static TVMFFIObject* tensor_var(const char* name, const int64_t* dims, int n, const char* dtype) {
  TVMFFIAny items[8] = {{0}};
  for (int i = 0; i < n; ++i) items[i] = tether_any_object(trx_int64(dims[i]));
  TVMFFIObjectHandle arr = NULL;
  tether_array_new(items, n, &arr);
  for (int i = 0; i < n; ++i) TVMFFIObjectDecRef(items[i].v_obj);
  TVMFFIObject* shape = trx_shape_expr_new((TVMFFIObject*)arr);
  TVMFFIObjectDecRef(arr);
  TVMFFIByteArray s = {dtype, strlen(dtype)};
  DLDataType dt;
  TVMFFIDataTypeFromString(&s, &dt);
  TVMFFIObject* ty = trx_tensor_type_new(shape, dt, -1);
  TVMFFIObjectDecRef(shape);
  TVMFFIObject* v = trx_var_new(name, strlen(name), ty, false);
  TVMFFIObjectDecRef(ty);
  return v;
}

static TVMFFIAny int_array(const int64_t* v, int n) {
  TVMFFIAny items[8] = {{0}};
  for (int i = 0; i < n; ++i) items[i] = tether_any_int(v[i]);
  TVMFFIObjectHandle arr = NULL;
  tether_array_new(items, n, &arr);
  return tether_any_object(arr); /* owning */
}


/* Field `name` of obj as an owning Any. */
static TVMFFIAny field(TVMFFIObject* obj, const char* name) {
  TVMFFIAny v = tether_any_none();
  const TVMFFIFieldInfo* fi = tether_type_find_field(obj->type_index, name, strlen(name));
  if (fi == NULL) {
    fprintf(stderr, "no field %s on %s\n", name, tether_type_key(obj->type_index));
    return v;
  }
  tether_field_get(obj, fi, &v);
  return v;
}

/* "(1, 2)" text of an int Array (elements may be IntImms). */
static void arr_text(TVMFFIObject* arr, char* buf, size_t n) {
  size_t len = 0;
  int64_t sz = tether_array_size(arr);
  len += (size_t)snprintf(buf + len, n - len, "(");
  for (int64_t i = 0; i < sz; ++i) {
    const TVMFFIAny* e = tether_array_at(arr, i);
    int64_t v = e->type_index == kTVMFFIInt ? e->v_int64 : ((trx_int_imm_t*)e->v_obj)->value;
    len += (size_t)snprintf(buf + len, n - len, "%s%lld", i ? ", " : "", (long long)v);
  }
  snprintf(buf + len, n - len, ")");
}

static void check_arr_field(TVMFFIObject* obj, const char* name, const char* want) {
  TVMFFIAny v = field(obj, name);
  char buf[128] = "";
  if (v.type_index == kTVMFFIArray) arr_text(v.v_obj, buf, sizeof(buf));
  else snprintf(buf, sizeof(buf), "<%s>", tether_any_type_key(&v));
  CHECK_EQ_STR(buf, want);
  tether_any_release(&v);
}

static void check_str_field(TVMFFIObject* obj, const char* name, const char* want) {
  TVMFFIAny v = field(obj, name);
  TVMFFIByteArray s = {"<not a str>", 11};
  tether_any_get_str(&v, &s);
  CHECK_BYTES(s, want);
  tether_any_release(&v);
}

/* ---- the registry ----------------------------------------------------------------------------- */

static void test_op_get(void) {
  TVMFFIObject* op = trx_op_get("relax.nn.conv2d", 15);
  CHECK(op != NULL);
  CHECK(trx_is(op, TRX_OP));
  CHECK(trx_op_get("relax.nn.conv2d", 15) == op); /* created once, kept */
  trx_op_t* o = (trx_op_t*)op;
  TVMFFIByteArray s;
  CHECK(tether_any_get_str(&o->name, &s));
  CHECK_BYTES(s, "relax.nn.conv2d");
  CHECK(tether_any_get_str(&o->attrs_type_key, &s));
  CHECK_BYTES(s, "relax.attrs.Conv2DAttrs");
  CHECK_EQ_INT(o->num_inputs, 2);
  /* reflected like any node */
  check_str_field(op, "name", "relax.nn.conv2d");
  TVMFFIObject* bn = trx_op_get("relax.nn.batch_norm", 19);
  CHECK(bn != NULL && ((trx_op_t*)bn)->num_inputs == 5);
  /* mean/sum/max carry StatisticalAttrs on the Call but declare no attrs type (as TVM) */
  TVMFFIObject* mean = trx_op_get("relax.mean", 10);
  CHECK(mean != NULL && tether_any_get_str(&((trx_op_t*)mean)->attrs_type_key, &s) && s.size == 0);
  /* a prefix or an unknown name is not an op */
  CHECK(trx_op_get("relax.nn.conv", 13) == NULL);
  CHECK_RAISED(-1, "AttributeError", "Check failed: (reg != nullptr) is false: Operator relax.nn.conv is not registered");
  CHECK(trx_op_get("relax.nope", 10) == NULL);
  CHECK_RAISED(-1, "AttributeError", "Operator relax.nope is not registered");
}

static void test_op_get_global(void) {
  TVMFFIAny arg = tether_any_raw_str("relax.add"), out;
  CHECK_OK(call_global("ir.Op.get", &arg, 1, &out));
  CHECK(out.v_obj == trx_op_get("relax.add", 9));
  tether_any_release(&out);
  CHECK_OK(call_global("ir.GetOp", &arg, 1, &out));
  CHECK(out.v_obj == trx_op_get("relax.add", 9));
  tether_any_release(&out);
  arg = tether_any_raw_str("relax.nope");
  CHECK_RAISED(call_global("ir.Op.get", &arg, 1, &out), "AttributeError",
               "Check failed: (reg != nullptr) is false: Operator relax.nope is not registered");
  arg = tether_any_int(3);
  CHECK_RAISED(call_global("ir.Op.get", &arg, 1, &out), "TypeError", "Mismatched type on argument #0");
  CHECK_RAISED(call_global("ir.Op.get", NULL, 0, &out), "TypeError",
               "Mismatched number of arguments");
  /* ListOpNames: every op of the brief is there */
  static const char* const required[] = {
      "relax.nn.conv1d", "relax.nn.conv2d", "relax.nn.conv2d_transpose", "relax.nn.max_pool2d",
      "relax.nn.avg_pool2d", "relax.nn.adaptive_avg_pool2d", "relax.nn.relu", "relax.nn.gelu",
      "relax.nn.silu", "relax.nn.softmax", "relax.nn.log_softmax", "relax.nn.batch_norm",
      "relax.nn.layer_norm", "relax.nn.dropout", "relax.sigmoid", "relax.tanh", "relax.exp",
      "relax.sqrt", "relax.negative", "relax.matmul", "relax.add", "relax.subtract",
      "relax.multiply", "relax.divide", "relax.power", "relax.maximum", "relax.minimum",
      "relax.equal", "relax.less", "relax.greater", "relax.reshape", "relax.permute_dims",
      "relax.expand_dims", "relax.squeeze", "relax.flatten", "relax.concat", "relax.split",
      "relax.strided_slice", "relax.take", "relax.mean", "relax.sum", "relax.max",
      "relax.astype", "relax.broadcast_to", "relax.clip", "relax.where"};
  CHECK_OK(call_global("ir.ListOpNames", NULL, 0, &out));
  int64_t n = tether_array_size(out.v_obj);
  for (size_t k = 0; k < sizeof(required) / sizeof(required[0]); ++k) {
    int found = 0;
    for (int64_t i = 0; i < n; ++i) {
      TVMFFIByteArray s;
      tether_any_get_str(tether_array_at(out.v_obj, i), &s);
      if (s.size == strlen(required[k]) && memcmp(s.data, required[k], s.size) == 0) found = 1;
    }
    if (!found) fprintf(stderr, "missing op %s\n", required[k]);
    CHECK(found);
    /* and each has its constructor global */
    char g[64];
    snprintf(g, sizeof(g), "relax.op.%s", required[k] + 6);
    TVMFFIObjectHandle f = tether_func_get(g);
    CHECK(f != NULL);
    if (f) TVMFFIObjectDecRef(f);
    else {
      TVMFFIObjectHandle err = NULL;
      TVMFFIErrorMoveFromRaised(&err);
      TVMFFIObjectDecRef(err);
    }
  }
  tether_any_release(&out);
}

/* ---- attrs types: keys and fields in TVM's reflection order ------------------------------------ */

static void test_attrs_types(void) {
  static const struct {
    const char* key;
    const char* fields;
  } expected[] = {
      {"relax.attrs.Conv1DAttrs", "strides padding dilation groups data_layout kernel_layout out_layout out_dtype"},
      {"relax.attrs.Conv2DAttrs", "strides padding dilation groups data_layout kernel_layout out_layout out_dtype"},
      {"relax.attrs.Conv2DTransposeAttrs",
       "strides padding output_padding dilation groups data_layout kernel_layout out_layout out_dtype"},
      {"relax.attrs.Pool2DAttrs", "pool_size strides dilation padding ceil_mode count_include_pad layout out_layout"},
      {"relax.attrs.AdaptivePool2DAttrs", "output_size layout out_layout"},
      {"relax.attrs.SoftmaxAttrs", "axis"},
      {"relax.attrs.BatchNormAttrs", "axis epsilon center scale momentum training"},
      {"relax.attrs.LayerNormAttrs", "axes epsilon center scale"},
      {"relax.attrs.DropoutAttrs", "rate"},
      {"relax.attrs.MatmulAttrs", "out_dtype"},
      {"relax.attrs.PermuteDimsAttrs", "axes"},
      {"relax.attrs.ExpandDimsAttrs", "axis"},
      {"relax.attrs.SqueezeAttrs", "axis"},
      {"relax.attrs.ConcatAttrs", "axis"},
      {"relax.attrs.SplitAttrs", "indices_or_sections axis"},
      {"relax.attrs.StridedSliceAttrs", "assume_inbound"},
      {"relax.attrs.TakeAttrs", "axis mode"},
      {"relax.attrs.StatisticalAttrs", "axis keepdims"},
      {"relax.attrs.AstypeAttrs", "dtype"},
  };
  int32_t attrs_index;
  TVMFFIByteArray ak = {"ir.Attrs", 8};
  CHECK_OK(TVMFFITypeKeyToIndex(&ak, &attrs_index));
  for (size_t k = 0; k < sizeof(expected) / sizeof(expected[0]); ++k) {
    TVMFFIByteArray key = {expected[k].key, strlen(expected[k].key)};
    int32_t index = -1;
    CHECK_OK(TVMFFITypeKeyToIndex(&key, &index));
    if (index < 0) continue;
    CHECK(tether_type_is_subclass(index, attrs_index));
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    char names[256] = "";
    size_t len = 0;
    for (int32_t i = 0; i < info->num_fields; ++i)
      len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%.*s", i ? " " : "",
                              (int)info->fields[i].name.size, info->fields[i].name.data);
    CHECK_EQ_STR(names, expected[k].fields);
  }
}

/* ---- constructors --------------------------------------------------------------------------------- */

static void test_conv2d_constructor(void) {
  int64_t xs[] = {1, 3, 8, 8}, ws[] = {4, 3, 3, 3}, one[] = {1}, two[] = {2};
  TVMFFIObject* x = tensor_var("x", xs, 4, "float32");
  TVMFFIObject* w = tensor_var("w", ws, 4, "float32");
  TVMFFIAny a[10] = {tether_any_object(x), tether_any_object(w), int_array(two, 1), int_array(one, 1),
                     int_array(one, 1), tether_any_int(1), tether_any_raw_str("NCHW"),
                     tether_any_raw_str("OIHW"), tether_any_none(), tether_any_none()};
  TVMFFIAny out;
  CHECK_OK(call_global("relax.op.nn.conv2d", a, 10, &out));
  trx_call_t* c = (trx_call_t*)out.v_obj;
  CHECK(trx_is(out.v_obj, TRX_CALL));
  CHECK(c->op == trx_op_get("relax.nn.conv2d", 15));
  CHECK(c->base.ty == NULL); /* Missing until normalized */
  CHECK_EQ_INT(tether_array_size(c->args), 2);
  CHECK(tether_array_at(c->args, 0)->v_obj == x);
  CHECK(c->ty_args != NULL && tether_array_size(c->ty_args) == 0);
  CHECK_EQ_STR(tether_type_key(c->attrs->type_index), "relax.attrs.Conv2DAttrs");
  check_arr_field(c->attrs, "strides", "(2, 2)");           /* length 1 duplicated */
  check_arr_field(c->attrs, "padding", "(1, 1, 1, 1)");     /* [p] -> 4 values */
  check_arr_field(c->attrs, "dilation", "(1, 1)");
  check_str_field(c->attrs, "out_layout", "NCHW");           /* defaults to data_layout */
  TVMFFIAny g = field(c->attrs, "groups"), od = field(c->attrs, "out_dtype");
  CHECK_EQ_INT(g.v_int64, 1);
  CHECK_EQ_INT(od.type_index, kTVMFFINone); /* None stays None */
  TVMFFIObject* ty = trx_infer_type(out.v_obj);
  CHECK(trx_is(ty, TRX_TENSOR_TYPE));
  if (ty) TVMFFIObjectDecRef(ty);
  tether_any_release(&out);
  /* padding [ph, pw] -> (ph, pw, ph, pw); out_dtype as a string; explicit out_layout kept */
  int64_t p2[] = {1, 2};
  tether_any_release(&a[3]);
  a[3] = int_array(p2, 2);
  a[8] = tether_any_raw_str("NHWC");
  a[9] = tether_any_raw_str("float16");
  CHECK_OK(call_global("relax.op.nn.conv2d", a, 10, &out));
  c = (trx_call_t*)out.v_obj;
  check_arr_field(c->attrs, "padding", "(1, 2, 1, 2)");
  check_str_field(c->attrs, "out_layout", "NHWC");
  od = field(c->attrs, "out_dtype");
  CHECK_EQ_INT(od.type_index, kTVMFFIDataType);
  CHECK(od.v_dtype.code == kDLFloat && od.v_dtype.bits == 16);
  tether_any_release(&out);
  /* argument type errors name the global with its signature */
  TVMFFIAny saved = a[5];
  a[5] = tether_any_float(1.5);
  CHECK_RAISED(call_global("relax.op.nn.conv2d", a, 10, &out), "TypeError",
               "Mismatched type on argument #5 when calling: `relax.op.nn.conv2d(0: ir.Expr, 1: "
               "ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: int, 6: str, 7: str, 8: "
               "Optional<str>, 9: Optional<DataType>) -> ir.Expr`. Expected `int` but got `float`");
  a[5] = saved;
  a[9] = tether_any_int(3);
  CHECK_RAISED(call_global("relax.op.nn.conv2d", a, 10, &out), "TypeError",
               "Expected `Optional<DataType>` but got `int`");
  a[9] = tether_any_none();
  a[6] = tether_any_int(3);
  CHECK_RAISED(call_global("relax.op.nn.conv2d", a, 10, &out), "TypeError",
               "Expected `str` but got `int`");
  a[6] = tether_any_raw_str("NCHW");
  CHECK_RAISED(call_global("relax.op.nn.conv2d", a, 9, &out), "TypeError",
               "Expected 10 but got 9 arguments");
  for (int i = 2; i < 5; ++i) tether_any_release(&a[i]);
  TVMFFIObjectDecRef(x);
  TVMFFIObjectDecRef(w);
}

static void test_pool_and_misc_constructors(void) {
  int64_t xs[] = {1, 3, 8, 8}, three[] = {3}, one[] = {1}, four[] = {4};
  TVMFFIObject* x = tensor_var("x", xs, 4, "float32");
  TVMFFIAny out;
  /* max_pool2d: pool_size/strides/dilation duplicated, padding completed */
  TVMFFIAny p[9] = {tether_any_object(x), int_array(three, 1), int_array(one, 1), int_array(one, 1),
                    int_array(one, 1), tether_any_bool(true), tether_any_bool(false),
                    tether_any_raw_str("NCHW"), tether_any_none()};
  CHECK_OK(call_global("relax.op.nn.max_pool2d", p, 9, &out));
  trx_call_t* c = (trx_call_t*)out.v_obj;
  CHECK_EQ_STR(tether_type_key(c->attrs->type_index), "relax.attrs.Pool2DAttrs");
  check_arr_field(c->attrs, "pool_size", "(3, 3)");
  check_arr_field(c->attrs, "padding", "(1, 1, 1, 1)");
  check_str_field(c->attrs, "out_layout", "NCHW");
  TVMFFIAny cm = field(c->attrs, "ceil_mode");
  CHECK_EQ_INT(cm.v_int64, 1);
  tether_any_release(&out);
  for (int i = 1; i < 5; ++i) tether_any_release(&p[i]);
  /* adaptive_avg_pool2d: [4] -> (4, 4); None stays None */
  TVMFFIAny q[4] = {tether_any_object(x), int_array(four, 1), tether_any_raw_str("NCHW"), tether_any_none()};
  CHECK_OK(call_global("relax.op.nn.adaptive_avg_pool2d", q, 4, &out));
  check_arr_field(((trx_call_t*)out.v_obj)->attrs, "output_size", "(4, 4)");
  tether_any_release(&out);
  tether_any_release(&q[1]);
  q[1] = tether_any_none();
  CHECK_OK(call_global("relax.op.nn.adaptive_avg_pool2d", q, 4, &out));
  TVMFFIAny os = field(((trx_call_t*)out.v_obj)->attrs, "output_size");
  CHECK_EQ_INT(os.type_index, kTVMFFINone);
  tether_any_release(&out);
  /* split: ints become IntImm int64 */
  int64_t idx[] = {2, 5};
  TVMFFIAny s[3] = {tether_any_object(x), int_array(idx, 2), tether_any_int(1)};
  CHECK_OK(call_global("relax.op.split", s, 3, &out));
  TVMFFIAny ios = field(((trx_call_t*)out.v_obj)->attrs, "indices_or_sections");
  CHECK(ios.type_index == kTVMFFIArray && trx_is(tether_array_at(ios.v_obj, 0)->v_obj, TRX_INT_IMM));
  tether_any_release(&ios);
  tether_any_release(&out);
  tether_any_release(&s[1]);
  s[1] = tether_any_int(0);
  CHECK_RAISED(call_global("relax.op.split", s, 3, &out), "InternalError",
               "Split op expects the input number of sections to be a positive integer. However, "
               "the given number of sections is 0");
  /* unary ops take no attrs */
  CHECK_OK(call_global("relax.op.nn.relu", s, 1, &out));
  CHECK(((trx_call_t*)out.v_obj)->attrs == NULL);
  tether_any_release(&out);
  /* astype stores the dtype */
  TVMFFIAny t[2] = {tether_any_object(x), tether_any_raw_str("int8")};
  CHECK_OK(call_global("relax.op.astype", t, 2, &out));
  TVMFFIAny dt = field(((trx_call_t*)out.v_obj)->attrs, "dtype");
  CHECK(dt.type_index == kTVMFFIDataType && dt.v_dtype.code == kDLInt && dt.v_dtype.bits == 8);
  tether_any_release(&out);
  /* reshape resolves 0 and -1 at construction */
  int64_t ns[] = {0, -1};
  TVMFFIAny r[2] = {tether_any_object(x), int_array(ns, 2)};
  CHECK_OK(call_global("relax.op.reshape", r, 2, &out));
  TVMFFIObject* shape = tether_array_at(((trx_call_t*)out.v_obj)->args, 1)->v_obj;
  CHECK(trx_is(shape, TRX_SHAPE_EXPR));
  char buf[64];
  arr_text(((trx_shape_expr_t*)shape)->values, buf, sizeof(buf));
  CHECK_EQ_STR(buf, "(1, 192)");
  tether_any_release(&out);
  tether_any_release(&r[1]);
  TVMFFIObjectDecRef(x);
}

static void test_infer_type_bad_input(void) {
  TVMFFIObject* v = tensor_var("x", NULL, 0, "float32");
  CHECK(trx_infer_type(v) == NULL);
  CHECK_RAISED(-1, "TypeError", "expected an ir.Call");
  /* a Call whose callee is not an Op */
  TVMFFIObject* empty = NULL;
  tether_array_new(NULL, 0, (TVMFFIObjectHandle*)&empty);
  TVMFFIObject* call = trx_call_new(v, empty, NULL, empty);
  CHECK(call != NULL);
  CHECK(trx_infer_type(call) == NULL);
  CHECK_RAISED(-1, "TypeError", "not a registered Op");
  if (call) TVMFFIObjectDecRef(call);
  /* an op Call without its attrs */
  TVMFFIObject* call2 = trx_call_new(trx_op_get("relax.nn.softmax", 16), empty, NULL, empty);
  CHECK(trx_infer_type(call2) == NULL);
  CHECK_RAISED(-1, "TypeError", "relax.nn.softmax: the Call's attrs must be relax.attrs.SoftmaxAttrs");
  if (call2) TVMFFIObjectDecRef(call2);
  /* wrong argument count: the Op rendered as TVM renders it */
  TVMFFIObject* call3 = trx_call_new(trx_op_get("relax.nn.relu", 13), empty, NULL, empty);
  CHECK(trx_infer_type(call3) == NULL);
  CHECK_RAISED(-1, "ValueError",
               "Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.relu\", "
               "description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", "
               "description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, "
               "support_level=10) expects 1 arguments, but was called with 0 arguments");
  if (call3) TVMFFIObjectDecRef(call3);
  TVMFFIObjectDecRef(empty);
  TVMFFIObjectDecRef(v);
}


/* ---- wrong results once found: shape arithmetic errors instead of wrapping -------------------
 * Texts observed with apache-tvm 0.27, except where TVM wraps int64 / int32 arithmetic
 * silently (noted): tether raises ValueError or computes the exact value instead. */

/* The inferred type of the Call the constructor global builds from a (new reference), or NULL
 * with the error raised. */
static TVMFFIObject* infer_of(const char* global, const TVMFFIAny* a, int32_t n) {
  TVMFFIAny out;
  if (call_global(global, a, n, &out) != 0) return NULL;
  TVMFFIObject* ty = trx_infer_type(out.v_obj);
  tether_any_release(&out);
  return ty;
}

static void check_dims(TVMFFIObject* ty, const char* want) {
  char buf[128] = "<no shape>";
  if (trx_is(ty, TRX_TENSOR_TYPE) && trx_is(((trx_tensor_type_t*)ty)->shape, TRX_SHAPE_EXPR)) {
    arr_text(((trx_shape_expr_t*)((trx_tensor_type_t*)ty)->shape)->values, buf, sizeof(buf));
  }
  CHECK_EQ_STR(buf, want);
  if (ty) TVMFFIObjectDecRef(ty);
}

static void test_conv_pool_shape_arithmetic(void) {
  const char* div0 = "Check failed: pb->value != 0 (0 vs. 0) : Divide by zero";
  int64_t xs[] = {1, 3, 5, 5}, ws[] = {4, 3, 3, 3}, xs1[] = {1, 3, 5}, ws1[] = {4, 3, 3};
  int64_t huge[] = {1, 3, INT64_MAX, 5}, zero[] = {0}, one[] = {1}, one_zero[] = {1, 0};
  int64_t p62[] = {(int64_t)1 << 62}, pmax[] = {INT64_MAX}, p31[] = {INT32_MAX};
  TVMFFIObject *x = tensor_var("x", xs, 4, "float32"), *w = tensor_var("w", ws, 4, "float32");
  TVMFFIObject *x1 = tensor_var("x1", xs1, 3, "float32"), *w1 = tensor_var("w1", ws1, 3, "float32");
  TVMFFIObject* xh = tensor_var("xh", huge, 4, "float32");
  /* conv2d(x, w, strides, padding, dilation, groups, layouts..., out_dtype) */
  TVMFFIAny c[10] = {tether_any_object(x), tether_any_object(w), int_array(zero, 1), int_array(zero, 1),
                     int_array(one, 1), tether_any_int(1), tether_any_raw_str("NCHW"),
                     tether_any_raw_str("OIHW"), tether_any_none(), tether_any_none()};
  CHECK_RAISED(infer_of("relax.op.nn.conv2d", c, 10) ? 0 : -1, "InternalError", div0);
  tether_any_release(&c[2]);
  c[2] = int_array(one_zero, 2);
  CHECK_RAISED(infer_of("relax.op.nn.conv2d", c, 10) ? 0 : -1, "InternalError", div0);
  tether_any_release(&c[2]);
  c[2] = int_array(one, 1);
  /* padding beyond int32: TVM's IntImm check (its inference makes int32 literals) */
  tether_any_release(&c[3]);
  c[3] = int_array(p62, 1);
  CHECK_RAISED(infer_of("relax.op.nn.conv2d", c, 10) ? 0 : -1, "ValueError",
               "Literal value 4611686018427387904 exceeds range of int32");
  tether_any_release(&c[3]);
  c[3] = int_array(pmax, 1);
  CHECK_RAISED(infer_of("relax.op.nn.conv2d", c, 10) ? 0 : -1, "ValueError",
               "Literal value 9223372036854775807 exceeds range of int32");
  /* padding INT32_MAX: TVM folds the two paddings in int32 and wraps (a 1x1 output); tether
   * raises TVM's literal-range error for the sum instead */
  tether_any_release(&c[3]);
  c[3] = int_array(p31, 1);
  CHECK_RAISED(infer_of("relax.op.nn.conv2d", c, 10) ? 0 : -1, "ValueError",
               "Literal value 4294967294 exceeds range of int32");
  /* an int64 dim whose exact result fits is computed exactly, whatever the order of the steps */
  tether_any_release(&c[3]);
  c[3] = int_array(one, 1);
  c[0] = tether_any_object(xh);
  check_dims(infer_of("relax.op.nn.conv2d", c, 10), "(1, 4, 9223372036854775807, 5)");
  /* conv1d */
  TVMFFIAny c1[10] = {tether_any_object(x1), tether_any_object(w1), int_array(zero, 1), int_array(zero, 1),
                      int_array(one, 1), tether_any_int(1), tether_any_raw_str("NCW"),
                      tether_any_raw_str("OIW"), tether_any_none(), tether_any_none()};
  CHECK_RAISED(infer_of("relax.op.nn.conv1d", c1, 10) ? 0 : -1, "InternalError", div0);
  /* pools(x, pool_size, strides, padding, dilation, ceil_mode, count_include_pad, layout, out_layout) */
  TVMFFIAny p[9] = {tether_any_object(x), int_array(one, 1), int_array(zero, 1), int_array(zero, 1),
                    int_array(one, 1), tether_any_bool(false), tether_any_bool(false),
                    tether_any_raw_str("NCHW"), tether_any_none()};
  CHECK_RAISED(infer_of("relax.op.nn.max_pool2d", p, 9) ? 0 : -1, "InternalError", div0);
  CHECK_RAISED(infer_of("relax.op.nn.avg_pool2d", p, 9) ? 0 : -1, "InternalError", div0);
  p[5] = tether_any_bool(true); /* ceil_mode */
  CHECK_RAISED(infer_of("relax.op.nn.avg_pool2d", p, 9) ? 0 : -1, "InternalError", div0);
  p[5] = tether_any_bool(false);
  tether_any_release(&p[2]);
  p[2] = int_array(one, 1);
  tether_any_release(&p[3]);
  p[3] = int_array(p62, 1);
  CHECK_RAISED(infer_of("relax.op.nn.max_pool2d", p, 9) ? 0 : -1, "ValueError",
               "Literal value 4611686018427387904 exceeds range of int32");
  /* a pool whose exact dim is 2**63 + 1 (TVM wraps to -9223372036854775807) */
  tether_any_release(&p[3]);
  p[3] = int_array(one, 1);
  p[0] = tether_any_object(xh);
  CHECK_RAISED(infer_of("relax.op.nn.max_pool2d", p, 9) ? 0 : -1, "ValueError",
               "the output shape overflows int64");
  for (int i = 2; i < 5; ++i) tether_any_release(&c[i]);
  for (int i = 2; i < 5; ++i) tether_any_release(&c1[i]);
  for (int i = 1; i < 5; ++i) tether_any_release(&p[i]);
  TVMFFIObject* objs[] = {x, w, x1, w1, xh};
  for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); ++i) TVMFFIObjectDecRef(objs[i]);
}

static void test_reshape_product_overflow(void) {
  /* TVM wraps the product of (2**32, 2**32) to 0 and reports that it differs from 1; the
   * product is an error here, also where TVM would accept the wrapped 0. */
  int64_t big[] = {(int64_t)1 << 32, (int64_t)1 << 32}, to1[] = {1}, to0[] = {0, 5}, infer[] = {-1};
  TVMFFIObject* x = tensor_var("x", big, 2, "float32");
  TVMFFIAny r[2] = {tether_any_object(x), int_array(to1, 1)};
  CHECK_RAISED(infer_of("relax.op.reshape", r, 2) ? 0 : -1, "ValueError",
               "T.int64(4294967296) * T.int64(4294967296) does not fit in int64");
  tether_any_release(&r[1]);
  r[1] = int_array(infer, 1);
  CHECK_RAISED(infer_of("relax.op.reshape", r, 2) ? 0 : -1, "ValueError", "does not fit in int64");
  tether_any_release(&r[1]);
  r[1] = int_array(to0, 2);
  CHECK_RAISED(infer_of("relax.op.reshape", r, 2) ? 0 : -1, "ValueError", "does not fit in int64");
  tether_any_release(&r[1]);
  TVMFFIObjectDecRef(x);
}

/* ---- an op registered at run time (what a frontend or plugin does) ------------------------- */

#define SCALE_FIELDS(F, T)                           \
  F(T, scale, FLOAT64, "float")                      \
  F(T, axes, OPT_OBJECT, "Optional<ffi.Array<int>>") \
  F(T, mode, STRING, "ffi.String")
TRX_ATTRS_STRUCT(scale_attrs_t, SCALE_FIELDS);
TRX_ATTRS_DECL(scale_attrs, "test.attrs.ScaleAttrs", scale_attrs_t, SCALE_FIELDS);

static int scale_checks; /* how many Calls scale_check saw */

/* The input's type, unchanged; the attrs must have been filled in. */
static TVMFFIObject* scale_infer(const trx_op_def_t* def, trx_call_t* call) {
  scale_attrs_t* a = (scale_attrs_t*)call->attrs;
  if (a->scale < 0) {
    tether_raise("ValueError", "%s: scale must be >= 0", trx_op_def_name(def));
    return NULL;
  }
  TVMFFIObject* ty = ((trx_expr_t*)tether_array_at(call->args, 0)->v_obj)->ty;
  TVMFFIObjectIncRef(ty);
  return ty;
}

static int scale_check(const trx_op_def_t* def, TVMFFIObject** inputs, int64_t n, TVMFFIObject* attrs) {
  (void)inputs;
  scale_checks++;
  if (n != 1) return tether_raise("ValueError", "%s: one input", trx_op_def_name(def));
  return ((scale_attrs_t*)attrs)->scale > 100 ? tether_raise("ValueError", "scale too large") : 0;
}

static const trx_op_decl_t scale_decl = {
    .name = "test.scale",
    .params = "x: Expr, scale: float = 1.0, axes: ints?[1] = None, mode: str = \"fast\"",
    .attrs = &scale_attrs,
    .infer = scale_infer,
    .check = scale_check,
    .doc = "A test op.",
};
static TVMFFIObject* scale_op; /* registered at load, before the tests count objects */

__attribute__((constructor)) static void register_scale_op(void) { scale_op = trx_op_register(&scale_decl); }

static void test_register_op(void) {
  CHECK(scale_op != NULL);
  if (scale_op == NULL) return;
  /* found by name, with its generated metadata */
  CHECK(trx_op_get("relax.test.scale", 16) == scale_op);
  const trx_op_def_t* def = trx_op_def_of(scale_op);
  CHECK(def != NULL && trx_op_def_decl(def) == &scale_decl && trx_op_def_op(def) == scale_op);
  CHECK_EQ_STR(trx_op_def_name(def), "relax.test.scale");
  check_str_field(scale_op, "attrs_type_key", "test.attrs.ScaleAttrs");
  TVMFFIAny ni = field(scale_op, "num_inputs");
  CHECK_EQ_INT(ni.v_int64, 1);
  /* the constructor global: every parameter, read by kind into the attrs of the same name */
  int64_t dims[2] = {2, 3};
  TVMFFIObject* x = tensor_var("x", dims, 2, "float32");
  int64_t one = 1;
  TVMFFIAny axes = int_array(&one, 1);
  TVMFFIAny a[4] = {tether_any_object(x), tether_any_float(2.5), tether_any_int(1), tether_any_raw_str("exact")};
  TVMFFIAny out = tether_any_none();
  /* as TVM's globals, strict: an int for an ints parameter is the Python wrapper's to widen */
  CHECK_RAISED(call_global("relax.op.test.scale", a, 4, &out), "TypeError",
               "Expected `Optional<Array<int>>` but got `int`");
  a[2] = axes;
  int before = scale_checks;
  CHECK_OK(call_global("relax.op.test.scale", a, 4, &out));
  CHECK_EQ_INT(scale_checks, before + 1);
  trx_call_t* c = (trx_call_t*)out.v_obj;
  CHECK(c->op == scale_op);
  scale_attrs_t* attrs = (scale_attrs_t*)c->attrs;
  CHECK(attrs->scale == 2.5);
  check_arr_field(c->attrs, "axes", "(1)");
  check_str_field(c->attrs, "mode", "exact");
  TVMFFIObject* ty = trx_infer_type(out.v_obj);
  CHECK(ty == ((trx_expr_t*)x)->ty);
  if (ty) TVMFFIObjectDecRef(ty);
  tether_any_release(&out);
  /* type errors name the generated signature; the check's errors come through */
  a[1] = tether_any_raw_str("big");
  CHECK_RAISED(call_global("relax.op.test.scale", a, 4, &out), "TypeError",
               "Mismatched type on argument #1 when calling: `relax.op.test.scale(0: ir.Expr, 1: "
               "float, 2: Optional<Array<int>>, 3: str) -> ir.Expr`. Expected `float` but got");
  a[1] = tether_any_float(1000);
  CHECK_RAISED(call_global("relax.op.test.scale", a, 4, &out), "ValueError", "scale too large");
  CHECK_RAISED(call_global("relax.op.test.scale", a, 3, &out), "TypeError", "Expected 4 but got 3");
  tether_any_release(&axes);
  /* the schema a binding makes the wrapper from */
  TVMFFIAny name = tether_any_raw_str("relax.test.scale");
  CHECK_OK(call_global("relax.op.Schema", &name, 1, &out));
  CHECK_EQ_INT(tether_array_size(out.v_obj), 2);
  TVMFFIByteArray params = {"", 0};
  tether_any_get_str(tether_array_at(out.v_obj, 0), &params);
  CHECK_BYTES(params, scale_decl.params);
  tether_any_release(&out);
  /* listed with the others */
  CHECK_OK(call_global("ir.ListOpNames", NULL, 0, &out));
  bool listed = false;
  for (int64_t i = 0; i < tether_array_size(out.v_obj); ++i) {
    TVMFFIByteArray s = {"", 0};
    tether_any_get_str(tether_array_at(out.v_obj, i), &s);
    listed |= s.size == 16 && memcmp(s.data, "relax.test.scale", 16) == 0;
  }
  CHECK(listed);
  tether_any_release(&out);
  TVMFFIObjectDecRef(x);
}

static void test_register_op_errors(void) {
  /* a name taken */
  CHECK(trx_op_register(&scale_decl) == NULL);
  CHECK_RAISED(-1, "KeyError", "an op named `relax.test.scale` is already registered");
  CHECK(trx_op_register(NULL) == NULL);
  CHECK_RAISED(-1, "TypeError", "trx_op_register: `decl` must be a declaration");
  /* declarations that do not parse: nothing is registered */
  static const trx_op_decl_t bad_kind = {.name = "test.bad1", .params = "x: Tensor", .infer = scale_infer};
  CHECK(trx_op_register(&bad_kind) == NULL);
  CHECK_RAISED(-1, "ValueError", "op `test.bad1`: unknown parameter kind in `x: Tensor`");
  static const trx_op_decl_t no_field = {.name = "test.bad2", .params = "x: Expr, alpha: float = 1.0",
                                         .attrs = &scale_attrs, .infer = scale_infer};
  CHECK(trx_op_register(&no_field) == NULL);
  CHECK_RAISED(-1, "ValueError", "an attribute parameter needs an attrs field of its name: `alpha`");
  static const trx_op_decl_t order = {.name = "test.bad3", .params = "scale: float = 1.0, x: Expr",
                                      .attrs = &scale_attrs, .infer = scale_infer};
  CHECK(trx_op_register(&order) == NULL);
  CHECK_RAISED(-1, "ValueError", "a parameter without a default follows one with a default");
  static const trx_op_decl_t bad_default = {.name = "test.bad4", .params = "x: Expr, scale: float = one",
                                            .attrs = &scale_attrs, .infer = scale_infer};
  CHECK(trx_op_register(&bad_default) == NULL);
  CHECK_RAISED(-1, "ValueError", "the default is not a literal");
  CHECK(trx_op_get("relax.test.bad1", 15) == NULL);
  CHECK_RAISED(-1, "AttributeError", "Operator relax.test.bad1 is not registered");
  /* attrs declarations */
  CHECK(trx_attrs_register(NULL) == -1);
  CHECK_RAISED(-1, "TypeError", "trx_attrs_register");
  int32_t idx = trx_attrs_register(&scale_attrs); /* registered with the op: the same index */
  CHECK(idx >= 0 && idx == trx_attrs_register(&scale_attrs));
  TVMFFIObject* fresh = trx_attrs_new(idx);
  CHECK(fresh != NULL && fresh->type_index == idx);
  if (fresh) TVMFFIObjectDecRef(fresh);
  CHECK(trx_attrs_new(trx_type_index[TRX_CALL]) == NULL);
  CHECK_RAISED(-1, "TypeError", "is not a registered attrs type");
}

TEST_MAIN(TEST_CASE(test_op_get), TEST_CASE(test_op_get_global), TEST_CASE(test_attrs_types),
          TEST_CASE(test_conv2d_constructor), TEST_CASE(test_pool_and_misc_constructors),
          TEST_CASE(test_infer_type_bad_input), TEST_CASE(test_register_op),
          TEST_CASE(test_register_op_errors), TEST_CASE(test_conv_pool_shape_arithmetic),
          TEST_CASE(test_reshape_product_overflow))
