# Header of ext/_effects.pyx: the effect interpreter (6.3), a module of its own (issue 12,
# "Effects as a module with a registry").
#
# An effect is a tree of rows of EngineStatics.effects (op a0 a1 a2 first_child n_children,
# mksim.effects).  To resolve one, its root row is pushed on TurnState.eval_stack
# (push_eval, an inline helper of _engine.pxd shared by the engine, this module and the
# handler groups) and run_effects pops rows until the stack is empty or a decision is
# needed: a choice(...) or an "any colour" gain (TurnState.pending_choice, A_CHOOSE), or a
# handler's question (ask(), TurnState.handler_row).
#
# The context.  EffectContext (_engine.pxd) names the two players an effect involves:
#     actor   the player whose effect resolves (the handlers' `p`; Mana, Crystals, Fame,
#             Wounds, modifiers are this player's)
#     asked   the seat that must answer a question the effect raises; the interpreter
#             refreshes it from gs.current after every handler (a handler that needs
#             another seat's answer sets gs.current, docs/engine.md "Questions to another
#             player"); gs.current stays the record that outlives the call (fixtures,
#             State.current_player)
# The engine builds it at each entry point (effect_context(gs, actor); answer_context for
# the answer to a handler's question) and passes it by value.
#
# Layering.  This module cimports the engine primitives it needs from _engine.pxd (Cython's
# C API: one function pointer each, looked up at import); the engine cannot cimport a
# module that cimports it, so it calls the three entry points marked [engine] through the
# Interpreter table this module registers when imported (register_interpreter; the engine
# imports it before the handler groups, _load_handler_modules).  Handler groups cimport
# what they call from here.
from mksim._types cimport GameState
from mksim._state cimport Statics
from mksim._engine cimport EngineStatics, EffectContext

# [engine] Can the effect row `row` do something now (timing table 6.3.3)?  For the player
# whose turn state gs holds; used for legality, so it only reads.
cdef bint node_playable(const GameState* gs, const EngineStatics* es, int row) noexcept nogil

# [engine] Resolve the rows on the eval stack for ctx.actor: RES_DONE (the stack is empty; a
# Deed card's EV_CARD_PLAYED has fired), RES_CHOICE (a decision is pending) or RES_ERROR
# (gs.error is set).
cdef int run_effects(GameState* gs, const EngineStatics* es, const Statics* st,
                     EffectContext ctx) noexcept nogil

# [engine] Move points have a use in this combat (Agility, Wings of Night, Cumbersome).
cdef bint combat_move_usable(const GameState* gs, const EngineStatics* es) noexcept nogil

# One plain (non-combinator) row for ctx.actor, card bonuses included (Flame Wave's handler
# applies its Attack / Block row with it).
cdef int apply_op(GameState* gs, const EngineStatics* es, const Statics* st, EffectContext ctx,
                  int row) noexcept nogil
