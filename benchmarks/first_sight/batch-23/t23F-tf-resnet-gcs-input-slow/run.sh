python imagenet_main.py --data_dir=<GCS_BUCKET> --num_gpus=8 --resnet_size=50 --bs 256 --train_epochs 300 --model_dir model
