"""郑州双升 rules as data: one frozen preset per reading (docs/rules/shengji.md §7–8).

Every field is one rule parameter of the doc: a reading of §7 (R1–R25), or
``nt_level_joker_tractor`` (§2) or ``level_cards_need_joker`` (§4.1); §8 gives the presets.
Code branches on fields, never on a preset's name.

>>> get_rules("classic").kitty_multiplier
'pow_size'
>>> get_rules(None).name
'zhengzhou'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

# Allowed values of the enum-like fields; the first one is the zhengzhou default.
CHOICES: dict[str, tuple[str, ...]] = {
    "joker_colour": ("standard", "swapped"),  # 大王↔♥♦ 小王↔♠♣, or the reverse (§4.1 R2)
    "suit_rank": ("SHCD", "DCHS"),  # pair-vs-pair order, highest first (§4.2 R4)
    "declare_start": ("banker", "banker_next", "random"),  # §4.3 R6
    "stepdown_banker": ("next_seat",),  # §4.4 R8
    "rebel_scope": ("player", "side"),  # §4.5 R10
    "throw_check_players": ("all_others", "opponents"),  # §5.2 R17
    "throw_fail_play": ("largest_failed_shape", "smallest_card", "first_failed_unit"),  # R18
    "follow_rule": ("maximal",),  # §5.3 R19
    "ruff_rule": ("match", "count"),  # §5.4 R20
    "trick_compare": ("largest_unit", "all_units", "highest_card"),  # §5.5 R21
    "kitty_basis": ("winning_play", "lead_shape"),  # §6.1 R22
    "kitty_multiplier": ("pow2_pairs", "times_size", "pow_size"),  # §6.1
}


@dataclass(frozen=True)
class ShengjiRules:
    """One 双升 preset (docs/rules/shengji.md §8); each field is a rule parameter of the doc."""

    name: str = "zhengzhou"
    title: str = "郑州双升"
    # §4.1 declaring (亮主)
    joker_colour: str = "standard"
    joker_pair_may_open: bool = True  # 对王 may be the first declaration (R3)
    level_cards_need_joker: bool = True  # a level card declares only beside its joker (§4.1)
    # §4.2 overcalling (反主)
    pair_overcall_by_suit: bool = True  # class 2 displaces class 2 of a lower suit (R4)
    suit_rank: str = "SHCD"
    partner_may_overcall: bool = True  # R5
    # §4.3–4.4 turn model, 下台
    declare_start: str = "banker"
    partner_declarer_becomes_banker: bool = True  # R7
    stepdown_banker: str = "next_seat"
    # §4.5 造反
    rebel_enabled: bool = True
    rebel_scope: str = "player"
    rebel_threshold: int = 15  # strictly fewer points than this qualifies
    # §4.7 扒鸡窝
    bajiwo_enabled: bool = True
    bajiwo_reinforce: bool = False  # R14
    # §2–3 ladder
    nt_level_joker_tractor: bool = False  # NT level cards on rung 13, next to 小王
    # §5.2 throws (甩牌)
    throw_whole_suit_only: bool = False  # R16
    throw_check_players: str = "all_others"
    throw_fail_play: str = "largest_failed_shape"
    throw_fail_penalty_per_card: int = 0
    # §5.3–5.5 following, ruffing (毙), trick winner
    follow_rule: str = "maximal"
    ruff_rule: str = "match"
    trick_compare: str = "largest_unit"
    # §6.1 抠底
    kitty_basis: str = "winning_play"
    kitty_multiplier: str = "pow2_pairs"
    # §6.2–6.4 levels
    level_step: int = 40
    turnover_at: int = 80
    attacker_gain_cap: int | None = None
    must_defend_A: bool = True

    def __post_init__(self) -> None:
        for key, allowed in CHOICES.items():
            value = getattr(self, key)
            if value not in allowed:
                raise ValueError(f"{key}={value!r} is not one of {', '.join(allowed)}")
        for f in fields(self):
            if f.type == "bool" and not isinstance(getattr(self, f.name), bool):
                raise ValueError(f"{f.name} must be True or False")
        if self.level_step <= 0 or self.turnover_at <= 0:
            raise ValueError("level_step and turnover_at must be positive")
        if self.rebel_threshold < 0 or self.throw_fail_penalty_per_card < 0:
            raise ValueError("rebel_threshold and throw_fail_penalty_per_card must be ≥ 0")
        if self.attacker_gain_cap is not None and self.attacker_gain_cap < 0:
            raise ValueError("attacker_gain_cap must be None or ≥ 0")

    def with_(self, **changes) -> ShengjiRules:
        """A copy with some parameters changed (validated again)."""
        return replace(self, **changes)

    def changes(self) -> dict[str, object]:
        """The parameters that differ from the preset this one is named after."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("name", "title")
                and getattr(self, f.name) != getattr(base, f.name)}

    @property
    def label(self) -> str:
        """The preset's name, with any changed parameters: ``classic (trick_compare=all_units)``."""
        changed = self.changes()
        if not changed:
            return self.name
        return f"{self.name} ({', '.join(f'{k}={v}' for k, v in changed.items())})"


