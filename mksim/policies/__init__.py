"""Policies: the decision makers that play simulated games (interface, registry, built-ins).

>>> from mksim.policies import get_policy, list_policies
>>> "random" in list_policies()
True
>>> policy = get_policy("random")
>>> policy = parse_policy_spec("eager:default=2.0")

Every policy is a :class:`Policy` (``mksim/policies/base.py``); ``get_policy(name,
**params)`` builds a registered one and :func:`parse_policy_spec` builds one from a
command-line spec (``NAME:key=value,...`` or ``path/file.py:ClassName``).  New policies
subclass :class:`Policy` (no compilation needed), decorate the class with :func:`register`
or declare it in the entry-point group ``mksim.policies``, and inherit the shared tests in
``tests/policy_conformance.py``.  docs/policies.md has a complete example.
"""
from .base import METADATA_DEFAULTS, Parameter, Policy
from .registry import (ENTRY_POINT_GROUP, PolicyError, describe_policy, get_policy, list_policies,
                       load_entry_points, parse_policy_spec, policy_class, register, resolve_policy,
                       unregister)
from . import builtin  # noqa: F401  (registers the built-in policies)
from . import search  # noqa: F401  (registers the search policy)

ACTION_SHIFT = 20   # an action is kind << ACTION_SHIFT | argument (ext/_engine.pxd)


def action_kind(action: int) -> str:
    """The kind of an action code in words (``"move"``, ``"explore"``, ``"attack"`` ...;
    ``mksim._engine.KIND_NAMES``)."""
    from .._engine import KIND_NAMES
    kind = int(action) >> ACTION_SHIFT
    return KIND_NAMES.get(kind, f"kind{kind}")

__all__ = ["Policy", "Parameter", "PolicyError", "METADATA_DEFAULTS", "ENTRY_POINT_GROUP",
           "get_policy", "list_policies", "policy_class", "register", "unregister",
           "parse_policy_spec", "resolve_policy", "describe_policy", "load_entry_points",
           "action_kind", "ACTION_SHIFT"]
