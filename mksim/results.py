"""The results store of ``mksim run``: Parquet tables and a JSON manifest (docs/experiments.md).

A results folder ``DIR`` holds

``DIR/manifest.json``
    the run's resolved configuration, fingerprint, content hashes, root seed, cells, machine,
    start / end times and the per-chunk completion record;
``DIR/chunks/``
    while a run is not complete: one ``c<cell>-g<first>-<end>.games.parquet`` and
    ``.rounds.parquet`` per finished chunk, each written to a temporary name and renamed
    (so only whole chunks exist).  The games file is renamed last: it marks the chunk done;
``DIR/games.parquet`` and ``DIR/rounds.parquet``
    written when every chunk is done, by streaming the chunk files in cell and game order
    (one row group per chunk); the chunk files are then removed.

Only the parent process writes files; workers return numpy structured arrays
(:data:`GAMES_DTYPE`, :data:`ROUNDS_DTYPE`).
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Optional

import numpy as np

from ._policies import ROUND_FIELDS, STATS_FIELDS, STATS_MAX_ROUNDS, STATS_SITE_KINDS
from .content import SITE_IDS

__all__ = ["GAMES_DTYPE", "ROUNDS_DTYPE", "MANIFEST", "FORMAT", "TIMING_COLUMNS", "ResultsError",
           "chunk_tables", "write_chunk", "read_manifest", "write_manifest", "done_chunks",
           "consolidate", "summary_rows", "machine_info", "git_commit", "read_games"]

FORMAT = 1
MANIFEST = "manifest.json"
CHUNKS = "chunks"
#: Columns that depend on the machine, not on the game (left out of equality checks).
TIMING_COLUMNS = ("seconds",)
TERMINATIONS = ("none", "scenario_won", "round_limit", "step_limit")
ERRORS = ("none", "not_implemented", "step_limit", "illegal_action", "no_legal_action")
SCORE_MISSING = np.iinfo(np.int32).min

#: One game and player, as a worker returns it (numbers only; the parent adds the names).
GAMES_DTYPE = np.dtype(
    [("game_index", "<i8"), ("player", "i1"), ("termination", "i1"), ("finished", "?"),
     ("error", "i1"), ("score", "<i4")]
    + [(f, "<i4") for f in STATS_FIELDS]
    + [("tactics", "i1", (STATS_MAX_ROUNDS,)), ("conquered", "<i2", (STATS_SITE_KINDS,)),
       ("seconds", "<f8")])
#: One game, player and round (the state at the round's end).
ROUNDS_DTYPE = np.dtype([("game_index", "<i8"), ("player", "i1"), ("round", "i1")]
                        + [(f, "<i4") for f in ROUND_FIELDS])


class ResultsError(Exception):
    """A results folder that cannot be used: one line naming the folder and what is wrong."""


# ---------------------------------------------------------------------------------------
# Chunk tables
# ---------------------------------------------------------------------------------------

def _names(codes: np.ndarray, names, none_code: int = -1):
    """Codes -> strings (null where the code is ``none_code``) as a pyarrow array."""
    import pyarrow as pa
    lookup = np.array(list(names) + [None], dtype=object)
    idx = np.where(codes == none_code, len(names), codes)
    return pa.array(lookup[idx], type=pa.string())


def chunk_tables(exp, cell, games: np.ndarray, rounds: np.ndarray, messages: dict,
                 tactic_ids: list, n_rounds: int):
    """The Parquet tables of one chunk: worker arrays plus the cell's names.

    Returns
    -------
    (pyarrow.Table, pyarrow.Table)
        games (one row per game and player) and rounds (one row per game, player, round).
    """
    import pyarrow as pa
    n = len(games)

    def const(value, typ):
        return pa.array([value] * n, type=typ)

    cols = {
        "experiment": const(exp.name, pa.string()),
        "cell": const(cell.index, pa.int32()),
        "cell_label": const(cell.label, pa.string()),
        "seed": const(exp.seed, pa.int64()),
        "game_index": pa.array(games["game_index"]),
        "player": pa.array(games["player"]),
        "scenario": const(cell.scenario, pa.string()),
        "lost_legion": const(cell.lost_legion, pa.bool_()),
        "content_arm": const(cell.content_arm, pa.string()),
        "content_hash": const(exp.content_hashes.get(cell.content_arm, ""), pa.string()),
        "hero": const(cell.hero, pa.string()),
        "policy": const(cell.policy, pa.string()),
        "policy_label": const(cell.policy_label, pa.string()),
        "policy_params": const(cell.policy_params_json(), pa.string()),
        "tactic_arm": const(cell.tactic_arm, pa.string()),
        "restriction_arm": const(cell.restriction_arm, pa.string()),
    }
    for r in range(n_rounds):
        cols[f"tactic_r{r + 1}"] = _names(games["tactics"][:, r].astype(np.int64) - 1, tactic_ids)
    cols["termination"] = _names(games["termination"].astype(np.int64), TERMINATIONS, -99)
    cols["finished"] = pa.array(games["finished"])
    cols["error"] = _names(games["error"].astype(np.int64), ERRORS, -99)
    msgs = np.array([messages.get(int(g)) for g in games["game_index"]], dtype=object)
    cols["stopped_reason"] = pa.array(msgs, type=pa.string())
    score = games["score"]
    cols["score"] = pa.array(score, mask=score == SCORE_MISSING, type=pa.int32())
    for f in STATS_FIELDS:
        cols[f] = pa.array(games[f])
    for k, site in enumerate(SITE_IDS):
        cols[f"conquered_{site}"] = pa.array(games["conquered"][:, k].astype(np.int32))
    cols["seconds"] = pa.array(games["seconds"])
    gt = pa.table(cols)
    rn = len(rounds)
    rcols = {
        "experiment": pa.array([exp.name] * rn, pa.string()),
        "cell": pa.array([cell.index] * rn, pa.int32()),
        "game_index": pa.array(rounds["game_index"]),
        "player": pa.array(rounds["player"]),
        "round": pa.array(rounds["round"]),
    }
    for f in ROUND_FIELDS:
        if f == "tactic":
            rcols["tactic"] = _names(rounds["tactic"].astype(np.int64) - 1, tactic_ids)
        else:
            rcols[f] = pa.array(rounds[f])
    return gt, pa.table(rcols)


def _chunk_stem(cell: int, start: int, stop: int) -> str:
    return f"c{cell:04d}-g{start:09d}-{stop:09d}"


def _write_parquet(table, path: Path, metadata: Optional[dict] = None) -> None:
    """Write ``table`` to ``path`` atomically: a temporary name in the same folder, then rename."""
    import pyarrow.parquet as pq
    if metadata:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               b"mksim": json.dumps(metadata).encode()})
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_chunk(out: Path, record: dict, games_table, rounds_table) -> None:
    """Store one finished chunk: its rounds file, then its games file (which marks it done)."""
    d = out / CHUNKS
    stem = _chunk_stem(record["cell"], record["start"], record["stop"])
    _write_parquet(rounds_table, d / f"{stem}.rounds.parquet")
    _write_parquet(games_table, d / f"{stem}.games.parquet", record)


def done_chunks(out: Path) -> dict:
    """{(cell, start, stop): record} of the whole chunks stored in ``out/chunks``."""
    import pyarrow.parquet as pq
    found = {}
    d = out / CHUNKS
    if not d.is_dir():
        return found
    for p in sorted(d.glob("c*-g*-*.games.parquet")):
        if not (d / p.name.replace(".games.", ".rounds.")).exists():
            continue
        try:
            meta = pq.read_schema(p).metadata or {}
            rec = json.loads(meta[b"mksim"])
        except Exception:          # noqa: BLE001 - an unreadable chunk is simply run again
            continue
        found[(rec["cell"], rec["start"], rec["stop"])] = rec
    return found


def consolidate(out: Path, plan: list) -> None:
    """Stream the chunk files of ``plan`` (in order) into ``games.parquet`` / ``rounds.parquet``
    (temporary names, then rename), then remove the chunk files."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    d = out / CHUNKS
    for kind in ("games", "rounds"):
        target = out / f"{kind}.parquet"
        tmp = out / f".{kind}.parquet.tmp{os.getpid()}"
        writer = None
        try:
            for cell, start, stop in plan:
                t = pq.read_table(d / f"{_chunk_stem(cell, start, stop)}.{kind}.parquet")
                t = t.replace_schema_metadata(None)
                if writer is None:
                    writer = pq.ParquetWriter(tmp, t.schema, compression="zstd")
                writer.write_table(t)
                del t
                pa.default_memory_pool().release_unused()     # mimalloc keeps freed pages otherwise
            if writer is not None:
                writer.close()
                writer = None
                os.replace(tmp, target)
        finally:
            if writer is not None:
                writer.close()
            if tmp.exists():
                tmp.unlink()


