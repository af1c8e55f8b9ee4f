/*
 * test_error.c -- Error objects (kind, message, backtrace, cause chain, extra context,
 * update_backtrace) and the per-thread raised-error slot: creating, raising, moving out,
 * borrow/steal semantics, thread isolation and cleanup at thread exit.
 */
#include <pthread.h>
#include <stdlib.h>

#include "test.h"

/* Under ASan, let impossible allocations fail with NULL as they do in production (the
 * runtime looks this hook up dynamically, hence default visibility). */
__attribute__((visibility("default"))) const char* __asan_default_options(void);
const char* __asan_default_options(void) { return "allocator_may_return_null=1"; }

static TVMFFIByteArray bytes_of(const char* s) { return (TVMFFIByteArray){s, strlen(s)}; }

static const TVMFFIErrorCell* cell_of(TVMFFIObjectHandle err) {
  return (const TVMFFIErrorCell*)((const char*)err + sizeof(TVMFFIObject));
}

/* New reference to a plain error (kind "ValueError", message `msg`, backtrace "bt\n"). */
static TVMFFIObjectHandle make_error(const char* msg) {
  TVMFFIByteArray kind = bytes_of("ValueError"), message = bytes_of(msg), bt = bytes_of("bt\n");
  TVMFFIObjectHandle err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &message, &bt, &err), 0);
  CHECK(err != NULL);
  return err;
}

/* Whether `text` begins with one well-formed backtrace line. */
static int starts_with_frame_line(const char* text) {
  const char* p = text;
  if (strncmp(p, "  File \"", 8) != 0) return 0;
  p = strstr(p + 8, "\", line ");
  if (p == NULL) return 0;
  p += 8;
  if (*p == '-') ++p;
  if (*p < '0' || *p > '9') return 0;
  while (*p >= '0' && *p <= '9') ++p;
  if (strncmp(p, ", in ", 5) != 0) return 0;
  p += 5;
  const char* nl = strchr(p, '\n');
  return nl != NULL && nl > p;
}

/* ---- creating errors ---------------------------------------------------------------- */

static void test_create_fields(void) {
  TVMFFIByteArray kind = bytes_of("KeyError"), message = bytes_of("no key `x`");
  TVMFFIByteArray bt = bytes_of("  File \"a.c\", line 1, in f\n");
  TVMFFIObjectHandle err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &message, &bt, &err), 0);
  CHECK_EQ_INT(((TVMFFIObject*)err)->type_index, kTVMFFIError);
  CHECK_EQ_INT(tether_object_use_count(err), 1);
  const TVMFFIErrorCell* cell = cell_of(err);
  CHECK_BYTES(cell->kind, "KeyError");
  CHECK_BYTES(cell->message, "no key `x`");
  CHECK_BYTES(cell->backtrace, "  File \"a.c\", line 1, in f\n");
  CHECK(cell->update_backtrace != NULL);
  CHECK(cell->cause_chain == NULL);
  CHECK(cell->extra_context == NULL);
  /* The strings are copies, NUL-terminated. */
  CHECK(cell->kind.data != kind.data);
  CHECK_EQ_INT(cell->message.data[cell->message.size], '\0');
  CHECK_EQ_INT(cell->backtrace.data[cell->backtrace.size], '\0');
  CHECK_BYTES(tether_error_kind(err), "KeyError");
  CHECK_BYTES(tether_error_message(err), "no key `x`");
  CHECK_BYTES(tether_error_backtrace(err), "  File \"a.c\", line 1, in f\n");
  TVMFFIObjectDecRef(err);
}

static void test_create_embedded_nul_and_empty(void) {
  TVMFFIByteArray kind = {"", 0}, message = {"a\0b", 3};
  TVMFFIObjectHandle err = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreate(&kind, &message, NULL, &err), 0);
  CHECK_EQ_INT(tether_error_kind(err).size, 0);
  CHECK_EQ_INT(tether_error_message(err).size, 3);
  CHECK(memcmp(tether_error_message(err).data, "a\0b", 3) == 0);
  CHECK_BYTES(tether_error_backtrace(err), "");
  TVMFFIObjectDecRef(err);
  /* NULL ByteArrays read as empty. */
  CHECK_EQ_INT(TVMFFIErrorCreate(NULL, NULL, NULL, &err), 0);
  CHECK_BYTES(tether_error_kind(err), "");
  CHECK_BYTES(tether_error_message(err), "");
  TVMFFIObjectDecRef(err);
}

