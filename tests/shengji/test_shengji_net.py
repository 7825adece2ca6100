"""The 双升 policy net: its plays replay legal in the reference engine, its inputs and choice
do not change when the cards its seat cannot see are redealt consistently with the public
facts, the knowledge the kernels keep is the engine's view, the shipped weights' stored check
replays, and its self-play training is reproducible (resumed runs, thread counts)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from analyzer.core.mlp import FitSettings
from analyzer.core.selfplay import TrainConfig, Trainer
from analyzer.shengji import crosscheck as wr
from analyzer.shengji.actions import PLAY, Action
from analyzer.shengji.net import net_row, net_weights, shipped_info
from analyzer.shengji.net_train import ShengjiSelfPlay, action_hash, net_hands
from analyzer.shengji.rules import CLASSIC, ZHENGZHOU
from analyzer.shengji.sim import rule_arrays, tuned_row
from kernels.rng import states_from_seed
from kernels.shengji import game as kw
from kernels.shengji import hand as kh
from kernels.shengji import pimc as kpm
from kernels.shengji import policies as kp
from kernels.shengji.context import CX_SUIT_MASK, new_context
from kernels.shengji.net import net_choose
from kernels.shengji.planes import cards_of, count, planes_of, subtract
from kernels.shengji.units import effective_suit, new_units, new_work
from tests.shengji.test_shengji_pimc import knowledge_from_view

PRESETS = [ZHENGZHOU, CLASSIC]
IDS = ["zhengzhou", "classic"]
SAMPLE_TRIES = 40  # sample_hidden calls allowed per redeal


def shipped_row(rules) -> np.ndarray:
    return net_row(tuned_row(rules), *net_weights(rules))


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_net_plays_replay_legal_in_the_engine(rules):
    mixed = wr.kernel_hands(150, rules, 41, (2, 2), 0, policies="net,tuned,net,tuned")
    bad = wr.replay_all(mixed, rules)
    assert not bad, bad[0]
    alone = net_hands(shipped_row(rules), rules.name, 43, 150)
    bad = wr.replay_all(alone, rules)
    assert not bad, bad[0]


def knowledge_with_plays(view) -> np.ndarray:
    """The seat's knowledge (``kernels.shengji.policies``) from the engine's view: the
    public seat of the final kitty's burier, the cards each seat has played (``KN_BY``)
    and, as ``KN_SHOWN``, the cards it is known to hold plus those it has played, so that
    shown less played is the view's cards known to be held."""
    kn = knowledge_from_view(view)
    if view.kitty_takers:  # each kitty-taker buries: the last one buried the final kitty
        kn[kp.KN_KITTY_SEAT] = view.kitty_takers[-1]
    for leader, plays in view.tricks:
        for i, p in enumerate(plays):
            s = (leader + i) % 4
            one, two = planes_of(p)
            b1, b2 = kn[kp.KN_BY + 2 * s], kn[kp.KN_BY + 2 * s + 1]
            kn[kp.KN_BY + 2 * s], kn[kp.KN_BY + 2 * s + 1] = b1 | one, b2 | two | (b1 & one)
    for s in range(4):
        kn[kp.KN_SHOWN + 2 * s], kn[kp.KN_SHOWN + 2 * s + 1] = planes_of(
            view.known_cards[s] + tuple(f for leader, plays in view.tricks
                                        for i, p in enumerate(plays)
                                        if (leader + i) % 4 == s for f in p))
    return kn


def _decide(seat, row, kn, trick, where, h, rules):
    """net's play, and its inputs, at one decision with every hand ``h``."""
    pst = kpm.new_pimc_scratch()
    rng = states_from_seed(3, 1)[0]
    play = net_choose((seat, row, kn.copy()), trick, where, h, rules, rng, pst,
                      (new_units(), new_work()))
    return play, pst[5][0].copy()


