"""Helpers for tests that edit copies of the catalogue files (never the shipped files).

The edits work on the TOML text so that a test changes exactly one thing and keeps the
rest of the file (comments, order, other entries) as shipped.  Every helper insists that
what it looks for occurs exactly once, so a change in the shipped data makes the test fail
loudly instead of silently editing nothing.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mksim.content import DATA_DIR


def copy_data(dest: Path) -> Path:
    """Copy the shipped ``mksim/data`` folder to ``dest`` (created) and return it."""
    shutil.copytree(DATA_DIR, dest)
    return dest


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def _entry_span(text: str, table: str, key: str, key_field: str) -> tuple[int, int]:
    """Start and end of the ``[[table]]`` block whose ``key_field`` is ``key``."""
    starts = [m.start() for m in re.finditer(r"(?m)^\[\[", text)] + [len(text)]
    key_line = re.compile(rf'(?m)^{re.escape(key_field)}\s*=\s*"?{re.escape(key)}"?\s*$')
    found = []
    for s, e in zip(starts, starts[1:]):
        block = text[s:e]
        if block.startswith(f"[[{table}]]") and key_line.search(block):
            found.append((s, e))
    assert len(found) == 1, f"[[{table}]] with {key_field} = {key!r}: found {len(found)} entries"
    return found[0]


def _field_line(block: str, field: str):
    m = re.search(rf"(?m)^{re.escape(field)}\s*=.*$", block)
    if m is not None:
        assert not m.group(0).rstrip().endswith("["), f"{field} is a multi-line value"
    return m


def set_field(path: Path, table: str, key: str, field: str, value: str, key_field: str = "id") -> None:
    """Set a single-line field of one entry to ``value`` (TOML text); add it if absent."""
    text = path.read_text(encoding="utf-8")
    s, e = _entry_span(text, table, key, key_field)
    block = text[s:e]
    m = _field_line(block, field)
    line = f"{field} = {value}"
    if m is None:
        head, _, rest = block.partition("\n")
        block = f"{head}\n{line}\n{rest}"
    else:
        block = block[:m.start()] + line + block[m.end():]
    path.write_text(text[:s] + block + text[e:], encoding="utf-8")


def remove_field(path: Path, table: str, key: str, field: str, key_field: str = "id") -> None:
    text = path.read_text(encoding="utf-8")
    s, e = _entry_span(text, table, key, key_field)
    block = text[s:e]
    m = _field_line(block, field)
    assert m is not None, f"{field} not in [[{table}]] {key}"
    block = block[:m.start()] + block[m.end() + 1:]
    path.write_text(text[:s] + block + text[e:], encoding="utf-8")


def remove_entry(path: Path, table: str, key: str, key_field: str = "id") -> None:
    text = path.read_text(encoding="utf-8")
    s, e = _entry_span(text, table, key, key_field)
    path.write_text(text[:s] + text[e:], encoding="utf-8")


def pretend_engine_declares(monkeypatch, name: str, params: tuple[str, ...] = ()) -> None:
    """Make content validation believe the engine declares a handler ``name`` (taking
    ``params``) that it does not implement: playing it stops the game with the engine's
    named error, the path of any rule not implemented yet."""
    import mksim.content as ct
    real = dict(ct.engine_handlers())
    real[name] = ("test", tuple(params))
    monkeypatch.setattr(ct, "engine_handlers", lambda: real)


#: What the stand-ins of :func:`engine_refuses` raise (messages the engine gives).
ENGINE_REFUSALS = {
    "setup": "setup of 'first_reconnaissance' failed: a deck is too small to fill its offer (1.2.5, 1.2.6, 1.2.9)",
    "bind": "handler 'ice_shield_block': the content gives argument 'blok', which the engine does not "
            "declare (declared: block, armor)",
}


def engine_refuses(monkeypatch, stage: str) -> str:
    """Make the engine refuse the content with a ValueError when ``mksim.game`` sets up a
    game (``stage="setup"``: GameCore.from_setup) or binds it (``"bind"``: Engine), as it
    would for content the loader could not foresee; return the message."""
    import mksim.game as game
    message = ENGINE_REFUSALS[stage]

    def refuse(*args, **kw):
        raise ValueError(message)
    if stage == "setup":
        monkeypatch.setattr(game, "GameCore", type("RefusingCore", (), {"from_setup": staticmethod(refuse)}))
    else:
        monkeypatch.setattr(game, "Engine", refuse)
    return message


def write_override(tmp_path: Path, text: str, name: str = "my_override.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ---------------------------------------------------------------------------------------
# Bad input: each case builds a --content path under tmp_path and lists what the one-line
# error must name (file, entry, field, and the offending value where there is one).  Used
# by tests/test_content.py (load_content) and tests/test_cli.py (mksim content validate).
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadCase:
    id: str
    build: Callable[[Path], Path]
    names: tuple[str, ...]


def _folder(edit: Callable[[Path], None]) -> Callable[[Path], Path]:
    def build(tmp_path: Path) -> Path:
        d = copy_data(tmp_path / "data")
        edit(d)
        return d
    return build


def _override(text: str) -> Callable[[Path], Path]:
    return lambda tmp_path: write_override(tmp_path, text)


def _non_utf8(d: Path) -> None:
    p = d / "tactics.toml"
    raw = p.read_bytes()
    assert raw.count(b'name = "Early Bird"') == 1
    p.write_bytes(raw.replace(b'name = "Early Bird"', b'name = "Early B\xe9rd"'))  # Latin-1 byte


def _extra_file(d: Path) -> None:
    (d / "monsters.toml").write_text('[[enemy]]\nid = "gremlins"\n', encoding="utf-8")


def _rage_basic(effect: str) -> Callable[[Path], Path]:
    """An override giving Rage's basic effect ``effect`` (an amount case of the vocabulary)."""
    return _override(f'[basic_actions.rage]\nbasic = "{effect}"\n')


