"""The Python face of the CLI commands: each returns data, the CLI only prints it."""

from __future__ import annotations

from typing import Any

from .cards import N_SEATS, count, format_cards, parse_mask
from .combos import Play, beats, classify
from .describe import action_text, play_info, settlement_json
from .records import replay, start_of
from .rules import Rules, get_rules
from .scoring import Settlement, settle


def classify_cards(cards: str, rules: str | Rules | None = None) -> dict[str, Any]:
    """Kind, size and strength of the play ``cards`` make; ValueError if none."""
    r = get_rules(rules)
    return play_info(classify(parse_mask(cards), r), r)


def can_beat(top: str, challenger: str, rules: str | Rules | None = None) -> bool:
    """May ``challenger`` be played to beat ``top``? ValueError if either is no play."""
    r = get_rules(rules)
    t, c = parse_mask(top), parse_mask(challenger)
    if t & c:
        raise ValueError(f"TOP and CHALLENGER share {format_cards(t & c)}")
    try:
        top_play = classify(t, r)
    except ValueError as e:
        raise ValueError(f"TOP: {e}") from None
    try:
        ch_play = classify(c, r)
    except ValueError as e:
        raise ValueError(f"CHALLENGER: {e}") from None
    return beats(top_play, ch_play, r)


def score_hand(data: Any, rules: str | Rules | None = None) -> Settlement:
    """Settle a finished hand given as ``{"rules", "captured", "xian"}``.

    ``rules`` overrides the one in ``data``.
    """
    if not isinstance(data, dict):
        raise ValueError("the score input must be a JSON object with \"captured\" and \"xian\"")
    r = get_rules(rules if rules is not None else data.get("rules"))
    captured = data.get("captured")
    if not isinstance(captured, list) or len(captured) != N_SEATS:
        raise ValueError("\"captured\" must list the captured plays of the three seats")
    seen = 0
    plays: list[list[Play]] = []
    for seat, seat_plays in enumerate(captured):
        if not isinstance(seat_plays, list):
            raise ValueError(f"captured plays of seat {seat} must be a list of card strings")
        plays.append([])
        for j, text in enumerate(seat_plays):
            if not isinstance(text, str):
                raise ValueError(f"seat {seat} play {j}: expected a string of cards, got {text!r}")
            try:
                play = classify(parse_mask(text), r)
            except ValueError as e:
                raise ValueError(f"seat {seat} play {j}: {e}") from None
            if seen & play.mask:
                raise ValueError(f"seat {seat} play {j}: {format_cards(seen & play.mask)} "
                                 f"already captured in another play")
            seen |= play.mask
            plays[-1].append(play)
    if count(seen) > r.table_cap:
        raise ValueError(f"{count(seen)} cards captured; the table holds at most {r.table_cap}")
    xian = data.get("xian", [])
    if not isinstance(xian, list):
        raise ValueError("\"xian\" must be a list of [x, t] seat pairs")
    events = []
    for i, ev in enumerate(xian):
        if (not isinstance(ev, list) or len(ev) != 2
                or not all(isinstance(s, int) and not isinstance(s, bool) for s in ev)):
            raise ValueError(f"xian event {i}: expected [x, t] with seats 0-2, got {ev!r}")
        events.append((ev[0], ev[1]))
    return settle(plays, events, r)


def replay_record(record: Any) -> dict[str, Any]:
    """Check a game record move by move; the log, captured plays and (if over) the scores."""
    state = replay(record)
    shadow = start_of(record)
    log = []
    for seat, action in state.history:
        log.append(action_text(shadow, seat, action))
        shadow.apply(action)
    out: dict[str, Any] = {
        "rules": state.rules.name,
        "banker": state.banker,
        "log": log,
        "captured": [[format_cards(p.mask) for p in plays] for plays in state.captured],
        "xian": [list(e) for e in state.xian_events],
        "over": state.is_terminal(),
        "end": state.end_reason,
    }
    if state.is_terminal():
        out["settlement"] = settlement_json(state.settlement())
    else:
        out["to_act"] = state.current_player()
    return out

