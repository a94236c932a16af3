"""The ``search`` policy: rollouts of a base policy on determinized copies (ext/_search.pyx)."""
from __future__ import annotations

from typing import Sequence

from .base import Policy
from .registry import build, policy_class, register

#: Base policies a search can roll out with (C policies with a decision hook).
BASES = ("heuristic", "heuristic-explorer", "heuristic-conqueror", "heuristic-balanced", "eager", "random")


@register
class SearchPolicy(Policy):
    """Look-ahead over determinized copies, rolled out with a base policy.

    With several heroes the search decides for the seat whose decision it is, on worlds
    determinized for that seat (the other seats' hands and decks resampled); the base policy
    plays every seat in a rollout, the other seats' turns included, until the deciding
    seat's next turn, and the value is the deciding seat's own (docs/policies.md).

    Parameters
    ----------
    budget : int, default 16
        Rollouts per searched decision, split over the candidate actions (at least one
        each); the cost of a decision grows linearly with it.
    horizon : int, default 0
        Turns of the player a rollout plays past the current one (0 = to the end of the
        current turn).
    max_branch : int, default 8
        Decisions with more legal actions than this are left to the base policy.
    base : str, default "heuristic"
        The policy rollouts are played with, and that decides where no search is made.
    rollout_steps : int, default 400
        Safety cap on one rollout's decisions.
    value_shield : float, default 4
        Solo Conquest: value of each own Shield on a city (a defender defeated, 11.12.2).
    value_city : float, default 10
        Solo Conquest: value of each city conquered (its +10 of 20.5.2 is not Fame yet).
    stream : int, default 0
        Policy stream k (the worlds sampled come from it).
    **base_params
        ``base_NAME=value`` sets parameter ``NAME`` of the base policy (e.g.
        ``base_aggression=1.5`` or ``base_preset=conqueror`` for the heuristic,
        ``base_default=2`` for eager); checked and converted by the base's own parameters.
    """

    name = "search"
    description = (
        "At each decision with at most max_branch options it tries every option on budget/n "
        "determinized copies of the game -- worlds consistent with what the player knows, "
        "never the true deck order, face-down tokens, tile stack or dice -- and plays each "
        "copy on with the base policy (heuristic by default) to the end of the turn (or "
        "horizon more turns); it takes the option with the best mean value (Fame, plus "
        "Units, crystals and level, minus Wounds). Other decisions are the base policy's.")
    metadata = {"stochastic": True, "uses_state": True, "sees_hidden": False, "fast_path": False,
                "cost": "budget rollouts of the base policy per searched decision",
                "rules": ()}
    parameter_help = {
        "budget": "rollouts per searched decision (split over the options)",
        "horizon": "turns past the current one each rollout plays",
        "max_branch": "decisions with more options go to the base policy",
        "base": "policy the rollouts play with: " + ", ".join(BASES),
        "rollout_steps": "safety cap on one rollout's decisions",
        "stream": "policy stream k",
        "value_shield": "Solo Conquest: value of an own Shield on a city",
        "value_city": "Solo Conquest: value of a city conquered",
    }
    #: Prefix of the parameters passed on to the base policy (``base_aggression=1.5``).
    BASE_PREFIX = "base_"

    _oracle = False

    def __init__(self, budget: int = 16, horizon: int = 0, max_branch: int = 8, base: str = "heuristic",
                 rollout_steps: int = 400, stream: int = 0, value_shield: float = 4.0,
                 value_city: float = 10.0, **base_params) -> None:
        from .. import _search
        if base not in BASES:
            raise ValueError(f"unknown base policy {base!r}; known: {', '.join(BASES)}")
        own = {}
        for key, value in base_params.items():
            if not key.startswith(self.BASE_PREFIX) or key == self.BASE_PREFIX:
                raise ValueError(f"unknown search parameter {key!r} (base policy parameters are "
                                 f"{self.BASE_PREFIX}NAME)")
            own[key[len(self.BASE_PREFIX):]] = value
        # the base's own parameter machinery checks the names and refuses bad values
        self._base = build(policy_class(base), base, own)
        core_base = getattr(self._base, "_core", None)
        self._core = _search.SearchPolicy(0, 0, int(stream), core_base, int(budget), int(horizon),
                                          int(max_branch), int(rollout_steps), oracle=self._oracle,
                                          value_shield=float(value_shield), value_city=float(value_city))
        self._scratch_game = None
        super().__init__(budget=int(budget), horizon=int(horizon), max_branch=int(max_branch), base=base,
                         rollout_steps=int(rollout_steps), stream=int(stream),
                         value_shield=float(value_shield), value_city=float(value_city), **base_params)

    @classmethod
    def parameter_specs(cls):
        """The search's own parameters, then ``base_NAME`` for every parameter ``NAME`` of the
        base policies (:data:`BASES`; default None = the base's own default), so that
        ``--policy search:base=heuristic,base_aggression=1.5`` converts the value by the base's
        parameter type.  Which names a given base takes is checked when it is built."""
        from .base import Parameter
        own = super().parameter_specs()
        seen = {p.name for p in own}
        out = list(own)
        for name in BASES:
            for p in policy_class(name).parameter_specs():
                key = cls.BASE_PREFIX + p.name
                if key in seen:
                    continue
                seen.add(key)
                out.append(Parameter(key, p.type, None, f"base policy's {p.name} (default: its own)"))
        return out

    def reset(self, seed: int, game_index: int = 0) -> None:
        super().reset(seed, game_index)
        self._core.reset(seed, game_index)       # resets the base and clears its memory too

    def _scratch_for(self, state) -> None:
        """A copy of the game being played for the rollouts to run on (made once per Game)."""
        if self._scratch_game is not state.game:
            self._core.set_scratch(state.clone().engine)
            bind = getattr(self._core.base_policy(), "bind", None)
            if bind is not None:                 # the heuristic reads the content tables once
                bind(state.engine)
            self._scratch_game = state.game

    def choose(self, state, legal: Sequence[int]) -> int:
        self._scratch_for(state)
        return self._core.choose_in(state.engine, legal)

    @property
    def searched(self) -> int:
        """Decisions searched since the last reset."""
        return int(self._core.searched)

    @property
    def rollouts(self) -> int:
        return int(self._core.rollouts)

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_scratch_game"] = None                # rebuilt on the first decision after unpickling
        return d


@register
class OracleSearchPolicy(SearchPolicy):
    """``search`` that cheats: its rollouts run on exact copies of the true state."""

    name = "oracle-search"
    description = (
        "The search policy with its rollouts played on exact copies of the true state: it "
        "knows the order of its deck, the face-down tokens, the tile stack and every future "
        "die. It is not an honest player; it measures how much hidden information is worth "
        "to the search (compare with search at the same budget).")
    metadata = {"stochastic": True, "uses_state": True, "sees_hidden": True, "fast_path": False,
                "cost": "budget rollouts of the base policy per searched decision", "rules": ()}
    _oracle = True
