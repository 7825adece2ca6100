"""A run's finished tasks, kept so that an interrupted run can resume: one JSON file beside
its output, rewritten whole (atomically) after each task, holding the run's identity and
each finished task's JSON. A file of another run, or one that cannot be read, is refused
with a one-line reason before any work."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .fileio import write_atomic


class TaskCheckpoint:
    """Finished tasks (``done``: task number → its value) of the run ``identity`` (JSON
    written first in the file; its ``check`` entry must match for the file to be this
    run's). ``tasks`` names the file's table of tasks; ``encode`` and ``decode`` turn a
    value into JSON and back; ``other`` says in the refusal what another run differs in
    (by default the other run's ``check`` entry)."""

    def __init__(self, path: str | os.PathLike[str], identity: dict[str, Any], check: str,
                 tasks: str = "tasks", encode: Callable[[Any], Any] = lambda v: v,
                 decode: Callable[[Any], Any] = lambda v: v, other: str | None = None):
        self.path = Path(path)
        self.identity, self.check, self.tasks = identity, check, tasks
        self.encode, self.decode, self.other = encode, decode, other
        self.done: dict[int, Any] = {}

    def load(self) -> dict[int, Any]:
        """The finished tasks, if the file exists and is this run's (ValueError if it is
        another's or unreadable); none without a file."""
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            mine = data.get(self.check) == self.identity[self.check]
            if mine:
                self.done = {int(k): self.decode(v) for k, v in data[self.tasks].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            raise ValueError(f"checkpoint {self.path} is unreadable ({e}); delete it to "
                             f"start afresh") from None
        if not mine:
            raise ValueError(f"checkpoint {self.path} belongs to another run "
                             f"({self.other or data.get(self.check)}); delete it or drop "
                             f"--resume")
        return dict(self.done)

    def save(self, task: int, value: Any) -> None:
        """Keep task ``task``'s ``value`` and rewrite the file with every task done."""
        self.done[task] = value
        write_atomic(self.path, json.dumps(
            {**self.identity,
             self.tasks: {str(k): self.encode(v) for k, v in sorted(self.done.items())}},
            ensure_ascii=False))

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)
