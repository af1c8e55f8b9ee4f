/*
 * repr.c -- ffi.ReprPrint: the text form of any value, as tvm-ffi prints it.
 *
 * None/True/False, ints, floats (%g), dtypes ("float32"), devices ("cpu:0"), strings and
 * bytes quoted Python-style ("a\\n", b"\\x00"), Arrays as tuples ("(1,)", "(1, 2)"), Lists
 * as lists, Maps/Dicts as dicts, Shapes as "Shape(1, 2)", Tensors as "float32[2, 3]@cpu:0",
 * reflected objects as "type.key(field=value, ...)" (fields flagged ReprOff left out, a
 * type without printable fields as its bare key), a type's own `__ffi_repr__` hook (called
 * with the object and a printer for its parts) taking precedence, enum variants without
 * one as "type.key.name", other PODs and objects as their type key, and a value already being printed (a cycle) as "...".  With the
 * environment variable TVM_FFI_REPR_WITH_ADDR=1 (read per call, as tvm-ffi does), every
 * container, tensor, reflected object and cycle marker also shows its address: "(1, 2)@0x..",
 * "float32[2]@cpu:0@0x..", "type.key@0x..(a=1)", "...@0x..".
 *
 * The text is written in one pass into one buffer, walking the value on an explicit stack
 * of frames, so values of any depth print in linear time and constant C stack.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <tether/enum.h>
#include <tether/reflection.h>

#include "internal.h"
#include "array.h"
#include "dataclass.h"
#include "map.h"
#include "ptrmap.h"
#include "registry.h"
#include "type.h"

typedef struct {
  char* data;
  size_t size;
  size_t cap;
  bool oom;
} tether_sb;

static void tether__sb_put(tether_sb* sb, const char* s, size_t n) {
  if (sb->oom) return;
  if (sb->size + n + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->size + n + 1) cap *= 2;
    char* data = realloc(sb->data, cap);
    if (data == NULL) {
      sb->oom = true;
      return;
    }
    sb->data = data;
    sb->cap = cap;
  }
  memcpy(sb->data + sb->size, s, n);
  sb->size += n;
  sb->data[sb->size] = '\0';
}

static void tether__sb_puts(tether_sb* sb, const char* s) { tether__sb_put(sb, s, strlen(s)); }

__attribute__((format(printf, 2, 3))) static void tether__sb_printf(tether_sb* sb, const char* fmt, ...) {
  char buf[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  if (n > 0) tether__sb_put(sb, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* Writes `s` quoted, escaping quotes, backslashes, control and non-ASCII characters. */
static void tether__sb_quote(tether_sb* sb, TVMFFIByteArray s, const char* prefix) {
  tether__sb_puts(sb, prefix);
  tether__sb_put(sb, "\"", 1);
  const unsigned char* p = (const unsigned char*)s.data;
  size_t i = 0;
  while (i < s.size) {
    unsigned char c = p[i];
    switch (c) {
      case '"': tether__sb_put(sb, "\\\"", 2); ++i; continue;
      case '\\': tether__sb_put(sb, "\\\\", 2); ++i; continue;
      case '\n': tether__sb_put(sb, "\\n", 2); ++i; continue;
      case '\t': tether__sb_put(sb, "\\t", 2); ++i; continue;
      case '\r': tether__sb_put(sb, "\\r", 2); ++i; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      tether__sb_printf(sb, "\\x%02x", c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      tether__sb_put(sb, (const char*)&p[i], 1);
      ++i;
      continue;
    }
    /* decode one UTF-8 sequence; invalid bytes are printed as \xNN */
    int len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    uint32_t cp = len == 4 ? (c & 0x07u) : len == 3 ? (c & 0x0fu) : (c & 0x1fu);
    bool ok = len != 0 && i + (size_t)len <= s.size;
    for (int k = 1; ok && k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80) ok = false;
      cp = (cp << 6) | (p[i + k] & 0x3fu);
    }
    if (!ok) {
      tether__sb_printf(sb, "\\x%02x", c);
      ++i;
      continue;
    }
    if (cp <= 0xffff) {
      tether__sb_printf(sb, "\\u%04x", cp);
    } else {
      tether__sb_printf(sb, "\\U%08x", cp);
    }
    i += (size_t)len;
  }
  tether__sb_put(sb, "\"", 1);
}


