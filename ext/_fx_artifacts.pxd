# Header of ext/_fx_artifacts.pyx: the Artifact cards' handler group (a module of its own).
# The handlers themselves are reached through the group's registry (HandlerEntry,
# ext/_engine.pxd); what the turn flow calls of the Artifacts' rules is engine code
# (ext/_engine_artifacts.pxi, declared in ext/_engine.pxd).  Nothing here is shared with
# another group yet.
