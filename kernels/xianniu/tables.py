"""Index constants of the arrays the 掀牛 kernels read.

Kernels read a preset only through arrays built on the analyzer side
(:func:`analyzer.xianniu.sim.rule_arrays`): ``params`` (int64, indexed by the ``P_*``
constants), ``set_beats`` (uint8 ``[size - 1, challenger, top]``) and ``beaters``.
"""

from __future__ import annotations

N_SEATS = 3  # seats at the table; seat s is followed by (s + 1) % N_SEATS

# Combination kinds (same order as analyzer.xianniu.combos.KINDS).
KIND_SET, KIND_NIU, KIND_XI, KIND_FISH, KIND_FISH_LIANG, KIND_BAI, KIND_BAI_LIANG, \
    KIND_K_BAI, KIND_XI_BAO_LIANG, KIND_LONG_FENG, KIND_EIGHT_PAIRS = range(11)
# Action kinds (same order as analyzer.xianniu.engine.ACTION_KINDS).
ACT_PLAY, ACT_PASS, ACT_KOU, ACT_XIAN, ACT_TIGHTEN, ACT_DISCARD = range(6)
TYPE_SHIFT = 48  # an action's code in the kernel contract: cards | type << TYPE_SHIFT
# not an action: the option "lead as the policy would, 扣 not offered" of the banker's query
FORGO_KOU = -2

(P_FISH_MAX, P_BAI_MAX, P_K_BAI, P_XI_BAO_LIANG, P_QIANGCI_MANDATORY, P_EIGHT_PAIRS_BY_COLOUR,
 P_TIGHTEN_MIN, P_TIGHTEN_LH, P_CI_DROPS_LIANG, P_BAO_DOUBLES, P_XIAN_NEEDS_GOU, P_KKK_K108,
 P_TABLE_CAP, P_GOU, P_CI, P_CI_OFFSET, P_XIAN_POINTS, P_LIANG_POINTS, N_PARAMS) = range(19)