static void tether__repr_dtype(tether_sb* sb, DLDataType t) {
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray text;
  if (TVMFFIDataTypeToString(&t, &s) == 0 && tether_any_get_str(&s, &text)) {
    tether__sb_put(sb, text.data, text.size);
  } else {
    TVMFFIErrorMoveFromRaised(NULL);
    tether__sb_printf(sb, "DataType(%u, %u, %u)", t.code, t.bits, t.lanes);
  }
  tether_any_release(&s);
}

static void tether__repr_device(tether_sb* sb, DLDevice d) {
  const char* name = tether_device_type_name(d.device_type);
  if (name != NULL) {
    tether__sb_printf(sb, "%s:%d", name, (int)d.device_id);
  } else {
    tether__sb_printf(sb, "device(%d):%d", (int)d.device_type, (int)d.device_id);
  }
}


/* ---- the walk ------------------------------------------------------------------------------ */

typedef enum { TETHER_REPR_SEQ, TETHER_REPR_MAP, TETHER_REPR_OBJ } tether_repr_kind;

typedef struct {
  tether_repr_kind kind;
  TVMFFIAny value;  /* owning: the container or object being printed */
  TVMFFIAny* items; /* OBJ: owning field values; SEQ/MAP: NULL (read from the container) */
  const TVMFFIFieldInfo** fields;
  int64_t n, idx, map_pos;
  const TVMFFIAny* pending_value; /* MAP: the value of the entry whose key was printed */
  const char* close;
} tether_repr_frame;

typedef struct {
  tether_sb* sb;
  tether_ptrmap busy; /* object -> 1 while it is being printed */
  TVMFFIObject* printer; /* the printer handed to `__ffi_repr__` hooks, made on first use */
  TVMFFIObject* missing; /* singletons printed by name (borrowed from the registry) */
  TVMFFIObject* kwargs;
  bool with_addr; /* TVM_FFI_REPR_WITH_ADDR=1: objects and containers carry "@0x<address>" */
} tether_repr_state;

/* Appends "@0x<address>" after an object's text when the state asks for addresses. */
static void tether__repr_addr(tether_repr_state* s, const TVMFFIObject* obj) {
  if (s->with_addr) tether__sb_printf(s->sb, "@0x%" PRIxPTR, (uintptr_t)obj);
}

static int tether__repr_run(tether_repr_state* s, const TVMFFIAny* v);

static bool tether__repr_busy(tether_repr_state* s, TVMFFIObject* obj) {
  uint64_t* b = tether__ptrmap_find(&s->busy, obj);
  return b != NULL && *b != 0;
}

static int tether__repr_mark(tether_repr_state* s, TVMFFIObject* obj, uint64_t on) {
  return tether__ptrmap_put(&s->busy, obj, on);
}

/* The printer a hook calls on its parts: (value) -> str, sharing the cycle state. */
static int tether__repr_printer(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  tether_repr_state* outer = self;
  tether_sb sb;
  memset(&sb, 0, sizeof(sb));
  if (tether_check_nargs("ffi.ReprPrint printer", "(0: Any) -> str", n, 1) != 0) return -1;
  tether_sb* saved = outer->sb;
  outer->sb = &sb;
  int rc = tether__repr_run(outer, &args[0]);
  outer->sb = saved;
  if (rc == 0 && sb.oom) rc = tether_raise("MemoryError", "ffi.ReprPrint: out of memory");
  if (rc == 0) rc = tether_any_str(sb.data != NULL ? sb.data : "", sb.size, result);
  free(sb.data);
  return rc;
}

static const TVMFFITypeAttrColumn* _Atomic tether__repr_column;

