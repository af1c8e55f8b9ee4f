/*
 * op.c -- the Relax op registry: one Op object per row of TRX_OPS (op.h), created at load
 * and kept until unload; the attrs types of TRX_ATTRS_TYPES registered as reflected FFI
 * types with TVM's keys and field order; the globals "ir.Op.get"/"ir.GetOp"/
 * "ir.ListOpNames" and one constructor global "relax.op.<name>" per op; trx_infer_type's
 * dispatch; and the helpers every op shares (argument readers, error-text rendering, axis
 * normalization, the binary dtype rule, broadcasting, layouts).
 *
 * The ops' constructors and inference live in op_nn.c and op_tensor.c; they have no init
 * of their own -- everything is registered here from the table.
 */
#include "op.h"

#include <stdarg.h>
#include <stdio.h>


int32_t trx__attrs_type_index[TRX_NUM_ATTRS];
DLDataType trx__dtype_bool = {kDLUInt, 1, 1};

/* ---- the op table ------------------------------------------------------------------------- */

static const struct {
  const char* name;
  int num_inputs;
  trx_attrs_kind attrs;
  const char* attrs_type_key;
  const char* arguments;
  const char* sig;
  trx__make_fn make;
  trx__infer_fn infer;
  int flags;
} trx__op_rows[TRX_NUM_OPS] = {
#define TRX__OP_ROW(id, name, nin, attrs, key, args, sig, make, infer, flags) \
  {name, nin, TRX_ATTRS_##attrs, key, args, sig, make, infer, flags},
    TRX_OPS(TRX__OP_ROW)
#undef TRX__OP_ROW
};

/* Filled by init: defs[i] describes op i; ops[i] is its Op object (owned until fini). */
static trx__op_def_t trx__defs[TRX_NUM_OPS];
static TVMFFIObject* trx__ops[TRX_NUM_OPS];

TVMFFIObject* trx__op_by_id(trx_op_id id) { return trx__ops[id]; }

const trx__op_def_t* trx__op_def_of(const TVMFFIObject* op) {
  if (!trx_is(op, TRX_OP)) return NULL;
  int64_t id = ((const trx_op_t*)op)->op_id;
  if (id < 0 || id >= TRX_NUM_OPS || trx__ops[id] != op) return NULL;
  return &trx__defs[id];
}

TVMFFIObject* trx_op_get(const char* name, size_t len) {
  for (int i = 0; i < TRX_NUM_OPS; ++i) {
    const char* full = trx__defs[i].full_name;
    if (full != NULL && strlen(full) == len && memcmp(full, name, len) == 0) return trx__ops[i];
  }
  tether_raise("AttributeError", "Check failed: (reg != nullptr) is false: Operator %.*s is not registered",
               (int)len, name);
  return NULL;
}

void trx__release_objects(TVMFFIObject** objs, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (objs[i] != NULL) TVMFFIObjectDecRef(objs[i]);
    objs[i] = NULL;
  }
}

int trx__make_call_steal(const trx__op_def_t* def, TVMFFIObject** args, int64_t n,
                         TVMFFIObject* attrs, TVMFFIObject** out) {
  /* args are Exprs (read by trx__arg_expr) and attrs the op's attrs type, so the Call is
   * built without trx_call_new's checks -- unless an argument is missing (then it raises). */
  bool checked = true;
  for (int64_t i = 0; i < n; ++i) checked &= args[i] != NULL;
  *out = NULL;
  if (!checked) {
    TVMFFIObject* arr = trx__array_of(args, n);
    TVMFFIObject* ty_args = arr != NULL ? trx__empty_array() : NULL;
    if (ty_args != NULL) *out = trx_call_new(trx__ops[def->id], arr, attrs, ty_args);
    if (arr) TVMFFIObjectDecRef(arr);
    if (ty_args) TVMFFIObjectDecRef(ty_args);
    if (attrs) TVMFFIObjectDecRef(attrs);
    trx__release_objects(args, n);
    return *out != NULL ? 0 : -1;
  }
  /* The argument references move into the Array: no count is touched. */
  TVMFFIAny small[8];
  TVMFFIAny* items = n <= 8 ? small : malloc(sizeof(TVMFFIAny) * (size_t)n);
  if (items == NULL) {
    if (attrs) TVMFFIObjectDecRef(attrs);
    trx__release_objects(args, n);
    return tether_raise("MemoryError", "%s: out of memory", def->fname);
  }
  for (int64_t i = 0; i < n; ++i) {
    items[i] = tether_any_object(args[i]);
    args[i] = NULL;
  }
  TVMFFIObjectHandle arr = NULL;
  int rc = tether_array_new_steal(items, n, &arr);
  if (items != small) free(items);
  if (rc != 0) {
    if (attrs) TVMFFIObjectDecRef(attrs);
    return -1;
  }
  *out = trx__call_new_steal(trx__ops[def->id], (TVMFFIObject*)arr, attrs, trx__empty_array());
  return *out != NULL ? 0 : -1;
}

int trx__make_call_steal_attrs(const trx__op_def_t* def, TVMFFIObject* const* args, int64_t n,
                               TVMFFIObject* attrs, TVMFFIObject** out) {
  TVMFFIObject* small[8];
  TVMFFIObject** owned = n <= 8 ? small : malloc(sizeof(TVMFFIObject*) * (size_t)n);
  if (owned == NULL) {
    if (attrs) TVMFFIObjectDecRef(attrs);
    return tether_raise("MemoryError", "%s: out of memory", def->fname);
  }
  for (int64_t i = 0; i < n; ++i) owned[i] = args[i] != NULL ? trx__ref(args[i]) : NULL;
  int rc = trx__make_call_steal(def, owned, n, attrs, out);
  if (owned != small) free(owned);
  return rc;
}

