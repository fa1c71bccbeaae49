import jax.numpy as np
from jax import grad


vec = np.zeros(2)

def squared_2_norm(x):
    return np.linalg.norm(x) ** 2

def sum_of_squares(x):
    return np.sum(x ** 2)

gradient_norm = grad(squared_2_norm)
gradient_sum = grad(sum_of_squares)

print(squared_2_norm(vec))
print(sum_of_squares(vec))
print(gradient_norm(vec))
print(gradient_sum(vec))