def remove_chunks(out: Path) -> None:
    d = out / CHUNKS
    if d.is_dir():
        for p in d.iterdir():
            p.unlink()
        d.rmdir()


def remove_results(out: Path) -> None:
    """``--overwrite``: remove what a run wrote in ``out`` (nothing else)."""
    remove_chunks(out)
    for name in ("games.parquet", "rounds.parquet", MANIFEST):
        if (out / name).exists():
            (out / name).unlink()


# ---------------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------------

def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def git_commit() -> Optional[str]:
    """The commit of the checkout mksim is imported from (``+dirty`` with local changes),
    None outside a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def machine_info() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    def ver(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return None
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    return {
        "cpu_count": os.cpu_count(), "cpus_available": available, "platform": platform.platform(),
        "machine": platform.machine(), "python": sys.version.split()[0],
        "numpy": np.__version__, "pyarrow": ver("pyarrow"), "joblib": ver("joblib"), "scipy": ver("scipy"),
        "dask": ver("dask"),
    }


def read_manifest(out: Path) -> Optional[dict]:
    """The manifest of ``out``, None when there is none; ResultsError when unreadable."""
    p = out / MANIFEST
    if not p.exists():
        return None
    try:
        m = json.loads(p.read_text())
    except (OSError, ValueError) as err:
        raise ResultsError(f"{p}: not a readable mksim manifest ({err})") from None
    if not isinstance(m, dict) or m.get("format") != FORMAT or "experiment" not in m:
        raise ResultsError(f"{p}: not a mksim results manifest of format {FORMAT}")
    return m


def write_manifest(out: Path, manifest: dict) -> None:
    p = out / MANIFEST
    tmp = out / f".{MANIFEST}.tmp{os.getpid()}"
    try:
        tmp.write_text(json.dumps(manifest, indent=1))
        os.replace(tmp, p)
    finally:
        if tmp.exists():
            tmp.unlink()


# ---------------------------------------------------------------------------------------
# Reading and summarising
# ---------------------------------------------------------------------------------------

def read_games(out: Path, columns=None, filters=None):
    """games.parquet of ``out`` (or its chunk files while the run is not complete)."""
    import pyarrow.parquet as pq
    import pyarrow as pa
    path = out / "games.parquet"
    if path.exists():
        return pq.read_table(path, columns=columns, filters=filters)
    parts = sorted((out / CHUNKS).glob("c*-g*-*.games.parquet")) if (out / CHUNKS).is_dir() else []
    if not parts:
        return None
    tables = [pq.read_table(p, columns=columns, filters=filters).replace_schema_metadata(None) for p in parts]
    return pa.concat_tables(tables)


def _t_ci(n: int, total: float, total_sq: float):
    """Mean and 95% t interval from a count, a sum and a sum of squares (the t quantile is
    ``scipy.special.stdtrit``, which ``scipy.stats.t.ppf`` uses; importing scipy.stats would
    cost the parent ~46 MB)."""
    from scipy.special import stdtrit
    if n == 0:
        return None, None, None
    m = total / n
    var = max(total_sq - n * m * m, 0.0) / (n - 1) if n > 1 else 0.0
    if var == 0.0:
        return m, m, m
    half = float(stdtrit(n - 1, 0.975)) * (var / n) ** 0.5
    return m, m - half, m + half


SUMMARY_COLUMNS = ["cell", "finished", "fame", "score", "termination", "seconds"]


def _batches(games):
    """Record batches of the summary columns: a pyarrow Table, or a results folder read
    row group by row group (memory stays flat however many games are stored)."""
    import pyarrow.parquet as pq
    if isinstance(games, (str, Path)):
        out = Path(games)
        files = [out / "games.parquet"] if (out / "games.parquet").exists() else \
            sorted((out / CHUNKS).glob("c*-g*-*.games.parquet")) if (out / CHUNKS).is_dir() else []
        for f in files:
            yield from pq.ParquetFile(f).iter_batches(columns=SUMMARY_COLUMNS, batch_size=65536)
    else:
        yield from games.select(SUMMARY_COLUMNS).to_batches(max_chunksize=65536)


def summary_rows(manifest: dict, games) -> list[dict]:
    """Per cell: n, finished, mean Fame and mean score (finished games) with 95% t intervals,
    win rate (Solo Conquest: scenario won) with a Wilson interval, games/s (per worker core:
    games over the seconds the workers spent on them).

    ``games`` is a pyarrow Table or a results folder (streamed by row groups)."""
    import pyarrow.compute as pc
    cells = manifest["experiment"]["cells"]
    k = max(c["index"] for c in cells) + 1
    acc = {name: np.zeros(k) for name in ("n", "fin", "fame", "fame2", "score", "score2", "won", "secs")}
    for b in _batches(games):
        cell = b.column(0).to_numpy()
        fin = b.column(1).to_numpy(zero_copy_only=False)
        fame = b.column(2).to_numpy().astype(np.float64)
        score = pc.fill_null(b.column(3), 0).to_numpy().astype(np.float64)
        won = pc.fill_null(pc.equal(b.column(4), "scenario_won"), False).to_numpy(zero_copy_only=False)
        secs = b.column(5).to_numpy()
        acc["n"] += np.bincount(cell, minlength=k)
        acc["fin"] += np.bincount(cell, weights=fin, minlength=k)
        acc["fame"] += np.bincount(cell, weights=fame, minlength=k)
        acc["fame2"] += np.bincount(cell, weights=fame * fame, minlength=k)
        acc["score"] += np.bincount(cell, weights=score * fin, minlength=k)
        acc["score2"] += np.bincount(cell, weights=score * score * fin, minlength=k)
        acc["won"] += np.bincount(cell, weights=won, minlength=k)
        acc["secs"] += np.bincount(cell, weights=secs, minlength=k)
    solo_conquest = manifest["experiment"]["scenario"] == "solo_conquest"
    rows = []
    for c in cells:
        i = c["index"]
        n, fin = int(acc["n"][i]), int(acc["fin"][i])
        row = {"cell": i, "label": c["label"], "n": n, "finished": fin,
               "fame": _t_ci(n, acc["fame"][i], acc["fame2"][i]),
               "score": _t_ci(fin, acc["score"][i], acc["score2"][i])}
        if solo_conquest and n:
            from scipy.stats import binomtest
            wins = int(acc["won"][i])
            ci = binomtest(wins, n).proportion_ci(method="wilson")
            row["win"] = (wins / n, float(ci.low), float(ci.high))
        else:
            row["win"] = None
        s = float(acc["secs"][i])
        row["games_per_s"] = n / s if s > 0 else None
        rows.append(row)
    return rows
