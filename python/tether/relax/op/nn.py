"""relax.op.nn: neural-network operators.  Each is a plain Python function with TVM's
signature and defaults that calls the C constructor global "relax.op.nn.<name>", which returns
the un-normalized Call (its type is inferred by BlockBuilder.normalize / emit).  Where TVM's
wrapper widens an int (a stride to a pair, a padding to four values), the global is called
through _util.widen, which does that in C."""
from __future__ import annotations

from ._util import ffi, widen

# Typing names for annotations only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional, Tuple, Union
    from ...ir import Expr

__all__ = ["conv1d", "conv2d", "conv2d_transpose", "max_pool2d", "avg_pool2d",
           "adaptive_avg_pool2d", "relu", "gelu", "gelu_tanh", "silu", "selu", "softmax",
           "log_softmax", "batch_norm", "layer_norm", "dropout"]

_conv1d = widen("nn.conv1d", (0, 0, 1, 2, 1, 0, 0, 0, 0, 0))
_conv2d = widen("nn.conv2d", (0, 0, 2, 4, 2, 0, 0, 0, 0, 0))
_conv2d_transpose = widen("nn.conv2d_transpose", (0, 0, 2, 4, 2, 2, 0, 0, 0, 0, 0))
_max_pool2d = widen("nn.max_pool2d", (0, 2, 2, 4, 2, 0, 0, 0, 0))
_avg_pool2d = widen("nn.avg_pool2d", (0, 2, 2, 4, 2, 0, 0, 0, 0))
_adaptive_avg_pool2d = widen("nn.adaptive_avg_pool2d", (0, 2, 0, 0))
_relu = ffi("nn.relu")
_gelu = ffi("nn.gelu")
_gelu_tanh = ffi("nn.gelu_tanh")
_silu = ffi("nn.silu")
_selu = ffi("nn.selu")
_softmax = ffi("nn.softmax")
_log_softmax = ffi("nn.log_softmax")
_batch_norm = ffi("nn.batch_norm")
_layer_norm = widen("nn.layer_norm", (0, 0, 0, 1, 0, 0, 0))
_dropout = ffi("nn.dropout")


def conv1d(data: Expr, weight: Expr, strides: Union[int, Tuple[int]] = 1,
           padding: Union[int, Tuple[int, ...]] = 0, dilation: Union[int, Tuple[int]] = 1,
           groups: int = 1, data_layout: str = "NCW", kernel_layout: str = "OIW",
           out_layout: Optional[str] = None, out_dtype: Optional[str] = None) -> Expr:
    """1-D convolution (relax.nn.conv1d)."""
    return _conv1d(data, weight, strides, padding, dilation,
                   groups, data_layout, kernel_layout, out_layout, out_dtype)


def conv2d(data: Expr, weight: Expr, strides: Union[int, Tuple[int, int]] = (1, 1),
           padding: Union[int, Tuple[int, ...]] = (0, 0),
           dilation: Union[int, Tuple[int, int]] = (1, 1), groups: int = 1,
           data_layout: str = "NCHW", kernel_layout: str = "OIHW",
           out_layout: Optional[str] = None, out_dtype: Optional[str] = None) -> Expr:
    """2-D convolution (relax.nn.conv2d).  padding: 1, 2 or 4 values (top, left, bottom,
    right); out_layout defaults to data_layout."""
    return _conv2d(data, weight, strides, padding, dilation,
                   groups, data_layout, kernel_layout, out_layout, out_dtype)


def conv2d_transpose(data: Expr, weight: Expr, strides: Union[int, Tuple[int, int]] = (1, 1),
                     padding: Union[int, Tuple[int, ...]] = (0, 0),
                     output_padding: Union[int, Tuple[int, int]] = (0, 0),
                     dilation: Union[int, Tuple[int, int]] = (1, 1), groups: int = 1,
                     data_layout: str = "NCHW", kernel_layout: str = "IOHW",
                     out_layout: Optional[str] = None, out_dtype: Optional[str] = None) -> Expr:
    """2-D transposed convolution (relax.nn.conv2d_transpose)."""
    return _conv2d_transpose(data, weight, strides, padding,
                             output_padding, dilation, groups,
                             data_layout, kernel_layout, out_layout, out_dtype)


