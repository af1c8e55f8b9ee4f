/* onnx_wire.c -- tether._onnx_wire: the nodes and initializers of a serialized ONNX GraphProto,
 * read straight from the protobuf wire format, for tether.relax.frontend.onnx.
 *
 * The ONNX importer reads every node's op type, inputs, outputs and attributes, and every
 * initializer's header.  Through the protobuf Python classes each of those reads builds Python
 * objects field by field (a repeated field of strings costs about a microsecond per element);
 * here one pass over `graph.SerializeToString()` builds them directly.  Only what the importer
 * needs is decoded; every other field is skipped.  What this reader does not decode (tensor and
 * graph attributes, typed or external tensor data, attributes whose fields do not match their
 * declared type) it reports so that the importer reads those from the protobuf objects.
 *
 * graph(data) -> (nodes, initializers)
 *   nodes: a list, per NodeProto in order, of
 *     (op_type, domain, name, inputs, outputs, attrs, lazy)
 *     inputs, outputs: tuples of str;
 *     attrs: {name: value} for the attributes of kind FLOAT (float), INT (int), STRING (bytes),
 *       FLOATS / INTS / STRINGS (tuples) -- or None when an attribute is not plainly of its
 *       declared kind (no value, several values, an unknown kind): then the importer reads
 *       every attribute of that node from its NodeProto;
 *     lazy: a tuple of (name, index of the attribute in the node, field name, data) for the
 *       kinds whose value is a message (TENSOR "t", GRAPH "g", TYPE_PROTO "tp", TENSORS
 *       "tensors", GRAPHS "graphs", TYPE_PROTOS "type_protos"), or None when there are none;
 *       data: for a TENSOR, the serialized TensorProto (bytes; the importer parses each
 *       distinct one once), else None.
 *   initializers: a list, per TensorProto in order, of
 *     (name, data_type, dims, offset, length): offset and length locate raw_data in `data`,
 *     or are -1 when the tensor holds no raw_data or keeps its data elsewhere (typed fields,
 *     segments, external data): then the importer reads it from the TensorProto.
 * Raises ValueError when `data` is not a well-formed GraphProto (truncated, a bad wire type,
 * a string that is not UTF-8); never reads outside `data`.
 *
 * nodes(protos) -> nodes
 *   The same node records as graph's, from a sequence of NodeProto objects, each read from its
 *   own SerializeToString() (the importer's way when the graph's initializers are too large to
 *   serialize with it).
 *
 * inputs(values, names) -> Inputs
 *   A node's operands: values[name] per name of the tuple `names`, None for "" (an omitted
 *   optional input); KeyError naming the first name `values` (a dict) lacks.
 * Inputs: a list whose indexing past the end gives None (the optional inputs a node omits at
 *   the end), slices included; everything else is list's.  The converters index their
 *   operands with it, a few times per node.
 *
 * elements(tensors, limit) -> int
 *   The number of elements the TensorProtos `tensors` hold (the product of each one's dims),
 *   counted until it passes `limit` (then a number above limit).  TypeError when a tensor's
 *   dims are not ints.
 * constants(tensors, dtypes, skip, bytes_tensor, generic_const, values) -> None or list
 *   Per TensorProto of `tensors`, in order, the constant of its raw_data:
 *   generic_const(bytes_tensor(raw_data, code, bits, tuple(dims)), None), where (code, bits)
 *   = dtypes[data_type] -- or None when the tensor is not that plain case: its name is empty
 *   or blank or in the set `skip`, its data_type is not in dtypes, its data is external or
 *   not in raw_data, or its raw_data does not hold its dims (bytes_tensor's ValueError).
 *   Each constant is also set as values[name], in order.  The result is None when every
 *   tensor is plain; else it is the list of constants and Nones, and the importer goes over
 *   the tensors again in order (setting the constants once more, so that of a repeated name
 *   the last one counts) and reads the Nones itself, raising their errors.  Any other
 *   exception propagates.
 * walk(g, records, protos, env)
 *   The importer's walk over a graph's nodes (tether.relax.frontend.onnx.importer,
 *   _Importer._convert_nodes): per node record, in order, the record is taken out of the list
 *   `records` (set to None) and converted.  The common node is converted here: its attributes
 *   are all in its record (a TENSOR one parsed before: in env's tensor_attrs), its operands are
 *   all defined and none of them is typed as a shape or a dim (env's special names), it is
 *   not an If, its op has a converter, and the converter's value is one expression of tensor
 *   type for at most one output.  Every other node goes to g._convert_node(protos, index,
 *   record) (and a value it cannot bind here to g._bind(op_type, name, outputs, value, kind)),
 *   the Python definition of the same conversion, which this function must agree with.
 *   env: (converters, converter, kinds, value_kind, (EXPR, TUPLE), normalize, bb, TensorType,
 *   tuple_output_ops, special, tensor_attrs, typed_errors, conversion_error, at,
 *   static_shape), the importer's objects of those names; at, the importer's list [protos,
 *   index, output count] of the node being converted, is updated before each converter runs;
 *   static_shape, the type of the initializers kept as dims (or None when there are none):
 *   a node other than a ConstantOfShape reading one goes to _convert_node, which makes it a
 *   constant.  A converter's exception other than typed_errors becomes
 *   conversion_error(op_type, name, exc), raised from it.
 *
 * Field numbers: ONNX's onnx.proto (GraphProto, NodeProto, AttributeProto, TensorProto).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

/* Wire types. */
enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

/* AttributeProto.AttributeType values, and the field numbers of their values. */
enum {
  AT_FLOAT = 1, AT_INT = 2, AT_STRING = 3, AT_TENSOR = 4, AT_GRAPH = 5, AT_FLOATS = 6,
  AT_INTS = 7, AT_STRINGS = 8, AT_TENSORS = 9, AT_GRAPHS = 10, AT_TYPE_PROTO = 13,
  AT_TYPE_PROTOS = 14
};

/* The value fields of an AttributeProto: field number, the declared type it belongs to, the
 * Python field name (for the message kinds, read lazily from the protobuf object). */
#define WIRE_ATTR_FIELDS(X)            \
  X(2, AT_FLOAT, "f")                  \
  X(3, AT_INT, "i")                    \
  X(4, AT_STRING, "s")                 \
  X(5, AT_TENSOR, "t")                 \
  X(6, AT_GRAPH, "g")                  \
  X(7, AT_FLOATS, "floats")            \
  X(8, AT_INTS, "ints")                \
  X(9, AT_STRINGS, "strings")          \
  X(10, AT_TENSORS, "tensors")         \
  X(11, AT_GRAPHS, "graphs")           \
  X(14, AT_TYPE_PROTO, "tp")           \
  X(15, AT_TYPE_PROTOS, "type_protos") \
  X(22, 0, "sparse_tensor")            \
  X(23, 0, "sparse_tensors")

