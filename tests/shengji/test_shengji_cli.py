"""The ``xianniu shengji`` rule commands, run through ``analyzer.cli.main`` with capsys: exact
JSON shapes for the rules reading's worked examples (§3, §5.3, §5.2 98844, §5.5, §4, §6),
both presets where they differ, and bad input (exit 2, one stderr line, no traceback)."""

from __future__ import annotations

import json

import pytest
from cli_checks import ok, run

from analyzer.shengji import api


def js(capsys, *args: str):
    return json.loads(ok(capsys, "shengji", *args, "--json"))


def bad(capsys, *args: str) -> str:
    """Status 2, exactly one line on stderr, nothing on stdout, no traceback."""
    rc, out, err = run(capsys, *args)
    assert rc == 2, (rc, out, err)
    assert err.count("\n") == 1 and err.startswith("xianniu: error: "), err
    assert "Traceback" not in err and out == ""
    return err


def tractor(cards, k=2):
    return {"kind": "tractor", "pairs": k, "cards": cards}


def pair(cards):
    return {"kind": "pair", "pairs": 1, "cards": cards}


def single(card):
    return {"kind": "single", "pairs": 0, "cards": card}


# ---- classify: §3's table at L=5 T=♠ and more ------------------------------------------------

L5S = ("--level", "5", "--trump", "s")
CLASSIFY = [
    ("♣3♣3♣4♣4", L5S, "zhengzhou", {"suit": "c", "units": [tractor("4♣ 4♣ 3♣ 3♣")]}),
    ("♠3♠3♠4♠4", L5S, "zhengzhou", {"suit": "trump", "units": [tractor("4♠ 4♠ 3♠ 3♠")]}),
    ("♥4♥4♥6♥6", L5S, "zhengzhou", {"suit": "h", "units": [tractor("6♥ 6♥ 4♥ 4♥")]}),
    ("♥5♥5♠5♠5", L5S, "zhengzhou", {"suit": "trump", "units": [tractor("5♠ 5♠ 5♥ 5♥")]}),
    ("大王大王小王小王", L5S, "zhengzhou",
     {"suit": "trump", "units": [tractor("大王 大王 小王 小王")]}),
    ("♠A♠A♦5♦5", L5S, "zhengzhou", {"suit": "trump", "units": [tractor("5♦ 5♦ A♠ A♠")]}),
    ("♠5♠5 小王小王", L5S, "zhengzhou", {"suit": "trump", "units": [tractor("小王 小王 5♠ 5♠")]}),
    ("♥5♥5♥6♥6", L5S, "zhengzhou",  # 5566: ♥5 is 主, ♥6 plain
     {"suit": "mixed", "units": [pair("5♥ 5♥"), pair("6♥ 6♥")]}),
    ("♥5♥5♣5♣5", L5S, "zhengzhou",  # two 副级 pairs share a rung
     {"suit": "trump", "units": [pair("5♥ 5♥"), pair("5♣ 5♣")]}),
    ("♣A♣A♣2♣2", L5S, "zhengzhou",  # no wrap-around
     {"suit": "c", "units": [pair("A♣ A♣"), pair("2♣ 2♣")]}),
    # NT: level pair + 小王 pair is a tractor only in the classic preset
    ("♥5♥5 小王小王", ("--level", "5", "--trump", "nt"), "zhengzhou",
     {"suit": "trump", "units": [pair("小王 小王"), pair("5♥ 5♥")]}),
    ("♥5♥5 小王小王", ("--level", "5", "--trump", "nt"), "classic",
     {"suit": "trump", "units": [tractor("小王 小王 5♥ 5♥")]}),
    ("♠K♠K ♥A♥A", ("--level", "A", "--trump", "s"), "zhengzhou",
     {"suit": "trump", "units": [tractor("A♥ A♥ K♠ K♠")]}),
    ("9c8c8c4c4c", ("--level", "10", "--trump", "s"), "zhengzhou",
     {"suit": "c", "units": [pair("8♣ 8♣"), pair("4♣ 4♣"), single("9♣")]}),
    ("♣3♣3♣4♣4♣5♣5 ♣9♣9♣10♣10 ♣7", ("--level", "2", "--trump", "h"), "zhengzhou",
     {"suit": "c", "units": [tractor("5♣ 5♣ 4♣ 4♣ 3♣ 3♣", 3), tractor("10♣ 10♣ 9♣ 9♣"),
                             single("7♣")]}),
    ("♠A♠A ♦5♦5 ♥3", L5S, "zhengzhou",
     {"suit": "mixed", "units": [tractor("5♦ 5♦ A♠ A♠"), single("3♥")]}),
]


