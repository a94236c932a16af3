"""Interactive skills between heroes (8.2.2; issue 12): in First Reconnaissance for several
heroes a competitive interactive skill acts on the other players during their turns until
the start of its owner's next turn, or the round's end (14.1.3).  Each test checks the
owner's part and the other player's part, on 2- and 3-player fixtures: Prayer of Weather,
Mana Exploit, Healing Ritual, Source Freeze, Wolf's Howl."""
import pytest

from mksim import fixtures
from mksim._engine import KIND_NAMES, describe, encode
from mksim._rules import Rules
from mksim.game import Game

from test_multiplayer import end_turn_now, play_tactics

KIND = {v: k for k, v in KIND_NAMES.items()}
MOD = {name: k for k, name in enumerate(fixtures.MOD_KINDS)}
RED, BLUE, WHITE, GREEN, GOLD, BLACK = range(6)
PAY_CRYSTAL, PAY_DIE, PAY_NONE = 6, 10, 31
PLAINS, HILLS, FOREST, WASTELAND, DESERT, SWAMP = range(6)


def kind(a):
    return int(a) >> 20


def turn_of(heroes, hero, seed=3, lost_legion=False, **player):
    """A First Reconnaissance game of `heroes` at the start of `hero`'s first regular turn
    (the movement part), `player` fields written into that seat."""
    g = Game("first-reconnaissance", heroes=list(heroes), lost_legion=lost_legion)
    s = g.new_state(seed)
    play_tactics(s)
    seat = list(heroes).index(hero)
    for _ in range(len(heroes)):
        if s.current_player() == seat:
            break
        s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
        end_turn_now(s)
    assert s.current_player() == seat
    s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
    return g, edit(g, s, seat, **player)


def edit(g, s, seat, **player):
    """The state with `player` fields written into that seat; a `hand` is taken from the
    seat's own cards (deck, hand, discard pile: a card lies in one place), the rest go to
    the deck."""
    d = s.to_dict()
    pl = d["players"][seat]
    if "hand" in player:
        own = [c for c in pl["deck"] + pl["hand"] + pl["discard"] if c != "wound"]
        for c in player["hand"]:
            if c != "wound":
                own.remove(c)
        pl["deck"], pl["discard"] = own, []
    pl.update(player)
    return g.state_from_dict(d)


def next_turn(s):
    """End this turn; the next player's movement part (a regular turn)."""
    end_turn_now(s)
    if s.phase == "turn_start":
        s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["regular_turn"]][0]))
    return s


def live(s, name):
    t = s.to_dict()["turn"]
    return [m for m in t["mods"][:t["n_mods"]] if m["kind"] == MOD[name]]


def use_skill(s):
    hit = [a for a in s.legal_actions() if kind(a) == KIND["use_skill"]]
    assert hit, [describe(int(a)) for a in s.legal_actions()]
    s.apply(int(hit[0]))


def wounds_in_hand(s, seat):
    return s.to_dict()["players"][seat]["hand"].count("wound")


# -- Prayer of Weather (Norowas) -----------------------------------------------------------

@pytest.mark.covers("norowas_prayer_of_weather", "effect")
def test_8_2_2_prayer_of_weather_lowers_the_owners_costs_and_raises_the_others_to_5():
    """Norowas: his terrain costs -2 (min 1) on his turn; the other player's +1 (max 5) on
    theirs; gone at the start of Norowas' next turn."""
    g, s = turn_of(["norowas", "tovak"], "norowas", skills=["norowas_prayer_of_weather"])
    r = Rules(s.core)
    hexes = [h["index"] for t in s.to_dict()["map"]["tiles"] for h in t["hexes"]][:4]
    for h, terrain in zip(hexes, (PLAINS, HILLS, WASTELAND, DESERT)):
        r.set_hex(h, terrain=terrain)
    assert [r.move_cost(h) for h in hexes] == [2, 3, 4, 5]        # 9.2, Day
    use_skill(s)
    assert [r.move_cost(h) for h in hexes] == [1, 1, 2, 3]        # -2, min 1
    assert [(m["owner"], m["value"], m["arg"]) for m in live(s, "weather_others")] == [(0, 1, 5)]
    next_turn(s)
    assert s.current_player() == 1
    assert [r.move_cost(h) for h in hexes] == [3, 4, 5, 5]        # +1, a raise stops at 5
    next_turn(s)
    assert s.current_player() == 0 and live(s, "weather_others") == []   # 8.2.2: back
    assert [r.move_cost(h) for h in hexes] == [2, 3, 4, 5]


