/*
 * json.c -- JSON text read into and written from JSON values (None, bool, int, float,
 * strings, ffi.Array, ffi.Map; see <tether/json.h>), base64, and the globals
 * ffi.json.Parse and ffi.json.Stringify.
 *
 * The reader accepts what tvm-ffi's reader accepts and reports errors with the same texts
 * and positions (Python's json module wording): a number is the longest run of
 * [0-9eE+-.]; without '.', 'e' or 'E' it is an int when it fits int64, otherwise a
 * double (an out-of-range double is an error; a subnormal one is kept, which tvm-ffi
 * rejects, so that every double the writer prints reads back); NaN, Infinity and -Infinity are literals;
 * strings are copied byte for byte except escapes (\uXXXX and surrogate pairs become
 * UTF-8); control characters below 0x20 must be escaped.  Duplicate object keys keep the
 * first key's position and the last value.
 *
 * Neither direction recurses: the reader keeps the open containers on a frame stack and
 * the finished values on a value stack; the writer keeps a stack of containers being
 * written.  Depth is limited only by memory.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/json.h>

#include "internal.h"
#include "error.h"
#include "json.h"
#include "map.h"

/* ---- growable buffers ------------------------------------------------------------------ */

bool tether__jbuf_grow(tether_jbuf* b, size_t extra) {
  if (b->oom) return false;
  if (extra <= b->cap - b->len) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap - b->len < extra) {
    if (cap > SIZE_MAX / 2) {
      b->oom = true;
      return false;
    }
    cap *= 2;
  }
  char* data = realloc(b->data, cap);
  if (data == NULL) {
    b->oom = true;
    return false;
  }
  b->data = data;
  b->cap = cap;
  return true;
}

bool tether__json_grow_slow(void** items, int64_t* cap, int64_t need, size_t elem) {
  if (need <= *cap) return true;
  int64_t n = *cap ? *cap : 16;
  while (n < need) n *= 2;
  if ((uint64_t)n > SIZE_MAX / elem) return false;
  void* p = realloc(*items, (size_t)n * elem);
  if (p == NULL) return false;
  *items = p;
  *cap = n;
  return true;
}

/* ---- documents --------------------------------------------------------------------------- */

struct tether_jchunk {
  tether_jchunk* next;
  size_t used;
  size_t cap;
  char data[];
};

#define TETHER_JCHUNK_SIZE 65536

/* n bytes of string storage that lives as long as the document; NULL when out of memory. */
static char* tether__jdoc_alloc(tether_jdoc* doc, size_t n) {
  tether_jchunk* c = doc->chunks;
  if (c == NULL || c->cap - c->used < n) {
    size_t cap = n > TETHER_JCHUNK_SIZE ? n : TETHER_JCHUNK_SIZE;
    if (cap > SIZE_MAX - sizeof(*c)) return NULL;
    c = malloc(sizeof(*c) + cap);
    if (c == NULL) return NULL;
    c->used = 0;
    c->cap = cap;
    c->next = doc->chunks;
    doc->chunks = c;
  }
  char* p = c->data + c->used;
  c->used += n;
  return p;
}

/* Moves the n values at `stack` into doc->items (one container's items); their first
 * index in *first.  false when out of memory. */
static bool tether__jdoc_store(tether_jdoc* doc, const tether_jval* stack, int64_t n,
                               int64_t* first) {
  /* (grown even for an empty container, so that doc->items + first is never NULL + 0) */
  if (!tether__json_grow((void**)&doc->items, &doc->cap_items, doc->num_items + (n > 0 ? n : 1),
                         sizeof(tether_jval))) {
    return false;
  }
  if (n > 0) memcpy(doc->items + doc->num_items, stack, sizeof(tether_jval) * (size_t)n);
  *first = doc->num_items;
  doc->num_items += n;
  return true;
}

void tether__jdoc_free(tether_jdoc* doc) {
  free(doc->items);
  for (tether_jchunk* c = doc->chunks; c != NULL;) {
    tether_jchunk* next = c->next;
    free(c);
    c = next;
  }
  memset(doc, 0, sizeof(*doc));
}

const char* tether__jval_type_key(const tether_jval* v) {
  if (v == NULL) return "None";
  switch (v->kind) {
    case TETHER_JV_NULL: return "None";
    case TETHER_JV_BOOL: return "bool";
    case TETHER_JV_INT: return "int";
    case TETHER_JV_FLOAT: return "float";
    case TETHER_JV_STR: return "ffi.String";
    case TETHER_JV_ARRAY: return "ffi.Array";
    case TETHER_JV_OBJECT: return "ffi.Map";
    default: return tether_any_type_key(v->u.any);
  }
}

const tether_jval* tether__jdoc_get(const tether_jdoc* doc, const tether_jval* obj,
                                    const char* key, size_t n) {
  if (obj == NULL || obj->kind != TETHER_JV_OBJECT) return NULL;
  const tether_jval* items = doc->items + obj->u.c.first;
  for (int64_t k = obj->u.c.count - 1; k >= 0; --k) {
    const tether_jval* name = &items[2 * k];
    if (name->kind == TETHER_JV_STR && name->u.s.size == n && memcmp(name->u.s.data, key, n) == 0) {
      return &items[2 * k + 1];
    }
  }
  return NULL;
}

/* A scalar (non-container) document value as an owning Any. */
static int tether__jval_scalar(const tether_jval* v, TVMFFIAny* out) {
  switch (v->kind) {
    case TETHER_JV_NULL: *out = tether_any_none(); return 0;
    case TETHER_JV_BOOL: *out = tether_any_bool(v->u.i != 0); return 0;
    case TETHER_JV_INT: *out = tether_any_int(v->u.i); return 0;
    case TETHER_JV_FLOAT: *out = tether_any_float(v->u.f); return 0;
    case TETHER_JV_STR: return tether_any_str(v->u.s.data, v->u.s.size, out);
    default: tether_any_copy(v->u.any, out); return 0;
  }
}

static bool tether__jval_is_container(const tether_jval* v) {
  return v->kind == TETHER_JV_ARRAY || v->kind == TETHER_JV_OBJECT;
}

