    input_ids = tokenizer(["[INST] " +{text}" + " [/INST]"], return_tensors="pt", add_special_tokens=False).input_ids.to('cuda')

    generate_input = {
        "input_ids": input_ids,
        "max_new_tokens": 512,
        "do_sample": True,
         "top_k": 10,
        "top_p": 0.95,
        "temperature": 0.01,
        "repetition_penalty": 1.3,
        "eos_token_id": tokenizer.eos_token_id,
        "bos_token_id": tokenizer.bos_token_id,
        "pad_token_id": tokenizer.pad_token_id
    }

    generate_ids = model.generate(**generate_input)
    response = tokenizer.decode(generate_ids[0], skip_special_tokens=True)
    print(response)
