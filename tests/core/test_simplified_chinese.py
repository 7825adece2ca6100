"""Everything a user reads is in simplified characters: the code's output strings, help and
comments, the kernels, the scripts, the docs, the README and the sample report. Two things
may keep traditional characters: a verbatim quotation of a seed text in 「…」, and the input
aliases listed below (a user may type either form)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analyzer.shengji.cards import NT, parse_trump
from analyzer.shengji.rules import get_rules

ROOT = Path(__file__).resolve().parents[2]
TRADITIONAL = frozenset(
    "".join(line.strip() for line in
            (ROOT / "tests/data/traditional_chars.txt").read_text(encoding="utf-8").splitlines()
            if not line.startswith("#")))
SCANNED = ("analyzer", "kernels", "scripts", "docs", "reports/sample", "README.md")
SUFFIXES = {".py", ".md", ".js", ".css", ".html", ".json", ".csv", ".txt", ".sh", ".toml"}
QUOTE = re.compile(r"「[^」\n]*」")
# Input aliases: the traditional spellings a user may type, where they are accepted or told.
ALIASES = {
    "analyzer/shengji/cards.py": ('"無主"',),
    "analyzer/shengji/rules.py": ('"鄭州雙升"', '"拖拉機"'),
    "docs/rules/shengji.md": ("`無主`",),
}


def traditional_in(line: str, allowed: tuple[str, ...] = ()) -> str:
    """The traditional characters of ``line`` outside 「…」 quotes and ``allowed`` tokens."""
    text = QUOTE.sub("", line)
    for token in allowed:
        text = text.replace(token, "")
    return "".join(dict.fromkeys(c for c in text if c in TRADITIONAL))


def _files():
    for name in SCANNED:
        base = ROOT / name
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        for p in paths:
            if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts:
                yield p


def test_the_character_list_is_the_traditional_one():
    assert len(TRADITIONAL) > 2000
    assert set("摳雞窩臺莊對搶級無斃門") <= TRADITIONAL
    # characters simplified Chinese writes too are not on the list
    assert not set("抠鸡窝台庄对抢级无毙门后干里么于乾著") & TRADITIONAL


@pytest.mark.parametrize("line, found", [
    ("P(摳底) and 扒雞窩", "摳雞窩"),
    ("P(抠底) and 扒鸡窝", ""),
    ("the seed's 「扒雞窩反主後」 and 下臺", "臺"),
    ('{"無主": NT}', "無"),
])
def test_the_check_finds_traditional_characters(line, found):
    assert traditional_in(line) == found


def test_project_text_is_simplified():
    bad = []
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        allowed = ALIASES.get(rel, ())
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = traditional_in(line, allowed)
            if found:
                bad.append(f"{rel}:{no}: {found}")
    assert bad == [], "traditional characters outside quotations:\n" + "\n".join(bad)


def test_each_alias_is_still_there():
    for rel, tokens in ALIASES.items():
        text = (ROOT / rel).read_text(encoding="utf-8")
        assert all(t in text for t in tokens), rel


@pytest.mark.parametrize("text", ["无主", "無主", "nt"])
def test_no_trump_reads_both_forms(text):
    assert parse_trump(text) == NT


@pytest.mark.parametrize("text, name", [
    ("郑州双升", "zhengzhou"), ("鄭州雙升", "zhengzhou"), ("拖拉机", "classic"),
    ("拖拉機", "classic"), ("zhengzhou", "zhengzhou"),
])
def test_shengji_presets_read_by_their_chinese_names(text, name):
    assert get_rules(text).name == name
