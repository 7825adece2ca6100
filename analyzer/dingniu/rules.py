"""顶牛 rules as data: the tile table, the deal and the scoring parameters (docs/rules/dingniu.md).

Tiles are identified by kind (0–12, rows of the table); a hand is a count per kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

N_SEATS = 4
HAND_SIZE = 6
SEAT_NAMES = ("头牌", "二牌", "三牌", "末牌")  # the seats in play order; 头牌 leads
# The same seats in English: the page, the report and the docs name them so.
SEAT_NAMES_EN = ("1st (tou pai)", "2nd", "3rd", "4th")


@dataclass(frozen=True)
class Tile:
    """One kind of tile: its name, aliases, the two ends and how many the set holds."""

    name: str
    aliases: tuple[str, ...]
    ends: tuple[int, int]
    count: int

    @property
    def pips(self) -> int:
        return self.ends[0] + self.ends[1]

    @property
    def double(self) -> bool:
        """横牌: both ends equal."""
        return self.ends[0] == self.ends[1]


TILES: tuple[Tile, ...] = (
    Tile("大天", ("天牌",), (6, 6), 2),
    Tile("虎头", ("斧头",), (5, 6), 2),
    Tile("大五", ("梅花", "梅牌"), (5, 5), 2),
    Tile("红十", ("金屏", "红头", "四六"), (4, 6), 2),
    Tile("红八", ("大红", "人牌"), (4, 4), 2),
    Tile("长三", ("大三", "长衫", "长牌"), (3, 3), 2),
    Tile("一六", ("么六", "幺六", "高脚七"), (1, 6), 2),
    Tile("一五", ("么五", "幺五", "零霖六"), (1, 5), 2),
    Tile("一三", ("幺三", "么三", "和牌", "幺鹅", "鹅牌"), (1, 3), 2),
    Tile("二板", ("板凳", "驴腿"), (2, 2), 2),
    Tile("地幺", ("小地", "小幺", "地牌"), (1, 1), 2),
    Tile("三六", ("杂九", "歪脖九"), (3, 6), 1),
    Tile("二六", ("杂八", "驴"), (2, 6), 1),
)
N_KINDS = len(TILES)
LOCK_SCOPES = ("all", "value")  # R6
TOU_EXEMPT = ("last_tile", "playable_hand")  # R11


@dataclass(frozen=True)
class DingniuRules:
    """One 顶牛 preset; every field is a rule of docs/rules/dingniu.md."""

    name: str
    title: str
    tiles: tuple[Tile, ...]
    hand_size: int  # tiles dealt to each of the four seats
    win_points: int  # the winner's gain (+6)
    loss_points: tuple[int, int, int]  # 大庄, 二庄, 小庄 (3, 2, 1), paid to the winner
    suan_factor: int  # 算帐 doubles every payment (R9, R10)
    lead_pair_kinds: tuple[int, ...]  # kinds led as a pair when the 头牌 holds both (R4)
    lead_no_drag: bool  # 不能拉三家 (R3)
    suan_zhang: bool  # locks count as 算帐 (R6–R10)
    lock_scope: str = "all"  # R6: "all" 竖牌 of the others shut out, or any one "value"
    dead_smash_values: tuple[int, ...] = (1, 2, 3, 4, 5, 6)  # R7: a forced lock of these is 死砸
    closing_doubles: bool = False  # R8: after a 算帐 the others lay their doubles first
    count_others_hand: bool = True  # R8/R9: the others' hand tiles count in the comparison
    tou_exempt: str = "last_tile"  # R11: no 算帐 for 头牌 with his "last_tile" | "playable_hand"
    _arrays: dict = field(default_factory=dict, init=False, repr=False, compare=False,
                          hash=False)

    def __post_init__(self) -> None:
        ends = np.array([t.ends for t in self.tiles], dtype=np.int64)
        counts = np.array([t.count for t in self.tiles], dtype=np.int64)
        if int(counts.sum()) != N_SEATS * self.hand_size:
            raise ValueError("the tile counts must fill four hands")
        if self.lock_scope not in LOCK_SCOPES:
            raise ValueError(f"lock_scope is one of {', '.join(LOCK_SCOPES)}")
        if self.tou_exempt not in TOU_EXEMPT:
            raise ValueError(f"tou_exempt is one of {', '.join(TOU_EXEMPT)}")
        if not set(self.dead_smash_values) <= set(range(1, 7)):
            raise ValueError("dead_smash_values are end values 1–6")
        # match[k, v]: tile k has an end v (v = 0 is "no end", never matched)
        match = np.zeros((len(self.tiles), 7), dtype=np.bool_)
        for k, (a, b) in enumerate(ends):
            match[k, a] = match[k, b] = True
        arrays = {"ends": ends, "counts": counts, "pips": ends.sum(axis=1), "match": match,
                  "double": ends[:, 0] == ends[:, 1]}
        for a in arrays.values():
            a.setflags(write=False)
        object.__setattr__(self, "_arrays", arrays)

    @property
    def ends(self) -> np.ndarray:
        """``ends[k]``: the two end values of kind k."""
        return self._arrays["ends"]

    @property
    def counts(self) -> np.ndarray:
        """``counts[k]``: tiles of kind k in the set."""
        return self._arrays["counts"]

    @property
    def pips(self) -> np.ndarray:
        """``pips[k]``: points of one tile of kind k."""
        return self._arrays["pips"]

    @property
    def match(self) -> np.ndarray:
        """``match[k, v]``: kind k has an end showing v (1–6)."""
        return self._arrays["match"]

    @property
    def double(self) -> np.ndarray:
        """``double[k]``: kind k is a 横牌."""
        return self._arrays["double"]

    @property
    def dead_smash_mask(self) -> int:
        """Bit v set when a forced lock of value v is 死砸 (R7)."""
        return sum(1 << v for v in set(self.dead_smash_values))

    @property
    def total_pips(self) -> int:
        return int((self.pips * self.counts).sum())


SEED = DingniuRules(
    name="seed",
    title="顶牛 (the seed text's readings)",
    tiles=TILES,
    hand_size=HAND_SIZE,
    win_points=6,
    loss_points=(3, 2, 1),
    suan_factor=2,
    lead_pair_kinds=(4,),  # 红八
    lead_no_drag=True,
    suan_zhang=True,
    lock_scope="all",  # R6: "别人手上的竖牌就都上不去了"
    dead_smash_values=(1, 2, 3, 4, 5, 6),  # R7: every forced lock is 死砸
    closing_doubles=False,  # R8: the hand ends at once
    count_others_hand=True,  # R8/R9: everyone's hand tiles count
    tou_exempt="last_tile",  # R11: 头牌净手 = a lock with his last tile
)
STANDARD = SEED  # the preset's former name

NAVPIL = replace(
    SEED,
    name="navpil",
    title="顶牛 (the navpil \"Ding Niu\" write-up's readings)",
    lock_scope="value",  # R6: "Smothered Fives … in Ding Niu that's a block"
    closing_doubles=True,  # R8: "players can add their doubles"
)

PRESETS: dict[str, DingniuRules] = {SEED.name: SEED, NAVPIL.name: NAVPIL}
ALIASES: dict[str, str] = {"standard": "seed"}  # names a preset had before


def get_rules(rules: str | DingniuRules | None = None) -> DingniuRules:
    """The preset named ``rules`` (default seed; ``standard`` is its former name); a rules
    value passes through."""
    if rules is None:
        return SEED
    if isinstance(rules, DingniuRules):
        return rules
    key = str(rules).strip().lower()
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        raise ValueError(f"unknown 顶牛 rules {rules!r} (choose from {', '.join(PRESETS)})")
    return PRESETS[key]
