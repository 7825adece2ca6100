"""Reading inputs and writing results safely."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def read_text(source: str) -> str:
    """Text of a file, or of standard input when ``source`` is ``-``."""
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"no such file: {source}") from None
    except IsADirectoryError:
        raise ValueError(f"{source} is a directory, not a file") from None
    except UnicodeDecodeError:
        raise ValueError(f"{source} is not UTF-8 text") from None


def read_json(source: str) -> Any:
    """Parse a JSON file (or ``-``); ValueError naming the line on malformed input."""
    return parse_json(read_text(source), source)


def parse_json(text: str, source: str) -> Any:
    """Parse the JSON ``text`` read from ``source`` (a file name, or ``-``); ValueError
    naming the line on malformed input."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        name = "standard input" if source == "-" else source
        raise ValueError(f"{name} is not valid JSON (line {e.lineno}, column {e.colno}: "
                         f"{e.msg})") from None
    except RecursionError:
        name = "standard input" if source == "-" else source
        raise ValueError(f"{name} is nested too deeply to be a xianniu file") from None


def check_out_folder(out: str | os.PathLike[str] | None, option: str | None = None) -> None:
    """ValueError, naming the folder (and ``option``, the option that gave ``out``), unless
    the folder an output file ``out`` goes into exists and accepts new files: a result is
    written only into an existing folder (none is made behind the user's back), and a
    folder that refuses files is found before the work, not at its end.

    Whether a folder accepts files is tried, not read from its permissions: the superuser
    passes every permission check, yet cannot create files in ``/proc``."""
    if not out:
        return
    folder = Path(out).parent
    where = f"{option} {out}: " if option else ""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{where}{folder} is a file, not a folder")
    if not folder.is_dir():
        raise ValueError(f"{where}the folder {folder} does not exist: make it first (the "
                         f"result is written only into an existing folder)")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{Path(out).name}.", suffix=".probe",
                                     dir=folder)
    except OSError as e:  # "no such file" from a folder that exists only confuses: left out
        why = "" if e.errno == errno.ENOENT else f" ({e.strerror or e})"
        raise ValueError(f"{where}the folder {folder} does not accept new files{why}: write "
                         f"the result somewhere else") from None
    os.close(fd)
    os.unlink(probe)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename.

    The file gets the permissions an ordinary ``open(path, "w")`` would give it (mkstemp
    alone would leave it readable by its owner only).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
