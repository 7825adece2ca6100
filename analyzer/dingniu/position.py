"""A position seen by one seat: its tiles and the public history; hidden deals behind it.

A position is ``{"rules": "seed", "hand": "大天 虎头 ...", "history": [action, ...]}``
with record actions (:mod:`.records`); the other seats' 扣 carry no tile (face down), the
seat's own 扣 name theirs. The seat to act after the history is "me". Also accepted: the
history as text, ``"lead 大五; 虎头 on 5; kou; 扣 地幺"``.

Hidden deals are drawn uniformly from the deals that fit: the unseen tiles are shuffled into
the other seats' hands and 扣, each seat's 扣 must be tiles it could not lay when it 扣ed (and
its hand then too), and the whole history must replay legally in the engine without ending.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .engine import State, lay, new_hand
from .records import action_to_json, parse_entry
from .rules import N_KINDS, N_SEATS, TILES, DingniuRules, get_rules
from .tiles import KOU, LEAD, format_tiles, parse_tiles

_TEXT_ACTION = re.compile(r"^(?:(lead)\s+(.+)|(kou|扣)(?:\s+(.+))?|(.+?)\s+(?:on\s+)?([1-6]))$",
                          re.IGNORECASE)


def parse_history_text(text: str) -> list[dict[str, Any]]:
    """Record actions from ``"lead 大五; 虎头 on 5; kou; 扣 地幺"``."""
    out: list[dict[str, Any]] = []
    for i, part in enumerate(p.strip() for p in re.split(r"[;；\n]", text)):
        if not part:
            continue
        m = _TEXT_ACTION.match(part)
        if not m:
            raise ValueError(f"move {i}: cannot read {part!r} (lead X, X on N, kou, kou X)")
        if m.group(1):
            out.append({"action": "lead", "tile": m.group(2)})
        elif m.group(3):
            out.append({"action": "kou", **({"tile": m.group(4)} if m.group(4) else {})})
        else:
            out.append({"action": "play", "tile": m.group(5), "end": int(m.group(6))})
    return out


def position_of(rules: DingniuRules, dealt: Sequence[Sequence[int]],
                history: Sequence[tuple[int, int]], seat: int) -> dict[str, Any]:
    """The position ``seat`` sees after ``history`` (engine actions) on the deal ``dealt``:
    its tiles now, and the history with the other seats' 扣 face down (no tile) and a pair
    led together (R4) named twice. ``seat`` must be the seat to act after ``history``."""
    shadow = new_hand([list(h) for h in dealt], rules)
    entries = []
    for s, a in history:
        before = sum(shadow.laid)
        shadow.apply(a)
        entry = action_to_json(s, a)
        if entry["action"] == "lead" and sum(shadow.laid) - before == 2:
            entry["tile"] = f"{entry['tile']} {entry['tile']}"
        if entry["action"] == "kou" and s != seat:
            del entry["tile"]  # face down
        entries.append(entry)
    hand = " ".join(TILES[k].name for k in range(N_KINDS) for _ in range(shadow.hands[seat][k]))
    return {"rules": rules.name, "hand": hand, "history": entries}


@dataclass
class Position:
    """One seat's view: its dealt tiles, and the public history with its own 扣 known."""

    rules: DingniuRules
    seat: int
    dealt: list[int]  # my six tiles as dealt
    hand: list[int]  # my tiles now
    moves: list[tuple[int, int, int]]  # (seat, kind or -1 for a hidden 扣, slot)
    laid: list[list[int]]  # tiles laid by each seat
    n_kou: list[int]
    left: list[int]  # tiles in each hand now
    ends: tuple[int, int] | None

    def describe(self) -> str:
        e = "none (to lead)" if self.ends is None else f"{self.ends[0]} and {self.ends[1]}"
        return (f"seat {self.seat} to act, holding {format_tiles(self.hand)}; open ends {e}; "
                f"{len(self.moves)} moves played")


