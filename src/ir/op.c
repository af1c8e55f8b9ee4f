/*
 * op.c -- the Relax op registry.  Each trx_op_decl_t (include/tether/ir/op.h) becomes a
 * registered op: its parameter list parsed once into trx__param_t rows, its attrs type
 * registered, its Op object created, and its constructor global "relax.op.<name>" added.
 * Ops are found by name through an open-addressing hash table; registration (at load for
 * the category files of src/ir/ops, at any time for other libraries) holds one mutex, and
 * an Op carries its definition so that inference never looks anything up.
 *
 * Also here: the generic constructor (arguments read by parameter kind into the Call's
 * inputs and the attrs fields of the same name), the globals "ir.Op.get"/"ir.GetOp"/
 * "ir.ListOpNames"/"relax.op.Schema", and the helpers every op shares (argument readers,
 * error-text rendering, axis normalization, the binary dtype rule, broadcasting, layouts).
 */
#include "op.h"

#include "arith.h"

#include "table.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

DLDataType trx__dtype_bool = {kDLUInt, 1, 1};

/* ---- the registry ------------------------------------------------------------------------------
 * Invariants (writers hold trx__reg.lock; so do lookups, registration being possible at any
 * time): defs[0..count) are the registered ops in registration order, def->id its index;
 * `names` maps each def's full_name to the def; a def and its Op live until unload (lookups
 * hand out borrowed pointers). */
static struct {
  pthread_mutex_t lock;
  trx_op_def_t** defs;
  int32_t count, cap;
  trx__table_t names;
} trx__reg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, {NULL, 0, 0}};

static const trx_op_def_t* trx__reg_find(const char* name, size_t len) {
  pthread_mutex_lock(&trx__reg.lock);
  const trx_op_def_t* d = trx__table_get_str(&trx__reg.names, name, len);
  pthread_mutex_unlock(&trx__reg.lock);
  return d;
}

/* Adds `def` (lock held); -1 when out of memory (nothing added). */
static int trx__reg_add(trx_op_def_t* def) {
  if (trx__reg.count == trx__reg.cap) {
    int32_t cap = trx__reg.cap ? trx__reg.cap * 2 : 256;
    trx_op_def_t** defs = realloc(trx__reg.defs, sizeof(*defs) * (size_t)cap);
    if (defs == NULL) return -1;
    trx__reg.defs = defs;
    trx__reg.cap = cap;
  }
  if (!trx__table_put_str(&trx__reg.names, def->full_name, def)) return -1;
  def->id = trx__reg.count;
  trx__reg.defs[trx__reg.count++] = def;
  return 0;
}

TVMFFIObject* trx_op_get(const char* name, size_t len) {
  const trx_op_def_t* d = trx__reg_find(name, len);
  if (d != NULL) return d->op;
  tether_raise("AttributeError", "Check failed: (reg != nullptr) is false: Operator %.*s is not registered",
               (int)len, name);
  return NULL;
}

const trx_op_def_t* trx_op_def_of(const TVMFFIObject* op) {
  if (!trx_is(op, TRX_OP)) return NULL;
  return (const trx_op_def_t*)((const trx_op_t*)op)->def;
}
const trx_op_decl_t* trx_op_def_decl(const trx_op_def_t* def) { return def->decl; }
const char* trx_op_def_name(const trx_op_def_t* def) { return def->full_name; }
TVMFFIObject* trx_op_def_op(const trx_op_def_t* def) { return def->op; }

/* ---- attrs types ----------------------------------------------------------------------------- */

int32_t trx_attrs_register(const trx_attrs_decl_t* decl) {
  if (decl == NULL || decl->type_key == NULL || decl->size < (int32_t)sizeof(trx_attrs_t) ||
      decl->num_fields < 0 || (decl->num_fields > 0 && decl->fields == NULL)) {
    tether_raise("TypeError", "trx_attrs_register: `decl` must name a type key, a size of at "
                              "least sizeof(trx_attrs_t) and its fields");
    return -1;
  }
  int32_t parent = trx_type_index[TRX_ATTRS];
  const TVMFFITypeInfo* pinfo = TVMFFIGetTypeInfo(parent);
  TVMFFIByteArray key = {decl->type_key, strlen(decl->type_key)};
  pthread_mutex_lock(&trx__reg.lock);
  int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, pinfo ? pinfo->type_depth + 1 : 2, 0, 0, parent);
  const TVMFFITypeInfo* info = index >= 0 ? TVMFFIGetTypeInfo(index) : NULL;
  int rc = index >= 0 ? 0 : -1;
  /* a type already defined (another op, or the library reloaded) keeps its fields */
  if (rc == 0 && !(info != NULL && info->num_fields > 0)) {
    for (int32_t i = 0; rc == 0 && i < decl->num_fields; ++i) {
      const trx_attrs_field_t* f = &decl->fields[i];
      rc = trx__def_field(index, f->name, f->kind, f->offset, 0, kTVMFFIObject, f->declared);
    }
    if (rc == 0) rc = tether_type_def_finish(index, decl->size, NULL);
  }
  pthread_mutex_unlock(&trx__reg.lock);
  return rc == 0 ? index : -1;
}

TVMFFIObject* trx_attrs_new(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(trx_type_index[TRX_ATTRS]);
  if (info == NULL || base == NULL || info->type_depth <= base->type_depth ||
      info->type_ancestors[base->type_depth]->type_index != base->type_index) {
    tether_raise("TypeError", "trx_attrs_new: type index %d is not a registered attrs type",
                 (int)type_index);
    return NULL;
  }
  return trx__node_new(type_index);
}

TVMFFIObject* trx__attrs_new(const trx_op_def_t* def) { return trx__node_new(def->attrs_index); }

/* ---- parameter lists ----------------------------------------------------------------------------
 * One row per parameter kind: its spelling in a declaration and its type in the global's FFI
 * signature. */
static const struct {
  const char* spelling;
  trx__param_kind kind;
  const char* ffi_type;
} trx__param_kinds[] = {
    {"Expr", TRX__P_EXPR, "ir.Expr"},
    {"Expr?", TRX__P_OPT_EXPR, "Optional<ir.Expr>"},
    {"Tuple", TRX__P_TUPLE, "ir.Expr"},
    {"Tuple?", TRX__P_OPT_TUPLE, "Optional<ir.Expr>"},
    {"Shape", TRX__P_SHAPE, "ir.Expr"},
    {"Prim", TRX__P_PRIM, "ir.Expr"},
    {"int", TRX__P_INT, "int"},
    {"int?", TRX__P_OPT_INT, "Optional<int>"},
    {"float", TRX__P_FLOAT, "float"},
    {"bool", TRX__P_BOOL, "bool"},
    {"str", TRX__P_STR, "str"},
    {"str?", TRX__P_OPT_STR, "Optional<str>"},
    {"dtype", TRX__P_DTYPE, "DataType"},
    {"dtype?", TRX__P_OPT_DTYPE, "Optional<DataType>"},
    {"ints", TRX__P_INTS, "Array<int>"},
    {"ints?", TRX__P_OPT_INTS, "Optional<Array<int>>"},
    {"Any", TRX__P_ANY, "Any"},
};
#define TRX__NUM_PARAM_KINDS (sizeof(trx__param_kinds) / sizeof(trx__param_kinds[0]))