int tether__jdoc_to_any(const tether_jdoc* doc, const tether_jval* v, TVMFFIAny* out) {
  *out = tether_any_none();
  if (!tether__jval_is_container(v)) return tether__jval_scalar(v, out);
  struct tether_tframe {
    const tether_jval* v;
    int64_t pos;
    int64_t start; /* first of its items on the value stack */
  } * frames = NULL;
  int64_t num_frames = 0, cap_frames = 0, num_vals = 0, cap_vals = 0;
  TVMFFIAny* vals = NULL;
  int rc = 0;
  if (!tether__json_grow((void**)&frames, &cap_frames, 1, sizeof(*frames))) goto oom;
  frames[num_frames++] = (struct tether_tframe){v, 0, 0};
  while (num_frames > 0) {
    struct tether_tframe* f = &frames[num_frames - 1];
    int64_t total = f->v->kind == TETHER_JV_ARRAY ? f->v->u.c.count : 2 * f->v->u.c.count;
    if (f->pos < total) {
      const tether_jval* item = &doc->items[f->v->u.c.first + f->pos++];
      if (tether__jval_is_container(item)) {
        if (!tether__json_grow((void**)&frames, &cap_frames, num_frames + 1, sizeof(*frames))) {
          goto oom;
        }
        frames[num_frames++] = (struct tether_tframe){item, 0, num_vals};
        continue;
      }
      if (!tether__json_grow((void**)&vals, &cap_vals, num_vals + 1, sizeof(TVMFFIAny))) goto oom;
      if (tether__jval_scalar(item, &vals[num_vals]) != 0) goto fail;
      ++num_vals;
      continue;
    }
    /* every item is made: the container */
    TVMFFIAny* items = vals == NULL ? NULL : vals + f->start; /* NULL: nothing pushed yet */
    int64_t n = num_vals - f->start;
    TVMFFIObject* obj = NULL;
    num_vals = f->start;
    if (f->v->kind == TETHER_JV_ARRAY) {
      TVMFFIObjectHandle arr = NULL;
      rc = tether_array_new_steal(items, n, &arr);
      obj = arr;
    } else {
      rc = tether__map_new(kTVMFFIMap, n / 2, &obj);
      for (int64_t i = 0; i < n; i += 2) {
        if (rc == 0) {
          rc = tether__map_set_steal(obj, &items[i], &items[i + 1]);
        } else {
          tether_any_release(&items[i]);
          tether_any_release(&items[i + 1]);
        }
      }
      if (rc != 0) TVMFFIObjectDecRef(obj);
    }
    if (rc != 0) goto fail;
    --num_frames;
    if (num_frames == 0) {
      *out = tether_any_object(obj);
      break;
    }
    if (!tether__json_grow((void**)&vals, &cap_vals, num_vals + 1, sizeof(TVMFFIAny))) {
      TVMFFIObjectDecRef(obj);
      goto oom;
    }
    vals[num_vals++] = tether_any_object(obj);
  }
  free(frames);
  free(vals);
  return 0;
oom:
  tether_raise("MemoryError", "out of memory");
fail:
  for (int64_t i = 0; i < num_vals; ++i) tether_any_release(&vals[i]);
  free(frames);
  free(vals);
  return -1;
}

/* The document value of a non-container Any (borrowed: `v` must outlive the document). */
static tether_jval tether__jval_of_any(const TVMFFIAny* v) {
  tether_jval j;
  memset(&j, 0, sizeof(j));
  switch (v->type_index) {
    case kTVMFFINone: j.kind = TETHER_JV_NULL; return j;
    case kTVMFFIBool: j.kind = TETHER_JV_BOOL; j.u.i = v->v_int64 != 0; return j;
    case kTVMFFIInt: j.kind = TETHER_JV_INT; j.u.i = v->v_int64; return j;
    case kTVMFFIFloat: j.kind = TETHER_JV_FLOAT; j.u.f = v->v_float64; return j;
    default: break;
  }
  if (tether_any_get_str(v, &j.u.s)) {
    j.kind = TETHER_JV_STR;
    return j;
  }
  j.kind = TETHER_JV_ANY;
  j.u.any = v;
  return j;
}

static bool tether__any_is_json_container(const TVMFFIAny* v) {
  return (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIMap) && v->v_obj != NULL;
}

int tether__jdoc_from_any(const char* who, const TVMFFIAny* value, tether_jdoc* doc) {
  memset(doc, 0, sizeof(*doc));
  if (!tether__any_is_json_container(value)) {
    doc->root = tether__jval_of_any(value);
    return 0;
  }
  struct tether_fframe {
    const TVMFFIAny* v;
    int64_t pos;
    int64_t start;
    const TVMFFIAny* value; /* a Map's entry whose key is listed, its value next */
  } * frames = NULL;
  int64_t num_frames = 0, cap_frames = 0, num_vals = 0, cap_vals = 0;
  tether_jval* vals = NULL;
  if (!tether__json_grow((void**)&frames, &cap_frames, 1, sizeof(*frames))) goto oom;
  frames[num_frames++] = (struct tether_fframe){value, 0, 0, NULL};
  while (num_frames > 0) {
    struct tether_fframe* f = &frames[num_frames - 1];
    const TVMFFIAny* item = NULL;
    TVMFFIObject* obj = f->v->v_obj;
    bool is_map = f->v->type_index == kTVMFFIMap;
    if (!is_map) {
      item = tether_array_at(obj, f->pos);
      if (item != NULL) ++f->pos;
    } else if (f->value != NULL) {
      item = f->value;
      f->value = NULL;
    } else {
      const TVMFFIAny* key = NULL;
      if (tether__map_next(obj, &f->pos, &key, &f->value)) item = key;
    }
    if (item != NULL && tether__any_is_json_container(item)) {
      if (!tether__json_grow((void**)&frames, &cap_frames, num_frames + 1, sizeof(*frames))) {
        goto oom;
      }
      frames[num_frames++] = (struct tether_fframe){item, 0, num_vals, NULL};
      continue;
    }
    if (!tether__json_grow((void**)&vals, &cap_vals, num_vals + 1, sizeof(tether_jval))) goto oom;
    if (item != NULL) {
      vals[num_vals++] = tether__jval_of_any(item);
      continue;
    }
    tether_jval c;
    memset(&c, 0, sizeof(c));
    c.kind = is_map ? TETHER_JV_OBJECT : TETHER_JV_ARRAY;
    int64_t n = num_vals - f->start;
    c.u.c.count = is_map ? n / 2 : n;
    if (!tether__jdoc_store(doc, vals == NULL ? NULL : vals + f->start, n, &c.u.c.first)) goto oom;
    num_vals = f->start;
    --num_frames;
    if (num_frames == 0) {
      doc->root = c;
    } else {
      vals[num_vals++] = c;
    }
  }
  free(frames);
  free(vals);
  return 0;
oom:
  free(frames);
  free(vals);
  tether__jdoc_free(doc);
  return tether_raise("MemoryError", "%s: out of memory", who);
}

