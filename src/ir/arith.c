/*
 * arith.c -- symbolic int64 arithmetic on shape dims: IntImm, Vars of PrimType(int64) and
 * the prim.* binops.  trx_simplify puts an expression into one canonical form, the
 * builders (trx_add, ...) simplify as they go, trx_prove_equal decides equality where the
 * canonical form allows it.
 *
 * Canonical form (a linear combination): constant + sum of coeff * monomial, where a
 * monomial is a product of atoms.  Atoms are Vars, and floordiv / floormod / min / max
 * terms that do not fold (their operands themselves canonical), or any other expression.
 * - Terms keep the order in which they first appear (deterministic for a given input, and
 *   the order TVM's canonical simplifier prints: `n * m * 3`, `n + m`); like terms merge
 *   whatever their order (n*m and m*n are one monomial).
 * - Printing (as TVM's canonical form): positive terms, a positive constant, negative terms
 *   subtracted, a negative constant (`n - 2`, `n * 2 + 1`, `n + 2 - m`, `3 - n`); a monomial
 *   prints its atoms, then `* coeff` unless it is 1.
 * - floordiv(x, k) / floormod(x, k) with a constant k: terms whose coefficient k divides
 *   come out of the division (floordiv(2n + m, 2) = n + floordiv(m, 2)), and so does a
 *   constant that k divides; floormod reduces its constant modulo k.  Constants fold.
 *   floordiv(floordiv(x, c1) + c2, k) with c1, k > 0 becomes floordiv(x + c1*c2, c1*k).
 * - floordiv / floormod by a non-constant divides exactly where it can: by one term c*M that
 *   divides every term, or into an integer multiple of the divisor (n*m*4 // (n*2) = m*2,
 *   (n + m)*4 // (n + m) = 4; the remainder is then 0).  These are the forms apache-tvm 0.27's
 *   analyzer produces (tests/ir/test_arith.c lists the observed cases).
 * - min / max fold when the difference of their operands is a constant, or has a known sign
 *   (min(0, n) = 0 for a dim the builder knows non-negative; see trx__atom_bounds); a
 *   constant that cancels one inside a min / max folds into it (trx__lin_absorb_const).
 * - trx_prove_equal: equal when the difference is 0; different when it is a non-zero
 *   constant, when the gcd of its coefficients does not divide its constant, or when its
 *   known range (trx__lin_bounds) excludes 0.
 * On int64 overflow the expression is returned unsimplified.
 */
#include "arith.h"

#include <stdarg.h>
#include <stdio.h>

#include "node.h"
#include "strbuf.h"
#include "unify.h"

static trx_kind trx__binop_kind(const TVMFFIObject* e);

static void trx__key(trx__buf_t* b, const TVMFFIObject* e);

/* The leaves of a chain of `kind` (ADD with SUB folded in as negated leaves, or MUL) below e,
 * each as its key with a sign prefix, appended to *keys (malloc'd strings). */
static bool trx__chain_keys(const TVMFFIObject* e, trx_kind kind, bool neg, char*** keys,
                            size_t* n, size_t* cap) {
  trx_kind k = e != NULL ? trx__binop_kind(e) : TRX_NUM_KINDS;
  bool chain = kind == TRX_PRIM_MUL ? k == TRX_PRIM_MUL : (k == TRX_PRIM_ADD || k == TRX_PRIM_SUB);
  if (chain) {
    const trx_binop_t* bin = (const trx_binop_t*)e;
    return trx__chain_keys(bin->a, kind, neg, keys, n, cap) &&
           trx__chain_keys(bin->b, kind, k == TRX_PRIM_SUB ? !neg : neg, keys, n, cap);
  }
  trx__buf_t kb = {0};
  trx__buf_put(&kb, neg ? "-" : "+", 1);
  trx__key(&kb, e);
  if (kb.oom) {
    free(kb.s);
    return false;
  }
  if (*n == *cap) {
    size_t c = *cap ? *cap * 2 : 8;
    char** p = realloc(*keys, sizeof(char*) * c);
    if (p == NULL) {
      free(kb.s);
      return false;
    }
    *keys = p;
    *cap = c;
  }
  (*keys)[(*n)++] = kb.s;
  return true;
}

static int trx__cmp_str(const void* a, const void* b);

/*
 * The identity-and-structure key of a canonical expression: Vars by identity (name first,
 * so sorting is stable across runs), IntImms by value, sums and products by their sorted
 * leaves (so (n + m) * k and k * (m + n) are one atom, as TVM's canonical form treats them),
 * other binops by kind and operands.
 */
static void trx__key(trx__buf_t* b, const TVMFFIObject* e) {
  static const char* const tags[] = {"+", "-", "*", "fd", "fm", "min", "max"};
  int64_t v;
  trx_kind kind = e != NULL && !trx__int_imm_value(e, &v) ? trx__binop_kind(e) : TRX_NUM_KINDS;
  if (kind == TRX_PRIM_ADD || kind == TRX_PRIM_SUB || kind == TRX_PRIM_MUL) {
    trx_kind chain = kind == TRX_PRIM_MUL ? TRX_PRIM_MUL : TRX_PRIM_ADD;
    char** keys = NULL;
    size_t n = 0, cap = 0;
    bool ok = trx__chain_keys(e, chain, false, &keys, &n, &cap);
    if (ok) {
      qsort(keys, n, sizeof(char*), trx__cmp_str);
      trx__buf_printf(b, "(%s", chain == TRX_PRIM_MUL ? "*" : "+");
      for (size_t i = 0; i < n; ++i) {
        trx__buf_put(b, " ", 1);
        trx__buf_put(b, keys[i], strlen(keys[i]));
      }
      trx__buf_put(b, ")", 1);
    } else {
      b->oom = true;
    }
    for (size_t i = 0; i < n; ++i) free(keys[i]);
    free(keys);
    return;
  }
  if (trx__int_imm_value(e, &v)) {
    trx__buf_printf(b, "#%lld", (long long)v);
  } else if (trx_is(e, TRX_VAR)) {
    TVMFFIByteArray name = trx__str(&((const trx_var_t*)e)->name);
    trx__buf_put(b, "v", 1);
    trx__buf_put(b, name.data, name.size);
    trx__buf_printf(b, "@%p", (const void*)e);
  } else if (e != NULL && trx__binop_kind(e) != TRX_NUM_KINDS) {
    int k = (int)trx__binop_kind(e) - TRX_PRIM_ADD;
    const trx_binop_t* bin = (const trx_binop_t*)e;
    trx__buf_printf(b, "(%s ", tags[k]);
    trx__key(b, bin->a);
    trx__buf_put(b, " ", 1);
    trx__key(b, bin->b);
    trx__buf_put(b, ")", 1);
  } else {
    trx__buf_printf(b, "o@%p", (const void*)e);
  }
}

