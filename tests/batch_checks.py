"""Batch-runner checks shared by every game's tests."""

from __future__ import annotations

import json

import pytest

from analyzer.core.runner import run


def interrupted_and_resumed(spec, checkpoint, stop=KeyboardInterrupt):
    """Run ``spec`` whole; run it again, stopped by ``stop`` as its third task reports, with
    ``checkpoint``; resume from there. Returns (whole run, checkpoint as saved, resumed run)."""
    whole = run(spec)
    seen = []

    def stop_after_two(n):
        seen.append(n)
        if len(seen) == 2:
            raise stop

    with pytest.raises(stop):
        run(spec, checkpoint=checkpoint, progress=stop_after_two)
    saved = json.loads(checkpoint.read_text())
    return whole, saved, run(spec, checkpoint=checkpoint, resume=True)