static bool trx__is_input_kind(trx__param_kind k) { return k < TRX__P_INT; }

/* A declaration's error: ValueError naming the op and what is wrong. */
static int trx__decl_error(const trx_op_decl_t* decl, const char* what, const char* at, size_t n) {
  return tether_raise("ValueError", "trx_op_register: op `%s`: %s `%.*s`",
                      decl->name ? decl->name : "(null)", what, (int)n, at);
}

static const char* trx__skip_ws(const char* p, const char* end) {
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\t')) ++p;
  return p;
}
static const char* trx__trim_end(const char* p, const char* end) {
  while (end > p && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\t')) --end;
  return end;
}

/* A default value, a Python literal: None, True, False, an int, a float, a quoted string,
 * or a tuple/list of ints (an ffi.Array).  0 and *out (owning), or -1 when it is none of
 * those (no error raised). */
static int trx__parse_literal(const char* p, const char* end, TVMFFIAny* out) {
  size_t n = (size_t)(end - p);
  char buf[64];
  *out = tether_any_none();
  if (n == 4 && memcmp(p, "None", 4) == 0) return 0;
  if (n == 4 && memcmp(p, "True", 4) == 0) return (*out = tether_any_bool(true)), 0;
  if (n == 5 && memcmp(p, "False", 5) == 0) return (*out = tether_any_bool(false)), 0;
  if (n >= 2 && (*p == '"' || *p == '\'') && end[-1] == *p) {
    return tether_any_str(p + 1, n - 2, out) == 0 ? 0 : -1;
  }
  if (n >= 2 && (*p == '(' || *p == '[')) {
    int64_t vals[16];
    int64_t count = 0;
    const char* q = trx__skip_ws(p + 1, end - 1);
    while (q < end - 1) {
      const char* comma = memchr(q, ',', (size_t)(end - 1 - q));
      const char* stop = comma ? comma : end - 1;
      const char* e = trx__trim_end(q, stop);
      if (e == q || count == 16 || (size_t)(e - q) >= sizeof(buf)) return -1;
      memcpy(buf, q, (size_t)(e - q));
      buf[e - q] = '\0';
      char* tail = NULL;
      vals[count++] = strtoll(buf, &tail, 10);
      if (*tail != '\0') return -1;
      q = comma ? trx__skip_ws(comma + 1, end - 1) : end - 1;
    }
    TVMFFIObject* arr = trx__iarr_new(vals, count);
    if (arr == NULL) return -1;
    *out = tether_any_object(arr);
    return 0;
  }
  if (n == 0 || n >= sizeof(buf)) return -1;
  memcpy(buf, p, n);
  buf[n] = '\0';
  char* tail = NULL;
  long long iv = strtoll(buf, &tail, 10);
  if (*tail == '\0') return (*out = tether_any_int(iv)), 0;
  double fv = strtod(buf, &tail);
  if (*tail == '\0') return (*out = tether_any_float(fv)), 0;
  return -1;
}

/* The end of one comma-separated item (brackets and quotes nest). */
static const char* trx__item_end(const char* p, const char* end) {
  int depth = 0;
  char quote = 0;
  for (; p < end; ++p) {
    if (quote) {
      if (*p == quote) quote = 0;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '(' || *p == '[' || *p == '<') {
      depth++;
    } else if (*p == ')' || *p == ']' || *p == '>') {
      depth--;
    } else if (*p == ',' && depth == 0) {
      break;
    }
  }
  return p;
}

static const trx_attrs_field_t* trx__attrs_field(const trx_attrs_decl_t* a, const char* name, size_t n) {
  for (int32_t i = 0; a != NULL && i < a->num_fields; ++i) {
    if (strlen(a->fields[i].name) == n && memcmp(a->fields[i].name, name, n) == 0) return &a->fields[i];
  }
  return NULL;
}

/* Parses decl->params into def->params (num_params, num_required). */
static int trx__parse_params(const trx_op_decl_t* decl, trx_op_def_t* def) {
  const char* p = decl->params ? decl->params : "";
  const char* end = p + strlen(p);
  int cap = 1;
  for (const char* q = p; q < end; ++q) cap += *q == ',';
  def->params = calloc((size_t)cap, sizeof(trx__param_t));
  if (def->params == NULL) return tether_raise("MemoryError", "trx_op_register: out of memory");
  p = trx__skip_ws(p, end);
  while (p < end) {
    const char* stop = trx__item_end(p, end);
    const char* colon = memchr(p, ':', (size_t)(stop - p));
    const char* eq = memchr(p, '=', (size_t)(stop - p));
    if (colon == NULL || (eq != NULL && eq < colon)) return trx__decl_error(decl, "a parameter needs `name: kind`:", p, (size_t)(stop - p));
    trx__param_t* prm = &def->params[def->num_params];
    const char* nend = trx__trim_end(p, colon);
    char* name = malloc((size_t)(nend - p) + 1);
    if (name == NULL) return tether_raise("MemoryError", "trx_op_register: out of memory");
    memcpy(name, p, (size_t)(nend - p));
    name[nend - p] = '\0';
    prm->name = name;
    def->num_params++;
    const char* k = trx__skip_ws(colon + 1, stop);
    const char* kend = trx__trim_end(k, eq ? eq : stop);
    const char* br = memchr(k, '[', (size_t)(kend - k));
    size_t klen = (size_t)((br ? br : kend) - k);
    bool found = false;
    for (size_t i = 0; i < TRX__NUM_PARAM_KINDS && !found; ++i) {
      if (strlen(trx__param_kinds[i].spelling) == klen && memcmp(trx__param_kinds[i].spelling, k, klen) == 0) {
        prm->kind = trx__param_kinds[i].kind;
        found = true;
      }
    }
    /* "ints?[2]" is spelled with the '?' before the bracket */
    if (!found) return trx__decl_error(decl, "unknown parameter kind in", p, (size_t)(stop - p));
    if (br != NULL) {
      if (prm->kind != TRX__P_INTS && prm->kind != TRX__P_OPT_INTS) return trx__decl_error(decl, "only ints take a widening [N]:", p, (size_t)(stop - p));
      prm->widen = atoi(br + 1);
      if (prm->widen <= 0 || prm->widen > 8) return trx__decl_error(decl, "a widening [N] needs 1 <= N <= 8:", p, (size_t)(stop - p));
    }
    if (eq != NULL) {
      const char* v = trx__skip_ws(eq + 1, stop);
      if (trx__parse_literal(v, trx__trim_end(v, stop), &prm->default_value) != 0) {
        return trx__decl_error(decl, "the default is not a literal (None, True, False, a number, a string, a tuple of ints):", p, (size_t)(stop - p));
      }
      prm->has_default = true;
    } else if (def->num_params > 1 && def->params[def->num_params - 2].has_default) {
      return trx__decl_error(decl, "a parameter without a default follows one with a default:", p, (size_t)(stop - p));
    }
    if (!trx__is_input_kind(prm->kind)) {
      prm->field = trx__attrs_field(decl->attrs, p, (size_t)(nend - p));
      /* a constructor of its own reads the argument itself */
      if (prm->field == NULL && decl->make == NULL) return trx__decl_error(decl, "an attribute parameter needs an attrs field of its name:", p, (size_t)(nend - p));
    }
    p = stop < end ? trx__skip_ws(stop + 1, end) : end;
  }
  return 0;
}

/* "relax.op.<name>(0: ir.Expr, 1: Array<int>, ...) -> ir.Expr" */
static char* trx__make_fname(const trx_op_decl_t* decl, const trx_op_def_t* def) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "relax.op.%s", decl->name);
  if (decl->signature != NULL) {
    trx__sb_printf(&sb, "%s", decl->signature);
  } else {
    trx__sb_printf(&sb, "(");
    for (int i = 0; i < def->num_params; ++i) {
      const char* t = "Any";
      for (size_t k = 0; k < TRX__NUM_PARAM_KINDS; ++k) {
        if (trx__param_kinds[k].kind == def->params[i].kind) {
          t = trx__param_kinds[k].ffi_type;
          break;
        }
      }
      trx__sb_printf(&sb, "%s%d: %s", i ? ", " : "", i, t);
    }
    trx__sb_printf(&sb, ") -> ir.Expr");
  }
  return sb.s;
}

