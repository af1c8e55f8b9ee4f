"""The ONNX cases apache-tvm 0.27 imports where tether's module is not (yet) TVM's text.

tests/python/test_onnx_corpus.py imports every case of tests/python/data/onnx/tvm_corpus.json
(recorded by `tools/onnx_diff.py record`) and expects TVM's text, except for the cases listed
here, which it expects to differ or raise (strictly: a listed case that becomes identical fails
until it is taken off the list).

DIFFERS: deliberate differences, each with its reason (the README lists them).
PENDING: cases whose ONNX ops tether's frontend does not convert yet, or converts differently;
the list shrinks as converters land (`tools/onnx_diff.py compare` shows the current state).
PENDING_INIT: the same for the node-init group (node cases whose integer inputs arrive as
initializers); `tools/onnx_diff.py compare --group node-init --list FILE` lists its "raised"
and "different" cases.
"""

DIFFERS = {}
DIFFERS.update(dict.fromkeys("""
node/test_batchnorm_epsilon_training_mode
node/test_batchnorm_example_training_mode
""".split(), (
    'BatchNormalization training mode: Relax momentum = 1 - ONNX momentum'
)))
DIFFERS.update(dict.fromkeys("""
node/test_dynamicquantizelinear_expanded
node/test_dynamicquantizelinear_max_adjusted_expanded
node/test_dynamicquantizelinear_min_adjusted_expanded
node/test_clip
node-init/test_clip_default_int8_max
node/test_clip_default_int8_max
node-init/test_clip_default_int8_min
node/test_clip_default_int8_min
node/test_clip_default_max
node/test_clip_default_min
node/test_clip_example
node/test_clip_inbounds
node/test_clip_min_greater_than_max
node/test_clip_outbounds
node/test_clip_splitbounds
pytorch-operator/test_operator_clip
""".split(), (
    'Clip: TVM calls TIR PrimFuncs (call_tir); tether emits R.maximum / R.minimum'
)))
DIFFERS.update(dict.fromkeys("""
node/test_conv_with_autopad_same
""".split(), (
    'Conv auto_pad=SAME_*: TVM pads the input in a TIR function (call_tir); tether emits '
    'relax.nn.pad with the same widths'
)))
DIFFERS.update(dict.fromkeys("""
node/test_einsum_batch_diagonal
node/test_einsum_batch_matmul
node/test_einsum_batch_matmul_bfloat16
node/test_einsum_inner_prod
node/test_einsum_scalar
node/test_einsum_sum
node/test_einsum_sum_bfloat16
node/test_einsum_transpose
node/test_einsum_transpose_bfloat16
""".split(), (
    'Einsum: apache-tvm lowers it to a TIR PrimFunc (call_tir of topi.einsum); tether emits '
    'relax.einsum, which computes the same'
)))
DIFFERS.update(dict.fromkeys("""
node-init/test_tile
node/test_tile
node-init/test_tile_precomputed
node/test_tile_precomputed
pytorch-operator/test_operator_repeat
pytorch-operator/test_operator_repeat_dim_overflow
""".split(), (
    'apache-tvm lowers Tile through TE (call_tir of tile / dyn_tile); tether emits relax.tile '
    '(with run-time repeats: reshape, broadcast_to, reshape)'
)))
DIFFERS.update(dict.fromkeys("""
node-init/test_edge_pad
node-init/test_reflect_pad
node-init/test_wrap_pad
pytorch-converted/test_ConstantPad2d
pytorch-converted/test_ReflectionPad2d
pytorch-converted/test_ReplicationPad2d
pytorch-converted/test_ZeroPad2d
pytorch-operator/test_operator_pad
""".split(), (
    'apache-tvm lowers Pad through TE (call_tir of pad / mirror_pad / replicate_pad); tether '
    'emits relax.nn.pad'
)))
DIFFERS.update(dict.fromkeys("""
node-init/test_resize_tf_crop_and_resize
node-init/test_resize_tf_crop_and_resize_extrapolation_value
""".split(), (
    'Resize tf_crop_and_resize with a run-time roi: apache-tvm computes it in a TIR PrimFunc '
    '(call_tir of resize2d_dyn); tether spells it out in Relax ops (per-axis coordinates, take, '
    'interpolation weights, where for the extrapolation value)'
)))

PENDING = frozenset()

PENDING_INIT = frozenset()
