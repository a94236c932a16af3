"""Content coverage (issue 8, docs/conformance.md): the ``covers`` marks of the suite name real
entries and halves, the coverage computation on a tiny synthetic catalogue and tests folder,
``mksim content coverage``'s output, and the ratchet: the untested halves are exactly
tests/conformance/untested.txt (regenerate with ``mksim content coverage --write-ratchet``)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mksim import coverage as cv
from mksim import effects as fx
from mksim.cli import app
from mksim.content import KINDS, Content

TESTS = Path(__file__).resolve().parent
RATCHET = TESTS / cv.RATCHET
REGENERATE = "python -m mksim content coverage --write-ratchet"
SUMMARY = re.compile(r"^coverage: (\d+)/(\d+) implemented, (\d+)/(\d+) tested$")

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def suite(content):
    """The coverage of the shipped content by this checkout's tests."""
    marks, problems = cv.read_marks(TESTS)
    return cv.compute(content, marks, problems)


# -- (a) every covers mark names an existing entry and existing halves --------------------------

def test_every_covers_mark_names_an_entry_and_its_halves(suite):
    assert not suite.problems, "bad covers marks:\n" + "\n".join(map(str, suite.problems))


def test_the_suite_has_covers_marks(suite):
    """The reader finds the marks of tests/conformance (the check above is not vacuous)."""
    assert sum(len(t) for t in suite.tests.values()) > 0


# -- (b) the computation on a synthetic catalogue and tests folder -------------------------------

def _card(key, basic, powered, **extra):
    return {"id": key, "name": key.title(), "basic": basic, "powered": powered,
            "expansion": "base", "source": "MKC;DIG", **extra}


def synthetic_content() -> Content:
    """Two Basic Actions (one with a Lost Legion printing), a unit, a skill and a tactic."""
    entries = {k: [] for k in KINDS}
    entries["basic_actions"] = [
        _card("zap", "choice(attack(2), block(2))", "attack(4)"),
        _card("hop", "move(2)", "by_time(day=move(3), night=move(4))", expansion="lost_legion",
              source="TTS", ll_printing={"basic": "choice(move(2), influence(2))", "source": "DIG-TS"}),
    ]
    entries["units"] = [{"id": "grunts", "name": "Grunts", "expansion": "base", "source": "SEED",
                         "abilities": [{"effect": "attack(2)"}, {"effect": "choice(block(2), block(3))"}]}]
    entries["skills"] = [{"id": "plan", "name": "Plan", "expansion": "lost_legion", "source": "DIG",
                          "effect": "handler(cooperative_not_modelled, effect=move(1))"}]
    entries["tactics"] = [{"id": "nap", "name": "Nap", "source": "YAV", "effect": "nothing()"}]
    parsed = {}
    for kind, es in entries.items():
        for e in es:
            for f in ("basic", "powered", "effect"):
                if f in e:
                    parsed[(kind, e["id"], f)] = fx.parse_effect(e[f])
            for i, a in enumerate(e.get("abilities", [])):
                parsed[(kind, e["id"], f"abilities[{i}].effect")] = fx.parse_effect(a["effect"])
            for f, v in e.get("ll_printing", {}).items():
                if f in ("basic", "powered"):
                    parsed[(kind, e["id"], f"ll_printing.{f}")] = fx.parse_effect(v)
    return Content(entries, {k.file: k.file for k in KINDS.values()}, parsed)


SYNTH_TESTS = {
    "test_zap.py": '''
        import pytest
        from pytest import mark

        @pytest.mark.covers("zap", "basic.1", "basic.2")
        def test_zap_both(): pass

        @mark.covers("zap", "basic.1")
        @pytest.mark.covers("grunts", "ability1")
        def test_zap_attack_and_grunts(): pass

        @pytest.mark.covers("zap", "basic.1")
        @pytest.mark.covers("zap", "basic.1")           # the same half twice: one test
        def test_zap_twice(): pass

        @pytest.mark.covers("zap", "powered")
        def helper(): pass                              # not collected: a problem

        @pytest.mark.covers("zpa", "basic")             # typo in the entry: a problem
        def test_typo_entry(): pass

        @pytest.mark.covers("zap", "basic")             # no such half (basic is split)
        def test_typo_half(): pass
    ''',
    "conformance/test_more.py": '''
        import pytest
        pytestmark = [pytest.mark.covers("nap", "effect"), pytest.mark.slow]

        def test_nap_one(): pass
        def test_nap_two(): pass

        @pytest.mark.covers("hop", "powered.day")
        class TestHop:
            pytestmark = pytest.mark.covers("hop", "basic")
            def test_a(self): pass
            def test_b(self): pass
            def not_a_test(self): pass

        @pytest.mark.parametrize("x", [1, 2, 3])
        @pytest.mark.covers("hop", "basic.2@ll")
        def test_hop_parametrized_counts_once(x): pass

        @pytest.mark.parametrize("x", [
            pytest.param(1, marks=pytest.mark.covers("hop", "basic.1@ll")),
            pytest.param(2, marks=[pytest.mark.covers("hop", "basic.1@ll")]),
            3,
        ])
        def test_hop_params(x): pass
    ''',
    "conformance/notes.txt": 'covers("zap", "powered") is not a python file',
}


