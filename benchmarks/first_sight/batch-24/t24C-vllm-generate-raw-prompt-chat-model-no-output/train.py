#######################################################
# qwen model

import fire
import torch
import transformers
import gradio as gr
from vllm import LLM, SamplingParams


def main(base_model="./Models/CodeQwen1.5-7B-Chat", n_gpus=1, port=8080):

    llm = LLM(model=base_model, tensor_parallel_size=n_gpus, gpu_memory_utilization=0.9, enforce_eager=False)

    def evaluate_vllm(instruction, temperature=0, max_n
