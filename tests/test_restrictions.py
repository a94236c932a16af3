"""Restricted play (Jaffe et al. 2012; docs/experiments.md "Restricted play"): an experiment
arm forbids Deed cards, skills, Units or site kinds to the policy.  The engine leaves every
action using a forbidden thing out of the legal list (so it also refuses it), except where
nothing else would be left; taking a forbidden option then is counted in
``restriction_forced``."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from interaction_setup import Game
from mksim import results as store
from mksim._engine import Engine, encode
from mksim._access import STATS_FIELDS, STATS_MAX_ROUNDS, STATS_SITE_KINDS, fill_stats, set_restrictions
from mksim._rules import Rules
from mksim._combat import CombatTester
from mksim._state import GameCore
from mksim.cli import app
from mksim.content import SITE_IDS
from mksim.experiments import ExperimentError, load_experiment
from mksim.policies import get_policy
from mksim.runner import cell_config, play_logged, restriction_indices, run_experiment

PAY_NONE = 31
ROOT = Path(__file__).resolve().parents[1]
KIND_PLAY = encode("play", 0) >> 20
KIND_SIDEWAYS = encode("sideways", 0) >> 20


def card(tables, name):
    return list(tables.card_ids).index(name)


def unit(tables, name):
    return list(tables.unit_ids).index(name)


def site(name):
    return SITE_IDS.index(name)


def legal(g):
    return [int(a) for a in g.eng.legal_actions()]


def uses_hand_card(action, i):
    return action >> 20 in (KIND_PLAY, KIND_SIDEWAYS) and (action & 0x7F) == i


def restriction_forced(core):
    out = np.zeros(len(STATS_FIELDS), np.int32)
    fill_stats(core, 0, out, np.zeros(STATS_MAX_ROUNDS, np.int32), np.zeros(STATS_SITE_KINDS, np.int32))
    return int(out[STATS_FIELDS.index("restriction_forced")])


# -- engine: cards -----------------------------------------------------------------------------

def test_a_forbidden_card_is_not_listed_in_any_way_and_apply_refuses_it(content, tables):
    g = Game(content, tables, hand=["rage", "march"])
    rage_move = encode("sideways", 0)                  # Rage's one use out of combat (6.1.7)
    before = legal(g)
    assert rage_move in before
    set_restrictions(g.core, cards=[card(tables, "rage")])
    after = legal(g)
    assert not any(uses_hand_card(a, 0) for a in after)                 # basic, powered, sideways
    assert [a for a in before if not uses_hand_card(a, 0)] == after     # March and the rest stay
    state = g.core.to_dict()
    for code in (rage_move, encode("play", 0 | (PAY_NONE << 8) | (PAY_NONE << 13))):
        with pytest.raises(ValueError):
            g.eng.apply(code)
        assert g.core.to_dict() == state
    set_restrictions(g.core)                                            # lifted: listed again
    assert legal(g) == before


def concentration_asks(content, tables, hand):
    """Concentration powered (6.1.8, green token) played: it asks which Action card to play."""
    g = Game(content, tables, hand=hand)
    g.sc.set_mana_tokens([0, 0, 0, 1, 0, 0])
    g.play(0, powered=1, pay=3)
    return g


def test_concentration_cannot_play_a_forbidden_card(content, tables):
    g = concentration_asks(content, tables, ["concentration", "march", "stamina"])
    assert g.of_kind("choose") == ["choose(0)", "choose(1)"]         # March, Stamina
    set_restrictions(g.core, cards=[card(tables, "march")])
    assert g.of_kind("choose") == ["choose(1)"]
    with pytest.raises(ValueError):
        g.do("choose", 0)


def test_when_only_forbidden_options_remain_they_stay_and_are_counted(content, tables):
    """Concentration's only target is the forbidden March: leaving it out would leave the
    decision without an action, so the restriction gives way and the game goes on."""
    g = concentration_asks(content, tables, ["concentration", "march"])
    before = legal(g)
    assert g.of_kind("choose") == ["choose(0)"] and len(before) == 1
    set_restrictions(g.core, cards=[card(tables, "march")])
    assert legal(g) == before
    assert restriction_forced(g.core) == 0
    g.do("choose", 0)
    assert restriction_forced(g.core) == 1
    assert g.d["turn"]["move_points"] == 4 + 2                        # March powered + 2
    assert g.player["hand"] == []


# -- engine: units, skills, sites ---------------------------------------------------------------

def test_a_forbidden_unit_is_not_offered_for_recruitment_nor_activated(content, tables):
    g = Game(content, tables, site="village", hand=["promise", "promise"])
    g.ut.set_unit_offer(["peasants", "herbalists"])
    g.do("interact")
    g.play(0)
    g.play(0)
    assert g.of_kind("recruit") == ["recruit(offer=0, disband=-1)", "recruit(offer=1, disband=-1)"]
    set_restrictions(g.core, units=[unit(tables, "peasants")])
    assert g.of_kind("recruit") == ["recruit(offer=1, disband=-1)"]
    with pytest.raises(ValueError):
        g.recruit(0)
    h = Game(content, tables, hand=["march"])
    h.ut.set_unit(0, "peasants")
    assert h.of_kind("activate_unit")
    set_restrictions(h.core, units=[unit(tables, "peasants")])
    assert h.of_kind("activate_unit") == []


def test_a_forbidden_skill_is_not_used(content, tables):
    """8.2: Arythea's Dark Paths (Move 1, once a turn) is usable in the movement part."""
    g = Game(content, tables, hand=["march"])
    skills = list(tables.skill_ids)
    g.core.set_raw({"players": [{"skills": [skills.index("arythea_dark_paths")] + [-1] * 7}]})
    assert g.of_kind("use_skill") == ["use_skill(0)"]
    set_restrictions(g.core, skills=[skills.index("arythea_burning_power")])   # another skill
    assert g.of_kind("use_skill") == ["use_skill(0)"]
    set_restrictions(g.core, skills=[skills.index("arythea_dark_paths")])
    assert g.of_kind("use_skill") == []
    with pytest.raises(ValueError):
        g.do("use_skill", 0)


