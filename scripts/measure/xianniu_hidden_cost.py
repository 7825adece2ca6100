"""The cost of hidden information in 掀牛: how many points each policy's choice loses against
the best action with all three hands open (max-n, the jit-compiled solver), at late decisions.

Hands are dealt from ``--seed`` (one SeedSequence child per preset) and played by heuristic2 at
every seat. A hand gives at most one decision point: one taken at random among its decisions
with two or more legal actions (latest first, stopping at the first) whose every action the
solver settles within ``--max-positions`` searched positions. At that point each legal
action's open-hand value for the seat to act is solved; each policy then chooses from the
seat's own view (pimc policies from one stream per point), and its loss is the best value less
the value of its choice. Prints, per preset and policy, the mean loss with its 95% CI, the
share of best choices with its 95% CI, n points, and the cards left at the points.

``--endgame E`` adds pimc2 with exact play-outs at E cards left (``PIMC_ENDGAME``).

Usage: python scripts/measure/xianniu_hidden_cost.py [--rules lanzhou,kanniutui] [--points 500]
       [--policies heuristic,heuristic2,pimc,pimc2] [--endgame E] [--max-positions 20000]
       [--seed 1] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from analyzer.core.fileio import write_atomic
from analyzer.core.stats import mean_ci, proportion_ci
from analyzer.xianniu.rules import PRESETS, get_rules
from analyzer.xianniu.sim import POLICIES, policy_arrays, rule_arrays
from kernels.rng import states_from_seed
from kernels.xianniu import game as kg
from kernels.xianniu import solver as ks
from kernels.xianniu.batch import deal_many
from kernels.xianniu.pimc import pimc_pick, seat_to_act
from kernels.xianniu.policies import PIMC_ENDGAME, POLICY_PIMC

STOP = np.full(3, POLICY_PIMC, dtype=np.int64)  # advance stops at every choice


def _logbuf():
    return (np.empty((kg.MAX_LOG, 3), dtype=np.int64), np.empty((1, 2), dtype=np.int64),
            np.empty(1, dtype=np.int64))


def policy_row(name):
    """(id, parameter row) of a policy name, or of ``pimc2 endgame E``."""
    if name.startswith("pimc2 endgame "):
        ids, params = policy_arrays("pimc2")
        params[:, PIMC_ENDGAME] = int(name.split()[-1])
        return ids, params
    return policy_arrays(name)


def policy_choice(rk, name, ws, am, ai, n, rng):
    """Index among ``am[:n]`` of ``name``'s choice at ``ws`` (its own view only)."""
    ids, params = policy_row(name)
    scratch = kg.new_scratch()
    scratch[2][:] = ws
    if ids[0] == POLICY_PIMC:
        scratch[0][:n] = am[:n]
        scratch[1][:n] = ai[:n]
        scratch[2][kg.S_N_LIST] = n
        return int(pimc_pick(rk, params[0], rng, scratch, kg.new_scratch()))
    log = _logbuf()  # the policy plays on; its first logged action is its choice
    first = int(ws[kg.S_N_ACT])
    kg.advance(rk, (np.full(3, ids[0]), np.repeat(params[:1], 3, 0)), rng, scratch, log,
               np.int64(1), np.int64(-1))
    typ, mask = log[0][first, 1], log[0][first, 2]
    return next(j for j in range(n) if ai[j, 0] == typ and am[j] == mask)


def open_values(rk, ws, am, ai, n, tt, max_positions):
    """Open-hand points of the seat to act after each of the ``n`` actions, or None when one
    needs more than ``max_positions`` searched positions."""
    seat = seat_to_act(ws)
    stack = ks.new_stack(ks.stack_depth(ws))
    res = np.empty(kg.N_RESULT, dtype=np.int64)
    out = []
    for j in range(n):
        child = ws[:ks.GAME_WORDS].copy()
        child[kg.S_TRACK] = 0
        ks.apply_listed(child, rk[0], am, ai, j)
        if child[kg.S_PHASE] == kg.PH_OVER:
            kg.finish_hand(rk[0], child, res)
            out.append(int(res[kg.R_PTS0 + seat]))
            continue
        if ks.solve_ws(child, rk, tt, 1, stack, max_positions) < 0:
            return None
        out.append(int(stack[3][0, seat]))
    return out


