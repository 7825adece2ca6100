"""顶牛's section of the strategy report, and its tables as tidy DataFrames.

:data:`SECTION` (found by the report through the game registry) runs each seat under both
policies, the duplicate ladder and open hands against the heuristic, sized from the
report's ``--hands``, each part seeded from the section's root
(:func:`analyzer.report.seed_sequence` with the key ``dingniu``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ..report import plots
from ..report.findings import Finding, sign_change
from ..report.formats import enough_deals, fmt_cell, fmt_ci, fmt_n
from ..report.labels import SHARED, Labels
from ..report.progress import Advance, StepFn, silent
from ..report.render import Block, Page
from ..report.section import ReportSpec, seed_sequence
from .analysis import open_hands_vs_heuristic, simulate
from .ladder import RUNGS, SEARCH, ladder, rung_seeds, search_seats
from .rules import N_SEATS, PRESETS, SEAT_NAMES, SEAT_NAMES_EN, get_rules

# The report's section.

KEY = "dingniu"
TABLES = ("dingniu_seats", "dingniu_ladder", "dingniu_open", "dingniu_search")
# both presets play each part's seed; a new part goes last (its seed: the next child)
PARTS = ("random", "heuristic", "ladder", "open", "tuned", "search")
POLICIES = ("random", "heuristic", "tuned")
PLAYER = "tuned"  # the strongest fast player: the figure and the opening's line play it
OPEN_MOVES = 4  # open-hand positions start after the heuristic's first four moves
SEAT_KEYS = ("dn_seat0", "dn_seat1", "dn_seat2", "dn_seat3")
RULE_NAMES = tuple(PRESETS)  # both presets, side by side; the first is the default
assert len(SEAT_NAMES) == len(SEAT_KEYS) and RULE_NAMES[0] == get_rules().name

TEXT: dict[str, tuple[str, str]] = {
    "sec_dingniu": ("顶牛（骨牌）", "dingniu (Chinese dominoes)"),
    "step_dn_seats": ("顶牛：两种规则、三种策略下各座位的得分（各 {n} 局）",
                      "dingniu: every seat under both presets and three policies ({n} hands "
                      "each)"),
    "step_dn_ladder": ("顶牛（{preset}）：策略阶梯（{n} 副牌）", "dingniu ({preset}): ladder ({n} deals)"),
    "step_dn_open": ("顶牛（{preset}）：明牌求解（{n} 个局面）",
                     "dingniu ({preset}): open hands ({n} positions)"),
    "step_dn_search": ("顶牛（{preset}）：与 pimc 对照（{n} 副牌）",
                       "dingniu ({preset}): against pimc ({n} deals)"),
    "intro_dn_search": ("与最强的搜索型策略对照：同一批 {n} 副牌各打两遍，一遍四家都用 {player}，一遍四家"
                        "都用 {search}（从同一随机流），各座位的平均得分与差值（{search} − {player}，"
                        "按副牌配对）。差值的区间不含 0 的座位，其结论在最强的策略下确实不同；"
                        "符号相反的标出。",
                        "Against the strongest search player: the same {n} deals played twice, "
                        "once with all four seats on {player} and once with all four on {search} "
                        "(from one stream), each seat's mean points and the difference ({search} − "
                        "{player}, paired by deal). Where the difference's CI excludes 0 the "
                        "finding surely moves under the strongest player; a sign change is "
                        "marked."),
    "dn_diff_search": ("{search} − {player}", "{search} − {player}"),
    "dn_sign": ("符号", "sign"),
    "dn_sign_same": ("不变", "same"),
    "dn_sign_changed": ("相反", "changed"),
    "dn_sign_sure": ("确定相反", "surely changed"),
    "intro_dingniu": ("顶牛是四人骨牌游戏，24 张牌，每人 6 张，头牌先出；规则与未定之处见 "
                      "docs/rules/dingniu.md。两种规则并列：seed（按种子的解）与 navpil（按 navpil "
                      "的 Ding Niu：一种点数不能再出就算算帐，算帐后其他三家可先上双头同点的牌），"
                      "两者用同样的牌与种子。下表为各座位的平均得分与 P(赢)、P(算帐)、P(包庄)，"
                      "以及复式对局中各策略的差值。",
                      "dingniu is a four-player domino game: 24 tiles, six each, the first seat "
                      "(tou pai) leads; docs/rules/dingniu.md has the rules and its readings. Two "
                      "presets side by side, on the same deals and seeds: seed (the seed text's "
                      "readings) and navpil (after navpil's Ding Niu page: shutting out one "
                      "value is a lock, and after a suan zhang the others lay their doubles "
                      "first). Below: each seat's mean points and P(win), P(suan zhang), "
                      "P(bao zhuang), and the policies' differences in duplicate."),
    "dn_caption": ("样本：每种规则每种策略 {hands} 局；复式对局 {deals} 副牌（pimc {pimc} "
                   "副牌）；明牌求解 {open} 个局面；区间均为 95% 置信区间；种子：{seeds}（由 "
                   "--seed {seed} 派生，两种规则相同）。",
                   "Sample: {hands} hands per preset and policy; {deals} deals per duplicate "
                   "match ({pimc} with pimc); {open} positions solved with open hands; "
                   "intervals are 95% CIs; seeds: {seeds} (spawned from --seed {seed}, the "
                   "same for both presets)."),
    "intro_dn_open": ("明牌与暗牌：从启发式先走 {moves} 步后的局面，四家都用启发式、四家都用 pimc "
                      "打完的得分，与四家明牌、各自求最优（max-n 精确求解）的得分相比。",
                      "Open and hidden hands: from the position after the heuristic's first "
                      "{moves} moves, each seat's points when all four play the heuristic and "
                      "when all four play pimc, beside the exact max-n value with all hands "
                      "open."),
    **{key: (zh, en) for key, zh, en in zip(SEAT_KEYS, SEAT_NAMES, SEAT_NAMES_EN)},
    "dn_by_rules": ("tuned 下各座位的平均得分", "mean points by seat, tuned"),
    "dn_ladder_title": ("复式对局：策略差值", "duplicate: policy differences"),
    "dn_heuristic": ("启发式", "heuristic"),
    "dn_open": ("明牌最优（max-n）", "open hands (max-n)"),
    "dn_gap": ("明牌 − 启发式", "open − heuristic"),
    "dn_gap_pimc": ("明牌 − pimc", "open − pimc"),
    "dn_p_win": ("P(赢)", "P(win)"),
    "dn_p_suan": ("P(算帐)，每局", "P(suan zhang) per hand"),
    "dn_p_bao": ("P(包庄)，每局", "P(bao zhuang) per hand"),
    "dn_rules": ("规则", "preset"),
    "dn_seat_table": ("规则 {preset}：", "Preset {preset}:"),
    "fd_dn_lead": ("顶牛（{preset}）：{seat}（先出的一家）每局平均多得",
                   "Dingniu ({preset}): the first seat, who leads, gains per hand"),
    "g_dn_tou": ("头牌：先出的一家（0 号位），其后依次为二牌、三牌、末牌",
                 "tou pai 头牌: the seat that leads first (seat 0); 二牌, 三牌 and 末牌 follow "
                 "in play order"),
    "g_dn_shu": ("竖牌：两端点数不同的牌；横牌：两端相同的牌（对子）",
                 "shu pai 竖牌: a tile whose two ends differ; heng pai 横牌: a double"),
    "g_dn_kou": ("扣：没有能接上的牌时，把一张手牌扣在自己面前；有牌能上时不能扣（不能扣活牌）；"
                 "扣下的点数越少越好",
                 "kou 扣: with no tile that fits an open end, turn one tile face down in front of "
                 "you (never while one fits); the fewer pips turned down, the better"),
    "g_dn_zhuang": ("庄：顶牛没有庄家座位；扣下点数最少的一家赢（+6），其余按点数从多到少为大庄"
                    "（−3）、二庄（−2）、小庄（−1）",
                    "zhuang 庄: dingniu has no banker seat; the fewest pips turned down wins "
                    "(+6), the others, most pips first, are 大庄 (−3), 二庄 (−2), 小庄 (−1)"),
    "g_dn_suan": ("算帐：有别的牌可上，却上了一张让其他三家的竖牌都上不去的牌；手中加扣下的点数"
                  "比其他三家都少则成功，三家按大庄、二庄、小庄加倍付 6、4、2 分",
                  "suan zhang 算帐: laying, when another play was open, a tile that shuts the "
                  "other seats' 竖牌 out; it succeeds when the layer's pips (hand and 扣) are "
                  "below each other seat's, who then pay double: 6, 4, 2"),
    "g_dn_bao": ("包庄：算帐失败，算帐的一家独自付 12 分给点数最少的一家",
                 "bao zhuang 包庄: a failed 算帐; its maker alone pays 12 to the seat with the "
                 "fewest pips"),
    "g_dn_si": ("死砸：每一张能上的牌都会封死时的被迫封死，不算算帐，也不包庄",
                "si za 死砸: a lock forced because every legal tile locks: no 算帐, no 包庄"),
}
T = Labels(TEXT, base=SHARED)
# the 顶牛 terms the report defines, in the order it lists them (docs/guides/dingniu.md too)
GLOSSARY = ("g_dn_tou", "g_dn_shu", "g_dn_kou", "g_dn_zhuang", "g_dn_suan", "g_dn_bao",
            "g_dn_si")


def _none(n: int) -> None:
    """No progress to show."""


def sizes(hands: int) -> dict[str, int]:
    """Hands simulated per preset and policy, deals of the heuristic ladder and of the pimc
    rung, positions solved with open hands (each per preset)."""
    h = int(hands)
    return {"hands": h, "deals": max(2, h // 20), "pimc": max(2, h // 500),
            "open": max(4, min(200, h // 2500)), "search": max(4, h // 200)}


def seeds(spec: ReportSpec, root: np.random.SeedSequence | None = None) -> dict[str, int]:
    """One seed per part, spawned from ``root`` (default: the section's root for
    ``spec.seed``); both presets play the same seeds, so they are compared on the same
    deals."""
    root = root if root is not None else seed_sequence(spec.seed, KEY)
    return {p: int(c.generate_state(1)[0]) for p, c in zip(PARTS, root.spawn(len(PARTS)))}


def prefix(name: str) -> str:
    """Column prefix of a preset in the seats table: none for the default, ``name_``."""
    return "" if name == RULE_NAMES[0] else f"{name}_"


def commands(spec: ReportSpec, s: dict[str, int] | None = None) -> list[str]:
    """The ``xianniu dingniu`` commands that reproduce the seats and the ladder alone, from
    the part seeds ``s`` (default: :func:`seeds`): the default preset's simulations and
    first rung first, then the rest."""
    n, s = sizes(spec.hands), s if s is not None else seeds(spec)
    rung = rung_seeds(s["ladder"])
    sims = [[f"xianniu dingniu simulate --hands {n['hands']} --policy {p} --rules {r} "
             f"--seed {s[p]}" for p in POLICIES] for r in RULE_NAMES]
    rungs = [[f"xianniu dingniu tournament --policies {a},{b} --deals "
              f"{n['pimc'] if 'pimc' in (a, b) else n['deals']} --rules {r} --seed {x}"
              for (a, b), x in zip(RUNGS, rung)] for r in RULE_NAMES]
    first = sims[0] + rungs[0][:1]
    return first + rungs[0][1:] + [c for r in range(1, len(RULE_NAMES))
                                   for c in sims[r] + rungs[r]]


@dataclass
class DingniuData:
    """The section's tables and what made them."""

    spec: ReportSpec
    seeds: dict[str, int]
    tables: dict[str, pd.DataFrame]


