"""The app of ``xianniu serve``: one page on 127.0.0.1 with every game's table, the player's
library of hands and the latest strategy report.

Routes (beside each table, mounted whole under ``/<game>/``, its routes as in :mod:`.app`):

- ``GET /`` the home page; ``GET /api/home`` its words, the tables, whether a report is
  there;
- ``GET /api/library/hands?game=&preset=&tag=&since=&until=&limit=``: the stored hands
  (finished hands only, so nothing hidden is left in them) and, per game, the player's
  mean result with its 95% CI and n;
- ``GET /api/library/hands/{id}/record``: one hand's record (the tables open it in their
  review at ``/<game>/#hand=ID``);
- ``GET /api/library/export.jsonl?…``: the hands that match, one record a line;
- ``POST /api/library/split?…``: a job splitting each hand's result into luck and skill
  (:mod:`analyzer.core.luck`; splits kept in the library are read, not made again);
  ``GET /api/jobs/{job}``: its progress, then per game the means, losses by kind and the
  trend by week;
- ``/report/…``: the report folder (``report.html``), when there is one.

The library is opened per request (one SQLite connection per thread, as SQLite wants); the
tables store their hands in the same file. The machinery names no game: the tables come
from the registry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.library import Filter, Hand, Library, LibraryError, parse_when
from ..core.stats import Z95
from .guard import LOOPBACK, LoopbackOnly
from .jobs import JobRunner
from .sessions import SessionError

STATIC = Path(__file__).resolve().parent / "static"
MAX_LIST = 5000  # hands a listing returns at most (the page asks for fewer)

WORDS = {
    "zh": {"home_title": "xianniu 练习与牌谱", "tables": "牌桌", "library": "牌谱库",
           "report": "策略报告", "open_report": "打开最新的策略报告", "no_report":
           "还没有报告：运行 xianniu report", "game": "游戏", "all": "全部",
           "rules": "规则", "tag": "标签", "since": "起", "until": "止", "filter": "筛选",
           "export": "导出", "played": "时间", "seat": "座位", "result": "结果",
           "tags": "标签", "open_review": "复盘", "download": "下载", "no_hands":
           "库里还没有牌局：在牌桌上打完一局，或者用 xianniu library add 导入",
           "mean_result": "平均结果", "hands": "局", "lang_switch": "English",
           "offline": "本页不需要网络", "error": "错误", "n": "样本", "ci95": "95% 置信区间",
           "per_hand": "每局", "unknown_seat": "座位未知的局不计", "preset": "规则",
           "unit_points": "分", "unit_levels": "级", "luck_skill": "运气与技术",
           "compute_split": "计算运气与技术", "part_result": "结果", "part_deal": "发牌",
           "part_decisions": "决策", "part_lie": "牌运", "mean_per_hand": "每局平均",
           "by_kind": "各类决策的平均损失（每个决策）", "by_week": "按周趋势（每局平均）",
           "kind": "类型", "loss": "损失", "week": "周",
           "puzzles": "残局题", "pz_rating": "你的等级分", "pz_kept": "题", "pz_tried": "做过",
           "pz_solved": "答对 / 作答", "pz_due": "待复习", "pz_open": "做题", "pz_none":
           "还没有题：用 xianniu puzzles mine 挖题",
           "split_help": "结果 = 发牌（发到手时这手牌的价值）+ 决策（复盘损失之和的相反数）"
                         "+ 牌运（其余）；以默认机器人评估，括号内为 95% 置信区间"},
    "en": {"home_title": "xianniu: practice and hands", "tables": "Tables",
           "library": "Library", "report": "Strategy report",
           "open_report": "Open the latest strategy report",
           "no_report": "No report yet: run xianniu report", "game": "Game", "all": "All",
           "rules": "Rules", "tag": "Tag", "since": "From", "until": "To",
           "filter": "Filter", "export": "Export", "played": "Played", "seat": "Seat",
           "result": "Result", "tags": "Tags", "open_review": "Review",
           "download": "Download", "no_hands": "No hands yet: finish a hand at a table, or "
           "import records with xianniu library add", "mean_result": "Mean result",
           "hands": "hands", "lang_switch": "中文", "offline": "This page needs no network",
           "error": "Error", "n": "n", "ci95": "95% CI", "per_hand": "per hand",
           "unknown_seat": "hands whose seat is not known are left out", "preset": "Rules",
           "unit_points": "points", "unit_levels": "levels", "luck_skill": "Luck and skill",
           "compute_split": "Split luck and skill", "part_result": "Result",
           "part_deal": "Deal", "part_decisions": "Decisions", "part_lie": "The lie",
           "mean_per_hand": "Mean a hand",
           "by_kind": "Mean loss by kind of decision (a decision)",
           "by_week": "Trend by week (mean a hand)", "kind": "Kind", "loss": "Loss",
           "week": "Week",
           "puzzles": "Puzzles", "pz_rating": "Your rating", "pz_kept": "puzzles",
           "pz_tried": "tried", "pz_solved": "solved / answers", "pz_due": "due",
           "pz_open": "Solve",
           "pz_none": "No puzzles yet: mine some with xianniu puzzles mine",
           "split_help": "result = deal (what the hand was worth when dealt) + decisions "
                         "(minus the review's losses) + the lie (the rest: how the unseen "
                         "hands lay, how the others played); valued under the default bot, "
                         "95% CIs in brackets"},
}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status,
                        headers={"Cache-Control": "no-store"})


def _filter(request: Request) -> Filter:
    q = request.query_params
    unknown = set(q) - {"game", "preset", "tag", "since", "until", "limit"}
    if unknown:
        raise ValueError(f"unknown parameter {sorted(unknown)[0]!r}")
    until = q.get("until") or None
    end = None
    if until is not None:
        end = parse_when(until, "until")
        if "T" not in until:
            end = end[:10] + "T23:59:59Z"
    since = q.get("since") or None
    return Filter(game=q.get("game") or None, preset=q.get("preset") or None,
                  tag=q.get("tag") or None,
                  since=parse_when(since, "since") if since else None, until=end)


def _limit(request: Request) -> int:
    text = request.query_params.get("limit", str(MAX_LIST))
    if not text.isdigit() or not 1 <= int(text) <= MAX_LIST:
        raise ValueError(f"limit must be 1..{MAX_LIST}, not {text!r}")
    return int(text)


def mean_results(hands: Iterable[Hand]) -> list[dict[str, Any]]:
    """Per game: the player's mean result a hand with its 95% CI (normal approximation) and
    n, over the hands whose seat is known."""
    by_game: dict[str, list[int]] = {}
    for h in hands:
        if h.result is not None:
            by_game.setdefault(h.game, []).append(h.result)
    out = []
    for game, xs in sorted(by_game.items()):
        n = len(xs)
        mean = sum(xs) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.nan
        half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
        out.append({"game": game, "n": n, "mean": mean,
                    "low": mean - half if n > 1 else None,
                    "high": mean + half if n > 1 else None})
    return out


class _Counter:
    """A job's progress as :func:`analyzer.core.luck.split_library` reports it."""

    def __init__(self, report: Callable[[int, int], None]):
        self.report, self.done, self.total = report, 0, 0

    def expect(self, total: int) -> None:
        self.total = total
        self.report(self.done, total)

    def __call__(self, n: int) -> None:
        self.done += n
        self.report(self.done, self.total)


