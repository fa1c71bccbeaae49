"""DQN on our Atari-style grid-runner env (84x84 grayscale, 4-frame stack).

Hyper-parameters follow the Nature DQN paper.
"""
import collections
import random
import time

import numpy as np
import psutil
import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = dict(
    total_steps=10_000_000,
    buffer_size=1_000_000,
    learning_starts=50_000,
    train_freq=4,
    target_update=10_000,
    batch_size=32,
    gamma=0.99,
    lr=1e-4,
    eps_start=1.0,
    eps_end=0.01,
    eps_decay_steps=1_000_000,
    frame_stack=4,
    log_every=2_000,
)

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)


# ------------------------------------------------------------------ env
class GridRunnerEnv:
    """Tiny stand-in for the ALE env: a paddle catches falling blocks."""
    n_actions = 3

    def __init__(self, size=84):
        self.size = size
        self.reset()

    def _render(self):
        f = np.zeros((self.size, self.size), dtype=np.uint8)
        f[self.by:self.by + 4, self.bx:self.bx + 4] = 255
        f[78:82, self.px:self.px + 12] = 180
        return f

    def reset(self):
        self.px = 36
        self.bx, self.by = np.random.randint(0, 80), 0
        self.t = 0
        return self._render()

    def step(self, a):
        self.px = int(np.clip(self.px + (a - 1) * 4, 0, 72))
        self.by += 3
        self.t += 1
        r, done = 0.0, False
        if self.by >= 76:
            r = 1.0 if self.px <= self.bx + 2 <= self.px + 12 else -1.0
            self.bx, self.by = np.random.randint(0, 80), 0
        if self.t >= 1000:
            done = True
        return self._render(), r, done


class FrameStack:
    def __init__(self, env, k):
        self.env, self.k = env, k
        self.frames = collections.deque(maxlen=k)

    def _obs(self):
        return np.stack(self.frames, 0).astype(np.float32) / 255.0

    def reset(self):
        f = self.env.reset()
        for _ in range(self.k):
            self.frames.append(f)
        return self._obs()

    def step(self, a):
        f, r, done = self.env.step(a)
        self.frames.append(f)
        return self._obs(), r, done


# ------------------------------------------------------------------ agent
class QNet(nn.Module):
    def __init__(self, n_actions, k=4):
        super().__init__()
        self.c1 = nn.Conv2d(k, 32, 8, 4)
        self.c2 = nn.Conv2d(32, 64, 4, 2)
        self.c3 = nn.Conv2d(64, 64, 3, 1)
        self.fc = nn.Linear(64 * 7 * 7, 512)
        self.out = nn.Linear(512, n_actions)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.relu(self.c2(x))
        x = F.relu(self.c3(x))
        return self.out(F.relu(self.fc(x.flatten(1))))


class ReplayBuffer:
    def __init__(self, capacity):
        self.buf = collections.deque(maxlen=capacity)

    def add(self, obs, action, reward, next_obs, done):
        self.buf.append((obs, action, reward, next_obs, done))

    def sample(self, n):
        batch = random.sample(self.buf, n)
        obs, act, rew, nxt, done = zip(*batch)
        return (torch.from_numpy(np.stack(obs)), torch.tensor(act), torch.tensor(rew, dtype=torch.float32),
                torch.from_numpy(np.stack(nxt)), torch.tensor(done, dtype=torch.float32))

    def __len__(self):
        return len(self.buf)


env = FrameStack(GridRunnerEnv(), CFG["frame_stack"])
q = QNet(env.env.n_actions)
q_tgt = QNet(env.env.n_actions)
q_tgt.load_state_dict(q.state_dict())
opt = torch.optim.Adam(q.parameters(), lr=CFG["lr"], eps=1.5e-4)
rb = ReplayBuffer(CFG["buffer_size"])
proc = psutil.Process()

obs = env.reset()
ep_ret, ep_returns, last_loss = 0.0, [], None
t0 = time.time()
for step in range(1, CFG["total_steps"] + 1):
    eps = max(CFG["eps_end"], CFG["eps_start"] - step / CFG["eps_decay_steps"])
    if random.random() < eps:
        a = random.randrange(env.env.n_actions)
    else:
        with torch.no_grad():
            a = q(torch.from_numpy(obs).unsqueeze(0)).argmax(1).item()
    nxt, r, done = env.step(a)
    rb.add(obs, a, r, nxt, done)
    ep_ret += r
    obs = nxt
    if done:
        ep_returns.append(ep_ret)
        ep_ret = 0.0
        obs = env.reset()

    if step > CFG["learning_starts"] and step % CFG["train_freq"] == 0:
        o, act, rew, n, d = rb.sample(CFG["batch_size"])
        with torch.no_grad():
            target = rew + CFG["gamma"] * (1 - d) * q_tgt(n).max(1).values
        pred = q(o).gather(1, act.unsqueeze(1)).squeeze(1)
        loss = F.smooth_l1_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(q.parameters(), 10.0)
        opt.step()
        last_loss = loss.item()
    if step % CFG["target_update"] == 0:
        q_tgt.load_state_dict(q.state_dict())

    if step % CFG["log_every"] == 0:
        rss = proc.memory_info().rss / 2**20
        mean_ret = np.mean(ep_returns[-10:]) if ep_returns else float("nan")
        print(f"step {step:8d} | eps {eps:.3f} | buffer {len(rb):8d} | loss {'-' if last_loss is None else f'{last_loss:.4f}'} | "
              f"ep_return(10) {mean_ret:6.2f} | rss {rss:8.1f} MiB | {time.time() - t0:6.1f}s", flush=True)
