"""Helpers for tests that edit copies of the catalogue files (never the shipped files).

The edits work on the TOML text so that a test changes exactly one thing and keeps the
rest of the file (comments, order, other entries) as shipped.  Every helper insists that
what it looks for occurs exactly once, so a change in the shipped data makes the test fail
loudly instead of silently editing nothing.
"""
from __future__ import annotations

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
)