# -- Mana Exploit (Tovak) -------------------------------------------------------------------

def powered_plays(s, pay):
    return [int(a) for a in s.legal_actions()
            if kind(a) == KIND["play"] and (int(a) >> 7) & 1 and ((int(a) >> 8) & 31) == pay]


@pytest.mark.covers("tovak_mana_exploit", "effect")
def test_8_2_2_mana_exploit_wounds_another_player_once_per_other_colour():
    """Tovak gains a red token and marks the skill red; the other player then takes one
    Wound for blue mana (a second blue one: no more), none for red; Tovak himself none.
    The effect ends at the start of Tovak's next turn."""
    g, s = turn_of(["tovak", "goldyx"], "tovak", skills=["tovak_mana_exploit"])
    use_skill(s)
    assert [describe(int(a)) for a in s.legal_actions()][:5] == ["choose(0)", "choose(1)", "choose(2)",
                                                                   "choose(3)", "choose(5)"]
    s.apply(encode("choose", RED))
    assert s.to_dict()["turn"]["mana_tokens"]["red"] == 1
    assert [(m["owner"], m["arg"]) for m in live(s, "mana_exploit")] == [(0, RED + 1)]
    next_turn(s)
    assert s.current_player() == 1
    s = edit(g, s, 1, hand=["stamina", "stamina", "rage"], crystals={"red": 1, "blue": 2, "white": 0, "green": 0})
    before = wounds_in_hand(s, 1)
    s.apply(powered_plays(s, PAY_CRYSTAL + BLUE)[0])                # blue: another colour
    assert wounds_in_hand(s, 1) == before + 1
    s.apply(powered_plays(s, PAY_CRYSTAL + BLUE)[0])                # blue again: max 1
    assert wounds_in_hand(s, 1) == before + 1
    assert wounds_in_hand(s, 0) == 0                               # nothing for Tovak
    next_turn(s)
    assert s.current_player() == 0 and live(s, "mana_exploit") == []
    s = edit(g, s, 0, hand=["stamina"], crystals={"red": 0, "blue": 1, "white": 0, "green": 0})
    s.apply(powered_plays(s, PAY_CRYSTAL + BLUE)[0])
    assert wounds_in_hand(s, 0) == 0                               # his own effect: none


def test_8_2_2_mana_exploit_red_mana_is_free_and_trial_payments_deal_no_wound():
    """Mana of the marked colour gives no Wound; listing the legal plays (trial payments of
    every colour) deals none either."""
    g, s = turn_of(["tovak", "goldyx"], "tovak", skills=["tovak_mana_exploit"])
    use_skill(s)
    s.apply(encode("choose", RED))
    next_turn(s)
    s = edit(g, s, 1, hand=["improvisation", "stamina"], crystals={"red": 1, "blue": 1, "white": 1, "green": 1})
    s.legal_actions()
    assert wounds_in_hand(s, 1) == 0
    assert live(s, "exploit_struck") == []
    red = powered_plays(s, PAY_CRYSTAL + RED)                      # Improvisation (red)
    assert red
    s.apply(red[0])
    while any(kind(a) == KIND["choose"] for a in s.legal_actions()):
        s.apply(int(s.legal_actions()[0]))                         # its card and its effect
    assert wounds_in_hand(s, 1) == 0
    assert s.to_dict()["players"][1]["crystals"]["red"] == 0       # the red mana was used


