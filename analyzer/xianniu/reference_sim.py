"""Whole hands played by the reference engine under the random policy.

Slow and exact: the baseline that the kernels are checked and timed against.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from .cards import HAND_SIZE, N_CARDS, N_SEATS
from .engine import State, new_hand
from .rules import Rules, get_rules


def deal_masks(rng: np.random.Generator) -> list[int]:
    """Three 16-card hands from a uniform shuffle."""
    order = rng.permutation(N_CARDS)
    return [sum(1 << int(c) for c in order[s * HAND_SIZE:(s + 1) * HAND_SIZE])
            for s in range(N_SEATS)]


def play_random(state: State, rng: np.random.Generator) -> State:
    """Play ``state`` to the end choosing uniformly among the legal actions."""
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply(acts[int(rng.integers(len(acts)))])
    return state


def random_hands(n_hands: int, rules: str | Rules | None = None, seed: int = 0,
                 progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play ``n_hands`` random hands; one row per hand.

    Hand ``i`` draws from the ``i``-th child of ``SeedSequence(seed)``, so any hand can
    be replayed alone.
    """
    if n_hands < 0:
        raise ValueError(f"the number of hands must be at least 0, got {n_hands}")
    rules = get_rules(rules)
    rows = []
    for i, child in enumerate(np.random.SeedSequence(seed).spawn(n_hands)):
        rng = np.random.default_rng(child)
        state = play_random(new_hand(deal_masks(rng), rules), rng)
        rows.append(hand_row(i, state))
        if progress is not None:
            progress(1)
    df = pd.DataFrame(rows, columns=HAND_COLUMNS)
    df.attrs.update(rules=rules.name, policy="random", seed=seed, hands=n_hands,
                    engine="reference")
    return df


HAND_COLUMNS = ["hand", "banker", "captured0", "captured1", "captured2", "points0", "points1",
                "points2", "ci_seat", "xian_count", "actions", "end"]


def hand_row(i: int, state: State) -> dict:
    """The summary row of a finished hand."""
    st = state.settlement()
    ci = [s for s, t in enumerate(st.tallies) if t.ci]
    row: dict[str, int | str] = {"hand": i, "banker": state.banker}
    for s in range(N_SEATS):
        row[f"captured{s}"] = st.tallies[s].captured
        row[f"points{s}"] = st.points[s]
    row.update(ci_seat=ci[0] if ci else -1, xian_count=len(state.xian_events),
               actions=len(state.history), end=state.end_reason)
    return row
