"""Human-readable text for plays, actions, hands, settlements and the commands' results.

The ``*_lines`` functions turn what :mod:`analyzer.xianniu.api` returns into the lines the
command line prints: points as signed decimals, probabilities by
:func:`analyzer.core.stats.format_percent`, every estimate with its 95% CI and n.
"""

from __future__ import annotations

from ..core.stats import format_estimate, format_percent
from .cards import KING, RANKS, format_cards
from .combos import (
    BAI,
    BAI_LIANG,
    EIGHT_PAIRS,
    FISH,
    FISH_LIANG,
    K_BAI,
    KIND_NAMES_ZH,
    LONG_FENG,
    NIU,
    SET,
    XI,
    XI_BAO_LIANG,
    Play,
    classify,
    strength,
)
from .engine import DISCARD, KOU, PASS, PLAY, TIGHTEN, XIAN, Action, State
from .rules import Rules
from .scoring import REASONS_EN, Settlement

SEAT_NAMES = ("头家", "二家", "三家")
# A set (kind "set") by its size: English and Chinese name.
SET_NAMES = {1: ("single", "单张"), 2: ("pair", "对子"), 3: ("triple", "三张"),
             4: ("liang", "亮子")}
_SET_PLURAL = {1: "singles", 2: "pairs", 3: "triples", 4: "亮子"}
# What may beat a play of each kind (besides the size rule).
_BEATEN_BY = {SET: "a stronger set of its size, or 牛", FISH: "摆 of the same size",
              FISH_LIANG: "摆亮", XI_BAO_LIANG: "a 喜包亮 with a stronger 亮子"}
_UNBEATABLE = (NIU, XI, BAI, BAI_LIANG, K_BAI, LONG_FENG, EIGHT_PAIRS)


def _rank_cards(rank: int, size: int) -> str:
    """``KK``, ``777``; ``10 10`` (spaced, where the rank has two characters)."""
    return (" " if len(RANKS[rank]) > 1 else "").join([RANKS[rank]] * size)


def strength_meaning(play: Play, rules: Rules) -> str:
    """What the number ``strength`` of ``play`` orders, in words."""
    k = play.kind
    if k == SET:
        clash = [RANKS[b if a == play.rank else a] for a, b in rules.set_no_beat_pairs
                 if play.rank in (a, b)]
        extra = (f"; {RANKS[play.rank]} and {clash[0]} never beat each other"
                 if clash else "")
        return (f"orders {_SET_PLURAL[play.size]} under {rules.name}: a higher strength "
                f"beats a lower one, equal strengths stand off{extra}")
    if k == NIU:
        return "the strength of 9s as a set of this size; 牛 beats any set of its size but K's"
    if k == XI:
        return "the strength of 5s as a set of this size; 喜 beats nothing, nothing beats 喜"
    if k in (FISH, BAI):
        return "units (k): 摆 beats 鱼 of the same size"
    if k == XI_BAO_LIANG:
        return "the strength of its 亮子: a 喜包亮 beats one with a weaker 亮子"
    if k in (FISH_LIANG, BAI_LIANG):
        return "orders nothing: 摆亮 beats 鱼亮"
    if k == K_BAI:
        return "orders nothing: K摆 beats nothing and nothing beats it"
    return "orders nothing: a 抢刺 play, never compared"


def play_info(play: Play, rules: Rules) -> dict:
    """A play as a JSON-ready dict: kind, size, strength (and what it orders), the cards;
    a set also gets ``set_name`` (single, pair, triple or liang) and ``set_name_zh``."""
    info = {"kind": play.kind, "name_zh": KIND_NAMES_ZH[play.kind], "size": play.size,
            "strength": strength(play, rules), "cards": format_cards(play.mask),
            "rules": rules.name}
    if play.kind == SET:
        info["set_name"], info["set_name_zh"] = SET_NAMES[play.size]
    info["strength_meaning"] = strength_meaning(play, rules)
    if play.rank >= 0:
        info["rank"] = format_cards([play.rank * 4])[:-1]
    if play.k:
        info["k"] = play.k
    return info


