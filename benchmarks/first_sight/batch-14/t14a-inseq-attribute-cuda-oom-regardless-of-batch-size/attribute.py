model = inseq.load_model(
    args.model_name_or_path, # 10B+ model
    "integrated_gradients",
    load_in_8bit=True,
    device_map="auto",
)

out = model.attribute(
    input_texts=texts, # 2000+ sentences
    n_steps=50,
    return_convergence_delta=True,
    step_scores=["probability"],
    batch_size=1,
)