class _Home:
    def __init__(self, library: Path, tables: dict[str, dict[str, Any]],
                 report: Path | None, jobs: JobRunner):
        self.library, self.tables, self.report, self.jobs = library, tables, report, jobs

    def _open(self) -> Library:
        return Library(self.library)

    def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "home.html", headers={"Cache-Control": "no-store"})

    def info(self, request: Request) -> Response:
        return JSONResponse({"strings": WORDS, "lang": "zh",
                             "tables": list(self.tables.values()),
                             "report": self.report is not None,
                             "library": str(self.library)},
                            headers={"Cache-Control": "no-store"})

    def hands(self, request: Request) -> Response:
        which, limit = _filter(request), _limit(request)
        with self._open() as lib:
            hands = lib.hands(which, limit)
        return JSONResponse({"hands": [h.as_dict() for h in hands],
                             "summary": mean_results(hands),
                             "units": {g: t["unit"] for g, t in self.tables.items()}},
                            headers={"Cache-Control": "no-store"})

    def record(self, request: Request) -> Response:
        text = request.path_params["hand"]
        with self._open() as lib:
            try:
                record = lib.record(int(text))
            except LibraryError as e:
                raise HTTPException(404, str(e)) from None
        return JSONResponse(record, headers={"Cache-Control": "no-store"})

    def split(self, request: Request) -> Response:
        which = _filter(request)
        library = self.library

        def run(progress: Callable[[int, int], None]) -> dict[str, Any]:
            from ..core.luck import split_library
            from ..core.luck_text import split_json

            with Library(library) as lib:  # this thread's own connection
                pairs, left = split_library(lib, which, progress=_Counter(progress))
            return split_json(pairs, left, 0)
        return JSONResponse({"job": self.jobs.submit(run)},
                            headers={"Cache-Control": "no-store"})

    def puzzles(self, request: Request) -> Response:
        """The player's rating, and per game the puzzles kept (or shipped, put in the
        library when first opened), tried, solved and due."""
        from ..core.puzzles import shipped_count
        from ..games import get_game

        with self._open() as lib:
            r = lib.rating(0)
            games = []
            for name in self.tables:
                row = {"name": name, **lib.practice(name)}
                if not row["kept"]:
                    row["shipped"] = shipped_count(get_game(name))
                games.append(row)
        return JSONResponse({"rating": round(r.rating), "rd": round(r.rd), "games": games},
                            headers={"Cache-Control": "no-store"})

    def job(self, request: Request) -> Response:
        try:
            job = self.jobs.get(request.path_params["jid"])
        except SessionError as e:
            raise HTTPException(404, str(e)) from None
        return JSONResponse(job.as_dict(), headers={"Cache-Control": "no-store"})

    def export(self, request: Request) -> Response:
        which = _filter(request)
        with self._open() as lib:
            lines = [json.dumps(lib.record(h.id), ensure_ascii=False)
                     for h in lib.hands(which)]
        return Response("".join(line + "\n" for line in lines),
                        media_type="application/x-ndjson",
                        headers={"Content-Disposition": 'attachment; filename="hands.jsonl"',
                                 "Cache-Control": "no-store"})


