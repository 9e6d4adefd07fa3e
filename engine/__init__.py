"""bridgelaw: a declarative ruling engine for the Laws of Duplicate Bridge."""

__version__ = "0.1.0"
