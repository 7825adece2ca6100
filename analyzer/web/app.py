"""The Starlette application of the web table, for any game (:class:`.game.WebGame`).

Every answer of ``/api`` is JSON; every error is ``{"error": one line}`` with a 4xx status
(400 bad input, 404 unknown game or job, 409 out of turn or stale, 413 too large) and
leaves the game as it was; a request to another host name than the loopback ones, or a
write from another site's page, is refused with 403 (:mod:`.guard`). Routes:

- ``GET /`` the page; ``/static/…`` its scripts, style and font; ``/game/…`` the board.
- ``GET /api/info``: the game, its words in both languages, the new-game options.
- ``POST /api/games`` ``{"options": {…}}``: a new game, ``{"id", "view"}``.
- ``GET /api/games/{id}``: the view; ``POST /api/games/{id}/act`` ``{"version", "action"}``.
- ``POST /api/games/{id}/advice`` ``{"version"}`` and ``POST /api/games/{id}/review``:
  start a job, ``{"job"}``; ``GET /api/jobs/{job}``: its progress, then its result.
- ``GET /api/games/{id}/record``: the record of a finished game.
- ``POST /api/records/review`` ``{"record"}``: a record replayed, position by position.
- ``POST /api/queries/{name}`` ``{…}``: start one of the game's queries as a job.
- ``POST /api/puzzles/next`` or ``/api/puzzles/{id}`` (with a library): a puzzle at the
  table (:mod:`.puzzle`), ``{"id", "view"}``; its answer is an ``act``.

With a library (``make_app(…, library=PATH)``), every hand is stored in it when it ends
(each hand once: a session may play hand after hand; the human's seat is the player's):
the answer that ends it carries ``"stored": {"id": …}``, or ``{"error": …}`` if the
library refused it (the hand is not lost to the page: its record can still be saved).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .game import Conflict, WebGame
from .guard import LOOPBACK, LoopbackOnly
from .i18n import DEFAULT_LANG, merged
from .jobs import JobRunner
from .sessions import SessionError, SessionStore, Slot

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1 << 20  # a record of a whole hand is a few kB

log = logging.getLogger(__name__)


class BadRequest(ValueError):
    """Input the request itself gets wrong (HTTP 400)."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status,
                        headers={"Cache-Control": "no-store"})


def _ok(data: Any) -> JSONResponse:
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; BadRequest if it is too large, not JSON or not an object."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"the request is larger than {MAX_BODY} bytes")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadRequest(f"the request is not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    return data


