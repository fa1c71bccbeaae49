         generate_params = {
            'do_sample': True,
            'top_k':15,
            'top_p': 0.8,
            'max_new_tokens': self.max_answer_seq_len,
            'eos_token_id': self.tokenizer.eos_token_id,
            'no_repeat_ngram_size': 0,
            'repetition_penalty': 1.1,
            'temperature': 0.7,
            'num_return_sequences': 1,
            'output_scores': True,
            'return_dict_in_generate': True,
        }
         outputs = self.actor_model.module.generate(
                prompts,
                attention_mask=mask,
                **generate_params