def test_a_forbidden_site_kind_is_not_interacted_with(content, tables):
    g = Game(content, tables, site="village", hand=["march"])
    assert "interact" in g.kinds()
    set_restrictions(g.core, sites=[site("village")])
    assert "interact" not in g.kinds()
    with pytest.raises(ValueError):
        g.do("interact")
    set_restrictions(g.core, sites=[site("monastery")])                # another kind: no effect
    assert "interact" in g.kinds()


def test_a_forbidden_site_kind_is_not_assaulted(content, tables):
    """9.4.1: moving into an unconquered keep is the assault; with keeps forbidden that move
    is not listed and refused (the keep of tests/test_sites_cities.py, next to hex 6)."""
    def at_hex_6():
        core = GameCore.new(tables, content, "solo_conquest", "arythea", 11)
        eng = Engine(core, tables, content, "solo_conquest")
        eng.apply(encode("tactic", content.ids("tactics").index("early_bird")))
        eng.apply(encode("regular_turn"))
        r = Rules(core)
        r.set_hex(10, site=content.ids("sites").index("keep"),
                  tokens=[CombatTester(core).token_for("swordsmen")], flags=0)
        r.set_move_points(2)
        eng.apply(encode("move", 5))                                    # portal -> hex 6
        r.set_move_points(10)
        return core, eng
    core, eng = at_hex_6()
    free = [int(a) for a in eng.legal_actions()]
    core_r, eng_r = at_hex_6()
    set_restrictions(core_r, sites=[site("keep")])
    restricted = [int(a) for a in eng_r.legal_actions()]
    [gone] = [a for a in free if a not in restricted]                   # exactly one move
    assert restricted == [a for a in free if a != gone] and gone >> 20 == encode("move", 0) >> 20
    with pytest.raises(ValueError):
        eng_r.apply(gone)
    eng.apply(gone)                                                     # unrestricted: the assault
    assert core.to_dict()["combat"]["active"]


