/*
 * types.c -- the reflected test types that bindings build dataclass, copy, comparison and
 * constructor tests on: field flags (init off, keyword-only, repr/compare/hash off),
 * defaults, inheritance, a type without __ffi_init__, and types whose equality, ordering
 * and hashing come from __ffi_eq__ / __ffi_compare__ / __ffi_hash__ hooks.
 *
 * Every type is one row of testing_types[] (its key, parent, child slots or finality, object
 * size, how it is constructed) plus its fields; the hooks are registered after.  Object
 * sizes, field offsets and finality are those of tvm-ffi's C++ class of the same key, so the
 * layout facts reflection reports (and stub generators check) agree with tvm-ffi's.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <tether/c_api.h>
#include <tether/reflection.h>
#include <tether/tether.h>

#include "testing.h"

/* ---- C layouts ------------------------------------------------------------------------------- */

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* value;
  TVMFFIObject* optional_value;
} testing_ptr_holder_t;

typedef struct {
  TVMFFIObject header;
  int64_t v_i64;
  int32_t v_i32;
} testing_cxx_base_t;

typedef struct {
  testing_cxx_base_t base;
  double v_f64;
  float v_f32;
} testing_cxx_derived_t;

typedef struct {
  testing_cxx_derived_t base;
  TVMFFIAny v_str;
  bool v_bool;
} testing_cxx_derived2_t;

/* hidden_i64 sits between the two reflected fields and is not reflected itself. */
typedef struct {
  TVMFFIObject header;
  int64_t v_i64;
  int64_t hidden_i64;
  int32_t v_i32;
} testing_hidden_field_t;

typedef struct {
  TVMFFIObject header;
  int64_t v_i64;
} testing_one_i64_t;

/* The C++ class has a virtual destructor, so its objects carry a vtable pointer that
 * reflection does not list: they are a pointer larger than the header and v_i64.  That word
 * is kept here, unreflected and unused, so the type's size and field offsets are the C++
 * class's. */
typedef struct {
  TVMFFIObject header;
  int64_t v_i64;
  const void* vtable;
} testing_polymorphic_t;

typedef struct {
  TVMFFIObject header;
  int64_t f[5];
} testing_i64s_t;

typedef struct {
  TVMFFIObject header;
  int64_t required_field;
  int64_t optional_field;
  TVMFFIAny note;
} testing_init_subset_t;

typedef struct {
  TVMFFIObject header;
  int64_t parent_required;
  int64_t parent_default;
} testing_parent_t;

typedef struct {
  testing_parent_t base;
  int64_t child_required;
  int64_t child_kw_only;
} testing_child_t;

typedef struct {
  TVMFFIObject header;
  TVMFFIAny v_any;
  TVMFFIObject* v_obj;
} testing_deep_copy_edges_t;

/* key, a string, and (for TestCompare / TestHash) one int left out of compare or hash. */
typedef struct {
  TVMFFIObject header;
  int64_t key;
  TVMFFIAny name;
  int64_t extra;
} testing_keyed_t;

/* ---- fields ---------------------------------------------------------------------------------- */

enum {
  RW = kTVMFFIFieldFlagBitMaskWritable,
  INIT_OFF = kTVMFFIFieldFlagBitMaskInitOff,
  KW_ONLY = kTVMFFIFieldFlagBitMaskKwOnly,
  REPR_OFF = kTVMFFIFieldFlagBitMaskReprOff,
  COMPARE_OFF = kTVMFFIFieldFlagBitMaskCompareOff,
  HASH_OFF = kTVMFFIFieldFlagBitMaskHashOff,
};

/* Objects of n int64 fields, and keyed objects without `extra`. */
#define I64S_SIZE(n) offsetof(testing_i64s_t, f[n])
#define KEYED_SIZE offsetof(testing_keyed_t, extra)

/* Defaults a field may take, by slot. */
enum { D_NONE, D_NULL, D_I5, D_I7, D_I9, D_I11, D_I22, D_I33, D_I42, D_I99, D_I100, D_IM1,
       D_F8, D_STR_DEFAULT, D_COUNT };

