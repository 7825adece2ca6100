"""Differential check: kernel hands replayed move for move in the reference engine."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import contract
from .cards import (
    ACE,
    EIGHT,
    FIVE,
    FULL_DECK,
    HAND_SIZE,
    KING,
    N_RANKS,
    NINE,
    TEN,
    THREE,
    TWO,
    cards_of,
    count,
    format_cards,
    rank_mask,
)
from .engine import new_hand
from .rules import Rules, get_rules
from .sim import RESULT_COLUMNS, LoggedHand, logged_hands


@dataclass
class CrossCheck(contract.CrossCheck):
    """What a differential run compared (the core's hands and mismatch lines, and the
    decisions and legal actions compared), and the first disagreements found."""

    rules: str = ""
    decisions: int = 0
    legal_compared: int = 0


def _describe(actions) -> str:
    return ", ".join(sorted(str(a) for a in actions)[:6])


def check_hand(lh: LoggedHand, rules: Rules, report: CrossCheck, index: int) -> None:
    """Replay one kernel hand in the reference engine and record any disagreement."""
    state = new_hand(list(lh.hands), rules)
    where = f"{rules.name} hand {index} ({' | '.join(format_cards(h) for h in lh.hands)})"
    for i, (seat, action) in enumerate(lh.actions):
        if state.is_terminal():
            report.mismatches.append(f"{where}: reference hand over before kernel action {i}")
            return
        if seat != state.current_player():
            report.mismatches.append(f"{where} action {i}: kernel seat {seat}, reference seat "
                                     f"{state.current_player()}")
            return
        ref = set(state.legal_actions())
        report.legal_compared += len(ref)
        if ref != lh.legal[i]:
            report.mismatches.append(
                f"{where} action {i} ({state.phase}): only reference: "
                f"{_describe(ref - lh.legal[i])}; only kernel: {_describe(lh.legal[i] - ref)}")
            return
        state.apply(action)
        report.decisions += 1
    if not state.is_terminal():
        report.mismatches.append(f"{where}: kernel stopped but reference hand goes on")
        return
    st = state.settlement()
    row = dict(zip(RESULT_COLUMNS, lh.result.tolist()))
    got = tuple(row[f"points{s}"] for s in range(3))
    caps = tuple(row[f"captured{s}"] for s in range(3))
    if got != st.points or caps != tuple(t.captured for t in st.tallies):
        report.mismatches.append(f"{where}: kernel points {got} captured {caps}, reference "
                                 f"{st.points} {[t.captured for t in st.tallies]}")
    if len(state.xian_events) != row["xian_count"]:
        report.mismatches.append(f"{where}: 掀 count {row['xian_count']} vs "
                                 f"{len(state.xian_events)}")


def crosscheck(n_hands: int, rules: str | Rules | None = None, seed: int = 0,
               policies: str = "random", max_mismatches: int = 10,
               themed: bool = False, pimc_samples: int | None = None) -> CrossCheck:
    """Play ``n_hands`` kernel hands and replay each in the reference engine.

    With ``themed`` the deals are :func:`themed_deals`, rich in rare combinations.
    """
    r = get_rules(rules)
    report = CrossCheck(rules=r.name)
    deals = themed_deals(n_hands, seed) if themed else None
    for i, lh in enumerate(logged_hands(n_hands, r, policies, seed, deals, pimc_samples)):
        check_hand(lh, r, report, i)
        report.hands += 1
        if len(report.mismatches) >= max_mismatches:
            break
    return report


# Cards a themed deal puts in one seat's hand; the rest of the deck is dealt at random.
_THEMES = (
    ((ACE, 2), (TWO, 2), (THREE, 2), (EIGHT, 2), (TEN, 2), (KING, 2)),  # 龙凤
    ((ACE, 4), (TWO, 1), (THREE, 1)),  # 鱼亮
    ((KING, 4), (TEN, 1), (EIGHT, 1)),  # 摆亮
    ((ACE, 4), (TWO, 4), (THREE, 4)),  # four 鱼
    ((EIGHT, 3), (TEN, 3), (KING, 3)),  # three 摆
    ((KING, 3), (TEN, 1), (EIGHT, 1)),  # K-摆
    ((FIVE, 2), (NINE, 4)),  # 喜包亮 material
    ((FIVE, 3), (KING, 4)),
    ((NINE, 3), (FIVE, 3)),  # 牛 and 喜
)


def themed_deals(n_deals: int, seed: int = 0) -> np.ndarray:
    """Deals in which one seat (two for some) holds rare combinations or eight pairs."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x7E3]))
    out = np.empty((n_deals, 3), dtype=np.int64)
    for d in range(n_deals):
        hands = [0, 0, 0]
        free = FULL_DECK
        seats = rng.permutation(3)
        n_themed = 1 + int(rng.integers(2))
        for s in seats[:n_themed]:
            pick = int(rng.integers(len(_THEMES) + 1))
            if pick == len(_THEMES):
                want = _eight_pairs_cards(rng, free)
            else:
                want = 0
                for rank, k in _THEMES[pick]:
                    avail = cards_of(free & rank_mask(rank) & ~want)
                    if len(avail) >= k:
                        for c in rng.choice(avail, size=k, replace=False):
                            want |= 1 << int(c)
            hands[s] = want
            free &= ~want
        rest = [int(c) for c in rng.permutation(cards_of(free))]
        for s in range(3):
            need = HAND_SIZE - count(hands[s])
            for c in rest[:need]:
                hands[s] |= 1 << c
            rest = rest[need:]
        out[d] = hands
    return out


def _eight_pairs_cards(rng: np.random.Generator, free: int) -> int:
    """Sixteen free cards in eight pairs (random ranks, random suits)."""
    want = 0
    for rank in rng.permutation(N_RANKS):
        for _ in range(1 + int(rng.integers(2))):
            avail = cards_of(free & rank_mask(int(rank)) & ~want)
            if count(want) < HAND_SIZE and len(avail) >= 2:
                for c in rng.choice(avail, size=2, replace=False):
                    want |= 1 << int(c)
    return want if count(want) == HAND_SIZE else 0
