"""The 双升 heuristic's kitty parameters (``bury_safe``: bury points when the trump is strong;
``guard``/``guard_cards``: the kitty's side keeps its top trump for the last trick) and the
``tuned`` tournament policy (the preset's row of ``analyzer/shengji/tuned.json``): pinned
choices, the tuned file read as written, and tuned and kitty rows replaying legal in the
reference engine."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from cli_checks import bad

from analyzer.shengji import crosscheck as wr
from analyzer.shengji import sim
from analyzer.shengji import tournament as tm
from analyzer.shengji.cards import parse_cards
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from kernels.shengji import game as kw
from kernels.shengji import hand as kh_
from kernels.shengji import heuristic as kh
from kernels.shengji import heuristic_bid as kb
from kernels.shengji import policies as kp
from kernels.shengji.context import new_context
from kernels.shengji.params import param_vector
from kernels.shengji.planes import cards_of, planes_of
from kernels.shengji.units import new_units

PARAMS = param_vector(dataclasses.asdict(ZHENGZHOU))
CTX = new_context(0, 2, False)  # trump ♠, level 2


def pl(text):
    return planes_of(parse_cards(text))


def lead(hand_text, hp, seat=0, kitty_seat=-1):
    kn = kp.new_knowledge()
    kn[kp.KN_KITTY_SEAT] = kitty_seat
    hand = pl(hand_text)
    return sorted(cards_of(*kh.heuristic_lead(seat, hand[0], hand[1], CTX, PARAMS, hp, kn,
                                              new_units())))


def row(**changes):
    r = kp.HEURISTIC_DEFAULTS.copy()
    for name, v in changes.items():
        r[kp.HEURISTIC_NAMES.index(name)] = v
    return r


def test_defaults_leave_the_kitty_parameters_off():
    assert kp.HEURISTIC_NAMES[kp.H_BURY_SAFE] == "bury_safe"
    assert kp.HEURISTIC_NAMES[kp.H_GUARD:] == ("guard", "guard_cards")
    assert len(kp.HEURISTIC_NAMES) == len(kp.HEURISTIC_DEFAULTS) == kp.N_HEURISTIC
    assert kp.HEURISTIC_DEFAULTS[kp.H_BURY_SAFE] == 99 and kp.HEURISTIC_DEFAULTS[kp.H_GUARD] == 0


def test_the_kitty_side_keeps_its_top_trump_late():
    hand = "大王 ♥3"  # 大王 stands (nothing ranks above it); ♥3 does not
    on = row(guard=100.0, guard_cards=6.0)
    assert lead(hand, kp.HEURISTIC_DEFAULTS, kitty_seat=0) == sorted(parse_cards("大王"))
    assert lead(hand, on, kitty_seat=0) == sorted(parse_cards("♥3"))  # its side buried
    assert lead(hand, on, seat=2, kitty_seat=0) == sorted(parse_cards("♥3"))  # partner
    assert lead(hand, on, seat=1, kitty_seat=0) == sorted(parse_cards("大王"))  # attacker
    assert lead(hand, on, kitty_seat=-1) == sorted(parse_cards("大王"))  # no kitty yet
    assert lead(hand, row(guard=100.0, guard_cards=1.0), kitty_seat=0) \
        == sorted(parse_cards("大王"))  # more cards than guard_cards
    assert lead("大王", on, kitty_seat=0) == sorted(parse_cards("大王"))  # its last card


BURY_HAND = ("♦3 ♦4 ♦6 ♣6 ♣7 ♣8 ♣9 ♣J ♣Q ♣A ♥3 ♥4 ♥6 ♥7 ♥8 ♥9 ♥J ♥Q ♥A ♥10 ♥K ♣K ♣10 "
             "♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 大王 小王 ♠A")
POINT_CARDS = parse_cards("♥10 ♥K ♣K ♣10")


def bury(hp):
    hand = pl(BURY_HAND)
    return sorted(cards_of(*kb.heuristic_bury(hand[0], hand[1], CTX, hp)))


def test_bury_safe_buries_points_only_when_the_trump_is_strong():
    value = kb.trump_value(*pl(BURY_HAND), 2, 0, kp.HEURISTIC_DEFAULTS)
    kept = bury(row(bury_safe=value + 0.5))  # just short of the threshold: as the default
    assert kept == bury(kp.HEURISTIC_DEFAULTS)
    assert not set(POINT_CARDS) & set(kept)
    buried = bury(row(bury_safe=value))
    assert len(buried) == 8 and set(POINT_CARDS) <= set(buried)
    assert not any(f in buried for f in parse_cards("♠3 ♠A 大王 小王"))  # trumps stay


def test_tuned_row_reads_the_file_and_defaults_otherwise(tmp_path, monkeypatch):
    path = tmp_path / "tuned.json"
    monkeypatch.setattr(sim, "TUNED_FILE", path)
    assert np.array_equal(sim.tuned_row("zhengzhou"), kp.HEURISTIC_DEFAULTS)
    path.write_text(json.dumps({"classic": {"names": ["rebel", "guard"],
                                            "weights": [7.5, 40.0]}}))
    got = sim.tuned_row("classic")
    assert got[kp.H_REBEL] == 7.5 and got[kp.H_GUARD] == 40.0
    assert np.array_equal(np.delete(got, [kp.H_REBEL, kp.H_GUARD]),
                          np.delete(kp.HEURISTIC_DEFAULTS, [kp.H_REBEL, kp.H_GUARD]))
    assert np.array_equal(sim.tuned_row("zhengzhou"), kp.HEURISTIC_DEFAULTS)


def test_tuned_plays_its_row_in_the_tournament(tmp_path, monkeypatch):
    path = tmp_path / "tuned.json"
    monkeypatch.setattr(sim, "TUNED_FILE", path)
    path.write_text(json.dumps({"zhengzhou": {"names": ["rebel"], "weights": [3.0]}}))
    lv, pts, _ = tm.tournament("tuned,heuristic", 200, "zhengzhou", 4)
    assert lv.as_dict()["differences"][0]["diff"]["value"] == 0  # the default row: a tie
    path.write_text(json.dumps({"zhengzhou": {"names": ["open_banker"], "weights": [99.0]}}))
    lv, _, _ = tm.tournament("tuned,heuristic", 200, "zhengzhou", 4)  # never opens: 下台
    rows = tm.play_duplicate(["heuristic", "heuristic"], 200, ZHENGZHOU, 4,
                             rows=(sim.tuned_row(ZHENGZHOU), kp.HEURISTIC_DEFAULTS))
    levels, _, _ = tm.scores(rows)
    assert lv.as_dict()["differences"][0]["diff"]["value"] \
        == pytest.approx((levels[:, 0] - levels[:, 1]).mean())
    assert levels[:, 0].mean() != levels[:, 1].mean()


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC])
def test_tuned_and_kitty_rows_replay_in_the_engine(rules):
    """Buries with points, guarded leads and the tuned rows: every action legal."""
    hp = np.stack([row(bury_safe=12.0, guard=200.0, guard_cards=8.0), sim.tuned_row(rules),
                   row(bury_safe=14.0, bury_points=1.0), sim.tuned_row(rules)])
    hands = wr.kernel_hands(150, rules, 31, (2, 2), 0, policies="heuristic", hp=hp)
    failed = wr.replay_all(hands, rules)
    assert not failed, f"{len(failed)} hands disagree; first: {failed[0]}"
    kitty_points = hands.res[:, kw.W_PLAY + kh_.R_KITTY_POINTS]
    assert (kitty_points > 0).sum() >= 10  # the kitty rows did bury points


def test_unknown_policy_names_tuned_among_the_choices(capsys):
    err = bad(capsys, "shengji", "tournament", "--policies", "tuned,nope")
    assert "tuned" in err


def test_the_shipped_tuned_file_names_real_parameters_for_both_presets():
    data = json.loads(sim.TUNED_FILE.read_text(encoding="utf-8"))
    assert set(data) == {"zhengzhou", "classic"}
    for name, entry in data.items():
        assert len(entry["names"]) == len(entry["weights"]) == len(entry["defaults"])
        assert set(entry["names"]) <= set(kp.HEURISTIC_NAMES)
        assert "pimc_samples" not in entry["names"]  # pimc's own parameters are not tuned
        final = entry["final"]["levels"]
        assert final["low"] > 0 and final["n"] == entry["final"]["deals"]  # as measured
        assert not np.array_equal(sim.tuned_row(name), kp.HEURISTIC_DEFAULTS)
