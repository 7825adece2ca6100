"""What 掀牛 adds to the contract suite: its invariants at every step of random play.

``on_step`` checks, before every decision (the deal included): every card is in exactly one
place (hands, captured plays, dead cards, discards, the play to beat) and the table holds at
most 16; every listed action is of a known kind, plays use held cards, a lead fits the
table and is no 龙凤 / 八大对, an answer has the top play's size, 掀 is offered exactly to a
seat that has not said 扣, a pass in a trick only when nothing beats. After every action it
checks the hand against an independent account rebuilt from the actions alone (captured
plays, dead and discarded cards, 掀 events), that the capturer of a trick leads next, and
that after a 掀 the lead holder must lead. ``on_end`` checks the end reason and the
settlement (also recomputed from the shadow account), and that the hand's record, written
as text and replayed, gives the same hand field by field.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from contract_hooks import Hooks

from analyzer.xianniu.cards import FULL_DECK, N_CARDS, count, parse_hand
from analyzer.xianniu.combos import EIGHT_PAIRS, LONG_FENG, classify
from analyzer.xianniu.engine import (
    ACTION_KINDS,
    KOU,
    PASS,
    PLAY,
    TIGHTEN,
    XIAN,
    Action,
    State,
    card_accounting,
    new_hand,
)
from analyzer.xianniu.records import dumps, record_of, replay
from analyzer.xianniu.scoring import settle

DATA = Path(__file__).parent / "xianniu" / "data"
END_REASONS = {"kou", "table full", "lead holder has no cards"}


def check_accounting(st: State) -> None:
    parts = list(st.hands) + [p.mask for plays in st.captured for p in plays]
    parts += [st.dead, st.discarded]
    if st.top is not None:
        parts.append(st.top.mask)
    assert sum(count(m) for m in parts) == N_CARDS, "a card is counted twice or lost"
    union = 0
    for m in parts:
        union |= m
    assert union == FULL_DECK, "the cards do not make up the deck"
    assert card_accounting(st) == FULL_DECK
    assert sum(p.size for plays in st.captured for p in plays) == st.table_count() <= 16
    assert all(count(h) <= 16 for h in st.hands)
    assert st.discards[0] | st.discards[1] | st.discards[2] == st.discarded
    assert sum(count(d) for d in st.discards) == count(st.discarded)


class _Shadow:
    """An independent account of one hand, rebuilt from its actions alone."""

    def __init__(self, st: State):
        self.prev = st  # the state before the latest action
        self.captured: list[list[int]] = [[], [], []]
        self.dead = self.disc = 0
        self.xian: list[tuple[int, int]] = []
        self.said_kou: set[int] = set()
        self.trick: list[tuple[int, int]] = []  # (seat, mask) of the current trick's plays
        self.answers = 0
        self.kou_agree = 0


def _check_decision(st: State, shadow: _Shadow) -> None:
    """The invariants of a position where a seat is to act."""
    check_accounting(st)
    seat, legal = st.current_player(), st.legal_actions()
    legal_set = set(legal)
    phase, room = st.phase, 16 - st.table_count()
    for a in legal:
        assert a.kind in ACTION_KINDS
        if a.kind == PLAY:
            size = count(a.cards)
            assert a.cards & ~st.hands[seat] == 0
            if phase == "lead":
                assert size <= room, "a lead would push the table over 16"
                if size in (12, 16):
                    assert classify(a.cards, st.rules).kind not in (LONG_FENG, EIGHT_PAIRS)
            elif phase == "trick":
                assert st.top is not None and size == st.top.size
    if phase == "kou_ask":
        assert (Action(XIAN) in legal_set) == (seat not in shadow.said_kou)
    if phase == "trick" and Action(PASS) in legal_set:
        assert legal == [Action(PASS)], "pass offered although the seat can beat"


_shadows: dict[int, _Shadow] = {}


def on_step(st: State, seen: Counter) -> None:
    if len(st.history) == 1:  # the first action: check the deal's position too
        start = new_hand(list(st.dealt), st.rules, st.banker)
        _shadows.clear()
        _shadows[id(st)] = _Shadow(start)
        _check_decision(start, _shadows[id(st)])
    sh = _shadows[id(st)]
    prev, (seat, a) = sh.prev, st.history[-1]
    phase, lead_holder = prev.phase, prev.lead_holder
    seen[f"{phase}:{a.kind}"] += 1
    if phase == "qiangci" and a.kind == PLAY:
        sh.captured[seat].append(a.cards)
    elif phase == "lead":
        if a.kind == PLAY:
            sh.trick, sh.answers = [(seat, a.cards)], 0
        elif a.kind == KOU:
            sh.said_kou.add(seat)
            sh.kou_agree = 0
    elif phase == "trick":
        sh.answers += 1
        if a.kind == PLAY:
            sh.dead |= sh.trick[-1][1]
            sh.trick.append((seat, a.cards))
        if sh.answers == 2:
            owner, mask = sh.trick[-1]
            sh.captured[owner].append(mask)
            assert st.phase in ("lead", "over")
            if st.phase == "lead":
                assert st.current_player() == owner, "the capturer must lead next"
    elif phase == "kou_ask":
        if a.kind == XIAN:
            assert seat not in sh.said_kou
            sh.xian.append((seat, lead_holder))
            assert st.current_player() == lead_holder
            kinds = [x.kind for x in st.legal_actions()]
            assert KOU not in kinds, "扣 offered right after a 掀"
            assert all(k in (PLAY, TIGHTEN) for k in kinds)
        else:
            sh.said_kou.add(seat)
            sh.kou_agree += 1
            if sh.kou_agree == 2:
                assert st.is_terminal() and st.end_reason == "kou"
    elif phase == "discard":
        sh.disc |= a.cards
    assert [[p.mask for p in plays] for plays in st.captured] == sh.captured
    assert st.dead == sh.dead and st.discarded == sh.disc
    assert st.xian_events == sh.xian
    if not st.is_terminal():
        _check_decision(st, sh)
    sh.prev = st.clone()


def _assert_same_hand(a: State, b: State) -> None:
    assert b.rules.name == a.rules.name and b.banker == a.banker
    assert b.dealt == a.dealt
    assert b.history == a.history
    assert b.captured == a.captured
    assert b.hands == a.hands
    assert (b.dead, b.discarded, b.discards) == (a.dead, a.discarded, a.discards)
    assert b.xian_events == a.xian_events
    assert b.phase == a.phase and b.current_player() == a.current_player()
    assert b.end_reason == a.end_reason
    assert b.returns() == a.returns()
    assert b.settlement() == a.settlement()


def on_end(st: State, seen: Counter) -> None:
    sh = _shadows.pop(id(st), None)
    check_accounting(st)
    assert st.current_player() == -1 and st.legal_actions() == []
    assert st.end_reason in END_REASONS
    if st.end_reason == "table full":
        assert st.table_count() == 16
    elif st.end_reason == "lead holder has no cards":
        assert st.hands[st.lead_holder] == 0
    else:
        assert st.history[-1][1] == Action(KOU)
    pts = st.returns()
    assert len(pts) == 3 and sum(pts) == 0
    assert pts == settle(st.captured, st.xian_events, st.rules).points
    if sh is not None:  # a hand of at least one action
        reclassified = [[classify(m, st.rules) for m in plays] for plays in sh.captured]
        assert pts == settle(reclassified, sh.xian, st.rules).points
    assert st.settlement() == settle(st.captured, st.xian_events, st.rules)
    seen["ends:" + st.end_reason] += 1
    # the record, as text, replays to the same hand
    rec = json.loads(dumps(record_of(st)))
    assert rec["banker"] == st.banker and rec["rules"] == st.rules.name
    assert [parse_hand(h) for h in rec["hands"]] == list(st.dealt)
    assert len(rec["actions"]) == len(st.history)
    _assert_same_hand(st, replay(rec, require_end=True))


HOOKS = Hooks(
    root=0x5EED_0001,
    hands={"lanzhou": 1200, "kanniutui": 1200},
    record_hands=40,
    must_see=("lead:play", "lead:kou", "lead:tighten", "trick:play", "trick:pass",
              "kou_ask:kou", "kou_ask:xian", "discard:discard", "ends:kou", "ends:table full"),
    golden_seeds=(1, 2),
    crosscheck={"lanzhou": [("random", 300), ("heuristic,heuristic2,learned", 100)],
                "kanniutui": [("random", 300), ("heuristic,heuristic2,learned", 100)]},
    legacy_records=(DATA / "legacy_v1_lanzhou_seed7.json",),
    view_every=3,
    on_step=on_step,
    on_end=on_end,
)
