"""A small multilayer perceptron in numpy: ReLU hidden layers, one linear output, squared loss.

The weights travel as one flat float64 vector, layer by layer: ``W`` as ``[inputs,
outputs]`` row by row, then ``b`` (:func:`pack`, :func:`unpack`); a game's kernel reads the
same vector. :func:`fit` is Adam on minibatches drawn from a seeded ``numpy`` Generator,
with an L2 penalty on the ``W`` and a validation loss after every epoch: the same data, seed
and settings give the same weights.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def n_weights(sizes: tuple[int, ...]) -> int:
    """Length of the flat vector of a network with layer widths ``sizes`` (inputs first, 1
    last)."""
    return sum(a * b + b for a, b in zip(sizes[:-1], sizes[1:]))


def unpack(w: np.ndarray, sizes: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The ``(W, b)`` of each layer, views into ``w``."""
    if w.shape != (n_weights(sizes),):
        raise ValueError(f"a network of widths {sizes} has {n_weights(sizes)} weights, got "
                         f"{w.shape}")
    out, o = [], 0
    for a, b in zip(sizes[:-1], sizes[1:]):
        out.append((w[o:o + a * b].reshape(a, b), w[o + a * b:o + a * b + b]))
        o += a * b + b
    return out


def pack(layers: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The flat vector of ``layers`` (the inverse of :func:`unpack`)."""
    return np.concatenate([np.concatenate([w.ravel(), b]) for w, b in layers])


def init(sizes: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """He-initialised weights (zero biases) for widths ``sizes``."""
    if len(sizes) < 2 or sizes[-1] != 1 or min(sizes) < 1:
        raise ValueError(f"layer widths must be positive and end in 1, got {sizes}")
    return pack([(rng.normal(0.0, np.sqrt(2.0 / a), (a, b)), np.zeros(b))
                 for a, b in zip(sizes[:-1], sizes[1:])])


def forward(w: np.ndarray, sizes: tuple[int, ...], x: np.ndarray) -> np.ndarray:
    """The network's output for each row of ``x``."""
    h = x
    layers = unpack(w, sizes)
    for k, (wk, bk) in enumerate(layers):
        h = h @ wk + bk
        if k < len(layers) - 1:
            h = np.maximum(h, 0.0)
    return h[:, 0]


def _grad(layers, x, y):
    """Mean squared error on ``(x, y)`` and its gradient per layer."""
    acts = [x]
    h = x
    for k, (wk, bk) in enumerate(layers):
        h = h @ wk + bk
        if k < len(layers) - 1:
            h = np.maximum(h, 0.0)
        acts.append(h)
    err = acts[-1][:, 0] - y
    loss = float(np.mean(err * err))
    d = (2.0 / len(y)) * err[:, None]
    grads = []
    for k in range(len(layers) - 1, -1, -1):
        wk, _ = layers[k]
        grads.append((acts[k].T @ d, d.sum(axis=0)))
        if k > 0:
            d = (d @ wk.T) * (acts[k] > 0)
    return loss, grads[::-1]


@dataclass
class FitSettings:
    """Adam's step size, the L2 penalty on ``W``, epochs and the minibatch size."""
    lr: float = 1e-3
    l2: float = 1e-5
    epochs: int = 3
    batch: int = 1024

    def check(self) -> None:
        if not (self.lr > 0 and self.l2 >= 0 and self.epochs >= 1 and self.batch >= 1):
            raise ValueError("the fit needs lr > 0, l2 >= 0, epochs >= 1 and batch >= 1")


@dataclass
class FitReport:
    """Losses after every epoch (mean squared error, training minibatches and validation)."""
    train: list[float] = field(default_factory=list)
    valid: list[float] = field(default_factory=list)


def mse(w: np.ndarray, sizes: tuple[int, ...], x: np.ndarray, y: np.ndarray,
        block: int = 65536) -> float:
    """Mean squared error of the network on ``(x, y)``, in blocks of rows."""
    total = 0.0
    for a in range(0, len(y), block):
        e = forward(w, sizes, x[a:a + block]) - y[a:a + block]
        total += float(np.sum(e * e))
    return total / max(1, len(y))


def fit(w: np.ndarray, sizes: tuple[int, ...], data: tuple[np.ndarray, np.ndarray],
        valid: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
        settings: FitSettings | None = None) -> tuple[np.ndarray, FitReport]:
    """Weights fitted from ``w`` to ``data = (x, y)`` by Adam (minibatches in an order drawn
    from ``rng``), and the losses; ``w`` itself is not changed."""
    s = settings or FitSettings()
    s.check()
    x, y = data
    if len(x) != len(y) or len(y) == 0:
        raise ValueError("the fit needs as many targets as inputs, at least one")
    w = np.array(w, dtype=np.float64)
    layers = unpack(w, sizes)
    m1 = [(np.zeros_like(a), np.zeros_like(b)) for a, b in layers]
    m2 = [(np.zeros_like(a), np.zeros_like(b)) for a, b in layers]
    report = FitReport()
    step = 0
    for _ in range(s.epochs):
        order = rng.permutation(len(y))
        losses = []
        for a in range(0, len(y), s.batch):
            idx = order[a:a + s.batch]
            loss, grads = _grad(layers, x[idx].astype(np.float64), y[idx].astype(np.float64))
            losses.append(loss)
            step += 1
            c1, c2 = 1 - 0.9 ** step, 1 - 0.999 ** step
            for k, ((wk, bk), (gw, gb)) in enumerate(zip(layers, grads)):
                gw = gw + 2 * s.l2 * wk
                for p, g, j in ((wk, gw, 0), (bk, gb, 1)):
                    mom, sq = m1[k][j], m2[k][j]
                    mom *= 0.9
                    mom += 0.1 * g
                    sq *= 0.999
                    sq += 0.001 * g * g
                    p -= s.lr * (mom / c1) / (np.sqrt(sq / c2) + 1e-8)
        report.train.append(float(np.mean(losses)))
        report.valid.append(mse(w, sizes, *valid) if len(valid[1]) else float("nan"))
    return w, report
