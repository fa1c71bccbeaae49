llm = AutoModelForCausalLM.from_pretrained(model, torch_dtype=torch.float16, trust_remote_code=trust_remote_code)
tokenizer.pad_token = tokenizer.eos_token
llm = llm.cuda()

output_num_tokens = []
for i in tqdm(range(len(requests))):
        prompt = requests[i]
        # Generate the sequences.
        input_ids = tokenizer(prompt, return_tensors="pt",padding=True).input_ids
        llm_outputs = llm.generate(
            input_ids=input_ids.cuda(),
            do_sample=not use_beam_search,
            num_return_sequences=1,
            temperature=1.0,
            top_p=1.0,
            use_cache=True,
            max_new_tokens=1024,
        )
        tokenizer.decode(llm_outputs[0], skip_special_tokens=True)
        output_num_tokens.append(len(llm_outputs[0]))

print(output_num_tokens)
