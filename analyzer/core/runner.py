"""Batch runs: many hands in chunked tasks, checkpointed, on local cores or a Dask cluster.

A run is split into tasks of whole chunks; each chunk has its own random stream spawned from
``SeedSequence(seed)``, so a task's result depends only on the run's arguments and its
index. Task results are mergeable integer aggregates, so the run's result is the same
whatever the backend, the number of workers, or how often it was interrupted and resumed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from kernels.rng import states_for_chunks

from .checkpoint import TaskCheckpoint
from .checks import check_seed
from .fileio import write_atomic
from .limits import DASK_MISSING, check_count

TASK_HANDS = 131_072  # hands a task, about: large enough to keep a core busy for a while


def batch_of(game: str) -> ModuleType:
    """The game's batch module (``analyzer.<game>.batch``): how its hands are played and
    counted in chunks (see :class:`RunSpec`)."""
    from ..games import get_game

    return get_game(game).part("batch")


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's numbers.

    The game's batch module provides ``CHUNK_SIZE``, ``AGG_SIZE``, ``OPTIONS`` (its own
    options and their defaults), ``check(spec)``, ``meta(spec)``, ``task_counts(spec,
    states, n)``, ``task_rows(spec, states, n, first)`` and ``result(counts, meta)``.
    ``options`` holds the game's own options (JSON values), its defaults filled in.
    """

    game: str
    n_hands: int
    rules: str
    policies: str
    seed: int = 0
    chunk_size: int = 0  # 0: the game's CHUNK_SIZE
    chunks_per_task: int = 0  # 0: about TASK_HANDS hands a task
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.n_hands, int) or isinstance(self.n_hands, bool) \
                or self.n_hands < 1:
            raise ValueError(f"the number of hands must be a positive integer, got "
                             f"{self.n_hands!r}")
        check_seed(self.seed)
        batch = batch_of(self.game)
        known = getattr(batch, "OPTIONS", {})
        unknown = sorted(set(self.options) - set(known))
        if unknown:
            raise ValueError(f"{self.game} runs take no option {', '.join(unknown)} (its "
                             f"options: {', '.join(known) or 'none'})")
        object.__setattr__(self, "options", {**known, **self.options})
        if not self.chunk_size:
            object.__setattr__(self, "chunk_size", batch.CHUNK_SIZE)
        if not self.chunks_per_task:
            object.__setattr__(self, "chunks_per_task", max(1, TASK_HANDS // self.chunk_size))
        batch.check(self)
        cost = getattr(batch, "COSTS", {}).get("simulate")
        if cost is not None:  # what no run may ask for, --yes or not (the CLI asks first)
            check_count(self.n_hands, "hands", cost, yes=True)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_hands // self.chunk_size)

    @property
    def n_tasks(self) -> int:
        return -(-self.n_chunks // self.chunks_per_task)

    def task_hands(self, task: int) -> int:
        """Hands in task ``task``."""
        first = task * self.chunks_per_task * self.chunk_size
        return min(self.n_hands, first + self.chunks_per_task * self.chunk_size) - first

    def signature(self) -> str:
        """A short hash of the spec: checkpoints of other runs are never mixed in."""
        fields = asdict(self)
        if not fields["options"]:  # as before runs had options: old checkpoints still fit
            del fields["options"]
        return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]

    def meta(self) -> dict:
        """What the result is stamped with: game, rules, policy, seed, hands, chunk size."""
        return {"game": self.game, **batch_of(self.game).meta(self), "seed": self.seed,
                "hands": self.n_hands, "chunk_size": self.chunk_size,
                **({"options": dict(self.options)} if self.options else {})}


def _task_states(spec: RunSpec, task: int) -> np.ndarray:
    a = task * spec.chunks_per_task
    return states_for_chunks(spec.seed, a, min(spec.chunks_per_task, spec.n_chunks - a))


def run_task(spec: RunSpec, task: int, with_rows: bool = False):
    """Aggregate counts of one task (and its per-hand rows when ``with_rows``)."""
    batch = batch_of(spec.game)
    states = _task_states(spec, task)
    n = spec.task_hands(task)
    if with_rows:
        counts, df = batch.task_rows(spec, states, n)
        first = task * spec.chunks_per_task * spec.chunk_size
        df.insert(0, "hand", np.arange(first, first + n))
        return counts, df
    return batch.task_counts(spec, states, n)


@dataclass
class RunCounts:
    """A batch run's summed counts (a game's layout, with the number of hands first) and the
    run's metadata; each game's ``batch.result`` returns a subclass that renders them."""

    counts: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    game: ClassVar[str] = ""

    @property
    def hands(self) -> int:
        return int(self.counts[0])

    def head(self) -> dict[str, Any]:
        """The keys every game's JSON starts with."""
        return {"game": self.game, "rules": self.meta.get("rules"),
                "seed": self.meta.get("seed"), "hands": self.hands,
                "policy": self.meta.get("policy")}


class Checkpoint(TaskCheckpoint):
    """Finished tasks of a run (each task's counts), kept in one JSON file rewritten
    atomically after each task (:class:`analyzer.core.checkpoint.TaskCheckpoint`)."""

    def __init__(self, path: str | os.PathLike[str], spec: RunSpec):
        super().__init__(path, {"signature": spec.signature(), "spec": asdict(spec)},
                         "signature", encode=lambda v: v.tolist(),
                         decode=lambda v: np.array(v, dtype=np.int64),
                         other="other hands, rules, policies or seed")
        self.spec = spec


def run(spec: RunSpec, backend: str = "local", scheduler: str | None = None,
        checkpoint: str | os.PathLike[str] | None = None, resume: bool = False,
        records: str | os.PathLike[str] | None = None,
        progress: Callable[[int], None] | None = None):
    """Play the run and return the game's result (``batch.result(counts, meta)``).

    ``checkpoint`` keeps finished tasks so that an interrupted run can ``resume``;
    ``records`` writes every hand's row to a Parquet file (written whole at the end).
    """
    if backend not in ("local", "dask"):
        raise ValueError(f"unknown backend {backend!r} (choose local or dask)")
    if scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    ck = Checkpoint(checkpoint, spec) if checkpoint else None
    if ck is not None and resume:
        ck.load()
    elif resume:
        raise ValueError("--resume needs a checkpoint (give --out)")
    if records and ck is not None and ck.done:
        raise ValueError("--records cannot resume: per-hand rows of finished tasks are not "
                         "kept; run again without --resume")
    # lazily: a long run's task list would be large before the first task is played
    todo = (t for t in range(spec.n_tasks) if ck is None or t not in ck.done)
    batch = batch_of(spec.game)
    total = np.zeros(batch.AGG_SIZE, dtype=np.int64)
    if ck is not None:
        for t, counts in ck.done.items():
            total += counts
            if progress:
                progress(spec.task_hands(t))
    frames: list[pd.DataFrame] = []

    def finished(t: int, result) -> None:
        nonlocal total
        counts, df = result if records else (result, None)
        total += counts
        if df is not None:
            frames.append(df)
        if ck is not None:
            ck.save(t, counts)
        if progress:
            progress(spec.task_hands(t))

    if backend == "local":
        for t in todo:
            finished(t, run_task(spec, t, bool(records)))
    else:
        _run_dask(spec, list(todo), scheduler, bool(records), finished)
    if records:
        frames.sort(key=lambda f: int(f["hand"].iloc[0]))
        df = pd.concat(frames, ignore_index=True)
        df.attrs.update(spec.meta())
        write_parquet(df, records)
    result = batch.result(total, spec.meta())
    assert result.hands == spec.n_hands
    return result


@contextmanager
def dask_client(scheduler: str | None) -> Iterator[Any]:
    """A Dask client of ``scheduler``, or of a LocalCluster on this machine's cores."""
    distributed = _distributed()
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=min(os.cpu_count() or 1, 2), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _distributed() -> ModuleType:
    """``dask.distributed``; ValueError naming the install command when it is missing."""
    try:
        import dask.distributed
    except ImportError:
        raise ValueError(DASK_MISSING) from None
    return dask.distributed


def _run_dask(spec: RunSpec, todo: list[int], scheduler: str | None, with_rows: bool,
              finished: Callable[[int, object], None]) -> None:
    as_completed = _distributed().as_completed

    with dask_client(scheduler) as client:
        futures = {client.submit(run_task, spec, t, with_rows, pure=False): t for t in todo}
        for fut in as_completed(futures):
            finished(futures[fut], fut.result())


def map_tasks(tasks: Sequence[Callable[[], Any]], backend: str = "local",
              scheduler: str | None = None,
              progress: Callable[[int], None] | None = None,
              finished: Callable[[int, Any], None] | None = None) -> list[Any]:
    """Every task's result, in order: called here one after another (their kernels use
    every core), or as Dask tasks. Each task carries its own seed, so the results do not
    depend on the backend. ``finished(i, result)`` as each task ends (in the order they
    end: to keep what is done), then ``progress(1)``."""
    if backend not in ("local", "dask"):
        raise ValueError(f"unknown backend {backend!r} (choose local or dask)")
    if scheduler and backend != "dask":
        raise ValueError("--scheduler needs --backend dask")
    out: list[Any] = [None] * len(tasks)
    if backend == "local":
        for i, task in enumerate(tasks):
            out[i] = task()
            if finished:
                finished(i, out[i])
            if progress:
                progress(1)
        return out
    as_completed = _distributed().as_completed

    with dask_client(scheduler) as client:
        futures = {client.submit(task, pure=False): i for i, task in enumerate(tasks)}
        for fut in as_completed(futures):
            i = futures[fut]
            out[i] = fut.result()
            if finished:
                finished(i, out[i])
            if progress:
                progress(1)
    return out


def write_parquet(df: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write a DataFrame to Parquet atomically (attrs kept as file metadata by pandas)."""
    import io

    buf = io.BytesIO()
    try:
        df.to_parquet(buf, index=False)
    except ImportError:
        raise ValueError("Parquet output needs pyarrow: pip install pyarrow") from None
    write_atomic(path, buf.getvalue())
