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

from ._access import (DUMMY_ACTOR, combat_enemies, core_info, final_score, outcome_numbers,
                        set_forced_tactics, set_restrictions)
from .effects import TIMES
from .game import Game, Outcome, State, actor_name
from .policies import Policy, get_policy, resolve_policy

__all__ = [
    "GameConfig", "RunResult", "OUTCOME_DTYPE", "ERROR_NAMES", "play_game", "run", "play_logged", "seat_policies",
    "ERROR_NONE", "ERROR_NOT_IMPLEMENTED", "ERROR_STEP_LIMIT", "ERROR_ILLEGAL_ACTION",
    "ERROR_NO_ACTION", "ERROR_CAPACITY", "ERROR_POLICY_FAILED", "SCORE_MISSING", "PolicyFailed",
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
ERROR_CAPACITY = 5          # a card zone of the core was full (ERR_CAPACITY): stopped, no card lost
ERROR_POLICY_FAILED = 6     # the policy raised an exception instead of deciding (a plug-in's bug)
ERROR_NAMES = ("none", "not_implemented", "step_limit", "illegal_action", "no_legal_action", "capacity",
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
    heroes : tuple of str
        A game of several heroes: one hero per seat (``hero`` is then ignored); empty: solo.
    """

    scenario: str = "first-reconnaissance"
    hero: str = "arythea"
    content: Optional[str] = None
    lost_legion: bool = False
    max_steps: int = 100_000
    heroes: tuple = ()

    def game(self) -> Game:
        """The :class:`Game` (built once per process, configuration and content version)."""
        if self.heroes:
            return _game_seats(self.scenario, tuple(self.heroes), self.content, self.lost_legion,
                               _content_stamp(self.content))
        return _game(self.scenario, self.hero, self.content, self.lost_legion, _content_stamp(self.content))


def _content_stamp(path) -> tuple:
    """What identifies a content path's current version: size and modification time of the
    file, or of every file of the folder.  A file edited between two runs of one process (a
    notebook, a test) is loaded again instead of played from the cache."""
    if not path:
        return ()
    p = Path(path)
    try:
        files = sorted(q for q in p.rglob("*") if q.is_file()) if p.is_dir() else [p]
        return tuple((str(q), q.stat().st_mtime_ns, q.stat().st_size) for q in files)
    except OSError:
        return ("unreadable",)


@functools.lru_cache(maxsize=32)
def _game(scenario, hero, content, lost_legion, stamp=()) -> Game:
    return Game(scenario, hero, content=_content(content, stamp), lost_legion=lost_legion)


@functools.lru_cache(maxsize=64)
def _game_seats(scenario, heroes, content, lost_legion, stamp=()) -> Game:
    return Game(scenario, heroes=list(heroes), content=_content(content, stamp), lost_legion=lost_legion)


#: (path, stamp) -> Content a worker received from its parent with its tasks (``_task``).
_PRELOADED: dict = {}


@functools.lru_cache(maxsize=8)
def _content(path, stamp=()):
    """The loaded content of ``path`` (None: shipped), once per process and version of the
    files (``stamp``): the cells of an experiment share it, so its tables are compiled once.
    A loky worker of ``mksim run`` gets its parent's loaded content with its tasks instead
    of reading and checking the files again (~0.3 s per worker)."""
    hit = _PRELOADED.get((path, stamp))
    if hit is not None:
        return hit
    from .content import load_content
    return load_content(Path(path) if path else None)


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
    state, error, message = _play_state(config, seed, game_index, _policy(policy))
    return _record(game, state, game_index, error, message)


def _play_state(config: GameConfig, seed: int, game_index: int, pol: Policy,
                forced: Optional[dict] = None, restrict: Optional[dict] = None) -> tuple[State, int, str]:
    """Set up and play one game; ``forced`` maps round -> tactic index the player must take
    (an experiment's tactic arm, ``GameState.forced_tactic``); ``restrict`` is a restricted-play
    arm as :func:`restriction_indices` gives it (``GameState.forbid_*``).  Returns (state,
    error, message)."""
    game = config.game()
    state = game.new_state(seed, game_index)
    if forced:
        set_forced_tactics(state.core, forced)
    if restrict:
        set_restrictions(state.core, **restrict)
    seats = pol if isinstance(pol, list) else None       # one policy per seat (several heroes)
    for p in seats or (pol,):
        p.reset(seed, game_index)
    error, message = ERROR_NONE, ""
    try:
        if seats is not None:
            _play_seats(state, seats, config.max_steps)
        elif pol.metadata.get("fast_path"):
            pol.play_engine(state.engine, config.max_steps)
        else:
            _play_python(state, pol, config.max_steps)
    except NotImplementedError as err:
        error = ERROR_CAPACITY if str(err).startswith("ERR_CAPACITY") else ERROR_NOT_IMPLEMENTED
        message = str(err)
    except ValueError as err:
        message = str(err) if str(err).startswith("policy ") else f"the engine refused an action it listed as legal: {err}"
        error = ERROR_ILLEGAL_ACTION
    except PolicyFailed as err:
        error, message = ERROR_POLICY_FAILED, str(err)
    except RuntimeError as err:
        error, message = ERROR_NO_ACTION, str(err)
    if error == ERROR_NONE and not state.engine.is_terminal():
        error, message = ERROR_STEP_LIMIT, f"no end after {config.max_steps} decisions (step limit)"
    return state, error, message


def _play_python(state: State, policy: Policy, max_steps: int) -> None:
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        if len(legal) == 0:
            raise RuntimeError("no legal action although the game is not over")
        state.apply(choose_checked(policy, state, legal))
        steps += 1


def _play_seats(state: State, seats: list, max_steps: int) -> None:
    """Play a game of several heroes, each decision by the policy of the seat whose decision
    it is (``State.current_player``; the dummy never decides).  When every seat's policy has
    a C core (random, eager, heuristic) the whole game runs in the engine's nogil loop
    (``play_seats``); else one Python call per decision.  Both make the same decisions."""
    from .policies.builtin import _CPolicy
    if all(isinstance(p, _CPolicy) and p.metadata.get("fast_path") for p in seats):
        cores = [p._core for p in seats]
        cores[0].play_seats(cores, state.engine, max_steps)     # binds each core to the content
        return
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        if len(legal) == 0:
            raise RuntimeError("no legal action although the game is not over")
        state.apply(choose_checked(seats[state.current_player()], state, legal))
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

def seat_policies(specs, n_seats: int) -> list:
    """One policy per seat from ``specs`` (a spec / Policy, or a list of them): one spec for
    all seats, or exactly one per seat.  Seat k's policy, when it takes a ``stream``, is built
    anew with its stream + k, so no two seats draw from the same policy stream
    (``ext/_policies.pxd``), whether the seats share one spec or each has its own; seat 0 is
    the policy as given (``mksim run`` plays the same, :meth:`mksim.experiments.Cell.seat_specs`).

    Raises
    ------
    ValueError
        The number of specs is neither 1 nor ``n_seats``.
    """
    items = list(specs) if isinstance(specs, (list, tuple)) else [specs]
    if len(items) not in (1, n_seats):
        raise ValueError(f"{len(items)} policies for {n_seats} seats: give one for all or one per seat")
    per_seat = len(items) == n_seats
    out = []
    for k in range(n_seats):
        item = items[k] if per_seat else items[0]
        pol = _policy(item) if (k == 0 or per_seat or isinstance(item, (str, tuple))) else out[0]
        if k and any(q.name == "stream" for q in type(pol).parameter_specs()):   # seat k: stream + k
            params = dict(pol.parameters)
            params["stream"] = int(params.get("stream", 0)) + k
            pol = type(pol)(**params)
        out.append(pol)
    return out


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
    seats = list(policy) if isinstance(policy, (list, tuple)) else [policy]
    for pol in seats:
        pol.reset(seed, game_index)
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
            tp = info["turn_player"]
            if game.n_players > 1 and 0 <= tp < game.n_players:     # the acting seat's numbers
                pl = before["players"][tp]
                hand, deck, fame = len(pl["hand"]), len(pl["deck"]), pl["fame"]
            else:
                hand, deck, fame = info["n_hand"], info["n_deck"], info["fame"]
            echo(f"-- {actor_name(game, before, tp)}'s turn (hand {hand}, deck {deck}, Fame {fame}) --")
        turn_start = at_start
        if step >= max_steps:
            echo(f"game stopped: no end after {max_steps} decisions (step limit)")
            return state.result()
        legal = state.legal_actions()
        if len(legal) == 0:
            echo("game stopped: no legal action although the game is not over")
            return state.result()
        seat = info["current"] if 0 <= info["current"] < len(seats) else 0
        try:
            action = choose_checked(seats[seat], state, legal)
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
        who = f"{game.name('hero', game.hero_ids[seat])}: " if game.n_players > 1 else ""
        echo(f"  {step:4d}. {who}{words}{_consequences(game, before, after, seat)}")
        for line in _combat_lines(game, fighting, combat_enemies(state.core)):
            echo(line)
        for line in _offstage(game, before, after):
            echo(line)
        before = after
    out = state.result()
    if game.n_players > 1:                # 17.3.1, 20.1.1: most points win, ties share
        seats_words = "; ".join(
            f"{game.name('hero', h)} Fame {f}, score {sc}{' (wins)' if w else ''}"
            for h, f, sc, w in zip(game.hero_ids, out.seat_fame, out.seat_score, out.seat_won))
        echo(f"game over: {out.termination.replace('_', ' ')} in round {out.rounds}: "
             f"{seats_words}; {out.steps} decisions")
        return out
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


def _consequences(game: Game, before: dict, after: dict, seat: int = 0) -> str:
    """What the decision visibly did to the deciding hero (``seat``): Fame, level, new
    tiles, the tactic."""
    notes = []
    p0, p1 = before["players"][seat], after["players"][seat]
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


# ---------------------------------------------------------------------------------------
# Experiments: chunks of games per cell, in parallel, stored by the parent (mksim run)
# ---------------------------------------------------------------------------------------

class RunError(Exception):
    """A run that cannot start or go on (bad folder, full disk, unreachable scheduler): one
    line for the user; chunks already written are kept."""


class RunInterrupted(Exception):
    """Ctrl-C: the run stopped; ``stored`` games are on disk in whole chunks."""

    def __init__(self, stored: int, total: int):
        super().__init__(f"{stored} of {total} games stored")
        self.stored, self.total = stored, total


def restriction_indices(cell, tables) -> dict:
    """A cell's restriction arm (``Cell.forbid``: content ids) as the content indices
    :func:`mksim._access.set_restrictions` takes; empty when the cell forbids nothing."""
    from .content import SITE_IDS
    rows = {"cards": tables.card_ids, "skills": tables.skill_ids, "units": tables.unit_ids,
            "sites": SITE_IDS}
    return {kind: [list(rows[kind]).index(x) for x in ids] for kind, ids in cell.forbid}


def cell_config(cell) -> GameConfig:
    return GameConfig(cell.scenario, cell.hero, cell.content, cell.lost_legion, cell.max_steps,
                      tuple(getattr(cell, "seats", ())))


def cell_policies(cell) -> list:
    """The policy of every seat of a cell of several heroes (:meth:`Cell.seat_specs`)."""
    return [get_policy(n, **p) for n, p, _ in cell.seat_specs()]


def play_cell_chunk(cell, seed: int, start: int, stop: int, in_worker: bool = False):
    """Play games ``start .. stop-1`` of ``cell`` (an :class:`mksim.experiments.Cell`).

    Game ``k`` is set up from ``(seed, k)`` and the policy is reset with ``(seed, k)`` in
    every cell (common random numbers), whatever process plays it.  The numbers come from
    the engine's counters (``fill_game``, one C call per game and seat), not from replaying
    the game.

    A cell of several heroes (``cell.seats``) has one games row per game and seat (game
    order, then seat order) and one rounds row per game, seat and round.  ``score`` is the
    seat's final score (17.3.1, 20.1-20.3: Fame, achievements, titles), ``titles`` its title
    points (20.3), ``won`` most points (ties share the victory, 20.1.1) and ``rank`` 1 + the
    seats with more points (tied seats share a rank); ``seconds`` is the game's time on each
    of its rows.

    Returns
    -------
    games : numpy.ndarray of mksim.results.GAMES_DTYPE
    rounds : numpy.ndarray of mksim.results.ROUNDS_DTYPE
    messages : dict of int to str
        Why a game stopped, per game index (only games that did not finish).
    seconds : float
    """
    import time
    from ._access import ROUND_FIELDS, STATS_FIELDS, STATS_MAX_ROUNDS, STATS_SITE_KINDS, fill_game, seat_scores
    from .results import GAMES_DTYPE, ROUNDS_DTYPE
    if in_worker:
        _worker_init()           # no-op when loky's initializer already ran it
    t_chunk = time.perf_counter()
    config = cell_config(cell)
    game = config.game()
    seats = tuple(getattr(cell, "seats", ()))
    if seats:
        pol, forced = cell_policies(cell), None
    else:
        pol = get_policy(cell.policy, **dict(cell.params))
        forced = {r: game.tables.tactic_ids.index(t) for r, t in cell.forced}
    restrict = restriction_indices(cell, game.tables)
    n_seats = len(seats) or 1
    n = stop - start
    rows = n * n_seats
    # per-row numbers go into plain buffers (one C call, fill_game, per game and seat); the
    # structured arrays are filled column by column at the end, so Python work per game
    # stays small
    stats = np.zeros((rows, len(STATS_FIELDS)), np.int32)
    tactics = np.zeros((rows, STATS_MAX_ROUNDS), np.int32)
    sites = np.zeros((rows, STATS_SITE_KINDS), np.int32)
    rbuf = np.zeros((rows * STATS_MAX_ROUNDS, len(ROUND_FIELDS)), np.int32)
    n_rounds = np.zeros(rows, np.int64)
    term = np.zeros(rows, np.int8)
    finished = np.zeros(rows, np.bool_)
    errors = np.zeros(rows, np.int8)
    score = np.full(rows, SCORE_MISSING, np.int32)
    seconds = np.zeros(rows, np.float64)
    if seats:
        titles = np.zeros(rows, np.int16)
        won = np.zeros(rows, np.bool_)
        rank = np.zeros(rows, np.int8)
    messages = {}
    nr = 0
    clock = time.perf_counter
    scoring, rounds_total, cities = game.scoring, game.rounds, game.cities_total
    for i in range(n):
        g = start + i
        t0 = clock()
        state, error, message = _play_state(config, seed, g, pol, forced, restrict)
        core = state.core
        done = error == ERROR_NONE and state.engine.is_terminal()
        first = i * n_seats
        # the game's rows: an int index when solo (a numpy slice assignment costs ~10 times
        # a scalar one, a few us per game)
        at = slice(first, first + n_seats) if seats else first
        term[at] = TERM_STEP_LIMIT if error == ERROR_STEP_LIMIT else outcome_numbers(core)[0]
        finished[at] = done
        errors[at] = error
        if done and seats:
            scored = seat_scores(core, game.titles)
            points = [x for x, _ in scored]
            score[at] = points
            titles[at] = [t for _, t in scored]
            won[at] = [x == max(points) for x in points]
            rank[at] = [1 + sum(y > x for y in points) for x in points]
        elif done:
            score[at] = final_score(core, scoring, rounds_total, cities)
        for p in range(n_seats):
            k = fill_game(core, p, first + p, stats, tactics, sites, rbuf, nr)
            n_rounds[first + p] = k
            nr += k
        if message:
            messages[g] = message
        seconds[at] = clock() - t0
    games = np.zeros(rows, dtype=GAMES_DTYPE)
    games["game_index"] = np.repeat(np.arange(start, stop), n_seats)
    games["player"] = np.tile(np.arange(n_seats), n)
    games["termination"] = term
    games["finished"] = finished
    games["error"] = errors
    games["score"] = score
    if seats:
        games["titles"] = titles
        games["won"] = won
        games["rank"] = rank
    for k, name in enumerate(STATS_FIELDS):
        games[name] = stats[:, k]
    games["tactics"] = tactics
    games["conquered"] = sites
    games["seconds"] = seconds
    rounds = np.zeros(nr, dtype=ROUNDS_DTYPE)
    rounds["game_index"] = np.repeat(np.repeat(np.arange(start, stop, dtype=np.int64), n_seats), n_rounds)
    rounds["player"] = np.repeat(np.tile(np.arange(n_seats, dtype=np.int8), n), n_rounds)
    # round numbers 1..k of each game and seat: positions within each one's run of rows
    first_row = np.repeat(np.cumsum(n_rounds) - n_rounds, n_rounds)
    rounds["round"] = np.arange(nr) - first_row + 1
    for k, name in enumerate(ROUND_FIELDS):
        rounds[name] = rbuf[:nr, k]
    return games, rounds, messages, time.perf_counter() - t_chunk


from .pool import _worker_init, cpus_available, kill_loky_workers as _kill_loky_workers  # noqa: E402,F401


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, MiB: Linux's ``VmHWM`` (the peak of this
    program image; ``ru_maxrss`` also keeps the peak from before ``exec``, so a loky worker
    would report the memory of the parent it was forked from), else ``ru_maxrss``."""
    import resource
    import sys
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (2**20 if sys.platform == "darwin" else 1024), 1)


def default_chunk_size(games: int) -> int:
    """Games per chunk when neither the experiment nor --chunk-size says: about 8 chunks per
    cell (progress and resume have some grain), at most 5,000 games (about 1.5 MB of records
    in flight per chunk); a stored chunk costs the parent about 25 ms of CPU whatever its size
    (building, writing and appending its tables) and ~7 ms more per 1,000 games (measured with
    Parquet chunk files; Arrow chunk files take about a fifth off the whole).  Chunks of
    10,000 took a fifth less of that CPU but raised the parent's peak at 1,000,000 games from
    ~165 to 181 MB (VmHWM; 195 MB sampled), too close to issue 10's 200 MB."""
    return max(1, min(5000, math.ceil(games / 8)))


#: The run's last chunk is played as up to TAIL_PIECES pieces, each half the one before (the
#: last two equal), none under TAIL_MIN games: the cores finish nearly together - within the
#: smallest piece - instead of one idling while the other plays a whole last chunk (issue 10's
#: parallel efficiency).
TAIL_PIECES = 5
TAIL_MIN = 100


def tail_cuts(start: int, stop: int) -> list[int]:
    """Where the run's last chunk ``start .. stop`` is cut, both ends included: at half of it,
    at half of the rest, ... (at most TAIL_PIECES pieces, no half under TAIL_MIN games);
    ``[start, stop]`` when it is too small to cut."""
    cuts = [start]
    while len(cuts) < TAIL_PIECES and (stop - cuts[-1]) // 2 >= TAIL_MIN:
        cuts.append(cuts[-1] + (stop - cuts[-1]) // 2)
    return cuts + [stop]


def plan_chunks(exp, chunk_size: int) -> list[tuple[int, int, int]]:
    """(cell, start, stop) of every chunk, in the order the results are stored: chunks of
    ``chunk_size`` consecutive games of each cell, the run's last one cut by :func:`tail_cuts`
    (not in a precision run, whose rounds extend the last cell: a cut chunk of one round
    would not be a chunk of the next)."""
    plan = [(c.index, s, min(s + chunk_size, exp.games))
            for c in exp.cells for s in range(0, exp.games, chunk_size)]
    if plan and not getattr(exp, "precision", None):
        cell, start, stop = plan[-1]
        cuts = tail_cuts(start, stop)
        plan[-1:] = [(cell, a, b) for a, b in zip(cuts, cuts[1:])]
    return plan


#: What a run writes under temporary names ``.NAME.tmpPID`` in its folder (``.content.pickle``:
#: the workers' content file of earlier versions).
_TEMPORARIES = {".games.parquet", ".rounds.parquet", ".manifest.json", ".content.pickle"}


def prepare_folder(out: Path, exp, resume: bool, overwrite: bool) -> Optional[dict]:
    """Check the output folder against ``exp``; returns the manifest there (None: new run).

    Raises
    ------
    RunError
        A folder holding another experiment (without ``overwrite``), a non-empty folder that
        is no results folder, ``resume`` with no run, a folder that cannot be written.
    """
    from .results import ResultsError, read_manifest, remove_results
    if out.exists() and not out.is_dir():
        raise RunError(f"--out {out}: is a file, not a folder")
    try:
        manifest = read_manifest(out) if out.is_dir() else None
    except ResultsError as err:
        if not overwrite:
            raise RunError(f"{err} (use --overwrite to replace it)") from None
        manifest = None
    if manifest is not None and manifest.get("fingerprint") != exp.fingerprint():
        if not overwrite:
            raise RunError(f"--out {out}: holds results of a different experiment "
                           f"({manifest['experiment'].get('name')!r}, {manifest.get('fingerprint', '')[:12]}); "
                           f"choose another folder or add --overwrite to replace them")
        manifest = None
    if overwrite and out.is_dir():
        if manifest is None:
            remove_results(out)
        else:
            remove_results(out)
            manifest = None
    if resume and manifest is None:
        raise RunError(f"--resume: {out} holds no run to resume")
    # leftovers of a killed run (temporary names: never whole chunks or results)
    stale = [p for p in out.glob(".*.tmp*") if p.name.split(".tmp")[0] in _TEMPORARIES] if out.is_dir() else []
    if manifest is None and out.is_dir() and any(p.name != "chunks" and p not in stale for p in out.iterdir()):
        raise RunError(f"--out {out}: the folder is not empty and holds no mksim results; "
                       f"choose an empty or new folder")
    if out.is_dir():
        for p in stale + list((out / "chunks").glob(".*.tmp*")):
            p.unlink()
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "chunks").mkdir(exist_ok=True)
        probe = out / ".mksim-write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as err:
        raise RunError(f"--out {out}: cannot write there ({err.strerror or err})") from None
    return manifest


def _backend_context(backend: str, scheduler: Optional[str], jobs: int):
    """(context manager, n_jobs) for joblib; Dask: a client on ``scheduler`` or a
    LocalCluster of ``jobs`` worker processes on the loopback interface."""
    import contextlib
    if backend == "loky":
        return contextlib.nullcontext(), jobs
    if backend != "dask":
        raise RunError(f"--backend: unknown backend {backend!r}; choose loky or dask")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("--backend dask needs Dask: pip install 'mksim[dask]'") from None
    from joblib import parallel_config

    @contextlib.contextmanager
    def ctx():
        import logging
        logging.getLogger("distributed").setLevel(logging.ERROR)
        cluster = None
        try:
            if scheduler:
                try:
                    client = Client(scheduler, timeout="3s")
                except (OSError, TimeoutError) as err:
                    raise RunError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({err})") from None
            else:
                cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
                client = Client(cluster)
            try:
                with parallel_config(backend="dask"):
                    yield
            finally:
                client.close()
        finally:
            if cluster is not None:
                cluster.close()

    return ctx(), jobs


def run_experiment(exp, out, jobs: int = 1, chunk_size: Optional[int] = None, backend: str = "loky",
                   scheduler: Optional[str] = None, resume: bool = False, overwrite: bool = False,
                   on_chunk: Optional[Callable] = None, on_start: Optional[Callable] = None) -> dict:
    """Run ``exp`` into the folder ``out``: only its missing chunks (resume), then the
    consolidated games.parquet / rounds.parquet and the final manifest.

    Parameters
    ----------
    exp : mksim.experiments.Experiment
    out : path
    jobs : int
        Worker processes (already capped by the caller); 1 plays in this process (loky).
    chunk_size : int, optional
        Games per chunk; default the experiment's ``chunk_size``, else the stored run's,
        else :func:`default_chunk_size`.
    on_chunk : callable(record, done_games, total_games), optional
    on_start : callable(done_games, total_games), optional

    Returns
    -------
    dict
        The final manifest.

    Raises
    ------
    RunError, RunInterrupted
    """
    import contextlib
    ctx, jobs = _backend_context(backend, scheduler, jobs) if (jobs > 1 or backend == "dask") \
        else (contextlib.nullcontext(), jobs)
    with ctx:                    # the Dask client first: an unreachable scheduler writes nothing
        if getattr(exp, "precision", None):
            return _run_to_precision(exp, out, jobs, chunk_size, backend, scheduler, resume, overwrite,
                                     on_chunk, on_start)
        return _run_experiment(exp, out, jobs, chunk_size, backend, scheduler, resume, overwrite,
                               on_chunk, on_start)


def precision_widths(out: Path, exp, games: int) -> dict:
    """Per cell label: the width of the 95% interval of the precision metric over the stored
    games ``0 .. games-1`` (the same estimators as the report: bootstrap means, Wilson rates)."""
    from .results import read_games
    from .stats import mean_ci, proportion_ci
    metric = exp.precision["metric"]
    col = "termination" if metric == "win" else metric
    t = read_games(Path(out), columns=["cell", "game_index", col])
    cell = np.asarray(t.column("cell").to_numpy())
    gi = np.asarray(t.column("game_index").to_numpy())
    if metric == "win":
        v = np.array([x == "scenario_won" for x in t.column(col).to_pylist()], dtype=float)
    else:
        v = np.array([np.nan if x is None else x for x in t.column(col).to_pylist()], dtype=float)
    widths = {}
    for c in exp.cells:
        x = v[(cell == c.index) & (gi < games)]
        if metric == "win":
            e = proportion_ci(int(x.sum()), len(x))
        else:
            e = mean_ci(x[~np.isnan(x)], seed=len(x))
        widths[c.label] = float(e.width)
    return widths


def _run_to_precision(exp, out, jobs, chunk_size, backend, scheduler, resume, overwrite, on_chunk, on_start):
    """An experiment with a precision target: rounds of ``exp.games`` games per cell, until
    every cell's 95% interval of the target metric is narrower than ``ci_width`` or each cell
    holds ``max_games``.  Every round plays the next game indices of every cell (the seeds stay
    shared: stopping early never breaks the pairing); the decision after each round reads only
    stored chunks, so a resumed run stops where an uninterrupted one does."""
    import dataclasses
    from .results import read_manifest, write_manifest
    target, cap, step = exp.precision["ci_width"], exp.precision["max_games"], exp.precision["round"]
    chunk = chunk_size or exp.chunk_size or default_chunk_size(step)
    if step % chunk:                      # every round must end on a chunk boundary
        chunk = math.gcd(chunk, step)
    out = Path(out)
    games = step
    first = True
    while True:
        stage = dataclasses.replace(exp, games=games)
        manifest = _run_experiment(stage, out, jobs, chunk, backend, scheduler, resume or not first,
                                   overwrite and first, on_chunk, on_start if first else None,
                                   consolidate_results=False)
        first = False
        if manifest["run"]["status"] == "complete":
            return manifest                # a finished precision run: nothing more to decide
        widths = precision_widths(out, exp, games)
        reached = all(w < target for w in widths.values())
        if reached or games >= cap:
            break
        games = min(games + step, cap)
    stage = dataclasses.replace(exp, games=games)
    manifest = _run_experiment(stage, out, jobs, chunk, backend, scheduler, True, False, None, None)
    manifest["precision"] = {"metric": exp.precision["metric"], "ci_width": target, "max_games": cap,
                             "games": games, "reached": reached,
                             "stopped_by": "target" if reached else "max_games",
                             "widths": {k: round(v, 6) for k, v in widths.items()}}
    write_manifest(out, manifest)
    return manifest


def _run_experiment(exp, out, jobs, chunk_size, backend, scheduler, resume, overwrite, on_chunk, on_start,
                    consolidate_results: bool = True):
    """The body of :func:`run_experiment`, inside the backend's context."""
    import time
    import warnings
    from . import __version__
    from .results import (chunk_tables, done_chunks, git_commit, machine_info, now, remove_chunks,
                          write_chunk, write_manifest, FORMAT, StreamingConsolidation)
    out = Path(out)
    manifest = prepare_folder(out, exp, resume, overwrite)
    if manifest is not None:
        stored = manifest["run"]["chunk_size"]
        if chunk_size is not None and chunk_size != stored:
            warnings.warn(f"resuming with the stored chunk size {stored} (not {chunk_size})")
        chunk_size = stored
    chunk_size = chunk_size or exp.chunk_size or default_chunk_size(exp.games)
    plan = plan_chunks(exp, chunk_size)
    total = exp.games * len(exp.cells)
    if manifest is not None and getattr(exp, "precision", None) and manifest["run"].get("status") != "complete":
        # a precision run grows by rounds: the manifest says how far this round goes
        manifest["experiment"]["games"] = exp.games
        manifest["cells"] = [{"index": c.index, "label": c.label, "games": exp.games} for c in exp.cells]
        manifest["games_total"] = total
        manifest["run"]["n_chunks"] = len(plan)
    if manifest is not None and manifest.get("run", {}).get("status") == "complete" \
            and (out / "games.parquet").exists():
        if on_start:             # the stored total (a precision run may hold more than exp.games)
            on_start(manifest["games_total"], manifest["games_total"])
        return manifest                                   # nothing is missing
    done = done_chunks(out)
    todo = [k for k in plan if k not in done]
    stored = sum(stop - start for (_, start, stop) in plan if (_, start, stop) in done)
    cells = {c.index: c for c in exp.cells}
    # the workers start first (if mksim run has not started them already): they import mksim
    # while this process writes the manifest and sets up pyarrow
    parallel = todo and not (jobs == 1 and backend == "loky")
    gen = _launch(todo, cells, exp.seed, jobs, backend, _content_blob(cells) if backend == "loky" else None) \
        if parallel else None
    stream = None
    try:
        if manifest is None:
            manifest = {
                "format": FORMAT, "mksim": __version__, "git_commit": git_commit(),
                "fingerprint": exp.fingerprint(), "experiment": exp.config(), "source": exp.source,
                "content_hashes": exp.content_hashes, "root_seed": exp.seed,
                "cells": [{"index": c.index, "label": c.label, "games": exp.games} for c in exp.cells],
                "games_total": total, "machine": machine_info(),
                "run": {"chunk_size": chunk_size, "n_chunks": len(plan), "started": now(), "ended": None,
                        "status": "running"},
                "sessions": [], "chunks": [],
            }
        session = {"started": now(), "ended": None, "jobs": jobs, "backend": backend, "scheduler": scheduler,
                   "status": "running", "peak_rss_mb": {"parent": None, "workers": None}}
        manifest["sessions"].append(session)
        manifest["run"]["status"] = "running"
        manifest["run"]["ended"] = None
        chunks_rec = {(r["cell"], r["start"], r["stop"]): r for r in manifest["chunks"]}
        chunks_rec.update({k: v for k, v in done.items() if v is not None})
        game_info = {}
        for c in exp.cells:
            g = cell_config(c).game()
            game_info[c.index] = (list(g.tables.tactic_ids), g.rounds)
        # games.parquet / rounds.parquet are written as the chunks come in (in plan order),
        # not read back from the chunk files at the end
        stream = StreamingConsolidation(out, plan, done) if consolidate_results else None
    except BaseException:
        _close(gen)
        _kill_loky_workers()
        raise

    def save_manifest():
        session["peak_rss_mb"]["parent"] = peak_rss_mb()
        manifest["chunks"] = [chunks_rec[k] for k in plan if k in chunks_rec]
        write_manifest(out, manifest)

    def store(key, result, worker_rss=None):
        nonlocal stored
        if worker_rss is not None:
            session["peak_rss_mb"]["workers"] = max(session["peak_rss_mb"]["workers"] or 0, worker_rss)
        cell = cells[key[0]]
        games, rounds, messages, seconds = result
        tactic_ids, n_rounds = game_info[key[0]]
        gt, rt = chunk_tables(exp, cell, games, rounds, messages, tactic_ids, n_rounds)
        # games, not rows: a game of several heroes has one row per seat
        rec = {"cell": key[0], "start": key[1], "stop": key[2], "games": key[2] - key[1],
               "finished": int(games["finished"][games["player"] == 0].sum()), "seconds": round(seconds, 4),
               "written": now()}
        write_chunk(out, rec, gt, rt)
        if stream is not None:
            stream.add(key, (gt, rt))
        chunks_rec[key] = rec
        stored += key[2] - key[1]
        if on_chunk:
            on_chunk(rec, stored, total)

    def fail_write(err: OSError):
        raise RunError(f"cannot write the results in {out} ({err.strerror or err}); "
                       f"{stored} of {total} games are stored in whole chunks and kept: "
                       f"fix it and run the same command again to resume") from None

    try:
        save_manifest()
    except OSError as err:
        fail_write(err)
    if on_start:
        on_start(stored, total)
    last_save = time.monotonic()
    try:
        if todo and gen is None:
            for key in todo:
                store(key, play_cell_chunk(cells[key[0]], exp.seed, key[1], key[2]))
                if time.monotonic() - last_save > 2:
                    save_manifest()
                    last_save = time.monotonic()
        elif todo:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _warm_up_arrow()         # while the workers start: the first chunk is stored at once
                for key, result, rss in gen:
                    store(key, result, rss)
                    if time.monotonic() - last_save > 2:
                        save_manifest()
                        last_save = time.monotonic()
                gen = None
        if not consolidate_results:
            session["status"] = manifest["run"]["status"] = "round done"
            session["ended"] = now()
            save_manifest()
            return manifest
        stream.finish()
        session["status"] = manifest["run"]["status"] = "complete"
        session["ended"] = manifest["run"]["ended"] = now()
        save_manifest()
        remove_chunks(out)
    except KeyboardInterrupt:
        import signal
        try:                     # a second Ctrl-C must not break the clean-up; the caller's
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)   # handler comes back after
        except ValueError:       # not the main thread: no handler to change
            previous = None
        try:
            warnings.simplefilter("ignore")                   # joblib's note on cancelled tasks
            _close(gen)
            _abort(stream)
            _kill_loky_workers()
            session["status"] = manifest["run"]["status"] = "interrupted"
            session["ended"] = now()
            try:
                save_manifest()
            except OSError:          # a full disk must not hide the interrupt: the whole chunks
                pass                 # on disk are the record, and --resume reads them
            try:                     # count what is on disk: the interrupt may have come between a
                done = done_chunks(out)       # chunk's rename and its count in store()
                stored = sum(stop - start for (_, start, stop) in plan if (_, start, stop) in done)
            except OSError:
                pass
        finally:
            # run_experiment is a library call too: leaving Ctrl-C ignored would make this
            # process, and every process it starts later (they inherit SIG_IGN), deaf to it
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        raise RunInterrupted(stored, total) from None
    except OSError as err:
        _close(gen)
        _abort(stream)
        _kill_loky_workers()
        fail_write(err)
    except BaseException:
        _close(gen)
        _abort(stream)
        _kill_loky_workers()
        raise
    _kill_loky_workers()
    return manifest


def _launch(todo, cells, seed, jobs, backend, content=None):
    """Start playing the chunks ``todo`` on ``jobs`` workers: joblib's generator of
    ``(key, chunk result, worker peak RSS)`` in the order the chunks finish (at most
    ``2 * jobs`` chunks in flight).  ``content``: the cells' loaded content
    (:func:`_content_blob`), sent with every task."""
    import warnings
    from joblib import Parallel, delayed
    from .pool import loky_parallel_kwargs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if backend == "loky":    # the arguments of pool.start_loky_workers: its workers are reused
            par = Parallel(**loky_parallel_kwargs(jobs))
        else:
            par = Parallel(n_jobs=jobs, return_as="generator_unordered", pre_dispatch="2*n_jobs", batch_size=1)
        return par(delayed(_task)(cells[k[0]], seed, k, content) for k in todo)


def _content_blob(cells) -> tuple:
    """The cells' loaded content, already in this process, for the loky workers: its keys
    ``(path, stamp)`` and ``{key: Content}`` pickled once (~240 KB for the shipped content).
    Unpickling takes ~10 ms where reading and checking the files takes ~0.3 s per worker; it
    goes with every task (a worker unpickles it once), not in loky's ``initargs``: the
    workers are started before the content is loaded (``pool.start_loky_workers``)."""
    import pickle
    data = {}
    for k in sorted({c.content or "" for c in cells.values()}):
        key = (k or None, _content_stamp(k or None))
        data[key] = _content(*key)
    return tuple(data), pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)


def _task(cell, seed, key, content=None):
    if content is not None and any(k not in _PRELOADED for k in content[0]):
        import pickle
        _PRELOADED.update(pickle.loads(content[1]))
    return key, play_cell_chunk(cell, seed, key[1], key[2], True), peak_rss_mb()


def _abort(stream) -> None:
    if stream is not None:
        stream.abort()


def _warm_up_arrow() -> None:
    """Import pyarrow and set up its ``take`` kernel (~0.3 s and ~0.2 s) while the workers
    start, before results arrive (without ``pa.array``, which would import pandas:
    mksim.results builds arrays from buffers)."""
    import pyarrow.parquet  # noqa: F401
    from .results import _names
    _names(np.zeros(2, np.int64), ["warm", "up"])


def _close(gen) -> None:
    if gen is not None:
        try:
            gen.close()
        except BaseException:   # noqa: BLE001 - closing an aborted generator may re-raise
            pass

