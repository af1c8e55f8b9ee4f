/*
 * container.c -- the container subsystem: registers the ffi.* globals of array.c, list.c,
 * map.c and shape.c at load, implements ffi.ContainerFindFirstNonCPUDevice, and holds the
 * helpers those files share (lookup keys for view-only values, argument checks).
 *
 * Each global's registered metadata {"type_schema": ...} is generated from the signature
 * text its table row carries, so the text shown in argument errors and the schema can
 * never disagree.
 */
#include <stdio.h>

#include "internal.h"
#include "container.h"
#include "function.h"
#include "map.h"

/* ---- shared helpers ------------------------------------------------------------------- */

void tether__container_key_init(tether__container_key_t* key, const TVMFFIAny* view) {
  key->value = *view;
  TVMFFIByteArray bytes;
  int32_t small_index, heap_index;
  switch (view->type_index) {
    case kTVMFFIRawStr:
      if (view->v_c_str == NULL) return;
      bytes.data = view->v_c_str;
      bytes.size = strlen(view->v_c_str);
      small_index = kTVMFFISmallStr;
      heap_index = kTVMFFIStr;
      break;
    case kTVMFFIByteArrayPtr:
      if (view->v_ptr == NULL) return;
      bytes = *(const TVMFFIByteArray*)view->v_ptr;
      /* A malformed {NULL, n > 0} view stays as it is: it equals nothing (and is never
       * dereferenced, which would read n bytes from NULL). */
      if (bytes.data == NULL && bytes.size != 0) return;
      small_index = kTVMFFISmallBytes;
      heap_index = kTVMFFIBytes;
      break;
    case kTVMFFIObjectRValueRef: {
      TVMFFIObject* obj = view->v_ptr != NULL ? *(TVMFFIObject**)view->v_ptr : NULL;
      key->value = obj != NULL ? tether_any_object(obj) : tether_any_none();
      return;
    }
    default:
      return;
  }
  key->value = tether_any_none();
  if (bytes.size < sizeof(int64_t)) {
    /* Zero-padded inline bytes, exactly as an owned SmallStr/SmallBytes (spec 1.3). */
    key->value.type_index = small_index;
    key->value.small_str_len = (uint32_t)bytes.size;
    if (bytes.size > 0) memcpy(key->value.v_bytes, bytes.data, bytes.size);
    return;
  }
  /* A never-freed stand-in Str/Bytes: readers only look at the ByteArray cell. */
  memset(&key->str.header, 0, sizeof(key->str.header));
  key->str.header.combined_ref_count = 1;
  key->str.header.type_index = heap_index;
  key->str.bytes = bytes;
  key->value.type_index = heap_index;
  key->value.v_obj = &key->str.header;
}

int tether__container_own_all(const TVMFFIAny* views, int64_t n, TVMFFIAny* out) {
  for (int64_t i = 0; i < n; ++i) {
    if (TVMFFIAnyViewToOwnedAny(&views[i], &out[i]) != 0) {
      while (i-- > 0) tether_any_release(&out[i]);
      return -1;
    }
  }
  return 0;
}

int tether__container_arg_object(const char* sig, const TVMFFIAny* args, int32_t i,
                                 int32_t type_index, const char* expected, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  if (v->type_index == type_index && v->v_obj != NULL && v->v_obj->type_index == type_index) {
    *out = v->v_obj;
    return 0;
  }
  return tether__arg_type_error(sig, args, i, expected);
}

/* ---- ffi.ContainerFindFirstNonCPUDevice ---------------------------------------------- */

/*
 * Depth-first, in element order, over Array/List elements and Map/Dict values (keys are
 * not scanned, as in the reference).  An explicit stack and a visited set make it safe on
 * deep nesting and on Lists/Dicts that contain themselves.
 */
typedef struct {
  TVMFFIObject** stack;
  int64_t depth, stack_cap;
  TVMFFIObject** seen; /* open addressing, NULL = empty */
  uint64_t seen_mask;
  int64_t seen_count;
} tether_scan_t;

static uint64_t tether__ptr_hash(const void* p) {
  return ((uint64_t)(uintptr_t)p * UINT64_C(11400714819323198485)) >> 17;
}

/* Adds `obj` to the visited set; 1 if new, 0 if seen before, -1 on OOM. */
static int tether__scan_mark(tether_scan_t* s, TVMFFIObject* obj) {
  if ((uint64_t)(s->seen_count + 1) * 2 > s->seen_mask + 1) {
    uint64_t cap = s->seen == NULL ? 64 : (s->seen_mask + 1) * 2;
    TVMFFIObject** seen = calloc((size_t)cap, sizeof(TVMFFIObject*));
    if (seen == NULL) return -1;
    for (uint64_t i = 0; s->seen != NULL && i <= s->seen_mask; ++i) {
      if (s->seen[i] == NULL) continue;
      uint64_t j = tether__ptr_hash(s->seen[i]) & (cap - 1);
      while (seen[j] != NULL) j = (j + 1) & (cap - 1);
      seen[j] = s->seen[i];
    }
    free(s->seen);
    s->seen = seen;
    s->seen_mask = cap - 1;
  }
  uint64_t j = tether__ptr_hash(obj) & s->seen_mask;
  while (s->seen[j] != NULL) {
    if (s->seen[j] == obj) return 0;
    j = (j + 1) & s->seen_mask;
  }
  s->seen[j] = obj;
  s->seen_count++;
  return 1;
}

