/*
 * expect.h -- the check macro of the compat programs that link no runtime (two_runtimes.c,
 * bind_kernels.c; tests/test.h needs libtether linked): EXPECT(cond, fmt, ...) prints
 * "ok: <what>" or "FAILED: <what>" and counts failures in `failures`.
 */
#ifndef TETHER_TESTS_COMPAT_EXPECT_H_
#define TETHER_TESTS_COMPAT_EXPECT_H_

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)                     \
  do {                                        \
    int expect__ok = (cond);                  \
    printf(expect__ok ? "ok: " : "FAILED: "); \
    printf(__VA_ARGS__);                      \
    printf("\n");                             \
    if (!expect__ok) failures++;              \
  } while (0)

#endif /* TETHER_TESTS_COMPAT_EXPECT_H_ */
