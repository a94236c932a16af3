"""Policies: the decision makers that play simulated games (interface, registry, built-ins)."""
