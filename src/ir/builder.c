/*
 * builder.c -- the normalizer and the BlockBuilder (spec relax.md section 4).
 *
 * The normalizer gives every expression its `ty` and puts it in A-normal form: the
 * arguments of a Call, the fields of a Tuple, the tuple of a TupleGetItem, the condition of
 * an If and the body of a SeqExpr must be leaves (vars, constants, prim exprs, ops, global
 * vars, shapes) or Tuples of leaves; anything else is bound to a fresh var in the innermost
 * open binding block.  A node none of whose children changed is kept, and an inferred type
 * is written into it (Expr.ty is the one mutable field); otherwise a new node is made.
 *
 * The BlockBuilder ("relax.BlockBuilder") holds the module being built, the open function
 * scopes and binding blocks, the variable scopes (which symbolic vars an If type may keep;
 * the type unification itself is in unify.c), one name supply, the table var -> bound value,
 * and the dedup table of the functions it added.  The Python context managers of tether.relax drive it
 * through the relax.BlockBuilder* globals registered at the end of this file.
 */
#include "builder.h"

#include <stdio.h>

#include "node.h"
#include "arith.h"
#include "printer.h"
#include "unify.h"

static int trx__check_match_cast(TVMFFIObject* value, TVMFFIObject* ty);

int32_t trx__block_builder_type_index = -1;

/* ---- builder state -------------------------------------------------------------------------
 * Invariants:
 * - blocks[] is one stack shared by all scopes; a function frame owns the block frames from
 *   its block_base up to the next function's base (or the top).  After emit_func_output the
 *   function owns none (its blocks are closed into `closed`), so emitting there fails as
 *   "no block is being built" until the scope is ended.
 * - The normalizer pushes temporary frames (SeqExpr blocks and bodies, If branches) and pops
 *   them before it returns, also on failure.
 * - Every pointer field holds an owned reference (NULL = none). */

typedef struct {
  TVMFFIObject* bindings; /* Array<Binding> */
  TVMFFIObject* memo;     /* Map<Expr, Var> or NULL: arguments already bound in this block */
  bool is_dataflow;
} trx__block_frame_t;

typedef struct {
  TVMFFIAny name;       /* owning string */
  TVMFFIObject* params; /* Array<Var>, or NULL until emit_func_output supplies them */
  TVMFFIObject* attrs;  /* Map<str, Any> */
  TVMFFIObject* closed; /* Array<BindingBlock>: the non-empty blocks closed so far */
  int32_t block_base;
  int32_t scope_base; /* scopes[] height before the function's own scope */
  bool is_pure;
  bool output_emitted;
} trx__func_frame_t;

/* A function added to the module.  Dedup looks for a structurally equal one; to keep the
 * common case (no candidate) free of structural hashing, entries are first matched on a cheap
 * key that structurally equal functions share (trx__dedup_key), and the structural hash is
 * computed only for entries whose key matches (then cached in the entry). */
typedef struct {
  uint64_t key;
  uint64_t hash; /* valid when hashed */
  bool hashed;
  TVMFFIObject* func;
  TVMFFIObject* gvar;
} trx__dedup_entry_t;

/* A variable scope (TVM's BlockBuilder scope frame): the symbolic vars defined in it, which
 * If types keep (others are erased).  As observed in TVM 0.27, a function scope and a
 * begin_scope(params) scope start from the vars their params define (nothing inherited from
 * outer scopes); an If branch scope starts from a copy of the enclosing one; a MatchCast adds
 * the vars its type defines to the innermost scope (also a MatchCast inside a SeqExpr, which
 * opens no scope). */
typedef struct {
  trx__var_set_t defs;
  bool is_function; /* opened by begin_function: only end_function closes it */
} trx__scope_frame_t;

typedef struct {
  TVMFFIObject header;
  void (*reflected_deleter)(void* self, int flags);
  TVMFFIObject* mod;   /* IRModule; copied before a write when shared */
  TVMFFIObject* names; /* Map<str, int>: each name handed out -> last suffix tried on it */
  TVMFFIObject* table; /* Map<Var, Expr>: every VarBinding emitted */
  trx__block_frame_t* blocks;
  int32_t nblocks, cap_blocks;
  trx__func_frame_t* funcs;
  int32_t nfuncs, cap_funcs;
  trx__scope_frame_t* scopes;
  int32_t nscopes, cap_scopes;
  trx__dedup_entry_t* dedup;
  int64_t ndedup, cap_dedup;
  /* Every symbolic var a function param or match_cast of this builder defined: known
   * non-negative for the rest of the builder's life (relax's analyzer marks them globally). */
  trx__var_set_t nonneg;
  /* The normalizer's bound on recursion (see trx__norm_ahead): the arguments being
   * normalized inside one another, and the Map<Expr, Expr> of results computed ahead (NULL
   * outside a pass; only ever set during one trx__norm_arg call). */
  int32_t arg_depth;
  TVMFFIObject* ahead;
  int32_t ahead_blocks; /* nblocks while b->ahead applies (not in blocks opened below) */
} trx__builder_t;

/* ---- small helpers ------------------------------------------------------------------------- */

static int16_t* trx__kind_table; /* type index - trx__kind_base -> trx_kind, or -1 */
static int32_t trx__kind_base, trx__kind_count;

/* The exact kind of `o`, or -1 for NULL / a type outside TRX_NODE_KINDS. */
static int trx__kind_of(const TVMFFIObject* o) {
  if (o == NULL) return -1;
  int32_t i = o->type_index - trx__kind_base;
  if (trx__kind_table != NULL && i >= 0 && i < trx__kind_count) return trx__kind_table[i];
  return -1;
}

static void trx__unref(TVMFFIObject* o) {
  if (o != NULL) TVMFFIObjectDecRef(o);
}

/* Sets e.ty to `ty_steal` (an Expr node the caller may write: a fresh node or its own). */
static void trx__set_ty(TVMFFIObject* e, TVMFFIObject* ty_steal) {
  trx_expr_t* x = (trx_expr_t*)e;
  TVMFFIObject* old = x->ty;
  x->ty = ty_steal;
  trx__unref(old);
}

static int trx__map_put(TVMFFIObject** map, const TVMFFIAny* k, const TVMFFIAny* v) {
  TVMFFIObjectHandle h = *map;
  int rc = tether_map_set(&h, k, v);
  *map = (TVMFFIObject*)h;
  return rc;
}

static TVMFFIObject* trx__new_array(void) {
  TVMFFIObjectHandle h = NULL;
  return tether_array_new(NULL, 0, &h) == 0 ? (TVMFFIObject*)h : NULL;
}

static TVMFFIObject* trx__new_map(void) {
  TVMFFIObjectHandle h = NULL;
  return tether_map_new(NULL, 0, &h) == 0 ? (TVMFFIObject*)h : NULL;
}

/* TVMScript text of `o` for error messages, into buf (never fails; clears its own error). */
static const char* trx__b_repr(TVMFFIObject* o, char* buf, size_t n) {
  trx_print_options_t opts = {false, true, false};
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray b;
  if (o == NULL) {
    snprintf(buf, n, "None");
  } else if (trx_print(o, &opts, &s) == 0 && tether_any_get_str(&s, &b)) {
    snprintf(buf, n, "%.*s", (int)b.size, b.data);
  } else {
    trx__clear_error();
    snprintf(buf, n, "<%s>", tether_type_key(o->type_index));
  }
  tether_any_release(&s);
  return buf;
}

bool trx__is_leaf_or_tuple(const TVMFFIObject* e) {
  if (e == NULL) return false;
  switch (trx__kind_of(e)) {
    case TRX_CALL:
    case TRX_TUPLE_GET_ITEM:
    case TRX_FUNCTION:
    case TRX_SEQ_EXPR:
    case TRX_IF:
      return false;
    case -1:
      return !(trx_is(e, TRX_CALL) || trx_is(e, TRX_TUPLE_GET_ITEM) || trx_is(e, TRX_FUNCTION) ||
               trx_is(e, TRX_SEQ_EXPR) || trx_is(e, TRX_IF));
    default:
      return true;
  }
}

/* ---- frames -------------------------------------------------------------------------------- */

static trx__block_frame_t* trx__top_block(trx__builder_t* b) {
  return b->nblocks > 0 ? &b->blocks[b->nblocks - 1] : NULL;
}

static int trx__push_block(trx__builder_t* b, bool dataflow) {
  if (b->nblocks == b->cap_blocks) {
    int32_t cap = b->cap_blocks ? b->cap_blocks * 2 : 8;
    trx__block_frame_t* p = realloc(b->blocks, sizeof(*p) * (size_t)cap);
    if (p == NULL) return tether_raise("MemoryError", "BlockBuilder: out of memory");
    b->blocks = p;
    b->cap_blocks = cap;
  }
  TVMFFIObject* arr = trx__new_array();
  if (arr == NULL) return -1;
  trx__block_frame_t* f = &b->blocks[b->nblocks++];
  f->bindings = arr;
  f->memo = NULL;
  f->is_dataflow = dataflow;
  return 0;
}

/* Pops the innermost block frame.  out != NULL: *out = its BindingBlock/DataflowBlock (new
 * reference, possibly empty); the frame is released either way. */
static int trx__pop_block(trx__builder_t* b, TVMFFIObject** out) {
  trx__block_frame_t f = b->blocks[--b->nblocks];
  int rc = 0;
  if (out != NULL) {
    *out = trx_binding_block_new(f.bindings, f.is_dataflow);
    if (*out == NULL) rc = -1;
  }
  trx__unref(f.bindings);
  trx__unref(f.memo);
  return rc;
}

static int64_t trx__block_size(TVMFFIObject* block) {
  return tether_array_size(((trx_binding_block_t*)block)->bindings);
}

/* Pops the block frames above `base`, appending the non-empty ones to *closed (in order). */
static int trx__close_blocks(trx__builder_t* b, int32_t base, TVMFFIObject** closed) {
  int rc = 0;
  int32_t first = b->nblocks;
  /* Build the blocks bottom-up so they keep their order, then drop the frames. */
  for (int32_t i = base; i < first && rc == 0; ++i) {
    trx__block_frame_t* f = &b->blocks[i];
    if (tether_array_size(f->bindings) == 0) continue;
    TVMFFIObject* blk = trx_binding_block_new(f->bindings, f->is_dataflow);
    if (blk == NULL) {
      rc = -1;
    } else {
      rc = trx__array_push_obj(closed, blk);
      trx__unref(blk);
    }
  }
  while (b->nblocks > base) trx__pop_block(b, NULL);
  return rc;
}

static trx__func_frame_t* trx__top_func(trx__builder_t* b) {
  return b->nfuncs > 0 ? &b->funcs[b->nfuncs - 1] : NULL;
}

static void trx__release_func(trx__func_frame_t* f) {
  tether_any_release(&f->name);
  trx__unref(f->params);
  trx__unref(f->attrs);
  trx__unref(f->closed);
}

/* Opens a scope defining the vars of `params` (Array<Var> or NULL), or, if inherit, the vars
 * of the enclosing scope. */
static int trx__push_scope(trx__builder_t* b, TVMFFIObject* params, bool inherit, bool is_function) {
  if (b->nscopes == b->cap_scopes) {
    int32_t cap = b->cap_scopes ? b->cap_scopes * 2 : 8;
    trx__scope_frame_t* p = realloc(b->scopes, sizeof(*p) * (size_t)cap);
    if (p == NULL) return tether_raise("MemoryError", "BlockBuilder: out of memory");
    b->scopes = p;
    b->cap_scopes = cap;
  }
  trx__scope_frame_t f = {{0}, is_function};
  int rc = 0;
  if (inherit && b->nscopes > 0) rc = trx__var_set_add_all(&f.defs, &b->scopes[b->nscopes - 1].defs);
  for (int64_t i = 0, n = params != NULL ? tether_array_size(params) : 0; rc == 0 && i < n; ++i) {
    TVMFFIObject* ty = trx__ty(trx__array_obj(params, i));
    rc = trx__var_set_add_defs(&f.defs, ty);
    if (rc == 0) rc = trx__var_set_add_defs(&b->nonneg, ty);
  }
  if (rc != 0) {
    trx__var_set_clear(&f.defs);
    return -1;
  }
  b->scopes[b->nscopes++] = f;
  return 0;
}

