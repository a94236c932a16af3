"""Plug-in policies (docs/policies.md "Writing a policy"): a Python subclass of
``mksim.Policy`` works without compilation, through three paths -- the class itself, a file
(``--policy path/file.py:ClassName``) and the entry-point group ``mksim.policies`` -- and
every mistake is one clear message (``PolicyError``; ``error: ...`` and exit 2 on the
command line)."""
from __future__ import annotations

import importlib
import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mksim
from mksim.cli import app
from mksim.policies import (PolicyError, get_policy, list_policies, load_entry_points, parse_policy_spec,
                            policy_class, register, unregister)
from mksim.policies import registry as _registry
from mksim.runner import ERROR_ILLEGAL_ACTION, ERROR_NONE, ERROR_POLICY_FAILED, GameConfig, play_game, run

DOCS = Path(__file__).resolve().parents[1] / "docs" / "policies.md"
cli = CliRunner()


def example_source() -> str:
    """The complete example policy of docs/policies.md (the first python block of the
    'Writing a policy' section), so that the documented code is the tested code."""
    text = DOCS.read_text()
    section = text[text.index("## Writing a policy"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture(scope="module")
def example_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("plugin") / "explorer.py"
    path.write_text(example_source())
    return path


def assert_error(result, *parts):
    assert result.exit_code == 2, result.output
    out = result.output
    assert "Traceback" not in out and out.count("error:") == 1
    for p in parts:
        assert p in out


def _moves(policy, seeds=range(4)):
    """Move and explore decisions over whole First Reconnaissance games."""
    from mksim.game import Game
    from mksim.policies import action_kind
    g = Game("first-reconnaissance", "arythea")
    n = 0
    for seed in seeds:
        policy.reset(seed, 0)
        s = g.new_state(seed)
        while not s.is_terminal():
            a = policy.choose(s, s.legal_actions())
            n += action_kind(a) in ("move", "explore")
            s.apply(a)
    return n


# ---------------------------------------------------------------------------------------
# path 1: the subclass itself
# ---------------------------------------------------------------------------------------

def test_mksim_exports_the_policy_base_class():
    from mksim.policies import Policy
    assert mksim.Policy is Policy


def test_the_documented_subclass_plays_without_compilation():
    ns: dict = {}
    exec(compile(example_source(), str(DOCS), "exec"), ns)
    Explorer = ns["Explorer"]
    assert issubclass(Explorer, mksim.Policy)
    p = Explorer(eagerness=0.8)
    assert p.metadata["stochastic"] and not p.metadata["sees_hidden"] and p.metadata["cost"] == "~ legal actions"
    res = run(GameConfig("first-reconnaissance", "arythea"), 6, seed=3, policy=p)
    assert (res.records["error"] == ERROR_NONE).all() and res.records["finished"].all()
    # it plays as described: it moves and explores far more often than random does
    assert _moves(p) > 1.25 * _moves(get_policy("random"))
    with pytest.raises(ValueError, match="eagerness must be between 0 and 1"):
        Explorer(eagerness=2.0)
    with pytest.raises(PolicyError, match="policy 'x.py:Explorer': eagerness must be between 0 and 1"):
        _registry.build(Explorer, "x.py:Explorer", {"eagerness": 2.0})


def test_parallel_run_ships_a_file_policy_to_workers(example_file):
    """A class loaded from a file is pickled by value, so worker processes need not find
    the file on their path; the records equal a one-process run."""
    p = parse_policy_spec(f"{example_file}:Explorer:eagerness=0.7")
    one = run(GameConfig("first-reconnaissance", "arythea"), 4, seed=5, policy=p, jobs=1)
    two = run(GameConfig("first-reconnaissance", "arythea"), 4, seed=5, policy=p, jobs=2)
    assert (one.records == two.records).all()


# ---------------------------------------------------------------------------------------
# path 2: a file
# ---------------------------------------------------------------------------------------

def test_file_spec_builds_the_class_with_converted_parameters(example_file):
    p = parse_policy_spec(f"{example_file}:Explorer:eagerness=0.25")
    assert type(p).__name__ == "Explorer" and p.parameters == {"eagerness": 0.25}
    assert isinstance(p.eagerness, float)
    rec, msg = play_game(GameConfig("solo-conquest", "arythea"), 1, 0, p)
    assert rec["error"] == ERROR_NONE and rec["finished"], msg


def test_play_and_bench_take_a_file_policy(example_file):
    r = cli.invoke(app, ["play", "--policy", f"{example_file}:Explorer:eagerness=0.5", "--seed", "2"])
    assert r.exit_code == 0, r.output
    assert "game over" in r.output and "explorer-example(eagerness=0.5)" in r.output
    r = cli.invoke(app, ["bench", "--games", "3", "--policy", f"{example_file}:Explorer"])
    assert r.exit_code == 0, r.output
    assert "games_finished: 3" in r.output


def test_policies_show_describes_a_file_policy(example_file):
    r = cli.invoke(app, ["policies", "show", f"{example_file}:Explorer"])
    assert r.exit_code == 0, r.output
    assert "Explores, enters sites" in r.output
    assert re.search(r"eagerness\s+float\s+default 0.9", r.output)
    assert re.search(r"stochastic\s+True", r.output)


@pytest.mark.parametrize("spec, words", [
    ("nope", ["unknown policy 'nope'; known:", "random"]),
    ("eager:foo=1", ["policy 'eager' has no parameter 'foo'; its parameters: stream (int)"]),
    ("eager:stream=two", ["parameter 'stream' takes a whole number, not 'two'"]),
    ("eager:default=lots", ["parameter 'default' takes a number, not 'lots'"]),
    ("eager:stream", ["expected key=value, got 'stream'"]),
    ("eager:stream=1,stream=2", ["parameter 'stream' given twice"]),
    ("random:stream=-1", ["policy 'random': stream must be >= 0"]),
    ("eager:weights=3", ["cannot be set from a spec"]),
    ("missing/nowhere.py:Explorer", ["policy file 'missing/nowhere.py' does not exist"]),
])
def test_bad_policy_specs_are_one_error_line(spec, words):
    with pytest.raises(PolicyError) as err:
        parse_policy_spec(spec)
    for w in words:
        assert w in str(err.value)
    for command in (["play", "--policy", spec], ["bench", "--games", "1", "--policy", spec]):
        assert_error(cli.invoke(app, command), *words)


def test_file_without_the_class_or_not_a_policy(example_file, tmp_path):
    with pytest.raises(PolicyError, match="has no class 'Explorr'; it defines Explorer"):
        parse_policy_spec(f"{example_file}:Explorr")
    with pytest.raises(PolicyError, match="is not a subclass of mksim.Policy"):
        parse_policy_spec(f"{example_file}:PREFERRED")
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module_here\n")
    with pytest.raises(PolicyError, match="failed to import: ModuleNotFoundError"):
        parse_policy_spec(f"{broken}:Anything")
    assert_error(cli.invoke(app, ["policies", "show", f"{example_file}:Explorr"]), "has no class 'Explorr'")
    assert_error(cli.invoke(app, ["policies", "show", "nope"]), "unknown policy 'nope'")


# ---------------------------------------------------------------------------------------
# a policy that breaks the contract: the game is recorded as stopped, never fixed
# ---------------------------------------------------------------------------------------

BAD_POLICIES = textwrap.dedent('''
    import mksim

    class Cheat(mksim.Policy):
        name = "cheat"
        description = "Returns an action code no engine lists, to test that nothing fixes it."

        def choose(self, state, legal):
            return int(max(legal)) + 1

    class Crash(mksim.Policy):
        name = "crash"
        description = "Raises instead of deciding, to test that the game is stopped with that reason."

        def choose(self, state, legal):
            raise KeyError("my bug")
''')


@pytest.fixture(scope="module")
def bad_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("bad") / "bad.py"
    path.write_text(BAD_POLICIES)
    return path


def test_an_illegal_action_stops_the_game_with_that_reason(bad_file):
    rec, msg = play_game(GameConfig(), 0, 0, parse_policy_spec(f"{bad_file}:Cheat"))
    assert rec["error"] == ERROR_ILLEGAL_ACTION and not rec["finished"] and rec["steps"] == 0
    assert msg.startswith("policy cheat chose action ") and msg.endswith("which is not legal here")
    rec, msg = play_game(GameConfig(), 0, 0, parse_policy_spec(f"{bad_file}:Crash"))
    assert rec["error"] == ERROR_POLICY_FAILED and not rec["finished"]
    assert msg == "policy crash failed: KeyError: 'my bug'"


def test_cli_reports_a_policy_that_breaks_the_contract(bad_file):
    for cls, words in (("Cheat", "which is not legal here"), ("Crash", "failed: KeyError")):
        for command in (["play", "--policy", f"{bad_file}:{cls}"],
                        ["play", "--log", "--policy", f"{bad_file}:{cls}"],
                        ["bench", "--games", "2", "--policy", f"{bad_file}:{cls}"]):
            assert_error(cli.invoke(app, command), words)


# ---------------------------------------------------------------------------------------
# path 3: an entry point of an installed package
# ---------------------------------------------------------------------------------------

@pytest.fixture
def installed_plugin(tmp_path, monkeypatch):
    """A tiny package 'mkexample_pkg' with a dist-info declaring the documented class in
    the entry-point group mksim.policies (what pip writes for a pyproject entry point),
    plus a broken entry point next to it."""
    pkg = tmp_path / "mkexample_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(example_source())
    info = tmp_path / "mkexample_pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mkexample-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[mksim.policies]\nexplorer-example = mkexample_pkg:Explorer\nbroken-example = mkexample_pkg:Nowhere\n")
    saved = dict(_registry._REGISTRY)
    for name in ("explorer-example", "broken-example"):
        unregister(name)
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    load_entry_points(reload=True)
    yield
    _registry._REGISTRY.clear()
    _registry._REGISTRY.update(saved)
    _registry._PLUGIN_ERRORS.clear()


def test_entry_point_registers_the_class(installed_plugin):
    assert "explorer-example" in list_policies()
    cls = policy_class("explorer-example")
    assert cls.__module__ == "mkexample_pkg"
    p = get_policy("explorer-example", eagerness=0.5)
    rec, msg = play_game(GameConfig(), 4, 0, p)
    assert rec["error"] == ERROR_NONE and rec["finished"], msg
    r = cli.invoke(app, ["play", "--policy", "explorer-example:eagerness=0.5", "--seed", "4"])
    assert r.exit_code == 0 and "game over" in r.output, r.output
    r = cli.invoke(app, ["policies", "list"])
    assert r.exit_code == 0 and re.search(r"^explorer-example\s+stochastic", r.output, re.M)


def test_broken_entry_point_is_named_when_asked_for(installed_plugin):
    assert "broken-example" not in list_policies()
    with pytest.raises(PolicyError, match="entry point broken-example = mkexample_pkg:Nowhere .* failed to load"):
        policy_class("broken-example")
    assert_error(cli.invoke(app, ["play", "--policy", "broken-example"]), "failed to load")


# ---------------------------------------------------------------------------------------
# the registry's own rules
# ---------------------------------------------------------------------------------------

def test_a_policy_that_sees_hidden_information_must_say_so_in_its_name():
    class Peek(mksim.Policy):
        name = "peek"
        description = "Would read the true deck order."
        metadata = {"sees_hidden": True}

    with pytest.raises(ValueError, match="must start with 'oracle-'"):
        register(Peek)

    class OraclePeek(Peek):
        name = "oracle-peek"

    try:
        register(OraclePeek)
        assert policy_class("oracle-peek").metadata["sees_hidden"] is True
    finally:
        unregister("oracle-peek")


def test_metadata_defaults_fill_what_a_subclass_leaves_out():
    class Tiny(mksim.Policy):
        name = "tiny"
        metadata = {"stochastic": True}

    class Tinier(Tiny):
        name = "tinier"

    assert Tiny.metadata["stochastic"] is True and Tiny.metadata["sees_hidden"] is False
    assert Tinier.metadata["stochastic"] is True and Tinier.metadata["cost"] == "constant"


def test_policies_list_and_show_the_built_ins():
    r = cli.invoke(app, ["policies", "list"])
    assert r.exit_code == 0
    for name in ("random", "eager", "first"):
        assert re.search(rf"^{name}\s", r.output, re.M)
    r = cli.invoke(app, ["policies", "show", "random"])
    assert r.exit_code == 0
    assert "uniformly random legal action" in r.output
    assert re.search(r"stream\s+int\s+default 0", r.output)
    assert re.search(r"sees_hidden\s+False", r.output) and re.search(r"fast_path\s+True", r.output)
