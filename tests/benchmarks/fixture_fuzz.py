"""Fixture fuzzing at scale: mutated real positions are refused with one clear message or
played to their end -- no crash, no hang, no other exception (tests/fixture_mutations.py).

    python tests/benchmarks/fixture_fuzz.py --mutations 20000 --seed 2026 --jobs 2

Mutations run in chunks in child processes, so that a crash (a segmentation fault) or a
hang (``--timeout`` seconds for a chunk) is counted and reported with the mutation that
caused it instead of ending the run.  Every 4th position is one with a handler's question
pending, and its mutations change the question's scratch values, stage and options
(``mutate_pending``).  Prints the counts (refused / ended / stopped /
failures) and each failure with what to replay it (``--replay K``).  Exit status 1 when
any mutation failed.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parents[1]))

PER_POSITION = 20               # mutations of each position
PENDING_EVERY = 4               # every 4th position has a handler's question pending


def is_pending(k: int) -> bool:
    """Mutation ``k`` changes the scratch values of a pending question (mutate_pending)."""
    return k // PER_POSITION % PENDING_EVERY == PENDING_EVERY - 1


def _case(seed: int, k: int, cache: dict):
    """Mutation ``k``: (game, mutated dict, words)."""
    from fixture_mutations import PendingPositions, Positions, mutate, mutate_pending
    pk = k // PER_POSITION
    if "positions" not in cache:
        cache["positions"] = (Positions(seed), PendingPositions(seed))   # they keep their Games
    if cache.get("pk") != pk:
        cache["pk"] = pk
        cache["case"] = cache["positions"][is_pending(k)].take(pk)
    game, d, where = cache["case"]
    r = random.Random(seed * 7_919 + k)
    m, words = mutate_pending(d, r) if is_pending(k) else mutate(d, r, r.choice((1, 1, 1, 2, 3)))
    return game, m, f"{where}; " + "; ".join(words)


def worker(seed: int, start: int, count: int) -> None:
    from fixture_mutations import judge
    cache: dict = {}
    for k in range(start, start + count):
        game, m, words = _case(seed, k, cache)
        print(json.dumps({"k": k, "start": True, "words": words}), flush=True)
        verdict = judge(game, m, play_seed=k)
        print(json.dumps({"k": k, "verdict": verdict}), flush=True)


def run_chunk(seed: int, start: int, count: int, timeout: float) -> list:
    """[(k, verdict, words)] of one chunk, run in a child process; a crash or a hang ends the
    chunk with a failure at the mutation being judged, and the rest is run again."""
    out = []
    while count > 0:
        cmd = [sys.executable, __file__, "--worker", str(start), str(count), "--seed", str(seed)]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  env=dict(os.environ, PYTHONFAULTHANDLER="0"))
            stdout, rc, hung = proc.stdout, proc.returncode, False
        except subprocess.TimeoutExpired as err:
            stdout = (err.stdout or b"").decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
            rc, hung = None, True
        words = {}
        done = set()
        last = None
        for line in stdout.splitlines():
            rec = json.loads(line)
            if "start" in rec:
                words[rec["k"]] = rec["words"]
                last = rec["k"]
            else:
                out.append((rec["k"], rec["verdict"], words.get(rec["k"], "")))
                done.add(rec["k"])
        if rc == 0 and not hung:
            break
        if last is None or last in done:
            if hung:
                out.append((start, f"failure: chunk timed out before mutation {start} started", ""))
                last = start
            else:
                raise RuntimeError(f"worker failed outside a mutation (exit {rc}): {proc.stderr[-2000:]}")
        else:
            why = "a hang (no verdict within the chunk timeout)" if hung else f"a crash (exit status {rc})"
            out.append((last, f"failure: {why}", words.get(last, "")))
        count -= last + 1 - start
        start = last + 1
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutations", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per chunk")
    ap.add_argument("--worker", nargs=2, type=int, metavar=("START", "COUNT"), help=argparse.SUPPRESS)
    ap.add_argument("--replay", type=int, metavar="K", help="judge mutation K in this process, verbosely")
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.seed, *args.worker)
        return 0
    if args.replay is not None:
        from fixture_mutations import judge
        game, m, words = _case(args.seed, args.replay, {})
        print(words)
        print(judge(game, m, play_seed=args.replay))
        return 0
    t0 = time.time()
    chunks = [(s, min(args.chunk, args.mutations - s)) for s in range(0, args.mutations, args.chunk)]
    with ThreadPoolExecutor(args.jobs) as ex:
        results = [r for part in ex.map(lambda c: run_chunk(args.seed, c[0], c[1], args.timeout), chunks)
                   for r in part]
    verdicts = Counter("failure" if v.startswith("failure") else v for _k, v, _w in results)
    print(f"{len(results)} mutations (seed {args.seed}), {time.time() - t0:.0f} s: "
          f"{verdicts['refused']} refused, {verdicts['ended']} played to the end, "
          f"{verdicts['stopped']} stopped at a rule not implemented yet, {verdicts['failure']} failures")
    pending = Counter("failure" if v.startswith("failure") else v for k, v, _w in results if is_pending(k))
    print(f"  of which {sum(pending.values())} of pending questions' scratch values: "
          f"{pending['refused']} refused, {pending['ended']} played to the end, "
          f"{pending['stopped']} stopped, {pending['failure']} failures")
    kinds = Counter()
    for k, v, w in sorted(results):
        if v.startswith("failure"):
            kinds[v[:90]] += 1
            if kinds[v[:90]] <= 3:
                print(f"  mutation {k}: {v[:300]}\n      {w[:400]}")
    for v, n in kinds.most_common():
        print(f"{n:6d}  {v}")
    return 1 if verdicts["failure"] else 0


if __name__ == "__main__":
    sys.exit(main())