def _seat_rows(n: int, s: dict[str, int], advance: Advance = _none) -> list[dict[str, Any]]:
    """One row per policy and seat; each preset's columns side by side (:func:`prefix`);
    ``advance(n)`` after each simulation."""
    rows = {(p, seat): {"policy": p, "seat": seat} for p in POLICIES for seat in range(N_SEATS)}
    for name in RULE_NAMES:
        pre = prefix(name)
        for policy in POLICIES:
            sim = simulate(n, policy, s[policy], get_rules(name))
            advance(n)
            for seat in sim["seats"]:
                row = rows[(policy, seat["seat"])]
                for key, e in (("points", seat["points"]), ("p_win", seat["p_win"]),
                               ("p_suan", sim["p_suan"]), ("p_bao", sim["p_baozhuang"])):
                    row.update({f"{pre}{key}": e["value"], f"{pre}{key}_low": e["low"],
                                f"{pre}{key}_high": e["high"]})
                row.update({f"{pre}n": seat["points"]["n"], "seed": s[policy]})
    return list(rows.values())


def section_tables(spec: ReportSpec, s: dict[str, int],
                   step: StepFn = silent) -> dict[str, pd.DataFrame]:
    """The section's tables from the part seeds ``s``, every row with n, 95% CI and seed;
    ``step`` starts each part (:data:`STEPS` of them) with its size."""
    n, lang = sizes(spec.hands), spec.lang
    advance = step(T("step_dn_seats", lang, n=f"{n['hands']:,}"),
                   n["hands"] * len(RULE_NAMES) * len(POLICIES))
    seats = pd.DataFrame(_seat_rows(n["hands"], s, advance))
    lad, opens, search = [], [], []
    for name in RULE_NAMES:
        r = get_rules(name)
        advance = step(T("step_dn_ladder", lang, preset=name, n=f"{n['deals']:,}"), 1)
        lad.append(ladder(r, n["deals"], n["pimc"], s["ladder"]))
        advance(1)
        advance = step(T("step_dn_open", lang, preset=name, n=f"{n['open']:,}"), 1)
        op = open_hands_vs_heuristic(n["open"], OPEN_MOVES, s["open"], r)
        advance(1)
        op.insert(0, "rules", r.name)
        op["seed"] = s["open"]
        opens.append(op)
        advance = step(T("step_dn_search", lang, preset=name, n=f"{n['search']:,}"), 1)
        search.append(search_seats(n["search"], s["search"], r, PLAYER, SEARCH))
        advance(1)
    return {"dingniu_seats": seats,
            "dingniu_ladder": pd.concat(lad, ignore_index=True),
            "dingniu_open": pd.concat(opens, ignore_index=True),
            "dingniu_search": pd.concat(search, ignore_index=True)}


