"""双升 game records: golden playthroughs, the JSON round trip of a variant's rules, records
of the old format, and malformed records that must fail with one clear line. (The round
trip of the presets' random hands is the contract suite's, tests/core/test_game_contract.py.)

The golden files under ``data/`` were written once by random play; to write them again after
a deliberate change, run ``python tests/shengji/test_shengji_records.py``. ``data/v1/`` keeps
one record in the format written before the shared envelope.
"""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from analyzer.core.records import FORMAT, dumps, load, loads
from analyzer.shengji.cards import format_cards, parse_cards
from analyzer.shengji.engine import new_hand, play_only, play_random, random_action
from analyzer.shengji.records import action_from_json, describe, record_of, replay, start_of
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU, get_rules

DATA = Path(__file__).parent / "data"
LEGACY_RECORD = DATA / "v1" / "shengji_zhengzhou_seed390.json"  # version 1, no "game"
GOLDEN = [  # preset, seed, team levels, banker (None: 抢庄局)
    ("zhengzhou", 1, (2, 2), None),
    ("zhengzhou", 2, (10, 4), 0),
    ("zhengzhou", 390, (2, 2), 2),  # 造反 and a redeal, a random trump, 扒鸡窝, a failed throw
    ("classic", 1, (2, 2), None),
    ("classic", 2, (5, 9), 1),
    ("classic", 3, (14, 13), 3),
]
WILD = ZHENGZHOU.with_(rebel_threshold=45, declare_start="random", bajiwo_reinforce=True,
                       throw_fail_penalty_per_card=10)


def golden_path(preset, seed):
    return DATA / f"shengji_{preset}_seed{seed}.json"


def golden_state(preset, seed, levels, banker):
    st = new_hand(preset, levels, banker, seed=seed)
    return play_random(st, random.Random(f"golden {seed}"))


def write_goldens():
    DATA.mkdir(exist_ok=True)
    for preset, seed, levels, banker in GOLDEN:
        golden_path(preset, seed).write_text(
            dumps(record_of(golden_state(preset, seed, levels, banker))), encoding="utf-8")


# -- golden playthroughs ------------------------------------------------------------------


@pytest.mark.parametrize("preset, seed, levels, banker", GOLDEN)
def test_golden_playthrough(preset, seed, levels, banker):
    record = load(golden_path(preset, seed))
    assert record["format"] == FORMAT and record["rules"] == preset
    st = replay(record, require_end=True)  # also checks the stored result
    r, want = st.result, record["result"]
    assert r.settlement.attacker_points == want["attacker_points"]
    assert list(r.levels_after) == want["levels"] and r.next_banker == want["next_banker"]
    # the same seed still plays the same hand: no drift in the engine or the random policy
    assert record_of(golden_state(preset, seed, levels, banker)) == record


def test_golden_set_covers_the_rare_paths():
    states = [replay(load(golden_path(p, s))) for p, s, _, _ in GOLDEN]
    assert any(st.rebel is not None and len(st.deals) == 2 for st in states)
    assert any(st.random_trump_card is not None for st in states)
    assert any(len(st.kitty_log) > 1 for st in states)
    assert any(st.failed_throws for st in states)
    assert any(st.grab for st in states)


# -- round trips ----------------------------------------------------------------------------


def same_state(a, b):
    assert a.history == b.history and a.hands == b.hands and a.kitty == b.kitty
    assert (a.phase, a.banker, a.level, a.trump, a.attacker_points) == (
        b.phase, b.banker, b.level, b.trump, b.attacker_points)
    assert a.result == b.result and a.deals == b.deals
    assert [(t.leader, t.plays, t.attempt, t.winner) for t in a.tricks] == [
        (t.leader, t.plays, t.attempt, t.winner) for t in b.tricks]


def test_a_version_1_record_replays_as_its_version_2():
    old, new = load(LEGACY_RECORD), load(golden_path("zhengzhou", 390))
    assert (old["format"], old["version"]) == ("xianniu-shengji-record", 1) and "game" not in old
    a, b = replay(old, require_end=True), replay(new, require_end=True)
    assert a.history == b.history and a.result == b.result
    assert record_of(a) == new  # read in the old format, written in the new


