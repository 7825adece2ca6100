"""Throughput of the 双升 kernels: deals/s of ``deal.deal_chunks``, play-only hands/s of
``batch.play_chunks`` and whole hands/s (bidding included) of the play driver
(``kernels.drivers.play``).

    python -m kernels.shengji.bench [--deals N] [--hands N] [--threads T] [--repeat R]

Each kernel is compiled (or loaded from the cache) and warmed first; the best of R timed
runs is printed as wall-clock rate and as rate per CPU-second of the process.
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from ..drivers import play
from ..rng import states_from_seed
from .batch import play_chunks
from .deal import DEAL_AGG_SIZE, deal_chunks
from .game import N_WHOLE
from .hand import N_RESULT
from .params import param_vector
from .policies import default_params
from .verbs import Rules


def _best(run, repeat):
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        best = min(best, (time.perf_counter() - wall, time.process_time() - cpu))
    return best


def measure(n_deals: int, n_hands: int, repeat: int = 3, seed: int = 1) -> dict[str, float]:
    """Rates of the drivers at L = 2, T = ♠, banker seat 0 (whole hands: team levels 2
    and 2, seat 0 banker going in), zhengzhou rules."""
    params = param_vector({})
    chunks = 64
    states = states_from_seed(seed, chunks)
    agg = np.zeros((chunks, DEAL_AGG_SIZE), dtype=np.int64)
    rows = np.zeros((n_hands, N_RESULT), dtype=np.int64)
    whole_rows = np.zeros((n_hands, 1, N_WHOLE), dtype=np.int64)
    rules = Rules(params, np.array([2, 2], dtype=np.int64), 0)
    every_seat_random = (np.zeros((1, 4), dtype=np.int64), default_params()[None], None)

    def deals(n):
        deal_chunks(states, -(-n // chunks), n, 2, 0, 0, params, agg)

    def hands(n):
        play_chunks(states, -(-n // chunks), n, (2, 0, 0), params, rows)

    def whole(n):
        play(rules, every_seat_random, whole_rows, streams=states, chunk_size=-(-n // chunks),
             n_hands=n)

    deals(chunks)  # compile or load, then warm
    hands(chunks)
    whole(chunks)
    d_wall, d_cpu = _best(lambda: deals(n_deals), repeat)
    h_wall, h_cpu = _best(lambda: hands(n_hands), repeat)
    w_wall, w_cpu = _best(lambda: whole(n_hands), repeat)
    return {"deals_per_s": n_deals / d_wall, "deals_per_cpu_s": n_deals / d_cpu,
            "hands_per_s": n_hands / h_wall, "hands_per_cpu_s": n_hands / h_cpu,
            "whole_per_s": n_hands / w_wall, "whole_per_cpu_s": n_hands / w_cpu}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000_000)
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if args.threads:
        numba.set_num_threads(args.threads)
    r = measure(args.deals, args.hands, args.repeat)
    t = numba.get_num_threads()
    print(f"threads {t}")
    print(f"deal_chunks  {r['deals_per_s'] / 1e6:7.2f} M deals/s  "
          f"({r['deals_per_cpu_s'] / 1e6:.2f} M per CPU-second)")
    print(f"play_chunks  {r['hands_per_s']:9.0f} hands/s  "
          f"({r['hands_per_cpu_s']:.0f} per CPU-second)")
    print(f"whole hands  {r['whole_per_s']:9.0f} hands/s  "
          f"({r['whole_per_cpu_s']:.0f} per CPU-second)")


if __name__ == "__main__":
    main()
