from ray.train import Trainer
trainer = Trainer(backend="torch", num_workers=2, use_gpu=True)
trainer.start()
...
