"""Reproduces a host-RAM allocation failure: a checkpoint materialised in RAM under a memory limit.

The process runs with an address-space cap (RLIMIT_AS = memory in use after start-up
+ 1 GB), standing in for a container or job memory limit. Building a 0.56 GiB fp32
"checkpoint" works; a loader that materialises a second full copy of it then needs
more than the limit allows, and PyTorch's CPU allocator refuses the request with
DefaultCPUAllocator. Run: python repro.py > train.log 2>&1
"""

import resource

import torch


def vm_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


limit = vm_bytes() + int(1e9)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
print(f"memory limit for this process: {limit / 2**30:.2f} GiB", flush=True)
state = {f"layer{i}.weight": torch.randn(4096, 4096) for i in range(9)}
size = sum(t.numel() * t.element_size() for t in state.values())
print(f"checkpoint tensors in RAM: {size / 2**30:.2f} GiB", flush=True)
loaded = {name: tensor.clone() for name, tensor in state.items()}
print("loaded copy:", len(loaded), "tensors", flush=True)
