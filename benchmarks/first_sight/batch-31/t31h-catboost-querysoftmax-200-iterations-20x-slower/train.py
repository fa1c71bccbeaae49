import sys
import numpy as np
from catboost import CatBoost, Pool

pool = Pool(
    data=np.random.rand(10000),
    label=np.random.randint(0, 2, size=10000),
    group_id=np.repeat(np.arange(100), 100))
clf = CatBoost(params=dict(
    loss_function='QuerySoftMax',
    iterations=int(sys.argv[1])))
clf.fit(pool, verbose=False)
