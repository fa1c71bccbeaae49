"""Traffic-sign-ish toy classifier: train a small CNN, then run predict() on a folder of new photos.

Images are kept the way PIL / imageio give them to us: uint8 arrays of shape (H, W, 3).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.set_num_threads(2)
torch.manual_seed(0)
rng = np.random.default_rng(0)

H = W = 24
CLASSES = ["stop", "yield", "go", "parking"]
# each sign type: a main colour and where the marking sits
COLOURS = {"stop": (220, 30, 30), "yield": (230, 200, 20), "go": (30, 180, 60), "parking": (30, 60, 210)}


def render(label):
    """Return an (H, W, 3) uint8 'photo' of the given sign."""
    img = rng.integers(60, 140, size=(H, W, 3)).astype(np.float32)  # background clutter
    r, g, b = COLOURS[CLASSES[label]]
    cy, cx = rng.integers(8, 16, size=2)
    rad = rng.integers(5, 8)
    yy, xx = np.mgrid[0:H, 0:W]
    disc = (yy - cy) ** 2 + (xx - cx) ** 2 <= rad ** 2
    img[disc] = np.array([r, g, b]) + rng.normal(0, 15, size=(disc.sum(), 3))
    img *= rng.uniform(0.7, 1.2)  # exposure
    return np.clip(img, 0, 255).astype(np.uint8)


class SignDataset(Dataset):
    def __init__(self, n):
        self.labels = rng.integers(0, len(CLASSES), size=n)
        self.images = [render(int(y)) for y in self.labels]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0  # HWC -> CHW
        return img, int(self.labels[i])


class SignNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 6 * 6, n_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


train_ds, val_ds = SignDataset(2000), SignDataset(400)
train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=128)

model = SignNet(len(CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(5):
    model.train()
    tot, n = 0.0, 0
    for x, y in train_dl:
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        tot += loss.item() * len(y)
        n += len(y)
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in val_dl:
            correct += (model(x).argmax(1) == y).sum().item()
    print(f"epoch {epoch+1}  train_loss {tot/n:.4f}  val_acc {correct/len(val_ds):.3f}")

torch.save(model.state_dict(), "/tmp/r1_signnet.pt")


# ---------------------------------------------------------------- inference ---
def load_image(label):
    # stands in for np.asarray(Image.open(path).convert("RGB").resize((24, 24)))
    return render(label)


@torch.no_grad()
def predict(net, img_hwc):
    x = torch.from_numpy(img_hwc).float() / 255.0
    x = x.view(1, 3, H, W)
    probs = F.softmax(net(x), dim=1)[0]
    k = int(probs.argmax())
    return CLASSES[k], float(probs[k])


net = SignNet(len(CLASSES))
net.load_state_dict(torch.load("/tmp/r1_signnet.pt"))
net.eval()

truth = rng.integers(0, len(CLASSES), size=200)
hits = 0
for i, y in enumerate(truth):
    name, p = predict(net, load_image(int(y)))
    hits += name == CLASSES[y]
    if i < 8:
        print(f"photo_{i:03d}.png  true={CLASSES[y]:<8} pred={name:<8} conf={p:.2f}")
print(f"predict() accuracy on 200 new photos: {hits/len(truth):.3f}")
