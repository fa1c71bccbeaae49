# For the exact same dataset and model, here's the code snippet:

data_splitter_kwargs = {
     "external_indexing": [train_indices, validation_indices, test_indices]
}

early_stopping_kwargs = {
    'early_stopping': True,
    'early_stopping_monitor': 'elbo_validation',
    'early_stopping_patience': 10,
    'early_stopping_min_delta': 0.0,
    'check_val_every_n_epoch': 1
}

plan_kwargs = {
    "reduce_lr_on_plateau": True,
    "lr_patience": 8,
    "lr_factor": 0.1,
}

model.train(max_epochs=500,  accelerator='gpu', devices=[int(index_of_gpu)], shuffle_set_split=True, batch_size=2048, load_sparse_tensor=True, plan_kwargs = plan_kwargs, datasplitter_kwargs = data_splitter_kwargs, **early_stopping_kwargs)