@pytest.mark.parametrize("cards, where, rules, expected", CLASSIFY)
def test_classify(capsys, cards, where, rules, expected):
    assert js(capsys, "classify", cards, *where, "--rules", rules) == expected


def test_classify_takes_several_arguments_and_prints_text(capsys):
    one = js(capsys, "classify", "♠A♠A ♦5♦5 ♥3", *L5S)
    assert js(capsys, "classify", "♠A♠A", "♦5♦5", "♥3", *L5S) == one
    text = ok(capsys, "shengji", "classify", "As", "As", "5d5d", *L5S)
    assert text.count("\n") == 1 and "主" in text and "tractor" in text and "A♠" in text


# ---- legal: §5.3 examples at L=10 T=♠, lead ♥Q♥Q♥J♥J -------------------------------------------

L10S = ("--level", "10", "--trump", "s")
QQJJ = "♥Q♥Q♥J♥J"
LEGAL = [
    (QQJJ, "♥3♥3 ♥7♥7 ♥8 ♥K ♣2 ♣3", "♥3♥3♥7♥7", True),
    (QQJJ, "♥3♥3 ♥7♥7 ♥8 ♥K ♣2 ♣3", "♥3♥3♥8♥K", False),  # both pairs are due
    (QQJJ, "♥8♥8♥9♥9♥2 ♣4", "♥8♥8♥9♥9", True),
    (QQJJ, "♥8♥8♥9♥9♥2 ♣4", "♥8♥8♥9♥2", False),  # the tractor is due
    (QQJJ, "♥8♥8♥9♥9♥2 ♣4", "♥9♥9♥8♥2", False),
    (QQJJ, "♥A ♥2 ♣3 ♦4 ♦5", "♥A ♥2 ♦4 ♦5", True),  # all ♥ plus any two
    (QQJJ, "♥A ♥2 ♣3 ♦4 ♦5", "♥A ♣3 ♦4 ♦5", False),
    (QQJJ, "♠9♠9 ♣3 ♦4 ♦6", "♠9♠9 ♣3 ♦4", True),  # void: 毙 or 垫, never compulsory
    (QQJJ, "♠9♠9 ♣3 ♦4 ♦6", "♣3 ♦4 ♦6 ♠9", True),
    ("♠3", "♥10 ♣4", "♣4", False),  # ♥10 is a level card: 主
    ("♠3", "♥10 ♣4", "♥10", True),
    ("♥3", "♥4 ♥5 ♣4", "♥4 ♥5", False),  # wrong count: an illegal play, not bad input
]


@pytest.mark.parametrize("lead, hand, play, legal", LEGAL)
def test_legal(capsys, lead, hand, play, legal):
    res = js(capsys, "legal", *L10S, "--lead", lead, "--hand", hand, "--play", play)
    assert set(res) == {"legal", "reason"}
    assert res["legal"] is legal and isinstance(res["reason"], str) and res["reason"]


def test_legal_text(capsys):
    out = ok(capsys, "shengji", "legal", *L10S, "--lead", QQJJ, "--hand", "♥8♥8♥9♥9♥2 ♣4",
             "--play", "♥8♥8♥9♥2")
    assert out.startswith("illegal: ") and "tractor" in out


# ---- winner: §5.5 trumping rows at L=10 T=♠ ---------------------------------------------------

WINNER = [
    # 9988 72 可斃 AK5544
    ("♣A ♣K ♣5♣5♣4♣4 | ♠9♠9♠8♠8♠7♠2 | ♣3♣3♣6♣7♣8♣9 | ♥2♥3♥4♥6♥7♥8", "zhengzhou", 1, 20),
    # 9988 72 不能毙 AA5544: after 9988 no pair is left, so it is a 垫
    ("♣A♣A ♣5♣5♣4♣4 | ♠9♠9♠8♠8♠7♠2 | ♣3♣3♣6♣7♣8♣9 | ♥2♥3♥4♥6♥7♥8", "zhengzhou", 0, 10),
    ("♣5 ♣4♣4 | ♠9 ♠7♠7 | ♠8♠8 ♠4 | ♣2♣3♣6", "zhengzhou", 2, 5),  # 884 可蓋斃
    ("♣5 ♣6 ♣7 | ♠9 ♠7♠7 | ♠8♠8 ♠4 | ♣2♣3♣9", "zhengzhou", 1, 5),  # 884 不能蓋斃
    ("♥A | ♥A | ♥3 | ♥K", "zhengzhou", 0, 10),  # equal cards: the earlier stands
    ("♥10 | ♣10 | ♦10 | ♥3", "zhengzhou", 0, 30),  # 副级 are equal
    ("♥10 | ♣10 | ♠10 | ♥3", "zhengzhou", 2, 30),  # 主级 beats 副级
    ("♥10 | ♣10 | ♠10 | 小王", "zhengzhou", 3, 30),
]


