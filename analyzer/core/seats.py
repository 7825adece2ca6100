"""Per-seat policy names, shared by both games' simulations."""

from __future__ import annotations

from collections.abc import Iterable


def seat_policy_names(policies: str | Iterable[str], n_seats: int,
                      known: Iterable[str]) -> list[str]:
    """``n_seats`` policy names from one name (every seat) or one per seat (``a,b,c``).

    >>> seat_policy_names("random,Heuristic,random", 3, ["random", "heuristic"])
    ['random', 'heuristic', 'random']
    """
    names = policies.split(",") if isinstance(policies, str) else list(policies)
    names = [n.strip().lower() for n in names]
    if len(names) == 1:
        names = names * n_seats
    if len(names) != n_seats:
        raise ValueError(f"give one policy or one per seat ({n_seats}), got {len(names)}")
    known = list(known)
    for n in names:
        if n not in known:
            raise ValueError(f"unknown policy {n!r} (choose from {', '.join(known)})")
    return names
