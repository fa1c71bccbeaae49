model = model.merge_and_unload()
