/*
 * printer.c -- the TVMScript printer (spec relax.md sections 2 and 3): trx_print renders any
 * IR node exactly as apache-tvm 0.27 prints it (`print(x)`, `x.script(verbose_expr=...,
 * show_all_ty=...)`, `mod.show()`), and this file registers "ir.Print" and the
 * `__ffi_repr__` type attribute that makes ffi.ReprPrint (Python's repr) use it.
 *
 * Model (observed from the reference printer):
 * - The text is built as a tree of statements (plain lines, `with`/`if` scopes, function
 *   and class definitions) rendered at the end with 4-space indentation; a function
 *   definition is followed by an empty line unless it is the last thing printed.
 * - Frames: the root, a module, each function, and each SeqExpr (a function body or an If
 *   branch).  A var is named when it is defined (a param, a binding) in the innermost frame;
 *   the name is released when that frame ends.  Names are made unique by appending _1, _2,
 *   ...; characters other than [A-Za-z0-9_] become '_'; "" becomes "v"; R, T, I and cls are
 *   reserved.
 * - A var used before it is defined is defined on the fly: a relax var as `x: <type>` in the
 *   innermost frame, a primitive (symbolic) var as `n = T.int64()` in the nearest function
 *   frame (the root when there is none).  Inside a function signature an undefined symbolic
 *   var becomes a module-level `n = TypeVar("n")` instead, and compound dims print quoted.
 *   A root that is an expression drops those definition lines unless verbose_expr.
 * - Dispatch: roots that are primitive (IntImm, FloatImm, StringImm, prim binops, TupleType,
 *   PrimType) print in the TIR style (`T.int64(1)`, `T.Tuple(...)`); everything else in the
 *   Relax style (plain ints, `R.Tuple(...)`).
 * - Roots that are attrs or Ops print in the generic reflection form, as TVM does.
 */
#include "printer.h"

#include <stdarg.h>
#include <stdio.h>

#include <tether/container.h>
#include <tether/json.h>
#include <tether/tensor.h>

#include "arith.h"
#include "node.h"
#include "strbuf.h"

/* The decimal text of v (what "%lld" prints), without going through printf. */
static void sb_put_i64(trx__buf_t* b, int64_t v) {
  char buf[24];
  char* p = buf + sizeof(buf);
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    *--p = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) *--p = '-';
  trx__buf_put(b, p, (size_t)(buf + sizeof(buf) - p));
}

/* The text (malloc'd, never NULL unless out of memory); `b` is reset. */
static char* sb_take(trx__buf_t* b) {
  char* s = b->oom ? NULL : b->s;
  if (s == NULL && !b->oom) s = calloc(1, 1);
  if (b->oom) free(b->s);
  *b = (trx__buf_t){0};
  return s;
}

/* ---- statement tree ----------------------------------------------------------------------- */

typedef enum { ST_LINE, ST_SCOPE, ST_IF, ST_FUNC, ST_CLASS } trx__st_kind;

typedef struct trx__stmt trx__stmt;
typedef struct {
  trx__stmt** v;
  size_t n, cap;
} trx__stmts;

/* LINE: text.  SCOPE: "text" + body.  IF: "if text:" body "else:" orelse.  FUNC/CLASS:
 * "@deco", text, body (FUNC is followed by an empty line). */
struct trx__stmt {
  trx__st_kind kind;
  char* text;
  char* deco;
  trx__stmts body, orelse;
};

static void stmts_free(trx__stmts* l);

static void stmt_free(trx__stmt* s) {
  if (s == NULL) return;
  free(s->text);
  free(s->deco);
  stmts_free(&s->body);
  stmts_free(&s->orelse);
  free(s);
}

static void stmts_free(trx__stmts* l) {
  for (size_t i = 0; i < l->n; ++i) stmt_free(l->v[i]);
  free(l->v);
  *l = (trx__stmts){0};
}

/* ---- printer state ------------------------------------------------------------------------- */

typedef enum { FR_ROOT, FR_MODULE, FR_FUNC, FR_SEQ } trx__fr_kind;

typedef struct {
  trx__fr_kind kind;
  trx__stmts body;
  bool cls_defined; /* FR_FUNC: `cls = Module` emitted */
} trx__frame;

typedef struct {
  const void* obj;
  char* name; /* NULL once its frame ended */
  int frame;
} trx__name;

typedef struct {
  const void* obj;
  const char* key;
} trx__meta;

typedef struct {
  bool verbose, show_all;
  bool tir; /* the root dispatched to the TIR printer */
  bool sig; /* printing a function signature */
  bool use_I, use_T, use_R, use_tv;
  bool oom;
  TVMFFIObject* mod; /* module being printed (borrowed) */
  trx__frame** frames;
  int nf;
  size_t capf;
  /* names: entries plus two open-addressed indexes (entry index, -1 empty) */
  trx__name* ents;
  size_t nents, capents;
  int32_t* by_obj;
  int32_t* by_name;
  size_t hcap;
  trx__meta* meta;
  size_t nmeta, capmeta;
  char** tvars; /* TypeVar names, unique: per top-level function in order, each one's sorted */
  size_t ntv, captv;
  size_t tv_first; /* the current function's first TypeVar */
  struct trx__task* tasks; /* p_expr's work stack, shared by nested p_expr calls */
  size_t ntasks, captasks;
} trx__P;

static bool p_grow(trx__P* P, void** v, size_t* cap, size_t need, size_t elem) {
  if (need <= *cap) return true;
  size_t c = *cap ? *cap : 8;
  while (c < need) c *= 2;
  void* p = realloc(*v, c * elem);
  if (p == NULL) {
    P->oom = true;
    return false;
  }
  *v = p;
  *cap = c;
  return true;
}

/* Takes `text` (malloc'd; NULL means out of memory). */
static trx__stmt* stmt_new(trx__P* P, trx__st_kind kind, char* text) {
  trx__stmt* s = text ? calloc(1, sizeof(*s)) : NULL;
  if (s == NULL) {
    free(text);
    P->oom = true;
    return NULL;
  }
  s->kind = kind;
  s->text = text;
  return s;
}

/* Appends `s` (taken; NULL is ignored). */
static void stmts_push(trx__P* P, trx__stmts* l, trx__stmt* s) {
  if (s == NULL) return;
  if (!p_grow(P, (void**)&l->v, &l->cap, l->n + 1, sizeof(*l->v))) {
    stmt_free(s);
    return;
  }
  l->v[l->n++] = s;
}

static void stmts_push_line(trx__P* P, trx__stmts* l, trx__buf_t* text) {
  stmts_push(P, l, stmt_new(P, ST_LINE, sb_take(text)));
}

static void stmts_push_cstr(trx__P* P, trx__stmts* l, const char* text) {
  trx__buf_t b = {0};
  trx__buf_puts(&b, text);
  stmts_push_line(P, l, &b);
}

/* Moves every statement of `src` to the end of `dst`. */
static void stmts_move(trx__P* P, trx__stmts* dst, trx__stmts* src) {
  for (size_t i = 0; i < src->n; ++i) stmts_push(P, dst, src->v[i]);
  free(src->v);
  *src = (trx__stmts){0};
}

/* ---- names ---------------------------------------------------------------------------------- */