/* Runs obj's `__ffi_repr__` hook if it has one: 0 done, 1 none, -1 error. */
static int tether__repr_hook(tether_repr_state* s, TVMFFIObject* obj) {
  const TVMFFIAny* hook = tether__type_attr("__ffi_repr__", &tether__repr_column, obj->type_index);
  if (hook == NULL || hook->type_index != kTVMFFIFunction) return 1;
  if (s->printer == NULL &&
      TVMFFIFunctionCreate(s, tether__repr_printer, NULL, (TVMFFIObjectHandle*)&s->printer) != 0) {
    return -1;
  }
  TVMFFIAny args[2] = {tether_any_object(obj), tether_any_object(s->printer)};
  TVMFFIAny out = tether_any_none();
  TVMFFIByteArray text;
  if (tether__repr_mark(s, obj, 1) != 0) return -1;
  tether_sb* sb = s->sb;
  int rc = TVMFFIFunctionCall(hook->v_obj, args, 2, &out);
  s->sb = sb;
  tether__repr_mark(s, obj, 0);
  if (rc != 0) return -1;
  if (!tether_any_get_str(&out, &text)) {
    tether_any_release(&out);
    return tether_raise("TypeError", "__ffi_repr__ of `%s` must return a str",
                        tether_type_key(obj->type_index));
  }
  tether__sb_put(sb, text.data, text.size);
  tether_any_release(&out);
  return 0;
}

/* Prints a value that needs no frame (returns 0), or returns 1 when it needs one. */
static int tether__repr_leaf(tether_repr_state* s, const TVMFFIAny* v) {
  tether_sb* sb = s->sb;
  TVMFFIByteArray b;
  switch (v->type_index) {
    case kTVMFFINone:
      tether__sb_puts(sb, "None");
      return 0;
    case kTVMFFIInt:
      tether__sb_printf(sb, "%" PRId64, v->v_int64);
      return 0;
    case kTVMFFIBool:
      tether__sb_puts(sb, v->v_int64 ? "True" : "False");
      return 0;
    case kTVMFFIFloat:
      tether__sb_printf(sb, "%g", v->v_float64);
      return 0;
    case kTVMFFIDataType:
      tether__repr_dtype(sb, v->v_dtype);
      return 0;
    case kTVMFFIDevice:
      tether__repr_device(sb, v->v_device);
      return 0;
    case kTVMFFIRawStr:
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
    case kTVMFFIByteArrayPtr: {
      /* The getters refuse malformed views (a NULL `const char*`, a NULL or {NULL, n}
       * byte array, a small string longer than 7 bytes): an error, not a read. */
      bool is_str = v->type_index == kTVMFFIRawStr || v->type_index == kTVMFFISmallStr;
      if (!(is_str ? tether_any_get_str(v, &b) : tether_any_get_bytes(v, &b))) {
        return tether_raise("ValueError", "ffi.ReprPrint: malformed `%s` value (NULL data or "
                            "a bad length)", tether_type_key(v->type_index));
      }
      tether__sb_quote(sb, b, is_str ? "" : "b");
      return 0;
    }
    default:
      break;
  }
  if (v->type_index < kTVMFFIStaticObjectBegin) {
    tether__sb_puts(sb, tether_type_key(v->type_index));
    return 0;
  }
  TVMFFIObject* obj = v->v_obj;
  int32_t t = v->type_index;
  if (obj == NULL) {
    return tether_raise("ValueError", "ffi.ReprPrint: an object value (type index %d) holds "
                        "NULL", (int)t);
  }
  if (tether__repr_busy(s, obj)) {
    tether__sb_puts(sb, "...");
    tether__repr_addr(s, obj);
    return 0;
  }
  if (obj == s->missing || obj == s->kwargs) {
    tether__sb_puts(sb, obj == s->missing ? "<MISSING>" : "<KWARGS>");
    return 0;
  }
  if (t == kTVMFFIStr || t == kTVMFFIBytes) {
    tether__sb_quote(sb, *TETHER_CELL(TVMFFIByteArray, obj), t == kTVMFFIBytes ? "b" : "");
    return 0;
  }
  if (t == kTVMFFITensor) {
    const DLTensor* dl = TETHER_CELL(DLTensor, obj);
    tether__repr_dtype(sb, dl->dtype);
    tether__sb_puts(sb, "[");
    for (int32_t i = 0; i < dl->ndim; ++i) {
      tether__sb_printf(sb, i ? ", %" PRId64 : "%" PRId64, dl->shape[i]);
    }
    tether__sb_puts(sb, "]@");
    tether__repr_device(sb, dl->device);
    tether__repr_addr(s, obj);
    return 0;
  }
  if (t == kTVMFFIShape) {
    const TVMFFIShapeCell* cell = TETHER_CELL(TVMFFIShapeCell, obj);
    tether__sb_puts(sb, "Shape(");
    for (size_t i = 0; i < cell->size; ++i) {
      tether__sb_printf(sb, i ? ", %" PRId64 : "%" PRId64, cell->data[i]);
    }
    tether__sb_puts(sb, ")");
    return 0;
  }
  int rc = tether__repr_hook(s, obj);
  if (rc <= 0) return rc;
  if (tether_enum_kind_of(t) != TETHER_ENUM_NONE) { /* a variant without a hook: <key>.<name> */
    TVMFFIByteArray name = {"", 0};
    tether_any_get_str(&((const tether_enum_t*)obj)->str_index, &name);
    tether__sb_printf(sb, "%s.%.*s", tether_type_key(t), (int)name.size, name.data);
    tether__repr_addr(s, obj);
    return 0;
  }
  return 1;
}

