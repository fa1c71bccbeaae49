accelerate launch --num_machines 1 --machine_rank 0 --num_processes 2 --main_process_ip=<redacted> --main_process_port=14624 --mixed_precision=bf16 --multi_gpu grpo.py
