"""REINFORCE with a return baseline on a self-contained CartPole (no gym on the training box)."""
import math
import time

import numpy as np
import torch
import torch.nn as nn

SEED = 7
EPISODES = 400
GAMMA = 0.99
LR = 3e-3
MAX_STEPS = 500


class CartPole:
    """Classic cart-pole dynamics (Barto, Sutton & Anderson 1983), same constants as gym's CartPole-v1."""

    def __init__(self, rng):
        self.rng = rng
        self.g, self.mc, self.mp, self.l, self.f, self.tau = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02

    def reset(self):
        self.s = self.rng.uniform(-0.05, 0.05, size=4)
        return self.s.astype(np.float32)

    def step(self, a):
        x, xd, th, thd = self.s
        force = self.f if a == 1 else -self.f
        ct, st = math.cos(th), math.sin(th)
        total = self.mc + self.mp
        tmp = (force + self.mp * self.l * thd ** 2 * st) / total
        thacc = (self.g * st - ct * tmp) / (self.l * (4.0 / 3.0 - self.mp * ct ** 2 / total))
        xacc = tmp - self.mp * self.l * thacc * ct / total
        x, xd = x + self.tau * xd, xd + self.tau * xacc
        th, thd = th + self.tau * thd, thd + self.tau * thacc
        self.s = np.array([x, xd, th, thd])
        done = abs(x) > 2.4 or abs(th) > 12 * 2 * math.pi / 360
        return self.s.astype(np.float32), 1.0, done


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


def discounted_returns(rewards, gamma):
    out, g = [], 0.0
    for r in reversed(rewards):
        g = r + gamma * g
        out.append(g)
    out.reverse()
    ret = torch.tensor(out)
    return (ret - ret.mean()) / (ret.std() + 1e-8)


def main():
    torch.manual_seed(SEED)
    env = CartPole(np.random.default_rng(SEED))
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=LR)
    print(f"torch {torch.__version__} | REINFORCE CartPole | episodes={EPISODES} lr={LR} gamma={GAMMA}")

    recent, t0 = [], time.time()
    for ep in range(1, EPISODES + 1):
        obs, log_probs, rewards = env.reset(), [], []
        for _ in range(MAX_STEPS):
            dist = policy(torch.from_numpy(obs))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            obs, r, done = env.step(action.item())
            rewards.append(r)
            if done:
                break

        returns = discounted_returns(rewards, GAMMA)
        loss = (torch.stack(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()

        recent.append(sum(rewards))
        recent = recent[-20:]
        if ep % 25 == 0:
            print(f"episode {ep:4d} | return(avg20) {np.mean(recent):6.1f} | last {sum(rewards):5.0f} "
                  f"| loss {loss.item():8.3f} | {time.time() - t0:5.1f}s")

    print(f"final avg return over last 20 episodes: {np.mean(recent):.1f} (solved threshold 475)")


if __name__ == "__main__":
    main()
