"""The kernel contract: one verb set that every game's kernels speak.

The verbs are the reference engine's (``analyzer.core.game``) in kernel form, over a flat
state. Each takes the game's ``rules`` first: a ``NamedTuple`` of arrays whose class names
the game (``kernels.dingniu.verbs.Rules``, …), so a driver compiled for one game's rules
calls that game's verbs and nothing else, and Numba caches it per game. A game registers
its implementations with :func:`register`; the drivers (:mod:`kernels.drivers`) call only
the verbs below and so are written once for every game.

Verbs (``rules`` first, arrays and integers after it):

- ``new_state(rules, policies)``: an empty state (any array or tuple of arrays the game
  chooses) for hands played by ``policies`` (a policies bundle, or a stack of them: the
  game may read its flags, e.g. whether a seat searches, to size its work buffers; None
  where no policy acts);
- ``copy_state(rules, dst, src)``; ``load_state(rules, state, row)``: the state whose state
  row (one int64 array: all that is needed to resume the hand) is ``row``;
- ``deal(rules, rng, state)``: a new hand dealt from the stream ``rng``, nothing played;
- ``start_from(rules, deal, state)``: the hand whose deal row is ``deal`` (int64[deal_width]);
- ``read_deal(rules, state, deal)``: the deal row of a hand that has not started;
- ``to_act(rules, state)``: the seat to act, or -1 once the hand is over;
- ``legal(rules, state, out)``: the legal actions (int64) into ``out``; returns how many;
- ``apply(rules, state, action)``: play one legal action;
- ``play_until(rules, policies, state, rng, seat, log, g)``: let the seats' policies act
  until ``seat`` must decide (-1: to the end); when ``log`` has a row ``g``, every decision
  is written there; returns the seat to act, or -1 at the end;
- ``returns(rules, state, row)``: the result row (int64[result_width]) of a finished hand;
- ``sample(rules, policies, view, seat, rng, state, stream)``: into ``state`` a position
  drawn from ``rng`` that fits ``view`` (the game's int64 rows saying what ``seat`` has
  seen, and under which conditions a draw is kept), the stream to play on from it seeded
  into ``stream``; returns False when the draw is rejected (the caller draws again).

The rules class also gives the arrays the drivers are handed, in Python:
``deal_rows(n)``, ``state_rows(n)``, ``result_rows(n, seatings)``, ``log_rows(n)`` (the
game's log bundle; ``log_rows(0)`` for hands that keep none) and
``sizes() = (deal_width, result_width, max_actions)``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

from numba.core.errors import NumbaTypeError
from numba.extending import overload

# what the play driver needs, and what the paired play-outs and the replay need besides
PLAY_VERBS = ("new_state", "copy_state", "load_state", "deal", "start_from", "read_deal",
              "play_until", "returns")
STEP_VERBS = ("to_act", "legal", "apply", "sample")
VERBS = PLAY_VERBS + STEP_VERBS

# rules class -> verb name -> a Python function Numba compiles in the caller (typically a
# one-line call of the game's own jit-compiled function)
_GAMES: dict[type, dict[str, Callable]] = {}


def register(rules_class: type, **verbs: Callable) -> None:
    """Make ``rules_class`` (the game's rules ``NamedTuple``) speak the contract: every play
    verb, and the step verbs all or none (a game without them plays in the play driver
    only)."""
    missing = sorted(set(PLAY_VERBS) - set(verbs))
    step = set(STEP_VERBS) & set(verbs)
    if step and step != set(STEP_VERBS):
        missing += sorted(set(STEP_VERBS) - step)
    unknown = sorted(set(verbs) - set(VERBS))
    if missing or unknown:
        raise TypeError(f"{rules_class.__name__}: missing verbs {missing}, unknown {unknown}")
    for name, impl in verbs.items():  # Numba types an overload only under the stub's names
        want = list(inspect.signature(globals()[name]).parameters)
        got = list(inspect.signature(impl).parameters)
        if got != want:
            raise TypeError(f"{rules_class.__name__}.{name} takes {got}, the verb {want}")
    _GAMES[rules_class] = dict(verbs)


def registered(steps: bool = False) -> tuple[type, ...]:
    """The rules classes of every game registered so far (with ``steps``: those that
    speak the step verbs too)."""
    return tuple(c for c, v in _GAMES.items() if not steps or "legal" in v)


def _typed(stub: Callable) -> Callable:
    """``stub`` made a verb: compiled code calls the implementation registered for the
    class of its ``rules`` (typing sees the stub's own signature, through ``wraps``)."""
    @functools.wraps(stub)
    def typer(rules, *args):
        cls = getattr(rules, "instance_class", None)
        impls = _GAMES.get(cls) if cls is not None else None
        if impls is None:
            return None
        if stub.__name__ not in impls:
            raise NumbaTypeError(f"{rules.instance_class.__name__} of "
                                 f"{rules.instance_class.__module__} has no verb "
                                 f"{stub.__name__}: this driver does not play that game")
        return impls[stub.__name__]
    # inlined into the driver: an overload compiled apart re-optimizes all it reaches
    overload(stub, inline="always")(typer)
    return stub


def _python(name: str) -> NotImplementedError:
    return NotImplementedError(f"{name} is a kernel verb: call it from compiled code")


@_typed
def new_state(rules, policies):
    raise _python("new_state")


@_typed
def copy_state(rules, dst, src):
    raise _python("copy_state")


@_typed
def load_state(rules, state, row):
    raise _python("load_state")


@_typed
def deal(rules, rng, state):
    raise _python("deal")


@_typed
def start_from(rules, deal, state):
    raise _python("start_from")


@_typed
def read_deal(rules, state, deal):
    raise _python("read_deal")


@_typed
def to_act(rules, state):
    raise _python("to_act")


@_typed
def legal(rules, state, out):
    raise _python("legal")


@_typed
def apply(rules, state, action):
    raise _python("apply")


@_typed
def play_until(rules, policies, state, rng, seat, log, g):
    raise _python("play_until")


@_typed
def returns(rules, state, row):
    raise _python("returns")


@_typed
def sample(rules, policies, view, seat, rng, state, stream):
    raise _python("sample")

