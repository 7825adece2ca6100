"""xianniu advise: every legal action valued by paired play-outs on hidden deals."""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from analyzer.xianniu import advise as adv
from analyzer.xianniu import api
from analyzer.xianniu.cards import FIVE, NINE, cards_of, is_red, parse_mask, rank_counts
from analyzer.xianniu.engine import action_key, new_hand
from analyzer.xianniu.kernel_state import ws_from_state
from analyzer.xianniu.records import action_from_json, action_to_json, record_of, replay
from analyzer.xianniu.sim import hand_records, rule_arrays
from kernels.xianniu import game as kg
from kernels.xianniu import views as kv
from tests.cli_checks import bad, ok, write_json

RULES = ["lanzhou", "kanniutui"]


def _decision_cuts(record: dict, every: int = 1) -> list[dict]:
    """The record cut at every ``every``-th point where the seat to act has a choice."""
    cuts = []
    for k in range(len(record["actions"])):
        part = {**record, "actions": record["actions"][:k]}
        if len(replay(part).legal_actions()) > 1:
            cuts.append(part)
    return cuts[::every]


def _equivalent(a, b) -> bool:
    """The stated grouping, written apart: same kind, same cards per rank, and for 9s and 5s
    the same cards per colour."""
    if a.kind != b.kind or rank_counts(a.cards) != rank_counts(b.cards):
        return False
    for r in (NINE, FIVE):
        reds = [sum(1 for c in cards_of(m) if c >> 2 == r and is_red(c)) for m in (a.cards, b.cards)]
        if reds[0] != reds[1]:
            return False
    return True


# -- the listed actions --------------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("policies,hands", [("random", 4), ("heuristic", 6),
                                            ("pimc,heuristic,random", 1)])
def test_listed_actions_are_the_engines_up_to_the_grouping(rules, policies, hands):
    seen = 0
    for rec in hand_records(hands, rules, policies, seed=11):
        for part in _decision_cuts(rec, every=2 if policies == "random" else 1):
            state = replay(part)
            seat = state.current_player()
            listed = adv.legal_actions(part)
            groups = [[action_from_json(e)[1] for e in g["group"]] for g in listed]
            flat = [a for g in groups for a in g]
            assert sorted(flat, key=action_key) == state.legal_actions()
            for g, entry in zip(groups, listed):
                assert entry["action"] == entry["group"][0] == action_to_json(seat, g[0])
                assert all(_equivalent(g[0], a) for a in g)
            for i, g in enumerate(groups):  # maximal: no two groups could merge
                assert not any(_equivalent(g[0], h[0]) for h in groups[i + 1:])
            # the kernels list the same actions (else _options raises)
            options = adv._options(ws_from_state(state), rule_arrays(state.rules),
                                   adv._groups(state))
            assert len(set(options.tolist())) == len(groups)
            seen += 1
    assert seen > 0


def test_grouping_merges_cards_the_rules_cannot_tell_apart():
    state = new_hand(_deal(), "lanzhou")
    groups = adv._groups(state)
    singles_k = [g for g in groups if g[0].kind == "play" and g[0].cards in
                 {parse_mask(c) for c in ("Ks", "Kh", "Kc", "Kd")}]
    assert len(singles_k) == 1 and len(singles_k[0]) == 4
    # 9♠ 9♥ is 牛; 9♠ alone and 9♥ alone differ in colour: not merged
    nines = [g for g in groups if g[0].cards in (parse_mask("9s"), parse_mask("9h"))]
    assert [len(g) for g in nines] == [2, 1]  # 9♠ 9♣ (black), 9♥


# -- a sure 刺 ------------------------------------------------------------------------------

SEAT0 = "Ks Kh Kc Kd Qs Qh Qc Qd 9s 9h 9c 8s 6s 3s 2s As"
SEAT1 = "Ad 2h 2c 2d 5s 5c 5d 8h 8c 8d 9d 10s 10c 10d Jc Jd"


def _deal() -> list[int]:
    h0, h1 = parse_mask(SEAT0), parse_mask(SEAT1)
    return [h0, h1, ((1 << 48) - 1) & ~h0 & ~h1]


