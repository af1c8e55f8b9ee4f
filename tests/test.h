/*
 * test.h -- the C suite's tiny harness.  A test file defines `static void test_x(void)`
 * functions and lists them in TEST_MAIN(...).  CHECK* count failures without stopping;
 * every test must end with tether_object_live_count() back where it started (no leaked
 * objects), and the run ends with the line "N passed, N failed".
 */
#ifndef TETHER_TESTS_TEST_H_
#define TETHER_TESTS_TEST_H_

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/tether.h>

static int test__failures;
static int test__checks_failed_in_current;

#define CHECK(cond)                                                               \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);   \
      test__checks_failed_in_current++;                                           \
    }                                                                             \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                  \
  do {                                                                                      \
    long long test__a = (long long)(a), test__b = (long long)(b);                           \
    if (test__a != test__b) {                                                               \
      fprintf(stderr, "%s:%d: CHECK_EQ_INT failed: %s == %lld, %s == %lld\n", __FILE__,     \
              __LINE__, #a, test__a, #b, test__b);                                          \
      test__checks_failed_in_current++;                                                     \
    }                                                                                       \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                                  \
  do {                                                                                      \
    const char *test__a = (a), *test__b = (b);                                              \
    if (test__a == NULL || test__b == NULL || strcmp(test__a, test__b) != 0) {              \
      fprintf(stderr, "%s:%d: CHECK_EQ_STR failed: %s == \"%s\", %s == \"%s\"\n", __FILE__, \
              __LINE__, #a, test__a ? test__a : "(null)", #b, test__b ? test__b : "(null)"); \
      test__checks_failed_in_current++;                                                     \
    }                                                                                       \
  } while (0)

/* Equality of a TVMFFIByteArray with a C string. */
#define CHECK_BYTES(bytes, cstr)                                                            \
  do {                                                                                      \
    TVMFFIByteArray test__b = (bytes);                                                      \
    const char* test__s = (cstr);                                                           \
    if (test__b.size != strlen(test__s) || memcmp(test__b.data, test__s, test__b.size) != 0) { \
      fprintf(stderr, "%s:%d: CHECK_BYTES failed: %s == \"%.*s\", expected \"%s\"\n",       \
              __FILE__, __LINE__, #bytes, (int)test__b.size, test__b.data, test__s);        \
      test__checks_failed_in_current++;                                                     \
    }                                                                                       \
  } while (0)

/* Expects the last call to have returned -1 with an error of `kind` whose message contains
 * `needle`; consumes the raised error. */
#define CHECK_RAISED(rc, kind, needle)                                                      \
  do {                                                                                      \
    int test__rc = (rc);                                                                    \
    TVMFFIObjectHandle test__err = NULL;                                                    \
    TVMFFIErrorMoveFromRaised(&test__err);                                                  \
    if (test__rc != -1 || test__err == NULL) {                                              \
      fprintf(stderr, "%s:%d: expected an error %s, got rc=%d err=%p\n", __FILE__, __LINE__, \
              kind, test__rc, test__err);                                                   \
      test__checks_failed_in_current++;                                                     \
    } else {                                                                                \
      TVMFFIByteArray test__k = tether_error_kind(test__err);                               \
      TVMFFIByteArray test__m = tether_error_message(test__err);                            \
      if (test__k.size != strlen(kind) || memcmp(test__k.data, kind, test__k.size) != 0 ||  \
          strstr(test__m.data, (needle)) == NULL) {                                         \
        fprintf(stderr, "%s:%d: expected %s containing \"%s\", got %.*s: %.*s\n", __FILE__, \
                __LINE__, kind, (needle), (int)test__k.size, test__k.data,                  \
                (int)test__m.size, test__m.data);                                           \
        test__checks_failed_in_current++;                                                   \
      }                                                                                     \
    }                                                                                       \
    TVMFFIObjectDecRef(test__err);                                                          \
  } while (0)

/* Expects rc == 0; on failure prints the raised error. */
#define CHECK_OK(rc)                                                                        \
  do {                                                                                      \
    int test__rc = (rc);                                                                    \
    if (test__rc != 0) {                                                                    \
      TVMFFIObjectHandle test__err = NULL;                                                  \
      TVMFFIErrorMoveFromRaised(&test__err);                                                \
      TVMFFIByteArray test__k = {"", 0}, test__m = {"", 0};                                 \
      if (test__err) {                                                                      \
        test__k = tether_error_kind(test__err);                                             \
        test__m = tether_error_message(test__err);                                          \
      }                                                                                     \
      fprintf(stderr, "%s:%d: %s returned %d: %.*s: %.*s\n", __FILE__, __LINE__, #rc,       \
              test__rc, (int)test__k.size, test__k.data, (int)test__m.size, test__m.data);  \
      TVMFFIObjectDecRef(test__err);                                                        \
      test__checks_failed_in_current++;                                                     \
    }                                                                                       \
  } while (0)

typedef struct {
  const char* name;
  void (*fn)(void);
} test_case_t;

#define TEST_CASE(fn) {#fn, fn}

/* Calls global `name` with `n` views; *out receives an owning result.  The call's rc (-1
 * also when no such global exists). */
static inline int call_global(const char* name, const TVMFFIAny* args, int32_t n,
                              TVMFFIAny* out) {
  TVMFFIObjectHandle f = tether_func_get(name);
  if (f == NULL) return -1;
  *out = tether_any_none();
  int rc = tether_func_call(f, args, n, out);
  TVMFFIObjectDecRef(f);
  return rc;
}

static inline int test_run_all(const test_case_t* cases, size_t n) {
  int passed = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t live_before = tether_object_live_count();
    test__checks_failed_in_current = 0;
    cases[i].fn();
    int64_t leaked = tether_object_live_count() - live_before;
    if (leaked != 0) {
      fprintf(stderr, "%s: %" PRId64 " object(s) still alive at the end of the test\n",
              cases[i].name, leaked);
      test__checks_failed_in_current++;
    }
    if (test__checks_failed_in_current == 0) {
      passed++;
      printf("ok   %s\n", cases[i].name);
    } else {
      test__failures++;
      printf("FAIL %s\n", cases[i].name);
    }
  }
  printf("%d passed, %d failed\n", passed, test__failures);
  return test__failures == 0 ? 0 : 1;
}

#define TEST_MAIN(...)                                                  \
  int main(void) {                                                      \
    static const test_case_t cases[] = {__VA_ARGS__};                   \
    return test_run_all(cases, sizeof(cases) / sizeof(cases[0]));       \
  }

#endif /* TETHER_TESTS_TEST_H_ */
