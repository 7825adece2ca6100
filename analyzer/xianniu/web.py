"""掀牛 at the web table (``xianniu play``): one hand against two bots, seen from seat 0.

The machinery (:mod:`analyzer.web`) stores the sessions and serves the page; this module
deals, runs the bots (:mod:`.web_bot`), checks every action of the human through the
reference engine, and builds what the page may show: the human's hand, every public move,
the captured counts; the other hands only once the hand is over. Advice is
:func:`analyzer.xianniu.advise.advise` on the record of the hand so far, computed on demand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..web.bots import BotTurns
from ..web.game import Conflict, Progress, Task, parse_choice, parse_seed
from ..web.review import enter_hand_query, record_review_query, review
from .cards import N_SEATS, cards_of, format_card, parse_hand, parse_mask
from .combos import try_classify
from .defaults import ADVICE_OPPONENTS, ADVICE_POLICY, DECISION_POLICY
from .describe import SEAT_NAMES, settlement_json
from .engine import ACTION_KINDS, PLAY, Action, State, new_hand
from .records import record_of, replay, start_of
from .rules import DEFAULT_RULES, PRESETS
from .web_bot import BOT_POLICIES, Bot
from .web_strings import STRINGS

HUMAN = 0  # the seat at the keyboard
OPPONENTS = tuple(BOT_POLICIES)  # every policy the game plays
STATIC_DIR = Path(__file__).resolve().parent / "web_static"
REVIEW_PRECISION = 0.5  # points: the review asks the advice of every decision, so coarser


def cards_json(mask: int) -> list[str]:
    """A mask as card strings in rank order, ``["9♠", "9♥"]``."""
    return [format_card(c) for c in cards_of(mask)]


def _play_json(mask: int, rules) -> dict[str, Any]:
    """Cards, and the combination they make (``combo``: a kind of :mod:`.combos`)."""
    play = try_classify(mask, rules)
    return {"cards": cards_json(mask), "combo": play.kind if play else "",
            "size": play.size if play else 0}


def action_json(state_before: State, seat: int, action: Action) -> dict[str, Any]:
    """One move as the page shows it: who, what, in which phase."""
    out = {"seat": seat, "kind": action.kind, "phase": state_before.phase, "cards": []}
    if action.cards:
        out.update(_play_json(action.cards, state_before.rules))
    if action.kind == "xian":
        out["target"] = state_before.lead_holder
    return out


def parse_action(data: Any) -> Action:
    """``{"kind": "play", "cards": "9♠ 9♥"}`` (cards as a string or a list of strings) as an
    Action; ValueError if malformed. Whether it is legal is the engine's question."""
    if not isinstance(data, dict):
        raise ValueError("an action must be an object {\"kind\", \"cards\"}")
    kind = data.get("kind")
    if kind not in ACTION_KINDS:
        raise ValueError(f"unknown action {kind!r} (expected one of {', '.join(ACTION_KINDS)})")
    cards = data.get("cards", "")
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        cards = " ".join(cards)
    if not isinstance(cards, str):
        raise ValueError("\"cards\" must be a string of cards or a list of card strings")
    mask = parse_mask(cards) if cards.strip() else 0
    if kind not in (PLAY, "discard") and mask:
        raise ValueError(f"a {kind} takes no cards")
    return Action(kind, mask)



