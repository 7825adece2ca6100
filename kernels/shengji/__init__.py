"""Numba kernels of 郑州双升 (升级 / 拖拉机): two-plane card sets, trump contexts, dealing,
units, follow duty, trick winner, throws, 抠底, play-only hands and whole hands (bidding
included).

Modules, by role as in the other games' kernels: ``game`` (the state machine of a whole
hand: 造反, declaring, the bury, 扒鸡窝, then the play and the settlement), ``hand`` (the
play of a hand, trick by trick), ``batch`` (the chunk drivers), ``policies`` (policy ids,
their parameters and what each seat knows), ``heuristic`` and ``heuristic_bid`` (the
heuristic's play and bidding), ``random_policy`` (the random policy's leads and follows),
``pimc`` (the pimc policy), ``decisions`` (the decision queries), ``stats`` (paired
experiments); and the game's own pieces: ``params`` (rule vector layout), ``planes`` (card
sets), ``context`` (trump tables), ``deal`` (shuffles and deal features), ``units``
(decomposition and tractor searches), ``play`` (follow, matching, trick winner, throws,
kitty multiplier), ``bidding`` (declaring, overcalling, 加固 and 造反) and ``bench``
(throughput). Every kernel takes arrays and integers only; rules arrive as the int64 vector
of ``params``.

Arguments travel in a few tuples (Numba passes a tuple of arrays and integers as its parts),
the same names everywhere: ``rules`` = (``ctx``, ``params``): the trump context and the
rule vector; ``bufs`` = (``units``, ``work``): the search scratch of ``units``; ``pols`` =
(``pol``, ``hp``): each seat's policy id and parameter row; ``seats`` = (``pol``, ``hp``,
``kn``): the same with the knowledge; ``me`` = (``seat``, its ``hp`` row, ``kn``): who
decides; ``trick`` = (``plays``, ``k``): the trick's first ``k`` plays; ``lead`` =
(``ks``, ``m``, ``n2``): a lead's tractor lengths and pair total (``random_policy
.lead_pairs``), ``shape`` the same with its suit and size first, ``fmt`` = (``ks``,
``m``, ``n_pairs``) with the pairs besides the tractors; ``start`` = (team ``levels``,
``start_banker``); ``chunks`` = (``states``, per-chunk count, total). The modules that use
more (``game``, ``hand``, ``decisions``) describe theirs.

**Reference counting.** Numba counts a reference up and down, with atomic operations, for
every array an out-of-line call passes or a tuple unpacks. The follow kernels called for
every card played (``heuristic.heuristic_follow`` and the builders under it,
``random_policy.random_follow_shaped``, ``hand._follow``) allocate nothing, so they are
compiled without reference counting (``_nrt=False``, as the 掀牛 kernels' choices are):
heuristic whole hands run about a fifth faster than with the counts, the same hands.
"""
