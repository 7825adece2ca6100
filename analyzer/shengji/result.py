"""The result of a 双升 batch run (:mod:`.batch`): the setting a task plays, the layout of its
int64 counts vector, and the statistics it renders, every one an estimate with its 95% CI and
n: JSON, one tidy row per statistic, and text.

Counts and sums only, so that tasks merge by addition (any order, any number of workers).
Whole-hand runs report the hand's outcomes (attackers' points, P(banker side holds), 抠底,
level changes) and the bidding's (P(造反), P(下台), P(random trump), 扒鸡窝, the trump
declared), then per team and per seat. Play-only runs keep their ``play_only_`` names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.runner import RunCounts
from ..core.stats import format_estimate, mean_ci_from_sums, proportion_ci
from .rules import get_rules

LEVEL, TRUMP, BANKER = 2, 0, 0  # play-only setting: level 2, trump ♠, banker seat 0
LEVELS, START_BANKER = (2, 2), 0  # whole hands: team levels and the banker going in
SETTING = {"play_only": True, "level": LEVEL, "trump": "s", "banker": BANKER,
           "banker_team": 0, "attacker_team": 1,
           "note": "play-only: bidding and the bury are not simulated; the dealt kitty is "
                   "the kitty"}
WHOLE_SETTING = {"play_only": False, "levels": list(LEVELS), "start_banker": START_BANKER,
                 "note": "whole hands from the deal: a normal hand with seat 0 banker going "
                         "in; 造反, declaring, 下台, random trump, bury, 扒鸡窝 as the rules "
                         "allow; the banker, level and trump are outcomes"}

TOTAL_POINTS = 200
BANKER_GAINS = 6  # bins banker +1 … +6 (the last also holds more)
ATTACKER_GAINS = 11  # bins attackers +0 (turnover) … +10 (the last also holds more)
HIST_BINS = 43  # attacker points: < 0, then 0, 5, …, 200 (by 5s), then > 200
# Layout of the counts vector: the block both modes fill …
A_N = 0
A_PTS, A_PTS_SQ = 1, 2  # attacker points after 抠底
A_TRICK, A_TRICK_SQ = 3, 4  # attackers' trick points
A_BANKER_TRICK = 5  # banker side's trick points
A_KITTY, A_KITTY_SQ = 6, 7  # kitty points
A_KOU, A_KOU_PTS, A_KOU_PTS_SQ = 8, 9, 10  # 抠底 hands; points it added
A_HOLD = 11  # the banker side keeps the bank (P < turnover_at)
A_THROWS, A_FAILED = 12, 13
A_BAD_TOTAL = 14  # hands whose point cards do not add to 200 (always 0)
A_HIST = 15
A_BANKER_GAIN = A_HIST + HIST_BINS
A_ATTACKER_GAIN = A_BANKER_GAIN + BANKER_GAINS
# … and the whole-hand block (zero in play-only runs).
A_REBEL = A_ATTACKER_GAIN + ATTACKER_GAINS  # hands with a 造反
A_STEPDOWN = A_REBEL + 1  # 下台: nobody declared in the first round
A_RANDOM_TRUMP = A_STEPDOWN + 1  # T drawn from the kitty
A_BAJIWO = A_RANDOM_TRUMP + 1  # hands with at least one 扒鸡窝 swap
A_BAJIWO_SWAPS, A_BAJIWO_SWAPS_SQ = A_BAJIWO + 1, A_BAJIWO + 2
A_GRAB = A_BAJIWO + 3  # 抢庄局 (after a 造反)
A_TRUMP = A_GRAB + 1  # 5 bins: final T ♠♥♣♦ NT
A_TEAM = A_TRUMP + 5  # per team (2 blocks of TEAM_SIZE)
TM_BANKS, TM_HOLDS, TM_WINS, TM_GAIN, TM_GAIN_SQ, TM_ATTACK_PTS, TM_ATTACK_PTS_SQ = range(7)
TEAM_SIZE = 7
A_SEAT = A_TEAM + 2 * TEAM_SIZE  # per seat (4 blocks of SEAT_SIZE)
SE_BANKS, SE_HOLDS, SE_PTS, SE_PTS_SQ, SE_REBEL, SE_TAKER, SE_LAST_BURIER = range(7)
SEAT_SIZE = 7
AGG_SIZE = A_SEAT + 4 * SEAT_SIZE


TRUMP_NAMES = ("♠", "♥", "♣", "♦", "NT")
LIST_STATS = ("attacker_points_hist", "level_change", "trump", "teams", "seats")


def _p(k, n) -> dict:
    return proportion_ci(int(k), int(n)).as_dict()


def _mean(total, total_sq, n) -> dict:
    return mean_ci_from_sums(float(total), float(total_sq), int(n)).as_dict()


def _band_labels() -> list[str]:
    """Labels of the level-change bins: banker +1 … , turnover, attackers +1 …"""
    out = [f"banker +{k}" for k in range(1, BANKER_GAINS)]
    out.append(f"banker +{BANKER_GAINS}+")
    out += ["turnover (attackers +0)"]
    out += [f"attackers +{g}" for g in range(1, ATTACKER_GAINS - 1)]
    return out + [f"attackers +{ATTACKER_GAINS - 1}+"]


def _hand_stats(c: np.ndarray) -> dict[str, Any]:
    """The statistics both modes share (unprefixed names)."""
    n, kou = int(c[A_N]), int(c[A_KOU])
    hist = [{"points": "<0" if i == 0 else ">200" if i == HIST_BINS - 1 else 5 * (i - 1),
             **_p(c[A_HIST + i], n)} for i in range(HIST_BINS)]
    gains = np.concatenate([c[A_BANKER_GAIN:A_ATTACKER_GAIN],
                            c[A_ATTACKER_GAIN:A_ATTACKER_GAIN + ATTACKER_GAINS]])
    bands = [{"band": label, **_p(k, n)} for label, k in zip(_band_labels(), gains)]
    return {
        "attacker_points": _mean(c[A_PTS], c[A_PTS_SQ], n),
        "attacker_trick_points": _mean(c[A_TRICK], c[A_TRICK_SQ], n),
        "kitty_points": _mean(c[A_KITTY], c[A_KITTY_SQ], n),
        "p_banker_holds": _p(c[A_HOLD], n),
        "p_attackers_take_bank": _p(n - c[A_HOLD], n),
        "p_kou_di": _p(kou, n),
        "kou_di_points": _mean(c[A_KOU_PTS], c[A_KOU_PTS_SQ], n),
        "kou_di_points_given_kou_di": _mean(c[A_KOU_PTS], c[A_KOU_PTS_SQ], kou),
        "p_throw_fails": _p(c[A_FAILED], c[A_THROWS]),
        "attacker_points_hist": hist,
        "level_change": bands,
    }


def _bidding_stats(c: np.ndarray) -> dict[str, Any]:
    n = int(c[A_N])
    return {
        "p_rebel": _p(c[A_REBEL], n),
        "p_step_down": _p(c[A_STEPDOWN], n),
        "p_random_trump": _p(c[A_RANDOM_TRUMP], n),
        "p_bajiwo": _p(c[A_BAJIWO], n),
        "bajiwo_swaps": _mean(c[A_BAJIWO_SWAPS], c[A_BAJIWO_SWAPS_SQ], n),
        "trump": [{"trump": TRUMP_NAMES[t], **_p(c[A_TRUMP + t], n)} for t in range(5)],
    }


def _team_stats(c: np.ndarray) -> list[dict[str, Any]]:
    n, out = int(c[A_N]), []
    for team in (0, 1):
        b = A_TEAM + TEAM_SIZE * team
        banks = int(c[b + TM_BANKS])
        out.append({
            "team": team, "seats": f"{team}, {team + 2}",
            "p_banks": _p(banks, n),
            "p_holds_given_banks": _p(c[b + TM_HOLDS], banks),
            "p_wins_hand": _p(c[b + TM_WINS], n),
            "levels_gained": _mean(c[b + TM_GAIN], c[b + TM_GAIN_SQ], n),
            "attacker_points_when_attacking": _mean(c[b + TM_ATTACK_PTS],
                                                    c[b + TM_ATTACK_PTS_SQ], n - banks)})
    return out


def _seat_stats(c: np.ndarray) -> list[dict[str, Any]]:
    n, out = int(c[A_N]), []
    for seat in range(4):
        b = A_SEAT + SEAT_SIZE * seat
        banks = int(c[b + SE_BANKS])
        out.append({
            "seat": seat, "p_banks": _p(banks, n),
            "p_holds_given_banks": _p(c[b + SE_HOLDS], banks),
            "attacker_points_given_banks": _mean(c[b + SE_PTS], c[b + SE_PTS_SQ],
                                                 banks),
            "p_rebel": _p(c[b + SE_REBEL], n),
            "p_takes_kitty": _p(c[b + SE_TAKER], n),
            "p_last_burier": _p(c[b + SE_LAST_BURIER], n)})
    return out


class Result(RunCounts):
    """Counts of a 双升 run (layout ``A_*``) and what produced them."""

    game = "shengji"

    @property
    def play_only(self) -> bool:
        return self.meta.get("mode") == "play-only"

    def as_json(self) -> dict[str, Any]:
        """Every statistic as ``{"value", "low", "high", "n"}`` (lists of them per band,
        bin, trump, team and seat)."""
        c = self.counts
        if c[A_BAD_TOTAL]:
            raise AssertionError(f"{c[A_BAD_TOTAL]} hands whose point cards miss 200")
        head = {**self.head(), "mode": "play-only" if self.play_only else "whole"}
        stats = _hand_stats(c)
        if self.play_only:
            return {**head, "setting": SETTING,
                    **{f"play_only_{k}": v for k, v in stats.items()}}
        rules = get_rules(head["rules"])
        setting = {**WHOLE_SETTING, "declare_start": rules.declare_start}
        return {**head, "setting": setting, **stats, **_bidding_stats(c),
                "teams": _team_stats(c), "seats": _seat_stats(c)}

    def tidy(self) -> pd.DataFrame:
        """One row per statistic (band, bin, trump, team or seat in ``item``): value, 95% CI,
        n, metadata."""
        s = self.as_json()
        rows = []
        for key, v in s.items():
            if isinstance(v, dict) and "value" in v:
                rows.append({"statistic": key, "item": None, **_ci_cols(v)})
            elif isinstance(v, list) and key.removeprefix("play_only_") in LIST_STATS:
                rows += _list_rows(key, v)
        df = pd.DataFrame(rows)
        for key in ("game", "rules", "policy", "seed", "mode"):
            df[key] = s[key]
        if self.play_only:
            for key in ("level", "trump", "banker"):
                df[key] = SETTING[key]
        return df

    def text(self) -> str:
        """A few lines of text, every figure with its 95% CI and n."""
        return _play_only_text(self.as_json()) if self.play_only else \
            _whole_text(self.as_json())


def _list_rows(key: str, entries: list[dict]) -> list[dict]:
    """Rows of a list statistic: one per entry (bins, bands, trumps), or one per entry and
    field (``teams.p_banks`` …) for teams and seats."""
    rows = []
    for e in entries:
        label = str(next(iter(e.values())))
        if "value" in e:
            rows.append({"statistic": key, "item": label, **_ci_cols(e)})
            continue
        for k, v in e.items():
            if isinstance(v, dict):
                rows.append({"statistic": f"{key}.{k}", "item": label, **_ci_cols(v)})
    return rows


def _ci_cols(e: dict) -> dict:
    return {"value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}


PCT: dict[str, Any] = {"percent": True}  # format_estimate keywords


def _num(e: dict) -> str:
    return format_estimate(e, 2, False)


def _kou_di_note(points: dict) -> str:
    """Why 抠底 may add nothing although it happens: it adds the kitty's point cards."""
    if points["value"] == 0:
        return " (抠底 adds the kitty's point cards times its multiplier: no kitty held any)"
    return " (the kitty's point cards times its multiplier)"


