> export GLOBAL_BATCH_SIZE=4 NUM_GPU_PAGE_BLOCKS=100
> python qserve_benchmark.py --model $MODEL_PATH --benchmarking --precision w4a8kv4 --group-size 128
