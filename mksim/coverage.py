"""Content coverage: which halves of every shipped entry have conformance tests (issue 8).

An entry's *halves* are derived from the loaded content (docs/conformance.md): the slots of
its kind (``basic`` / ``powered`` for cards, ``ability1`` .. ``abilityN`` for units,
``effect`` for skills and tactics), each split by its top-level expression (``choice(...)``
into ``.1`` .. ``.n``, ``by_time(...)`` into ``.day`` / ``.night``), and for an entry with a
Lost Legion printing (``ll_printing``, LL-2.10.2) the same slots again with the suffix
``@ll``, split by the Lost Legion printing's own expressions (the entry as played with The
Lost Legion on, :meth:`mksim.content.Content.printing`).

Tests are read statically: every ``tests/**/*.py`` is parsed with :mod:`ast` (never imported
or run) and its ``@pytest.mark.covers(entry, *halves)`` marks are collected, on test
functions, on test classes (each test method of the class), in ``pytestmark = ...`` at module
or class level (each test of the module / class), and as ``marks=`` of a
``pytest.param(...)`` inside ``@pytest.mark.parametrize``.  Counting: one test per collected
test function (or method) and mark, whatever its parametrization; a ``covers`` mark given to
one ``pytest.param`` counts one test for that parameter.  A test carrying the same half twice
counts once.
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from pathlib import Path

from . import effects as fx
from .content import KINDS, Content

#: The kinds of content that are printed entries with conformance tests, in table order.
COVERED_KINDS = ("basic_actions", "advanced_actions", "spells", "artifacts", "units",
                 "skills", "tactics")
#: Short kind names for the table.
KIND_LABEL = {"basic_actions": "basic", "advanced_actions": "advanced", "spells": "spell",
              "artifacts": "artifact", "units": "unit", "skills": "skill", "tactics": "tactic"}
#: Handlers whose names end so stop the game with a named "not modelled" error when used
#: (e.g. ``cooperative_not_modelled``, ext/_fx_skills.pxi): an entry using one is not
#: implemented.
NOT_MODELLED_SUFFIX = "_not_modelled"
#: Suffix of the halves of the Lost Legion printing (LL-2.10.2).
LL = "@ll"
#: The ratchet file, relative to the tests folder (docs/conformance.md).
RATCHET = Path("conformance") / "untested.txt"

# Source keys of ../shared/data/SOURCES.md, by what they hold.
CARD_TEXT_KEYS = frozenset({"MKC", "DIG", "DIGDOC", "TTS", "YAV", "YAV-IMG", "YAV-CHG", "DIG-TS"})
RULEBOOK_KEYS = frozenset({"SEED", "RU"})
RULING_KEYS = frozenset({"KLIN"})
#: Keys whose files hold Lost Legion texts (SOURCES.md): an entry of The Lost Legion, or a
#: Lost Legion printing, with none of them has no text of its own to be tested against.
LL_TEXT_KEYS = frozenset({"MKC", "DIG", "DIGDOC", "DIG-TS", "YAV-CHG", "SEED", "RU", "KLIN"})


@dataclass
class Entry:
    """One printed entry: its halves and what implements it."""

    kind: str
    id: str
    name: str
    expansion: str
    halves: list[str]
    handlers: list[str]
    text_source: str

    @property
    def implemented(self) -> bool:
        return not any(h.endswith(NOT_MODELLED_SUFFIX) for h in self.handlers)

    @property
    def implementation(self) -> str:
        if not self.handlers:
            return "expression"
        bad = [h for h in self.handlers if h.endswith(NOT_MODELLED_SUFFIX)]
        if bad:
            return "NOT MODELLED (" + ", ".join(bad) + ")"
        return ", ".join(self.handlers)


@dataclass(frozen=True)
class Mark:
    """One ``covers`` mark as found in a test file."""

    entry: str
    halves: tuple[str, ...]
    file: str      # shown path (relative to the tests folder's parent when possible)
    line: int
    test: str      # file::Class::test[param]


@dataclass
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class CoverageError(Exception):
    """The tests cannot be read (a file that does not parse); the message names file:line."""


# ---------------------------------------------------------------------------------------
# Halves from the content
# ---------------------------------------------------------------------------------------

def split(slot: str, node: fx.Node) -> list[str]:
    """The halves of one slot, from its top-level expression."""
    if node.op == "choice":
        return [f"{slot}.{i}" for i in range(1, len(node.children) + 1)]
    if node.op == "by_time":
        return [f"{slot}.day", f"{slot}.night"]
    return [slot]


def _slots(kind: str, entry: dict) -> list[tuple[str, str]]:
    """(slot name, parsed path) of an entry, in printed order."""
    if kind == "units":
        return [(f"ability{i + 1}", f"abilities[{i}].effect") for i in range(len(entry["abilities"]))]
    if kind in ("skills", "tactics"):
        return [("effect", "effect")]
    return [("basic", "basic"), ("powered", "powered")]


def _source_keys(text) -> list[str]:
    return [k.strip() for k in str(text or "").split(";") if k.strip()]


def _describe_source(keys: list[str]) -> str:
    parts = []
    if any(k in CARD_TEXT_KEYS for k in keys):
        parts.append("card summary")
    if any(k in RULEBOOK_KEYS for k in keys):
        parts.append("rulebook")
    if any(k in RULING_KEYS for k in keys):
        parts.append("FAQ ruling")
    unknown = [k for k in keys if k not in CARD_TEXT_KEYS | RULEBOOK_KEYS | RULING_KEYS]
    parts += unknown
    return " + ".join(parts) if parts else "no source"


def text_source(kind: str, entry: dict) -> str:
    """Where the entry's text comes from: its ``source`` keys read with SOURCES.md (card
    summary, rulebook text, FAQ ruling) and, for The Lost Legion, "Lost Legion text missing"
    when no source holding Lost Legion texts is named (for the entry or its LL printing)."""
    keys = _source_keys(entry.get("source"))
    out = f"{_describe_source(keys)} ({';'.join(keys)})" if keys else "no source"
    if entry.get("expansion") == "lost_legion" and not any(k in LL_TEXT_KEYS for k in keys):
        out += "; Lost Legion text missing"
    lp = entry.get("ll_printing")
    if lp:
        lkeys = _source_keys(lp.get("source"))
        if any(k in LL_TEXT_KEYS for k in lkeys):
            out += f"; @ll: {_describe_source(lkeys)} ({';'.join(lkeys)})"
        else:
            out += "; @ll: Lost Legion text missing"
    return out


def entries(content: Content) -> list[Entry]:
    """Every printed entry of the content with its halves, handlers and text source."""
    ll = content.printing(True)
    out = []
    for kind in COVERED_KINDS:
        key_of = KINDS[kind].key
        ll_by_key = {str(key_of(e)): e for e in ll[kind]}
        for e in content[kind]:
            key = str(key_of(e))
            halves: list[str] = []
            handlers: list[str] = []
            for slot, path in _slots(kind, e):
                node = content.parsed[(kind, key, path)]
                halves += split(slot, node)
                handlers += fx.handler_names(node)
            if e.get("ll_printing"):
                le = ll_by_key[key]
                for slot, path in _slots(kind, le):
                    node = ll.parsed[(kind, key, path)]
                    halves += [h + LL for h in split(slot, node)]
                    handlers += fx.handler_names(node)
            out.append(Entry(kind, key, str(e.get("name", key)), str(e.get("expansion", "-")),
                             halves, sorted(set(handlers)), text_source(kind, e)))
    return out


# ---------------------------------------------------------------------------------------
# Marks from the tests (static: ast, no import)
# ---------------------------------------------------------------------------------------

def _is_covers_attr(f: ast.AST) -> bool:
    """``pytest.mark.covers`` or ``mark.covers`` (not called)."""
    return (isinstance(f, ast.Attribute) and f.attr == "covers" and (
        (isinstance(f.value, ast.Attribute) and f.value.attr == "mark")
        or (isinstance(f.value, ast.Name) and f.value.id == "mark")))


def _is_covers(node: ast.AST, aliases=frozenset()) -> bool:
    """``pytest.mark.covers(...)``, ``mark.covers(...)`` or ``alias(...)`` for a module-level
    ``alias = pytest.mark.covers``."""
    if not isinstance(node, ast.Call):
        return False
    return _is_covers_attr(node.func) or (isinstance(node.func, ast.Name) and node.func.id in aliases)


def _is_parametrize(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "parametrize")


def _is_param(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and (
        (isinstance(node.func, ast.Attribute) and node.func.attr == "param")
        or (isinstance(node.func, ast.Name) and node.func.id == "param")))


def _mark_calls(value: ast.AST, aliases=frozenset()) -> list[ast.Call]:
    """The covers calls of a ``pytestmark`` / ``marks=`` value: one mark or a list / tuple."""
    items = value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
    return [n for n in items if _is_covers(n, aliases)]


def _refers_to_covers(node: ast.AST, aliases=frozenset()) -> bool:
    """Any ``covers`` attribute (or alias) in an expression (to report marks we cannot read)."""
    return any((isinstance(n, ast.Attribute) and n.attr == "covers")
               or (isinstance(n, ast.Name) and n.id in aliases) for n in ast.walk(node))


class _Reader:
    def __init__(self, shown: str):
        self.shown = shown
        self.marks: list[Mark] = []
        self.problems: list[Problem] = []
        self.aliases: frozenset[str] = frozenset()
        self.lists: dict[str, ast.AST] = {}     # module-level NAME = [...] (parametrize values)

    def _read_call(self, call: ast.Call, test: str) -> None:
        args = call.args
        if call.keywords or not args or not all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
            self.problems.append(Problem(self.shown, call.lineno, "covers(...) must be given string "
                                         "literals only: covers('entry', 'half', ...)"))
            return
        if len(args) < 2:
            self.problems.append(Problem(self.shown, call.lineno, f"covers({args[0].value!r}) names "
                                         "no half: covers('entry', 'half', ...)"))
            return
        self.marks.append(Mark(args[0].value, tuple(a.value for a in args[1:]),
                               self.shown, call.lineno, test))

    def _unreadable(self, node: ast.AST) -> None:
        self.problems.append(Problem(self.shown, node.lineno, "a covers mark that cannot be read "
                                     "statically (give pytest.mark.covers(...) directly)"))

    def _function(self, fn, inherited: list[ast.Call], prefix: str, collected: bool) -> None:
        test = f"{prefix}{fn.name}"
        own: list[ast.Call] = []
        params: list[tuple[str, list[ast.Call]]] = []
        for dec in fn.decorator_list:
            if _is_covers(dec, self.aliases):
                own.append(dec)
            elif _is_parametrize(dec):
                values = dec.args[1] if len(dec.args) > 1 else next(
                    (k.value for k in dec.keywords if k.arg == "argvalues"), None)
                if isinstance(values, ast.Name):
                    values = self.lists.get(values.id, values)
                if isinstance(values, (ast.List, ast.Tuple)):
                    for i, v in enumerate(values.elts):
                        if _is_param(v):
                            for k in v.keywords:
                                if k.arg == "marks":
                                    calls = _mark_calls(k.value, self.aliases)
                                    if calls:
                                        params.append((f"{test}[{i}]", calls))
                                    elif _refers_to_covers(k.value, self.aliases):
                                        self._unreadable(k.value)
                elif values is not None and _refers_to_covers(values, self.aliases):
                    self._unreadable(values)
            elif _refers_to_covers(dec, self.aliases):
                self._unreadable(dec)
        if not collected or not fn.name.startswith("test"):
            for call in own + [c for _, cs in params for c in cs]:
                self.problems.append(Problem(self.shown, call.lineno, f"covers mark on {fn.name!r}, "
                                             "which pytest does not collect as a test"))
            return
        for call in inherited + own:
            self._read_call(call, test)
        for name, calls in params:
            for call in calls:
                self._read_call(call, name)

    def _pytestmark(self, body) -> list[ast.Call]:
        out = []
        for stmt in body:
            if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets):
                calls = _mark_calls(stmt.value, self.aliases)
                if not calls and _refers_to_covers(stmt.value, self.aliases):
                    self._unreadable(stmt.value)
                out += calls
        return out

    def _class(self, cls: ast.ClassDef, inherited: list[ast.Call], prefix: str) -> None:
        marks = list(inherited)
        for dec in cls.decorator_list:
            if _is_covers(dec, self.aliases):
                marks.append(dec)
            elif _refers_to_covers(dec, self.aliases):
                self._unreadable(dec)
        marks += self._pytestmark(cls.body)
        collected = cls.name.startswith("Test")
        if not collected and len(marks) > len(inherited):
            self.problems.append(Problem(self.shown, cls.lineno, f"covers mark on class {cls.name!r}, "
                                         "which pytest does not collect (name it Test...)"))
        name = f"{prefix}{cls.name}::"
        for stmt in cls.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, marks if collected else [], name, collected)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, marks if collected else [], name)

    def module(self, tree: ast.Module) -> None:
        self.aliases = frozenset(
            t.id for stmt in tree.body if isinstance(stmt, ast.Assign) and _is_covers_attr(stmt.value)
            for t in stmt.targets if isinstance(t, ast.Name))
        self.lists = {t.id: stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                      and isinstance(stmt.value, (ast.List, ast.Tuple))
                      for t in stmt.targets if isinstance(t, ast.Name)}
        marks = self._pytestmark(tree.body)
        prefix = f"{self.shown}::"
        for stmt in tree.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, marks, prefix, True)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, marks, prefix)


def default_tests_dir() -> Path | None:
    """The checkout's tests/ next to the mksim package, or None (an installed package)."""
    cand = Path(__file__).resolve().parent.parent / "tests"
    return cand if cand.is_dir() else None


