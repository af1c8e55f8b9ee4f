/*
 * sort.c -- sorting: sort, argsort, topk.  Each op is a declaration at the end of the file
 * (parameters as TVM's Python signature, attrs type, inference); rules and error texts are
 * apache-tvm 0.27's.
 */
#include "../op.h"

#define TRX__SORT_FIELDS(F, T) \
  F(T, axis, INT64, "int")     \
  F(T, descending, BOOL, "bool")
TRX_ATTRS_STRUCT(trx_sort_attrs_t, TRX__SORT_FIELDS);
TRX_ATTRS_DECL(trx__sort_attrs, "relax.attrs.SortAttrs", trx_sort_attrs_t, TRX__SORT_FIELDS);
#define TRX__ARGSORT_FIELDS(F, T)      \
  F(T, axis, INT64, "int")             \
  F(T, descending, BOOL, "bool")       \
  F(T, dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_argsort_attrs_t, TRX__ARGSORT_FIELDS);
TRX_ATTRS_DECL(trx__argsort_attrs, "relax.attrs.ArgsortAttrs", trx_argsort_attrs_t, TRX__ARGSORT_FIELDS);
#define TRX__TOPK_FIELDS(F, T)           \
  F(T, k, INT64, "int")                  \
  F(T, axis, INT64, "int")               \
  F(T, ret_type, STRING, "ffi.String")   \
  F(T, largest, BOOL, "bool")            \
  F(T, dtype, ANY, "Optional<DataType>")
TRX_ATTRS_STRUCT(trx_topk_attrs_t, TRX__TOPK_FIELDS);
TRX_ATTRS_DECL(trx__topk_attrs, "relax.attrs.TopKAttrs", trx_topk_attrs_t, TRX__TOPK_FIELDS);

/* An Optional<DataType> attribute, or `otherwise` when None. */
static DLDataType trx__opt_dtype(const TVMFFIAny* v, DLDataType otherwise) {
  return v->type_index == kTVMFFIDataType ? v->v_dtype : otherwise;
}

/* sort: x's own type (the axis is not checked). */
static TVMFFIObject* trx__infer_sort(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  return trx__ref((TVMFFIObject*)tt[0]);
}

/* argsort: x's shape, dtype the attribute's (None: x's). */
static TVMFFIObject* trx__infer_argsort(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_argsort_attrs_t* attrs = (trx_argsort_attrs_t*)call->attrs;
  return trx__tensor_new(tt[0]->shape, trx__opt_dtype(&attrs->dtype, trx_tensor_dtype(tt[0])),
                         tt[0]->ndim);
}

/* topk: values and indices of data's shape with the axis dim replaced by k (unless k < 1 or
 * k exceeds a constant dim); the axis indexes the dims unchecked (IndexError out of range). */
static TVMFFIObject* trx__infer_topk(const trx_op_def_t* def, trx_call_t* call) {
  trx_tensor_type_t* tt[1];
  if (trx__check_args(def, call, 1, tt) != 0) return NULL;
  trx_topk_attrs_t* attrs = (trx_topk_attrs_t*)call->attrs;
  DLDataType dtype = trx_tensor_dtype(tt[0]), it = trx__opt_dtype(&attrs->dtype, dtype);
  int64_t ndim = tt[0]->ndim;
  TVMFFIObject* v = trx__shape_values(tt[0]);
  TVMFFIObject* out[2] = {NULL, NULL};
  if (v != NULL) {
    int64_t axis = trx__as_int(attrs->axis), k = trx__as_int(attrs->k), c = 0;
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim) {
      trx__index_error(axis, ndim);
      return NULL;
    }
    bool keep = k < 1 || (trx__dim_const(v, axis, &c) && k > c);
    for (int j = 0; j < 2; ++j) {
      TVMFFIObject** d = trx__dims_new(ndim);
      for (int64_t i = 0; d != NULL && i < ndim; ++i)
        d[i] = i == axis && !keep ? trx_int64(k) : trx__ref(trx__dim(v, i));
      out[j] = d != NULL ? trx__tensor_steal_free(d, ndim, j == 0 ? dtype : it) : NULL;
    }
  } else {
    out[0] = trx__tensor_unknown(dtype, ndim);
    out[1] = trx__tensor_unknown(it, ndim);
  }
  TVMFFIObject* ty = NULL;
  if (out[0] != NULL && out[1] != NULL) {
    TVMFFIByteArray rt = trx__str(&attrs->ret_type);
    if (rt.size == 4 && memcmp(rt.data, "both", 4) == 0) ty = trx__tuple_type_of(out, 2);
    else if (rt.size == 6 && memcmp(rt.data, "values", 6) == 0) ty = trx__ref(out[0]);
    else if (rt.size == 7 && memcmp(rt.data, "indices", 7) == 0) ty = trx__ref(out[1]);
    else tether_raise("InternalError", "Unsupported ret type: %.*s", (int)rt.size, rt.data);
  }
  trx__release_objects(out, 2);
  return ty;
}

/* ---- declarations ------------------------------------------------------------------------------------ */
#define TRX__A_DATA "data|Tensor|The input tensor."

TRX__OPS(sort){
    {.name = "sort", .params = "x: Expr, axis: int = -1, descending: bool = False",
     .arguments = TRX__A_DATA, .attrs = &trx__sort_attrs, .infer = trx__infer_sort,
     .check = trx__check_int_attrs,
     .doc = "x sorted along axis."},
    {.name = "argsort",
     .params = "data: Expr, axis: int = -1, descending: bool = False, dtype: dtype? = \"int32\"",
     .arguments = TRX__A_DATA, .attrs = &trx__argsort_attrs, .infer = trx__infer_argsort,
     .check = trx__check_int_attrs,
     .doc = "The indices that sort data along axis."},
    {.name = "topk",
     .params = "data: Expr, k: int = 1, axis: int = -1, ret_type: str = \"both\", "
               "largest: bool = True, dtype: dtype? = \"int32\"",
     .arguments = TRX__A_DATA, .attrs = &trx__topk_attrs, .infer = trx__infer_topk,
     .check = trx__check_int_attrs,
     .doc = "The k largest (or smallest) values of data along axis and / or their indices."},
};
TRX__OPS_END(sort);
