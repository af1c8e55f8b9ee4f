/*
 * extra_test.h -- helpers shared by the test programs of the extra layer (test_structural,
 * test_recursive, test_visit, test_mutate, test_access_path, test_pyclass).  Include after
 * test.h.
 */
#ifndef TETHER_TESTS_FFI_EXTRA_TEST_H_
#define TETHER_TESTS_FFI_EXTRA_TEST_H_

#include <tether/container.h>
#include <tether/reflection.h>
#include <tether/structural.h>

#include "test.h"


/* Checks the ffi.ReprPrint text of `v`. */
static inline void check_repr(TVMFFIAny v, const char* expected) {
  TVMFFIAny text = tether_any_none();
  TVMFFIByteArray s = {"", 0};
  CHECK_OK(tether_repr(&v, &text));
  CHECK(tether_any_get_str(&text, &s));
  CHECK_BYTES(s, expected);
  tether_any_release(&text);
}

/* Releases a chain of single-element Arrays from the outside in (no deep recursion in the
 * test itself, whatever the library's release does). */
static inline void release_chain(TVMFFIObject* arr) {
  while (arr != NULL) {
    const TVMFFIAny* e = tether_array_at(arr, 0);
    TVMFFIObject* next = NULL;
    if (e != NULL && e->type_index == kTVMFFIArray) {
      next = e->v_obj;
      TVMFFIObjectIncRef(next);
    }
    TVMFFIObjectDecRef(arr);
    arr = next;
  }
}

/* A reflected tree-node type {a: Any}, registered under `key`. */
typedef struct {
  TVMFFIObject header;
  TVMFFIAny a;
} box_t;

static inline int32_t define_box_type(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t t = TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 0, kTVMFFIObject);
  tether_field_def_t a = {"a", TETHER_FIELD_ANY, offsetof(box_t, a), 0, 0, NULL, NULL};
  tether_type_def_field(t, &a);
  tether_type_def_finish(t, sizeof(box_t), NULL);
  return t;
}

#endif /* TETHER_TESTS_FFI_EXTRA_TEST_H_ */
