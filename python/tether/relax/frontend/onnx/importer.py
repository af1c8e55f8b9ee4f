"""The ONNX graph walk: from_onnx and the importer it drives.

The walk builds the module apache-tvm 0.27's frontend builds, in the same order, so that the
printed modules are the same text:
  1. initializers become constants (keep_params_in_input: parameters after the inputs); an
     int64 one ConstantOfShape reads as its shape is kept as its dims (StaticShape) until
     another reader needs the constant;
  2. the graph inputs that are not initializers become the parameters of "main" (names
     sanitized into identifiers, unique through a name supply);
  3. every op of the graph is checked against the converter table first: the ones without a
     converter are reported together, before anything is built;
  4. in one dataflow block, each node's converter result is normalized (its nested calls are
     bound), a tuple-typed result is split into TupleGetItem bindings, and the node's outputs
     are recorded by name (_Importer._convert_node; tether._onnx_wire.walk runs its common
     case in C);
  5. the graph outputs (a Tuple when there are several) are the block's output, and "main"
     gets the attribute num_input (and "params" with keep_params_in_input).
"""
from __future__ import annotations

import gc
import operator
import os
import re
import struct
import sys
import warnings

import numpy as np
import onnx
from onnx import numpy_helper

from .... import core
from ... import BlockBuilder
from ... import op as _op
from ...block_builder import _normalize as _bb_normalize
from ...expr import Expr, If, IntImm, SeqExpr, ShapeExpr, Tuple, TupleGetItem, Var
from ...ty import PrimType, ShapeType, TensorType, TupleType
from .converters import (_KINDS, EXPR, TUPLE, VAR, EmptyOptional, StaticShape, _const_array,
                         _generic_const, get_converter, shape_as_tensor, value_kind)

try:  # the C reader of serialized graphs (tether/_onnx_wire); without it, protobuf's accessors
    from .... import _onnx_wire
except ImportError:
    _onnx_wire = None

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Union

__all__ = ["from_onnx"]

# Ops whose converters accept a ShapeExpr operand (any other op gets it as an int64 tensor).
_SHAPE_OPS = frozenset(["Reshape", "Resize", "ConstantOfShape", "Gather", "Slice", "Shape",
                        "Expand", "Concat", "Equal", "Where", "Cast", "CastLike", "Squeeze"])
# Ops whose converters take a dim of a shape (a PrimExpr: Gather of one dim of a shape value)
# as an operand; any other op gets it as a 0-d int64 tensor.
_PRIM_OPS = frozenset(["Unsqueeze", "Slice", "Range", "Trilu"])
# Ops whose single output is a tuple value (sequences, optionals).
_TUPLE_OUTPUT_OPS = frozenset(["Optional", "OptionalGetElement", "SequenceConstruct",
                               "SequenceEmpty", "SequenceErase", "SequenceInsert",
                               "ConcatFromSequence", "SplitToSequence"])


_UNSET = object()
# The types of the values that ops taking tensors get converted (a shape, one dim of a shape).
_SPECIAL_TYPES = (ShapeType, PrimType)
# A dim_param expression: its tokens, and its operators (ints and symbolic vars both support
# them; / is floor division, the operands being integers).
_DIM_TOKENS = re.compile(r"(\+|\-|\*|//|/)")
_DIM_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv,
            "//": operator.floordiv}


class _PyInputs(list):
    """A node's inputs: indexing past the end gives None (an omitted optional input).
    (tether._onnx_wire.Inputs is the same in C, used when the extension is there.)"""

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(max(len(self), index.stop or 0)))]
        return list.__getitem__(self, index) if index < len(self) else None


def _conversion_error(op_type: str, node_name: str, err: Exception) -> ValueError:
    """The ValueError for a node whose converter failed otherwise than with the frontend's
    typed errors: a malformed node (a missing attribute, an operand its Relax op rejects:
    InternalError from type inference, ...)."""
    return ValueError(f"from_onnx: node {node_name!r} ({op_type}) cannot be converted: "
                      f"{type(err).__name__}: {err}")


def _node_inputs_py(values: dict, names: tuple) -> _PyInputs:
    """A node's operands: values[name] per name, None for "" (KeyError naming a missing
    one)."""
    return _PyInputs([values[name] if name else None for name in names])


if _onnx_wire is not None:
    _Inputs, _operands, _walk = _onnx_wire.Inputs, _onnx_wire.inputs, _onnx_wire.walk
else:
    _Inputs, _operands, _walk = _PyInputs, _node_inputs_py, None

# The errors a converter raises for the user as they are (anything else names the node: see
# _conversion_error).
_TYPED_ERRORS = (NotImplementedError, ValueError, TypeError)


