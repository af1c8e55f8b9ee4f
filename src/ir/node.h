/*
 * node.h -- internal helpers of node.c shared by libtether_ir's other files: reading
 * Python-natural arguments (dtypes, arrays, exprs), dtype text, and small node accessors.
 * Not API: every name is trx__ and the header refuses to compile outside libtether_ir.
 */
#ifndef TETHER_SRC_IR_NODE_H_
#define TETHER_SRC_IR_NODE_H_
#ifndef TETHER_BUILD_IR
#error "src/ir/node.h is private to libtether_ir"
#endif

#include "internal.h"

/*
 * Per-type caches (node.c; see the comment above trx__isa there), read inline on hot paths.
 * trx__type_index: the runtime type index of each kind (what trx_type_index[] reads).
 * trx__isa_mask(ti): bit k set when runtime type ti is kind k or one of its descendants.
 * trx__is(obj, kind): trx_is inlined (obj may be NULL -> false).
 */
#define TRX__TYPE_CACHE 8192
extern int32_t trx__type_index[TRX_NUM_KINDS];
#undef trx_type_index
#define trx_type_index trx__type_index
extern _Atomic uint64_t trx__isa[TRX__TYPE_CACHE];
uint64_t trx__isa_mask_slow(int32_t type_index);
static inline uint64_t trx__isa_mask(int32_t ti) {
  if ((uint32_t)ti < TRX__TYPE_CACHE) {
    uint64_t m = __atomic_load_n((uint64_t*)&trx__isa[ti], __ATOMIC_RELAXED);
    if (m != 0) return m;
  }
  return trx__isa_mask_slow(ti);
}
static inline bool trx__is(const TVMFFIObject* obj, trx_kind kind) {
  if (obj == NULL || (unsigned)kind >= TRX_NUM_KINDS) return false;
  return obj->type_index == trx__type_index[kind] || ((trx__isa_mask(obj->type_index) >> kind) & 1);
}
/* Inside libtether_ir every trx_is is the inline test. */
#define trx_is(obj, kind) trx__is((obj), (kind))

/* One field of a reflected type: where it lives and how to read it without its getter. */
typedef struct {
  int64_t offset;
  int64_t flags;                /* kTVMFFIFieldFlagBitMask* */
  int32_t kind;                 /* tether_field_kind, or -1 (read through info->getter) */
  const TVMFFIFieldInfo* info;  /* borrowed from the type table */
} trx__fdesc_t;
/* The fields of a type and its ancestors, ancestors first (reflection order). */
typedef struct {
  int32_t n;
  bool tree_node; /* dynamic type with a reflected layout compared field by field */
  uint64_t isa;   /* trx__isa_mask of the type */
  const TVMFFITypeInfo* info;
  trx__fdesc_t f[];
} trx__ftab_t;
/* The cached field table of runtime type `type_index` (borrowed, lives until unload; an
 * empty non-tree table, isa 0, for types without metadata).  Thread-safe. */
extern _Atomic(trx__ftab_t*) trx__ftabs[TRX__TYPE_CACHE];
const trx__ftab_t* trx__ftab_slow(int32_t type_index);
static inline const trx__ftab_t* trx__ftab(int32_t ti) {
  if ((uint32_t)ti < TRX__TYPE_CACHE) {
    trx__ftab_t* t = __atomic_load_n((trx__ftab_t**)&trx__ftabs[ti], __ATOMIC_ACQUIRE);
    if (t != NULL) return t;
  }
  return trx__ftab_slow(ti);
}
/* Field `f` of `o` as an Any.  Normally a borrowed view (*owned = false: no reference was
 * taken, do not release); for fields of non-tether kinds an owning value (*owned = true). */
TVMFFIAny trx__field_read(TVMFFIObject* o, const trx__fdesc_t* f, bool* owned);

/* A new zeroed node of reflected type `type_index` whose deleter releases its fields through
 * the cached field table (new reference; NULL with an error raised). */
TVMFFIObject* trx__node_new(int32_t type_index);

/* trx_call_new without the argument checks, for callers that built `args` (Array<Expr>) and
 * `ty_args` (Array<Type>) themselves; steals args, attrs (may be NULL) and ty_args, borrows
 * op.  New reference, or NULL with an error raised (the stolen references are released). */
TVMFFIObject* trx__call_new_steal(TVMFFIObject* op, TVMFFIObject* args, TVMFFIObject* attrs,
                                  TVMFFIObject* ty_args);

