"""The 顶牛 table's words, Chinese and English (the page looks them up by key). The seats
are named as the CLI and the report name them (:data:`.rules.SEAT_NAMES`), the presets by
their names, not their ids."""

from __future__ import annotations

from .rules import SEAT_NAMES, SEAT_NAMES_EN, TILES

# The presets as the page names them (the form shows these, the request sends the id).
PRESET_NAMES = {"seed": ("按种子的解", "the seed text's readings"),
                "navpil": ("按 navpil 的解", "navpil's readings")}

STRINGS = {
    "zh": {
        "title": "顶牛", "subtitle": "你对三个机器人",
        **{f"seat_{s}": name for s, name in enumerate(SEAT_NAMES)},
        **{f"rules_{k}": zh for k, (zh, _) in PRESET_NAMES.items()},
        "mv_lead": "出", "mv_play": "接", "mv_kou": "扣", "on_end": "接在",
        "ends": "两头", "no_ends": "还没出牌", "tiles_left": "手牌", "kou_count": "扣牌",
        "my_kou": "我扣的牌", "pips": "点", "totals": "扣点", "end_normal": "牌出完了",
        "end_suan": "算帐", "suan_by": "算帐者", "laid": "已出的牌", "act_kou_btn": "扣这张",
        "pick_tile": "点一张牌，再选接在哪头", "dealt": "发的牌", "review_needs_advice": "复盘需要计算每一步的提示",
        "separated": "最佳动作与其它已分开", "not_separated": "最佳动作与次佳尚未分开",
        "total_lost": "总估计损失", "decisions": "个决定", "hand_over_why": "结束原因",
        **{f"tile_{t.name}": t.name for t in TILES},
    },
    "en": {
        "title": "Dingniu (dominoes)", "subtitle": "you against three bots",
        **{f"seat_{s}": name for s, name in enumerate(SEAT_NAMES_EN)},
        **{f"rules_{k}": en for k, (_, en) in PRESET_NAMES.items()},
        "mv_lead": "leads", "mv_play": "lays", "mv_kou": "kou (face down)", "on_end": "on",
        "ends": "Open ends", "no_ends": "no tile laid yet", "tiles_left": "In hand",
        "kou_count": "Kou", "my_kou": "My kou", "pips": "pips", "totals": "Kou pips",
        "end_normal": "all tiles out", "end_suan": "suan zhang", "suan_by": "suan by",
        "laid": "Laid", "act_kou_btn": "Kou this tile",
        "pick_tile": "Pick a tile, then the end to lay it on", "dealt": "Dealt",
        "review_needs_advice": "The review computes the advice of each decision",
        "separated": "the best action stands apart from the rest",
        "not_separated": "the best action is not yet told apart from the next",
        "total_lost": "Total est. points lost", "decisions": "decisions",
        "hand_over_why": "Ended",
        **{f"tile_{t.name}": f"{t.name} {t.ends[0]}-{t.ends[1]}" for t in TILES},
    },
}

# the puzzles' themes: the kinds of decision the review names (analyzer.web.puzzle)
THEMES = {"zh": {'play': '接牌', 'lead': '出牌', '扣': '扣牌'},
          "en": {'play': 'the play', 'lead': 'the lead', '扣': 'the kou'}}
STRINGS = {lang: {**words, **{f"theme_{k}": v for k, v in THEMES[lang].items()}}
           for lang, words in STRINGS.items()}
