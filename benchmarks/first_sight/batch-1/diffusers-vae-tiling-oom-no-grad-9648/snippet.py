from diffusers import AutoencoderKL
from diffusers.utils import  load_image, numpy_to_pil
import PIL.Image
import os
import torch
from torchvision import transforms
import numpy as np

vae = AutoencoderKL.from_pretrained("vae", device_map="auto")
vae.enable_tiling()

image_o = load_image("1.png").resize((1024,1024))
transform1 = transforms.Compose([transforms.ToTensor()])
tensor_o = torch.unsqueeze(transform1(image_o),0)

output = vae(tensor_o).sample.detach().cpu().numpy()
image = np.transpose(output, (0, 2, 3, 1))
image = numpy_to_pil(image)
image[0].save("t.png")