static void trx__pop_scope(trx__builder_t* b) { trx__var_set_clear(&b->scopes[--b->nscopes].defs); }

/* Records the vars that a MatchCast to `ty` defines in the innermost scope (if any). */
static int trx__scope_define(trx__builder_t* b, TVMFFIObject* ty) {
  if (trx__var_set_add_defs(&b->nonneg, ty) != 0) return -1;
  return b->nscopes > 0 ? trx__var_set_add_defs(&b->scopes[b->nscopes - 1].defs, ty) : 0;
}

/* ---- name supply ---------------------------------------------------------------------------
 * A name not handed out yet is returned as is; otherwise the suffix kept for it is
 * incremented until name+suffix is free.  Every name returned is recorded (suffix 0), so a
 * later hint equal to it ("lv1") continues from its own counter ("lv11"). */

/* Writes base (blen bytes) followed by the decimal digits of n > 0 and a NUL into out (room
 * for blen + 21 bytes); the length written. */
static size_t trx__name_with_counter(char* out, const char* base, size_t blen, int64_t n) {
  char digits[20];
  size_t nd = 0;
  for (uint64_t v = (uint64_t)n; v != 0; v /= 10) digits[nd++] = (char)('0' + v % 10);
  memcpy(out, base, blen);
  for (size_t i = 0; i < nd; ++i) out[blen + i] = digits[nd - 1 - i];
  out[blen + nd] = '\0';
  return blen + nd;
}

static int trx__fresh_name(trx__builder_t* b, const char* prefix, size_t len, TVMFFIAny* out) {
  char base_buf[64], cand_buf[88]; /* the usual short hints need no heap */
  char* base = len + 2 <= sizeof(base_buf) ? base_buf : malloc(len + 2);
  char* cand = len + 24 <= sizeof(cand_buf) ? cand_buf : malloc(len + 24);
  int rc = -1;
  if (base == NULL || cand == NULL) {
    tether_raise("MemoryError", "BlockBuilder: out of memory");
    goto done;
  }
  if (len == 0) {
    memcpy(base, "v", 2);
  } else {
    for (size_t i = 0; i < len; ++i) base[i] = prefix[i] == '.' ? '_' : prefix[i];
    base[len] = '\0';
  }
  TVMFFIAny key = tether_any_raw_str(base);
  TVMFFIAny zero = tether_any_int(0);
  const TVMFFIAny* seen = tether_map_find(b->names, &key);
  if (seen == NULL) {
    if (trx__map_put(&b->names, &key, &zero) != 0) goto done;
    rc = tether_any_str(base, strlen(base), out);
    goto done;
  }
  int64_t counter = seen->v_int64;
  size_t blen = strlen(base);
  for (;;) {
    ++counter;
    size_t clen = trx__name_with_counter(cand, base, blen, counter);
    TVMFFIAny ck = tether_any_raw_str(cand);
    if (tether_map_find(b->names, &ck) == NULL) {
      TVMFFIAny cv = tether_any_int(counter);
      if (trx__map_put(&b->names, &ck, &zero) != 0 || trx__map_put(&b->names, &key, &cv) != 0) {
        goto done;
      }
      rc = tether_any_str(cand, clen, out);
      goto done;
    }
  }
done:
  if (base != base_buf) free(base);
  if (cand != cand_buf) free(cand);
  return rc;
}

/* ---- emission ------------------------------------------------------------------------------ */

static int trx__no_block(void) {
  return tether_raise("InternalError",
                      "Check failed: (!block_stack_.empty()) is false: no block is being built");
}

/* Binds the normalized `value` to a fresh var in the innermost block; new reference to the
 * var (a DataflowVar if dataflow_var).  The caller ensures a block is open. */
static TVMFFIObject* trx__emit_normalized(trx__builder_t* b, TVMFFIObject* value, bool dataflow_var,
                                          const char* hint, size_t len) {
  TVMFFIAny name = tether_any_none();
  TVMFFIObject *var = NULL, *binding = NULL;
  if (hint == NULL || len == 0) {
    hint = dataflow_var ? "lv" : "gv";
    len = 2;
  }
  if (trx__fresh_name(b, hint, len, &name) != 0) goto fail;
  TVMFFIByteArray s = trx__str(&name);
  var = trx_var_new(s.data, s.size, trx__ty(value), dataflow_var);
  if (var == NULL) goto fail;
  binding = trx_var_binding_new(var, value);
  if (binding == NULL || trx__array_push_obj(&trx__top_block(b)->bindings, binding) != 0) goto fail;
  TVMFFIAny k = tether_any_object(var), v = tether_any_object(value);
  if (trx__map_put(&b->table, &k, &v) != 0) goto fail;
  trx__unref(binding);
  tether_any_release(&name);
  return var;
fail:
  trx__unref(var);
  trx__unref(binding);
  tether_any_release(&name);
  return NULL;
}

/* ---- normalizer ---------------------------------------------------------------------------- */

static TVMFFIObject* trx__visit(trx__builder_t* b, TVMFFIObject* e);

/* The var already bound to argument `e` in the innermost block (borrowed), or NULL. */
static TVMFFIObject* trx__memo_find(trx__builder_t* b, TVMFFIObject* e) {
  trx__block_frame_t* f = trx__top_block(b);
  if (f == NULL || f->memo == NULL) return NULL;
  TVMFFIAny k = tether_any_object(e);
  const TVMFFIAny* v = tether_map_find(f->memo, &k);
  return v != NULL ? v->v_obj : NULL;
}

/* Normalize `e` as a whole expression (new reference). */
static TVMFFIObject* trx__norm(trx__builder_t* b, TVMFFIObject* e) {
  TVMFFIObject* hit = trx__memo_find(b, e);
  return hit != NULL ? trx__ref(hit) : trx__visit(b, e);
}

/* ---- arguments nested without bound ----
 * Normalizing an argument visits its own arguments first, so a chain of 100,000 nested
 * Calls would nest 100,000 visits on the C stack.  Past TRX__NORM_MAX_DEPTH nested
 * arguments, trx__norm_ahead walks the argument's subtree with an explicit stack and
 * normalizes its nested arguments (those of Calls whose callee normalizes without side
 * effects, of Tuples and of TupleGetItems) innermost first -- the order the recursive visit
 * reaches them -- recording each result in b->ahead.  The visit that follows finds every
 * argument there and goes one level deep, so the bindings, names and errors are those of
 * the recursive form.  The table lives only for that one visit. */
#define TRX__NORM_MAX_DEPTH 256

static TVMFFIObject* trx__norm_arg(trx__builder_t* b, TVMFFIObject* e);

/* The arguments trx__visit normalizes with trx__norm_arg in the block `e` is in, as an
 * Array (borrowed) or a single expr; false when `e` has none or is left to the visit. */
static bool trx__nested_args(TVMFFIObject* e, TVMFFIObject** arr, TVMFFIObject** one) {
  *arr = *one = NULL;
  switch (trx__kind_of(e)) {
    case TRX_CALL: {
      int op = trx__kind_of(((trx_call_t*)e)->op);
      if (op != TRX_OP && op != TRX_GLOBAL_VAR && op != TRX_EXTERN_FUNC) return false;
      *arr = ((trx_call_t*)e)->args;
      return true;
    }
    case TRX_TUPLE:
      *arr = ((trx_tuple_t*)e)->fields;
      return true;
    case TRX_TUPLE_GET_ITEM:
      *one = ((trx_tuple_get_item_t*)e)->tuple_value;
      return true;
    default:
      return false;
  }
}

static const TVMFFIAny* trx__ahead_find(trx__builder_t* b, TVMFFIObject* e) {
  if (b->ahead == NULL || b->nblocks != b->ahead_blocks) return NULL;
  TVMFFIAny k = tether_any_object(e);
  return tether_map_find(b->ahead, &k);
}

/* Child i of `e` per trx__nested_args (borrowed), or NULL past the end / for a non-Expr. */
static TVMFFIObject* trx__nested_child(TVMFFIObject* e, int64_t i) {
  TVMFFIObject *arr, *one;
  if (!trx__nested_args(e, &arr, &one)) return NULL;
  if (one != NULL) return i == 0 ? one : NULL;
  const TVMFFIAny* v = tether_array_at(arr, i);
  return v != NULL && tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR) ? v->v_obj : NULL;
}

static int64_t trx__nested_count(TVMFFIObject* e) {
  TVMFFIObject *arr, *one;
  if (!trx__nested_args(e, &arr, &one)) return 0;
  return one != NULL ? 1 : tether_array_size(arr);
}

/* Normalizes the nested arguments below `e` (not `e` itself) into b->ahead. */
static int trx__norm_ahead(trx__builder_t* b, TVMFFIObject* e) {
  typedef struct {
    TVMFFIObject* e;
    int64_t next, n;
  } item_t;
  item_t* stack = NULL;
  size_t n = 0, cap = 0;
  int rc = -1;
  if (b->ahead == NULL && (b->ahead = trx__new_map()) == NULL) return -1;
  b->ahead_blocks = b->nblocks;
  if ((stack = malloc(sizeof(item_t) * (cap = 64))) == NULL) goto oom;
  stack[n++] = (item_t){e, 0, trx__nested_count(e)};
  while (n > 0) {
    item_t* top = &stack[n - 1];
    if (top->next < top->n) {
      TVMFFIObject* c = trx__nested_child(top->e, top->next++);
      if (c == NULL || trx__memo_find(b, c) != NULL || trx__ahead_find(b, c) != NULL) continue;
      int64_t cn = trx__nested_count(c);
      if (cn <= 0) continue; /* a leaf, or left to the visit: normalized in place */
      if (n == cap) {
        item_t* grown = realloc(stack, sizeof(item_t) * (cap *= 2));
        if (grown == NULL) goto oom;
        stack = grown;
      }
      stack[n++] = (item_t){c, 0, cn};
      continue;
    }
    TVMFFIObject* done = top->e;
    if (--n == 0) break; /* `e` itself: the caller visits it */
    TVMFFIObject* post = trx__norm_arg(b, done);
    if (post == NULL) goto fail;
    TVMFFIAny k = tether_any_object(done), v = tether_any_object(post);
    int put = trx__map_put(&b->ahead, &k, &v);
    trx__unref(post);
    if (put != 0) goto fail;
  }
  rc = 0;
  goto fail;
oom:
  tether_raise("MemoryError", "BlockBuilder: out of memory");
fail:
  free(stack);
  return rc;
}

/* Normalize `e` as an argument: a non-leaf result is bound to a fresh var (new reference). */
static TVMFFIObject* trx__norm_arg(trx__builder_t* b, TVMFFIObject* e) {
  TVMFFIObject* hit = trx__memo_find(b, e);
  if (hit != NULL) return trx__ref(hit);
  const TVMFFIAny* ahead = trx__ahead_find(b, e);
  if (ahead != NULL) return trx__ref(ahead->v_obj);
  TVMFFIObject* post = NULL;
  if (b->arg_depth >= TRX__NORM_MAX_DEPTH && b->ahead == NULL) {
    /* the visit of `e` below then stays shallow; the table is dropped after it */
    if (trx__norm_ahead(b, e) == 0) post = trx__visit(b, e);
    trx__unref(b->ahead);
    b->ahead = NULL;
  } else {
    b->arg_depth++;
    post = trx__visit(b, e);
    b->arg_depth--;
  }
  if (post == NULL || trx__is_leaf_or_tuple(e)) return post;
  trx__block_frame_t* f = trx__top_block(b);
  if (f == NULL) {
    trx__unref(post);
    tether_raise("InternalError",
                 "Check failed: (!block_stack_.empty()) is false: Cannot normalize non-leaf without a scope");
    return NULL;
  }
  TVMFFIObject* var = trx__emit_normalized(b, post, f->is_dataflow, NULL, 0);
  trx__unref(post);
  if (var == NULL) return NULL;
  f = trx__top_block(b);
  if (f->memo == NULL && (f->memo = trx__new_map()) == NULL) goto fail;
  TVMFFIAny k = tether_any_object(e), v = tether_any_object(var);
  if (trx__map_put(&f->memo, &k, &v) != 0) goto fail;
  return var;
fail:
  trx__unref(var);
  return NULL;
}

