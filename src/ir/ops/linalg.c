/*
 * linalg.c -- linear algebra: matmul.  Each op is a declaration at the end of the file (parameters as TVM's
 * Python signature, attrs type, inference, constructor-time check); rules and error texts
 * are TVM's (relax.md section 1, and what apache-tvm 0.27 does where the spec is silent).
 */
#include "../op.h"

#include "../arith.h"

#define TRX__MATMUL_FIELDS(F, T) F(T, out_dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_matmul_attrs_t, TRX__MATMUL_FIELDS);
TRX_ATTRS_DECL(trx__matmul_attrs, "relax.attrs.MatmulAttrs", trx_matmul_attrs_t, TRX__MATMUL_FIELDS);

/* ---- matmul --------------------------------------------------------------------------------- */


static int trx__matmul_scalar_error(trx_call_t* call, const char* side, TVMFFIObject* arg) {
  trx__sb_t sb = {0};
  trx__sb_printf(&sb, "Matmul operands must not be scalar.  However, the expression ");
  trx__sb_node(&sb, (TVMFFIObject*)call);
  trx__sb_printf(&sb, " has a %s of ", side);
  trx__sb_node(&sb, arg);
  trx__sb_printf(&sb, " with type ");
  trx__sb_node(&sb, trx__ty(arg));
  trx__sb_printf(&sb, ", which is scalar (zero-dimensional) tensor.");
  return trx__sb_raise(&sb, "ValueError");
}

static TVMFFIObject* trx__infer_matmul(const trx_op_def_t* def, trx_call_t* call) {
  trx_matmul_attrs_t* attrs = (trx_matmul_attrs_t*)call->attrs;
  trx_tensor_type_t* tt[2];
  DLDataType dtype;
  if (trx__check_args(def, call, 2, tt) != 0) return NULL;
  if (attrs->out_dtype.type_index == kTVMFFIDataType) {
    dtype = attrs->out_dtype.v_dtype;
  } else if (trx__binary_dtype(call, (TVMFFIObject*)tt[0], (TVMFFIObject*)tt[1], &dtype) != 0) {
    return NULL;
  }
  if (tt[0]->ndim == -1 || tt[1]->ndim == -1) return trx__tensor_unknown(dtype, -1);
  int64_t n1 = tt[0]->ndim, n2 = tt[1]->ndim;
  if (n1 == 0 && trx__matmul_scalar_error(call, "LHS", trx__call_arg(call, 0))) return NULL;
  if (n2 == 0 && trx__matmul_scalar_error(call, "RHS", trx__call_arg(call, 1))) return NULL;
  bool prepend = n1 == 1, append = n2 == 1;
  int64_t e1 = prepend ? 2 : n1, e2 = append ? 2 : n2;
  int64_t out_ndim = (e1 > e2 ? e1 : e2) - prepend - append;
  TVMFFIObject* v1 = trx__shape_values(tt[0]);
  TVMFFIObject* v2 = trx__shape_values(tt[1]);
  if (v1 == NULL || v2 == NULL) return trx__tensor_unknown(dtype, out_ndim);
  TVMFFIObject *b1 = NULL, *b2 = NULL, *batch = NULL, *ty = NULL;
  TVMFFIObject** d = NULL;
  {
    TVMFFIObject* tmp[64];
    int64_t nb1 = e1 - 2, nb2 = e2 - 2;
    if (nb1 > 64 || nb2 > 64) {
      tether_raise("ValueError", "%s: too many dimensions", def->full_name);
      return NULL;
    }
    for (int64_t i = 0; i < nb1; ++i) tmp[i] = trx__dim(v1, i);
    b1 = trx__array_of(tmp, nb1);
    for (int64_t i = 0; i < nb2; ++i) tmp[i] = trx__dim(v2, i);
    b2 = trx__array_of(tmp, nb2);
  }
  if (b1 == NULL || b2 == NULL || trx__broadcast(def, b1, b2, &batch) != 0) goto done;
  if (batch == NULL) {
    ty = trx__tensor_unknown(dtype, out_ndim);
    goto done;
  }
  {
    TVMFFIObject* r1 = trx__dim(v1, n1 - 1);
    TVMFFIObject* r2 = trx__dim(v2, append ? 0 : n2 - 2);
    if (trx_prove_equal(r1, r2) == TRX_PROVE_FALSE) {
      trx__sb_t sb = {0};
      trx__sb_printf(&sb, "Matmul requires the reduction length of the operands to be equal.  However, the LHS ");
      trx__sb_node(&sb, trx__call_arg(call, 0));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[0]->shape);
      trx__sb_printf(&sb, ", while the RHS ");
      trx__sb_node(&sb, trx__call_arg(call, 1));
      trx__sb_printf(&sb, " has shape ");
      trx__sb_node(&sb, tt[1]->shape);
      trx__sb_printf(&sb, ".  The reduction dimensions of ");
      trx__sb_node(&sb, r1);
      trx__sb_printf(&sb, " and ");
      trx__sb_node(&sb, r2);
      trx__sb_printf(&sb, " are not equal.");
      trx__sb_raise(&sb, "ValueError");
      goto done;
    }
  }
  {
    int64_t nbatch = tether_array_size(batch), k = 0;
    d = trx__dims_new(out_ndim);
    if (d == NULL) goto done;
    for (int64_t i = 0; i < nbatch; ++i) d[k++] = trx__ref(trx__dim(batch, i));
    if (!prepend) d[k++] = trx__ref(trx__dim(v1, n1 - 2));
    if (!append) d[k++] = trx__ref(trx__dim(v2, n2 - 1));
    ty = trx__tensor_steal_free(d, out_ndim, dtype);
  }
