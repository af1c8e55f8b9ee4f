/*
 * error.c -- Error objects (kind, message, backtrace, cause chain, extra context) and
 * the per-thread raised-error slot behind every ABI function's `return -1`.
 *
 * Layout: header + TVMFFIErrorCell, then kind and message stored inline (each
 * NUL-terminated); the backtrace lives in its own heap buffer because
 * update_backtrace may replace or extend it.
 */
#include <pthread.h>
#include <stdio.h>

#include "internal.h"
#include "object.h"
#include "error.h"
#include "type.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
  char* backtrace_buf; /* owned; NUL-terminated; cell.backtrace points here */
  char text[];         /* kind '\0' message '\0' */
} tether_error_t;

static void tether__error_deleter(void* self, int flags) {
  tether_error_t* err = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    TVMFFIObjectDecRef(err->cell.cause_chain);
    TVMFFIObjectDecRef(err->cell.extra_context);
    free(err->backtrace_buf);
    err->backtrace_buf = NULL;
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) tether__object_free(self);
}

static char* tether__dup_bytes(const char* data, size_t n) {
  char* p = malloc(n + 1);
  if (p == NULL) return NULL;
  if (n != 0) memcpy(p, data, n);
  p[n] = '\0';
  return p;
}

static void tether__error_update_backtrace(TVMFFIObjectHandle self, const TVMFFIByteArray* bt,
                                           int32_t mode) {
  tether_error_t* err = self;
  size_t keep = mode == kTVMFFIBacktraceUpdateModeAppend ? err->cell.backtrace.size : 0;
  size_t add = bt != NULL ? bt->size : 0;
  char* buf = malloc(keep + add + 1);
  if (buf == NULL) return; /* keep the old backtrace: better than none */
  if (keep != 0) memcpy(buf, err->backtrace_buf, keep);
  if (add != 0) memcpy(buf + keep, bt->data, add);
  buf[keep + add] = '\0';
  free(err->backtrace_buf);
  err->backtrace_buf = buf;
  err->cell.backtrace.data = buf;
  err->cell.backtrace.size = keep + add;
}

TVMFFIObject* tether__error_new(TVMFFIByteArray kind, TVMFFIByteArray message,
                                TVMFFIByteArray backtrace, TVMFFIObject* cause,
                                TVMFFIObject* extra) {
  tether_error_t* err =
      tether__object_alloc(sizeof(*err) + kind.size + message.size + 2, kTVMFFIError,
                           tether__error_deleter);
  if (err == NULL) return NULL;
  err->backtrace_buf = tether__dup_bytes(backtrace.data, backtrace.size);
  if (err->backtrace_buf == NULL) {
    tether__object_free(err);
    return NULL;
  }
  char* k = err->text;
  char* m = err->text + kind.size + 1;
  if (kind.size != 0) memcpy(k, kind.data, kind.size);
  if (message.size != 0) memcpy(m, message.data, message.size);
  err->cell.kind = (TVMFFIByteArray){k, kind.size};
  err->cell.message = (TVMFFIByteArray){m, message.size};
  err->cell.backtrace = (TVMFFIByteArray){err->backtrace_buf, backtrace.size};
  err->cell.update_backtrace = tether__error_update_backtrace;
  if (cause != NULL) TVMFFIObjectIncRef(cause);
  if (extra != NULL) TVMFFIObjectIncRef(extra);
  err->cell.cause_chain = cause;
  err->cell.extra_context = extra;
  return &err->header;
}

/* ---- the per-thread slot --------------------------------------------------------------- */

static pthread_key_t tether__raised_key;

/* Runs at thread exit with the slot's value: release an error nobody collected. */
static void tether__raised_key_dtor(void* value) { TVMFFIObjectDecRef(value); }

int tether__error_init(void) {
  return pthread_key_create(&tether__raised_key, tether__raised_key_dtor) == 0 ? 0 : -1;
}

void tether__error_fini(void) {
  /* The loading thread's slot: release what it still holds, then drop the key. */
  TVMFFIObjectDecRef(pthread_getspecific(tether__raised_key));
  pthread_setspecific(tether__raised_key, NULL);
  pthread_key_delete(tether__raised_key);
}

void tether__error_set_steal(TVMFFIObject* err) {
  TVMFFIObject* old = pthread_getspecific(tether__raised_key);
  pthread_setspecific(tether__raised_key, err);
  TVMFFIObjectDecRef(old);
}

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  if (error != NULL) TVMFFIObjectIncRef(error);
  tether__error_set_steal(error);
}

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  TVMFFIObject* err = pthread_getspecific(tether__raised_key);
  pthread_setspecific(tether__raised_key, NULL);
  if (result != NULL) {
    *result = err;
  } else {
    TVMFFIObjectDecRef(err);
  }
}

