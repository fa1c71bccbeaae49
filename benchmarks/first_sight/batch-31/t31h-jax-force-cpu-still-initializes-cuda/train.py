def jax_force_use_cpu_v1():
    os.environ["JAX_PLATFORMS"] = "cpu"
    jax.config.update("jax_platform_name", 'cpu')

jax_force_use_cpu_v1()