@pytest.mark.parametrize("plays, rules, win, points", WINNER)
def test_winner(capsys, plays, rules, win, points):
    res = js(capsys, "winner", *L10S, "--plays", plays, "--rules", rules)
    assert res == {"winner": win, "points": points}


@pytest.mark.parametrize("rules, win", [("zhengzhou", 0), ("classic", 1)])
def test_winner_nt_level_joker_tractor(capsys, rules, win):
    """NT at level 5: ♥5♥5 小王小王 ruffs a tractor only where it is a tractor (classic)."""
    res = js(capsys, "winner", "--level", "5", "--trump", "nt", "--rules", rules,
             "--plays", "♣3♣3♣4♣4 | ♥5♥5 小王小王 | ♣6♣7♣8♣9 | ♦2♦3♦4♦6")
    assert res == {"winner": win, "points": 10}


def test_winner_text(capsys):
    out = ok(capsys, "shengji", "winner", *L10S, "--plays", "♣5 ♣4♣4 | ♠9 ♠7♠7 | ♠8♠8 ♠4 | "
             "♣2♣3♣6")
    assert out == "play 2 wins the trick; 5 points in it\n"


# ---- throw: the 98844 example at L=10 T=♠ -----------------------------------------------------

THROW = [
    ("♣J | ♥2 | ♦3", "zhengzhou", False, "9♣"),  # a J beats only the single 9
    ("♣Q♣Q | ♥2 | ♦3", "zhengzhou", False, "4♣ 4♣"),  # QQ beats 9 and both pairs
    ("♣5♣5 | ♥2 | ♦3", "zhengzhou", False, "4♣ 4♣"),  # 55 beats only 44
    ("♣3 | ♥2 | ♦3", "zhengzhou", True, "9♣ 8♣ 8♣ 4♣ 4♣"),
    ("♠A♠A | ♥2 | ♦3", "zhengzhou", True, "9♣ 8♣ 8♣ 4♣ 4♣"),  # trumps never make it fail
    ("♥2 | ♦3 | ♣Q♣Q", "zhengzhou", False, "4♣ 4♣"),  # the partner's cards count too
    # classic: the first player who beats any unit decides, its smallest beaten shape is led
    ("♣Q♣Q | ♥2 | ♦3", "classic", False, "9♣"),
    ("♣5♣5 | ♥2 | ♦3", "classic", False, "4♣ 4♣"),
]


@pytest.mark.parametrize("others, rules, stands, played", THROW)
def test_throw_98844(capsys, others, rules, stands, played):
    res = js(capsys, "throw", *L10S, "--cards", "♣9♣8♣8♣4♣4", "--others", others,
             "--rules", rules)
    assert (res["stands"], res["played"]) == (stands, played)
    assert bool(res["beaten"]) is not stands  # a failed throw says which unit is beaten


def test_throw_single_unit_stands_and_text(capsys):
    assert js(capsys, "throw", *L10S, "--cards", "♣4♣4♣3♣3", "--others",
              "♣A♣A♣K♣K | | ") == {"stands": True, "played": "4♣ 4♣ 3♣ 3♣", "beaten": []}
    out = ok(capsys, "shengji", "throw", *L10S, "--cards", "♣9♣8♣8♣4♣4", "--others",
             "♣J | ♥2 | ♦3")
    assert out.startswith("the throw fails: 下家 (the next seat) holds J♣ over the single "
                          "9♣; led instead: 9♣ (")


