checkpoint_dir="./checkpoints/REIL/sokoban-rl-exp-0.5b-0.005beta-logic-with-kl/global_step_1500/actor"
BASE_MODEL="./models/rlft/models--Qwen--Qwen2.5-0.5B-Instruct/snapshots/7ae557604adf67be50417f59c2c2f167def9a775"
target_dir="./checkpoints/REIL/sokoban-rl-exp-0.5b-0.005beta-logic-with-kl/"

python3 reil/scripts/model_merger.py --backend fsdp \
    --hf_model_path $BASE_MODEL \
    --local_dir $checkpoint_dir \
    --target_dir $target_dir
