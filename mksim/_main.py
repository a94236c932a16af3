"""The entry point of the ``mksim`` command (console script and ``python -m mksim``).

Kept light on purpose: for ``mksim run`` on several cores it starts the loky workers before
the command-line library, the engine and the content are imported, so their start overlaps
the parent's own (docs/experiments.md "Speed and memory"); then it hands over to
:func:`mksim.cli.main`.
"""
from __future__ import annotations

import sys


def main() -> None:
    """Run the ``mksim`` command line."""
    from . import pool
    started = pool.prestart_run_workers(sys.argv[1:])
    try:
        from .cli import main as cli_main
        cli_main()
    finally:
        if started:
            pool.kill_loky_workers()
