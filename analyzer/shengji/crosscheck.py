"""The kernels against the reference engine, hand by hand: kernel whole hands
(``kernels.shengji.game``) replayed action by action in the engine, the differential check
of bidding, the bury, 扒鸡窝, the play and the settlement.

:func:`crosscheck` is the check every game has (a :class:`~analyzer.core.contract.CrossCheck`
of hands replayed and mismatch lines). Underneath, :func:`kernel_hands` plays hands in the
kernels with every log kept; :func:`replay_hand` starts the engine from the same deal (and
the same redeal, kitty-card draw and first seats), applies each logged action — every one
must be legal there, and where the engine lists the choices (造反, declaring, 扒鸡窝) their
number and, for declarations, the set must equal the kernel's — and compares the outcome.
It returns None when the hand agrees, else the first difference in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji import batch as kb
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji.planes import cards_of
from kernels.shengji.policies import pimc_flag
from kernels.shengji.policies import seat_policies as kernel_seats

from ..core.contract import CrossCheck
from . import bidding_phase as bp
from .actions import BURY, DECLARE, PASS, PLAY, REBEL, REBEL_PHASE, Action
from .engine import Chance, new_hand
from .rules import ShengjiRules, get_rules
from .sim import CHUNK, rule_arrays, seat_policies

_KINDS = {kw.K_REBEL: REBEL, kw.K_PASS: PASS, kw.K_DECLARE: DECLARE, kw.K_BURY: BURY}


@dataclass
class KernelHands:
    """Whole hands played in the kernels with every log (row ``h`` per hand)."""

    levels: tuple[int, int]
    banker: int | None  # None: 抢庄局
    res: np.ndarray  # int64[n, N_WHOLE]
    deals: np.ndarray  # int64[n, 2, 5, 2]
    alogs: np.ndarray  # int64[n, MAX_ACTIONS, AL_WIDTH]
    chances: np.ndarray  # int64[n, CH_SIZE]
    tlogs: np.ndarray  # int64[n, MAX_TRICKS, LOG_WIDTH]


def kernel_hands(n: int, rules: str | ShengjiRules | None, seed: int, levels=(2, 2),
                 banker: int | None = 0, params: np.ndarray | None = None,
                 policies: str = "random", hp: np.ndarray | None = None) -> KernelHands:
    """``n`` whole hands with their logs, each seat on its policy (one name, or four
    ``a,b,c,d``; random by default); ``params`` overrides the rule vector and ``hp`` the
    heuristic parameters (float64[4, N_HEURISTIC])."""
    params = rule_arrays(rules) if params is None else params
    pol, rows = seat_policies(policies, rules)
    pol, hp = kernel_seats(pol, rows if hp is None else hp)
    states = states_from_seed(seed, -(-n // CHUNK))
    res = np.zeros((n, kw.N_WHOLE), dtype=np.int64)
    deals = np.zeros((n, 2, 5, 2), dtype=np.int64)
    alogs = np.zeros((n, kw.MAX_ACTIONS, kw.AL_WIDTH), dtype=np.int64)
    chances = np.zeros((n, kw.CH_SIZE), dtype=np.int64)
    tlogs = np.zeros((n, kh.MAX_TRICKS, kh.LOG_WIDTH), dtype=np.int64)
    lv = np.array(levels, dtype=np.int64)
    kb.whole_logged((states, CHUNK, n), (lv, -1 if banker is None else banker), params,
                    (pol, hp), (res, deals, alogs, chances, tlogs), pimc_flag(pol))
    return KernelHands(tuple(levels), banker, res, deals, alogs, chances, tlogs)


def _cards(planes) -> tuple[int, ...]:
    return cards_of(int(planes[0]), int(planes[1]))


def _deal(d) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    return [_cards(d[s]) for s in range(4)], _cards(d[4])


def start_state(kh_: KernelHands, h: int, rules: ShengjiRules):
    """The engine's state at the deal of hand ``h``, with the kernel's random outcomes."""
    res, ch = kh_.res[h], kh_.chances[h]
    redeals = [_deal(kh_.deals[h, 1])] if res[kw.W_REBEL] >= 0 else []
    index = int(ch[kw.CH_TRUMP_INDEX])
    starts = [int(s) for s in ch[kw.CH_STARTS:kw.CH_STARTS + min(2, ch[kw.CH_N_STARTS])]]
    chance = Chance(None, redeals=redeals, trump_index=None if index < 0 else index,
                    start_seats=starts)
    hands, kitty = _deal(kh_.deals[h, 0])
    return new_hand(rules, kh_.levels, kh_.banker, hands=hands, kitty=kitty, chance=chance)


def _declaration_set(st, legal) -> int:
    """The engine's legal declarations as the kernel's bit set (bit 5 * cls + suit)."""
    out = 0
    for a in legal:
        if a.kind == DECLARE:
            d = bp.declaration_of(st, st.turn, a.cards)
            out |= 1 << (5 * d.cls + d.suit)
    return out


def _bidding(st, alog, n_actions: int) -> str | None:
    for i in range(n_actions):
        seat, kind, one, two, choices, kernel_set = (int(x) for x in alog[i])
        if st.current_player() != seat:
            return f"action {i}: seat {seat} acts, the engine expects {st.current_player()}"
        action = Action(_KINDS[kind], cards_of(one, two) if kind in (kw.K_DECLARE,
                                                                      kw.K_BURY) else ())
        if kind != kw.K_BURY:
            legal = st.legal_actions()
            if len(legal) != choices:
                return (f"action {i}: the kernel lists {choices} choices, the engine "
                        f"{len(legal)} ({', '.join(map(str, legal))})")
            if st.phase != REBEL_PHASE and _declaration_set(st, legal) != kernel_set:
                return (f"action {i}: the kernel's legal declarations differ from the "
                        f"engine's {legal}")
            if action not in legal:
                return f"action {i}: {action} is not among the engine's {legal}"
        try:
            st.apply(action, seat)
        except ValueError as e:
            return f"action {i} ({action} by seat {seat}): {e}"
    return None


def _play(st, tlog, n_tricks: int, finish: bool = True) -> str | None:
    for t in range(n_tricks):
        row = tlog[t]
        leader = int(row[kh.LG_LEADER])
        plays = [cards_of(int(row[kh.LG_PLAYS + 2 * k]), int(row[kh.LG_PLAYS + 2 * k + 1]))
                 for k in range(4)]
        attempt = cards_of(int(row[kh.LG_ATTEMPT]), int(row[kh.LG_ATTEMPT + 1]))
        for k in range(4):
            cards = attempt if k == 0 else plays[k]
            try:
                st.apply(Action(PLAY, cards), (leader + k) % 4)
            except ValueError as e:
                return f"trick {t}, play {k}: {e}"
            if k == 0 and st.tricks[-1].plays[0] != plays[0]:
                return f"trick {t}: the engine leads {st.tricks[-1].plays[0]}, the kernel " \
                       f"{plays[0]}"
        done = st.tricks[-1] if st.is_terminal() else st.tricks[-2]
        if done.winner != (leader + int(row[kh.LG_WINNER])) % 4:
            return f"trick {t}: the engine's winner is seat {done.winner}"
    return None if st.is_terminal() or not finish else "the engine's hand is not over"


def _outcome(st) -> dict[str, int]:
    r = st.result
    s = r.settlement
    return {"banker": r.banker, "level": st.level, "trump": st.trump,
            "random_trump": int(st.random_trump_card is not None),
            "rebel": -1 if st.rebel is None else st.rebel,
            "stepped_down": int(st.stepped_down is not None),
            "bajiwo": len(st.kitty_log) - 1, "declarations": len(st.declarations),
            "attacker_points": s.attacker_points, "kitty_points": s.kitty_points,
            "multiplier": s.multiplier, "winner_team": r.winner_team, "gain": r.gain,
            "next_banker": r.next_banker, "level0_after": r.levels_after[0],
            "level1_after": r.levels_after[1]}


def kernel_outcome(res) -> dict[str, int]:
    """The kernel's row in the terms of :func:`_outcome`."""
    p = kw.W_PLAY
    return {"banker": res[kw.W_BANKER], "level": res[kw.W_LEVEL], "trump": res[kw.W_TRUMP],
            "random_trump": res[kw.W_RANDOM_TRUMP], "rebel": res[kw.W_REBEL],
            "stepped_down": res[kw.W_STEPPED_DOWN], "bajiwo": res[kw.W_BAJIWO],
            "declarations": res[kw.W_DECLARATIONS],
            "attacker_points": res[p + kh.R_ATTACKER_POINTS],
            "kitty_points": res[p + kh.R_KITTY_POINTS],
            "multiplier": res[p + kh.R_MULTIPLIER], "winner_team": res[kw.W_WINNER_TEAM],
            "gain": res[kw.W_GAIN], "next_banker": res[kw.W_NEXT_BANKER],
            "level0_after": res[kw.W_LEVEL0_AFTER], "level1_after": res[kw.W_LEVEL1_AFTER]}


