import numpy as np
from lightgbm import LGBMRanker

N = 20
y = np.arange(N)
X = np.random.normal(size=(N, 2))
X[:, 1] = y[0:]

model = LGBMRanker()
model.fit(X, y, group=[N])
print(model.predict(X))
# -> [0, 0,..., 0]