done:
  if (b1) TVMFFIObjectDecRef(b1);
  if (b2) TVMFFIObjectDecRef(b2);
  if (batch) TVMFFIObjectDecRef(batch);
  return ty;
}

/* ---- einsum ----------------------------------------------------------------------------------
 * The equation parser and shape inference of TVM's topi einsum (what relax.einsum's inference
 * calls): subscripts are letters, ',' separates operands, "->" starts the output, "..." is
 * an ellipsis (kept as TRX__EIN_ELLIPSIS); without an arrow the output is the ellipsis (if any)
 * and the labels used once, in character order. */
#define TRX__EINSUM_FIELDS(F, T) F(T, subscripts, STRING, "ffi.String")
TRX_ATTRS_STRUCT(trx_einsum_attrs_t, TRX__EINSUM_FIELDS);
TRX_ATTRS_DECL(trx__einsum_attrs, "relax.attrs.EinsumAttrs", trx_einsum_attrs_t, TRX__EINSUM_FIELDS);

#define TRX__EIN_ELLIPSIS '.'
#define TRX__EIN_MAX 64 /* operands and labels per subscript (longer equations: ValueError) */

typedef struct {
  char labels[TRX__EIN_MAX];
  int n;
} trx__ein_subscript_t;

typedef struct {
  trx__ein_subscript_t in[TRX__EIN_MAX];
  int nin;
  trx__ein_subscript_t out;
} trx__ein_equation_t;

static int trx__ein_push(trx__ein_subscript_t* s, char c) {
  if (s->n >= TRX__EIN_MAX)
    return tether_raise("ValueError", "relax.einsum: a subscript of more than %d labels", TRX__EIN_MAX);
  s->labels[s->n++] = c;
  return 0;
}

