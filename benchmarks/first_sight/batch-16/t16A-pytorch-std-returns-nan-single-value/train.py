import numpy as np
np.std(4)  # returns 0

import torch
torch.std(torch.tensor(4.))  # returns NaN
