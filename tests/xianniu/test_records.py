"""Game records (analyzer.xianniu.records): round trips, illegal actions, malformed input, goldens.

The golden files tests/data/golden_<preset>_seed7.json were produced once by random play
(``analyzer.xianniu.reference_sim``: hand i of ``random_hands(n, preset, seed=7)``, the first hand of
that run with non-zero points, a 掀 and a 紧牌; the file's "source" key names it). Each is
a complete record plus an "expected" block (points, captured counts and plays, 掀 events,
end reason, number of actions). The test replays them and asserts, it does not regenerate.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.xianniu.cards import N_CARDS, format_cards, parse_hand, parse_mask
from analyzer.xianniu.engine import KOU, PASS, PLAY, Action, State, new_hand
from analyzer.xianniu.records import RecordError, dumps, record_of, replay, start_of

DATA = Path(__file__).parent / "data"
PRESETS = ("lanzhou", "kanniutui")

# A deal where seats 0 and 2 each hold a 龙凤 (抢刺), so records cover that phase too.
C0 = "A♠ A♥ 2♠ 2♥ 3♠ 3♥ K♠ K♥ 10♠ 10♥ 8♠ 8♥ 5♠ 6♠ 7♠ 9♠"
C1 = "5♥ 5♦ 6♥ 6♣ 6♦ 7♥ 7♦ 9♥ 9♦ J♠ J♥ J♦ Q♠ Q♥ Q♣ Q♦"
C2 = "A♣ A♦ 2♣ 2♦ 3♣ 3♦ K♣ K♦ 10♣ 10♦ 8♣ 8♦ 5♣ 7♣ 9♣ J♣"
# A deal without 抢刺 where the banker leads 7♠ and seat 1 must beat it (8♥ 9♠ 9♣ K♦).
B0 = "Q♠ Q♥ Q♣ Q♦ J♠ J♥ J♣ J♦ K♠ K♥ K♣ 10♠ 8♠ 7♠ 7♥ 7♣"
B1 = "A♠ A♥ A♣ 2♠ 2♥ 2♣ 3♠ 3♥ 3♣ 9♠ 9♣ 5♠ 6♠ 6♥ 8♥ K♦"
B2 = "A♦ 2♦ 3♦ 5♥ 5♣ 5♦ 6♣ 6♦ 7♦ 8♣ 8♦ 9♥ 9♦ 10♥ 10♣ 10♦"


def _random_deal(rng: np.random.Generator) -> list[int]:
    order = rng.permutation(N_CARDS)
    return [sum(1 << int(c) for c in order[16 * s:16 * (s + 1)]) for s in range(3)]


def _play_random(st: State, rng: np.random.Generator, max_actions: int | None = None) -> State:
    n = 0
    while not st.is_terminal() and (max_actions is None or n < max_actions):
        acts = st.legal_actions()
        st.apply(acts[int(rng.integers(len(acts)))])
        n += 1
    return st


def _through_json(st: State) -> dict:
    text = dumps(record_of(st))
    return json.loads(text)


def _assert_same_hand(a: State, b: State) -> None:
    assert b.rules.name == a.rules.name and b.banker == a.banker
    assert b.dealt == a.dealt
    assert b.history == a.history
    assert b.captured == a.captured
    assert b.hands == a.hands
    assert (b.dead, b.discarded) == (a.dead, a.discarded)
    assert b.xian_events == a.xian_events
    assert b.phase == a.phase and b.current_player() == a.current_player()
    assert b.end_reason == a.end_reason
    if a.is_terminal():
        assert b.returns() == a.returns()
        assert b.settlement() == a.settlement()


# -- round trip ----------------------------------------------------------------------------


# Random hands written, read back as text and replayed (every field of the hand the same,
# every action kind met): tests/contract_xianniu.py (on_end), in the contract suite.


@pytest.mark.parametrize("rules_name", PRESETS)
def test_qiangci_hands_round_trip(rules_name):
    for seed in range(20):
        rng = np.random.default_rng(seed)
        st = new_hand([parse_hand(C0), parse_hand(C1), parse_hand(C2)], rules_name,
                      int(rng.integers(3)))
        assert st.phase == "qiangci"
        st = _play_random(st, rng)
        _assert_same_hand(st, replay(_through_json(st), require_end=True))


@pytest.mark.parametrize("rules_name", PRESETS)
def test_partial_records_replay_to_the_same_position(rules_name):
    for seed in range(30):
        rng = np.random.default_rng(1000 + seed)
        full = _play_random(new_hand(_random_deal(rng), rules_name), rng)
        cut = int(rng.integers(len(full.history)))
        part = new_hand(list(full.dealt), rules_name)
        for _, a in full.history[:cut]:
            part.apply(a)
        rec = _through_json(part)
        _assert_same_hand(part, replay(rec))
        with pytest.raises(RecordError) as e:
            replay(rec, require_end=True)
        assert e.value.index is None and "ends before" in str(e.value)


def test_record_of_a_fresh_deal_round_trips():
    st = new_hand([parse_hand(B0), parse_hand(B1), parse_hand(B2)], "kanniutui", 2)
    rec = _through_json(st)
    assert rec["actions"] == [] and rec["banker"] == 2 and rec["rules"] == "kanniutui"
    _assert_same_hand(st, replay(rec))


# -- illegal actions -----------------------------------------------------------------------


def _base_record(actions: list[dict], rules: str = "lanzhou") -> dict:
    return {"format": "xianniu-record", "version": 2, "game": "xianniu", "rules": rules,
            "banker": 0, "hands": [B0, B1, B2], "actions": actions}


def _record_error(record) -> RecordError:
    with pytest.raises(RecordError) as e:
        replay(record)
    err = e.value
    assert isinstance(err, ValueError)
    assert str(err).strip() and "\n" not in str(err)
    return err


@pytest.mark.parametrize("rules_name", PRESETS)
def test_pass_when_able_to_beat_is_reported_with_its_index(rules_name):
    rec = _base_record([{"seat": 0, "action": "play", "cards": "Q♠ Q♥ Q♣ Q♦"},
                        {"seat": 1, "action": "pass"},
                        {"seat": 2, "action": "pass"},
                        {"seat": 0, "action": "play", "cards": "7♠"},
                        {"seat": 1, "action": "pass"}], rules_name)
    err = _record_error(rec)
    assert err.index == 4
    assert str(err).startswith("action 4:")
    assert "有吃必吃" in str(err)


@pytest.mark.parametrize("entry,index_fragment", [
    ({"seat": 0, "action": "play", "cards": "A♠"}, "does not hold"),
    ({"seat": 0, "action": "play", "cards": "Q♠ K♠"}, "not a combination"),
    ({"seat": 0, "action": "pass"}, "not pass"),
    ({"seat": 0, "action": "xian"}, "not xian"),
    ({"seat": 0, "action": "tighten"}, "紧牌"),
    ({"seat": 0, "action": "discard", "cards": "Q♠"}, "not discard"),
    ({"seat": 1, "action": "play", "cards": "A♠"}, "turn"),
    ({"seat": 2, "action": "kou"}, "turn"),
])
def test_illegal_first_action_is_reported_at_index_0(entry, index_fragment):
    err = _record_error(_base_record([entry]))
    assert err.index == 0 and index_fragment in str(err)


def test_answer_that_does_not_beat_and_two_card_discard_are_reported():
    rec = _base_record([{"seat": 0, "action": "play", "cards": "7♠"},
                        {"seat": 1, "action": "play", "cards": "6♠"}])
    err = _record_error(rec)
    assert err.index == 1 and "does not beat" in str(err)
    # reach 紧牌 at table 8 (lanzhou), then discard two cards at once
    acts = []
    for quad in ("Q♠ Q♥ Q♣ Q♦", "J♠ J♥ J♣ J♦"):
        acts += [{"seat": 0, "action": "play", "cards": quad}, {"seat": 1, "action": "pass"},
                 {"seat": 2, "action": "pass"}]
    acts += [{"seat": 0, "action": "tighten"},
             {"seat": 1, "action": "discard", "cards": "A♠ A♥"}]
    err = _record_error(_base_record(acts))
    assert err.index == 7 and "one card" in str(err)


def test_action_after_the_end_is_reported():
    acts = [{"seat": 0, "action": "kou"}, {"seat": 1, "action": "kou"},
            {"seat": 2, "action": "kou"}]
    st = replay(_base_record(acts), require_end=True)
    assert st.is_terminal() and st.end_reason == "kou"
    err = _record_error(_base_record(acts + [{"seat": 0, "action": "kou"}]))
    assert err.index == 3 and "over" in str(err)


@pytest.mark.parametrize("rules_name", PRESETS)
def test_corrupted_random_records_name_the_first_bad_action(rules_name):
    """Turn the first answer that beat a play into a pass: that entry must be reported."""
    checked = 0
    for seed in range(40):
        rng = np.random.default_rng(500 + seed)
        st = _play_random(new_hand(_random_deal(rng), rules_name), rng)
        rec = _through_json(st)
        shadow = new_hand(list(st.dealt), rules_name)
        target = None
        for i, (_, a) in enumerate(st.history):
            if shadow.phase == "trick" and a.kind == PLAY:
                target = i
                break
            shadow.apply(a)
        if target is None:
            continue
        bad = copy.deepcopy(rec)
        bad["actions"][target] = {"seat": bad["actions"][target]["seat"], "action": "pass"}
        err = _record_error(bad)
        assert err.index == target
        assert f"action {target}:" in str(err) and "有吃必吃" in str(err)
        checked += 1
    assert checked >= 30


# -- malformed records ---------------------------------------------------------------------


GOOD_ACTIONS = [{"seat": 0, "action": "play", "cards": "7♠"}]


def _with(**changes) -> dict:
    rec = _base_record(list(GOOD_ACTIONS))
    rec.update(changes)
    return rec


def test_the_base_record_is_valid():
    st = replay(_with())
    assert st.current_player() == 1 and st.phase == "trick"


@pytest.mark.parametrize("record", [[], "record", None, 5, [_base_record([])]])
def test_not_an_object(record):
    err = _record_error(record)
    assert err.index is None and "object" in str(err)


@pytest.mark.parametrize("hands,fragment", [
    ([B0, B1, B2.replace("10♦", "").strip()], "16"),  # 15 cards
    ([B0, B1, B2 + " 4♠"], "without the fours"),  # a 4 (17 tokens)
    ([B0, B1, B2.replace("10♦", "4♦")], "without the fours"),  # a 4 in place of a card
    ([B0, B1, B2.replace("10♦", "joker")], "joker"),
    ([B0, B1.replace("K♦", "K♠"), B2], "another seat"),  # K♠ twice across hands
    ([B0, B1.replace("K♦", "A♠"), B2], "duplicate"),  # A♠ twice within a hand
    ([B0, B1], "three"),
    ([B0, B1, B2, B2], "three"),
    ("Q♠ Q♥", "three"),
    ([B0, B1, 17], "string"),
    ([B0, B1, B2.replace("10♦", "10x")], "unknown card"),
])
def test_bad_hands(hands, fragment):
    err = _record_error(_with(hands=hands))
    assert err.index is None and fragment in str(err)


@pytest.mark.parametrize("changes,fragment", [
    ({"rules": "texas"}, "unknown rules"),
    ({"format": "pgn"}, "format"),
    ({"version": 3}, "version"),
    ({"version": 1}, "version"),  # a version-1 record names no game
    ({"game": "dingniu"}, "not of xianniu"),
    ({"game": None}, "game"),
    ({"banker": 3}, "banker"),
    ({"banker": "0"}, "banker"),
    ({"banker": True}, "banker"),
    ({"actions": {"seat": 0}}, "list"),
])
def test_bad_record_fields(changes, fragment):
    err = _record_error(_with(**changes))
    assert err.index is None and fragment in str(err)


@pytest.mark.parametrize("entry,fragment", [
    ({"seat": 0, "action": "fold"}, "unknown action"),
    ({"seat": 0}, "unknown action"),
    ({"seat": 0, "action": "PLAY", "cards": "7♠"}, "unknown action"),
    ({"seat": 3, "action": "kou"}, "seat"),
    ({"seat": -1, "action": "kou"}, "seat"),
    ({"seat": "0", "action": "kou"}, "seat"),
    ({"seat": True, "action": "kou"}, "seat"),
    ({"action": "kou"}, "seat"),
    (["seat", 0], "object"),
    ({"seat": 0, "action": "play"}, "cards"),
    ({"seat": 0, "action": "play", "cards": ["7♠"]}, "cards"),
    ({"seat": 0, "action": "play", "cards": ""}, "no cards"),
    ({"seat": 0, "action": "play", "cards": "4♠"}, "without the fours"),
    ({"seat": 0, "action": "play", "cards": "7♠ 7♠"}, "duplicate"),
    ({"seat": 0, "action": "kou", "cards": "7♠"}, "takes no cards"),
])
def test_bad_action_entries_are_reported_with_their_index(entry, fragment):
    err = _record_error(_base_record(list(GOOD_ACTIONS) + [entry]))
    assert err.index == 1
    assert "action 1:" in str(err) and fragment in str(err)


def test_wrong_turn_later_in_the_record():
    acts = list(GOOD_ACTIONS) + [{"seat": 2, "action": "pass"}]
    err = _record_error(_base_record(acts))
    assert err.index == 1 and "seat 1" in str(err) and "turn" in str(err)


def test_start_of_checks_the_deal():
    st = start_of(_with())
    assert st.history == [] and st.current_player() == 0
    with pytest.raises(RecordError):
        start_of(_with(hands=[B0, B0, B2]))


# -- goldens -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules_name", PRESETS)
def test_golden_playthrough(rules_name):
    path = DATA / f"golden_{rules_name}_seed7.json"
    assert path.is_file(), f"missing golden file {path}"
    rec = json.loads(path.read_text(encoding="utf-8"))
    exp = rec["expected"]
    assert rec["rules"] == rules_name and "seed=7" in rec["source"]
    st = replay(rec, require_end=True)
    assert st.is_terminal() and st.end_reason == exp["end"]
    assert len(st.history) == exp["n_actions"] == len(rec["actions"])
    assert list(st.returns()) == exp["points"]
    assert sum(exp["points"]) == 0 and any(exp["points"])
    assert [sum(p.size for p in plays) for plays in st.captured] == exp["captured"]
    assert [t.captured for t in st.settlement().tallies] == exp["captured"]
    assert [[format_cards(p.mask) for p in plays] for plays in st.captured] == \
        exp["captured_plays"]
    assert [list(e) for e in st.xian_events] == exp["xian"] and exp["xian"]
    kinds = {a.kind for _, a in st.history}
    assert {"tighten", "discard", "xian"} <= kinds
    # and the record survives a round trip unchanged
    again = json.loads(dumps(record_of(st)))
    assert again["actions"] == rec["actions"] and again["hands"] == rec["hands"]


def test_golden_values_by_hand():
    """Cross-check the two goldens against docs/rules/xianniu.md §4 (scoring), worked by hand.

    lanzhou: seat 2 captured 6 cards (够) including 9♣ 9♦ (牛 2) and no 亮; seats 0 and 1
    are not 够 and each pay 2. The 掀 [0, 1] costs nothing: its target is not 够.
    kanniutui: seat 1 captured 6 cards (够) with no pattern (basic 0); seat 2 掀ed seat 1
    and is not 够, so it pays 2.
    """
    lz = json.loads((DATA / "golden_lanzhou_seed7.json").read_text(encoding="utf-8"))
    kn = json.loads((DATA / "golden_kanniutui_seed7.json").read_text(encoding="utf-8"))
    assert lz["expected"]["points"] == [-2, -2, 4]
    assert lz["expected"]["xian"] == [[0, 1]]
    assert "9♣ 9♦" in lz["expected"]["captured_plays"][2]
    assert kn["expected"]["points"] == [0, 2, -2]
    assert kn["expected"]["xian"] == [[2, 1]]
    assert list(replay(lz).returns()) == [-2, -2, 4]
    assert list(replay(kn).returns()) == [0, 2, -2]


def test_version_1_records_still_replay():
    """Records written before the shared envelope: version 1 with no "game", and records
    that name no format or version at all (accepted all along)."""
    old = json.loads((DATA / "legacy_v1_lanzhou_seed7.json").read_text(encoding="utf-8"))
    new = json.loads((DATA / "golden_lanzhou_seed7.json").read_text(encoding="utf-8"))
    assert old["version"] == 1 and "game" not in old
    a, b = replay(old, require_end=True), replay(new, require_end=True)
    _assert_same_hand(a, b)
    assert list(a.returns()) == old["expected"]["points"]
    bare = {k: v for k, v in old.items() if k not in ("format", "version")}
    _assert_same_hand(a, replay(bare, require_end=True))
    assert record_of(a)["version"] == 2  # written anew in the shared envelope


def test_pass_and_kou_actions_carry_no_cards_in_records():
    st = new_hand([parse_hand(B0), parse_hand(B1), parse_hand(B2)], "lanzhou")
    st.apply(Action(KOU))
    st.apply(Action(KOU))
    rec = record_of(st)
    assert rec["actions"] == [{"seat": 0, "action": "kou"}, {"seat": 1, "action": "kou"}]
    st2 = new_hand([parse_hand(B0), parse_hand(B1), parse_hand(B2)], "lanzhou")
    st2.apply(Action(PLAY, parse_mask("Q♠ Q♥ Q♣ Q♦")))
    st2.apply(Action(PASS))
    assert record_of(st2)["actions"][1] == {"seat": 1, "action": "pass"}
