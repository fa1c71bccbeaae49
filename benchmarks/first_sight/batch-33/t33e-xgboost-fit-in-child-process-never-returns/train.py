import numpy as np
import xgboost as xgb
import lightgbm as lgb

from sklearn.datasets import load_iris

from sklearn.model_selection import train_test_split
from xgboost import XGBClassifier

iris_dataset = load_iris(return_X_y=True)
X, y = iris_dataset
lgb_ds = lgb.Dataset(data=X, label=y)
est = lgb.train(params={}, train_set=lgb_ds)

X_train, X_valid, y_train, y_valid = train_test_split(X, y, test_size=0.3, random_state=42)
clf = XGBClassifier(n_estimators=250, n_jobs=-1)

import multiprocessing

process = multiprocessing.Process(
            target=clf.fit,
            args=(X, y))
process.start()
process.join()
