import os
os.environ["CUDA_VISIBLE_DEVICES"]="0,1,2,3"

import torch
from peft import PeftConfig, PeftModel, prepare_model_for_int8_training, LoraConfig, get_peft_model
from accelerate import init_empty_weights, load_checkpoint_and_dispatch
import bitsandbytes as bnb
from transformers import (
    AutoConfig,
    pipeline,
    TrainingArguments,
    Trainer,
    DataCollatorForLanguageModeling,
    DataCollatorWithPadding,
    LlamaTokenizer,
    LlamaForCausalLM,
    LlamaForSequenceClassification,
    AutoModelForSequenceClassification,
    pipeline,
    get_linear_schedule_with_warmup, 
    set_seed
)

from pathlib import Path
model_path = "huggyllama/llama-7b"
tokenizer_path = "huggyllama/llama-7b"

tokenizer = LlamaTokenizer.from_pretrained(tokenizer_path)
tokenizer.pad_token = tokenizer.eos_to
