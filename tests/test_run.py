"""mksim run: the results store, identical results for any jobs / chunk size / backend,
resume after Ctrl-C or kill -9, replay, and bad input (docs/experiments.md)."""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mksim import results as store
from mksim.cli import app
from mksim.experiments import load_experiment
from mksim.runner import RunError, plan_chunks, run_experiment

ROOT = Path(__file__).resolve().parents[1]
cli = CliRunner()

SMALL = '''name = "small"
scenario = "first-reconnaissance"
games = 10
seed = 11

[factors]
heroes = ["arythea", "norowas"]
policies = ["random"]
[[factors.tactics]]
name = "free"
[[factors.tactics]]
name = "planning-r1"
force = { 1 = "planning" }
'''

# Long enough that a run is still going when its first chunk is on disk.
LONG = '''name = "long"
scenario = "first-reconnaissance"
games = 6000          # long enough that the run is still going when the test interrupts it,
                      # on a loaded machine too (at 3,000 it once finished first)
seed = 5
chunk_size = 50

[factors]
heroes = ["goldyx", "wolfhawk"]
policies = ["random"]
'''


def invoke(*args):
    return cli.invoke(app, [str(a) for a in args])


def assert_error(result, *names):
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output
    for part in names:
        assert part in result.output, f"{part!r} not in {result.output!r}"


