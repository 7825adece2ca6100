"""双升's part of the luck-and-skill split (:mod:`analyzer.core.luck`): redealt hands played
whole in the kernels (造反, declaring, the kitty, 扒鸡窝, the play) by the default player in
every seat, at the hand's levels and banker."""

from __future__ import annotations

from typing import Any

import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji.planes import planes_of

from ..core.drive import play_rows, seatings_of
from .actions import BURY, BURY_PHASE
from .records import replay, start_of
from .sim import QUERY_POLICY, driver_policies, kernel_rules, seat_policies

PLAYER = QUERY_POLICY  # the player the review's play-outs continue with (advise.py)
HIDDEN = ("kitty",)  # the record's deal fields, besides the hands, a seat cannot see


def seen_hidden(record: dict[str, Any], seat: int) -> frozenset[str]:
    """The fields of :data:`HIDDEN` that ``seat`` has seen by the end of ``record``: the
    kitty (底牌), once it picked it up (the first seat to bury, from its turn to bury on)."""
    state = replay(record)
    buriers = [s for s, action in state.history if action.kind == BURY]
    picked = buriers[0] if buriers else state.turn if state.phase == BURY_PHASE else None
    return frozenset({"kitty"}) if picked == seat else frozenset()


def deal_of(record: dict[str, Any]) -> dict[str, Any]:
    """The record of the deal the hand was played with: after a 造反, the last redeal (the
    cards were dealt again; the first deal was not played)."""
    redeals = record.get("redeals") or []
    if not redeals:
        return record
    last = redeals[-1]
    return {**record, "hands": last["hands"], "kitty": last["kitty"], "redeals": []}
CHUNK = 64  # redealt hands a random stream: a few hundred spread over the cores


def _deal_row(record: dict[str, Any]) -> np.ndarray:
    st = start_of(record)
    row = [p for cards in (*st.hands, st.kitty) for p in planes_of(list(cards))]
    return np.array(row, dtype=np.int64)


def deal_results(records: list[dict[str, Any]], seed: int) -> np.ndarray:
    """Each seat's levels gained (int64[n, 4]: the winner team's two seats gain, the others
    0) in the hands of ``records`` (dealt, no action taken), played whole by
    :data:`PLAYER`."""
    first = start_of(records[0])
    banker = -1 if first.start_banker is None else int(first.start_banker)
    rules = kernel_rules(records[0]["rules"], np.array(first.levels, dtype=np.int64), banker)
    deals = np.stack([_deal_row(r) for r in records])
    n = len(deals)
    rows = play_rows(rules, seatings_of(driver_policies(*seat_policies(PLAYER,
                                                                       records[0]["rules"]))),
                     states_from_seed(seed, -(-n // CHUNK)), CHUNK, n, deals=deals,
                     source="given")[:, 0]
    seats = np.arange(4)
    wins = (seats[None, :] % 2) == rows[:, kw.W_WINNER_TEAM][:, None]
    return np.where(wins, rows[:, kw.W_GAIN][:, None], 0)


def selfplay_records(n: int, seed: int, rules: str = "zhengzhou") -> list[dict[str, Any]]:
    """``n`` whole hands (levels 2 and 2, a 抢庄局) played by :data:`PLAYER` in every seat,
    as records (played in the kernels, replayed through the reference engine)."""
    from .crosscheck import kernel_hands, replayed_state
    from .records import record_of

    kh = kernel_hands(n, rules, seed, policies=PLAYER)
    return [record_of(replayed_state(kh, h, rules)) for h in range(n)]
