"""The 掀牛 table's words, Chinese and English (the page looks them up by key). The presets
are shown by their names (``rules_<id>``), not their ids."""

from __future__ import annotations

from .rules import PRESETS

# The presets in English; in Chinese they go by their titles (兰州掀牛, 砍牛腿).
PRESET_NAMES_EN = {"lanzhou": "Lanzhou Xianniu", "kanniutui": "Kan Niu Tui (chop the ox's leg)"}

STRINGS = {
    "zh": {
        "title": "掀牛", "subtitle": "你对两个机器人",
        **{f"rules_{r.name}": r.title for r in PRESETS.values()},
        "role_头家": "头家", "role_二家": "二家", "role_三家": "三家",
        "act_play": "出牌", "act_pass": "过", "act_kou": "扣", "act_xian": "掀",
        "act_tighten": "紧牌", "act_discard": "弃牌",
        "mv_lead": "出", "mv_beat": "压", "mv_qiangci": "抢刺", "mv_pass": "过",
        "mv_pass_qiangci": "不抢刺", "mv_kou_ask": "扣（要求结束）", "mv_kou_agree": "扣（同意）",
        "mv_xian": "掀", "mv_tighten": "紧牌", "mv_discard": "弃一张",
        "ph_qiangci": "抢刺", "ph_lead": "出牌", "ph_kou_ask": "扣或掀", "ph_trick": "压牌",
        "ph_discard": "紧牌弃牌", "ph_over": "结束",
        "k_set1": "单张", "k_set2": "对子", "k_set3": "三张", "k_set4": "亮子",
        "k_niu": "牛", "k_xi": "喜", "k_fish": "鱼", "k_fish_liang": "鱼亮", "k_bai": "摆",
        "k_bai_liang": "摆亮", "k_k_bai": "K摆", "k_xi_bao_liang": "喜包亮",
        "k_long_feng": "龙凤", "k_eight_pairs": "八大对",
        "captured": "赢牌", "cards_left": "手牌", "table_cards": "桌面",
        "top": "桌上", "owner": "出牌者", "select_hint": "点选要出的牌，或点下面的组合",
        "legal_plays": "可出的组合", "settlement": "结算", "pays": "付给",
        "pay_for": "因为", "nobody_pays": "无人付分",
        "r_牛": "牛", "r_喜": "喜", "r_亮": "亮", "r_刺": "刺", "r_掀": "掀", "r_包刺": "包刺",
        "gou": "够", "not_gou": "不够", "ci_flag": "刺",
        "col_niu": "牛（九）", "col_xi": "喜（五）", "col_liang": "亮", "col_ci": "刺分",
        "end_kou": "扣牌结束", "end_table full": "桌面满了", "end_lead holder has no cards": "出牌者没牌了",
        "dealt": "发的牌", "should_xian": "该掀吗？", "should_kou": "头家该扣吗？",
        "answer_seat": "回答的座位", "recommend": "建议", "close": "难分高下",
        "ev_xian": "掀的期望", "ev_kou": "扣的期望", "ev_lead": "出牌的期望",
        "diff": "差值", "deals": "牌局", "my_discards": "我弃的牌",
        "separated": "最佳动作与其它已分开", "not_separated": "最佳动作与次佳尚未分开",
        "total_lost": "总估计损失", "xian_of": "掀了", "review_needs_advice": "复盘需要计算每一步的提示",
        "points_unit": "分", "hand_16": "16 张牌", "decisions": "个决定", "hand_over_why": "结束原因", "human": "你",
    },
    "en": {
        "title": "Xianniu", "subtitle": "you against two bots",
        **{f"rules_{name}": en for name, en in PRESET_NAMES_EN.items()},
        "role_头家": "banker", "role_二家": "second", "role_三家": "third",
        "act_play": "Play", "act_pass": "Pass", "act_kou": "Kou", "act_xian": "Xian",
        "act_tighten": "Tighten", "act_discard": "Discard",
        "mv_lead": "leads", "mv_beat": "beats with", "mv_qiangci": "qiangci", "mv_pass": "passes",
        "mv_pass_qiangci": "declines qiangci", "mv_kou_ask": "kou (asks to end)",
        "mv_kou_agree": "kou (agrees)", "mv_xian": "xian", "mv_tighten": "calls tighten",
        "mv_discard": "discards",
        "ph_qiangci": "qiangci", "ph_lead": "lead", "ph_kou_ask": "kou or xian",
        "ph_trick": "answer", "ph_discard": "tighten discards", "ph_over": "over",
        "k_set1": "single", "k_set2": "pair", "k_set3": "triple", "k_set4": "liang",
        "k_niu": "niu", "k_xi": "xi", "k_fish": "fish", "k_fish_liang": "fish liang",
        "k_bai": "bai", "k_bai_liang": "bai liang", "k_k_bai": "K-bai",
        "k_xi_bao_liang": "xi bao liang", "k_long_feng": "long feng",
        "k_eight_pairs": "eight pairs",
        "captured": "Captured", "cards_left": "In hand", "table_cards": "Table",
        "top": "On top", "owner": "played by", "select_hint": "Pick the cards to play, or a "
        "combination below", "legal_plays": "Legal plays", "settlement": "Settlement",
        "pays": "pays", "pay_for": "for", "nobody_pays": "nobody pays",
        "r_牛": "niu", "r_喜": "xi", "r_亮": "liang", "r_刺": "ci", "r_掀": "xian",
        "r_包刺": "bao ci", "gou": "gou", "not_gou": "not gou", "ci_flag": "ci",
        "col_niu": "niu (9s)", "col_xi": "xi (5s)", "col_liang": "liang", "col_ci": "ci points",
        "end_kou": "ended by kou", "end_table full": "the table is full",
        "end_lead holder has no cards": "the lead holder has no cards",
        "dealt": "Dealt", "should_xian": "Should I xian?", "should_kou": "Should the banker kou?",
        "answer_seat": "Answering seat", "recommend": "Recommendation", "close": "too close to call",
        "ev_xian": "EV of xian", "ev_kou": "EV of kou", "ev_lead": "EV of leading",
        "diff": "Difference", "deals": "deals", "my_discards": "My discards",
        "separated": "the best action stands apart from the rest",
        "not_separated": "the best action is not yet told apart from the next",
        "total_lost": "Total est. points lost", "xian_of": "xian on",
        "review_needs_advice": "The review computes the advice of each decision",
        "points_unit": "pts", "hand_16": "16 cards", "decisions": "decisions", "hand_over_why": "Ended", "human": "you",
    },
}

# the puzzles' themes: the kinds of decision the review names (analyzer.web.puzzle)
THEMES = {"zh": {'扣/掀': '扣还是掀', 'lead': '出牌', '紧牌': '紧牌', 'discard': '紧牌垫牌', 'answer': '跟牌', '扣': '扣'},
          "en": {'扣/掀': 'kou or xian', 'lead': 'the lead', '紧牌': 'tighten', 'discard': 'the discard', 'answer': 'the answer', '扣': 'kou'}}
STRINGS = {lang: {**words, **{f"theme_{k}": v for k, v in THEMES[lang].items()}}
           for lang, words in STRINGS.items()}