SIGN_KEYS = {None: "dn_sign_same", "sign": "dn_sign_changed", "sure_sign": "dn_sign_sure"}


def sign_key(r: Any) -> str:
    """The label of how the search's estimate of a seat's points stands to the player's
    (:func:`analyzer.report.findings.sign_change`): the same sign, another, surely another."""
    a, b = ({k: r[f"{who}_{k}"] for k in ("value", "low", "high")}
            for who in ("player", "search"))
    return SIGN_KEYS[sign_change(a, b)]


def _search_table(page: Page, df: pd.DataFrame) -> None:
    """Each seat under the player and the search, the paired difference and its sign."""
    t = page.t
    first = df.iloc[0]
    player, search = str(first["player"]), str(first["search"])
    page.p(t("intro_dn_search", n=f"{int(first['n']):,}", player=player, search=search))
    page.code([f'python -c "from analyzer.dingniu.ladder import search_seats; print(search_seats('
               f"{int(first['n'])}, {int(first['seed'])}, '{name}', '{player}', '{search}'))\""
               for name in dict.fromkeys(df["rules"])])
    page.table(pd.DataFrame([{
        t("dn_rules"): r["rules"], t("col_seat"): t(SEAT_KEYS[int(r["seat"])]),
        player: fmt_cell(r["player_value"], r["player_low"], r["player_high"], r["n"]),
        search: fmt_cell(r["search_value"], r["search_low"], r["search_high"], r["n"]),
        t("dn_diff_search", search=search, player=player): fmt_cell(
            r["diff_value"], r["diff_low"], r["diff_high"], r["n"], signed=True),
        t("dn_sign"): t(sign_key(r))} for _, r in df.iterrows()]))


