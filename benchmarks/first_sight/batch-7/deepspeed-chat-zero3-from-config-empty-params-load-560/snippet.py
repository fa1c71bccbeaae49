model = model_class.from_config(model_config)
print("************************")
print("model class", model_class)
for name, w in model.named_parameters():
    print(name, w.shape)
print(model_config)
print("************************")
