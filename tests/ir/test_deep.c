/*
 * test_deep.c -- IR 100,000 levels deep: a chain of nested Calls add(add(...(x, x)...), x)
 * (and nested Tuples / TupleGetItems) is printed, hashed, compared, normalized, emitted
 * through the BlockBuilder and freed, with the default 8 MB stack (and under ASan).
 */
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>

#include "test.h"

#ifndef DEEP
#define DEEP 100000
#endif

static const DLDataType f32 = {kDLFloat, 32, 1};

static void unref(void* o) {
  if (o != NULL) TVMFFIObjectDecRef(o);
}

static TVMFFIByteArray str_of(const TVMFFIAny* v) {
  TVMFFIByteArray s = {NULL, 0};
  tether_any_get_str(v, &s);
  return s;
}

static TVMFFIObject* array2(TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIAny items[2] = {tether_any_object(a), tether_any_none()};
  if (b != NULL) items[1] = tether_any_object(b);
  TVMFFIObjectHandle out = NULL;
  CHECK_OK(tether_array_new(items, b != NULL ? 2 : 1, &out));
  return out;
}

/* x: R.Tensor((2, 3), "float32") (new reference). */
static TVMFFIObject* tensor_var(const char* name) {
  TVMFFIObject* d0 = trx_int64(2);
  TVMFFIObject* d1 = trx_int64(3);
  TVMFFIObject* dims = array2(d0, d1);
  TVMFFIObject* shape = trx_shape_expr_new(dims);
  TVMFFIObject* ty = trx_tensor_type_new(shape, f32, -1);
  TVMFFIObject* x = trx_var_new(name, strlen(name), ty, false);
  unref(d0);
  unref(d1);
  unref(dims);
  unref(shape);
  unref(ty);
  return x;
}

/* add(add(...add(leaf, x)..., x), x) with `depth` untyped Calls (new reference). */
static TVMFFIObject* call_chain(TVMFFIObject* leaf, TVMFFIObject* x, int depth) {
  TVMFFIObject* add = trx_op_get("relax.add", 9);
  TVMFFIObject* cur = leaf;
  TVMFFIObjectIncRef(cur);
  for (int i = 0; i < depth; ++i) {
    TVMFFIObject* args = array2(cur, x);
    TVMFFIObject* next = trx_call_new(add, args, NULL, NULL);
    unref(args);
    unref(cur);
    cur = next;
    if (cur == NULL) break;
  }
  CHECK(cur != NULL);
  return cur;
}

/* What the printer gives for call_chain(x, x, depth): "R.add(" * depth, "x", ", x)" * depth. */
static char* chain_text(int depth) {
  size_t n = (size_t)depth * 10 + 2;
  char* s = malloc(n);
  char* p = s;
  for (int i = 0; i < depth; ++i, p += 6) memcpy(p, "R.add(", 6);
  *p++ = 'x';
  for (int i = 0; i < depth; ++i, p += 4) memcpy(p, ", x)", 4);
  *p = '\0';
  return s;
}

static void check_print(TVMFFIObject* node, const char* expected) {
  TVMFFIAny out = tether_any_none();
  trx_print_options_t opts = {false, true, false};
  CHECK_OK(trx_print(node, &opts, &out));
  TVMFFIByteArray b = str_of(&out);
  bool same = b.size == strlen(expected) && memcmp(b.data, expected, b.size) == 0;
  if (!same) {
    fprintf(stderr, "printed %zu bytes starting \"%.60s\", expected %zu bytes starting \"%.60s\"\n",
            b.size, b.data ? b.data : "", strlen(expected), expected);
  }
  CHECK(same);
  tether_any_release(&out);
}

static void test_deep_call_chain_free(void) {
  int64_t before = tether_object_live_count();
  TVMFFIObject* x = tensor_var("x");
  TVMFFIObject* chain = call_chain(x, x, DEEP);
  CHECK(tether_object_live_count() >= before + 2 * DEEP);
  unref(chain);
  unref(x);
  CHECK_EQ_INT(tether_object_live_count(), before);
}

static void test_deep_call_chain_print(void) {
  TVMFFIObject* x = tensor_var("x");
  TVMFFIObject* chain = call_chain(x, x, DEEP);
  char* want = chain_text(DEEP);
  check_print(chain, want);
  free(want);
  /* a short chain prints the same way (the text the deep one extends) */
  TVMFFIObject* short_chain = call_chain(x, x, 3);
  check_print(short_chain, "R.add(R.add(R.add(x, x), x), x)");
  unref(short_chain);
  unref(chain);
  unref(x);
}

static void test_deep_call_chain_hash_and_equal(void) {
  TVMFFIObject* x = tensor_var("x");
  TVMFFIObject* y = tensor_var("y");
  TVMFFIObject* a = call_chain(x, x, DEEP);
  TVMFFIObject* b = call_chain(x, x, DEEP);
  TVMFFIObject* c = call_chain(y, x, DEEP); /* differs only at the bottom */
  TVMFFIAny va = tether_any_object(a), vb = tether_any_object(b), vc = tether_any_object(c);
  CHECK(trx_structural_hash(&va, false) == trx_structural_hash(&vb, false));
  CHECK(trx_structural_hash(&va, false) != trx_structural_hash(&vc, false));
  CHECK(trx_structural_equal(&va, &vb, false));
  CHECK(!trx_structural_equal(&va, &vc, false));
  /* map_free_vars: x and y map onto each other at the bottom, but x is also every right
   * operand, so c (y at the bottom, x elsewhere) still differs; c equals itself */
  CHECK(!trx_structural_equal(&va, &vc, true));
  CHECK(trx_structural_equal(&vc, &vc, true));
  /* the first mismatch is at the bottom of the chain */
  TVMFFIAny path = tether_any_none();
  CHECK_OK(trx_structural_first_mismatch(&va, &vc, false, &path));
  TVMFFIByteArray p = str_of(&path);
  CHECK_EQ_INT(p.size, strlen("<root>") + (size_t)DEEP * strlen(".args[0]"));
  if (p.size > 16) CHECK(memcmp(p.data + p.size - 16, ".args[0].args[0]", 16) == 0);
  tether_any_release(&path);
  unref(a);
  unref(b);
  unref(c);
  unref(x);
  unref(y);
}