static uint64_t hash_ptr(const void* p) { return ((uint64_t)(uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull; }

static uint64_t hash_str(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static void index_insert(trx__P* P, int32_t i) {
  size_t m = P->hcap - 1;
  size_t k = hash_ptr(P->ents[i].obj) & m;
  while (P->by_obj[k] >= 0) k = (k + 1) & m;
  P->by_obj[k] = i;
  k = hash_str(P->ents[i].name) & m;
  while (P->by_name[k] >= 0) k = (k + 1) & m;
  P->by_name[k] = i;
}

/* Rebuilds both indexes over the live entries with room for `need` entries. */
static bool index_rebuild(trx__P* P, size_t need) {
  size_t cap = 64;
  while (cap < need * 4) cap *= 2;
  int32_t* a = malloc(cap * sizeof(int32_t));
  int32_t* b = malloc(cap * sizeof(int32_t));
  if (a == NULL || b == NULL) {
    free(a);
    free(b);
    P->oom = true;
    return false;
  }
  for (size_t k = 0; k < cap; ++k) a[k] = b[k] = -1;
  free(P->by_obj);
  free(P->by_name);
  P->by_obj = a;
  P->by_name = b;
  P->hcap = cap;
  for (size_t i = 0; i < P->nents; ++i) {
    if (P->ents[i].name != NULL) index_insert(P, (int32_t)i);
  }
  return true;
}

/* The live name of `obj`, or NULL. */
static const char* name_of(trx__P* P, const void* obj) {
  if (P->hcap == 0 || obj == NULL) return NULL;
  size_t m = P->hcap - 1;
  for (size_t k = hash_ptr(obj) & m; P->by_obj[k] >= 0; k = (k + 1) & m) {
    const trx__name* e = &P->ents[P->by_obj[k]];
    if (e->obj == obj && e->name != NULL) return e->name;
  }
  return NULL;
}

static bool name_taken(trx__P* P, const char* s) {
  if (P->hcap == 0) return false;
  size_t m = P->hcap - 1;
  for (size_t k = hash_str(s) & m; P->by_name[k] >= 0; k = (k + 1) & m) {
    const trx__name* e = &P->ents[P->by_name[k]];
    if (e->name != NULL && strcmp(e->name, s) == 0) return true;
  }
  return false;
}

/* Defines `obj` in frame `fr` under a unique name derived from raw[0..len); the returned
 * name is borrowed (valid until the frame ends), NULL when out of memory. */
static const char* name_define(trx__P* P, const void* obj, const char* raw, size_t len, int fr) {
  trx__buf_t b = {0};
  if (len == 0) trx__buf_puts(&b, "v");
  for (size_t i = 0; i < len; ++i) {
    char c = raw[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    trx__buf_put(&b, ok ? &c : "_", 1);
  }
  if (b.oom) {
    P->oom = true;
    trx__buf_free(&b);
    return NULL;
  }
  size_t base = b.n;
  for (long i = 1; name_taken(P, b.s); ++i) {
    b.n = base;
    trx__buf_printf(&b, "_%ld", i);
    if (b.oom) break;
  }
  char* name = sb_take(&b);
  if (name == NULL ||
      !p_grow(P, (void**)&P->ents, &P->capents, P->nents + 1, sizeof(*P->ents)) ||
      ((P->nents + 1) * 2 > P->hcap && !index_rebuild(P, P->nents + 1))) {
    free(name);
    P->oom = true;
    return NULL;
  }
  P->ents[P->nents] = (trx__name){obj, name, fr};
  index_insert(P, (int32_t)P->nents);
  P->nents++;
  return name;
}

/* As TVM orders them: the names a function adds follow those of the functions before it,
 * sorted among themselves. */
static void add_typevar(trx__P* P, const char* name) {
  for (size_t j = 0; j < P->tv_first; ++j) {
    if (strcmp(P->tvars[j], name) == 0) return;
  }
  size_t i = P->tv_first;
  while (i < P->ntv && strcmp(P->tvars[i], name) < 0) ++i;
  if (i < P->ntv && strcmp(P->tvars[i], name) == 0) return;
  char* copy = strdup(name);
  if (copy == NULL || !p_grow(P, (void**)&P->tvars, &P->captv, P->ntv + 1, sizeof(char*))) {
    free(copy);
    P->oom = true;
    return;
  }
  memmove(P->tvars + i + 1, P->tvars + i, (P->ntv - i) * sizeof(char*));
  P->tvars[i] = copy;
  P->ntv++;
  P->use_tv = true;
}

/* ---- frames ----------------------------------------------------------------------------------- */

static int frame_push(trx__P* P, trx__fr_kind kind) {
  trx__frame* f = calloc(1, sizeof(*f));
  if (f == NULL || !p_grow(P, (void**)&P->frames, &P->capf, (size_t)P->nf + 1,
                           sizeof(*P->frames))) {
    free(f);
    P->oom = true;
    return -1;
  }
  f->kind = kind;
  P->frames[P->nf] = f;
  return P->nf++;
}

/* Ends the innermost frame: its names die and its statements move to `out`. */
static void frame_pop(trx__P* P, trx__stmts* out) {
  if (P->nf == 0) return;
  int fr = --P->nf;
  trx__frame* f = P->frames[fr];
  for (size_t i = 0; i < P->nents; ++i) {
    if (P->ents[i].frame == fr && P->ents[i].name != NULL) {
      free(P->ents[i].name);
      P->ents[i].name = NULL;
    }
  }
  if (out != NULL) stmts_move(P, out, &f->body);
  stmts_free(&f->body);
  free(f);
}

/* The statements of frame `fr` (valid while the frame lives). */
static trx__stmts* frame_body(trx__P* P, int fr) { return &P->frames[fr]->body; }

static int frame_top(trx__P* P) { return P->nf - 1; }

/* The nearest function frame, or the root frame. */
static int frame_func(trx__P* P) {
  for (int i = P->nf - 1; i > 0; --i) {
    if (P->frames[i]->kind == FR_FUNC) return i;
  }
  return 0;
}

/* ---- literals --------------------------------------------------------------------------------- */

static void put_R(trx__P* P, trx__buf_t* b, const char* rest) {
  P->use_R = true;
  trx__buf_puts(b, "R.");
  trx__buf_puts(b, rest);
}

static void put_T(trx__P* P, trx__buf_t* b, const char* rest) {
  P->use_T = true;
  trx__buf_puts(b, "T.");
  trx__buf_puts(b, rest);
}

/* Double-quoted, with \" \\ \n \r \t escaped and other bytes outside 0x20..0x7e as \xHH. */
static void put_quoted(trx__buf_t* b, const char* s, size_t n) {
  trx__buf_put(b, "\"", 1);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
      case '"': trx__buf_puts(b, "\\\""); break;
      case '\\': trx__buf_puts(b, "\\\\"); break;
      case '\n': trx__buf_puts(b, "\\n"); break;
      case '\r': trx__buf_puts(b, "\\r"); break;
      case '\t': trx__buf_puts(b, "\\t"); break;
      default:
        if (c >= 0x20 && c <= 0x7e) {
          trx__buf_put(b, (const char*)&c, 1);
        } else {
          trx__buf_printf(b, "\\x%02X", c);
        }
    }
  }
  trx__buf_put(b, "\"", 1);
}

static void put_dtype(trx__buf_t* b, DLDataType t) {
  char buf[64];
  trx__dtype_str(t, buf, sizeof(buf));
  trx__buf_puts(b, buf);
}

static bool f_isnan(double v) { return v != v; }
static bool f_isinf(double v) { return !f_isnan(v) && (v - v) != 0.0; }

/* A whole finite value prints with one decimal (1.0, 100000000000000000000.0), others %.17g. */
static void put_float_digits(trx__buf_t* b, double v) {
  double a = v < 0 ? -v : v;
  bool whole = a >= 4503599627370496.0 || (double)(int64_t)v == v;
  trx__buf_printf(b, whole ? "%.1f" : "%.17g", v);
}

/* Floats as in the reference: non-finite values are quoted strings. */
static void put_float(trx__buf_t* b, double v) {
  if (f_isnan(v)) {
    trx__buf_puts(b, "\"nan\"");
  } else if (f_isinf(v)) {
    trx__buf_puts(b, v < 0 ? "\"-inf\"" : "\"inf\"");
  } else {
    put_float_digits(b, v);
  }
}

static bool dtype_is_bool(DLDataType t) {
  return t.code == kDLBool || (t.code == kDLUInt && t.bits == 1);
}

/* The dtype of a prim expr (its PrimType ty; int64 when untyped). */
static DLDataType expr_dtype(TVMFFIObject* e) {
  TVMFFIObject* ty = trx__ty(e);
  if (trx_is(ty, TRX_PRIM_TYPE)) return ((trx_prim_type_t*)ty)->dtype;
  return trx__dtype_int64;
}

/* ---- expressions ------------------------------------------------------------------------------ */

/* Python's operator precedence, lowest first. */
enum {
  PREC_LOWEST = 0,
  PREC_CMP,
  PREC_BOR,
  PREC_BXOR,
  PREC_BAND,
  PREC_SHIFT,
  PREC_ADD,
  PREC_MUL,
  PREC_UNARY,
  PREC_ATOM
};

/* Prim binops: Python operators (with Python's precedence) or T.min/T.max calls. */
static const struct {
  trx_kind kind;
  const char* op; /* NULL: printed as T.<name>(a, b) */
  int prec;
} trx__binops[] = {
    {TRX_PRIM_ADD, " + ", PREC_ADD},      {TRX_PRIM_SUB, " - ", PREC_ADD},
    {TRX_PRIM_MUL, " * ", PREC_MUL},      {TRX_PRIM_FLOORDIV, " // ", PREC_MUL},
    {TRX_PRIM_FLOORMOD, " % ", PREC_MUL}, {TRX_PRIM_MIN, "min", 0},
    {TRX_PRIM_MAX, "max", 0},
    {TRX_PRIM_EQ, " == ", PREC_CMP},      {TRX_PRIM_NE, " != ", PREC_CMP},
    {TRX_PRIM_LT, " < ", PREC_CMP},       {TRX_PRIM_LE, " <= ", PREC_CMP},
    {TRX_PRIM_GT, " > ", PREC_CMP},       {TRX_PRIM_GE, " >= ", PREC_CMP},
    {TRX_PRIM_BITAND, " & ", PREC_BAND},  {TRX_PRIM_BITOR, " | ", PREC_BOR},
    {TRX_PRIM_BITXOR, " ^ ", PREC_BXOR},  {TRX_PRIM_SHL, " << ", PREC_SHIFT},
    {TRX_PRIM_SHR, " >> ", PREC_SHIFT},
};

static bool is_binop(TVMFFIObject* e) {
  if (trx_is(e, TRX_PRIM_BITNOT)) return true;
  for (size_t i = 0; i < sizeof(trx__binops) / sizeof(trx__binops[0]); ++i) {
    if (e != NULL && e->type_index == trx_type_index[trx__binops[i].kind]) return true;
  }
  return false;
}

static void p_expr(trx__P* P, TVMFFIObject* e, trx__buf_t* b, int prec);
static void p_type(trx__P* P, TVMFFIObject* t, trx__buf_t* b);
static void p_value(trx__P* P, const TVMFFIAny* v, trx__buf_t* b);

static void p_metadata(trx__P* P, TVMFFIObject* obj, trx__buf_t* b) {
  const char* key = tether_type_key(obj->type_index);
  size_t idx = 0, i = 0;
  for (; i < P->nmeta; ++i) {
    if (P->meta[i].obj == obj) break;
    if (strcmp(P->meta[i].key, key) == 0) idx++;
  }
  if (i == P->nmeta) {
    if (!p_grow(P, (void**)&P->meta, &P->capmeta, P->nmeta + 1, sizeof(*P->meta))) return;
    P->meta[P->nmeta++] = (trx__meta){obj, key};
  }
  trx__buf_printf(b, "metadata[\"%s\"][%zu]", key, idx);
}

/* Defines a var met before its definition (see the file comment); its name or NULL. */
static const char* p_define_free(trx__P* P, TVMFFIObject* v) {
  trx_var_t* var = (trx_var_t*)v;
  TVMFFIObject* ty = var->base.ty;
  TVMFFIByteArray raw = trx__str(&var->name);
  if (trx_is(ty, TRX_PRIM_TYPE)) {
    int fr = frame_func(P);
    const char* name = name_define(P, v, raw.data, raw.size, fr);
    if (name == NULL) return NULL;
    if (P->sig) {
      add_typevar(P, name);
    } else {
      trx__buf_t line = {0};
      trx__buf_puts(&line, name);
      trx__buf_puts(&line, " = ");
      put_T(P, &line, "");
      put_dtype(&line, ((trx_prim_type_t*)ty)->dtype);
      trx__buf_puts(&line, "()");
      stmts_push_line(P, frame_body(P, fr), &line);
    }
    return name;
  }
  trx__buf_t ann = {0};
  if (ty != NULL) p_type(P, ty, &ann);
  int fr = frame_top(P);
  const char* name = name_define(P, v, raw.data, raw.size, fr);
  if (name != NULL && ty != NULL) {
    trx__buf_t line = {0};
    trx__buf_puts(&line, name);
    trx__buf_puts(&line, ": ");
    trx__buf_put(&line, ann.s ? ann.s : "", ann.n);
    stmts_push_line(P, frame_body(P, fr), &line);
  }
  trx__buf_free(&ann);
  return name;
}

static void p_var(trx__P* P, TVMFFIObject* v, trx__buf_t* b) {
  const char* name = name_of(P, v);
  if (name == NULL) name = p_define_free(P, v);
  if (name != NULL) trx__buf_puts(b, name);
}

/* A shape dim: compound expressions inside a signature print as quoted strings. */
static void p_dim(trx__P* P, TVMFFIObject* e, trx__buf_t* b) {
  if (!P->sig || !is_binop(e)) {
    p_expr(P, e, b, PREC_LOWEST);
    return;
  }
  trx__buf_t inner = {0};
  p_expr(P, e, &inner, PREC_LOWEST);
  if (inner.oom) P->oom = true;
  put_quoted(b, inner.s ? inner.s : "", inner.n);
  trx__buf_free(&inner);
}

/* Items of an Array of exprs (or types) joined by ", ". */
static void p_items(trx__P* P, TVMFFIObject* arr, trx__buf_t* b, bool types, bool dims) {
  int64_t n = arr ? tether_array_size(arr) : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i) trx__buf_puts(b, ", ");
    TVMFFIObject* x = trx__array_obj(arr, i);
    if (types) {
      p_type(P, x, b);
    } else if (dims) {
      p_dim(P, x, b);
    } else {
      p_expr(P, x, b, PREC_LOWEST);
    }
  }
}

/* A Python tuple of the array's items: "(a, b)", "(a,)", "()". */
static void p_tuple_doc(trx__P* P, TVMFFIObject* arr, trx__buf_t* b, bool types, bool dims) {
  trx__buf_puts(b, "(");
  p_items(P, arr, b, types, dims);
  if (arr && tether_array_size(arr) == 1) trx__buf_puts(b, ",");
  trx__buf_puts(b, ")");
}

