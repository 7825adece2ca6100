"""郑州双升 at the web table (``xianniu shengji play``): you (seat 0) and a bot partner (seat 2)
against two bots (seats 1 and 3), hand after hand.

The machinery (:mod:`analyzer.web`) stores the sessions and serves the page; this module
deals, runs the bots (:mod:`.web_bot`), checks every action of the human in the reference
engine (a refused one is answered with the engine's reason) and builds what the page may
show from seat 0's view alone (:meth:`.engine.State.view`): its own cards, the kitty only
while it holds it or once it buried it, and the public facts (declarations, failed throws,
tricks, the attackers' points). The other hands and the kitty reach the page only once the
hand is over. Advice is :func:`analyzer.shengji.advise.advise` on the record of the hand so
far, in a background job; the review is the core review (:mod:`analyzer.core.review`) of
the finished hand's record for seat 0. "next hand" deals again at the settled levels, with
the banker the settlement names (a won match starts a new one at 2).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from ..web.bots import BotTurns
from ..web.game import Conflict, Progress, Task, parse_choice, parse_seed
from ..web.review import enter_hand_query, record_review_query
from .actions import (
    ACTION_KINDS,
    BAJIWO_PHASE,
    BURY,
    BURY_PHASE,
    DECLARE_PHASE,
    DONE,
    KITTY_SIZE,
    N_SEATS,
    PLAY,
    PLAY_PHASE,
    REBEL_PHASE,
    Action,
)
from .cards import NT, RANK_NAMES, SUIT_SYMBOLS, format_cards, parse_cards, points
from .engine import SeatView, State, new_hand, random_action
from .records import record_of, replay, start_of
from .rules import DEFAULT_RULES, PRESETS
from .sim import QUERY_POLICY
from .web_bot import BOT_POLICIES, Bot
from .web_strings import STRINGS

HUMAN = 0  # the seat at the keyboard; seat 2 is the bot partner
PARTNER = 2
OPPONENTS = BOT_POLICIES
DEFAULT_OPPONENTS = QUERY_POLICY  # the bots' default: net, the strongest fast policy
STATIC_DIR = Path(__file__).resolve().parent / "web_static"
ADVICE_SAMPLES = 2_000  # deals at most per advice: an answer in seconds
ADVICE_PRECISION = 0.1  # levels (advise's default)
REVIEW_PRECISION = 0.25  # levels: the review asks the advice of every decision, so coarser
NEXT = "next_hand"


def names(cards, ctx=None) -> list[str]:
    """Cards as the page writes them (``["大王", "A♠", "10♥"]``), 主 first once known."""
    return format_cards(cards, ctx).split() if cards else []


def _seed_int(seq: np.random.SeedSequence) -> int:
    return int(seq.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def parse_action(data: Any) -> Action:
    """``{"kind": "play", "cards": "A♠ A♠"}`` (cards as text or a list of card names) as an
    Action; ValueError (one line) if malformed. Whether it is legal is the engine's question."""
    if not isinstance(data, dict):
        raise ValueError("an action must be an object {\"kind\", \"cards\"}")
    kind = data.get("kind")
    if kind not in ACTION_KINDS:
        raise ValueError(f"unknown action {kind!r} (expected one of {', '.join(ACTION_KINDS)} "
                         f"or {NEXT})")
    cards = data.get("cards", "")
    if cards is None:
        cards = ""
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        cards = " ".join(cards)
    if not isinstance(cards, str):
        raise ValueError("\"cards\" must be a string of cards or a list of card names")
    return Action(kind, parse_cards(cards) if cards.strip() else ())


def _trump_name(trump: int | None) -> str | None:
    if trump is None:
        return None
    return "NT" if trump == NT else SUIT_SYMBOLS[trump]


