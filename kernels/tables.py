"""Rules as arrays for the kernels, built from the rules model.

Kernels read a preset only through these arrays: ``params`` (int64, indexed by the
``P_*`` constants) and ``set_beats`` (uint8 ``[size - 1, challenger, top]``).
"""

from __future__ import annotations

import numpy as np

from analyzer.rules import Rules

# Combination kinds (same order as analyzer.combos.KINDS).
KIND_SET, KIND_NIU, KIND_XI, KIND_FISH, KIND_FISH_LIANG, KIND_BAI, KIND_BAI_LIANG, \
    KIND_K_BAI, KIND_XI_BAO_LIANG, KIND_LONG_FENG, KIND_EIGHT_PAIRS = range(11)
# Action kinds (same order as analyzer.engine.ACTION_KINDS).
ACT_PLAY, ACT_PASS, ACT_KOU, ACT_XIAN, ACT_TIGHTEN, ACT_DISCARD = range(6)

(P_FISH_MAX, P_BAI_MAX, P_K_BAI, P_XI_BAO_LIANG, P_QIANGCI_MANDATORY, P_EIGHT_PAIRS_BY_COLOUR,
 P_TIGHTEN_MIN, P_TIGHTEN_LH, P_CI_DROPS_LIANG, P_BAO_DOUBLES, P_XIAN_NEEDS_GOU, P_KKK_K108,
 P_TABLE_CAP, P_GOU, P_CI, P_CI_OFFSET, P_XIAN_POINTS, P_LIANG_POINTS, N_PARAMS) = range(19)


def rule_params(rules: Rules) -> np.ndarray:
    """The int64 parameter vector of a preset."""
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_FISH_MAX] = rules.fish_max_k
    p[P_BAI_MAX] = rules.bai_max_k
    p[P_K_BAI] = rules.k_bai
    p[P_XI_BAO_LIANG] = rules.xi_bao_liang
    p[P_QIANGCI_MANDATORY] = rules.qiangci_mandatory
    p[P_EIGHT_PAIRS_BY_COLOUR] = rules.eight_pairs_by_colour
    p[P_TIGHTEN_MIN] = rules.tighten_min_table
    p[P_TIGHTEN_LH] = rules.tighten_lead_holder_discards
    p[P_CI_DROPS_LIANG] = rules.ci_unit_drops_liang
    p[P_BAO_DOUBLES] = rules.bao_ci_doubles
    p[P_XIAN_NEEDS_GOU] = rules.xian_needs_target_gou
    p[P_KKK_K108] = rules.kkk_k108_liang
    p[P_TABLE_CAP] = rules.table_cap
    p[P_GOU] = rules.gou_min
    p[P_CI] = rules.ci_min
    p[P_CI_OFFSET] = rules.ci_offset
    p[P_XIAN_POINTS] = rules.xian_points
    p[P_LIANG_POINTS] = rules.liang_points
    return p


def beaters_table(rules: Rules) -> np.ndarray:
    """``int64[4, 12]``: for a set of (size, rank), the ranks whose sets of that size beat it,
    as a 48-bit mask with bit ``4 * r + 3`` set for each beating rank ``r``."""
    beats = rules.set_beats
    out = np.zeros((4, 12), dtype=np.int64)
    for size in range(4):
        for top in range(12):
            for r in range(12):
                if beats[size, r, top]:
                    out[size, top] |= 1 << (4 * r + 3)
    return out


def kernel_rules(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays a kernel reads for a preset: ``(params, set_beats, beaters)``."""
    return rule_params(rules), set_beats_table(rules), beaters_table(rules)


def set_beats_table(rules: Rules) -> np.ndarray:
    """``uint8[4, 12, 12]``: may a set of rank c beat one of rank t, by size."""
    return np.ascontiguousarray(rules.set_beats, dtype=np.uint8)
