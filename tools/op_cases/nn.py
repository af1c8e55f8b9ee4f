"""Neural-network ops (TVM's op/nn/*.cc): convolutions, pools, activations, normalizations,
softmax, dropout, prelu, leakyrelu, pad."""
from .dsl import AnyVar, Const, Prim, Shape, Tensor, TensorTy, TupleVar, case

CASES = []

# ---- convolutions --------------------------------------------------------------------------
CONV = {  # name: (data shape, weight shape, data layout, kernel layout, other layouts)
    "nn.conv1d": ((2, 3, 10), (4, 3, 3), "NCW", "OIW", ("NWC", "WIO")),
    "nn.conv2d": ((2, 3, 10, 10), (4, 3, 3, 3), "NCHW", "OIHW", ("NHWC", "HWIO")),
    "nn.conv3d": ((2, 3, 6, 6, 6), (4, 3, 3, 3, 3), "NCDHW", "OIDHW", ("NDHWC", "DHWIO")),
}
for _op, (ds, ws, dl, kl, (odl, okl)) in CONV.items():
    nd = len(ds) - 2
    sym = ("n", 3) + tuple("h" if i == 0 else 8 for i in range(nd))
    odata = (ds[0],) + ds[2:] + (ds[1],)
    okern = ws[2:] + (ws[1], ws[0])
    CASES += [
        case(_op, Tensor(ds), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(ws), strides=2),
        case(_op, Tensor(ds), Tensor(ws), padding=1),
        case(_op, Tensor(ds), Tensor(ws), padding=(1,) * nd),
        case(_op, Tensor(ds), Tensor(ws), padding=(1,) * (2 * nd)),
        case(_op, Tensor(ds), Tensor(ws), padding=(1, 2, 3)),
        case(_op, Tensor(ds), Tensor(ws), dilation=2),
        case(_op, Tensor(ds), Tensor(ws), strides=(2,) * nd, padding=1, dilation=1),
        case(_op, Tensor(ds), Tensor(ws), strides=0),
        case(_op, Tensor(ds), Tensor(ws), strides=(1,) * (nd + 1)),
        case(_op, Tensor(ds), Tensor(ws), dilation=(1,) * (nd + 1)),
        case(_op, Tensor(ds), Tensor(ws), groups=0),
        case(_op, Tensor(ds), Tensor(ws), groups=3),
        case(_op, Tensor((2, 4) + ds[2:]), Tensor((4, 2) + ws[2:]), groups=2),
        case(_op, Tensor((2, 4) + ds[2:]), Tensor((3, 2) + ws[2:]), groups=2),
        case(_op, Tensor(ds), Tensor((4, 5) + ws[2:])),
        case(_op, Tensor(ds), Tensor(ws), out_dtype="float16"),
        case(_op, Tensor(ds, "int8"), Tensor(ws, "int8"), out_dtype="int32"),
        case(_op, Tensor(ds), Tensor(ws, "float16")),
        case(_op, Tensor(ds, None), Tensor(ws)),
        case(_op, Tensor(sym), Tensor(ws)),
        case(_op, Tensor(sym), Tensor(ws), strides=2, padding=1),
        case(_op, Tensor(("n", "c") + ds[2:]), Tensor(ws)),
        case(_op, Tensor(None, "float32", ndim=nd + 2), Tensor(ws)),
        case(_op, Tensor(None, "float32"), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(None, "float32", ndim=nd + 2)),
        case(_op, Tensor(ds[:-1]), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(ws[:-1])),
        case(_op, Tensor(odata), Tensor(okern), data_layout=odl, kernel_layout=okl),
        case(_op, Tensor(ds), Tensor(ws), out_layout=odl),
        case(_op, Tensor(ds), Tensor(ws), data_layout="ABC"),
        case(_op, Tensor(ds), Tensor(ws), kernel_layout=dl),
        case(_op, Shape(ds), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(ws), padding=2**62),
        case(_op, Tensor(ds), Tensor(ws), padding=-5),
        case(_op, Tensor(ds), Tensor(ws), strides=-1),
    ]