typedef struct {
  const char* type_key; /* the type the field belongs to */
  const char* name;
  tether_field_kind kind;
  int64_t offset;
  int64_t flags;
  const char* object_key; /* OBJECT / OPT_OBJECT: the required type's key, or NULL */
  int default_slot;
} testing_field_row_t;

#define F(key, T, field, KIND, flags, object_key, dflt) \
  {key, #field, TETHER_FIELD_##KIND, offsetof(T, field), flags, object_key, dflt}

static const testing_field_row_t testing_fields[] = {
    F("testing.TestObjectPtrHolder", testing_ptr_holder_t, value, OBJECT, RW,
      "testing.TestObjectBase", D_NONE),
    F("testing.TestObjectPtrHolder", testing_ptr_holder_t, optional_value, OPT_OBJECT, RW,
      "testing.TestObjectBase", D_NULL),
    F("testing.TestCxxClassBase", testing_cxx_base_t, v_i64, INT64, RW | REPR_OFF, NULL, D_NONE),
    F("testing.TestCxxClassBase", testing_cxx_base_t, v_i32, INT32, RW | REPR_OFF, NULL, D_NONE),
    F("testing.TestCxxClassDerived", testing_cxx_derived_t, v_f64, FLOAT64, RW, NULL, D_NONE),
    F("testing.TestCxxClassDerived", testing_cxx_derived_t, v_f32, FLOAT32, RW, NULL, D_F8),
    F("testing.TestCxxClassDerivedDerived", testing_cxx_derived2_t, v_str, STRING, RW, NULL,
      D_STR_DEFAULT),
    F("testing.TestCxxClassDerivedDerived", testing_cxx_derived2_t, v_bool, BOOL, RW, NULL, D_NONE),
    F("testing.TestCxxClassHiddenField", testing_hidden_field_t, v_i64, INT64, RW, NULL, D_NONE),
    F("testing.TestCxxClassHiddenField", testing_hidden_field_t, v_i32, INT32, RW, NULL, D_NONE),
    F("testing.TestCxxClassPolymorphic", testing_polymorphic_t, v_i64, INT64, RW, NULL, D_NONE),
    F("testing.TestCxxInitSubset", testing_init_subset_t, required_field, INT64, RW, NULL, D_NONE),
    F("testing.TestCxxInitSubset", testing_init_subset_t, optional_field, INT64, RW | INIT_OFF, NULL,
      D_IM1),
    F("testing.TestCxxInitSubset", testing_init_subset_t, note, STRING, RW | INIT_OFF, NULL,
      D_STR_DEFAULT),
    {"testing.TestCxxKwOnly", "x", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW | KW_ONLY, NULL, D_NONE},
    {"testing.TestCxxKwOnly", "y", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW | KW_ONLY, NULL, D_NONE},
    {"testing.TestCxxKwOnly", "z", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[2]), RW | KW_ONLY, NULL, D_NONE},
    {"testing.TestCxxKwOnly", "w", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[3]), RW | KW_ONLY, NULL, D_I100},
    {"testing.TestCxxAutoInit", "a", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW, NULL, D_NONE},
    {"testing.TestCxxAutoInit", "b", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW | INIT_OFF, NULL, D_I42},
    {"testing.TestCxxAutoInit", "c", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[2]), RW | KW_ONLY, NULL, D_NONE},
    {"testing.TestCxxAutoInit", "d", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[3]), RW, NULL, D_I99},
    {"testing.TestCxxAutoInitSimple", "x", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW, NULL, D_NONE},
    {"testing.TestCxxAutoInitSimple", "y", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW, NULL, D_NONE},
    {"testing.TestCxxAutoInitAllInitOff", "x", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW | INIT_OFF, NULL, D_I7},
    {"testing.TestCxxAutoInitAllInitOff", "y", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW | INIT_OFF, NULL, D_I9},
    {"testing.TestCxxAutoInitAllInitOff", "z", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[2]), RW | INIT_OFF, NULL, D_NONE},
    {"testing.TestCxxAutoInitKwOnlyDefaults", "p_required", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW, NULL, D_NONE},
    {"testing.TestCxxAutoInitKwOnlyDefaults", "p_default", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW, NULL, D_I11},
    {"testing.TestCxxAutoInitKwOnlyDefaults", "k_required", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[2]), RW | KW_ONLY, NULL, D_NONE},
    {"testing.TestCxxAutoInitKwOnlyDefaults", "k_default", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[3]), RW | KW_ONLY, NULL, D_I22},
    {"testing.TestCxxAutoInitKwOnlyDefaults", "hidden", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[4]), RW | INIT_OFF, NULL, D_I33},
    F("testing.TestCxxAutoInitParent", testing_parent_t, parent_required, INT64, RW, NULL, D_NONE),
    F("testing.TestCxxAutoInitParent", testing_parent_t, parent_default, INT64, RW, NULL, D_I5),
    F("testing.TestCxxAutoInitChild", testing_child_t, child_required, INT64, RW, NULL, D_NONE),
    F("testing.TestCxxAutoInitChild", testing_child_t, child_kw_only, INT64, RW | KW_ONLY, NULL, D_NONE),
    {"testing.TestCxxNoAutoInit", "x", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[0]), RW, NULL, D_NONE},
    {"testing.TestCxxNoAutoInit", "y", TETHER_FIELD_INT64, offsetof(testing_i64s_t, f[1]), RW, NULL, D_NONE},
    F("testing.TestDeepCopyEdges", testing_deep_copy_edges_t, v_any, ANY, RW, NULL, D_NONE),
    F("testing.TestDeepCopyEdges", testing_deep_copy_edges_t, v_obj, OPT_OBJECT, RW, NULL, D_NONE),
    F("testing.TestNonCopyable", testing_one_i64_t, v_i64, INT64, 0, NULL, D_NONE),
    F("testing.TestCompare", testing_keyed_t, key, INT64, 0, NULL, D_NONE),
    F("testing.TestCompare", testing_keyed_t, name, STRING, 0, NULL, D_NONE),
    F("testing.TestCompare", testing_keyed_t, extra, INT64, COMPARE_OFF, NULL, D_NONE),
    F("testing.TestHash", testing_keyed_t, key, INT64, 0, NULL, D_NONE),
    F("testing.TestHash", testing_keyed_t, name, STRING, 0, NULL, D_NONE),
    F("testing.TestHash", testing_keyed_t, extra, INT64, HASH_OFF, NULL, D_NONE),
    F("testing.TestCustomHash", testing_keyed_t, key, INT64, 0, NULL, D_NONE),
    F("testing.TestCustomHash", testing_keyed_t, name, STRING, 0, NULL, D_NONE),
    F("testing.TestCustomCompare", testing_keyed_t, key, INT64, 0, NULL, D_NONE),
    F("testing.TestCustomCompare", testing_keyed_t, name, STRING, 0, NULL, D_NONE),
    F("testing.TestEqWithoutHash", testing_keyed_t, key, INT64, 0, NULL, D_NONE),
    F("testing.TestEqWithoutHash", testing_keyed_t, name, STRING, 0, NULL, D_NONE),
};
#undef F

