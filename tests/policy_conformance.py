"""The conformance tests every registered policy's tests inherit (docs/policies.md).

Subclass :class:`PolicyConformance` in a ``tests/test_*.py`` module and set ``name`` (and
``params``, and ``ci_games`` for a slow policy):

    class TestMyPolicy(PolicyConformance):
        name = "my-policy"
        params = {"budget": 2}
        ci_games = 2

It checks that the policy returns legal actions only, makes the same decisions for the
same seed, survives pickling (parallel runs
ship policies to workers), finishes games of every solo scenario with and without The
Lost Legion (``ci_games`` per combination in CI; ``MKSIM_CONFORMANCE_GAMES=200`` for the
full run, tests/benchmarks/conformance.sh), and is blind to hidden information: on two
states that differ only in what the player cannot know, it decides alike
(``state.determinize`` is the only honest look-ahead); a policy that declares
``sees_hidden`` (and is named ``oracle-...``) must instead be shown to use it.
"""
from __future__ import annotations

import os
import pickle
import random as _pyrandom   # only to permute fixtures in tests (never in the engine)

import pytest

from mksim.game import Game
from mksim.policies import METADATA_DEFAULTS, Policy, get_policy, list_policies, policy_class
from mksim.runner import ERROR_NAMES, ERROR_NONE, GameConfig, play_game

SOLO_SCENARIOS = ("first-reconnaissance", "solo-conquest")
COLOURS = ("green", "grey", "violet", "brown", "red", "white")


# ---------------------------------------------------------------------------------------
# helpers shared with tests/test_determinize.py
# ---------------------------------------------------------------------------------------

def play_to(game, seed, steps, policy="eager"):
    """A state after ``steps`` decisions of ``policy`` (stops early at the end)."""
    p = get_policy(policy) if isinstance(policy, str) else policy
    p.reset(seed, 0)
    s = game.new_state(seed)
    for _ in range(steps):
        legal = s.legal_actions()
        if s.is_terminal() or len(legal) == 0:
            break
        s.apply(p.choose(s, legal))
    return s


def enemy_colour(game, enemy_id):
    t = game.tables
    return COLOURS[int(t.enemies[t.enemy_ids.index(enemy_id), t.col("enemies", "colour")])]


def permute_hidden(game, s, rnd, player=0):
    """A state that differs from ``s`` only in what ``player`` cannot know: the orders of
    the unknown part of its deck, the tile stack (within Countryside / Core backs), every
    pile and deck, the skill stacks; face-down map tokens swapped with pile tokens of their
    colour, face-down ruins with the ruins pile; other random streams.  With several
    heroes also every other seat's hand, Deed deck and Sparing Power cards (one hidden pool
    dealt anew, the sizes kept) and skill stack."""
    d = s.to_dict()
    pl = d["players"][player]
    top, bottom = pl["deck_known_top"], pl["deck_known_bottom"]
    deck = pl["deck"]
    mid = deck[bottom:len(deck) - top]
    rnd.shuffle(mid)
    pl["deck"] = deck[:bottom] + mid + deck[len(deck) - top:]
    # the top last; a level-up's choice reveals the top two tokens (13.6.4): they stay
    shown = 2 if (d["phase"] == "end_turn" and d["turn"]["end_stage"] == 2 and d["current"] == player) else 0
    stack = pl["skill_stack"]
    hidden = stack[:len(stack) - shown] if shown else list(stack)
    rnd.shuffle(hidden)
    pl["skill_stack"] = hidden + stack[len(hidden):]
    for q, other in enumerate(d["players"]):
        if q == player:
            continue
        pool = other["hand"] + other["deck"] + other["tactic_cards"]
        rnd.shuffle(pool)
        a, b = len(other["hand"]), len(other["hand"]) + len(other["deck"])
        other["hand"], other["deck"], other["tactic_cards"] = pool[:a], pool[a:b], pool[b:]
        rnd.shuffle(other["skill_stack"])
    rnd.shuffle(d["dummy"]["deck"])
    rnd.shuffle(d["dummy"]["skill_stack"])
    for k in ("advanced_action_deck", "spell_deck", "artifact_deck", "regular_units", "elite_units",
              "ruins_pile"):
        rnd.shuffle(d[k])
    country = [i for i, t in enumerate(d["tile_stack"]) if t.startswith("countryside")]
    core = [i for i, t in enumerate(d["tile_stack"]) if not t.startswith("countryside")]
    for idx in (country, core):
        vals = [d["tile_stack"][i] for i in idx]
        rnd.shuffle(vals)
        for i, v in zip(idx, vals):
            d["tile_stack"][i] = v
    for pile in d["enemy_piles"].values():
        rnd.shuffle(pile)
    for t in d["map"]["tiles"]:
        for h in t["hexes"]:
            if not h["tokens_face_up"]:
                for j, x in enumerate(h["tokens"]):
                    pile = d["enemy_piles"][enemy_colour(game, x["enemy"])]
                    if pile:
                        k = rnd.randrange(len(pile))
                        h["tokens"][j], pile[k] = pile[k], h["tokens"][j]
            if not h["ruins_face_up"] and h["ruins"] is not None and d["ruins_pile"]:
                k = rnd.randrange(len(d["ruins_pile"]))
                h["ruins"], d["ruins_pile"][k] = d["ruins_pile"][k], h["ruins"]
    for r in d["rng"]:
        r["s0"] = rnd.getrandbits(64) | 1
    t = game.state_from_dict(d)
    t.history = list(s.history)
    return t


