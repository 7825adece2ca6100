"""The kernel contract: one verb set that every game's kernels speak.

The verbs are the reference engine's (``analyzer.core.game``) in kernel form, over a flat
state. Each takes the game's ``rules`` first: a ``NamedTuple`` of arrays whose class names
the game (``kernels.dingniu.verbs.Rules``, …). A game registers its implementations with
:func:`register`; the drivers (:mod:`kernels.drivers`) call only the verbs below, as
``game.<verb>``, and so are written once for every game. Each driver is built once per game
with that game's verbs in place of ``game`` (:func:`verbs_of`), inlined where they are
called: a verb is compiled inside its driver and nowhere else.

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

import inspect
import types
from collections.abc import Callable

from .jit import njit

# what the play driver needs, and what the paired play-outs and the replay need besides
PLAY_VERBS = ("new_state", "copy_state", "load_state", "deal", "start_from", "read_deal",
              "play_until", "returns")
STEP_VERBS = ("to_act", "legal", "apply", "sample")
VERBS = PLAY_VERBS + STEP_VERBS

# rules class -> verb name -> a Python function Numba compiles in the caller (typically a
# one-line call of the game's own jit-compiled function)
_GAMES: dict[type, dict[str, Callable]] = {}
# rules class -> the namespace a driver calls as ``game`` (built on first use)
_MODULES: dict[type, types.ModuleType] = {}


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
    for name, impl in verbs.items():  # every game's verb reads as the stub does
        want = list(inspect.signature(globals()[name]).parameters)
        got = list(inspect.signature(impl).parameters)
        if got != want:
            raise TypeError(f"{rules_class.__name__}.{name} takes {got}, the verb {want}")
    _GAMES[rules_class] = dict(verbs)
    _MODULES.pop(rules_class, None)


def registered(steps: bool = False) -> tuple[type, ...]:
    """The rules classes of every game registered so far (with ``steps``: those that
    speak the step verbs too)."""
    return tuple(c for c, v in _GAMES.items() if not steps or "legal" in v)


def verbs_of(rules_class: type, steps: bool = False) -> types.ModuleType:
    """The namespace of ``rules_class``'s verbs, each compiled inline where a driver calls
    it (``game.deal(…)`` in a driver built for this game); ``steps``: the driver needs the
    step verbs too. A rules class that is not registered, or lacks a verb the driver needs,
    is refused here by name, before anything compiles."""
    impls = _GAMES.get(rules_class)
    if impls is None:
        raise TypeError(f"{rules_class.__module__}.{rules_class.__name__} speaks no kernel "
                        f"contract: no game registered it")
    if steps and "legal" not in impls:
        raise TypeError(f"{rules_class.__name__} of {rules_class.__module__} has no verb "
                        f"{', '.join(STEP_VERBS)}: this driver does not play that game")
    module = _MODULES.get(rules_class)
    if module is None:
        module = types.ModuleType(f"{__name__}.{rules_class.__name__}")
        for name, impl in impls.items():
            # a compiled function stays a call; a plain one is inlined into the driver
            inline = getattr(impl, "py_func", None) is None
            setattr(module, name, njit(inline="always")(impl) if inline else impl)
        _MODULES[rules_class] = module
    return module


def _python(name: str) -> NotImplementedError:
    return NotImplementedError(f"{name} is a kernel verb: the drivers call the game's own")


# The verbs' signatures (register checks each implementation's against them).


def new_state(rules, policies):
    raise _python("new_state")


def copy_state(rules, dst, src):
    raise _python("copy_state")


def load_state(rules, state, row):
    raise _python("load_state")


def deal(rules, rng, state):
    raise _python("deal")


def start_from(rules, deal, state):
    raise _python("start_from")


def read_deal(rules, state, deal):
    raise _python("read_deal")


def to_act(rules, state):
    raise _python("to_act")


def legal(rules, state, out):
    raise _python("legal")


def apply(rules, state, action):
    raise _python("apply")


def play_until(rules, policies, state, rng, seat, log, g):
    raise _python("play_until")


def returns(rules, state, row):
    raise _python("returns")


def sample(rules, policies, view, seat, rng, state, stream):
    raise _python("sample")