/* Normalizes each element of `arr` as an argument.  *out: `arr` itself (new reference) when
 * nothing changed, else a new Array. */
static int trx__norm_args(trx__builder_t* b, TVMFFIObject* arr, TVMFFIObject** out) {
  int64_t n = tether_array_size(arr);
  TVMFFIAny small[8];
  TVMFFIAny* items = n <= 8 ? small : malloc(sizeof(TVMFFIAny) * (size_t)n);
  bool changed = false;
  int64_t done = 0;
  int rc = -1;
  if (items == NULL) return tether_raise("MemoryError", "BlockBuilder: out of memory");
  for (; done < n; ++done) {
    const TVMFFIAny* v = tether_array_at(arr, done);
    if (tether_any_is_object(v) && trx_is(v->v_obj, TRX_EXPR)) {
      TVMFFIObject* post = trx__norm_arg(b, v->v_obj);
      if (post == NULL) goto fail;
      changed |= post != v->v_obj;
      items[done] = tether_any_object(post); /* owns `post` */
    } else {
      tether_any_copy(v, &items[done]);
    }
  }
  if (!changed) {
    *out = trx__ref(arr);
    rc = 0;
  } else {
    TVMFFIObjectHandle h = NULL;
    rc = tether_array_new(items, n, &h);
    *out = (TVMFFIObject*)h;
  }
fail:
  for (int64_t i = 0; i < done; ++i) tether_any_release(&items[i]);
  if (items != small) free(items);
  return rc;
}

/* Normalizes `e` in a scope of its own (function bodies, If branches): the bindings it needs
 * go into a fresh block, and the result is always a SeqExpr (new reference). */
static TVMFFIObject* trx__norm_scope(trx__builder_t* b, TVMFFIObject* e) {
  TVMFFIObject *post = NULL, *block = NULL, *blocks = NULL, *seq = NULL;
  if (trx__push_block(b, false) != 0) return NULL;
  post = trx_is(e, TRX_SEQ_EXPR) ? trx__norm(b, e) : trx__norm_arg(b, e);
  if (trx__pop_block(b, post != NULL ? &block : NULL) != 0 || post == NULL) goto fail;
  if (trx__block_size(block) == 0 && trx_is(post, TRX_SEQ_EXPR)) {
    seq = trx__ref(post);
    goto fail;
  }
  if ((blocks = trx__new_array()) == NULL) goto fail;
  if (trx__block_size(block) > 0 && trx__array_push_obj(&blocks, block) != 0) goto fail;
  seq = trx_seq_expr_new(blocks, post);
  if (seq != NULL && trx__ty(seq) == NULL) trx__set_ty(seq, trx__ref(trx__ty(post)));
fail:
  trx__unref(post);
  trx__unref(block);
  trx__unref(blocks);
  return seq;
}

/* An If branch: normalized as a scope of its own, in a variable scope inheriting the
 * enclosing one (new reference). */
static TVMFFIObject* trx__norm_branch(trx__builder_t* b, TVMFFIObject* e) {
  if (trx__push_scope(b, NULL, true, false) != 0) return NULL;
  TVMFFIObject* r = trx__norm_scope(b, e);
  trx__pop_scope(b);
  return r;
}

static TVMFFIObject* trx__visit_tuple(trx__builder_t* b, TVMFFIObject* e) {
  trx_tuple_t* t = (trx_tuple_t*)e;
  TVMFFIObject* fields = NULL;
  if (trx__norm_args(b, t->fields, &fields) != 0) return NULL;
  TVMFFIObject* node = fields == t->fields ? trx__ref(e) : trx_tuple_new(fields);
  trx__unref(fields);
  if (node == NULL || trx__ty(node) != NULL) return node;
  /* Unchanged but untyped: every field is typed now, so type it in place. */
  trx_tuple_t* nt = (trx_tuple_t*)node;
  int64_t n = tether_array_size(nt->fields);
  TVMFFIObject* tys = trx__new_array();
  for (int64_t i = 0; tys != NULL && i < n; ++i) {
    TVMFFIObject* fty = trx__ty(trx__array_obj(nt->fields, i));
    if (fty == NULL) {
      trx__unref(tys);
      return node; /* a field without a type (not an Expr): leave the tuple untyped */
    }
    if (trx__array_push_obj(&tys, fty) != 0) {
      trx__unref(tys);
      tys = NULL;
    }
  }
  TVMFFIObject* ty = tys != NULL ? trx_tuple_type_new(tys) : NULL;
  trx__unref(tys);
  if (ty == NULL) {
    trx__unref(node);
    return NULL;
  }
  trx__set_ty(node, ty);
  return node;
}

/* The type of `call` (whose callee and args are normalized): the op's FInferType, or the
 * callee's FuncType return in terms of the arguments.  New reference. */
static TVMFFIObject* trx__infer_call(TVMFFIObject* call) {
  trx_call_t* c = (trx_call_t*)call;
  if (trx_is(c->op, TRX_OP)) return trx_infer_type(call);
  TVMFFIObject* fty = trx__ty(c->op);
  if (fty == NULL) {
    tether_raise("InternalError", "Check failed: (!call->op->ty.IsMissing()) is false: ");
    return NULL;
  }
  TVMFFIObject* first_ty_arg = tether_array_size(c->ty_args) > 0 ? trx__array_obj(c->ty_args, 0) : NULL;
  switch (trx__kind_of(fty)) {
    case TRX_FUNC_TYPE: {
      trx_func_type_t* f = (trx_func_type_t*)fty;
      /* An opaque callee (params unknown) returns what the call's ty_args say, if anything. */
      if (f->params == NULL) return trx__ref(first_ty_arg != NULL ? first_ty_arg : f->ret);
      /* Else the callee's symbolic vars are bound to the argument dims they match. */
      TVMFFIObject* ret = NULL;
      int64_t bad = -1;
      if (trx__type_call_ret(f->params, c->args, f->ret, &ret, &bad) != 0 || ret != NULL) return ret;
      char r1[512], r2[512];
      tether_raise("ValueError", "Argument %lld type mismatch: expected %s, given %s", (long long)bad,
                   trx__b_repr(trx__array_obj(f->params, bad), r1, sizeof(r1)),
                   trx__b_repr(trx__ty(trx__array_obj(c->args, bad)), r2, sizeof(r2)));
      return NULL;
    }
    case TRX_PACKED_FUNC_TYPE:
      return first_ty_arg != NULL ? trx__ref(first_ty_arg) : trx_any_type_new();
    default:
      tether_raise("InternalError", "Check failed: (opt) is false: Call->op must contains a function type");
      return NULL;
  }
}

static TVMFFIObject* trx__visit_call(trx__builder_t* b, TVMFFIObject* e) {
  trx_call_t* c = (trx_call_t*)e;
  TVMFFIObject *op = NULL, *args = NULL, *node = NULL;
  op = trx__norm(b, c->op);
  if (op == NULL || trx__norm_args(b, c->args, &args) != 0) goto fail;
  node = (op == c->op && args == c->args) ? trx__ref(e) : trx_call_new(op, args, c->attrs, c->ty_args);
  if (node != NULL && trx__ty(node) == NULL) {
    const trx__var_set_t* outer = trx__set_nonneg_vars(&b->nonneg);
    TVMFFIObject* ty = trx__infer_call(node);
    trx__set_nonneg_vars(outer);
    if (ty == NULL) {
      trx__unref(node);
      node = NULL;
    } else {
      trx__set_ty(node, ty);
    }
  }
fail:
  trx__unref(op);
  trx__unref(args);
  return node;
}

static TVMFFIObject* trx__visit_tuple_get_item(trx__builder_t* b, TVMFFIObject* e) {
  trx_tuple_get_item_t* g = (trx_tuple_get_item_t*)e;
  TVMFFIObject* tuple = trx__norm_arg(b, g->tuple_value);
  if (tuple == NULL) return NULL;
  TVMFFIObject* node = tuple == g->tuple_value ? trx__ref(e) : trx_tuple_get_item_new(tuple, g->index);
  if (node != NULL && trx__ty(node) == NULL) {
    TVMFFIObject* tty = trx__ty(tuple);
    char r1[512], r2[512];
    if (!trx_is(tty, TRX_TUPLE_TYPE)) {
      tether_raise("InternalError",
                   "Check failed: (opt) is false: The type of Tuple must be TupleType, but "
                   "expression %s has type %s",
                   trx__b_repr(tuple, r1, sizeof(r1)), trx__b_repr(tty, r2, sizeof(r2)));
      goto fail;
    }
    TVMFFIObject* fields = ((trx_tuple_type_t*)tty)->fields;
    int64_t n = tether_array_size(fields);
    if (g->index < 0 || g->index >= n) {
      tether_raise("IndexError",
                   "Index out of bounds: Tuple %s is of size %lld, and cannot be accessed with index %lld",
                   trx__b_repr(tuple, r1, sizeof(r1)), (long long)n, (long long)g->index);
      goto fail;
    }
    trx__set_ty(node, trx__ref(trx__array_obj(fields, g->index)));
  }
  trx__unref(tuple);
  return node;
fail:
  trx__unref(tuple);
  trx__unref(node);
  return NULL;
}

/* Normalizes one block of a SeqExpr into a fresh frame.  *out: the block itself when nothing
 * changed, else the new block (new reference; may be empty). */
static int trx__norm_block(trx__builder_t* b, TVMFFIObject* block, TVMFFIObject** out) {
  trx_binding_block_t* blk = (trx_binding_block_t*)block;
  int64_t n = tether_array_size(blk->bindings);
  bool changed = false;
  TVMFFIObject* nb = NULL;
  if (trx__push_block(b, trx_is(block, TRX_DATAFLOW_BLOCK)) != 0) return -1;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* bd = trx__array_obj(blk->bindings, i);
    if (trx_is(bd, TRX_VAR_BINDING)) {
      trx_var_binding_t* vb = (trx_var_binding_t*)bd;
      TVMFFIObject* value = trx__norm(b, vb->value);
      if (value == NULL) goto fail;
      trx_var_t* var = (trx_var_t*)vb->base.var;
      if (var->base.ty == NULL) var->base.ty = trx__ref(trx__ty(value));
      if (value == vb->value) {
        nb = trx__ref(bd);
      } else {
        nb = trx_var_binding_new(vb->base.var, value);
        TVMFFIAny k = tether_any_object(vb->base.var), v = tether_any_object(value);
        if (nb != NULL && trx__map_put(&b->table, &k, &v) != 0) {
          trx__unref(nb);
          nb = NULL;
        }
      }
      trx__unref(value);
    } else if (trx_is(bd, TRX_MATCH_CAST)) {
      trx_match_cast_t* mc = (trx_match_cast_t*)bd;
      TVMFFIObject* value = trx__norm(b, mc->value);
      if (value == NULL) goto fail;
      if (trx__check_match_cast(value, mc->ty) != 0) {
        trx__unref(value);
        goto fail;
      }
      nb = value == mc->value ? trx__ref(bd) : trx_match_cast_new(mc->base.var, value, mc->ty);
      trx__unref(value);
      if (nb != NULL && trx__scope_define(b, mc->ty) != 0) goto fail;
    } else {
      nb = trx__ref(bd);
    }
    if (nb == NULL || trx__array_push_obj(&trx__top_block(b)->bindings, nb) != 0) goto fail;
    changed |= nb != bd;
    trx__unref(nb);
    nb = NULL;
  }
  changed |= tether_array_size(trx__top_block(b)->bindings) != n;
  if (!changed) {
    trx__pop_block(b, NULL);
    *out = trx__ref(block);
    return 0;
  }
  return trx__pop_block(b, out);
fail:
  trx__unref(nb);
  trx__pop_block(b, NULL);
  return -1;
}

/* As TVM's normalizer does: adjacent blocks of the same kind (dataflow or not) become one.
 * *blocks is replaced when anything merges (then *changed is set); 0 or -1. */
