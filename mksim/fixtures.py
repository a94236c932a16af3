"""Fixtures: a game state written as a plain dict (JSON / TOML), and back.

``state_to_dict(core)`` describes EVERY field of the GameState struct (ext/_types.pxd):
the parts a player recognises use content ids and words (cards ``"march"``, units, enemies,
tiles, sites, skills, tactics, colours, terrains, phases); the engine's bookkeeping (turn
state, combat, random stream states ...) stays numeric.  The struct is read field by field
by code generated from the headers (``GameCore.raw_dict``, ext/gen_fields.py), and only the
fields named in this module are translated: a field added to any struct appears in the dict
(numeric, under its C name) after the next build, and is written back by
:func:`state_from_dict`.

``state_from_dict(game, d)`` builds a state from such a dict.  A PARTIAL dict is allowed:
every field it leaves out comes from a fresh setup of the game's scenario and hero with the
dict's ``seed`` / ``game_index`` (default 0).  Only ``format`` is required.  Any mistake
raises :class:`FixtureError` (a ValueError) whose message starts with the key path, e.g.
``players[0].hand[2]: unknown card 'marhc'``.  After the fields are written the whole
position is checked by meaning (:func:`validate`: acting player, phase and combat, random
streams, pending decisions, tokens, the tactics left, a legal action ...).

Two formats are read (``"format": 1`` or ``2``); ``state_to_dict`` writes 2 unless asked
for 1.  Format 2 writes every bit field as a list of names or indices (:data:`BIT_FIELDS`),
gives a hand-written ``combat`` neutral defaults (:data:`NEUTRAL_COMBAT`: no enemy's
damage being assigned), derives the level from Fame unless written, takes a tactic or a
card the fixture writes from where the fresh setup put it, and refuses a fixture that
contradicts itself (a tactic on offer and held, a card in more places than it has copies,
a level its Fame does not reach), naming both places.

The format is described for users in docs/fixtures.md.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Optional, Union

from . import content as _ct
from . import effects as _fx
from ._state import HEX_FLAG_NAMES, PHASE_NAMES, TERMINATION_NAMES, FixtureError


def _combat_flag_names() -> tuple:
    from ._combat import FLAG_NAMES         # CE_* bits (ext/_types.pxd), named in ext/_combat.pyx
    return tuple(FLAG_NAMES)

__all__ = ["FORMAT", "FixtureError", "state_to_dict", "state_from_dict", "apply_fixture",
           "load_fixture_file", "fixture_game_args", "canonical_raw", "validate"]

#: Version of the fixture format ``to_dict`` writes; a fixture carries ``"format": 1`` or ``2``
#: (FORMATS).  Format 2 writes bit fields as lists (BIT_FIELDS), gives a hand-written
#: combat neutral defaults and derives the level from Fame (docs/fixtures.md).
FORMAT = 2
FORMATS = (1, 2)
MAX_CRYSTALS = 3            # 5.1.3: at most 3 crystals of one colour (the dummy has no limit, 18.4.4)
REPUTATION_RANGE = (-7, 8)  # 10.3: the Reputation track
LEVEL_RANGE = (1, 10)       # 13.6
UNIT_WOUNDS = (0, 2)        # 11.7.9: a unit holds at most 2 Wounds (Poison)
HAND_CAPACITY = 63          # MAX_HAND_INDEX of ext/_engine.pxd: hand indices fit the action encoding
# other card zones hold one card less than their array (MAX_*_CARDS of ext/_types.pxd): a full
# zone stops the game (check_capacity, ext/_engine.pyx)
HEADER_KEYS = ("format", "scenario", "hero", "heroes", "lost_legion")
MAX_DEPTH = 12              # tables / lists in a fixture nest at most 6 deep (map.tiles[0].hexes[0].tokens[0])
NONE_WORDS = (None, "none")  # TOML has no null: write "none"


# ---------------------------------------------------------------------------------------
# names
# ---------------------------------------------------------------------------------------

class _Names:
    """Content id lists of one game (index <-> id) and the ids' reverse lookups."""

    def __init__(self, core) -> None:
        t, su = core.tables, core.setup
        self.tables = t
        self.lists = {
            "card": list(t.card_ids), "unit": list(t.unit_ids), "enemy": list(t.enemy_ids),
            "tile": list(t.tile_ids), "tactic": list(t.tactic_ids), "hero": list(su.hero_ids),
            "skill": list(su.skill_ids), "ruins token": list(su.ruins_ids), "site": list(_ct.SITE_IDS),
            "colour": list(_fx.MANA_COLOURS), "basic colour": list(_fx.BASIC_COLOURS),
            "terrain": list(_fx.TERRAINS), "time": list(_fx.TIMES), "phase": list(PHASE_NAMES),
            "termination": list(TERMINATION_NAMES), "pile colour": list(_ct.ENEMY_COLOURS),
        }
        self.index = {k: {name: i for i, name in enumerate(v)} for k, v in self.lists.items()}
        self.enemy_colour = [int(x) for x in t.enemies[:, t.col("enemies", "colour")]]

    def name(self, kind: str, i: int) -> Optional[str]:
        """The id of index ``i`` (None for a negative index)."""
        return self.lists[kind][i] if i >= 0 else None

    def idx(self, kind: str, value: Any, path: str, optional: bool = False) -> int:
        """The index of id ``value``; -1 for None when ``optional``."""
        if optional and value in NONE_WORDS:
            return -1
        if not isinstance(value, str):
            raise FixtureError(f"{path}: expected a {kind} id, got {_short(value)}")
        i = self.index[kind].get(value)
        if i is None:
            raise FixtureError(f"{path}: unknown {kind} {_short(value)}")
        return i


def _int(v: Any, path: str, lo: int, hi: int) -> int:
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int):
        raise FixtureError(f"{path}: expected a whole number, got {_short(v)}")
    if not lo <= v <= hi:
        raise FixtureError(f"{path}: {v} is out of range ({lo} .. {hi})")
    return v


def _list(v: Any, path: str, n: int) -> list:
    if not isinstance(v, (list, tuple)):
        raise FixtureError(f"{path}: expected a list, got {_short(v)}")
    if len(v) > n:
        raise FixtureError(f"{path}: {len(v)} entries, at most {n} fit")
    return list(v)


def _table(v: Any, path: str) -> dict:
    if not isinstance(v, dict):
        raise FixtureError(f"{path}: expected a table of keys, got {_short(v)}")
    return v


def _key(path: str, name: Any) -> str:
    return f"{path}.{name}" if path else str(name)


def _flag(v: int):
    """A 0/1 flag as false / true (other values stay numbers: the engine may count)."""
    return bool(v) if v in (0, 1) else v


def _trim(values: list) -> list:
    """Drop trailing None entries (empty slots at the end of a fixed array)."""
    out = list(values)
    while out and out[-1] is None:
        out.pop()
    return out


# ---------------------------------------------------------------------------------------
# bit fields (format 2 writes them as lists of names or of indices)
# ---------------------------------------------------------------------------------------

#: CombatEnemyUnitFx CEU_* (ext/_types.pxd), bit by bit
ENEMY_UNIT_FX_NAMES = ("no_resistances", "destroy_if_blocked")
#: TT_* bits of TurnState.tactic_turn (ext/_fx_tactics.pxd)
TACTIC_TURN_NAMES = ("mana_search",)
#: BF_* bits of Player.banner_fx (BannerFx, ext/_engine.pxd); the two low bits are the Armor
#: bonus BF_ARMOR (0 .. 3): ``armor_1`` and ``armor_2`` add up to it
BANNER_FX_NAMES = ("armor_1", "armor_2", "fire_ice", "glory", "fear", "courage", "fortitude", "command")
#: Unit.gained_res: RES_* bits gained this turn, the same bits << 3 gained this combat
UNIT_RES_NAMES = _ct.RESISTANCES + tuple(f"{r}_combat" for r in _ct.RESISTANCES)
#: Diplomacy's element bits (PHYSICAL FIRE ICE of ext/_types.pxd Element)
BLOCK_ELEMENT_NAMES = _fx.ELEMENTS[:3]

# Every bit field of the state, by its place in a fixture ("*" = each entry of a list), and
# how format 2 writes it: ("names", names, bits): a list of the names of the bits set (one
# table per field, checked against the C constants by tests/test_fixture_format2.py; a
# set bit without a name is written "bit<N>"); ("index", bits): the indices of the bits set
# (a bit per slot, die, option ...); ("ids", kind, words): content ids (bit k = content row
# k over 64-bit words).  Format 1 writes each as one whole number.
BIT_FIELDS: dict = {
    ("players", "*", "skills_used"): ("index", 16),
    ("players", "*", "banner_flipped"): ("index", 8),
    ("players", "*", "banner_fx", "*"): ("names", BANNER_FX_NAMES, 8),
    ("players", "*", "units", "*", "gained_res"): ("names", UNIT_RES_NAMES, 8),
    ("players", "*", "units", "*", "abilities_used"): ("index", 8),
    ("players", "*", "stats", "forced_missed"): ("index", 8),
    ("turn", "ask_options"): ("index", 64),
    ("turn", "dice_kept"): ("index", 8),
    ("turn", "tactic_turn"): ("names", TACTIC_TURN_NAMES, 8),
    ("turn", "ring_fame"): ("names", _fx.BASIC_COLOURS, 8),
    ("turn", "phase_defeated"): ("index", 32),
    ("turn", "soul_slots"): ("index", 32),
    ("turn", "units_healed"): ("index", 8),
    ("turn", "glory_units"): ("index", 8),
    ("turn", "recruited_units"): ("index", 8),
    ("combat", "targets"): ("index", 32),
    ("combat", "enemies", "*", "flags"): ("names", _combat_flag_names(), 8),
    ("combat", "enemies", "*", "blocked"): ("index", 8),
    ("combat", "enemies", "*", "damaged"): ("index", 8),
    ("combat", "enemies", "*", "lost_abilities"): ("names", _ct.ENEMY_ABILITIES, 16),
    ("combat", "enemies", "*", "lost_resistances"): ("names", _ct.RESISTANCES, 8),
    ("combat", "enemies", "*", "res_lost"): ("names", _ct.RESISTANCES, 8),
    ("combat", "enemies", "*", "unit_fx"): ("names", ENEMY_UNIT_FX_NAMES, 8),
    ("source", "taken"): ("index", 8),
    ("forbid_cards",): ("ids", "card", 4),
    ("forbid_skills",): ("ids", "skill", 2),
    ("forbid_units",): ("ids", "unit", 2),
    ("forbid_sites",): ("ids", "site", 1),
}


def _bits_out(v, spec, N: "_Names"):
    """A bit field's value(s) as format 2 writes it (see BIT_FIELDS)."""
    kind = spec[0]
    if kind == "ids":
        words = v if isinstance(v, list) else [v]
        names = N.lists[spec[1]]
        return [names[w * 64 + i] if w * 64 + i < len(names) else f"bit{w * 64 + i}"
                for w, x in enumerate(words) for i in range(64) if x >> i & 1]
    if kind == "index":
        return [i for i in range(spec[1]) if v >> i & 1]
    names, width = spec[1], spec[2]
    return [names[i] if i < len(names) else f"bit{i}" for i in range(width) if v >> i & 1]


def _bits_in(x, spec, path: str, N: "_Names"):
    """A format 2 list of names / indices as the bits it sets (a list of 64-bit words for
    ``ids``); FixtureError naming the entry for an unknown name."""
    kind = spec[0]
    if not isinstance(x, (list, tuple)):
        what = "indices" if kind == "index" else "ids" if kind == "ids" else "flag names"
        raise FixtureError(f"{path}: expected a list of {what} (format 2 writes bit fields as lists), "
                           f"got {_short(x)}")
    if kind == "index":
        bits = 0
        for i, k in enumerate(x):
            bits |= 1 << _int(k, f"{path}[{i}]", 0, spec[1] - 1)
        return bits
    if kind == "ids":
        names = N.lists[spec[1]]
        words = [0] * spec[2]
        for i, name in enumerate(x):
            k = _bit_name(name, names, spec[2] * 64, f"{path}[{i}]", spec[1])
            words[k >> 6] |= 1 << (k & 63)
        return words if len(words) > 1 else words[0]
    bits = 0
    for i, name in enumerate(x):
        bits |= 1 << _bit_name(name, spec[1], spec[2], f"{path}[{i}]", "flag")
    return bits


def _bit_name(name, names, width: int, path: str, what: str) -> int:
    if isinstance(name, str):
        if name in names:
            return names.index(name)
        if name.startswith("bit") and name[3:].isdigit() and len(names) <= int(name[3:]) < width:
            return int(name[3:])
    known = ", ".join(names) if len(names) <= 16 else ", ".join(names[:16]) + ", ..."
    raise FixtureError(f"{path}: unknown {what} {_short(name)}; known: {known}")


def _walk(d, pattern: tuple, path: str, fn) -> None:
    """Call ``fn(parent, key, path)`` for each place of ``pattern`` that ``d`` holds."""
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        if not isinstance(d, list):
            return
        items = list(enumerate(d))
    elif isinstance(d, dict) and head in d:
        items = [(head, d[head])]
    else:
        return
    for k, v in items:
        p = f"{path}[{k}]" if head == "*" else _key(path, k)
        if rest:
            _walk(v, rest, p, fn)
        else:
            fn(d, k, p)


def _bit_fields_out(out: dict, N: "_Names") -> None:
    """Format 1 -> format 2 in place: every bit field as its list (to_dict)."""
    for pattern, spec in BIT_FIELDS.items():
        _walk(out, pattern, "", lambda parent, k, p, spec=spec: parent.__setitem__(k, _bits_out(parent[k], spec, N)))


def _bit_fields_in(d: dict, N: "_Names") -> dict:
    """A format 2 fixture with its bit fields turned into whole numbers (what the loader
    reads); the tables on the way are copied, ``d`` is left as it is."""
    d = dict(d)

    def conv(parent, k, p, spec):
        parent[k] = _bits_in(parent[k], spec, p, N)

    for pattern, spec in BIT_FIELDS.items():
        _copy_along(d, pattern)
        _walk(d, pattern, "", lambda parent, k, p, spec=spec: conv(parent, k, p, spec))
    return d