def _ice_shield(effect: str) -> Callable[[Path], Path]:
    """An override giving Ice Shield's powered effect ``effect`` (a handler case)."""
    return _override(f'[advanced_actions.ice_shield]\npowered = "{effect}"\n')


#: What an amount case of Rage's basic effect names: the place, the operation and the value.
_RAGE = ("my_override.toml", "basic_actions.toml", "card 'rage'", "field 'basic'")
_ICE = ("my_override.toml", "advanced_actions.toml", "card 'ice_shield'", "field 'powered'")


def _mkdir(name: str, *files: str) -> Callable[[Path], Path]:
    """A --content folder ``name`` holding empty files ``files`` (``x/`` makes a folder)."""
    def build(tmp_path: Path) -> Path:
        d = tmp_path / name
        d.mkdir()
        for f in files:
            (d / f.rstrip("/")).mkdir() if f.endswith("/") else (d / f).write_text("", encoding="utf-8")
        return d
    return build


def _stray_files(tmp_path: Path) -> Path:
    d = tmp_path / "mine"
    d.mkdir()
    shutil.copy(DATA_DIR / "units.toml", d / "units.toml")
    (d / "notes.txt").write_text("my edits\n", encoding="utf-8")
    (d / "old").mkdir()
    return d


def _file(name: str, text: str) -> Callable[[Path], Path]:
    def build(tmp_path: Path) -> Path:
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return p
    return build


def _fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe"
    os.mkfifo(p)
    return p


def _catalogue_fifo(tmp_path: Path) -> Path:
    d = tmp_path / "mine"
    d.mkdir()
    os.mkfifo(d / "units.toml")
    return d


def _catalogue_as_override(tmp_path: Path) -> Path:
    p = tmp_path / "enemies.toml"
    shutil.copy(DATA_DIR / "enemies.toml", p)
    return p