def hidden_pairs(games, points=((2, 40), (3, 90), (4, 140)), seed=1234):
    """(state, permuted state) pairs at several points of eager games, live states only."""
    rnd = _pyrandom.Random(seed)
    out = []
    for g in games:
        for s_seed, steps in points:
            s = play_to(g, s_seed, steps)
            if len(s.legal_actions()) > 0:
                out.append((s, permute_hidden(g, s, rnd)))
    return out


_PAIRS: dict = {}


WIDE_POINTS = tuple((seed, steps) for seed in range(5, 11) for steps in (25, 60, 110))


def _shared_pairs(content, wide=False):
    """hidden_pairs of a First Reconnaissance and a Lost Legion Solo Conquest game, built
    once per session (policies only read them); ``wide``: at many more points."""
    key = (id(content), wide)
    if key not in _PAIRS:
        games = [Game("first-reconnaissance", "arythea", content=content),
                 Game("solo-conquest", "tovak", content=content, lost_legion=True)]
        _PAIRS[key] = hidden_pairs(games, WIDE_POINTS) if wide else hidden_pairs(games)
    return _PAIRS[key]


# ---------------------------------------------------------------------------------------
# the conformance class
# ---------------------------------------------------------------------------------------

def _decisions(game, policy, seed, game_index=0, limit=3000):
    """Every (legal list, chosen action) of one game; stops at an engine gap."""
    policy.reset(seed, game_index)
    state = game.new_state(seed, game_index)
    log = []
    while not state.is_terminal() and len(log) < limit:
        legal = state.legal_actions()
        if len(legal) == 0:
            break
        a = policy.choose(state, legal)
        log.append((tuple(int(x) for x in legal), a))
        try:
            state.apply(a)
        except (NotImplementedError, ValueError):
            break
    return log