def logged_decisions(hands, rules, n_hands: int, every: int):
    """Every ``every``-th lead or follow of the first ``n_hands`` logged kernel hands, replayed
    in the engine: ``(seat, knowledge from its view, trick, where, true hands, rules arrays,
    view, logged play)``; the engine state moves on by the logged play after each."""
    params = rule_arrays(rules)
    for hd in range(n_hands):
        st = wr.start_state(hands, hd, rules)
        assert wr._bidding(st, hands.alogs[hd], int(hands.chances[hd, kw.CH_ACTIONS])) is None
        ctx = new_context(st.trump, st.level, rules.nt_level_joker_tractor)
        tlog = hands.tlogs[hd]
        for t in range(int(hands.res[hd, kw.W_PLAY + kh.R_TRICKS])):
            leader = int(tlog[t, kh.LG_LEADER])
            plays = np.zeros((4, 2), dtype=np.int64)
            r = tlog[t]
            for k in range(4):
                seat = (leader + k) % 4
                logged = (r[kh.LG_ATTEMPT], r[kh.LG_ATTEMPT + 1]) if k == 0 else \
                    (r[kh.LG_PLAYS + 2 * k], r[kh.LG_PLAYS + 2 * k + 1])
                if (t + k) % every == 0:
                    view = st.view(seat)
                    true_h = np.array([planes_of(st.hands[j]) for j in range(4)],
                                      dtype=np.int64)
                    yield (seat, knowledge_with_plays(view), (plays, k), (leader, st.banker),
                           true_h, (ctx, params), view, tuple(int(v) for v in logged))
                plays[k] = (r[kh.LG_PLAYS], r[kh.LG_PLAYS + 1]) if k == 0 else logged
                st.apply(Action(PLAY, cards_of(int(logged[0]), int(logged[1]))), seat)


def redeal(seat, true_h, kn, rules, view, state) -> np.ndarray:
    """The four hands with the cards ``seat`` cannot place dealt anew by the pimc sampler."""
    scratch = kpm.new_pimc_scratch()
    ps, buf = scratch[0], scratch[2]
    buf[kpm.BUF_SIZES:kpm.BUF_SIZES + 4] = view.hand_sizes
    # the true deal fits the public facts, but the sampler's 50 random placements can all
    # dead-end late in a hand with many voids (about 1 call in 300 here, each retry
    # succeeding at least 40% of the time)
    assert any(kpm.sample_hidden(seat, true_h[seat, 0], true_h[seat, 1], kn, rules[0], state,
                                 ps, buf) for _ in range(SAMPLE_TRIES))
    return ps[kpm.PS_HANDS:kpm.PS_HANDS + 4].copy()


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_net_reads_nothing_its_seat_cannot_see(rules):
    row = shipped_row(rules)
    hands = net_hands(row, rules.name, 47, 12)
    state = states_from_seed(5, 1)[0]
    checked = differ = same = 0
    for seat, kn, trick, where, true_h, arrays, view, logged in logged_decisions(
            hands, rules, 12, 3):
        play, inputs = _decide(seat, row, kn, trick, where, true_h, arrays)
        same += int(play == logged)  # the kernel's choice
        for _ in range(3):
            other_h = redeal(seat, true_h, kn, arrays, view, state)
            differ += int(not np.array_equal(other_h, true_h))
            play2, inputs2 = _decide(seat, row, kn, trick, where, other_h, arrays)
            assert play2 == play
            np.testing.assert_array_equal(inputs2, inputs)
        checked += 1
    assert checked > 100 and differ > checked
    assert same == checked  # the knowledge rebuilt from the view is the kernel's


def _held(kn, s):
    # the cards seat s is known to hold: shown less played, per face
    return kpm._held_still(kn[kp.KN_SHOWN + 2 * s], kn[kp.KN_SHOWN + 2 * s + 1],
                           kn[kp.KN_BY + 2 * s], kn[kp.KN_BY + 2 * s + 1])


