python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024