static void p_int_imm(trx__P* P, trx_int_imm_t* v, trx__buf_t* b) {
  DLDataType t = expr_dtype((TVMFFIObject*)v);
  bool is_bool = dtype_is_bool(t);
  if (!P->tir || (t.code == kDLInt && t.bits == 32 && t.lanes == 1)) {
    if (is_bool) {
      trx__buf_puts(b, v->value ? "True" : "False");
    } else {
      sb_put_i64(b, v->value);
    }
    return;
  }
  put_T(P, b, "");
  put_dtype(b, t);
  if (is_bool) {
    trx__buf_puts(b, v->value ? "(True)" : "(False)");
  } else {
    trx__buf_puts(b, "(");
    sb_put_i64(b, v->value);
    trx__buf_puts(b, ")");
  }
}

static void p_float_imm(trx__P* P, trx_float_imm_t* v, trx__buf_t* b) {
  put_T(P, b, "");
  put_dtype(b, expr_dtype((TVMFFIObject*)v));
  trx__buf_puts(b, "(");
  put_float(b, v->value);
  trx__buf_puts(b, ")");
}

/* IEEE half -> double without libm. */
static double half_to_double(uint16_t h) {
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 31) {
    v = mant ? (0.0 / 0.0) : (1.0 / 0.0);
  } else {
    v = exp == 0 ? (double)mant : (double)(mant + 1024);
    int e = exp == 0 ? -24 : exp - 25;
    for (; e < 0; ++e) v *= 0.5;
    for (; e > 0; --e) v *= 2.0;
  }
  return (h & 0x8000) ? -v : v;
}

/* R.const(v, "dtype") for a CPU scalar of a signed int, bool or float16/32/64 dtype;
 * otherwise the metadata reference. */
static void p_const(trx__P* P, trx_tensor_const_t* c, trx__buf_t* b) {
  const TVMFFIAny* tv = &c->value;
  DLTensor* dl = tv->type_index == kTVMFFITensor ? tether_tensor_dl(tv->v_obj) : NULL;
  if (dl != NULL && dl->ndim == 0 && dl->device.device_type == kDLCPU && dl->dtype.lanes == 1 &&
      dl->data != NULL) {
    const char* p = (const char*)dl->data + dl->byte_offset;
    DLDataType t = dl->dtype;
    trx__buf_t v = {0};
    bool ok = true;
    if (dtype_is_bool(t)) {
      trx__buf_puts(&v, *(const uint8_t*)p ? "True" : "False");
    } else if (t.code == kDLInt && (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) {
      int64_t x = t.bits == 8 ? *(const int8_t*)p
                  : t.bits == 16 ? *(const int16_t*)p
                  : t.bits == 32 ? *(const int32_t*)p
                                 : *(const int64_t*)p;
      trx__buf_printf(&v, "%lld", (long long)x);
    } else if (t.code == kDLFloat && (t.bits == 16 || t.bits == 32 || t.bits == 64)) {
      double x = t.bits == 16 ? half_to_double(*(const uint16_t*)p)
                 : t.bits == 32 ? (double)*(const float*)p
                                : *(const double*)p;
      put_float(&v, x);
    } else {
      ok = false;
    }
    if (ok) {
      put_R(P, b, "const(");
      trx__buf_put(b, v.s ? v.s : "", v.n);
      trx__buf_puts(b, ", \"");
      put_dtype(b, t);
      trx__buf_puts(b, "\")");
      trx__buf_free(&v);
      return;
    }
    trx__buf_free(&v);
  }
  p_metadata(P, (TVMFFIObject*)c, b);
}

static void p_global_var(trx__P* P, TVMFFIObject* g, trx__buf_t* b) {
  TVMFFIByteArray name = trx__str(&((trx_global_var_t*)g)->name_hint);
  if (P->mod != NULL) {
    TVMFFIAny key = tether_any_object(g);
    if (tether_map_find(((trx_ir_module_t*)P->mod)->functions, &key) != NULL) {
      int fr = frame_func(P);
      if (P->frames[fr]->kind == FR_FUNC) {
        if (!P->frames[fr]->cls_defined) {
          stmts_push_cstr(P, frame_body(P, fr), "cls = Module");
          P->frames[fr]->cls_defined = true;
        }
        trx__buf_puts(b, "cls.");
      }
    }
  }
  trx__buf_put(b, name.data, name.size);
}

/* R.<op name without the "relax." prefix>. */
static void p_op_name(trx__P* P, TVMFFIObject* op, trx__buf_t* b) {
  TVMFFIByteArray name = trx__str(&((trx_op_t*)op)->name);
  if (name.size > 6 && memcmp(name.data, "relax.", 6) == 0) {
    put_R(P, b, "");
    trx__buf_put(b, name.data + 6, name.size - 6);
  } else {
    trx__buf_put(b, name.data, name.size);
  }
}

typedef struct {
  TVMFFIByteArray key;
  const TVMFFIAny* value;
} trx__kv;

static int kv_cmp(const void* a, const void* b) {
  const trx__kv* x = a;
  const trx__kv* y = b;
  size_t n = x->key.size < y->key.size ? x->key.size : y->key.size;
  int c = memcmp(x->key.data, y->key.data, n);
  if (c != 0) return c;
  return x->key.size < y->key.size ? -1 : x->key.size > y->key.size;
}

/* The entries of a Map/Dict with string keys sorted by key (malloc'd; NULL when empty or
 * out of memory; *n = count).  `skip` (may be NULL) names a key to leave out. */
static trx__kv* sorted_entries(trx__P* P, TVMFFIObject* map, const char* skip, size_t* n) {
  *n = 0;
  int64_t size = map ? tether_map_size(map) : 0;
  if (size <= 0) return NULL;
  trx__kv* kv = malloc(sizeof(trx__kv) * (size_t)size);
  if (kv == NULL) {
    P->oom = true;
    return NULL;
  }
  int64_t pos = 0;
  const TVMFFIAny *k, *v;
  while (tether_map_next(map, &pos, &k, &v)) {
    TVMFFIByteArray key;
    if (!tether_any_get_str(k, &key)) key = (TVMFFIByteArray){"", 0};
    if (skip != NULL && key.size == strlen(skip) && memcmp(key.data, skip, key.size) == 0) continue;
    kv[(*n)++] = (trx__kv){key, v};
  }
  qsort(kv, *n, sizeof(*kv), kv_cmp);
  return kv;
}

/* {"k": v, ...} sorted by key. */
static void p_dict(trx__P* P, TVMFFIObject* map, const char* skip, trx__buf_t* b) {
  size_t n;
  trx__kv* kv = sorted_entries(P, map, skip, &n);
  trx__buf_puts(b, "{");
  for (size_t i = 0; i < n; ++i) {
    if (i) trx__buf_puts(b, ", ");
    put_quoted(b, kv[i].key.data, kv[i].key.size);
    trx__buf_puts(b, ": ");
    p_value(P, kv[i].value, b);
  }
  trx__buf_puts(b, "}");
  free(kv);
}

/* Attribute values: ints, bools, floats, strings, dtypes, None, arrays, maps, IR nodes. */
static void p_value(trx__P* P, const TVMFFIAny* v, trx__buf_t* b) {
  TVMFFIByteArray s;
  switch (v->type_index) {
    case kTVMFFINone: trx__buf_puts(b, "None"); return;
    case kTVMFFIInt: sb_put_i64(b, v->v_int64); return;
    case kTVMFFIBool: trx__buf_puts(b, v->v_int64 ? "True" : "False"); return;
    case kTVMFFIFloat: put_float(b, v->v_float64); return;
    case kTVMFFIDataType:
      trx__buf_puts(b, "\"");
      put_dtype(b, v->v_dtype);
      trx__buf_puts(b, "\"");
      return;
    default: break;
  }
  if (tether_any_get_str(v, &s)) {
    put_quoted(b, s.data, s.size);
    return;
  }
  if (!tether_any_is_object(v)) {
    trx__buf_puts(b, tether_any_type_key(v));
    return;
  }
  TVMFFIObject* o = v->v_obj;
  if (o->type_index == kTVMFFIArray || o->type_index == kTVMFFIList) {
    bool list = o->type_index == kTVMFFIList;
    int64_t n = list ? tether_list_size(o) : tether_array_size(o);
    trx__buf_puts(b, "[");
    for (int64_t i = 0; i < n; ++i) {
      if (i) trx__buf_puts(b, ", ");
      p_value(P, list ? tether_list_at(o, i) : tether_array_at(o, i), b);
    }
    trx__buf_puts(b, "]");
  } else if (o->type_index == kTVMFFIMap || o->type_index == kTVMFFIDict) {
    p_dict(P, o, NULL, b);
  } else if (trx_is(o, TRX_TYPE)) {
    p_type(P, o, b);
  } else if (trx_is(o, TRX_EXPR)) {
    p_expr(P, o, b, PREC_LOWEST);
  } else if (o->type_index == kTVMFFIOpaquePyObject || o->type_index == kTVMFFITensor) {
    p_metadata(P, o, b); /* as TVM: metadata["ffi.OpaquePyObject"][i], metadata["ffi.Tensor"][i] */
  } else {
    TVMFFIAny text = tether_any_none();
    TVMFFIByteArray t;
    if (tether_repr(v, &text) == 0 && tether_any_get_str(&text, &t)) {
      trx__buf_put(b, t.data, t.size);
    } else {
      trx__clear_error();
      trx__buf_puts(b, tether_type_key(o->type_index));
    }
    tether_any_release(&text);
  }
}

/* Calls `fn` for each reflected field of `obj`, ancestors' fields first. */
static void for_each_field(TVMFFIObject* obj, void (*fn)(const TVMFFIFieldInfo*, void*), void* ctx) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    if (t == NULL) continue;
    for (int32_t i = 0; i < t->num_fields; ++i) fn(&t->fields[i], ctx);
  }
}

typedef struct {
  trx__P* P;
  TVMFFIObject* obj;
  trx__buf_t* b;
  bool* first;
  bool repr_style; /* type_key(name=repr, ...) instead of kwargs */
} trx__field_ctx;

static void field_cb(const TVMFFIFieldInfo* f, void* ctx) {
  trx__field_ctx* c = ctx;
  if (f->getter == NULL) return;
  if (c->repr_style && (f->flags & kTVMFFIFieldFlagBitMaskReprOff)) return;
  TVMFFIAny v = tether_any_none();
  if (f->getter((char*)c->obj + f->offset, &v) != 0) {
    trx__clear_error();
    return;
  }
  if (!*c->first) trx__buf_puts(c->b, ", ");
  *c->first = false;
  trx__buf_put(c->b, f->name.data, f->name.size);
  trx__buf_puts(c->b, "=");
  if (c->repr_style) {
    TVMFFIAny text = tether_any_none();
    TVMFFIByteArray t;
    if (tether_repr(&v, &text) == 0 && tether_any_get_str(&text, &t)) {
      trx__buf_put(c->b, t.data, t.size);
    } else {
      trx__clear_error();
      trx__buf_puts(c->b, "...");
    }
    tether_any_release(&text);
  } else {
    p_value(c->P, &v, c->b);
  }
  tether_any_release(&v);
}

