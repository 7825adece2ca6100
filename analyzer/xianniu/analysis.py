"""What holding a pattern is worth, and the expected value of 掀, on paired deals.

``pattern_values`` compares, for 牛, 喜, at least one K and each 亮子, the mean points of seat-
hands dealt the pattern with those dealt without it (observational), and the counterfactual on
the same deals: one swap with another seat makes or breaks the pattern and everything else
stays as dealt, both versions played from one random stream. ``xian_ev`` plays, after the
banker's opening 扣, seat 1's 掀 and 扣 from one stream and bins the difference by seat 1's
hand: its sure cards and its number of K (:func:`kernels.xianniu.experiments.xian_ev_cells`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import pandas as pd

from kernels import drivers
from kernels.rng import states_from_seed
from kernels.xianniu import experiments as kx
from kernels.xianniu import views
from kernels.xianniu.bits import KING, POP4
from kernels.xianniu.game import R_PTS0

from ..core.batches import chunk_batches
from ..core.drive import seatings_of
from ..core.stats import Z95, mean_ci_from_sums, proportion_ci
from .cards import RANKS
from .rules import Rules, get_rules
from .sim import SEARCH, driver_policies, paired_playouts, policy_arrays, policy_names, rule_arrays

PATTERN_NAMES = ["niu 牛", "xi 喜", "K 天"] + [f"liang {r} 亮子" for r in RANKS]


# a search player replays every deal once per pattern at ~20 ms a decision: its runs are
# capped, and cut into small chunks so that both cores share even a short run
MAX_SEARCH_DEALS = 10_000
SEARCH_CHUNK = 8
PLAY_CHUNK = 1024  # hands a chunk of the play driver, for the altered deals
PATTERN_ROWS = 1 << 17  # rows (deals and their alterations) made and played at a time


def _chunk_size(n_deals: int, policies: str, chunk_size: int) -> int:
    """The chunk size to play ``n_deals`` under ``policies`` with (small for a search
    player); ValueError on a bad count or a search run over :data:`MAX_SEARCH_DEALS`."""
    if not isinstance(n_deals, (int, np.integer)) or n_deals < 2:
        raise ValueError(f"the number of deals must be an integer of at least 2, got {n_deals!r}")
    search = sorted(set(policy_names(policies)) & SEARCH)
    if not search:
        return chunk_size
    if n_deals > MAX_SEARCH_DEALS:
        raise ValueError(f"with a search policy ({search[0]}) these experiments play at most "
                         f"{MAX_SEARCH_DEALS:,} deals (search is slow), got {n_deals:,}")
    return SEARCH_CHUNK


def _in_batches(chunks, n_chunks: int, chunk_size: int, n_deals: int,
                progress: Callable[[int], None] | None, outs: tuple[np.ndarray, ...]) -> None:
    """Call ``chunks(states, deals, outs)`` over batches of chunks (each batch's slice of
    ``outs``), reporting the deals finished after each batch; the same numbers as one call."""
    batch = n_chunks if progress is None else max(1, 4 * numba.get_num_threads())
    for a, b, lo, hi in chunk_batches(n_deals, chunk_size, batch):
        chunks(a, b, hi - lo, tuple(o[a:b] for o in outs))
        if progress is not None:
            progress(hi - lo)


def pattern_values(n_deals: int, rules: str | Rules | None = None,
                   policies: str = "heuristic", seed: int = 0,
                   chunk_size: int = 1024,
                   progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per pattern: observational and counterfactual value in points per hand
    (``progress`` is called with the deals finished as the run goes)."""
    chunk_size = _chunk_size(n_deals, policies, chunk_size)
    r = get_rules(rules)
    n_chunks = -(-int(n_deals) // chunk_size)
    cf = np.zeros((n_chunks, kx.N_PATTERNS, 4), dtype=np.int64)
    obs = np.zeros((n_chunks, kx.N_PATTERNS, 2, 3), dtype=np.int64)
    kobs = np.zeros((n_chunks, 5, 3), dtype=np.int64)
    states, rk = states_from_seed(seed, n_chunks), rule_arrays(r)
    seatings = seatings_of(driver_policies(policy_arrays(policies, rules=r)))
    _in_batches(lambda a, b, n, o: _pattern_batch(states[a:b], chunk_size, n, rk, seatings,
                                                  o),
                n_chunks, chunk_size, int(n_deals), progress, (cf, obs, kobs))
    cf, obs, kobs = cf.sum(axis=0), obs.sum(axis=0), kobs.sum(axis=0)
    rows = []
    for p, name in enumerate(PATTERN_NAMES):
        with_ = mean_ci_from_sums(float(obs[p, 1, 1]), float(obs[p, 1, 2]), int(obs[p, 1, 0]))
        without = mean_ci_from_sums(float(obs[p, 0, 1]), float(obs[p, 0, 2]), int(obs[p, 0, 0]))
        diff = mean_ci_from_sums(float(cf[p, kx.CF_SUM]), float(cf[p, kx.CF_SUMSQ]),
                                 int(cf[p, kx.CF_N]))
        # the two groups' standard errors combined (seat-hands of one deal are treated as
        # independent here; the counterfactual columns carry the paired estimate)
        se = np.hypot((with_.high - with_.low) / (2 * Z95),
                      (without.high - without.low) / (2 * Z95))
        observed = with_.value - without.value
        rows.append({
            "pattern": name, "mean_with": with_.value, "with_ci_low": with_.low,
            "with_ci_high": with_.high, "n_with": with_.n,
            "mean_without": without.value, "without_ci_low": without.low,
            "without_ci_high": without.high, "n_without": without.n,
            "observed_diff": observed, "obs_ci_low": observed - Z95 * se,
            "obs_ci_high": observed + Z95 * se,
            "counterfactual_diff": diff.value, "cf_ci_low": diff.low, "cf_ci_high": diff.high,
            "cf_pairs": diff.n, "cf_share_made": (cf[p, kx.CF_MADE] / cf[p, kx.CF_N]
                                                   if cf[p, kx.CF_N] else np.nan)})
    df = pd.DataFrame(rows)
    df.attrs.update(rules=r.name, policy=policies, seed=seed, deals=int(n_deals),
                    unit="points per hand", k_count=[
                        mean_ci_from_sums(float(kobs[k, 1]), float(kobs[k, 2]),
                                          int(kobs[k, 0])).as_dict() for k in range(5)])
    return df


def xian_ev(n_deals: int, rules: str | Rules | None = None, policies: str = "heuristic",
            seed: int = 0, chunk_size: int = 1024,
            progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """After the banker's opening 扣: seat 1's mean points after 掀 and after 扣, and the
    difference with a 95% CI, by sure cards (0-8+) and number of K (``progress`` as in
    :func:`pattern_values`)."""
    chunk_size = _chunk_size(n_deals, policies, chunk_size)
    r = get_rules(rules)
    n_chunks = -(-int(n_deals) // chunk_size)
    out = np.zeros((n_chunks, kx.SURE_BINS, 5, kx.XE_COLS), dtype=np.int64)
    states, rk = states_from_seed(seed, n_chunks), rule_arrays(r)
    pol = policy_arrays(policies, rules=r)
    _in_batches(lambda a, b, n, o: _xian_ev_batch(states[a:b], chunk_size, n, rk, pol, o[0]),
                n_chunks, chunk_size, int(n_deals), progress, (out,))
    out = out.sum(axis=0)
    rows = []
    for sb in range(kx.SURE_BINS):
        for k in range(5):
            n = int(out[sb, k, kx.XE_N])
            if n == 0:
                continue
            d = mean_ci_from_sums(float(out[sb, k, kx.XE_SUM]), float(out[sb, k, kx.XE_SUMSQ]),
                                  n)
            ex = mean_ci_from_sums(float(out[sb, k, kx.XE_XIAN]),
                                   float(out[sb, k, kx.XE_XIAN_SQ]), n)
            ek = mean_ci_from_sums(float(out[sb, k, kx.XE_KOU]),
                                   float(out[sb, k, kx.XE_KOU_SQ]), n)
            rows.append({"sure_cards": f"{sb}+" if sb == kx.SURE_BINS - 1 else str(sb),
                         "k_count": k, "n": n, "ev_xian": ex.value, "xian_ci_low": ex.low,
                         "xian_ci_high": ex.high, "ev_kou": ek.value, "kou_ci_low": ek.low,
                         "kou_ci_high": ek.high, "diff": d.value, "ci_low": d.low,
                         "ci_high": d.high})
    df = pd.DataFrame(rows)
    total = int(out[..., kx.XE_N].sum())
    df.attrs.update(rules=r.name, policy=policies, seed=seed, deals=int(n_deals),
                    positions=total, overall=mean_ci_from_sums(
                        float(out[..., kx.XE_SUM].sum()), float(out[..., kx.XE_SUMSQ].sum()),
                        total).as_dict(),
                    share_of_deals=proportion_ci(total, int(n_deals)).as_dict())
    return df


def _sums(groups: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group: (count, Σ value, Σ value²), exact int64 (the sums stay far below 2⁵³)."""
    v = values.astype(np.float64)
    return np.stack([np.bincount(groups, minlength=n_groups),
                     np.bincount(groups, weights=v, minlength=n_groups),
                     np.bincount(groups, weights=v * v, minlength=n_groups)],
                    axis=-1).astype(np.int64)


def _groups(n_chunks: int, chunk_size: int, n: int, rows_per_deal: int):
    """The experiments' chunks in groups of at most ``PATTERN_ROWS`` rows: ``(first chunk,
    last + 1, deals)`` each, and the most deals of a group (for work arrays made once)."""
    group = max(1, PATTERN_ROWS // (chunk_size * rows_per_deal))
    spans = [(g, g + group, min(n - g * chunk_size, group * chunk_size))
             for g in range(0, n_chunks, group)]
    return spans, min(n, group * chunk_size)


def _pattern_batch(states: np.ndarray, chunk_size: int, n: int, rk, seatings: tuple,
                   outs: tuple[np.ndarray, ...]) -> None:
    """``n`` deals of the pattern experiment summed into ``outs[k][0]`` (``cf``, ``obs``,
    ``kobs``), a group of chunks at a time (each deal makes up to ``CF_ROWS`` rows)."""
    spans, most = _groups(len(states), chunk_size, n, kx.CF_ROWS)
    size = most * kx.CF_ROWS
    work = (rk.deal_rows(size), np.zeros((size, 4), dtype=np.uint64),
            np.zeros((size, 4), dtype=np.int64), rk.result_rows(size))
    for a, b, part in spans:
        _pattern_part(states[a:b], chunk_size, part, rk, seatings, outs, work)


def _pattern_part(states: np.ndarray, chunk_size: int, n: int, rk, seatings: tuple,
                  outs: tuple[np.ndarray, ...], work: tuple[np.ndarray, ...]) -> None:
    """:func:`_pattern_batch` for one group of chunks: the deals altered in the kernels,
    then every row played by the play driver from its deal's stream."""
    cf, obs, kobs = (o[0] for o in outs)
    deals, streams, meta, out = (w[:n * kx.CF_ROWS] for w in work)
    kx.counterfactual_deals(states, chunk_size, n, deals, streams, meta)
    rows = np.flatnonzero(meta[:, kx.M_SIGN] != 0)
    played = out[:len(rows)]
    drivers.play(rk, seatings, played, streams=streams[rows], chunk_size=PLAY_CHUNK,
                 deals=deals[rows], source="given", paired="own")
    res = played[:, 0, R_PTS0:R_PTS0 + 3]
    m = meta[rows]
    base = m[:, kx.M_PATTERN] < 0
    pts = res[base]  # the deals as dealt, in deal order
    hands = deals[rows[base], :3]
    held = np.empty((len(hands) * 3, kx.N_PATTERNS), dtype=np.int64)
    kx.holds_table(np.ascontiguousarray(hands.reshape(-1)), held)
    p = pts.reshape(-1)
    for pattern in range(kx.N_PATTERNS):
        obs[pattern] += _sums(held[:, pattern], p, 2)
    kobs += _sums(POP4[hands.reshape(-1) >> 4 * KING & 15], p, 5)
    alt = ~base
    first = np.searchsorted(m[base, kx.M_DEAL], m[alt, kx.M_DEAL])  # each one's dealt row
    seat = m[alt, kx.M_SEAT]
    sign = m[alt, kx.M_SIGN]
    diff = (res[alt][np.arange(len(seat)), seat] - pts[first, seat]) * sign  # with − without
    pattern = m[alt, kx.M_PATTERN]
    sums = _sums(pattern, diff, kx.N_PATTERNS)
    cf[:, kx.CF_N] += sums[:, 0]
    cf[:, kx.CF_SUM] += sums[:, 1]
    cf[:, kx.CF_SUMSQ] += sums[:, 2]
    cf[:, kx.CF_MADE] += np.bincount(pattern[sign > 0], minlength=kx.N_PATTERNS)


def _xian_ev_batch(states: np.ndarray, chunk_size: int, n: int, rk, pol: tuple,
                   out: np.ndarray) -> None:
    """``n`` deals of the 掀 experiment (paired play-outs, one draw a deal) summed into the
    cells of ``out[0]``, a few chunks at a time into one work array."""
    spans, most = _groups(len(states), chunk_size, n, 1)
    res = rk.result_rows(most, 2)
    for a, b, part in spans:
        _xian_ev_part(states[a:b], chunk_size, part, rk, pol, out, res[:part])


def _xian_ev_part(states: np.ndarray, chunk_size: int, n: int, rk, pol: tuple,
                  out: np.ndarray, res: np.ndarray) -> None:
    """:func:`_xian_ev_batch` for one group of chunks."""
    view = views.view_rows(views.FIRST_KOU)
    dealt, kept, _ = paired_playouts(rk, pol, view, 1, views.XIAN_KOU, res, states, chunk_size,
                                     n_samples=n, max_tries=1)
    got = np.flatnonzero(kept)
    p_xian, p_kou = res[got, 0, R_PTS0 + 1], res[got, 1, R_PTS0 + 1]
    cells = np.empty((len(got), 2), dtype=np.int64)
    kx.xian_ev_cells(np.ascontiguousarray(dealt[got, 1]), rk.beaters, cells)
    cell = cells[:, 0] * 5 + cells[:, 1]
    n_cells = kx.SURE_BINS * 5
    grid = out[0].reshape(n_cells, kx.XE_COLS)
    d = _sums(cell, p_xian - p_kou, n_cells)
    xian, kou = _sums(cell, p_xian, n_cells), _sums(cell, p_kou, n_cells)
    grid[:, kx.XE_N] += d[:, 0]
    grid[:, kx.XE_SUM] += d[:, 1]
    grid[:, kx.XE_SUMSQ] += d[:, 2]
    grid[:, kx.XE_XIAN] += xian[:, 1]
    grid[:, kx.XE_XIAN_SQ] += xian[:, 2]
    grid[:, kx.XE_KOU] += kou[:, 1]
    grid[:, kx.XE_KOU_SQ] += kou[:, 2]


def banker_advantage(agg_summary: dict[str, Any]) -> dict[str, Any]:
    """The banker's (seat 0) mean points per hand, with its CI, from a run's summary."""
    return {"rules": agg_summary["rules"], "policy": agg_summary["policy"],
            "banker_mean_points": agg_summary["mean_points"][0]}