class _Routes:
    """The handlers of one app: each reads its request, asks the game, answers JSON."""

    def __init__(self, game: WebGame, sessions: SessionStore, jobs: JobRunner,
                 library: Path | None = None):
        self.game, self.sessions, self.jobs = game, sessions, jobs
        self.library = library
        self.words = merged(game.strings)

    def _keep(self, slot: Slot, view: dict[str, Any]) -> dict[str, Any]:
        """``view``, and the hand stored in the library if it has just ended (called with
        the slot's lock held)."""
        if (self.library is None or not slot.keeps or not slot.obj.finished
                or slot.stored_at == slot.obj.version):
            return view
        from ..core.library import Library  # only a table with a library opens one

        try:
            with Library(self.library) as lib:
                hand_id = lib.add(slot.obj.record(), seat=self.game.seat, source="table").id
            slot.stored_at = slot.obj.version
            return {**view, "stored": {"id": hand_id}}
        except (ValueError, OSError) as e:
            log.warning("the hand was not stored in %s: %s", self.library, e)
            return {**view, "stored": {"error": " ".join(str(e).split())}}

    def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    def info(self, request: Request) -> Response:
        return _ok({"game": self.game.name, "strings": self.words, "lang": DEFAULT_LANG,
                    "options": self.game.options, "queries": sorted(self.game.queries)})

    async def new_game(self, request: Request) -> Response:
        options = (await _body(request)).get("options", {})
        obj = await run_in_threadpool(self.game.new_game, options)  # the bots may move first
        sid = self.sessions.add(obj)
        slot = self.sessions.slot(sid)
        with slot.lock:
            return _ok({"id": sid, "view": self._keep(slot, obj.view())})

    async def puzzle(self, request: Request) -> Response:
        """A puzzle of the library at the table: ``/api/puzzles/next`` (the one to practise
        now) or ``/api/puzzles/{id}``; ``{"id", "view"}`` as a new game's."""
        from ..core.library import LibraryError
        from .puzzle import open_puzzle

        which = request.path_params["pid"]
        if self.library is None:
            raise HTTPException(404, "this table keeps no library, where puzzles are kept "
                                "(open it from xianniu serve)")
        if which != "next" and not which.isdigit():
            raise BadRequest(f"a puzzle is named by its number or \"next\", not {which!r}")
        try:
            obj = await run_in_threadpool(open_puzzle, self.library, self.game.name, self.game,
                                          None if which == "next" else int(which))
        except LibraryError as e:
            raise HTTPException(404, str(e)) from None
        sid = self.sessions.add(obj)
        slot = self.sessions.slot(sid)
        slot.keeps = False
        with slot.lock:
            return _ok({"id": sid, "view": obj.view()})

    def _slot(self, request: Request):
        return self.sessions.slot(request.path_params["sid"])

    def view(self, request: Request) -> Response:
        slot = self._slot(request)
        with slot.lock:
            return _ok(slot.obj.view())

    async def act(self, request: Request) -> Response:
        body = await _body(request)
        slot = self._slot(request)

        def run() -> dict[str, Any]:
            with slot.lock:
                _check_version(slot.obj, body)
                if "action" not in body:
                    raise BadRequest("the request needs \"action\"")
                slot.obj.act(body["action"])  # and the bots' answers
                return self._keep(slot, slot.obj.view())
        return _ok(await run_in_threadpool(run))

    async def advice(self, request: Request) -> Response:
        body = await _body(request)
        slot = self._slot(request)
        with slot.lock:
            _check_version(slot.obj, body)
            task = slot.obj.advice_task()
        return _ok({"job": self.jobs.submit(task)})

    def review(self, request: Request) -> Response:
        slot = self._slot(request)
        with slot.lock:
            task = slot.obj.review_task()
        return _ok({"job": self.jobs.submit(task)})

    def record(self, request: Request) -> Response:
        slot = self._slot(request)
        with slot.lock:
            return _ok(slot.obj.record())

    def job(self, request: Request) -> Response:
        return _ok(self.jobs.get(request.path_params["jid"]).as_dict())

    async def review_record(self, request: Request) -> Response:
        body = await _body(request)
        if "record" not in body:
            raise BadRequest("the request needs \"record\": a game record")
        return _ok(await run_in_threadpool(self.game.review_record, body["record"]))

    async def query(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.game.queries:
            raise HTTPException(404, f"no query {name!r} (choose "
                                f"{', '.join(sorted(self.game.queries))})")
        task = self.game.queries[name](await _body(request))
        return _ok({"job": self.jobs.submit(task)})


def _check_version(obj: Any, body: dict[str, Any]) -> None:
    """Refuse an action or advice request sent from a page that has not seen the last move."""
    version = body.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BadRequest("the request needs \"version\": the number of actions the page "
                         "has seen")
    if version != obj.version:
        raise Conflict(f"this page is stale: the hand has moved on to action "
                       f"{obj.version} (this page saw {version}); reload it")


def _handler(status: int):
    async def answer(request: Request, exc: Exception) -> Response:
        return _error(status, str(exc))
    return answer


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return _error(exc.status_code, exc.detail)


async def _internal(request: Request, exc: Exception) -> Response:
    log.exception("internal error", exc_info=exc)
    return _error(500, f"internal error: {type(exc).__name__}")


def make_app(game: WebGame, sessions: SessionStore | None = None,
             jobs: JobRunner | None = None, hosts: Iterable[str] = LOOPBACK,
             library: str | Path | None = None) -> Starlette:
    """The web table for ``game``; ``sessions`` and ``jobs`` are made when not given. It
    answers only requests addressed to ``hosts`` (the loopback names) and refuses
    cross-origin writes (:mod:`.guard`); with ``library``, a library file, it stores every
    hand there when it ends."""
    sessions = SessionStore() if sessions is None else sessions
    jobs = JobRunner() if jobs is None else jobs
    r = _Routes(game, sessions, jobs, Path(library) if library is not None else None)
    routes = [
        Route("/", r.page),
        Route("/api/info", r.info),
        Route("/api/games", r.new_game, methods=["POST"]),
        Route("/api/games/{sid}", r.view),
        Route("/api/games/{sid}/act", r.act, methods=["POST"]),
        Route("/api/games/{sid}/advice", r.advice, methods=["POST"]),
        Route("/api/games/{sid}/review", r.review, methods=["POST"]),
        Route("/api/games/{sid}/record", r.record),
        Route("/api/jobs/{jid}", r.job),
        Route("/api/records/review", r.review_record, methods=["POST"]),
        Route("/api/queries/{name}", r.query, methods=["POST"]),
        Route("/api/puzzles/{pid}", r.puzzle, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Mount("/game", StaticFiles(directory=game.static_dir), name="game"),
    ]
    handlers = {HTTPException: _http_error, Conflict: _handler(409),
                ValueError: _handler(400), SessionError: _handler(404), Exception: _internal}
    app = Starlette(routes=routes, exception_handlers=handlers,
                    middleware=[Middleware(LoopbackOnly, hosts=tuple(hosts))])
    app.state.sessions, app.state.jobs, app.state.game = sessions, jobs, game
    return app
