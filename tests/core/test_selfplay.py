"""The game-neutral self-play trainer and its numpy network: the fit recovers a known function,
and a run resumed from its checkpoint ends with the weights of a run never interrupted."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from analyzer.core import mlp
from analyzer.core.selfplay import TrainConfig, Trainer


def _target(x: np.ndarray) -> np.ndarray:
    return np.maximum(x[:, 0] - x[:, 1], 0.0) * 2.0 + 0.5 * x[:, 2] * x[:, 3] - x[:, 4]


def test_fit_recovers_a_known_function():
    """A nonlinear target on held-out rows: the fitted network explains almost all of its
    variance, far more than the best linear fit can (so the hidden layers do the work)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(24_000, 5))
    y = _target(x)
    xt, yt, xv, yv = x[:20_000], y[:20_000], x[20_000:], y[20_000:]
    sizes = (5, 16, 8, 1)
    w0 = mlp.init(sizes, np.random.default_rng(4))
    before = mlp.mse(w0, sizes, xv, yv)
    w, rep = mlp.fit(w0, sizes, (xt, yt), (xv, yv), np.random.default_rng(5),
                     mlp.FitSettings(lr=3e-3, epochs=25, batch=256))
    after = mlp.mse(w, sizes, xv, yv)
    lin = np.linalg.lstsq(np.c_[xt, np.ones(len(xt))], yt, rcond=None)[0]
    linear = float(np.mean((np.c_[xv, np.ones(len(xv))] @ lin - yv) ** 2))
    assert after < 0.03 * np.var(yv)
    assert after < 0.2 * linear
    assert before > 10 * after
    assert rep.valid[-1] == pytest.approx(after)
    assert np.array_equal(w0, mlp.init(sizes, np.random.default_rng(4)))  # w0 untouched


def test_pack_and_unpack_are_inverse():
    sizes = (3, 4, 2, 1)
    w = np.arange(mlp.n_weights(sizes), dtype=np.float64)
    layers = mlp.unpack(w, sizes)
    assert [a.shape for a, _ in layers] == [(3, 4), (4, 2), (2, 1)]
    assert np.array_equal(mlp.pack(layers), w)
    with pytest.raises(ValueError):
        mlp.unpack(w[:-1], sizes)


@dataclass(frozen=True)
class ToyGame:
    """A game-free stand-in: inputs drawn from the seed, returns a fixed function of them
    that the behaviour's weights shift a little (so every round depends on the last)."""
    name: str = "toy"
    sizes: tuple[int, ...] = (5, 8, 4, 1)

    def play(self, weights, seed, hands, explore):
        rng = np.random.default_rng(seed)
        x = rng.normal(size=(3 * hands, 5))
        y = _target(x) + explore * rng.normal(size=3 * hands)
        if weights is not None:
            y = y + 0.1 * mlp.forward(weights, self.sizes, x)
        return x, y, np.repeat(np.arange(hands), 3)

    def evaluate(self, weights, seed, deals):
        x = np.random.default_rng(seed).normal(size=(deals, 5))
        return {"score": -mlp.mse(weights, self.sizes, x, _target(x))}


def _config(rounds: int, seed: int = 7) -> TrainConfig:
    return TrainConfig(seed=seed, rounds=rounds, hands=600, tasks=3, explore=0.1, window=2,
                       fit=mlp.FitSettings(epochs=2, batch=128), eval_deals=200)


def test_trainer_resumes_to_the_weights_of_an_uninterrupted_run(tmp_path):
    lines: list[str] = []
    whole = Trainer(ToyGame(), _config(3), tmp_path / "whole", "cmd").run()
    Trainer(ToyGame(), _config(2), tmp_path / "cut", "cmd").run()  # stopped after round 2
    resumed = Trainer(ToyGame(), _config(3), tmp_path / "cut", "cmd again",
                      progress=lines.append).run()
    assert any("resuming after round 2" in line for line in lines)
    assert resumed["round"] == whole["round"] == 2
    assert resumed["commands"] == ["cmd", "cmd again"]
    w_whole = Trainer(ToyGame(), _config(3), tmp_path / "whole").load_weights(2)
    w_cut = Trainer(ToyGame(), _config(3), tmp_path / "cut").load_weights(2)
    assert np.array_equal(w_whole, w_cut)
    assert [h["eval"] for h in whole["history"]] == [h["eval"] for h in resumed["history"]]
    # the rounds learn: the evaluation improves on the first round's
    assert whole["history"][-1]["eval"]["score"] > whole["history"][0]["eval"]["score"]
    # teeth: another seed trains other weights
    Trainer(ToyGame(), _config(3, seed=8), tmp_path / "other").run()
    w_other = Trainer(ToyGame(), _config(3, seed=8), tmp_path / "other").load_weights(2)
    assert not np.array_equal(w_whole, w_other)


def test_trainer_refuses_a_folder_of_another_run(tmp_path):
    Trainer(ToyGame(), _config(1), tmp_path / "run").run()
    other = TrainConfig(seed=7, rounds=2, hands=900, tasks=3)
    with pytest.raises(ValueError, match="another training run"):
        Trainer(ToyGame(), other, tmp_path / "run").run()
    with pytest.raises(ValueError):
        Trainer(ToyGame(), TrainConfig(explore=2.0), tmp_path / "bad")
