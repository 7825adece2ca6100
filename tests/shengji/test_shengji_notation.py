"""双升's text notation (``xianniu record convert``): it round-trips with the JSON records of
random whole hands of both presets (and of the golden hands: a 造反 and its redeal, a random
trump card, 扒鸡窝, a failed throw; rules changed from a preset; a play-only hand), the
example in docs/records.md converts to its JSON, and bad input names the first impossible
part in one line with exit status 2."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from cli_checks import bad, ok, write_json

from analyzer.core.notation import from_text, parse_head, to_text
from analyzer.core.records import load
from analyzer.games import get_game
from analyzer.shengji.engine import deal, new_hand, play_only, play_random, random_start
from analyzer.shengji.records import record_of
from analyzer.shengji.rules import ZHENGZHOU

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
G = get_game("shengji")
WILD = ZHENGZHOU.with_(rebel_threshold=45, declare_start="random", bajiwo_reinforce=True,
                       throw_fail_penalty_per_card=10)


def random_hands(rules: str, seeds) -> list[dict]:
    """Records of whole hands of random play, each from its own seed."""
    out = []
    for seed in seeds:
        rng = random.Random(f"notation {rules} {seed}")
        out.append(record_of(play_random(random_start(rules, rng), rng)))
    return out


def _others() -> list[dict]:
    recs = [load(p) for p in sorted(DATA.glob("shengji_*.json"))]
    recs += [record_of(play_random(new_hand(WILD, (3, 5), None, seed=s), random.Random(s)))
             for s in range(3)]
    hands, kitty = deal(random.Random(3))
    recs.append(record_of(play_random(play_only("classic", hands, kitty, 10, "s", 2),
                                      random.Random(1))))
    return recs


CASES = random_hands("zhengzhou", range(8)) + random_hands("classic", range(8)) + _others()


def test_the_cases_cover_every_kind_of_action_and_head_field():
    kinds = {a["action"] for rec in CASES for a in rec["actions"]}
    assert kinds == {"rebel", "pass", "declare", "bury", "play"}
    assert any(rec["redeals"] for rec in CASES)
    assert any(rec.get("random_trump_card") is not None for rec in CASES)
    assert any(rec.get("start_seats") for rec in CASES)
    assert any(rec.get("rule_changes") for rec in CASES)
    assert any(rec.get("play_only") for rec in CASES)
    assert any(rec["banker"] is None for rec in CASES) and any(rec["banker"] == 3
                                                               for rec in CASES)
    assert {rec["rules"] for rec in CASES} == {"zhengzhou", "classic"}


@pytest.mark.parametrize("i", range(len(CASES)))
def test_text_round_trips_with_json(i):
    rec = CASES[i]
    text = to_text(G, rec)
    assert from_text(G, text) == rec
    assert to_text(G, from_text(G, text)) == text
    fields, hands, tokens = parse_head(text)
    assert fields["game"] == "shengji" and hands == rec["hands"]
    assert len(tokens) == len(rec["actions"])  # one token per action, a bury of 8 too


def test_what_a_person_may_type():
    rec = CASES[0]
    text = to_text(G, rec)
    head, _, actions = text.partition("actions\n")
    letters = {"♠": "s", "♥": "h", "♣": "c", "♦": "d", "大王": "BJ", "小王": "LJ"}
    typed = actions
    for sym, letter in letters.items():
        typed = typed.replace(sym, letter)
    typed = re.sub(r"(?<=[shcdJ])(?=[0-9AKQJBL])", "+", typed)  # cards joined by +
    typed = typed.replace("pass", "过")
    typed = head.replace("banker", "# the banker going in\nbanker") + "actions:\n" + typed
    assert typed != text and "+" in typed
    assert from_text(G, typed) == rec


def _doc_example() -> str:
    doc = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(.*?)```", doc, re.S)
    found = [b for b in blocks if b.startswith("game shengji\n")]
    assert len(found) == 1, "docs/records.md has one 双升 example"
    return found[0]


def test_the_documented_example_converts_to_its_record(tmp_path, capsys):
    text = _doc_example()
    want = load(ROOT / "docs" / "examples" / "shengji-hand.json")
    assert from_text(G, text) == want
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    assert json.loads(ok(capsys, "record", "convert", str(path))) == want
    # and back: the example is the converted record, its comments aside
    plain = [line.split("#")[0].rstrip() for line in text.splitlines()]
    assert " ".join(to_text(G, want).split()) == " ".join(" ".join(plain).split())


def test_convert_both_ways(tmp_path, capsys):
    rec = CASES[3]
    path = write_json(tmp_path / "hand.json", rec)
    text = ok(capsys, "record", "convert", path)
    assert text == to_text(G, rec) and text.startswith("game shengji\n")
    (tmp_path / "hand.txt").write_text(text, encoding="utf-8")
    assert json.loads(ok(capsys, "record", "convert", str(tmp_path / "hand.txt"))) == rec
    assert ok(capsys, "record", "convert", str(tmp_path / "hand.txt"), "--to", "text") == text


def _play_index(tokens: list[str], rec: dict) -> int:
    """The index of the first follow (a play that is not a lead) in the record."""
    plays = [i for i, a in enumerate(rec["actions"]) if a["action"] == "play"]
    return plays[1]


def test_bad_input_names_it_in_one_line(tmp_path, capsys):
    rec = next(r for r in CASES if not r["redeals"] and r["banker"] is not None)
    lines = to_text(G, rec).splitlines()
    at = lines.index("actions")
    head, tokens = lines[:at + 1], " ".join(lines[at + 1:]).split()

    def convert(name: str, head_lines: list[str], toks: list[str]) -> str:
        path = tmp_path / name
        path.write_text("\n".join(head_lines + [" ".join(toks)]) + "\n", encoding="utf-8")
        return bad(capsys, "record", "convert", str(path))

    # an unknown card in a hand, and in an action
    h0 = next(i for i, line in enumerate(head) if line.startswith("hand 0 "))
    broken = list(head)
    broken[h0] = broken[h0] + " Xz"
    assert "hand of seat 0: unknown card 'Xz'" in convert("card.txt", broken, tokens)
    k = _play_index(tokens, rec)
    msg = convert("token.txt", head, tokens[:k] + ["Zq"] + tokens[k + 1:])
    assert msg.startswith(f"xianniu: error: action {k}: token 'Zq'") and "unknown card" in msg
    # a wrong count: a hand one card short
    short = list(head)
    short[h0] = short[h0].rsplit(" ", 1)[0]
    assert "hand of seat 0 holds 24 cards, not 25" in convert("count.txt", short, tokens)
    # a duplicate: a card in two hands beyond its two copies
    card = head[h0].split()[2]
    dup = list(head)
    dup[h0 + 1] = dup[h0 + 1].rsplit(" ", 1)[0] + f" {card} {card}"
    dup[h0 + 1] = " ".join(dup[h0 + 1].split()[:2] + dup[h0 + 1].split()[3:])
    assert "copies of" in convert("dup.txt", dup, tokens)
    # an illegal play at action k: the leader's cards played again by the follower
    lead = k - 1
    msg = convert("illegal.txt", head, tokens[:k] + [tokens[lead]] + tokens[k + 1:])
    assert msg.startswith(f"xianniu: error: action {k}: token {tokens[lead]!r}")
    # the hand over, then one more token
    msg = convert("over.txt", head, tokens + tokens[-1:])
    assert f"action {len(tokens)}:" in msg and "over" in msg
    # a head field that cannot be read
    assert "levels" in convert("levels.txt", [h.replace("levels ", "levels 9 ") if
                                              h.startswith("levels") else h for h in head],
                               tokens)
    assert "no kitty" in convert("kitty.txt", [h for h in head if not h.startswith("kitty")],
                                 tokens)
