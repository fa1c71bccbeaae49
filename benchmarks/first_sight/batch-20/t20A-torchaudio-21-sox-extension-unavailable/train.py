
## STABLE
print(torchaudio.__version__)
# 2.0.2+cu118

print(torchaudio.utils.sox_utils.list_read_formats())
# ['aifc', 'aiffc', 'aiff', 'aif', 'al', 'au', 'snd', 'avr', 'cdda', 'cdr', 'cvsd', 'cvs', 'cvu', 'dat', 'dvms', 'vms', 'f4', 'f32', 'f8', 'f64', 'gsrt', 'hcom', 'htk', 'ima', 'la', 'lu', 'maud', 'null', 'prc', 'raw', 's1', 's8', 'sb', 's2', 's16', 'sw', 's3', 's24', 's4', 's32', 'sl', 'sf', 'ircam', 'sln', 'smp', 'sndr', 'sndt', 'sox', 'sph', 'nist', '8svx', 'txw', 'u1', 'u8', 'ub', 'sou', 'fssd', 'u2', 'u16', 'uw', 'u3', 'u24', 'u4', 'u32', 'ul', 'voc', 'vox', 'wav', 'wavpcm', 'amb', 'wve', 'xa', 'amr-nb', 'anb', 'amr-wb', 'awb', 'flac', 'gsm', 'lpc10', 'lpc', 'opus', 'vorbis', 'ogg']

print(torchaudio.backend.get_audio_backend())
# 'sox_io'

-----

## NIGHTLY
print(torchaudio.__version__)
# 2.1.0.dev20230807+cu118

print(torchaudio.utils.sox_utils.list_read_formats())
# RuntimeError: list_read_formats requires sox extension which is not available. Please refer to the stacktrace above for how to resolve this

print(torchaudio.backend.get_audio_backend())
# UserWarning: get_audio_backend's return value is irrelevant when the I/O backend dispatcher is enabled.
# ValueError: Unknown backend
