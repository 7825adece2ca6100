"""The table's bots: one decision of a kernel policy from what its seat can see.

A bot is given the kernels' state words of the position with the cards its seat cannot see
(the other hands and their face-down 紧牌 discards) dealt anew at random, keeping each
seat's card and discard counts: it decides on a position that holds nothing it could not
know. The heuristic never reads another hand, and pimc samples the hidden cards again
consistent with every pass; the redeal makes the guarantee hold by construction.
"""

from __future__ import annotations

import numpy as np

from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu.pimc import pimc_pick
from kernels.xianniu.policies import POLICY_PIMC

from .cards import FULL_DECK, N_SEATS, cards_of, count
from .engine import ACTION_KINDS, Action, State
from .kernel_state import ws_from_state
from .sim import POLICIES, POLICY_IDS, policy_arrays, rule_arrays

BOT_POLICIES = tuple(POLICIES)  # a bot plays any policy of the game


def seat_view_words(state: State, seat: int, rng: np.random.Generator) -> np.ndarray:
    """State words of ``state`` as ``seat`` may know them: hidden cards redealt at random."""
    ws = ws_from_state(state)
    others = [(seat + 1) % N_SEATS, (seat + 2) % N_SEATS]
    pool = FULL_DECK & ~state.hands[seat] & ~int(ws[kg.WS_PUBLIC]) & ~int(ws[kg.WS_DISC + seat])
    cards = rng.permutation(np.array(cards_of(pool), dtype=np.int64))
    at = 0
    for o in others:
        for word, n in ((kg.WS_HANDS + o, count(state.hands[o])),
                        (kg.WS_DISC + o, count(int(ws[kg.WS_DISC + o])))):
            ws[word] = sum(1 << int(c) for c in cards[at:at + n])
            at += n
    if at != len(cards):
        raise AssertionError("hidden cards and the seats' card counts disagree")
    return ws


class Bot:
    """A seat played by kernel policy ``policy`` (:data:`BOT_POLICIES`) from its own
    random stream ``seed`` (a SeedSequence): the same seed gives the same decisions."""

    def __init__(self, seat: int, policy: str, seed: np.random.SeedSequence):
        if policy not in BOT_POLICIES:
            raise ValueError(f"unknown bot policy {policy!r} (choose {', '.join(BOT_POLICIES)})")
        self.seat, self.policy = seat, policy
        deal_seed, stream_seed = seed.spawn(2)
        self._redeal = np.random.default_rng(deal_seed)
        self._rng = states_from_seed(stream_seed, 1)[0].copy()

    def choose(self, state: State) -> Action:
        """The bot's action at ``state``, where its seat is to act; checked by the engine."""
        if state.current_player() != self.seat:
            raise ValueError(f"seat {self.seat} is not to act")
        ws = seat_view_words(state, self.seat, self._redeal)
        action = _decide(state, ws, self.seat, self.policy, self._rng)
        state.verify(action)
        return action


def _decide(state: State, ws: np.ndarray, seat: int, policy: str, rng: np.ndarray) -> Action:
    """Run the kernels' state machine for one decision of ``seat``."""
    rules = rule_arrays(state.rules)
    # The other seats "play pimc": the state machine stops at their first real choice.
    names = ["pimc"] * N_SEATS
    names[seat] = policy
    ids, params = policy_arrays(names, rules=state.rules)
    scratch = kg.new_scratch()
    scratch[2][:] = ws
    log = np.zeros((kg.MAX_LOG, 3), dtype=np.int64)
    logbuf = (log, np.zeros((1, 2), dtype=np.int64), np.zeros(2, dtype=np.int64))
    first = len(state.history)
    status = kg.advance(rules, (ids, params), rng, scratch, logbuf, np.int64(1), np.int64(-1))
    if scratch[2][kg.S_N_ACT] > first:  # the seat acted (a policy's choice, or forced)
        typ, mask = int(log[first, 1]), int(log[first, 2])
    elif status == 1 and ids[seat] == POLICY_IDS["pimc"] == POLICY_PIMC:
        pick = pimc_pick(rules, params[seat], rng, scratch, kg.new_scratch())
        typ, mask = int(scratch[1][pick, 0]), int(scratch[0][pick])
    else:
        raise AssertionError("the kernels did not reach the bot's decision")
    kind = ACTION_KINDS[typ]
    return Action(kind, mask if kind in ("play", "discard") else 0)
