"""顶牛's section of the strategy report, and its tables as tidy DataFrames.

:data:`SECTION` (found by the report through the game registry) runs each seat under both
policies, the duplicate ladder and open hands against the heuristic, sized from the
report's ``--hands``, each part seeded from the section's root
(:func:`analyzer.report.seed_sequence` with the key ``dingniu``). ``report_data()`` gives
the same kinds of table, seed and n stamped in attrs, for other uses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from kernels.dingniu import game as kd
from kernels.rng import states_from_seed

from ..core.stats import mean_ci
from ..report import plots
from ..report.formats import fmt_ci, fmt_n
from ..report.labels import SHARED, Labels
from ..report.render import Block, Page
from ..report.section import ReportSpec, seed_sequence
from .analysis import SEAT_NAMES, odds, simulate, tournament
from .engine import new_hand
from .rules import N_KINDS, N_SEATS, DingniuRules, get_rules
from .sim import heuristic_matrix, policy_ids, rule_arrays, state_array
from .solver import Solver


def _frame(rows: list[dict[str, Any]], **meta: Any) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    df.attrs.update(meta)
    return df


def open_hands_vs_heuristic(n_deals: int = 40, moves: int = 4, seed: int = 0,
                            rules: str | DingniuRules | None = None) -> pd.DataFrame:
    """Per seat: points when all play the heuristic from move ``moves`` on, beside the
    open-hand max-n value of the same positions (first ``moves`` by the heuristic)."""
    r = get_rules(rules)
    tiles, params = rule_arrays(r)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    heur, solved, secs = [], [], []
    pol, hps = policy_ids("heuristic"), heuristic_matrix()
    streams = states_from_seed(seed, n_deals * 2)
    acts = np.empty(64, dtype=np.int64)
    res = np.empty(kd.N_RESULT, dtype=np.int64)
    la = np.empty((1, 2), dtype=np.int64)
    ll = np.empty((1, 2), dtype=np.uint64)
    i = 0
    while len(heur) < n_deals and i < 2 * n_deals:
        deck = [k for k in range(N_KINDS) for _ in range(int(r.counts[k]))]
        random.Random(int(rng.integers(2**63))).shuffle(deck)
        st = new_hand([[deck[6 * s:6 * s + 6].count(k) for k in range(N_KINDS)]
                       for s in range(N_SEATS)], r)
        for _ in range(moves):  # the opening, by the heuristic
            if st.is_terminal():
                break
            s = state_array(st)
            n = kd.legal(s, tiles, params, acts)
            st.apply(int(kd.heuristic_action(s, tiles, params, hps[0], acts, n)))
        stream = streams[i].copy()
        i += 1
        if st.is_terminal():
            continue
        s = state_array(st)
        kd.play_out(s, tiles, params, pol, hps, stream, res, la, ll)
        t0 = time.perf_counter()
        solved.append(Solver(r).solve(st).values)
        secs.append(time.perf_counter() - t0)
        heur.append(res[kd.R_PTS:kd.R_PTS + N_SEATS].tolist())
    h, o = np.array(heur, dtype=float), np.array(solved, dtype=float)
    rows = []
    for seat in range(N_SEATS):
        eh, eo, ed = mean_ci(h[:, seat]), mean_ci(o[:, seat]), mean_ci(o[:, seat] - h[:, seat])
        rows.append({"seat": seat, "heuristic": eh.value, "heuristic_low": eh.low,
                     "heuristic_high": eh.high, "open_hands": eo.value, "open_low": eo.low,
                     "open_high": eo.high, "difference": ed.value, "diff_low": ed.low,
                     "diff_high": ed.high, "n": eh.n})
    return _frame(rows, seed=seed, moves=moves, rules=r.name,
                  solver_seconds_per_position=float(np.mean(secs)) if secs else float("nan"))


def report_data(n_hands: int = 200_000, n_deals: int = 20_000, n_odds: int = 200_000,
                n_solved: int = 40, seed: int = 0,
                rules: str | DingniuRules | None = None) -> dict[str, pd.DataFrame]:
    """The 顶牛 section's tables: seats by policy, the duplicate tournament, deal odds and
    open hands against the heuristic. Every row carries its n and 95% CI bounds."""
    r = get_rules(rules)
    seat_rows = []
    for policy in ("random", "heuristic"):
        sim = simulate(n_hands, policy, seed, r)
        for s in sim["seats"]:
            seat_rows.append({"policy": policy, "seat": s["seat"], "name": s["name"],
                              **{f"points_{k}": v for k, v in s["points"].items()},
                              **{f"p_win_{k}": v for k, v in s["p_win"].items()}})
        seat_rows[-1]["p_suan"] = sim["p_suan"]["value"]
    tr = tournament("heuristic,random", n_deals, seed, r)
    od = odds(n_odds, seed, r)
    odds_rows = [{"feature": f["feature"], "exact": f["exact"],
                  **{f"mc_{k}": v for k, v in f["monte_carlo"].items()}} for f in od["features"]]
    return {"seats": _frame(seat_rows, seed=seed, hands=n_hands, rules=r.name),
            "tournament": tr.differences(),
            "odds": _frame(odds_rows, seed=seed, deals=n_odds, rules=r.name),
            "open_hands": open_hands_vs_heuristic(n_solved, 4, seed, r)}


# The report's section.

KEY = "dingniu"
TABLES = ("dingniu_seats", "dingniu_ladder", "dingniu_open")
PARTS = ("random", "heuristic", "ladder", "open")
POLICIES = ("random", "heuristic")
OPEN_MOVES = 4  # open-hand positions start after the heuristic's first four moves
SEAT_KEYS = ("dn_seat0", "dn_seat1", "dn_seat2", "dn_seat3")
assert len(SEAT_NAMES) == len(SEAT_KEYS)

TEXT: dict[str, tuple[str, str]] = {
    "sec_dingniu": ("顶牛（骨牌）", "dingniu (Chinese dominoes)"),
    "step_dingniu": ("顶牛：各座位、复式对局、明牌求解", "dingniu: seats, ladder, open hands"),
    "intro_dingniu": ("顶牛是四人骨牌游戏，24 张牌，每人 6 张，头牌先出；规则与未定之处见 "
                      "docs/dingniu.md。下表为各座位在两种策略下的平均得分与 P(赢)，以及复式对局"
                      "中 heuristic 对 random 的优势。",
                      "dingniu is a four-player domino game: 24 tiles, six each, the first seat "
                      "(tou pai) leads; docs/dingniu.md has the rules and its readings. Below: "
                      "each seat's mean points and P(win) under both policies, and the "
                      "heuristic's edge over random in a duplicate tournament."),
    "dn_caption": ("样本：每种策略 {hands} 局，复式对局 {deals} 副牌，明牌求解 {open} 个局面；"
                   "区间均为 95% 置信区间；种子：{seeds}（由 --seed {seed} 派生）。",
                   "Sample: {hands} hands per policy, {deals} deals in the duplicate "
                   "tournament, {open} positions solved with open hands; intervals are 95% "
                   "CIs; seeds: {seeds} (spawned from --seed {seed})."),
    "intro_dn_open": ("明牌与暗牌：从启发式先走 {moves} 步后的局面，四家都用启发式打完的得分，与四家"
                      "明牌、各自求最优（max-n 精确求解）的得分相比；差值显示暗牌信息的代价。",
                      "Open and hidden hands: from the position after the heuristic's first "
                      "{moves} moves, each seat's points when all four play the heuristic, "
                      "beside the exact max-n value with all hands open; the gap is what "
                      "hidden information costs."),
    "dn_seat0": ("头牌", "1st (tou pai)"),
    "dn_seat1": ("二牌", "2nd"),
    "dn_seat2": ("三牌", "3rd"),
    "dn_seat3": ("末牌", "4th"),
    "dn_by_policy": ("各座位的平均得分", "mean points by seat"),
    "dn_open_title": ("明牌最优与启发式", "open hands (max-n) and heuristic"),
    "dn_heuristic": ("启发式", "heuristic"),
    "dn_open": ("明牌最优（max-n）", "open hands (max-n)"),
    "dn_gap": ("明牌 − 启发式", "open − heuristic"),
    "dn_p_win": ("P(赢)", "P(win)"),
    "dn_p_suan": ("P(算帐)，每局", "P(suan zhang) per hand"),
}
T = Labels(TEXT, base=SHARED)


def sizes(hands: int) -> dict[str, int]:
    """Hands simulated per policy, deals of the ladder, positions solved with open hands."""
    return {"hands": int(hands), "deals": max(2, int(hands) // 20),
            "open": max(4, min(100, int(hands) // 4000))}


def seeds(spec: ReportSpec, root: np.random.SeedSequence | None = None) -> dict[str, int]:
    """One seed per part, spawned from ``root`` (default: the section's root for
    ``spec.seed``)."""
    root = root if root is not None else seed_sequence(spec.seed, KEY)
    return {p: int(c.generate_state(1)[0]) for p, c in zip(PARTS, root.spawn(len(PARTS)))}


def commands(spec: ReportSpec, s: dict[str, int] | None = None) -> list[str]:
    """The ``xianniu dingniu`` commands that reproduce the seats and the ladder alone, from
    the part seeds ``s`` (default: :func:`seeds`)."""
    n, s = sizes(spec.hands), s if s is not None else seeds(spec)
    return [f"xianniu dingniu simulate --hands {n['hands']} --policy {p} --seed {s[p]}"
            for p in POLICIES] + [
        f"xianniu dingniu tournament --policies heuristic,random --deals {n['deals']} "
        f"--seed {s['ladder']}"]


@dataclass
class DingniuData:
    """The section's tables and what made them."""

    spec: ReportSpec
    seeds: dict[str, int]
    tables: dict[str, pd.DataFrame]


