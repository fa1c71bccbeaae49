import torch
from pytorch3d.transforms import so3_exponential_map, so3_log_map
from pytorch3d.renderer import look_at_view_transform

R,T = look_at_view_transform(1, elev=50, azim=0)
print(R)

log_R = so3_log_map(R, 1e-8)
R_hat = so3_exponential_map(log_R)
print(R_hat)