static int trx__merge_blocks(TVMFFIObject** blocks, bool* changed) {
  int64_t n = tether_array_size(*blocks);
  bool any = false;
  for (int64_t i = 1; i < n && !any; ++i) {
    any = trx_is(trx__array_obj(*blocks, i), TRX_DATAFLOW_BLOCK) ==
          trx_is(trx__array_obj(*blocks, i - 1), TRX_DATAFLOW_BLOCK);
  }
  if (!any) return 0;
  TVMFFIObject *out = trx__new_array(), *bindings = NULL, *blk = NULL;
  if (out == NULL) return -1;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* cur = trx__array_obj(*blocks, i);
    bool df = trx_is(cur, TRX_DATAFLOW_BLOCK);
    if (bindings == NULL && (bindings = trx__new_array()) == NULL) goto fail;
    TVMFFIObject* bs = ((trx_binding_block_t*)cur)->bindings;
    for (int64_t j = 0, m = tether_array_size(bs); j < m; ++j) {
      if (trx__array_push_obj(&bindings, trx__array_obj(bs, j)) != 0) goto fail;
    }
    if (i + 1 < n && trx_is(trx__array_obj(*blocks, i + 1), TRX_DATAFLOW_BLOCK) == df) continue;
    if ((blk = trx_binding_block_new(bindings, df)) == NULL || trx__array_push_obj(&out, blk) != 0) goto fail;
    trx__unref(blk);
    trx__unref(bindings);
    blk = bindings = NULL;
  }
  trx__unref(*blocks);
  *blocks = out;
  *changed = true;
  return 0;
fail:
  trx__unref(blk);
  trx__unref(bindings);
  trx__unref(out);
  return -1;
}

static TVMFFIObject* trx__visit_seq(trx__builder_t* b, TVMFFIObject* e) {
  trx_seq_expr_t* s = (trx_seq_expr_t*)e;
  TVMFFIObject *blocks = trx__new_array(), *body = NULL, *prologue = NULL, *node = NULL;
  bool changed = false;
  if (blocks == NULL) return NULL;
  int64_t n = tether_array_size(s->blocks);
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIObject* blk = trx__array_obj(s->blocks, i);
    TVMFFIObject* nblk = NULL;
    if (trx__norm_block(b, blk, &nblk) != 0) goto fail;
    changed |= nblk != blk;
    int rc = trx__block_size(nblk) > 0 ? trx__array_push_obj(&blocks, nblk) : 0;
    changed |= trx__block_size(nblk) == 0; /* empty blocks are dropped */
    trx__unref(nblk);
    if (rc != 0) goto fail;
  }
  if (trx__push_block(b, false) != 0) goto fail;
  body = trx__norm_arg(b, s->body);
  if (trx__pop_block(b, body != NULL ? &prologue : NULL) != 0 || body == NULL) goto fail;
  if (trx__block_size(prologue) > 0) {
    if (trx__array_push_obj(&blocks, prologue) != 0) goto fail;
    changed = true;
  }
  if (trx__merge_blocks(&blocks, &changed) != 0) goto fail;
  changed |= body != s->body;
  node = changed ? trx_seq_expr_new(blocks, body) : trx__ref(e);
  if (node != NULL && trx__ty(node) == NULL) trx__set_ty(node, trx__ref(trx__ty(body)));
fail:
  trx__unref(blocks);
  trx__unref(body);
  trx__unref(prologue);
  return node;
}

static TVMFFIObject* trx__visit_function(trx__builder_t* b, TVMFFIObject* e) {
  trx_function_t* f = (trx_function_t*)e;
  if (trx__push_scope(b, f->params, false, false) != 0) return NULL;
  TVMFFIObject* body = trx__norm_scope(b, f->body);
  trx__pop_scope(b);
  if (body == NULL) return NULL;
  TVMFFIObject* node = body == f->body ? trx__ref(e)
                                       : trx_function_new(f->params, body, f->ret_ty, f->is_pure,
                                                          f->base.attrs);
  trx__unref(body);
  return node;
}

static TVMFFIObject* trx__visit_if(trx__builder_t* b, TVMFFIObject* e) {
  trx_if_t* x = (trx_if_t*)e;
  TVMFFIObject *cond = NULL, *t = NULL, *f = NULL, *node = NULL;
  TVMFFIObject *et = NULL, *ef = NULL;
  if ((cond = trx__norm_arg(b, x->cond)) == NULL || (t = trx__norm_branch(b, x->true_branch)) == NULL ||
      (f = trx__norm_branch(b, x->false_branch)) == NULL) {
    goto fail;
  }
  node = (cond == x->cond && t == x->true_branch && f == x->false_branch) ? trx__ref(e)
                                                                          : trx_if_new(cond, t, f);
  if (node != NULL && trx__ty(node) == NULL) {
    /* The branch types lose the vars the enclosing scope does not define (TVM erases to the
     * current scope first), then unify. */
    static const trx__var_set_t none = {0};
    const trx__var_set_t* defs = b->nscopes > 0 ? &b->scopes[b->nscopes - 1].defs : &none;
    TVMFFIObject* ty = NULL;
    if ((et = trx__type_erase(defs, trx__ty(t))) != NULL && (ef = trx__type_erase(defs, trx__ty(f))) != NULL) {
      ty = trx_type_lca(et, ef);
    } else if (trx__ty(t) == NULL || trx__ty(f) == NULL) {
      ty = trx_any_type_new(); /* a branch without a type (not an Expr) */
    }
    if (ty == NULL) {
      trx__unref(node);
      node = NULL;
    } else {
      trx__set_ty(node, ty);
    }
  }
fail:
  trx__unref(et);
  trx__unref(ef);
  trx__unref(cond);
  trx__unref(t);
  trx__unref(f);
  return node;
}

static TVMFFIObject* trx__visit(trx__builder_t* b, TVMFFIObject* e) {
  int kind = trx__kind_of(e);
  switch (kind) {
    case TRX_TUPLE:
      return trx__visit_tuple(b, e);
    case TRX_CALL:
      return trx__visit_call(b, e);
    case TRX_TUPLE_GET_ITEM:
      return trx__visit_tuple_get_item(b, e);
    case TRX_SEQ_EXPR:
      return trx__visit_seq(b, e);
    case TRX_FUNCTION:
      return trx__visit_function(b, e);
    case TRX_IF:
      return trx__visit_if(b, e);
    case TRX_VAR:
    case TRX_DATAFLOW_VAR:
      if (trx__ty(e) == NULL) {
        TVMFFIByteArray name = trx__str(&((trx_var_t*)e)->name);
        tether_raise("InternalError",
                     "Check failed: (!var->ty.IsMissing()) is false: Var %.*s does not have type.",
                     (int)name.size, name.data);
        return NULL;
      }
      return trx__ref(e);
    default:
      return trx__ref(e); /* leaves: constants, prim exprs, ops, global vars, shapes, ... */
  }
}

/* ---- the builder object -------------------------------------------------------------------- */

static void trx__builder_deleter(void* self, int flags) {
  trx__builder_t* b = self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    while (b->nblocks > 0) trx__pop_block(b, NULL);
    for (int32_t i = 0; i < b->nfuncs; ++i) trx__release_func(&b->funcs[i]);
    while (b->nscopes > 0) trx__pop_scope(b);
    trx__var_set_clear(&b->nonneg);
    free(b->scopes);
    b->scopes = NULL;
    for (int64_t i = 0; i < b->ndedup; ++i) {
      trx__unref(b->dedup[i].func);
      trx__unref(b->dedup[i].gvar);
    }
    free(b->blocks);
    free(b->funcs);
    free(b->dedup);
    trx__unref(b->mod);
    trx__unref(b->names);
    trx__unref(b->table);
    b->blocks = NULL;
    b->funcs = NULL;
    b->dedup = NULL;
    b->mod = b->names = b->table = NULL;
    b->nblocks = b->nfuncs = 0;
    b->ndedup = 0;
  }
  b->reflected_deleter(self, flags);
}

/* `bb` as a builder, or NULL with TypeError raised naming `fname`. */
static trx__builder_t* trx__as_builder(const char* fname, TVMFFIObject* bb) {
  if (bb == NULL || bb->type_index != trx__block_builder_type_index) {
    tether_raise("TypeError", "%s: expected a relax.BlockBuilder, but got %s", fname,
                 bb == NULL ? "None" : tether_type_key(bb->type_index));
    return NULL;
  }
  return (trx__builder_t*)bb;
}

static int trx__check_expr(const char* fname, const char* argname, TVMFFIObject* e) {
  if (!trx_is(e, TRX_EXPR)) {
    return tether_raise("TypeError", "%s: argument `%s` must be a relax Expr, but got %s", fname,
                        argname, e == NULL ? "None" : tether_type_key(e->type_index));
  }
  return 0;
}

/* Equal for structurally equal functions: the type, the number of params, of blocks and of
 * bindings (structural equality compares those array lengths exactly). */
static uint64_t trx__dedup_key(TVMFFIObject* func) {
  uint64_t key = (uint64_t)(uint32_t)func->type_index;
  if (trx__kind_of(func) != TRX_FUNCTION) return key;
  const trx_function_t* f = (const trx_function_t*)func;
  int64_t nparams = f->params != NULL ? tether_array_size(f->params) : -1, nblocks = -1, nbindings = 0;
  if (trx__kind_of(f->body) == TRX_SEQ_EXPR) {
    TVMFFIObject* blocks = ((const trx_seq_expr_t*)f->body)->blocks;
    nblocks = tether_array_size(blocks);
    for (int64_t i = 0; i < nblocks; ++i) {
      TVMFFIObject* blk = trx__array_obj(blocks, i);
      if (trx_is(blk, TRX_BINDING_BLOCK)) nbindings += tether_array_size(((trx_binding_block_t*)blk)->bindings);
    }
  }
  key = key * UINT64_C(0x100000001b3) ^ (uint64_t)nparams;
  key = key * UINT64_C(0x100000001b3) ^ (uint64_t)nblocks;
  return key * UINT64_C(0x100000001b3) ^ (uint64_t)nbindings;
}

static int trx__dedup_add(trx__builder_t* b, TVMFFIObject* func, TVMFFIObject* gvar) {
  if (b->ndedup == b->cap_dedup) {
    int64_t cap = b->cap_dedup ? b->cap_dedup * 2 : 8;
    trx__dedup_entry_t* p = realloc(b->dedup, sizeof(*p) * (size_t)cap);
    if (p == NULL) return tether_raise("MemoryError", "BlockBuilder: out of memory");
    b->dedup = p;
    b->cap_dedup = cap;
  }
  trx__dedup_entry_t* d = &b->dedup[b->ndedup++];
  d->key = trx__dedup_key(func);
  d->hash = 0;
  d->hashed = false;
  d->func = trx__ref(func);
  d->gvar = trx__ref(gvar);
  return 0;
}

TVMFFIObject* trx_block_builder_new(TVMFFIObject* mod) {
  TVMFFIObjectHandle h = NULL;
  trx__builder_t* b = NULL;
  if (mod != NULL && !trx_is(mod, TRX_IR_MODULE)) {
    tether_raise("TypeError", "relax.BlockBuilderCreate: argument `mod` must be an IRModule or None, but got %s",
                 tether_type_key(mod->type_index));
    return NULL;
  }
  if (tether_object_new_reflected(trx__block_builder_type_index, &h) != 0) return NULL;
  b = h;
  b->reflected_deleter = b->header.deleter;
  b->header.deleter = trx__builder_deleter;
  b->names = trx__new_map();
  b->table = b->names != NULL ? trx__new_map() : NULL;
  b->mod = b->table == NULL ? NULL : mod != NULL ? trx__ref(mod) : trx_ir_module_new();
  if (b->mod == NULL) goto fail;
  /* Reserve the module's names and seed the dedup table with its functions. */
  trx_ir_module_t* m = (trx_ir_module_t*)b->mod;
  const TVMFFIAny *k = NULL, *v = NULL;
  TVMFFIAny zero = tether_any_int(0);
  for (int64_t pos = 0; tether_map_next(m->global_var_map_, &pos, &k, NULL);) {
    if (tether_map_find(b->names, k) == NULL && trx__map_put(&b->names, k, &zero) != 0) goto fail;
  }
  for (int64_t pos = 0; tether_map_next(m->functions, &pos, &k, &v);) {
    if (trx__dedup_add(b, v->v_obj, k->v_obj) != 0) goto fail;
  }
  return (TVMFFIObject*)b;
fail:
  trx__unref((TVMFFIObject*)b);
  return NULL;
}

