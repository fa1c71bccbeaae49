CUDA_VISIBLE_DEVICES=0,1,2,3 OMP_NUM_THREADS=40 python -m torch.distributed.launch --nproc_per_node=4 \
  train.py hparams/train_ecapa_tdnn.yaml \
  --data_folder=data/common_voice_kpd \
  --batch_size=4 --seed=2000 \
  --num_workers=20 \
  --distributed_launch \
  --distributed_backend='nccl'
