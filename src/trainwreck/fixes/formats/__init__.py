"""A fix's changes written in the user's own formats: YAML, JSON, a launch command, code."""
