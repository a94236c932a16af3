"""The results store of ``mksim run``: Parquet tables and a JSON manifest (docs/experiments.md).

A results folder ``DIR`` holds

``DIR/manifest.json``
    the run's resolved configuration, fingerprint, content hashes, root seed, cells, machine,
    start / end times and the per-chunk completion record;
``DIR/chunks/``
    while a run is not complete: one ``c<cell>-g<first>-<end>.games.arrow`` and
    ``.rounds.arrow`` (Arrow IPC files) per finished chunk, each written to a temporary name
    and renamed (so only whole chunks exist).  The games file is renamed last: it marks the
    chunk done.  A folder of an earlier version holds ``.games.parquet`` / ``.rounds.parquet``
    chunk files instead; a resumed run reads those as they are;
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
from statistics import NormalDist
from typing import Optional

import numpy as np

from ._access import ROUND_FIELDS, STATS_FIELDS, STATS_MAX_ROUNDS, STATS_SITE_KINDS
from .content import SITE_IDS

__all__ = ["GAMES_DTYPE", "ROUNDS_DTYPE", "MANIFEST", "FORMAT", "TIMING_COLUMNS", "ResultsError",
           "chunk_tables", "write_chunk", "chunk_files", "read_chunk", "read_manifest", "write_manifest", "done_chunks",
           "consolidate", "summary_rows", "machine_info", "git_commit", "read_games"]

FORMAT = 1
MANIFEST = "manifest.json"
CHUNKS = "chunks"
#: Columns that depend on the machine, not on the game (left out of equality checks).
TIMING_COLUMNS = ("seconds",)
TERMINATIONS = ("none", "scenario_won", "round_limit", "step_limit")
#: mksim.runner.ERROR_NAMES, every code a worker can return (tests/test_run.py keeps them equal)
ERRORS = ("none", "not_implemented", "step_limit", "illegal_action", "no_legal_action", "capacity",
          "policy_failed")
SCORE_MISSING = np.iinfo(np.int32).min

#: One game and player, as a worker returns it (numbers only; the parent adds the names).
GAMES_DTYPE = np.dtype(
    [("game_index", "<i8"), ("player", "i1"), ("termination", "i1"), ("finished", "?"),
     ("error", "i1"), ("score", "<i4")]
    + [(f, "<i4") for f in STATS_FIELDS]
    + [("tactics", "i1", (STATS_MAX_ROUNDS,)), ("conquered", "<i2", (STATS_SITE_KINDS,)),
       ("seconds", "<f8"),
       # games of several heroes only (the columns are written when the experiment's players > 1):
       ("titles", "<i2"), ("won", "?"), ("rank", "i1")])
#: One game, player and round (the state at the round's end).
ROUNDS_DTYPE = np.dtype([("game_index", "<i8"), ("player", "i1"), ("round", "i1")]
                        + [(f, "<i4") for f in ROUND_FIELDS])


class ResultsError(Exception):
    """A results folder that cannot be used: one line naming the folder and what is wrong."""


# ---------------------------------------------------------------------------------------
# Chunk tables
# ---------------------------------------------------------------------------------------

# pyarrow arrays are built over numpy buffers (``pa.Array.from_buffers``) and read back the
# same way: ``pa.array`` / ``to_numpy`` / scalars make pyarrow import pandas (to check for a
# Series), about 45 MB of the parent's memory and 1 s of its start for nothing.

def _arrow(values: np.ndarray, valid: Optional[np.ndarray] = None):
    """A pyarrow Array of a 1-d numpy array (numbers or booleans); null where ``valid`` is
    False."""
    import pyarrow as pa
    v = np.ascontiguousarray(values)
    n = len(v)
    data = pa.py_buffer(np.packbits(v, bitorder="little") if v.dtype == np.bool_ else v)
    typ = pa.bool_() if v.dtype == np.bool_ else pa.from_numpy_dtype(v.dtype)
    if valid is None or valid.all():
        return pa.Array.from_buffers(typ, n, [None, data], null_count=0)
    bits = pa.py_buffer(np.packbits(np.ascontiguousarray(valid, np.bool_), bitorder="little"))
    return pa.Array.from_buffers(typ, n, [bits, data], null_count=int(n - np.count_nonzero(valid)))


def _strings(names):
    """A pyarrow string Array of ``names`` (str)."""
    import pyarrow as pa
    raw = [x.encode() for x in names]
    offsets = np.zeros(len(raw) + 1, np.int32)
    offsets[1:] = np.cumsum([len(b) for b in raw], dtype=np.int64)
    return pa.Array.from_buffers(pa.string(), len(raw), [None, pa.py_buffer(offsets),
                                                          pa.py_buffer(b"".join(raw))], null_count=0)


def _names(codes: np.ndarray, names, none_code: int = -1):
    """Codes -> strings (null where the code is ``none_code``) as a pyarrow array; a code
    outside ``names`` is an IndexError."""
    import pyarrow as pa
    codes = np.asarray(codes, np.int64)
    valid = codes != none_code
    if ((codes < 0) & valid).any() or (codes >= len(names)).any():
        raise IndexError(f"a code outside 0..{len(names) - 1} for {tuple(names)!r}")
    if len(names) == 1 and valid.all():
        # one name on every row (most of a chunk's string columns: experiment, cell, hero,
        # policy, arms): its bytes repeated, about a quarter of the CPU of Array.take
        raw = names[0].encode()
        offsets = (np.arange(len(codes) + 1, dtype=np.int64) * len(raw)).astype(np.int32)
        return pa.Array.from_buffers(pa.string(), len(codes), [None, pa.py_buffer(offsets),
                                                               pa.py_buffer(raw * len(codes))], null_count=0)
    return _strings(list(names) or [""]).take(_arrow(np.where(valid, codes, 0).astype(np.int32), valid))


def _const_str(value: str, n: int):
    return _names(np.zeros(n, np.int64), [value])


def _numpy(arr, dtype) -> np.ndarray:
    """A pyarrow Array or ChunkedArray of numbers or booleans as numpy ``dtype`` (converted
    from the column's own width); nulls read 0."""
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    n, off = len(arr), arr.offset
    validity, data = arr.buffers()[:2]
    if pa.types.is_boolean(arr.type):
        v = np.unpackbits(np.frombuffer(data, np.uint8), count=off + n, bitorder="little")[off:].astype(np.bool_)
    else:
        t, width = arr.type, arr.type.bit_width // 8
        kind = "i" if pa.types.is_signed_integer(t) else "u" if pa.types.is_unsigned_integer(t) \
            else "f" if pa.types.is_floating(t) else None
        if kind is None:
            raise TypeError(f"a column of {t} is not numbers")
        v = np.frombuffer(data, dtype=f"<{kind}{width}", count=n, offset=off * width).astype(dtype, copy=False)
    if validity is not None and arr.null_count:
        ok = np.unpackbits(np.frombuffer(validity, np.uint8), count=off + n, bitorder="little")[off:].astype(np.bool_)
        v = np.where(ok, v, 0).astype(v.dtype)
    return v


def chunk_tables(exp, cell, games: np.ndarray, rounds: np.ndarray, messages: dict,
                 tactic_ids: list, n_rounds: int):
    """The Parquet tables of one chunk: worker arrays plus the cell's names.

    A cell of several heroes (``cell.seats``) has one row per game and seat, with that seat's
    hero and policy, and the columns of a competitive game: ``players``, ``titles`` (20.3),
    ``won`` (20.1.1: ties share) and ``rank`` (tied seats share); its rounds rows name the
    seat's ``hero``.

    Returns
    -------
    (pyarrow.Table, pyarrow.Table)
        games (one row per game and player) and rounds (one row per game, player, round).
    """
    import pyarrow as pa
    n = len(games)
    seats = tuple(getattr(cell, "seats", ()))
    seat = games["player"]
    if seats:           # several heroes: each row is one seat's hero and policy
        specs = cell.seat_specs()
        who = {"hero": _seat_names(seat, seats),
               "policy": _seat_names(seat, [x[0] for x in specs]),
               "policy_label": _seat_names(seat, [x[2] for x in specs]),
               "policy_params": _seat_names(seat, [json.dumps(x[1], sort_keys=True) for x in specs])}
    else:
        who = {"hero": _const_str(cell.hero, n), "policy": _const_str(cell.policy, n),
               "policy_label": _const_str(cell.policy_label, n),
               "policy_params": _const_str(cell.policy_params_json(), n)}
    cols = {
        "experiment": _const_str(exp.name, n),
        "cell": _arrow(np.full(n, cell.index, np.int32)),
        "cell_label": _const_str(cell.label, n),
        "seed": _arrow(np.full(n, exp.seed, np.uint64)),
        "game_index": _arrow(games["game_index"]),
        "player": _arrow(seat),
    }
    if seats:
        cols["players"] = _arrow(np.full(n, len(seats), np.int8))
    cols.update({
        "scenario": _const_str(cell.scenario, n),
        "lost_legion": _arrow(np.full(n, bool(cell.lost_legion))),
        "content_arm": _const_str(cell.content_arm, n),
        "content_hash": _const_str(exp.content_hashes.get(cell.content_arm, ""), n),
        **who,
        "tactic_arm": _const_str(cell.tactic_arm, n),
        "restriction_arm": _const_str(cell.restriction_arm, n),
    })
    for r in range(n_rounds):
        cols[f"tactic_r{r + 1}"] = _names(games["tactics"][:, r].astype(np.int64) - 1, tactic_ids)
    cols["termination"] = _names(games["termination"], TERMINATIONS, -99)
    cols["finished"] = _arrow(games["finished"])
    cols["error"] = _names(games["error"], ERRORS, -99)
    texts = sorted(set(messages.values()))
    which = {t: i for i, t in enumerate(texts)}
    cols["stopped_reason"] = _names([which[messages[int(g)]] if int(g) in messages else -1
                                     for g in games["game_index"]] if messages else np.full(n, -1), texts)
    score = games["score"]
    cols["score"] = _arrow(score, score != SCORE_MISSING)
    if seats:
        fin = games["finished"]
        cols["titles"] = _arrow(games["titles"].astype(np.int32), fin)
        cols["won"] = _arrow(games["won"], fin)
        cols["rank"] = _arrow(games["rank"], fin)
    for f in STATS_FIELDS:
        cols[f] = _arrow(games[f])
    for k, site in enumerate(SITE_IDS):
        cols[f"conquered_{site}"] = _arrow(games["conquered"][:, k].astype(np.int32))
    cols["seconds"] = _arrow(games["seconds"])
    gt = pa.table(cols)
    rn = len(rounds)
    rcols = {
        "experiment": _const_str(exp.name, rn),
        "cell": _arrow(np.full(rn, cell.index, np.int32)),
        "game_index": _arrow(rounds["game_index"]),
        "player": _arrow(rounds["player"]),
    }
    if seats:
        rcols["hero"] = _seat_names(rounds["player"], seats)
    rcols["round"] = _arrow(rounds["round"])
    for f in ROUND_FIELDS:
        if f == "tactic":
            rcols["tactic"] = _names(rounds["tactic"].astype(np.int64) - 1, tactic_ids)
        else:
            rcols[f] = _arrow(rounds[f])
    return gt, pa.table(rcols)


def _seat_names(codes: np.ndarray, names: list):
    """Per-row strings of a seat's name (``names[player]``)."""
    return _names(codes.astype(np.int64), list(names))


def _chunk_stem(cell: int, start: int, stop: int) -> str:
    return f"c{cell:04d}-g{start:09d}-{stop:09d}"


#: The chunk files' suffix: Arrow IPC files (``pyarrow.ipc``), which the parent writes with
#: about a third of the CPU of a Parquet file and reads back without decoding (memory-mapped)
#: when it appends them to ``games.parquet`` out of order; the final files are encoded once.
CHUNK_SUFFIX = ".arrow"
#: The chunk files of earlier versions (Parquet; docs/experiments.md): still read, so that a
#: run interrupted by an earlier version can be resumed by this one.
OLD_CHUNK_SUFFIX = ".parquet"
#: IPC body compression of the chunk files (docs/experiments.md "Speed and memory").
CHUNK_COMPRESSION = "lz4"


def _write_ipc(table, path: Path, metadata: Optional[dict] = None) -> None:
    """Write the chunk file ``table`` to ``path`` (Arrow IPC, :data:`CHUNK_COMPRESSION`)
    atomically: a temporary name in the same folder, then rename."""
    import pyarrow as pa
    import pyarrow.ipc as ipc
    if metadata:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               b"mksim": json.dumps(metadata).encode()})
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with pa.OSFile(str(tmp), "wb") as sink, \
                ipc.new_file(sink, table.schema, options=ipc.IpcWriteOptions(compression=CHUNK_COMPRESSION)) as w:
            w.write_table(table)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_chunk(out: Path, record: dict, games_table, rounds_table) -> None:
    """Store one finished chunk: its rounds file, then its games file (which marks it done)."""
    d = out / CHUNKS
    stem = _chunk_stem(record["cell"], record["start"], record["stop"])
    _write_ipc(rounds_table, d / f"{stem}.rounds{CHUNK_SUFFIX}")
    _write_ipc(games_table, d / f"{stem}.games{CHUNK_SUFFIX}", record)


