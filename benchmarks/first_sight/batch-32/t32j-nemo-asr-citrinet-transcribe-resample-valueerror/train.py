asr_model = nemo_asr.models.EncDecCTCModel.from_pretrained(model_name="stt_zh_citrinet_512")
mandarin_text=asr_model.transcribe(paths2audio_files=["./test.wav"])
print(mandarin_text)
