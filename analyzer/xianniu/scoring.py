"""Settling a finished hand: who is 够, who has 刺, and who pays whom.

Points are counted on the plays each seat captured (占牌), as they were played. Every
payment moves points from one seat to another, so the three results sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import KING, N_SEATS, rank_counts
from .combos import BAI, EIGHT_PAIRS, NIU, SET, XI, XI_BAO_LIANG, Play
from .rules import Rules

REASONS = ("牛", "喜", "亮", "刺", "掀", "包刺")
REASONS_EN = {"牛": "niu", "喜": "xi", "亮": "liang", "刺": "ci", "掀": "xian", "包刺": "bao_ci"}


@dataclass(frozen=True)
class Tally:
    """What one seat's captured plays are worth before anyone pays."""

    captured: int  # n: cards captured
    gou: bool  # 够: n >= 6
    ci: bool  # 刺: n >= 11
    niu: int  # nines in captured 牛 plays
    xi: int  # fives in captured 喜 plays (and in 喜包亮)
    liang: int  # 2 per captured four of a kind (亮)
    ci_points: int  # n - 7 when 刺, else 0


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``amount`` points to ``payee`` for ``reason`` (牛 喜 亮 刺 掀 包刺)."""

    payer: int
    payee: int
    amount: int
    reason: str


@dataclass(frozen=True)
class Settlement:
    """The result of a hand: points per seat (sum zero), the payments and the tallies."""

    points: tuple[int, ...]
    payments: tuple[Payment, ...]
    tallies: tuple[Tally, ...]


def tally(plays: Sequence[Play], rules: Rules) -> Tally:
    """Count one seat's captured plays."""
    n = sum(p.size for p in plays)
    niu = sum(p.size for p in plays if p.kind == NIU)
    xi = sum(p.size for p in plays if p.kind == XI)
    xi += sum(p.size - 4 for p in plays if p.kind == XI_BAO_LIANG)
    liang = 0
    for p in plays:
        if p.is_liang:
            liang += rules.liang_points
        elif p.kind == EIGHT_PAIRS:
            liang += rules.liang_points * sum(1 for c in rank_counts(p.mask) if c == 4)
    if rules.kkk_k108_liang:
        kkk = any(p.kind == SET and p.rank == KING and p.size == 3 for p in plays)
        k108 = any(p.kind == BAI and p.k == 1 for p in plays)
        if kkk and k108:
            liang += rules.liang_points
    gou = n >= rules.gou_min
    ci = n >= rules.ci_min
    return Tally(n, gou, ci, niu, xi, liang, n - rules.ci_offset if ci else 0)


def settle(captured: Sequence[Sequence[Play]], xian_events: Sequence[tuple[int, int]],
           rules: Rules) -> Settlement:
    """Settle a hand from each seat's captured plays and the 掀 events (x 掀ed t), in order."""
    if len(captured) != N_SEATS:
        raise ValueError(f"captured must list {N_SEATS} seats, got {len(captured)}")
    seen = 0
    for plays in captured:
        for play in plays:
            if seen & play.mask:
                raise ValueError(f"{play} overlaps another captured play")
            seen |= play.mask
    if bin(seen).count("1") > rules.table_cap:
        raise ValueError(f"{bin(seen).count('1')} cards captured; the table holds at most "
                         f"{rules.table_cap}")
    for x, t in xian_events:
        if x not in range(N_SEATS) or t not in range(N_SEATS) or x == t:
            raise ValueError(f"bad 掀 event [{x}, {t}]: seats are 0, 1, 2 and differ")
    tallies = [tally(plays, rules) for plays in captured]
    payments: list[Payment] = []

    def pay(payer: int, payee: int, parts: Sequence[tuple[str, int]]) -> None:
        for reason, amount in parts:
            if amount:
                payments.append(Payment(payer, payee, amount, reason))

    last_xianer = {}
    for x, t in xian_events:
        last_xianer[t] = x
    # 包刺: a 刺 winner who was 掀ed is paid extra by the last seat that 掀ed it.
    bao = {w: last_xianer[w] for w in range(N_SEATS) if tallies[w].ci and w in last_xianer}

    for w in range(N_SEATS):
        tw = tallies[w]
        if not tw.gou:
            continue
        if tw.ci and rules.ci_unit_drops_liang:
            unit = [("刺", tw.ci_points), ("牛", tw.niu), ("喜", tw.xi)]
        else:
            unit = [("牛", tw.niu), ("喜", tw.xi), ("亮", tw.liang)]
            if tw.ci:
                unit.append(("刺", tw.ci_points))
        total = sum(a for _, a in unit)
        losers = [p for p in range(N_SEATS) if not tallies[p].gou]
        for p in losers:
            if w not in bao:
                pay(p, w, unit)
            elif rules.bao_ci_doubles:
                if p == bao[w]:
                    pay(p, w, unit + [("包刺", total)])
                else:
                    pay(p, w, [part for part in unit if part[0] != "刺"])
            elif p == bao[w]:
                pay(p, w, unit)
                pay(p, w, [("包刺", total)] * (len(losers) - 1))
            # else: the last 掀er has already paid this seat's share.
    for x, t in xian_events:
        if tallies[x].gou:
            continue
        if rules.xian_needs_target_gou and not tallies[t].gou:
            continue
        if rules.bao_ci_doubles and bao.get(t) == x:
            continue  # the doubled 刺 payment covers these 掀 events
        pay(x, t, [("掀", rules.xian_points)])

    points = [0] * N_SEATS
    for pm in payments:
        points[pm.payer] -= pm.amount
        points[pm.payee] += pm.amount
    return Settlement(tuple(points), tuple(payments), tuple(tallies))