/* The kwargs of a call's attrs: DictAttrs sorted by key, others in field order. */
static void p_attrs_kwargs(trx__P* P, TVMFFIObject* attrs, trx__buf_t* b, bool* first) {
  if (attrs == NULL) return;
  if (trx_is(attrs, TRX_DICT_ATTRS)) {
    size_t n;
    trx__kv* kv = sorted_entries(P, ((trx_dict_attrs_t*)attrs)->dict, NULL, &n);
    for (size_t i = 0; i < n; ++i) {
      if (!*first) trx__buf_puts(b, ", ");
      *first = false;
      trx__buf_put(b, kv[i].key.data, kv[i].key.size);
      trx__buf_puts(b, "=");
      p_value(P, kv[i].value, b);
    }
    free(kv);
    return;
  }
  trx__field_ctx c = {P, attrs, b, first, false};
  for_each_field(attrs, field_cb, &c);
}

/* Expressions nest without bound (a chain of 100,000 Calls is ordinary input), so p_expr
 * runs an explicit work stack instead of recursing: a composite node writes what precedes
 * its first child, then pushes the rest of its text as tasks -- child expressions, literal
 * separators, and a closing step -- in reverse order.  Tasks run in the order the recursive
 * form would write, so the text and the side effects of printing (names defined on first
 * use) come out the same.  A nested p_expr (from a type, an attribute value, a quoted dim)
 * runs its own tasks above the current ones and returns when they are done. */
typedef enum { TK_EXPR, TK_TEXT, TK_CALL_END, TK_GET_ITEM_END, TK_SYMBOL } trx__task_kind;

struct trx__task {
  trx__task_kind kind;
  int arg;       /* TK_EXPR: precedence; TK_CALL_END: whether no argument was written */
  const void* p; /* the node, or the text of TK_TEXT (a string literal) */
};

static void task_push(trx__P* P, trx__task_kind kind, const void* p, int arg) {
  if (!p_grow(P, (void**)&P->tasks, &P->captasks, P->ntasks + 1, sizeof(*P->tasks))) return;
  P->tasks[P->ntasks++] = (struct trx__task){kind, arg, p};
}

/* Pushes the items of an Array of exprs joined by ", " (to run before whatever was pushed
 * earlier). */
/* call_args: the items are a Call's arguments, where an ExternFunc shows as its quoted
 * symbol (TVM prints R.call_dps_packed("f", ...)); elsewhere it is R.ExternFunc("f"). */
static void task_push_items(trx__P* P, TVMFFIObject* arr, int64_t n, bool sep_first, bool call_args) {
  for (int64_t i = n - 1; i >= 0; --i) {
    TVMFFIObject* item = trx__array_obj(arr, i);
    task_push(P, call_args && trx_is(item, TRX_EXTERN_FUNC) ? TK_SYMBOL : TK_EXPR, item, PREC_LOWEST);
    if (i > 0 || sep_first) task_push(P, TK_TEXT, ", ", 0);
  }
}

static bool is_op_named(TVMFFIObject* op, const char* name);

/* The destination-passing calls show their one ty_arg as `out_ty=`, before any attrs: the
 * TensorType, or a list of the fields of a TupleType. */
static bool p_out_ty(trx__P* P, trx_call_t* c, trx__buf_t* b, bool* first) {
  if (!is_op_named(c->op, "relax.call_tir") && !is_op_named(c->op, "relax.call_dps_packed")) return false;
  if (c->ty_args == NULL || tether_array_size(c->ty_args) != 1) return false;
  TVMFFIObject* ty = trx__array_obj(c->ty_args, 0);
  if (!*first) trx__buf_puts(b, ", ");
  *first = false;
  trx__buf_puts(b, "out_ty=");
  if (trx_is(ty, TRX_TUPLE_TYPE)) {
    trx__buf_puts(b, "[");
    p_items(P, ((trx_tuple_type_t*)ty)->fields, b, true, false);
    trx__buf_puts(b, "]");
  } else {
    p_type(P, ty, b);
  }
  return true;
}

/* What follows a call's positional arguments: attrs, ty_args and the closing parenthesis. */
static void p_call_end(trx__P* P, trx_call_t* c, trx__buf_t* b, bool first) {
  bool out_ty = p_out_ty(P, c, b, &first);
  p_attrs_kwargs(P, c->attrs, b, &first);
  if (!out_ty && c->ty_args != NULL && tether_array_size(c->ty_args) > 0) {
    if (!first) trx__buf_puts(b, ", ");
    trx__buf_puts(b, "ty_args=");
    p_tuple_doc(P, c->ty_args, b, true, false);
  }
  trx__buf_puts(b, ")");
}

static void p_call(trx__P* P, trx_call_t* c, trx__buf_t* b) {
  bool first = true, op_expr = false;
  TVMFFIObject* op = c->op;
  if (trx_is(op, TRX_OP)) {
    p_op_name(P, op, b);
    trx__buf_puts(b, "(");
  } else if (trx_is(op, TRX_EXTERN_FUNC)) {
    TVMFFIByteArray sym = trx__str(&((trx_extern_func_t*)op)->global_symbol);
    put_R(P, b, "call_packed(");
    put_quoted(b, sym.data, sym.size);
    first = false;
  } else {
    op_expr = true;
  }
  int64_t n = c->args ? tether_array_size(c->args) : 0;
  task_push(P, TK_CALL_END, c, first && n == 0);
  task_push_items(P, c->args, n, !first, true);
  if (op_expr) {
    task_push(P, TK_TEXT, "(", 0);
    task_push(P, TK_EXPR, op, PREC_ATOM);
  }
}

/* Operators are left-associative: a right operand of equal precedence gets parentheses (a
 * left one too for comparisons, which Python would chain).  ~a is the one unary op. */
static bool p_binop(trx__P* P, TVMFFIObject* e, trx__buf_t* b, int prec) {
  if (trx_is(e, TRX_PRIM_BITNOT)) {
    bool paren = PREC_UNARY < prec;
    trx__buf_puts(b, paren ? "(~" : "~");
    if (paren) task_push(P, TK_TEXT, ")", 0);
    task_push(P, TK_EXPR, ((trx_unop_t*)e)->a, PREC_UNARY);
    return true;
  }
  for (size_t i = 0; i < sizeof(trx__binops) / sizeof(trx__binops[0]); ++i) {
    if (e->type_index != trx_type_index[trx__binops[i].kind]) continue;
    trx_binop_t* x = (trx_binop_t*)e;
    int my = trx__binops[i].prec;
    if (my == 0 || trx__op_folds(trx__binops[i].kind, x->a, x->b)) {
      /* T.min / T.max, or T.Add(n, T.int64(0)): the operator would fold it */
      put_T(P, b, my == 0 ? trx__binops[i].op : tether_type_key(e->type_index) + strlen("prim."));
      trx__buf_puts(b, "(");
      task_push(P, TK_TEXT, ")", 0);
      task_push(P, TK_EXPR, x->b, PREC_LOWEST);
      task_push(P, TK_TEXT, ", ", 0);
      task_push(P, TK_EXPR, x->a, PREC_LOWEST);
      return true;
    }
    bool paren = my < prec;
    if (paren) {
      trx__buf_puts(b, "(");
      task_push(P, TK_TEXT, ")", 0);
    }
    task_push(P, TK_EXPR, x->b, my + 1);
    task_push(P, TK_TEXT, trx__binops[i].op, 0);
    task_push(P, TK_EXPR, x->a, my == PREC_CMP ? my + 1 : my);
    return true;
  }
  return false;
}

/* One node: writes its text up to its first child and pushes the rest. */
static void p_expr_step(trx__P* P, TVMFFIObject* e, trx__buf_t* b, int prec) {
  if (e == NULL) {
    trx__buf_puts(b, "None");
  } else if (trx_is(e, TRX_VAR)) {
    p_var(P, e, b);
  } else if (trx_is(e, TRX_INT_IMM)) {
    p_int_imm(P, (trx_int_imm_t*)e, b);
  } else if (trx_is(e, TRX_FLOAT_IMM)) {
    p_float_imm(P, (trx_float_imm_t*)e, b);
  } else if (trx_is(e, TRX_STRING_IMM)) {
    TVMFFIByteArray s = trx__str(&((trx_string_imm_t*)e)->value);
    put_R(P, b, "str(");
    put_quoted(b, s.data, s.size);
    trx__buf_puts(b, ")");
  } else if (trx_is(e, TRX_DATATYPE_IMM)) {
    put_R(P, b, "dtype(\"");
    put_dtype(b, ((trx_datatype_imm_t*)e)->value);
    trx__buf_puts(b, "\")");
  } else if (trx_is(e, TRX_TENSOR_CONST)) {
    p_const(P, (trx_tensor_const_t*)e, b);
  } else if (p_binop(P, e, b, prec)) {
  } else if (trx_is(e, TRX_OP)) {
    p_op_name(P, e, b);
  } else if (trx_is(e, TRX_CALL)) {
    p_call(P, (trx_call_t*)e, b);
  } else if (trx_is(e, TRX_TUPLE)) {
    /* a Python tuple: "(a, b)", "(a,)" */
    TVMFFIObject* f = ((trx_tuple_t*)e)->fields;
    int64_t n = f != NULL ? tether_array_size(f) : 0;
    if (n == 0) {
      put_R(P, b, "tuple()");
    } else {
      trx__buf_puts(b, "(");
      task_push(P, TK_TEXT, n == 1 ? ",)" : ")", 0);
      task_push_items(P, f, n, false, false);
    }
  } else if (trx_is(e, TRX_TUPLE_GET_ITEM)) {
    trx_tuple_get_item_t* g = (trx_tuple_get_item_t*)e;
    task_push(P, TK_GET_ITEM_END, g, 0);
    task_push(P, TK_EXPR, g->tuple_value, PREC_ATOM);
  } else if (trx_is(e, TRX_SHAPE_EXPR)) {
    put_R(P, b, "shape([");
    p_items(P, ((trx_shape_expr_t*)e)->values, b, false, true);
    trx__buf_puts(b, "])");
  } else if (trx_is(e, TRX_GLOBAL_VAR)) {
    p_global_var(P, e, b);
  } else if (trx_is(e, TRX_EXTERN_FUNC)) {
    TVMFFIByteArray sym = trx__str(&((trx_extern_func_t*)e)->global_symbol);
    put_R(P, b, "ExternFunc(");
    put_quoted(b, sym.data, sym.size);
    trx__buf_puts(b, ")");
  } else {
    p_metadata(P, e, b);
  }
}

static void p_expr(trx__P* P, TVMFFIObject* e, trx__buf_t* b, int prec) {
  size_t base = P->ntasks;
  task_push(P, TK_EXPR, e, prec);
  while (P->ntasks > base) {
    struct trx__task t = P->tasks[--P->ntasks];
    switch (t.kind) {
      case TK_EXPR:
        p_expr_step(P, (TVMFFIObject*)t.p, b, t.arg);
        break;
      case TK_TEXT:
        trx__buf_puts(b, t.p);
        break;
      case TK_CALL_END:
        p_call_end(P, (trx_call_t*)t.p, b, t.arg != 0);
        break;
      case TK_GET_ITEM_END:
        trx__buf_puts(b, "[");
        sb_put_i64(b, ((const trx_tuple_get_item_t*)t.p)->index);
        trx__buf_puts(b, "]");
        break;
      case TK_SYMBOL: {
        TVMFFIByteArray sym = trx__str(&((const trx_extern_func_t*)t.p)->global_symbol);
        put_quoted(b, sym.data, sym.size);
        break;
      }
    }
  }
}