/* decl->arguments, or one "name|Tensor|" row per input parameter. */
static char* trx__make_arguments(const trx_op_decl_t* decl, const trx_op_def_t* def) {
  if (decl->arguments != NULL) return strdup(decl->arguments);
  trx__sb_t sb = {0};
  int rows = 0;
  for (int i = 0; i < def->num_params; ++i) {
    if (!trx__is_input_kind(def->params[i].kind)) continue;
    trx__sb_printf(&sb, "%s%s|Tensor|", rows++ ? "\n" : "", def->params[i].name);
  }
  if (sb.s == NULL) return strdup("");
  return sb.s;
}

static int trx__count_rows(const char* s) {
  int n = 0;
  for (const char* p = s; p && *p; ++n) {
    p = strchr(p, '\n');
    if (p) ++p;
  }
  return n;
}

static void trx__def_free(trx_op_def_t* def) {
  if (def == NULL) return;
  for (int i = 0; i < def->num_params; ++i) {
    free((char*)def->params[i].name);
    tether_any_release(&def->params[i].default_value);
  }
  free(def->params);
  free(def->full_name);
  free(def->fname);
  free(def->arguments);
  if (def->op != NULL) TVMFFIObjectDecRef(def->op);
  free(def);
}

/* ---- the generic constructor ---------------------------------------------------------------------- */

static int trx__arg_mismatch(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                             const char* expected, const char* got);

/* An item of a Tuple / Shape list as TVM's wrappers convert it (ints IntImm int64, floats
 * FloatImm float64, Exprs as they are).  New reference. */
static TVMFFIObject* trx__prim_item(const TVMFFIAny* v) {
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) return trx__ref(v->v_obj);
  if (v->type_index == kTVMFFIInt) return trx_int_imm_new(trx__dtype_int64, v->v_int64);
  if (v->type_index == kTVMFFIBool) return trx_int_imm_new(trx__dtype_bool, v->v_int64);
  if (v->type_index == kTVMFFIFloat) {
    DLDataType f64 = {kDLFloat, 64, 1};
    return trx_float_imm_new(f64, v->v_float64);
  }
  return NULL;
}

/* Tuple / Shape / Prim inputs. */
static int trx__arg_composite(const trx_op_def_t* def, const trx__param_t* prm, const TVMFFIAny* args,
                              int32_t i, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  *out = NULL;
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) {
    *out = trx__ref(v->v_obj);
    return 0;
  }
  bool tuple = prm->kind == TRX__P_TUPLE || prm->kind == TRX__P_OPT_TUPLE;
  if (prm->kind == TRX__P_PRIM) {
    *out = trx__prim_item(v);
    return *out != NULL ? 0 : trx__arg_mismatch(def, args, i, "ir.PrimExpr", NULL);
  }
  if (v->type_index != kTVMFFIArray && v->type_index != kTVMFFIList) {
    return trx__arg_mismatch(def, args, i, tuple ? "Array<ir.Expr>" : "Array<ir.PrimExpr>", NULL);
  }
  bool is_list = v->type_index == kTVMFFIList;
  int64_t n = is_list ? tether_list_size(v->v_obj) : tether_array_size(v->v_obj);
  TVMFFIObject* small[8];
  TVMFFIObject** items = n <= 8 ? small : calloc((size_t)n, sizeof(TVMFFIObject*));
  if (items == NULL) return tether_raise("MemoryError", "%s: out of memory", def->fname);
  int rc = 0;
  for (int64_t k = 0; k < n; ++k) items[k] = NULL;
  for (int64_t k = 0; k < n && rc == 0; ++k) {
    const TVMFFIAny* e = is_list ? tether_list_at(v->v_obj, k) : tether_array_at(v->v_obj, k);
    items[k] = trx__prim_item(e);
    if (items[k] == NULL) {
      char got[96];
      snprintf(got, sizeof(got), "Array[index %lld: %s]", (long long)k, tether_any_type_key(e));
      /* A shape list is made into a ShapeExpr before the op's global sees it (TVM's wrappers
       * call relax.ShapeExpr): the error is that constructor's. */
      if (tuple) rc = trx__arg_mismatch(def, args, i, "Array<ir.Expr>", got);
      else
        rc = tether_raise("TypeError",
                          "Mismatched type on argument #0 when calling: `relax.ShapeExpr(0: Array<ir.Expr>, "
                          "1: ir.Span) -> relax.expr.ShapeExpr`. Expected `Array<ir.Expr>` but got `%s`",
                          got);
    }
  }
  TVMFFIObject* arr = rc == 0 ? trx__array_of(items, n) : NULL;
  trx__release_objects(items, n);
  if (items != small) free(items);
  if (arr == NULL) return -1;
  *out = tuple ? trx_tuple_new(arr) : trx_shape_expr_new(arr);
  TVMFFIObjectDecRef(arr);
  return *out != NULL ? 0 : -1;
}

