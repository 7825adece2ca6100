"""The web table's parts: the bots' view, the words and the web font, the layout (the
machinery names no game), and a server that listens on 127.0.0.1 only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from analyzer.web import fonts
from analyzer.web.i18n import COMMON, merged

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "analyzer" / "web"
GAME_STATIC = {g: ROOT / "analyzer" / g / "web_static" for g in ("xianniu", "dingniu", "shengji")}
GAME_TERMS = re.compile(r"刺|掀|扣|够|牛|喜|亮子|lanzhou|kanniutui|顶牛|算帐|牌九|双升|升级|"
                        r"拖拉机|zhengzhou|dingniu|shengji|xianniu\.|cards?\b|tiles?\b")


# -- the bots -------------------------------------------------------------------------


def _positions(seed: int, n: int):
    """States of a heuristic hand after each of its first ``n`` actions."""
    from analyzer.xianniu.web import XianniuTable

    table = XianniuTable("lanzhou", "heuristic", seed)
    from analyzer.xianniu.records import record_of, replay

    rec = record_of(table.state)
    out = []
    for k in range(min(n, len(rec["actions"])) + 1):
        out.append(replay({**rec, "actions": rec["actions"][:k]}))
    return out


def test_a_bot_sees_its_hand_and_the_public_record_and_nothing_else():
    from analyzer.xianniu.cards import FULL_DECK
    from analyzer.xianniu.kernel_state import ws_from_state
    from analyzer.xianniu.web_bot import seat_view_words
    from kernels.xianniu import game as kg

    differs = 0
    for state in _positions(3, 12):
        seat = state.current_player()
        if seat < 0:
            continue
        truth = ws_from_state(state)
        view = seat_view_words(state, seat, np.random.default_rng(len(state.history)))
        hidden = [kg.WS_HANDS + o for o in range(3) if o != seat]
        hidden += [kg.WS_DISC + o for o in range(3) if o != seat]
        same = [i for i in range(len(truth)) if i not in hidden]
        assert (view[same] == truth[same]).all()
        pool = FULL_DECK & ~state.hands[seat] & ~int(truth[kg.WS_PUBLIC]) \
            & ~int(truth[kg.WS_DISC + seat])
        got = 0
        for w in hidden:
            assert bin(int(view[w])).count("1") == bin(int(truth[w])).count("1")
            assert not got & int(view[w])
            got |= int(view[w])
        assert got == pool
        differs += any(view[w] != truth[w] for w in hidden)
    assert differs > 0  # the true hidden cards are not what the bot is given


@pytest.mark.parametrize("policy", ["heuristic", "tuned2", "pimc", "pimc2"])
def test_a_bot_plays_legal_moves_the_same_from_the_same_seed(policy):
    from analyzer.xianniu.web_bot import Bot

    for state in _positions(5, 6):
        seat = state.current_player()
        if seat < 0:
            continue
        a = Bot(seat, policy, np.random.SeedSequence(9)).choose(state)
        b = Bot(seat, policy, np.random.SeedSequence(9)).choose(state)
        assert a == b and state.can(a)
    with pytest.raises(ValueError, match="policy"):
        Bot(1, "oracle", np.random.SeedSequence(0))


# -- words and font -------------------------------------------------------------------


def _static_text() -> str:
    files = [p for d in (WEB / "static", *GAME_STATIC.values())
             for p in d.iterdir() if p.suffix in (".html", ".js", ".css")]
    return "".join(p.read_text(encoding="utf-8") for p in files)


def test_every_character_of_the_page_is_in_the_web_font():
    have = fonts.charmap()
    need = set(fonts.page_text()) | {c for c in _static_text() if ord(c) > 0x7E}
    missing = sorted(need - have - {"\n", "\t"})
    assert missing == [], f"run python -m analyzer.web.fonts: the font lacks {missing}"


def test_the_font_check_has_teeth():
    assert "龘" not in fonts.charmap() and "掀" in fonts.charmap()


def test_the_page_scripts_hold_no_chinese_words():
    """Every word of the page comes from the word lists (so both languages have it)."""
    cjk = sorted({c for c in _static_text() if "\u4e00" <= c <= "\u9fff"})
    assert cjk == []


def _board_js(game: str) -> str:
    """The page's scripts for ``game``: the machinery's and the game's board."""
    return "".join(p.read_text(encoding="utf-8")
                   for p in (WEB / "static" / "app.js", GAME_STATIC[game] / "board.js"))


def _keys_used(js: str) -> set[str]:
    return set(re.findall(r"\bt\(\"([a-z0-9_]+)\"\)", js))


def test_every_word_the_scripts_ask_for_exists_in_both_languages():
    from analyzer.xianniu.combos import KINDS
    from analyzer.xianniu.engine import ACTION_KINDS
    from analyzer.xianniu.scoring import REASONS_EN
    from analyzer.xianniu.web_strings import STRINGS

    words = merged(STRINGS)
    assert set(words["zh"]) == set(words["en"])
    used = _keys_used(_board_js("xianniu"))
    assert len(used) > 30 and used - set(words["zh"]) == set()
    dynamic = {f"k_{k}" for k in KINDS if k != "set"} | {f"k_set{n}" for n in range(1, 5)}
    dynamic |= {f"act_{k}" for k in ACTION_KINDS} | {f"r_{r}" for r in REASONS_EN}
    dynamic |= {f"ph_{p}" for p in ("qiangci", "lead", "kou_ask", "trick", "discard", "over")}
    dynamic |= {f"end_{e}" for e in ("kou", "table full", "lead holder has no cards")}
    dynamic |= {f"role_{r}" for r in ("头家", "二家", "三家")}
    assert dynamic - set(words["zh"]) == set()


