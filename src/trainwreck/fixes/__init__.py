"""Turning a pattern's fix recipe into concrete, verified changes for this run."""