static int tether__scan_push(tether_scan_t* s, TVMFFIObject* obj) {
  if (s->depth == s->stack_cap) {
    int64_t cap = s->stack_cap == 0 ? 16 : s->stack_cap * 2;
    TVMFFIObject** stack = realloc(s->stack, (size_t)cap * sizeof(TVMFFIObject*));
    if (stack == NULL) return -1;
    s->stack = stack;
    s->stack_cap = cap;
  }
  s->stack[s->depth++] = obj;
  return 0;
}

static bool tether__is_scanned_container(int32_t type_index) {
  return type_index == kTVMFFIArray || type_index == kTVMFFIList || type_index == kTVMFFIMap ||
         type_index == kTVMFFIDict;
}

/* Looks at one value: a non-CPU Tensor ends the scan (1), a container is queued (0). */
static int tether__scan_value(tether_scan_t* s, const TVMFFIAny* v, DLDevice* found) {
  if (v->type_index < kTVMFFIStaticObjectBegin || v->v_obj == NULL) return 0;
  int32_t type_index = v->v_obj->type_index;
  if (type_index == kTVMFFITensor) {
    const DLTensor* t = TETHER_CELL(DLTensor, v->v_obj);
    if (t->device.device_type != kDLCPU) {
      *found = t->device;
      return 1;
    }
    return 0;
  }
  if (!tether__is_scanned_container(type_index)) return 0;
  int fresh = tether__scan_mark(s, v->v_obj);
  if (fresh < 0) return -1;
  return fresh ? (tether__scan_push(s, v->v_obj) < 0 ? -1 : 0) : 0;
}

/* Queues the children of `obj` so that they pop in element order. */
static int tether__scan_children(tether_scan_t* s, TVMFFIObject* obj, DLDevice* found) {
  /* Tensors are checked as they are met, containers are deferred in reverse. */
  int64_t base = s->depth;
  if (obj->type_index == kTVMFFIArray || obj->type_index == kTVMFFIList) {
    const TVMFFISeqCell* cell = TETHER_CELL(TVMFFISeqCell, obj);
    const TVMFFIAny* items = cell->data;
    for (int64_t i = 0; i < cell->size; ++i) {
      int rc = tether__scan_value(s, &items[i], found);
      if (rc != 0) return rc;
    }
  } else {
    int64_t pos = 0;
    const TVMFFIAny* value = NULL;
    while (tether__map_next(obj, &pos, NULL, &value)) {
      int rc = tether__scan_value(s, value, found);
      if (rc != 0) return rc;
    }
  }
  for (int64_t i = base, j = s->depth - 1; i < j; ++i, --j) {
    TVMFFIObject* t = s->stack[i];
    s->stack[i] = s->stack[j];
    s->stack[j] = t;
  }
  return 0;
}

/* Note: tensors directly inside a container are found before tensors nested deeper in an
 * earlier sibling container; any non-CPU device is a valid answer for picking a stream. */
static int tether__g_find_first_non_cpu_device(void* self, const TVMFFIAny* args, int32_t n,
                                               TVMFFIAny* result) {
  static const char kSig[] = "ffi.ContainerFindFirstNonCPUDevice(0: Any) -> Device";
  if (tether_check_nargs(kSig, NULL, n, 1) != 0) return -1;
  tether_scan_t s = {0};
  DLDevice found = {kDLCPU, 0};
  int rc = tether__scan_value(&s, &args[0], &found);
  while (rc == 0 && s.depth > 0) rc = tether__scan_children(&s, s.stack[--s.depth], &found);
  free(s.stack);
  free(s.seen);
  if (rc < 0) return tether_raise("MemoryError", "%s: out of memory", kSig);
  *result = tether_any_device(found.device_type, found.device_id);
  return 0;
}

/* ---- metadata from signatures ----------------------------------------------------------- */

typedef struct {
  char* data;
  size_t len, cap;
  bool overflow;
} tether_buf_t;

