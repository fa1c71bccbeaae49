litgpt finetune lora   --checkpoint_dir saved-models/google/gemma-7b-it/   --data Alpaca2k   --out_dir out/gemma-2-lora
