"""“Should I 掀 this hand?” and “should the banker 扣?”: paired play-outs with error bars.

Hidden cards are dealt to the other seats and kept only when the position's public facts
hold under their policies (rejection sampling: the acceptance rate is reported). Both
actions are played from each kept deal with one random stream, and sampling stops when the
95% CI of the difference is narrower than ``precision`` on each side, or at ``max_hands``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from kernels.rng import states_for_chunks
from kernels.xianniu import views
from kernels.xianniu.game import R_CAP0, R_PTS0
from kernels.xianniu.tables import P_CI
from kernels.xianniu.verbs import Rules as KernelRules

from ..core.stats import Estimate, mean_ci, proportion_ci
from .cards import format_cards, parse_hand
from .defaults import ADVICE_OPPONENTS, ADVICE_POLICY, DECISION_BUDGET, DECISION_POLICY
from .kernel_state import ws_from_state
from .records import replay
from .rules import Rules, get_rules
from .sim import POLICIES, SEARCH, paired_playouts, policy_arrays, rule_arrays

# Per kept deal: points after action A and after action B, cards captured and 刺 flags, and
# the three seats' hands at the decision.
Q_A, Q_B, Q_CAP_A, Q_OPP_CI_A, Q_HAND0, N_Q = 0, 1, 2, 3, 4, 7
CHUNKS = 8  # random streams per batch: fixed, so where the precision stops depends on the seed
# alone, not on the number of threads
PER_CHUNK = 128
PILOT = 1024  # kept deals on which the best play-on of each action is chosen


@dataclass
class DecisionResult:
    """The answer to a decision query, with the kept deals in ``details``.

    ``details`` has a row per kept deal: the asking seat's points after each action, its cards
    captured and whether an opponent reached 刺 after the first, and the three hands at the
    decision as card masks (``hand_0`` … ``hand_2``).
    """

    question: str  # "xian" (掀 or 扣) or "kou" (扣 or lead)
    hand: str
    seat: int
    rules: str
    policy: str
    seed: int
    recommendation: str  # the better action, or "close" when the CI holds 0 (shown as
    # "too close to call": describe.TOO_CLOSE)
    ev_a: float  # mean points after the first action (掀, or 扣 for the banker)
    ev_b: float  # mean points after the other (扣, or lead)
    diff: float
    ci95: tuple[float, float]
    hands: int
    acceptance_rate: float
    dealt: int = 0  # deals dealt, kept or not: the acceptance rate's sample size
    kept: int = 0  # deals kept (``hands`` of them are used, at most ``max_hands``)
    ci95_a: tuple[float, float] = (float("nan"), float("nan"))
    ci95_b: tuple[float, float] = (float("nan"), float("nan"))
    p_gou: dict = field(default_factory=dict)
    p_ci_me: dict = field(default_factory=dict)
    p_ci_opponent: dict = field(default_factory=dict)
    opponents: str = ADVICE_OPPONENTS  # the other two seats' policy
    budget: int = DECISION_BUDGET  # play-outs per decision of the asking seat's pimc play-on
    # the play-on policy that valued each action (the best of ``policy``'s on the deals)
    valued_by: tuple[str, str] = ("", "")
    by_policy: dict = field(default_factory=dict)  # policy -> action -> estimate
    details: pd.DataFrame = field(default_factory=pd.DataFrame, repr=False)

    def acceptance_ci95(self) -> tuple[float, float]:
        """Wilson 95% CI of the acceptance rate over the ``dealt`` deals."""
        e = proportion_ci(self.kept, self.dealt) if self.dealt else None
        return (e.low, e.high) if e else (float("nan"), float("nan"))

    @property
    def actions(self) -> tuple[str, str]:
        """The two actions compared: (掀, 扣) or, for the banker, (扣, lead)."""
        return ("xian", "kou") if self.question == "xian" else ("kou", "lead")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: each estimate as ``{"value", "low", "high", "n"}``; n counts deals
        (the acceptance rate's n: the deals dealt, kept or not)."""
        first, second = self.actions
        dist = self.details["points_a"].value_counts(normalize=True).sort_index()

        def est(value: float, ci: tuple[float, float]) -> dict[str, Any]:
            return Estimate(value, ci[0], ci[1], self.hands).as_dict()

        acceptance = (proportion_ci(self.kept, self.dealt).as_dict() if self.dealt else
                      Estimate(float("nan"), float("nan"), float("nan"), 0).as_dict())
        return {
            "game": "xianniu", "rules": self.rules, "seed": self.seed, "deals": self.hands,
            "policy": self.policy, "opponents": self.opponents,
            "seat_policies": [self.policy if s == self.seat else self.opponents
                              for s in range(3)],
            "valued_by": dict(zip((first, second), self.valued_by, strict=True)),
            # each search play-on of the asking seat: its play-outs per decision
            "budget": {name: self.budget for name in self.policy.split(",") if name in SEARCH},
            "by_policy": self.by_policy,
            "question": self.question, "hand": self.hand,
            "seat": self.seat, "actions": [first, second],
            "recommendation": self.recommendation,
            f"ev_{first}": est(self.ev_a, self.ci95_a), f"ev_{second}": est(self.ev_b, self.ci95_b),
            "diff": est(self.diff, self.ci95), "acceptance": acceptance, "dealt": self.dealt,
            "p_gou": self.p_gou, "p_ci_me": self.p_ci_me, "p_ci_opponent": self.p_ci_opponent,
            "points_distribution": {str(int(k)): float(v) for k, v in dist.items()},
        }


