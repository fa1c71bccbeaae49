"""Raw inputs -> Evidence: logs, tracebacks, exits, configs, environment, setup.

`collect.collect()` is the one entry point. Readers never raise on bad input:
what cannot be read becomes a `Gap` and everything else is still read. The
package re-exports nothing, so a reader module (`files`) loads without the stage.
"""
