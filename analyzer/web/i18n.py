"""The page's words in Chinese (the default) and English, shared by every game.

A game adds its own words (:attr:`analyzer.web.game.WebGame.strings`); the page looks a
word up by key in the chosen language and falls back to the key itself, so that a missing
word shows up in the tests rather than as an empty label.
"""

from __future__ import annotations

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

COMMON = {
    "zh": {
        "new_game": "新开一局", "rules": "规则", "opponents": "对手", "seed": "种子",
        "lang_switch": "English", "advice": "提示", "advice_on": "显示提示",
        "computing": "计算中", "review": "复盘", "save_record": "保存记录",
        "load_record": "载入记录", "record_loaded": "记录已载入", "prev": "上一步",
        "next": "下一步", "first": "开头", "last": "结尾", "error": "错误",
        "your_turn": "轮到你", "waiting": "等待", "game_over": "本局结束", "seat": "座位",
        "you": "你", "bot": "机器人", "points": "得分", "log": "出牌记录", "n": "样本",
        "ci95": "95% 置信区间", "ev": "期望得分", "best": "最佳", "lost": "估计损失",
        "your_action": "你的选择", "forced": "唯一选择", "query": "问一问",
        "ask": "计算", "stale": "页面已过期，请刷新",
        "offline": "本页不需要网络", "start": "开始", "step": "步",
        "kind": "类型", "taken": "实际", "label": "评价", "inaccuracy": "欠佳",
        "mistake": "失误", "blunder": "大错",
        "labels_rule": "评价：损失的 95% 置信区间下限至少为（分）欠佳 / 失误 / 大错",
        "enter_hand": "录入一局", "check": "检查", "legal_actions": "可选动作",
        "enter_help": "按文本记法输入发牌和已出的动作（见 docs/records.md），再点可选动作续录",
        "pz_title": "残局题", "pz_ask": "轮到你：找出最好的一手", "pz_actions": "种选择",
        "pz_rating": "你的等级分", "pz_right": "答对了！", "pz_wrong": "答错了。",
        "pz_answer": "答案", "pz_taken": "你选的", "pz_puzzle_rating": "本题等级分",
        "pz_due": "下次复习", "pz_action": "选择", "pz_behind": "比最佳少",
        "pz_deal": "抽样的一副：诱人的错招在这一副上输给答案", "pz_result": "你的结果",
        "pz_next": "下一题", "pz_no_deal": "十二副抽样里没有一副让诱人的错招输：答案靠的是平均",
    },
    "en": {
        "new_game": "New hand", "rules": "Rules", "opponents": "Opponents", "seed": "Seed",
        "lang_switch": "中文", "advice": "Advice", "advice_on": "Show advice",
        "computing": "Computing", "review": "Review", "save_record": "Save record",
        "load_record": "Load record", "record_loaded": "Record loaded", "prev": "Back",
        "next": "Next", "first": "Start", "last": "End", "error": "Error",
        "your_turn": "Your turn", "waiting": "Waiting", "game_over": "Hand over", "seat": "Seat",
        "you": "You", "bot": "Bot", "points": "Points", "log": "Moves", "n": "n",
        "ci95": "95% CI", "ev": "EV", "best": "Best", "lost": "Est. points lost",
        "your_action": "Your choice", "forced": "forced", "query": "Ask",
        "ask": "Compute", "stale": "This page is stale: reload it",
        "offline": "This page needs no network", "start": "Start", "step": "step",
        "kind": "Kind", "taken": "Taken", "label": "Label", "inaccuracy": "inaccuracy",
        "mistake": "mistake", "blunder": "blunder",
        "labels_rule": "Labels: the loss's 95% CI low end at least (points) for inaccuracy / "
                       "mistake / blunder",
        "enter_hand": "Enter a hand", "check": "Check", "legal_actions": "Legal actions",
        "enter_help": "Type the deal and the actions so far in the text notation (see "
                      "docs/records.md), then click legal actions to go on",
        "pz_title": "Puzzle", "pz_ask": "Your turn: find the best action", "pz_actions": "choices",
        "pz_rating": "Your rating", "pz_right": "Right!", "pz_wrong": "Missed.",
        "pz_answer": "Answer", "pz_taken": "You chose", "pz_puzzle_rating": "Puzzle rating",
        "pz_due": "Back for repetition at", "pz_action": "Choice", "pz_behind": "Behind the best",
        "pz_deal": "One sampled deal where the tempting wrong choice loses to the answer",
        "pz_result": "your result", "pz_next": "Next puzzle",
        "pz_no_deal": "None of twelve sampled deals has the tempting choice lose: the answer "
                      "wins on average",
    },
}


def merged(game_strings: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """The common words with the game's own (the game's win on a shared key); ValueError
    if a language misses a key the other has."""
    out = {lang: {**COMMON[lang], **game_strings.get(lang, {})} for lang in LANGS}
    for a in LANGS:
        for b in LANGS:
            missing = sorted(set(out[a]) - set(out[b]))
            if missing:
                raise ValueError(f"words missing in {b}: {', '.join(missing)}")
    return out
