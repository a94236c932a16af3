"""Real positions with a given handler's question pending, made by the engine itself.

A real position of a seeded game (the start of a regular turn, or a combat against
Prowlers written over it) is given the card, skill or Unit whose effect holds the
handler, crystals and mana tokens to pay for it; the engine then plays it
(``A_PLAY``, ``A_USE_SKILL``, ``A_ACTIVATE_UNIT``) and answers the questions it asks with
their first options until the handler waits at the stage wanted.  What the handler
stored there (``turn.hvars``, ``turn.handler_stage``, ``turn.ask_options``) is exactly
what a game stores: tests/test_fixture_pending.py and the fixture fuzz change it.
"""
from __future__ import annotations

import json
from functools import lru_cache

from mksim._access import core_info
from mksim.game import Game

# action kinds (ext/_engine.pxd ActionKind; an action is kind << 20 | arg)
A_PLAY = 5
A_CHOOSE = 7


def action_kind(a: int) -> int:
    return int(a) >> 20


@lru_cache(maxsize=None)
def game(scenario: str = "first-reconnaissance", hero: str = "arythea", lost_legion: bool = True) -> Game:
    return Game(scenario, hero, lost_legion=lost_legion)


@lru_cache(maxsize=None)
def _move_position(scenario: str, hero: str, lost_legion: bool, seed: int) -> str:
    """A real position at the start of the Move phase of round 1's first turn (JSON)."""
    from mksim.policies import get_policy
    g = game(scenario, hero, lost_legion)
    state = g.new_state(seed)
    pol = get_policy("eager")
    pol.reset(seed, 0)
    for _ in range(50):
        if state.phase == "move" and core_info(state.core)["handler_row"] < 0:
            # format 1: the tests write hands over this position without taking the cards
            # out of the decks, which format 2 refuses (a card in more places than it has copies)
            return json.dumps(state.to_dict(format=1))
        pol.play_engine(state.engine, 1)
    raise RuntimeError("no Move phase reached")


def base_position(combat: str | None = None, seed: int = 3, **game_kw) -> dict:
    """The real Move-phase position of seed ``seed``; with ``combat`` (a combat phase name)
    a combat against Prowlers on the hero's space is written over it."""
    key = (game_kw.get("scenario", "first-reconnaissance"), game_kw.get("hero", "arythea"),
           game_kw.get("lost_legion", True))
    d = json.loads(_move_position(*key, seed))
    if combat is not None:
        d["phase"] = combat
        d["turn"]["action_taken"] = 1
        d["combat"] = {"active": 1, "units_allowed": 1,
                       "enemies": [{"enemy": "prowlers"}, {"enemy": "prowlers"}]}
    return d


def pending_name(state) -> str | None:
    """The name of the handler (or op) whose question is pending, None if none."""
    row = core_info(state.core)["handler_row"]
    if row < 0:
        return None
    t = state.game.tables
    op, hid = int(t.effects[row, 0]), int(t.effects[row, 1])
    from mksim import effects as fx
    name = fx.OPS[op].name
    return t.handlers[hid] if name == "handler" else name


def stage_of(state) -> int:
    return state.core.raw_dict()["turn"]["handler_stage"]


def drive(base: dict, handler: str, stage: int, *, hand=(), patch=None, first=None, depth: int = 5,
          game_kw=None):
    """A State with ``handler`` waiting at ``stage``: ``base`` with ``hand`` put in the
    hand (first), plenty of mana, and ``patch`` (fixture keys, merged a level deep); then
    every legal action ``first`` accepts (default: card plays) is tried, and each question
    answered option by option (depth first) until the handler waits at ``stage``.
    None when no line of play reaches it."""
    g = game(**(game_kw or {}))
    d = json.loads(json.dumps(base))
    pl = d["players"][0]
    pl["hand"] = list(hand) + pl["hand"]
    pl["crystals"] = {"red": 3, "blue": 3, "white": 3, "green": 3}
    d["turn"]["mana_tokens"] = {c: 2 for c in ("red", "blue", "white", "green", "gold", "black")}
    for k, v in (patch or {}).items():
        if isinstance(v, dict) and isinstance(d.get(k), dict):
            d[k].update(v)
        elif k == "players":
            d["players"][0].update(v[0])
        else:
            d[k] = v
    state = g.state_from_dict(d)
    first = first or (lambda a: action_kind(a) == A_PLAY and (int(a) & 0x7F) < len(hand))

    def search(s, left):
        if pending_name(s) == handler and stage_of(s) == stage:
            return s
        if left == 0 or s.is_terminal():
            return None
        if core_info(s.core)["handler_row"] < 0:
            return None
        for a in s.legal_actions():
            c = s.clone()
            try:
                c.apply(int(a))
            except (ValueError, NotImplementedError):
                continue
            found = search(c, left - 1)
            if found is not None:
                return found
        return None

    for a in state.legal_actions():
        if not first(int(a)):
            continue
        c = state.clone()
        try:
            c.apply(int(a))
        except (ValueError, NotImplementedError):
            continue
        found = search(c, depth)
        if found is not None:
            return found
    return None