/* The last resort when even the Error object cannot be allocated. */
static void tether__error_set_oom(void) {
  fprintf(stderr, "libtether: out of memory while raising an error\n");
  tether__error_set_steal(NULL);
}

int tether__error_raise_bytes(const char* file, int line, const char* func, const char* kind,
                              const char* msg, size_t msg_len) {
  const TVMFFIByteArray* bt = TVMFFIBacktrace(file, line, func, 0);
  TVMFFIByteArray empty = {"", 0};
  TVMFFIObject* err = tether__error_new((TVMFFIByteArray){kind, strlen(kind)},
                                        (TVMFFIByteArray){msg, msg_len}, bt ? *bt : empty,
                                        NULL, NULL);
  if (err == NULL) {
    tether__error_set_oom();
  } else {
    tether__error_set_steal(err);
  }
  return -1;
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  if (kind == NULL) kind = "RuntimeError";
  if (message == NULL) message = "";
  tether__error_raise_bytes(NULL, 0, NULL, kind, message, strlen(message));
}

void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** parts, int32_t num_parts) {
  size_t total = 0;
  for (int32_t i = 0; i < num_parts; ++i) {
    if (parts != NULL && parts[i] != NULL) total += strlen(parts[i]);
  }
  char* msg = malloc(total + 1);
  if (msg == NULL) {
    tether__error_set_oom();
    return;
  }
  size_t pos = 0;
  for (int32_t i = 0; i < num_parts; ++i) {
    if (parts == NULL || parts[i] == NULL) continue;
    size_t n = strlen(parts[i]);
    memcpy(msg + pos, parts[i], n);
    pos += n;
  }
  msg[pos] = '\0';
  tether__error_raise_bytes(NULL, 0, NULL, kind != NULL ? kind : "RuntimeError", msg, pos);
  free(msg);
}

int tether_error_raisef_at(const char* file, int line, const char* func, const char* kind,
                           const char* fmt, ...) {
  char stack_buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(stack_buf, sizeof(stack_buf), fmt, ap);
  va_end(ap);
  if (n < 0) return tether__error_raise_bytes(file, line, func, kind, fmt, strlen(fmt));
  if ((size_t)n < sizeof(stack_buf)) {
    return tether__error_raise_bytes(file, line, func, kind, stack_buf, (size_t)n);
  }
  char* heap_buf = malloc((size_t)n + 1);
  if (heap_buf == NULL) {
    return tether__error_raise_bytes(file, line, func, kind, stack_buf, sizeof(stack_buf) - 1);
  }
  va_start(ap, fmt);
  vsnprintf(heap_buf, (size_t)n + 1, fmt, ap);
  va_end(ap);
  tether__error_raise_bytes(file, line, func, kind, heap_buf, (size_t)n);
  free(heap_buf);
  return -1;
}

static const TVMFFIByteArray tether__empty_bytes = {"", 0};

static const TVMFFIByteArray* tether__or_empty(const TVMFFIByteArray* b) {
  return b != NULL ? b : &tether__empty_bytes;
}

int TVMFFIErrorCreateWithCauseAndExtraContext(const TVMFFIByteArray* kind,
                                              const TVMFFIByteArray* message,
                                              const TVMFFIByteArray* backtrace,
                                              TVMFFIObjectHandle cause_chain,
                                              TVMFFIObjectHandle extra_context,
                                              TVMFFIObjectHandle* out) {
  /* Does not touch the raised slot (spec): report only through the return value. */
  if (out == NULL) return -1;
  TVMFFIObject* err = tether__error_new(*tether__or_empty(kind), *tether__or_empty(message),
                                        *tether__or_empty(backtrace), cause_chain, extra_context);
  if (err == NULL) {
    TVMFFIObjectHandle oom = NULL;
    TVMFFIErrorMoveFromRaised(&oom); /* drop the MemoryError the allocator parked */
    TVMFFIObjectDecRef(oom);
    return -1;
  }
  *out = err;
  return 0;
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  return TVMFFIErrorCreateWithCauseAndExtraContext(kind, message, backtrace, NULL, NULL, out);
}

TVMFFIByteArray tether_error_kind(TVMFFIObjectHandle err) {
  return TETHER_CELL(TVMFFIErrorCell, err)->kind;
}
TVMFFIByteArray tether_error_message(TVMFFIObjectHandle err) {
  return TETHER_CELL(TVMFFIErrorCell, err)->message;
}
TVMFFIByteArray tether_error_backtrace(TVMFFIObjectHandle err) {
  return TETHER_CELL(TVMFFIErrorCell, err)->backtrace;
}
