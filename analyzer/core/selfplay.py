"""Training a policy network by self-play, for any game (deep Monte Carlo).

The game supplies a :class:`SelfPlayGame`: the network's layer widths, how to play hands with
given weights and exploration and return every decision's input with the return it led to
(the acting seat's final points), and how to evaluate weights (a duplicate tournament
against a baseline, say). This module knows no game; it runs the loop:

1. **play**: round ``r`` plays ``hands`` hands in ``tasks`` tasks through
   :func:`analyzer.core.runner.map_tasks` (local cores, or Dask with ``backend="dask"``);
   task ``t`` draws from ``SeedSequence(seed, spawn_key=(r, t))``. The behaviour is the
   current weights (before the first fit: the game's own starting policy) with exploration.
2. **fit**: the network is fitted (:func:`analyzer.core.mlp.fit`, minibatches from
   ``SeedSequence(seed, spawn_key=(r, FIT_KEY))``) to the data of the last ``window`` rounds,
   from the current weights; one hand in :data:`VALID_EVERY` is the validation set.
3. **evaluate** the new weights on the same deals every round (their seed spawned from
   ``seed`` too), and keep the best round's weights.
4. **checkpoint**: the round's data, weights and figures are written (atomically) to the
   run folder with the seed and command, so that the same call resumes after the last
   finished round and ends with the same weights as a run never interrupted.
"""

from __future__ import annotations

import functools
import io
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from . import mlp
from .fileio import write_atomic
from .runner import map_tasks

FIT_KEY = 1_000_000  # spawn key of a round's fit (task keys are smaller)
INIT_KEY = 1_000_001  # spawn key of the first weights
EVAL_KEY = 1_000_002  # spawn key of the evaluation deals' seed
VALID_EVERY = 10  # hands h with h % 10 == 9 are the validation set


