"""mksim: Monte Carlo simulation and strategy analysis for the Mage Knight board game."""
__version__ = "0.1.0"
__all__ = ["Content", "ContentError", "load_content", "Policy", "__version__"]

#: The names of ``__all__`` that are imported on first use (PEP 562), so that ``import mksim``
#: (and the ``mksim`` command's entry point, ``mksim._main``) imports neither the content
#: loader nor the engine.
_LAZY = {"Content": "content", "ContentError": "content", "load_content": "content",
         "Policy": "policies.base"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mksim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