def test_a_failed_throw_names_each_beaten_unit_the_hand_and_the_cards_that_beat_it(capsys):
    out = ok(capsys, "shengji", "throw", *L10S, "--cards", "♣9♣9♣8♣8♣4♣4", "--others",
             "♣Q♣Q♣J♣J | ♣K | ♦3")
    assert ("下家 (the next seat) holds Q♣ Q♣ J♣ J♣ over the tractor 9♣ 9♣ 8♣ 8♣ and Q♣ Q♣ "
            "over the pair 4♣ 4♣;") in out
    assert "led instead: 9♣ 9♣ 8♣ 8♣ (the lowest beaten unit of the largest" in out
    res = js(capsys, "throw", *L10S, "--cards", "♣9♣8♣8♣4♣4", "--others", "♣J | ♣K | ♦3")
    assert [(b["other"], b["kind"], b["unit"], b["beaten_by"]) for b in res["beaten"]] == [
        (0, "single", "9♣", "J♣"), (1, "single", "9♣", "K♣")]


# ---- overcall: §4.1–4.2 at level 2 -------------------------------------------------------------

OVERCALL = [
    ("", "大王 2h", False, "zhengzhou", True),
    ("", "大王 2d 2d", False, "zhengzhou", True),
    ("", "小王 2s", False, "zhengzhou", True),
    ("", "小王 2h", False, "zhengzhou", False),  # 小王 goes with ♠♣
    ("", "2h", False, "zhengzhou", False),  # zhengzhou needs the joker
    ("", "2h", False, "classic", True),  # classic declares without one
    ("", "小王 小王", False, "zhengzhou", True),  # 对王 may open
    ("大王 2h", "小王 2s", False, "zhengzhou", False),  # singles never displace singles
    ("大王 2h", "大王 2d 2d", False, "zhengzhou", True),
    ("大王 2d 2d", "大王 2h 2h", False, "zhengzhou", True),  # ♥ outranks ♦
    ("大王 2h 2h", "大王 2d 2d", False, "zhengzhou", False),
    ("大王 2h 2h", "小王 小王", False, "zhengzhou", True),
    ("小王 小王", "大王 大王", False, "zhengzhou", True),
    ("大王 大王", "小王 小王", False, "zhengzhou", False),
    ("大王 2h", "大王 2h 2h", True, "zhengzhou", True),  # 加固
    ("小王 2s", "小王 2c 2c", True, "zhengzhou", False),  # 加固 keeps the suit
    ("2s", "2h 2h", False, "classic", True),
    ("2s", "2h", False, "classic", False),
    ("2h 2h", "2s 2s", False, "classic", True),
]


@pytest.mark.parametrize("standing, new, same, rules, valid", OVERCALL)
def test_overcall(capsys, standing, new, same, rules, valid):
    flags = ("--same-player",) if same else ()
    res = js(capsys, "overcall", "--level", "2", "--standing", standing, "--new", new, *flags,
             "--rules", rules)
    assert res["valid"] is valid
    assert set(res) == ({"valid"} if valid else {"valid", "reason"})


def test_overcall_not_a_declaration(capsys):
    res = js(capsys, "overcall", "--level", "2", "--standing", "", "--new", "5h")
    assert res["valid"] is False and "no declaration" in res["reason"]
    assert ok(capsys, "shengji", "overcall", "--level", "2", "--new", "大王 2h") == "valid\n"


# ---- score: §6.1 抠底 and §6.2 levels -----------------------------------------------------------

