import jax
import jax.numpy as np

A = np.array([[0, 1, 1],
              [1, 0, 1],
              [1, 1, 0]], dtype=np.float64)

print(A.dtype)

import numpy as onp
oA = onp.array([[0, 1, 1],
              [1, 0, 1],
              [1, 1, 0]], dtype=np.float64)
oA.dtype

A = np.array(oA)
print(A.dtype)
lu, pivots = jax.lax_linalg.lu(A)
lu.dtype