def chunk_files(out: Path, kind: str = "games") -> list:
    """The ``kind`` ("games" or "rounds") chunk files in ``out/chunks``, in plan order (the
    file names sort so), of either format; a chunk stored in both formats (cannot happen
    in one run) counts once, as its Arrow file."""
    d = Path(out) / CHUNKS
    if not d.is_dir():
        return []
    files = {}
    for suffix in (OLD_CHUNK_SUFFIX, CHUNK_SUFFIX):       # the Arrow file wins
        for p in d.glob(f"c*-g*-*.{kind}{suffix}"):
            files[p.name[:-len(suffix)]] = p
    return [files[k] for k in sorted(files)]


def read_chunk(path: Path, columns=None):
    """One chunk file (Arrow IPC memory-mapped, without copying, or an earlier version's
    Parquet) as a pyarrow Table, with its schema metadata."""
    import pyarrow as pa
    path = Path(path)
    if path.name.endswith(CHUNK_SUFFIX):
        import pyarrow.ipc as ipc
        t = ipc.open_file(pa.memory_map(str(path))).read_all()
        return t.select(columns) if columns is not None else t
    import pyarrow.parquet as pq
    return pq.ParquetFile(path).read(columns=columns)


def _chunk_schema(path: Path):
    import pyarrow as pa
    if path.name.endswith(CHUNK_SUFFIX):
        import pyarrow.ipc as ipc
        return ipc.open_file(pa.memory_map(str(path))).schema
    import pyarrow.parquet as pq
    return pq.read_schema(path)


