"""xianniu: a Monte Carlo strategy analyzer for 兰州掀牛 (掀牛腿 / 砍牛腿)."""

from .cards import format_cards, parse_cards, parse_hand, parse_mask
from .combos import Play, answers_to, beats, classify, plays_in
from .engine import Action, State, new_hand
from .rules import KANNIUTUI, LANZHOU, PRESETS, Rules, get_rules
from .scoring import Settlement, settle

__version__ = "0.1.0"

__all__ = ["Action", "KANNIUTUI", "LANZHOU", "PRESETS", "Play", "Rules", "Settlement", "State",
           "answers_to", "beats", "classify", "format_cards", "get_rules", "new_hand",
           "parse_cards", "parse_hand", "parse_mask", "plays_in", "settle"]
