"""A run's checkpoint (analyzer.core.checkpoint): what is saved comes back, only to the same
run, and a file that cannot be read is refused with one reason."""

from __future__ import annotations

import json

import pytest

from analyzer.core.checkpoint import TaskCheckpoint


def _ck(path, run="a", **kw):
    return TaskCheckpoint(path, {"run": run, "about": "x"}, "run", tasks="done",
                          encode=lambda v: [v], decode=lambda v: v[0], **kw)


def test_saved_tasks_come_back_decoded_and_the_file_holds_the_run(tmp_path):
    path = tmp_path / "ck.json"
    assert _ck(path).load() == {}  # no file: nothing done
    ck = _ck(path)
    ck.save(3, "three")
    ck.save(1, "one")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"run": "a", "about": "x", "done": {"1": ["one"], "3": ["three"]}}
    assert _ck(path).load() == {1: "one", 3: "three"}
    ck.remove()
    assert not path.exists()


def test_another_run_s_file_is_refused_naming_it_or_the_reason_given(tmp_path):
    path = tmp_path / "ck.json"
    _ck(path, run="b").save(0, "zero")
    with pytest.raises(ValueError, match=r"belongs to another run \(b\)"):
        _ck(path).load()
    with pytest.raises(ValueError, match=r"another run \(other seeds\)"):
        _ck(path, other="other seeds").load()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"run": "a"}',
                                  '{"run": "a", "done": {"x": [1]}}'])
def test_an_unreadable_file_is_refused(tmp_path, text):
    path = tmp_path / "ck.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match="unreadable"):
        _ck(path).load()
