"""Shared set-up for the interaction and Units tests: a First Reconnaissance game (Arythea)
at the start of the player's first regular turn, the hero's space turned into a chosen site."""
from mksim._combat import CombatTester
from mksim._engine import Engine, UnitsTester, describe, encode
from mksim._scoring import ScoringTester
from mksim._state import GameCore

PH_MOVE, PH_COMBAT_BLOCK, PH_COMBAT_DAMAGE, PH_INTERACT = 2, 5, 6, 8
HEX_CONQUERED, HEX_BURNED = 1, 2
PAY_NONE = 31
PAY_TOKEN = {"red": 0, "blue": 1, "white": 2, "green": 3, "gold": 4, "black": 5}


class Game:
    def __init__(self, content, tables, site=None, hand=(), reputation=0, owner=None, flags=None,
                 seed=1, hero="arythea", tactic="early_bird"):
        self.content, self.tables = content, tables
        self.core = GameCore.new(tables, content, "first_reconnaissance", hero, seed)
        self.eng = Engine(self.core, tables, content, "first_reconnaissance")
        self.eng.apply(encode("tactic", content.ids("tactics").index(tactic)))
        self.eng.apply(encode("regular_turn"))
        self.sc = ScoringTester(self.core)
        self.ut = UnitsTester(self.eng)
        self.pos = self.core.to_dict()["players"][0]["position"]
        if site is not None:
            self.sc.set_hex(self.pos, site=site, owner=owner, flags=flags)
        self.sc.set_cards(0, hand=list(hand))
        CombatTester(self.core).set_reputation(reputation)

    # -- reading -------------------------------------------------------------------------
    def actions(self):
        return [describe(int(a)) for a in self.eng.legal_actions()]

    def kinds(self):
        return sorted({a.split("(")[0] for a in self.actions()})

    def of_kind(self, kind):
        return [a for a in self.actions() if a.split("(")[0] == kind]

    @property
    def d(self):
        return self.core.to_dict()

    @property
    def turn(self):
        return self.ut.turn

    @property
    def player(self):
        return self.d["players"][0]

    # -- acting --------------------------------------------------------------------------
    def do(self, kind, arg=0):
        self.eng.apply(encode(kind, arg))

    def play(self, hand_index, powered=0, pay=PAY_NONE):
        self.do("play", hand_index | (powered << 7) | (pay << 8) | (PAY_NONE << 13))

    def sideways_influence(self, hand_index):
        self.do("sideways", hand_index | (1 << 7))

    def activate(self, slot, ability, pay=PAY_NONE):
        self.do("activate_unit", slot | (ability << 3) | (pay << 7))

    def recruit(self, offer_slot, disband=None):
        self.do("recruit", offer_slot | ((0 if disband is None else disband + 1) << 4))
