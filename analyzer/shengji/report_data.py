"""What 郑州双升's report section (:mod:`.report`) and its figures (:mod:`.plots`) share: the
parts and their sizes, seeds and commands, the section's words in both languages, and the
data a run leaves (:class:`ShengjiData`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..report.formats import played_deals
from ..report.labels import SHARED, Labels
from ..report.section import MIN_HANDS, ReportSpec, seed_sequence
from .rules import PRESETS, get_rules

KEY = "shengji"
RULE_NAMES = tuple(PRESETS)  # zhengzhou (the default) and classic, side by side
# New parts go last: each part's seed is the root's child at the part's index.
PARTS = ("odds", "outcomes", "banker", "values", "rule_effect", "ladder", "pimc",
         "kou_random", "tuned", "bury", "declare", "kou_net", "net", "pimc2", "kou_pimc2",
         "net_heuristic")
LADDERS = {"ladder": "heuristic,random", "tuned": "tuned,heuristic", "pimc": "pimc,heuristic",
           "net": "net,tuned", "pimc2": "pimc2,pimc",
           "net_heuristic": "net,heuristic"}  # the strongest fast player against the plain one
STUDIES = ("bury", "declare")
# 抠底 again with every seat on another policy: random (the kitty often holds points), net
# (the strong fast player) and pimc2 (the strongest, on few hands: seconds a hand).
KOU_PARTS = {"kou_random": "random", "kou_net": "net", "kou_pimc2": "pimc2"}
HAND_PARTS = ("outcomes", *KOU_PARTS)  # sized in whole hands; the others in deals
PART_WHAT = {"odds": "sj_step_odds", "outcomes": "sj_step_outcomes",
             "kou_random": "sj_step_kou_random", "banker": "sj_step_banker",
             "values": "sj_step_values", "rule_effect": "sj_step_rules",
             "ladder": "sj_step_ladder", "tuned": "sj_step_tuned", "pimc": "sj_step_pimc",
             "bury": "sj_step_bury", "declare": "sj_step_declare",
             "kou_net": "sj_step_kou_net", "net": "sj_step_net", "pimc2": "sj_step_pimc2",
             "kou_pimc2": "sj_step_kou_pimc2", "net_heuristic": "sj_step_net_heuristic"}
assert set(PART_WHAT) == set(PARTS)
STUDY_SAMPLES = 64  # deals per hand of the bury and declaring studies
ODDS_LEVEL = 2
BY_LEVEL = ("2", "5", "10", "K", "A")
KERNEL_POLICIES = ("random", "heuristic", "tuned", "net")  # every seat; pimc is too slow here
TABLES = ("shengji_odds", "shengji_kou_di", "shengji_points", "shengji_levels",
          "shengji_banker", "shengji_values", "shengji_rule_effect", "shengji_ladder",
          "shengji_bury", "shengji_declare")
FIGURES = ("shengji_outcomes", "shengji_banker", "shengji_values", "shengji_decisions")
assert RULE_NAMES[0] == get_rules().name

TEXT: dict[str, tuple[str, str]] = {
    "sec_shengji": ("郑州双升", "zhengzhou shengji (shuang sheng)"),
    "fd_sj_holds": ("{preset}：庄家一方保住庄（两队都打 2）的概率",
                    "Shengji ({preset}): the banker's side keeps the bank (both teams at 2)"),
    "fd_sj_last": ("{preset}：抓分方拿到最后一墩（抠底）的概率",
                   "Shengji ({preset}): the attackers take the last trick (kou di)"),
    "step_part": ("双升（{preset}）：{what}（{n}）", "shengji ({preset}): {what} ({n})"),
    "sj_step_odds": ("发牌的精确概率", "exact deal odds"),
    "sj_step_outcomes": ("整局统计", "whole hands"),
    "sj_step_kou_random": ("随机座位的抠底", "kou di with random seats"),
    "sj_step_kou_net": ("net 座位的抠底", "kou di with net seats"),
    "sj_step_kou_pimc2": ("pimc2 座位的抠底", "kou di with pimc2 seats"),
    "sj_step_banker": ("按级别的庄家方", "the banker side by level"),
    "sj_step_values": ("对王、级牌与主牌的价值", "what jokers, level cards and trumps are worth"),
    "sj_step_rules": ("扒鸡窝与造反开与关", "ba ji wo and zao fan on and off"),
    "sj_step_ladder": ("策略阶梯：heuristic − random", "ladder: heuristic − random"),
    "sj_step_tuned": ("策略阶梯：tuned − heuristic", "ladder: tuned − heuristic"),
    "sj_step_pimc": ("策略阶梯：pimc − heuristic", "ladder: pimc − heuristic"),
    "sj_step_net": ("策略阶梯：net − tuned", "ladder: net − tuned"),
    "sj_step_pimc2": ("策略阶梯：pimc2 − pimc", "ladder: pimc2 − pimc"),
    "sj_step_net_heuristic": ("策略阶梯：net − heuristic", "ladder: net − heuristic"),
    "sj_step_bury": ("扣底研究", "the bury study"),
    "sj_step_declare": ("亮主研究", "the declaring study"),
    "intro_shengji": (
        "双升是四人两队、两副牌 108 张的升级游戏：每人 25 张，底牌 8 张；规则与未定之处见 "
        "docs/rules/shengji.md。两种规则并列：zhengzhou（郑州双升：亮主须带同色王、"
        "造反、扒鸡窝、抠底按对数翻倍）与 classic（常见的拖拉机：无造反、无扒鸡窝、抠底按张数"
        "翻倍、闲家一次最多升 3 级），两者用同样的牌与种子。每局都是从发牌开始的整局（造反、"
        "亮主、扣底、扒鸡窝、出牌），两队都在 L 级（默认 2），座位 0 先坐庄；除策略阶梯外四家"
        "都用 {policy} 策略。",
        "shengji is a four-player, two-team climbing game with two decks (108 cards): 25 "
        "cards each and an 8-card kitty; docs/rules/shengji.md has the rules and their readings. Two presets side by side, on the same deals and seeds: "
        "zhengzhou (a level card declares only beside its joker, zao fan redeals, ba ji wo "
        "kitty swaps, kitty capture doubles per pair) and classic (the common tuolaji: no "
        "zao fan, no ba ji wo, kitty capture doubles per card, attackers gain at most 3 levels a "
        "hand). Every hand is a whole hand from the deal (zao fan, declaring, the bury, ba ji wo, "
        "the play), both teams at level L (2 unless stated), seat 0 the banker going in; "
        "every seat plays the {policy} policy except in the ladder."),
    "sj_per_preset": ("每种规则 {n}", "{n} per preset"),
    "sj_colon": ("：", ": "),
    "sj_h_odds": ("发牌的精确概率（一家 25 张，{level} 级）", "Exact deal odds (one seat's 25 "
                  "cards, level {level})"),
    "sj_odds_text": ("精确值由计数得到，旁列内核发牌的蒙特卡洛估计与 95% 置信区间作为核对。",
                     "Exact by counting, beside a Monte Carlo estimate from the kernels' deals "
                     "with its 95% CI, as a check."),
    "sj_h_kou": ("抠底：概率与按倍数的价值", "Kitty capture (kou di): how often, and its value "
                 "by multiplier"),
    "sj_kou_text": ("闲家赢最后一墩即抠底，底牌分乘以倍数加给闲家。启发式策略扣底几乎从不扣分牌，"
                    "它的抠底几乎不加分；下表另列四家都随机出牌（底牌常有分）、四家都用 net（更强的快速打法）和四家都用 pimc2（最强的打法；每局要几秒，只在 --hands 够打 200 局时才打）的结果。"
                    "“庄家方因抠底少升的级”为同一局去掉抠底所加分数后庄家方的级数差；"
                    "“因抠底丢庄”为本可守庄、因抠底而下台的局。",
                    "The attackers capture the kitty when they win the last trick: the kitty's "
                    "points times the multiplier go to them. The heuristic almost never buries "
                    "a point card, so its kitty captures add almost nothing; the tables also "
                    "show every seat random (its kitty often holds points), every seat on "
                    "net (the strong fast player) and every seat on pimc2 (the strongest; "
                    "seconds a hand, so played only where --hands gives it 200 hands). "
                    "\"Banker levels "
                    "lost\" is the banker side's level swing as played less the swing of the "
                    "same hand without the added points; \"bank lost\" counts hands the banker "
                    "side would have held without them."),
    "sj_h_dist": ("闲家得分与升级的分布", "Attackers' points and level changes"),
    "sj_h_banker": ("庄家方优势：按级别与主的种类", "The banker side's advantage by level and "
                    "trump kind"),
    "sj_banker_text": ("两队都在 L 级，各级别用同样的牌；“无主”为打无主的局（对王亮主或翻底翻到王）。"
                       "级数差：庄家方守庄所升的级，或减去闲家所升的级。",
                       "Both teams at level L, the same deals at every level; NT hands are those "
                       "played without a trump suit (a joker pair declared, or a joker drawn "
                       "from the kitty). Level swing: levels the banker side gains, or minus "
                       "the levels the attackers gain."),
    "sj_h_values": ("对王、级牌与主牌的价值（反事实，同一副牌换一张）",
                    "What a joker pair, a level card and a trump are worth (counterfactual, one "
                    "swap on the same deal)"),
    "sj_values_text": ("每副牌先照发的牌打一局，再在随机一家手中用一次与他家的换牌做成（或拆散）该"
                       "牌型，从同一随机流重打；差值为该家所在队“有 − 无”的级数差与闲家得分（坐庄"
                       "时计负）。主与级牌按原局最终的主与级别；换出的是一张副牌。",
                       "Each deal is played as dealt, then again from the same stream after one "
                       "swap with another seat makes (or breaks) the pattern in a random seat's "
                       "hand; the difference is the seat's team's level swing and net attackers' "
                       "points (negative when it banks), with − without. Trump and level are "
                       "those the hand as dealt ended with; the card given away is a plain one."),
    "sj_h_rules": ("扒鸡窝与造反改变了多少（同一副牌，规则开与关）",
                   "How much ba ji wo and zao fan change (the same deals, the rule on and off)"),
    "sj_rules_text": ("同一副牌、同一随机流各打一次规则开与关，其余规则不变；差值为配对差。",
                      "Each deal is played with the rule on and with it off from the same "
                      "stream, the rest of the preset unchanged; differences are paired."),
    "sj_h_ladder": ("策略阶梯（两队复式：换边再打同一副牌）", "Policy ladder (team duplicate: "
                    "each deal again with the teams swapped)"),
    "sj_decision_note": ("造反与甩牌的决策查询（xianniu shengji should-rebel、should-throw）逐手"
                         "作答，不在本报告中列表。",
                         "The zao fan and throw decision queries (xianniu shengji should-rebel, "
                         "should-throw) answer one hand at a time; they are not tabulated in "
                         "this report."),
    "sj_ladder_text": ("tuned 为启发式策略按本规则调整的参数（scripts/train/shengji_tune.py：CE 方法，"
                       "复式自对局；参数及另打的牌上的结果见 analyzer/shengji/tuned.json）；net 为 "
                       "tuned 加一个自对局训练的小网络挑选出牌与跟牌。pimc（每次决策抽 16 副暗牌）与 "
                       "pimc2（从 net 的选择出发，抽 128 副）较慢，本节只在够打 {k} 副牌时才打（--hands ≥ "
                       "{hands}）；另用命令 xianniu "
                       "shengji tournament --policies pimc,heuristic --deals 1000 --rules R --seed 1 "
                       "打 1,000 副牌：zhengzhou +0.150 [+0.123, +0.177]，classic +0.142 [+0.115, "
                       "+0.169] 级/副牌；--policies pimc2,pimc --seed 11：zhengzhou +0.280 [+0.246, "
                       "+0.314]，classic +0.214 [+0.185, +0.244] 级/副牌（各 n = 1,000）。",
                       "tuned is the heuristic with its parameters tuned for the preset "
                       "(scripts/train/shengji_tune.py: cross-entropy on duplicate self-play; the "
                       "parameters and the check on fresh deals are in "
                       "analyzer/shengji/tuned.json); net is tuned with a small self-play network "
                       "choosing its leads and follows. pimc (16 hidden deals sampled a decision) "
                       "and pimc2 (from net's choice, 128 sampled) are slow, so they play here only "
                       "where they reach {k} deals (--hands ≥ {hands}); on 1,000 deals, xianniu "
                       "shengji tournament --policies "
                       "pimc,heuristic --deals 1000 --rules R --seed 1 gives +0.150 [+0.123, "
                       "+0.177] levels per deal under zhengzhou and +0.142 [+0.115, +0.169] under "
                       "classic, and --policies pimc2,pimc --seed 11 gives +0.280 [+0.246, +0.314] "
                       "and +0.214 [+0.185, +0.244] (n = 1,000 each)."),
    "sj_h_bury": ("扣底：启发式的扣法与其他扣法比较（随机的庄家 33 张）",
                  "The bury: the heuristic's against its variants (random banker hands of 33 "
                  "cards)"),
    "sj_bury_text": ("每手随机的 33 张在座位 0（庄家，两队都在 2 级）手中，主为它主的张数最多的"
                     "花色（能亮则以最小的亮法亮出）；其余的牌随机发 {k} 次，每次从同一随机流把"
                     "每种扣法各打一局，四家都用启发式。差值为启发式的扣法减去其他扣法（庄家方"
                     "的级数差/局；两者扣同样 8 张时为 0），置信区间按手计算（n = 手数）。"
                     "“先扣分牌”即 bury_safe = 0。每手只打 {k} 次，单手的均值误差大，“不输给"
                     "其他扣法”的手因此较少。",
                     "Each random hand of 33 cards is held by seat 0 (the banker, both teams at "
                     "level 2) with trump its longest suit (shown by the cheapest declaration "
                     "of it when it has one); the rest is dealt at random {k} times and each "
                     "bury is played out from the same stream on each, every seat on the "
                     "heuristic. The difference is the heuristic's bury less the variant's "
                     "(banker side's level swing per hand; 0 when both bury the same 8), with "
                     "CIs across hands (n = hands). \"points first\" is bury_safe = 0. With {k} "
                     "deals a hand the per-hand means are noisy, which holds the share of hands "
                     "where the heuristic's bury is best down."),
    "sj_bury_best": ("启发式的扣法不输给其他扣法的手", "hands where the heuristic's bury is at "
                     "least as good as every variant"),
    "sj_bury_rule": ("扣法", "bury"),
    "sj_bury_diff": ("启发式 − 其他扣法（级/局）", "heuristic − variant (levels per hand)"),
    "sj_bury_same": ("扣同样 8 张的手", "hands burying the same 8"),
    "sj_h_declare": ("亮主与不亮：按主的张数", "Declare or pass, by trump length"),
    "sj_declare_text": ("每手随机的 25 张（只用能亮主的）在头一轮亮主时在座位 0（先坐庄的一家，先叫）"
                        "或座位 1（闲家，座位 0 不亮）手中；亮它主的张数最多的亮法减去不亮，为该"
                        "家所在队的级数差/局；其余的牌随机发 {k} 次，四家都用启发式，置信区间按手"
                        "计算（n = 手数）。郑州规则下闲家亮主只定主、不换庄，而庄家方都不亮时庄家"
                        "下台、庄交给下家：闲家亮主反而留住了庄家。",
                        "Each random hand of 25 cards that can declare is held in the first "
                        "declaring round by seat 0 (the banker going in, first to act) or seat "
                        "1 (an attacker, seat 0 having passed); declaring its longest trump "
                        "(the declaration with most trumps) less passing, in the seat's team's "
                        "level swing per hand; the rest is dealt at random {k} times, every "
                        "seat on the heuristic, CIs across hands (n = hands). Under zhengzhou an "
                        "attacker's declaration sets the trump but not the banker, while a banker "
                        "side that cannot declare steps down to the next seat: an attacker who "
                        "declares saves the banker."),
    "sj_seat": ("座位", "seat"),
    "sj_seat0": ("0（先坐庄）", "0 (banker going in)"),
    "sj_seat1": ("1（闲家）", "1 (attacker)"),
    "sj_trumps": ("主的张数", "trumps held"),
    "sj_trumps_all": ("全部", "all"),
    "sj_declare_diff": ("亮 − 不亮（级/局）", "declare − pass (levels per hand)"),
    "sj_decisions_title": ("扣底与亮主（级/局，95% 置信区间）", "Bury and declare (levels per "
                           "hand, 95% CI)"),
    "sj_bury_panel": ("启发式的扣法 − 其他扣法", "heuristic's bury − variant"),
    "sj_declare_panel": ("亮主的张数最多的亮法 − 不亮", "declare the longest trump − pass"),
    "bury_no_voids": ("不把花色扣完", "no voids"),
    "bury_voids": ("扣完 ≤ {k} 张的花色", "voids of ≤ {k} cards"),
    "bury_points_allowed": ("，可扣分牌", ", points allowed"),
    "bury_points_first": ("先扣分牌", "points first"),
    "sj_rules": ("规则预设", "preset"),
    "sj_feature": ("牌型", "feature"),
    "sj_exact": ("精确值", "exact"),
    "sj_mc": ("蒙特卡洛 [95% 置信区间]", "Monte Carlo [95% CI]"),
    "sj_stat": ("统计量", "statistic"),
    "sj_p_kou": ("P(抠底)", "P(kitty capture)"),
    "sj_kou_pts": ("抠底所加分/局", "points it adds per hand"),
    "sj_kou_lv": ("庄家方因抠底少升的级/局", "banker levels lost per hand"),
    "sj_kou_bank": ("P(因抠底丢庄)", "P(bank lost to it)"),
    "sj_mult": ("倍数", "multiplier"),
    "sj_policy": ("策略", "policy"),
    "sj_p_mult": ("P(此倍数)", "P(this multiplier)"),
    "sj_given": ("（在此倍数下）", " (given it)"),
    "sj_level": ("级别 L", "level L"),
    "sj_kind": ("主", "trump"),
    "sj_kind_all": ("全部", "all"),
    "sj_kind_suit": ("有主", "suit"),
    "sj_kind_nt": ("无主", "NT"),
    "sj_p_hold": ("P(庄家方守庄)", "P(banker side holds)"),
    "sj_swing": ("庄家方级数差/局", "banker level swing per hand"),
    "sj_att_pts": ("闲家得分/局", "attackers' points per hand"),
    "sj_pattern": ("牌型", "pattern"),
    "sj_role": ("该家所在队", "the seat's team"),
    "sj_role_all": ("全部", "all"),
    "sj_role_banker_team": ("先坐庄的队", "banker team going in"),
    "sj_role_defenders": ("先做闲家的队", "defenders going in"),
    "sj_val_lv": ("价值（级/局）", "value (levels per hand)"),
    "sj_val_pts": ("价值（闲家分/局）", "value (attackers' points per hand)"),
    "sj_pairs": ("换牌的副数 n", "swapped deals n"),
    "sj_made": ("做成占比", "share made"),
    "pat_big_joker_pair": ("对大王", "big joker pair"),
    "pat_small_joker_pair": ("对小王", "small joker pair"),
    "pat_level_card": ("多一张级牌", "+1 level card"),
    "pat_trump": ("多一张主（主花色）", "+1 trump-suit card"),
    "sw_bajiwo": ("扒鸡窝", "ba ji wo (kitty swap)"),
    "sw_rebel": ("造反", "zao fan (redeal)"),
    "sj_switch": ("开关的规则", "rule switched"),
    "sj_on": ("开", "on"),
    "sj_off": ("关", "off"),
    "sj_diff": ("开 − 关", "on − off"),
    "sj_acted": ("P(规则起作用)", "P(rule acted)"),
    "sj_changed": ("P(该局有变)", "P(hand changed)"),
    "sj_lv_diff": ("级/副牌 A − B", "levels per deal A − B"),
    "sj_pt_diff": ("闲家分/副牌 A − B", "attackers' points per deal A − B"),
    "sj_points_axis": ("闲家得分（抠底后）", "attackers' points (after kitty capture)"),
    "sj_share": ("局数占比", "share of hands"),
    "sj_level_change": ("升级（庄家方 + / 闲家 −）", "level change (banker side + / "
                        "attackers −)"),
    "sj_take": ("闲家上台", "attackers take the bank"),
    "sj_banker_plus": ("庄 +{k}", "banker +{k}"),
    "sj_att_plus": ("闲 上台+{k}", "attackers +{k}"),
    "sj_by_level_title": ("庄家方守庄的概率，按级别", "P(banker side holds) by level"),
    "sj_dist_title": ("闲家得分分布", "distribution of the attackers' points"),
    "sj_change_title": ("升级分布", "level changes"),
    "sj_values_title": ("反事实价值（级/局）", "counterfactual value (levels per hand)"),
    "sj_values_pts_title": ("反事实价值（闲家分/局）", "counterfactual value (attackers' points "
                            "per hand)"),
    "sj_bins": ("每格 {w} 分，≥ {top} 分并入最后一格", "bins of {w}; ≥ {top} in the last"),
    "sj_threshold": ("下台线 {turn} 分", "turnover at {turn}"),
    "sj_mean_points": ("一家 25 张的平均分", "mean points in 25 cards"),
    "sj_mean_trump": ("主的平均张数（{trump}）", "mean trump length ({trump})"),
    "feat_declare_any": ("能亮主（含对王）", "can declare (joker pairs included)"),
    "feat_declare_suited": ("能亮花色主", "can declare a suit"),
    "feat_joker_pair": ("有对王", "holds a joker pair"),
    "feat_big_joker_pair": ("有对大王", "holds the big joker pair"),
    "feat_small_joker_pair": ("有对小王", "holds the small joker pair"),
    "feat_rebel": ("分不足 15，可造反", "under 15 points (may zao fan)"),
    "g_sj_banker": ("庄家：本局坐庄的一家，与对家为庄家方，先出第一墩；每局可变。"
                    "掀牛的庄家是 0 号位，顶牛没有庄家座位",
                    "banker 庄家: the seat holding the bank this hand, with its partner the "
                    "banker side; it leads the first trick and may change from hand to hand. "
                    "(In xianniu the banker is seat 0; dingniu has no banker seat.)"),
    "g_sj_attack": ("闲家（抓分方）：另一队，抓分；抓到 80 分或更多就上台坐庄",
                    "attackers 闲家 (抓分方): the other team, who catch points; 80 or more "
                    "take the bank"),
    "g_sj_trump": ("主：大小王、级牌（本局级数的牌）与亮出的花色；亮主：亮出级牌定主花色（郑州须"
                   "带同色的王）",
                   "trumps 主: the jokers, the level cards (the hand's level rank) and the "
                   "declared suit; declaring 亮主: showing level cards to name the trump suit "
                   "(zhengzhou: beside the joker of its colour)"),
    "g_sj_kitty": ("底牌：8 张；拿底的一家加进手里，再扣回 8 张（扣底）",
                   "kitty 底牌: 8 cards the kitty-taker adds to the hand before burying 8 "
                   "(扣底)"),
    "g_sj_koudi": ("抠底：闲家赢最后一墩时，底牌里的分按倍数加给闲家（单张 ×2、对子 ×4、拖拉机"
                   "更多）；庄家方赢最后一墩则底分不算",
                   "kou di 抠底: when the attackers win the last trick, the kitty's points times "
                   "a multiplier (single ×2, pair ×4, a tractor more) go to them; when the "
                   "banker side wins it they count for nobody"),
    "g_sj_bajiwo": ("扒鸡窝：扣底之后别家可以反主，拿走底牌重扣；庄家与第一墩的首出不变",
                    "ba ji wo 扒鸡窝 (raiding the hen's nest): after the bury another seat may "
                    "overcall, take the kitty and bury anew; the banker and the first lead stay"),
    "g_sj_zaofan": ("造反：发牌后、亮主前，手中分不足 15 的闲家可以要求重发，这一局改为抢庄局",
                    "zao fan 造反 (rebellion): after the deal, before declaring, an attacker "
                    "holding under 15 points may call a redeal, which becomes a grab-the-bank "
                    "hand (抢庄局)"),
    "g_sj_tractor": ("拖拉机：同花色（或都是主）相连的两对或更多对；甩牌：一次出同一花色的几个单元，"
                     "别家能管住其中一个就失败、受罚",
                     "tractor 拖拉机: two or more consecutive pairs of one suit (or of trumps); "
                     "throw 甩牌: several units of one suit led at once, which fails (and costs "
                     "points) when another seat can beat one of them"),
}
T = Labels(TEXT, base=SHARED)
# the 双升 terms the report defines, in the order it lists them (docs/guides/shengji.md too)
GLOSSARY = ("g_sj_banker", "g_sj_attack", "g_sj_trump", "g_sj_kitty", "g_sj_koudi",
            "g_sj_bajiwo", "g_sj_zaofan", "g_sj_tractor")


SEARCH_SHARE = 20_000  # the search players' ladder rungs: one deal per this many --hands
KOU_SEARCH_SHARE = 4000  # 抠底 with pimc2 seats: one hand per this many --hands


def sizes(hands: int) -> dict[str, int]:
    """Per preset: whole hands of the outcomes, deals at each level, deals of the values
    (each plays up to four more hands), deals of each rule switch (played on and off), of
    the heuristic − random and pimc − heuristic matches, and of the odds check; the search
    players' parts only where they reach the report's floor (else 0: not played). At
    ``--hands 100`` (the least) this is the quick size the tests use."""
    h = int(hands)
    return {"outcomes": max(200, h // 16), "banker": max(100, h // 80),
            "values": max(50, h // 100), "rule_effect": max(100, h // 80),
            "ladder": max(20, h // 40), "tuned": max(20, h // 40),
            "pimc": played_deals(h // SEARCH_SHARE),
            "odds": max(1000, h // 8), "kou_random": max(200, h // 16),
            "kou_net": max(200, h // 16), "net": max(20, h // 40),
            "net_heuristic": max(20, h // 40),
            "pimc2": played_deals(h // SEARCH_SHARE),
            "kou_pimc2": played_deals(h // KOU_SEARCH_SHARE),
            "bury": max(4, h // 500), "declare": max(8, h // 250)}


QUICK = sizes(MIN_HANDS)


def policy_of(spec: ReportSpec) -> str:
    """The policy of every seat (the section's ``policy`` option: random, heuristic, tuned or
    net)."""
    return str(spec.option(KEY, "policy")).strip().lower()


def seeds(spec: ReportSpec, root: np.random.SeedSequence | None = None) -> dict[str, int]:
    """One seed per part, spawned from ``root`` (default: the section's root for
    ``spec.seed``); both presets play the same seeds."""
    root = root if root is not None else seed_sequence(spec.seed, KEY)
    return {p: int(c.generate_state(1)[0]) for p, c in zip(PARTS, root.spawn(len(PARTS)))}


def command(part: str, preset: str, spec: ReportSpec, s: dict[str, int]) -> str:
    """The ``xianniu shengji`` command that reproduces one part of one preset alone."""
    n, pol = sizes(spec.hands)[part], policy_of(spec)
    common = f"--deals {n} --rules {preset} --policy {pol} --seed {s[part]}"
    if part == "odds":
        return (f"xianniu shengji odds --level {ODDS_LEVEL} --deals {n} --rules {preset} "
                f"--seed {s[part]}")
    if part in LADDERS:
        return (f"xianniu shengji tournament --policies {LADDERS[part]} --deals {n} "
                f"--rules {preset} --seed {s[part]}")
    if part in STUDIES:
        return (f"xianniu shengji stats {part} --hands {n} --samples {STUDY_SAMPLES} "
                f"--rules {preset} --seed {s[part]}")
    if part in KOU_PARTS:  # 抠底 with every seat on another policy
        return (f"xianniu shengji stats outcomes --deals {n} --rules {preset} --policy "
                f"{KOU_PARTS[part]} --seed {s[part]}")
    if part == "banker":
        return f"xianniu shengji stats banker {common} --levels {','.join(BY_LEVEL)}"
    return f"xianniu shengji stats {part.replace('_', '-')} {common}"


def commands(spec: ReportSpec, s: dict[str, int] | None = None) -> list[str]:
    """Every part's command, preset by preset (the default preset first); a 抠底 part only
    when the policy is not its own already."""
    s = s if s is not None else seeds(spec)
    return [command(p, r, spec, s) for r in RULE_NAMES for p in parts(spec)]


def parts(spec: ReportSpec) -> tuple[str, ...]:
    """The parts the section runs under ``spec`` (not a 抠底 part of the section's own
    policy, nor a search player's part this size does not play)."""
    n = sizes(spec.hands)
    return tuple(p for p in PARTS if KOU_PARTS.get(p) != policy_of(spec) and n[p])


def not_played(spec: ReportSpec) -> tuple[str, ...]:
    """The search players' parts this size does not play (:func:`sizes`: 0)."""
    return tuple(p for p, k in sizes(spec.hands).items() if not k)


@dataclass
class ShengjiData:
    """The section's tables and what made them."""

    spec: ReportSpec
    seeds: dict[str, int]
    tables: dict[str, pd.DataFrame]
