"""The text notation of game records (``xianniu record convert``): it round-trips with the
JSON records of random hands in 掀牛 and 顶牛 (双升's: tests/shengji/test_shengji_notation.py), and bad input names the first impossible
action in one line with exit status 2."""

from __future__ import annotations

import json
import random
import re

import pytest
from cli_checks import bad, ok, write_json

from analyzer.cli import main
from analyzer.core.notation import from_text, parse_head, to_text
from analyzer.dingniu.engine import random_start
from analyzer.dingniu.records import record_of as drecord_of
from analyzer.games import get_game
from analyzer.xianniu.sim import hand_records


def _dingniu_hands(n: int, seed: int, rules: str = "seed") -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        st = random_start(rules, rng)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        out.append(drecord_of(st))
    return out


CASES = [("xianniu", rec) for rules in ("lanzhou", "kanniutui")
         for rec in hand_records(10, rules, "random", seed=4)] + \
        [("xianniu", rec) for rec in hand_records(4, "lanzhou", "heuristic", seed=5)] + \
        [("dingniu", rec) for rules in ("seed", "navpil") for rec in _dingniu_hands(10, 6, rules)]


def test_the_cases_cover_every_kind_of_action():
    kinds = {(g, a["action"]) for g, rec in CASES for a in rec["actions"]}
    assert {("xianniu", k) for k in ("play", "pass", "kou", "xian", "tighten", "discard")} <= kinds
    assert {("dingniu", k) for k in ("lead", "play", "kou")} <= kinds


@pytest.mark.parametrize("i", range(len(CASES)))
def test_text_round_trips_with_json(i):
    game, rec = CASES[i]
    g = get_game(game)
    text = to_text(g, rec)
    assert from_text(g, text) == rec
    assert to_text(g, from_text(g, text)) == text
    fields, hands, tokens = parse_head(text)
    assert fields["game"] == game and hands == rec["hands"]
    assert len(tokens) == len(rec["actions"])


def test_what_a_person_may_type():
    rec = hand_records(1, "lanzhou", "heuristic", seed=5)[0]
    g = get_game("xianniu")
    text = to_text(g, rec)
    head, _, actions = text.partition("actions\n")
    typed = head + "# the actions:\nactions:\n" + re.sub(
        r"\b(pass|kou|xian)\b", lambda m: {"pass": "过", "kou": "扣", "xian": "掀"}[m.group(1)],
        actions.replace("♠", "s").replace("♥", "h").replace("♣", "c").replace("♦", "d"))
    assert typed != text and from_text(g, typed) == rec


def test_a_text_record_is_reviewed_like_its_json(tmp_path, capsys):
    rec = _dingniu_hands(1, 8)[0]
    text = tmp_path / "hand.txt"
    text.write_text(to_text(get_game("dingniu"), rec), encoding="utf-8")
    args = ("--seat", "0", "--samples", "50", "--json", "--quiet")
    a = json.loads(ok(capsys, "dingniu", "review", str(text), *args))
    b = json.loads(ok(capsys, "dingniu", "review", write_json(tmp_path / "h.json", rec), *args))
    assert a == b


def test_convert_both_ways(tmp_path, capsys):
    game, rec = CASES[0]
    path = write_json(tmp_path / "hand.json", rec)
    text = ok(capsys, "record", "convert", path)
    assert text == to_text(get_game(game), rec)
    (tmp_path / "hand.txt").write_text(text, encoding="utf-8")
    back = json.loads(ok(capsys, "record", "convert", str(tmp_path / "hand.txt")))
    assert back == rec
    out = tmp_path / "again.txt"
    assert main(["record", "convert", str(tmp_path / "hand.txt"), "--to", "text", "--out",
                 str(out)]) == 0
    assert capsys.readouterr().out == "" and out.read_text(encoding="utf-8") == text
    assert "does not exist" in bad(capsys, "record", "convert", path, "--out",
                                   str(tmp_path / "no" / "x.txt"))


@pytest.mark.parametrize("game", ["xianniu", "dingniu"])
def test_the_first_impossible_action_is_named(game, tmp_path, capsys):
    rec = next(r for g, r in CASES if g == game and len(r["actions"]) > 6)
    lines = to_text(get_game(game), rec).splitlines()
    head = lines[:lines.index("actions") + 1]
    tokens = " ".join(lines[len(head):]).split()
    cases = {"bad.txt": tokens[:4] + ["nonsense@"] + tokens[5:],
             "again.txt": tokens[:1] + tokens[:1] + tokens[2:],  # the first tile or cards twice
             "over.txt": tokens + tokens[-1:]}
    for name, toks in cases.items():
        (tmp_path / name).write_text("\n".join(head + [" ".join(toks)]) + "\n",
                                     encoding="utf-8")
    msg = bad(capsys, "record", "convert", str(tmp_path / "over.txt"))
    assert f"action {len(tokens)}:" in msg and "over" in msg
    msg = bad(capsys, "record", "convert", str(tmp_path / "bad.txt"))
    assert msg.startswith("xianniu: error: action 4: token 'nonsense@'")
    msg = bad(capsys, "record", "convert", str(tmp_path / "again.txt"))
    assert f"action 1: token {tokens[0]!r}" in msg
    (tmp_path / "garbled.txt").write_text("\n".join(head[:2]) + "\nhand zero\n",
                                          encoding="utf-8")
    assert "line 3" in bad(capsys, "record", "convert", str(tmp_path / "garbled.txt"))


def test_every_game_has_a_notation():
    for name in ("xianniu", "dingniu", "shengji"):
        recs = get_game(name).part("records")
        assert callable(recs.action_token) and callable(recs.token_action), name