def _handler(status: int) -> Callable:
    async def answer(request: Request, exc: Exception) -> Response:
        return _error(status, str(exc))
    return answer


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return _error(exc.status_code, exc.detail)


def make_home(library: str | Path, tables: dict[str, Any], report: str | Path | None = None,
              hosts: Iterable[str] = LOOPBACK) -> Starlette:
    """The app of ``xianniu serve``: ``tables`` maps a registered game's name to its table's
    app (made with the same ``library``); ``report``: a folder holding ``report.html``."""
    from ..games import get_game  # the registry: titles and units, no game imported

    about = {}
    for name in tables:
        game = get_game(name)
        about[name] = {"name": name, "title": game.title, "presets": list(game.facts.presets),
                       "unit": game.facts.returns_unit}
    home = _Home(Path(library), about, Path(report) if report is not None else None,
                 JobRunner())
    routes: list[Any] = [
        Route("/", home.page),
        Route("/api/home", home.info),
        Route("/api/library/hands", home.hands),
        Route("/api/library/hands/{hand:int}/record", home.record),
        Route("/api/library/export.jsonl", home.export),
        Route("/api/library/split", home.split, methods=["POST"]),
        Route("/api/jobs/{jid}", home.job),
        Route("/api/puzzles", home.puzzles),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    if home.report is not None:
        routes.append(Mount("/report", StaticFiles(directory=home.report, html=True),
                            name="report"))
    routes += [Mount(f"/{name}", app=app) for name, app in tables.items()]
    handlers = {HTTPException: _http_error, ValueError: _handler(400)}
    app = Starlette(routes=routes, exception_handlers=handlers,  # type: ignore[arg-type]
                    middleware=[Middleware(LoopbackOnly, hosts=tuple(hosts))])
    app.state.tables = tables
    return app