/* ---- types -------------------------------------------------------------------------------------- */

static void p_type(trx__P* P, TVMFFIObject* t, trx__buf_t* b) {
  if (t == NULL) {
    trx__buf_puts(b, "None");
  } else if (trx_is(t, TRX_TENSOR_TYPE)) {
    trx_tensor_type_t* x = (trx_tensor_type_t*)t;
    trx__buf_t parts = {0};
    if (x->shape != NULL) {
      if (trx_is(x->shape, TRX_SHAPE_EXPR)) {
        p_tuple_doc(P, ((trx_shape_expr_t*)x->shape)->values, &parts, false, true);
      } else {
        p_expr(P, x->shape, &parts, PREC_LOWEST);
      }
    }
    if (!trx__dtype_is_void(trx_tensor_dtype(x))) {
      trx__buf_puts(&parts, parts.n ? ", dtype=\"" : "dtype=\"");
      put_dtype(&parts, trx_tensor_dtype(x));
      trx__buf_puts(&parts, "\"");
    }
    if (x->shape == NULL && x->ndim != -1) {
      trx__buf_printf(&parts, "%sndim=%lld", parts.n ? ", " : "", (long long)x->ndim);
    }
    put_R(P, b, "Tensor");
    if (parts.n) {
      trx__buf_puts(b, "(");
      trx__buf_put(b, parts.s, parts.n);
      trx__buf_puts(b, ")");
    }
    if (parts.oom) P->oom = true;
    trx__buf_free(&parts);
  } else if (trx_is(t, TRX_SHAPE_TYPE)) {
    trx_shape_type_t* x = (trx_shape_type_t*)t;
    if (x->values != NULL) {
      put_R(P, b, "Shape([");
      p_items(P, x->values, b, false, true);
      trx__buf_puts(b, "])");
    } else {
      put_R(P, b, "Shape");
      trx__buf_printf(b, "(ndim=%lld)", (long long)x->ndim);
    }
  } else if (trx_is(t, TRX_TUPLE_TYPE)) {
    TVMFFIObject* f = ((trx_tuple_type_t*)t)->fields;
    int64_t n = f ? tether_array_size(f) : 0;
    if (P->tir) {
      if (n == 0) {
        trx__buf_puts(b, "None");
        return;
      }
      put_T(P, b, "Tuple(");
    } else {
      put_R(P, b, "Tuple");
      if (n == 0) return;
      trx__buf_puts(b, "(");
    }
    p_items(P, f, b, true, false);
    trx__buf_puts(b, ")");
  } else if (trx_is(t, TRX_ANY_TYPE)) {
    put_R(P, b, "Any");
  } else if (trx_is(t, TRX_PRIM_TYPE)) {
    put_T(P, b, "");
    put_dtype(b, ((trx_prim_type_t*)t)->dtype);
  } else if (trx_is(t, TRX_FUNC_TYPE)) {
    trx_func_type_t* x = (trx_func_type_t*)t;
    put_R(P, b, "Callable");
    if (x->params == NULL) {
      bool ret = x->ret != NULL && !trx_is(x->ret, TRX_ANY_TYPE);
      if (ret || x->purity) trx__buf_puts(b, "(");
      if (ret) {
        trx__buf_puts(b, "ret=");
        p_type(P, x->ret, b);
      }
      if (x->purity) trx__buf_puts(b, ret ? ", purity=True" : "purity=True");
      if (ret || x->purity) trx__buf_puts(b, ")");
      return;
    }
    trx__buf_puts(b, "(");
    p_tuple_doc(P, x->params, b, true, false);
    trx__buf_puts(b, ", ");
    p_type(P, x->ret, b);
    trx__buf_puts(b, x->purity ? ", True)" : ", False)");
  } else if (trx_is(t, TRX_PACKED_FUNC_TYPE)) {
    put_R(P, b, "PackedFunc");
  } else if (trx_is(t, TRX_STRING_TYPE)) {
    trx__buf_puts(b, "I.StringType()");
  } else {
    p_metadata(P, t, b);
  }
}

/* ---- bindings, blocks, functions, modules ----------------------------------------------------- */

static void p_function(trx__P* P, TVMFFIObject* fn, const char* name, bool top, trx__stmts* out);

/* The type inference would give `value` (new reference or NULL), to hide annotations. */
static TVMFFIObject* p_infer(TVMFFIObject* value) {
  TVMFFIObject* r = NULL;
  if (trx_is(value, TRX_CALL)) {
    TVMFFIObject* op = ((trx_call_t*)value)->op;
    if (trx_is(op, TRX_OP)) {
      r = trx_infer_type(value);
    } else {
      TVMFFIObject* fty = trx__ty(op);
      if (trx_is(fty, TRX_FUNC_TYPE)) r = trx__ref(((trx_func_type_t*)fty)->ret);
    }
  } else if (trx_is(value, TRX_TUPLE)) {
    TVMFFIObject* f = ((trx_tuple_t*)value)->fields;
    int64_t n = f ? tether_array_size(f) : 0;
    TVMFFIObject** tys = malloc(sizeof(TVMFFIObject*) * (size_t)(n > 0 ? n : 1));
    bool all = tys != NULL;
    for (int64_t i = 0; all && i < n; ++i) {
      tys[i] = trx__ty(trx__array_obj(f, i));
      all = tys[i] != NULL;
    }
    TVMFFIObject* arr = all ? trx__array_of(tys, n) : NULL;
    if (arr != NULL) {
      r = trx_tuple_type_new(arr);
      TVMFFIObjectDecRef(arr);
    }
    free(tys);
  } else if (trx_is(value, TRX_TUPLE_GET_ITEM)) {
    trx_tuple_get_item_t* g = (trx_tuple_get_item_t*)value;
    TVMFFIObject* tty = trx__ty(g->tuple_value);
    if (trx_is(tty, TRX_TUPLE_TYPE)) {
      TVMFFIObject* f = ((trx_tuple_type_t*)tty)->fields;
      if (g->index >= 0 && f != NULL && g->index < tether_array_size(f)) {
        r = trx__ref(trx__array_obj(f, g->index));
      }
    }
  } else if (trx_is(value, TRX_VAR)) {
    r = trx__ref(trx__ty(value));
  }
  if (r == NULL) {
    trx__clear_error();
  }
  return r;
}

static bool is_op_named(TVMFFIObject* op, const char* name) {
  if (!trx_is(op, TRX_OP)) return false;
  TVMFFIByteArray n = trx__str(&((trx_op_t*)op)->name);
  return n.size == strlen(name) && memcmp(n.data, name, n.size) == 0;
}

/* The annotation of a bound var into `b`; false when there is none or inference would
 * reproduce it and hiding is asked for (show_all_ty=false, or call_tir/call_dps_packed). */
static bool p_ann(trx__P* P, TVMFFIObject* var, TVMFFIObject* value, trx__buf_t* b) {
  TVMFFIObject* ty = trx__ty(var);
  if (ty == NULL) return false;
  bool hide = !P->show_all;
  if (trx_is(value, TRX_CALL)) {
    TVMFFIObject* op = ((trx_call_t*)value)->op;
    if (is_op_named(op, "relax.call_tir") || is_op_named(op, "relax.call_dps_packed")) hide = true;
  }
  if (hide) {
    TVMFFIObject* inferred = p_infer(value);
    if (inferred != NULL) {
      TVMFFIAny a = tether_any_object(inferred), c = tether_any_object(ty);
      bool same = trx_structural_equal(&a, &c, false);
      TVMFFIObjectDecRef(inferred);
      if (same) return false;
    }
  }
  p_type(P, ty, b);
  return true;
}

/* An expression as the right side of `=`: a tuple of 2+ fields loses its parentheses.
 * *paren receives the ordinary form, *bare the assignment form (both malloc'd). */
static void p_rhs(trx__P* P, TVMFFIObject* e, char** paren, char** bare) {
  trx__buf_t b = {0};
  TVMFFIObject* f = trx_is(e, TRX_TUPLE) ? ((trx_tuple_t*)e)->fields : NULL;
  if (f != NULL && tether_array_size(f) >= 2) {
    p_items(P, f, &b, false, false);
    trx__buf_t p = {0};
    trx__buf_puts(&p, "(");
    trx__buf_put(&p, b.s ? b.s : "", b.n);
    trx__buf_puts(&p, ")");
    if (b.oom) p.oom = true;
    *paren = sb_take(&p);
  } else {
    p_expr(P, e, &b, PREC_LOWEST);
    *paren = b.s ? strdup(b.s) : calloc(1, 1);
    if (b.oom) {
      free(*paren);
      *paren = NULL;
    }
  }
  *bare = sb_take(&b);
  if (*paren == NULL || *bare == NULL) P->oom = true;
}

static char* assign_text(const char* name, const char* ann, const char* rhs) {
  trx__buf_t b = {0};
  trx__buf_puts(&b, name ? name : "");
  if (ann != NULL) {
    trx__buf_puts(&b, ": ");
    trx__buf_puts(&b, ann);
  }
  trx__buf_puts(&b, " = ");
  trx__buf_puts(&b, rhs ? rhs : "");
  return sb_take(&b);
}

/* The statements of a SeqExpr (its own frame) into `out`; *fin_paren / *fin_bare receive
 * its body expression (malloc'd). */
static void p_seq(trx__P* P, TVMFFIObject* seq, trx__stmts* out, char** fin_paren, char** fin_bare);

/* if cond: ... else: ...; each branch ends in `name: ann = <value>` when name is given,
 * else in the bare value. */
static trx__stmt* p_if(trx__P* P, trx_if_t* x, const char* name, const char* ann) {
  trx__buf_t cond = {0};
  p_expr(P, x->cond, &cond, PREC_LOWEST);
  trx__stmt* s = stmt_new(P, ST_IF, sb_take(&cond));
  if (s == NULL) return NULL;
  TVMFFIObject* branches[2] = {x->true_branch, x->false_branch};
  for (int i = 0; i < 2; ++i) {
    trx__stmts* dst = i == 0 ? &s->body : &s->orelse;
    char *fp = NULL, *fb = NULL;
    p_seq(P, branches[i], dst, &fp, &fb);
    if (name != NULL) {
      stmts_push(P, dst, stmt_new(P, ST_LINE, assign_text(name, ann, fb)));
      free(fp);
    } else {
      stmts_push(P, dst, stmt_new(P, ST_LINE, fp));
    }
    free(fb);
  }
  return s;
}

