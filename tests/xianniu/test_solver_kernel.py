"""The jit-compiled open-hand solver against the reference solver (itself held to brute force
in test_solver.py): the same values and the same best action on hundreds of small positions."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.xianniu.engine import DISCARD_PHASE, KOU, KOU_ASK, LEAD, TRICK, Action, new_hand
from analyzer.xianniu.kernel_state import ws_from_state
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import logged_hands, rule_arrays
from analyzer.xianniu.solver import copy_state, late_position, solve, solve_kernel
from kernels.xianniu import game as kg
from kernels.xianniu import solver as ks

PRESETS = ("lanzhou", "kanniutui")


def random_positions(rules, n, max_cards, root):
    """Positions from random play (紧牌 whenever it may be called, 扣 now and then)."""
    seeds = np.random.SeedSequence(root, spawn_key=(max_cards,)).spawn(n)
    return [late_position(s, rules, max_cards, p_kou=0.15) for s in seeds]


def policy_positions(rules, policy, n, max_cards, seed, hands=300):
    """The first position with at most ``max_cards`` cards in hand of kernel hands played by
    ``policy`` at every seat (hands that end earlier, by 扣 or a full table, give none: most
    under lanzhou), rebuilt in the engine; at most ``n``."""
    out = []
    for lh in logged_hands(hands, rules, policy, seed=seed):
        st = new_hand(list(lh.hands), rules, 0)
        for _, a in lh.actions:
            if sum(bin(h).count("1") for h in st.hands) <= max_cards:
                break
            st.apply(a)
        if not st.is_terminal() and sum(bin(h).count("1") for h in st.hands) <= max_cards:
            out.append(st)
        if len(out) == n:
            break
    return out


def asked_kou(positions, n):
    """Up to ``n`` positions just after the lead holder of one of ``positions`` said 扣."""
    out = []
    for st in positions:
        if len(out) < n and Action(KOU) in st.legal_actions():
            child = copy_state(st)
            child.apply(Action(KOU))
            out.append(child)
    return out


def _same(st):
    a, b = solve(st), solve_kernel(st, 12)
    return (a.values, a.action) == (b.values, b.action)


@pytest.mark.parametrize("rules", PRESETS)
def test_kernel_solver_equals_reference_solver(rules):
    played = (policy_positions(rules, "heuristic", 30, 8, 23)
              + policy_positions(rules, "heuristic2", 30, 8, 24))
    positions = (random_positions(rules, 140, 6, 21) + random_positions(rules, 40, 8, 22)
                 + played)
    positions += asked_kou(positions, 20)
    phases = set()
    for st in positions:
        assert _same(st), st
        phases.add(st.phase)
    assert len(positions) >= 185 and len(played) >= 3
    assert {LEAD, TRICK, KOU_ASK, DISCARD_PHASE} <= phases  # every phase met


@pytest.mark.parametrize("rules", PRESETS)
def test_a_small_table_only_costs_time(rules):
    """Four rows per probe and constant eviction: still the same values and action."""
    for st in random_positions(rules, 8, 9, 25):
        a, b = solve_kernel(st, 2), solve_kernel(st, 18)
        assert (a.values, a.action) == (b.values, b.action)


# -- the checks have teeth ----------------------------------------------------------------------

def test_a_corrupted_table_is_caught():
    """Values read back from the table decide the answer: shift every stored value and the
    comparison with the reference solver fails."""
    caught = 0
    for st in random_positions("lanzhou", 30, 8, 26):
        ws = ws_from_state(st)
        rk = rule_arrays(get_rules("lanzhou"))
        tt = ks.new_table(16)
        stack = ks.new_stack(ks.stack_depth(ws))
        ks.solve_ws(ws, rk, tt, 1, stack, 1 << 40)
        used = tt[:, ks.KEY_WORDS] != 0
        tt[used, ks.KEY_WORDS] += 1  # seat 0 gains a point in every stored position
        tt[used, ks.KEY_WORDS] -= 1 << 16  # and seat 1 loses it: still zero-sum
        ks.solve_ws(ws, rk, tt, 1, stack, 1 << 40)
        caught += tuple(int(v) for v in stack[3][0]) != solve(st).values
    assert caught >= 20


def test_the_other_tie_rule_is_caught():
    """The comparison tells tie rules apart: a solver taking the last best action differs."""
    from test_solver import LastTie

    differ = 0
    for rules in PRESETS:
        for st in random_positions(rules, 40, 6, 27):
            sol = solve_kernel(st, 12)
            wrong = LastTie().solve(st)
            differ += (wrong.values, wrong.action) != (sol.values, sol.action)
    assert differ > 0


def _key(ws):
    key = np.empty(ks.KEY_WORDS, dtype=np.int64)
    ks.position_key(ws, key)
    return tuple(key)


def test_the_key_holds_what_decides_the_rest():
    """Changing one thing that the rest of the hand or its settlement reads changes the key;
    the pass log and the public record do not."""
    st = random_positions("lanzhou", 1, 10, 28)[0]
    base = ws_from_state(st)
    k0 = _key(base)
    for word in ([kg.WS_CAP + s for s in range(3)] + [kg.WS_NIU + s for s in range(3)]
                 + [kg.WS_XI + s for s in range(3)] + [kg.WS_LIANG + s for s in range(3)]
                 + [kg.WS_KKK + s for s in range(3)] + [kg.WS_K108 + s for s in range(3)]
                 + [kg.WS_SAID_KOU + s for s in range(3)] + [kg.S_LEAD]):
        ws = base.copy()
        ws[word] ^= 1
        assert _key(ws) != k0, word
    for x, t in ((0, 1), (1, 0), (2, 0), (0, 2)):  # a 掀 event, and who 掀ed last
        ws = base.copy()
        ws[kg.WS_XIAN_X + ws[kg.S_N_XIAN]] = x
        ws[kg.WS_XIAN_T + ws[kg.S_N_XIAN]] = t
        ws[kg.S_N_XIAN] += 1
        assert _key(ws) != k0
        twice = ws.copy()
        twice[kg.WS_XIAN_X + twice[kg.S_N_XIAN]] = x
        twice[kg.WS_XIAN_T + twice[kg.S_N_XIAN]] = t
        twice[kg.S_N_XIAN] += 1
        assert _key(twice) != _key(ws)
    trick = base.copy()
    trick[kg.S_PHASE] = kg.PH_TRICK
    trick[kg.S_QLEN], trick[kg.S_QI] = 2, 0
    kt = _key(trick)
    for word in (kg.S_TOP_KIND, kg.S_TOP_SIZE, kg.S_TOP_RANK, kg.S_TOP_K, kg.S_TOP_OWNER,
                 kg.S_QI):
        ws = trick.copy()
        ws[word] ^= 1
        assert _key(ws) != kt, word
    disc = base.copy()
    disc[kg.S_PHASE] = kg.PH_DISCARD
    for word in (kg.S_LIMIT, kg.S_MUST_LEAD, kg.S_TIGHTENED):
        ws = disc.copy()
        ws[word] ^= 1
        assert _key(ws) != _key(disc), word
    for word in (kg.WS_PUBLIC, kg.S_N_PASS, kg.S_N_ACT, kg.WS_PASS):
        ws = base.copy()
        ws[word] ^= 1
        assert _key(ws) == k0, word


def test_the_search_gives_up_past_its_limit():
    from analyzer.xianniu.solver import SearchLimit

    st = random_positions("lanzhou", 1, 10, 30)[0]
    n = solve_kernel(st, 14).positions
    assert solve_kernel(st, 14, max_positions=n).positions == n
    with pytest.raises(SearchLimit):
        solve_kernel(st, 14, max_positions=n // 2)


def test_the_root_action_is_one_of_its_legal_actions():
    for st in random_positions("kanniutui", 10, 9, 29):
        assert solve_kernel(st, 14).action in st.legal_actions()
