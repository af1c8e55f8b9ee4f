/*
 * error.c -- Error objects (kind, message, backtrace, cause chain, extra context) and
 * the per-thread raised-error slot behind every ABI function's `return -1`.
 *
 * Layout: header + TVMFFIErrorCell, then kind and message stored inline (each
 * NUL-terminated); the backtrace lives in its own heap buffer because
 * update_backtrace may replace or extend it.
 *
 * Invariants:
 * - A -1 return always has an error parked: when even the Error object cannot be
 *   allocated, the static MemoryError below is parked instead.
 * - Raising never recurses: while this thread is building an error (or inside
 *   TVMFFIErrorCreate*, which must not touch the slot), nested raises -- in practice the
 *   allocator's MemoryError -- are dropped and only the outer call decides what to park.
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
    err->cell.cause_chain = NULL;
    err->cell.extra_context = NULL;
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

/* The cell's update_backtrace.  Builds the new text before freeing the old one, so `bt`
 * may point into this error's own backtrace.  On out-of-memory the old backtrace stays. */
static void tether__error_update_backtrace(TVMFFIObjectHandle self, const TVMFFIByteArray* bt,
                                           int32_t mode) {
  tether_error_t* err = self;
  size_t keep = mode == kTVMFFIBacktraceUpdateModeAppend ? err->cell.backtrace.size : 0;
  size_t add = bt != NULL && bt->data != NULL ? bt->size : 0;
  char* buf = malloc(keep + add + 1);
  if (buf == NULL) return;
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
    tether_raise("MemoryError", "tether: out of memory copying a %zu-byte backtrace",
                 backtrace.size);
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

/* ---- the out-of-memory fallback ------------------------------------------------------ */

/* Shared by all threads and never freed (NULL deleter; it holds one reference of its own
 * so its count never reaches 0).  Immutable: its update_backtrace ignores updates. */
typedef struct {
  TVMFFIObject header;
  TVMFFIErrorCell cell;
} tether_static_error_t;

static void tether__static_error_update_backtrace(TVMFFIObjectHandle self,
                                                  const TVMFFIByteArray* bt, int32_t mode) {}

#define TETHER_OOM_MESSAGE "tether: out of memory while raising an error"
static tether_static_error_t tether__oom_error = {
    .header = {.combined_ref_count = 1 | (UINT64_C(1) << 32),
               .type_index = kTVMFFIError,
               .deleter = NULL},
    .cell = {.kind = {"MemoryError", 11},
             .message = {TETHER_OOM_MESSAGE, sizeof(TETHER_OOM_MESSAGE) - 1},
             .backtrace = {"", 0},
             .update_backtrace = tether__static_error_update_backtrace,
             .cause_chain = NULL,
             .extra_context = NULL},
};

static void tether__error_set_oom(void) {
  TVMFFIObjectIncRef(&tether__oom_error.header);
  tether__error_set_steal(&tether__oom_error.header);
}

/* ---- the per-thread slot ------------------------------------------------------------- */

/*
 * The slot is a thread-local pointer, usable at any time (before init, after fini, in a
 * static build whose constructor did not run).  A pthread key serves only to release it
 * at thread exit: the first time a thread parks an error, the key's value for that
 * thread is set to the address of its slot, and the key's destructor empties the slot.
 * The key is created once, lazily (init forces it); after fini nothing registers, so an
 * error raised then and never collected is not released at that thread's exit.
 */
static _Thread_local TVMFFIObject* tether__raised;
static _Thread_local bool tether__raised_registered;
static pthread_key_t tether__raised_key;
static pthread_once_t tether__raised_key_once = PTHREAD_ONCE_INIT;
enum { TETHER_KEY_NONE, TETHER_KEY_READY, TETHER_KEY_GONE };
static _Atomic int tether__raised_key_state;
/* Non-zero while this thread builds an error: nested raises are dropped (see top). */
static _Thread_local int tether__raise_quiet;

/* Runs at thread exit with the address of the thread's slot.  Looping: releasing an error
 * may run deleters that raise again. */
static void tether__raised_key_dtor(void* value) {
  TVMFFIObject** slot = value;
  while (*slot != NULL) {
    TVMFFIObject* err = *slot;
    *slot = NULL;
    TVMFFIObjectDecRef(err);
  }
}

static void tether__raised_key_create(void) {
  int ok = pthread_key_create(&tether__raised_key, tether__raised_key_dtor) == 0;
  atomic_store(&tether__raised_key_state, ok ? TETHER_KEY_READY : TETHER_KEY_GONE);
}

/* Arranges for this thread's slot to be emptied when the thread exits. */
static void tether__raised_register(void) {
  pthread_once(&tether__raised_key_once, tether__raised_key_create);
  if (atomic_load_explicit(&tether__raised_key_state, memory_order_acquire) != TETHER_KEY_READY) {
    return;
  }
  if (pthread_setspecific(tether__raised_key, &tether__raised) == 0) {
    tether__raised_registered = true;
  }
}

int tether__error_init(void) {
  pthread_once(&tether__raised_key_once, tether__raised_key_create);
  if (atomic_load(&tether__raised_key_state) != TETHER_KEY_READY) {
    fprintf(stderr, "libtether: pthread_key_create failed for the raised-error slot\n");
    return -1;
  }
  return tether__backtrace_init();
}

void tether__error_fini(void) {
  /* The unloading thread's slot (other threads' slots were emptied when they exited). */
  if (atomic_exchange(&tether__raised_key_state, TETHER_KEY_GONE) == TETHER_KEY_READY) {
    pthread_setspecific(tether__raised_key, NULL);
    pthread_key_delete(tether__raised_key);
  }
  tether__raised_key_dtor(&tether__raised);
  tether__raised_registered = false;
  tether__backtrace_fini();
}

void tether__error_set_steal(TVMFFIObject* err) {
  TVMFFIObject* old = tether__raised;
  tether__raised = err;
  if (err != NULL && !tether__raised_registered) tether__raised_register();
  /* Released after the slot is updated: the old error's deleter may itself raise. */
  TVMFFIObjectDecRef(old);
}

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  /* Only an Error may be parked: whoever moves it out reads it as an ErrorCell.  Anything
   * else parks a TypeError saying so (the function has no other way to report). */
  if (error != NULL && ((TVMFFIObject*)error)->type_index != kTVMFFIError) {
    tether_raise("TypeError", "TVMFFIErrorSetRaised: argument `error` must be an ffi.Error, "
                 "got %s", tether_type_key(((TVMFFIObject*)error)->type_index));
    return;
  }
  if (error != NULL) TVMFFIObjectIncRef(error);
  tether__error_set_steal(error);
}

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) {
  TVMFFIObject* err = tether__raised;
  tether__raised = NULL;
  if (result != NULL) {
    *result = err;
  } else {
    TVMFFIObjectDecRef(err);
  }
}