# Seat 0 captures KKK, QQQ, 牛 999 and K♦ (10 cards, no 亮); seat 2 captures 10♥ and 7777
# (table 15) and leads 5♥. Seat 0 answers in the middle: Q♦ can no longer be beaten and is
# the 11th card (刺, and the table is full); 8♠ or 6♠ is beaten by seat 1 unless it holds
# nothing above them, and then the hand ends with seat 0 only 够.
_SURE_CI = [(0, "Ks Kh Kc"), (1, ""), (2, ""), (0, "Qs Qh Qc"), (1, ""), (2, ""),
            (0, "9s 9h 9c"), (1, ""), (2, ""), (0, "Kd"), (1, ""), (2, ""),
            (0, "As"), (1, "2h"), (2, "10h"), (2, "7s 7h 7c 7d"), (0, ""), (1, ""), (2, "5h")]


def _sure_ci_record(rules: str) -> dict:
    state = new_hand(_deal(), rules)
    for seat, cards in _SURE_CI:
        entry = {"seat": seat, "action": "play", "cards": cards} if cards else \
            {"seat": seat, "action": "pass"}
        state.apply(action_from_json(entry)[1])
    assert state.phase == "trick" and state.current_player() == 0 and state.table_count() == 15
    return record_of(state)


@pytest.mark.parametrize("rules", RULES)
def test_the_sure_ci_lead_ranks_first_and_separated(rules):
    res = adv.advise(_sure_ci_record(rules), seed=3, samples=4000)
    assert res.best.action == {"seat": 0, "action": "play", "cards": "Q♦"}
    assert res.separated and res.actions[1].diff["low"] > 0
    # 刺 (11 cards: 4) and 牛 (3) from each of the two losers, on every deal
    assert res.best.ev == 14 and res.best.ci95 == (14, 14)
    assert len(res.actions) == 3 and all(a.ev < 14 for a in res.actions[1:])
    # ranked by the paired gap to the best, every action listed once with its n and CI
    gaps = [a.diff["value"] for a in res.actions]
    assert gaps == sorted(gaps) and gaps[0] == 0
    assert all(a.ci95[0] <= a.ev <= a.ci95[1] and a.n >= 2 for a in res.actions)
    assert {json.dumps(a.action) for a in res.actions} == \
        {json.dumps(g["action"]) for g in adv.legal_actions(_sure_ci_record(rules))}


def test_a_mislabelled_ranking_is_caught(monkeypatch):
    """Teeth: with the play-outs assigned to the wrong actions, the sure 刺 is not first."""
    real = adv._options
    monkeypatch.setattr(adv, "_options", lambda *a: np.roll(real(*a), 1))
    res = adv.advise(_sure_ci_record("lanzhou"), seed=3, samples=2000)
    assert res.best.action != {"seat": 0, "action": "play", "cards": "Q♦"}


# -- reproducible, replayable --------------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_same_seed_same_json_and_every_action_replays(rules):
    rec = hand_records(1, rules, "heuristic", seed=5)[0]
    part = _decision_cuts(rec)[0]
    a = api.advise(part, seed=9, samples=600).to_json()
    b = api.advise(json.dumps(part), seed=9, samples=600).to_json()
    assert a == b and a["seed"] == 9 and a["rules"] == rules and a["game"] == "xianniu"
    assert a["best"] == a["actions"][0] and isinstance(a["separated"], bool)
    for entry in a["actions"]:
        for action in entry["group"]:
            replay({**part, "actions": part["actions"] + [action]})
    threads = numba.get_num_threads()
    try:  # the chunks' streams fix the numbers, not the threads that run them
        numba.set_num_threads(1)
        assert api.advise(part, seed=9, samples=600).to_json() == a
    finally:
        numba.set_num_threads(threads)
    drawn = api.advise(part, samples=300)  # no seed: one is drawn and reported
    assert drawn.seed >= 0 and api.advise(part, samples=300, seed=drawn.seed) == drawn


def test_samples_cap_and_progress():
    calls = []
    res = adv.advise(_sure_ci_record("kanniutui"), seed=1, samples=100, precision=1e-9,
                     progress=lambda done, total: calls.append((done, total)))
    assert res.deals == 100 and res.stopped in ("samples", "leader alone")
    assert calls and calls[-1] == (100, 100)