class _NameSupply:
    """Unique names: a name is used as is the first time, then with _1, _2, ... appended
    (skipping names already handed out)."""

    def __init__(self) -> None:
        self._next: Dict[str, int] = {}

    def fresh(self, name: str) -> str:
        if name not in self._next:
            self._next[name] = 0
            return name
        k = self._next[name]
        while True:
            k += 1
            candidate = f"{name}_{k}"
            if candidate not in self._next:
                break
        self._next[name] = k
        self._next[candidate] = 0
        return candidate


_T = onnx.TensorProto
# Tensor element types read directly: numpy dtype, the typed data field used without raw_data.
_FAST_TENSOR = {_T.FLOAT: ("<f4", "float_data"), _T.DOUBLE: ("<f8", "double_data"),
                _T.INT64: ("<i8", "int64_data"), _T.INT32: ("<i4", "int32_data")}
# The numpy dtypes of _FAST_TENSOR's element types.
_RAW_DTYPES = {k: np.dtype(v[0]) for k, v in _FAST_TENSOR.items()}
# The DLPack (type code, bits) of _FAST_TENSOR's element types, for tensors made straight
# from raw_data (_onnx_wire.constants; raw_data is little-endian: on little-endian machines).
_RAW_CODES = {k: ({"f": 2, "i": 0}[dt.kind], 8 * dt.itemsize) for k, dt in _RAW_DTYPES.items()}
_RAW_NATIVE = sys.byteorder == "little"
_bytes_tensor = core._bytes_tensor
_A = onnx.AttributeProto
# AttributeProto.type -> the field holding the value.
_ATTR_FIELD = {_A.FLOAT: "f", _A.INT: "i", _A.STRING: "s", _A.TENSOR: "t", _A.GRAPH: "g",
               _A.TYPE_PROTO: "tp", _A.FLOATS: "floats", _A.INTS: "ints",
               _A.STRINGS: "strings", _A.TENSORS: "tensors", _A.GRAPHS: "graphs",
               _A.TYPE_PROTOS: "type_protos"}
_ATTR_LISTS = ("floats", "ints", "strings", "tensors", "type_protos", "graphs")


# Above this many initializer elements, the importer does not serialize the whole graph
# (protobuf's serializer copies bytes at ~1 GB/s); it serializes only the nodes and takes each
# initializer's raw_data as it is.
_WHOLE_GRAPH_ELEMENTS = 1 << 14


# ONNX element type -> numpy dtype name, as _onnx_dtype has read them.
_DTYPE_OF_ELEM: Dict[int, str] = {}


def _onnx_dtype(elem_type: int, what: str) -> str:
    """The numpy dtype name of an ONNX element type (ValueError naming `what` when there is
    none)."""
    name = _DTYPE_OF_ELEM.get(elem_type)
    if name is not None:
        return name
    try:
        name = str(onnx.helper.tensor_dtype_to_np_dtype(elem_type))
    except (KeyError, ValueError, TypeError):
        raise ValueError(f"from_onnx: {what} has the element type {elem_type}, which is not "
                         "an ONNX tensor element type tether can import") from None
    _DTYPE_OF_ELEM[elem_type] = name
    return name


