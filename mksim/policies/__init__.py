"""Policies: the decision makers that play simulated games (interface, registry, built-ins).

>>> from mksim.policies import get_policy, list_policies
>>> list_policies()
['first', 'random']
>>> policy = get_policy("random")

Every policy is a :class:`Policy` (``mksim/policies/base.py``); ``get_policy(name,
**params)`` builds a registered one.  New policies subclass :class:`Policy`, decorate the
class with :func:`register` and inherit the shared tests in ``tests/test_policies.py``.
"""
from .base import Policy
from .registry import get_policy, list_policies, policy_class, register
from . import builtin  # noqa: F401  (registers the built-in policies)

__all__ = ["Policy", "get_policy", "list_policies", "policy_class", "register"]
