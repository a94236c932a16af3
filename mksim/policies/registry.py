"""The policy registry: names to :class:`~mksim.policies.base.Policy` classes, and the
policy specs of the command line.

Three ways in:

* built-ins and anything decorated with :func:`register`;
* third-party packages, through the entry-point group ``mksim.policies`` (each entry point
  names a Policy subclass; it is registered under the entry point's name), loaded the first
  time the registry is read;
* a file: ``path/to/file.py:ClassName`` (a spec, see :func:`parse_policy_spec`).

A spec is ``NAME`` or ``NAME:key=value,key=value`` or ``path/file.py:ClassName[:key=value,...]``.
Values are converted by the type annotations of the class's ``__init__`` (int, float,
bool, str).  Every mistake raises :class:`PolicyError` (a ValueError) with one clear line.
"""
from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any, Optional

from .base import Policy

ENTRY_POINT_GROUP = "mksim.policies"

_REGISTRY: dict[str, type[Policy]] = {}
_PLUGIN_ERRORS: dict[str, str] = {}       # entry point name -> why it could not be loaded
_entry_points_loaded = False


class PolicyError(ValueError):
    """A policy spec or parameter that cannot be used (one line, names what is wrong)."""


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def register(cls: type[Policy], name: Optional[str] = None) -> type[Policy]:
    """Class decorator: make ``cls`` available as ``get_policy(cls.name)`` (or ``name``)."""
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise TypeError("only Policy subclasses can be registered")
    name = name or cls.name
    if not name:
        raise ValueError(f"{cls.__name__} has no name")
    key = _key(name)
    if key in _REGISTRY and _REGISTRY[key] is not cls:
        raise ValueError(f"a policy called {name!r} is already registered")
    if cls.metadata.get("sees_hidden") and not key.startswith("oracle-"):
        raise ValueError(f"policy {name!r} sees hidden information: its name must start with 'oracle-'")
    _REGISTRY[key] = cls
    return cls


def unregister(name: str) -> None:
    """Remove ``name`` from the registry (for tests and plug-in reloads)."""
    _REGISTRY.pop(_key(name), None)


def load_entry_points(reload: bool = False) -> None:
    """Register the Policy subclasses that installed packages declare in the entry-point
    group ``mksim.policies`` (``name = "package.module:ClassName"``).  A broken entry point
    does not stop the others: :func:`policy_class` reports it when asked for by name."""
    global _entry_points_loaded
    if _entry_points_loaded and not reload:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        key = _key(ep.name)
        try:
            cls = ep.load()
            if not (isinstance(cls, type) and issubclass(cls, Policy)):
                raise TypeError(f"{ep.value} is not a subclass of mksim.Policy")
            if _REGISTRY.get(key) is cls:
                continue
            if not cls.name:
                cls.name = key
            register(cls, ep.name)
            _PLUGIN_ERRORS.pop(key, None)
        except Exception as err:            # a plug-in's own bug: keep it out, say why
            _PLUGIN_ERRORS[key] = f"entry point {ep.name} = {ep.value} ({ENTRY_POINT_GROUP}) failed to load: {err}"


def list_policies() -> list[str]:
    """Names of the registered policies, sorted (entry points included)."""
    load_entry_points()
    return sorted(_REGISTRY)


def policy_class(name: str) -> type[Policy]:
    """The class registered as ``name``; PolicyError listing the known names otherwise."""
    load_entry_points()
    key = _key(name)
    if key not in _REGISTRY:
        if key in _PLUGIN_ERRORS:
            raise PolicyError(f"policy {name!r}: {_PLUGIN_ERRORS[key]}")
        raise PolicyError(f"unknown policy {name!r}; known: {', '.join(list_policies())} "
                          f"(or path/to/file.py:ClassName)")
    return _REGISTRY[key]


def _check_params(cls: type[Policy], label: str, params: dict) -> None:
    specs = {p.name: p for p in cls.parameter_specs()}
    takes_any = any(p.kind == p.VAR_KEYWORD for p in inspect.signature(cls.__init__).parameters.values()) \
        if cls.__init__ is not Policy.__init__ else False
    for k in params:
        if k not in specs and not takes_any:
            known = ", ".join(f"{p.name} ({p.type_name})" for p in specs.values()) or "none"
            raise PolicyError(f"policy {label!r} has no parameter {k!r}; its parameters: {known}")
    for p in specs.values():
        if p.required and p.name not in params:
            raise PolicyError(f"policy {label!r} needs parameter {p.name!r} ({p.type_name})")


def build(cls: type[Policy], label: str, params: dict) -> Policy:
    """``cls(**params)`` with checked parameter names; a constructor's ValueError /
    TypeError (a value it refuses) becomes a PolicyError naming the policy."""
    _check_params(cls, label, params)
    try:
        return cls(**params)
    except (TypeError, ValueError) as err:
        raise PolicyError(f"policy {label!r}: {err} (parameters {params!r})") from None


def get_policy(name: str, **params: Any) -> Policy:
    """A new policy ``name`` built with ``params`` (Python values, not converted).

    Raises
    ------
    PolicyError
        Unknown name, or parameters the policy does not take or refuses.
    """
    return build(policy_class(name), name, params)


