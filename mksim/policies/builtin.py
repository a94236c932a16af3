"""Built-in policies: ``random`` (C core in ext/_policies.pyx) and ``first``."""
from __future__ import annotations

from typing import Sequence

from .. import _policies
from .base import Policy
from .registry import register


class _CPolicy(Policy):
    """A policy whose decisions come from a C object of ``mksim._policies`` (``self._core``):
    the Python ``choose`` and the fast path ``play_engine`` draw the same numbers."""

    def reset(self, seed: int, game_index: int = 0) -> None:
        super().reset(seed, game_index)
        self._core.reset(seed, game_index)

    def choose(self, state, legal: Sequence[int]) -> int:
        if state is None:                   # legal-list only (the C hook then sees no engine)
            return self._core.choose(legal)
        return self._core.choose_in(state.engine, legal)

    def play_engine(self, engine, max_steps: int) -> int:
        return self._core.play(engine, max_steps)


def _stream(stream) -> int:
    stream = int(stream)
    if stream < 0:
        raise ValueError("stream must be >= 0")
    return stream


@register
class RandomPolicy(_CPolicy):
    """Uniformly random legal action.

    Parameters
    ----------
    stream : int, default 0
        Policy stream ``k``: decisions come from ``rng_seed(seed, game_index, 100 + k)``
        (``ext/_policies.pxd``), never from a game stream, so the same seed gives the same
        game and the same decisions in any process.
    """

    name = "random"
    description = ("Takes a uniformly random legal action at every decision, from its own seeded "
                   "stream. It ends most turns at once and scores about 0 Fame: a baseline and a "
                   "sweep policy for the engine, not a player.")
    metadata = {"stochastic": True, "uses_state": False, "sees_hidden": False, "fast_path": True,
                "cost": "constant (one draw)", "rules": ()}
    parameter_help = {"stream": "policy stream k: decisions from rng_seed(seed, game, 100 + k)"}

    def __init__(self, stream: int = 0) -> None:
        stream = _stream(stream)
        super().__init__(stream=stream)
        self._core = _policies.RandomPolicy(0, 0, stream)


@register
class FirstPolicy(Policy):
    """Always the first legal action (deterministic baseline; the engine lists actions in a
    fixed order: cards in hand order, then healing, moves, explorations, end of turn)."""

    name = "first"
    description = ("Always takes the first legal action in the engine's listing order (cards in "
                   "hand order, then healing, moves, explorations, end of turn). Deterministic "
                   "baseline; it mostly plays its first card and ends the turn.")
    metadata = {"stochastic": False, "uses_state": False, "sees_hidden": False, "fast_path": False,
                "cost": "constant", "rules": ()}

    def choose(self, state, legal: Sequence[int]) -> int:
        return int(legal[0])


@register
class EagerPolicy(_CPolicy):
    """A random legal action weighted by its kind: a player who wants things to happen.

    Ending the turn, a combat phase or the round is possible but rare; exploring, fighting,
    recruiting, buying and entering sites are preferred (``mksim._policies.EAGER_WEIGHTS``).
    It is a baseline that reaches far more of the game than ``random`` (which ends most
    turns at once), and a sweep policy for the engine's tests.

    Parameters
    ----------
    stream : int, default 0
        Policy stream ``k`` (as for ``random``).
    weights : dict of str to float, optional
        Weight per action kind (names of ``mksim._engine.KIND_NAMES``), replacing the
        defaults for the kinds it names.
    default : float, default 4.0
        Weight of kinds named neither here nor in the defaults.
    """

    name = "eager"
    description = ("Takes a random legal action weighted by its kind: exploring, entering sites, "
                   "interacting, attacking, blocking, recruiting and buying weigh far more than "
                   "ending the turn, a combat phase or the round. It reaches much more of the game "
                   "than random (combat, sites, units, level-ups) but does not plan: a baseline.")
    metadata = {"stochastic": True, "uses_state": False, "sees_hidden": False, "fast_path": True,
                "cost": "~ legal actions (one weighted draw)", "rules": ()}
    parameter_help = {"stream": "policy stream k (as for random)",
                      "weights": "weight per action kind (Python only), replacing the defaults it names",
                      "default": "weight of kinds named neither in weights nor in the defaults"}

    def __init__(self, stream: int = 0, weights: dict | None = None, default: float = 4.0) -> None:
        stream = _stream(stream)
        merged = dict(_policies.EAGER_WEIGHTS)
        merged.update(weights or {})
        self._core = _policies.WeightedPolicy(0, 0, stream, merged, float(default))
        params = {"stream": stream, "default": float(default)}
        if weights:
            params["weights"] = dict(weights)
        super().__init__(**params)