class XianniuTable(BotTurns):
    """One hand at the table: the engine state, the bots, the moves so far, the advice."""

    def __init__(self, rules: str, opponents: str, seed: int, advisor=None,
                 advice_options: dict[str, Any] | None = None, *,
                 position: dict[str, Any] | None = None, seat: int | None = HUMAN):
        """A new hand dealt from ``seed``, or (``position``) the record of a hand so far,
        where the bots wait for ``seat``'s decision (a puzzle's position: nothing moves
        on by itself). ``seat`` None: a bot in every seat."""
        self.seed, self.opponents = seed, opponents
        self.seat = -1 if seat is None else seat
        self.frozen = position is not None
        self._advice_options = dict(advice_options or {})
        deal_seed, banker_seed, *bot_seeds = np.random.SeedSequence(seed).spawn(2 + N_SEATS)
        self.moves: list[dict[str, Any]] = []
        if position is None:
            order = np.random.default_rng(deal_seed).permutation(48)
            hands = [sum(1 << int(c) for c in order[16 * s:16 * s + 16]) for s in range(N_SEATS)]
            banker = int(np.random.default_rng(banker_seed).integers(N_SEATS))
            self.state: State = new_hand(hands, rules, banker)
        else:
            self.state = start_of(position)
            for s, a in replay(position).history:
                self._apply(s, a)
        self.bots = {s: Bot(s, opponents, bot_seeds[s]) for s in range(N_SEATS)
                     if s != self.seat}
        self.decisions: list[dict[str, Any]] = []  # the human's: where, how many options
        self.advice: dict[int, dict[str, Any]] = {}  # by version
        self._advisor = advisor
        if position is None:
            self._run_bots()

    # -- the session API (analyzer.web.game.GameSession) ------------------------------

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def version(self) -> int:
        return len(self.state.history)

    def act(self, data: Any) -> None:
        action = parse_action(data)
        if self.finished:
            raise Conflict("the hand is over: start a new one")
        if self.state.current_player() != self.seat:
            raise Conflict(f"it is seat {self.state.current_player()}'s turn")
        n_legal = len(self.state.legal_actions())
        self._apply(self.seat, action)  # the engine checks it first: ValueError names why
        self.decisions.append({"version": self.version - 1, "n_legal": n_legal,
                               "action": self.moves[-1]})
        self._run_bots()

    def record(self) -> dict[str, Any]:
        if not self.finished:
            raise Conflict("the record shows every hand: save it once the hand is over")
        return record_of(self.state)

    def view(self) -> dict[str, Any]:
        """What the page may show now: built from the seat's view of the hand only
        (:meth:`.engine.State.view`); the other hands once the hand is over."""
        st = self.state
        sv = st.view(self.seat) if self.seat >= 0 else None
        r = st.rules
        out: dict[str, Any] = {
            # the seed alone would tell the deal: shown once the hand is over
            "game": "xianniu", "rules": r.name,
            "seed": self.seed if self.finished else None,
            "opponents": self.opponents, "you": self.seat, "banker": st.banker,
            "roles": [SEAT_NAMES[(s - st.banker) % N_SEATS] for s in range(N_SEATS)],
            "version": self.version, "phase": st.phase, "to_act": st.current_player(),
            "table_cap": r.table_cap, "gou": r.gou_min, "ci": r.ci_min,
            "moves": self.moves if self.finished else [_public(m, self.seat) for m in self.moves],
            "legal": [], "over": self.finished,
            "advice": self.advice.get(self.version),
        }
        if sv is not None:
            out.update(
                hand=cards_json(sv.hand), counts=list(sv.hand_sizes),
                captured=[sum(p.size for p in plays) for plays in sv.captured],
                captured_plays=[[_play_json(p.mask, r) for p in plays] for plays in sv.captured],
                table=sum(p.size for plays in sv.captured for p in plays),
                top=None if sv.top is None else {**_play_json(sv.top.mask, r),
                                                  "owner": sv.top_owner},
                lead_holder=sv.lead_holder, xian=[list(e) for e in sv.xian_events],
                my_discards=cards_json(sv.discards))
            if sv.to_act == self.seat:
                out["legal"] = [action_json(st, self.seat, a) for a in st.legal_actions()]
        if self.finished:
            sett = st.settlement()
            out.update(end=st.end_reason, settlement=settlement_json(sett),
                       dealt=[cards_json(h) for h in st.dealt],
                       left=[cards_json(h) for h in st.hands])
        return out

    def advice_task(self) -> Task:
        if self.finished:
            raise Conflict("the hand is over: there is no decision to advise")
        if self.state.current_player() != self.seat:
            raise Conflict("it is not your turn")
        version, record = self.version, record_of(self.state)
        legal = self.state.legal_actions()
        if len(legal) == 1:  # nothing to choose: nothing to estimate
            forced = {"seat": self.seat, "forced": True, "separated": True, "deals": 0,
                      "actions": [{"action": action_json(self.state, self.seat, legal[0])}]}
            self.advice[version] = forced
            return lambda progress: forced
        advisor = self._advisor_fn()

        def task(progress: Progress) -> dict[str, Any]:
            res = _advice_json(advisor(record, seed=self.seed, progress=progress,
                                       **self._advice_options),
                               self.state.rules)
            self.advice[version] = res
            return res
        return task

    def review_task(self) -> Task:
        if not self.finished:
            raise Conflict("the review comes once the hand is over")
        advisor = self._advisor_fn()
        base = record_of(self.state)

        def advice_at(version: int) -> dict[str, Any]:
            if version not in self.advice:
                rec = {**base, "actions": base["actions"][:version]}
                opts = {"precision": REVIEW_PRECISION, **self._advice_options}
                self.advice[version] = _advice_json(advisor(rec, seed=self.seed, **opts),
                                                    self.state.rules)
            return self.advice[version]

        def same(row: dict[str, Any], move: dict[str, Any]) -> bool:
            return any(_same(g, move) for g in row["group"])
        return lambda progress: review(self.decisions, advice_at, same, progress)

    # -- inside ----------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> None:
        before = action_json(self.state, seat, action)
        self.state.apply(action)
        self.moves.append(before)

    # -- a puzzle's lines (analyzer.web.puzzle) -----------------------------------------

    def hands_json(self) -> list[list[str]]:
        """Every seat's hand now (only ever sent once the puzzle is answered)."""
        return [cards_json(h) for h in self.state.hands]

    def action_page(self, action: Action) -> dict[str, Any]:
        """``action`` of the seat to act as the page shows it."""
        return action_json(self.state, self.state.current_player(), action)

    def _advisor_fn(self):
        if self._advisor is not None:
            return self._advisor
        try:
            from .advise import advise
        except ImportError:
            raise Conflict("advice is not available in this installation") from None
        return advise


