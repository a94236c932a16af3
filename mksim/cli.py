"""The ``mksim`` command line (typer).

Every command that reads content accepts ``--content PATH`` (a folder with edited copies of
catalogue files, or a small override file).  Bad input of any kind ends with one line
``error: ...`` naming what is wrong and where, exit status 2 and no traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from . import effects as fx
from .content import KINDS, ContentError, load_content

app = typer.Typer(
    help="mksim: play thousands of simulated Mage Knight games and report on heroes, tactics "
         "and rule variants.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
content_app = typer.Typer(
    help="Look at and check the game content: cards, units, enemies, tiles, scenarios ...",
    no_args_is_help=True,
)
app.add_typer(content_app, name="content")

CONTENT_OPTION = typer.Option(
    None, "--content", metavar="PATH",
    help="Use edited content: a folder holding changed copies of catalogue files and "
         "nothing else (e.g. a copy of mksim/data), or a TOML override file such as "
         "'\\[enemies.prowlers] armor = 4'.",
)
COUNTS_OPTION = typer.Option(
    True, "--count-check/--no-count-check",
    help="Check the numbers of cards, tokens and tiles against the rulebooks' component "
         "lists. Turn off for home-made content with extra or fewer components.",
)

POLICY_HELP = ("Policy: NAME, NAME:key=value,... (e.g. eager:default=2), or "
               "path/to/file.py:ClassName[:key=value,...]. See 'mksim policies list'.")


def fail(message: str) -> None:
    """Report bad input: one line on stderr, exit status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


def _load(content: Optional[Path], count_check: bool = True):
    try:
        return load_content(content, check_counts=count_check)
    except ContentError as err:
        fail(str(err))


def _kind_name(kind: str) -> str:
    k = kind.strip().lower().replace("-", "_")
    aliases = {v.table: v.name for v in KINDS.values()}
    aliases.update({"aa": "advanced_actions", "cards": "cards", "wounds": "wound"})
    return aliases.get(k, k)


@content_app.command("list")
def content_list(
    kind: Optional[str] = typer.Argument(
        None, help="What to list: heroes, basic-actions, advanced-actions, spells, artifacts, "
                   "units, enemies, tactics, skills, tiles, sites, ruins, city-garrisons, cities, "
                   "levels, reputation, map-shapes, scenarios. Leave out to see how many of each."),
    content: Optional[Path] = CONTENT_OPTION,
    count_check: bool = COUNTS_OPTION,
) -> None:
    """List the content of one kind, or count every kind."""
    c = _load(content, count_check)
    if kind is None:
        for name, k in KINDS.items():
            typer.echo(f"{name.replace('_', '-'):18} {len(c[name]):4}  ({k.file})")
        return
    name = _kind_name(kind)
    if name not in KINDS:
        fail(f"unknown kind {kind!r}; choose one of {', '.join(n.replace('_', '-') for n in KINDS)}")
    k = KINDS[name]
    for e in c[name]:
        key = k.key(e)
        label = e.get("name", "")
        extra = []
        for fld in ("colour", "tier", "level", "time", "hero", "kind", "expansion"):
            if fld in e and fld != "level" or (fld == "level" and name == "units"):
                extra.append(f"{e[fld]}")
        typer.echo(f"{str(key):28} {label:32} {' '.join(extra)}".rstrip())


def _show_value(v) -> str:
    if isinstance(v, list):
        if v and isinstance(v[0], dict):
            return "; ".join(", ".join(f"{a}={b}" for a, b in d.items()) for d in v)
        return ", ".join(str(x) for x in v) if v else "-"
    return str(v)


@content_app.command("show")
def content_show(
    name: str = typer.Argument(..., help="An id or name, e.g. rage, 'Fire Bolt', prowlers, solo_conquest."),
    content: Optional[Path] = CONTENT_OPTION,
    count_check: bool = COUNTS_OPTION,
) -> None:
    """Show everything the catalogue says about one card, unit, enemy, tile, scenario ..."""
    c = _load(content, count_check)
    matches = c.find(name.replace("-", "_")) or c.find(name)
    if not matches:
        fail(f"nothing called {name!r} in the content; try 'mksim content list KIND'")
    for i, (kind, e) in enumerate(matches):
        if i:
            typer.echo("")
        typer.echo(f"[{KINDS[kind].table} in {KINDS[kind].file}]")
        for fld, v in e.items():
            typer.echo(f"  {fld:20} {_show_value(v)}")


@content_app.command("validate")
def content_validate(
    content: Optional[Path] = CONTENT_OPTION,
    count_check: bool = COUNTS_OPTION,
) -> None:
    """Check all content files (types, words, effects and their amounts, handlers against
    the engine, references, component counts), compile them and bind them to the engine for
    every solo scenario and hero; print a count of each kind."""
    c = _load(content, count_check)
    try:
        tables = c.compile()
    except ContentError as err:
        fail(str(err))
    _bind_every_game(c)
    if content is not None:
        typer.echo(f"user content: {', '.join(c.user_files) if c.user_files else 'none'}")
    typer.echo(f"compiled: {len(tables.effects)} effect rows, {len(tables.handlers)} named handlers, "
               f"{tables.nbytes()} bytes of tables")
    typer.echo(c.summary())


def _bind_every_game(c) -> None:
    """Bind the content to the engine as ``mksim play`` would, for every solo scenario, hero
    and Lost Legion choice (``Game()`` binds eagerly): what the engine cannot use is
    reported by ``validate`` too, not first when a game starts."""
    from .game import Game
    for sc in c["scenarios"]:
        if sc["min_players"] > 1 or not sc["dummy"]:
            continue                 # not playable yet (18.1): `mksim play` says so
        for hero in c.ids("heroes"):
            for lost_legion in (False, True):
                try:
                    Game(sc["id"], hero, content=c, lost_legion=lost_legion)
                except (ContentError, ValueError) as err:
                    fail(str(err))


@content_app.command("vocabulary")
def content_vocabulary(
    handlers: bool = typer.Option(False, "--handlers", help="Also list every named handler the "
                                  "content uses, with the entries that use it."),
    content: Optional[Path] = CONTENT_OPTION,
) -> None:
    """List the effect vocabulary used to write card, unit and skill effects."""
    if handlers:
        c = _load(content, False)
        users: dict[str, list[str]] = {}
        for (kind, key, path), node in c.parsed.items():
            for name in fx.handler_names(node):
                users.setdefault(name, []).append(f"{kind}:{key}")
        for name in sorted(users):
            typer.echo(f"{name:34} {', '.join(sorted(set(users[name])))}")
        typer.echo(f"{len(users)} named handlers")
        return
    for op in fx.OPS:
        params = ", ".join(p.name if p.required else f"{p.name}={p.default}" for p in op.params)
        if op.variadic:
            params = "effect, effect, ..."
        typer.echo(f"{op.name}({params})")
        typer.echo(f"    {op.doc}")
        bounds = [f"{p.name} {p.min} .. {p.max}" for p in op.params if p.min is not None]
        if bounds:
            typer.echo(f"    range: {'; '.join(bounds)}")
    typer.echo("")
    for name, values in fx.ENUMS.items():
        typer.echo(f"{name}: {' '.join(values)}")