def test_every_word_the_dingniu_board_asks_for_exists_in_both_languages():
    from analyzer.dingniu.rules import TILES
    from analyzer.dingniu.web_strings import STRINGS

    words = merged(STRINGS)
    used = _keys_used(_board_js("dingniu"))
    assert len(used) > 30 and used - set(words["zh"]) == set()
    dynamic = {f"tile_{t.name}" for t in TILES} | {f"seat_{s}" for s in range(4)}
    dynamic |= {"end_normal", "end_suan"}
    assert dynamic - set(words["zh"]) == set()


def test_every_word_the_shengji_board_asks_for_exists_in_both_languages():
    from analyzer.shengji.actions import ACTION_KINDS
    from analyzer.shengji.web_strings import STRINGS

    words = merged(STRINGS)
    used = _keys_used(_board_js("shengji"))
    assert len(used) > 30 and used - set(words["zh"]) == set()
    dynamic = {f"seat_{s}" for s in range(4)} | {f"act_{k}" for k in ACTION_KINDS}
    dynamic |= {f"mv_{k}" for k in ACTION_KINDS} | {"w_banker", "w_attackers"}
    dynamic |= {f"pass_{p}" for p in ("rebel", "declare", "bajiwo")}
    dynamic |= {f"ph_{p}" for p in ("rebel", "declare", "bury", "bajiwo", "play", "done")}
    # the advice's question and answers (analyzer.shengji.advise._question)
    dynamic |= {f"a_{q}" for q in ("declare or pass", "declare", "pass", "close", "造反 or not",
                                   "造反 (rebel)", "扒鸡窝 or pass", "overcall (扒鸡窝)",
                                   "throw or not", "throw", "lead one unit")}
    assert dynamic - set(words["zh"]) == set()


def test_the_word_check_has_teeth():
    assert _keys_used('t("ev") + t(`x`) + t("no_such_word")') == {"ev", "no_such_word"}
    with pytest.raises(ValueError, match="missing in en"):
        merged({"zh": {"only_zh": "只"}, "en": {}})
    assert set(COMMON["zh"]) == set(COMMON["en"])


# -- layout ---------------------------------------------------------------------------


def test_the_machinery_imports_no_game_and_names_none():
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".py", ".js", ".html", ".css"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            for node in ast.walk(ast.parse(text)):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                for name in names:
                    assert not re.search(r"xianniu|dingniu|shengji", name), (path, name)
        hits = GAME_TERMS.findall(text)
        assert hits == [], f"{path.relative_to(ROOT)} names {sorted(set(hits))}"


def test_the_layout_check_has_teeth():
    assert GAME_TERMS.findall("deal the cards; 掀 under lanzhou") == ["cards", "掀", "lanzhou"]


# -- the server binds 127.0.0.1 only --------------------------------------------------------


def test_xianniu_play_listens_on_127_0_0_1_only(tmp_path):
    import httpx2 as httpx
    from webtable import served_command

    # the table, in the app of xianniu serve
    with served_command(["play", "--seed", "4", "--library", str(tmp_path / "lib.sqlite")],
                        "/xianniu/") as url:
        r = httpx.get(f"{url}api/info", timeout=30)
        assert r.status_code == 200 and r.json()["game"] == "xianniu"
        home = httpx.get(f"{url}../api/home", timeout=30).json()
        assert [t["name"] for t in home["tables"]] == ["xianniu", "dingniu", "shengji"]
        assert home["library"] == str(tmp_path / "lib.sqlite")
        assert r.json()["options"]["seed"]["default"] == 4


def test_serve_listens_on_127_0_0_1_only_with_every_table(tmp_path):
    import httpx2 as httpx
    from webtable import served_command

    lib = tmp_path / "mine.sqlite"
    with served_command(["serve", "--library", str(lib)]) as url:
        home = httpx.get(f"{url}api/home", timeout=30).json()
        assert home["library"] == str(lib) and len(home["tables"]) == 3
        for t in home["tables"]:
            info = httpx.get(f"{url}{t['name']}/api/info", timeout=30)
            assert info.json()["game"] == t["name"]
        assert lib.exists()


def test_a_taken_port_is_one_clear_line(tmp_path):
    import socket

    from analyzer.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        lib = tmp_path / "never.sqlite"
        assert main(["play", "--no-open", "--port", str(port), "--library", str(lib)]) == 2
        assert not lib.exists()  # the port is checked before the library is made


def _remote(text: str) -> list[str]:
    """References in ``text`` to anything but the page's own server (its static and game
    folders, from the server's root or beside the page, which may be mounted under a
    prefix)."""
    return (re.findall(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/|@import", text)
            + re.findall(r"(?:src|href)=\"(?!/|data:|static/|game/)", text)
            + re.findall(r"(?:src|href)=\"/(?!static/|game/)", text))


def test_the_page_loads_nothing_from_the_network():
    """Every asset is served by the package: no address outside the page's own server."""
    assert _remote(_static_text()) == []
    assert _remote('<script src="https://cdn.example.org/x.js"></script>') != []
    assert _remote('<link href="fonts.css">') != []