def _replayed(kh_: KernelHands, h: int, rules: ShengjiRules):
    """The engine's state after replaying hand ``h`` from its logs, and the first
    difference on the way (None if there is none)."""
    st = start_state(kh_, h, rules)
    err = _bidding(st, kh_.alogs[h], int(kh_.chances[h, kw.CH_ACTIONS]))
    if err is None:
        err = _play(st, kh_.tlogs[h], int(kh_.res[h][kw.W_PLAY + kh.R_TRICKS]))
    return st, err


def replayed_state(kh_: KernelHands, h: int, rules: str | ShengjiRules | None):
    """The engine's state of the finished hand ``h`` (its record: ``records.record_of``);
    ValueError if the engine disagrees with the kernel on the way."""
    st, err = _replayed(kh_, h, get_rules(rules))
    if err is not None:
        raise ValueError(f"hand {h}: {err}")
    return st


def replay_hand(kh_: KernelHands, h: int, rules: str | ShengjiRules | None) -> str | None:
    """None when the engine replays hand ``h`` legally to the kernel's outcome, else the
    first difference."""
    st, err = _replayed(kh_, h, get_rules(rules))
    res = kh_.res[h]
    if err is not None:
        return err
    want, got = _outcome(st), kernel_outcome(res)
    diff = [f"{k} engine {want[k]} kernel {int(got[k])}" for k in want if want[k] != got[k]]
    return "; ".join(diff) or None


