"""The policy registry: names to :class:`~mksim.policies.base.Policy` classes."""
from __future__ import annotations

from typing import Any

from .base import Policy

_REGISTRY: dict[str, type[Policy]] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def register(cls: type[Policy]) -> type[Policy]:
    """Class decorator: make ``cls`` available as ``get_policy(cls.name)``."""
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise TypeError("only Policy subclasses can be registered")
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    key = _key(cls.name)
    if key in _REGISTRY and _REGISTRY[key] is not cls:
        raise ValueError(f"a policy called {cls.name!r} is already registered")
    _REGISTRY[key] = cls
    return cls


def list_policies() -> list[str]:
    """Names of the registered policies, sorted."""
    return sorted(_REGISTRY)


def policy_class(name: str) -> type[Policy]:
    """The class registered as ``name``; ValueError listing the known names otherwise."""
    key = _key(name)
    if key not in _REGISTRY:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(list_policies())}")
    return _REGISTRY[key]


def get_policy(name: str, **params: Any) -> Policy:
    """A new policy ``name`` built with ``params``.

    Raises
    ------
    ValueError
        Unknown name, or parameters the policy does not take.
    """
    cls = policy_class(name)
    try:
        return cls(**params)
    except TypeError as err:
        raise ValueError(f"policy {name!r}: bad parameters {params!r} ({err})") from None


def _spec_value(text: str) -> Any:
    """A ``k=v`` value as the command line gives it: bool, int, float, else the string."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text.strip()


def parse_policy_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"NAME[:k=v,...]"`` -> ``(name, params)`` (e.g. ``"eager:default=2,stream=1"``).

    Values are read as bool (true/false), int, float or, failing those, a string.  The name is
    not checked here (:func:`get_policy` does it).  Raises ValueError for an empty name, a
    parameter without ``=`` or a repeated parameter.
    """
    name, _, rest = str(spec).partition(":")
    name = name.strip()
    if not name:
        raise ValueError(f"policy {spec!r}: no policy name before ':'")
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"policy {spec!r}: parameter {item!r} is not key=value")
        if key.strip() in params:
            raise ValueError(f"policy {spec!r}: parameter {key.strip()!r} given twice")
        params[key.strip()] = _spec_value(value)
    return name, params
