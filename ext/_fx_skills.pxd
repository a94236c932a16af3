# Header of ext/_fx_skills.pyx: the Skills' handler group (a module of its own).  The
# handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); declared here are the helpers another group may share.
# (Nothing is shared yet: special_now, which the skills' handlers use, is the engine's,
# declared in ext/_engine.pxd.)