TVMFFIObject* trx_infer_type(TVMFFIObject* call) {
  if (!trx_is(call, TRX_CALL)) {
    tether_raise("TypeError", "trx_infer_type: expected an ir.Call, got %s",
                 call ? tether_type_key(call->type_index) : "None");
    return NULL;
  }
  trx_call_t* c = (trx_call_t*)call;
  const trx__op_def_t* def = trx__op_def_of(c->op);
  if (def == NULL) {
    tether_raise("TypeError", "trx_infer_type: the callee of the Call is not a registered Op");
    return NULL;
  }
  if (def->attrs != TRX_ATTRS_NONE &&
      (c->attrs == NULL || c->attrs->type_index != trx__attrs_type_index[def->attrs])) {
    tether_raise("TypeError", "%s: the Call's attrs must be %s", def->full_name,
                 tether_type_key(trx__attrs_type_index[def->attrs]));
    return NULL;
  }
  return def->infer(def, c);
}

/* ---- attrs types ---------------------------------------------------------------------------- */

static const char* const trx__attrs_keys[TRX_NUM_ATTRS] = {
#define TRX__ATTRS_KEY(kind, key, ctype, fields) key,
    TRX_ATTRS_TYPES(TRX__ATTRS_KEY)
#undef TRX__ATTRS_KEY
};

TVMFFIObject* trx__attrs_new(trx_attrs_kind kind) {
  return trx__node_new(trx__attrs_type_index[kind]);
}

typedef struct {
  const char* name;
  tether_field_kind kind;
  int64_t offset;
  const char* declared;
} trx__attrs_field_t;

#define TRX__FIELD_ROW(T, field, KIND, DECL) {#field, TETHER_FIELD_##KIND, (int64_t)offsetof(T, field), DECL},

static int trx__register_attrs_type(trx_attrs_kind kind, const trx__attrs_field_t* fields,
                                    size_t nfields, int32_t size) {
  int32_t parent = trx_type_index[TRX_ATTRS];
  const TVMFFITypeInfo* pinfo = TVMFFIGetTypeInfo(parent);
  TVMFFIByteArray key = {trx__attrs_keys[kind], strlen(trx__attrs_keys[kind])};
  int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, pinfo ? pinfo->type_depth + 1 : 2, 0, 0,
                                            parent);
  if (index < 0) return -1;
  trx__attrs_type_index[kind] = index;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (info != NULL && info->num_fields > 0) return 0; /* already registered (library reloaded) */
  for (size_t i = 0; i < nfields; ++i) {
    if (trx__def_field(index, fields[i].name, fields[i].kind, fields[i].offset, 0, kTVMFFIObject,
                       fields[i].declared) != 0) {
      return -1;
    }
  }
  return tether_type_def_finish(index, size, NULL);
}

static int trx__register_attrs_types(void) {
#define TRX__ATTRS_REG(kind, key, ctype, FIELDS)                                          \
  {                                                                                       \
    static const trx__attrs_field_t fields[] = {FIELDS(TRX__FIELD_ROW, ctype)};           \
    if (trx__register_attrs_type(TRX_ATTRS_##kind, fields, sizeof(fields) / sizeof(fields[0]), \
                                 (int32_t)sizeof(ctype)) != 0)                            \
      return -1;                                                                          \
  }
  TRX_ATTRS_TYPES(TRX__ATTRS_REG)
#undef TRX__ATTRS_REG
  return 0;
}

/* ---- globals ------------------------------------------------------------------------------------ */

static int trx__set_result_obj(TVMFFIAny* result, TVMFFIObject* obj /* stolen */) {
  result->type_index = obj->type_index;
  result->zero_padding = 0;
  result->v_obj = obj;
  return 0;
}

static int trx__global_op_get(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  static const char* const fname = "ir.Op.get(0: str) -> ir.Op";
  TVMFFIByteArray name;
  if (tether_check_nargs(fname, NULL, n, 1) != 0) return -1;
  if (tether_arg_str(fname, args, 0, &name) != 0) return -1;
  TVMFFIObject* op = trx_op_get(name.data, name.size);
  if (op == NULL) return -1;
  TVMFFIObjectIncRef(op);
  return trx__set_result_obj(result, op);
}

/* ir.Op's custom JSON graph encoding (type attributes __data_to_json__ / __data_from_json__,
 * as TVM writes it): the op's name as a JSON string; reading looks the op up by name. */
static int trx__op_to_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "ir.Op.__data_to_json__";
  (void)self;
  if (tether_check_nargs(fname, "(0: ir.Op) -> str", n, 1) != 0) return -1;
  if (!tether_any_is_object(&args[0]) || !trx_is(args[0].v_obj, TRX_OP)) {
    return tether_raise("TypeError", "%s: argument 0 must be an ir.Op, but got `%s`", fname,
                        tether_any_type_key(&args[0]));
  }
  TVMFFIByteArray name = trx__str(&((const trx_op_t*)args[0].v_obj)->name);
  return tether_any_str(name.data, name.size, result);
}

static int trx__op_from_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "ir.Op.__data_from_json__";
  (void)self;
  TVMFFIByteArray name;
  if (tether_check_nargs(fname, "(0: str) -> ir.Op", n, 1) != 0) return -1;
  if (!tether_any_get_str(&args[0], &name)) {
    return tether_raise("TypeError", "%s: an ir.Op is written as its name (a JSON string), but got `%s`",
                        fname, tether_any_type_key(&args[0]));
  }
  for (int i = 0; i < TRX_NUM_OPS; ++i) {
    const char* full = trx__defs[i].full_name;
    if (full != NULL && strlen(full) == name.size && memcmp(full, name.data, name.size) == 0) {
      TVMFFIObjectIncRef(trx__ops[i]);
      return trx__set_result_obj(result, trx__ops[i]);
    }
  }
  return tether_raise("ValueError", "%s: unknown op `%.*s` (libtether_ir has no op of that name)", fname,
                      (int)name.size, name.data);
}

