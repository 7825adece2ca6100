"""How the batch runner plays and counts 双升 hands (see :class:`analyzer.core.runner.RunSpec`).

Every hand is **play-only** (``kernels.shengji.hand``): bidding (亮主/反主) and the bury
(扣底) are not simulated. The deal is played from the fixed study setting below — level 2,
trump ♠, banker (莊家) seat 0 — with the 8 dealt cards as the kitty (底牌). The banker side
is team 0 (seats 0, 2), the attackers (抓分方) team 1 (seats 1, 3).

A task keeps integer sums only (layout ``A_*``); they add across tasks exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from kernels.shengji import hand as kh
from kernels.shengji.planes import cards_of

from ..core.stats import format_estimate, mean_ci_from_sums, proportion_ci
from .cards import context, format_cards
from .rules import ShengjiRules, get_rules
from .sim import CHUNK, dealt_chunks, policy_ids, rule_arrays

CHUNK_SIZE = CHUNK
LEVEL, TRUMP, BANKER = 2, 0, 0  # the study setting: level 2, trump ♠, banker seat 0
SETTING = {"play_only": True, "level": LEVEL, "trump": "s", "banker": BANKER,
           "banker_team": 0, "attacker_team": 1,
           "note": "play-only: bidding and the bury are not simulated; the dealt kitty is "
                   "the kitty"}
TOTAL_POINTS = 200
BANKER_GAINS = 6  # bins banker +1 … +6 (the last also holds more)
ATTACKER_GAINS = 11  # bins attackers +0 (turnover, 下台) … +10 (the last also holds more)
HIST_BINS = 43  # attacker points: < 0, then 0, 5, …, 200 (by 5s), then > 200
# Layout of the counts vector.
A_N = 0
A_PTS, A_PTS_SQ = 1, 2  # attacker points after 摳底
A_TRICK, A_TRICK_SQ = 3, 4  # attackers' trick points
A_BANKER_TRICK = 5  # banker side's trick points
A_KITTY, A_KITTY_SQ = 6, 7  # kitty points
A_KOU, A_KOU_PTS, A_KOU_PTS_SQ = 8, 9, 10  # 摳底 hands; points it added
A_HOLD = 11  # the banker side keeps the bank (P < turnover_at)
A_THROWS, A_FAILED = 12, 13
A_BAD_TOTAL = 14  # hands whose point cards do not add to 200 (always 0)
A_HIST = 15
A_BANKER_GAIN = A_HIST + HIST_BINS
A_ATTACKER_GAIN = A_BANKER_GAIN + BANKER_GAINS
AGG_SIZE = A_ATTACKER_GAIN + ATTACKER_GAINS


def check(spec) -> None:
    """Refuse unknown rules or policies."""
    get_rules(spec.rules)
    policy_ids(spec.policies)


def meta(spec) -> dict:
    """The rules and the policy of a run."""
    names = sorted({n.strip().lower() for n in spec.policies.split(",")})
    return {"rules": get_rules(spec.rules).name, "policy": ",".join(names)}


def level_changes(points: np.ndarray, r: ShengjiRules) -> tuple[np.ndarray, np.ndarray]:
    """``(banker_gain, attacker_gain)`` per hand from the attackers' points (§7.1, as
    ``scoring.level_result``): one of them is -1, the other the levels gained."""
    p, step, turn = points, r.level_step, r.turnover_at
    hold = p < turn
    banker = np.where(p <= 0, (turn - 1) // step + 2, (turn - p - 1) // step + 1)
    gain = (p - turn) // step
    if r.attacker_gain_cap is not None:
        gain = np.minimum(gain, r.attacker_gain_cap)
    return np.where(hold, banker, -1), np.where(hold, -1, gain)


def counts_of(res: np.ndarray, r: ShengjiRules) -> np.ndarray:
    """The counts vector of result rows (``kernels.shengji.hand.R_*``)."""
    c = np.zeros(AGG_SIZE, dtype=np.int64)
    pts, trick = res[:, kh.R_ATTACKER_POINTS], res[:, kh.R_TRICK_POINTS]
    kitty = res[:, kh.R_KITTY_POINTS]
    kou = res[:, kh.R_MULTIPLIER] > 0
    added = kitty * res[:, kh.R_MULTIPLIER]
    c[A_N] = len(res)
    c[A_PTS], c[A_PTS_SQ] = pts.sum(), (pts * pts).sum()
    c[A_TRICK], c[A_TRICK_SQ] = trick.sum(), (trick * trick).sum()
    c[A_BANKER_TRICK] = res[:, kh.R_BANKER_TRICK_POINTS].sum()
    c[A_KITTY], c[A_KITTY_SQ] = kitty.sum(), (kitty * kitty).sum()
    c[A_KOU], c[A_KOU_PTS], c[A_KOU_PTS_SQ] = kou.sum(), added.sum(), (added * added).sum()
    c[A_HOLD] = (pts < r.turnover_at).sum()
    c[A_THROWS], c[A_FAILED] = res[:, kh.R_THROWS].sum(), res[:, kh.R_FAILED_THROWS].sum()
    c[A_BAD_TOTAL] = (trick + res[:, kh.R_BANKER_TRICK_POINTS] + kitty != TOTAL_POINTS).sum()
    bins = np.clip(np.floor_divide(pts, 5), -1, HIST_BINS - 2) + 1
    c[A_HIST:A_HIST + HIST_BINS] = np.bincount(bins, minlength=HIST_BINS)
    bg, ag = level_changes(pts, r)
    c[A_BANKER_GAIN:A_BANKER_GAIN + BANKER_GAINS] = np.bincount(
        np.clip(bg[bg > 0], 1, BANKER_GAINS) - 1, minlength=BANKER_GAINS)
    c[A_ATTACKER_GAIN:A_ATTACKER_GAIN + ATTACKER_GAINS] = np.bincount(
        np.clip(ag[ag >= 0], 0, ATTACKER_GAINS - 1), minlength=ATTACKER_GAINS)
    return c


def _play(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    deals = np.empty((n, 5, 2), dtype=np.int64)
    res = np.empty((n, kh.N_RESULT), dtype=np.int64)
    dealt_chunks(states, spec.chunk_size, n, LEVEL, TRUMP, BANKER, rule_arrays(spec.rules),
                 deals, res)
    return deals, res


def task_counts(spec, states: np.ndarray, n: int) -> np.ndarray:
    """Counts of ``n`` play-only hands from one stream per chunk."""
    res = np.empty((n, kh.N_RESULT), dtype=np.int64)
    kh.play_chunks(states, spec.chunk_size, n, LEVEL, TRUMP, BANKER, rule_arrays(spec.rules),
                   res)
    return counts_of(res, get_rules(spec.rules))


def task_rows(spec, states: np.ndarray, n: int) -> tuple[np.ndarray, pd.DataFrame]:
    """Counts and per-hand rows: the result columns, the level change and the deal as card
    text (``dealt0`` … ``dealt3``, ``kitty``); the same hands :func:`task_counts` plays."""
    r = get_rules(spec.rules)
    deals, res = _play(spec, states, n)
    bg, ag = level_changes(res[:, kh.R_ATTACKER_POINTS], r)
    cols = {"attacker_points": res[:, kh.R_ATTACKER_POINTS],
            "trick_points": res[:, kh.R_TRICK_POINTS],
            "banker_trick_points": res[:, kh.R_BANKER_TRICK_POINTS],
            "kitty_points": res[:, kh.R_KITTY_POINTS], "multiplier": res[:, kh.R_MULTIPLIER],
            "tricks": res[:, kh.R_TRICKS], "throws": res[:, kh.R_THROWS],
            "failed_throws": res[:, kh.R_FAILED_THROWS],
            "last_winner": res[:, kh.R_LAST_WINNER],
            "banker_holds": res[:, kh.R_ATTACKER_POINTS] < r.turnover_at,
            "banker_gain": bg, "attacker_gain": ag}
    ctx = context(LEVEL, TRUMP, r.nt_level_joker_tractor)
    names = ["dealt0", "dealt1", "dealt2", "dealt3", "kitty"]
    for s, name in enumerate(names):
        cols[name] = [format_cards(cards_of(int(o), int(t)), ctx)
                      for o, t in deals[:, s].tolist()]
    return counts_of(res, r), pd.DataFrame(cols)


def _band_labels() -> list[str]:
    """Labels of the level-change bins: banker +1 … , turnover, attackers +1 …"""
    out = [f"banker +{k}" for k in range(1, BANKER_GAINS)] + [f"banker +{BANKER_GAINS}+"]
    out += ["turnover (下台, attackers +0)"]
    out += [f"attackers +{g}" for g in range(1, ATTACKER_GAINS - 1)]
    return out + [f"attackers +{ATTACKER_GAINS - 1}+"]


@dataclass
class Result:
    """Counts of a 双升 play-only run (layout ``A_*``) and what produced them."""

    counts: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def hands(self) -> int:
        return int(self.counts[A_N])

    def as_json(self) -> dict[str, Any]:
        """Play-only statistics, every one an estimate with its 95% CI and n."""
        c, n = self.counts, self.hands
        if c[A_BAD_TOTAL]:
            raise AssertionError(f"{c[A_BAD_TOTAL]} hands whose point cards miss 200")
        kou = int(c[A_KOU])
        hist = [{"points": "<0" if i == 0 else ">200" if i == HIST_BINS - 1 else 5 * (i - 1),
                 **proportion_ci(int(c[A_HIST + i]), n).as_dict()} for i in range(HIST_BINS)]
        gains = np.concatenate([c[A_BANKER_GAIN:A_ATTACKER_GAIN],
                                c[A_ATTACKER_GAIN:AGG_SIZE]])
        bands = [{"band": label, **proportion_ci(int(k), n).as_dict()}
                 for label, k in zip(_band_labels(), gains)]
        return {
            "game": "shengji", "rules": self.meta.get("rules"), "seed": self.meta.get("seed"),
            "hands": n, "policy": self.meta.get("policy"), "setting": SETTING,
            "play_only_attacker_points": mean_ci_from_sums(
                float(c[A_PTS]), float(c[A_PTS_SQ]), n).as_dict(),
            "play_only_attacker_trick_points": mean_ci_from_sums(
                float(c[A_TRICK]), float(c[A_TRICK_SQ]), n).as_dict(),
            "play_only_kitty_points": mean_ci_from_sums(
                float(c[A_KITTY]), float(c[A_KITTY_SQ]), n).as_dict(),
            "play_only_p_banker_holds": proportion_ci(int(c[A_HOLD]), n).as_dict(),
            "play_only_p_attackers_take_bank": proportion_ci(n - int(c[A_HOLD]), n).as_dict(),
            "play_only_p_kou_di": proportion_ci(kou, n).as_dict(),
            "play_only_kou_di_points": mean_ci_from_sums(
                float(c[A_KOU_PTS]), float(c[A_KOU_PTS_SQ]), n).as_dict(),
            "play_only_kou_di_points_given_kou_di": mean_ci_from_sums(
                float(c[A_KOU_PTS]), float(c[A_KOU_PTS_SQ]), kou).as_dict(),
            "play_only_p_throw_fails": proportion_ci(int(c[A_FAILED]),
                                                     int(c[A_THROWS])).as_dict(),
            "play_only_attacker_points_hist": hist,
            "play_only_level_change": bands,
        }

    def tidy(self) -> pd.DataFrame:
        """One row per statistic (band or bin in ``item``): value, 95% CI, n, metadata."""
        s = self.as_json()
        rows = []
        for key, v in s.items():
            if isinstance(v, dict) and "value" in v:
                rows.append({"statistic": key, "item": None, **_ci_cols(v)})
        for e in s["play_only_attacker_points_hist"]:
            rows.append({"statistic": "play_only_attacker_points_hist",
                         "item": str(e["points"]), **_ci_cols(e)})
        for e in s["play_only_level_change"]:
            rows.append({"statistic": "play_only_level_change", "item": e["band"],
                         **_ci_cols(e)})
        df = pd.DataFrame(rows)
        for key in ("game", "rules", "policy", "seed"):
            df[key] = s[key]
        for key in ("level", "trump", "banker"):
            df[key] = SETTING[key]
        return df

    def text(self) -> str:
        """A few lines of text, every figure with its 95% CI and n."""
        s = self.as_json()
        pct = {"percent": True}

        def num(key: str) -> str:
            return format_estimate(s[key], 2, False)

        turn = get_rules(s["rules"]).turnover_at
        lines = [f"{s['hands']:,} play-only hands of 双升 (bidding not simulated), rules "
                 f"{s['rules']}, policy {s['policy']}, seed {s['seed']}; level 2, trump ♠, "
                 f"banker seat 0 (team 0 = seats 0, 2), dealt kitty; 95% CIs",
                 f"  attackers' points (抓分)   {num('play_only_attacker_points')}",
                 f"  of which from tricks      {num('play_only_attacker_trick_points')}",
                 f"  P(banker side holds, P<{turn}) "
                 f"{format_estimate(s['play_only_p_banker_holds'], **pct)}",
                 f"  P(下台: attackers take the bank) "
                 f"{format_estimate(s['play_only_p_attackers_take_bank'], **pct)}",
                 f"  P(摳底: attackers take the last trick) "
                 f"{format_estimate(s['play_only_p_kou_di'], **pct)}",
                 f"  摳底 points added per hand {num('play_only_kou_di_points')}",
                 "  level change (team 0 banker side / team 1 attackers):"]
        for e in s["play_only_level_change"]:
            if e["value"] > 0:
                lines.append(f"    {e['band']:<30} {format_estimate(e, **pct)}")
        return "\n".join(lines)


def result(counts: np.ndarray, meta: dict) -> Result:
    """The run's result."""
    return Result(counts, meta)


def _ci_cols(e: dict) -> dict:
    return {"value": e["value"], "ci_low": e["low"], "ci_high": e["high"], "n": e["n"]}