static void tether__buf_put(tether_buf_t* b, const char* s, size_t n) {
  if (b->len + n >= b->cap) {
    b->overflow = true;
    return;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void tether__buf_puts(tether_buf_t* b, const char* s) { tether__buf_put(b, s, strlen(s)); }

/* One type of a signature ("int", "ffi.Map", "List<Any>", "Dict<Any, Any>", "void") as a
 * schema object {"type": ..., "args": [...]}; *p advances past it. */
static void tether__schema_type(tether_buf_t* b, const char** p) {
  const char* s = *p;
  size_t n = 0;
  while (s[n] != '\0' && s[n] != '<' && s[n] != '>' && s[n] != ',' && s[n] != ')' && s[n] != ' ') {
    ++n;
  }
  static const struct {
    const char* text;
    const char* key;
  } kAliases[] = {{"void", "None"}, {"List", "ffi.List"}, {"Dict", "ffi.Dict"},
                  {"Map", "ffi.Map"}, {"Array", "ffi.Array"}};
  const char* key = NULL;
  for (size_t i = 0; i < sizeof(kAliases) / sizeof(kAliases[0]); ++i) {
    if (strlen(kAliases[i].text) == n && memcmp(kAliases[i].text, s, n) == 0) key = kAliases[i].key;
  }
  tether__buf_puts(b, "{\"type\":\"");
  if (key != NULL) {
    tether__buf_puts(b, key);
  } else {
    tether__buf_put(b, s, n);
  }
  tether__buf_puts(b, "\"");
  s += n;
  if (*s == '<') {
    tether__buf_puts(b, ",\"args\":[");
    ++s;
    for (bool first = true; *s != '\0' && *s != '>'; first = false) {
      if (!first) tether__buf_puts(b, ",");
      tether__schema_type(b, &s);
      while (*s == ',' || *s == ' ') ++s;
    }
    if (*s == '>') ++s;
    tether__buf_puts(b, "]");
  }
  tether__buf_puts(b, "}");
  *p = s;
}

/* The type schema of "name(0: T0, 1: T1) -> R": {"type":"ffi.Function","args":[R,T0,T1]};
 * for a packed function (sig NULL) just {"type":"ffi.Function"}. */
static void tether__schema_of(tether_buf_t* b, const char* sig) {
  tether__buf_puts(b, "{\"type\":\"ffi.Function\"");
  if (sig != NULL) {
    const char* open = strchr(sig, '(');
    const char* arrow = strstr(sig, ") -> ");
    if (open != NULL && arrow != NULL) {
      tether__buf_puts(b, ",\"args\":[");
      const char* r = arrow + 5;
      tether__schema_type(b, &r);
      const char* p = open + 1;
      while (p < arrow) {
        const char* colon = strstr(p, ": ");
        if (colon == NULL || colon > arrow) break;
        p = colon + 2;
        tether__buf_puts(b, ",");
        tether__schema_type(b, &p);
        while (*p == ',' || *p == ' ') ++p;
      }
      tether__buf_puts(b, "]");
    }
  }
  tether__buf_puts(b, "}");
}

/* {"type_schema": "<schema as a JSON string>"} into `out` (cap bytes); false if too long. */
static bool tether__metadata_of(const char* sig, char* out, size_t cap) {
  char schema[512];
  tether_buf_t inner = {schema, 0, sizeof(schema), false};
  schema[0] = '\0';
  tether__schema_of(&inner, sig);
  tether_buf_t b = {out, 0, cap, false};
  out[0] = '\0';
  tether__buf_puts(&b, "{\"type_schema\":\"");
  for (size_t i = 0; i < inner.len; ++i) {
    if (schema[i] == '"' || schema[i] == '\\') tether__buf_puts(&b, "\\");
    tether__buf_put(&b, &schema[i], 1);
  }
  tether__buf_puts(&b, "\"}");
  return !inner.overflow && !b.overflow;
}

/* ---- init / fini ---------------------------------------------------------------------- */

static const tether__container_global_t tether__container_own_globals[] = {
    {"ffi.ContainerFindFirstNonCPUDevice", tether__g_find_first_non_cpu_device,
     "ffi.ContainerFindFirstNonCPUDevice(0: Any) -> Device",
     "The device of the first non-CPU Tensor in a (nested) container, else cpu:0"},
};

static int tether__container_register(const tether__container_global_t* globals, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    char metadata[1024];
    if (!tether__metadata_of(globals[i].sig, metadata, sizeof(metadata))) {
      fprintf(stderr, "libtether: metadata of %s is too long\n", globals[i].name);
      return -1;
    }
    /* Container globals only build, read and update values: they may keep the GIL. */
    if (tether_func_register_flags(globals[i].name, globals[i].fn, globals[i].doc, metadata,
                                   TETHER_FUNC_KEEPS_GIL, 0) != 0) {
      fprintf(stderr, "libtether: cannot register global %s\n", globals[i].name);
      return -1;
    }
  }
  return 0;
}

int tether__container_init(void) {
  if (tether__container_register(tether__array_globals, tether__array_num_globals) != 0 ||
      tether__container_register(tether__list_globals, tether__list_num_globals) != 0 ||
      tether__container_register(tether__map_globals, tether__map_num_globals) != 0 ||
      tether__container_register(tether__shape_globals, tether__shape_num_globals) != 0 ||
      tether__container_register(tether__container_own_globals,
                                 sizeof(tether__container_own_globals) /
                                     sizeof(tether__container_own_globals[0])) != 0) {
    return -1;
  }
  return 0;
}

/* Nothing to free: the registry owns the registered functions and releases them in its
 * own fini, which runs after this one. */
void tether__container_fini(void) {}
