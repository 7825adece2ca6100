"""Command-line checks shared by every game's tests: a command succeeds, or fails cleanly."""

from __future__ import annotations

import json
import re
from pathlib import Path

from analyzer.cli import main

# The one stderr line a first run on an empty kernel cache adds (analyzer.cli); which test
# meets it first depends on the order the workers take the tests in.
_COMPILE_NOTICE = re.compile(r"^xianniu: compiling the \w+ kernels this command needs .*\n", re.M)


def without_compile_notice(err: str) -> str:
    """``err`` less the cold-cache compile notice."""
    return _COMPILE_NOTICE.sub("", err)


def run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, without_compile_notice(err)


def ok(capsys, *args: str) -> str:
    rc, out, err = run(capsys, *args)
    assert rc == 0, err
    assert err == "" and out.strip()
    return out


def bad(capsys, *args: str) -> str:
    """The command must fail cleanly: status 2, one line on stderr, no traceback."""
    rc, out, err = run(capsys, *args)
    assert rc == 2, (rc, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert err.count("\n") == 1
    assert "Traceback" not in err and "Traceback" not in out
    assert out == ""
    return lines[0]


def write_json(path: Path, data) -> str:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)