# -- Healing Ritual (Arythea) -----------------------------------------------------------------

def ring_hexes(s, centre):
    """Hexes of the map by hex distance from `centre`."""
    r = Rules(s.core)
    q0, r0 = r.hex_coords(centre)
    out = {}
    for t in s.to_dict()["map"]["tiles"]:
        for h in t["hexes"]:
            q, rr = r.hex_coords(h["index"])
            d = (abs(q - q0) + abs(rr - r0) + abs(q + rr - q0 - r0)) // 2
            out.setdefault(d, []).append(h["index"])
    return out


@pytest.mark.covers("arythea_healing_ritual", "effect")
def test_8_2_2_healing_ritual_one_wound_goes_to_the_closest_hero():
    """3 heroes: Arythea throws away 2 Wounds; one goes to the hand of the hero 1 space away,
    not to the one 2 spaces away."""
    g, s = turn_of(["arythea", "tovak", "goldyx"], "arythea", skills=["arythea_healing_ritual"],
                   hand=["wound", "wound", "rage"])
    me = 0
    pos = s.to_dict()["players"][me]["position"]
    rings = ring_hexes(s, pos)
    r = Rules(s.core)
    r.set_position(rings[1][0], 1)
    r.set_position(rings[2][0], 2)
    w1, w2 = wounds_in_hand(s, 1), wounds_in_hand(s, 2)
    use_skill(s)
    s.apply(encode("choose", 2))                                   # throw away 2
    assert wounds_in_hand(s, me) == 0
    assert (wounds_in_hand(s, 1), wounds_in_hand(s, 2)) == (w1 + 1, w2)


def test_8_2_2_healing_ritual_a_tie_is_the_owners_choice():
    """Two heroes equally close: Arythea is asked which one (ASK_OPTION, the tied seats)."""
    g, s = turn_of(["arythea", "tovak", "goldyx"], "arythea", skills=["arythea_healing_ritual"],
                   hand=["wound", "rage"])
    rings = ring_hexes(s, s.to_dict()["players"][0]["position"])
    r = Rules(s.core)
    r.set_position(rings[2][0], 1)
    r.set_position(rings[2][1], 2)
    use_skill(s)                                                   # one Wound: no number asked
    assert sorted(describe(int(a)) for a in s.legal_actions()) == ["choose(1)", "choose(2)"]
    s.apply(encode("choose", 2))
    assert (wounds_in_hand(s, 0), wounds_in_hand(s, 1), wounds_in_hand(s, 2)) == (0, 0, 1)


# -- Source Freeze (Goldyx) -----------------------------------------------------------------

@pytest.mark.covers("goldyx_source_freeze", "effect")
def test_8_2_2_source_freeze_the_others_have_no_normal_source_die_until_goldyx_returns():
    """3 heroes: after Goldyx freezes the Source, neither other player may pay with a Source
    die; on Goldyx's next turn he takes a crystal of a basic colour shown there."""
    g, s = turn_of(["goldyx", "tovak", "arythea"], "goldyx", skills=["goldyx_source_freeze"])
    use_skill(s)
    assert s.to_dict()["players"][0]["source_freeze"] == 1
    for other in range(2):
        next_turn(s)
        q = s.current_player()
        assert q != 0
        s = edit(g, s, q, hand=["stamina", "rage", "march", "swiftness"])
        pays = [(int(a) >> 8) & 31 for a in s.legal_actions() if kind(a) == KIND["play"]]
        assert not any(PAY_DIE <= p < PAY_DIE + 8 for p in pays)
    next_turn(s)
    assert s.current_player() == 0
    crystal = [int(a) for a in s.legal_actions() if kind(a) == KIND["skill_crystal"]]
    dice = s.to_dict()["source"]["dice"]
    basic = [k for k, c in enumerate(dice) if c in ("red", "blue", "white", "green")]
    assert sorted(a & 0xFFFFF for a in crystal) == basic            # a basic colour shown
    before = dict(s.to_dict()["players"][0]["crystals"])
    s.apply(crystal[0])
    colour = dice[crystal[0] & 0xFFFFF]
    after = s.to_dict()["players"][0]["crystals"]
    assert after[colour] == before[colour] + 1
    assert s.to_dict()["players"][0]["source_freeze"] == 0          # taken back
    assert not any(kind(a) == KIND["skill_crystal"] for a in s.legal_actions())
    next_turn(s)                                                   # the freeze is over
    q = s.current_player()
    s = edit(g, s, q, hand=["stamina", "rage", "march", "swiftness"])
    pays = [(int(a) >> 8) & 31 for a in s.legal_actions() if kind(a) == KIND["play"]]
    assert any(PAY_DIE <= p < PAY_DIE + 8 for p in pays)