def _bars(ax, x, groups) -> None:
    """Side-by-side bars with 95% CI error bars: ``groups`` of (values, low, high, colour,
    label)."""
    offs, width = plots.offsets(len(groups))
    for off, (v, lo, hi, color, label) in zip(offs, groups):
        v, lo, hi = (np.asarray(a, dtype=float) for a in (v, lo, hi))
        ax.bar(x + off, v, width=width, color=color, label=label, yerr=[v - lo, hi - v],
               capsize=3)


def figure(data: DingniuData, lang: str) -> Figure:
    """Mean points per seat under each preset (:data:`PLAYER`), and the ladder under each."""
    n = sizes(data.spec.hands)
    fig, (a1, a2) = plots.new_figure(
        data.spec, T("sec_dingniu", lang),
        f"{fmt_n(n['hands'], T('unit_hands', lang))} / "
        f"{fmt_n(n['deals'], T('unit_deals', lang))}", ncols=2, width=10.5)
    colors = (plots.BLUE, plots.ORANGE)
    seats = data.tables["dingniu_seats"]
    heur = seats[seats["policy"] == PLAYER].sort_values("seat")
    x = np.arange(len(SEAT_KEYS))
    _bars(a1, x, [(heur[f"{prefix(r)}points"], heur[f"{prefix(r)}points_low"],
                   heur[f"{prefix(r)}points_high"], c, r) for r, c in zip(RULE_NAMES, colors)])
    a1.set_xticks(x, [T(k, lang) for k in SEAT_KEYS])
    lad = data.tables["dingniu_ladder"]
    xr = np.arange(len(RUNGS))
    _bars(a2, xr, [(g["diff"], g["ci_low"], g["ci_high"], c, r)
                   for r, c in zip(RULE_NAMES, colors) for g in [lad[lad["rules"] == r]]])
    a2.set_xticks(xr, [f"{a} − {b}" for a, b in RUNGS], fontsize=8)
    for ax, title in ((a1, "dn_by_rules"), (a2, "dn_ladder_title")):
        ax.axhline(0, color="0.3", lw=0.6)
        ax.set_ylabel(T("points", lang))
        ax.set_title(T(title, lang), fontsize=10)
        ax.legend(frameon=False, fontsize=8)
    return fig