def continuation_names(policy: str) -> list[str]:
    """The play-on policies of ``policy``: one name, or ``A,B`` or ``A,B,C`` (each action
    valued by the best of them on the same deals); ValueError for an unknown or repeated
    name."""
    names = [n.strip().lower() for n in policy.split(",")]
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"policy names a play-on policy twice: {policy!r}")
    return names


def query_rows(question: str, hand: int, seat: int, position: np.ndarray | None,
               states: np.ndarray, per_chunk: int, rk: KernelRules, pol: tuple,
               pinned: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """One batch of kept deals, ``per_chunk`` a chunk, chunk ``c`` from ``states[c]``: rows
    of ``Q_*`` columns (the asking seat's points after each action, its cards captured and
    whether an opponent reached 刺 after the first, the three hands at the decision), and
    the deals dealt, kept or not. ``pinned[s]``: cards known to lie with seat ``s``."""
    if position is not None:
        view, options = views.view_rows(views.RECORDED, position), views.XIAN_KOU
    elif question == "xian":
        view, options = views.view_rows(views.ANSWER, hand=hand, pinned=pinned), views.XIAN_KOU
    else:
        view, options = views.view_rows(views.BANKER, hand=hand, pinned=pinned), views.KOU_LEAD
    n = states.shape[0] * per_chunk
    out = rk.result_rows(n, len(options))
    dealt, kept, tries = paired_playouts(rk, pol, view, seat, options, out, states, per_chunk)
    got = np.flatnonzero(kept)
    a, b = out[got, 0], out[got, 1]
    rows = np.empty((len(got), N_Q), dtype=np.int64)
    rows[:, Q_A] = a[:, R_PTS0 + seat]
    rows[:, Q_B] = b[:, R_PTS0 + seat]
    rows[:, Q_CAP_A] = a[:, R_CAP0 + seat]
    others = [s for s in range(3) if s != seat]
    rows[:, Q_OPP_CI_A] = (a[:, [R_CAP0 + s for s in others]] >= rk.params[P_CI]).any(axis=1)
    rows[:, Q_HAND0:Q_HAND0 + 3] = dealt[got, :3]
    return rows, int(tries.sum())


def _better(rows: list[np.ndarray], column: int) -> int:
    """The continuation whose mean of ``column`` is the highest (the first on a tie)."""
    return int(np.argmax([r[:, column].mean() for r in rows]))


def _run(question: str, hand_text: str | int, seat: int, rules: str | Rules | None,
         policy: str, precision: float, max_hands: int, seed: int,
         progress: Callable[[int], None] | None,
         position: np.ndarray | None = None,
         opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET) -> DecisionResult:
    hand = hand_text if isinstance(hand_text, int) else parse_hand(hand_text)
    if position is not None and not isinstance(hand_text, int):
        raise ValueError("a recorded position carries its own hand")
    plays_on = continuation_names(policy)
    if opponents not in POLICIES:
        raise ValueError(f"opponents must be one of {', '.join(POLICIES)}, got {opponents!r}")
    if not precision > 0:
        raise ValueError(f"precision must be positive, got {precision}")
    if max_hands < 100:
        raise ValueError(f"max-hands must be at least 100, got {max_hands}")
    r = get_rules(rules)
    pols = []
    for name in plays_on:
        names = [opponents] * 3
        names[seat] = name
        # the asking seat's pimc plays ``budget``; the other seats' keep their own
        seat_budget = [budget if s == seat else None for s in range(3)]
        pols.append(policy_arrays(names, rules=r, pimc_budget=seat_budget))
    rk = rule_arrays(r)
    rows, tries, (ka, kb) = _sample(question, hand, seat, position, rk, pols, seed, precision,
                                    max_hands, progress)
    kept = len(rows[ka])
    every = [x[:max_hands] for x in rows]
    a, b = every[ka][:, Q_A], every[kb][:, Q_B]
    d, ea, eb = mean_ci(a - b), mean_ci(a), mean_ci(b)
    first, second = ("xian", "kou") if question == "xian" else ("kou", "lead")
    rec = "close" if d.low <= 0 <= d.high else (first if d.value > 0 else second)
    chosen = every[ka]
    details = pd.DataFrame({"points_a": a, "points_b": b,
                            "captured_a": chosen[:, Q_CAP_A],
                            "opponent_ci_a": chosen[:, Q_OPP_CI_A],
                            **{f"hand_{s}": chosen[:, Q_HAND0 + s].astype(np.uint64)
                               for s in range(3)}})
    details.attrs.update(question=question, actions=(first, second), rules=r.name,
                         policy=policy, seed=seed, seat=seat)
    n = len(a)
    by_policy = {name: {first: mean_ci(e[:, Q_A]).as_dict(),
                        second: mean_ci(e[:, Q_B]).as_dict()}
                 for name, e in zip(plays_on, every, strict=True)}
    return DecisionResult(
        question, format_cards(hand), seat, r.name, policy, seed, rec, ea.value, eb.value,
        d.value, (d.low, d.high), n, kept / tries if tries else float("nan"),
        dealt=tries, kept=kept, ci95_a=(ea.low, ea.high), ci95_b=(eb.low, eb.high),
        p_gou=proportion_ci(int((details["captured_a"] >= r.gou_min).sum()), n).as_dict(),
        p_ci_me=proportion_ci(int((details["captured_a"] >= r.ci_min).sum()), n).as_dict(),
        p_ci_opponent=proportion_ci(int(details["opponent_ci_a"].sum()), n).as_dict(),
        opponents=opponents, budget=budget, valued_by=(plays_on[ka], plays_on[kb]),
        by_policy=by_policy,
        details=details)


def _sample(question: str, hand: int, seat: int, position: np.ndarray | None, rk: KernelRules,
            pols: list[tuple], seed: int, precision: float, max_hands: int,
            progress: Callable[[int], None] | None
            ) -> tuple[list[np.ndarray], int, tuple[int, int]]:
    """Kept deals under each play-on of ``pols`` until the difference's CI is narrow enough:
    ``(rows per play-on, deals dealt, (the play-on valuing the first action, the second's))``.

    The best play-on of each action is chosen on the first ``PILOT`` kept deals; the others
    then stop playing (their rows hold those deals only), so a slow play-on that values
    neither action costs one pilot, not the whole query.

    ``progress(n)`` after each batch of ``n`` kept deals; a ``progress`` with an ``expect``
    method is first told the kept deals the query is expected to stop at
    (:func:`expected_deals`, from the precision reached so far), so that its bar's length
    follows the stopping rule rather than ``max_hands``."""
    chunks = CHUNKS
    # a query capped below one full batch deals only what it can keep
    per_chunk = min(PER_CHUNK, -(-max_hands // chunks))
    # rows[k]: play-on k's kept deals. The deals, and which are kept, come from a stream the
    # asking seat's play-on never draws from, so row i is one deal for every k.
    rows: list[list[np.ndarray]] = [[] for _ in pols]
    active, pick = list(range(len(pols))), None if len(pols) > 1 else (0, 0)
    tries, batch, ka, kb = 0, 0, 0, 0
    while True:
        states = states_for_chunks(seed, batch * chunks, chunks)
        for k in active:
            got, dealt = query_rows(question, hand, seat, position, states, per_chunk, rk,
                                    pols[k])
            rows[k].append(got)
        _check_same_deals([rows[k][-1] for k in active])
        tries += dealt
        batch += 1
        n = sum(len(x) for x in rows[active[0]])
        done = False
        if n >= 2:
            if pick is None:
                pilot = [np.concatenate(x)[:PILOT] for x in rows]
                ka, kb = _better(pilot, Q_A), _better(pilot, Q_B)
                if n >= PILOT:
                    pick, active = (ka, kb), sorted({ka, kb})
            d = mean_ci(np.concatenate(rows[ka])[:, Q_A] - np.concatenate(rows[kb])[:, Q_B])
            half = (d.high - d.low) / 2
            done = half <= precision or n >= max_hands
            expect = getattr(progress, "expect", None)
            if expect is not None:
                expect(n if done else expected_deals(n, half, precision, max_hands))
        if progress is not None:
            progress(len(rows[active[0]][-1]))
        if done:
            break
        if n == 0 and tries > 50 * chunks * PER_CHUNK:
            raise ValueError("no deal fits this position: the other seats' policies never "
                             "reach it with this hand")
    return [np.concatenate(x) for x in rows], tries, (ka, kb)


def expected_deals(n: int, half: float, precision: float, max_hands: int) -> int:
    """The kept deals the query will stop at, estimated after ``n`` whose CI half-width is
    ``half``: a half-width falls as 1 / sqrt(n), so it reaches ``precision`` at about
    n (half / precision)², never beyond ``max_hands`` (a progress bar's length).

    >>> expected_deals(1024, 0.2, 0.1, 20_000), expected_deals(1024, 1.0, 0.1, 20_000)
    (4096, 20000)
    """
    if not half > 0:
        return n
    return int(min(max_hands, max(n, math.ceil(n * (half / precision) ** 2))))


def _check_same_deals(batch_rows: list[np.ndarray]) -> None:
    """Every continuation's batch holds the same kept deals (the pairing rests on it)."""
    first = batch_rows[0][:, Q_HAND0:Q_HAND0 + 3]
    for other in batch_rows[1:]:
        if not np.array_equal(first, other[:, Q_HAND0:Q_HAND0 + 3]):
            raise RuntimeError("the play-on policies were given different deals")


def should_xian(hand: str | int, seat: int = 1, rules: str | Rules | None = None,
                policy: str = DECISION_POLICY, precision: float = 0.1, max_hands: int = 200_000,
                seed: int = 0, progress: Callable[[int], None] | None = None,
                opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET
                ) -> DecisionResult:
    """After the banker's opening 扣 (and, for seat 2, seat 1's 扣): 掀 or 扣 with ``hand``?
    The asking seat plays on with ``policy`` (``A,B,…``: each action valued by the best of
    them on the same deals), the other two with ``opponents``; ``budget`` sets the asking
    seat's pimc play-outs per decision."""
    if seat not in (1, 2):
        raise ValueError(f"the answering seat is 1 or 2, got {seat}")
    return _run("xian", hand, seat, rules, policy, precision, max_hands, seed, progress,
                opponents=opponents, budget=budget)


def should_xian_record(record: Any, policy: str = DECISION_POLICY, precision: float = 0.1,
                       max_hands: int = 200_000, seed: int = 0,
                       progress: Callable[[int], None] | None = None,
                       opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET
                       ) -> DecisionResult:
    """A partial game record that stops where a seat answers a 扣: 掀 or 扣?

    The record's three dealt hands are needed to replay it, but only the answering seat's
    hand and the public record are used: the other hands are dealt anew for every sample,
    consistent with every public fact (cards played, card and discard counts, passes).
    """
    state = replay(record)
    if state.phase != "kou_ask":
        raise ValueError("the record must stop where a seat answers a 扣 (it stops at "
                         f"{'the end' if state.is_terminal() else state.phase})")
    seat = state.current_player()
    if state.said_kou[seat]:
        raise ValueError(f"seat {seat} has said 扣 in this hand and may no longer 掀")
    ws = ws_from_state(state)
    return _run("xian", state.hands[seat], seat, state.rules, policy, precision, max_hands,
                seed, progress, position=ws, opponents=opponents, budget=budget)


def should_kou(hand: str | int, rules: str | Rules | None = None, policy: str = DECISION_POLICY,
               precision: float = 0.1, max_hands: int = 200_000, seed: int = 0,
               progress: Callable[[int], None] | None = None,
               opponents: str = ADVICE_OPPONENTS, budget: int = DECISION_BUDGET
               ) -> DecisionResult:
    """The banker holds ``hand`` at its first decision: 扣 (risking a 掀) or lead?"""
    return _run("kou", hand, 0, rules, policy, precision, max_hands, seed, progress,
                opponents=opponents, budget=budget)


def _first_decision_record(hand: int, rules: Rules, seed: int) -> dict[str, Any] | None:
    """A record whose banker holds ``hand`` and is to lead or 扣 at once (the other hands
    dealt at random: advise deals them anew anyway); None when ``hand`` itself opens a 抢刺."""
    from .cards import N_CARDS
    from .engine import LEAD, new_hand
    from .records import record_of

    rest = [c for c in range(N_CARDS) if not hand >> c & 1]
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    for _ in range(200):
        order = rng.permutation(rest)
        others = [sum(1 << int(c) for c in order[:16]), sum(1 << int(c) for c in order[16:])]
        state = new_hand([hand, *others], rules)
        if state.phase == LEAD and state.current_player() == 0:
            return record_of(state)
    return None


def searched_first_decision(hand: str | int, rules: str | Rules | None = None,
                            policy: str = ADVICE_POLICY, precision: float = 0.1,
                            seed: int = 0, opponents: str = ADVICE_OPPONENTS
                            ) -> dict[str, Any] | None:
    """The banker's first decision searched: 扣 and every lead valued on paired play-outs
    (:func:`analyzer.xianniu.advise.advise`), so the lead is the best lead found, not only
    the policy's own. ``{"best", "best_lead", "kou", "deals", "separated"}`` (each
    ``{"action": record entry, "ev": estimate}``), or None when the hand opens a 抢刺."""
    from .advise import advise

    h = hand if isinstance(hand, int) else parse_hand(hand)
    record = _first_decision_record(h, get_rules(rules), seed)
    if record is None:
        return None
    adv = advise(record, precision=precision, policy=policy, seed=seed,
                 opponents=opponents).to_json()

    def est(a: dict[str, Any]) -> dict[str, Any]:
        return {"action": a["action"], "ev": Estimate(a["ev"], a["ci95"][0], a["ci95"][1],
                                                      a["n"]).as_dict()}

    leads = [a for a in adv["actions"] if a["action"]["action"] == "play"]
    kou = [a for a in adv["actions"] if a["action"]["action"] == "kou"]
    return {"best": est(adv["actions"][0]), "best_lead": est(leads[0]) if leads else None,
            "kou": est(kou[0]) if kou else None, "deals": adv["deals"],
            "separated": adv["separated"], "seed": adv["seed"]}
