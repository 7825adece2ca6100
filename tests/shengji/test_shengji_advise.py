"""``xianniu shengji advise`` and ``review``: the listing is the engine's legal actions (up to
the stated cap), a clearly winning action ranks first and separated, answers are paired and
seeded, JSON actions replay, bad records fail cleanly; should-declare answers its question."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
from cli_checks import bad, ok, write_json

from analyzer.shengji import advise as adv
from analyzer.shengji import combos
from analyzer.shengji.actions import PLAY, Action
from analyzer.shengji.advise_playouts import play_query
from analyzer.shengji.cards import points
from analyzer.shengji.engine import new_hand, random_action
from analyzer.shengji.records import action_to_json, record_of, replay


def record_entry(st, a):
    return action_to_json(st.turn, a)

QUICK = {"samples": 512, "precision": 0.25}


def _position(seed: int, phase: str, skip: int = 0, rules: str = "zhengzhou"):
    """A random hand played at random to its ``skip``-th decision of ``phase`` (lead,
    follow, declare, bury, rebel), or None; one hand in four a 搶莊局."""
    rng = random.Random(seed)
    banker = None if seed % 4 == 3 else rng.randrange(4)
    st = new_hand(rules, (rng.randint(2, 14), rng.randint(2, 14)), banker, rng=rng)
    seen = 0
    while not st.is_terminal():
        if adv._phase_name(st) == phase:
            if seen == skip:
                return st
            seen += 1
        st.apply(random_action(st, rng))
    return None


def _positions(phase: str, k: int, skip_range=(0, 1), rules: str = "zhengzhou", limit=400):
    out, seed = [], 0
    while len(out) < k and seed < limit:
        st = _position(seed, phase, random.Random(seed).randint(*skip_range), rules)
        if st is not None:
            out.append(st)
        seed += 1
    assert len(out) == k, f"found {len(out)} {phase} positions"
    return out


def _sub_multisets(counts, n):
    """Every way to take ``n`` cards from ``counts`` ((card, copies) pairs, sorted by card),
    each as a sorted tuple."""
    if n == 0:
        yield ()
        return
    if sum(c for _, c in counts) < n:
        return
    (card, copies), rest = counts[0], counts[1:]
    for m in range(min(copies, n), -1, -1):
        for tail in _sub_multisets(rest, n - m):
            yield (card,) * m + tail


def _brute_plays(st) -> set[tuple[int, ...]]:
    """Every sub-multiset of the hand (of the lead's size when following) the engine accepts."""
    hand = st.hands[st.turn]
    counts = sorted(Counter(hand).items())
    size = len(st.tricks[-1].plays[0]) if st.tricks[-1].plays else None
    sizes = [size] if size is not None else range(1, len(hand) + 1)
    return {cards for n in sizes for cards in _sub_multisets(counts, n)
            if st.can(Action(PLAY, cards))}


@pytest.mark.parametrize("phase", ["follow", "lead"])
def test_late_plays_list_exactly_the_engine_legal_actions(phase):
    # late in the hand the whole hand can be tried by brute force
    for st in _positions(phase, 6, (14, 20)):
        legal = _brute_plays(st)
        _, listing = adv.listing_of(st)
        got = [a.cards for a in listing.actions]
        assert len(got) == len(set(got))
        if listing.complete:
            assert set(got) == legal
            assert listing.legal == len(legal)
        else:
            assert set(got) <= legal and len(got) == adv.MAX_VALUED
            assert listing.legal in (None, len(legal))


def test_follows_early_list_every_legal_follow_or_a_legal_capped_sample():
    for st in _positions("follow", 8, (0, 6)):
        legal = _brute_plays(st)
        _, listing = adv.listing_of(st)
        got = {a.cards for a in listing.actions}
        assert got <= legal
        if listing.complete:
            assert got == legal
        else:
            assert len(got) == min(adv.MAX_VALUED, len(legal)) and listing.legal == len(legal)


def test_leads_early_hold_every_unit_and_only_legal_throws():
    for st in _positions("lead", 6, (1, 4)):
        _, listing = adv.listing_of(st)
        got = [a.cards for a in listing.actions]
        assert set(st.legal_leads()) <= set(got)
        assert all(st.can(Action(PLAY, c)) for c in got)
        assert any(adv._is_throw(c, st) for c in got) == any(
            len(combos.decompose(st.play_ctx.suit_cards(st.hands[st.turn], e),
                                     st.play_ctx)) >= 2
            for e in st.play_ctx.esuits(st.hands[st.turn]))


@pytest.mark.parametrize("phase", ["declare", "bajiwo", "rebel"])
def test_bidding_lists_exactly_the_engine_legal_actions(phase):
    found, kinds = 0, set()
    for seed in range(3000):
        st = _position(seed, phase)
        if st is None or (phase != "rebel" and len(st.legal_actions()) < 2):
            continue
        _, listing = adv.listing_of(st)
        assert listing.actions == st.legal_actions() and listing.complete
        res = adv.advise(st, seed=seed, **QUICK).to_json()
        assert [r["action"] for r in sorted(res["actions"], key=lambda r: str(r["action"]))] \
            == sorted((record_entry(st, a) for a in listing.actions), key=str)
        kinds.add((st.grab, st.round))
        found += 1
        if found == 6:
            break
    assert found >= 1
    if phase == "declare":
        assert (True, 1) in kinds and (False, 1) in kinds  # a 搶莊局 and a normal hand


def test_bury_lists_legal_buries_and_the_candidate():
    for st in _positions("bury", 3, (0, 0)) + _positions("bury", 2, (1, 1)):
        mine = st.hands[st.turn]
        cand = tuple(sorted(mine)[-8:])
        _, listing = adv.listing_of(st, candidates=[cand])
        assert Action("bury", cand) in listing.actions
        assert all(st.can(a) for a in listing.actions) and not listing.complete


def _winning_trick_position(limit: int = 400):
    """A follow as the trick's last seat, 25+ points on the table won by an opponent, the
    seat able to win it or not."""
    for seed in range(limit):
        rng = random.Random(seed)
        st = new_hand("zhengzhou", (2, 2), rng.randrange(4), rng=rng)
        while not st.is_terminal():
            t = st.tricks[-1] if st.tricks else None
            if st.phase == "play" and t is not None and len(t.plays) == 3 and len(st.tricks) < 15:
                if sum(points(play) for play in t.plays) >= 25:
                    _, listing = adv.listing_of(st)
                    wins = [a for a in listing.actions if _takes(st, a)]
                    if wins and len(wins) < len(listing.actions):
                        return st, {a.cards for a in wins}
            st.apply(random_action(st, rng))
    raise AssertionError("no position found")


def _takes(st, a) -> bool:
    c = st.clone()
    c.apply(a)
    return c.tricks[-2].winner % 2 == st.turn % 2


def test_a_clearly_winning_action_ranks_first_and_separated():
    st, wins = _winning_trick_position()
    res = adv.advise(record_of(st), seed=7, samples=4096, precision=0.05).to_json()
    first = res["actions"][0]
    assert Action(PLAY, first["action"]["cards"]).cards in wins
    assert res["separated"]
    gaps = [a["diff"] for a in res["actions"][1:]
            if Action(PLAY, a["action"]["cards"]).cards not in wins]
    assert gaps and all(g["low"] > 0 for g in gaps)
    for look in (0, 48, 512, "64", 64.0, True):
        try:
            adv.advise(record_of(st), seed=7, samples=64, look=look)
        except ValueError as e:
            assert "look must be a multiple of 32 deals" in str(e)
        else:
            raise AssertionError(f"look={look!r} was taken")


def test_advice_is_paired_seeded_and_its_actions_replay(tmp_path, capsys):
    st = _positions("follow", 1, (3, 3))[0]
    record = record_of(st)
    a = adv.advise(record, seed=11, **QUICK).to_json()
    b = adv.advise(record, seed=11, **QUICK).to_json()
    assert a == b and a["seed"] == 11 and a["game"] == "shengji"
    for row in a["actions"]:
        assert set(row) >= {"action", "group", "ev", "ci95", "n", "diff"}
        assert row["group"] == [row["action"]]
        assert row["ci95"][0] <= row["ev"] <= row["ci95"][1]
        assert set(row["diff"]) == {"value", "low", "high", "n"}
    path = write_json(tmp_path / "r.json", record)
    out = json.loads(ok(capsys, "shengji", "advise", path, "--seed", "11", "--samples", "512",
                        "--precision", "0.25", "--json"))
    assert out["actions"] == a["actions"]
    for row in out["actions"]:
        replay(adv.appended(record, row["action"]))  # every listed action replays
    assert len(out["actions"]) == out["listing"]["valued"]


def test_declare_answers_declare_or_pass_first(tmp_path, capsys):
    for seed in range(3000):
        st = _position(seed, "declare")
        if st is not None and len(st.legal_actions()) >= 2:
            break
    res = adv.advise(record_of(st), seed=3, **QUICK).to_json()
    q = res["question"]
    assert q["question"] == "declare or pass"
    assert q["answer"] in ("declare", "pass", "close")
    d = q["yes_less_no"]
    assert (q["answer"] == "declare") == (d["low"] > 0)
    assert (q["answer"] == "pass") == (d["high"] < 0)
    text = ok(capsys, "shengji", "advise", write_json(tmp_path / "d.json", record_of(st)),
              "--samples", "512", "--precision", "0.25")
    assert text.splitlines()[1].startswith("declare or pass: ")


def test_bad_records_fail_in_one_line(tmp_path, capsys):
    assert "record" in bad(capsys, "shengji", "advise", write_json(tmp_path / "x.json",
                                                                    {"x": 1}))
    st = _positions("follow", 1)[0]
    rec = record_of(st)
    rec["actions"].append({"seat": (st.turn + 1) % 4, "action": "play", "cards": "3♠"})
    assert "action" in bad(capsys, "shengji", "advise", write_json(tmp_path / "y.json", rec))
    whole = _positions("follow", 1)[0]
    while not whole.is_terminal():
        whole.apply(random_action(whole, random.Random(1)))
    assert "over" in bad(capsys, "shengji", "advise", write_json(tmp_path / "z.json",
                                                                  record_of(whole)))


def test_review_values_each_decision_of_a_seat(tmp_path, capsys):
    st = _positions("follow", 1, (8, 8))[0]
    rec = record_of(st)
    out = json.loads(ok(capsys, "shengji", "review", write_json(tmp_path / "r.json", rec),
                        "--seat", str(st.turn), "--samples", "512", "--precision", "0.25",
                        "--quiet", "--json"))
    rows = out["rows"]
    assert out["unit"] == "levels" and rows
    assert all(r["seat"] == st.turn for r in rows)
    assert {r["kind"] for r in rows} <= {"rebel", "declare", "bury", "bajiwo", "lead", "throw",
                                         "follow"}
    for r in rows:
        if not r["forced"]:
            assert r["loss"]["low"] <= r["loss"]["value"] <= r["loss"]["high"]
            replay(adv.appended({**rec, "actions": rec["actions"][:r["index"]]}, r["best"]))
    text = ok(capsys, "shengji", "review", str(tmp_path / "r.json"), "--seat",
              str(st.turn), "--samples", "512", "--precision", "0.25", "--quiet")
    assert text.startswith("review of shengji")


def test_should_declare_answers_the_question_asked():
    from analyzer.shengji import api

    res = api.should_declare("大王 2h 2h Ah Ah Kh Kh Qh Jh 10h 9h 8h 7h 5h 3h As Ks Qs Jc 10c "
                             "9d 8d 7d 6d 3c", "2", 0, precision=0.1, max_deals=2048)
    by = {o["option"]: o for o in res["options"]}
    decl = [o for o in res["options"] if o["option"] != "pass"]
    best = max(decl, key=lambda o: o["ev"]["value"])
    if best["diff_vs_reference"]["low"] > 0:
        assert res["recommendation"].startswith("declare: ")
    elif best["diff_vs_reference"]["high"] < 0:
        assert res["recommendation"].startswith("pass")
    else:
        assert res["recommendation"].startswith("close: declaring")
    assert "pass" in by and not res["recommendation"].startswith("close: single")


def test_the_bury_after_a_bajiwo_overcall_is_valued_with_the_candidate():
    st = _positions("bury", 1, (1, 1))[0]
    assert st.kitty_log  # a second bury: 扒雞窩 took the kitty
    cand = tuple(sorted(st.hands[st.turn])[:8])
    res = adv.advise(st, seed=5, candidates=[cand], **QUICK).to_json()
    mine = [r for r in res["actions"] if Action("bury", r["action"]["cards"]).cards == cand]
    assert len(mine) == 1 and mine[0]["n"] > 0
    assert res["listing"]["valued"] == len(res["actions"]) >= 2


def test_play_outs_deal_the_hidden_cards_to_fit_every_public_fact():
    from analyzer.shengji.sim import seat_policies
    from kernels.rng import states_for_chunks
    from kernels.shengji import advise as ka
    from kernels.shengji.decisions import EMPTY, Q_DEAL, Q_VALUES
    from kernels.shengji.planes import cards_of, planes_of

    checked = voids = 0
    late = [st for st in _positions("follow", 12, (20, 40)) if any(st.voids)][:4]
    for st in late + _positions("lead", 3, (4, 9)):
        seat = st.turn
        q, params = play_query(st)
        _, listing = adv.listing_of(st)
        opts = np.array([planes_of(listing.actions[0].cards)], dtype=np.int64)
        out = np.empty((2, 16, Q_VALUES + 1), dtype=np.int64)
        ka.advise_chunks(q, (opts, np.ones(1, dtype=np.int64)), (states_for_chunks(3, 0, 2),
                         16), params, seat_policies("heuristic", st.rules), out)
        played = Counter(f for t in st.tricks for p in t.plays for f in p)
        for row in out.reshape(-1, out.shape[-1]):
            assert row[Q_VALUES] != EMPTY
            deal = [Counter(cards_of(int(row[Q_DEAL + 2 * s]), int(row[Q_DEAL + 2 * s + 1])))
                    for s in range(5)]
            assert deal[seat] == Counter(st.hands[seat])  # its own hand, as it is
            assert [sum(d.values()) for d in deal] == [len(h) for h in st.hands] + [8]
            total = sum(deal, Counter()) + played
            assert all(total[f] == 2 for f in range(54))  # every copy in one place
            for s in range(4):
                assert not (st.known[s] - deal[s])  # shown and not played: still there
                for e in st.voids[s]:
                    voids += 1
                    assert not any(st.play_ctx.esuit[f] == e for f in deal[s])
            if st.last_burier == seat:
                assert deal[4] == Counter(st.kitty)
            checked += 1
    assert checked == (len(late) + 3) * 32 and len(late) >= 2 and voids > 0


def test_a_short_batch_plays_only_the_chunks_it_keeps():
    """The race asks for the chunks it still needs, and for the rest of the batch only when
    deals that fit no hand were dropped: the deals kept are a whole batch's first ones."""
    import numpy as np

    from analyzer.shengji.advise import _run
    from analyzer.shengji.advise_playouts import CHUNKS, PER_CHUNK

    def rows(batch, chunk, drop):
        n = PER_CHUNK - (drop if chunk == 0 else 0)  # chunk 0 loses `drop` dead-end deals
        x = [batch * 10_000 + chunk * 100 + i for i in range(n)]
        return np.array([[v, v + (v * 7919) % 13 - 6] for v in x])  # two close actions

    for drop in (0, 5, 20):
        asked = []

        def call(active, batch, first, count, drop=drop, asked=asked):
            asked.append((batch, first, count))
            return np.concatenate([rows(batch, c, drop) for c in range(first, first + count)])
        race, _ = _run(call, 2, 300, 1e-9, None)
        whole = np.concatenate([np.concatenate([rows(b, c, drop) for c in range(CHUNKS)])
                                for b in range(2)])
        assert race.n == 300
        assert np.array_equal(np.concatenate(race.batches)[:, 0], whole[:300, 0])
        need = 300 - (CHUNKS * PER_CHUNK - drop)
        count = -(-need // PER_CHUNK)
        assert asked[:2] == [(0, 0, CHUNKS), (1, 0, count)]
        short = PER_CHUNK * count - drop < need  # the chunks asked for fell short
        assert asked[2:] == ([(1, count, CHUNKS - count)] if short else [])
    assert short  # the last case did fall short


def test_a_shorter_look_plays_the_same_deals_and_only_stops_sooner():
    """``look``: the race looks after every 2 chunks instead of every batch; the deals are
    the chunks' in the same order, so a close race keeps the very deals of a batch-wise one
    and a clear one stops at its first look."""
    import numpy as np

    from analyzer.shengji.advise import _run
    from analyzer.shengji.advise_playouts import PER_CHUNK

    def call_for(gap, asked):
        def call(active, batch, first, count):
            asked.append((batch, first, count))
            x = np.arange(count * PER_CHUNK) + (batch * 8 + first) * PER_CHUNK
            noise = (x * 7919) % 13 - 6
            return np.stack([x + gap, x + noise], axis=1)
        return call

    kept = {}
    for look in (8, 2):
        asked: list = []
        race, stop = _run(call_for(0, asked), 2, 300, 1e-9, None, look)
        kept[look] = np.concatenate(race.batches)
        assert race.n == 300 and stop == "samples"
        assert all(count <= look for _, _, count in asked)
    assert np.array_equal(kept[8], kept[2])
    asked = []
    race, stop = _run(call_for(50, asked), 2, 300, 1e-9, None, 2)  # clear: action 0 leads by 50
    assert (race.n, stop, asked) == (2 * PER_CHUNK, "leader alone", [(0, 0, 2)])
    asked = []
    race, stop = _run(call_for(50, asked), 2, 300, 1e-9, None)  # batch-wise: a whole batch
    assert race.n == 8 * PER_CHUNK and stop == "leader alone"
