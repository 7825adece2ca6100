"""The report's 顶牛 section: seats under each policy, the duplicate ladder, and open hands.

The numbers come from :mod:`analyzer.dingniu` (``simulate``, ``tournament`` and
``open_hands_vs_heuristic``); this module sizes them from the report's ``--hands``, gives
each its own seed spawned from ``--seed``, and draws and writes the section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..dingniu.analysis import SEAT_NAMES, simulate, tournament
from ..dingniu.report import open_hands_vs_heuristic

if TYPE_CHECKING:
    from .data import ReportSpec

TABLES = ("dingniu_seats", "dingniu_ladder", "dingniu_open")
PARTS = ("random", "heuristic", "ladder", "open")
OPEN_MOVES = 4  # open-hand positions start after the heuristic's first four moves
SEAT_KEYS = ("dn_seat0", "dn_seat1", "dn_seat2", "dn_seat3")
assert len(SEAT_NAMES) == len(SEAT_KEYS)


def sizes(hands: int) -> dict[str, int]:
    """Hands simulated per policy, deals of the ladder, positions solved with open hands."""
    return {"hands": int(hands), "deals": max(2, int(hands) // 20),
            "open": max(4, min(100, int(hands) // 4000))}


def seeds(spec: ReportSpec) -> dict[str, int]:
    """One seed per part, spawned from the report's seed after the 掀牛 analyses' seeds."""
    from .data import ANALYSES, PRESET_ORDER

    child = np.random.SeedSequence(int(spec.seed)).spawn(len(ANALYSES) * len(PRESET_ORDER)
                                                          + 1)[-1]
    return {p: int(c.generate_state(1)[0]) for p, c in zip(PARTS, child.spawn(len(PARTS)))}


def commands(spec: ReportSpec) -> list[str]:
    """The ``xianniu dingniu`` commands that reproduce the seats and the ladder alone."""
    n, s = sizes(spec.hands), seeds(spec)
    return [f"xianniu dingniu simulate --hands {n['hands']} --policy {p} --seed {s[p]}"
            for p in ("random", "heuristic")] + [
        f"xianniu dingniu tournament --policies heuristic,random --deals {n['deals']} "
        f"--seed {s['ladder']}"]


def tables(spec: ReportSpec) -> dict[str, pd.DataFrame]:
    """The section's tables, every row with its n, 95% CI bounds and seed."""
    n, s = sizes(spec.hands), seeds(spec)
    rows = []
    for policy in ("random", "heuristic"):
        sim = simulate(n["hands"], policy, s[policy])
        for seat in sim["seats"]:
            pts, win = seat["points"], seat["p_win"]
            rows.append({"policy": policy, "seat": seat["seat"], "points": pts["value"],
                         "points_low": pts["low"], "points_high": pts["high"],
                         "p_win": win["value"], "p_win_low": win["low"],
                         "p_win_high": win["high"], "p_suan": sim["p_suan"]["value"],
                         "p_suan_low": sim["p_suan"]["low"],
                         "p_suan_high": sim["p_suan"]["high"], "n": pts["n"],
                         "seed": s[policy]})
    ladder = tournament("heuristic,random", n["deals"], s["ladder"]).differences()
    ladder["seed"] = s["ladder"]
    open_hands = open_hands_vs_heuristic(n["open"], OPEN_MOVES, s["open"])
    open_hands["seed"] = s["open"]
    return {"dingniu_seats": pd.DataFrame(rows), "dingniu_ladder": ladder,
            "dingniu_open": open_hands}


