"""双升 statistics (analyzer.shengji.analysis, kernels.shengji.stats, ``xianniu shengji
stats``): the swaps change exactly what they claim, a rule that cannot act changes nothing,
抠底's level cost is never negative, the numbers do not depend on the thread count, and bad
input exits 2 with one line."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from analyzer.shengji import analysis as an
from analyzer.shengji.rules import get_rules
from analyzer.shengji.sim import rule_arrays
from kernels.rng import states_from_seed
from kernels.shengji import batch as kb
from kernels.shengji import game as kw
from kernels.shengji import stats as ks
from kernels.shengji.context import CX_SUIT_MASK, TRUMP, new_context
from kernels.shengji.deal import deal
from kernels.shengji.planes import BIG_JOKER, SMALL_JOKER, count
from kernels.shengji.policies import seat_policies
from tests.cli_checks import bad, ok


def _faces(one: int, two: int) -> np.ndarray:
    """Copies held of each of the 54 faces."""
    return np.array([((one >> f) & 1) + ((two >> f) & 1) for f in range(54)])


def _mask_count(one: int, two: int, mask: int) -> int:
    return count(one & mask, two & mask)


@pytest.mark.parametrize("trump,level", [(0, 2), (1, 5), (4, 14)])
def test_each_swap_moves_one_card_each_way_and_makes_or_breaks_its_pattern(trump, level):
    ctx = new_context(trump, level, False)
    tmask = int(ctx[CX_SUIT_MASK + TRUMP])
    levels = sum(1 << (13 * s + level - 2) for s in range(4))
    suit = 0 if trump == 4 else ((0x1FFF << (13 * trump)) & ~levels)
    rng = states_from_seed(7, 1)[0].copy()
    deck = np.empty(108, dtype=np.uint8)
    hands = np.empty((5, 2), dtype=np.int64)
    alt = np.empty((5, 2), dtype=np.int64)
    done = dict.fromkeys((-1, 1), 0)
    for _ in range(400):
        deal(rng, deck, hands)
        for p in range(ks.N_PATTERNS):
            seat = int(rng[0] % 4)
            sign = ks.swap_pattern(hands, alt, seat, p, trump, level, tmask, rng)
            before = [_faces(*hands[s]) for s in range(5)]
            after = [_faces(*alt[s]) for s in range(5)]
            assert np.array_equal(sum(before), sum(after))  # no card made or lost
            moved = [s for s in range(5) if not np.array_equal(before[s], after[s])]
            if sign == 0:
                assert moved == []
                continue
            done[sign] += 1
            assert seat in moved and len(moved) == 2 and 4 not in moved
            d = after[seat] - before[seat]
            assert sorted(d[d != 0].tolist()) == [-1, 1]  # one card out, one in
            gone, came = int(np.flatnonzero(d < 0)[0]), int(np.flatnonzero(d > 0)[0])
            if p in (ks.PAT_BIG_PAIR, ks.PAT_SMALL_PAIR):
                j = BIG_JOKER if p == ks.PAT_BIG_PAIR else SMALL_JOKER
                assert after[seat][j] == (2 if sign > 0 else 1)
                assert before[seat][j] == (1 if sign > 0 else 2)
                plain = came if sign < 0 else gone
                assert not (tmask >> plain) & 1
            else:
                assert sign == 1 and not (tmask >> gone) & 1
                want = levels if p == ks.PAT_LEVEL else suit
                assert (want >> came) & 1
                assert _mask_count(*alt[seat], want) == _mask_count(*hands[seat], want) + 1
    assert done[1] > 100 and done[-1] > 0
    # under NT no trump-suit card exists: the trump pattern never swaps
    if trump == 4:
        assert ks.swap_pattern(hands, alt, 0, ks.PAT_TRUMP, 4, level, tmask, rng) == 0


def test_the_same_deal_and_stream_play_the_same_hand():
    """What makes a counterfactual with no swap worth exactly 0: the hand as dealt, played
    again from the same stream, is the same hand."""
    params = rule_arrays("zhengzhou")
    pol, hp = seat_policies(np.ones(4, dtype=np.int64))
    rows = []
    for _ in range(2):
        states = states_from_seed(5, 1)
        deals = np.empty((30, 2, 5, 2), dtype=np.int64)
        out = np.empty((30, kw.N_WHOLE), dtype=np.int64)
        kb.whole_dealt_chunks(states, 30, 30, (np.array([2, 2]), 0), params, deals, out,
                              (pol, hp))
        rows.append(out)
    assert np.array_equal(rows[0], rows[1])
    lv, pt = ks.team_swing(rows[0][0], 1)
    assert (lv, pt) == ks.team_swing(rows[1][0], 1)


def test_a_rule_that_cannot_act_changes_nothing():
    never = get_rules().with_(rebel_threshold=0)  # nobody holds fewer than 0 points
    d = an.rule_effect(300, never, seed=4, switches=("rebel",))["switches"][0]
    assert d["p_acted"]["value"] == 0 and d["p_changed"]["value"] == 0
    assert d["diff"]["attacker_points"]["value"] == 0 and d["diff"]["banker_swing"]["high"] == 0


@pytest.mark.parametrize("switch,acted", [("bajiwo", lambda r: r[:, kw.W_BAJIWO] > 0),
                                          ("rebel", lambda r: r[:, kw.W_REBEL] >= 0)])
def test_rule_off_changes_only_the_hands_where_it_acted(switch, acted):
    r = get_rules()
    field = an.SWITCHES[switch]
    rows = an.paired_rows(1500, [(r.with_(**{field: v}), an.LEVELS) for v in (True, False)],
                          seed=6)
    on, off = rows[:, 0], rows[:, 1]
    mask = acted(on)
    assert mask.any()  # the check has teeth: the rule did act somewhere
    assert np.array_equal(on[~mask], off[~mask])
    assert np.any(on[mask] != off[mask])


def test_kou_di_never_helps_the_banker_side_and_its_points_add_up():
    r = get_rules()
    rows = an.whole_rows(1000, r, seed=8)
    sw = np.empty((len(rows), 4), dtype=np.int64)
    ks.kou_di_swing(rows, rule_arrays(r), sw)
    assert np.all(sw[:, 1] >= sw[:, 0]) and np.all(sw[:, 3] >= sw[:, 2])
    assert np.array_equal(sw[:, 0], an.banker_swing(rows))
    assert np.array_equal(sw[:, 2], rows[:, kw.W_BANKER_HOLDS])
    d = an.kou_di(rows, r)
    shares = sum(b["p"]["value"] for b in d["by_multiplier"])
    assert shares == pytest.approx(d["p_kou_di"]["value"])
    assert d["p_kou_di"]["n"] == 1000 and 0 < d["p_kou_di"]["value"] < 1


def test_outcomes_carry_n_and_cis_and_add_up():
    d = an.outcomes(400, "classic", seed=2)
    assert d["rules"] == "classic" and d["deals"] == 400
    dist = d["attacker_points_distribution"]
    assert sum(e["value"] for e in dist) == pytest.approx(1)
    assert sum(e["value"] for e in d["level_change"]) == pytest.approx(1)
    assert all(e["n"] == 400 and e["low"] <= e["value"] <= e["high"]
               for e in dist + d["level_change"])
    side = d["banker_side"]
    assert side["suit"]["p_banker_holds"]["n"] + side["nt"]["p_banker_holds"]["n"] == 400
    # classic caps the attackers' gain at 3 levels
    assert min(e["code"] for e in d["level_change"]) >= -3


def test_same_numbers_on_any_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = an.values(120, seed=3), an.outcomes(300, seed=3)
    finally:
        numba.set_num_threads(before)
    assert (an.values(120, seed=3), an.outcomes(300, seed=3)) == one
    assert an.values(120, seed=4) != one[0]


def test_pimc2_plays_the_outcomes_on_a_few_hands_the_same_on_any_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = an.whole_rows(12, "zhengzhou", "pimc2", seed=5)
    finally:
        numba.set_num_threads(before)
    two = an.whole_rows(12, "zhengzhou", "pimc2", seed=5)
    assert np.array_equal(one, two)
    assert not np.array_equal(two, an.whole_rows(12, "zhengzhou", "net", seed=5))
    ticks: list[int] = []
    d = an.outcomes(12, "zhengzhou", "pimc2", seed=5, progress=ticks.append)
    assert d["policy"] == "pimc2" and d["p_kou_di"]["n"] == 12 and sum(ticks) == 12
    with pytest.raises(ValueError, match=f"at most {an.SLOW_MAX:,} hands"):
        an.outcomes(an.SLOW_MAX + 1, "zhengzhou", "pimc2")
    with pytest.raises(ValueError, match="random, heuristic, tuned or net"):
        an.values(10, "zhengzhou", "pimc2")


def test_the_progress_batches_play_the_same_hands():
    n = 5 * an.CHUNK + 7  # six streams: two batches on one thread
    before = numba.get_num_threads()
    ticks: list[int] = []
    try:
        numba.set_num_threads(1)
        batched = an.whole_rows(n, "classic", "heuristic", seed=8, progress=ticks.append)
    finally:
        numba.set_num_threads(before)
    assert ticks == [4 * an.CHUNK, an.CHUNK + 7]
    assert np.array_equal(batched, an.whole_rows(n, "classic", "heuristic", seed=8))


def test_values_rows_have_every_pattern_and_role():
    d = an.values(150, seed=1)
    assert {(r["pattern"], r["role"]) for r in d["rows"]} == {
        (p, role) for p in an.PATTERNS for role in ("all", "banker_team", "defenders")}
    for p in an.PATTERNS:
        rows = {r["role"]: r for r in d["rows"] if r["pattern"] == p}
        assert rows["all"]["pairs"] == rows["banker_team"]["pairs"] + rows["defenders"]["pairs"]
    big = next(r for r in d["rows"] if r["pattern"] == "big_joker_pair" and r["role"] == "all")
    assert big["pairs"] > 0 and 0 < big["share_made"] < 1


def test_cli_json_and_text(capsys):
    d = json.loads(ok(capsys, "shengji", "stats", "banker", "--deals", "100", "--levels",
                      "2,A", "--seed", "1", "--json"))
    assert [b["level"] for b in d["by_level"]] == [2, 14]
    text = ok(capsys, "shengji", "stats", "rule-effect", "--deals", "100", "--switch",
              "bajiwo", "--rules", "classic")
    assert "bajiwo_enabled (preset: False)" in text and "(n=100)" in text
    text = ok(capsys, "shengji", "stats", "outcomes", "--hands", "100", "--policy", "random")
    assert "P(抠底" in text and "n=100" in text
    d = json.loads(ok(capsys, "shengji", "stats", "outcomes", "--hands", "8", "--policy",
                      "pimc2", "--seed", "5", "--quiet", "--json"))
    assert d["p_kou_di"] == an.outcomes(8, None, "pimc2", 5)["p_kou_di"]


@pytest.mark.parametrize("args", [
    ("values", "--deals", "1"),
    ("outcomes", "--policy", "pimc"),
    ("outcomes", "--policy", "pimc2", "--hands", "2001"),
    ("values", "--policy", "pimc2", "--deals", "10"),
    ("outcomes", "--policy", "nope"),
    ("banker", "--levels", "1"),
    ("banker", "--levels", "Z"),
    ("rule-effect", "--switch", "kitty"),
    ("values", "--rules", "lanzhou"),
    ("outcomes", "--seed", "-1"),
    ("nothing",),
])
def test_bad_input_exits_2_with_one_line(capsys, args):
    bad(capsys, "shengji", "stats", *args)