/* ---- the reader ------------------------------------------------------------------------ */

typedef struct {
  const char* begin;
  const char* cur;
  const char* end;
  /* Lines are counted where whitespace is skipped (a newline cannot occur elsewhere in
   * valid text); an error's column is measured from line_begin. */
  const char* line_begin;
  int64_t line;
  /* The first error: its reason and where it was found. */
  const char* reason;
  int64_t err_line;
  int64_t err_column;
  int64_t err_char;
  bool oom;
  tether_jdoc* doc;
  tether_jbuf scratch; /* unescaped string bytes, number text */
  tether_jval* values; /* finished values not yet in a container */
  int64_t num_values;
  int64_t cap_values;
  struct tether_jframe {
    int64_t start; /* first of this container's items on the value stack */
    bool is_object;
  } * frames;
  int64_t num_frames;
  int64_t cap_frames;
} tether_jparser;

enum { TETHER_JSON_FAIL = -1, TETHER_JSON_OK = 0 };

static int tether__jp_error_at(tether_jparser* p, const char* pos, const char* reason) {
  if (p->reason == NULL) {
    p->reason = reason;
    p->err_line = p->line;
    p->err_column = (int64_t)(pos - p->line_begin) + 1;
    p->err_char = (int64_t)(pos - p->begin);
  }
  return TETHER_JSON_FAIL;
}

static int tether__jp_error(tether_jparser* p, const char* reason) {
  return tether__jp_error_at(p, p->cur, reason);
}

static int tether__jp_oom(tether_jparser* p) {
  p->oom = true;
  return TETHER_JSON_FAIL;
}

static int tether__jp_peek(const tether_jparser* p) {
  return p->cur != p->end ? (int)(unsigned char)*p->cur : -1;
}

static void tether__jp_skip_run(tether_jparser* p) {
  while (p->cur != p->end) {
    char c = *p->cur;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    if (c == '\n') {
      ++p->line;
      p->line_begin = p->cur + 1;
    }
    ++p->cur;
  }
}

/* Skips whitespace; compact text has none, which is checked inline. */
static inline void tether__jp_skip_spaces(tether_jparser* p) {
  if (p->cur != p->end && (unsigned char)*p->cur > ' ') return;
  tether__jp_skip_run(p);
}

/* Consumes `lit` if the text continues with it; on a mismatch the position is wherever
 * the comparison stopped (callers report the error at the token's start). */
static bool tether__jp_match(tether_jparser* p, const char* lit) {
  for (; *lit != '\0'; ++lit, ++p->cur) {
    if (p->cur == p->end || *p->cur != *lit) return false;
  }
  return true;
}

static int tether__jp_push_slow(tether_jparser* p, tether_jval v) {
  if (!tether__json_grow((void**)&p->values, &p->cap_values, p->num_values + 1,
                         sizeof(tether_jval))) {
    return tether__jp_oom(p);
  }
  p->values[p->num_values++] = v;
  return TETHER_JSON_OK;
}

static inline int tether__jp_push(tether_jparser* p, tether_jval v) {
  if (TETHER_UNLIKELY(p->num_values == p->cap_values)) return tether__jp_push_slow(p, v);
  p->values[p->num_values++] = v;
  return TETHER_JSON_OK;
}

static int tether__jp_push_int(tether_jparser* p, int32_t kind, int64_t i) {
  tether_jval v;
  v.kind = kind;
  v.u.i = i;
  return tether__jp_push(p, v);
}

static int tether__jp_push_float(tether_jparser* p, double d) {
  tether_jval v;
  v.kind = TETHER_JV_FLOAT;
  v.u.f = d;
  return tether__jp_push(p, v);
}

static int tether__jp_push_str(tether_jparser* p, const char* s, size_t n) {
  tether_jval v;
  v.kind = TETHER_JV_STR;
  v.u.s.data = s;
  v.u.s.size = n;
  return tether__jp_push(p, v);
}

static bool tether__jp_hex4(tether_jparser* p, int32_t* out) {
  int32_t r = 0;
  for (int i = 0; i < 4; ++i, ++p->cur) {
    if (p->cur == p->end) return false;
    int c = (unsigned char)*p->cur;
    if (c >= '0' && c <= '9') {
      c -= '0';
    } else if (c >= 'a' && c <= 'f') {
      c -= 'a' - 10;
    } else if (c >= 'A' && c <= 'F') {
      c -= 'A' - 10;
    } else {
      return false;
    }
    r = r * 16 + c;
  }
  *out = r;
  return true;
}

static void tether__jp_put_utf8(tether_jbuf* b, int32_t cp) {
  char u[4];
  size_t n;
  if (cp < 0x80) {
    u[0] = (char)cp;
    n = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | (cp >> 6));
    u[1] = (char)(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | (cp >> 12));
    u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    u[0] = (char)(0xF0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    n = 4;
  }
  tether__jbuf_put(b, u, n);
}