# -- Wolf's Howl (Wolfhawk) -----------------------------------------------------------------

@pytest.mark.covers("wolfhawk_wolfs_howl", "effect")
def test_8_2_2_wolfs_howl_sideways_bonus_for_wolfhawk_and_minus_1_for_the_others_units():
    """Wolfhawk plays a card sideways for 4 + 1 per free Command token (2 here: Move 6); on
    the other player's turn their Peasants block for 2 - 1 = 1; at Wolfhawk's next turn
    the token is back (no modifier)."""
    from mksim._combat import CombatTester
    g, s = turn_of(["wolfhawk", "tovak"], "wolfhawk", lost_legion=True, skills=["wolfhawk_wolfs_howl"],
                   command_tokens=2)
    assert s.to_dict()["turn"]["move_points"] == 0
    use_skill(s)
    s.apply(encode("choose", 0))                                   # the card sideways
    assert s.to_dict()["turn"]["move_points"] == 6
    assert [(m["owner"], m["value"]) for m in live(s, "howl_others")] == [(0, 1)]
    next_turn(s)
    assert s.current_player() == 1
    c = edit(g, s, 1, units=[{"unit": "peasants"}])               # a copy goes to a combat
    T = CombatTester(c.core)
    T.begin(["prowlers"])
    T.set_phase("block")
    unit = [int(a) for a in c.legal_actions() if describe(int(a)).startswith("activate_unit(unit=0, ability=1")]
    c.apply(unit[0])
    assert sum(c.to_dict()["combat"]["block"]) == 1                 # Peasants: Block 2, - 1
    d = s.to_dict()                                                # control: without the Howl
    d["turn"]["n_mods"] = 0
    c = edit(g, g.state_from_dict(d), 1, units=[{"unit": "peasants"}])
    T = CombatTester(c.core)
    T.begin(["prowlers"])
    T.set_phase("block")
    c.apply(unit[0])
    assert sum(c.to_dict()["combat"]["block"]) == 2
    next_turn(s)
    assert s.current_player() == 0 and live(s, "howl_others") == []


# -- another player's keep (10.7.3.5, 11.1.2) -------------------------------------------------

