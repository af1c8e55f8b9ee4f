/*
 * backtrace.c -- TVMFFIBacktrace: the text of the calling thread's C stack, in the
 * convention of spec 1.7 (one line per frame, most recent call first):
 *
 *     File "<file>", line <n>, in <func>\n             (each line indented by two spaces)
 *
 * 1. The given frame, when both `filename` and `func` are non-NULL (as tvm-ffi does):
 *        File "src/ffi/object.c", line 42, in TVMFFIObjectCreateOpaque
 * 2. Then the C call stack (glibc backtrace() + dladdr(); no debug info is read, so the
 *    line is always 0 and the file is the shared object or executable holding the frame):
 *        File "/path/libtether.so.0", line 0, in TVMFFIObjectDecRef+0x4c
 *            an exported symbol, with the return address' offset from its start;
 *        File "/path/ffi_test_backtrace", line 0, in 0x2f31
 *            no exported symbol (static or hidden function, or an executable linked
 *            without -rdynamic): the offset within the object, for `addr2line -e <file>`;
 *        File "<unknown>", line 0, in 0x7f12a4c0e2f1
 *            an address outside any loaded object: the absolute address.
 *    Every line matches tvm_ffi's Python parser (`File "(.+?)", line (\d+), in (.+)`), so
 *    the binding shows C frames in Python tracebacks; a line of 0 displays no source.
 *
 * Frames left out of (2): those of the error/backtrace machinery (functions marked
 * TETHER_BACKTRACE_HIDDEN, see error.h); the first C frame when its symbol is the given
 * frame's `func` (it is the same call).  Unless `cross_ffi_boundary`, the walk stops at the
 * frame of TVMFFIFunctionCall or of the Python C API, so a binding shows only the callee's
 * C frames.  Frames are limited by env TVM_TRACEBACK_LIMIT (default 512, counting the
 * given frame, which is always printed; at most TETHER_BT_MAX_FRAMES).
 *
 * Memory: one lazily allocated state per thread (freed at thread exit, or by fini for the
 * unloading thread) holding the frame array and the text, which grows up to
 * TETHER_BT_MAX_TEXT and then stops at a line boundary.  If the state cannot be had (out
 * of memory, after fini) the result is the given frame alone, from a small thread-local
 * buffer.  Thread-safe; not async-signal-safe.  errno is preserved.
 */
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"
#include "error.h"

#define TETHER_BT_DEFAULT_LIMIT 512
#define TETHER_BT_MAX_FRAMES 2048
/* Frames walked beyond the limit, to make up for the machinery frames left out. */
#define TETHER_BT_SLACK 32
#define TETHER_BT_MAX_TEXT ((size_t)1 << 20)
#define TETHER_BT_LINE "  File \"%s\", line %d, in %s\n"

typedef struct {
  char* text; /* NUL-terminated after every call */
  size_t len;
  size_t cap;
  void* pcs[TETHER_BT_MAX_FRAMES + TETHER_BT_SLACK];
} tether_bt_state_t;

/* Frees a thread's state at its exit.  Created once, lazily (init forces it and warms
 * up the unwinder); after fini no state is handed out. */
static pthread_key_t tether__bt_key;
static pthread_once_t tether__bt_key_once = PTHREAD_ONCE_INIT;
enum { TETHER_BT_KEY_NONE, TETHER_BT_KEY_READY, TETHER_BT_KEY_GONE };
static _Atomic int tether__bt_key_state;
/* The ByteArray handed out, and the text of the no-state fallback. */
static _Thread_local TVMFFIByteArray tether__bt_result;
static _Thread_local char tether__bt_fallback[512];

/* Bounds of the tether_bt_text section (defined by the linker, see error.h). */
extern const char __start_tether_bt_text[] __attribute__((visibility("hidden")));
extern const char __stop_tether_bt_text[] __attribute__((visibility("hidden")));

static void tether__bt_state_free(void* p) {
  tether_bt_state_t* st = p;
  if (st == NULL) return;
  free(st->text);
  free(st);
}

static void tether__bt_key_create(void) {
  int ok = pthread_key_create(&tether__bt_key, tether__bt_state_free) == 0;
  /* glibc loads its unwinder (libgcc_s) on the first backtrace(): do it now rather than
   * in the middle of raising an error. */
  void* warm[1];
  backtrace(warm, 1);
  atomic_store(&tether__bt_key_state, ok ? TETHER_BT_KEY_READY : TETHER_BT_KEY_GONE);
}

