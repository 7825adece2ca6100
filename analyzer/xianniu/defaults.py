"""Defaults the 掀牛 commands share, kept in a module that imports nothing heavy."""

# The acting seat's play-out policy in advise (and review): the strongest that answers a
# typical query within seconds warm. net, trained by self-play, beats learned by +0.38
# (lanzhou) and +0.49 (kanniutui) points a hand and pimc2 by +0.40 and +0.44
# (docs/guides/xianniu.md, the ladder); pimc takes minutes per query.
ADVICE_POLICY = "net"

# The other seats' policy in every query and the table's bots: the strongest fast player
# too, so that advice does not assume weak opponents.
ADVICE_OPPONENTS = "net"

# The asking seat's play-on in should-xian and should-kou: each action valued by the best
# of three continuations of different families on the same deals (the self-play network,
# the hand-tuned heuristic2 and the search pimc2), so that an answer is never weaker than
# any of them: on some hands one misplays after 掀 and another does not
# (docs/guides/xianniu.md, advice robustness).
DECISION_POLICY = "net,tuned2,pimc2"

# The asking seat's pimc play-outs per decision in those queries: an eighth of pimc2's 512,
# so that a typical query answers within 5 s warm on 2 cores.
DECISION_BUDGET = 64