class ShengjiTable(BotTurns):
    """Hands at the table: the engine state of the current one, the bots, the public move
    log, the human seat's decisions and the advice given."""

    def __init__(self, rules: str, opponents: str, seed: int,
                 advice_options: dict[str, Any] | None = None, seed_given: bool = True, *,
                 position: dict[str, Any] | None = None, seat: int | None = HUMAN):
        """A match dealt from ``seed``, or (``position``) the record of one hand so far,
        where the bots wait for ``seat``'s decision (a puzzle's position: nothing moves
        on by itself). ``seat`` None: a bot in every seat."""
        self.rules, self.seed, self.opponents = rules, seed, opponents
        self.seat = -1 if seat is None else seat
        self.frozen = position is not None
        # a seed drawn at random stays on the server: it would tell the hands still to come
        self.seed_given = seed_given
        self.advice_options = {"samples": ADVICE_SAMPLES, "precision": ADVICE_PRECISION,
                               **(advice_options or {})}
        deals, bots = np.random.SeedSequence(seed).spawn(2)
        self._deals = deals
        others = [s for s in range(N_SEATS) if s != self.seat]
        self.bots = {s: Bot(s, opponents, b) for s, b in zip(others, bots.spawn(len(others)))}
        self.hand_no = 0
        self._base = 0  # actions of the earlier hands (+1 a hand): the session's version
        self.history: list[dict[str, Any]] = []  # the earlier hands' results
        if position is None:
            self._start((2, 2), None)  # a match opens with a 抢庄局 at 2
        else:
            self.hand_no = 1
            self._begin(start_of(position))
            self.rules = self.state.rules.name
            for s, a in replay(position).history:
                self._apply(s, a)

    # -- hands -------------------------------------------------------------------------

    def _start(self, levels, banker: int | None) -> None:
        self.hand_no += 1
        rng = random.Random(_seed_int(self._deals.spawn(1)[0]))
        self._begin(new_hand(self.rules, levels, banker, rng=rng))
        self._run_bots()

    def _begin(self, state: State) -> None:
        self.state: State = state
        self.moves: list[dict[str, Any]] = []
        self.decisions: list[dict[str, Any]] = []  # the seat's: index, options, action
        self.advice: dict[int, dict[str, Any]] = {}  # by the hand's action index

    def _next_hand(self) -> None:
        r = self.state.result
        assert r is not None
        self.history.append({"hand": self.hand_no, "banker": r.banker,
                             "levels_before": list(r.levels_before),
                             "levels_after": list(r.levels_after),
                             "winner_team": r.winner_team, "gain": r.gain,
                             "match_won": r.match_won})
        self._base += len(self.state.history) + 1
        if r.match_won:
            self._start((2, 2), None)
        else:
            self._start(r.levels_after, r.next_banker)

    # -- the session API (analyzer.web.game.GameSession) ------------------------------

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def version(self) -> int:
        return self._base + len(self.state.history)

    def act(self, data: Any) -> None:
        if isinstance(data, dict) and data.get("kind") == NEXT:
            if not self.finished:
                raise Conflict("the hand is not over yet: play it to the end first")
            self._next_hand()
            return
        action = parse_action(data)
        if self.finished:
            raise Conflict("the hand is over: deal the next hand")
        if self.state.current_player() != self.seat:
            raise Conflict(f"it is seat {self.state.current_player()}'s turn")
        st = self.state
        n_legal = len(st.legal_actions()) if st.phase not in (BURY_PHASE, PLAY_PHASE) else 2
        index = len(st.history)
        self._apply(self.seat, action)  # the engine checks it first: ValueError says why
        self.decisions.append({"version": index, "n_legal": n_legal,
                               "action": self.moves[-1]})
        self._run_bots()

    def record(self) -> dict[str, Any]:
        if not self.finished:
            raise Conflict("the record shows every hand: save it once the hand is over")
        return record_of(self.state)

    def view(self) -> dict[str, Any]:
        """What the page may show now: built from the seat's view of the hand only."""
        sv = self.state.view(self.seat)
        out = view_of(sv, self.state.rules)
        if out["legal"] is None:  # declaring, 造反 or 扒鸡窝: the engine lists the choices
            out["legal"] = [{"kind": a.kind, "cards": names(a.cards)}
                            for a in self.state.legal_actions()]
        out.update(game="shengji", rules=self.rules, opponents=self.opponents,
                   # the seed tells the deals: shown at a hand's end, if the player chose it
                   seed=self.seed if self.finished and self.seed_given else None,
                   version=self.version, hand_no=self.hand_no, history=self.history,
                   moves=(self.moves if self.finished
                          else [_public(m, self.seat) for m in self.moves]),
                   advice=self.advice.get(len(self.state.history)))
        if self.finished:
            out["end"] = self._end()
        return out

    def advice_task(self) -> Task:
        if self.finished:
            raise Conflict("the hand is over: there is no decision to advise")
        if self.state.current_player() != self.seat:
            raise Conflict("it is not your turn")
        index, record = len(self.state.history), record_of(self.state)
        seed = _seed_int(np.random.SeedSequence([self.seed, self.hand_no, index]))
        options = dict(self.advice_options)
        store = self.advice  # this hand's: a late answer never shows in the next hand

        def task(progress: Progress) -> dict[str, Any]:
            from .advise import advise

            res = advice_json(advise(record, seed=seed, progress=progress, **options))
            store[index] = res
            return res
        return task

    def review_task(self) -> Task:
        if not self.finished:
            raise Conflict("the review comes once the hand is over")
        record = record_of(self.state)
        seed = _seed_int(np.random.SeedSequence([self.seed, self.hand_no]))
        options = {"samples": self.advice_options["samples"],
                   "precision": max(self.advice_options["precision"], REVIEW_PRECISION)}

        def task(progress: Progress) -> dict[str, Any]:
            from ..core.review import review
            from ..games import get_game

            return review(get_game("shengji"), record, [self.seat], seed=seed, progress=progress,
                          **options).to_json()
        return task

    # -- inside ------------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> None:
        st = self.state
        phase, trick = st.phase, len(st.tricks) - 1
        st.apply(action, seat)
        move: dict[str, Any] = {"seat": seat, "kind": action.kind, "phase": phase,
                                "cards": names(action.cards, st.ctx)}
        if phase == PLAY_PHASE:
            done = st.tricks[trick]
            move["trick"] = trick + 1
            if done.failed and len(done.plays) == 1:
                move["failed"] = True  # a throw that did not stand: its forced unit was led
                move["led"] = names(done.plays[0], st.ctx)
            if len(done.plays) == N_SEATS:  # the trick is complete: its winner is public
                move["won_by"], move["points"] = done.winner, done.points
        self.moves.append(move)

    # -- a puzzle's lines (analyzer.web.puzzle) -----------------------------------------

    def hands_json(self) -> list[list[str]]:
        """Every seat's hand now (only ever sent once the puzzle is answered)."""
        return [names(h, self.state.ctx) for h in self.state.hands]

    def action_page(self, action: Action) -> dict[str, Any]:
        """``action`` of the seat to act as the page shows it."""
        return {"seat": self.state.current_player(), "kind": action.kind,
                "cards": names(action.cards, self.state.ctx)}

    def _end(self) -> dict[str, Any]:
        st = self.state
        r = st.result
        assert r is not None
        s = r.settlement
        return {"attacker_points": s.attacker_points, "trick_points": r.trick_points,
                "penalties": r.penalties, "kitty": names(st.kitty, st.ctx),
                "kitty_points": s.kitty_points, "multiplier": s.multiplier,
                "winner": s.winner, "winner_team": r.winner_team, "gain": r.gain,
                "banker": r.banker, "levels_before": list(r.levels_before),
                "levels_after": list(r.levels_after), "next_banker": r.next_banker,
                "match_won": r.match_won,
                "dealt": [names(h) for h in st.deals[-1][0]],
                "dealt_kitty": names(st.deals[-1][1])}