/* Stores attribute parameter i into its attrs field. */
static int trx__store_attr(const trx_op_def_t* def, const trx__param_t* prm, const TVMFFIAny* args,
                           int32_t i, TVMFFIObject* attrs) {
  char* slot = (char*)attrs + prm->field->offset;
  tether_field_kind fk = prm->field->kind;
  const TVMFFIAny* v = &args[i];
  TVMFFIAny val = tether_any_none(); /* owning, for STRING / ANY fields */
  switch (prm->kind) {
    case TRX__P_INT:
    case TRX__P_OPT_INT: {
      tether_opt_int64_t o = {false, 0};
      if (prm->kind == TRX__P_OPT_INT) {
        if (trx__arg_opt_i64(def, args, i, &o) != 0) return -1;
      } else {
        if (trx__arg_i64(def, args, i, &o.value) != 0) return -1;
        o.has_value = true;
      }
      if (fk == TETHER_FIELD_INT64) *(int64_t*)slot = o.value;
      else if (fk == TETHER_FIELD_INT32) *(int32_t*)slot = (int32_t)o.value;
      else if (fk == TETHER_FIELD_OPT_INT64) *(tether_opt_int64_t*)slot = o;
      else val = o.has_value ? tether_any_int(o.value) : tether_any_none();
      break;
    }
    case TRX__P_FLOAT: {
      double d = 0;
      if (trx__arg_f64(def, args, i, &d) != 0) return -1;
      if (fk == TETHER_FIELD_FLOAT64) *(double*)slot = d;
      else if (fk == TETHER_FIELD_OPT_FLOAT64) *(tether_opt_float64_t*)slot = (tether_opt_float64_t){true, d};
      else val = tether_any_float(d);
      break;
    }
    case TRX__P_BOOL: {
      bool b = false;
      if (trx__arg_flag(def, args, i, &b) != 0) return -1;
      if (fk == TETHER_FIELD_BOOL) *(bool*)slot = b;
      else val = tether_any_bool(b);
      break;
    }
    case TRX__P_STR:
    case TRX__P_OPT_STR:
      if (trx__arg_string(def, args, i, prm->kind == TRX__P_OPT_STR, &val) != 0) return -1;
      break;
    case TRX__P_DTYPE:
    case TRX__P_OPT_DTYPE:
      if (trx__arg_opt_dtype(def, args, i, prm->kind == TRX__P_OPT_DTYPE, &val) != 0) return -1;
      if (fk == TETHER_FIELD_DTYPE) {
        *(DLDataType*)slot = val.v_dtype;
        val = tether_any_none();
      }
      break;
    case TRX__P_INTS:
    case TRX__P_OPT_INTS: {
      /* strict, as TVM's globals: an int is widened by the Python wrapper, not here */
      TVMFFIObject* arr = NULL;
      if (trx__arg_int_array(def, args, i, prm->kind == TRX__P_OPT_INTS, &arr) != 0) return -1;
      if (fk == TETHER_FIELD_OBJECT || fk == TETHER_FIELD_OPT_OBJECT) {
        TVMFFIObject** o = (TVMFFIObject**)slot;
        if (*o != NULL) TVMFFIObjectDecRef(*o);
        *o = arr;
        return 0;
      }
      val = arr != NULL ? tether_any_object(arr) : tether_any_none();
      break;
    }
    case TRX__P_ANY:
      if (fk == TETHER_FIELD_OBJECT || fk == TETHER_FIELD_OPT_OBJECT) {
        if (v->type_index == kTVMFFINone && fk == TETHER_FIELD_OPT_OBJECT) return 0;
        if (!tether_any_is_object(v)) return trx__arg_mismatch(def, args, i, "Object", NULL);
        TVMFFIObject** o = (TVMFFIObject**)slot;
        if (*o != NULL) TVMFFIObjectDecRef(*o);
        *o = trx__ref(v->v_obj);
        return 0;
      }
      tether_any_copy(v, &val);
      break;
    default:
      return tether_raise("InternalError", "%s: parameter %d has an input kind", def->fname, (int)i);
  }
  if (fk == TETHER_FIELD_STRING || fk == TETHER_FIELD_OPT_STRING || fk == TETHER_FIELD_ANY) {
    TVMFFIAny* a = (TVMFFIAny*)slot;
    tether_any_release(a);
    *a = val;
    return 0;
  }
  tether_any_release(&val);
  return 0;
}

static int trx__make_generic(const trx_op_def_t* def, const TVMFFIAny* args, int32_t n,
                             TVMFFIObject** out) {
  TVMFFIObject* small[16];
  TVMFFIObject** inputs = n <= 16 ? small : malloc(sizeof(TVMFFIObject*) * (size_t)n);
  TVMFFIObject* attrs = NULL;
  int64_t ni = 0;
  *out = NULL;
  if (inputs == NULL) return tether_raise("MemoryError", "%s: out of memory", def->fname);
  if (def->attrs_index >= 0 && (attrs = trx__attrs_new(def)) == NULL) goto fail;
  for (int32_t i = 0; i < n; ++i) {
    const trx__param_t* prm = &def->params[i];
    switch (prm->kind) {
      case TRX__P_EXPR:
        if (trx__arg_expr(def, args, i, &inputs[ni]) != 0) goto fail;
        ni++;
        break;
      case TRX__P_OPT_EXPR:
        if (args[i].type_index == kTVMFFINone) break;
        if (trx__arg_expr(def, args, i, &inputs[ni]) != 0) goto fail;
        ni++;
        break;
      case TRX__P_OPT_TUPLE:
        if (args[i].type_index == kTVMFFINone) break;
        /* fall through */
      case TRX__P_TUPLE:
      case TRX__P_SHAPE:
      case TRX__P_PRIM:
        if (trx__arg_composite(def, prm, args, i, &inputs[ni]) != 0) goto fail;
        ni++;
        break;
      default:
        if (trx__store_attr(def, prm, args, i, attrs) != 0) goto fail;
    }
  }
  if (def->check != NULL && def->check(def, inputs, ni, attrs) != 0) goto fail;
  int rc = trx__make_call_steal(def, inputs, ni, attrs, out);
  if (inputs != small) free(inputs);
  return rc;
fail:
  trx__release_objects(inputs, ni);
  if (inputs != small) free(inputs);
  if (attrs != NULL) TVMFFIObjectDecRef(attrs);
  return -1;
}

