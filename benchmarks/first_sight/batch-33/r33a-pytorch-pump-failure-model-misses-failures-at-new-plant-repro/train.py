"""Bearing-failure early warning: MLP on 8 condition-monitoring features per pump per day.

train: plant A history (labelled). Then the nightly batch job scores the latest export
(here: plant B's first month, for which maintenance has already labelled an audit sample).
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
FEATURES = ["bearing_temp_c", "vib_rms_mm_s", "vib_kurtosis", "motor_current_a",
            "discharge_bar", "flow_m3_h", "ambient_c", "hours_since_service"]


def pump_days(n, rng, load=1.0):
    """Synthetic daily aggregates; `load` > 1 means pumps driven harder (hotter, more wear)."""
    temp = rng.normal(62 * load, 7, n)
    vib = rng.gamma(4, 0.9 * load, n)
    kurt = rng.normal(3.2, 0.6, n) + 0.4 * (load - 1) * 5
    cur = rng.normal(41 * load, 4, n)
    dis = rng.normal(6.5, 0.7, n)
    flow = rng.normal(120, 15, n) / load
    amb = rng.normal(21, 5, n)
    hrs = rng.uniform(0, 6000 * load, n)
    X = np.stack([temp, vib, kurt, cur, dis, flow, amb, hrs], 1).astype(np.float32)
    risk = 0.12 * (temp - 70) + 0.6 * (vib - 4.5) + 0.9 * (kurt - 3.5) + 0.0006 * (hrs - 4000)
    y = (risk + rng.normal(0, 0.8, n) > 1.0).astype(np.float32)
    return X, y


class Standardizer:
    def fit(self, X):
        self.mean, self.std = X.mean(0), X.std(0) + 1e-6
        return self

    def transform(self, X):
        return (X - self.mean) / self.std

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def report(name, model, X, y):
    with torch.no_grad():
        p = torch.sigmoid(model(torch.from_numpy(X)).squeeze(1)).numpy()
    pred = p > 0.5
    tp, fp, fn = (pred & (y == 1)).sum(), (pred & (y == 0)).sum(), (~pred & (y == 1)).sum()
    print(f"{name}: n={len(y)} failure_rate={y.mean():.3f} predicted_rate={pred.mean():.3f} "
          f"acc={(pred == y).mean():.3f} precision={tp / max(tp + fp, 1):.3f} recall={tp / max(tp + fn, 1):.3f}")


rng = np.random.default_rng(0)
X_a, y_a = pump_days(40000, rng, load=1.0)
idx = rng.permutation(len(y_a))
tr, va = idx[:32000], idx[32000:]

scaler = Standardizer()
X_tr = scaler.fit_transform(X_a[tr])
X_va = scaler.transform(X_a[va])

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
xt, yt = torch.from_numpy(X_tr), torch.from_numpy(y_a[tr])
for epoch in range(15):
    t0 = time.time()
    perm = torch.randperm(len(yt))
    for i in range(0, len(yt), 256):
        b = perm[i:i + 256]
        loss = F.binary_cross_entropy_with_logits(model(xt[b]).squeeze(1), yt[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 3 == 2:
        print(f"epoch {epoch:2d} loss {loss.item():.4f} ({time.time() - t0:.2f}s)")

model.eval()
report("plant A validation", model, X_va, y_a[va])


def score_export(X_raw):
    """Nightly job entry point: raw feature matrix in, failure probabilities out."""
    X = Standardizer().fit_transform(X_raw)
    with torch.no_grad():
        return torch.sigmoid(model(torch.from_numpy(X)).squeeze(1)).numpy()


X_b, y_b = pump_days(3000, rng, load=1.12)
print("plant B export feature means:", dict(zip(FEATURES, [round(float(v), 1) for v in X_b.mean(0)])))
print("plant A train  feature means:", dict(zip(FEATURES, [round(float(v), 1) for v in X_a[tr].mean(0)])))
p_b = score_export(X_b)
pred = p_b > 0.5
tp, fp, fn = (pred & (y_b == 1)).sum(), (pred & (y_b == 0)).sum(), (~pred & (y_b == 1)).sum()
print(f"plant B audit (nightly job): n={len(y_b)} failure_rate={y_b.mean():.3f} predicted_rate={pred.mean():.3f} "
      f"acc={(pred == y_b).mean():.3f} precision={tp / max(tp + fp, 1):.3f} recall={tp / max(tp + fn, 1):.3f}")
X_a_recent, y_a_recent = pump_days(3000, rng, load=1.0)
p_a = score_export(X_a_recent)
print(f"plant A last month (nightly job): failure_rate={y_a_recent.mean():.3f} "
      f"predicted_rate={(p_a > 0.5).mean():.3f} acc={((p_a > 0.5) == y_a_recent).mean():.3f}")