def view_of(sv: SeatView, rules) -> dict[str, Any]:
    """The page's view of one seat's :class:`.engine.SeatView` (nothing else is read)."""
    from .cards import context

    ctx = None if sv.trump is None or sv.level is None else context(
        sv.level, sv.trump, rules.nt_level_joker_tractor)
    over = sv.phase == DONE
    tricks = []
    for i, (leader, plays) in enumerate(sv.tricks):
        row: dict[str, Any] = {"leader": leader, "plays": [
            {"seat": (leader + j) % N_SEATS, "cards": names(p, ctx)} for j, p in enumerate(plays)]}
        if len(plays) == N_SEATS:
            row["points"] = sum(points(p) for p in plays)
            if i + 1 < len(sv.tricks):
                row["winner"] = sv.tricks[i + 1][0]  # the winner leads the next trick
        tricks.append(row)
    if over and tricks and sv.result is not None:
        tricks[-1]["winner"] = _last_winner(sv, rules)
    out: dict[str, Any] = {
        "you": sv.seat, "partner": (sv.seat + 2) % N_SEATS, "phase": sv.phase,
        "to_act": sv.current_player, "over": over,
        "hand": names(sv.hand, ctx), "hand_sizes": list(sv.hand_sizes),
        "levels": [RANK_NAMES[v] for v in sv.levels],
        "level": None if sv.level is None else RANK_NAMES[sv.level],
        "trump": _trump_name(sv.trump), "banker": sv.banker, "grab": sv.grab,
        "declarations": [{"seat": s, "cards": names(c), "phase": p}
                         for s, c, p in sv.declarations],
        "standing": None if sv.standing is None else {"seat": sv.standing[0],
                                                      "cards": names(sv.standing[1])},
        "random_trump_card": (None if sv.random_trump_card is None
                              else names((sv.random_trump_card,))[0]),
        "kitty_takers": list(sv.kitty_takers),
        "kitty": None if sv.kitty is None else names(sv.kitty, ctx),
        "failed_throws": [{"seat": s, "tried": names(t, ctx), "led": names(led, ctx)}
                          for s, t, led in sv.failed_throws],
        "known": [names(k, ctx) for k in sv.known_cards],
        "tricks": tricks, "attacker_points": sv.attacker_points,
        "legal": [], "select": None,
    }
    if not over and sv.current_player == sv.seat:
        out.update(_choices(sv, rules))
    return out