static int trx__global_list_op_names(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (tether_check_nargs("ir.ListOpNames() -> Array<str>", NULL, n, 0) != 0) return -1;
  TVMFFIAny names[TRX_NUM_OPS];
  for (int i = 0; i < TRX_NUM_OPS; ++i) names[i] = tether_any_raw_str(trx__defs[i].full_name);
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(names, TRX_NUM_OPS, &arr) != 0) return -1;
  return trx__set_result_obj(result, (TVMFFIObject*)arr);
}

/* Every constructor global: self is the op's definition. */
static int trx__global_make(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const trx__op_def_t* def = (const trx__op_def_t*)self;
  if (tether_check_nargs(def->fname, NULL, n, def->num_params) != 0) return -1;
  TVMFFIObject* call = NULL;
  if (def->make(def, args, n, &call) != 0) return -1;
  return trx__set_result_obj(result, call);
}

static int trx__register_make_global(const trx__op_def_t* def) {
  char name[96];
  snprintf(name, sizeof(name), "relax.op.%s", def->name);
  TVMFFIObjectHandle f = NULL;
  /* Building a Call (and inferring its type) neither blocks nor calls back. */
  if (tether_func_create((void*)def, trx__global_make, NULL, TETHER_FUNC_KEEPS_GIL, &f) != 0) {
    return -1;
  }
  TVMFFIByteArray key = {name, strlen(name)};
  int rc = TVMFFIFunctionSetGlobal(&key, f, 1);
  TVMFFIObjectDecRef(f);
  return rc;
}

/* Number of FFI parameters of a signature "(0: a, 1: b) -> r". */
static int trx__sig_nparams(const char* sig) {
  int n = 0, depth = 0;
  if (strncmp(sig, "()", 2) == 0) return 0;
  for (const char* p = sig; *p; ++p) {
    if (*p == '(' || *p == '<') depth++;
    if (*p == ')' || *p == '>') {
      if (--depth == 0) break;
    }
    if (*p == ',' && depth == 1) n++;
  }
  return n + 1;
}

static void trx__op_free_defs(void) {
  for (int i = 0; i < TRX_NUM_OPS; ++i) {
    free((char*)trx__defs[i].full_name);
    free((char*)trx__defs[i].fname);
    trx__defs[i].full_name = NULL;
    trx__defs[i].fname = NULL;
  }
}

static TVMFFIObject* trx__op_new(const trx__op_def_t* def) {
  TVMFFIObjectHandle h = NULL;
  if (tether_object_new_reflected(trx_type_index[TRX_OP], &h) != 0) return NULL;
  trx_op_t* op = (trx_op_t*)h;
  op->description = tether_any_none();
  if (tether_any_str(def->full_name, strlen(def->full_name), &op->name) != 0 ||
      tether_any_str("", 0, &op->description) != 0 ||
      tether_any_str(def->attrs_type_key, strlen(def->attrs_type_key), &op->attrs_type_key) != 0 ||
      (op->arguments = trx__empty_array()) == NULL) {
    TVMFFIObjectDecRef(h);
    return NULL;
  }
  op->num_inputs = def->num_inputs;
  op->support_level = 10; /* TVM's default level, which its Relax ops keep */
  op->op_id = def->id;
  return (TVMFFIObject*)h;
}

int trx__op_init(void) {
  TVMFFIByteArray bool_str = {"bool", 4};
  if (TVMFFIDataTypeFromString(&bool_str, &trx__dtype_bool) != 0) return -1;
  if (trx__register_attrs_types() != 0) return -1;
  for (int i = 0; i < TRX_NUM_OPS; ++i) {
    trx__op_def_t* d = &trx__defs[i];
    size_t nlen = strlen(trx__op_rows[i].name);
    size_t slen = strlen(trx__op_rows[i].sig);
    char* full = malloc(nlen + 7);
    char* fname = malloc(nlen + slen + 10);
    if (full == NULL || fname == NULL) {
      free(full);
      free(fname);
      trx__op_free_defs();
      return tether_raise("MemoryError", "trx__op_init: out of memory");
    }
    snprintf(full, nlen + 7, "relax.%s", trx__op_rows[i].name);
    snprintf(fname, nlen + slen + 10, "relax.op.%s%s", trx__op_rows[i].name, trx__op_rows[i].sig);
    d->id = (trx_op_id)i;
    d->name = trx__op_rows[i].name;
    d->full_name = full;
    d->fname = fname;
    d->num_inputs = trx__op_rows[i].num_inputs;
    d->num_params = trx__sig_nparams(trx__op_rows[i].sig);
    d->attrs = trx__op_rows[i].attrs;
    d->attrs_type_key = trx__op_rows[i].attrs_type_key;
    d->arguments = trx__op_rows[i].arguments;
    d->make = trx__op_rows[i].make;
    d->infer = trx__op_rows[i].infer;
    d->flags = trx__op_rows[i].flags;
    trx__ops[i] = trx__op_new(d);
    if (trx__ops[i] == NULL) return -1;
    if (trx__register_make_global(d) != 0) return -1;
  }
  if (tether_func_register_flags("ir.Op.get", trx__global_op_get,
                                 "The Op registered under a name.", NULL, TETHER_FUNC_KEEPS_GIL,
                                 1) != 0 ||
      tether_func_register_flags("ir.GetOp", trx__global_op_get,
                                 "The Op registered under a name.", NULL, TETHER_FUNC_KEEPS_GIL,
                                 1) != 0 ||
      tether_func_register_flags("ir.ListOpNames", trx__global_list_op_names,
                                 "Names of all registered ops.", NULL, TETHER_FUNC_KEEPS_GIL,
                                 1) != 0)
    return -1;
  return trx__register_json_hooks(trx_type_index[TRX_OP], trx__op_to_json, trx__op_from_json);
}

void trx__op_fini(void) {
  for (int i = 0; i < TRX_NUM_OPS; ++i) {
    if (trx__ops[i] != NULL) TVMFFIObjectDecRef(trx__ops[i]);
    trx__ops[i] = NULL;
  }
  trx__op_free_defs();
}

