/*
 * failalloc.h -- a fail-Nth allocator for the C tests' out-of-memory paths.
 *
 * A test program that includes this header defines malloc/calloc/realloc/posix_memalign/
 * free, which libtether's calls bind to (it is a shared library; the executable comes
 * first in symbol lookup); they forward to the next definition (libc's, or the
 * sanitizer's) except that, once armed with fail_nth(n), the nth allocation made by the
 * arming thread returns NULL; and malloc_usable_size, which keeps libtether's block cache
 * empty.  injection_works() says whether the injection reaches
 * libtether at all (not under valgrind or ASan, whose allocators replace these).
 * Include it from exactly one file of a test program, after test.h.
 */
#ifndef TETHER_TESTS_FAILALLOC_H_
#define TETHER_TESTS_FAILALLOC_H_

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "test.h"

/* > 0: allocations left before the one that fails; 0: disarmed. */
static _Atomic long countdown;
static pthread_t armed_thread;

/* Under AddressSanitizer the sanitizer owns malloc and calls into it before this file's
 * definitions could resolve the next ones: there the allocator is left alone and the
 * sweeps are skipped (injection_works). */
#if !defined(__SANITIZE_ADDRESS__)

static void* (*real_malloc)(size_t);
static void* (*real_calloc)(size_t, size_t);
static void* (*real_realloc)(void*, size_t);
static int (*real_posix_memalign)(void**, size_t, size_t);

/* The build hides symbols by default; these must be seen by libtether. */
#define TEST_EXPORT __attribute__((visibility("default")))

/* dlsym may allocate before the real functions are known: serve that from here. */
static _Alignas(16) char bootstrap_buf[4096];
static size_t bootstrap_used;
static _Atomic int resolving;

static void resolve(void) {
  if (real_malloc != NULL) return;
  atomic_store(&resolving, 1);
  real_malloc = (void* (*)(size_t))dlsym(RTLD_NEXT, "malloc");
  real_calloc = (void* (*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  real_realloc = (void* (*)(void*, size_t))dlsym(RTLD_NEXT, "realloc");
  real_posix_memalign = (int (*)(void**, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  atomic_store(&resolving, 0);
}

static void* bootstrap_alloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (bootstrap_used + n > sizeof(bootstrap_buf)) return NULL;
  void* p = bootstrap_buf + bootstrap_used;
  bootstrap_used += n;
  return p;
}

static int is_bootstrap(const void* p) {
  return (const char*)p >= bootstrap_buf && (const char*)p < bootstrap_buf + sizeof(bootstrap_buf);
}

/* true if this allocation is the one to fail (only on the thread that armed it). */
static int should_fail(void) {
  if (atomic_load_explicit(&countdown, memory_order_relaxed) == 0) return 0;
  if (!pthread_equal(pthread_self(), armed_thread)) return 0;
  if (atomic_fetch_sub(&countdown, 1) != 1) return 0;
  return 1;
}

TEST_EXPORT void* malloc(size_t n) {
  if (atomic_load(&resolving)) return bootstrap_alloc(n);
  resolve();
  return should_fail() ? NULL : real_malloc(n);
}

TEST_EXPORT void* calloc(size_t n, size_t size) {
  if (atomic_load(&resolving)) return bootstrap_alloc(n * size); /* static: already zero */
  resolve();
  return should_fail() ? NULL : real_calloc(n, size);
}

TEST_EXPORT void* realloc(void* p, size_t n) {
  resolve();
  if (should_fail()) return NULL;
  if (is_bootstrap(p)) {
    void* q = real_malloc(n);
    size_t avail = (size_t)(bootstrap_buf + sizeof(bootstrap_buf) - (char*)p);
    if (q != NULL) memcpy(q, p, n < avail ? n : avail);
    return q;
  }
  return real_realloc(p, n);
}

TEST_EXPORT int posix_memalign(void** out, size_t alignment, size_t n) {
  resolve();
  return should_fail() ? 12 /* ENOMEM */ : real_posix_memalign(out, alignment, n);
}

TEST_EXPORT void free(void* p) {
  static void (*real_free)(void*);
  if (p == NULL || is_bootstrap(p)) return;
  if (real_free == NULL) real_free = (void (*)(void*))dlsym(RTLD_NEXT, "free");
  real_free(p);
}

/* libtether's block cache (src/ffi/object.c) keeps a freed block only when
 * malloc_usable_size says how big it is: reporting 0 keeps the cache empty, so every
 * allocation reaches malloc above and fail_nth counts them all. */
TEST_EXPORT size_t malloc_usable_size(void* p) {
  (void)p;
  return 0;
}

#endif /* !__SANITIZE_ADDRESS__ */

/* Makes the n-th allocation from now on (this thread only) fail. */
static void fail_nth(long n) {
  armed_thread = pthread_self();
  atomic_store(&countdown, n);
}

/* Disarms; returns true if the armed failure happened. */
static int disarm(void) {
  long left = atomic_exchange(&countdown, 0);
  return left == 0;
}

/* false when libtether's allocations do not reach the functions above: under valgrind,
 * whose allocator replaces malloc in the executable too.  The sweeps are skipped then. */
static int injection_works(void) {
  TVMFFIByteArray kind = {"RuntimeError", 12}, msg = {"probe", 5}, bt = {"", 0};
  TVMFFIObjectHandle e = NULL;
  fail_nth(1);
  int rc = TVMFFIErrorCreate(&kind, &msg, &bt, &e);
  int injected = disarm();
  if (rc == 0) TVMFFIObjectDecRef(e);
  TVMFFIErrorMoveFromRaised(&e);
  TVMFFIObjectDecRef(e);
  return injected && rc != 0;
}

#endif /* TETHER_TESTS_FAILALLOC_H_ */
