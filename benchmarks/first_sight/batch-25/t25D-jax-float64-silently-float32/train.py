a = jax.numpy.ones((2,2), dtype=np.float64)
print(a.dtype) #float32, I would expect float64