static void p_binding(trx__P* P, TVMFFIObject* bnd, trx__stmts* out) {
  trx_binding_t* base = (trx_binding_t*)bnd;
  TVMFFIObject* var = base->var;
  TVMFFIByteArray raw = trx_is(var, TRX_VAR) ? trx__str(&((trx_var_t*)var)->name)
                                             : (TVMFFIByteArray){"", 0};
  trx__buf_t ann = {0};
  if (trx_is(bnd, TRX_MATCH_CAST)) {
    trx_match_cast_t* m = (trx_match_cast_t*)bnd;
    bool has = P->show_all && p_ann(P, var, m->value, &ann);
    trx__buf_t rhs = {0};
    put_R(P, &rhs, "match_cast(");
    p_expr(P, m->value, &rhs, PREC_LOWEST);
    trx__buf_puts(&rhs, ", ");
    p_type(P, m->ty, &rhs);
    trx__buf_puts(&rhs, ")");
    const char* name = name_define(P, var, raw.data, raw.size, frame_top(P));
    stmts_push(P, out, stmt_new(P, ST_LINE, assign_text(name, has ? ann.s : NULL, rhs.s)));
    if (rhs.oom) P->oom = true;
    trx__buf_free(&rhs);
  } else if (trx_is(bnd, TRX_VAR_BINDING)) {
    TVMFFIObject* value = ((trx_var_binding_t*)bnd)->value;
    if (trx_is(value, TRX_IF)) {
      bool has = p_ann(P, var, value, &ann);
      const char* name = name_define(P, var, raw.data, raw.size, frame_top(P));
      stmts_push(P, out, p_if(P, (trx_if_t*)value, name, has ? ann.s : NULL));
    } else if (trx_is(value, TRX_FUNCTION)) {
      const char* name = name_define(P, var, raw.data, raw.size, frame_top(P));
      p_function(P, value, name ? name : "", false, out);
    } else {
      char *paren = NULL, *bare = NULL;
      p_rhs(P, value, &paren, &bare);
      TVMFFIObject* vty = trx__ty(var);
      if (trx_is(vty, TRX_TUPLE_TYPE) && (((trx_tuple_type_t*)vty)->fields == NULL ||
                                          tether_array_size(((trx_tuple_type_t*)vty)->fields) == 0)) {
        /* A void binding prints as its value alone; the var stays undefined. */
        stmts_push(P, out, stmt_new(P, ST_LINE, paren));
        paren = NULL;
      } else {
        bool has = p_ann(P, var, value, &ann);
        const char* name = name_define(P, var, raw.data, raw.size, frame_top(P));
        stmts_push(P, out, stmt_new(P, ST_LINE, assign_text(name, has ? ann.s : NULL, bare)));
      }
      free(paren);
      free(bare);
    }
  }
  if (ann.oom) P->oom = true;
  trx__buf_free(&ann);
}

/* A block's statements go to frame `fr` after any definitions its bindings made there. */
static void p_block(trx__P* P, TVMFFIObject* blk, int fr) {
  trx_binding_block_t* x = (trx_binding_block_t*)blk;
  trx__stmts local = {0};
  int64_t n = x->bindings ? tether_array_size(x->bindings) : 0;
  for (int64_t i = 0; i < n; ++i) p_binding(P, trx__array_obj(x->bindings, i), &local);
  if (!trx_is(blk, TRX_DATAFLOW_BLOCK)) {
    stmts_move(P, frame_body(P, fr), &local);
    return;
  }
  trx__buf_t outs = {0};
  put_R(P, &outs, "output(");
  bool first = true;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* var = ((trx_binding_t*)trx__array_obj(x->bindings, i))->var;
    if (var == NULL || trx_is(var, TRX_DATAFLOW_VAR)) continue;
    if (!first) trx__buf_puts(&outs, ", ");
    first = false;
    p_expr(P, var, &outs, PREC_LOWEST);
  }
  trx__buf_puts(&outs, ")");
  stmts_push_line(P, &local, &outs);
  trx__buf_t with = {0};
  trx__buf_puts(&with, "with ");
  put_R(P, &with, "dataflow():");
  trx__stmt* s = stmt_new(P, ST_SCOPE, sb_take(&with));
  if (s == NULL) {
    stmts_free(&local);
    return;
  }
  s->body = local;
  stmts_push(P, frame_body(P, fr), s);
}

static void p_seq(trx__P* P, TVMFFIObject* seq, trx__stmts* out, char** fin_paren, char** fin_bare) {
  int fr = frame_push(P, FR_SEQ);
  if (fr < 0) {
    *fin_paren = *fin_bare = NULL;
    return;
  }
  TVMFFIObject* body = seq;
  if (trx_is(seq, TRX_SEQ_EXPR)) {
    trx_seq_expr_t* s = (trx_seq_expr_t*)seq;
    int64_t n = s->blocks ? tether_array_size(s->blocks) : 0;
    for (int64_t i = 0; i < n; ++i) p_block(P, trx__array_obj(s->blocks, i), fr);
    body = s->body;
  }
  p_rhs(P, body, fin_paren, fin_bare);
  frame_pop(P, out);
}

/* The dialect-import comment lines for what has been printed so far. */
static void p_header(trx__P* P, trx__stmts* out) {
  if (P->use_tv) stmts_push_cstr(P, out, "# from typing import TypeVar");
  if (P->use_I) stmts_push_cstr(P, out, "# from tvm.script import ir as I");
  if (P->use_T) {
    stmts_push_cstr(P, out, "# from tvm.script import tirx as T");
    stmts_push_cstr(P, out, "# from tvm.tirx.layout import Axis");
  }
  if (P->use_R) stmts_push_cstr(P, out, "# from tvm.script import relax as R");
  stmts_push_cstr(P, out, "");
}

/* A string attr value (borrowed bytes) or NULL. */
static bool attr_str(TVMFFIObject* attrs, const char* key, TVMFFIByteArray* out) {
  if (!trx_is(attrs, TRX_DICT_ATTRS)) return false;
  TVMFFIObject* d = ((trx_dict_attrs_t*)attrs)->dict;
  const TVMFFIAny* v = d ? tether_map_find(d, &(TVMFFIAny){.type_index = kTVMFFIRawStr, .v_c_str = key}) : NULL;
  return v != NULL && tether_any_get_str(v, out);
}

static bool attr_has(TVMFFIObject* attrs, const char* key) {
  if (!trx_is(attrs, TRX_DICT_ATTRS)) return false;
  TVMFFIObject* d = ((trx_dict_attrs_t*)attrs)->dict;
  return d && tether_map_find(d, &(TVMFFIAny){.type_index = kTVMFFIRawStr, .v_c_str = key});
}

/* @R.function def name(params) -> ret: body.  `top`: directly in a module or the root (then
 * a global_symbol equal to the name is implied and a missing one makes it private);
 * otherwise a local function, preceded by its own header lines. */
static void p_function(trx__P* P, TVMFFIObject* fn, const char* name, bool top, trx__stmts* out) {
  trx_function_t* f = (trx_function_t*)fn;
  int fr = frame_push(P, FR_FUNC);
  if (fr < 0) return;
  bool saved_sig = P->sig;
  trx__buf_t def = {0};
  trx__buf_printf(&def, "def %s(", name);
  int64_t n = f->params ? tether_array_size(f->params) : 0;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* p = trx__array_obj(f->params, i);
    trx__buf_t ann = {0};
    P->sig = true;
    p_type(P, trx__ty(p), &ann);
    P->sig = saved_sig;
    TVMFFIByteArray raw = trx_is(p, TRX_VAR) ? trx__str(&((trx_var_t*)p)->name)
                                             : (TVMFFIByteArray){"", 0};
    const char* pname = name_define(P, p, raw.data, raw.size, fr);
    trx__buf_printf(&def, "%s%s: ", i ? ", " : "", pname ? pname : "");
    trx__buf_put(&def, ann.s ? ann.s : "", ann.n);
    if (ann.oom) P->oom = true;
    trx__buf_free(&ann);
  }
  trx__buf_puts(&def, ")");
  if (f->ret_ty != NULL) {
    trx__buf_puts(&def, " -> ");
    P->sig = true;
    p_type(P, f->ret_ty, &def);
    P->sig = saved_sig;
  }
  trx__buf_puts(&def, ":");

  TVMFFIObject* attrs = f->base.attrs;
  TVMFFIByteArray gs;
  bool has_gs = attr_has(attrs, "global_symbol");
  bool skip_gs = top && attr_str(attrs, "global_symbol", &gs) && gs.size == strlen(name) &&
                 memcmp(gs.data, name, gs.size) == 0;
  if (trx_is(attrs, TRX_DICT_ATTRS)) {
    TVMFFIObject* d = ((trx_dict_attrs_t*)attrs)->dict;
    int64_t total = d ? tether_map_size(d) : 0;
    if (total > (skip_gs ? 1 : 0)) {
      trx__buf_t line = {0};
      put_R(P, &line, "func_attr(");
      p_dict(P, d, skip_gs ? "global_symbol" : NULL, &line);
      trx__buf_puts(&line, ")");
      stmts_push_line(P, frame_body(P, fr), &line);
    }
  }
  trx__buf_t deco = {0};
  put_R(P, &deco, "function");
  bool priv = top && !has_gs;
  if (!f->is_pure || priv) {
    trx__buf_puts(&deco, "(");
    if (!f->is_pure) trx__buf_puts(&deco, "pure=False");
    if (priv) trx__buf_puts(&deco, f->is_pure ? "private=True" : ", private=True");
    trx__buf_puts(&deco, ")");
  }

  trx__stmts body = {0};
  char *fp = NULL, *fb = NULL;
  p_seq(P, f->body, &body, &fp, &fb);
  stmts_move(P, frame_body(P, fr), &body);
  trx__buf_t ret = {0};
  trx__buf_puts(&ret, "return ");
  trx__buf_puts(&ret, fp ? fp : "");
  stmts_push_line(P, frame_body(P, fr), &ret);
  free(fp);
  free(fb);

  trx__stmts fbody = {0};
  frame_pop(P, &fbody);
  if (!top) p_header(P, out);
  trx__stmt* s = stmt_new(P, ST_FUNC, sb_take(&def));
  if (s == NULL) {
    stmts_free(&fbody);
    trx__buf_free(&deco);
    return;
  }
  s->deco = sb_take(&deco);
  if (s->deco == NULL) P->oom = true;
  s->body = fbody;
  stmts_push(P, out, s);
}

typedef struct {
  TVMFFIObject* gv;
  TVMFFIObject* fn;
  TVMFFIByteArray name;
  int rank; /* 0 other (PrimFunc), 1 ExternFunc, 2 Function, 3 main */
} trx__modfn;

static int modfn_cmp(const void* a, const void* b) {
  const trx__modfn* x = a;
  const trx__modfn* y = b;
  if (x->rank != y->rank) return x->rank - y->rank;
  trx__kv kx = {x->name, NULL}, ky = {y->name, NULL};
  return kv_cmp(&kx, &ky);
}

/* @I.ir_module class Module: attrs, then functions sorted (others, ExternFuncs, Relax
 * functions, main last; by name within each group). */
