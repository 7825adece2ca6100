"""兰州掀牛 (掀牛腿 / 砍牛腿), three players: rules as data, cards, combinations, scoring, the
reference engine, records, simulation, analyses, decision queries, report section and CLI.
"""

from .cards import format_cards, parse_cards, parse_hand, parse_mask
from .combos import Play, answers_to, beats, classify, plays_in
from .engine import Action, State, new_hand
from .rules import KANNIUTUI, LANZHOU, PRESETS, Rules, get_rules
from .scoring import Settlement, settle

__all__ = ["Action", "KANNIUTUI", "LANZHOU", "PRESETS", "Play", "Rules", "Settlement", "State",
           "answers_to", "beats", "classify", "format_cards", "get_rules", "new_hand",
           "parse_cards", "parse_hand", "parse_mask", "plays_in", "settle"]
