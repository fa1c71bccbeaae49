class Algorithm:
    def __init__(self, ...):
        self.tx = optax.adamw(lr)
        self.optimizer = nnx.Optimizer(model, self.tx)
        
        @jax.jit
        def update(key, data):
            def loss_fn(model):
                ...
            grad = nnx.grad(loss_fn)(self.model)
            self.optimizer.update(grad)
        
        self.update = update