/* ---- linear forms ----------------------------------------------------------------------- */

typedef struct {
  TVMFFIObject* expr; /* owned canonical atom */
  char* key;          /* owned */
} trx__atom;

typedef struct {
  int64_t coeff;
  int32_t n;
  trx__atom* f; /* factors in appearance order */
  char* mkey;   /* owned: the factors' keys sorted and joined (matches like monomials) */
} trx__term;

typedef struct {
  int64_t c;
  trx__term* t;
  int32_t n, cap;
  bool fail; /* overflow or out of memory: give up simplifying */
} trx__lin;

static void trx__term_free(trx__term* t) {
  for (int32_t i = 0; i < t->n; ++i) {
    TVMFFIObjectDecRef(t->f[i].expr);
    free(t->f[i].key);
  }
  free(t->f);
  free(t->mkey);
  memset(t, 0, sizeof(*t));
}

static void trx__lin_free(trx__lin* l) {
  for (int32_t i = 0; i < l->n; ++i) trx__term_free(&l->t[i]);
  free(l->t);
  memset(l, 0, sizeof(*l));
}

static int trx__cmp_str(const void* a, const void* b) {
  return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Computes t->mkey from the factor keys. */
static bool trx__term_make_key(trx__term* t) {
  char* small[8];
  char** keys = t->n <= 8 ? small : malloc(sizeof(char*) * (size_t)t->n);
  if (keys == NULL) return false;
  for (int32_t i = 0; i < t->n; ++i) keys[i] = t->f[i].key;
  qsort(keys, (size_t)t->n, sizeof(char*), trx__cmp_str);
  trx__buf_t b = {0};
  trx__buf_put(&b, "", 0);
  for (int32_t i = 0; i < t->n; ++i) {
    if (i) trx__buf_put(&b, "*", 1);
    trx__buf_put(&b, keys[i], strlen(keys[i]));
  }
  if (keys != small) free(keys);
  if (b.oom) {
    free(b.s);
    return false;
  }
  t->mkey = b.s;
  return true;
}

/* Adds the term (taking ownership of *t) to l, merging with a like term. */
static void trx__lin_add_term(trx__lin* l, trx__term* t) {
  if (l->fail || t->coeff == 0) {
    trx__term_free(t);
    return;
  }
  for (int32_t i = 0; i < l->n; ++i) {
    if (strcmp(l->t[i].mkey, t->mkey) == 0) {
      if (__builtin_add_overflow(l->t[i].coeff, t->coeff, &l->t[i].coeff)) l->fail = true;
      trx__term_free(t);
      if (l->t[i].coeff == 0) {
        trx__term_free(&l->t[i]);
        memmove(&l->t[i], &l->t[i + 1], sizeof(trx__term) * (size_t)(l->n - i - 1));
        l->n--;
      }
      return;
    }
  }
  if (l->n == l->cap) {
    int32_t cap = l->cap ? l->cap * 2 : 4;
    trx__term* p = realloc(l->t, sizeof(trx__term) * (size_t)cap);
    if (p == NULL) {
      l->fail = true;
      trx__term_free(t);
      return;
    }
    l->t = p;
    l->cap = cap;
  }
  l->t[l->n++] = *t;
  memset(t, 0, sizeof(*t));
}

/* A deep copy of src scaled by `scale` and multiplied by the factors of `extra` (appended). */
static bool trx__term_copy(const trx__term* src, const trx__term* extra, int64_t scale, trx__term* out) {
  memset(out, 0, sizeof(*out));
  int64_t c = src->coeff;
  if (__builtin_mul_overflow(c, scale, &c)) return false;
  if (extra != NULL && __builtin_mul_overflow(c, extra->coeff, &c)) return false;
  int32_t n = src->n + (extra ? extra->n : 0);
  out->coeff = c;
  out->f = calloc((size_t)(n > 0 ? n : 1), sizeof(trx__atom));
  if (out->f == NULL) return false;
  for (int32_t i = 0; i < n; ++i) {
    const trx__atom* a = i < src->n ? &src->f[i] : &extra->f[i - src->n];
    out->f[i].key = strdup(a->key);
    if (out->f[i].key == NULL) {
      trx__term_free(out);
      return false;
    }
    out->f[i].expr = trx__ref(a->expr);
    out->n = i + 1;
  }
  if (!trx__term_make_key(out)) {
    trx__term_free(out);
    return false;
  }
  return true;
}

/* l += scale * m */
static void trx__lin_add(trx__lin* l, const trx__lin* m, int64_t scale) {
  int64_t c;
  if (m->fail || __builtin_mul_overflow(m->c, scale, &c) || __builtin_add_overflow(l->c, c, &l->c)) {
    l->fail = true;
    return;
  }
  for (int32_t i = 0; i < m->n && !l->fail; ++i) {
    trx__term t;
    if (!trx__term_copy(&m->t[i], NULL, scale, &t)) {
      l->fail = true;
      return;
    }
    trx__lin_add_term(l, &t);
  }
}

/* l += scale * atom (steals `atom`, a canonical expr). */
static void trx__lin_add_atom(trx__lin* l, TVMFFIObject* atom, int64_t scale) {
  trx__term t;
  memset(&t, 0, sizeof(t));
  trx__buf_t b = {0};
  if (atom == NULL) {
    l->fail = true;
    return;
  }
  trx__key(&b, atom);
  t.f = calloc(1, sizeof(trx__atom));
  if (b.oom || t.f == NULL) {
    free(b.s);
    free(t.f);
    TVMFFIObjectDecRef(atom);
    l->fail = true;
    return;
  }
  t.coeff = scale;
  t.n = 1;
  t.f[0].expr = atom;
  t.f[0].key = b.s;
  if (!trx__term_make_key(&t)) {
    trx__term_free(&t);
    l->fail = true;
    return;
  }
  trx__lin_add_term(l, &t);
}

static bool trx__lin_is_const(const trx__lin* l) { return l->n == 0; }

/*
 * Bounds.  A Var is known non-negative when it is in the thread's current set
 * (trx__set_nonneg_vars: a BlockBuilder's params and match_casts define them, as relax's
 * analyzer marks shape vars; TVM then folds min(0, n) to 0).  Bounds propagate through
 * constants, floordiv / floormod by a positive constant, min, max (max(m, 4) >= 4 whatever m
 * is), sums and products -- enough for TVM's folds such as min(1, max(m, 4)) = 1 and for
 * disproving min(3, k) - min(1, k) == 6.
 */
static _Thread_local const trx__var_set_t* trx__nonneg_vars;

const trx__var_set_t* trx__set_nonneg_vars(const trx__var_set_t* vars) {
  const trx__var_set_t* old = trx__nonneg_vars;
  trx__nonneg_vars = vars;
  return old;
}

static int64_t trx__floordiv_i(int64_t a, int64_t b);

/* Bounds of an atom: *lo / *hi, INT64_MIN / INT64_MAX when unknown.  Through constants,
 * floordiv / floormod by a positive constant, min, max, sums and (non-negative) products. */
static void trx__atom_bounds(const TVMFFIObject* e, int64_t* lo, int64_t* hi) {
  int64_t k, la, ha, lb, hb, r;
  *lo = INT64_MIN;
  *hi = INT64_MAX;
  if (trx_is(e, TRX_VAR)) {
    if (trx__nonneg_vars != NULL && trx__var_set_has(trx__nonneg_vars, e)) *lo = 0;
    return;
  }
  if (trx__int_imm_value(e, &k)) {
    *lo = *hi = k;
    return;
  }
  trx_kind kind = e != NULL ? trx__binop_kind(e) : TRX_NUM_KINDS;
  if (kind == TRX_NUM_KINDS) return;
  const trx_binop_t* b = (const trx_binop_t*)e;
  trx__atom_bounds(b->a, &la, &ha);
  trx__atom_bounds(b->b, &lb, &hb);
  switch (kind) {
    case TRX_PRIM_FLOORDIV:
      if (!trx__int_imm_value(b->b, &k) || k <= 0) return;
      if (la != INT64_MIN) *lo = trx__floordiv_i(la, k);
      if (ha != INT64_MAX) *hi = trx__floordiv_i(ha, k);
      return;
    case TRX_PRIM_FLOORMOD:
      if (trx__int_imm_value(b->b, &k) && k > 0) {
        *lo = 0;
        *hi = k - 1;
      }
      return;
    case TRX_PRIM_MIN: /* min(a, b) <= either bound; >= both lower bounds */
      *lo = la == INT64_MIN || lb == INT64_MIN ? INT64_MIN : (la < lb ? la : lb);
      *hi = ha < hb ? ha : hb;
      return;
    case TRX_PRIM_MAX:
      *lo = la > lb ? la : lb;
      *hi = ha == INT64_MAX || hb == INT64_MAX ? INT64_MAX : (ha > hb ? ha : hb);
      return;
    case TRX_PRIM_ADD:
      if (la != INT64_MIN && lb != INT64_MIN && !__builtin_add_overflow(la, lb, &r)) *lo = r;
      if (ha != INT64_MAX && hb != INT64_MAX && !__builtin_add_overflow(ha, hb, &r)) *hi = r;
      return;
    case TRX_PRIM_SUB:
      if (la != INT64_MIN && hb != INT64_MAX && !__builtin_sub_overflow(la, hb, &r)) *lo = r;
      if (ha != INT64_MAX && lb != INT64_MIN && !__builtin_sub_overflow(ha, lb, &r)) *hi = r;
      return;
    case TRX_PRIM_MUL:
      if (la >= 0 && lb >= 0) {
        if (!__builtin_mul_overflow(la, lb, &r)) *lo = r;
        if (ha != INT64_MAX && hb != INT64_MAX && !__builtin_mul_overflow(ha, hb, &r)) *hi = r;
      }
      return;
    default:
      return;
  }
}

/* Bounds of a linear form: *lo / *hi (INT64_MIN / INT64_MAX when unknown).  A term's bound
 * is its coefficient times its atom's bound (the opposite bound for a negative coefficient);
 * a product term needs non-negative factors. */
static void trx__lin_bounds(const trx__lin* l, int64_t* lo, int64_t* hi) {
  int64_t sl = l->c, sh = l->c;
  bool lo_ok = !l->fail, hi_ok = !l->fail;
  for (int32_t i = 0; i < l->n && (lo_ok || hi_ok); ++i) {
    const trx__term* t = &l->t[i];
    int64_t tl = 1, th = 1; /* bounds of the product of the factors */
    for (int32_t j = 0; j < t->n; ++j) {
      int64_t fl, fh;
      trx__atom_bounds(t->f[j].expr, &fl, &fh);
      if (t->n > 1 && fl < 0) { /* products only with non-negative factors */
        tl = INT64_MIN;
        th = INT64_MAX;
        break;
      }
      if (t->n == 1) {
        tl = fl;
        th = fh;
      } else {
        if (tl != INT64_MIN && __builtin_mul_overflow(tl, fl, &tl)) tl = INT64_MIN;
        if (th != INT64_MAX && (fh == INT64_MAX || __builtin_mul_overflow(th, fh, &th))) th = INT64_MAX;
      }
    }
    int64_t c = t->coeff, add_lo, add_hi;
    int64_t src_lo = c >= 0 ? tl : th, src_hi = c >= 0 ? th : tl;
    bool ok_lo = src_lo != INT64_MIN && src_lo != INT64_MAX && !__builtin_mul_overflow(c, src_lo, &add_lo);
    bool ok_hi = src_hi != INT64_MIN && src_hi != INT64_MAX && !__builtin_mul_overflow(c, src_hi, &add_hi);
    lo_ok = lo_ok && ok_lo && !__builtin_add_overflow(sl, add_lo, &sl);
    hi_ok = hi_ok && ok_hi && !__builtin_add_overflow(sh, add_hi, &sh);
  }
  *lo = lo_ok ? sl : INT64_MIN;
  *hi = hi_ok ? sh : INT64_MAX;
}

/* true (and *lb set) if l >= *lb is known. */
static bool trx__lin_lower_bound(const trx__lin* l, int64_t* lb) {
  int64_t lo, hi;
  trx__lin_bounds(l, &lo, &hi);
  *lb = lo;
  return lo != INT64_MIN;
}

static int64_t trx__floordiv_i(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static int64_t trx__floormod_i(int64_t a, int64_t b) { return a - trx__floordiv_i(a, b) * b; }

/* ---- expression -> linear form ------------------------------------------------------------ */

static TVMFFIObject* trx__lin_to_expr(const trx__lin* l);
static void trx__linearize(const TVMFFIObject* e, trx__lin* l, int64_t scale);
static TVMFFIObject* trx__bin_steal(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b);

static trx_kind trx__binop_kind(const TVMFFIObject* e) {
  for (int k = TRX_PRIM_ADD; k <= TRX_PRIM_MAX; ++k) {
    if (e->type_index == trx_type_index[k]) return (trx_kind)k;
  }
  return TRX_NUM_KINDS;
}

/* l += scale * (a * b) */
static void trx__lin_mul(trx__lin* l, const trx__lin* a, const trx__lin* b, int64_t scale) {
  /* (ca + sum a_i) * (cb + sum b_j) */
  int64_t c;
  if (__builtin_mul_overflow(a->c, b->c, &c) || __builtin_mul_overflow(c, scale, &c) ||
      __builtin_add_overflow(l->c, c, &l->c)) {
    l->fail = true;
    return;
  }
  int64_t s;
  if (__builtin_mul_overflow(b->c, scale, &s)) {
    l->fail = true;
    return;
  }
  for (int32_t i = 0; i < a->n && !l->fail; ++i) {
    trx__term t;
    if (!trx__term_copy(&a->t[i], NULL, s, &t)) l->fail = true;
    else trx__lin_add_term(l, &t);
  }
  if (__builtin_mul_overflow(a->c, scale, &s)) {
    l->fail = true;
    return;
  }
  for (int32_t j = 0; j < b->n && !l->fail; ++j) {
    trx__term t;
    if (!trx__term_copy(&b->t[j], NULL, s, &t)) l->fail = true;
    else trx__lin_add_term(l, &t);
  }
  for (int32_t i = 0; i < a->n && !l->fail; ++i) {
    for (int32_t j = 0; j < b->n && !l->fail; ++j) {
      trx__term t;
      if (!trx__term_copy(&a->t[i], &b->t[j], scale, &t)) l->fail = true;
      else trx__lin_add_term(l, &t);
    }
  }
}

/* Builds kind(x, y) from two linear forms' canonical exprs (a new atom), NULL on failure. */
static TVMFFIObject* trx__atom_of(trx_kind kind, const trx__lin* a, const trx__lin* b) {
  TVMFFIObject* x = trx__lin_to_expr(a);
  TVMFFIObject* y = x ? trx__lin_to_expr(b) : NULL;
  TVMFFIObject* r = y ? trx_binop_new(kind, x, y) : NULL;
  if (x) TVMFFIObjectDecRef(x);
  if (y) TVMFFIObjectDecRef(y);
  return r;
}

/* The factors of a term with every product atom opened up ((k * (m + 1)) gives k and m + 1),
 * each with its key: what exact division matches divisor factors against. */
typedef struct {
  struct {
    TVMFFIObject* expr; /* borrowed; NULL once removed */
    char* key;          /* owned */
  } * v;
  size_t n, cap;
} trx__leaves_t;

static void trx__leaves_free(trx__leaves_t* l) {
  for (size_t i = 0; i < l->n; ++i) free(l->v[i].key);
  free(l->v);
  memset(l, 0, sizeof(*l));
}

static bool trx__leaves_add(trx__leaves_t* l, TVMFFIObject* e) {
  if (trx__binop_kind(e) == TRX_PRIM_MUL) {
    const trx_binop_t* m = (const trx_binop_t*)e;
    return trx__leaves_add(l, m->a) && trx__leaves_add(l, m->b);
  }
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 8;
    void* p = realloc(l->v, sizeof(*l->v) * cap);
    if (p == NULL) return false;
    l->v = p;
    l->cap = cap;
  }
  trx__buf_t kb = {0};
  trx__key(&kb, e);
  if (kb.oom) {
    free(kb.s);
    return false;
  }
  l->v[l->n].expr = e;
  l->v[l->n].key = kb.s;
  l->n++;
  return true;
}

static bool trx__term_leaves(const trx__term* t, trx__leaves_t* out) {
  for (int32_t i = 0; i < t->n; ++i) {
    if (!trx__leaves_add(out, t->f[i].expr)) return false;
  }
  return true;
}

/* Removes one leaf of `l` per leaf of `div` (by key); false if one is missing. */
static bool trx__leaves_remove(trx__leaves_t* l, const trx__leaves_t* div) {
  for (size_t j = 0; j < div->n; ++j) {
    size_t i = 0;
    while (i < l->n && (l->v[i].expr == NULL || strcmp(l->v[i].key, div->v[j].key) != 0)) ++i;
    if (i == l->n) return false;
    l->v[i].expr = NULL;
  }
  return true;
}

/*
 * Exact division by a non-constant divisor, as TVM's simplifier does it (observed with
 * apache-tvm 0.27): q = a / b when b is one term c*M (no constant) dividing every term of a
 * (n*m*4 // (n*2) = m*2, (n*m + n) // n = m + 1, k*(m + 1)*16 // k = m*16 + 16; products are
 * opened up for the match), or when a is an integer multiple k*b
 * ((n + m)*4 // (n + m) = 4, n // n = 1).  false (q untouched) when neither holds.
 */
static bool trx__lin_exact_div(const trx__lin* a, const trx__lin* b, trx__lin* q) {
  if (b->n == 0) return false;
  if (b->n == 1 && b->c == 0) {
    const trx__term* d = &b->t[0];
    if (a->c != 0 || d->coeff == 0) return false;
    trx__leaves_t dl = {0};
    if (!trx__term_leaves(d, &dl)) return false;
    trx__lin r = {0};
    for (int32_t i = 0; i < a->n && !r.fail; ++i) {
      trx__leaves_t tl = {0};
      if (a->t[i].coeff % d->coeff != 0 || !trx__term_leaves(&a->t[i], &tl) ||
          !trx__leaves_remove(&tl, &dl)) {
        r.fail = true;
      } else {
        /* coeff/d * (the leaves left), re-linearized: (m + 1) * 16 becomes m * 16 + 16 */
        TVMFFIObject* qe = trx_int64(a->t[i].coeff / d->coeff);
        for (size_t j = 0; j < tl.n && qe != NULL; ++j) {
          if (tl.v[j].expr != NULL) qe = trx__bin_steal(TRX_PRIM_MUL, qe, trx__ref(tl.v[j].expr));
        }
        if (qe == NULL) {
          r.fail = true;
        } else {
          trx__linearize(qe, &r, 1);
          TVMFFIObjectDecRef(qe);
        }
      }
      trx__leaves_free(&tl);
    }
    trx__leaves_free(&dl);
    if (r.fail) {
      trx__lin_free(&r);
      return false;
    }
    *q = r;
    return true;
  }
  /* a == k * b for one integer k */
  if (a->n != b->n) return false;
  int64_t k = 0;
  for (int32_t j = 0; j < b->n; ++j) {
    int32_t i = 0;
    while (i < a->n && strcmp(a->t[i].mkey, b->t[j].mkey) != 0) ++i;
    if (i == a->n || b->t[j].coeff == 0 || a->t[i].coeff % b->t[j].coeff != 0) return false;
    int64_t kj = a->t[i].coeff / b->t[j].coeff;
    if (j > 0 && kj != k) return false;
    k = kj;
  }
  int64_t kc;
  if (__builtin_mul_overflow(k, b->c, &kc) || kc != a->c) return false;
  memset(q, 0, sizeof(*q));
  q->c = k;
  return true;
}

/* If `rest` is floordiv(x, c1) + c2 with c1 > 0 (one term, coefficient 1), sets *x to x's
 * linear form plus c1*c2 and *c1 to c1; TVM folds floordiv(floordiv(x, c1) + c2, k) into
 * floordiv(x + c1*c2, c1*k) for positive c1 and k. */
static bool trx__lin_nested_div(const trx__lin* rest, trx__lin* x, int64_t* c1) {
  if (rest->n != 1 || rest->t[0].coeff != 1 || rest->t[0].n != 1) return false;
  const TVMFFIObject* atom = rest->t[0].f[0].expr;
  if (trx__binop_kind(atom) != TRX_PRIM_FLOORDIV) return false;
  const trx_binop_t* inner = (const trx_binop_t*)atom;
  int64_t d, shift;
  if (!trx__int_imm_value(inner->b, &d) || d <= 0) return false;
  if (__builtin_mul_overflow(d, rest->c, &shift)) return false;
  memset(x, 0, sizeof(*x));
  trx__linearize(inner->a, x, 1);
  if (x->fail || __builtin_add_overflow(x->c, shift, &x->c)) {
    trx__lin_free(x);
    return false;
  }
  *c1 = d;
  return true;
}

/* floordiv / floormod of a by the constant k (k != 0); adds scale * result to l. */
static void trx__lin_divmod_const(trx__lin* l, const trx__lin* a, int64_t k, bool is_div, int64_t scale) {
  trx__lin rest = {0};
  trx__lin quot = {0};
  if (k == -1 && a->c == INT64_MIN) {
    l->fail = true;
    return;
  }
  for (int32_t i = 0; i < a->n && !rest.fail && !quot.fail; ++i) {
    trx__term t;
    if (a->t[i].coeff % k == 0) {
      if (!trx__term_copy(&a->t[i], NULL, 1, &t)) {
        quot.fail = true;
        break;
      }
      t.coeff /= k;
      trx__lin_add_term(&quot, &t);
    } else {
      if (!trx__term_copy(&a->t[i], NULL, 1, &t)) {
        rest.fail = true;
        break;
      }
      trx__lin_add_term(&rest, &t);
    }
  }
  if (rest.fail || quot.fail) {
    l->fail = true;
    goto done;
  }
  if (is_div) {
    if (a->c % k == 0) {
      quot.c = a->c / k;
    } else {
      rest.c = a->c;
    }
    trx__lin_add(l, &quot, scale);
    trx__lin inner;
    int64_t c1, k2;
    if (trx__lin_is_const(&rest)) {
      trx__lin cst = {0};
      cst.c = trx__floordiv_i(rest.c, k);
      trx__lin_add(l, &cst, scale);
    } else if (k > 0 && trx__lin_nested_div(&rest, &inner, &c1)) {
      if (__builtin_mul_overflow(c1, k, &k2)) {
        l->fail = true;
      } else {
        trx__lin_divmod_const(l, &inner, k2, true, scale);
      }
      trx__lin_free(&inner);
    } else {
      trx__lin kl = {0};
      kl.c = k;
      trx__lin_add_atom(l, trx__atom_of(TRX_PRIM_FLOORDIV, &rest, &kl), scale);
    }
  } else {
    rest.c = trx__floormod_i(a->c, k);
    if (trx__lin_is_const(&rest)) {
      trx__lin_add(l, &rest, scale);
    } else {
      trx__lin kl = {0};
      kl.c = k;
      trx__lin_add_atom(l, trx__atom_of(TRX_PRIM_FLOORMOD, &rest, &kl), scale);
    }
  }
done:
  trx__lin_free(&rest);
  trx__lin_free(&quot);
}

/* As TVM: min(c1, min(c2, x)) = min(min(c1, c2), x) (either operand order; max alike), the
 * inner min keeping its operand order: min(100, min(2, m)) = min(2, m).  A new atom, or NULL
 * when the operands are not of that form. */
static TVMFFIObject* trx__nested_minmax(trx_kind kind, const trx__lin* a, const trx__lin* b) {
  const trx__lin* cst = trx__lin_is_const(a) ? a : trx__lin_is_const(b) ? b : NULL;
  const trx__lin* other = cst == a ? b : a;
  if (cst == NULL || other->c != 0 || other->n != 1 || other->t[0].coeff != 1 || other->t[0].n != 1) {
    return NULL;
  }
  const TVMFFIObject* inner = other->t[0].f[0].expr;
  if (trx__binop_kind(inner) != kind) return NULL;
  const trx_binop_t* in = (const trx_binop_t*)inner;
  int64_t c2;
  bool const_a = trx__int_imm_value(in->a, &c2);
  if (!const_a && !trx__int_imm_value(in->b, &c2)) return NULL;
  int64_t c = kind == TRX_PRIM_MIN ? (cst->c < c2 ? cst->c : c2) : (cst->c > c2 ? cst->c : c2);
  TVMFFIObject* k = trx_int64(c);
  if (k == NULL) return NULL;
  TVMFFIObject* r = const_a ? trx_binop_new(kind, k, in->b) : trx_binop_new(kind, in->a, k);
  TVMFFIObjectDecRef(k);
  return r;
}

static void trx__linearize_binop(const trx_binop_t* e, trx_kind kind, trx__lin* l, int64_t scale) {
  if (kind == TRX_PRIM_ADD || kind == TRX_PRIM_SUB) {
    trx__linearize(e->a, l, scale);
    int64_t s = scale;
    if (kind == TRX_PRIM_SUB && __builtin_sub_overflow((int64_t)0, scale, &s)) {
      l->fail = true;
      return;
    }
    trx__linearize(e->b, l, s);
    return;
  }
  trx__lin a = {0}, b = {0};
  trx__linearize(e->a, &a, 1);
  trx__linearize(e->b, &b, 1);
  if (a.fail || b.fail) {
    l->fail = true;
    goto done;
  }
  switch (kind) {
    case TRX_PRIM_MUL: {
      /* As TVM's canonical form: a constant factor distributes ((n + 1) * 2 = n * 2 + 2) and
       * monomials multiply (n * 2 * m = n * m * 2), but a sum times a non-constant stays a
       * product ((n + 1) * m), its monomial coefficient pulled out. */
      bool a_mono = a.n == 1 && a.c == 0, b_mono = b.n == 1 && b.c == 0;
      if (trx__lin_is_const(&a) || trx__lin_is_const(&b) || (a_mono && b_mono)) {
        trx__lin_mul(l, &a, &b, scale);
      } else {
        int64_t ca = a_mono ? a.t[0].coeff : 1, cb = b_mono ? b.t[0].coeff : 1, k;
        if (a_mono) a.t[0].coeff = 1;
        if (b_mono) b.t[0].coeff = 1;
        if (__builtin_mul_overflow(ca, cb, &k) || __builtin_mul_overflow(k, scale, &k)) {
          l->fail = true;
        } else {
          trx__lin_add_atom(l, trx__atom_of(TRX_PRIM_MUL, &a, &b), k);
        }
      }
      break;
    }
    case TRX_PRIM_FLOORDIV:
    case TRX_PRIM_FLOORMOD: {
      bool is_div = kind == TRX_PRIM_FLOORDIV;
      if (trx__lin_is_const(&b) && b.c != 0) {
        if (trx__lin_is_const(&a)) {
          if (b.c == -1 && a.c == INT64_MIN) {
            l->fail = true;
            break;
          }
          trx__lin cst = {0};
          cst.c = is_div ? trx__floordiv_i(a.c, b.c) : trx__floormod_i(a.c, b.c);
          trx__lin_add(l, &cst, scale);
        } else if (b.c == 1) {
          if (is_div) trx__lin_add(l, &a, scale);
        } else {
          trx__lin_divmod_const(l, &a, b.c, is_div, scale);
        }
      } else {
        trx__lin q;
        if (trx__lin_exact_div(&a, &b, &q)) {
          if (is_div) trx__lin_add(l, &q, scale); /* exact: the remainder is 0 */
          trx__lin_free(&q);
        } else {
          trx__lin_add_atom(l, trx__atom_of(kind, &a, &b), scale);
        }
      }
      break;
    }
    case TRX_PRIM_MIN:
    case TRX_PRIM_MAX: {
      trx__lin d = {0};
      trx__lin_add(&d, &a, 1);
      trx__lin_add(&d, &b, -1);
      trx__lin nd = {0}; /* b - a */
      trx__lin_add(&nd, &d, -1);
      int64_t lb;
      bool a_ge_b = trx__lin_lower_bound(&d, &lb) && lb >= 0;   /* a - b >= 0 */
      bool a_le_b = trx__lin_lower_bound(&nd, &lb) && lb >= 0;  /* b - a >= 0 */
      trx__lin_free(&nd);
      TVMFFIObject* nested = NULL;
      if (!d.fail && (trx__lin_is_const(&d) || a_ge_b || a_le_b)) {
        if (trx__lin_is_const(&d)) a_le_b = d.c <= 0;
        bool take_a = kind == TRX_PRIM_MIN ? a_le_b : !a_le_b;
        trx__lin_add(l, take_a ? &a : &b, scale);
      } else if ((nested = trx__nested_minmax(kind, &a, &b)) != NULL) {
        trx__lin_add_atom(l, nested, scale);
      } else {
        trx__lin_add_atom(l, trx__atom_of(kind, &a, &b), scale);
      }
      trx__lin_free(&d);
      break;
    }
    default:
      l->fail = true;
  }
done:
  trx__lin_free(&a);
  trx__lin_free(&b);
}

static void trx__linearize(const TVMFFIObject* e, trx__lin* l, int64_t scale) {
  int64_t v;
  if (l->fail) return;
  if (trx__int_imm_value(e, &v)) {
    if (__builtin_mul_overflow(v, scale, &v) || __builtin_add_overflow(l->c, v, &l->c)) l->fail = true;
    return;
  }
  trx_kind kind = e != NULL ? trx__binop_kind(e) : TRX_NUM_KINDS;
  if (kind != TRX_NUM_KINDS) {
    trx__linearize_binop((const trx_binop_t*)e, kind, l, scale);
    return;
  }
  trx__lin_add_atom(l, trx__ref((TVMFFIObject*)e), scale);
}

/* ---- linear form -> expression ------------------------------------------------------------ */

/* The (steals a, b) binop, releasing both; NULL on failure. */
static TVMFFIObject* trx__bin_steal(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b) {
  TVMFFIObject* r = a && b ? trx_binop_new(kind, a, b) : NULL;
  if (a) TVMFFIObjectDecRef(a);
  if (b) TVMFFIObjectDecRef(b);
  return r;
}

/* monomial * coeff (coeff printed last unless 1). */
static TVMFFIObject* trx__term_expr(const trx__term* t, int64_t coeff) {
  TVMFFIObject* acc = trx__ref(t->f[0].expr);
  for (int32_t i = 1; i < t->n && acc; ++i) acc = trx__bin_steal(TRX_PRIM_MUL, acc, trx__ref(t->f[i].expr));
  if (acc != NULL && coeff != 1) acc = trx__bin_steal(TRX_PRIM_MUL, acc, trx_int64(coeff));
  return acc;
}

static TVMFFIObject* trx__lin_to_expr(const trx__lin* l) {
  TVMFFIObject* acc = NULL;
  bool const_done = false;
  for (int32_t i = 0; i < l->n; ++i) {
    if (l->t[i].coeff <= 0) continue;
    TVMFFIObject* te = trx__term_expr(&l->t[i], l->t[i].coeff);
    if (te == NULL) goto fail;
    acc = acc ? trx__bin_steal(TRX_PRIM_ADD, acc, te) : te;
    if (acc == NULL) return NULL;
  }
  for (int32_t i = 0; i < l->n; ++i) {
    int64_t c = l->t[i].coeff;
    if (c >= 0) continue;
    if (!const_done && l->c > 0) { /* a positive constant precedes the negative terms */
      TVMFFIObject* k = trx_int64(l->c);
      acc = acc ? trx__bin_steal(TRX_PRIM_ADD, acc, k) : k;
      const_done = true;
      if (acc == NULL) return NULL;
    }
    if (acc == NULL || c == INT64_MIN) {
      TVMFFIObject* te = trx__term_expr(&l->t[i], c);
      if (te == NULL) goto fail;
      acc = acc ? trx__bin_steal(TRX_PRIM_ADD, acc, te) : te;
    } else {
      acc = trx__bin_steal(TRX_PRIM_SUB, acc, trx__term_expr(&l->t[i], -c));
    }
    if (acc == NULL) return NULL;
  }
  if (acc == NULL) return trx_int64(l->c);
  if (!const_done && l->c != 0) {
    if (l->c > 0 || l->c == INT64_MIN) acc = trx__bin_steal(TRX_PRIM_ADD, acc, trx_int64(l->c));
    else acc = trx__bin_steal(TRX_PRIM_SUB, acc, trx_int64(-l->c));
  }
  return acc;
fail:
  if (acc) TVMFFIObjectDecRef(acc);
  return NULL;
}

/* ---- public entry points ------------------------------------------------------------------ */


bool trx__int_imm_value(const TVMFFIObject* e, int64_t* out) {
  if (!trx_is(e, TRX_INT_IMM)) return false;
  *out = ((const trx_int_imm_t*)e)->value;
  return true;
}

bool trx__is_int64_expr(const TVMFFIObject* e) {
  const TVMFFIObject* ty = trx__ty(e);
  return trx_is(ty, TRX_PRIM_TYPE) && trx__dtype_equal(((const trx_prim_type_t*)ty)->dtype, trx__dtype_int64);
}

TVMFFIObject* trx_int64(int64_t v) { return trx_int_imm_new(trx__dtype_int64, v); }

bool trx__const_i64(const TVMFFIObject* e, int64_t* out) {
  if (!trx_is(e, TRX_INT_IMM)) return false;
  const TVMFFIObject* ty = ((const trx_expr_t*)e)->ty;
  if (!trx_is(ty, TRX_PRIM_TYPE) || !trx__dtype_equal(((const trx_prim_type_t*)ty)->dtype, trx__dtype_int64)) {
    return false;
  }
  *out = ((const trx_int_imm_t*)e)->value;
  return true;
}

/* a <kind> b on int64 constants as the canonical form folds it; false where the general path
 * does not fold to a constant (overflow, division by zero, INT64_MIN / -1). */
static bool trx__fold(trx_kind kind, int64_t a, int64_t b, int64_t* out) {
  switch (kind) {
    case TRX_PRIM_ADD:
      return !__builtin_add_overflow(a, b, out);
    case TRX_PRIM_SUB: /* the canonical form adds -1 * b: b = INT64_MIN does not fold */
      return b != INT64_MIN && !__builtin_sub_overflow(a, b, out);
    case TRX_PRIM_MUL:
      return !__builtin_mul_overflow(a, b, out);
    case TRX_PRIM_FLOORDIV:
    case TRX_PRIM_FLOORMOD:
      if (b == 0 || (b == -1 && a == INT64_MIN)) return false;
      *out = kind == TRX_PRIM_FLOORDIV ? trx__floordiv_i(a, b) : trx__floormod_i(a, b);
      return true;
    case TRX_PRIM_MIN:
    case TRX_PRIM_MAX: {
      int64_t d;
      if (b == INT64_MIN || __builtin_sub_overflow(a, b, &d)) return false;
      *out = (kind == TRX_PRIM_MIN) == (d <= 0) ? a : b;
      return true;
    }
    default:
      return false;
  }
}

/* As TVM's rewrite rule min(x, y + c1) + c2 = min(x + c2, y) when c1 + c2 == 0 (and max):
 * the form's constant folds into a min / max term (coefficient 1) one of whose operands
 * carries its negation -- min(100, m + 1) - 1 becomes min(99, m); max(n - 3, 0) stays. */
static void trx__lin_absorb_const(trx__lin* l) {
  if (l->fail || l->c == 0) return;
  for (int32_t i = 0; i < l->n; ++i) {
    const trx__term* t = &l->t[i];
    if (t->coeff != 1 || t->n != 1) continue;
    trx_kind kind = trx__binop_kind(t->f[0].expr);
    if (kind != TRX_PRIM_MIN && kind != TRX_PRIM_MAX) continue;
    const trx_binop_t* mm = (const trx_binop_t*)t->f[0].expr;
    trx__lin a = {0}, b = {0};
    trx__linearize(mm->a, &a, 1);
    trx__linearize(mm->b, &b, 1);
    bool hit = !a.fail && !b.fail &&
               ((!trx__lin_is_const(&a) && a.c == -l->c) || (!trx__lin_is_const(&b) && b.c == -l->c));
    if (hit && !__builtin_add_overflow(a.c, l->c, &a.c) && !__builtin_add_overflow(b.c, l->c, &b.c)) {
      TVMFFIObject* atom = trx__atom_of(kind, &a, &b);
      if (atom != NULL) {
        trx__term_free(&l->t[i]);
        memmove(&l->t[i], &l->t[i + 1], sizeof(trx__term) * (size_t)(l->n - i - 1));
        l->n--;
        l->c = 0;
        trx__lin_add_atom(l, atom, 1);
      } else {
        l->fail = true;
      }
      trx__lin_free(&a);
      trx__lin_free(&b);
      return;
    }
    trx__lin_free(&a);
    trx__lin_free(&b);
  }
}

/* As TVM's rewrite rules x - min(x, y) = max(0, x - y) and x - max(x, y) = min(0, x - y)
 * (with x second, 0 comes second): when the form is exactly some x minus a min / max term one
 * of whose operands is x, it becomes that max / min.  On success *l is replaced. */
static void trx__lin_minus_minmax(trx__lin* l) {
  if (l->fail) return;
  for (int32_t i = 0; i < l->n; ++i) {
    const trx__term* t = &l->t[i];
    if (t->coeff != -1 || t->n != 1) continue;
    trx_kind kind = trx__binop_kind(t->f[0].expr);
    if (kind != TRX_PRIM_MIN && kind != TRX_PRIM_MAX) continue;
    const trx_binop_t* mm = (const trx_binop_t*)t->f[0].expr;
    trx__lin rest = {0}; /* l + t: the x side */
    trx__lin_add(&rest, l, 1);
    trx__lin self = {0};
    self.c = 0;
    trx__lin_add_atom(&self, trx__ref(t->f[0].expr), 1);
    trx__lin_add(&rest, &self, 1);
    trx__lin_free(&self);
    for (int side = 0; side < 2 && !rest.fail; ++side) {
      const TVMFFIObject* x = side == 0 ? mm->a : mm->b;
      const TVMFFIObject* y = side == 0 ? mm->b : mm->a;
      trx__lin d = {0}; /* rest - x: zero when the operand is x */
      trx__lin_add(&d, &rest, 1);
      trx__linearize(x, &d, -1);
      bool match = !d.fail && d.n == 0 && d.c == 0;
      trx__lin_free(&d);
      if (!match) continue;
      trx__lin xy = {0}, zero = {0}; /* x - y, 0 */
      trx__lin_add(&xy, &rest, 1);
      trx__linearize(y, &xy, -1);
      trx_kind flip = kind == TRX_PRIM_MIN ? TRX_PRIM_MAX : TRX_PRIM_MIN;
      /* TVM's operand order: x - min(x, y) = max(0, x - y); x - min(y, x) = max(x - y, 0) */
      TVMFFIObject* atom = xy.fail ? NULL : side == 0 ? trx__atom_of(flip, &zero, &xy)
                                                      : trx__atom_of(flip, &xy, &zero);
      trx__lin_free(&xy);
      trx__lin_free(&rest);
      trx__lin_free(l);
      if (atom == NULL) {
        l->fail = true;
        return;
      }
      trx__lin_add_atom(l, atom, 1);
      return;
    }
    trx__lin_free(&rest);
  }
}

TVMFFIObject* trx_simplify(TVMFFIObject* e) {
  int64_t v;
  if (trx__const_i64(e, &v)) return trx__ref(e); /* already canonical */
  if (!trx_is(e, TRX_EXPR)) {
    tether_raise("TypeError", "trx_simplify: expected an Expr, but got %s",
                 e ? tether_type_key(e->type_index) : "None");
    return NULL;
  }
  if (!trx__is_int64_expr(e)) return trx__ref(e);
  trx__lin l = {0};
  trx__linearize(e, &l, 1);
  trx__lin_absorb_const(&l);
  trx__lin_minus_minmax(&l);
  TVMFFIObject* r = NULL;
  if (l.fail) {
    trx__clear_error(); /* a failed sub-step is not the caller's error */
    r = trx__ref(e);
  } else {
    r = trx__lin_to_expr(&l);
  }
  trx__lin_free(&l);
  return r;
}

bool trx_as_const_int(TVMFFIObject* e, int64_t* out) {
  if (trx__int_imm_value(e, out)) return true;
  if (!trx__is_int64_expr(e)) return false;
  trx__lin l = {0};
  trx__linearize(e, &l, 1);
  bool ok = !l.fail && trx__lin_is_const(&l);
  if (ok) *out = l.c;
  if (l.fail) {
    trx__clear_error();
  }
  trx__lin_free(&l);
  return ok;
}

trx_prove_t trx_prove_equal(TVMFFIObject* a, TVMFFIObject* b) {
  if (a == b && a != NULL) return TRX_PROVE_TRUE;
  if (!trx__is_int64_expr(a) || !trx__is_int64_expr(b)) return TRX_PROVE_UNKNOWN;
  trx__lin l = {0};
  trx__linearize(a, &l, 1);
  trx__linearize(b, &l, -1);
  trx_prove_t r = TRX_PROVE_UNKNOWN;
  if (!l.fail && trx__lin_is_const(&l)) {
    r = l.c == 0 ? TRX_PROVE_TRUE : TRX_PROVE_FALSE;
  } else if (!l.fail) {
    /* a - b = c + sum(coeff_i * x_i) over integers: never 0 if gcd(coeff) does not divide c
     * (n * 2 != 1, n * 2 + 1 != 4), as TVM's modular analysis proves. */
    int64_t g = 0;
    for (int32_t i = 0; i < l.n; ++i) {
      int64_t x = l.t[i].coeff < 0 ? -l.t[i].coeff : l.t[i].coeff;
      while (x != 0) {
        int64_t t = g % x;
        g = x;
        x = t;
      }
    }
    if (g > 1 && l.c % g != 0) r = TRX_PROVE_FALSE;
    int64_t lo, hi; /* or the difference's known range excludes 0 (min(3, k) - min(1, k) != 6) */
    trx__lin_bounds(&l, &lo, &hi);
    if ((lo != INT64_MIN && lo > 0) || (hi != INT64_MAX && hi < 0)) r = TRX_PROVE_FALSE;
  }
  if (l.fail) {
    trx__clear_error();
  }
  trx__lin_free(&l);
  return r;
}

TVMFFIObject* trx__mul_fold(TVMFFIObject* a, TVMFFIObject* b) {
  int64_t x, y, folded;
  bool ca = trx__const_i64(a, &x), cb = trx__const_i64(b, &y);
  if (ca && cb && trx__fold(TRX_PRIM_MUL, x, y, &folded)) return trx_int64(folded);
  if ((ca && x == 1) || (cb && y == 0)) return trx__ref(b);
  if ((cb && y == 1) || (ca && x == 0)) return trx__ref(a);
  return trx_binop_new(TRX_PRIM_MUL, a, b);
}

TVMFFIObject* trx__add_fold(TVMFFIObject* a, TVMFFIObject* b) {
  int64_t x, y, folded;
  bool ca = trx__const_i64(a, &x), cb = trx__const_i64(b, &y);
  if (ca && cb && trx__fold(TRX_PRIM_ADD, x, y, &folded)) return trx_int64(folded);
  if (ca && x == 0) return trx__ref(b);
  if (cb && y == 0) return trx__ref(a);
  return trx_binop_new(TRX_PRIM_ADD, a, b);
}

static TVMFFIObject* trx__build(trx_kind kind, TVMFFIObject* a, TVMFFIObject* b) {
  int64_t x, y, folded;
  /* Constants fold without building the binop (the common case of static shapes). */
  if (trx__const_i64(a, &x) && trx__const_i64(b, &y) && trx__fold(kind, x, y, &folded)) return trx_int64(folded);
  TVMFFIObject* raw = trx_binop_new(kind, a, b);
  if (raw == NULL) return NULL;
  TVMFFIObject* r = trx_simplify(raw);
  TVMFFIObjectDecRef(raw);
  return r;
}

TVMFFIObject* trx_add(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_ADD, a, b); }
TVMFFIObject* trx_sub(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_SUB, a, b); }
TVMFFIObject* trx_mul(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_MUL, a, b); }
TVMFFIObject* trx_floordiv(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_FLOORDIV, a, b); }
TVMFFIObject* trx_floormod(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_FLOORMOD, a, b); }
TVMFFIObject* trx_min(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_MIN, a, b); }
TVMFFIObject* trx_max(TVMFFIObject* a, TVMFFIObject* b) { return trx__build(TRX_PRIM_MAX, a, b); }