def _same_knowledge(kernel, rebuilt, seat):
    """The fields a seat reads agree: cards played (by all, by each seat), voids, the
    burier, the kitty for the burier, and each seat's cards known to be held."""
    read = [kp.KN_PLAYED, kp.KN_PLAYED + 1, kp.KN_KITTY_SEAT] + \
        [kp.KN_VOID + s for s in range(4)] + list(range(kp.KN_BY, kp.KN_BY + 8))
    if kernel[kp.KN_KITTY_SEAT] == seat:
        read += [kp.KN_KITTY, kp.KN_KITTY + 1]
    return np.array_equal(kernel[read], rebuilt[read]) and \
        all(_held(kernel, s) == _held(rebuilt, s) for s in range(4))


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_the_kernels_knowledge_is_the_engines(rules):
    """The note_* calls of a logged hand, replayed in the kernels' order (declarations and
    buries in the action log; per trick a failed throw's shown cards, then the plays), keep
    at every play the knowledge the engine's view of the seat to play gives."""
    hands = wr.kernel_hands(40, rules, 23, (2, 2), None)  # random: 扒鸡窝, failed throws
    checked = shown = 0
    for hd in range(40):
        st = wr.start_state(hands, hd, rules)
        n_actions = int(hands.chances[hd, kw.CH_ACTIONS])
        assert wr._bidding(st, hands.alogs[hd], n_actions) is None
        ctx = new_context(st.trump, st.level, rules.nt_level_joker_tractor)
        kn = kp.new_knowledge()
        for a in hands.alogs[hd, :n_actions]:
            if a[kw.AL_KIND] == kw.K_DECLARE:
                kp.note_shown(kn, a[kw.AL_SEAT], a[kw.AL_ONE], a[kw.AL_TWO])
            elif a[kw.AL_KIND] == kw.K_BURY:
                kp.note_bury(kn, a[kw.AL_SEAT], a[kw.AL_ONE], a[kw.AL_TWO])
        kp.reset_play(kn)
        for t in range(int(hands.res[hd, kw.W_PLAY + kh.R_TRICKS])):
            r = [int(v) for v in hands.tlogs[hd, t]]
            leader = r[kh.LG_LEADER]
            attempt = r[kh.LG_ATTEMPT], r[kh.LG_ATTEMPT + 1]
            for k in range(4):
                seat = (leader + k) % 4
                assert _same_knowledge(kn, knowledge_with_plays(st.view(seat)), seat)
                checked += 1
                shown += any(_held(kn, s) != (0, 0) for s in range(4))
                play = r[kh.LG_PLAYS + 2 * k], r[kh.LG_PLAYS + 2 * k + 1]
                if k == 0:
                    if play != attempt:
                        kp.note_shown(kn, seat, *subtract(*attempt, *play))
                    kp.note_play(kn, seat, *play, 0, 0, 0)
                    e = effective_suit(play[0], ctx)
                    mask, n = ctx[CX_SUIT_MASK + e], count(*play)
                else:
                    kp.note_play(kn, seat, *play, e, mask, n)
                st.apply(Action(PLAY, cards_of(*(attempt if k == 0 else play))), seat)
    assert checked > 3000 and shown > 300


@pytest.mark.parametrize("rules", ["zhengzhou", "classic"])
def test_the_shipped_weights_stored_check_replays(rules):
    check = shipped_info()[rules]["check"]
    assert action_hash(shipped_row(rules), rules, check["seed"], check["hands"]) \
        == check["sha256"]


def _config(rounds):
    return TrainConfig(seed=5, rounds=rounds, hands=96, tasks=2, explore=0.1, window=2,
                       fit=FitSettings(epochs=1, batch=256), eval_deals=16)


def test_training_resumes_to_the_same_weights(tmp_path):
    game = ShengjiSelfPlay("classic", log_rate=0.2)
    straight = Trainer(game, _config(2), tmp_path / "a").run()
    a = Trainer(game, _config(2), tmp_path / "a").load_weights(1)
    Trainer(game, _config(1), tmp_path / "b").run()
    resumed = Trainer(game, _config(2), tmp_path / "b").run()
    b = Trainer(game, _config(2), tmp_path / "b").load_weights(1)
    np.testing.assert_array_equal(a, b)
    assert straight["history"][1]["eval"] == resumed["history"][1]["eval"]


def test_training_is_the_same_on_one_and_two_threads(tmp_path):
    game = ShengjiSelfPlay("zhengzhou", log_rate=0.2)
    before = numba.get_num_threads()
    out = []
    try:
        for threads in (1, min(2, numba.config.NUMBA_NUM_THREADS)):
            numba.set_num_threads(threads)
            Trainer(game, _config(1), tmp_path / f"t{threads}").run()
            out.append(Trainer(game, _config(1), tmp_path / f"t{threads}").load_weights(0))
    finally:
        numba.set_num_threads(before)
    np.testing.assert_array_equal(out[0], out[1])