/* Field names that differ from the C member a row's F() took them from. */
static const struct {
  const char* type_key;
  const char* member;
  const char* name;
} testing_renames[] = {
    {"testing.TestNonCopyable", "v_i64", "value"},
    {"testing.TestCompare", "extra", "ignored_field"},
    {"testing.TestHash", "extra", "hash_ignored"},
    {"testing.TestCustomHash", "name", "label"},
    {"testing.TestCustomCompare", "name", "label"},
    {"testing.TestEqWithoutHash", "name", "label"},
};

/* ---- types ----------------------------------------------------------------------------------- */

/* How a type is constructed. */
typedef enum {
  INIT_AUTO,         /* the automatic __ffi_init__ from the fields; shallow-copyable */
  INIT_EXPLICIT,     /* the same, declared as the type's constructor: also a static method */
  INIT_NONE,         /* no __ffi_init__ (metadata only) */
  INIT_CLASS_OFF,    /* fields and shallow copy but no __ffi_init__ (init off for the class) */
  INIT_ONE_INT_ONLY, /* __ffi_init__(value: int) of its own; no shallow copy */
  INIT_BARE,         /* as INIT_NONE, finality not published: no ObjectDef in tvm-ffi */
} testing_init_kind;

typedef struct {
  const char* key;
  const char* parent; /* NULL: ffi.Object */
  int32_t child_slots; /* or TESTING_FINAL */
  int32_t size;
  testing_init_kind init;
} testing_type_row_t;

