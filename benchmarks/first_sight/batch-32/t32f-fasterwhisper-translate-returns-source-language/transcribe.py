model = WhisperModel(
    "faster-whisper-large-v3-turbo",
    device="cuda",
    compute_type="float16",
    cpu_threads=4,
    num_workers=1
    )

 out_trans = model.transcribe(
      stream,
      task = "translate",
      log_progress=True
  )
