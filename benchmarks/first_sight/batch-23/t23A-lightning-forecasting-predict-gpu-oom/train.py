# create large dataset
# create data loader (or just use the ds directly)
raw_predictions, x = ptf_module.predict(val_dl, mode="raw", return_x=True)