KITTY = "♣10 ♦5 ♥K ♣3 ♣4 ♦6 ♦7 ♥2"  # 25 points
SETTLE = [
    (("--points", "0", "--kitty", KITTY, "--last-trick", "♠K♠K", "--last-by", "attackers"),
     "zhengzhou", (4, 100, "attackers", 0)),  # §6.1's example
    (("--points", "60", "--kitty", KITTY), "zhengzhou", (0, 60, "banker", 1)),
    (("--points", "60", "--kitty", KITTY, "--last-trick", "♠K♠K", "--last-by", "banker"),
     "zhengzhou", (0, 60, "banker", 1)),
    (("--points", "0", "--kitty", KITTY), "zhengzhou", (0, 0, "banker", 3)),
    (("--points", "5", "--kitty", KITTY), "zhengzhou", (0, 5, "banker", 2)),
    (("--points", "75", "--kitty", KITTY), "zhengzhou", (0, 75, "banker", 1)),
    (("--points", "80", "--kitty", KITTY), "zhengzhou", (0, 80, "attackers", 0)),
    (("--points", "120", "--kitty", KITTY), "zhengzhou", (0, 120, "attackers", 1)),
    (("--points", "60", "--kitty", KITTY, "--last-trick", "♠A"), "zhengzhou",
     (2, 110, "attackers", 0)),
    (("--points", "60", "--kitty", KITTY, "--last-trick", "♠A"), "classic",
     (2, 110, "attackers", 0)),
    # a 2-pair tractor: 2^(1+2) = 8 against classic pow_size 2^4 = 16; classic caps gains at 3
    (("--points", "100", "--kitty", KITTY, "--last-trick", "♠3♠3♠4♠4"), "zhengzhou",
     (8, 300, "attackers", 5)),
    (("--points", "100", "--kitty", KITTY, "--last-trick", "♠3♠3♠4♠4"), "classic",
     (16, 500, "attackers", 3)),
    (("--points", "0", "--kitty", KITTY, "--last-trick", "♣A♣A ♣9♣9 ♣3", "--last-by",
      "attackers"), "zhengzhou", (4, 100, "attackers", 0)),  # 含一对或者两对算对抠
]


@pytest.mark.parametrize("args, rules, expected", SETTLE)
def test_score(capsys, args, rules, expected):
    res = js(capsys, "score", "--level", "2", "--trump", "s", *args, "--rules", rules)
    assert res == dict(zip(("multiplier", "attacker_points", "winner", "levels"), expected))


@pytest.mark.parametrize("command", ["score", "settle"])  # settle: the hidden earlier name
def test_score_text(capsys, command):
    out = ok(capsys, "shengji", command, "--level", "2", "--trump", "s", "--points", "60",
             "--kitty", KITTY, "--last-trick", "♠K♠K")
    assert out == "抠底 ×4; attackers' points 160: the attackers take the bank, +2 levels\n"


def test_settle_is_hidden_and_odds_defaults_to_level_2(capsys):
    from analyzer.shengji.cli import group
    assert group.commands["settle"].hidden and not group.commands["score"].hidden
    assert js(capsys, "odds", "--deals", "0")["level"] == 2


# ---- odds --------------------------------------------------------------------------------------

def test_odds_json_and_text(capsys):
    res = js(capsys, "odds", "--level", "2", "--deals", "3000", "--seed", "5")
    assert (res["rules"], res["level"], res["deals"], res["seed"]) == ("zhengzhou", 2, 3000, 5)
    big = next(r for r in res["features"] if r["feature"] == "big_joker_pair")
    assert big["exact"] == pytest.approx(0.05192107995846314, rel=1e-12)
    assert big["monte_carlo"]["n"] == 3000
    assert [b["trump"] for b in res["trump_length"]] == ["s", "nt"]
    assert [r["points"] for r in res["points"]["rows"]] == list(range(0, 205, 5))
    assert res["check"]["rows"] == 6 + 41 + 26 + 26
    out = ok(capsys, "shengji", "odds", "--level", "2", "--deals", "500", "--trump", "h")
    assert "大王" in out and "trump h" in out and "chance predicts" in out
    exact_only = js(capsys, "odds", "--level", "A", "--deals", "0", "--rules", "classic")
    assert "check" not in exact_only and "monte_carlo" not in exact_only["features"][0]


# ---- bad input ---------------------------------------------------------------------------------

GOOD = {
    "classify": ["classify", "♣3♣3", "--level", "2", "--trump", "s"],
    "legal": ["legal", "--level", "2", "--trump", "s", "--lead", "♣3", "--hand", "♣4 ♣5",
              "--play", "♣4"],
    "winner": ["winner", "--level", "2", "--trump", "s", "--plays", "♣3 | ♣4 | ♣5 | ♣6"],
    "throw": ["throw", "--level", "2", "--trump", "s", "--cards", "♣A ♣K", "--others",
              "♣3 | ♣4 | ♣5"],
    "overcall": ["overcall", "--level", "2", "--standing", "", "--new", "大王 2h"],
    "score": ["score", "--level", "2", "--trump", "s", "--points", "40", "--kitty", "♣5"],
    "odds": ["odds", "--level", "2", "--deals", "10"],
}
CARD_OPTION = {"classify": None, "legal": "--hand", "winner": "--plays", "throw": "--cards",
               "overcall": "--new", "score": "--kitty"}


