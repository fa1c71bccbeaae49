args = CrossEncoderTrainingArguments(
    .... 
    seed=12,
    gradient_checkpointing=True, # New line added by me
)
