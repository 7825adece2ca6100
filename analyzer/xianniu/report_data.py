"""What 兰州掀牛's report section and its figures share: the section's words, its plan
(sizes, seeds and commands of every analysis) and the data it hands to the figures.

Kept apart from :mod:`.report` (which runs the analyses) and :mod:`.plots` (which draws
them), so that neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..report.labels import SHARED, Labels
from ..report.section import ReportSpec, seed_sequence
from .analysis import PATTERN_NAMES
from .cards import RANKS
from .ladder import MATCHES, RUNGS, ladder_sizes, rung_commands, timing_sizes
from .ladder import TEXT as LADDER_TEXT
from .rules import PRESETS
from .sensitivity import SEARCH_POLICY, other_policy, search_sizes
from .sensitivity import TEXT as SENSITIVITY_TEXT

KEY = "xianniu"
PRESET_ORDER = ("lanzhou", "kanniutui")
RULE_CHOICES = ("all",) + PRESET_ORDER
# (appended ones spawn later seeds: the earlier analyses keep theirs)
ANALYSES = ("odds", "play", "values", "xian", "ladder", "pimc", "timing", "sensitivity",
            "search")
REPEATED = ("values", "play", "xian")  # what sensitivity measures again under another policy
PATTERN_IDS = ["niu", "xi", "K"] + [f"liang_{r}" for r in RANKS]
ODDS_FEATURES = ("niu", "xi", "liang", "long_feng", "eight_pairs", "fish", "bai")
assert len(PATTERN_IDS) == len(PATTERN_NAMES)
assert set(PRESET_ORDER) == set(PRESETS)

# the opening findings (analyzer.xianniu.findings)
FINDING_TEXT: dict[str, tuple[str, str]] = {
    "fd_banker": ("{preset}：头家每局平均多得", "{preset}: the banker gains per hand"),
    "fd_p_ci": ("{preset}：一局里有人被刺的概率", "{preset}: the chance of a ci in a hand"),
    "fd_value": ("{preset}：手里有{what}，每局多得", "{preset}: holding {what} is worth per hand"),
    "fd_liang_best": ("{preset}：最值钱的亮子是 {rank}，每局多得",
                      "{preset}: the most valuable liang is of {rank}s, per hand"),
    "fd_liang_worst": ("{preset}：最不值钱的亮子是 {rank}，每局多得",
                       "{preset}: the least valuable liang is of {rank}s, per hand"),
    "fd_xian_pays": ("{preset}：被扣时有 {sure} 张稳牌、{k} 张 K 起，掀比扣每局多得",
                     "{preset}: asked to kou, xian pays from {sure} sure cards and {k} K, by"),
    "fd_xian_never": ("{preset}：被扣时没有哪一格掀确定胜过扣；最好的一格（{sure} 张稳牌、{k} 张 K）",
                      "{preset}: no cell where xian surely beats kou; the best ({sure} sure cards, "
                      "{k} K)"),
    "fd_fairer": ("{fair}比{other}公平：头家优势小了",
                  "{fair} is fairer than {other}: the banker's edge is smaller by"),
    "fd_fairer_tie": ("两种规则哪一种更公平还分不出：{fair}的头家优势比{other}小了",
                      "neither preset is surely fairer: the banker's edge under {fair} is "
                      "smaller than under {other} by"),
}



TEXT: dict[str, tuple[str, str]] = {
    "game": ("掀牛", "xianniu"),
    "settings": ("规则：{rules}；每项分析 {hands} 局（{pimc}）；策略：{policy}；种子：{seed}。",
                 "Rules: {rules}; {hands} hands per analysis ({pimc}); policy: {policy}; "
                 "seed: {seed}."),
    "pimc_deals": ("pimc 对局 {n} 副牌", "{n} deals for pimc"),
    "pimc_not_played": ("pimc 对局不足 {k} 副牌，本次未打；--full 按每 {share} 局打一副",
                        "pimc's rungs, under {k} deals at this size, not played; --full plays "
                        "one deal per {share} hands"),
    "only_one_preset": ("只算了一种规则；用 --rules all 可并列比较两种规则。",
                        "Only one preset was run; --rules all puts both side by side."),
    "per_preset": ("每种规则 {n}", "{n} per preset"),
    "lanzhou": ("兰州掀牛", "lanzhou"),
    "kanniutui": ("砍牛腿", "kanniutui"),
    "diff_presets": ("砍牛腿 − 兰州掀牛", "kanniutui − lanzhou"),
    "step_run": ("{preset}：{what}（{n}）", "{preset}: {what} ({n})"),
    # sections
    "sec_rules": ("规则摘要", "Rules summary"),
    "sec_odds": ("发牌的精确概率", "Exact deal odds"),
    "sec_captured": ("刺的概率与占牌分布", "P(ci) and the captured cards"),
    "sec_values": ("牛、喜、亮子与 K 的价值", "Value of niu, xi, each liang and K"),
    "sec_kcount": ("按 K 的张数的平均得分", "Mean points by number of K"),
    "sec_xian": ("掀的期望：按牌力的热图", "EV of xian by hand strength"),
    "sec_banker": ("庄家优势", "Banker advantage"),
    "sec_compare": ("兰州掀牛与砍牛腿对照", "lanzhou and kanniutui side by side"),
    "sec_ladder": ("策略阶梯", "Policy ladder"),
    "intro_rules": ("两种规则不同之处，取自 analyzer/xianniu/rules.py 中的规则数据；完整规则见 "
                    "docs/rules/xianniu.md。",
                    "Where the two presets differ, read from the rule data in "
                    "analyzer/xianniu/rules.py; docs/rules/xianniu.md has the full rules."),
    "intro_odds": ("一家 16 张牌中含各牌型的精确概率（用二项式系数计数），旁列内核发牌的蒙特卡洛"
                   "估计与其 95% 置信区间，作为核对。",
                   "Exact probability that one seat's 16 cards hold each pattern (counted with "
                   "binomial coefficients), beside a Monte Carlo estimate from the kernels' deals "
                   "with its 95% CI, as a check."),
    "odds_misses": ("{rows} 个精确值中有 {misses} 个落在其 95% 置信区间之外。单凭偶然，每个区间有 "
                    "5% 的机会落空：平均 {expected} 个，95% 的报告在 {low}–{high} 个之间（二项"
                    "分布 B({rows}, 0.05)）。",
                    "{misses} of {rows} exact values fall outside their 95% CI. Chance alone "
                    "misses 5% of intervals: {expected} on average, {low}–{high} in 95% of "
                    "reports (binomial B({rows}, 0.05))."),
    "intro_captured": ("每局各家占牌张数的分布：占满 6 张为够，11 张及以上为刺。",
                       "Cards each seat captures per hand: 6 or more is gou (enough), 11 or more "
                       "is ci."),
    "intro_values": ("反事实比较：同一副牌只用一次换牌做成或拆掉该牌型，其余不变，两种情形用同一"
                     "随机流打完；差值就是该牌型每局值多少分。观察差值（有与无该牌型的平均分之差）"
                     "在表中与 CSV 里。",
                     "Counterfactual: on the same deal one swap with another seat makes or breaks "
                     "the pattern, everything else stays, and both versions are played from one "
                     "random stream; the difference is what the pattern is worth per hand. The "
                     "observed difference (mean points with minus without) is in the table and "
                     "the CSV."),
    "intro_kcount": ("按手中 K（天）的张数统计的每局平均得分（观察值）。",
                     "Mean points per hand by the number of K held (observational)."),
    "intro_xian": ("庄家开局扣牌后，二家掀与扣的得分差（同一副牌、同一随机流），按稳牌张数与 K 的"
                   "张数分格；正值表示掀更好。稳牌：成组的整点牌，以及外面的牌压不住的牛或喜。"
                   "样本少于 {min_n} 的格子留空。",
                   "After the banker's opening kou, seat 1's points after xian minus after kou "
                   "(same deal, same random stream), by sure cards and number of K; positive "
                   "means xian pays. Sure cards: cards in whole-rank groups, and niu or xi that "
                   "no card outside the hand can beat. Cells with fewer than {min_n} positions "
                   "are left blank."),
    "intro_banker": ("庄家（0 号位）与二家、三家每局的平均得分；三家得分之和为零。",
                     "Mean points per hand of the banker (seat 0), seat 1 and seat 2; the three "
                     "always sum to zero."),
    "intro_compare": ("两种规则的主要数字并列；差值（砍牛腿 − 兰州掀牛）的置信区间按两次独立运行"
                      "计算。",
                      "Headline numbers of both presets side by side; the difference (kanniutui "
                      "− lanzhou) has its CI from the two independent runs."),
    "compare_caption": ("区间均为 95% 置信区间；每行的样本量 n 在表中，其种子与单项命令见上面各节"
                        "和 compare.csv（由 --seed {seed} 派生）。重现：",
                        "Intervals are 95% CIs; each row's sample size n is in the table, its "
                        "seed and command in the sections above and in compare.csv (spawned from "
                        "--seed {seed}). Regenerate:"),
    "intro_ladder": ("复式对局：每副牌按所有座次各打一遍，牌运相互抵消；差值为每局平均得分之差。"
                     "相邻两级在同一批牌上比较。tuned 是按规则调好参数的 heuristic；heuristic2 把"
                     "四张 9（5）当两个牛（喜）打；tuned2 是用调好参数的 heuristic2；pimc 每次决策"
                     "抽样 {samples} 副暗牌，用 heuristic 打完；pimc2 用 heuristic2 打完，每次决策共"
                     " 512 次推演；learned 是从 pimc 的自我对局学来的线性打分器；net 是从"
                     "自我对局（深度蒙特卡洛）学来的动作价值网络；pimc-net 用 net 打完，每次决策共 "
                     "128 次推演，是最强的一级。",
                     "Duplicate tournaments: every deal is played with every seating, so the luck "
                     "of the deal cancels; the difference is in points per hand. Neighbouring "
                     "rungs meet on the same deals. tuned is the heuristic with its preset's tuned "
                     "weights; heuristic2 plays four 9s (5s) as two niu (xi); tuned2 is "
                     "heuristic2 on the tuned weights; pimc samples "
                     "{samples} hidden deals per decision and plays them out with the heuristic; "
                     "pimc2 plays them out with heuristic2, 512 play-outs per decision; learned "
                     "is a linear scorer distilled from pimc's self-play; net is an action-value "
                     "network trained by self-play (deep Monte Carlo); pimc-net plays them out "
                     "with net, 128 play-outs per decision, the top rung."),
    # rules summary
    "col_rule": ("规则", "rule"),
    "rule_title": ("名称", "name"),
    "rule_deal": ("牌与座位", "cards and seats"),
    "rule_deal_v": ("48 张（无 4，无王），三家各 16 张", "48 cards (no 4s, no jokers), 16 each"),
    "rule_gou": ("够", "gou (enough)"),
    "rule_gou_v": ("占牌 ≥ {n} 张", "captured ≥ {n}"),
    "rule_ci": ("刺", "ci"),
    "rule_ci_v": ("占牌 ≥ {n} 张，刺分 = 张数 − {off}", "captured ≥ {n}; ci points = n − {off}"),
    "rule_xian_points": ("掀分", "xian points"),
    "rule_xian_points_v": ("每次 {n} 分", "{n} per event"),
    "rule_xian_needs_target_gou": ("掀分只在被掀者够时支付", "xian points only to a gou target"),
    "rule_liang_points": ("亮分", "liang points"),
    "rule_liang_points_v": ("每个亮子 {n} 分", "{n} per four of a kind"),
    "rule_bao_ci_doubles": ("掀后刺", "ci after xian"),
    "rule_bao_ci_double": ("最后掀者付双倍", "last xian-er pays double"),
    "rule_bao_ci_cover": ("最后掀者包另一输家（包刺）", "last xian-er covers the other loser"),
    "rule_ci_unit_drops_liang": ("刺家单位分不计亮", "a ci winner's unit drops liang"),
    "rule_set_order": ("多张的大小", "order of multi-card sets"),
    "rule_set_order_usual": ("通常顺序", "usual order"),
    "rule_set_order_kan": ("A < 2 < 5 < 3 = 6 < 7 …", "A < 2 < 5 < 3 = 6 < 7 …"),
    "rule_no_beat_36": ("3 与 6 不能互吃", "3 and 6 cannot beat each other"),
    "rule_fish_bai": ("鱼、摆最多几组", "fish and bai: most sets"),
    "rule_k_bai": ("K 摆（KK+10+8）", "K-bai (KK+10+8)"),
    "rule_xi_bao_liang": ("喜包亮", "xi wrapping a liang"),
    "rule_qiangci": ("抢刺", "grabbing the ci"),
    "rule_qiangci_must": ("必须", "mandatory"),
    "rule_qiangci_may": ("可选", "optional"),
    "rule_eight_pairs_colour": ("八大对中 9、5 须同色成对", "eight pairs: 9s and 5s pair by colour"),
    "rule_tighten": ("紧牌", "tighten"),
    "rule_tighten_v": ("桌面 ≥ {n} 张时可紧", "when the table holds ≥ {n}"),
    "rule_tighten_holder": ("紧牌者自己也扔牌", "the caller of tighten discards too"),
    "rule_kkk": ("KKK 与 K+10+8 同归一家算亮", "KKK and K+10+8 by one seat count as liang"),
    "g_xian": ("掀：不同意扣，逼出牌者继续出牌", "xian 掀: refuse a kou and make the lead holder lead"),
    "g_kou": ("扣：要求结束本局", "kou 扣: ask to end the hand"),
    "g_gou": ("够：占牌 6 张以上，不输分", "gou 够: 6+ captured cards, never pays"),
    "g_ci": ("刺：占牌 11 张以上", "ci 刺: 11+ captured cards"),
    "g_niu": ("牛：红黑搭配的 9", "niu 牛: a black and a red 9 together"),
    "g_xi": ("喜：红黑搭配的 5", "xi 喜: a black and a red 5 together"),
    "g_liang": ("亮子：四张同点", "liang 亮子: four of a kind"),
    "g_banker": ("庄家（头家）：0 号位，先出牌", "banker 庄家 (头家): seat 0, leads first"),
    "g_k": ("K：又叫天", "K: called 天 tian (heaven)"),
    "g_sure": ("稳牌：成组的整点牌，以及外面的牌压不住的牛或喜",
               "sure cards 稳牌: cards in whole-rank groups, and a niu or xi that no card "
               "outside the hand can beat"),
    "g_k_from": ("“n 张 K 起”：手中至少 n 张 K",
                 "“from n K” (n 张 K 起): holding n K or more"),
    "g_banker_games": ("庄家在三种游戏里指的不是同一家：掀牛是 0 号位；顶牛没有庄家座位，"
                       "大庄、二庄、小庄是按扣下点数排的输家；双升是本局坐庄、拿底的一家",
                       "the banker 庄家 is a different seat in each game: in xianniu seat 0; "
                       "dingniu has no banker seat, its 大庄, 二庄, 小庄 are the losers by "
                       "扣 pips; in shengji the seat that holds the bank this hand and takes "
                       "the kitty"),
    # patterns and features
    "niu": ("牛", "niu"),
    "xi": ("喜", "xi"),
    "K": ("多一张 K", "one more K"),
    "liang": ("{rank} 亮子", "liang {rank}"),
    "liang_any": ("亮子", "liang"),
    "long_feng": ("龙凤", "long-feng"),
    "eight_pairs": ("八大对", "eight pairs"),
    "fish": ("鱼", "fish"),
    "bai": ("摆", "bai"),
    "k_count": ("{k} 张 K", "{k} K"),
    "n_k": ("K 的张数", "number of K"),
    "sure_cards": ("稳牌张数", "sure cards"),
    # columns and statistics
    "col_feature": ("牌型", "pattern"),
    "col_exact": ("精确概率", "exact"),
    "col_mc": ("蒙特卡洛估计 [95% 置信区间]", "Monte Carlo [95% CI]"),
    "col_cf": ("反事实差值", "counterfactual value"),
    "col_obs": ("观察差值", "observed difference"),
    "col_metric": ("指标", "metric"),
    "seat0": ("庄家（0）", "banker (0)"),
    "seat1": ("二家（1）", "seat 1"),
    "seat2": ("三家（2）", "seat 2"),
    "mean_points": ("平均得分", "mean points"),
    "p_gou": ("P(够)", "P(gou)"),
    "p_ci": ("P(刺)", "P(ci)"),
    "p_ci_any_seat": ("P(刺)，任一家", "P(ci), any seat"),
    "mean_xian": ("每局掀的次数", "xian events per hand"),
    "p_qiangci": ("P(抢刺)", "P(grab the ci)"),
    "banker_points": ("庄家每局得分", "banker's points per hand"),
    "xian_minus_kou_pts": ("掀 − 扣（分/局）", "xian − kou (points per hand)"),
    "xian_overall": ("掀 − 扣（二家，庄家开局扣）", "xian − kou (seat 1, banker's opening kou)"),
    "value_niu": ("牛的价值", "value of niu"),
    "value_xi": ("喜的价值", "value of xi"),
    "value_K": ("多一张 K 的价值", "value of one more K"),
    **{f"{a}_{b}": (f"{a} − {b}", f"{a} − {b}") for a, b in MATCHES},
    "search_rungs": ("搜索型策略的阶梯", "the search players' rungs"),
    "captured_cards": ("占牌张数", "captured cards"),
    "share_of_hands": ("局数占比", "share of hands"),
    "value_pts": ("价值（分/局）", "value (points per hand)"),
    "edge_pts": ("优势（分/局）", "edge (points per hand)"),
    "odds_log": ("概率（对数坐标）", "probability (log scale)"),
    "exact_bar": ("精确值", "exact"),
    "mc_dot": ("蒙特卡洛 ± 95% 置信区间", "Monte Carlo ± 95% CI"),
    **LADDER_TEXT,
    **SENSITIVITY_TEXT,
    **FINDING_TEXT,
}
T = Labels(TEXT, base=SHARED)



class Plan:
    """Sizes, seeds and commands of the section's analyses under one spec. The seeds spawn
    from ``root`` (default: the section's root for ``spec.seed``), the same whatever
    ``rules`` selects."""

    def __init__(self, spec: ReportSpec, root: np.random.SeedSequence | None = None):
        self.spec = spec
        root = root if root is not None else seed_sequence(spec.seed, KEY)
        children = root.spawn(len(ANALYSES) * len(PRESET_ORDER))
        self.seeds = {(a, p): int(children[i * len(PRESET_ORDER) + j].generate_state(1)[0])
                      for i, a in enumerate(ANALYSES) for j, p in enumerate(PRESET_ORDER)}

    @property
    def presets(self) -> tuple[str, ...]:
        return PRESET_ORDER if self.spec.option(KEY, "rules") == "all" else (self.spec.option(KEY, "rules"),)

    @property
    def pimc_deals(self) -> int:
        return ladder_sizes(self.spec.hands)["pimc"]

    def n(self, analysis: str) -> int:
        """Deals (or hands) that ``analysis`` plays (``timing``: hands a round, fast
        policies)."""
        if analysis == "timing":
            return timing_sizes(self.spec.hands)[0]
        if analysis == "search":
            return self.search_sizes["play"]
        if analysis in RUNGS:
            return ladder_sizes(self.spec.hands)[analysis]
        return int(self.spec.hands)

    @property
    def search_sizes(self) -> dict[str, int]:
        """Hands (``play``) and deals (``values``, ``xian``) of the search player's runs."""
        return search_sizes(int(self.spec.hands))

    def search_label(self, lang: str) -> str:
        """The sizes of the search player's runs, in words."""
        n = self.search_sizes
        if not n["values"]:
            return f"{n['play']:,} {T('unit_hands', lang)}"
        return T("step_search_n", lang, **{k: f"{v:,}" for k, v in n.items()})

    def commands(self, what: str, preset: str) -> list[str]:
        """Every command of one analysis: one per rung for the ladder's, else one."""
        if what in RUNGS:
            deals = self.n(what)
            return (rung_commands(what, deals, preset, self.seed_for(what, preset)) if deals
                    else [])
        if what == "sensitivity":
            return [self.command(a, preset, other_policy(self.spec.option(KEY, "policy"))) for a in REPEATED]
        if what == "search":
            n = self.search_sizes
            return [self.command("search", preset),
                    *(f"xianniu stats {a} --deals {n[a]} --rules {preset} --policy "
                      f"{SEARCH_POLICY} --seed {self.seed_for(a, preset)}"
                      for a in ("values", "xian") if n[a])]
        return [self.command(what, preset)]

    def seed_for(self, analysis: str, preset: str) -> int:
        """The seed of one analysis of one preset."""
        return self.seeds[analysis, preset]

    def command(self, what: str, preset: str, policy: str | None = None) -> str:
        """The ``xianniu`` command that reproduces one analysis alone (``what``: an analysis,
        or ``banker`` for the banker's share of ``play``), under ``policy`` (default
        ``--policy``)."""
        a = "play" if what == "banker" else what
        n, s, p = self.n(a), self.seed_for(a, preset), policy or self.spec.option(KEY, "policy")
        return {
            "odds": f"xianniu odds --rules {preset} --deals {n} --seed {s}",
            "play": f"xianniu simulate --hands {n} --rules {preset} --policy {p} --seed {s} "
                    f"--format json",
            "search": f"xianniu simulate --hands {n} --rules {preset} --policy "
                      f"{SEARCH_POLICY} --seed {s} --format json",
            "banker": f"xianniu stats banker --hands {n} --rules {preset} --policy {p} "
                      f"--seed {s}",
            "values": f"xianniu stats values --hands {n} --rules {preset} --policy {p} "
                      f"--seed {s}",
            "xian": f"xianniu stats xian --hands {n} --rules {preset} --policy {p} --seed {s}",
            "ladder": rung_commands("ladder", n, preset, s)[0],
            "pimc": rung_commands("pimc", n, preset, s)[0],
            "timing": (f"python -c \"from analyzer.xianniu.ladder import time_policies; "
                       f"print(time_policies({self.spec.hands}, '{preset}', {s}))\""),
        }[what]


@dataclass
class XianniuData:
    """The section's tables (each written as ``NAME.csv``), per-preset extras, its plan."""

    plan: Plan
    tables: dict[str, pd.DataFrame]
    meta: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def spec(self) -> ReportSpec:
        return self.plan.spec


# headline metric: (analysis it comes from, unit)
COMPARE_SOURCES = {"banker_points": ("play", "points"), "p_ci_any_seat": ("play", "probability"),
                   "p_qiangci": ("play", "probability"), "mean_xian": ("play", "count"),
                   "xian_overall": ("xian", "points"), "value_niu": ("values", "points"),
                   "value_xi": ("values", "points"), "value_K": ("values", "points"),
                   "heuristic_random": ("ladder", "points"),
                   "pimc_tuned2": ("pimc", "points")}
COMPARE_METRICS = tuple(COMPARE_SOURCES)

# the 掀牛 terms the report defines, in the order it lists them (docs/guides/xianniu.md too)
GLOSSARY = ("g_xian", "g_kou", "g_gou", "g_ci", "g_niu", "g_xi", "g_liang", "g_banker", "g_k",
            "g_sure", "g_k_from", "g_banker_games")
