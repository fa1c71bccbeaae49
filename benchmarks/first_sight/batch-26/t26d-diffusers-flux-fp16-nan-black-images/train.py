from diffusers import FluxPipeline
import matplotlib.pyplot as plt
import torch
torch.backends.cudnn.benchmark = True

pipe = FluxPipeline.from_pretrained(
    "black-forest-labs/FLUX.1-schnell",
    torch_dtype=torch.bfloat16,
)

pipe.enable_sequential_cpu_offload()
pipe.vae.enable_tiling()
pipe.to(torch.half) # for Turing GPUs, torch_dtype=torch.half in the pipeline constructor uses unnecessary RAM since CPU offload hasn't been enabled yet

images = pipe(
    "an astronaut riding a horse on mars",
    num_inference_steps=1,
    num_images_per_prompt=1,
    guidance_scale=0.0,
    height=1024,
    width=1024,
).images

for img_idx, image in enumerate(images):
    plt.imshow(image)
    plt.show() # will show black images
