"""Team duplicate tournaments of 双升 policies: policy A on one team and B on the other, each
deal played again with the teams swapped.

Every deal is a whole hand from the deal (造反, declaring, the bury, 扒鸡窝, the play) with
the team levels and the banker going in fixed (2 and 2, seat 0 by default). Seating 0 puts A
on seats 0 and 2 and B on seats 1 and 3; seating 1 swaps them. Both seatings start from the
same random stream state after the deal. The deal is the unit of the sample; CIs are taken
across deals:

- **levels**: the levels a policy's team gains per hand (a team that loses the hand or only
  takes the bank gains 0); A − B is the level-point margin per deal;
- **net attacker points**: the attackers' points (after 抠底) when the policy's team
  attacks, counted negative when it is the banker side; A − B is, on each deal, the points
  A's team scores as attackers less the points B's team scores on the same cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np

from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji.policies import P_PIMC_SAMPLES, pimc_flag

from ..core.batches import chunk_batches
from ..core.drive import play_rows
from ..core.exploit import BestResponse, responder_seatings, seat_gains
from ..core.stats import format_estimate, mean_ci
from ..core.tournament import TournamentResult, skill_line
from .rules import ShengjiRules, get_rules
from .sim import (
    POLICIES,
    POLICY_IDS,
    QUERY_POLICY,
    SLOW_CHUNK,
    SLOW_POLICIES,
    check_n,
    check_start,
    is_slow,
    kernel_rules,
    policy_row,
    stack_rows,
)

SEATINGS = ((0, 1, 0, 1), (1, 0, 1, 0))  # policy index per seat
CHUNK = 256  # deals per random stream


def policy_pair(policies) -> list[str]:
    names = [p.strip().lower() for p in (policies.split(",") if isinstance(policies, str)
                                         else policies)]
    if len(names) != 2:
        raise ValueError(f"a 双升 tournament takes two policies A,B (one per team), "
                         f"got {len(names)}")
    if names[0] == names[1]:
        raise ValueError("the two policies of a tournament must differ")
    for n in names:
        if n not in POLICIES:
            raise ValueError(f"unknown policy {n!r} (choose from {', '.join(POLICIES)})")
    return names


def play_duplicate(names: list[str], n_deals: int, rules: ShengjiRules, seed: int,
                   levels=(2, 2), banker: int | None = 0, pimc_samples: int | None = None,
                   progress: Callable[[int], None] | None = None,
                   rows: tuple[np.ndarray, np.ndarray] | None = None,
                   seatings: Sequence[Sequence[int]] = SEATINGS) -> np.ndarray:
    """Whole-hand rows (``game.W_*``) ``[deal, seating]`` of the ``seatings`` (the policy
    index of each seat; by default the two of a team tournament); ``rows``: the parameter
    rows of A and B (float64[N_HEURISTIC] each, a net row longer) instead of those their
    names give (``sim.policy_row``)."""
    ids = [POLICY_IDS[n] for n in names]
    seat_pol = np.array([[ids[p] for p in s] for s in seatings], dtype=np.int64)
    if rows is None:
        rows = (policy_row(names[0], rules), policy_row(names[1], rules))
    both = stack_rows(rows)
    seat_hp = np.array([[both[p] for p in s] for s in seatings], dtype=np.float64)
    if pimc_samples is not None:
        seat_hp[:, :, P_PIMC_SAMPLES] = pimc_samples
    chunk = SLOW_CHUNK if is_slow(names) else CHUNK
    lv, b = check_start(levels, banker)
    states = states_from_seed(seed, -(-n_deals // chunk))
    out = np.empty((n_deals, len(seatings), kw.N_WHOLE), dtype=np.int64)
    kr = kernel_rules(rules, lv, b)
    seated = (seat_pol, seat_hp, pimc_flag(seat_pol))
    for a, z, lo, hi in chunk_batches(n_deals, chunk, 4 * numba.get_num_threads()):
        # each seating from the chunk's stream as it is after the deal
        out[lo:hi] = play_rows(kr, seated, states[a:z], chunk, hi - lo, paired="copy")
        if progress is not None:
            progress(hi - lo)
    return out


def scores(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal and policy (``[deals, 2]``): levels gained per hand and net attacker points
    per hand; and per deal and seating, the index of the policy that attacked."""
    seating = np.array(SEATINGS)  # [seatings, seats]
    banker = rows[:, :, kw.W_BANKER]
    winner_team = rows[:, :, kw.W_WINNER_TEAM]
    gain = rows[:, :, kw.W_GAIN]
    pts = rows[:, :, kw.W_PLAY + kh.R_ATTACKER_POINTS]
    n_s = len(SEATINGS)
    # policy of team t in seating s: the policy on seat t
    team_policy = seating[:, :2]  # [seatings, team]
    winner_policy = team_policy[np.arange(n_s), winner_team]  # [deals, seatings]
    attacker_policy = team_policy[np.arange(n_s), 1 - banker % 2]
    levels = np.zeros((len(rows), 2))
    net = np.zeros((len(rows), 2))
    for p in range(2):
        levels[:, p] = np.where(winner_policy == p, gain, 0).mean(axis=1)
        net[:, p] = np.where(attacker_policy == p, pts, -pts).mean(axis=1)
    return levels, net, attacker_policy


