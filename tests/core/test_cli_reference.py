"""docs/cli.md is the commands' own help: regenerate it after changing a command."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("cli_reference",
                                                  ROOT / "scripts" / "docs" / "cli_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_command_reference_is_current():
    ref = _script()
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == ref.reference(), \
        "docs/cli.md is out of date: run python scripts/docs/cli_reference.py"


def test_the_reference_lists_every_game_and_no_hidden_alias():
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for title in ("## `xianniu report`", "## `xianniu dingniu`", "## `xianniu shengji`",
                  "### `xianniu shengji simulate`"):
        assert title in text
    assert "best-play`" not in text  # an old spelling, kept hidden
