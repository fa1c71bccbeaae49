#!/bin/bash 
export TORCH_LOGS="+dynamo,recompiles,graph_breaks"
# export TORCHDYNAMO_VERBOSE=1
export WANDB_MODE="online"
export NCCL_P2P_DISABLE=0
export NCCL_IB_DISABLE=1          # disable InfiniBand
export TORCH_NCCL_ENABLE_MONITORING=0
export WANDB_API_KEY=
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True 

GPU_IDS="1,2,3,4"

# Training Configurations
# Experiment with as many hyperparameters as you want!
LEARNING_RATES=("1e-3")
LR_SCHEDULES=("cosine_with_restarts")
OPTIMIZERS=("adamw")
MAX_TRAIN_STEPS=("12184")

# Single GPU uncompiled training
ACCELERATE_CONFIG_FILE="accelerate_configs/uncompiled_5b_lora.yaml"

# Absolute path to where the data is located. Make sure to have read the README for how to prepare data.
# This example assumes you downloaded an already prepared dataset from HF CLI as follows:
#   huggingface-cli download --repo-type dataset Wild-Heart/Disney-VideoGeneration-Dataset --local-dir /path/to/my/datasets/disney-dataset
DATA_ROOT="/mnt/ceph/develop/jiawei/lora_dataset/5B-Tom-and-Jerry-VideoGeneration-Dataset-encoded-image-to-video"
CAPTION_COLUMN="prompts.txt"
VIDEO_COLUMN="videos.txt"
