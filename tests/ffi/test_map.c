/*
 * test_map.c -- ffi.Map (72) and ffi.Dict (76): every ffi.Map* / ffi.Dict* global with its
 * errors (texts and kinds observed on apache-tvm-ffi 0.1.14), insertion order (also across
 * erase), copy-on-write of Maps, in-place Dicts, many string keys including equal
 * small-string and heap-string keys, the forward iterator, and the public API.
 */
#include <stdio.h>
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

static bool any_is_str(const TVMFFIAny* v, const char* s) {
  TVMFFIByteArray b;
  return tether_any_get_str(v, &b) && b.size == strlen(s) && memcmp(b.data, s, b.size) == 0;
}

/* A heap Str object with short content, as C++ code may produce ("abc" as a StringObj
 * rather than a SmallStr).  Static storage, NULL deleter: never freed, never counted. */
typedef struct {
  TVMFFIObject header;
  TVMFFIByteArray bytes;
} fake_str_t;

static TVMFFIAny fake_str(fake_str_t* s, const char* text) {
  memset(s, 0, sizeof(*s));
  s->header.combined_ref_count = 1 | (UINT64_C(1) << 32);
  s->header.type_index = kTVMFFIStr;
  s->bytes.data = text;
  s->bytes.size = strlen(text);
  return tether_any_object(&s->header);
}

/* Iterates `map` with ffi.<Kind>ForwardIterFunctor, writing "k=v," for int/str entries. */
static void iterate(const char* functor, TVMFFIObjectHandle map, char* out, size_t cap) {
  out[0] = '\0';
  TVMFFIAny m = tether_any_object(map), it = tether_any_none(), r = tether_any_none();
  TVMFFIAny size = tether_any_none();
  CHECK_OK(call(functor, &m, 1, &it));
  CHECK_EQ_INT(it.type_index, kTVMFFIFunction);
  CHECK_OK(call(strstr(functor, "Dict") ? "ffi.DictSize" : "ffi.MapSize", &m, 1, &size));
  for (int64_t i = 0; i < size.v_int64; ++i) {
    TVMFFIAny cmd = tether_any_int(0), key = tether_any_none(), value = tether_any_none();
    CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &key));
    cmd = tether_any_int(1);
    CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &value));
    char part[64];
    TVMFFIByteArray b;
    if (tether_any_get_str(&key, &b)) {
      snprintf(part, sizeof(part), "%.*s=%lld,", (int)b.size, b.data, (long long)value.v_int64);
    } else {
      snprintf(part, sizeof(part), "%lld=%lld,", (long long)key.v_int64, (long long)value.v_int64);
    }
    strncat(out, part, cap - strlen(out) - 1);
    tether_any_release(&key);
    tether_any_release(&value);
    cmd = tether_any_int(2);
    CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &r));
    CHECK_EQ_INT(r.type_index, kTVMFFIBool);
    CHECK_EQ_INT(r.v_int64, i + 1 < size.v_int64 ? 1 : 0);
  }
  tether_any_release(&it);
}