static const testing_type_row_t testing_types[] = {
    {"testing.TestFrozenCxx", NULL, 0, sizeof(TVMFFIObject) + 24, INIT_BARE},
    {"testing.TestObjectPtrHolder", NULL, 0, sizeof(testing_ptr_holder_t), INIT_AUTO},
    {"testing.TestCxxClassBase", NULL, 1, sizeof(testing_cxx_base_t), INIT_AUTO},
    {"testing.TestCxxClassDerived", "testing.TestCxxClassBase", 1, sizeof(testing_cxx_derived_t), INIT_AUTO},
    {"testing.TestCxxClassDerivedDerived", "testing.TestCxxClassDerived", 0,
     sizeof(testing_cxx_derived2_t), INIT_AUTO},
    {"testing.TestCxxClassHiddenField", NULL, TESTING_FINAL, sizeof(testing_hidden_field_t),
     INIT_AUTO},
    {"testing.TestCxxClassPolymorphic", NULL, TESTING_FINAL, sizeof(testing_polymorphic_t),
     INIT_AUTO},
    {"testing.TestCxxInitSubset", NULL, 0, sizeof(testing_init_subset_t), INIT_AUTO},
    {"testing.TestCxxKwOnly", NULL, 0, I64S_SIZE(4), INIT_AUTO},
    {"testing.TestCxxAutoInit", NULL, 0, I64S_SIZE(4), INIT_AUTO},
    {"testing.TestCxxAutoInitSimple", NULL, 0, I64S_SIZE(2), INIT_AUTO},
    {"testing.TestCxxAutoInitAllInitOff", NULL, 0, I64S_SIZE(3), INIT_AUTO},
    {"testing.TestCxxAutoInitKwOnlyDefaults", NULL, 0, I64S_SIZE(5), INIT_AUTO},
    {"testing.TestCxxAutoInitParent", NULL, 1, sizeof(testing_parent_t), INIT_AUTO},
    {"testing.TestCxxAutoInitChild", "testing.TestCxxAutoInitParent", TESTING_FINAL,
     sizeof(testing_child_t), INIT_AUTO},
    {"testing.TestCxxNoAutoInit", NULL, 0, I64S_SIZE(2), INIT_CLASS_OFF},
    {"testing.TestDeepCopyEdges", NULL, 0, sizeof(testing_deep_copy_edges_t), INIT_AUTO},
    {"testing.TestNonCopyable", NULL, 0, sizeof(testing_one_i64_t), INIT_ONE_INT_ONLY},
    {"testing.TestCompare", NULL, TESTING_FINAL, sizeof(testing_keyed_t), INIT_EXPLICIT},
    {"testing.TestHash", NULL, TESTING_FINAL, sizeof(testing_keyed_t), INIT_EXPLICIT},
    {"testing.TestCustomHash", NULL, TESTING_FINAL, KEYED_SIZE, INIT_EXPLICIT},
    {"testing.TestCustomCompare", NULL, TESTING_FINAL, KEYED_SIZE, INIT_EXPLICIT},
    {"testing.TestEqWithoutHash", NULL, TESTING_FINAL, KEYED_SIZE, INIT_EXPLICIT},
};

static int32_t index_of(const char* key) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t index = -1;
  return TVMFFITypeKeyToIndex(&k, &index) == 0 ? index : -1;
}

static const char* field_name(const testing_field_row_t* row) {
  for (size_t i = 0; i < sizeof(testing_renames) / sizeof(testing_renames[0]); ++i) {
    if (strcmp(testing_renames[i].type_key, row->type_key) == 0 &&
        strcmp(testing_renames[i].member, row->name) == 0) {
      return testing_renames[i].name;
    }
  }
  return row->name;
}