CONVT = {
    "nn.conv1d_transpose": ((2, 3, 10), (3, 4, 3), "NCW", "IOW"),
    "nn.conv2d_transpose": ((2, 3, 10, 10), (3, 4, 3, 3), "NCHW", "IOHW"),
    "nn.conv3d_transpose": ((2, 3, 6, 6, 6), (3, 4, 3, 3, 3), "NCDHW", "IODHW"),
}
for _op, (ds, ws, dl, kl) in CONVT.items():
    nd = len(ds) - 2
    CASES += [
        case(_op, Tensor(ds), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(ws), strides=2),
        case(_op, Tensor(ds), Tensor(ws), strides=2, output_padding=1),
        case(_op, Tensor(ds), Tensor(ws), strides=1, output_padding=1),
        case(_op, Tensor(ds), Tensor(ws), padding=1),
        case(_op, Tensor(ds), Tensor(ws), padding=(1,) * (2 * nd)),
        case(_op, Tensor(ds), Tensor(ws), padding=(1, 2, 3)),
        case(_op, Tensor(ds), Tensor(ws), dilation=2),
        case(_op, Tensor(ds), Tensor(ws), strides=0),
        case(_op, Tensor(ds), Tensor(ws), groups=0),
        case(_op, Tensor((2, 4) + ds[2:]), Tensor((4, 2) + ws[2:]), groups=2),
        case(_op, Tensor(ds), Tensor((4, 4) + ws[2:])),
        case(_op, Tensor(ds), Tensor(ws), out_dtype="float16"),
        case(_op, Tensor(ds), Tensor(ws, "float16")),
        case(_op, Tensor(ds, None), Tensor(ws)),
        case(_op, Tensor(("n", 3) + ("h",) * nd), Tensor(ws)),
        case(_op, Tensor(("n", 3) + ("h",) * nd), Tensor(ws), strides=2, output_padding=1),
        case(_op, Tensor(None, "float32", ndim=nd + 2), Tensor(ws)),
        case(_op, Tensor(None, "float32"), Tensor(ws)),
        case(_op, Tensor(ds[:-1]), Tensor(ws)),
        case(_op, Tensor(ds), Tensor(ws), data_layout="ABC"),
        case(_op, Shape(ds), Tensor(ws)),
    ]

# ---- pools ---------------------------------------------------------------------------------
POOL = {1: ((2, 3, 10), "NCW", "NWC"), 2: ((2, 3, 10, 10), "NCHW", "NHWC"),
        3: ((2, 3, 6, 6, 6), "NCDHW", "NDHWC")}
for nd, (ds, layout, olayout) in POOL.items():
    odata = (ds[0],) + ds[2:] + (ds[1],)
    for kind in ("max", "avg"):
        _op = f"nn.{kind}_pool{nd}d"
        CASES += [
            case(_op, Tensor(ds)),
            case(_op, Tensor(ds), 2),
            case(_op, Tensor(ds), 3, 2),
            case(_op, Tensor(ds), 3, 2, 1),
            case(_op, Tensor(ds), 3, 2, (1,) * (2 * nd)),
            case(_op, Tensor(ds), 3, 2, (1, 2, 3, 4, 5, 6, 7)),
            case(_op, Tensor(ds), 3, 2, 1, 2),
            case(_op, Tensor(ds), 3, 2, 0, 1, True),
            case(_op, Tensor(ds), 3, 2, 0, 1, True, True),
            case(_op, Tensor(ds), 2, 0),
            case(_op, Tensor(ds), (2,) * (nd + 1)),
            case(_op, Tensor(ds), 2, (2,) * (nd + 1)),
            case(_op, Tensor(ds, "int32"), 2),
            case(_op, Tensor(ds, None), 2),
            case(_op, Tensor(("n", "c") + ("h",) * nd), 2, 2),
            case(_op, Tensor(("n", "c") + ("h",) * nd), 3, 2, 1, 1, True),
            case(_op, Tensor(None, "float32", ndim=nd + 2), 2),
            case(_op, Tensor(None, "float32"), 2),
            case(_op, Tensor(ds[:-1]), 2),
            case(_op, Tensor(odata), 2, layout=olayout),
            case(_op, Tensor(ds), 2, out_layout=olayout),
            case(_op, Tensor(ds), 2, layout="ABC"),
            case(_op, Tensor(ds), 20),
            case(_op, Shape(ds)),
        ]
    _op = f"nn.adaptive_avg_pool{nd}d"
    CASES += [
        case(_op, Tensor(ds)),
        case(_op, Tensor(ds), 1),
        case(_op, Tensor(ds), (2,) * nd),
        case(_op, Tensor(ds), (2,) * (nd + 1)),
        case(_op, Tensor(ds), [3] if nd > 1 else [3, 3]),
        case(_op, Tensor(("n", "c") + ("h",) * nd), 1),
        case(_op, Tensor(("n", "c") + ("h",) * nd)),
        case(_op, Tensor(None, "float32", ndim=nd + 2), 2),
        case(_op, Tensor(None, "float32"), 2),
        case(_op, Tensor(ds, None), 2),
        case(_op, Tensor(ds[:-1]), 2),
        case(_op, Tensor(odata), 2, layout=olayout),
        case(_op, Tensor(ds), 2, out_layout=olayout),
        case(_op, Shape(ds)),
    ]