TETHER_BACKTRACE_HIDDEN
int tether__error_raise_bytes(const char* file, int line, const char* func, const char* kind,
                              const char* msg, size_t msg_len) {
  if (tether__raise_quiet) return -1;
  tether__raise_quiet = 1;
  if (kind == NULL) kind = "RuntimeError";
  const TVMFFIByteArray* bt = TVMFFIBacktrace(file, line, func, 0);
  TVMFFIObject* err = tether__error_new((TVMFFIByteArray){kind, strlen(kind)},
                                        (TVMFFIByteArray){msg, msg_len}, *bt, NULL, NULL);
  tether__raise_quiet = 0;
  if (err == NULL) {
    tether__error_set_oom();
  } else {
    tether__error_set_steal(err);
  }
  return -1;
}

TETHER_BACKTRACE_HIDDEN
void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  if (message == NULL) message = "";
  tether__error_raise_bytes(NULL, 0, NULL, kind, message, strlen(message));
}

TETHER_BACKTRACE_HIDDEN
void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** parts, int32_t num_parts) {
  size_t total = 0;
  for (int32_t i = 0; i < num_parts && parts != NULL; ++i) {
    if (parts[i] != NULL) total += strlen(parts[i]);
  }
  char* msg = malloc(total + 1);
  if (msg == NULL) {
    tether__error_set_oom();
    return;
  }
  size_t pos = 0;
  for (int32_t i = 0; i < num_parts && parts != NULL; ++i) {
    if (parts[i] == NULL) continue;
    size_t n = strlen(parts[i]);
    memcpy(msg + pos, parts[i], n);
    pos += n;
  }
  msg[pos] = '\0';
  tether__error_raise_bytes(NULL, 0, NULL, kind, msg, pos);
  free(msg);
}

