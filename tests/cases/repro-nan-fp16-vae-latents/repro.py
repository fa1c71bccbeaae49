"""Reproduces NaN latents from a frozen image VAE run in float16 (SDXL-VAE-style overflow).

Latent-diffusion fine-tuning scripts encode every training image once with the frozen VAE
and cache the latents. With --mixed_precision fp16 and no fp32 override for the VAE, the VAE
is cast to float16 too. The SDXL VAE has internal activations far above float16's maximum
(65504); here a small encoder stands in for it, with one block scaled up so its activations
reach ~1.5e5 while the normalised output stays small (finite in float32, inf -> NaN in
float16). The caching step checks each latent for NaN and stops, as kohya-ss sd-scripts'
cache_batch_latents does. Run: python repro.py > train.log 2>&1
"""

import torch

MIXED_PRECISION, NO_HALF_VAE = "fp16", False
torch.manual_seed(0)


class Encoder(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv_in = torch.nn.Conv2d(3, 32, 3, padding=1)
        self.mid = torch.nn.Conv2d(32, 32, 3, padding=1)
        self.norm = torch.nn.GroupNorm(8, 32)
        self.conv_out = torch.nn.Conv2d(32, 8, 3, padding=1)
        with torch.no_grad():  # large internal activations, as in the SDXL VAE
            self.mid.weight.mul_(250000.0)
            self.mid.bias.mul_(250000.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.mid(torch.nn.functional.silu(self.conv_in(x)))
        return self.conv_out(torch.nn.functional.silu(self.norm(h)))


weight_dtype = torch.float16 if MIXED_PRECISION == "fp16" else torch.float32
vae_dtype = torch.float32 if NO_HALF_VAE else weight_dtype
print(f"mixed_precision={MIXED_PRECISION} no_half_vae={NO_HALF_VAE} vae_dtype={vae_dtype}")
vae = Encoder().eval().to(vae_dtype)
images = [f"train/img/10_subject/img_{i:04d}.png" for i in range(8)]
print("caching latents.")
with torch.no_grad():
    for start in range(0, len(images), 4):
        batch = torch.rand(4, 3, 64, 64) * 2 - 1
        latents = vae(batch.to(vae_dtype))
        for name, latent in zip(images[start : start + 4], latents, strict=True):
            if torch.isnan(latent).any():
                raise RuntimeError(f"NaN detected in latents: {name}")
        print(f"cached {start + 4}/{len(images)} latents")
