/*
 * json.h -- libtether-internal API of json.c: JSON text <-> JSON values (see
 * <tether/json.h> for the value model), parsed documents, text buffers, and base64.
 * Not exported.
 */
#ifndef TETHER_SRC_FFI_JSON_H_
#define TETHER_SRC_FFI_JSON_H_
#ifndef TETHER_BUILD_CORE
#error "src/ffi/json.h is private to libtether; include <tether/json.h> instead"
#endif

#include "internal.h"

/* tether_json_parse with the name of the calling function (`who`) in raised messages. */
int tether__json_parse(const char* who, const char* text, size_t len, TVMFFIAny* out,
                       TVMFFIAny* error_msg);
/* tether_json_stringify with the name of the calling function in raised messages. */
int tether__json_stringify(const char* who, const TVMFFIAny* value, int indent, TVMFFIAny* out);

/* Grows the malloc'd array *items of *cap `elem`-byte records to hold at least `need`
 * (doubling); false when out of memory (nothing raised, *items unchanged).  The stacks of
 * the JSON reader, writer and graph code all grow this way. */
bool tether__json_grow_slow(void** items, int64_t* cap, int64_t need, size_t elem);
static inline bool tether__json_grow(void** items, int64_t* cap, int64_t need, size_t elem) {
  return need <= *cap || tether__json_grow_slow(items, cap, need, elem);
}

/* ---- text buffers ------------------------------------------------------------------------ */

/* A growable text buffer.  Running out of memory sets `oom` and turns every later write
 * into a no-op, so a writer checks once at the end.  Start zeroed; free(data) when done. */
typedef struct {
  char* data;
  size_t len;
  size_t cap;
  bool oom;
} tether_jbuf;

/* Makes room for `extra` more bytes; false (and oom set) when out of memory. */
bool tether__jbuf_grow(tether_jbuf* b, size_t extra);

static inline bool tether__jbuf_reserve(tether_jbuf* b, size_t extra) {
  return (!b->oom && extra <= b->cap - b->len) || tether__jbuf_grow(b, extra);
}