TVMFFIObject* trx_normalize(TVMFFIObject* bb, TVMFFIObject* expr) {
  static const char fn[] = "relax.BlockBuilderNormalize";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL || trx__check_expr(fn, "expr", expr) != 0) return NULL;
  return trx__norm(b, expr);
}

int trx_block_builder_begin_function(TVMFFIObject* bb, const char* name, size_t len, TVMFFIObject* params,
                                     TVMFFIObject* attrs, bool is_pure, bool is_private) {
  static const char fn[] = "relax.BlockBuilderBeginFunction";
  trx__builder_t* b = trx__as_builder(fn, bb);
  trx__func_frame_t f;
  memset(&f, 0, sizeof(f));
  if (b == NULL) return -1;
  if (params != NULL) {
    if (params->type_index != kTVMFFIArray) {
      return tether_raise("TypeError", "%s: argument `params` must be an Array of Var or None, but got %s", fn,
                          tether_type_key(params->type_index));
    }
    for (int64_t i = 0, n = tether_array_size(params); i < n; ++i) {
      const TVMFFIAny* p = tether_array_at(params, i);
      if (!tether_any_is_object(p) || !trx_is(p->v_obj, TRX_VAR)) {
        return tether_raise("TypeError",
                            "each element of function parameters must be of type tvm.relax.Var, but got: %s",
                            tether_any_type_key(p));
      }
    }
  }
  if (attrs != NULL && attrs->type_index != kTVMFFIMap && attrs->type_index != kTVMFFIDict) {
    return tether_raise("TypeError", "%s: argument `attrs` must be a Map or None, but got %s", fn,
                        tether_type_key(attrs->type_index));
  }
  /* attrs are copied into a Map of our own, then global_symbol is added. */
  f.attrs = trx__new_map();
  if (f.attrs == NULL) goto fail;
  const TVMFFIAny *k = NULL, *v = NULL;
  for (int64_t pos = 0; attrs != NULL && tether_map_next(attrs, &pos, &k, &v);) {
    if (trx__map_put(&f.attrs, k, v) != 0) goto fail;
  }
  if (tether_any_str(name ? name : "", name ? len : 0, &f.name) != 0) goto fail;
  if (!is_private) {
    TVMFFIAny key = tether_any_raw_str("global_symbol");
    if (trx__map_put(&f.attrs, &key, &f.name) != 0) goto fail;
  }
  if ((f.closed = trx__new_array()) == NULL) goto fail;
  f.params = trx__ref(params);
  f.is_pure = is_pure;
  f.block_base = b->nblocks;
  f.scope_base = b->nscopes;
  if (b->nfuncs == b->cap_funcs) {
    int32_t cap = b->cap_funcs ? b->cap_funcs * 2 : 4;
    trx__func_frame_t* p = realloc(b->funcs, sizeof(*p) * (size_t)cap);
    if (p == NULL) {
      tether_raise("MemoryError", "BlockBuilder: out of memory");
      goto fail;
    }
    b->funcs = p;
    b->cap_funcs = cap;
  }
  if (trx__push_scope(b, params, false, true) != 0) goto fail;
  if (trx__push_block(b, false) != 0) {
    trx__pop_scope(b);
    goto fail;
  }
  b->funcs[b->nfuncs++] = f;
  return 0;
fail:
  trx__release_func(&f);
  return -1;
}

static int trx__no_function(void) {
  return tether_raise("RuntimeError", "Cannot access BlockBuilder._func when outside a bb._function() block");
}

int trx_block_builder_end_function(TVMFFIObject* bb, bool check_output) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderEndFunctionWithoutOutput", bb);
  if (b == NULL) return -1;
  trx__func_frame_t* f = trx__top_func(b);
  if (f == NULL) return trx__no_function();
  while (b->nblocks > f->block_base) trx__pop_block(b, NULL);
  while (b->nscopes > f->scope_base) trx__pop_scope(b);
  bool emitted = f->output_emitted;
  trx__release_func(f);
  b->nfuncs--;
  if (check_output && !emitted) {
    return tether_raise("RuntimeError", "emit_func_output must be called in a relax function.");
  }
  return 0;
}

/* The function whose innermost block is open, or NULL with the error raised. */
static trx__func_frame_t* trx__open_func(trx__builder_t* b) {
  trx__func_frame_t* f = trx__top_func(b);
  if (f == NULL) {
    trx__no_function();
    return NULL;
  }
  if (b->nblocks <= f->block_base) {
    trx__no_block();
    return NULL;
  }
  return f;
}

/* Closes the innermost block (kept if non-empty) and opens one of the given kind. */
static int trx__switch_block(trx__builder_t* b, trx__func_frame_t* f, bool dataflow) {
  if (trx__close_blocks(b, b->nblocks - 1, &f->closed) != 0) return -1;
  return trx__push_block(b, dataflow);
}

int trx_block_builder_begin_dataflow(TVMFFIObject* bb) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderBeginDataflow", bb);
  if (b == NULL) return -1;
  /* TVM: outside a function there is no block to end -> InternalError, not RuntimeError. */
  if (trx__top_func(b) == NULL) return trx__no_block();
  trx__func_frame_t* f = trx__open_func(b);
  return f != NULL ? trx__switch_block(b, f, true) : -1;
}

int trx_block_builder_end_dataflow(TVMFFIObject* bb) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderEndDataflow", bb);
  if (b == NULL) return -1;
  trx__func_frame_t* f = trx__top_func(b);
  if (f == NULL) return trx__no_function();
  /* emit_func_output inside the dataflow scope already closed every block (TVM allows it). */
  if (f->output_emitted && b->nblocks <= f->block_base) return 0;
  if (b->nblocks <= f->block_base || !trx__top_block(b)->is_dataflow) {
    return tether_raise("RuntimeError", "relax.BlockBuilderEndDataflow: the current block is not a dataflow block");
  }
  return trx__switch_block(b, f, false);
}

TVMFFIObject* trx_block_builder_emit(TVMFFIObject* bb, TVMFFIObject* expr, const char* name_hint,
                                     size_t len) {
  static const char fn[] = "relax.BlockBuilderEmit";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL || trx__check_expr(fn, "expr", expr) != 0) return NULL;
  TVMFFIObject* post = trx__norm(b, expr);
  if (post == NULL) return NULL;
  TVMFFIObject* var = NULL;
  if (trx__top_block(b) == NULL) {
    trx__no_block();
  } else {
    var = trx__emit_normalized(b, post, trx__top_block(b)->is_dataflow, name_hint, len);
  }
  trx__unref(post);
  return var;
}

TVMFFIObject* trx_block_builder_emit_output(TVMFFIObject* bb, TVMFFIObject* expr, const char* name_hint,
                                            size_t len) {
  static const char fn[] = "relax.BlockBuilderEmitOutput";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL || trx__check_expr(fn, "expr", expr) != 0) return NULL;
  if (trx__top_block(b) == NULL) {
    trx__no_block();
    return NULL;
  }
  if (!trx__top_block(b)->is_dataflow) {
    tether_raise("InternalError",
                 "Check failed: (cur_frame->is_dataflow) is false: EmitOutput has to be called inside dataflow block.");
    return NULL;
  }
  TVMFFIObject* post = trx__norm(b, expr);
  if (post == NULL) return NULL;
  TVMFFIObject* var = trx__emit_normalized(b, post, false, name_hint, len);
  trx__unref(post);
  return var;
}

/* TVM's static check of a MatchCast: InternalError when no value of the (normalized) value's
 * type can have type `ty`.  0, or -1 with the error raised. */
static int trx__check_match_cast(TVMFFIObject* value, TVMFFIObject* ty) {
  if (!trx__type_cast_impossible(trx__ty(value), ty)) return 0;
  char* vt = trx__print_cstr(trx__ty(value), NULL);
  char* tt = vt != NULL ? trx__print_cstr(ty, NULL) : NULL;
  if (tt != NULL) {
    tether_raise("InternalError",
                 "Check failed: (TypeBaseCheck(GetType(value), ty) != BaseCheckResult::kFailL0) is false: It is "
                 "impossible to match cast any value into the target ty. But got value type: %s, given type: %s",
                 vt, tt);
  }
  free(vt);
  free(tt);
  return -1;
}

TVMFFIObject* trx_block_builder_match_cast(TVMFFIObject* bb, TVMFFIObject* value, TVMFFIObject* ty,
                                           const char* name_hint, size_t len) {
  static const char fn[] = "relax.BlockBuilderMatchCast";
  trx__builder_t* b = trx__as_builder(fn, bb);
  TVMFFIObject *post = NULL, *var = NULL, *mc = NULL;
  TVMFFIAny name = tether_any_none();
  if (b == NULL || trx__check_expr(fn, "value", value) != 0) return NULL;
  if (!trx_is(ty, TRX_TYPE)) {
    tether_raise("TypeError", "%s: argument `ty` must be a Type, but got %s", fn,
                 ty == NULL ? "None" : tether_type_key(ty->type_index));
    return NULL;
  }
  if ((post = trx__norm(b, value)) == NULL) return NULL;
  if (trx__check_match_cast(post, ty) != 0) goto fail;
  trx__block_frame_t* f = trx__top_block(b);
  if (f == NULL) {
    trx__no_block();
    goto fail;
  }
  if (name_hint == NULL || len == 0) {
    name_hint = f->is_dataflow ? "lv" : "gv";
    len = 2;
  }
  if (trx__fresh_name(b, name_hint, len, &name) != 0) goto fail;
  TVMFFIByteArray s = trx__str(&name);
  if ((var = trx_var_new(s.data, s.size, ty, f->is_dataflow)) == NULL) goto fail;
  if ((mc = trx_match_cast_new(var, post, ty)) == NULL) goto fail;
  if (trx__array_push_obj(&trx__top_block(b)->bindings, mc) != 0 || trx__scope_define(b, ty) != 0) goto fail;
  trx__unref(post);
  trx__unref(mc);
  tether_any_release(&name);
  return var;
fail:
  trx__unref(post);
  trx__unref(var);
  trx__unref(mc);
  tether_any_release(&name);
  return NULL;
}

/* ---- erasing symbolic vars that leave scope ------------------------------------------------
 * The function built by emit_func_output must not mention a symbolic (int64) var its caller
 * cannot know.  As observed in TVM 0.27: a var is *defined* by a bare dim (`n`, not `n + 1`)
 * of a TensorType shape or a ShapeType in the params' types (through tuples); the return type
 * keeps a TensorType/ShapeType's dims only if every var in them is defined, else it keeps
 * just ndim (and dtype).  The body SeqExpr's own type follows the same rule, where the
 * body's MatchCast types define vars as well (they are in scope inside the body).  A
 * TensorType whose shape is a relax Var is erased to its ndim likewise (unify.c). */

/* Adds the vars the types of `params` define to s; 0 or -1. */
static int trx__var_set_add_params(trx__var_set_t* s, TVMFFIObject* params) {
  int64_t np = tether_array_size(params);
  for (int64_t i = 0; i < np; ++i) {
    TVMFFIObject* p = trx__array_obj(params, i);
    if (trx__is(p, TRX_EXPR) && trx__var_set_add_defs(s, trx__ty(p)) != 0) return -1;
  }
  return 0;
}

/* Erases the body's type (params + the body's MatchCasts define), then returns the return
 * type: the body's type erased again where only params define (as in TVM, the body's type
 * object itself when nothing more is erased); new reference, NULL with an error raised. */
