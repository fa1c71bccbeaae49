import jax
import jax.numpy as jnp
import optax
import equinox as eqx

key = jax.random.PRNGKey(0xff)
model = eqx.nn.MLP(2, 2, 2, 2, key=key)

def dummy_loss(model, x):
    return jax.vmap(model)(x).mean()

optim = optax.adamw(1e-2)
optim = optax.MultiSteps(optim, 2) # <--- remove this line and code will execute successfully 

opt_state = optim.init(eqx.filter(model, eqx.is_array))

@eqx.filter_jit
def train_step(model, opt_state, x):
    grad = eqx.filter_grad(dummy_loss)(model, x)
    updates, opt_state = optim.update(grad, opt_state, model)
    model = eqx.apply_updates(model, updates)

    return model, opt_state

x = jnp.zeros((4, 2))

train_step(model, opt_state, x)
