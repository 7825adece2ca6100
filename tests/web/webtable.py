"""Helpers of the web-table tests: a live server on 127.0.0.1, the browser, the checks that
no hidden card reaches the page."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from analyzer.shengji import web as sweb
from analyzer.shengji.engine import random_action
from analyzer.web.server import in_background as live_server  # noqa: F401 (the tests' name)

CARD = re.compile(r"(10|[AJQK2-9])([♠♥♣♦])")


def card_tokens(text: str) -> set[str]:
    """Every card written in ``text`` (``9♠``, ``10♦``)."""
    return {m.group(0) for m in CARD.finditer(text)}


def hidden_cards(table) -> set[str]:
    """The cards the human seat of a 掀牛 table cannot see now: the bots' hands and their
    face-down discards."""
    from analyzer.xianniu.cards import cards_of, format_card

    st = table.state
    mask = 0
    for s in range(3):
        if s != 0:
            mask |= st.hands[s]
    for s, a in st.history:
        if s != 0 and a.kind == "discard":
            mask |= a.cards
    return {format_card(c) for c in cards_of(mask)}


def chromium_path() -> str:
    """The system Chromium (``XIANNIU_CHROMIUM`` overrides); fails the test if none."""
    env = os.environ.get("XIANNIU_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    pytest.fail("no Chromium found: apt-get install chromium (or set XIANNIU_CHROMIUM)")


def dejavu_only_fontconfig(tmp: Path) -> Path:
    """A fontconfig that shows Chromium the DejaVu fonts only (no CJK): Chinese that renders
    at all comes from the page's own web font."""
    conf = tmp / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <cachedir>{tmp}/cache</cachedir>
