"""Compilation of validated content into the numeric tables of the Cython core.

The core never sees a Python dict: every kind becomes a C-contiguous ``int32`` array with
named columns, every word becomes its code in the word lists of :mod:`mksim.effects` and
:mod:`mksim.content`, and effects become rows of one shared effect table.  The tables are
static (one per content set) and kept apart from the mutable game state.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import content as ct
from . import effects as fx

DECK_TYPES = ("basic_action", "advanced_action", "spell", "artifact", "wound")
_DECK_KIND = {"basic_actions": 0, "advanced_actions": 1, "spells": 2, "artifacts": 3, "wound": 4}
CARD_COLOURS = fx.CARD_COLOURS  # red blue white green colourless

#: Columns of each table, in order.
CARD_COLUMNS = ("deck", "colour", "basic", "powered", "copies", "hero", "replaces", "edition",
                "banner", "interactive", "expansion", "power_any")
UNIT_COLUMNS = ("tier", "copies", "level", "cost", "armor", "sites", "resistances",
                "first_ability", "n_abilities", "expansion")
ABILITY_COLUMNS = ("effect", "mana")
MAX_ATTACKS = 3
ENEMY_COLUMNS = ("colour", "copies", "armor", "armor_elusive", "n_attacks",
                 *(f"attack{i}" for i in range(MAX_ATTACKS)),
                 *(f"element{i}" for i in range(MAX_ATTACKS)),
                 "summons", "summon_pile", "abilities", "resistances", "fame", "reputation", "expansion")
TILE_COLUMNS = ("kind", "number", "city", "expansion",
                *(f"terrain{i}" for i in range(7)), *(f"site{i}" for i in range(7)),
                *(f"colours{i}" for i in range(7)))
LEVEL_COLUMNS = ("fame", "armor", "hand_limit", "command_tokens")
TACTIC_COLUMNS = ("time", "number", "when", "effect")
SKILL_COLUMNS = ("hero", "usage", "effect", "interactive", "cooperative", "expansion")
NO_INTERACTION = -99  # reputation modifier of the X space (10.3)


def _bits(values, vocab) -> int:
    out = 0
    for v in values:
        out |= 1 << vocab.index(v)
    return out


@dataclass
class Tables:
    """Static numeric content for the core.  ``*_ids`` give the row order of each table."""

    effects: np.ndarray
    handlers: list[str]
    handler_arg_keys: list[str]
    handler_args: np.ndarray
    cards: np.ndarray
    card_ids: list[str]
    units: np.ndarray
    unit_abilities: np.ndarray
    unit_ids: list[str]
    enemies: np.ndarray
    enemy_ids: list[str]
    tiles: np.ndarray
    tile_ids: list[str]
    levels: np.ndarray
    reputation: np.ndarray  # modifier for position -7..+8 at index position + 7
    tactics: np.ndarray
    tactic_ids: list[str]
    skills: np.ndarray
    skill_ids: list[str]
    hero_ids: list[str]
    columns: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def col(self, table: str, name: str) -> int:
        """Index of column ``name`` of ``table`` (e.g. ``col("enemies", "armor")``)."""
        return self.columns[table].index(name)

    def nbytes(self) -> int:
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))


def _arr(rows, width) -> np.ndarray:
    a = np.asarray(rows, dtype=np.int32).reshape(-1, width)
    return np.ascontiguousarray(a)


def compile_content(c: ct.Content) -> Tables:
    comp = fx.EffectCompiler()

    def eff(kind: str, key: str, path: str) -> int:
        return comp.add(c.parsed[(kind, key, path)])

    hero_ids = c.ids("heroes")
    exp = ct.EXPANSIONS.index

    cards, card_ids = [], []
    for kind, deck in _DECK_KIND.items():
        for e in c[kind]:
            colour = e.get("colour", "colourless")
            cards.append([
                deck, CARD_COLOURS.index(colour), eff(kind, e["id"], "basic"), eff(kind, e["id"], "powered"),
                e.get("copies", 1), hero_ids.index(e["hero"]) if "hero" in e else -1,
                -1, exp(e.get("edition", "base")), int(e.get("banner", False)),
                int(e.get("interactive", False)), exp(e["expansion"]),
                int(e.get("powered_by") == "any_basic"),
            ])
            card_ids.append(e["id"])
    for row, cid in zip(cards, card_ids):  # resolve replaces after all ids are known
        e = next((x for x in c["basic_actions"] if x["id"] == cid), None)
        if e is not None and "replaces" in e:
            row[CARD_COLUMNS.index("replaces")] = card_ids.index(e["replaces"])

    units, abilities, unit_ids = [], [], []
    for e in c["units"]:
        first = len(abilities)
        for i, ab in enumerate(e["abilities"]):
            mana = ab.get("mana")
            abilities.append([eff("units", e["id"], f"abilities[{i}].effect"),
                              fx.MANA_COLOURS.index(mana) if mana else -1])
        units.append([ct.UNIT_TIERS.index(e["tier"]), e["copies"], e["level"], e["cost"], e["armor"],
                      _bits(e["recruit_sites"], ct.SITE_IDS), _bits(e["resistances"], ct.RESISTANCES),
                      first, len(e["abilities"]), exp(e["expansion"])])
        unit_ids.append(e["id"])

    enemies, enemy_ids = [], []
    for e in c["enemies"]:
        atk = e["attacks"][:MAX_ATTACKS]
        if len(e["attacks"]) > MAX_ATTACKS:
            raise ct.ContentError(f"{c.origin['enemies.toml']}: enemy {e['id']!r}",
                                  f"field 'attacks': at most {MAX_ATTACKS} attacks are supported")
        values = [a["value"] for a in atk] + [0] * (MAX_ATTACKS - len(atk))
        elements = [fx.ELEMENTS.index(a["element"]) for a in atk] + [0] * (MAX_ATTACKS - len(atk))
        enemies.append([
            ct.ENEMY_COLOURS.index(e["colour"]), e["copies"], e["armor"], e.get("armor_elusive", 0),
            len(atk), *values, *elements, len(e["summon"]),
            ct.ENEMY_COLOURS.index(e["summon"][0]) if e["summon"] else -1,
            _bits(e["abilities"], ct.ENEMY_ABILITIES), _bits(e["resistances"], ct.RESISTANCES),
            e["fame"], e.get("reputation", 0), exp(e["expansion"]),
        ])
        enemy_ids.append(e["id"])

    tiles, tile_ids = [], []
    for e in c["tiles"]:
        hexes = e["hexes"]
        colour_masks = []
        for h in hexes:
            cols = h.get("colours", [h["colour"]] if "colour" in h else [])
            colour_masks.append(_bits(cols, fx.BASIC_COLOURS))
        tiles.append([
            ct.TILE_KINDS.index(e["kind"]), e.get("number", 0),
            fx.BASIC_COLOURS.index(e["city"]) if "city" in e else -1, exp(e["expansion"]),
            *(fx.TERRAINS.index(h["terrain"]) for h in hexes),
            *((ct.SITE_IDS.index(h["site"]) if "site" in h else -1) for h in hexes),
            *colour_masks,
        ])
        tile_ids.append(e["id"])

    levels = [[e["fame"], e["armor"], e["hand_limit"], e["command_tokens"]]
              for e in sorted(c["levels"], key=lambda e: e["level"])]
    reputation = np.full(16, NO_INTERACTION, dtype=np.int32)
    for e in c["reputation"]:
        if e["can_interact"]:
            reputation[e["position"] + 7] = e.get("modifier", 0)

    tactics = [[fx.TIMES.index(e["time"]), e["number"], ("none", "taken", "ongoing").index(e["when"]),
                eff("tactics", e["id"], "effect")] for e in c["tactics"]]
    skills = [[hero_ids.index(e["hero"]), ct.SKILL_USAGE.index(e["usage"]), eff("skills", e["id"], "effect"),
               int(e.get("interactive", False)), int(e.get("cooperative", False)), exp(e["expansion"])]
              for e in c["skills"]]

    return Tables(
        effects=_arr(comp.rows, fx.ROW_WIDTH),
        handlers=list(comp.handlers),
        handler_arg_keys=list(comp.arg_keys),
        handler_args=_arr(comp.handler_args, 3),
        cards=_arr(cards, len(CARD_COLUMNS)), card_ids=card_ids,
        units=_arr(units, len(UNIT_COLUMNS)), unit_abilities=_arr(abilities, len(ABILITY_COLUMNS)),
        unit_ids=unit_ids,
        enemies=_arr(enemies, len(ENEMY_COLUMNS)), enemy_ids=enemy_ids,
        tiles=_arr(tiles, len(TILE_COLUMNS)), tile_ids=tile_ids,
        levels=_arr(levels, len(LEVEL_COLUMNS)), reputation=reputation,
        tactics=_arr(tactics, len(TACTIC_COLUMNS)), tactic_ids=c.ids("tactics"),
        skills=_arr(skills, len(SKILL_COLUMNS)), skill_ids=c.ids("skills"),
        hero_ids=hero_ids,
        columns={"cards": CARD_COLUMNS, "units": UNIT_COLUMNS, "unit_abilities": ABILITY_COLUMNS,
                 "enemies": ENEMY_COLUMNS, "tiles": TILE_COLUMNS, "levels": LEVEL_COLUMNS,
                 "tactics": TACTIC_COLUMNS, "skills": SKILL_COLUMNS, "effects": fx.ROW_FIELDS},
    )
