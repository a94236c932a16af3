"""The loky worker processes of ``mksim run``: how they start, and starting them early.

This module imports nothing heavy (joblib only when the workers are started), so that
``mksim run`` can start its workers before it imports the engine and loads the content:
a worker's own start (a Python process importing numpy, joblib and mksim, ~0.3-0.5 s of
CPU) then overlaps the parent's instead of following it.  :func:`start_loky_workers`
creates joblib's reusable loky executor with exactly the arguments the run's
``Parallel`` uses (:func:`loky_parallel_kwargs`), so that ``Parallel`` finds and reuses
it and its processes.
"""
from __future__ import annotations

import functools
import os
from typing import Optional

__all__ = ["cpus_available", "loky_parallel_kwargs", "start_loky_workers", "kill_loky_workers",
           "early_run_jobs", "prestart_run_workers", "live_loky_workers"]

_PARENT = None


def cpus_available() -> int:
    """The CPUs this process may run on (its affinity), else the CPU count."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _worker_init(parent: Optional[int] = None) -> None:
    """Start of a worker process (loky's initializer; for other backends the first task):
    ignore Ctrl-C (the parent stops the workers) and start a watchdog thread that ends the
    worker when its parent is gone (kill -9 of ``mksim run``: loky's workers would otherwise
    wait 300 s for tasks that never come).  Started at process start, so a worker whose
    parent dies before it had any task exits too; ``parent`` is the pid the worker must have
    as its parent (a worker orphaned even before this runs exits at once); then import what
    the tasks run.  Runs once per process."""
    global _PARENT
    if _PARENT is not None:
        return
    import signal
    import threading
    import time
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:       # not the main thread (a Dask worker thread): Dask owns its workers
        return
    _PARENT = parent = parent if parent is not None else os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="mksim-parent-watchdog", daemon=True).start()
    # what the first task needs (the engine, the policies, numpy, the results dtypes), imported
    # now, while the parent still loads the content, instead of after the task has arrived
    try:
        from . import results, runner  # noqa: F401
    except Exception:   # noqa: BLE001 - the task then reports what is wrong
        pass


def loky_parallel_kwargs(jobs: int) -> dict:
    """The ``joblib.Parallel`` arguments of a run's loky workers: results as they finish, at
    most ``2 * jobs`` chunks in flight, one chunk per task, and the watchdog started with each
    worker process (the initializer), not with its first task."""
    return {"n_jobs": jobs, "backend": "loky", "return_as": "generator_unordered", "pre_dispatch": "2*n_jobs",
            "batch_size": 1, "initializer": _worker_init, "initargs": (os.getpid(),)}


def _noop() -> None:
    """The task that makes loky spawn its processes (it spawns them at the first task)."""


def start_loky_workers(jobs: int) -> None:
    """Spawn the ``jobs`` loky worker processes of a run now; the run's ``Parallel``
    (:func:`loky_parallel_kwargs`) reuses them.  Best effort: if anything fails here the run
    starts its workers itself."""
    import warnings
    if live_loky_workers() == jobs:
        return                   # already started (by prestart_run_workers)
    try:
        from joblib import Parallel
        from joblib.externals.loky import reusable_executor
        _start_trackers_quietly()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Parallel(**loky_parallel_kwargs(jobs)):      # creates the reusable executor
                pass
            reusable_executor._executor.submit(_noop)        # loky spawns at the first task
    except Exception:   # noqa: BLE001 - an optimisation only
        pass


def _live_executor(broken: bool = False):
    """loky's reusable executor of this process while it runs, else None (never started, and
    joblib not imported; or shut down; or broken, unless ``broken``: a broken one still has
    processes to stop)."""
    import sys
    if "joblib.externals.loky.reusable_executor" not in sys.modules:
        return None
    from joblib.externals.loky import reusable_executor
    ex = reusable_executor._executor
    flags = getattr(ex, "_flags", None)
    if ex is None or getattr(flags, "shutdown", False) or (getattr(flags, "broken", None) and not broken):
        return None
    return ex


def live_loky_workers() -> int:
    """The worker processes of loky's reusable executor in this process (0: none, or it was
    shut down)."""
    ex = _live_executor()
    return len(getattr(ex, "_processes", ()) or ()) if ex is not None else 0


def _option(args: list, name: str):
    """The value of option ``name`` in ``args`` (``--name V`` or ``--name=V``; the last one
    given, as click takes it), None when absent; ``...`` when it has no value."""
    value = None
    for i, a in enumerate(args):
        if a == name:
            value = args[i + 1] if i + 1 < len(args) else ...
        elif a.startswith(name + "="):
            value = a[len(name) + 1:]
    return value


def early_run_jobs(args: list) -> int:
    """How many loky workers a ``mksim run`` with the command-line arguments ``args`` (after
    the program name) will use, read before the command line is parsed - or 0 when that is
    not certain or the run may need none: not ``run``, ``--help``, ``--resume``, another
    backend, ``--jobs`` not a plain number, one job, or an output folder that already holds a
    run (resumed or refused; ``run_cmd`` decides those after parsing).  A 0 only means the
    workers start later, in ``run_cmd``, as they did before; a wrong guess is stopped by the
    caller (:func:`prestart_run_workers`' ``finally``), never played on."""
    if not args or args[0] != "run":
        return 0
    rest = args[1:]
    if "--" in rest or any(a in ("--help", "--resume") for a in rest):
        return 0
    backend = _option(rest, "--backend")
    if backend not in (None, "loky"):
        return 0
    jobs, available = _option(rest, "--jobs"), cpus_available()
    if jobs is ...:
        return 0
    if jobs is not None:
        if not jobs.isdigit():
            return 0
        jobs = int(jobs)
    n = min(jobs if jobs is not None else available, available)
    out = _option(rest, "--out")
    if out is ...:
        return 0
    if out is not None and os.path.exists(os.path.join(out, "games.parquet")):
        return 0
    return n if n > 1 else 0


def prestart_run_workers(args: list) -> int:
    """Start the loky workers of a ``mksim run`` as the process starts, before typer, the
    command line's checks, the engine and the content are imported (``mksim.__main__`` and
    the console script call it first): for about 0.4 s one core would otherwise idle while
    the parent alone imports.  ``run_cmd`` finds them started (:func:`live_loky_workers`) and reuses
    them; whatever else the command turns out to do, the caller stops them at its end
    (:func:`kill_loky_workers`).  Returns the number started (0: none)."""
    n = early_run_jobs(args)
    if n:
        start_loky_workers(n)
    return live_loky_workers()


def _start_trackers_quietly() -> None:
    """Start loky's and multiprocessing's resource trackers (loky starts them with its first
    worker) with /dev/null as their stdout and stderr.  They exit only after the parent, once
    they have seen it go, so a pipe that reads ``mksim run``'s output would otherwise stay open
    ~0.1-0.5 s after the run ended; their only output is a warning about resources a killed
    run leaked (which they remove)."""
    import sys
    from multiprocessing import resource_tracker as mp_tracker
    from joblib.externals.loky.backend import resource_tracker as loky_tracker
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:   # noqa: BLE001 - a closed stream
            pass
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        launch = loky_tracker.spawnv_passfds
        loky_tracker.spawnv_passfds = functools.partial(_spawn_light_tracker, launch)
        try:
            loky_tracker.ensure_running()
        finally:
            loky_tracker.spawnv_passfds = launch
        mp_tracker.ensure_running()
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved + [null]:
            os.close(fd)


#: Put before loky's resource tracker command: ``joblib`` as an empty package (its path
#: only), so that importing the tracker (``joblib.externals.loky...``) does not run joblib's
#: ``__init__``, which imports the whole of joblib and numpy (~0.3 s of the tracker's ~0.6 s
#: of CPU); the tracker uses loky and the standard library only.
_LIGHT_TRACKER = ("import sys, types, importlib.util as u; s = u.find_spec('joblib'); "
                  "m = types.ModuleType('joblib'); m.__spec__ = s; m.__file__ = s.origin; "
                  "m.__path__ = list(s.submodule_search_locations); sys.modules['joblib'] = m; ")


def _spawn_light_tracker(launch, path, args, passfds):
    """loky's ``spawnv_passfds`` for its resource tracker, the command made light
    (:data:`_LIGHT_TRACKER`); any other command as it is."""
    args = list(args)
    if len(args) >= 2 and args[-2] == "-c" and args[-1].startswith("from joblib.externals.loky."):
        args[-1] = _LIGHT_TRACKER + args[-1]
    return launch(path, args, passfds)


def kill_loky_workers() -> None:
    """Stop loky's reusable worker processes now (they would otherwise idle for 300 s)."""
    try:
        ex = _live_executor(broken=True)
        if ex is not None:
            ex.shutdown(wait=True, kill_workers=True)
    except Exception:   # noqa: BLE001 - best effort at exit
        pass
