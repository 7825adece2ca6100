"""Defaults the 掀牛 commands share, kept in a module that imports nothing heavy."""

# The asking seat's play-out policy in should-xian, should-kou and advise: the strongest
# that answers a typical query within seconds warm. heuristic2 beats heuristic by about half
# a point a hand (docs/policies.md); pimc takes minutes per query.
ADVICE_POLICY = "heuristic2"
