"""The one table of action kinds (issue 12, layering).

An action is the integer ``kind << ACTION_SHIFT | argument`` (docs/engine.md).  Every kind
is one row of :data:`ACTION_KINDS`; from it

* ``ext/gen_actions.py`` writes the C enum ``ActionKind`` (``ext/_actions.pxd``, at build
  time, like ``ext/_fields.pxi``), which ``ext/_engine.pxd`` cimports for the whole core;
* :data:`KIND_NAMES` (code -> name) is built, which ``mksim._engine.describe`` /
  ``encode`` / ``check_action_id`` read, with each row's argument layout;
* the words of ``State.action_to_string`` (``mksim play --log``) are the method
  ``_<name>`` of ``mksim.game._ActionWords`` (tests/test_engine.py checks that every kind
  has one and that the C enum, the names and the words agree).

This module is plain data (no imports), so the build script can read it before anything
is compiled.

Row fields
----------
code : int
    The kind number (``action >> ACTION_SHIFT``); numbers are grouped by the part of the
    core that handles them (see the ``area`` field) and never reused.
enum : str
    The C name (``A_...``) of the kind in ``ActionKind``.
name : str
    The machine-readable kind name: ``describe`` prints it, ``encode`` reads it, and it
    names the word method ``_<name>``.
layout : str or None
    How ``describe`` prints the argument.  ``None``: ``name(arg)``.  A list of bit fields
    ``"field:bits ..."`` from the lowest bit up, the last one may be ``field:*`` (all higher
    bits): ``name(field=value, ...)``.  ``"explore"`` / ``"recruit"``: the two encodings
    with a flag bit, written out in ``mksim._engine._describe``.
area : str
    Where the kind is handled (for the generated enum's comments).
doc : str
    The argument and the rule.
"""

ACTION_SHIFT = 20          # action = kind << ACTION_SHIFT | argument (ext/_engine.pxd)

