"""Rebuild time after a change to one module (issue 12's gate: under 15 s at the default
optimisation after a change to one handler's body).

    python tests/benchmarks/rebuild_time.py [--tree .] [--baseline OTHER_TREE]
                                            [--modules _fx_skills,_fx_spells,...] [--repeats 3]

For every module: touch ``ext/MODULE.pyx`` (its modification time, the same as an edit of a
handler's body for the build) and time ``python setup.py build_ext --inplace -j 2`` at the
default optimisation (``MKSIM_DEV_BUILD`` is removed from the environment), setup.py's own
no-op included.  With ``--baseline`` the two trees (both built in place beforehand) are
alternated, so both see the same host.  Prints the wall and CPU time of each build and the
median wall time per module and tree.  Measure on an idle machine: the build is one gcc
process, and a shared host's speed swings by a third.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

GROUPS = ("_fx_basic", "_fx_advanced", "_fx_spells", "_fx_artifacts", "_fx_units",
          "_fx_skills", "_fx_tactics", "_effects")


def rebuild(tree: Path, module: str) -> tuple[float, float]:
    """Touch ext/MODULE.pyx in TREE and rebuild in place: (wall s, CPU s of the build)."""
    src = tree / "ext" / f"{module}.pyx"
    if not src.exists():
        sys.exit(f"error: {src} does not exist (--modules names ext/*.pyx without the suffix)")
    os.utime(src)
    env = {k: v for k, v in os.environ.items() if k != "MKSIM_DEV_BUILD"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"],
                          cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"error: the build in {tree} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=".", help="the tree to time (built in place)")
    ap.add_argument("--baseline", help="a second tree, alternated with --tree")
    ap.add_argument("--modules", default=",".join(GROUPS))
    ap.add_argument("--repeats", type=int, default=1)
    a = ap.parse_args()
    trees = [Path(a.tree).resolve()] + ([Path(a.baseline).resolve()] if a.baseline else [])
    for t in trees:
        if not (t / "setup.py").exists():
            sys.exit(f"error: {t} has no setup.py (--tree / --baseline name a checkout)")
        # settle each tree first: the timed builds then only rebuild the touched module
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"], cwd=t,
                       capture_output=True, env={k: v for k, v in os.environ.items() if k != "MKSIM_DEV_BUILD"})
    walls: dict[tuple[str, Path], list[float]] = {}
    for r in range(a.repeats):
        for m in a.modules.split(","):
            order = trees if r % 2 == 0 else trees[::-1]
            for t in order:
                wall, cpu = rebuild(t, m)
                walls.setdefault((m, t), []).append(wall)
                print(f"{t.name:>12} {m:<14} wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                      f"load {os.getloadavg()[0]:.2f}", flush=True)
    print("\nmedian wall (s), n =", a.repeats)
    for m in a.modules.split(","):
        print(f"{m:<14}" + "".join(f"  {t.name}: {statistics.median(walls[m, t]):6.2f}" for t in trees))


if __name__ == "__main__":
    main()