def check_sizes(run: str, n_deals, pimc_samples) -> int:
    """``n_deals`` as an int ≥ 2, with pimc's samples an integer ≥ 1 or None; ValueError
    naming ``run`` otherwise."""
    n = check_n(n_deals, "deals")
    if n < 2:
        raise ValueError(f"{run} needs at least 2 deals, got {n_deals!r}")
    if pimc_samples is not None and (isinstance(pimc_samples, bool)
                                     or not isinstance(pimc_samples, int) or pimc_samples < 1):
        raise ValueError(f"pimc samples must be an integer ≥ 1, got {pimc_samples!r}")
    return n


def level_spread(rows: np.ndarray) -> tuple[float, float]:
    """The SD of one hand's levels gained by each policy's team (the winner's gain, else
    0), over every hand played (:meth:`analyzer.core.tournament.TournamentResult.skill`)."""
    team_policy = np.array(SEATINGS)[:, :2]
    winner_policy = team_policy[np.arange(len(SEATINGS)), rows[:, :, kw.W_WINNER_TEAM]]
    gain = rows[:, :, kw.W_GAIN]
    sd = [float(np.where(winner_policy == p, gain, 0).std(ddof=1)) for p in range(2)]
    return sd[0], sd[1]


def tournament(policies, n_deals: int, rules: str | ShengjiRules | None = None,
               seed: int = 0, levels=(2, 2), banker: int | None = 0,
               pimc_samples: int | None = None,
               progress: Callable[[int], None] | None = None
               ) -> tuple[TournamentResult, TournamentResult, dict[str, Any]]:
    """Two policies in team duplicate over ``n_deals`` deals: the level result, the net
    attacker points result (``TournamentResult``, per deal and policy) and the attackers'
    points of each policy's team when it attacks (per hand, a 95% CI)."""
    names = policy_pair(policies)
    n = check_sizes("a tournament", n_deals, pimc_samples)
    r = get_rules(rules)
    rows = play_duplicate(names, n, r, seed, levels, banker, pimc_samples, progress)
    lv, net, attacker = scores(rows)
    hand_sd = level_spread(rows)
    pts = rows[:, :, kw.W_PLAY + kh.R_ATTACKER_POINTS]
    meta = {"game": "shengji", "rules": r.label, "seed": seed, "deals": n,
            "seatings": len(SEATINGS), "hands_played": n * len(SEATINGS),
            "levels": list(levels), "banker": banker}
    slow = [n for n in names if n in SLOW_POLICIES]
    if slow:  # the samples of the first pimc seat (pimc 16, pimc2 64, unless set)
        meta["pimc_samples"] = int(pimc_samples or policy_row(slow[0], r)[P_PIMC_SAMPLES])
    attacking = {p: mean_ci(pts[attacker == i]).as_dict() for i, p in enumerate(names)}
    return (TournamentResult(names, r.label, seed, n, lv, dict(meta), score="levels",
                             hand_sd=hand_sd),
            TournamentResult(names, r.label, seed, n, net, dict(meta),
                             score="net_attacker_points"),
            attacking)