@pytest.mark.parametrize("seed", [3, 4, 5])
def test_10_7_3_5_assault_on_another_players_keep_without_its_owner(content, seed):
    """Tovak moves into Goldyx's keep while Goldyx is elsewhere: an assault (Reputation -1)
    on one grey enemy drawn as the fortified garrison; defeating it gives half its Fame,
    rounded up, and the keep becomes Tovak's (Goldyx's Shield replaced)."""
    from mksim import content as C
    from mksim._combat import CombatTester
    g, s = turn_of(["tovak", "goldyx"], "tovak", seed=seed, hand=["march", "stamina"])
    r = Rules(s.core)
    pos = s.to_dict()["players"][0]["position"]
    keep = [h for h in r.neighbours(pos) if h >= 0][0]
    r.set_hex(keep, terrain=PLAINS, site=C.SITE_IDS.index("keep"), tokens=[], flags=1, owner=1)  # conquered
    r.set_position(pos, 1)
    for h in r.neighbours(pos):                                    # Goldyx not in his keep
        if h >= 0 and h != keep and r.move_cost(h) >= 0:
            r.set_position(h, 1)
            break
    rep, fame = s.to_dict()["players"][0]["reputation"], s.to_dict()["players"][0]["fame"]
    s.apply(int([a for a in s.legal_actions() if kind(a) == KIND["play"]][0]))     # March: Move 2
    s.apply(encode("move", r.neighbours(pos).index(keep)))
    d = s.to_dict()
    assert d["combat"]["active"] and d["combat"]["n_enemies"] == 1
    e = d["combat"]["enemies"][0]
    grey = {x["id"]: x for x in content["enemies"] if x["colour"] == "grey"}
    assert e["enemy"] in grey and e["hex"] == -1 and "site_fortified" in e["flags"]
    assert d["players"][0]["reputation"] == rep - 1                # 11.1.1
    T = CombatTester(s.core)
    T.set_phase("attack")
    T.set_attack("melee", "physical", 30)
    assert T.resolve_attack([0]) == 1
    s.apply(encode("next_phase"))                                  # the combat ends (11.12)
    d = s.to_dict()
    f = grey[e["enemy"]]["fame"]
    assert d["players"][0]["fame"] == fame + (f + 1) // 2            # half, rounded up
    hx = [h for t in d["map"]["tiles"] for h in t["hexes"] if h["index"] == keep][0]
    assert hx["owner"] == 0 and "conquered" in hx["flags"]
    assert d["players"][1]["fame"] == 0


# -- interactive Spells (19.7.1) --------------------------------------------------------------

def give_spell(d, seat, card):
    """Move `card` from the Spell deck (or offer: the deck's top card takes its place) into
    the seat's hand."""
    if card in d["spell_deck"]:
        d["spell_deck"].remove(card)
    else:
        k = d["spell_offer"].index(card)
        d["spell_offer"][k] = d["spell_deck"].pop(0)
    d["players"][seat]["hand"].append(card)


def spell_turn(heroes, seat_hero, card, tokens, seed=3, **player):
    g, s = turn_of(heroes, seat_hero, seed=seed, hand=["march"], **player)
    d = s.to_dict()
    seat = list(heroes).index(seat_hero)
    give_spell(d, seat, card)
    d["turn"]["mana_tokens"] = tokens
    return g, g.state_from_dict(d), seat


@pytest.mark.covers("mana_meltdown", "basic")
def test_19_7_1_mana_meltdown_others_lose_a_random_crystal_or_take_a_wound():
    """3 heroes: Tovak holds 2 blue crystals, Goldyx none.  Arythea's Mana Meltdown: Tovak
    loses a blue crystal, Goldyx takes a Wound; Arythea may take the lost crystal."""
    g, s, me = spell_turn(["arythea", "tovak", "goldyx"], "arythea", "mana_meltdown", {"red": 1})
    s = edit(g, s, 1, crystals={"red": 0, "blue": 2, "white": 0, "green": 0})
    s = edit(g, s, 2, crystals={"red": 0, "blue": 0, "white": 0, "green": 0})
    w2 = wounds_in_hand(s, 2)
    spell = [int(a) for a in s.legal_actions() if kind(a) == KIND["play"] and (int(a) & 127) == 1]
    s.apply(spell[0])
    d = s.to_dict()
    assert d["players"][1]["crystals"]["blue"] == 1
    assert wounds_in_hand(s, 2) == w2 + 1
    assert sorted(describe(int(a)) for a in s.legal_actions()) == ["choose(1)", "choose(63)"]
    s.apply(encode("choose", BLUE))
    assert s.to_dict()["players"][0]["crystals"]["blue"] == 1
    assert wounds_in_hand(s, 0) == 0


