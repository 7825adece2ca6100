"""The 双升 pimc policy: the hidden deals it samples respect every public fact the reference
engine rebuilds for its seat (hand sizes, the cards played, the voids shown, the cards shown
and not played since, the kitty the seat buried), and its plays replay legal in the engine."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from analyzer.shengji import crosscheck as wr
from analyzer.shengji.actions import PLAY, Action
from analyzer.shengji.cards import DECK
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import pimc as kpm
from kernels.shengji import policies as kp
from kernels.shengji.context import CX_ESUIT, new_context
from kernels.shengji.planes import cards_of, planes_of


def knowledge_from_view(view) -> np.ndarray:
    """The kernels' knowledge of a seat, built from the engine's public view."""
    kn = kp.new_knowledge()
    played = [f for _, plays in view.tricks for p in plays for f in p]
    kn[kp.KN_PLAYED], kn[kp.KN_PLAYED + 1] = planes_of(played)
    for j, voids in enumerate(view.voids):
        for e in voids:
            kn[kp.KN_VOID + j] |= 1 << e
    for j, known in enumerate(view.known_cards):
        kn[kp.KN_SHOWN + 2 * j], kn[kp.KN_SHOWN + 2 * j + 1] = planes_of(known)
    if view.kitty is not None:
        kp.note_bury(kn, view.seat, *planes_of(view.kitty))
    return kn


def check_samples(view, ctx, state, n_samples=10):
    kn = knowledge_from_view(view)
    scratch = kpm.new_pimc_scratch()
    ps, buf = scratch[0], scratch[2]
    buf[kpm.BUF_SIZES:kpm.BUF_SIZES + 4] = view.hand_sizes
    played = Counter(f for _, plays in view.tricks for p in plays for f in p)
    own = planes_of(view.hand)
    for _ in range(n_samples):
        assert kpm.sample_hidden(view.seat, own[0], own[1], kn, ctx, state, ps, buf)
        hands = [Counter(cards_of(*ps[kpm.PS_HANDS + j])) for j in range(4)]
        kitty = Counter(cards_of(*ps[kpm.PS_KITTY]))
        assert hands[view.seat] == Counter(view.hand)
        assert [sum(h.values()) for h in hands] == list(view.hand_sizes)
        assert sum(kitty.values()) == 8
        if view.kitty is not None:
            assert kitty == Counter(view.kitty)
        assert sum(hands, Counter()) + kitty + played == Counter(DECK)
        for j in range(4):
            assert not any(ctx[CX_ESUIT + f] in view.voids[j] for f in hands[j])
            assert not Counter(view.known_cards[j]) - hands[j]


def _apply(st, row, leader):
    plays = [cards_of(int(row[kh.LG_PLAYS + 2 * k]), int(row[kh.LG_PLAYS + 2 * k + 1]))
             for k in range(4)]
    attempt = cards_of(int(row[kh.LG_ATTEMPT]), int(row[kh.LG_ATTEMPT + 1]))
    for k in range(4):
        st.apply(Action(PLAY, attempt if k == 0 else plays[k]), (leader + k) % 4)


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC], ids=["zhengzhou", "classic"])
def test_samples_respect_every_public_fact(rules):
    hands = wr.kernel_hands(20, rules, 21, (2, 2), 0)  # random play: many voids, failed throws
    state = states_from_seed(5, 1)[0]
    checked = 0
    for h in range(20):
        st = wr.start_state(hands, h, rules)
        assert wr._bidding(st, hands.alogs[h], int(hands.chances[h, kw.CH_ACTIONS])) is None
        ctx = new_context(st.trump, st.level, rules.nt_level_joker_tractor)
        tlog = hands.tlogs[h]
        for t in range(int(hands.res[h, kw.W_PLAY + kh.R_TRICKS])):
            leader = int(tlog[t, kh.LG_LEADER])
            if t % 3 == 1:
                for seat in (leader, (leader + 1) % 4):
                    check_samples(st.view(seat), ctx, state)
                    checked += 1
            _apply(st, tlog[t], leader)
    assert checked > 150


@pytest.mark.parametrize("rules", [ZHENGZHOU, CLASSIC], ids=["zhengzhou", "classic"])
def test_pimc_plays_replay_legal_in_the_engine(rules):
    hands = wr.kernel_hands(12, rules, 31, (2, 2), 0, policies="pimc,heuristic,random,pimc")
    bad = wr.replay_all(hands, rules)
    assert not bad, bad[0]
