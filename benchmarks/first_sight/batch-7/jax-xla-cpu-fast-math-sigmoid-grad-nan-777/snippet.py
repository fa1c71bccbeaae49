import jax
import jax.numpy as np
from jax import grad
print(jax.version.__version__)
x = np.linspace(-200, 0, 4)
sig = lambda x: np.sum(1/(1+np.exp(-x)))
f = grad(sig)
print(x)
f(x)
