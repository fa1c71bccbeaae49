import jax
import jax.numpy as jnp

x = jnp.array([1., 2., 3.])
jax.grad(jnp.linalg.norm)(x - x) #[nan nan nan]

l2_dist_sq = lambda x, y: jnp.linalg.norm(x - y) ** 2
jax.grad(l2_dist_sq)(x, x) #[nan nan nan]

# This should be the same as l2_dist_sq
oracle_l2_dist_sq = lambda x, y: (x - y).dot(x - y)
jax.grad(oracle_l2_dist_sq)(x, x) #[0 0 0]
