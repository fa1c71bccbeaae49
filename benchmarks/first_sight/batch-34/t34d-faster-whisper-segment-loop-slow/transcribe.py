start = time.time()
print("Transcribing audio file...") 
segments, _ = model.transcribe("samples/sinan_speech_30s_16.wav", word_timestamps=True, beam_size=1)

# print("Detected language '%s' with probability %f" % (info.language, info.language_probability))

print("Transcription took %.2fs" % (time.time() - start))
print('\n')

for segment in segments:
    for word in segment.words:
        # print("[%.2fs -> %.2fs] %s" % (word.start, word.end, word.word))
        print(word.word, end='', flush=True) # same 'speed' with flush=False
