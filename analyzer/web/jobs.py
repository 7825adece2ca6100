"""Long computations (advice, reviews, decision queries) run in the background.

A job is a function of one argument, ``progress(done, total)``; the page polls the job for
its progress and then its result. A small pool runs them, so that a few pending jobs cannot
take every core; finished jobs expire like sessions.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .sessions import SessionStore

WORKERS = 1  # the machine's cores go to the kernels' own threads

log = logging.getLogger(__name__)


class Job:
    """One background computation: its progress, then its result or its error."""

    def __init__(self, fn: Callable[[Callable[[int, int], None]], Any]):
        self.fn = fn
        self.done, self.total = 0, 0
        self.result: Any = None
        self.error: str | None = None
        self.finished = False
        self._lock = threading.Lock()

    def progress(self, done: int, total: int) -> None:
        with self._lock:
            self.done, self.total = int(done), int(total)

    def run(self) -> None:
        try:
            result = self.fn(self.progress)
        except (ValueError, LookupError) as e:  # bad input found late: the caller's error
            self.error = " ".join(str(e).split())
        except Exception as e:  # noqa: BLE001 - a job must end, and say why
            log.exception("job failed")
            self.error = f"internal error: {type(e).__name__}: {e}"
        else:
            self.result = result
        self.finished = True

    def as_dict(self) -> dict[str, Any]:
        with self._lock:
            out: dict[str, Any] = {"finished": self.finished, "done": self.done,
                                   "total": self.total}
        if self.finished:
            out["error"] = self.error
            out["result"] = self.result
        return out


class JobRunner:
    """Submits jobs to a small pool and keeps them, by random id, in a SessionStore."""

    def __init__(self, store: SessionStore | None = None, workers: int = WORKERS):
        self.store = SessionStore() if store is None else store
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="web-job")

    def submit(self, fn: Callable[[Callable[[int, int], None]], Any]) -> str:
        job = Job(fn)
        jid = self.store.add(job)
        self.pool.submit(job.run)
        return jid

    def get(self, jid: Any) -> Job:
        return self.store.slot(jid).obj

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
