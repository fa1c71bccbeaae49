"""Discrete-latent (Gumbel-softmax) VAE over product attribute bit-vectors.
The 8 categorical codes per product are used downstream as a compact catalogue index."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
N_ATTR = 96          # binary attributes per product
N_LATENT = 8         # categorical latent variables
N_CAT = 16           # categories per latent
EPOCHS = 10
BATCH = 128
LR = 1e-3
TAU_START, TAU_END = 1.0, 0.0   # anneal towards hard one-hot codes


def load_catalogue(n=12000):
    """Product attribute matrix (synthetic stand-in: products drawn from 40 prototypes)."""
    g = torch.Generator().manual_seed(1)
    protos = (torch.rand(40, N_ATTR, generator=g) < 0.25).float()
    idx = torch.randint(0, 40, (n,), generator=g)
    flip = (torch.rand(n, N_ATTR, generator=g) < 0.04).float()
    return (protos[idx] + flip) % 2


class GumbelVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(N_ATTR, 256), nn.ReLU(), nn.Linear(256, N_LATENT * N_CAT))
        self.dec = nn.Sequential(nn.Linear(N_LATENT * N_CAT, 256), nn.ReLU(), nn.Linear(256, N_ATTR))

    def forward(self, x, tau):
        logits = self.enc(x).view(-1, N_LATENT, N_CAT)
        z = F.gumbel_softmax(logits, tau=tau, hard=False, dim=-1)
        recon_logits = self.dec(z.view(-1, N_LATENT * N_CAT))
        return recon_logits, logits


def vae_loss(recon_logits, x, logits):
    rec = F.binary_cross_entropy_with_logits(recon_logits, x, reduction="sum") / len(x)
    q = F.softmax(logits, dim=-1)
    log_q = F.log_softmax(logits, dim=-1)
    kl = (q * (log_q + math.log(N_CAT))).sum() / len(x)
    return rec + kl, rec, kl


def tau_for_epoch(epoch):
    return TAU_START + (TAU_END - TAU_START) * epoch / (EPOCHS - 1)


def main():
    X = load_catalogue()
    n_val = 2000
    train_dl = DataLoader(TensorDataset(X[n_val:]), batch_size=BATCH, shuffle=True)
    Xval = X[:n_val]
    model = GumbelVAE()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    for epoch in range(EPOCHS):
        tau = tau_for_epoch(epoch)
        model.train()
        tot = rec_tot = kl_tot = 0.0
        for step, (xb,) in enumerate(train_dl):
            recon, logits = model(xb, tau)
            loss, rec, kl = vae_loss(recon, xb, logits)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            tot += loss.item(); rec_tot += rec.item(); kl_tot += kl.item()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step:3d} tau={tau:.3f} loss={loss.item():.3f}")
        nb = len(train_dl)
        model.eval()
        with torch.no_grad():
            recon, logits = model(Xval, tau)
            vloss, vrec, _ = vae_loss(recon, Xval, logits)
            bit_acc = ((recon > 0).float() == Xval).float().mean().item()
        print(f"== epoch {epoch} tau={tau:.3f} train_loss={tot / nb:.3f} (rec {rec_tot / nb:.3f}, "
              f"kl {kl_tot / nb:.3f}) val_loss={vloss.item():.3f} val_bit_acc={bit_acc:.4f}")
    torch.save(model.state_dict(), "gumbel_vae.pt")


if __name__ == "__main__":
    main()
