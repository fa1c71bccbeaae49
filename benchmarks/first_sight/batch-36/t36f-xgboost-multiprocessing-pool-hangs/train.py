# as posted in the original issue (two snippets)
from xgboost import XGBClassifier
import numpy as np
f = np.loadtxt('test.txt')

def init_process():
    global model
    model = XGBClassifier()
    model.load_model('test.json')

def predict(features):
    return model.predict_proba(np.array([features]))

# works:
pool = Pool(initializer=init_process)
res = pool.map(predict, f)
res

# hangs: create a model and predict with it before creating the pool
model = XGBClassifier()
model.load_model('test.json')
temp = model.predict_proba(f)

pool = Pool(initializer=init_process)
res = pool.map(predict, f)
res
