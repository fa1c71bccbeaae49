        return {"loss": loss, "preds": preds, "targets": targets}