typedef struct {
  tether_repr_frame* items;
  size_t n, cap;
} tether_repr_stack;

static void tether__repr_pop(tether_repr_state* s, tether_repr_stack* st) {
  tether_repr_frame* f = &st->items[--st->n];
  tether__repr_mark(s, f->value.v_obj, 0);
  for (int64_t i = 0; f->items != NULL && i < f->n; ++i) tether_any_release(&f->items[i]);
  free(f->items);
  free((void*)f->fields);
  tether_any_release(&f->value);
}

/* Lists obj's printable fields (ReprOff left out, a shadowed name printed once). */
static int tether__repr_fields(TVMFFIObject* obj, tether_repr_frame* f) {
  const TVMFFITypeInfo* info = tether__type_info_or_null(obj->type_index);
  int64_t cap = 0;
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* field = &t->fields[i];
      if ((field->flags & kTVMFFIFieldFlagBitMaskReprOff) || field->getter == NULL) continue;
      bool seen = false;
      for (int64_t k = 0; k < f->n && !seen; ++k) {
        seen = f->fields[k]->name.size == field->name.size &&
               memcmp(f->fields[k]->name.data, field->name.data, field->name.size) == 0;
      }
      if (seen) continue;
      if (f->n == cap) {
        cap = cap ? cap * 2 : 8;
        TVMFFIAny* items = realloc(f->items, (size_t)cap * sizeof(*items));
        if (items != NULL) f->items = items;
        const TVMFFIFieldInfo** fields = realloc((void*)f->fields, (size_t)cap * sizeof(*fields));
        if (fields != NULL) f->fields = fields;
        if (items == NULL || fields == NULL) return tether_raise("MemoryError", "ffi.ReprPrint: out of memory");
      }
      f->items[f->n] = tether_any_none();
      if (field->getter((char*)obj + field->offset, &f->items[f->n]) != 0) return -1;
      f->fields[f->n++] = field;
    }
  }
  return 0;
}

/* Opens a frame for a container or object (its opening text written). */
static int tether__repr_push(tether_repr_state* s, tether_repr_stack* st, const TVMFFIAny* v) {
  if (st->n == st->cap) {
    size_t cap = st->cap ? st->cap * 2 : 16;
    tether_repr_frame* items = realloc(st->items, cap * sizeof(*items));
    if (items == NULL) return tether_raise("MemoryError", "ffi.ReprPrint: out of memory");
    st->items = items;
    st->cap = cap;
  }
  TVMFFIObject* obj = v->v_obj;
  int32_t t = v->type_index;
  tether_repr_frame* f = &st->items[st->n];
  memset(f, 0, sizeof(*f));
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    f->kind = TETHER_REPR_SEQ;
    f->n = tether__seq_cell(obj)->size;
    tether__sb_puts(s->sb, t == kTVMFFIArray ? "(" : "[");
    f->close = t == kTVMFFIArray ? (f->n == 1 ? ",)" : ")") : "]";
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    f->kind = TETHER_REPR_MAP;
    f->n = 2 * tether__map_size(obj);
    tether__sb_puts(s->sb, "{");
    f->close = "}";
  } else {
    f->kind = TETHER_REPR_OBJ;
    if (tether__repr_fields(obj, f) != 0) {
      for (int64_t i = 0; i < f->n; ++i) tether_any_release(&f->items[i]);
      free(f->items);
      free((void*)f->fields);
      return -1;
    }
    tether__sb_puts(s->sb, tether_type_key(t));
    tether__repr_addr(s, obj);
    if (f->n == 0) {
      free(f->items);
      free((void*)f->fields);
      return 0; /* a bare type key: nothing to walk */
    }
    tether__sb_puts(s->sb, "(");
    f->close = ")";
  }
  if (tether__repr_mark(s, obj, 1) != 0) return -1;
  tether_any_copy(v, &f->value);
  st->n++;
  return 0;
}

