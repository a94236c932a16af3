"""The policy interface (in the style of the Axelrod library's players).

A policy has a ``name``, the ``parameters`` it was built with and a ``metadata`` dict that
classifies it (is it stochastic, does it see hidden information, has it a C fast path, what
does a decision cost ...).  It makes one decision at a time: ``choose(state, legal)``
returns one of the legal action codes.  Before each game the runner calls
``reset(seed, game_index)``; a stochastic policy must draw only from its own stream seeded
from those two numbers (never from Python's ``random`` or numpy's global generator), so
that game ``k`` of a run is the same game whatever the number of processes.

A plug-in is a plain Python subclass (no compilation): see docs/policies.md.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from .._rng import check_seed
#: Metadata keys every policy has, with the value a subclass gets when it leaves one out.
METADATA_DEFAULTS: dict[str, Any] = {
    "stochastic": False,     # decisions drawn from the policy's seeded stream
    "uses_state": False,     # reads the state beyond the legal list
    "sees_hidden": False,    # reads hidden information (then the name starts with "oracle-")
    "fast_path": False,      # implements play_engine (C loop, no Python per decision)
    "cost": "constant",      # cost per decision, in words (e.g. "constant", "~ legal actions", "budget x rollouts")
    "rules": (),             # rule numbers it relies on
}


@dataclass(frozen=True)
class Parameter:
    """One setting of a policy: read from its ``__init__`` signature.

    Attributes
    ----------
    name : str
    type : type or None
        ``int``, ``float``, ``bool``, ``str`` (settable from the command line), or another
        annotation (settable from Python only); None when not annotated.
    default : Any
        ``inspect.Parameter.empty`` when required.
    help : str
        From the class's ``parameter_help`` dict (may be empty).
    """

    name: str
    type: Any
    default: Any
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty

    @property
    def type_name(self) -> str:
        t = self.type
        if t is None:
            return "any"
        return getattr(t, "__name__", str(t))


_SIMPLE = {"int": int, "float": float, "bool": bool, "str": str}


def _annotation(cls, value) -> Any:
    """An annotation as a type (string annotations of ``from __future__ import annotations``
    resolved for the simple types; others kept as the string)."""
    if value is inspect.Parameter.empty:
        return None
    if isinstance(value, str):
        v = value.strip()
        if v in _SIMPLE:
            return _SIMPLE[v]
        return v
    return value


class Policy:
    """Base class of all policies.

    Subclass it, set ``name`` (lower case, hyphen-separated), ``description`` (one
    paragraph: how it plays) and ``metadata``, take the settings as keyword arguments of
    ``__init__`` (annotated ``int`` / ``float`` / ``bool`` / ``str`` with defaults, so that
    ``--policy NAME:key=value`` can set them) and implement :meth:`choose`.

    Parameters
    ----------
    **parameters
        The policy's own settings; kept in :attr:`parameters` and in ``repr``.

    Attributes
    ----------
    name : str
        Registry name, e.g. ``"random"``.
    description : str
        How it plays, one paragraph (``mksim policies show NAME``).
    metadata : dict
        Classifier, keys of :data:`METADATA_DEFAULTS`: ``stochastic``, ``uses_state``,
        ``sees_hidden``, ``fast_path``, ``cost``, ``rules``.
    parameter_help : dict of str to str
        One line per parameter (optional).
    parameters : dict
        The settings it was built with.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    metadata: ClassVar[dict[str, Any]] = dict(METADATA_DEFAULTS)
    parameter_help: ClassVar[dict[str, str]] = {}

    def __init__(self, **parameters: Any) -> None:
        self.parameters: dict[str, Any] = dict(parameters)
        self.seed = 0
        self.game_index = 0

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        meta = dict(METADATA_DEFAULTS)
        meta.update(getattr(super(cls, cls), "metadata", {}) or {})   # inherited settings
        meta.update(cls.__dict__.get("metadata", {}) or {})
        cls.metadata = meta

    @classmethod
    def parameter_specs(cls) -> list[Parameter]:
        """The settings ``__init__`` takes (``self`` and ``**kwargs`` left out)."""
        if cls.__init__ is Policy.__init__:
            return []
        out = []
        for p in inspect.signature(cls.__init__).parameters.values():
            if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            out.append(Parameter(p.name, _annotation(cls, p.annotation), p.default,
                                 cls.parameter_help.get(p.name, "")))
        return out

    def reset(self, seed: int, game_index: int = 0) -> None:
        """Prepare for game ``game_index`` of the run seeded ``seed``."""
        self.seed = check_seed(seed, "seed")                 # 0 .. 2**64 - 1, never wrapped
        self.game_index = check_seed(game_index, "game_index")

    def choose(self, state, legal: Sequence[int]) -> int:
        """Return one action of ``legal`` for ``state`` (a :class:`mksim.game.State`).

        Parameters
        ----------
        state : mksim.game.State
            The state to decide in.  Do not change it; read it through ``state.view()``
            and look ahead only on ``state.determinize(seed)`` (a policy that reads the
            true future must declare ``sees_hidden``).
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
