git clone https://github.com/cybertronai/transformer-xl
cd transformer-xl
pip install -r requirements.txt
# Download dataset to ./data/wikitext-103/ then
NCCL_DEBUG_FILE=log.%h.%p NCCL_DEBUG_SUBSYS=COLL NCCL_DEBUG=INFO NCCL_MIN_NRINGS=16 NCCL_MAX_NRINGS=16  python -m tor
ch.distributed.launch --nproc_per_node=8 --nnodes=1 --node_rank=0 --master_addr=<redacted> --master_port=6016 train.py --seed 1111 --data data/wikitext-103
 --dataset wt103 --adaptive --log_interval 100 --eval_interval 500 --max_tokens 1500000000 --logdir /ncluster/runs/ben-no-bpe.13
