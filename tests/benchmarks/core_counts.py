"""Issue 12 counts: TurnState fields and card-named hook calls in the core.

Definitions (reproducible, read from the sources, no build needed):

* **TurnState fields**: field lines of ``cdef struct TurnState`` in ``ext/_types.pxd`` (one
  line per declared field, arrays count once; comments and blank lines do not count).
* **Card hooks**: the functions defined in the groups' engine-side files
  ``ext/_engine_{advanced,spells,artifacts,skills,units}.pxi`` (the per-card turn-flow rules
  the loop calls by name: Ambush, Banner of Glory, Dueling, ...).  A **card-named call** is a
  call site ``name(`` of such a function in the core loop (``ext/_engine.pyx``, the
  effect interpreter ``ext/_effects.pyx`` (part of ``_engine.pyx`` before issue 12 moved it),
  ``ext/_engine_combat.pxi``, ``ext/_combat.pyx``), comments excluded.  Printed: the number
  of distinct hooks the loop calls and of call sites; also the call sites counted over the
  group files too (hooks calling hooks).

Usage: ``python tests/benchmarks/core_counts.py`` (from the repository root).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "ext"
GROUP_FILES = [f"_engine_{g}.pxi" for g in ("advanced", "spells", "artifacts", "skills", "units")]
LOOP_FILES = ["_engine.pyx", "_effects.pyx", "_engine_combat.pxi", "_combat.pyx"]
DEF_RE = re.compile(r"^c?p?def\s+(?:inline\s+)?[\w\*\s]*?\b(\w+)\s*\(", re.M)


def turnstate_fields() -> int:
    lines = (ROOT / "_types.pxd").read_text().splitlines()
    start = lines.index("cdef struct TurnState:")
    n = 0
    for line in lines[start + 1:]:
        if line and not line[0].isspace():
            break
        s = line.strip()
        if s and not s.startswith("#"):
            n += 1
    return n


def hooks() -> set[str]:
    names = set()
    for f in GROUP_FILES:
        for m in DEF_RE.finditer((ROOT / f).read_text()):
            names.add(m.group(1))
    return names


def hook_calls(files) -> tuple[int, int]:
    names = hooks()
    call_re = re.compile(r"\b(" + "|".join(sorted(names)) + r")\s*\(")
    sites, called = 0, set()
    for f in files:
        for line in (ROOT / f).read_text().splitlines():
            code = line.split("#", 1)[0]
            if DEF_RE.match(code.strip() + " "):
                code = code[code.index("(") + 1:]          # the def's own name is no call
            for m in call_re.finditer(code):
                sites += 1
                called.add(m.group(1))
    return sites, len(called)


def main() -> int:
    sites, distinct = hook_calls(LOOP_FILES)
    all_sites, _ = hook_calls(LOOP_FILES + GROUP_FILES)
    print(f"TurnState fields: {turnstate_fields()}")
    print(f"card hooks defined: {len(hooks())}; called by the loop: {distinct} distinct, "
          f"{sites} call sites ({all_sites} with the group files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
