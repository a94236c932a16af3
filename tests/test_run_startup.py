"""mksim run's start-up cuts (issue 10's fixed costs): loky's resource tracker started without
joblib's ``__init__``; constant string columns built from repeated bytes and the summary's win
count read from the string buffers - each checked against what it replaces."""
from __future__ import annotations

import os
import subprocess
import sys
import time

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


# -- workers started with the process (mksim._main -> pool.prestart_run_workers) ----------

@pytest.mark.parametrize("args,jobs", [
    (["run"], 4),                                   # default: every CPU available
    (["run", "experiments/default.toml", "--jobs", "2"], 2),
    (["run", "--jobs=3", "--games", "10"], 3),
    (["run", "--jobs", "8"], 4),                    # capped at the CPUs, as run_cmd caps it
    (["run", "--jobs", "2", "--jobs", "3"], 3),     # the last one given, as click takes it
    (["run", "--backend", "loky", "--jobs", "2"], 2),
    (["run", "--jobs", "1"], 0),                    # one job plays in the parent process
    (["run", "--jobs", "x"], 0),                    # run_cmd reports it (exit 2)
    (["run", "--jobs"], 0),
    (["run", "--backend", "dask"], 0),
    (["run", "--backend=dask", "--jobs", "2"], 0),
    (["run", "--resume", "--out", "results/x"], 0),
    (["run", "--help"], 0),
    (["bench", "--jobs", "2"], 0),
    ([], 0),
])
def test_early_run_jobs_reads_only_what_is_certain(monkeypatch, args, jobs):
    monkeypatch.setattr(pool, "cpus_available", lambda: 4)
    assert pool.early_run_jobs(args) == jobs


def test_early_run_jobs_leaves_a_folder_holding_a_run_to_run_cmd(monkeypatch, tmp_path):
    monkeypatch.setattr(pool, "cpus_available", lambda: 2)
    assert pool.early_run_jobs(["run", "--out", str(tmp_path)]) == 2
    (tmp_path / "games.parquet").write_bytes(b"")
    assert pool.early_run_jobs(["run", "--out", str(tmp_path)]) == 0
    assert pool.early_run_jobs(["run", f"--out={tmp_path}"]) == 0


def test_import_mksim_and_the_entry_point_import_no_content_engine_or_typer():
    code = ("import sys, mksim, mksim._main; "
            "print(sorted(m for m in ('mksim.content', 'mksim._engine', 'typer', 'joblib', 'numpy') "
            "if m in sys.modules)); "
            "from mksim import Content, ContentError, load_content, Policy; "
            "print(Content.__module__, ContentError.__module__, load_content.__module__, Policy.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["[]", "mksim.content mksim.content mksim.content mksim.policies.base"]


def test_bad_run_argument_after_an_early_start_exits_2_and_leaves_no_process():
    # the workers start before typer checks the arguments; a bad --games still ends the run
    # with one error line and exit 2, and its workers (and trackers) go with it
    proc = subprocess.Popen([sys.executable, "-m", "mksim", "run", "--jobs", "2", "--games", "x", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert err.strip().splitlines() == ["error: --games must be a whole number, got 'x'"]
    end = time.monotonic() + 10
    while time.monotonic() < end and _session(proc.pid):
        time.sleep(0.1)
    assert _session(proc.pid) == []


def _session(sid):
    """Processes still alive in session ``sid`` (zombies excluded)."""
    import psutil
    left = []
    for p in psutil.process_iter(["pid", "status"]):
        try:
            if os.getsid(p.info["pid"]) == sid and p.info["status"] != psutil.STATUS_ZOMBIE:
                left.append(p.info["pid"])
        except (ProcessLookupError, PermissionError):
            pass
    return left
