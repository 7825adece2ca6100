"""The rule vector: one int64 per rule parameter (docs/rules/shengji.md §7–8), read by every
kernel.

``PARAM_NAMES[i]`` is the parameter at index ``i`` (the ``P_*`` constants). Booleans are
0/1, counts are themselves, ``attacker_gain_cap`` None is -1, and each enum-like parameter
holds the index of its value in ``ENUM_VALUES[name]`` (the first value is the zhengzhou
default, code 0). ``param_vector`` builds the vector from a name → value mapping.

>>> v = param_vector({"throw_fail_play": "first_failed_unit", "kitty_multiplier": "pow_size"})
>>> int(v[P_THROW_FAIL_PLAY]) == THROW_FAIL_FIRST_FAILED_UNIT, int(v[P_REBEL_THRESHOLD])
(True, 15)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

PARAM_NAMES: tuple[str, ...] = (
    "joker_colour",  # §4.1
    "joker_pair_may_open",
    "level_cards_need_joker",
    "pair_overcall_by_suit",  # §4.2
    "suit_rank",
    "partner_may_overcall",
    "declare_start",  # §4.3
    "partner_declarer_becomes_banker",  # §4.4
    "stepdown_banker",
    "rebel_enabled",  # §4.5
    "rebel_scope",
    "rebel_threshold",
    "bajiwo_enabled",  # §4.7
    "bajiwo_reinforce",
    "nt_level_joker_tractor",  # §2
    "throw_whole_suit_only",  # §5.2
    "throw_check_players",
    "throw_fail_play",
    "throw_fail_penalty_per_card",
    "follow_rule",  # §5.3
    "ruff_rule",  # §5.4
    "trick_compare",  # §5.5
    "kitty_basis",  # §6.1
    "kitty_multiplier",
    "level_step",  # §6.2–6.4
    "turnover_at",
    "attacker_gain_cap",
    "must_defend_A",
)
(P_JOKER_COLOUR, P_JOKER_PAIR_MAY_OPEN, P_LEVEL_CARDS_NEED_JOKER, P_PAIR_OVERCALL_BY_SUIT,
 P_SUIT_RANK, P_PARTNER_MAY_OVERCALL, P_DECLARE_START, P_PARTNER_DECLARER_BECOMES_BANKER,
 P_STEPDOWN_BANKER, P_REBEL_ENABLED, P_REBEL_SCOPE, P_REBEL_THRESHOLD, P_BAJIWO_ENABLED,
 P_BAJIWO_REINFORCE, P_NT_LEVEL_JOKER_TRACTOR, P_THROW_WHOLE_SUIT_ONLY, P_THROW_CHECK_PLAYERS,
 P_THROW_FAIL_PLAY, P_THROW_FAIL_PENALTY_PER_CARD, P_FOLLOW_RULE, P_RUFF_RULE, P_TRICK_COMPARE,
 P_KITTY_BASIS, P_KITTY_MULTIPLIER, P_LEVEL_STEP, P_TURNOVER_AT, P_ATTACKER_GAIN_CAP,
 P_MUST_DEFEND_A) = range(len(PARAM_NAMES))
N_PARAMS = len(PARAM_NAMES)

# Values of the enum-like parameters, in code order (code = index).
ENUM_VALUES: dict[str, tuple[str, ...]] = {
    "joker_colour": ("standard", "swapped"),
    "suit_rank": ("SHCD", "DCHS"),
    "declare_start": ("banker", "banker_next", "random"),
    "stepdown_banker": ("next_seat",),
    "rebel_scope": ("player", "side"),
    "throw_check_players": ("all_others", "opponents"),
    "throw_fail_play": ("largest_failed_shape", "smallest_card", "first_failed_unit"),
    "follow_rule": ("maximal",),
    "ruff_rule": ("match", "count"),
    "trick_compare": ("largest_unit", "all_units", "highest_card"),
    "kitty_basis": ("winning_play", "lead_shape"),
    "kitty_multiplier": ("pow2_pairs", "times_size", "pow_size"),
}
JOKER_COLOUR_STANDARD, JOKER_COLOUR_SWAPPED = 0, 1  # 大王↔♥♦ 小王↔♠♣, or the reverse
SUIT_RANK_SHCD, SUIT_RANK_DCHS = 0, 1
DECLARE_START_BANKER, DECLARE_START_BANKER_NEXT, DECLARE_START_RANDOM = 0, 1, 2
STEPDOWN_NEXT_SEAT = 0
REBEL_SCOPE_PLAYER, REBEL_SCOPE_SIDE = 0, 1
THROW_CHECK_ALL_OTHERS, THROW_CHECK_OPPONENTS = 0, 1
THROW_FAIL_LARGEST_SHAPE, THROW_FAIL_SMALLEST_CARD, THROW_FAIL_FIRST_FAILED_UNIT = 0, 1, 2
FOLLOW_MAXIMAL = 0
RUFF_MATCH, RUFF_COUNT = 0, 1
COMPARE_LARGEST_UNIT, COMPARE_ALL_UNITS, COMPARE_HIGHEST_CARD = 0, 1, 2
KITTY_BASIS_WINNING_PLAY, KITTY_BASIS_LEAD_SHAPE = 0, 1
KITTY_POW2_PAIRS, KITTY_TIMES_SIZE, KITTY_POW_SIZE = 0, 1, 2

# The zhengzhou default of every parameter.
DEFAULTS: dict[str, object] = {
    "joker_colour": "standard", "joker_pair_may_open": True, "level_cards_need_joker": True,
    "pair_overcall_by_suit": True, "suit_rank": "SHCD", "partner_may_overcall": True,
    "declare_start": "banker", "partner_declarer_becomes_banker": True,
    "stepdown_banker": "next_seat", "rebel_enabled": True, "rebel_scope": "player",
    "rebel_threshold": 15, "bajiwo_enabled": True, "bajiwo_reinforce": False,
    "nt_level_joker_tractor": False, "throw_whole_suit_only": False,
    "throw_check_players": "all_others", "throw_fail_play": "largest_failed_shape",
    "throw_fail_penalty_per_card": 0, "follow_rule": "maximal", "ruff_rule": "match",
    "trick_compare": "largest_unit", "kitty_basis": "winning_play",
    "kitty_multiplier": "pow2_pairs", "level_step": 40, "turnover_at": 80,
    "attacker_gain_cap": None, "must_defend_A": True,
}


def _code(name: str, value) -> int:
    if name in ENUM_VALUES:
        if value not in ENUM_VALUES[name]:
            raise ValueError(f"{name}={value!r} is not one of {', '.join(ENUM_VALUES[name])}")
        return ENUM_VALUES[name].index(value)
    if value is None:  # only attacker_gain_cap may be None: no cap
        if name != "attacker_gain_cap":
            raise ValueError(f"{name} may not be None")
        return -1
    return int(value)


def param_vector(values: Mapping[str, object]) -> np.ndarray:
    """The int64 rule vector; names missing from ``values`` take the zhengzhou default and
    names that are not parameters (``name``, ``title``…) are ignored."""
    out = np.empty(N_PARAMS, dtype=np.int64)
    for i, name in enumerate(PARAM_NAMES):
        out[i] = _code(name, values.get(name, DEFAULTS[name]))
    return out
