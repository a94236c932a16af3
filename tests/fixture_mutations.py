"""Mutated fixtures for the fixture fuzz test (tests/test_fixture_fuzz.py) and its benchmark
(tests/benchmarks/fixture_fuzz.py).

Real positions are taken with ``State.to_dict()`` from seeded random and eager games of both
solo scenarios, with and without The Lost Legion; each mutation changes one to three fields
(boundary values, random whole numbers, wrong types, removed keys, huge and negative
numbers, swapped lists, other or unknown ids).  Positions with a handler's question pending
(:class:`PendingPositions`) also have their scratch values, stage, question and options
mutated (:func:`mutate_pending`): handlers use those as indices.  :func:`judge` loads a mutated fixture and
plays it on: the verdict is ``"refused"`` (one FixtureError naming a key path),
``"ended"`` (played to the end of the game by the random policy), ``"stopped"`` (played
until the engine named a rule it does not implement yet: a clean end, not a failure) or a
failure (``"failure: ..."``: any other exception, no legal action in a running game, a
listed action refused, or no end within ``MAX_DECISIONS`` decisions, i.e. a hang).
"""
from __future__ import annotations

import marshal
import random
import re

from mksim.fixtures import FixtureError
from mksim.game import Game
from mksim.policies import get_policy

SCENARIOS = ("first-reconnaissance", "solo-conquest")
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
MAX_DECISIONS = 20_000          # a game of random play ends far below this: more is a hang
#: a refusal names a key path first: ``players[0].hand[2]: ...`` or ``rng[3]: ...``
KEY_PATH = re.compile(r"^[A-Za-z_]\w*(\[\d+\]|\.[\w-]+)*: \S")

BOUNDARY = (0, 1, -1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 16, 31, 32, 63, 64, 127, 128, -128, -129,
            255, 256, 32767, 32768, -32768, 65535, 65536, 2 ** 31 - 1, 2 ** 31, -2 ** 31,
            2 ** 32, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63, 10 ** 30, -10 ** 30)
WRONG_TYPES = (None, "x", "", "march", 1.5, float("nan"), True, False, [], {}, [1, 2], {"a": 1})


def _games() -> dict:
    return {(sc, h, ll): Game(sc, h, lost_legion=ll) for sc in SCENARIOS for h in HEROES for ll in (False, True)}


