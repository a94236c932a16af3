"""mksim run's start-up cuts (issue 10's fixed costs): loky's resource tracker started without
joblib's ``__init__``; constant string columns built from repeated bytes and the summary's win
count read from the string buffers - each checked against what it replaces."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from mksim import pool
from mksim import results as store


def test_light_tracker_command_imports_loky_without_joblib_init_or_numpy():
    code = (pool._LIGHT_TRACKER + "from joblib.externals.loky.backend.resource_tracker import main; "
            "print(callable(main), 'numpy' in sys.modules, 'joblib.parallel' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False", "False"]


def test_only_loky_tracker_command_is_rewritten():
    seen = []

    def launch(path, args, fds):
        seen.append(list(args))
        return 7, None

    tracker = ["python", "-c", "from joblib.externals.loky.backend.resource_tracker import main; main(5, False)"]
    other = ["python", "-c", "from multiprocessing.resource_tracker import main;main(5)"]
    assert pool._spawn_light_tracker(launch, "python", tracker, [5]) == (7, None)
    pool._spawn_light_tracker(launch, "python", other, [5])
    assert seen[0][-1] == pool._LIGHT_TRACKER + tracker[-1] and seen[0][:-1] == tracker[:-1]
    assert seen[1] == other


@pytest.mark.parametrize("codes,names,none", [
    ([0, 1, -1, 2, 1, 0], ["a", "bbb", "écu"], -1),
    ([3, -99, 0, 3], ["none", "scenario_won", "round_limit", "step_limit"], -99),
    ([-1, -1], ["x"], -1),
    ([0, 0, 0], [""], -1),
    ([], ["y"], -1),
])
def test_names_equal_arrow_take(codes, names, none):
    got = store._names(np.array(codes, np.int64), names, none)
    got.validate(full=True)
    # the reference: pyarrow's own dictionary lookup (Array.take of the names)
    valid = np.array([c != none for c in codes], bool)
    idx = pa.array([c if v else None for c, v in zip(codes, valid)], pa.int32())
    want = pa.array(names, pa.string()).take(idx)
    assert got.type == pa.string() and got.equals(want)
    assert got.null_count == int((~valid).sum())


def test_names_refuses_codes_outside_the_names():
    with pytest.raises(IndexError):
        store._names(np.array([0, 2]), ["a", "b"])


def test_equals_matches_arrow_compute_on_slices_chunks_and_nulls():
    import pyarrow.compute as pc
    arr = pa.array(["none", "scenario_won", None, "scenario_wox", "round_limit", "scenario_won", ""])
    for a in (arr, arr.slice(1), arr.slice(2, 3), pa.chunked_array([arr[:2], arr[2:]])):
        for value in ("scenario_won", "", "none"):
            want = np.array(pc.fill_null(pc.equal(a, value), False).to_pylist(), bool)
            assert store._equals(a, value).tolist() == want.tolist()
    with pytest.raises(TypeError):
        store._equals(pa.array([1, 2]), "1")
