"""顶牛 at the web table (``xianniu dingniu play``): one hand against three bots, from seat 0
(头牌, who leads).

The machinery (:mod:`analyzer.web`) stores the sessions and serves the page; this module
deals, runs the bots, checks every action of the human in the reference engine, and builds
what seat 0 may see: its own tiles, every tile laid, the open ends, each seat's tiles in
hand and number of 扣 (face down: their tiles stay hidden until the hand is over). Advice
is ``advise`` (:func:`analyzer.dingniu.advise.advise`) on seat 0's position.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from kernels.dingniu import pimc as kp
from kernels.dingniu import policies as kpol

from ..web.bots import BotTurns
from ..web.game import Conflict, Progress, Task, parse_choice, parse_seed
from ..web.review import enter_hand_query, record_review_query, review
from .engine import State, new_hand
from .position import position_of
from .records import parse_entry, record_of, replay, start_of
from .rules import N_KINDS, N_SEATS, PRESETS, TILES, get_rules
from .sim import POLICIES, POLICY_IDS, policy_vector, rule_arrays, state_array
from .tiles import KOU, LEAD, split_action
from .web_strings import STRINGS

HUMAN = 0
OPPONENTS = tuple(POLICIES)  # every policy the game plays
STATIC_DIR = Path(__file__).resolve().parent / "web_static"
ADVICE_SAMPLES = 400  # advise's default


def tile_json(k: int) -> dict[str, Any]:
    """A kind of tile as the page draws it: its name and its two ends."""
    return {"name": TILES[k].name, "ends": list(TILES[k].ends)}


def hand_json(counts) -> list[dict[str, Any]]:
    return [tile_json(k) for k in range(N_KINDS) for _ in range(int(counts[k]))]


def move_json(st: State, seat: int, a: int, laid: int = 1) -> dict[str, Any]:
    """One move: who, lead / play / 扣, the tile (``laid`` of them), the end it went on."""
    k, s = split_action(a)
    kind = "lead" if s == LEAD else "kou" if s == KOU else "play"
    out = {"seat": seat, "kind": kind, "tile": tile_json(k), "n": laid, "id": a}
    if kind == "play":
        out["end"] = s
    return out


def _public(move: dict[str, Any], seat: int) -> dict[str, Any]:
    """A move as ``seat`` saw it: another seat's 扣 is face down."""
    if move["kind"] == "kou" and move["seat"] != seat:
        return {"seat": move["seat"], "kind": "kou", "tile": None, "n": 1}
    return move



def parse_action(data: Any, st: State) -> int:
    """``{"id": n}`` or ``{"kind": "play", "tile": "虎头", "end": 5}`` as an action number;
    ValueError if malformed (whether it is legal is the engine's question)."""
    if not isinstance(data, dict):
        raise ValueError("an action must be an object {\"kind\", \"tile\", \"end\"}")
    if "id" in data:
        a = data["id"]
        if isinstance(a, bool) or not isinstance(a, int) or not 0 <= a < N_KINDS * 8:
            raise ValueError(f"no action {a!r}")
        return a
    entry = {"action": data.get("kind"), "tile": data.get("tile"), "end": data.get("end")}
    _, k, slot = parse_entry(entry)
    assert k is not None
    return k * 8 + slot


class Bot:
    """A seat played by a kernel policy from a state whose hidden tiles (other hands, the
    tiles of others' 扣) are redrawn from its own view first (pimc's sampler)."""

    def __init__(self, seat: int, policy: str, rules, seed: np.random.SeedSequence):
        from kernels.rng import states_from_seed

        self.seat, self.policy = seat, policy
        self.tiles, self.params = rule_arrays(rules)
        self.vector = policy_vector(policy, rules)
        self.rng = states_from_seed(seed, 1)[0].copy()

    def choose(self, st: State) -> int:
        if st.current_player() != self.seat:
            raise ValueError(f"seat {self.seat} is not to act")
        truth = state_array(st)
        view = np.empty_like(truth)
        kp.sample_hidden(truth, self.tiles, self.seat, self.rng, view)
        acts = np.array(st.legal_actions(), dtype=np.int64)
        if self.policy == "pimc":
            a = kp.pimc_action(view, self.tiles, self.params, self.vector, self.rng, acts,
                               len(acts))
        else:
            a = kpol.choose(view, self.tiles, self.params, POLICY_IDS[self.policy],
                            self.vector, self.rng, acts, len(acts))
        st.verify(int(a))
        return int(a)


