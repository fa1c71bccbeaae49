import jax
import jax.numpy as jnp

print(jax.devices('gpu')[0])

matrix_shape = (1000, 1000)
while True:
    for i in range(20_000):
        key = jax.random.PRNGKey(i)
        a_key, b_key = jax.random.split(key, 2)
        a = jax.random.normal(a_key, matrix_shape)
        b = jax.random.normal(b_key, matrix_shape)
        c = a @ b
