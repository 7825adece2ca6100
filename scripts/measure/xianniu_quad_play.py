"""How a policy plays a dealt 9999 or 5555: as one 亮子, as 999 / 555 and a single, or as two
牛 / 喜, and what the holder scores.

Deals come from ``--seed``; the hands in which some seat was dealt all four 9s (or 5s) are
kept, and every play of the holder that holds 9s (5s) is classified. Each line gives n
(hands) and proportions with 95% CIs; the holder's mean points with a 95% CI.

Usage: python scripts/measure/xianniu_quad_play.py [--hands N] [--rules lanzhou]
           [--policies heuristic]
"""

from __future__ import annotations

import argparse
from collections import Counter

from analyzer.core.stats import format_estimate, mean_ci, proportion_ci
from analyzer.xianniu.cards import FIVE, NINE, count, rank_mask
from analyzer.xianniu.combos import try_classify
from analyzer.xianniu.engine import DISCARD, PLAY, XIAN, new_hand
from analyzer.xianniu.rules import get_rules
from analyzer.xianniu.sim import logged_hands


def shape(lh, seat: int, rank: int, rules) -> tuple[str, int, bool]:
    """(how the seat played, discarded or kept its four cards of ``rank``, its points,
    whether it 掀ed)."""
    quad = rank_mask(rank)
    parts = []
    xian = False
    st = new_hand(list(lh.hands), rules)
    for s, a in lh.actions:
        if s == seat and a.kind == PLAY and a.cards & quad:
            p = try_classify(a.cards, rules)
            parts.append(f"{p.kind}{count(a.cards & quad)}")
        if s == seat and a.kind == DISCARD and a.cards & quad:
            parts.append("discard1")
        xian |= s == seat and a.kind == XIAN
        st.apply(a)
    left = count(st.hands[seat] & quad)
    if left:
        parts.append(f"kept{left}")
    return " + ".join(sorted(parts)), st.returns()[seat], xian


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--rules", default="lanzhou")
    ap.add_argument("--policies", default="heuristic")
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args()
    rules = get_rules(args.rules)
    hands = logged_hands(args.hands, rules, args.policies, args.seed)
    for name, rank in (("9999", NINE), ("5555", FIVE)):
        shapes, points, xians = Counter(), [], 0
        for lh in hands:
            holder = [s for s in range(3) if lh.hands[s] & rank_mask(rank) == rank_mask(rank)]
            if not holder:
                continue
            sh, pts, x = shape(lh, holder[0], rank, rules)
            shapes[sh] += 1
            points.append(pts)
            xians += x
        n = len(points)
        print(f"{name} holders under {args.policies}, {rules.name}, seed {args.seed}: "
              f"n = {n} of {args.hands} hands; holder's points "
              f"{format_estimate(mean_ci(points))}; 掀ed at least once "
              f"{format_estimate(proportion_ci(xians, n), percent=True)}")
        for sh, c in shapes.most_common(8):
            print(f"  {sh:<40} {format_estimate(proportion_ci(c, n), percent=True)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