typedef struct {
  const uint8_t* p;
  const uint8_t* end;
} wire_t;

static int wire_fail(const char* what) {
  PyErr_Format(PyExc_ValueError, "_onnx_wire.graph: malformed GraphProto (%s)", what);
  return -1;
}

static int wire_varint(wire_t* w, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (w->p >= w->end) return wire_fail("truncated varint");
    uint8_t b = *w->p++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return 0;
    }
  }
  return wire_fail("varint longer than 10 bytes");
}

/* The next field's number and wire type; for WT_LEN, *sub is its payload (skipped in w). */
static int wire_field(wire_t* w, uint32_t* num, int* wt, wire_t* sub) {
  uint64_t key;
  if (wire_varint(w, &key) != 0) return -1;
  *num = (uint32_t)(key >> 3);
  *wt = (int)(key & 7);
  if (*wt == WT_LEN) {
    uint64_t n;
    if (wire_varint(w, &n) != 0) return -1;
    if (n > (uint64_t)(w->end - w->p)) return wire_fail("length past the end");
    sub->p = w->p;
    sub->end = w->p + n;
    w->p += n;
  }
  return 0;
}

/* One field of a message being read: its number, wire type and (WT_LEN) payload. */
typedef struct {
  uint32_t num;
  int wt;
  wire_t sub;
} wire_field_t;

/* Reads the next field of w into f: 1, or 0 at the end of w, or -1 with ValueError. */
static int wire_next(wire_t* w, wire_field_t* f) {
  if (w->p >= w->end) return 0;
  return wire_field(w, &f->num, &f->wt, &f->sub) == 0 ? 1 : -1;
}

/* Skips a field's payload (WT_LEN payloads are skipped by wire_field). */
static int wire_skip(wire_t* w, int wt) {
  uint64_t v;
  switch (wt) {
    case WT_VARINT: return wire_varint(w, &v);
    case WT_I64:
      if (w->end - w->p < 8) return wire_fail("truncated fixed64");
      w->p += 8;
      return 0;
    case WT_I32:
      if (w->end - w->p < 4) return wire_fail("truncated fixed32");
      w->p += 4;
      return 0;
    case WT_LEN: return 0;
    default: return wire_fail("unsupported wire type");
  }
}

/* A new str from a WT_LEN payload (NULL with ValueError when it is not UTF-8). */
static PyObject* wire_str(const wire_t* s) {
  PyObject* o = PyUnicode_DecodeUTF8((const char*)s->p, s->end - s->p, NULL);
  if (o == NULL) {
    PyErr_Clear();
    wire_fail("a string that is not UTF-8");
  }
  return o;
}

/* The strings a graph repeats (op types, domains, attribute names), made once: a direct-mapped
 * cache of short ASCII strings keyed by a hash of their bytes, a hit checked byte for byte.
 * (The GIL guards it.) */
#define WIRE_CACHE_SLOTS 256
#define WIRE_CACHE_MAX_LEN 40
static PyObject* wire_cache[WIRE_CACHE_SLOTS];

/* wire_str, through the cache. */
static PyObject* wire_cached_str(const wire_t* s) {
  size_t n = (size_t)(s->end - s->p);
  if (n > WIRE_CACHE_MAX_LEN) return wire_str(s);
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; ++i) h = (h ^ s->p[i]) * 16777619u;
  PyObject** slot = &wire_cache[h % WIRE_CACHE_SLOTS];
  PyObject* o = *slot;
  if (o != NULL && (size_t)PyUnicode_GET_LENGTH(o) == n && memcmp(PyUnicode_DATA(o), s->p, n) == 0) {
    return Py_NewRef(o);
  }
  o = wire_str(s);
  if (o != NULL && PyUnicode_IS_COMPACT_ASCII(o)) Py_XSETREF(*slot, Py_NewRef(o));
  return o;
}

static float wire_f32(const uint8_t* p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float f;
  memcpy(&f, &u, sizeof(f));
  return f;
}

/* Appends the elements of a repeated int64 (varint) or float (fixed32) field occurrence, packed
 * (WT_LEN) or not, to list. */
static int wire_repeated(wire_t* w, int wt, const wire_t* sub, int is_float, PyObject* list) {
  PyObject* item = NULL;
  if (wt == WT_LEN) {
    wire_t s = *sub;
    while (s.p < s.end) {
      if (is_float) {
        if (s.end - s.p < 4) return wire_fail("truncated packed floats");
        item = PyFloat_FromDouble((double)wire_f32(s.p));
        s.p += 4;
      } else {
        uint64_t v;
        if (wire_varint(&s, &v) != 0) return -1;
        item = PyLong_FromLongLong((long long)(int64_t)v);
      }
      if (item == NULL || PyList_Append(list, item) != 0) goto fail;
      Py_DECREF(item);
    }
    return 0;
  }
  if (is_float) {
    if (wt != WT_I32 || w->end - w->p < 4) return wire_fail("a bad float element");
    item = PyFloat_FromDouble((double)wire_f32(w->p));
    w->p += 4;
  } else {
    uint64_t v;
    if (wt != WT_VARINT) return wire_fail("a bad int element");
    if (wire_varint(w, &v) != 0) return -1;
    item = PyLong_FromLongLong((long long)(int64_t)v);
  }
  if (item == NULL || PyList_Append(list, item) != 0) goto fail;
  Py_DECREF(item);
  return 0;
fail:
  Py_XDECREF(item);
  return -1;
}

/* One AttributeProto: into attrs (plain kinds) or lazy (message kinds); *odd = 1 when it is not
 * plainly of its declared kind. */