ACTION_KINDS = (
    # code enum                 name               layout                          area           doc
    (1, "A_TACTIC", "tactic", None, "turn", "arg: tactic content index (3.1)"),
    (2, "A_ANNOUNCE_END", "announce_end", None, "turn", "announce the End of the Round instead of a turn (4.2)"),
    (3, "A_REGULAR_TURN", "regular_turn", None, "turn", "4.4"),
    (4, "A_REST", "rest", None, "turn", "4.5"),
    (5, "A_PLAY", "play", "hand:7 powered:1 pay:5 pay2:5", "turn",
     "arg: hand index | powered << 7 | pay << 8 | pay2 << 13 (6.1, 5.4)"),
    (6, "A_SIDEWAYS", "sideways", None, "turn",
     "arg: hand index | what << 7 (0 Move, 1 Influence, 2 Attack, 3 Block; 6.1.7)"),
    (7, "A_CHOOSE", "choose", None, "turn", "arg: option of the pending choice(...)"),
    (8, "A_MOVE", "move", None, "turn", "arg: direction 0-5 (HEX_DIRS order; 9.3)"),
    (9, "A_EXPLORE", "explore", "explore", "turn",
     "arg: (a + 64) << 7 | (b + 64), tile position (9.8); | EXPLORE_BOX_FLAG: a tile from the box (9.8.8)"),
    (10, "A_END_TURN", "end_turn", None, "turn", "4.6"),
    (11, "A_REST_DISCARD", "rest_discard", None, "turn", "arg: hand index (4.5.2)"),
    (12, "A_HEAL_WOUND", "heal_wound", None, "turn", "arg: hand index; spend 1 Healing point (12.3.3)"),
    (13, "A_DISCARD", "discard", None, "turn", "arg: hand index; end-of-turn discard before drawing (13.7.1)"),
    (14, "A_DRAW", "draw", None, "turn", "finish the end-of-turn discards and draw (13.7.2)"),
    (15, "A_PICK_SKILL", "pick_skill", None, "turn", "arg: 0/1 revealed own token, 2+k common offer slot k (13.6.4)"),
    (16, "A_PICK_AA", "pick_aa", None, "turn", "arg: AA offer slot (13.6.4)"),
    (17, "A_GLADE_WOUND", "glade_wound", None, "turn", "arg: 0 skip, 1 from hand, 2 from discard (10.7.11.2)"),
    (30, "A_TACTIC_ABILITY", "tactic_ability", None, "turn",
     "arg: variant (Sparing Power: 0 store a card, 1 take them); the own tactic's ongoing ability (3.2; 4.1)"),
    (31, "A_FORFEIT", "forfeit", None, "turn", "4.2.5: forfeit a turn (offered only when a before-turn option exists)"),
    (32, "A_RETURN_CARD", "return_card", None, "turn",
     "arg: hand index; Crystal Joy: discard it to return Crystal Joy to hand"),
    (33, "A_CONVERT_MOVE", "convert_move", None, "turn",
     "arg: 0 melee Attack 1, 1 Ranged Attack 1 for Move points (Agility)"),
    (37, "A_STEADY_TEMPO", "steady_tempo", None, "turn",
     "end of turn: Steady Tempo to the bottom / top of the Deed deck (_fx_advanced)"),
    (40, "A_CHALLENGE", "challenge", None, "combat",
     "arg: bitmask of neighbour directions whose rampaging enemies are challenged (11.1.5)"),
    (41, "A_ENTER_SITE", "enter_site", None, "combat", "enter the adventure site you stand on (10.8)"),
    (42, "A_BURN", "burn", None, "combat", "try to burn the monastery you stand on (10.7.2.3)"),
    (43, "A_INTERACT", "interact", None, "combat", "interact with the locals (10.2)"),
    (44, "A_COMMIT_ATTACK", "attack", None, "combat", "arg: bitmask of target slots (11.5.2, 11.8)"),
    (45, "A_COMMIT_BLOCK", "block", None, "combat", "arg: slot | attack << 5 (11.6.3, LL-6.1)"),
    (46, "A_DAMAGE_START", "damage_from", None, "combat",
     "arg: slot | attack << 5: resolve that unblocked attack next (11.7.1)"),
    (47, "A_DAMAGE_HERO", "damage_hero", None, "combat", "the rest of the damage goes to the hero (11.7.7)"),
    (48, "A_DAMAGE_UNIT", "damage_unit", None, "combat", "arg: unit slot (11.7.4)"),
    (49, "A_NEXT_PHASE", "next_phase", None, "combat", "end this combat phase (11.3.2)"),
    (50, "A_REWARD", "reward", None, "combat", "arg: a choice while claiming rewards (13.5)"),
    (51, "A_ALTAR", "altar", None, "combat", "pay the tribute of a ruins altar (10.7.10.2)"),
    (52, "A_CUMBERSOME", "cumbersome", None, "combat",
     "arg: slot | attack << 5: spend 1 Move point, that Cumbersome attack -1 (LL-6.5.2)"),
    (60, "A_END_INTERACT", "end_interact", None, "units",
     "finish the interaction (back to the rest of the turn, no movement)"),
    (61, "A_RECRUIT", "recruit", "recruit", "units",
     "arg: unit-offer slot | (disbanded unit slot + 1) << 4, 0 = none (10.6, 7.2.4) | (pay code + 1) << 8 "
     "| basic colour << 13: Magic Familiars' mana (LL-4.5.4) | BONDS_RECRUIT: under Bonds of Loyalty"),
    (62, "A_BUY_HEALING", "buy_healing", None, "units", "1 Healing point for the site's price (10.5)"),
    (63, "A_BUY_AA", "buy_aa", None, "units", "arg: unit-offer slot of a monastery AA (10.7.2.2)"),
    (64, "A_BUY_SPELL", "buy_spell", "offer:2 pay:*", "units", "arg: spell-offer slot | pay << 2 (10.7.4.3, 21.2 A26)"),
    (65, "A_ACTIVATE_UNIT", "activate_unit", "unit:3 ability:4 pay:*", "units",
     "arg: unit slot | ability << 3 | pay << 7 (7.3.1)"),
    (66, "A_HEAL_UNIT", "heal_unit", None, "units", "arg: unit slot; spend Healing points equal to its level (12.3.3)"),
    (70, "A_USE_SKILL", "use_skill", None, "skills",
     "arg: skill slot of Player.skills; its effect resolves on the stack (8.2)"),
    (71, "A_SKILL_CRYSTAL", "skill_crystal", None, "skills",
     "arg: Source die; Source Freeze's crystal of its colour on the next turn"),
    (80, "A_INFLUENCE_BLOCK", "influence_block", None, "advanced",
     "arg: element (0 physical, 1 fire, 2 ice); Diplomacy: 1 Influence -> Block 1"),
    (81, "A_LEARNING", "learning", None, "advanced", "arg: AA offer slot; Learning: buy it for the card's Influence price"),
    (82, "A_PEACEFUL", "peaceful", None, "advanced",
     "arg: 0 Heal 1, 1 + unit slot: ready that Unit (Peaceful Moment as the action)"),
    (90, "A_POSSESS", "possess_attack", None, "spells", "Attack phase: add the possessed enemy's Attack to the pool (Possess)"),
    (91, "A_WINGS_TARGET", "wings_target", None, "spells",
     "arg: enemy slot; Wings of Night: one more enemy does not attack, for Move"),
    (100, "A_BANNER_COURAGE", "banner_courage", None, "artifacts", "arg: unit slot (Banner of Courage)"),
    (101, "A_BANNER_FEAR", "banner_fear", None, "artifacts", "arg: unit slot | enemy slot << 3 | attack << 8 (Banner of Fear)"),
    (102, "A_DAMAGE_FORTITUDE", "damage_fortitude", None, "artifacts",
     "arg: unit slot; assign the damage, the Banner of Fortitude ignores the wound"),
    (103, "A_BANNER_RETURN", "banner_return", None, "artifacts",
     "arg: unit slot: its Banner back to the Deed deck; BANNER_KEEP = keep the rest (7.5.3)"),
    (104, "A_BOW_CHANGE", "bow_change", None, "artifacts", "arg: mode | element << 2 (Bow of Starsdawn powered)"),
    (105, "A_CIRCLET_SKILL", "circlet_skill", None, "artifacts",
     "use the Circlet's borrowed skill again this turn (arg 0)"),
    (106, "A_BANNER_COMMAND", "banner_command", None, "artifacts",
     "arg: unit slot recruited this turn: the Banner of Command goes to it (LL-5.1)"),
    (110, "A_PAY_UNIT", "pay_unit", None, "unit effects",
     "arg: unit slot; pay 2 Influence so Thugs / Heroes cooperate in this combat (LL-4.3.4)"),
    (111, "A_UPKEEP", "upkeep", None, "unit effects",
     "arg: unit slot | (crystal colour + 1) << 3, 0 = disband (LL-4.5.4)"),
    (120, "A_PLUNDER", "plunder", None, "sites",
     "before the turn, in a village: Reputation -1, draw 2 cards (10.7.1.4, 4.1)"),
    (121, "A_BUY_ARTIFACT", "buy_artifact", None, "sites",
     "red city: an Artifact for 12 Influence, drawn at the end of the turn (10.10, 10.5.2)"),
    (122, "A_BUY_CITY_AA", "buy_city_aa", None, "sites",
     "green city: arg 0-2 AA offer slot, 3 = top card of the AA deck (10.10, 10.5)"),
    (123, "A_ADD_ELITE", "add_elite", None, "sites", "white city: pay to add the top Elite Unit card to the Unit offer (10.10)"),
)