@pytest.mark.parametrize("rules", [WILD], ids=["wild"])
def test_round_trip_through_json(rules):
    seen = set()
    for seed in range(30):
        st = new_hand(rules, ((2, 2), (7, 3))[seed % 2], None if seed % 3 == 0 else seed % 4,
                      seed=seed)
        rng = random.Random(seed)
        stop = rng.randrange(5, 200)  # records of unfinished hands too
        for _ in range(stop):
            if st.is_terminal():
                break
            st.apply(random_action(st, rng))
        record = record_of(st)
        back = replay(loads(dumps(record)))
        same_state(st, back)
        assert record_of(back) == record
        seen |= {k for k in ("result", "start_seats") if k in record}
        seen |= {"redeal"} if record["redeals"] else set()
        seen |= {"random trump"} if record["random_trump_card"] is not None else set()
    assert "result" in seen
    if rules is WILD:
        assert {"start_seats", "redeal", "random trump"} <= seen
    if rules == WILD:  # the changed parameters travel with the record
        assert loads(dumps(record))["rule_changes"]["rebel_threshold"] == 45


def test_play_only_round_trip():
    rng = random.Random(5)
    deck = [f for f in range(54) for _ in (0, 1)]
    rng.shuffle(deck)
    hands = [deck[25 * s:25 * s + 25] for s in range(4)]
    st = play_only(CLASSIC, hands, deck[100:], "J", "nt", 2, levels=(11, 6))
    play_random(st, rng)
    record = record_of(st)
    assert record["play_only"] == {"level": 11, "trump": "nt"} and record["banker"] == 2
    same_state(st, replay(loads(dumps(record)), require_end=True))


def test_random_trump_index_counts_in_the_written_kitty():
    for seed in range(200):
        st = golden_state("zhengzhou", seed, (2, 2), seed % 4)
        if st.random_trump_card is not None:
            break
    record = record_of(st)
    kitty_text = record["redeals"][-1]["kitty"] if record["redeals"] else record["kitty"]
    written = [f for chunk in kitty_text.split() for f in parse_cards(chunk)]
    assert written[record["random_trump_card"]] == st.random_trump_card
    shuffled = copy.deepcopy(record)  # a kitty written in another order still replays
    kitty = written[:]
    card = kitty.pop(record["random_trump_card"])
    kitty.append(card)
    target = shuffled["redeals"][-1] if shuffled["redeals"] else shuffled
    target["kitty"] = " ".join(format_cards((f,)) for f in kitty)
    shuffled["random_trump_card"] = 7
    assert replay(shuffled).random_trump_card == card


def test_describe_lists_the_actions():
    record = load(golden_path("classic", 2))
    lines = describe(record)
    assert len(lines) == len(record["actions"]) and re.match(r"seat \d: \w+", lines[0])


# -- malformed records: one line each -------------------------------------------------------


def base():
    return copy.deepcopy(load(golden_path("zhengzhou", 2)))


def set_key(key, value):
    def change(r):
        r[key] = value
    return change


def drop_key(key):
    def change(r):
        del r[key]
    return change


def first(r, kind):
    return next(i for i, a in enumerate(r["actions"]) if a["action"] == kind)


def change_hand(seat, fn):
    def change(r):
        cards = r["hands"][seat].split()
        r["hands"][seat] = " ".join(fn(cards, r))
    return change


def third_copy(cards, r):
    """Swap one card for a face the other seats already hold twice."""
    others = [f for s in (1, 2, 3) for f in parse_cards(r["hands"][s])]
    twice = next(f for f in others if others.count(f) == 2)
    return cards[1:] + [format_cards((twice,))]


def bad_bury(r):
    i = first(r, "bury")
    r["actions"][i]["cards"] = " ".join(r["actions"][i]["cards"].split()[:7])


def wrong_seat(r):
    i = first(r, "play") + 1
    r["actions"][i]["seat"] = (r["actions"][i]["seat"] + 1) % 4


def stray_card(r):
    i = first(r, "play")
    r["actions"][i]["cards"] = "Zz"


