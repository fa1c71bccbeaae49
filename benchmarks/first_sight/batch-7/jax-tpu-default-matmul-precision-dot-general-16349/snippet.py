import jax
import jax.numpy as jnp
from jax import random

n = 4
key = random.PRNGKey(0)
key, subkey1, subkey2 = jax.random.split(key, 3)
x = random.normal(subkey1, shape=(1,2,n))
k = random.normal(subkey2, shape=(n,2))

o1 = jax.lax.dot_general(x, k, (((2,), (0,)), ((), ())))
o2_1 = jax.lax.dot_general(x[:, 0:1], k, (((2,), (0,)), ((), ())))
o2_2 = jax.lax.dot_general(x[:, 1:2], k, (((2,), (0,)), ((), ())))
o2 = jnp.concatenate([o2_1, o2_2], axis=1)

print(o1)
print(o2)