def _copy_along(d, pattern: tuple) -> None:
    """Copy the tables and lists on the way to ``pattern`` in ``d`` (a shallow copy per level)."""
    head, rest = pattern[0], pattern[1:]
    if not rest:
        return
    if head == "*":
        if isinstance(d, list):
            for i, v in enumerate(d):
                if isinstance(v, (dict, list)):
                    d[i] = type(v)(v)
                    _copy_along(d[i], rest)
    elif isinstance(d, dict) and isinstance(d.get(head), (dict, list)):
        d[head] = type(d[head])(d[head])
        _copy_along(d[head], rest)


# ---------------------------------------------------------------------------------------
# state -> dict
# ---------------------------------------------------------------------------------------

def _counted(N: _Names, kind: str, values: list, n: int) -> list:
    return [N.name(kind, x) for x in values[:n]]


def _player_out(N: _Names, raw: dict) -> dict:
    out: dict = {}
    for k, v in raw.items():
        if k == "hero":
            out[k] = N.name("hero", v)
        elif k == "crystals":
            out[k] = {c: v[i] for i, c in enumerate(_fx.BASIC_COLOURS)}
        elif k in ("deck", "hand", "discard", "play_area"):
            out[k] = _counted(N, "card", v, raw[_COUNT[k]])
        elif k == "units":
            out[k] = [_unit_out(N, u, slot, i) for i, (slot, u) in
                      enumerate((slot, u) for slot, u in enumerate(v) if u["card"] >= 0)]
        elif k == "skills":
            out[k] = _trim([N.name("skill", x) for x in v])
        elif k == "skill_stack":
            out[k] = _counted(N, "skill", v, raw["n_skill_stack"])
        elif k == "tactic":
            out[k] = N.name("tactic", v)
        elif k == "tactic_cards":
            out[k] = _counted(N, "card", v, raw["n_tactic_cards"])
        elif k == "set_aside":                          # Time Bending (LL-9.6.4)
            out[k] = _counted(N, "card", v, raw["n_set_aside"])
        elif k == "stolen_die":
            out[k] = N.name("colour", v)
        elif k in _PLAYER_COUNTS:
            continue
        elif k == "tactic_used":
            out[k] = _flag(v)
        else:
            out[k] = v
    return out


def _unit_out(N: _Names, raw: dict, slot: int, i: int) -> dict:
    """An occupied Unit slot; ``slot`` is written only where an empty slot lies before it
    (a disbanded Unit, 7.2.4), so that the list holds Units only."""
    out = {"unit": N.name("unit", raw["card"])}
    if slot != i:
        out["slot"] = slot
    for k, v in raw.items():
        if k == "card":
            continue
        out[k] = N.name("card", v) if k == "banner" else _flag(v) if k == "ready" else v
    return out


def _dummy_out(N: _Names, raw: dict) -> dict:
    out: dict = {}
    for k, v in raw.items():
        if k == "hero":
            out[k] = N.name("hero", v)
        elif k == "crystals":
            out[k] = {c: v[i] for i, c in enumerate(_fx.BASIC_COLOURS)}
        elif k in ("deck", "discard"):
            out[k] = _counted(N, "card", v, raw[_COUNT[k]])
        elif k == "skill_stack":
            out[k] = _counted(N, "skill", v, raw["n_skill_stack"])
        elif k == "tactic":
            out[k] = N.name("tactic", v)
        elif k in ("n_deck", "n_discard", "n_skill_stack"):
            continue
        else:
            out[k] = v
    return out


def _turn_out(N: _Names, raw: dict) -> dict:
    out: dict = {}
    for k, v in raw.items():
        if k == "mana_tokens":
            out[k] = {c: v[i] for i, c in enumerate(_fx.MANA_COLOURS) if v[i]}
        elif k == "path":
            out[k] = v[:raw["n_path"]]
        elif k in ("n_path", "mod_live"):     # mod_live: derived from the modifiers (set_raw rebuilds it)
            continue
        elif k in ("played_card", "action_taken", "extra_turn"):
            out[k] = _flag(v)
        else:
            out[k] = v
    return out


def _combat_out(N: _Names, raw: dict) -> dict:
    out = dict(raw)
    out["enemies"] = [{k: (N.name("enemy", x) if k == "enemy" else x) for k, x in e.items()}
                      for e in raw["enemies"]]
    return out


def _token_out(N: _Names, token_enemy: list, t: int) -> dict:
    e = token_enemy[t] if 0 <= t < len(token_enemy) else -1
    return {"token": t, "enemy": N.name("enemy", e)}


def _hex_out(N: _Names, raw: dict, index: int, token_enemy: list) -> dict:
    out: dict = {"index": index}
    for k, v in raw.items():
        if k == "terrain":
            out[k] = N.name("terrain", v)
        elif k == "site":
            out[k] = N.name("site", v)
        elif k == "colours":
            out[k] = [c for i, c in enumerate(_fx.BASIC_COLOURS) if v >> i & 1]
        elif k == "neighbour":
            out["neighbours"] = v
        elif k == "owner":
            out[k] = v if v >= 0 else None
        elif k == "flags":
            out[k] = [HEX_FLAG_NAMES[i] if i < len(HEX_FLAG_NAMES) else 1 << i for i in range(8) if v >> i & 1]
        elif k == "tokens":
            out[k] = [_token_out(N, token_enemy, t) for t in v[:raw["n_tokens"]]]
        elif k == "n_tokens":
            continue
        elif k == "ruins":
            out[k] = N.name("ruins token", v)
        else:
            out[k] = v
    out["tokens_face_up"] = bool(raw["flags"] & 4)     # HEX_TOKENS_REVEALED (derived)
    out["ruins_face_up"] = bool(raw["flags"] & 8)      # HEX_RUINS_REVEALED (derived)
    return out


def _names(core) -> _Names:
    """The id lists of a core's game, built once per setup (a Game shares one setup)."""
    N = getattr(core.setup, "_fixture_names", None)
    if N is None or N.tables is not core.tables:
        N = _Names(core)
        core.setup._fixture_names = N
    return N


def state_to_dict(core, format: int = FORMAT) -> dict:
    """The whole state of ``core`` (a GameCore) as a JSON-serialisable fixture dict, in
    fixture format ``format`` (2, or 1: bit fields as whole numbers)."""
    if format not in FORMATS:
        raise ValueError(f"format: {format!r} is not a fixture format (one of {FORMATS})")
    N = _names(core)
    raw = core.raw_dict()
    su = core.setup
    te = raw["token_enemy"]
    out: dict = {"format": format, "scenario": su.scenario_id, "hero": su.hero_id,
                 "lost_legion": bool(su.lost_legion)}
    if su.n_players > 1:
        out["heroes"] = list(su.seat_hero_ids)   # one per seat (issue 12); "hero" is seat 0's
    for k, v in raw.items():
        if k in _TOP_CONSUMED:
            continue
        if k == "scenario":
            out[k] = su.scenario_id
        elif k in ("time", "phase", "termination"):
            out[k] = N.name(k, v)
        elif k == "end_announced_by":
            out[k] = v if v >= 0 else None
        elif k == "players":
            out[k] = [_player_out(N, p) for p in v[:raw["n_players"]]]
        elif k == "dummy":
            out[k] = _dummy_out(N, v)
        elif k == "turn":
            out[k] = _turn_out(N, v)
        elif k == "combat":
            out[k] = _combat_out(N, v)
        elif k == "tiles":
            tiles = []
            for slot, tl in enumerate(v[:raw["n_tiles"]]):
                first = tl["first_hex"]
                entry = {"tile": N.name("tile", tl["content"]), "position": [tl["a"], tl["b"]]}
                entry.update({kk: x for kk, x in tl.items() if kk not in ("content", "a", "b")})
                entry["hexes"] = [_hex_out(N, raw["hexes"][h], h, te) for h in range(first, first + 7)]
                tiles.append(entry)
            out["map"] = {"shape": su.shape_id, "tiles": tiles, "n_hexes": raw["n_hexes"],
                          "core_revealed": _flag(raw["core_revealed"])}
        elif k == "tile_stack":
            out[k] = _counted(N, "tile", v, raw["n_tile_stack"])
        elif k == "token_enemy":
            out[k] = _trim([N.name("enemy", x) for x in v])
        elif k == "piles":
            out["enemy_piles"] = {c: [_token_out(N, te, t) for t in v[i][:raw["n_pile"][i]]]
                                  for i, c in enumerate(_ct.ENEMY_COLOURS)}
        elif k == "pile_discard":
            out["enemy_discards"] = {c: [_token_out(N, te, t) for t in v[i][:raw["n_pile_discard"][i]]]
                                     for i, c in enumerate(_ct.ENEMY_COLOURS)}
        elif k == "ruins_pile":
            out[k] = _counted(N, "ruins token", v, raw["n_ruins_pile"])
        elif k == "dice":
            out["source"] = {"dice": _counted(N, "colour", v, raw["n_dice"]), "taken": raw["dice_taken"]}
        elif k == "unit_offer":
            out[k] = [{"unit": N.name("unit", u)} if u >= 0 else {"advanced_action": N.name("card", -u - 1)}
                      for u in v[:raw["n_unit_offer"]]]
        elif k in ("aa_offer", "spell_offer"):
            out[_RENAME.get(k, k)] = [N.name("card", x) for x in v]
        elif k in _DECKS:
            out[_RENAME.get(k, k)] = _counted(N, _DECKS[k], v, raw[_COUNT[k]])
        elif k == "skill_offer":
            out[k] = _counted(N, "skill", v, raw["n_skill_offer"])
        elif k in ("tactics_available", "tactics_removed"):
            out[k] = _trim([N.name("tactic", x) for x in v])
        else:
            out[k] = v
    if format == 2:
        _bit_fields_out(out, N)
    return out


_COUNT = {"deck": "n_deck", "hand": "n_hand", "discard": "n_discard", "play_area": "n_play",
          "aa_deck": "n_aa_deck", "spell_deck": "n_spell_deck", "artifact_deck": "n_artifact_deck",
          "regular_units": "n_regular_units", "elite_units": "n_elite_units"}
_PLAYER_COUNTS = ("n_deck", "n_hand", "n_discard", "n_play", "n_skill_stack", "n_tactic_cards",
                  "n_set_aside")
_DECKS = {"aa_deck": "card", "spell_deck": "card", "artifact_deck": "card",
          "regular_units": "unit", "elite_units": "unit"}
_RENAME = {"aa_offer": "advanced_action_offer", "aa_deck": "advanced_action_deck"}
# raw top-level fields described under another key (or derived from a list's length)
_TOP_CONSUMED = {"n_tiles", "hexes", "n_hexes", "core_revealed", "n_tile_stack", "n_pile",
                 "n_pile_discard", "n_ruins_pile", "dice_taken", "n_dice", "n_unit_offer",
                 "n_aa_deck", "n_spell_deck", "n_artifact_deck", "n_regular_units", "n_elite_units",
                 "n_skill_offer"}


def canonical_raw(raw: dict) -> dict:
    """``raw`` (a :meth:`GameCore.raw_dict`) as :func:`state_from_dict` rebuilds it.

    The fixture lists only the live entries of a counted array (``deck[:n_deck]``) and
    only occupied Unit slots, so what an array holds past its count (left-overs of cards
    that moved on, never read by the engine) is written as -1, and an empty Unit slot as
    card -1, banner -1, zeros.  Every other field is kept exactly.  Tests compare a
    restored state with ``canonical_raw`` of the original, byte for byte.
    """
    out = _deepcopy(raw)

    def fill(d: dict, key: str, count: str) -> None:
        n = d[count]
        d[key][n:] = [-1] * (len(d[key]) - n)

    for p in out["players"][:out["n_players"]]:
        for key, count in (("deck", "n_deck"), ("hand", "n_hand"), ("discard", "n_discard"),
                           ("play_area", "n_play"), ("skill_stack", "n_skill_stack"),
                           ("tactic_cards", "n_tactic_cards"), ("set_aside", "n_set_aside")):
            fill(p, key, count)
        for i, u in enumerate(p["units"]):
            if u["card"] < 0:
                p["units"][i] = {k: (-1 if k in ("card", "banner") else 0) for k in u}
    for key, count in (("deck", "n_deck"), ("discard", "n_discard"), ("skill_stack", "n_skill_stack")):
        fill(out["dummy"], key, count)
    fill(out["turn"], "path", "n_path")
    for h in out["hexes"][:out["n_hexes"]]:
        fill(h, "tokens", "n_tokens")
    for key, count in (("tile_stack", "n_tile_stack"), ("ruins_pile", "n_ruins_pile"), ("dice", "n_dice"),
                       ("unit_offer", "n_unit_offer"), ("aa_deck", "n_aa_deck"), ("spell_deck", "n_spell_deck"),
                       ("artifact_deck", "n_artifact_deck"), ("regular_units", "n_regular_units"),
                       ("elite_units", "n_elite_units"), ("skill_offer", "n_skill_offer")):
        fill(out, key, count)
    for key, count in (("piles", "n_pile"), ("pile_discard", "n_pile_discard")):
        for c, pile in enumerate(out[key]):
            n = out[count][c]
            pile[n:] = [-1] * (len(pile) - n)
    return out


def _deepcopy(x):
    if isinstance(x, dict):
        return {k: _deepcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deepcopy(v) for v in x]
    return x


# ---------------------------------------------------------------------------------------
# dict -> state
# ---------------------------------------------------------------------------------------