# ---- activations ---------------------------------------------------------------------------
for _op in ("nn.relu", "nn.gelu", "nn.gelu_tanh", "nn.silu", "nn.selu"):
    CASES += [
        case(_op, Tensor((2, 3))),
        case(_op, Tensor(("n", 3), "float16")),
        case(_op, Tensor(None, "float32", ndim=2)),
        case(_op, Tensor(None, None)),
        case(_op, Tensor((2, 3), "int32")),
        case(_op, Tensor((2, 3), None)),
        case(_op, Shape((2, 3))),
    ]

for _op in ("nn.softmax", "nn.log_softmax"):
    CASES += [
        case(_op, Tensor((2, 3))),
        case(_op, Tensor((2, 3)), 0),
        case(_op, Tensor((2, 3)), -2),
        case(_op, Tensor((2, 3)), 2),
        case(_op, Tensor((2, 3)), -3),
        case(_op, Tensor(("n", 3), "float16"), 1),
        case(_op, Tensor(None, "float32", ndim=2), 1),
        case(_op, Tensor(None, "float32"), 5),
        case(_op, Tensor((2, 3), "int32")),
        case(_op, Tensor((2, 3), None)),
        case(_op, Tensor(())),
        case(_op, Shape((2, 3))),
    ]

CASES += [
    case("nn.leakyrelu", Tensor((2, 3))),
    case("nn.leakyrelu", Tensor((2, 3)), 0.2),
    case("nn.leakyrelu", Tensor((2, 3)), 1),
    case("nn.leakyrelu", Tensor(("n", 3), "float16"), 0.1),
    case("nn.leakyrelu", Tensor(None, "float32", ndim=2)),
    case("nn.leakyrelu", Tensor(None, None)),
    case("nn.leakyrelu", Tensor((2, 3), "int32")),
    case("nn.leakyrelu", Shape((2, 3))),

    case("nn.prelu", Tensor((2, 3, 4)), Tensor((3,))),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((4,)), 2),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((4,)), -1),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((4,))),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((1,))),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((3,)), 3),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((3, 1))),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor((3,), "float16")),
    case("nn.prelu", Tensor((2, 3, 4), "int32"), Tensor((3,), "int32")),
    case("nn.prelu", Tensor(("n", "c", 4)), Tensor(("c",))),
    case("nn.prelu", Tensor(None, "float32", ndim=3), Tensor((3,))),
    case("nn.prelu", Tensor(None, "float32"), Tensor((3,))),
    case("nn.prelu", Tensor((2, 3, 4), None), Tensor((3,))),
    case("nn.prelu", Tensor((2, 3, 4)), Tensor(None, "float32")),
    case("nn.prelu", Shape((2, 3)), Tensor((3,))),

    case("nn.dropout", Tensor((2, 3))),
    case("nn.dropout", Tensor((2, 3)), 0.1),
    case("nn.dropout", Tensor(("n", 3), "float16")),
    case("nn.dropout", Tensor(None, "float32", ndim=2)),
    case("nn.dropout", Tensor(None, None)),
    case("nn.dropout", Tensor((2, 3), "int32")),
    case("nn.dropout", Shape((2, 3))),
]