static TVMFFIObject* trx__func_ret_type(TVMFFIObject* params, TVMFFIObject* body) {
  trx__var_set_t s = {0};
  TVMFFIObject *ret = NULL, *bty = NULL;
  if (trx__is(body, TRX_SEQ_EXPR)) {
    if (trx__var_set_add_params(&s, params) != 0) goto fail;
    TVMFFIObject* blocks = ((trx_seq_expr_t*)body)->blocks;
    int64_t nb = tether_array_size(blocks);
    for (int64_t i = 0; i < nb; ++i) {
      TVMFFIObject* bindings = ((trx_binding_block_t*)trx__array_obj(blocks, i))->bindings;
      int64_t n = tether_array_size(bindings);
      for (int64_t j = 0; j < n; ++j) {
        TVMFFIObject* bd = trx__array_obj(bindings, j);
        if (trx__is(bd, TRX_MATCH_CAST) && trx__var_set_add_defs(&s, ((trx_match_cast_t*)bd)->ty) != 0) goto fail;
      }
    }
    if ((bty = trx__type_erase(&s, trx__ty(body))) == NULL) goto fail;
    if (bty != trx__ty(body)) {
      trx__set_ty(body, bty);
      bty = NULL;
    }
    trx__var_set_clear(&s);
  }
  if (trx__var_set_add_params(&s, params) != 0) goto fail;
  if ((ret = trx__type_erase(&s, trx__ty(body))) == NULL) goto fail;
  trx__unref(bty);
  trx__var_set_clear(&s);
  return ret;
fail:
  trx__unref(bty);
  trx__unref(ret);
  trx__var_set_clear(&s);
  return NULL;
}

/* true when `v` is, or holds in an Array / List / Map, an opaque Python object. */
static bool trx__holds_opaque(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIOpaquePyObject) return true;
  if (v->type_index == kTVMFFIArray || v->type_index == kTVMFFIList) {
    int64_t n = v->type_index == kTVMFFIArray ? tether_array_size(v->v_obj) : tether_list_size(v->v_obj);
    for (int64_t i = 0; i < n; ++i) {
      const TVMFFIAny* e = v->type_index == kTVMFFIArray ? tether_array_at(v->v_obj, i) : tether_list_at(v->v_obj, i);
      if (trx__holds_opaque(e)) return true;
    }
  } else if (v->type_index == kTVMFFIMap || v->type_index == kTVMFFIDict) {
    const TVMFFIAny *k, *e;
    for (int64_t pos = 0; tether_map_next(v->v_obj, &pos, &k, &e);) {
      if (trx__holds_opaque(k) || trx__holds_opaque(e)) return true;
    }
  }
  return false;
}

/* TVM's checks of a function's attrs when the function is built and added: every key a str
 * (its BaseFuncWithAttr signature), every value structurally hashable (an opaque Python
 * object is not).  0, or -1 with TypeError raised. */
static int trx__check_func_attrs(TVMFFIObject* attrs) {
  const TVMFFIAny *k, *v;
  for (int64_t pos = 0; tether_map_next(attrs, &pos, &k, &v);) {
    if (k->type_index != kTVMFFIStr && k->type_index != kTVMFFISmallStr) {
      return tether_raise("TypeError",
                          "Mismatched type on argument #1 when calling: `ir.BaseFuncWithAttr(0: "
                          "RValueRef<ir.BaseFunc>, 1: str, 2: Any) -> ir.BaseFunc`. Expected `str` but got `%s`",
                          tether_any_type_key(k));
    }
  }
  for (int64_t pos = 0; tether_map_next(attrs, &pos, &k, &v);) {
    if (trx__holds_opaque(v)) {
      return tether_raise("TypeError", "Type metadata is not set for type `ffi.OpaquePyObject`, so "
                                       "StructuralHash is not supported for this type");
    }
  }
  return 0;
}

TVMFFIObject* trx_block_builder_emit_func_output(TVMFFIObject* bb, TVMFFIObject* output,
                                                 TVMFFIObject* params) {
  static const char fn[] = "relax.BlockBuilderEmitFuncOutput";
  trx__builder_t* b = trx__as_builder(fn, bb);
  TVMFFIObject *seq = NULL, *nseq = NULL, *attrs = NULL, *func = NULL, *gvar = NULL, *ret_ty = NULL;
  if (b == NULL || trx__check_expr(fn, "output", output) != 0) return NULL;
  trx__func_frame_t* f = trx__top_func(b);
  if (f == NULL) {
    trx__no_function();
    return NULL;
  }
  /* As in TVM, the "exactly once" flag is set before the parameter checks. */
  if (f->output_emitted) {
    tether_raise("RuntimeError", "emit_func_output must be called exactly once in a relax function.");
    return NULL;
  }
  f->output_emitted = true;
  if (f->params != NULL && params != NULL) {
    tether_raise("RuntimeError", "function parameters have been initialized in the function with scope.");
    return NULL;
  }
  if (f->params == NULL && params == NULL) {
    tether_raise("RuntimeError", "Relax function must have parameter.");
    return NULL;
  }
  if (f->params == NULL) {
    if (params->type_index != kTVMFFIArray) {
      tether_raise("TypeError", "%s: argument `params` must be an Array of Var or None, but got %s", fn,
                   tether_type_key(params->type_index));
      return NULL;
    }
    f->params = trx__ref(params);
  }
  if (trx__close_blocks(b, f->block_base, &f->closed) != 0) return NULL;
  if (trx__check_func_attrs(f->attrs) != 0) goto fail;
  if ((seq = trx_seq_expr_new(f->closed, output)) == NULL) goto fail;
  if ((nseq = trx__norm(b, seq)) == NULL) goto fail;
  if ((attrs = trx_dict_attrs_new(f->attrs)) == NULL) goto fail;
  if (trx__ty(nseq) != NULL && (ret_ty = trx__func_ret_type(f->params, nseq)) == NULL) goto fail;
  if ((func = trx_function_new(f->params, nseq, ret_ty, f->is_pure, attrs)) == NULL) goto fail;
  TVMFFIByteArray name = trx__str(&f->name);
  gvar = trx_block_builder_add_function(bb, func, name.data, name.size);
fail:
  trx__unref(seq);
  trx__unref(nseq);
  trx__unref(attrs);
  trx__unref(ret_ty);
  trx__unref(func);
  return gvar;
}

/* Makes b->mod safe to write: copies it first if anyone else holds it. */
static int trx__own_module(trx__builder_t* b) {
  if (tether_object_use_count(b->mod) == 1) return 0;
  trx_ir_module_t* old = (trx_ir_module_t*)b->mod;
  trx_ir_module_t* m = (trx_ir_module_t*)trx_ir_module_new();
  if (m == NULL) return -1;
  trx__unref(m->functions);
  trx__unref(m->global_var_map_);
  trx__unref(m->source_map);
  trx__unref(m->attrs);
  trx__unref(m->global_infos);
  m->functions = trx__ref(old->functions);
  m->global_var_map_ = trx__ref(old->global_var_map_);
  m->source_map = trx__ref(old->source_map);
  m->attrs = trx__ref(old->attrs);
  m->global_infos = trx__ref(old->global_infos);
  b->mod = (TVMFFIObject*)m;
  trx__unref((TVMFFIObject*)old);
  return 0;
}

TVMFFIObject* trx_block_builder_add_function(TVMFFIObject* bb, TVMFFIObject* func, const char* name,
                                             size_t len) {
  static const char fn[] = "relax.BlockBuilderAddFunction";
  trx__builder_t* b = trx__as_builder(fn, bb);
  TVMFFIAny gname = tether_any_none();
  TVMFFIObject* gvar = NULL;
  if (b == NULL) return NULL;
  if (!trx_is(func, TRX_BASE_FUNC)) {
    tether_raise("TypeError", "%s: argument `func` must be a BaseFunc, but got %s", fn,
                 func == NULL ? "None" : tether_type_key(func->type_index));
    return NULL;
  }
  TVMFFIAny fv = tether_any_object(func);
  uint64_t key = trx__dedup_key(func), hash = 0;
  bool hashed = false;
  for (int64_t i = 0; i < b->ndedup; ++i) {
    trx__dedup_entry_t* d = &b->dedup[i];
    if (d->key != key) continue;
    TVMFFIAny dv = tether_any_object(d->func);
    if (!hashed) {
      hash = trx_structural_hash(&fv, false);
      hashed = true;
    }
    if (!d->hashed) {
      d->hash = trx_structural_hash(&dv, false);
      d->hashed = true;
    }
    if (d->hash == hash && trx_structural_equal(&dv, &fv, false)) return trx__ref(d->gvar);
  }
  if (trx__fresh_name(b, name, len, &gname) != 0) goto fail;
  TVMFFIByteArray s = trx__str(&gname);
  if ((gvar = trx_global_var_new(s.data, s.size)) == NULL) goto fail;
  trx__set_ty(gvar, trx__ref(trx__ty(func)));
  if (trx__own_module(b) != 0) goto fail;
  trx_ir_module_t* m = (trx_ir_module_t*)b->mod;
  TVMFFIAny gv = tether_any_object(gvar);
  if (trx__map_put(&m->functions, &gv, &fv) != 0 || trx__map_put(&m->global_var_map_, &gname, &gv) != 0 ||
      trx__dedup_add(b, func, gvar) != 0) {
    goto fail;
  }
  b->dedup[b->ndedup - 1].hash = hash;
  b->dedup[b->ndedup - 1].hashed = hashed;
  tether_any_release(&gname);
  return gvar;
fail:
  tether_any_release(&gname);
  trx__unref(gvar);
  return NULL;
}

TVMFFIObject* trx_block_builder_get_module(TVMFFIObject* bb) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderGetModule", bb);
  return b != NULL ? trx__ref(b->mod) : NULL;
}

int trx_block_builder_unique_name(TVMFFIObject* bb, const char* prefix, size_t len, TVMFFIAny* out) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderGetUniqueName", bb);
  return b != NULL ? trx__fresh_name(b, prefix, len, out) : -1;
}

int trx_block_builder_is_dataflow(TVMFFIObject* bb, bool* out) {
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderCurrentBlockIsDataflow", bb);
  if (b == NULL) return -1;
  if (trx__top_block(b) == NULL) return trx__no_block();
  *out = trx__top_block(b)->is_dataflow;
  return 0;
}

int trx_block_builder_lookup_binding(TVMFFIObject* bb, TVMFFIObject* var, TVMFFIObject** out) {
  static const char fn[] = "relax.BlockBuilderLookupBinding";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL) return -1;
  if (!trx_is(var, TRX_VAR)) {
    return tether_raise("TypeError", "%s: argument `var` must be a Var, but got %s", fn,
                        var == NULL ? "None" : tether_type_key(var->type_index));
  }
  TVMFFIAny k = tether_any_object(var);
  const TVMFFIAny* v = tether_map_find(b->table, &k);
  *out = v != NULL ? trx__ref(v->v_obj) : NULL;
  return 0;
}

/* ---- update_func, scopes, finalize -------------------------------------------------------- */

/* mod[gvar] = func.  As observed in TVM 0.27: gvar keeps its ty; a gvar the module does not
 * hold is added under its name; the dedup table maps `func` (no longer the old function) to
 * gvar, so add_func(func) returns gvar and add_func(old function) adds a new one. */
int trx_block_builder_update_function(TVMFFIObject* bb, TVMFFIObject* gvar, TVMFFIObject* func) {
  static const char fn[] = "relax.BlockBuilderUpdateFunction";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL) return -1;
  if (!trx_is(gvar, TRX_GLOBAL_VAR) || !trx_is(func, TRX_BASE_FUNC)) {
    bool bad_gv = !trx_is(gvar, TRX_GLOBAL_VAR);
    TVMFFIObject* o = bad_gv ? gvar : func;
    return tether_raise("TypeError", "%s: argument `%s` must be %s, but got %s", fn, bad_gv ? "gv" : "func",
                        bad_gv ? "a GlobalVar" : "a BaseFunc", o == NULL ? "None" : tether_type_key(o->type_index));
  }
  if (trx__own_module(b) != 0) return -1;
  trx_ir_module_t* m = (trx_ir_module_t*)b->mod;
  TVMFFIAny gv = tether_any_object(gvar), fv = tether_any_object(func);
  if (tether_map_find(m->functions, &gv) == NULL) {
    TVMFFIAny name = ((trx_global_var_t*)gvar)->name_hint;
    const TVMFFIAny* other = tether_map_find(m->global_var_map_, &name);
    if (other != NULL && other->v_obj != gvar) {
      TVMFFIByteArray s = trx__str(&name);
      return tether_raise("ValueError", "%s: the module already holds a different GlobalVar named \"%.*s\"", fn,
                          (int)s.size, s.data);
    }
    TVMFFIAny zero = tether_any_int(0);
    if (trx__map_put(&m->global_var_map_, &name, &gv) != 0) return -1;
    if (tether_map_find(b->names, &name) == NULL && trx__map_put(&b->names, &name, &zero) != 0) return -1;
  }
  if (trx__map_put(&m->functions, &gv, &fv) != 0) return -1;
  for (int64_t i = 0; i < b->ndedup; ++i) {
    trx__dedup_entry_t* d = &b->dedup[i];
    if (d->gvar != gvar) continue;
    TVMFFIObject* old = d->func;
    d->func = trx__ref(func);
    d->key = trx__dedup_key(func);
    d->hashed = false;
    trx__unref(old);
    return 0;
  }
  return trx__dedup_add(b, func, gvar);
}

