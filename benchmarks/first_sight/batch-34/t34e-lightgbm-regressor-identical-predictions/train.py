from lightgbm import LGBMRegressor
import numpy as np
trainX = np.random.rand(10, 100) # 10 samples with 100 features
trainY = np.random.rand(10)
m = LGBMRegressor()
m.fit(trainX, trainY)
testX = np.random.rand(5, 100)
predX = m.predict(testX)
print(predX) # the predicted values of the five testing samples are the same.
