"""Broken on purpose: LoRA-style fine-tuning with gradient checkpointing.
The base model (embedding, blocks, head) is frozen, only small adapters inside the
checkpointed blocks are trainable, and the blocks use reentrant checkpointing while
the embedding output does not require grad (enable_input_require_grads was not called)."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)


class LoraLinear(nn.Module):
    def __init__(self, dim, rank=4):
        super().__init__()
        self.base = nn.Linear(dim, dim)
        self.lora_A = nn.Linear(dim, rank, bias=False)
        self.lora_B = nn.Linear(rank, dim, bias=False)
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(LoraLinear(dim) for _ in range(layers))
        self.lm_head = nn.Linear(dim, vocab)
        self.gradient_checkpointing = True

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = checkpoint(layer, h, use_reentrant=True) if self.gradient_checkpointing else layer(h)
        return self.lm_head(h)


model = TinyLM()
for name, p in model.named_parameters():
    p.requires_grad_("lora_" in name)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"trainable params: {trainable} || all params: {total} || trainable%: {100 * trainable / total:.4f}", flush=True)
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
ids = torch.randint(0, 100, (4, 16))
logits = model(ids)
loss = nn.functional.cross_entropy(logits[:, :-1].reshape(-1, 100), ids[:, 1:].reshape(-1))
print(f"step 0 loss {loss.item():.4f}", flush=True)
loss.backward()
opt.step()