static void test_map_constructor_and_lookups(void) {
  TVMFFIAny kv[6] = {tether_any_raw_str("b"), tether_any_int(2), tether_any_raw_str("a"),
                     tether_any_int(1), tether_any_raw_str("a key longer than 7"),
                     tether_any_int(3)};
  TVMFFIAny m = tether_any_none(), r = tether_any_none();
  CHECK_OK(call("ffi.Map", kv, 6, &m));
  CHECK_EQ_INT(m.type_index, kTVMFFIMap);
  CHECK_OK(call("ffi.MapSize", &m, 1, &r));
  CHECK_EQ_INT(r.v_int64, 3);

  TVMFFIAny a[2] = {m, tether_any_raw_str("a")};
  CHECK_OK(call("ffi.MapGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 1);
  a[1] = tether_any_raw_str("a key longer than 7");
  CHECK_OK(call("ffi.MapGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 3);
  CHECK_OK(call("ffi.MapCount", a, 2, &r));
  CHECK_EQ_INT(r.type_index, kTVMFFIInt);
  CHECK_EQ_INT(r.v_int64, 1);
  a[1] = tether_any_raw_str("c");
  CHECK_OK(call("ffi.MapCount", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 0);
  CHECK_RAISED(call("ffi.MapGetItem", a, 2, &r), "KeyError", "key is not in Map");

  /* GetItemOrMissing: the value, or the very object ffi.GetInvalidObject returns. */
  TVMFFIAny missing = tether_any_none(), got = tether_any_none();
  CHECK_OK(call("ffi.GetInvalidObject", NULL, 0, &missing));
  CHECK_OK(call("ffi.MapGetItemOrMissing", a, 2, &got));
  CHECK(tether_any_is_object(&got) && got.v_obj == missing.v_obj);
  tether_any_release(&got);
  a[1] = tether_any_raw_str("b");
  CHECK_OK(call("ffi.MapGetItemOrMissing", a, 2, &got));
  CHECK_EQ_INT(got.v_int64, 2);
  tether_any_release(&missing);

  char text[256];
  iterate("ffi.MapForwardIterFunctor", m.v_obj, text, sizeof(text));
  CHECK_EQ_STR(text, "b=2,a=1,a key longer than 7=3,");
  tether_any_release(&m);
}

static void test_map_constructor_errors_and_duplicates(void) {
  TVMFFIAny kv[4] = {tether_any_int(1), tether_any_int(2), tether_any_int(1), tether_any_int(3)};
  TVMFFIAny r = tether_any_none();
  CHECK_RAISED(call("ffi.Map", kv, 1, &r), "InternalError",
               "Check failed: args.size() % 2 == 0 (1 vs. 0) : ");
  CHECK_RAISED(call("ffi.Map", kv, 3, &r), "InternalError", "Check failed: args.size() % 2 == 0");
  CHECK_RAISED(call("ffi.Dict", kv, 3, &r), "InternalError", "Check failed: args.size() % 2 == 0");
  /* A repeated key keeps the last value (observed). */
  CHECK_OK(call("ffi.Map", kv, 4, &r));
  TVMFFIAny a[2] = {r, tether_any_int(1)}, v = tether_any_none();
  CHECK_OK(call("ffi.MapSize", &r, 1, &v));
  CHECK_EQ_INT(v.v_int64, 1);
  CHECK_OK(call("ffi.MapGetItem", a, 2, &v));
  CHECK_EQ_INT(v.v_int64, 3);
  tether_any_release(&r);
  TVMFFIAny empty = tether_any_none();
  CHECK_OK(call("ffi.Map", NULL, 0, &empty));
  CHECK_OK(call("ffi.MapSize", &empty, 1, &v));
  CHECK_EQ_INT(v.v_int64, 0);
  a[0] = empty;
  CHECK_RAISED(call("ffi.MapGetItem", a, 2, &v), "KeyError", "key is not in Map");
  tether_any_release(&empty);
}

static void test_map_key_types_follow_any_equal(void) {
  /* int 1, bool true and float 1.0 are three different keys. */
  TVMFFIAny kv[6] = {tether_any_int(1), tether_any_int(10), tether_any_bool(true),
                     tether_any_int(20), tether_any_float(1.0), tether_any_int(30)};
  TVMFFIObjectHandle m = NULL;
  CHECK_OK(tether_map_new(kv, 3, &m));
  CHECK_EQ_INT(tether_map_size(m), 3);
  CHECK_EQ_INT(tether_map_find(m, &kv[0])->v_int64, 10);
  CHECK_EQ_INT(tether_map_find(m, &kv[2])->v_int64, 20);
  CHECK_EQ_INT(tether_map_find(m, &kv[4])->v_int64, 30);
  TVMFFIAny none = tether_any_none();
  CHECK(tether_map_find(m, &none) == NULL);
  TVMFFIObjectDecRef(m);
}

static void test_map_type_errors(void) {
  TVMFFIAny m = tether_any_none(), d = tether_any_none(), arr = tether_any_none();
  TVMFFIAny r = tether_any_none();
  CHECK_OK(call("ffi.Map", NULL, 0, &m));
  CHECK_OK(call("ffi.Dict", NULL, 0, &d));
  CHECK_OK(call("ffi.Array", NULL, 0, &arr));
  TVMFFIAny a[3] = {arr, tether_any_int(1), tether_any_int(2)};
  CHECK_RAISED(call("ffi.MapGetItem", a, 2, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.MapGetItem(0: ffi.Map, 1: Any) "
               "-> Any`. Expected `ffi.Map` but got `ffi.Array`");
  a[0] = d;
  CHECK_RAISED(call("ffi.MapGetItem", a, 2, &r), "TypeError",
               "Expected `ffi.Map` but got `ffi.Dict`");
  a[0] = m;
  CHECK_RAISED(call("ffi.DictGetItem", a, 2, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `ffi.DictGetItem(0: ffi.Dict, 1: "
               "Any) -> Any`. Expected `ffi.Dict` but got `ffi.Map`");
  a[0] = tether_any_int(1);
  CHECK_RAISED(call("ffi.DictSetItem", a, 3, &r), "TypeError",
               "`ffi.DictSetItem(0: Dict<Any, Any>, 1: Any, 2: Any) -> void`. Expected "
               "`Dict<Any, Any>` but got `int`");
  CHECK_RAISED(call("ffi.DictErase", a, 2, &r), "TypeError",
               "`ffi.DictErase(0: Dict<Any, Any>, 1: Any) -> void`. Expected `Dict<Any, Any>`");
  CHECK_RAISED(call("ffi.DictClear", a, 1, &r), "TypeError",
               "`ffi.DictClear(0: Dict<Any, Any>) -> void`. Expected `Dict<Any, Any>` but got "
               "`int`");
  CHECK_RAISED(call("ffi.MapForwardIterFunctor", a, 1, &r), "TypeError",
               "`ffi.MapForwardIterFunctor(0: ffi.Map) -> ffi.Function`. Expected `ffi.Map` but "
               "got `int`");
  const char* names[] = {"ffi.MapSize",  "ffi.MapCount",  "ffi.MapGetItemOrMissing",
                         "ffi.DictSize", "ffi.DictCount", "ffi.DictGetItemOrMissing",
                         "ffi.DictForwardIterFunctor"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
    CHECK_RAISED(call(names[i], a, 2, &r), "TypeError", "Mismatched");
    CHECK_RAISED(call(names[i], a, 0, &r), "TypeError", "Mismatched number of arguments");
  }
  tether_any_release(&m);
  tether_any_release(&d);
  tether_any_release(&arr);
}

static void test_dict_in_place(void) {
  TVMFFIAny kv[2] = {tether_any_raw_str("a"), tether_any_int(1)};
  TVMFFIAny d = tether_any_none(), r = tether_any_none();
  CHECK_OK(call("ffi.Dict", kv, 2, &d));
  CHECK_EQ_INT(d.type_index, kTVMFFIDict);
  TVMFFIObjectHandle other = d.v_obj; /* a second holder sees the changes */
  TVMFFIObjectIncRef(other);
  TVMFFIAny a[3] = {d, tether_any_raw_str("c"), tether_any_int(3)};
  CHECK_RAISED(call("ffi.DictGetItem", a, 2, &r), "KeyError", "key is not in Map");
  CHECK_OK(call("ffi.DictErase", a, 2, &r)); /* absent key: no error */
  CHECK_EQ_INT(r.type_index, kTVMFFINone);
  CHECK_OK(call("ffi.DictSetItem", a, 3, &r));
  CHECK_EQ_INT(tether_map_size(other), 2);
  CHECK_OK(call("ffi.DictGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 3);
  CHECK_OK(call("ffi.DictCount", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 1);
  /* Overwriting keeps the position. */
  a[1] = tether_any_raw_str("a");
  a[2] = tether_any_int(100);
  CHECK_OK(call("ffi.DictSetItem", a, 3, &r));
  char text[128];
  iterate("ffi.DictForwardIterFunctor", other, text, sizeof(text));
  CHECK_EQ_STR(text, "a=100,c=3,");
  TVMFFIAny missing = tether_any_none(), got = tether_any_none();
  CHECK_OK(call("ffi.GetInvalidObject", NULL, 0, &missing));
  a[1] = tether_any_raw_str("zz");
  CHECK_OK(call("ffi.DictGetItemOrMissing", a, 2, &got));
  CHECK(got.v_obj == missing.v_obj);
  tether_any_release(&got);
  tether_any_release(&missing);
  CHECK_OK(call("ffi.DictClear", a, 1, &r));
  CHECK_OK(call("ffi.DictSize", a, 1, &r));
  CHECK_EQ_INT(r.v_int64, 0);
  CHECK_EQ_INT(tether_map_size(other), 0);
  a[1] = tether_any_raw_str("after clear");
  a[2] = tether_any_int(1);
  CHECK_OK(call("ffi.DictSetItem", a, 3, &r));
  iterate("ffi.DictForwardIterFunctor", other, text, sizeof(text));
  CHECK_EQ_STR(text, "after clear=1,");
  TVMFFIObjectDecRef(other);
  tether_any_release(&d);
}

static void test_erase_keeps_order(void) {
  TVMFFIObjectHandle d = NULL;
  CHECK_OK(tether_dict_new(NULL, 0, &d));
  for (int64_t i = 0; i < 10; ++i) {
    TVMFFIAny k = tether_any_int(i), v = tether_any_int(i * i);
    CHECK_OK(tether_dict_set(d, &k, &v));
  }
  for (int64_t i = 0; i < 10; i += 2) {
    TVMFFIAny k = tether_any_int(i);
    TVMFFIAny a[2] = {tether_any_object(d), k}, r = tether_any_none();
    CHECK_OK(call("ffi.DictErase", a, 2, &r));
  }
  char text[256];
  iterate("ffi.DictForwardIterFunctor", d, text, sizeof(text));
  CHECK_EQ_STR(text, "1=1,3=9,5=25,7=49,9=81,");
  /* Re-inserted keys go to the end; many erase/insert rounds compact without reordering. */
  TVMFFIAny k = tether_any_int(0), v = tether_any_int(-1);
  CHECK_OK(tether_dict_set(d, &k, &v));
  for (int round = 0; round < 50; ++round) {
    TVMFFIAny t = tether_any_int(1000 + round), w = tether_any_int(round);
    CHECK_OK(tether_dict_set(d, &t, &w));
    CHECK_OK(tether_dict_erase(d, &t));
  }
  iterate("ffi.DictForwardIterFunctor", d, text, sizeof(text));
  CHECK_EQ_STR(text, "1=1,3=9,5=25,7=49,9=81,0=-1,");
  /* Public iteration agrees. */
  int64_t pos = 0, count = 0;
  const TVMFFIAny *key, *value;
  while (tether_map_next(d, &pos, &key, &value)) ++count;
  CHECK_EQ_INT(count, 6);
  TVMFFIObjectDecRef(d);
}

static void test_many_string_keys_small_and_heap(void) {
  enum { N = 3000 };
  TVMFFIObjectHandle d = NULL;
  CHECK_OK(tether_dict_new(NULL, 0, &d));
  char buf[32];
  for (int i = 0; i < N; ++i) {
    /* Short keys ("k0".."k99999": <= 7 bytes, SmallStr) and long ones (heap Str). */
    if (i % 2) {
      snprintf(buf, sizeof(buf), "k%d", i);
    } else {
      snprintf(buf, sizeof(buf), "a long key number %d", i);
    }
    TVMFFIAny k = tether_any_raw_str(buf), v = tether_any_int(i);
    CHECK_OK(tether_dict_set(d, &k, &v));
  }
  CHECK_EQ_INT(tether_map_size(d), N);
  for (int i = 0; i < N; ++i) {
    if (i % 2) {
      snprintf(buf, sizeof(buf), "k%d", i);
    } else {
      snprintf(buf, sizeof(buf), "a long key number %d", i);
    }
    TVMFFIAny k = tether_any_raw_str(buf);
    const TVMFFIAny* v = tether_map_find(d, &k);
    CHECK(v != NULL && v->v_int64 == i);
  }
  /* A heap Str "k7" equals the SmallStr key "k7": same entry for lookup and overwrite. */
  fake_str_t heap;
  TVMFFIAny hk = fake_str(&heap, "k7");
  CHECK_EQ_INT(tether_map_find(d, &hk)->v_int64, 7);
  TVMFFIAny a[3] = {tether_any_object(d), hk, tether_any_int(-7)}, r = tether_any_none();
  CHECK_OK(call("ffi.DictGetItem", a, 2, &r));
  CHECK_EQ_INT(r.v_int64, 7);
  CHECK_OK(call("ffi.DictSetItem", a, 3, &r));
  CHECK_EQ_INT(tether_map_size(d), N);
  TVMFFIAny small = tether_any_raw_str("k7");
  CHECK_EQ_INT(tether_map_find(d, &small)->v_int64, -7);
  /* The stored key stayed the original SmallStr (the heap one was not kept). */
  int64_t pos = 0;
  const TVMFFIAny *key, *value;
  while (tether_map_next(d, &pos, &key, &value)) {
    if (value->v_int64 == -7) CHECK_EQ_INT(key->type_index, kTVMFFISmallStr);
  }
  /* And the other way: a heap-string key inserted first is found by a small string. */
  TVMFFIObjectHandle m = NULL;
  fake_str_t heap2;
  TVMFFIAny kv[2] = {fake_str(&heap2, "xyz"), tether_any_int(5)};
  CHECK_OK(tether_map_new(kv, 1, &m));
  TVMFFIAny probe = tether_any_raw_str("xyz");
  CHECK(tether_map_find(m, &probe) != NULL);
  TVMFFIAny owned_small;
  CHECK_OK(tether_any_str("xyz", 3, &owned_small));
  CHECK_EQ_INT(owned_small.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(tether_map_find(m, &owned_small)->v_int64, 5);
  /* Erase half of the big dict, the rest is still found. */
  for (int i = 0; i < N; i += 2) {
    snprintf(buf, sizeof(buf), "a long key number %d", i);
    TVMFFIAny k = tether_any_raw_str(buf);
    CHECK_OK(tether_dict_erase(d, &k));
  }
  CHECK_EQ_INT(tether_map_size(d), N / 2);
  snprintf(buf, sizeof(buf), "k%d", N - 1);
  TVMFFIAny k = tether_any_raw_str(buf);
  CHECK_EQ_INT(tether_map_find(d, &k)->v_int64, N - 1);
  TVMFFIObjectDecRef(m);
  TVMFFIObjectDecRef(d);
}

static void test_map_copy_on_write(void) {
  TVMFFIAny kv[4] = {tether_any_raw_str("a"), tether_any_int(1), tether_any_raw_str("b"),
                     tether_any_int(2)};
  TVMFFIObjectHandle m = NULL;
  CHECK_OK(tether_map_new(kv, 2, &m));
  TVMFFIObjectHandle shared = m;
  TVMFFIObjectIncRef(shared);
  TVMFFIAny k = tether_any_raw_str("c"), v = tether_any_int(3);
  CHECK_OK(tether_map_set(&m, &k, &v));
  CHECK(m != shared);
  CHECK_EQ_INT(tether_map_size(m), 3);
  CHECK_EQ_INT(tether_map_size(shared), 2);
  CHECK(tether_map_find(shared, &k) == NULL);
  TVMFFIAny a = tether_any_raw_str("a");
  CHECK_OK(tether_map_erase(&shared, &a)); /* sole owner now: in place */
  CHECK_EQ_INT(tether_map_size(shared), 1);
  CHECK_EQ_INT(tether_map_size(m), 3);
  /* Sole owner: written in place. */
  TVMFFIObjectHandle before = m;
  v = tether_any_int(30);
  CHECK_OK(tether_map_set(&m, &k, &v));
  CHECK(m == before);
  TVMFFIAny r = tether_any_none();
  CHECK_OK(tether_map_get(m, &k, &r));
  CHECK_EQ_INT(r.v_int64, 30);
  CHECK_RAISED(tether_map_get(shared, &k, &r), "KeyError", "key is not in Map");
  /* A shared map erasing an absent key is left alone. */
  TVMFFIObjectIncRef(m);
  TVMFFIObjectHandle m2 = m;
  TVMFFIAny zz = tether_any_raw_str("zz");
  CHECK_OK(tether_map_erase(&m2, &zz));
  CHECK(m2 == m);
  CHECK_OK(tether_map_erase(&m2, &a));
  CHECK(m2 != m);
  CHECK_EQ_INT(tether_map_size(m2), 2);
  CHECK_EQ_INT(tether_map_size(m), 3);
  TVMFFIObjectDecRef(m2);
  TVMFFIObjectDecRef(shared);
  TVMFFIObjectDecRef(m);
}

static void test_iterator_edges(void) {
  TVMFFIAny kv[2] = {tether_any_raw_str("a"), tether_any_int(1)};
  TVMFFIAny m = tether_any_none(), it = tether_any_none(), r = tether_any_none();
  CHECK_OK(call("ffi.Map", kv, 2, &m));
  CHECK_OK(call("ffi.MapForwardIterFunctor", &m, 1, &it));
  TVMFFIAny cmd = tether_any_int(0);
  CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &r));
  CHECK(any_is_str(&r, "a"));
  CHECK_EQ_INT(r.type_index, kTVMFFISmallStr);
  cmd = tether_any_int(7);
  CHECK_RAISED(tether_func_call(it.v_obj, &cmd, 1, &r), "ValueError", "unknown command 7");
  cmd = tether_any_raw_str("x");
  CHECK_RAISED(tether_func_call(it.v_obj, &cmd, 1, &r), "TypeError",
               "Mismatched type on argument #0 when calling: `(0: int) -> Any`. Expected `int` "
               "but got `const char*`");
  CHECK_RAISED(tether_func_call(it.v_obj, NULL, 0, &r), "TypeError",
               "Mismatched number of arguments when calling: `(0: int) -> Any`. Expected 1 but "
               "got 0 arguments");
  cmd = tether_any_int(2);
  CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &r));
  CHECK_EQ_INT(r.v_int64, 0);
  /* Past the end: the reference crashes here; we raise. */
  CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &r));
  CHECK_EQ_INT(r.v_int64, 0);
  cmd = tether_any_int(1);
  CHECK_RAISED(tether_func_call(it.v_obj, &cmd, 1, &r), "IndexError", "past the end");
  /* The iterator keeps the map alive. */
  tether_any_release(&m);
  tether_any_release(&it);

  /* An empty Dict: at the end from the start; a Dict cleared while iterated. */
  TVMFFIAny d = tether_any_none();
  CHECK_OK(call("ffi.Dict", NULL, 0, &d));
  CHECK_OK(call("ffi.DictForwardIterFunctor", &d, 1, &it));
  cmd = tether_any_int(0);
  CHECK_RAISED(tether_func_call(it.v_obj, &cmd, 1, &r), "IndexError", "past the end");
  TVMFFIAny set[3] = {d, tether_any_int(1), tether_any_int(2)};
  CHECK_OK(call("ffi.DictSetItem", set, 3, &r));
  CHECK_OK(tether_func_call(it.v_obj, &cmd, 1, &r)); /* sees the new entry */
  CHECK_EQ_INT(r.v_int64, 1);
  CHECK_OK(call("ffi.DictClear", &d, 1, &r));
  CHECK_RAISED(tether_func_call(it.v_obj, &cmd, 1, &r), "IndexError", "past the end");
  tether_any_release(&it);
  tether_any_release(&d);
}

static void test_map_public_api_errors(void) {
  TVMFFIObjectHandle h = NULL;
  CHECK_RAISED(tether_map_new(NULL, 1, &h), "ValueError", "tether_map_new");
  TVMFFIObjectHandle arr = NULL;
  CHECK_OK(tether_array_new(NULL, 0, &arr));
  TVMFFIAny k = tether_any_int(1), r = tether_any_none();
  CHECK_RAISED((int)tether_map_size(arr), "TypeError", "expected an ffi.Map or ffi.Dict");
  CHECK_RAISED(tether_map_get(arr, &k, &r), "TypeError", "got ffi.Array");
  CHECK(tether_map_find(arr, &k) == NULL);
  int64_t pos = 0;
  CHECK(!tether_map_next(arr, &pos, NULL, NULL));
  TVMFFIObjectHandle m = NULL;
  CHECK_OK(tether_map_new(NULL, 0, &m));
  CHECK_RAISED(tether_dict_set(m, &k, &k), "TypeError", "expected an ffi.Dict");
  CHECK_RAISED(tether_dict_clear(m), "TypeError", "got ffi.Map");
  CHECK_RAISED(tether_map_set(&arr, &k, &k), "TypeError", "tether_map_set");
  TVMFFIObjectDecRef(m);
  TVMFFIObjectDecRef(arr);
}

TEST_MAIN(TEST_CASE(test_map_constructor_and_lookups),
          TEST_CASE(test_map_constructor_errors_and_duplicates),
          TEST_CASE(test_map_key_types_follow_any_equal), TEST_CASE(test_map_type_errors),
          TEST_CASE(test_dict_in_place), TEST_CASE(test_erase_keeps_order),
          TEST_CASE(test_many_string_keys_small_and_heap), TEST_CASE(test_map_copy_on_write),
          TEST_CASE(test_iterator_edges), TEST_CASE(test_map_public_api_errors))