/* TVMFFIErrorCreate* never touch the raised slot, neither on success nor on failure. */
static void test_create_leaves_slot_alone(void) {
  TVMFFIObjectHandle parked = make_error("parked");
  TVMFFIErrorSetRaised(parked);
  TVMFFIObjectHandle err = make_error("other");
  CHECK_EQ_INT(TVMFFIErrorCreate(NULL, NULL, NULL, NULL), -1); /* out == NULL fails */
  TVMFFIObjectHandle got = NULL;
  TVMFFIErrorMoveFromRaised(&got);
  CHECK(got == parked);
  TVMFFIObjectDecRef(got);
  TVMFFIObjectDecRef(parked);
  TVMFFIObjectDecRef(err);
  /* Failing with an empty slot leaves it empty. */
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(NULL, NULL, NULL, NULL, NULL, NULL), -1);
  TVMFFIErrorMoveFromRaised(&got);
  CHECK(got == NULL);
}

/* Out of memory (an impossible size): -1, nothing leaked, the slot untouched. */
static void test_create_out_of_memory(void) {
  TVMFFIObjectHandle parked = make_error("parked");
  TVMFFIErrorSetRaised(parked);
  TVMFFIObjectHandle cause = make_error("cause");
  TVMFFIByteArray huge = {"x", (size_t)1 << 60}, small = bytes_of("k");
  TVMFFIObjectHandle err = (TVMFFIObjectHandle)&err;
  /* The object itself cannot be allocated. */
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(&small, &huge, NULL, cause, NULL, &err),
               -1);
  /* The object can, its backtrace cannot. */
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(&small, &small, &huge, cause, NULL, &err),
               -1);
  CHECK(err == (TVMFFIObjectHandle)&err);
  CHECK_EQ_INT(tether_object_use_count(cause), 1);
  TVMFFIObjectHandle got = NULL;
  TVMFFIErrorMoveFromRaised(&got);
  CHECK(got == parked);
  TVMFFIObjectDecRef(got);
  TVMFFIObjectDecRef(parked);
  TVMFFIObjectDecRef(cause);
}

static void test_create_with_cause_and_extra(void) {
  TVMFFIObjectHandle cause = make_error("root cause");
  TVMFFIObjectHandle extra = make_error("extra");
  TVMFFIByteArray kind = bytes_of("RuntimeError"), message = bytes_of("outer");
  TVMFFIObjectHandle err = NULL;
  CHECK_EQ_INT(
      TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, NULL, cause, extra, &err), 0);
  /* Borrowed: the caller keeps its references, the error takes its own. */
  CHECK_EQ_INT(tether_object_use_count(cause), 2);
  CHECK_EQ_INT(tether_object_use_count(extra), 2);
  CHECK(cell_of(err)->cause_chain == cause);
  CHECK(cell_of(err)->extra_context == extra);
  CHECK_BYTES(tether_error_message(cell_of(err)->cause_chain), "root cause");
  TVMFFIObjectDecRef(err); /* releases its references */
  CHECK_EQ_INT(tether_object_use_count(cause), 1);
  CHECK_EQ_INT(tether_object_use_count(extra), 1);
  /* A cause may itself have a cause: the chain is released link by link. */
  TVMFFIObjectHandle mid = NULL;
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, NULL, cause, NULL, &mid),
               0);
  CHECK_EQ_INT(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, NULL, mid, NULL, &err),
               0);
  TVMFFIObjectDecRef(mid);
  TVMFFIObjectDecRef(cause);
  TVMFFIObjectDecRef(extra);
  CHECK_EQ_INT(tether_object_use_count(cell_of(cell_of(err)->cause_chain)->cause_chain), 1);
  TVMFFIObjectDecRef(err);
}

/* ---- update_backtrace ----------------------------------------------------------------- */

static void test_update_backtrace(void) {
  TVMFFIObjectHandle err = make_error("m"); /* backtrace "bt\n" */
  const TVMFFIErrorCell* cell = cell_of(err);
  TVMFFIByteArray more = bytes_of("more\n");
  cell->update_backtrace(err, &more, kTVMFFIBacktraceUpdateModeAppend);
  CHECK_BYTES(cell->backtrace, "bt\nmore\n");
  CHECK_EQ_INT(cell->backtrace.data[cell->backtrace.size], '\0');
  /* Appending the error's own backtrace to itself. */
  TVMFFIByteArray self_bt = cell->backtrace;
  cell->update_backtrace(err, &self_bt, kTVMFFIBacktraceUpdateModeAppend);
  CHECK_BYTES(cell->backtrace, "bt\nmore\nbt\nmore\n");
  TVMFFIByteArray fresh = bytes_of("  File \"x\", line 1, in y\n");
  cell->update_backtrace(err, &fresh, kTVMFFIBacktraceUpdateModeReplace);
  CHECK_BYTES(cell->backtrace, "  File \"x\", line 1, in y\n");
  /* Replacing with nothing empties it; appending nothing keeps it. */
  cell->update_backtrace(err, &more, kTVMFFIBacktraceUpdateModeAppend);
  cell->update_backtrace(err, NULL, kTVMFFIBacktraceUpdateModeAppend);
  CHECK_BYTES(cell->backtrace, "  File \"x\", line 1, in y\nmore\n");
  cell->update_backtrace(err, NULL, kTVMFFIBacktraceUpdateModeReplace);
  CHECK_BYTES(cell->backtrace, "");
  /* Kind and message are untouched. */
  CHECK_BYTES(cell->kind, "ValueError");
  CHECK_BYTES(cell->message, "m");
  TVMFFIObjectDecRef(err);
}

