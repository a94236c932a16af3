"""The policy interface (in the style of the Axelrod library's players).

A policy has a ``name``, the ``parameters`` it was built with and a ``metadata`` dict that
classifies it (is it stochastic, does it look at the state, has it a C fast path ...).  It
makes one decision at a time: ``choose(state, legal)`` returns one of the legal action
codes.  Before each game the runner calls ``reset(seed, game_index)``; a stochastic policy
must draw only from its own stream seeded from those two numbers (never from Python's
``random`` or numpy's global generator), so that game ``k`` of a run is the same game
whatever the number of processes.
"""
from __future__ import annotations

from typing import Any, ClassVar, Sequence

from .._rng import check_seed


class Policy:
    """Base class of all policies.

    Parameters
    ----------
    **parameters
        The policy's own settings; kept in :attr:`parameters` and in ``repr``.

    Attributes
    ----------
    name : str
        Registry name (lower case, hyphen-separated), e.g. ``"random"``.
    description : str
        One line for ``mksim`` listings.
    metadata : dict
        Classifier: ``stochastic`` (bool), ``uses_state`` (reads the state beyond the legal
        list), ``fast_path`` (implements :meth:`play_engine`), ``rules`` (rule numbers it
        relies on, may be empty).
    parameters : dict
        The settings it was built with.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    metadata: ClassVar[dict[str, Any]] = {
        "stochastic": False, "uses_state": False, "fast_path": False, "rules": (),
    }

    def __init__(self, **parameters: Any) -> None:
        self.parameters: dict[str, Any] = dict(parameters)
        self.seed = 0
        self.game_index = 0

    def reset(self, seed: int, game_index: int = 0) -> None:
        """Prepare for game ``game_index`` of the run seeded ``seed``."""
        self.seed = check_seed(seed, "seed")                 # 0 .. 2**64 - 1, never wrapped
        self.game_index = check_seed(game_index, "game_index")

    def choose(self, state, legal: Sequence[int]) -> int:
        """Return one action of ``legal`` for ``state`` (a :class:`mksim.game.State`).

        Parameters
        ----------
        state : mksim.game.State
            The state to decide in.  Do not change it; use ``state.clone()`` to look ahead.
        legal : sequence of int
            ``state.legal_actions()`` (never empty when called).

        Returns
        -------
        int
            An element of ``legal``.
        """
        raise NotImplementedError(f"policy {self.name!r} does not implement choose()")

    def play_engine(self, engine, max_steps: int) -> int:
        """Optional C fast path: play ``engine`` (an :class:`mksim._engine.Engine`) to the
        end or ``max_steps`` actions, making exactly the decisions :meth:`choose` would.
        Policies without one leave ``metadata["fast_path"]`` False."""
        raise NotImplementedError(f"policy {self.name!r} has no fast path")

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"{self.name}({params})" if params else self.name