/* ---- calls ------------------------------------------------------------------------------------- */

void trx__release_objects(TVMFFIObject** objs, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (objs[i] != NULL) TVMFFIObjectDecRef(objs[i]);
    objs[i] = NULL;
  }
}

int trx__make_call_steal(const trx_op_def_t* def, TVMFFIObject** args, int64_t n,
                         TVMFFIObject* attrs, TVMFFIObject** out) {
  /* The argument references move into the Array: no count is touched. */
  TVMFFIAny small[8];
  TVMFFIAny* items = n <= 8 ? small : malloc(sizeof(TVMFFIAny) * (size_t)(n > 0 ? n : 1));
  *out = NULL;
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
  *out = trx__call_new_steal(def->op, (TVMFFIObject*)arr, attrs, trx__empty_array());
  return *out != NULL ? 0 : -1;
}

int trx__make_call_steal_attrs(const trx_op_def_t* def, TVMFFIObject* const* args, int64_t n,
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
  const trx_op_def_t* def = trx_op_def_of(c->op);
  if (def == NULL) {
    tether_raise("TypeError", "trx_infer_type: the callee of the Call is not a registered Op");
    return NULL;
  }
  if (def->attrs_index >= 0 && (c->attrs == NULL || c->attrs->type_index != def->attrs_index)) {
    tether_raise("TypeError", "%s: the Call's attrs must be %s", def->full_name,
                 tether_type_key(def->attrs_index));
    return NULL;
  }
  if (def->infer == NULL) {
    tether_raise("TypeError", "%s: the op declares no type inference", def->full_name);
    return NULL;
  }
  return def->infer(def, c);
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
  return trx__set_result_obj(result, trx__ref(op));
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
  const trx_op_def_t* d = trx__reg_find(name.data, name.size);
  if (d == NULL) {
    return tether_raise("ValueError", "%s: unknown op `%.*s` (no op of that name is registered)", fname,
                        (int)name.size, name.data);
  }
  return trx__set_result_obj(result, trx__ref(d->op));
}

static int trx__global_list_op_names(void* self, const TVMFFIAny* args, int32_t n,
                                     TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (tether_check_nargs("ir.ListOpNames() -> Array<str>", NULL, n, 0) != 0) return -1;
  pthread_mutex_lock(&trx__reg.lock);
  int32_t count = trx__reg.count;
  TVMFFIAny* names = malloc(sizeof(TVMFFIAny) * (size_t)(count > 0 ? count : 1));
  for (int32_t i = 0; names != NULL && i < count; ++i) names[i] = tether_any_raw_str(trx__reg.defs[i]->full_name);
  pthread_mutex_unlock(&trx__reg.lock);
  if (names == NULL) return tether_raise("MemoryError", "ir.ListOpNames: out of memory");
  TVMFFIObjectHandle arr = NULL;
  int rc = tether_array_new(names, count, &arr);
  free(names);
  if (rc != 0) return -1;
  return trx__set_result_obj(result, (TVMFFIObject*)arr);
}

/* relax.op.Schema(name) -> [params, doc]: what a binding needs to make the op's wrapper. */
static int trx__global_schema(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fname[] = "relax.op.Schema(0: str) -> Array<str>";
  (void)self;
  TVMFFIByteArray name;
  if (tether_check_nargs(fname, NULL, n, 1) != 0 || tether_arg_str(fname, args, 0, &name) != 0) return -1;
  const trx_op_def_t* d = trx__reg_find(name.data, name.size);
  if (d == NULL) return trx_op_get(name.data, name.size) != NULL ? 0 : -1;
  TVMFFIAny items[2] = {tether_any_raw_str(d->decl->params ? d->decl->params : ""),
                        tether_any_raw_str(d->decl->doc ? d->decl->doc : "")};
  TVMFFIObjectHandle arr = NULL;
  if (tether_array_new(items, 2, &arr) != 0) return -1;
  return trx__set_result_obj(result, (TVMFFIObject*)arr);
}

/* Every constructor global: self is the op's definition.  As TVM's, it takes every
 * parameter (the defaults are the Python wrapper's). */
static int trx__global_make(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  const trx_op_def_t* def = (const trx_op_def_t*)self;
  if (tether_check_nargs(def->fname, NULL, n, def->num_params) != 0) return -1;
  TVMFFIObject* call = NULL;
  int rc = def->make != NULL ? def->make(def, args, n, &call) : trx__make_generic(def, args, n, &call);
  if (rc != 0) return -1;
  return trx__set_result_obj(result, call);
}

static int trx__register_make_global(const trx_op_def_t* def) {
  char name[128];
  snprintf(name, sizeof(name), "relax.op.%s", def->name);
  TVMFFIObjectHandle f = NULL;
  /* Building a Call neither blocks nor calls back. */
  if (tether_func_create((void*)def, trx__global_make, NULL, TETHER_FUNC_KEEPS_GIL, &f) != 0) return -1;
  TVMFFIByteArray key = {name, strlen(name)};
  int rc = TVMFFIFunctionSetGlobal(&key, f, 1);
  TVMFFIObjectDecRef(f);
  return rc;
}

static TVMFFIObject* trx__op_new(const trx_op_def_t* def) {
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
  op->def = def;
  return (TVMFFIObject*)h;
}

/* Builds the def of `decl` (not yet visible). */
static trx_op_def_t* trx__def_new(const trx_op_decl_t* decl) {
  trx_op_def_t* def = calloc(1, sizeof(*def));
  if (def == NULL) {
    tether_raise("MemoryError", "trx_op_register: out of memory");
    return NULL;
  }
  def->decl = decl;
  def->name = decl->name;
  def->attrs_index = -1;
  def->infer = decl->infer;
  def->check = decl->check;
  def->make = decl->make;
  def->flags = decl->flags;
  if (trx__parse_params(decl, def) != 0) goto fail;
  if (decl->attrs != NULL && (def->attrs_index = trx_attrs_register(decl->attrs)) < 0) goto fail;
  def->attrs_type_key = decl->attrs != NULL && !(decl->flags & TRX_OP_HIDE_ATTRS_KEY) ? decl->attrs->type_key : "";
  size_t nlen = strlen(decl->name);
  def->full_name = malloc(nlen + 7);
  def->fname = trx__make_fname(decl, def);
  def->arguments = trx__make_arguments(decl, def);
  if (def->full_name == NULL || def->fname == NULL || def->arguments == NULL) {
    tether_raise("MemoryError", "trx_op_register: out of memory");
    goto fail;
  }
  snprintf(def->full_name, nlen + 7, "relax.%s", decl->name);
  def->num_inputs = trx__count_rows(def->arguments);
  if ((def->op = trx__op_new(def)) == NULL) goto fail;
  return def;
fail:
  trx__def_free(def);
  return NULL;
}

