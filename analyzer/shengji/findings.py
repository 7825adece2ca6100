"""郑州双升's findings for the report's opening: how often the banker side keeps the bank,
and how often the attackers take the last trick (抠底), read off the section's tables."""

from __future__ import annotations

import pandas as pd

from ..report.findings import Finding
from .report_data import RULE_NAMES, ShengjiData, T, policy_of


def _est(row: pd.Series) -> dict[str, float]:
    return {"value": float(row["value"]), "low": float(row["ci_low"]),
            "high": float(row["ci_high"]), "n": int(row["n"])}


def findings(data: ShengjiData, lang: str) -> list[Finding]:
    """The default preset's two lines, under the section's policy."""
    preset, policy = RULE_NAMES[0], policy_of(data.spec)
    name = T("sec_shengji", lang) if lang == "zh" else preset
    bank = data.tables["shengji_banker"]
    held = bank[(bank["rules"] == preset) & (bank["level"] == 2) & (bank["trump"] == "all")
                & (bank["statistic"] == "p_banker_holds")].iloc[0]
    kou = data.tables["shengji_kou_di"]
    last = kou[(kou["rules"] == preset) & (kou["policy"] == policy)
               & (kou["statistic"] == "p_kou_di")].iloc[0]
    return [Finding(T("fd_sj_holds", lang, preset=name), _est(held), "shengji-banker", policy,
                    fmt="%"),
            Finding(T("fd_sj_last", lang, preset=name), _est(last), "shengji-kou-di", policy,
                    fmt="%")]