def figure(plotter: Any):
    """Mean points per seat under each policy, and open hands against the heuristic."""
    spec, t = plotter.spec, plotter.t
    n = sizes(spec.hands)
    fig, (a1, a2) = plotter.figure(
        "sec_dingniu", f"{n['hands']:,} {t('unit_hands')} / {n['open']:,} "
        f"{t('unit_positions')}", ncols=2, width=10.5)
    seats = plotter.d.tables["dingniu_seats"]
    x = np.arange(len(SEAT_KEYS))
    for i, (policy, color) in enumerate((("random", "#999999"), ("heuristic", "#2f6db3"))):
        s = seats[seats["policy"] == policy].sort_values("seat")
        a1.bar(x + (i - 0.5) * 0.4, s["points"], width=0.4, color=color, label=policy,
               yerr=[s["points"] - s["points_low"], s["points_high"] - s["points"]], capsize=3)
    op = plotter.d.tables["dingniu_open"].sort_values("seat")
    for i, (col, label, color) in enumerate((("heuristic", "dn_heuristic", "#2f6db3"),
                                             ("open_hands", "dn_open", "#c8453a"))):
        low, high = ("heuristic_low", "heuristic_high") if col == "heuristic" else \
            ("open_low", "open_high")
        a2.bar(x + (i - 0.5) * 0.4, op[col], width=0.4, color=color, label=t(label),
               yerr=[op[col] - op[low], op[high] - op[col]], capsize=3)
    for ax, title in ((a1, "dn_by_policy"), (a2, "dn_open_title")):
        ax.axhline(0, color="0.3", lw=0.6)
        ax.set_xticks(x, [t(k) for k in SEAT_KEYS])
        ax.set_ylabel(t("points"))
        ax.set_title(t(title), fontsize=10)
        ax.legend(frameon=False, fontsize=8)
    return fig


def section(w: Any) -> None:
    """Write the 顶牛 section into the report writer ``w``."""
    from .render import fmt_ci

    spec, t = w.spec, w.t
    n, s = sizes(spec.hands), seeds(spec)
    w.add("h2", t("sec_dingniu"), "dingniu")
    w.add("p", t("intro_dingniu"))
    w.figure("dingniu", "sec_dingniu")
    w.add("p", t("dn_caption", hands=f"{n['hands']:,}", deals=f"{n['deals']:,}",
                 open=f"{n['open']:,}", seeds=" / ".join(str(s[p]) for p in PARTS),
                 seed=spec.seed))
    w.add("p", t("caption_cmd"))
    w.add("code", commands(spec))
    seats = w.d.tables["dingniu_seats"]
    rows = []
    for seat, key in enumerate(SEAT_KEYS):
        row: dict[str, str] = {t("col_seat"): t(key)}
        for policy in ("random", "heuristic"):
            r = seats[(seats["policy"] == policy) & (seats["seat"] == seat)].iloc[0]
            row[f"{policy} · {t('col_mean')}"] = fmt_ci(r["points"], r["points_low"],
                                                        r["points_high"])
            row[f"{policy} · {t('dn_p_win')}"] = fmt_ci(r["p_win"], r["p_win_low"],
                                                        r["p_win_high"], "probability")
        rows.append(row)
    suan = {t("col_seat"): t("dn_p_suan")}
    for policy in ("random", "heuristic"):
        r = seats[seats["policy"] == policy].iloc[0]
        suan[f"{policy} · {t('col_mean')}"] = ""
        suan[f"{policy} · {t('dn_p_win')}"] = fmt_ci(r["p_suan"], r["p_suan_low"],
                                                     r["p_suan_high"], "probability")
    rows.append(suan)
    w.table(pd.DataFrame(rows))
    lad = w.d.tables["dingniu_ladder"].iloc[0]
    w.table(pd.DataFrame([{t("col_match"): f"{lad['a']} − {lad['b']}",
                           t("col_diff"): fmt_ci(lad["diff"], lad["ci_low"], lad["ci_high"]),
                           t("col_deals"): f"{int(lad['n_deals']):,}"}]))
    w.add("p", t("intro_dn_open", moves=OPEN_MOVES))
    op = w.d.tables["dingniu_open"]
    w.table(pd.DataFrame([{
        t("col_seat"): t(SEAT_KEYS[int(r["seat"])]),
        t("dn_heuristic"): fmt_ci(r["heuristic"], r["heuristic_low"], r["heuristic_high"]),
        t("dn_open"): fmt_ci(r["open_hands"], r["open_low"], r["open_high"]),
        t("dn_gap"): fmt_ci(r["difference"], r["diff_low"], r["diff_high"]),
        "n": f"{int(r['n']):,}"} for _, r in op.iterrows()]))
    w.csv(*TABLES)