def hand_point(rk, deal, banker, play_rng, pick_gen, tt, max_positions):
    """One decision point of a heuristic2 hand (state, actions, open values) or None."""
    ids, params = policy_arrays("heuristic2")
    scratch = kg.new_scratch()
    ws = scratch[2]
    kg.start_hand(deal, np.int64(banker), rk[0], ws)
    ws[kg.S_TRACK] = 1
    seen = []
    status = kg.advance(rk, (STOP, params), play_rng, scratch, _logbuf(), np.int64(0),
                        np.int64(-1))
    while status != 0:
        n = int(ws[kg.S_N_LIST])
        seen.append((ws.copy(), scratch[0][:n].copy(), scratch[1][:n].copy(), n))
        pick = policy_choice(rk, "heuristic2", ws, scratch[0], scratch[1], n, play_rng)
        status = kg.advance(rk, (STOP, params), play_rng, scratch, _logbuf(), np.int64(0),
                            np.int64(pick))
    solvable = []
    for ws_i, am, ai, n in reversed(seen):
        vals = open_values(rk, ws_i, am, ai, n, tt, max_positions)
        if vals is None:
            break
        solvable.append((ws_i, am, ai, n, vals))
    if not solvable:
        return None
    return solvable[int(pick_gen.integers(len(solvable)))]


def preset_cost(rules, points, policies, max_positions, seed_seq):
    rk = rule_arrays(get_rules(rules))
    deal_seq, play_seq, pick_seq, pimc_seq = seed_seq.spawn(4)
    play_rng = states_from_seed(play_seq, 1)[0]
    deal_rng = states_from_seed(deal_seq, 1)[0]
    pick_gen = np.random.default_rng(pick_seq)
    streams = states_from_seed(pimc_seq, points)  # one per point
    tt = ks.new_table(20)
    loss = {p: [] for p in policies}
    left = []
    deal = np.empty((1, 3), dtype=np.int64)
    hands = 0
    while len(left) < points:
        deal_many(deal_rng, 1, deal)
        got = hand_point(rk, deal[0], hands % 3, play_rng, pick_gen, tt, max_positions)
        hands += 1
        if got is None:
            continue
        ws, am, ai, n, vals = got
        best = max(vals)
        for p in policies:
            j = policy_choice(rk, p, ws, am, ai, n, streams[len(left)].copy())
            loss[p].append(best - vals[j])
        left.append(int(ks.cards_left(ws)))
    return loss, left, hands


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="lanzhou,kanniutui")
    ap.add_argument("--points", type=int, default=500)
    ap.add_argument("--policies", default="heuristic,heuristic2,pimc,pimc2")
    ap.add_argument("--endgame", type=int, default=None,
                    help="add pimc2 with exact play-outs at this many cards left")
    ap.add_argument("--max-positions", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    policies = args.policies.split(",")
    for p in policies:
        if p not in POLICIES:
            print(f"unknown policy {p!r}", file=sys.stderr)
            return 2
    if args.endgame is not None:
        if args.endgame < 1:
            print(f"--endgame needs at least 1 card, got {args.endgame}", file=sys.stderr)
            return 2
        policies.append(f"pimc2 endgame {args.endgame}")
    out = {"command": "python scripts/measure/xianniu_hidden_cost.py " + " ".join(sys.argv[1:]),
           "presets": {}}
    for rules in args.rules.split(","):
        name = get_rules(rules).name
        # a preset's points do not depend on which others run
        seq = np.random.SeedSequence(args.seed, spawn_key=(list(PRESETS).index(name),))
        t0 = time.perf_counter()
        loss, left, hands = preset_cost(name, args.points, policies, args.max_positions, seq)
        rows = []
        print(f"\n{name}: {len(left)} points from {hands} hands, cards left median "
              f"{np.median(left):.0f} (range {min(left)}–{max(left)}), "
              f"{time.perf_counter() - t0:.0f} s; points below the open-hand best")
        print("| preset | policy | loss [95% CI] | best choice [95% CI] | n |")
        for p in policies:
            e = mean_ci(np.array(loss[p], dtype=float))
            hit = proportion_ci(sum(x == 0 for x in loss[p]), len(loss[p]))
            rows.append({"policy": p, "loss": e.value, "loss_low": e.low, "loss_high": e.high,
                         "p_best": hit.value, "p_best_low": hit.low, "p_best_high": hit.high,
                         "n": e.n})
            print(f"| {name} | {p} | {e.value:.3f} [{e.low:.3f}, {e.high:.3f}] | "
                  f"{hit.value:.1%} [{hit.low:.1%}, {hit.high:.1%}] | {e.n:,} |", flush=True)
        out["presets"][name] = {"rows": rows, "hands": hands, "cards_left": left}
    if args.out:
        write_atomic(args.out, json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