def _public(move: dict[str, Any], seat: int) -> dict[str, Any]:
    """A move as ``seat`` saw it: another seat's 紧牌 discard is face down."""
    if move["kind"] == "discard" and move["seat"] != seat:
        return {k: v for k, v in move.items() if k not in ("cards", "combo", "size")} | \
            {"cards": [], "size": 1}
    return move


def _entry_action(entry: dict[str, Any], rules) -> dict[str, Any]:
    """A record entry ``{"seat", "action", "cards"}`` as the page's action."""
    mask = parse_mask(entry["cards"]) if entry.get("cards") else 0
    out = {"kind": entry["action"], "cards": []}
    if mask:
        out.update(_play_json(mask, rules))
    return out


def _advice_json(advice: Any, rules) -> dict[str, Any]:
    """The advice as the page shows it, best first: each action (and the equivalent ones
    of its group), its EV with 95% CI and n, and the paired difference best − it. Only
    these fields: nothing of another hand leaves the server."""
    data = advice.to_json() if hasattr(advice, "to_json") else advice
    rows = []
    for a in data["actions"]:
        diff = a["diff"]
        rows.append({"action": _entry_action(a["action"], rules),
                     "group": [_entry_action(g, rules) for g in a.get("group", [a["action"]])],
                     "ev": float(a["ev"]), "ci95": [float(x) for x in a["ci95"]], "n": int(a["n"]),
                     "diff": {k: float(diff[k]) for k in ("value", "low", "high")} |
                             {"n": int(diff["n"])}})
    return {"seat": data.get("seat"), "actions": rows,
            "separated": bool(data.get("separated", False)),
            "deals": int(data.get("deals", rows[0]["n"] if rows else 0)),
            "policy": str(data.get("policy", ""))}


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["kind"] == b["kind"] and sorted(a.get("cards", [])) == sorted(b.get("cards", []))


def review_record(record: Any) -> dict[str, Any]:
    """A record replayed move by move: every position with all hands open (it is the
    reader's own record), the moves, and the settlement if the hand ended."""
    state = replay(record)
    shadow = start_of(record)
    frames = [_frame(shadow, None)]
    for seat, action in state.history:
        move = action_json(shadow, seat, action)
        shadow.apply(action)
        frames.append(_frame(shadow, move))
    out = {"rules": state.rules.name, "banker": state.banker, "frames": frames,
           "roles": [SEAT_NAMES[(s - state.banker) % N_SEATS] for s in range(N_SEATS)],
           "over": state.is_terminal()}
    if state.is_terminal():
        sett = state.settlement()
        out.update(end=state.end_reason, settlement=settlement_json(sett))
    return out


def _frame(st: State, move: dict[str, Any] | None) -> dict[str, Any]:
    return {"move": move, "hands": [cards_json(h) for h in st.hands],
            "captured": [sum(p.size for p in plays) for plays in st.captured],
            "top": None if st.top is None else {**_play_json(st.top.mask, st.rules),
                                                "owner": st.top_owner},
            "to_act": st.current_player(), "table": st.table_count()}


