import numpy as np
import jax.numpy as jnp

print((1 / 256 ** np.arange(1, 5)).astype(np.float32))
print((1 / 256 ** jnp.arange(1, 5)).astype(jnp.float32))
print(jnp.float32(1/256**4))