static int wire_attribute(wire_t w, Py_ssize_t index, PyObject* attrs, PyObject* lazy, int* odd) {
  PyObject *name = NULL, *value = NULL, *list = NULL, *entry = NULL;
  uint64_t type = 0, ival = 0;
  float fval = 0;
  wire_t sval = {NULL, NULL}, tval = {NULL, NULL};
  int has_type = 0, has_f = 0, has_i = 0, has_s = 0, has_msg = 0, count = 0;
  const char* field_name = NULL;
  int rc = -1;
  /* The declared type comes after the values on the wire (field 20): read it first. */
  wire_t s = w;
  wire_field_t f;
  int more;
  while ((more = wire_next(&s, &f)) > 0) {
    uint32_t num = f.num;
    int wt = f.wt;
    if (num == 20 && wt == WT_VARINT) {
      if (wire_varint(&s, &type) != 0) goto fail;
      has_type = 1;
    } else if (wire_skip(&s, wt) != 0) {
      goto fail;
    }
  }
  if (more < 0) goto fail;
  while ((more = wire_next(&w, &f)) > 0) {
    uint32_t num = f.num;
    int wt = f.wt;
    wire_t sub = f.sub;
    int kind = -1;
    const char* fname = NULL;
    switch (num) {
#define WIRE_CASE(n, k, s) \
  case n:                  \
    kind = k;              \
    fname = s;             \
    break;
      WIRE_ATTR_FIELDS(WIRE_CASE)
#undef WIRE_CASE
      default: break;
    }
    if (num == 1 && wt == WT_LEN) {
      Py_XDECREF(name);
      if ((name = wire_cached_str(&sub)) == NULL) goto fail;
      continue;
    }
    if (num == 21) { /* ref_attr_name: a function attribute reference */
      *odd = 1;
    }
    if (kind < 0) {
      if (wire_skip(&w, wt) != 0) goto fail;
      continue;
    }
    if (!has_type || (uint64_t)kind != type) { /* the declared kind's value wins */
      if (wire_skip(&w, wt) != 0) goto fail;
      continue;
    }
    switch (kind) {
      case AT_FLOAT:
        if (wt != WT_I32 || w.end - w.p < 4) {
          wire_fail("a bad float attribute");
          goto fail;
        }
        fval = wire_f32(w.p);
        w.p += 4;
        has_f = 1;
        break;
      case AT_INT:
        if (wt != WT_VARINT || wire_varint(&w, &ival) != 0) {
          if (!PyErr_Occurred()) wire_fail("a bad int attribute");
          goto fail;
        }
        has_i = 1;
        break;
      case AT_STRING:
        if (wt != WT_LEN) {
          wire_fail("a bad string attribute");
          goto fail;
        }
        sval = sub;
        has_s = 1;
        break;
      case AT_FLOATS:
      case AT_INTS:
        if ((list == NULL && (list = PyList_New(0)) == NULL) ||
            wire_repeated(&w, wt, &sub, kind == AT_FLOATS, list) != 0) {
          goto fail;
        }
        break;
      case AT_STRINGS: {
        if (wt != WT_LEN) {
          wire_fail("a bad strings element");
          goto fail;
        }
        if (list == NULL && (list = PyList_New(0)) == NULL) goto fail;
        PyObject* b = PyBytes_FromStringAndSize((const char*)sub.p, sub.end - sub.p);
        if (b == NULL || PyList_Append(list, b) != 0) {
          Py_XDECREF(b);
          goto fail;
        }
        Py_DECREF(b);
        break;
      }
      default: /* a message kind: read from the protobuf object */
        if (wire_skip(&w, wt) != 0) goto fail;
        if (kind == AT_TENSORS || kind == AT_GRAPHS || kind == AT_TYPE_PROTOS) {
          ++count;
        } else {
          /* a message field given twice is the merge of both: then no bytes (read from the
           * protobuf object) */
          tval = kind == AT_TENSOR && wt == WT_LEN && !has_msg ? sub : (wire_t){NULL, NULL};
          has_msg = 1;
        }
        field_name = fname;
        break;
    }
  }
  if (more < 0) goto fail;
  if (name == NULL) {
    name = PyUnicode_FromStringAndSize("", 0);
    if (name == NULL) goto fail;
  }
  switch (has_type ? (int)type : -1) {
    case AT_FLOAT:
      if (has_f) value = PyFloat_FromDouble((double)fval);
      break;
    case AT_INT:
      if (has_i) value = PyLong_FromLongLong((long long)(int64_t)ival);
      break;
    case AT_STRING:
      if (has_s) value = PyBytes_FromStringAndSize((const char*)sval.p, sval.end - sval.p);
      break;
    case AT_FLOATS:
    case AT_INTS:
    case AT_STRINGS:
      if (list != NULL && PyList_GET_SIZE(list) > 0) value = PyList_AsTuple(list);
      break;
    case AT_TENSOR:
    case AT_GRAPH:
    case AT_TYPE_PROTO:
    case AT_TENSORS:
    case AT_GRAPHS:
    case AT_TYPE_PROTOS:
      if (has_msg || count > 0) {
        if (tval.p != NULL) {
          value = PyBytes_FromStringAndSize((const char*)tval.p, tval.end - tval.p);
          if (value == NULL) goto fail;
        }
        {
          PyObject* pos = PyLong_FromSsize_t(index);
          PyObject* field = pos == NULL ? NULL : PyUnicode_InternFromString(field_name);
          entry = field == NULL ? NULL
              : PyTuple_Pack(4, name, pos, field, value != NULL ? value : Py_None);
          Py_XDECREF(pos);
          Py_XDECREF(field);
        }
        if (entry == NULL || PyList_Append(lazy, entry) != 0) goto fail;
        rc = 0;
        goto done;
      }
      break;
    default: break;
  }
  if (PyErr_Occurred()) goto fail;
  if (value == NULL || PyDict_Contains(attrs, name) != 0) {
    *odd = 1; /* no value of the declared kind, or a repeated name: the importer decides */
    rc = PyErr_Occurred() ? -1 : 0;
    goto done;
  }
  if (PyDict_SetItem(attrs, name, value) != 0) goto fail;
  rc = 0;
  goto done;
fail:
  rc = -1;
done:
  Py_XDECREF(name);
  Py_XDECREF(value);
  Py_XDECREF(list);
  Py_XDECREF(entry);
  return rc;
}