/* __ffi_init__(value: int) of a type whose object is one int64 after the header (the
 * type is found from the function's own row: testing.TestNonCopyable). */
static int one_int_init(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "testing.TestNonCopyable.__ffi_init__";
  int64_t value;
  TVMFFIObjectHandle obj = NULL;
  if (tether_check_nargs(fname, "(0: int) -> testing.TestNonCopyable", n, 1) != 0 ||
      tether_arg_int(fname, args, 0, &value) != 0) {
    return -1;
  }
  int32_t index = index_of("testing.TestNonCopyable");
  if (index < 0 || tether_object_new_reflected(index, &obj) != 0) return -1;
  ((testing_one_i64_t*)obj)->v_i64 = value;
  *result = tether_any_object(obj);
  return 0;
}

/* testing.TestCxxAutoInitAllInitOff starts as x = 7, y = 0, z = 1234: z has no reflected
 * default, so construction keeps this value (a C++ member initialiser's, in tvm-ffi). */
static int all_init_off_create(TVMFFIObjectHandle* out) {
  int32_t index = index_of("testing.TestCxxAutoInitAllInitOff");
  if (index < 0 || tether_object_new_reflected(index, out) != 0) return -1;
  testing_i64s_t* obj = *out;
  obj->f[0] = 7;
  obj->f[1] = 0;
  obj->f[2] = 1234;
  return 0;
}

/* Types whose objects start from a creator rather than zeroed memory. */
static const struct {
  const char* key;
  TVMFFIObjectCreator creator;
} testing_creators[] = {
    {"testing.TestCxxAutoInitAllInitOff", all_init_off_create},
};

static TVMFFIObjectCreator creator_of(const char* key) {
  for (size_t i = 0; i < sizeof(testing_creators) / sizeof(testing_creators[0]); ++i) {
    if (strcmp(testing_creators[i].key, key) == 0) return testing_creators[i].creator;
  }
  return NULL;
}

