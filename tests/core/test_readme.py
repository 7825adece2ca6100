"""The README is a front page whose every command runs as shown, and whose links resolve."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
QUICK_START = "Quick start"


def _sh_blocks(text: str) -> list[tuple[str, str]]:
    """(heading above, body) of every ```sh block."""
    out, heading = [], ""
    for part in re.split(r"(^```sh\n.*?^```$)", text, flags=re.M | re.S):
        if part.startswith("```sh"):
            out.append((heading, part.split("\n", 1)[1].rsplit("```", 1)[0]))
        else:
            heads = re.findall(r"^#+ (.+)$", part, flags=re.M)
            heading = heads[-1] if heads else heading
    return out


def tour_commands() -> list[str]:
    """The ``xianniu`` command lines of the README outside the quick start."""
    lines = []
    for heading, body in _sh_blocks(README.read_text(encoding="utf-8")):
        if heading == QUICK_START:
            continue
        for line in body.replace("\\\n", " ").splitlines():
            if line.strip().startswith("xianniu "):
                lines.append(line.strip())
    return lines


def test_the_readme_is_a_front_page():
    assert README.stat().st_size <= 15 * 1024
    assert len(tour_commands()) >= 10  # a tour of every game, not an empty block


def test_the_quick_start_is_the_ci_command():
    blocks = dict(_sh_blocks(README.read_text(encoding="utf-8")))
    quick = blocks[QUICK_START].splitlines()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install ".[test]" && .venv/bin/python -m pytest' in quick[1]
    assert "pip install \".[test]\" && .venv/bin/python -m pytest" in ci
    assert quick[0].endswith(".venv/bin/pip install . && .venv/bin/xianniu report")


def test_the_quick_start_puts_the_tours_command_on_the_path():
    """The tour calls ``xianniu`` bare: the quick start activates the venv that holds it."""
    blocks = dict(_sh_blocks(README.read_text(encoding="utf-8")))
    quick = [line.split("#")[0].strip() for line in blocks[QUICK_START].splitlines()]
    assert ". .venv/bin/activate" in quick or "source .venv/bin/activate" in quick
    assert all(line.startswith("xianniu ") for line in tour_commands())


def test_the_readme_states_the_sizes_the_report_plays():
    """The README's sentence on the report's sizes is the one the sections' sizes give."""
    from analyzer.report.sizes import plays, sentence

    text = " ".join(README.read_text(encoding="utf-8").split())
    assert sentence() in text
    sizes = [n for game in plays().values() for n in game.values()]
    assert min(sizes) < 100_000 // 10  # shares of --hands, as the sentence says


@pytest.mark.parametrize("line", tour_commands(),
                         ids=lambda line: " ".join(shlex.split(line, comments=True)[1:3]))
def test_every_readme_command_runs_as_shown(line, tmp_path, monkeypatch, capsys):
    from analyzer.cli import main

    monkeypatch.chdir(tmp_path)
    argv = shlex.split(line, comments=True)
    assert argv[0] == "xianniu"
    rc = main(argv[1:])
    out = capsys.readouterr()
    assert rc == 0, f"{line}\n{out.err}"
    assert out.out.strip(), f"{line} printed nothing"


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [m for m in re.findall(r"\]\(([^)\s]+)\)", text)
            if not m.startswith(("http://", "https://", "#", "mailto:"))]


@pytest.mark.parametrize("doc", [README, *sorted((ROOT / "docs").rglob("*.md"))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc):
    missing = [link for link in _links(doc)
               if not (doc.parent / link.split("#", 1)[0]).exists()]
    assert not missing, f"{doc.relative_to(ROOT)} links to missing files: {missing}"


# The README's review rows: the command each comes from (docs/review.md's, today's defaults),
# in the order of the README's block, with how many rows of the block it gave.
REVIEW_COMMANDS = (
    ("xianniu review docs/examples/xianniu-hand.json --seat 1 --quiet", 2),
    ("xianniu dingniu review docs/examples/dingniu-hand.json --seat 0 --quiet", 2),
    ("xianniu shengji review tests/shengji/data/shengji_zhengzhou_seed1.json --seat 1 --quiet",
     2),
)
_ROW = re.compile(r"^\s+\d+\s+\d+\s")


def _review_rows(text: str, after: str) -> list[str]:
    """The decision rows of the first ```text block after ``after``."""
    block = text[text.index(after):].split("```text\n", 1)[1].split("```", 1)[0]
    return [line.rstrip() for line in block.splitlines() if _ROW.match(line)]


@pytest.mark.parametrize("k", range(len(REVIEW_COMMANDS)),
                         ids=("xianniu", "dingniu", "shengji"))
def test_the_readme_review_rows_are_what_the_command_prints(k, monkeypatch, capsys):
    """Each review row of the README is a line that its command prints today (the whole
    review runs: a minute or two, warm)."""
    from analyzer.cli import main

    rows = _review_rows(README.read_text(encoding="utf-8"), "**Review a played hand**")
    assert len(rows) == sum(n for _, n in REVIEW_COMMANDS)
    first = sum(n for _, n in REVIEW_COMMANDS[:k])
    command, n = REVIEW_COMMANDS[k]
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[1:]) == 0
    printed = {line.rstrip() for line in capsys.readouterr().out.splitlines()}
    for row in rows[first:first + n]:
        assert row in printed, f"README row not printed by `{command}`:\n{row}"
