import requests
import os
url = f'http://[ip address of tpu]:8475/requestversion/tpu_driver_nightly'
requests.post(url)
TPU_DRIVER_MODE = 1

from jax.config import config
# The following is required to use TPU Driver as JAX's backend.
config.FLAGS.jax_xla_backend = "tpu_driver"
config.FLAGS.jax_backend_target = "grpc://[ip address]:8470"