@pytest.mark.covers("mana_claim", "powered")
def test_19_7_1_mana_curse_wounds_another_player_once_a_turn_using_that_colour():
    """Goldyx casts Mana Curse at Night on a blue die; Tovak then takes one Wound for blue
    mana (a second blue one that turn: no more), none for red."""
    g, s, me = spell_turn(["goldyx", "tovak"], "goldyx", "mana_claim", {"blue": 1, "black": 1})
    d = s.to_dict()
    d["time"] = "night"
    d["source"]["dice"] = ["blue", "red", "white", "green"]
    s = g.state_from_dict(d)
    s.apply(encode("play", 1 | (1 << 7) | (BLUE << 8) | (BLACK << 13)))   # blue + black tokens
    s.apply(encode("choose", 0))                                   # the blue die
    s.apply(encode("choose", 0))                                   # 3 blue mana now
    assert [(m["owner"], m["arg"]) for m in live(s, "mana_curse")] == [(0, BLUE + 1)]
    next_turn(s)
    assert s.current_player() == 1
    s = edit(g, s, 1, hand=["stamina", "stamina", "improvisation"],
             crystals={"red": 1, "blue": 2, "white": 0, "green": 0})
    w = wounds_in_hand(s, 1)
    s.apply(powered_plays(s, PAY_CRYSTAL + BLUE)[0])
    assert wounds_in_hand(s, 1) == w + 1
    s.apply(powered_plays(s, PAY_CRYSTAL + BLUE)[0])
    assert wounds_in_hand(s, 1) == w + 1                           # max 1 per turn
    assert wounds_in_hand(s, 0) == 0


@pytest.mark.covers("energy_flow", "basic")
def test_19_7_1_energy_flow_readies_yours_and_may_spend_one_level_1_2_unit_of_each_other():
    """3 heroes: Norowas readies his spent Peasants; he may spend Tovak's ready Peasants
    (level I) - not Goldyx's Fire Golems (level III) - and chooses to."""
    g, s, me = spell_turn(["norowas", "tovak", "goldyx"], "norowas", "energy_flow", {"green": 1},
                          units=[{"unit": "peasants", "ready": False}])
    s = edit(g, s, 1, units=[{"unit": "peasants"}])
    s = edit(g, s, 2, units=[{"unit": "fire_golems"}])
    s.apply(encode("play", 1 | (GREEN << 8) | (PAY_NONE << 13)))
    s.apply(encode("choose", 0))                                   # ready my Peasants
    assert s.to_dict()["players"][0]["units"][0]["ready"]
    assert sorted(describe(int(a)) for a in s.legal_actions()) == ["choose(0)", "choose(63)"]
    s.apply(encode("choose", 0))                                   # spend Tovak's
    d = s.to_dict()
    assert not d["players"][1]["units"][0]["ready"] and d["players"][2]["units"][0]["ready"]
    assert s.current_player() == 0 and not any(kind(a) == KIND["choose"] for a in s.legal_actions())


