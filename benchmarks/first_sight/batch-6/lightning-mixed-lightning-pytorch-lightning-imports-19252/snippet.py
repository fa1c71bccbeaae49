import lightning.pytorch as pl
from pytorch_lightning import LightningModule

class MyModel(LightningModule):
    pass

model = MyModel()
trainer = pl.Trainer()
trainer.fit(model)