def read_marks(tests_dir: Path) -> tuple[list[Mark], list[Problem]]:
    """Every ``covers`` mark in ``tests_dir/**/*.py`` (parsed, never imported).

    Raises
    ------
    CoverageError
        A file that cannot be read or parsed (its marks cannot be counted).
    """
    tests_dir = Path(tests_dir)
    base = tests_dir.resolve().parent
    marks: list[Mark] = []
    problems: list[Problem] = []
    files = []
    for root, dirs, names in os.walk(tests_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        files += [Path(root) / n for n in sorted(names) if n.endswith(".py")]
    for path in files:
        try:
            shown = str(path.resolve().relative_to(base))
        except ValueError:
            shown = str(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise CoverageError(f"{shown}: cannot be read ({err})") from None
        if "covers" not in text:
            continue
        try:
            tree = ast.parse(text, filename=shown)
        except SyntaxError as err:
            raise CoverageError(f"{shown}:{err.lineno}: does not parse ({err.msg}); its covers "
                                "marks cannot be counted") from None
        r = _Reader(shown)
        r.module(tree)
        marks += r.marks
        problems += r.problems
    return marks, problems


# ---------------------------------------------------------------------------------------
# Coverage
# ---------------------------------------------------------------------------------------

@dataclass
class Coverage:
    """Tests per half of every entry."""

    entries: list[Entry]
    tests: dict[tuple[str, str], set[str]]     # (entry id, half) -> test ids
    problems: list[Problem] = field(default_factory=list)

    def count(self, entry: Entry, half: str) -> int:
        return len(self.tests.get((entry.id, half), ()))

    def tested(self, entry: Entry) -> bool:
        return all(self.count(entry, h) for h in entry.halves)

    def untested(self) -> list[tuple[str, str]]:
        """(entry id, half) of every half with no test, sorted."""
        return sorted((e.id, h) for e in self.entries for h in e.halves if not self.count(e, h))

    def summary(self) -> str:
        m = len(self.entries)
        n = sum(e.implemented for e in self.entries)
        k = sum(self.tested(e) for e in self.entries)
        return f"coverage: {n}/{m} implemented, {k}/{m} tested"

    def ratchet_text(self) -> str:
        return "".join(f"{eid} {half}\n" for eid, half in self.untested())

    def as_dict(self) -> dict:
        return {
            "entries": [{
                "kind": e.kind, "id": e.id, "name": e.name, "expansion": e.expansion,
                "implementation": e.implementation, "implemented": e.implemented,
                "handlers": e.handlers, "text_source": e.text_source,
                "tests": {h: self.count(e, h) for h in e.halves}, "tested": self.tested(e),
            } for e in self.entries],
            "untested": [{"entry": eid, "half": h} for eid, h in self.untested()],
            "problems": [str(p) for p in self.problems],
            "summary": self.summary(),
        }


def compute(content: Content, marks: list[Mark], problems: list[Problem] | None = None) -> Coverage:
    """Count the marks per half; a mark naming an unknown entry or half becomes a problem
    (and counts for nothing)."""
    ents = entries(content)
    by_id: dict[str, list[Entry]] = {}
    for e in ents:
        by_id.setdefault(e.id, []).append(e)
    problems = list(problems or [])
    tests: dict[tuple[str, str], set[str]] = {}
    for m in marks:
        targets = by_id.get(m.entry)
        if not targets:
            problems.append(Problem(m.file, m.line, f"covers({m.entry!r}, ...) names no entry of the "
                                    "content (basic/advanced actions, spells, artifacts, units, "
                                    "skills, tactics)"))
            continue
        for e in targets:
            for h in m.halves:
                if h not in e.halves:
                    problems.append(Problem(m.file, m.line, f"covers({m.entry!r}, {h!r}): {m.entry} "
                                            f"has no half {h!r}; its halves: {' '.join(e.halves)}"))
                    continue
                tests.setdefault((e.id, h), set()).add(m.test)
    return Coverage(ents, tests, problems)


def read_ratchet(path: Path) -> list[tuple[str, str]]:
    """The ``entry half`` lines of the ratchet file (blank lines and ``#`` comments skipped)."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            parts = line.split()
            out.append((parts[0], parts[1] if len(parts) > 1 else ""))
    return out


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def table_lines(cov: Coverage, missing_only: bool = False) -> list[str]:
    """The plain-text table (or, with ``missing_only``, the untested halves); the last line
    is the summary."""
    lines = []
    if missing_only:
        for e in cov.entries:
            for h in e.halves:
                if not cov.count(e, h):
                    lines.append(f"{KIND_LABEL[e.kind]:9} {e.id:28} {h}")
    else:
        lines.append(f"{'kind':9} {'id':28} {'expansion':12} {'implementation':40} tests per half | text")
        for e in cov.entries:
            halves = " ".join(f"{h}={cov.count(e, h)}" for h in e.halves)
            impl = e.implementation
            lines.append(f"{KIND_LABEL[e.kind]:9} {e.id:28} {e.expansion:12} {impl:40} {halves} | {e.text_source}")
    lines.append(cov.summary())
    return lines