/* ---- argument readers ------------------------------------------------------------------------- */

static int trx__arg_mismatch(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                             const char* expected, const char* got) {
  return tether_raise("TypeError",
                      "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got "
                      "`%s`",
                      (int)i, def->fname, expected, got ? got : tether_any_type_key(&args[i]));
}

int trx__arg_expr(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  TVMFFIByteArray s;
  *out = NULL;
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) {
    *out = trx__ref(v->v_obj);
    return 0;
  }
  if (v->type_index == kTVMFFIInt) {
    *out = trx_int_imm_new(trx__dtype_int64, v->v_int64);
  } else if (v->type_index == kTVMFFIBool) {
    *out = trx_int_imm_new(trx__dtype_bool, v->v_int64);
  } else if (v->type_index == kTVMFFIFloat) {
    DLDataType f32 = {kDLFloat, 32, 1};
    *out = trx_float_imm_new(f32, v->v_float64);
  } else if (tether_any_get_str(v, &s)) {
    *out = trx_string_imm_new(s.data, s.size);
  } else {
    return trx__arg_mismatch(def, args, i, "ir.Expr", NULL);
  }
  return *out == NULL ? -1 : 0;
}

int trx__arg_opt_expr(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                      TVMFFIObject** out) {
  if (args[i].type_index == kTVMFFINone) {
    *out = NULL;
    return 0;
  }
  return trx__arg_expr(def, args, i, out);
}

static int trx__arg_int_array_slow(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                                   bool allow_none, TVMFFIObject** out);

int trx__arg_int_array(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  /* The common case, kept lean (the rest is out of line): an Array of plain ints (what
   * Python tuples and C callers pass) is kept as it is (as TVM keeps it: two attrs fields
   * given equal values hold two Arrays). */
  if (v->type_index == kTVMFFIArray) {
    int64_t n;
    const TVMFFIAny* e = trx__arr_items(v->v_obj, &n);
    int64_t k = 0;
    while (k < n && e[k].type_index == kTVMFFIInt) ++k;
    if (k == n) {
      *out = trx__ref(v->v_obj);
      return 0;
    }
  }
  return trx__arg_int_array_slow(def, args, i, allow_none, out);
}

/* Lists, IntImm items, None and the type errors. */
static __attribute__((noinline)) int trx__arg_int_array_slow(const trx__op_def_t* def,
                                                             const TVMFFIAny* args, int32_t i,
                                                             bool allow_none,
                                                             TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  const char* expected = allow_none ? "Optional<Array<int>>" : "Array<int>";
  *out = NULL;
  if (v->type_index == kTVMFFINone && allow_none) return 0;
  if (v->type_index != kTVMFFIArray && v->type_index != kTVMFFIList)
    return trx__arg_mismatch(def, args, i, expected, NULL);
  bool is_list = v->type_index == kTVMFFIList;
  int64_t n = 0;
  const TVMFFIAny* elems = is_list ? NULL : trx__arr_items(v->v_obj, &n);
  if (is_list) n = tether_list_size(v->v_obj);
  int64_t small[TRX__IARR_INLINE] = {0};
  int64_t* vals = n <= TRX__IARR_INLINE ? small : malloc(sizeof(int64_t) * (size_t)n);
  bool all_int = true; /* every element a plain int: an Array of them can be kept as it is */
  if (vals == NULL) return tether_raise("MemoryError", "%s: out of memory", def->fname);
  for (int64_t k = 0; k < n; ++k) {
    const TVMFFIAny* e = is_list ? tether_list_at(v->v_obj, k) : &elems[k];
    if (e->type_index == kTVMFFIInt || e->type_index == kTVMFFIBool) {
      vals[k] = e->v_int64;
      all_int &= e->type_index == kTVMFFIInt;
    } else if (tether_any_is_object(e) && trx_is(e->v_obj, TRX_INT_IMM)) {
      vals[k] = ((trx_int_imm_t*)e->v_obj)->value;
      all_int = false;
    } else {
      char got[96];
      snprintf(got, sizeof(got), "Array[index %lld: %s]", (long long)k, tether_any_type_key(e));
      if (vals != small) free(vals);
      return trx__arg_mismatch(def, args, i, expected, got);
    }
  }
  /* An Array is immutable (copy-on-write when shared): the caller's Array of ints is kept
   * as is rather than copied. */
  *out = all_int && !is_list ? trx__ref(v->v_obj) : trx__iarr_new(vals, n);
  if (vals != small) free(vals);
  return *out != NULL ? 0 : -1;
}

int trx__arg_i64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, int64_t* out) {
  if (args[i].type_index == kTVMFFIInt || args[i].type_index == kTVMFFIBool) {
    *out = args[i].v_int64;
    return 0;
  }
  return trx__arg_mismatch(def, args, i, "int", NULL);
}

int trx__arg_opt_i64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                     tether_opt_int64_t* out) {
  out->has_value = false;
  out->value = 0;
  if (args[i].type_index == kTVMFFINone) return 0;
  if (args[i].type_index == kTVMFFIInt || args[i].type_index == kTVMFFIBool) {
    out->has_value = true;
    out->value = args[i].v_int64;
    return 0;
  }
  return trx__arg_mismatch(def, args, i, "Optional<int>", NULL);
}

int trx__arg_f64(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, double* out) {
  switch (args[i].type_index) {
    case kTVMFFIFloat:
      *out = args[i].v_float64;
      return 0;
    case kTVMFFIInt:
    case kTVMFFIBool:
      *out = (double)args[i].v_int64;
      return 0;
    default:
      return trx__arg_mismatch(def, args, i, "float", NULL);
  }
}

int trx__arg_flag(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, bool* out) {
  if (args[i].type_index == kTVMFFIBool || args[i].type_index == kTVMFFIInt) {
    *out = args[i].v_int64 != 0;
    return 0;
  }
  return trx__arg_mismatch(def, args, i, "bool", NULL);
}