/* One NodeProto, appended to nodes as a tuple (see the top of the file). */
static int wire_node(wire_t w, PyObject* nodes) {
  PyObject *op = NULL, *domain = NULL, *name = NULL, *ins = NULL, *outs = NULL;
  PyObject *attrs = NULL, *lazy = NULL, *item = NULL, *tup = NULL, *tlazy = NULL;
  Py_ssize_t nattr = 0, nin = 0, nout = 0;
  int odd = 0, rc = -1;
  wire_field_t f;
  int more;
  /* The inputs and outputs are counted first: their tuples are made at their size. */
  for (wire_t s = w; (more = wire_next(&s, &f)) > 0;) {
    if (f.wt == WT_LEN) {
      nin += f.num == 1;
      nout += f.num == 2;
    } else if (wire_skip(&s, f.wt) != 0) {
      goto fail;
    }
  }
  if (more < 0) goto fail;
  if ((ins = PyTuple_New(nin)) == NULL || (outs = PyTuple_New(nout)) == NULL ||
      (attrs = PyDict_New()) == NULL || (lazy = PyList_New(0)) == NULL) {
    goto fail;
  }
  nin = nout = 0;
  while ((more = wire_next(&w, &f)) > 0) {
    uint32_t num = f.num;
    int wt = f.wt;
    wire_t sub = f.sub;
    if (wt != WT_LEN || (num != 1 && num != 2 && num != 3 && num != 4 && num != 5 && num != 7)) {
      if (wire_skip(&w, wt) != 0) goto fail;
      continue;
    }
    if (num == 5) {
      if (wire_attribute(sub, nattr++, attrs, lazy, &odd) != 0) goto fail;
      continue;
    }
    /* (op types and domains repeat: cached) */
    if ((item = num == 4 || num == 7 ? wire_cached_str(&sub) : wire_str(&sub)) == NULL) goto fail;
    if (num == 1) {
      PyTuple_SET_ITEM(ins, nin++, item);
    } else if (num == 2) {
      PyTuple_SET_ITEM(outs, nout++, item);
    } else {
      PyObject** slot = num == 3 ? &name : num == 4 ? &op : &domain;
      Py_XSETREF(*slot, item);
    }
    item = NULL;
  }
  if (more < 0) goto fail;
  if ((op == NULL && (op = PyUnicode_FromStringAndSize("", 0)) == NULL) ||
      (domain == NULL && (domain = PyUnicode_FromStringAndSize("", 0)) == NULL) ||
      (name == NULL && (name = PyUnicode_FromStringAndSize("", 0)) == NULL)) {
    goto fail;
  }
  if (PyList_GET_SIZE(lazy) > 0) {
    if ((tlazy = PyList_AsTuple(lazy)) == NULL) goto fail;
  } else {
    tlazy = Py_NewRef(Py_None);
  }
  tup = PyTuple_Pack(7, op, domain, name, ins, outs, odd ? Py_None : attrs, tlazy);
  if (tup == NULL || PyList_Append(nodes, tup) != 0) goto fail;
  rc = 0;
fail:
  Py_XDECREF(tlazy);
  Py_XDECREF(op);
  Py_XDECREF(domain);
  Py_XDECREF(name);
  Py_XDECREF(ins);
  Py_XDECREF(outs);
  Py_XDECREF(attrs);
  Py_XDECREF(lazy);
  Py_XDECREF(item);
  Py_XDECREF(tup);
  return rc;
}

/* One TensorProto's header, appended to inits as a tuple (see the top of the file). */
static int wire_tensor(wire_t w, const uint8_t* base, PyObject* inits) {
  PyObject *name = NULL, *dims = NULL, *tup = NULL, *tdims = NULL;
  uint64_t data_type = 0;
  Py_ssize_t off = -1, len = -1;
  int elsewhere = 0, rc = -1;
  if ((dims = PyList_New(0)) == NULL) goto fail;
  wire_field_t f;
  int more;
  while ((more = wire_next(&w, &f)) > 0) {
    uint32_t num = f.num;
    int wt = f.wt;
    wire_t sub = f.sub;
    switch (num) {
      case 1: /* dims */
        if (wire_repeated(&w, wt, &sub, 0, dims) != 0) goto fail;
        break;
      case 2: /* data_type */
        if (wt != WT_VARINT || wire_varint(&w, &data_type) != 0) {
          if (!PyErr_Occurred()) wire_fail("a bad data_type");
          goto fail;
        }
        break;
      case 8: /* name */
        if (wt != WT_LEN) {
          wire_fail("a bad tensor name");
          goto fail;
        }
        Py_XDECREF(name);
        if ((name = wire_str(&sub)) == NULL) goto fail;
        break;
      case 9: /* raw_data */
        if (wt != WT_LEN) {
          wire_fail("a bad raw_data");
          goto fail;
        }
        off = sub.p - base;
        len = sub.end - sub.p;
        break;
      case 3: case 4: case 5: case 6: case 7: case 10: case 11: case 13: case 14:
        /* segment, typed data, external data, data_location: read from the TensorProto */
        elsewhere = 1;
        if (wire_skip(&w, wt) != 0) goto fail;
        break;
      default:
        if (wire_skip(&w, wt) != 0) goto fail;
        break;
    }
  }
  if (more < 0) goto fail;
  if (elsewhere) off = len = -1;
  if (name == NULL && (name = PyUnicode_FromStringAndSize("", 0)) == NULL) goto fail;
  if ((tdims = PyList_AsTuple(dims)) == NULL) goto fail;
  tup = Py_BuildValue("(OKOnn)", name, (unsigned long long)data_type, tdims, off, len);
  if (tup == NULL || PyList_Append(inits, tup) != 0) goto fail;
  rc = 0;
fail:
  Py_XDECREF(name);
  Py_XDECREF(dims);
  Py_XDECREF(tdims);
  Py_XDECREF(tup);
  return rc;
}

static PyObject* wire_graph(PyObject* module, PyObject* arg) {
  (void)module;
  Py_buffer view;
  PyObject *nodes = NULL, *inits = NULL, *result = NULL;
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) != 0) return NULL;
  const uint8_t* base = (const uint8_t*)view.buf;
  wire_t w = {base, base + view.len};
  if ((nodes = PyList_New(0)) == NULL || (inits = PyList_New(0)) == NULL) goto done;
  wire_field_t f;
  int more;
  while ((more = wire_next(&w, &f)) > 0) {
    uint32_t num = f.num;
    int wt = f.wt;
    wire_t sub = f.sub;
    if (num == 1 && wt == WT_LEN) {
      if (wire_node(sub, nodes) != 0) goto done;
    } else if (num == 5 && wt == WT_LEN) {
      if (wire_tensor(sub, base, inits) != 0) goto done;
    } else if (wire_skip(&w, wt) != 0) {
      goto done;
    }
  }
  if (more < 0) goto done;
  result = PyTuple_Pack(2, nodes, inits);
done:
  Py_XDECREF(nodes);
  Py_XDECREF(inits);
  PyBuffer_Release(&view);
  return result;
}

static PyObject* wire_nodes(PyObject* module, PyObject* arg) {
  (void)module;
  static PyObject* s_serialize;
  if (s_serialize == NULL && (s_serialize = PyUnicode_InternFromString("SerializeToString")) == NULL) {
    return NULL;
  }
  PyObject* seq = PySequence_Fast(arg, "_onnx_wire.nodes(protos): expected a sequence of NodeProto");
  if (seq == NULL) return NULL;
  PyObject* nodes = PyList_New(0);
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; nodes != NULL && i < n; ++i) {
    PyObject* data = PyObject_CallMethodNoArgs(PySequence_Fast_GET_ITEM(seq, i), s_serialize);
    if (data == NULL || !PyBytes_Check(data)) {
      if (data != NULL) PyErr_SetString(PyExc_TypeError, "_onnx_wire.nodes: SerializeToString gave no bytes");
      Py_XDECREF(data);
      Py_CLEAR(nodes);
      break;
    }
    const uint8_t* base = (const uint8_t*)PyBytes_AS_STRING(data);
    wire_t w = {base, base + PyBytes_GET_SIZE(data)};
    if (wire_node(w, nodes) != 0) Py_CLEAR(nodes);
    Py_DECREF(data);
  }
  Py_DECREF(seq);
  return nodes;
}

