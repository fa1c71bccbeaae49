# ct2-transformers-converter --model Helsinki-NLP/opus-mt-en-roa --output_dir ct2-opus-mt-en-roa
import ctranslate2
import transformers

translator = ctranslate2.Translator("ct2-opus-mt-en-roa")
tokenizer = transformers.AutoTokenizer.from_pretrained("Helsinki-NLP/opus-mt-en-roa")

sentences = ['The Prime Minister is coming back tomorrow.']

batch = [tokenizer.convert_ids_to_tokens(tokenizer.encode(f'>>ind<< {sentence}')) for sentence in sentences]

results = translator.translate_batch(batch)
target = results[0].hypotheses[0]

print(tokenizer.decode(tokenizer.convert_tokens_to_ids(target)))
# Perdana Menteri akan datang kembali besok.@info@info: tooltip@info@info: tooltip@info/ plain _BAR_ _BAR_ _BAR_ _BAR___________________________________________________________________________________________________________________________________________________________________________________________
