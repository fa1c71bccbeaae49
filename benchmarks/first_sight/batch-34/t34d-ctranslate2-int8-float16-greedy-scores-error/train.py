from ctranslate2.translator import Translator

beam_size = 1
return_scores = True
compute_type = 'int8_float16'

translator = Translator(
    model_path='<path to model>',
    device="CUDA",
    compute_type=compute_type,
)

tokens_results = translator.translate_batch( # <--- the error occurs here
    [['▁My', '▁home', '▁is', '▁here']],
    beam_size=beam_size,
    return_scores=return_scores
)

print(tokens_results)