def section_tables(spec: ReportSpec, s: dict[str, int]) -> dict[str, pd.DataFrame]:
    """The section's tables from the part seeds ``s``, every row with n, 95% CI and seed."""
    n = sizes(spec.hands)
    rows = []
    for policy in POLICIES:
        sim = simulate(n["hands"], policy, s[policy])
        for seat in sim["seats"]:
            pts, win, suan = seat["points"], seat["p_win"], sim["p_suan"]
            rows.append({"policy": policy, "seat": seat["seat"], "points": pts["value"],
                         "points_low": pts["low"], "points_high": pts["high"],
                         "p_win": win["value"], "p_win_low": win["low"],
                         "p_win_high": win["high"], "p_suan": suan["value"],
                         "p_suan_low": suan["low"], "p_suan_high": suan["high"], "n": pts["n"],
                         "seed": s[policy]})
    ladder = tournament("heuristic,random", n["deals"], s["ladder"]).differences()
    ladder["seed"] = s["ladder"]
    open_hands = open_hands_vs_heuristic(n["open"], OPEN_MOVES, s["open"])
    open_hands["seed"] = s["open"]
    return {"dingniu_seats": pd.DataFrame(rows), "dingniu_ladder": ladder,
            "dingniu_open": open_hands}


def _bars(ax, x, groups) -> None:
    """Side-by-side bars with 95% CI error bars: ``groups`` of (values, low, high, colour,
    label)."""
    offs, width = plots.offsets(len(groups))
    for off, (v, lo, hi, color, label) in zip(offs, groups):
        ax.bar(x + off, v, width=width, color=color, label=label, yerr=[v - lo, hi - v],
               capsize=3)