class DingniuTable(BotTurns):
    """One hand at the table: the engine state, three bots, the moves, the advice."""

    def __init__(self, rules: str, opponents: str, seed: int, advice_samples: int, *,
                 position: dict[str, Any] | None = None, seat: int | None = HUMAN):
        """A new hand dealt from ``seed``, or (``position``) the record of a hand so far,
        where the bots wait for ``seat``'s decision (a puzzle's position: nothing moves
        on by itself). ``seat`` None: a bot in every seat."""
        self.seed, self.opponents, self.advice_samples = seed, opponents, advice_samples
        self.seat = -1 if seat is None else seat
        self.frozen = position is not None
        deal_seed, *bot_seeds = np.random.SeedSequence(seed).spawn(1 + N_SEATS)
        self.finished = False  # the hand is over
        self.version = 0  # actions so far: a request naming another version is stale
        self.moves: list[dict[str, Any]] = []
        if position is None:
            r = get_rules(rules)
            tiles = [k for k in range(N_KINDS) for _ in range(r.counts[k])]
            order = np.random.default_rng(deal_seed).permutation(len(tiles))
            hands = [[0] * N_KINDS for _ in range(N_SEATS)]
            for i, j in enumerate(order):
                hands[i // r.hand_size][tiles[j]] += 1
            self.state = new_hand(hands, r)
        else:
            self.state = start_of(position)
            r = self.state.rules
            for s, a in replay(position).history:
                self._apply(s, a)
        self.bots = {s: Bot(s, opponents, r, bot_seeds[s]) for s in range(N_SEATS)
                     if s != self.seat}
        self.decisions: list[dict[str, Any]] = []
        self.advice: dict[int, dict[str, Any]] = {}
        if position is None:
            self._run_bots()

    def act(self, data: Any) -> None:
        a = parse_action(data, self.state)
        if self.finished:
            raise Conflict("the hand is over: start a new one")
        n_legal = len(self.state.legal_actions())
        self._apply(self.seat, a)  # the engine checks it first
        self.decisions.append({"version": self.version - 1, "n_legal": n_legal,
                               "action": self.moves[-1]})
        self._run_bots()

    def _apply(self, seat: int, a: int) -> None:
        before = sum(self.state.laid)
        self.state.apply(a)
        self.finished, self.version = self.state.is_terminal(), len(self.state.history)
        self.moves.append(move_json(self.state, seat, a, sum(self.state.laid) - before or 1))

    # -- a puzzle's lines (analyzer.web.puzzle) -----------------------------------------

    def hands_json(self) -> list[list[dict[str, Any]]]:
        """Every seat's tiles now (only ever sent once the puzzle is answered)."""
        return [hand_json(h) for h in self.state.hands]

    def action_page(self, action: int) -> dict[str, Any]:
        """``action`` of the seat to act as the page shows it."""
        return move_json(self.state, self.state.current_player(), action)

    def record(self) -> dict[str, Any]:
        if not self.finished:
            raise Conflict("the record shows every hand: save it once the hand is over")
        return record_of(self.state)

    def view(self) -> dict[str, Any]:
        st = self.state
        v = st.view(self.seat)  # all the page gets before the end: what the seat may see
        out: dict[str, Any] = {
            "game": "dingniu", "rules": v.rules,
            "seed": self.seed if self.finished else None,  # the seed would tell the deal
            "opponents": self.opponents, "you": self.seat, "version": self.version,
            "to_act": v.turn, "hand": hand_json(v.hand),
            "ends": list(v.ends) if v.ends else None,
            "left": list(v.left), "n_kou": list(v.n_kou),
            "my_kou": hand_json(v.kou),
            "my_kou_pips": int(sum(c * p for c, p in zip(v.kou, st.rules.pips))),
            "laid": hand_json(v.laid), "over": self.finished,
            "moves": self.moves if self.finished else [_public(m, self.seat) for m in self.moves],
            "legal": [], "advice": self.advice.get(self.version),
        }
        if st.current_player() == self.seat:
            out["legal"] = [move_json(st, self.seat, a) for a in st.legal_actions()]
        if self.finished:
            out.update(end=st.end_reason, suan_seat=st.suan_seat, totals=st.totals(),
                       points=st.returns(), kou_pips=st.kou_pips(),
                       dealt=[hand_json(h) for h in st.dealt],
                       kou=[hand_json(k) for k in st.kou],
                       left_hands=[hand_json(h) for h in st.hands])
        return out

    def position(self, upto: int | None = None) -> dict[str, Any]:
        """Seat 0's position (what advise reads) after the first ``upto`` actions."""
        return position_of(self.state.rules, self.state.dealt, self.state.history[:upto],
                           self.seat)

    def _advise(self, upto: int | None = None) -> dict[str, Any]:
        from .advise import advise

        res = advise(self.position(upto), self.advice_samples, self.seed % (2**32), 0)
        rows = []
        for row in res["actions"]:
            behind = row.get("behind_best", {"value": 0.0, "low": 0.0, "high": 0.0,
                                             "n": row["pimc"]["n"]})
            rows.append({"action": move_json(self.state, self.seat, row["action_id"]),
                         "ev": row["pimc"]["value"],
                         "ci95": [row["pimc"]["low"], row["pimc"]["high"]],
                         "n": row["pimc"]["n"], "diff": behind})
        sep = len(rows) == 1 or rows[1]["diff"]["low"] > 0
        return {"seat": self.seat, "actions": rows, "separated": bool(sep),
                "deals": res["samples"], "policy": "heuristic"}

    def advice_task(self) -> Task:
        if self.finished:
            raise Conflict("the hand is over: there is no decision to advise")
        version = self.version

        def task(progress: Progress) -> dict[str, Any]:
            res = self._advise(version)
            self.advice[version] = res
            return res
        return task

    def review_task(self) -> Task:
        if not self.finished:
            raise Conflict("the review comes once the hand is over")

        def advice_at(version: int) -> dict[str, Any]:
            if version not in self.advice:
                self.advice[version] = self._advise(version)
            return self.advice[version]

        def same(row: dict[str, Any], move: dict[str, Any]) -> bool:
            return row["action"]["id"] == move["id"]
        return lambda progress: review(self.decisions, advice_at, same, progress)


def review_record(record: Any) -> dict[str, Any]:
    """A 顶牛 record replayed move by move, all hands open."""
    st = replay(record)
    shadow = new_hand([list(h) for h in st.dealt], st.rules)
    frames = [_frame(shadow, None)]
    for seat, a in st.history:
        before = sum(shadow.laid)
        shadow.apply(a)
        frames.append(_frame(shadow, move_json(shadow, seat, a, sum(shadow.laid) - before or 1)))
    out = {"rules": st.rules.name, "frames": frames, "over": st.is_terminal()}
    if st.is_terminal():
        out.update(end=st.end_reason, suan_seat=st.suan_seat, totals=st.totals(),
                   points=st.returns())
    return out


def _frame(st: State, move) -> dict[str, Any]:
    return {"move": move, "hands": [hand_json(h) for h in st.hands],
            "kou": [hand_json(k) for k in st.kou], "ends": list(st.ends) if st.ends else None,
            "to_act": st.current_player()}


class DingniuWeb:
    """顶牛's part of the web table (:class:`analyzer.web.game.WebGame`)."""

    name = "dingniu"
    seat = HUMAN
    static_dir = STATIC_DIR
    strings = STRINGS
    queries: dict[str, Any] = {}

    def __init__(self, rules: str | None = None, opponents: str = "heuristic",
                 seed: int | None = None, advice_samples: int = ADVICE_SAMPLES):
        self.rules = get_rules(rules).name
        self.opponents = parse_choice({"opponents": opponents}, "opponents", OPPONENTS, "heuristic")
        self.seed, self.advice_samples = seed, advice_samples
        self.queries = {"review_record": record_review_query("dingniu", samples=advice_samples),
                        "enter_hand": enter_hand_query("dingniu")}
        self.options = {"rules": {"choices": sorted(PRESETS), "default": self.rules},
                        "opponents": {"choices": list(OPPONENTS), "default": self.opponents},
                        "seed": {"default": seed}}

    def new_game(self, options: Any) -> DingniuTable:
        if not isinstance(options, dict):
            raise ValueError("\"options\" must be an object")
        rules = parse_choice(options, "rules", sorted(PRESETS), self.rules)
        opponents = parse_choice(options, "opponents", OPPONENTS, self.opponents)
        return DingniuTable(rules, opponents, parse_seed(options.get("seed")), self.advice_samples)

    def review_record(self, record: Any) -> dict[str, Any]:
        return review_record(record)

    def position_table(self, position: dict[str, Any], seat: int | None,
                       seed: int) -> DingniuTable:
        return DingniuTable(self.rules, self.opponents, seed, self.advice_samples,
                            position=position, seat=seat)

    def warmup(self) -> None:
        """Load (or compile, once) the bots' kernels before the first page asks."""
        DingniuTable(self.rules, self.opponents, 0, self.advice_samples)


def make_app(rules: str | None = None, opponents: str = "heuristic", seed: int | None = None,
             advice_samples: int = ADVICE_SAMPLES, **kwargs):
    """The Starlette app of the 顶牛 table (``kwargs``: the machinery's sessions, jobs)."""
    from ..web.app import make_app as make

    return make(DingniuWeb(rules, opponents, seed, advice_samples), **kwargs)


GAME = DingniuWeb()  # the game's web table, with its defaults (make_app takes the options)
