"""The start of ``mksim run``'s loky worker processes, kept free of numpy and the engine so
that the command can start its workers before it imports them (mksim.runner re-exports these)."""
from __future__ import annotations

import os
import sys
from typing import Optional


def cpus_available() -> int:
    import os
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


_PARENT = None


def _worker_init(parent: Optional[int] = None) -> None:
    """Start of a worker process (loky's initializer; for other backends the first task):
    ignore Ctrl-C (the parent stops the workers) and start a watchdog thread that ends the
    worker when its parent is gone (kill -9 of ``mksim run``: loky's workers would otherwise
    wait 300 s for tasks that never come).  Started at process start, so a worker whose
    parent dies before it had any task exits too; ``parent`` is the pid the worker must have
    as its parent (a worker orphaned even before this runs exits at once).  Runs once per
    process."""
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


_PRESTARTED = None


def start_workers(jobs: int) -> None:
    """Start ``jobs`` loky worker processes now, for a run that will follow in this process:
    they import mksim on the core this process leaves idle while it reads the experiment
    (``mksim run`` calls it first).  The run's ``Parallel`` reuses them (joblib keeps one
    executor while its arguments stay the same); :func:`_kill_loky_workers` stops them if no
    run follows."""
    global _PRESTARTED
    if jobs < 2 or _PRESTARTED is not None:
        return
    import warnings
    from joblib import Parallel, delayed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        par = Parallel(n_jobs=jobs, backend="loky", initializer=_worker_init, initargs=(os.getpid(),),
                       return_as="generator_unordered", batch_size=1)
        _PRESTARTED = par(delayed(_warm_up)() for _ in range(jobs))


def _warm_up() -> int:
    """A prestarted worker's first task: import what playing a chunk needs (the engine,
    the experiment cells, the record arrays) while the parent still reads the experiment."""
    from . import experiments, results, runner  # noqa: F401
    return os.getpid()


def _join_prestarted() -> None:
    """Wait for :func:`start_workers`' no-op tasks (a generator dropped before its end would
    make joblib terminate the shared workers)."""
    global _PRESTARTED
    gen, _PRESTARTED = _PRESTARTED, None
    if gen is not None:
        for _ in gen:
            pass


def _kill_loky_workers() -> None:
    """Stop loky's reusable worker processes now (they would otherwise idle for 300 s)."""
    global _PRESTARTED
    _PRESTARTED = None
    if "joblib.externals.loky.reusable_executor" not in sys.modules:
        return                   # no worker was ever started (and joblib stays unimported)
    try:
        from joblib.externals.loky import reusable_executor
        ex = reusable_executor._executor
        if ex is not None:
            ex.shutdown(wait=True, kill_workers=True)
    except Exception:   # noqa: BLE001 - best effort at exit
        pass