@content_app.command("coverage")
def content_coverage(
    content: Optional[Path] = CONTENT_OPTION,
    tests: Optional[Path] = typer.Option(
        None, "--tests", metavar="DIR", help="The tests folder to read covers marks from "
        "(default: the checkout's tests/ next to the mksim package)."),
    missing: bool = typer.Option(False, "--missing", help="List only the halves with no test."),
    as_json: bool = typer.Option(False, "--json", help="Print the coverage as JSON."),
    write_ratchet: bool = typer.Option(
        False, "--write-ratchet", help="Write the untested halves to DIR/conformance/"
        "untested.txt (the list tests/test_coverage.py holds the suite to; commit it)."),
) -> None:
    """Conformance coverage (issue 8): every basic / advanced action, spell, artifact, unit,
    skill and tactic with its implementation, the number of conformance tests per half
    (``@pytest.mark.covers`` marks, read without running the tests; docs/conformance.md) and
    the source of its text.  Last line: ``coverage: N/M implemented, K/M tested``."""
    import json
    from . import coverage as cv
    c = _load(content, False)
    if tests is None:
        tests = cv.default_tests_dir()
        if tests is None:
            fail("no tests folder next to the mksim package (an installed copy has none); "
                 "give one with --tests DIR")
    elif not tests.is_dir():
        fail(f"--tests {tests}: no such folder")
    try:
        marks, problems = cv.read_marks(tests)
    except cv.CoverageError as err:
        fail(str(err))
    cov = cv.compute(c, marks, problems)
    if write_ratchet:
        target = tests / cv.RATCHET
        if not target.parent.is_dir():
            fail(f"{target.parent}: no such folder for the ratchet file")
        cv.write_atomic(target, cov.ratchet_text())
    for p in cov.problems:
        typer.echo(f"warning: {p} (mark ignored)", err=True)
    if as_json:
        typer.echo(json.dumps(cov.as_dict(), indent=1))
        return
    if write_ratchet:
        typer.echo(f"wrote {len(cov.untested())} untested halves to {tests / cv.RATCHET}")
    for line in cv.table_lines(cov, missing_only=missing):
        typer.echo(line)


# ---------------------------------------------------------------------------------------
# play and bench
# ---------------------------------------------------------------------------------------

#: Exit status of ``mksim play`` when a game stopped before its end (a rule the engine does
#: not implement yet, or an engine inconsistency); the last line says ``game stopped: ...``.
EXIT_STOPPED = 3


SEED_MAX = (1 << 64) - 1   # seeds and game indices are unsigned 64-bit numbers (never wrapped)


def _int(value: str, option: str, minimum: Optional[int] = None, maximum: Optional[int] = None) -> int:
    """A whole-number option, checked here so that bad input is one 'error:' line."""
    try:
        n = int(str(value).strip())
    except ValueError:
        fail(f"{option} must be a whole number, got {value!r}")
    if minimum is not None and n < minimum:
        fail(f"{option} must be at least {minimum}, got {n}")
    if maximum is not None and n > maximum:
        fail(f"{option} must be at most {maximum} (2**64 - 1), got {n}" if maximum == SEED_MAX
             else f"{option} must be at most {maximum}, got {n}")
    return n


def _choices(value: str, known: list[str], what: str) -> list[str]:
    """``all`` or one known id (kebab-case or snake_case)."""
    from .game import normalize_id
    if value.strip().lower() == "all":
        return list(known)
    ident = normalize_id(value)
    if ident not in known:
        fail(f"unknown {what} {value!r}; known: {', '.join(k.replace('_', '-') for k in known)}, all")
    return [ident]


def _play_one(game, head: str, seed: int, index: int, pol, log: bool, max_steps: int, state=None) -> bool:
    """Play one game (from ``state`` if given): the whole log with ``log``, else one outcome
    line (two when it stopped).  Returns True when the game did not reach its end."""
    lines: list[str] = []
    echo = typer.echo if log else lines.append
    if log:
        typer.echo(f"# {game.title} -- {head}")
    from .runner import play_logged

    out = play_logged(game, seed, index, pol, echo=echo, max_steps=max_steps, state=state)
    if out.stopped is not None and out.stopped.startswith("policy "):
        # the policy broke its contract (illegal action, exception): bad input, not a game
        fail(f"{out.stopped} (game stopped after {out.steps} decisions, {head})")
    stopped = out.stopped is not None or not out.finished
    if not log:
        if stopped:
            typer.echo(f"{head}: after {out.steps} decisions in round {out.rounds}, Fame {out.fame}")
            typer.echo(lines[-1] if lines and lines[-1].startswith("game stopped:")
                       else f"game stopped: {out.stopped}")
        else:
            typer.echo(f"{head}: {lines[-1]}")
    return stopped