def classify_line(info: dict) -> str:
    """One line for :func:`play_info`'s dict."""
    name = (f"{info['set_name_zh']}, {info['set_name']}" if "set_name" in info
            else info["name_zh"])
    extra = f", rank {info['rank']}" if "rank" in info else ""
    extra += f", k {info['k']}" if "k" in info else ""
    return (f"{info['cards']}: {info['kind']} ({name}), size {info['size']}{extra}, "
            f"strength {info['strength']} ({info['strength_meaning']}) [{info['rules']}]")


def _phrase(p: Play) -> str:
    """A play in words: ``a single 6``, ``a pair 33``, ``牛``, ``鱼 (k=2)``."""
    if p.kind == SET:
        name = "亮子" if p.size == 4 else SET_NAMES[p.size][0]
        return f"a {name} {_rank_cards(p.rank, p.size)}"
    if p.kind == XI_BAO_LIANG:
        return f"喜包亮 (亮子 {_rank_cards(p.rank, 4)})"
    if p.kind in (FISH, BAI):
        return f"{KIND_NAMES_ZH[p.kind]} (k={p.k})"
    return KIND_NAMES_ZH[p.kind]


def _compare_sets(top: Play, ch: Play, rules: Rules, size: int, what: str) -> tuple[bool, str]:
    """Two ranks compared as sets of ``size`` cards (``what``: the plays' phrases)."""
    a, b = ch.rank, top.rank
    if (a, b) in rules.set_no_beat_pairs or (b, a) in rules.set_no_beat_pairs:
        return False, f"{RANKS[a]} and {RANKS[b]} never beat each other under {rules.name}"
    sa, sb = rules.set_strength[size - 1][a], rules.set_strength[size - 1][b]
    if sa > sb:
        return True, f"{what} under {rules.name} (strength {sa} > {sb})"
    if sa == sb:
        return False, (f"{RANKS[a]} and {RANKS[b]} are equal as {_SET_PLURAL[size]} under "
                       f"{rules.name}: equal sets stand off")
    return False, f"{_phrase(ch)} is weaker than {_phrase(top)} under {rules.name} " \
                  f"(strength {sa} < {sb})"


def beat_verdict(top: Play, ch: Play, rules: Rules) -> tuple[bool, str]:
    """May ``ch`` beat ``top``, and why (the rules of :func:`analyzer.xianniu.combos.beats`
    in words)."""
    if top.size != ch.size:
        return False, (f"{_phrase(ch)} has {ch.size} cards and {_phrase(top)} {top.size}: "
                       f"only a play of the same size can beat")
    if ch.kind == SET and top.kind == SET:
        return _compare_sets(top, ch, rules, top.size, f"{_phrase(ch)} beats {_phrase(top)}")
    if ch.kind == NIU and top.kind == SET:
        if top.rank == KING:
            return False, f"牛 and {_rank_cards(top.rank, top.size)} stand off"
        return True, f"牛 beats any set of its size but K's ({_phrase(top)})"
    if top.kind in _UNBEATABLE:
        return False, f"nothing beats {_phrase(top)}"
    if ch.kind == BAI and top.kind == FISH:
        return True, "摆 beats 鱼 of the same size"
    if ch.kind == BAI_LIANG and top.kind == FISH_LIANG:
        return True, "摆亮 beats 鱼亮"
    if ch.kind == XI_BAO_LIANG and top.kind == XI_BAO_LIANG:
        return _compare_sets(top, ch, rules, 4, "the stronger 亮子 wins")
    return False, f"{_phrase(ch)} cannot beat {_phrase(top)}: only {_BEATEN_BY[top.kind]} can"


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


def replay_lines(out: dict) -> list[str]:
    """A replayed record (:func:`analyzer.xianniu.api.replay_record`) as text."""
    lines = [f"rules {out['rules']}, banker seat {out['banker']}"]
    lines += [f"{i:4d}  {line}" for i, line in enumerate(out["log"])]
    for seat, plays in enumerate(out["captured"]):
        lines.append(f"seat {seat} captured: " + (" | ".join(plays) if plays else "nothing"))
    if not out["over"]:
        lines.append(f"record stops before the end; seat {out['to_act']} is to act")
        return lines
    st = out["settlement"]
    lines.append(f"hand over ({out['end']})")
    for p in st["payments"]:
        lines.append(f"  seat {p['payer']} pays seat {p['payee']} {p['amount']} for "
                     f"{p['reason']} ({p['reason_en']})")
    lines.append("points: " + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(st["points"])))
    return lines