class Positions:
    """Mid-game positions (to_dict of a state) of seeded random / eager games."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.games: dict = {}
        self.ids: dict = {}

    def game(self, key) -> Game:
        if key not in self.games:
            self.games[key] = Game(*key[:2], lost_legion=key[2])
        return self.games[key]

    def take(self, k: int) -> tuple:
        """Position ``k``: (game, dict, description)."""
        r = random.Random(self.seed * 1_000_003 + k)
        # every 8 positions: both scenarios x Lost Legion or not x random or eager play
        key = (SCENARIOS[k % 2], r.choice(HEROES), bool(k // 2 % 2))
        game = self.game(key)
        policy_name = ("random", "eager")[k // 4 % 2]
        pol = get_policy(policy_name)
        index = r.randrange(1 << 20)
        pol.reset(self.seed, index)
        state = game.new_state(self.seed, index)
        steps = r.choice((0, 1, 3, 10, 30, 100, 300, 1000, 3000))
        try:
            pol.play_engine(state.engine, steps)
        except NotImplementedError:
            pass
        return game, state.to_dict(), f"{key[0]}/{key[1]}{'/LL' if key[2] else ''} {policy_name} " \
                                      f"seed {self.seed} game {index} after {steps} decisions"


class PendingPositions(Positions):
    """Positions of seeded random / eager games in which a handler's question is pending
    (``turn.handler_row`` >= 0): what :func:`mutate_pending` changes the scratch values of."""

    def take(self, k: int) -> tuple:
        """Pending position ``k``: (game, dict, description); a game is played decision by
        decision and stopped at its n-th question (n drawn from 1 .. 12)."""
        from mksim._access import core_info
        r = random.Random(self.seed * 1_000_033 + k)
        for attempt in range(50):
            key = (SCENARIOS[k % 2], r.choice(HEROES), bool(k // 2 % 2))
            game = self.game(key)
            policy_name = ("random", "eager")[k // 4 % 2]
            pol = get_policy(policy_name)
            index = r.randrange(1 << 20)
            pol.reset(self.seed, index)
            state = game.new_state(self.seed, index)
            want, seen, last = r.randint(1, 12), 0, None
            try:
                for step in range(5000):
                    if state.is_terminal():
                        break
                    if core_info(state.core)["handler_row"] >= 0:
                        seen += 1
                        last = (state.to_dict(), step)
                        if seen == want:
                            break
                    pol.play_engine(state.engine, 1)
            except NotImplementedError:
                pass
            if last is not None:
                return game, last[0], f"{key[0]}/{key[1]}{'/LL' if key[2] else ''} {policy_name} " \
                                      f"seed {self.seed} game {index}, question {seen} after {last[1]} decisions"
        raise RuntimeError(f"no pending question in 50 games (position {k})")


#: the pending question's fields a handler reads back (its scratch values and the question)
PENDING_FIELDS = tuple(("turn", "hvars", i) for i in range(8)) + (
    ("turn", "handler_stage"), ("turn", "ask"), ("turn", "ask_options"))


def mutate_pending(d: dict, r: random.Random) -> tuple[dict, list]:
    """``d`` (a position with a question pending) with one to three of its scratch values,
    its stage, what it asks or its options changed (boundaries, small numbers, one bit
    more, a neighbour of the value)."""
    d = _copy(d)
    words = []
    for _ in range(r.choice((1, 1, 1, 2, 3))):
        path = r.choice(PENDING_FIELDS)
        parent = _get(d, path[:-1])
        key = path[-1]
        v = parent[key]
        if key == "ask_options" and isinstance(v, list):      # format 2: the options' indices
            v = sum(1 << i for i in set(v) if isinstance(i, int) and 0 <= i < 64)
        if not isinstance(v, int) or isinstance(v, bool):
            v = 0                                # a wrong type written by an earlier mutation
        op = r.random()
        if key == "ask_options":
            if op < 0.5:
                new = v | (1 << r.randrange(64))
            elif op < 0.7:
                new = v ^ (1 << r.randrange(64))
            elif op < 0.85:
                new = 1 << r.randrange(64)
            else:
                new = r.choice((0, (1 << 64) - 1, 1 << 63, 2 ** 64, -1))
            if d.get("format", 1) >= 2:
                # format 2 writes the options as indices: an index 64 or -1 for what
                # no uint64 holds, and now and then a whole number (the format 1 way)
                new = ([i for i in range(64) if new >> i & 1] if 0 <= new < 1 << 64
                       else [64] if new > 0 else [-1]) if r.random() < 0.9 else new
        elif op < 0.35:
            new = r.choice(BOUNDARY)
        elif op < 0.75:
            new = r.randint(-3, 20)
        elif op < 0.95:
            new = v + r.choice((-3, -2, -1, 1, 2, 3))
        else:
            new = r.choice(WRONG_TYPES)
        parent[key] = new
        words.append(f"{_words(path)} = {new!r}"[:160])
    return d, words


def _copy(x):
    return marshal.loads(marshal.dumps(x))      # a deep copy of plain data, in C


def _nodes(d, path=()):
    """Every (path, value) under ``d`` (containers and leaves)."""
    yield path, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _nodes(v, path + (i,))


def _get(d, path):
    for k in path:
        d = d[k]
    return d


_POOLS: dict = {}


def _string_pool(d) -> list:
    """The ids and words of position ``d`` (computed once per position)."""
    key = id(d)
    if key not in _POOLS:
        if len(_POOLS) > 64:
            _POOLS.clear()
        _POOLS[key] = (d, sorted({v for _p, v in _nodes(d) if isinstance(v, str)}))
    return _POOLS[key][1]


def mutate(d: dict, r: random.Random, n: int) -> tuple[dict, list]:
    """``d`` with ``n`` random mutations, and their words."""
    strings = _string_pool(d)
    d = _copy(d)
    words = []
    for _ in range(n):
        # a section first (the map alone has thousands of leaves), then a node in it
        top = r.choice([k for k in d if k not in ("format", "scenario", "hero")])
        if top in ("players", "map") and r.random() < 0.7:
            base = (top, 0) if top == "players" and d[top] else (top,)
            if top == "map" and isinstance(d["map"], dict) and isinstance(d["map"].get("tiles"), list) \
                    and d["map"]["tiles"]:
                base = ("map", "tiles", r.randrange(len(d["map"]["tiles"])))
            try:
                _get(d, base)
            except (KeyError, IndexError, TypeError):
                base = (top,)
            if top == "players" and r.random() < 0.5:
                sub = _get(d, base)
                if isinstance(sub, dict) and sub:
                    base = base + (r.choice(list(sub)),)
        else:
            base = (top,)
        nodes = [(base + p, v) for p, v in _nodes(_get(d, base))]
        # the numbers most of the state is made of: favour leaves
        leaves = [(p, v) for p, v in nodes if not isinstance(v, (dict, list))]
        p, v = r.choice(leaves) if leaves and r.random() < 0.8 else r.choice(nodes)
        parent = _get(d, p[:-1])
        key = p[-1]
        op = r.random()
        if isinstance(v, list) and (not v or all(isinstance(x, str) for x in v)) and r.random() < 0.25:
            # a list of names (format 2 bit fields, hex flags, ids): one more, misspelt or real
            name = r.choice(strings) if strings and r.random() < 0.5 else \
                (r.choice(v)[:-1] + "x" if v and v[0] else "no-such-flag")
            v.append(name)
            words.append(f"{_words(p)} += [{name!r}]"[:160])
            continue
        if op < 0.22:
            new = r.choice(BOUNDARY)
        elif op < 0.30:
            new = r.randint(-300, 300)
        elif op < 0.45:
            new = r.randint(-2, 20)
        elif op < 0.52 and isinstance(v, int) and not isinstance(v, bool):
            new = v + r.choice((-2, -1, 1, 2))
        elif op < 0.60:
            new = r.choice(WRONG_TYPES)
        elif op < 0.68:
            new = r.choice(strings + ["no-such-id"]) if strings else "no-such-id"
        elif op < 0.76 and isinstance(parent, dict):
            del parent[key]
            words.append(f"remove {_words(p)}")
            continue
        elif op < 0.84 and isinstance(v, list) and len(v) >= 2:
            i, j = r.sample(range(len(v)), 2)
            v[i], v[j] = v[j], v[i]
            words.append(f"swap {_words(p)}[{i}] and [{j}]")
            continue
        elif op < 0.90:
            # swap two lists of the state (a hand for a deck, tokens for dice ...)
            lists = [(q, w) for q, w in nodes if isinstance(w, list) and q != p and q[:len(p)] != p
                     and p[:len(q)] != q]
            if lists:
                q, w = r.choice(lists)
                qp = _get(d, q[:-1])
                qp[q[-1]], parent[key] = v, w
                words.append(f"swap {_words(p)} and {_words(q)}")
                continue
            new = []
        elif op < 0.95 and isinstance(v, list):
            new = v[:r.randrange(len(v) + 1)] if r.random() < 0.5 else v + v[:r.randrange(1, 4)] if v else [0]
        else:
            new = r.choice(BOUNDARY) if r.random() < 0.5 else r.randint(-(1 << 40), 1 << 40)
        parent[key] = new
        words.append(f"{_words(p)} = {new!r}"[:160])
    return d, words


def _words(path) -> str:
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def judge(game: Game, d: dict, play_seed: int = 0) -> str:
    """The verdict on fixture ``d`` (see the module doc)."""
    try:
        state = game.state_from_dict(d)
    except FixtureError as err:
        msg = str(err)
        if "\n" in msg or not KEY_PATH.match(msg):
            return f"failure: refusal without a key path: {msg!r}"
        return "refused"
    except Exception as err:      # noqa: BLE001 -- any other exception is what the fuzz test looks for
        return f"failure: loading raised {type(err).__name__}: {err}"
    try:
        if state.is_terminal():
            return "ended"
        legal = [int(a) for a in state.legal_actions()]
        if not legal:
            return "failure: loaded a running game with no legal action"
        # every listed action is accepted on the loaded position
        for a in legal:
            c = state.clone()
            try:
                c.apply(a)
            except NotImplementedError:
                pass
            except ValueError as err:
                return f"failure: the engine refused action {a} it listed: {err}"
        pol = get_policy("random")
        pol.reset(play_seed, 0)
        try:
            pol.play_engine(state.engine, MAX_DECISIONS)
        except NotImplementedError:
            return "stopped"
        if not state.is_terminal():
            return f"failure: no end after {MAX_DECISIONS} decisions (a hang)"
        return "ended"
    except Exception as err:      # noqa: BLE001
        return f"failure: playing raised {type(err).__name__}: {err}"
