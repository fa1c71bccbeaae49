if __name__ == '__main__':
    import jax.numpy as jnp
    import torch
    a = jnp.array([1, 2, 3])
    print(a.devices()) # CPU
    print(torch.backends.cudnn.version()) # 8500 

# while 

if __name__ == '__main__':
    import jax.numpy as jnp
    a = jnp.array([1, 2, 3])
    print(a.devices()) # GPU
    import torch
    print(torch.backends.cudnn.version()) # 8906 
