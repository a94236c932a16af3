"""The read-only view of a game for policies: what the acting player sees.

``state.view()`` returns a :class:`PolicyView`: plain integers read by one C call
(``mksim._access.view_numbers``, through the same ``ext/_view.pxd`` accessors C policies
use), no ``to_dict()``.  Hidden zones appear only as sizes (``deck_size``,
``tile_stack_size``, ``dummy_deck_size``) and face-down tokens as -1, so a policy that
reads only the view is blind to hidden information by construction.  Content indices
(cards, units, enemies, sites, skills) are turned into ids with :meth:`PolicyView.name`.
docs/policies.md lists every key.
"""
from __future__ import annotations

from typing import Any

from .._access import view_numbers
from .._state import PHASE_NAMES

__all__ = ["PolicyView"]


class PolicyView:
    """What the acting player of ``state`` sees (a snapshot: it does not follow the state).

    Attributes are the keys of ``mksim._access.view_numbers`` (docs/policies.md), e.g.
    ``view.hand`` (card indices), ``view.move``, ``view.attack[kind][element]``,
    ``view.hexes[i]["tokens"]``.  ``view.phase_name`` gives the phase in words.
    """

    __slots__ = ("_d", "_game")

    def __init__(self, state) -> None:
        self._d = view_numbers(state.core)
        self._game = state.game

    def __getattr__(self, key: str) -> Any:
        try:
            return self._d[key]
        except KeyError:
            raise AttributeError(f"the policy view has no {key!r}; keys: {', '.join(sorted(self._d))}") from None

    def __setattr__(self, key, value) -> None:
        if key in PolicyView.__slots__:
            object.__setattr__(self, key, value)
        else:
            raise AttributeError("the policy view is read-only")

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self._d["phase"]]

    def keys(self) -> list[str]:
        return sorted(self._d)

    def to_dict(self) -> dict:
        """A copy of the numbers (for logging or tests)."""
        import copy
        return copy.deepcopy(self._d)

    def name(self, kind: str, index: int) -> str:
        """The content id of ``index`` in table ``kind`` (``"card"``, ``"unit"``, ``"enemy"``,
        ``"skill"``, ``"tactic"``, ``"site"``, ``"hero"``); ``"?"`` for -1 (hidden)."""
        if index is None or index < 0:
            return "?"
        ids = _ids(self._game, kind)
        return ids[index] if index < len(ids) else "?"


def _ids(game, kind: str) -> list:
    from .. import content as _ct
    t = game.tables
    table = {"card": "card_ids", "unit": "unit_ids", "enemy": "enemy_ids", "skill": "skill_ids",
             "tactic": "tactic_ids", "hero": "hero_ids", "tile": "tile_ids"}
    if kind == "site":
        return list(_ct.SITE_IDS)
    if kind not in table:
        raise ValueError(f"unknown content kind {kind!r}; known: site, {', '.join(table)}")
    return list(getattr(t, table[kind]))