/* Formats into a stack buffer; only messages longer than it go through the heap. */
TETHER_BACKTRACE_HIDDEN
int tether_error_raisef_at(const char* file, int line, const char* func, const char* kind,
                           const char* fmt, ...) {
  if (tether__raise_quiet) return -1;
  if (fmt == NULL) fmt = "";
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
    tether__error_set_oom();
    return -1;
  }
  va_start(ap, fmt);
  vsnprintf(heap_buf, (size_t)n + 1, fmt, ap);
  va_end(ap);
  tether__error_raise_bytes(file, line, func, kind, heap_buf, (size_t)n);
  free(heap_buf);
  return -1;
}

int tether__error_add_context(const char* context) {
  TVMFFIObject* old = tether__raised;
  if (old == NULL || old->type_index != kTVMFFIError || context == NULL) return -1;
  const TVMFFIErrorCell* cell = TETHER_CELL(TVMFFIErrorCell, old);
  size_t n = strlen(context);
  for (size_t i = 0; i + n <= cell->message.size; ++i) {
    if (memcmp(cell->message.data + i, context, n) == 0) return -1; /* already named */
  }
  char* msg = malloc(n + 2 + cell->message.size);
  if (msg == NULL) return -1; /* keep the original error rather than lose it */
  memcpy(msg, context, n);
  memcpy(msg + n, ": ", 2);
  if (cell->message.size != 0) memcpy(msg + n + 2, cell->message.data, cell->message.size);
  int was_quiet = tether__raise_quiet;
  tether__raise_quiet = 1; /* an allocation failure below must not replace `old` */
  TVMFFIObject* err =
      tether__error_new(cell->kind, (TVMFFIByteArray){msg, n + 2 + cell->message.size},
                        cell->backtrace, cell->cause_chain, cell->extra_context);
  tether__raise_quiet = was_quiet;
  free(msg);
  if (err != NULL) tether__error_set_steal(err); /* releases `old` */
  return -1;
}

/* ---- creating errors without raising --------------------------------------------------- */

static const TVMFFIByteArray tether__empty_bytes = {"", 0};

static const TVMFFIByteArray* tether__or_empty(const TVMFFIByteArray* b) {
  return b != NULL && b->data != NULL ? b : &tether__empty_bytes;
}

int TVMFFIErrorCreateWithCauseAndExtraContext(const TVMFFIByteArray* kind,
                                              const TVMFFIByteArray* message,
                                              const TVMFFIByteArray* backtrace,
                                              TVMFFIObjectHandle cause_chain,
                                              TVMFFIObjectHandle extra_context,
                                              TVMFFIObjectHandle* out) {
  /* Does not touch the raised slot (spec): report only through the return value.  The
   * quiet flag makes the allocator's MemoryError a no-op; it may already be set when
   * this is called while an error is being raised, so restore rather than clear it. */
  if (out == NULL) return -1;
  int was_quiet = tether__raise_quiet;
  tether__raise_quiet = 1;
  TVMFFIObject* err = tether__error_new(*tether__or_empty(kind), *tether__or_empty(message),
                                        *tether__or_empty(backtrace), cause_chain, extra_context);
  tether__raise_quiet = was_quiet;
  if (err == NULL) return -1;
  *out = err;
  return 0;
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  return TVMFFIErrorCreateWithCauseAndExtraContext(kind, message, backtrace, NULL, NULL, out);
}

/* ---- reading (tolerant: anything that is not an Error reads as empty) ------------------ */

static const TVMFFIErrorCell* tether__error_cell(TVMFFIObjectHandle err) {
  if (err == NULL || ((TVMFFIObject*)err)->type_index != kTVMFFIError) return NULL;
  return TETHER_CELL(TVMFFIErrorCell, err);
}

TVMFFIByteArray tether_error_kind(TVMFFIObjectHandle err) {
  const TVMFFIErrorCell* cell = tether__error_cell(err);
  return cell != NULL ? cell->kind : tether__empty_bytes;
}
TVMFFIByteArray tether_error_message(TVMFFIObjectHandle err) {
  const TVMFFIErrorCell* cell = tether__error_cell(err);
  return cell != NULL ? cell->message : tether__empty_bytes;
}
TVMFFIByteArray tether_error_backtrace(TVMFFIObjectHandle err) {
  const TVMFFIErrorCell* cell = tether__error_cell(err);
  return cell != NULL ? cell->backtrace : tether__empty_bytes;
}
