"""Built-in policies: ``random``, ``eager`` (C core in ext/_policies.pyx), ``first`` and
``heuristic`` with its presets (ext/_heuristic.pyx)."""
from __future__ import annotations

from typing import Sequence

from .. import _policies
from .base import Policy
from .registry import register


class _CPolicy(Policy):
    """A policy whose decisions come from a C object of ``mksim._policies`` (``self._core``):
    the Python ``choose`` and the fast path ``play_engine`` draw the same numbers."""

    def reset(self, seed: int, game_index: int = 0) -> None:
        super().reset(seed, game_index)
        self._core.reset(seed, game_index)

    def choose(self, state, legal: Sequence[int]) -> int:
        if state is None:                   # legal-list only (the C hook then sees no engine)
            return self._core.choose(legal)
        return self._core.choose_in(state.engine, legal)

    def play_engine(self, engine, max_steps: int) -> int:
        return self._core.play(engine, max_steps)


def _stream(stream) -> int:
    stream = int(stream)
    if stream < 0:
        raise ValueError("stream must be >= 0")
    return stream


@register
class RandomPolicy(_CPolicy):
    """Uniformly random legal action.

    Parameters
    ----------
    stream : int, default 0
        Policy stream ``k``: decisions come from ``rng_seed(seed, game_index, 100 + k)``
        (``ext/_policies.pxd``), never from a game stream, so the same seed gives the same
        game and the same decisions in any process.
    """

    name = "random"
    description = ("Takes a uniformly random legal action at every decision, from its own seeded "
                   "stream. It ends most turns at once and scores about 0 Fame: a baseline and a "
                   "sweep policy for the engine, not a player.")
    metadata = {"stochastic": True, "uses_state": False, "sees_hidden": False, "fast_path": True,
                "cost": "constant (one draw)", "rules": ()}
    parameter_help = {"stream": "policy stream k: decisions from rng_seed(seed, game, 100 + k)"}

    def __init__(self, stream: int = 0) -> None:
        stream = _stream(stream)
        super().__init__(stream=stream)
        self._core = _policies.RandomPolicy(0, 0, stream)


@register
class FirstPolicy(Policy):
    """Always the first legal action (deterministic baseline; the engine lists actions in a
    fixed order: cards in hand order, then healing, moves, explorations, end of turn)."""

    name = "first"
    description = ("Always takes the first legal action in the engine's listing order (cards in "
                   "hand order, then healing, moves, explorations, end of turn). Deterministic "
                   "baseline; it mostly plays its first card and ends the turn.")
    metadata = {"stochastic": False, "uses_state": False, "sees_hidden": False, "fast_path": False,
                "cost": "constant", "rules": ()}

    def choose(self, state, legal: Sequence[int]) -> int:
        return int(legal[0])


@register
class EagerPolicy(_CPolicy):
    """A random legal action weighted by its kind: a player who wants things to happen.

    Ending the turn, a combat phase or the round is possible but rare; exploring, fighting,
    recruiting, buying and entering sites are preferred (``mksim._policies.EAGER_WEIGHTS``).
    It is a baseline that reaches far more of the game than ``random`` (which ends most
    turns at once), and a sweep policy for the engine's tests.

    Parameters
    ----------
    stream : int, default 0
        Policy stream ``k`` (as for ``random``).
    weights : dict of str to float, optional
        Weight per action kind (names of ``mksim._engine.KIND_NAMES``), replacing the
        defaults for the kinds it names.
    default : float, default 4.0
        Weight of kinds named neither here nor in the defaults.
    """

    name = "eager"
    description = ("Takes a random legal action weighted by its kind: exploring, entering sites, "
                   "interacting, attacking, blocking, recruiting and buying weigh far more than "
                   "ending the turn, a combat phase or the round. It reaches much more of the game "
                   "than random (combat, sites, units, level-ups) but does not plan: a baseline.")
    metadata = {"stochastic": True, "uses_state": False, "sees_hidden": False, "fast_path": True,
                "cost": "~ legal actions (one weighted draw)", "rules": ()}
    parameter_help = {"stream": "policy stream k (as for random)",
                      "weights": "weight per action kind (Python only), replacing the defaults it names",
                      "default": "weight of kinds named neither in weights nor in the defaults"}

    def __init__(self, stream: int = 0, weights: dict | None = None, default: float = 4.0) -> None:
        stream = _stream(stream)
        merged = dict(_policies.EAGER_WEIGHTS)
        merged.update(weights or {})
        self._core = _policies.WeightedPolicy(0, 0, stream, merged, float(default))
        params = {"stream": stream, "default": float(default)}
        if weights:
            params["weights"] = dict(weights)
        super().__init__(**params)


