"""Records with unknown hands (``"?"``), in every game: completing one deals the unknown hands
(and 双升's unknown kitty) so that the record replays legally, keeps every known card, every
card a seat is seen to play and every public fact (the known seat's view is the same at
every step), depends on its seed only; the text notation writes and reads an unknown hand
as ``?`` (and a face-down 顶牛 扣 as ``扣?``); the commands take such records."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from cli_checks import bad, ok, write_json

from analyzer.core.completion import copies_weight, is_unknown
from analyzer.core.notation import from_text, to_text
from analyzer.core.records import RecordError
from analyzer.dingniu.engine import random_start as d_start
from analyzer.dingniu.records import record_of as d_record_of
from analyzer.games import get_game
from analyzer.shengji.cards import parse_cards
from analyzer.shengji.engine import play_random, random_start
from analyzer.shengji.records import record_of as s_record_of
from analyzer.xianniu.sim import hand_records


def _dingniu(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        st = d_start("seed", rng)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        out.append(d_record_of(st))
    return out


def _shengji(n: int, seed: int) -> list[dict]:
    """Whole hands of random play without a 造反 redeal or a kitty-card trump (records with
    those need every hand, or the kitty)."""
    out, i = [], 0
    while len(out) < n:
        rng = random.Random(f"completion {seed} {i}")
        i += 1
        rec = s_record_of(play_random(random_start(("zhengzhou", "classic")[i % 2], rng), rng))
        if not rec["redeals"] and rec["random_trump_card"] is None:
            out.append(rec)
    return out


HANDS = {"xianniu": hand_records(4, "lanzhou", "random", seed=3)
         + hand_records(3, "kanniutui", "heuristic", seed=4),
         "dingniu": _dingniu(6, 5),
         "shengji": _shengji(5, 6)}


def hide(game: str, rec: dict, keep: int, cut: int | None = None) -> dict:
    """``rec`` as a real table would write it for seat ``keep``: the other hands ``?``,
    the others' 顶牛 扣 face down, the 双升 kitty ``?`` unless ``keep`` picked it up; the
    actions cut at ``cut``."""
    n = len(rec["hands"])
    out = {k: v for k, v in rec.items() if k != "result"}
    out["hands"] = [h if s == keep else "?" for s, h in enumerate(rec["hands"])]
    out["known"] = [s == keep for s in range(n)]
    acts = rec["actions"][:cut]
    if game == "dingniu":
        acts = [a if a["seat"] == keep or a["action"] != "kou" else
                {"seat": a["seat"], "action": "kou"} for a in acts]
    if game == "shengji" and [a["seat"] for a in acts if a["action"] == "bury"][:1] != [keep]:
        out["kitty"] = "?"
    out["actions"] = acts
    return out


def _cards(game: str, text: str) -> Counter:
    if game == "shengji":
        return Counter(parse_cards(text))
    return Counter(text.split())


CASES = [(g, i, keep, cut) for g, recs in HANDS.items() for i in range(len(recs))
         for keep in range(len(recs[i]["hands"])) for cut in (None, 9)]


@pytest.mark.parametrize("game,i,keep,cut", CASES)
def test_a_completion_replays_and_keeps_every_known_card_and_public_fact(game, i, keep, cut):
    g = get_game(game)
    recs = g.part("records")
    rec = HANDS[game][i]
    hidden = hide(game, rec, keep, cut)
    with pytest.raises(RecordError, match="not known"):
        recs.replay(hidden)
    done = recs.complete(hidden, seed=1)
    assert recs.complete(hidden, seed=1) == done  # seeded
    assert done["known"] == hidden["known"]
    final = recs.replay(done, require_end=cut is None)
    assert done["hands"][keep] == rec["hands"][keep]
    if game == "shengji" and not is_unknown(hidden["kitty"]):
        assert done["kitty"] == rec["kitty"]
    for a, b in zip(done["actions"], hidden["actions"]):
        assert a == b or (game == "dingniu" and "tile" not in b and a["action"] == "kou"
                          and a["seat"] == b["seat"])
    # every card a seat is seen to play is in its completed hand (less what 双升's seat
    # picked up of a known kitty)
    for s in range(len(rec["hands"])):
        if s == keep or game == "shengji":
            continue
        seen = Counter()
        for a in hidden["actions"]:
            if a["seat"] == s and (a.get("cards") or a.get("tile")):
                seen += _cards(game, a.get("cards") or a["tile"])
        assert not seen - _cards(game, done["hands"][s])
    # every public fact: the known seat sees the same thing at every step
    start, ref = recs.start_of(done), recs.start_of({**rec, "actions": []})
    for seat_action, (_, taken) in zip(final.history, recs.replay(
            {**rec, "actions": rec["actions"][:cut]}).history):
        assert start.view(keep) == ref.view(keep)
        start.apply(seat_action[1])
        ref.apply(taken)
    if cut is not None or game != "dingniu":  # 顶牛 shows every tile once over
        assert start.view(keep) == ref.view(keep)


@pytest.mark.parametrize("game", HANDS)
def test_completions_differ_by_seed_and_keep_the_same_play(game):
    recs = get_game(game).part("records")
    hidden = hide(game, HANDS[game][0], 0, 9)
    deals = {tuple(recs.complete(hidden, seed=s)["hands"]) for s in range(6)}
    assert len(deals) > 1
    assert all(h[0] == HANDS[game][0]["hands"][0] for h in deals)


def test_a_record_that_no_deal_fits_is_refused_in_one_line(tmp_path, capsys):
    rec = HANDS["xianniu"][0]
    hidden = hide("xianniu", rec, 0)
    mine = rec["hands"][0].split()[0]  # seat 1 plays a card of the known hand
    at = next(i for i, a in enumerate(hidden["actions"]) if a["seat"] == 1 and a.get("cards"))
    broken = {**hidden, "actions": [*hidden["actions"][:at],
                                    {"seat": 1, "action": "play", "cards": mine}]}
    with pytest.raises(RecordError, match=f"action {at}: seat 1 plays"):
        get_game("xianniu").part("records").complete(broken)
    msg = bad(capsys, "record", "convert", write_json(tmp_path / "x.json", broken))
    assert f"action {at}" in msg
    lying = {**hidden, "known": [True, True, False]}
    assert "\"known\" says the hand of seat 1 is known" in bad(
        capsys, "record", "convert", write_json(tmp_path / "y.json", lying))


def test_copies_are_weighed_to_be_uniform_over_physical_deals():
    # seat A was seen with one x; the other x is in the pool beside a y, one slot each to
    # A and B: physically both deals (A: x x, B: y) and (A: x y, B: x) have one arrangement
    # of the pool but the second has two of the copies, so it is twice as likely
    assert copies_weight([["x"], []], [["x"], ["y"]]) == 0.5
    assert copies_weight([["x"], []], [["y"], ["x"]]) == 1.0


# -- the text notation -------------------------------------------------------------------------


# 双升's text is read on deals found by search, seconds a hand: two hands, two seats
TEXT_CASES = [(g, i, keep) for g, recs in HANDS.items() for i in range(2)
              for keep in range(len(recs[i]["hands"])) if g != "shengji" or keep in (0, 1)]


@pytest.mark.parametrize("game,i,keep", TEXT_CASES)
def test_the_text_of_a_record_with_unknown_hands_round_trips(game, i, keep):
    g = get_game(game)
    hidden = hide(game, HANDS[game][i], keep)
    text = to_text(g, hidden)
    assert sum(line.endswith(" ?") and line.startswith("hand ") for line in text.splitlines()) \
        == len(hidden["hands"]) - 1
    assert from_text(g, text) == hidden
    assert to_text(g, from_text(g, text)) == text
    if game == "dingniu" and any("tile" not in a for a in hidden["actions"]):
        assert "扣?" in text
    # a completed record keeps its known flags through the text
    done = g.part("records").complete(hidden, seed=3)
    back = from_text(g, to_text(g, done))
    back.pop("result", None)
    assert back == done and "known" in to_text(g, done)


def test_a_typed_record_with_unknown_hands_is_reviewed_and_says_so(tmp_path, capsys):
    rec = HANDS["dingniu"][1]
    text = to_text(get_game("dingniu"), hide("dingniu", rec, 2))
    path = tmp_path / "hand.txt"
    path.write_text(text, encoding="utf-8")
    out = ok(capsys, "dingniu", "review", str(path), "--samples", "50", "--seed", "4",
             "--quiet")
    assert "the other hands were unknown: dealt at random consistent with the play, seed 4" \
        in out
    data = json.loads(ok(capsys, "dingniu", "review", str(path), "--samples", "50", "--seed",
                         "4", "--quiet", "--json"))
    assert data["seats"] == [2] and "unknown" in data["hidden"]
    assert "does not know the hand of seat 0" in bad(capsys, "dingniu", "review", str(path),
                                                     "--seat", "0", "--samples", "50", "--quiet")
    back = json.loads(ok(capsys, "record", "convert", str(path)))
    assert back["hands"][0] == "?" and back["known"] == [False, False, True, False]


def test_a_shengji_review_with_unknown_hands_is_the_review_of_the_whole_record():
    """双升: the example hand with the other hands unknown (seat 0 picked up and buried the
    kitty, so it stays known) reviews as the whole record does, labels included, on any
    deal of the unknown hands: the advice deals from seat 0's view alone."""
    from pathlib import Path

    from analyzer.core.records import load
    from analyzer.shengji import api

    rec = load(Path(__file__).resolve().parents[2] / "docs" / "examples" / "shengji-hand.json")
    hidden = hide("shengji", rec, 0)
    assert hidden["kitty"] == rec["kitty"] and hidden["hands"][1] == "?"
    advice = {"samples": 256, "precision": 0.25}
    rv = api.review(hidden, None, seed=5, **advice)
    assert rv.seats == [0] and "the other hands were unknown" in rv.hidden
    assert [r for r in rv.rows if not r["forced"]], "seat 0 had choices"
    assert rv.rows == api.review(rec, [0], seed=5, **advice).rows
    # a whole hand plays every card but the kitty: its deal is the true one; cut, it is not
    recs = get_game("shengji").part("records")
    assert recs.complete(hidden, seed=17)["hands"] == rec["hands"]
    cut = hide("shengji", rec, 0, 30)
    one, two = recs.complete(cut, seed=5), recs.complete(cut, seed=17)
    assert one["hands"] != two["hands"]
    part = api.review({**rec, "actions": rec["actions"][:30]}, [0], seed=5, **advice).rows
    assert api.review(one, [0], seed=5, **advice).rows == part
    assert api.review(two, [0], seed=5, **advice).rows == part


