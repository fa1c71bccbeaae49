
    import pandas as pd
    import llm.zim_llm as zllm
    from unsloth import FastLanguageModel
    import torch
    from transformers import TextStreamer
    from unsloth.chat_templates import get_chat_template
    from datasets import load_dataset, Dataset
    from sklearn.model_selection import train_test_split
    import llm.prompts as prompts
    import ast
    from trl import SFTTrainer
    from transformers import TrainingArguments
    from unsloth import is_bfloat16_supported
    from unsloth.chat_templates import train_on_responses_only

    max_steps = 500    
    max_seq_length = 15000 
    max_prompt_length = 10000
    lora_rank = 32 
    dtype = None 
    load_in_4bit = True 
    train_dir = 'train_output'
