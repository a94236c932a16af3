"""The Python face of the engine, in the style of OpenSpiel: :class:`Game` and :class:`State`.

>>> from mksim.game import Game
>>> game = Game("first-reconnaissance", hero="arythea")
>>> state = game.new_state(seed=7)
>>> a = state.legal_actions()[0]
>>> state.action_to_string(a)
'take tactic Early Bird'
>>> state.apply(a)

A :class:`Game` holds what is fixed for many games (content, compiled tables, the integer
setup of a scenario and hero); :meth:`Game.new_state` sets up game ``game_index`` of the
run seeded ``seed`` (rules 1.2-1.4, 18.1).  All chance comes from the engine's seeded
streams (``ext/_rng.pyx``), so the same (seed, game index) and the same actions give the
same game in any process.

A rule the engine does not implement yet makes :meth:`State.apply` raise
NotImplementedError naming what is missing; the state then records it
(:attr:`State.stopped`) and :meth:`State.result` reports a game that did not finish.
"""
from __future__ import annotations

import weakref
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional, Union

import numpy as np

from . import effects as fx
from ._engine import KIND_NAMES, Engine, check_action_id, describe
from ._access import (ASK_NAMES, DUMMY_ACTOR, clone_engine, combat_enemies, core_info, final_score,
                      outcome_numbers, seat_fame, seat_scores)
from ._determinize import determinize_core
from ._rules import Rules
from ._state import PHASE_NAMES, TERMINATION_NAMES, GameCore, prepare_setup
from .content import Content, ContentError, load_content

__all__ = ["Game", "State", "Outcome", "normalize_id"]

#: Neighbour directions in the engine's order (HEX_DIRS of ext/_hexmap.pyx, 9.3).
DIRECTIONS = ("north-east", "east", "south-east", "south-west", "west", "north-west")
#: Sideways play of a card (6.1.7): A_SIDEWAYS argument ``what``.
SIDEWAYS = ("Move", "Influence", "Attack", "Block")
#: Payment codes of A_PLAY (ext/_engine.pxd PAY_*).
PAY_CRYSTAL, PAY_DIE, PAY_STOLEN, PAY_NONE = 6, 10, 18, 31
#: Option of a handler's ask that stops an "up to N" choice (ASK_DONE in ext/_engine.pxd).
ASK_DONE = 63
from .actions import ACTION_SHIFT  # noqa: E402  (the table of action kinds)
#: Human players a game can hold (MAX_PLAYERS of ext/_types.pxd); ``current`` below it.
MAX_HUMAN_PLAYERS = 4
ARG_MASK = (1 << ACTION_SHIFT) - 1

_TABLES: dict[int, tuple] = {}   # id(content) -> (weakref to content, tables)


def normalize_id(name: str) -> str:
    """Content id of a user-typed name: ``"First-Reconnaissance"`` -> ``"first_reconnaissance"``."""
    return str(name).strip().lower().replace("-", "_").replace(" ", "_")


def _kebab(ident: str) -> str:
    return ident.replace("_", "-")


def _compiled(content: Content):
    """The content's numeric tables, compiled once per Content object."""
    key = id(content)
    hit = _TABLES.get(key)
    if hit is not None and hit[0]() is content:
        return hit[1]
    tables = content.compile()
    _TABLES[key] = (weakref.ref(content, lambda _r, k=key: _TABLES.pop(k, None)), tables)
    return tables