# -- experiments -------------------------------------------------------------------------------

BASE = '''name = "r"
scenario = "first-reconnaissance"
games = 10
seed = 4

[factors]
heroes = ["tovak"]
policies = ["random"]
'''


def write(tmp_path, text):
    p = tmp_path / "exp.toml"
    p.write_text(BASE + text)
    return p


@pytest.mark.parametrize("text, where, what", [
    ('[[factors.restrictions]]\nname = "x"\nforbid = { cards = ["ragee"] }\n',
     "factors.restrictions[0].forbid.cards[0]", "unknown card 'ragee'"),
    ('[[factors.restrictions]]\nname = "x"\nforbid = { spells = ["rage"] }\n',
     "factors.restrictions[0].forbid", "unknown key 'spells'"),
    ('[[factors.restrictions]]\nname = "x"\nforbid = { units = "peasants" }\n',
     "factors.restrictions[0].forbid.units", "must be a list"),
    ('[[factors.restrictions]]\nname = "x"\nforbid = { sites = ["castle"] }\n',
     "factors.restrictions[0].forbid.sites[0]", "unknown site 'castle'"),
    ('[[factors.restrictions]]\nname = "x"\nforbid = { skills = ["nope"] }\n',
     "factors.restrictions[0].forbid.skills[0]", "unknown skill 'nope'"),
    ('[[factors.restrictions]]\nname = "none"\nforbid = { cards = ["rage"] }\n',
     "factors.restrictions[0]", "unrestricted reference"),
    ('[[factors.restrictions]]\nname = "a"\n[[factors.restrictions]]\nname = "a"\n',
     "factors.restrictions[1]", "given twice"),
    ('[[factors.restrictions]]\nforbid = {}\n', "factors.restrictions[0]", "needs name"),
])
def test_bad_restriction_arms_are_one_error_naming_file_and_key(tmp_path, text, where, what):
    p = write(tmp_path, text)
    with pytest.raises(ExperimentError) as err:
        load_experiment(p)
    msg = str(err.value)
    assert msg.startswith(f"{p}: {where}") and what in msg and "\n" not in msg
    r = CliRunner().invoke(app, ["run", str(p), "--out", str(tmp_path / "out"), "--quiet"])
    assert r.exit_code == 2 and "error:" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()


def test_restriction_arms_are_the_last_factor_and_absent_means_as_before(tmp_path):
    plain = load_experiment(write(tmp_path, ""))
    assert "restrictions" not in plain.factors
    assert not any("restriction_arm" in c.to_dict() for c in plain.cells)
    p = write(tmp_path, 'lost_legion = [false, true]\n[[factors.restrictions]]\nname = "none"\n'
                        '[[factors.restrictions]]\nname = "no-keeps"\nforbid = { sites = ["Keep"] }\n')
    exp = load_experiment(p)
    assert [c.label for c in exp.cells] == ["tovak | random", "tovak | random | no-keeps",
                                            "tovak | random | lost-legion",
                                            "tovak | random | lost-legion | no-keeps"]
    assert exp.cells[1].forbid == (("sites", ("keep",)),)
    assert exp.factors["restrictions"] == [{"name": "none", "forbid": {}},
                                           {"name": "no-keeps", "forbid": {"sites": ["keep"]}}]


NO_MARCH = '[[factors.restrictions]]\nname = "none"\n[[factors.restrictions]]\nname = "no-march"\n' \
           'forbid = { cards = ["march"] }\n'


@pytest.fixture(scope="module")
def no_march_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("restricted")
    p = d / "exp.toml"
    p.write_text(BASE + NO_MARCH)
    exp = load_experiment(p)
    run_experiment(exp, d / "j1", jobs=1, chunk_size=5)
    return exp, d


