import random
import time
import torch
from transformers import GPT2Config, GPT2LMHeadModel

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(2)

VOCAB = 2000
SEQ = 256


def synthetic_batch(bs):
    # stand-in for the tokenized support-chat corpus: repeating phrase patterns
    rows = []
    for _ in range(bs):
        base = [random.randrange(3, VOCAB) for _ in range(8)]
        rows.append((base * (SEQ // 8 + 1))[:SEQ])
    return torch.tensor(rows)


def main():
    config = GPT2Config(vocab_size=VOCAB, n_positions=512, n_embd=256, n_layer=6, n_head=8,
                        bos_token_id=1, eos_token_id=2, pad_token_id=0, use_cache=False)
    model = GPT2LMHeadModel(config)
    model.gradient_checkpointing_enable()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    model.train()
    t0 = time.time()
    for step in range(1, 11):
        ids = synthetic_batch(8)
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 5 == 0:
            print(f"step {step} | loss {loss.item():.4f} | {time.time() - t0:.1f}s")
    model.save_pretrained("chat-lm")

    # ---- serving smoke test ----
    lm = GPT2LMHeadModel.from_pretrained("chat-lm").eval()
    prompts = synthetic_batch(8)[:, :24]
    for max_new in (32, 64, 128, 256):
        t0 = time.time()
        with torch.no_grad():
            out = lm.generate(prompts, attention_mask=torch.ones_like(prompts), max_new_tokens=max_new,
                              min_new_tokens=max_new, do_sample=False)
        dt = time.time() - t0
        n_new = (out.shape[1] - prompts.shape[1]) * out.shape[0]
        print(f"generate max_new_tokens={max_new:3d}: {dt:6.1f}s | {n_new / dt:7.1f} new tokens/s "
              f"| {1000 * dt / (out.shape[1] - prompts.shape[1]):6.1f} ms per decoding step")


if __name__ == "__main__":
    main()