/* One escape sequence; p->cur is just past the backslash. */
static int tether__jp_escape(tether_jparser* p) {
  static const char from[] = "\"\\/bfnrt";
  static const char to[] = "\"\\/\b\f\n\r\t";
  int c = tether__jp_peek(p);
  const char* hit = c > 0 ? strchr(from, c) : NULL;
  if (hit != NULL) {
    ++p->cur;
    tether__jbuf_putc(&p->scratch, to[hit - from]);
    return TETHER_JSON_OK;
  }
  if (c != 'u') return tether__jp_error(p, "Invalid \\escape");
  const char* esc = p->cur++;
  int32_t first, second, cp;
  if (!tether__jp_hex4(p, &first)) return tether__jp_error_at(p, esc, "Invalid \\uXXXX escape");
  if (first >= 0xD800 && first <= 0xDFFF) {
    static const char pair[] = "Invalid surrogate pair of \\uXXXX escapes";
    if (first >= 0xDC00 || !tether__jp_match(p, "\\u")) return tether__jp_error_at(p, esc, pair);
    esc = p->cur;
    if (!tether__jp_hex4(p, &second)) {
      return tether__jp_error_at(p, esc, "Invalid \\uXXXX escape");
    }
    if (second < 0xDC00 || second > 0xDFFF) return tether__jp_error_at(p, esc, pair);
    cp = ((first - 0xD800) << 10) + (second - 0xDC00) + 0x10000;
  } else {
    cp = first;
  }
  tether__jp_put_utf8(&p->scratch, cp);
  return TETHER_JSON_OK;
}

/* Bytes that end a run of plain string characters: the quote, the backslash and the
 * control characters below 0x20. */
static const bool tether__jp_special[256] = {
    [0x00] = 1, [0x01] = 1, [0x02] = 1, [0x03] = 1, [0x04] = 1, [0x05] = 1, [0x06] = 1,
    [0x07] = 1, [0x08] = 1, [0x09] = 1, [0x0a] = 1, [0x0b] = 1, [0x0c] = 1, [0x0d] = 1,
    [0x0e] = 1, [0x0f] = 1, [0x10] = 1, [0x11] = 1, [0x12] = 1, [0x13] = 1, [0x14] = 1,
    [0x15] = 1, [0x16] = 1, [0x17] = 1, [0x18] = 1, [0x19] = 1, [0x1a] = 1, [0x1b] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, ['"'] = 1, ['\\'] = 1,
};

static const char* tether__jp_plain_run(const char* s, const char* end) {
  while (s != end && !tether__jp_special[(unsigned char)*s]) ++s;
  return s;
}

/* A string token; p->cur is at its opening quote.  Without escapes the value borrows the
 * text; otherwise the unescaped bytes are copied into the document. */
