"""Matching patterns to evidence, ranking the candidates, calibrating confidence."""