def _play_only_text(s: dict) -> str:
    turn = get_rules(s["rules"]).turnover_at
    lines = [f"{s['hands']:,} play-only hands of 双升 (bidding not simulated), rules "
             f"{s['rules']}, policy {s['policy']}, seed {s['seed']}; level 2, trump ♠, "
             f"banker seat 0 (team 0 = seats 0, 2), dealt kitty; 95% CIs",
             f"  attackers' points (抓分)   {_num(s['play_only_attacker_points'])}",
             f"  of which from tricks      {_num(s['play_only_attacker_trick_points'])}",
             f"  P(banker side holds, P<{turn}) "
             f"{format_estimate(s['play_only_p_banker_holds'], **PCT)}",
             f"  P(attackers take the bank)     "
             f"{format_estimate(s['play_only_p_attackers_take_bank'], **PCT)}",
             f"  P(抠底: attackers take the last trick) "
             f"{format_estimate(s['play_only_p_kou_di'], **PCT)}",
             f"  抠底 points added per hand {_num(s['play_only_kou_di_points'])}"
             f"{_kou_di_note(s['play_only_kou_di_points'])}",
             "  level change (team 0 banker side / team 1 attackers):"]
    for e in s["play_only_level_change"]:
        if e["value"] > 0:
            lines.append(f"    {e['band']:<30} {format_estimate(e, **PCT)}")
    return "\n".join(lines)