def done_chunks(out: Path) -> dict:
    """{(cell, start, stop): record} of the whole chunks stored in ``out/chunks`` (either
    format: a run interrupted by an earlier version resumes with its Parquet chunks)."""
    found = {}
    files = chunk_files(out)
    if not files:
        return found             # a new run: pyarrow is imported while the workers start
    for p in files:
        suffix = CHUNK_SUFFIX if p.name.endswith(CHUNK_SUFFIX) else OLD_CHUNK_SUFFIX
        if not p.with_name(p.name.replace(".games.", ".rounds.")).exists():
            continue
        try:
            meta = _chunk_schema(p).metadata or {}
            rec = json.loads(meta[b"mksim"])
        except Exception:          # noqa: BLE001 - an unreadable chunk is simply run again
            continue
        key = (rec["cell"], rec["start"], rec["stop"])
        if p.name != f"{_chunk_stem(*key)}.games{suffix}":
            continue               # a file renamed by hand: its name and its record disagree
        found[key] = rec
    return found


def _stored_chunk(out: Path, key, kind: str) -> Path:
    """The ``kind`` file of the stored chunk ``key``: this version's Arrow file, else an
    earlier version's Parquet file."""
    stem = Path(out) / CHUNKS / f"{_chunk_stem(*key)}.{kind}"
    arrow = stem.with_name(stem.name + CHUNK_SUFFIX)
    return arrow if arrow.exists() else stem.with_name(stem.name + OLD_CHUNK_SUFFIX)


