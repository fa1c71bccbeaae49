"""Reproduces an OOM at the LM head: full-vocabulary logits upcast to fp32 for every position.

A tiny causal LM (one bf16 block, hidden 256, vocabulary 128,256 like Llama 3) scores
one long sequence, as a long-context fine-tune or a prefill does. Every layer before
the head is small; the head produces [1, 4096, 128256] logits in bf16 (1.0 GB), and the
forward then upcasts them to fp32 (another 2.0 GB). The process runs under a memory
cap (RLIMIT_AS = memory in use after start-up + 2.5 GB) standing in for the GPU, so
the upcast is the allocation that fails. Run: python repro.py > train.log 2>&1
"""

import resource

import torch

VOCAB, HIDDEN, SEQ_LEN = 128256, 256, 4096
torch.manual_seed(0)


def vm_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


class TinyCausalLM(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, HIDDEN, dtype=torch.bfloat16)
        self.block = torch.nn.Linear(HIDDEN, HIDDEN, dtype=torch.bfloat16)
        self.lm_head = torch.nn.Linear(HIDDEN, VOCAB, bias=False, dtype=torch.bfloat16)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        hidden_states = torch.relu(self.block(self.embed(input_ids)))
        logits = self.lm_head(hidden_states)
        logits = logits.float()
        return logits


model = TinyCausalLM()
limit = vm_bytes() + int(2.5e9)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
print(f"vocab_size={VOCAB} hidden_size={HIDDEN} max_length={SEQ_LEN} per_device_batch_size=1", flush=True)
with torch.no_grad():
    input_ids = torch.randint(0, VOCAB, (1, SEQ_LEN))
    logits = model(input_ids)
print("logits", tuple(logits.shape), logits.dtype)