int trx__arg_string(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i, bool allow_none,
                    TVMFFIAny* out) {
  TVMFFIByteArray s;
  *out = tether_any_none();
  if (allow_none && args[i].type_index == kTVMFFINone) return 0;
  if (!tether_any_get_str(&args[i], &s))
    return trx__arg_mismatch(def, args, i, allow_none ? "Optional<str>" : "str", NULL);
  return tether_any_str(s.data, s.size, out);
}

int trx__arg_opt_dtype(const trx__op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIAny* out) {
  TVMFFIByteArray s;
  *out = tether_any_none();
  if (allow_none && args[i].type_index == kTVMFFINone) return 0;
  if (args[i].type_index == kTVMFFIDataType) {
    *out = tether_any_dtype(args[i].v_dtype);
    return 0;
  }
  if (tether_any_get_str(&args[i], &s)) {
    DLDataType t;
    if (TVMFFIDataTypeFromString(&s, &t) != 0) return -1;
    *out = tether_any_dtype(t);
    return 0;
  }
  return trx__arg_mismatch(def, args, i, allow_none ? "Optional<DataType>" : "DataType", NULL);
}

/* ---- int arrays ---------------------------------------------------------------------------------- */

TVMFFIObject* trx__iarr_new(const int64_t* v, int64_t n) {
  TVMFFIAny items[16] = {{0}};
  TVMFFIAny* buf = n <= 16 ? items : malloc(sizeof(TVMFFIAny) * (size_t)n);
  if (buf == NULL) {
    tether_raise("MemoryError", "trx__iarr_new: out of memory");
    return NULL;
  }
  for (int64_t i = 0; i < n; ++i) buf[i] = tether_any_int(v[i]);
  TVMFFIObjectHandle arr = NULL;
  int rc = tether_array_new(buf, n, &arr);
  if (buf != items) free(buf);
  return rc == 0 ? (TVMFFIObject*)arr : NULL;
}

/* ---- error-text rendering --------------------------------------------------------------------------- */

static void trx__sb_vprintf(trx__sb_t* sb, const char* fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int need = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (need < 0) return;
  if (sb->len + (size_t)need + 1 > sb->cap) {
    size_t cap = sb->cap ? sb->cap : 128;
    while (cap < sb->len + (size_t)need + 1) cap *= 2;
    char* p = realloc(sb->data, cap);
    if (p == NULL) return;
    sb->data = p;
    sb->cap = cap;
  }
  vsnprintf(sb->data + sb->len, (size_t)need + 1, fmt, ap);
  sb->len += (size_t)need;
}