/* The elements of an ffi.Array (borrowed; *n = its size). */
static inline const TVMFFIAny* trx__arr_items(const TVMFFIObject* arr, int64_t* n) {
  const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((const char*)arr + sizeof(TVMFFIObject));
  *n = cell->size;
  return (const TVMFFIAny*)cell->data;
}

/* The "unknown" dtype of TensorType ({kDLOpaqueHandle, 0, 0}, prints "void"). */
extern const DLDataType trx__dtype_void;
extern const DLDataType trx__dtype_int64;
bool trx__dtype_is_void(DLDataType t);
bool trx__dtype_equal(DLDataType a, DLDataType b);
/* Writes the dtype's text ("float32", "void") NUL-terminated into buf (truncated to n). */
void trx__dtype_str(DLDataType t, char* buf, size_t n);

/* The ty of an Expr, borrowed (NULL when missing or `e` is not an Expr). */
static inline TVMFFIObject* trx__ty(const TVMFFIObject* e) {
  return trx_is(e, TRX_EXPR) ? ((const trx_expr_t*)e)->ty : NULL;
}
/* obj with one more reference (NULL passes through). */
static inline TVMFFIObject* trx__ref(TVMFFIObject* obj) {
  if (obj != NULL) TVMFFIObjectIncRef(obj);
  return obj;
}
/* Borrowed view of the string held in a STRING field (empty on anything else). */
TVMFFIByteArray trx__str(const TVMFFIAny* v);

/*
 * Argument readers for the FFI globals (fname names the global in error texts).
 * trx__arg_dtype: a str ("" = unknown), a DataType, or None (unknown) -> *out.
 * trx__arg_array: an Array, a List (copied) or None (empty) -> *out new Array reference.
 * trx__arg_opt_object: None -> NULL, an object of `kind` (or any object if kind < 0) -> borrowed.
 * All return 0, or -1 with TypeError raised.
 */
int trx__arg_dtype(const char* fname, const TVMFFIAny* v, DLDataType* out);
int trx__arg_array(const char* fname, const char* argname, const TVMFFIAny* v,
                   TVMFFIObject** out);
int trx__arg_opt_object(const char* fname, const char* argname, const TVMFFIAny* v, int kind,
                        TVMFFIObject** out);

/* New Array of `n` borrowed objects (new reference), NULL with MemoryError raised. */
TVMFFIObject* trx__array_of(TVMFFIObject* const* items, int64_t n);
/* Appends `item` (borrowed; the Array takes its own reference) to *arr, which may be
 * replaced (copy-on-write).  0, or -1 with the error raised. */
int trx__array_push_obj(TVMFFIObject** arr, TVMFFIObject* item);
/* A new empty Array (new reference), NULL with an error raised. */
TVMFFIObject* trx__empty_array(void);
/* PrimType(dtype): the shared instance for common dtypes, else a new one (new reference). */
TVMFFIObject* trx__prim_type_shared(DLDataType dtype);
/* Element i of an Array as an object (borrowed; NULL if not an object). */
TVMFFIObject* trx__array_obj(TVMFFIObject* arr, int64_t i);

/* Registers the next own field of type `owner` (tether_type_def_field) with the type TVM
 * declares for it, `declared`, in a compact notation: a type key with its arguments in angle
 * brackets, "Optional<ffi.Array<ir.Expr>>", "ffi.Map<ffi.String,Any>".  0, or -1 with the
 * error raised (ValueError for a malformed `declared`). */
int trx__def_field(int32_t owner, const char* name, tether_field_kind kind, int64_t offset, int64_t flags,
                   int32_t object_type_index, const char* declared);

/* Registers a type's custom JSON graph encoding: `to_json` and `from_json` as its
 * `__data_to_json__` / `__data_from_json__` type attributes.  0, or -1 with the error raised. */
int trx__register_json_hooks(int32_t type_index, TVMFFISafeCallType to_json, TVMFFISafeCallType from_json);

/* Registers `fn` as global `name` (allow_override so re-loading the library is harmless). */
int trx__register_global(const char* name, TVMFFISafeCallType fn, const char* doc);

/* Drops the error raised on this thread, if any (the IR's one way of discarding an error
 * it recovers from). */
void trx__clear_error(void);

#endif /* TETHER_SRC_IR_NODE_H_ */