def table(path: Path, kind: str = "games"):
    t = pq.read_table(path / f"{kind}.parquet")
    return t.drop([c for c in store.TIMING_COLUMNS if c in t.column_names])


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The small experiment run once in this process (jobs 1, chunks of 4): the reference."""
    d = tmp_path_factory.mktemp("small")
    exp_path = d / "small.toml"
    exp_path.write_text(SMALL)
    exp = load_experiment(exp_path)
    out = d / "ref"
    manifest = run_experiment(exp, out, jobs=1, chunk_size=4)
    return exp_path, exp, out, manifest


@pytest.fixture(scope="module")
def long_ref(tmp_path_factory):
    d = tmp_path_factory.mktemp("long")
    exp_path = d / "long.toml"
    exp_path.write_text(LONG)
    out = d / "ref"
    run_experiment(load_experiment(exp_path), out, jobs=1)
    return exp_path, out


def test_store_rows_columns_and_manifest(small):
    exp_path, exp, out, manifest = small
    games = pq.read_table(out / "games.parquet").to_pandas()
    assert len(games) == 4 * 10                                       # one row per game and player
    assert sorted(set(zip(games.cell, games.game_index))) == [(c, k) for c in range(4) for k in range(10)]
    assert (games.player == 0).all() and (games.seed == 11).all()
    for col in ("experiment", "hero", "policy", "policy_params", "lost_legion", "content_hash", "tactic_r1",
                "tactic_r4", "termination", "finished", "stopped_reason", "score", "ach_knowledge", "ach_beating",
                "fame", "level", "reputation", "conquered_city", "conquered_keep", "defeated_green", "combats",
                "rounds", "turns", "decisions", "wounds_taken", "wounds_held", "knockouts", "units_recruited",
                "units_held", "gained_aa", "gained_spell", "gained_artifact", "crystals", "mana_used", "seconds"):
        assert col in games.columns, col
    assert (games[games.tactic_arm == "planning-r1"].tactic_r1 == "planning").all()
    finished = games[games.finished]
    # 17.3.1: score = Fame + the six achievement categories (20.2), no titles
    ach = finished[[c for c in games.columns if c.startswith("ach_")]].sum(axis=1)
    assert (finished.score == finished.fame + ach).all()
    rounds = pq.read_table(out / "rounds.parquet").to_pandas()
    per_game = rounds.groupby(["cell", "game_index"]).size()
    played = games.set_index(["cell", "game_index"]).rounds
    assert (per_game.sort_index() == played.sort_index()).all()      # one row per round played
    last = rounds.sort_values("round").groupby(["cell", "game_index"]).last()
    assert (last.fame.sort_index() == games.set_index(["cell", "game_index"]).fame.sort_index()).all()
    m = json.loads((out / "manifest.json").read_text())
    assert m == manifest
    assert m["format"] == store.FORMAT and m["mksim"] and m["root_seed"] == 11
    assert m["fingerprint"] == exp.fingerprint()
    assert [c["label"] for c in m["cells"]] == [c.label for c in exp.cells]
    assert m["experiment"]["cells"][1]["forced"] == {"1": "planning"}
    assert set(m["content_hashes"]) == {"shipped"} and len(m["content_hashes"]["shipped"]) == 64
    assert m["machine"]["cpu_count"] >= 1 and m["machine"]["python"]
    assert m["git_commit"] is None or len(m["git_commit"].split("+")[0]) == 40
    assert m["run"]["status"] == "complete" and m["run"]["started"] <= m["run"]["ended"]
    plan = plan_chunks(exp, 4)
    assert [(c["cell"], c["start"], c["stop"]) for c in m["chunks"]] == plan
    assert sum(c["games"] for c in m["chunks"]) == 40
    assert not (out / "chunks").exists()


def test_identical_for_jobs_chunk_sizes_and_dask(small, tmp_path):
    exp_path, exp, ref, _ = small
    run_experiment(exp, tmp_path / "j2", jobs=2, chunk_size=3)
    run_experiment(exp, tmp_path / "dask", jobs=2, chunk_size=4, backend="dask")   # a real LocalCluster
    # nothing temporary is left (the workers' content pickle, the files written as chunks came in)
    assert sorted(p.name for p in (tmp_path / "j2").iterdir()) == ["games.parquet", "manifest.json", "rounds.parquet"]
    for kind in ("games", "rounds"):
        assert table(tmp_path / "j2", kind).equals(table(ref, kind))
        assert table(tmp_path / "dask", kind).equals(table(ref, kind))


def test_rerun_same_folder_is_a_no_op_and_other_experiments_are_refused(small, tmp_path):
    exp_path, exp, ref, _ = small
    out = tmp_path / "copy"
    shutil.copytree(ref, out)
    before = (out / "games.parquet").read_bytes()
    run_experiment(exp, out, jobs=1)
    assert (out / "games.parquet").read_bytes() == before
    other = tmp_path / "other.toml"
    other.write_text(SMALL.replace("seed = 11", "seed = 12"))
    r = invoke("run", other, "--out", out, "--jobs", 1)
    assert_error(r, str(out), "different experiment", "--overwrite")
    assert (out / "games.parquet").read_bytes() == before            # nothing touched
    r = invoke("run", other, "--out", out, "--jobs", 1, "--overwrite", "--quiet")
    assert r.exit_code == 0, r.output
    assert (pq.read_table(out / "games.parquet").column("seed").to_pylist()[0]) == 12


def test_resume_after_deleted_chunks_runs_only_those(small, tmp_path):
    """An incomplete folder (some chunk files) is completed to exactly the reference rows."""
    exp_path, exp, ref, _ = small
    out = tmp_path / "part"
    played = []
    run_experiment(exp, out, jobs=1, chunk_size=4, on_chunk=lambda rec, d, t: played.append(rec))
    # make it incomplete again: rebuild two chunk files from the reference, as a run stopped early would leave
    from mksim.runner import play_cell_chunk, cell_config
    (out / "games.parquet").unlink()
    (out / "rounds.parquet").unlink()
    m = json.loads((out / "manifest.json").read_text())
    m["run"]["status"] = "interrupted"
    store.write_manifest(out, m)
    (out / "chunks").mkdir()
    for key in plan_chunks(exp, 4)[:2]:
        cell = exp.cells[key[0]]
        g = cell_config(cell).game()
        games, rounds, msgs, secs = play_cell_chunk(cell, exp.seed, key[1], key[2])
        gt, rt = store.chunk_tables(exp, cell, games, rounds, msgs, list(g.tables.tactic_ids), g.rounds)
        store.write_chunk(out, {"cell": key[0], "start": key[1], "stop": key[2], "games": len(games),
                                "finished": 0, "seconds": secs, "written": store.now()}, gt, rt)
    (out / "chunks" / ".c0000-g000000004-000000008.games.arrow.tmp1").write_bytes(b"half")
    again = []
    run_experiment(exp, out, jobs=1, on_chunk=lambda rec, d, t: again.append((rec["cell"], rec["start"])))
    assert len(again) == len(plan_chunks(exp, 4)) - 2 and (0, 0) not in again and (0, 4) not in again
    assert table(out).equals(table(ref)) and table(out, "rounds").equals(table(ref, "rounds"))


def _old_parquet_chunk(out, record, games_table, rounds_table):
    """A chunk as the versions before Arrow chunk files stored it (mksim.results of commit
    50718af): ``.rounds.parquet`` then ``.games.parquet`` with the record in the schema
    metadata, lz4, dictionary pages for the strings, no statistics."""
    import pyarrow as pa
    stem = out / "chunks" / f"c{record['cell']:04d}-g{record['start']:09d}-{record['stop']:09d}"
    for kind, t, meta in (("rounds", rounds_table, None), ("games", games_table, record)):
        if meta:
            t = t.replace_schema_metadata({b"mksim": json.dumps(meta).encode()})
        pq.write_table(t, f"{stem}.{kind}.parquet", compression="lz4", write_statistics=False,
                       use_dictionary=[f.name for f in t.schema if pa.types.is_string(f.type)])


def test_a_run_interrupted_by_the_parquet_chunk_version_resumes(small, tmp_path):
    """A folder left mid-run by the earlier version (Parquet chunk files) is read as it is:
    ``mksim results`` and ``replay`` use its chunks, and a resume plays only the missing
    chunks, in this version's Arrow files, ending with exactly the uninterrupted rows."""
    import pyarrow as pa
    exp_path, exp, ref, _ = small
    out = tmp_path / "old"
    shutil.copytree(ref, out)
    (out / "games.parquet").unlink()
    (out / "rounds.parquet").unlink()
    m = json.loads((out / "manifest.json").read_text())
    m["run"]["status"] = "interrupted"
    m["chunks"] = m["chunks"][:3]
    store.write_manifest(out, m)
    (out / "chunks").mkdir()
    from mksim.runner import play_cell_chunk, cell_config
    plan = plan_chunks(exp, 4)
    for j, key in enumerate(plan[:3]):
        cell = exp.cells[key[0]]
        g = cell_config(cell).game()
        games, rounds, msgs, secs = play_cell_chunk(cell, exp.seed, key[1], key[2])
        gt, rt = store.chunk_tables(exp, cell, games, rounds, msgs, list(g.tables.tactic_ids), g.rounds)
        rec = {"cell": key[0], "start": key[1], "stop": key[2], "games": len(games), "finished": 0,
               "seconds": secs, "written": store.now()}
        (store.write_chunk if j == 2 else _old_parquet_chunk)(out, rec, gt, rt)   # the third one: this version's
    names = sorted(p.name for p in (out / "chunks").iterdir())
    assert names == ["c0000-g000000000-000000004.games.parquet", "c0000-g000000000-000000004.rounds.parquet",
                     "c0000-g000000004-000000008.games.parquet", "c0000-g000000004-000000008.rounds.parquet",
                     "c0000-g000000008-000000010.games.arrow", "c0000-g000000008-000000010.rounds.arrow"]
    new = out / "chunks" / names[4]
    assert json.loads(pa.ipc.open_file(new).schema.metadata[b"mksim"])["start"] == 8     # an Arrow IPC file
    assert set(store.done_chunks(out)) == set(plan[:3])
    r = invoke("results", out)
    assert r.exit_code == 0 and "status: interrupted" in r.output, r.output
    row = next(line for line in r.output.splitlines() if line.lstrip().startswith("0 "))
    assert " 10 " in row, r.output                                # cell 0's ten games, from both formats
    for game in (1, 9):                                           # a Parquet chunk's game and an Arrow one's
        r = invoke("replay", out, "--game", game, "--cell", 0)
        assert r.exit_code == 0 and "reproduces the stored row exactly" in r.output, r.output
    again = []
    run_experiment(exp, out, jobs=1, on_chunk=lambda rec, d, t: again.append(rec["cell"]))
    assert len(again) == len(plan) - 3 and 0 not in again
    assert table(out).equals(table(ref)) and table(out, "rounds").equals(table(ref, "rounds"))
    assert (out / "games.parquet").read_bytes() != b"" and not (out / "chunks").exists()