@app.command("play")
def play(
    scenario: Optional[str] = typer.Option(None, "--scenario", help="Scenario id "
                                           "(first-reconnaissance, solo-conquest) or 'all'. "
                                           "[default: first-reconnaissance]"),
    hero: Optional[str] = typer.Option(None, "--hero", help="Hero id (arythea, goldyx, norowas, "
                                       "tovak, wolfhawk) or 'all'. [default: arythea]"),
    policy: list[str] = typer.Option(["random"], "--policy", help=POLICY_HELP + " With --players, "
                                     "one for all seats or repeated once per seat."),
    players: str = typer.Option("1", "--players", help="Heroes in the game: 1 (solo, with the dummy) "
                                "or 2-4 (First Reconnaissance, 17.3.1; --hero names one per seat, "
                                "comma-separated)."),
    seed: Optional[str] = typer.Option(None, "--seed", help="Root seed of the run (a whole number). "
                                       "[default: 0]"),
    game_index: Optional[str] = typer.Option(None, "--game-index", help="Which game of the run "
                                             "(0, 1, ...). [default: 0]"),
    log: bool = typer.Option(False, "--log", help="Print the game turn by turn."),
    lost_legion: bool = typer.Option(False, "--lost-legion", help="Add The Lost Legion components."),
    max_steps: str = typer.Option("100000", "--max-steps", help="Stop a game after this many decisions."),
    fixture: Optional[Path] = typer.Option(
        None, "--fixture", metavar="FILE",
        help="Continue a game from the position in a fixture file (.json or .toml, see "
             "docs/fixtures.md). The file names the scenario, hero, Lost Legion flag, seed "
             "and game index, so --scenario, --hero, --lost-legion, --seed and --game-index "
             "cannot be given with it."),
    content: Optional[Path] = CONTENT_OPTION,
) -> None:
    """Play one game (or one per scenario / hero with 'all') and print its outcome.

    With --log every decision is printed in words, with round headers, the dummy's turns
    and the end.  Exit status 0 when every game reached its end; 3 when a game stopped at a
    rule the engine does not implement yet (the last line of that game is
    'game stopped: <message>'); 2 for bad arguments.
    """
    from .game import Game

    if fixture is not None:
        given = [name for name, v in (("--scenario", scenario), ("--hero", hero), ("--seed", seed),
                                      ("--game-index", game_index), ("--lost-legion", lost_legion or None))
                 if v is not None]
        if given:
            fail(f"--fixture FILE sets the scenario, hero, Lost Legion flag, seed and game index; "
                 f"leave out {', '.join(given)}")
    n_players = _int(players, "--players", 1, 4)
    if n_players > 1:
        _play_seats(scenario, hero, policy, n_players, seed, game_index, log, lost_legion, max_steps,
                    fixture, content)
        return
    if len(policy) > 1:
        fail(f"--policy given {len(policy)} times: one policy per seat needs --players N")
    policy = policy[0]
    scenario = "first-reconnaissance" if scenario is None else scenario
    hero = "arythea" if hero is None else hero
    seed_n = _int("0" if seed is None else seed, "--seed", 0, SEED_MAX)
    index_n = _int("0" if game_index is None else game_index, "--game-index", 0, SEED_MAX)
    steps_n = _int(max_steps, "--max-steps", 1)
    c = _load(content, True)
    scenarios = _choices(scenario, c.ids("scenarios"), "scenario")
    heroes = _choices(hero, [h["id"] for h in c["heroes"]], "hero")
    pol = policy_from_spec(policy)
    if fixture is not None:
        _play_fixture(fixture, c, pol, log, steps_n)
        return
    stopped = False
    first = True
    for sc in scenarios:
        for h in heroes:
            try:
                game = Game(sc, h, content=c, lost_legion=lost_legion)
            except (ValueError, ContentError) as err:
                fail(str(err))
            if not first and log:
                typer.echo("")
            first = False
            head = f"{sc.replace('_', '-')} / {h} / policy {pol!r} / seed {seed_n} game {index_n}"
            if _play_one(game, head, seed_n, index_n, pol, log, steps_n):
                stopped = True
    if stopped:
        raise typer.Exit(code=EXIT_STOPPED)


def _play_seats(scenario, hero, policy, n_players, seed, game_index, log, lost_legion, max_steps,
                fixture, content) -> None:
    """``mksim play --players N``: one game of N heroes (17.3.1), one policy per seat."""
    from .game import Game, normalize_id
    from .runner import seat_policies

    if fixture is not None:
        fail("--fixture cannot be given with --players (the fixture file names its heroes)")
    scenario = "first-reconnaissance" if scenario is None else scenario
    if scenario.strip().lower() == "all":
        fail("--scenario all cannot be given with --players; name one scenario")
    c = _load(content, True)
    known = [h["id"] for h in c["heroes"]]
    if hero is None:
        seats = known[:n_players]
    else:
        seats = [normalize_id(x) for x in hero.split(",") if x.strip()]
        if "all" in seats:
            fail("--hero all cannot be given with --players; name one hero per seat, comma-separated")
        for x in seats:
            if x not in known:
                fail(f"unknown hero {x!r}; known: {', '.join(known)}")
        if len(seats) != n_players:
            fail(f"--hero names {len(seats)} hero(es) for --players {n_players}: name one per seat, "
                 f"comma-separated (e.g. --hero {','.join(known[:n_players])})")
    seed_n = _int("0" if seed is None else seed, "--seed", 0, SEED_MAX)
    index_n = _int("0" if game_index is None else game_index, "--game-index", 0, SEED_MAX)
    steps_n = _int(max_steps, "--max-steps", 1)
    if len(policy) not in (1, n_players):
        fail(f"--policy given {len(policy)} times for {n_players} seats: give it once for all seats "
             f"or once per seat")
    specs = [policy_from_spec(p) for p in policy]
    try:
        pols = seat_policies(specs if len(specs) > 1 else policy[0], n_players)
    except ValueError as err:
        fail(str(err))
    try:
        game = Game(scenario, heroes=seats, content=c, lost_legion=lost_legion)
    except (ValueError, ContentError) as err:
        fail(str(err))
    names = " / ".join(repr(p) for p in pols) if len(specs) > 1 else repr(pols[0])
    head = (f"{game.scenario_id.replace('_', '-')} / {','.join(seats)} / policy {names} / "
            f"seed {seed_n} game {index_n}")
    if _play_one(game, head, seed_n, index_n, pols, log, steps_n):
        raise typer.Exit(code=EXIT_STOPPED)


def _play_fixture(path: Path, c, pol, log: bool, steps_n: int) -> None:
    """``mksim play --fixture FILE``: continue the game written in FILE with policy ``pol``."""
    from .fixtures import FixtureError, fixture_game_args, load_fixture_file
    from .game import Game

    try:
        d = load_fixture_file(path)
        args = fixture_game_args(d)
        try:
            game = Game(args["scenario"], args["hero"], content=c, lost_legion=args["lost_legion"])
        except ContentError as err:  # the content, not the fixture, is bad
            fail(str(err))
        except ValueError as err:
            raise FixtureError(f"{'hero' if str(err).startswith('unknown hero') else 'scenario'}: {err}") from None
        state = game.state_from_dict(d)
    except FixtureError as err:
        fail(f"{path}: {err}")
    seed_n, index_n = int(d.get("seed", 0)), int(d.get("game_index", 0))
    head = f"{path} ({game.scenario_id.replace('_', '-')} / {game.hero_id}) / policy {pol!r}"
    if _play_one(game, head, seed_n, index_n, pol, log, steps_n, state=state):
        raise typer.Exit(code=EXIT_STOPPED)


