"""Fused multiply-adds (``a * b + c``, rounded once) that the kernels spell out.

With ``fastmath`` LLVM fuses and reorders float arithmetic as it sees fit, so a small
change around a sum can change its rounding; and it leaves ``y[i] += a * x[i]`` over two
arrays scalar, because it cannot tell that they do not overlap. These intrinsics fix both:
:func:`fma` is one fused multiply-add, and :func:`scaled_adder` makes the lane-by-lane
``y[:width] += a * x[base:base + width]`` of one width as one vector instruction (each lane
rounds exactly as the scalar ``fma`` would).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_F64 = ir.DoubleType()


def _contiguous_f64(t) -> bool:
    return isinstance(t, types.Array) and t.dtype == types.float64 and t.ndim == 1 \
        and t.layout == "C"


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


def scaled_adder(width: int):
    """An intrinsic ``add(y, a, x, base)``: ``y[i] = fma(a, x[base + i], y[i])`` for ``i`` in
    ``0 .. width - 1``, ``y`` and ``x`` contiguous float64 arrays that do not overlap; nothing
    checks the bounds (``y`` holds ``width`` entries, ``x`` ``base + width``)."""
    vty = ir.VectorType(_F64, width)

    @intrinsic
    def add(typingctx, y, a, x, base):
        if not (_contiguous_f64(y) and _contiguous_f64(x) and isinstance(a, types.Float)
                and isinstance(base, types.Integer)):
            return None

        def codegen(context, builder, sig, args):
            yty, aty, xty, bty = sig.args
            y_p = builder.bitcast(context.make_array(yty)(context, builder, args[0]).data,
                                  vty.as_pointer())
            x_row = builder.gep(context.make_array(xty)(context, builder, args[2]).data,
                                [context.cast(builder, args[3], bty, types.intp)])
            x_p = builder.bitcast(x_row, vty.as_pointer())
            a = context.cast(builder, args[1], aty, types.float64)
            lanes = cgutils.get_null_value(vty)
            for i in range(width):
                lanes = builder.insert_element(lanes, a, ir.Constant(ir.IntType(32), i))
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(vty, [vty] * 3), f"llvm.fma.v{width}f64")
            out = builder.call(fn, [lanes, builder.load(x_p, align=8),
                                    builder.load(y_p, align=8)])
            builder.store(out, y_p, align=8)
            return context.get_dummy_value()
        return types.void(y, a, x, base), codegen
    return add
