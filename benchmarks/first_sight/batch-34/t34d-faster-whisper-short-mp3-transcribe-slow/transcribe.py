model = WhisperModel("medium", device="cpu", compute_type="int8")
segments, info = model.transcribe("/home/ubuntu/workspace/speech-to-text/whats-up-doc.mp3", beam_size=1)
for segment in segments:
        print("[%.2fs -> %.2fs] %s" % (segment.start, segment.end, segment.text))