static int tether__jp_string(tether_jparser* p) {
  const char* start = p->cur++;
  const char* s = tether__jp_plain_run(p->cur, p->end);
  if (s != p->end && *s == '"') { /* no escapes */
    const char* data = p->cur;
    p->cur = s + 1;
    return tether__jp_push_str(p, data, (size_t)(s - data));
  }
  p->scratch.len = 0;
  while (s != p->end) {
    tether__jbuf_put(&p->scratch, p->cur, (size_t)(s - p->cur));
    p->cur = s;
    unsigned char c = (unsigned char)*s;
    if (c < 0x20) return tether__jp_error(p, "Invalid control character at");
    if (c == '"') {
      ++p->cur;
      if (p->scratch.oom) return tether__jp_oom(p);
      char* copy = tether__jdoc_alloc(p->doc, p->scratch.len);
      if (copy == NULL) return tether__jp_oom(p);
      memcpy(copy, p->scratch.data, p->scratch.len);
      return tether__jp_push_str(p, copy, p->scratch.len);
    }
    ++p->cur; /* the backslash */
    if (tether__jp_escape(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
    s = tether__jp_plain_run(p->cur, p->end);
  }
  tether__jbuf_put(&p->scratch, p->cur, (size_t)(s - p->cur));
  p->cur = s;
  return tether__jp_error_at(p, start, "Unterminated string starting at");
}

/* A number, or NaN / Infinity / -Infinity; p->cur is at its first character. */
static int tether__jp_number(tether_jparser* p) {
  const char* start = p->cur;
  bool negative = false;
  if (*p->cur == '-') {
    negative = true;
    ++p->cur;
  }
  int c = tether__jp_peek(p);
  if (c == 'I' || (c == 'N' && !negative)) {
    if (!tether__jp_match(p, c == 'I' ? "Infinity" : "NaN")) {
      return tether__jp_error_at(p, start, "Expecting value");
    }
    double d = c == 'N' ? NAN : (negative ? -INFINITY : INFINITY);
    return tether__jp_push_float(p, d);
  }
  bool maybe_int = true;
  bool digits_only = true; /* after the optional sign */
  while (p->cur != p->end) {
    char ch = *p->cur;
    if (ch >= '0' && ch <= '9') {
      ++p->cur;
      continue;
    }
    if (!(ch == 'e' || ch == 'E' || ch == '+' || ch == '-' || ch == '.')) break;
    if (ch == '.' || ch == 'e' || ch == 'E') maybe_int = false;
    digits_only = false;
    ++p->cur;
  }
  if (p->cur == start) return tether__jp_error(p, "Expecting value");
  /* The common case, up to 18 digits: exact in int64 without strtoimax. */
  const char* digits = start + (negative ? 1 : 0);
  if (digits_only && p->cur > digits && p->cur - digits <= 18) {
    int64_t i = 0;
    for (const char* d = digits; d != p->cur; ++d) i = i * 10 + (*d - '0');
    return tether__jp_push_int(p, TETHER_JV_INT, negative ? -i : i);
  }
  p->scratch.len = 0;
  tether__jbuf_put(&p->scratch, start, (size_t)(p->cur - start));
  tether__jbuf_putc(&p->scratch, '\0');
  if (p->scratch.oom) return tether__jp_oom(p);
  const char* text = p->scratch.data;
  const char* text_end = text + (p->cur - start);
  char* stop;
  if (maybe_int) {
    errno = 0;
    intmax_t i = strtoimax(text, &stop, 10);
    if (errno == 0 && stop == text_end && i >= INT64_MIN && i <= INT64_MAX) {
      return tether__jp_push_int(p, TETHER_JV_INT, (int64_t)i);
    }
  }
  errno = 0;
  double d = strtod(text, &stop);
  /* A subnormal result is exact enough to keep (the writer prints them); an overflow, or
   * an underflow to zero, is an error as in tvm-ffi. */
  bool subnormal = errno == ERANGE && d != 0 && fabs(d) < DBL_MIN;
  if ((errno != 0 && !subnormal) || stop != text_end) {
    return tether__jp_error_at(p, start, "Expecting value");
  }
  return tether__jp_push_float(p, d);
}

/* A scalar value starting at p->cur (not whitespace, not '[' or '{'). */
static int tether__jp_scalar(tether_jparser* p) {
  static const struct {
    char first;
    const char* rest;
    int32_t kind;
    int64_t value;
  } literals[] = {{'t', "rue", TETHER_JV_BOOL, 1},
                  {'f', "alse", TETHER_JV_BOOL, 0},
                  {'n', "ull", TETHER_JV_NULL, 0}};
  int c = tether__jp_peek(p);
  if (c == -1) return tether__jp_error(p, "Expecting value");
  if (c == '"') return tether__jp_string(p);
  for (size_t i = 0; i < sizeof(literals) / sizeof(literals[0]); ++i) {
    if (c != literals[i].first) continue;
    const char* start = p->cur++;
    if (!tether__jp_match(p, literals[i].rest)) return tether__jp_error_at(p, start, "Expecting value");
    return tether__jp_push_int(p, literals[i].kind, literals[i].value);
  }
  return tether__jp_number(p);
}

static int tether__jp_open(tether_jparser* p, bool is_object) {
  if (!tether__json_grow((void**)&p->frames, &p->cap_frames, p->num_frames + 1,
                          sizeof(p->frames[0]))) {
    return tether__jp_oom(p);
  }
  p->frames[p->num_frames].start = p->num_values;
  p->frames[p->num_frames].is_object = is_object;
  ++p->num_frames;
  return TETHER_JSON_OK;
}

/* Closes the innermost container: its items (key/value pairs for an object) leave the
 * value stack for the document, and the container takes their place. */
static int tether__jp_close(tether_jparser* p) {
  struct tether_jframe f = p->frames[--p->num_frames];
  int64_t n = p->num_values - f.start;
  tether_jval c;
  c.kind = f.is_object ? TETHER_JV_OBJECT : TETHER_JV_ARRAY;
  c.u.c.count = f.is_object ? n / 2 : n;
  const tether_jval* items = p->values == NULL ? NULL : p->values + f.start; /* NULL: nothing pushed yet */
  if (!tether__jdoc_store(p->doc, items, n, &c.u.c.first)) return tether__jp_oom(p);
  p->num_values = f.start;
  return tether__jp_push(p, c);
}

/* An object key and its ':' delimiter; p->cur is at the key's first character. */
static int tether__jp_key(tether_jparser* p) {
  if (tether__jp_peek(p) != '"') return tether__jp_error(p, "Expecting property name enclosed in double quotes");
  if (tether__jp_string(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
  tether__jp_skip_spaces(p);
  if (tether__jp_peek(p) != ':') return tether__jp_error(p, "Expecting ':' delimiter");
  ++p->cur;
  return TETHER_JSON_OK;
}
/* The whole document.  States: `value` needs a value next; `after` has just finished one
 * and looks at what the innermost open container expects. */
static int tether__jp_document(tether_jparser* p) {
value:
  tether__jp_skip_spaces(p);
  if (tether__jp_peek(p) == '[' || tether__jp_peek(p) == '{') {
    bool is_object = *p->cur == '{';
    ++p->cur;
    tether__jp_skip_spaces(p);
    int c = tether__jp_peek(p);
    if (c == -1) {
      return tether__jp_error(p, is_object ? "Expecting property name enclosed in double quotes"
                                           : "Expecting value");
    }
    if (tether__jp_open(p, is_object) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
    if (c == (is_object ? '}' : ']')) {
      ++p->cur;
      if (tether__jp_close(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
      goto after;
    }
    if (!is_object) goto value;
    if (tether__jp_key(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
    goto value;
  }
  if (tether__jp_scalar(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
after:
  if (p->num_frames == 0) {
    tether__jp_skip_spaces(p);
    if (p->cur != p->end) return tether__jp_error(p, "Extra data");
    return TETHER_JSON_OK;
  }
  tether__jp_skip_spaces(p);
  bool is_object = p->frames[p->num_frames - 1].is_object;
  int c = tether__jp_peek(p);
  if (c == (is_object ? '}' : ']')) {
    ++p->cur;
    if (tether__jp_close(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
    goto after;
  }
  if (c != ',') return tether__jp_error(p, "Expecting ',' delimiter");
  ++p->cur;
  tether__jp_skip_spaces(p);
  /* Input ending right after a comma: tvm-ffi reports it without a specific reason. */
  if (p->cur == p->end) return tether__jp_error(p, "Syntax error near");
  if (!is_object) goto value;
  if (tether__jp_key(p) != TETHER_JSON_OK) return TETHER_JSON_FAIL;
  goto value;
}


int tether__jdoc_parse(const char* who, const char* text, size_t len, tether_jdoc* doc,
                       TVMFFIAny* error_msg) {
  if (doc == NULL || (text == NULL && len != 0)) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        doc == NULL ? "out" : "text");
  }
  if (error_msg != NULL) *error_msg = tether_any_none();
  tether_jparser p;
  memset(&p, 0, sizeof(p));
  p.begin = p.cur = p.line_begin = text != NULL ? text : "";
  p.end = p.begin + len;
  p.line = 1;
  p.doc = doc;
  int rc = tether__jp_document(&p);
  int result = 0;
  if (rc == TETHER_JSON_OK) {
    doc->root = p.values[0];
  } else if (p.oom) {
    result = tether_raise("MemoryError", "%s: out of memory", who);
  } else {
    char msg[160];
    int n = snprintf(msg, sizeof(msg), "%s: line %" PRId64 " column %" PRId64 " (char %" PRId64 ")",
                     p.reason, p.err_line, p.err_column, p.err_char);
    if (error_msg == NULL) {
      result = tether_raise("ValueError", "%s: %s", who, msg);
    } else if (tether_any_str(msg, (size_t)n, error_msg) != 0) {
      result = -1;
    } else {
      result = 1;
    }
  }
  if (result == 0 && error_msg != NULL) result = tether_any_str("", 0, error_msg);
  free(p.values);
  free(p.frames);
  free(p.scratch.data);
  return result;
}

int tether__json_parse(const char* who, const char* text, size_t len, TVMFFIAny* out,
                       TVMFFIAny* error_msg) {
  if (out == NULL || (text == NULL && len != 0)) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        out == NULL ? "out" : "text");
  }
  *out = tether_any_none();
  tether_jdoc doc;
  memset(&doc, 0, sizeof(doc));
  int rc = tether__jdoc_parse(who, text, len, &doc, error_msg);
  if (rc == 0 && tether__jdoc_to_any(&doc, &doc.root, out) != 0) {
    rc = tether__error_add_context(who);
    if (error_msg != NULL) tether_any_release(error_msg);
  }
  tether__jdoc_free(&doc);
  return rc > 0 ? 0 : rc;
}

int tether_json_parse(const char* text, size_t len, TVMFFIAny* out, TVMFFIAny* error_msg) {
  return tether__json_parse("ffi.json.Parse", text, len, out, error_msg);
}

/* ---- the writer ------------------------------------------------------------------------ */

/* The escape of each byte below 0x80 that needs one: 'u' for \u00XX, else the letter. */
static const char tether__jw_escape[128] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n',
    ['\r'] = 'r', ['\t'] = 't', [0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u',
    [0x04] = 'u', [0x05] = 'u', [0x06] = 'u', [0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u',
    [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u', [0x13] = 'u', [0x14] = 'u',
    [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u', [0x19] = 'u', [0x1a] = 'u',
    [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u', [0x1e] = 'u', [0x1f] = 'u', [0x7f] = 'u',
};

void tether__json_put_string(tether_jbuf* b, const char* s, size_t n) {
  tether__jbuf_putc(b, '"');
  size_t run = 0; /* start of the bytes not yet copied */
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x80 || tether__jw_escape[c] == 0) continue;
    tether__jbuf_put(b, s + run, i - run);
    run = i + 1;
    char esc = tether__jw_escape[c];
    if (esc != 'u') {
      char two[2] = {'\\', esc};
      tether__jbuf_put(b, two, 2);
    } else {
      static const char hex[] = "0123456789abcdef";
      char six[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      tether__jbuf_put(b, six, 6);
    }
  }
  tether__jbuf_put(b, s + run, n - run);
  tether__jbuf_putc(b, '"');
}

void tether__json_put_int(tether_jbuf* b, int64_t v) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  size_t digits = 1;
  for (uint64_t t = u; t >= 10; t /= 10) ++digits;
  size_t n = digits + (v < 0);
  if (!tether__jbuf_reserve(b, n)) return;
  char* end = b->data + b->len + n;
  while (u >= 100) {
    unsigned k = (unsigned)(u % 100) * 2;
    u /= 100;
    *--end = pairs[k + 1];
    *--end = pairs[k];
  }
  if (u >= 10) {
    *--end = pairs[u * 2 + 1];
    *--end = pairs[u * 2];
  } else {
    *--end = (char)('0' + u);
  }
  if (v < 0) *--end = '-';
  b->len += n;
}

void tether__json_put_float(tether_jbuf* b, double v) {
  char text[40];
  int n;
  double int_part;
  if (isnan(v)) {
    n = snprintf(text, sizeof(text), "NaN");
  } else if (isinf(v)) {
    n = snprintf(text, sizeof(text), v < 0 ? "-Infinity" : "Infinity");
  } else if (fabs(v) < 9007199254740992.0 && modf(v, &int_part) == 0) {
    /* Integral values keep a ".0" so that they read back as floats. */
    n = snprintf(text, sizeof(text), "%.1f", int_part);
  } else {
    n = snprintf(text, sizeof(text), "%.17g", v);
  }
  tether__jbuf_put(b, text, (size_t)n);
}

typedef struct {
  tether_jbuf* out;
  int indent;
  int64_t depth;
  TVMFFIObject* active; /* Map: the containers being written, keyed by address */
  struct tether_wframe {
    TVMFFIObject* obj;
    int64_t pos;
    int64_t count;
  } * frames;
  int64_t num_frames;
  int64_t cap_frames;
} tether_jwriter;

static void tether__jw_newline(tether_jwriter* w) {
  if (w->indent == 0) return;
  tether__jbuf_putc(w->out, '\n');
  int64_t spaces = w->depth * w->indent;
  if (!tether__jbuf_reserve(w->out, (size_t)spaces)) return;
  memset(w->out->data + w->out->len, ' ', (size_t)spaces);
  w->out->len += (size_t)spaces;
}

static TVMFFIAny tether__jw_key(const TVMFFIObject* obj) {
  TVMFFIAny k = tether_any_none();
  k.type_index = kTVMFFIOpaquePtr;
  k.v_ptr = (void*)obj;
  return k;
}

/* Writes a scalar, or opens a container (pushing a frame). */
static int tether__jw_value(tether_jwriter* w, const char* who, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  switch (v->type_index) {
    case kTVMFFINone:
      tether__jbuf_put(w->out, "null", 4);
      return 0;
    case kTVMFFIBool:
      if (v->v_int64 != 0) {
        tether__jbuf_put(w->out, "true", 4);
      } else {
        tether__jbuf_put(w->out, "false", 5);
      }
      return 0;
    case kTVMFFIInt:
      tether__json_put_int(w->out, v->v_int64);
      return 0;
    case kTVMFFIFloat:
      tether__json_put_float(w->out, v->v_float64);
      return 0;
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      if (!tether_any_get_str(v, &s)) break;
      tether__json_put_string(w->out, s.data, s.size);
      return 0;
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap: {
      if (v->v_obj == NULL) break;
      TVMFFIAny key = tether__jw_key(v->v_obj);
      if (w->active == NULL && tether__map_new(kTVMFFIMap, 0, &w->active) != 0) {
        TVMFFIErrorMoveFromRaised(NULL);
        w->out->oom = true;
        return 0;
      }
      if (tether__map_get(w->active, &key) != NULL) {
        return tether_raise("ValueError", "%s: Cycle detected: %s contains itself", who,
                            tether_any_type_key(v));
      }
      TVMFFIAny yes = tether_any_bool(true);
      if (tether__map_set(w->active, &key, &yes) != 0 ||
          !tether__json_grow((void**)&w->frames, &w->cap_frames, w->num_frames + 1,
                              sizeof(w->frames[0]))) {
        TVMFFIErrorMoveFromRaised(NULL);
        w->out->oom = true;
        return 0;
      }
      w->frames[w->num_frames].obj = v->v_obj;
      w->frames[w->num_frames].pos = 0;
      w->frames[w->num_frames].count = 0;
      ++w->num_frames;
      ++w->depth;
      tether__jbuf_putc(w->out, v->type_index == kTVMFFIMap ? '{' : '[');
      return 0;
    }
    default:
      break;
  }
  return tether_raise("ValueError", "%s: Unsupported type: `%s`", who, tether_any_type_key(v));
}

static int tether__jw_document(tether_jwriter* w, const char* who, const TVMFFIAny* value) {
  if (tether__jw_value(w, who, value) != 0) return -1;
  while (w->num_frames > 0 && !w->out->oom) {
    struct tether_wframe* f = &w->frames[w->num_frames - 1];
    TVMFFIObject* obj = f->obj;
    const TVMFFIAny* item = NULL;
    const TVMFFIAny* key = NULL;
    bool is_map = obj->type_index == kTVMFFIMap;
    if (is_map) {
      if (!tether__map_next(obj, &f->pos, &key, &item)) item = NULL;
    } else if (obj->type_index == kTVMFFIArray) {
      item = tether_array_at(obj, f->pos++);
    } else {
      item = tether_list_at(obj, f->pos++);
    }
    if (item == NULL) { /* the end of this container */
      --w->depth;
      tether__jw_newline(w);
      tether__jbuf_putc(w->out, is_map ? '}' : ']');
      TVMFFIAny k = tether__jw_key(obj);
      tether__map_erase(w->active, &k);
      --w->num_frames;
      continue;
    }
    if (f->count++ != 0) tether__jbuf_putc(w->out, ',');
    tether__jw_newline(w);
    if (is_map) {
      TVMFFIByteArray s;
      if (!tether_any_get_str(key, &s)) {
        return tether_raise("ValueError", "%s: Expect key to be string, got `%s`", who,
                            tether_any_type_key(key));
      }
      tether__json_put_string(w->out, s.data, s.size);
      tether__jbuf_putc(w->out, ':');
      if (w->indent != 0) tether__jbuf_putc(w->out, ' ');
    }
    if (tether__jw_value(w, who, item) != 0) return -1;
  }
  return 0;
}

int tether__json_write(const char* who, tether_jbuf* out, const TVMFFIAny* value, int indent) {
  tether_jwriter w;
  memset(&w, 0, sizeof(w));
  w.out = out;
  w.indent = indent;
  int rc = tether__jw_document(&w, who, value);
  free(w.frames);
  if (w.active != NULL) TVMFFIObjectDecRef(w.active);
  return rc;
}

int tether__json_stringify(const char* who, const TVMFFIAny* value, int indent, TVMFFIAny* out) {
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", who,
                        value == NULL ? "value" : "out");
  }
  *out = tether_any_none();
  if (indent < 0) {
    return tether_raise("ValueError", "%s: indent must not be negative, got %d", who, indent);
  }
  tether_jbuf text;
  memset(&text, 0, sizeof(text));
  int rc = tether__json_write(who, &text, value, indent);
  if (rc == 0 && text.oom) rc = tether_raise("MemoryError", "%s: out of memory", who);
  if (rc == 0) rc = tether_any_str(text.data != NULL ? text.data : "", text.len, out);
  free(text.data);
  return rc == 0 ? 0 : tether__error_add_context(who);
}

int tether_json_stringify(const TVMFFIAny* value, int indent, TVMFFIAny* out) {
  return tether__json_stringify("ffi.json.Stringify", value, indent, out);
}

/* ---- base64 ---------------------------------------------------------------------------- */

static const char tether__b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char* tether__base64_encode(const uint8_t* data, size_t n, size_t* out_len) {
  if (n > (SIZE_MAX - 1) / 4 * 3 - 2) return NULL;
  size_t len = (n + 2) / 3 * 4;
  char* text = malloc(len + 1);
  if (text == NULL) return NULL;
  char* o = text;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t w = (uint32_t)data[i] << 16;
    if (i + 1 < n) w |= (uint32_t)data[i + 1] << 8;
    if (i + 2 < n) w |= data[i + 2];
    *o++ = tether__b64_alphabet[(w >> 18) & 63];
    *o++ = tether__b64_alphabet[(w >> 12) & 63];
    *o++ = i + 1 < n ? tether__b64_alphabet[(w >> 6) & 63] : '=';
    *o++ = i + 2 < n ? tether__b64_alphabet[w & 63] : '=';
  }
  *o = '\0';
  *out_len = len;
  return text;
}

/* Each base64 digit's value + 1 (0: not a digit). */
/* The two base64 digits of every 12-bit value, as the 2 bytes of a uint16_t in memory
 * order; filled at load (tether__json_init). */
static uint16_t tether__b64_pairs[4096];

static void tether__b64_pairs_fill(void) {
  for (int v = 0; v < 4096; ++v) {
    char two[2] = {tether__b64_alphabet[v >> 6], tether__b64_alphabet[v & 63]};
    memcpy(&tether__b64_pairs[v], two, 2);
  }
}

void tether__json_put_base64(tether_jbuf* b, const uint8_t* data, size_t n) {
  /* At most 4 digits per 3 bytes, each written as 2 characters when it is '/'. */
  if (n > (SIZE_MAX - 2) / 3 - 2 || !tether__jbuf_reserve(b, (n + 2) / 3 * 8 + 2)) {
    b->oom = true;
    return;
  }
  char* o = b->data + b->len;
  *o++ = '"';
  const char* a = tether__b64_alphabet;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) { /* whole groups: 4 digits, escaped when one is '/' (rare) */
    uint32_t w = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
    uint16_t hi = tether__b64_pairs[w >> 12], lo = tether__b64_pairs[w & 4095];
    uint32_t four;
    memcpy(o, &hi, 2);
    memcpy(o + 2, &lo, 2);
    memcpy(&four, o, 4);
    uint32_t x = four ^ 0x2F2F2F2Fu; /* a zero byte where a digit is '/' */
    if (TETHER_LIKELY(((x - 0x01010101u) & ~x & 0x80808080u) == 0)) {
      o += 4;
      continue;
    }
    uint32_t digits[4] = {w >> 18, (w >> 12) & 63, (w >> 6) & 63, w & 63};
    for (int k = 0; k < 4; ++k) {
      if (digits[k] == 63) *o++ = '\\';
      *o++ = a[digits[k]];
    }
  }
  for (; i < n; i += 3) { /* the last, partial group */
    uint32_t w = (uint32_t)data[i] << 16;
    if (i + 1 < n) w |= (uint32_t)data[i + 1] << 8;
    if (i + 2 < n) w |= data[i + 2];
    char digits[4] = {tether__b64_alphabet[(w >> 18) & 63], tether__b64_alphabet[(w >> 12) & 63],
                      i + 1 < n ? tether__b64_alphabet[(w >> 6) & 63] : '=',
                      i + 2 < n ? tether__b64_alphabet[w & 63] : '='};
    for (int k = 0; k < 4; ++k) {
      if (digits[k] == '/') *o++ = '\\';
      *o++ = digits[k];
    }
  }
  *o++ = '"';
  b->len = (size_t)(o - b->data);
}

static const uint8_t tether__b64_value[256] = {
    ['A'] = 1,
    ['B'] = 2,
    ['C'] = 3,
    ['D'] = 4,
    ['E'] = 5,
    ['F'] = 6,
    ['G'] = 7,
    ['H'] = 8,
    ['I'] = 9,
    ['J'] = 10,
    ['K'] = 11,
    ['L'] = 12,
    ['M'] = 13,
    ['N'] = 14,
    ['O'] = 15,
    ['P'] = 16,
    ['Q'] = 17,
    ['R'] = 18,
    ['S'] = 19,
    ['T'] = 20,
    ['U'] = 21,
    ['V'] = 22,
    ['W'] = 23,
    ['X'] = 24,
    ['Y'] = 25,
    ['Z'] = 26,
    ['a'] = 27,
    ['b'] = 28,
    ['c'] = 29,
    ['d'] = 30,
    ['e'] = 31,
    ['f'] = 32,
    ['g'] = 33,
    ['h'] = 34,
    ['i'] = 35,
    ['j'] = 36,
    ['k'] = 37,
    ['l'] = 38,
    ['m'] = 39,
    ['n'] = 40,
    ['o'] = 41,
    ['p'] = 42,
    ['q'] = 43,
    ['r'] = 44,
    ['s'] = 45,
    ['t'] = 46,
    ['u'] = 47,
    ['v'] = 48,
    ['w'] = 49,
    ['x'] = 50,
    ['y'] = 51,
    ['z'] = 52,
    ['0'] = 53,
    ['1'] = 54,
    ['2'] = 55,
    ['3'] = 56,
    ['4'] = 57,
    ['5'] = 58,
    ['6'] = 59,
    ['7'] = 60,
    ['8'] = 61,
    ['9'] = 62,
    ['+'] = 63,
    ['/'] = 64,
};

static int tether__b64_digit(char c) { return (int)tether__b64_value[(unsigned char)c] - 1; }

int tether__base64_decode(const char* text, size_t n, uint8_t** out, size_t* out_len) {
  *out = NULL;
  *out_len = 0;
  if (n % 4 != 0) return 1;
  size_t pad = 0;
  if (n > 0 && text[n - 1] == '=') pad = (n > 1 && text[n - 2] == '=') ? 2 : 1;
  size_t len = n / 4 * 3 - pad;
  uint8_t* data = malloc(len > 0 ? len : 1);
  if (data == NULL) return -1;
  size_t o = 0, i = 0;
  for (; i + 4 < n; i += 4) { /* every group but the last: four digits */
    uint32_t a = tether__b64_value[(unsigned char)text[i]];
    uint32_t b = tether__b64_value[(unsigned char)text[i + 1]];
    uint32_t c = tether__b64_value[(unsigned char)text[i + 2]];
    uint32_t d = tether__b64_value[(unsigned char)text[i + 3]];
    if (a == 0 || b == 0 || c == 0 || d == 0) {
      free(data);
      return 1;
    }
    uint32_t w = (a - 1) << 18 | (b - 1) << 12 | (c - 1) << 6 | (d - 1);
    data[o++] = (uint8_t)(w >> 16);
    data[o++] = (uint8_t)(w >> 8);
    data[o++] = (uint8_t)w;
  }
  for (; i < n; i += 4) {
    bool last = i + 4 == n;
    uint32_t w = 0;
    for (size_t k = 0; k < 4; ++k) {
      int d = tether__b64_digit(text[i + k]);
      bool padding = last && k >= 4 - pad;
      if (padding ? text[i + k] != '=' : d < 0) {
        free(data);
        return 1;
      }
      w = (w << 6) | (uint32_t)(padding ? 0 : d);
    }
    uint8_t bytes[3] = {(uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w};
    size_t take = last ? 3 - pad : 3;
    memcpy(data + o, bytes, take);
    o += take;
  }
  *out = data;
  *out_len = len;
  return 0;
}

/* ---- globals --------------------------------------------------------------------------- */

static int tether__g_json_parse(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "ffi.json.Parse";
  TVMFFIByteArray text;
  if (tether_check_nargs(fn, "(0: str) -> Any", n, 1) != 0) return -1;
  if (tether_arg_str(fn, args, 0, &text) != 0) return -1;
  return tether__json_parse(fn, text.data, text.size, result, NULL);
}

static int tether__g_json_stringify(void* self, const TVMFFIAny* args, int32_t n,
                                    TVMFFIAny* result) {
  static const char fn[] = "ffi.json.Stringify";
  int64_t indent = 0;
  if (tether_check_nargs(fn, "(0: Any, 1: Optional<int>) -> str", n, 2) != 0) return -1;
  if (args[1].type_index != kTVMFFINone && tether_arg_int(fn, args, 1, &indent) != 0) return -1;
  if (indent < 0 || indent > 1024) {
    return tether_raise("ValueError", "%s: indent must be in [0, 1024], got %" PRId64, fn, indent);
  }
  return tether__json_stringify(fn, &args[0], (int)indent, result);
}

int tether__json_init(void) {
  tether__b64_pairs_fill();
  if (tether_func_register("ffi.json.Parse", tether__g_json_parse,
                           "Parses JSON text into a JSON value.", NULL, 0) != 0 ||
      tether_func_register("ffi.json.Stringify", tether__g_json_stringify,
                           "Writes a JSON value as text (indent: None or spaces per level).",
                           NULL, 0) != 0) {
    return -1;
  }
  return 0;
}

void tether__json_fini(void) {}