def figure(data: DingniuData, lang: str) -> Figure:
    """Mean points per seat under each policy, and open hands against the heuristic."""
    n = sizes(data.spec.hands)
    fig, (a1, a2) = plots.new_figure(
        data.spec, T("sec_dingniu", lang),
        f"{fmt_n(n['hands'], T('unit_hands', lang))} / "
        f"{fmt_n(n['open'], T('unit_positions', lang))}", ncols=2, width=10.5)
    x = np.arange(len(SEAT_KEYS))
    seats = data.tables["dingniu_seats"]
    by = {p: seats[seats["policy"] == p].sort_values("seat") for p in POLICIES}
    _bars(a1, x, [(by[p]["points"], by[p]["points_low"], by[p]["points_high"], c, p)
                  for p, c in zip(POLICIES, (plots.GREY, plots.BLUE))])
    op = data.tables["dingniu_open"].sort_values("seat")
    _bars(a2, x, [(op["heuristic"], op["heuristic_low"], op["heuristic_high"], plots.BLUE,
                   T("dn_heuristic", lang)),
                  (op["open_hands"], op["open_low"], op["open_high"], plots.RED,
                   T("dn_open", lang))])
    for ax, title in ((a1, "dn_by_policy"), (a2, "dn_open_title")):
        ax.axhline(0, color="0.3", lw=0.6)
        ax.set_xticks(x, [T(k, lang) for k in SEAT_KEYS])
        ax.set_ylabel(T("points", lang))
        ax.set_title(T(title, lang), fontsize=10)
        ax.legend(frameon=False, fontsize=8)
    return fig