/* ---- the raised slot ------------------------------------------------------------------ */

static void test_move_from_raised_empty(void) {
  TVMFFIObjectHandle got = (TVMFFIObjectHandle)&got;
  TVMFFIErrorMoveFromRaised(&got);
  CHECK(got == NULL);
  TVMFFIErrorMoveFromRaised(NULL); /* tolerated */
}

static void test_set_raised_borrows(void) {
  TVMFFIObjectHandle err = make_error("borrowed");
  TVMFFIErrorSetRaised(err);
  CHECK_EQ_INT(tether_object_use_count(err), 2); /* the slot's own reference */
  TVMFFIObjectHandle got = NULL;
  TVMFFIErrorMoveFromRaised(&got); /* transfers the slot's reference */
  CHECK(got == err);
  CHECK_EQ_INT(tether_object_use_count(err), 2);
  TVMFFIErrorMoveFromRaised(&got); /* the slot is now empty */
  CHECK(got == NULL);
  TVMFFIObjectDecRef(err);
  CHECK_EQ_INT(tether_object_use_count(err), 1);
  TVMFFIObjectDecRef(err);
}

static void test_set_raised_replaces_and_releases(void) {
  TVMFFIObjectHandle a = make_error("a"), b = make_error("b");
  TVMFFIErrorSetRaised(a);
  TVMFFIErrorSetRaised(b);
  CHECK_EQ_INT(tether_object_use_count(a), 1); /* released by the slot */
  CHECK_EQ_INT(tether_object_use_count(b), 2);
  TVMFFIErrorSetRaised(b); /* the same error again */
  CHECK_EQ_INT(tether_object_use_count(b), 2);
  TVMFFIErrorSetRaised(NULL); /* clears */
  CHECK_EQ_INT(tether_object_use_count(b), 1);
  TVMFFIObjectHandle got = NULL;
  TVMFFIErrorMoveFromRaised(&got);
  CHECK(got == NULL);
  TVMFFIErrorSetRaised(a);
  TVMFFIErrorMoveFromRaised(NULL); /* drops the slot's reference */
  CHECK_EQ_INT(tether_object_use_count(a), 1);
  TVMFFIObjectDecRef(a);
  TVMFFIObjectDecRef(b);
}

static void test_set_raised_from_cstr(void) {
  TVMFFIErrorSetRaisedFromCStr("TypeError", "expected int");
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  CHECK_BYTES(tether_error_kind(err), "TypeError");
  CHECK_BYTES(tether_error_message(err), "expected int");
  /* The backtrace is TVMFFIBacktrace(NULL, 0, NULL, 0): C frames only, the first being
   * this test (the raise machinery is left out). */
  TVMFFIByteArray bt = tether_error_backtrace(err);
  CHECK(bt.size > 0);
  CHECK(starts_with_frame_line(bt.data));
  CHECK(strstr(bt.data, "TVMFFIErrorSetRaisedFromCStr") == NULL);
  CHECK(strstr(bt.data, "TVMFFIBacktrace") == NULL);
  TVMFFIObjectDecRef(err);

  TVMFFIErrorSetRaisedFromCStr("ValueError", NULL);
  CHECK_RAISED(-1, "ValueError", "");
  TVMFFIErrorSetRaisedFromCStr(NULL, "no kind");
  CHECK_RAISED(-1, "RuntimeError", "no kind");
}

