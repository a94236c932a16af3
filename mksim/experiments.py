"""Experiment files: what ``mksim run`` plays (docs/experiments.md).

An experiment is data only (TOML, no code): a name, the scenario, factors with their levels,
games per cell and a root seed.  The cells are every combination of the factors' levels
(heroes x policies x Lost Legion x content arms x tactic arms x restriction arms, in that order).  All cells
share the game seeds: game ``k`` of every cell is set up from the streams of ``(seed, k)``
and its policy is reset with ``(seed, k)`` (common random numbers, so comparisons between
cells are paired).

>>> from mksim.experiments import load_experiment
>>> exp = load_experiment("experiments/default.toml")
>>> [c.label for c in exp.cells]

Every problem in a file raises :class:`ExperimentError` with one line naming the file and
the key (``experiments/x.toml: factors.heroes[2]: unknown hero 'bob'; known: ...``).
"""
from __future__ import annotations

import hashlib
import itertools
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional

__all__ = ["ExperimentError", "Cell", "Experiment", "load_experiment", "experiment_from_options",
           "content_hash", "FACTORS", "FORBID_KINDS", "forbid_ids"]

#: Factor names of ``[factors]`` in the order cells are enumerated.
FACTORS = ("heroes", "seats", "policies", "lost_legion", "content", "tactics", "restrictions")
TOP_KEYS = {"name": str, "description": str, "scenario": str, "games": int, "seed": int,
            "max_steps": int, "chunk_size": int, "players": int, "factors": dict, "precision": dict}
#: Players per game: 1 (solo, with the dummy) or a competitive game of 2-4 heroes (17.3.1).
MAX_PLAYERS = 4
#: Keys of ``[precision]``: a target interval width that the runner plays games towards.
PRECISION_KEYS = {"metric": str, "ci_width": (int, float), "max_games": int}
REQUIRED = ("name", "scenario", "games", "seed")
SHIPPED = "shipped"      # name of the content arm without overrides
FREE = "free"            # name of the tactic arm where the policy chooses every tactic
UNRESTRICTED = "none"    # name of the restriction arm that forbids nothing (the reference)
#: What a restriction arm may forbid (the keys of its ``forbid`` table, in this order).
FORBID_KINDS = ("cards", "skills", "units", "sites")


class ExperimentError(ValueError):
    """Bad experiment input: the message is one line naming the file (or option) and key."""