# not "close": to a 掀牛 player that reads as 扣 (closing the hand)
TOO_CLOSE = "too close to call (难分高下): the 95% CI of the difference holds 0"


def recommendation_text(rec: str, label: dict[str, str]) -> str:
    """A decision query's recommendation as a player reads it.

    >>> recommendation_text("close", {}), recommendation_text("xian", {"xian": "掀 xian"})
    ('too close to call (难分高下): the 95% CI of the difference holds 0', '掀 xian')
    """
    return TOO_CLOSE if rec == "close" else label.get(rec, rec)


def decision_lines(d: dict) -> list[str]:
    """A decision query's JSON (:meth:`analyzer.xianniu.decision.DecisionResult.as_dict`)
    as text."""
    a, b = d["actions"]
    label = {"xian": "掀 xian", "kou": "扣 kou", "lead": "lead"}
    budget = "".join(f" ({name}: {n:,} play-outs a decision)"
                     for name, n in d.get("budget", {}).items())
    lines = [f"{d['hand']}  seat {d['seat']}, rules {d['rules']}, seed {d['seed']}; play-outs: "
             f"this seat {d['policy']}{budget}, the others {d.get('opponents', 'heuristic')}"]
    valued = d.get("valued_by", {})
    for name in (a, b):
        by = f"  (playing on with {valued[name]})" if len(d.get("by_policy", {})) > 1 else ""
        lines.append(f"  {label[name]:<8} {format_estimate(d[f'ev_{name}'])} points per hand"
                     f"{by}")
    lines.append(f"  difference {format_estimate(d['diff'])} points per hand (95% CI; n = "
                 f"deals)")
    lines.append(f"  acceptance: {format_estimate(d['acceptance'], percent=True)} of the deals "
                 "dealt fit the position")
    lines.append(f"  after {label[a]}: P(够) {format_estimate(d['p_gou'], percent=True)}, my "
                 f"P(刺) {format_estimate(d['p_ci_me'], percent=True)}, an opponent's P(刺) "
                 f"{format_estimate(d['p_ci_opponent'], percent=True)}")
    dist = ", ".join(f"{int(k):+d}: {format_percent(v)}"
                     for k, v in d["points_distribution"].items())
    lines.append(f"  my points after {label[a]} (n={d['deals']:,}): {dist}")
    lines.append(f"  recommendation: {recommendation_text(d['recommendation'], label)}")
    lines += continuation_lines(d)
    lines += searched_lines(d)
    return lines


def continuation_lines(d: dict) -> list[str]:
    """With several play-on policies: each action under each, on the same deals (the best
    one values the action above)."""
    by = d.get("by_policy", {})
    if len(by) < 2:
        return []
    label = {"xian": "掀", "kou": "扣", "lead": "lead"}
    names = list(by)
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    pilot = min(e["n"] for ests in by.values() for e in ests.values())
    stopped = (f" (chosen on the first {pilot:,}; the others stop there)"
               if pilot < d["deals"] else "")
    lines = [f"  each action valued by the {'better' if len(names) == 2 else 'best'} play-on "
             f"of {listed} on the same deals{stopped}:"]
    for name, ests in by.items():
        lines.append(f"    {name:<10} " + "   ".join(
            f"{label[a]} {format_estimate(e)}" for a, e in ests.items()))
    return lines


def _entry_text(entry: dict) -> str:
    """A record entry of the banker's first decision: ``扣 kou`` or ``lead A♣``."""
    return "扣 kou" if entry["action"] == "kou" else f"lead {entry.get('cards', '')}"


