"""Defaults the 掀牛 commands share, kept in a module that imports nothing heavy."""

# The asking seat's play-out policy in should-xian, should-kou and advise: the strongest
# that answers a typical query within seconds warm. learned beats tuned2 (heuristic2 on the
# preset's tuned weights) by about 0.9 points a hand and plays level with pimc2 or better
# (docs/policies.md); pimc takes minutes per query.
ADVICE_POLICY = "learned"

# The other seats' policy in those queries: the strongest fast player too, so that advice
# does not assume weak opponents (the heuristic answers a lead worse than learned does).
ADVICE_OPPONENTS = "learned"

# The asking seat's play-on in should-xian and should-kou: each action valued by the better
# of two fast continuations of different families on the same deals (a scorer fitted to
# search, and the hand-tuned heuristic2), so that an answer is never weaker than either:
# on some hands one of them misplays after 掀 and the other does not (docs/guides/xianniu.md).
DECISION_POLICY = "learned,tuned2"
