"""The conformance class (tests/policy_conformance.py) itself: every registered built-in
policy has a test class that inherits it, and the documented example plug-in passes it."""
from __future__ import annotations

import re
from pathlib import Path

from mksim.policies import list_policies, policy_class, register
from policy_conformance import PolicyConformance

TESTS = Path(__file__).resolve().parent
DOCS = TESTS.parent / "docs" / "policies.md"


def _example_class():
    """The documented example, loaded as a plug-in file (docs/policies.md, path 2)."""
    import tempfile
    from mksim.policies.registry import load_policy_file
    text = DOCS.read_text()
    section = text[text.index("## Writing a policy"):]
    path = Path(tempfile.mkdtemp(prefix="mksim_example_")) / "explorer.py"
    path.write_text(re.search(r"```python\n(.*?)```", section, re.S).group(1))
    return load_policy_file(str(path), "Explorer")


Explorer = _example_class()
if "explorer-example" not in list_policies():
    register(Explorer)


class TestExamplePlugin(PolicyConformance):
    """The documented plug-in is held to the same contract as the built-ins."""
    name = "explorer-example"
    params = {"eagerness": 0.8}
    ci_games = 3


def test_every_builtin_policy_has_a_conformance_test_class():
    """A class that inherits PolicyConformance (or its alias PolicyContract) and sets
    ``name = "<policy>"`` exists in tests/test_*.py for every built-in policy."""
    covered = set()
    cls_re = re.compile(r"^class \w+\((?:PolicyConformance|PolicyContract)\):\n((?:[ \t]+.*\n|\n)*)", re.M)
    for path in TESTS.glob("test_*.py"):
        for m in cls_re.finditer(path.read_text()):
            name = re.search(r'^\s+name = "([^"]+)"', m.group(1), re.M)
            if name:
                covered.add(name.group(1))
    builtin = {n for n in list_policies() if policy_class(n).__module__.startswith("mksim.")}
    assert {"random", "eager", "first"} <= builtin
    missing = builtin - covered
    assert not missing, f"built-in policies without a conformance test class: {sorted(missing)}"


class TestHeuristicConformance(PolicyConformance):
    name = "heuristic"
    ci_games = 3


class TestHeuristicExplorerConformance(PolicyConformance):
    name = "heuristic-explorer"
    ci_games = 2


class TestHeuristicConquerorConformance(PolicyConformance):
    name = "heuristic-conqueror"
    ci_games = 2


class TestHeuristicBalancedConformance(PolicyConformance):
    name = "heuristic-balanced"
    params = {"aggression": 1.1}
    ci_games = 2


class TestSearchConformance(PolicyConformance):
    """The same settings as TestOracleSearchConformance: where the oracle's decisions
    differ on a pair, the honest search's must not."""
    name = "search"
    params = {"budget": 8, "horizon": 1, "max_branch": 32}
    ci_games = 1
    seeds = (0,)
    wide_pairs = True


class TestSearchEagerConformance(PolicyConformance):
    """search rolled out with the eager base: its worlds and the base's draws come from
    the policy's own stream, so it is reproducible and blind as well."""
    name = "search"
    params = {"budget": 4, "base": "eager", "horizon": 1}
    ci_games = 1
    seeds = (0,)


class TestOracleSearchConformance(PolicyConformance):
    """Declares sees_hidden and says so in its name; the conformance class checks that it
    really decides differently on some pair differing only in hidden information."""
    name = "oracle-search"
    params = {"budget": 8, "horizon": 1, "max_branch": 32}
    ci_games = 1
    seeds = (0,)
