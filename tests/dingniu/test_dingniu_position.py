"""Positions seen by one seat, and the hidden deals sampled behind them."""

from __future__ import annotations

import pytest
from test_dingniu_rules import after_random_moves

from analyzer.dingniu.position import parse_history_text, parse_position, sample_states
from analyzer.dingniu.records import action_to_json
from analyzer.dingniu.tiles import KOU, format_tiles


def seen_by_mover(seed: int, moves: int):
    """A random hand stopped after ``moves``; the position as the seat to act sees it."""
    st = after_random_moves(seed, moves)
    me = st.current_player()
    hist = [action_to_json(s, a) for s, a in st.history]
    for h in hist:
        if h["action"] == "kou" and h["seat"] != me:
            del h["tile"]
    return st, {"hand": format_tiles(st.hands[me]), "history": hist}


@pytest.mark.parametrize("seed", range(25))
def test_sampled_deals_fit_the_public_history(seed):
    st, pos = seen_by_mover(seed, 4 + seed % 12)
    p = parse_position(pos)
    assert p.seat == st.current_player()
    samples = sample_states(p, 30, seed)
    assert len(samples) == 30
    for s in samples:
        assert s.hands[p.seat] == st.hands[p.seat]
        assert s.ends == st.ends and s.laid == st.laid
        assert [sum(h) for h in s.hands] == [sum(h) for h in st.hands]
        assert [sum(k) for k in s.kou] == [sum(k) for k in st.kou]
        assert s.legal_actions() == st.legal_actions()
        # history as the public sees it: the same seats, the same laid tiles
        assert [(a, b if b % 8 != KOU else -1) for a, b in s.history] == \
            [(a, b if b % 8 != KOU else -1) for a, b in st.history]


def test_a_seat_that_kou_ed_held_no_matching_tile():
    pos = {"hand": "大天 大天 虎头 虎头 大五 大五", "history": "lead 一五; kou"}
    p = parse_position(pos)
    assert p.seat == 2
    hands = set()
    for s in sample_states(p, 200, 1):
        held = s.dealt[1]
        assert not any(held[k] and (1 in t or 5 in t) for k, t in
                       enumerate(tuple(e) for e in s.rules.ends))
        hands.add(tuple(s.hands[1]))
    assert len(hands) > 10  # the sampler does not return one deal over and over


def test_history_text():
    assert parse_history_text("lead 大五; 虎头 on 5；kou; 扣 地幺\n一五 5") == [
        {"action": "lead", "tile": "大五"}, {"action": "play", "tile": "虎头", "end": 5},
        {"action": "kou"}, {"action": "kou", "tile": "地幺"},
        {"action": "play", "tile": "一五", "end": 5}]
