pipe = FluxPipeline.from_pretrained("checkpoints/FLUX.1-dev", 
                                    torch_dtype=torch.bfloat16,
                                    low_cpu_mem_usage=True)
pipe.enable_model_cpu_offload()

image = pipe(
        prompt,
        height=1024,
        width=1024,
        guidance_scale=3.5,
        output_type="np",
        num_inference_steps=50,
        max_sequence_length=512,
        generator=generator
        ).images
