"""Hashes of what the kernels play at fixed seeds, one line per game, preset and setup.

Run it before and after a change to the kernels or their drivers: equal hashes mean the
same hands, the same actions and the same results, bit for bit.

    python scripts/measure/behaviour_hashes.py --game dingniu > before.txt
"""

from __future__ import annotations

import hashlib

import click
import numpy as np


def _h(*arrays) -> str:
    d = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        d.update(str(a.dtype).encode() + str(a.shape).encode())
        d.update(a.tobytes())
    return d.hexdigest()[:16]


def _hr(result) -> str:
    """The hash of a result object's text (queries and studies return dataclasses)."""
    return hashlib.sha256(repr(result).encode()).hexdigest()[:16]


def dingniu_lines(hands: int, deals: int):
    from analyzer.dingniu import advise, analysis, sim, tournament
    from analyzer.dingniu.rules import PRESETS

    for preset in PRESETS:
        for policy in ("random", "heuristic", "tuned"):
            yield f"dingniu {preset} play {policy}", _h(sim.play_hands(hands, policy, 7, preset))
            yield f"dingniu {preset} logged {policy}", _h(
                *sim.logged_hands(hands // 4, policy, 7, preset))
        for pair in ("heuristic,random", "tuned,heuristic", "pimc,tuned"):
            n = deals if "pimc" not in pair else max(2, deals // 50)
            t = tournament.tournament(pair, n, 3, preset, pimc_samples=4 if "pimc" in pair
                                      else None)
            yield f"dingniu {preset} tournament {pair}", _h(t.per_deal)
        got = advise.advise({"hand": "大天 红十 红八 一三 二板", "history": "lead 一五; 一三 on 1; "
                             "虎头 on 5; 虎头 on 6; 长三 on 3; 三六 on 3"}, 64, 5, 0, preset)
        yield f"dingniu {preset} advise", _h(np.array(
            [[r["action_id"], r["pimc"]["value"]] for r in got["actions"]]))
        yield f"dingniu {preset} open-hands", _h(
            analysis.open_hands_vs_heuristic(6, 4, 2, preset)[["heuristic", "pimc"]].to_numpy())


def xianniu_lines(hands: int, deals: int):
    from analyzer.xianniu import sim, tournament
    from analyzer.xianniu.rules import PRESETS

    yield "xianniu deals", _h(sim.deal_hands(hands, 5))
    for preset in PRESETS:
        for policy in ("random", "heuristic", "heuristic2", "tuned", "learned", "net"):
            n = hands if policy != "net" else hands // 4
            yield f"xianniu {preset} play {policy}", _h(
                sim.simulate(n, preset, policy, 7).drop(columns="end").to_numpy())
            yield f"xianniu {preset} aggregate {policy}", _h(
                sim.simulate_aggregate(n, preset, policy, 7).counts)
        for pair in ("heuristic,random", "learned,heuristic", "net,learned,heuristic",
                     "pimc,heuristic"):
            n = deals if "pimc" not in pair else 4
            t = tournament.tournament(pair, n, preset, 3,
                                      pimc_samples=2 if "pimc" in pair else None)
            yield f"xianniu {preset} tournament {pair}", _h(t.per_deal)
        yield from _xianniu_queries(preset)
        from analyzer.xianniu.analysis import pattern_values, xian_ev

        for policy, n in (("heuristic", 3000), ("net", 500)):
            yield f"xianniu {preset} pattern-values {policy}", _h(pattern_values(
                n, preset, policy, seed=4, chunk_size=256).select_dtypes("number").to_numpy())
            yield f"xianniu {preset} xian-ev {policy}", _h(xian_ev(
                n, preset, policy, seed=4, chunk_size=256).select_dtypes("number").to_numpy())


XIANNIU_HAND = "Ks Qh Qc Js 10h 9s 9d 8c 7h 6s 5d 3c 3h 2s Ad Ac"


def _xianniu_queries(preset: str):
    """The decision queries (from a hand and from a record) and advice, at fixed seeds."""
    from analyzer.xianniu.advise import advise
    from analyzer.xianniu.decision import should_kou, should_xian, should_xian_record
    from analyzer.xianniu.records import replay
    from analyzer.xianniu.sim import hand_records

    def q(r):
        return _h(np.array([r.ev_a, r.ev_b, r.diff, r.hands, r.dealt, r.kept]),
                  r.details.to_numpy())

    yield f"xianniu {preset} should-xian 1", q(should_xian(
        XIANNIU_HAND, 1, preset, max_hands=2000, precision=0.01, seed=3))
    yield f"xianniu {preset} should-xian 2 net", q(should_xian(
        XIANNIU_HAND, 2, preset, policy="net", max_hands=1500, precision=0.01, seed=4))
    yield f"xianniu {preset} should-kou", q(should_kou(
        XIANNIU_HAND, preset, max_hands=1200, precision=0.01, seed=5))
    records = hand_records(40, preset, "heuristic", 7)
    asked = next({**rec, "actions": rec["actions"][:cut]} for rec in records
                 for cut in range(len(rec["actions"]))
                 if replay({**rec, "actions": rec["actions"][:cut]}).phase == "kou_ask")
    yield f"xianniu {preset} should-xian record", q(should_xian_record(
        asked, policy="heuristic", max_hands=600, precision=0.01, seed=8))
    for k, rec in enumerate(records[:2]):
        a = advise({**rec, "actions": []}, samples=300, seed=9).to_json()
        yield f"xianniu {preset} advise {k}", _h(np.array(
            [[x["ev"], x["n"]] for x in a["actions"]]), np.array([a["deals"]]))


def shengji_lines(hands: int, deals: int):
    from analyzer.shengji import analysis, sim, study, tournament
    from analyzer.shengji.decision import Sampling, should_declare
    from analyzer.shengji.rules import PRESETS

    for preset in PRESETS:
        yield f"shengji {preset} whole random", _h(sim.whole_hands(hands // 4, preset, 7))
        for policy in ("heuristic", "tuned", "net"):
            yield f"shengji {preset} whole {policy}", _h(
                analysis.whole_rows(hands // 8, preset, policy, 7))
        for pair, n in ((("tuned", "heuristic"), deals), (("net", "tuned"), deals // 2),
                        (("pimc", "heuristic"), 2)):
            yield f"shengji {preset} tournament {','.join(pair)}", _h(
                tournament.play_duplicate(list(pair), n, PRESETS[preset], 3,
                                          pimc_samples=2 if "pimc" in pair else None))
        rules = PRESETS[preset]
        variants = [(rules, (2, 2)), (rules, (10, 10)),
                    (rules.with_(bajiwo_enabled=not rules.bajiwo_enabled), (5, 5))]
        for policy in ("random", "heuristic"):
            yield f"shengji {preset} paired rows {policy}", _h(
                analysis.paired_rows(hands // 8, variants, policy, 7))
        hand = "大王 大王 2h 2h Ah Ah Kh"
        yield f"shengji {preset} should-declare net", _hr(should_declare(
            hand, 2, rules=rules, run=Sampling(max_deals=256, seed=4)))
        yield f"shengji {preset} should-declare heuristic", _hr(should_declare(
            hand, 2, rules=rules, run=Sampling(max_deals=512, seed=3, policy="heuristic",
                                               opponents="heuristic")))
        yield f"shengji {preset} declare study", _hr(study.declare_study(64, rules, 5, 32))
        yield f"shengji {preset} bury study", _hr(study.bury_study(8, rules, 5, 32))


@click.command()
@click.option("--game", type=click.Choice(["dingniu", "xianniu", "shengji"]),
              default="dingniu")
@click.option("--hands", default=20_000, show_default=True)
@click.option("--deals", default=500, show_default=True)
def main(game: str, hands: int, deals: int) -> None:
    for name, h in {"dingniu": dingniu_lines, "xianniu": xianniu_lines,
                    "shengji": shengji_lines}[game](hands, deals):
        click.echo(f"{h}  {name}")


if __name__ == "__main__":
    main()