/* A Tuple nested DEEP times, (((x,),),), and TupleGetItems over it. */
static void test_deep_tuples(void) {
  TVMFFIObject* x = tensor_var("x");
  TVMFFIObject* cur = x;
  TVMFFIObjectIncRef(cur);
  for (int i = 0; i < DEEP; ++i) {
    TVMFFIObject* fields = array2(cur, NULL);
    TVMFFIObject* t = trx_tuple_new(fields);
    unref(fields);
    unref(cur);
    cur = t;
  }
  TVMFFIObject* get = cur;
  TVMFFIObjectIncRef(get);
  for (int i = 0; i < DEEP; ++i) {
    TVMFFIObject* g = trx_tuple_get_item_new(get, 0);
    unref(get);
    get = g;
  }
  TVMFFIAny vt = tether_any_object(cur), vg = tether_any_object(get);
  CHECK(trx_structural_equal(&vt, &vt, true));
  CHECK(trx_structural_hash(&vg, false) != trx_structural_hash(&vt, false));
  size_t n = (size_t)DEEP * 6 + 2;
  char* want = malloc(n);
  memset(want, '(', (size_t)DEEP);
  want[DEEP] = 'x';
  for (int i = 0; i < DEEP; ++i) memcpy(want + DEEP + 1 + 2 * i, ",)", 2);
  want[3 * DEEP + 1] = '\0';
  check_print(cur, want);
  /* the get-item chain: the tuple, then [0] per level */
  for (int i = 0; i < DEEP; ++i) memcpy(want + 3 * DEEP + 1 + 3 * i, "[0]", 3);
  want[6 * DEEP + 1] = '\0';
  check_print(get, want);
  free(want);
  unref(get);
  unref(cur);
  unref(x);
}

/* emit(add(add(...))) inside a dataflow block binds every level to its own var, innermost
 * first: lv = add(x, x); lv1 = add(lv, x); ...; the function prints line by line. */
static void test_deep_call_chain_emit(void) {
  TVMFFIObject* x = tensor_var("x");
  TVMFFIObject* chain = call_chain(x, x, DEEP);
  TVMFFIObject* bb = trx_block_builder_new(NULL);
  TVMFFIObject* params = array2(x, NULL);
  CHECK_OK(trx_block_builder_begin_function(bb, "main", 4, params, NULL, true, false));
  CHECK_OK(trx_block_builder_begin_dataflow(bb));
  TVMFFIObject* lv = trx_block_builder_emit(bb, chain, NULL, 0);
  CHECK(lv != NULL);
  TVMFFIObject* gv = trx_block_builder_emit_output(bb, lv, NULL, 0);
  CHECK_OK(trx_block_builder_end_dataflow(bb));
  TVMFFIObject* g = trx_block_builder_emit_func_output(bb, gv, NULL);
  CHECK(g != NULL);
  CHECK_OK(trx_block_builder_end_function(bb, true));
  TVMFFIObject* mod = trx_block_builder_finalize(bb);
  CHECK(mod != NULL);
  TVMFFIAny text = tether_any_none();
  trx_print_options_t opts = {false, true, false};
  CHECK_OK(trx_print(mod, &opts, &text));
  TVMFFIByteArray s = str_of(&text);
  const char* first = "            lv: R.Tensor((2, 3), dtype=\"float32\") = R.add(x, x)\n";
  const char* second = "            lv1: R.Tensor((2, 3), dtype=\"float32\") = R.add(lv, x)\n";
  char last[160];
  snprintf(last, sizeof(last), "            lv%d: R.Tensor((2, 3), dtype=\"float32\") = R.add(lv%d, x)\n",
           DEEP - 1, DEEP - 2);
  CHECK(s.data != NULL && strstr(s.data, first) != NULL);
  CHECK(s.data != NULL && strstr(s.data, second) != NULL);
  CHECK(s.data != NULL && strstr(s.data, last) != NULL);
  tether_any_release(&text);
  /* the chain itself was typed in place at every level (its args did not change shape) */
  CHECK(((trx_expr_t*)chain)->ty == NULL || trx_is(((trx_expr_t*)chain)->ty, TRX_TENSOR_TYPE));
  TVMFFIObject* normalized = trx_normalize(bb, x);
  CHECK(normalized == x);
  unref(normalized);
  unref(mod);
  unref(g);
  unref(gv);
  unref(lv);
  unref(params);
  unref(bb);
  unref(chain);
  unref(x);
}

TEST_MAIN(TEST_CASE(test_deep_call_chain_free), TEST_CASE(test_deep_call_chain_print),
          TEST_CASE(test_deep_call_chain_hash_and_equal), TEST_CASE(test_deep_tuples),
          TEST_CASE(test_deep_call_chain_emit))
