"""The two drivers every game's analyses are set up on, written once over the kernel
contract (:mod:`kernels.contract`).

- :func:`play`: hands × seatings → one result row per hand and seating, optionally the
  deals and each hand's log. The hands are dealt from each chunk's stream, or given as
  deal rows, or given as positions to play on from. ``simulate``, aggregates, duplicate
  tournaments, altered deals, logs for crosschecks and self-play data are set up on it.
- :func:`paired`: one seat's position × K options × sampled hidden cards → a value matrix,
  every option played on the same deal and the same stream (paired play-outs). Decision
  queries, advice and reviews are set up on it.

Each driver is one chunk kernel written once here and built once per game (the class of
``rules``: :func:`_built`), with that game's verbs inlined in it; it is compiled once per
game whatever the setup, since a setup changes only the data it is given. Chunks own their
streams and their output rows, so results depend on the seed alone.
"""

from __future__ import annotations

import types as pytypes
from typing import Any

import numpy as np
from numba import types
from numba.extending import overload

from . import contract
from .arrays import copy_into
from .jit import njit
from .parallel import for_each_chunk
from .rng import next_u64, seed_state

# where a hand of :func:`play` comes from
DRAWN = 0  # dealt from the chunk's stream
KEPT = 1  # dealt from the chunk's stream, the deal row written to ``deals[g]``
GIVEN = 2  # the deal row ``deals[g]``
POSITION = 3  # the position ``deals[g]`` (a state row), played on from there
SOURCES = {"drawn": DRAWN, "kept": KEPT, "given": GIVEN, "position": POSITION}
# how the seatings of a hand share their randomness
ALONE = 0  # one seating, playing on from the chunk's stream
SPAWN = 1  # a stream of the hand's own drawn after the deal, the same for every seating
COPY = 2  # every seating from the chunk's stream as it is after the deal; the chunk's stream
#           then goes on from where the last seating left it
OWN = 3  # every seating from the hand's own given stream (``rngs[g]``: one stream per hand)
PAIRINGS = {False: ALONE, True: SPAWN, "spawn": SPAWN, "copy": COPY, "own": OWN}


def seating(bundle, j):
    """Seating ``j`` of the tuple ``bundle``: row ``j`` of each of its arrays, its other
    members (flags) as they are."""
    return tuple(a[j] if isinstance(a, np.ndarray) else a for a in bundle)


@overload(seating)
def _seating(bundle, j):
    if not isinstance(bundle, types.BaseTuple):
        return None
    members: Any = bundle  # a Numba tuple type: its members' types
    names = [f"bundle[{i}][j]" if isinstance(t, types.Array) else f"bundle[{i}]"
             for i, t in enumerate(members)]
    src = f"def impl(bundle, j):\n    return ({', '.join(names)}{',' if len(names) == 1 else ''})\n"
    scope: dict = {}
    exec(src, scope)  # a tuple of any length, built in one expression Numba can type
    return scope["impl"]


# what the chunk kernels call their verbs on: the contract's signatures here, the game's
# own verbs in each built kernel
game = contract
# (chunk kernel, rules class) -> the kernel built for that game
_BUILT: dict[tuple[str, type], Any] = {}


def _built(kernel, rules, steps: bool = False):
    """``kernel`` (a chunk kernel of this module, in Python) compiled for ``rules``'s game:
    its ``game`` is that game's verbs (:func:`kernels.contract.verbs_of`), inlined."""
    key = (kernel.__name__, type(rules))
    built = _BUILT.get(key)
    if built is None:
        scope = dict(kernel.__globals__, game=contract.verbs_of(type(rules), steps))
        fn = pytypes.FunctionType(kernel.__code__, scope, kernel.__name__)
        fn.__qualname__, fn.__doc__ = kernel.__qualname__, kernel.__doc__
        # one cache entry per game: the argument types name the rules class
        built = _BUILT[key] = njit(nogil=True, cache=True)(fn)
    return built