ZHENGZHOU = ShengjiRules()

# §8: the common 拖拉机 reading most online implementations play.
CLASSIC = ShengjiRules(
    name="classic",
    title="拖拉机 (classic)",
    level_cards_need_joker=False,
    bajiwo_enabled=False,
    rebel_enabled=False,
    nt_level_joker_tractor=True,
    throw_fail_play="first_failed_unit",
    kitty_multiplier="pow_size",
    attacker_gain_cap=3,
)

PRESETS: dict[str, ShengjiRules] = {r.name: r for r in (ZHENGZHOU, CLASSIC)}
DEFAULT_RULES = "zhengzhou"
# The presets by their Chinese names, simplified or traditional, as input.
_ALIASES = {"郑州双升": "zhengzhou", "鄭州雙升": "zhengzhou",
            "拖拉机": "classic", "拖拉機": "classic"}


def parse_changes(items) -> dict[str, object]:
    """``PARAM=VALUE`` strings as rule changes, each value read by its field's type (bools
    as true/false, ``attacker_gain_cap=none``); ValueError names the first bad one.

    >>> parse_changes(["kitty_multiplier=times_size", "rebel_enabled=false"])
    {'kitty_multiplier': 'times_size', 'rebel_enabled': False}
    """
    types = {f.name: f.type for f in fields(ShengjiRules) if f.name not in ("name", "title")}
    out: dict[str, object] = {}
    for item in items:
        key, sep, text = str(item).partition("=")
        key, text = key.strip(), text.strip()
        if not sep or key not in types:
            raise ValueError(f"--rule {item!r}: expected PARAM=VALUE with PARAM one of "
                             f"{', '.join(types)}")
        kind, low = types[key], text.lower()
        if kind == "bool":
            if low not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"--rule {key}: expected true or false, got {text!r}")
            out[key] = low in ("true", "1", "yes")
        elif kind.startswith("int"):
            if kind == "int | None" and low == "none":
                out[key] = None
                continue
            try:
                out[key] = int(text)
            except ValueError:
                raise ValueError(f"--rule {key}: expected an integer, got {text!r}") from None
        else:
            out[key] = text
    return out


def with_changes(rules: str | ShengjiRules | None, items) -> ShengjiRules:
    """The preset ``rules`` with the ``PARAM=VALUE`` changes ``items`` (:func:`parse_changes`)."""
    base = get_rules(rules)
    changes = parse_changes(items)
    try:
        return base.with_(**changes) if changes else base
    except ValueError as e:
        raise ValueError(f"--rule: {e}") from None


def get_rules(rules: str | ShengjiRules | None = None) -> ShengjiRules:
    """The preset named ``rules`` (default zhengzhou); a rules value passes through."""
    if rules is None:
        return PRESETS[DEFAULT_RULES]
    if isinstance(rules, ShengjiRules):
        return rules
    key = str(rules).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in PRESETS:
        raise ValueError(f"unknown 双升 rules {rules!r} (choose from {', '.join(PRESETS)})")
    return PRESETS[key]