static int trx__einsum_parse(const char* eq, int64_t n, trx__ein_equation_t* out) {
  trx__ein_subscript_t cur = {{0}, 0};
  bool has_arrow = false, has_ellipsis = false;
  memset(out, 0, sizeof(*out));
  for (int64_t i = 0; i < n; ++i) {
    char c = eq[i];
    if (c == ' ') continue;
    if (c == '-' || c == ',') {
      if (c == '-') {
        if (has_arrow)
          return tether_raise("InternalError",
                              "Check failed: (!has_arrow) is false: Equation can only have one arrow");
        if (!(i + 1 < n && eq[i + 1] == '>'))
          return tether_raise("InternalError",
                              "Check failed: (i + 1 < n && equation[i + 1] == '>') is false: Cannot "
                              "parse the Einsum equation: invalid arrow");
        i++;
        has_arrow = true;
      }
      if (out->nin >= TRX__EIN_MAX)
        return tether_raise("ValueError", "relax.einsum: more than %d operands", TRX__EIN_MAX);
      out->in[out->nin++] = cur;
      cur.n = 0;
      has_ellipsis = false;
    } else if (c == '.') {
      if (has_ellipsis)
        return tether_raise("InternalError",
                            "Check failed: (!has_ellipsis) is false: Ellipsis can only appear once "
                            "for each input and output");
      if (!(i + 2 < n && eq[i + 1] == '.' && eq[i + 2] == '.'))
        return tether_raise("InternalError",
                            "Check failed: (i + 2 < n && equation[i + 1] == '.' && equation[i + 2] "
                            "== '.') is false: Cannot parse the Einsum equation: invalid ellipsis");
      if (trx__ein_push(&cur, TRX__EIN_ELLIPSIS) != 0) return -1;
      has_ellipsis = true;
      i += 2;
    } else {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
        return tether_raise("InternalError",
                            "Check failed: (std::isalpha(equation[i])) is false: Cannot parse the "
                            "Einsum equation: invalid character %c in equation %.*s",
                            c, (int)n, eq);
      if (trx__ein_push(&cur, c) != 0) return -1;
    }
  }
  if (has_arrow) {
    out->out = cur;
    return 0;
  }
  if (out->nin >= TRX__EIN_MAX)
    return tether_raise("ValueError", "relax.einsum: more than %d operands", TRX__EIN_MAX);
  out->in[out->nin++] = cur;
  /* Implicit mode: the ellipsis and the labels seen once, in character order. */
  int counts[128] = {0};
  for (int k = 0; k < out->nin; ++k)
    for (int j = 0; j < out->in[k].n; ++j) counts[(unsigned char)out->in[k].labels[j] & 127]++;
  for (int c = 0; c < 128; ++c) {
    if (counts[c] > 0 && (c == TRX__EIN_ELLIPSIS || counts[c] == 1)) {
      if (trx__ein_push(&out->out, (char)c) != 0) return -1;
    }
  }
  return 0;
}

/* GetBroadcastedExtent: two extents of one label. */
static TVMFFIObject* trx__einsum_label_extent(TVMFFIObject* a, TVMFFIObject* b) {
  int64_t x = 0, y = 0;
  bool ca = trx__int_imm_value(a, &x), cb = trx__int_imm_value(b, &y);
  if (ca && cb) {
    if (x == y) return trx__ref(a);
    if (x == 1 || y == 1) return trx_int64(x > y ? x : y);
    trx__sb_t sb = {0};
    trx__sb_printf(&sb, "Cannot broadcast extents ");
    trx__sb_node(&sb, a);
    trx__sb_printf(&sb, " and ");
    trx__sb_node(&sb, b);
    trx__sb_raise(&sb, "InternalError");
    return NULL;
  }
  if (ca) return trx__ref(b);
  if (cb) return trx__ref(a);
  /* tir's max folds max(n, n) to n. */
  if (trx_prove_equal(a, b) == TRX_PROVE_TRUE) return trx__ref(a);
  return trx_binop_new(TRX_PRIM_MAX, a, b);
}

/* topi's BroadcastShape of two dim lists (right-aligned): a new Array, or NULL with an error. */
static TVMFFIObject* trx__einsum_broadcast_shape(TVMFFIObject* s1, TVMFFIObject* s2) {
  int64_t n1 = tether_array_size(s1), n2 = tether_array_size(s2);
  int64_t n = n1 > n2 ? n1 : n2;
  TVMFFIObject** d = trx__dims_new(n);
  if (d == NULL) return NULL;
  for (int64_t i = 1; i <= n; ++i) {
    TVMFFIObject* r = NULL;
    if (i > n1 || i > n2) {
      r = trx__ref(trx__dim(n1 > n2 ? s1 : s2, (n1 > n2 ? n1 : n2) - i));
    } else {
      TVMFFIObject *a = trx__dim(s1, n1 - i), *b = trx__dim(s2, n2 - i);
      int64_t x = 0, y = 0;
      bool ca = trx__int_imm_value(a, &x), cb = trx__int_imm_value(b, &y);
      if (trx_prove_equal(a, b) == TRX_PROVE_TRUE) r = trx__ref(a);
      else if (ca && x == 1) r = trx__ref(b);
      else if (cb && y == 1) r = trx__ref(a);
      else if (!ca && !cb) r = trx_binop_new(TRX_PRIM_MAX, a, b);
      else if (!ca) r = trx__ref(b);
      else if (!cb) r = trx__ref(a);
      else {
        trx__sb_t sb = {0};
        trx__sb_printf(&sb, "Check failed: (false) is false: Incompatible broadcast dims: ");
        trx__sb_node(&sb, a);
        trx__sb_printf(&sb, " and ");
        trx__sb_node(&sb, b);
        trx__sb_printf(&sb, " in: ");
        trx__sb_expr_tuple(&sb, s1);
        trx__sb_printf(&sb, " and ");
        trx__sb_expr_tuple(&sb, s2);
        trx__sb_raise(&sb, "InternalError");
      }
    }
    if (r == NULL) {
      trx__dims_free(d, n);
      return NULL;
    }
    d[n - i] = r;
  }
  TVMFFIObject* arr = trx__array_of(d, n);
  trx__dims_free(d, n);
  return arr;
}