def _parquet_options(schema) -> dict:
    """Writer settings of every Parquet file of a run: zstd; dictionary pages only for the
    string columns (names repeated on every row; numbers gain nothing from a dictionary and
    cost the parent its hashing) - about a quarter less parent CPU per chunk than the
    defaults, and smaller files."""
    import pyarrow as pa
    return {"compression": "zstd",
            "use_dictionary": [f.name for f in schema if pa.types.is_string(f.type)] or False}


class StreamingConsolidation:
    """``games.parquet`` / ``rounds.parquet`` written while the run goes, instead of read back
    from the chunk files at its end: each chunk of ``plan`` is appended (one row group, in plan
    order, to temporary names) as soon as it and every chunk before it are stored - from the
    tables just written when it is the next one, else from its chunk files.  :meth:`finish`
    appends what is left and renames; :meth:`abort` removes the temporary files.  The bytes are
    those of :func:`consolidate` (the same tables, the same writer settings).

    Parameters
    ----------
    out : Path
    plan : list of (cell, start, stop)
    stored : iterable of (cell, start, stop)
        Chunks already whole on disk (a resumed run).
    """

    KINDS = ("games", "rounds")

    def __init__(self, out: Path, plan: list, stored=()):
        self.out, self.plan, self.next = Path(out), list(plan), 0
        self.stored = set(stored)
        self.tmp = {k: self.out / f".{k}.parquet.tmp{os.getpid()}" for k in self.KINDS}
        self.writers = {}

    def _append(self, kind: str, table) -> None:
        import pyarrow.parquet as pq
        table = table.replace_schema_metadata(None)
        if kind not in self.writers:
            self.writers[kind] = pq.ParquetWriter(self.tmp[kind], table.schema, **_parquet_options(table.schema))
        self.writers[kind].write_table(table)

    def add(self, key=None, tables=None) -> None:
        """Chunk ``key`` is stored (``tables``: its games and rounds tables): append every chunk
        that is now next in plan order."""
        import pyarrow as pa
        if key is not None:
            self.stored.add(key)
        while self.next < len(self.plan) and self.plan[self.next] in self.stored:
            k = self.plan[self.next]
            if k == key and tables is not None:
                parts = tables
            else:
                parts = [read_chunk(_stored_chunk(self.out, k, kind)) for kind in self.KINDS]
            for kind, t in zip(self.KINDS, parts):
                self._append(kind, t)
            del parts
            pa.default_memory_pool().release_unused()     # mimalloc keeps freed pages otherwise
            self.next += 1

    def finish(self) -> None:
        """Append the chunks still missing from the files (all must be stored) and rename the
        files to ``games.parquet`` / ``rounds.parquet``."""
        self.stored.update(self.plan)
        self.add()
        try:
            for kind in self.KINDS:
                if kind in self.writers:
                    self.writers.pop(kind).close()
            for kind in self.KINDS:
                if self.tmp[kind].exists():
                    os.replace(self.tmp[kind], self.out / f"{kind}.parquet")
        finally:
            self.abort()

    def abort(self) -> None:
        """Close and remove the temporary files (nothing half-written is left)."""
        for kind in self.KINDS:
            w = self.writers.pop(kind, None)
            if w is not None:
                try:
                    w.close()
                except Exception:    # noqa: BLE001 - a vanished folder: the file is gone anyway
                    pass
            try:
                self.tmp[kind].unlink()
            except OSError:
                pass


