"""Game content: loading, validation and compilation of the data files in ``mksim/data``.

Content is data (see ``mksim/data/README.md``).  :func:`load_content` reads the shipped
catalogue, optionally replaced or patched by the user's ``--content`` path:

* a **directory**: every catalogue file found there replaces the shipped file of the same
  name (a full copy of ``mksim/data`` with edits, or just the files you changed);
* a **TOML file**: an override file whose tables ``[<file stem>.<entry id>]`` replace
  single fields of existing entries.

Everything is validated before anything is used: types, word lists, effect expressions
(amounts in range, nesting bounded, handlers and their arguments as the engine declares
them), unique ids, cross-references, what the engine reads when it binds the content, and
the component counts of the rulebooks.  The first
problem raises :class:`ContentError`, whose message names the file, the entry and the
field.  :meth:`Content.compile` turns valid content into the numeric tables of the core.
"""
from __future__ import annotations

import copy
import os
import reprlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from . import effects as fx

DATA_DIR = Path(__file__).resolve().parent / "data"


class ContentError(Exception):
    """Bad content; the message names the file, entry and field."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


# ---------------------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------------------

# The word lists of the content files that the compiled core numbers too (plain data in
# mksim/words.py, so that the core reads them without importing this loader).
from .words import (ENEMY_ABILITIES, ENEMY_COLOURS, EXPANSIONS, HERO_IDS, RESISTANCES,  # noqa: E402,F401
                    REWARDS, SITE_CATEGORIES, SITE_IDS, SKILL_USAGE, TILE_KINDS, UNIT_TIERS)
MANA_OR_BLACK = fx.BASIC_COLOURS + ("black",)
#: Named scenario rules the engine knows (scenarios.toml ``special_rules``).
SPECIAL_RULES = {
    "city_cannot_be_entered": "17.3.1: First Reconnaissance: the revealed city cannot be entered",
    "solo_tactics": "17.3.4: the player chooses a tactic, the dummy takes a random one; both are removed",
    "remove_interactive_spells": "17.3.4, 19.7.1: interactive Spells are removed from the Spell deck",
    "remove_interactive_skills": "17.3.4, 19.7.2: interactive skills are removed from the skill stacks",
    "no_titles": "20.5.1, 19.10.2: achievements are scored without titles",
    "dummy_no_final_turn": "14.3.4, 18.2.4: the dummy takes no final turn after the scenario end",
}


#: Largest magnitude of any number in the content (the core keeps them in small C ints).
INT_LIMIT = 9999


@dataclass(frozen=True)
class F:
    """Specification of one field."""

    type: str  # str int bool effect list table (table: one inline table of ``fields``)
    required: bool = True
    enum: tuple[str, ...] | None = None  # allowed words (for str, or list items)
    ref: str | None = None  # kind whose ids this field (or list items) must name
    item: str = "str"  # list item type: str int table
    fields: dict[str, "F"] | None = None  # inline-table fields (type table, or list of table)
    min: int | None = None
    max: int | None = None
    length: int | None = None  # exact list length


def opt(f: F) -> F:
    return F(f.type, False, f.enum, f.ref, f.item, f.fields, f.min, f.max, f.length)


STR = F("str")
INT = F("int")
BOOL = F("bool")
EFFECT = F("effect")
COMMON = {"source": opt(STR), "conflicts": opt(STR), "notes": opt(STR)}


def enum(values, required=True):
    return F("str", required, tuple(values))


def words(values, required=True, length=None):
    return F("list", required, tuple(values), length=length)


def ref_list(kind, required=True):
    return F("list", required, ref=kind)


def tables(fields, required=True, length=None):
    return F("list", required, item="table", fields=fields, length=length)


@dataclass
class Kind:
    """One kind of content: its file, TOML table and fields."""

    name: str  # e.g. "units"
    file: str  # e.g. "units.toml"
    table: str  # e.g. "unit"
    fields: dict[str, F]
    key: Callable[[dict], str] = lambda e: e["id"]
    label: str = ""  # plural words for summaries

    @property
    def stem(self) -> str:
        return Path(self.file).stem


CARD_COMMON = {
    "id": STR, "name": STR, "basic": EFFECT, "powered": EFFECT,
    "expansion": enum(EXPANSIONS), "card_no": opt(F("int", min=1)), **COMMON,
}

#: Fields a Lost Legion printing (LL-2.10) may give, by kind: the card's effects, a unit's
#: abilities, an enemy token's values.  See :func:`_with_printing`.
PRINTED_FIELDS = {
    "basic_actions": ("basic", "powered"), "advanced_actions": ("basic", "powered"),
    "spells": ("basic", "powered"), "artifacts": ("basic", "powered"),
    "units": ("abilities", "armor", "resistances"),
    "enemies": ("armor", "attacks", "abilities", "resistances", "fame"),
}


def _with_printing(kinds: dict[str, "Kind"]) -> dict[str, "Kind"]:
    """Give each printed kind an optional ``ll_printing`` table: the same fields as the entry
    (those of PRINTED_FIELDS, all optional) plus source / conflicts / notes."""
    for name, names in PRINTED_FIELDS.items():
        k = kinds[name]
        sub = {f: opt(k.fields[f]) for f in names}
        sub.update(COMMON)
        k.fields["ll_printing"] = F("table", False, fields=sub)
    return kinds


KINDS: dict[str, Kind] = _with_printing({k.name: k for k in [
    Kind("heroes", "heroes.toml", "hero", {
        "id": STR, "name": STR, "expansion": enum(EXPANSIONS),
        "dummy_crystals": words(fx.BASIC_COLOURS, length=3),
        "interactive_skill": F("str", ref="skills"),
        "cooperative_skill": F("str", False, ref="skills"), **COMMON}, label="heroes"),
    Kind("basic_actions", "basic_actions.toml", "card", {
        **CARD_COMMON, "colour": enum(fx.BASIC_COLOURS), "copies": F("int", min=1, max=16),
        "hero": F("str", False, ref="heroes"), "replaces": F("str", False, ref="basic_actions"),
        "edition": enum(EXPANSIONS, required=False),
        # 5.4.1: the strong effect takes mana of the card's colour, or of any basic colour
        "powered_by": enum(("card_colour", "any_basic"), required=False)}, label="basic actions"),
    Kind("advanced_actions", "advanced_actions.toml", "card", {
        **CARD_COMMON, "colour": enum(fx.BASIC_COLOURS)}, label="advanced actions"),
    Kind("spells", "spells.toml", "card", {
        **CARD_COMMON, "colour": enum(fx.BASIC_COLOURS), "powered_name": STR,
        "interactive": BOOL}, label="spells"),
    Kind("artifacts", "artifacts.toml", "card", {
        **CARD_COMMON, "banner": BOOL}, label="artifacts"),
    Kind("wound", "wound.toml", "card", {
        **CARD_COMMON, "colour": enum(("colourless",))}, label="wound"),
    Kind("units", "units.toml", "unit", {
        "id": STR, "name": STR, "tier": enum(UNIT_TIERS), "copies": F("int", min=1),
        "level": F("int", min=1, max=4), "cost": F("int", min=0), "armor": F("int", min=1),
        "recruit_sites": F("list", ref="sites"), "resistances": words(RESISTANCES),
        "abilities": tables({"effect": EFFECT, "mana": enum(MANA_OR_BLACK, required=False)}),
        "special_rules": opt(STR), "expansion": enum(EXPANSIONS),
        "card_no": opt(F("int", min=1)), **COMMON}, label="units"),
    Kind("enemies", "enemies.toml", "enemy", {
        "id": STR, "name": STR, "colour": enum(ENEMY_COLOURS), "copies": F("int", min=1),
        "armor": F("int", min=1), "armor_elusive": F("int", False, min=1),
        "attacks": tables({"value": F("int", min=0), "element": enum(fx.ELEMENTS)}),
        "summon": words(ENEMY_COLOURS), "abilities": words(ENEMY_ABILITIES),
        "resistances": words(RESISTANCES), "fame": F("int", min=0),
        "reputation": opt(INT), "expansion": enum(EXPANSIONS), **COMMON}, label="enemy types"),
    Kind("tactics", "tactics.toml", "tactic", {
        "id": STR, "name": STR, "time": enum(fx.TIMES), "number": F("int", min=1, max=6),
        "when": enum(("none", "taken", "ongoing")), "effect": EFFECT, **COMMON}, label="tactics"),
    Kind("skills", "skills.toml", "skill", {
        "id": STR, "hero": F("str", ref="heroes"), "name": STR, "usage": enum(SKILL_USAGE),
        "effect": EFFECT, "interactive": opt(BOOL), "cooperative": opt(BOOL),
        "expansion": enum(EXPANSIONS), **COMMON}, label="skills"),
    Kind("tiles", "tiles.toml", "tile", {
        "id": STR, "kind": enum(TILE_KINDS), "expansion": enum(EXPANSIONS),
        "number": F("int", False, min=1), "city": enum(fx.BASIC_COLOURS, required=False),
        "volkare": opt(BOOL),
        "hexes": tables({"terrain": enum(fx.TERRAINS), "site": enum(SITE_IDS, required=False),
                         "colour": enum(fx.BASIC_COLOURS, required=False),
                         "colours": F("list", False, enum=fx.BASIC_COLOURS)}, length=7),
        **COMMON}, label="tiles"),
    Kind("sites", "sites.toml", "site", {
        "id": enum(SITE_IDS), "name": STR, "category": enum(SITE_CATEGORIES),
        "expansion": enum(EXPANSIONS), "fortified": BOOL, "inhabited": BOOL,
        "garrison": words(ENEMY_COLOURS), "garrison_face_up": BOOL,
        "enemies_on_enter": words(ENEMY_COLOURS), "night_rules": BOOL, "units_allowed": BOOL,
        "rewards": words(REWARDS), "undefeated": enum(("stay", "discard", "withdraw"), False),
        "reentry": enum(("fame_only",), False), "heal_cost": F("int", False, min=0),
        "advanced_action_cost": F("int", False, min=0), "spell_cost": F("int", False, min=0),
        "recruit": BOOL, "reputation_assault": opt(INT), "reputation_burn": opt(INT),
        "reputation_plunder": opt(INT), "reputation_defeat": opt(INT),
        "move_cost": F("int", False, min=0), "on_reveal": F("list", enum=(
            "advanced_action_to_unit_offer", "ruins_token", "city_garrison")),
        "rules": STR, **COMMON}, label="site types"),
    Kind("ruins", "ruins.toml", "ruins", {
        "id": STR, "kind": enum(("altar", "enemies")), "expansion": enum(EXPANSIONS),
        "tribute": words(fx.BASIC_COLOURS, required=False), "fame": F("int", False, min=0),
        "enemies": words(ENEMY_COLOURS, required=False),
        "rewards": words(REWARDS, required=False), **COMMON}, label="ruins tokens"),
    Kind("city_garrisons", "city_garrisons.toml", "garrison", {
        "city": enum(fx.BASIC_COLOURS), "level": F("int", min=1, max=11),
        "tokens": words(ENEMY_COLOURS), **COMMON},
        key=lambda e: f"{e['city']}_{e['level']}", label="city garrisons"),
    Kind("cities", "city_garrisons.toml", "city", {
        "colour": enum(fx.BASIC_COLOURS), "armor_bonus": F("int", False, min=0),
        "elemental_attack_bonus": F("int", False, min=0),
        "coldfire_attack_bonus": F("int", False, min=0),
        "physical_attackers_gain": enum(("brutal", "poison"), False),
        "recruit_any": opt(BOOL), "elite_to_offer_cost": F("int", False, min=0),
        "spell_cost": F("int", False, min=0), "artifact_cost": F("int", False, min=0),
        "advanced_action_cost": F("int", False, min=0), "rules": STR, **COMMON},
        key=lambda e: e["colour"], label="cities"),
    Kind("levels", "levels.toml", "level", {
        "level": F("int", min=1, max=10), "fame": F("int", min=0), "armor": F("int", min=1),
        "hand_limit": F("int", min=1), "command_tokens": F("int", min=0),
        "reward": enum(("none", "skill_and_advanced_action", "level_token")), **COMMON},
        key=lambda e: str(e["level"]), label="levels"),
    Kind("reputation", "reputation.toml", "space", {
        "position": F("int", min=-7, max=8), "modifier": opt(INT), "can_interact": BOOL,
        **COMMON}, key=lambda e: str(e["position"]), label="reputation spaces"),
    Kind("map_shapes", "map_shapes.toml", "shape", {
        "id": STR, "name": STR, "start_tile": F("str", ref="tiles"),
        "setup_positions": F("list", item="pair"), "positions": F("list", item="pair"),
        "coastline": F("list", item="pair"), "core_forbidden": F("list", item="pair"),
        "rules": STR, **COMMON}, label="map shapes"),
    Kind("scenarios", "scenarios.toml", "scenario", {
        "id": STR, "name": STR, "min_players": F("int", min=1, max=4),
        "max_players": F("int", min=1, max=4), "dummy": BOOL, "cooperative": BOOL,
        "rounds": F("int", min=1), "first_round": enum(fx.TIMES), "shape": F("str", ref="map_shapes"),
        "countryside_tiles": F("int", min=0), "core_tiles": F("int", min=0),
        "city_tiles": F("int", min=0), "city_levels": F("list", item="int"),
        "core_restriction": BOOL, "elite_units": BOOL, "fame_per_tile": F("int", min=0), "end": enum((
            "city_revealed", "all_cities_conquered")),
        "scoring": enum(("first_reconnaissance", "solo_conquest")),
        "special_rules": F("list", required=False, enum=tuple(SPECIAL_RULES)), "rules": STR,
        # the scenario for several heroes (17.2: "2/3/4" values), when it differs from the
        # solo entry above: one countryside_tiles entry per player count of `players`
        "multiplayer": F("table", required=False, fields={
            "players": F("list", item="int"), "rounds": F("int", min=1),
            "countryside_tiles": F("list", item="int"), "core_tiles": F("int", min=0),
            "city_tiles": F("int", min=0), "dummy": BOOL,
            "special_rules": F("list", required=False, enum=tuple(SPECIAL_RULES)), "rules": STR}),
        **COMMON},
        label="scenarios"),
]})

FILES: dict[str, list[Kind]] = {}
for _k in KINDS.values():
    FILES.setdefault(_k.file, []).append(_k)

# ---------------------------------------------------------------------------------------
# Component counts (what the rulebooks list).  Each check carries its citation.
# ---------------------------------------------------------------------------------------


def _count(entries, **match):
    return sum(1 for e in entries if all(e.get(k) == v for k, v in match.items()))


def _copies(entries, **match):
    return sum(e.get("copies", 1) for e in entries if all(e.get(k) == v for k, v in match.items()))


@dataclass(frozen=True)
class CountCheck:
    kind: str
    what: str
    expected: int
    measure: Callable[[list[dict]], int]
    cite: str


COUNT_CHECKS: tuple[CountCheck, ...] = (
    CountCheck("heroes", "base-game heroes", 4, lambda es: _count(es, expansion="base"), "rule 1.1.2; LL-2.2"),
    CountCheck("heroes", "Lost Legion heroes", 1, lambda es: _count(es, expansion="lost_legion"), "LL-2.2.1"),
    CountCheck("basic_actions", "standard basic action cards in a starting deck", 16,
               lambda es: sum(e["copies"] for e in es if "hero" not in e), "rule 1.3.4"),
    CountCheck("advanced_actions", "base-game Advanced Actions", 28,
               lambda es: _count(es, expansion="base"), "LL-2.4.1 (Lost Legion AAs are 29/40-40/40)"),
    CountCheck("advanced_actions", "Lost Legion Advanced Actions", 12,
               lambda es: _count(es, expansion="lost_legion"), "LL-2.4.1"),
    CountCheck("spells", "base-game Spells", 20, lambda es: _count(es, expansion="base"),
               "LL-2.4.2 (Lost Legion spells are 21/24-24/24); rule 19.7.1"),
    CountCheck("spells", "Lost Legion Spells", 4, lambda es: _count(es, expansion="lost_legion"), "LL-2.4.2"),
    CountCheck("spells", "interactive Spells", 4, lambda es: sum(1 for e in es if e["interactive"]),
               "rule 19.7.1 (base spells 17-20)"),
    CountCheck("artifacts", "base-game Artifacts", 16, lambda es: _count(es, expansion="base"),
               "LL-2.4.3 (Lost Legion artifacts are 17/24-24/24)"),
    CountCheck("artifacts", "Lost Legion Artifacts", 8, lambda es: _count(es, expansion="lost_legion"), "LL-2.4.3"),
    CountCheck("wound", "Wound card entries", 1, len, "rule 1.2.4 (one card type; the pile is unlimited, LL-2.9.2)"),
    CountCheck("units", "base-game Regular unit cards", 20,
               lambda es: _copies(es, expansion="base", tier="regular"), "LL-2.5.1 (new ones are 21/28-28/28)"),
    CountCheck("units", "base-game Elite unit cards", 20,
               lambda es: _copies(es, expansion="base", tier="elite"), "LL-2.5.1 (new ones are 21/28-28/28)"),
    CountCheck("units", "Lost Legion Regular unit cards", 8,
               lambda es: _copies(es, expansion="lost_legion", tier="regular"), "LL-2.5.1"),
    CountCheck("units", "Lost Legion Elite unit cards", 8,
               lambda es: _copies(es, expansion="lost_legion", tier="elite"), "LL-2.5.1"),
    *(CountCheck("enemies", f"Lost Legion {c} enemy tokens", n,
                 (lambda c: lambda es: _copies(es, expansion="lost_legion", colour=c))(c), "LL-2.7.1")
      for c, n in (("green", 8), ("grey", 8), ("violet", 4), ("brown", 6), ("red", 6), ("white", 6))),
    *(CountCheck("enemies", f"base-game {c} enemy tokens", n,
                 (lambda c: lambda es: _copies(es, expansion="base", colour=c))(c),
                 "shared/data/SOURCES.md (BUDDY token catalogue; the rulebook gives no base counts)")
      for c, n in (("green", 12), ("grey", 10), ("violet", 10), ("brown", 10), ("red", 8), ("white", 10))),
    CountCheck("tactics", "Day tactics", 6, lambda es: _count(es, time="day"), "rule 1.2.12, 3.2"),
    CountCheck("tactics", "Night tactics", 6, lambda es: _count(es, time="night"), "rule 1.2.12, 3.2"),
    *(CountCheck("skills", f"{h} skill tokens", 10,
                 (lambda h: lambda es: sum(1 for e in es if e["hero"] == h and not e.get("cooperative")))(h),
                 "rule 1.3.9; LL-2.2.1")
      for h in HERO_IDS),
    CountCheck("tiles", "starting tiles (sides A and B)", 2, lambda es: _count(es, kind="start"), "rule 1.2.14"),
    CountCheck("tiles", "Lost Legion countryside tiles", 3,
               lambda es: _count(es, kind="countryside", expansion="lost_legion"), "LL-2.6.1"),
    CountCheck("tiles", "Lost Legion core tiles", 3,
               lambda es: _count(es, kind="core", expansion="lost_legion"), "LL-2.6.1 (9, 10 and Volkare's camp)"),
    CountCheck("tiles", "base-game countryside tiles", 11,
               lambda es: _count(es, kind="countryside", expansion="base"),
               "LL-2.6.1 (Lost Legion adds countryside 12-14)"),
    CountCheck("tiles", "base-game city tiles", 4, lambda es: _count(es, kind="city"),
               "rule 10.10 (four city colours)"),
    CountCheck("ruins", "Lost Legion ruins tokens", 3, lambda es: _count(es, expansion="lost_legion"), "LL-2.7.1"),
    CountCheck("ruins", "base-game ruins tokens", 12, lambda es: _count(es, expansion="base"),
               "shared/data/SOURCES.md (BUDDY)"),
    CountCheck("city_garrisons", "city garrison rows (4 colours x levels 1-11)", 44, len,
               "rules 11.13.5, 19.5 (levels up to 11)"),
    CountCheck("cities", "city colours", 4, len, "rules 10.10, 11.13.1"),
    CountCheck("levels", "levels", 10, len, "rule 13.6.2"),
    CountCheck("reputation", "reputation track spaces", 16, len,
               "published board (X, -5 ... +5); rule 10.3 [R] lists 15, see reputation.toml"),
)

# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------


def _read_toml(path: Path, where: str) -> dict:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(where, "file not found") from None
    except IsADirectoryError:
        raise ContentError(where, "is a folder, expected a TOML file") from None
    except PermissionError:
        raise ContentError(where, "cannot be read (permission denied)") from None
    except UnicodeDecodeError as err:
        raise ContentError(where, f"is not UTF-8 text ({err.reason})") from None
    except tomllib.TOMLDecodeError as err:
        raise ContentError(where, f"is not valid TOML: {err}") from None
    except RecursionError:  # tomllib recurses once per nested array / inline table
        raise ContentError(where, "is not usable TOML: arrays or tables nested too deeply") from None
    except OSError as err:
        raise ContentError(where, f"cannot be read: {err.strerror or err}") from None


@dataclass
class Content:
    """Validated game content: ``entries[kind]`` is a list of dicts, in file order."""

    entries: dict[str, list[dict]]
    origin: dict[str, str]  # file name -> where it was read from
    parsed: dict[tuple[str, str, str], fx.Node] = field(default_factory=dict)
    user_files: list[str] = field(default_factory=list)  # the user's files in use (--content)
    _printings: dict = field(default_factory=dict, repr=False, compare=False)

    def __getitem__(self, kind: str) -> list[dict]:
        return self.entries[kind]

    def get(self, kind: str, key: str) -> dict:
        k = KINDS[kind]
        for e in self.entries[kind]:
            if k.key(e) == key:
                return e
        raise KeyError(f"no {k.table} {key!r} in {k.file}")

    def ids(self, kind: str) -> list[str]:
        k = KINDS[kind]
        return [k.key(e) for e in self.entries[kind]]

    def counts(self) -> dict[str, int]:
        return {kind: len(es) for kind, es in self.entries.items()}

    def summary(self) -> str:
        parts = [f"{len(self.entries[k])} {KINDS[k].label}" for k in KINDS]
        return "content ok: " + ", ".join(parts)

    def find(self, name: str) -> list[tuple[str, dict]]:
        """Entries whose key or name matches ``name`` (case-insensitive)."""
        want = name.strip().lower()
        out = []
        for kind, k in KINDS.items():
            for e in self.entries[kind]:
                names = {str(k.key(e)).lower(), str(e.get("name", "")).lower(),
                         str(e.get("powered_name", "")).lower()}
                if want in names:
                    out.append((kind, e))
        return out

    def hero_deck(self, hero: str, lost_legion: bool = False) -> list[str]:
        """The 16 card ids of a hero's starting Deed deck (rule 1.3.4; LL-2.3).

        Standard cards with their copies; each hero card of the chosen edition replaces one
        copy of the card it names.  With ``lost_legion`` the LL replacement cards are used too.
        """
        deck: list[str] = []
        for e in self.entries["basic_actions"]:
            if "hero" not in e:
                deck.extend([e["id"]] * e["copies"])
        editions = {"base", "lost_legion"} if lost_legion else {"base"}
        for e in self.entries["basic_actions"]:
            if e.get("hero") == hero and e.get("edition", "base") in editions:
                deck[deck.index(e["replaces"])] = e["id"]
        return deck

    def printing(self, lost_legion: bool) -> "Content":
        """The catalogue as played with or without The Lost Legion (LL-2.10.2).

        Without it, the entries as they are (their main fields are the base printing).  With
        it, each entry's ``ll_printing`` fields replace the main ones: the card The Lost
        Legion changed is played only in its new printing.  Built once per content object.
        """
        if not lost_legion:
            return self
        hit = self._printings.get(True)
        if hit is not None:
            return hit
        entries = {k: [dict(e) for e in es] for k, es in self.entries.items()}
        parsed = dict(self.parsed)
        prefix = "ll_printing."
        for kind_name in PRINTED_FIELDS:
            for e in entries[kind_name]:
                lp = e.pop("ll_printing", None)
                if not lp:
                    continue
                key = str(KINDS[kind_name].key(e))
                for fname in PRINTED_FIELDS[kind_name]:
                    if fname not in lp:
                        continue
                    e[fname] = copy.deepcopy(lp[fname])
                    for pk in [pk for pk in parsed if pk[:2] == (kind_name, key)
                               and (pk[2] == fname or pk[2].startswith(fname + "["))]:
                        del parsed[pk]
                for (kn, k, path), node in self.parsed.items():
                    if (kn, k) == (kind_name, key) and path.startswith(prefix):
                        parsed[(kn, k, path[len(prefix):])] = node
        for pk in [pk for pk in parsed if pk[2].startswith(prefix)]:
            del parsed[pk]
        out = Content(entries, dict(self.origin), parsed, list(self.user_files))
        out._printings[True] = out
        self._printings[True] = out
        return out

    def compile(self):
        """Numeric tables for the Cython core (see :mod:`mksim.tables`)."""
        from .tables import compile_content
        return compile_content(self)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlevel = 3


def _show(value: Any) -> str:
    """A value for an error message: short, one line, safe on deeply nested data."""
    return _REPR.repr(value)


def _entry_label(kind: Kind, entry: Any, index: int) -> str:
    key = _safe_key(kind, entry) if isinstance(entry, dict) else None
    if key is not None:
        return f"{kind.table} {key!r}"
    return f"{kind.table} #{index + 1}"


def _check_value(spec: F, value: Any, where: str, path: str, content_parsed: dict, key) -> None:
    def bad(msg):
        raise ContentError(where, f"field {path!r}: {msg}")

    t = spec.type
    if t == "str":
        if not isinstance(value, str):
            bad(f"expected text, got {_show(value)}")
        if spec.enum is not None and value not in spec.enum:
            bad(f"unknown value {_show(value)}; expected one of {', '.join(spec.enum)}")
    elif t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            bad(f"expected a whole number, got {_show(value)}")
        if abs(value) > INT_LIMIT:  # the core stores numbers in small C integers
            bad(f"{value} is out of range (at most {INT_LIMIT} either way)")
        if spec.min is not None and value < spec.min:
            bad(f"{value} is below the minimum {spec.min}")
        if spec.max is not None and value > spec.max:
            bad(f"{value} is above the maximum {spec.max}")
    elif t == "bool":
        if not isinstance(value, bool):
            bad(f"expected true or false, got {_show(value)}")
    elif t == "effect":
        if not isinstance(value, str):
            bad(f"expected an effect expression in quotes, got {_show(value)}")
        try:
            content_parsed[key + (path,)] = fx.parse_effect(value)
        except fx.EffectError as err:
            bad(str(err))
    elif t == "table":
        if not isinstance(value, dict):
            bad(f"expected a table of fields, got {_show(value)}")
        _check_fields(spec.fields, value, where, path + ".", content_parsed, key)
    elif t == "list":
        if not isinstance(value, list):
            bad(f"expected a list, got {_show(value)}")
        if spec.length is not None and len(value) != spec.length:
            bad(f"expected exactly {spec.length} items, got {len(value)}")
        for i, item in enumerate(value):
            ipath = f"{path}[{i}]"
            if spec.item == "table":
                if not isinstance(item, dict):
                    raise ContentError(where, f"field {ipath!r}: expected an inline table, got {_show(item)}")
                _check_fields(spec.fields, item, where, ipath + ".", content_parsed, key)
            elif spec.item == "int":
                _check_value(F("int"), item, where, ipath, content_parsed, key)
            elif spec.item == "pair":
                if (not isinstance(item, list) or len(item) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
                    raise ContentError(where, f"field {ipath!r}: expected a pair of whole numbers [a, b], got {_show(item)}")
            else:
                _check_value(F("str", enum=spec.enum), item, where, ipath, content_parsed, key)
    else:  # pragma: no cover - schema bug
        raise AssertionError(t)


def _check_fields(fields: dict[str, F], entry: dict, where: str, prefix: str, parsed: dict, key) -> None:
    for name in entry:
        if name not in fields:
            raise ContentError(where, f"unknown field {prefix + name!r} (known fields: {', '.join(fields)})")
    for name, spec in fields.items():
        if name not in entry:
            if spec.required:
                raise ContentError(where, f"missing required field {prefix + name!r}")
            continue
        _check_value(spec, entry[name], where, prefix + name, parsed, key)


def _load_file(path: Path, shown: str) -> dict:
    data = _read_toml(path, shown)
    kinds = FILES[path.name]
    allowed = {k.table for k in kinds}
    for top in data:
        if top not in allowed:
            raise ContentError(shown, f"unexpected table {top!r}; this file holds "
                                      f"{' and '.join('[[' + t + ']]' for t in sorted(allowed))}")
    return data


def _apply_override(files: dict[str, dict], path: Path) -> None:
    shown = str(path)
    data = _read_toml(path, shown)
    stems = {k.stem: k for k in KINDS.values() if len(FILES[k.file]) == 1}
    stems.update({k.name: k for k in KINDS.values()})
    if not data:
        raise ContentError(shown, "the override file changes nothing; write tables such as "
                                  "[enemies.prowlers] with the fields to change")
    tables = {k.table for k in KINDS.values()}
    for stem, patches in data.items():
        kind = stems.get(stem)
        if kind is None and stem in tables and isinstance(patches, list):
            raise ContentError(shown, f"holds [[{stem}]] entries like a catalogue file; put catalogue files "
                                      "in a folder and give the folder as --content, or write an override "
                                      "file of tables such as [enemies.prowlers]")
        if kind is None:
            raise ContentError(shown, f"unknown content kind [{stem}] (known: {', '.join(sorted(stems))})")
        if not isinstance(patches, dict):
            raise ContentError(shown, f"[{stem}] must hold tables [{stem}.<id>] of fields to change")
        entries = files[kind.file].get(kind.table, [])
        for key, fields in patches.items():
            target = next((e for e in entries if isinstance(e, dict) and _safe_key(kind, e) == key), None)
            if target is None:
                raise ContentError(shown, f"[{stem}.{key}]: there is no {kind.table} {key!r} in {kind.file}")
            if not isinstance(fields, dict):
                raise ContentError(shown, f"[{stem}.{key}] must be a table of fields")
            for fname, value in fields.items():
                if fname not in kind.fields:
                    raise ContentError(shown, f"[{stem}.{key}]: unknown field {fname!r} "
                                              f"(known fields: {', '.join(kind.fields)})")
                target[fname] = value


#: Files a --content folder may hold besides catalogue files: the data folder's own notes
#: (so that a copy of mksim/data works as it is).  Hidden entries (".git", editor swap
#: files) are not looked at.
FOLDER_EXTRAS = ("README.md",)


def _check_folder(folder: Path) -> None:
    """A --content folder holds catalogue files, at least one, and nothing else."""
    try:
        names = sorted(os.listdir(folder))
    except PermissionError:
        raise ContentError(str(folder), "cannot be read (permission denied)") from None
    except OSError as err:
        raise ContentError(str(folder), f"cannot be read: {err.strerror or err}") from None
    names = [n for n in names if not n.startswith(".")]
    extras = [n for n in names if n not in FILES and n not in FOLDER_EXTRAS]
    if extras:
        shown = [n + ("/" if (folder / n).is_dir() else "") for n in extras[:8]]
        if len(extras) > 8:
            shown.append(f"and {len(extras) - 8} more")
        raise ContentError(str(folder), f"not a catalogue file: {', '.join(shown)} (a --content folder holds "
                                        f"only catalogue files: {', '.join(sorted(FILES))})")
    for n in names:
        if n in FILES and not (folder / n).is_file() and not (folder / n).is_dir():
            raise ContentError(str(folder / n), "is not a regular file")   # a pipe would block the reader
    if not any(n in FILES for n in names):
        raise ContentError(str(folder), f"holds no catalogue file (expected one or more of "
                                        f"{', '.join(sorted(FILES))}, e.g. a copy of mksim/data)")


def _safe_key(kind: Kind, entry: dict) -> str | None:
    try:
        return str(kind.key(entry))
    except (KeyError, TypeError):
        return None


def load_content(path: str | Path | None = None, check_counts: bool = True) -> Content:
    """Load and validate game content.

    Parameters
    ----------
    path
        ``None`` for the shipped catalogue; a directory of catalogue files replacing the
        shipped ones file by file; or a TOML override file patching single fields.
    check_counts
        Check the component counts of the rulebooks.  Turn off for home-made content
        (extra cards, fewer tiles).

    Raises
    ------
    ContentError
        On the first problem found, naming file, entry and field.
    """
    files: dict[str, dict] = {}
    origin: dict[str, str] = {}
    override: Path | None = None
    user_dir: Path | None = None
    if path is not None:
        p = Path(path)
        if p.is_dir():
            user_dir = p
        elif p.exists():
            if not p.is_file():
                raise ContentError(str(p), "is neither a folder nor a regular file; --content takes a folder "
                                           "of catalogue files or a .toml override file")
            if p.suffix != ".toml":
                raise ContentError(str(p), "is not a folder or a .toml file; --content takes a folder of "
                                           "catalogue files or a .toml override file")
            override = p
        elif p.suffix == ".toml":
            raise ContentError(str(p), "file not found")
        else:
            raise ContentError(str(p), "no such file or folder")
    if user_dir is not None:
        _check_folder(user_dir)
    for fname in FILES:
        src = DATA_DIR / fname
        if user_dir is not None and (user_dir / fname).exists():
            src = user_dir / fname
        shown = str(src) if user_dir is not None and src.parent == user_dir else f"mksim/data/{fname}"
        files[fname] = _load_file(src, shown)
        origin[fname] = shown
    user_files = [o for o in origin.values() if not o.startswith("mksim/data/")]
    if override is not None:
        _apply_override(files, override)
        for fname in files:
            origin[fname] += f" (+ {override})"
        user_files.append(str(override))

    entries: dict[str, list[dict]] = {}
    parsed: dict = {}
    for kind in KINDS.values():
        where_file = origin[kind.file]
        raw = files[kind.file].get(kind.table, [])
        if not isinstance(raw, list):
            raise ContentError(where_file, f"{kind.table!r} must be an array of tables [[{kind.table}]]")
        seen: dict[str, int] = {}
        for i, entry in enumerate(raw):
            label = _entry_label(kind, entry, i)
            where = f"{where_file}: {label}"
            if not isinstance(entry, dict):
                raise ContentError(where, "expected a table of fields")
            key = _safe_key(kind, entry)
            _check_fields(kind.fields, entry, where, "", parsed, (kind.name, str(key)))
            if key in seen:
                raise ContentError(where, f"duplicate id {key!r} (also entry #{seen[key] + 1})")
            seen[key] = i
        entries[kind.name] = copy.deepcopy(raw)
    content = Content(entries, origin, parsed, user_files)
    _check_references(content)
    _check_effects(content)
    _check_consistency(content)
    _check_engine_needs(content)
    if check_counts:
        _check_counts(content)
    # LL-2.10.2: the Lost Legion printing is a catalogue too; the same checks hold for it
    ll = content.printing(True)
    _check_consistency(ll)
    _check_engine_needs(ll)
    if check_counts:
        _check_counts(ll)
    return content


def _check_references(c: Content) -> None:
    ids = {kind: set(map(str, c.ids(kind))) for kind in KINDS}
    for kind_name, kind in KINDS.items():
        for e in c[kind_name]:
            where = f"{c.origin[kind.file]}: {kind.table} {kind.key(e)!r}"
            for fname, spec in kind.fields.items():
                if spec.ref is None or fname not in e:
                    continue
                values = e[fname] if isinstance(e[fname], list) else [e[fname]]
                for v in values:
                    if v not in ids[spec.ref]:
                        raise ContentError(where, f"field {fname!r}: {v!r} is not a known "
                                                  f"{KINDS[spec.ref].table} id in {KINDS[spec.ref].file}")


def engine_handlers():
    """The effect handlers the engine implements: ``mksim._engine.handler_registry()``
    (``{name: (group, argument names)}``, read-only; the one source, see ext/_engine.pyx)."""
    from . import _engine  # compiled
    return _engine.handler_registry()


def _check_effects(c: Content) -> None:
    """Amounts in range and handlers the engine implements (:func:`mksim.effects.check_effect`
    against the engine's own declarations, ``mksim._engine.handler_registry()``).

    Cooperative skills (LL-7) are checked like every other entry: they are dealt when The
    Lost Legion is on (LL-7.1, ``Engine._skill_in_game``).  The Lost Legion printings
    (``ll_printing``) are checked too.
    """
    registry = engine_handlers()
    for (kind_name, key, path), node in c.parsed.items():
        try:
            fx.check_effect(node, registry)
        except fx.EffectError as err:
            kind = KINDS[kind_name]
            raise ContentError(f"{c.origin[kind.file]}: {kind.table} {key!r}", f"field {path!r}: {err}") from None


def _check_consistency(c: Content) -> None:
    """Cross-file rules that a single field cannot express."""
    ba = KINDS["basic_actions"]
    for e in c["basic_actions"]:
        where = f"{c.origin[ba.file]}: card {e['id']!r}"
        if ("hero" in e) != ("replaces" in e):
            raise ContentError(where, "a hero card needs both 'hero' and 'replaces'")
        if "replaces" in e and "hero" in c.get("basic_actions", e["replaces"]):
            raise ContentError(where, f"field 'replaces': {e['replaces']!r} is itself a hero card")
    for hero in c.ids("heroes"):
        for ll in (False, True):
            try:
                deck = c.hero_deck(hero, ll)
            except ValueError:
                raise ContentError(f"{c.origin[ba.file]}", f"hero {hero!r}: a hero card replaces a card "
                                                          "that is no longer in the deck") from None
            if len(deck) != 16:  # rule 1.3.4 / LL-2.3.3
                raise ContentError(c.origin[ba.file], f"hero {hero!r}: starting deck has {len(deck)} cards, "
                                                      "expected 16 (rule 1.3.4)")
    hk = KINDS["heroes"]
    for h in c["heroes"]:
        for fname in ("interactive_skill", "cooperative_skill"):
            if fname in h and c.get("skills", h[fname])["hero"] != h["id"]:
                raise ContentError(f"{c.origin[hk.file]}: hero {h['id']!r}",
                                   f"field {fname!r}: skill {h[fname]!r} belongs to another hero")
    rk = KINDS["ruins"]
    for r in c["ruins"]:
        where = f"{c.origin[rk.file]}: ruins {r['id']!r}"
        need = ("tribute", "fame") if r["kind"] == "altar" else ("enemies", "rewards")
        for fname in need:
            if fname not in r:
                raise ContentError(where, f"missing field {fname!r} (required for {r['kind']} tokens)")
    tk = KINDS["tiles"]
    for t in c["tiles"]:
        where = f"{c.origin[tk.file]}: tile {t['id']!r}"
        if (t["kind"] == "city") != ("city" in t):
            raise ContentError(where, "field 'city': city tiles (and only they) name their city colour")
    sk = KINDS["scenarios"]
    for s in c["scenarios"]:
        where = f"{c.origin[sk.file]}: scenario {s['id']!r}"
        if s["min_players"] > s["max_players"]:
            raise ContentError(where, "field 'min_players' is larger than 'max_players'")
        if len(s["city_levels"]) != s["city_tiles"]:
            raise ContentError(where, f"field 'city_levels': {len(s['city_levels'])} levels for "
                                      f"{s['city_tiles']} city tiles")
        mp = s.get("multiplayer")
        if mp is not None:
            if not mp["players"] or any(not 2 <= n <= 4 for n in mp["players"]) \
                    or len(set(mp["players"])) != len(mp["players"]):
                raise ContentError(where, "field 'multiplayer.players': distinct player counts from 2 to 4")
            if len(mp["countryside_tiles"]) != len(mp["players"]):
                raise ContentError(where, f"field 'multiplayer.countryside_tiles': "
                                          f"{len(mp['countryside_tiles'])} counts for {len(mp['players'])} player counts")
            if mp["city_tiles"] != s["city_tiles"]:
                raise ContentError(where, "field 'multiplayer.city_tiles': the city levels are given for "
                                          f"{s['city_tiles']} city tiles")
    from . import _hexmap  # compiled: rule 9.1.4 lattice
    mk = KINDS["map_shapes"]
    for m in c["map_shapes"]:
        where = f"{c.origin[mk.file]}: shape {m['id']!r}"
        pos = {tuple(p) for p in m["positions"]}
        if (0, 0) not in pos:
            raise ContentError(where, "field 'positions' must contain the starting tile [0, 0]")
        for fname in ("setup_positions", "coastline", "core_forbidden"):
            for p in m[fname]:
                if tuple(p) not in pos:
                    raise ContentError(where, f"field {fname!r}: {p} is not one of the shape's positions")
        for p in m["setup_positions"]:
            if not any(_hexmap.adjacent_positions(p[0], p[1], q[0], q[1])
                       for q in [[0, 0]] + m["setup_positions"] if q != p):
                raise ContentError(where, f"field 'setup_positions': {p} touches no other setup tile")


#: Site fields the engine reads at binding (ext/_engine.pyx _bind_sites,
#: ext/_engine_units.pxi _bind_units), by site id: a --no-count-check edit must keep them.
ENGINE_SITE_FIELDS = {
    "village": ("heal_cost", "reputation_plunder"),       # 10.7.1
    "monastery": ("heal_cost", "advanced_action_cost"),   # 10.7.2
    "mage_tower": ("spell_cost",),                       # 10.7.4
    "keep": (), "rampaging_orc": (), "rampaging_draconum": (),
}


def _check_engine_needs(c: Content) -> None:
    """What the engine relies on when it binds content to a game (checked here, even with
    ``check_counts`` off, so that a game never starts with a ValueError)."""
    rk = KINDS["reputation"]
    positions = sorted(e["position"] for e in c["reputation"])
    if positions != list(range(-7, 9)):  # the core indexes the track by position + 7
        missing = sorted(set(range(-7, 9)) - set(positions))
        raise ContentError(c.origin[rk.file], f"field 'position': the Reputation track needs one space at each position "
                                              f"-7 .. +8 (16, see reputation.toml); missing: "
                                              f"{', '.join(map(str, missing))}")
    wk = KINDS["wound"]
    for wid in c.ids("wound"):
        if wid != "wound":
            raise ContentError(f"{c.origin[wk.file]}: card {wid!r}",
                               "field 'id': the Wound card must have the id 'wound' (rule 1.2.4)")
    if "wound" not in c.ids("wound"):   # the engine finds the Wound card by this id
        raise ContentError(c.origin[wk.file], "no Wound card: the engine needs a card with the id 'wound' "
                                              "(rule 1.2.4)")
    sk = KINDS["sites"]
    sites = {e["id"]: e for e in c["sites"]}
    for sid, fields in ENGINE_SITE_FIELDS.items():
        if sid not in sites:
            raise ContentError(c.origin[sk.file], f"no site {sid!r}: the engine's site rules need it (10.7)")
        for fname in fields:
            if fname not in sites[sid]:
                raise ContentError(f"{c.origin[sk.file]}: site {sid!r}",
                                   f"missing field {fname!r} (the engine reads it, 10.7)")
    # 1.2.13: the tile stack is built from the base-game tiles (The Lost Legion only adds),
    # without Volkare's camp (ext/_state.pyx build_tile_stack)
    tk, sck = KINDS["tiles"], KINDS["scenarios"]
    have = {kind: sum(1 for t in c["tiles"] if t["kind"] == kind and t["expansion"] == "base"
                      and not any(h.get("site") == "volkares_camp" for h in t["hexes"]))
            for kind in ("countryside", "core", "city")}
    for sc in c["scenarios"]:
        for kind in ("countryside", "core", "city"):
            fname = f"{kind}_tiles"
            if sc[fname] > have[kind]:
                raise ContentError(f"{c.origin[sck.file]}: scenario {sc['id']!r}",
                                   f"field {fname!r}: {sc[fname]} {kind} tiles asked for, {tk.file} holds "
                                   f"{have[kind]} of the base game (1.2.13)")
        shape = c.get("map_shapes", sc["shape"])
        stack = sc["countryside_tiles"] + sc["core_tiles"] + sc["city_tiles"]
        if stack < len(shape["setup_positions"]):      # 1.2.14: setup tiles come off the stack
            raise ContentError(f"{c.origin[sck.file]}: scenario {sc['id']!r}",
                               f"field 'countryside_tiles': the tile stack of {stack} cannot fill the "
                               f"{len(shape['setup_positions'])} setup positions of shape {shape['id']!r} (1.2.14)")
    # 13.5: a "fame" reward has no amount; altars pay their Fame at once (10.7.10.2)
    for kind_name in ("sites", "ruins"):
        kind = KINDS[kind_name]
        for e in c[kind_name]:
            if "fame" in e.get("rewards", []):
                raise ContentError(f"{c.origin[kind.file]}: {kind.table} {kind.key(e)!r}",
                                   "field 'rewards': 'fame' has no amount here; a site gives Fame by its "
                                   "enemies and an altar by its `fame` field (10.7.10.2, 13.5)")


def _check_counts(c: Content) -> None:
    for chk in COUNT_CHECKS:
        got = chk.measure(c[chk.kind])
        if got != chk.expected:
            kind = KINDS[chk.kind]
            raise ContentError(c.origin[kind.file], f"wrong count: {got} {chk.what}, the rulebook lists "
                                                    f"{chk.expected} ({chk.cite})")
