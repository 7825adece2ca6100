"""顶牛 rules, tile notation, the reference engine and records (docs/rules/dingniu.md).

Random play's invariants (tile accounting, 不能扣活牌, the points of every ending) and the
record round trips are in the contract suite: tests/contract_dingniu.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer.core.records import RecordError
from analyzer.dingniu.engine import SUAN, State, new_hand, rank, settle
from analyzer.dingniu.records import record_of, replay
from analyzer.dingniu.rules import N_KINDS, STANDARD, TILES
from analyzer.dingniu.tiles import (
    KOU,
    LEAD,
    action,
    format_action,
    format_tiles,
    parse_hand,
    parse_tile,
    parse_tiles,
    split_action,
)

R = STANDARD
K = {t.name: k for k, t in enumerate(TILES)}


def counts(text: str) -> list[int]:
    return parse_tiles(text)


def random_deal(rng: random.Random) -> list[list[int]]:
    tiles = [k for k in range(N_KINDS) for _ in range(TILES[k].count)]
    rng.shuffle(tiles)
    return [[tiles[6 * i:6 * i + 6].count(k) for k in range(N_KINDS)] for i in range(4)]


def after_random_moves(seed: int, moves: int) -> State:
    """The first random hand from ``seed``'s stream still going after ``moves`` random moves
    (a 算帐 can end a hand early; such hands are passed over, not skipped as tests)."""
    rng = random.Random(seed)
    while True:
        st = new_hand(random_deal(rng))
        for _ in range(moves):
            if st.is_terminal():
                break
            st.apply(rng.choice(st.legal_actions()))
        if not st.is_terminal():
            return st


def deal_with(first: str, rng: random.Random) -> list[list[int]]:
    """Seat 0 holds ``first``; the other tiles go to seats 1–3 at random."""
    h0 = parse_hand(first)
    rest = [k for k in range(N_KINDS) for _ in range(TILES[k].count - h0[k])]
    rng.shuffle(rest)
    return [h0] + [[rest[6 * i:6 * i + 6].count(k) for k in range(N_KINDS)] for i in range(3)]


# -- the tile table ---------------------------------------------------------------------------

def test_tile_table_matches_the_seed():
    assert len(TILES) == 13 and sum(t.count for t in TILES) == 24
    assert R.total_pips == 177
    per_value = [sum(t.count for t in TILES if v in t.ends) for v in range(1, 7)]
    assert per_value == [8, 3, 5, 4, 6, 10]  # 一牌 8, 二牌 3, 三牌 5, 红牌 4, 五牌 6, 六牌 10
    doubles = {t.name for t in TILES if t.double}
    assert doubles == {"大天", "大五", "红八", "长三", "二板", "地幺"}


@pytest.mark.parametrize("text,name", [("大天", "大天"), ("天牌", "大天"), ("6-6", "大天"),
                                       ("5:6", "虎头"), ("65", "虎头"), ("斧头", "虎头"),
                                       ("4-6", "红十"), ("金屏", "红十"), ("1/1", "地幺"),
                                       ("杂八", "二六"), ("6-2", "二六")])
def test_parse_tile(text, name):
    assert TILES[parse_tile(text)].name == name


@pytest.mark.parametrize("text,msg", [("7-7", "unknown tile"), ("3-4", "no tile"),
                                      ("大王", "unknown tile"), ("", "unknown tile")])
def test_parse_tile_errors(text, msg):
    with pytest.raises(ValueError, match=msg):
        parse_tile(text)


def test_parse_hand_forms_and_errors():
    a = parse_hand("大天 虎头 5-5 红十,一三、地幺")
    assert parse_hand("大天虎头大五红十一三地幺") == a
    assert format_tiles(a) == "大天 虎头 大五 红十 一三 地幺"
    with pytest.raises(ValueError, match="too many 三六"):
        parse_tiles("三六 3-6")
    with pytest.raises(ValueError, match="too many 大天"):
        parse_tiles("大天 大天 6-6")
    with pytest.raises(ValueError, match="holds 6 tiles, got 5"):
        parse_hand("大天 虎头 大五 红十 一三")


def test_action_numbers():
    assert split_action(action(12, 6)) == (12, 6)
    assert format_action(action(K["大五"], LEAD)) == "lead 大五"
    assert format_action(action(K["地幺"], KOU)) == "扣 地幺"


# -- random play ------------------------------------------------------------------------------

def play_random(seed: int) -> State:
    """A hand played to its end with random legal actions from ``seed``'s stream."""
    rng = random.Random(seed)
    st = new_hand(random_deal(rng))
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    return st


