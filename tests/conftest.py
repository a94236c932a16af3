"""Shared fixtures for the mksim test suite.

Rule numbers in test names and comments point into ../shared/rules/ (mage-knight-base.md,
lost-legion.md); CSV facts come from ../shared/data/ (see its SOURCES.md).  Set
MKSIM_SHARED to the ``shared`` folder if the checkout does not sit next to it.
"""
from __future__ import annotations

import csv
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for content_edit

from content_edit import copy_data  # noqa: E402
from mksim.content import load_content  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _shared() -> Path:
    if os.environ.get("MKSIM_SHARED"):
        return Path(os.environ["MKSIM_SHARED"])
    for candidate in (ROOT.parent / "shared", Path("/work/shared")):
        if (candidate / "data").is_dir():
            return candidate
    return ROOT.parent / "shared"


SHARED = _shared()
SHARED_DATA = SHARED / "data"


def read_csv(name: str) -> list[dict[str, str]]:
    """Rows of ../shared/data/<name> (the facts the catalogue was converted from)."""
    path = SHARED_DATA / name
    assert path.is_file(), f"{path} is missing; set MKSIM_SHARED to the shared folder"
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _sweep_seed() -> int:
    """Root seed of this run's invariant sweep (tests/test_invariants.py): MKSIM_SWEEP_SEED
    replays a run, otherwise a fresh one from os.urandom so that every run plays new games."""
    text = os.environ.get("MKSIM_SWEEP_SEED", "").strip()
    if text:
        try:
            seed = int(text, 0)
        except ValueError:
            raise pytest.UsageError(f"MKSIM_SWEEP_SEED must be an integer, not {text!r}")
        if not 0 <= seed < 1 << 64:
            raise pytest.UsageError(f"MKSIM_SWEEP_SEED must be in 0 .. 2**64-1, not {seed}")
        return seed
    return int.from_bytes(os.urandom(8), "little")


SWEEP_SEED = None


def _sweep_words() -> str:
    return f"mksim invariant sweep root seed: {SWEEP_SEED} (replay with MKSIM_SWEEP_SEED={SWEEP_SEED})"


def pytest_configure(config):
    global SWEEP_SEED
    SWEEP_SEED = _sweep_seed()


def pytest_report_header(config):
    """Printed first by pytest (not with -q), on success too."""
    return _sweep_words()


def pytest_terminal_summary(terminalreporter):
    """Printed last, with -q too, on success too."""
    terminalreporter.write_line(_sweep_words())


@pytest.fixture(scope="session")
def sweep_seed():
    """The root seed of this run's invariant sweep (see pytest_report_header)."""
    return SWEEP_SEED


@pytest.fixture(scope="session")
def content():
    """The shipped catalogue, loaded and validated once per session (do not mutate)."""
    return load_content()


@pytest.fixture(scope="session")
def tables(content):
    """The shipped catalogue compiled to numeric tables (do not mutate)."""
    return content.compile()


@pytest.fixture(scope="session")
def ll_content(content):
    """The shipped catalogue as played with The Lost Legion: the cards it changed in their
    Lost Legion printing (``ll_printing``, LL-2.10.2; do not mutate)."""
    return content.printing(True)


@pytest.fixture(scope="session")
def ll_tables(ll_content):
    """``ll_content`` compiled to numeric tables (do not mutate)."""
    return ll_content.compile()


@pytest.fixture
def data_copy(tmp_path):
    """A private copy of mksim/data in tmp_path/data, free to edit."""
    return copy_data(tmp_path / "data")


@pytest.fixture(scope="session")
def shared_csv():
    """``shared_csv("levels.csv")`` -> list of row dicts."""
    return read_csv


@pytest.fixture(scope="session")
def enemies_csv():
    return read_csv("enemies.csv")


@pytest.fixture(scope="session")
def units_csv():
    return read_csv("units.csv")


@pytest.fixture(scope="session")
def cards_csv():
    return read_csv("cards.csv")
