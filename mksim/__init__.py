"""mksim: Monte Carlo simulation and strategy analysis for the Mage Knight board game."""
from .content import Content, ContentError, load_content

__version__ = "0.1.0"
__all__ = ["Content", "ContentError", "load_content", "__version__"]