def _last_winner(sv: SeatView, rules) -> int | None:
    """The last trick's winner, from its public plays (the primitives' trick winner)."""
    from .cards import context
    from .tricks import trick_winner

    leader, plays = sv.tricks[-1]
    if sv.level is None or sv.trump is None or len(plays) != N_SEATS:
        return None
    ctx = context(sv.level, sv.trump, rules.nt_level_joker_tractor)
    return (leader + trick_winner(list(plays), ctx, rules)) % N_SEATS


def _choices(sv: SeatView, rules) -> dict[str, Any]:
    """What the seat may do now: the listed choices, or the cards to select."""
    phase = sv.phase
    if phase == BURY_PHASE:
        return {"select": {"kind": BURY, "count": KITTY_SIZE}}
    if phase == PLAY_PHASE:
        leader, plays = sv.tricks[-1]
        count = len(plays[0]) if plays else None
        return {"select": {"kind": PLAY, "count": count, "lead": not plays}}
    if phase in (REBEL_PHASE, DECLARE_PHASE, BAJIWO_PHASE):
        return {"legal": None}  # the table lists them (State.legal_actions)
    return {}


def _public(move: dict[str, Any], seat: int) -> dict[str, Any]:
    """A move as ``seat`` saw it: another seat's bury is face down."""
    if move["kind"] == BURY and move["seat"] != seat:
        return {**move, "cards": []}
    return move


def _entry_action(entry: dict[str, Any]) -> dict[str, Any]:
    """A record entry ``{"seat", "action", "cards"}`` as the page's action."""
    return {"kind": entry["action"], "cards": names(parse_cards(entry["cards"]))
            if entry.get("cards") else []}


def advice_json(advice: Any) -> dict[str, Any]:
    """The advice as the page shows it, best first: each action, its EV with 95% CI and n,
    the paired difference best − it; the player's question first. Only these fields:
    nothing of another hand leaves the server."""
    data = advice.to_json() if hasattr(advice, "to_json") else advice
    rows = []
    for a in data["actions"]:
        diff = a["diff"]
        rows.append({"action": _entry_action(a["action"]),
                     "group": [_entry_action(g) for g in a.get("group", [a["action"]])],
                     "ev": float(a["ev"]),
                     "ci95": [float(x) for x in a["ci95"]], "n": int(a["n"]),
                     "label": a.get("label", ""),
                     "diff": {k: float(diff[k]) for k in ("value", "low", "high")}
                     | {"n": int(diff["n"])}})
    q = data.get("question")
    question = None if not q else {
        "question": q["question"], "answer": q["answer"],
        "yes_less_no": {k: float(q["yes_less_no"][k]) for k in ("value", "low", "high")}
        | {"n": int(q["yes_less_no"]["n"])}}
    li = data.get("listing", {})
    return {"seat": data.get("seat"), "actions": rows, "question": question,
            "separated": bool(data.get("separated", False)), "deals": int(data.get("deals", 0)),
            "stopped": data.get("stopped"), "policy": data.get("policy"),
            "opponents": data.get("others_policy"), "unit": "levels",
            "legal": li.get("legal"), "valued": li.get("valued")}


