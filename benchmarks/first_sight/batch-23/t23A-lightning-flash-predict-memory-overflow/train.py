predictions = model.predict(df_comments["text"])

predictions = []
for i in range(int(len(df_comments) / datamodule.batch_size)):
    predictions += model.predict(df_comments["text"][i * datamodule.batch_size:(i + 1) * datamodule.batch_size])
