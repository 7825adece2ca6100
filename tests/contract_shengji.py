"""What 双升 adds to the contract suite (tests/core/test_game_contract.py): the invariants a
random whole hand keeps at every step and at its end, and the sizes.

At every step: the 108 cards are all somewhere (hands, kitty, tricks); the cards a seat has
shown and not played since are in its hand; a seat shown void in an effective suit holds
none of it. At the end: the point cards of the tricks and the kitty make 200; every failed
throw led its forced unit and is public; the settlement follows from the tricks (抠底 and its
multiplier, §6.2), the level table (§7.1), the next banker (§7.2) and A (§7.3); returns are
the levels the winner team gains.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from contract_hooks import Hooks

from analyzer.shengji.cards import DECK, points
from analyzer.shengji.combos import decompose

DATA = Path(__file__).parent / "shengji" / "data"


def expected_levels(p: int, cap: int | None) -> tuple[str, int]:
    """§7.1's table, written out: (winner, levels)."""
    if p <= 0:
        return "banker", 3
    if p < 40:
        return "banker", 2
    if p < 80:
        return "banker", 1
    gain = (p - 80) // 40
    return "attackers", gain if cap is None else min(gain, cap)


def expected_multiplier(cards, ctx, rules) -> int:
    unit = max(decompose(cards, ctx), key=lambda u: (u.pairs, u.top))
    return {"pow2_pairs": 2 ** (1 + unit.pairs), "times_size": 2 * len(unit.cards),
            "pow_size": 2 ** len(unit.cards)}[rules.kitty_multiplier]


def on_step(st, seen: Counter) -> None:
    """The public facts never contradict the hidden hands, and no card is lost."""
    assert st.all_cards() == DECK
    for s in range(4):
        assert not st.known[s] - Counter(st.hands[s])
        assert not st.voids[s] or not any(st.ctx.esuit[f] in st.voids[s] for f in st.hands[s])
    seen[st.phase] += 1


def on_end(st, seen: Counter) -> None:
    """The settlement of a finished hand, recomputed from its tricks; what the hand saw."""
    rules, tricks = st.rules, st.tricks
    assert sum(t.points for t in tricks) + points(st.kitty) == 200
    for seat, attempt, led in st.failed_throws:
        trick = next(t for t in tricks if t.attempt == attempt and t.leader == seat)
        assert trick.plays[0] == led != attempt
        assert all(st.view(v).failed_throws.count((seat, attempt, led)) for v in range(4))
    r, s = st.result, st.result.settlement
    attackers = [t for t in tricks if t.winner % 2 != r.banker % 2]
    assert r.trick_points == sum(t.points for t in attackers)
    last = tricks[-1]
    m = 0
    if last.winner % 2 != r.banker % 2:
        basis = last.plays[(last.winner - last.leader) % 4]
        if rules.kitty_basis == "lead_shape":
            basis = last.plays[0]
        m = expected_multiplier(basis, st.ctx, rules)
    assert s.multiplier == m
    total = r.trick_points + r.penalties + points(st.kitty) * m
    assert s.attacker_points == total
    winner, gain = expected_levels(total, rules.attacker_gain_cap)
    assert (s.winner, r.gain) == (winner, gain)
    team = r.banker % 2 if winner == "banker" else 1 - r.banker % 2
    assert r.winner_team == team
    assert r.next_banker == (r.banker + (2 if winner == "banker" else 1)) % 4
    after = list(st.levels)
    after[team] = min(14, st.levels[team] + gain)
    assert r.levels_after == tuple(after)
    assert st.returns() == tuple(gain if x % 2 == team else 0 for x in range(4))
    seen["rebel"] += st.rebel is not None
    seen["stepdown"] += st.stepped_down is not None
    seen["random trump"] += st.random_trump_card is not None
    seen["grab"] += st.grab
    # 扒鸡窝 where the rules have it (classic has none: nothing to reach there)
    seen["bajiwo where played"] += len(st.kitty_log) > 1 or not rules.bajiwo_enabled
    seen["failed throw"] += bool(st.failed_throws)
    seen["kou di"] += s.multiplier > 0
    seen["attackers take the bank"] += winner == "attackers"
    seen["banker +3"] += winner == "banker" and gain == 3


HOOKS = Hooks(
    root=26_0003,
    hands={"zhengzhou": 60, "classic": 60},
    record_hands=8,
    must_see=("declare", "bury", "play", "stepdown", "random trump", "grab",
              "bajiwo where played", "failed throw", "kou di", "attackers take the bank"),
    golden_seeds=(1, 2),
    crosscheck={"zhengzhou": [("random", 60), ("heuristic", 30)],
                "classic": [("random", 60), ("heuristic", 30)]},
    legacy_records=(DATA / "v1" / "shengji_zhengzhou_seed390.json",),
    view_every=4,
    on_step=on_step,
    on_end=on_end,
    notes={"rebel": "造反 is rare at rebel_threshold 15 (some defender qualifies in about 2 % "
                    "of deals): tests/shengji/test_shengji_engine.py reaches it under a "
                    "variant with threshold 45"},
)
