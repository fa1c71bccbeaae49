"""Behaviour cloning of the arm controller from logged teleop data with a tanh-squashed Gaussian policy."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Normal, TanhTransform, TransformedDistribution

OBS_DIM, ACT_DIM, BATCH = 12, 3, 256
torch.manual_seed(1)


def load_teleop_logs(n=40_000, seed=0):
    rng = np.random.default_rng(seed)
    obs = rng.standard_normal((n, OBS_DIM)).astype(np.float32)
    W = rng.standard_normal((OBS_DIM, ACT_DIM)).astype(np.float32) / np.sqrt(OBS_DIM)
    act = 0.65 * np.tanh(obs @ W) + 0.10 * rng.standard_normal((n, ACT_DIM)).astype(np.float32)
    act = np.clip(act, -1.0, 1.0)
    return torch.from_numpy(obs), torch.from_numpy(act)


class SquashedGaussianPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS_DIM, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU())
        self.mu = nn.Linear(256, ACT_DIM)
        self.log_std = nn.Linear(256, ACT_DIM)

    def dist(self, obs):
        h = self.net(obs)
        std = self.log_std(h).clamp(-5, 2).exp()
        return TransformedDistribution(Normal(self.mu(h), std), [TanhTransform(cache_size=1)])


def main():
    obs, act = load_teleop_logs()
    n_val = 4000
    print(f"teleop samples={len(obs)} act range=[{act.min():.3f}, {act.max():.3f}]", flush=True)
    policy = SquashedGaussianPolicy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    step = 0
    for epoch in range(4):
        perm = torch.randperm(len(obs) - n_val) + n_val
        for i in range(0, len(perm), BATCH):
            idx = perm[i:i + BATCH]
            nll = -policy.dist(obs[idx]).log_prob(act[idx]).sum(-1).mean()
            opt.zero_grad(); nll.backward()
            nn.utils.clip_grad_norm_(policy.parameters(), 10.0)
            opt.step(); step += 1
            if step % 20 == 0:
                print(f"epoch {epoch} step {step:4d} nll {nll.item():.4f}", flush=True)
        with torch.no_grad():
            d = policy.dist(obs[:n_val])
            mse = ((torch.tanh(d.base_dist.mean) - act[:n_val]) ** 2).mean().item()
        print(f"epoch {epoch} val action mse {mse:.5f}", flush=True)


if __name__ == "__main__":
    main()