/* InferEinsumShape: the output dims of `eq` over the operands' dim Arrays (new Array). */
static TVMFFIObject* trx__einsum_shape(const trx__ein_equation_t* eq, TVMFFIObject* const* shapes,
                                       int64_t nops) {
  if (eq->nin != nops) {
    tether_raise("InternalError",
                 "Check failed: equation_.inputs.size() == input_shapes_.size() (%d vs. %lld) : "
                 "Number of operands does not match the equation",
                 eq->nin, (long long)nops);
    return NULL;
  }
  TVMFFIObject* extent[128] = {NULL};
  TVMFFIObject* ell = NULL; /* the broadcast ellipsis shape */
  TVMFFIObject* out = NULL;
  TVMFFIObject** ell_shapes = calloc((size_t)(nops > 0 ? nops : 1), sizeof(TVMFFIObject*));
  int64_t nell = 0;
  if (ell_shapes == NULL) {
    tether_raise("MemoryError", "out of memory");
    return NULL;
  }
  for (int64_t k = 0; k < nops; ++k) {
    const trx__ein_subscript_t* s = &eq->in[k];
    int64_t ndim = tether_array_size(shapes[k]), cur = 0;
    for (int j = 0; j < s->n; ++j) {
      char c = s->labels[j];
      if (c == TRX__EIN_ELLIPSIS) {
        int64_t en = ndim - s->n + 1;
        if (en < 0) {
          tether_raise("ValueError", "cannot construct an Array of negative size");
          goto done;
        }
        TVMFFIObject** sub = trx__dims_new(en);
        if (sub == NULL) goto done;
        for (int64_t t = 0; t < en; ++t) sub[t] = trx__ref(trx__dim(shapes[k], cur + t));
        ell_shapes[nell] = trx__array_of(sub, en);
        trx__dims_free(sub, en);
        if (ell_shapes[nell++] == NULL) goto done;
        cur += en;
        continue;
      }
      if (cur >= ndim) {
        trx__index_error(cur, ndim);
        goto done;
      }
      TVMFFIObject* e = trx__dim(shapes[k], cur++);
      int li = (unsigned char)c & 127;
      if (extent[li] == NULL) {
        extent[li] = trx__ref(e);
      } else {
        TVMFFIObject* b = trx__einsum_label_extent(extent[li], e);
        if (b == NULL) goto done;
        TVMFFIObjectDecRef(extent[li]);
        extent[li] = b;
      }
    }
    if (cur != ndim) {
      tether_raise("InternalError", "Check failed: current_dim == input_shape.size() (%lld vs. %lld) : ",
                   (long long)cur, (long long)ndim);
      goto done;
    }
  }
  if (nell > 0) {
    int64_t best = 0;
    for (int64_t i = 1; i < nell; ++i)
      if (tether_array_size(ell_shapes[i]) > tether_array_size(ell_shapes[best])) best = i;
    ell = trx__ref(ell_shapes[best]);
    for (int64_t i = 0; i < nell; ++i) {
      TVMFFIObject* b = trx__einsum_broadcast_shape(ell, ell_shapes[i]);
      if (b == NULL) goto done;
      TVMFFIObjectDecRef(ell);
      ell = b;
    }
  }
  {
    int64_t nout = 0, nell_dims = ell != NULL ? tether_array_size(ell) : 0;
    for (int j = 0; j < eq->out.n; ++j) nout += eq->out.labels[j] == TRX__EIN_ELLIPSIS ? nell_dims : 1;
    TVMFFIObject** d = trx__dims_new(nout);
    if (d == NULL) goto done;
    int64_t t = 0;
    for (int j = 0; j < eq->out.n; ++j) {
      char c = eq->out.labels[j];
      if (c == TRX__EIN_ELLIPSIS) {
        for (int64_t i = 0; i < nell_dims; ++i) d[t++] = trx__ref(trx__dim(ell, i));
      } else if (extent[(unsigned char)c & 127] != NULL) {
        d[t++] = trx__ref(extent[(unsigned char)c & 127]);
      } else {
        /* TVM dereferences a null extent here (it crashes); tether reports it. */
        tether_raise("ValueError",
                     "relax.einsum: the output subscript '%c' does not appear in any input", c);
        trx__dims_free(d, nout);
        goto done;
      }
    }
    out = trx__array_of(d, nout);
    trx__dims_free(d, nout);
  }
done:
  for (int i = 0; i < 128; ++i)
    if (extent[i] != NULL) TVMFFIObjectDecRef(extent[i]);
  for (int64_t i = 0; i < nell; ++i)
    if (ell_shapes[i] != NULL) TVMFFIObjectDecRef(ell_shapes[i]);
  free(ell_shapes);
  if (ell != NULL) TVMFFIObjectDecRef(ell);
  return out;
}