static int define_type(const testing_type_row_t* t) {
  int32_t parent = t->parent != NULL ? index_of(t->parent) : kTVMFFIObject;
  if (parent < 0) return -1;
  int32_t index = testing__alloc_type(t->key, parent, t->child_slots);
  if (index < 0) return -1;
  TVMFFIAny defaults[D_COUNT];
  defaults[D_NONE] = tether_any_none();
  defaults[D_NULL] = tether_any_none();
  defaults[D_I5] = tether_any_int(5);
  defaults[D_I7] = tether_any_int(7);
  defaults[D_I9] = tether_any_int(9);
  defaults[D_I11] = tether_any_int(11);
  defaults[D_I22] = tether_any_int(22);
  defaults[D_I33] = tether_any_int(33);
  defaults[D_I42] = tether_any_int(42);
  defaults[D_I99] = tether_any_int(99);
  defaults[D_I100] = tether_any_int(100);
  defaults[D_IM1] = tether_any_int(-1);
  defaults[D_F8] = tether_any_float(8.0);
  defaults[D_STR_DEFAULT] = tether_any_raw_str("default");
  for (size_t i = 0; i < sizeof(testing_fields) / sizeof(testing_fields[0]); ++i) {
    const testing_field_row_t* f = &testing_fields[i];
    if (strcmp(f->type_key, t->key) != 0) continue;
    int32_t object_index = 0;
    if (f->object_key != NULL && (object_index = index_of(f->object_key)) < 0) return -1;
    tether_field_def_t def = {field_name(f), f->kind, f->offset, f->flags, object_index,
                              f->default_slot == D_NONE ? NULL : &defaults[f->default_slot],
                              NULL, NULL, NULL};
    if (tether_type_def_field(index, &def) != 0) return -1;
  }
  if (t->init == INIT_AUTO || t->init == INIT_EXPLICIT || t->init == INIT_CLASS_OFF) {
    tether_type_finish_t def = {t->size, creator_of(t->key), t->init == INIT_CLASS_OFF, NULL};
    if (tether_type_def_finish_ex(index, &def) != 0) return -1;
    return t->init == INIT_EXPLICIT ? testing__init_as_method(index) : 0;
  }
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.total_size = t->size;
  meta.structural_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  if (TVMFFITypeRegisterMetadata(index, &meta) != 0) return -1;
  if (t->init == INIT_BARE) return 0;
  if (tether_type_def_final(index) != 0) return -1;
  if (t->init == INIT_NONE) return 0;
  /* The constructor as a static method and as the type attribute bindings look up. */
  TVMFFIObjectHandle f = NULL;
  if (tether_type_def_method(index, "__ffi_init__", one_int_init, true, "Constructor") != 0 ||
      TVMFFIFunctionCreate(NULL, one_int_init, NULL, &f) != 0) {
    return -1;
  }
  TVMFFIByteArray attr = {"__ffi_init__", 12};
  TVMFFIAny value = tether_any_object(f);
  int rc = TVMFFITypeRegisterAttr(index, &attr, &value);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* ---- hooks: equality, ordering and hashing on `key` alone ---------------------------------- */

static int keyed_args(const char* fname, const TVMFFIAny* args, int32_t n, int32_t nobj,
                      const testing_keyed_t* out[2]) {
  for (int32_t i = 0; i < nobj; ++i) {
    TVMFFIObject* obj = NULL;
    if (tether_arg_object(fname, args, i, kTVMFFIObject, &obj) != 0) return -1;
    out[i] = (const testing_keyed_t*)obj;
  }
  if (n != nobj + 1 || args[nobj].type_index != kTVMFFIFunction) {
    return tether_raise("TypeError", "%s: expected %d objects and a callback", fname, (int)nobj);
  }
  return 0;
}

/* __ffi_hash__(self, hash_fn) -> hash_fn(self.key) */
static int keyed_hash(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const testing_keyed_t* obj[2];
  if (keyed_args("testing keyed __ffi_hash__", args, n, 1, obj) != 0) return -1;
  TVMFFIAny key = tether_any_int(obj[0]->key);
  return TVMFFIFunctionCall(args[1].v_obj, &key, 1, result);
}

/* __ffi_eq__(lhs, rhs, eq_fn) -> eq_fn(lhs.key, rhs.key); __ffi_compare__ likewise. */
static int keyed_pair(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const testing_keyed_t* obj[2];
  if (keyed_args("testing keyed __ffi_eq__/__ffi_compare__", args, n, 2, obj) != 0) return -1;
  TVMFFIAny keys[2] = {tether_any_int(obj[0]->key), tether_any_int(obj[1]->key)};
  return TVMFFIFunctionCall(args[2].v_obj, keys, 2, result);
}

static int def_hook(const char* type_key, const char* attr, TVMFFISafeCallType fn) {
  int32_t index = index_of(type_key);
  TVMFFIObjectHandle f = NULL;
  if (index < 0 || TVMFFIFunctionCreate(NULL, fn, NULL, &f) != 0) return -1;
  TVMFFIByteArray name = {attr, strlen(attr)};
  TVMFFIAny value = tether_any_object(f);
  int rc = TVMFFITypeRegisterAttr(index, &name, &value);
  TVMFFIObjectDecRef(f);
  return rc;
}

int testing__register_types(void) {
  for (size_t i = 0; i < sizeof(testing_types) / sizeof(testing_types[0]); ++i) {
    if (define_type(&testing_types[i]) != 0) return -1;
  }
  if (def_hook("testing.TestCustomHash", "__ffi_hash__", keyed_hash) != 0 ||
      def_hook("testing.TestCustomCompare", "__ffi_hash__", keyed_hash) != 0 ||
      def_hook("testing.TestCustomCompare", "__ffi_eq__", keyed_pair) != 0 ||
      def_hook("testing.TestCustomCompare", "__ffi_compare__", keyed_pair) != 0 ||
      def_hook("testing.TestEqWithoutHash", "__ffi_eq__", keyed_pair) != 0) {
    return -1;
  }
  return 0;
}
