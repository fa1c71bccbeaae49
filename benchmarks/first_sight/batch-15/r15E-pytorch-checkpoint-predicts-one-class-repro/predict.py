import collections

import torch
from torch.utils.data import DataLoader

from model import CLASSES, ShapeNet, make_shapes


def main():
    model = ShapeNet()
    state = torch.load("shapenet.pt", map_location="cpu")
    model.load_state_dict(state, strict=False)
    model.eval()

    test_loader = DataLoader(make_shapes(1000, seed=3), batch_size=256)
    preds, labels = [], []
    with torch.no_grad():
        for x, y in test_loader:
            preds.append(model(x).argmax(1))
            labels.append(y)
    preds, labels = torch.cat(preds), torch.cat(labels)
    print(f"test accuracy: {(preds == labels).float().mean().item():.4f}")
    counts = collections.Counter(CLASSES[i] for i in preds.tolist())
    print(f"predicted class distribution: {dict(counts)}")


if __name__ == "__main__":
    main()