int tether__backtrace_init(void) {
  pthread_once(&tether__bt_key_once, tether__bt_key_create);
  if (atomic_load(&tether__bt_key_state) != TETHER_BT_KEY_READY) {
    fprintf(stderr, "libtether: pthread_key_create failed for the backtrace buffers\n");
    return -1;
  }
  return 0;
}

void tether__backtrace_fini(void) {
  if (atomic_exchange(&tether__bt_key_state, TETHER_BT_KEY_GONE) != TETHER_BT_KEY_READY) return;
  tether__bt_state_free(pthread_getspecific(tether__bt_key));
  pthread_setspecific(tether__bt_key, NULL);
  pthread_key_delete(tether__bt_key);
}

/* This thread's state, created on first use; NULL if unavailable. */
static tether_bt_state_t* tether__bt_state(void) {
  pthread_once(&tether__bt_key_once, tether__bt_key_create);
  if (atomic_load_explicit(&tether__bt_key_state, memory_order_acquire) != TETHER_BT_KEY_READY) {
    return NULL;
  }
  tether_bt_state_t* st = pthread_getspecific(tether__bt_key);
  if (st != NULL) return st;
  st = calloc(1, sizeof(*st));
  if (st == NULL) return NULL;
  if (pthread_setspecific(tether__bt_key, st) != 0) {
    free(st);
    return NULL;
  }
  return st;
}

/* Makes room for `extra` more bytes plus the NUL; false past TETHER_BT_MAX_TEXT or OOM. */
static bool tether__bt_reserve(tether_bt_state_t* st, size_t extra) {
  size_t need = st->len + extra + 1;
  if (need <= st->cap) return true;
  if (need > TETHER_BT_MAX_TEXT) return false;
  size_t cap = st->cap != 0 ? st->cap : 1024;
  while (cap < need) cap *= 2;
  if (cap > TETHER_BT_MAX_TEXT) cap = TETHER_BT_MAX_TEXT;
  char* text = realloc(st->text, cap);
  if (text == NULL) return false;
  st->text = text;
  st->cap = cap;
  return true;
}

/* Appends one whole line, or nothing (returning false) if it does not fit. */
__attribute__((format(printf, 2, 3))) static bool tether__bt_appendf(tether_bt_state_t* st,
                                                                      const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || !tether__bt_reserve(st, (size_t)n)) return false;
  va_start(ap, fmt);
  vsnprintf(st->text + st->len, st->cap - st->len, fmt, ap);
  va_end(ap);
  st->len += (size_t)n;
  return true;
}

/* TVM_TRACEBACK_LIMIT, or the default when unset or not a non-negative integer. */
static long tether__bt_limit(void) {
  const char* s = getenv("TVM_TRACEBACK_LIMIT");
  if (s == NULL) return TETHER_BT_DEFAULT_LIMIT;
  char* end = NULL;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < 0) return TETHER_BT_DEFAULT_LIMIT;
  return v > TETHER_BT_MAX_FRAMES ? TETHER_BT_MAX_FRAMES : v;
}