void trx__sb_printf(trx__sb_t* sb, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  trx__sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

void trx__sb_free(trx__sb_t* sb) {
  free(sb->data);
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

int trx__sb_raise(trx__sb_t* sb, const char* kind) {
  tether_raise(kind, "%s", sb->data ? sb->data : "");
  trx__sb_free(sb);
  return -1;
}

void trx__sb_dtype(trx__sb_t* sb, DLDataType t) {
  char buf[64];
  trx__dtype_str(t, buf, sizeof(buf));
  trx__sb_printf(sb, "T.%s", buf);
}

/* A minimal rendering used only when the printer fails. */
static void trx__sb_node_fallback(trx__sb_t* sb, TVMFFIObject* node) {
  if (node == NULL) {
    trx__sb_printf(sb, "None");
  } else if (trx_is(node, TRX_INT_IMM)) {
    trx__sb_dtype(sb, ((trx_expr_t*)node)->ty ? ((trx_prim_type_t*)((trx_expr_t*)node)->ty)->dtype
                                               : trx__dtype_int64);
    trx__sb_printf(sb, "(%lld)", (long long)((trx_int_imm_t*)node)->value);
  } else if (trx_is(node, TRX_VAR)) {
    TVMFFIByteArray s = trx__str(&((trx_var_t*)node)->name);
    trx__sb_printf(sb, "%.*s", (int)s.size, s.data);
  } else if (trx_is(node, TRX_PRIM_TYPE)) {
    trx__sb_dtype(sb, ((trx_prim_type_t*)node)->dtype);
  } else {
    trx__sb_printf(sb, "%s", tether_type_key(node->type_index));
  }
}

void trx__sb_node(trx__sb_t* sb, TVMFFIObject* node) {
  trx_print_options_t opts = {false, true, false};
  TVMFFIAny text = tether_any_none();
  TVMFFIByteArray s;
  if (node != NULL && trx_print(node, &opts, &text) == 0 && tether_any_get_str(&text, &s)) {
    /* The printer ends a top-level rendering with a newline; messages keep one line. */
    while (s.size > 0 && s.data[s.size - 1] == '\n') s.size--;
    trx__sb_printf(sb, "%.*s", (int)s.size, s.data);
    tether_any_release(&text);
    return;
  }
  tether_any_release(&text);
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err != NULL) TVMFFIObjectDecRef(err);
  trx__sb_node_fallback(sb, node);
}

void trx__sb_op(trx__sb_t* sb, const trx__op_def_t* def) {
  trx__sb_printf(sb, "ir.Op(span=None, ty=ir.Type(span=None), name=\"%s\", description=\"\", arguments=(",
                 def->full_name);
  int count = 0;
  const char* p = def->arguments;
  while (*p) {
    const char* end = strchr(p, '\n');
    if (end == NULL) end = p + strlen(p);
    const char* bar1 = memchr(p, '|', (size_t)(end - p));
    const char* bar2 = bar1 ? memchr(bar1 + 1, '|', (size_t)(end - bar1 - 1)) : NULL;
    if (bar1 == NULL || bar2 == NULL) break;
    trx__sb_printf(sb, "%sir.ArgumentInfo(name=\"%.*s\", type_info=\"%.*s\", description=\"%.*s\")",
                   count ? ", " : "", (int)(bar1 - p), p, (int)(bar2 - bar1 - 1), bar1 + 1,
                   (int)(end - bar2 - 1), bar2 + 1);
    count++;
    p = *end ? end + 1 : end;
  }
  trx__sb_printf(sb, "%s), attrs_type_key=\"%s\", num_inputs=%d, support_level=10)",
                 count == 1 ? "," : "", def->attrs_type_key, def->num_inputs);
}

void trx__sb_iarr(trx__sb_t* sb, TVMFFIObject* arr) {
  int64_t n = trx__iarr_size(arr);
  trx__sb_printf(sb, "(");
  for (int64_t i = 0; i < n; ++i)
    trx__sb_printf(sb, "%s%lld", i ? ", " : "", (long long)trx__iarr_at(arr, i));
  trx__sb_printf(sb, "%s)", n == 1 ? "," : "");
}

void trx__sb_expr_tuple(trx__sb_t* sb, TVMFFIObject* arr) {
  int64_t n = arr ? tether_array_size(arr) : 0;
  trx__sb_printf(sb, "(");
  for (int64_t i = 0; i < n; ++i) {
    if (i) trx__sb_printf(sb, ", ");
    trx__sb_node(sb, trx__array_obj(arr, i));
  }
  trx__sb_printf(sb, "%s)", n == 1 ? "," : "");
}

/* ---- dtypes --------------------------------------------------------------------------------------------- */

bool trx__dtype_is_float(DLDataType t) {
  return t.code == kDLFloat || t.code == kDLBfloat ||
         (t.code >= kDLFloat8_e3m4 && t.code <= kDLFloat4_e2m1fn);
}
bool trx__dtype_is_bool(DLDataType t) {
  return t.code == kDLBool || (t.code == kDLUInt && t.bits == 1);
}
bool trx__dtype_is_int(DLDataType t) {
  return (t.code == kDLInt || t.code == kDLUInt) && !trx__dtype_is_bool(t);
}

/* ---- common checks ---------------------------------------------------------------------------------------- */

int64_t trx__call_nargs(trx_call_t* call) {
  return call->args ? tether_array_size(call->args) : 0;
}

TVMFFIObject* trx__call_arg(trx_call_t* call, int64_t i) { return trx__array_obj(call->args, i); }

/* The name of argument i of def ("data", "x1", ...) into buf. */
static void trx__arg_name(const trx__op_def_t* def, int i, char* buf, size_t n) {
  const char* p = def->arguments;
  for (int k = 0; k < i && p; ++k) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  const char* bar = p ? strchr(p, '|') : NULL;
  snprintf(buf, n, "%.*s", bar ? (int)(bar - p) : 0, bar ? p : "");
}

int trx__check_args(const trx__op_def_t* def, trx_call_t* call, int ntensors,
                    trx_tensor_type_t** tt) {
  int64_t n = trx__call_nargs(call);
  if (n != def->num_inputs) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Operator ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb, " expects %d arguments, but was called with %lld arguments",
                   def->num_inputs, (long long)n);
    return trx__sb_raise(&sb, "ValueError");
  }
  for (int i = 0; i < ntensors; ++i) {
    TVMFFIObject* arg = trx__call_arg(call, i);
    TVMFFIObject* ty = trx__ty(arg);
    if (ty == NULL) {
      return tether_raise("ValueError", "%s: argument %d has no type; normalize it first",
                          def->full_name, i);
    }
    if (!trx_is(ty, TRX_TENSOR_TYPE)) {
      char name[64];
      trx__arg_name(def, i, name, sizeof(name));
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Operator ");
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb, " requires argument %d (%s) to be a tensor.  However, the argument ", i,
                     name);
      trx__sb_node(&sb, arg);
      trx__sb_printf(&sb, " is instead of type ");
      trx__sb_node(&sb, ty);
      return trx__sb_raise(&sb, "TypeError");
    }
    tt[i] = (trx_tensor_type_t*)ty;
  }
  return 0;
}

TVMFFIObject* trx__shape_values(const trx_tensor_type_t* tt) {
  if (tt == NULL || !trx_is(tt->shape, TRX_SHAPE_EXPR)) return NULL;
  return ((trx_shape_expr_t*)tt->shape)->values;
}

TVMFFIObject* trx__shape_type_values(const trx_tensor_type_t* tt) {
  if (tt == NULL || !trx_is(tt->shape, TRX_SHAPE_EXPR)) return NULL;
  const trx_shape_expr_t* s = (const trx_shape_expr_t*)tt->shape;
  if (trx_is(s->base.ty, TRX_SHAPE_TYPE) && ((trx_shape_type_t*)s->base.ty)->values != NULL) {
    return ((trx_shape_type_t*)s->base.ty)->values;
  }
  return s->values;
}

TVMFFIObject* trx__dim(TVMFFIObject* values, int64_t i) { return trx__array_obj(values, i); }

int trx__normalize_axis(const trx__op_def_t* def, int64_t ndim, int64_t axis, int64_t* out) {
  if (axis < -ndim || axis >= ndim) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "In ");
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb,
                   ", the input axis %lld is out of range. The input tensor has %lld dimensions, "
                   "so axis should be in range [%lld, %lld).",
                   (long long)axis, (long long)ndim, (long long)-ndim, (long long)ndim);
    return trx__sb_raise(&sb, "ValueError");
  }
  *out = axis < 0 ? axis + ndim : axis;
  return 0;
}

int trx__normalize_axes(const trx__op_def_t* def, int64_t ndim, TVMFFIObject* axes,
                        int64_t** out) {
  int64_t n = trx__iarr_size(axes);
  int64_t* v = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  bool* seen = calloc((size_t)(ndim > 0 ? ndim : 1), sizeof(bool));
  *out = NULL;
  if (v == NULL || seen == NULL) {
    free(v);
    free(seen);
    return tether_raise("MemoryError", "%s: out of memory", def->full_name);
  }
  for (int64_t i = 0; i < n; ++i) {
    if (trx__normalize_axis(def, ndim, trx__iarr_at(axes, i), &v[i]) != 0) goto fail;
    if (seen[v[i]]) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "In ");
      trx__sb_op(&sb, def);
      trx__sb_printf(&sb,
                     ", the input axes is required to be non-repetitive. However, there are "
                     "multiple given axes referring to axis %lld",
                     (long long)v[i]);
      trx__sb_raise(&sb, "ValueError");
      goto fail;
    }
    seen[v[i]] = true;
  }
  free(seen);
  *out = v;
  return 0;