TVMFFIObject* trx_op_register(const trx_op_decl_t* decl) {
  if (decl == NULL || decl->name == NULL || decl->name[0] == '\0' || strlen(decl->name) > 100) {
    tether_raise("TypeError", "trx_op_register: `decl` must be a declaration with a name of 1 to 100 bytes");
    return NULL;
  }
  trx_op_def_t* def = trx__def_new(decl);
  if (def == NULL) return NULL;
  pthread_mutex_lock(&trx__reg.lock);
  bool taken = trx__table_get_str(&trx__reg.names, def->full_name, strlen(def->full_name)) != NULL;
  int rc = taken ? -1 : trx__reg_add(def);
  pthread_mutex_unlock(&trx__reg.lock);
  if (rc != 0) {
    if (taken) tether_raise("KeyError", "trx_op_register: an op named `%s` is already registered", def->full_name);
    else tether_raise("MemoryError", "trx_op_register: out of memory");
    trx__def_free(def);
    return NULL;
  }
  /* visible from here on; the global is its constructor */
  if (trx__register_make_global(def) != 0) return NULL;
  return def->op;
}

int trx__op_init(void) {
  TVMFFIByteArray bool_str = {"bool", 4};
  if (TVMFFIDataTypeFromString(&bool_str, &trx__dtype_bool) != 0) return -1;
  static const struct {
    const trx_op_decl_t* decls;
    const size_t* count;
  } categories[] = {
#define TRX__CATEGORY_ROW(cat) {trx__ops_##cat, &trx__ops_##cat##_count},
      TRX_OP_CATEGORIES(TRX__CATEGORY_ROW)
#undef TRX__CATEGORY_ROW
  };
  for (size_t c = 0; c < sizeof(categories) / sizeof(categories[0]); ++c) {
    for (size_t i = 0; i < *categories[c].count; ++i) {
      if (trx_op_register(&categories[c].decls[i]) == NULL) return -1;
    }
  }
  if (tether_func_register_flags("ir.Op.get", trx__global_op_get, "The Op registered under a name.",
                                 NULL, TETHER_FUNC_KEEPS_GIL, 1) != 0 ||
      tether_func_register_flags("ir.GetOp", trx__global_op_get, "The Op registered under a name.",
                                 NULL, TETHER_FUNC_KEEPS_GIL, 1) != 0 ||
      tether_func_register_flags("ir.ListOpNames", trx__global_list_op_names,
                                 "Names of all registered ops.", NULL, TETHER_FUNC_KEEPS_GIL, 1) != 0 ||
      tether_func_register_flags("relax.op.Schema", trx__global_schema,
                                 "[params, doc] of a registered op: its wrapper's signature and docstring.",
                                 NULL, TETHER_FUNC_KEEPS_GIL, 1) != 0)
    return -1;
  return trx__register_json_hooks(trx_type_index[TRX_OP], trx__op_to_json, trx__op_from_json);
}

void trx__op_fini(void) {
  pthread_mutex_lock(&trx__reg.lock);
  for (int32_t i = 0; i < trx__reg.count; ++i) trx__def_free(trx__reg.defs[i]);
  free(trx__reg.defs);
  trx__table_free(&trx__reg.names);
  trx__reg.defs = NULL;
  trx__reg.count = trx__reg.cap = 0;
  pthread_mutex_unlock(&trx__reg.lock);
}

/* ---- argument readers ------------------------------------------------------------------------- */

static int trx__arg_mismatch(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                             const char* expected, const char* got) {
  return tether_raise("TypeError",
                      "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got "
                      "`%s`",
                      (int)i, def->fname, expected, got ? got : tether_any_type_key(&args[i]));
}

