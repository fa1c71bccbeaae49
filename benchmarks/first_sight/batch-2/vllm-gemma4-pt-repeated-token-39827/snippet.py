import gc
import logging
import os
from vllm import LLM, SamplingParams
import jax
from jax import config as jax_config

VLLM_MODEL_ID="google/gemma-4-26B-A4B"
#VLLM_MODEL_ID="Qwen/Qwen3-30B-A3B"

_JAX_COMPILATION_CACHE_DIR = "/tmp/jax_cache"
