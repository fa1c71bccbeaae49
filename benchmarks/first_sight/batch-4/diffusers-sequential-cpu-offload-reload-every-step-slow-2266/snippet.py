pipe = diffusers.StableDiffusionPipeline.from_pretrained(
    "runwayml/stable-diffusion-v1-5",
    revision="fp16", torch_dtype=torch.float16,
)
pipe.enable_sequential_cpu_offload()
x = pipe("a jockey riding a dragon on mars")
