"""Small 掀牛 positions for the solver's tests and reach script: random play from a seeded
deal, 紧牌 called when it may be, until few cards are left in the hands."""

from __future__ import annotations

import numpy as np

from analyzer.xianniu.engine import KOU, TIGHTEN, State, new_hand
from analyzer.xianniu.reference_sim import deal_masks


def late_position(seed: np.random.SeedSequence, rules: str, max_cards: int,
                  p_kou: float = 0.1) -> State:
    """A position (not over) with at most ``max_cards`` cards left in all hands together."""
    rng = np.random.default_rng(seed)
    while True:
        st = new_hand(deal_masks(rng), rules, int(rng.integers(3)))
        while not st.is_terminal() and sum(bin(h).count("1") for h in st.hands) > max_cards:
            acts = st.legal_actions()
            tight = [a for a in acts if a.kind == TIGHTEN]
            plain = [a for a in acts if a.kind != KOU]
            pool = tight or (acts if not plain or rng.random() < p_kou else plain)
            st.apply(pool[int(rng.integers(len(pool)))])
        if not st.is_terminal():
            return st
