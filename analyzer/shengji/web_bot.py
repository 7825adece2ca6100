"""The 双升 table's bots: one decision of a policy from what its seat can see.

A bot decides on a copy of the hand in which every card its seat cannot place — the other
hands (less the cards their seats have shown), and the kitty unless this seat buried it —
is dealt anew at random (:func:`.engine.redeal_hidden`): it decides on a position that
holds nothing it could not know. ``tuned`` and ``heuristic`` are the kernels' heuristic
(its declaring, 造反, bury, lead and follow; ``tuned`` with its preset's tuned parameters);
``net`` (what ``shengji advise`` plays by default) is tuned with the kernels' net choosing
its leads and follows; ``random`` is the engine's seeded random policy.
"""

from __future__ import annotations

import random

import numpy as np

from .actions import (
    BAJIWO_PHASE,
    BURY,
    BURY_PHASE,
    DECLARE_PHASE,
    PLAY,
    PLAY_PHASE,
    REBEL,
    REBEL_PHASE,
    Action,
)
from .bidding import classify_declaration
from .bidding_phase import declare_level
from .engine import PASS, State, random_action, redeal_hidden
from .sim import policy_row, rule_arrays, seat_policies

BOT_POLICIES = ("net", "tuned", "heuristic", "random")  # fast: pimc is too slow to wait for


def _planes(cards) -> tuple[int, int]:
    from kernels.shengji.planes import planes_of

    return planes_of(list(cards))


class Bot:
    """A seat played by ``policy`` (:data:`BOT_POLICIES`) with its own random stream
    ``seed`` (a SeedSequence): the same seed and the same hand give the same decisions."""

    def __init__(self, seat: int, policy: str, seed: np.random.SeedSequence):
        if policy not in BOT_POLICIES:
            raise ValueError(f"unknown bot policy {policy!r} (choose {', '.join(BOT_POLICIES)})")
        self.seat, self.policy = seat, policy
        redeal, stream = seed.spawn(2)
        self._redeal = random.Random(int(redeal.generate_state(1, dtype=np.uint64)[0]))
        self._rng = random.Random(int(stream.generate_state(1, dtype=np.uint64)[0]))

    def choose(self, state: State) -> Action:
        """The bot's action at ``state``, where its seat is to act; checked by the engine."""
        if state.current_player() != self.seat:
            raise ValueError(f"seat {self.seat} is not to act")
        seen = redeal_hidden(state, self.seat, self._redeal)
        if self.policy == "random":
            action = random_action(seen, self._rng)
        elif self.policy == "net" and state.phase == PLAY_PHASE:
            action = _search_play(seen, self.seat, self.policy, self._rng)
        else:
            action = _heuristic(seen, self.seat, self.policy)
        state.verify(action, self.seat)
        return action


def _heuristic(state: State, seat: int, policy: str) -> Action:
    """The kernels' heuristic decision of ``seat`` (parameters of ``policy``)."""
    hp = policy_row(policy, state.rules)
    phase = state.phase
    planes = _planes(state.hands[seat])
    one, two = np.int64(planes[0]), np.int64(planes[1])
    if phase == REBEL_PHASE:
        from kernels.shengji.heuristic_bid import heuristic_rebel

        return Action(REBEL) if heuristic_rebel(one, two, state.the_level, hp) else Action(PASS)
    if phase in (DECLARE_PHASE, BAJIWO_PHASE):
        return _declare(state, seat, one, two, hp)
    if phase == BURY_PHASE:
        from kernels.shengji.context import new_context
        from kernels.shengji.heuristic_bid import heuristic_bury
        from kernels.shengji.planes import cards_of

        ctx = new_context(state.the_trump, state.the_level, state.rules.nt_level_joker_tractor)
        b_one, b_two = heuristic_bury(one, two, ctx, hp)
        return Action(BURY, tuple(cards_of(int(b_one), int(b_two))))
    if phase == PLAY_PHASE:
        from .advise_playouts import _kernel_candidates

        return Action(PLAY, _kernel_candidates(state, seat_policies(policy, state.rules))[0])
    raise ValueError(f"no decision in the {phase} phase")


def _search_play(state: State, seat: int, policy: str, rng: random.Random) -> Action:
    """The lead or follow of ``seat`` on a searching policy (net), from ``state`` whose
    hidden cards are already redealt: the search reads the seat's hand, its knowledge and
    the other hands' sizes."""
    from kernels.rng import states_from_seed
    from kernels.shengji.advise import search_play
    from kernels.shengji.context import new_context
    from kernels.shengji.planes import cards_of

    from .decision_throw import knowledge

    pol, hp = seat_policies(policy, state.rules)
    ctx = new_context(state.trump, state.level, state.rules.nt_level_joker_tractor)
    trick = state.tricks[-1]
    plays = np.zeros((4, 2), dtype=np.int64)
    for j, p in enumerate(trick.plays):
        plays[j] = _planes(p)
    h = np.array([_planes(state.hands[s]) for s in range(4)], dtype=np.int64)
    banker = state.priority if state.banker is None else state.banker
    one, two = search_play((pol[seat], (seat, hp[seat], knowledge(state, seat))),
                           (plays, len(trick.plays)), (trick.leader, banker), h,
                           (ctx, rule_arrays(state.rules)),
                           states_from_seed(rng.getrandbits(63), 1)[0])
    return Action(PLAY, tuple(cards_of(int(one), int(two))))


def _declare(state: State, seat: int, one, two, hp) -> Action:
    from kernels.shengji.heuristic_bid import heuristic_declare

    legal = state.legal_actions()  # pass first, then the declarations
    level = declare_level(state, seat)
    pairs = []
    for a in legal[1:]:
        d = classify_declaration(a.cards, level, state.rules)
        if d is None:
            raise RuntimeError(f"the engine allows {a}, which makes no declaration")
        pairs.append((d.cls, d.suit))
    if not pairs:
        return legal[0]
    dcls = np.array([c for c, _ in pairs], dtype=np.int64)
    dsuit = np.array([s for _, s in pairs], dtype=np.int64)
    st = state.standing
    standing = (0, 0, -1) if st is None else (
        int(st.cls), int(st.suit), -1 if st.seat is None else int(st.seat))
    banker = state.priority if state.banker is None else state.banker
    turn = (seat, banker, int(state.grab), int(state.phase == BAJIWO_PHASE))
    pick = heuristic_declare(one, two, np.int64(level), standing, turn,
                             (dcls, dsuit, len(pairs)), hp)
    return legal[int(pick)]