# the chunk, then one argument per part of a setup: the setups are data, so that one
# compiled driver serves them all (``game``: the verbs of the game it is built for)
def _play_chunk(c, rules, seatings, rngs, chunk_size, n_hands, deals, source, paired, out,
                log):
    """Chunk ``c`` of :func:`play`."""
    rng = rngs[c].copy()
    dealt = game.new_state(rules, seatings)
    state = game.new_state(rules, seatings)
    base = np.empty(4, dtype=np.uint64)
    spawned = np.empty(4, dtype=np.uint64)
    n_seatings = seatings[0].shape[0]
    for g in range(c * chunk_size, min((c + 1) * chunk_size, n_hands)):
        if source == GIVEN:
            game.start_from(rules, deals[g], dealt)
        elif source == POSITION:
            game.load_state(rules, dealt, deals[g])
        else:
            game.deal(rules, rng, dealt)
            if source == KEPT:
                game.read_deal(rules, dealt, deals[g])
        if paired == SPAWN:
            seed_state(next_u64(rng), base)  # the hand's own stream, the same per seating
        elif paired == OWN:
            copy_into(base, rngs[g])
        elif paired == COPY:
            copy_into(base, rng)
        for j in range(n_seatings):
            # the last seating plays the dealt hand itself: one seating copies nothing
            hand = dealt if j == n_seatings - 1 else state
            if j < n_seatings - 1:
                game.copy_state(rules, state, dealt)
            if paired == SPAWN or paired == OWN:
                copy_into(spawned, base)
                r = spawned
            else:
                if paired == COPY:
                    copy_into(rng, base)
                r = rng
            game.play_until(rules, seating(seatings, j), hand, r, -1, log,
                            g if n_seatings == 1 else -1)
            game.returns(rules, hand, out[g, j])


