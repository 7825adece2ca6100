"""Luck and skill: the three parts of a hand's result, their seeds, and the library's cache."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core import luck
from analyzer.core.contract import random_record
from analyzer.core.library import Filter, Library, check_record
from analyzer.core.stats import Z95
from analyzer.games import GAMES, get_game

# the review's play-outs, fewer than a player would ask for: the sums hold at any budget
CHEAP = {"xianniu": {"samples": 256}, "dingniu": {"samples": 100},
         "shengji": {"samples": 128}}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_three_parts_sum_to_the_result(name):
    game = get_game(name)
    rec = random_record(game, game.facts.default_preset, 21)
    digest = check_record(rec).digest
    s = luck.split_hand(game, rec, 1, digest=digest, seed=3, deal_samples=64,
                        **CHEAP[name])
    assert s.deal.value + s.decisions.value + s.lie.value == pytest.approx(s.result, abs=1e-9)
    assert s.deal.n == 64 and s.decisions.value <= 0 <= -s.decisions.low + 1e-12
    assert s.lie.high - s.lie.low >= s.deal.high - s.deal.low  # the lie carries both CIs
    seed = luck.hand_seed(3, digest)
    assert luck.deal_value(game, rec, 1, 64, seed) == luck.deal_value(game, rec, 1, 64, seed)
    assert luck.deal_value(game, rec, 1, 64, luck.hand_seed(4, digest)) != \
        luck.deal_value(game, rec, 1, 64, seed)


def test_a_seat_playing_at_random_loses_surely():
    game = get_game("dingniu")
    lost = 0
    for child in np.random.SeedSequence(8).spawn(3):
        rec = random_record(game, "seed", child)  # every seat random
        s = luck.split_hand(game, rec, 0, digest=check_record(rec).digest, seed=1,
                            deal_samples=64)
        lost += s.decisions.high < 0
    assert lost >= 2


def test_the_deal_is_worth_nothing_on_average_over_the_seats():
    """掀牛's points sum to 0: over random deals, the seats' deal values average 0."""
    game = get_game("xianniu")
    per_deal = []
    for child in np.random.SeedSequence(12).spawn(24):
        rec = random_record(game, "lanzhou", child)
        values = [luck.deal_value(game, rec, seat, 64, np.random.SeedSequence([7, seat]))
                  for seat in range(3)]
        per_deal.append(np.mean([v.value for v in values]))
        assert max(v.value for v in values) > min(v.value for v in values)
    x = np.array(per_deal)
    half = Z95 * x.std(ddof=1) / np.sqrt(len(x))
    assert abs(x.mean()) <= half + 0.05, (x.mean(), half)


def test_the_library_keeps_each_split_and_makes_it_again_for_another_player(tmp_path,
                                                                            monkeypatch):
    game = get_game("dingniu")
    with Library(tmp_path / "lib.sqlite") as lib:
        for child in np.random.SeedSequence(2).spawn(3):
            lib.add(random_record(game, "navpil", child), seat=2)
        lib.add(random_record(game, "seed", 99))  # no seat: left out
        pairs, left = luck.split_library(lib, Filter(), seed=5, deal_samples=48)
        assert left == 1 and [h.id for h, _ in pairs] == [1, 2, 3]
        made = []
        real = luck.split_hand
        monkeypatch.setattr(luck, "split_hand", lambda *a, **k: made.append(1) or real(*a, **k))
        again, _ = luck.split_library(lib, Filter(), seed=5, deal_samples=48)
        assert made == [] and [s for _, s in again] == [s for _, s in pairs]
        monkeypatch.setattr(luck, "player_of", lambda g: "someone else@1")
        luck.split_library(lib, Filter(ids=(1,)), seed=5, deal_samples=48)
        assert made == [1]
        means = luck.mean_parts([s for _, s in pairs])
        assert means["result"].n == 3
        assert means["deal"].value + means["decisions"].value + means["lie"].value == \
            pytest.approx(means["result"].value)
        weeks = luck.weekly(pairs)
        assert len(weeks) == 1 and weeks[0]["result"]["n"] == 3


def test_the_split_command(tmp_path, capsys):
    from cli_checks import bad, ok

    lib = str(tmp_path / "lib.sqlite")
    game = get_game("dingniu")
    with Library(lib) as library:
        for child in np.random.SeedSequence(6).spawn(2):
            library.add(random_record(game, "seed", child), seat=1, tags=["t"])
    out = ok(capsys, "library", "split", "--library", lib, "--samples", "32", "--each")
    assert "dingniu: 2 hands" in out and "the lie of the cards" in out and "#2" in out
    import json

    data = json.loads(ok(capsys, "library", "split", "--library", lib, "--samples", "32",
                         "--json"))
    hands = data["games"]["dingniu"]["hands"]
    assert [h["id"] for h in hands] == [1, 2] and data["left_out"] == 0
    bad(capsys, "library", "split", "--library", lib, "--samples", "3")


def test_splits_on_dask_are_the_splits_made_here(tmp_path):
    game = get_game("dingniu")
    recs = [random_record(game, "seed", c) for c in np.random.SeedSequence(31).spawn(3)]
    made = []
    for backend in ("local", "dask"):
        with Library(tmp_path / f"{backend}.sqlite") as lib:
            for rec in recs:
                lib.add(rec, seat=2)
            pairs, _ = luck.split_library(lib, Filter(), seed=9, deal_samples=32,
                                          backend=backend)
            made.append([s for _, s in pairs])
            kept, _ = luck.split_library(lib, Filter(), seed=9, deal_samples=32)
            assert [s for _, s in kept] == made[-1]  # each kept as it was made
    assert made[0] == made[1]


def test_after_a_rebellion_the_deal_is_the_one_played():
    deal_of = get_game("shengji").part("luck").deal_of
    rec = {"hands": ["a"] * 4, "kitty": "k", "redeals": [{"hands": ["b"] * 4, "kitty": "k2"}]}
    assert deal_of(rec) == {"hands": ["b"] * 4, "kitty": "k2", "redeals": []}
    assert deal_of({**rec, "redeals": []})["hands"] == ["a"] * 4
    assert get_game("xianniu").part("luck").deal_of(rec) is rec