# ---------------------------------------------------------------------------------------
# specs: NAME:key=value,...   path/file.py:Class[:key=value,...]
# ---------------------------------------------------------------------------------------

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def convert_value(label: str, p, text: str) -> Any:
    """``text`` as the parameter's declared type (int, float, bool, str)."""
    t = p.type
    raw = text.strip()
    if t is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise PolicyError(f"policy {label!r}: parameter {p.name!r} takes true or false, not {text!r}")
    if t is int:
        try:
            return int(raw)
        except ValueError:
            raise PolicyError(f"policy {label!r}: parameter {p.name!r} takes a whole number, not {text!r}") from None
    if t is float:
        try:
            return float(raw)
        except ValueError:
            raise PolicyError(f"policy {label!r}: parameter {p.name!r} takes a number, not {text!r}") from None
    if t is str or t is None:
        return raw
    raise PolicyError(f"policy {label!r}: parameter {p.name!r} ({p.type_name}) cannot be set from "
                      f"a spec; build the policy in Python")


def parse_params(cls: type[Policy], label: str, text: str) -> dict:
    """``key=value,key=value`` converted by ``cls``'s parameter types."""
    specs = {p.name: p for p in cls.parameter_specs()}
    out: dict = {}
    for item in (x for x in text.split(",") if x.strip()):
        if "=" not in item:
            raise PolicyError(f"policy {label!r}: expected key=value, got {item.strip()!r}")
        k, v = item.split("=", 1)
        k = k.strip().replace("-", "_")
        if k not in specs:
            known = ", ".join(f"{p.name} ({p.type_name})" for p in specs.values()) or "none"
            raise PolicyError(f"policy {label!r} has no parameter {k!r}; its parameters: {known}")
        if k in out:
            raise PolicyError(f"policy {label!r}: parameter {k!r} given twice")
        out[k] = convert_value(label, specs[k], v)
    return out


def load_policy_file(path: str, class_name: str) -> type[Policy]:
    """The Policy subclass ``class_name`` defined in the Python file ``path``.

    The file is imported as its own module (named after its resolved path), and marked
    to be pickled by value so that worker processes of a parallel run need not import it.
    """
    p = Path(path)
    if not p.is_file():
        raise PolicyError(f"policy file {path!r} does not exist")
    mod_name = "mksim_plugin_" + hashlib.sha1(str(p.resolve()).encode()).hexdigest()[:12]
    module = sys.modules.get(mod_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(mod_name, p)
        if spec is None or spec.loader is None:
            raise PolicyError(f"policy file {path!r} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as err:
            del sys.modules[mod_name]
            raise PolicyError(f"policy file {path!r} failed to import: {type(err).__name__}: {err}") from None
        _pickle_by_value(module)
    cls = getattr(module, class_name, None)
    if cls is None:
        found = [n for n, v in vars(module).items()
                 if isinstance(v, type) and issubclass(v, Policy) and v is not Policy]
        raise PolicyError(f"policy file {path!r} has no class {class_name!r}"
                          + (f"; it defines {', '.join(sorted(found))}" if found else ""))
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise PolicyError(f"{path}:{class_name} is not a subclass of mksim.Policy")
    if cls.metadata.get("sees_hidden") and not _key(cls.name or "").startswith("oracle-"):
        raise PolicyError(f"{path}:{class_name} sees hidden information: its name must start with 'oracle-'")
    return cls


def _pickle_by_value(module) -> None:
    """Let loky's cloudpickle ship the file's classes by value to worker processes."""
    try:
        import cloudpickle
    except ImportError:                     # a dependency (pyproject.toml); without it parallel
        return                              # runs need the file importable by the workers
    cloudpickle.register_pickle_by_value(module)


def _split_file_spec(spec: str) -> Optional[tuple[str, str, str]]:
    """(path, class, params) when ``spec`` names a .py file, else None."""
    head, sep, rest = spec.partition(".py:")
    if not sep:
        return None
    cls, _, params = rest.partition(":")
    return head + ".py", cls.strip(), params


def parse_policy_spec(spec: str) -> Policy:
    """A policy from a command-line spec.

    ``NAME``, ``NAME:key=value,key=value`` (a registered policy) or
    ``path/to/file.py:ClassName`` / ``path/to/file.py:ClassName:key=value,...``.

    Raises
    ------
    PolicyError
        Unknown policy, unknown parameter, a value of the wrong type, a missing file or
        class: one line naming what is wrong.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PolicyError("empty policy spec; give NAME, NAME:key=value,... or path/file.py:ClassName")
    spec = spec.strip()
    f = _split_file_spec(spec)
    if f is not None:
        path, cls_name, ptext = f
        if not cls_name:
            raise PolicyError(f"policy spec {spec!r}: name the class, path/file.py:ClassName")
        cls = load_policy_file(path, cls_name)
        label = f"{path}:{cls_name}"
    else:
        name, _, ptext = spec.partition(":")
        cls = policy_class(name)
        label = name.strip()
    return build(cls, label, parse_params(cls, label, ptext))


def resolve_policy(spec) -> Policy:
    """A :class:`Policy` from a Policy (returned as is), a spec string
    (:func:`parse_policy_spec`) or a ``(name, {params})`` pair."""
    if isinstance(spec, Policy):
        return spec
    if isinstance(spec, str):
        return parse_policy_spec(spec)
    if isinstance(spec, tuple) and len(spec) == 2:
        return get_policy(spec[0], **dict(spec[1]))
    raise PolicyError(f"a policy must be a Policy, a spec string or (name, params), not {spec!r}")


def describe_policy(cls: type[Policy]) -> dict:
    """Name, description, parameters (name, type, default, help) and metadata of ``cls``."""
    params = []
    for p in cls.parameter_specs():
        params.append({"name": p.name, "type": p.type_name,
                       "default": None if p.required else p.default, "required": p.required,
                       "help": p.help})
    return {"name": cls.name, "class": f"{cls.__module__}.{cls.__qualname__}",
            "description": " ".join((cls.description or (cls.__doc__ or "")).split()),
            "parameters": params, "metadata": dict(cls.metadata)}