def consolidate(out: Path, plan: list) -> None:
    """Stream the chunk files of ``plan`` (in order) into ``games.parquet`` / ``rounds.parquet``
    (temporary names, then rename); the chunk files stay (:func:`remove_chunks`)."""
    StreamingConsolidation(out, plan).finish()


def remove_chunks(out: Path) -> None:
    d = out / CHUNKS
    if d.is_dir():
        for p in d.iterdir():
            p.unlink()
        d.rmdir()


def remove_results(out: Path) -> None:
    """``--overwrite``: remove what a run and its report wrote in ``out`` (nothing else: a
    report of the replaced results would describe games that are no longer there)."""
    import shutil
    remove_chunks(out)
    for name in ("games.parquet", "rounds.parquet", MANIFEST, "report.md", "report.html"):
        if (out / name).exists():
            (out / name).unlink()
    if (out / "figures").is_dir():
        shutil.rmtree(out / "figures")


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


def read_json(path, option: str, what: str, error=ValueError):
    """A JSON file given on the command line (``--compare``, ``--baseline``): its data, or
    ``error`` with one line naming the option, the file and why it cannot be read."""
    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{option}: {p}: no such file") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise error(f"{option}: {p}: not a {what} ({err})") from None


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
    parts = chunk_files(out)
    if not parts:
        return None
    expr = pq.filters_to_expression(filters) if filters else None
    tables = []
    for p in parts:
        t = read_chunk(p).replace_schema_metadata(None)
        if expr is not None:
            t = t.filter(expr)
        tables.append(t.select(columns) if columns is not None else t)
    return pa.concat_tables(tables)


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b) (continued fraction, modified Lentz;
    Press et al., Numerical Recipes, 6.4), accurate to ~1e-14."""
    import math
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):                  # the fraction converges fast below this
        return 1.0 - _betainc(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x)
                     + b * math.log1p(-x)) / a
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 100_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f


def _t_quantile(df: int, p: float = 0.975) -> float:
    """Quantile ``p`` (> 0.5) of Student's t with ``df`` degrees of freedom: Newton's method
    on the upper tail ``I_{df/(df+t^2)}(df/2, 1/2) / 2`` inside a bracket (scipy.special would
    cost the parent of ``mksim run`` ~15 MB and 0.3-0.5 s of imports for one number;
    tests/test_run.py checks it against ``scipy.special.stdtrit``)."""
    import math
    q = 1.0 - p
    lc = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def tail(t):
        return 0.5 * _betainc(df / 2, 0.5, df / (df + t * t))

    lo, hi = 0.0, 2.0
    while tail(hi) > q:
        lo, hi = hi, hi * 2
    t = (lo + hi) / 2
    for _ in range(200):
        g = tail(t) - q                         # decreasing in t
        if g > 0:
            lo = t
        else:
            hi = t
        dens = math.exp(lc - (df + 1) / 2 * math.log1p(t * t / df))
        step = t + g / dens                     # Newton: tail' = -density
        t_new = step if lo < step < hi else (lo + hi) / 2
        if abs(t_new - t) <= 1e-15 * max(1.0, t):
            return t_new
        t = t_new
    return t


def _t_ci(n: int, total: float, total_sq: float):
    """Mean and 95% t interval from a count, a sum and a sum of squares."""
    if n == 0:
        return None, None, None
    m = total / n
    var = max(total_sq - n * m * m, 0.0) / (n - 1) if n > 1 else 0.0
    if var == 0.0:
        return m, m, m
    half = _t_quantile(n - 1) * (var / n) ** 0.5
    return m, m - half, m + half


def _wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of ``k`` successes in ``n`` (Wilson 1927; the formula of
    ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``, whose import would cost
    the parent ~60 MB)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _equals(arr, value: str) -> np.ndarray:
    """The rows of a pyarrow string Array equal to ``value`` (null rows: False), from its
    buffers: ``dictionary_encode`` or ``pyarrow.compute.equal`` would import pyarrow.compute
    (~0.1 s of CPU at the end of every ``mksim run``, for the summary)."""
    import pyarrow as pa
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if not pa.types.is_string(arr.type):
        raise TypeError(f"a column of {arr.type} is not strings")
    n, off = len(arr), arr.offset
    validity, offsets, data = arr.buffers()[:3]
    o = np.frombuffer(offsets, np.int32, count=n + 1, offset=off * 4).astype(np.int64)
    target = np.frombuffer(value.encode(), np.uint8)
    hit = np.diff(o) == len(target)
    if hit.any() and len(target):
        d = np.frombuffer(data, np.uint8)
        hit[hit] = (d[o[:-1][hit][:, None] + np.arange(len(target))] == target).all(axis=1)
    if validity is not None and arr.null_count:
        hit &= np.unpackbits(np.frombuffer(validity, np.uint8), count=off + n, bitorder="little")[off:].astype(np.bool_)
    return hit


SUMMARY_COLUMNS = ["cell", "finished", "fame", "score", "termination", "seconds"]


def _batches(games, columns=SUMMARY_COLUMNS):
    """Record batches of ``columns``: a pyarrow Table, or a results folder read row group by
    row group, or chunk file by chunk file while it is not complete (memory stays flat
    however many games are stored)."""
    import pyarrow.parquet as pq
    if isinstance(games, (str, Path)):
        out = Path(games)
        if (out / "games.parquet").exists():
            yield from pq.ParquetFile(out / "games.parquet").iter_batches(columns=columns, batch_size=65536)
            return
        for f in chunk_files(out):
            yield from read_chunk(f, columns).to_batches(max_chunksize=65536)
    else:
        yield from games.select(columns).to_batches(max_chunksize=65536)


def summary_rows(manifest: dict, games) -> list[dict]:
    """Per cell: n, finished, mean Fame and mean score (finished games) with 95% t intervals,
    win rate (Solo Conquest: scenario won) with a Wilson interval, games/s (per worker core:
    games over the seconds the workers spent on them).

    ``games`` is a pyarrow Table or a results folder (streamed by row groups)."""
    cells = manifest["experiment"]["cells"]
    k = max(c["index"] for c in cells) + 1
    acc = {name: np.zeros(k) for name in ("n", "fin", "fame", "fame2", "score", "score2", "won", "secs")}
    for b in _batches(games):
        cell = _numpy(b.column(0), np.int32)
        fin = _numpy(b.column(1), np.bool_)
        fame = _numpy(b.column(2), np.int32).astype(np.float64)
        score = _numpy(b.column(3), np.int32).astype(np.float64)      # null (not finished) reads 0
        won = _equals(b.column(4), "scenario_won")
        secs = _numpy(b.column(5), np.float64)
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
            wins = int(acc["won"][i])
            row["win"] = (wins / n, *_wilson(wins, n))
        else:
            row["win"] = None
        s = float(acc["secs"][i])
        row["games_per_s"] = n / s if s > 0 else None
        rows.append(row)
    return rows


SEAT_SUMMARY_COLUMNS = ["cell", "player", "finished", "fame", "score", "won", "seconds"]


def seat_summary_rows(manifest: dict, games) -> list[dict]:
    """:func:`summary_rows` of an experiment of several heroes: one row per cell and seat
    (its hero and policy), n games, finished, mean Fame and mean final score (finished games;
    17.3.1 with achievements and titles) with 95% t intervals, the win rate (most points,
    ties share, 20.1.1) with a Wilson interval, and the cell's games/s per worker core.

    ``games`` is a pyarrow Table or a results folder (streamed by row groups)."""
    cells = manifest["experiment"]["cells"]
    k = max(c["index"] for c in cells) + 1
    seats = max(len(c.get("seats", ())) for c in cells) or 1
    shape = (k, seats)
    acc = {name: np.zeros(shape) for name in ("n", "fin", "fame", "fame2", "score", "score2", "won", "secs")}
    for b in _batches(games, SEAT_SUMMARY_COLUMNS):
        cell = _numpy(b.column(0), np.int64)
        seat = _numpy(b.column(1), np.int64)
        idx = cell * seats + seat
        fin = _numpy(b.column(2), np.bool_)
        fame = _numpy(b.column(3), np.int32).astype(np.float64)
        score = _numpy(b.column(4), np.int32).astype(np.float64)      # null (not finished) reads 0
        won = _numpy(b.column(5), np.bool_) & fin
        secs = _numpy(b.column(6), np.float64) * (seat == 0)          # the game's time, once per game
        size = k * seats
        for name, w in (("n", None), ("fin", fin), ("fame", fame), ("fame2", fame * fame),
                        ("score", score * fin), ("score2", score * score * fin), ("won", won), ("secs", secs)):
            acc[name] += np.bincount(idx, weights=w, minlength=size).reshape(shape)
    rows = []
    for c in cells:
        i = c["index"]
        s = float(acc["secs"][i].sum())
        n_games = int(acc["n"][i][0])
        labels = [p["label"] for p in c.get("seat_policies", ())] or [c["policy_label"] or c["policy"]] * len(c["seats"])
        for p, hero in enumerate(c["seats"]):
            n, fin = int(acc["n"][i][p]), int(acc["fin"][i][p])
            wins = int(acc["won"][i][p])
            rows.append({"cell": i, "label": c["label"], "player": p, "hero": hero, "policy_label": labels[p],
                         "n": n, "finished": fin,
                         "fame": _t_ci(n, acc["fame"][i][p], acc["fame2"][i][p]),
                         "score": _t_ci(fin, acc["score"][i][p], acc["score2"][i][p]),
                         "win": (wins / fin, *_wilson(wins, fin)) if fin else None,
                         "games_per_s": n_games / s if s > 0 else None})
    return rows
