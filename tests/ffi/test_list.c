/*
 * test_list.c -- ffi.List (type 75): every ffi.List* global with its errors (texts observed
 * on apache-tvm-ffi 0.1.14), alias-safe ReplaceSlice, shared in-place semantics, the
 * free-compatible buffer deleter, and the public tether_list_* API.
 */
#include <stdlib.h>

#include <tether/container.h>

#include "test.h"

static int call(const char* name, const TVMFFIAny* args, int32_t n, TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) return -1;
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* A new List of the ints xs[0..n).  New reference. */
static TVMFFIObjectHandle list_of(const int64_t* xs, int n) {
  TVMFFIAny args[16];
  for (int i = 0; i < n; ++i) args[i] = tether_any_int(xs[i]);
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.List", args, n, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIList);
  return r.v_obj;
}

/* Checks that `list` holds exactly the ints xs[0..n). */
#define CHECK_LIST(list, ...)                                                          \
  do {                                                                                 \
    const int64_t check__xs[] = {__VA_ARGS__};                                         \
    int64_t check__n = (int64_t)(sizeof(check__xs) / sizeof(check__xs[0]));           \
    CHECK_EQ_INT(tether_list_size(list), check__n);                                    \
    for (int64_t check__i = 0; check__i < check__n && check__i < tether_list_size(list); \
         ++check__i) {                                                                 \
      CHECK_EQ_INT(tether_list_at(list, check__i)->v_int64, check__xs[check__i]);      \
    }                                                                                  \
  } while (0)