def _query(name: str, max_deals: int):
    """The should-xian / should-kou form: check the input now, compute in the job."""
    def make(body: Any) -> Task:
        from . import api

        if not isinstance(body, dict):
            raise ValueError("the query must be an object {\"hand\", ...}")
        hand = body.get("hand")
        if not isinstance(hand, str):
            raise ValueError("give \"hand\": 16 cards, e.g. \"As Ah 2s ...\"")
        parse_hand(hand)
        rules = parse_choice(body, "rules", sorted(PRESETS), DEFAULT_RULES)
        seed = parse_seed(body.get("seed", 0))
        seat = body.get("seat", 1)
        if name == "should_xian" and seat not in (1, 2):
            raise ValueError(f"the answering seat is 1 or 2, got {seat!r}")

        def task(progress: Progress) -> dict[str, Any]:
            count = {"n": 0}

            def step(n: int) -> None:
                count["n"] += int(n)
                progress(count["n"], max_deals)
            if name == "should_xian":
                return api.should_xian(hand, seat, rules, DECISION_POLICY, 0.1, max_deals, seed,
                                       progress=step)
            return api.should_kou(hand, rules, DECISION_POLICY, 0.1, max_deals, seed,
                                  progress=step)
        return task
    return make


class XianniuWeb:
    """掀牛's part of the web table (:class:`analyzer.web.game.WebGame`)."""

    name = "xianniu"
    seat = HUMAN
    static_dir = STATIC_DIR
    strings = STRINGS

    def __init__(self, rules: str | None = None, opponents: str = ADVICE_OPPONENTS,
                 seed: int | None = None, advisor=None,
                 advice_options: dict[str, Any] | None = None, query_deals: int = 20_000):
        self.rules = parse_choice({"rules": rules}, "rules", sorted(PRESETS), DEFAULT_RULES)
        # the bots play the strongest fast policy unless asked otherwise
        self.opponents = parse_choice({"opponents": opponents}, "opponents", OPPONENTS,
                                      ADVICE_OPPONENTS)
        self.seed = seed
        self.advisor = advisor
        self.advice_options = advice_options  # advise's samples, precision, policy
        self.options = {"rules": {"choices": sorted(PRESETS), "default": self.rules},
                        "opponents": {"choices": list(OPPONENTS), "default": self.opponents},
                        "seed": {"default": seed}}
        # the form's queries stop at their precision, or at ``query_deals`` deals
        self.queries = {q: _query(q, query_deals)
                        for q in ("should_xian", "should_kou")}
        self.queries["review_record"] = record_review_query(  # xianniu review's defaults
            "xianniu", precision=0.1, policy=ADVICE_POLICY, opponents=ADVICE_OPPONENTS)
        self.queries["enter_hand"] = enter_hand_query("xianniu")

    def new_game(self, options: Any) -> XianniuTable:
        if not isinstance(options, dict):
            raise ValueError("\"options\" must be an object")
        rules = parse_choice(options, "rules", sorted(PRESETS), self.rules)
        opponents = parse_choice(options, "opponents", OPPONENTS, self.opponents)
        return XianniuTable(rules, opponents, parse_seed(options.get("seed")), self.advisor,
                            self.advice_options)

    def review_record(self, record: Any) -> dict[str, Any]:
        return review_record(record)

    def position_table(self, position: dict[str, Any], seat: int | None,
                       seed: int) -> XianniuTable:
        return XianniuTable(position["rules"], self.opponents, seed, position=position,
                            seat=seat)

    def warmup(self) -> None:
        """Load (or compile, once) the bots' kernels before the first page asks."""
        XianniuTable(self.rules, self.opponents, 0)


def make_app(rules: str | None = None, opponents: str = ADVICE_OPPONENTS,
             seed: int | None = None, advisor=None,
             advice_options: dict[str, Any] | None = None, query_deals: int = 20_000,
             **kwargs):
    """The Starlette app of the 掀牛 table (``kwargs``: the machinery's sessions, jobs)."""
    from ..web.app import make_app as make

    # the protocol declares GameSession.finished and .version as attributes; the table's are
    # read-only properties, which the machinery only reads
    return make(XianniuWeb(rules, opponents, seed, advisor, advice_options,  # type: ignore[arg-type]
                           query_deals), **kwargs)




GAME = XianniuWeb()  # the table with its defaults (make_app builds one with the options given)
