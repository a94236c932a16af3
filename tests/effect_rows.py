"""Decoding compiled effect rows back into nodes, for tests.

Written from the row layout documented in ``mksim.effects.EffectCompiler`` only, so that
compiling and decoding checks the compiler against its documentation.
"""
from __future__ import annotations

from mksim import effects as fx
from mksim.effects import Node


def decode(rows, handlers, arg_keys, handler_args, row):
    """Rebuild a Node from compiled rows, using only the layout in the EffectCompiler docstring.
    Handler word arguments whose name is not a word list are returned as ("word", code)."""
    op_code, a0, a1, a2, first, n = (int(x) for x in rows[row])
    op = fx.OPS[op_code]
    kids = [decode(rows, handlers, arg_keys, handler_args, first + k) for k in range(n)]
    if op.variadic:
        return Node(op.name, {}, kids)
    if op.name == "handler":
        args = {"name": handlers[a0]}
        for key_id, kind, value in handler_args[a1:a1 + a2]:
            key_id, kind, value = int(key_id), int(kind), int(value)
            key = arg_keys[key_id]
            if kind == 0:
                args[key] = value
            elif kind == 1:  # a word: coded in the list named like the argument, if any
                if key in fx.ENUMS:
                    args[key] = fx.ENUMS[key][value]
                elif key == "time":
                    args[key] = fx.TIMES[value]
                else:
                    args[key] = ("word", value)
            else:
                assert kind == 2 and first <= value < first + n
                args[key] = kids[value - first]
        return Node("handler", args)
    args, slots, it = {}, [a0, a1, a2], iter(kids)
    slot = 0
    for p in op.params:
        if p.type == fx.EFFECT:
            args[p.name] = next(it)
        else:
            v = slots[slot]
            slot += 1
            args[p.name] = v if p.type == fx.INT else fx.ENUMS[p.type][v]
    return Node(op.name, args)