BAD = [
    (lambda r: r.clear() or r.update({"x": 1}), "not a xianniu-record (format is None)"),
    (drop_key("kitty"), 'the record has no "kitty"'),
    (drop_key("actions"), 'the record has no "actions"'),
    (set_key("format", "xianniu-shengji-record"), "not a xianniu-record"),
    (set_key("version", 3), "record version 3 is not supported"),
    (set_key("game", "dingniu"), "this is a record of dingniu, not of shengji"),
    (set_key("rules", "beijing"), "unknown 双升 rules 'beijing'"),
    (set_key("rule_changes", {"joker_color": "swapped"}), "unknown rule parameter"),
    (set_key("rule_changes", {"kitty_basis": "whatever"}), "kitty_basis='whatever'"),
    (set_key("levels", [2]), '"levels" must be the two team levels'),
    (set_key("levels", [2, "Z"]), "unknown level 'Z'"),
    (set_key("banker", 4), '"banker" must be a seat 0..3 or null, got 4'),
    (set_key("hands", ["A♠"] * 3), '"hands" must list the four dealt hands'),
    (change_hand(2, lambda c, r: ["Xq"] + c[1:]), "hand of seat 2: unknown card 'Xq'"),
    (change_hand(1, lambda c, r: c[1:]), "hand of seat 1 holds 24 cards, not 25"),
    (change_hand(0, lambda c, r: ["A♠"] * 3 + c[3:]), "hand of seat 0: three copies of A♠"),
    (change_hand(0, third_copy), "the deal holds 3 copies of"),
    (lambda r: r.update(kitty=" ".join(r["kitty"].split()[:7])), "the kitty holds 7 cards, not 8"),
    (set_key("redeals", [{"hands": []}]), 'redeal 0 must be an object with "hands" and "kitty"'),
    (set_key("random_trump_card", 9), '"random_trump_card" must be a kitty index 0..7'),
    (set_key("random_trump_card", 3), "random_trump_card that the hand never used"),
    (set_key("start_seats", ["x"]), "a start seat must be a seat 0..3"),
    (set_key("play_only", {"level": 5}), '"play_only" must be an object with "level"'),
    (set_key("actions", {}), '"actions" must be a list'),
    (lambda r: r["actions"].insert(0, {"seat": 0, "action": "jump"}),
     "action 0: unknown action 'jump'"),
    (lambda r: r["actions"].insert(0, {"seat": 7, "action": "pass"}),
     "action 0: seat must be a seat 0..3, got 7"),
    (lambda r: r["actions"].insert(0, {"seat": 0, "action": "pass", "cards": "A♠"}),
     "action 0: a pass action takes no cards"),
    (lambda r: r["actions"].insert(0, {"seat": 0, "action": "play"}),
     'action 0: a play action needs "cards" as a string'),
    (stray_card, r"action \d+: unknown card 'Zz'"),
    (bad_bury, r"action \d+: cannot bury 7 cards: bury exactly 8"),
    (wrong_seat, r"action \d+: it is seat \d's turn, not seat \d's"),
    (lambda r: r["result"].update(next_banker=3), "disagrees with the record's result: "
                                                  "next_banker 3"),
]


@pytest.mark.parametrize("mutate, message", BAD, ids=[m for _, m in BAD])
def test_bad_records_fail_with_one_line(mutate, message):
    record = base()
    mutate(record)
    with pytest.raises(ValueError) as err:
        replay(record)
    text = str(err.value)
    assert "\n" not in text and text.strip() == text
    assert re.search(message if message.startswith("action") else re.escape(message), text), text


def test_a_record_cut_short_replays_to_where_it_stops():
    """Its result is the finished hand's: checked only when the actions reach the end, and a
    replay that requires the end says where the record stops."""
    record = base()
    record["actions"].pop()
    assert not replay(record).is_terminal()
    with pytest.raises(ValueError, match="the record ends before the hand does"):
        replay(record, require_end=True)


def test_bad_json_and_not_an_object():
    with pytest.raises(ValueError, match="^not JSON: "):
        loads('{"format": ')
    with pytest.raises(ValueError, match="must be a JSON object"):
        start_of(["a", "list"])
    with pytest.raises(ValueError, match="the record ends before the hand does"):
        record = base()
        del record["actions"][-5:], record["result"]
        replay(record, require_end=True)


def test_an_illegal_follow_names_the_action_and_reason():
    record = base()
    st = start_of(record)
    for i, entry in enumerate(record["actions"]):
        if st.phase == "play" and st.tricks[-1].plays:
            seat = st.turn
            lead = st.tricks[-1].plays[0]
            suit = st.ctx.esuit[lead[0]]
            held = st.ctx.suit_cards(st.hands[seat], suit)
            others = [f for f in st.hands[seat] if st.ctx.esuit[f] != suit]
            if held and len(others) >= len(lead):  # discard while holding the suit
                record["actions"][i]["cards"] = format_cards(others[:len(lead)])
                break
        seat, action = action_from_json(entry, i)
        st.apply(action, seat)
    with pytest.raises(ValueError) as err:
        replay(record)
    assert re.match(rf"action {i}: seat {seat} must (play|follow)",
                    str(err.value)), str(err.value)


def test_rules_travel_with_the_record():
    rules = get_rules("classic").with_(throw_fail_penalty_per_card=10, name="classic")
    st = new_hand(rules, banker=1, seed=8)
    play_random(st, random.Random(8))
    record = json.loads(json.dumps(record_of(st)))
    assert record["rule_changes"] == {"throw_fail_penalty_per_card": 10}
    assert replay(record).rules == rules


if __name__ == "__main__":
    write_goldens()