class _Importer:
    """One import: the BlockBuilder, the values by ONNX name, the parameters."""

    def __init__(self, shape_dict: Optional[dict], dtype_dict: Union[str, dict, None],
                 keep_params_in_input: bool, sanitize: bool,
                 fold_constants: bool = False) -> None:
        self.bb = BlockBuilder()
        self.nodes: Dict[str, Any] = {}        # ONNX value name -> Relax expression
        self.inputs: Dict[str, Any] = {}       # graph input name -> its Var
        self.params: Dict[str, Any] = {}       # parameter name -> (Var, numpy array)
        self.num_input = 0
        self.shape_dict = dict(shape_dict) if shape_dict else {}
        self.dtype_dict = dtype_dict
        self.keep_params = keep_params_in_input
        self.sanitize = sanitize
        self.names = _NameSupply()
        self.sym_dims: Dict[str, Any] = {}     # dim_param -> symbolic int64 var
        # Names of the input Vars declared with the shape (0,): their value is known (empty),
        # though their type has a symbolic dim (a 0 dim is typed as unknown, as TVM does).
        self.empty_inputs: set = set()
        self.opset = 1
        self.fold_constants = fold_constants   # static shapes as constants (beyond TVM)
        self.converters: Dict[str, Any] = {}   # op type -> converter, for self.opset
        # The node being converted: [the NodeProtos of the graph being walked, its index in
        # them (-1: none), its output count] (see node, num_outputs), updated in place.
        self._at: list = [(), -1, 1]
        self._special: set = set()             # names of shape- and dim-typed values
        # serialized TensorProto -> the TensorProto of the first attribute holding it (one
        # object per distinct value: converters may key caches on it, see fill_values)
        self.tensor_attrs: Dict[bytes, Any] = {}
        # id(TensorProto) -> (the TensorProto, its fill value) for ConstantOfShape
        self.fill_values: Dict[int, tuple] = {}
        # (n, id(fill value), dtype) -> (fill value, the 1-D array ConstantOfShape copies)
        self.filled_arrays: Dict[tuple, tuple] = {}
        self.op_types: set = set()             # the op types of the graph's nodes
        self.static_shapes = False             # whether any initializer is a StaticShape

    # -- values ------------------------------------------------------------------------------

    @staticmethod
    def tensor_array(proto: onnx.TensorProto) -> np.ndarray:
        """The numpy value of a TensorProto (ValueError on a malformed one).  The common
        numeric tensors are read straight from their data field; the rest through
        onnx.numpy_helper."""
        dims = tuple(proto.dims)
        try:
            fast = _FAST_TENSOR.get(proto.data_type)
            if fast is not None and proto.data_location != onnx.TensorProto.EXTERNAL:
                dtype, field = fast
                raw = proto.raw_data  # (a copy of the field: read it once)
                if raw:  # read-only, over the bytes: constants share them (_const_array)
                    arr = np.frombuffer(raw, dtype=dtype)
                else:
                    values = getattr(proto, field)
                    arr = np.fromiter(values, dtype, len(values))
                return arr.reshape(dims)
            return numpy_helper.to_array(proto).reshape(dims)
        except Exception as err:
            raise ValueError(f"from_onnx: tensor {proto.name!r} cannot be read: {err}") from err

    def get_constant(self, value: Any) -> Any:
        """value, or the constant of the parameter Var `value` (which then stands for it)."""
        if self.params and isinstance(value, Var) and value.name in self.params:
            const_value = _const_array(self.params[value.name][1])
            self.nodes[value.name] = const_value
            return const_value
        return value

    def _dim(self, dim: Any) -> Any:
        """One ONNX dim: its value, or what its dim_param names: an int, a symbolic int64 var
        (one per name in the import; "?" is a new var each time), or an expression of names
        and ints joined by + - * / // (evaluated left to right, / as floor division)."""
        if dim.dim_value:
            return dim.dim_value
        tokens = _DIM_TOKENS.split(dim.dim_param.replace(" ", ""))
        value, pending = None, None
        for token in tokens:
            if token in _DIM_OPS:
                pending = token
                continue
            operand = self._dim_token(token)
            if value is not None and pending is not None:
                value = _DIM_OPS[pending](value, operand)
                pending = None
            else:
                value = operand if value is None else value
        return value

    def _dim_token(self, token: str) -> Any:
        try:
            return int(token)
        except ValueError:
            pass
        if token not in self.sym_dims or token == "?":
            self.sym_dims[token] = Var(token, "int64")
        return self.sym_dims[token]

    # -- the walk ----------------------------------------------------------------------------

    def _records(self, graph: onnx.GraphProto) -> tuple:
        """(serialized graph or None, node records, initializer records or None): per node
        (op_type, domain, name, inputs, outputs, attrs or None, lazy attrs or None), read
        from the serialized graph by tether._onnx_wire (see src/python/onnx_wire.c), else from
        the protobuf objects (attrs None: read by _attrs)."""
        if _onnx_wire is not None:
            # Large initializers are read through protobuf: serializing the whole graph would
            # copy every weight (protobuf's serializer takes ~2 ms per MB, and so does
            # ByteSize); then only the nodes are serialized, as the node fields of a GraphProto.
            whole = _onnx_wire.elements(graph.initializer,
                                        _WHOLE_GRAPH_ELEMENTS) <= _WHOLE_GRAPH_ELEMENTS
            try:
                if not whole:
                    return None, _onnx_wire.nodes(graph.node), None
                data = graph.SerializeToString()
                nodes, inits = _onnx_wire.graph(data)
                return data, nodes, inits
            except ValueError:
                pass
        nodes = [(n.op_type, n.domain, n.name, tuple(n.input), tuple(n.output), None, None)
                 for n in graph.node]
        return None, nodes, None

    def _shape_initializers(self, graph: onnx.GraphProto, records: tuple) -> frozenset:
        """The names of the initializers ConstantOfShape reads as its shape operand:
        _add_initializers keeps those that hold 1-D int64 data as their dims (StaticShape)
        instead of making them constants -- apache-tvm's module holds no such constant when
        ConstantOfShape is their only reader (the dims become the ShapeExpr of a
        broadcast_to); any other reader gets the constant (see _operand_constants).  None
        when there is an If (its branches read the enclosing names their own way) or the
        initializers become parameters."""
        nodes = records[1]
        if self.keep_params or not graph.initializer or "If" in self.op_types:
            return frozenset()
        return frozenset(r[3][0] for r in nodes if r[0] == "ConstantOfShape" and r[3])

    def _operand_constants(self, names: Any) -> None:
        """Makes constants of the StaticShape values among `names` (read by another op than
        ConstantOfShape, or as a graph output): one constant per initializer, as if it had been
        made one from the start."""
        nodes = self.nodes
        for name in names:
            value = nodes.get(name)
            if type(value) is StaticShape:
                nodes[name] = _const_array(np.array(value, dtype=np.int64))

    def _add_initializers(self, graph: onnx.GraphProto, records: tuple) -> None:
        data, _, inits = records
        shapes = self._shape_initializers(graph, records)
        made = None
        if inits is None and _onnx_wire is not None and _RAW_NATIVE and not self.keep_params:
            # Initializers of raw data of a common type become constants in C, over their
            # raw_data bytes, set in self.nodes: all of them (then made is None), or made lists
            # the constants and Nones, and the loop below takes them again in order (a
            # repeated name: the last one counts) and reads the Nones.
            made = _onnx_wire.constants(graph.initializer, _RAW_CODES, shapes, _bytes_tensor,
                                        _generic_const, self.nodes)
            if made is None:
                return
        for k, tensor in enumerate(graph.initializer if inits is None else inits):
            if made is not None and made[k] is not None:
                self.nodes[tensor.name] = made[k]
                continue
            name = tensor.name if inits is None else tensor[0]
            if not name.strip():
                raise ValueError("from_onnx: an initializer has no name (a tensor's name is "
                                 "required)")
            arr = None
            if inits is not None:  # raw data of a common type: read from the serialized graph
                _, elem_type, dims, offset, length = tensor
                if name in shapes and elem_type == _T.INT64 and len(dims) == 1 \
                        and offset >= 0 and length == 8 * dims[0]:
                    self.nodes[name] = StaticShape(struct.unpack_from(f"<{dims[0]}q", data,
                                                                      offset))
                    self.static_shapes = True
                    continue
                fast = _FAST_TENSOR.get(elem_type)
                if fast is not None and offset >= 0:
                    dtype = _RAW_DTYPES[elem_type]
                    if length % dtype.itemsize == 0:
                        try:
                            arr = np.frombuffer(data, dtype, length // dtype.itemsize,
                                                offset).reshape(dims).copy()
                        except ValueError:
                            arr = None
                if arr is None:
                    tensor = graph.initializer[k]
            if arr is None:
                arr = self.tensor_array(tensor)
            if arr.dtype.kind not in "biufc":
                raise NotImplementedError(
                    f"from_onnx: the initializer {name!r} holds {arr.dtype} values, which a "
                    "Relax tensor cannot hold (strings, or an element type numpy has no "
                    "native dtype for)")
            if name in shapes and arr.dtype == np.int64 and arr.ndim == 1:
                self.nodes[name] = StaticShape(arr.tolist())
                self.static_shapes = True
            elif self.keep_params:
                param = name[len("onnx::"):] if name.startswith("onnx::") else name
                var = Var(param, TensorType(list(arr.shape), str(arr.dtype)))
                self.nodes[name] = var
                self.params[param] = (var, arr)
            else:
                self.nodes[name] = _const_array(arr)

    def _sanitized(self, name: str) -> str:
        if name == "":
            return self.names.fresh("empty_")
        new = name.replace(".", "_")
        if not (new[0].isalpha() or new[0] == "_"):
            new = self.names.fresh("input_" + new)
        else:
            new = self.names.fresh(new)
        if new != name:
            warnings.warn(f"Renaming name {name} to {new}")
        return new

    def _add_inputs(self, graph: onnx.GraphProto) -> None:
        nodes, inputs = self.nodes, self.inputs
        for info in graph.input:
            name = info.name
            value = nodes.get(name)
            if value is not None and value_kind(value) != VAR:
                # an initializer listed among the inputs: a constant (its dims are not read)
                inputs[name] = value
                continue
            if value is None:
                tensor_type = info.type.tensor_type
                if tensor_type.elem_type == onnx.TensorProto.STRING:
                    raise NotImplementedError(f"from_onnx: the input {name!r} is a string "
                                              "tensor; Relax tensors hold no strings")
                dtype = _onnx_dtype(tensor_type.elem_type, f"the input {name!r}") \
                    if tensor_type.elem_type else None
                if tensor_type.HasField("shape"):
                    shape = [self._dim(d) for d in tensor_type.shape.dim]
                else:
                    shape = None
                self.num_input += 1
                if name in self.shape_dict:
                    shape = [int(d) if isinstance(d, (int, np.integer)) else d
                             for d in self.shape_dict[name]]
                elif shape is None:
                    warnings.warn(f"Input {name} has unknown rank. Specifying a static shape "
                                  "may improve performance")
                if isinstance(self.dtype_dict, dict) and name in self.dtype_dict:
                    dtype = self.dtype_dict[name]
                var_name = self._sanitized(name) if self.sanitize else name
                # no element type (a sequence or optional input, say): a tensor of any dtype
                self.nodes[name] = Var(var_name, TensorType(shape, dtype))
            value = inputs[name] = nodes[name]
            if name not in self.shape_dict:
                dims = info.type.tensor_type.shape.dim
                if [d.dim_value if d.HasField("dim_value") else None for d in dims] == [0]:
                    self.empty_inputs.add(value.name)

    def _converter(self, op_type: str) -> Any:
        """The converter for op_type at this import's opset (looked up once per op type)."""
        fn = self.converters.get(op_type, _UNSET)
        if fn is _UNSET:
            fn = self.converters[op_type] = get_converter(op_type, self.opset)
        return fn

    def _check_ops(self, records: tuple, domains: Dict[str, int]) -> None:
        """Every op without a converter, reported at once (NotImplementedError)."""
        converter = self._converter
        if all(op_type == "If" or converter(op_type) is not None
               for op_type in self.op_types):
            return
        missing = {}
        for op_type, node_domain, *_ in records[1]:
            if op_type == "If" or self._converter(op_type) is not None:
                continue
            domain = node_domain or "ai.onnx"
            version = domains.get(node_domain, domains.get(domain, self.opset))
            missing.setdefault((op_type, domain, version), 0)
            missing[(op_type, domain, version)] += 1
        if missing:
            listed = ", ".join(f"{op} (domain {dom}, opset {ver}; {n} node{'s' * (n > 1)})"
                               for (op, dom, ver), n in sorted(missing.items()))
            raise NotImplementedError(
                f"from_onnx: the model uses {len(missing)} ONNX op(s) tether's ONNX frontend "
                f"does not convert: {listed}")

    @staticmethod
    def _attrs(node: onnx.NodeProto) -> dict:
        """The node's attributes by name: a scalar kind as its value, a list kind as a tuple
        (an attribute whose declared type does not match its fields is read by its fields)."""
        attrs = {}
        for a in node.attribute:
            field = _ATTR_FIELD.get(a.type)
            if field is not None:
                value = getattr(a, field)
                if field in _ATTR_LISTS:
                    if len(value):
                        attrs[a.name] = tuple(value)
                        continue
                elif a.HasField(field):
                    attrs[a.name] = value
                    continue
            for field in ("f", "i", "s", "g", "t", "tp"):
                if a.HasField(field):
                    attrs[a.name] = getattr(a, field)
            for field in _ATTR_LISTS:
                values = getattr(a, field)
                if len(values):
                    if a.name in attrs:
                        raise ValueError(f"from_onnx: attribute {a.name!r} of node "
                                         f"{node.name!r} ({node.op_type}) has several values")
                    attrs[a.name] = tuple(values)
            if a.name not in attrs:
                raise ValueError(f"from_onnx: attribute {a.name!r} of node {node.name!r} "
                                 f"({node.op_type}) cannot be parsed")
        return attrs

    def _lazy_attrs(self, protos: Any, index: int, lazy: tuple, attr: dict) -> None:
        """Fills in attr the message-valued attributes of node `index`: a TENSOR from its
        serialized bytes, parsed once per distinct value in the import (a model repeats the
        same few: ConstantOfShape's fill values), the rest from the NodeProto."""
        proto = None
        for name, i, field, data in lazy:
            value = self.tensor_attrs.get(data) if data is not None else None
            if value is None:
                if proto is None:
                    proto = protos[index].attribute
                value = getattr(proto[i], field)
                if field in _ATTR_LISTS:
                    value = tuple(value)
                elif data is not None:
                    self.tensor_attrs[data] = value
            attr[name] = value

    def _convert_nodes(self, graph: onnx.GraphProto, records: Optional[tuple] = None) -> None:
        protos = graph.node
        records = (records or self._records(graph))[1]
        if _walk is not None:
            # _convert_node's fast path in C, for the nodes that need no more than its common
            # case; it hands every other node to _convert_node.
            _walk(self, records, protos, (
                self.converters, self._converter, _KINDS, value_kind, (EXPR, TUPLE),
                _bb_normalize, self.bb, TensorType, _TUPLE_OUTPUT_OPS, self._special,
                self.tensor_attrs, _TYPED_ERRORS, _conversion_error, self._at,
                StaticShape if self.static_shapes else None))
            return
        for index, record in enumerate(records):
            records[index] = None  # what the walk is done with is freed as it goes
            self._convert_node(protos, index, record)

    def _convert_node(self, protos: Any, index: int, record: tuple) -> None:
        """Converts node `index` of `protos` from its record (see _records): its converter's
        value, normalized, bound to the node's output names."""
        op_type, _, node_name, input_names, outputs, attr, lazy = record
        if attr is None:  # read from the NodeProto
            attr = self._attrs(protos[index])
        elif lazy is not None:  # tensors, graphs: from the NodeProto's attributes
            self._lazy_attrs(protos, index, lazy, attr)
        if self.static_shapes and op_type != "ConstantOfShape":
            self._operand_constants(input_names)
        nodes = self.nodes  # (an If's branches replace the dict)
        try:
            inputs = _operands(nodes, input_names)
        except KeyError as err:
            raise ValueError(f"from_onnx: node {node_name!r} ({op_type}) uses "
                             f"{err.args[0]!r}, which no input, initializer or earlier node "
                             "defines") from None
        if op_type == "If":
            self._convert_if(protos[index], inputs, attr)
            self._note_special(outputs)
            return
        # The names of the values typed as a shape (ShapeType) or as one dim of a shape
        # (PrimType): only these need converting into tensors for the ops that take tensors,
        # so a node none of whose inputs is named here takes its inputs as they are.
        special = self._special
        if special and not special.isdisjoint(input_names):
            if op_type not in _SHAPE_OPS:
                # beyond apache-tvm, which rejects the node ("cannot handle ShapeExpr inputs")
                inputs = _Inputs(shape_as_tensor(self, value) for value in inputs)
            if op_type not in _PRIM_OPS:
                inputs = _Inputs(self._dim_as_tensor(value) for value in inputs)
        self._at[:] = protos, index, len(outputs)
        fn = self.converters.get(op_type) or self._converter(op_type)
        try:
            result = fn(self, inputs, attr)
            kind = value_kind(result)
            if kind == EXPR or kind == TUPLE:  # (a Var or a constant is typed already)
                result = _bb_normalize(self.bb, result)
                kind = value_kind(result)
            elif result is None:
                raise ValueError(f"from_onnx: the converter of {op_type} gave no value")
        except _TYPED_ERRORS:
            raise
        except Exception as err:
            raise _conversion_error(op_type, node_name, err) from err
        self._bind(op_type, node_name, outputs, result, kind)

    def _bind(self, op_type: str, node_name: str, outputs: tuple, result: Any,
              kind: int) -> None:
        """Records a node's converted value under its output names: a tuple-typed value split
        into TupleGetItem bindings, one item per output."""
        nodes, special = self.nodes, self._special
        if op_type in _TUPLE_OUTPUT_OPS:
            count = 1
        elif kind == TUPLE:
            count = len(result)
        else:
            ty = result.ty
            if type(ty) is TensorType:  # (the common case, first)
                count = 1
            elif isinstance(ty, TupleType):
                items = [self.bb.emit(TupleGetItem(result, i)) for i in range(len(ty.fields))]
                result = Tuple(items)
                count = len(items)
            else:
                count = 1
                if isinstance(ty, _SPECIAL_TYPES):
                    special.update(outputs)
        if len(outputs) > count:
            raise ValueError(f"from_onnx: node {node_name!r} ({op_type}) has "
                             f"{len(outputs)} outputs, but its conversion gives {count}")
        if count == 1:
            for name in outputs:
                nodes[name] = result
        else:
            for i, name in enumerate(outputs):
                value = nodes[name] = result[i]
                if isinstance(getattr(value, "ty", None), _SPECIAL_TYPES):
                    special.add(name)

    def _note_special(self, names: Any) -> None:
        """Adds to the special names those of `names` whose values are typed as shapes or
        dims (see _convert_nodes)."""
        for name in names:
            if isinstance(getattr(self.nodes.get(name), "ty", None), _SPECIAL_TYPES):
                self._special.add(name)

    @property
    def node(self) -> Optional[onnx.NodeProto]:
        """The NodeProto being converted (for converters that look at its domain or
        outputs)."""
        protos, index, _ = self._at
        return protos[index] if index >= 0 else None

    @property
    def num_outputs(self) -> int:
        """The output count of the node being converted."""
        return self._at[2]

    def _dim_as_tensor(self, value: Any) -> Any:
        """A dim of a shape given to an op that takes tensors, as a 0-d tensor of its dtype:
        a constant when it is static, else read from a shape value at run time.  (Beyond
        apache-tvm, where such a node fails.)"""
        if not isinstance(getattr(value, "ty", None), PrimType):
            return value
        if isinstance(value, IntImm):
            return _const_array(np.array(int(value.value), dtype=str(value.ty)))
        dim = value if str(value.ty) == "int64" else value.astype("int64")
        out = self.bb.normalize(_op.reshape(
            self.bb.normalize(_op.shape_to_tensor(ShapeExpr([dim]))), ()))
        return out if str(value.ty) == "int64" else self.bb.normalize(
            _op.astype(out, str(value.ty)))

    def _apply(self, fn: Any, op_type: str, node_name: str, num_outputs: int, inputs: _Inputs,
               attr: dict) -> Any:
        """fn(self, inputs, attr): the converter's value for a node, normalized when it is an
        expression (its nested calls bound); any other failure than the frontend's typed
        errors is a ValueError naming the node."""
        self._at[2] = num_outputs
        try:
            result = fn(self, inputs, attr)
            if result is None:
                raise ValueError(f"from_onnx: the converter of {op_type} gave no value")
            return _bb_normalize(self.bb, result) if isinstance(result, Expr) else result
        except (NotImplementedError, ValueError, TypeError):
            raise
        except Exception as err:
            raise _conversion_error(op_type, node_name, err) from err

    def _convert_graph(self, graph: onnx.GraphProto, records: tuple) -> Any:
        """Converts the nodes; the graph's value (a Tuple when it has several outputs)."""
        self._convert_nodes(graph, records)
        if self.static_shapes:
            self._operand_constants([info.name for info in graph.output])
        outputs = []
        for info in graph.output:
            if info.name not in self.nodes:
                raise ValueError(f"from_onnx: the graph output {info.name!r} is not "
                                 "computed by any node")
            if isinstance(self.nodes[info.name], EmptyOptional):
                raise ValueError(f"from_onnx: the graph output {info.name!r} is an "
                                 "empty optional; Relax has no empty optional value")
            outputs.append(self.nodes[info.name])
        return outputs[0] if len(outputs) == 1 else Tuple(outputs)

    def _node_inputs(self, node: onnx.NodeProto) -> _Inputs:
        inputs = _Inputs()
        for name in node.input:
            if name == "":
                inputs.append(None)
            elif name in self.nodes:
                inputs.append(self.nodes[name])
            else:
                raise ValueError(f"from_onnx: node {node.name!r} ({node.op_type}) uses "
                                 f"{name!r}, which no input, initializer or earlier node "
                                 "defines")
        return inputs

    def _convert_if(self, node: onnx.NodeProto, inputs: _Inputs, attr: dict) -> None:
        """If: both branches are converted into the current block (their values computed
        before the If, as apache-tvm's frontend does), then bound as relax.If of the two
        branch results."""
        if "then_branch" not in attr or "else_branch" not in attr:
            raise ValueError(f"from_onnx: If node {node.name!r} lacks a then_branch or "
                             "else_branch graph")
        branches = [SeqExpr([], self._convert_branch(attr[key]))
                    for key in ("then_branch", "else_branch")]
        result = self.bb.emit(If(inputs[0], branches[0], branches[1]))
        if len(node.output) == 1:
            self.nodes[node.output[0]] = result
        else:
            for i, name in enumerate(node.output):
                self.nodes[name] = self.bb.emit(TupleGetItem(result, i))

    def _convert_branch(self, graph: onnx.GraphProto) -> Any:
        """The value of a branch graph (a Tuple of its outputs when it has several); its
        nodes see the values of the enclosing graph, and their names stay local to it."""
        outer = dict(self.nodes)
        try:
            for tensor in graph.initializer:
                self.nodes[tensor.name] = _const_array(self.tensor_array(tensor))
            protos = graph.node
            for index, node in enumerate(protos):
                attr = self._attrs(node)
                inputs = self._node_inputs(node)
                if node.op_type == "If":
                    self._convert_if(node, inputs, attr)
                    continue
                fn = self._converter(node.op_type)
                if fn is None:
                    raise NotImplementedError(f"from_onnx: tether's ONNX frontend does not "
                                              f"convert {node.op_type} (in an If branch)")
                self._at[:2] = protos, index
                result = self._apply(fn, node.op_type, node.name, len(node.output), inputs, attr)
                if not isinstance(result, Tuple) and isinstance(getattr(result, "ty", None),
                                                                TupleType):
                    result = Tuple([TupleGetItem(result, i)
                                    for i in range(len(result.ty.fields))])
                if len(node.output) == 1:
                    self.nodes[node.output[0]] = result
                else:
                    for i, name in enumerate(node.output):
                        self.nodes[name] = result[i]
            values = []
            for info in graph.output:
                if info.name not in self.nodes:
                    raise ValueError(f"from_onnx: the branch output {info.name!r} is not "
                                     "computed by any node")
                values.append(self.nodes[info.name])
            return values[0] if len(values) == 1 else Tuple(values)
        finally:
            self.nodes = outer

    def run(self, graph: onnx.GraphProto, opset: int, domains: Dict[str, int]):
        self.opset = opset
        records = self._records(graph)
        self.op_types = {record[0] for record in records[1]}
        self._add_initializers(graph, records)
        records = (None, records[1], None)  # the serialized graph is no longer needed
        self._add_inputs(graph)
        self._check_ops(records, domains)
        attrs = {"num_input": self.num_input}
        params = [v for v in self.inputs.values() if value_kind(v) == VAR]
        if self.keep_params and self.params:
            params += [var for var, _ in self.params.values()]
            attrs["params"] = [core.from_dlpack(np.array(arr, copy=True, order="C"))
                               for _, arr in self.params.values()]
        bb = self.bb
        # A graph with an If is built in a plain binding block (relax.If is not dataflow).
        has_if = "If" in self.op_types
        with bb.function("main", params=params, attrs=attrs):
            if has_if:
                out = self._convert_graph(graph, records)
            else:
                with bb.dataflow():
                    out = bb.emit_output(self._convert_graph(graph, records))
            bb.emit_func_output(out)
        return bb.get()