@pytest.mark.covers("mind_read", "basic")
def test_19_7_1_mind_read_puts_the_discard_to_each_other_player_in_turn():
    """3 heroes: Goldyx casts Mind Read for green and gains a green crystal.  Tovak holds
    two green cards: the question is his (current_player() == 1) and he picks which one
    to discard; Arythea holds none (her hand is revealed, nobody asked); then the
    decision is Goldyx's again."""
    g, s, me = spell_turn(["goldyx", "tovak", "arythea"], "goldyx", "mind_read", {"white": 1})
    s = edit(g, s, 1, hand=["march", "tranquility", "rage"])       # green, green, red
    s = edit(g, s, 2, hand=["rage", "swiftness"])                   # red, white
    s.apply(encode("play", 1 | (WHITE << 8) | (PAY_NONE << 13)))
    assert s.current_player() == 0
    s.apply(encode("choose", GREEN))
    assert s.to_dict()["players"][0]["crystals"]["green"] == 1
    assert s.current_player() == 1                                 # Tovak's decision
    assert sorted(describe(int(a)) for a in s.legal_actions()) == ["choose(0)", "choose(1)"]
    back = g.state_from_dict(s.to_dict())                          # the fixture keeps whose it is
    assert back.current_player() == 1 and back.to_dict() == s.to_dict()
    s.apply(encode("choose", 1))                                   # Tranquility
    d = s.to_dict()
    assert d["players"][1]["hand"] == ["march", "rage"] and d["players"][1]["discard"][-1] == "tranquility"
    assert d["players"][2]["hand"] == ["rage", "swiftness"]
    assert s.current_player() == 0 and d["turn_player"] == 0
    assert not any(kind(a) == KIND["choose"] for a in s.legal_actions())


def test_19_7_1_mind_read_question_in_the_checked_c_loop_keeps_the_invariants():
    """From Tovak's Mind Read question on, the C loop of play_checked (one policy per seat,
    the seat whose decision it is picks) answers it and plays the game to its end with
    every invariant, card conservation and per-player conservation checked."""
    from mksim._policies import RandomPolicy, play_checked
    g, s, me = spell_turn(["goldyx", "tovak"], "goldyx", "mind_read", {"white": 1})
    s = edit(g, s, 1, hand=["march", "tranquility"])
    s.apply(encode("play", 1 | (WHITE << 8) | (PAY_NONE << 13)))
    s.apply(encode("choose", GREEN))
    assert s.current_player() == 1
    steps, err, last, viol, vstep, _ = play_checked([RandomPolicy(7, 0, 0), RandomPolicy(7, 0, 1)], s.engine)
    assert viol < 0 and err == 0, (viol, vstep, describe(last))
    assert s.is_terminal()


def mind_steal_turn(tovak_hand, heroes=("goldyx", "tovak")):
    """Goldyx at Night with a white and a black token and Mind Read in hand; Tovak's hand."""
    g, s, me = spell_turn(list(heroes), "goldyx", "mind_read", {"white": 1, "black": 1})
    d = s.to_dict()
    d["time"] = "night"
    s = edit(g, g.state_from_dict(d), 1, hand=list(tovak_hand))
    s.apply(encode("play", 1 | (1 << 7) | (WHITE << 8) | (BLACK << 13)))   # Mind Steal
    s.apply(encode("choose", GREEN))
    return g, s


def own_cards(d, seat):
    p = d["players"][seat]
    return sorted(c for z in ("deck", "hand", "discard", "play_area") for c in p[z] if c != "wound")


@pytest.mark.covers("mind_read", "powered")
def test_19_7_1_mind_steal_takes_the_discarded_action_card_into_the_casters_hand():
    """Tovak discards Tranquility (a green Action) to Goldyx's Mind Steal; Goldyx may take
    it permanently into his hand (card text: "you may permanently take one Action card (not a
    Spell) discarded this way into your hand") and does: it leaves Tovak's discard pile, each
    side's cards_taken counts it (+1 / -1) and each player's card balance
    (player_deed_balance: own cards + thrown away - taken) is what it was."""
    from mksim._checks import player_balance
    g, s = mind_steal_turn(["march", "tranquility", "rage"])
    wound = g.tables.card_ids.index("wound")
    assert s.current_player() == 1
    s.apply(encode("choose", 1))                                   # Tovak: Tranquility
    d0 = s.to_dict()
    assert d0["players"][1]["discard"][-1] == "tranquility"
    assert s.current_player() == 0                                 # Goldyx decides: take it or not
    assert sorted(describe(int(a)) for a in s.legal_actions()) == ["choose(1)", "choose(63)"]
    back = g.state_from_dict(d0)                                   # the question round-trips
    assert back.to_dict() == d0
    before = [player_balance(s.core, p, wound) for p in (0, 1)]
    s.apply(encode("choose", 1))
    d = s.to_dict()
    assert "tranquility" in d["players"][0]["hand"] and "tranquility" not in own_cards(d, 1)
    assert d["players"][1]["discard"] == d0["players"][1]["discard"][:-1]
    assert own_cards(d, 0) == sorted(own_cards(d0, 0) + ["tranquility"])
    assert [p["cards_taken"] for p in d["players"]] == [1, -1]
    assert [player_balance(s.core, p, wound) for p in (0, 1)] == before
    assert g.state_from_dict(d).to_dict() == d                     # a fixture keeps the transfer
    assert not any(kind(a) == KIND["choose"] for a in s.legal_actions())