# -- the first lead (头牌出牌规则, R3, R4) --------------------------------------------------------

def leads(first: str, seed: int = 0) -> set[str]:
    st = new_hand(deal_with(first, random.Random(seed)))
    return {TILES[a // 8].name for a in st.legal_actions()}


@pytest.mark.parametrize("seed", range(5))
def test_example_1_no_changsan_first(seed):
    assert leads("一三 一三 三六 长三 大天 地幺", seed) == {"一三", "三六", "大天", "地幺"}
    assert "长三" not in leads("一三 一三 三六 长三 长三 大天", seed)


@pytest.mark.parametrize("seed", range(5))
def test_example_2_hongshi_before_hongba(seed):
    got = leads("红十 红十 红八 大天 一五 地幺", seed)
    assert "红十" in got and "红八" not in got


def test_example_3_erliu_before_erban():
    got = leads("二六 二板 二板 大天 一五 一三")
    assert "二六" in got and "二板" not in got
    assert "二板" in leads("二板 二板 大天 大五 一五 一三")  # 二六 is with another seat


def test_example_4_both_hongba_together():
    st = new_hand(deal_with("红八 红八 大天 一五 一三 地幺", random.Random(1)))
    st.apply(action(K["红八"], LEAD))
    assert st.laid[K["红八"]] == 2 and sum(st.hands[0]) == 4 and st.ends == (4, 4)
    assert st.current_player() == 1
    single = new_hand(deal_with("红八 大天 虎头 一五 一三 地幺", random.Random(1)))
    single.apply(action(K["红八"], LEAD))
    assert single.laid[K["红八"]] == 1 and sum(single.hands[0]) == 5


def test_first_tile_only_and_verify_reasons():
    st = new_hand(deal_with("一三 一三 三六 长三 大天 地幺", random.Random(0)))
    with pytest.raises(ValueError, match="不能拉三家"):
        st.verify(action(K["长三"], LEAD))
    with pytest.raises(ValueError, match="must be led"):
        st.verify(action(K["大天"], 6))
    with pytest.raises(ValueError, match="holds no"):
        st.verify(action(K["虎头"], LEAD))


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_leader_always_has_a_lead_and_a_lead_never_drags(rnd):
    st = new_hand(random_deal(rnd))
    legal = st.legal_actions()
    assert legal and all(a % 8 == LEAD for a in legal)
    for a in legal:
        k = a // 8
        outside = sum(TILES[j].count - st.hands[0][j] for j in range(N_KINDS)
                      if not TILES[j].double and set(TILES[j].ends) & set(TILES[k].ends))
        assert outside > 0


# -- the result (R5) --------------------------------------------------------------------------

@pytest.mark.parametrize("totals,points", [
    ([0, 0, 0, 0], [6, -3, -2, -1]),  # 四家净手: 头牌 wins, then play order
    ([5, 3, 3, 10], [-2, 6, -1, -3]),  # tie for the win: nearer 头牌 wins
    ([0, 7, 7, 7], [6, -3, -2, -1]),  # tie among losers: nearer 头牌 is the bigger 庄
    ([20, 2, 9, 9], [-3, 6, -2, -1]),
    ([12, 12, 4, 30], [-2, -1, 6, -3]),
])
def test_settle_normal(totals, points):
    assert settle(R, totals) == points
    assert rank(totals)[0] == points.index(6)


@pytest.mark.parametrize("totals,seat,points", [
    ([4, 2, 6, 10], 1, [-2, 12, -4, -6]),  # success: double, by 庄 order
    ([4, 10, 6, 10], 1, [12, -12, 0, 0]),  # failure: 包庄 to the best of the others
    ([4, 4, 6, 10], 1, [12, -12, 0, 0]),  # a tie is no success (strictly less)
    ([9, 3, 3, 3], 0, [-12, 12, 0, 0]),
])
def test_settle_suan(totals, seat, points):
    assert settle(R, totals, seat) == points


# -- 算帐 (R6–R11) ------------------------------------------------------------------------------

def position(hands: dict[int, str], ends: tuple[int, int], turn: int,
             kou: dict[int, str] | None = None) -> State:
    """A mid-hand state (the other tiles count as laid)."""
    h = [counts(hands.get(s, "")) for s in range(4)]
    kc = [counts((kou or {}).get(s, "")) for s in range(4)]
    laid = [TILES[k].count - sum(x[k] for x in h) - sum(x[k] for x in kc) for k in range(N_KINDS)]
    assert min(laid) >= 0
    return State(R, tuple(tuple(x) for x in h), h, kou=kc, laid=laid, ends=ends, turn=turn)


def test_suan_success():
    st = position({0: "二板", 1: "一三 地幺", 2: "一五", 3: "大五"}, (1, 4), 1)
    st.apply(action(K["一三"], 1))  # ends 3, 4: 一五 is shut out; 地幺 on 1 would not lock
    assert st.is_terminal() and st.end_reason == SUAN and st.suan_seat == 1
    assert st.totals() == [4, 2, 6, 10]
    assert st.returns() == [-2, 12, -4, -6]


def test_suan_failure_pays_for_the_table():
    st = position({0: "二板", 1: "一三 红十", 2: "一五", 3: "大五"}, (1, 4), 1)
    st.apply(action(K["一三"], 1))
    assert st.end_reason == SUAN and st.totals() == [4, 10, 6, 10]
    assert st.returns() == [12, -12, 0, 0]


def test_forced_lock_is_si_za_and_play_goes_on():
    st = position({0: "二板", 1: "一三 大天", 2: "一五", 3: "大五"}, (1, 4), 1)
    assert st.legal_actions() == [action(K["一三"], 1)]
    st.apply(action(K["一三"], 1))
    assert not st.is_terminal() and st.current_player() == 2
    assert st.legal_actions() == [action(K["一五"], KOU)]


def test_toupai_going_out_with_the_lock_is_no_suan():
    st = position({0: "一三", 1: "大天", 2: "一五", 3: "大五"}, (1, 3), 0)
    assert set(st.legal_actions()) == {action(K["一三"], 1), action(K["一三"], 3)}
    st.apply(action(K["一三"], 1))  # ends 3, 3 shut out 一五; on 3 it would not
    assert not st.is_terminal() and st.ends == (3, 3)
    other = position({0: "大天", 1: "一三", 2: "一五", 3: "大五"}, (1, 3), 1)
    other.apply(action(K["一三"], 1))  # the same play by seat 1 is a 算帐
    assert other.end_reason == SUAN


def test_a_table_already_shut_is_not_locked_again():
    st = position({0: "二板", 1: "一三 地幺", 2: "一五", 3: "大五"}, (3, 4), 1)
    st.apply(action(K["一三"], 3))  # ends 1, 4 open 一五 again
    assert not st.is_terminal()
    st2 = position({0: "二板", 1: "长三 一三", 2: "一五", 3: "大五"}, (3, 4), 1)
    st2.apply(action(K["长三"], 3))  # still shut, but the play did not shut it
    assert not st2.is_terminal()


# -- records ----------------------------------------------------------------------------------

def test_record_errors_name_the_action():
    st = play_random(3)
    rec = record_of(st)
    bad = json.loads(json.dumps(rec))
    bad["actions"][1]["seat"] = 3
    with pytest.raises(RecordError, match="action 1: it is seat 1's turn") as e:
        replay(bad)
    assert e.value.index == 1
    bad = json.loads(json.dumps(rec))
    bad["actions"][0] = {"seat": 0, "action": "kou", "tile": bad["actions"][0]["tile"]}
    with pytest.raises(ValueError, match="action 0: the first tile must be led"):
        replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["hands"][0] = bad["hands"][1]
    with pytest.raises(ValueError, match="the set has"):
        replay(bad)
    with pytest.raises(ValueError, match="four strings"):
        replay({"hands": ["大天"]})
    bad = json.loads(json.dumps(rec))
    del bad["actions"][4]["seat"]
    with pytest.raises(RecordError, match="action 4: the action names no \"seat\""):
        replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["result"]["points"] = bad["result"]["points"][::-1]
    with pytest.raises(RecordError, match="result"):
        replay(bad)


def test_records_of_version_1_replay(tmp_path):
    """The records version 1 wrote (tests/dingniu/data, written by the version-1 code) and
    the format-less, seat-less ones it read still replay; their new records replay too."""
    from analyzer.core.records import game_of, load
    from analyzer.dingniu.records import LEGACY, READS

    data = Path(__file__).resolve().parent / "data"
    normal, suan = load(data / "dingniu-v1-normal.json"), load(data / "dingniu-v1-suan.json")
    for old, points in ((normal, [-2, -1, 6, -3]), (suan, [-12, 12, 0, 0])):
        assert (old["format"], old["version"]) in LEGACY
        assert game_of(old, LEGACY) == "dingniu"
        st = replay(old, require_end=True)
        assert st.returns() == points
        assert replay(record_of(st), require_end=True).history == st.history
        unversioned = {k: v for k, v in old.items() if k != "version"}
        assert replay(unversioned).history == st.history
    bare = load(data / "dingniu-v1-bare.json")
    assert "format" not in bare and (None, None) in READS
    st = replay(bare)
    assert len(st.history) == 9 and not st.is_terminal()
    assert st.history == replay(normal).history[:9]
    with pytest.raises(RecordError, match="version 3"):
        replay(dict(record_of(st), version=3))


# -- what a seat sees (R12) -------------------------------------------------------------------

def test_a_view_shows_no_other_hand_and_no_face_down_kou():
    from analyzer.dingniu.engine import HIDDEN

    whole = record_of(play_random(5))
    st = replay(dict(whole, actions=whole["actions"][:12]))
    kou = {s for s, a in st.history if a % 8 == KOU}
    assert kou and not st.is_terminal()
    for seat in range(4):
        v = st.view(seat)
        assert v.seat == seat and v.hand == tuple(st.hands[seat]) and v.shown is None
        assert v.kou == tuple(st.kou[seat])  # its own 扣 it sees
        assert v.n_kou == tuple(map(sum, st.kou)) and v.left == tuple(map(sum, st.hands))
        assert v.moves == tuple((s, HIDDEN) if s != seat and a % 8 == KOU else (s, a)
                                for s, a in st.history)
    over = replay(whole)
    assert over.view(0).shown == (tuple(map(tuple, over.hands)), tuple(map(tuple, over.kou)))


@pytest.mark.parametrize("leak", ["hands", "kou"])
def test_the_contract_catches_a_view_that_leaks(monkeypatch, leak):
    """Teeth: a view showing the other hands, or the other seats' face-down 扣, is caught."""
    from analyzer.core import contract
    from analyzer.games import get_game

    real = State.view
    monkeypatch.setattr(State, "view", lambda self, seat: (
        real(self, seat), tuple(map(tuple, getattr(self, leak)))))
    with pytest.raises(AssertionError, match="hidden"):
        for seed in range(5):
            contract.random_hand(get_game("dingniu"), "seed", seed)
