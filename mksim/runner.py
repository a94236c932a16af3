"""Play many games: one compact numpy record per game, in parallel with joblib.

>>> from mksim.runner import GameConfig, run
>>> res = run(GameConfig("first-reconnaissance", "arythea"), n_games=100, seed=1, jobs=2)
>>> res.records["fame"].mean(), res.n_stopped

Game ``k`` of a run seeded ``s`` is set up from the engine's streams seeded with
``(s, k)`` and the policy is re-seeded with ``(s, k)`` before it (``Policy.reset``), so the
records are identical whatever ``jobs`` and ``chunk`` are.

A game the engine cannot finish (a rule not implemented yet raises NotImplementedError) is
never hidden: its record has ``finished = False``, ``error = ERROR_NOT_IMPLEMENTED`` and the
message is kept in :attr:`RunResult.messages`.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

import numpy as np

from ._policies import DUMMY_ACTOR, combat_enemies, core_info, final_score, outcome_numbers
from .effects import TIMES
from .game import Game, Outcome, State, actor_name
from .policies import Policy, resolve_policy

__all__ = [
    "GameConfig", "RunResult", "OUTCOME_DTYPE", "ERROR_NAMES", "play_game", "run", "play_logged",
    "ERROR_NONE", "ERROR_NOT_IMPLEMENTED", "ERROR_STEP_LIMIT", "ERROR_ILLEGAL_ACTION",
    "ERROR_NO_ACTION", "ERROR_POLICY_FAILED", "SCORE_MISSING", "PolicyFailed",
]

#: One game's record.  ``termination`` codes are ``TERMINATION_NAMES`` of ext/_state.pyx
#: (0 none, 1 scenario_won, 2 round_limit, 3 step_limit); ``error`` codes are ERROR_NAMES.
OUTCOME_DTYPE = np.dtype([
    ("game_index", "<i8"),
    ("termination", "i1"),
    ("finished", "?"),
    ("error", "i1"),
    ("fame", "<i2"),
    ("score", "<i4"),      # SCORE_MISSING when the game did not finish
    ("rounds", "i1"),
    ("steps", "<i4"),
])
ERROR_NONE = 0
ERROR_NOT_IMPLEMENTED = 1   # the engine raised NotImplementedError (a rule still missing)
ERROR_STEP_LIMIT = 2        # max_steps decisions without an end (termination step_limit)
ERROR_ILLEGAL_ACTION = 3    # the policy chose an action that is not legal
ERROR_NO_ACTION = 4         # a game not over offered no legal action (an engine bug)
ERROR_POLICY_FAILED = 5     # the policy raised an exception instead of deciding (a plug-in's bug)
ERROR_NAMES = ("none", "not_implemented", "step_limit", "illegal_action", "no_legal_action",
               "policy_failed")
SCORE_MISSING = np.iinfo(np.int32).min
TERM_STEP_LIMIT = 3

PolicySpec = Union[str, Policy, tuple]


@dataclass(frozen=True)
class GameConfig:
    """What is played: scenario, hero, content and limits (picklable, hashable).

    Parameters
    ----------
    scenario, hero : str
        As for :class:`mksim.game.Game` (kebab-case or snake_case ids).
    content : str or None
        Path of edited content (as ``--content``), or None for the shipped catalogue.
    lost_legion : bool
        Add The Lost Legion's components (LL-2.3).
    max_steps : int
        Safety valve: decisions after which a game is stopped with ERROR_STEP_LIMIT.
    """

    scenario: str = "first-reconnaissance"
    hero: str = "arythea"
    content: Optional[str] = None
    lost_legion: bool = False
    max_steps: int = 100_000

    def game(self) -> Game:
        """The :class:`Game` (built once per process and configuration)."""
        return _game(self.scenario, self.hero, self.content, self.lost_legion)


@functools.lru_cache(maxsize=32)
def _game(scenario, hero, content, lost_legion) -> Game:
    return Game(scenario, hero, content=Path(content) if content else None, lost_legion=lost_legion)


def _policy(spec: PolicySpec) -> Policy:
    """A Policy, a spec string (``NAME:key=value,...``, ``file.py:Class``) or (name, params)."""
    return resolve_policy(spec)


class PolicyFailed(Exception):
    """The policy raised instead of deciding; the game is recorded as stopped."""


def choose_checked(policy: Policy, state: State, legal) -> int:
    """``policy.choose`` held to the contract: an exception becomes :class:`PolicyFailed`
    and an action not in ``legal`` a ValueError starting "policy ..."; the game is then
    recorded as stopped with that reason (never silently fixed)."""
    try:
        action = policy.choose(state, legal)
    except Exception as err:
        raise PolicyFailed(f"policy {policy!r} failed: {type(err).__name__}: {err}") from err
    try:
        action = int(action)
    except (TypeError, ValueError):
        raise ValueError(f"policy {policy!r} chose {action!r}, which is not an action code") from None
    if action not in legal:
        raise ValueError(f"policy {policy!r} chose action {action}, which is not legal here")
    return action


@dataclass
class RunResult:
    """Records of a run (``OUTCOME_DTYPE``, ordered by game index) and the stop messages.

    Attributes
    ----------
    records : numpy.ndarray
    messages : dict of int to str
        Game index -> why that game did not finish (only for games with an error).
    """

    records: np.ndarray
    messages: dict

    @property
    def n_finished(self) -> int:
        return int(self.records["finished"].sum())

    @property
    def n_stopped(self) -> int:
        return int((self.records["error"] != ERROR_NONE).sum())

    def top_errors(self, k: int = 5) -> list[tuple[str, int]]:
        """The ``k`` most frequent stop messages with their counts."""
        counts: dict[str, int] = {}
        for msg in self.messages.values():
            counts[msg] = counts.get(msg, 0) + 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def _record(game: Game, state: State, game_index: int, error: int, message: str) -> tuple[np.ndarray, str]:
    term, fame, steps, rnd = outcome_numbers(state.core)
    finished = bool(state.engine.is_terminal()) and error == ERROR_NONE
    rec = np.zeros((), dtype=OUTCOME_DTYPE)
    rec["game_index"] = game_index
    rec["termination"] = TERM_STEP_LIMIT if error == ERROR_STEP_LIMIT else term
    rec["finished"] = finished
    rec["error"] = error
    rec["fame"] = fame
    rec["score"] = (final_score(state.core, game.scoring, game.rounds, game.cities_total)
                    if finished else SCORE_MISSING)
    rec["rounds"] = rnd
    rec["steps"] = steps
    return rec, message


def play_game(config: GameConfig, seed: int, game_index: int, policy: PolicySpec = "random") -> tuple[np.ndarray, str]:
    """Play game ``game_index`` of the run seeded ``seed`` to its end.

    Parameters
    ----------
    config : GameConfig
    seed, game_index : int
    policy : Policy, str or (name, params)
        Re-seeded with ``reset(seed, game_index)`` first.  A policy with a fast path
        (``metadata["fast_path"]``) plays on the engine directly.

    Returns
    -------
    record : numpy.ndarray
        A 0-d array of ``OUTCOME_DTYPE``.
    message : str
        Empty when the game finished; otherwise why it stopped (the engine's
        NotImplementedError message, the step limit, an illegal policy action).
    """
    game = config.game()
    pol = _policy(policy)
    state = game.new_state(seed, game_index)
    pol.reset(seed, game_index)
    error, message = ERROR_NONE, ""
    try:
        if pol.metadata.get("fast_path"):
            pol.play_engine(state.engine, config.max_steps)
        else:
            _play_python(state, pol, config.max_steps)
    except NotImplementedError as err:
        error, message = ERROR_NOT_IMPLEMENTED, str(err)
    except ValueError as err:
        message = str(err) if str(err).startswith("policy ") else f"the engine refused an action it listed as legal: {err}"
        error = ERROR_ILLEGAL_ACTION
    except PolicyFailed as err:
        error, message = ERROR_POLICY_FAILED, str(err)
    except RuntimeError as err:
        error, message = ERROR_NO_ACTION, str(err)
    if error == ERROR_NONE and not state.engine.is_terminal():
        error, message = ERROR_STEP_LIMIT, f"no end after {config.max_steps} decisions (step limit)"
    return _record(game, state, game_index, error, message)


def _play_python(state: State, policy: Policy, max_steps: int) -> None:
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        if len(legal) == 0:
            raise RuntimeError("no legal action although the game is not over")
        state.apply(choose_checked(policy, state, legal))
        steps += 1


def _play_chunk(config: GameConfig, seed: int, indices: list[int], policy: PolicySpec):
    pol = _policy(policy)
    recs = np.zeros(len(indices), dtype=OUTCOME_DTYPE)
    messages = {}
    for i, g in enumerate(indices):
        rec, msg = play_game(config, seed, g, pol)
        recs[i] = rec
        if msg:
            messages[g] = msg
    return recs, messages


def run(config: GameConfig, n_games: int, seed: int, jobs: int = 1, chunk: Optional[int] = None,
        policy: PolicySpec = "random") -> RunResult:
    """Play games ``0 .. n_games-1`` of the run seeded ``seed``.

    Parameters
    ----------
    config : GameConfig
    n_games : int
    seed : int
    jobs : int
        Worker processes (joblib, loky backend); 1 plays in this process.
    chunk : int, optional
        Games per task; default spreads the games over about 4 tasks per worker.
    policy : Policy, str or (name, params)

    Returns
    -------
    RunResult
        The same records for any ``jobs`` and ``chunk``.
    """
    if n_games < 0:
        raise ValueError("n_games must be >= 0")
    if jobs < 1:
        raise ValueError("jobs must be >= 1")
    if chunk is None:
        chunk = max(1, math.ceil(n_games / (jobs * 4))) if n_games else 1
    if chunk < 1:
        raise ValueError("chunk must be >= 1")
    pol = _policy(policy)
    blocks = [list(range(i, min(i + chunk, n_games))) for i in range(0, n_games, chunk)]
    if jobs == 1:
        parts = [_play_chunk(config, seed, b, pol) for b in blocks]
    else:
        from joblib import Parallel, delayed
        parts = Parallel(n_jobs=jobs, backend="loky")(delayed(_play_chunk)(config, seed, b, pol) for b in blocks)
    records = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, dtype=OUTCOME_DTYPE)
    messages = {}
    for p in parts:
        messages.update(p[1])
    return RunResult(records=records, messages=messages)


# ---------------------------------------------------------------------------------------
# One game, told turn by turn
# ---------------------------------------------------------------------------------------

def play_logged(game: Game, seed: int, game_index: int, policy: Policy,
                echo: Callable[[str], None] = print, max_steps: int = 100_000,
                state: Optional[State] = None) -> Outcome:
    """Play one game and tell it turn by turn through ``echo``.

    ``state`` continues a game from a given position (a fixture, docs/fixtures.md) instead
    of setting up game ``game_index`` of the run seeded ``seed``.

    Prints round headers (Day / Night, 2.1), each turn of the hero, the dummy's turns
    (18.4), every decision in words, Fame gained, and the end.  When the engine stops at a
    rule it does not implement yet, the last line is ``game stopped: <message>``.

    Returns
    -------
    Outcome
        ``stopped`` is set when the game did not finish.
    """
    policy.reset(seed, game_index)
    if state is None:
        state = game.new_state(seed, game_index)
    before = state.to_dict()
    last_round = None
    step = 0
    turn_start = False
    while not state.is_terminal():
        info = core_info(state.core)
        if (info["round"], info["time"]) != last_round:
            last_round = (info["round"], info["time"])
            echo(f"== Round {info['round']} ({TIMES[info['time']].capitalize()}) ==")
        at_start = info["phase"] == 1    # PH_TURN_START: before-turn decisions (4.1)
        if at_start and not turn_start:
            echo(f"-- {actor_name(game, before, info['turn_player'])}'s turn "
                 f"(hand {info['n_hand']}, deck {info['n_deck']}, Fame {info['fame']}) --")
        turn_start = at_start
        if step >= max_steps:
            echo(f"game stopped: no end after {max_steps} decisions (step limit)")
            return state.result()
        legal = state.legal_actions()
        if len(legal) == 0:
            echo("game stopped: no legal action although the game is not over")
            return state.result()
        try:
            action = choose_checked(policy, state, legal)
        except (PolicyFailed, ValueError) as err:
            state.stopped = str(err)
            echo(f"game stopped: {err}")
            return state.result()
        words = state.action_to_string(action)
        step += 1
        fighting = combat_enemies(state.core)
        try:
            state.apply(action)
        except NotImplementedError as err:
            echo(f"  {step:4d}. {words}")
            echo(f"game stopped: {err}")
            return state.result()
        if words.startswith(("announce the End", "forfeit")):
            turn_start = False           # the turn is over (4.2.6, 4.2.5)
        after = state.to_dict()
        echo(f"  {step:4d}. {words}{_consequences(game, before, after)}")
        for line in _combat_lines(game, fighting, combat_enemies(state.core)):
            echo(line)
        for line in _offstage(game, before, after):
            echo(line)
        before = after
    out = state.result()
    score = f", score {out.score}" if out.score is not None else ""
    echo(f"game over: {out.termination.replace('_', ' ')} in round {out.rounds}: "
         f"Fame {out.fame}{score}, {out.steps} decisions")
    return out


CE_DEFEATED = 1   # CombatEnemyFlags (ext/_types.pxd)


def enemy_words(game: Game, enemy_index: int) -> str:
    """An enemy token as a player reads it: name, Armor, attacks with their elements,
    abilities and resistances (e.g. ``Diggers (Armor 3, Attack 3, fortified)``)."""
    ident = game.tables.enemy_ids[enemy_index]
    e = game.content.get("enemies", ident)
    parts = [f"Armor {e['armor']}"]
    for a in e.get("attacks", []):
        element = "" if a["element"] == "physical" else f" {a['element'].replace('_', ' ')}"
        parts.append(f"Attack {a['value']}{element}")
    for s in e.get("summon", []):
        parts.append(f"summons {s if isinstance(s, str) else s.get('colour', s)}")
    parts += [ab.replace("_", " ") for ab in e.get("abilities", [])
              if not (ab == "summon" and e.get("summon"))]
    if e.get("resistances"):
        parts.append("resists " + " and ".join(r.replace("_", " ") for r in e["resistances"]))
    return f"{e.get('name', ident)} ({', '.join(parts)})"


def _combat_lines(game: Game, before: list, after: list) -> list[str]:
    """Combat in the log (11): the enemies when a combat starts or enemies join it, and
    each enemy defeated."""
    lines = []
    old = {slot: (enemy, flags) for slot, enemy, flags in before}
    joined = [enemy for slot, enemy, _flags in after if slot not in old]
    if joined:
        lines.append(("  -- combat: " if not old else "  -- joining the combat: ")
                     + "; ".join(enemy_words(game, e) for e in joined))
    for slot, enemy, flags in after:
        was = old.get(slot)
        if flags & CE_DEFEATED and not (was and was[1] & CE_DEFEATED):
            lines.append(f"  -- {game.name('enemy', game.tables.enemy_ids[enemy])} is defeated")
    return lines


def _wounds(player: dict) -> int:
    return sum(1 for zone in ("hand", "discard", "deck") for c in player.get(zone, []) if c == "wound")


def _consequences(game: Game, before: dict, after: dict) -> str:
    """What the decision visibly did to the hero: Fame, level, new tiles, the tactic."""
    notes = []
    p0, p1 = before["players"][0], after["players"][0]
    if p1["tactic"] and p1["tactic"] != p0["tactic"] and after.get("dummy"):
        dummy_tactic = after["dummy"]["tactic"]
        if dummy_tactic:
            notes.append(f"the dummy takes {game.name('tactic', dummy_tactic)}")
    n0, n1 = len(before["map"]["tiles"]), len(after["map"]["tiles"])
    if n1 > n0:
        notes.append("reveals " + ", ".join(t["tile"] for t in after["map"]["tiles"][n0:]))
    if p1["fame"] != p0["fame"]:
        notes.append(f"{p1['fame'] - p0['fame']:+d} Fame")
    wounds = _wounds(p1) - _wounds(p0)
    if wounds > 0:
        notes.append(f"{wounds} Wound{'s' if wounds > 1 else ''}")
    if p1.get("reputation") != p0.get("reputation") and p1.get("reputation") is not None:
        notes.append(f"Reputation {p1['reputation'] - p0['reputation']:+d}")
    if p1["level"] != p0["level"]:
        notes.append(f"level {p1['level']}")
    return f"  [{'; '.join(notes)}]" if notes else ""


def _offstage(game: Game, before: dict, after: dict) -> list[str]:
    """Lines for what happened without a decision: the dummy's turns (18.4), its End of
    the Round announcement (18.4.3) and the round's end (14.1)."""
    lines = []
    d0, d1 = before.get("dummy"), after.get("dummy")
    same_round = before["round"] == after["round"]
    if d0 and d1 and same_round and len(d1["discard"]) > len(d0["discard"]):
        flipped = [game.name("card", c) for c in d1["discard"][len(d0["discard"]):]]
        lines.append(f"  -- {actor_name(game, after, DUMMY_ACTOR)} takes a turn: flips "
                     f"{', '.join(flipped)} ({len(d1['deck'])} left in its deck)")
    if after["end_announced_by"] == DUMMY_ACTOR and before["end_announced_by"] is None:
        lines.append(f"  -- {actor_name(game, after, DUMMY_ACTOR)} announces the End of the Round")
    if not same_round:
        lines.append(f"  -- end of round {before['round']}")
    return lines
