def trainingstep(self, batch, batch_idx):
    x, y = batch
    y_hat = self(x)
    return { "loss": F.cross_entropy(y_hat, y) }

def training_step_end(self, outputs):
    self.log('training_loss', outputs["loss"])