/* ---- Inputs ----------------------------------------------------------------------------- */

static PyTypeObject wire_inputs_type;

/* inputs[index]: list's, except that an int index at or past the end gives None and a slice
 * reads as if the list were padded with None up to its stop. */
static PyObject* wire_inputs_subscript(PyObject* self, PyObject* index) {
  Py_ssize_t n = PyList_GET_SIZE(self);
  if (PyLong_CheckExact(index)) {
    Py_ssize_t i = PyLong_AsSsize_t(index);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i >= n) Py_RETURN_NONE;
    if (i >= 0) return Py_NewRef(PyList_GET_ITEM(self, i));
  } else if (PySlice_Check(index)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(index, &start, &stop, &step) != 0) return NULL;
    PyObject* stop_obj = ((PySliceObject*)index)->stop;
    Py_ssize_t padded = n;
    if (stop_obj != Py_None && stop > n) padded = stop;
    Py_ssize_t count = PySlice_AdjustIndices(padded, &start, &stop, step);
    PyObject* out = PyList_New(count);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0, i = start; k < count; ++k, i += step) {
      PyList_SET_ITEM(out, k, Py_NewRef(i < n ? PyList_GET_ITEM(self, i) : Py_None));
    }
    return out;
  }
  return PyList_Type.tp_as_mapping->mp_subscript(self, index);
}

static PyMappingMethods wire_inputs_mapping;

static PyTypeObject wire_inputs_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tether._onnx_wire.Inputs",
    .tp_doc = "A node's operands: a list whose indexing past the end gives None.",
    .tp_basicsize = sizeof(PyListObject),
    /* (collection support, the list-subclass flag and the slots not set here are list's,
     * inherited by PyType_Ready) */
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_as_mapping = &wire_inputs_mapping,
};

static PyObject* wire_inputs(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  (void)module;
  if (nargs != 2 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "_onnx_wire.inputs(values, names): expected a dict and "
                                      "a tuple of str");
    return NULL;
  }
  PyObject *values = args[0], *names = args[1];
  Py_ssize_t n = PyTuple_GET_SIZE(names);
  PyObject* out = PyType_GenericNew(&wire_inputs_type, NULL, NULL);
  if (out == NULL) return NULL;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* name = PyTuple_GET_ITEM(names, i);
    PyObject* value = Py_None;
    if (!PyUnicode_Check(name) || PyUnicode_GET_LENGTH(name) != 0) {
      value = PyDict_GetItemWithError(values, name);
      if (value == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, name);
        Py_DECREF(out);
        return NULL;
      }
    }
    if (PyList_Append(out, value) != 0) {
      Py_DECREF(out);
      return NULL;
    }
  }
  return out;
}


/* ---- elements --------------------------------------------------------------------------- */

static PyObject* wire_elements(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  (void)module;
  static PyObject* s_dims;
  long long limit;
  if (nargs != 2 || (limit = PyLong_AsLongLong(args[1])) == -1) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_TypeError, "_onnx_wire.elements(tensors, limit): expected a "
                                        "sequence of TensorProto and an int");
    }
    return NULL;
  }
  if (s_dims == NULL && (s_dims = PyUnicode_InternFromString("dims")) == NULL) return NULL;
  PyObject* seq = PySequence_Fast(args[0], "_onnx_wire.elements: expected a sequence of TensorProto");
  if (seq == NULL) return NULL;
  long long total = 0;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq) && total <= limit; ++i) {
    PyObject* dims = PyObject_GetAttr(PySequence_Fast_GET_ITEM(seq, i), s_dims);
    Py_ssize_t n = dims == NULL ? -1 : PySequence_Size(dims);
    long long count = 1;
    for (Py_ssize_t k = 0; k < n && count != 0; ++k) {
      PyObject* dim = PySequence_GetItem(dims, k);
      long long d = dim == NULL ? -1 : PyLong_AsLongLong(dim);
      Py_XDECREF(dim);
      if (d == -1 && PyErr_Occurred()) {
        n = -1;
        break;
      }
      /* (a negative dim, or a product past limit, counts as past limit) */
      count = d < 0 || (d > 0 && count > (limit + 1) / d) ? limit + 1 : count * d;
    }
    Py_XDECREF(dims);
    if (n < 0) {
      Py_DECREF(seq);
      return NULL;
    }
    total = count > limit - total ? limit + 1 : total + count;
  }
  Py_DECREF(seq);
  return PyLong_FromLongLong(total);
}

/* ---- constants -------------------------------------------------------------------------- */

/* Whether the str `name` has a character other than whitespace. */
static int wire_named(PyObject* name) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(name);
  int kind = PyUnicode_KIND(name);
  const void* data = PyUnicode_DATA(name);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i))) return 1;
  }
  return 0;
}

/* The constant of one TensorProto, a new reference, also set as values[name]; Py_None when
 * it is not the plain case (see constants in the header); NULL with an exception set on an
 * error. */
static PyObject* wire_constant(PyObject* proto, PyObject* dtypes, PyObject* skip,
                               PyObject* bytes_tensor, PyObject* generic_const,
                               PyObject* values) {
  static PyObject *s_name, *s_data_type, *s_data_location, *s_dims, *s_raw_data;
  if (s_name == NULL &&
      ((s_name = PyUnicode_InternFromString("name")) == NULL ||
       (s_data_type = PyUnicode_InternFromString("data_type")) == NULL ||
       (s_data_location = PyUnicode_InternFromString("data_location")) == NULL ||
       (s_dims = PyUnicode_InternFromString("dims")) == NULL ||
       (s_raw_data = PyUnicode_InternFromString("raw_data")) == NULL)) {
    return NULL;
  }
  PyObject *name = NULL, *type = NULL, *location = NULL, *dims = NULL, *shape = NULL;
  PyObject *raw = NULL, *tensor = NULL, *out = NULL;
  PyObject* dtype = NULL; /* borrowed from dtypes */
  int plain = (name = PyObject_GetAttr(proto, s_name)) != NULL && PyUnicode_Check(name) &&
              wire_named(name);
  if (plain) {
    int hit = PySet_Contains(skip, name);
    if (hit < 0) goto done;
    plain = !hit && (type = PyObject_GetAttr(proto, s_data_type)) != NULL &&
            (dtype = PyDict_GetItemWithError(dtypes, type)) != NULL &&
            (location = PyObject_GetAttr(proto, s_data_location)) != NULL &&
            PyLong_Check(location) && PyLong_AsLong(location) == 0;
  }
  if (plain) {
    plain = (dims = PyObject_GetAttr(proto, s_dims)) != NULL &&
            (shape = PySequence_Tuple(dims)) != NULL &&
            (raw = PyObject_GetAttr(proto, s_raw_data)) != NULL && PyBytes_CheckExact(raw) &&
            PyBytes_GET_SIZE(raw) > 0;
  }
  if (PyErr_Occurred()) goto done;
  if (!plain) {
    out = Py_NewRef(Py_None);
    goto done;
  }
  PyObject* targs[4] = {raw, PyTuple_GET_ITEM(dtype, 0), PyTuple_GET_ITEM(dtype, 1), shape};
  tensor = PyObject_Vectorcall(bytes_tensor, targs, 4, NULL);
  if (tensor == NULL) {
    /* a shape its bytes do not hold: the importer's own reading raises the error */
    if (PyErr_ExceptionMatches(PyExc_ValueError)) {
      PyErr_Clear();
      out = Py_NewRef(Py_None);
    }
    goto done;
  }
  PyObject* cargs[2] = {tensor, Py_None};
  out = PyObject_Vectorcall(generic_const, cargs, 2, NULL);
  if (out != NULL && PyDict_SetItem(values, name, out) != 0) Py_CLEAR(out);
done:
  Py_XDECREF(name);
  Py_XDECREF(type);
  Py_XDECREF(location);
  Py_XDECREF(dims);
  Py_XDECREF(shape);
  Py_XDECREF(raw);
  Py_XDECREF(tensor);
  return out;
}

