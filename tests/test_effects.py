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
