"""Fused multiply-adds (``a * b + c``, rounded once) that the kernels spell out.

With ``fastmath`` LLVM fuses and reorders float arithmetic as it sees fit, so a small
change around a sum can change its rounding; and it leaves ``y[i] += a * x[i]`` over two
arrays scalar, because it cannot tell that they do not overlap. These intrinsics fix both:
:func:`fma` is one fused multiply-add, and :func:`dense_adder` makes a whole layer's sums
``y = y0 + Σ_j a_j · w_j`` as one vector fused multiply-add per input (each lane rounds
exactly as the scalar ``fma`` would), the sums kept in registers and stored once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_F64 = ir.DoubleType()


def _contiguous_f64(t) -> bool:
    return isinstance(t, types.Array) and t.dtype == types.float64 and t.ndim == 1 \
        and t.layout == "C"


if TYPE_CHECKING:  # as compiled code calls it: an intrinsic's own first argument is
    # Numba's typing context
    def fma(a: float, b: float, c: float) -> float: ...
else:
    @intrinsic
    def fma(typingctx, a, b, c):
        """``a * b + c`` rounded once (float64)."""
        if not all(isinstance(t, (types.Float, types.Integer)) for t in (a, b, c)):
            return None

        def codegen(context, builder, sig, args):
            vals = [context.cast(builder, v, t, types.float64) for v, t in zip(args, sig.args)]
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(_F64, [_F64] * 3), "llvm.fma.f64")
            return builder.call(fn, vals)
        return types.float64(a, b, c), codegen


def _f64_row(context, builder, aty, arr, base, bty):
    # a pointer to arr[base] (arr a contiguous float64 array)
    data = context.make_array(aty)(context, builder, arr).data
    return builder.gep(data, [context.cast(builder, base, bty, types.intp)])


def dense_adder(width: int, inputs: int, relu: bool = False):
    """An intrinsic ``dense(y, y0, y0base, x, xbase, w, wbase)``: ``y[:width]`` set to
    ``y0[y0base:][:width]`` plus, for each input ``j`` in ``0 .. inputs - 1`` in order,
    ``a_j · w[wbase + j·width:][:width]`` (one fused multiply-add a lane, as the scalar
    :func:`fma` would round it), ``a_j = x[xbase + j]``, or ``max(x[xbase + j], 0)`` with
    ``relu``. All arrays contiguous float64, ``y`` apart from the others; nothing checks
    the bounds."""
    vty = ir.VectorType(_F64, width)
    i32 = ir.IntType(32)
    zero = ir.Constant(_F64, 0.0)

    @intrinsic
    def dense(typingctx, y, y0, y0base, x, xbase, w, wbase):
        if not (all(_contiguous_f64(t) for t in (y, y0, x, w))
                and all(isinstance(t, types.Integer) for t in (y0base, xbase, wbase))):
            return None

        def codegen(context, builder, sig, args):
            t = sig.args
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vty, [vty] * 3), f"llvm.fma.v{width}f64")
            y_p = builder.bitcast(context.make_array(t[0])(context, builder, args[0]).data,
                                  vty.as_pointer())
            acc = builder.load(builder.bitcast(
                _f64_row(context, builder, t[1], args[1], args[2], t[2]), vty.as_pointer()),
                align=8)
            x_p = _f64_row(context, builder, t[3], args[3], args[4], t[4])
            w_p = _f64_row(context, builder, t[5], args[5], args[6], t[6])
            splat0 = ir.Constant(ir.VectorType(i32, width), [0] * width)
            for j in range(inputs):
                a = builder.load(builder.gep(x_p, [ir.Constant(i32, j)]), align=8)
                if relu:
                    a = builder.select(builder.fcmp_ordered(">", a, zero), a, zero)
                lanes = builder.shuffle_vector(
                    builder.insert_element(ir.Constant(vty, ir.Undefined), a,
                                           ir.Constant(i32, 0)),
                    ir.Constant(vty, ir.Undefined), splat0)
                row = builder.bitcast(builder.gep(w_p, [ir.Constant(i32, j * width)]),
                                      vty.as_pointer())
                acc = builder.call(fn, [lanes, builder.load(row, align=8), acc])
            builder.store(acc, y_p, align=8)
            return context.get_dummy_value()
        return types.void(y, y0, y0base, x, xbase, w, wbase), codegen
    return dense