@register
class HeuristicPolicy(_CPolicy):
    """A rule-based player in C (``ext/_heuristic.pyx``) that reads only what the acting
    player knows and never looks ahead.

    Each decision plans the turn afresh: the cheapest Move cost to every revealed space
    under the current terrain costs (9.2, 9.6; provoking steps avoided, 11.1.2), what Move
    the hand can still give (cards basic, powered when their mana could be paid, or
    sideways, 6.1.7), and the goals within reach: exploring (9.8; +1 Fame each in First
    Reconnaissance, 17.3.1), challenging rampaging enemies (11.1.5), assaulting keeps and
    mage towers (11.1.3), entering dungeons, tombs, monster dens and spawning grounds
    (10.7), recruiting Units, buying Advanced Actions and healing at villages and
    monasteries (10.2-10.7).  Fights are valued by a greedy plan (Ranged / Siege first,
    then block or take the Wounds, then attack; resistances, fortification, Swift, Brutal,
    Poison, Paralyze; 11.5-11.9) and entered only when worth more than ``fight_threshold``.
    Face-down enemies count as the average token of their colour.  Ready skills (8.2) count
    in these plans and are used like cards (a once-a-round skill only for a need worth more
    than keeping it); the abilities of Long Night and The Right Moment are used as soon as
    they are legal (3.2), and those tactics come first in its tactic order.  In Solo
    Conquest (a city that may be entered, 17.3.4) it also plans city assaults (the
    ``city_weight`` / ``siege_*`` parameters); its plans there count the knock-out (11.7.8)
    and put unblocked blows on Units (11.7.3), and it keeps its cards when the next step is
    out of the hand's reach.  None of this is active in First Reconnaissance.  With several
    heroes (17.3.1) each seat's heuristic plays that seat (``GameState.current``) and keeps
    off other heroes' spaces where it could take no action (9.5.4) or end its turn (9.7.1:
    it steps on to a safe space instead of a Forced Withdrawal, 13.2).

    Parameters
    ----------
    preset : {"balanced", "explorer", "conqueror"}, default "balanced"
        Named parameter set (``mksim._heuristic.PRESETS``); the keywords below override it.
    aggression : float
        Worth of one Fame won in a fight.
    explore_weight : float
        Worth of revealing a tile besides its Fame.
    wound_weight : float
        Cost of one Wound taken (risk tolerance: lower accepts more Wounds).
    fight_threshold : float
        A fight (or site) is entered only when its plan is worth more than this.
    site_weight : float
        Multiplier on assaults of keeps and mage towers.
    adventure_weight : float
        Multiplier on dungeons, tombs, monster dens and spawning grounds.
    core_explore : float
        Multiplier on revealing a Core tile before the last round (the city ends First
        Reconnaissance, 17.3.1).
    recruit_weight : float
        Worth of one Unit level recruited.
    heal_weight : float
        Worth of one Wound healed.
    learn_weight : float
        Worth of an Advanced Action or Spell bought.
    city_weight : float
        Solo Conquest only: worth of one city defender defeated besides its Fame (its share
        of the city's +10 / +15, 20.5.2); a city assault is planned against the garrison as
        the player sees it (face-down tokens as their colour's average, 9.9.3; fortified and
        with the city's defender bonus, 11.13.1) and taken when it defeats at least one
        defender (11.12.2: the Shields stay, the survivors wait for the next assault).
    siege_weight : float
        Solo Conquest only: worth, per round from ``siege_round`` on, of ending the turn next
        to an unconquered city whose garrison the hand and Units could hurt (the assault then
        comes next turn with a full hand).
    siege_round : float
        Solo Conquest only: the round from which the hero heads for the cities (timing).
    city_explore : float
        Solo Conquest only: extra worth of revealing a tile while a city is still unrevealed.
    conquest_heal : float
        Solo Conquest only: ``heal_weight`` is multiplied by it (a Wound card owned at the end
        costs 2 points, 20.2; Wounds in hand idle the turns).
    conquest_recruit : float
        Solo Conquest only: ``recruit_weight`` is multiplied by it (Units take the city
        garrison's blows, 11.7.3).
    approach_weight : float
        Solo Conquest only: on a turn with no goal in reach, the hero walks towards the site
        the hand in hand could take (its worth times this, less 0.05 per Move point of the
        way) instead of idling; 0 keeps such turns idle.
    conquest_wound : float
        Solo Conquest only: ``wound_weight`` is multiplied by it in the fight plans (a Wound
        card owned at the end costs 2 points, 20.2 via 20.5.1, and Wounds in hand idle later
        turns; First Reconnaissance is measured in Fame, where a Wound costs no point).
    conquest_aggression : float
        Solo Conquest only: ``aggression`` (the worth of a Fame point won in a fight plan) is
        multiplied by it.
    skill_choice : float
        Level-up skill (13.6.4): 1 takes the offered skill (the two revealed own tokens or
        one of the Common Skill offer) worth most to this policy -- one use's worth of its
        effect (Move, Influence, Attack / Block by ``aggression``, healing, cards, mana,
        crystals) times its uses (a once-a-turn skill 2.5 times a once-a-round one), an
        interactive skill or an effect the planner does not use worth nothing; 0 takes the
        first offered (the top token, the choice before issue 9's skill valuation).
    skill_attack : float
        Multiplier on the worth of a skill's Attack in that choice; 0 (the default) values
        Attack skills at nothing: with one the planner takes more fights, whose Wounds cost
        more than their Fame at the end (-2 each, 20.2; measured in docs/policies.md).
    buy_value : float
        Solo Conquest only, interaction (10.5-10.7): a Unit is worth ``recruit_weight`` x
        ((1 - b) x level + b x strength / 2.5) + 0.5 (strength: best ability, Armor,
        resistances) and an AA / Spell ``learn_weight`` x (1 + b x 0.25 x its strength's
        relative excess, clipped); 0 is the level (docs/policies.md, "purchases").
    buy_plan : float
        Solo Conquest only: 1 plans the purchases on the Influence the turn can raise (up to
        two items and Healing; the planned item worth most is bought, and Influence cards are
        played for it first rather than buying something cheaper at once); 0 is the old
        timing (the best item affordable now).
    buy_card_cost : float
        Solo Conquest only: worth given up per card played for a planned purchase.
    mana_check : float
        Every scenario: 1 values a hand card whose basic effect needs a mana (a Spell,
        Pure Magic, Mana Bolt) in the fight plans and combat as a sideways card when that
        mana cannot be paid (more such cards than tokens, crystals and the Source die; a
        Spell's colour not available); 0 counts them as free (the old plan).
    block_pool : float
        Every scenario: 1 counts the Block already played against an attack when the
        Block phase decides whether the hand can still stop it (a block begun is finished);
        0 compares the hand with the whole attack each time (the old choice, which left
        blocks half built).
    attack_half : float
        Every scenario: 1 counts the half point an odd pool of resisted attack points
        holds (11.9.2: halved together, rounding down) when the Attack phase decides whether
        the hand can still defeat an enemy; 0 drops it (the old check).
    unit_heal : float
        Every scenario: a wounded Unit healed (12.3.3: Healing points equal to its level
        per Wound) is worth ``unit_worth`` times this; the turn's Healing points go to the
        Wounds in hand and the wounded Units as they are worth most, Healing cards are
        played at the end of the move for a Unit too, and in Solo Conquest villages and
        monasteries are visited and Healing bought for the Units as well.  0: Units are
        never healed (the old play; a wounded Unit cannot be activated, 12.2.2).
    knockout_guard : float
        Every scenario: 1 lets a Unit take an attack's damage whenever the hero's Wounds
        from it would knock the hero out (11.7.8: the Wounds to hand this combat reach the
        Hand limit, or a Paralyze attack, 11.7.10) while the hand holds a non-Wound card;
        0: only the old rule (a Unit takes damage its Armor absorbs well).
    stream : int, default 0
        Policy stream (unused: the policy is deterministic).
    """

    name = "heuristic"
    description = "rule-based planner: movement, combat and turn choices from what the player knows (C fast path)"
    metadata = {"stochastic": False, "uses_state": True, "fast_path": True, "sees_hidden": False,
                # measured with `mksim bench --policy heuristic`: about 4.5 us per decision on
                # top of the engine's own ~2 us (about 470 games/s on one core)
                "cost": "about 5 us per decision (C, no look-ahead)",
                "rules": ("9.2", "9.8", "10.2", "11.5", "11.6", "11.7", "11.8", "11.12.2", "11.13", "17.3.1",
                          "17.3.4")}
    preset = "balanced"

    def __init__(self, preset: str | None = None, stream: int = 0, **params) -> None:
        from .. import _heuristic
        preset = self.preset if preset is None else str(preset)
        if preset not in _heuristic.PRESETS:
            raise ValueError(f"unknown heuristic preset {preset!r}; known: {', '.join(sorted(_heuristic.PRESETS))}")
        merged = dict(_heuristic.PRESETS[preset])
        for key, value in params.items():
            if key not in merged:
                raise ValueError(f"unknown heuristic parameter {key!r}; known: preset, stream, "
                                 f"{', '.join(_heuristic.PARAM_NAMES)}")
            try:
                merged[key] = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"heuristic parameter {key!r} must be a number, not {value!r}") from None
        stream = _stream(stream)
        self._core = _heuristic.HeuristicPolicy(0, 0, stream, **merged)
        super().__init__(preset=preset, **{k: v for k, v in params.items()})

    def choose(self, state, legal: Sequence[int]) -> int:
        return int(self._core.choose_engine(state.engine))

    @classmethod
    def parameter_specs(cls):
        """preset, stream and every weight of ``mksim._heuristic.PARAM_NAMES`` (floats,
        defaults from the class's preset), so that ``--policy heuristic:aggression=2`` works."""
        from .. import _heuristic
        from .base import Parameter
        return [Parameter("preset", str, cls.preset, "named parameter set: " + ", ".join(sorted(_heuristic.PRESETS))),
                Parameter("stream", int, 0, "policy stream (unused: the policy is deterministic)")] + [
            Parameter(k, float, v, *([_PARAM_HELP[k]] if k in _PARAM_HELP else []))
            for k, v in _heuristic.PRESETS[cls.preset].items()]