def tournament_dict(res_levels: TournamentResult, res_points: TournamentResult,
                    attacking: dict[str, Any]) -> dict[str, Any]:
    """JSON-ready: the run's head, each policy's levels gained per hand, net attacker points
    per hand and attackers' points when attacking, then A − B for levels and points."""
    d = res_levels.as_dict()
    p = res_points.as_dict()
    for row, prow in zip(d["results"], p["results"]):
        row["net_attacker_points"] = prow["net_attacker_points"]
        row["attacker_points_when_attacking"] = attacking[row["policy"]]
    d["differences"] = [{"a": a["a"], "b": a["b"], "levels": a["diff"],
                         "levels_significant": a["significant"],
                         "attacker_points": b["diff"],
                         "attacker_points_significant": b["significant"],
                         "skill": a["skill"]}
                        for a, b in zip(d["differences"], p["differences"])]
    return d


def tournament_lines(d: dict[str, Any]) -> list[str]:
    """A team tournament's JSON as text, every number with its 95% CI and n."""
    banker = "a 抢庄局" if d["banker"] is None else f"seat {d['banker']} banker going in"
    lines = [f"{d['deals']:,} deals x {d['seatings']} seatings (teams swapped) = "
             f"{d['hands_played']:,} whole hands, rules {d['rules']}, seed {d['seed']}, "
             f"team levels {d['levels'][0]} and {d['levels'][1]}, {banker} "
             f"(95% CIs; n counts deals unless it says hands)"]
    for row in d["results"]:
        lines.append(f"  {row['policy']:<10} levels gained per hand "
                     f"{format_estimate(row['levels'])}")
        lines.append(f"  {'':<10} attackers' points per hand when attacking "
                     f"{format_estimate(row['attacker_points_when_attacking'], unit='hands')}")
    for row in d["differences"]:
        for key, label in (("levels", "levels per deal"),
                           ("attacker_points", "attackers' points per deal")):
            mark = "" if row[f"{key}_significant"] else "  (CI holds 0)"
            lines.append(f"  {row['a']} - {row['b']}, {label}: "
                         f"{format_estimate(row[key])}{mark}")
            if key == "levels" and row.get("skill"):
                lines.append(skill_line(row, "levels"))
    return lines


PLAYER = QUERY_POLICY  # the default player: the other seats of every query and review
RESPONDER = "pimc2"  # the strongest search: pimc from net's choice (play-outs by tuned)


def seat_margins(rows: np.ndarray) -> np.ndarray:
    """``[deals, seatings, seats]``: the levels each seat's team gains on the hand, less
    those the other team gains (a seat's team is its seat's parity)."""
    won = rows[:, :, kw.W_WINNER_TEAM][:, :, None] == np.arange(4)[None, None, :] % 2
    gain = rows[:, :, kw.W_GAIN][:, :, None]
    return np.where(won, gain, -gain)


def best_response(n_deals: int, rules: str | ShengjiRules | None = None, seed: int = 0,
                  levels=(2, 2), banker: int | None = 0, player: str = PLAYER,
                  responder: str = RESPONDER, pimc_samples: int | None = None,
                  progress: Callable[[int], None] | None = None) -> BestResponse:
    """``responder`` alone in each seat (its partner and both opponents ``player``), less
    ``player`` in that seat, on ``n_deals`` deals (:mod:`analyzer.core.exploit`): the
    levels margin of the seat's team per hand."""
    names = [player.strip().lower(), responder.strip().lower()]
    if names[0] == names[1]:
        raise ValueError("the responder must differ from the player")
    for name in names:
        if name not in POLICIES:
            raise ValueError(f"unknown policy {name!r} (choose from {', '.join(POLICIES)})")
    n = check_sizes("a best response", n_deals, pimc_samples)
    r = get_rules(rules)
    rows = play_duplicate(names, n, r, seed, levels, banker, pimc_samples, progress,
                          seatings=responder_seatings(4))
    meta: dict[str, Any] = {"game": "shengji", "seatings": 5, "levels": list(levels),
                            "banker": banker}
    if names[1] in SLOW_POLICIES:
        meta["pimc_samples"] = int(pimc_samples or policy_row(names[1], r)[P_PIMC_SAMPLES])
    return BestResponse(names[0], names[1], r.label, seed, "levels",
                        seat_gains(seat_margins(rows)), meta)
