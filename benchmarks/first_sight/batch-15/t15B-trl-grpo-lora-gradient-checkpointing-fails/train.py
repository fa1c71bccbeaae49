from trl import GRPOConfig, GRPOTrainer, ModelConfig, get_peft_config

training_args = GRPOConfig(
            learning_rate=5e-6,
            adam_beta1=0.9,
            adam_beta2=0.99,
            weight_decay=0.01,
            warmup_ratio=0.1,
            lr_scheduler_type="cosine",
            optim="adamw_torch",
            logging_steps=1,
            per_device_train_batch_size=16,
            gradient_accumulation_steps=1
            num_generations=8,
            max_prompt_length=256,
            max_completion_length=512,
            num_train_epochs=1,
            save_steps=100,
            max_grad_norm=0.1,
            report_to="wandb",
            output_dir="out",
            log_completions=True,
            run_name="grpo",
            use_vllm=True,
            vllm_gpu_memory_utilization=0.6,
            gradient_checkpointing=True
        )

model_config = ModelConfig(
    model_name_or_path="meta-llama/Llama-3.2-3B-Instruct",
    torch_dtype="bfloat16",
    attn_implementation="flash_attention_2",
    use_peft=True,
    load_in_4bit=False,
    lora_r=64,
    lora_target_modules=[
        "q_proj",
        "k_proj",
        "v_proj",
        "o_proj",
        "gate_proj",
        "up_proj",
        "down_proj",
    ],
    lora_alpha=1,
    use_rslora=True
)

trainer = GRPOTrainer(
