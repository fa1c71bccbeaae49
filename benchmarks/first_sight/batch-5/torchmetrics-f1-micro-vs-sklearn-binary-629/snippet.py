from torchmetrics.functional import f1
from sklearn.metrics import f1_score

target = torch.tensor([1, 1, 0, 0])
preds  = torch.tensor([1, 0, 0, 0])
print(f1(preds, target))
print(f1_score(target.numpy(), preds.numpy())