def _with(args: list[str], option: str | None, value: str) -> list[str]:
    out = list(args)
    if option is None:
        out[1] = value
    else:
        out[out.index(option) + 1] = value
    return out


def _without(args: list[str], option: str) -> list[str]:
    i = args.index(option)
    return args[:i] + args[i + 2:]


@pytest.mark.parametrize("command", sorted(GOOD))
def test_good_baseline(capsys, command):
    ok(capsys, "shengji", *GOOD[command])


@pytest.mark.parametrize("command", sorted(CARD_OPTION))
@pytest.mark.parametrize("cards, words", [("1x", "unknown card"), ("5h5h5h", "three copies")])
def test_bad_cards(capsys, command, cards, words):
    args = GOOD[command]
    if command == "winner":
        cards = f"{cards} | ♣4 | ♣5 | ♣6"
    assert words in bad(capsys, "shengji", *_with(args, CARD_OPTION[command], cards))


@pytest.mark.parametrize("command", sorted(GOOD))
def test_missing_level_bad_trump_bad_rules(capsys, command):
    args = GOOD[command]
    if command != "odds":  # odds defaults to level 2
        assert "--level" in bad(capsys, "shengji", *_without(args, "--level"))
    assert "level" in bad(capsys, "shengji", *_with(args, "--level", "1"))
    assert "--rules" in bad(capsys, "shengji", *args, "--rules", "beijing")
    if "--trump" in args:
        assert "trump" in bad(capsys, "shengji", *_with(args, "--trump", "x"))
        if command != "odds":
            assert "--trump" in bad(capsys, "shengji", *_without(args, "--trump"))


L2 = ("--level", "2", "--trump", "s")
BAD = [
    ("winner", "--plays", "♣3 | ♣4 | ♣5", "4 groups"),
    ("winner", "--plays", "♣3 | ♣4 | ♣5 | ♣6 | ♣7", "4 groups"),
    ("winner", "--plays", "♣3 | ♣4 ♣8 | ♣5 | ♣6", "lead's 1"),
    ("winner", "--plays", "♣3 ♥4 | ♣4 ♣8 | ♣5 ♣9 | ♣6 ♣10", "mix"),
    ("winner", "--plays", "♣3 | ♣3 | ♣3 | ♣6", "3 times"),
    ("winner", "--plays", " | | | ", "no cards"),
    ("throw", "--others", "♣3 | ♣4", "3 groups"),
    ("throw", "--cards", "♣A ♥K", "mix"),
    ("throw", "--cards", "♣3♣3", "3 times"),  # the others hold a ♣3 too
]


@pytest.mark.parametrize("command, option, value, words", BAD)
def test_bad_groups(capsys, command, option, value, words):
    args = list(GOOD[command])
    if command == "throw" and value == "♣3♣3":
        args = _with(args, "--others", "♣3 | ♣4 | ♣5")
    assert words in bad(capsys, "shengji", *_with(args, option, value))


@pytest.mark.parametrize("args, words", [
    (("legal", *L2, "--lead", "♣3", "--hand", "♣4 ♣5", "--play", "♣6"), "HAND does not"),
    (("legal", *L2, "--lead", "♣3 ♥4", "--hand", "♣4 ♣5", "--play", "♣4 ♣5"), "mix"),
    (("legal", *L2, "--lead", "♣3♣3", "--hand", "♣3 ♣5", "--play", "♣3 ♣5"), "3 times"),
    (("legal", *L2, "--lead", "", "--hand", "♣3 ♣5", "--play", "♣3"), "no cards"),
    (("overcall", "--level", "2", "--standing", "5h", "--new", "大王 2h"), "STANDING"),
    (("overcall", "--level", "2", "--new", "大王 2h 2h", "--same-player"), "--same-player"),
    (("overcall", "--level", "2", "--standing", "小王 小王", "--new", "小王 2s"), "3 times"),
    (("overcall", "--level", "2", "--new", ""), "NEW"),
    (("score", *L2, "--points", "7", "--kitty", "♣5"), "multiple of 5"),
    (("score", *L2, "--points", "-5", "--kitty", "♣5"), "POINTS"),
    (("score", *L2, "--points", "200", "--kitty", "♣5"), "POINTS"),
    (("score", *L2, "--points", "x", "--kitty", "♣5"), "--points"),
    (("score", *L2, "--points", "0", "--kitty", "♣5", "--last-by", "attackers"),
     "--last-trick"),
    (("score", *L2, "--points", "0", "--kitty", "♣5", "--last-trick", "♠A ♥3"), "mix"),
    (("score", *L2, "--points", "0", "--kitty", "♣2♣3♣4♣6♣7♣8♣9♣J ♣Q"), "holds 8"),
    (("score", *L2, "--points", "0", "--kitty", "♣5", "--last-by", "nobody"), "--last-by"),
    (("odds", "--level", "2", "--deals", "-1"), "--deals"),
    (("odds", "--level", "2", "--seed", "-1"), "--seed"),
    (("odds", "--level", "2", "--trump", "x"), "trump"),
    (("classify", "--level", "2", "--trump", "s"), "CARDS"),
])
def test_bad_input(capsys, args, words):
    assert words in bad(capsys, "shengji", *args)


