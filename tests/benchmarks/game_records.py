"""Solo game records for fixed seeds: the behaviour gate of the core restructuring (issue 12).

Plays games 0 .. N-1 of a fixed root seed for every configuration of the grid (both solo
scenarios x five heroes x random, eager and heuristic x The Lost Legion off / on) and records,
per game, a sha256 of the final state (``State.to_dict()``, canonical JSON) together with its
outcome numbers.  Two builds that play the same games give the same file; the first game
that differs is named.

    python tests/benchmarks/game_records.py --write records.json      # before a change
    python tests/benchmarks/game_records.py --compare records.json    # after it: exit 1 on a difference

Not a test (about 16 s at -O3, 30 s at -O0): the restructuring issue runs it before and after.
``tests/benchmarks/records/solo-d00ed83.json`` holds the records of d00ed83 (100 games per
configuration): ``--compare`` it after any change that must not change play; -O0 and -O3
builds give identical records.  ``solo-072a1d1.json`` (072a1d1) differs from it in exactly 890
games, all in the ten Solo Conquest heuristic configurations (82-96 of 100 each: issue 9's
``conquest_aggression`` 1.5 and ``conquest_heal`` 25); every First Reconnaissance, random and
eager record is identical, so after issue 9's change compare against solo-072a1d1.json.
``solo-e55a74b.json`` (e55a74b) differs from solo-072a1d1.json in exactly 819 games, all in the
ten Solo Conquest heuristic configurations (71-91 of 100 each: issue 9's ``mana_check`` -- a
card needing a mana that cannot be paid counts sideways in the fight plans --, ``block_pool``
-- a block begun is finished -- and ``attack_half`` -- an odd resisted attack pool's half
point counts); every First Reconnaissance, random and eager record is identical, so after
that change compare against solo-e55a74b.json.
``solo-4035713.json`` (4035713) differs from solo-e55a74b.json in exactly 737 games, all in the 20
heuristic configurations: First Reconnaissance 53-77 of 100 each (issue 9's three fight fixes
now act there too) and Solo Conquest 5-13 of 100 each (the movement planner's paths of equal
cost keep the fewest steps, and a turn's goals exclude the spaces already stood on, so
zero-cost steps cannot go back and forth); every random and eager record is identical, so
after that change compare against solo-4035713.json.
``solo-354f74c.json`` (354f74c) differs from solo-4035713.json in exactly 1,312 games, all in
the 20 heuristic configurations: First Reconnaissance 34-54 of 100 each and Solo Conquest 79-96
of 100 each (issue 9's ``unit_heal`` -- Healing points heal wounded Units, 12.3.3; in Solo
Conquest Healing is also bought for them -- and a Unit ability needing a mana that cannot be
paid no longer counts in the plans, 7.3.3); every random and eager record is identical, so
after that change compare against solo-354f74c.json.
``solo-ecf3ba6.json`` (ecf3ba6) differs from solo-354f74c.json in exactly 136 games, all in the
20 heuristic configurations (First Reconnaissance 1-12 of 100 each, Solo Conquest 1-15: issue
9's ``knockout_guard`` -- a Unit takes a blow that would knock the hero out, 11.7.8); every
random and eager record is identical, so after that change compare against solo-ecf3ba6.json.
Against the older files, each difference has a named cause:
``solo-9eafa2f.json`` (9eafa2f) differs from it in exactly 1,608 games, all in the 20 heuristic
configurations: issue 9's level-up skill choice (``skill_choice``; First Reconnaissance 58-76
of 100 each) and, in Solo Conquest only, the purchases valued and planned (``buy_value`` /
``buy_plan``; 90-97 of 100 each with both); on their branches ``skill_choice=0``, and
``buy_value=0,buy_plan=0``, each played the 9eafa2f heuristic games again.  Every random and eager record, and every record of the
terrain-family, third-move modifier, legal-list and Mind Steal merges, is identical.
``solo-1323b13.json`` (1323b13) differs from 9eafa2f in exactly 583 games, all in the ten Solo
Conquest heuristic configurations (52-71 of 100 each: issue 9's ``approach_weight``, a turn with
no goal in reach walks towards a site the hand could take); every First Reconnaissance, random
and eager record and every record of the session's modifier, legality and interactive-skill
moves is identical.
``solo-f966b16.json`` (f966b16, issue 12's start but for issue 9's Solo Conquest city
planning, which ``solo-f7be297.json`` predates) differs from it in exactly
- the ten Solo Conquest heuristic configurations (issue 9's build-up weights conquest_heal /
  conquest_recruit: 98-99 of 100 games each);
- 10 First Reconnaissance heuristic games (14.3.2 / 14.3.3 now also in solo: a round that
  ends during the last turns ends the game, where a new round used to be dealt);
- 5 eager games whose final state differs only in ``stats.cards_gained`` (Learning,
  Training, Blood of Ancients, Magic Talent and Book of Wisdom are now counted).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mksim.runner import GameConfig, _play_state, _policy  # noqa: E402
from mksim.fixtures import MOD_KINDS  # noqa: E402
from mksim.effects import TERRAINS  # noqa: E402
from mksim._state import PHASE_NAMES  # noqa: E402

SCENARIOS = ("first-reconnaissance", "solo-conquest")
HEROES = ("arythea", "goldyx", "norowas", "tovak", "wolfhawk")
POLICIES = ("random", "eager", "heuristic")


#: Random streams of a solo game (issue 12 added one Deed-shuffle stream per further seat,
#: ``deeds_1`` .. ``deeds_3``, which a solo game never draws from): the digest covers these.
SOLO_STREAMS = 7


#: Issue 12 moved these per-card TurnState fields into the generic modifier array
#: ``turn.mods`` (kind index in mksim.fixtures.MOD_KINDS -> the field it replaced, whose value
#: was the sum of the live modifiers of that kind).  The digest is taken of the state as the
#: records before the move wrote it: each field put back with that value, ``mods`` /
#: ``n_mods`` left out, so that only a change of play changes a digest.  A live modifier of a
#: kind not listed here stays in the digest (no record before the move could match it).
#: (kind name, arg or None = any) -> field (by name: the kinds' numbers may change);
#: Mountain Lore's kind has one field per terrain (arg = terrain + 1: hills 1, mountain 7).
_LEGACY = {("ignore_site_fort", None): "ignore_site_fort", ("unit_attack_block", None): "heat_bonus",
           ("recruit_discount", None): "charm_discount", ("explore_discount", None): "explore_discount",
           ("blocked_armor_one", None): "disease_armor",
           ("hand_limit_ends_in", 1 + 1): "lore_hills", ("hand_limit_ends_in", 7 + 1): "lore_mountains",
           ("ignore_wounds", None): "ignore_wounds", ("no_unit_damage", None): "no_unit_damage",
           ("no_source_dice", None): "no_source_dice", ("no_recruit", None): "no_recruit",
           ("dice_any_basic", None): "dice_any_basic", ("crystal_return", None): "crystal_return",
           ("space_bending", None): "space_bending", ("protection", None): "protection",
           ("reveal_distance", None): "reveal_distance", ("explore_range", None): "explore_range",
           ("draw_per_heal", None): "draw_per_heal", ("cure", None): "cure_draw",
           ("attacks_coldfire", None): "attacks_coldfire", ("attacks_siege", None): "attacks_siege",
           ("sword_fame", None): "sword_fame", ("dodge_attack", None): "dodge_attack",
           # the next-card / used-up / phase-long bonuses, same rule
           ("card_bonus", None): "concentration", ("move_bonus", None): "move_bonus",
           ("first_attack_block", 1): "ambush_attack", ("first_attack_block", 2): "ambush_block",
           ("attack_card_bonus", None): "deadly_aim", ("unit_ability_bonus", None): "leadership_value",
           ("per_recruit", 1): "heroic_rep", ("per_recruit", 2): "heroic_fame",
           ("phase_defeat_fame", None): "bow_fame", ("block_fire_attack", 1): "burning_pending",
           ("block_fire_attack", 2): "burning_armed", ("block_destroy", None): "exploding_pending",
           ("weather_own", None): "prayer_delta",
           # the third move (turn / combat-long effects of particular cards)
           ("unit_glory", 1): "glory_armor", ("unit_glory", 2): "glory_all", ("unit_glory", 3): "glory_fame",
           ("sword_double", None): "sword_double", ("bow_powered", None): "bow_powered",
           ("learning", None): "learning_cost", ("chivalry", 1): "chivalry_rep", ("chivalry", 2): "chivalry_fame",
           # the fourth move: the Block pool's own effects and Possess (combat-long)
           ("icon_block", None): "icon_block", ("swift_strip", None): "swift_strip",
           ("block_armor", None): "block_armor", ("block_armor_excess", None): "block_armor_excess",
           ("possessed", None): "possess_slot"}
LEGACY_MOD_FIELDS = {(MOD_KINDS.index(name), arg): field for (name, arg), field in _LEGACY.items()}
#: kinds that were one bit field: kind -> (field, {arg: bit}); the field is the OR of the
#: bits of its live modifiers (mana colours red 0 .. gold 4, black 5; elements physical 0,
#: fire 1, ice 2; arg = that + 1).
LEGACY_MOD_BITS = {MOD_KINDS.index("mana_anytime"): ("mana_anytime", {4 + 1: 1, 5 + 1: 2}),
                   MOD_KINDS.index("endless_mana"): ("endless_mana", {c + 1: 1 << c for c in range(6)}),
                   MOD_KINDS.index("influence_block"): ("influence_block", {e + 1: 1 << e for e in range(3)}),
                   # Shocktroops: one entry per giver, arg = its Unit slot + 1 (8: Call to Arms)
                   MOD_KINDS.index("other_units_attack"): ("attack_bonus_givers", {s + 1: 1 << s for s in range(8)})}
_K = MOD_KINDS.index
#: Fields that were not a sum of values: field -> (kind, how): "flag" 1 if one of that kind
#: and arg lives (Tirelessness powered's every-card flag: arg 1), "arg" the live one's arg
#: (Leadership's ability kind), "phase" the state's phase while one lives (Deadly Aim's
#: phase: its modifier lasts that phase), "value" the live one's value (Shocktroops' bonus: the
#: same for each giver).
LEGACY_MOD_DERIVED = {"move_bonus_all": ((_K("move_bonus"), 1), "flag"),
                      "leadership_kind": ((_K("unit_ability_bonus"), None), "arg"),
                      "deadly_aim_phase": ((_K("attack_card_bonus"), None), "phase"),
                      "bow_phase": ((_K("phase_defeat_fame"), None), "phase"),
                      "prayer_floor": ((_K("weather_own"), None), "arg"),
                      "unit_attack_bonus": ((_K("other_units_attack"), None), "value"),
                      "learning_to_hand": ((_K("learning"), 2), "flag"),
                      "icon_block_arcane": ((_K("icon_block"), 2), "flag")}
#: Fields that were one number per element (physical 0, fire 1, ice 2, Cold Fire 3): kind ->
#: field, [the sum of the live entries' values with arg = element + 1 for each element].
LEGACY_MOD_ARRAYS = {_K("swift_block"): "swift_block", _K("possess_attack"): "possess_attack"}
#: Fields put back as 0 (their old value cannot be rebuilt from an entry): Wings of Night's
#: entry holds the next target's Move and the step, not the count and the first price; a state
#: with a live one keeps its modifiers in the digest (no record before the move could match).
LEGACY_ZERO = ("wings_targets", "wings_first", "wings_step")
#: Ice Shield / Shield Bash's card colour (11.4.2) is the arg - 1 of the Block pool's Armor
#: entries; with none live the old field held 0 after the turn's start and -1 once a Block pool
#: had been cleared in the turn (a block committed, a combat phase ended), which the state no
#: longer tells: the digest is then taken with each of the two (digests(), --compare).
_BLOCK_COLOUR_KINDS = (_K("block_armor"), _K("block_armor_excess"))
#: The terrain family (one field per terrain before the move; entries with arg = terrain + 1,
#: arg 0 = every terrain): kind -> (field, how): "delta" {terrain: sum of the changes} (zeros
#: left out, as format 1 wrote it), "floor" the highest per terrain, "set" the lowest set
#: cost + 1 per terrain (0 = none), "bits" a bit per terrain.
LEGACY_MOD_TERRAIN = {_K("terrain_delta"): ("terrain_delta", "delta"), _K("terrain_floor"): ("terrain_floor", "floor"),
                      _K("terrain_set"): ("terrain_set", "set"), _K("terrain_open"): ("terrain_open", "bits"),
                      _K("terrain_safe"): ("terrain_safe", "bits"), _K("terrain_closed"): ("terrain_closed", "bits")}


def _legacy_terrain(live: list, kind: int, how: str):
    per = [[m["value"] for m in live if m["kind"] == kind and m["arg"] in (0, t + 1)] for t in range(len(TERRAINS))]
    if how == "delta":
        return {TERRAINS[t]: sum(v) for t, v in enumerate(per) if sum(v)}
    if how == "floor":
        return [max(v, default=0) for v in per]
    if how == "set":
        return [min(v) + 1 if v else 0 for v in per]
    return sum(1 << t for t, v in enumerate(per) if v)


def legacy_turn(turn: dict, phase=None, block_fx_colour: int = 0) -> dict:
    """``turn`` with the modifier array written as the fields it replaced (see above)."""
    t = dict(turn)
    live = t["mods"][:t["n_mods"]]
    for (kind, arg), field in LEGACY_MOD_FIELDS.items():
        t[field] = sum(m["value"] for m in live if m["kind"] == kind and arg in (None, m["arg"]))
    for kind, (field, bits) in LEGACY_MOD_BITS.items():
        t[field] = 0
        for m in live:
            if m["kind"] == kind:
                t[field] |= bits[m["arg"]]
    for field, ((kind, arg), how) in LEGACY_MOD_DERIVED.items():
        ms = [m for m in live if m["kind"] == kind and arg in (None, m["arg"])]
        t[field] = 0 if not ms else 1 if how == "flag" else ms[0]["arg"] if how == "arg" \
            else ms[0]["value"] if how == "value" else phase
    for kind, (field, how) in LEGACY_MOD_TERRAIN.items():
        t[field] = _legacy_terrain(live, kind, how)
    for kind, field in LEGACY_MOD_ARRAYS.items():
        t[field] = [sum(m["value"] for m in live if m["kind"] == kind and m["arg"] == e + 1) for e in range(4)]
    for field in LEGACY_ZERO:
        t[field] = 0
    colours = [m["arg"] - 1 for m in live if m["kind"] in _BLOCK_COLOUR_KINDS]
    t["block_fx_colour"] = colours[-1] if colours else block_fx_colour
    t.pop("mod_live", None)                      # derived from the entries (the live-kinds mask)
    if all((m["kind"], None) in LEGACY_MOD_FIELDS or (m["kind"], m["arg"]) in LEGACY_MOD_FIELDS
           or m["kind"] in LEGACY_MOD_BITS or m["kind"] in LEGACY_MOD_TERRAIN
           or m["kind"] in LEGACY_MOD_ARRAYS for m in live):
        del t["mods"], t["n_mods"]
    return t


#: Player fields added after the records were written, left out of the digest while they
#: hold the value every solo game keeps (Mind Steal's ``cards_taken``: no other hero to take
#: a card from), so that only a change of play changes a digest.
LATER_PLAYER_FIELDS = {"cards_taken": 0}


def digest(d: dict, block_fx_colour: int = 0) -> str:
    d = dict(d)
    if isinstance(d.get("rng"), list):
        d["rng"] = d["rng"][:SOLO_STREAMS]
    if isinstance(d.get("players"), list):
        d["players"] = [{k: v for k, v in p.items() if not (k in LATER_PLAYER_FIELDS and v == LATER_PLAYER_FIELDS[k])}
                        for p in d["players"]]
    if "mods" in d.get("turn", {}):
        ph = d.get("phase")
        d["turn"] = legacy_turn(d["turn"], PHASE_NAMES.index(ph) if isinstance(ph, str) else ph, block_fx_colour)
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()[:24]


def digests(d: dict) -> list:
    """The digests ``d``'s old view may have had: :func:`digest`, and with no Block-pool Armor
    entry live also the one with ``block_fx_colour`` -1 (see _BLOCK_COLOUR_KINDS)."""
    out = [digest(d)]
    if "mods" in d.get("turn", {}):
        t = d["turn"]
        if not any(m["kind"] in _BLOCK_COLOUR_KINDS for m in t["mods"][:t["n_mods"]]):
            out.append(digest(d, -1))
    return out


def record(games: int, seed: int, scenarios=SCENARIOS, heroes=HEROES, policies=POLICIES, alts=None) -> dict:
    """The rows per configuration; ``alts``, a dict, gets each row's other acceptable forms
    (:func:`digests`) under the same key, for --compare."""
    out = {}
    for sc in scenarios:
        for hero in heroes:
            for ll in (False, True):
                config = GameConfig(sc, hero, lost_legion=ll)
                for pol_name in policies:
                    pol = _policy(pol_name)
                    key = f"{sc}/{hero}/{pol_name}/{'ll' if ll else 'base'}"
                    rows = []
                    for g in range(games):
                        state, error, message = _play_state(config, seed, g, pol)
                        d = state.to_dict(format=1)   # format 1: the digests stay comparable with records written before format 2
                        forms = [f"{h} err={error} steps={d['steps']} round={d['round']}" for h in digests(d)]
                        rows.append(forms[0])
                        if alts is not None:
                            alts.setdefault(key, []).append(set(forms))
                    out[key] = rows
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per configuration [20]")
    ap.add_argument("--seed", type=int, default=20261201, help="root seed [20261201]")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", type=Path, metavar="FILE")
    g.add_argument("--compare", type=Path, metavar="FILE")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    if a.compare:
        old = json.loads(a.compare.read_text())
        games, seed = old["games"], old["seed"]
    else:
        games, seed = a.games, a.seed
    alts: dict = {}
    rec = record(games, seed, alts=alts)
    n = sum(len(v) for v in rec.values())
    if a.write:
        a.write.write_text(json.dumps({"games": games, "seed": seed, "records": rec}, indent=0))
        print(f"wrote {n} game records ({len(rec)} configurations x {games} games, seed {seed}) "
              f"to {a.write} in {time.perf_counter() - t0:.0f} s")
        return 0
    diffs = [(k, i) for k, rows in rec.items() for i, (x, y) in enumerate(zip(rows, old["records"].get(k, [])))
             if y not in alts[k][i]]
    missing = sorted(set(old["records"]) ^ set(rec))
    if missing:
        print(f"configurations differ: {missing}")
        return 1
    if diffs:
        k, i = diffs[0]
        print(f"{len(diffs)} of {n} games differ; first: {k} game {i}: recorded {old['records'][k][i]}, "
              f"now {rec[k][i]}")
        return 1
    print(f"all {n} game records identical ({len(rec)} configurations x {games} games, seed {seed}) "
          f"in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