def _load(model: Any) -> onnx.ModelProto:
    if isinstance(model, onnx.ModelProto):
        return model
    if isinstance(model, (bytes, bytearray, memoryview)):
        try:
            return onnx.load_model_from_string(bytes(model))
        except Exception as err:
            raise ValueError(f"from_onnx: the bytes are not an ONNX model: {err}") from err
    if isinstance(model, (str, os.PathLike)):
        try:
            return onnx.load(os.fspath(model))
        except FileNotFoundError:
            raise
        except Exception as err:
            raise ValueError(f"from_onnx: {os.fspath(model)!r} is not an ONNX model: "
                             f"{err}") from err
    raise TypeError("from_onnx: model must be an onnx.ModelProto, a path or bytes, but got "
                    f"{type(model).__name__}")


def from_onnx(model: Any, shape_dict: Optional[Dict[str, List]] = None,
              dtype_dict: Union[str, Dict[str, str], None] = "float32",
              opset: Optional[int] = None, keep_params_in_input: bool = False,
              sanitize_input_names: bool = True, fold_constants: bool = False):
    """Import an ONNX model as a Relax IRModule (apache-tvm 0.27's from_onnx).

    model: an onnx.ModelProto, a path to a .onnx file, or the serialized model (bytes).
    shape_dict: input name -> shape, replacing the shape the graph declares.
    dtype_dict: input name -> dtype, replacing the declared element type (a str applies to no
        input: as in TVM, inputs keep their declared types).
    opset: the opset to convert for (default: the model's ai.onnx opset).
    keep_params_in_input: initializers become parameters of main after the inputs (and the
        function's "params" attribute holds their values) instead of constants.
    sanitize_input_names: make input names valid identifiers ("." -> "_", a leading non-letter
        gets "input_", duplicates get _1, _2, ...).
    fold_constants: beyond apache-tvm's signature.  False (the default) builds TVM's module.
        True folds shape computations on static shapes into constants: Shape and Size of a
        tensor whose dims are all known are int64 constants, and Slice and Concat of constants
        are computed at import time, so a Shape -> Gather -> Unsqueeze -> Concat -> Reshape
        chain (as transformer exports compute their reshape targets) ends in a reshape to a
        constant shape, with no shape_of / take at run time.  Symbolic dims are left as TVM
        leaves them."""
    model = _load(model)
    if model.ir_version < 3:
        raise ValueError(f"Model IR version {model.ir_version} not supported. Must be at least "
                         "after 1.1.0.")
    if shape_dict is not None and not isinstance(shape_dict, dict):
        raise TypeError("from_onnx: shape_dict must be a dict of input name -> shape, but got "
                        f"{type(shape_dict).__name__}")
    if isinstance(shape_dict, dict):
        known = {i.name for i in model.graph.input}
        for name, dims in shape_dict.items():
            if name not in known:
                raise ValueError(f"from_onnx: shape_dict names {name!r}, which is not an input "
                                 f"of the graph (inputs: {sorted(known)})")
            if not isinstance(dims, (list, tuple)):
                raise TypeError(f"from_onnx: shape_dict[{name!r}] must be a list of dims, but "
                                f"got {type(dims).__name__}")
            for d in dims:
                if isinstance(d, bool) or not isinstance(d, (int, np.integer, Expr)):
                    raise TypeError(f"from_onnx: shape_dict[{name!r}] has the dim {d!r}; a dim "
                                    "is an int or a symbolic int64 expression")
                if not isinstance(d, Expr) and d < 0:
                    raise ValueError(f"from_onnx: shape_dict[{name!r}] has the negative dim {d}")
    domains = {o.domain: o.version for o in model.opset_import}
    model_opset = domains.get("", domains.get("ai.onnx", 1))
    if opset is None:
        opset = model_opset
    elif opset < model_opset:
        warnings.warn(f"You are overwritting original opset ver = {model_opset} by lower ver = "
                      f"{opset}. That might cause model conversion errors.")
    importer = _Importer(shape_dict, dtype_dict, keep_params_in_input, sanitize_input_names,
                         bool(fold_constants))
    # The import makes tens of thousands of containers, most of them short-lived: the cycle
    # collector is paused meanwhile (its passes would walk the records and values of the
    # import again and again), and collects as usual afterwards.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return importer.run(model.graph, opset, domains)
    finally:
        if collecting:
            gc.enable()
