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

**Reference counting** (``kernels.jit``). The play of a hand allocates nothing, so it is
built without Numba's reference counting (``njit_uncounted``, as the 掀牛 kernels' choices
are): ``hand.play_hand_in`` and ``hand._follow``, the heuristic's and the random policy's
leads and follows, ``search.search_choose`` and net's whole decision (``net``), and the
helpers they call every trick (``play.trick_winner_in``, ``play.throw_units_in``,
``units.decompose``, ``policies.unknown_cards``, ``random_policy.lead_pairs``). The kernels
called from there that allocate are ``njit_counted`` (``pimc.pimc_choose``,
``search.pimc2_choose``, ``play.kitty_multiplier``, net's self-play play-outs).
``tests/shengji/test_shengji_refcounts.py`` checks that whole hands on every policy free
what they allocate. Net whole hands run about 2.3 times as fast as with the counts, tuned
ones about 1.2 times, the same hands (``docs/bench.md``).
"""