def max_pool2d(data: Expr, pool_size: Union[int, Tuple[int, int]] = (1, 1),
               strides: Union[int, Tuple[int, int]] = (1, 1),
               padding: Union[int, Tuple[int, ...]] = (0, 0),
               dilation: Union[int, Tuple[int, int]] = (1, 1), ceil_mode: bool = False,
               count_include_pad: bool = False, layout: str = "NCHW",
               out_layout: Optional[str] = None) -> Expr:
    """2-D max pooling (relax.nn.max_pool2d)."""
    return _max_pool2d(data, pool_size, strides, padding,
                       dilation, ceil_mode, count_include_pad, layout, out_layout)


def avg_pool2d(data: Expr, pool_size: Union[int, Tuple[int, int]] = (1, 1),
               strides: Union[int, Tuple[int, int]] = (1, 1),
               padding: Union[int, Tuple[int, ...]] = (0, 0),
               dilation: Union[int, Tuple[int, int]] = (1, 1), ceil_mode: bool = False,
               count_include_pad: bool = False, layout: str = "NCHW",
               out_layout: Optional[str] = None) -> Expr:
    """2-D average pooling (relax.nn.avg_pool2d)."""
    return _avg_pool2d(data, pool_size, strides, padding,
                       dilation, ceil_mode, count_include_pad, layout, out_layout)


def adaptive_avg_pool2d(data: Expr, output_size: Union[int, Tuple[int, int], None] = None,
                        layout: str = "NCHW", out_layout: Optional[str] = None) -> Expr:
    """2-D adaptive average pooling to output_size (None keeps H and W)."""
    return _adaptive_avg_pool2d(data, output_size, layout, out_layout)


def relu(data: Expr) -> Expr:
    """max(x, 0) (relax.nn.relu)."""
    return _relu(data)


def gelu(data: Expr) -> Expr:
    """GELU (relax.nn.gelu); float input."""
    return _gelu(data)


def gelu_tanh(data: Expr) -> Expr:
    """GELU, tanh approximation (relax.nn.gelu_tanh); float input."""
    return _gelu_tanh(data)


def silu(data: Expr) -> Expr:
    """x * sigmoid(x) (relax.nn.silu); float input."""
    return _silu(data)


def selu(data: Expr) -> Expr:
    """SELU (relax.nn.selu); float input."""
    return _selu(data)


def softmax(data: Expr, axis: int = -1) -> Expr:
    """Softmax over axis (relax.nn.softmax); float input."""
    return _softmax(data, axis)


def log_softmax(data: Expr, axis: int = -1) -> Expr:
    """log(softmax(x)) over axis (relax.nn.log_softmax); float input."""
    return _log_softmax(data, axis)


def batch_norm(data: Expr, gamma: Expr, beta: Expr, moving_mean: Expr, moving_var: Expr,
               axis: int, epsilon: float = 1e-5, center: bool = True, scale: bool = True,
               momentum: float = 0.1, training: bool = True) -> Expr:
    """Batch normalization (relax.nn.batch_norm): a tuple (out, new_mean, new_var)."""
    return _batch_norm(data, gamma, beta, moving_mean, moving_var, axis, float(epsilon),
                       center, scale, float(momentum), training)


def layer_norm(data: Expr, gamma: Expr, beta: Expr, axes: Union[int, list],
               epsilon: float = 1e-5, center: bool = True, scale: bool = True) -> Expr:
    """Layer normalization over axes (relax.nn.layer_norm)."""
    return _layer_norm(data, gamma, beta, axes, float(epsilon), center, scale)


def dropout(data: Expr, rate: float = 0.5) -> Expr:
    """Dropout (relax.nn.dropout): a tuple (out, mask)."""
    return _dropout(data, float(rate))
