"""Defaults the 掀牛 commands share, kept in a module that imports nothing heavy."""

# The asking seat's play-out policy in should-xian, should-kou and advise: the strongest
# that answers a typical query within seconds warm. tuned2 (heuristic2 on the preset's tuned
# weights) beats heuristic2 by about 0.4 points a hand, and heuristic2 the heuristic by about
# half a point (docs/policies.md); pimc takes minutes per query.
ADVICE_POLICY = "tuned2"
ADVICE_CHOICES = ("heuristic", "heuristic2", "tuned", "tuned2", "pimc")