@pytest.mark.parametrize("game", ["xianniu", "shengji"])
def test_an_impossible_token_with_unknown_hands_is_named_in_one_line(game, tmp_path, capsys):
    g = get_game(game)
    rec = HANDS[game][0]
    hidden = hide(game, rec, 0)
    lines = to_text(g, hidden).splitlines()
    at = lines.index("actions")
    head, tokens = lines[:at + 1], " ".join(lines[at + 1:]).split()
    # seat 0 (known) plays a card it does not hold; seat 1 (unknown) one that seat 0 holds
    held = set(rec["hands"][0].split())
    absent = next(c for c in (h for r in rec["hands"][1:] for h in r.split()) if c not in held)
    k0 = next(i for i, a in enumerate(hidden["actions"]) if a["seat"] == 0 and a.get("cards")
              and a["action"] == "play")
    k1 = next(i for i, a in enumerate(hidden["actions"]) if a["seat"] == 1 and a.get("cards")
              and a["action"] == "play")
    mine = rec["hands"][0].split()[-1]
    cases = {"known.txt": (k0, absent), "unknown.txt": (k1, mine + mine if game == "shengji"
                                                         else mine)}
    for name, (k, token) in cases.items():
        (tmp_path / name).write_text("\n".join(head + [" ".join(tokens[:k] + [token]
                                                                + tokens[k + 1:])]) + "\n",
                                     encoding="utf-8")
        msg = bad(capsys, "record", "convert", str(tmp_path / name))
        assert msg.startswith(f"xianniu: error: action {k}: token {token!r}"), msg