def _seat_table(page: Page, seats: pd.DataFrame) -> None:
    """One table per preset (a narrow page keeps them readable): a row per seat, then
    P(算帐) and P(包庄); a column pair (mean points, P(win)) per policy."""
    t = page.t
    for name in RULE_NAMES:
        pre, rows = prefix(name), []
        for seat, key in enumerate(SEAT_KEYS):
            row: dict[str, str] = {t("col_seat"): t(key)}
            for policy in POLICIES:
                r = seats[(seats["policy"] == policy) & (seats["seat"] == seat)].iloc[0]
                row[f"{policy} · {t('col_mean')}"] = fmt_ci(
                    r[f"{pre}points"], r[f"{pre}points_low"], r[f"{pre}points_high"])
                row[f"{policy} · {t('dn_p_win')}"] = fmt_ci(
                    r[f"{pre}p_win"], r[f"{pre}p_win_low"], r[f"{pre}p_win_high"], "probability")
            rows.append(row)
        for stat, key in (("p_suan", "dn_p_suan"), ("p_bao", "dn_p_bao")):
            row = {t("col_seat"): t(key)}
            for policy in POLICIES:
                r = seats[seats["policy"] == policy].iloc[0]
                row[f"{policy} · {t('col_mean')}"] = ""
                row[f"{policy} · {t('dn_p_win')}"] = fmt_ci(
                    r[f"{pre}{stat}"], r[f"{pre}{stat}_low"], r[f"{pre}{stat}_high"],
                    "probability")
            rows.append(row)
        page.p(t("dn_seat_table", preset=name))
        page.table(pd.DataFrame(rows))


