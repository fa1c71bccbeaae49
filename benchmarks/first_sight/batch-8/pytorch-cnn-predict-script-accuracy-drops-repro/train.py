import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CLASSES = 4


def make_images(n):
    y = torch.randint(0, CLASSES, (n,))
    img = 0.1 * torch.randn(n, 1, 16, 16)
    for i in range(n):
        c = y[i].item()
        if c == 0:
            img[i, 0, 4:12, 7:9] += 1.0
        elif c == 1:
            img[i, 0, 7:9, 4:12] += 1.0
        elif c == 2:
            img[i, 0, 4:12, 7:9] += 2.5
        else:
            img[i, 0, 7:9, 4:12] += 2.5
    return img, y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(32 * 4 * 4, CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        return self.fc(self.drop(x.flatten(1)))


def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


xtr, ytr = make_images(3000)
xva, yva = make_images(500)
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(4):
    perm = torch.randperm(len(xtr))
    for i in range(0, len(xtr), 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc {evaluate(model, xva, yva):.4f}")
torch.save(model.state_dict(), "model.pt")
print("saved model.pt")


def predict(images):
    net = Net()
    net.load_state_dict(torch.load("model.pt"))
    preds = []
    with torch.no_grad():
        for img in images:
            preds.append(net(img.unsqueeze(0)).argmax(1).item())
    return torch.tensor(preds)


xte, yte = make_images(200)
for run in range(2):
    p = predict(xte)
    print(f"predict run {run + 1}: first 10 preds {p[:10].tolist()} labels {yte[:10].tolist()} acc {(p == yte).float().mean().item():.4f}")
