"""郑州双升 (升级 / 拖拉机): rules as data and the pure-Python rule primitives (the oracle)."""

from .bidding import (
                      Declaration,
                      classify_declaration,
                      declarable,
                      overcall_valid,
                      qualifies_rebel,
                      verify_overcall,
)
from .cards import (
                      DECK,
                      NT,
                      TRUMP,
                      Context,
                      context,
                      format_cards,
                      parse_cards,
                      parse_level,
                      parse_trump,
                      points,
)
from .combos import Unit, classify, decompose, follow_ok, legal_follow, matches, verify_follow
from .rules import CLASSIC, DEFAULT_RULES, PRESETS, ZHENGZHOU, ShengjiRules, get_rules
from .scoring import Settlement, advance_level, kitty_multiplier, settle
from .tricks import check_throw, trick_points, trick_winner, verify_lead

__all__ = [
    "CLASSIC", "DECK", "DEFAULT_RULES", "NT", "PRESETS", "TRUMP", "ZHENGZHOU", "Context",
    "Declaration", "Settlement", "ShengjiRules", "Unit", "advance_level", "check_throw",
    "classify", "classify_declaration", "context", "declarable", "decompose", "follow_ok",
    "format_cards", "get_rules", "kitty_multiplier", "legal_follow", "matches",
    "overcall_valid", "parse_cards", "parse_level", "parse_trump", "points", "qualifies_rebel",
    "settle", "trick_points", "trick_winner", "verify_follow", "verify_lead", "verify_overcall",
]