/* ---- globals: arith.Simplify(e), arith.ProveEqual(a, b) -> 0/1/2, arith.AsConstInt(e) ---- */

static int trx__g_simplify(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  (void)self;
  TVMFFIObject* e = NULL;
  if (tether_check_nargs("arith.Simplify", "(0: ir.Expr) -> ir.Expr", n, 1) != 0 ||
      tether_arg_object("arith.Simplify", args, 0, trx_type_index[TRX_EXPR], &e) != 0) {
    return -1;
  }
  TVMFFIObject* r = trx_simplify(e);
  if (r == NULL) return -1;
  *rv = tether_any_object(r);
  return 0;
}

static int trx__g_prove_equal(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* rv) {
  (void)self;
  TVMFFIObject *a = NULL, *b = NULL;
  if (tether_check_nargs("arith.ProveEqual", "(0: ir.Expr, 1: ir.Expr) -> int", n, 2) != 0 ||
      tether_arg_object("arith.ProveEqual", args, 0, trx_type_index[TRX_EXPR], &a) != 0 ||
      tether_arg_object("arith.ProveEqual", args, 1, trx_type_index[TRX_EXPR], &b) != 0) {
    return -1;
  }
  *rv = tether_any_int((int64_t)trx_prove_equal(a, b));
  return 0;
}

int trx__arith_init(void) {
  if (trx__register_global("arith.Simplify", trx__g_simplify, NULL) != 0) return -1;
  return trx__register_global("arith.ProveEqual", trx__g_prove_equal, NULL);
}

void trx__arith_fini(void) {}
