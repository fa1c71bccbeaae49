CUDA_VISIBLE_DEVICES=1 /home/wit/anaconda3/envs/mmlab/bin/python \
    ./tools/train.py \
    /home/wit/wjx/mmdetection-20200921/configs/widerface/retina_res_widerface.py \
    --work-dir /home/wit/wjx/WiderFace/training \
    --no-validate ")