fail:
  free(v);
  free(seen);
  return -1;
}

static DLDataType trx__type_dtype(TVMFFIObject* ty) {
  if (trx_is(ty, TRX_TENSOR_TYPE)) return trx_tensor_dtype((trx_tensor_type_t*)ty);
  if (trx_is(ty, TRX_PRIM_TYPE)) return ((trx_prim_type_t*)ty)->dtype;
  return trx__dtype_void;
}

int trx__binary_dtype(trx_call_t* call, TVMFFIObject* lhs_ty, TVMFFIObject* rhs_ty,
                      DLDataType* out) {
  DLDataType l = trx__type_dtype(lhs_ty), r = trx__type_dtype(rhs_ty);
  if (trx__dtype_is_void(l) || trx__dtype_is_void(r)) {
    *out = trx__dtype_void;
    return 0;
  }
  if (!trx__dtype_equal(l, r) && !trx__dtype_is_bool(l) && !trx__dtype_is_bool(r)) {
    trx__sb_t sb = {0};
    trx__sb_printf(&sb,
                   "Binary operators must have the same datatype for both operands.  However, ");
    trx__sb_node(&sb, (TVMFFIObject*)call);
    trx__sb_printf(&sb, " uses datatype ");
    trx__sb_dtype(&sb, l);
    trx__sb_printf(&sb, " on the LHS (Type of ");
    trx__sb_node(&sb, lhs_ty);
    trx__sb_printf(&sb, "), and datatype ");
    trx__sb_dtype(&sb, r);
    trx__sb_printf(&sb, " on the RHS (Type of ");
    trx__sb_node(&sb, rhs_ty);
    trx__sb_printf(&sb, ").");
    return trx__sb_raise(&sb, "TypeError");
  }
  *out = l;
  return 0;
}

static bool trx__is_const(TVMFFIObject* e, int64_t v) {
  int64_t c;
  return trx_as_const_int(e, &c) && c == v;
}

int trx__broadcast(const trx__op_def_t* def, TVMFFIObject* a, TVMFFIObject* b,
                   TVMFFIObject** out) {
  int64_t na = tether_array_size(a), nb = tether_array_size(b);
  int64_t n = na > nb ? na : nb;
  TVMFFIObject** dims = calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIObject*));
  *out = NULL;
  if (dims == NULL) return tether_raise("MemoryError", "%s: out of memory", def->full_name);
  int rc = 0;
  for (int64_t i = 1; i <= n; ++i) {
    TVMFFIObject* da = i <= na ? trx__dim(a, na - i) : NULL;
    TVMFFIObject* db = i <= nb ? trx__dim(b, nb - i) : NULL;
    TVMFFIObject* r = NULL;
    if (da == NULL) {
      r = db;
    } else if (db == NULL) {
      r = da;
    } else if (trx__is_const(da, 1)) {
      r = db;
    } else if (trx__is_const(db, 1)) {
      r = da;
    } else if (trx_prove_equal(da, db) == TRX_PROVE_TRUE) {
      r = da;
    } else {
      int64_t ca, cb;
      if (trx_as_const_int(da, &ca) && trx_as_const_int(db, &cb)) {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb, "In ");
        trx__sb_op(&sb, def);
        trx__sb_printf(&sb, ", the first input shape at dim %lld is ", (long long)(na - i));
        trx__sb_node(&sb, da);
        trx__sb_printf(&sb, " and the second input shape at dim %lld is ", (long long)(nb - i));
        trx__sb_node(&sb, db);
        trx__sb_printf(&sb, ", which are not broadcastable.");
        rc = trx__sb_raise(&sb, "ValueError");
      }
      goto done; /* unknown: *out stays NULL */
    }
    dims[n - i] = r;
  }
  *out = trx__array_of(dims, n);
  if (*out == NULL) rc = -1;
done:
  free(dims);
  return rc;
}

TVMFFIObject* trx__tensor_from_dims_steal(TVMFFIObject** dims, int64_t n, DLDataType dtype) {
  TVMFFIObject* arr = NULL;
  TVMFFIObject* shape = NULL;
  TVMFFIObject* ty = NULL;
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] == NULL) goto done; /* a failed builder upstream: its error is raised */
  }
  arr = trx__array_of(dims, n);
  if (arr == NULL) goto done;
  shape = trx_shape_expr_new(arr);
  if (shape == NULL) goto done;
  ty = trx__tensor_new(shape, dtype, n);
done:
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i] != NULL) TVMFFIObjectDecRef(dims[i]);
    dims[i] = NULL;
  }
  if (arr != NULL) TVMFFIObjectDecRef(arr);
  if (shape != NULL) TVMFFIObjectDecRef(shape);
  return ty;
}

TVMFFIObject* trx__tensor_new(TVMFFIObject* shape, DLDataType dtype, int64_t ndim) {
  return trx_tensor_type_new(shape, dtype, shape != NULL ? -1 : ndim);
}

TVMFFIObject* trx__tensor_unknown(DLDataType dtype, int64_t ndim) {
  return trx__tensor_new(NULL, dtype, ndim);
}

static TVMFFIObject* trx__minmax(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b) {
  if (a == NULL || b == NULL) return NULL;
  TVMFFIObject* e = trx_binop_new(kind, a, b);
  if (e == NULL) return NULL;
  TVMFFIObject* s = trx_simplify(e);
  TVMFFIObjectDecRef(e);
  return s;
}
TVMFFIObject* trx__min(TVMFFIObject* a, TVMFFIObject* b) { return trx__minmax(TRX_PRIM_MIN, a, b); }
TVMFFIObject* trx__max(TVMFFIObject* a, TVMFFIObject* b) { return trx__minmax(TRX_PRIM_MAX, a, b); }