/* begin_scope(params): a scope in which the vars that `params` (Array<Var> or NULL) define are
 * known; it inherits nothing from the enclosing scope (as in TVM). */
int trx_block_builder_begin_scope(TVMFFIObject* bb, TVMFFIObject* params) {
  /* Argument errors read as TVM's (its signature text). */
  static const char sig[] =
      "relax.BlockBuilderBeginScope(0: relax.BlockBuilder, 1: Optional<Array<ir.Var>>) -> void";
  trx__builder_t* b = trx__as_builder("relax.BlockBuilderBeginScope", bb);
  if (b == NULL) return -1;
  if (params != NULL) {
    if (params->type_index != kTVMFFIArray) {
      return tether_raise("TypeError",
                          "Mismatched type on argument #1 when calling: `%s`. Expected `Optional<Array<ir.Var>>` "
                          "but got `%s`",
                          sig, tether_type_key(params->type_index));
    }
    for (int64_t i = 0, n = tether_array_size(params); i < n; ++i) {
      const TVMFFIAny* p = tether_array_at(params, i);
      if (!tether_any_is_object(p) || !trx_is(p->v_obj, TRX_VAR)) {
        return tether_raise("TypeError",
                            "Mismatched type on argument #1 when calling: `%s`. Expected `Optional<Array<ir.Var>>` "
                            "but got `Array[index %lld: %s]`",
                            sig, (long long)i, tether_any_type_key(p));
      }
    }
  }
  return trx__push_scope(b, params, false, false);
}

/* end_scope(): closes the innermost begin_scope scope.  (TVM 0.27 crashes on an unmatched
 * end_scope and lets it close a function's scope; tether refuses both.) */
int trx_block_builder_end_scope(TVMFFIObject* bb) {
  static const char fn[] = "relax.BlockBuilderEndScope";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL) return -1;
  if (b->nscopes == 0) return tether_raise("RuntimeError", "%s: no scope is open (end_scope without begin_scope)", fn);
  if (b->scopes[b->nscopes - 1].is_function) {
    TVMFFIByteArray name = trx__str(&trx__top_func(b)->name);
    return tether_raise("RuntimeError",
                        "%s: the innermost scope belongs to function \"%.*s\" and closes with it; "
                        "end_scope only closes scopes opened by begin_scope",
                        fn, (int)name.size, name.data);
  }
  trx__pop_scope(b);
  return 0;
}

/* The "global_symbol" attr of `func` (borrowed string Any), or NULL. */
static const TVMFFIAny* trx__global_symbol(TVMFFIObject* func) {
  TVMFFIObject* attrs = ((trx_base_func_t*)func)->attrs;
  if (!trx_is(attrs, TRX_DICT_ATTRS) || ((trx_dict_attrs_t*)attrs)->dict == NULL) return NULL;
  TVMFFIAny k = tether_any_raw_str("global_symbol");
  const TVMFFIAny* v = tether_map_find(((trx_dict_attrs_t*)attrs)->dict, &k);
  TVMFFIByteArray s;
  return v != NULL && tether_any_get_str(v, &s) ? v : NULL;
}

/* finalize(): the module (the same object get() returns), after TVM's NormalizeGlobalVar
 * checks.  As observed in TVM 0.27: public functions sharing a global_symbol raise
 * InternalError "... IRModule contains duplicate global symbol: <name>"; a public function
 * whose GlobalVar is not named after its global_symbol would be renamed, which TVM 0.27
 * itself fails to do (InternalError from UpdateFunction), so tether raises InternalError
 * naming the function.  An open function scope is allowed (TVM returns the module so far). */
TVMFFIObject* trx_block_builder_finalize(TVMFFIObject* bb) {
  static const char fn[] = "relax.BlockBuilderFinalize";
  trx__builder_t* b = trx__as_builder(fn, bb);
  if (b == NULL) return NULL;
  trx_ir_module_t* m = (trx_ir_module_t*)b->mod;
  TVMFFIObject* seen = trx__new_map();
  const TVMFFIAny *k = NULL, *v = NULL;
  TVMFFIAny none = tether_any_none();
  if (seen == NULL) return NULL;
  for (int pass = 0; pass < 2; ++pass) {
    for (int64_t pos = 0; tether_map_next(m->functions, &pos, &k, &v);) {
      const TVMFFIAny* gs = trx__global_symbol(v->v_obj);
      if (gs == NULL) continue;
      TVMFFIByteArray sym = trx__str(gs), name = trx__str(&((trx_global_var_t*)k->v_obj)->name_hint);
      if (pass == 0) {
        if (tether_map_find(seen, gs) != NULL) {
          tether_raise("InternalError",
                       "Check failed: (!name_supply_->ContainsName(global_symbol_value)) is false: IRModule "
                       "contains duplicate global symbol: %.*s",
                       (int)sym.size, sym.data);
          goto fail;
        }
        if (trx__map_put(&seen, gs, &none) != 0) goto fail;
      } else if (sym.size != name.size || memcmp(sym.data, name.data, sym.size) != 0) {
        tether_raise("InternalError",
                     "%s: public function \"%.*s\" has global_symbol \"%.*s\"; renaming a GlobalVar to its "
                     "global_symbol (NormalizeGlobalVar) is not supported (apache-tvm 0.27 fails here too)",
                     fn, (int)name.size, name.data, (int)sym.size, sym.data);
        goto fail;
      }
    }
  }
  trx__unref(seen);
  return trx__ref(b->mod);
fail:
  trx__unref(seen);
  return NULL;
}

/* ---- FFI globals ----------------------------------------------------------------------------
 * Arguments are read loosely: an object where an object is expected (None -> NULL where the
 * signature says "or None"); name hints may be omitted. */

/* args[i] as an object (borrowed), NULL for None/absent; TypeError for other values. */
static int trx__g_obj(const char* fname, const TVMFFIAny* args, int32_t n, int32_t i, TVMFFIObject** out) {
  *out = NULL;
  if (i >= n || args[i].type_index == kTVMFFINone) return 0;
  if (!tether_any_is_object(&args[i])) {
    return tether_raise("TypeError", "%s: argument #%d must be an object or None, but got %s", fname, (int)i,
                        tether_any_type_key(&args[i]));
  }
  *out = args[i].v_obj;
  return 0;
}

/* args[i] as a name (borrowed bytes; absent or None -> ""). */
static int trx__g_name(const char* fname, const TVMFFIAny* args, int32_t n, int32_t i,
                       TVMFFIByteArray* out) {
  out->data = "";
  out->size = 0;
  if (i >= n || args[i].type_index == kTVMFFINone) return 0;
  return tether_arg_str(fname, args, i, out);
}

/* An ffi.Array where an Expr is expected (a Python list or tuple) becomes a Tuple of its
 * elements, recursively, as TVM's Python layer does before calling the builder.  *out: new
 * reference (the object itself when it is not an Array). */
static int trx__g_expr(TVMFFIObject* e, TVMFFIObject** out) {
  if (e == NULL || e->type_index != kTVMFFIArray) {
    *out = trx__ref(e);
    return 0;
  }
  int64_t n = tether_array_size(e);
  TVMFFIObject* fields = trx__new_array();
  for (int64_t i = 0; fields != NULL && i < n; ++i) {
    const TVMFFIAny* v = tether_array_at(e, i);
    TVMFFIObject* f = NULL;
    if (!tether_any_is_object(v)) {
      tether_raise("TypeError", "relax.BlockBuilder: a list used as a Tuple must hold Exprs, but element %lld is %s",
                   (long long)i, tether_any_type_key(v));
    } else if (trx__g_expr(v->v_obj, &f) == 0 && trx__array_push_obj(&fields, f) == 0) {
      trx__unref(f);
      continue;
    }
    trx__unref(f);
    trx__unref(fields);
    return -1;
  }
  if (fields == NULL) return -1;
  *out = trx_tuple_new(fields);
  trx__unref(fields);
  return *out != NULL ? 0 : -1;
}

static int trx__g_nargs(const char* fname, int32_t n, int32_t min, int32_t max) {
  if (n < min || n > max) {
    return tether_raise("TypeError", "%s expects %d to %d arguments, but %d were given", fname, (int)min, (int)max,
                        (int)n);
  }
  return 0;
}

static int trx__g_result(TVMFFIObject* obj, TVMFFIAny* result) {
  if (obj == NULL) return -1;
  *result = tether_any_object(obj); /* the result owns the new reference */
  return 0;
}

static int trx__g_create(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderCreate";
  TVMFFIObject* mod = NULL;
  (void)self;
  if (trx__g_nargs(fn, n, 0, 1) != 0 || trx__g_obj(fn, args, n, 0, &mod) != 0) return -1;
  return trx__g_result(trx_block_builder_new(mod), result);
}

static int trx__g_begin_function(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderBeginFunction";
  TVMFFIObject *bb = NULL, *params = NULL, *attrs = NULL;
  TVMFFIByteArray name;
  bool pure = true, is_private = false;
  (void)self;
  (void)result;
  if (trx__g_nargs(fn, n, 2, 6) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      tether_arg_str(fn, args, 1, &name) != 0 || trx__g_obj(fn, args, n, 2, &params) != 0 ||
      trx__g_obj(fn, args, n, 3, &attrs) != 0 || (n > 4 && tether_arg_bool(fn, args, 4, &pure) != 0) ||
      (n > 5 && tether_arg_bool(fn, args, 5, &is_private) != 0)) {
    return -1;
  }
  return trx_block_builder_begin_function(bb, name.data, name.size, params, attrs, pure, is_private);
}

static int trx__g_end_function(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderEndFunctionWithoutOutput";
  TVMFFIObject* bb = NULL;
  bool check = true;
  (void)self;
  (void)result;
  if (trx__g_nargs(fn, n, 1, 2) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      (n > 1 && tether_arg_bool(fn, args, 1, &check) != 0)) {
    return -1;
  }
  return trx_block_builder_end_function(bb, check);
}

/* The one argument of the (bb) globals into *bb (None stays NULL: the callee names the type
 * error).  0, or -1 with the error raised. */
static int trx__g_builder_only(const char* fn, const TVMFFIAny* args, int32_t n, TVMFFIObject** bb) {
  return trx__g_nargs(fn, n, 1, 1) != 0 || trx__g_obj(fn, args, n, 0, bb) != 0 ? -1 : 0;
}

static int trx__g_begin_dataflow(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* bb = NULL;
  (void)self;
  (void)result;
  if (trx__g_builder_only("relax.BlockBuilderBeginDataflow", args, n, &bb) != 0) return -1;
  return trx_block_builder_begin_dataflow(bb);
}

static int trx__g_end_dataflow(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* bb = NULL;
  (void)self;
  (void)result;
  if (trx__g_builder_only("relax.BlockBuilderEndDataflow", args, n, &bb) != 0) return -1;
  return trx_block_builder_end_dataflow(bb);
}

