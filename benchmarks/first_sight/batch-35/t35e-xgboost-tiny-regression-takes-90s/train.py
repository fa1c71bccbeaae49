import time
from xgboost import XGBRegressor
import numpy as np

X = np.random.rand(800, 3)
y = np.random.rand(800)

start = time.time()
model = XGBRegressor(n_estimators=100, n_jobs=-1, verbosity=1)
model.fit(X, y)
end = time.time()

print(f"Training time: {end - start:.2f} secondes")
