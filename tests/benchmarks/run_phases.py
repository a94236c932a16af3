"""Where the fixed time of ``mksim run`` goes: per-phase timestamps and CPU seconds of one run
(a benchmark, not a test; issue 10).

Each run is started with a ``sitecustomize`` on ``PYTHONPATH`` (in every process: the parent,
the loky workers and loky's two resource trackers) that logs, with the process's CPU seconds,
its start, the end of the CLI import, the begin and end of the runner's phases (early worker
start, launch, each chunk played, stored, appended, the consolidation, the summary) and its
``atexit``.  Wall-clock phases are seconds after the parent process started; they measure the
load as much as mksim on a shared machine, the CPU seconds much less.

    python tests/benchmarks/run_phases.py --games 100000 --jobs 2 --repeats 3
    python tests/benchmarks/run_phases.py --games 20000 --policy heuristic
    python tests/benchmarks/run_phases.py --tree /path/old --tree .      # two checkouts, alternating
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TRACER = r'''
import os, sys, time, resource, builtins
_F = os.environ["MKSIM_PHASES"]
def log(what):
    ru = resource.getrusage(resource.RUSAGE_SELF)
    fd = os.open(_F, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, f"{time.time():.4f} {os.getpid()} {ru.ru_utime + ru.ru_stime:.3f} {what}\n".encode())
    os.close(fd)
with open("/proc/self/stat") as f:
    _st = int(f.read().rsplit(")", 1)[1].split()[19])
with open("/proc/uptime") as f:
    _up = float(f.read().split()[0])
log(f"start {time.time() - _up + _st / os.sysconf('SC_CLK_TCK'):.4f} {' '.join(sys.argv)[:60]}")
WRAP = {"mksim.runner": ["play_cell_chunk", "_launch", "_warm_up_arrow", "_kill_loky_workers", "run_experiment"],
        "mksim.results": ["write_chunk", "chunk_tables", "summary_rows"],
        "mksim.pool": ["start_loky_workers"], "mksim.cli": ["_summary_lines"]}
_done = set()
def _wrap(obj, name, tag):
    f = getattr(obj, name, None)
    if f is None:
        return
    def g(*a, **k):
        log("begin " + tag)
        try:
            return f(*a, **k)
        finally:
            log("end " + tag)
    setattr(obj, name, g)
_imp = builtins.__import__
def _import(name, *a, **k):
    mod = _imp(name, *a, **k)
    if len(_done) < len(WRAP) and "mksim" in (name + str(a[0].get("__name__", "") if a and a[0] else "")):
        for m, names in WRAP.items():
            x = sys.modules.get(m)
            if x is not None and m not in _done and not getattr(x.__spec__, "_initializing", False):
                _done.add(m)
                log("imported " + m)
                for n in names:
                    _wrap(x, n, n)
                if m == "mksim.results":
                    for n in ("add", "finish"):
                        _wrap(x.StreamingConsolidation, n, "stream." + n)
    return mod
builtins.__import__ = _import
import atexit
atexit.register(lambda: log("atexit"))
'''


def one(games: int, jobs: int, policy: str, tmp: Path, root: Path = ROOT) -> dict:
    log = tmp / "phases.log"
    out = tmp / "o"
    shutil.rmtree(out, ignore_errors=True)
    log.unlink(missing_ok=True)
    env = dict(os.environ, MKSIM_PHASES=str(log), PYTHONPATH=os.pathsep.join([str(tmp), str(root)]))
    load0 = os.getloadavg()[0]
    proc = subprocess.Popen([sys.executable, "-m", "mksim", "run", "--policy", policy, "--games", str(games),
                             "--seed", "0", "--jobs", str(jobs), "--out", str(out), "--quiet"],
                            cwd=root, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    t_exit = time.time()
    if status:
        raise SystemExit(f"mksim run failed ({status})")
    rows = [line.split(None, 3) for line in log.read_text().splitlines()]
    parent = rows[0][1]
    t0 = float(rows[0][3].split()[1])
    first, ev, procs = {}, {}, {}
    inside, opened = {}, {}          # the parent's CPU inside each wrapped function
    for t, pid, cpu, what in rows:
        t, cpu = float(t), float(cpu)
        p = procs.setdefault(pid, {"chunks": 0, "play_cpu": 0.0})
        p["cpu"] = cpu
        if what.startswith("start"):
            p["start"], p["argv"] = float(what.split()[1]), what
        elif what == "begin play_cell_chunk":
            p.setdefault("first_play", (t, cpu))
            p["_c"] = cpu
        elif what == "end play_cell_chunk":
            p["last_play"] = (t, cpu)
            p["play_cpu"] += cpu - p["_c"]
            p["chunks"] += 1
        if pid == parent:
            first.setdefault(what, (t, cpu))
            ev[what] = (t, cpu)
            if what.startswith("begin "):
                opened[what[6:]] = cpu
            elif what.startswith("end ") and what[4:] in opened:
                inside[what[4:]] = inside.get(what[4:], 0.0) + cpu - opened.pop(what[4:])
    workers = [p for p in procs.values() if p["chunks"]]
    others = [k for k, p in procs.items() if k != parent and not p["chunks"]]
    r = {"load": (load0 + os.getloadavg()[0]) / 2, "wall": t_exit - t0,
         "cpu total (wait4)": usage.ru_utime + usage.ru_stime, "cpu parent": ev["atexit"][1]}
    r["cpu workers, playing"] = sum(p["play_cpu"] for p in workers)
    r["cpu workers, not playing"] = sum(p["last_play"][1] for p in workers) - r["cpu workers, playing"]
    # loky's resource trackers (not waited for by the parent: their CPU is not in wait4)
    r["cpu other processes (own log)"] = sum(procs[k]["cpu"] for k in others)
    r["cpu parent before launch"] = first.get("begin _launch", (0, 0))[1]
    # storing the chunks: tables built, chunk files written, appended to games/rounds.parquet
    for name in ("chunk_tables", "write_chunk", "stream.add", "stream.finish"):
        r[f"cpu parent in {name}"] = inside.get(name, 0.0)
    for name, key in (("t cli imported", "imported mksim.cli"), ("t workers started", "begin start_loky_workers"),
                      ("t launch", "begin _launch"), ("t run_experiment end", "end run_experiment"),
                      ("t summary end", "end _summary_lines"), ("t atexit", "atexit")):
        if key in first:
            r[name] = first[key][0] - t0
    if workers:
        r["t worker process start (last)"] = max(p["start"] for p in workers) - t0
        r["t first chunk begins (last worker)"] = max(p["first_play"][0] for p in workers) - t0
        r["t last chunk ends"] = max(p["last_play"][0] for p in workers) - t0
        r["gap between the workers' last chunks"] = (max(p["last_play"][0] for p in workers)
                                                     - min(p["last_play"][0] for p in workers))
        r["cpu per worker before its first chunk"] = statistics.mean(p["first_play"][1] for p in workers)
    r["t parent exit"] = t_exit - t0
    r["other processes"] = len(others)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--policy", default="random")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tree", action="append", type=Path,
                    help="a checkout to run (repeatable: the trees alternate, run by run); default this one")
    args = ap.parse_args()
    trees = args.tree or [ROOT]
    tmp = Path(tempfile.mkdtemp(prefix="mksim-run-phases-"))
    try:
        (tmp / "sitecustomize.py").write_text(TRACER)
        runs = {t: [] for t in trees}
        for _ in range(args.repeats):
            for t in trees:
                runs[t].append(one(args.games, args.jobs, args.policy, tmp, t))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for t in trees:
        print(f"{t}: mksim run --games {args.games} --jobs {args.jobs} --policy {args.policy}: median [range], "
              f"n = {len(runs[t])} (t: seconds after the parent process started)")
        for k in runs[t][0]:
            xs = [r[k] for r in runs[t] if k in r]
            print(f"  {k:40} {statistics.median(xs):8.3f}  [{min(xs):.3f} .. {max(xs):.3f}]")


if __name__ == "__main__":
    main()
