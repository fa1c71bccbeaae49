        pipe = StableDiffusionXLPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0", torch_dtype=torch.float16, use_safetensors=True, variant="fp16").to("cuda")
        vae = pipe.vae
        input_dtype = imgs.dtype
        imgs = imgs * 2.0 - 1.0
        posterior = vae.encode(imgs.to(weights_dtype)).latent_dist
        latents = posterior.sample() * self.vae.config.scaling_factor