class _Loader:
    """Turns a (partial) fixture dict into a partial raw dict over a fresh state."""

    def __init__(self, core, version: int = FORMAT) -> None:
        self.core = core
        self.version = version
        self.N = _names(self.core)
        self.base = self.core.raw_dict()
        self.patch: dict = {}
        self.legacy_mods: list = []    # (path, kind name, value, arg, scope name): fields that became turn.mods
        self.legacy_prayer: dict = {}  # prayer_delta / prayer_floor -> (value, path)
        self.legacy_fields: dict = {}  # the third move's old fields -> (value, path)
        self.allocations: list = []    # (enemy index, path, callback(token)) for tokens given by enemy id
        self.positions: list = []      # (player patch, value, path): hex given as [q, r]

    # -- small converters ------------------------------------------------------------

    def ids(self, kind: str, v: Any, path: str, n: int, fill: int = -1, optional: bool = False,
            cap: Optional[int] = None) -> list:
        """A list of ids -> indices padded with ``fill`` to the array length ``n``; at most
        ``cap`` entries (default ``n``)."""
        v = _list(v, path, n if cap is None else cap)
        return [self.N.idx(kind, x, f"{path}[{i}]", optional) for i, x in enumerate(v)] + [fill] * (n - len(v))

    def colour_counts(self, v: Any, path: str, colours, hi: int, full: bool = False) -> list:
        v = _table(v, path)
        for c in v:
            if c not in colours:
                raise FixtureError(f"{_key(path, c)}: unknown colour {_short(c)} (one of {', '.join(colours)})")
        return [_int(v.get(c, 0), _key(path, c), 0, hi) for c in colours]

    def raw_fields(self, v: dict, base: dict, path: str, consumed=()) -> None:
        """Check that keys of ``v`` not handled by name are raw fields of ``base``."""
        for k in v:
            if k not in base or k in consumed:
                raise FixtureError(f"{_key(path, k)}: unknown key")

    def token(self, entry: Any, path: str, put: Callable[[int], None], token_enemy: Callable[[], list]) -> None:
        """A token given as an instance number, {"token": n, "enemy": id} or an enemy id."""
        if isinstance(entry, dict):
            for k in entry:
                if k not in ("token", "enemy"):
                    raise FixtureError(f"{_key(path, k)}: unknown key")
            if "token" not in entry:
                if "enemy" not in entry:
                    raise FixtureError(f"{path}: give 'token' (instance number) or 'enemy' (id)")
                entry = entry["enemy"]
            else:
                t = _int(entry["token"], _key(path, "token"), 0, len(self.base["token_enemy"]) - 1)
                if "enemy" in entry:
                    e = self.N.idx("enemy", entry["enemy"], _key(path, "enemy"))
                    self.checks.append((t, e, path, token_enemy))
                put(t)
                return
        if isinstance(entry, str):
            e = self.N.idx("enemy", entry, path)
            self.allocations.append((e, path, put))
            put(-1)
            return
        put(_int(entry, path, 0, len(self.base["token_enemy"]) - 1))

    # -- sections --------------------------------------------------------------------

    def player(self, v: Any, path: str, p: int) -> dict:
        v = _table(v, path)
        base = self.base["players"][p]
        out: dict = {}
        for k, x in v.items():
            kp = _key(path, k)
            if k == "hero":
                h = self.N.idx("hero", x, kp)
                if h != base["hero"]:
                    raise FixtureError(f"{kp}: the game is set up for hero {self.N.name('hero', base['hero'])!r}, "
                                       f"not {_short(x)}")
                out[k] = h
            elif k == "crystals":
                out[k] = self.colour_counts(x, kp, _fx.BASIC_COLOURS, MAX_CRYSTALS)
            elif k in ("deck", "hand", "discard", "play_area"):
                cap = HAND_CAPACITY if k == "hand" else len(base[k]) - 1
                out[k] = self.ids("card", x, kp, len(base[k]), cap=cap)
                out[_COUNT[k]] = len(x)
            elif k == "units":
                out[k] = self.units(x, kp, base[k])
            elif k == "skills":
                out[k] = self.ids("skill", x, kp, len(base[k]), optional=True)
            elif k == "skill_stack":
                out[k] = self.ids("skill", x, kp, len(base[k]))
                out["n_skill_stack"] = len(x)
            elif k == "tactic":
                out[k] = self.N.idx("tactic", x, kp, optional=True)
            elif k == "tactic_cards":
                out[k] = self.ids("card", x, kp, len(base[k]))
                out["n_tactic_cards"] = len(x)
            elif k == "set_aside":
                out[k] = self.ids("card", x, kp, len(base[k]))
                out["n_set_aside"] = len(x)
            elif k == "stolen_die":
                out[k] = self.N.idx("colour", x, kp, optional=True)
            elif k == "fame":
                out[k] = _int(x, kp, 0, 32767)
            elif k == "reputation":
                out[k] = _int(x, kp, *REPUTATION_RANGE)
            elif k == "level":
                out[k] = _int(x, kp, *LEVEL_RANGE)
            elif k == "position":
                if isinstance(x, (list, tuple)):
                    self.positions.append((out, x, kp))
                else:
                    out[k] = _int(x, kp, -1, 32767)
                    self.positions.append((out, None, kp))
            elif k in base and k not in _PLAYER_COUNTS:
                out[k] = x
            else:
                raise FixtureError(f"{kp}: unknown key")
        if self.version >= 2:
            self.derive_level(out, base)
        return out

    def derive_level(self, out: dict, base: dict) -> None:
        """Format 2: the level follows from Fame unless written (13.6.2, levels.toml); a
        level written without Fame brings the least Fame of that level (unless the Fame kept
        already reaches exactly it); either way the Command tokens are the level's unless
        written (13.6.3)."""
        if "level" not in out and "fame" in out:
            out["level"] = level_for_fame(self.core.tables, out["fame"])
        elif "level" in out and "fame" not in out:
            if level_for_fame(self.core.tables, base["fame"]) != out["level"]:
                out["fame"] = int(self.core.tables.levels[out["level"] - 1][0])
        if "level" in out and "command_tokens" not in out:
            out["command_tokens"] = int(self.core.tables.levels[out["level"] - 1][3])

    def units(self, v: Any, path: str, base: list) -> list:
        """Units in slots 0, 1, ... (or in the slot a unit names with ``slot``)."""
        v = _list(v, path, len(base))
        empty = {k: (-1 if k in ("card", "banner") else 0) for k in base[0]}
        out = [dict(empty) for _ in base]
        used: set = set()
        for i, u in enumerate(v):
            up = f"{path}[{i}]"
            u = _table(u, up)
            if "unit" not in u:
                raise FixtureError(f"{up}: a unit needs 'unit' (its id)")
            slot = dict(empty, ready=1)        # a unit given without 'ready' is ready (7.2.3)
            at = _int(u["slot"], _key(up, "slot"), 0, len(base) - 1) if "slot" in u else i
            if at in used:
                raise FixtureError(f"{_key(up, 'slot')}: slot {at} holds another unit already")
            used.add(at)
            for k, x in u.items():
                kp = _key(up, k)
                if k == "unit":
                    slot["card"] = self.N.idx("unit", x, kp)
                elif k == "slot":
                    continue
                elif k == "banner":
                    slot[k] = self.N.idx("card", x, kp, optional=True)
                elif k == "wounds":
                    slot[k] = _int(x, kp, *UNIT_WOUNDS)
                elif k in empty and k != "card":
                    slot[k] = x
                else:
                    raise FixtureError(f"{kp}: unknown key")
            out[at] = slot
        return out

    def dummy(self, v: Any, path: str) -> dict:
        v = _table(v, path)
        base = self.base["dummy"]
        out: dict = {}
        for k, x in v.items():
            kp = _key(path, k)
            if k == "hero":
                out[k] = self.N.idx("hero", x, kp, optional=True)
            elif k == "crystals":
                out[k] = self.colour_counts(x, kp, _fx.BASIC_COLOURS, 127)    # no limit (18.4.4)
            elif k in ("deck", "discard"):
                out[k] = self.ids("card", x, kp, len(base[k]), cap=len(base[k]) - 1)
                out[_COUNT[k]] = len(x)
            elif k == "skill_stack":
                out[k] = self.ids("skill", x, kp, len(base[k]))
                out["n_skill_stack"] = len(x)
            elif k == "tactic":
                out[k] = self.N.idx("tactic", x, kp, optional=True)
            elif k in base and k not in ("n_deck", "n_discard", "n_skill_stack"):
                out[k] = x
            else:
                raise FixtureError(f"{kp}: unknown key")
        return out

    def turn(self, v: Any, path: str) -> dict:
        v = _table(v, path)
        base = self.base["turn"]
        out: dict = {}
        for k, x in v.items():
            kp = _key(path, k)
            if k == "mana_tokens":
                out[k] = self.colour_counts(x, kp, _fx.MANA_COLOURS, 127)
            elif k in LEGACY_TURN_MODS:
                self.legacy_mods += self.legacy_turn_mods(k, x, kp)
            elif k in LEGACY_TURN_FIELDS or k in _LEGACY_GIVERS or k in _LEGACY_LEARNING or k in _LEGACY_FOURTH:
                self.legacy_fields[k] = (x, kp)       # read together in merge_legacy_mods
            elif k == "mod_live":
                raise FixtureError(f"{kp}: derived from turn.mods (the kinds of its live entries), not written")
            elif k == "path":
                x = _list(x, kp, len(base[k]))
                out[k] = [_int(h, f"{kp}[{i}]", -1, 32767) for i, h in enumerate(x)] + [-1] * (len(base[k]) - len(x))
                out["n_path"] = len(x)
            elif k in base and k != "n_path":
                out[k] = x
            else:
                raise FixtureError(f"{kp}: unknown key")
        return out

    def legacy_turn_mods(self, k: str, x: Any, kp: str) -> list:
        """A TurnState field that issue 12 moved into the modifier array, as written before
        the move (``terrain_delta`` ``{terrain: change}``, ``terrain_floor`` / ``terrain_set``
        a list of 8 numbers, the set cost + 1; ``terrain_open`` / ``safe`` / ``closed`` a bit
        field: a list of terrain names in format 2, a number in format 1): the turn-long
        modifiers that hold the same (LEGACY_TURN_MODS).  The same value on all 8 terrains is
        one entry for every terrain (arg 0): Path Finding's "all terrains" fits the array."""
        kind = LEGACY_TURN_MODS[k]
        if k in ("prayer_delta", "prayer_floor"):
            # Prayer of Weather's own part: the two fields are one entry (merge_legacy_mods)
            self.legacy_prayer[k] = (_int(x, kp, -128, 127) if k == "prayer_delta" else _int(x, kp, 0, 127), kp)
            return []
        if k == "terrain_delta":
            x = _table(x, kp)
            for t in x:
                self.N.idx("terrain", t, _key(kp, t))
            values = [_int(x.get(t, 0), _key(kp, t), -128, 127) for t in _fx.TERRAINS]
        elif k in ("terrain_floor", "terrain_set"):
            x = _list(x, kp, len(_fx.TERRAINS))
            values = [_int(y, f"{kp}[{i}]", 0, 127) for i, y in enumerate(x)]
            values += [0] * (len(_fx.TERRAINS) - len(values))
            if k == "terrain_set":          # the field held the cost + 1, 0 = not set
                return self._per_terrain(kp, kind, [v - 1 if v else None for v in values])
        else:
            spec = ("names", _fx.TERRAINS, 8)
            bits = _bits_in(x, spec, kp, self.N) if isinstance(x, (list, tuple)) else _int(x, kp, 0, 255)
            if bits >> len(_fx.TERRAINS):
                raise FixtureError(f"{kp}: {bits} sets a bit past the {len(_fx.TERRAINS)} terrains")
            return [(kp, kind, 1, t + 1, "turn") for t in range(len(_fx.TERRAINS)) if bits >> t & 1]
        return self._per_terrain(kp, kind, [v or None for v in values])

    @staticmethod
    def _per_terrain(kp: str, kind: str, values: list) -> list:
        """One entry per terrain with a value (None = none), or one for all (arg 0)."""
        if values[0] is not None and all(v == values[0] for v in values):
            return [(kp, kind, values[0], 0, "turn")]
        return [(kp, kind, v, t + 1, "turn") for t, v in enumerate(values) if v is not None]

    def merge_legacy_mods(self) -> None:
        """Append the modifiers of legacy_turn_mods to turn.mods (after the live ones the
        fixture wrote), owned by the player whose turn it is.  ``prayer_delta`` and
        ``prayer_floor`` are one ``weather_own`` entry (value the change, arg the floor; none
        when both are 0)."""
        if any(v for v, _ in self.legacy_prayer.values()):
            d, f = self.legacy_prayer.get("prayer_delta", (0, "")), self.legacy_prayer.get("prayer_floor", (0, ""))
            self.legacy_mods.append((d[1] or f[1], "weather_own", d[0], f[0], "turn"))
        self.legacy_mods += _third_move_mods(self.legacy_fields)
        combat = self.patch.get("combat")
        n_enemies = combat.get("n_enemies") if isinstance(combat, dict) else None
        n_enemies = self.base["combat"]["n_enemies"] if not isinstance(n_enemies, int) else n_enemies
        self.legacy_mods += _fourth_move_mods(self.legacy_fields, n_enemies)
        if not self.legacy_mods:
            return
        turn = self.patch.setdefault("turn", {})
        base = self.base["turn"]
        mods = turn.get("mods", base["mods"])
        if not isinstance(mods, list):
            raise FixtureError(f"turn.mods: expected a list of modifier tables, got {_short(mods)}")
        mods = [dict(m) if isinstance(m, dict) else m for m in mods]
        mods += [{"kind": 0, "scope": 0, "value": 0, "arg": 0, "source": 0, "owner": 0}] * (MAX_MODS - len(mods))
        n = turn.get("n_mods", base["n_mods"])
        # owned by the player whose turn it is (a question may be put to another seat)
        owner = self.patch.get("turn_player", self.base["turn_player"])
        for kp, kind, value, arg, scope in self.legacy_mods:
            if not isinstance(n, int) or n >= MAX_MODS:
                raise FixtureError(f"{kp}: the modifier array turn.mods is full ({MAX_MODS} entries)")
            mods[n] = {"kind": MOD_KINDS.index(kind), "scope": MOD_SCOPES.index(scope), "value": value,
                       "arg": arg, "source": -1, "owner": owner}
            n += 1
        turn["mods"] = mods
        turn["n_mods"] = n

    def combat(self, v: Any, path: str) -> dict:
        v = _table(v, path)
        base = self.base["combat"]
        out: dict = neutral_combat(base, v) if self.version >= 2 else {}
        for k, x in v.items():
            kp = _key(path, k)
            if k == "enemies":
                x = _list(x, kp, len(base[k]))
                enemies = []
                for i, e in enumerate(x):
                    ep = f"{kp}[{i}]"
                    e = _table(e, ep)
                    # format 2: a slot written is one enemy, whole (neutral where left out)
                    slot: dict = _neutral_slot(base[k][i]) if self.version >= 2 else {}
                    for kk, y in e.items():
                        if kk == "enemy":
                            slot[kk] = self.N.idx("enemy", y, _key(ep, kk), optional=True)
                        elif kk in base[k][i]:
                            slot[kk] = y
                        else:
                            raise FixtureError(f"{_key(ep, kk)}: unknown key")
                    if "enemy" in e and "hex" not in e:
                        slot["hex"] = -1           # drawn for this combat unless a hex is given
                    if "token" not in e and slot.get("enemy", -1) >= 0:
                        # an enemy given by id only: take a token of it from its pile
                        self.allocations.append((slot["enemy"], ep, lambda t, s=slot: s.__setitem__("token", t)))
                    enemies.append(slot)
                if self.version >= 2:       # the slots after those written are empty
                    enemies += [_neutral_slot(base[k][0]) for _ in range(len(base[k]) - len(enemies))]
                out[k] = enemies
                if "n_enemies" not in v:
                    out["n_enemies"] = len(x)
            elif k in base:
                out[k] = x
            else:
                raise FixtureError(f"{kp}: unknown key")
        return out

    def hex(self, v: Any, path: str, h: int, placed: dict) -> dict:
        """One hex; ``placed`` is its raw state after the tiles were placed."""
        v = _table(v, path)
        out: dict = {}
        for k, x in v.items():
            kp = _key(path, k)
            if k in ("index", "q", "r", "tile", "neighbours", "tokens_face_up", "ruins_face_up"):
                want = {"index": h, "neighbours": placed["neighbour"],
                        "tokens_face_up": bool(placed["flags"] & 4), "ruins_face_up": bool(placed["flags"] & 8)
                        }.get(k, placed.get(k))
                if k in ("tokens_face_up", "ruins_face_up"):
                    self.face_up.append((h, k, x, kp))
                elif x != want:
                    raise FixtureError(f"{kp}: is {want!r} on this map ({k} follows from the tiles and "
                                       f"their positions; it cannot be set)")
            elif k == "terrain":
                out[k] = self.N.idx("terrain", x, kp)
            elif k == "site":
                out[k] = self.N.idx("site", x, kp, optional=True)
            elif k == "colours":
                out[k] = sum(1 << self.N.idx("basic colour", c, f"{kp}[{i}]")
                             for i, c in enumerate(_list(x, kp, 4)))
            elif k == "owner":
                out[k] = -1 if x in NONE_WORDS else _int(x, kp, -1, 3)
            elif k == "flags":
                if isinstance(x, int):
                    out[k] = _int(x, kp, 0, 255)
                else:
                    bits = 0
                    for i, f in enumerate(_list(x, kp, 8)):
                        if isinstance(f, int) and not isinstance(f, bool):
                            bits |= _int(f, f"{kp}[{i}]", 1, 128)
                        elif f in HEX_FLAG_NAMES:
                            bits |= 1 << HEX_FLAG_NAMES.index(f)
                        else:
                            raise FixtureError(f"{kp}[{i}]: unknown hex flag {_short(f)} (one of {', '.join(HEX_FLAG_NAMES)})")
                    out[k] = bits
            elif k == "tokens":
                x = _list(x, kp, len(placed["tokens"]))
                toks = [-1] * len(placed["tokens"])
                for i, t in enumerate(x):
                    self.token(t, f"{kp}[{i}]", lambda n, i=i: toks.__setitem__(i, n), self.token_enemy)
                out[k] = toks
                out["n_tokens"] = len(x)
            elif k == "ruins":
                out[k] = self.N.idx("ruins token", x, kp, optional=True)
            elif k in placed and k not in ("neighbour", "n_tokens"):
                out[k] = x
            else:
                raise FixtureError(f"{kp}: unknown key")
        return out

    def token_enemy(self) -> list:
        return self.patch.get("token_enemy", self.base["token_enemy"])

    def map(self, v: Any, path: str) -> None:
        v = _table(v, path)
        su = self.core.setup
        for k in v:
            if k not in ("shape", "tiles", "n_hexes", "core_revealed", "hexes"):
                raise FixtureError(f"{_key(path, k)}: unknown key")
        if "shape" in v and v["shape"] != su.shape_id:
            raise FixtureError(f"{_key(path, 'shape')}: the scenario's map shape is {su.shape_id!r}, not {_short(v['shape'])}")
        hex_entries: dict = {}
        if "tiles" in v:
            tp = _key(path, "tiles")
            tiles = _list(v["tiles"], tp, len(self.base["tiles"]))
            self.core.clear_map()
            extra: list = []
            for k, tl in enumerate(tiles):
                kp = f"{tp}[{k}]"
                tl = _table(tl, kp)
                for kk in tl:
                    if kk not in ("tile", "position", "first_hex", "hexes") and kk not in self.base["tiles"][0]:
                        raise FixtureError(f"{_key(kp, kk)}: unknown key")
                    if kk in ("content", "a", "b"):
                        raise FixtureError(f"{_key(kp, kk)}: unknown key")
                if "tile" not in tl or "position" not in tl:
                    raise FixtureError(f"{kp}: a tile needs 'tile' (its id) and 'position' ([a, b])")
                t = self.N.idx("tile", tl["tile"], _key(kp, "tile"))
                pos = _list(tl["position"], _key(kp, "position"), 2)
                if len(pos) != 2:
                    raise FixtureError(f"{_key(kp, 'position')}: expected [a, b], got {_short(tl['position'])}")
                a = _int(pos[0], f"{_key(kp, 'position')}[0]", -64, 63)
                b = _int(pos[1], f"{_key(kp, 'position')}[1]", -64, 63)
                try:
                    slot = self.core.place_tile(t, a, b)
                except FixtureError as err:
                    raise FixtureError(f"{kp}: {err}") from None
                extra.append({kk: x for kk, x in tl.items() if kk not in ("tile", "position", "hexes")})
                if "hexes" in tl:
                    hp = _key(kp, "hexes")
                    for j, hx in enumerate(_list(tl["hexes"], hp, 7)):
                        hex_entries[slot * 7 + j] = (hx, f"{hp}[{j}]")
            placed = self.core.raw_dict()
            for k, e in enumerate(extra):
                for kk, x in e.items():
                    if x != placed["tiles"][k][kk]:
                        raise FixtureError(f"{tp}[{k}].{kk}: is {placed['tiles'][k][kk]!r} on this map "
                                           f"(it follows from the tile order)")
            self.base = dict(self.base, tiles=placed["tiles"], hexes=placed["hexes"],
                             n_tiles=placed["n_tiles"], n_hexes=placed["n_hexes"])
            self.patch["tiles"] = placed["tiles"]
            self.patch["n_tiles"] = placed["n_tiles"]
            self.patch["hexes"] = placed["hexes"]
            self.patch["n_hexes"] = placed["n_hexes"]
        if "hexes" in v:      # patches by hex index: {"12": {...}}
            hp = _key(path, "hexes")
            for hk, hx in _table(v["hexes"], hp).items():
                try:
                    h = int(hk)
                except (TypeError, ValueError):
                    raise FixtureError(f"{_key(hp, hk)}: a hex is named by its index (a whole number)") from None
                if not 0 <= h < self.base["n_hexes"]:
                    raise FixtureError(f"{_key(hp, hk)}: no hex {h} on this map (0 .. {self.base['n_hexes'] - 1})")
                hex_entries[h] = (hx, _key(hp, hk))
        n_hexes = self.base["n_hexes"]
        if "n_hexes" in v and v["n_hexes"] != n_hexes:
            raise FixtureError(f"{_key(path, 'n_hexes')}: is {n_hexes} on this map (it follows from the tiles)")
        if "core_revealed" in v:
            self.patch["core_revealed"] = v["core_revealed"]
        if hex_entries:
            hexes = [dict(h) for h in self.patch.get("hexes", self.base["hexes"])]
            for h, (hx, hp) in hex_entries.items():
                hexes[h].update(self.hex(hx, hp, h, self.base["hexes"][h]))
            self.patch["hexes"] = hexes

    def piles(self, v: Any, path: str, key: str, count: str) -> None:
        v = _table(v, path)
        piles = [list(p) for p in self.patch.get(key, self.base[key])]
        counts = list(self.patch.get(count, self.base[count]))
        for c, entries in v.items():
            ci = self.N.idx("pile colour", c, _key(path, c))
            cp = _key(path, c)
            entries = _list(entries, cp, len(piles[ci]))
            pile = [-1] * len(piles[ci])
            for i, e in enumerate(entries):
                if isinstance(e, str) or (isinstance(e, dict) and "token" not in e):
                    raise FixtureError(f"{cp}[{i}]: a token in a pile needs its instance number ('token')")
                self.token(e, f"{cp}[{i}]", lambda n, i=i: pile.__setitem__(i, n), self.token_enemy)
            piles[ci] = pile
            counts[ci] = len(entries)
        self.patch[key] = piles
        self.patch[count] = counts

    # -- whole fixture ---------------------------------------------------------------

    def load(self, d: dict) -> None:
        N = self.N
        base = self.base
        self.checks: list = []
        self.face_up: list = []
        order = sorted(d, key=lambda k: {"token_enemy": 0, "map": 1, "enemy_piles": 2, "enemy_discards": 2}.get(k, 3))
        for k in order:
            x = d[k]
            if k in HEADER_KEYS:
                continue
            if k in ("seed", "game_index"):
                self.patch[k] = _int(x, k, 0, (1 << 64) - 1)
            if k in ("time", "phase", "termination"):
                self.patch[k] = N.idx(k, x, k)
            elif k == "end_announced_by":
                self.patch[k] = -1 if x in NONE_WORDS else _int(x, k, 0, 127)
            elif k == "round":
                self.patch[k] = _int(x, k, 1, 127)
            elif k == "players":
                n = base["n_players"]
                x = _list(x, k, n)
                self.patch[k] = [self.player(p, f"players[{i}]", i) for i, p in enumerate(x)]
            elif k == "dummy":
                self.patch[k] = self.dummy(x, k)
            elif k == "turn":
                self.patch[k] = self.turn(x, k)
            elif k == "combat":
                self.patch[k] = self.combat(x, k)
            elif k == "map":
                self.map(x, k)
            elif k == "tile_stack":
                self.patch[k] = self.ids("tile", x, k, len(base[k]))
                self.patch["n_tile_stack"] = len(x)
            elif k == "token_enemy":
                self.patch[k] = self.ids("enemy", x, k, len(base[k]), optional=True)
            elif k == "enemy_piles":
                self.piles(x, k, "piles", "n_pile")
            elif k == "enemy_discards":
                self.piles(x, k, "pile_discard", "n_pile_discard")
            elif k == "ruins_pile":
                self.patch[k] = self.ids("ruins token", x, k, len(base[k]))
                self.patch["n_ruins_pile"] = len(x)
            elif k == "source":
                x = _table(x, k)
                for kk in x:
                    if kk not in ("dice", "taken"):
                        raise FixtureError(f"{_key(k, kk)}: unknown key")
                if "dice" in x:
                    self.patch["dice"] = self.ids("colour", x["dice"], "source.dice", len(base["dice"]))
                    self.patch["n_dice"] = len(x["dice"])
                if "taken" in x:
                    self.patch["dice_taken"] = x["taken"]
            elif k == "unit_offer":
                x = _list(x, k, len(base[k]))
                offer = []
                for i, u in enumerate(x):
                    up = f"{k}[{i}]"
                    if isinstance(u, dict) and len(u) == 1 and "advanced_action" in u:
                        offer.append(-N.idx("card", u["advanced_action"], _key(up, "advanced_action")) - 1)
                    elif isinstance(u, dict) and len(u) == 1 and "unit" in u:
                        offer.append(N.idx("unit", u["unit"], _key(up, "unit")))
                    elif isinstance(u, str):
                        offer.append(N.idx("unit", u, up))
                    else:
                        raise FixtureError(f"{up}: expected a unit id, {{unit = id}} or {{advanced_action = id}}")
                self.patch[k] = offer + [-1] * (len(base[k]) - len(x))
                self.patch["n_unit_offer"] = len(x)
            elif k in ("advanced_action_offer", "spell_offer"):
                raw = {"advanced_action_offer": "aa_offer"}.get(k, k)
                self.patch[raw] = self.ids("card", x, k, len(base[raw]), optional=True)
            elif k in ("advanced_action_deck", "spell_deck", "artifact_deck", "regular_units", "elite_units"):
                raw = {"advanced_action_deck": "aa_deck"}.get(k, k)
                self.patch[raw] = self.ids(_DECKS[raw], x, k, len(base[raw]))
                self.patch[_COUNT[raw]] = len(x)
            elif k == "skill_offer":
                self.patch[k] = self.ids("skill", x, k, len(base[k]))
                self.patch["n_skill_offer"] = len(x)
            elif k in ("tactics_available", "tactics_removed"):
                self.patch[k] = self.ids("tactic", x, k, len(base[k]), optional=True)
            elif k in base and k not in _TOP_CONSUMED and k not in _NAMED_RAW:
                if k == "n_players" and x != base[k] and base[k] == 1:
                    raise FixtureError(f"{k}: only solo games ({base[k]} player) are supported (18)")
                if k == "n_players" and x != base[k]:
                    raise FixtureError(f"{k}: {_short(x)}, but the game seats {base[k]} heroes "
                                       f"(Game(heroes=...) sets the players)")
                self.patch[k] = x
            else:
                raise FixtureError(f"{k}: unknown key")
        self.merge_legacy_mods()
        self._positions()
        self._allocate()
        self._check_tokens()
        if self.version >= 2:
            self._take_tactics(d)

    def _take_tactics(self, d: dict) -> None:
        """A tactic the fixture gives a player (or the dummy) is taken: it leaves the offer
        (3.1.1) and, in a solo game, the game (17.3.4, as the engine records it), unless the
        fixture writes ``tactics_available`` / ``tactics_removed`` itself (then a tactic on
        offer and held is refused by the check by meaning)."""
        taken = [p["tactic"] for p in self.patch.get("players", []) if p.get("tactic", -1) >= 0]
        if self.patch.get("dummy", {}).get("tactic", -1) >= 0:
            taken.append(self.patch["dummy"]["tactic"])
        if not taken:
            return
        if "tactics_available" not in d:
            offer = list(self.base["tactics_available"])
            self.patch["tactics_available"] = [-1 if t in taken else t for t in offer]
        if "tactics_removed" not in d and self.base["has_dummy"]:
            removed = list(self.patch.get("tactics_removed", self.base["tactics_removed"]))
            for t in taken:
                if t not in removed and -1 in removed:
                    removed[removed.index(-1)] = t
            self.patch["tactics_removed"] = removed

    def _positions(self) -> None:
        hexes = self.patch.get("hexes", self.base["hexes"])
        n = self.base["n_hexes"]
        for out, x, kp in self.positions:
            if x is None:
                if out["position"] >= n:
                    raise FixtureError(f"{kp}: no hex {out['position']} on this map (0 .. {n - 1}, or -1 = off the map)")
                continue
            if len(x) != 2:
                raise FixtureError(f"{kp}: expected a hex index or [q, r], got {_short(x)}")
            q, r = _int(x[0], f"{kp}[0]", -999, 999), _int(x[1], f"{kp}[1]", -999, 999)
            at = [h for h in range(n) if hexes[h]["q"] == q and hexes[h]["r"] == r]
            if not at:
                raise FixtureError(f"{kp}: no hex at (q, r) = ({q}, {r}) on this map")
            out["position"] = at[0]

    def _allocate(self) -> None:
        """Tokens given by enemy id: take an instance of that enemy from its pile (or its
        discards), so that no token is in two places (1.2.2)."""
        if not self.allocations:
            return
        te = self.token_enemy()
        piles = [list(p) for p in self.patch.get("piles", self.base["piles"])]
        n_pile = list(self.patch.get("n_pile", self.base["n_pile"]))
        disc = [list(p) for p in self.patch.get("pile_discard", self.base["pile_discard"])]
        n_disc = list(self.patch.get("n_pile_discard", self.base["n_pile_discard"]))
        for e, path, put in self.allocations:
            c = self.N.enemy_colour[e]
            for pile, counts in ((piles, n_pile), (disc, n_disc)):
                live = pile[c][:counts[c]]
                hits = [i for i, t in enumerate(live) if 0 <= t < len(te) and te[t] == e]
                if hits:
                    t = live.pop(hits[-1])             # the topmost such token
                    pile[c] = live + [-1] * (len(pile[c]) - len(live))
                    counts[c] -= 1
                    put(t)
                    break
            else:
                raise FixtureError(f"{path}: no {self.N.name('enemy', e)!r} token is left in the "
                                   f"{_ct.ENEMY_COLOURS[c]} pile or its discards")
        self.patch.update(piles=piles, n_pile=n_pile, pile_discard=disc, n_pile_discard=n_disc)

    def _check_tokens(self) -> None:
        te = self.token_enemy()
        for t, e, path, _ in self.checks:
            if te[t] != e:
                raise FixtureError(f"{path}: token {t} is {self.N.name('enemy', te[t])!r}, not "
                                   f"{self.N.name('enemy', e)!r} (see token_enemy)")
        hexes = self.patch.get("hexes", self.base["hexes"])
        for h, k, x, kp in self.face_up:
            flags = hexes[h]["flags"]
            want = bool(flags & (4 if k == "tokens_face_up" else 8))
            if bool(x) != want:
                raise FixtureError(f"{kp}: is {want} here ({k} follows from 'flags': add or remove "
                                   f"{'tokens_revealed' if k == 'tokens_face_up' else 'ruins_revealed'})")