class PolicyConformance:
    """Invariants every registered policy keeps.  Subclasses set ``name`` (and ``params``,
    ``ci_games``, ``seeds``)."""

    name: str = ""
    params: dict = {}
    ci_games: int = 5          # games per (scenario, Lost Legion) in CI
    seeds: tuple = (0, 1)      # games checked decision by decision
    wide_pairs: bool = False   # also check blindness at many more positions (always for an oracle)

    def make(self) -> Policy:
        return get_policy(self.name, **self.params)

    @pytest.fixture(scope="class")
    def conf_game(self, content):
        return Game("first-reconnaissance", "arythea", content=content)

    @pytest.fixture(scope="class")
    def conf_pairs(self, content):
        return _shared_pairs(content)

    def test_is_registered_with_metadata(self):
        p = self.make()
        assert isinstance(p, Policy) and p.name == self.name
        assert self.name in list_policies() and policy_class(self.name) is type(p)
        assert set(METADATA_DEFAULTS) <= set(p.metadata)
        assert isinstance(p.metadata["stochastic"], bool) and isinstance(p.metadata["fast_path"], bool)
        assert p.metadata["sees_hidden"] == self.name.startswith("oracle-")
        assert len(p.description.split()) >= 8          # a paragraph on how it plays
        assert self.name in repr(p)
        assert p.parameters == {**p.parameters, **self.params}
        for spec in type(p).parameter_specs():
            assert spec.name in p.parameters or spec.required is False

    def test_returns_a_legal_action_at_every_decision_point(self, conf_game):
        kinds = set()
        for seed in self.seeds:
            for legal, a in _decisions(conf_game, self.make(), seed):
                assert isinstance(a, int) and a in legal
                kinds.add(a >> 20)
        assert len(kinds) >= 4    # tactics, turn start, cards, movement, end of turn ...

    def test_deterministic_for_the_same_seed(self, conf_game):
        for seed in self.seeds[:1]:
            assert _decisions(conf_game, self.make(), seed) == _decisions(conf_game, self.make(), seed)

    def test_reset_replays_the_same_game(self, conf_game):
        p = self.make()
        first = _decisions(conf_game, p, 5, 1)
        _decisions(conf_game, p, 6, 2)
        assert _decisions(conf_game, p, 5, 1) == first

    def test_pickled_policy_decides_alike(self, conf_game):
        p = self.make()
        q = pickle.loads(pickle.dumps(p))
        assert repr(q) == repr(p)
        assert _decisions(conf_game, p, 3) == _decisions(conf_game, q, 3)

    def test_fast_path_matches_choose(self, conf_game):
        p = self.make()
        if not p.metadata["fast_path"]:
            return
        for seed in self.seeds:
            log = [a for _, a in _decisions(conf_game, p, seed)]
            slow = conf_game.new_state(seed)
            fast = conf_game.new_state(seed)
            p.reset(seed, 0)
            try:
                p.play_engine(fast.engine, len(log))
            except (NotImplementedError, ValueError):
                pass
            for a in log:
                try:
                    slow.apply(a)
                except (NotImplementedError, ValueError):
                    break
            assert fast.to_dict() == slow.to_dict()

    @pytest.mark.parametrize("scenario", SOLO_SCENARIOS)
    @pytest.mark.parametrize("lost_legion", [False, True])
    def test_survives_whole_games(self, scenario, lost_legion):
        """Every game reaches its end by the rules: no illegal action, no failure, no
        engine gap hit, no step limit (MKSIM_CONFORMANCE_GAMES games, default ci_games)."""
        n = int(os.environ.get("MKSIM_CONFORMANCE_GAMES", self.ci_games))
        cfg = GameConfig(scenario, "arythea" if not lost_legion else "tovak", lost_legion=lost_legion)
        p = self.make()
        for g in range(n):
            rec, msg = play_game(cfg, 17, g, p)
            assert rec["error"] == ERROR_NONE, f"game {g}: {ERROR_NAMES[int(rec['error'])]}: {msg}"
            assert bool(rec["finished"])

    def test_blind_to_hidden_information(self, conf_pairs, content):
        """The same decision on two states that differ only in hidden information.  A
        policy that declares ``sees_hidden`` (named ``oracle-...``) must instead really
        decide differently on some pair: its declaration is checked, not taken on trust."""
        assert len(conf_pairs) >= 4
        oracle = self.make().metadata["sees_hidden"]
        differ = 0
        if oracle or self.wide_pairs:            # more positions, to find one where it matters
            conf_pairs = conf_pairs + _shared_pairs(content, wide=True)
        for s, t in conf_pairs:
            legal = s.legal_actions()
            assert legal.tolist() == t.legal_actions().tolist()
            for seed in (0, 1):
                p = self.make()
                p.reset(seed, 0)
                a = p.choose(s, legal)
                p.reset(seed, 0)
                b = p.choose(t, t.legal_actions())
                if not oracle:
                    assert a == b, f"{self.name} decided differently on states that differ only in hidden information"
                differ += a != b
        if oracle:
            assert differ > 0, f"{self.name} declares sees_hidden but never used hidden information"