static void p_module(trx__P* P, TVMFFIObject* m, trx__stmts* out) {
  trx_ir_module_t* mod = (trx_ir_module_t*)m;
  int fr = frame_push(P, FR_MODULE);
  if (fr < 0) return;
  TVMFFIObject* saved = P->mod;
  P->mod = m;
  name_define(P, m, "Module", 6, fr);
  if (trx_is(mod->attrs, TRX_DICT_ATTRS)) {
    TVMFFIObject* d = ((trx_dict_attrs_t*)mod->attrs)->dict;
    if (d != NULL && tether_map_size(d) > 0) {
      trx__buf_t line = {0};
      P->use_I = true;
      trx__buf_puts(&line, "I.module_attrs(");
      p_dict(P, d, NULL, &line);
      trx__buf_puts(&line, ")");
      stmts_push_line(P, frame_body(P, fr), &line);
    }
  }
  int64_t n = mod->functions ? tether_map_size(mod->functions) : 0;
  trx__modfn* fns = n > 0 ? malloc(sizeof(*fns) * (size_t)n) : NULL;
  size_t k = 0;
  if (n > 0 && fns == NULL) P->oom = true;
  int64_t pos = 0;
  const TVMFFIAny *key, *val;
  while (fns != NULL && tether_map_next(mod->functions, &pos, &key, &val)) {
    if (!tether_any_is_object(key) || !tether_any_is_object(val)) continue;
    trx__modfn e = {key->v_obj, val->v_obj, {"", 0}, 0};
    if (trx_is(e.gv, TRX_GLOBAL_VAR)) e.name = trx__str(&((trx_global_var_t*)e.gv)->name_hint);
    e.rank = trx_is(e.fn, TRX_EXTERN_FUNC) ? 1 : trx_is(e.fn, TRX_FUNCTION) ? 2 : 0;
    if (e.name.size == 4 && memcmp(e.name.data, "main", 4) == 0) e.rank = 3;
    fns[k++] = e;
  }
  if (k > 0) qsort(fns, k, sizeof(*fns), modfn_cmp);
  for (size_t i = 0; i < k; ++i) {
    trx__buf_t nm = {0};
    trx__buf_put(&nm, fns[i].name.data, fns[i].name.size);
    if (trx_is(fns[i].fn, TRX_FUNCTION)) {
      P->tv_first = P->ntv;
      p_function(P, fns[i].fn, nm.s ? nm.s : "", true, frame_body(P, fr));
    } else {
      trx__buf_puts(&nm, " = ");
      p_expr(P, fns[i].fn, &nm, PREC_LOWEST);
      stmts_push_line(P, frame_body(P, fr), &nm);
    }
    trx__buf_free(&nm);
  }
  free(fns);
  trx__stmts body = {0};
  frame_pop(P, &body);
  P->mod = saved;
  P->use_I = true;
  trx__stmt* s = stmt_new(P, ST_CLASS, strdup("class Module:"));
  if (s == NULL) {
    stmts_free(&body);
    return;
  }
  s->deco = strdup("I.ir_module");
  if (s->deco == NULL) P->oom = true;
  s->body = body;
  stmts_push(P, out, s);
}

/* ---- rendering ---------------------------------------------------------------------------------- */

static void render_list(trx__buf_t* b, const trx__stmts* l, int indent, bool top);

static void put_newline(trx__buf_t* b, int indent) {
  trx__buf_puts(b, "\n");
  for (int i = 0; i < indent; ++i) trx__buf_puts(b, " ");
}

static void render_stmt(trx__buf_t* b, const trx__stmt* s, int indent) {
  switch (s->kind) {
    case ST_LINE: trx__buf_puts(b, s->text); break;
    case ST_SCOPE:
      trx__buf_puts(b, s->text);
      render_list(b, &s->body, indent + 4, false);
      break;
    case ST_IF:
      trx__buf_printf(b, "if %s:", s->text);
      render_list(b, &s->body, indent + 4, false);
      if (s->orelse.n) {
        put_newline(b, indent);
        trx__buf_puts(b, "else:");
        render_list(b, &s->orelse, indent + 4, false);
      }
      break;
    case ST_FUNC:
    case ST_CLASS:
      trx__buf_printf(b, "@%s", s->deco);
      put_newline(b, indent);
      trx__buf_puts(b, s->text);
      if (s->kind == ST_CLASS && s->body.n == 0) {
        put_newline(b, indent + 4);
        trx__buf_puts(b, "pass");
      }
      render_list(b, &s->body, indent + 4, false);
      if (s->kind == ST_FUNC) trx__buf_puts(b, "\n");
      break;
  }
}

/* Each statement on its own line; at the top level the first has no newline before it. */
static void render_list(trx__buf_t* b, const trx__stmts* l, int indent, bool top) {
  for (size_t i = 0; i < l->n; ++i) {
    if (!top || i > 0) put_newline(b, indent);
    render_stmt(b, l->v[i], indent);
  }
}

/* ---- entry points ---------------------------------------------------------------------------- */

static bool is_tir_root(TVMFFIObject* n) {
  static const trx_kind kinds[] = {TRX_INT_IMM,      TRX_FLOAT_IMM,      TRX_STRING_IMM,
                                   TRX_PRIM_ADD,     TRX_PRIM_SUB,       TRX_PRIM_MUL,
                                   TRX_PRIM_FLOORDIV, TRX_PRIM_FLOORMOD, TRX_PRIM_MIN,
                                   TRX_PRIM_MAX,     TRX_PRIM_EQ,        TRX_PRIM_NE,
                                   TRX_PRIM_LT,      TRX_PRIM_LE,        TRX_PRIM_GT,
                                   TRX_PRIM_GE,      TRX_PRIM_BITAND,    TRX_PRIM_BITOR,
                                   TRX_PRIM_BITXOR,  TRX_PRIM_SHL,       TRX_PRIM_SHR,
                                   TRX_PRIM_BITNOT,  TRX_TUPLE_TYPE,     TRX_PRIM_TYPE};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    if (trx_is(n, kinds[i])) return true;
  }
  return false;
}

static bool is_ir_object(TVMFFIObject* n) {
  static const trx_kind roots[] = {TRX_EXPR,          TRX_TYPE,          TRX_ATTRS,
                                   TRX_BINDING,       TRX_BINDING_BLOCK, TRX_IR_MODULE};
  for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); ++i) {
    if (trx_is(n, roots[i])) return true;
  }
  return false;
}

/* type_key(field=repr, ...): how TVM shows attrs and Ops (the generic reflection form). */
static char* print_reflected(trx__P* P, TVMFFIObject* node) {
  trx__buf_t b = {0};
  if (trx_is(node, TRX_DICT_ATTRS)) {
    TVMFFIObject* d = ((trx_dict_attrs_t*)node)->dict;
    TVMFFIAny v = d ? tether_any_object(d) : tether_any_none();
    TVMFFIAny text = tether_any_none();
    TVMFFIByteArray t;
    if (tether_repr(&v, &text) != 0) {
      trx__buf_free(&b);
      return NULL;
    }
    if (tether_any_get_str(&text, &t)) trx__buf_put(&b, t.data, t.size);
    tether_any_release(&text);
  } else {
    bool first = true;
    trx__buf_puts(&b, tether_type_key(node->type_index));
    trx__buf_puts(&b, "(");
    trx__field_ctx c = {P, node, &b, &first, true};
    for_each_field(node, field_cb, &c);
    trx__buf_puts(&b, ")");
  }
  char* s = sb_take(&b);
  if (s == NULL) P->oom = true;
  return s;
}

static void p_free(trx__P* P) {
  while (P->nf > 0) frame_pop(P, NULL);
  free(P->frames);
  for (size_t i = 0; i < P->nents; ++i) free(P->ents[i].name);
  free(P->ents);
  free(P->by_obj);
  free(P->by_name);
  free(P->meta);
  for (size_t i = 0; i < P->ntv; ++i) free(P->tvars[i]);
  free(P->tvars);
  free(P->tasks);
}

/* ---- JSON with TVM's metadata; the show_meta header ---------------------------------------- */

static TVMFFIObject* trx__to_json_graph_string; /* the global, owned; looked up once */

int trx_save_json(const TVMFFIAny* value, int indent, TVMFFIAny* out) {
  static const char fn[] = "ir.SaveJSON";
  if (value == NULL || out == NULL) {
    return tether_raise("ValueError", "%s: argument `%s` must not be NULL", fn,
                        value == NULL ? "value" : "out");
  }
  *out = tether_any_none();
  TVMFFIAny kv[2] = {tether_any_none(), tether_any_none()}, meta = tether_any_none();
  TVMFFIAny graph = tether_any_none();
  TVMFFIObjectHandle map = NULL;
  int rc = -1;
  if (tether_any_str("tvm_version", 11, &kv[0]) != 0 ||
      tether_any_str(TRX_TVM_JSON_VERSION, sizeof(TRX_TVM_JSON_VERSION) - 1, &kv[1]) != 0 ||
      tether_map_new(kv, 1, &map) != 0) {
    goto fail;
  }
  meta = tether_any_object(map);
  if (indent == 0) {
    /* the compact text is ffi.ToJSONGraphString's, through the global (one writer) */
    if (trx__to_json_graph_string == NULL) {
      static const TVMFFIByteArray name = {"ffi.ToJSONGraphString", 21};
      if (TVMFFIFunctionGetGlobal(&name, (TVMFFIObjectHandle*)&trx__to_json_graph_string) != 0) {
        goto fail;
      }
      if (trx__to_json_graph_string == NULL) {
        tether_raise("RuntimeError", "%s: ffi.ToJSONGraphString is not registered", fn);
        goto fail;
      }
    }
    TVMFFIAny args[2] = {*value, meta};
    rc = TVMFFIFunctionCall(trx__to_json_graph_string, args, 2, out);
  } else if (tether_to_json_graph(value, &meta, &graph) == 0) {
    rc = tether_json_stringify(&graph, indent, out);
  }
fail:
  tether_any_release(&graph);
  tether_any_release(&kv[0]);
  tether_any_release(&kv[1]);
  if (map != NULL) TVMFFIObjectDecRef(map);
  return rc;
}

/* ir.SaveJSON(value) -> str */
static int trx__g_save_json(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  if (tether_check_nargs("ir.SaveJSON", "(0: Any) -> str", n, 1) != 0) return -1;
  return trx_save_json(&args[0], 0, rv);
}

/* Appends `s` as TVM's printer escapes the metadata text: printable ASCII as it is except
 * '"' and '\\' (backslash-escaped), tab, CR and LF as they are, any other byte as \xHH. */
static void put_meta_escaped(trx__buf_t* b, const char* s, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  size_t run = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = (unsigned char)s[i];
    bool plain = (c >= ' ' && c <= '~' && c != '"' && c != '\\') || c == '\t' || c == '\r' ||
                 c == '\n';
    if (plain) continue;
    trx__buf_put(b, s + run, i - run);
    run = i + 1;
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      trx__buf_put(b, e, 2);
    } else {
      char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
      trx__buf_put(b, e, 4);
    }
  }
  trx__buf_put(b, s + run, n - run);
}

/* The line `metadata = tvm.ir.load_json("""...""")` and its newline, for the objects printed
 * as metadata["key"][i]: a Map from each key (in order of first use) to its objects in index
 * order.  0, or -1 with an error raised. */