def blocks(data: DingniuData, lang: str) -> list[Block]:
    """The section's part of the page: seats, the ladder and open hands under both presets;
    n, seeds, commands."""
    page = Page(T, lang)
    t, n, s = page.t, sizes(data.spec.hands), data.seeds
    page.h2(t("sec_dingniu"), "dingniu")
    page.p(t("intro_dingniu"))
    page.p(t("glossary"))
    page.add("ul", [t(k) for k in GLOSSARY])
    page.figure("dingniu", t("sec_dingniu"))
    page.p(t("dn_caption", hands=f"{n['hands']:,}", deals=f"{n['deals']:,}",
             pimc=f"{n['pimc']:,}", open=f"{n['open']:,}",
             seeds=" / ".join(str(s[p]) for p in PARTS), seed=data.spec.seed))
    page.p(t("caption_cmd"))
    page.code(commands(data.spec, s))
    _seat_table(page, data.tables["dingniu_seats"])
    ladder = data.tables["dingniu_ladder"]
    enough = ladder["n_deals"].map(enough_deals)
    page.table(pd.DataFrame([{t("dn_rules"): r["rules"], t("col_match"): f"{r['a']} − {r['b']}",
                              t("col_diff"): fmt_ci(r["diff"], r["ci_low"], r["ci_high"]),
                              t("col_deals"): f"{int(r['n_deals']):,}"}
                             for _, r in ladder[enough].iterrows()]),
               [f"{r['rules']} · {r['a']} − {r['b']}" for _, r in ladder[~enough].iterrows()])
    page.skill_table([({t("dn_rules"): r["rules"], t("col_match"): f"{r['a']} − {r['b']}"}, r,
                       r["n_deals"])
                      for _, r in ladder[enough].iterrows()])
    page.p(t("intro_dn_open", moves=OPEN_MOVES))
    page.table(pd.DataFrame([{
        t("dn_rules"): r["rules"], t("col_seat"): t(SEAT_KEYS[int(r["seat"])]),
        **{head: fmt_cell(r[v], r[f"{c}_low"], r[f"{c}_high"], r["n"]) for head, v, c in (
            (t("dn_heuristic"), "heuristic", "heuristic"), ("pimc", "pimc", "pimc"),
            (t("dn_open"), "open_hands", "open"), (t("dn_gap"), "difference", "diff"),
            (t("dn_gap_pimc"), "pimc_difference", "pimc_diff"))}}
        for _, r in data.tables["dingniu_open"].iterrows()]))
    _search_table(page, data.tables["dingniu_search"])
    page.csv(*TABLES)
    return page.blocks


class DingniuSection:
    """顶牛 in the report, both presets side by side: seats by policy, P(算帐), P(包庄), the
    duplicate ladder, and open hands against the heuristic and pimc."""

    key = KEY
    labels = T
    options: dict[str, Any] = {}
    outputs = (*TABLES, "dingniu")

    def title(self, lang: str) -> str:
        return T("sec_dingniu", lang)

    def check(self, spec: ReportSpec) -> None:
        pass  # 顶牛 plays both its presets and every policy; the section has no options

    def plays(self, hands: int) -> dict[str, int]:
        """Hands or deals of each analysis at ``--hands`` (analyzer/report/sizes.py)."""
        return dict(sizes(hands))

    def steps(self, spec: ReportSpec) -> int:
        return 1 + 3 * len(RULE_NAMES)

    def run(self, spec: ReportSpec, root: np.random.SeedSequence,
            progress: StepFn) -> DingniuData:
        s = seeds(spec, root)
        return DingniuData(spec, s, section_tables(spec, s, progress))

    def tables(self, data: DingniuData) -> dict[str, pd.DataFrame]:
        return data.tables

    def figures(self, data: DingniuData, lang: str) -> dict[str, Figure]:
        return {"dingniu": figure(data, lang)}

    def findings(self, data: DingniuData, lang: str) -> list[Finding]:
        """The opening's 顶牛 line: the leading seat's edge under :data:`PLAYER` (seed
        rules)."""
        seats = data.tables["dingniu_seats"]
        row = seats[(seats["policy"] == PLAYER) & (seats["seat"] == 0)].iloc[0]
        est = {"value": float(row["points"]), "low": float(row["points_low"]),
               "high": float(row["points_high"]), "n": int(row["n"])}
        found = data.tables["dingniu_search"]
        lead = found[(found["rules"] == RULE_NAMES[0]) & (found["seat"] == 0)].iloc[0]
        other = {"value": float(lead["search_value"]), "low": float(lead["search_low"]),
                 "high": float(lead["search_high"]), "n": int(lead["n"])}
        return [Finding(T("fd_dn_lead", lang, preset=RULE_NAMES[0], seat=SEAT_NAMES[0]), est,
                        "dingniu", PLAYER, unit=T("points", lang), other=other,
                        other_policy=SEARCH)]

    def blocks(self, data: DingniuData, lang: str) -> list[Block]:
        return blocks(data, lang)


SECTION = DingniuSection()