/* Writes the separator before child `i` of the frame and returns the child (borrowed). */
static const TVMFFIAny* tether__repr_next_child(tether_repr_state* s, tether_repr_frame* f) {
  int64_t i = f->idx++;
  if (f->kind == TETHER_REPR_SEQ) {
    const TVMFFISeqCell* c = tether__seq_cell(f->value.v_obj);
    if (i >= c->size) return NULL; /* shrunk by a hook: stop early */
    if (i > 0) tether__sb_puts(s->sb, ", ");
    return (const TVMFFIAny*)c->data + i;
  }
  if (f->kind == TETHER_REPR_MAP) {
    if (i % 2 == 1) {
      tether__sb_puts(s->sb, ": ");
      return f->pending_value;
    }
    const TVMFFIAny* k;
    if (!tether__map_next(f->value.v_obj, &f->map_pos, &k, &f->pending_value)) return NULL;
    if (i > 0) tether__sb_puts(s->sb, ", ");
    return k;
  }
  if (i > 0) tether__sb_puts(s->sb, ", ");
  tether__sb_put(s->sb, f->fields[i]->name.data, f->fields[i]->name.size);
  tether__sb_puts(s->sb, "=");
  return &f->items[i];
}

static int tether__repr_run(tether_repr_state* s, const TVMFFIAny* v) {
  tether_repr_stack st = {NULL, 0, 0};
  int rc = tether__repr_leaf(s, v);
  if (rc == 1) rc = tether__repr_push(s, &st, v);
  while (rc == 0 && st.n > 0) {
    tether_repr_frame* f = &st.items[st.n - 1];
    const TVMFFIAny* child = f->idx < f->n ? tether__repr_next_child(s, f) : NULL;
    if (child == NULL) {
      tether__sb_puts(s->sb, f->close);
      if (f->kind != TETHER_REPR_OBJ) tether__repr_addr(s, f->value.v_obj);
      tether__repr_pop(s, &st);
      continue;
    }
    rc = tether__repr_leaf(s, child);
    if (rc == 1) rc = tether__repr_push(s, &st, child);
  }
  while (st.n > 0) tether__repr_pop(s, &st);
  free(st.items);
  return rc;
}

int tether_repr(const TVMFFIAny* v, TVMFFIAny* out) {
  if (v == NULL || out == NULL) {
    return tether_raise("ValueError", "tether_repr: argument `%s` must not be NULL",
                        v == NULL ? "v" : "out");
  }
  tether_sb sb;
  tether_repr_state s;
  memset(&sb, 0, sizeof(sb));
  memset(&s, 0, sizeof(s));
  s.sb = &sb;
  s.missing = tether__registry_singleton("ffi.GetInvalidObject");
  s.kwargs = tether__registry_singleton("ffi.GetKwargsObject");
  const char* with_addr = getenv("TVM_FFI_REPR_WITH_ADDR");
  s.with_addr = with_addr != NULL && strcmp(with_addr, "1") == 0;
  int rc = tether__repr_run(&s, v);
  if (rc == 0 && sb.oom) rc = tether_raise("MemoryError", "ffi.ReprPrint: out of memory");
  if (rc == 0) rc = tether_any_str(sb.data != NULL ? sb.data : "", sb.size, out);
  free(sb.data);
  tether__ptrmap_free(&s.busy);
  TVMFFIObjectDecRef(s.printer);
  return rc;
}

static int tether__repr_print_global(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  (void)self;
  if (tether_check_nargs("ffi.ReprPrint", "(0: Any) -> str", n, 1) != 0) return -1;
  return tether_repr(&args[0], result);
}

int tether__repr_init(void) {
  static const tether_extra_global_t globals[] = {
      {"ffi.ReprPrint", tether__repr_print_global},
  };
  return tether__extra_globals_register(globals, 1);
}

void tether__repr_fini(void) { tether__repr_column = NULL; }
