"""The effect vocabulary (mksim/effects.py): parsing, printing and compilation to rows."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mksim import effects as fx
from effect_rows import decode
from mksim.effects import EffectCompiler, EffectError, Node, parse_effect

# ---------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------


def test_op_codes_are_positions_in_OPS_and_nothing_is_zero():
    assert fx.OP_CODES["nothing"] == 0
    assert [fx.OP_CODES[op.name] for op in fx.OPS] == list(range(len(fx.OPS)))
    assert len(set(fx.OP_BY_NAME)) == len(fx.OPS)


def test_word_lists():
    assert fx.BASIC_COLOURS == ("red", "blue", "white", "green")  # rule 5.1.1; code < 4 is basic
    assert fx.MANA_COLOURS[4:] == ("gold", "black")
    assert fx.ELEMENTS == ("physical", "fire", "ice", "coldfire")  # rule 11.9.1
    assert fx.ATTACK_KINDS == ("melee", "ranged", "siege")
    assert set(fx.TERRAINS) == {"plains", "hills", "forest", "wasteland", "desert", "swamp", "lake", "mountain"}
    assert fx.TIMES == ("day", "night")


# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------


def test_parse_rage_basic_fills_defaults():
    node = parse_effect("choice(attack(2), block(2))")
    assert node == Node("choice", {}, [
        Node("attack", {"n": 2, "element": "physical", "kind": "melee"}),
        Node("block", {"n": 2, "element": "physical"}),
    ])


def test_parse_keywords_and_words():
    assert parse_effect("attack(3, element=fire, kind=ranged)") == Node(
        "attack", {"n": 3, "element": "fire", "kind": "ranged"})
    assert parse_effect("attack(n=3, kind=siege)") == Node("attack", {"n": 3, "element": "physical", "kind": "siege"})
    assert parse_effect("gain_mana(gold)") == Node("gain_mana", {"colour": "gold", "n": 1})
    assert parse_effect("terrain_cost(forest, -1)") == Node("terrain_cost", {"terrain": "forest", "delta": -1, "floor": 0})
    assert parse_effect("  move( 2 )") == Node("move", {"n": 2})
    assert parse_effect("nothing()") == Node("nothing")


def test_trailing_whitespace_is_ignored_like_any_other_whitespace():
    # "move(2) " (e.g. basic = "move(2) " in a TOML file) is the same expression as "move(2)"
    assert parse_effect("move(2) ") == Node("move", {"n": 2})
    assert parse_effect("choice(move(1), move(2))\t") == parse_effect("choice(move(1), move(2))")


def test_parse_by_time_takes_effect_arguments():
    node = parse_effect("by_time(day=move(1), night=move(2))")
    assert node.args == {"day": Node("move", {"n": 1}), "night": Node("move", {"n": 2})}
    assert node.children == []


def test_parse_handler_keeps_name_and_keyword_arguments():
    node = parse_effect("handler(concentration, bonus=2, colour=red, then=move(1))")
    assert node.op == "handler"
    assert node.args == {"name": "concentration", "bonus": 2, "colour": "red", "then": Node("move", {"n": 1})}
    names = fx.handler_names(parse_effect("choice(handler(a), all(move(1), handler(b, x=1, y=handler(c))))"))
    assert sorted(names) == ["a", "b", "c"]
    assert fx.handler_names(parse_effect("choice(move(1), move(2))")) == []


@pytest.mark.parametrize("text, fragment", [
    ("atack(2)", "unknown operation 'atack'"),
    ("attack(2", "expected ')'"),
    ("attack(2))", "unexpected ')'"),
    ("attack()", "missing its argument 'n'"),
    ("attack(two)", "must be a whole number"),
    ("attack(2, element=wind)", "must be one of physical, fire, ice, coldfire"),
    ("attack(2, speed=3)", "has no argument 'speed'"),
    ("attack(2, element=fire, element=ice)", "given twice"),
    ("attack(n=2, 3)", "positional argument after a keyword"),
    ("move(1, 2)", "at most 1 arguments"),
    ("choice(move(1))", "at least two effects"),
    ("choice(move(1), 2)", "takes effects"),
    ("all(move(1), move(2), n=3)", "no keyword arguments"),
    ("by_time(day=move(1))", "missing its argument 'night'"),
    ("by_time(day=1, night=move(1))", "must be an effect"),
    ("handler(2)", "exactly one handler name"),
    ("handler(x, bonus=wibble)", "not a number, known word or effect"),
    ("move(2) @", "unexpected '@'"),
    ("2", "expected an operation name"),
    ("", "non-empty"),
    ("   ", "non-empty"),
    ("attack(10000)", "out of range"),
    ("handler(x, bonus=-10000)", "out of range"),
])
def test_malformed_expressions_are_rejected_with_a_reason(text, fragment):
    with pytest.raises(EffectError) as info:
        parse_effect(text)
    assert fragment in str(info.value)
    if text.strip():
        assert "column" in str(info.value) and repr(text) in str(info.value)


def test_numbers_up_to_the_limit_are_accepted():
    assert parse_effect(f"attack({fx.MAX_NUMBER})").args["n"] == fx.MAX_NUMBER
    assert parse_effect(f"fame(-{fx.MAX_NUMBER})").args["n"] == -fx.MAX_NUMBER


def test_error_column_points_at_the_problem():
    with pytest.raises(EffectError, match=r"at column 19 of"):
        parse_effect("choice(attack(2), atack(2))")


# ---------------------------------------------------------------------------------------
# Printing: parse(str(node)) == node
# ---------------------------------------------------------------------------------------


def test_str_roundtrip_of_rage():
    node = parse_effect("choice(attack(2), block(2))")
    assert str(node) == "choice(attack(n=2, element=physical, kind=melee), block(n=2, element=physical))"
    assert parse_effect(str(node)) == node


def test_str_roundtrip_of_every_shipped_effect(content):
    assert sum(1 for n in content.parsed.values() if fx.handler_names(n)) > 100
    for node in content.parsed.values():
        assert parse_effect(str(node)) == node, str(node)


def test_str_roundtrip_of_a_handler():
    # str() must print something parse_effect() accepts for every node, handlers included
    node = parse_effect("handler(concentration, bonus=2)")
    assert parse_effect(str(node)) == node


_INT = st.integers(min_value=-50, max_value=50)


def _leaf(op):
    fields = {p.name: (_INT if p.type == fx.INT else st.sampled_from(fx.ENUMS[p.type])) for p in op.params}
    return st.fixed_dictionaries(fields).map(lambda args, name=op.name: Node(name, args))


_LEAF_OPS = [op for op in fx.OPS if not op.variadic and op.name != "handler"
             and all(p.type != fx.EFFECT for p in op.params)]


def _handler(children):
    """handler(name, k=v ...) with number, word (named like its word list) and effect arguments."""
    value = {"bonus": _INT, "cards": _INT, "then": children, "otherwise": children,
             **{k: st.sampled_from(words) for k, words in fx.ENUMS.items()}}
    keys = st.lists(st.sampled_from(sorted(value)), unique=True, max_size=4)
    name = st.sampled_from(["concentration", "mana_steal", "x"])
    return st.tuples(name, keys.flatmap(lambda ks: st.fixed_dictionaries({k: value[k] for k in ks}))).map(
        lambda nk: Node("handler", {"name": nk[0], **nk[1]}))


def _combine(children):
    many = st.lists(children, min_size=2, max_size=3)
    return st.one_of(
        many.map(lambda cs: Node("choice", {}, cs)),
        many.map(lambda cs: Node("all", {}, cs)),
        st.tuples(children, children).map(lambda dn: Node("by_time", {"day": dn[0], "night": dn[1]})),
        _handler(children),
    )


effect_trees = st.recursive(st.one_of([_leaf(op) for op in _LEAF_OPS]), _combine, max_leaves=10)


@settings(max_examples=150, deadline=None)
@given(effect_trees)
def test_str_roundtrip_property(node):
    assert parse_effect(str(node)) == node


# ---------------------------------------------------------------------------------------
# Compilation
# ---------------------------------------------------------------------------------------

C = fx.OP_CODES


def test_compiled_rows_of_rage_basic_follow_the_docstring():
    comp = EffectCompiler()
    row = comp.add(parse_effect("choice(attack(2), block(2))"))
    assert row == 1
    # row 0 is nothing(); the choice row points at its two children in rows 2 and 3;
    # a0..a2 are the parameters in signature order, words as codes (physical 0, melee 0)
    assert comp.rows == [
        [0, 0, 0, 0, 0, 0],
        [C["choice"], 0, 0, 0, 2, 2],
        [C["attack"], 2, fx.ELEMENTS.index("physical"), fx.ATTACK_KINDS.index("melee"), 0, 0],
        [C["block"], 2, fx.ELEMENTS.index("physical"), 0, 0, 0],
    ]
    assert comp.handlers == [] and comp.handler_args == []
    assert fx.ROW_FIELDS == ("op", "a0", "a1", "a2", "first_child", "n_children")


def test_compiled_words_are_enum_codes():
    comp = EffectCompiler()
    comp.add(parse_effect("attack(3, element=ice, kind=siege)"))
    assert comp.rows[1] == [C["attack"], 3, 2, 2, 0, 0]
    comp.add(parse_effect("gain_crystal(green, 2)"))
    assert comp.rows[2] == [C["gain_crystal"], fx.COLOUR_CHOICES.index("green"), 2, 0, 0, 0]


def test_by_time_arguments_become_children_in_parameter_order():
    comp = EffectCompiler()
    comp.add(parse_effect("by_time(day=move(1), night=move(2))"))
    assert comp.rows[1] == [C["by_time"], 0, 0, 0, 2, 2]
    assert comp.rows[2] == [C["move"], 1, 0, 0, 0, 0]
    assert comp.rows[3] == [C["move"], 2, 0, 0, 0, 0]


def test_nested_children_are_contiguous():
    comp = EffectCompiler()
    comp.add(parse_effect("all(choice(move(1), move(2)), heal(3))"))
    assert comp.rows[1] == [C["all"], 0, 0, 0, 2, 2]
    assert comp.rows[2] == [C["choice"], 0, 0, 0, 4, 2]
    assert comp.rows[3] == [C["heal"], 3, 0, 0, 0, 0]
    assert comp.rows[4][:2] == [C["move"], 1] and comp.rows[5][:2] == [C["move"], 2]


def test_handler_rows_and_side_table():
    comp = EffectCompiler()
    comp.add(parse_effect("handler(concentration, bonus=2, then=move(1))"))
    comp.add(parse_effect("handler(concentration, bonus=3)"))
    assert comp.handlers == ["concentration"]  # one id per name
    assert comp.arg_keys == ["bonus", "then"]
    # a0 = handler id, a1 = first handler_args index, a2 = how many; effect args are children
    assert comp.rows[1] == [C["handler"], 0, 0, 2, 2, 1]
    assert comp.rows[2] == [C["move"], 1, 0, 0, 0, 0]
    assert comp.rows[3] == [C["handler"], 0, 2, 1, 0, 0]
    assert comp.handler_args == [(0, 0, 2), (1, 2, 2), (0, 0, 3)]


def test_handler_word_argument_uses_its_own_word_list():
    # 'all' is a word of two lists (terrain: index 8, target: index 1); a handler's
    # target=all must be stored as the target code, or the core cannot tell one from all
    comp = EffectCompiler()
    comp.add(parse_effect("handler(x, target=all)"))
    comp.add(parse_effect("handler(x, target=one)"))
    assert [v for _, _, v in comp.handler_args] == [fx.TARGETS.index("all"), fx.TARGETS.index("one")]


@settings(max_examples=150, deadline=None)
@given(st.lists(effect_trees, min_size=1, max_size=4))
def test_compile_then_decode_gives_the_same_nodes(nodes):
    comp = EffectCompiler()
    at = [comp.add(n) for n in nodes]
    for row, node in zip(at, nodes):
        assert decode(comp.rows, comp.handlers, comp.arg_keys, comp.handler_args, row) == node


# ---------------------------------------------------------------------------------------
# Validation (check_effect): amounts in range, nesting bounded, handlers as the engine
# declares them
# ---------------------------------------------------------------------------------------

#: Operations whose number is a gain (points, cards, mana, crystals, Fame, Wounds, dice):
#: a negative one would take from a pool the engine only adds to, and 0 does nothing.
GAINS = ("move(N)", "influence(N)", "attack(N)", "attack(N, element=fire, kind=siege)", "block(N)",
         "block(N, element=ice)", "heal(N)", "draw(N)", "gain_mana(red, N)", "gain_crystal(green, N)",
         "fame(N)", "take_wound(N)", "extra_source_die(N)", "ready_unit(N)")


@pytest.mark.parametrize("template", GAINS)
@pytest.mark.parametrize("n", [-3, -1, 0])
def test_no_negative_or_empty_gain(template, n):
    node = parse_effect(template.replace("N", str(n)))       # the parser takes any number ...
    with pytest.raises(EffectError, match=rf"argument '(n|max_level)' must be in 1 \.\. \d+, got {n}"):
        fx.check_effect(node)                               # ... validation does not


@pytest.mark.parametrize("template", GAINS)
def test_a_gain_of_1_is_accepted(template):
    fx.check_effect(parse_effect(template.replace("N", "1")))


@pytest.mark.parametrize("text, fragment", [
    ("gain_mana(red, 10)", "in 1 .. 9, got 10"),           # tokens are 8-bit counts in the core
    ("extra_source_die(10)", "in 1 .. 9, got 10"),
    ("attack(100)", "in 1 .. 99, got 100"),
    ("ready_unit(5)", "in 1 .. 4, got 5"),                  # unit levels I-IV (7.1.3)
    ("reputation(16)", "in -15 .. 15, got 16"),             # 16 spaces (reputation.toml)
    ("reputation(-16)", "in -15 .. 15, got -16"),
    ("terrain_cost(forest, 10)", "in -9 .. 9, got 10"),
    ("terrain_cost(forest, -1, floor=-1)", "'floor' must be in 0 .. 9"),
    ("enemy_armor(-2, floor=0)", "'floor' must be in 1 .. 99"),  # Armor is never below 1
    ("choice(move(2), all(heal(1), draw(0)))", "draw() argument 'n'"),  # found inside combinators
    ("by_time(day=move(1), night=move(-1))", "move() argument 'n'"),
])
def test_amounts_out_of_range(text, fragment):
    with pytest.raises(EffectError) as info:
        fx.check_effect(parse_effect(text))
    assert fragment in str(info.value)


@pytest.mark.parametrize("text", ["reputation(-2)", "terrain_cost(hills, -1)", "enemy_armor(-5, floor=1)",
                                  "enemy_armor(-3, target=all, floor=2)", "terrain_cost(all, -2, floor=2)"])
def test_signed_changes_may_be_negative(text):
    fx.check_effect(parse_effect(text))


def test_every_bounded_parameter_is_a_number():
    for op in fx.OPS:
        for p in op.params:
            if p.min is not None or p.max is not None:
                assert p.type == fx.INT, (op.name, p.name)


def _nested(depth: int) -> str:
    return "all(move(1), " * (depth - 1) + "move(1)" + ")" * (depth - 1)


def test_nesting_up_to_the_bound_is_accepted():
    node = parse_effect(_nested(fx.MAX_DEPTH))
    depth = 0
    while node.children:
        node, depth = node.children[1] if node.op == "all" else node, depth + 1
    assert depth == fx.MAX_DEPTH - 1 and node == Node("move", {"n": 1})


@pytest.mark.parametrize("text", [
    _nested(fx.MAX_DEPTH + 1),
    _nested(500),                                  # the case of the issue
    "all(" * 25000,                                # 100,000 characters
    "handler(x, then=" * 20000 + "move(1)" + ")" * 20000,
    "by_time(day=" * 30000,
])
def test_deeper_nesting_is_one_short_error_line_never_a_recursion_error(text):
    with pytest.raises(EffectError) as info:
        parse_effect(text)
    msg = str(info.value)
    assert f"nested more than {fx.MAX_DEPTH} levels deep" in msg
    assert "\n" not in msg and len(msg) < 300


@pytest.mark.parametrize("text, fragment", [
    ("(" * 100000, "expected an operation name"),
    (")" * 100000, "expected an operation name"),
    ("move(1)" + ")" * 100000, "unexpected ')'"),
    ("attack(" + "9" * 5000 + ")", "(5000 digits) is out of range"),   # int() refuses > 4300 digits
    ("attack(", "found the end of the expression"),
    ("attack(2,", "found the end of the expression"),
    ("handler(", "found the end of the expression"),
])
def test_long_or_truncated_text_gives_one_short_error(text, fragment):
    with pytest.raises(EffectError) as info:
        parse_effect(text)
    msg = str(info.value)
    assert fragment in msg and "\n" not in msg and len(msg) < 300


REGISTRY = {"ice_shield_block": ("advanced", ("block", "armor")),
            "mana_cost": ("advanced", ("colour", "optional", "then")),
            "split_block": ("artifacts", ("n", "count", "element"))}


@pytest.mark.parametrize("text, fragment", [
    ("handler(ice_shield_block, blok=3, armor=-3)", "no argument 'blok'; the engine's handler takes block, armor"),
    ("handler(ice_shield_blok, block=3, armor=-3)", "implements no handler 'ice_shield_blok'"),
    ("handler(ice_shield_block, block=3)", "missing argument 'armor'"),
    ("handler(ice_shield_block, block=-3, armor=-3)", "'block' must be in 0 .. 9999, got -3"),
    ("handler(ice_shield_block, block=3, armor=-100)", "'armor' must be in -99 .. 99"),
    ("handler(ice_shield_block, block=red, armor=-3)", "'block' must be a whole number, not 'red'"),
    ("handler(ice_shield_block, block=move(1), armor=-3)", "'block' must be a number or a word, not an effect"),
    ("handler(mana_cost, colour=blue, optional=2, then=move(1))", "'optional' must be 0 or 1, got 2"),
    ("handler(mana_cost, colour=fire, optional=1, then=move(1))", "'colour' must be one of red, blue"),
    ("handler(mana_cost, colour=blue, optional=1, then=3)", "'then' must be an effect, not 3"),
    ("handler(split_block, n=4, count=2, element=5)", "'element' must be one of physical"),
    ("choice(block(2), handler(split_block, n=4, count=-2, element=ice))", "'count' must be in 0 .. 9999"),
    ("handler(mana_cost, colour=blue, optional=1, then=handler(nope))", "implements no handler 'nope'"),
    ("handler(mana_cost, colour=blue, optional=1, then=attack(-1))", "attack() argument 'n'"),
])
def test_handlers_are_checked_against_the_declarations(text, fragment):
    with pytest.raises(EffectError) as info:
        fx.check_effect(parse_effect(text), REGISTRY)
    assert fragment in str(info.value)


def test_a_handler_as_declared_is_accepted():
    fx.check_effect(parse_effect("choice(block(3), handler(ice_shield_block, block=3, armor=-3))"), REGISTRY)
    fx.check_effect(parse_effect("handler(mana_cost, colour=any, optional=0, then=handler(split_block, "
                                 "n=4, count=3, element=coldfire))"), REGISTRY)


def test_unknown_handlers_may_pass_only_when_asked_and_their_arguments_are_still_checked():
    fx.check_effect(parse_effect("handler(ritual, n=2)"), REGISTRY, unknown_handlers_ok=True)
    with pytest.raises(EffectError, match="'n' must be in 0 .. 9999"):
        fx.check_effect(parse_effect("handler(ritual, n=-2)"), REGISTRY, unknown_handlers_ok=True)
    with pytest.raises(EffectError, match="implements no handler 'ritual'"):
        fx.check_effect(parse_effect("handler(ritual, n=2)"), REGISTRY)


def test_an_all_of_32_effects_fits_the_engine_stack_and_33_do_not():
    """ext/_types.pxd eval_stack[32]: all() places every effect on it at once
    (ext/_engine.pyx run_effects), so more would stop the game at a size limit."""
    fx.check_effect(parse_effect("all(" + ", ".join(["move(1)"] * 32) + ")"))
    with pytest.raises(EffectError, match="needs 33 places .* holds 32"):
        fx.check_effect(parse_effect("all(" + ", ".join(["move(1)"] * 33) + ")"))
    # nested: the outer all's 30 waiting effects + the inner all's 3
    inner = "all(move(1), move(2), move(3))"
    with pytest.raises(EffectError, match="needs 33 places"):
        fx.check_effect(parse_effect("all(" + ", ".join([inner] + ["move(1)"] * 30) + ")"))
    fx.check_effect(parse_effect("all(" + ", ".join(["move(1)"] * 30 + [inner]) + ")"))   # resolved last: 31


def test_the_shipped_effects_need_at_most_a_few_stack_places(content):
    assert max(fx.stack_need(n) for n in content.parsed.values()) <= 8
