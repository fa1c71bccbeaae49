"""Broken on purpose: Python-side use of tensor values (tolist) inside a function
compiled with fullgraph=True, which forbids graph breaks."""
import torch

torch.manual_seed(0)
model = torch.nn.Linear(16, 16)


@torch.compile(fullgraph=True, backend="eager")
def step(x):
    h = model(x)
    scores = h.mean(0).tolist()      # leaves the graph: Python floats
    return h * max(scores)


print("compiling step() with fullgraph=True", flush=True)
print(step(torch.randn(4, 16)))
