#!/bin/bash

DISTRIBUTED_WORLD_SIZE=2

# Calculate optimization update frequency
OPTIMIZATION_UPDATE_FREQ=$((24 / DISTRIBUTED_WORLD_SIZE))

# Set your data and model paths
DATA_PATH="../vakyansh-wav2vec2-experimentation/data/finetuning"
W2V_MODEL_PATH="../vakyansh-wav2vec2-experimentation/checkpoints/pretraining/xlsr_53_56k.pt"

# Set the configuration directory and name
CONFIG_DIR="../vakyansh-wav2vec2-experimentation/config/finetuning/"
CONFIG_NAME="base_10h"

# Run the Fairseq training command
CUDA_VISIBLE_DEVICES=3 fairseq-hydra-train \
    distributed_training.distributed_world_size=$DISTRIBUTED_WORLD_SIZE \
    task.data=$DATA_PATH \
    +optimization.update_freq=[$OPTIMIZATION_UPDATE_FREQ] \
    model.w2v_path=$W2V_MODEL_PATH \
    --config-dir $CONFIG_DIR \
    --config-name $CONFIG_NAME
