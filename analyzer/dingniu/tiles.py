"""Tile notation and action numbers for 顶牛.

A tile is written by name (大天, or an alias such as 天牌) or by its ends (``6-6``, ``5:6``,
``56``, in either order). A hand is a count per kind (``int`` list of length 13).

An action is one integer ``kind * 8 + slot``: slot 0 lays the first tile (lead), slot
``v`` (1–6) lays the tile on an open end showing ``v``, slot 7 扣s the tile.

>>> parse_tile("5:6"), parse_tile("虎头"), parse_tile("斧头")
(1, 1, 1)
>>> format_action(action(1, 5))
'虎头 on 5'
"""

from __future__ import annotations

import re

from .rules import N_KINDS, TILES

LEAD, KOU = 0, 7
N_ACTIONS = N_KINDS * 8

_BY_NAME: dict[str, int] = {}
for _k, _t in enumerate(TILES):
    for _n in (_t.name, *_t.aliases):
        _BY_NAME[_n] = _k
    _BY_NAME[f"{_t.ends[0]}-{_t.ends[1]}"] = _k
_SPLIT = re.compile(r"[\s,，、;；]+")
_ENDS = re.compile(r"^([1-6])\s*[-:/]?\s*([1-6])$")


def parse_tile(text: str) -> int:
    """The kind of the tile written ``text``; ValueError for an unknown tile."""
    t = text.strip()
    if t in _BY_NAME:
        return _BY_NAME[t]
    m = _ENDS.match(t)
    if m:
        a, b = sorted((int(m.group(1)), int(m.group(2))))
        key = f"{a}-{b}"
        if key in _BY_NAME:
            return _BY_NAME[key]
        raise ValueError(f"no tile {text!r} in a 顶牛 set (its 24 tiles have no {a}-{b})")
    raise ValueError(f"unknown tile {text!r} (write a name such as 大天 or ends such as 6-6)")


def _tokens(text: str) -> list[str]:
    """Split a hand: separators, or names written together (大天虎头)."""
    out: list[str] = []
    for part in _SPLIT.split(text.strip()):
        while part:
            if _ENDS.match(part) or part in _BY_NAME:
                out.append(part)
                break
            m = re.match(r"^[1-6][-:/]?[1-6]", part)
            name = next((n for n in sorted(_BY_NAME, key=len, reverse=True)
                         if not n[0].isdigit() and part.startswith(n)), None)
            if name is not None:
                out.append(name)
                part = part[len(name):]
            elif m:
                out.append(m.group(0))
                part = part[m.end():]
            else:
                out.append(part)  # parse_tile names it as unknown
                break
    return out


def parse_tiles(text: str | list[str]) -> list[int]:
    """Counts per kind of the tiles written ``text``; ValueError beyond a kind's count."""
    words = _tokens(text) if isinstance(text, str) else [w for s in text for w in _tokens(s)]
    counts = [0] * N_KINDS
    for w in words:
        k = parse_tile(w)
        counts[k] += 1
        if counts[k] > TILES[k].count:
            raise ValueError(f"too many {TILES[k].name}: the set has {TILES[k].count}")
    return counts


def parse_hand(text: str | list[str], size: int = 6) -> list[int]:
    """A hand of exactly ``size`` tiles; ValueError on a wrong count."""
    counts = parse_tiles(text)
    if sum(counts) != size:
        raise ValueError(f"a hand holds {size} tiles, got {sum(counts)}")
    return counts


def format_tiles(counts: list[int] | tuple[int, ...]) -> str:
    """Tiles by name in table order, e.g. ``大天 大天 虎头``."""
    return " ".join(TILES[k].name for k in range(N_KINDS) for _ in range(int(counts[k])))


def action(kind: int, slot: int) -> int:
    """The action number laying (or 扣ing) ``kind`` in ``slot``."""
    return kind * 8 + slot


def split_action(a: int) -> tuple[int, int]:
    """(kind, slot) of action ``a``."""
    return a // 8, a % 8


def format_action(a: int) -> str:
    """``lead 大五``, ``虎头 on 5`` or ``扣 地幺``."""
    k, s = split_action(a)
    name = TILES[k].name
    return f"lead {name}" if s == LEAD else f"扣 {name}" if s == KOU else f"{name} on {s}"
