automodel_args = {"torch_dtype": torch.float16}
model = CrossEncoder('sentence-transformers/all-mpnet-base-v2', num_labels=1,classifier_dropout=0.1, automodel_args=automodel_args)


num_epochs = 2
warmup_steps = math.ceil(len(train_dataloader) * num_epochs * 0.1)

model.fit(
    train_dataloader=train_dataloader,
    epochs=num_epochs,
    warmup_steps=warmup_steps,
    output_path=None,
    #evaluation_steps=len(train_dataloader),
    #use_amp=True,
    
)

model.predict([["I am happy","I am sad"],["I am happy","I am sad"]])
