# Precision to use. Configure: config.update("jax_enable_x64", True)
T=jnp.float64
# Compare to:
T=jnp.float32

# Setup the data
i=jax.device_put(numpy.random.randint(0,12, size=10_000_000))
v=jax.device_put(jnp.array(numpy.random.normal(size=i.shape), dtype=T))
g=jnp.zeros(12, dtype=T)

# Actual timing 
%timeit jax.ops.index_add(g, i, v).block_until_ready()
