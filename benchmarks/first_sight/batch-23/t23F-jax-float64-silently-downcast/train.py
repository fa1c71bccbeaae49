import numpy as np
import jax.numpy as jnp

mask = np.array(True)

for dtype in [
              jnp.bfloat16,  # prints bfloat16
              jnp.float16,   # prints float16
              jnp.float32,   # prints float32
              jnp.float64,   # prints float32 !!!!
              ]:
  a = np.ones((2, 2), dtype=dtype)
  b = np.array(np.nan, dtype=dtype)
  print(jnp.where(mask, a, b).dtype)
