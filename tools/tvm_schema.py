"""Dump apache-tvm's reflected schema (fields, order, declared types) for the type keys
tether shares with TVM, as JSON: the record tests/python/test_tvm_schema.py checks tether's
reflection against.

Run with the Python of a virtualenv that has apache-tvm 0.27.0.post1 (no tether needed):

    make venv-tvm && .venv-tvm/bin/python tools/tvm_schema.py > tests/python/data/tvm_schema.json

For each type key the output holds its parent's type key and its own fields (not the
inherited ones) in registration order, each with its name, the field_static_type_index
tvm_ffi reports, and the declared type as the `type_schema` of the field's metadata (a
JSON value: {"type": key, "args": [...]}).  A type key TVM does not know maps to null.
"""
import json
import sys

# Every type key libtether_ir registers (the Relax node kinds and the attrs types).
TYPE_KEYS = (
    # expressions
    "ir.Expr", "ir.Var", "relax.expr.DataflowVar", "ir.Constant", "ir.IntImm",
    "ir.FloatImm", "ir.StringImm", "ir.DataTypeImm", "ir.GenericConst",
    "prim.Add", "prim.Sub", "prim.Mul", "prim.FloorDiv", "prim.FloorMod", "prim.Min",
    "prim.Max", "prim.EQ", "prim.NE", "prim.LT", "prim.LE", "prim.GT", "prim.GE",
    "prim.BitwiseAnd", "prim.BitwiseOr", "prim.BitwiseXor", "prim.LShift", "prim.RShift",
    "prim.BitwiseNot", "ir.Op", "ir.Call", "ir.Tuple", "ir.TupleGetItem", "relax.expr.ShapeExpr",
    "ir.GlobalVar", "ir.BaseFunc", "relax.expr.Function", "relax.expr.ExternFunc",
    "relax.expr.SeqExpr", "relax.expr.If",
    # bindings and blocks
    "relax.expr.Binding", "relax.expr.VarBinding", "relax.expr.MatchCast",
    "relax.expr.BindingBlock", "relax.expr.DataflowBlock",
    # module and attributes
    "ir.IRModule", "ir.SourceMap", "ir.EnvFunc", "ir.Attrs", "ir.DictAttrs",
    # types
    "ir.Type", "relax.TensorType", "relax.ShapeType", "ir.TupleType", "relax.AnyType",
    "relax.PackedFuncType", "ir.PrimType", "relax.FuncType", "ir.StringType",
    # attrs of the ops tether has
    "relax.attrs.Conv1DAttrs", "relax.attrs.Conv2DAttrs", "relax.attrs.Conv2DTransposeAttrs",
    "relax.attrs.Pool2DAttrs", "relax.attrs.AdaptivePool2DAttrs", "relax.attrs.SoftmaxAttrs",
    "relax.attrs.BatchNormAttrs", "relax.attrs.LayerNormAttrs", "relax.attrs.DropoutAttrs",
    "relax.attrs.MatmulAttrs", "relax.attrs.PermuteDimsAttrs", "relax.attrs.ExpandDimsAttrs",
    "relax.attrs.SqueezeAttrs", "relax.attrs.ConcatAttrs", "relax.attrs.SplitAttrs",
    "relax.attrs.StridedSliceAttrs", "relax.attrs.TakeAttrs", "relax.attrs.StatisticalAttrs",
    "relax.attrs.AstypeAttrs",
    "relax.attrs.InitAttrs",
    # attrs of the manipulation / index / search / set / sort / linalg ops
    "relax.attrs.StackAttrs", "relax.attrs.FlipAttrs", "relax.attrs.TileAttrs",
    "relax.attrs.OneHotAttrs", "relax.attrs.GatherElementsAttrs", "relax.attrs.GatherNDAttrs",
    "relax.attrs.ScatterElementsAttrs", "relax.attrs.ScatterNDAttrs",
    "relax.attrs.ArgmaxArgminAttrs", "relax.attrs.ScanopAttrs", "relax.attrs.SortAttrs",
    "relax.attrs.ArgsortAttrs", "relax.attrs.TopKAttrs", "relax.attrs.EinsumAttrs",
    # attrs of the nn / image / vision / qdq ops of issue 10
    "relax.attrs.Conv3DAttrs", "relax.attrs.Conv1DTransposeAttrs",
    "relax.attrs.Conv3DTransposeAttrs", "relax.attrs.Pool1DAttrs", "relax.attrs.Pool3DAttrs",
    "relax.attrs.AdaptivePool1DAttrs", "relax.attrs.AdaptivePool3DAttrs",
    "relax.attrs.RMSNormAttrs", "relax.attrs.GroupNormAttrs", "relax.attrs.PReluAttrs",
    "relax.attrs.LeakyReluAttrs", "relax.attrs.SoftplusAttrs", "relax.attrs.PadAttrs",
    "relax.attrs.Resize2DAttrs", "relax.attrs.Resize3DAttrs", "relax.attrs.GridSampleAttrs",
    "relax.attrs.AffineGridAttrs", "relax.attrs.AllClassNonMaximumSuppressionAttrs",
    "relax.attrs.ROIAlignAttrs", "relax.attrs.QuantizeAttrs",
    # the BlockBuilder (a reflected object without fields)
    "relax.BlockBuilder",
)


def _type_record(type_key):
    from tvm_ffi import core

    try:
        info = core._lookup_or_register_type_info_from_type_key(type_key)
    except ValueError:
        return None
    parent = info.parent_type_info
    fields = []
    for f in info.fields:
        schema = f.metadata.get("type_schema")
        fields.append({
            "name": f.name,
            "static_type_index": f.field_static_type_index,
            "type_schema": json.loads(schema) if schema is not None else None,
        })
    return {"parent": parent.type_key if parent is not None else None, "fields": fields}


def main(argv):
    import tvm  # noqa: F401  (registers TVM's types)

    keys = argv[1:] or TYPE_KEYS
    out = {"tvm_version": tvm.__version__, "types": {k: _type_record(k) for k in keys}}
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