static bool tether__bt_has_prefix(const char* s, const char* prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The frame where the callee's part of the stack ends (see top). */
static bool tether__bt_is_boundary(uintptr_t saddr, const char* sym) {
  if (saddr == (uintptr_t)&TVMFFIFunctionCall) return true;
  if (strcmp(sym, "TVMFFIFunctionCall") == 0) return true; /* another runtime's */
  static const char* const python_prefixes[] = {"_Py", "Py_", "PyEval_", "PyObject_",
                                                "PyVectorcall_", "PyCFunction_"};
  for (size_t i = 0; i < sizeof(python_prefixes) / sizeof(python_prefixes[0]); ++i) {
    if (tether__bt_has_prefix(sym, python_prefixes[i])) return true;
  }
  return false;
}

/* Whether the return address `pc` lies in a TETHER_BACKTRACE_HIDDEN function.  A return
 * address may be one past its function (a call as the last instruction); pc - 1 lies
 * inside the call instruction, in the calling function. */
static bool tether__bt_hidden(const void* pc) {
  uintptr_t at = (uintptr_t)pc - 1;
  return at >= (uintptr_t)__start_tether_bt_text && at < (uintptr_t)__stop_tether_bt_text;
}

/* Appends up to `budget` lines for the return addresses pcs[0..n). */
static void tether__bt_format_stack(tether_bt_state_t* st, int n, long budget,
                                    const char* given_func, int cross_ffi_boundary) {
  /* The stack starts with the machinery (TVMFFIBacktrace, raise helpers), possibly
   * topped by frames of an interposed backtrace() (ASan intercepts it): start after the
   * last hidden frame of that leading run. */
  int start = 0;
  for (int i = 0; i < n; ++i) {
    if (tether__bt_hidden(st->pcs[i])) {
      start = i + 1;
    } else if (start > 0) {
      break;
    }
  }
  long emitted = 0;
  bool first = true;
  for (int i = start; i < n && emitted < budget; ++i) {
    if (tether__bt_hidden(st->pcs[i])) continue;
    uintptr_t pc = (uintptr_t)st->pcs[i];
    uintptr_t at = pc - 1;
    Dl_info info;
    bool found = dladdr((void*)at, &info) != 0;
    const char* sym = found && info.dli_sname != NULL && info.dli_saddr != NULL
                          ? info.dli_sname
                          : NULL;
    const char* file =
        found && info.dli_fname != NULL && info.dli_fname[0] != '\0' ? info.dli_fname
                                                                     : "<unknown>";
    if (sym != NULL && !cross_ffi_boundary &&
        tether__bt_is_boundary((uintptr_t)info.dli_saddr, sym)) {
      break;
    }
    bool same_as_given = first && given_func != NULL && sym != NULL &&
                         strcmp(sym, given_func) == 0;
    first = false;
    if (same_as_given) continue;
    char where[128];
    if (sym != NULL) {
      snprintf(where, sizeof(where), "+0x%" PRIxPTR, pc - (uintptr_t)info.dli_saddr);
    } else if (found) {
      snprintf(where, sizeof(where), "0x%" PRIxPTR, pc - (uintptr_t)info.dli_fbase);
    } else {
      snprintf(where, sizeof(where), "0x%" PRIxPTR, pc);
    }
    if (!tether__bt_appendf(st, "  File \"%s\", line 0, in %s%s\n", file,
                            sym != NULL ? sym : "", where)) {
      break;
    }
    ++emitted;
  }
}

/* The given frame alone, from the fixed thread-local buffer (truncated if it must be). */
static const TVMFFIByteArray* tether__bt_fallback_result(const char* filename, int lineno,
                                                         const char* func) {
  size_t n = 0;
  if (filename != NULL && func != NULL) {
    int r = snprintf(tether__bt_fallback, sizeof(tether__bt_fallback), TETHER_BT_LINE,
                     filename, lineno, func);
    if (r > 0) n = (size_t)r;
    if (n >= sizeof(tether__bt_fallback)) {
      n = sizeof(tether__bt_fallback) - 1;
      tether__bt_fallback[n - 1] = '\n';
    }
  }
  tether__bt_fallback[n] = '\0';
  tether__bt_result = (TVMFFIByteArray){tether__bt_fallback, n};
  return &tether__bt_result;
}

TETHER_BACKTRACE_HIDDEN
const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno, const char* func,
                                       int cross_ffi_boundary) {
  int saved_errno = errno;
  const TVMFFIByteArray* result = NULL;
  bool given = filename != NULL && func != NULL;
  tether_bt_state_t* st = tether__bt_state();
  if (st == NULL) goto fallback;
  st->len = 0;
  if (!tether__bt_reserve(st, 0)) goto fallback;
  st->text[0] = '\0';
  if (given && !tether__bt_appendf(st, TETHER_BT_LINE, filename, lineno, func)) goto fallback;
  long budget = tether__bt_limit() - (given ? 1 : 0);
  if (budget > 0) {
    int n = backtrace(st->pcs, (int)budget + TETHER_BT_SLACK);
    tether__bt_format_stack(st, n, budget, given ? func : NULL, cross_ffi_boundary);
  }
  st->text[st->len] = '\0';
  tether__bt_result = (TVMFFIByteArray){st->text, st->len};
  result = &tether__bt_result;
  errno = saved_errno;
  return result;

fallback:
  result = tether__bt_fallback_result(filename, lineno, func);
  errno = saved_errno;
  return result;
}
