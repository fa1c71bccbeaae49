python -u -c "import jax; jax.distributed.initialize()"
