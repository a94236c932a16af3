"""Built-in policies: ``random`` (C core in ext/_policies.pyx) and ``first``."""
from __future__ import annotations

from typing import Sequence

from .. import _policies
from .base import Policy
from .registry import register


@register
class RandomPolicy(Policy):
    """Uniformly random legal action.

    Parameters
    ----------
    stream : int, default 0
        Policy stream ``k``: decisions come from ``rng_seed(seed, game_index, 100 + k)``
        (``ext/_policies.pxd``), never from a game stream, so the same seed gives the same
        game and the same decisions in any process.
    """

    name = "random"
    description = "a uniformly random legal action (seeded, C fast path)"
    metadata = {"stochastic": True, "uses_state": False, "fast_path": True, "rules": ()}

    def __init__(self, stream: int = 0) -> None:
        stream = int(stream)
        if stream < 0:
            raise ValueError("stream must be >= 0")
        super().__init__(stream=stream)
        self._core = _policies.RandomPolicy(0, 0, stream)

    def reset(self, seed: int, game_index: int = 0) -> None:
        super().reset(seed, game_index)
        self._core.reset(seed, game_index)

    def choose(self, state, legal: Sequence[int]) -> int:
        return self._core.choose(legal)

    def play_engine(self, engine, max_steps: int) -> int:
        return self._core.play(engine, max_steps)


@register
class FirstPolicy(Policy):
    """Always the first legal action (deterministic baseline; the engine lists actions in a
    fixed order: cards in hand order, then healing, moves, explorations, end of turn)."""

    name = "first"
    description = "always the first legal action (deterministic baseline)"
    metadata = {"stochastic": False, "uses_state": False, "fast_path": False, "rules": ()}

    def choose(self, state, legal: Sequence[int]) -> int:
        return int(legal[0])
