"""The effect vocabulary: how card, unit, skill and tactic effects are written as data.

Effects are written as small call expressions in the content files, for example::

    basic   = "choice(attack(2), block(2))"          # Rage
    powered = "attack(3, element=fire, kind=ranged)"  # a Ranged Fire Attack 3
    basic   = "by_time(day=move(1), night=move(2))"   # Arythea's Dark Paths

An expression is an *operation* name followed by arguments in parentheses.  Arguments are
whole numbers, words from a fixed list (colours, elements, terrains ...), or further
expressions.  Every operation has a signature below; the loader checks each expression
against it, so a typo in a content file is reported with the file, entry and field.

Card rules that are too particular to be worth a general operation are written as a
*named handler*: ``handler(concentration, bonus=2)``.  The engine declares the handlers it
implements with the arguments each reads (``mksim._engine.handler_registry()``); the
loader checks every handler name and argument against those declarations
(:func:`check_effect`), so a typo is bad content, not a failure during a game.  The
numbers that a designer may want to change stay in the data as keyword arguments.

The compiled form is a flat ``int32`` table (one row per node, see :func:`compile_effects`)
that the Cython core walks without touching Python objects.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------------------
# Word lists (enumerations).  The order of each tuple is the integer code used by the core
# (ext/_types.pxd mirrors these orders; tests/test_effects.py checks that they agree).
# ---------------------------------------------------------------------------------------

#: Mana colours, rule 5.1.1.  Basic colours first so that ``code < 4`` means basic.
MANA_COLOURS = ("red", "blue", "white", "green", "gold", "black")
BASIC_COLOURS = MANA_COLOURS[:4]
#: Colour choices an effect may offer: a fixed colour, or a choice made when it resolves.
COLOUR_CHOICES = MANA_COLOURS + ("any", "any_basic")
#: Card colours (rule 5.4.6); artifacts and wounds have none.
CARD_COLOURS = BASIC_COLOURS + ("colourless",)
#: Attack and block elements, rule 11.9.1.
ELEMENTS = ("physical", "fire", "ice", "coldfire")
#: Attack delivery, rule 11.9.1.
ATTACK_KINDS = ("melee", "ranged", "siege")
#: Terrains, rule 9.2.
TERRAINS = ("plains", "hills", "forest", "wasteland", "desert", "swamp", "lake", "mountain")
TERRAIN_CHOICES = TERRAINS + ("all",)
#: Which enemies an enemy-targeting effect reaches.
TARGETS = ("one", "all")
#: Times of day, rule 2.1.
TIMES = ("day", "night")

ENUMS: dict[str, tuple[str, ...]] = {
    "colour": COLOUR_CHOICES,
    "element": ELEMENTS,
    "kind": ATTACK_KINDS,
    "terrain": TERRAIN_CHOICES,
    "target": TARGETS,
}

#: Largest magnitude of a number in an effect (the core keeps them in small C ints).
MAX_NUMBER = 9999
#: Deepest nesting of an effect expression (``all(choice(...))`` is 2 deep).  The shipped
#: content nests at most 4 deep; the bound keeps the parser and the core's evaluation
#: stack small and turns a runaway expression into one error line.
MAX_DEPTH = 32
#: Places of the core's stack of effect rows still to resolve (ext/_types.pxd
#: ``TurnState.eval_stack``): ``all()`` puts all its effects there at once.
EVAL_STACK = 32
#: Bounds of amounts (see OPS): points and counts kept in 16-bit fields, mana tokens and
#: Source dice in 8-bit ones, terrain cost changes in 8-bit ones (ext/_types.pxd).
POINTS_MAX = 99
TOKENS_MAX = 9
TERRAIN_MAX = 9
REPUTATION_STEPS = 15

# Argument types of a signature.
INT, EFFECT, WORD = "int", "effect", "word"


@dataclass(frozen=True)
class Param:
    """One parameter of an operation.

    ``min`` / ``max`` bound a number (INT) when content is validated (:func:`check_effect`;
    the parser alone accepts any number up to :data:`MAX_NUMBER` either way).
    """

    name: str
    type: str  # INT, EFFECT, or the name of an entry of ENUMS
    default: object = None  # None means required
    min: int | None = None
    max: int | None = None

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class Op:
    """An operation of the vocabulary."""

    name: str
    params: tuple[Param, ...] = ()
    variadic: bool = False  # takes 2 or more effect arguments (choice, all)
    doc: str = ""


def _op(name, *params, variadic=False, doc=""):
    return Op(name, tuple(params), variadic, doc)


#: The vocabulary.  Codes are positions in this tuple (0 is reserved for "no effect").
OPS: tuple[Op, ...] = (
    _op("nothing", doc="No effect (e.g. a Wound, rule 6.1.6)."),
    # --- combinators -------------------------------------------------------------------
    _op("choice", variadic=True, doc="The player chooses exactly one of the effects."),
    _op("all", variadic=True, doc="All of the effects, in the order written."),
    _op("by_time", Param("day", EFFECT), Param("night", EFFECT),
        doc="One effect by Day, another at Night (rule 2.1)."),
    # --- points (rules 6.3.1, 9.3.2, 10.2.2, 11, 12.3) --------------------------------
    # Bounds (checked by check_effect): a gain of 0 does nothing and a negative one would
    # take points out of a pool the engine assumes only grows, so gains are 1 or more; the
    # upper bounds keep sums inside the core's small integer fields (ext/_types.pxd).
    _op("move", Param("n", INT, min=1, max=POINTS_MAX), doc="Gain n Move points."),
    _op("influence", Param("n", INT, min=1, max=POINTS_MAX), doc="Gain n Influence points."),
    _op("attack", Param("n", INT, min=1, max=POINTS_MAX), Param("element", "element", "physical"),
        Param("kind", "kind", "melee"), doc="Attack n (Ranged/Siege by kind)."),
    _op("block", Param("n", INT, min=1, max=POINTS_MAX), Param("element", "element", "physical"),
        doc="Block n."),
    _op("heal", Param("n", INT, min=1, max=POINTS_MAX), doc="Gain n Healing points (rule 12.3)."),
    # --- resources ---------------------------------------------------------------------
    _op("draw", Param("n", INT, min=1, max=POINTS_MAX), doc="Draw n cards from the Deed deck."),
    _op("gain_mana", Param("colour", "colour"), Param("n", INT, 1, min=1, max=TOKENS_MAX),
        doc="Gain n mana tokens (rule 5.3.1)."),
    _op("gain_crystal", Param("colour", "colour"), Param("n", INT, 1, min=1, max=TOKENS_MAX),
        doc="Gain n crystals; overflow becomes a token (rule 5.3.2)."),
    _op("fame", Param("n", INT, min=1, max=POINTS_MAX),
        doc="Gain n Fame (the core only adds Fame: a loss would have to walk the level track back)."),
    _op("reputation", Param("n", INT, min=-REPUTATION_STEPS, max=REPUTATION_STEPS),
        doc="Move n steps on the Reputation track (10.4; 16 spaces, so at most 15 either way)."),
    _op("take_wound", Param("n", INT, 1, min=1, max=POINTS_MAX), doc="Take n Wound cards into hand."),
    _op("ready_unit", Param("max_level", INT, min=1, max=4),
        doc="Ready one Spent Unit of level <= max_level (unit levels I-IV, 7.1.3)."),
    _op("heal_unit", doc="Remove one Wound from one of your Units (rule 12.3.4)."),
    # --- rule changes for the turn -----------------------------------------------------
    _op("terrain_cost", Param("terrain", "terrain"), Param("delta", INT, min=-TERRAIN_MAX, max=TERRAIN_MAX),
        Param("floor", INT, 0, min=0, max=TERRAIN_MAX), doc="Change a terrain's move cost this turn (9.6.2)."),
    _op("enemy_armor", Param("delta", INT, min=-POINTS_MAX, max=POINTS_MAX), Param("target", "target", "one"),
        Param("floor", INT, 1, min=1, max=POINTS_MAX),
        doc="Change enemy Armor this combat (min floor; Armor is never below 1)."),
    _op("enemy_no_attack", Param("target", "target", "one"),
        doc="The enemy does not attack this combat."),
    _op("extra_source_die", Param("n", INT, 1, min=1, max=TOKENS_MAX),
        doc="Use n more Source dice this turn (5.5.6)."),
    # --- everything else ---------------------------------------------------------------
    _op("handler", Param("name", "name"),
        doc="A named rule implemented in the engine; keyword arguments carry its numbers."),
)
OP_CODES: dict[str, int] = {op.name: i for i, op in enumerate(OPS)}
OP_BY_NAME: dict[str, Op] = {op.name: op for op in OPS}

# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------


class EffectError(ValueError):
    """An effect expression is malformed; the message says what and where in the text."""


@dataclass
class Node:
    """A parsed effect expression."""

    op: str
    args: dict[str, object] = field(default_factory=dict)  # name -> int | str | Node
    children: list["Node"] = field(default_factory=list)  # variadic effects

    def __str__(self) -> str:
        parts = [str(c) for c in self.children]
        if self.op == "handler":  # the handler name is positional: handler(name, k=v)
            parts.append(str(self.args["name"]))
            parts += [f"{k}={v}" for k, v in self.args.items() if k != "name"]
        else:
            parts += [f"{k}={v}" for k, v in self.args.items()]
        return f"{self.op}({', '.join(parts)})"


_TOKEN = re.compile(r"\s*(?:(-?\d+)|([A-Za-z_][A-Za-z0-9_]*)|(.))")


def _tokens(text: str):
    pos = 0
    out = []
    end = len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            break
        if m.group(1) is not None:
            digits = m.group(1)
            # a huge literal is out of range anyway; int() refuses over 4300 digits
            value = int(digits) if len(digits) <= 12 else (-1 if digits[0] == "-" else 1) * 10 ** 12
            out.append(("int", value, m.start(1)))
        elif m.group(2) is not None:
            out.append(("word", m.group(2), m.start(2)))
        elif m.group(3) is not None:
            out.append(("punct", m.group(3), m.start(3)))
        pos = m.end()
    out.append(("end", None, len(text)))
    return out


def shown_text(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut in the middle when long (an error message stays one short line)."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit // 2]) + f" ... ({len(text)} characters) ... " + repr(text[-limit // 4:])


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0

    def peek(self):
        return self.toks[self.i]

    def peek2(self):
        """The token after the next one (the end token when there is none)."""
        return self.toks[min(self.i + 1, len(self.toks) - 1)]

    def take(self):
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def fail(self, msg: str, pos: int | None = None):
        if pos is None:
            pos = self.peek()[2]
        raise EffectError(f"{msg} at column {pos + 1} of {shown_text(self.text)}")

    def expect(self, punct: str):
        kind, val, pos = self.take()
        if kind != "punct" or val != punct:
            self.fail(f"expected {punct!r}, found {_found(kind, val)}", pos)

    def parse(self) -> Node:
        node = self.expr()
        if self.peek()[0] != "end":
            self.fail(f"unexpected {self.peek()[1]!r} after the expression")
        return node

    def expr(self) -> Node:
        kind, name, pos = self.take()
        if kind != "word":
            self.fail(f"expected an operation name, found {_found(kind, name)}", pos)
        if self.depth >= MAX_DEPTH:  # bounded here, so no deep recursion anywhere later
            self.fail(f"the expression is nested more than {MAX_DEPTH} levels deep", pos)
        self.depth += 1
        try:
            return self._call(name, pos)
        finally:
            self.depth -= 1

    def _call(self, name: str, pos: int) -> Node:
        op = OP_BY_NAME.get(name)
        if op is None:
            self.fail(f"unknown operation {name!r} (known: {', '.join(sorted(OP_BY_NAME))})", pos)
        self.expect("(")
        positional: list[tuple[object, int]] = []
        keywords: dict[str, object] = {}
        if not (self.peek()[0] == "punct" and self.peek()[1] == ")"):
            while True:
                kind, val, apos = self.peek()
                nxt = self.peek2()
                if kind == "word" and nxt[0] == "punct" and nxt[1] == "=":
                    self.take()
                    self.take()
                    if val in keywords:
                        self.fail(f"argument {val!r} given twice", apos)
                    keywords[val] = self.value()
                else:
                    if keywords:
                        self.fail("positional argument after a keyword argument", apos)
                    positional.append((self.value(), apos))
                kind, val, apos = self.peek()
                if kind == "punct" and val == ",":
                    self.take()
                    continue
                break
        self.expect(")")
        return self.bind(op, positional, keywords, pos)

    def value(self):
        kind, val, pos = self.peek()
        if kind == "int":
            self.take()
            if abs(val) > MAX_NUMBER:
                shown = re.match(r"-?\d+", self.text[pos:]).group(0)
                shown = shown if len(shown) <= 20 else f"{shown[:12]}... ({len(shown)} digits)"
                self.fail(f"number {shown} is out of range (at most {MAX_NUMBER} either way)", pos)
            return val
        if kind == "word":
            nxt = self.peek2()
            if nxt[0] == "punct" and nxt[1] == "(":
                return self.expr()
            self.take()
            return val
        self.fail(f"expected a number, word or expression, found {_found(kind, val)}", pos)

    def bind(self, op: Op, positional, keywords, pos) -> Node:
        node = Node(op.name)
        if op.variadic:
            if keywords:
                self.fail(f"{op.name}() takes no keyword arguments", pos)
            if len(positional) < 2:
                self.fail(f"{op.name}() needs at least two effects", pos)
            for val, apos in positional:
                if not isinstance(val, Node):
                    self.fail(f"{op.name}() takes effects, not {val!r}", apos)
                node.children.append(val)
            return node
        if op.name == "handler":
            if len(positional) != 1 or not isinstance(positional[0][0], str):
                self.fail("handler() needs exactly one handler name, e.g. handler(concentration)", pos)
            node.args["name"] = positional[0][0]
            for k, v in keywords.items():
                if isinstance(v, Node):
                    node.args[k] = v
                elif isinstance(v, int) or _known_word(v):
                    node.args[k] = v
                else:
                    self.fail(f"handler argument {k}={v!r} is not a number, known word or effect", pos)
            return node
        if len(positional) > len(op.params):
            self.fail(f"{op.name}() takes at most {len(op.params)} arguments, got {len(positional)}", pos)
        given: dict[str, object] = {}
        for param, (val, _apos) in zip(op.params, positional):
            given[param.name] = val
        names = {p.name for p in op.params}
        for k, v in keywords.items():
            if k not in names:
                self.fail(f"{op.name}() has no argument {k!r} (it takes {', '.join(sorted(names)) or 'none'})", pos)
            if k in given:
                self.fail(f"{op.name}() got {k!r} twice", pos)
            given[k] = v
        for param in op.params:
            if param.name not in given:
                if param.required:
                    self.fail(f"{op.name}() is missing its argument {param.name!r}", pos)
                given[param.name] = param.default
            val = given[param.name]
            if param.type == INT:
                if not isinstance(val, int):
                    self.fail(f"{op.name}() argument {param.name!r} must be a whole number, not {val!r}", pos)
            elif param.type == EFFECT:
                if not isinstance(val, Node):
                    self.fail(f"{op.name}() argument {param.name!r} must be an effect, not {val!r}", pos)
            else:
                allowed = ENUMS[param.type]
                if val not in allowed:
                    self.fail(f"{op.name}() argument {param.name!r} must be one of {', '.join(allowed)}; "
                              f"got {val!r}", pos)
            node.args[param.name] = val
        return node


def _found(kind: str, val) -> str:
    return "the end of the expression" if kind == "end" else repr(val)


def _known_word(word: str) -> bool:
    return any(word in words for words in ENUMS.values()) or word in TIMES


def parse_effect(text: str) -> Node:
    """Parse one effect expression; raise :class:`EffectError` naming the problem."""
    if not isinstance(text, str) or not text.strip():
        raise EffectError("an effect must be a non-empty expression such as 'move(2)'")
    return _Parser(text).parse()


def handler_names(node: Node) -> list[str]:
    """All handler names used in an expression (depth first)."""
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.op == "handler":
            out.append(n.args["name"])
        stack.extend(n.children)
        stack.extend(v for v in n.args.values() if isinstance(v, Node))
    return out


# ---------------------------------------------------------------------------------------
# Validation: amounts in range, handlers the engine implements
# ---------------------------------------------------------------------------------------

#: Resistances a handler argument may name (rule 11.4.2).
RESISTANCE_WORDS = ("physical", "fire", "ice")

# What kind of value a handler argument takes, by argument name.  The handler names and
# the argument names each handler reads come from the engine (``handler_registry()`` of
# ext/_engine.pyx, the groups' HANDLER_TABLES); this says only what the names mean.
#: Arguments that are effects (run, or offered, by the handler).
HANDLER_EFFECT_ARGS = frozenset({"base", "boosted", "effect", "lowest_fame", "then",
                                 "red", "blue", "green", "white"})
#: Arguments that are words, with their word lists (coded as ``_any_word_code`` does).
HANDLER_WORD_ARGS: dict[str, tuple[str, ...]] = {
    "colour": COLOUR_CHOICES, "element": ELEMENTS, "resistance": RESISTANCE_WORDS,
    "target": TARGETS, "terrain": TERRAIN_CHOICES,
}
#: Yes / no switches: 0 or 1.
HANDLER_FLAG_ARGS = frozenset({"all_cards", "allow_wound", "any_cards", "attack_phase_only", "curse",
                               "lose_fire_resistance", "optional", "outside_combat", "powered",
                               "ready_units", "safe", "steal", "to_hand", "to_top"})
#: Changes that may be negative (an Armor or Attack reduction, a terrain cost change ...).
HANDLER_SIGNED_ARGS = frozenset({"armor", "armor_delta", "attack_delta", "delta", "fortified_delta",
                                 "own_delta", "others_delta", "per_resistance"})
#: Floors of an enemy's Armor: Armor is never below 1 (11.4.4; _combat keeps it >= 1).
HANDLER_FLOOR_ARGS = frozenset({"floor"})
#: Every other argument is an amount or a count: 0 .. MAX_NUMBER (never negative).


def handler_arg_bounds(arg: str) -> tuple[int, int] | None:
    """Allowed range of a number-valued handler argument; None when it is not a number."""
    if arg in HANDLER_EFFECT_ARGS or arg in HANDLER_WORD_ARGS:
        return None
    if arg in HANDLER_FLAG_ARGS:
        return 0, 1
    if arg in HANDLER_SIGNED_ARGS:
        return -POINTS_MAX, POINTS_MAX   # well clear of the core's "not given" mark (-9999)
    if arg in HANDLER_FLOOR_ARGS:
        return 1, POINTS_MAX
    return 0, MAX_NUMBER


def _handler_arg_problem(name: str, arg: str, val) -> str | None:
    if arg in HANDLER_EFFECT_ARGS:
        return None if isinstance(val, Node) else f"must be an effect, not {val!r}"
    if isinstance(val, Node):
        return "must be a number or a word, not an effect"
    if arg in HANDLER_WORD_ARGS:
        words = HANDLER_WORD_ARGS[arg]
        return None if val in words else f"must be one of {', '.join(words)}; got {val!r}"
    if not isinstance(val, int):
        return f"must be a whole number, not {val!r}"
    lo, hi = handler_arg_bounds(arg)
    if not lo <= val <= hi:
        what = "0 or 1" if (lo, hi) == (0, 1) else f"in {lo} .. {hi}"
        return f"must be {what}, got {val}"
    return None


def stack_need(node: Node) -> int:
    """Most rows of ``node`` on the core's effect stack at once (ext/_engine.pyx run_effects):
    ``all(e0 .. em)`` is replaced by its m + 1 effects and resolves e0 first, with the
    others still waiting; a choice, ``by_time`` or a handler puts back one effect at a time.
    (Recursive, but over at most MAX_DEPTH levels.)"""
    if node.op == "all":
        m = len(node.children)
        return max(m - 1 - k + stack_need(c) for k, c in enumerate(node.children))
    subs = list(node.children) + [v for v in node.args.values() if isinstance(v, Node)]
    return max([1] + [stack_need(c) for c in subs])


def check_effect(node: Node, handlers=None, unknown_handlers_ok: bool = False) -> None:
    """Check a parsed expression beyond its syntax; raise :class:`EffectError`.

    * every number within the bounds of its parameter (``Param.min`` / ``max``: no
      negative or empty gains);
    * with ``handlers`` (``{name: (group, argument names)}``, the engine's
      ``mksim._engine.handler_registry()``): every ``handler(name, ...)`` names a handler
      the engine implements and gives exactly the arguments it declares, each of the kind
      and in the range the handler reads (:func:`handler_arg_bounds`).
      ``unknown_handlers_ok`` lets a name the engine does not implement pass (for entries
      the engine never deals); its arguments are then checked only for kind and range.

    * the rows the expression puts on the core's effect stack at once fit it
      (:func:`stack_need` <= :data:`EVAL_STACK`).

    The walk is iterative: the parser already bounds the depth (:data:`MAX_DEPTH`).
    """
    need = stack_need(node)
    if need > EVAL_STACK:
        raise EffectError(f"the expression needs {need} places on the engine's stack of effects still to "
                          f"resolve, which holds {EVAL_STACK} (all() places all its effects at once)")
    stack = [node]
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        stack.extend(v for v in n.args.values() if isinstance(v, Node))
        if n.op == "handler":
            name = n.args["name"]
            given = [k for k in n.args if k != "name"]
            if handlers is not None and name not in handlers:
                if not unknown_handlers_ok:
                    raise EffectError(f"handler({name}): the engine implements no handler {name!r}")
            elif handlers is not None:
                declared = tuple(handlers[name][1])
                for k in given:
                    if k not in declared:
                        raise EffectError(f"handler({name}): no argument {k!r}; the engine's handler "
                                          f"takes {', '.join(declared) or 'no arguments'}")
                missing = [k for k in declared if k not in n.args]
                if missing:
                    raise EffectError(f"handler({name}): missing argument{'s' if len(missing) > 1 else ''} "
                                      f"{', '.join(map(repr, missing))} (it takes {', '.join(declared)})")
            for k in given:
                problem = _handler_arg_problem(name, k, n.args[k])
                if problem:
                    raise EffectError(f"handler({name}): argument {k!r} {problem}")
            continue
        for param in OP_BY_NAME[n.op].params:
            if param.type != INT:
                continue
            val = n.args[param.name]
            if (param.min is not None and val < param.min) or (param.max is not None and val > param.max):
                raise EffectError(f"{n.op}() argument {param.name!r} must be in {param.min} .. {param.max}, "
                                  f"got {val}")


# ---------------------------------------------------------------------------------------
# Compilation to flat integer tables
# ---------------------------------------------------------------------------------------

#: Columns of a compiled effect row.
ROW_FIELDS = ("op", "a0", "a1", "a2", "first_child", "n_children")
ROW_WIDTH = len(ROW_FIELDS)
#: Handler keyword arguments are stored in a side table: (row, key_id, value) triples.


def _word_code(param_type: str, word: str) -> int:
    return ENUMS[param_type].index(word)


class EffectCompiler:
    """Flattens parsed expressions into rows for the Cython core.

    Row layout (``int32``): ``op, a0, a1, a2, first_child, n_children``.  For ordinary
    operations a0..a2 are the parameters in signature order (words as their enum code).
    Effect-valued parameters (``by_time``) and variadic effects are children: rows
    ``first_child .. first_child + n_children - 1``.  For ``handler`` a0 is the handler id
    (an index into :attr:`handlers`) and a1 the index of its first keyword argument in
    :attr:`handler_args` (a2 = how many); effect-valued keyword arguments become children.
    """

    def __init__(self) -> None:
        self.rows: list[list[int]] = [[0, 0, 0, 0, 0, 0]]  # row 0: nothing()
        self.handlers: list[str] = []
        self.arg_keys: list[str] = []
        self.handler_args: list[tuple[int, int, int]] = []  # (key id, kind 0=int 1=word 2=row, value)

    def handler_id(self, name: str) -> int:
        if name not in self.handlers:
            self.handlers.append(name)
        return self.handlers.index(name)

    def add(self, node: Node, row: int | None = None) -> int:
        """Write ``node`` (and its subtree) at ``row`` (appended when None); return the row."""
        op = OP_BY_NAME[node.op]
        if row is None:
            row = len(self.rows)
            self.rows.append([0, 0, 0, 0, 0, 0])
        out = [OP_CODES[node.op], 0, 0, 0, 0, 0]
        children: list[Node] = list(node.children)
        effect_args: list[int] = []  # handler_args indices whose value is a child row
        if node.op == "handler":
            out[1] = self.handler_id(node.args["name"])
            out[2] = len(self.handler_args)
            for key, val in node.args.items():
                if key == "name":
                    continue
                if key not in self.arg_keys:
                    self.arg_keys.append(key)
                kid = self.arg_keys.index(key)
                if isinstance(val, Node):
                    effect_args.append(len(self.handler_args))
                    self.handler_args.append((kid, 2, -1))
                    children.append(val)
                elif isinstance(val, int):
                    self.handler_args.append((kid, 0, val))
                else:
                    self.handler_args.append((kid, 1, _any_word_code(val, key)))
            out[3] = len(self.handler_args) - out[2]
        else:
            slot = 1
            for param in op.params:
                val = node.args[param.name]
                if param.type == EFFECT:
                    children.append(val)
                    continue
                out[slot] = val if param.type == INT else _word_code(param.type, val)
                slot += 1
        # Children occupy contiguous rows so the core can loop over them by index.
        first = len(self.rows)
        self.rows.extend([0, 0, 0, 0, 0, 0] for _ in children)
        for k, child in enumerate(children):
            self.add(child, first + k)
        for j, idx in enumerate(effect_args):
            kid, kind, _ = self.handler_args[idx]
            self.handler_args[idx] = (kid, kind, first + j)
        if children:
            out[4], out[5] = first, len(children)
        self.rows[row] = out
        return row


def _any_word_code(word: str, key: str = "") -> int:
    """Code of a handler's word argument: in the word list named like the argument
    (``target=all`` -> TARGETS), else in the first list that holds the word."""
    if key in ENUMS and word in ENUMS[key]:
        return ENUMS[key].index(word)
    if key == "time" and word in TIMES:
        return TIMES.index(word)
    for words in ENUMS.values():
        if word in words:
            return words.index(word)
    return TIMES.index(word)
