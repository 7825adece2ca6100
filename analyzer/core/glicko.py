"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2012): a rating, its
deviation (RD: how unsure it is) and its volatility, updated after each rating period.

A puzzle attempt is one game between the player and the puzzle: the player scores 1 when
it solves the puzzle, 0 when it does not, and the puzzle the other way round; each is
updated as a period of that one game (as the puzzle sites rate theirs).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale against the Glicko one
TAU = 0.5  # how far the volatility may move in a period
EPSILON = 1e-6  # the volatility iteration's tolerance


@dataclass(frozen=True)
class Rating:
    """A Glicko rating: ``rating`` (1500 new), ``rd`` (350 new), ``vol`` (0.06 new)."""

    rating: float = 1500.0
    rd: float = 350.0
    vol: float = 0.06


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """The new volatility (step 5: the Illinois algorithm)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (TAU * TAU))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Rating, games: Iterable[tuple[Rating, float]]) -> Rating:
    """``player`` after a rating period of ``games``: (opponent, score 1 / 0.5 / 0). A
    period with no game only widens the deviation."""
    games = list(games)
    mu, phi = (player.rating - 1500.0) / SCALE, player.rd / SCALE
    if not games:
        return Rating(player.rating, min(350.0, math.sqrt(phi * phi + player.vol ** 2) * SCALE),
                      player.vol)
    inv_v = 0.0
    total = 0.0
    for opp, score in games:
        mu_j, phi_j = (opp.rating - 1500.0) / SCALE, opp.rd / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    sigma = _volatility(phi, player.vol, v * total, v)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(1500.0 + SCALE * mu_new, SCALE * phi_new, sigma)


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player and the puzzle after one attempt."""
    won = 1.0 if solved else 0.0
    return update(player, [(puzzle, won)]), update(puzzle, [(player, 1.0 - won)])