def table(path):
    t = pq.read_table(path / "games.parquet")
    return t.drop([c for c in store.TIMING_COLUMNS if c in t.column_names])


def logged_lines(exp, cell, k):
    g = cell_config(cell).game()
    state = g.new_state(exp.seed, k)
    if cell.forbid:
        set_restrictions(state.core, **restriction_indices(cell, g.tables))
    lines = []
    play_logged(g, exp.seed, k, get_policy(cell.policy, **dict(cell.params)), echo=lines.append,
                max_steps=cell.max_steps, state=state)
    return lines


def test_a_no_march_arm_is_stored_and_plays_no_march(no_march_run):
    exp, d = no_march_run
    games = table(d / "j1").to_pandas()
    assert sorted(games.restriction_arm.unique()) == ["no-march", "none"]
    assert (games[games.cell == 1].restriction_arm == "no-march").all()
    assert (games[games.cell == 0].restriction_arm == "none").all()
    manifest = store.read_manifest(d / "j1")
    assert manifest["experiment"]["cells"][1]["forbid"] == {"cards": ["march"]}
    march = re.compile(r"\bplay March\b")
    free_plays = restricted_plays = 0
    for k in range(3):                       # logs are slow (Python per decision): 3 games
        free_plays += sum(bool(march.search(x)) for x in logged_lines(exp, exp.cells[0], k))
        lines = logged_lines(exp, exp.cells[1], k)
        forced = int(games[(games.cell == 1) & (games.game_index == k)].restriction_forced.iloc[0])
        if forced == 0:
            restricted_plays += sum(bool(march.search(x)) for x in lines)
    assert free_plays > 0                    # the random policy does play March when it may
    assert restricted_plays == 0
    r = CliRunner().invoke(app, ["replay", str(d / "j1"), "--game", "4", "--cell", "1"])
    assert r.exit_code == 0 and "reproduces the stored row exactly" in r.output, r.output


def test_jobs_1_and_jobs_2_store_the_same_rows(no_march_run):
    exp, d = no_march_run
    run_experiment(exp, d / "j2", jobs=2, chunk_size=3)
    assert table(d / "j2").equals(table(d / "j1"))


def test_the_shipped_restricted_experiment_loads():
    exp = load_experiment(ROOT / "experiments" / "restricted.toml")
    assert [c.restriction_arm for c in exp.cells] == ["none", "no-rage-no-march", "no-keeps", "no-units-peasants"]
    assert exp.cells[1].forbid == (("cards", ("march", "rage")),)


def test_restricted_states_accept_exactly_what_they_list(content, tables):
    """Legal means accepted under restrictions too (tests/test_legality.py's contract): in
    mid-game states with a broad restriction, every listed action is accepted (on a clone)
    and every action the restriction took away is refused with the state unchanged."""
    from test_legality import mid_game_states
    forbid = dict(cards=[card(tables, c) for c in ("rage", "march", "swiftness", "improvisation")],
                  units=[unit(tables, u) for u in ("peasants", "foresters", "utem_guardsmen")],
                  sites=[site(s) for s in ("village", "keep", "monastery", "magical_glade")])
    n_removed = n_states = 0
    for state in mid_game_states(content, "solo-conquest", False, "random", 96, 2012):
        free = [int(a) for a in state.legal_actions()]
        set_restrictions(state.core, **forbid)
        listed = [int(a) for a in state.legal_actions()]
        assert listed and set(listed) <= set(free)
        before = state.core.state_bytes()
        for a in listed:
            c = state.clone()
            try:
                c.apply(a)
            except NotImplementedError:
                pass
        for a in sorted(set(free) - set(listed)):
            with pytest.raises(ValueError):
                state.apply(a)
            assert state.core.state_bytes() == before
            n_removed += 1
        set_restrictions(state.core)        # the sampler plays on unrestricted
        n_states += 1
    assert n_states == 96 and n_removed >= 20
