"""The 双升 table's words, Chinese and English (the page looks them up by key). The presets
are shown by their names (``rules_<id>``), not their ids."""

from __future__ import annotations

from .rules import PRESETS

# The presets in English; in Chinese they go by their titles.
PRESET_NAMES_EN = {"zhengzhou": "Zhengzhou Shuangsheng", "classic": "Tractor (classic)"}
SEATS_ZH = ("你", "下家", "对家（搭档）", "上家")
SEATS_EN = ("You", "Right (opponent)", "Partner", "Left (opponent)")

STRINGS = {
    "zh": {
        "title": "双升", "subtitle": "你和机器人搭档对两个机器人",
        **{f"rules_{r.name}": r.title for r in PRESETS.values()},
        **{f"seat_{s}": name for s, name in enumerate(SEATS_ZH)},
        **{f"opponents_{p}": p for p in ("net", "tuned", "heuristic", "random")},
        "act_pass": "不亮", "act_declare": "亮", "act_rebel": "造反", "act_bury": "扣底",
        "act_play": "出牌", "act_next": "下一局", "clear": "清除选择",
        "mv_pass": "过", "mv_declare": "亮主", "mv_rebel": "造反", "mv_bury": "扣底",
        "mv_play": "出", "mv_failed": "甩牌失败，改出",
        "ph_rebel": "造反", "ph_declare": "亮主", "ph_bury": "扣底", "ph_bajiwo": "扒鸡窝",
        "ph_play": "出牌", "ph_done": "结束",
        "level": "级", "levels": "两队级数", "team_us": "我们", "team_them": "对方",
        "trump": "主", "nt": "无主", "unknown": "未定", "banker": "庄家", "grab": "抢庄局",
        "attackers": "闲家", "attacker_points": "闲家得分", "standing": "当前亮主",
        "kitty": "底牌", "my_kitty": "我扣的底", "random_trump": "翻底定主",
        "trick": "这一轮", "last_trick": "上一轮", "won_by": "赢家", "cards_left": "张",
        "select_bury": "点选 8 张扣到底牌", "select_play": "点选要出的牌（甩牌可选多张）",
        "select_follow": "点选 {n} 张跟牌", "selected": "已选", "shown": "亮出的牌",
        "failed_throws": "失败的甩牌", "settlement": "结算", "kitty_points": "底牌分",
        "multiplier": "抠底倍数", "winner": "胜方", "w_banker": "庄家方", "w_attackers": "闲家方",
        "gain": "升级", "levels_after": "结算后级数", "next_banker": "下一局庄家",
        "match_won": "打过 A，本场胜利", "dealt": "发的牌", "bots_play": "机器人策略",
        "policy_note_net": "最强的快速策略，shengji advise 默认也用它",
        "policy_note_tuned": "按本规则调好参数的启发式策略",
        "policy_note_heuristic": "启发式策略",
        "policy_note_random": "随机出牌",
        "question": "问题", "answer": "回答", "yes_less_no": "差值",
        "separated": "最佳动作与其它已分开", "not_separated": "最佳动作与次佳尚未分开",
        "total_lost": "总估计损失（级）", "decisions": "个决定", "levels_unit": "级",
        "review_needs_advice": "复盘需要计算每一步的提示", "deals": "牌局",
        "history": "前几局", "hand_no": "第 {n} 局", "banker_side": "庄家方", "penalties": "甩牌罚分",
        "a_declare or pass": "亮还是不亮", "a_declare": "亮", "a_pass": "不亮",
        "a_close": "难分高下", "a_造反 or not": "造不造反", "a_造反 (rebel)": "造反",
        "a_扒鸡窝 or pass": "扒不扒鸡窝", "a_overcall (扒鸡窝)": "扒鸡窝",
        "a_throw or not": "甩不甩", "a_throw": "甩", "a_lead one unit": "出一组",
        "pass_rebel": "不造反", "pass_declare": "不亮", "pass_bajiwo": "不扒",
        "lost": "估计损失（级）", "kitty_taken": "拿起的底牌",
        "throw": "甩牌", "card_big": "大王", "card_small": "小王",
    },
    "en": {
        "title": "Shuangsheng (Tractor)", "subtitle": "you and a bot partner against two bots",
        **{f"rules_{name}": en for name, en in PRESET_NAMES_EN.items()},
        **{f"seat_{s}": name for s, name in enumerate(SEATS_EN)},
        **{f"opponents_{p}": p for p in ("net", "tuned", "heuristic", "random")},
        "act_pass": "Pass", "act_declare": "Declare", "act_rebel": "Rebel (zaofan)",
        "act_bury": "Bury", "act_play": "Play", "act_next": "Next hand",
        "clear": "Clear selection",
        "mv_pass": "passes", "mv_declare": "declares", "mv_rebel": "rebels (zaofan)",
        "mv_bury": "buries", "mv_play": "plays", "mv_failed": "throw failed, leads",
        "ph_rebel": "zaofan", "ph_declare": "declaring", "ph_bury": "bury",
        "ph_bajiwo": "bajiwo (overcall the kitty)", "ph_play": "play", "ph_done": "over",
        "level": "Level", "levels": "Team levels", "team_us": "Us", "team_them": "Them",
        "trump": "Trump", "nt": "no trump", "unknown": "not set", "banker": "Banker",
        "grab": "open bank (first hand)", "attackers": "attackers",
        "attacker_points": "Attackers' points", "standing": "Standing declaration",
        "kitty": "Kitty", "my_kitty": "My kitty", "random_trump": "kitty card turned for trump",
        "trick": "This trick", "last_trick": "Last trick", "won_by": "won by",
        "cards_left": "cards", "select_bury": "Pick 8 cards to bury",
        "select_play": "Pick the cards to lead (several for a throw)",
        "select_follow": "Pick {n} cards to follow", "selected": "selected",
        "shown": "Cards shown", "failed_throws": "Failed throws", "settlement": "Settlement",
        "kitty_points": "Kitty points", "multiplier": "Kitty multiplier", "winner": "Winner",
        "w_banker": "banker side", "w_attackers": "attackers", "gain": "Levels gained",
        "levels_after": "Levels after", "next_banker": "Next banker",
        "match_won": "past A: the match is won", "dealt": "Dealt", "bots_play": "Bot policy",
        "policy_note_net": "the strongest fast policy, the one shengji advise plays by default",
        "policy_note_tuned": "the heuristic with its preset's tuned parameters",
        "policy_note_heuristic": "the heuristic",
        "policy_note_random": "uniform over the legal plays",
        "question": "Question", "answer": "Answer", "yes_less_no": "Difference",
        "separated": "the best action stands apart from the rest",
        "not_separated": "the best action is not yet told apart from the next",
        "total_lost": "Total est. levels lost", "decisions": "decisions", "levels_unit": "levels",
        "review_needs_advice": "The review computes the advice of each decision",
        "deals": "deals", "history": "Earlier hands", "hand_no": "Hand {n}",
        "banker_side": "banker side",
        "penalties": "Throw penalties",
        "a_declare or pass": "declare or pass", "a_declare": "declare", "a_pass": "pass",
        "a_close": "too close to call", "a_造反 or not": "rebel or not", "a_造反 (rebel)": "rebel",
        "a_扒鸡窝 or pass": "bajiwo or pass", "a_overcall (扒鸡窝)": "overcall (bajiwo)",
        "a_throw or not": "throw or not", "a_throw": "throw", "a_lead one unit": "lead one unit",
        "pass_rebel": "No rebellion", "pass_declare": "Pass", "pass_bajiwo": "Pass",
        "lost": "Est. levels lost", "kitty_taken": "Kitty picked up",
        "throw": "throw", "card_big": "大王", "card_small": "小王",  # the cards keep their names
    },
}

# the puzzles' themes: the kinds of decision the review names (analyzer.web.puzzle)
THEMES = {"zh": {'rebel': '造反', 'declare': '亮主', 'bury': '扣底', 'bajiwo': '扒鸡窝', 'lead': '领出', 'throw': '甩牌', 'follow': '跟牌'},
          "en": {'rebel': 'rebel', 'declare': 'declaring', 'bury': 'the bury', 'bajiwo': 'bajiwo', 'lead': 'the lead', 'throw': 'the throw', 'follow': 'the follow'}}
STRINGS = {lang: {**words, **{f"theme_{k}": v for k, v in THEMES[lang].items()}}
           for lang, words in STRINGS.items()}