static int p_metadata_header(trx__P* P, trx__buf_t* b) {
  size_t nkeys = 0;
  TVMFFIAny* kvs = calloc(2 * P->nmeta, sizeof(TVMFFIAny));
  TVMFFIAny* objs = calloc(P->nmeta, sizeof(TVMFFIAny));
  TVMFFIObjectHandle map = NULL;
  TVMFFIAny text = tether_any_none();
  int rc = -1;
  if (kvs == NULL || objs == NULL) {
    tether_raise("MemoryError", "ir.Print: out of memory writing the metadata");
    goto fail;
  }
  for (size_t i = 0; i < P->nmeta; ++i) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = strcmp(P->meta[j].key, P->meta[i].key) == 0;
    if (seen) continue;
    size_t m = 0;
    for (size_t j = i; j < P->nmeta; ++j) {
      if (strcmp(P->meta[j].key, P->meta[i].key) == 0) {
        objs[m++] = tether_any_object((TVMFFIObject*)P->meta[j].obj);
      }
    }
    TVMFFIObjectHandle arr = NULL;
    if (tether_any_str(P->meta[i].key, strlen(P->meta[i].key), &kvs[2 * nkeys]) != 0 ||
        tether_array_new(objs, (int64_t)m, &arr) != 0) {
      ++nkeys;
      goto fail;
    }
    kvs[2 * nkeys + 1] = tether_any_object(arr);
    ++nkeys;
  }
  if (tether_map_new(kvs, (int64_t)nkeys, &map) != 0) goto fail;
  TVMFFIAny root = tether_any_object(map);
  TVMFFIByteArray json;
  if (trx_save_json(&root, 2, &text) != 0 || !tether_any_get_str(&text, &json)) goto fail;
  trx__buf_puts(b, "metadata = tvm.ir.load_json(\"\"\"");
  put_meta_escaped(b, json.data, json.size);
  trx__buf_puts(b, "\"\"\")\n");
  rc = 0;
fail:
  for (size_t i = 0; kvs != NULL && i < 2 * nkeys; ++i) tether_any_release(&kvs[i]);
  free(kvs);
  free(objs);
  if (map != NULL) TVMFFIObjectDecRef(map);
  tether_any_release(&text);
  return rc;
}

/* Renders the root into a malloc'd string (NULL with an error raised). */
static char* print_root(TVMFFIObject* node, const trx_print_options_t* opts, size_t* len) {
  if (node == NULL || !is_ir_object(node)) {
    tether_raise("TypeError", "ir.Print: argument `node` must be an IR node, but got %s",
                 node ? tether_type_key(node->type_index) : "None");
    return NULL;
  }
  trx__P P = {0};
  P.verbose = opts ? opts->verbose_expr : false;
  P.show_all = opts ? opts->show_all_ty : true;
  P.tir = is_tir_root(node);
  char* result = NULL;
  bool failed = false;
  trx__stmts final = {0};
  if (trx_is(node, TRX_ATTRS) || trx_is(node, TRX_OP)) {
    result = print_reflected(&P, node);
    goto done;
  }
  static const char* const reserved[] = {"R", "T", "I", "cls"};
  if (frame_push(&P, FR_ROOT) != 0) goto done;
  for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); ++i) {
    name_define(&P, reserved[i], reserved[i], strlen(reserved[i]), 0);
  }
  trx__stmts* root = frame_body(&P, 0);
  bool header = false;
  if (trx_is(node, TRX_IR_MODULE)) {
    p_module(&P, node, root);
    header = true;
  } else if (trx_is(node, TRX_FUNCTION)) {
    TVMFFIByteArray gs;
    trx__buf_t nm = {0};
    if (attr_str(((trx_function_t*)node)->base.attrs, "global_symbol", &gs)) {
      trx__buf_put(&nm, gs.data, gs.size);
    } else {
      trx__buf_puts(&nm, "main");
    }
    p_function(&P, node, nm.s ? nm.s : "main", true, root);
    trx__buf_free(&nm);
    header = true;
  } else if (trx_is(node, TRX_BINDING)) {
    p_binding(&P, node, root);
  } else if (trx_is(node, TRX_BINDING_BLOCK)) {
    p_block(&P, node, 0);
  } else if (trx_is(node, TRX_SEQ_EXPR)) {
    trx__stmts tmp = {0};
    char *fp = NULL, *fb = NULL;
    p_seq(&P, node, &tmp, &fp, &fb);
    stmts_move(&P, root, &tmp);
    stmts_push(&P, root, stmt_new(&P, ST_LINE, fp));
    free(fb);
  } else if (trx_is(node, TRX_IF)) {
    stmts_push(&P, root, p_if(&P, (trx_if_t*)node, NULL, NULL));
  } else {
    /* An expression (or type) root: on-the-fly definitions show only when verbose. */
    trx__buf_t b = {0};
    if (trx_is(node, TRX_TYPE)) {
      p_type(&P, node, &b);
    } else if (trx_is(node, TRX_GLOBAL_VAR)) {
      TVMFFIByteArray name = trx__str(&((trx_global_var_t*)node)->name_hint);
      P.use_I = true;
      trx__buf_puts(&b, "I.GlobalVar(");
      put_quoted(&b, name.data, name.size);
      trx__buf_puts(&b, ")");
    } else if (trx_is(node, TRX_STRING_IMM)) {
      TVMFFIByteArray s = trx__str(&((trx_string_imm_t*)node)->value);
      if (memchr(s.data, '\n', s.size) != NULL) {
        p_metadata(&P, node, &b);
      } else {
        put_quoted(&b, s.data, s.size);
      }
    } else {
      char *fp = NULL, *fb = NULL;
      p_rhs(&P, node, &fp, &fb);
      trx__buf_puts(&b, fp ? fp : "");
      free(fp);
      free(fb);
    }
    if (!P.verbose) stmts_free(root);
    stmts_push_line(&P, root, &b);
  }
  bool show_meta = opts != NULL && opts->show_meta;
  if (P.nmeta > 0 && !show_meta) {
    stmts_push_cstr(&P, root, "# Metadata omitted. Use show_meta=True in script() method to show it.");
  }
  if (header) p_header(&P, &final);
  for (size_t i = 0; i < P.ntv; ++i) {
    trx__buf_t line = {0};
    trx__buf_printf(&line, "%s = TypeVar(\"%s\")", P.tvars[i], P.tvars[i]);
    stmts_push_line(&P, &final, &line);
  }
  stmts_move(&P, &final, root);
  if (!P.oom) {
    trx__buf_t out = {0};
    if (P.nmeta > 0 && show_meta && p_metadata_header(&P, &out) != 0) {
      trx__buf_free(&out);
      failed = true;
      goto done;
    }
    render_list(&out, &final, 0, true);
    while (out.n > 0 && out.s[out.n - 1] == '\n') out.s[--out.n] = '\0';
    if (out.oom) P.oom = true;
    result = sb_take(&out);
  }
done:
  stmts_free(&final);
  p_free(&P);
  if (failed) return NULL; /* the metadata's error stays raised */
  if (P.oom || result == NULL) {
    free(result);
    tether_raise("MemoryError", "ir.Print: out of memory printing %s",
                 tether_type_key(node->type_index));
    return NULL;
  }
  if (len) *len = strlen(result);
  return result;
}

char* trx__print_cstr(TVMFFIObject* node, size_t* len) {
  trx_print_options_t opts = {false, true, false};
  return print_root(node, &opts, len);
}

int trx_print(TVMFFIObject* node, const trx_print_options_t* opts, TVMFFIAny* out) {
  trx_print_options_t dflt = {false, true, false};
  size_t n = 0;
  char* s = print_root(node, opts ? opts : &dflt, &n);
  if (s == NULL) return -1;
  int rc = tether_any_str(s, n, out);
  free(s);
  return rc;
}

/* ---- globals and type attributes ---------------------------------------------------------------- */

static const char trx__print_sig[] = "(0: Object, 1: bool, 2: bool, 3: bool) -> str";

/* ir.Print(node, verbose_expr=False, show_all_ty=True, show_meta=False) -> str */
static int trx__g_print(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  static const char fn[] = "ir.Print";
  if (n < 1 || n > 4) return tether_check_nargs(fn, trx__print_sig, n, 4);
  TVMFFIObject* node = NULL;
  trx_print_options_t opts = {false, true, false};
  if (tether_arg_object(fn, args, 0, kTVMFFIObject, &node) != 0) return -1;
  if (n > 1 && tether_arg_bool(fn, args, 1, &opts.verbose_expr) != 0) return -1;
  if (n > 2 && tether_arg_bool(fn, args, 2, &opts.show_all_ty) != 0) return -1;
  if (n > 3 && tether_arg_bool(fn, args, 3, &opts.show_meta) != 0) return -1;
  return trx_print(node, &opts, rv);
}

/* __ffi_repr__(self, repr_fn) -> str: the default print. */
static int trx__ffi_repr(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  if (n < 1 || !tether_any_is_object(&args[0])) {
    return tether_raise("TypeError", "__ffi_repr__: expected an IR node as the first argument");
  }
  return trx_print(args[0].v_obj, NULL, rv);
}

static TVMFFIObject* trx__repr_fn; /* owned */

/* Registers __ffi_repr__ on `index` unless the type already has one. */
static int register_repr(int32_t index) {
  static const TVMFFIByteArray name = {"__ffi_repr__", 12};
  const TVMFFITypeAttrColumn* col = TVMFFIGetTypeAttrColumn(&name);
  if (col != NULL && index >= col->begin_index && index - col->begin_index < col->size &&
      col->data[index - col->begin_index].type_index != kTVMFFINone) {
    return 0;
  }
  TVMFFIAny v = tether_any_object(trx__repr_fn);
  return TVMFFITypeRegisterAttr(index, &name, &v);
}

/* Whether type index i is one of the kind table's (those get their repr by kind). */
static bool is_kind_index(int32_t i) {
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    if (trx_type_index[k] == i) return true;
  }
  return false;
}

int trx__printer_init(void) {
  if (trx__register_global("ir.Print", trx__g_print,
                           "ir.Print(node, verbose_expr=False, show_all_ty=True, show_meta=False) "
                           "-> str: the TVMScript text of an IR node") != 0 ||
      trx__register_global("ir.SaveJSON", trx__g_save_json,
                           "ir.SaveJSON(value) -> str: the JSON graph text with TVM's metadata "
                           "{\"tvm_version\": ...}") != 0) {
    return -1;
  }
  if (TVMFFIFunctionCreate(NULL, trx__ffi_repr, NULL, (TVMFFIObjectHandle*)&trx__repr_fn) != 0) {
    return -1;
  }
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    /* SourceMap, EnvFunc and a StringType on its own are not printed as TVMScript (TVM has
     * no printer for them as roots): ffi.ReprPrint's default form */
    bool default_repr = k == TRX_SOURCE_MAP || k == TRX_ENV_FUNC || k == TRX_STRING_TYPE;
    if (!default_repr && register_repr(trx_type_index[k]) != 0) return -1;
  }
  /* Types derived from the IR's roots outside the kind table (the ops' attrs types). */
  static const trx_kind roots[] = {TRX_EXPR, TRX_TYPE, TRX_ATTRS, TRX_BINDING, TRX_BINDING_BLOCK};
  for (int32_t i = kTVMFFIDynObjectBegin; i < kTVMFFIDynObjectBegin + 16384; ++i) {
    if (strcmp(tether_type_key(i), "<unknown>") == 0 || is_kind_index(i)) continue;
    for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]); ++r) {
      if (tether_type_is_subclass(i, trx_type_index[roots[r]])) {
        if (register_repr(i) != 0) return -1;
        break;
      }
    }
  }
  return 0;
}

void trx__printer_fini(void) {
  TVMFFIObjectDecRef(trx__repr_fn);
  trx__repr_fn = NULL;
  if (trx__to_json_graph_string != NULL) TVMFFIObjectDecRef(trx__to_json_graph_string);
  trx__to_json_graph_string = NULL;
}