def _whole_text(s: dict) -> str:
    turn = get_rules(s["rules"]).turnover_at
    lines = [f"{s['hands']:,} whole hands of 双升 (造反, bidding, bury, 扒鸡窝, play), rules "
             f"{s['rules']}, policy {s['policy']}, seed {s['seed']}; team levels 2 and 2, "
             f"seat 0 banker going in, declare_start {s['setting']['declare_start']}; 95% CIs",
             f"  attackers' points (抓分)   {_num(s['attacker_points'])}",
             f"  of which from tricks      {_num(s['attacker_trick_points'])}",
             f"  P(banker side holds, P<{turn}) {format_estimate(s['p_banker_holds'], **PCT)}",
             f"  P(attackers take the bank) {format_estimate(s['p_attackers_take_bank'], **PCT)}",
             f"  P(抠底)                    {format_estimate(s['p_kou_di'], **PCT)}",
             f"  抠底 points added per hand {_num(s['kou_di_points'])}"
             f"{_kou_di_note(s['kou_di_points'])}",
             f"  P(造反, redeal)            {format_estimate(s['p_rebel'], **PCT)}",
             f"  P(下台, nobody declared)   {format_estimate(s['p_step_down'], **PCT)}",
             f"  P(random kitty trump)     {format_estimate(s['p_random_trump'], **PCT)}",
             f"  P(扒鸡窝 swap)             {format_estimate(s['p_bajiwo'], **PCT)}",
             "  trump played: " + ", ".join(f"{e['trump']} {100 * e['value']:.1f}%"
                                            for e in s["trump"]),
             "  per team: P(banks), P(holds | banks), P(wins the hand), levels gained:"]
    for t in s["teams"]:
        lines.append(f"    team {t['team']} (seats {t['seats']}): "
                     f"{format_estimate(t['p_banks'], **PCT)}; "
                     f"{format_estimate(t['p_holds_given_banks'], **PCT)}; "
                     f"{format_estimate(t['p_wins_hand'], **PCT)}; "
                     f"{_num(t['levels_gained'])}")
    lines.append("  per seat: P(banks), P(holds | banks), attackers' points when it banks:")
    for e in s["seats"]:
        lines.append(f"    seat {e['seat']}: {format_estimate(e['p_banks'], **PCT)}; "
                     f"{format_estimate(e['p_holds_given_banks'], **PCT)}; "
                     f"{_num(e['attacker_points_given_banks'])}")
    lines.append("  level change (banker side / attackers):")
    for e in s["level_change"]:
        if e["value"] > 0:
            lines.append(f"    {e['band']:<30} {format_estimate(e, **PCT)}")
    return "\n".join(lines)