static TVMFFIObject* trx__infer_einsum(const trx_op_def_t* def, trx_call_t* call) {
  if (trx__call_nargs(call) != 1) {
    tether_raise("ValueError", "Einsum op should take 1 argument");
    return NULL;
  }
  TVMFFIObject* fields = trx__tuple_tensor_fields(def, call, "Einsum");
  if (fields == NULL) return NULL;
  int64_t n = tether_array_size(fields);
  DLDataType dtype = trx_tensor_dtype((trx_tensor_type_t*)trx__array_obj(fields, 0));
  TVMFFIObject** shapes = trx__dims_new(n);
  if (shapes == NULL) return NULL;
  TVMFFIObject* ty = NULL;
  for (int64_t i = 0; i < n; ++i) {
    trx_tensor_type_t* t = (trx_tensor_type_t*)trx__array_obj(fields, i);
    if (!trx__dtype_equal(trx_tensor_dtype(t), dtype)) {
      trx__raise_dtype_pair("TypeError",
                            "Einsum expects all input tensors to have the same dtype. However, the "
                            "input contains tensors with dtype ",
                            dtype, " and ", trx_tensor_dtype(t));
      goto done;
    }
    TVMFFIObject* v = trx__shape_values(t);
    if (v == NULL) {
      ty = trx__tensor_unknown(dtype, t->ndim);
      goto done;
    }
    shapes[i] = v; /* borrowed */
  }
  {
    TVMFFIByteArray s = trx__str(&((trx_einsum_attrs_t*)call->attrs)->subscripts);
    trx__ein_equation_t* eq = malloc(sizeof(trx__ein_equation_t));
    if (eq == NULL) {
      tether_raise("MemoryError", "out of memory");
      goto done;
    }
    TVMFFIObject* dims = trx__einsum_parse(s.data, (int64_t)s.size, eq) == 0
                             ? trx__einsum_shape(eq, shapes, n)
                             : NULL;
    free(eq);
    if (dims != NULL) {
      TVMFFIObject* shape = trx_shape_expr_new(dims);
      TVMFFIObjectDecRef(dims);
      if (shape != NULL) {
        ty = trx__tensor_new(shape, dtype, -1);
        TVMFFIObjectDecRef(shape);
      }
    }
  }
done:
  free(shapes);
  return ty;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
TRX__OPS(linalg){
    {.name = "matmul", .params = "x1: Expr, x2: Expr, out_dtype: dtype? = None",
     .arguments = "x1|Tensor|The first input tensor.\nx2|Tensor|The second input tensor.",
     .attrs = &trx__matmul_attrs, .infer = trx__infer_matmul, .flags = TRX_OP_HIDE_ATTRS_KEY,
     .doc = "Matrix product with numpy's broadcasting of the batch dims."},
    {.name = "einsum", .params = "operands: Tuple, subscripts: str",
     .arguments = "operands|Tensor|The input tensors.", .attrs = &trx__einsum_attrs,
     .infer = trx__infer_einsum,
     .doc = "Einstein summation of operands by the subscripts equation (\"ij,jk->ik\")."},
};
TRX__OPS_END(linalg);