class SelfPlayGame(Protocol):
    """What a game supplies to the trainer."""

    name: str
    sizes: tuple[int, ...]  # the network's layer widths, inputs first, 1 last

    def play(self, weights: np.ndarray | None, seed: np.random.SeedSequence, hands: int,
             explore: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Self-play of ``hands`` hands from ``seed`` with ``weights`` (None: the game's
        starting policy) and exploration rate ``explore``: every decision's network input,
        its return and its hand (0 .. hands - 1)."""
        ...

    def evaluate(self, weights: np.ndarray, seed: int, deals: int) -> dict[str, Any]:
        """Figures of ``weights``; ``score`` (higher is better) ranks the rounds."""
        ...


@dataclass
class TrainConfig:
    """Everything that decides a training run's weights (with the game)."""
    seed: int = 0
    rounds: int = 4
    hands: int = 20_000  # a round's self-play hands
    tasks: int = 4  # a round's self-play tasks
    explore: float = 0.05
    window: int = 2  # rounds of data each fit sees
    fit: mlp.FitSettings = field(default_factory=mlp.FitSettings)
    eval_deals: int = 2000

    def check(self) -> None:
        if self.seed < 0 or min(self.rounds, self.hands, self.tasks, self.window,
                                self.eval_deals) < 1 or not 0 <= self.explore <= 1:
            raise ValueError("training needs seed >= 0, positive rounds, hands, tasks, window "
                             "and evaluation deals, and exploration in [0, 1]")
        if self.hands < self.tasks:
            raise ValueError("a round needs at least one hand per task")
        self.fit.check()

    def key(self) -> dict:
        """What must match for a run to resume (the number of rounds may grow)."""
        d = asdict(self)
        d.pop("rounds")
        return d


def _task(game: SelfPlayGame, weights: np.ndarray | None, seed: int, key: tuple[int, int],
          hands: int, explore: float):
    return game.play(weights, np.random.SeedSequence(seed, spawn_key=key), hands, explore)


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


class Trainer:
    """One training run in the folder ``out``; :meth:`run` plays the rounds not yet done."""

    def __init__(self, game: SelfPlayGame, config: TrainConfig, out: str | Path,
                 command: str = "", backend: str = "local", scheduler: str | None = None,
                 progress: Callable[[str], None] | None = None):
        config.check()
        self.game, self.config, self.out = game, config, Path(out)
        self.command, self.backend, self.scheduler = command, backend, scheduler
        self.progress = progress or (lambda line: None)
        self.state_path = self.out / "state.json"

    # --- files -------------------------------------------------------------------------
    def _data_path(self, r: int) -> Path:
        return self.out / f"data-{r:03d}.npz"

    def weights_path(self, r: int) -> Path:
        """The checkpoint of round ``r``'s weights."""
        return self.out / f"round-{r:03d}.npz"

    def load_state(self) -> dict | None:
        """The run's state (None before the first round ends); ValueError if the folder holds
        another run."""
        if not self.state_path.exists():
            return None
        state = json.loads(self.state_path.read_text())
        if state.get("game") != self.game.name or state.get("config") != json.loads(
                json.dumps(self.config.key())) or state.get("sizes") != list(self.game.sizes):
            raise ValueError(f"{self.out} holds another training run (other game, network or "
                             f"settings); give another folder")
        return state

    def load_weights(self, r: int) -> np.ndarray:
        with np.load(self.weights_path(r)) as z:
            return z["weights"].copy()

    # --- the loop ----------------------------------------------------------------------
    def run(self) -> dict:
        """Play the remaining rounds; returns the final state (``best_round`` and every
        round's figures in ``history``)."""
        cfg = self.config
        self.out.mkdir(parents=True, exist_ok=True)
        state = self.load_state()
        weights: np.ndarray | None = None
        if state is None:
            state = {"game": self.game.name, "sizes": list(self.game.sizes),
                     "config": json.loads(json.dumps(cfg.key())), "seed": cfg.seed,
                     "commands": [], "round": -1, "history": [], "best_round": None}
        else:
            weights = self.load_weights(state["round"])
            self.progress(f"resuming after round {state['round'] + 1} of {cfg.rounds}")
        state["commands"].append(self.command)
        eval_seed = int(np.random.SeedSequence(cfg.seed, spawn_key=(EVAL_KEY,))
                        .generate_state(1)[0] >> np.uint32(1))
        t_start = time.perf_counter()
        for done_here, r in enumerate(range(state["round"] + 1, cfg.rounds), 1):
            t0 = time.perf_counter()
            weights, fig = self._round(r, weights, eval_seed)
            fig["seconds"] = round(time.perf_counter() - t0, 1)
            state["history"].append(fig)
            best = state["best_round"]
            if best is None or fig["eval"]["score"] > state["history"][best]["eval"]["score"]:
                state["best_round"] = r
            state["round"] = r
            write_atomic(self.state_path, json.dumps(state, indent=1))
            per = (time.perf_counter() - t_start) / done_here
            self.progress(f"round {r + 1}/{cfg.rounds}: {fig['samples']:,} samples, "
                          f"valid mse {fig['fit']['valid'][-1]:.3f} (baseline "
                          f"{fig['valid_var']:.3f}), eval {self.game.name}: "
                          f"{fig['eval'].get('text', fig['eval']['score'])}; "
                          f"{fig['seconds']:.0f} s, about {per * (cfg.rounds - r - 1):.0f} s "
                          f"left")
        return state

    def _round(self, r: int, weights: np.ndarray | None, eval_seed: int):
        cfg = self.config
        per = [cfg.hands // cfg.tasks + (1 if t < cfg.hands % cfg.tasks else 0)
               for t in range(cfg.tasks)]
        tasks = [functools.partial(_task, self.game, weights, cfg.seed, (r, t), per[t],
                                   cfg.explore) for t in range(cfg.tasks)]
        parts = map_tasks(tasks, self.backend, self.scheduler)
        first = np.concatenate([[0], np.cumsum(per)[:-1]])
        x = np.concatenate([p[0] for p in parts]).astype(np.float32)
        y = np.concatenate([p[1] for p in parts]).astype(np.float32)
        hand = np.concatenate([p[2] + f for p, f in zip(parts, first)]).astype(np.int64)
        write_atomic(self._data_path(r), _npz(x=x, y=y, hand=hand))
        xs, ys, hs = [x], [y], [hand]
        for k in range(max(0, r - cfg.window + 1), r):
            with np.load(self._data_path(k)) as z:
                xs.insert(0, z["x"])
                ys.insert(0, z["y"])
                hs.insert(0, z["hand"])
        x, y, hand = np.concatenate(xs), np.concatenate(ys), np.concatenate(hs)
        val = hand % VALID_EVERY == VALID_EVERY - 1
        if weights is None:
            weights = mlp.init(self.game.sizes, np.random.default_rng(
                np.random.SeedSequence(cfg.seed, spawn_key=(INIT_KEY,))))
        rng = np.random.default_rng(np.random.SeedSequence(cfg.seed, spawn_key=(r, FIT_KEY)))
        weights, rep = mlp.fit(weights, self.game.sizes, (x[~val], y[~val]), (x[val], y[val]),
                               rng, cfg.fit)
        ev = self.game.evaluate(weights, eval_seed, cfg.eval_deals)
        fig = {"round": r, "samples": int(len(y)), "hands": int(cfg.hands),
               "fit": {"train": rep.train, "valid": rep.valid},
               "valid_var": float(np.var(y[val])) if val.any() else float("nan"),
               "eval": ev}
        write_atomic(self.weights_path(r), _npz(weights=weights, info=np.array(json.dumps(
            {"round": r, "seed": cfg.seed, "command": self.command, "figures": fig}))))
        return weights, fig