# keywords: a setup names each of its parts
def play(rules, seatings, out, *, streams, chunk_size, n_hands=None, deals=None,
         source="drawn", paired=False, log=None):
    """Play ``n_hands`` hands under each seating; ``out[g, j]`` gets the result row of hand
    ``g`` under seating ``j``.

    ``seatings``: the game's policies bundle with a leading seating axis (each array of it
    stacked ``J`` times); ``streams[c]``: chunk ``c``'s stream (hands ``c * chunk_size …``);
    ``source``: ``drawn``, ``kept`` (the deal rows go to ``deals``), ``given`` (deal rows
    read from ``deals``) or ``position`` (state rows read from ``deals``); ``paired``: how
    the seatings of a hand share their randomness (duplicate play): True (or ``spawn``),
    one stream of the hand's own drawn after the deal; ``copy``, the chunk's stream as it
    is after the deal (:data:`COPY`); ``own``, the hand's own stream given in
    ``streams[g]`` (one stream per hand, e.g. for deals altered from one dealt from that
    stream); False, a single seating plays on from the chunk's stream; ``log``: the
    game's log bundle, written for each hand when there is one seating.
    """
    n_hands = out.shape[0] if n_hands is None else int(n_hands)
    if deals is None:
        deals = rules.deal_rows(0)
    if log is None:
        log = rules.log_rows(0)
    # with a stream per hand, the chunks are the hands' groups of ``chunk_size``
    n_chunks = -(-n_hands // int(chunk_size)) if paired == "own" else streams.shape[0]
    for_each_chunk(_built(_play_chunk, rules), n_chunks, rules, seatings, streams,
                   int(chunk_size), n_hands, deals, SOURCES[source], PAIRINGS[paired], out, log)


# as _play_chunk: the chunk, then one argument per part of a setup
def _paired_chunk(c, rules, policies, views, seat, options, rngs, chunk_size, n_samples,
                  max_tries, outs, log):
    """Chunk ``c`` of :func:`paired`."""
    out, dealt, kept, tries = outs
    rng = rngs[c].copy()
    start = game.new_state(rules, policies)
    state = game.new_state(rules, policies)
    base = np.empty(4, dtype=np.uint64)
    r = np.empty(4, dtype=np.uint64)
    tries[c] = 0
    for i in range(c * chunk_size, min((c + 1) * chunk_size, n_samples)):
        kept[i] = 0
        if max_tries > 0:
            for _ in range(max_tries):
                tries[c] += 1
                if game.sample(rules, policies, views, seat, rng, start, base):
                    kept[i] = 1
                    break
            if kept[i] == 0:
                continue  # no draw fitted: the sample is missing
        else:
            tries[c] += 1
            game.load_state(rules, start, views[i])
            copy_into(base, rng)
            kept[i] = 1
        game.read_deal(rules, start, dealt[i])
        for j in range(options.shape[0]):
            game.copy_state(rules, state, start)
            copy_into(r, base)  # common random numbers across the options
            game.apply(rules, state, options[j])
            if game.to_act(rules, state) >= 0:
                game.play_until(rules, policies, state, r, -1, log, -1)
            game.returns(rules, state, out[i, j])


# keywords: a setup names each of its parts
def paired(rules, policies, views, seat, options, out, *, streams, n_samples=None,
           max_tries=0, chunk_size=16):
    """Value ``options`` (the acting seat's actions) on sampled positions: ``out[i, j]`` is
    the result row after option ``j`` on sample ``i``, the rest played by ``policies``; every
    option of a sample plays from the same state and the same stream.

    Either the samples are given (``max_tries`` 0: ``views[i]``, state rows with the hidden
    cards already dealt; ``streams[i]`` is sample ``i``'s stream), or they are drawn in the
    kernel by the game's ``sample`` verb from ``views`` (what ``seat`` has seen), at most
    ``max_tries`` draws a sample, ``chunk_size`` samples a chunk, chunk ``c`` from its stream
    ``streams[c]``.

    Returns ``(dealt, kept, tries)``: each sample's deal row as the game reads it at the
    position (``read_deal``), whether the sample was found (1) or every draw was rejected
    (0: its rows of ``out`` are left as they were), and each chunk's draws.
    """
    n_samples = out.shape[0] if n_samples is None else int(n_samples)
    chunk = int(chunk_size) if max_tries else 1
    if not max_tries and streams.shape[0] < n_samples:
        raise ValueError("given samples need one stream each")
    n_chunks = -(-n_samples // chunk)
    dealt = rules.deal_rows(n_samples)
    kept = np.zeros(n_samples, dtype=np.int64)
    tries = np.zeros(n_chunks, dtype=np.int64)
    for_each_chunk(_built(_paired_chunk, rules, steps=True), n_chunks, rules, policies,
                   views, int(seat), options, streams, chunk, n_samples, int(max_tries),
                   (out, dealt, kept, tries), rules.log_rows(0))
    return dealt, kept, tries


# the chunk, the hands' deals and actions, and the four answers
def _replay_chunk(c, rules, deals, actions, n_actions, seats, legal, n_legal, out):
    """Chunk ``c`` (one hand) of :func:`replay`."""
    state = game.new_state(rules, None)
    game.start_from(rules, deals[c], state)
    for i in range(n_actions[c]):
        seats[c, i] = game.to_act(rules, state)
        if seats[c, i] < 0:
            return
        n_legal[c, i] = game.legal(rules, state, legal[c, i])
        game.apply(rules, state, actions[c, i])
    seats[c, n_actions[c]] = game.to_act(rules, state)
    if seats[c, n_actions[c]] < 0:
        game.returns(rules, state, out[c])


def replay(rules, deals, actions, n_actions):
    """Replay hands action by action through the verbs alone (no policy): hand ``g`` starts
    from the deal row ``deals[g]`` and takes ``actions[g, :n_actions[g]]``.

    Returns ``(seats, legal, n_legal, results)``: the seat to act before each action and
    after the last (-1 once over), each step's legal actions and their count, and the
    result row of each hand that ended (zeros for one still running).
    """
    n, width = actions.shape
    _, result_width, max_actions = rules.sizes()
    seats = np.full((n, width + 1), -2, dtype=np.int64)
    legal = np.zeros((n, width, max_actions), dtype=np.int64)
    n_legal = np.zeros((n, width), dtype=np.int64)
    out = np.zeros((n, result_width), dtype=np.int64)
    for_each_chunk(_built(_replay_chunk, rules, steps=True), n, rules, deals, actions,
                   n_actions, seats, legal, n_legal, out)
    return seats, legal, n_legal, out