static void test_set_raised_from_cstr_parts(void) {
  const char* parts[] = {"Cannot find ", NULL, "type `", "", "x.Y", "`"};
  TVMFFIErrorSetRaisedFromCStrParts("KeyError", parts, 6);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_kind(err), "KeyError");
  CHECK_BYTES(tether_error_message(err), "Cannot find type `x.Y`");
  CHECK(starts_with_frame_line(tether_error_backtrace(err).data));
  CHECK(strstr(tether_error_backtrace(err).data, "TVMFFIErrorSetRaisedFromCStrParts") == NULL);
  TVMFFIObjectDecRef(err);
  /* Only the first num_parts parts count. */
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 1);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_message(err), "Cannot find ");
  TVMFFIObjectDecRef(err);
  /* No parts: empty message. */
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", NULL, 3);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_message(err), "");
  TVMFFIObjectDecRef(err);
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 0);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_message(err), "");
  TVMFFIObjectDecRef(err);
}

/* ---- tether_raise ------------------------------------------------------------------------ */

static void test_tether_raise(void) {
  int line = __LINE__ + 1;
  int rc = tether_raise("IndexError", "index %d out of range [0, %d)", 7, 3);
  CHECK_EQ_INT(rc, -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_kind(err), "IndexError");
  CHECK_BYTES(tether_error_message(err), "index 7 out of range [0, 3)");
  /* First frame: the raise site, exactly; then C frames. */
  char first[512];
  snprintf(first, sizeof(first), "  File \"%s\", line %d, in test_tether_raise\n", __FILE__, line);
  TVMFFIByteArray bt = tether_error_backtrace(err);
  CHECK(bt.size > strlen(first));
  CHECK(strncmp(bt.data, first, strlen(first)) == 0);
  CHECK(starts_with_frame_line(bt.data + strlen(first)));
  CHECK(strstr(bt.data, "tether_error_raisef_at") == NULL);
  TVMFFIObjectDecRef(err);
  /* Raising replaces an error already parked. */
  tether_raise("ValueError", "first");
  tether_raise("TypeError", "second");
  CHECK_RAISED(-1, "TypeError", "second");
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
}

static void test_tether_raise_long_message(void) {
  /* Longer than the 512-byte stack buffer: formatted on the heap, intact. */
  char long_arg[2001];
  for (size_t i = 0; i < 2000; ++i) long_arg[i] = (char)('a' + i % 26);
  long_arg[2000] = '\0';
  tether_raise("ValueError", "<%s|%d>", long_arg, 42);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray msg = tether_error_message(err);
  CHECK_EQ_INT(msg.size, 2000 + 5);
  CHECK(msg.data[0] == '<' && memcmp(msg.data + 1, long_arg, 2000) == 0);
  CHECK(memcmp(msg.data + 2001, "|42>", 4) == 0);
  CHECK_EQ_INT(msg.data[msg.size], '\0');
  TVMFFIObjectDecRef(err);
  /* Exactly at the stack buffer's edge (511 and 512 characters). */
  long_arg[511] = '\0';
  tether_raise("ValueError", "%s", long_arg);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_EQ_INT(tether_error_message(err).size, 511);
  TVMFFIObjectDecRef(err);
  long_arg[511] = 'x';
  long_arg[512] = '\0';
  tether_raise("ValueError", "%s", long_arg);
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_EQ_INT(tether_error_message(err).size, 512);
  CHECK_EQ_INT(tether_error_message(err).data[511], 'x');
  TVMFFIObjectDecRef(err);
}

static void test_raisef_at_explicit_location(void) {
  CHECK_EQ_INT(tether_error_raisef_at("some/file.c", 12, "some_func", NULL, "%s", "x"), -1);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_kind(err), "RuntimeError"); /* NULL kind */
  const char* first = "  File \"some/file.c\", line 12, in some_func\n";
  CHECK(strncmp(tether_error_backtrace(err).data, first, strlen(first)) == 0);
  TVMFFIObjectDecRef(err);
  /* Without a location there is no given frame, only C frames. */
  tether_error_raisef_at(NULL, 0, NULL, "ValueError", "no location");
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_BYTES(tether_error_message(err), "no location");
  CHECK(starts_with_frame_line(tether_error_backtrace(err).data));
  CHECK(strstr(tether_error_backtrace(err).data, "line 0, in ") != NULL);
  TVMFFIObjectDecRef(err);
}

/* A libtether function failing: kind and message from the spec, first frame its own. */
static void test_library_error_first_frame(void) {
  TVMFFIObjectHandle out = NULL;
  int rc = TVMFFIObjectCreateOpaque(NULL, 12345, NULL, &out);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK_EQ_INT(rc, -1);
  CHECK_BYTES(tether_error_kind(err), "RuntimeError");
  CHECK_BYTES(tether_error_message(err), "Only kTVMFFIOpaquePyObject is supported for now");
  const char* bt = tether_error_backtrace(err).data;
  CHECK(starts_with_frame_line(bt));
  CHECK(strstr(bt, "object.c\", line ") != NULL);
  CHECK(strncmp(strchr(bt, '\n') - strlen(", in TVMFFIObjectCreateOpaque"),
                ", in TVMFFIObjectCreateOpaque", 29) == 0);
  /* The given frame is not repeated by the C stack. */
  CHECK(strstr(bt, "in TVMFFIObjectCreateOpaque+") == NULL);
  TVMFFIObjectDecRef(err);
}

