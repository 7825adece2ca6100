"""Numba kernels of 郑州双升 (升级 / 拖拉机): two-plane card sets, trump contexts, dealing,
units, follow duty, trick winner, throws, 摳底, play-only hands and whole hands (bidding
included).

Modules: ``params`` (rule vector layout), ``planes`` (card sets), ``context`` (trump
tables), ``deal`` (shuffles and deal features), ``units`` (decomposition and tractor
searches), ``play`` (follow, matching, trick winner, throws, kitty multiplier), ``policy``
(random leads and follows), ``hand`` (play-only hands), ``bidding`` (declaring,
overcalling, 加固 and 造反), ``whole`` (whole hands from the deal) and ``bench``
(throughput). Every kernel takes arrays and integers only; rules arrive as the int64 vector
of ``params``.
"""