@dataclass(frozen=True)
class Cell:
    """One combination of factor levels (picklable: sent to workers).

    Attributes
    ----------
    index : int
        Position in the experiment's cell order (0, 1, ...).
    hero, scenario : str
        Content ids (snake_case).
    policy : str
        Registered policy name; ``params`` its parameters as sorted ``(key, value)`` pairs and
        ``policy_label`` how the experiment names this arm.
    lost_legion : bool
    content_arm, content : str, str or None
        Name of the content arm and the absolute path of its override (None: shipped content).
    tactic_arm : str
        Name of the tactic arm; ``forced`` holds its ``(round, tactic id)`` pairs.
    max_steps : int
    restriction_arm : str
        Name of the restricted-play arm; ``forbid`` holds its ``(kind, ids)`` pairs (kind one
        of :data:`FORBID_KINDS`, ids sorted content ids; only kinds with ids).
    """

    index: int
    scenario: str
    hero: str
    policy: str
    params: tuple = ()
    policy_label: str = ""
    lost_legion: bool = False
    content_arm: str = SHIPPED
    content: Optional[str] = None
    tactic_arm: str = FREE
    forced: tuple = ()
    max_steps: int = 100_000
    restriction_arm: str = UNRESTRICTED
    forbid: tuple = ()
    #: A game of several heroes: the hero of each seat (seat order, 1.1.2); empty in a solo
    #: cell.  ``hero`` is then seat 0's.
    seats: tuple = ()
    #: Per seat ``(name, params pairs, label)`` as given when the policy level names one
    #: policy per seat; empty when ``policy`` plays every seat.  Either way seat k plays on
    #: its stream + k (:meth:`seat_specs`).
    seat_policies: tuple = ()

    @property
    def label(self) -> str:
        """``hero | policy | LL | content arm | tactic arm | restriction arm`` (the last four
        only when set); with several heroes ``hero,hero,...`` (seat order)."""
        parts = [",".join(self.seats) if self.seats else self.hero, self.policy_label or self.policy]
        if self.lost_legion:
            parts.append("lost-legion")
        if self.content_arm != SHIPPED:
            parts.append(self.content_arm)
        if self.tactic_arm != FREE:
            parts.append(self.tactic_arm)
        if self.restriction_arm != UNRESTRICTED:
            parts.append(self.restriction_arm)
        return " | ".join(parts)

    def policy_params_json(self) -> str:
        return json.dumps(dict(self.params), sort_keys=True)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["params"] = dict(self.params)
        d["forced"] = {str(r): t for r, t in self.forced}
        if self.restriction_arm == UNRESTRICTED and not self.forbid:
            del d["restriction_arm"], d["forbid"]     # as before the factor: same fingerprints
        else:
            d["forbid"] = {k: list(ids) for k, ids in self.forbid}
        if self.seats:
            d["seats"] = list(self.seats)
            d["seat_policies"] = [{"name": n, "params": dict(p), "label": lab} for n, p, lab in self.seat_policies]
        else:
            del d["seats"], d["seat_policies"]        # solo cells: the fingerprints of before
        d["label"] = self.label
        return d

    @property
    def players(self) -> int:
        return len(self.seats) or 1

    def seat_specs(self) -> list:
        """``(name, params dict, label)`` of the policy of every seat: the per-seat level, or
        the cell's policy for all seats; seat k's policy plays on its stream + k when it takes
        a stream, so no two seats draw the same numbers (the rule of
        :func:`mksim.runner.seat_policies`)."""
        from .policies import get_policy
        given = [(n, dict(p), lab) for n, p, lab in self.seat_policies] or \
            [(self.policy, dict(self.params), self.policy_label or self.policy)] * self.players
        out = []
        for k, (name, params, label) in enumerate(given):
            cls = type(get_policy(name, **params))
            if k and any(q.name == "stream" for q in cls.parameter_specs()):
                params = dict(params, stream=int(params.get("stream", 0)) + k)
            out.append((name, params, label))
        return out


@dataclass
class Experiment:
    """A resolved, validated experiment (see :func:`load_experiment`)."""

    name: str
    scenario: str
    games: int
    seed: int
    cells: list
    factors: dict
    source: str = "command line"
    description: str = ""
    max_steps: int = 100_000
    chunk_size: Optional[int] = None
    content_hashes: dict = field(default_factory=dict)   # content arm -> sha256 of its content
    #: ``{"metric", "ci_width", "max_games"}`` or None: play rounds of ``games`` more games per
    #: cell until every cell's 95% interval of ``metric`` is narrower than ``ci_width`` or each
    #: cell has ``max_games`` (docs/experiments.md, "Precision targets").
    precision: Optional[dict] = None
    #: Heroes per game: 1 (solo) or 2-4 (every cell's ``seats``; one row per game and player).
    players: int = 1

    def config(self) -> dict:
        """The full resolved configuration (JSON-able; stored in the manifest)."""
        cfg = {
            "name": self.name, "description": self.description, "scenario": self.scenario,
            "games": self.games, "seed": self.seed, "max_steps": self.max_steps,
            "factors": self.factors, "cells": [c.to_dict() for c in self.cells],
            "content_hashes": self.content_hashes,
        }
        if self.precision is not None:         # absent otherwise: older fingerprints stay valid
            cfg["precision"] = self.precision
        if self.players > 1:                   # absent in solo experiments (as before)
            cfg["players"] = self.players
        return cfg

    def fingerprint(self) -> str:
        """sha256 of what decides the rows (everything in :meth:`config` but the description
        and the file's location): the same fingerprint means the same results."""
        cfg = self.config()
        cfg.pop("description")
        if self.precision is not None:
            # a precision run grows in rounds of ``precision["round"]`` games: what it is (the
            # round, the target and the cap) is fixed, how far it got is not
            cfg.pop("games")
        for c in cfg["cells"]:
            c.pop("content")          # the path may move; its content hash is what counts
        return hashlib.sha256(json.dumps(cfg, sort_keys=True).encode()).hexdigest()

    def varying(self) -> list[str]:
        """Factors with more than one level (the summary table shows these)."""
        return [f for f in FACTORS if len(self.factors.get(f, [])) > 1]


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------

