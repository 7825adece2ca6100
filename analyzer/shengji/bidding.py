"""Declaring (亮主), overcalling (反主), reinforcing (加固) and 造反 eligibility (§4.1–4.2,
§4.5, §4.7). Rules only: the turn order lives with the engine.

Classes: 1 single (单亮), 2 pair (对亮), 3 对小王 (NT), 4 对大王 (NT).

>>> from analyzer.shengji.rules import ZHENGZHOU
>>> d = classify_declaration("大王 2h", 2, ZHENGZHOU)
>>> d.cls, d.suit
(1, 1)
>>> classify_declaration("小王 2h", 2, ZHENGZHOU) is None
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import BIG_JOKER, NT, SMALL_JOKER, as_cards, face, points, rank_of, suit_of
from .rules import ShengjiRules, get_rules

CLASS_NAMES = {1: "single (单亮)", 2: "pair (对亮)", 3: "对小王", 4: "对大王"}
_SUIT_LETTER = "SHCD"


@dataclass(frozen=True)
class Declaration:
    """A declaration: ``cls`` 1..4, ``suit`` 0..3 or 4 (NT), the cards shown, the seat."""

    cls: int
    suit: int
    cards: tuple[int, ...]
    seat: int | None = None

    def at(self, seat: int) -> Declaration:
        """The same declaration made by ``seat``."""
        return Declaration(self.cls, self.suit, self.cards, seat)


def joker_for_suit(suit: int, rules: ShengjiRules) -> int:
    """The joker a level card of ``suit`` declares with (§4.1, R2 ``joker_colour``)."""
    red = suit in (1, 3)
    big = red if rules.joker_colour == "standard" else not red
    return BIG_JOKER if big else SMALL_JOKER


def classify_declaration(cards, level: int, rules: ShengjiRules) -> Declaration | None:
    """The declaration ``cards`` make at ``level``, or None if they make none.

    With ``level_cards_need_joker`` a level card needs the joker of its colour; without it a
    joker shown beside level cards changes nothing.
    """
    cards = as_cards(cards)
    jokers = [f for f in cards if f >= 52]
    plain = [f for f in cards if f < 52]
    if not plain:
        if cards == (SMALL_JOKER, SMALL_JOKER):
            return Declaration(3, NT, cards)
        if cards == (BIG_JOKER, BIG_JOKER):
            return Declaration(4, NT, cards)
        return None
    if len(plain) > 2 or len(set(plain)) != 1 or rank_of(plain[0]) != level:
        return None
    suit = suit_of(plain[0])
    if rules.level_cards_need_joker:
        if jokers != [joker_for_suit(suit, rules)]:
            return None
    elif len(jokers) > 1:
        return None
    return Declaration(len(plain), suit, cards)


def suit_strength(suit: int, rules: ShengjiRules) -> int:
    """Rank of a suit among pair declarations, 3 = highest (``suit_rank``)."""
    return 3 - rules.suit_rank.index(_SUIT_LETTER[suit])


def verify_overcall(standing: Declaration | None, new: Declaration | None,
                    same_player: bool = False, rules: ShengjiRules | None = None,
                    bajiwo: bool = False) -> None:
    """Raise ValueError with a reason unless ``new`` may follow ``standing`` (§4.2).

    ``standing`` None: nothing declared yet (in 扒鸡窝 after a random trump, any declaration
    counts as stronger than none, R15). ``same_player``: the standing declarer acts,
    which may only be 加固 (also inferred from equal seats). ``bajiwo``: during 扒鸡窝.
    ``rules`` None means the default preset.
    """
    rules = get_rules(rules)
    if new is None:
        raise ValueError("the cards shown make no declaration")
    if standing is None:
        if new.cls >= 3 and not rules.joker_pair_may_open and not bajiwo:
            raise ValueError("a joker pair may not be the first declaration "
                             "(joker_pair_may_open=False)")
        return
    seats = (standing.seat, new.seat)
    if same_player or (None not in seats and seats[0] == seats[1]):
        if bajiwo and not rules.bajiwo_reinforce:
            raise ValueError("no reinforcing (加固) during 扒鸡窝 (bajiwo_reinforce=False)")
        if not (standing.cls == 1 and new.cls == 2 and new.suit == standing.suit):
            raise ValueError("the standing declarer may only reinforce (加固) a single "
                             "declaration with the second level card of the same suit")
        return
    old, now = seats
    if (not rules.partner_may_overcall and old is not None and now is not None
            and (now - old) % 4 == 2):
        raise ValueError("the declarer's partner may not overcall (partner_may_overcall=False)")
    if new.cls > standing.cls:
        return
    if new.cls == standing.cls == 1:
        raise ValueError("a single declaration never displaces another single; the first stands")
    if new.cls == standing.cls == 2:
        if not rules.pair_overcall_by_suit:
            raise ValueError("a pair declaration never displaces another pair "
                             "(pair_overcall_by_suit=False)")
        if suit_strength(new.suit, rules) > suit_strength(standing.suit, rules):
            return
        raise ValueError(f"a pair overcalls a pair only of a lower suit "
                         f"(order {rules.suit_rank}, highest first)")
    raise ValueError(f"a {CLASS_NAMES[new.cls]} cannot overcall a {CLASS_NAMES[standing.cls]}")


def overcall_valid(standing: Declaration | None, new: Declaration | None,
                   same_player: bool = False, rules: ShengjiRules | None = None,
                   bajiwo: bool = False) -> bool:
    """True iff ``verify_overcall`` passes."""
    try:
        verify_overcall(standing, new, same_player, rules, bajiwo)
    except ValueError:
        return False
    return True


def declarable(hand, level: int, rules: ShengjiRules) -> list[Declaration]:
    """Every declaration ``hand`` can make at ``level``, by class then suit ♠♥♣♦."""
    count = Counter(as_cards(hand))
    out: list[Declaration] = []
    for suit in range(4):
        f = face(suit, level)
        if not count[f]:
            continue
        shown: tuple[int, ...] = ()
        if rules.level_cards_need_joker:
            joker = joker_for_suit(suit, rules)
            if not count[joker]:
                continue
            shown = (joker,)
        for n in range(1, count[f] + 1):
            out.append(Declaration(n, suit, tuple(sorted(shown + (f,) * n))))
    for cls, joker in ((3, SMALL_JOKER), (4, BIG_JOKER)):
        if count[joker] == 2:
            out.append(Declaration(cls, NT, (joker, joker)))
    return sorted(out, key=lambda d: (d.cls, d.suit))


def trump_from_kitty_card(f: int) -> int:
    """§4.4.3 random trump: the drawn card's suit, NT (4) for a joker."""
    return NT if f >= 52 else suit_of(f)


def qualifies_rebel(hand, rules: ShengjiRules, partner_hand=None) -> bool:
    """§4.5 造反: a defender whose 25 cards hold fewer than ``rebel_threshold`` points
    (``rebel_scope="side"``: the two defenders' cards together; pass ``partner_hand``)."""
    if not rules.rebel_enabled:
        return False
    total = points(as_cards(hand))
    if rules.rebel_scope == "side":
        if partner_hand is None:
            raise ValueError("rebel_scope='side' needs the partner's hand")
        total += points(as_cards(partner_hand))
    return total < rules.rebel_threshold
