torchrun \
    --standalone \
    --nproc_per_node $NUM_GPUS \
    $ROOT_DIR/scripts/train_eagle3.py \
    --target-model-path Qwen/Qwen2.5-VL-7B-Instruct \
    --target-model-backend hf \
    --draft-model-config $ROOT_DIR/configs/qwen2-5-vl-eagle3.json \
    --build-dataset-num-proc 8 \
    --train-data-path $ROOT_DIR/cache/dataset/allava4v_train.jsonl \
    --output-dir $ROOT_DIR/outputs/Qwen2.5-VL-7B-eagle3 \
    --num-epochs 10 \
    --batch-size 1 \