def _type_name(t) -> str:
    return {str: "a string", int: "a whole number", dict: "a table", bool: "true or false",
            list: "a list"}.get(t, t.__name__)


def _check_type(where: str, value: Any, t) -> None:
    ok = isinstance(value, t) and not (t is int and isinstance(value, bool))
    if not ok:
        raise ExperimentError(f"{where}: must be {_type_name(t)}, got {value!r}")


def content_hash(content) -> str:
    """sha256 of a loaded :class:`mksim.content.Content` (its entries, canonical JSON)."""
    text = json.dumps(content.entries, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _load_content(path: Optional[str], where: str):
    from .content import ContentError
    from .runner import _content, _content_stamp
    try:
        # once per process and version of the files (the shipped one is read only)
        return _content(path or None, _content_stamp(path or None))
    except ContentError as err:
        raise ExperimentError(f"{where}: {err}") from None


def _round_time(scenario: dict, rnd: int) -> str:
    """Time of day of round ``rnd`` (2.1: rounds alternate, starting with first_round)."""
    first = scenario.get("first_round", "day")
    other = "night" if first == "day" else "day"
    return first if rnd % 2 == 1 else other


def _policy_level(where: str, level: Any) -> tuple[str, dict, str]:
    """A policies level: ``"NAME[:k=v,...]"`` or ``{name=..., params={...}, label=...}``."""
    from .policies import get_policy, list_policies
    from .policies.registry import parse_policy_spec
    if isinstance(level, str):
        try:
            pol = parse_policy_spec(level)              # checks the name, parameters and types
        except ValueError as err:
            raise ExperimentError(f"{where}: {err}") from None
        name, params = pol.name, dict(pol.parameters)
        label = level.strip()
    elif isinstance(level, dict):
        unknown = set(level) - {"name", "params", "label"}
        if unknown:
            raise ExperimentError(f"{where}: unknown key {sorted(unknown)[0]!r}; known: name, params, label")
        if "name" not in level:
            raise ExperimentError(f"{where}: a policy table needs name = \"...\"")
        _check_type(f"{where}.name", level["name"], str)
        params = level.get("params", {})
        _check_type(f"{where}.params", params, dict)
        name = level["name"]
        label = level.get("label") or (name + (":" + ",".join(f"{k}={v}" for k, v in params.items())
                                               if params else ""))
        _check_type(f"{where}.label", label, str)
    else:
        raise ExperimentError(f"{where}: must be a policy name (\"NAME[:k=v,...]\") or a table, got {level!r}")
    if name.strip().lower().replace("_", "-") not in list_policies():
        raise ExperimentError(f"{where}: unknown policy {name!r}; known: {', '.join(list_policies())}")
    try:
        pol = get_policy(name, **params)
    except (ValueError, TypeError) as err:
        raise ExperimentError(f"{where}: {err}") from None
    return pol.name, dict(pol.parameters), label


def _arm_table(w: str, arm: Any, keys: tuple, what: str) -> None:
    """An arm given as a table: only ``keys``, and a string ``name``."""
    _check_type(w, arm, dict)
    unknown = set(arm) - set(keys)
    if unknown:
        raise ExperimentError(f"{w}: unknown key {sorted(unknown)[0]!r}; known: {', '.join(keys)}")
    if "name" not in arm:
        raise ExperimentError(f"{w}: {what} needs name = \"...\"")
    _check_type(f"{w}.name", arm["name"], str)


def _levels(where: str, value: Any, allow_all: bool = False) -> list:
    if allow_all and value == "all":
        return ["all"]
    if not isinstance(value, list):
        value = [value]
    if not value:
        raise ExperimentError(f"{where}: empty factor (give at least one level)")
    return value


def forbid_ids(content) -> dict:
    """The ids a restriction arm may name, per :data:`FORBID_KINDS` (content row order)."""
    from .content import SITE_IDS
    from .tables import compile_content
    t = compile_content(content)
    return {"cards": list(t.card_ids), "skills": list(t.skill_ids), "units": list(t.unit_ids),
            "sites": list(SITE_IDS)}


def _restriction_arms(where: str, value: Any, shipped, override_paths: list) -> list:
    """``[[factors.restrictions]]`` arms: ``name`` and ``forbid = {cards, skills, units,
    sites}`` (lists of content ids).  Every id must exist in the shipped content and in every
    content arm's override."""
    from .game import normalize_id
    known = forbid_ids(shipped)
    others = [(p, forbid_ids(_load_content(p, where))) for p in override_paths]
    arms = []
    for i, arm in enumerate(_levels(f"{where}: factors.restrictions", value)):
        w = f"{where}: factors.restrictions[{i}]"
        _arm_table(w, arm, ("name", "forbid"), "a restriction arm")
        forbid = arm.get("forbid", {})
        _check_type(f"{w}.forbid", forbid, dict)
        unknown = set(forbid) - set(FORBID_KINDS)
        if unknown:
            raise ExperimentError(f"{w}.forbid: unknown key {sorted(unknown)[0]!r}; known: {', '.join(FORBID_KINDS)}")
        pairs = []
        for kind in FORBID_KINDS:
            ids = forbid.get(kind, [])
            _check_type(f"{w}.forbid.{kind}", ids, list)
            got = []
            for j, x in enumerate(ids):
                _check_type(f"{w}.forbid.{kind}[{j}]", x, str)
                xid = normalize_id(x)
                if xid not in known[kind]:
                    raise ExperimentError(f"{w}.forbid.{kind}[{j}]: unknown {kind[:-1]} {x!r}; known: "
                                          f"{', '.join(known[kind])}")
                for path, ok in others:
                    if xid not in ok[kind]:
                        raise ExperimentError(f"{w}.forbid.{kind}[{j}]: the content {path} has no {kind[:-1]} {x!r}")
                if xid not in got:
                    got.append(xid)
            if got:
                pairs.append((kind, tuple(sorted(got))))
        if arm["name"] in [a for a, _ in arms]:
            raise ExperimentError(f"{w}: restriction arm {arm['name']!r} given twice")
        if arm["name"] == UNRESTRICTED and pairs:
            raise ExperimentError(f"{w}: the arm {UNRESTRICTED!r} is the unrestricted reference; "
                                  "it cannot forbid anything (give the arm another name)")
        arms.append((arm["name"], tuple(pairs)))
    return arms


def _resolve(raw: dict, where: str, base: Path) -> Experiment:
    """Check every key of a parsed experiment and build its cells."""
    for key in raw:
        if key not in TOP_KEYS:
            raise ExperimentError(f"{where}: unknown key {key!r}; known: {', '.join(TOP_KEYS)}")
    for key in REQUIRED:
        if key not in raw:
            raise ExperimentError(f"{where}: missing key {key!r}")
    for key, t in TOP_KEYS.items():
        if key in raw:
            _check_type(f"{where}: {key}", raw[key], t)
    if raw["games"] < 1:
        raise ExperimentError(f"{where}: games must be at least 1, got {raw['games']}")
    if raw["seed"] < 0:
        raise ExperimentError(f"{where}: seed must be >= 0, got {raw['seed']}")
    if raw.get("max_steps", 1) < 1:
        raise ExperimentError(f"{where}: max_steps must be at least 1, got {raw['max_steps']}")
    if raw.get("chunk_size", 1) < 1:
        raise ExperimentError(f"{where}: chunk_size must be at least 1, got {raw['chunk_size']}")
    if not raw["name"].strip():
        raise ExperimentError(f"{where}: name must not be empty")
    precision = _precision(raw.get("precision"), raw["games"], raw["scenario"], where)
    factors = raw.get("factors", {})
    for key in factors:
        if key not in FACTORS:
            raise ExperimentError(f"{where}: unknown factor {key!r}; known: {', '.join(FACTORS)}")
    from .game import normalize_id
    shipped = _load_content(None, where)
    scenario = normalize_id(raw["scenario"])
    if scenario not in shipped.ids("scenarios"):
        raise ExperimentError(f"{where}: scenario: unknown scenario {raw['scenario']!r}; known: "
                              f"{', '.join(s.replace('_', '-') for s in shipped.ids('scenarios'))}")
    sc = shipped.get("scenarios", scenario)
    rounds = int(sc["rounds"])
    hero_ids = [h["id"] for h in shipped["heroes"]]
    players = raw.get("players", 1)
    seat_levels = _seat_levels(where, players, factors, sc, scenario, hero_ids)
    if players > 1 and precision is not None:
        raise ExperimentError(f"{where}: precision: a precision target is for solo experiments "
                              f"(players = 1); not implemented for {players} players")

    heroes = []
    hero_levels = factors.get("heroes", ["arythea"]) if players == 1 else \
        list(dict.fromkeys(h for lv in seat_levels for h in lv))
    for i, h in enumerate(_levels(f"{where}: factors.heroes", hero_levels, True)):
        _check_type(f"{where}: factors.heroes[{i}]", h, str)
        if h.strip().lower() == "all":
            heroes.extend(x for x in hero_ids if x not in heroes)
            continue
        hid = normalize_id(h)
        if hid not in hero_ids:
            raise ExperimentError(f"{where}: factors.heroes[{i}]: unknown hero {h!r}; known: "
                                  f"{', '.join(hero_ids)}, all")
        if hid not in heroes:
            heroes.append(hid)

    policies = [_seat_policy_level(f"{where}: factors.policies[{i}]", p, players)
                for i, p in enumerate(_levels(f"{where}: factors.policies", factors.get("policies", ["random"])))]
    labels = [p[2] for p in policies]
    if len(set(labels)) != len(labels):
        raise ExperimentError(f"{where}: factors.policies: two arms are both called {labels[0]!r} (give labels)")

    ll = _levels(f"{where}: factors.lost_legion", factors.get("lost_legion", [False]))
    for i, v in enumerate(ll):
        _check_type(f"{where}: factors.lost_legion[{i}]", v, bool)
    ll = list(dict.fromkeys(ll))

    content_arms = [(SHIPPED, None)]
    hashes = {SHIPPED: content_hash(shipped)}
    if "content" in factors:
        content_arms = []
        hashes = {}          # the arms given replace the default one (docs name it "shipped" too)
        for i, arm in enumerate(_levels(f"{where}: factors.content", factors["content"])):
            w = f"{where}: factors.content[{i}]"
            _arm_table(w, arm, ("name", "path"), "a content arm")
            path = arm.get("path")
            if path is not None:
                _check_type(f"{w}.path", path, str)
                path = str((base / path).resolve()) if path else None
            if arm["name"] in hashes:
                raise ExperimentError(f"{w}: content arm {arm['name']!r} given twice")
            c = shipped if path is None else _load_content(path, f"{w}.path")
            for h in heroes:
                if h not in [x["id"] for x in c["heroes"]]:
                    raise ExperimentError(f"{w}: the content has no hero {h!r}")
            hashes[arm["name"]] = content_hash(c)
            content_arms.append((arm["name"], path))

    tactic_arms = [(FREE, ())]
    if "tactics" in factors:
        tactic_ids = shipped.ids("tactics")
        tactic_arms = []
        for i, arm in enumerate(_levels(f"{where}: factors.tactics", factors["tactics"])):
            w = f"{where}: factors.tactics[{i}]"
            _arm_table(w, arm, ("name", "force"), "a tactic arm")
            force = arm.get("force", {})
            _check_type(f"{w}.force", force, dict)
            forced = []
            for r_text, tactic in force.items():
                try:
                    rnd = int(r_text)
                except ValueError:
                    raise ExperimentError(f"{w}.force: key {r_text!r} is not a round number") from None
                if not 1 <= rnd <= rounds:
                    raise ExperimentError(f"{w}.force: round {rnd} is outside 1..{rounds} of {scenario}")
                _check_type(f"{w}.force.{r_text}", tactic, str)
                tid = normalize_id(tactic)
                if tid not in tactic_ids:
                    raise ExperimentError(f"{w}.force.{r_text}: unknown tactic {tactic!r}; known: "
                                          f"{', '.join(tactic_ids)}")
                t_time = shipped.get("tactics", tid)["time"]
                if t_time != _round_time(sc, rnd):
                    raise ExperimentError(f"{w}.force.{r_text}: {tactic!r} is a {t_time} tactic but round "
                                          f"{rnd} is a {_round_time(sc, rnd)} round (2.1)")
                forced.append((rnd, tid))
            if arm["name"] in [a for a, _ in tactic_arms]:
                raise ExperimentError(f"{w}: tactic arm {arm['name']!r} given twice")
            tactic_arms.append((arm["name"], tuple(sorted(forced))))

    restriction_arms = [(UNRESTRICTED, ())]
    if "restrictions" in factors:
        restriction_arms = _restriction_arms(where, factors["restrictions"], shipped,
                                             [p for _, p in content_arms if p is not None])

    max_steps = raw.get("max_steps", 100_000)
    cells = []
    first = heroes if players == 1 else seat_levels
    for k, (h, (pname, params, plabel, per_seat), lost, (carm, cpath), (tarm, forced), (rarm, forbid)) in \
            enumerate(itertools.product(first, policies, ll, content_arms, tactic_arms, restriction_arms)):
        seats = tuple(h) if players > 1 else ()
        cells.append(Cell(k, scenario, seats[0] if seats else h, pname, tuple(sorted(params.items())), plabel,
                          lost, carm, cpath, tarm, forced, max_steps, rarm, forbid, seats,
                          tuple((n, tuple(sorted(p.items())), lab) for n, p, lab in per_seat)))
    resolved = {
        "heroes": heroes, "policies": [_policy_resolved(n, p, lab, per_seat) for n, p, lab, per_seat in policies],
        "lost_legion": ll, "content": [{"name": n, "path": p} for n, p in content_arms],
        "tactics": [{"name": n, "force": {str(r): t for r, t in f}} for n, f in tactic_arms],
    }
    if "restrictions" in factors:          # absent: the resolved configuration of older files
        resolved["restrictions"] = [{"name": n, "forbid": {k: list(ids) for k, ids in f}}
                                    for n, f in restriction_arms]
    if players > 1:                        # absent in solo experiments (their fingerprints of before)
        resolved["seats"] = [list(lv) for lv in seat_levels]
    return Experiment(raw["name"].strip(), scenario, raw["games"], raw["seed"], cells, resolved,
                      source=where, description=raw.get("description", ""), max_steps=max_steps,
                      chunk_size=raw.get("chunk_size"), content_hashes=hashes, precision=precision,
                      players=players)


def _policy_resolved(name: str, params: dict, label: str, per_seat: list) -> dict:
    d = {"name": name, "params": params, "label": label}
    if per_seat:
        d["seats"] = [{"name": n, "params": p, "label": lab} for n, p, lab in per_seat]
    return d


def _seat_levels(where: str, players: Any, factors: dict, sc: dict, scenario: str, hero_ids: list) -> list:
    """``players`` and ``factors.seats`` checked: the hero tuples (one hero per seat) of a
    game of several heroes, ``[]`` in a solo experiment.  A level is a list of ``players``
    different heroes (1.1.2) or ``"all"`` (every set of ``players`` different heroes, each in
    content order); the default is the first ``players`` heroes."""
    from .game import normalize_id
    if not 1 <= players <= MAX_PLAYERS:
        raise ExperimentError(f"{where}: players: must be 1 (solo) to {MAX_PLAYERS}, got {players}")
    if players == 1:
        if "seats" in factors:
            raise ExperimentError(f"{where}: factors.seats: needs players = 2 to {MAX_PLAYERS} "
                                  f"(a solo experiment names its heroes in factors.heroes)")
        return []
    mp = sc.get("multiplayer")
    allowed = list(mp.get("players", [])) if mp else []
    if players not in allowed:
        raise ExperimentError(f"{where}: players: scenario {scenario.replace('_', '-')!r} is not set up for "
                              f"{players} players (scenarios.toml multiplayer.players: "
                              f"{', '.join(map(str, allowed)) or 'none'})")
    if "heroes" in factors:
        raise ExperimentError(f"{where}: factors.heroes: a game of {players} players names one hero per seat "
                              f"in factors.seats (e.g. seats = [{list(hero_ids[:players])!r}] or \"all\")")
    if "tactics" in factors:
        raise ExperimentError(f"{where}: factors.tactics: forced tactics are for solo experiments (players = 1); "
                              f"not implemented for {players} players")
    value = factors.get("seats", [list(hero_ids[:players])])
    levels = []
    for i, lv in enumerate(_levels(f"{where}: factors.seats", value, True)):
        w = f"{where}: factors.seats[{i}]"
        if isinstance(lv, str) and lv.strip().lower() == "all":
            levels.extend(c for c in itertools.combinations(hero_ids, players) if c not in levels)
            continue
        if not isinstance(lv, list) or not all(isinstance(h, str) for h in lv):
            raise ExperimentError(f"{w}: must be a list of {players} heroes (one per seat) or \"all\", got {lv!r}")
        if len(lv) != players:
            raise ExperimentError(f"{w}: names {len(lv)} hero(es) for players = {players}: name one per seat")
        seats = []
        for j, h in enumerate(lv):
            hid = normalize_id(h)
            if hid not in hero_ids:
                raise ExperimentError(f"{w}[{j}]: unknown hero {h!r}; known: {', '.join(hero_ids)}")
            if hid in seats:
                raise ExperimentError(f"{w}[{j}]: hero {h!r} twice; each player picks a different hero (1.1.2)")
            seats.append(hid)
        if tuple(seats) not in levels:
            levels.append(tuple(seats))
    return levels


def _seat_policy_level(where: str, level: Any, players: int) -> tuple[str, dict, str, list]:
    """A policies level of an experiment of ``players`` heroes: one policy for every seat
    (as :func:`_policy_level`), or a list of one policy per seat.  Returns (name, params,
    label, per-seat list of (name, params, label)); the name and params are seat 0's when
    the level is per seat."""
    if not isinstance(level, list):
        return (*_policy_level(where, level), [])
    if players == 1:
        raise ExperimentError(f"{where}: a list of policies is one per seat: needs players = 2 to {MAX_PLAYERS}")
    if len(level) != players:
        raise ExperimentError(f"{where}: {len(level)} policies for {players} seats: give one for all seats "
                              f"or one per seat")
    per_seat = [_policy_level(f"{where}[{j}]", x) for j, x in enumerate(level)]
    return per_seat[0][0], per_seat[0][1], " / ".join(lab for _, _, lab in per_seat), per_seat


def _precision(p: Optional[dict], games: int, scenario: str, where: str) -> Optional[dict]:
    """Check ``[precision]``: metric, ci_width > 0, max_games >= games."""
    if p is None:
        return None
    w = f"{where}: precision"
    for key in p:
        if key not in PRECISION_KEYS:
            raise ExperimentError(f"{w}: unknown key {key!r}; known: {', '.join(PRECISION_KEYS)}")
    for key in ("ci_width", "max_games"):
        if key not in p:
            raise ExperimentError(f"{w}: missing key {key!r}")
    metric = p.get("metric", "fame")
    _check_type(f"{w}.metric", metric, str)
    from .report import PRECISION_METRICS
    if metric not in PRECISION_METRICS:
        raise ExperimentError(f"{w}.metric: unknown metric {metric!r}; known: {', '.join(PRECISION_METRICS)}")
    if metric == "win" and scenario.replace("-", "_") != "solo_conquest":
        raise ExperimentError(f"{w}.metric: 'win' needs a scenario that can be won (solo-conquest)")
    width = p["ci_width"]
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not width > 0:
        raise ExperimentError(f"{w}.ci_width: must be a number > 0, got {width!r}")
    _check_type(f"{w}.max_games", p["max_games"], int)
    if p["max_games"] < games:
        raise ExperimentError(f"{w}.max_games: {p['max_games']} is less than games = {games}")
    return {"metric": metric, "ci_width": float(width), "max_games": p["max_games"], "round": games}


def load_experiment(path) -> Experiment:
    """Read and validate an experiment file (``experiments/*.toml``).

    Raises
    ------
    ExperimentError
        One line naming the file and what is wrong in it.
    """
    path = Path(path)
    where = str(path)
    try:
        with open(path, "rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ExperimentError(f"{where}: experiment file not found") from None
    except IsADirectoryError:
        raise ExperimentError(f"{where}: is a folder, expected an experiment TOML file") from None
    except UnicodeDecodeError as err:
        raise ExperimentError(f"{where}: is not UTF-8 text ({err.reason})") from None
    except tomllib.TOMLDecodeError as err:
        raise ExperimentError(f"{where}: is not valid TOML: {err}") from None
    except OSError as err:
        raise ExperimentError(f"{where}: cannot be read: {err.strerror or err}") from None
    return _resolve(raw, where, path.parent)


def experiment_from_options(scenario: str = "first-reconnaissance", heroes=("arythea",),
                            policies=("random",), lost_legion: bool = False, content: Optional[str] = None,
                            games: int = 100, seed: int = 0, name: str = "command-line",
                            players: int = 1, seats=None) -> Experiment:
    """The experiment ``mksim run`` flags describe (one content arm, no forced tactics).

    With ``players`` > 1, ``seats`` lists the seat levels (lists of heroes, or ``"all"``;
    None: the first ``players`` heroes) and ``policies`` is one policy for all seats or
    one per seat (a single per-seat level)."""
    raw = {"name": name, "scenario": scenario, "games": games, "seed": seed,
           "factors": {"heroes": list(heroes), "policies": list(policies), "lost_legion": [bool(lost_legion)]}}
    if players != 1:
        raw["players"] = players
        del raw["factors"]["heroes"]
        if seats is not None:
            raw["factors"]["seats"] = list(seats)
        if len(policies) > 1:
            raw["factors"]["policies"] = [list(policies)]
    if content is not None:
        raw["factors"]["content"] = [{"name": Path(content).stem or "content", "path": str(Path(content).resolve())}]
    try:
        return _resolve(raw, "command line", Path.cwd())
    except ExperimentError as err:            # name the option, not the factor it became
        import re
        msg = str(err)
        for pattern, option in ((r"command line: factors\.heroes(\[\d+\])?", "--hero"),
                                (r"command line: factors\.seats(\[\d+\])?(\[\d+\])?", "--hero"),
                                (r"command line: players", "--players"),
                                (r"command line: factors\.policies\[0\](\[\d+\])?: (\d+) policies for",
                                 r"--policy: given \2 times for"),
                                (r"command line: factors\.policies(\[\d+\])?", "--policy"),
                                (r"command line: factors\.content(\[\d+\])?(\.path)?", "--content"),
                                (r"command line: scenario", "--scenario")):
            msg = re.sub(pattern, option, msg)
        raise ExperimentError(msg) from None


def experiment_from_config(config: dict, where: str) -> Experiment:
    """Rebuild an experiment from a manifest's resolved configuration (for --resume, replay)."""
    try:
        cells = []
        for c in config["cells"]:
            cells.append(Cell(c["index"], c["scenario"], c["hero"], c["policy"],
                              tuple(sorted(c["params"].items())), c["policy_label"], c["lost_legion"],
                              c["content_arm"], c["content"], c["tactic_arm"],
                              tuple(sorted((int(r), t) for r, t in c["forced"].items())), c["max_steps"],
                              c.get("restriction_arm", UNRESTRICTED),
                              tuple((k, tuple(c["forbid"][k])) for k in FORBID_KINDS
                                    if c.get("forbid", {}).get(k)),
                              tuple(c.get("seats", ())),
                              tuple((p["name"], tuple(sorted(p["params"].items())), p["label"])
                                    for p in c.get("seat_policies", ()))))
        return Experiment(config["name"], config["scenario"], config["games"], config["seed"], cells,
                          config["factors"], source=where, description=config.get("description", ""),
                          max_steps=config["max_steps"], content_hashes=config["content_hashes"],
                          precision=config.get("precision"), players=config.get("players", 1))
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ExperimentError(f"{where}: the manifest's configuration is not readable ({err!r})") from None