/* Emit and EmitOutput share (bb, expr, name_hint=""). */
static int trx__g_emit_common(const char* fn, const TVMFFIAny* args, int32_t n, TVMFFIAny* result,
                              bool output) {
  TVMFFIObject *bb = NULL, *expr = NULL;
  TVMFFIByteArray name;
  if (trx__g_nargs(fn, n, 2, 3) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &expr) != 0 || trx__g_name(fn, args, n, 2, &name) != 0) {
    return -1;
  }
  TVMFFIObject* e = NULL;
  if (trx__g_expr(expr, &e) != 0) return -1;
  int rc = trx__g_result(output ? trx_block_builder_emit_output(bb, e, name.data, name.size)
                                : trx_block_builder_emit(bb, e, name.data, name.size),
                         result);
  trx__unref(e);
  return rc;
}

static int trx__g_emit(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  return trx__g_emit_common("relax.BlockBuilderEmit", args, n, result, false);
}

static int trx__g_emit_output(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  return trx__g_emit_common("relax.BlockBuilderEmitOutput", args, n, result, true);
}

static int trx__g_match_cast(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderMatchCast";
  TVMFFIObject *bb = NULL, *value = NULL, *ty = NULL;
  TVMFFIByteArray name;
  (void)self;
  if (trx__g_nargs(fn, n, 3, 4) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &value) != 0 || trx__g_obj(fn, args, n, 2, &ty) != 0 ||
      trx__g_name(fn, args, n, 3, &name) != 0) {
    return -1;
  }
  return trx__g_result(trx_block_builder_match_cast(bb, value, ty, name.data, name.size), result);
}

static int trx__g_emit_func_output(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderEmitFuncOutput";
  TVMFFIObject *bb = NULL, *output = NULL, *params = NULL;
  (void)self;
  if (trx__g_nargs(fn, n, 2, 3) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &output) != 0 || trx__g_obj(fn, args, n, 2, &params) != 0) {
    return -1;
  }
  TVMFFIObject* e = NULL;
  if (trx__g_expr(output, &e) != 0) return -1;
  int rc = trx__g_result(trx_block_builder_emit_func_output(bb, e, params), result);
  trx__unref(e);
  return rc;
}

static int trx__g_normalize(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderNormalize";
  TVMFFIObject *bb = NULL, *expr = NULL;
  (void)self;
  if (trx__g_nargs(fn, n, 2, 2) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &expr) != 0) {
    return -1;
  }
  TVMFFIObject* e = NULL;
  if (trx__g_expr(expr, &e) != 0) return -1;
  int rc = trx__g_result(trx_normalize(bb, e), result);
  trx__unref(e);
  return rc;
}

static int trx__g_get_module(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* bb = NULL;
  (void)self;
  if (trx__g_builder_only("relax.BlockBuilderGetModule", args, n, &bb) != 0) return -1;
  return trx__g_result(trx_block_builder_get_module(bb), result);
}

static int trx__g_add_function(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderAddFunction";
  TVMFFIObject *bb = NULL, *func = NULL;
  TVMFFIByteArray name;
  (void)self;
  if (trx__g_nargs(fn, n, 3, 3) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &func) != 0 || tether_arg_str(fn, args, 2, &name) != 0) {
    return -1;
  }
  return trx__g_result(trx_block_builder_add_function(bb, func, name.data, name.size), result);
}

static int trx__g_unique_name(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderGetUniqueName";
  TVMFFIObject* bb = NULL;
  TVMFFIByteArray prefix;
  (void)self;
  if (trx__g_nargs(fn, n, 2, 2) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      tether_arg_str(fn, args, 1, &prefix) != 0) {
    return -1;
  }
  return trx_block_builder_unique_name(bb, prefix.data, prefix.size, result);
}

static int trx__g_is_dataflow(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderCurrentBlockIsDataflow";
  TVMFFIObject* bb = NULL;
  bool df = false;
  (void)self;
  if (trx__g_nargs(fn, n, 1, 1) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx_block_builder_is_dataflow(bb, &df) != 0) {
    return -1;
  }
  *result = tether_any_bool(df);
  return 0;
}

static int trx__g_lookup_binding(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderLookupBinding";
  TVMFFIObject *bb = NULL, *var = NULL, *value = NULL;
  (void)self;
  if (trx__g_nargs(fn, n, 2, 2) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &var) != 0 || trx_block_builder_lookup_binding(bb, var, &value) != 0) {
    return -1;
  }
  *result = value != NULL ? tether_any_object(value) : tether_any_none();
  return 0;
}

static int trx__g_update_function(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  /* TVM's signature text, so argument errors read as TVM's. */
  static const char fn[] =
      "relax.BlockBuilderUpdateFunction(0: relax.BlockBuilder, 1: ir.GlobalVar, 2: ir.BaseFunc) -> void";
  TVMFFIObject *bb = NULL, *gv = NULL, *func = NULL;
  (void)self;
  (void)result;
  if (tether_check_nargs(fn, NULL, n, 3) != 0 || tether_arg_object(fn, args, 0, trx__block_builder_type_index, &bb) != 0 ||
      tether_arg_object(fn, args, 1, trx_type_index[TRX_GLOBAL_VAR], &gv) != 0 ||
      tether_arg_object(fn, args, 2, trx_type_index[TRX_BASE_FUNC], &func) != 0) {
    return -1;
  }
  return trx_block_builder_update_function(bb, gv, func);
}

static int trx__g_begin_scope(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.BlockBuilderBeginScope";
  TVMFFIObject *bb = NULL, *params = NULL;
  (void)self;
  (void)result;
  if (trx__g_nargs(fn, n, 1, 2) != 0 || trx__g_obj(fn, args, n, 0, &bb) != 0 ||
      trx__g_obj(fn, args, n, 1, &params) != 0) {
    return -1;
  }
  return trx_block_builder_begin_scope(bb, params);
}

static int trx__g_end_scope(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* bb = NULL;
  (void)self;
  (void)result;
  if (trx__g_builder_only("relax.BlockBuilderEndScope", args, n, &bb) != 0) return -1;
  return trx_block_builder_end_scope(bb);
}

static int trx__g_finalize(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  TVMFFIObject* bb = NULL;
  (void)self;
  if (trx__g_builder_only("relax.BlockBuilderFinalize", args, n, &bb) != 0) return -1;
  return trx__g_result(trx_block_builder_finalize(bb), result);
}

static int trx__g_type_lca(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  static const char fn[] = "relax.analysis.TypeLCA(0: ir.Type, 1: ir.Type) -> ir.Type";
  TVMFFIObject *a = NULL, *c = NULL;
  (void)self;
  if (tether_check_nargs(fn, NULL, n, 2) != 0 || tether_arg_object(fn, args, 0, trx_type_index[TRX_TYPE], &a) != 0 ||
      tether_arg_object(fn, args, 1, trx_type_index[TRX_TYPE], &c) != 0) {
    return -1;
  }
  return trx__g_result(trx_type_lca(a, c), result);
}

static const struct {
  const char* name;
  TVMFFISafeCallType fn;
  const char* doc;
} trx__builder_globals[] = {
    {"relax.BlockBuilderCreate", trx__g_create, "BlockBuilderCreate(mod=None) -> BlockBuilder"},
    {"relax.BlockBuilderBeginFunction", trx__g_begin_function,
     "BlockBuilderBeginFunction(bb, name, params=None, attrs=None, pure=True, private=False)"},
    {"relax.BlockBuilderEndFunctionWithoutOutput", trx__g_end_function,
     "BlockBuilderEndFunctionWithoutOutput(bb, check=True): closes the function scope; raises "
     "RuntimeError if check and emit_func_output was not called"},
    {"relax.BlockBuilderBeginDataflow", trx__g_begin_dataflow, "BlockBuilderBeginDataflow(bb)"},
    {"relax.BlockBuilderEndDataflow", trx__g_end_dataflow, "BlockBuilderEndDataflow(bb)"},
    {"relax.BlockBuilderEmit", trx__g_emit, "BlockBuilderEmit(bb, expr, name_hint='') -> Var"},
    {"relax.BlockBuilderEmitOutput", trx__g_emit_output, "BlockBuilderEmitOutput(bb, expr, name_hint='') -> Var"},
    {"relax.BlockBuilderMatchCast", trx__g_match_cast, "BlockBuilderMatchCast(bb, value, ty, name_hint='') -> Var"},
    {"relax.BlockBuilderEmitFuncOutput", trx__g_emit_func_output,
     "BlockBuilderEmitFuncOutput(bb, output, params=None) -> GlobalVar"},
    {"relax.BlockBuilderNormalize", trx__g_normalize, "BlockBuilderNormalize(bb, expr) -> Expr"},
    {"relax.BlockBuilderGetModule", trx__g_get_module, "BlockBuilderGetModule(bb) -> IRModule"},
    {"relax.BlockBuilderAddFunction", trx__g_add_function, "BlockBuilderAddFunction(bb, func, name) -> GlobalVar"},
    {"relax.BlockBuilderGetUniqueName", trx__g_unique_name, "BlockBuilderGetUniqueName(bb, prefix) -> str"},
    {"relax.BlockBuilderCurrentBlockIsDataflow", trx__g_is_dataflow, "BlockBuilderCurrentBlockIsDataflow(bb) -> bool"},
    {"relax.BlockBuilderLookupBinding", trx__g_lookup_binding, "BlockBuilderLookupBinding(bb, var) -> Expr | None"},
    {"relax.BlockBuilderUpdateFunction", trx__g_update_function,
     "BlockBuilderUpdateFunction(bb, gv, func): mod[gv] = func (gv added if new; gv.ty unchanged)"},
    {"relax.BlockBuilderBeginScope", trx__g_begin_scope,
     "BlockBuilderBeginScope(bb, params=None): a scope where the symbolic vars params define are known"},
    {"relax.BlockBuilderEndScope", trx__g_end_scope, "BlockBuilderEndScope(bb): closes the begin_scope scope"},
    {"relax.BlockBuilderFinalize", trx__g_finalize,
     "BlockBuilderFinalize(bb) -> IRModule: the module, after checking global_symbol uniqueness"},
    {"relax.analysis.TypeLCA", trx__g_type_lca, "TypeLCA(lhs, rhs) -> Type: the least common type"},
};

int trx__builder_init(void) {
  /* The kind table: exact type index -> trx_kind. */
  int32_t lo = INT32_MAX, hi = -1;
  for (int k = 0; k < TRX_NUM_KINDS; ++k) {
    if (trx_type_index[k] < lo) lo = trx_type_index[k];
    if (trx_type_index[k] > hi) hi = trx_type_index[k];
  }
  if (hi >= lo) {
    trx__kind_table = malloc(sizeof(int16_t) * (size_t)(hi - lo + 1));
    if (trx__kind_table == NULL) return tether_raise("MemoryError", "BlockBuilder: out of memory");
    for (int32_t i = 0; i <= hi - lo; ++i) trx__kind_table[i] = -1;
    for (int k = 0; k < TRX_NUM_KINDS; ++k) trx__kind_table[trx_type_index[k] - lo] = (int16_t)k;
    trx__kind_base = lo;
    trx__kind_count = hi - lo + 1;
  }

  TVMFFIByteArray key = {"relax.BlockBuilder", strlen("relax.BlockBuilder")};
  const TVMFFITypeInfo* parent = TVMFFIGetTypeInfo(kTVMFFIObject);
  int32_t index = TVMFFITypeGetOrAllocIndex(&key, -1, parent->type_depth + 1, 0, 1, kTVMFFIObject);
  if (index < 0) return -1;
  trx__block_builder_type_index = index;
  if (tether_type_def_finish(index, (int32_t)sizeof(trx__builder_t),
                             "relax.BlockBuilder: builds Relax functions into an IRModule") != 0) {
    return -1;
  }
  /* BlockBuilder steps build and normalize IR in C, never block, never call back: they keep
   * the GIL. */
  for (size_t i = 0; i < sizeof(trx__builder_globals) / sizeof(trx__builder_globals[0]); ++i) {
    if (tether_func_register_flags(trx__builder_globals[i].name, trx__builder_globals[i].fn,
                                   trx__builder_globals[i].doc, NULL, TETHER_FUNC_KEEPS_GIL,
                                   1) != 0) {
      return -1;
    }
  }
  return 0;
}

void trx__builder_fini(void) {
  free(trx__kind_table);
  trx__kind_table = NULL;
  trx__kind_count = 0;
}
