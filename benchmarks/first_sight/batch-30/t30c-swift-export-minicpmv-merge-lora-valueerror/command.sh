CUDA_VISIBLE_DEVICES=5 swift export \ 
--ckpt_dir "output/${model_type}/v25-checkpoint-xxxx" \ 
--model_id_or_path "/home/pretrained_models/OpenBMB/MiniCPM-V-2_6" \ 
--merge_lora true \