static void test_read_non_error(void) {
  CHECK_BYTES(tether_error_kind(NULL), "");
  CHECK_BYTES(tether_error_message(NULL), "");
  CHECK_BYTES(tether_error_backtrace(NULL), "");
  TVMFFIObject not_error = {.combined_ref_count = 1, .type_index = kTVMFFIStr, .deleter = NULL};
  CHECK_BYTES(tether_error_kind(&not_error), "");
}

/* ---- threads --------------------------------------------------------------------------- */

typedef struct {
  const char* msg;
  pthread_barrier_t* raised; /* all threads have raised */
  pthread_barrier_t* checked; /* the main thread has looked at its own slot */
  int ok;
} thread_arg_t;

static void* raise_and_collect(void* p) {
  thread_arg_t* arg = p;
  tether_raise("ValueError", "%s", arg->msg);
  pthread_barrier_wait(arg->raised);
  pthread_barrier_wait(arg->checked);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray msg = tether_error_message(err);
  arg->ok = err != NULL && msg.size == strlen(arg->msg) && memcmp(msg.data, arg->msg, msg.size) == 0;
  TVMFFIObjectHandle again = NULL;
  TVMFFIErrorMoveFromRaised(&again);
  if (again != NULL) arg->ok = 0;
  TVMFFIObjectDecRef(err);
  return NULL;
}

static void test_thread_isolation(void) {
  pthread_barrier_t raised, checked;
  pthread_barrier_init(&raised, NULL, 3);
  pthread_barrier_init(&checked, NULL, 3);
  thread_arg_t a = {"from thread A", &raised, &checked, 0};
  thread_arg_t b = {"from thread B", &raised, &checked, 0};
  pthread_t ta, tb;
  tether_raise("KeyError", "main's own");
  pthread_create(&ta, NULL, raise_and_collect, &a);
  pthread_create(&tb, NULL, raise_and_collect, &b);
  pthread_barrier_wait(&raised);
  /* Both threads hold an error now; the main thread still sees only its own. */
  CHECK_RAISED(-1, "KeyError", "main's own");
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err == NULL);
  pthread_barrier_wait(&checked);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  CHECK(a.ok);
  CHECK(b.ok);
  pthread_barrier_destroy(&raised);
  pthread_barrier_destroy(&checked);
}

static void* raise_and_exit(void* p) {
  TVMFFIObjectHandle cause = make_error("cause");
  TVMFFIByteArray kind = bytes_of("RuntimeError"), msg = bytes_of("never collected");
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &msg, NULL, cause, NULL, &err);
  TVMFFIErrorSetRaised(err);
  TVMFFIObjectDecRef(err);
  TVMFFIObjectDecRef(cause);
  *(int64_t*)p = tether_object_live_count();
  return NULL; /* the slot still holds err (and through it, cause) */
}

/* An error left in a thread's slot is released when the thread exits (the live count
 * check of the harness, and valgrind, would catch it otherwise). */
static void test_thread_exit_releases_slot(void) {
  int64_t before = tether_object_live_count();
  int64_t during = 0;
  pthread_t t;
  pthread_create(&t, NULL, raise_and_exit, &during);
  pthread_join(t, NULL);
  CHECK_EQ_INT(during, before + 2);
  CHECK_EQ_INT(tether_object_live_count(), before);
}

TEST_MAIN(TEST_CASE(test_create_fields), TEST_CASE(test_create_embedded_nul_and_empty),
          TEST_CASE(test_create_leaves_slot_alone), TEST_CASE(test_create_out_of_memory),
          TEST_CASE(test_create_with_cause_and_extra),
          TEST_CASE(test_update_backtrace), TEST_CASE(test_move_from_raised_empty),
          TEST_CASE(test_set_raised_borrows), TEST_CASE(test_set_raised_replaces_and_releases),
          TEST_CASE(test_set_raised_from_cstr), TEST_CASE(test_set_raised_from_cstr_parts),
          TEST_CASE(test_tether_raise), TEST_CASE(test_tether_raise_long_message),
          TEST_CASE(test_raisef_at_explicit_location), TEST_CASE(test_library_error_first_frame),
          TEST_CASE(test_read_non_error), TEST_CASE(test_thread_isolation),
          TEST_CASE(test_thread_exit_releases_slot))
