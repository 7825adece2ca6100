"""Self-play data for ``net``: whole hands, every seat on net with exploration and logging.

Hand ``h`` of chunk ``c`` is dealt and played from the chunk's stream ``states[c]`` as a
tournament plays it (``game.whole_hand_in``: the bidding, 造反, the bury and 扒鸡窝 by the
heuristic of the seats' rows, leads and follows by net). Each seat's row sets net's
``NET_EXPLORE`` and ``NET_LOG`` (``kernels.shengji.net``): at a logged decision every
candidate is played out on the true deal by the heuristic for all four seats, and each
candidate other than the heuristic's choice is written out with its gain over that choice
for the seat's side. Before the first fit the rows' margin is out of reach, so net plays
the heuristic's choice and the data is the heuristic's.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..parallel import for_each_chunk
from .deal import deal
from .game import N_WHOLE, chunk_buffers, whole_hand_in
from .pimc import NL_USED, with_net_log
from .policies import NET_IN


@njit(nogil=True, cache=True)
def _selfplay_chunk(c, chunks, start, params, pols, outs):
    """Chunk ``c`` of :func:`selfplay_chunks`."""
    states, n_per_chunk, n_hands = chunks
    xs, ys, counts = outs
    rng = states[c].copy()
    deck, deals, chance, alog, tlog, base = chunk_buffers(True)
    pst = with_net_log(xs.shape[1])
    scratch = (base[0], base[1], base[2], base[3], base[4], base[5], base[6], pst)
    ints, log_x, log_y = pst[4]
    res = np.empty(N_WHOLE, dtype=np.int64)
    for i in range(c * n_per_chunk, min((c + 1) * n_per_chunk, n_hands)):
        ints[NL_USED] = 0
        deal(rng, deck, deals[0])
        whole_hand_in(deals, start, params, rng, deck, (res, alog, chance, tlog), scratch,
                      pols)
        n = ints[NL_USED]
        xs[i, :n, :] = log_x[:n, :]
        ys[i, :n] = log_y[:n]
        counts[i] = n


def selfplay_chunks(chunks, start, params, pols, outs):
    """Play ``chunks`` = (``states``, ``n_per_chunk``, ``n_hands``) whole hands from
    ``start`` (team levels and banker, as in ``verbs.Rules``) with ``pols`` = (ids, rows),
    the rows net's with exploration and logging set; ``outs`` = (``xs`` float32[n_hands,
    rows, NET_IN], ``ys`` float32[n_hands, rows], ``counts`` int64[n_hands]): hand ``h``
    logs ``counts[h]`` inputs and targets (at most ``rows``; a decision that would not
    fit is not logged)."""
    assert outs[0].shape[2] == NET_IN
    for_each_chunk(_selfplay_chunk, chunks[0].shape[0], chunks, start, params, pols, outs)
