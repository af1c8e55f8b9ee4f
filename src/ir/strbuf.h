/*
 * strbuf.h -- the growable NUL-terminated text buffer libtether_ir's printer, symbolic
 * arithmetic (atom keys) and structural equality (access paths) build their text in.
 * Appenders never fail visibly: on out-of-memory `oom` is set and later appends are
 * dropped, so callers check once at the end.  A zeroed trx__buf_t is an empty buffer.
 */
#ifndef TETHER_SRC_IR_STRBUF_H_
#define TETHER_SRC_IR_STRBUF_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/strbuf.h is private to libtether_ir"
#endif

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char* s; /* owned; NULL until the first append */
  size_t n, cap;
  bool oom;
} trx__buf_t;

void trx__buf_put(trx__buf_t* b, const char* s, size_t n);
void trx__buf_puts(trx__buf_t* b, const char* s);
void trx__buf_printf(trx__buf_t* b, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees the text and resets the buffer to empty. */
void trx__buf_free(trx__buf_t* b);

#endif /* TETHER_SRC_IR_STRBUF_H_ */
