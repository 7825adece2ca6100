"""Human-readable text for plays, actions, hands and settlements."""

from __future__ import annotations

from .cards import format_cards
from .combos import KIND_NAMES_ZH, Play, classify, strength
from .engine import DISCARD, KOU, PASS, PLAY, TIGHTEN, XIAN, Action, State
from .rules import Rules
from .scoring import REASONS_EN, Settlement

SEAT_NAMES = ("头家", "二家", "三家")


def play_info(play: Play, rules: Rules) -> dict:
    """A play as a JSON-ready dict: kind, size, strength and the cards."""
    info = {"kind": play.kind, "name_zh": KIND_NAMES_ZH[play.kind], "size": play.size,
            "strength": strength(play, rules), "cards": format_cards(play.mask),
            "rules": rules.name}
    if play.rank >= 0:
        info["rank"] = format_cards([play.rank * 4])[:-1]
    if play.k:
        info["k"] = play.k
    return info


def seat_name(seat: int, banker: int = 0) -> str:
    """``seat 1 (二家)``, counting from the banker."""
    return f"seat {seat} ({SEAT_NAMES[(seat - banker) % 3]})"


def action_text(state_before: State, seat: int, action: Action) -> str:
    """One line for an action, in the words of the table."""
    who = seat_name(seat, state_before.banker)
    phase = state_before.phase
    if action.kind == PLAY:
        play = classify(action.cards, state_before.rules)
        what = f"{format_cards(action.cards)} ({play.kind})"
        if phase == "qiangci":
            return f"{who} 抢刺 {what}"
        if phase == "lead":
            return f"{who} leads {what}"
        return f"{who} beats with {what}"
    if action.kind == PASS:
        return f"{who} declines 抢刺" if phase == "qiangci" else f"{who} passes"
    if action.kind == KOU:
        return f"{who} 扣 (asks to end)" if phase == "lead" else f"{who} 扣 (agrees)"
    if action.kind == XIAN:
        return f"{who} 掀 (makes {seat_name(state_before.lead_holder, state_before.banker)} lead)"
    if action.kind == TIGHTEN:
        return f"{who} calls 紧牌 (tighten)"
    if action.kind == DISCARD:
        return f"{who} discards {format_cards(action.cards)}"
    return f"{who} {action}"


def settlement_lines(st: Settlement, banker: int = 0) -> list[str]:
    """Tallies, payments and points of a settled hand."""
    lines = []
    for seat, t in enumerate(st.tallies):
        flags = ("刺 " if t.ci else "") + ("够" if t.gou else "not 够")
        lines.append(f"{seat_name(seat, banker)}: captured {t.captured} ({flags}); "
                     f"牛 {t.niu}, 喜 {t.xi}, 亮 {t.liang}, 刺 {t.ci_points}")
    for p in st.payments:
        lines.append(f"  seat {p.payer} pays seat {p.payee} {p.amount} for {p.reason} "
                     f"({REASONS_EN[p.reason]})")
    if not st.payments:
        lines.append("  nobody pays")
    lines.append("points: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(st.points)))
    return lines


def settlement_json(st: Settlement) -> dict:
    """A settlement as a JSON-ready dict."""
    return {
        "points": list(st.points),
        "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount,
                      "reason": p.reason, "reason_en": REASONS_EN[p.reason]}
                     for p in st.payments],
        "tallies": [{"captured": t.captured, "gou": t.gou, "ci": t.ci, "niu": t.niu,
                     "xi": t.xi, "liang": t.liang, "ci_points": t.ci_points}
                    for t in st.tallies],
    }


def tournament_lines(res) -> list[str]:
    """A duplicate tournament's result as text: each policy's mean, then each difference,
    with 95% CIs (``res`` a :class:`analyzer.tournament.TournamentResult`)."""
    m = res.meta
    lines = [f"{m['deals']} deals x {m['seatings']} seatings = {m['hands_played']} hands, "
             f"rules {m['rules']}, seed {m['seed']} (95% CIs; n = deals)"]
    for row in res.table().to_dict("records"):
        lines.append(f"  {row['policy']:<22} {row['mean_points']:+8.3f} points/hand "
                     f"[{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] (n={m['deals']})")
    for row in res.differences().to_dict("records"):
        mark = "" if row["significant"] else "  (CI holds 0)"
        lines.append(f"  {row['a']} - {row['b']}: {row['diff']:+.3f} "
                     f"[{row['ci_low']:+.3f}, {row['ci_high']:+.3f}] (n={m['deals']}){mark}")
    return lines