def possessive(name: str) -> str:
    """``Gargoyle's``, ``Wolf Riders'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


#: Combat phases by ``Phase`` code (ext/_types.pxd), as the rulebook names them (11.3).
COMBAT_PHASE_WORDS = {4: "Ranged and Siege Attack", 5: "Block", 6: "Assign Damage", 7: "Attack"}


@dataclass(frozen=True)
class Outcome:
    """How a game ended (or why it did not).

    Attributes
    ----------
    termination : str
        ``TERMINATION_NAMES`` of ext/_state.pyx: ``"scenario_won"`` (14.3), ``"round_limit"``
        (14.2), ``"none"`` (not over: still running or stopped).
    finished : bool
        The game reached its end by the rules.
    fame : int
        Fame of the player (20).
    score : int or None
        Final score by the scenario's scoring (17.3.1 / 20.5) when finished, else None.
    rounds : int
        Rounds played (the round in progress counts).
    steps : int
        Decisions taken (including one that stopped the game).
    stopped : str or None
        Why the game stopped before its end (an engine NotImplementedError message), or None.
    score_by_category : dict or None
        The score broken down (when ``score`` is given; the values add up to it): ``fame``,
        the six standard achievements of 20.2 (``knowledge``, ``loot``, ``leader``,
        ``conqueror``, ``adventurer``, ``beating``) and, for Solo Conquest (20.5.2),
        ``cities`` (+10 each), ``all_cities`` (+15), ``rounds_left`` (+30 each),
        ``dummy_deck`` (+1 per card) and ``end_not_announced`` (+5).  See
        :func:`score_by_category`.
    """

    termination: str
    finished: bool
    fame: int
    score: Optional[int]
    rounds: int
    steps: int
    stopped: Optional[str] = None
    score_by_category: Optional[dict] = None
    #: Per seat (seat order), games of two or more heroes only (None in a solo game):
    #: each player's Fame, final score (17.3.1, 20.1-20.3: Fame + achievements + titles;
    #: None until finished) and whether they won (most points; ties share the victory, 20.1.1).
    seat_fame: Optional[tuple] = None
    seat_score: Optional[tuple] = None
    seat_won: Optional[tuple] = None

    def to_dict(self) -> dict:
        return asdict(self)


def score_by_category(core: GameCore, scoring: str, rounds: int, cities_total: int,
                      player: int = 0) -> Optional[dict]:
    """The final score of ``player`` by category, as :func:`mksim._access.final_score`
    adds it up (the values sum to it).

    ``fame`` (20.1.1) and the standard achievements of 20.2 (ext/_scoring.pyx
    ``achievement_scores``), no titles in a solo game (17.3.1, 20.5.1); for
    ``"solo_conquest"`` also 20.5.2: ``cities`` (+10 per city conquered), ``all_cities``
    (+15 if all were), ``rounds_left`` (+30 per round left unplayed when the game ended
    early), ``dummy_deck`` (+1 per card in the dummy's Deed deck), ``end_not_announced``
    (+5 if the End of the Round was not announced in the final round).  None for a
    scoring it does not know.
    """
    from ._scoring import ScoringTester
    if scoring not in ("first_reconnaissance", "solo_conquest"):
        return None
    raw = core.raw_dict()
    out = {"fame": int(raw["players"][player]["fame"])}
    out.update({k: int(v) for k, v in ScoringTester(core).achievement_scores(player).items()})
    if scoring == "solo_conquest":
        tester = ScoringTester(core)
        cities = int(tester.cities_conquered())
        left = rounds - raw["round"] if raw["termination"] == 1 else 0    # TERM_SCENARIO_WON: ended early
        out["cities"] = 10 * cities
        out["all_cities"] = 15 if cities_total > 0 and cities >= cities_total else 0
        out["rounds_left"] = 30 * max(left, 0)
        out["dummy_deck"] = int(raw["dummy"]["n_deck"]) if raw["has_dummy"] else 0
        out["end_not_announced"] = 5 if raw["end_announced_by"] < 0 else 0
    return out


class Game:
    """A scenario, a hero and a content catalogue: the factory of game states.

    Parameters
    ----------
    scenario : str
        Scenario id, kebab-case or snake_case (``"first-reconnaissance"``,
        ``"solo_conquest"``).  With one hero: solo scenarios with a dummy player (18.1).
    hero : str
        Hero id (``"arythea"``, ``"goldyx"``, ``"norowas"``, ``"tovak"``, ``"wolfhawk"``).
    content : None, str, Path or Content
        The catalogue: None for the shipped one, a path as for ``--content`` (a folder of
        edited catalogue files or an override file), or a loaded :class:`Content`.
    lost_legion : bool
        Add The Lost Legion's tiles, enemies, cards and units (LL-2.3), play the cards it
        changed in their Lost Legion printing (``ll_printing``, LL-2.10.2) and deal each
        hero's cooperative skill instead of its interactive one (LL-7.1; solo games).
    heroes : list of str, optional
        One hero per seat, 2 to 4 distinct ids in hero-selection order (1.1.2), for a
        competitive game of several heroes (the scenario's ``multiplayer`` entry in
        scenarios.toml, e.g. First Reconnaissance, 17.3.1); ``hero`` is then ignored.

    Raises
    ------
    ValueError
        Unknown scenario or hero (the message lists the known ones), or a scenario that is
        not a solo scenario.
    """

    def __init__(self, scenario: str = "first-reconnaissance", hero: str = "arythea",
                 content: Union[None, str, Path, Content] = None, lost_legion: bool = False,
                 heroes: Optional[list] = None) -> None:
        if content is None or isinstance(content, (str, Path)):
            content = load_content(content)
        if not isinstance(content, Content):
            raise TypeError("content must be None, a path or a mksim.content.Content")
        self.lost_legion = bool(lost_legion)
        # LL-2.10.2: with The Lost Legion its printing of a changed card replaces the base one
        content = content.printing(self.lost_legion)
        self.content = content
        self.tables = _compiled(content)
        scenarios = content.ids("scenarios")
        sid = normalize_id(scenario)
        if sid not in scenarios:
            raise ValueError(f"unknown scenario {scenario!r}; known: {', '.join(_kebab(s) for s in scenarios)}")
        if heroes is not None:
            if isinstance(heroes, str) or not all(isinstance(h, str) for h in heroes):
                raise ValueError("heroes must be a list of hero ids, one per seat")
            seats = [normalize_id(h) for h in heroes]
            if not seats:
                raise ValueError("heroes: at least one hero")
        else:
            seats = [normalize_id(hero)]
        for hid, given in zip(seats, heroes if heroes is not None else [hero]):
            if hid not in self.tables.hero_ids:
                raise ValueError(f"unknown hero {given!r}; known: {', '.join(self.tables.hero_ids)}")
        self.scenario_id = sid
        self.hero_id = seats[0]
        #: Hero of each seat, in hero-selection (seat) order (1.1.2).
        self.hero_ids = tuple(seats)
        self.n_players = len(seats)
        self.setup = prepare_setup(self.tables, content, sid, seats if len(seats) > 1 else seats[0],
                                   self.lost_legion)
        sc = content.get("scenarios", sid)
        self.scenario = sc
        self.rounds = int(self.setup.rounds)
        #: 20.3 titles are awarded (games of several heroes whose rules do not say "no_titles").
        self.titles = self.n_players > 1 and "no_titles" not in self.setup.special_rules
        self.cities_total = len(sc.get("city_levels", []))
        self.scoring = sc.get("scoring", sid)
        self._names = self._name_table(content)
        self._engine_template = self._bind_engine()

    def _bind_engine(self) -> Engine:
        """Bind the content to the engine now, once (every game of this Game shares the
        bound tables): content the engine cannot use is bad content, a ContentError from
        ``Game()`` naming the content files, not a traceback when the first game starts."""
        try:
            core = GameCore.from_setup(self.tables, self.setup, 0, 0)
            self._core_template = core         # new_state shares its bound views
            return Engine(core, self.tables, self.content, self.scenario_id, None)
        except (ValueError, KeyError, IndexError) as err:
            where = ", ".join(self.content.user_files) or "mksim/data"
            raise ContentError(where, f"scenario {self.scenario_id!r}: the engine cannot use this "
                                      f"content: {err}") from None

    @staticmethod
    def known_scenarios(content: Optional[Content] = None) -> list[str]:
        """Scenario ids (snake_case) of the catalogue."""
        return list((content or load_content()).ids("scenarios"))

    @staticmethod
    def _name_table(content: Content) -> dict[tuple[str, str], str]:
        names = {}
        for kind in ("basic_actions", "advanced_actions", "spells", "artifacts", "wound"):
            for e in content[kind]:
                names[("card", e["id"])] = e.get("name", e["id"])
        for kind, key in (("tactics", "tactic"), ("skills", "skill"), ("sites", "site"),
                          ("units", "unit"), ("heroes", "hero"), ("scenarios", "scenario"),
                          ("enemies", "enemy")):
            for e in content[kind]:
                names[(key, e["id"])] = e.get("name", e["id"])
        return names

    def name(self, kind: str, ident: Optional[str]) -> str:
        """Display name of a content id (``name("card", "march")`` -> ``"March"``)."""
        if ident is None:
            return "-"
        return self._names.get((kind, ident), ident.replace("_", " ").title())

    @property
    def title(self) -> str:
        """Scenario and hero(es) in words."""
        heroes = ", ".join(self.name('hero', h) for h in self.hero_ids)
        return f"{self.name('scenario', self.scenario_id)}, {heroes}"

    def new_state(self, seed: int, game_index: int = 0) -> "State":
        """Set up game ``game_index`` of the run seeded ``seed`` (rules 1.2-1.4, 18.1).

        The state waits for the first decision: the choice of a tactic (3.1).

        Raises
        ------
        ValueError
            ``seed`` or ``game_index`` is not a whole number in 0 .. 2**64 - 1.
        """
        core = GameCore.from_setup(self.tables, self.setup, seed, game_index, self._core_template)
        engine = Engine(core, self.tables, self.content, self.scenario_id, self._engine_template)
        return State(self, core, engine, [])

    def state_from_dict(self, d: dict) -> "State":
        """A state of this game at the position written in ``d`` (a fixture).

        ``d`` is shaped like :meth:`State.to_dict` and may be partial: only ``"format"`` is
        required; every other field comes from ``new_state(seed, game_index)`` with the
        dict's ``seed`` / ``game_index`` (default 0).  See docs/fixtures.md.

        Raises
        ------
        mksim.fixtures.FixtureError
            (a ValueError) naming the key path of the first wrong value, e.g.
            ``players[0].hand[2]: unknown card 'marhc'``.
        """
        from .fixtures import state_from_dict
        return state_from_dict(self, d)

    def __repr__(self) -> str:
        ll = ", lost_legion=True" if self.lost_legion else ""
        if self.n_players > 1:
            return f"Game({_kebab(self.scenario_id)!r}, heroes={list(self.hero_ids)!r}{ll})"
        return f"Game({_kebab(self.scenario_id)!r}, hero={self.hero_id!r}{ll})"


class State:
    """One game in progress.  Build with :meth:`Game.new_state`.

    Attributes
    ----------
    game : Game
    history : list of int
        The actions applied so far, in order.
    stopped : str or None
        The NotImplementedError message that stopped the game, or None.
    """

    __slots__ = ("game", "core", "engine", "history", "stopped")

    def __init__(self, game: Game, core, engine, history: list[int], stopped: Optional[str] = None) -> None:
        self.game = game
        self.core = core
        self.engine = engine
        self.history = history
        self.stopped = stopped

    # -- the OpenSpiel surface -----------------------------------------------------------

    def legal_actions(self) -> np.ndarray:
        """The legal actions as an int32 array (empty when the game is over or stopped)."""
        return self.engine.legal_actions()

    def apply(self, action: int) -> None:
        """Take one decision.

        Raises
        ------
        ValueError
            ``action`` is not an integer action id (Python int or numpy integer) of the
            encoding, or not one of :meth:`legal_actions`; the state is then unchanged.
        NotImplementedError
            The game reached a rule the engine lacks; :attr:`stopped` holds the message and
            the state offers no further action.
        """
        a = check_action_id(action)
        if self.stopped is not None:
            raise NotImplementedError(self.stopped)
        try:
            self.engine.apply(a)
        except NotImplementedError as err:
            self.history.append(a)
            self.stopped = str(err)
            raise
        self.history.append(a)

    def is_terminal(self) -> bool:
        """The game is over by the rules (14.2, 14.3).  A stopped game is not terminal."""
        return bool(self.engine.is_terminal())

    def is_stopped(self) -> bool:
        """The engine stopped the game at a rule it does not implement yet."""
        return self.stopped is not None

    def result(self) -> Outcome:
        """The outcome so far (final when :meth:`is_terminal`).  ``fame`` / ``score`` are
        seat 0's; a game of several heroes also gives every seat's (``seat_*``)."""
        term, fame, steps, rnd = outcome_numbers(self.core)
        finished = self.is_terminal()
        score = by_category = None
        if self.game.n_players > 1:
            fames = tuple(int(f) for f in seat_fame(self.core))
            scores = won = None
            if finished:
                scores = tuple(int(x) for x, _ in seat_scores(self.core, self.game.titles))
                top = max(scores)
                won = tuple(x == top for x in scores)
                score = scores[0]
            return Outcome(termination=TERMINATION_NAMES[term], finished=finished, fame=int(fame),
                           score=score, rounds=int(rnd), steps=int(steps), stopped=self.stopped,
                           seat_fame=fames, seat_score=scores, seat_won=won)
        if finished:
            score = final_score(self.core, self.game.scoring, self.game.rounds, self.game.cities_total)
            if score is not None:
                by_category = score_by_category(self.core, self.game.scoring, self.game.rounds,
                                                self.game.cities_total)
        return Outcome(termination=TERMINATION_NAMES[term], finished=finished, fame=int(fame),
                       score=score, rounds=int(rnd), steps=int(steps), stopped=self.stopped,
                       score_by_category=by_category)

    def current_player(self) -> int:
        """Seat index (0 .. players - 1) of the player whose decision it is.  Only players
        decide: the dummy (18) acts by itself and never owns a decision.  -1 once the game
        is over or stopped (no decision is open)."""
        if self.is_terminal() or self.is_stopped():
            return -1
        return int(core_info(self.core)["current"])

    def returns(self) -> list:
        """One number per seat (OpenSpiel style): each player's score so far by the
        scenario's scoring, final when :meth:`is_terminal`.  Several heroes: Fame +
        standard achievements + titles (17.3.1, 20.1-20.3); solo: the scenario's score
        (17.3.1 solo variant, 20.5) once finished, the Fame before that."""
        if self.game.n_players > 1:
            return [float(x) for x, _ in seat_scores(self.core, self.game.titles)]
        out = self.result()
        return [float(out.score if out.score is not None else out.fame)]

    def clone(self) -> "State":
        """An independent deep copy: changing one never changes the other.

        The copy gets a new GameCore (``GameCore.copy``, one memcpy) and a new Engine on it
        (see :func:`mksim._access.clone_engine` for how the engine's round-1 setup is
        kept from touching the copied state).
        """
        if hasattr(self.engine, "clone"):            # an Engine.clone() of the core, if any
            engine = self.engine.clone()
        else:
            engine = clone_engine(self.engine, self.game.content, self.game.scenario_id)
        from ._access import engine_core
        return State(self.game, engine_core(engine), engine, list(self.history), self.stopped)

    def determinize(self, seed: int, player: Optional[int] = None) -> "State":
        """A copy in which everything ``player`` cannot know is resampled (information-fair
        look-ahead; ``ext/_determinize.pxd`` lists the zones).

        Unlike :meth:`clone`, the copy does not carry the true future: the own Deed deck
        order (bar the known top / bottom cards), face-down enemy and ruins tokens, the tile
        stack, the AA / spell / artifact / unit decks, the dummy's deck and every random
        stream are drawn anew from ``seed`` and a hash of what ``player`` sees.  Two states
        that differ only in hidden information give identical copies for the same seed.

        Parameters
        ----------
        seed : int
            Seed of the resampling (e.g. drawn from the policy's own stream).
        player : int, optional
            Whose knowledge to keep; default the player whose decision it is.
        """
        copy = self.clone()
        if player is None:
            player = int(core_info(self.core)["current"])
            if player >= MAX_HUMAN_PLAYERS:
                player = 0
        determinize_core(copy.core, int(player), int(seed))
        return copy

    def view(self) -> "PolicyView":
        """A cheap read-only view of what the acting player sees (:class:`PolicyView`,
        docs/policies.md)."""
        from .policies.view import PolicyView
        return PolicyView(self)

    def to_dict(self, format: Optional[int] = None) -> dict:
        """The whole state as a JSON-serialisable fixture dict: every field of the engine's
        state (docs/fixtures.md); :meth:`Game.state_from_dict` rebuilds the state from it.
        ``format``: fixture format 2 (the default) or 1 (bit fields as whole numbers)."""
        return self.core.to_dict(format)

    def info(self) -> dict:
        """A few numbers (round, time, phase, Fame, ...) without building :meth:`to_dict`."""
        return core_info(self.core)

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self.engine.phase()]

    def __repr__(self) -> str:
        i = self.info()
        return (f"<State {self.game.scenario_id} round {i['round']} "
                f"{fx.TIMES[i['time']]} phase {PHASE_NAMES[i['phase']]} steps {i['steps']}>")

    # -- actions in words ----------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """The action in words a Mage Knight player understands, read in this state.

        Examples: ``'take tactic Early Bird'``, ``'play March (basic)'``, ``'play Rage
        sideways as Move 1'``, ``'move east to plains (cost 2)'``, ``'explore tile position
        (1, 1)'``, ``'rest: discard Stamina'``, ``'end turn'``.
        """
        return _ActionWords(self).say(check_action_id(action))


class _ActionWords:
    """Turns action codes into words, reading the state once."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.game = state.game
        self.d = state.core.to_dict()
        self.info = core_info(state.core)
        self.player = self.d["players"][self.d["current"]] if self.d["players"] else {}

    def card(self, ident: str) -> str:
        return self.game.name("card", ident)

    def hand_card(self, i: int) -> str:
        hand = self.player.get("hand", [])
        return self.card(hand[i]) if 0 <= i < len(hand) else f"hand card {i}"

    def pay(self, code: int) -> str:
        if code == PAY_STOLEN:
            return "the die kept on Mana Steal"
        if code < PAY_CRYSTAL:
            return f"a {fx.MANA_COLOURS[code]} mana token"
        if code < PAY_DIE:
            return f"a {fx.BASIC_COLOURS[code - PAY_CRYSTAL]} crystal"
        die = code - PAY_DIE
        dice = self.d["source"]["dice"]
        colour = dice[die] if die < len(dice) else "?"
        return f"the {colour} Source die"

    def hex(self, index: int) -> Optional[dict]:
        for tile in self.d["map"]["tiles"]:
            for h in tile["hexes"]:
                if h["index"] == index:
                    return h
        return None

    def say(self, a: int) -> str:
        kind = KIND_NAMES.get(a >> ACTION_SHIFT)
        arg = a & ARG_MASK
        method = getattr(self, f"_{kind}", None) if kind else None
        if method is None:
            return describe(a).replace("_", " ")
        return method(arg)

    def _tactic(self, arg: int) -> str:
        return f"take tactic {self.game.name('tactic', self.game.tables.tactic_ids[arg])}"

    def _announce_end(self, arg: int) -> str:
        return "announce the End of the Round"

    def _regular_turn(self, arg: int) -> str:
        return "take a regular turn"

    def _rest(self, arg: int) -> str:
        return "rest"

    def _play(self, arg: int) -> str:
        i, powered, pay, pay2 = arg & 0x7F, (arg >> 7) & 1, (arg >> 8) & 0x1F, (arg >> 13) & 0x1F
        mode = "powered" if powered else "basic"
        paid = [self.pay(p) for p in (pay, pay2) if p != PAY_NONE]
        if paid:
            mode += ", paying " + " and ".join(paid)
        return f"play {self.hand_card(i)} ({mode})"

    def _sideways(self, arg: int) -> str:
        what = (arg >> 7) & 0x7
        return f"play {self.hand_card(arg & 0x7F)} sideways as {SIDEWAYS[what] if what < 4 else '?'} 1"

    def _choose(self, arg: int) -> str:
        info = self.info
        ask = ASK_NAMES.get(info["ask"], "option")
        if info["handler_row"] >= 0:
            if arg == ASK_DONE:
                return "choose: done"
            if ask == "hand_card":
                return f"choose {self.hand_card(arg)}"
            if ask == "colour":
                return f"choose {fx.MANA_COLOURS[arg] if arg < 6 else arg}"
            if ask == "die":
                dice = self.d["source"]["dice"]
                return f"choose the {dice[arg] if arg < len(dice) else '?'} Source die"
            if ask == "yes_no":
                return "choose yes" if arg else "choose no"
            if ask == "payment":
                return f"pay with {self.pay(arg)}"
            if ask == "discard_card":
                pile = self.player.get("discard", [])
                return f"choose {self.card(pile[arg]) if arg < len(pile) else arg} from the discard pile"
            if ask == "enemy":
                return f"choose {self.enemy(arg)} as the target"
            if ask == "deck_card":
                deck = self.player.get("deck", [])
                return f"choose {self.card(deck[arg]) if arg < len(deck) else arg} from the Deed deck"
            return f"choose {ask.replace('_', ' ')} {arg}"
        row = info["pending_choice"]
        if row >= 0:
            effects = self.game.tables.effects
            r = effects[row]
            if fx.OPS[r[0]].name == "choice":
                return f"choose {effect_words(effects, int(r[4]) + arg, self.game)}"
            return f"choose {fx.MANA_COLOURS[arg]}"
        return f"choose option {arg}"

    def _move(self, arg: int) -> str:
        pos = self.player.get("position")
        h = self.hex(pos) if pos is not None and pos >= 0 else None
        to = h["neighbours"][arg] if h else -1
        target = self.hex(to) if to >= 0 else None
        direction = DIRECTIONS[arg] if arg < 6 else f"direction {arg}"
        if target is None:
            return f"move {direction}"
        where = target["terrain"]
        if target["site"]:
            where += f" ({self.game.name('site', target['site'])})"
        cost = Rules(self.state.core).move_cost(to)
        return f"move {direction} to {where} (cost {cost})"

    def _explore(self, arg: int) -> str:
        box = arg & (1 << 14)                                # EXPLORE_BOX_FLAG (9.8.8)
        arg &= (1 << 14) - 1
        where = f"tile position ({(arg >> 7) - 64}, {(arg & 0x7F) - 64})"
        return f"explore {where} with a tile from the box" if box else f"explore {where}"

    def _tactic_ability(self, arg: int) -> str:
        tactic = self.game.name("tactic", self.player.get("tactic"))
        if self.player.get("tactic") == "sparing_power":    # 3.2: store a card / take them
            return f"use {tactic}: " + ("put the top Deed card under it" if arg == 0 else "take the stored cards")
        return f"use tactic {tactic}" + (f" (variant {arg})" if arg else "")

    def _forfeit(self, arg: int) -> str:
        return "forfeit the turn"

    def _convert_move(self, arg: int) -> str:
        return "Agility: convert Move into " + ("Ranged Attack 1" if arg else "Attack 1")

    def _influence_block(self, arg: int) -> str:       # Diplomacy (LL-9.7.1)
        element = ("physical", "Fire", "Ice")[arg] if arg < 3 else "?"
        return f"Diplomacy: spend Influence 1 as {element} Block 1"

    def _learning(self, arg: int) -> str:
        offer = self.d["advanced_action_offer"]
        card = offer[arg] if arg < len(offer) and offer[arg] else None
        return f"Learning: buy {self.card(card) if card else f'offer card {arg}'} with Influence"

    def _peaceful(self, arg: int) -> str:              # Peaceful Moment as the action (LL-8.1)
        if arg == 0:
            return "Peaceful Moment: buy Heal 1 with Influence"
        return f"Peaceful Moment: ready {self.unit_word(arg - 1)} with Influence"
    def _possess_attack(self, arg: int) -> str:
        return "Possess: add the possessed enemy's Attack (not usable against it)"

    def _wings_target(self, arg: int) -> str:
        return f"Wings of Night: {self.enemy(arg)} does not attack (paid with Move)"

    def _cumbersome(self, arg: int) -> str:           # LL-6.5.2: slot | attack << 5
        return f"spend 1 Move point to reduce {self.enemy_attack(arg & 0x1F, arg >> 5)} by 1 (Cumbersome)"

    def _return_card(self, arg: int) -> str:
        return f"Crystal Joy: discard {self.hand_card(arg)} to return Crystal Joy to hand"

    # -- sites and combat (10, 11) --------------------------------------------------------

    def enemy(self, slot: int) -> str:
        for k, enemy, _flags in combat_enemies(self.state.core):
            if k == slot and enemy >= 0:
                return self.game.name("enemy", self.game.tables.enemy_ids[enemy])
        return f"enemy {slot + 1}"

    def _challenge(self, arg: int) -> str:            # 11.1.5: bitmask of directions
        dirs = [DIRECTIONS[k] for k in range(6) if arg >> k & 1]
        return "challenge the rampaging enemies to the " + " and ".join(dirs)

    def _site_here(self) -> str:
        pos = self.player.get("position")
        h = self.hex(pos) if pos is not None and pos >= 0 else None
        return self.game.name("site", h["site"]) if h and h["site"] else "the site"

    def _enter_site(self, arg: int) -> str:           # 10.8
        return f"enter the {self._site_here()}"

    def _burn(self, arg: int) -> str:                 # 10.7.2.3
        return f"burn the {self._site_here()}"

    def _interact(self, arg: int) -> str:             # 10.2
        return f"interact with the {self._site_here()}"

    def _attack(self, arg: int) -> str:               # 11.5.2, 11.8: bitmask of targets
        targets = [self.enemy(k) for k in range(32) if arg >> k & 1]
        return "attack " + (", ".join(targets) if targets else "nobody")

    def enemy_attack(self, slot: int, attack: int) -> str:
        """``Gargoyle's Attack 5`` (or ``... attack no. 2, Attack 4 fire`` for enemies with
        several attacks, LL-6.1), printed values before any effect changed them."""
        name = self.enemy(slot)
        for k, enemy, _flags in combat_enemies(self.state.core):
            if k == slot and enemy >= 0:
                attacks = self.game.content.get("enemies", self.game.tables.enemy_ids[enemy]).get("attacks", [])
                if attack < len(attacks):
                    a = attacks[attack]
                    element = "" if a["element"] == "physical" else " " + a["element"].replace("_", " ")
                    which = f"attack no. {attack + 1}, " if len(attacks) > 1 else ""
                    return f"{possessive(name)} {which}Attack {a['value']}{element}"
        return f"{possessive(name)} attack no. {attack + 1}"

    def _block(self, arg: int) -> str:                # 11.6.3: slot | attack << 5
        return f"block {self.enemy_attack(arg & 0x1F, arg >> 5)}"

    def _damage_from(self, arg: int) -> str:          # 11.7.1
        return f"take the damage of {self.enemy_attack(arg & 0x1F, arg >> 5)}"

    def _damage_hero(self, arg: int) -> str:          # 11.7.7
        return "assign the damage to the hero"

    def _damage_unit(self, arg: int) -> str:          # 11.7.4
        return f"assign the damage to {self.unit_word(arg)}"

    def unit_word(self, slot: int) -> str:
        """The name of the Unit in the player's unit slot ``slot`` (the fixture lists
        occupied slots only, with a "slot" key after a gap)."""
        units = self.player.get("units", [])
        unit = next((u["unit"] for i, u in enumerate(units) if u.get("slot", i) == slot), None)
        return self.game.name("unit", unit) if unit else f"unit {slot}"

    def _banner_courage(self, arg: int) -> str:       # Banner of Courage (7.5)
        return f"flip the Banner of Courage to ready {self.unit_word(arg)}"

    def _banner_fear(self, arg: int) -> str:          # Banner of Fear (7.5)
        return (f"spend {self.unit_word(arg & 7)} (Banner of Fear) to cancel attack {(arg >> 8) & 3} "
                f"of enemy {(arg >> 3) & 0x1F}")

    def _damage_fortitude(self, arg: int) -> str:     # Banner of Fortitude (LL-5.2)
        return f"assign the damage to {self.unit_word(arg)}, the Banner of Fortitude ignoring the wound"

    def _banner_return(self, arg: int) -> str:        # 2.2.8, 7.5.3
        if arg == 7:
            return "keep the other Banners on their Units"
        return f"take the Banner back from {self.unit_word(arg)} into the Deed deck"

    def _banner_command(self, arg: int) -> str:       # LL-5.1
        return f"give the Banner of Command to {self.unit_word(arg)} instead of a Command token"

    def _bow_change(self, arg: int) -> str:           # Bow of Starsdawn (powered)
        element = ("physical", "fire", "ice", "cold fire")[(arg >> 2) & 3]
        words = ("double the {} Ranged Attack", "make the {} Ranged Attack Siege",
                 "double the {} Siege Attack, as Ranged", "bow change {}")
        return words[arg & 3].format(element)

    def _circlet_skill(self, arg: int) -> str:        # Circlet of Proficiency
        return "use the Circlet of Proficiency's skill again"
    def _pay_unit(self, arg: int) -> str:             # LL-4.3.4
        return f"pay 2 Influence so that {self.unit_word(arg)} cooperate in this combat"

    def _upkeep(self, arg: int) -> str:               # LL-4.5.4
        colour = (arg >> 3) - 1
        if colour < 0:
            return f"disband {self.unit_word(arg & 7)} (no upkeep paid)"
        return f"pay {self.unit_word(arg & 7)}'s upkeep with a {fx.BASIC_COLOURS[colour]} crystal"

    def _next_phase(self, arg: int) -> str:           # 11.3.2
        phase = COMBAT_PHASE_WORDS.get(self.info["phase"])
        return f"end the {phase} phase" if phase else "end this combat phase"

    def _reward(self, arg: int) -> str:               # 13.5
        return f"claim reward: option {arg}"

    def _altar(self, arg: int) -> str:                # 10.7.10.2
        return "pay the altar's tribute"

    def _end_turn(self, arg: int) -> str:
        return "end turn"

    def _rest_discard(self, arg: int) -> str:
        return f"rest: discard {self.hand_card(arg)}"

    def _heal_wound(self, arg: int) -> str:
        return "heal: throw away a Wound from hand"

    def _discard(self, arg: int) -> str:
        return f"discard {self.hand_card(arg)} before drawing"

    def _draw(self, arg: int) -> str:
        return "draw cards up to the Hand limit"

    def _pick_skill(self, arg: int) -> str:
        stack = self.player.get("skill_stack", [])
        if arg < 2:
            k = len(stack) - 1 - arg
            skill = stack[k] if 0 <= k < len(stack) else None
            return f"level up: take skill {self.game.name('skill', skill)}"
        offer = self.d.get("skill_offer", [])
        skill = offer[arg - 2] if arg - 2 < len(offer) else None
        return f"level up: take skill {self.game.name('skill', skill)} from the common offer"

    def _pick_aa(self, arg: int) -> str:
        offer = self.d.get("advanced_action_offer", [])
        card = offer[arg] if arg < len(offer) else None
        return f"level up: take Advanced Action {self.card(card) if card else arg}"

    def _plunder(self, arg: int) -> str:              # 10.7.1.4
        return "plunder the Village (Reputation -1, draw 2 cards)"

    def _buy_artifact(self, arg: int) -> str:         # 10.10 red city
        return "buy an Artifact (drawn at the end of the turn)"

    def _steady_tempo(self, arg: int) -> str:          # Steady Tempo (end of turn)
        return "put Steady Tempo back on the Deed deck instead of the discard pile"

    def _end_interact(self, arg: int) -> str:          # 10.2
        return "end the interaction"

    def offer_unit(self, slot: int) -> str:
        offer = self.d.get("unit_offer", [])
        entry = offer[slot] if slot < len(offer) else {}
        if "unit" in entry:
            return self.game.name("unit", entry["unit"])
        if "advanced_action" in entry:
            return self.card(entry["advanced_action"])
        return f"unit offer slot {slot}"

    def _recruit(self, arg: int) -> str:               # 10.6, 7.2.4
        words = f"recruit {self.offer_unit(arg & 0xF)}"
        if arg & 0x10000:                               # BONDS_RECRUIT (ext/_engine.pxd)
            return words + " under the Bonds of Loyalty token"
        disband, pay, colour = ((arg >> 4) & 0xF) - 1, ((arg >> 8) & 0x1F) - 1, (arg >> 13) & 3
        if disband >= 0:
            words += f", disbanding {self.unit_word(disband)}"
        if pay >= 0:                                    # Magic Familiars (LL-4.5.4)
            words += f", putting {fx.BASIC_COLOURS[colour]} mana on it from {self.pay(pay)}"
        return words

    def _buy_healing(self, arg: int) -> str:           # 10.5
        return "buy 1 Healing point"

    def _buy_aa(self, arg: int) -> str:                # 10.7.2.2
        return f"buy {self.offer_unit(arg)} from the monastery"

    def _buy_spell(self, arg: int) -> str:             # 10.7.4.3
        offer = self.d.get("spell_offer", [])
        card = offer[arg & 3] if (arg & 3) < len(offer) else None
        return f"buy {self.card(card) if card else 'a Spell'}, paying {self.pay(arg >> 2)}"

    def _activate_unit(self, arg: int) -> str:         # 7.3
        words = f"activate {self.unit_word(arg & 7)} (ability {((arg >> 3) & 0xF) + 1})"
        pay = arg >> 7
        return words + (f", paying {self.pay(pay)}" if pay != PAY_NONE else "")

    def _heal_unit(self, arg: int) -> str:             # 12.3.3
        return f"heal {self.unit_word(arg)}"

    def _use_skill(self, arg: int) -> str:             # 8.2
        skills = self.player.get("skills", [])
        skill = skills[arg] if arg < len(skills) else None
        return f"use the skill {self.game.name('skill', skill)}" if skill else f"use skill {arg}"

    def _skill_crystal(self, arg: int) -> str:         # Source Freeze
        dice = self.d.get("source", {}).get("dice", [])
        die = dice[arg] if arg < len(dice) else "?"
        return f"Source Freeze: take a crystal of the {die} Source die"

    def _buy_city_aa(self, arg: int) -> str:          # 10.10 green city
        if arg == 3:
            return "buy the top Advanced Action of the deck"
        offer = self.d.get("advanced_action_offer", [])
        card = offer[arg] if arg < len(offer) else None
        return f"buy Advanced Action {self.card(card) if card else arg}"

    def _add_elite(self, arg: int) -> str:            # 10.10 white city
        return "add an Elite Unit to the Unit offer"

    def _glade_wound(self, arg: int) -> str:
        return ("Magical Glade: keep the Wounds", "Magical Glade: throw away a Wound from hand",
                "Magical Glade: throw away a Wound from the discard pile")[arg] if arg < 3 else f"glade {arg}"


def effect_words(effects, row: int, game: Optional[Game] = None) -> str:
    """A compiled effect row (``mksim.effects`` layout) in words, e.g. ``'Move 2'``."""
    r = [int(x) for x in effects[row]]
    op = fx.OPS[r[0]].name
    kids = [effect_words(effects, r[4] + k, game) for k in range(r[5])]
    if op in ("move", "influence", "block", "heal"):
        label = {"heal": "Healing"}.get(op, op.capitalize())
        extra = f" {fx.ELEMENTS[r[2]]}" if op == "block" and r[2] else ""
        return f"{label}{extra} {r[1]}".replace("  ", " ")
    if op == "attack":
        element = f"{fx.ELEMENTS[r[2]].capitalize()} " if r[2] else ""
        kind = f"{fx.ATTACK_KINDS[r[3]].capitalize()} " if r[3] else ""
        return f"{kind}{element}Attack {r[1]}"
    if op == "draw":
        return f"draw {r[1]} card{'s' if r[1] != 1 else ''}"
    if op in ("gain_mana", "gain_crystal"):
        what = "mana token" if op == "gain_mana" else "crystal"
        colour = fx.COLOUR_CHOICES[r[1]] if r[1] < len(fx.COLOUR_CHOICES) else "?"
        return f"gain {r[2] if r[2] > 1 else 'a'} {colour} {what}{'s' if r[2] > 1 else ''}"
    if op in ("fame", "reputation"):
        return f"{r[1]:+d} {op.capitalize()}"
    if op == "take_wound":
        return f"take {r[1]} Wound{'s' if r[1] != 1 else ''}"
    if op == "choice":
        return "one of: " + " / ".join(kids)
    if op == "all":
        return " and ".join(kids)
    if op == "by_time":
        return f"by Day {kids[0]}, at Night {kids[1]}" if len(kids) == 2 else "by time"
    if op == "handler":
        name = game.tables.handlers[r[1]] if game is not None else str(r[1])
        return f"special effect {name.replace('_', ' ')}"
    if op == "terrain_cost":
        terrain = fx.TERRAIN_CHOICES[r[1]] if r[1] < len(fx.TERRAIN_CHOICES) else "?"
        return f"{terrain} costs {r[2]:+d} this turn"
    return op.replace("_", " ")


def actor_name(game: Game, d: dict, actor: int) -> str:
    """Who ``turn_player`` / ``end_announced_by`` names: the hero, or the dummy (18)."""
    if actor == DUMMY_ACTOR:
        hero = d["dummy"]["hero"] if d.get("dummy") else None
        return f"the dummy ({game.name('hero', hero)})" if hero else "the dummy"
    if 0 <= actor < len(d["players"]):
        return game.name("hero", d["players"][actor]["hero"])
    return f"player {actor}"