static PyObject* wire_constants(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  (void)module;
  if (nargs != 6 || !PyDict_Check(args[1]) || !PyAnySet_Check(args[2]) ||
      !PyDict_Check(args[5])) {
    PyErr_SetString(PyExc_TypeError,
                    "_onnx_wire.constants(tensors, dtypes, skip, bytes_tensor, generic_const, "
                    "values): expected a sequence of TensorProto, a dict, a set, two callables "
                    "and a dict");
    return NULL;
  }
  PyObject* seq = PySequence_Fast(args[0], "_onnx_wire.constants: expected a sequence of "
                                           "TensorProto");
  if (seq == NULL) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject* out = PyList_New(n);
  int all_plain = 1;
  for (Py_ssize_t i = 0; out != NULL && i < n; ++i) {
    PyObject* c = wire_constant(PySequence_Fast_GET_ITEM(seq, i), args[1], args[2], args[3],
                                args[4], args[5]);
    if (c == NULL) Py_CLEAR(out);
    else PyList_SET_ITEM(out, i, c);
    all_plain = all_plain && c != Py_None;
  }
  Py_DECREF(seq);
  if (out != NULL && all_plain) Py_SETREF(out, Py_NewRef(Py_None));
  return out;
}

/* ---- walk ------------------------------------------------------------------------------- */

/* The importer's objects the walk uses (walk's env, in its order). */
typedef struct {
  PyObject* converters;       /* dict: op type -> converter */
  PyObject* converter;        /* callable: op type -> converter (or None), filling converters */
  PyObject* kinds;            /* dict: type -> value kind (int) */
  PyObject* value_kind;       /* callable: value -> its kind, filling kinds */
  long expr_kind;             /* the kind of an expression to normalize (a Call, say) */
  long tuple_kind;            /* the kind of a relax Tuple (normalized too) */
  PyObject* normalize;        /* callable: (bb, expr) -> normalized expr */
  PyObject* bb;               /* the BlockBuilder */
  PyObject* tensor_type;      /* the type of a tensor value's ty */
  PyObject* tuple_output_ops; /* frozenset of op types whose one output is a tuple */
  PyObject* special;          /* set of the names of shape- and dim-typed values */
  PyObject* tensor_attrs;     /* dict: serialized TensorProto -> its TensorProto */
  PyObject* typed_errors;     /* tuple of the exception types raised as they are */
  PyObject* conversion_error; /* callable: (op_type, name, exc) -> the exception to raise */
  PyObject* at;               /* list: [protos, index, output count] of the node converted */
  PyObject* static_shape;     /* the type of the initializers kept as dims, or None */
} walk_env_t;

/* Attribute names, interned once. */
static PyObject *s_nodes, *s_ty, *s_convert_node, *s_bind, *s_constant_of_shape;

static int walk_intern(void) {
  if (s_constant_of_shape != NULL) return 0;
  static const struct {
    PyObject** slot;
    const char* text;
  } names[] = {
      {&s_nodes, "nodes"}, {&s_ty, "ty"}, {&s_convert_node, "_convert_node"}, {&s_bind, "_bind"},
      {&s_constant_of_shape, "ConstantOfShape"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
    if (*names[i].slot == NULL && (*names[i].slot = PyUnicode_InternFromString(names[i].text)) == NULL) {
      return -1;
    }
  }
  return 0;
}

/* The kind of `value` (env->kinds, else env->value_kind); -1 with an error set. */
static long walk_kind(const walk_env_t* env, PyObject* value) {
  PyObject* kind = PyDict_GetItemWithError(env->kinds, (PyObject*)Py_TYPE(value));
  if (kind != NULL) return PyLong_AsLong(kind);
  if (PyErr_Occurred()) return -1;
  kind = PyObject_CallOneArg(env->value_kind, value);
  if (kind == NULL) return -1;
  long k = PyLong_AsLong(kind);
  Py_DECREF(kind);
  return k;
}

/* Whether the node can be converted here: fills the TENSOR attributes of `lazy` into `attr`
 * from env->tensor_attrs.  1 yes, 0 no (the node goes to _convert_node), -1 error. */
static int walk_lazy_ready(const walk_env_t* env, PyObject* lazy, PyObject* attr) {
  if (lazy == Py_None) return 1;
  if (!PyTuple_Check(lazy)) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(lazy); ++i) {
    PyObject* entry = PyTuple_GET_ITEM(lazy, i);
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 4) return 0;
    PyObject* data = PyTuple_GET_ITEM(entry, 3);
    if (!PyBytes_Check(data)) return 0;
    PyObject* value = PyDict_GetItemWithError(env->tensor_attrs, data);
    if (value == NULL) return PyErr_Occurred() ? -1 : 0;
    if (PyDict_SetItem(attr, PyTuple_GET_ITEM(entry, 0), value) != 0) return -1;
  }
  return 1;
}

/* Whether any of `names` (a tuple) is a special name.  1, 0, or -1 with an error set. */
static int walk_any_special(const walk_env_t* env, PyObject* names) {
  if (PySet_GET_SIZE(env->special) == 0) return 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); ++i) {
    int found = PySet_Contains(env->special, PyTuple_GET_ITEM(names, i));
    if (found != 0) return found;
  }
  return 0;
}

/* After a converter or normalize failed: its exception as it is when it is one of
 * env->typed_errors, else conversion_error(op_type, name, exc) raised from it. */
