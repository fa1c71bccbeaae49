from setfit import SetFitModel
