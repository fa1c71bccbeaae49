# segfault_example.py
import numpy as np
import torch
from xgboost import XGBClassifier


model = XGBClassifier(objective="multi:softmax", num_class=3)
x = np.random.rand(3, 10)
y = np.arange(3)
model.fit(x, y)