BAD_CASES: tuple[BadCase, ...] = (
    # wrong type
    BadCase("wrong_type_int", _folder(lambda d: set_field(d / "enemies.toml", "enemy", "prowlers", "armor", '"three"')),
            ("enemies.toml", "enemy 'prowlers'", "field 'armor'", "three")),
    BadCase("wrong_type_bool", _folder(lambda d: set_field(d / "spells.toml", "card", "fireball", "interactive", '"no"')),
            ("spells.toml", "card 'fireball'", "field 'interactive'")),
    BadCase("wrong_type_effect", _folder(lambda d: set_field(d / "basic_actions.toml", "card", "rage", "powered", "4")),
            ("basic_actions.toml", "card 'rage'", "field 'powered'")),
    # unknown words
    BadCase("unknown_element", _folder(lambda d: set_field(
        d / "enemies.toml", "enemy", "prowlers", "attacks", '[{value = 4, element = "wind"}]')),
            ("enemies.toml", "enemy 'prowlers'", "attacks[0].element", "wind")),
    BadCase("unknown_colour", _folder(lambda d: set_field(d / "enemies.toml", "enemy", "prowlers", "colour", '"purple"')),
            ("enemies.toml", "enemy 'prowlers'", "field 'colour'", "purple")),
    BadCase("unknown_recruit_site", _folder(lambda d: set_field(
        d / "units.toml", "unit", "peasants", "recruit_sites", '["castle"]')),
            ("units.toml", "unit 'peasants'", "recruit_sites", "castle")),
    # malformed effects
    BadCase("effect_unknown_op", _folder(lambda d: set_field(d / "basic_actions.toml", "card", "rage", "powered", '"atack(4)"')),
            ("basic_actions.toml", "card 'rage'", "field 'powered'", "atack")),
    BadCase("effect_bad_argument", _folder(lambda d: set_field(
        d / "basic_actions.toml", "card", "rage", "basic", '"choice(attack(2), block(two))"')),
            ("basic_actions.toml", "card 'rage'", "field 'basic'", "block", "two")),
    BadCase("effect_unbalanced", _folder(lambda d: set_field(d / "tactics.toml", "tactic", "great_start", "effect", '"draw(2"')),
            ("tactics.toml", "tactic 'great_start'", "field 'effect'")),
    # dangling references
    BadCase("dangling_interactive_skill", _folder(lambda d: set_field(
        d / "heroes.toml", "hero", "arythea", "interactive_skill", '"no_such_skill"')),
            ("heroes.toml", "hero 'arythea'", "interactive_skill", "no_such_skill", "skills.toml")),
    BadCase("dangling_replaces", _folder(lambda d: set_field(
        d / "basic_actions.toml", "card", "battle_versatility", "replaces", '"no_such_card"')),
            ("basic_actions.toml", "card 'battle_versatility'", "replaces", "no_such_card")),
    BadCase("dangling_skill_hero", _folder(lambda d: set_field(d / "skills.toml", "skill", "arythea_dark_paths", "hero", '"krang"')),
            ("skills.toml", "skill 'arythea_dark_paths'", "field 'hero'", "krang", "heroes.toml")),
    BadCase("dangling_start_tile", _folder(lambda d: set_field(d / "map_shapes.toml", "shape", "wedge", "start_tile", '"start_c"')),
            ("map_shapes.toml", "shape 'wedge'", "start_tile", "start_c", "tiles.toml")),
    BadCase("skill_of_another_hero", _folder(lambda d: set_field(
        d / "heroes.toml", "hero", "arythea", "interactive_skill", '"goldyx_source_freeze"')),
            ("heroes.toml", "hero 'arythea'", "interactive_skill", "goldyx_source_freeze", "another hero")),
    # duplicate id
    BadCase("duplicate_id", _folder(lambda d: set_field(d / "enemies.toml", "enemy", "diggers", "id", '"prowlers"')),
            ("enemies.toml", "enemy 'prowlers'", "duplicate id")),
    # wrong counts
    BadCase("count_one_aa_deleted", _folder(lambda d: remove_entry(d / "advanced_actions.toml", "card", "mountain_lore")),
            ("advanced_actions.toml", "wrong count", "11", "12", "LL-2.4.1")),
    BadCase("count_ll_green_tokens", _folder(lambda d: set_field(d / "enemies.toml", "enemy", "orc_skirmishers", "copies", "3")),
            ("enemies.toml", "wrong count", "9", "8", "green", "LL-2.7.1")),
    BadCase("count_deck_not_16", _folder(lambda d: set_field(d / "basic_actions.toml", "card", "march", "copies", "3")),
            ("basic_actions.toml", "16", "1.3.4")),
    # unreadable files
    BadCase("invalid_toml", _folder(lambda d: replace_once(d / "enemies.toml", 'id = "prowlers"', 'id = "prowlers')),
            ("enemies.toml", "not valid TOML", "at line")),
    BadCase("non_utf8", _folder(_non_utf8), ("tactics.toml", "UTF-8")),
    # missing / unknown fields, out of range, wrong shape
    BadCase("missing_field", _folder(lambda d: remove_field(d / "enemies.toml", "enemy", "prowlers", "armor")),
            ("enemies.toml", "enemy 'prowlers'", "missing required field", "armor")),
    BadCase("unknown_field", _folder(lambda d: set_field(d / "enemies.toml", "enemy", "prowlers", "speed", "3")),
            ("enemies.toml", "enemy 'prowlers'", "unknown field", "speed")),
    BadCase("above_maximum", _folder(lambda d: set_field(d / "units.toml", "unit", "peasants", "level", "5")),
            ("units.toml", "unit 'peasants'", "field 'level'", "5", "maximum 4")),
    BadCase("not_a_catalogue_file", _folder(_extra_file), ("monsters.toml", "not a catalogue file")),
    # numbers the core's small C integers cannot hold
    BadCase("number_too_large", _override("[units.peasants]\ncost = 99999999999\n"),
            ("my_override.toml", "units.toml", "unit 'peasants'", "field 'cost'", "out of range")),
    BadCase("effect_number_too_large", _folder(lambda d: set_field(
        d / "basic_actions.toml", "card", "rage", "powered", '"attack(99999999999)"')),
            ("basic_actions.toml", "card 'rage'", "field 'powered'", "out of range")),
    # paths that do not exist
    BadCase("no_such_folder", lambda tmp_path: tmp_path / "no_such_folder", ("no_such_folder", "no such file or folder")),
    BadCase("no_such_override", lambda tmp_path: tmp_path / "no_such.toml", ("no_such.toml", "file not found")),
    # override files
    BadCase("override_unknown_entry", _override("[enemies.gremlins]\narmor = 4\n"),
            ("my_override.toml", "enemies.gremlins", "no enemy 'gremlins'", "enemies.toml")),
    BadCase("override_unknown_field", _override("[enemies.prowlers]\nspeed = 4\n"),
            ("my_override.toml", "enemies.prowlers", "unknown field 'speed'")),
    BadCase("override_unknown_kind", _override("[monsters.prowlers]\narmor = 4\n"),
            ("my_override.toml", "monsters")),
    BadCase("override_bad_value", _override('[enemies.prowlers]\narmor = "three"\n'),
            ("my_override.toml", "enemies.toml", "enemy 'prowlers'", "field 'armor'", "three")),
    BadCase("override_bad_effect", _override('[basic_actions.rage]\nbasic = "choice(atack(3), block(2))"\n'),
            ("my_override.toml", "basic_actions.toml", "card 'rage'", "field 'basic'", "atack")),
    BadCase("override_invalid_toml", _override("[enemies.prowlers\narmor = 4\n"),
            ("my_override.toml", "not valid TOML")),
    BadCase("override_six_hexes", _override('[tiles.start_a]\nhexes = [' + ', '.join(['{terrain = "plains"}'] * 6) + ']\n'),
            ("my_override.toml", "tiles.toml", "tile 'start_a'", "field 'hexes'", "7")),
    # caught only when compiling (mksim.tables supports at most 3 attacks per enemy)
    BadCase("four_attacks", _override('[enemies.prowlers]\nattacks = ['
                                      + ', '.join(['{value = 1, element = "physical"}'] * 4) + ']\n'),
            ("my_override.toml", "enemies.toml", "enemy 'prowlers'", "field 'attacks'", "at most 3")),
    # amounts out of range, one per operation with a number (mksim.effects OPS bounds):
    # no negative or empty gain, nothing past the core's small fields
    BadCase("negative_attack", _rage_basic("attack(-3)"), _RAGE + ("attack()", "'n'", "-3")),
    BadCase("negative_block", _rage_basic("block(-1, element=ice)"), _RAGE + ("block()", "-1")),
    BadCase("negative_move", _rage_basic("move(-2)"), _RAGE + ("move()", "-2")),
    BadCase("negative_influence", _rage_basic("influence(-1)"), _RAGE + ("influence()", "-1")),
    BadCase("negative_heal", _rage_basic("heal(-4)"), _RAGE + ("heal()", "-4")),
    BadCase("zero_cards_drawn", _override('[tactics.great_start]\neffect = "draw(0)"\n'),
            ("my_override.toml", "tactics.toml", "tactic 'great_start'", "field 'effect'", "draw()", "0")),
    BadCase("negative_crystals", _rage_basic("gain_crystal(red, -1)"), _RAGE + ("gain_crystal()", "-1")),
    BadCase("too_many_mana_tokens", _rage_basic("gain_mana(red, 10)"), _RAGE + ("gain_mana()", "10")),
    BadCase("negative_fame", _rage_basic("fame(-1)"), _RAGE + ("fame()", "-1")),
    BadCase("reputation_past_the_track", _rage_basic("reputation(16)"), _RAGE + ("reputation()", "16")),
    BadCase("zero_wounds", _rage_basic("take_wound(0)"), _RAGE + ("take_wound()", "0")),
    BadCase("unit_level_5", _rage_basic("ready_unit(5)"), _RAGE + ("ready_unit()", "max_level", "5")),
    BadCase("negative_terrain_floor", _rage_basic("terrain_cost(forest, -1, floor=-1)"),
            _RAGE + ("terrain_cost()", "floor", "-1")),
    BadCase("enemy_armor_floor_0", _rage_basic("enemy_armor(-2, floor=0)"), _RAGE + ("enemy_armor()", "floor", "0")),
    BadCase("zero_source_dice", _rage_basic("extra_source_die(0)"), _RAGE + ("extra_source_die()", "0")),
    BadCase("amount_inside_a_choice", _rage_basic("choice(attack(2), block(-2))"), _RAGE + ("block()", "-2")),
    # nesting: a bounded depth, one error line, no RecursionError
    BadCase("effect_nested_500_deep", _rage_basic("all(move(1), " * 500 + "move(1)" + ")" * 500),
            _RAGE + ("nested more than 32 levels",)),
    BadCase("effect_100000_characters", _rage_basic("all(" * 25000),
            _RAGE + ("nested more than 32 levels", "100000 characters")),
    BadCase("toml_nested_100000_deep", _override("x = " + "[" * 100000 + "]" * 100000 + "\n"),
            ("my_override.toml", "nested too deeply")),
    # handlers against the engine's declarations (mksim._engine.handler_registry)
    BadCase("handler_mistyped_argument", _ice_shield("handler(ice_shield_block, blok=3, armor=-3)"),
            _ICE + ("ice_shield_block", "'blok'", "block, armor")),
    BadCase("handler_unknown_name", _ice_shield("handler(ice_shield_blok, block=3, armor=-3)"),
            _ICE + ("ice_shield_blok", "implements no handler")),
    BadCase("handler_missing_argument", _ice_shield("handler(ice_shield_block, block=3)"),
            _ICE + ("ice_shield_block", "missing argument", "'armor'")),
    # ... and a handler of a registry group module (ext/_fx_basic.pyx: its entries are the declarations)
    BadCase("registry_handler_mistyped_argument",
            _override('[basic_actions.concentration]\npowered = "handler(concentration, bonsu=2)"\n'),
            ("my_override.toml", "basic_actions.toml", "card 'concentration'", "field 'powered'",
             "concentration", "'bonsu'", "bonus")),
    BadCase("registry_handler_unknown_name",
            _override('[basic_actions.concentration]\npowered = "handler(concentratoin, bonus=2)"\n'),
            ("my_override.toml", "basic_actions.toml", "card 'concentration'", "field 'powered'",
             "concentratoin", "implements no handler")),
    BadCase("handler_negative_amount", _ice_shield("handler(ice_shield_block, block=-3, armor=-3)"),
            _ICE + ("ice_shield_block", "'block'", "-3")),
    BadCase("handler_flag_not_0_or_1", _override(
        '[advanced_actions.mountain_lore]\npowered = "all(move(5), handler(terrain_passable, terrain=mountain, safe=2))"\n'),
            ("advanced_actions.toml", "card 'mountain_lore'", "field 'powered'", "terrain_passable", "'safe'",
             "0 or 1", "2")),
    BadCase("handler_word_argument_given_a_number", _override(
        '[artifacts.shield_of_the_fallen_kings]\nbasic = "handler(split_block, n=4, count=2, element=5)"\n'),
            ("artifacts.toml", "card 'shield_of_the_fallen_kings'",
             "field 'basic'", "split_block", "'element'", "physical")),
    BadCase("handler_effect_argument_given_a_number", _ice_shield("handler(mana_cost, colour=blue, optional=1, then=3)"),
            _ICE + ("mana_cost", "'then'", "must be an effect")),
    BadCase("handler_number_argument_given_an_effect", _ice_shield("handler(ice_shield_block, block=move(1), armor=-3)"),
            _ICE + ("ice_shield_block", "'block'", "not an effect")),
    # --content paths: empty, unreadable, not a folder or TOML, stray files
    BadCase("empty_folder", _mkdir("empty"), ("empty", "holds no catalogue file")),
    BadCase("folder_with_only_a_readme", _mkdir("notes", "README.md"), ("notes", "holds no catalogue file")),
    BadCase("folder_with_stray_files", _stray_files, ("mine", "not a catalogue file", "notes.txt", "old/")),
    BadCase("path_not_toml", _file("notes.txt", "[enemies.prowlers]\narmor = 4\n"),
            ("notes.txt", "not a folder or a .toml file")),
    BadCase("path_not_a_regular_file", _fifo, ("pipe", "neither a folder nor a regular file")),
    BadCase("empty_override", _override(""), ("my_override.toml", "changes nothing")),
    BadCase("catalogue_file_not_a_regular_file", _catalogue_fifo, ("units.toml", "not a regular file")),
    BadCase("catalogue_file_as_override", _catalogue_as_override, ("enemies.toml", "[[enemy]]", "like a catalogue file")),
    # what the engine reads when it binds content to a game (checked even without counts)
    BadCase("reputation_space_missing", _folder(lambda d: remove_entry(d / "reputation.toml", "space", "3", "position")),
            ("reputation.toml", "-7 .. +8", "missing: 3")),
    BadCase("site_without_heal_cost", _folder(lambda d: remove_field(d / "sites.toml", "site", "village", "heal_cost")),
            ("sites.toml", "site 'village'", "heal_cost")),
    BadCase("more_tiles_than_the_catalogue", _override("[scenarios.first_reconnaissance]\ncountryside_tiles = 40\n"),
            ("my_override.toml", "scenarios.toml", "scenario 'first_reconnaissance'", "field 'countryside_tiles'",
             "40", "11", "1.2.13")),
    BadCase("setup_positions_unfilled", _override("[scenarios.first_reconnaissance]\ncountryside_tiles = 0\n"
                                                  "core_tiles = 0\n"),
            ("my_override.toml", "scenarios.toml", "scenario 'first_reconnaissance'", "setup positions", "'wedge'",
             "1.2.14")),
    BadCase("site_fame_reward", _override('[sites.dungeon]\nrewards = ["fame"]\n'),
            ("my_override.toml", "sites.toml", "site 'dungeon'", "rewards", "'fame'")),
    BadCase("wound_card_renamed", _override('[wound.wound]\nid = "wounds"\n'),
            ("my_override.toml", "wound.toml", "'wound'", "'wounds'")),
)
