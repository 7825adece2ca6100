"""兰州掀牛's findings for the report's opening: what a player should take away.

Each is read off the section's tables (nothing is computed again): the banker's edge, P(刺),
what a 牛, a 喜, one more K and the best and worst 亮子 are worth, when 掀 pays, and which
preset is fairer. Where the sensitivity part measured a finding again under the second
policy on the same seeds (for P(刺): under the strongest search player), that estimate rides
along, so the page can flag a finding that depends on the bot.
"""

from __future__ import annotations

import pandas as pd

from ..report.findings import Finding
from .report_data import PRESET_ORDER, T, XianniuData


def _est(row: pd.Series) -> dict[str, float]:
    return {"value": float(row["value"]), "low": float(row["ci_low"]),
            "high": float(row["ci_high"]), "n": int(row["n"])}


def _sens(data: XianniuData, preset: str, finding: str,
          table: str = "sensitivity") -> tuple[dict, dict | None, str]:
    """The main and second-policy estimates of a sensitivity row (of ``table``: the second
    policy's, or the search player's ``sensitivity_search``), and the second policy."""
    df = data.tables[table]
    row = df[(df["rules"] == preset) & (df["finding"] == finding)].iloc[0]
    main = {"value": float(row["main"]), "low": float(row["main_ci_low"]),
            "high": float(row["main_ci_high"]), "n": int(row["main_n"])}
    other = None
    if pd.notna(row["other"]):
        other = {"value": float(row["other"]), "low": float(row["other_ci_low"]),
                 "high": float(row["other_ci_high"]), "n": int(row["other_n"])}
    return main, other, str(row["other_policy"])


def _xian_cell(data: XianniuData, preset: str) -> tuple[str, pd.Series]:
    """The cell where 掀 first surely pays (fewest sure cards, then fewest K), or the best."""
    df = data.tables["xian_ev"]
    df = df[df["rules"] == preset]
    sure = df[df["ci_low"] > 0].sort_values(["sure_cards", "k_count"])
    if len(sure):
        return "fd_xian_pays", sure.iloc[0]
    return "fd_xian_never", df.sort_values("diff", ascending=False).iloc[0]


def findings(data: XianniuData, lang: str) -> list[Finding]:
    """The section's findings, the first preset's (lanzhou by default), then the fairer one."""
    presets = [p for p in PRESET_ORDER if p in data.plan.presets]
    preset = presets[0]
    name = T(preset, lang)
    policy = data.plan.spec.option("xianniu", "policy")
    out = []
    out_row = data.tables["outcomes"]
    banker = out_row[(out_row["rules"] == preset) & (out_row["statistic"] == "mean_points")
                     & (out_row["seat"] == 0)].iloc[0]
    out.append(Finding(T("fd_banker", lang, preset=name), _est(banker), "banker", policy,
                       unit=T("points", lang)))
    # P(刺) is checked against the strongest search player (another family of player)
    main, other, alt = _sens(data, preset, "p_ci_any_seat", "sensitivity_search")
    out.append(Finding(T("fd_p_ci", lang, preset=name), main, "captured", policy, fmt="%",
                       other=other, other_policy=alt))
    for pattern in ("niu", "xi", "K"):
        main, other, alt = _sens(data, preset, f"value_{pattern}")
        out.append(Finding(T("fd_value", lang, preset=name, what=T(pattern, lang)), main,
                           "values", policy, unit=T("points", lang), other=other,
                           other_policy=alt))
    sens = data.tables["sensitivity"]
    liang = sens[(sens["rules"] == preset) & sens["finding"].str.startswith("value_liang_")]
    for key, row in (("fd_liang_best", liang.loc[liang["main"].idxmax()]),
                     ("fd_liang_worst", liang.loc[liang["main"].idxmin()])):
        main, other, alt = _sens(data, preset, str(row["finding"]))
        rank = str(row["finding"]).removeprefix("value_liang_")
        out.append(Finding(T(key, lang, preset=name, rank=rank), main, "values", policy,
                           unit=T("points", lang), other=other, other_policy=alt))
    key, cell = _xian_cell(data, preset)
    xian = {"value": float(cell["diff"]), "low": float(cell["ci_low"]),
            "high": float(cell["ci_high"]), "n": int(cell["n"])}
    out.append(Finding(T(key, lang, preset=name, sure=int(cell["sure_cards"]),
                         k=int(cell["k_count"])), xian, "xian", policy, unit=T("points", lang)))
    if "compare" in data.tables:
        out.append(_fairer(data, lang, policy))
    return out


def _fairer(data: XianniuData, lang: str, policy: str) -> Finding:
    """The preset whose banker's edge is smaller, by how much (the paired difference)."""
    cmp = data.tables["compare"]
    row = cmp[cmp["metric"] == "banker_points"].iloc[0]
    a, b = PRESET_ORDER
    # the table's diff is b − a; the edge is smaller by other − fair (both edges positive)
    d, lo, hi = float(row["diff"]), float(row["diff_ci_low"]), float(row["diff_ci_high"])
    fair, other = (b, a) if abs(float(row[b])) < abs(float(row[a])) else (a, b)
    by = ({"value": -d, "low": -hi, "high": -lo} if fair == b else
          {"value": d, "low": lo, "high": hi})
    by["n"] = int(min(row[f"{a}_n"], row[f"{b}_n"]))
    key = "fd_fairer" if by["low"] > 0 else "fd_fairer_tie"
    return Finding(T(key, lang, fair=T(fair, lang), other=T(other, lang)), by,
                   "compare", policy, unit=T("points", lang))
