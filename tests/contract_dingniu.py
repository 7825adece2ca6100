"""顶牛's part of the contract suite (tests/core/test_game_contract.py): its sizes, and the
invariants of random play that are its own (docs/rules/dingniu.md)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from contract_hooks import Hooks

from analyzer.dingniu.engine import NORMAL, SUAN, State
from analyzer.dingniu.rules import N_KINDS, N_SEATS
from analyzer.dingniu.tiles import KOU, LEAD

DATA = Path(__file__).resolve().parent / "dingniu" / "data"
# The points of a hand, largest first: a normal end (+6 −1 −2 −3), a 算帐 that succeeds
# (doubled) and one that fails (包庄: the maker pays 12 to one seat).
ALLOWED = {(6, -1, -2, -3), (12, -2, -4, -6), (12, 0, 0, -12)}


def on_step(st: State, seen: Counter) -> None:
    """After every action: every tile is in a hand, on the table or 扣ed; the seat to act
    holds a tile; it 扣s only when no tile it holds matches an open end (不能扣活牌)."""
    r = st.rules
    seat, a = st.history[-1]
    slot = a % 8
    seen["lead" if slot == LEAD else "kou" if slot == KOU else "play"] += 1
    if slot == LEAD and sum(st.laid) == 2:
        seen["pair led (R4)"] += 1
    for k in range(N_KINDS):
        held = sum(h[k] for h in st.hands) + st.laid[k] + sum(c[k] for c in st.kou)
        assert held == r.counts[k], f"{r.tiles[k].name}: {held} tiles, the set has {r.counts[k]}"
    if st.is_terminal():
        return
    me = st.current_player()
    assert sum(st.hands[me]) > 0, f"seat {me} is to act with no tile"
    legal = st.legal_actions()
    slots = {b % 8 for b in legal}
    if KOU in slots:
        assert slots == {KOU}, f"扣 offered beside a play: {legal}"
        assert st.ends is not None
        assert not any(r.match[k, v] for k in range(N_KINDS) if st.hands[me][k]
                       for v in st.ends), f"seat {me} may 扣 though it holds a live tile"


def on_end(st: State, seen: Counter) -> None:
    """At the end: the points are one of the three patterns; a normal end has every tile out
    and a winner on +6; a 算帐 names its seat, which wins or pays 12."""
    pts = st.returns()
    assert tuple(sorted(pts, reverse=True)) in ALLOWED, pts
    if st.end_reason == NORMAL:
        seen["end normal"] += 1
        assert all(sum(h) == 0 for h in st.hands)
        assert sum(st.laid) + sum(map(sum, st.kou)) == sum(st.rules.counts)
        assert max(pts) == 6
    else:
        assert st.end_reason == SUAN and 0 <= st.suan_seat < N_SEATS
        assert abs(pts[st.suan_seat]) == 12
        seen["end 算帐 won" if pts[st.suan_seat] > 0 else "end 算帐 failed (包庄)"] += 1


HOOKS = Hooks(
    root=20261202,
    hands={"seed": 300, "navpil": 200},
    record_hands=40,
    must_see=("lead", "play", "kou", "end normal", "end 算帐 won", "end 算帐 failed (包庄)"),
    golden_seeds=(0,),
    crosscheck={p: [("random", 300), ("heuristic,random,tuned,heuristic", 300)]
                for p in ("seed", "navpil")},
    legacy_records=(DATA / "dingniu-v1-normal.json", DATA / "dingniu-v1-suan.json"),
    view_every=1,
    on_step=on_step,
    on_end=on_end,
    notes={"pair led (R4)": "counted, not required: seat 0 holds both 红八 in 5% of deals"},
)
