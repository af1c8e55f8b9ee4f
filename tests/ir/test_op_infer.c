/*
 * test_op_infer.c -- table-driven test of every op's constructor global and type inference.
 *
 * Each row names an op, its constructor arguments in a small notation, and the result that
 * apache-tvm 0.27 gives for the same arguments (recorded by running it; see the tool named
 * below): the inferred type in TVMScript form, "!Kind: message" for an inference
 * error, "!!Kind: message" for a construction error.
 *
 * Argument notation (comma separated, nested freely):
 *   T[2,n,3]:float32   Var of TensorType with that shape (n: a symbolic int64 dim shared by
 *                      name within the row); T#4:f  ndim 4, no shape; T:f  ndim unknown;
 *                      T$s#4:f  shape is the shape Var s (ShapeType ndim 4); dtype ? = unknown
 *   S[2,n]             ShapeExpr        V$s#2   the shape Var s itself
 *   P:float32          Var of PrimType  I(3) / F(0.5)  IntImm int64 / FloatImm float64
 *   D n                the symbolic dim n as an argument
 *   (a, b)             relax Tuple (ints become IntImm int64)   [1, 2]  Array
 *   "NCHW"  None  True  False  1  1e-5
 *   name=...           names the Var (default names x, y, z, w, u, v, ... in order)
 *
 * A row may carry a fourth string: tether's result where it knowingly differs from TVM's
 * (with the reason in a comment); the test then checks that one.
 *
 * tools/tvm_op_infer_table.py writes the expected strings (`make op-infer-table`) and checks
 * them (`--check`): it parses the same notation in Python, calls
 * tvm.get_global_func("relax.op.<name>") with the arguments, normalizes the Call with a
 * relax.BlockBuilder and renders the outcome as run_case below renders tether's.  The rows
 * are read from BEGIN CASES to the end of the array: {op, args, expected[, ours]}, string
 * literals only.
 */
#include <stdarg.h>
#include <stdlib.h>

#include <tether/container.h>
#include <tether/ir/ir.h>

#include "test.h"

typedef struct {
  const char* op;
  const char* args;
  const char* expected;
  const char* ours; /* tether's accepted result where it knowingly differs (NULL: same) */
} op_case_t;