@pytest.fixture
def synth_tests(tmp_path):
    root = tmp_path / "tests"
    for name, text in SYNTH_TESTS.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_halves_are_derived_per_kind_choice_by_time_and_ll_printing():
    ents = {e.id: e for e in cv.entries(synthetic_content())}
    assert ents["zap"].halves == ["basic.1", "basic.2", "powered"]
    assert ents["hop"].halves == ["basic", "powered.day", "powered.night",
                                  "basic.1@ll", "basic.2@ll", "powered.day@ll", "powered.night@ll"]
    assert ents["grunts"].halves == ["ability1", "ability2.1", "ability2.2"]
    assert ents["plan"].halves == ["effect"] and ents["nap"].halves == ["effect"]


def test_implementation_and_text_source():
    ents = {e.id: e for e in cv.entries(synthetic_content())}
    assert ents["zap"].implementation == "expression" and ents["zap"].implemented
    assert not ents["plan"].implemented and "cooperative_not_modelled" in ents["plan"].implementation
    assert ents["zap"].text_source == "card summary (MKC;DIG)"
    assert ents["grunts"].text_source == "rulebook (SEED)"
    # TTS holds spell names and colours only: a Lost Legion entry with no Lost Legion text
    assert ents["hop"].text_source == ("card summary (TTS); Lost Legion text missing; "
                                       "@ll: card summary (DIG-TS)")


def test_coverage_counts_on_synthetic_tests(synth_tests):
    marks, problems = cv.read_marks(synth_tests)
    assert [(p.file, p.line) for p in problems] == [("tests/test_zap.py", 16)]   # helper()
    cov = cv.compute(synthetic_content(), marks, problems)
    ents = {e.id: e for e in cov.entries}
    counts = {(e.id, h): cov.count(e, h) for e in cov.entries for h in e.halves}
    assert counts[("zap", "basic.1")] == 3
    assert counts[("zap", "basic.2")] == 1 and counts[("zap", "powered")] == 0
    assert counts[("grunts", "ability1")] == 1 and counts[("grunts", "ability2.1")] == 0
    assert counts[("nap", "effect")] == 6                 # module pytestmark: every test of it
    assert counts[("hop", "basic")] == 2 and counts[("hop", "powered.day")] == 2   # the class
    assert counts[("hop", "basic.2@ll")] == 1             # parametrized x3: counted once
    assert counts[("hop", "basic.1@ll")] == 2             # two pytest.param marks
    assert sorted(str(p).split(": ", 1)[0] for p in cov.problems) == [
        "tests/test_zap.py:16", "tests/test_zap.py:19", "tests/test_zap.py:22"]
    assert "zap has no half 'basic'" in str(cov.problems[-1])
    assert cov.tested(ents["nap"]) and not cov.tested(ents["zap"])
    assert cov.summary() == "coverage: 4/5 implemented, 1/5 tested"
    assert ("zap", "powered") in cov.untested() and ("nap", "effect") not in cov.untested()
    assert cov.ratchet_text().splitlines()[0] == "grunts ability2.1"


def test_a_test_file_that_does_not_parse_is_named(synth_tests):
    (synth_tests / "test_broken.py").write_text("@pytest.mark.covers('zap', 'basic.1')\ndef (:\n")
    with pytest.raises(cv.CoverageError, match=r"tests/test_broken.py:2: does not parse"):
        cv.read_marks(synth_tests)


def test_non_literal_covers_arguments_are_a_problem(synth_tests):
    (synth_tests / "test_dyn.py").write_text(
        "import pytest\nE = 'zap'\n@pytest.mark.covers(E, 'basic.1')\ndef test_x(): pass\n")
    marks, problems = cv.read_marks(synth_tests)
    assert "tests/test_dyn.py:3: covers(...) must be given string literals" in [
        str(p)[:len("tests/test_dyn.py:3: covers(...) must be given string literals")] for p in problems]


# -- (c) the command line ----------------------------------------------------------------------

def test_cli_last_line_is_the_summary(content, suite):
    res = run("content", "coverage")
    assert res.exit_code == 0, res.output
    last = res.output.rstrip("\n").splitlines()[-1]
    m = SUMMARY.match(last)
    assert m, last
    n, m1, k, m2 = map(int, m.groups())
    assert m1 == m2 == sum(len(content[kind]) for kind in cv.COVERED_KINDS) == len(suite.entries)
    assert last == suite.summary()
    # one row per entry between the header and the summary
    assert len(res.output.rstrip("\n").splitlines()) == len(suite.entries) + 2
    row = next(line for line in res.output.splitlines() if line.split()[:2] == ["basic", "rage"])
    assert "basic.1=" in row and "powered=" in row and "card summary (MKC;DIG;DIGDOC)" in row