/* ---- layouts ------------------------------------------------------------------------------------------------ */

static bool trx__is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool trx__is_lower(char c) { return c >= 'a' && c <= 'z'; }

int trx__check_layout(const trx__op_def_t* def, const TVMFFIAny* layout, const char* target,
                      const char* which, trx__layout_t* out) {
  TVMFFIByteArray s = trx__str(layout);
  memset(out, 0, sizeof(*out));
  size_t keep = s.size < sizeof(out->text) ? s.size : sizeof(out->text) - 1; /* truncated like %.*s */
  memcpy(out->text, s.data, keep);
  out->text[keep] = '\0';
  bool ok = s.size < sizeof(out->text);
  bool foreign = false;
  int64_t factor = 0;
  unsigned seen_upper = 0, seen_lower = 0;
  for (size_t i = 0; ok && i < s.size; ++i) {
    char c = s.data[i];
    if (c >= '0' && c <= '9') {
      factor = factor * 10 + (c - '0');
      continue;
    }
    if (out->ndim >= 16 || !(trx__is_upper(c) || trx__is_lower(c))) {
      ok = false;
      break;
    }
    unsigned bit = 1u << (trx__is_upper(c) ? c - 'A' : c - 'a');
    if (trx__is_upper(c)) {
      if (factor != 0 || (seen_upper & bit)) ok = false;
      seen_upper |= bit;
      if (strchr(target, c) == NULL) foreign = true;
    } else {
      if (factor <= 0 || (seen_lower & bit)) ok = false;
      seen_lower |= bit;
    }
    out->axes[out->ndim] = c;
    out->factor[out->ndim] = factor;
    out->ndim++;
    factor = 0;
  }
  if (factor != 0) ok = false;
  /* every sub-axis needs its primal; the primals must be exactly the target's */
  if (ok && (seen_lower & ~seen_upper)) ok = false;
  unsigned target_bits = 0;
  for (const char* p = target; *p; ++p) target_bits |= 1u << (*p - 'A');
  if (ok && foreign && (seen_upper & target_bits) == target_bits) {
    return tether_raise("InternalError",
                        "Check failed: (GetStoreRule(&n->index_backward_rule, "
                        "&n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: ");
  }
  if (!ok || seen_upper != target_bits) {
    trx__sb_t sb = {0};
    trx__sb_op(&sb, def);
    trx__sb_printf(&sb,
                   " requires the given %s layout to be convertible from %s layout. However, "
                   "the given layout %.*s is not convertible.",
                   which, target, (int)s.size, s.data);
    return trx__sb_raise(&sb, "ValueError");
  }
  return 0;
}

int trx__check_layout_ndim(const trx__op_def_t* def, const trx__layout_t* l, int64_t ndim) {
  if (ndim == -1 || ndim == l->ndim) return 0;
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "In ");
  trx__sb_op(&sb, def);
  trx__sb_printf(&sb,
                 ", layout %s requires the input to be %d-dim tensor. However, the given input "
                 "has ndim %lld",
                 l->text, l->ndim, (long long)ndim);
  return trx__sb_raise(&sb, "ValueError");
}

int trx__layout_to(const trx__layout_t* l, TVMFFIObject* values, const char* target,
                   TVMFFIObject** out) {
  size_t n = strlen(target);
  for (size_t k = 0; k < n; ++k) out[k] = NULL;
  for (size_t k = 0; k < n; ++k) {
    char primal = target[k];
    TVMFFIObject* d = NULL;
    for (int i = 0; i < l->ndim; ++i) {
      if (l->axes[i] == primal) d = trx__ref(trx__dim(values, i));
    }
    /* a split axis: the primal length times the sub-axis length */
    for (int i = 0; i < l->ndim && d != NULL; ++i) {
      if (l->axes[i] == primal - 'A' + 'a') {
        TVMFFIObject* m = trx_mul(d, trx__dim(values, i));
        TVMFFIObjectDecRef(d);
        d = m;
      }
    }
    if (d == NULL) goto fail;
    out[k] = d;
  }
  return 0;
fail:
  for (size_t k = 0; k < n; ++k) {
    if (out[k] != NULL) TVMFFIObjectDecRef(out[k]);
    out[k] = NULL;
  }
  return -1;
}

int trx__layout_from(const trx__layout_t* l, TVMFFIObject* const* dims, const char* src,
                     TVMFFIObject** out) {
  for (int i = 0; i < l->ndim; ++i) out[i] = NULL;
  for (int i = 0; i < l->ndim; ++i) {
    char c = l->axes[i];
    char primal = trx__is_lower(c) ? (char)(c - 'a' + 'A') : c;
    const char* pos = strchr(src, primal);
    TVMFFIObject* d = pos ? dims[pos - src] : NULL;
    if (d == NULL) goto fail;
    if (trx__is_lower(c)) {
      out[i] = trx_int64(l->factor[i]);
    } else {
      int64_t f = 0;
      for (int j = 0; j < l->ndim; ++j) {
        if (l->axes[j] == c - 'A' + 'a') f = l->factor[j];
      }
      if (f > 0) {
        TVMFFIObject* fo = trx_int64(f);
        out[i] = fo ? trx_floordiv(d, fo) : NULL;
        if (fo) TVMFFIObjectDecRef(fo);
      } else {
        out[i] = trx__ref(d);
      }
    }
    if (out[i] == NULL) goto fail;
  }
  return 0;
fail:
  for (int i = 0; i < l->ndim; ++i) {
    if (out[i] != NULL) TVMFFIObjectDecRef(out[i]);
    out[i] = NULL;
  }
  return -1;
}
