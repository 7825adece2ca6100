"""Rule presets as data.

A :class:`Rules` value fixes everything that differs between the two presets: rank
orders, which kinds exist, thresholds and the scoring parameters. Code that plays or
scores the game reads these fields; it never branches on a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from .cards import N_RANKS, SIX, THREE

# Strength of a set (单张/对子/三张/亮子) of each rank, by rank index
# A 2 3 5 6 7 8 9 10 J Q K. Equal strengths cannot beat each other (10 = J).
_USUAL = (0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10)
# 砍牛腿 multi-card sets: A < 2 < 5 < 3 = 6 < 7 ... ("66（33）、55（同色）").
_KANNIUTUI_MULTI = (0, 1, 3, 2, 3, 5, 6, 7, 8, 8, 9, 10)


@dataclass(frozen=True)
class Rules:
    """One rule preset. Field names say what the rule is; see docs/rules/xianniu.md."""

    name: str
    title: str
    # set_strength[size - 1][rank]: strength of a set of that size and rank.
    set_strength: tuple[tuple[int, ...], ...]
    # Rank pairs that cannot beat each other in any size, whatever their strength
    # (lanzhou "3和6不能互吃"); this makes the relation non-transitive.
    set_no_beat_pairs: tuple[tuple[int, int], ...]
    fish_max_k: int  # 鱼 k×(A+2+3) allowed for k = 1..fish_max_k
    bai_max_k: int  # 摆 k×(8+10+K) allowed for k = 1..bai_max_k
    k_bai: bool  # KK+10+8 and KKK+10+8 are plays (K-摆)
    xi_bao_liang: bool  # 喜 + 亮子 of another rank is a play (喜包亮)
    qiangci_mandatory: bool  # 抢刺 must be played (True) or may be declined (False)
    eight_pairs_by_colour: bool  # in 八大对 the 9s and 5s must pair black/black, red/red
    tighten_min_table: int  # 紧牌 may be called when the table holds at least this many
    tighten_lead_holder_discards: bool  # the caller of 紧牌 discards too
    ci_unit_drops_liang: bool  # a 刺 winner's unit is 刺+牛+喜 (no 亮)
    # 刺 after 掀: the last 掀er pays double (True) or covers the other loser (False)
    bao_ci_doubles: bool
    xian_needs_target_gou: bool  # 掀 points are paid only to a 够 target
    kkk_k108_liang: bool  # KKK and K+10+8 captured by one player count as a 亮
    table_cap: int = 16
    gou_min: int = 6  # 够: captured at least this many
    ci_min: int = 11  # 刺: captured at least this many
    ci_offset: int = 7  # 刺 points are n - ci_offset
    xian_points: int = 2
    liang_points: int = 2
    _beats: np.ndarray = field(init=False, repr=False, compare=False, hash=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        table = np.zeros((4, N_RANKS, N_RANKS), dtype=np.bool_)
        for size in range(4):
            strength = self.set_strength[size]
            for hi in range(N_RANKS):
                for lo in range(N_RANKS):
                    table[size, hi, lo] = strength[hi] > strength[lo]
            for a, b in self.set_no_beat_pairs:
                table[size, a, b] = table[size, b, a] = False
        table.setflags(write=False)
        object.__setattr__(self, "_beats", table)
        object.__setattr__(self, "_hash", hash(tuple(
            getattr(self, f.name) for f in fields(self) if f.compare)))

    def __hash__(self) -> int:
        # rules key every cached classification: hash them once, not per lookup
        return self._hash

    @property
    def set_beats(self) -> np.ndarray:
        """``set_beats[size - 1, challenger_rank, top_rank]``: may that set beat this one."""
        return self._beats

    def set_beats_rank(self, size: int, challenger: int, top: int) -> bool:
        """May a set of rank ``challenger`` beat one of rank ``top``, both of ``size`` cards."""
        return bool(self._beats[size - 1, challenger, top])


LANZHOU = Rules(
    name="lanzhou",
    title="兰州掀牛",
    set_strength=(_USUAL, _USUAL, _USUAL, _USUAL),
    set_no_beat_pairs=((THREE, SIX),),
    fish_max_k=4,
    bai_max_k=4,
    k_bai=True,
    xi_bao_liang=True,
    qiangci_mandatory=False,
    eight_pairs_by_colour=True,
    tighten_min_table=8,
    tighten_lead_holder_discards=False,
    ci_unit_drops_liang=True,
    bao_ci_doubles=False,
    xian_needs_target_gou=True,
    kkk_k108_liang=False,
)

KANNIUTUI = Rules(
    name="kanniutui",
    title="砍牛腿",
    set_strength=(_USUAL, _KANNIUTUI_MULTI, _KANNIUTUI_MULTI, _KANNIUTUI_MULTI),
    set_no_beat_pairs=(),
    fish_max_k=2,
    bai_max_k=2,
    k_bai=False,
    xi_bao_liang=False,
    qiangci_mandatory=True,
    eight_pairs_by_colour=False,
    tighten_min_table=9,
    tighten_lead_holder_discards=True,
    ci_unit_drops_liang=False,
    bao_ci_doubles=True,
    xian_needs_target_gou=False,
    kkk_k108_liang=True,
)

PRESETS: dict[str, Rules] = {r.name: r for r in (LANZHOU, KANNIUTUI)}
DEFAULT_RULES = "lanzhou"


def get_rules(rules: str | Rules | None = None) -> Rules:
    """The preset named ``rules`` (default lanzhou); a Rules value passes through."""
    if rules is None:
        return PRESETS[DEFAULT_RULES]
    if isinstance(rules, Rules):
        return rules
    key = str(rules).strip().lower()
    if key not in PRESETS:
        raise ValueError(f"unknown rules {rules!r} (choose from {', '.join(PRESETS)})")
    return PRESETS[key]