def test_cli_missing_and_json_on_a_synthetic_tests_folder(tmp_path):
    root = tmp_path / "tests"
    root.mkdir()
    (root / "test_rage.py").write_text(
        "import pytest\n@pytest.mark.covers('rage', 'basic.1', 'basic.2', 'powered')\n"
        "def test_rage(): pass\n")
    res = run("content", "coverage", "--tests", root, "--missing")
    assert res.exit_code == 0, res.output
    lines = res.output.rstrip("\n").splitlines()
    assert not any(line.split()[1] == "rage" for line in lines[:-1])
    assert any(line.split()[1:] == ["march", "basic"] for line in lines[:-1])
    m = SUMMARY.match(lines[-1])
    assert m and m.group(3) == "1"                        # Rage alone is tested
    res = run("content", "coverage", "--tests", root, "--json")
    import json
    d = json.loads(res.output)
    rage = next(e for e in d["entries"] if e["id"] == "rage")
    assert rage["tests"] == {"basic.1": 1, "basic.2": 1, "powered": 1} and rage["tested"]


def test_cli_warns_about_a_bad_mark(tmp_path):
    root = tmp_path / "tests"
    root.mkdir()
    (root / "test_x.py").write_text("import pytest\n@pytest.mark.covers('rgae', 'basic.1')\ndef test_x(): pass\n")
    res = run("content", "coverage", "--tests", root)
    assert res.exit_code == 0
    assert "warning: tests/test_x.py:2: covers('rgae', ...) names no entry" in res.output


def test_cli_bad_input(tmp_path, monkeypatch):
    for args, names in [(["--tests", tmp_path / "nowhere"], ["error:", "nowhere", "no such folder"]),
                        (["--content", tmp_path / "nothing.toml"], ["error:", "nothing.toml"])]:
        res = run("content", "coverage", *args)
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1
        for part in names:
            assert part in res.output
    broken = tmp_path / "tests"
    broken.mkdir()
    (broken / "test_b.py").write_text("def (:\n    covers\n")
    res = run("content", "coverage", "--tests", broken)
    assert res.exit_code == 2 and res.output.startswith("error: tests/test_b.py:1: does not parse")
    monkeypatch.setattr(cv, "default_tests_dir", lambda: None)
    res = run("content", "coverage")
    assert res.exit_code == 2 and "no tests folder" in res.output and "--tests DIR" in res.output


def test_cli_write_ratchet_writes_the_untested_halves(tmp_path):
    root = tmp_path / "tests"
    (root / "conformance").mkdir(parents=True)
    (root / "test_rage.py").write_text(
        "import pytest\n@pytest.mark.covers('rage', 'basic.1', 'basic.2', 'powered')\n"
        "def test_rage(): pass\n")
    res = run("content", "coverage", "--tests", root, "--write-ratchet")
    assert res.exit_code == 0, res.output
    lines = (root / cv.RATCHET).read_text().splitlines()
    assert lines == sorted(lines) and "march basic" in lines
    assert not any(line.startswith("rage ") for line in lines)
    res = run("content", "coverage", "--tests", tmp_path / "tests" / "conformance", "--write-ratchet")
    assert res.exit_code == 2 and "no such folder for the ratchet file" in res.output


# -- (d) the ratchet ----------------------------------------------------------------------------

def test_untested_halves_are_exactly_the_ratchet_file(suite):
    """Every half without a conformance test is listed in tests/conformance/untested.txt, and
    every half listed there is still untested: the file can only shrink and stays exact.  With
    the file empty this is issue 8's "fails when a shipped entry lacks a conformance test"."""
    listed = cv.read_ratchet(RATCHET)
    assert listed == sorted(set(listed)), f"{RATCHET} is not sorted or has duplicates; run {REGENERATE}"
    untested = set(suite.untested())
    new = sorted(untested - set(listed))
    assert not new, (f"{len(new)} halves without a conformance test (add a test with @pytest.mark.covers, "
                     f"docs/conformance.md): {' '.join(f'{e}:{h}' for e, h in new[:20])}"
                     f"{' ...' if len(new) > 20 else ''}")
    done = sorted(set(listed) - untested)
    assert not done, (f"{RATCHET.name} lists {len(done)} halves that now have tests (or no longer "
                      f"exist): {' '.join(f'{e}:{h}' for e, h in done[:20])}"
                      f"{' ...' if len(done) > 20 else ''}; run {REGENERATE} and commit it")


def test_cli_designer_content_gets_a_new_half_to_test(tmp_path):
    """A designer's option is a new half: Rage with a third option (an override, --content)
    has basic.3, untested, listed by --missing; the rest of Rage is covered by the synthetic
    test."""
    from content_edit import write_override
    over = write_override(tmp_path, '[basic_actions.rage]\nbasic = "choice(attack(2), block(2), move(1))"\n')
    root = tmp_path / "tests"
    root.mkdir()
    (root / "test_rage.py").write_text(
        "import pytest\n@pytest.mark.covers('rage', 'basic.1', 'basic.2', 'powered')\n"
        "def test_rage(): pass\n")
    res = run("content", "coverage", "--content", over, "--tests", root, "--missing")
    assert res.exit_code == 0, res.output
    rage = [line.split()[2] for line in res.output.splitlines()[:-1] if line.split()[1] == "rage"]
    assert rage == ["basic.3"]