# ---- normalizations ------------------------------------------------------------------------
g3 = Tensor((3,))
CASES += [
    case("nn.batch_norm", Tensor((2, 3, 4, 4)), Tensor((3,)), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), 1),
    case("nn.batch_norm", Tensor((2, 4, 3)), Tensor((3,)), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), -1, 1e-3, False, False, 0.2, False),
    case("nn.batch_norm", Tensor((2, 3, 4, 4)), Tensor((3,)), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), 4),
    case("nn.batch_norm", Tensor((2, 3, 4, 4)), Tensor((4,)), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), 1),
    case("nn.batch_norm", Tensor((2, 3, 4, 4)), Tensor((3, 1)), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), 1),
    case("nn.batch_norm", Tensor((2, 3, 4, 4)), Tensor((3,), "float16"), Tensor((3,)),
         Tensor((3,)), Tensor((3,)), 1),
    case("nn.batch_norm", Tensor(("n", "c", 4)), Tensor(("c",)), Tensor(("c",)),
         Tensor(("c",)), Tensor(("c",)), 1),
    case("nn.batch_norm", Tensor(None, "float32", ndim=4), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), Tensor((3,)), 1),
    case("nn.batch_norm", Tensor(None, "float32"), Tensor((3,)), Tensor((3,)),
         Tensor((3,)), Tensor((3,)), 1),
    case("nn.batch_norm", Tensor((2, 3, 4, 4), "int32"), Tensor((3,), "int32"),
         Tensor((3,), "int32"), Tensor((3,), "int32"), Tensor((3,), "int32"), 1),
    case("nn.batch_norm", Tensor(None, "float32", ndim=3), Tensor(("c",)), Tensor(("c",)),
         Tensor((6,)), Tensor(("c",)), 1),
    case("nn.batch_norm", Tensor(None, "float32", ndim=3), Tensor((3,)), Tensor((3,)),
         Tensor((6,)), Tensor((3,)), 1),
    case("nn.batch_norm", Tensor((2, 3, 4)), Tensor((3,)), Tensor((3,), None), Tensor((3,)),
         Tensor((3,)), 1),

    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,)), -1),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((3, 4)), Tensor((3, 4)), [1, 2]),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,)), [2], 1e-6, False, False),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,)), 3),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((3,)), Tensor((3,)), -1),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,)), [1, 2]),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,), "float16"), -1),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((4,)), [2, 2]),
    case("nn.layer_norm", Tensor(("n", "m")), Tensor(("m",)), Tensor(("m",)), -1),
    case("nn.layer_norm", Tensor(None, "float32", ndim=3), Tensor((4,)), Tensor((4,)), -1),
    case("nn.layer_norm", Tensor(None, "float32"), Tensor((4,)), Tensor((4,)), -1),
    case("nn.layer_norm", Tensor(None, "float32", ndim=3), Tensor((4,)), Tensor((1,)), -1),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor((4,)), Tensor((1,)), -1),
    case("nn.layer_norm", Tensor((2, 3, 4)), Tensor(("k",)), Tensor((4,)), -1),
    case("nn.layer_norm", Tensor((2, 3, 4), "int32"), Tensor((4,), "int32"),
         Tensor((4,), "int32"), -1),

    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 2, 1, [2, 3]),
    case("nn.group_norm", Tensor((2, 5, 5, 4)), Tensor((4,)), Tensor((4,)), 2, -1, [1, 2],
         1e-3, False, False),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 3, 1, [2, 3]),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((5,)), Tensor((4,)), 2, 1, [2, 3]),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 2, 4, [2, 3]),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 2, 1, [1, 2]),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 2, 1, [2, 4]),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,)), Tensor((4,)), 2, 1, 2),
    case("nn.group_norm", Tensor((2, 4, 5, 5)), Tensor((4,), "float16"), Tensor((4,)), 2, 1,
         [2, 3]),
    case("nn.group_norm", Tensor(("n", "c", 5)), Tensor(("c",)), Tensor(("c",)), 2, 1, [2]),
    case("nn.group_norm", Tensor(None, "float32", ndim=4), Tensor((4,)), Tensor((4,)), 2, 1,
         [2, 3]),
    case("nn.group_norm", Tensor(None, "float32"), Tensor((4,)), Tensor((4,)), 2, 1, [2, 3]),
    case("nn.group_norm", Tensor((2, 4, 5, 5), "int32"), Tensor((4,), "int32"),
         Tensor((4,), "int32"), 2, 1, [2, 3]),

    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((4,))),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((3, 4)), [1, 2]),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((4,)), -1, 1e-6),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((4,)), 3),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((3,))),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((4,)), [1, 2]),
    case("nn.rms_norm", Tensor((2, 3, 4)), Tensor((4,), "float16")),
    case("nn.rms_norm", Tensor(("n", "m")), Tensor(("m",))),
    case("nn.rms_norm", Tensor(None, "float32", ndim=3), Tensor((4,))),
    case("nn.rms_norm", Tensor(None, "float32"), Tensor((4,))),
    case("nn.rms_norm", Tensor((2, 3, 4), "int32"), Tensor((4,), "int32")),
    case("nn.rms_norm", Tensor((2, 3, 4), None), Tensor((4,))),
]

# ---- pad -----------------------------------------------------------------------------------
CASES += [
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2)),
    case("nn.pad", Tensor((2, 3)), [0, 0, 1, 0]),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "constant", 1.5),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "reflect"),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "edge"),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "replicate"),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "circular"),
    case("nn.pad", Tensor((2, 3)), (1, 1, 2, 2), "bogus"),
    case("nn.pad", Tensor((2, 3)), (1, 1)),
    case("nn.pad", Tensor((2, 3)), (1, 1, 1, 1, 1, 1)),
    case("nn.pad", Tensor((2, 3)), (-1, 0, 0, 0)),
    case("nn.pad", Tensor((2, 3), "int32"), (1, 1, 2, 2), "constant", 3),
    case("nn.pad", Tensor(("n", 3)), (1, 1, 0, 0)),
    case("nn.pad", Tensor(None, "float32", ndim=2), (1, 1, 0, 0)),
    case("nn.pad", Tensor(None, "float32"), (1, 1, 0, 0)),
    case("nn.pad", Tensor((2, 3), None), (1, 1, 0, 0)),
    case("nn.pad", Shape((2, 3)), (1, 1, 0, 0)),
]
