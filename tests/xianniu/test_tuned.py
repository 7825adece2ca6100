"""``tuned``: the heuristic with its preset's tuned weights, shipped in the package."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.xianniu.rules import PRESETS
from analyzer.xianniu.sim import POLICY_IDS, policy_arrays
from analyzer.xianniu.tournament import load_heuristic_params, tournament
from analyzer.xianniu.tuned import tuned_vector
from kernels.xianniu.policies import HEURISTIC_DEFAULTS, N_HEURISTIC

REPORTS = Path(__file__).resolve().parents[2] / "reports"


@pytest.mark.parametrize("rules", PRESETS)
def test_shipped_weights_are_the_tuning_results(rules):
    """The package's copy agrees with the tuning run's own file, and is not the defaults."""
    vec = tuned_vector(rules)
    assert np.array_equal(vec, load_heuristic_params(str(REPORTS / f"tuning_{rules}.json")))
    assert not np.allclose(vec, HEURISTIC_DEFAULTS)
    shipped = json.loads((Path(tuned_vector.__code__.co_filename).with_name("tuned.json"))
                         .read_text(encoding="utf-8"))
    assert shipped[rules]["command"].endswith(f"--rules {rules} --iterations 10 --population 24 "
                                              "--deals 20000 --final-deals 200000 --seed 1")


@pytest.mark.parametrize("rules", PRESETS)
def test_tuned_plays_the_heuristic_with_its_presets_weights(rules):
    a = tournament("tuned,random", 300, rules, seed=7)
    b = tournament("heuristic:t,random", 300, rules, seed=7,
                   heuristic_params={"heuristic:t": tuned_vector(rules)})
    assert np.array_equal(a.per_deal, b.per_deal)
    other = "kanniutui" if rules == "lanzhou" else "lanzhou"
    c = tournament("heuristic:t,random", 300, rules, seed=7,
                   heuristic_params={"heuristic:t": tuned_vector(other)})
    assert not np.array_equal(a.per_deal, c.per_deal)  # the preset picks the weights
    assert a.policies == ["tuned", "random"]


@pytest.mark.parametrize("rules", PRESETS)
def test_tuned_beats_the_default_heuristic(rules):
    diff = tournament("tuned,heuristic", 4000, rules, seed=3).differences().iloc[0]
    assert diff["a"] == "tuned" and diff["ci_low"] > 0.2


def test_tuned2_plays_heuristic2_on_the_tuned_weights():
    a = tournament("tuned2,random", 300, "lanzhou", seed=7)
    b = tournament("heuristic2:t,random", 300, "lanzhou", seed=7,
                   heuristic_params={"heuristic2:t": tuned_vector("lanzhou")})
    assert np.array_equal(a.per_deal, b.per_deal)
    c = tournament("tuned,random", 300, "lanzhou", seed=7)
    assert not np.array_equal(a.per_deal, c.per_deal)  # heuristic2, not the heuristic


@pytest.mark.parametrize("rules", PRESETS)
def test_seat_arrays_put_the_presets_weights_on_the_tuned_seats(rules):
    ids, params = policy_arrays(["tuned2", "heuristic", "tuned"], rules=rules)
    assert ids.tolist() == [POLICY_IDS["heuristic2"], POLICY_IDS["heuristic"], POLICY_IDS["heuristic"]]
    base = policy_arrays("heuristic2,heuristic,heuristic")[1]
    assert np.array_equal(params[0, :N_HEURISTIC], tuned_vector(rules))
    assert np.array_equal(params[2, :N_HEURISTIC], tuned_vector(rules))
    assert np.array_equal(params[1], base[1])  # the untuned seat keeps its defaults
    assert np.array_equal(params[0, N_HEURISTIC:], base[0, N_HEURISTIC:])


def test_advice_plays_its_default_and_names_it(capsys):
    import json

    from analyzer.cli import main
    from analyzer.xianniu.defaults import DECISION_POLICY

    hand = ["9s", "9h", "9c", "9d", "Ks", "Qh", "Qc", "Js", "10h", "8c", "7h", "6s", "3c", "3h", "2s", "Ad"]
    runs = {}
    for policy in (None, "heuristic2"):
        extra = [] if policy is None else ["--policy", policy]
        assert main(["should-xian", *hand, *extra, "--max-deals", "400", "--precision", "50",
                     "--seed", "4", "--json", "--quiet"]) == 0
        runs[policy] = json.loads(capsys.readouterr().out)
    assert runs[None]["policy"] == DECISION_POLICY == "net,tuned2,pimc2"
    assert runs[None]["ev_xian"] != runs["heuristic2"]["ev_xian"]  # another player, other play
    assert main(["should-xian", *hand, "--policy", "tuned2", "--max-deals", "400", "--precision",
                 "50", "--seed", "4", "--json", "--quiet"]) == 0
    tuned2 = json.loads(capsys.readouterr().out)
    assert tuned2["policy"] == "tuned2" and tuned2["ev_xian"] != runs["heuristic2"]["ev_xian"]
