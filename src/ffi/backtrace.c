/*
 * backtrace.c -- TVMFFIBacktrace: the frame it is handed, formatted as in spec 1.7
 * (`  File "<file>", line <n>, in <func>\n`, most recent call first), in a per-thread
 * buffer valid until the next call on the same thread.
 */
#include <stdio.h>

#include "internal.h"

static _Thread_local char tether__bt_buf[4096];
static _Thread_local TVMFFIByteArray tether__bt;

const TVMFFIByteArray* TVMFFIBacktrace(const char* filename, int lineno, const char* func,
                                       int cross_ffi_boundary) {
  (void)cross_ffi_boundary;
  int n = 0;
  if (filename != NULL || func != NULL) {
    n = snprintf(tether__bt_buf, sizeof(tether__bt_buf), "  File \"%s\", line %d, in %s\n",
                 filename != NULL ? filename : "<unknown>", lineno,
                 func != NULL ? func : "<unknown>");
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof(tether__bt_buf)) n = (int)sizeof(tether__bt_buf) - 1;
  }
  tether__bt_buf[n] = '\0';
  tether__bt.data = tether__bt_buf;
  tether__bt.size = (size_t)n;
  return &tether__bt;
}
