"""The fused intrinsics round as a scalar chain of ``fma`` in input order, and touch only
the entries they name."""

from __future__ import annotations

import numpy as np
from numba import njit

from kernels.fused import dense_adder, fma

_WIDTH, _INPUTS = 8, 5
_dense = dense_adder(_WIDTH, _INPUTS)
_dense_relu = dense_adder(_WIDTH, _INPUTS, relu=True)


@njit(cache=True)
def _by_intrinsic(y, y0, y0base, x, xbase, w, wbase, relu):
    if relu:
        _dense_relu(y, y0, y0base, x, xbase, w, wbase)
    else:
        _dense(y, y0, y0base, x, xbase, w, wbase)


@njit(cache=True)
def _by_scalar_chain(y, y0, y0base, x, xbase, w, wbase, relu):
    for i in range(_WIDTH):
        acc = y0[y0base + i]
        for j in range(_INPUTS):
            a = x[xbase + j]
            if relu and not a > 0.0:
                a = 0.0
            acc = fma(a, w[wbase + j * _WIDTH + i], acc)
        y[i] = acc


def _case(rng):
    y0base, xbase, wbase = (int(v) for v in rng.integers(0, 7, size=3))
    y0 = rng.normal(size=y0base + _WIDTH) * 10.0 ** rng.integers(-3, 4)
    x = rng.normal(size=xbase + _INPUTS)
    x[rng.random(x.size) < 0.3] = 0.0  # inputs are often exactly 0
    w = rng.normal(size=wbase + _INPUTS * _WIDTH) * 10.0 ** rng.integers(-3, 4)
    return y0, y0base, x, xbase, w, wbase


def test_dense_equals_a_scalar_fma_chain_to_the_bit():
    rng = np.random.default_rng(np.random.SeedSequence(2911))
    for k in range(400):
        relu = bool(k % 2)
        y0, y0base, x, xbase, w, wbase = _case(rng)
        got, want = np.empty(_WIDTH), np.empty(_WIDTH)
        _by_intrinsic(got, y0, y0base, x, xbase, w, wbase, relu)
        _by_scalar_chain(want, y0, y0base, x, xbase, w, wbase, relu)
        assert got.tobytes() == want.tobytes(), (k, relu, got - want)


def test_dense_writes_only_its_width_and_reads_only_its_rows():
    rng = np.random.default_rng(np.random.SeedSequence(2912))
    y0, y0base, x, xbase, w, wbase = _case(rng)
    # entries outside the named rows are NaN: reading one would poison every sum
    y0p = np.concatenate([y0, [np.nan] * 3])
    y0p[:y0base] = np.nan
    xp = np.concatenate([x, [np.nan] * 3])
    xp[:xbase] = np.nan
    wp = np.concatenate([w, [np.nan] * 3])
    wp[:wbase] = np.nan
    for relu in (False, True):
        y = np.full(_WIDTH + 4, -7.0)
        _by_intrinsic(y, y0p, y0base, xp, xbase, wp, wbase, relu)
        want = np.empty(_WIDTH)
        _by_scalar_chain(want, y0, y0base, x, xbase, w, wbase, relu)
        assert np.isfinite(y[:_WIDTH]).all()
        assert y[:_WIDTH].tobytes() == want.tobytes()
        assert (y[_WIDTH:] == -7.0).all()