def level_for_fame(tables, fame: int) -> int:
    """The level a hero of ``fame`` Fame has reached (13.6.2: levels.toml thresholds)."""
    return max(1, sum(1 for row in tables.levels if fame >= row[0]))


#: Format 2: what a combat field the fixture leaves out holds when it writes ``combat``
#: (a combat just begun, before any decision: combat_begin and clear_pools of
#: ext/_combat.pyx); fields not named here are 0.  ``active`` is 1 when enemies are written.
NEUTRAL_COMBAT = {"site_hex": -1, "units_allowed": 1, "block_target": -1, "dmg_slot": -1,
                  "from_hex": -1}
#: ... and an enemy slot (reset_slot of ext/_combat.pyx): nothing blocked, no damage
#: assigned, drawn for this combat (hex -1); fields not named here are 0.
NEUTRAL_ENEMY_SLOT = {"token": -1, "enemy": -1, "summoned_by": -1, "hex": -1}


def _zeroed(x):
    if isinstance(x, dict):
        return {k: _zeroed(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_zeroed(v) for v in x]
    return 0


def _neutral_slot(base_slot: dict) -> dict:
    return dict(_zeroed(base_slot), **NEUTRAL_ENEMY_SLOT)


def neutral_combat(base: dict, v: dict) -> dict:
    """The neutral combat a format 2 fixture's ``combat`` table is written over."""
    out = {k: x for k, x in _zeroed(base).items() if k != "enemies"}
    out.update(NEUTRAL_COMBAT)
    enemies = v.get("enemies")
    out["active"] = 1 if isinstance(enemies, list) and enemies else 0
    out["enemies"] = [_neutral_slot(base["enemies"][0]) for _ in base["enemies"]]
    return out


# raw top-level fields that only appear under their names (never as raw keys in a fixture)
_NAMED_RAW = {"scenario", "tiles", "piles", "pile_discard", "dice", "aa_offer", "aa_deck"}


def _check_format(d: Any) -> int:
    if not isinstance(d, dict):
        raise FixtureError(f"fixture: expected a table of keys, got {type(d).__name__}")
    _check_depth(d)
    if "format" not in d:
        raise FixtureError(f"format: missing (write \"format\": {FORMAT} at the top of the fixture)")
    f = d["format"]
    if isinstance(f, bool) or not isinstance(f, int):
        raise FixtureError(f"format: expected a whole number, got {_short(f)}")
    if f not in FORMATS:
        raise FixtureError(f"format: version {f} is not supported (this mksim reads formats "
                           f"{', '.join(map(str, FORMATS))})")
    return f


def fixture_game_args(d: Any) -> dict:
    """Scenario, hero and lost_legion of a fixture (the :class:`mksim.game.Game` it needs).

    ``scenario`` and ``hero`` are required here (``Game.state_from_dict`` takes them from
    the Game instead)."""
    _check_format(d)
    for k in ("scenario", "hero"):
        if k not in d:
            raise FixtureError(f"{k}: missing (a fixture file names its scenario and hero)")
        if not isinstance(d[k], str):
            raise FixtureError(f"{k}: expected an id, got {_short(d[k])}")
    ll = d.get("lost_legion", False)
    if not isinstance(ll, bool):
        raise FixtureError(f"lost_legion: expected true or false, got {_short(ll)}")
    out = {"scenario": d["scenario"], "hero": d["hero"], "lost_legion": ll}
    if "heroes" in d:
        hs = d["heroes"]
        if not isinstance(hs, list) or not hs or not all(isinstance(h, str) for h in hs):
            raise FixtureError(f"heroes: expected a list of hero ids, got {_short(hs)}")
        out["heroes"] = hs
    return out


def _check_header(setup, d: dict) -> None:
    """The fixture's scenario / hero / lost_legion, if given, are those of the setup."""
    from .game import normalize_id
    for k, want in (("scenario", setup.scenario_id), ("hero", setup.hero_id)):
        if k in d:
            if not isinstance(d[k], str):
                raise FixtureError(f"{k}: expected an id, got {_short(d[k])}")
            if normalize_id(d[k]) != want:
                raise FixtureError(f"{k}: the fixture is for {_short(d[k])}, the game is {want!r}")
    if "heroes" in d:
        hs = d["heroes"]
        if not isinstance(hs, list) or not all(isinstance(h, str) for h in hs):
            raise FixtureError(f"heroes: expected a list of hero ids, got {_short(hs)}")
        if [normalize_id(h) for h in hs] != list(setup.seat_hero_ids):
            raise FixtureError(f"heroes: the fixture is for {_short(hs)}, the game is "
                               f"{list(setup.seat_hero_ids)!r}")
    if "lost_legion" in d:
        if not isinstance(d["lost_legion"], bool):
            raise FixtureError(f"lost_legion: expected true or false, got {_short(d['lost_legion'])}")
        if d["lost_legion"] is not bool(setup.lost_legion):
            raise FixtureError(f"lost_legion: the fixture says {_short(d['lost_legion'])}, the game "
                               f"{bool(setup.lost_legion)!r}")


def apply_fixture(core, d: Any, engine=None) -> None:
    """Write the fixture ``d`` over the state of ``core`` (``GameCore.load_dict``): the keys
    it gives replace the core's values, the others are kept.  Nothing is written when
    ``d`` has a mistake (FixtureError): a wrong id, type or range, or a position no game
    can reach (:func:`validate`; with ``engine``, also one without a legal action)."""
    version = _check_format(d)
    _check_header(core.setup, d)
    before = core.state_bytes()
    loader = _Loader(core, version)
    try:
        if version == 2:
            d = _bit_fields_in(d, loader.N)
        loader.load(d)
        core.set_raw(loader.patch)
        if version >= 2:
            _take_cards(core, d, loader.N)
        validate(core, engine, version)
    except FixtureError:
        core.set_state_bytes(before)  # undo the map laid by the loader and every field written
        raise


def state_from_dict(game, d: Any):
    """A :class:`mksim.game.State` of ``game`` at the position ``d`` (see the module doc)."""
    _check_format(d)
    _check_header(game.setup, d)
    seed = _int(d.get("seed", 0), "seed", 0, (1 << 64) - 1)
    index = _int(d.get("game_index", 0), "game_index", 0, (1 << 64) - 1)
    state = game.new_state(seed, index)
    apply_fixture(state.core, d, state.engine)
    return state


def load_fixture_file(path: Union[str, Path]) -> dict:
    """Read a fixture file (.json, or .toml) into a dict; FixtureError when unreadable, not
    UTF-8 text, not valid JSON / TOML, or nested deeper than a fixture can be."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as err:
        raise FixtureError(f"cannot read the file ({err.strerror or err})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FixtureError(f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start})") from None
    kind = "TOML" if p.suffix.lower() == ".toml" else "JSON"
    try:
        if kind == "TOML":
            import tomllib
            d = tomllib.loads(text)
        else:
            d = json.loads(text)
    except RecursionError:
        raise FixtureError(f"not a fixture: the {kind} is nested far deeper than a fixture "
                           f"({MAX_DEPTH} levels at most)") from None
    except ValueError as err:          # JSONDecodeError, TOMLDecodeError, a number too long
        raise FixtureError(f"not valid {kind}: {_short(str(err), 200)}") from None
    _check_depth(d)
    return d


def _short(x: Any, n: int = 60) -> str:
    """``x`` for a message: its repr (a string as it is), cut to about ``n`` characters."""
    try:
        text = x if isinstance(x, str) and n > 60 else repr(x)
    except RecursionError:
        text = f"<a {type(x).__name__} nested too deep>"
    return text if len(text) <= n else text[:n - 3] + "..."


def _check_depth(d: Any) -> None:
    """Refuse tables and lists nested deeper than a fixture is (MAX_DEPTH levels), without
    recursing, so that no message or later step meets a RecursionError."""
    stack = [(d, "", 0)]
    while stack:
        x, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FixtureError(f"{path or 'fixture'}: nested more than {MAX_DEPTH} levels deep "
                               f"(a fixture's keys go a few levels down)")
        if isinstance(x, dict):
            stack.extend((v, _key(path, k), depth + 1) for k, v in x.items())
        elif isinstance(x, (list, tuple)):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(x))


# ---------------------------------------------------------------------------------------
# validation by meaning (after the fields are written: the whole position is checked)
# ---------------------------------------------------------------------------------------

MAX_PLAYERS = 4             # ext/_types.pxd: the dummy acts as player MAX_PLAYERS
MAX_UNITS = 6
MAX_TOKENS = 128
MAX_DICE = 8
MAX_SKILLS = 8
PH = {name: i for i, name in enumerate(PHASE_NAMES)}
COMBAT_PHASES = (PH["combat_ranged"], PH["combat_block"], PH["combat_damage"], PH["combat_attack"])
N_ASKS = 13                 # ASK_NONE .. ASK_PAYMENT (ext/_engine.pxd)
N_END_STAGES = 7            # END_NONE .. END_REWARDS (ext/_engine.pyx, _engine.pxd)
N_COMBAT_REASONS = 4        # CK_RAMPAGING .. CK_BURN (ext/_engine_combat.pxi)
_OPS = [op.name for op in _fx.OPS]

# What each numeric field of the turn, combat and player structs may hold, by meaning (the
# comments of ext/_types.pxd).  A rule is (lo, hi) where either bound may name a size of
# the position (see _Sizes); a field not listed here keeps the range of its C type (a
# field added later is range-checked that way until it is listed).
FLAG = (0, 1)
_TURN_RULES = {
    "move_points": (0, 32767), "healing": (0, 32767), "dice_used": (0, "dice"),
    "extra_dice": (0, MAX_DICE), "action_taken": FLAG, "moved": FLAG, "played_card": FLAG,
    "reward_choice": (0, 2), "pending_choice": (-1, "row"),
    "end_stage": (0, N_END_STAGES - 1), "levels_pending": (0, 9), "rest_mode": (0, 2),
    "discarded_end": (0, 255), "handler_row": (-1, "row"), "handler_stage": (0, 127),
    "ask": (0, N_ASKS - 1), "hand_limit_bonus": (0, 127), "extra_turn": FLAG, "stolen_used": FLAG,
    "dice_kept": (0, (1 << MAX_DICE) - 1), "black_any": FLAG,
    "overload_bonus": (0, 127), "overload_card": (-1, "card"), "crystal_joy": (0, 2), "crystal_joy_card": (-1, "card"),
    "crystals_spent": (0, 3),
    "agility_melee": (0, 127), "agility_ranged": (0, 127),
    "steady_tempo": (0, 2),
    "steady_tempo_card": (-1, "card"), "heat_window": FLAG,
    "ring_fame": (0, 15),
    "phase_defeated": (0, (1 << 12) - 1),
    "wounds_healed": (0, 127),
    "glory_units": (0, 63),
    "fortitude_unit": (0, MAX_UNITS), "wounds_to_hand": (0, 32767),
    "wounds_to_discard": (0, 32767), "soul_one": (0, 127), "soul_all": FLAG,
    "soul_row": (0, "row1"), "soul_slots": (0, (1 << 12) - 1), "split_left": (0, 127), "split_n": (0, 127),
    "split_el": (0, 3), "bow_done_r": (0, 32767), "bow_done_s": (0, 32767),
    "circlet_skill": (0, "skill1"), "circlet_uses": (0, 127), "command_card": (0, "card1"),
    "recruited_units": (0, 63), "plundered": FLAG,
    "recruited": FLAG,
    "duel_slot": (0, "enemy1"), "duel_units": FLAG,
    "duel_attack": (0, 127), "duel_fame": (0, 127), "duel_block": (0, 127), "duel_pool_units": FLAG,
    "polar_nospell": (0, 6),
    "peaceful": (0, 2), "peaceful_heal_cost": (0, 127),
    "peaceful_ready_cost": (0, 127), "portal_used": FLAG, "maximal_left": (0, 127), "maximal_row": (0, "row1"),
    "maximal_self": (0, "row1"),
    "time_bending": (0, "card1"),
    "recruit_mode": (0, 2), "recon_token": (0, "token1"),
    "recon_fame": (0, 127), "draw_fire_slot": (0, "enemy1"),
    "draw_fire_attack": (0, 2), "draw_fire_unit": (0, MAX_UNITS - 1), "glade_recruit": FLAG,
}
_COMBAT_RULES = {
    "active": FLAG, "site_hex": (-1, "hex"), "night_rules": FLAG, "units_allowed": FLAG,
    "n_enemies": (0, 12), "targets": (0, "enemy_bits"), "attack": (0, 32767), "block": (0, 32767),
    "block_target": (-1, "enemy"), "dmg_slot": (-1, "enemy"), "dmg_attack": (0, 2), "dmg_left": (0, 32767),
    "reason": (0, N_COMBAT_REASONS - 1), "from_hex": (-1, "hex"), "possess_lock": (0, "enemy1"),
}
_ENEMY_RULES = {
    "token": (-1, MAX_TOKENS - 1), "summoned_by": (-1, "enemy"), "hex": (-1, "hex"), "blocked": (0, 7),
    "damaged": (0, 7), "element_set": (0, 4), "lost_resistances": (0, 7), "res_lost": (0, 7),
    "unit_fx": (0, 3),
}
_PLAYER_RULES = {
    "command_tokens": (0, MAX_UNITS), "removed": (0, 32767), "cards_taken": (-32767, 32767), "tactic_used": FLAG,
    "used_before_turn": FLAG, "knocked_out": FLAG, "wounds_this_combat": (0, 32767),
    "round_order": (0, 127), "claimed_die": (0, 6), "claim_per_turn": (0, 127), "banner_flipped": (0, 63),
    "banner_prep": FLAG, "motivation_lock": (0, 127), "source_freeze": (0, 2), "bonds_slot": (0, MAX_UNITS),
    "coop_due": (0, 2), "coop_slot": (0, MAX_SKILLS), "coop_mark": (0, 6),
}
_UNIT_RULES = {
    "damaged_this_combat": FLAG, "gained_res": (0, 63), "paid_combat": FLAG, "upkeep": (0, 6),
    "upkeep_due": FLAG,
}


class _Sizes:
    """The sizes the bounds of the rules above name, for one position."""

    def __init__(self, core, raw: dict) -> None:
        t = core.tables
        n_en = raw["combat"]["n_enemies"]
        self.v = {"hex": raw["n_hexes"] - 1, "card": len(t.card_ids) - 1, "card1": len(t.card_ids),
                  "row": t.effects.shape[0] - 1, "row1": t.effects.shape[0], "skill1": len(t.skill_ids),
                  "token1": MAX_TOKENS, "dice": raw["n_dice"],
                  "enemy": max(n_en, 0) - 1, "enemy1": max(n_en, 0), "enemy_bits": (1 << max(n_en, 0)) - 1}

    def __getitem__(self, b):
        return self.v[b] if isinstance(b, str) else b


def _bad(path: str, msg: str):
    raise FixtureError(f"{path}: {msg}")


def _check_rules(values: dict, rules: dict, sizes: _Sizes, path: str) -> None:
    for k, (lo, hi) in rules.items():
        if k not in values:
            continue
        lo, hi = sizes[lo], sizes[hi]
        v = values[k]
        for i, x in (enumerate(v) if isinstance(v, list) else ((None, v),)):
            if isinstance(x, list):
                for j, y in enumerate(x):
                    if not lo <= y <= hi:
                        _bad(f"{_key(path, k)}[{i}][{j}]", f"{y} is out of range ({lo} .. {hi})")
            elif not lo <= x <= hi:
                _bad(_key(path, k) + ("" if i is None else f"[{i}]"), f"{x} is out of range ({lo} .. {hi})")


#: the generic modifiers of TurnState.mods (ext/_types.pxd ModKind / ModScope; issue 12); the
#: counts are checked against the C enums by tests/test_modifiers.py
MOD_KINDS = ("none", "ignore_site_fort", "unit_attack_block", "recruit_discount", "explore_discount",
             "blocked_armor_one", "hand_limit_ends_in",
             # turn / combat-long effects of particular cards (docs/engine.md "Events and modifiers")
             "ignore_wounds", "no_unit_damage", "no_source_dice", "no_recruit", "mana_anytime",
             "endless_mana", "dice_any_basic", "crystal_return", "space_bending", "protection",
             "influence_block", "reveal_distance", "explore_range", "draw_per_heal", "cure",
             "attacks_coldfire", "attacks_siege", "sword_fame", "dodge_attack",
             # next-card, used-up and phase-long bonuses
             "card_bonus", "move_bonus", "first_attack_block", "attack_card_bonus", "unit_ability_bonus",
             "per_recruit", "phase_defeat_fame", "block_fire_attack", "block_destroy",
             # interactive skills and Spells between heroes (8.2.2, 19.7.1)
             "weather_others", "mana_exploit", "exploit_struck", "howl_others", "mana_curse",
             # terrain costs of the turn (9.6; arg = terrain + 1, 0 = every terrain)
             "terrain_delta", "terrain_floor", "terrain_set", "terrain_open", "terrain_safe", "terrain_closed",
             # Prayer of Weather's own part (value = the change, arg = the floor)
             "weather_own",
             # turn / combat-long effects of particular cards, third move
             "unit_glory", "other_units_attack", "sword_double", "bow_powered", "learning", "chivalry",
             # the Block pool's own effects (scope "block"; arg = printing / element / colour + 1)
             "icon_block", "swift_strip", "swift_block", "block_armor", "block_armor_excess",
             # combat-long effects of Spells: Wings of Night, Possess
             "wings", "possess_attack", "possessed")
#: TurnState fields that became modifiers and that a fixture may still write (the loader
#: turns them into turn-long entries of turn.mods, docs/fixtures.md): field -> kind name
LEGACY_TURN_MODS = {"terrain_delta": "terrain_delta", "terrain_floor": "terrain_floor",
                    "terrain_set": "terrain_set", "terrain_open": "terrain_open",
                    "terrain_safe": "terrain_safe", "terrain_closed": "terrain_closed",
                    "prayer_delta": "weather_own", "prayer_floor": "weather_own"}
MOD_SCOPES = ("next_card", "phase", "combat", "turn", "round", "block")
MAX_MODS = 16


#: TurnState fields that became modifiers after fixtures were written with them (issue 12,
#: third move): a fixture (format 1 or 2) that writes one still loads; its value becomes a
#: live entry of turn.mods (0: none), owned by the turn's player.  field -> (kind name, arg,
#: scope name, lowest value, highest value).
LEGACY_TURN_FIELDS = {
    "glory_armor": ("unit_glory", 1, "turn", 0, 127), "glory_all": ("unit_glory", 2, "turn", 0, 127),
    "glory_fame": ("unit_glory", 3, "turn", 0, 127), "sword_double": ("sword_double", 0, "turn", 0, 127),
    "bow_powered": ("bow_powered", 0, "turn", 0, 127),
    "chivalry_rep": ("chivalry", 1, "phase", 0, 127), "chivalry_fame": ("chivalry", 2, "phase", 0, 127),
}


_LEGACY_GIVERS = ("unit_attack_bonus", "attack_bonus_givers")
_LEGACY_LEARNING = ("learning_cost", "learning_to_hand")


def _third_move_mods(fields: dict) -> list:
    """The modifier entries ``(path, kind name, value, arg, scope name)`` that replace the old
    fields of :data:`LEGACY_TURN_FIELDS`, Shocktroops' and Learning's (``fields``: field ->
    (value, path) as the fixture wrote them; 0 = none)."""
    out = []
    for k, (x, kp) in fields.items():
        if k in LEGACY_TURN_FIELDS:
            kind, arg, scope, lo, hi = LEGACY_TURN_FIELDS[k]
            v = _int(x, kp, lo, hi)
            if v:
                out.append((kp, kind, v, arg, scope))
    if any(k in fields for k in _LEGACY_GIVERS):
        # Shocktroops: unit_attack_bonus for each Unit slot of attack_bonus_givers (format 1:
        # bits, format 2: a list of slots; slot 7 = through Call to Arms): one entry per giver
        bonus, kp = fields.get("unit_attack_bonus", (0, "turn.unit_attack_bonus"))
        bonus = _int(bonus, kp, 0, 127)
        g, gp = fields.get("attack_bonus_givers", (0, "turn.attack_bonus_givers"))
        if isinstance(g, list):
            g = sum(1 << _int(x, f"{gp}[{i}]", 0, 7) for i, x in enumerate(set(g)))
        g = _int(g, gp, 0, 255)
        out += [(gp, "other_units_attack", bonus, slot + 1, "turn")
                for slot in range(8) if bonus and (g >> slot) & 1]
    if any(k in fields for k in _LEGACY_LEARNING):
        # Learning: its price (0 = none / used) and where the AA goes (1: to hand)
        cost, kp = fields.get("learning_cost", (0, "turn.learning_cost"))
        cost = _int(cost, kp, 0, 127)
        hand, hp = fields.get("learning_to_hand", (0, "turn.learning_to_hand"))
        hand = _int(hand, hp, 0, 1)
        if cost:
            out.append((kp, "learning", cost, 2 if hand else 1, "turn"))
    return out


#: The Block pool's old fields and Wings of Night's / Possess's (issue 12, fourth move), read
#: together by _fourth_move_mods.
_LEGACY_BLOCK = ("icon_block", "icon_block_arcane", "swift_strip", "swift_block", "block_armor",
                 "block_armor_excess", "block_fx_colour")
_LEGACY_SPELLS = ("wings_targets", "wings_first", "wings_step", "possess_slot", "possess_attack")
_LEGACY_FOURTH = _LEGACY_BLOCK + _LEGACY_SPELLS


def _fourth_move_mods(fields: dict, n_enemies: int) -> list:
    """The modifier entries ``(path, kind name, value, arg, scope name)`` that replace the Block
    pool's old fields (scope "block": Cold Toughness LL-2.10.8, base Utem Guardsmen's lost
    Swiftness, Shield Bash's Swift-double points LL-2.10.10, Ice Shield's and Shield Bash's
    Armor changes with the colour of their card, 11.4.2) and Wings of Night's / Possess's
    (scope "combat").  ``fields``: field -> (value, path) as written; 0 = none."""
    def get(k, lo, hi):
        x, kp = fields.get(k, (0, f"turn.{k}"))
        return _int(x, kp, lo, hi), kp

    def per_element(k):
        x, kp = fields.get(k, ([], f"turn.{k}"))
        return [(_int(y, f"{kp}[{i}]", 0, 127), f"{kp}[{i}]") for i, y in enumerate(_list(x, kp, 4))]

    out = []
    if not any(k in fields for k in _LEGACY_FOURTH):
        return out
    icon, kp = get("icon_block", 0, 127)
    arcane, _ = get("icon_block_arcane", 0, 1)
    if icon:
        out.append((kp, "icon_block", icon, 2 if arcane else 1, "block"))
    strip, kp = get("swift_strip", 0, 1)
    if strip:
        out.append((kp, "swift_strip", 1, 0, "block"))
    out += [(ep, "swift_block", v, e + 1, "block") for e, (v, ep) in enumerate(per_element("swift_block")) if v]
    colour, _ = get("block_fx_colour", -1, 5)
    armor, kp = get("block_armor", -128, 127)
    if armor:
        out.append((kp, "block_armor", armor, colour + 1, "block"))
    excess, kp = get("block_armor_excess", 0, 127)
    if excess:
        out.append((kp, "block_armor_excess", excess, colour + 1, "block"))
    targets, kp = get("wings_targets", 0, 127)
    first, _ = get("wings_first", 0, 127)
    step, _ = get("wings_step", 0, 127)
    if targets:                      # the entry holds the next target's Move and the step
        cost = first + step * (targets - 1)
        if cost > 127:
            raise FixtureError(f"{kp}: the next Wings of Night target would cost {cost} Move (at most 127)")
        out.append((kp, "wings", cost, step, "combat"))
    slot, kp = get("possess_slot", 0, max(n_enemies, 0))
    if slot:
        out.append((kp, "possessed", slot, 0, "combat"))
    out += [(ep, "possess_attack", v, e + 1, "combat") for e, (v, ep) in enumerate(per_element("possess_attack")) if v]
    return out


#: What a live entry's arg must be, by kind name: (lo, hi, meaning) (other kinds: any int8).
_MOD_ARGS = {"icon_block": (1, 2, "1 the Lost Legion printing, 2 the base one"),
             "swift_block": (1, 4, "an element + 1"), "possess_attack": (1, 4, "an element + 1"),
             "block_armor": (0, 6, "a colour + 1, 0 = none"), "block_armor_excess": (0, 6, "a colour + 1, 0 = none")}


def _validate_mods(t: dict, n_players: int, n_enemies: int = 0) -> None:
    """The live entries [0, n_mods) of turn.mods: a kind, a scope, the player whose effect."""
    n = t["n_mods"]
    if not 0 <= n <= MAX_MODS:
        _bad("turn.n_mods", f"{n} is out of range (0 .. {MAX_MODS})")
    for i in range(n):
        m = t["mods"][i]
        if not 1 <= m["kind"] < len(MOD_KINDS):
            _bad(f"turn.mods[{i}].kind", f"{m['kind']} is out of range (1 .. {len(MOD_KINDS) - 1}: "
                 + " ".join(f"{k}={name}" for k, name in enumerate(MOD_KINDS) if k) + ")")
        if not 0 <= m["scope"] < len(MOD_SCOPES):
            _bad(f"turn.mods[{i}].scope", f"{m['scope']} is out of range (0 .. {len(MOD_SCOPES) - 1})")
        if not 0 <= m["owner"] < n_players:
            _bad(f"turn.mods[{i}].owner", f"{m['owner']} is out of range (0 .. {n_players - 1})")
        if MOD_KINDS[m["kind"]].startswith("terrain_") and not 0 <= m["arg"] <= len(_fx.TERRAINS):
            _bad(f"turn.mods[{i}].arg", f"{m['arg']} is out of range (0 .. {len(_fx.TERRAINS)}: "
                 "a terrain + 1, 0 = every terrain)")
        lo, hi, what = _MOD_ARGS.get(MOD_KINDS[m["kind"]], (-128, 127, ""))
        if not lo <= m["arg"] <= hi:
            _bad(f"turn.mods[{i}].arg", f"{m['arg']} is out of range ({lo} .. {hi}: {what})")
        if MOD_KINDS[m["kind"]] == "possessed" and not 1 <= m["value"] <= n_enemies:
            _bad(f"turn.mods[{i}].value", f"{m['value']} is out of range (1 .. {n_enemies}: the possessed "
                 "enemy's combat slot + 1)")


def _check_counted(values: list, n: int, lo: int, hi: int, path: str, count_path: str, cap: int) -> None:
    if not 0 <= n <= cap:
        _bad(count_path, f"{n} is out of range (0 .. {cap})")
    for i in range(n):
        if not lo <= values[i] <= hi:
            _bad(f"{path}[{i}]", f"{values[i]} is out of range ({lo} .. {hi})")


#: effect ops other than handlers that wait for a decision (ext/_engine.pyx run_handler)
_ASKING_OPS = ("ready_unit", "heal_unit", "enemy_armor", "enemy_no_attack")


def validate(core, engine=None, version: int = FORMAT) -> None:
    """Check the position of ``core`` by meaning; raise FixtureError naming the key path of
    the first field that no game can hold, or that disagrees with the others.

    With ``engine`` (the core's :class:`mksim._engine.Engine`) the pending question's
    scratch values are checked against its handler's bounds (``Engine.pending_problem``)
    and a position that is not over must offer a legal action.  Every load path passes
    the engine (``Game.state_from_dict``, ``GameCore.load_dict``)."""
    raw = core.raw_dict()
    su = core.setup
    N = _names(core)
    S = _Sizes(core, raw)
    n_players = raw["n_players"]
    phase = raw["phase"]
    # -- random streams: xoshiro256** from an all-zero state gives only zeros, so every
    #    draw "until" something loops for ever
    for s, st in enumerate(raw["rng"]):
        if not any(st.values()):
            _bad(f"rng[{s}]", "all four words are 0 (xoshiro256** would draw only zeros; "
                              "a random stream state must not be all zero)")
    # -- the round, the time, the phase and who acts
    rounds = getattr(su, "rounds", 127)
    if not 1 <= raw["round"] <= rounds:
        _bad("round", f"{raw['round']} is outside the scenario's rounds (1 .. {rounds})")
    if (phase == PH["game_over"]) != (raw["termination"] != 0):
        _bad("termination", f"is {TERMINATION_NAMES[raw['termination']]!r} with phase "
                            f"{PHASE_NAMES[phase]!r} (a game is over exactly when it has a termination)")
    if phase == PH["action"]:
        _bad("phase", "'action' is not a phase the engine waits in (an action is chosen in 'move')")
    if not 0 <= raw["current"] < n_players:
        _bad("current", f"{raw['current']} is not a player of this game (0 .. {n_players - 1}; "
                        f"the dummy never decides)")
    tp = raw["turn_player"]
    dummy_ok = raw["has_dummy"] and phase in (PH["tactics"], PH["game_over"])
    if not (0 <= tp < n_players or (tp == MAX_PLAYERS and dummy_ok)):
        _bad("turn_player", f"{tp} cannot take a turn here (a player 0 .. {n_players - 1}"
                            + (f"; the dummy ({MAX_PLAYERS}) only between rounds)" if raw["has_dummy"] else ")"))
    ea = raw["end_announced_by"]
    if not (ea == -1 or 0 <= ea < n_players or (ea == MAX_PLAYERS and raw["has_dummy"])):
        _bad("end_announced_by", f"{ea} is neither a player nor the dummy ({MAX_PLAYERS})")
    if not 0 <= raw["final_turns_left"] <= n_players + 1:
        _bad("final_turns_left", f"{raw['final_turns_left']} is out of range (0 .. {n_players + 1})")
    for i, x in enumerate(raw["last_turn_taken"]):
        if x not in (0, 1):
            _bad(f"last_turn_taken[{i}]", f"{x} is out of range (0 .. 1)")
    if not 0 <= raw["turns_in_round"] <= 127:
        _bad("turns_in_round", f"{raw['turns_in_round']} is out of range (0 .. 127)")
    if raw["error"] != 0:
        _bad("error", f"{raw['error']}: a position holds no engine error (0 = none)")
    if raw["has_dummy"] != (1 if core.setup.dummy else 0):
        _bad("has_dummy", "a solo game has the dummy player (18): 1" if core.setup.dummy else
             "a competitive game of several heroes has no dummy player (17.3.1): 0")
    _validate_tactics_left(core, raw, N, rounds)
    if version >= 2:         # format 1 loads as before (its fixtures left these to chance)
        _validate_tactics_placed(raw, N)
    # -- the player
    for p in range(n_players):
        _validate_player(raw, raw["players"][p], f"players[{p}]", N, S)
    taken = [raw["players"][p]["cards_taken"] for p in range(n_players)]
    if sum(taken) != 0:      # Mind Steal (19.7.1): a card one hero took is one another lost
        _bad("players[0].cards_taken", f"the players' cards_taken add up to {sum(taken)} ({taken}), not 0: "
                                       f"a card taken from another hero counts +1 on the taker and -1 on the loser")
    _validate_dummy(raw["dummy"], N)
    if version >= 2:
        _validate_level(core, raw)
        _validate_cards_placed(core, raw, N)
    # -- the turn
    t = raw["turn"]
    _check_rules(t, _TURN_RULES, S, "turn")
    # counted arrays: the live entries (the rest are left-overs the engine never reads)
    _check_counted(t["path"], t["n_path"], 0, S["hex"], "turn.path", "turn.path", 32)
    _check_counted(t["rewards"], t["n_rewards"], 0, len(_ct.REWARDS) - 1, "turn.rewards", "turn.n_rewards", 16)
    _check_counted(t["reward_cards"], t["n_reward_cards"], 0, S["card"], "turn.reward_cards",
                   "turn.n_reward_cards", 6)
    _check_counted(t["eval_stack"], t["n_eval"], 0, S["row"], "turn.eval_stack", "turn.n_eval", 32)
    _validate_mods(t, n_players, max(raw["combat"]["n_enemies"], 0))
    ops = core.tables.effects[:, 0]
    if t["pending_choice"] >= 0:
        r = core.tables.effects[t["pending_choice"]]
        if not (_OPS[r[0]] == "choice" or (_OPS[r[0]] in ("gain_mana", "gain_crystal") and r[1] >= 6)):
            _bad("turn.pending_choice", f"effect row {t['pending_choice']} is not a choice (it is "
                                        f"'{_OPS[r[0]]}')")
    for k in ("handler_row", "soul_row", "maximal_row", "maximal_self"):
        row = t[k] - (k != "handler_row")
        # a question waits in a handler, or in ready_unit / heal_unit / an enemy effect (run_handler)
        if row >= 0 and _OPS[ops[row]] not in (("handler",) + _ASKING_OPS if k == "handler_row" else ("handler",)):
            _bad(f"turn.{k}", f"effect row {row} is not an effect handler (it is '{_OPS[ops[row]]}')")
    if t["handler_row"] >= 0:
        if t["ask"] == 0 or t["ask_options"] == 0:
            _bad("turn.ask_options" if t["ask"] else "turn.ask",
                 "a handler awaiting a decision (handler_row) needs what it asks (ask) and its options")
    elif t["ask"] != 0:
        _bad("turn.ask", f"{t['ask']}: nothing asks (handler_row is -1)")
    if t["reward_choice"] == 1 and t["n_reward_cards"] == 0:
        _bad("turn.reward_choice", "1 (choose the Artifact to put back) with no Artifact drawn (n_reward_cards)")
    # -- the combat
    _validate_combat(raw, N, S, phase)
    # -- the Source and the offers
    if not 1 <= raw["n_dice"] <= MAX_DICE:
        _bad("source.dice", f"{raw['n_dice']} dice (1 .. {MAX_DICE})")
    if raw["dice_taken"] >> raw["n_dice"]:
        _bad("source.taken", f"{raw['dice_taken']} marks a die the Source does not have ({raw['n_dice']} dice)")
    # -- the map and the tokens
    _validate_map(raw, N, n_players)
    _validate_tokens(raw, N)
    # -- the invariants the engine's own checks know (ext/_checks.pyx)
    from ._checks import violations
    bad = violations(core)
    if bad:
        _bad(_violation_path(bad[0]), bad[0])
    if engine is not None:
        # the pending question's stage, scratch values and options, by the bounds its handler
        # states next to its code (Engine.pending_problem, ext/_fx_*.pxi <group>_pending)
        problem = engine.pending_problem()
        if problem is not None:
            raise FixtureError(problem)
    if engine is not None and phase != PH["game_over"] and len(engine.legal_actions()) == 0:
        _bad("phase", f"the position offers no legal action in phase {PHASE_NAMES[phase]!r} "
                      f"(the turn and combat fields do not fit it)")


_VIOLATION_PATHS = {
    "crystals outside 0..3 (5.1.3)": "players[0].crystals", "negative Fame": "players[0].fame",
    "reputation off the track (10.3)": "players[0].reputation", "level outside 1..10 (13.6)": "players[0].level",
    "a card zone outside 0..MAX_CARDS": "players[0].deck",
    "a unit with more than 2 wounds (11.7.9)": "players[0].units",
    "more Units than Command tokens (7.2.1)": "players[0].units",
    "negative Move points (9.3.2)": "turn.move_points", "negative Healing points (12.3.3)": "turn.healing",
    "negative mana tokens (5.1.2)": "turn.mana_tokens", "negative dummy crystals (18.4.4)": "dummy.crystals",
    "hero position off the map (9.3)": "players[0].position",
    "unit neither Ready nor Spent (7.2.2)": "players[0].units",
    "combat slots or pools out of range (11)": "combat",
}


def _violation_path(words: str) -> str:
    if words.startswith("Source dice"):
        return "source.dice"
    return _VIOLATION_PATHS.get(words, "players[0]")


def _validate_tactics_left(core, raw: dict, N: _Names, rounds: int) -> None:
    """Enough tactics of each time remain for the rounds still to come (3.1; solo, 17.3.4:
    the tactics taken leave the game, so each round of a time uses up one per actor).

    A round or time that does not fit the tactics used so far (e.g. round 2 by Day after a
    Day round 1) would leave a later round with no tactic to take."""
    t = core.tables
    times = [int(x) for x in t.tactics[:, t.col("tactics", "time")]]
    per_round = raw["n_players"] + (1 if raw["has_dummy"] else 0)
    held = [raw["players"][p]["tactic"] for p in range(raw["n_players"])]
    if raw["has_dummy"]:
        held.append(raw["dummy"]["tactic"])
    held = [x for x in held if 0 <= x < len(times)]
    if "solo_tactics" not in core.setup.special_rules:
        rounds = raw["round"]           # 2.2.7: every round lays out the whole set again
    gone = {x for x in raw["tactics_removed"] if 0 <= x < len(times)} | set(held)
    this_round = raw["time"]
    for time in (0, 1):
        used = sum(1 for x in gone if times[x] == time)
        if time == this_round:
            used += per_round - len(held)           # still to be taken this round
        future = sum(1 for r in range(raw["round"] + 1, rounds + 1) if (this_round + r - raw["round"]) % 2 == time)
        left = sum(1 for x in times if x == time) - used
        if left < per_round * future:
            _bad("round", f"{raw['round']} of {rounds} by {_fx.TIMES[this_round]}: {future} "
                          f"{_fx.TIMES[time]} round(s) are to come, but only {max(left, 0)} "
                          f"{_fx.TIMES[time]} tactic(s) are left for them ({per_round} a round; "
                          f"tactics_removed, 3.1, 17.3.4)")


def _validate_player(raw: dict, pl: dict, path: str, N: _Names, S: _Sizes) -> None:
    _check_rules(pl, _PLAYER_RULES, S, path)
    phase = raw["phase"]
    nt = len(N.lists["tactic"])
    if pl["tactic"] >= nt:
        _bad(_key(path, "tactic"), f"{pl['tactic']} is not a tactic")
    if phase == PH["tactics"] and pl["tactic"] >= 0 and raw["turn"]["handler_row"] < 0:
        _bad(_key(path, "tactic"), "a tactic is held in the tactics phase only while its own effect "
                                   "awaits a decision (turn.handler_row); otherwise a second one would be "
                                   "taken this round (3.1)")
    if pl["n_tactic_cards"] and pl["tactic"] < 0:
        _bad(_key(path, "tactic_cards"), "cards under a tactic, but the player has no tactic")
    occupied = 0
    for u, unit in enumerate(pl["units"]):
        if unit["card"] < 0:
            continue
        up = f"{path}.units[{occupied}]"
        occupied += 1
        _check_rules(unit, _UNIT_RULES, S, up)
        b = unit["banner"]
        if b >= 0 and not N.lists["card"][b].startswith("banner_"):
            _bad(_key(up, "banner"), f"{N.lists['card'][b]!r} is not a Banner (7.5)")
    ns = len(N.lists["skill"])
    for i, s in enumerate(pl["skills"]):
        if s >= ns:
            _bad(f"{path}.skills[{i}]", f"{s} is not a skill")
    if pl["stolen_die"] >= 6:
        _bad(_key(path, "stolen_die"), f"{pl['stolen_die']} is not a mana colour")


def _validate_dummy(d: dict, N: _Names) -> None:
    for c, x in zip(_fx.BASIC_COLOURS, d["crystals"]):
        if x < 0:
            _bad(f"dummy.crystals.{c}", f"{x} is negative")
    if d["tactic"] >= len(N.lists["tactic"]):
        _bad("dummy.tactic", f"{d['tactic']} is not a tactic")


def _validate_combat(raw: dict, N: _Names, S: _Sizes, phase: int) -> None:
    c = raw["combat"]
    in_combat_phase = phase in COMBAT_PHASES
    if c["active"] and not in_combat_phase:
        _bad("combat.active", f"1 (a combat in progress) in phase {PHASE_NAMES[phase]!r}: a combat "
                              f"waits in combat_ranged, combat_block, combat_damage or combat_attack")
    if not c["active"]:
        if in_combat_phase:
            _bad("combat.active", f"0 in phase {PHASE_NAMES[phase]!r}: a combat phase needs a combat "
                                  f"in progress (active = 1, with enemies)")
        return
    n = c["n_enemies"]
    if n == 0:
        _bad("combat.enemies", "a combat in progress needs at least one enemy (11)")
    _check_rules(c, _COMBAT_RULES, S, "combat")
    ne = len(N.lists["enemy"])
    te = raw["token_enemy"]
    for i in range(n):
        e = c["enemies"][i]
        ep = f"combat.enemies[{i}]"
        _check_rules(e, _ENEMY_RULES, S, ep)
        if e["token"] < 0 or not 0 <= e["enemy"] < ne:
            _bad(ep, f"an empty slot among the combat's n_enemies = {n} enemies")
        if te[e["token"]] != e["enemy"]:
            _bad(_key(ep, "token"), f"token {e['token']} is {N.name('enemy', te[e['token']]) if te[e['token']] >= 0 else 'no enemy'!r}, "
                                    f"not {N.name('enemy', e['enemy'])!r} (see token_enemy)")
        if e["summoned_by"] >= 0 and e["summoned_by"] == i:
            _bad(_key(ep, "summoned_by"), "an enemy cannot summon itself")


def _validate_map(raw: dict, N: _Names, n_players: int) -> None:
    n_site = len(N.lists["site"])
    nr = len(N.lists["ruins token"])
    for h in range(raw["n_hexes"]):
        hx = raw["hexes"][h]
        hp = f"map.hexes.{h}"
        if not 0 <= hx["terrain"] < len(_fx.TERRAINS):
            _bad(_key(hp, "terrain"), f"{hx['terrain']} is not a terrain")
        if not -1 <= hx["site"] < n_site:
            _bad(_key(hp, "site"), f"{hx['site']} is not a site")
        if not -1 <= hx["owner"] < n_players:
            _bad(_key(hp, "owner"), f"{hx['owner']} is not a player of this game (-1 = none)")
        if not -1 <= hx["ruins"] < nr:
            _bad(_key(hp, "ruins"), f"{hx['ruins']} is not a ruins token")
        if not 0 <= hx["city_level"] <= 11:
            _bad(_key(hp, "city_level"), f"{hx['city_level']} is out of range (0 .. 11)")
        if hx["colours"] >> 4:
            _bad(_key(hp, "colours"), f"{hx['colours']} marks a colour that is not basic")
        for p, x in enumerate(hx["city_shields"]):
            if not 0 <= x <= 127 or (p >= n_players and x):
                _bad(f"{hp}.city_shields[{p}]", f"{x} Shields of {'a player not in this game' if p >= n_players else 'a player'}")
        for p, x in enumerate(hx["city_first"]):
            if x not in (0, 1) or (p >= n_players and x):
                _bad(f"{hp}.city_first[{p}]", f"{x} is out of range (0 .. 1)")


def _validate_tokens(raw: dict, N: _Names) -> None:
    """Every token lies in one place and is a real token instance (1.2.2)."""
    te = raw["token_enemy"]
    ne = len(N.lists["enemy"])
    for t, e in enumerate(te):
        if not -1 <= e < ne:
            _bad(f"token_enemy[{t}]", f"{e} is not an enemy")
    where: dict = {}

    def put(t: int, path: str) -> None:
        if not 0 <= t < len(te) or te[t] < 0:
            _bad(path, f"token {t} is not a token instance of this game (see token_enemy)")
        if t in where:
            _bad(path, f"token {t} lies in two places (also at {where[t]}; 1.2.2)")
        where[t] = path

    for key, count, name in (("piles", "n_pile", "enemy_piles"), ("pile_discard", "n_pile_discard", "enemy_discards")):
        for c, pile in enumerate(raw[key]):
            colour = _ct.ENEMY_COLOURS[c]
            for i in range(raw[count][c]):
                put(pile[i], f"{name}.{colour}[{i}]")
                if N.enemy_colour[te[pile[i]]] != c:
                    _bad(f"{name}.{colour}[{i}]", f"{N.name('enemy', te[pile[i]])!r} is not a {colour} enemy")
    for h in range(raw["n_hexes"]):
        hx = raw["hexes"][h]
        for i in range(hx["n_tokens"]):
            put(hx["tokens"][i], f"map.hexes.{h}.tokens[{i}]")
    c = raw["combat"]
    if c["active"]:
        for i in range(c["n_enemies"]):
            e = c["enemies"][i]
            ep = f"combat.enemies[{i}].token"
            if e["flags"] & (1 | 64):      # CE_DEFEATED, CE_GONE: its token has moved on
                continue
            if e["hex"] >= 0:
                toks = raw["hexes"][e["hex"]]["tokens"][:raw["hexes"][e["hex"]]["n_tokens"]]
                if e["token"] not in toks:
                    _bad(ep, f"token {e['token']} does not lie on hex {e['hex']}, where the enemy is said to be (hex)")
            else:
                put(e["token"], ep)     # drawn for this combat: in no pile and on no hex


# ---------------------------------------------------------------------------------------
# consistency: a thing in two places (a partial fixture that contradicts itself)
# ---------------------------------------------------------------------------------------

def _validate_tactics_placed(raw: dict, N: _Names) -> None:
    """A tactic lies in one place: on offer (tactics_available), held by one actor, or out
    of the game (tactics_removed) (3.1.1: a tactic taken leaves the offer; 3.1.5).  A held
    tactic may also be listed in tactics_removed: the engine records a solo tactic leaving
    the game when it is taken (17.3.4)."""
    where: dict = {}
    held: dict = {}

    def put(t: int, path: str, places: dict) -> None:
        if not 0 <= t < len(N.lists["tactic"]):
            return                                   # not a tactic: refused by its own check
        if t in places:
            _bad(path, f"tactic {N.name('tactic', t)!r} is also at {places[t]} (a tactic lies in "
                       f"one place: on offer, held, or out of the game; 3.1.1)")
        places[t] = path

    for p in range(raw["n_players"]):
        put(raw["players"][p]["tactic"], f"players[{p}].tactic", held)
    if raw["has_dummy"]:
        put(raw["dummy"]["tactic"], "dummy.tactic", held)
    for i, t in enumerate(raw["tactics_available"]):
        put(t, f"tactics_available[{i}]", held)
    where = {t: p for t, p in held.items() if p.startswith("tactics_available")}
    for i, t in enumerate(raw["tactics_removed"]):
        put(t, f"tactics_removed[{i}]", where)


def _card_zones(raw: dict):
    """Every (card, fixture path) of the Deed cards in the game: the zones card conservation
    counts (count_deeds of ext/_checks.pyx)."""
    for p in range(raw["n_players"]):
        pl = raw["players"][p]
        for key, count in (("deck", "n_deck"), ("hand", "n_hand"), ("discard", "n_discard"),
                           ("play_area", "n_play"), ("tactic_cards", "n_tactic_cards"),
                           ("set_aside", "n_set_aside")):
            for i in range(max(0, min(pl[count], len(pl[key])))):
                yield pl[key][i], f"players[{p}].{key}[{i}]"
        slot = 0
        for u in pl["units"]:
            if u["card"] >= 0:
                if u["banner"] >= 0:
                    yield u["banner"], f"players[{p}].units[{slot}].banner"
                slot += 1
    if raw["has_dummy"]:
        d = raw["dummy"]
        for key, count in (("deck", "n_deck"), ("discard", "n_discard")):
            for i in range(max(0, min(d[count], len(d[key])))):
                yield d[key][i], f"dummy.{key}[{i}]"
    for key, name in (("aa_offer", "advanced_action_offer"), ("spell_offer", "spell_offer")):
        for i, c in enumerate(raw[key]):
            yield c, f"{name}[{i}]"
    for key, count, name in (("aa_deck", "n_aa_deck", "advanced_action_deck"), ("spell_deck", "n_spell_deck", "spell_deck"),
                             ("artifact_deck", "n_artifact_deck", "artifact_deck")):
        for i in range(max(0, min(raw[count], len(raw[key])))):
            yield raw[key][i], f"{name}[{i}]"
    t = raw["turn"]
    for i in range(max(0, min(t["n_reward_cards"], len(t["reward_cards"])))):
        yield t["reward_cards"][i], f"turn.reward_cards[{i}]"
    for i in range(max(0, min(raw["n_unit_offer"], len(raw["unit_offer"])))):
        if raw["unit_offer"][i] < 0:
            yield -raw["unit_offer"][i] - 1, f"unit_offer[{i}].advanced_action"


def _card_copies(core, raw: dict) -> list:
    """How many copies of each Deed card the game holds (Wounds aside): the hero decks of
    the players and of the dummy (6.1.1, 18.1.4) and one of each card of the Advanced
    Action, Spell and Artifact decks as set up (1.2.5, 1.2.6; counted once per setup)."""
    su, t = core.setup, core.tables
    cached = getattr(su, "_fixture_card_copies", None)
    if cached is None or cached[0] is not t:
        deck_col = t.col("cards", "deck")
        decks = [int(x) for x in t.cards[:, deck_col]]
        cached = (t, [1 if 1 <= k <= 3 else 0 for k in decks])     # DECK_AA, DECK_SPELL, DECK_ARTIFACT
        su._fixture_card_copies = cached
    copies = list(cached[1])
    heroes = [raw["players"][p]["hero"] for p in range(raw["n_players"])]
    if raw["has_dummy"]:
        heroes.append(raw["dummy"]["hero"])
    for h in heroes:
        if 0 <= h < len(su.hero_decks):
            for c in su.hero_decks[h]:
                copies[int(c)] += 1
    return copies


def _validate_cards_placed(core, raw: dict, N: _Names) -> None:
    """No Deed card lies in more places than the game has copies of it: a card in two zones
    (an Advanced Action in hand and in its offer, ...) is refused naming both (card
    conservation; Wounds come from an unlimited pile, 1.2.4)."""
    wound = N.index["card"].get("wound", -1)
    copies = _card_copies(core, raw)
    seen: dict = {}
    for c, path in _card_zones(raw):
        if c < 0 or c == wound or c >= len(copies):
            continue
        places = seen.setdefault(c, [])
        places.append(path)
        if len(places) > copies[c]:
            n = copies[c]
            have = "the game has no copy of it" if n == 0 else \
                f"the game has {n} cop{'y' if n == 1 else 'ies'}, also at {', '.join(places[:-1][:3])}"
            _bad(path, f"{N.name('card', c)!r}: {have} (a card lies in one place)")


def _validate_level(core, raw: dict) -> None:
    """13.6: the level follows from Fame.  A level above the one the Fame reaches is
    refused; one below it only in a turn, where levels gained wait for its end (13.6.1):
    in the tactics phase and at the start of a turn the level has caught up."""
    phase = raw["phase"]
    for p in range(raw["n_players"]):
        pl = raw["players"][p]
        if not 1 <= pl["level"] <= 10 or pl["fame"] < 0:
            continue                         # out of range: the engine's invariants name it
        want = level_for_fame(core.tables, pl["fame"])
        if pl["level"] > want:
            _bad(f"players[{p}].level", f"{pl['level']}, but players[{p}].fame {pl['fame']} reaches "
                                        f"level {want} only (13.6.2, levels.toml)")
        if pl["level"] < want and phase in (PH["tactics"], PH["turn_start"]):
            _bad(f"players[{p}].level", f"{pl['level']}, but players[{p}].fame {pl['fame']} reaches "
                                        f"level {want}; outside a turn the levels gained are taken "
                                        f"already (13.6.1)")


def _take_cards(core, d: dict, N: _Names) -> None:
    """Format 2: a Deed card the fixture writes into a zone is taken from a zone it leaves
    as set up (the hero's Deed deck, discard pile or hand, the Advanced Action, Spell and
    Artifact decks; from an offer, whose slot the top card of its deck then fills, 6.4.2),
    when the game would otherwise hold more copies of it than exist (the dummy's cards
    stay the dummy's: a hero never takes them, 18).  What is left over is refused
    by the check by meaning (a card written in two zones)."""
    raw = core.raw_dict()
    copies = _card_copies(core, raw)
    wound = N.index["card"].get("wound", -1)
    count = [0] * len(copies)
    for c, _p in _card_zones(raw):
        if 0 <= c < len(copies) and c != wound:
            count[c] += 1
    over = {c: n - copies[c] for c, n in enumerate(count) if n > copies[c]}
    if not over:
        return
    players = d.get("players") if isinstance(d.get("players"), list) else []
    patch: dict = {}

    def written(p: int, key: str) -> bool:
        return p < len(players) and isinstance(players[p], dict) and key in players[p]

    # the zones the fixture left as set up, each (get list, count key, write back)
    zones = []
    for p in range(raw["n_players"]):
        pl = raw["players"][p]
        for key, n in (("deck", "n_deck"), ("discard", "n_discard"), ("hand", "n_hand")):
            if not written(p, key):
                zones.append((("players", p), pl, key, n))
    names = {"aa_deck": "advanced_action_deck", "spell_deck": "spell_deck", "artifact_deck": "artifact_deck"}
    for key, n in (("aa_deck", "n_aa_deck"), ("spell_deck", "n_spell_deck"), ("artifact_deck", "n_artifact_deck")):
        if names[key] not in d:
            zones.append(((), raw, key, n))
    changed: set = set()
    for where, holder, key, n in zones:
        cards = holder[key]
        holder[n] = max(0, min(holder[n], len(cards)))
        i = holder[n] - 1
        while i >= 0:
            c = cards[i]
            if over.get(c, 0) > 0:
                del cards[i]
                cards.append(-1)
                holder[n] -= 1
                over[c] -= 1
                changed.add((where, key, n))
            i -= 1
    # offers the fixture leaves as set up: refill the slot from the deck (6.4.2)
    for key, deck, n, name in (("aa_offer", "aa_deck", "n_aa_deck", "advanced_action_offer"),
                               ("spell_offer", "spell_deck", "n_spell_deck", "spell_offer")):
        if name in d:
            continue
        for i, c in enumerate(raw[key]):
            if over.get(c, 0) > 0:
                over[c] -= 1
                if 0 < raw[n] <= len(raw[deck]):
                    raw[n] -= 1
                    raw[key][i] = raw[deck][raw[n]]
                    raw[deck][raw[n]] = -1
                else:
                    raw[key][i] = -1
                changed |= {((), key, None), ((), deck, n)}
    for where, key, n in changed:
        holder = raw if not where else raw[where[0]] if len(where) == 1 else raw[where[0]][where[1]]
        part = {key: holder[key]}
        if n is not None:
            part[n] = holder[n]
        if not where:
            patch.update(part)
        elif len(where) == 1:
            patch.setdefault(where[0], {}).update(part)
        else:
            lst = patch.setdefault(where[0], [{} for _ in range(where[1] + 1)])
            while len(lst) <= where[1]:
                lst.append({})
            lst[where[1]].update(part)
    if patch:
        core.set_raw(patch)