# -- the 抢刺 facts the sampler must respect ------------------------------------------------

LONG_FENG = "As Ah 2s 2h 3s 3h Ks Kh 10s 10h 8s 8h 5s 6h 7c Jd"  # 龙凤 and four more


def test_qiangci_facts_are_read_from_the_record_and_enforced():
    h1 = parse_mask(LONG_FENG)  # seat 1 holds 龙凤 (lanzhou: optional, it passes)
    rest = [c for c in range(48) if not h1 >> c & 1]
    h0 = sum(1 << c for c in rest[0::2])
    deal = [h0, h1, ((1 << 48) - 1) & ~h0 & ~h1]
    state = new_hand(deal, "lanzhou")
    assert state.phase == "qiangci" and state.current_player() == 1
    state.apply(state.legal_actions()[-1])  # pass
    assert adv.qiangci_known(state).tolist() == [-1, 1, 0]
    ws = ws_from_state(state)
    params = rule_arrays(state.rules)[0]
    assert kv.qiangci_consistent(ws, np.array([-1, 1, 0]), params)
    # teeth: the true deal breaks each contrary fact
    assert not kv.qiangci_consistent(ws, np.array([-1, 0, 0]), params)
    swapped = ws.copy()
    swapped[kg.WS_HANDS + 1], swapped[kg.WS_HANDS + 2] = ws[kg.WS_HANDS + 2], ws[kg.WS_HANDS + 1]
    assert not kv.qiangci_consistent(swapped, np.array([-1, 1, 0]), params)
    # mandatory (kanniutui): seat 1 plays it; seat 0 before it held none, seat 2 unknown
    forced = new_hand(deal, "kanniutui")
    forced.apply(forced.legal_actions()[0])
    assert forced.current_player() == 1 and adv.qiangci_known(forced).tolist() == [0, -1, -1]
    # a deal without any 抢刺: nobody held one
    plain = new_hand(_deal(), "kanniutui")
    plain.apply(plain.legal_actions()[0])
    assert plain.current_player() == 1 and adv.qiangci_known(plain).tolist() == [0, -1, 0]


# -- the command ---------------------------------------------------------------------------


def test_cli_table_and_json(capsys, tmp_path):
    path = write_json(tmp_path / "rec.json", _sure_ci_record("lanzhou"))
    out = ok(capsys, "advise", path, "--seed", "2", "--samples", "1000")
    assert "Q♦" in out.splitlines()[3] and "n=" in out and "separated" in out
    data = json.loads(ok(capsys, "advise", path, "--seed", "2", "--samples", "1000", "--json"))
    assert data["best"]["action"]["cards"] == "Q♦" and data["policy"] == "net"  # the default
    assert {"game", "rules", "seed", "seat", "phase", "actions", "best",
            "separated"} <= set(data)
    appended = {**_sure_ci_record("lanzhou")}
    appended["actions"] = appended["actions"] + [data["best"]["action"]]
    ok(capsys, "replay", write_json(tmp_path / "next.json", appended))


def test_cli_bad_input_exits_2(capsys, tmp_path):
    rec = _sure_ci_record("lanzhou")
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    assert "error" in bad(capsys, "advise", str(tmp_path / "broken.json"))
    bad(capsys, "advise", write_json(tmp_path / "hands.json", {"hands": 3}))
    bad(capsys, "advise", write_json(tmp_path / "illegal.json", {
        **rec, "actions": rec["actions"] + [{"seat": 1, "action": "pass"}]}))
    over = {**rec, "actions": rec["actions"] + [{"seat": 0, "action": "play", "cards": "Qd"},
                                                 {"seat": 1, "action": "pass"}]}
    assert replay(over).is_terminal()
    assert "over" in bad(capsys, "advise", write_json(tmp_path / "over.json", over))
    forced = {**rec, "actions": rec["actions"][:1]}  # seat 1 can only pass on KKK
    assert "one legal action" in bad(capsys, "advise",
                                     write_json(tmp_path / "forced.json", forced))
    path = write_json(tmp_path / "rec.json", rec)
    bad(capsys, "advise", path, "--policy", "nonsense")
    bad(capsys, "advise", path, "--samples", "1")
    bad(capsys, "advise", path, "--precision", "0")