def test_api_is_the_cli():
    """Every command is one api function; the JSON printed is what it returns."""
    assert api.throw("♣9♣8♣8♣4♣4", ["♣J", "♥2", "♦3"], 10, "s") == {
        "stands": False, "played": "9♣", "beaten": [
            {"other": 0, "seat": "下家 (the next seat)", "kind": "single", "unit": "9♣",
             "beaten_by": "J♣"}]}
    assert api.winner(["♣5 ♣4♣4", "♠9 ♠7♠7", "♠8♠8 ♠4", "♣2♣3♣6"], "10", 0) == {
        "winner": 2, "points": 5}
    with pytest.raises(ValueError):
        api.score(True, "♣5", 2, "s")
    with pytest.raises(ValueError):
        api.odds(2, deals=-3)


# ---- --rule PARAM=VALUE: one parameter changed on top of a preset (§8) ------------------------
@pytest.mark.parametrize("change, win", [((), 2), (("trick_compare=highest_card",), 1),
                                         (("trick_compare=all_units",), 1)])
def test_rule_change_decides_the_over_ruff(capsys, change, win):
    """884 over 977 on a lead of ♣5 ♣4♣4: the pair decides by default (盖毙), the highest card
    or every unit otherwise."""
    args = [a for c in change for a in ("--rule", c)]
    res = js(capsys, "winner", *L10S, "--plays", "♣5 ♣4♣4 | ♠9 ♠7♠7 | ♠8♠8 ♠4 | ♣2♣3♣6", *args)
    assert res == {"winner": win, "points": 5}


def test_rule_change_sets_the_kitty_multiplier_and_names_it(capsys):
    """rbtying's default ×2 × cards: a 2-pair tractor takes the kitty ×8 (classic: ×16)."""
    base = ("score", "--level", "2", "--trump", "s", "--points", "100", "--kitty", KITTY,
            "--last-trick", "♠3♠3♠4♠4", "--rules", "classic")
    assert js(capsys, *base)["multiplier"] == 16
    assert js(capsys, *base, "--rule", "kitty_multiplier=times_size")["multiplier"] == 8
    res = js(capsys, "odds", "--level", "2", "--deals", "200", "--rules", "classic",
             "--rule", "kitty_multiplier=times_size", "--rule", "attacker_gain_cap=none")
    assert res["rules"] == "classic (kitty_multiplier=times_size, attacker_gain_cap=None)"


@pytest.mark.parametrize("change, words", [
    ("kitty_multiplier", "PARAM=VALUE"),
    ("no_such_rule=1", "PARAM=VALUE"),
    ("kitty_multiplier=cubes", "not one of pow2_pairs"),
    ("rebel_enabled=maybe", "true or false"),
    ("level_step=forty", "an integer"),
    ("level_step=0", "positive"),
])
def test_bad_rule_change(capsys, change, words):
    err = bad(capsys, "shengji", "winner", *L10S, "--plays", "♥A | ♥A | ♥3 | ♥K", "--rule", change)
    assert words in err


def test_rule_change_reaches_the_tournament_kernels():
    """The same deals and seed: the kitty multiplier changes the attackers' points."""
    from analyzer.shengji.rules import with_changes

    base = api.tournament("heuristic,random", 60, "classic", seed=3)
    changed = api.tournament("heuristic,random", 60, with_changes(
        "classic", ["kitty_multiplier=pow2_pairs"]), seed=3)
    assert changed["rules"] == "classic (kitty_multiplier=pow2_pairs)"
    assert base["rules"] == "classic"
    assert json.dumps(base["results"]) != json.dumps(changed["results"])
