"""The 双升 decision queries: reproducible, answers with teeth, the throw query's sampler
and stand check, and bad input to every command exits 2 with one line."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest

from analyzer.shengji import decision as d
from analyzer.shengji.cards import format_cards, parse_cards
from analyzer.shengji.decision_throw import should_throw
from analyzer.shengji.sim import QUERY_POLICY
from kernels.shengji import decisions as kd
from kernels.shengji.planes import cards_of
from tests.cli_checks import bad, ok, write_json

DATA = Path(__file__).parent / "data"
# Level 5: 大王 with a pair of 5♥ declares ♥ (a pair) or a single.
HAND = "大王 5h 5h As Ks 3c 4c 6d 7d 8s 9s 10s Jh Qh Kh 2c 3d 4d 6h 7h 8c 9c 10c Jc Qd"
KITTY = "2s 3s 4s 6s Jd Kd Ad 7s"
# No point card, no joker, no level card, no ace: 造反 qualifies at any level but 2.
WEAK = "3s 4s 6s 7s 8s 9s 3h 4h 6h 7h 8h 9h 3c 4c 6c 7c 8c 9c 3d 4d 6d 7d 8d 2d 2c"
FAST = d.Sampling(precision=0.5, max_deals=256)


def test_same_seed_same_answer_and_another_seed_differs():
    a = d.should_declare(HAND, 5, seat=1, run=replace(FAST, seed=7))
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # the same numbers on any number of threads
    try:
        b = d.should_declare(HAND, 5, seat=1, run=replace(FAST, seed=7))
    finally:
        numba.set_num_threads(threads)
    c = d.should_declare(HAND, 5, seat=1, run=replace(FAST, seed=8))
    assert a.as_dict() == b.as_dict() and np.array_equal(a.rows, b.rows)
    assert not np.array_equal(a.rows[:, kd.Q_DEAL:kd.Q_VALUES], c.rows[:, kd.Q_DEAL:kd.Q_VALUES])
    assert a.options == ["pass", "single ♥", "pair ♥"]
    assert a.n == 256 and all(e.n == 256 for e in a.ev + a.diff)


def test_declaring_query_keeps_what_is_known():
    # a partial hand (20 cards) and a standing 小王 + 5♠ single by seat 0
    part = " ".join(HAND.split()[:20])
    res = d.should_declare(part, 5, seat=1, standing="小王 5s", standing_seat=0, run=FAST)
    assert res.setting["passes_before"] == 0 and res.options[0] == "pass"
    assert "single ♥" not in res.options  # a single never displaces a single
    mine, shown = Counter(parse_cards(part)), Counter(parse_cards("小王 5s"))
    for row in res.rows:
        hands = [Counter(cards_of(int(row[2 * s]), int(row[2 * s + 1]))) for s in range(5)]
        assert not mine - hands[1] and not shown - hands[0]
        assert [sum(h.values()) for h in hands] == [25, 25, 25, 25, 8]


def test_teeth_a_ruinous_bury_and_a_hopeless_defence():
    # burying 大王, both level pairs' cards and the point cards must cost levels
    ruin = "大王 5h 5h Kh 10s 10c Ks Kd"
    res = d.bury(f"{HAND} {KITTY}", 5, "h", candidates=[ruin], run=d.Sampling(precision=0.2))
    k = res.options.index("candidate 1")
    assert res.options[0] == "heuristic" and res.diff[k].high < 0
    assert res.recommendation != "candidate 1"
    # a hand with nothing in it does better redealing than defending
    reb = d.should_rebel(WEAK, seat=1, level=5, run=d.Sampling(precision=0.2))
    assert reb.options == ["造反 (rebel)", "decline"] and reb.diff[0].low > 0
    assert reb.recommendation == "造反 (rebel)"


def _play_only_record(seat0: str, seat1_extra: str) -> dict:
    """Level 2, trump ♠, seat 0 banks and leads trick 1 (it buried the kitty, so it knows
    it): seat 0 holds ``seat0`` (topped up), seat 1 holds ``seat1_extra``."""
    deck = Counter(dict.fromkeys(range(54), 2))
    mine, theirs = list(parse_cards(seat0)), list(parse_cards(seat1_extra))
    rest = list((deck - Counter(mine) - Counter(theirs)).elements())
    rng = np.random.default_rng(5)
    rng.shuffle(rest)
    hands = [mine + rest[:25 - len(mine)]]
    rest = rest[25 - len(mine):]
    hands.append(theirs + rest[:25 - len(theirs)])
    rest = rest[25 - len(theirs):]
    hands += [rest[:25], rest[25:50]]
    return {"format": "xianniu-shengji-record", "version": 1, "rules": "zhengzhou",
            "levels": [2, 2], "banker": 0, "hands": [format_cards(h) for h in hands],
            "kitty": format_cards(rest[50:]), "actions": [],
            "play_only": {"level": 2, "trump": "s"}}


def test_throw_stand_probability_is_exact_where_it_is_certain():
    rec = _play_only_record("Ah Ah Kh Kh Qh Jh", "Qh")
    sure = should_throw(rec, "Ah Ah Kh Kh Qh", run=FAST)  # nothing above Q♥ is out
    assert sure.extra["p_stands"]["value"] == 1.0 and sure.options == ["throw", "unit 1",
                                                                       "unit 2"]
    # the other Q♥ is in seat 1's hand (the kitty is the leader's own): J♥ always falls
    doomed = should_throw(rec, "Ah Ah Jh", run=FAST)
    assert doomed.extra["p_stands"]["value"] == 0.0
    assert doomed.extra["safest_unit"] == format_cards(parse_cards("Ah Ah"))
    hand = Counter(parse_cards(rec["hands"][0]))
    kitty = Counter(parse_cards(rec["kitty"]))
    for row in doomed.rows:
        got = [Counter(cards_of(int(row[2 * s]), int(row[2 * s + 1]))) for s in range(5)]
        assert got[0] == hand and got[4] == kitty
        assert [sum(g.values()) for g in got] == [25, 25, 25, 25, 8]


def test_commands_answer_in_text_and_json(capsys, tmp_path):
    out = ok(capsys, "shengji", "should-rebel", *WEAK.split(), "--level", "5",
             "--precision", "0.5", "--max-deals", "256")
    assert "recommendation:" in out and "造反 (rebel)" in out
    res = json.loads(ok(capsys, "shengji", "bury", *HAND.split(), *KITTY.split(), "--level",
                        "5", "--trump", "h", "--max-deals", "256", "--json"))
    assert res["question"] == "bury" and res["options"][0]["option"] == "heuristic"
    assert res["samples"] == 256 and res["seed"] == 0
    assert res["policy"] == res["opponents"] == QUERY_POLICY == "net"  # the defaults
    rec = write_json(tmp_path / "r.json", _play_only_record("Ah Ah Kh Kh Qh Jh", "Qh"))
    out = ok(capsys, "shengji", "should-throw", "--record", rec, "--cards", "Ah Ah Kh Kh Qh",
             "--max-deals", "256")
    assert "P(the throw stands) 1.000" in out


@pytest.mark.parametrize("args,message", [
    (["should-declare", "Zz", "--level", "5"], "unknown card"),
    (["should-declare", "As As As", "--level", "5"], "three copies"),
    (["should-declare", *(HAND + " 2h").split(), "--level", "5"], "26 cards"),
    (["should-declare", *HAND.split(), "--level", "1"], "unknown level"),
    (["should-declare", *HAND.split(), "--level", "5", "--standing", "As Ks"],
     "no declaration"),
    (["should-declare", *HAND.split(), "--level", "5", "--seat", "1", "--standing",
      "大王 5h 5h", "--standing-seat", "0"], "times across"),
    (["should-declare", "3s 4s", "--level", "5"], "passing is the only choice"),
    (["bury", *HAND.split(), "--level", "5", "--trump", "h"], "need 33"),
    (["bury", *HAND.split(), *KITTY.split(), "--level", "5", "--trump", "x"],
     "unknown trump"),
    (["bury", *HAND.split(), *KITTY.split(), "--level", "5", "--trump", "h", "--candidate",
      "2h 2h 3h 3h 4h 4h 6h 6h"], "lacks"),
    (["bury", *HAND.split(), *KITTY.split(), "--level", "5", "--trump", "h", "--candidate",
      "2s 3s"], "need 8"),
    (["should-rebel", *WEAK.split(), "--rules", "classic"], "no 造反"),
    (["should-rebel", *HAND.split(), "--level", "5"], "points"),
    (["should-rebel", *WEAK.split()[:24], "--level", "5"], "need 25"),
    (["should-rebel", *WEAK.split(), "--level", "5", "--seat", "2"], "defender"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, message):
    assert message in bad(capsys, "shengji", *args)


def test_bad_records_exit_2_with_one_line(capsys, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert "not valid JSON" in bad(capsys, "shengji", "should-throw", "--record", str(broken))
    done = str(DATA / "shengji_zhengzhou_seed1.json")
    assert "where a seat leads" in bad(capsys, "shengji", "should-throw", "--record", done)
    rec = write_json(tmp_path / "r.json", _play_only_record("Ah Ah Kh Kh Qh Jh", "Qh"))
    assert "does not hold" in bad(capsys, "shengji", "should-throw", "--record", rec,
                                  "--cards", "As As Ks")
    assert "one unit" in bad(capsys, "shengji", "should-throw", "--record", rec,
                             "--cards", "Ah Ah Kh Kh")
    no_hands = write_json(tmp_path / "n.json", {"format": "xianniu-shengji-record"})
    bad(capsys, "shengji", "should-throw", "--record", no_hands)


def test_throw_query_samples_respect_every_public_fact():
    import random

    from analyzer.shengji.engine import PLAY_PHASE, new_hand, random_action
    from analyzer.shengji.records import record_of

    for seed in range(40):  # a position where voids and cards still shown are public
        rng = random.Random(seed)
        st = new_hand("zhengzhou", levels=(5, 5), banker=0, seed=seed)
        while not (st.phase == PLAY_PHASE and len(st.tricks) >= 10
                   and not st.tricks[-1].plays):
            st.apply(random_action(st, rng))
        if sum(map(len, st.voids)) >= 2 and any(st.known[s] for s in range(4) if s != st.turn):
            break
    else:
        raise AssertionError("no position with voids and shown cards")  # pragma: no cover
    res = should_throw(record_of(st), run=FAST)
    seat, ctx = st.turn, st.ctx
    played = Counter(f for t in st.tricks for p in t.plays for f in p)
    for row in res.rows:
        got = [Counter(cards_of(int(row[2 * s]), int(row[2 * s + 1]))) for s in range(5)]
        assert got[seat] == Counter(st.hands[seat])
        assert [sum(g.values()) for g in got] == [len(h) for h in st.hands] + [8]
        assert sum(got, Counter()) + played == Counter(dict.fromkeys(range(54), 2))
        for s in range(4):
            assert not st.known[s] - got[s]
            assert not any(ctx.esuit[f] in st.voids[s] for f in got[s])
        if st.last_burier == seat:
            assert got[4] == Counter(st.kitty)


def test_should_declare_says_how_many_cards_it_knows(capsys):
    part = ok(capsys, "shengji", "should-declare", "大王", "2h", "--level", "2",
              "--max-deals", "256", "--precision", "0.5")
    assert "2 of its 25 cards known, the other 23 dealt at random" in part.splitlines()[0]
    whole = ok(capsys, "shengji", "should-declare", *HAND.split(), "--level", "5",
               "--max-deals", "256", "--precision", "0.5")
    assert "cards known" not in whole.splitlines()[0]