def _children(pid):
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _gone(procs, within=10.0):
    end = time.monotonic() + within
    def running(p):
        try:
            return p.is_running() and p.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    while time.monotonic() < end:
        alive = [p for p in procs if running(p)]
        if not alive:
            return True
        time.sleep(0.2)
    return False


def _start_long(exp_path, out, chunks=1, workers=0):
    """Start a 2-worker run and return once ``chunks`` chunks are stored and ``workers``
    worker processes exist (or after 120 s)."""
    # the child gets Ctrl-C as a shell gives it (default disposition), whatever this test
    # process's own handler is: an ignored SIGINT is inherited, and Python then keeps it ignored
    proc = subprocess.Popen([sys.executable, "-m", "mksim", "run", str(exp_path), "--jobs", "2", "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    end = time.monotonic() + 120
    while time.monotonic() < end and proc.poll() is None:
        if len(list((out / "chunks").glob("*.games.arrow"))) >= chunks and len(_workers(proc.pid)) >= workers:
            break
        time.sleep(0.02)
    return proc


def _workers(pid):
    """The loky worker processes of ``pid`` (its children running loky's worker entry point)."""
    found = []
    for p in _children(pid):
        try:
            if any("LokyProcess" in part for part in p.cmdline()):
                found.append(p)
        except psutil.Error:
            pass
    return found


def test_ctrl_c_stops_fast_keeps_whole_chunks_and_resume_completes(long_ref, tmp_path):
    exp_path, ref = long_ref
    out = tmp_path / "int"
    proc = _start_long(exp_path, out)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    kids = _children(proc.pid)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 10
    assert proc.returncode == 130, stderr
    lines = [l for l in stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "--resume --out" in lines[0], stderr
    assert "Traceback" not in stderr
    assert _gone(kids), "worker processes left behind"
    chunks = list((out / "chunks").glob("*.games.arrow"))
    stored = sum(store.read_chunk(p).num_rows for p in chunks)
    assert 0 < stored < 12000 and f"interrupted: {stored} of 12000 games" in lines[0]
    assert not list((out / "chunks").glob(".*tmp*"))
    r = invoke("run", "--resume", "--out", out, "--jobs", 1, "--quiet")
    assert r.exit_code == 0, r.output
    assert table(out).equals(table(ref)) and table(out, "rounds").equals(table(ref, "rounds"))


def test_kill_9_of_the_parent_then_resume_gives_the_uninterrupted_rows(long_ref, tmp_path):
    exp_path, ref = long_ref
    out = tmp_path / "killed"
    proc = _start_long(exp_path, out, chunks=1, workers=2)
    assert proc.poll() is None, "the run ended before it could be killed"
    kids = _children(proc.pid)
    assert len(_workers(proc.pid)) == 2
    proc.kill()
    proc.wait(timeout=10)
    # the watchdog polls every 0.5 s; 20 s leaves room for a loaded 2-core machine
    assert _gone(kids, within=20.0), "workers of a killed parent kept running"
    r = invoke("run", exp_path, "--out", out, "--jobs", 1, "--quiet")     # rerun = resume
    assert r.exit_code == 0, r.output
    g = table(out)
    assert g.num_rows == 12000
    assert table(out).equals(table(ref)) and table(out, "rounds").equals(table(ref, "rounds"))


def test_workers_of_a_parent_killed_before_any_chunk_exit(long_ref, tmp_path):
    """The parent watchdog starts with the worker process (loky's initializer), not with its
    first task: kill -9 of ``mksim run`` as soon as its two workers exist, before any chunk
    is stored, and every process it started ends."""
    exp_path, _ = long_ref
    out = tmp_path / "early"
    proc = _start_long(exp_path, out, chunks=0, workers=2)
    assert proc.poll() is None, "the run ended before it could be killed"
    kids = _children(proc.pid)
    assert len(_workers(proc.pid)) == 2
    early = not list((out / "chunks").glob("*.games.arrow"))
    proc.kill()
    proc.wait(timeout=10)
    assert _gone(kids, within=20.0), "workers of a parent killed before their first chunk kept running"
    if early:        # nothing stored: a rerun plays the whole experiment (not a wall-clock assert)
        assert not list((out / "chunks").glob("*.games.arrow"))


def test_worker_watchdog_exits_when_its_parent_is_gone(tmp_path):
    """``_worker_init`` alone, without loky: a grandchild that ran it exits when the child
    that started it is killed, and one told a parent pid it does not have exits at once."""
    code = ("import subprocess, sys, time; "
            "p = subprocess.Popen([sys.executable, '-c', "
            "'import time; from mksim.runner import _worker_init; _worker_init(); print(1, flush=True); time.sleep(120)'], "
            "stdout=subprocess.PIPE); p.stdout.readline(); print(p.pid, flush=True); time.sleep(120)")
    mid = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    grandchild = None
    try:
        grandchild = psutil.Process(int(mid.stdout.readline()))
        assert grandchild.is_running()
        mid.kill()
        mid.wait(timeout=10)
        assert _gone([grandchild], within=20.0), "the watchdog did not end the orphaned worker"
    finally:
        mid.kill()
        if grandchild is not None and grandchild.is_running():
            grandchild.kill()
    orphan = subprocess.run([sys.executable, "-c", "import os, time; from mksim.runner import _worker_init; "
                             "_worker_init(os.getppid() + 987654); time.sleep(60)"],
                            cwd=ROOT, timeout=30)
    assert orphan.returncode == 1


def test_replay_reproduces_every_cell_and_names_a_changed_field(small, tmp_path):
    exp_path, exp, ref, _ = small
    for c in range(len(exp.cells)):
        r = invoke("replay", ref, "--game", 7, "--cell", c)
        assert r.exit_code == 0 and "reproduces the stored row exactly" in r.output, r.output
    r = invoke("replay", ref, "--game", 2, "--cell", 1, "--log")
    assert r.exit_code == 0 and "== Round 1 (Day) ==" in r.output and "game over" in r.output
    out = tmp_path / "tampered"
    shutil.copytree(ref, out)
    t = pq.read_table(out / "games.parquet").to_pandas()
    t.loc[(t.cell == 1) & (t.game_index == 3), "wounds_taken"] += 1
    import pyarrow as pa
    pq.write_table(pa.Table.from_pandas(t, preserve_index=False), out / "games.parquet")
    r = invoke("replay", out, "--game", 3, "--cell", 1)
    assert r.exit_code == 1 and "first differing field 'wounds_taken'" in r.output, r.output
    assert_error(invoke("replay", ref, "--game", 10), "--game 10", "0..9")
    assert_error(invoke("replay", ref, "--game", 1, "--cell", 4), "--cell 4")
    assert_error(invoke("replay", tmp_path / "none", "--game", 1), "no mksim results")


def test_cli_run_prints_the_summary_and_results_repeats_it(tmp_path):
    out = tmp_path / "cli"
    r = invoke("run", "--scenario", "solo-conquest", "--hero", "tovak,goldyx", "--policy", "random",
               "--games", 6, "--seed", 2, "--jobs", 1, "--out", out)
    assert r.exit_code == 0, r.output
    text = r.output
    assert "Fame mean [95% CI]" in text and "win rate [95% Wilson]" in text
    assert "0 tovak | random" in text and "1 goldyx | random" in text
    assert "12 games played" in text
    res = invoke("results", out)
    assert res.exit_code == 0
    table_lines = [l for l in text.splitlines() if l.startswith(("cell", "0 ", "1 "))]
    assert all(l in res.output for l in table_lines)
    assert "status: complete" in res.output


def test_jobs_are_capped_at_the_cpus_available(tmp_path):
    from mksim.runner import cpus_available
    r = invoke("run", "--games", 2, "--jobs", 1000, "--out", tmp_path / "cap")
    assert r.exit_code == 0, r.output
    assert f"--jobs 1000 capped at {cpus_available()}" in r.output


def test_full_disk_and_vanished_folder_are_one_error_keeping_chunks(small, tmp_path, monkeypatch):
    exp_path, exp, ref, _ = small
    real = store._write_ipc
    calls = {"n": 0}

    def full(table, path, metadata=None):
        calls["n"] += 1
        if calls["n"] > 4:                         # after two whole chunks
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(table, path, metadata)

    monkeypatch.setattr(store, "_write_ipc", full)
    out = tmp_path / "full"
    r = invoke("run", exp_path, "--out", out, "--jobs", 1, "--chunk-size", 4)
    assert_error(r, "No space left on device", "8 of 40 games are stored")
    assert len(list((out / "chunks").glob("*.games.arrow"))) == 2

    def vanish(table, path, metadata=None):
        calls["n"] += 1
        if calls["n"] == 3:
            shutil.rmtree(path.parent.parent)
        return real(table, path, metadata)

    calls["n"] = 0
    monkeypatch.setattr(store, "_write_ipc", vanish)
    r = invoke("run", exp_path, "--out", tmp_path / "gone", "--jobs", 1, "--chunk-size", 4)
    assert_error(r, "cannot write the results in", "No such file or directory")


BAD_CLI = [
    (("--hero", "bob"), "unknown hero 'bob'"),
    (("--policy", "clever"), "unknown policy 'clever'"),
    (("--policy", "random:speed=2"), "random"),
    (("--scenario", "grand-tour"), "unknown scenario"),
    (("--games", "0"), "--games must be at least 1"),
    (("--jobs", "0"), "--jobs must be at least 1"),
    (("--chunk-size", "x"), "--chunk-size must be a whole number"),
    (("--backend", "ray"), "unknown backend 'ray'"),
    (("--scheduler", "tcp://127.0.0.1:9"), "--scheduler needs --backend dask"),
]


@pytest.mark.parametrize("args,message", BAD_CLI, ids=[" ".join(a) for a, _ in BAD_CLI])
def test_bad_run_options(tmp_path, args, message):
    out = tmp_path / "o"
    assert_error(invoke("run", *args, "--out", out), message)
    assert not out.exists()                                           # nothing half-written


def test_bad_folders(small, tmp_path):
    exp_path, exp, ref, _ = small
    assert_error(invoke("run", "--resume", "--out", tmp_path / "empty"), "holds no run to resume")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    assert_error(invoke("run", exp_path, "--out", busy), "not empty", "no mksim results")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert_error(invoke("run", exp_path, "--out", a_file), "is a file")
    assert_error(invoke("run", exp_path, "--hero", "tovak"), "leave out --hero")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 3\n")
    assert_error(invoke("run", bad, "--out", tmp_path / "x"), str(bad))
    assert not (tmp_path / "x").exists()


def test_unreachable_scheduler_writes_nothing(tmp_path):
    out = tmp_path / "d"
    r = invoke("run", "--games", 2, "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", out)
    assert_error(r, "--scheduler tcp://127.0.0.1:9", "cannot reach the Dask scheduler")
    assert not out.exists()


def test_summary_intervals_against_known_values():
    """Mean Fame 2.5 of (1, 2, 3, 4): t interval 2.5 +- 3.182 x 0.6455 = [0.446, 4.554];
    7 wins of 10: Wilson interval [0.397, 0.892] (Wilson 1927; e.g. Newcombe 1998, table I)."""
    import pyarrow as pa
    manifest = {"experiment": {"scenario": "solo_conquest", "cells": [{"index": 0, "label": "a"},
                                                                      {"index": 1, "label": "b"}]}}
    n = 4 + 10
    games = pa.table({
        "cell": [0] * 4 + [1] * 10,
        "finished": [True] * n,
        "fame": [1, 2, 3, 4] + [5] * 10,
        "score": [10, 10, 10, 10] + list(range(10)),
        "termination": ["round_limit"] * 4 + ["scenario_won"] * 7 + ["round_limit"] * 3,
        "seconds": [0.5] * n,
    })
    a, b = store.summary_rows(manifest, games)
    assert a["n"] == 4 and a["fame"][0] == 2.5
    assert a["fame"][1] == pytest.approx(0.446, abs=1e-3) and a["fame"][2] == pytest.approx(4.554, abs=1e-3)
    assert a["score"] == (10.0, 10.0, 10.0) and a["win"][0] == 0.0
    assert b["win"][0] == 0.7
    assert b["win"][1] == pytest.approx(0.3968, abs=1e-3) and b["win"][2] == pytest.approx(0.8922, abs=1e-3)
    assert a["games_per_s"] == 2.0


def test_wilson_interval_agrees_with_scipy():
    """The summary's own Wilson interval (no scipy.stats import in the parent) against
    ``scipy.stats.binomtest(...).proportion_ci(method="wilson")``."""
    from scipy.stats import binomtest
    for k, n in [(0, 1), (1, 1), (0, 10), (7, 10), (10, 10), (1, 1000), (517, 1000), (123456, 1000000)]:
        ci = binomtest(k, n).proportion_ci(method="wilson")
        assert store._wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12), (k, n)


def test_error_names_agree_with_the_runner():
    from mksim.runner import ERROR_NAMES
    assert store.ERRORS == ERROR_NAMES


def test_column_types_and_the_largest_seed(tmp_path):
    """Seeds are 0 .. 2**64 - 1 (uint64 column); counts are int32 (no count in int8, where
    more than 127 would wrap); the types are those docs/experiments.md lists."""
    import pyarrow as pa
    out = tmp_path / "seed"
    r = invoke("run", "--games", 2, "--seed", 2**64 - 1, "--jobs", 1, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    g = pq.read_table(out / "games.parquet")
    assert g.column("seed").to_pylist() == [2**64 - 1] * 2
    types = {f.name: f.type for f in g.schema}
    assert types["seed"] == pa.uint64() and types["game_index"] == pa.int64()
    assert types["player"] == pa.int8() and types["finished"] == pa.bool_() and types["seconds"] == pa.float64()
    from mksim._access import STATS_FIELDS
    counts = list(STATS_FIELDS) + [c for c in types if c.startswith("conquered_")] + ["score", "cell"]
    assert all(types[c] == pa.int32() for c in counts), {c: types[c] for c in counts if types[c] != pa.int32()}
    strings = [c for c in types if c.startswith("tactic_r")] + ["experiment", "hero", "termination", "error",
                                                                 "stopped_reason", "policy_params"]
    assert all(types[c] == pa.string() for c in strings)
    rt = {f.name: f.type for f in pq.read_schema(out / "rounds.parquet")}
    assert rt["round"] == pa.int8() and rt["game_index"] == pa.int64() and rt["tactic"] == pa.string()
    assert all(rt[c] == pa.int32() for c in ("fame", "level", "wounds", "deeds", "units", "crystals"))
    docs = (ROOT / "docs" / "experiments.md").read_text()
    assert "`seed` (uint64" in docs and "`round` (int8)" in docs


def test_the_parent_of_a_run_imports_no_pandas_scipy_matplotlib_or_dask(tmp_path):
    """Memory of the parent (< 200 MB for 1,000,000 games, docs/experiments.md): a run and
    its summary load none of these (pandas alone is ~45 MB; pyarrow would pull it in; scipy
    ~15-60 MB)."""
    code = (
        "import sys; from pathlib import Path; from mksim.cli import _summary_lines; "
        "from mksim.experiments import experiment_from_options; from mksim.runner import run_experiment; "
        "out = Path(sys.argv[1]); "
        "m = run_experiment(experiment_from_options(scenario='solo-conquest', heroes=['tovak'], games=3), out, jobs=1); "
        "lines = _summary_lines(m, out); assert 'win rate' in lines[0]; "
        "print(sorted(n for n in ('pandas', 'scipy', 'matplotlib', 'dask', 'distributed') if n in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "o")], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_t_quantile_agrees_with_scipy():
    """The summary's own Student t quantile (no scipy.special import in the parent) against
    ``scipy.special.stdtrit``, from 1 to 10**7 degrees of freedom."""
    from scipy.special import stdtrit
    for df in (1, 2, 3, 4, 9, 29, 30, 99, 999, 1999, 10**4, 10**5 - 1, 10**6, 10**7):
        assert store._t_quantile(df) == pytest.approx(float(stdtrit(df, 0.975)), rel=1e-9), df


def test_arrow_buffers_round_trip_with_nulls_offsets_and_chunks():
    """The parent's pandas-free Arrow helpers: numbers with nulls, booleans, slices (non-zero
    offsets, as record batches have) and chunked columns read back as numpy builds them."""
    import numpy as np
    import pyarrow as pa
    v = np.arange(100, dtype=np.int32)
    ok = v % 3 != 0
    a = store._arrow(v, ok)
    assert a.null_count == 34 and a.to_pylist()[:4] == [None, 1, 2, None]
    assert (store._numpy(a.slice(7, 50), np.int64) == np.where(ok, v, 0)[7:57]).all()
    even = store._arrow(v % 2 == 0)
    assert even.type == pa.bool_() and (store._numpy(even.slice(5, 20), np.bool_) == (v % 2 == 0)[5:25]).all()
    both = pa.chunked_array([a.slice(0, 10), a.slice(10, 90)])
    assert (store._numpy(both, np.int32) == np.where(ok, v, 0)).all()
    names = store._names(np.array([2, -1, 0]), ["x", "yy", "zzz"])
    assert names.to_pylist() == ["zzz", None, "x"]
    with pytest.raises(IndexError):
        store._names(np.array([3]), ["x", "yy", "zzz"])


def test_the_last_chunk_of_a_run_is_cut_in_halves_but_not_in_a_precision_run():
    """The cut keeps every game exactly once, in order, each piece half the one before (the
    last two equal, none under TAIL_MIN, at most TAIL_PIECES); a precision run's rounds extend
    the last cell, so its chunks stay whole."""
    from dataclasses import replace
    from mksim.experiments import experiment_from_options
    from mksim.runner import TAIL_MIN, TAIL_PIECES, tail_cuts
    exp = experiment_from_options("first-reconnaissance", ["arythea", "tovak"], ["random"], False, None, 2100, 0)
    plan = plan_chunks(exp, 1000)
    assert plan[:5] == [(0, 0, 1000), (0, 1000, 2000), (0, 2000, 2100), (1, 0, 1000), (1, 1000, 2000)]
    assert plan[5:] == [(1, 2000, 2100)]                    # halves of 50 games: under TAIL_MIN, whole
    exp = replace(exp, games=2000)
    plan = plan_chunks(exp, 1000)
    assert TAIL_PIECES == 5 and TAIL_MIN == 100
    assert plan == [(0, 0, 1000), (0, 1000, 2000), (1, 0, 1000),
                    (1, 1000, 1500), (1, 1500, 1750), (1, 1750, 1875), (1, 1875, 2000)]   # 125 // 2 < 100
    assert tail_cuts(0, 10_000) == [0, 5000, 7500, 8750, 9375, 10_000]           # five pieces at most
    assert tail_cuts(0, 199) == [0, 199] and tail_cuts(7, 207) == [7, 107, 207]
    precise = replace(exp, precision={"metric": "fame", "ci_width": 1.0, "max_games": 4000, "round": 2000})
    assert plan_chunks(precise, 1000) == [(0, 0, 1000), (0, 1000, 2000), (1, 0, 1000), (1, 1000, 2000)]


def test_streamed_results_are_the_chunks_in_plan_order_whatever_order_they_come_in(tmp_path):
    """Chunks that arrive early wait in their files; the final files hold every chunk once, in
    plan order, one row group each; abort leaves nothing."""
    import pyarrow as pa
    plan = [(0, 0, 2), (0, 2, 4), (1, 0, 2)]
    (tmp_path / "chunks").mkdir()

    def tables(key):
        g = pa.table({"cell": pa.array([key[0]] * 2, pa.int32()), "game_index": pa.array(range(key[1], key[2])),
                      "hero": pa.array(["arythea", "tovak"])})
        return g, pa.table({"game_index": pa.array([key[1]] * 3), "round": pa.array([1, 2, 3], pa.int8())})

    stream = store.StreamingConsolidation(tmp_path, plan)
    for key in (plan[2], plan[1], plan[0]):                 # the last first
        g, r = tables(key)
        store.write_chunk(tmp_path, {"cell": key[0], "start": key[1], "stop": key[2]}, g, r)
        stream.add(key, (g, r))
        assert not (tmp_path / "games.parquet").exists()    # renamed only at the end
    stream.finish()
    got = pq.read_table(tmp_path / "games.parquet")
    assert list(zip(got.column("cell").to_pylist(), got.column("game_index").to_pylist())) == \
        [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1)]
    assert pq.ParquetFile(tmp_path / "games.parquet").num_row_groups == 3
    assert pq.read_table(tmp_path / "rounds.parquet").num_rows == 9
    assert not list(tmp_path.glob(".*tmp*"))
    half = store.StreamingConsolidation(tmp_path / "chunks", plan[:1])
    half.add(plan[0], tables(plan[0]))
    assert list((tmp_path / "chunks").glob(".games.parquet.tmp*"))
    half.abort()
    assert not list((tmp_path / "chunks").glob(".*tmp*"))


def test_workers_get_the_loaded_content_with_their_tasks(tmp_path):
    """_content_blob pickles the content the parent holds; a task carrying it fills the
    worker's _PRELOADED, and runner._content then returns that content without reading the
    files (the key is path and stamp)."""
    import pickle
    from mksim import runner
    from mksim.experiments import experiment_from_options
    exp = experiment_from_options("first-reconnaissance", ["arythea"], ["random"], False, None, 10, 0)
    keys, blob = runner._content_blob({c.index: c for c in exp.cells})
    data = pickle.loads(blob)
    assert keys == ((None, ()),) and list(data) == [(None, ())]
    shipped = data[(None, ())]
    assert shipped.get("heroes", "arythea") == runner._content(None, ()).get("heroes", "arythea")
    key = (str(tmp_path / "not-there"), ("stamp",))
    fake = (key,), pickle.dumps({key: shipped})
    try:
        got = runner._task(exp.cells[0], 0, (0, 0, 2), fake)
        assert got[0] == (0, 0, 2) and len(got[1][0]) == 2
        assert key in runner._PRELOADED
        assert runner._content(*key).get("heroes", "arythea") == shipped.get("heroes", "arythea")  # never read from disk
    finally:
        runner._PRELOADED.pop(key, None)
        runner._content.cache_clear()


def test_the_run_reuses_the_workers_started_early(tmp_path):
    """mksim run starts its loky workers before it loads the engine (pool.start_loky_workers):
    the run's Parallel must find that executor and its processes, not start others."""
    from joblib.externals.loky import reusable_executor
    from mksim import pool
    from mksim.experiments import experiment_from_options
    from mksim.runner import run_experiment
    pool.start_loky_workers(2)
    ex = reusable_executor._executor
    pids = set(ex._processes)
    assert len(pids) == 2
    seen = []
    exp = experiment_from_options("first-reconnaissance", ["arythea"], ["random"], False, None, 40, 0)
    run_experiment(exp, tmp_path / "o", jobs=2, chunk_size=10,
                   on_chunk=lambda rec, done, total: seen.append((reusable_executor._executor, set(ex._processes))))
    assert len(seen) == 4 and all(e is ex and p == pids for e, p in seen)
    assert not ex._processes                                # stopped at the end of the run


def test_temporaries_of_a_run_killed_at_once_do_not_block_a_new_run(tmp_path):
    """A run killed before its first manifest leaves only temporary names (its content pickle):
    the next run into that folder removes them; anything else still makes the folder foreign."""
    out = tmp_path / "killed"
    (out / "chunks").mkdir(parents=True)
    (out / ".content.pickle.tmp4242").write_bytes(b"half")
    r = invoke("run", "--games", 2, "--jobs", 1, "--out", out, "--quiet")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["games.parquet", "manifest.json", "rounds.parquet"]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / ".notes.tmp1").write_text("mine")
    assert_error(invoke("run", "--games", 2, "--jobs", 1, "--out", mine), "not empty", "no mksim results")
    assert (mine / ".notes.tmp1").read_text() == "mine"
