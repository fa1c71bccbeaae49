    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_pred = self.model(x)
       return {'val_loss': self.criterion(y_pred, y.view(-1, 1))}