KIND_NAMES = {code: name for code, _enum, name, _layout, _area, _doc in ACTION_KINDS}
"""Kind code -> kind name."""

KIND_CODES = {name: code for code, name in KIND_NAMES.items()}
"""Kind name -> kind code."""

KIND_LAYOUTS = {code: layout for code, _enum, _name, layout, _area, _doc in ACTION_KINDS}
"""Kind code -> argument layout for ``describe`` (see the module docstring)."""


def parse_layout(layout):
    """Bit fields of a layout string: a tuple of (field, shift, mask), mask -1 = all higher bits."""
    fields, shift = [], 0
    for part in layout.split():
        field, _, bits = part.partition(":")
        if not field.isidentifier() or not (bits == "*" or bits.isdigit()):
            raise ValueError(f"action kind layout {layout!r}: {part!r} is not field:bits or field:*")
        if bits == "*":
            fields.append((field, shift, -1))
            break
        fields.append((field, shift, (1 << int(bits)) - 1))
        shift += int(bits)
    return tuple(fields)


def check_table(kinds=ACTION_KINDS):
    """ValueError naming the first row that breaks the table's rules (unique codes, C names
    and kind names; codes that fit the encoding; known layouts); the build runs it."""
    seen = {}
    for row in kinds:
        if len(row) != 6:
            raise ValueError(f"action kind row {row!r}: expected 6 fields (code enum name layout area doc)")
        code, enum, name, layout, _area, _doc = row
        if not isinstance(code, int) or not 0 < code < (1 << (31 - ACTION_SHIFT)):
            raise ValueError(f"action kind {name!r}: code {code!r} outside 1 .. {(1 << (31 - ACTION_SHIFT)) - 1}")
        if not (isinstance(enum, str) and enum.startswith("A_") and enum.isidentifier() and enum.isupper()):
            raise ValueError(f"action kind {name!r}: C name {enum!r} is not A_UPPER_CASE")
        if not (isinstance(name, str) and name.isidentifier() and name.islower()):
            raise ValueError(f"action kind code {code}: name {name!r} is not lower_case")
        if layout not in (None, "explore", "recruit"):
            parse_layout(layout)
        for key, what in ((code, "code"), (enum, "C name"), (name, "name")):
            if key in seen:
                raise ValueError(f"action kind {name!r}: {what} {key!r} already used by {seen[key]!r}")
            seen[key] = name