static inline void tether__jbuf_put(tether_jbuf* b, const char* s, size_t n) {
  if (n == 0 || !tether__jbuf_reserve(b, n)) return;
  char* d = b->data + b->len;
  /* Short pieces (keys, punctuation) as two overlapping fixed-size copies. */
  if (n >= 16 && n <= 32) {
    memcpy(d, s, 16);
    memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    memcpy(d, s, 8);
    memcpy(d + n - 8, s + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    memcpy(d, s, 4);
    memcpy(d + n - 4, s + n - 4, 4);
  } else {
    memcpy(d, s, n);
  }
  b->len += n;
}

static inline void tether__jbuf_putc(tether_jbuf* b, char c) {
  if (!tether__jbuf_reserve(b, 1)) return;
  b->data[b->len++] = c;
}

/* Appends JSON text: a quoted, escaped string of n bytes; an int; a float (NaN, Infinity,
 * -Infinity, integral values with ".0", others with 17 significant digits). */
void tether__json_put_string(tether_jbuf* b, const char* s, size_t n);
void tether__json_put_int(tether_jbuf* b, int64_t v);
void tether__json_put_float(tether_jbuf* b, double v);
/* Appends the JSON string of the base64 text of n bytes (as tether__base64_encode, with
 * the writer's escapes: '/' as "\\/"). */
void tether__json_put_base64(tether_jbuf* b, const uint8_t* data, size_t n);
/* Appends the JSON value `value` (a view) as tether_json_stringify writes it, with
 * `indent` spaces per level (0: compact).  -1 with ValueError naming `who` for a value
 * JSON cannot hold; running out of memory only sets out->oom. */
int tether__json_write(const char* who, tether_jbuf* out, const TVMFFIAny* value, int indent);

/* ---- parsed documents -------------------------------------------------------------------- */

/*
 * A JSON document read by tether__jdoc_parse (or mirrored from a JSON value by
 * tether__jdoc_from_any), without making FFI objects: every value is a tether_jval; the
 * items of each container lie next to each other in doc->items (an object's as key,
 * value, key, value, ...).  Strings are borrowed from the text when they hold no escape,
 * otherwise they live in the document.  Duplicate keys stay in the object (the last one
 * counts).  A document is freed with tether__jdoc_free; its strings are valid until then
 * (and, when borrowed, as long as the text or source value lives).
 */
typedef enum {
  TETHER_JV_NULL,
  TETHER_JV_BOOL,   /* u.i: 0 or 1 */
  TETHER_JV_INT,    /* u.i */
  TETHER_JV_FLOAT,  /* u.f */
  TETHER_JV_STR,    /* u.s */
  TETHER_JV_ARRAY,  /* u.c: `count` items from doc->items[first] */
  TETHER_JV_OBJECT, /* u.c: `count` members: 2 * count items from doc->items[first] */
  TETHER_JV_ANY     /* u.any: a value that is not JSON, borrowed from the source value */
} tether_jkind;

typedef struct {
  int32_t kind;
  union {
    int64_t i;
    double f;
    TVMFFIByteArray s;
    struct {
      int64_t first;
      int64_t count;
    } c;
    const TVMFFIAny* any;
  } u;
} tether_jval;

typedef struct tether_jchunk tether_jchunk;

typedef struct {
  tether_jval root;
  tether_jval* items;
  int64_t num_items;
  int64_t cap_items;
  tether_jchunk* chunks; /* the unescaped strings */
} tether_jdoc;

/* Parses `len` bytes of text into *doc (which must be zeroed; tether__jdoc_free it even on
 * failure).  0 on success; -1 with an error raised (error_msg NULL: ValueError for a
 * syntax error, as tether__json_parse; MemoryError); with error_msg != NULL a syntax error
 * returns 1 and stores its message in *error_msg (owning) instead of raising. */
int tether__jdoc_parse(const char* who, const char* text, size_t len, tether_jdoc* doc,
                       TVMFFIAny* error_msg);
/* Mirrors the JSON value `value` (a view; None, bool, int, float, strings, ffi.Array,
 * ffi.Map; anything else becomes TETHER_JV_ANY) into *doc (zeroed first).  The document
 * borrows strings and ANY values from `value`, which must outlive it.  -1: MemoryError. */
int tether__jdoc_from_any(const char* who, const TVMFFIAny* value, tether_jdoc* doc);
/* The JSON value of `v` (an item or the root of `doc`) as FFI values, into *out
 * (owning): Array, Map, strings and scalars.  -1: MemoryError. */
int tether__jdoc_to_any(const tether_jdoc* doc, const tether_jval* v, TVMFFIAny* out);
/* The member value stored under `key` in the object `obj` (the last one when repeated),
 * borrowed, or NULL. */
const tether_jval* tether__jdoc_get(const tether_jdoc* doc, const tether_jval* obj,
                                    const char* key, size_t n);
/* The type key of the value `v` would become (for messages). */
const char* tether__jval_type_key(const tether_jval* v);
void tether__jdoc_free(tether_jdoc* doc);

/* ---- base64 ------------------------------------------------------------------------------ */

/* Standard base64 (RFC 4648 alphabet, '=' padding) of n bytes: a new malloc'd, NUL-ended
 * text of *out_len characters, or NULL when out of memory (nothing raised). */
char* tether__base64_encode(const uint8_t* data, size_t n, size_t* out_len);
/* Decodes base64 text into a new malloc'd buffer of *out_len bytes (*out; non-NULL even
 * for 0 bytes).  Returns 0; 1 when the text is not valid padded base64 (length not a
 * multiple of 4, a character outside the alphabet, misplaced '='); -1 out of memory.
 * Nothing is raised. */
int tether__base64_decode(const char* text, size_t n, uint8_t** out, size_t* out_len);

#endif /* TETHER_SRC_FFI_JSON_H_ */
