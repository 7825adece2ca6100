"""The best-response measure (analyzer.core.exploit) and its setup in every game: the
seatings, the gain's arithmetic, the pairing that makes a copy of the player gain exactly
nothing, and gains whose sign is known."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.exploit import BestResponse, best_response_lines, responder_seatings, seat_gains
from analyzer.dingniu import tournament as dn
from analyzer.shengji import tournament as sj
from analyzer.xianniu import tournament as xn


def test_seatings_are_the_player_everywhere_then_the_responder_alone_in_each_seat():
    assert responder_seatings(3) == [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    assert len(responder_seatings(4)) == 5


def test_a_seat_s_gain_is_its_result_with_the_responder_less_with_the_player():
    points = np.zeros((2, 4, 3), dtype=np.int64)
    points[:, 0] = [[1, 2, -3], [0, 0, 0]]  # the player everywhere
    points[0, 1] = [4, -2, -2]  # responder in seat 0: 4 where the player made 1
    points[0, 2] = [0, 5, -5]
    points[0, 3] = [1, 2, -3]
    gains = seat_gains(points)
    assert gains.tolist() == [[3.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
    res = BestResponse("p", "r", "x", 0, "points", gains)
    assert res.gain().value == pytest.approx(1.0)  # deal 0 gains 2, deal 1 nothing
    assert [e.value for e in res.by_seat()] == [1.5, 1.5, 0.0]
    with pytest.raises(ValueError, match="seatings"):
        seat_gains(points[:, :3])


def test_the_text_says_the_bound_only_when_the_ci_excludes_0():
    sure = BestResponse("p", "r", "x", 0, "points", np.full((50, 3), 1.0)
                        + np.linspace(-0.1, 0.1, 150).reshape(50, 3))
    text = "\n".join(best_response_lines(sure.as_dict()))
    assert "can be exploited by at least" in text and "n=50" in text
    unsure = BestResponse("p", "r", "x", 0, "points", np.linspace(-1, 1, 150).reshape(50, 3))
    assert "holds 0" in "\n".join(best_response_lines(unsure.as_dict()))
    worse = BestResponse("p", "r", "x", 0, "points", -sure.gains)
    assert "does worse than p" in "\n".join(best_response_lines(worse.as_dict()))


# each game: its play of the seatings with the same policy as player and responder
def _xianniu_same(n, seed):
    r = xn.get_rules("lanzhou")
    ids, vecs = xn.policy_rows(["tuned2", "tuned2"], r)
    return xn.play_seatings(ids, vecs, responder_seatings(3), n, r, seed)


def _dingniu_same(n, seed):
    r = dn.get_rules(None)
    vec = dn.policy_vector("heuristic", r)
    return dn.play_seatings([dn.POLICY_IDS["heuristic"]] * 2, [vec, vec],
                            responder_seatings(4), n, seed, r)


def _shengji_same(n, seed):
    rows = sj.play_duplicate(["net", "net"], n, sj.get_rules(None), seed,
                             seatings=responder_seatings(4))
    return sj.seat_margins(rows)


@pytest.mark.parametrize("same", [_xianniu_same, _dingniu_same, _shengji_same],
                         ids=["xianniu", "dingniu", "shengji"])
def test_a_copy_of_the_player_gains_exactly_nothing(same):
    """Every seating of a deal plays from one stream: a responder that plays as the player
    does reaches the same end on every deal, so any gain measured is the responder's."""
    points = same(64, 5)
    assert np.abs(points[:, 0]).sum() > 0  # hands were played, with results
    assert not seat_gains(points).any()


def test_shengji_margins_are_the_seat_team_s_levels_less_the_other_team_s():
    from kernels.shengji import game as kw

    rows = np.zeros((1, 1, kw.N_WHOLE), dtype=np.int64)
    rows[0, 0, kw.W_WINNER_TEAM], rows[0, 0, kw.W_GAIN] = 1, 2
    assert sj.seat_margins(rows)[0, 0].tolist() == [-2, 2, -2, 2]


def test_dingniu_search_over_the_player_exploits_it_and_random_does_not():
    """pimc with the player's own play-outs gains over the heuristic (measured +1.0 points a
    hand, docs/policies.md); random in one seat surely loses."""
    found = dn.best_response(300, seed=3)
    assert found.gain().low > 0, found.gain()
    assert found.meta["pimc_samples"] == 24 and found.responder == "pimc"
    lost = dn.best_response(300, seed=3, responder="random")
    assert lost.gain().high < 0, lost.gain()
    assert dn.best_response(300, seed=3).gains.tolist() == found.gains.tolist()  # seeded


def test_dingniu_pimc_responder_plays_out_with_the_player_s_weights(monkeypatch):
    seen = {}

    def play(ids, vecs, seats, n, seed, r):
        seen["vecs"] = vecs
        return np.zeros((n, len(seats), 4), dtype=np.int64)
    monkeypatch.setattr(dn, "play_seatings", play)
    r = dn.get_rules(None)
    dn.best_response(4, player="tuned")
    tuned = dn.policy_vector("tuned", r)
    assert seen["vecs"][1][:dn.kp.H_SAMPLES].tolist() == tuned[:dn.kp.H_SAMPLES].tolist()
    dn.best_response(4, player="heuristic")
    plain = dn.policy_vector("heuristic", r)
    assert seen["vecs"][1][:dn.kp.H_SAMPLES].tolist() == plain[:dn.kp.H_SAMPLES].tolist()
    assert plain[:dn.kp.H_SAMPLES].tolist() != tuned[:dn.kp.H_SAMPLES].tolist()


@pytest.mark.parametrize("run", [
    lambda **kw: xn.best_response(30, "lanzhou", 1, "net", "random", **kw),
    lambda **kw: sj.best_response(30, None, 1, player="net", responder="random", **kw),
], ids=["xianniu", "shengji"])
def test_random_alone_surely_loses_and_progress_counts_every_deal(run):
    done = []
    res = run(progress=done.append)
    assert sum(done) == 30
    assert res.gain().high < 0, res.gain()
    assert res.gains.shape[0] == 30


@pytest.mark.parametrize("call,message", [
    (lambda: xn.best_response(10, None, 0, "net", "net"), "must differ"),
    (lambda: xn.best_response(1, None, 0, "net", "tuned"), "at least 2 deals"),
    (lambda: xn.best_response(10, None, 0, "net", "nobody"), "unknown policy"),
    (lambda: dn.best_response(10, 0, None, "pimc", "pimc"), "must differ"),
    (lambda: dn.best_response(10, 0, None, "heuristic", "pimc", pimc_samples=0), "samples"),
    (lambda: sj.best_response(10, None, 0, player="net", responder="nobody"),
     "unknown policy"),
    (lambda: sj.best_response(1, None, 0, player="net", responder="tuned"), "2 deals"),
])
def test_bad_input_is_refused_before_any_hand(call, message):
    with pytest.raises(ValueError, match=message):
        call()