</fontconfig>
""", encoding="utf-8")
    return conf


def pick(view: dict, rng) -> dict:
    """A random legal action of the view, as the page sends it."""
    a = view["legal"][int(rng.integers(len(view["legal"])))]
    return {"kind": a["kind"], "cards": a["cards"]}


# The tofu detector: each character is drawn on a canvas in the page's font stack and
# compared with a character no font here has; equal pixels mean a missing glyph.
TOFU_JS = """(text) => {
  const chars = [...new Set([...text].filter((c) => c.codePointAt(0) > 0x7e && c.trim()))];
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  const family = getComputedStyle(document.body).fontFamily;
  const draw = (c) => {
    ctx.clearRect(0, 0, 64, 64);
    ctx.font = `48px ${family}`;
    ctx.fillStyle = "#000";
    ctx.fillText(c, 4, 52);
    return Array.from(ctx.getImageData(0, 0, 64, 64).data).join(",");
  };
  const tofu = draw("\\u{10FFFD}");
  const blank = draw(" ");
  const bad = chars.filter((c) => { const img = draw(c); return img === tofu || img === blank; });
  return { chars: chars.length, bad };
}"""


# The tops of an element's box over ten animation frames.
_TOPS_JS = """(el) => new Promise((done) => {
  const tops = [];
  const frame = () => {
    tops.push(el.getBoundingClientRect().top);
    if (tops.length < 10) requestAnimationFrame(frame); else done(tops);
  };
  requestAnimationFrame(frame);
})"""


def assert_steady_under_pointer(page, selector: str) -> None:
    """With the pointer at the lower edge of the first ``selector`` (a card or tile of the hand,
    lifted on hover), the piece settles: its box does not move from frame to frame."""
    card = page.locator(selector).first
    box = card.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 1)
    tops = card.evaluate(_TOPS_JS)
    assert len(set(tops[3:])) == 1, tops


def table_idle(page) -> str:
    """Wait until the table waits for the human (or the hand is over); whose turn."""
    page.wait_for_function("document.body.dataset.busy === '0' && "
                           "document.querySelector('#board').dataset.turn !== 'bot'")
    return page.get_attribute("#board", "data-turn")


def play_xianniu_hand(page, advice: bool) -> int:
    """Click through one hand at the 掀牛 table; the number of my decisions."""
    decisions = 0
    for _ in range(200):
        if table_idle(page) == "over":
            return decisions
        if decisions == 0 and page.locator("#hand .card.usable").count():
            assert_steady_under_pointer(page, "#hand .card.usable")
        version = page.get_attribute("#board", "data-version")
        if advice:
            table = page.wait_for_selector(f"#advice .advice-table[data-version='{version}']")
            assert table.query_selector_all("tr[data-row]")
            forced = page.get_attribute("#board", "data-legal") == "1"
            text = table.inner_text()
            assert ("唯一选择" in text) if forced else ("样本=" in text), text
        else:
            assert page.locator("#advice").is_hidden()
        chips = page.locator("button.legal-play")
        xian = page.locator("#actions button.act[data-kind='xian']")
        if xian.count():  # refuse the 扣: the hand goes on, more decisions to click
            xian.click()
        elif chips.count():
            for c in chips.first.get_attribute("data-cards").split(" "):
                page.click(f"#hand .card[data-card='{c}']")
            page.click("#play-btn:not([disabled])")
        elif page.locator("#discard-btn").count():
            page.locator("#hand .card.usable").first.click()
            page.click("#discard-btn:not([disabled])")
        else:
            page.locator("#actions button.act").first.click()
        page.wait_for_function(
            f"document.querySelector('#board').dataset.version !== '{version}'")
        decisions += 1  # noqa: SIM113 (counts clicks, not loop turns)
    raise AssertionError("the hand did not end")


@contextmanager
def browser_page(tmp: Path) -> Iterator[Any]:
    """A page of headless Chromium (the system's, shown the DejaVu fonts only) that records
    its script errors in ``page.errors`` and fails the test on any at the end."""
    from playwright.sync_api import sync_playwright

    env = {**os.environ, "FONTCONFIG_FILE": str(dejavu_only_fontconfig(tmp))}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), env=env,
                                    args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 1280, "height": 900},
                                   accept_downloads=True).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(60_000)
        page.tmp, page.errors = tmp, errors
        yield page
        assert errors == []
        browser.close()


def play_dingniu_hand(page, moves: int = 30) -> None:
    """Click through one hand at the 顶牛 table, taking the first usable tile each time."""
    for _ in range(moves):
        if table_idle(page) == "over":
            return
        version = page.get_attribute("#board", "data-version")
        page.locator("#hand .tile.usable").first.click()
        page.locator("#actions button.act").first.click()
        page.wait_for_function(
            f"document.querySelector('#board').dataset.version !== '{version}'")
    assert table_idle(page) == "over"


def shengji_idle(page) -> str:
    page.wait_for_function("document.body.dataset.busy === '0' && "
                           "document.querySelector('#board').dataset.turn !== 'bot'")
    return page.get_attribute("#board", "data-turn")


def shengji_table(page, app):
    """The server's table (in ``app``) of the page's 双升 session: the test reads the truth,
    the page does not."""
    sid = page.evaluate("sessionStorage.getItem('xn-shengji-game')")
    return app.state.sessions.slot(sid).obj


def _click_cards(page, names: list[str]) -> None:
    for name in names:
        page.locator(f"#hand .card[data-card='{name}']:not(.selected)").first.click()


def _mixed_lead(table) -> list[str] | None:
    """Two cards of two effective suits of seat 0's hand: a lead the engine refuses."""
    ctx = table.state.ctx
    by_suit: dict[int, int] = {}
    for f in table.state.hands[0]:
        by_suit.setdefault(int(ctx.esuit[f]), f)
    if len(by_suit) < 2:
        return None
    return sweb.names(list(by_suit.values())[:2])


def play_shengji_hand(page, app, advice: bool, rng: random.Random, refuse: bool = False) -> dict:
    """Click through one 双升 hand (the table app ``app``) from the deal to the settlement;
    what was clicked."""
    seen = {"decisions": 0, "phases": set(), "refused": False, "advice": 0, "steady": False}
    for _ in range(200):
        if shengji_idle(page) == "over":
            return seen
        version = page.get_attribute("#board", "data-version")
        phase = page.get_attribute("#board", "data-phase")
        seen["phases"].add(phase)
        if advice:
            table = page.wait_for_selector(f"#advice .advice-table[data-version='{version}']")
            assert table.query_selector_all("tr[data-row]")
            assert "样本=" in table.inner_text()
            seen["advice"] += 1
        else:
            assert page.locator("#advice").is_hidden()
        table = shengji_table(page, app)
        if phase == "play" and not seen["steady"]:
            assert_steady_under_pointer(page, "#hand .card.usable")
            seen["steady"] = True
        if phase == "bury":
            _click_cards(page, page.eval_on_selector_all(
                "#hand .card", "(cs) => cs.slice(0, 8).map((c) => c.dataset.card)"))
            page.click("#bury-btn:not([disabled])")
        elif phase == "play":
            lead = _mixed_lead(table) if refuse and not seen["refused"] and \
                not table.state.tricks[-1].plays else None
            if lead:  # a throw of two suits: refused, with the engine's reason on the page
                _click_cards(page, lead)
                page.click("#play-btn:not([disabled])")
                page.wait_for_selector("#refused")
                assert "cannot lead" in page.inner_text("#refused")
                assert page.get_attribute("#board", "data-version") == version
                seen["refused"] = True
                page.click("#clear-btn")
            if advice and rng.random() < 0.5:  # the advised play, picked from the advice
                page.click("#advice tr[data-row='0']")
                picked = page.eval_on_selector_all(
                    "#hand .card.selected", "(cs) => cs.map((c) => c.dataset.card)")
                best = page.eval_on_selector_all(
                    "#advice tr[data-row='0'] td:first-child .card",
                    "(cs) => cs.map((c) => c.dataset.card)")
                assert sorted(picked) == sorted(best)
            else:
                a = random_action(table.state.clone(), rng)
                _click_cards(page, sweb.names(a.cards))
            page.click("#play-btn:not([disabled])")
        else:  # declaring, 造反, 扒鸡窝: one of the listed choices
            buttons = page.locator("#actions button.act")
            buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(
            f"document.querySelector('#board').dataset.version !== '{version}'")
        seen["decisions"] += 1
    raise AssertionError("the hand did not end")


def listening(port: int) -> list[str]:
    """Local addresses (hex, from /proc/net/tcp*) listening on ``port``."""
    out = []
    for name in ("tcp", "tcp6"):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            addr, p = fields[1].rsplit(":", 1)
            if int(p, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                out.append(addr)
    return out


@contextmanager
def served_command(args: list[str], path: str = "/") -> Iterator[str]:
    """``xianniu ARGS --no-open --port P`` in a subprocess: it says it serves at the URL
    ``http://127.0.0.1:P`` + ``path`` and listens on 127.0.0.1 and no other interface; the
    URL, the process stopped at the end."""
    from analyzer.web.server import free_port

    port = free_port()
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "analyzer.cli", *args, "--no-open",
                             "--port", str(port)], cwd=root,
                            env={**os.environ, "BROWSER": "true"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        url = f"http://127.0.0.1:{port}{path}"
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == f"serving {url} (Ctrl-C to stop)"
        for _ in range(200):
            if listening(port):
                break
            time.sleep(0.05)
        assert listening(port) == ["0100007F"]  # 127.0.0.1, and no other interface
        yield url
    finally:
        proc.terminate()
        proc.wait(20)