int trx__arg_expr(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, TVMFFIObject** out) {
  const TVMFFIAny* v = &args[i];
  TVMFFIByteArray s;
  *out = NULL;
  if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) {
    *out = trx__ref(v->v_obj);
    return 0;
  }
  if (v->type_index == kTVMFFIInt) {
    /* As TVM converts a Python int to a PrimExpr: int32 when it fits, else int64. */
    DLDataType i32 = {kDLInt, 32, 1};
    bool fits = v->v_int64 >= INT32_MIN && v->v_int64 <= INT32_MAX;
    *out = trx_int_imm_new(fits ? i32 : trx__dtype_int64, v->v_int64);
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

int trx__arg_opt_expr(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                      TVMFFIObject** out) {
  if (args[i].type_index == kTVMFFINone) {
    *out = NULL;
    return 0;
  }
  return trx__arg_expr(def, args, i, out);
}

static int trx__arg_int_array_slow(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                                   bool allow_none, TVMFFIObject** out);

int trx__arg_int_array(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
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
static __attribute__((noinline)) int trx__arg_int_array_slow(const trx_op_def_t* def,
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

int trx__arg_i64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, int64_t* out) {
  if (args[i].type_index == kTVMFFIInt || args[i].type_index == kTVMFFIBool) {
    *out = args[i].v_int64;
    return 0;
  }
  return trx__arg_mismatch(def, args, i, "int", NULL);
}

int trx__arg_opt_i64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
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

int trx__arg_f64(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, double* out) {
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

int trx__arg_flag(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, bool* out) {
  if (args[i].type_index == kTVMFFIBool || args[i].type_index == kTVMFFIInt) {
    *out = args[i].v_int64 != 0;
    return 0;
  }
  return trx__arg_mismatch(def, args, i, "bool", NULL);
}

int trx__arg_string(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i, bool allow_none,
                    TVMFFIAny* out) {
  TVMFFIByteArray s;
  *out = tether_any_none();
  if (allow_none && args[i].type_index == kTVMFFINone) return 0;
  if (args[i].type_index == kTVMFFISmallStr && args[i].small_str_len <= 7) { /* owns nothing */
    *out = args[i];
    memset(out->v_bytes + out->small_str_len, 0, 8 - out->small_str_len); /* as tether_any_str */
    return 0;
  }
  if (!tether_any_get_str(&args[i], &s))
    return trx__arg_mismatch(def, args, i, allow_none ? "Optional<str>" : "str", NULL);
  return tether_any_str(s.data, s.size, out);
}

int trx__arg_opt_dtype(const trx_op_def_t* def, const TVMFFIAny* args, int32_t i,
                       bool allow_none, TVMFFIAny* out) {
  TVMFFIByteArray s;
  *out = tether_any_none();
  if (allow_none && args[i].type_index == kTVMFFINone) return 0;
  if (args[i].type_index == kTVMFFIDataType) {
    *out = tether_any_dtype(args[i].v_dtype);
    return 0;
  }
  if (tether_any_is_object(&args[i]) && trx_is(args[i].v_obj, TRX_PRIM_TYPE)) {
    *out = tether_any_dtype(((trx_prim_type_t*)args[i].v_obj)->dtype); /* TVM's wrappers take a PrimType */
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

int trx__sb_raise(trx__sb_t* sb, const char* kind) {
  tether_raise(kind, "%s", sb->s ? sb->s : "");
  trx__sb_free(sb);
  return -1;
}

void trx__sb_dtype(trx__sb_t* sb, DLDataType t) {
  char buf[64];
  if (trx__dtype_is_void(t)) {
    /* an unknown dtype is an absent Optional<DataType> in TVM's texts */
    trx__sb_printf(sb, "None");
    return;
  }
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
  trx__clear_error();
  trx__sb_node_fallback(sb, node);
}

void trx__sb_op(trx__sb_t* sb, const trx_op_def_t* def) {
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

const char* trx__arg_name(const trx_op_def_t* def, int i, char* buf, size_t n) {
  const char* p = def->arguments;
  for (int k = 0; k < i && p; ++k) {
    p = strchr(p, '\n');
    if (p) p++;
  }
  const char* bar = p ? strchr(p, '|') : NULL;
  snprintf(buf, n, "%.*s", bar ? (int)(bar - p) : 0, bar ? p : "");
  return buf;
}

int trx__check_args(const trx_op_def_t* def, trx_call_t* call, int ntensors,
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
  if (tt == NULL) return NULL;
  if (trx_is(tt->shape, TRX_VAR)) { /* a shape Var: the values its ShapeType knows, if any */
    TVMFFIObject* sty = ((const trx_expr_t*)tt->shape)->ty;
    return trx_is(sty, TRX_SHAPE_TYPE) ? ((trx_shape_type_t*)sty)->values : NULL;
  }
  if (!trx_is(tt->shape, TRX_SHAPE_EXPR)) return NULL;
  const trx_shape_expr_t* s = (const trx_shape_expr_t*)tt->shape;
  if (trx_is(s->base.ty, TRX_SHAPE_TYPE) && ((trx_shape_type_t*)s->base.ty)->values != NULL) {
    return ((trx_shape_type_t*)s->base.ty)->values;
  }
  return s->values;
}

TVMFFIObject* trx__dim(TVMFFIObject* values, int64_t i) { return trx__array_obj(values, i); }

int trx__normalize_axis(const trx_op_def_t* def, int64_t ndim, int64_t axis, int64_t* out) {
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

int trx__normalize_axes(const trx_op_def_t* def, int64_t ndim, TVMFFIObject* axes,
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

int trx__broadcast(const trx_op_def_t* def, TVMFFIObject* a, TVMFFIObject* b,
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

int trx__check_layout(const trx_op_def_t* def, const TVMFFIAny* layout, const char* target,
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

int trx__check_layout_ndim(const trx_op_def_t* def, const trx__layout_t* l, int64_t ndim) {
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
      if (f > 0) { /* the outer part of a split axis: ceildiv(d, f), as TVM's layouts */
        trx__scope_t s = TRX__SCOPE_INIT;
        TVMFFIObject* up = trx__s_add(&s, d, trx__s_int(&s, f - 1));
        out[i] = trx__scope_keep(&s, trx__s_floordiv(&s, up, trx__s_int(&s, f)));
        trx__scope_end(&s);
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

/* ---- pieces the op files share ------------------------------------------------------------------ */
/* ---- small helpers ------------------------------------------------------------------------- */

/* A zeroed array of n dim slots (n may be 0). */
TVMFFIObject** trx__dims_new(int64_t n) {
  TVMFFIObject** d = calloc((size_t)(n > 0 ? n : 1), sizeof(TVMFFIObject*));
  if (d == NULL) tether_raise("MemoryError", "out of memory");
  return d;
}
void trx__dims_free(TVMFFIObject** d, int64_t n) {
  if (d == NULL) return;
  for (int64_t i = 0; i < n; ++i)
    if (d[i] != NULL) TVMFFIObjectDecRef(d[i]);
  free(d);
}
/* TensorType from n stolen dims; frees the slot array. */
TVMFFIObject* trx__tensor_steal_free(TVMFFIObject** d, int64_t n, DLDataType dtype) {
  TVMFFIObject* ty = trx__tensor_from_dims_steal(d, n, dtype);
  free(d);
  return ty;
}
/* TensorType copying `tt` with another dtype. */
TVMFFIObject* trx__with_dtype(const trx_tensor_type_t* tt, DLDataType dtype) {
  return trx__tensor_new(tt->shape, dtype, tt->ndim);
}
TVMFFIObject* trx__on_vdevice(TVMFFIObject* ty, const trx_tensor_type_t* like) {
  if (ty != NULL) ((trx_tensor_type_t*)ty)->vdevice = trx__ref(like->vdevice);
  return ty;
}
TVMFFIObject* trx__tuple_type_of(TVMFFIObject** fields, int64_t n) {
  TVMFFIObject* arr = trx__array_of(fields, n);
  if (arr == NULL) return NULL;
  TVMFFIObject* ty = trx_tuple_type_new(arr);
  TVMFFIObjectDecRef(arr);
  return ty;
}
bool trx__const_eq(TVMFFIObject* e, int64_t v) {
  int64_t c;
  return e != NULL && trx_as_const_int(e, &c) && c == v;
}
/* The product of a dims Array (new reference). */
TVMFFIObject* trx__product(TVMFFIObject* values) {
  TVMFFIObject* p = trx_int64(1);
  int64_t n = tether_array_size(values);
  for (int64_t i = 0; i < n && p != NULL; ++i) {
    TVMFFIObject* q = trx_mul(p, trx__dim(values, i));
    TVMFFIObjectDecRef(p);
    p = q;
  }
  return p;
}

/* "<op> requires the input tensor to have float dtype. However, the given input dtype is T.x" */
int trx__require_float(const trx_op_def_t* def, const char* who, DLDataType t) {
  if (trx__dtype_is_void(t) || trx__dtype_is_float(t)) return 0;
  trx__sb_t sb = {0};
  if (who != NULL) trx__sb_printf(&sb, "%s", who);
  else trx__sb_op(&sb, def);
  trx__sb_printf(&sb, " requires the input tensor to have float dtype. However, the given input dtype is ");
  trx__sb_dtype(&sb, t);
  return trx__sb_raise(&sb, "TypeError");
}

TVMFFIObject* trx__infer_unary(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  if ((def->flags & TRX__F_FLOAT) && trx__require_float(def, NULL, trx_tensor_dtype(tt[0])) != 0) return NULL;
  /* As TVM: a new TensorType over the input's shape and dtype (not the input's type). */
  return trx__on_vdevice(trx__tensor_new(tt[0]->shape, trx_tensor_dtype(tt[0]), tt[0]->ndim), tt[0]);
}

/* ---- shape arithmetic in a scope ----------------------------------------------------------------- */

TVMFFIObject* trx__s_own(trx__scope_t* s, TVMFFIObject* obj) {
  if (obj == NULL) return NULL;
  if (s->objs == NULL) {
    s->objs = s->inline_objs;
    s->cap = (int32_t)(sizeof(s->inline_objs) / sizeof(s->inline_objs[0]));
  }
  if (s->n == s->cap) {
    int32_t cap = s->cap * 2;
    TVMFFIObject** objs = s->objs == s->inline_objs ? malloc(sizeof(*objs) * (size_t)cap)
                                                     : realloc(s->objs, sizeof(*objs) * (size_t)cap);
    if (objs == NULL) {
      TVMFFIObjectDecRef(obj);
      tether_raise("MemoryError", "shape arithmetic: out of memory");
      return NULL;
    }
    if (s->objs == s->inline_objs) memcpy(objs, s->inline_objs, sizeof(s->inline_objs));
    s->objs = objs;
    s->cap = cap;
  }
  s->objs[s->n++] = obj;
  return obj;
}

TVMFFIObject* trx__s_int(trx__scope_t* s, int64_t v) { return trx__s_own(s, trx_int64(v)); }

#define TRX__SCOPED_BINARY(name, fn)                                              \
  TVMFFIObject* name(trx__scope_t* s, TVMFFIObject* a, TVMFFIObject* b) {          \
    return a != NULL && b != NULL ? trx__s_own(s, fn(a, b)) : NULL;               \
  }
TRX__SCOPED_BINARY(trx__s_add, trx_add)
TRX__SCOPED_BINARY(trx__s_sub, trx_sub)
TRX__SCOPED_BINARY(trx__s_mul, trx_mul)
TRX__SCOPED_BINARY(trx__s_floordiv, trx_floordiv)
TRX__SCOPED_BINARY(trx__s_floormod, trx_floormod)
TRX__SCOPED_BINARY(trx__s_min, trx__min)
TRX__SCOPED_BINARY(trx__s_max, trx__max)
#undef TRX__SCOPED_BINARY

TVMFFIObject* trx__scope_keep(trx__scope_t* s, TVMFFIObject* obj) {
  (void)s;
  return obj != NULL ? trx__ref(obj) : NULL;
}

void trx__scope_end(trx__scope_t* s) {
  trx__release_objects(s->objs, s->n);
  if (s->objs != s->inline_objs) free(s->objs);
  s->objs = NULL;
  s->n = s->cap = 0;
}

/* ---- pieces of the manipulation / index / search / set / sort / linalg ops ------------------- */

int trx__check_int_attrs(const trx_op_def_t* def, TVMFFIObject** inputs, int64_t n,
                         TVMFFIObject* attrs) {
  (void)inputs;
  (void)n;
  const trx_attrs_decl_t* decl = def->decl->attrs;
  for (int32_t i = 0; attrs != NULL && decl != NULL && i < decl->num_fields; ++i) {
    if (decl->fields[i].kind != TETHER_FIELD_INT64) continue;
    int64_t* v = (int64_t*)((char*)attrs + decl->fields[i].offset);
    *v = trx__as_int(*v);
  }
  return 0;
}

int trx__index_error(int64_t i, int64_t n) {
  return tether_raise("IndexError", "Index %lld out of bounds %lld", (long long)i, (long long)n);
}

void trx__sb_dtype_or_none(trx__sb_t* sb, DLDataType t) {
  if (trx__dtype_is_void(t)) trx__sb_printf(sb, "None");
  else trx__sb_dtype(sb, t);
}

TVMFFIObject* trx__tuple_tensor_fields(const trx_op_def_t* def, trx_call_t* call, const char* who) {
  TVMFFIObject* ty = trx__ty(trx__call_arg(call, 0));
  bool ok = trx_is(ty, TRX_TUPLE_TYPE);
  int64_t n = ok ? tether_array_size(((trx_tuple_type_t*)ty)->fields) : 0;
  for (int64_t i = 0; ok && i < n; ++i)
    ok = trx_is(trx__array_obj(((trx_tuple_type_t*)ty)->fields, i), TRX_TENSOR_TYPE);
  if (ok && n == 0) {
    tether_raise("ValueError",
                 "%s op expects at least one tensor in the input Tuple. However, the given input "
                 "Tuple is empty.",
                 who);
    return NULL;
  }
  if (ok) return ((trx_tuple_type_t*)ty)->fields;
  trx__sb_t sb = {0};
  trx__sb_op(&sb, def);
  trx__sb_printf(&sb, " expects the input to be a Tuple of Tensors. However, the given input is ");
  if (trx_is(ty, TRX_TUPLE_TYPE)) trx__sb_node(&sb, ty);
  else trx__sb_printf(&sb, "%s", ty != NULL ? tether_type_key(ty->type_index) : "None");
  trx__sb_raise(&sb, "TypeError");
  return NULL;
}

bool trx__dim_const(TVMFFIObject* values, int64_t i, int64_t* out) {
  TVMFFIObject* d = trx__dim(values, i);
  if (!trx_is(d, TRX_INT_IMM)) return false;
  *out = ((trx_int_imm_t*)d)->value;
  return true;
}

int trx__raise_dtype_pair(const char* kind, const char* before, DLDataType a, const char* between,
                          DLDataType b) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "%s", before);
  trx__sb_dtype_or_none(&sb, a);
  trx__sb_printf(&sb, "%s", between);
  trx__sb_dtype_or_none(&sb, b);
  return trx__sb_raise(&sb, kind);
}

TVMFFIObject* trx__product_folded(TVMFFIObject* values) {
  TVMFFIObject* p = trx_int64(1);
  for (int64_t i = 0, n = tether_array_size(values); i < n && p != NULL; ++i) {
    TVMFFIObject* q = trx__mul_fold(p, trx__dim(values, i));
    TVMFFIObjectDecRef(p);
    p = q;
  }
  return p;
}