def test_19_7_1_mind_steal_may_take_nothing_and_never_a_spell():
    """Goldyx declines (choose(63)): Tovak keeps his discarded March.  A discarded Spell
    (Tovak's only green card) is not offered: nothing to take, no question."""
    g, s = mind_steal_turn(["march", "rage"])
    s.apply(encode("choose", 0))                                   # Tovak: March (his only green)
    assert s.current_player() == 0
    s.apply(encode("choose", 63))
    d = s.to_dict()
    assert d["players"][1]["discard"][-1] == "march" and d["players"][0]["hand"] == ["march"]   # his own
    assert [p["cards_taken"] for p in d["players"]] == [0, 0]
    g, s, me = spell_turn(["goldyx", "tovak"], "goldyx", "mind_read", {"white": 1, "black": 1})
    d = s.to_dict()
    d["time"] = "night"
    give_spell(d, 1, "tremor")                                     # a green Spell
    s = edit(g, g.state_from_dict(d), 1, hand=["rage", "tremor"])
    s.apply(encode("play", 1 | (1 << 7) | (WHITE << 8) | (BLACK << 13)))
    s.apply(encode("choose", GREEN))
    assert s.current_player() == 1
    s.apply(encode("choose", 1))                                   # Tovak: the green Spell
    d = s.to_dict()
    assert d["players"][1]["discard"][-1] == "tremor"
    assert s.current_player() == 0 and not any(kind(a) == KIND["choose"] for a in s.legal_actions())


def test_19_7_1_mind_steal_in_the_checked_c_loop_keeps_per_player_conservation():
    """After Goldyx took Tovak's Tranquility, play_checked plays the game to its end: card
    conservation and per-player conservation (cards_taken counted) hold at every step, and
    Tovak's Tranquility is Goldyx's from then on."""
    from mksim._policies import RandomPolicy, play_checked
    g, s = mind_steal_turn(["march", "tranquility"])
    s.apply(encode("choose", 1))
    s.apply(encode("choose", 1))
    steps, err, last, viol, vstep, _ = play_checked([RandomPolicy(7, 0, 0), RandomPolicy(7, 0, 1)], s.engine)
    assert viol < 0 and err == 0, (viol, vstep, describe(last))
    d = s.to_dict()
    assert s.is_terminal() and "tranquility" in own_cards(d, 0) and "tranquility" not in own_cards(d, 1)


def test_19_7_1_a_fixture_whose_cards_taken_do_not_add_up_is_refused():
    """A card one hero took from another counts +1 and -1: cards_taken that do not add up to
    0 over the players are no position of a game (one error naming the field)."""
    from mksim.fixtures import FixtureError
    g, s = turn_of(["goldyx", "tovak"], "goldyx")
    d = s.to_dict()
    d["players"][0]["cards_taken"] = 1
    with pytest.raises(FixtureError, match=r"cards_taken add up to 1 \(\[1, 0\]\)"):
        g.state_from_dict(d)
    d["players"][1]["cards_taken"] = -1
    assert g.state_from_dict(d).to_dict()["players"][1]["cards_taken"] == -1
