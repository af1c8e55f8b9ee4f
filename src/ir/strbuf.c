/*
 * strbuf.c -- the growable text buffer of strbuf.h.
 */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void trx__buf_put(trx__buf_t* b, const char* s, size_t n) {
  if (b->oom) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->n + n + 1) cap *= 2;
    char* p = realloc(b->s, cap);
    if (p == NULL) {
      b->oom = true;
      return;
    }
    b->s = p;
    b->cap = cap;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}

void trx__buf_puts(trx__buf_t* b, const char* s) { trx__buf_put(b, s, strlen(s)); }

void trx__buf_printf(trx__buf_t* b, const char* fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (k < 0) return;
  if ((size_t)k < sizeof(small)) {
    trx__buf_put(b, small, (size_t)k);
    return;
  }
  char* big = malloc((size_t)k + 1);
  if (big == NULL) {
    b->oom = true;
    return;
  }
  va_start(ap, fmt);
  vsnprintf(big, (size_t)k + 1, fmt, ap);
  va_end(ap);
  trx__buf_put(b, big, (size_t)k);
  free(big);
}

void trx__buf_free(trx__buf_t* b) {
  free(b->s);
  *b = (trx__buf_t){0};
}