static void test_list_construct_get_set_size(void) {
  TVMFFIObjectHandle l = list_of((int64_t[]){10, 20, 30}, 3);
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a[3] = {tether_any_object(l), tether_any_int(1), tether_any_int(99)};
  CHECK_OK(call("ffi.ListGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 20);
  CHECK_OK(call("ffi.ListSetItem", a, 3, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFINone);
  CHECK_LIST(l, 10, 99, 30);
  CHECK_OK(call("ffi.ListSize", a, 1, &r));
  CHECK_EQ_INT(r.v_int64, 3);

  /* Views become owned values. */
  a[2] = tether_any_raw_str("a string longer than seven");
  CHECK_OK(call("ffi.ListSetItem", a, 3, &r));
  CHECK_EQ_INT(tether_list_at(l, 1)->type_index, kTVMFFIStr);
  a[1] = tether_any_int(3);
  CHECK_RAISED(call("ffi.ListGetItem", a, 2, &r), "IndexError", "Index 3 out of bounds 3");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ListGetItem", a, 2, &r), "IndexError", "Index -1 out of bounds 3");
  a[1] = tether_any_int(-4);
  CHECK_RAISED(call("ffi.ListGetItem", a, 2, &r), "IndexError", "Index -4 out of bounds 3");
  a[1] = tether_any_int(3);
  CHECK_RAISED(call("ffi.ListSetItem", a, 3, &r), "IndexError", "Index 3 out of bounds 3");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ListSetItem", a, 3, &r), "IndexError", "Index -1 out of bounds 3");
  a[1] = tether_any_float(1.5);
  CHECK_RAISED(call("ffi.ListGetItem", a, 2, &r), "TypeError",
               "Mismatched type on argument #1 when calling: `ffi.ListGetItem(0: ffi.List, 1: "
               "int) -> Any`. Expected `int` but got `float`");
  TVMFFIObjectDecRef(l);
}

static void test_list_wrong_container_types(void) {
  TVMFFIAny arr = tether_any_none(), r = tether_any_none();
  CHECK_OK(call("ffi.Array", NULL, 0, &arr));
  CHECK_RAISED(call("ffi.ListSize", &arr, 1, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.ListSize(0: ffi.List) -> int`. "
               "Expected `ffi.List` but got `ffi.Array`");
  TVMFFIAny one = tether_any_int(1);
  struct {
    const char* name;
    int32_t n;
    const char* text;
  } cases[] = {
      {"ffi.ListSetItem", 3,
       "`ffi.ListSetItem(0: List<Any>, 1: int, 2: Any) -> void`. Expected `List<Any>` but got "
       "`int`"},
      {"ffi.ListAppend", 2, "`ffi.ListAppend(0: List<Any>, 1: Any) -> void`. Expected `List<Any>`"},
      {"ffi.ListInsert", 3, "`ffi.ListInsert(0: List<Any>, 1: int, 2: Any) -> void`"},
      {"ffi.ListPop", 2, "`ffi.ListPop(0: List<Any>, 1: int) -> Any`. Expected `List<Any>`"},
      {"ffi.ListErase", 2, "`ffi.ListErase(0: List<Any>, 1: int) -> void`"},
      {"ffi.ListEraseRange", 3, "`ffi.ListEraseRange(0: List<Any>, 1: int, 2: int) -> void`"},
      {"ffi.ListReverse", 1, "`ffi.ListReverse(0: List<Any>) -> void`. Expected `List<Any>`"},
      {"ffi.ListClear", 1, "`ffi.ListClear(0: List<Any>) -> void`. Expected `List<Any>`"},
      {"ffi.ListContains", 2,
       "`ffi.ListContains(0: ffi.List, 1: Any) -> bool`. Expected `ffi.List`"},
      {"ffi.ListGetItem", 2, "`ffi.ListGetItem(0: ffi.List, 1: int) -> Any`. Expected `ffi.List`"},
  };
  TVMFFIAny a[3] = {one, tether_any_int(0), tether_any_int(0)};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    CHECK_RAISED(call(cases[i].name, a, cases[i].n, &r), "TypeError", cases[i].text);
    CHECK_RAISED(call(cases[i].name, a, cases[i].n - 1, &r), "TypeError",
                 "Mismatched number of arguments");
  }
  TVMFFIAny rs[4] = {one, tether_any_int(0), tether_any_int(1), tether_any_int(2)};
  CHECK_RAISED(call("ffi.ListReplaceSlice", rs, 4, &r), "TypeError",
               "Mismatched type on argument #3 when calling: `ffi.ListReplaceSlice(0: List<Any>, "
               "1: int, 2: int, 3: List<Any>) -> void`. Expected `List<Any>` but got `int`");
  TVMFFIAny er[3] = {one, tether_any_raw_str("x"), tether_any_raw_str("y")};
  CHECK_RAISED(call("ffi.ListEraseRange", er, 3, &r), "TypeError",
               "Mismatched type on argument #2");
  tether_any_release(&arr);
}

static void test_list_append_insert_pop_erase(void) {
  TVMFFIObjectHandle l = list_of((int64_t[]){10, 20, 30}, 3);
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a[3] = {tether_any_object(l), tether_any_int(5), tether_any_int(5)};
  CHECK_RAISED(call("ffi.ListInsert", a, 3, &r), "IndexError", "Index 5 out of bounds [0, 3]");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ListInsert", a, 3, &r), "IndexError", "Index -1 out of bounds [0, 3]");
  a[1] = tether_any_int(3);
  CHECK_OK(call("ffi.ListInsert", a, 3, &r));
  a[1] = tether_any_int(0);
  a[2] = tether_any_int(1);
  CHECK_OK(call("ffi.ListInsert", a, 3, &r));
  CHECK_LIST(l, 1, 10, 20, 30, 5);
  a[1] = tether_any_int(7);
  CHECK_OK(call("ffi.ListAppend", a, 2, &r));
  CHECK_LIST(l, 1, 10, 20, 30, 5, 7);

  a[1] = tether_any_int(10);
  CHECK_RAISED(call("ffi.ListPop", a, 2, &r), "IndexError", "Index 10 out of bounds 6");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ListPop", a, 2, &r), "IndexError", "Index -1 out of bounds 6");
  a[1] = tether_any_int(4);
  CHECK_OK(call("ffi.ListPop", a, 2, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIInt);
  CHECK_EQ_INT(r.v_int64, 5);
  CHECK_LIST(l, 1, 10, 20, 30, 7);
  a[1] = tether_any_int(0);
  CHECK_OK(call("ffi.ListErase", a, 2, &r));
  CHECK_LIST(l, 10, 20, 30, 7);
  a[1] = tether_any_int(4);
  CHECK_RAISED(call("ffi.ListErase", a, 2, &r), "IndexError", "Index 4 out of bounds 4");

  TVMFFIAny c[2] = {tether_any_object(l), tether_any_int(30)};
  CHECK_OK(call("ffi.ListContains", c, 2, &r));
  CHECK_EQ_INT(r.v_int64, 1);
  c[1] = tether_any_bool(true);
  CHECK_OK(call("ffi.ListContains", c, 2, &r));
  CHECK_EQ_INT(r.v_int64, 0);

  /* Growth from many appends, then popping an object hands its reference to the caller. */
  TVMFFIAny s;
  CHECK_OK(tether_any_str("an object element", 17, &s));
  for (int i = 0; i < 100; ++i) CHECK_OK(tether_list_append(l, &s));
  CHECK_EQ_INT(tether_list_size(l), 104);
  TVMFFIAny popped = tether_any_none();
  CHECK_OK(tether_list_pop(l, 50, &popped));
  CHECK(popped.v_obj == s.v_obj);
  CHECK_EQ_INT(tether_object_use_count(s.v_obj), 101);
  tether_any_release(&popped);
  tether_any_release(&s);
  TVMFFIObjectDecRef(l);
}

static void test_list_erase_range_and_replace_slice(void) {
  TVMFFIObjectHandle l = list_of((int64_t[]){0, 1, 2, 3, 4, 5}, 6);
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a[4] = {tether_any_object(l), tether_any_int(2), tether_any_int(1)};
  CHECK_RAISED(call("ffi.ListEraseRange", a, 3, &r), "IndexError",
               "Erase range [2, 1) out of bounds 6");
  a[1] = tether_any_int(-1);
  CHECK_RAISED(call("ffi.ListEraseRange", a, 3, &r), "IndexError",
               "Erase range [-1, 1) out of bounds 6");
  a[1] = tether_any_int(0);
  a[2] = tether_any_int(7);
  CHECK_RAISED(call("ffi.ListEraseRange", a, 3, &r), "IndexError",
               "Erase range [0, 7) out of bounds 6");
  a[1] = tether_any_int(1);
  a[2] = tether_any_int(1);
  CHECK_OK(call("ffi.ListEraseRange", a, 3, &r)); /* empty range */
  CHECK_LIST(l, 0, 1, 2, 3, 4, 5);
  a[1] = tether_any_int(1);
  a[2] = tether_any_int(3);
  CHECK_OK(call("ffi.ListEraseRange", a, 3, &r));
  CHECK_LIST(l, 0, 3, 4, 5);

  TVMFFIObjectHandle src = list_of((int64_t[]){7, 8, 9}, 3);
  a[1] = tether_any_int(1);
  a[2] = tether_any_int(2);
  a[3] = tether_any_object(src);
  CHECK_OK(call("ffi.ListReplaceSlice", a, 4, &r)); /* grow */
  CHECK_LIST(l, 0, 7, 8, 9, 4, 5);
  TVMFFIObjectHandle empty = list_of(NULL, 0);
  a[1] = tether_any_int(1);
  a[2] = tether_any_int(4);
  a[3] = tether_any_object(empty);
  CHECK_OK(call("ffi.ListReplaceSlice", a, 4, &r)); /* shrink */
  CHECK_LIST(l, 0, 4, 5);
  a[1] = tether_any_int(1);
  a[2] = tether_any_int(0);
  CHECK_RAISED(call("ffi.ListReplaceSlice", a, 4, &r), "IndexError",
               "Erase range [1, 0) out of bounds 3");
  a[2] = tether_any_int(9);
  CHECK_RAISED(call("ffi.ListReplaceSlice", a, 4, &r), "IndexError",
               "Erase range [1, 9) out of bounds 3");
  TVMFFIAny arr = tether_any_none();
  CHECK_OK(call("ffi.Array", NULL, 0, &arr));
  a[2] = tether_any_int(1);
  a[3] = arr;
  CHECK_RAISED(call("ffi.ListReplaceSlice", a, 4, &r), "TypeError",
               "Expected `List<Any>` but got `ffi.Array`");
  tether_any_release(&arr);
  TVMFFIObjectDecRef(empty);
  TVMFFIObjectDecRef(src);
  TVMFFIObjectDecRef(l);
}

static void test_list_replace_slice_alias_safe(void) {
  /* Observed on the reference: l = [1, 2, 3]; ReplaceSlice(l, 0, 1, l) -> [1, 2, 3, 2, 3]. */
  TVMFFIObjectHandle l = list_of((int64_t[]){1, 2, 3}, 3);
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a[4] = {tether_any_object(l), tether_any_int(0), tether_any_int(1),
                    tether_any_object(l)};
  CHECK_OK(call("ffi.ListReplaceSlice", a, 4, &r));
  CHECK_LIST(l, 1, 2, 3, 2, 3);
  a[1] = tether_any_int(0);
  a[2] = tether_any_int(5);
  CHECK_OK(call("ffi.ListReplaceSlice", a, 4, &r)); /* whole list by itself */
  CHECK_LIST(l, 1, 2, 3, 2, 3);
  a[1] = tether_any_int(5);
  a[2] = tether_any_int(5);
  CHECK_OK(call("ffi.ListReplaceSlice", a, 4, &r)); /* append itself */
  CHECK_LIST(l, 1, 2, 3, 2, 3, 1, 2, 3, 2, 3);

  /* The list's own element as the inserted value, across a reallocation. */
  TVMFFIObjectHandle objs = list_of(NULL, 0);
  TVMFFIAny s;
  CHECK_OK(tether_any_str("only held by the list", 21, &s));
  CHECK_OK(tether_list_append(objs, &s));
  tether_any_release(&s);
  for (int i = 0; i < 10; ++i) CHECK_OK(tether_list_insert(objs, 0, tether_list_at(objs, 0)));
  CHECK_OK(tether_list_set(objs, 0, tether_list_at(objs, 10)));
  CHECK_EQ_INT(tether_list_size(objs), 11);
  CHECK_EQ_INT(tether_object_use_count(tether_list_at(objs, 3)->v_obj), 11);
  TVMFFIObjectDecRef(objs);
  TVMFFIObjectDecRef(l);
}

static void test_list_reverse_clear_shared(void) {
  TVMFFIObjectHandle l = list_of((int64_t[]){1, 2, 3, 4}, 4);
  TVMFFIObjectHandle other = l; /* a second holder sees every change: lists are shared */
  TVMFFIObjectIncRef(other);
  TVMFFIAny r = tether_any_none();
  TVMFFIAny a = tether_any_object(l);
  CHECK_OK(call("ffi.ListReverse", &a, 1, &r));
  CHECK_LIST(other, 4, 3, 2, 1);
  CHECK_OK(call("ffi.ListClear", &a, 1, &r));
  CHECK_EQ_INT(tether_list_size(other), 0);
  CHECK_OK(call("ffi.ListReverse", &a, 1, &r));
  TVMFFIAny v = tether_any_int(5);
  CHECK_OK(tether_list_append(l, &v));
  CHECK_LIST(other, 5);
  TVMFFIObjectDecRef(other);
  TVMFFIObjectDecRef(l);
}

static int g_custom_frees;
static void custom_free(void* p) {
  g_custom_frees++;
  free(p);
}

static void test_list_buffer_deleter_is_free_compatible(void) {
  TVMFFIObjectHandle l = list_of((int64_t[]){1, 2}, 2);
  TVMFFISeqCell* cell = (TVMFFISeqCell*)((char*)l + 24);
  CHECK(cell->data_deleter == free);
  CHECK(cell->data != (char*)l + 56); /* a separate heap buffer */

  /* What C++ Reserve does: swap in its own buffer but keep our deleter. */
  TVMFFIAny* buffer = malloc(8 * sizeof(TVMFFIAny));
  memcpy(buffer, cell->data, 2 * sizeof(TVMFFIAny));
  free(cell->data);
  cell->data = buffer;
  cell->capacity = 8;
  TVMFFIAny v = tether_any_int(3);
  CHECK_OK(tether_list_append(l, &v));
  CHECK_LIST(l, 1, 2, 3);

  /* A List whose buffer has a foreign deleter: growth frees it through that deleter. */
  cell->data_deleter = custom_free;
  g_custom_frees = 0;
  for (int i = 0; i < 10; ++i) CHECK_OK(tether_list_append(l, &v));
  CHECK_EQ_INT(g_custom_frees, 1);
  CHECK(cell->data_deleter == free);
  CHECK_EQ_INT(tether_list_size(l), 13);
  TVMFFIObjectDecRef(l); /* valgrind/ASan check the buffers */
}

static void test_list_public_api_errors(void) {
  TVMFFIObjectHandle l = NULL;
  CHECK_OK(tether_list_new(NULL, 0, &l));
  TVMFFIAny v = tether_any_int(1), r = tether_any_none();
  CHECK_RAISED(tether_list_get(l, 0, &r), "IndexError", "Index 0 out of bounds 0");
  CHECK_RAISED(tether_list_set(l, 0, &v), "IndexError", "Index 0 out of bounds 0");
  CHECK_RAISED(tether_list_pop(l, 0, &r), "IndexError", "Index 0 out of bounds 0");
  CHECK_RAISED(tether_list_insert(l, 1, &v), "IndexError", "Index 1 out of bounds [0, 0]");
  CHECK_RAISED(tether_list_erase_range(l, 0, 1), "IndexError",
               "Erase range [0, 1) out of bounds 0");
  CHECK(tether_list_at(l, 0) == NULL);
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(NULL, 0, &arr));
  CHECK_RAISED(tether_list_append(arr, &v), "TypeError", "expected an ffi.List");
  CHECK_RAISED((int)tether_list_size(arr), "TypeError", "got ffi.Array");
  CHECK_RAISED(tether_list_clear(NULL), "TypeError", "NULL");
  CHECK_OK(tether_list_replace_slice(l, 0, 0, &v, 1));
  CHECK_LIST(l, 1);
  CHECK_OK(tether_list_reverse(l));
  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(l);
}

TEST_MAIN(TEST_CASE(test_list_construct_get_set_size), TEST_CASE(test_list_wrong_container_types),
          TEST_CASE(test_list_append_insert_pop_erase),
          TEST_CASE(test_list_erase_range_and_replace_slice),
          TEST_CASE(test_list_replace_slice_alias_safe), TEST_CASE(test_list_reverse_clear_shared),
          TEST_CASE(test_list_buffer_deleter_is_free_compatible),
          TEST_CASE(test_list_public_api_errors))