static void walk_reraise(const walk_env_t* env, PyObject* op_type, PyObject* name) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb != NULL) PyException_SetTraceback(value, tb);
  if (value == NULL || PyErr_GivenExceptionMatches(type, env->typed_errors)) {
    PyErr_Restore(type, value, tb);
    return;
  }
  PyObject* wrapped = PyObject_CallFunctionObjArgs(env->conversion_error, op_type, name, value, NULL);
  if (wrapped == NULL) {  /* (the new error stands, chained to the converter's) */
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return;
  }
  PyException_SetContext(wrapped, Py_NewRef(value));
  PyException_SetCause(wrapped, value); /* steals value; sets __suppress_context__ */
  Py_XDECREF(type);
  Py_XDECREF(tb);
  PyErr_SetObject((PyObject*)Py_TYPE(wrapped), wrapped);
  Py_DECREF(wrapped);
}

/* Whether a node of op_type, not a ConstantOfShape, has a StaticShape among its operands. */
static int walk_reads_static_shape(const walk_env_t* env, PyObject* op_type, PyObject* inputs) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(inputs); ++i) {
    if ((PyObject*)Py_TYPE(PyList_GET_ITEM(inputs, i)) == env->static_shape) {
      return PyUnicode_Compare(op_type, s_constant_of_shape) != 0;
    }
  }
  return 0;
}

/* at[i] = item (stolen); at is a list of 3 items (checked by wire_walk; the importer only
 * assigns to its items). */
static void walk_set(PyObject* at, Py_ssize_t i, PyObject* item) {
  PyObject* old = PyList_GET_ITEM(at, i);
  PyList_SET_ITEM(at, i, item);
  Py_DECREF(old);
}

/* Converts one node whose record passed walk_node's checks: 0, 1 when it must go to
 * _convert_node after all (no converter), or -1 with an error set. */
static int walk_fast(const walk_env_t* env, PyObject* g, PyObject* nodes, PyObject* protos,
                     PyObject* index, PyObject* record) {
  PyObject* op_type = PyTuple_GET_ITEM(record, 0);
  PyObject* node_name = PyTuple_GET_ITEM(record, 2);
  PyObject* outputs = PyTuple_GET_ITEM(record, 4);
  PyObject* attr = PyTuple_GET_ITEM(record, 5);
  /* The converter (a new reference: it may replace its own table entry). */
  PyObject* fn = PyDict_GetItemWithError(env->converters, op_type);
  if (fn == NULL && PyErr_Occurred()) return -1;
  fn = fn != NULL && fn != Py_None ? Py_NewRef(fn) : PyObject_CallOneArg(env->converter, op_type);
  if (fn == NULL) return -1;
  if (fn == Py_None) { /* (_convert_node fails as the Python walk does) */
    Py_DECREF(fn);
    return 1;
  }
  PyObject* args[2] = {nodes, PyTuple_GET_ITEM(record, 3)};
  PyObject* inputs = wire_inputs(NULL, args, 2);
  PyObject* num_outputs = NULL;
  int slow = inputs == NULL;
  if (inputs == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_KeyError)) slow = -1;
    else PyErr_Clear(); /* (_convert_node raises the ValueError naming the undefined operand) */
  } else if (env->static_shape != Py_None && walk_reads_static_shape(env, op_type, inputs)) {
    slow = 1; /* (_convert_node makes the constant) */
  } else if ((num_outputs = PyLong_FromSsize_t(PyTuple_GET_SIZE(outputs))) == NULL) {
    slow = -1;
  }
  if (slow != 0) {
    Py_XDECREF(inputs);
    Py_DECREF(fn);
    return slow;
  }
  walk_set(env->at, 0, Py_NewRef(protos));
  walk_set(env->at, 1, Py_NewRef(index));
  walk_set(env->at, 2, num_outputs);
  PyObject* call_args[3] = {g, inputs, attr};
  PyObject* result = PyObject_Vectorcall(fn, call_args, 3, NULL);
  Py_DECREF(fn);
  Py_DECREF(inputs);
  long kind = result == NULL ? -1 : walk_kind(env, result);
  if (kind == env->expr_kind || kind == env->tuple_kind) { /* (a Var or a constant is typed) */
    PyObject* norm_args[2] = {env->bb, result};
    PyObject* normalized = PyObject_Vectorcall(env->normalize, norm_args, 2, NULL);
    Py_DECREF(result);
    result = normalized;
    kind = result == NULL ? -1 : walk_kind(env, result);
  } else if (kind == 0 && result == Py_None) {
    Py_DECREF(result);
    PyErr_Format(PyExc_ValueError, "from_onnx: the converter of %U gave no value", op_type);
    return -1;
  }
  if (kind < 0) {
    Py_XDECREF(result);
    walk_reraise(env, op_type, node_name);
    return -1;
  }
  /* The common value: one expression of tensor type. */
  int plain = kind > 0 && kind != env->tuple_kind && PyTuple_GET_SIZE(outputs) <= 1;
  if (plain) {
    int tuple_op = PySet_Contains(env->tuple_output_ops, op_type);
    if (tuple_op < 0) {
      Py_DECREF(result);
      return -1;
    }
    plain = !tuple_op;
  }
  if (plain) {
    PyObject* ty = PyObject_GetAttr(result, s_ty);
    if (ty == NULL) {
      Py_DECREF(result);
      return -1;
    }
    plain = (PyObject*)Py_TYPE(ty) == env->tensor_type;
    Py_DECREF(ty);
  }
  int rc = 0;
  if (plain) {
    if (PyTuple_GET_SIZE(outputs) == 1) {
      rc = PyDict_SetItem(nodes, PyTuple_GET_ITEM(outputs, 0), result);
    }
  } else {
    PyObject* kind_obj = PyLong_FromLong(kind);
    PyObject* done = kind_obj == NULL ? NULL
        : PyObject_CallMethodObjArgs(g, s_bind, op_type, node_name, outputs, result, kind_obj, NULL);
    Py_XDECREF(kind_obj);
    rc = done == NULL ? -1 : 0;
    Py_XDECREF(done);
  }
  Py_DECREF(result);
  return rc;
}