def state_at_trick(kh_: KernelHands, h: int, rules: str | ShengjiRules | None, trick: int):
    """The engine's state of hand ``h`` at the start of trick ``trick`` (0-based; the
    bidding and the first ``trick`` tricks replayed from the logs); ValueError if the
    engine disagrees with the kernel on the way."""
    rules = get_rules(rules)
    st = start_state(kh_, h, rules)
    err = _bidding(st, kh_.alogs[h], int(kh_.chances[h, kw.CH_ACTIONS]))
    if err is None:
        err = _play(st, kh_.tlogs[h], trick, finish=False)
    if err is not None:
        raise ValueError(f"hand {h}: {err}")
    return st


def replay_all(kh_: KernelHands, rules) -> list[tuple[int, str]]:
    """``(hand, difference)`` for every hand the engine does not replay to the same end."""
    out = []
    for h in range(len(kh_.res)):
        err = replay_hand(kh_, h, rules)
        if err is not None:
            out.append((h, err))
    return out


def crosscheck(n_hands: int, rules: str | ShengjiRules | None, seed: int = 0,
               policies: str = "random", levels=(2, 2), banker: int | None = 0) -> CrossCheck:
    """``n_hands`` whole kernel hands (team ``levels``, ``banker`` going in, None: a 抢庄局;
    every seat on ``policies``: one name or four) replayed in the engine: the hands and one
    line per hand that disagrees."""
    hands = kernel_hands(n_hands, rules, seed, levels, banker, policies=policies)
    return CrossCheck(n_hands, [f"hand {h}: {err}" for h, err in replay_all(hands, rules)])


__all__ = ["KernelHands", "crosscheck", "kernel_hands", "kernel_outcome", "replay_all",
           "replay_hand", "start_state", "state_at_trick"]
