"""mksim: Monte Carlo simulation and strategy analysis for the Mage Knight board game."""
from .content import Content, ContentError, load_content

__version__ = "0.1.0"
__all__ = ["Content", "ContentError", "load_content", "Policy", "__version__"]


def __getattr__(name):
    # ``mksim.Policy`` without importing the engine at ``import mksim``
    if name == "Policy":
        from .policies.base import Policy
        return Policy
    raise AttributeError(f"module 'mksim' has no attribute {name!r}")
