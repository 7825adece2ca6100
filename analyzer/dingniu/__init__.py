"""顶牛 (Chinese dominoes): rules as data, the reference engine, records, solver and CLI."""

from .engine import State, new_hand, settle
from .rules import NAVPIL, PRESETS, SEED, STANDARD, TILES, DingniuRules, get_rules
from .tiles import format_action, format_tiles, parse_hand, parse_tile, parse_tiles

__all__ = ["DingniuRules", "NAVPIL", "PRESETS", "SEED", "STANDARD", "State", "TILES",
           "format_action", "format_tiles",
           "get_rules", "new_hand", "parse_hand", "parse_tile", "parse_tiles", "settle"]