def review_record(record: Any) -> dict[str, Any]:
    """A record replayed action by action: every position with all hands open (it is the
    reader's own record), and the settlement if the hand ended."""
    state = replay(record)
    shadow = start_of(record)
    frames = [_frame(shadow, None)]
    for seat, action in state.history:
        phase = shadow.phase
        shadow.apply(action)
        frames.append(_frame(shadow, {"seat": seat, "kind": action.kind, "phase": phase,
                                      "cards": names(action.cards, shadow.ctx)}))
    out: dict[str, Any] = {"rules": state.rules.name, "frames": frames,
                           "over": state.is_terminal()}
    if state.result is not None:
        r = state.result
        out["result"] = {"attacker_points": r.settlement.attacker_points,
                         "winner": r.settlement.winner, "levels_after": list(r.levels_after),
                         "next_banker": r.next_banker}
    return out


def _frame(st: State, move: dict[str, Any] | None) -> dict[str, Any]:
    return {"move": move, "hands": [names(h, st.ctx) for h in st.hands],
            "kitty": names(st.kitty, st.ctx), "to_act": st.current_player(),
            "trump": _trump_name(st.trump), "banker": st.banker,
            "attacker_points": st.attacker_points}


class ShengjiWeb:
    """双升's part of the web table (:class:`analyzer.web.game.WebGame`)."""

    name = "shengji"
    seat = HUMAN
    static_dir = STATIC_DIR
    strings = STRINGS

    def __init__(self, rules: str | None = None, opponents: str = DEFAULT_OPPONENTS,
                 seed: int | None = None, advice_options: dict[str, Any] | None = None):
        self.rules = parse_choice({"rules": rules}, "rules", sorted(PRESETS), DEFAULT_RULES)
        self.opponents = parse_choice({"opponents": opponents}, "opponents", OPPONENTS,
                                      DEFAULT_OPPONENTS)
        self.seed = seed
        self.advice_options = dict(advice_options or {})
        self.options = {"rules": {"choices": sorted(PRESETS), "default": self.rules},
                        "opponents": {"choices": list(OPPONENTS), "default": self.opponents},
                        "seed": {"default": seed}}
        opts = {"samples": self.advice_options.get("samples", ADVICE_SAMPLES),
                "precision": max(self.advice_options.get("precision", ADVICE_PRECISION),
                                 REVIEW_PRECISION)}
        self.queries = {"review_record": record_review_query("shengji", **opts),
                        "enter_hand": enter_hand_query("shengji")}

    def new_game(self, options: Any) -> ShengjiTable:
        if not isinstance(options, dict):
            raise ValueError("\"options\" must be an object")
        rules = parse_choice(options, "rules", sorted(PRESETS), self.rules)
        opponents = parse_choice(options, "opponents", OPPONENTS, self.opponents)
        given = options.get("seed") not in (None, "")
        return ShengjiTable(rules, opponents, parse_seed(options.get("seed")), self.advice_options,
                            given)

    def review_record(self, record: Any) -> dict[str, Any]:
        return review_record(record)

    def position_table(self, position: dict[str, Any], seat: int | None,
                       seed: int) -> ShengjiTable:
        return ShengjiTable(self.rules, self.opponents, seed, self.advice_options,
                            position=position, seat=seat)

    def warmup(self) -> None:
        """Load (or compile, once) the bots' kernels before the first page asks: a new
        table's bidding, then one bot lead (net's search kernels)."""
        ShengjiTable(self.rules, self.opponents, 0, self.advice_options)
        rng = random.Random(0)
        st = new_hand(self.rules, (2, 2), 0, rng=random.Random(1))
        while st.phase != PLAY_PHASE:
            st.apply(random_action(st, rng))
        Bot(st.turn, self.opponents, np.random.SeedSequence(0)).choose(st)


def make_app(rules: str | None = None, opponents: str = DEFAULT_OPPONENTS,
             seed: int | None = None, advice_options: dict[str, Any] | None = None, **kwargs):
    """The Starlette app of the 双升 table (``kwargs``: the machinery's sessions, jobs)."""
    from ..web.app import make_app as make

    # the protocol declares GameSession.finished and .version as attributes; the table's are
    # read-only properties, which the machinery only reads
    return make(ShengjiWeb(rules, opponents, seed, advice_options),  # type: ignore[arg-type]
                **kwargs)


GAME = ShengjiWeb()  # the table with its defaults (make_app builds one with the options given)