def _seat_table(page: Page, seats: pd.DataFrame) -> None:
    t = page.t
    rows = []
    for seat, key in enumerate(SEAT_KEYS):
        row: dict[str, str] = {t("col_seat"): t(key)}
        for policy in POLICIES:
            r = seats[(seats["policy"] == policy) & (seats["seat"] == seat)].iloc[0]
            row[f"{policy} · {t('col_mean')}"] = fmt_ci(r["points"], r["points_low"],
                                                        r["points_high"])
            row[f"{policy} · {t('dn_p_win')}"] = fmt_ci(r["p_win"], r["p_win_low"],
                                                        r["p_win_high"], "probability")
        rows.append(row)
    suan = {t("col_seat"): t("dn_p_suan")}
    for policy in POLICIES:
        r = seats[seats["policy"] == policy].iloc[0]
        suan[f"{policy} · {t('col_mean')}"] = ""
        suan[f"{policy} · {t('dn_p_win')}"] = fmt_ci(r["p_suan"], r["p_suan_low"],
                                                     r["p_suan_high"], "probability")
    rows.append(suan)
    page.table(pd.DataFrame(rows))


def blocks(data: DingniuData, lang: str) -> list[Block]:
    """The section's part of the page: seats, the ladder, open hands; n, seeds, commands."""
    page = Page(T, lang)
    t, n, s = page.t, sizes(data.spec.hands), data.seeds
    page.h2(t("sec_dingniu"), "dingniu")
    page.p(t("intro_dingniu"))
    page.figure("dingniu", t("sec_dingniu"))
    page.p(t("dn_caption", hands=f"{n['hands']:,}", deals=f"{n['deals']:,}",
             open=f"{n['open']:,}", seeds=" / ".join(str(s[p]) for p in PARTS),
             seed=data.spec.seed))
    page.p(t("caption_cmd"))
    page.code(commands(data.spec, s))
    _seat_table(page, data.tables["dingniu_seats"])
    lad = data.tables["dingniu_ladder"].iloc[0]
    page.table(pd.DataFrame([{t("col_match"): f"{lad['a']} − {lad['b']}",
                              t("col_diff"): fmt_ci(lad["diff"], lad["ci_low"], lad["ci_high"]),
                              t("col_deals"): f"{int(lad['n_deals']):,}"}]))
    page.p(t("intro_dn_open", moves=OPEN_MOVES))
    page.table(pd.DataFrame([{
        t("col_seat"): t(SEAT_KEYS[int(r["seat"])]),
        t("dn_heuristic"): fmt_ci(r["heuristic"], r["heuristic_low"], r["heuristic_high"]),
        t("dn_open"): fmt_ci(r["open_hands"], r["open_low"], r["open_high"]),
        t("dn_gap"): fmt_ci(r["difference"], r["diff_low"], r["diff_high"]),
        "n": f"{int(r['n']):,}"} for _, r in data.tables["dingniu_open"].iterrows()]))
    page.csv(*TABLES)
    return page.blocks


class DingniuSection:
    """顶牛 in the report: seats by policy, P(算帐), the duplicate ladder, open hands."""

    key = KEY
    labels = T
    outputs = (*TABLES, "dingniu")

    def title(self, lang: str) -> str:
        return T("sec_dingniu", lang)

    def check(self, spec: ReportSpec) -> None:
        pass  # --rules and --policy concern 掀牛; 顶牛 plays its own policies

    def steps(self, spec: ReportSpec) -> int:
        return 1

    def run(self, spec: ReportSpec, root: np.random.SeedSequence,
            progress: Callable[[str], None]) -> DingniuData:
        progress(T("step_dingniu", spec.lang))
        s = seeds(spec, root)
        return DingniuData(spec, s, section_tables(spec, s))

    def tables(self, data: DingniuData) -> dict[str, pd.DataFrame]:
        return data.tables

    def figures(self, data: DingniuData, lang: str) -> dict[str, Figure]:
        return {"dingniu": figure(data, lang)}

    def blocks(self, data: DingniuData, lang: str) -> list[Block]:
        return blocks(data, lang)


SECTION = DingniuSection()