@app.command("bench")
def bench(
    games: str = typer.Option("200", "--games", help="Games to play (at least 1)."),
    seed: str = typer.Option("0", "--seed", help="Root seed: game k uses (seed, k)."),
    jobs: str = typer.Option("1", "--jobs", help="Worker processes (joblib loky)."),
    policy: list[str] = typer.Option(["random"], "--policy", help=POLICY_HELP + " Repeat to bench several."),
    scenario: str = typer.Option("first-reconnaissance", "--scenario", help="Scenario id."),
    hero: str = typer.Option("arythea", "--hero", help="Hero id."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (a list with several policies)."),
    compare_to: Optional[Path] = typer.Option(None, "--compare", metavar="OLD.json",
                                              help="Compare with a saved --json report: exit 1 on a slowdown "
                                                   "beyond --tolerance or any change of the exact counters."),
    tolerance: str = typer.Option("10%", "--tolerance", help="Slowdown of games/s allowed by --compare."),
) -> None:
    """Play games (First Reconnaissance, solo, Arythea and the random policy by default)
    with fixed seeds and report games/s, decisions/s, decisions per game, peak memory, how
    many games the engine stopped before their end (with the most frequent reasons), and
    exact work counters for those seeds (games, decisions, turns, combats, ...) that do not
    depend on the machine."""
    import json

    from .bench import CompareError, compare, load_baseline, parse_tolerance, run_bench, work_counters

    n_games, seed_n, jobs_n = _int(games, "--games", 1), _int(seed, "--seed", 0, SEED_MAX), _int(jobs, "--jobs", 1)
    pols = [(spec, policy_from_spec(spec)) for spec in policy]
    try:
        tol = parse_tolerance(tolerance)
        baseline = load_baseline(compare_to) if compare_to is not None else None
    except (CompareError, ValueError) as err:
        fail(str(err))
    c = _load(None, True)
    sc = _choices(scenario, c.ids("scenarios"), "scenario")[0] if scenario != "all" else fail(
        "--scenario all is not supported by bench; name one scenario")
    h = _choices(hero, [x["id"] for x in c["heroes"]], "hero")[0] if hero != "all" else fail(
        "--hero all is not supported by bench; name one hero")
    if baseline is not None:                       # refuse before playing anything
        have = {(e.get("policy"), e.get("scenario"), e.get("hero"), e.get("seed"), e.get("games")) for e in baseline}
        for spec, _ in pols:
            if (spec, sc, h, seed_n, n_games) not in have:
                fail(f"--compare: {compare_to} has no bench of {spec} {sc} {h} seed {seed_n} x{n_games} "
                     "(same policy, scenario, hero, seed and games are needed)")
    reports = []
    for spec, pol in pols:
        report = run_bench(n_games, seed_n, scenario=sc, hero=h, policy=pol, jobs=jobs_n)
        report["policy"] = spec                   # the spec as given (e.g. heuristic:preset=explorer)
        broken = [e["message"] for e in report["top_errors"] if e["message"].startswith("policy ")]
        if broken:
            n = sum(report["stopped_by"].get(k, 0) for k in ("illegal_action", "policy_failed"))
            fail(f"{broken[0]} ({n} of {n_games} games stopped by the policy)")
        report["counters"] = work_counters(n_games, seed_n, sc, h, policy_from_spec(spec))
        reports.append(report)
    if as_json:
        typer.echo(json.dumps(reports[0] if len(reports) == 1 else reports, indent=2))
    else:
        for report in reports:
            for key, value in report.items():
                if key == "top_errors":
                    typer.echo("top_errors:")
                    for e in value:
                        typer.echo(f"  {e['games']:6d}  {e['message']}")
                else:
                    typer.echo(f"{key}: {value}")
    if baseline is not None:
        try:
            ok, rows = compare(reports, baseline, tol, str(compare_to))
        except CompareError as err:
            fail(str(err))
        out = typer.echo if not as_json else (lambda line: typer.echo(line, err=True))
        head = ("what", "baseline", "now", "verdict")
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
        for r in [head] + rows:
            out("  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip())
        verdict = "compare: ok" if ok else "compare: FAILED (a slowdown beyond the tolerance or a changed counter)"
        out(verdict)
        if not ok:
            raise typer.Exit(code=1)


# ---------------------------------------------------------------------------------------
# run, results, replay (docs/experiments.md)
# ---------------------------------------------------------------------------------------

#: Exit status of ``mksim run`` stopped by Ctrl-C (128 + SIGINT): whole chunks are kept.
EXIT_INTERRUPTED = 130


def _fmt_ci(t, digits: int = 2) -> str:
    if t is None or t[0] is None:
        return "-"
    m, lo, hi = t
    return f"{m:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _summary_lines(manifest: dict, games) -> list[str]:
    """The per-cell table: n, finished, mean Fame / score with 95% intervals, win rate with a
    Wilson interval (Solo Conquest), games/s per worker core.  Several heroes: one line per
    cell and seat, with the seat's win rate (ties share the victory, 20.1.1)."""
    from .results import summary_rows
    if manifest["experiment"].get("players", 1) > 1:
        return _seat_summary_lines(manifest, games)
    rows = summary_rows(manifest, games)
    solo_conquest = manifest["experiment"]["scenario"] == "solo_conquest"
    head = ["cell", "n", "finished", "Fame mean [95% CI]", "score mean [95% CI]"]
    if solo_conquest:
        head.append("win rate [95% Wilson]")
    head.append("games/s")
    table = [head]
    for r in rows:
        line = [f"{r['cell']} {r['label']}", str(r["n"]), str(r["finished"]), _fmt_ci(r["fame"]),
                _fmt_ci(r["score"])]
        if solo_conquest:
            line.append(_fmt_ci(r["win"], 3))
        line.append(f"{r['games_per_s']:.0f}" if r["games_per_s"] else "-")
        table.append(line)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    out = []
    for k, row in enumerate(table):
        out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _seat_summary_lines(manifest: dict, games) -> list[str]:
    """The per-cell and per-seat table of an experiment of several heroes."""
    from .results import seat_summary_rows
    head = ["cell", "seat", "n", "finished", "Fame mean [95% CI]", "score mean [95% CI]",
            "win rate [95% Wilson]", "games/s"]
    table = [head]
    last = None
    for r in seat_summary_rows(manifest, games):
        first = r["cell"] != last
        last = r["cell"]
        table.append([f"{r['cell']} {r['label']}" if first else "",
                      f"{r['player']} {r['hero']} ({r['policy_label']})", str(r["n"]), str(r["finished"]),
                      _fmt_ci(r["fame"]), _fmt_ci(r["score"]), _fmt_ci(r["win"], 3),
                      (f"{r['games_per_s']:.0f}" if r["games_per_s"] else "-") if first else ""])
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    out = []
    for k, row in enumerate(table):
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _precision_line(manifest: dict) -> None:
    """Say whether a precision target was reached (a warning, exit status 0, when the cap came first)."""
    p = manifest.get("precision")
    if not p:
        return
    widths = p["widths"].values()
    what = f"every cell's 95% interval of {p['metric']} narrower than {p['ci_width']:g}"
    if p["reached"]:
        typer.echo(f"precision: {what}: reached after {p['games']} games per cell "
                   f"(widths {min(widths):.3g} .. {max(widths):.3g})")
    else:
        worst = max(p["widths"], key=p["widths"].get)
        typer.echo(f"warning: precision target not reached: {what} needs more than max_games = "
                   f"{p['max_games']} games per cell; the widest is {worst!r} at {p['widths'][worst]:.3g}", err=True)


def _experiment_from_cli(experiment, scenario, hero, policy, lost_legion, content, games, seed, players=None):
    from .experiments import ExperimentError, experiment_from_options, load_experiment
    try:
        if experiment is not None:
            given = [n for n, v in (("--scenario", scenario), ("--hero", hero or None), ("--policy", policy or None),
                                    ("--lost-legion", lost_legion or None), ("--content", content),
                                    ("--players", players)) if v is not None]
            if given:
                fail(f"{experiment}: the experiment file sets the factors; leave out {', '.join(given)}")
            exp = load_experiment(experiment)
            if games is not None or seed is not None:
                from dataclasses import replace
                exp = replace(exp, games=_int(games, "--games", 1) if games is not None else exp.games,
                              seed=_int(seed, "--seed", 0) if seed is not None else exp.seed)
            return exp
        n_players = _int(players, "--players", 1, 4) if players is not None else 1
        if n_players > 1:
            # --hero a,b,c: the heroes of one game, one per seat (repeat for more seat arms);
            # --hero all: every set of N different heroes; --policy once or once per seat
            seats = None
            if hero:
                seats = []
                for item in hero:
                    names = [h.strip() for h in item.split(",") if h.strip()]
                    seats.append("all" if [x.lower() for x in names] == ["all"] else names)
            return experiment_from_options(
                scenario or "first-reconnaissance", (), policy or ["random"], lost_legion,
                str(content) if content is not None else None,
                _int(games if games is not None else "100", "--games", 1),
                _int(seed if seed is not None else "0", "--seed", 0), players=n_players, seats=seats)
        heroes = [h.strip() for item in (hero or ["arythea"]) for h in item.split(",") if h.strip()]
        return experiment_from_options(
            scenario or "first-reconnaissance", heroes, policy or ["random"], lost_legion,
            str(content) if content is not None else None,
            _int(games if games is not None else "100", "--games", 1),
            _int(seed if seed is not None else "0", "--seed", 0))
    except ExperimentError as err:
        fail(str(err))


@app.command("run")
def run_cmd(
    experiment: Optional[Path] = typer.Argument(None, metavar="[EXPERIMENT.toml]",
                                                help="An experiment file (docs/experiments.md); "
                                                     "or give the factors as options."),
    scenario: Optional[str] = typer.Option(None, "--scenario", help="Scenario id. [default: first-reconnaissance]"),
    hero: Optional[list[str]] = typer.Option(None, "--hero", help="Hero id, several (repeat or "
                                             "comma-separate) or 'all'. [default: arythea]"),
    policy: Optional[list[str]] = typer.Option(None, "--policy", metavar="NAME[:k=v,...]",
                                               help="A policy with parameters; repeat for more arms "
                                                    "(with --players N: once for all seats or once per seat). "
                                                    "[default: random]"),
    players: Optional[str] = typer.Option(None, "--players", help="Heroes per game: 1 (solo) or 2-4 "
                                          "(First Reconnaissance, 17.3.1): then --hero a,b,c names one hero "
                                          "per seat (repeat for more seat arms; 'all': every set of N "
                                          "heroes). [default: 1]"),
    lost_legion: bool = typer.Option(False, "--lost-legion", help="Add The Lost Legion components."),
    content: Optional[Path] = CONTENT_OPTION,
    games: Optional[str] = typer.Option(None, "--games", help="Games per cell (also overrides the file's). [default: 100]"),
    seed: Optional[str] = typer.Option(None, "--seed", help="Root seed (also overrides the file's). [default: 0]"),
    jobs: Optional[str] = typer.Option(None, "--jobs", help="Worker processes, capped at the CPUs "
                                       "available. [default: all CPUs available]"),
    out: Optional[Path] = typer.Option(None, "--out", help="Results folder. [default: results/NAME]"),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar or notes; only the summary."),
    resume: bool = typer.Option(False, "--resume", help="Complete the run stored in --out (its own "
                                "configuration when no experiment is given)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace results of a different experiment in --out."),
    backend: str = typer.Option("loky", "--backend", help="loky (processes on this machine) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="Dask scheduler (tcp://host:8786); default: a local cluster."),
    chunk_size: Optional[str] = typer.Option(None, "--chunk-size", help="Games per chunk (a task, a stored file)."),
) -> None:
    """Play an experiment on all cores (or a Dask cluster) into a results folder: games.parquet,
    rounds.parquet, manifest.json; then print the per-cell summary.

    Rerunning the same experiment into the same folder runs only the missing chunks (resume);
    Ctrl-C stops it keeping whole chunks (exit status 130).  Bad input: exit status 2.
    """
    from .pool import cpus_available, kill_loky_workers, start_loky_workers

    if backend not in ("loky", "dask"):
        fail(f"--backend: unknown backend {backend!r}; choose loky or dask")
    if scheduler and backend != "dask":
        fail("--scheduler needs --backend dask")
    available = cpus_available()
    n_jobs = _int(jobs, "--jobs", 1) if jobs is not None else available
    # the loky workers start now, while this process imports the engine and loads the content
    # (their start-up overlaps this process's instead of following it); a run that stops
    # before it needs them, or has nothing to play, stops them
    early = backend == "loky" and min(n_jobs, available) > 1 and not resume \
        and not (out is not None and (out / "games.parquet").exists())
    if early:
        start_loky_workers(min(n_jobs, available))
    try:
        _run_cmd(experiment, scenario, hero, policy, lost_legion, content, games, seed, players, n_jobs, available,
                 out, quiet, resume, overwrite, backend, scheduler, chunk_size)
    finally:
        if early:
            kill_loky_workers()


def _run_cmd(experiment, scenario, hero, policy, lost_legion, content, games, seed, players, n_jobs, available,
             out, quiet, resume, overwrite, backend, scheduler, chunk_size) -> None:
    """The body of ``mksim run`` (:func:`run_cmd`) once the workers are starting."""
    import time
    from .experiments import ExperimentError, experiment_from_config
    from .results import ResultsError, read_manifest
    from .runner import RunError, RunInterrupted, run_experiment

    if resume and experiment is None and not any((scenario, hero, policy, lost_legion, content, players)):
        if out is None:
            fail("--resume needs --out DIR (or the experiment)")
        try:
            m = read_manifest(out) if out.is_dir() else None
        except ResultsError as err:
            fail(str(err))
        if m is None:
            fail(f"--resume: {out} holds no run to resume")
        try:
            exp = experiment_from_config(m["experiment"], str(out / "manifest.json"))
        except ExperimentError as err:
            fail(str(err))
        if games is not None or seed is not None:
            fail("--resume DIR continues the stored run; leave out --games and --seed")
    else:
        exp = _experiment_from_cli(experiment, scenario, hero, policy, lost_legion, content, games, seed, players)
    if n_jobs > available:
        if not quiet:
            typer.echo(f"note: --jobs {n_jobs} capped at {available} (the CPUs available to this process)", err=True)
        n_jobs = available
    chunk = _int(chunk_size, "--chunk-size", 1) if chunk_size is not None else None
    out = out if out is not None else Path("results") / exp.name
    # a precision run grows by rounds up to its cap: the bar counts towards the cap
    total = (exp.precision["max_games"] if exp.precision else exp.games) * len(exp.cells)
    progress = None
    task = None
    if not quiet and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
    t0 = time.perf_counter()
    state = {"start_done": 0}

    def on_start(done, total_):
        state["start_done"] = done
        if done and not quiet:
            typer.echo(f"resuming: {done} of {total_} games already stored in {out}", err=True)
        if progress is not None:
            nonlocal task
            progress.start()
            task = progress.add_task(exp.name, total=total_, completed=done, rate="-")

    def on_chunk(rec, done, total_):
        if progress is not None:
            rate = (done - state["start_done"]) / max(time.perf_counter() - t0, 1e-9)
            progress.update(task, completed=done, rate=f"{rate:.0f}")

    try:
        manifest = run_experiment(exp, out, jobs=n_jobs, chunk_size=chunk, backend=backend,
                                  scheduler=scheduler, resume=resume, overwrite=overwrite,
                                  on_chunk=on_chunk, on_start=on_start)
    except RunInterrupted as err:
        if progress is not None:
            progress.stop()
        typer.echo(f"interrupted: {err.stored} of {err.total} games stored in {out} (whole chunks); "
                   f"resume with: mksim run --resume --out {out}", err=True)
        raise typer.Exit(code=EXIT_INTERRUPTED)
    except RunError as err:
        if progress is not None:
            progress.stop()
        fail(str(err))
    finally:
        if progress is not None:
            progress.stop()
    wall = time.perf_counter() - t0
    total = manifest["games_total"]
    played = total - state["start_done"]
    games_t = out
    typer.echo(f"{exp.name}: {exp.scenario.replace('_', '-')}, {len(exp.cells)} cells x "
               f"{manifest['experiment']['games']} games, seed {exp.seed}")
    for line in _summary_lines(manifest, games_t):
        typer.echo(line)
    _precision_line(manifest)
    workers = "1 process" if n_jobs == 1 and backend == "loky" else f"{n_jobs} workers ({backend})"
    if played == 0:
        typer.echo(f"all {total} games were already stored in {out}/ (nothing to run)")
        return
    rate = f", {played / wall:.0f} games/s" if wall > 0 else ""
    typer.echo(f"{played} games played in {wall:.1f} s{rate} on {workers}; results in {out}/ "
               f"(games.parquet, rounds.parquet, manifest.json)")


def _open_results(directory: Path):
    from .results import ResultsError, read_manifest
    try:
        m = read_manifest(directory) if directory.is_dir() else None
    except ResultsError as err:
        fail(str(err))
    if m is None:
        fail(f"{directory}: no mksim results here (no manifest.json)")
    return m


@app.command("results")
def results_cmd(directory: Path = typer.Argument(..., metavar="DIR", help="A results folder of mksim run.")) -> None:
    """Print the manifest summary and the per-cell table of a results folder (from the stored files only)."""
    m = _open_results(directory)
    e = m["experiment"]
    run = m["run"]
    mach = m.get("machine", {})
    typer.echo(f"experiment: {e['name']} ({m.get('source', '-')}), scenario {e['scenario'].replace('_', '-')}, "
               f"{len(e['cells'])} cells x {e['games']} games, root seed {m['root_seed']}")
    typer.echo(f"status: {run['status']}; started {run['started']}, ended {run.get('ended') or '-'}; "
               f"{len(m['chunks'])} of {run['n_chunks']} chunks of {run['chunk_size']} games")
    typer.echo(f"mksim {m['mksim']}, commit {m.get('git_commit') or '-'}; fingerprint {m['fingerprint'][:16]}; "
               f"content {', '.join(f'{k} {v[:12]}' for k, v in m['content_hashes'].items())}")
    typer.echo(f"machine: {mach.get('cpus_available')} of {mach.get('cpu_count')} CPUs, Python {mach.get('python')}, "
               f"{mach.get('platform')}")
    from .results import chunk_files
    if not (directory / "games.parquet").exists() and not chunk_files(directory):
        typer.echo("no games stored yet")
        return
    for line in _summary_lines(m, directory):
        typer.echo(line)


@app.command("replay")
def replay_cmd(
    directory: Path = typer.Argument(..., metavar="DIR", help="A results folder of mksim run."),
    game: str = typer.Option(..., "--game", help="Game index K (0, 1, ...)."),
    cell: str = typer.Option("0", "--cell", help="Cell index C (mksim results DIR lists them)."),
    log: bool = typer.Option(False, "--log", help="Print the game turn by turn."),
) -> None:
    """Re-play one stored game from its configuration and seed, check that it reproduces the
    stored row exactly (exit 0) or name the first differing field (exit 1)."""
    from .experiments import ExperimentError, experiment_from_config
    from .results import TIMING_COLUMNS, chunk_tables, read_games
    from .runner import cell_config, play_cell_chunk, play_logged
    m = _open_results(directory)
    try:
        exp = experiment_from_config(m["experiment"], str(directory / "manifest.json"))
    except ExperimentError as err:
        fail(str(err))
    k = _int(game, "--game", 0)
    c = _int(cell, "--cell", 0)
    if c >= len(exp.cells):
        fail(f"--cell {c}: {directory} has cells 0..{len(exp.cells) - 1}")
    if k >= exp.games:
        fail(f"--game {k}: cell {c} has games 0..{exp.games - 1}")
    stored = read_games(directory, filters=[("cell", "=", c), ("game_index", "=", k)])
    if stored is None or stored.num_rows == 0:
        fail(f"--game {k} --cell {c}: not stored in {directory} (the run is not complete: resume it first)")
    the_cell = exp.cells[c]
    if log:
        g = cell_config(the_cell).game()
        from ._access import set_forced_tactics
        from .policies import get_policy
        state = g.new_state(exp.seed, k)
        if the_cell.forced:
            set_forced_tactics(state.core, {r: g.tables.tactic_ids.index(t) for r, t in the_cell.forced})
        if the_cell.forbid:
            from ._access import set_restrictions
            from .runner import restriction_indices
            set_restrictions(state.core, **restriction_indices(the_cell, g.tables))
        typer.echo(f"# {g.title} -- cell {c} ({the_cell.label}), seed {exp.seed} game {k}")
        if the_cell.seats:
            from .runner import cell_policies
            pols = cell_policies(the_cell)
        else:
            pols = get_policy(the_cell.policy, **dict(the_cell.params))
        play_logged(g, exp.seed, k, pols, echo=typer.echo, max_steps=the_cell.max_steps, state=state)
    games_a, rounds_a, messages, _ = play_cell_chunk(the_cell, exp.seed, k, k + 1)
    g = cell_config(the_cell).game()
    replayed, _ = chunk_tables(exp, the_cell, games_a, rounds_a, messages, list(g.tables.tactic_ids), g.rounds)
    stored_rows = sorted(stored.to_pylist(), key=lambda r: r["player"])
    replayed_rows = replayed.to_pylist()
    if len(stored_rows) != len(replayed_rows):
        typer.echo(f"replay: game {k} of cell {c} ({the_cell.label}) differs from the stored rows: "
                   f"{len(stored_rows)} stored, {len(replayed_rows)} replayed")
        raise typer.Exit(code=1)
    fields = [f for f in stored_rows[0] if f not in TIMING_COLUMNS]
    for a, b in zip(stored_rows, replayed_rows):
        for f in fields:
            if a.get(f) != b.get(f):
                seat = f" seat {a['player']}" if the_cell.seats else ""
                typer.echo(f"replay: game {k} of cell {c} ({the_cell.label}){seat} differs from the stored row: "
                           f"first differing field {f!r}: stored {a.get(f)!r}, replayed {b.get(f)!r}")
                raise typer.Exit(code=1)
    if the_cell.seats:
        seats = "; ".join(f"{b['hero']} Fame {b['fame']}, score {b['score']}{' (wins)' if b['won'] else ''}"
                          for b in replayed_rows)
        typer.echo(f"replay: game {k} of cell {c} ({the_cell.label}) reproduces the {len(replayed_rows)} stored "
                   f"rows exactly, one per seat ({len(fields)} fields each; {seats}; "
                   f"{replayed_rows[0]['termination']})")
        return
    b = replayed_rows[0]
    typer.echo(f"replay: game {k} of cell {c} ({the_cell.label}) reproduces the stored row exactly "
               f"({len(fields)} fields; Fame {b['fame']}, score {b['score']}, {b['termination']})")


# ---------------------------------------------------------------------------------------
# reports
# ---------------------------------------------------------------------------------------

METRIC_OPTION = typer.Option(None, "--metric", help="A metric to compare (repeatable): fame, score, "
                             "win (Solo Conquest; a seat's win with several heroes) or any numeric games column. "
                             "[default: fame, score; fame, score, win with several heroes; "
                             "score, win in Solo Conquest]")


def _write_report(directory: Path, metric, correction: str) -> None:
    from .report import ReportError, write_report
    try:
        md, page, n_fig = write_report(directory, metric, correction)
    except ReportError as err:
        fail(str(err))
    typer.echo(f"report: {md} and {page} ({n_fig} figures in {directory / 'figures'}, PNG and SVG)")


@app.command("report")
def report_cmd(
    directory: Path = typer.Argument(..., metavar="DIR", help="A complete results folder of mksim run."),
    metric: Optional[list[str]] = METRIC_OPTION,
    correction: str = typer.Option("holm", "--correction", help="Multiple-testing correction: holm or bh."),
) -> None:
    """Write DIR/report.md and DIR/report.html (self-contained) with figures, from the stored
    results only: every figure with n and a 95% interval, paired comparisons on shared seeds."""
    _write_report(directory, metric, correction)


@app.command("experiment")
def experiment_cmd(
    experiment: Path = typer.Argument(..., metavar="EXPERIMENT.toml", help="An experiment file (docs/experiments.md)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Results folder. [default: results/NAME]"),
    jobs: Optional[str] = typer.Option(None, "--jobs", help="Worker processes. [default: all CPUs available]"),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar or notes; only the summary."),
    metric: Optional[list[str]] = METRIC_OPTION,
    correction: str = typer.Option("holm", "--correction", help="Multiple-testing correction: holm or bh."),
    backend: str = typer.Option("loky", "--backend", help="loky (processes on this machine) or dask."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS", help="Dask scheduler address."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace results of a different experiment in --out."),
) -> None:
    """Run an experiment (resuming what is already stored) and write its report in one go."""
    from .experiments import ExperimentError, load_experiment
    if correction not in ("holm", "bh"):
        fail(f"--correction: unknown correction {correction!r}; choose holm or bh")
    try:
        exp = load_experiment(experiment)
    except ExperimentError as err:
        fail(str(err))
    out = out if out is not None else Path("results") / exp.name
    run_cmd(experiment=experiment, scenario=None, hero=None, policy=None, players=None, lost_legion=False, content=None,
            games=None, seed=None, jobs=jobs, out=out, quiet=quiet, resume=False, overwrite=overwrite,
            backend=backend, scheduler=scheduler, chunk_size=None)
    _write_report(out, metric, correction)


@app.command("check")
def check_cmd(
    experiment: Path = typer.Argument(..., metavar="EXPERIMENT.toml", help="An experiment file (docs/experiments.md)."),
    baseline: Optional[Path] = typer.Option(None, "--baseline", metavar="FILE", help="Compare with this baseline."),
    save_baseline: Optional[Path] = typer.Option(None, "--save-baseline", metavar="FILE",
                                                 help="Write the run's baseline to FILE (and compare nothing)."),
    tolerance: Optional[list[str]] = typer.Option(None, "--tolerance", metavar="METRIC=VALUE",
                                                  help="Absolute tolerance on a metric's mean per game (repeatable); "
                                                       "defaults: fame=0.5 score=1 win=0.02 level=0.2 combats=0.3 "
                                                       "wounds_taken=0.5 units_recruited=0.2 rounds=0.1."),
    out: Optional[Path] = typer.Option(None, "--out", help="Keep the run's results here [default: a temporary folder]."),
    jobs: Optional[str] = typer.Option(None, "--jobs", help="Worker processes. [default: all CPUs available]"),
) -> None:
    """Regression gate: re-run an experiment and compare every metric of every cell with a
    stored baseline on the same seeds (paired).  Exit 1 when a metric moved beyond its
    tolerance with statistical significance, 0 otherwise; bad input exit 2."""
    import shutil
    import tempfile
    from .check import CheckError, check, load_baseline, parse_tolerances
    from .check import save_baseline as write_baseline
    from .experiments import ExperimentError, load_experiment
    from .report import ReportError, load_results
    from .runner import RunError, RunInterrupted, cpus_available, run_experiment
    if (baseline is None) == (save_baseline is None):
        fail("give --baseline FILE (compare) or --save-baseline FILE (write one)")
    try:
        tol = parse_tolerances(tolerance)
        base = load_baseline(baseline) if baseline is not None else None
        exp = load_experiment(experiment)
    except (CheckError, ExperimentError) as err:
        fail(str(err))
    n_jobs = min(_int(jobs, "--jobs", 1), cpus_available()) if jobs is not None else cpus_available()
    tmp = None
    if out is None:
        tmp = Path(tempfile.mkdtemp(prefix="mksim-check-"))
        out = tmp / exp.name
    try:
        try:
            run_experiment(exp, out, jobs=n_jobs)
            res = load_results(out)
        except RunInterrupted as err:
            typer.echo(f"interrupted: {err.stored} of {err.total} games played; nothing compared", err=True)
            raise typer.Exit(code=EXIT_INTERRUPTED)
        except (RunError, ReportError) as err:
            fail(str(err))
        if save_baseline is not None:
            try:
                write_baseline(res, save_baseline)
            except CheckError as err:
                fail(str(err))
            typer.echo(f"baseline: {save_baseline} ({len(res.cells)} cells x {exp.games} games)")
            return
        try:
            ok, rows = check(res, base, tol, str(baseline))
        except CheckError as err:
            fail(str(err))
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    table = [("cell", "metric", "baseline", "now", "now - baseline [95% CI]", "p (holm)", "tolerance", "verdict")]
    for r in rows:
        dg = 3 if r["metric"] == "win" else 2
        table.append((r["cell"], r["metric"], f"{r['baseline']:.{dg}f}", f"{r['now']:.{dg}f}", r["diff"].fmt(dg),
                      f"{r['p_adj']:.3g}", f"{tol[r['metric']]:g}", r["verdict"]))
    widths = [max(len(str(t[i])) for t in table) for i in range(len(table[0]))]
    for t in table:
        typer.echo("  ".join(str(x).ljust(w) for x, w in zip(t, widths)).rstrip())
    changed = [r for r in rows if r["verdict"] == "CHANGED"]
    n = exp.games
    if changed:
        typer.echo(f"check: FAILED: {len(changed)} of {len(rows)} metrics moved beyond their tolerance "
                   f"(n = {n} paired games per cell)")
        raise typer.Exit(code=1)
    typer.echo(f"check: ok: no metric moved beyond its tolerance ({len(rows)} metrics, n = {n} paired games per cell)")


# ---------------------------------------------------------------------------------------
# policies
# ---------------------------------------------------------------------------------------

policies_app = typer.Typer(help="The policies that can play: built-ins and plug-ins.", no_args_is_help=True)
app.add_typer(policies_app, name="policies")


def policy_from_spec(spec: str):
    """A policy from a --policy spec, or one 'error:' line and exit 2."""
    from .policies import PolicyError, parse_policy_spec
    try:
        return parse_policy_spec(spec)
    except PolicyError as err:
        fail(str(err))


def _flags(meta: dict) -> str:
    words = []
    words.append("stochastic" if meta.get("stochastic") else "deterministic")
    if meta.get("sees_hidden"):
        words.append("SEES HIDDEN INFORMATION")
    if meta.get("fast_path"):
        words.append("C fast path")
    return ", ".join(words)


@policies_app.command("list")
def policies_list() -> None:
    """List the registered policies (built-ins, then entry-point plug-ins) with their flags."""
    from .policies import describe_policy, list_policies, policy_class
    for name in list_policies():
        d = describe_policy(policy_class(name))
        first = d["description"].split(". ")[0].rstrip(".")
        typer.echo(f"{name:22} {_flags(d['metadata']):42} {first}")


@policies_app.command("show")
def policies_show(name: str = typer.Argument(..., help="A policy name, or path/to/file.py:ClassName.")) -> None:
    """Show how a policy plays, its parameters (type, default) and its metadata."""
    import textwrap

    from .policies import PolicyError, describe_policy, policy_class
    from .policies.registry import _split_file_spec, load_policy_file
    try:
        f = _split_file_spec(name)
        cls = load_policy_file(f[0], f[1]) if f else policy_class(name)
    except PolicyError as err:
        fail(str(err))
    d = describe_policy(cls)
    typer.echo(f"{d['name'] or name}  ({d['class']})")
    typer.echo("")
    for line in textwrap.wrap(d["description"] or "(no description)", 88):
        typer.echo(f"  {line}")
    typer.echo("")
    typer.echo("parameters:" if d["parameters"] else "parameters: none")
    for p in d["parameters"]:
        default = "required" if p["required"] else f"default {p['default']!r}"
        typer.echo(f"  {p['name']:16} {p['type']:12} {default}" + (f"  -- {p['help']}" if p["help"] else ""))
    typer.echo("metadata:")
    for k, v in d["metadata"].items():
        typer.echo(f"  {k:16} {v}")


def main() -> None:
    """Console entry point."""
    try:
        app()
    except ContentError as err:  # any content problem not caught by a command
        typer.echo(f"error: {err}", err=True)
        sys.exit(2)
    finally:
        # the process ends now: the objects left need no cycle collection, and the collector's
        # passes over them at interpreter exit took ~0.6 s after a `mksim run` (0.15 s frozen,
        # at load ~8)
        import gc
        gc.freeze()