static const op_case_t op_cases[] = {
    /* BEGIN CASES */
    /* ---- nn.conv2d */
    {"nn.conv2d", "T[1,3,224,224]:float32, T[16,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((1, 16, 222, 222), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [2,2], [1], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((2, 4, 4, 4), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,3,8,9]:float32, T[4,3,3,3]:float32, [2,1], [1,2], [2], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((2, 4, 3, 9), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,3,8,9]:float32, T[4,3,3,3]:float32, [1], [1,0,2,3], [1,1], 1, \"NCHW\", \"OIHW\", None, \"float16\"",
     "R.Tensor((2, 4, 9, 10), dtype=\"float16\")"},
    {"nn.conv2d", "T[n,3,h,w]:float32, T[4,3,3,3]:float32, [2,2], [1,1,1,1], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((n, 4, (h - 1) // 2 + 1, (w - 1) // 2 + 1), dtype=\"float32\")"},
    {"nn.conv2d", "T[n,c,h,w]:float32, T[o,c,kh,kw]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((n, o, h + 1 - kh, w + 1 - kw), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,8,8,6]:float32, T[3,3,6,4]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NHWC\", \"HWIO\", None, None",
     "R.Tensor((2, 6, 6, 4), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,8,8,6]:float32, T[3,3,6,4]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NHWC\", \"HWIO\", \"NCHW\", None",
     "R.Tensor((2, 4, 6, 6), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,6,8,8]:float32, T[6,1,3,3]:float32, [1,1], [1,1,1,1], [1,1], 6, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((2, 6, 8, 8), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,6,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 2, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((2, 4, 6, 6), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,6,8,8]:float32, T[5,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 2, \"NCHW\", \"OIHW\", None, None",
     "!ValueError: Conv2d expects the number of output channels to be divisible by the number of groups. However, the number of output channels is T.int64(5) while the number of groups is 2"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,5,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!ValueError: The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(3) while the weight input channel size and number of groups are T.int64(5) and 1"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float16, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.nn.conv2d(x, y, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"NCHW\", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 3, 8, 8), dtype=\"float32\")), and datatype T.float16 on the RHS (Type of R.Tensor((4, 3, 3, 3), dtype=\"float16\"))."},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float16, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, \"float32\"",
     "R.Tensor((2, 4, 6, 6), dtype=\"float32\")"},
    {"nn.conv2d", "T[2,3,8,8]:?, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor((2, 4, 6, 6))"},
    {"nn.conv2d", "T#4:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.conv2d", "T:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.conv2d", "T$s#4:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", \"NHWC\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.conv2d", "T[2,3,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10), layout NCHW requires the input to be 4-dim tensor. However, the given input has ndim 3"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10), layout OIHW requires the input to be 4-dim tensor. However, the given input has ndim 3"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHH\", \"OIHW\", None, None",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10) requires the given data layout to be convertible from NCHW layout. However, the given layout NCHH is not convertible."},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHWX\", None, None",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", \"NCW\", None",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10) requires the given output layout to be convertible from NCHW layout. However, the given layout NCW is not convertible."},
    {"nn.conv2d", "T[2,3,8,8,4]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW4c\", \"OIHW\", None, None",
     "!ValueError: The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(12) while the weight input channel size and number of groups are T.int64(3) and 1"},
    {"nn.conv2d", "T[2,3,8,8]:float32, S[4,3,3,3], [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10) requires argument 1 (weight) to be a tensor.  However, the argument R.shape([4, 3, 3, 3]) is instead of type R.Shape([4, 3, 3, 3])"},
    {"nn.conv2d", "P:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv2DAttrs\", num_inputs=2, support_level=10) requires argument 0 (data) to be a tensor.  However, the argument x is instead of type T.float32"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!!InternalError: The input padding length is expected to be either 1, 2 or 4. However, the given padding is (0, 0, 0)"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!!InternalError: Check failed: strides.size() == 2 (3 vs. 2) : The input strides length is expected to be 2. However, the given strides is (1, 1, 1)"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1,1], 1, \"NCHW\", \"OIHW\", None, None",
     "!!InternalError: Check failed: dilation.size() == 2 (3 vs. 2) : The input dilation length is expected to be 2. However, the given dilation is (1, 1, 1)"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 0, \"NCHW\", \"OIHW\", None, None",
     "!!InternalError: Check failed: groups > 0 (0 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is 0"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], -2, \"NCHW\", \"OIHW\", None, None",
     "!!InternalError: Check failed: groups > 0 (-2 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is -2"},
    {"nn.conv2d", "T[2,3,8,8]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [1,1], 1, \"NCHW\", \"OIHW\", None",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.nn.conv2d(0: ir.Expr, 1: ir.Expr, 2: Array<int>, 3: Array<int>, 4: Array<int>, 5: int, 6: str, 7: str, 8: Optional<str>, 9: Optional<DataType>) -> ir.Expr`. Expected 10 but got 9 arguments"},
    /* ---- nn.conv1d */
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [1], [0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "R.Tensor((2, 4, 8), dtype=\"float32\")"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [2], [1], [2], 1, \"NCW\", \"OIW\", None, None",
     "R.Tensor((2, 4, 4), dtype=\"float32\")"},
    {"nn.conv1d", "T[2,10,3]:float32, T[3,3,4]:float32, [1], [1,2], [1], 1, \"NWC\", \"WIO\", None, \"int32\"",
     "R.Tensor((2, 11, 4), dtype=\"int32\")"},
    {"nn.conv1d", "T[n,3,w]:float32, T[4,3,3]:float32, [1], [0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "R.Tensor((n, 4, w - 2), dtype=\"float32\")"},
    {"nn.conv1d", "T[2,6,10]:float32, T[5,3,3]:float32, [1], [0,0], [1], 2, \"NCW\", \"OIW\", None, None",
     "!ValueError: Conv1d expects the number of output channels to be divisible by the number of groups. However, the number of output channels is T.int64(5) while the number of groups is 2"},
    {"nn.conv1d", "T[2,6,10]:float32, T[4,4,3]:float32, [1], [0,0], [1], 2, \"NCW\", \"OIW\", None, None",
     "!ValueError: The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(6) while the weight input channel size and number of groups are T.int64(4) and 2"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [1,1], [0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "!!InternalError: Check failed: strides.size() == 1 (2 vs. 1) : The input strides length is expected to be 1. However, the given strides is (1, 1)"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [1], [0,0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "!!InternalError: The input padding length is expected to be either 1 or 2. However, the given padding is (0, 0, 0)"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [1], [0,0], [1,1], 1, \"NCW\", \"OIW\", None, None",
     "!!InternalError: Check failed: dilation.size() == 1 (2 vs. 1) : The input dilation length is expected to be 1. However, the given dilation is (1, 1)"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:float32, [1], [0,0], [1], 0, \"NCW\", \"OIW\", None, None",
     "!!InternalError: Check failed: groups > 0 (0 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is 0"},
    {"nn.conv1d", "T#3:float32, T[4,3,3]:float32, [1], [0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"nn.conv1d", "T[2,3,10]:float32, T[4,3,3]:int8, [1], [0,0], [1], 1, \"NCW\", \"OIW\", None, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.nn.conv1d(x, y, strides=[1], padding=[0, 0], dilation=[1], groups=1, data_layout=\"NCW\", kernel_layout=\"OIW\", out_layout=\"NCW\", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 3, 10), dtype=\"float32\")), and datatype T.int8 on the RHS (Type of R.Tensor((4, 3, 3), dtype=\"int8\"))."},
    /* ---- nn.conv2d_transpose */
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "R.Tensor((1, 4, 10, 10), dtype=\"float32\")"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [2,2], [1,1,1,1], [1,1], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "R.Tensor((1, 4, 16, 16), dtype=\"float32\")"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [2], [1], [1], [2], 1, \"NCHW\", \"IOHW\", None, \"float16\"",
     "R.Tensor((1, 4, 18, 18), dtype=\"float16\")"},
    {"nn.conv2d_transpose", "T[1,6,8,8]:float32, T[6,2,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 3, \"NCHW\", \"IOHW\", None, None",
     "R.Tensor((1, 6, 10, 10), dtype=\"float32\")"},
    {"nn.conv2d_transpose", "T[1,6,8,8]:float32, T[6,2,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 4, \"NCHW\", \"IOHW\", None, None",
     "!ValueError: Conv2dTranspose expects the number of input channels to be divisible by the number of groups. However, the number of input channels is T.int64(6) while the number of groups is 4"},
    {"nn.conv2d_transpose", "T[1,5,8,8]:float32, T[6,2,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!ValueError: Conv2dTranspose expects the channel size of the data should equal to the input channel size of the weight. However, the data channel size is T.int64(5) while the weight input channel size is T.int64(6)"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [1,1], [0,0,0,0], [1,1], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!ValueError: Conv2dTranspose expects the output padding less than the strides, but the output padding is(1, 1) while the strides are(1, 1)"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [2,2], [0,0,0,0], [1,2], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!ValueError: Conv2dTranspose expects the output padding less than the strides, but the output padding is(1, 2) while the strides are(2, 2)"},
    {"nn.conv2d_transpose", "T[n,3,h,w]:float32, T[3,4,3,3]:float32, [2,2], [1,1,1,1], [1,1], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "R.Tensor((n, 4, h * 2, w * 2), dtype=\"float32\")"},
    {"nn.conv2d_transpose", "T[1,8,8,3]:float32, T[4,3,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 1, \"NHWC\", \"OIHW\", None, None",
     "R.Tensor((1, 10, 10, 4), dtype=\"float32\")"},
    {"nn.conv2d_transpose", "T#4:float32, T[3,4,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [1,1], [0,0,0,0], [0,0,0], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!!InternalError: Check failed: output_padding.size() == 2 (3 vs. 2) : The input output_padding length is expected to be 2. However, the given output_padding is (0, 0, 0)"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:float32, [1,1], [0,0,0,0], [0,0], [1,1], 0, \"NCHW\", \"IOHW\", None, None",
     "!!InternalError: Check failed: groups > 0 (0 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is 0"},
    {"nn.conv2d_transpose", "T[1,3,8,8]:float32, T[3,4,3,3]:int32, [1,1], [0,0,0,0], [0,0], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.nn.conv2d_transpose(x, y, strides=[1, 1], padding=[0, 0, 0, 0], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout=\"NCHW\", kernel_layout=\"IOHW\", out_layout=\"NCHW\", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((1, 3, 8, 8), dtype=\"float32\")), and datatype T.int32 on the RHS (Type of R.Tensor((3, 4, 3, 3), dtype=\"int32\"))."},
    /* ---- pooling */
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[1,3,7,7]:float32, [3,3], [2,2], [1,1,1,1], [1,1], False, False, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[1,3,7,7]:float32, [2,2], [2,2], [0,0,0,0], [1,1], True, False, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[1,3,6,6]:float32, [3,3], [2,2], [1,1,1,1], [1,1], True, False, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [3], [2], [1], [2], False, False, \"NCHW\", None",
     "R.Tensor((1, 3, 3, 3), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[1,8,8,3]:int8, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NHWC\", None",
     "R.Tensor((1, 4, 4, 3), dtype=\"int8\")"},
    {"nn.max_pool2d", "T[1,8,8,3]:float16, [2,2], [1,1], [0,0,0,0], [1,1], False, False, \"NHWC\", \"NCHW\"",
     "R.Tensor((1, 3, 7, 7), dtype=\"float16\")"},
    {"nn.max_pool2d", "T[n,3,h,w]:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "R.Tensor((n, 3, h // 2, w // 2), dtype=\"float32\")"},
    {"nn.max_pool2d", "T[n,3,h,w]:float32, [2,2], [2,2], [0,0,0,0], [1,1], True, False, \"NCHW\", None",
     "R.Tensor((n, 3, (h - 1) // 2 + 1, (w - 1) // 2 + 1), dtype=\"float32\")"},
    {"nn.max_pool2d", "T#4:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.max_pool2d", "T:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.max_pool2d", "T$s#4:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.max_pool2d", "T[1,3,8]:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.max_pool2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor\"),), attrs_type_key=\"relax.attrs.Pool2DAttrs\", num_inputs=1, support_level=10), layout NCHW requires the input to be 4-dim tensor. However, the given input has ndim 3"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "!!InternalError: Check failed: pool_size.size() == 2 (3 vs. 2) : The input pool_size length is expected to be 2. However, the given pool_size is (2, 2, 2)"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "!!InternalError: Check failed: strides.size() == 2 (3 vs. 2) : The input strides length is expected to be 2. However, the given strides is (2, 2, 2)"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2], [0,0,0,0], [1,1,1], False, False, \"NCHW\", None",
     "!!InternalError: Check failed: dilation.size() == 2 (3 vs. 2) : The input dilation length is expected to be 2. However, the given dilation is (1, 1, 1)"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2], [0,0,0,0,0], [1,1], False, False, \"NCHW\", None",
     "!!InternalError: The input padding length is expected to be either 1, 2 or 4. However, the given padding is (0, 0, 0, 0, 0)"},
    {"nn.max_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, False, \"NCHW\", \"OIHW\"",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.max_pool2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor\"),), attrs_type_key=\"relax.attrs.Pool2DAttrs\", num_inputs=1, support_level=10) requires the given output layout to be convertible from NCHW layout. However, the given layout OIHW is not convertible."},
    {"nn.avg_pool2d", "T[1,3,8,8]:float32, [2,2], [2,2], [0,0,0,0], [1,1], False, True, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.avg_pool2d", "T[1,3,7,7]:float32, [3,3], [2,2], [1,1,1,1], [1,1], True, False, \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.avg_pool2d", "T[1,3,7,7]:float32, [3,3], [2,2], [1], [1,1], False, False, \"NCHW\", \"NHWC\"",
     "R.Tensor((1, 4, 4, 3), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T[1,3,8,8]:float32, None, \"NCHW\", None",
     "R.Tensor((1, 3, 8, 8), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T[1,3,8,8]:float32, [1,1], \"NCHW\", None",
     "R.Tensor((1, 3, 1, 1), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T[1,3,8,8]:float32, [4], \"NCHW\", None",
     "R.Tensor((1, 3, 4, 4), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T[1,8,8,3]:float32, [2,3], \"NHWC\", \"NCHW\"",
     "R.Tensor((1, 3, 2, 3), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T$s#4:float32, None, \"NCHW\", None",
     "R.Tensor(s, dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T$s#4:float32, [1,1], \"NCHW\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.adaptive_avg_pool2d", "T$s#4:float32, None, \"NCHW\", \"NHWC\"",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.adaptive_avg_pool2d", "T#4:float32, None, \"NCHW\", None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.adaptive_avg_pool2d", "T[n,c,h,w]:float32, [7,7], \"NCHW\", None",
     "R.Tensor((n, c, 7, 7), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool2d", "T[1,3,8,8]:float32, [1,1,1], \"NCHW\", None",
     "!!InternalError: Check failed: _output_size.size() == 2 (3 vs. 2) : The output_size length is expected to be 2. However, the given output_size is (1, 1, 1)"},
    {"nn.adaptive_avg_pool2d", "T[1,3,8]:float32, None, \"NCHW\", None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.adaptive_avg_pool2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor\"),), attrs_type_key=\"relax.attrs.AdaptivePool2DAttrs\", num_inputs=1, support_level=10), layout NCHW requires the input to be 4-dim tensor. However, the given input has ndim 3"},
    /* ---- unary nn */
    {"nn.relu", "T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"nn.relu", "T[n,3]:int32",
     "R.Tensor((n, 3), dtype=\"int32\")"},
    {"nn.relu", "T#2:?",
     "R.Tensor(ndim=2)"},
    {"nn.relu", "T:float16",
     "R.Tensor(dtype=\"float16\")"},
    {"nn.relu", "T$s#3:float32",
     "R.Tensor(s, dtype=\"float32\")"},
    {"nn.relu", "S[2,3]",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.relu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires argument 0 (x) to be a tensor.  However, the argument R.shape([2, 3]) is instead of type R.Shape([2, 3])"},
    {"nn.relu", "P:float32",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.relu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires argument 0 (x) to be a tensor.  However, the argument x is instead of type T.float32"},
    {"nn.relu", "T[2]:float32, T[2]:float32",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.nn.relu(0: ir.Expr) -> ir.Expr`. Expected 1 but got 2 arguments"},
    {"nn.gelu", "T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"nn.gelu", "T[2,3]:int32",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.gelu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"nn.gelu", "T[2,3]:bfloat16",
     "R.Tensor((2, 3), dtype=\"bfloat16\")"},
    {"nn.gelu", "T[2,3]:?",
     "R.Tensor((2, 3))"},
    {"nn.gelu_tanh", "T[2,3]:int8",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.gelu_tanh\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int8"},
    {"nn.silu", "T[n]:float16",
     "R.Tensor((n,), dtype=\"float16\")"},
    {"nn.silu", "T[2]:bool",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.silu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.bool"},
    {"nn.selu", "T[2]:int64",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.selu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int64"},
    {"sigmoid", "T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"sigmoid", "T[2,3]:int32",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.sigmoid\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"tanh", "T[2]:float64",
     "R.Tensor((2,), dtype=\"float64\")"},
    {"tanh", "T[2]:uint8",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.tanh\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.uint8"},
    {"exp", "T#3:float32",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"exp", "T[2]:int32",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.exp\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"sqrt", "T[2,n]:float32",
     "R.Tensor((2, n), dtype=\"float32\")"},
    {"sqrt", "T[2]:int64",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.sqrt\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int64"},
    {"negative", "T[2,3]:int32",
     "R.Tensor((2, 3), dtype=\"int32\")"},
    {"negative", "T[2,3]:bool",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    {"negative", "T:float32",
     "R.Tensor(dtype=\"float32\")"},
    {"negative", "P:float32",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.negative\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires argument 0 (x) to be a tensor.  However, the argument x is instead of type T.float32"},
    /* ---- softmax */
    {"nn.softmax", "T[2,3]:float32, -1",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"nn.softmax", "T[2,3]:float32, 0",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"nn.softmax", "T[2,3]:float32, 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.softmax\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SoftmaxAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"nn.softmax", "T[2,3]:float32, -3",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.softmax\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SoftmaxAttrs\", num_inputs=1, support_level=10), the input axis -3 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"nn.softmax", "T[2,3]:int32, -1",
     "!TypeError: Softmax requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"nn.softmax", "T:float32, 5",
     "R.Tensor(dtype=\"float32\")"},
    {"nn.softmax", "T:int32, 5",
     "R.Tensor(dtype=\"int32\")"},
    {"nn.softmax", "T#2:float32, 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.softmax\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SoftmaxAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"nn.log_softmax", "T[2,3]:float32, -1",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"nn.log_softmax", "T[2,3]:float32, 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.log_softmax\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SoftmaxAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"nn.log_softmax", "T[2,3]:int32, -1",
     "!TypeError: Softmax requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    /* ---- batch_norm */
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor((2, 3, 4, 4), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T[n,c,h,w]:float32, T[c]:float32, T[c]:float32, T[c]:float32, T[c]:float32, 1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor((n, c, h, w), dtype=\"float32\"), R.Tensor((c,), dtype=\"float32\"), R.Tensor((c,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float32, T[3]:float32, T[3]:float32, T[3]:float32, -3, 1e-5, True, True, 0.1, False",
     "R.Tuple(R.Tensor((2, 3, 4, 4), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[4]:float32, T[4]:float32, T[4]:float32, T[4]:float32, -1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor((2, 3, 4, 4), dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\"), R.Tensor((4,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[4]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires the input gamma, beta, etc., to have size same as the lengths of the data on the given axes. However, there exists (T.int64(3),) and (T.int64(4),) that are unequal."},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[n]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=4), R.Tensor(dtype=\"float32\", ndim=1), R.Tensor(dtype=\"float32\", ndim=1))"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3,1]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires the input gamma to have as many dimensions as the length of input axes. However, the given one has ndim 2, which is other than the length of axes 1"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float16, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires all the input tensors to have the same dtype. However, the gamma has dtype T.float16 which is other than the input data's dtype T.float32"},
    {"nn.batch_norm", "T[2,3,4,4]:int32, T[3]:int32, T[3]:int32, T[3]:int32, T[3]:int32, 1, 1e-5, True, True, 0.1, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires the input data to have float dtype. However, the given data dtype is T.int32"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 4, 1e-5, True, True, 0.1, True",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10), the input axis 4 is out of range. The input tensor has 4 dimensions, so axis should be in range [-4, 4)."},
    {"nn.batch_norm", "T#4:float32, T[3]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=4), R.Tensor((3,), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T:float32, T[3]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "R.Tuple(R.Tensor(dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"), R.Tensor((3,), dtype=\"float32\"))"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T#1:float32, T[3]:float32, T:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires the input moving_mean to have as many dimensions as the length of input axes. However, the given one has ndim -1, which is other than the length of axes 1"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float32, T[3]:float32, S[3], T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.batch_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which batch_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\"), ir.ArgumentInfo(name=\"moving_mean\", type_info=\"Tensor\", description=\"Running mean of input.\"), ir.ArgumentInfo(name=\"moving_var\", type_info=\"Tensor\", description=\"Running variance of input.\")), attrs_type_key=\"relax.attrs.BatchNormAttrs\", num_inputs=5, support_level=10) requires argument 3 (moving_mean) to be a tensor.  However, the argument R.shape([3]) is instead of type R.Shape([3])"},
    {"nn.batch_norm", "T[2,3,4,4]:float32, T[3]:float32, T[3]:float32, T[3]:float32, 1, 1e-5, True, True, 0.1, True",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.nn.batch_norm(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: int, 6: float, 7: bool, 8: bool, 9: float, 10: bool) -> ir.Expr`. Expected 11 but got 10 arguments"},
    /* ---- layer_norm */
    {"nn.layer_norm", "T[2,3,4]:float32, T[4]:float32, T[4]:float32, [-1], 1e-5, True, True",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"nn.layer_norm", "T[2,3,4]:float32, T[3,4]:float32, T[3,4]:float32, [1,2], 1e-5, True, True",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"nn.layer_norm", "T[n,s,d]:float16, T[d]:float16, T[d]:float16, [2], 1e-5, True, False",
     "R.Tensor((n, s, d), dtype=\"float16\")"},
    {"nn.layer_norm", "T[2,3,4]:float32, T[3]:float32, T[3]:float32, [-1], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10) requires the input gamma, beta, etc., to have size same as the lengths of the data on the given axes. However, there exists (T.int64(4),) and (T.int64(3),) that are unequal."},
    {"nn.layer_norm", "T[2,3,4]:float32, T[4]:float32, T[4]:float32, [1,2], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10) requires the input gamma to have as many dimensions as the length of input axes. However, the given one has ndim 1, which is other than the length of axes 2"},
    {"nn.layer_norm", "T[2,3,4]:float32, T[4]:float32, T[4]:float32, [3], 1e-5, True, True",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"nn.layer_norm", "T[2,3,4]:float32, T[3,4]:float32, T[3,4]:float32, [2,-1], 1e-5, True, True",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 2"},
    {"nn.layer_norm", "T[2,3,4]:int32, T[4]:int32, T[4]:int32, [-1], 1e-5, True, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10) requires the input data to have float dtype. However, the given data dtype is T.int32"},
    {"nn.layer_norm", "T[2,3,4]:float32, T[4]:int32, T[4]:float32, [-1], 1e-5, True, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.layer_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which layer_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.LayerNormAttrs\", num_inputs=3, support_level=10) requires all the input tensors to have the same dtype. However, the gamma has dtype T.int32 which is other than the input data's dtype T.float32"},
    {"nn.layer_norm", "T#3:float32, T[4]:float32, T[4]:float32, [-1], 1e-5, True, True",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"nn.layer_norm", "T[2,3,n]:float32, T[m]:float32, T[m]:float32, [-1], 1e-5, True, True",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    /* ---- dropout */
    {"nn.dropout", "T[2,3]:float32, 0.5",
     "R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), dtype=\"float32\"))"},
    {"nn.dropout", "T[n,3]:float16, 0.1",
     "R.Tuple(R.Tensor((n, 3), dtype=\"float16\"), R.Tensor((n, 3), dtype=\"float16\"))"},
    {"nn.dropout", "T#2:float32, 0.5",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2))"},
    {"nn.dropout", "T[2,3]:int32, 0.5",
     "R.Tuple(R.Tensor((2, 3), dtype=\"int32\"), R.Tensor((2, 3), dtype=\"int32\"))"},
    /* ---- matmul */
    {"matmul", "T[3,4]:float32, T[4,5]:float32, None",
     "R.Tensor((3, 5), dtype=\"float32\")"},
    {"matmul", "T[2,3,4]:float32, T[4,5]:float32, None",
     "R.Tensor((2, 3, 5), dtype=\"float32\")"},
    {"matmul", "T[2,1,3,4]:float32, T[5,4,6]:float32, None",
     "R.Tensor((2, 5, 3, 6), dtype=\"float32\")"},
    {"matmul", "T[4]:float32, T[4,5]:float32, None",
     "R.Tensor((5,), dtype=\"float32\")"},
    {"matmul", "T[3,4]:float32, T[4]:float32, None",
     "R.Tensor((3,), dtype=\"float32\")"},
    {"matmul", "T[4]:float32, T[4]:float32, None",
     "R.Tensor((), dtype=\"float32\")"},
    {"matmul", "T[n,k]:float32, T[k,m]:float32, None",
     "R.Tensor((n, m), dtype=\"float32\")"},
    {"matmul", "T[b,n,k]:float32, T[b,k,m]:float32, None",
     "R.Tensor((b, n, m), dtype=\"float32\")"},
    {"matmul", "T[b,n,k]:float32, T[c,k,m]:float32, None",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"matmul", "T[3,4]:float32, T[5,6]:float32, None",
     "!ValueError: Matmul requires the reduction length of the operands to be equal.  However, the LHS x has shape R.shape([3, 4]), while the RHS y has shape R.shape([5, 6]).  The reduction dimensions of T.int64(4) and T.int64(5) are not equal."},
    {"matmul", "T[2,3,4]:float32, T[3,4,5]:float32, None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.matmul\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=2, support_level=10), the first input shape at dim 0 is T.int64(2) and the second input shape at dim 0 is T.int64(3), which are not broadcastable."},
    {"matmul", "T[3,4]:float32, T[4,5]:float16, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.matmul(x, y, out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((3, 4), dtype=\"float32\")), and datatype T.float16 on the RHS (Type of R.Tensor((4, 5), dtype=\"float16\"))."},
    {"matmul", "T[3,4]:int8, T[4,5]:int8, \"int32\"",
     "R.Tensor((3, 5), dtype=\"int32\")"},
    {"matmul", "T[3,4]:float32, T[4,5]:?, None",
     "R.Tensor((3, 5))"},
    {"matmul", "T[]:float32, T[4,5]:float32, None",
     "!ValueError: Matmul operands must not be scalar.  However, the expression R.matmul(x, y, out_dtype=None) has a LHS of x with type R.Tensor((), dtype=\"float32\"), which is scalar (zero-dimensional) tensor."},
    {"matmul", "T[3,4]:float32, T[]:float32, None",
     "!ValueError: Matmul operands must not be scalar.  However, the expression R.matmul(x, y, out_dtype=None) has a RHS of y with type R.Tensor((), dtype=\"float32\"), which is scalar (zero-dimensional) tensor."},
    {"matmul", "T#2:float32, T[4,5]:float32, None",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"matmul", "T#3:float32, T#2:float32, None",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"matmul", "T:float32, T[4,5]:float32, None",
     "R.Tensor(dtype=\"float32\")"},
    {"matmul", "T#1:float32, T#1:float32, None",
     "R.Tensor(dtype=\"float32\", ndim=0)"},
    {"matmul", "T[3,4]:float32, P:float32, None",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.matmul\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=2, support_level=10) requires argument 1 (x2) to be a tensor.  However, the argument y is instead of type T.float32"},
    /* ---- binary */
    {"add", "T[2,3]:float32, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"add", "T[2,1]:float32, T[1,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"add", "T[4,2,3]:float32, T[3]:float32",
     "R.Tensor((4, 2, 3), dtype=\"float32\")"},
    {"add", "T[n,3]:float32, T[n,1]:float32",
     "R.Tensor((n, 3), dtype=\"float32\")"},
    {"add", "T[n,3]:float32, T[m,3]:float32",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"add", "T[2,3]:float32, T[4,3]:float32",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.add\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=2, support_level=10), the first input shape at dim 0 is T.int64(2) and the second input shape at dim 0 is T.int64(4), which are not broadcastable."},
    {"add", "T[5,2,3]:float32, T[4,3]:float32",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.add\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=2, support_level=10), the first input shape at dim 1 is T.int64(2) and the second input shape at dim 0 is T.int64(4), which are not broadcastable."},
    {"add", "T[2,3]:float32, T#2:float32",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"add", "T[2,3]:float32, T:float32",
     "R.Tensor(dtype=\"float32\")"},
    {"add", "T$s#2:float32, T$s#2:float32",
     "R.Tensor(s, dtype=\"float32\")"},
    {"add", "T$s#2:float32, T[2,3]:float32",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"add", "T[2,3]:float32, P:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"add", "P:float32, P:float32",
     "R.Prim(\"float32\")"},
    {"add", "P:int32, P:float32",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.add(x, y) uses datatype T.int32 on the LHS (Type of T.int32), and datatype T.float32 on the RHS (Type of T.float32)."},
    {"add", "T[2,3]:?, T[2,3]:float32",
     "R.Tensor((2, 3))"},
    {"add", "T[2,3]:bool, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    {"add", "T[2,3]:float32, T[2,3]:bool",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"add", "T[2,3]:float32, S[2,3]",
     "!TypeError: Check failed: (rhs_ty.as<PrimTypeNode>() || rhs_ty.as<TensorTypeNode>()) is false: Arguments to binary operators must be either R.Tensor or R.Prim types, but expression R.add(x, R.shape([2, 3])) has RHS R.shape([2, 3]), which has Type R.Shape([2, 3])"},
    {"add", "S[2,3], T[2,3]:float32",
     "!TypeError: Check failed: (lhs_ty.as<PrimTypeNode>() || lhs_ty.as<TensorTypeNode>()) is false: Arguments to binary operators must be either R.Tensor or R.Prim types, but expression R.add(R.shape([2, 3]), x) has LHS R.shape([2, 3]), which has Type R.Shape([2, 3])"},
    {"subtract", "T[2,3]:int32, T[3]:int32",
     "R.Tensor((2, 3), dtype=\"int32\")"},
    {"multiply", "T[1]:float32, T[n,m]:float32",
     "R.Tensor((n, m), dtype=\"float32\")"},
    {"divide", "T[2,3]:float32, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"power", "T[2,3]:float32, T[1]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"maximum", "T[2,3]:float32, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"minimum", "T[2,3]:float32, T[2,4]:float32",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.minimum\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=2, support_level=10), the first input shape at dim 1 is T.int64(3) and the second input shape at dim 1 is T.int64(4), which are not broadcastable."},
    {"equal", "T[2,3]:float32, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    {"less", "T[2,3]:int32, T[1]:int32",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    {"greater", "T[n]:float32, T[n]:float32",
     "R.Tensor((n,), dtype=\"bool\")"},
    {"greater", "P:int64, P:int64",
     "R.Prim(\"bool\")"},
    {"equal", "T[2,3]:float32, T[2,3]:int32",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    {"equal", "T[2,3]:?, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"bool\")"},
    /* ---- unary math, predicates */
    {"log", "T[2,n]:float32", "R.Tensor((2, n), dtype=\"float32\")"},
    {"log", "T[2,3]:int32",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.log\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"abs", "T[2,3]:int8", "R.Tensor((2, 3), dtype=\"int8\")"},
    {"isnan", "T#2:?", "R.Tensor(dtype=\"bool\", ndim=2)"},
    {"isfinite", "T[n]:int32", "R.Tensor((n,), dtype=\"bool\")"},
    /* ---- binary: more arithmetic, comparison, logical, bitwise */
    {"floor_mod", "T[2,1]:int32, T[3]:int32", "R.Tensor((2, 3), dtype=\"int32\")"},
    {"not_equal", "T[n,1]:float32, T[1,m]:int64", "R.Tensor((n, m), dtype=\"bool\")"},
    {"logical_and", "T[2,3]:bool, T[2,3]:int32", "R.Tensor((2, 3), dtype=\"bool\")"},
    {"bitwise_and", "T[2,3]:int32, T[2,3]:float32",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.bitwise_and(x, y) uses datatype T.int32 on the LHS (Type of R.Tensor((2, 3), dtype=\"int32\")), and datatype T.float32 on the RHS (Type of R.Tensor((2, 3), dtype=\"float32\"))."},
    /* ---- creation */
    {"zeros", "S[2,n], \"float32\"", "R.Tensor((2, n), dtype=\"float32\")"},
    {"ones", "V$s#2, \"int8\"", "R.Tensor(s, dtype=\"int8\")"},
    {"zeros", "T[2]:int64, \"float32\"",
     "!TypeError: Ones/Zeros requires the input shape to be a Shape. However, the given one is relax.TensorType"},
    {"zeros", "S[2], None",
     "!!TypeError: Mismatched type on argument #1 when calling: `relax.op.zeros(0: ir.Expr, 1: DataType) -> ir.Expr`. Expected `DataType` but got `None`"},
    {"full", "S[2,3], T[]:float32, None", "R.Tensor((2, 3), dtype=\"float32\")"},
    {"full", "S[2,3], T[1]:float32, \"int32\"",
     "!ValueError: Full requires the input fill value to be zero rank Tensor. However, the given one is R.Tensor((1,), dtype=\"float32\")"},
    {"full_like", "T[n,3]:int32, T[]:float32, None", "R.Tensor((n, 3), dtype=\"int32\")"},
    {"full_like", "T[2,3]:float32, T#1:float32, None",
     "!ValueError: FullLike requires the input fill value to be zero rank Tensor. However, the given one has ndim1"},
    {"zeros_like", "T#2:float32, \"int8\"", "R.Tensor(dtype=\"int8\", ndim=2)"},
    {"eye", "3, 4, 1, \"int32\"", "R.Tensor((3, 4), dtype=\"int32\")"},
    {"eye", "D n, D m, 2, \"float32\"", "R.Tensor((n, m), dtype=\"float32\")"},
    {"eye", "P:int32, P:int32, 0, \"float32\"",
     "!InternalError: Check failed: (value.ty().MatchesElementType(DLDataTypeCode::kDLInt, 64)) is false: the value in ShapeType can only have dtype of int64"},
    {"eye_like", "T[3,4]:float32, 1, None", "R.Tensor((3, 4), dtype=\"float32\")"},
    {"eye_like", "T#2:float32, 0, None", "!RuntimeError: Back optional access"},
    {"eye_like", "T[4]:float32, 0, None",
     "!ValueError: Eye_like expects the input tensor to be 2-dimensional, but got 1 dimensions"},
    {"arange", "0, 10, 3, \"int64\"", "R.Tensor((4,), dtype=\"int64\")"},
    {"arange", "F(0.5), 3, 1, \"float32\"", "R.Tensor((3,), dtype=\"float32\")"},
    {"arange", "0, D n, 2, \"int64\"", "R.Tensor(((n + 1) // 2,), dtype=\"int64\")"},
    {"arange", "0, 10, 0, \"int64\"", "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"arange", "0, 5, F(0), \"float32\"", "!InternalError: Check failed: fb->value != 0 (0 vs. 0) : Divide by zero"},
    {"tril", "T[2,3,4]:int32, 1", "R.Tensor((2, 3, 4), dtype=\"int32\")"},
    {"triu", "T[4]:float32, 0",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.triu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"k\", type_info=\"PrimExpr\", description=\"The offset of the diagonal.\")), attrs_type_key=\"\", num_inputs=2, support_level=10) requires the input tensor to have at least two dimensions. However, the given input has 1 dimension(s)."},
    /* ---- shape ops */
    {"shape_of", "T[2,n]:float32", "R.Shape([2, n])"},
    {"shape_of", "T$s#3:float32", "R.Shape(ndim=3)"},
    {"shape_of", "S[2]",
     "!InternalError: Check failed: (tensor_ty) is false: shape_of expects a tensor input, but received R.Shape([2]); use MatchCast if necessary"},
    {"shape_to_tensor", "V$s#3", "R.Tensor((3,), dtype=\"int64\")"},
    {"shape_to_tensor", "T[2]:int64", "!InternalError: Check failed: (ty) is false: "},
    {"tensor_to_shape", "T[3]:int64", "R.Shape(ndim=3)"},
    {"tensor_to_shape", "T[n]:int64", "R.Shape(ndim=-1)"},
    {"tensor_to_shape", "T[2,3]:int64",
     "!InternalError: Check failed: tensor_ty->ndim == 1 (2 vs. 1) : relax.tensor_to_shape expected argument to be 1-d, but R.tensor_to_shape(x) has argument x with type R.Tensor((2, 3), dtype=\"int64\")"},
    {"size", "T:?", "R.Tensor((), dtype=\"int64\")"},
    /* ---- reshape */
    {"reshape", "T[2,3,4]:float32, S[6,4]",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    {"reshape", "T[2,3,4]:float32, [6,4]",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    {"reshape", "T[2,3,4]:float32, [0,-1]",
     "R.Tensor((2, 12), dtype=\"float32\")"},
    {"reshape", "T[2,3,4]:float32, [-1]",
     "R.Tensor((24,), dtype=\"float32\")"},
    {"reshape", "T[2,3,4]:float32, [4,0,-1]",
     "R.Tensor((4, 3, 2), dtype=\"float32\")"},
    {"reshape", "T[2,3,4]:float32, [5,5]",
     "!ValueError: Reshape expects the new shape to be convertible from the old shape. However, the old shape is R.shape([2, 3, 4]), with product T.int64(24), while the new shape is R.shape([5, 5]), with product T.int64(25)"},
    {"reshape", "T[2,3,4]:float32, [-1,-1]",
     "!!InternalError: Check failed: dim_to_infer == -1 (0 vs. -1) : Reshape accepts at most one \"-1\" in the new shape. However, there are multiple \"-1\" in the given new shape  (-1, -1)"},
    {"reshape", "T[2,3,4]:float32, [0,-2]",
     "!!InternalError: Check failed: (int_len == nullptr || int_len->value > 0) is false: Reshape requires all values in the new shape to be positive except a single \"-1\". However, the given new shape is (0, -2)"},
    {"reshape", "T[2,3,4]:float32, [7,-1]",
     "!ValueError: Reshape expects the new shape to be convertible from the old shape. However, the old shape is R.shape([2, 3, 4]), with product T.int64(24), while the new shape is R.shape([7, 3]), with product T.int64(21)"},
    {"reshape", "T[n,3,4]:float32, [-1,4]",
     "R.Tensor((n * 3, 4), dtype=\"float32\")"},
    {"reshape", "T[n,3,4]:float32, [D n,12]",
     "R.Tensor((n, 12), dtype=\"float32\")"},
    {"reshape", "T[n,3,4]:float32, S[m,12]",
     "R.Tensor((m, 12), dtype=\"float32\")"},
    {"reshape", "T#3:float32, [-1]",
     "!!InternalError: Check failed: (data_ty->shape.has_value()) is false: Reshape expects the input tensor to have known shape when there is some dimension length to infer. However, the given input has no shape."},
    {"reshape", "T#3:float32, [2,0]",
     "!!InternalError: Check failed: (data_ty->shape.has_value()) is false: Reshape expects the input tensor to have known shape when there is some dimension length to infer. However, the given input has no shape."},
    {"reshape", "T#3:float32, [6,4]",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    {"reshape", "T$s#3:float32, V$s#3",
     "R.Tensor(s, dtype=\"float32\")"},
    {"reshape", "T$s#3:float32, [6,4]",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    {"reshape", "T[2,3]:float32, V$s#2",
     "R.Tensor(s, dtype=\"float32\")"},
    {"reshape", "T[2,3]:float32, S[2,3], S[1]",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.reshape(0: ir.Expr, 1: Variant<ir.Expr, Array<ir.Expr>>) -> ir.Expr`. Expected 2 but got 3 arguments"},
    {"reshape", "S[2,3], S[6]",
     "!TypeError: Reshape requires the input data to be Tensor. However, the given one is relax.ShapeType"},
    {"reshape", "T[2,3]:float32, T[6]:float32",
     "!TypeError: Reshape requires the input new shape to be Shape. However, the given one is relax.TensorType"},
    /* ---- permute_dims */
    {"permute_dims", "T[2,3,4]:float32, None",
     "R.Tensor((4, 3, 2), dtype=\"float32\")"},
    {"permute_dims", "T[2,3,4]:float32, [0,2,1]",
     "R.Tensor((2, 4, 3), dtype=\"float32\")"},
    {"permute_dims", "T[2,3,4]:float32, [-1,0,1]",
     "R.Tensor((4, 2, 3), dtype=\"float32\")"},
    {"permute_dims", "T[2,3,4]:float32, [0,1,2]",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"permute_dims", "T[n,m]:float32, [1,0]",
     "R.Tensor((m, n), dtype=\"float32\")"},
    {"permute_dims", "T[2,3,4]:float32, [0,1]",
     "!ValueError: PermuteDims expects the number of input axes to equal the ndim of the input tensor. However, the tensor ndim is 3 while the given number of axes is 2"},
    {"permute_dims", "T[2,3,4]:float32, [0,1,1]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.permute_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.PermuteDimsAttrs\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 1"},
    {"permute_dims", "T[2,3,4]:float32, [0,1,3]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.permute_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.PermuteDimsAttrs\", num_inputs=1, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"permute_dims", "T#3:float32, [1,0,2]",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"permute_dims", "T:float32, [1,0]",
     "!InternalError: Check failed: ndim != kUnknownNDim (-1 vs. -1) : The ndim is required to be known for this function."},
    {"permute_dims", "T:float32, None",
     "R.Tensor(dtype=\"float32\")"},
    {"permute_dims", "T$s#2:float32, [1,0]",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"permute_dims", "T$s#2:float32, [0,1]",
     "R.Tensor(s, dtype=\"float32\")"},
    /* ---- expand_dims */
    {"expand_dims", "T[2,3]:float32, [0]",
     "R.Tensor((1, 2, 3), dtype=\"float32\")"},
    {"expand_dims", "T[2,3]:float32, [-1]",
     "R.Tensor((2, 3, 1), dtype=\"float32\")"},
    {"expand_dims", "T[2,3]:float32, [1,3]",
     "R.Tensor((2, 1, 3, 1), dtype=\"float32\")"},
    {"expand_dims", "T[2,3]:float32, [4]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.expand_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.ExpandDimsAttrs\", num_inputs=1, support_level=10), the input axis 4 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"expand_dims", "T[2,3]:float32, [-5]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.expand_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.ExpandDimsAttrs\", num_inputs=1, support_level=10), the input axis -5 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"expand_dims", "T[2,3]:float32, [1,1]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.expand_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.ExpandDimsAttrs\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 1"},
    {"expand_dims", "T[2,3]:float32, [1,-3]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.expand_dims\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.ExpandDimsAttrs\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 1"},
    {"expand_dims", "T[n,m]:float32, [0,-1]",
     "R.Tensor((1, n, m, 1), dtype=\"float32\")"},
    {"expand_dims", "T#2:float32, [0]",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"expand_dims", "T:float32, [0]",
     "R.Tensor(dtype=\"float32\")"},
    {"expand_dims", "T[2,3]:float32, []",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    /* ---- squeeze */
    {"squeeze", "T[1,3,1]:float32, None",
     "R.Tensor((3,), dtype=\"float32\")"},
    {"squeeze", "T[1,3,1]:float32, [0]",
     "R.Tensor((3, 1), dtype=\"float32\")"},
    {"squeeze", "T[1,3,1]:float32, [-1,0]",
     "R.Tensor((3,), dtype=\"float32\")"},
    {"squeeze", "T[1,3,1]:float32, [1]",
     "R.Tensor((1, 3, 1), dtype=\"float32\")"},
    {"squeeze", "T[1,3,1]:float32, [3]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.squeeze\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SqueezeAttrs\", num_inputs=1, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"squeeze", "T[1,3,1]:float32, [0,0]",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.squeeze\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SqueezeAttrs\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 0"},
    {"squeeze", "T[n,1]:float32, [0]",
     "R.Tensor((1,), dtype=\"float32\")"},
    {"squeeze", "T[n,1]:float32, None",
     "R.Tensor(dtype=\"float32\")"},
    {"squeeze", "T[n,1]:float32, [1]",
     "R.Tensor((n,), dtype=\"float32\")"},
    {"squeeze", "T#3:float32, [0]",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"squeeze", "T#3:float32, None",
     "R.Tensor(dtype=\"float32\")"},
    {"squeeze", "T:float32, [0]",
     "R.Tensor(dtype=\"float32\")"},
    {"squeeze", "T[1,3,1]:float32, []",
     "R.Tensor((1, 3, 1), dtype=\"float32\")"},
    /* ---- flatten */
    {"flatten", "T[2,3,4]:float32",
     "R.Tensor((24,), dtype=\"float32\")"},
    {"flatten", "T[]:float32",
     "R.Tensor((1,), dtype=\"float32\")"},
    {"flatten", "T[5]:float32",
     "R.Tensor((5,), dtype=\"float32\")"},
    {"flatten", "T[n,3]:float32",
     "R.Tensor((n * 3,), dtype=\"float32\")"},
    {"flatten", "T#3:float32",
     "R.Tensor(dtype=\"float32\", ndim=1)"},
    {"flatten", "T#1:float32",
     "R.Tensor(dtype=\"float32\", ndim=1)"},
    {"flatten", "T#0:float32",
     "R.Tensor((1,), dtype=\"float32\")"},
    {"flatten", "T:float32",
     "R.Tensor(dtype=\"float32\", ndim=1)"},
    {"flatten", "T$s#1:float32",
     "R.Tensor(s, dtype=\"float32\")"},
    /* ---- concat */
    {"concat", "(T[2,3]:float32, T[4,3]:float32), 0",
     "R.Tensor((6, 3), dtype=\"float32\")"},
    {"concat", "(T[2,3]:float32, T[2,3]:float32, T[2,3]:float32), 0",
     "R.Tensor((6, 3), dtype=\"float32\")"},
    {"concat", "(T[2,3]:float32, T[2,5]:float32), -1",
     "R.Tensor((2, 8), dtype=\"float32\")"},
    {"concat", "(T[2,3]:float32), 0",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"concat", "(T[n,3]:float32, T[m,3]:float32), 0",
     "R.Tensor((n + m, 3), dtype=\"float32\")"},
    {"concat", "(T[n,3]:float32, T[n,3]:float32), 0",
     "R.Tensor((n * 2, 3), dtype=\"float32\")"},
    {"concat", "(T[2,3]:float32, T[2,4]:float32), 0",
     "!ValueError: Concat expects the input tensors to have the same shape on every dimension except the one indicated by the input axis. However, the input contains tensors whose shapes on dimension 1 is T.int64(3) and T.int64(4)"},
    {"concat", "(T[2,3]:float32, T[2,3]:float16), 0",
     "!TypeError: Concat expects all input tensors to have the same dtype. However, the input contains tensors with dtype T.float32 and T.float16"},
    {"concat", "(T[2,3]:float32, T[2,3,1]:float32), 0",
     "!ValueError: Concat expects all input tensors to have same ndim. However, the input contains tensors with ndim 2 and 3"},
    {"concat", "(T[2,3]:float32, T[2,3]:float32), 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.concat\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors.\"),), attrs_type_key=\"relax.attrs.ConcatAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"concat", "(), 0",
     "!ValueError: Concat op expects at least one tensor in the input Tuple. However, the given input Tuple is empty."},
    {"concat", "(T[2,3]:float32, T#2:float32), 0",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"concat", "(T[2,3]:float32, T:float32), 0",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"concat", "(T[2]:float32, T[3]:float32), None",
     "R.Tensor((5,), dtype=\"float32\")"},
    {"concat", "(T[2,3]:float32, T[2,3]:float32), None",
     "!ValueError: Concat expects all input tensors to have same ndim. However, the input contains tensors with ndim 1 and 2"},
    {"concat", "(T[2,3]:float32, P:float32), 0",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.concat\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors.\"),), attrs_type_key=\"relax.attrs.ConcatAttrs\", num_inputs=1, support_level=10) expects the input to be a Tuple of Tensors. However, the given input is T.Tuple(R.Tensor((T.int64(2), T.int64(3)), dtype=\"float32\"), T.float32)"},
    {"concat", "T[2,3]:float32, 0",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.concat\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors.\"),), attrs_type_key=\"relax.attrs.ConcatAttrs\", num_inputs=1, support_level=10) expects the input to be a Tuple of Tensors. However, the given input is relax.TensorType"},
    {"concat", "(T[2,3]:float32, T[2,3]:?), 0",
     "R.Tensor((4, 3))"},
    {"concat", "(T[n,3]:float32, T[4,m]:float32), 0",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    /* ---- split */
    {"split", "T[6,4]:float32, I(3), 0",
     "R.Tuple(R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((2, 4), dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, I(4), 1",
     "R.Tuple(R.Tensor((6, 1), dtype=\"float32\"), R.Tensor((6, 1), dtype=\"float32\"), R.Tensor((6, 1), dtype=\"float32\"), R.Tensor((6, 1), dtype=\"float32\"))"},
    {"split", "T[7,4]:float32, I(3), 0",
     "R.Tuple(R.Tensor((3, 4), dtype=\"float32\"), R.Tensor((3, 4), dtype=\"float32\"), R.Tensor((1, 4), dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, [2,4], 0",
     "R.Tuple(R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((2, 4), dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, [2,5,9], 0",
     "R.Tuple(R.Tensor((2, 4), dtype=\"float32\"), R.Tensor((3, 4), dtype=\"float32\"), R.Tensor((1, 4), dtype=\"float32\"), R.Tensor((0, 4), dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, [1], -1",
     "R.Tuple(R.Tensor((6, 1), dtype=\"float32\"), R.Tensor((6, 3), dtype=\"float32\"))"},
    {"split", "T[n,4]:float32, I(2), 0",
     "R.Tuple(R.Tensor(((n + 1) // 2, 4), dtype=\"float32\"), R.Tensor((n - (n + 1) // 2, 4), dtype=\"float32\"))"},
    {"split", "T[n,4]:float32, [1,3], 0",
     "R.Tuple(R.Tensor((T.max(T.min(1, n) - T.min(0, n), 0), 4), dtype=\"float32\"), R.Tensor((T.max(T.min(3, n) - T.min(1, n), 0), 4), dtype=\"float32\"), R.Tensor((T.max(n - 3, 0), 4), dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, I(1), 0",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    {"split", "T[6,4]:float32, I(0), 0",
     "!!InternalError: Check failed: n_section->value > 0 (0 vs. 0) : Split op expects the input number of sections to be a positive integer. However, the given number of sections is 0"},
    {"split", "T[6,4]:float32, I(2), 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.split\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SplitAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"split", "T#2:float32, I(2), 0",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2))"},
    {"split", "T#2:float32, [1,2], 1",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"float32\", ndim=2))"},
    {"split", "T:float32, I(2), 0",
     "R.Tuple(R.Tensor(dtype=\"float32\"), R.Tensor(dtype=\"float32\"))"},
    {"split", "T[6,4]:float32, [], 0",
     "R.Tensor((6, 4), dtype=\"float32\")"},
    /* ---- strided_slice */
    {"strided_slice", "T[10,8]:float32, (0), (2), (8), None, False",
     "R.Tensor((6, 8), dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (0,1), (2,0), (8,6), (2,3), False",
     "R.Tensor((3, 2), dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (1), (-3), (100), None, False",
     "R.Tensor((10, 3), dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (0), (9), (0), (-2), False",
     "R.Tensor((5, 8), dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (0), (2), (8), None, True",
     "R.Tensor((6, 8), dtype=\"float32\")"},
    {"strided_slice", "T[n,8]:float32, (0), (1), (3), None, False",
     "R.Tensor((T.min(3, n) - T.min(1, n), 8), dtype=\"float32\")"},
    {"strided_slice", "T[n,8]:float32, (0), (1), (3), None, True",
     "R.Tensor((2, 8), dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (2), (0), (3), None, False",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.strided_slice\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The source tensor to be sliced.\"),), attrs_type_key=\"relax.attrs.StridedSliceAttrs\", num_inputs=1, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"strided_slice", "T[10,8]:float32, (0,1), (0), (3), None, False",
     "!!InternalError: Check failed: length == std::get<size_t>(prev) (1 vs. 2) : The strided_slice operator requires that the axes, begin, end, and strides tuples are all the same length.  However, the axes argument ((0, 1)) has 2 elements, while the begin argument ((0,)) has 1 elements."},
    {"strided_slice", "T#2:float32, (0), (0), (3), None, False",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"strided_slice", "T:float32, (0), (0), (3), None, False",
     "R.Tensor(dtype=\"float32\")"},
    {"strided_slice", "T[10,8]:float32, (0), (0), (3), (0), False",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    /* ---- take */
    {"take", "T[5,4]:float32, T[3]:int64, 0, \"fast\"",
     "R.Tensor((3, 4), dtype=\"float32\")"},
    {"take", "T[5,4]:float32, T[3,2]:int32, 1, \"clip\"",
     "R.Tensor((5, 3, 2), dtype=\"float32\")"},
    {"take", "T[5,4]:float32, T[3]:int64, None, \"fast\"",
     "!ValueError: Take op expects the input data to be 1-dimensional tensor when the axis is not specified. However, the given data tensor has ndim 2"},
    {"take", "T[5,4]:float32, T[]:int64, 0, \"fast\"",
     "R.Tensor((4,), dtype=\"float32\")"},
    {"take", "T[5,4]:float32, T[3]:float32, 0, \"fast\"",
     "!TypeError: Take op requires the input indices to have integer dtype. However, the given indices dtype is T.float32"},
    {"take", "T[5,4]:float32, T[3]:int64, 2, \"fast\"",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.take\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The source tensor.\"), ir.ArgumentInfo(name=\"indices\", type_info=\"Tensor\", description=\"The indices of the values to extract.\")), attrs_type_key=\"relax.attrs.TakeAttrs\", num_inputs=2, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"take", "T[n,4]:float32, T[m]:int64, -2, \"wrap\"",
     "R.Tensor((m, 4), dtype=\"float32\")"},
    {"take", "T#2:float32, T[3]:int64, 0, \"fast\"",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"take", "T[5,4]:float32, T#2:int64, 0, \"fast\"",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"take", "T[5,4]:float32, T:int64, 0, \"fast\"",
     "R.Tensor(dtype=\"float32\")"},
    {"take", "T[5,4]:float32, T[3]:int64, 0, \"bad\"",
     "R.Tensor((3, 4), dtype=\"float32\")"},
    /* ---- reductions */
    {"mean", "T[2,3,4]:float32, None, False",
     "R.Tensor((), dtype=\"float32\")"},
    {"mean", "T[2,3,4]:float32, None, True",
     "R.Tensor((1, 1, 1), dtype=\"float32\")"},
    {"mean", "T[2,3,4]:float32, [1], False",
     "R.Tensor((2, 4), dtype=\"float32\")"},
    {"mean", "T[2,3,4]:float32, [1,-1], True",
     "R.Tensor((2, 1, 1), dtype=\"float32\")"},
    {"mean", "T[2,3,4]:float32, [3], False",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.mean\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input data tensor\"),), attrs_type_key=\"\", num_inputs=1, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"mean", "T[2,3,4]:float32, [1,1], False",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.mean\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input data tensor\"),), attrs_type_key=\"\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 1"},
    {"mean", "T[n,3,4]:float32, [2,3], True",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.mean\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input data tensor\"),), attrs_type_key=\"\", num_inputs=1, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"sum", "T[n,3,4]:int32, [0], False",
     "R.Tensor((3, 4), dtype=\"int32\")"},
    {"sum", "T#3:float32, [0], False",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"sum", "T#3:float32, [0], True",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"sum", "T#3:float32, None, False",
     "R.Tensor((), dtype=\"float32\")"},
    {"max", "T:float32, [0], False",
     "R.Tensor(dtype=\"float32\")"},
    {"max", "T:float32, None, False",
     "R.Tensor((), dtype=\"float32\")"},
    {"max", "T[2,3]:float32, [], False",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"mean", "T[2,3]:int32, None, False",
     "R.Tensor((), dtype=\"int32\")"},
    /* ---- astype */
    {"astype", "T[2,3]:float32, \"float16\"",
     "R.Tensor((2, 3), dtype=\"float16\")"},
    {"astype", "T[n]:int32, \"bool\"",
     "R.Tensor((n,), dtype=\"bool\")"},
    {"astype", "T#2:?, \"int8\"",
     "R.Tensor(dtype=\"int8\", ndim=2)"},
    {"astype", "T:float32, \"float32\"",
     "R.Tensor(dtype=\"float32\")"},
    {"astype", "P:float32, \"int32\"",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.astype\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor\"),), attrs_type_key=\"relax.attrs.AstypeAttrs\", num_inputs=1, support_level=10) requires argument 0 (x) to be a tensor.  However, the argument x is instead of type T.float32"},
    /* ---- broadcast_to */
    {"broadcast_to", "T[1,3]:float32, S[4,3]",
     "R.Tensor((4, 3), dtype=\"float32\")"},
    {"broadcast_to", "T[3]:float32, S[2,4,3]",
     "R.Tensor((2, 4, 3), dtype=\"float32\")"},
    {"broadcast_to", "T[2,3]:float32, S[3]",
     "!ValueError: broadcast_to expects the input shape to have the number of ndim at least as the input tensor's. However, the given tensor has ndim 2 while the target shape has ndim 1"},
    {"broadcast_to", "T[2,3]:float32, S[4,3]",
     "!ValueError: broadcast_to expects the input tensor shape is broadcastable to the target shape. The target shape at dim 0 is T.int64(4) while the input tensor shape at dim 0 is T.int64(2), which are not equal."},
    {"broadcast_to", "T[1,n]:float32, S[4,m]",
     "R.Tensor((4, m), dtype=\"float32\")"},
    {"broadcast_to", "T[2,3]:float32, V$s#2",
     "R.Tensor(s, dtype=\"float32\")"},
    {"broadcast_to", "T#2:float32, S[4,3]",
     "R.Tensor((4, 3), dtype=\"float32\")"},
    {"broadcast_to", "T:float32, S[4,3]",
     "R.Tensor((4, 3), dtype=\"float32\")"},
    {"broadcast_to", "T[2,3]:float32, T[2,3]:float32",
     "!TypeError: broadcast_to requires the input new shape to be Shape. However, the given one is relax.TensorType"},
    /* ---- clip */
    {"clip", "T[2,3]:float32, I(0), I(6)",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"clip", "T[2,3]:float32, F(0.0), F(6.0)",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"clip", "T[n]:int32, I(0), I(6)",
     "R.Tensor((n,), dtype=\"int32\")"},
    {"clip", "T#2:float32, I(0), I(6)",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"clip", "T[2,3]:float32, T[1]:float32, I(6)",
     "!!InternalError: Check failed: (min.as<PrimExpr>()) is false: The argument `min` of relax.clip is expected to be a PrimExpr, but got ir.Var"},
    /* ---- where */
    {"where", "T[2,3]:bool, T[2,3]:float32, T[2,3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"where", "T[2,1]:bool, T[1,3]:float32, T[3]:float32",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"where", "T[2,3]:bool, T[2,3]:float32, T[2,3]:int32",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.where(x, y, z) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 3), dtype=\"float32\")), and datatype T.int32 on the RHS (Type of R.Tensor((2, 3), dtype=\"int32\"))."},
    {"where", "T[2,3]:int32, T[2,3]:float32, T[2,3]:float32",
     "!TypeError: Where requires the input condition tensor to have boolean dtype. However, the given condition dtype is T.int32"},
    {"where", "T[2,3]:bool, T[2,3]:float32, T[4,3]:float32",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.where\", description=\"\", arguments=(ir.ArgumentInfo(name=\"condition\", type_info=\"Tensor\", description=\"When True, yield `x1`; otherwise, yield `x2`.\"), ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=3, support_level=10), the first input shape at dim 0 is T.int64(2) and the second input shape at dim 0 is T.int64(4), which are not broadcastable."},
    {"where", "T[n,m]:bool, T[n,1]:float32, T[1,m]:float32",
     "R.Tensor((n, m), dtype=\"float32\")"},
    {"where", "T#2:bool, T[2,3]:float32, T[2,3]:float32",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"where", "T[2,3]:bool, T[2,3]:?, T[2,3]:float32",
     "R.Tensor((2, 3))"},
    {"where", "T[2,3]:bool, P:float32, T[2,3]:float32",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.where\", description=\"\", arguments=(ir.ArgumentInfo(name=\"condition\", type_info=\"Tensor\", description=\"When True, yield `x1`; otherwise, yield `x2`.\"), ir.ArgumentInfo(name=\"x1\", type_info=\"Tensor\", description=\"The first input tensor.\"), ir.ArgumentInfo(name=\"x2\", type_info=\"Tensor\", description=\"The second input tensor.\")), attrs_type_key=\"\", num_inputs=3, support_level=10) requires argument 1 (x1) to be a tensor.  However, the argument y is instead of type T.float32"},
    /* ---- stack / flip / tile / one_hot */
    {"stack", "(T[2,3]:float32, T[2,3]:float32), 0",
     "R.Tensor((2, 2, 3), dtype=\"float32\")"},
    {"stack", "(T[2,3]:float32, T[2,3]:float32), -1",
     "R.Tensor((2, 3, 2), dtype=\"float32\")"},
    {"stack", "(T[2,3]:float32, T[2,3]:float32), 3",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.stack\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors to stack\"),), attrs_type_key=\"relax.attrs.StackAttrs\", num_inputs=1, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"stack", "(T[n,3]:float32, T[n,3]:float32), None",
     "R.Tensor((2, n, 3), dtype=\"float32\")"},
    {"stack", "(T[n,3]:float32, T[m,3]:float32), 1",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"stack", "(T[2,3]:float32, T[2,4]:float32, T[1,3]:float32), 0",
     "!ValueError: Stack expects all input tensors to have identical shapes. Dimension 0 differs between tensors: T.int64(2) vs T.int64(1)"},
    {"stack", "(T[2,3]:float32, T[2,3]:int32), 0",
     "!TypeError: Stack expects all input tensors to have the same dtype. Found T.float32 and T.int32"},
    {"stack", "(T:float32, T[2,3]:float32), 0",
     "!ValueError: Stack expects all input tensors to have same ndim. Found -1 and 2"},
    {"stack", "(T[2,3]:float32, T:float32), 0",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"stack", "(T[2,3]:?, T#2:float32), 1",
     "R.Tensor(ndim=3)"},
    {"stack", "(), 0",
     "!ValueError: Stack op expects at least one tensor in the input Tuple. However, the given input Tuple is empty."},
    {"stack", "T[2,3]:float32, 0",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.stack\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors to stack\"),), attrs_type_key=\"relax.attrs.StackAttrs\", num_inputs=1, support_level=10) expects the input to be a Tuple of Tensors. However, the given input is relax.TensorType"},
    {"stack", "(T[2]:float32, S[2]), 0",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.stack\", description=\"\", arguments=(ir.ArgumentInfo(name=\"tensors\", type_info=\"Tuple of Tensors\", description=\"The input list of tensors to stack\"),), attrs_type_key=\"relax.attrs.StackAttrs\", num_inputs=1, support_level=10) expects the input to be a Tuple of Tensors. However, the given input is T.Tuple(R.Tensor((T.int64(2),), dtype=\"float32\"), R.Shape([T.int64(2)]))"},
    {"stack", "(T[2,3]:float32, T[2,3]:float32), 4294967298",
     "R.Tensor((2, 3, 2), dtype=\"float32\")"},
    {"flip", "T[2,3]:float32, 1",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"flip", "T[2,3]:float32, -3",
     "!ValueError: Flip requires the input axis belongs range [-ndim, ndim - 1]. However, the input axis is -3, while ndim is 2"},
    {"flip", "T:float32, 5",
     "R.Tensor(dtype=\"float32\")"},
    {"flip", "T$s#2:int32, 4294967297",
     "R.Tensor(s, dtype=\"int32\")"},
    {"flip", "P:int64, 0",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.flip\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.FlipAttrs\", num_inputs=1, support_level=10) requires argument 0 (data) to be a tensor.  However, the argument x is instead of type T.int64"},
    {"tile", "T[2,3]:float32, [2]",
     "R.Tensor((2, 6), dtype=\"float32\")"},
    {"tile", "T[n,m]:int32, [2,3,4]",
     "R.Tensor((2, n * 3, m * 4), dtype=\"int32\")"},
    {"tile", "T[n,m]:int32, [0,1]",
     "R.Tensor((0, m), dtype=\"int32\")"},
    {"tile", "T#2:float32, [2,2,2]",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"tile", "T:?, [2]",
     "R.Tensor"},
    {"one_hot", "T[2,3]:int32, F(1.0), F(0.0), 5, -1",
     "R.Tensor((2, 3, 5), dtype=\"float64\")"},
    {"one_hot", "T[2,3]:int64, I(1), I(0), 5, 1",
     "R.Tensor((2, 5, 3), dtype=\"int64\")"},
    {"one_hot", "T[2,3]:int32, F(1.0), F(0.0), 5, -4",
     "!InternalError: Check failed: (0 <= axis && axis <= static_cast<int>(output_shape.size())) is false: one_hot: axis must be in the range of [0, 2], but got -1"},
    {"one_hot", "T[2,3]:float32, F(1.0), F(0.0), 5, -1",
     "!TypeError: one_hot op requires the input indices to have integer dtype. However, the given indices dtype is T.float32"},
    {"one_hot", "T[2,3]:int32, F(1.0), I(0), 5, -1",
     "!!InternalError: Check failed: (on_dtype == off_dtype) is false: one_hot: on_value and off_value must have the same dtype, but got T.float64 and T.int64"},
    {"one_hot", "T[2,3]:int32, F(1.0), F(0.0), 0, -1",
     "!!InternalError: Check failed: (depth > 0) is false: one_hot: depth must be positive, but got 0"},
    {"one_hot", "T#2:int32, P:float32, P:float32, 3, 7",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"one_hot", "T:int32, F(1.0), F(0.0), 3, 7",
     "R.Tensor(dtype=\"float64\")"},
    /* ---- gather / scatter / dynamic_strided_slice */
    {"gather_elements", "T[3,4]:float32, T[3,2]:int32, 1",
     "R.Tensor((3, 2), dtype=\"float32\")"},
    {"gather_elements", "T[3,4]:float32, T[3,2]:uint8, 1",
     "!TypeError: GatherElements requires the input indices to have int64 dtype. However, the given indices dtype is T.uint8"},
    {"gather_elements", "T[3,4]:float32, T[3]:int64, 5",
     "!ValueError: GatherElements requires axis to be within the input dimension range [-2, 1]. However, the given axis is 5"},
    {"gather_elements", "T[3,4]:float32, T[3]:int64, 0",
     "!ValueError: GatherElements requires data and indices to have the same rank. However, data rank is 2 while indices rank is 1"},
    {"gather_elements", "T[n,4]:float32, T$s#2:int64, 0",
     "R.Tensor(s, dtype=\"float32\")"},
    {"gather_elements", "T:float32, T[3,2]:int64, 9",
     "R.Tensor(dtype=\"float32\")"},
    {"gather_elements", "P:int64, T[3,2]:int64, 0",
     "!TypeError: GatherElements requires the input data to be a Tensor. However, the given one is ir.PrimType"},
    {"gather_nd", "T[2,3,4]:float32, T[5,2]:int64, 0",
     "R.Tensor((5, 4), dtype=\"float32\")"},
    {"gather_nd", "T[2,3,4]:float32, T[2,5,1]:int64, 1",
     "R.Tensor((2, 5, 4), dtype=\"float32\")"},
    {"gather_nd", "T[2,3,4]:float32, T[5,4]:int64, 0",
     "!ValueError: GatherND requires the last dimension of indices to be less than or equal to the rank of data minus batch_dims. However, the given shapes are indices: R.shape([5, 4]), data: R.shape([2, 3, 4]), with batch_dims=0"},
    {"gather_nd", "T[2,3,4]:float32, T[5,2]:int32, 0",
     "!TypeError: GatherND requires the input indices to have int64 dtype. However, the given indices dtype is T.int32"},
    {"gather_nd", "T[2,3,4]:float32, T[5,2]:int64, -1",
     "!InternalError: Check failed: attrs->batch_dims >= 0 (-1 vs. 0) : "},
    {"gather_nd", "T[2,3,4]:float32, T[]:int64, 0",
     "!ValueError: GatherND batch_dims cannot exceed indices.ndim-1. However, got batch_dims=0, indices.ndim=0"},
    {"gather_nd", "T#2:float32, T[5,1]:int64, 0",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"gather_nd", "T#2:float32, T[5,6]:int64, 0",
     "!InternalError: Check failed: (ndim >= -1) is false: ndim of TensorType must be >= -1, but got -3"},
    {"gather_nd", "T[2,3,4]:float32, T[5,k]:int64, 0",
     "R.Tensor(dtype=\"float32\")"},
    {"scatter_elements", "T[3,4]:float32, T[2,4]:int64, T[2,4]:float32, 0, \"update\"",
     "R.Tensor((3, 4), dtype=\"float32\")"},
    {"scatter_elements", "T[3,4]:float32, T[2,4]:int64, T[2,5]:float32, 0, \"add\"",
     "!ValueError: ScatterElements op requires the indices tensor to have the same shape with updates tensor. However, the given shapes are indices: R.shape([2, 4]), updates: R.shape([2, 5])"},
    {"scatter_elements", "T[3,4]:float32, T[2]:float32, T[3]:float16, 0, \"update\"",
     "!ValueError: ScatterElements op requires the data tensor to have the same rank with indices tensor. However, the given dimensions are indices: 1, data: 2"},
    {"scatter_elements", "T[3,4]:float32, T[2,4]:bool, T[2,4]:float32, 0, \"update\"",
     "!TypeError: ScatterElements op requires the input indices to have integer dtype. However, the given indices dtype is T.bool"},
    {"scatter_elements", "T[3,4]:float32, T[2,4]:int64, T[2,4]:float16, 0, \"update\"",
     "!TypeError: ScatterElements op requires the input data to have same type with updates. However, the given types are data: T.float32, updates: T.float16"},
    {"scatter_elements", "T:?, T[2,4]:float32, T[2]:float32, 0, \"update\"",
     "R.Tensor"},
    {"scatter_elements", "T$s#2:float32, T[2,4]:int64, T[2,4]:float32, 0, \"update\"",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,1]:int64, T[2,5,6]:float32, \"update\"",
     "R.Tensor((4, 5, 6), dtype=\"float32\")"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,1]:int64, T[2,5,7]:float32, \"add\"",
     "!ValueError: ScatterND op requires the updates tensor to have the shape with constraint: `updates.shape = indices.shape[:-1] + data.shape[K:]`, but got updates.shape: R.shape([2, 5, 7]), indices.shape: R.shape([2, 1]), data.shape: R.shape([4, 5, 6])"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,4]:int64, T[2]:float32, \"update\"",
     "!ValueError: ScatterND op requires the updates tensor to have the rank of `data tensor + indices tensor - last axis of indices tensor - 1`. However, the given shapes are data: R.shape([4, 5, 6]), indices: R.shape([2, 4]), updates: R.shape([2])"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,n]:int64, T[2,5,6]:float32, \"update\"",
     "!ValueError: ScatterND needs a static shape for the last axis of indices, got (T.int64(2), n)"},
    {"scatter_nd", "T[4,5,6]:float32, T[]:int64, T[2,5,6]:float32, \"update\"",
     "!IndexError: Index -1 out of bounds 0"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,1]:int64, T[2,5,6]:?, \"update\"",
     "!ValueError: ScatterND op requires the input data and updates to have known dtype. However, the given types are data: T.float32, updates: None"},
    {"scatter_nd", "T[4,5,6]:float32, T[2,1]:float32, T[2,5,6]:float32, \"update\"",
     "!TypeError: ScatterND op requires the input indices to have integer dtype. However, the given indices dtype is T.float32"},
    {"scatter_nd", "T[4,5,6]:float32, S[1], T[2,5]:float32, \"update\"",
     "!TypeError: ScatterND op requires the input indices to be a tensor. However, the given type is relax.expr.ShapeExpr"},
    {"scatter_nd", "T#3:float32, T[2,1]:int64, T[2,5,6]:float32, \"update\"",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:int64, T[2]:int64, T[2]:int64",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"dynamic_strided_slice", "T[8,9]:float32, T[3]:float32, T[2,1]:int64, T[2]:int64",
     "!InternalError: Check failed: num_elem->value == n_axis (3 vs. 2) : Dynamic strided slice requires the number of indices in begin to equal the number of axes."},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:float32, T[2]:int64, T[2]:int64",
     "!InternalError: Check failed: (ty->dtype == PrimType::Int(64)) is false: Dynamic strided_slice expects the input beginvalues to be all int64. However, begin has dtype T.float32."},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:int64, T#1:int64, T[2]:int64",
     "!InternalError: Check failed: (shape) is false: Dynamic strided slice requires the input end to have well-defined shape."},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:int64, T[n]:int64, T[2]:int64",
     "!InternalError: Check failed: (num_elem) is false: Dynamic strided slice requires the input end to have a known integer shape value."},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:int64, T[2]:int64, S[2]",
     "!InternalError: Check failed: (ty) is false: Dynamic strided slice requires the input strides to be have the type. Please try normalizing the inputs."},
    {"dynamic_strided_slice", "T[8,9]:float32, T[2]:int64, T[2]:int64, T[2,2]:int64",
     "!InternalError: Check failed: ty->ndim == 1 (2 vs. 1) : Dynamic strided slice requires strides to be 1d tensor (list of values)."},
    {"dynamic_strided_slice", "T:?, T[3]:float32, T[2,1]:int64, T[2]:int64",
     "R.Tensor"},
    {"dynamic_strided_slice", "P:int64, T[2]:int64, T[2]:int64, T[2]:int64",
     "!InternalError: Check failed: (data_ty) is false: "},
    /* ---- argmax / argmin / min / prod / variance / std / cumsum / cumprod */
    {"argmax", "T[2,3,4]:float32, None, False",
     "R.Tensor((), dtype=\"int64\")"},
    {"argmax", "T[2,3,4]:float32, 1, True",
     "R.Tensor((2, 1, 4), dtype=\"int64\")"},
    {"argmin", "T[n,m]:int32, -1, False",
     "R.Tensor((n,), dtype=\"int64\")"},
    {"argmin", "T#2:float32, None, True",
     "R.Tensor((1, 1), dtype=\"int64\")"},
    {"argmax", "T#2:float32, 5, False",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.argmax\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input data tensor\"),), attrs_type_key=\"\", num_inputs=1, support_level=10), the input axis 5 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"argmax", "T:?, None, True",
     "R.Tensor(dtype=\"int64\")"},
    {"min", "T[2,3,4]:float32, [0,2], True",
     "R.Tensor((1, 3, 1), dtype=\"float32\")"},
    {"prod", "T[n,3]:int32, None, False",
     "R.Tensor((), dtype=\"int32\")"},
    {"variance", "T#3:float32, [1], False",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"std", "T[2,3,4]:float32, [0,-3], False",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.std\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input data tensor\"),), attrs_type_key=\"\", num_inputs=1, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 0"},
    {"cumsum", "T[n,2,m]:float32, None, None, False",
     "R.Tensor((n * 2 * m,), dtype=\"float32\")"},
    {"cumsum", "T[2,3]:float32, 1, \"int64\", True",
     "R.Tensor((2, 3), dtype=\"int64\")"},
    {"cumprod", "T$s#2:float32, 5, None, False",
     "R.Tensor(s, dtype=\"float32\")"},
    {"cumprod", "T#2:float32, None, \"float16\", False",
     "R.Tensor(dtype=\"float16\", ndim=2)"},
    {"cumsum", "T[]:float32, None, None, False",
     "R.Tensor((1,), dtype=\"float32\")"},
    /* ---- nonzero / unique / sort / argsort / topk */
    {"nonzero", "T[2,3]:float32",
     "R.Tensor(dtype=\"int64\", ndim=2)"},
    {"nonzero", "T:?",
     "R.Tensor(dtype=\"int64\", ndim=2)"},
    {"unique", "T[2,3]:float32, True, False, False, False",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.unique(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: Optional<ir.Expr>) -> ir.Expr`. Expected 6 but got 5 arguments"},
    {"unique", "T[2,3]:float32, True, True, True, True, 1",
     "R.Tuple(R.Tensor(dtype=\"float32\", ndim=2), R.Tensor(dtype=\"int64\", ndim=1), R.Tensor(dtype=\"int64\", ndim=1), R.Tensor(dtype=\"int64\", ndim=1))"},
    {"unique", "T[]:float32, False, True, False, True",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.unique(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: Optional<ir.Expr>) -> ir.Expr`. Expected 6 but got 5 arguments"},
    {"unique", "T[2,3]:float32, True, False, False, False, 2",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.unique\", description=\"\", arguments=(ir.ArgumentInfo(name=\"x\", type_info=\"Tensor\", description=\"The input tensor\"), ir.ArgumentInfo(name=\"sorted\", type_info=\"Tensor\", description=\"Whether to sort the unique elements in ascending order before returning as output.\"), ir.ArgumentInfo(name=\"return_index\", type_info=\"Tensor\", description=\"Whether to return an additional tensor with indices for where elements in the unique tensor come from the original input.\"), ir.ArgumentInfo(name=\"return_inverse\", type_info=\"Tensor\", description=\"Whether to return an additional tensor with indices for where elements in the original input ended up in the returned unique list.\"), ir.ArgumentInfo(name=\"return_counts\", type_info=\"Tensor\", description=\"Whether to return an additional tensor with counts of each unique elements\"), ir.ArgumentInfo(name=\"axis\", type_info=\"Tensor\", description=\"The dimension to apply unique. If it is std::nullopt, the unique values of the flattened input are returned.\")), attrs_type_key=\"\", num_inputs=6, support_level=10), the input axis 2 is out of range. The input tensor has 2 dimensions, so axis should be in range [-2, 2)."},
    {"unique", "T[2,3]:float32, True, P:bool, False, False",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.unique(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: Optional<ir.Expr>) -> ir.Expr`. Expected 6 but got 5 arguments"},
    {"unique", "T[2,3]:float32, True, False, False, False, P:int64",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"unique", "T:?, True, True, False, False, 3",
     "R.Tuple(R.Tensor, R.Tensor(dtype=\"int64\", ndim=1))"},
    {"unique", "P:int64, True, False, False, False",
     "!!TypeError: Mismatched number of arguments when calling: `relax.op.unique(0: ir.Expr, 1: ir.Expr, 2: ir.Expr, 3: ir.Expr, 4: ir.Expr, 5: Optional<ir.Expr>) -> ir.Expr`. Expected 6 but got 5 arguments"},
    {"sort", "T[2,3]:float32, -1, False",
     "R.Tensor((2, 3), dtype=\"float32\")"},
    {"sort", "T$s#2:float32, 7, True",
     "R.Tensor(s, dtype=\"float32\")"},
    {"argsort", "T[n,3]:float32, 0, False, \"int64\"",
     "R.Tensor((n, 3), dtype=\"int64\")"},
    {"argsort", "T:float32, 0, False, None",
     "R.Tensor(dtype=\"float32\")"},
    {"topk", "T[2,3,4]:float32, 2, -1, \"both\", True, \"int32\"",
     "R.Tuple(R.Tensor((2, 3, 2), dtype=\"float32\"), R.Tensor((2, 3, 2), dtype=\"int32\"))"},
    {"topk", "T[n,m]:int32, 2, 0, \"values\", True, None",
     "R.Tensor((2, m), dtype=\"int32\")"},
    {"topk", "T[2,3,4]:float32, 9, 1, \"indices\", False, \"int64\"",
     "R.Tensor((2, 3, 4), dtype=\"int64\")"},
    {"topk", "T[2,3,4]:float32, 1, 3, \"both\", True, \"int32\"",
     "!IndexError: Index 3 out of bounds 3"},
    {"topk", "T#2:float32, 1, 3, \"bogus\", True, \"int32\"",
     "!InternalError: Unsupported ret type: bogus"},
    /* ---- einsum */
    {"einsum", "(T[2,3]:float32, T[3,4]:float32), \"ij,jk->ik\"",
     "R.Tensor((2, 4), dtype=\"float32\")"},
    {"einsum", "(T[5,2,3]:float32, T[1,3,4]:float32), \"...ij,...jk\"",
     "R.Tensor((5, 2, 4), dtype=\"float32\")"},
    {"einsum", "(T[n,3]:float32, T[m,3]:float32), \"...i,...i->...i\"",
     "R.Tensor((T.max(n, m), 3), dtype=\"float32\")"},
    {"einsum", "(T[n,1]:float32, T[1,m]:float32), \"ij,ij->ij\"",
     "R.Tensor((n, m), dtype=\"float32\")"},
    {"einsum", "(T[2,3]:float32, T[4,4]:float32), \"ij,jk->ik\"",
     "!InternalError: Cannot broadcast extents T.int64(3) and T.int64(4)"},
    {"einsum", "(T[2,3]:float32, T[4,3,3]:float32), \"...i,...i->...i\"",
     "!InternalError: Check failed: (false) is false: Incompatible broadcast dims: T.int64(3) and T.int64(2) in: (T.int64(4), T.int64(3)) and (T.int64(2),)"},
    {"einsum", "(T[2,3]:float32), \"ij->i->j\"",
     "!InternalError: Check failed: (!has_arrow) is false: Equation can only have one arrow"},
    {"einsum", "(T[2,3]:float32), \"i1->i\"",
     "!InternalError: Check failed: (std::isalpha(equation[i])) is false: Cannot parse the Einsum equation: invalid character 1 in equation i1->i"},
    {"einsum", "(T[2,3]:float32), \"...ijk->i\"",
     "!ValueError: cannot construct an Array of negative size"},
    {"einsum", "(T[2,3]:float32), \"i->\"",
     "!InternalError: Check failed: current_dim == input_shape.size() (1 vs. 2) : "},
    {"einsum", "(T[2]:float32), \"ij->\"",
     "!IndexError: Index 1 out of bounds 1"},
    {"einsum", "(T[2,3]:float32, T[3,4]:float32), \"ij->ji\"",
     "!InternalError: Check failed: equation_.inputs.size() == input_shapes_.size() (1 vs. 2) : Number of operands does not match the equation"},
    {"einsum", "(T#3:float32, T[2]:float16), \"ij,jk->ik\"",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"einsum", "(T[2,3]:?, T[3,4]:float32), \"ij,jk->ik\"",
     "!TypeError: Einsum expects all input tensors to have the same dtype. However, the input contains tensors with dtype None and T.float32"},
    {"einsum", "(), \"->\"",
     "!ValueError: Einsum op expects at least one tensor in the input Tuple. However, the given input Tuple is empty."},
    /* ---- the nn / image / vision / qdq ops of issue 10 */
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0,0,0,0,0,0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor((2, 6, 6, 6, 6), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [2], [1,2,3], [1], 1, \"NCDHW\", \"OIDHW\", None, \"float16\"",
     "R.Tensor((2, 6, 4, 5, 6), dtype=\"float16\")"},
    {"nn.conv3d", "T[n,4,h,h,w]:float32, T[6,4,3,3,3]:float32, [2,2,2], [1], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor((n, 6, (h - 1) // 2 + 1, (h - 1) // 2 + 1, (w - 1) // 2 + 1), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,8,8,8,4]:float32, T[3,3,3,4,6]:float32, [1,1,1], [0], [1,1,1], 1, \"NDHWC\", \"DHWIO\", \"NCDHW4c\", None",
     "R.Tensor((2, 2, 6, 6, 6, 4), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [1,2], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!!InternalError: The input padding length is expected to be either 1, 3 or 6. However, the given padding is (1, 2)"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,2], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!!InternalError: Check failed: strides.size() == 3 (2 vs. 3) : The input strides length is expected to be 3. However, the given strides is (1, 2)"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [1,1,1], 0, \"NCDHW\", \"OIDHW\", None, None",
     "!!InternalError: Check failed: groups > 0 (0 vs. 0) : The number of groups in convolution is expected to be positive. However, the given number of groups is 0"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,1,3,3,3]:float32, [1,1,1], [0], [1,1,1], 4, \"NCDHW\", \"OIDHW\", None, None",
     "!ValueError: Conv3d expects the number of output channels to be divisible by the number of groups. However, the number of output channels is T.int64(6) while the number of groups is 4"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,3,3,3,3]:float32, [1,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!ValueError: The channel size of the data should equal to the product of input channel size of the weight and the number of groups. However, the data channel size is T.int64(4) while the weight input channel size and number of groups are T.int64(3) and 1"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float16, [1,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.nn.conv3d(x, y, strides=[1, 1, 1], padding=[0, 0, 0, 0, 0, 0], dilation=[1, 1, 1], groups=1, data_layout=\"NCDHW\", kernel_layout=\"OIDHW\", out_layout=\"NCDHW\", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 4, 8, 8, 8), dtype=\"float32\")), and datatype T.float16 on the RHS (Type of R.Tensor((6, 4, 3, 3, 3), dtype=\"float16\"))."},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [1,1,1], 1, \"NCHW\", \"OIDHW\", None, None",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv3d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv3DAttrs\", num_inputs=2, support_level=10) requires the given data layout to be convertible from NCDHW layout. However, the given layout NCHW is not convertible."},
    {"nn.conv3d", "T[2,4,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv3d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv3DAttrs\", num_inputs=2, support_level=10), layout NCDHW requires the input to be 5-dim tensor. However, the given input has ndim 4"},
    {"nn.conv3d", "T#5:float32, T[6,4,3,3,3]:float32, [0,0,0], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=5)"},
    {"nn.conv3d", "T$s#5:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=5)"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [0,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"nn.conv3d", "T[2,4,n,8,8]:float32, T[6,4,3,3,3]:float32, [0,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [2147483648,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [2147483648,0,0,-1,0,0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,2147483647], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor((2, 6, 6, 6, 1), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,4,n,8,8]:float32, T[6,4,3,3,3]:float32, [-2,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor((2, 6, (n - 3) // -2 + 1, 6, 6), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, T[6,4,3,3,3]:float32, [1,1,1], [0], [0,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "R.Tensor((2, 6, 8, 6, 6), dtype=\"float32\")"},
    {"nn.conv3d", "T[2,4,8,8,8]:float32, S[1], [1,1,1], [0], [1,1,1], 1, \"NCDHW\", \"OIDHW\", None, None",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv3d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv3DAttrs\", num_inputs=2, support_level=10) requires argument 1 (weight) to be a tensor.  However, the argument R.shape([1]) is instead of type R.Shape([1])"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [0], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "R.Tensor((2, 3, 12), dtype=\"float32\")"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [2], [1,1], [1], [1], 1, \"NCW\", \"IOW\", None, None",
     "R.Tensor((2, 3, 20), dtype=\"float32\")"},
    {"nn.conv1d_transpose", "T[n,4,m]:float32, T[4,3,3]:float32, [2], [1], [1], [2], 1, \"NCW\", \"IOW\", None, None",
     "R.Tensor((n, 3, m * 2 + 2), dtype=\"float32\")"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [2], [0], [2], [1], 1, \"NCW\", \"IOW\", None, None",
     "!ValueError: Conv1dTranspose expects the output padding less than the strides, but the output padding is(2,) while the strides are(2,)"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1,2], [0], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!!InternalError: Check failed: strides.size() == 1 (2 vs. 1) : The input strides length is expected to be 1. However, the given strides is (1, 2)"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [1,2,3], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!!InternalError: The input padding length is expected to be either 1 or 2. However, the given padding is (1, 2, 3)"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [0], [0,0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!!InternalError: Check failed: output_padding.size() == 1 (2 vs. 1) : The input output_padding length is expected to be 1. However, the given output_padding is (0, 0)"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [0], [0], [1], 3, \"NCW\", \"IOW\", None, None",
     "!ValueError: Conv1dTranspose expects the number of input channels to be divisible by the number of groups. However, the number of input channels is T.int64(4) while the number of groups is 3"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[5,3,3]:float32, [1], [0], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!ValueError: Conv1dTranspose expects the channel size of the data should equal to the input channel size of the weight. However, the data channel size is T.int64(4) while the weight input channel size is T.int64(5)"},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [0], [0], [1], 1, \"NCW\", \"OIHW\", None, None",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:float32, [1], [0], [0], [1], 1, \"NCW\", \"IOH\", None, None",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.conv1d_transpose\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The weight tensor.\")), attrs_type_key=\"relax.attrs.Conv1DTransposeAttrs\", num_inputs=2, support_level=10) requires the given kernel layout to be convertible from IOW layout. However, the given layout IOH is not convertible."},
    {"nn.conv1d_transpose", "T[2,4,10]:float32, T[4,3,3]:int8, [1], [0], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!TypeError: Binary operators must have the same datatype for both operands.  However, R.nn.conv1d_transpose(x, y, strides=[1], padding=[0, 0], output_padding=[0], dilation=[1], groups=1, data_layout=\"NCW\", kernel_layout=\"IOW\", out_layout=\"NCW\", out_dtype=None) uses datatype T.float32 on the LHS (Type of R.Tensor((2, 4, 10), dtype=\"float32\")), and datatype T.int8 on the RHS (Type of R.Tensor((4, 3, 3), dtype=\"int8\"))."},
    {"nn.conv1d_transpose", "T#3:float32, T[4,3,3]:float32, [2], [0], [2], [1], 1, \"NCW\", \"IOW\", None, None",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"nn.conv1d_transpose", "T[2,4,5]:float32, T[4,2,3]:float32, [2147483648], [0], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.conv1d_transpose", "T[2,4,5]:float32, T[4,2,3]:float32, [1], [1073741824,1073741824], [0], [1], 1, \"NCW\", \"IOW\", None, None",
     "R.Tensor((2, 2, 2147483655), dtype=\"float32\")",
     /* apache-tvm wraps around here; an overflow is an error in tether */
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.conv2d_transpose", "T[2,4,5,6]:float32, T[4,2,3,3]:float32, [2,2], [0], [2,1], [1,1], 1, \"NCHW\", \"IOHW\", None, None",
     "!ValueError: Conv2dTranspose expects the output padding less than the strides, but the output padding is(2, 1) while the strides are(2, 2)"},
    {"nn.conv3d_transpose", "T[2,4,5,6,7]:float32, T[4,2,3,3,3]:float32, [2], [1], [1], [2], 2, \"NCDHW\", \"IODHW\", None, None",
     "R.Tensor((2, 4, 12, 14, 16), dtype=\"float32\")"},
    {"nn.conv3d_transpose", "T[n,4,m,m,k]:float32, T[4,2,3,3,3]:float32, [2,2,2], [0], [0,0,0], [1,1,1], 1, \"NCDHW\", \"IODHW\", \"NDHWC\", None",
     "R.Tensor((n, m * 2 + 1, m * 2 + 1, k * 2 + 1, 2), dtype=\"float32\")"},
    {"nn.conv3d_transpose", "T[2,4,5,6,7]:float32, T[4,2,3,3,3]:float32, [1,1,1], [0], [0,0], [1,1,1], 1, \"NCDHW\", \"IODHW\", None, None",
     "!!InternalError: Check failed: output_padding.size() == 3 (2 vs. 3) : The input output_padding length is expected to be 3. However, the given output_padding is (0, 0)"},
    {"nn.conv3d_transpose", "T[2,4,5,6,7]:float32, T[4,2,3,3,3]:float32, [1,1,1], [0], [0,0,0], [1,1,1], 3, \"NCDHW\", \"IODHW\", None, None",
     "!ValueError: Conv3dTranspose expects the number of input channels to be divisible by the number of groups. However, the number of input channels is T.int64(4) while the number of groups is 3"},
    {"nn.conv3d_transpose", "T[2,4,2305843009213693952,6,7]:float32, T[4,2,3,3,3]:float32, [4,1,1], [0], [0,0,0], [1,1,1], 1, \"NCDHW\", \"IODHW\", None, None",
     "R.Tensor((2, 2, 9223372036854775807, 8, 9), dtype=\"float32\")"},
    {"nn.max_pool1d", "T[2,4,10]:float32, [3], [2], [1,1], [2], True, False, \"NCW\", None",
     "R.Tensor((2, 4, 5), dtype=\"float32\")"},
    {"nn.max_pool1d", "T[n,4,m]:float32, [3], [2], [1,1], [1], True, False, \"NCW\", \"NWC\"",
     "R.Tensor((n, m // 2 + 1, 4), dtype=\"float32\")"},
    {"nn.max_pool1d", "T[2,4,10]:float32, [3,3], [1], [0,0], [1], False, False, \"NCW\", None",
     "!!InternalError: Check failed: pool_size.size() == 1 (2 vs. 1) : The input pool_size length is expected to be 1. However, the given pool_size is (3, 3)"},
    {"nn.max_pool1d", "T[2,4,10]:float32, [3], [1], [1,2,3], [1], False, False, \"NCW\", None",
     "!!InternalError: The input padding length is expected to be either 1 or 2. However, the given padding is (1, 2, 3)"},
    {"nn.max_pool1d", "T[2,4,10]:float32, [3], [0], [0,0], [1], False, False, \"NCW\", None",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"nn.max_pool1d", "T[2,4,10]:float32, [3], [1], [0,0], [1], False, False, \"NCHW\", None",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"nn.max_pool1d", "T#3:int32, [3], [1], [0,0], [1], False, False, \"NCW\", None",
     "R.Tensor(dtype=\"int32\", ndim=3)"},
    {"nn.max_pool1d", "T[2,4,5]:float32, [2], [2], [1,1], [1], True, False, \"NCW\", None",
     "R.Tensor((2, 4, 3), dtype=\"float32\")"},
    {"nn.max_pool1d", "T[2,4,9223372036854775807]:float32, [1], [1], [1,1], [1], False, False, \"NCW\", None",
     "R.Tensor((2, 4, -9223372036854775807), dtype=\"float32\")",
     /* apache-tvm wraps around here; an overflow is an error in tether */
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.max_pool1d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor\"),), attrs_type_key=\"relax.attrs.Pool1DAttrs\", num_inputs=1, support_level=10), the output shape overflows int64"},
    {"nn.max_pool3d", "T[2,4,8,9,10]:float32, [3,2,1], [2,1,2], [1,0,1,1,0,1], [1,2,1], True, False, \"NCDHW\", None",
     "R.Tensor((2, 4, 5, 7, 6), dtype=\"float32\")"},
    {"nn.max_pool3d", "T[2,4,8,9,10]:float32, [3], [2], [1,2,3], [1], False, False, \"NCDHW\", None",
     "R.Tensor((2, 4, 4, 6, 7), dtype=\"float32\")"},
    {"nn.max_pool3d", "T[2,4,8,9,10]:float32, [3,3], [1], [0], [1], False, False, \"NCDHW\", None",
     "!!InternalError: Check failed: pool_size.size() == 3 (2 vs. 3) : The input pool_size length is expected to be 3. However, the given pool_size is (3, 3)"},
    {"nn.max_pool3d", "T[2,1,8,9,10,4]:float32, [3], [1], [0], [1], False, False, \"NCDHW4c\", None",
     "R.Tensor((2, 1, 6, 7, 8, 4), dtype=\"float32\")"},
    {"nn.max_pool3d", "T[2,4,8,8,8]:float32, [2147483648], [1], [0], [1], False, False, \"NCDHW\", None",
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.max_pool3d", "T[2,4,8,8,8]:float32, [1], [1], [1073741824,0,0,1073741824,0,0], [1], False, False, \"NCDHW\", None",
     "R.Tensor((2, 4, -2147483640, 8, 8), dtype=\"float32\")",
     /* apache-tvm wraps around here; an overflow is an error in tether */
     "!ValueError: Check failed: (small.has_value() && (bits == 64 || (*small >= -(int64_t{1} << (bits - 1)) && *small < (int64_t{1} << (bits - 1))))) is false: Literal value 2147483648 exceeds range of int32"},
    {"nn.avg_pool1d", "T[2,4,10]:float32, [3], [2], [1,1], [2], True, False, \"NCW\", None",
     "R.Tensor((2, 4, 5), dtype=\"float32\")"},
    {"nn.avg_pool3d", "T[n,4,m,m,k]:float32, [2], [2], [0], [1], True, True, \"NCDHW\", None",
     "R.Tensor((n, 4, (m - 1) // 2 + 1, (m - 1) // 2 + 1, (k - 1) // 2 + 1), dtype=\"float32\")"},
    {"nn.avg_pool2d", "T[2,6,8,8]:float32, [1,1], [1,1], [0,0,0,0], [1,1], False, False, \"NCHW\", \"NCHW4c\"",
     "R.Tensor((2, 2, 8, 8, 4), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool1d", "T[2,4,10]:float32, None, \"NCW\", None",
     "R.Tensor((2, 4, 10), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool1d", "T[2,4,10]:float32, [5], \"NCW\", \"NWC\"",
     "R.Tensor((2, 5, 4), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool1d", "T[2,4,10]:float32, [5,6], \"NCW\", None",
     "!!InternalError: Check failed: _output_size.size() == 1 (2 vs. 1) : The output_size length is expected to be 1. However, the given output_size is (5, 6)"},
    {"nn.adaptive_avg_pool1d", "T$s#3:float32, None, \"NCW\", None",
     "R.Tensor(s, dtype=\"float32\")"},
    {"nn.adaptive_avg_pool1d", "T$s#3:float32, None, \"NCW\", \"NWC\"",
     "R.Tensor(dtype=\"float32\", ndim=3)"},
    {"nn.adaptive_avg_pool1d", "T[2,4,10]:float32, None, \"NCHW\", None",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"nn.adaptive_avg_pool3d", "T[2,4,8,9,10]:float32, [5], \"NCDHW\", None",
     "!!InternalError: Check failed: _output_size.size() == 3 (2 vs. 3) : The output_size length is expected to be 3. However, the given output_size is (5, 5)"},
    {"nn.adaptive_avg_pool3d", "T[2,4,8,9,10]:float32, [5,6,7], \"NCDHW\", \"NDHWC\"",
     "R.Tensor((2, 5, 6, 7, 4), dtype=\"float32\")"},
    {"nn.adaptive_avg_pool3d", "T[n,4,8,9,m]:float32, None, \"NCDHW\", None",
     "R.Tensor((n, 4, 8, 9, m), dtype=\"float32\")"},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[4,5]:float32, [-2,-1], 1e-5",
     "R.Tensor((2, 3, 4, 5), dtype=\"float32\")"},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[4]:float32, [-1], 1e-5",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires the input gamma, beta, etc., to have size same as the lengths of the data on the given axes. However, there exists (T.int64(5),) and (T.int64(4),) that are unequal."},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[4,5]:float32, [-1], 1e-5",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires the input weight to have as many dimensions as the length of input axes. However, the given one has ndim 2, which is other than the length of axes 1"},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[5]:float16, [-1], 1e-5",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires all the input tensors to have the same dtype. However, the weight has dtype T.float16 which is other than the input data's dtype T.float32"},
    {"nn.rms_norm", "T[2,3]:int32, T[3]:int32, [-1], 1e-5",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires the input data to have float dtype. However, the given data dtype is T.int32"},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[5]:float32, [4], 1e-5",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10), the input axis 4 is out of range. The input tensor has 4 dimensions, so axis should be in range [-4, 4)."},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[5,5]:float32, [3,-1], 1e-5",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10), the input axes is required to be non-repetitive. However, there are multiple given axes referring to axis 3"},
    {"nn.rms_norm", "T[n,m]:float32, T[k]:float32, [-1], 1e-5",
     "R.Tensor(dtype=\"float32\", ndim=2)"},
    {"nn.rms_norm", "T:float32, T[5]:float32, [-1], 1e-5",
     "R.Tensor(dtype=\"float32\")"},
    {"nn.rms_norm", "T[2,5]:?, T[5]:float32, [-1], 1e-5",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires all the input tensors to have the same dtype. However, the weight has dtype T.float32 which is other than the input data's dtype None"},
    {"nn.rms_norm", "T[2,3,4,5]:float32, T[3,5]:float32, [2,3], 1e-5",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.rms_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which rms_norm will be applied.\"), ir.ArgumentInfo(name=\"weight\", type_info=\"Tensor\", description=\"The scale factor.\")), attrs_type_key=\"relax.attrs.RMSNormAttrs\", num_inputs=2, support_level=10) requires the input gamma, beta, etc., to have size same as the lengths of the data on the given axes. However, there exists (T.int64(4), T.int64(5)) and (T.int64(3), T.int64(5)) that are unequal."},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[4]:float32, 2, 1, [2,3], 1e-5, True, True",
     "R.Tensor((2, 4, 5, 6), dtype=\"float32\")"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[4]:float32, 3, 1, [2,3], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that the size of channel_axis must be divisible by 3, but got T.int64(4)"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[4]:float32, 0, 1, [2,3], 1e-5, True, True",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[5]:float32, T[4]:float32, 2, 1, [2,3], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that the size of input 1 must be equal to the size of channel_axis, but got T.int64(5) and T.int64(4)"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[5]:float32, 2, 1, [2,3], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that the size of input 2 must be equal to the size of channel_axis, but got T.int64(5) and T.int64(4)"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4,1]:float32, T[4]:float32, 2, 1, [2,3], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that all inputs must have ndim=1, but got 2"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[4]:float32, 2, 4, [2,3], 1e-5, True, True",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10), the input axis 4 is out of range. The input tensor has 4 dimensions, so axis should be in range [-4, 4)."},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float32, T[4]:float32, 2, -3, [-3,2], 1e-5, True, True",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that channel_axis must not be in axes, but got channel_axis: 1, axes: (-3, 2)"},
    {"nn.group_norm", "T[2,4,5,6]:float32, T[4]:float16, T[4]:float32, 2, 1, [2,3], 1e-5, True, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that all inputs must have the same dtype, but got T.float16 and T.float32"},
    {"nn.group_norm", "T[2,4,5]:int32, T[4]:int32, T[4]:int32, 2, 1, [2], 1e-5, True, True",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.group_norm\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"Input to which group_norm will be applied.\"), ir.ArgumentInfo(name=\"gamma\", type_info=\"Tensor\", description=\"The gamma scale factor.\"), ir.ArgumentInfo(name=\"beta\", type_info=\"Tensor\", description=\"The beta offset factor.\")), attrs_type_key=\"relax.attrs.GroupNormAttrs\", num_inputs=3, support_level=10) expects that data must be float, but got T.int32"},
    {"nn.group_norm", "T[2,n,5]:float32, T[n]:float32, T[n]:float32, 0, 1, [2], 1e-5, True, True",
     "!InternalError: Check failed: pb->value != 0 (0 vs. 0) : Divide by zero"},
    {"nn.group_norm", "T[2,n,5]:float32, T[m]:float32, T[n]:float32, 2, 1, [2], 1e-5, True, True",
     "R.Tensor((2, n, 5), dtype=\"float32\")"},
    {"nn.group_norm", "T:float32, T[4]:float32, T[4]:float32, 2, 9, [2], 1e-5, True, True",
     "R.Tensor(dtype=\"float32\")"},
    {"nn.group_norm", "T#4:float32, T[4]:float32, T[4]:float32, 2, 1, [2], 1e-5, True, True",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"nn.prelu", "T[2,3,4]:float32, T[3]:float32, 1",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"nn.prelu", "T[2,3,4]:float32, T[4]:float32, 3",
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.prelu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"alpha\", type_info=\"Tensor\", description=\"The channel-wise learnable slope.\")), attrs_type_key=\"relax.attrs.PReluAttrs\", num_inputs=2, support_level=10), the input axis 3 is out of range. The input tensor has 3 dimensions, so axis should be in range [-3, 3)."},
    {"nn.prelu", "T[2,3]:int32, T[3]:int32, 5",
     "!TypeError: Prelu requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"nn.prelu", "T:int32, T[3]:int32, 1",
     "R.Tensor(dtype=\"int32\")"},
    {"nn.prelu", "T[2,3,4]:float32, P:float32, 1",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.prelu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"alpha\", type_info=\"Tensor\", description=\"The channel-wise learnable slope.\")), attrs_type_key=\"relax.attrs.PReluAttrs\", num_inputs=2, support_level=10) requires argument 1 (alpha) to be a tensor.  However, the argument y is instead of type T.float32"},
    {"nn.leakyrelu", "T[2,3,4]:float32, 0.2",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"nn.leakyrelu", "T[2]:int32, 0.01",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.leakyrelu\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.LeakyReluAttrs\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.int32"},
    {"nn.softplus", "T[2,3,4]:float32, 2.0, 10.0",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"nn.softplus", "T[2]:bool, 1.0, 20.0",
     "!TypeError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.softplus\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.SoftplusAttrs\", num_inputs=1, support_level=10) requires the input tensor to have float dtype. However, the given input dtype is T.bool"},
    {"nn.pad", "T[2,3,4]:float32, [0,0,1,1,2,3], \"constant\", 0.0",
     "R.Tensor((2, 5, 9), dtype=\"float32\")"},
    {"nn.pad", "T[n,m]:float32, [1,2,3,4], \"reflect\", 0.0",
     "R.Tensor((n + 3, m + 7), dtype=\"float32\")"},
    {"nn.pad", "T[2,3]:float32, [1,1], \"edge\", 0.0",
     "!InternalError: Check failed: (static_cast<int>(pad_width.size()) == 2 * ndim) is false: Illegal pad_width"},
    {"nn.pad", "T:float32, [1,1], \"constant\", 0.0",
     "!InternalError: Check failed: (static_cast<int>(pad_width.size()) == 2 * ndim) is false: Illegal pad_width"},
    {"nn.pad", "T#2:int32, [1,1,0,0], \"circular\", 1.5",
     "R.Tensor(dtype=\"int32\", ndim=2)"},
    {"nn.pad", "T[4611686018427387904]:float32, [4611686018427387904,4611686018427387904], \"constant\", 0.0",
     "R.Tensor((-4611686018427387904,), dtype=\"float32\")",
     /* apache-tvm wraps around here; an overflow is an error in tether */
     "!ValueError: In ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.nn.pad\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"),), attrs_type_key=\"relax.attrs.PadAttrs\", num_inputs=1, support_level=10), the output shape overflows int64"},
    {"image.resize2d", "T[2,3,8,9]:float32, S[16,18], [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "R.Tensor((2, 3, 16, 18), dtype=\"float32\")"},
    {"image.resize2d", "T[2,8,9,3]:float32, S[n,m], [0.0,0.0,0.0,0.0], \"NHWC\", \"nearest_neighbor\", \"asymmetric\", \"floor\", -0.5, 1, 0.0, \"float16\"",
     "R.Tensor((2, n, m, 3), dtype=\"float16\")"},
    {"image.resize2d", "T[2,1,8,9,4]:float32, S[16,18], [1,2], \"NCHW4c\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "R.Tensor((2, 1, 16, 18, 4), dtype=\"float32\")"},
    {"image.resize2d", "T[2,3,8,9]:float32, S[16,17,18], [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "!ValueError: Resize2D expects the given output image size to be a 2-dim shape, while the given one has ndim 3"},
    {"image.resize2d", "T[2,3,8,9]:float32, V$s#2, [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"image.resize2d", "T[2,3,8,9]:float32, T[2]:int64, [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "!TypeError: Resize2D expects the given output image size to be a Shape, while the given one is ir.Var"},
    {"image.resize2d", "S[1], S[1,2], [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "!TypeError: Resize2D expects the input data to be a Tensor, while the given data is relax.expr.ShapeExpr"},
    {"image.resize2d", "T[2,3,8]:float32, S[1,2], [0.0,0.0,0.0,0.0], \"NCW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "!ValueError: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.image.resize2d\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"size\", type_info=\"Shape\", description=\"The output image shape.\")), attrs_type_key=\"relax.attrs.Resize2DAttrs\", num_inputs=2, support_level=10) requires the given data layout to be convertible from NCHW layout. However, the given layout NCW is not convertible."},
    {"image.resize2d", "T[2,3,8,9]:float32, S[1,2], [0.0,0.0,0.0,0.0], \"NCDHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"image.resize2d", "T$t#4:float32, S[1,2], [0.0,0.0,0.0,0.0], \"NCHW\", \"linear\", \"half_pixel\", \"round\", -0.75, 0, 0.0, None",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"image.grid_sample", "T[2,3,8,9]:float32, T[2,5,6,2]:float32, \"bilinear\", \"NCHW\", \"zeros\", False",
     "R.Tensor((2, 3, 6, 2), dtype=\"float32\")"},
    {"image.grid_sample", "T[2,8,9,3]:float32, T[2,5,6,2]:float16, \"nearest\", \"NHWC\", \"border\", True",
     "R.Tensor((2, 6, 2, 3), dtype=\"float32\")"},
    {"image.grid_sample", "T[2,3,4,8,9]:float32, T[2,4,5,6,3]:float32, \"bilinear\", \"NCDHW\", \"zeros\", False",
     "R.Tensor((2, 3, 5, 6, 3), dtype=\"float32\")"},
    {"image.grid_sample", "T[2,4,8,9,3]:float32, T[2,4,5,6,3]:float32, \"bilinear\", \"NDHWC\", \"zeros\", False",
     "!InternalError: Check failed: (GetStoreRule(&n->index_backward_rule, &n->shape_backward_rule, n->dst_layout, n->src_layout)) is false: "},
    {"image.grid_sample", "T[2,3,8,9]:float32, T[2,5,6]:float32, \"bilinear\", \"NCHW\", \"zeros\", False",
     "!IndexError: Index 3 out of bounds 3"},
    {"image.grid_sample", "T[2,3,8,9]:float32, T#4:float32, \"bilinear\", \"NCHW\", \"zeros\", False",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"image.grid_sample", "T[2,3,8,9]:float32, S[1], \"bilinear\", \"NCHW\", \"zeros\", False",
     "!TypeError: GridSample expects the grid to be a Tensor, while the given grid is relax.expr.ShapeExpr"},
    {"image.grid_sample", "S[1], T[2,5,6,2]:float32, \"bilinear\", \"NCHW\", \"zeros\", False",
     "!TypeError: GridSample expects the input data to be a Tensor, while the given data is relax.expr.ShapeExpr"},
    {"image.grid_sample", "T[n,3,m,m]:float32, T[n,k,k,2]:float32, \"bilinear\", \"NCHW\", \"zeros\", False",
     "R.Tensor((n, 3, k, 2), dtype=\"float32\")"},
    {"image.affine_grid", "T[2,2,3]:float32, S[5,6], True",
     "R.Tensor((2, 2, 5, 6), dtype=\"float32\")"},
    {"image.affine_grid", "T[2,3,4]:float32, S[4,5,6], False",
     "R.Tensor((2, 3, 4, 5, 6), dtype=\"float32\")"},
    {"image.affine_grid", "T[n,2,3]:float32, S[m,k], True",
     "R.Tensor((n, 2, m, k), dtype=\"float32\")"},
    {"image.affine_grid", "T[2,3,3]:float32, S[5,6], True",
     "!ValueError: AffineGrid expects the second dimension of input to be 2, but got 3"},
    {"image.affine_grid", "T[2,2,4]:float32, S[5,6], True",
     "!ValueError: AffineGrid expects the third dimension of input to be 3, but got 4"},
    {"image.affine_grid", "T[2,3]:float32, S[5,6], True",
     "!ValueError: AffineGrid expects the input data to be 3-D (batch, spatial, spatial + 1), but got ndim 2"},
    {"image.affine_grid", "T[2,2,3]:float32, S[4], True",
     "!ValueError: AffineGrid expects the target size to be a 2-dim or 3-dim shape, while the given one has ndim 1"},
    {"image.affine_grid", "T[2,2,3]:float32, T[2]:int64, True",
     "!TypeError: AffineGrid expects the target size to be a Shape, while the given one is ir.Var"},
    {"image.affine_grid", "S[1], S[5,6], True",
     "!TypeError: AffineGrid expects the input data to be a Tensor, while the given data is relax.expr.ShapeExpr"},
    {"image.affine_grid", "T#3:float32, V$s#3, True",
     "R.Tensor(dtype=\"float32\", ndim=5)"},
    {"image.affine_grid", "T[2,3,3]:float32, V$s#2, True",
     "!ValueError: AffineGrid expects the second dimension of input to be 2, but got 3"},
    {"vision.all_class_non_max_suppression", "T[2,10,4]:float32, T[2,3,10]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "R.Tuple(R.Tensor((60, 3), dtype=\"int64\"), R.Tensor((1,), dtype=\"int64\"))"},
    {"vision.all_class_non_max_suppression", "T[n,m,4]:float32, T[n,k,m]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "R.Tuple(R.Tensor((n * k * m, 3), dtype=\"int64\"), R.Tensor((1,), dtype=\"int64\"))"},
    {"vision.all_class_non_max_suppression", "T[n,m,4]:float32, T[n,k,m]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"tensorflow\"",
     "R.Tuple(R.Tensor((n, k * m, 2), dtype=\"int64\"), R.Tensor((n, k * m), dtype=\"float32\"), R.Tensor((n,), dtype=\"int64\"))"},
    {"vision.all_class_non_max_suppression", "T[2,10,4]:float32, T[2,3,10]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"bogus\"",
     "R.Tuple(R.Tensor((2, 30, 2), dtype=\"int64\"), R.Tensor((2, 30), dtype=\"float32\"), R.Tensor((2,), dtype=\"int64\"))"},
    {"vision.all_class_non_max_suppression", "T:float32, T[2,3,10]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "!InternalError: Check failed: (!boxes_ty->IsUnknownNdim()) is false: Only support known ndim"},
    {"vision.all_class_non_max_suppression", "T[2,10]:float32, T:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "!InternalError: Check failed: (!scores_ty->IsUnknownNdim()) is false: Only support known ndim"},
    {"vision.all_class_non_max_suppression", "T[2,10]:float32, T[2,3,10]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "!InternalError: Check failed: boxes_ty->ndim == 3 (2 vs. 3) : AllClassNMS input boxes should be 3-D."},
    {"vision.all_class_non_max_suppression", "T[2,10,4]:float32, T[2,10]:float32, T[1]:int64, T[1]:float32, T[1]:float32, \"onnx\"",
     "!InternalError: Check failed: scores_ty->ndim == 3 (2 vs. 3) : AllClassNMS input scores count should be 3-D."},
    {"vision.all_class_non_max_suppression", "T[2,10,4]:float32, T[2,3,10]:float32, S[1], T[1]:float32, T[1]:float32, \"onnx\"",
     "!TypeError: Operator ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.vision.all_class_non_max_suppression\", description=\"\", arguments=(ir.ArgumentInfo(name=\"boxes\", type_info=\"Tensor\", description=\"The input boxes in the format [batch, num_boxes, 4].\"), ir.ArgumentInfo(name=\"scores\", type_info=\"Tensor\", description=\"Scores for each box and class in the format [batch, num_classes, num_boxes].\"), ir.ArgumentInfo(name=\"max_output_boxes_per_class\", type_info=\"Tensor\", description=\"The maximum number of output boxes per class.\"), ir.ArgumentInfo(name=\"iou_threshold\", type_info=\"Tensor\", description=\"The IoU threshold for box the overlap test.\"), ir.ArgumentInfo(name=\"score_threshold\", type_info=\"Tensor\", description=\"The score threshold to filter out low score boxes early.\")), attrs_type_key=\"relax.attrs.AllClassNonMaximumSuppressionAttrs\", num_inputs=5, support_level=10) requires argument 2 (max_output_boxes_per_class) to be a tensor.  However, the argument R.shape([1]) is instead of type R.Shape([1])"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5,5]:float32, [7], 0.5, -1, False, \"NCHW\", \"avg\"",
     "R.Tensor((5, 3, 7, 7), dtype=\"float32\")"},
    {"vision.roi_align", "T[2,8,9,3]:float32, T[5,5]:float32, [7,6], 0.5, 2, True, \"NHWC\", \"max\"",
     "R.Tensor((5, 7, 6, 3), dtype=\"float32\")"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5,5]:float32, [7,6,5], 0.5, -1, False, \"NCHW\", \"avg\"",
     "!!InternalError: Check failed: pooled_size.size() == 2 (3 vs. 2) : The input pooled_size length is expected to be 2. However, the given pooled_size is (7, 6, 5)"},
    {"vision.roi_align", "T[2,3,8]:float32, T[5]:float32, [7,6], 0.5, -1, False, \"X\", \"y\"",
     "!ValueError: ROIAlign expects the input data to be 4-D, while the given data has ndim 3"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5]:float32, [7,6], 0.5, -1, False, \"X\", \"y\"",
     "!ValueError: ROIAlign expects the rois tensor to be 2-D, while the given rois has ndim 1"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5,4]:float32, [7,6], 0.5, -1, False, \"X\", \"y\"",
     "!ValueError: ROIAlign only supports NCHW and NHWC layout, but got X"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5,4]:float32, [7,6], 0.5, -1, False, \"NCHW\", \"avg\"",
     "!ValueError: ROIAlign expects rois to have shape (num_roi, 5), but got last dimension 4"},
    {"vision.roi_align", "T[2,3,8,9]:float32, T[5,5]:float32, [7,6], 0.5, -1, False, \"NCHW\", \"y\"",
     "!ValueError: ROIAlign only supports avg and max mode, but got y"},
    {"vision.roi_align", "T:float32, T:float32, [7,6], 0.5, -1, False, \"NCHW\", \"avg\"",
     "R.Tensor(dtype=\"float32\", ndim=4)"},
    {"vision.roi_align", "S[1], T[5,5]:float32, [7,6], 0.5, -1, False, \"NCHW\", \"avg\"",
     "!TypeError: ROIAlign expects the input data to be a Tensor, while the given data is relax.expr.ShapeExpr"},
    {"vision.roi_align", "T[2,3,8,9]:float32, S[1], [7,6], 0.5, -1, False, \"NCHW\", \"avg\"",
     "!TypeError: ROIAlign expects the rois to be a Tensor, while the given rois is relax.expr.ShapeExpr"},
    {"vision.roi_align", "T[n,m,8,9]:float32, T[k,n]:float32, [7,6], 0.5, -1, False, \"NCHW\", \"avg\"",
     "R.Tensor((k, m, 7, 6), dtype=\"float32\")"},
    {"quantize", "T[2,3,4]:float32, T[4]:float32, T[4]:int8, -1, \"int8\"",
     "R.Tensor((2, 3, 4), dtype=\"int8\")"},
    {"quantize", "T[2,3,4]:float16, T[3]:float16, T[3]:uint8, 1, \"uint8\"",
     "R.Tensor((2, 3, 4), dtype=\"uint8\")"},
    {"quantize", "T[2,3,4]:float32, T[4]:float32, T[4]:int8, -1, \"int32\"",
     "!TypeError: Unsupported output datatype attribute for operation: 'int32"},
    {"quantize", "T[2,3,4]:int32, T[4]:float32, T[4]:int8, -1, \"int8\"",
     "!TypeError: Unsupported input datatype for operation: T.int32"},
    {"quantize", "T[2,3,4]:float32, T[4]:int32, T[4]:int8, -1, \"int8\"",
     "!TypeError: scale param datatype should be one of [float16, float32], but got T.int32"},
    {"quantize", "T[2,3,4]:float32, T[4]:float32, T[4]:float32, -1, \"int8\"",
     "!TypeError: zero_point param datatype should be one of ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'float16'], but got T.float32"},
    {"quantize", "T[2,3,4]:float32, T[4]:float32, T[4]:int8, 3, \"int8\"",
     "!ValueError: relax.quantize: axis param is out of range (3)"},
    {"quantize", "T[2,3,4]:float32, T[3]:float32, T[4]:int8, -1, \"int8\"",
     "!ValueError: Size mismatch: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.quantize\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"scale\", type_info=\"Tensor\", description=\"The quantization scale of the output tensor.\"), ir.ArgumentInfo(name=\"zero_point\", type_info=\"Tensor\", description=\"The quantization zero_point of the output tensor.\")), attrs_type_key=\"relax.attrs.QuantizeAttrs\", num_inputs=3, support_level=10): the input shape at dim -1 is 'T.int64(4)', but size of scale param is 'T.int64(3)'"},
    {"quantize", "T[2,3,4]:float32, T[4]:float32, T[3]:int8, -1, \"int8\"",
     "!ValueError: Size mismatch: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.quantize\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"scale\", type_info=\"Tensor\", description=\"The quantization scale of the output tensor.\"), ir.ArgumentInfo(name=\"zero_point\", type_info=\"Tensor\", description=\"The quantization zero_point of the output tensor.\")), attrs_type_key=\"relax.attrs.QuantizeAttrs\", num_inputs=3, support_level=10): the input shape at dim -1 is 'T.int64(4)', but size of zero_point param is 'T.int64(3)'"},
    {"quantize", "T[2,3,4]:float32, T[1,4]:float32, T[4]:int8, -1, \"int8\"",
     "!ValueError: Size mismatch: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.quantize\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"scale\", type_info=\"Tensor\", description=\"The quantization scale of the output tensor.\"), ir.ArgumentInfo(name=\"zero_point\", type_info=\"Tensor\", description=\"The quantization zero_point of the output tensor.\")), attrs_type_key=\"relax.attrs.QuantizeAttrs\", num_inputs=3, support_level=10): the input shape at dim -1 is 'T.int64(4)', but size of scale param is 'T.int64(1)'"},
    {"quantize", "T[2,3,4]:float32, T[n]:float32, T[4]:int8, -1, \"int8\"",
     "!ValueError: Size mismatch: ir.Op(span=None, ty=ir.Type(span=None), name=\"relax.quantize\", description=\"\", arguments=(ir.ArgumentInfo(name=\"data\", type_info=\"Tensor\", description=\"The input tensor.\"), ir.ArgumentInfo(name=\"scale\", type_info=\"Tensor\", description=\"The quantization scale of the output tensor.\"), ir.ArgumentInfo(name=\"zero_point\", type_info=\"Tensor\", description=\"The quantization zero_point of the output tensor.\")), attrs_type_key=\"relax.attrs.QuantizeAttrs\", num_inputs=3, support_level=10): the input shape at dim -1 is 'T.int64(4)', but size of scale param is 'n'"},
    {"quantize", "T[2,4]:?, T[3]:float32, T[4]:int8, 7, \"int8\"",
     "R.Tensor((2, 4))"},
    {"quantize", "T:float32, T[4]:float32, T[4]:int8, -1, \"int8\"",
     "!ValueError: relax.quantize: axis param is out of range (-1)"},
    {"quantize", "T#2:float32, T[4]:float32, T[4]:int8, -1, \"int8\"",
     "!RuntimeError: Back optional access"},
    {"quantize", "T[2,3,4]:float32, T:float32, T[4]:int8, -1, \"int8\"",
     "!RuntimeError: Back optional access"},
    {"quantize", "T[]:float32, T[]:float32, T[]:int8, 5, \"int8\"",
     "R.Tensor((), dtype=\"int8\")"},
    {"quantize", "T[]:float32, T[3]:float32, T[]:int8, 0, \"int8\"",
     "!ValueError: relax.quantize: scale and zero_point must be scalar or singleton tensors for rank-0 input"},
    {"quantize", "T[2,3,4]:float32, T[1,1]:float32, T[]:int8, -1, \"float8_e4m3fn\"",
     "R.Tensor((2, 3, 4), dtype=\"float8_e4m3fn\")"},
    {"dequantize", "T[2,3,4]:int8, T[4]:float32, T[4]:int8, -1, \"float32\"",
     "R.Tensor((2, 3, 4), dtype=\"float32\")"},
    {"dequantize", "T[2,3,4]:int8, T[4]:float16, T[4]:int8, -1, \"float16\"",
     "R.Tensor((2, 3, 4), dtype=\"float16\")"},
    {"dequantize", "T[2,3,4]:int8, T[4]:float32, T[4]:int8, -1, \"int32\"",
     "!TypeError: Unsupported output datatype attribute for operation: int32"},
    {"dequantize", "T[2,3,4]:uint32, T[4]:float32, T[4]:int8, -1, \"float32\"",
     "!TypeError: Unsupported input datatype for operation: float32"},
    {"dequantize", "T[2,3,4]:float8_e4m3fn, T[4]:float32, T[4]:float8_e4m3fn, -1, \"float32\"",
     "!TypeError: zero_point param datatype should be one of ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'float16'], but got T.float8_e4m3fn"},
    {"dequantize", "T[2,4]:int8, T[4]:float32, T[4]:int8, 2, \"float32\"",
     "!ValueError: relax.dequantize: axis param is out of range (2)"},
    /* END CASES */
};

/* ---- a tiny string buffer ---------------------------------------------------------------- */
typedef struct {
  char buf[8192];
  size_t len;
} text_t;

static void put(text_t* t, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t* t, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
  va_end(ap);
  if (n > 0) t->len += (size_t)n;
  if (t->len >= sizeof(t->buf)) t->len = sizeof(t->buf) - 1;
}

/* ---- the argument parser ----------------------------------------------------------------- */
#define MAX_SYMS 16
#define MAX_OWNED 256

typedef struct {
  const char* s;
  size_t i;
  const char* names;
  struct {
    char name[16];
    TVMFFIObject* obj;
  } syms[MAX_SYMS];
  int nsyms;
  int failed;
} parser_t;

static void ws(parser_t* p) {
  while (p->s[p->i] == ' ') p->i++;
}
static char peek(parser_t* p) {
  ws(p);
  return p->s[p->i];
}
static void eat(parser_t* p, char c) {
  ws(p);
  if (p->s[p->i] != c) {
    fprintf(stderr, "parse error at %zu in '%s': expected '%c'\n", p->i, p->s, c);
    p->failed = 1;
    return;
  }
  p->i++;
}
static size_t ident(parser_t* p, char* out, size_t n) {
  ws(p);
  size_t k = 0;
  while ((p->s[p->i] >= 'a' && p->s[p->i] <= 'z') || (p->s[p->i] >= 'A' && p->s[p->i] <= 'Z') ||
         p->s[p->i] == '_' || (k > 0 && p->s[p->i] >= '0' && p->s[p->i] <= '9')) {
    if (k + 1 < n) out[k++] = p->s[p->i];
    p->i++;
  }
  out[k] = 0;
  return k;
}
/* A number: *is_float tells which of *iv / *fv holds it. */
static void number(parser_t* p, int64_t* iv, double* fv, int* is_float) {
  ws(p);
  const char* start = p->s + p->i;
  char* end;
  size_t k = 0;
  int flt = 0;
  while (start[k] == '-' || start[k] == '.' || start[k] == 'e' || (start[k] >= '0' && start[k] <= '9')) {
    if (start[k] == '.' || start[k] == 'e') flt = 1;
    k++;
  }
  if (flt) *fv = strtod(start, &end);
  else *iv = strtoll(start, &end, 10);
  *is_float = flt;
  p->i += (size_t)(end - start);
}

static TVMFFIObject* sym(parser_t* p, const char* name, int shape_ndim) {
  for (int k = 0; k < p->nsyms; ++k)
    if (strcmp(p->syms[k].name, name) == 0) return p->syms[k].obj;
  TVMFFIObject* ty = shape_ndim >= 0 ? trx_shape_type_new(NULL, shape_ndim)
                                     : trx_prim_type_new((DLDataType){kDLInt, 64, 1});
  TVMFFIObject* v = trx_var_new(name, strlen(name), ty, false);
  TVMFFIObjectDecRef(ty);
  snprintf(p->syms[p->nsyms].name, sizeof(p->syms[0].name), "%s", name);
  p->syms[p->nsyms].obj = v;
  p->nsyms++;
  return v;
}

/* New reference to a dim: an IntImm int64 or a symbolic Var. */
static TVMFFIObject* dim(parser_t* p) {
  char c = peek(p);
  if (c == '-' || (c >= '0' && c <= '9')) {
    int64_t v = 0;
    double f;
    int fl;
    number(p, &v, &f, &fl);
    return trx_int64(v);
  }
  char name[16];
  ident(p, name, sizeof(name));
  TVMFFIObject* v = sym(p, name, -1);
  TVMFFIObjectIncRef(v);
  return v;
}

static TVMFFIObject* dims_array(parser_t* p, char close) {
  TVMFFIAny items[16];
  int n = 0;
  if (peek(p) != close) {
    for (;;) {
      TVMFFIObject* d = dim(p);
      items[n++] = tether_any_object(d);
      if (peek(p) == ',') {
        eat(p, ',');
        continue;
      }
      break;
    }
  }
  eat(p, close);
  TVMFFIObjectHandle arr = NULL;
  tether_array_new(items, n, &arr);
  for (int k = 0; k < n; ++k) TVMFFIObjectDecRef(items[k].v_obj);
  return (TVMFFIObject*)arr;
}

static DLDataType dtype(parser_t* p) {
  eat(p, ':');
  if (peek(p) == '?') {
    eat(p, '?');
    return (DLDataType){kDLOpaqueHandle, 0, 0};
  }
  char name[32];
  size_t n = ident(p, name, sizeof(name));
  TVMFFIByteArray s = {name, n};
  DLDataType t = {0, 0, 0};
  if (TVMFFIDataTypeFromString(&s, &t) != 0) p->failed = 1;
  return t;
}

static const char* next_name(parser_t* p) {
  static char buf[2];
  buf[0] = *p->names ? *p->names++ : 'q';
  buf[1] = 0;
  return buf;
}

static void value(parser_t* p, TVMFFIAny* out);

/* Comma-separated values up to `close`; returns the count. */
static int values(parser_t* p, char close, TVMFFIAny* out, int max) {
  int n = 0;
  if (peek(p) == close) {
    if (close) eat(p, close);
    return 0;
  }
  for (;;) {
    if (n < max) value(p, &out[n++]);
    if (peek(p) == ',') {
      eat(p, ',');
      continue;
    }
    if (close) eat(p, close);
    return n;
  }
}

/* *out: an owning Any. */
static void value(parser_t* p, TVMFFIAny* out) {
  char name[32] = {0};
  *out = tether_any_none();
  ws(p);
  /* name=... */
  {
    size_t j = p->i;
    while (p->s[j] >= 'a' && p->s[j] <= 'z') j++;
    if (j > p->i && p->s[j] == '=') {
      snprintf(name, sizeof(name), "%.*s", (int)(j - p->i), p->s + p->i);
      p->i = j + 1;
    }
  }
  char c = peek(p);
  if (c == '"') {
    const char* start = p->s + p->i + 1;
    const char* end = strchr(start, '"');
    tether_any_str(start, (size_t)(end - start), out);
    p->i = (size_t)(end - p->s) + 1;
    return;
  }
  if (c == '[' || c == '(') {
    TVMFFIAny items[16];
    eat(p, c);
    int n = values(p, c == '[' ? ']' : ')', items, 16);
    if (c == '(') {
      for (int k = 0; k < n; ++k) {
        if (items[k].type_index == kTVMFFIInt) {
          TVMFFIObject* imm = trx_int64(items[k].v_int64);
          items[k] = tether_any_object(imm);
        }
      }
    }
    TVMFFIObjectHandle arr = NULL;
    tether_array_new(items, n, &arr);
    for (int k = 0; k < n; ++k) tether_any_release(&items[k]);
    if (c == '(') {
      TVMFFIObject* t = trx_tuple_new((TVMFFIObject*)arr);
      TVMFFIObjectDecRef(arr);
      *out = tether_any_object(t);
    } else {
      *out = tether_any_object(arr);
    }
    return;
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    int64_t iv = 0;
    double fv = 0;
    int fl;
    number(p, &iv, &fv, &fl);
    *out = fl ? tether_any_float(fv) : tether_any_int(iv);
    return;
  }
  char w[16];
  ident(p, w, sizeof(w));
  TVMFFIObject* obj = NULL;
  if (strcmp(w, "None") == 0) return;
  if (strcmp(w, "True") == 0 || strcmp(w, "False") == 0) {
    *out = tether_any_bool(w[0] == 'T');
    return;
  }
  if (strcmp(w, "T") == 0) {
    TVMFFIObject* shape = NULL;
    int64_t ndim = -1;
    if (peek(p) == '[') {
      eat(p, '[');
      TVMFFIObject* arr = dims_array(p, ']');
      ndim = tether_array_size(arr);
      shape = trx_shape_expr_new(arr);
      TVMFFIObjectDecRef(arr);
    } else if (peek(p) == '#') {
      int64_t iv = 0;
      double fv;
      int fl;
      eat(p, '#');
      number(p, &iv, &fv, &fl);
      ndim = iv;
    } else if (peek(p) == '$') {
      char sn[16];
      int64_t iv = 0;
      double fv;
      int fl;
      eat(p, '$');
      ident(p, sn, sizeof(sn));
      eat(p, '#');
      number(p, &iv, &fv, &fl);
      shape = sym(p, sn, (int)iv);
      TVMFFIObjectIncRef(shape);
      ndim = iv;
    }
    DLDataType dt = dtype(p);
    TVMFFIObject* ty = trx_tensor_type_new(shape, dt, shape ? -1 : ndim);
    if (shape) TVMFFIObjectDecRef(shape);
    const char* nm = name[0] ? name : next_name(p);
    obj = trx_var_new(nm, strlen(nm), ty, false);
    TVMFFIObjectDecRef(ty);
  } else if (strcmp(w, "S") == 0) {
    eat(p, '[');
    TVMFFIObject* arr = dims_array(p, ']');
    obj = trx_shape_expr_new(arr);
    TVMFFIObjectDecRef(arr);
  } else if (strcmp(w, "P") == 0) {
    TVMFFIObject* ty = trx_prim_type_new(dtype(p));
    const char* nm = name[0] ? name : next_name(p);
    obj = trx_var_new(nm, strlen(nm), ty, false);
    TVMFFIObjectDecRef(ty);
  } else if (strcmp(w, "V") == 0) {
    char sn[16];
    int64_t iv = 0;
    double fv;
    int fl;
    eat(p, '$');
    ident(p, sn, sizeof(sn));
    eat(p, '#');
    number(p, &iv, &fv, &fl);
    obj = sym(p, sn, (int)iv);
    TVMFFIObjectIncRef(obj);
  } else if (strcmp(w, "I") == 0 || strcmp(w, "F") == 0) {
    int64_t iv = 0;
    double fv = 0;
    int fl;
    eat(p, '(');
    number(p, &iv, &fv, &fl);
    eat(p, ')');
    obj = w[0] == 'I' ? trx_int64(iv)
                      : trx_float_imm_new((DLDataType){kDLFloat, 64, 1}, fl ? fv : (double)iv);
  } else if (strcmp(w, "D") == 0) {
    obj = dim(p);
  } else {
    fprintf(stderr, "bad token %s in '%s'\n", w, p->s);
    p->failed = 1;
    return;
  }
  if (obj == NULL) {
    p->failed = 1;
    return;
  }
  *out = tether_any_object(obj); /* owning: we hold the one reference */
}

static void parser_free(parser_t* p) {
  for (int k = 0; k < p->nsyms; ++k) TVMFFIObjectDecRef(p->syms[k].obj);
  p->nsyms = 0;
}

/* ---- rendering a Type the way the generator renders TVM's ------------------------------------ */
static void fmt_dim(text_t* t, TVMFFIObject* d, int parent, int right);

static int binop_prec(TVMFFIObject* d, const char** op) {
  static const struct {
    trx_kind kind;
    int prec;
    const char* op;
  } table[] = {{TRX_PRIM_ADD, 1, " + "},       {TRX_PRIM_SUB, 1, " - "},
               {TRX_PRIM_MUL, 2, " * "},       {TRX_PRIM_FLOORDIV, 2, " // "},
               {TRX_PRIM_FLOORMOD, 2, " % "}};
  for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); ++k) {
    if (trx_is(d, table[k].kind)) {
      *op = table[k].op;
      return table[k].prec;
    }
  }
  return 0;
}

static void fmt_dim(text_t* t, TVMFFIObject* d, int parent, int right) {
  const char* op;
  int prec;
  if (trx_is(d, TRX_INT_IMM)) {
    put(t, "%lld", (long long)((trx_int_imm_t*)d)->value);
  } else if (trx_is(d, TRX_VAR)) {
    TVMFFIByteArray s;
    tether_any_get_str(&((trx_var_t*)d)->name, &s);
    put(t, "%.*s", (int)s.size, s.data);
  } else if ((prec = binop_prec(d, &op)) != 0) {
    int paren = prec < parent || (right && prec == parent);
    if (paren) put(t, "(");
    fmt_dim(t, ((trx_binop_t*)d)->a, prec, 0);
    put(t, "%s", op);
    fmt_dim(t, ((trx_binop_t*)d)->b, prec, 1);
    if (paren) put(t, ")");
  } else if (trx_is(d, TRX_PRIM_MIN) || trx_is(d, TRX_PRIM_MAX)) {
    put(t, "T.%s(", trx_is(d, TRX_PRIM_MIN) ? "min" : "max");
    fmt_dim(t, ((trx_binop_t*)d)->a, 0, 0);
    put(t, ", ");
    fmt_dim(t, ((trx_binop_t*)d)->b, 0, 0);
    put(t, ")");
  } else {
    put(t, "<%s>", d ? tether_type_key(d->type_index) : "null");
  }
}

static void fmt_dtype(text_t* t, DLDataType dt) {
  TVMFFIAny s = tether_any_none();
  TVMFFIByteArray b;
  TVMFFIDataTypeToString(&dt, &s);
  tether_any_get_str(&s, &b);
  put(t, "%.*s", (int)b.size, b.data);
  tether_any_release(&s);
}

static int dtype_void(DLDataType dt) { return dt.code == kDLOpaqueHandle && dt.bits == 0; }

static void fmt_type(text_t* t, TVMFFIObject* ty) {
  if (trx_is(ty, TRX_TENSOR_TYPE)) {
    trx_tensor_type_t* tt = (trx_tensor_type_t*)ty;
    int parts = 0;
    put(t, "R.Tensor");
    if (tt->shape != NULL) {
      put(t, "(");
      parts++;
      if (trx_is(tt->shape, TRX_SHAPE_EXPR)) {
        TVMFFIObject* v = ((trx_shape_expr_t*)tt->shape)->values;
        int64_t n = tether_array_size(v);
        put(t, "(");
        for (int64_t i = 0; i < n; ++i) {
          if (i) put(t, ", ");
          fmt_dim(t, tether_array_at(v, i)->v_obj, 0, 0);
        }
        put(t, "%s)", n == 1 ? "," : "");
      } else {
        fmt_dim(t, tt->shape, 0, 0);
      }
    }
    if (!dtype_void(trx_tensor_dtype(tt))) {
      put(t, parts++ ? ", dtype=\"" : "(dtype=\"");
      fmt_dtype(t, trx_tensor_dtype(tt));
      put(t, "\"");
    }
    if (tt->shape == NULL && tt->ndim != -1) put(t, parts++ ? ", ndim=%lld" : "(ndim=%lld", (long long)tt->ndim);
    if (parts) put(t, ")");
  } else if (trx_is(ty, TRX_TUPLE_TYPE)) {
    TVMFFIObject* f = ((trx_tuple_type_t*)ty)->fields;
    int64_t n = tether_array_size(f);
    put(t, "R.Tuple");
    if (n) put(t, "(");
    for (int64_t i = 0; i < n; ++i) {
      if (i) put(t, ", ");
      fmt_type(t, tether_array_at(f, i)->v_obj);
    }
    if (n) put(t, ")");
  } else if (trx_is(ty, TRX_PRIM_TYPE)) {
    put(t, "R.Prim(\"");
    fmt_dtype(t, ((trx_prim_type_t*)ty)->dtype);
    put(t, "\")");
  } else if (trx_is(ty, TRX_SHAPE_TYPE)) {
    trx_shape_type_t* st = (trx_shape_type_t*)ty;
    if (st->values) {
      int64_t n = tether_array_size(st->values);
      put(t, "R.Shape([");
      for (int64_t i = 0; i < n; ++i) {
        if (i) put(t, ", ");
        fmt_dim(t, tether_array_at(st->values, i)->v_obj, 0, 0);
      }
      put(t, "])");
    } else {
      put(t, "R.Shape(ndim=%lld)", (long long)st->ndim);
    }
  } else {
    put(t, "%s", ty ? tether_type_key(ty->type_index) : "None");
  }
}

static void fmt_error(text_t* t, const char* prefix) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    put(t, "%s<no error raised>", prefix);
    return;
  }
  TVMFFIByteArray k = tether_error_kind(err), m = tether_error_message(err);
  put(t, "%s%.*s: %.*s", prefix, (int)k.size, k.data, (int)m.size, m.data);
  TVMFFIObjectDecRef(err);
}

/* Runs one row; returns the rendered outcome in `t`. */
static void run_case(const op_case_t* c, text_t* t) {
  parser_t p = {c->args, 0, "xyzwuvabcdefgh", {{{0}, NULL}}, 0, 0};
  TVMFFIAny args[16];
  int n = values(&p, 0, args, 16);
  char gname[64];
  snprintf(gname, sizeof(gname), "relax.op.%s", c->op);
  if (p.failed) {
    put(t, "<bad case notation>");
  } else {
    TVMFFIObjectHandle f = tether_func_get(gname);
    TVMFFIAny call = tether_any_none();
    if (f == NULL) {
      fmt_error(t, "!!!");
    } else if (tether_func_call(f, args, n, &call) != 0) {
      fmt_error(t, "!!");
    } else {
      TVMFFIObject* ty = trx_infer_type(call.v_obj);
      if (ty == NULL) {
        fmt_error(t, "!");
      } else {
        fmt_type(t, ty);
        TVMFFIObjectDecRef(ty);
      }
      /* constructors leave the type unset */
      if (((trx_expr_t*)call.v_obj)->ty != NULL) put(t, " <ty was set by the constructor>");
    }
    tether_any_release(&call);
    if (f) TVMFFIObjectDecRef(f);
  }
  for (int k = 0; k < n; ++k) tether_any_release(&args[k]);
  parser_free(&p);
}

static void test_op_infer_table(void) {
  size_t n = sizeof(op_cases) / sizeof(op_cases[0]);
  int failed = 0;
  for (size_t i = 0; i < n; ++i) {
    text_t t = {{0}, 0};
    run_case(&op_cases[i], &t);
    const char* want = op_cases[i].ours ? op_cases[i].ours : op_cases[i].expected;
    if (strcmp(t.buf, want) != 0) {
      fprintf(stderr, "case %zu: %s %s\n  expected: %s\n  got:      %s\n", i, op_cases[i].op,
              op_cases[i].args, op_cases[i].expected, t.buf);
      failed++;
    }
  }
  if (failed) fprintf(stderr, "%d of %zu op cases differ\n", failed, n);
  CHECK_EQ_INT(failed, 0);
}

TEST_MAIN(TEST_CASE(test_op_infer_table))
