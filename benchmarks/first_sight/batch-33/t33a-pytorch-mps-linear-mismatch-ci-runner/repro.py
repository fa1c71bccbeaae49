import torch
from torch import nn

VARIANTS = [
    (2, 192, True, (80, 1, 2)),
    (2, 192, False, (80, 1, 2)),
    (4, 192, True, (80, 1, 4)),
    (2, 768, True, (80, 1, 2)),
]

for in_f, out_f, bias, shape in VARIANTS:
    torch.manual_seed(0)
    cpu = nn.Linear(in_f, out_f, bias=bias)
    mps = nn.Linear(in_f, out_f, bias=bias).to("mps")
    mps.load_state_dict(cpu.state_dict())
    x = torch.randn(*shape)
    rel = ((cpu(x) - mps(x.to("mps")).cpu()).abs().max() / cpu(x).abs().max()).item()
    flag = "  <-- DIVERGED" if rel > 1e-3 else ""
    print(
        f"Linear({in_f},{out_f}) bias={bias!s:5s} input={shape!s:14s}"
        f"  rel={rel:.3e}{flag}"
    )
