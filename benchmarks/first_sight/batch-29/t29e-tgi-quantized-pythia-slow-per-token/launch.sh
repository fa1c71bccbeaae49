model=OpenAssistant/pythia-12b-sft-v8-7k-steps
num_shard=4
volume=$PWD/hfcache

sudo docker run --gpus all --shm-size 1g \
-p 8080:80\
 -v $volume:/data ghcr.io/huggingface/text-generation-inference:sha-49cffad \
 --model-id $model --num-shard $num_shard --disable-custom-kernels \
 --quantize 