def parse_position(data: Any, rules: str | None = None) -> Position:
    """Check a position and return it; ValueError names what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("a position is a JSON object with \"hand\" and \"history\"")
    r = get_rules(rules or data.get("rules"))
    if not isinstance(data.get("hand"), str):
        raise ValueError("a position needs \"hand\": my tiles now, as a string")
    hand = parse_tiles(data["hand"])
    hist = data.get("history", [])
    if isinstance(hist, str):
        hist = parse_history_text(hist)
    if not isinstance(hist, list):
        raise ValueError("\"history\" must be a list of actions or a text")
    left = [r.hand_size] * N_SEATS
    laid = [[0] * N_KINDS for _ in range(N_SEATS)]
    kou_known: list[list[tuple[int, int]]] = [[] for _ in range(N_SEATS)]  # (move, kind)
    n_kou = [0] * N_SEATS
    moves: list[tuple[int, int, int]] = []
    ends: tuple[int, int] | None = None
    turn = 0
    for i, entry in enumerate(hist):
        where = f"move {i}"
        if isinstance(entry, dict) and entry.get("action") == "lead" and ends is None \
                and isinstance(entry.get("tile"), str) and sum(parse_tiles(entry["tile"])) == 2:
            pair = parse_tiles(entry["tile"])
            k = pair.index(2) if 2 in pair else -1
            if k not in r.lead_pair_kinds:
                names = ", ".join(r.tiles[j].name for j in r.lead_pair_kinds)
                raise ValueError(f"{where}: only a pair of {names} may be led together")
            seat, n, slot = entry.get("seat", 0), 2, LEAD
        else:
            try:
                seat, kind, slot = parse_entry(entry, hidden_ok=True)
            except ValueError as e:
                raise ValueError(f"{where}: {e}") from None
            k = -1 if kind is None else kind
            n = 1
        if seat is not None and seat != turn:
            raise ValueError(f"{where}: seat {turn} is to act, not seat {seat}")
        seat = turn
        if (ends is None) != (slot == LEAD):
            raise ValueError(f"{where}: " + ("the first move must be a lead" if ends is None
                                              else "the lead has been made"))
        if slot == KOU:
            n_kou[seat] += 1
            if k >= 0:
                kou_known[seat].append((i, k))
        else:
            if ends is not None and slot not in ends:
                raise ValueError(f"{where}: no open end shows {slot}")
            laid[seat][k] += n
            ends = lay(r, ends, k, slot)
        moves.append((seat, k, slot))
        left[seat] -= n
        if left[seat] < 0:
            raise ValueError(f"{where}: seat {seat} has no tiles left")
        turn = next((s for s in ((turn + d) % N_SEATS for d in range(1, N_SEATS + 1))
                     if left[s] > 0), -1)
        if turn < 0:
            raise ValueError(f"{where}: the hand is over after this move")
    me = turn
    for s in range(N_SEATS):
        if s != me and kou_known[s]:
            raise ValueError(f"seat {s}'s 扣 is face down: leave out its tile")
    if n_kou[me] != len(kou_known[me]):
        raise ValueError(f"seat {me} (me) must name the tile of each of its own 扣")
    if sum(hand) != left[me]:
        raise ValueError(f"seat {me} is to act and holds {left[me]} tiles, the hand gives "
                         f"{sum(hand)}")
    kou_mine = [0] * N_KINDS
    for _, k in kou_known[me]:
        kou_mine[k] += 1
    dealt = [hand[k] + laid[me][k] + kou_mine[k] for k in range(N_KINDS)]
    public = [sum(laid[s][k] for s in range(N_SEATS)) + kou_mine[k] + hand[k]
              for k in range(N_KINDS)]
    for k in range(N_KINDS):
        if public[k] > r.counts[k]:
            raise ValueError(f"too many {r.tiles[k].name}: the set has {r.counts[k]}")
    return Position(r, me, dealt, hand, moves, laid, n_kou, left, ends)


def _replay(p: Position, deal: list[list[int]], kou_tiles: list[list[int]]) -> State | None:
    """The engine state after the history on ``deal``, or None if it does not fit."""
    st = new_hand(deal, p.rules)
    it = [iter(ks) for ks in kou_tiles]
    for s, k, slot in p.moves:
        if k < 0:
            k = next(it[s])
        a = k * 8 + slot
        if st.is_terminal() or st.current_player() != s or not st.can(a):
            return None
        st.apply(a)
    return None if st.is_terminal() else st


def sample_states(p: Position, n: int, seed: int, max_tries: int = 2000) -> list[State]:
    """Up to ``n`` engine states behind position ``p`` (hidden tiles drawn uniformly)."""
    r = p.rules
    rng = random.Random(seed)  # a Python stream is enough for this rejection sampler
    pool = [k for k in range(N_KINDS)
            for _ in range(int(r.counts[k]) - p.dealt[k]
                           - sum(p.laid[s][k] for s in range(N_SEATS) if s != p.seat))]
    others = [s for s in range(N_SEATS) if s != p.seat]
    need = {s: p.left[s] + p.n_kou[s] for s in others}
    if sum(need.values()) != len(pool):
        raise ValueError(f"the history leaves {len(pool)} unseen tiles for "
                         f"{sum(need.values())} places")
    # open ends at each hidden 扣, per seat: that seat held no tile matching them
    kou_ends: dict[int, list[tuple[int, int]]] = {s: [] for s in others}
    ends: tuple[int, int] | None = None
    for s, k, slot in p.moves:
        if slot == KOU and s != p.seat:
            assert ends is not None  # a 扣 comes after the lead
            kou_ends[s].append(ends)
        elif slot != KOU:
            ends = lay(r, ends, k, slot)
    out: list[State] = []
    for _ in range(n * max_tries):
        if len(out) >= n:
            break
        rng.shuffle(pool)
        pos, ok = 0, True
        deal: list[list[int]] = [[] for _ in range(N_SEATS)]
        kous: list[list[int]] = [[] for _ in range(N_SEATS)]
        deal[p.seat] = list(p.dealt)
        for s in others:
            tiles = pool[pos:pos + need[s]]
            pos += need[s]
            hand, kt = tiles[:p.left[s]], tiles[p.left[s]:]
            if any(r.match[k, e] for k in hand for es in kou_ends[s] for e in es):
                ok = False
                break
            order = _order_kou(r, kt, kou_ends[s])
            if order is None:
                ok = False
                break
            kous[s] = order
            d = [0] * N_KINDS
            for k in tiles:
                d[k] += 1
            for k in range(N_KINDS):
                d[k] += p.laid[s][k]
            deal[s] = d
        if not ok:
            continue
        st = _replay(p, deal, kous)
        if st is not None:
            out.append(st)
    if not out:
        raise ValueError("no deal of the unseen tiles fits this history")
    return out


def _order_kou(r: DingniuRules, tiles: list[int], ends: list[tuple[int, int]]) -> list[int] | None:
    """An order of a seat's 扣 tiles such that each one matched no open end while held."""
    rest = list(tiles)
    order: list[int] = [0] * len(ends)
    for e in range(len(ends) - 1, -1, -1):  # the latest 扣 is the most constrained
        pick = next((k for k in rest if not any(r.match[k, v] for es in ends[:e + 1]
                                                  for v in es)), None)
        if pick is None:
            return None
        rest.remove(pick)
        order[e] = pick
    return order