def searched_lines(d: dict) -> list[str]:
    """should-kou's search of the first decision (advise over 扣 and every lead), and the
    gap between the best lead found and the policy's own, when it excludes 0."""
    s = d.get("searched")
    if "searched" not in d:
        return []
    if s is None:
        return ["  searched: not available (this hand opens a 抢刺)"]
    lines = [f"  searched (扣 and every lead on paired play-outs, as advise does, "
             f"{s['deals']:,} deals): best {_entry_text(s['best']['action'])}"]
    if s["kou"]:
        lines.append(f"    扣 kou          {format_estimate(s['kou']['ev'])}")
    if s["best_lead"]:
        lead = f"lead {s['best_lead']['action'].get('cards', '')}"
        lines.append(f"    {lead:<15} {format_estimate(s['best_lead']['ev'])}")
    gap = d.get("best_lead_over_own")
    if gap and gap["low"] > 0:
        lines.append(f"  the best lead found beats the policy's own lead by "
                     f"{format_estimate(gap)} points (independent samples): the 'lead' value "
                     f"above is the policy's own continuation")
    return lines


def stats_lines(d: dict) -> list[str]:
    """``xianniu stats`` JSON (:func:`analyzer.xianniu.api.stats`) as text."""
    head = (f"{d['analysis']}: rules {d['rules']}, policy {d['policy']}, seed {d['seed']}, "
            f"{d['deals']:,} deals (points per hand, 95% CIs)")
    if d["analysis"] == "banker":
        return [head, f"  banker (seat 0) mean points per hand: "
                      f"{format_estimate(d['banker_mean_points'], 4)}"]
    lines = [head]
    if d["analysis"] == "values":
        for row in d["rows"]:
            lines.append(f"  {row['pattern']}")
            for key, label in (("mean_with", "held"), ("mean_without", "not held"),
                               ("observed_diff", "observed difference"),
                               ("counterfactual_diff", "one swap (paired)")):
                lines.append(f"    {label:<20} {format_estimate(row[key])}")
            lines.append(f"    {'swap makes it':<20} {format_percent(row['cf_share_made'])}"
                         " of the swaps")
        lines.append("  mean points by number of K (天): " + "; ".join(
            f"{k} K {format_estimate(e)}" for k, e in enumerate(d["k_count"])))
        return lines
    lines.append(f"  seat 1 after the banker's 扣: {d['positions']:,} positions "
                 f"({format_estimate(d['share_of_deals'], percent=True)} of the deals); "
                 f"掀 - 扣 overall {format_estimate(d['overall'])}")
    lines.append(f"  {'sure':>4} {'K':>2}  {'掀 xian':<34}{'扣 kou':<34}掀 - 扣")
    for row in d["rows"]:
        lines.append(f"  {row['sure_cards']:>4} {row['k_count']:>2}  "
                     f"{format_estimate(row['ev_xian']):<34}{format_estimate(row['ev_kou']):<34}"
                     f"{format_estimate(row['diff'])}")
    return lines


ODDS_LABELS = {"niu": "牛 (a 9 of each colour)", "xi": "喜 (a 5 of each colour)",
               "liang": "亮子 (some rank four times)", "long_feng": "龙凤 (2+ of A 2 3 8 10 K)",
               "eight_pairs": "八大对 (eight pairs)", "fish": "鱼 (A, 2 and 3)",
               "bai": "摆 (8, 10 and K)"}


def odds_lines(d: dict) -> list[str]:
    """Deal odds JSON (:func:`analyzer.xianniu.api.odds`) as text, in percent."""
    lines = [f"one seat's {d['seat_cards']} cards, rules {d['rules']}: exact probability, and "
             f"a Monte Carlo estimate [95% CI] from {d['deals']:,} deals (seed {d['seed']})"]
    rows = [(label, d["exact"][key], d["monte_carlo"][key]) for key, label in ODDS_LABELS.items()]
    rows += [(f"{k} K (天)", e, m) for k, (e, m) in
             enumerate(zip(d["exact"]["k_count"], d["monte_carlo"]["k_count"]))]
    for label, exact, mc in rows:
        lines.append(f"  {label:<28} {format_percent(exact, 4):>9}   "
                     f"{format_estimate(mc, 4, percent=True)}")
    return lines


def solve_line(d: dict) -> str:
    """The solved values of a position (:func:`analyzer.xianniu.api.solve_record`), one line."""
    return (f"seat {d['to_act']} to act; best {d['best_text']}; values (max-n, open hands) "
            + ", ".join(f"seat {s} {v:+d}" for s, v in enumerate(d["values"]))
            + f"; {d['positions']} positions in {d['seconds']:.2f} s")
