train_dataset: ConstantLengthDataset
eval_dataset: ConstantLengthDataset

trainer = SFTTrainer(
        model=model,
        args=training_args,
        train_dataset=train_dataset,
        eval_dataset=val_dataset,)
