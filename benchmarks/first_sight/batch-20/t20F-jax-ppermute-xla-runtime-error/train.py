import jax, numpy as np

print(jax.devices())
x = np.arange(jax.device_count())
print(x)
def func(arr):
    arr = jax.lax.ppermute(arr, axis_name="i", perm=((0,1),(1,2),(2,3),(3,0)))
    return arr
x = jax.pmap(func, axis_name="i")(x)
print(x)