#: Help line of the interaction parameter (docs/policies.md, "Purchases").
_INTERACT_HELP = {
    "buy_value": "Solo Conquest: Units / AAs / Spells bought valued by strength (0: by level, the old worth)",
    "buy_plan": "Solo Conquest: purchases planned on the turn's Influence (0: the best affordable now)",
    "buy_card_cost": "Solo Conquest: worth given up per card played for a planned purchase",
    "mana_check": "fight plans count a card needing an unpayable mana as sideways (0: as free)",
    "block_pool": "the Block already played counts when finishing a block (0: the old choice)",
    "attack_half": "an odd resisted attack pool's half point counts when finishing an attack (0: dropped)",
    "unit_heal": "x worth of a wounded Unit healed with Healing points (12.3.3; 0: Units are never healed)",
    "knockout_guard": "a Unit takes a blow that would knock the hero out (11.7.8, 11.7.10; 0: off)",
}

#: Help lines of the Solo Conquest parameters (docs/policies.md, "The heuristic in Solo Conquest").
_CONQUEST_HELP = {
    "city_weight": "Solo Conquest: worth of a city defender defeated besides its Fame (11.12.2, 20.5.2)",
    "siege_weight": "Solo Conquest: worth per round of ending the turn next to a city the hand could hurt",
    "siege_round": "Solo Conquest: first round the hero heads for the cities (timing)",
    "city_explore": "Solo Conquest: extra worth of a tile while a city is still unrevealed",
    "conquest_heal": "Solo Conquest: x heal_weight (Wounds cost 2 points each at the end, 20.2)",
    "conquest_recruit": "Solo Conquest: x recruit_weight (Units take the garrison's blows, 11.7.3)",
    "approach_weight": "Solo Conquest: x worth of the site walked towards on a turn with no goal in reach (0: idle)",
    "conquest_wound": "Solo Conquest: x wound_weight in the fight plans (a Wound kept costs 2 points, 20.2)",
    "conquest_aggression": "Solo Conquest: x aggression (worth of a Fame point) in the fight plans",
}
#: Help lines of the parameters that have one (``mksim policies show heuristic``).
_PARAM_HELP = dict(_CONQUEST_HELP, **_INTERACT_HELP, skill_choice="level-up skill (13.6.4): 1 the one worth most to the policy, "
                   "0 the first offered",
                   skill_attack="x worth of a skill's Attack in the level-up choice (0: Attack skills worth nothing)")


@register
class HeuristicExplorer(HeuristicPolicy):
    """``heuristic`` with the ``explorer`` preset: reveals tiles first, fights only safe
    fights, avoids Wounds."""

    name = "heuristic-explorer"
    description = "heuristic preset: explores first, fights only safe fights"
    preset = "explorer"


@register
class HeuristicConqueror(HeuristicPolicy):
    """``heuristic`` with the ``conqueror`` preset: takes more Wounds to win fights,
    assaults keeps and mage towers, enters adventure sites, recruits and learns."""

    name = "heuristic-conqueror"
    description = "heuristic preset: fights, assaults keeps and mage towers, levels up"
    preset = "conqueror"


@register
class HeuristicBalanced(HeuristicPolicy):
    """``heuristic`` with the ``balanced`` preset (the same as plain ``heuristic``)."""

    name = "heuristic-balanced"
    description = "heuristic preset: balanced exploring and fighting (same as heuristic)"
    preset = "balanced"