/* Converts node `i` of `records`. */
static int walk_node(const walk_env_t* env, PyObject* g, PyObject* records, PyObject* protos,
                     Py_ssize_t i) {
  PyObject* record = Py_NewRef(PyList_GET_ITEM(records, i));
  Py_INCREF(Py_None);
  PyList_SetItem(records, i, Py_None); /* (what the walk is done with is freed as it goes) */
  PyObject* index = PyLong_FromSsize_t(i);
  PyObject* nodes = NULL;
  int rc = -1, slow = 1;
  if (index == NULL) goto done;
  if (PyTuple_Check(record) && PyTuple_GET_SIZE(record) == 7 &&
      PyUnicode_Check(PyTuple_GET_ITEM(record, 0)) && PyTuple_Check(PyTuple_GET_ITEM(record, 3)) &&
      PyTuple_Check(PyTuple_GET_ITEM(record, 4)) && PyDict_Check(PyTuple_GET_ITEM(record, 5)) &&
      PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(record, 0), "If") != 0) {
    int ready = walk_lazy_ready(env, PyTuple_GET_ITEM(record, 6), PyTuple_GET_ITEM(record, 5));
    if (ready > 0) {
      int special = walk_any_special(env, PyTuple_GET_ITEM(record, 3));
      ready = special < 0 ? -1 : !special;
    }
    if (ready < 0) goto done;
    if (ready) {
      nodes = PyObject_GetAttr(g, s_nodes);
      if (nodes == NULL) goto done;
      if (!PyDict_Check(nodes)) {
        PyErr_SetString(PyExc_TypeError, "_onnx_wire.walk: the importer's nodes is not a dict");
        goto done;
      }
      slow = walk_fast(env, g, nodes, protos, index, record);
      if (slow < 0) goto done;
    }
  }
  if (slow) {
    PyObject* none = PyObject_CallMethodObjArgs(g, s_convert_node, protos, index, record, NULL);
    if (none == NULL) goto done;
    Py_DECREF(none);
  }
  rc = 0;
done:
  Py_XDECREF(nodes);
  Py_XDECREF(index);
  Py_DECREF(record);
  return rc;
}

static PyObject* wire_walk(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
  (void)module;
  walk_env_t env;
  if (nargs != 4 || !PyList_Check(args[1]) || !PyTuple_Check(args[3]) ||
      PyTuple_GET_SIZE(args[3]) != 15) {
    PyErr_SetString(PyExc_TypeError, "_onnx_wire.walk(g, records, protos, env): expected the "
                                      "importer, a list of node records, the NodeProtos and a "
                                      "tuple of 15 objects");
    return NULL;
  }
  PyObject* t = args[3];
  env.converters = PyTuple_GET_ITEM(t, 0);
  env.converter = PyTuple_GET_ITEM(t, 1);
  env.kinds = PyTuple_GET_ITEM(t, 2);
  env.value_kind = PyTuple_GET_ITEM(t, 3);
  PyObject* kinds = PyTuple_GET_ITEM(t, 4);
  if (!PyTuple_Check(kinds) || PyTuple_GET_SIZE(kinds) != 2) {
    PyErr_SetString(PyExc_TypeError, "_onnx_wire.walk: env[4] must be (EXPR, TUPLE)");
    return NULL;
  }
  env.expr_kind = PyLong_AsLong(PyTuple_GET_ITEM(kinds, 0));
  env.tuple_kind = PyLong_AsLong(PyTuple_GET_ITEM(kinds, 1));
  if (env.expr_kind == -1 && PyErr_Occurred()) return NULL;
  env.normalize = PyTuple_GET_ITEM(t, 5);
  env.bb = PyTuple_GET_ITEM(t, 6);
  env.tensor_type = PyTuple_GET_ITEM(t, 7);
  env.tuple_output_ops = PyTuple_GET_ITEM(t, 8);
  env.special = PyTuple_GET_ITEM(t, 9);
  env.tensor_attrs = PyTuple_GET_ITEM(t, 10);
  env.typed_errors = PyTuple_GET_ITEM(t, 11);
  env.conversion_error = PyTuple_GET_ITEM(t, 12);
  env.at = PyTuple_GET_ITEM(t, 13);
  env.static_shape = PyTuple_GET_ITEM(t, 14);
  if (env.tuple_kind == -1 && PyErr_Occurred()) return NULL;
  if (!PyDict_Check(env.converters) || !PyDict_Check(env.kinds) ||
      !PyAnySet_Check(env.tuple_output_ops) || !PySet_Check(env.special) ||
      !PyDict_Check(env.tensor_attrs) || !PyTuple_Check(env.typed_errors) ||
      !PyType_Check(env.tensor_type) || !PyList_Check(env.at) || PyList_GET_SIZE(env.at) != 3) {
    PyErr_SetString(PyExc_TypeError, "_onnx_wire.walk: env holds an object of the wrong type");
    return NULL;
  }
  if (walk_intern() != 0) return NULL;
  PyObject *g = args[0], *records = args[1], *protos = args[2];
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(records); ++i) {
    if (walk_node(&env, g, records, protos, i) != 0) return NULL;
  }
  Py_RETURN_NONE;
}

static PyMethodDef wire_methods[] = {
    {"graph", wire_graph, METH_O,
     "graph(data) -> (nodes, initializers): a serialized GraphProto's nodes and initializer "
     "headers (see tether.relax.frontend.onnx.importer)"},
    {"nodes", wire_nodes, METH_O,
     "nodes(protos) -> nodes: graph()'s node records, from NodeProto objects"},
    {"inputs", (PyCFunction)(void (*)(void))wire_inputs, METH_FASTCALL,
     "inputs(values, names) -> Inputs: values[name] per name (None for \"\"); KeyError "
     "naming a missing one"},
    {"elements", (PyCFunction)(void (*)(void))wire_elements, METH_FASTCALL,
     "elements(tensors, limit) -> int: the elements of the TensorProtos, counted up to past "
     "limit"},
    {"constants", (PyCFunction)(void (*)(void))wire_constants, METH_FASTCALL,
     "constants(tensors, dtypes, skip, bytes_tensor, generic_const, values) -> None or list: "
     "the TensorProtos' constants over their raw_data (see tether.relax.frontend.onnx.importer)"},
    {"walk", (PyCFunction)(void (*)(void))wire_walk, METH_FASTCALL,
     "walk(g, records, protos, env): the importer's walk over the node records (see "
     "tether.relax.frontend.onnx.importer)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef wire_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tether._onnx_wire",
    .m_doc = "The nodes and initializers of a serialized ONNX GraphProto, read from the "
             "protobuf wire format (for tether.relax.frontend.onnx).",
    .m_size = -1,
    .m_methods = wire_methods,
};

PyMODINIT_FUNC PyInit__onnx_wire(void); /* the module's entry point */
PyMODINIT_FUNC PyInit__onnx_wire(void) {
  wire_inputs_mapping = *PyList_Type.tp_as_mapping;
  wire_inputs_mapping.mp_subscript = wire_inputs_subscript;
  wire_inputs_type.tp_base = &PyList_Type;
  if (PyType_Ready(&wire_inputs_type) != 0) return NULL;
  PyObject* m = PyModule_Create(&wire_module);
  if (m == NULL) return NULL;
  if (PyModule_AddObjectRef(m, "Inputs", (PyObject*)&wire_inputs_type) != 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
