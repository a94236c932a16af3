"""The mksim command line (mksim/cli.py)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from content_edit import BAD_CASES, remove_entry, set_field, write_override
from mksim.cli import app
from mksim.content import DATA_DIR

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def assert_error(result, *names):
    """One 'error:' line naming what is wrong, exit status 2, no traceback."""
    assert result.exit_code == 2, result.output
    assert "error:" in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    for part in names:
        assert part in result.output, f"{part!r} not in {result.output!r}"


# ---------------------------------------------------------------------------------------
# Help
# ---------------------------------------------------------------------------------------


def test_top_level_help():
    r = run("--help")
    assert r.exit_code == 0
    assert "content" in r.output and "Mage Knight" in r.output


def test_content_help_lists_its_commands():
    r = run("content", "--help")
    assert r.exit_code == 0
    for cmd in ("list", "show", "validate", "vocabulary"):
        assert cmd in r.output


# ---------------------------------------------------------------------------------------
# validate / list / show / vocabulary
# ---------------------------------------------------------------------------------------


def test_validate_ends_with_the_summary_line():
    r = run("content", "validate")
    assert r.exit_code == 0, r.output
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("content ok: ")
    # 28 + 12 AAs (LL-2.4.1), 20 + 4 spells (LL-2.4.2), 16 + 8 artifacts (LL-2.4.3), 6 + 6 tactics
    # (1.2.12), 4 cities x 11 garrison levels (19.5), 10 levels (13.6.2); 22 basic actions =
    # 12 standard + 10 hero cards, 51 enemy types = 29 base + 22 LL rows of enemies.csv
    for part in ("5 heroes", "22 basic actions", "40 advanced actions", "24 spells", "24 artifacts",
                 "30 units", "51 enemy types", "12 tactics", "27 tiles", "44 city garrisons", "10 levels"):
        assert part in last
    assert "effect rows" in r.output


def test_list_spells_lists_ids_from_spells_toml():
    r = run("content", "list", "spells")
    assert r.exit_code == 0
    lines = r.output.strip().splitlines()
    assert len(lines) == 24  # 20 base + 4 Lost Legion spells (LL-2.4.2)
    ids = [line.split()[0] for line in lines]
    assert ids[0] == "fireball"
    assert {"fireball", "mana_meltdown", "cure"} <= set(ids)
    assert "rage" not in ids


def test_list_accepts_aliases_and_counts_every_kind():
    assert run("content", "list", "advanced-actions").output.count("\n") == 40  # LL-2.4.1: 28 + 12
    assert run("content", "list", "aa").output.count("\n") == 40
    r = run("content", "list")
    assert r.exit_code == 0
    counts = {line.split()[0]: int(line.split()[1]) for line in r.output.strip().splitlines()}
    assert counts["enemies"] == 51 and counts["spells"] == 24 and counts["city-garrisons"] == 44


def test_show_rage():
    r = run("content", "show", "rage")
    assert r.exit_code == 0
    assert "attack(4)" in r.output
    assert "choice(attack(2), block(2))" in r.output
    assert "basic_actions.toml" in r.output


def test_show_by_name_and_powered_name():
    assert "fire_bolt" in run("content", "show", "Fire Bolt").output
    r = run("content", "show", "firestorm")  # the powered name of Fireball
    assert r.exit_code == 0 and "fireball" in r.output


def test_show_nonsense_exits_2():
    assert_error(run("content", "show", "nonsense"), "nonsense")


def test_list_unknown_kind_exits_2():
    assert_error(run("content", "list", "nosuchkind"), "nosuchkind", "spells")


def test_vocabulary_lists_every_operation():
    from mksim import effects as fx
    r = run("content", "vocabulary")
    assert r.exit_code == 0
    for op in fx.OPS:
        assert f"{op.name}(" in r.output
    assert "element: physical fire ice coldfire" in r.output


# ---------------------------------------------------------------------------------------
# --content
# ---------------------------------------------------------------------------------------


def test_folder_with_an_edited_units_toml(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "units.toml").write_text((DATA_DIR / "units.toml").read_text(encoding="utf-8"), encoding="utf-8")
    set_field(folder / "units.toml", "unit", "peasants", "cost", "2")
    r = run("content", "validate", "--content", folder)
    assert r.exit_code == 0, r.output
    assert "units.toml" in r.output
    shown = run("content", "show", "peasants", "--content", folder).output
    assert [line.split() for line in shown.splitlines() if line.split()[:1] == ["cost"]] == [["cost", "2"]]
    shipped = run("content", "show", "peasants").output
    assert [line.split() for line in shipped.splitlines() if line.split()[:1] == ["cost"]] == [["cost", "4"]]


def test_override_file_readme_rage3(tmp_path):
    ov = write_override(tmp_path, '[basic_actions.rage]\nbasic = "choice(attack(3), block(2))"\n', "rage3.toml")
    assert run("content", "validate", "--content", ov).exit_code == 0
    r = run("content", "show", "rage", "--content", ov)
    assert "choice(attack(3), block(2))" in r.output


def test_validate_with_an_override_names_the_override_file(tmp_path):
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    r = run("content", "validate", "--content", ov)
    assert r.exit_code == 0, r.output
    user_line = [line for line in r.output.splitlines() if line.startswith("user content:")]
    assert user_line and "my_override.toml" in user_line[0], r.output


@pytest.mark.parametrize("case", BAD_CASES, ids=[c.id for c in BAD_CASES])
def test_bad_content_exits_2_with_one_error_line(tmp_path, case):
    path = case.build(tmp_path)
    r = run("content", "validate", "--content", path)
    assert_error(r, *case.names)
    assert len([line for line in r.output.splitlines() if line.startswith("error:")]) == 1


def test_bad_content_also_fails_list_and_show(tmp_path):
    path = BAD_CASES[0].build(tmp_path)
    assert_error(run("content", "list", "--content", path), "enemies.toml", "prowlers", "armor")
    assert_error(run("content", "show", "rage", "--content", path), "enemies.toml", "prowlers", "armor")


def test_no_count_check_lets_one_deleted_advanced_action_validate(data_copy):
    remove_entry(data_copy / "advanced_actions.toml", "card", "mountain_lore")
    assert_error(run("content", "validate", "--content", data_copy), "LL-2.4.1")
    r = run("content", "validate", "--content", data_copy, "--no-count-check")
    assert r.exit_code == 0, r.output
    assert "39 advanced actions" in r.output.strip().splitlines()[-1]


# ---------------------------------------------------------------------------------------
# The installed console script
# ---------------------------------------------------------------------------------------


def test_installed_console_script_validates(tmp_path):
    exe = Path(sys.executable).with_name("mksim")
    assert exe.exists(), f"console script not installed next to {sys.executable}"
    done = subprocess.run([str(exe), "content", "validate"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1].startswith("content ok: ")
    bad = subprocess.run([str(exe), "content", "show", "nonsense"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and "Traceback" not in bad.stderr


def test_validate_binds_the_content_to_the_engine_as_play_would(tmp_path, monkeypatch):
    """What the engine refuses when a game starts is reported by `validate`, not first by `play`."""
    from content_edit import engine_refuses
    ov = write_override(tmp_path, "[enemies.prowlers]\narmor = 4\n")
    assert run("content", "validate", "--content", ov).exit_code == 0
    message = engine_refuses(monkeypatch, "setup")
    r = run("content", "validate", "--content", ov)
    assert_error(r, f"error: {ov}: scenario 'first_reconnaissance': the engine cannot use this content: {message}")
    assert len(r.output.strip().splitlines()) == 1


def test_an_unreadable_content_folder_exits_2(data_copy, monkeypatch):
    import mksim.content as ct

    def refuse(path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(ct.os, "listdir", refuse)        # (tests run as root: chmod would not stop them)
    for cmd in (("content", "validate"), ("content", "list"), ("play",)):
        assert_error(run(*cmd, "--content", data_copy), str(data_copy), "cannot be read (permission denied)")


def test_vocabulary_shows_the_ranges_of_amounts():
    r = run("content", "vocabulary")
    lines = r.output.splitlines()
    attack = lines.index("attack(n, element=physical, kind=melee)")
    assert lines[attack + 2] == "    range: n 1 .. 99"
    assert "    range: n -15 .. 15" in lines              # reputation
